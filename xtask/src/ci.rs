//! `cargo xtask ci` and the commands its steps are made of (`test`, forced backends,
//! `cpu-ladder`, `bench`, docs, semver-checks).

use std::env;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::cross::Cross;
use crate::util::{
    Cmd, Result, dry_run, files_with_suffix, root, rustflags_plus, rustflags_without_target_cpu,
    target_dir, which,
};
use crate::workspace::Workspace;
use crate::{cpu, dropin, package_args, setup, tidy};

/// The steps of `cargo xtask ci`, in order (also the names `--skip` takes).
pub const STEPS: &[(&str, &str)] = &[
    ("setup", "install what is missing"),
    ("cpu", "host CPU features"),
    ("fmt", "cargo fmt --check"),
    ("clippy", "clippy -D warnings, default and all features"),
    ("tidy", "policy checks"),
    ("test", "tests (release; the detected backends, doc tests)"),
    ("forced", "every forced backend of every crate"),
    (
        "ladder",
        "tests under qemu-x86_64 -cpu qemu64 / Westmere / Haswell",
    ),
    (
        "cross",
        "tests for aarch64 (qemu, with and without crypto extensions)",
    ),
    ("doc", "docs -D warnings"),
    ("bench", "criterion benches once each, and the speed tool"),
    (
        "semver",
        "cargo semver-checks against the RustCrypto releases",
    ),
    ("dropin", "published dependents patched with our crates"),
    (
        "libcrypt",
        "simdcrypt-libcrypt preloaded under Python, Perl and mkpasswd",
    ),
    (
        "package",
        "every published crate packaged, its tests run from the unpacked .crate",
    ),
    (
        "ct",
        "constant-time checks: valgrind memcheck, disassembly taint scan, dudect timing",
    ),
    (
        "fuzz",
        "a short pass of every fuzz target (cargo xtask fuzz --seconds 20)",
    ),
];

/// The qemu CPU models of the ladder (`-cpu` argument, what it offers, the crates it
/// runs: all when empty). Haswell drops the system-only features qemu's TCG cannot
/// emulate, which it would warn about on every test binary.
pub const LADDER: &[(&str, &str, &[&str])] = &[
    ("qemu64", "SSE2 only", &[]),
    ("Westmere", "SSSE3, SSE4.1, AES-NI, PCLMULQDQ; no AVX", &[]),
    (
        "Haswell,-pcid,-x2apic,-tsc-deadline,-hle,-invpcid,-rtm",
        "AVX, AVX2, BMI2; no AVX-512",
        &[],
    ),
    // Only `aes` has a backend for AVX2 without AES-NI; the other crates would rerun
    // what plain Haswell ran.
    (
        "Haswell,-aes,-pcid,-x2apic,-tsc-deadline,-hle,-invpcid,-rtm",
        "AVX2 without AES-NI",
        &["aes"],
    ),
];

/// Tests the ladder skips under one qemu model: (model, crate, test-name filters; none =
/// the whole crate, the first qemu major version that runs them right).
///
/// qemu-user 7.2 (Debian 12) emulates some AVX2 `vpgatherdd` sequences wrongly: a
/// standalone loop of 8-lane S-box gathers gives different lanes under
/// `qemu-x86_64 -cpu Haswell` than the same binary natively. Blowfish's `avx2` backend
/// hits it in its 16- and 8-block paths (`avx2_matches_soft`: "encryption of 31 blocks
/// differs from soft"); the same tests pass natively in the `test` and `forced` steps
/// (this machine has AVX2). qemu-user 10.0.2 (bookworm-backports, what `setup` puts in
/// [`qemu10_dir`]) runs them right, so the skip applies only to older ones.
pub const QEMU_SKIPS: &[(&str, &str, &[&str], u32)] = &[(
    "Haswell,-pcid,-x2apic,-tsc-deadline,-hle,-invpcid,-rtm",
    "blowfish",
    &[],
    10,
)];

/// The environment variable naming the `qemu-x86_64` the ladder runs (a path or a name
/// on `PATH`).
pub const QEMU_ENV: &str = "SIMDCRYPT_QEMU_X86_64";

