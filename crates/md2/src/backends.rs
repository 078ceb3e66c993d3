//! Backend selection: the only place that decides which compression function runs.
//!
//! MD2 has one backend, `soft` (portable Rust). MD2 is one serial chain of 864
//! dependent table lookups per block, so its speed is the latency of the chain; see
//! `soft.rs` for how it is cut to one load and one `xor` per two steps. A vector
//! variant was measured and rejected: building a 256-byte table per pair of steps
//! with AVX2 or AVX-512 (`W[x1] ^ x2`, which takes the `xor` off the chain) is bound
//! by the stores and the L2 reads of the table rows at about 9 cycles per pair,
//! against about 7.5 for `soft`. The pattern of the other simdcrypt crates is kept
//! all the same — a `Backend` stored in the hasher core, `detect()`,
//! `--cfg md2_backend="…"`, `__backends` for the benches — so that an ISA backend
//! could be added here alone.

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

    /// Absorbs `blocks` into the state `x` and the checksum `c`.
    #[inline]
    pub(crate) fn compress(self, x: &mut [u8; 48], c: &mut [u8; 16], blocks: &[[u8; 16]]) {
        match self {
            Backend::Soft => soft::compress(x, c, blocks),
        }
    }
}

/// The forced backend (`--cfg md2_backend="…"`), else the best one this CPU has.
/// With `soft` as the only backend both answers are `Soft`.
#[inline]
pub(crate) fn detect() -> Backend {
    // The backend named by `--cfg md2_backend="…"`, if any.
    const FORCED: Option<Backend> = if cfg!(md2_backend = "soft") {
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
/// Not part of the RustCrypto `md2` API and not covered by semver.
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

    /// MD2 compression of `blocks` into the 48-byte state `x` and the checksum `c`
    /// (the two halves of `Md2Core`'s serialized state) with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress_with(name: &str, x: &mut [u8; 48], c: &mut [u8; 16], blocks: &[[u8; 16]]) {
        match by_name(name) {
            Some(b) => b.compress(x, c, blocks),
            None => panic!("md2 backend `{name}` is not available on this CPU"),
        }
    }
}
