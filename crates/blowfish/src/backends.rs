//! Backend selection: the only place that decides which Blowfish implementation runs.
//!
//! Every backend uses the same key-dependent state (the S-boxes and P-array of
//! [`State`]), built by the portable key schedule; a cipher stores the state and the
//! chosen [`Backend`] (with its CPU-feature token), so a bulk call dispatches once.
//!
//! `detect()` returns the backend forced by `--cfg blowfish_backend="…"`, else the first
//! row of the table below that this CPU runs and does not avoid. Preference on x86:
//! `vbmi` > `avx512` > `avx2` > `soft`, but both gather backends are skipped on CPUs in
//! the `slow-gather` class (every x86 CPU except Intel's with AVX512-FP16), which run
//! `soft` when they lack VBMI. Measured (TSC cycles per byte, ECB encrypt, 8 KiB,
//! `cargo run --release -p speed --bin auto -- 8192 blowfish`, medians of three runs):
//!
//! | machine | `vbmi` | `avx512` | `avx2` | `soft` |
//! |---|---|---|---|---|
//! | AMD Zen 4 (EPYC, family 25 model 17; `slow-gather`), issue 20 | 1.8 | 6.3 | 6.0 | 5.4 |
//! | Intel Xeon (family 6 model 207, AVX512-FP16; not `slow-gather`), 2026-12-06 | 2.64 | 2.86 | 3.10 | 5.53 |
//!
//! `vbmi` is first on both.

pub(crate) use soft::State;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U8};
use simdcrypt_dispatch::modes::CbcEncrypt;

simdcrypt_dispatch::backends! {
    crate: "blowfish", cfg: blowfish_backend;
    /// Portable Rust, four blocks interleaved.
    "soft" => Soft;
    /// Byte-sliced `vpermi2b` S-boxes on `zmm`, 64 blocks in flight, no gathers.
    "vbmi" => Vbmi {
        mod: vbmi,
        arch: ["x86_64"],
        needs: ["avx512f", "avx512bw", "avx512vbmi"],
        rustc: "1.89",
    }
    /// 16-lane `vpgatherdd` on `zmm`, 64 blocks in flight (tails to `avx2`).
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86", "x86_64"],
        needs: ["avx512f", "avx2"],
        avoid: ["slow-gather"],
        rustc: "1.89",
    }
    /// 8-lane `vpgatherdd` on `ymm`, 32 blocks in flight.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2"],
        avoid: ["slow-gather"],
        rustc: "1.89",
    }
}

/// Runs `f` with `backend`'s encryption over `st` (block words in byte order `LE`).
/// `cbc`'s CBC-encryption request runs in `soft::cbc_encrypt`'s loop on every backend:
/// a chain is one block at a time, which is the `soft` code everywhere.
#[inline]
pub(crate) fn encrypt<const LE: bool>(
    backend: Backend,
    st: &State,
    f: impl BlockCipherEncClosure<BlockSize = U8>,
) {
    let Err(f) = CbcEncrypt::intercept(f, |request| soft::cbc_encrypt::<LE>(st, request)) else {
        return;
    };
    dispatch!(backend => encrypt::<LE>(st, f))
}

/// Runs `f` with `backend`'s decryption over `st` (block words in byte order `LE`).
#[inline]
pub(crate) fn decrypt<const LE: bool>(
    backend: Backend,
    st: &State,
    f: impl BlockCipherDecClosure<BlockSize = U8>,
) {
    dispatch!(backend => decrypt::<LE>(st, f))
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;
    use byteorder::ByteOrder;

    /// A [`Blowfish`](crate::Blowfish) keyed with `key` (4..=56 bytes) that runs on
    /// backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or `key` has a bad length.
    pub fn blowfish_with<T: ByteOrder>(name: &str, key: &[u8]) -> crate::Blowfish<T> {
        crate::Blowfish::with_backend(Backend::named(name), key).expect("key of 4..=56 bytes")
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `blowfish`) through `testkit::harness::block`, both byte orders,
/// random key lengths 4..=56.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, blowfish_with};
    use byteorder::{BE, LE};
    use cipher::KeyInit;

    if !testkit::available(name, available(name)) {
        return;
    }
    let key = |rng: &mut testkit::Rng| rng.bytes_in(4, 56);
    let peer = |k: &[u8]| rc_blowfish::Blowfish::<BE>::new_from_slice(k).unwrap();
    testkit::harness::block_vs_soft(name, 8, par, key, peer, blowfish_with::<BE>);
    let peer = |k: &[u8]| rc_blowfish::BlowfishLE::new_from_slice(k).unwrap();
    testkit::harness::block_vs_soft(name, 8, par, key, peer, blowfish_with::<LE>);
}
