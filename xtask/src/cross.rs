//! `cargo xtask cross --target T`: the library crates' tests built for another target and
//! run there: under qemu-user, or natively for 32-bit x86 on an x86_64 Linux host
//! (ARCHITECTURE §4 rung 6, §6).
//!
//! What a run does, for target T:
//! 1. the forced backends: every row of every crate's backend table whose `arch` list
//!    names T's `target_arch` (rows without `arch`, `soft`, run everywhere), forced by
//!    `--cfg <alg>_backend="<row>"` as in the `forced` step ([`crate::ci::forced`]), on
//!    the first, fullest CPU of T's ladder; crates with only one backend for T are left
//!    to step 2, where detection can only choose that one;
//! 2. the tests with run-time detection under each CPU of T's ladder ([`LADDERS`]; one
//!    CPU, qemu's default or the host, for targets without one), one build for all.
//!
//! Builds are release builds with debug assertions and overflow checks (`forced` does the
//! same natively), statically linked (`+crt-static` for T only: qemu-user 7.2 here hangs
//! in dynamically linked binaries that start a thread, and no i386 libc is needed), in
//! `<target>/cross/`. The compiler is rustup's when its sysroot has T's std, else
//! Debian's `/usr/bin/rustc` (`rustc-web`, with std for other targets from the
//! `libstd-rust-web-dev:<arch>` packages), else the run is skipped, saying so.
//!
//! Emulated runs cap every differential test at [`EMULATED_CASES_MAX`] cases (the
//! crates' defaults are 300 to 100 000) and give each test binary [`EMULATED_TIMEOUT`]
//! seconds; native runs (i686) keep the defaults.

use std::env;
use std::path::{Path, PathBuf};

use crate::cpu;
use crate::util::{Cmd, Result, host_triple, target_dir, which};
use crate::workspace::{Row, Workspace};

/// Targets xtask knows how to run: (triple, qemu-user binary, Debian cross prefix: the
/// sysroot is `/usr/<prefix>` and the linker `<prefix>-gcc`).
pub const TARGETS: &[(&str, &str, &str)] = &[
    ("i686-unknown-linux-gnu", "qemu-i386", "i686-linux-gnu"),
    ("i586-unknown-linux-gnu", "qemu-i386", "i686-linux-gnu"),
    ("s390x-unknown-linux-gnu", "qemu-s390x", "s390x-linux-gnu"),
    (
        "powerpc64-unknown-linux-gnu",
        "qemu-ppc64",
        "powerpc64-linux-gnu",
    ),
    (
        "powerpc64le-unknown-linux-gnu",
        "qemu-ppc64le",
        "powerpc64le-linux-gnu",
    ),
    ("powerpc-unknown-linux-gnu", "qemu-ppc", "powerpc-linux-gnu"),
    (
        "aarch64-unknown-linux-gnu",
        "qemu-aarch64",
        "aarch64-linux-gnu",
    ),
    (
        "armv7-unknown-linux-gnueabihf",
        "qemu-arm",
        "arm-linux-gnueabihf",
    ),
    (
        "riscv64gc-unknown-linux-gnu",
        "qemu-riscv64",
        "riscv64-linux-gnu",
    ),
];

/// The targets of the `cross` step of `cargo xtask ci`, with the forced backends each
/// runs (`all` rows compiled for the target, a name, or `none`).
///
/// i686 is not among them, to keep a fresh machine's CI under 80 minutes: its build of
/// every crate's tests with Debian's compiler took 9 of the step's 21 minutes (AMD Zen 4,
/// 2 cores, 2026-12-05), and the 32-bit x86 code it covers changes rarely.
/// `cargo xtask cross --target i686-unknown-linux-gnu --backend none` runs it (natively:
/// detection, and the in-source tests of every backend against `soft`); `setup` still
/// installs what it needs.
///
/// aarch64 runs detection only, on both CPUs of its ladder: `-cpu max` takes the
/// crypto-extension rows (`armv8`, `neon_aes`) and the Cortex-A72 without them the NEON
/// rows, so each rung runs the whole suite on the rows it prefers, and the in-source
/// tests compare every row the CPU has against `soft` there. The forced runs of every
/// aarch64 row (`--backend all`, `soft` included) cost three more builds with Debian's
/// compiler, 5.6 of the step's 22.7 minutes on an Intel Xeon with 2 cores (2026-12-06),
/// where the whole gate, with fuzz's build then, headed past 90 minutes on a fresh
/// machine; `cargo xtask cross --target aarch64-unknown-linux-gnu --backend all`
/// runs them.
///
/// s390x is the big-endian target: only `soft` backends compile there, and they are the
/// code every byte-order question is about.
pub const CI_TARGETS: &[(&str, &str)] = &[
    ("aarch64-unknown-linux-gnu", "none"),
    ("s390x-unknown-linux-gnu", "all"),
];

