//! `cargo xtask setup`: installs what `cargo xtask ci` needs and is missing; skips what
//! is there, so it is quick on a prepared machine.
//!
//! - Debian/Ubuntu: `qemu-user` (for `qemu-x86_64`, x86_64 hosts only), `pkg-config`,
//!   `libssl-dev` (the `speed` crate's `openssl` feature) and `libcrypt-dev` (libxcrypt's
//!   `libcrypt.so`, which `des-crypt`'s CLI and its differential tests link), `whois`
//!   (`mkpasswd`, for `libcrypt-check`), `gcc` (`cc`, which `simdcrypt-libcrypt`'s C ABI
//!   test compiles with), `perl` and `python3` (Debian's 3.11, whose `crypt` module
//!   `libcrypt-check` preloads), through apt-get;
//! - for the `cross` step (x86_64 Debian hosts): the `arm64` dpkg architecture,
//!   Debian's `rustc-web` with `libstd-rust-web-dev:arm64` (rustup's toolchain here has
//!   only the host's std) and the cross linkers
//!   `gcc-aarch64-linux-gnu`, `gcc-i686-linux-gnu` with their static C libraries
//!   `libc6-dev-arm64-cross`, `libc6-dev-i386-cross` (see `cross::debian_missing`);
//! - on Debian 12 x86_64 hosts, qemu-user 10 from bookworm-backports unpacked into
//!   `<target>/qemu10` for the CPU ladder (Debian 12's qemu-user 7.2 miscomputes AVX2
//!   `vpgatherdd`; see `ci::QEMU_SKIPS`), fetched with a private apt state so the system's
//!   sources, lists and packages stay as they are;
//! - for s390x (big-endian) and i686: Debian 13's `libstd-rust-web-dev:s390x` and
//!   `:i386`, the same `rustc-web` release, unpacked into `<target>/sysroot/<triple>`
//!   with a private apt state (see `cross::STD_FROM_TRIXIE` for why), plus apt's
//!   `gcc-s390x-linux-gnu` and `libc6-dev-s390x-cross`;
//! - rustup components `rustfmt` and `clippy`;
//! - `cargo-semver-checks` (`cargo install --locked`, ~7 minutes on 2 cores);
//! - the nightly toolchain (rustup, minimal profile) and `cargo-fuzz` for the fuzz step.

use std::env;

use crate::util::{Cmd, Result, dry_run, is_root, which};

pub fn run() -> Result {
    apt_packages()?;
    qemu10()?;
    trixie_std()?;
    components()?;
    semver_checks()?;
    fuzzing()
}

/// Whether `pkg-config` finds libxcrypt (`libcrypt-dev`: the `-lcrypt` of `des-crypt`).
pub fn libcrypt_dev_present() -> bool {
    Cmd::new("pkg-config")
        .args(["--exists", "libcrypt"])
        .succeeds()
}

/// Whether `pkg-config` finds OpenSSL (what `openssl-sys` asks on Linux).
pub fn openssl_dev_present() -> bool {
    Cmd::new("pkg-config")
        .args(["--exists", "openssl"])
        .succeeds()
}

