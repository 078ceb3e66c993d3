//! `cargo xtask ct [--long]`: the constant-time checks. Builds the `ct` binary of the
//! speed package (release) and runs three checks on it:
//!
//! 1. **valgrind** (issue 11): each of its valgrind targets under memcheck, which fails a
//!    run on any branch or memory address that depends on the bytes a target marked secret
//!    (`benches/src/bin/ct/main.rs` has the targets and the list of exempt, table-based
//!    backends). valgrind cannot execute AVX-512, VAES, GFNI or SHA-NI: those targets skip.
//! 2. **static** (issue 24, [`crate::ctscan`]): a taint analysis of the binary's
//!    disassembly (`objdump -d`) over the functions of every constant-time backend
//!    (`ct code` lists them by symbol prefix): no branch on a secret, no secret-indexed
//!    memory access, no gather. Then the same for AArch64: the `ct` binary built for
//!    `aarch64-unknown-linux-gnu` (release, as `cargo xtask cross` builds it, without its
//!    debug assertions), disassembled by `aarch64-linux-gnu-objdump`, against the aarch64
//!    list (`ct code aarch64`: the NEON and ARMv8 backends and the portable ones). It
//!    needs only the cross toolchain, which `cargo xtask setup` installs; nothing runs
//!    under qemu.
//! 3. **timing** (issue 24, `ct time`): dudect's fixed-vs-random Welch t-test for every
//!    backend the docs call constant-time, AVX-512, VAES, GFNI and SHA-NI included, each
//!    forced through its crate's `__backends`. Up to 20 000 measurements a target per run
//!    (capped at ≈1.5 s a run for slow calls, never under 6 000; `--long`: 200 000 and
//!    ≈15 s), each one call timed with `rdtsc`; Welch's t uncropped, at 20 cropping
//!    percentiles and second order; the largest |t| counts. |t| > 4.5 (the paper's
//!    threshold) makes a target suspect and it is rerun twice; it fails when two of its
//!    three runs are above 10 (`LEAK` in `benches/src/bin/ct/main.rs` says why 10). The
//!    two leaky controls (a 16 MiB table indexed by a secret, an early-exit comparison)
//!    give |t| in the hundreds and must be above 10 in their one run.
//!
//! Each check has a deliberately leaky control that must fail it, or the check proves
//! nothing: `leaky-toy` for valgrind, `leaky-table` and `leaky-branch` for the other two.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::ctscan::{self, Arch, Regs};

use crate::util::{Cmd, Result, target_dir, which};
use crate::workspace::Workspace;

/// `ct run NAME` exits with this when the backend is not available here.
const SKIPPED: i32 = 3;

pub fn run(ws: &Workspace, long: bool) -> Result {
    if !ws.has_speed {
        crate::util::skip("ct: no benches/ package yet");
        return Ok(());
    }
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        crate::util::skip("ct: valgrind's client requests are wired for x86-64 Linux only");
        return Ok(());
    }
    if which("valgrind").is_none() {
        return Err("ct: valgrind is not installed (`cargo xtask setup` installs it)".into());
    }
    Cmd::cargo()
        .args(["build", "--release", "-p", "speed", "--bin", "ct"])
        .run()?;
    let bin: PathBuf = target_dir().join("release").join("ct");
    // `XTASK_CT_ONLY=static`: only the static check (for iterating on a backend's code).
    if std::env::var("XTASK_CT_ONLY").as_deref() == Ok("static") {
        let x86 = scan_x86(&bin);
        return x86.and(scan_aarch64(&bin));
    }
    let list = Command::new(&bin)
        .arg("list")
        .output()
        .map_err(|e| format!("ct list: {e}"))?;
    let targets: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    if targets.is_empty() {
        return Err("ct: no targets".into());
    }
    let vg = |name: &str| -> Result<i32> {
        println!(
            "$ valgrind -q --error-exitcode=1 {} run {name}",
            bin.display()
        );
        let status = Command::new("valgrind")
            .args(["-q", "--error-exitcode=1"])
            .arg(&bin)
            .args(["run", name])
            .status()
            .map_err(|e| format!("valgrind: {e}"))?;
        Ok(status.code().unwrap_or(-1))
    };
    // The check must be able to fail.
    match vg("leaky-toy")? {
        1 => println!("ct: leaky-toy rejected, as it must be"),
        c => {
            return Err(format!(
                "ct: the leaky toy was not caught (exit {c}): the check is broken"
            ));
        }
    }
    let (mut passed, mut skipped, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    // The static and timing checks first: they cover what valgrind skips.
    let static_result = scan_x86(&bin).and_then(|()| scan_aarch64(&bin));
    println!(
        "$ {} time{}",
        bin.display(),
        if long { " --long" } else { "" }
    );
    let timing = Command::new(&bin)
        .arg("time")
        .args(long.then_some("--long"))
        .status()
        .map_err(|e| format!("ct time: {e}"))?;
    for t in &targets {
        match vg(t)? {
            0 => passed.push(t.clone()),
            SKIPPED => skipped.push(t.clone()),
            _ => failed.push(t.clone()),
        }
    }
    println!(
        "ct: {} constant-time, {} skipped (backend not available under valgrind here: {})",
        passed.len(),
        skipped.len(),
        skipped.join(", ")
    );
    let mut errors = Vec::new();
    if !failed.is_empty() {
        errors.push(format!(
            "valgrind: secret-dependent branches or addresses in {}",
            failed.join(", ")
        ));
    }
    if let Err(e) = static_result {
        errors.push(e);
    }
    if !timing.success() {
        errors.push("timing: a target leaked or a control was not caught (see above)".into());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("ct: {}", errors.join("; ")))
    }
}