/// What `cargo xtask setup` installs on Debian 12 for the targets of [`CI_TARGETS`] and
/// for i686: (triple, dpkg architecture of its std package, cross gcc package).
pub const DEBIAN: &[(&str, &str, &str)] = &[
    (
        "aarch64-unknown-linux-gnu",
        "arm64",
        "gcc-aarch64-linux-gnu",
    ),
    ("i686-unknown-linux-gnu", "i386", "gcc-i686-linux-gnu"),
    ("s390x-unknown-linux-gnu", "s390x", "gcc-s390x-linux-gnu"),
];

/// Targets whose std comes from Debian 13 (trixie), whose `libstd-rust-web-dev` is built
/// from the same `rustc-web` release as Debian 12's: `cargo xtask setup` unpacks it into
/// [`private_sysroot`] (nothing is installed), and the builds for the target pass
/// `--sysroot` to Debian 12's `/usr/bin/rustc`. Setup checks that the two releases agree
/// by compiling against it.
///
/// - s390x: Debian 12 ships its std only for an older compiler (1.85, where `rustc-web`
///   is 1.96).
/// - i686: Debian 12 has it, but as a foreign `i386` dpkg architecture the whole
///   `bookworm-security` suite depends on one more index, and a mirror serving a stale
///   copy of that one (seen 2026-12-06: "File has unexpected size") makes apt drop the
///   suite and install the 1.85 `rustc-web` of `bookworm`, too old for these crates.
pub const STD_FROM_TRIXIE: &[(&str, &str)] = &[
    ("s390x-unknown-linux-gnu", "s390x"),
    ("i686-unknown-linux-gnu", "i386"),
];

/// Where `setup` unpacks a [`STD_FROM_TRIXIE`] std: `<dir>/usr/lib/rustlib/<triple>/lib`.
pub fn private_sysroot(triple: &str) -> PathBuf {
    target_dir().join("sysroot").join(triple)
}

/// The dpkg architectures and Debian packages the `cross` step still needs here: the
/// targets' std (Debian's `rustc-web` and `libstd-rust-web-dev:<arch>`, when no installed
/// compiler has it) and cross linkers. Empty when all is present.
pub fn debian_missing() -> (Vec<String>, Vec<String>) {
    let (mut archs, mut packages) = (Vec::new(), Vec::new());
    let outdated = system_rustc_outdated();
    for &(triple, arch, gcc) in DEBIAN {
        let private = STD_FROM_TRIXIE.iter().any(|t| t.0 == triple);
        let needed = compiler_for(triple).map_or(true, |c| c.rustc.is_some() && outdated);
        if needed && !private {
            if (outdated || !Path::new(SYSTEM_RUSTC).is_file())
                && !packages.iter().any(|p| p == "rustc-web")
            {
                packages.push("rustc-web".to_string());
            }
            archs.push(arch.to_string());
            packages.push(format!("libstd-rust-web-dev:{arch}"));
        }
        let prefix = TARGETS.iter().find(|t| t.0 == triple).map_or("", |t| t.2);
        if which(&format!("{prefix}-gcc")).is_none() {
            packages.push(gcc.to_string());
        }
        // The static C library the `+crt-static` link needs: the cross gcc only recommends
        // it, and setup installs without recommends.
        if !Path::new(&format!("/usr/{prefix}/lib/libc.a")).is_file() {
            packages.push(format!("libc6-dev-{arch}-cross"));
        }
    }
    (archs, packages)
}

