//! Byte-sliced Camellia with GFNI on `zmm` registers (64 blocks per pass), for CPUs with
//! AVX-512 (F, BW, VL) and GFNI.
//!
//! The same byte-sliced code as `gfni_avx2` (`bytesliced.rs`) with the same S-box
//! matrices on 64-byte vectors; three-input XORs become one `vpternlogq`. Tails of fewer
//! than 64 blocks go to the `ymm` code of `gfni_avx2` (32-block passes, then a padded
//! pass, then a single `soft` block).
//!
//! Constant time for whole passes (GFNI instructions, no tables, no data-dependent
//! branches); single blocks use the table-based `soft` code (see the crate's
//! `# Security`).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::bytesliced::{self, LazyKeyBytes, Simd, one};
use super::gfni_avx2::{self, POST1, POST1_C, POST2, POST2_C, POST3, POST3_C, PRE_C, PRE4, PRE123};
use crate::backends::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U16, U64},
    inout::{InOut, InOutBuf},
};

/// Proof of AVX-512F/BW/VL and GFNI: made only by [`zmm`], a `#[target_feature]`
/// function.
#[derive(Clone, Copy)]
struct Zmm(());

/// A [`Zmm`]; callable (safely) only from code compiled for AVX-512F/BW/VL and GFNI.
#[inline]
#[target_feature(enable = "avx2,gfni,avx512f,avx512bw,avx512vl")]
fn zmm() -> Zmm {
    Zmm(())
}

impl Simd for Zmm {
    type V = __m512i;
    const W: usize = 64;

    #[inline(always)]
    fn store_block(self, dst: &mut Block, hi: u64, lo: u64) {
        // SAFETY: AVX2 (proven by `self`) implies SSE2.
        unsafe { gfni_avx2::store_block_sse2(dst, hi, lo) }
    }

    #[inline(always)]
    fn load(self, src: &[u8]) -> __m512i {
        assert!(src.len() >= 64);
        // SAFETY: 64 readable bytes; `loadu` takes any alignment; a `Zmm` exists only on
        // CPUs with AVX-512F/BW/VL and GFNI.
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8], v: __m512i) {
        assert!(dst.len() >= 64);
        // SAFETY: 64 writable bytes; `storeu` takes any alignment; AVX-512F as above.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn splat(self, rep: &u32) -> __m512i {
        // SAFETY: AVX-512F, as proven by `self`.
        unsafe { _mm512_set1_epi32(*rep as i32) }
    }

    #[inline(always)]
    fn xor(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F, as proven by `self`.
        unsafe { _mm512_xor_si512(a, b) }
    }

    #[inline(always)]
    fn xor3(self, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        // SAFETY: AVX-512F, as proven by `self`.
        unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
    }

    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F, as proven by `self`.
        unsafe { _mm512_and_si512(a, b) }
    }

    #[inline(always)]
    fn or(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F, as proven by `self`.
        unsafe { _mm512_or_si512(a, b) }
    }

    #[inline(always)]
    fn rotl1_pair(self, hi: __m512i, lo: __m512i) -> __m512i {
        // SAFETY: AVX-512F/BW, as proven by `self`.
        unsafe {
            // (hi + hi) | ((lo >> 7) & 1): truth table A | (B & C) = 0xF8.
            _mm512_ternarylogic_epi64::<0xF8>(
                _mm512_add_epi8(hi, hi),
                _mm512_srli_epi16::<7>(lo),
                _mm512_set1_epi8(1),
            )
        }
    }

    #[inline(always)]
    fn unpacklo8(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512BW, as proven by `self`.
        unsafe { _mm512_unpacklo_epi8(a, b) }
    }

    #[inline(always)]
    fn unpackhi8(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512BW, as proven by `self`.
        unsafe { _mm512_unpackhi_epi8(a, b) }
    }

    #[inline(always)]
    fn sboxes(self, x: [__m512i; 8]) -> [__m512i; 8] {
        // SAFETY: AVX-512F/BW and GFNI, as proven by `self`.
        unsafe {
            let m = |q: u64| _mm512_set1_epi64(q as i64);
            let (pre, pre4) = (m(PRE123), m(PRE4));
            let (p1, p2, p3) = (m(POST1), m(POST2), m(POST3));
            let a = |v| _mm512_gf2p8affine_epi64_epi8::<PRE_C>(v, pre);
            let s1 = |v| _mm512_gf2p8affineinv_epi64_epi8::<POST1_C>(a(v), p1);
            let s2 = |v| _mm512_gf2p8affineinv_epi64_epi8::<POST2_C>(a(v), p2);
            let s3 = |v| _mm512_gf2p8affineinv_epi64_epi8::<POST3_C>(a(v), p3);
            let s4 = |v| {
                _mm512_gf2p8affineinv_epi64_epi8::<POST1_C>(
                    _mm512_gf2p8affine_epi64_epi8::<PRE_C>(v, pre4),
                    p1,
                )
            };
            [
                s1(x[0]),
                s2(x[1]),
                s3(x[2]),
                s4(x[3]),
                s2(x[4]),
                s3(x[5]),
                s4(x[6]),
                s1(x[7]),
            ]
        }
    }
}

