//! `cargo xtask ct`: the constant-time check (issue 11). Builds the `ct` binary of the
//! speed package and runs each of its targets under valgrind memcheck, which fails a run
//! on any branch or memory address that depends on the bytes a target marked secret
//! (`benches/src/ct.rs` has the targets and the list of exempt, table-based backends).
//! The deliberately leaky toy must fail, or the check proves nothing.

use std::path::PathBuf;
use std::process::Command;

use crate::util::{Cmd, Result, target_dir, which};
use crate::workspace::Workspace;

/// `ct run NAME` exits with this when the backend is not available here.
const SKIPPED: i32 = 3;

pub fn run(ws: &Workspace) -> Result {
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
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "ct: secret-dependent branches or addresses in {}",
            failed.join(", ")
        ))
    }
}
