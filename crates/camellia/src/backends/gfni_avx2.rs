//! Byte-sliced Camellia with GFNI on `ymm` registers (32 blocks per pass), for CPUs with
//! AVX2 and GFNI (also those without AVX-512, e.g. Alder Lake, Zen 3 has no GFNI but
//! Zen 4 / Tremont-class cores do).
//!
//! Each S-box is two instructions on a whole byte slice (32 bytes of 32 blocks):
//! Camellia's `s1(x) = h(g(f(x ⊕ c)))` is an affine map, an inversion in GF(2⁸) and
//! another affine map; the inversion in Camellia's field representation is the AES
//! field's inversion conjugated by a linear isomorphism, which folds into the two affine
//! maps. So `s1(x) = POST1 · inv(PRE · x ⊕ 0x45) ⊕ 0x6e` with `inv` over the AES
//! polynomial — exactly `vgf2p8affineqb` followed by `vgf2p8affineinvqb`. `s2`/`s3` are
//! `s1` rotated (rotation folded into the post matrix), `s4(x) = s1(x <<< 1)` (rotation
//! folded into the pre matrix). The pre matrix is the θ₁ pre-filter of Kivilinna's thesis
//! (University of Oulu, 2013); the post matrices and constants here were derived from it
//! and the RFC 3713 tables, and `matrices_give_the_sboxes` checks all four S-boxes on
//! all 256 inputs.
//!
//! Blocks that do not fill a pass: 2–31 go through one zero-padded pass (cheaper than
//! table look-ups from two blocks on), a single block through the `soft` code.
//!
//! Constant time for whole passes (GFNI instructions, no tables, no data-dependent
//! branches); the single blocks of CBC encryption and of tails use the table-based
//! `soft` code (see the crate's `# Security`).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::bytesliced::{self, LazyKeyBytes, Simd, one};
use crate::backends::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U16, U32},
    inout::{InOut, InOutBuf},
};

/// `vgf2p8affineqb` matrix (row of output bit `i` in byte `7 − i`) before the inversion,
/// for `s1`, `s2`, `s3`.
pub(crate) const PRE123: u64 = 0xb74c_0bcd_3025_3461;
/// The same for `s4`: `PRE123` after a rotation left by one.
pub(crate) const PRE4: u64 = 0xdb26_85e6_1892_1ab0;
/// The constant added by the pre map.
pub(crate) const PRE_C: i32 = 0x45;
/// `vgf2p8affineinvqb` matrix after the inversion for `s1` and `s4`, and its constant.
pub(crate) const POST1: u64 = 0x8066_7dd8_717a_fe38;
pub(crate) const POST1_C: i32 = 0x6e;
/// … for `s2` (`POST1` then rotate left by one), and its constant.
pub(crate) const POST2: u64 = 0x3880_667d_d871_7afe;
pub(crate) const POST2_C: i32 = 0xdc;
/// … for `s3` (`POST1` then rotate left by seven), and its constant.
pub(crate) const POST3: u64 = 0x667d_d871_7afe_3880;
pub(crate) const POST3_C: i32 = 0x37;

/// Proof of AVX2 and GFNI: made only by [`ymm`], a `#[target_feature]` function.
#[derive(Clone, Copy)]
pub(crate) struct Ymm(());

/// `Simd::store_block` of the x86 backends: one `movdqu` of the byte-swapped halves.
///
/// # Safety
/// The CPU must have SSE2 (each caller's backend requires AVX2).
#[inline(always)]
pub(crate) unsafe fn store_block_sse2(dst: &mut Block, hi: u64, lo: u64) {
    // SAFETY: `dst` is 16 writable bytes and `storeu` takes any alignment; SSE2 by the
    // contract.
    unsafe {
        let v = _mm_set_epi64x(lo.swap_bytes() as i64, hi.swap_bytes() as i64);
        _mm_storeu_si128(dst.as_mut_ptr().cast(), v)
    }
}

/// A [`Ymm`]; callable (safely) only from code compiled for AVX2 and GFNI.
#[inline]
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn ymm() -> Ymm {
    Ymm(())
}

impl Simd for Ymm {
    type V = __m256i;
    const W: usize = 32;

    #[inline(always)]
    fn store_block(self, dst: &mut Block, hi: u64, lo: u64) {
        // SAFETY: AVX2 (proven by `self`) implies SSE2.
        unsafe { store_block_sse2(dst, hi, lo) }
    }

