//! AVX2: `vpgatherdd` on `ymm`, 8 blocks per register, four registers in flight.
//!
//! Each half-round gathers the four S-box words of 8 blocks with four 8-lane gathers
//! (the S-boxes stay in memory: at 4 KiB they are far larger than the register file);
//! the index bytes are cut out with shifts and masks. The blocks are split into an `L`
//! and an `R` register with `vshufps` (the lane order does not matter as long as the
//! store undoes it), byte-swapped with `vpshufb` for big-endian blocks (AVX2).
//!
//! Not constant-time: the gathers are indexed by secret bytes, like the scalar loads.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{State, soft};
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U8, U32},
    inout::{InOut, InOutBuf},
};

/// A 64-bit block.
type Block = Array<u8, U8>;

/// The round function F on 8 words.
#[inline]
#[target_feature(enable = "avx2")]
fn f(s: &[[u32; 256]; 4], x: __m256i) -> __m256i {
    let m = _mm256_set1_epi32(0xff);
    let ia = _mm256_srli_epi32::<24>(x);
    let ib = _mm256_and_si256(_mm256_srli_epi32::<16>(x), m);
    let ic = _mm256_and_si256(_mm256_srli_epi32::<8>(x), m);
    let id = _mm256_and_si256(x, m);
    // SAFETY: every index is in 0..256 (a byte of `x`) and each S-box holds 256 words,
    // so every lane reads inside its table; the gathers have no alignment requirement
    // beyond the 4-byte words they read.
    unsafe {
        let a = _mm256_i32gather_epi32::<4>(s[0].as_ptr().cast(), ia);
        let b = _mm256_i32gather_epi32::<4>(s[1].as_ptr().cast(), ib);
        let c = _mm256_i32gather_epi32::<4>(s[2].as_ptr().cast(), ic);
        let d = _mm256_i32gather_epi32::<4>(s[3].as_ptr().cast(), id);
        _mm256_add_epi32(_mm256_xor_si256(_mm256_add_epi32(a, b), c), d)
    }
}

/// `N` registers of 8 blocks each (`l`, `r` words), interleaved round by round;
/// returns the output words in block order (`[r, l]` of the last round).
#[inline]
#[target_feature(enable = "avx2")]
fn crypt_n<const DEC: bool, const N: usize>(
    st: &State,
    mut l: [__m256i; N],
    mut r: [__m256i; N],
) -> ([__m256i; N], [__m256i; N]) {
    let pk = |k: usize| _mm256_set1_epi32(if DEC { st.p[17 - k] } else { st.p[k] } as i32);
    let p0 = pk(0);
    l.iter_mut().for_each(|x| *x = _mm256_xor_si256(*x, p0));
    let mut k = 1;
    while k < 17 {
        let (pa, pb) = (pk(k), pk(k + 1));
        for i in 0..N {
            r[i] = _mm256_xor_si256(_mm256_xor_si256(r[i], pa), f(&st.s, l[i]));
        }
        for i in 0..N {
            l[i] = _mm256_xor_si256(_mm256_xor_si256(l[i], pb), f(&st.s, r[i]));
        }
        k += 2;
    }
    let p17 = pk(17);
    r.iter_mut().for_each(|x| *x = _mm256_xor_si256(*x, p17));
    (r, l)
}

/// Byte-swaps every 32-bit word (big-endian blocks) or nothing (`LE`).
#[inline]
#[target_feature(enable = "avx2")]
fn swap<const LE: bool>(x: __m256i) -> __m256i {
    if LE {
        x
    } else {
        let m = _mm256_set_epi64x(
            0x0c0d0e0f_08090a0b,
            0x04050607_00010203,
            0x0c0d0e0f_08090a0b,
            0x04050607_00010203,
        );
        _mm256_shuffle_epi8(x, m)
    }
}

