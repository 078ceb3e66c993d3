//! Backend selection: the only place that decides which compression function runs.
//!
//! RIPEMD has one backend, `soft` (portable Rust). A RIPEMD hash is two serial chains
//! of dependent 32-bit steps whose Boolean functions, message words and rotation
//! amounts differ between the chains, so a single message gives vector units nothing
//! to do that scalar code does not already do at the same latency (two lanes of
//! `vpternlogd`/`vprolvd` cost as many cycles per step as the scalar step); see
//! `soft.rs` for how the scalar code overlaps the two chains. The pattern of the other
//! simdcrypt crates is kept all the same — a `Backend` stored in each hasher core,
//! `detect()`, `--cfg ripemd_backend="…"`, `__backends` for the benches — so that an
//! ISA backend could be added here alone.

mod soft;

/// The compression function chosen for a hasher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// Portable Rust (`src/backends/soft.rs`), every target.
    Soft,
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
        }
    }

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

/// The forced backend (`--cfg ripemd_backend="…"`), else the best one this CPU has.
/// With `soft` as the only backend both answers are `Soft`.
#[inline]
pub(crate) fn detect() -> Backend {
    // The backend named by `--cfg ripemd_backend="…"`, if any.
    const FORCED: Option<Backend> = if cfg!(ripemd_backend = "soft") {
        Some(Backend::Soft)
    } else {
        None
    };
    match FORCED {
        Some(forced) => forced,
        // No ISA backend exists: the best available is always `soft`.
        None => Backend::Soft,
    }
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        _ => None,
    }
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto `ripemd` API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    use super::{Backend, by_name};

    /// Names of the backends compiled into this build (available or not).
    pub const ALL: &[&str] = &[Backend::Soft.name()];

    /// Whether backend `name` is compiled in and can run on this CPU.
    pub fn available(name: &str) -> bool {
        by_name(name).is_some()
    }

    /// The name of the backend a new hasher uses (forced or detected).
    pub fn selected() -> &'static str {
        super::detect().name()
    }

    fn get(name: &str) -> Backend {
        by_name(name)
            .unwrap_or_else(|| panic!("ripemd backend `{name}` is not available on this CPU"))
    }

    /// RIPEMD-128 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress128_with(name: &str, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        get(name).compress128(state, blocks)
    }

    /// RIPEMD-160 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress160_with(name: &str, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        get(name).compress160(state, blocks)
    }

    /// RIPEMD-256 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress256_with(name: &str, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        get(name).compress256(state, blocks)
    }

    /// RIPEMD-320 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress320_with(name: &str, state: &mut [u32; 10], blocks: &[[u8; 64]]) {
        get(name).compress320(state, blocks)
    }
}