fn apt_packages() -> Result {
    if !cfg!(target_os = "linux") {
        println!(
            "setup: {} host: no system packages installed (the qemu CPU ladder and cross runs \
             are Linux-only and skip themselves)",
            env::consts::OS
        );
        return Ok(());
    }
    let mut missing = Vec::new();
    if cfg!(target_arch = "x86_64") && which("qemu-x86_64").is_none() {
        missing.push("qemu-user");
    }
    if which("pkg-config").is_none() {
        missing.push("pkg-config");
    }
    if !openssl_dev_present() {
        missing.push("libssl-dev");
    }
    if !libcrypt_dev_present() {
        missing.push("libcrypt-dev");
    }
    if cfg!(target_arch = "x86_64") && which("valgrind").is_none() {
        missing.push("valgrind");
    }
    if which("mkpasswd").is_none() {
        missing.push("whois");
    }
    if which("cc").is_none() {
        missing.push("gcc");
    }
    if which("perl").is_none() {
        missing.push("perl");
    }
    if !std::path::Path::new("/usr/bin/python3").exists() {
        missing.push("python3");
    }
    let (archs, cross) = if cfg!(target_arch = "x86_64") && which("dpkg").is_some() {
        crate::cross::debian_missing()
    } else {
        (Vec::new(), Vec::new())
    };
    missing.extend(cross.iter().map(String::as_str));
    if missing.is_empty() {
        println!(
            "setup: system packages present (qemu-user, pkg-config, libssl-dev, libcrypt-dev, \
             valgrind, whois, gcc, perl, python3, the aarch64 std and linker, the i686 and s390x linkers)"
        );
        return Ok(());
    }
    let add_archs: String = archs
        .iter()
        .map(|a| format!("dpkg --add-architecture {a} && "))
        .collect();
    let install = format!(
        "{add_archs}apt-get update && apt-get install -y --no-install-recommends {}",
        missing.join(" ")
    );
    if which("apt-get").is_none() {
        return Err(format!(
            "setup: missing {} and this is not a Debian-like system: install the equivalents \
             (qemu-user, pkg-config, OpenSSL headers, libxcrypt's libcrypt) and rerun",
            missing.join(", ")
        ));
    }
    // Root runs apt-get itself; others need password-less sudo (as on CI runners).
    let sudo = if is_root() {
        false
    } else if which("sudo").is_some() && Cmd::new("sudo").args(["-n", "true"]).succeeds() {
        true
    } else {
        return Err(format!(
            "setup: missing {} and not root: run\n    sudo sh -c '{install}'\nthen rerun",
            missing.join(", ")
        ));
    };
    let apt = |args: &[&str]| {
        let mut c = if sudo {
            Cmd::new("sudo").args(["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"])
        } else {
            Cmd::new("apt-get").env("DEBIAN_FRONTEND", "noninteractive")
        };
        c = c.args(args.iter().copied());
        c
    };
    let mut args = vec!["install", "-y", "--no-install-recommends"];
    args.extend(&missing);
    // `dpkg --add-architecture` is idempotent; it must come before `apt-get update`.
    let dpkg = |arch: &str| {
        let c = if sudo {
            Cmd::new("sudo").args(["-n", "dpkg"])
        } else {
            Cmd::new("dpkg")
        };
        c.args(["--add-architecture", arch])
    };
    // A mirror caught mid-sync fails one index (seen: bookworm-security's i386 list, "File
    // has unexpected size") and `apt-get update` exits 100 though every other list is
    // fresh. Try three times; then go on with the lists apt has, and let the install say
    // whether they suffice.
    let update = || {
        for attempt in 1..=3 {
            match apt(&["update"]).run() {
                Ok(()) => return,
                Err(e) if attempt < 3 => {
                    eprintln!("setup: {e}; trying again in 20 s");
                    std::thread::sleep(std::time::Duration::from_secs(20));
                }
                Err(e) => eprintln!("setup: {e}; going on with the package lists apt has"),
            }
        }
    };
    let done = archs
        .iter()
        .try_for_each(|a| dpkg(a).run())
        .map(|()| update())
        .and_then(|()| apt(&args).run());
    if let Err(e) = done {
        let prefix = if sudo { "sudo " } else { "" };
        return Err(format!(
            "setup: {e}\ninstall them yourself:\n    {prefix}sh -c '{install}'"
        ));
    }
    if !dry_run() && cfg!(target_arch = "x86_64") && which("qemu-x86_64").is_none() {
        return Err("setup: qemu-user is installed but qemu-x86_64 is not on PATH".into());
    }
    Ok(())
}

/// The bookworm-backports suite that carries qemu 10 for Debian 12.
const BACKPORTS: &str = "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] \
                         http://deb.debian.org/debian bookworm-backports main";