/// Where `cargo xtask setup` unpacks qemu-user 10 from bookworm-backports on Debian 12,
/// beside the system's 7.2 (under the target dir: private, no system state touched).
pub fn qemu10_dir() -> std::path::PathBuf {
    target_dir().join("qemu10")
}

/// The `qemu-x86_64` of the ladder: `$SIMDCRYPT_QEMU_X86_64`, else the one `setup` put
/// in [`qemu10_dir`], else the system's.
pub fn ladder_qemu() -> String {
    if let Ok(q) = env::var(QEMU_ENV)
        && !q.is_empty()
    {
        return q;
    }
    let q10 = qemu10_dir().join("usr/bin/qemu-x86_64");
    if q10.is_file() {
        return q10.display().to_string();
    }
    "qemu-x86_64".into()
}

/// The major version in `qemu-x86_64 --version` output (`qemu-x86_64 version 7.2.22 …`).
pub fn qemu_major(version: &str) -> Option<u32> {
    let v = version.split_once(" version ")?.1;
    v.split('.').next()?.trim().parse().ok()
}

/// Arguments of the `speed` smoke run (every algorithm, short, with peers and cycles).
pub const SPEED_ARGS: &[&str] = &["-seconds", "0.05", "--compare", "--cycles"];

/// Runs the steps in order: all of them, or only those in `only`, minus `skip`.
pub fn run(only: &[String], skip: &[String]) -> Result {
    for s in only.iter().chain(skip) {
        if !STEPS.iter().any(|(name, _)| name == s) {
            let names: Vec<&str> = STEPS.iter().map(|s| s.0).collect();
            return Err(format!("no step `{s}` (steps: {})", names.join(", ")));
        }
    }
    let root = root();
    let started = Instant::now();
    let mut times: Vec<(&str, Option<Duration>, bool)> = Vec::new();
    let mut failed = None;
    for &(name, what) in STEPS {
        if !(only.is_empty() || only.iter().any(|s| s == name)) {
            continue;
        }
        if skip.iter().any(|s| s == name) {
            println!("\n==> {name}: skipped (--skip)");
            times.push((name, None, true));
            continue;
        }
        println!("\n==> {name}: {what}");
        let t = Instant::now();
        // Read afresh for each step (a few small files).
        let result = Workspace::load(&root).and_then(|ws| step(name, &ws));
        let took = t.elapsed();
        let ok = result.is_ok();
        println!(
            "<== {name}: {} in {:.1}s",
            if ok { "ok" } else { "FAILED" },
            took.as_secs_f64()
        );
        times.push((name, Some(took), ok));
        if let Err(e) = result {
            if dry_run() {
                println!("(dry run: continuing after) error: {e}");
            } else {
                failed = Some(format!("ci step `{name}` failed: {e}"));
                break;
            }
        }
    }
    println!("\n==> summary");
    for (name, took, ok) in &times {
        match took {
            Some(t) => println!(
                "  {name:<8} {:>8.1}s  {}",
                t.as_secs_f64(),
                if *ok { "ok" } else { "FAILED" }
            ),
            None => println!("  {name:<8} {:>9}  skipped", "-"),
        }
    }
    println!("  {:<8} {:>8.1}s", "total", started.elapsed().as_secs_f64());
    let skipped = crate::util::skipped();
    if !skipped.is_empty() {
        println!("\n  SKIPPED ({}):", skipped.len());
        for s in skipped {
            println!("    {s}");
        }
    }
    // The gate's own closing line: how many of its steps ran and passed.
    let ran = times.iter().filter(|(_, took, _)| took.is_some()).count();
    let passed = times
        .iter()
        .filter(|(_, took, ok)| took.is_some() && *ok)
        .count();
    println!("\nsteps: {passed} passed, {} failed", ran - passed);
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn step(name: &str, ws: &Workspace) -> Result {
    match name {
        "setup" => setup::run(),
        "cpu" => {
            cpu::print_features();
            Ok(())
        }
        "fmt" => {
            Cmd::cargo().args(["fmt", "--all", "--check"]).run()?;
            // The fuzz crate is its own workspace.
            Cmd::cargo()
                .args(["fmt", "--check", "--manifest-path", "fuzz/Cargo.toml"])
                .run()
        }
        "clippy" => clippy(ws),
        "tidy" => tidy::run(&ws.root),
        // Release only: the `forced` step runs every backend (the detected one too) with
        // debug assertions and overflow checks, so a debug build here would add a whole
        // build for no code path of its own. This build is also what `ladder` and
        // `bench` reuse.
        // The seeded differential against OpenSSL 3 (`benches/tests/openssl.rs`) runs in
        // the same `cargo test --workspace`: `speed/openssl` changes the features of no
        // other package, whereas a separate `cargo test -p speed --features openssl`
        // resolved its dependencies' features anew and rebuilt them all (4m41s of the
        // 80-minute gate).
        "test" => Cmd::cargo()
            .args(["test", "--workspace", "--release"])
            .args(
                workspace_test_features(ws, "openssl differential")
                    .iter()
                    .copied(),
            )
            .run(),
        "forced" => forced(ws, &[], None, true, None).map(drop),
        "ladder" => ladder(ws, &[]),
        "cross" => {
            for (triple, backend) in crate::cross::CI_TARGETS {
                crate::cross::run(ws, triple, &[], backend)?;
            }
            // The published dependents on aarch64, detected backends on both rungs.
            dropin::run(ws, Some("aarch64-unknown-linux-gnu"))
        }
        "doc" => doc(ws),
        "bench" => {
            bench(ws, &[], &["--test".to_string()])?;
            speed(ws)
        }
        "semver" => semver(ws),
        "dropin" => dropin::run(ws, None),
        "libcrypt" => crate::libcrypt::run(),
        "package" => crate::package::run(ws, true),
        "ct" => crate::ct::run(ws, false),
        "fuzz" => crate::fuzz::run(crate::fuzz::CI_SECONDS, &[]),
        _ => Err(format!("unknown step {name}")),
    }
}

/// Whether `speed`'s `openssl` feature (OpenSSL 3 as a peer) can be built here; when not,
/// records that `what` is skipped and why.
fn speed_openssl(ws: &Workspace, what: &str) -> bool {
    if !ws.speed_openssl {
        crate::util::skip(format!(
            "{what}: the speed package has no `openssl` feature"
        ));
        false
    } else if !openssl_available() {
        crate::util::skip(format!("{what}: no OpenSSL development files here"));
        false
    } else {
        true
    }
}

/// The features of the `test` step's `cargo test --workspace --release`, which `ladder`
/// repeats to reuse that build: `speed/openssl` when it builds here (else `what` is
/// recorded as skipped).
fn workspace_test_features(ws: &Workspace, what: &str) -> &'static [&'static str] {
    if speed_openssl(ws, what) {
        &["--features", "speed/openssl"]
    } else {
        &[]
    }
}

