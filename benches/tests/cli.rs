//! The `speed` binary end to end: exit statuses, stdout/stderr split, output files.

use std::process::{Command, Output};

fn speed(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_speed"))
        .args(args)
        .output()
        .expect("run speed")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn bad_command_lines_exit_2_with_a_message_on_stderr() {
    for (args, message) in [
        (&["--bogus"][..], "speed: unknown option '--bogus'"),
        (
            &["md5", "sha999"][..],
            "speed: unknown algorithm 'sha999' (known: ",
        ),
        (&["-seconds"][..], "speed: option '-seconds' needs a value"),
        (&["-bytes", "0"][..], "speed: bad value '0' for '-bytes'"),
    ] {
        let out = speed(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).starts_with(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // The list of known algorithms names every registered one.
    let err = text(&speed(&["sha999"]).stderr);
    for alg in ["md5", "sha1", "rc4"] {
        assert!(
            err.split_whitespace()
                .any(|w| w.trim_matches(|c| c == '(' || c == ')' || c == ',') == alg),
            "{err}"
        );
    }
}

#[test]
fn help_lists_options_and_algorithms() {
    let out = speed(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for needle in [
        "-seconds N",
        "-bytes N",
        "--compare",
        "--cycles",
        "--json FILE",
        "--plot FILE",
        "  md5 ",
        "  rc4 ",
    ] {
        assert!(help.contains(needle), "help lacks {needle:?}");
    }
}

#[test]
fn smoke_run_writes_table_json_and_svg() {
    let dir = std::env::temp_dir().join(format!("speed-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, svg) = (dir.join("out.json"), dir.join("out.svg"));
    let out = speed(&[
        "-seconds",
        "0.01",
        "-bytes",
        "64",
        "--compare",
        "--cycles",
        "rc4",
        "--json",
        json.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("The 'numbers' are in 1000s of bytes per second processed.\ntype "),
        "{stdout}"
    );
    assert!(stdout.contains(" 64 bytes\nrc4 "), "{stdout}");
    assert!(stdout.contains("\nrc4 (RustCrypto) "), "{stdout}");
    assert!(stdout.contains("\nrc4 vs RustCrypto "), "{stdout}");
    assert!(!stdout.contains("Doing"), "progress belongs on stderr");
    assert!(
        stderr.contains("Doing rc4 for 0.01s on 64 size blocks: "),
        "{stderr}"
    );
    if cfg!(target_arch = "x86_64") {
        assert!(stdout.contains("TSC cycles per byte"), "{stdout}");
    } else {
        assert!(stderr.contains("not available on this arch"), "{stderr}");
    }
    let json = std::fs::read_to_string(&json).unwrap();
    assert!(json.contains("\"implementation\": \"rustcrypto\""));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<?xml"));
    std::fs::remove_dir_all(&dir).unwrap();
}
