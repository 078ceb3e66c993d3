//! Backend selection: the only place that decides which IDEA implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg idea_backend="…"`, else the best one
//! this CPU supports: `avx512` > `avx2` > `soft` on x86, `neon` > `soft` on aarch64. The
//! subkeys are the same 52 words for every backend (the SIMD ones broadcast them once per
//! bulk call), so a cipher stores the words and its [`Backend`]; a bulk call dispatches
//! once.

use crate::LENGTH_SUB_KEYS;
use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U8};
use simdcrypt_dispatch::modes::CbcEncrypt;

simdcrypt_dispatch::backends! {
    crate: "idea", cfg: idea_backend;
    /// Portable Rust, one block at a time, every target.
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
        blocks: 4,
        rustc: "1.89",
    }
    /// NEON, 8 blocks per `q` register, 32 in flight. `blocks: 4`: fewer blocks run
    /// `soft` (the subkey broadcast and a padded group cost about 4 `soft` blocks,
    /// estimated from instruction counts: `src/backends/neon.rs`).
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        blocks: 4,
        rustc: "1.89",
    }
}

/// Runs `f` with `backend`'s encryption under subkeys `k`. `cbc`'s CBC-encryption
/// request runs in `soft::cbc_encrypt`'s loop on every backend: a chain is one block at a
/// time, which is the `soft` code everywhere.
#[inline]
pub(crate) fn encrypt(
    backend: Backend,
    k: &[u16; LENGTH_SUB_KEYS],
    f: impl BlockCipherEncClosure<BlockSize = U8>,
) {
    let Err(f) = CbcEncrypt::intercept(f, |request| soft::cbc_encrypt(k, request)) else {
        return;
    };
    dispatch!(backend => encrypt(k, f), soft => f.call(&soft::Backend(k)))
}

/// Runs `f` with `backend`'s decryption under (decryption) subkeys `k`.
#[inline]
pub(crate) fn decrypt(
    backend: Backend,
    k: &[u16; LENGTH_SUB_KEYS],
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

    /// An [`Idea`](crate::Idea) that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn idea_with(name: &str, key: &[u8; 16]) -> crate::Idea {
        crate::Idea::with_backend(key, Backend::named(name))
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `idea`) through `testkit::harness::block`.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, idea_with};
    use cipher::KeyInit;
    use std::{vec, vec::Vec};

    if !testkit::available(name, available(name)) {
        return;
    }
    use testkit::harness::{decrypt_b2b as dec, encrypt_b2b as enc};
    // Keys with zero words (subkeys 0, i.e. 2^16) as well as random ones.
    let key = |rng: &mut testkit::Rng| {
        let mut k = rng.bytes(16);
        if rng.below(2) == 0 {
            for i in 0..8 {
                if rng.below(3) == 0 {
                    k[2 * i] = 0;
                    k[2 * i + 1] = 0;
                }
            }
        }
        k
    };
    let peer = |k: &[u8]| rc_idea::Idea::new_from_slice(k).unwrap();
    let ours = |b: &str, k: &[u8]| idea_with(b, k.try_into().unwrap());
    testkit::harness::block_vs_soft(name, 8, par, key, peer, ours);
    // Data words of 0 and 1 (the multiplication's special operands) in every lane.
    let c = idea_with(name, &[0; 16]);
    let s = idea_with("soft", &[0; 16]);
    let plain: Vec<u8> = (0..8 * 8 * par.max(1) + 24)
        .map(|i| if i % 5 < 3 { 0 } else { (i % 2) as u8 })
        .collect();
    let (mut x, mut y) = (vec![0; plain.len()], vec![0; plain.len()]);
    enc(&c, &plain, &mut x);
    enc(&s, &plain, &mut y);
    assert_eq!(x, y, "{name}: zero words");
    dec(&c, &x, &mut y);
    assert_eq!(y, plain, "{name}: zero words, decryption");
}