/// Whether `openssl-sys` will find OpenSSL here (the `speed` crate's `openssl` feature).
fn openssl_available() -> bool {
    if env::var_os("OPENSSL_DIR").is_some() {
        return true;
    }
    match env::consts::OS {
        "linux" => setup::openssl_dev_present(),
        "macos" => [
            "/opt/homebrew/opt/openssl@3",
            "/usr/local/opt/openssl@3",
            "/opt/homebrew/opt/openssl",
            "/usr/local/opt/openssl",
        ]
        .iter()
        .any(|p| Path::new(p).is_dir()),
        _ => false,
    }
}

/// `--exclude speed` for `--all-features` runs when OpenSSL is not there.
fn all_features_exclusions(ws: &Workspace) -> Vec<String> {
    if ws.speed_openssl && !openssl_available() {
        crate::util::skip(
            "speed --all-features: no OpenSSL development files here (set OPENSSL_DIR); \
             the other crates are checked with --all-features",
        );
        vec!["--exclude".into(), "speed".into()]
    } else {
        Vec::new()
    }
}

fn clippy(ws: &Workspace) -> Result {
    Cmd::cargo()
        .args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ])
        .run()?;
    Cmd::cargo()
        .args(["clippy", "--workspace", "--all-targets", "--all-features"])
        .args(all_features_exclusions(ws))
        .args(["--", "-D", "warnings"])
        .run()
}

