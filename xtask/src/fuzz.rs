//! `cargo xtask fuzz [--seconds N] [TARGET...]`: every cargo-fuzz target of `fuzz/`
//! (one per crate family, each comparing ours with the RustCrypto release, or with
//! libxcrypt for `des-crypt`; `libcrypt`, the C ABI of `simdcrypt-libcrypt` called from
//! Rust; `dispatch`, short calls through every backend against `soft`) for N seconds,
//! under AddressSanitizer. A crash, a panic
//! (every mismatch panics) or a leak fails the run, and the input that shows it is
//! named. Each target keeps its corpus in `fuzz/corpus/<target>` (not committed), so
//! later runs start where earlier ones stopped.
//!
//! Needs the nightly toolchain (`-Zsanitizer`) and `cargo-fuzz`; `cargo xtask setup`
//! installs cargo-fuzz, and rustup the toolchain if it is missing.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::util::{Cmd, Result, cargo_program, dry_run, root, which};

/// Seconds per target of the CI step.
pub const CI_SECONDS: u64 = 20;

/// `cargo fuzz` options of a build for a pass of `seconds` per target. cargo-fuzz builds
/// `-O` with one codegen unit, so that ThinLTO can still inline through the coverage
/// instrumentation (its docs: runs about 3× faster). A short pass is bound by the build
/// instead: with one unit the `modes` target alone, every cipher through ours and the
/// published `ctr`/`cbc` under AddressSanitizer, was still compiling after 8 minutes on one of
/// 2 cores (Intel Xeon, 2026-12-06). Passes of a minute or less use sixteen; a campaign
/// keeps the default. `build` and every `run` take the same options, so `run` does not
/// build again.
fn build_options(seconds: u64) -> &'static [&'static str] {
    if seconds <= 60 {
        &["-O", "--codegen-units", "16"]
    } else {
        &["-O"]
    }
}

/// libFuzzer options of every run: inputs up to 4 KiB (the targets cap their data at
/// 16 KiB anyway), 10 s per input (the slowest, BSDi crypt with a 4095 count, takes
/// milliseconds), and an RSS cap well under this machine's memory.
const LIBFUZZER: &[&str] = &["-max_len=4096", "-timeout=10", "-rss_limit_mb=3072"];

/// The fuzz targets: the `[[bin]]` names of `fuzz/Cargo.toml`.
pub fn targets(root: &Path) -> Result<Vec<String>> {
    let toml = fs::read_to_string(root.join("fuzz/Cargo.toml"))
        .map_err(|e| format!("fuzz/Cargo.toml: {e}"))?;
    let mut out = Vec::new();
    let mut in_bin = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(v) = line.strip_prefix("name = ") {
            out.push(v.trim_matches('"').to_string());
        }
    }
    Ok(out)
}

pub fn run(seconds: u64, only: &[String]) -> Result {
    let root = root();
    let all = targets(&root)?;
    for t in only {
        if !all.contains(t) {
            return Err(format!(
                "no fuzz target `{t}` (targets: {})",
                all.join(", ")
            ));
        }
    }
    let chosen: Vec<&String> = all
        .iter()
        .filter(|t| only.is_empty() || only.contains(t))
        .collect();
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
        crate::util::skip("fuzz: wired for x86-64 Linux (libxcrypt oracle, ASan)");
        return Ok(());
    }
    if !dry_run() && !nightly_present() {
        return Err(
            "fuzz: no nightly toolchain (`rustup toolchain install nightly --profile minimal`)"
                .into(),
        );
    }
    if !dry_run() && !cargo_fuzz_present() {
        return Err("fuzz: cargo-fuzz is not installed (`cargo xtask setup` installs it)".into());
    }
    let fuzz = || nightly().dir(root.join("fuzz")).arg("fuzz");
    let options = build_options(seconds);
    fuzz().arg("build").args(options.iter().copied()).run()?;
    let logs = root.join("fuzz/logs");
    let mut report = Vec::new();
    for t in chosen {
        fs::create_dir_all(root.join("fuzz/corpus").join(t)).map_err(|e| e.to_string())?;
        let log = logs.join(format!("{t}.log"));
        let cmd = fuzz()
            .arg("run")
            .args(options.iter().copied())
            .args([t.as_str(), "--"])
            .arg(format!("-max_total_time={seconds}"))
            .args(LIBFUZZER.iter().copied());
        println!("$ {}  > {}", cmd.display(), log.display());
        if dry_run() {
            continue;
        }
        fs::create_dir_all(&logs).map_err(|e| e.to_string())?;
        let started = Instant::now();
        let out = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let status = Command::new("rustup")
            .current_dir(root.join("fuzz"))
            .args(["run", "nightly", "cargo", "fuzz", "run"])
            .args(options)
            .args([t.as_str(), "--"])
            .arg(format!("-max_total_time={seconds}"))
            .args(LIBFUZZER)
            .stdin(Stdio::null())
            .stdout(out.try_clone().map_err(|e| e.to_string())?)
            .stderr(out)
            .status()
            .map_err(|e| format!("cargo fuzz: {e}"))?;
        let text = fs::read_to_string(&log).unwrap_or_default();
        let runs = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("Done ")?.split_whitespace().next())
            .unwrap_or("?")
            .to_string();
        let line = format!(
            "{t}: {runs} runs in {:.0}s, corpus {} inputs",
            started.elapsed().as_secs_f64(),
            fs::read_dir(root.join("fuzz/corpus").join(t)).map_or(0, |d| d.count())
        );
        if !status.success() {
            // The panic message (the mismatch) and the input libFuzzer saved.
            let why: Vec<&str> = text
                .lines()
                .filter(|l| {
                    l.contains("panicked at")
                        || l.starts_with("assertion")
                        || l.contains("ERROR:")
                        || l.contains("Test unit written to")
                })
                .take(8)
                .collect();
            return Err(format!(
                "fuzz target `{t}` failed ({status}) after {line}\n{}\nfull log: {}",
                why.join("\n"),
                log.display()
            ));
        }
        println!("    {line}: no crash, no mismatch");
        report.push(line);
    }
    if !report.is_empty() {
        println!("fuzz: every target ran {seconds}s clean:");
        for l in report {
            println!("  {l}");
        }
    }
    Ok(())
}

/// Nightly cargo (through rustup: `$CARGO` is the stable toolchain's own binary,
/// which does not take `+nightly`).
pub fn nightly() -> Cmd {
    Cmd::new("rustup").args(["run", "nightly", "cargo"])
}

pub fn nightly_present() -> bool {
    which("rustup").is_some() && nightly().arg("--version").succeeds()
}

pub fn cargo_fuzz_present() -> bool {
    which("cargo-fuzz").is_some()
        || Cmd::new(cargo_program())
            .args(["fuzz", "--version"])
            .succeeds()
}