/// Any number of blocks: 64 per `zmm` pass, the rest through `gfni_avx2`.
#[inline]
#[target_feature(enable = "avx2,gfni,avx512f,avx512bw,avx512vl")]
fn run_blocks<const RK: usize>(
    k: &[u64; RK],
    kb: &LazyKeyBytes<'_, RK>,
    dec: bool,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let s = zmm();
    let n = buf.len();
    let mut at = 0;
    while n - at >= 64 {
        let y = bytesliced::pass(
            s,
            kb.get(),
            Array::slice_as_flattened(&buf.get_in()[at..at + 64]),
        );
        bytesliced::store(
            s,
            Array::slice_as_flattened_mut(&mut buf.get_out()[at..at + 64]),
            y,
        );
        at += 64;
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        gfni_avx2::run_blocks(k, kb, dec, rest);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512 and GFNI.
struct Backend<'a, const RK: usize> {
    /// The proof of the CPU features (for single blocks' stores).
    s: Zmm,
    k: &'a [u64; RK],
    kb: LazyKeyBytes<'a, RK>,
    dec: bool,
}

impl<const RK: usize> BlockSizeUser for Backend<'_, RK> {
    type BlockSize = U16;
}

/// 64 blocks: one pass is 16 `zmm` registers of state (one per byte position); with the
/// F-function's 8 temporaries and the 5 GFNI matrices that is 29 of the 32 `zmm`
/// registers, so a pass runs without spilling — the widest pass that fits. 64 blocks =
/// 1 KiB per pass.
impl<const RK: usize> ParBlocksSizeUser for Backend<'_, RK> {
    type ParBlocksSize = U64;
}

impl<const RK: usize> BlockCipherEncBackend for Backend<'_, RK> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.s, self.k, false, block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::GfniAvx512` (AVX2, AVX-512F/BW/VL and GFNI, OS `zmm` state).
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks) }
    }
}

impl<const RK: usize> BlockCipherDecBackend for Backend<'_, RK> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.s, self.k, true, block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks) }
    }
}

/// Runs `f` with the GFNI/AVX-512 encryption backend.
#[target_feature(enable = "avx2,gfni,avx512f,avx512bw,avx512vl")]
pub(crate) fn encrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: zmm(),
        k,
        kb: LazyKeyBytes::new(k, false),
        dec: false,
    })
}

/// Runs `f` with the GFNI/AVX-512 decryption backend.
#[target_feature(enable = "avx2,gfni,avx512f,avx512bw,avx512vl")]
pub(crate) fn decrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: zmm(),
        k,
        kb: LazyKeyBytes::new(k, true),
        dec: true,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn gfni_avx512_matches_soft() {
        crate::check_matches_soft("gfni_avx512", 64);
    }
}
