//! `cargo xtask`: the simdcrypt CI gate and the tools around it (docs/ARCHITECTURE.md §6).
//!
//! `cargo xtask ci` is what `.ci/run` calls: setup, host CPU features, fmt, clippy, tidy,
//! tests (release), every forced backend (with debug assertions), the qemu CPU ladder, docs, a benches
//! smoke run, semver-checks against the RustCrypto releases, and the drop-in check. Run
//! `cargo xtask help` for every command. Plain std and the workspace's dependency-free
//! `simdcrypt-dispatch` (for CPU features as the crates detect them).
//!
//! The forced backends are the rows of each crate's backend table (the
//! `simdcrypt_dispatch::backends!` invocation in `crates/<x>/src/backends.rs`), with the
//! architectures and CPU features each row needs; `workspace.rs` reads them.

#![forbid(unsafe_code)]

mod ci;
mod cpu;
mod cross;
mod ct;
mod ctscan;
mod dropin;
mod figures;
mod fuzz;
mod libcrypt;
mod package;
mod setup;
mod tidy;
mod util;
mod workspace;

use std::process::ExitCode;

use util::{Result, root};
use workspace::Workspace;

const HELP: &str = "\
cargo xtask <command> [options]

commands:
  ci [STEP...] [--skip STEP,...]
                             the CI gate: every step (or the STEPs named), in order,
                             fail fast, timed; steps: setup cpu fmt clippy tidy test
                             forced ladder cross doc bench semver dropin libcrypt
                             package ct fuzz
  setup                      install what ci needs and is missing (apt: qemu-user,
                             pkg-config, libssl-dev, libcrypt-dev, valgrind, whois,
                             gcc, perl, python3; for cross:
                             dpkg architecture arm64, rustc-web,
                             libstd-rust-web-dev:arm64, gcc-aarch64-linux-gnu,
                             gcc-i686-linux-gnu, libc6-dev-arm64-cross,
                             libc6-dev-i386-cross, Debian 13's i386 and s390x std
                             under target/; rustfmt, clippy; cargo-semver-checks,
                             cargo-fuzz, nightly)
  tidy                       policy checks over the source text (also a #[test])
  test [-p NAME]... [--backend NAME|all] [--release]
                             tests; with --backend, each crate's tests with that backend
                             forced by --cfg <alg>_backend=\"NAME\" (skipped if this CPU
                             lacks it, unless TESTKIT_REQUIRE names it)
  bench [-p NAME]... [-- CRITERION-ARGS]
                             the criterion benches
  cpu-ladder [-p NAME]...    tests under qemu-x86_64 -cpu qemu64 / Westmere / Haswell
  cross --target T [-p NAME]... [--backend NAME|all|none]
                             tests for target T (release, debug assertions on, static):
                             first each forced backend compiled for T (default all;
                             crates with one backend for T skip this), then run-time
                             detection on each CPU of T's ladder
                             (aarch64: qemu -cpu max, and a Cortex-A72 without AES,
                             PMULL, SHA1, SHA2); under qemu-user, or natively for i686
                             on x86_64 Linux; emulated runs cap differential tests at
                             500 cases (TESTKIT_CASES_MAX); uses Debian's /usr/bin/rustc
                             when rustup lacks T's std; skips if none has it
  dropin [--target T]        published crates (hmac, rc4, ...) patched with ours, on
                             known-answer vectors (with --target: built for T and run
                             as cross runs tests, on each CPU of T's ladder)
  figures [--check | --no-measure]
                             remake the speed tables of README.md, crates/*/README.md
                             (the figures blocks) and docs/speed.svg: runs `speed
                             --compare --cycles -seconds 0.5` and `des-table` (about 8
                             minutes; JSON in docs/figures/), then rewrites every block
                             with a stamp (machine, date, command); --no-measure only
                             rewrites from the committed JSON; --check measures nothing
                             and fails if a table differs from its JSON (tidy checks it)
  ct [--long]                constant-time checks of every constant-time backend:
                             valgrind memcheck with secrets marked undefined, a taint
                             analysis of the release disassembly (objdump; x86-64 and
                             the aarch64 cross build) for secret branches and indices,
                             and dudect's timing t-test (20 000
                             measurements a target; --long: 200 000); leaky controls
                             must fail each
  fuzz [--seconds N] [TARGET...]
                             every cargo-fuzz target of fuzz/ (or the TARGETs) for N
                             seconds (default 60) under ASan; fails on a crash or a
                             mismatch with the RustCrypto release / libxcrypt
  package [--no-test]        package every published crate (cargo package), unpack each
                             .crate file and run its tests from there, with the
                             not-yet-published simdcrypt crates patched in from their
                             own packages (--no-test: build the tests only)
  libcrypt-check             simdcrypt-libcrypt under LD_PRELOAD: Python's crypt
                             module, Perl's crypt() and mkpasswd (whois) on seeded
                             random keys and settings, outputs compared with the runs
                             without the preload (LIBCRYPT_CHECK_SEED sets the seed)
  help                       this text

global options:
  --dry-run                  print the commands instead of running them
";

fn main() -> ExitCode {
    // The forced-backend builds run cargo with this binary as RUSTC_WORKSPACE_WRAPPER.
    if let Some(code) = ci::as_rustc_wrapper() {
        return code;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line: options are taken out one by one; leftovers are an error.
struct Args {
    args: Vec<String>,
    /// Everything after `--`.
    rest: Vec<String>,
}

impl Args {
    fn new(mut args: Vec<String>) -> Self {
        let rest = match args.iter().position(|a| a == "--") {
            Some(i) => {
                let rest = args.split_off(i + 1);
                args.pop();
                rest
            }
            None => Vec::new(),
        };
        Self { args, rest }
    }

    fn flag(&mut self, name: &str) -> bool {
        let before = self.args.len();
        self.args.retain(|a| a != name);
        self.args.len() != before
    }

    /// Every value of `names` (`-p X`, `-p=X`, `--package X`), comma lists split.
    fn values(&mut self, names: &[&str]) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.args.len() {
            let a = &self.args[i];
            if names.contains(&a.as_str()) {
                if i + 1 >= self.args.len() {
                    return Err(format!("{a} needs a value"));
                }
                out.push(self.args.remove(i + 1));
                self.args.remove(i);
            } else if let Some(v) = names.iter().find_map(|n| a.strip_prefix(&format!("{n}="))) {
                out.push(v.to_string());
                self.args.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(out
            .iter()
            .flat_map(|v| v.split(','))
            .filter(|v| !v.is_empty())
            .map(String::from)
            .collect())
    }

    fn value(&mut self, names: &[&str]) -> Result<Option<String>> {
        let mut v = self.values(names)?;
        if v.len() > 1 {
            return Err(format!("{} given more than once", names[0]));
        }
        Ok(v.pop())
    }

    fn finish(self) -> Result {
        if let Some(a) = self.args.first() {
            return Err(format!(
                "unexpected argument `{a}` (see `cargo xtask help`)"
            ));
        }
        if !self.rest.is_empty() {
            return Err("this command takes no arguments after `--`".into());
        }
        Ok(())
    }
}

/// `-p NAME` for each of `packages` (checked to exist), or for every crate under
/// `crates/` when none is given: the library crates, without `xtask` and `speed`.
pub fn package_args(ws: &Workspace, packages: &[String]) -> Result<Vec<String>> {
    let names: Vec<String> = if packages.is_empty() {
        ws.crates.iter().map(|c| c.spec()).collect()
    } else {
        packages
            .iter()
            .map(|p| ws.get(p).map(|c| c.spec()))
            .collect::<Result<_>>()?
    };
    Ok(names
        .into_iter()
        .flat_map(|n| ["-p".to_string(), n])
        .collect())
}

fn run(args: Vec<String>) -> Result {
    let mut args = Args::new(args);
    util::set_dry_run(args.flag("--dry-run"));
    if args.args.is_empty() {
        print!("{HELP}");
        return Err("no command given".into());
    }
    let command = args.args.remove(0);
    let load = || Workspace::load(&root());
    match command.as_str() {
        "help" | "-h" | "--help" => {
            print!("{HELP}");
            Ok(())
        }
        "ci" => {
            let skip = args.values(&["--skip"])?;
            let only = std::mem::take(&mut args.args);
            args.finish()?;
            ci::run(&only, &skip)
        }
        "setup" => {
            args.finish()?;
            setup::run()
        }
        "tidy" => {
            args.finish()?;
            tidy::run(&root())
        }
        "test" => {
            let packages = args.values(&["-p", "--package"])?;
            let backend = args.value(&["--backend"])?;
            let release = args.flag("--release");
            args.finish()?;
            let ws = load()?;
            match backend.as_deref() {
                None => ci::test(&ws, &packages, release),
                Some("all") => ci::forced(&ws, &packages, None, release, None).map(drop),
                Some(b) => ci::forced(&ws, &packages, Some(b), release, None).map(drop),
            }
        }
        "bench" => {
            let packages = args.values(&["-p", "--package"])?;
            let criterion = std::mem::take(&mut args.rest);
            args.finish()?;
            ci::bench(&load()?, &packages, &criterion)
        }
        "cpu-ladder" => {
            let packages = args.values(&["-p", "--package"])?;
            args.finish()?;
            ci::ladder(&load()?, &packages)
        }
        "cross" => {
            let target = args
                .value(&["--target"])?
                .ok_or("cross needs --target TRIPLE")?;
            let packages = args.values(&["-p", "--package"])?;
            let backend = args.value(&["--backend"])?;
            args.finish()?;
            let backend = backend.as_deref().unwrap_or("all");
            cross::run(&load()?, &target, &packages, backend)
        }
        "dropin" => {
            let target = args.value(&["--target"])?;
            args.finish()?;
            dropin::run(&load()?, target.as_deref())
        }
        "figures" => {
            let check = args.flag("--check");
            let measure = !args.flag("--no-measure");
            args.finish()?;
            figures::run(&root(), check, measure)
        }
        "ct" => {
            let long = args.flag("--long");
            args.finish()?;
            ct::run(&load()?, long)
        }
        "fuzz" => {
            let seconds = match args.value(&["--seconds"])? {
                Some(v) => v
                    .parse()
                    .map_err(|_| format!("--seconds takes a number, not `{v}`"))?,
                None => 60,
            };
            let targets = std::mem::take(&mut args.args);
            args.finish()?;
            fuzz::run(seconds, &targets)
        }
        "libcrypt-check" => {
            args.finish()?;
            libcrypt::run()
        }
        "package" => {
            let tests = !args.flag("--no-test");
            args.finish()?;
            package::run(&load()?, tests)
        }
        other => {
            print!("{HELP}");
            Err(format!("unknown command `{other}`"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Args {
        Args::new(s.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn parse_options() {
        let mut a = args("test -p md-5 --package=rc4 --backend avx512 --release -- x");
        assert!(a.flag("--release"));
        assert!(!a.flag("--release"));
        assert_eq!(a.values(&["-p", "--package"]).unwrap(), ["md-5", "rc4"]);
        assert_eq!(a.value(&["--backend"]).unwrap().as_deref(), Some("avx512"));
        assert_eq!(a.rest, ["x"]);
        assert_eq!(a.args, ["test"]);
        let mut a = args("ci --skip semver,ladder --skip dropin");
        assert_eq!(
            a.values(&["--skip"]).unwrap(),
            ["semver", "ladder", "dropin"]
        );
        let mut a = args("cross --target");
        assert!(a.value(&["--target"]).is_err());
        let a = args("tidy --bogus");
        assert!(a.finish().is_err());
    }
}
