//! Backend selection: the only place that decides which compression function runs.
//!
//! MD2 has one backend, `soft` (portable Rust). MD2 is one serial chain of 864
//! dependent table lookups per block, so its speed is the latency of the chain; see
//! `soft.rs` for how it is cut to one load and one `xor` per two steps. A vector
//! variant was measured and rejected: building a 256-byte table per pair of steps
//! with AVX2 or AVX-512 (`W[x1] ^ x2`, which takes the `xor` off the chain) is bound
//! by the stores and the L2 reads of the table rows at about 9 cycles per pair,
//! against about 7.5 for `soft`. The pattern of the other simdcrypt crates is kept
//! all the same — a one-row backend table, a `Backend` stored in the hasher core,
//! `detect()`, `--cfg md2_backend="…"`, `__backends` for the benches — so that an ISA
//! backend could be added here alone (as a row of the table).

simdcrypt_dispatch::backends! {
    crate: "md2", cfg: md2_backend;
    /// Portable Rust (`src/backends/soft.rs`), every target.
    "soft" => Soft;
}

impl Backend {
    /// Absorbs `blocks` into the state `x` and the checksum `c`.
    #[inline]
    pub(crate) fn compress(self, x: &mut [u8; 48], c: &mut [u8; 16], blocks: &[[u8; 16]]) {
        match self {
            Backend::Soft => soft::compress(x, c, blocks),
        }
    }
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto `md2` API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// MD2 compression of `blocks` into the 48-byte state `x` and the checksum `c`
    /// (the two halves of `Md2Core`'s serialized state) with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress_with(name: &str, x: &mut [u8; 48], c: &mut [u8; 16], blocks: &[[u8; 16]]) {
        Backend::named(name).compress(x, c, blocks)
    }
}
