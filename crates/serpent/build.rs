//! Sets `simdcrypt_rustc`: the SIMD backends (the rows with `rustc: "1.89"` in
//! `src/backends.rs`) are compiled with Rust 1.89 and later; older compilers, down to this
//! crate's `rust-version`, build it with the portable backend only.

fn main() {
    simdcrypt_dispatch::build::rustc_cfg();
}
