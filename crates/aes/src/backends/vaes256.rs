//! VAES on `ymm` registers (two blocks per register), for CPUs with AVX2 and VAES.
//!
//! Tails of fewer than 8 blocks go to the AES-NI paths of `aesni.rs`.
//!
//! Constant time: the AES instructions take the same time whatever the data and key.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{HwKeys, aesni};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::U16,
    inout::{InOut, InOutBuf},
};

/// Reads a round key for one round of all the blocks in flight. A volatile read: with
/// 8 blocks in flight the 15 keys of AES-256 cannot all stay in the 16 `ymm` registers,
/// and if the compiler hoists them it runs the blocks two at a time instead (measured:
/// up to 2x slower, depending on the buffer's address modulo 4 KiB). One load per round
/// per batch costs nothing.
#[inline(always)]
fn key(k: &__m256i) -> __m256i {
    // SAFETY: `k` is a reference: valid, aligned and initialised.
    unsafe { core::ptr::read_volatile(k) }
}

#[inline]
#[target_feature(enable = "aes,ssse3,avx2,vaes")]
fn enc_n<const N: usize, const R: usize>(k: &[__m256i; R], mut x: [__m256i; N]) -> [__m256i; N] {
    for b in x.iter_mut() {
        *b = _mm256_xor_si256(*b, k[0]);
    }
    for rk in &k[1..R - 1] {
        let rk = key(rk);
        for b in x.iter_mut() {
            *b = _mm256_aesenc_epi128(*b, rk);
        }
    }
    for b in x.iter_mut() {
        *b = _mm256_aesenclast_epi128(*b, k[R - 1]);
    }
    x
}

#[inline]
#[target_feature(enable = "aes,ssse3,avx2,vaes")]
fn dec_n<const N: usize, const R: usize>(k: &[__m256i; R], mut x: [__m256i; N]) -> [__m256i; N] {
    for b in x.iter_mut() {
        *b = _mm256_xor_si256(*b, k[0]);
    }
    for rk in &k[1..R - 1] {
        let rk = key(rk);
        for b in x.iter_mut() {
            *b = _mm256_aesdec_epi128(*b, rk);
        }
    }
    for b in x.iter_mut() {
        *b = _mm256_aesdeclast_epi128(*b, k[R - 1]);
    }
    x
}

/// Loads, transforms and stores `2·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "aes,ssse3,avx2,vaes")]
fn run_n<const N: usize, const R: usize>(
    k: &[__m256i; R],
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
    enc: bool,
) {
    let x: [__m256i; N] = {
        let inp = &buf.get_in()[at..at + 2 * N];
        let p = inp.as_ptr().cast::<u8>();
        // SAFETY: `inp` holds 2·N blocks = 32·N readable bytes; `loadu` is unaligned.
        core::array::from_fn(|j| unsafe { _mm256_loadu_si256(p.add(32 * j).cast()) })
    };
    let y = if enc { enc_n(k, x) } else { dec_n(k, x) };
    let out = &mut buf.get_out()[at..at + 2 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for (j, v) in y.into_iter().enumerate() {
        // SAFETY: `out` holds 32·N writable bytes; `storeu` is unaligned.
        unsafe { _mm256_storeu_si256(p.add(32 * j).cast(), v) };
    }
}

/// Any number of blocks: 16 at a time, then 8, then the AES-NI path for the last 0–7.
#[inline]
#[target_feature(enable = "aes,ssse3,avx2,vaes")]
pub(crate) fn run_blocks<const R: usize>(
    k: &aesni::Rk<R>,
    mut buf: InOutBuf<'_, '_, Block>,
    enc: bool,
) {
    let n = buf.len();
    let mut at = 0;
    if n >= 8 {
        // The round keys in both lanes of `ymm` registers, made for each call that
        // needs them: 11–15 broadcast loads per 8 or more blocks cost nothing measurable
        // at 8 KiB. A call of fewer than 8 blocks runs on AES-NI and never pays for them;
        // caching them in a `OnceCell` cost a 128-byte call 95 of its 158 cycles on
        // Zen 3 (its initialisation is out of line, `#[cold]`; issue 18).
        let y: [__m256i; R] =
            core::array::from_fn(|i| _mm256_broadcastsi128_si256(aesni::key(k, i)));
        let y = &y;
        while n - at >= 16 {
            run_n::<8, R>(y, &mut buf, at, enc);
            at += 16;
        }
        if n - at >= 8 {
            run_n::<4, R>(y, &mut buf, at, enc);
            at += 8;
        }
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        aesni::run_blocks(k, rest, enc);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2 and VAES.
struct Backend<'k, const R: usize> {
    k: &'k aesni::Rk<R>,
}

impl<const R: usize> BlockSizeUser for Backend<'_, R> {
    type BlockSize = U16;
}

/// 16 blocks = 8 `ymm` registers: `vaesenc ymm` has a latency of 3–4 cycles at 1–2 per
/// cycle, so 6–8 independent registers keep the units busy; of the 16 `ymm` registers
/// an AVX2-only CPU has, 8 hold state and 8 hold round keys and loads (the remaining
/// round keys are memory operands). More would spill on those CPUs.
impl<const R: usize> ParBlocksSizeUser for Backend<'_, R> {
    type ParBlocksSize = U16;
}

impl<const R: usize> BlockCipherEncBackend for Backend<'_, R> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Vaes256` (AES-NI, SSSE3, AVX2 and VAES with OS support for `ymm`).
        unsafe { aesni::run_one(self.k, block, true) }
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks, true) }
    }
}

impl<const R: usize> BlockCipherDecBackend for Backend<'_, R> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { aesni::run_one(self.k, block, false) }
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks, false) }
    }
}

/// Runs `f` with the VAES-256 encryption backend.
#[target_feature(enable = "aes,ssse3,avx2,vaes")]
pub(crate) fn encrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend { k: &keys.enc })
}

/// Runs `f` with the VAES-256 decryption backend.
#[target_feature(enable = "aes,ssse3,avx2,vaes")]
pub(crate) fn decrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend { k: &keys.dec })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key size: tail lengths
    /// around 16 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn vaes256_matches_soft() {
        crate::backends::check_matches_soft("vaes256", 16);
    }

    /// `cbc`'s CBC-encryption request, which this backend runs in `aesni::cbc_encrypt`.
    #[test]
    fn vaes256_cbc_chain_matches_soft() {
        crate::backends::check_cbc_matches_soft("vaes256", 16);
    }
}
