//! Byte-sliced Camellia with AES-NI and AVX2 (32 blocks per pass), for x86 CPUs without
//! GFNI (Haswell to Comet Lake, Zen 1–3).
//!
//! J. Kivilinna's design ("Block Ciphers: Fast Implementations on x86-64 Architecture",
//! University of Oulu, 2013; the Linux `camellia-aesni-avx2` code): Camellia's S-boxes
//! and AES's are both affine maps around inversion in GF(2⁸), so
//! `s(x) = Q · SubBytes(PRE · x ⊕ 0x45) ⊕ c`. `vaesenclast` with a zero round key computes
//! SubBytes (after ShiftRows, cancelled by an InvShiftRows `vpshufb` first — every lane
//! of a byte slice is the same byte position of different blocks), and each affine map
//! is two 16-entry `vpshufb` look-ups on the low and high nibbles, XORed. The tables are
//! derived from the GFNI matrices of `gfni_avx2.rs` (`Q` = post matrix · AES affine⁻¹)
//! and checked against `s1`…`s4` on all 256 inputs by `nibble_tables_give_the_sboxes`.
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

use super::bytesliced::{self, LazyKeyBytes, Simd};
use super::gfni_avx2::one;
use crate::backends::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U16, U32},
    inout::{InOut, InOutBuf},
};

/// Pre map of `s1`/`s2`/`s3` (`PRE123 · x ⊕ 0x45`) on the low nibble (constant included).
const PRE123_LO: [u8; 16] = [
    0x45, 0xe8, 0x40, 0xed, 0x2e, 0x83, 0x2b, 0x86, 0x4b, 0xe6, 0x4e, 0xe3, 0x20, 0x8d, 0x25, 0x88,
];
/// … on the high nibble.
const PRE123_HI: [u8; 16] = [
    0x00, 0x51, 0xf1, 0xa0, 0x8a, 0xdb, 0x7b, 0x2a, 0x09, 0x58, 0xf8, 0xa9, 0x83, 0xd2, 0x72, 0x23,
];
/// Pre map of `s4` on the low nibble (constant included).
const PRE4_LO: [u8; 16] = [
    0x45, 0x40, 0x2e, 0x2b, 0x4b, 0x4e, 0x20, 0x25, 0x14, 0x11, 0x7f, 0x7a, 0x1a, 0x1f, 0x71, 0x74,
];
/// … on the high nibble.
const PRE4_HI: [u8; 16] = [
    0x00, 0xf1, 0x8a, 0x7b, 0x09, 0xf8, 0x83, 0x72, 0xad, 0x5c, 0x27, 0xd6, 0xa4, 0x55, 0x2e, 0xdf,
];
/// Post map of `s1`/`s4` after SubBytes, low nibble (constant included).
const POST1_LO: [u8; 16] = [
    0x3c, 0xcc, 0xcf, 0x3f, 0x32, 0xc2, 0xc1, 0x31, 0xdc, 0x2c, 0x2f, 0xdf, 0xd2, 0x22, 0x21, 0xd1,
];
/// … high nibble.
const POST1_HI: [u8; 16] = [
    0x00, 0xf9, 0x86, 0x7f, 0xd7, 0x2e, 0x51, 0xa8, 0xa4, 0x5d, 0x22, 0xdb, 0x73, 0x8a, 0xf5, 0x0c,
];
/// Post map of `s2`, low nibble (constant included).
const POST2_LO: [u8; 16] = [
    0x78, 0x99, 0x9f, 0x7e, 0x64, 0x85, 0x83, 0x62, 0xb9, 0x58, 0x5e, 0xbf, 0xa5, 0x44, 0x42, 0xa3,
];
/// … high nibble.
const POST2_HI: [u8; 16] = [
    0x00, 0xf3, 0x0d, 0xfe, 0xaf, 0x5c, 0xa2, 0x51, 0x49, 0xba, 0x44, 0xb7, 0xe6, 0x15, 0xeb, 0x18,
];
/// Post map of `s3`, low nibble (constant included).
const POST3_LO: [u8; 16] = [
    0x1e, 0x66, 0xe7, 0x9f, 0x19, 0x61, 0xe0, 0x98, 0x6e, 0x16, 0x97, 0xef, 0x69, 0x11, 0x90, 0xe8,
];
/// … high nibble.
const POST3_HI: [u8; 16] = [
    0x00, 0xfc, 0x43, 0xbf, 0xeb, 0x17, 0xa8, 0x54, 0x52, 0xae, 0x11, 0xed, 0xb9, 0x45, 0xfa, 0x06,
];
/// InvShiftRows as a `vpshufb` index: cancels the ShiftRows inside `vaesenclast`.
const INV_SHIFT_ROWS: [u8; 16] = [0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3];

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
        for i in at..n {
            one(k, dec, buf.get(i));
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AES-NI and AVX2.
struct Backend<'a, const RK: usize> {
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
        one(self.k, false, block)
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
        one(self.k, true, block)
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
        k,
        kb: LazyKeyBytes::new(k, true),
        dec: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::soft;

    /// Inversion in GF(2⁸) mod x⁸ + x⁴ + x³ + x + 1 (0 ↦ 0).
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

    /// AES SubBytes (FIPS-197 §5.1.1).
    fn sub_bytes(x: u8) -> u8 {
        let b = inv(x);
        b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
    }

    fn nib(x: u8, lo: &[u8; 16], hi: &[u8; 16]) -> u8 {
        lo[usize::from(x & 15)] ^ hi[usize::from(x >> 4)]
    }

    #[test]
    fn nibble_tables_give_the_sboxes() {
        let s = |x, pre: (&[u8; 16], &[u8; 16]), post: (&[u8; 16], &[u8; 16])| {
            nib(sub_bytes(nib(x, pre.0, pre.1)), post.0, post.1)
        };
        for x in 0..=255u8 {
            let p = (&PRE123_LO, &PRE123_HI);
            let p4 = (&PRE4_LO, &PRE4_HI);
            assert_eq!(s(x, p, (&POST1_LO, &POST1_HI)), soft::sbox(0, x), "s1");
            assert_eq!(s(x, p, (&POST2_LO, &POST2_HI)), soft::sbox(1, x), "s2");
            assert_eq!(s(x, p, (&POST3_LO, &POST3_HI)), soft::sbox(2, x), "s3");
            assert_eq!(s(x, p4, (&POST1_LO, &POST1_HI)), soft::sbox(3, x), "s4");
        }
        // InvShiftRows undoes ShiftRows.
        const SHIFT_ROWS: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];
        for (i, &j) in SHIFT_ROWS.iter().enumerate() {
            assert_eq!(usize::from(INV_SHIFT_ROWS[j]), i);
        }
    }

    #[test]
    fn aesni_avx2_matches_soft() {
        crate::check_matches_soft("aesni_avx2", 32);
    }
}