/// The differential case cap under emulation (`TESTKIT_CASES_MAX`, see
/// `testkit::cases`). qemu-user runs the portable code 10-40x slower than the host; at
/// this cap the largest differential tests (aes' 100 000 cases) shrink 200-fold and the
/// small ones (ctr's 300) keep their defaults.
pub const EMULATED_CASES_MAX: &str = "500";

/// Seconds each emulated test binary may run before it counts as hung.
pub const EMULATED_TIMEOUT: &str = "600";

/// Linux `AT_HWCAP` bits on aarch64 (`arch/arm64/include/uapi/asm/hwcap.h`).
const HWCAP_ASIMD: u64 = 1 << 1;
const HWCAP_AES: u64 = 1 << 3;
const HWCAP_PMULL: u64 = 1 << 4;
const HWCAP_SHA1: u64 = 1 << 5;
const HWCAP_SHA2: u64 = 1 << 6;
/// The Armv8 crypto extension.
const HWCAP_CRYPTO: u64 = HWCAP_AES | HWCAP_PMULL | HWCAP_SHA1 | HWCAP_SHA2;

/// One CPU of an emulated target's ladder: qemu's `-cpu` argument, what it offers, and
/// the `AT_HWCAP` bits a probe program must see set and see clear under it (xtask checks
/// before the tests run, so a qemu that behaves differently fails loudly).
pub struct Rung {
    pub cpu: &'static str,
    pub offers: &'static str,
    pub has: u64,
    pub lacks: u64,
}

/// The CPU ladders of emulated targets (by `target_arch`): both arms of run-time
/// detection. The first rung is the fullest; the forced backends run there.
///
/// qemu-aarch64 7.2 has no CPU model without the crypto extension and no property to
/// drop it (`aes=off` etc. do not exist). `vfp=off,neon=off` removes AES, PMULL, SHA1 and
/// SHA2 from the ID registers, so they leave `AT_HWCAP` and raise SIGILL, while user-mode
/// qemu still runs the base FP/SIMD instructions and reports FP and ASIMD: what a
/// Cortex-A72 without the (optional) crypto extension is, e.g. in the Raspberry Pi 4.
/// The probe checks exactly that, so a qemu that stops running FP code there fails the
/// step rather than passing it emptily.
pub const LADDERS: &[(&str, &[Rung])] = &[(
    "aarch64",
    &[
        Rung {
            cpu: "max",
            offers: "every extension qemu has: AES, PMULL, SHA1, SHA2, SHA3, SHA512, SVE",
            has: HWCAP_ASIMD | HWCAP_CRYPTO,
            lacks: 0,
        },
        Rung {
            cpu: "cortex-a72,vfp=off,neon=off",
            offers: "NEON without AES, PMULL, SHA1, SHA2 (a Cortex-A72 without the crypto extension)",
            has: HWCAP_ASIMD,
            lacks: HWCAP_CRYPTO,
        },
    ],
)];

/// Prints `AT_HWCAP` and does FP and SIMD work (so a model that cannot run them fails).
const PROBE_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
int main(int argc, char **argv) {
    volatile double x = argc * 1.5;
    (void)argv;
#ifdef __aarch64__
    __asm__ volatile("add v0.16b, v0.16b, v0.16b" ::: "v0");
#endif
    printf("hwcap=%#lx fp=%g\n", getauxval(AT_HWCAP), x * x);
    return 0;
}
"#;

/// `CARGO_TARGET_<TRIPLE>_<WHAT>`.
fn target_env(triple: &str, what: &str) -> String {
    format!(
        "CARGO_TARGET_{}_{what}",
        triple.to_uppercase().replace(['-', '.'], "_")
    )
}

/// Debian's compiler (`rustc-web`): its sysroot is `/usr`, and the std of other targets
/// comes as `libstd-rust-web-dev:<arch>` packages.
pub const SYSTEM_RUSTC: &str = "/usr/bin/rustc";