/// qemu-user 10 for the CPU ladder, on Debian 12 x86_64 hosts whose `qemu-x86_64` is
/// older: `apt-get download qemu-user/bookworm-backports` (static binaries) with its own
/// sources, lists and cache in a scratch directory, then its `qemu-x86_64` into
/// [`crate::ci::qemu10_dir`], where `ci::ladder_qemu` finds it. Nothing is installed
/// system-wide; `$SIMDCRYPT_QEMU_X86_64` overrides the choice.
fn qemu10() -> Result {
    let bookworm = std::fs::read_to_string("/etc/os-release")
        .is_ok_and(|r| r.lines().any(|l| l == "VERSION_CODENAME=bookworm"));
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64") && bookworm) {
        return Ok(());
    }
    let dir = crate::ci::qemu10_dir();
    let bin = dir.join("usr/bin/qemu-x86_64");
    let system = Cmd::new("qemu-x86_64").arg("--version").output_any();
    if bin.is_file() || system.is_ok_and(|v| crate::ci::qemu_major(&v) >= Some(10)) {
        println!("setup: qemu-x86_64 10 present");
        return Ok(());
    }
    println!(
        "setup: qemu-user 10 from bookworm-backports into {}",
        dir.display()
    );
    if dry_run() {
        return Ok(());
    }
    // Only `qemu-x86_64` (static-pie) out of the package's 370 MB of emulators.
    private_apt_unpack(
        &format!("{BACKPORTS}\n"),
        &[],
        "qemu-user/bookworm-backports",
        &dir,
        "./usr/bin/qemu-x86_64",
    )?;
    println!(
        "setup: {}",
        Cmd::new(bin.display().to_string())
            .arg("--version")
            .output_any()?
            .lines()
            .next()
            .unwrap_or("")
    );
    Ok(())
}

/// `apt-get download PACKAGE` from `sources` (a sources.list; `archs`: foreign dpkg
/// architectures it names) with its own lists and cache in a scratch directory, then
/// `members` of the package (a tar pattern, `.` for all) unpacked into `dir`. The system's
/// apt sources, lists and packages stay as they are.
fn private_apt_unpack(
    sources: &str,
    archs: &[&str],
    package: &str,
    dir: &std::path::Path,
    members: &str,
) -> Result {
    let tmp = env::temp_dir().join(format!("simdcrypt-apt-{}", std::process::id()));
    for d in ["lists/partial", "cache/archives/partial"] {
        std::fs::create_dir_all(tmp.join(d)).map_err(|e| format!("setup: {e}"))?;
    }
    let list = tmp.join("sources.list");
    std::fs::write(&list, sources).map_err(|e| format!("setup: {e}"))?;
    let mut opts = vec![
        format!("Dir::Etc::sourcelist={}", list.display()),
        "Dir::Etc::sourceparts=-".into(),
        format!("Dir::State::Lists={}", tmp.join("lists").display()),
        format!("Dir::Cache={}", tmp.join("cache").display()),
    ];
    opts.extend(archs.iter().map(|a| format!("APT::Architectures::={a}")));
    let apt = |args: &[&str]| {
        let mut c = Cmd::new("apt-get").dir(&tmp);
        for o in &opts {
            c = c.args(["-o", o]);
        }
        c.args(args.iter().copied())
    };
    let done = apt(&["update"])
        .run()
        .and_then(|()| apt(&["download", package]).run())
        .and_then(|()| {
            let deb = crate::util::files_with_suffix(&tmp, ".deb")
                .pop()
                .ok_or("apt-get download left no .deb")?;
            std::fs::create_dir_all(dir).map_err(|e| format!("setup: {e}"))?;
            Cmd::new("sh")
                .arg("-c")
                .arg(format!(
                    "dpkg-deb --fsys-tarfile {} | tar -x -C {} {members}",
                    crate::util::shell_quote(&deb.display().to_string()),
                    crate::util::shell_quote(&dir.display().to_string())
                ))
                .run()
        });
    let _ = std::fs::remove_dir_all(&tmp);
    done
}

/// Debian 13's sources, for [`crate::cross::STD_FROM_TRIXIE`].
const TRIXIE: &str = "http://deb.debian.org/debian trixie main";

