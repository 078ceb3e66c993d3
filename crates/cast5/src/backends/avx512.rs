//! AVX-512: one block per 32-bit lane, 16 blocks per pair of `zmm` registers (left and
//! right halves), `N` pairs in flight. The S-boxes are looked up with 16-lane
//! `vpgatherdd`, the key-dependent rotations are `vprolvd`.
//!
//! Batches of fewer than 16 blocks go to the `ymm` code of `avx2.rs` (8 blocks), and from
//! there to the portable code.
//!
//! Not constant-time: the gathers read S-box entries at secret-dependent addresses.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{B8, Keys, avx2, soft};
use crate::consts::{S1, S2, S3, S4};
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U64},
    inout::{InOut, InOutBuf},
};

/// Pairs of registers (16 blocks each) in flight in the main loop; see the
/// `ParBlocksSizeUser` impl below.
const PAIRS: usize = 4;

/// 16 look-ups in S-box `t`.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn sbox(t: &'static [u32; 256], idx: __m512i) -> __m512i {
    // SAFETY: the callers mask or shift every lane of `idx` into 0..256, and `t` holds 256
    // readable `u32`s (scale 4).
    unsafe { _mm512_i32gather_epi32::<4>(idx, t.as_ptr().cast()) }
}

/// Round function of type `T + 1` (RFC 2144 §2.2) on 16 lanes.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn f<const T: usize>(d: __m512i, km: __m512i, kr: __m512i) -> __m512i {
    let i = match T {
        0 => _mm512_add_epi32(km, d),
        1 => _mm512_xor_si512(km, d),
        _ => _mm512_sub_epi32(km, d),
    };
    let i = _mm512_rolv_epi32(i, kr);
    let m = _mm512_set1_epi32(0xff);
    let s1 = sbox(&S1, _mm512_srli_epi32::<24>(i));
    let s2 = sbox(&S2, _mm512_and_si512(_mm512_srli_epi32::<16>(i), m));
    let s3 = sbox(&S3, _mm512_and_si512(_mm512_srli_epi32::<8>(i), m));
    let s4 = sbox(&S4, _mm512_and_si512(i, m));
    match T {
        // ((S1 ^ S2) - S3) + S4
        0 => _mm512_add_epi32(_mm512_xor_si512(s1, s2), _mm512_sub_epi32(s4, s3)),
        // ((S1 - S2) + S3) ^ S4
        1 => _mm512_xor_si512(_mm512_add_epi32(s1, _mm512_sub_epi32(s3, s2)), s4),
        // ((S1 + S2) ^ S3) - S4
        _ => _mm512_sub_epi32(_mm512_xor_si512(_mm512_add_epi32(s1, s2), s3), s4),
    }
}

/// Round `n` on `N` register pairs.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn round<const N: usize>(k: &Keys, n: usize, l: &mut [__m512i; N], r: &mut [__m512i; N]) {
    let km = _mm512_set1_epi32(k.km[n] as i32);
    let kr = _mm512_set1_epi32(k.kr[n] as i32);
    for j in 0..N {
        let x = match n % 3 {
            0 => f::<0>(r[j], km, kr),
            1 => f::<1>(r[j], km, kr),
            _ => f::<2>(r[j], km, kr),
        };
        let t = _mm512_xor_si512(l[j], x);
        l[j] = r[j];
        r[j] = t;
    }
}

/// Encrypts (`enc`) or decrypts `N` register pairs.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn crypt<const N: usize>(
    k: &Keys,
    mut l: [__m512i; N],
    mut r: [__m512i; N],
    enc: bool,
) -> ([__m512i; N], [__m512i; N]) {
    if enc {
        for n in 0..k.rounds {
            round(k, n, &mut l, &mut r);
        }
    } else {
        for n in (0..k.rounds).rev() {
            round(k, n, &mut l, &mut r);
        }
    }
    (r, l)
}