/// The oldest [`SYSTEM_RUSTC`] the crates' SIMD backends build with (their table rows'
/// `rustc:`); `speed` and `aes` need it as their `rust-version`.
const SYSTEM_RUSTC_MIN: (u32, u32) = (1, 89);

/// Whether an installed [`SYSTEM_RUSTC`] is older than [`SYSTEM_RUSTC_MIN`]: Debian 12's
/// own `rustc-web` 1.85, installed when apt could not read `bookworm-security`, which
/// `apt-get install rustc-web` then upgrades.
fn system_rustc_outdated() -> bool {
    let version = Cmd::new(SYSTEM_RUSTC).arg("--version").output();
    version.is_ok_and(|v| {
        // "rustc 1.85.0 (4d91de4e4 2025-02-17) (built from a source tarball)"
        let mut parts = v.split_whitespace().nth(1).unwrap_or("").split('.');
        let mut next = || parts.next().and_then(|n| n.parse::<u32>().ok());
        matches!((next(), next()), (Some(major), Some(minor)) if (major, minor) < SYSTEM_RUSTC_MIN)
    })
}

/// Whether `sysroot` has the std for `triple`.
fn std_in(sysroot: &Path, triple: &str) -> bool {
    sysroot
        .join("lib/rustlib")
        .join(triple)
        .join("lib")
        .is_dir()
}

/// Whether `rustc`'s sysroot has the std for `triple`.
fn std_installed(rustc: &str, triple: &str) -> bool {
    Cmd::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .is_ok_and(|sysroot| std_in(Path::new(sysroot.trim()), triple))
}

/// The compiler for a target, when it is not the one cargo would use anyway.
pub struct Compiler {
    /// [`SYSTEM_RUSTC`], or `None`: `$RUSTC` or rustup's `rustc`.
    pub rustc: Option<&'static str>,
    /// A sysroot to pass for the target's builds ([`private_sysroot`]).
    pub sysroot: Option<PathBuf>,
}

/// The compiler that has `triple`'s std: `$RUSTC` or rustup's `rustc`, else
/// [`SYSTEM_RUSTC`] with its own sysroot or with the [`private_sysroot`] that `setup`
/// filled; `Err` with what to install when none has it.
pub fn compiler_for(triple: &str) -> std::result::Result<Compiler, String> {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    if std_installed(&rustc, triple) {
        return Ok(Compiler {
            rustc: None,
            sysroot: None,
        });
    }
    if Path::new(SYSTEM_RUSTC).is_file() {
        if std_installed(SYSTEM_RUSTC, triple) {
            return Ok(Compiler {
                rustc: Some(SYSTEM_RUSTC),
                sysroot: None,
            });
        }
        let private = private_sysroot(triple).join("usr");
        if std_in(&private, triple) {
            return Ok(Compiler {
                rustc: Some(SYSTEM_RUSTC),
                sysroot: Some(private),
            });
        }
    }
    Err(format!(
        "the rust std for {triple} is not installed here (rustup target add {triple}, or \
         on Debian 12: cargo xtask setup)"
    ))
}

/// A target to build and run tests for, with the environment cargo needs for it.
pub struct Cross {
    pub triple: String,
    /// Its `target_arch` (`aarch64`, `x86`), as the compiler reports it.
    pub arch: String,
    /// The qemu-user command line without `-cpu` (`None`: natively, or `$…_RUNNER`).
    qemu: Option<Vec<String>>,
    /// Whether the tests run under an emulator (not natively on this host).
    emulated: bool,
    /// Environment for cargo: compiler, linker, rustflags.
    env: Vec<(String, String)>,
    /// The build directory, `<target>/cross`.
    pub dir: PathBuf,
}

