//! Byte-sliced Camellia with AES-NI and AVX2 (32 blocks per pass), for x86 CPUs without
//! GFNI (Haswell to Comet Lake, Zen 1–3).
//!
//! J. Kivilinna's design ("Block Ciphers: Fast Implementations on x86-64 Architecture",
//! University of Oulu, 2013; the Linux `camellia-aesni-avx2` code): Camellia's S-boxes
//! and AES's are both affine maps around inversion in GF(2⁸), so
//! `s(x) = Q · SubBytes(PRE · x ⊕ 0x45) ⊕ c`. `vaesenclast` with a zero round key computes
//! SubBytes (after ShiftRows, cancelled by an InvShiftRows `vpshufb` first — every lane
//! of a byte slice is the same byte position of different blocks), and each affine map
//! is two 16-entry `vpshufb` look-ups on the low and high nibbles, XORed. The tables
//! (in `bytesliced.rs`, shared with `neon_aes`) are derived from the GFNI matrices of
//! `gfni_avx2.rs` (`Q` = post matrix · AES affine⁻¹) and checked against `s1`…`s4` on
//! all 256 inputs by `nibble_tables_give_the_sboxes`.
//! `vaesenclast` on `ymm` needs VAES, so each 256-bit slice goes through two `xmm`
//! halves (the target CPUs lack VAES).
//!
//! Tails: 6–31 blocks go through one zero-padded pass, fewer through the `soft` code.
//!
//! Constant time for whole passes: `vpshufb` and AES-NI take the same time whatever the
//! data; no table in memory is indexed by data. Single blocks use the table-based
//! `soft` code (see the crate's `# Security`).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::bytesliced::{
    self, INV_SHIFT_ROWS, LazyKeyBytes, POST1_HI, POST1_LO, POST2_HI, POST2_LO, POST3_HI, POST3_LO,
    PRE4_HI, PRE4_LO, PRE123_HI, PRE123_LO, Simd, one,
};
use super::gfni_avx2;
use crate::backends::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U16, U32},
    inout::{InOut, InOutBuf},
};

/// Proof of AES-NI and AVX2: made only by [`aes_ymm`], a `#[target_feature]` function.
#[derive(Clone, Copy)]
struct AesYmm(());

/// An [`AesYmm`]; callable (safely) only from code compiled for AES-NI and AVX2.
#[inline]
#[target_feature(enable = "aes,avx2")]
fn aes_ymm() -> AesYmm {
    AesYmm(())
}

impl AesYmm {
    /// A 16-byte table in both 128-bit lanes.
    #[inline(always)]
    fn table(self, t: &[u8; 16]) -> __m256i {
        // SAFETY: AVX2, as proven by `self`; `t` is 16 readable bytes (`loadu`).
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    /// `t_lo[x & 15] ^ t_hi[x >> 4]` per byte: an affine map on bytes.
    #[inline(always)]
    fn affine(self, x: __m256i, lo: &[u8; 16], hi: &[u8; 16]) -> __m256i {
        // SAFETY: AVX2, as proven by `self`.
        unsafe {
            let mask = _mm256_set1_epi8(0x0f);
            let l = _mm256_and_si256(x, mask);
            let h = _mm256_and_si256(_mm256_srli_epi16::<4>(x), mask);
            _mm256_xor_si256(
                _mm256_shuffle_epi8(self.table(lo), l),
                _mm256_shuffle_epi8(self.table(hi), h),
            )
        }
    }

    /// One Camellia S-box on every byte of `x`.
    #[inline(always)]
    fn sbox(
        self,
        x: __m256i,
        pre: (&[u8; 16], &[u8; 16]),
        post: (&[u8; 16], &[u8; 16]),
    ) -> __m256i {
        // SAFETY: AES-NI and AVX2, as proven by `self`.
        let s = unsafe {
            let x = _mm256_shuffle_epi8(x, self.table(&INV_SHIFT_ROWS));
            let p = self.affine(x, pre.0, pre.1);
            let zero = _mm_setzero_si128();
            let lo = _mm_aesenclast_si128(_mm256_castsi256_si128(p), zero);
            let hi = _mm_aesenclast_si128(_mm256_extracti128_si256::<1>(p), zero);
            _mm256_set_m128i(hi, lo)
        };
        self.affine(s, post.0, post.1)
    }
}

impl Simd for AesYmm {
    type V = __m256i;
    const W: usize = 32;

    #[inline(always)]
    fn store_block(self, dst: &mut Block, hi: u64, lo: u64) {
        // SAFETY: AVX2 (proven by `self`) implies SSE2.
        unsafe { gfni_avx2::store_block_sse2(dst, hi, lo) }
    }

    #[inline(always)]
    fn load(self, src: &[u8]) -> __m256i {
        assert!(src.len() >= 32);
        // SAFETY: 32 readable bytes; `loadu` takes any alignment; an `AesYmm` exists only
        // on CPUs with AES-NI and AVX2.
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
        let p123 = (&PRE123_LO, &PRE123_HI);
        let p4 = (&PRE4_LO, &PRE4_HI);
        let (q1, q2, q3) = (
            (&POST1_LO, &POST1_HI),
            (&POST2_LO, &POST2_HI),
            (&POST3_LO, &POST3_HI),
        );
        [
            self.sbox(x[0], p123, q1),
            self.sbox(x[1], p123, q2),
            self.sbox(x[2], p123, q3),
            self.sbox(x[3], p4, q1),
            self.sbox(x[4], p123, q2),
            self.sbox(x[5], p123, q3),
            self.sbox(x[6], p4, q1),
            self.sbox(x[7], p123, q1),
        ]
    }
}

/// Any number of blocks, 32 per pass; see the module docs for the rest.
#[inline]
#[target_feature(enable = "aes,avx2")]
fn run_blocks<const RK: usize>(
    k: &[u64; RK],
    kb: &LazyKeyBytes<'_, RK>,
    dec: bool,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let s = aes_ymm();
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
    if rest >= super::min_pass::<RK>(super::token::AesniAvx2::MIN_BLOCKS) {
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
/// [`decrypt`] make one, inside code compiled for (and only run with) AES-NI and AVX2.
struct Backend<'a, const RK: usize> {
    /// The proof of the CPU features (for single blocks' stores).
    s: AesYmm,
    k: &'a [u64; RK],
    kb: LazyKeyBytes<'a, RK>,
    dec: bool,
}

impl<const RK: usize> BlockSizeUser for Backend<'_, RK> {
    type BlockSize = U16;
}

/// 32 blocks: one pass is 16 `ymm` registers of state (one per byte position) — all 16
/// architectural `ymm` registers; the S-box temporaries and nibble tables spill (the
/// tables are read from memory by `vpshufb` anyway). A wider pass would only spill more.
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
        // only with a `token::AesniAvx2` (AES-NI and AVX2 with OS support for `ymm`).
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

/// Runs `f` with the AES-NI/AVX2 encryption backend.
#[target_feature(enable = "aes,avx2")]
pub(crate) fn encrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: aes_ymm(),
        k,
        kb: LazyKeyBytes::new(k, false),
        dec: false,
    })
}

/// Runs `f` with the AES-NI/AVX2 decryption backend.
#[target_feature(enable = "aes,avx2")]
pub(crate) fn decrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: aes_ymm(),
        k,
        kb: LazyKeyBytes::new(k, true),
        dec: true,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn aesni_avx2_matches_soft() {
        crate::check_matches_soft("aesni_avx2", 32);
    }
}
