//! Backend selection: the only place that decides which Serpent implementation runs.
//!
//! The backends are the rows of the `backends!` table below, most preferred first:
//! `detect()` returns the backend forced by `--cfg serpent_backend="…"`, else the first
//! one this CPU supports: `avx512` > `avx2` > `soft` on x86, `neon` > `soft` on aarch64.
//! Every backend uses the same round keys (33 × 4 words), so a cipher stores them once
//! beside its [`Backend`]; a bulk call dispatches once.

// `soft` first: it defines `serpent_core!`, which the SIMD backends expand.
use cipher::{Block, BlockCipherDecClosure, BlockCipherEncClosure, InOut, consts::U16};

/// The 33 round keys of Serpent, four words each (bitsliced, as the rounds use them).
pub(crate) type RoundKeys = [[u32; 4]; 33];

/// The prekey recurrence of Serpent's key schedule (`w[i] = (w[i-8] ^ w[i-5] ^ w[i-3] ^
/// w[i-1] ^ φ ^ i) <<< 11`) run on the zero key: `ZERO_PREKEY[i]`, for `i` from 8.
///
/// The recurrence is linear, so a key's prekey words are `v[i] ^ ZERO_PREKEY[i]`, where
/// `v` runs the same recurrence without `φ ^ i`. [`round_keys`] does that: with the
/// constant in the loop, LLVM XORs it in after `w[i-1]` (it puts constants last), a third
/// instruction on a chain of 132 dependent steps. Without it, key setup plus one block
/// went from 0.99–1.03× RustCrypto's `serpent` 0.6.0 to 1.03–1.05× on the Intel Xeon
/// (about 765 to 725 TSC cycles; `cargo run --release -p speed --bin small 16 serpent`,
/// five rounds).
const ZERO_PREKEY: [u32; 140] = {
    let mut w = [0u32; 140];
    let mut i = 8;
    while i < 140 {
        w[i] = (w[i - 8] ^ w[i - 5] ^ w[i - 3] ^ w[i - 1] ^ 0x9e37_79b9 ^ (i - 8) as u32)
            .rotate_left(11);
        i += 1;
    }
    w
};

/// Serpent's key schedule for a key of 16..=32 bytes (checked by the caller).
pub(crate) fn round_keys(key: &[u8]) -> RoundKeys {
    // Keys shorter than 256 bits are padded with a single one bit, then zeros.
    let mut k = [0u8; 32];
    k[..key.len()].copy_from_slice(key);
    if key.len() < 32 {
        k[key.len()] = 1;
    }
    let mut w = [0u32; 140];
    for (dst, src) in w[..8].iter_mut().zip(k.chunks_exact(4)) {
        *dst = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
    }
    // Two cycles per step: one XOR and the rotation wait for `w[s - 1]`.
    for s in 8..140 {
        w[s] = (w[s - 8] ^ w[s - 5] ^ w[s - 3] ^ w[s - 1]).rotate_left(11);
    }
    let mut rk = [[0u32; 4]; 33];
    for (i, r) in rk.iter_mut().enumerate() {
        let x: [u32; 4] = core::array::from_fn(|j| w[8 + 4 * i + j] ^ ZERO_PREKEY[8 + 4 * i + j]);
        *r = soft::apply_s(35 - i, x);
    }
    #[cfg(feature = "zeroize")]
    {
        use cipher::zeroize::Zeroize;
        k.zeroize();
        w.zeroize();
    }
    rk
}

simdcrypt_dispatch::backends! {
    crate: "serpent", cfg: serpent_backend;
    /// Portable bitsliced Rust, one block at a time, every target.
    "soft" => Soft;
    /// Word-sliced on `zmm` with `vpternlogd` S-boxes, 32 blocks in flight.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86", "x86_64"],
        needs: ["avx512f", "avx512vl", "avx2"],
        blocks: 4,
        rustc: "1.89",
    }
    /// Word-sliced on `ymm`, 16 blocks in flight.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2"],
        blocks: 2,
        rustc: "1.89",
    }
    /// Word-sliced on NEON `q` registers, 16 blocks in flight. `blocks: 3`: one or two
    /// blocks run `soft` (a padded 4-block pass is latency-bound, estimated at ≈ 2.3
    /// `soft` blocks from instruction counts and latencies: `src/backends/neon.rs`).
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        blocks: 3,
        rustc: "1.89",
    }
}

/// Runs `f` with `backend`'s encryption.
#[inline]
pub(crate) fn encrypt(
    backend: Backend,
    k: &RoundKeys,
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    dispatch!(backend => encrypt(k, f), soft => f.call(&soft::Backend(k)))
}

/// Runs `f` with `backend`'s decryption.
#[inline]
pub(crate) fn decrypt(
    backend: Backend,
    k: &RoundKeys,
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    dispatch!(backend => decrypt(k, f), soft => f.call(&soft::Backend(k)))
}

/// Encrypts one block with `backend`'s one-block code.
#[inline]
pub(crate) fn encrypt_block(
    backend: Backend,
    k: &RoundKeys,
    block: InOut<'_, '_, Block<crate::Serpent>>,
) {
    match backend {
        #[cfg(all(
            any(target_arch = "x86", target_arch = "x86_64"),
            simdcrypt_rustc = "1.89"
        ))]
        // SAFETY: the token proves the CPU has the target features of `avx512::encrypt_block`.
        Backend::Avx512(_) => unsafe { avx512::encrypt_block(k, block) },
        _ => soft::encrypt_block(k, block),
    }
}

/// Decrypts one block with `backend`'s one-block code.
#[inline]
pub(crate) fn decrypt_block(
    backend: Backend,
    k: &RoundKeys,
    block: InOut<'_, '_, Block<crate::Serpent>>,
) {
    match backend {
        #[cfg(all(
            any(target_arch = "x86", target_arch = "x86_64"),
            simdcrypt_rustc = "1.89"
        ))]
        // SAFETY: the token proves the CPU has the target features of `avx512::decrypt_block`.
        Backend::Avx512(_) => unsafe { avx512::decrypt_block(k, block) },
        _ => soft::decrypt_block(k, block),
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// A [`Serpent`](crate::Serpent) for `key` (16..=32 bytes) that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or the key length is wrong.
    pub fn serpent_with(name: &str, key: &[u8]) -> crate::Serpent {
        crate::Serpent::with_backend(key, Backend::named(name)).expect("key of 16..=32 bytes")
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `serpent`) through `testkit::harness::block`, keys of every
/// accepted length (16..=32 bytes).
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, serpent_with};
    use cipher::KeyInit;

    if !testkit::available(name, available(name)) {
        return;
    }
    let key = |rng: &mut testkit::Rng| rng.bytes_in(16, 32);
    let peer = |k: &[u8]| rc_serpent::Serpent::new_from_slice(k).unwrap();
    testkit::harness::block_vs_soft(name, 16, par, key, peer, serpent_with);
}
