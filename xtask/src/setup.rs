//! `cargo xtask setup`: installs what `cargo xtask ci` needs and is missing; skips what
//! is there, so it is quick on a prepared machine.
//!
//! - Debian/Ubuntu: `qemu-user` (for `qemu-x86_64`, x86_64 hosts only), `pkg-config`,
//!   `libssl-dev` (the `speed` crate's `openssl` feature) and `libcrypt-dev` (libxcrypt's
//!   `libcrypt.so`, which `des-crypt`'s CLI and its differential tests link), `whois`
//!   (`mkpasswd`, for `libcrypt-check`), `gcc` (`cc`, which `simdcrypt-libcrypt`'s C ABI
//!   test compiles with), `perl` and `python3` (Debian's 3.11, whose `crypt` module
//!   `libcrypt-check` preloads), through apt-get;
//! - for the `cross` step (x86_64 Debian hosts): the `arm64` and `i386` dpkg
//!   architectures, Debian's `rustc-web` with `libstd-rust-web-dev:arm64` and `:i386`
//!   (rustup's toolchain here has only the host's std) and the cross linkers
//!   `gcc-aarch64-linux-gnu`, `gcc-i686-linux-gnu` with their static C libraries
//!   `libc6-dev-arm64-cross`, `libc6-dev-i386-cross` (see `cross::debian_missing`);
//! - on Debian 12 x86_64 hosts, qemu-user 10 from bookworm-backports unpacked into
//!   `<target>/qemu10` for the CPU ladder (Debian 12's qemu-user 7.2 miscomputes AVX2
//!   `vpgatherdd`; see `ci::QEMU_SKIPS`), fetched with a private apt state so the system's
//!   sources, lists and packages stay as they are;
//! - rustup components `rustfmt` and `clippy`;
//! - `cargo-semver-checks` (`cargo install --locked`, ~7 minutes on 2 cores);
//! - the nightly toolchain (rustup, minimal profile) and `cargo-fuzz` for the fuzz step.

use std::env;

use crate::util::{Cmd, Result, dry_run, is_root, which};

pub fn run() -> Result {
    apt_packages()?;
    qemu10()?;
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
             valgrind, whois, gcc, perl, python3, the aarch64 and i686 std and linkers)"
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
    let done = archs
        .iter()
        .try_for_each(|a| dpkg(a).run())
        .and_then(|()| apt(&["update"]).run())
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
    let tmp = env::temp_dir().join(format!("simdcrypt-qemu10-{}", std::process::id()));
    for d in ["lists/partial", "cache/archives/partial"] {
        std::fs::create_dir_all(tmp.join(d)).map_err(|e| format!("setup: {e}"))?;
    }
    let list = tmp.join("sources.list");
    std::fs::write(&list, format!("{BACKPORTS}\n")).map_err(|e| format!("setup: {e}"))?;
    let opts = [
        format!("Dir::Etc::sourcelist={}", list.display()),
        "Dir::Etc::sourceparts=-".into(),
        format!("Dir::State::Lists={}", tmp.join("lists").display()),
        format!("Dir::Cache={}", tmp.join("cache").display()),
    ];
    let apt = |args: &[&str]| {
        let mut c = Cmd::new("apt-get").dir(&tmp);
        for o in &opts {
            c = c.args(["-o", o]);
        }
        c.args(args.iter().copied())
    };
    let done = apt(&["update"])
        .run()
        .and_then(|()| apt(&["download", "qemu-user/bookworm-backports"]).run())
        .and_then(|()| {
            let deb = crate::util::files_with_suffix(&tmp, ".deb")
                .pop()
                .ok_or("apt-get download left no .deb")?;
            // Only `qemu-x86_64` (static-pie) out of the package's 370 MB of emulators.
            std::fs::create_dir_all(&dir).map_err(|e| format!("setup: {e}"))?;
            Cmd::new("sh")
                .arg("-c")
                .arg(format!(
                    "dpkg-deb --fsys-tarfile {} | tar -x -C {} ./usr/bin/qemu-x86_64",
                    crate::util::shell_quote(&deb.display().to_string()),
                    crate::util::shell_quote(&dir.display().to_string())
                ))
                .run()
        });
    let _ = std::fs::remove_dir_all(&tmp);
    done?;
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