fn doc(ws: &Workspace) -> Result {
    Cmd::cargo()
        .args(["doc", "--workspace", "--no-deps", "--all-features"])
        .args(all_features_exclusions(ws))
        .env(
            "RUSTDOCFLAGS",
            rustflags_plus("RUSTDOCFLAGS", "-D warnings"),
        )
        .run()
}

/// `cargo test` of the workspace, or of `packages`.
pub fn test(ws: &Workspace, packages: &[String], release: bool) -> Result {
    let mut cmd = Cmd::cargo().arg("test");
    if packages.is_empty() {
        cmd = cmd.arg("--workspace");
    } else {
        cmd = cmd.args(package_args(ws, packages)?);
    }
    if release {
        cmd = cmd.arg("--release");
    }
    cmd.run()
}

/// The variable through which [`forced`] hands the round's `--cfg` flags to this binary
/// running as `RUSTC_WORKSPACE_WRAPPER`: the arguments separated by 0x1F, as in
/// `CARGO_ENCODED_RUSTFLAGS`.
const FORCED_CFG: &str = "SIMDCRYPT_FORCED_CFG";

/// `--cfg aes_backend="soft"` flags as the arguments rustc takes, encoded for
/// [`FORCED_CFG`].
fn encode_cfgs<'a>(flags: impl Iterator<Item = &'a str>) -> String {
    let args: Vec<&str> = flags.flat_map(str::split_whitespace).collect();
    args.join("\x1f")
}

/// This binary as cargo's `RUSTC_WORKSPACE_WRAPPER` (`xtask RUSTC ARGS...`, with
/// [`FORCED_CFG`] set by [`forced`]): runs `RUSTC ARGS...` plus the forced `--cfg`
/// flags and returns its exit code. `None` when this is not a wrapper invocation.
pub fn as_rustc_wrapper() -> Option<std::process::ExitCode> {
    let cfg = env::var(FORCED_CFG).ok()?;
    let mut args = env::args_os().skip(1);
    let rustc = args.next()?;
    let status = std::process::Command::new(&rustc)
        .args(args)
        .args(cfg.split('\x1f').filter(|a| !a.is_empty()))
        .status();
    Some(match status {
        Ok(s) => std::process::ExitCode::from(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!(
                "xtask (as rustc wrapper): cannot run {}: {e}",
                rustc.display()
            );
            std::process::ExitCode::FAILURE
        }
    })
}