/// Byte order within each 32-bit word reversed (the halves are big-endian): bytes 0 and 2
/// from the word rotated left by 8, bytes 1 and 3 from it rotated right by 8, merged by
/// `vpternlogd` (AVX-512F only; `vpshufb zmm` would need AVX-512BW).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn bswap(x: __m512i) -> __m512i {
    let m = _mm512_set1_epi32(0x00ff_00ff);
    // 0xCA = `m ? b : c` bitwise.
    _mm512_ternarylogic_epi32::<0xCA>(m, _mm512_rol_epi32::<8>(x), _mm512_ror_epi32::<8>(x))
}

/// Loads, transforms and stores `16·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn run_n<const N: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, B8>, at: usize, enc: bool) {
    let even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    let odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    let (l, r) = {
        let inp = &buf.get_in()[at..at + 16 * N];
        let p = inp.as_ptr().cast::<u8>();
        let mut l = [_mm512_setzero_si512(); N];
        let mut r = [_mm512_setzero_si512(); N];
        for j in 0..N {
            // SAFETY: `inp` holds 16·N blocks = 128·N readable bytes; `loadu` is unaligned.
            let (a, b) = unsafe {
                (
                    _mm512_loadu_si512(p.add(128 * j).cast()),
                    _mm512_loadu_si512(p.add(128 * j + 64).cast()),
                )
            };
            let (a, b) = (bswap(a), bswap(b));
            l[j] = _mm512_permutex2var_epi32(a, even, b);
            r[j] = _mm512_permutex2var_epi32(a, odd, b);
        }
        (l, r)
    };
    let (l, r) = crypt(k, l, r, enc);
    let lo = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    let hi = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8);
    let out = &mut buf.get_out()[at..at + 16 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for j in 0..N {
        let a = bswap(_mm512_permutex2var_epi32(l[j], lo, r[j]));
        let b = bswap(_mm512_permutex2var_epi32(l[j], hi, r[j]));
        // SAFETY: `out` holds 128·N writable bytes; `storeu` is unaligned.
        unsafe {
            _mm512_storeu_si512(p.add(128 * j).cast(), a);
            _mm512_storeu_si512(p.add(128 * j + 64).cast(), b);
        }
    }
}

/// Any number of blocks: `16·PAIRS` at a time, then 16, then the `ymm` and portable paths.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn run_blocks(k: &Keys, mut buf: InOutBuf<'_, '_, B8>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 16 * PAIRS {
        run_n::<PAIRS>(k, &mut buf, at, enc);
        at += 16 * PAIRS;
    }
    if n - at >= 16 {
        run_n::<1>(k, &mut buf, at, enc);
        at += 16;
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        avx2::run_blocks(k, rest, enc);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512.
struct Backend<'a>(&'a Keys);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 64 blocks = 4 register pairs: a round needs 4 gathers per pair, and a 16-lane gather
/// has a latency of ~20+ cycles at a throughput of one per ~6, so the gathers of one pair
/// cannot hide the chain of the round (rotate, extract, gather, combine, xor). Measured
/// here (ECB, 8 KiB, TSC cycles/byte): 2 pairs 3.23, 4 pairs 3.04 — there the loop runs at
/// the gather throughput (16 rounds × 4 gathers × ~6 cycles per 16 blocks). The state
/// takes 8 of the 32 `zmm` registers.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U64;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, B8>) {
        soft::run_one(self.0, block, true)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx512` (AVX2 and AVX-512F with OS support for `zmm`).
        unsafe { run_blocks(self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, B8>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, B8>) {
        soft::run_one(self.0, block, false)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, B8>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, false) }
    }
}

/// Runs `f` with the AVX-512 encryption backend.
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn encrypt(k: &Keys, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend(k))
}

/// Runs `f` with the AVX-512 decryption backend.
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn decrypt(k: &Keys, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend(k))
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key length: tail lengths
    /// around 64 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 64);
    }
}
