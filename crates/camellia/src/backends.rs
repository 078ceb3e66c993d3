//! Backend selection: the only place that decides which Camellia implementation runs.
//!
//! The backends are the rows of the `backends!` table below, most preferred first:
//! `detect()` returns the backend forced by `--cfg camellia_backend="…"`, else the first
//! one this CPU supports: `gfni_avx512` > `gfni_avx2` > `aesni_avx2` > `soft` on x86,
//! `neon_aes` > `soft` on aarch64. Every
//! backend reads the same subkeys (`[u64; RK]`, RFC 3713 order), so the cipher stores them
//! once next to the chosen [`Backend`]; a bulk call dispatches once.
//!
//! `gfni_avx2` needs GFNI and AVX2 only (no AVX-512): an AVX2-only CPU with GFNI (e.g.
//! Alder Lake) runs it: `simdcrypt-dispatch` reads `gfni` from its CPUID bit alone (leaf
//! 7, ECX bit 8) and the OS `ymm` state from `avx2` (`cpufeatures` 0.3 tied `gfni` to
//! AVX-512 OS state).

#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
    simdcrypt_rustc = "1.89"
))]
#[clippy::msrv = "1.89"]
mod bytesliced;

use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocksSizeUser,
    array::Array,
    consts::{U1, U16},
    inout::InOut,
};
use simdcrypt_dispatch::modes::CbcEncrypt;

/// A Camellia block.
pub(crate) type Block = Array<u8, U16>;

simdcrypt_dispatch::backends! {
    crate: "camellia", cfg: camellia_backend;
    /// Portable table-based Rust, every target.
    "soft" => Soft;
    /// Byte-sliced GFNI on `zmm`, 64 blocks per pass.
    "gfni_avx512" => GfniAvx512 {
        mod: gfni_avx512,
        arch: ["x86", "x86_64"],
        needs: ["avx2", "gfni", "avx512f", "avx512bw", "avx512vl"],
        rustc: "1.89",
    }
    /// Byte-sliced GFNI on `ymm`, 32 blocks per pass.
    "gfni_avx2" => GfniAvx2 {
        mod: gfni_avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2", "gfni"],
        blocks: 4,
        rustc: "1.89",
    }
    /// Byte-sliced AES-NI + `vpshufb` on `ymm`, 32 blocks per pass.
    "aesni_avx2" => AesniAvx2 {
        mod: aesni_avx2,
        arch: ["x86", "x86_64"],
        needs: ["aes", "avx2"],
        blocks: 6,
        rustc: "1.89",
    }
    /// Byte-sliced NEON + `AESE` + `TBL`, 16 blocks per pass.
    // `blocks: 10`: an estimate, not a measurement (no aarch64 host here): a padded pass
    // ≈ 1475 cycles against `soft`'s 135–180 per block on Neoverse N1 (crate docs).
    "neon_aes" => NeonAes {
        mod: neon_aes,
        arch: ["aarch64"],
        needs: ["neon", "aes"],
        blocks: 10,
        rustc: "1.89",
    }
}

/// The fewest blocks worth a padded byte-sliced pass of a row whose table `blocks` is
/// `row`, for `RK` subkeys: `row` for 128-bit keys (26 subkeys); two more for 192- and
/// 256-bit keys (34), whose passes run 24 rounds instead of 18 and lay out a third more
/// key bytes per call. Camellia-256 on Zen 4, TSC cycles per byte, `soft` against a
/// `gfni_avx512` pass (one interleaved run of `cargo run --release -p speed --bin auto
/// SIZE camellia` per size): 4 blocks 17.6 / 21.0, 5 blocks 17.5 / 17.3, 6 blocks
/// 17.6 / 14.2 (Camellia-128 at 4 blocks: 12.9 / 10.2). Those `soft` figures predate
/// its 32-bit F-function, which made one block 1.09–1.10× faster on the same machine
/// (217.8 against 237.0 TSC cycles for Camellia-128, 282.3 against 309.5 for
/// Camellia-256, alternating in one process): about 16 and 11.8 c/B, which leaves both
/// crossovers where they are. `auto` was too noisy under load to re-measure them.
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
        simdcrypt_rustc = "1.89"
    )),
    allow(dead_code)
)]
pub(crate) const fn min_pass<const RK: usize>(row: usize) -> usize {
    if RK > 26 { row + 2 } else { row }
}