/// The static check of the x86-64 build (`bin`, this host's).
fn scan_x86(bin: &Path) -> Result {
    let code = Command::new(bin)
        .arg("code")
        .output()
        .map_err(|e| format!("ct code: {e}"))?;
    let code = String::from_utf8_lossy(&code.stdout).into_owned();
    scan(bin, "objdump", &["-M", "intel"], Arch::X86_64, &code)
}

/// The static check of the aarch64 build; `host_bin` (this host's `ct`) prints the list.
fn scan_aarch64(host_bin: &Path) -> Result {
    const TRIPLE: &str = "aarch64-unknown-linux-gnu";
    let objdump = "aarch64-linux-gnu-objdump";
    let Some(cross) = crate::cross::Cross::new(TRIPLE)? else {
        return Ok(());
    };
    if which(objdump).is_none() {
        return Err(format!(
            "static: {objdump} is not installed (binutils-aarch64-linux-gnu)"
        ));
    }
    // Its own directory: the `cross` step's builds keep their debug assertions, which
    // would add overflow branches the release build does not have.
    let dir = target_dir().join("ct-aarch64");
    cross
        .cargo(["build", "--release", "-p", "speed", "--bin", "ct"], &dir)
        .env("CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS", "false")
        .env("CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS", "false")
        .run()?;
    let bin = dir.join(TRIPLE).join("release").join("ct");
    let code = Command::new(host_bin)
        .args(["code", "aarch64"])
        .output()
        .map_err(|e| format!("ct code aarch64: {e}"))?;
    let code = String::from_utf8_lossy(&code.stdout).into_owned();
    scan(&bin, objdump, &[], Arch::Aarch64, &code)
}

/// The static check of every target `code` lists in `bin`'s disassembly; the controls
/// must fail it.
fn scan(bin: &Path, objdump: &str, style: &[&str], arch: Arch, code: &str) -> Result {
    if which(objdump).is_none() {
        return Err(format!("static: {objdump} is not installed (binutils)"));
    }
    let mut cmd = Command::new(objdump);
    cmd.args(["-d", "-C"])
        .args(style)
        .arg("--no-show-raw-insn")
        .arg(bin);
    println!(
        "$ {objdump} -d -C {} --no-show-raw-insn {}",
        style.join(" "),
        bin.display()
    );
    let dis = cmd.output().map_err(|e| format!("{objdump}: {e}"))?;
    if !dis.status.success() {
        return Err(format!("{objdump} failed on {}", bin.display()));
    }
    let funcs = ctscan::parse(&String::from_utf8_lossy(&dis.stdout), arch);
    let mut bad = Vec::new();
    println!("static ({arch:?}): taint analysis of each constant-time backend's functions");
    for line in code.lines() {
        let mut cols = line.split('\t');
        let (Some(name), Some(regs), Some(prefixes)) = (cols.next(), cols.next(), cols.next())
        else {
            continue;
        };
        let regs = match regs {
            "scalar" => Regs::Scalar,
            "scalar64" => Regs::Scalar64,
            _ => Regs::Vector,
        };
        let prefixes: Vec<&str> = prefixes.split(',').collect();
        let r = ctscan::scan(&funcs, &prefixes, regs, arch);
        let control = name.starts_with("leaky-");
        let known = cols.next().unwrap_or("");
        let verdict = match (r.functions, r.findings.is_empty(), control) {
            (n, false, false) if n > 0 && !known.is_empty() => "known (below)",
            (0, _, false) if prefixes == [""] => "not checked (no out-of-line code)",
            (0, _, _) => {
                bad.push(format!(
                    "{name} (no function matches {})",
                    prefixes.join(",")
                ));
                "NO CODE FOUND"
            }
            (_, true, false) => "ok",
            (_, false, true) => "leak found, as it must be",
            (_, true, true) => {
                bad.push(format!("{name} (the control passed: the check is blind)"));
                "NOT FOUND: the check is blind"
            }
            (_, false, false) => {
                bad.push(name.to_string());
                "LEAK"
            }
        };
        println!(
            "  {name:<26} {:>3} functions {:>6} instructions {:>3} findings  {verdict}",
            r.functions,
            r.insns,
            r.findings.len()
        );
        // Per function: how many findings, and the first.
        let mut per: Vec<(&str, usize, &ctscan::Finding)> = Vec::new();
        for f in &r.findings {
            match per.last_mut() {
                Some((n, c, _)) if *n == f.function => *c += 1,
                _ => per.push((&f.function, 1, f)),
            }
        }
        if !known.is_empty() && !r.findings.is_empty() {
            println!("      known: {known}");
        }
        for (func, count, f) in per.iter().take(if control { 1 } else { 6 }) {
            println!(
                "      {func}: {count} findings, first at {:x}: {}  ({})",
                f.addr, f.what, f.text
            );
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!("static ({arch:?}): {}", bad.join(", ")))
    }
}