impl Cross {
    /// How to build and run for `triple` on this host; `Ok(None)` after a loud skip when
    /// it cannot be done here (no std, not Linux), `Err` when a tool is missing.
    pub fn new(triple: &str) -> Result<Option<Self>> {
        let host = host_triple()?;
        if triple == host {
            return Err(format!(
                "cross {triple}: that is this host (`cargo xtask test` runs it)"
            ));
        }
        let Compiler { rustc, sysroot } = match compiler_for(triple) {
            Ok(c) => c,
            Err(why) => {
                crate::util::skip(format!("cross {triple}: {why}"));
                return Ok(None);
            }
        };
        let mut env = Vec::new();
        if let Some(rustc) = rustc {
            println!("cross {triple}: rustup's sysroot lacks its std; using {rustc}");
            env.push(("RUSTC".to_string(), rustc.to_string()));
            let rustdoc = Path::new(rustc).with_file_name("rustdoc");
            if rustdoc.is_file() {
                env.push(("RUSTDOC".to_string(), rustdoc.display().to_string()));
            }
        }
        let arch = target_arch(rustc.unwrap_or("rustc"), triple)?;
        let known = TARGETS.iter().find(|t| t.0 == triple);
        let runner_var = target_env(triple, "RUNNER");
        let linker_var = target_env(triple, "LINKER");
        let host_is_x86_linux = host.starts_with("x86_64-") && host.ends_with("-linux-gnu");
        let native = host_is_x86_linux && arch == "x86";
        // The runner: the user's, nothing for 32-bit x86 on x86_64 Linux (the kernel runs
        // it), else the known qemu-user binary.
        let qemu = if let Ok(r) = env::var(&runner_var) {
            println!("cross {triple}: runner from ${runner_var}: {r}");
            None
        } else if native {
            println!("cross {triple}: runs natively on this x86_64 Linux host");
            None
        } else {
            if !cfg!(target_os = "linux") {
                crate::util::skip(format!(
                    "cross {triple}: qemu-user runs on Linux hosts only (this is {}); \
                     set ${runner_var} to run anyway",
                    env::consts::OS
                ));
                return Ok(None);
            }
            let Some(&(_, qemu, prefix)) = known else {
                return Err(format!(
                    "cross {triple}: no qemu runner known for this target: set ${runner_var} \
                     (e.g. \"qemu-<arch> -L /usr/<gnu-prefix>\") or add it to xtask/src/cross.rs TARGETS"
                ));
            };
            if which(qemu).is_none() {
                return Err(format!(
                    "cross {triple}: {qemu} is not installed (apt-get install qemu-user)"
                ));
            }
            // The binaries are static; `-L` only serves a dynamically linked one.
            let mut cmd = vec![qemu.to_string()];
            let sysroot = format!("/usr/{prefix}");
            if Path::new(&sysroot).is_dir() {
                cmd.extend(["-L".to_string(), sysroot]);
            }
            Some(cmd)
        };
        if env::var_os(&linker_var).is_none()
            && let Some(&(_, _, prefix)) = known
        {
            let gcc = format!("{prefix}-gcc");
            if which(&gcc).is_none() {
                return Err(format!(
                    "cross {triple}: no linker: install {gcc} (apt-get install gcc-{prefix}, or \
                     cargo xtask setup) or set ${linker_var}"
                ));
            }
            env.push((linker_var, gcc));
        }
        // Static linking for the target only (host build scripts and proc macros keep
        // theirs), added to the user's own target flags.
        let flags_var = target_env(triple, "RUSTFLAGS");
        let mut flags = crate::util::rustflags_plus(&flags_var, "-C target-feature=+crt-static");
        if let Some(sysroot) = &sysroot {
            println!("cross {triple}: its std from {}", sysroot.display());
            flags = format!("{flags} --sysroot {}", sysroot.display());
        }
        env.push((flags_var.clone(), flags));
        Ok(Some(Self {
            triple: triple.to_string(),
            arch,
            qemu,
            emulated: !native,
            env,
            dir: target_dir().join("cross"),
        }))
    }