impl Backend {
    /// Calls with fewer blocks than this run the `soft` one-block code on this backend
    /// (`usize::MAX` for `soft` itself), so the cipher can run them without entering
    /// the backend.
    #[inline]
    pub(crate) fn short<const RK: usize>(self) -> usize {
        match self {
            Backend::Soft => usize::MAX,
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::AesniAvx2(_) => min_pass::<RK>(token::AesniAvx2::MIN_BLOCKS),
            // `gfni_avx512` hands everything under 64 blocks to `gfni_avx2`'s code.
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::GfniAvx2(_) | Backend::GfniAvx512(_) => {
                min_pass::<RK>(token::GfniAvx2::MIN_BLOCKS)
            }
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Backend::NeonAes(_) => min_pass::<RK>(token::NeonAes::MIN_BLOCKS),
        }
    }

    /// Runs `f` with this backend's encryption under the subkeys `k`. `cbc`'s
    /// CBC-encryption request runs in `soft::cbc_encrypt`'s loop on every backend: a
    /// chain is one block at a time, which is the `soft` code everywhere.
    #[inline]
    pub(crate) fn encrypt<const RK: usize>(
        self,
        k: &[u64; RK],
        f: impl BlockCipherEncClosure<BlockSize = U16>,
    ) {
        let Err(f) = CbcEncrypt::intercept(f, |request| soft::cbc_encrypt(k, request)) else {
            return;
        };
        dispatch!(self => encrypt(k, f), soft => f.call(&Soft(k)))
    }

    /// Runs `f` with this backend's decryption under the subkeys `k`.
    #[inline]
    pub(crate) fn decrypt<const RK: usize>(
        self,
        k: &[u64; RK],
        f: impl BlockCipherDecClosure<BlockSize = U16>,
    ) {
        dispatch!(self => decrypt(k, f), soft => f.call(&Soft(k)))
    }
}

/// The `soft` backend handed to `cipher`'s closures: one block at a time (the table code
/// has its parallelism inside the F-function's eight independent look-ups).
struct Soft<'a, const RK: usize>(&'a [u64; RK]);

impl<const RK: usize> BlockSizeUser for Soft<'_, RK> {
    type BlockSize = U16;
}

impl<const RK: usize> ParBlocksSizeUser for Soft<'_, RK> {
    type ParBlocksSize = U1;
}

impl<const RK: usize> BlockCipherEncBackend for Soft<'_, RK> {
    #[inline(always)]
    fn encrypt_block(&self, mut block: InOut<'_, '_, Block>) {
        let r = soft::encrypt(self.0, block.get_in());
        block.get_out().copy_from_slice(&r);
    }
}

impl<const RK: usize> BlockCipherDecBackend for Soft<'_, RK> {
    #[inline(always)]
    fn decrypt_block(&self, mut block: InOut<'_, '_, Block>) {
        let r = soft::decrypt(self.0, block.get_in());
        block.get_out().copy_from_slice(&r);
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;
    use crate::{Camellia128, Camellia192, Camellia256};

    fn backend(name: &str) -> Backend {
        Backend::named(name)
    }

    /// A [`Camellia128`] that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn camellia128_with(name: &str, key: &[u8; 16]) -> Camellia128 {
        Camellia128::from_parts(super::soft::expand128(key), backend(name))
    }

    /// A [`Camellia192`] that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn camellia192_with(name: &str, key: &[u8; 24]) -> Camellia192 {
        Camellia192::from_parts(super::soft::expand256(key), backend(name))
    }

    /// A [`Camellia256`] that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn camellia256_with(name: &str, key: &[u8; 32]) -> Camellia256 {
        Camellia256::from_parts(super::soft::expand256(key), backend(name))
    }
}
