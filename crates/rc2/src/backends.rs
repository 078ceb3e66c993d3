//! Backend selection: the only place that decides which RC2 implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg rc2_backend="…"`, else the best one
//! this CPU supports: `avx512` > `avx2` > `soft` on x86, `neon` > `soft` on aarch64. The key table is the same 64 words for
//! every backend (the SIMD ones broadcast them once per bulk call), so a cipher stores the
//! words and its [`Backend`]; a bulk call dispatches once.

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U8};

simdcrypt_dispatch::backends! {
    crate: "rc2", cfg: rc2_backend;
    /// Portable Rust, four blocks interleaved, every target.
    "soft" => Soft;
    /// AVX-512BW, 32 blocks per `zmm` register (tails to `avx2`).
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86_64"],
        needs: ["avx512f", "avx512bw", "avx2"],
        rustc: "1.89",
    }
    /// AVX2, 16 blocks per `ymm` register.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2"],
        blocks: 8,
        rustc: "1.89",
    }
    /// NEON, 8 blocks per `q` register, 32 in flight, the mash look-ups by `TBL` on the
    /// key table in registers. `blocks: 4`: fewer blocks run `soft` (the key broadcast
    /// and a padded group cost about 4 `soft` blocks, estimated from instruction counts
    /// and latencies: `src/backends/neon.rs`).
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        blocks: 4,
        rustc: "1.89",
    }
}

/// Runs `f` with `backend`'s encryption under key table `k`.
#[inline]
pub(crate) fn encrypt(
    backend: Backend,
    k: &[u16; 64],
    f: impl BlockCipherEncClosure<BlockSize = U8>,
) {
    dispatch!(backend => encrypt(k, f), soft => f.call(&soft::Backend(k)))
}

/// Runs `f` with `backend`'s decryption under key table `k`.
#[inline]
pub(crate) fn decrypt(
    backend: Backend,
    k: &[u16; 64],
    f: impl BlockCipherDecClosure<BlockSize = U8>,
) {
    dispatch!(backend => decrypt(k, f), soft => f.call(&soft::Backend(k)))
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// An [`Rc2`](crate::Rc2) for `key` with `eff_key_len` effective bits that runs on
    /// backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn rc2_with(name: &str, key: &[u8], eff_key_len: usize) -> crate::Rc2 {
        crate::Rc2::with_backend(key, eff_key_len, Backend::named(name))
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `rc2`) through `testkit::harness::block`, keys of 1..=128 bytes
/// with random effective key bits.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, rc2_with};
    use std::vec::Vec;

    if !testkit::available(name, available(name)) {
        return;
    }
    // The harness makes keys; the effective bits (1..=1024) ride in the first two bytes.
    let key = |rng: &mut testkit::Rng| {
        let len = rng.range(1, 128);
        let bits = rng.range(1, 1024) as u16;
        let mut k: Vec<u8> = bits.to_le_bytes().to_vec();
        k.extend(rng.bytes(len));
        k
    };
    fn split(k: &[u8]) -> (&[u8], usize) {
        (&k[2..], usize::from(u16::from_le_bytes([k[0], k[1]])))
    }
    let peer = |k: &[u8]| {
        let (k, bits) = split(k);
        rc_rc2::Rc2::new_with_eff_key_len(k, bits)
    };
    let ours = |backend: &str, k: &[u8]| {
        let (k, bits) = split(k);
        rc2_with(backend, k, bits)
    };
    testkit::harness::block_vs_soft(name, 8, par, key, peer, ours);
}