/// The tests of each crate with a backend forced by `--cfg <alg>_backend="<v>"`, for every
/// backend (or only `backend`) of every crate (or of `packages`). Backends this CPU lacks
/// are skipped loudly unless `TESTKIT_REQUIRE` names them. Builds in `<target>/forced`, so
/// the main target directory keeps its fingerprints.
///
/// The runs are batched in rounds: round k forces the k-th backend of every crate at once
/// (each crate reads only its own cfg), as many rounds as the longest backend list. The
/// `--cfg` flags reach only the workspace's crates, through this binary as cargo's
/// `RUSTC_WORKSPACE_WRAPPER` ([`as_rustc_wrapper`]): in `RUSTFLAGS` they would rebuild
/// the whole dependency graph (criterion, testkit, …) every round, about a minute of
/// each round here. Cargo does not fingerprint the wrapper's flags, so each round first
/// cleans the backend crates (and, by name, their RustCrypto peers).
/// Doc tests are left to the `test` step (`--tests`). Returns whether any round ran.
///
/// With `cross`, the same for another target (`cargo xtask cross`): the rows compiled
/// for it, built in `<target>/cross` with its compiler, linker and runner, on the first
/// CPU of its ladder.
pub fn forced(
    ws: &Workspace,
    packages: &[String],
    backend: Option<&str>,
    release: bool,
    cross: Option<&Cross>,
) -> Result<bool> {
    for p in packages {
        ws.get(p)?;
    }
    if let Some(b) = backend
        && b != "all"
        && !ws.backends.iter().any(|l| l.values.iter().any(|v| v == b))
    {
        return Err(format!(
            "no crate's backend table (src/backends.rs) has a backend `{b}`"
        ));
    }
    let dir = match cross {
        None => target_dir().join("forced"),
        Some(c) => c.dir.clone(),
    };
    let (mut rounds, mut skipped): (Vec<Vec<(String, String)>>, Vec<String>) = (vec![], vec![]);
    for list in &ws.backends {
        let cfg = list.cfg_name();
        let Some(krate) = ws.crate_for(list) else {
            crate::util::skip(format!("{cfg}: no crate has lib name `{}` (yet)", list.alg));
            continue;
        };
        if !packages.is_empty()
            && !packages
                .iter()
                .any(|p| ws.find(p).is_some_and(|c| c.dir == krate.dir))
        {
            continue;
        }
        // On another target, a crate with one row compiled there (`soft` alone) has
        // nothing for detection to choose from: the detected run is that forced run.
        if let Some(c) = cross {
            let compiled = list.rows.iter().filter(|r| c.compiled_for(r)).count();
            if compiled < 2 {
                println!(
                    "{}: only one backend compiled for {}: its detected run covers it",
                    krate.package, c.triple
                );
                continue;
            }
        }
        let mut k = 0;
        for v in &list.values {
            if backend.is_some_and(|b| b != v) {
                continue;
            }
            let flag = format!("--cfg {cfg}=\"{v}\"");
            let row = list.row(v).expect("a table's values are its rows");
            let can_run = match cross {
                None => cpu::can_run(row),
                Some(c) => c.can_run(row),
            };
            if let Err(why) = can_run {
                if cross.is_some_and(|c| !c.compiled_for(row)) {
                    // Not compiled for this target: nothing to skip.
                    continue;
                }
                if cpu::required(v) {
                    println!(
                        "NOTE {flag}: {why}, but TESTKIT_REQUIRE names `{v}`: running (expect a panic)"
                    );
                } else {
                    crate::util::skip(format!("{} {flag}: {why}", krate.package));
                    skipped.push(format!("{}/{v}", krate.package));
                    continue;
                }
            }
            if rounds.len() == k {
                rounds.push(Vec::new());
            }
            rounds[k].push((krate.spec(), flag));
            k += 1;
        }
    }
    let wrapper = env::current_exe()
        .map_err(|e| format!("the path of this xtask binary (for RUSTC_WORKSPACE_WRAPPER): {e}"))?
        .display()
        .to_string();
    let mut ran = Vec::new();
    for (k, round) in rounds.iter().enumerate() {
        let flags: Vec<&str> = round.iter().map(|(_, f)| f.as_str()).collect();
        println!("--- forced round {}: {}", k + 1, flags.join(" "));
        clean_backend_crates(ws, &dir, release, cross)?;
        let mut cmd = match cross {
            None => Cmd::cargo().args([
                "test",
                "--tests",
                "--target-dir",
                &dir.display().to_string(),
            ]),
            Some(c) => c.on_first_cpu(c.cargo(["test", "--tests"], &dir)),
        };
        cmd = cmd.env("RUSTC_WORKSPACE_WRAPPER", &wrapper).env(
            FORCED_CFG,
            encode_cfgs(round.iter().map(|(_, f)| f.as_str())),
        );
        for (spec, _) in round {
            cmd = cmd.args(["-p", spec]);
        }
        if release {
            // Optimised, but with the checks of a debug build: this is where every
            // backend, the portable one included, meets overflow checks.
            cmd = cmd
                .arg("--release")
                .env("CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS", "true")
                .env("CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS", "true");
        }
        cmd.run()?;
        ran.extend(round.iter().map(|(spec, f)| format!("{spec} {f}")));
    }
    if ran.is_empty() && skipped.is_empty() {
        if let Some(b) = backend
            && cross.is_none()
        {
            return Err(format!("no crate here has a backend `{b}`"));
        }
        println!("no forced backends to run");
    }
    println!(
        "forced backends run: {}",
        if ran.is_empty() {
            "-".into()
        } else {
            ran.join(", ")
        }
    );
    if !skipped.is_empty() {
        println!(
            "forced backends SKIPPED (this CPU lacks them): {}",
            skipped.join(" ")
        );
    }
    Ok(!ran.is_empty())
}