/// The std of each [`crate::cross::STD_FROM_TRIXIE`] target that no compiler here has:
/// Debian 13's `libstd-rust-web-dev:<arch>` unpacked into
/// [`crate::cross::private_sysroot`], kept only if Debian 12's `rustc-web` is the same
/// release and compiles against it (else the `cross` step skips the target, saying so).
fn trixie_std() -> Result {
    let rustc = crate::cross::SYSTEM_RUSTC;
    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) || dry_run() {
        return Ok(());
    }
    for &(triple, arch) in crate::cross::STD_FROM_TRIXIE {
        if crate::cross::compiler_for(triple).is_ok() || !std::path::Path::new(rustc).is_file() {
            continue;
        }
        let dir = crate::cross::private_sysroot(triple);
        println!(
            "setup: the {triple} std from Debian 13 into {}",
            dir.display()
        );
        let _ = std::fs::remove_dir_all(&dir);
        let sources = format!(
            "deb [arch={arch} signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] \
             {TRIXIE}\n"
        );
        private_apt_unpack(
            &sources,
            &[arch],
            &format!("libstd-rust-web-dev:{arch}"),
            &dir,
            ".",
        )?;
        // A std from another release fails here with E0514, not later in every build.
        let probe = env::temp_dir().join(format!("simdcrypt-std-probe-{}", std::process::id()));
        std::fs::create_dir_all(&probe).map_err(|e| format!("setup: {e}"))?;
        let src = probe.join("probe.rs");
        std::fs::write(&src, "pub fn f(n: usize) -> Vec<u8> { vec![1; n] }\n")
            .map_err(|e| format!("setup: {e}"))?;
        let checked = Cmd::new(rustc)
            .args([
                "--edition",
                "2021",
                "--crate-type",
                "lib",
                "--target",
                triple,
            ])
            .args(["--sysroot", &dir.join("usr").display().to_string()])
            .args(["--out-dir", &probe.display().to_string()])
            .arg(src.display().to_string())
            .run();
        let _ = std::fs::remove_dir_all(&probe);
        if let Err(e) = checked {
            let _ = std::fs::remove_dir_all(&dir);
            println!(
                "setup: Debian 13's {triple} std does not fit {rustc} ({e}); the cross step \
                 will skip {triple}"
            );
        }
    }
    Ok(())
}

fn components() -> Result {
    let cargo = crate::util::cargo_program();
    let missing: Vec<&str> = [("rustfmt", "fmt"), ("clippy", "clippy")]
        .iter()
        .filter(|(_, sub)| !Cmd::new(&cargo).args([*sub, "--version"]).succeeds())
        .map(|(component, _)| *component)
        .collect();
    if missing.is_empty() {
        println!("setup: rustfmt and clippy present");
        return Ok(());
    }
    let cmd = Cmd::new("rustup")
        .args(["component", "add"])
        .args(missing.iter().copied());
    if which("rustup").is_none() {
        return Err(format!(
            "setup: missing {}, and no rustup: run `{}` with your toolchain manager's equivalent",
            missing.join(", "),
            cmd.display()
        ));
    }
    cmd.run()
        .map_err(|e| format!("setup: {e}\nrun yourself:\n    {}", cmd.display()))
}

fn semver_checks() -> Result {
    let cargo = crate::util::cargo_program();
    if let Ok(v) = Cmd::new(&cargo)
        .args(["semver-checks", "--version"])
        .output()
    {
        println!("setup: {} present", v.trim());
        return Ok(());
    }
    println!("setup: installing cargo-semver-checks (about 7 minutes on 2 cores)");
    // Its release profile asks for fat LTO and one codegen unit; the default profile
    // builds in 7m50s instead of 9m here, and the semver step does not notice.
    let cmd = Cmd::new(&cargo)
        .args(["install", "--locked", "cargo-semver-checks"])
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16");
    cmd.run().map_err(|e| {
        format!("setup: {e}\nrun yourself:\n    cargo install --locked cargo-semver-checks")
    })
}

/// The nightly toolchain (`cargo fuzz` builds with `-Zsanitizer=address`) and
/// `cargo-fuzz`.
fn fuzzing() -> Result {
    let cargo = crate::util::cargo_program();
    if crate::fuzz::nightly_present() {
        println!("setup: nightly toolchain present");
    } else {
        let cmd =
            Cmd::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]);
        cmd.run()
            .map_err(|e| format!("setup: {e}\nrun yourself:\n    {}", cmd.display()))?;
    }
    if crate::fuzz::cargo_fuzz_present() {
        println!("setup: cargo-fuzz present");
        return Ok(());
    }
    let cmd = Cmd::new(&cargo).args(["install", "--locked", "cargo-fuzz"]);
    cmd.run()
        .map_err(|e| format!("setup: {e}\nrun yourself:\n    cargo install --locked cargo-fuzz"))
}