    /// `cargo <args> --target T --target-dir <dir>` with this target's environment,
    /// release builds with debug assertions and overflow checks. `RUSTFLAGS` is dropped:
    /// it would replace the target's flags, and a host `target-cpu` must not reach T.
    pub fn cargo<I, S>(&self, args: I, target_dir: &Path) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut cmd = Cmd::cargo()
            .args(args)
            .args(["--target", &self.triple])
            .args(["--target-dir", &target_dir.display().to_string()])
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env("CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS", "true")
            .env("CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS", "true")
            .env_remove("TESTKIT_REQUIRE");
        for (k, v) in &self.env {
            cmd = cmd.env(k, v);
        }
        if self.emulated {
            cmd = cmd.env(
                "TESTKIT_CASES_MAX",
                env::var("TESTKIT_CASES_MAX").unwrap_or_else(|_| EMULATED_CASES_MAX.into()),
            );
        }
        if self.qemu.is_some() {
            cmd = cmd.env(target_env(&self.triple, "RUNNER"), self.runner(None));
        }
        cmd
    }

    /// The runner for `cpu` (qemu's default model when `None`), with a time limit.
    fn runner(&self, cpu: Option<&str>) -> String {
        let mut words = vec!["timeout", "-k", "10", EMULATED_TIMEOUT];
        words.extend(self.qemu.iter().flatten().map(String::as_str));
        if let Some(cpu) = cpu {
            words.extend(["-cpu", cpu]);
        }
        words.join(" ")
    }

    /// `cmd` run under qemu's CPU `cpu`.
    pub fn on_cpu(&self, cmd: Cmd, cpu: &str) -> Cmd {
        cmd.env(target_env(&self.triple, "RUNNER"), self.runner(Some(cpu)))
    }

    /// `cmd` run on the first (fullest) CPU of the ladder, if the target has one.
    pub fn on_first_cpu(&self, cmd: Cmd) -> Cmd {
        match self.ladder().first() {
            Some(r) => self.on_cpu(cmd, r.cpu),
            None => cmd,
        }
    }

    /// The CPU ladder of this target: its rungs, or none (one run, default CPU).
    pub fn ladder(&self) -> &'static [Rung] {
        match LADDERS.iter().find(|(arch, _)| *arch == self.arch) {
            Some((_, rungs)) if self.qemu.is_some() => rungs,
            _ => &[],
        }
    }

    /// Whether the backend of `row` is compiled for this target (its `arch` list names
    /// it, or it has none).
    pub fn compiled_for(&self, row: &Row) -> bool {
        row.arch.is_empty() || row.arch.contains(&self.arch)
    }

    /// `Ok` if the tests can force the backend of `row` here: the row is compiled for this
    /// target, and the CPU has its features (the host's, when the target runs natively;
    /// an emulated target's first rung is its fullest CPU, and a missing feature there
    /// fails the test loudly).
    pub fn can_run(&self, row: &Row) -> Result {
        if !self.compiled_for(row) {
            return Err(format!(
                "needs {} (this is {})",
                row.arch.join(" or "),
                self.arch
            ));
        }
        if !self.emulated {
            // The host's CPU runs it: ask it for the features only (its arch is not T's).
            let features = Row {
                arch: Vec::new(),
                ..row.clone()
            };
            cpu::can_run(&features)?;
        }
        Ok(())
    }

    /// Checks each rung's CPU under qemu with a small static C program reading
    /// `AT_HWCAP`: it must run, and show the bits the rung promises.
    pub fn check_ladder(&self) -> Result {
        let rungs = self.ladder();
        let (Some(qemu), false) = (&self.qemu, rungs.is_empty()) else {
            return Ok(());
        };
        let gcc = self
            .env
            .iter()
            .find(|(k, _)| *k == target_env(&self.triple, "LINKER"))
            .map_or_else(|| "cc".to_string(), |(_, v)| v.clone());
        let dir = self.dir.join("probe");
        let (src, exe) = (dir.join("hwcap.c"), dir.join(&self.triple));
        if crate::util::dry_run() {
            return Ok(());
        }
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        std::fs::write(&src, PROBE_C).map_err(|e| format!("{}: {e}", src.display()))?;
        Cmd::new(&gcc)
            .args(["-static", "-O2", "-o"])
            .args([exe.display().to_string(), src.display().to_string()])
            .run()?;
        for r in rungs {
            let out = Cmd::new(&qemu[0])
                .args(&qemu[1..])
                .args(["-cpu", r.cpu])
                .arg(exe.display().to_string())
                .output()
                .map_err(|e| format!("the CPU probe does not run under -cpu {}: {e}", r.cpu))?;
            let hwcap = parse_hwcap(&out)
                .ok_or_else(|| format!("the CPU probe printed no hwcap: {out}"))?;
            if hwcap & r.has != r.has || hwcap & r.lacks != 0 {
                return Err(format!(
                    "{} -cpu {}: AT_HWCAP is {hwcap:#x}, not what the ladder expects \
                     (bits {:#x} set, {:#x} clear): see LADDERS in xtask/src/cross.rs",
                    qemu[0], r.cpu, r.has, r.lacks
                ));
            }
            println!(
                "cpu probe: -cpu {}: AT_HWCAP {hwcap:#x} (as expected)",
                r.cpu
            );
        }
        Ok(())
    }
}