/// `cargo clean` of the crates with a backend table (and, by name, their RustCrypto
/// peers) in `dir`: cargo does not fingerprint the `--cfg` flags the forced rounds add
/// through the wrapper.
pub fn clean_backend_crates(
    ws: &Workspace,
    dir: &Path,
    release: bool,
    cross: Option<&Cross>,
) -> Result {
    let mut clean = match cross {
        None => Cmd::cargo().args(["clean", "--target-dir", &dir.display().to_string()]),
        Some(c) => c.cargo(["clean"], dir),
    };
    if release {
        clean = clean.arg("--release");
    }
    for list in &ws.backends {
        if let Some(krate) = ws.crate_for(list) {
            clean = clean.args(["-p", &krate.spec()]);
        }
    }
    clean.run()
}

/// The library crates' tests with real run-time detection on weaker CPUs: each test
/// binary under `qemu-x86_64 -cpu <model>` for each model of [`LADDER`]. x86_64 Linux
/// hosts only.
///
/// The binaries are the `test` step's own `cargo test --release --workspace` build
/// (cargo finds it fresh, so the ladder compiles nothing), unless `RUSTFLAGS` has a
/// `target-cpu` that must go (then they are built without it in `<target>/ladder`).
/// Running the binaries directly, rather than `cargo test` per model with a runner,
/// keeps one build for every model: a different package set per model would re-resolve
/// features and rebuild much of the graph.
pub fn ladder(ws: &Workspace, packages: &[String]) -> Result {
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
        crate::util::skip(format!(
            "cpu-ladder: it needs an x86_64 Linux host with qemu-user (this is {}/{})",
            env::consts::OS,
            env::consts::ARCH
        ));
        return Ok(());
    }
    let pkgs = package_args(ws, packages)?;
    if pkgs.is_empty() {
        crate::util::skip("cpu-ladder: no library crates under crates/ yet");
        return Ok(());
    }
    let qemu = ladder_qemu();
    if which(&qemu).is_none() && !Path::new(&qemu).is_file() {
        return Err(format!(
            "{qemu} not found: run `cargo xtask setup` (apt-get install qemu-user) or set \
             ${QEMU_ENV}"
        ));
    }
    let major = qemu_major(&Cmd::new(&qemu).arg("--version").output_any()?).unwrap_or(0);
    println!("cpu ladder: {qemu} (qemu {major})");
    // (qemu 7 exits 1 after printing the list.)
    let models = Cmd::new(&qemu).args(["-cpu", "help"]).output_any()?;
    for (cpu, _, _) in LADDER {
        let model = cpu.split(',').next().unwrap_or(cpu);
        if !qemu_lists_model(&models, model) {
            return Err(format!(
                "`qemu-x86_64 -cpu help` does not list the model {model}"
            ));
        }
    }
    let bins = ladder_binaries(ws, packages)?;
    if dry_run() {
        return Ok(());
    }
    for (m, offers, only) in LADDER {
        println!("--- cpu ladder: {qemu} -cpu {m} ({offers})");
        for (krate, bin) in &bins {
            if !only.is_empty() && !only.contains(&krate.package.as_str()) {
                continue;
            }
            // Crates with known emulator faults on this model skip those tests (on the
            // qemu versions that have the fault).
            let skips: Vec<String> = match QEMU_SKIPS.iter().find(|(model, name, _, fixed)| {
                model == m && *name == krate.package && major < *fixed
            }) {
                Some((_, _, [], _)) => {
                    println!(
                        "    {}: left out on this model (qemu fault, see QEMU_SKIPS)",
                        krate.package
                    );
                    continue;
                }
                Some((_, _, tests, _)) => tests
                    .iter()
                    .flat_map(|t| ["--skip".to_string(), t.to_string()])
                    .collect(),
                None => Vec::new(),
            };
            // Emulation is ~20-50x slower (far more for the bitsliced and gather
            // backends): each differential run is capped at 2000 cases; the crates'
            // full defaults run natively in the `test` and `forced` steps.
            // TESTKIT_REQUIRE is for the real host, not for these weaker CPUs.
            Cmd::new(&qemu)
                .args(["-cpu", m])
                .arg(bin.display().to_string())
                .arg("-q")
                .args(skips)
                .dir(&krate.dir)
                .env("CARGO_MANIFEST_DIR", krate.dir.display().to_string())
                .env(
                    "TESTKIT_CASES_MAX",
                    env::var("TESTKIT_CASES_MAX").unwrap_or_else(|_| "2000".into()),
                )
                .env_remove("TESTKIT_REQUIRE")
                .run()?;
        }
    }
    Ok(())
}

