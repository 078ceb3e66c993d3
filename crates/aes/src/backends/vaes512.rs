//! VAES on `zmm` registers (four blocks per register), for CPUs with AVX-512F and VAES.
//!
//! Tails of fewer than 32 blocks go to the `ymm` paths of `vaes256.rs` (16 and 8 blocks),
//! and from there to the AES-NI paths of `aesni.rs` (fewer than 8).
//!
//! Constant time: the AES instructions take the same time whatever the data and key.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use core::cell::OnceCell;

use super::vaes256;
use super::{HwKeys, aesni};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U16, U32},
    inout::{InOut, InOutBuf},
};

/// The narrower round keys, and the same broadcast to the four lanes of a `zmm` register
/// on first use: a call of fewer than 16 blocks never pays for the broadcast (issue 18).
struct Rk<'k, const R: usize> {
    z: OnceCell<[__m512i; R]>,
    x: &'k aesni::Rk<R>,
}

impl<const R: usize> Rk<'_, R> {
    /// The round keys in all four lanes of `zmm` registers.
    #[inline]
    #[target_feature(enable = "aes,ssse3,avx512f,vaes")]
    fn z(&self) -> &[__m512i; R] {
        self.z
            .get_or_init(|| core::array::from_fn(|i| _mm512_broadcast_i32x4(aesni::key(self.x, i))))
    }
}

#[inline]
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
fn load_keys<const R: usize>(k: &aesni::Rk<R>) -> Rk<'_, R> {
    Rk {
        z: OnceCell::new(),
        x: k,
    }
}

#[inline]
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
fn enc_n<const N: usize, const R: usize>(k: &[__m512i; R], mut x: [__m512i; N]) -> [__m512i; N] {
    for b in x.iter_mut() {
        *b = _mm512_xor_si512(*b, k[0]);
    }
    for rk in &k[1..R - 1] {
        for b in x.iter_mut() {
            *b = _mm512_aesenc_epi128(*b, *rk);
        }
    }
    for b in x.iter_mut() {
        *b = _mm512_aesenclast_epi128(*b, k[R - 1]);
    }
    x
}

#[inline]
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
fn dec_n<const N: usize, const R: usize>(k: &[__m512i; R], mut x: [__m512i; N]) -> [__m512i; N] {
    for b in x.iter_mut() {
        *b = _mm512_xor_si512(*b, k[0]);
    }
    for rk in &k[1..R - 1] {
        for b in x.iter_mut() {
            *b = _mm512_aesdec_epi128(*b, *rk);
        }
    }
    for b in x.iter_mut() {
        *b = _mm512_aesdeclast_epi128(*b, k[R - 1]);
    }
    x
}

/// Loads, transforms and stores `4·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
fn run_n<const N: usize, const R: usize>(
    k: &[__m512i; R],
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
    enc: bool,
) {
    let x: [__m512i; N] = {
        let inp = &buf.get_in()[at..at + 4 * N];
        let p = inp.as_ptr().cast::<u8>();
        // SAFETY: `inp` holds 4·N blocks = 64·N readable bytes; `loadu` is unaligned.
        core::array::from_fn(|j| unsafe { _mm512_loadu_si512(p.add(64 * j).cast()) })
    };
    let y = if enc { enc_n(k, x) } else { dec_n(k, x) };
    let out = &mut buf.get_out()[at..at + 4 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for (j, v) in y.into_iter().enumerate() {
        // SAFETY: `out` holds 64·N writable bytes; `storeu` is unaligned.
        unsafe { _mm512_storeu_si512(p.add(64 * j).cast(), v) };
    }
}

/// Any number of blocks: 32 at a time, then 16, then the `ymm`/`xmm` paths.
#[inline]
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
fn run_blocks<const R: usize>(k: &Rk<'_, R>, mut buf: InOutBuf<'_, '_, Block>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    if n >= 16 {
        let z = k.z();
        while n - at >= 32 {
            run_n::<8, R>(z, &mut buf, at, enc);
            at += 32;
        }
        if n - at >= 16 {
            run_n::<4, R>(z, &mut buf, at, enc);
            at += 16;
        }
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        vaes256::run_blocks(k.x, rest, enc);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512F and VAES.
struct Backend<'k, const R: usize> {
    k: Rk<'k, R>,
}

impl<const R: usize> BlockSizeUser for Backend<'_, R> {
    type BlockSize = U16;
}

/// 32 blocks = 8 `zmm` registers: `vaesenc zmm` has a latency of 3–5 cycles at one per
/// cycle, so 4–5 independent registers already saturate it and 8 leave slack for the
/// loads and stores. With AVX-512 there are 32 `zmm` registers: 8 for state plus all 15
/// round keys of AES-256 (kept in registers across the loop) is 23, leaving room for
/// temporaries. 64 blocks (16 registers) would not be faster and would send more of a
/// short message to the narrow tail paths.
impl<const R: usize> ParBlocksSizeUser for Backend<'_, R> {
    type ParBlocksSize = U32;
}

impl<const R: usize> BlockCipherEncBackend for Backend<'_, R> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Vaes512` (AES-NI, SSSE3, AVX-512F and VAES with OS support for `zmm`).
        unsafe { aesni::run_one(self.k.x, block, true) }
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(&self.k, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(&self.k, blocks, true) }
    }
}

impl<const R: usize> BlockCipherDecBackend for Backend<'_, R> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { aesni::run_one(self.k.x, block, false) }
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(&self.k, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(&self.k, blocks, false) }
    }
}

/// Runs `f` with the VAES-512 encryption backend.
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
pub(crate) fn encrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        k: load_keys(&keys.enc),
    })
}

/// Runs `f` with the VAES-512 decryption backend.
#[target_feature(enable = "aes,ssse3,avx512f,vaes")]
pub(crate) fn decrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        k: load_keys(&keys.dec),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key size: tail lengths
    /// around 32 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn vaes512_matches_soft() {
        crate::backends::check_matches_soft("vaes512", 32);
    }

    /// `cbc`'s CBC-encryption request, which this backend runs in `aesni::cbc_encrypt`.
    #[test]
    fn vaes512_cbc_chain_matches_soft() {
        crate::backends::check_cbc_matches_soft("vaes512", 32);
    }
}
