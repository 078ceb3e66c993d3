//! Compiles `tests/abi.c` with the system C compiler (`cc`), links it directly against
//! the cdylib this package builds (not preloaded), and runs it: the header's
//! declarations and `struct crypt_data`'s layout against the library.
#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::path::PathBuf;
use std::process::Command;

#[test]
fn c_program_links_and_passes() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // target/<profile>/deps/<this test>: cargo builds the cdylib beside it for tests.
    let exe = std::env::current_exe().unwrap();
    let lib_dir = exe.parent().unwrap().to_path_buf();
    assert!(
        lib_dir.join("libsimdcrypt_libcrypt.so").exists(),
        "no cdylib in {}",
        lib_dir.display()
    );
    let bin = exe.parent().unwrap().join("simdcrypt-libcrypt-abi");
    let st = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&bin)
        .arg(manifest.join("tests/abi.c"))
        .arg("-I")
        .arg(manifest.join("include"))
        .arg("-L")
        .arg(&lib_dir)
        .args(["-lsimdcrypt_libcrypt"])
        .status()
        .expect("cc (setup installs a C compiler)");
    assert!(st.success(), "cc failed");
    let out = Command::new(&bin)
        .env("LD_LIBRARY_PATH", &lib_dir)
        .output()
        .unwrap();
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "abi.c failed");
}