/// Whether `qemu-<arch> -cpu help` output lists `model`. qemu 7 prints `x86 qemu64  …`
/// (the architecture first), qemu 8 and later `  qemu64  …` (the model first).
pub fn qemu_lists_model(help: &str, model: &str) -> bool {
    help.lines().filter(|l| !l.ends_with(':')).any(|l| {
        let mut words = l.split_whitespace();
        match words.next() {
            Some("x86") => words.next() == Some(model),
            first => first == Some(model),
        }
    })
}

/// The release test binaries of the library crates (or of `packages`), built for the
/// baseline host target (no `target-cpu`): (crate, executable).
fn ladder_binaries(
    ws: &Workspace,
    packages: &[String],
) -> Result<Vec<(crate::workspace::Crate, std::path::PathBuf)>> {
    let mut cmd = Cmd::cargo().args(["test", "--release", "--no-run", "--message-format=json"]);
    if packages.is_empty() {
        // The same package set and features as the `test` step, so the same feature
        // resolution and no second build (without `speed/openssl` this rebuilt for
        // 5 minutes).
        cmd = cmd.arg("--workspace").args(
            workspace_test_features(ws, "cpu-ladder's build: speed/openssl")
                .iter()
                .copied(),
        );
    } else {
        cmd = cmd.args(package_args(ws, packages)?);
    }
    if let Some(flags) = rustflags_without_target_cpu() {
        let dir = target_dir().join("ladder").display().to_string();
        cmd = cmd.env("RUSTFLAGS", flags).args(["--target-dir", &dir]);
    }
    println!("$ {}", cmd.display());
    if dry_run() {
        return Ok(Vec::new());
    }
    let json = cmd.output()?;
    let mut bins = Vec::new();
    for line in json.lines() {
        if !line.contains("\"reason\":\"compiler-artifact\"") {
            continue;
        }
        // A test harness: `"profile":{…,"test":true}` (the target's own `"test"` key says
        // whether a bin is tested, not whether this artifact is a test).
        let is_test = line
            .split_once("\"profile\":{")
            .and_then(|(_, p)| p.split_once('}'))
            .is_some_and(|(p, _)| p.contains("\"test\":true"));
        let (Some(exe), Some(manifest)) = (
            crate::util::json_string_field(line, "executable"),
            crate::util::json_string_field(line, "manifest_path"),
        ) else {
            continue;
        };
        let dir = std::path::Path::new(&manifest)
            .parent()
            .map(|d| d.to_path_buf());
        if let Some(krate) = ws.crates.iter().find(|c| Some(&c.dir) == dir.as_ref())
            && is_test
        {
            bins.push((krate.clone(), std::path::PathBuf::from(exe)));
        }
    }
    if bins.is_empty() {
        return Err("cpu-ladder: the build listed no test binaries of the library crates".into());
    }
    println!("cpu ladder: {} test binaries", bins.len());
    Ok(bins)
}

/// The criterion benches (`--bench '*'`: bench targets only), with `args` for criterion.
pub fn bench(ws: &Workspace, packages: &[String], args: &[String]) -> Result {
    let any = ws
        .crates
        .iter()
        .map(|c| c.dir.join("benches"))
        .chain([ws.root.join("benches/benches")])
        .any(|d| !files_with_suffix(&d, ".rs").is_empty());
    if !any {
        crate::util::skip("bench: no bench targets yet");
        return Ok(());
    }
    let mut cmd = Cmd::cargo().arg("bench");
    if packages.is_empty() {
        cmd = cmd.arg("--workspace");
    } else {
        cmd = cmd.args(package_args(ws, packages)?);
    }
    cmd.args(["--bench", "*"])
        .arg("--")
        .args(args.iter().cloned())
        .run()
}

