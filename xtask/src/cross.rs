//! `cargo xtask cross --target T`: the library crates' tests for another target, run
//! through qemu-user. Skips, saying so, when the target's std is not installed.

use std::env;
use std::path::Path;

use crate::util::{Cmd, Result, host_triple, which};
use crate::workspace::Workspace;

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

/// `CARGO_TARGET_<TRIPLE>_<WHAT>`.
fn target_env(triple: &str, what: &str) -> String {
    format!(
        "CARGO_TARGET_{}_{what}",
        triple.to_uppercase().replace(['-', '.'], "_")
    )
}

/// Whether the rust std for `triple` is installed (`<sysroot>/lib/rustlib/<triple>/lib`).
fn std_installed(triple: &str) -> Result<bool> {
    let sysroot = Cmd::new("rustc").args(["--print", "sysroot"]).output()?;
    Ok(Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(triple)
        .join("lib")
        .is_dir())
}

pub fn run(ws: &Workspace, triple: &str, packages: &[String], release: bool) -> Result {
    let host = host_triple()?;
    if !std_installed(triple)? {
        crate::util::skip(format!(
            "cross {triple}: the rust std for {triple} is not installed here \
             (rustup target add {triple})"
        ));
        return Ok(());
    }
    let mut cmd = Cmd::cargo().args(["test", "--target", triple]);
    if release {
        cmd = cmd.arg("--release");
    }
    cmd = cmd.args(crate::package_args(ws, packages)?);
    if triple == host {
        return cmd.run();
    }
    let runner_var = target_env(triple, "RUNNER");
    let linker_var = target_env(triple, "LINKER");
    let known = TARGETS.iter().find(|t| t.0 == triple);
    let host_is_x86_linux = host.starts_with("x86_64-") && host.ends_with("-linux-gnu");
    if env::var_os(&runner_var).is_some() {
        println!("cross {triple}: runner from ${runner_var}");
    } else if host_is_x86_linux && (triple.starts_with("i686-") || triple.starts_with("i586-")) {
        // The x86_64 Linux kernel runs 32-bit x86 binaries itself: no emulator needed.
        println!("cross {triple}: runs natively on this x86_64 Linux host");
    } else {
        if !cfg!(target_os = "linux") {
            crate::util::skip(format!(
                "cross {triple}: qemu-user runs on Linux hosts only (this is {}); \
                 set ${runner_var} to run anyway",
                env::consts::OS
            ));
            return Ok(());
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
        let sysroot = format!("/usr/{prefix}");
        let runner = if Path::new(&sysroot).is_dir() {
            format!("{qemu} -L {sysroot}")
        } else {
            println!("note: {sysroot} does not exist: dynamically linked tests may not start");
            qemu.to_string()
        };
        cmd = cmd.env(&runner_var, runner);
    }
    if env::var_os(&linker_var).is_none()
        && let Some(&(_, _, prefix)) = known
    {
        let gcc = format!("{prefix}-gcc");
        if which(&gcc).is_some() {
            cmd = cmd.env(&linker_var, gcc);
        } else if !(host_is_x86_linux
            && (triple.starts_with("i686-") || triple.starts_with("i586-")))
        {
            return Err(format!(
                "cross {triple}: no linker: install {gcc} (apt-get install gcc-{prefix}) or set ${linker_var}"
            ));
        }
        // i686 on x86_64: the host `cc -m32` links, given gcc-multilib.
    }
    cmd.run()
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
        assert!(!std_installed("s390x-unknown-linux-gnu-not-a-target").unwrap());
    }
}
