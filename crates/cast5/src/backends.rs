//! Backend selection: the only place that decides which CAST5 implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg cast5_backend="…"`, else the first row
//! of the table below that this CPU runs and does not avoid. Every backend uses the same key schedule
//! ([`soft::Keys`]); a cipher stores its backend (with the token proving the CPU can run
//! it) beside it, so a bulk call dispatches once.
//!
//! Preference on x86: `vbmi` > `avx512` > `avx2` > `soft`, with both gather backends
//! skipped on CPUs in the `slow-gather` class (every x86 CPU except Intel's with
//! AVX512-FP16, see `simdcrypt_dispatch::CLASSES`). One interleaved run, ECB over 8 KiB,
//! TSC cycles per byte:
//!
//! | machine | `vbmi` (`vpermi2b` byte tables, 128 blocks) | `avx512` (16-lane gathers, 64 blocks) | `avx2` (8-lane gathers, 16 blocks) | `soft` (4 blocks, scalar loads) |
//! |---|---|---|---|---|
//! | Intel Xeon (family 6 model 207, AVX512-FP16), 2026-12-06 | 3.09 | 3.03 | 4.64 | 6.73 |
//! | AMD Zen 4 (EPYC, family 25 model 17) | 1.9 | 6.6 | 7.0 | 6.3 |
//!
//! (`cargo run --release -p speed --bin auto -- 8192 cast5`. Zen 4, 2026-12-05 for the
//! gather rows, again with `vbmi` on its branch: medians 1.87–1.97, 6.29–6.41, 6.59–6.79,
//! 7.01–7.10. Intel: medians of three runs; `vbmi` 3.09–3.11 against `avx512` 3.02–3.06,
//! and in an earlier run 3.10 against 3.05 and 3.13 against 3.16.)
//!
//! Every path does 64 S-box look-ups per block; the scalar one also spends ~10 ALU
//! instructions per look-up-round on the general registers, the gathers spread the
//! address arithmetic over 8 or 16 lanes. `avx512` runs at the gather throughput (~6
//! cycles per 16-lane gather).
//!
//! `vbmi` stays ahead of `avx512` on the Intel CPUs with fast gathers, where the two are
//! level (within 2 %, the order changing from run to run; the 3 % target of issue 18 is
//! met either way), because it is constant-time in its passes. A round of 64 blocks
//! issues ~72 shuffles (`vpermi2b`, `vpunpck*`), which on Intel run only on port 5 at one
//! per cycle, and ~45 other vector operations for port 0: ~72 core cycles a round, 16
//! rounds per 512 bytes: ~2.3 core cycles per byte by that count, against the 3.09 TSC
//! cycles per byte measured.

pub(crate) use soft::Keys;

use cipher::{
    BlockCipherDecClosure, BlockCipherEncClosure, array::Array, consts::U8, inout::InOut,
};
use simdcrypt_dispatch::modes::CbcEncrypt;

/// A CAST5 block.
pub(crate) type B8 = Array<u8, U8>;

simdcrypt_dispatch::backends! {
    crate: "cast5", cfg: cast5_backend;
    /// Portable Rust, every target: four blocks interleaved.
    "soft" => Soft;
    /// AVX-512 VBMI: S-boxes as byte tables in `vpermi2b`, 128 blocks per pass, no
    /// memory access indexed by data. From 24 blocks (a padded 64-block pass costs what
    /// `soft` takes for 24: Zen 4, 1323 against 1304 TSC cycles); shorter calls and rests
    /// run `soft`.
    "vbmi" => Vbmi {
        mod: vbmi,
        arch: ["x86", "x86_64"],
        needs: ["avx512f", "avx512bw", "avx512vbmi"],
        blocks: 24,
        rustc: "1.89",
    }
    /// AVX-512: `vpgatherdd zmm` S-box look-ups and `vprolvd`, 64 blocks in flight.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86", "x86_64"],
        needs: ["avx2", "avx512f"],
        avoid: ["slow-gather"],
        rustc: "1.89",
    }
    /// AVX2: `vpgatherdd ymm` S-box look-ups, 16 blocks in flight.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2"],
        avoid: ["slow-gather"],
        rustc: "1.89",
    }
}

impl Backend {
    /// Runs `f` with this backend's encryption under key schedule `k`. `cbc`'s
    /// CBC-encryption request runs in `soft::cbc_encrypt`'s loop on every backend: a
    /// chain is one block at a time, which is the portable code everywhere.
    #[inline]
    pub(crate) fn encrypt(self, k: &Keys, f: impl BlockCipherEncClosure<BlockSize = U8>) {
        let Err(f) = CbcEncrypt::intercept(f, |request| soft::cbc_encrypt(k, request)) else {
            return;
        };
        dispatch!(self => encrypt(k, f))
    }

    /// Runs `f` with this backend's decryption under key schedule `k`.
    #[inline]
    pub(crate) fn decrypt(self, k: &Keys, f: impl BlockCipherDecClosure<BlockSize = U8>) {
        dispatch!(self => decrypt(k, f))
    }
}

/// One block, encrypted (`enc`) or decrypted, with the portable code: the public type's
/// own one-block backend (`ParBlocksSize` = 1, as in RustCrypto's cast5).
#[inline]
pub(crate) fn one_block(k: &Keys, block: InOut<'_, '_, B8>, enc: bool) {
    soft::run_one(k, block, enc)
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// A [`Cast5`](crate::Cast5) keyed with `key` (5..=16 bytes) that runs on backend
    /// `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or the key length is invalid.
    pub fn cast5_with(name: &str, key: &[u8]) -> crate::Cast5 {
        crate::Cast5::with_backend(Backend::named(name), key).expect("a 5..=16-byte key")
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's cast5) through `testkit::harness::block`, for every key length.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, cast5_with};
    use cipher::KeyInit;

    if !testkit::available(name, available(name)) {
        return;
    }
    // Key lengths cycle through 5..=16 (both round counts) as the harness draws keys.
    let key = |rng: &mut testkit::Rng| rng.bytes_in(5, 16);
    let peer = |k: &[u8]| rc_cast5::Cast5::new_from_slice(k).unwrap();
    testkit::harness::block_vs_soft(name, 8, par, key, peer, cast5_with);
}
