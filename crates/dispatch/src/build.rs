//! For build scripts (feature `build`): the `simdcrypt_rustc` cfg behind the rows'
//! `rustc: "1.xx"`.
//!
//! A crate whose backend table has a row with `rustc:` gets, in `build.rs`:
//! ```ignore
//! fn main() {
//!     simdcrypt_dispatch::build::rustc_cfg();
//! }
//! ```
//! and `simdcrypt-dispatch = { …, features = ["build"] }` under `[build-dependencies]`.

use std::env;
use std::process::Command;
use std::string::String;

/// The versions a row's `rustc:` may name (the `check-cfg` values): each is where
/// something the backends use became stable. 1.89: AVX-512, VAES, GFNI and VPCLMULQDQ
/// target features and intrinsics (and everything the backends use from 1.86 and 1.87:
/// `#[target_feature]` on safe functions, intrinsics called without `unsafe`).
pub const VERSIONS: &[&str] = &["1.89"];

/// Prints the build-script lines that declare the `simdcrypt_rustc` cfg and set it to
/// each of [`VERSIONS`] that the compiler (`$RUSTC`, as Cargo gives build scripts) is at
/// least. An unreadable version sets none (and warns): the crate builds, with the
/// backends that need no newer Rust.
pub fn rustc_cfg() {
    let values: std::vec::Vec<String> = VERSIONS.iter().map(|v| std::format!("\"{v}\"")).collect();
    std::println!(
        "cargo::rustc-check-cfg=cfg(simdcrypt_rustc, values({}))",
        values.join(", ")
    );
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc).arg("--version").output();
    let text = match &out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        _ => String::new(),
    };
    let Some(minor) = minor_version(&text) else {
        std::println!(
            "cargo::warning=cannot read the Rust version from `{} --version` ({:?}): \
             building without the backends that need a newer Rust than this crate's floor",
            rustc.to_string_lossy(),
            text.trim()
        );
        return;
    };
    for v in VERSIONS {
        if minor_version(&std::format!("rustc {v}.0")).is_some_and(|m| minor >= m) {
            std::println!("cargo::rustc-cfg=simdcrypt_rustc=\"{v}\"");
        }
    }
}

/// The minor version of Rust 1 in `rustc --version` output (`rustc 1.85.0 (…)` → 85).
fn minor_version(text: &str) -> Option<u32> {
    let version = text.strip_prefix("rustc ")?.split([' ', '-']).next()?;
    let mut parts = version.split('.');
    if parts.next()? != "1" {
        return None;
    }
    parts.next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::minor_version;

    #[test]
    fn versions() {
        assert_eq!(
            minor_version("rustc 1.85.0 (4d91de4e4 2025-02-17) (built from a source tarball)\n"),
            Some(85)
        );
        assert_eq!(
            minor_version("rustc 1.97.0-nightly (abc 2026-05-01)"),
            Some(97)
        );
        assert_eq!(minor_version("rustc 1.89.0"), Some(89));
        assert_eq!(minor_version("cargo 1.89.0"), None);
        assert_eq!(minor_version(""), None);
    }
}
