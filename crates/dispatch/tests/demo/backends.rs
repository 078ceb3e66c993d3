//! The table, as a crate's `src/backends.rs` holds it.

// No build script sets `simdcrypt_rustc` or `demo_backend` here.
#![allow(unexpected_cfgs)]

simdcrypt_dispatch::backends! {
    crate: "demo", cfg: demo_backend;
    /// Portable.
    "soft" => Soft;
    /// Never runs: needs a CPU class no CPU is in twice.
    "never" => Never {
        mod: never,
        arch: ["x86", "x86_64", "aarch64"],
        needs: ["intel", "amd"],
    }
    /// SSE2 (every x86-64 CPU), avoided nowhere.
    "sse2" => Sse2 {
        mod: sse2,
        arch: ["x86_64"],
        needs: ["sse2"],
        blocks: 3,
        avoid: [],
    }
    /// Gated on a Rust version this build does not have (no build script here).
    "later" => Later {
        mod: later,
        arch: ["x86_64"],
        needs: ["sse2"],
        rustc: "1.89",
    }
}

/// `2x` and the name of the module that computed it.
pub fn twice(b: Backend, x: u32) -> (&'static str, u32) {
    dispatch!(b => twice(x))
}

/// `N x` (a generic call) and the module's name.
pub fn scaled<const N: u32>(b: Backend, x: u32) -> (&'static str, u32) {
    dispatch!(b => scaled::<N>(x))
}

/// As [`twice`], but `soft` has its own arm.
pub fn overridden(b: Backend, x: u32) -> (&'static str, u32) {
    dispatch!(b => twice(x), soft => ("soft arm", x))
}