/// Loads, transforms and stores `8·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2")]
fn run_n<const LE: bool, const DEC: bool, const N: usize>(
    st: &State,
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
) {
    let mut l = [_mm256_setzero_si256(); N];
    let mut r = [_mm256_setzero_si256(); N];
    {
        let inp = &buf.get_in()[at..at + 8 * N];
        let p = inp.as_ptr().cast::<u8>();
        for j in 0..N {
            // SAFETY: `inp` holds 8·N blocks = 64·N readable bytes; `loadu` is unaligned.
            let (v0, v1) = unsafe {
                (
                    _mm256_loadu_si256(p.add(64 * j).cast()),
                    _mm256_loadu_si256(p.add(64 * j + 32).cast()),
                )
            };
            let (v0, v1) = (
                _mm256_castsi256_ps(swap::<LE>(v0)),
                _mm256_castsi256_ps(swap::<LE>(v1)),
            );
            // Per 128-bit lane: the first words of two blocks of v0, then of v1.
            l[j] = _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(v0, v1));
            r[j] = _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(v0, v1));
        }
    }
    let (x, y) = crypt_n::<DEC, N>(st, l, r);
    let out = &mut buf.get_out()[at..at + 8 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for j in 0..N {
        // Undo the split: the words of v0's blocks, then of v1's, per 128-bit lane.
        let v0 = swap::<LE>(_mm256_unpacklo_epi32(x[j], y[j]));
        let v1 = swap::<LE>(_mm256_unpackhi_epi32(x[j], y[j]));
        // SAFETY: `out` holds 64·N writable bytes; `storeu` is unaligned.
        unsafe {
            _mm256_storeu_si256(p.add(64 * j).cast(), v0);
            _mm256_storeu_si256(p.add(64 * j + 32).cast(), v1);
        }
    }
}

/// Any number of blocks: 32 at a time, then 16, then 8, then the portable paths.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn run_blocks<const LE: bool, const DEC: bool>(
    st: &State,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 32 {
        run_n::<LE, DEC, 4>(st, &mut buf, at);
        at += 32;
    }
    if n - at >= 16 {
        run_n::<LE, DEC, 2>(st, &mut buf, at);
        at += 16;
    }
    if n - at >= 8 {
        run_n::<LE, DEC, 1>(st, &mut buf, at);
        at += 8;
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        soft::run_blocks::<LE, DEC>(st, rest);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2.
struct Wide<'a, const LE: bool> {
    st: &'a State,
}

impl<const LE: bool> BlockSizeUser for Wide<'_, LE> {
    type BlockSize = U8;
}

/// 32 blocks = four `ymm` registers per half (`L`, `R`): a half-round is four 8-lane
/// gathers (≈20 cycles latency) then three dependent adds/XORs; with two registers
/// (16 blocks) the gathers sat idle waiting on those chains (4.06 TSC cycles/byte here),
/// with four they stay busy (3.06). State is 8 registers, leaving 8 of the 16 `ymm` for
/// the indices and gathered words of the half-round in flight.
impl<const LE: bool> ParBlocksSizeUser for Wide<'_, LE> {
    type ParBlocksSize = U32;
}

impl<const LE: bool> BlockCipherEncBackend for Wide<'_, LE> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::one::<LE, false>(self.st, block);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Wide` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx2` (AVX2 with OS support for `ymm`).
        unsafe { run_blocks::<LE, false>(self.st, blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks::<LE, false>(self.st, blocks) }
    }
}

impl<const LE: bool> BlockCipherDecBackend for Wide<'_, LE> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::one::<LE, true>(self.st, block);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks::<LE, true>(self.st, blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks::<LE, true>(self.st, blocks) }
    }
}

/// Runs `f` with the AVX2 encryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn encrypt<const LE: bool>(st: &State, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> { st })
}

/// Runs `f` with the AVX2 decryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt<const LE: bool>(st: &State, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> { st })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`, both byte orders, random key
    /// lengths: tail lengths around 32 blocks, misaligned buffers, sentinels.
    #[test]
    fn avx2_matches_soft() {
        crate::backends::check_matches_soft("avx2", 32);
    }
}