    #[inline(always)]
    fn load(self, src: &[u8]) -> __m256i {
        assert!(src.len() >= 32);
        // SAFETY: 32 readable bytes; `loadu` takes any alignment; a `Ymm` exists only on
        // CPUs with AVX2 and GFNI.
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8], v: __m256i) {
        assert!(dst.len() >= 32);
        // SAFETY: 32 writable bytes; `storeu` takes any alignment; AVX2 as above.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn splat(self, rep: &u32) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe { _mm256_set1_epi32(*rep as i32) }
    }

    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe { _mm256_xor_si256(a, b) }
    }

    #[inline(always)]
    fn xor3(self, a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        self.xor(self.xor(a, b), c)
    }

    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe { _mm256_or_si256(a, b) }
    }

    #[inline(always)]
    fn rotl1_pair(self, hi: __m256i, lo: __m256i) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe {
            let h = _mm256_add_epi8(hi, hi);
            let l = _mm256_and_si256(_mm256_srli_epi16::<7>(lo), _mm256_set1_epi8(1));
            _mm256_or_si256(h, l)
        }
    }

    #[inline(always)]
    fn unpacklo8(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe { _mm256_unpacklo_epi8(a, b) }
    }

    #[inline(always)]
    fn unpackhi8(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe { _mm256_unpackhi_epi8(a, b) }
    }

    #[inline(always)]
    fn sboxes(self, x: [__m256i; 8]) -> [__m256i; 8] {
        // SAFETY: AVX2 and GFNI, as proven by `self`.
        unsafe {
            let m = |q: u64| _mm256_set1_epi64x(q as i64);
            let (pre, pre4) = (m(PRE123), m(PRE4));
            let (p1, p2, p3) = (m(POST1), m(POST2), m(POST3));
            let a = |v| _mm256_gf2p8affine_epi64_epi8::<PRE_C>(v, pre);
            let s1 = |v| _mm256_gf2p8affineinv_epi64_epi8::<POST1_C>(a(v), p1);
            let s2 = |v| _mm256_gf2p8affineinv_epi64_epi8::<POST2_C>(a(v), p2);
            let s3 = |v| _mm256_gf2p8affineinv_epi64_epi8::<POST3_C>(a(v), p3);
            let s4 = |v| {
                _mm256_gf2p8affineinv_epi64_epi8::<POST1_C>(
                    _mm256_gf2p8affine_epi64_epi8::<PRE_C>(v, pre4),
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

/// Any number of blocks, 32 per pass; see the module docs for the rest.
#[inline]
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn run_blocks<const RK: usize>(
    k: &[u64; RK],
    kb: &LazyKeyBytes<'_, RK>,
    dec: bool,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let s = ymm();
    let n = buf.len();
    let mut at = 0;
    while n - at >= 32 {
        let y = bytesliced::pass(
            s,
            kb.get(),
            Array::slice_as_flattened(&buf.get_in()[at..at + 32]),
        );
        bytesliced::store(
            s,
            Array::slice_as_flattened_mut(&mut buf.get_out()[at..at + 32]),
            y,
        );
        at += 32;
    }
    let rest = n - at;
    // Fewer blocks than the table's `blocks` run one by one on `soft`: a padded pass
    // costs as much as 32 blocks (issue 18).
    if rest >= super::min_pass::<RK>(super::token::GfniAvx2::MIN_BLOCKS) {
        let mut tmp = [0u8; 16 * 32];
        tmp[..16 * rest].copy_from_slice(Array::slice_as_flattened(&buf.get_in()[at..]));
        let y = bytesliced::pass(s, kb.get(), &tmp);
        bytesliced::store(s, &mut tmp, y);
        Array::slice_as_flattened_mut(&mut buf.get_out()[at..]).copy_from_slice(&tmp[..16 * rest]);
    } else {
        bytesliced::short_rest(s, k, dec, buf.split_at(at).1);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2 and GFNI.
struct Backend<'a, const RK: usize> {
    /// The proof of the CPU features (for single blocks' stores).
    s: Ymm,
    k: &'a [u64; RK],
    kb: LazyKeyBytes<'a, RK>,
    dec: bool,
}

impl<const RK: usize> BlockSizeUser for Backend<'_, RK> {
    type BlockSize = U16;
}

/// 32 blocks: one pass is 16 `ymm` registers of state (one per byte position) — all 16
/// architectural `ymm` registers, so the F-function's 8 temporaries and the 5 GFNI
/// matrices already spill; a wider pass would only spill more. 32 blocks = 512 bytes
/// per pass, so `ctr`/`cbc` hand over whole passes.
impl<const RK: usize> ParBlocksSizeUser for Backend<'_, RK> {
    type ParBlocksSize = U32;
}

impl<const RK: usize> BlockCipherEncBackend for Backend<'_, RK> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.s, self.k, false, block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::GfniAvx2` (AVX2 and GFNI with OS support for `ymm`).
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

/// Runs `f` with the GFNI/AVX2 encryption backend.
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn encrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: ymm(),
        k,
        kb: LazyKeyBytes::new(k, false),
        dec: false,
    })
}

/// Runs `f` with the GFNI/AVX2 decryption backend.
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn decrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: ymm(),
        k,
        kb: LazyKeyBytes::new(k, true),
        dec: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::soft;

    /// `vgf2p8affineqb` on one byte: output bit `i` is the parity of `x` AND byte
    /// `7 − i` of `a`, plus bit `i` of `c`.
    fn affine(x: u8, a: u64, c: i32) -> u8 {
        let mut y = 0u8;
        for i in 0..8 {
            let row = (a >> (8 * (7 - i))) as u8;
            y |= (((row & x).count_ones() & 1) as u8) << i;
        }
        y ^ c as u8
    }

    /// Inversion in GF(2⁸) mod x⁸ + x⁴ + x³ + x + 1 (0 ↦ 0), as `vgf2p8affineinvqb`.
    fn inv(x: u8) -> u8 {
        let mul = |mut a: u8, mut b: u8| {
            let mut p = 0u8;
            while b != 0 {
                if b & 1 != 0 {
                    p ^= a;
                }
                a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
                b >>= 1;
            }
            p
        };
        (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0)
    }

    #[test]
    fn matrices_give_the_sboxes() {
        for x in 0..=255u8 {
            let s = |pre, post, c| affine(inv(affine(x, pre, PRE_C)), post, c);
            assert_eq!(s(PRE123, POST1, POST1_C), soft::sbox(0, x), "s1({x:#04x})");
            assert_eq!(s(PRE123, POST2, POST2_C), soft::sbox(1, x), "s2({x:#04x})");
            assert_eq!(s(PRE123, POST3, POST3_C), soft::sbox(2, x), "s3({x:#04x})");
            assert_eq!(s(PRE4, POST1, POST1_C), soft::sbox(3, x), "s4({x:#04x})");
        }
    }

    #[test]
    fn gfni_avx2_matches_soft() {
        crate::check_matches_soft("gfni_avx2", 32);
    }
}
