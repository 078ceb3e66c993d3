//! Backend selection: the only place that decides which compression function runs.
//!
//! RIPEMD has one backend, `soft` (portable Rust). A RIPEMD hash is two serial chains
//! of dependent 32-bit steps whose Boolean functions, message words and rotation
//! amounts differ between the chains, so a single message gives vector units nothing
//! to do that scalar code does not already do at the same latency (two lanes of
//! `vpternlogd`/`vprolvd` cost as many cycles per step as the scalar step); see
//! `soft.rs` for how the scalar code overlaps the two chains. The pattern of the other
//! simdcrypt crates is kept all the same — a one-row backend table, a `Backend` stored
//! in each hasher core, `detect()`, `--cfg ripemd_backend="…"`, `__backends` for the
//! benches — so that an ISA backend could be added here alone (as a row of the table).

simdcrypt_dispatch::backends! {
    crate: "ripemd", cfg: ripemd_backend;
    /// Portable Rust (`src/backends/soft.rs`), every target.
    "soft" => Soft;
}

impl Backend {
    /// RIPEMD-128 compression of `blocks` into `state`.
    #[inline]
    pub(crate) fn compress128(self, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress128(state, blocks),
        }
    }

    /// RIPEMD-160 compression of `blocks` into `state`.
    #[inline]
    pub(crate) fn compress160(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress160(state, blocks),
        }
    }

    /// RIPEMD-256 compression of `blocks` into `state`.
    #[inline]
    pub(crate) fn compress256(self, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress256(state, blocks),
        }
    }

    /// RIPEMD-320 compression of `blocks` into `state`.
    #[inline]
    pub(crate) fn compress320(self, state: &mut [u32; 10], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress320(state, blocks),
        }
    }
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto `ripemd` API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// RIPEMD-128 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress128_with(name: &str, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        Backend::named(name).compress128(state, blocks)
    }

    /// RIPEMD-160 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress160_with(name: &str, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        Backend::named(name).compress160(state, blocks)
    }

    /// RIPEMD-256 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress256_with(name: &str, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        Backend::named(name).compress256(state, blocks)
    }

    /// RIPEMD-320 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress320_with(name: &str, state: &mut [u32; 10], blocks: &[[u8; 64]]) {
        Backend::named(name).compress320(state, blocks)
    }
}