/// A short run of the `speed` tool over every algorithm, and with OpenSSL as a peer.
fn speed(ws: &Workspace) -> Result {
    if !ws.has_speed {
        crate::util::skip("speed: no benches/ package yet");
        return Ok(());
    }
    // `cargo run --release -p speed` with `args`.
    let speed = |args: &[&str]| {
        Cmd::cargo()
            .args(["run", "--release", "-p", "speed"])
            .args(args.iter().copied())
            .run()
    };
    // One build and one run: with OpenSSL the table has every row of the run without it
    // (a second build and run took 1m37s plus the run itself).
    let features: &[&str] = if speed_openssl(ws, "speed --features openssl") {
        &["--features", "openssl"]
    } else {
        &[]
    };
    speed(&[features, &["--"], SPEED_ARGS].concat())?;
    // The issue-18 cross-check `auto` runs too (a few seconds): it races every backend
    // this CPU has at 8 KiB, so a backend that panics outside its tests shows up here.
    // `small` is only compiled (clippy): its build, every cipher through both mode
    // crates, took 79 s of a gate that must stay under 80 minutes (Intel Xeon, 2 cores).
    speed(&[features, &["--bin", "auto"]].concat())
}

/// `cargo semver-checks` of every publishable crate against the RustCrypto release it
/// replaces: the version pinned by its peer dev-dependency (`--baseline-version`), else
/// cargo-semver-checks' default (the newest published version not above ours).
fn semver(ws: &Workspace) -> Result {
    let publishable: Vec<_> = ws.crates.iter().filter(|c| c.publish).collect();
    if publishable.is_empty() {
        crate::util::skip("semver: no publishable crates under crates/ yet");
        return Ok(());
    }
    let mut failed = Vec::new();
    for c in publishable {
        // A crate of our own that replaces no RustCrypto crate (`des-crypt`) and was never
        // released has nothing to be compared with.
        if c.peer_version.is_none() && c.version.as_deref() == Some("0.1.0") {
            crate::util::skip(format!(
                "semver {}: a first release (0.1.0) with no RustCrypto peer has no baseline",
                c.package
            ));
            continue;
        }
        let mut cmd = Cmd::cargo().args(["semver-checks", "check-release", "-p", &c.package]);
        match &c.peer_version {
            Some(v) => {
                println!(
                    "--- {}: baseline {} {v} from crates.io (its peer pin)",
                    c.package, c.package
                );
                cmd = cmd.args(["--baseline-version", v]);
            }
            None => println!(
                "--- {}: no `=x.y.z` peer pin: baseline = newest published version not above ours",
                c.package
            ),
        }
        if let Err(e) = cmd.run() {
            println!("FAILED semver {}: {e}", c.package);
            failed.push(c.package.clone());
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("semver-checks failed for {}", failed.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `qemu-x86_64 --version` of Debian 12's qemu-user and of bookworm-backports'.
    #[test]
    fn qemu_versions() {
        let v7 = "qemu-x86_64 version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\nCopyright";
        let v10 = "qemu-x86_64 version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)\n";
        assert_eq!(qemu_major(v7), Some(7));
        assert_eq!(qemu_major(v10), Some(10));
        assert_eq!(qemu_major("garbage"), None);
    }

    /// Both formats of `qemu-x86_64 -cpu help`: qemu 7.2 (Debian 12) and qemu 10
    /// (bookworm-backports).
    #[test]
    fn qemu_cpu_help_formats() {
        let qemu7 = "Available CPUs:\n\
            x86 486                   (alias configured by machine type)\n\
            x86 Westmere-v1           Westmere E56xx/L56xx/X56xx (Nehalem-C)\n\
            x86 qemu64                (alias configured by machine type)\n";
        let qemu10 = "Available CPUs:\n\
            \x20 486                   (alias configured by machine type)\n\
            \x20 Westmere-v1           Westmere E56xx/L56xx/X56xx (Nehalem-C)\n\
            \x20 qemu64                (alias configured by machine type)\n";
        for help in [qemu7, qemu10] {
            assert!(qemu_lists_model(help, "qemu64"));
            assert!(qemu_lists_model(help, "Westmere-v1"));
            assert!(!qemu_lists_model(help, "Westmere"));
            assert!(!qemu_lists_model(help, "x86"));
            assert!(!qemu_lists_model(help, "Available"));
        }
    }
}