/// The `hwcap=0x…` value of the probe's output.
fn parse_hwcap(out: &str) -> Option<u64> {
    let v = out
        .split_whitespace()
        .find_map(|w| w.strip_prefix("hwcap="))?;
    u64::from_str_radix(v.trim_start_matches("0x"), 16).ok()
}

/// `target_arch` of `triple`, from `rustc --print cfg`.
fn target_arch(rustc: &str, triple: &str) -> Result<String> {
    let cfg = Cmd::new(rustc)
        .args(["--print", "cfg", "--target", triple])
        .output()?;
    cfg.lines()
        .find_map(|l| l.strip_prefix("target_arch=\""))
        .map(|a| a.trim_end_matches('"').to_string())
        .ok_or_else(|| format!("`{rustc} --print cfg --target {triple}` names no target_arch"))
}

/// `cargo xtask cross --target T`: the forced backends (`backend`: a row name, `all` or
/// `none`), then the tests under each CPU of T's ladder.
pub fn run(ws: &Workspace, triple: &str, packages: &[String], backend: &str) -> Result {
    let Some(cross) = Cross::new(triple)? else {
        return Ok(());
    };
    cross.check_ladder()?;
    if backend != "none" {
        let only = (backend != "all").then_some(backend);
        if crate::ci::forced(ws, packages, only, true, Some(&cross))? {
            // The forced rounds built our crates with `--cfg` flags cargo does not see
            // in its fingerprints: clean them so the detected run below rebuilds them.
            crate::ci::clean_backend_crates(ws, &cross.dir, true, Some(&cross))?;
        }
    }
    // Doc tests are API examples; they run natively in the `test` step.
    let test = cross.cargo(["test", "--release", "--tests"], &cross.dir);
    let test = test.args(crate::package_args(ws, packages)?);
    let rungs = cross.ladder();
    if rungs.is_empty() {
        return test.run();
    }
    for r in rungs {
        println!("--- cross {triple}: -cpu {} ({})", r.cpu, r.offers);
        cross.on_cpu(test.clone(), r.cpu).run()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names() {
        assert_eq!(
            target_env("s390x-unknown-linux-gnu", "RUNNER"),
            "CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER"
        );
        assert_eq!(
            target_env("thumbv7em-none-eabihf", "LINKER"),
            "CARGO_TARGET_THUMBV7EM_NONE_EABIHF_LINKER"
        );
    }

    #[test]
    fn missing_std_is_detected() {
        assert!(!std_installed(
            "rustc",
            "s390x-unknown-linux-gnu-not-a-target"
        ));
    }

    #[test]
    fn probe_output() {
        assert_eq!(parse_hwcap("hwcap=0x8fb fp=2.25\n"), Some(0x8fb));
        assert_eq!(parse_hwcap("hwcap=0 fp=2.25\n"), Some(0));
        assert_eq!(parse_hwcap("qemu: uncaught target signal 4"), None);
    }

    /// The ladder's two rungs are the two arms of crypto detection.
    #[test]
    fn aarch64_ladder() {
        let (_, rungs) = LADDERS.iter().find(|(a, _)| *a == "aarch64").unwrap();
        assert_eq!(rungs[0].has & HWCAP_CRYPTO, HWCAP_CRYPTO);
        assert_eq!(rungs[1].lacks & HWCAP_CRYPTO, HWCAP_CRYPTO);
    }
}
