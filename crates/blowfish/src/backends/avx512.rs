//! AVX-512: `vpgatherdd` on `zmm`, 16 blocks per register, four registers in flight.
//!
//! Each half-round gathers the four S-box words of 16 blocks with four 16-lane gathers
//! (the S-boxes stay in memory: at 4 KiB they are far larger than the register file);
//! the index bytes are cut out with shifts and masks. The blocks are split into an `L`
//! and an `R` register with `vshufps` (the lane order does not matter as long as the
//! store undoes it), byte-swapped with two rotations and a `vpternlogd` for big-endian blocks.
//!
//! Not constant-time: the gathers are indexed by secret bytes, like the scalar loads.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{State, avx2, soft};
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U8, U64},
    inout::{InOut, InOutBuf},
};

/// A 64-bit block.
type Block = Array<u8, U8>;

/// The round function F on 16 words.
#[inline]
#[target_feature(enable = "avx512f")]
fn f(s: &[[u32; 256]; 4], x: __m512i) -> __m512i {
    let m = _mm512_set1_epi32(0xff);
    let ia = _mm512_srli_epi32::<24>(x);
    let ib = _mm512_and_si512(_mm512_srli_epi32::<16>(x), m);
    let ic = _mm512_and_si512(_mm512_srli_epi32::<8>(x), m);
    let id = _mm512_and_si512(x, m);
    // SAFETY: every index is in 0..256 (a byte of `x`) and each S-box holds 256 words,
    // so every lane reads inside its table; the gathers have no alignment requirement
    // beyond the 4-byte words they read.
    unsafe {
        let a = _mm512_i32gather_epi32::<4>(ia, s[0].as_ptr().cast());
        let b = _mm512_i32gather_epi32::<4>(ib, s[1].as_ptr().cast());
        let c = _mm512_i32gather_epi32::<4>(ic, s[2].as_ptr().cast());
        let d = _mm512_i32gather_epi32::<4>(id, s[3].as_ptr().cast());
        _mm512_add_epi32(_mm512_xor_si512(_mm512_add_epi32(a, b), c), d)
    }
}

/// `N` registers of 16 blocks each (`l`, `r` words), interleaved round by round;
/// returns the output words in block order (`[r, l]` of the last round).
#[inline]
#[target_feature(enable = "avx512f")]
fn crypt_n<const DEC: bool, const N: usize>(
    st: &State,
    mut l: [__m512i; N],
    mut r: [__m512i; N],
) -> ([__m512i; N], [__m512i; N]) {
    let pk = |k: usize| _mm512_set1_epi32(if DEC { st.p[17 - k] } else { st.p[k] } as i32);
    let p0 = pk(0);
    l.iter_mut().for_each(|x| *x = _mm512_xor_si512(*x, p0));
    let mut k = 1;
    while k < 17 {
        let (pa, pb) = (pk(k), pk(k + 1));
        for i in 0..N {
            r[i] = _mm512_xor_si512(_mm512_xor_si512(r[i], pa), f(&st.s, l[i]));
        }
        for i in 0..N {
            l[i] = _mm512_xor_si512(_mm512_xor_si512(l[i], pb), f(&st.s, r[i]));
        }
        k += 2;
    }
    let p17 = pk(17);
    r.iter_mut().for_each(|x| *x = _mm512_xor_si512(*x, p17));
    (r, l)
}

/// Byte-swaps every 32-bit word (big-endian blocks) or nothing (`LE`).
///
/// AVX-512F only (no `vpshufb` on `zmm`, which needs AVX-512BW): bytes 0 and 2 of the
/// swapped word are bytes 3 and 1 of `x` rotated left by 8, bytes 1 and 3 are bytes 2 and
/// 0 of `x` rotated left by 24; one `vpternlogd` picks them (`m ? a : b`, imm 0xCA).
#[inline]
#[target_feature(enable = "avx512f")]
fn swap<const LE: bool>(x: __m512i) -> __m512i {
    if LE {
        x
    } else {
        let m = _mm512_set1_epi32(0x00ff_00ff);
        _mm512_ternarylogic_epi32::<0xCA>(m, _mm512_rol_epi32::<8>(x), _mm512_rol_epi32::<24>(x))
    }
}

/// Loads, transforms and stores `16·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx512f")]
fn run_n<const LE: bool, const DEC: bool, const N: usize>(
    st: &State,
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
) {
    let mut l = [_mm512_setzero_si512(); N];
    let mut r = [_mm512_setzero_si512(); N];
    {
        let inp = &buf.get_in()[at..at + 16 * N];
        let p = inp.as_ptr().cast::<u8>();
        for j in 0..N {
            // SAFETY: `inp` holds 16·N blocks = 128·N readable bytes; `loadu` is unaligned.
            let (v0, v1) = unsafe {
                (
                    _mm512_loadu_si512(p.add(128 * j).cast()),
                    _mm512_loadu_si512(p.add(128 * j + 64).cast()),
                )
            };
            let (v0, v1) = (
                _mm512_castsi512_ps(swap::<LE>(v0)),
                _mm512_castsi512_ps(swap::<LE>(v1)),
            );
            // Per 128-bit lane: the first words of two blocks of v0, then of v1.
            l[j] = _mm512_castps_si512(_mm512_shuffle_ps::<0b10_00_10_00>(v0, v1));
            r[j] = _mm512_castps_si512(_mm512_shuffle_ps::<0b11_01_11_01>(v0, v1));
        }
    }
    let (x, y) = crypt_n::<DEC, N>(st, l, r);
    let out = &mut buf.get_out()[at..at + 16 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for j in 0..N {
        // Undo the split: the words of v0's blocks, then of v1's, per 128-bit lane.
        let v0 = swap::<LE>(_mm512_unpacklo_epi32(x[j], y[j]));
        let v1 = swap::<LE>(_mm512_unpackhi_epi32(x[j], y[j]));
        // SAFETY: `out` holds 128·N writable bytes; `storeu` is unaligned.
        unsafe {
            _mm512_storeu_si512(p.add(128 * j).cast(), v0);
            _mm512_storeu_si512(p.add(128 * j + 64).cast(), v1);
        }
    }
}

/// Any number of blocks: 64 at a time, then 32, then 16, then the `ymm` and portable paths.
#[inline]
#[target_feature(enable = "avx512f")]
fn run_blocks<const LE: bool, const DEC: bool>(st: &State, mut buf: InOutBuf<'_, '_, Block>) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 64 {
        run_n::<LE, DEC, 4>(st, &mut buf, at);
        at += 64;
    }
    if n - at >= 32 {
        run_n::<LE, DEC, 2>(st, &mut buf, at);
        at += 32;
    }
    if n - at >= 16 {
        run_n::<LE, DEC, 1>(st, &mut buf, at);
        at += 16;
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        avx2::run_blocks::<LE, DEC>(st, rest);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512F.
struct Wide<'a, const LE: bool> {
    st: &'a State,
}

impl<const LE: bool> BlockSizeUser for Wide<'_, LE> {
    type BlockSize = U8;
}

/// 64 blocks = four `zmm` registers per half (`L`, `R`): a half-round is four 16-lane
/// gathers (≈20 cycles latency) then three dependent adds/XORs. The gathers are the
/// bottleneck (≈7 cycles each here: 16 loads on 3 load ports plus overhead); two
/// registers left them waiting on the add chains now and then (2.78 TSC cycles/byte),
/// four keep them busy (2.68). State is 8 registers, far below 32.
impl<const LE: bool> ParBlocksSizeUser for Wide<'_, LE> {
    type ParBlocksSize = U64;
}

impl<const LE: bool> BlockCipherEncBackend for Wide<'_, LE> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::one::<LE, false>(self.st, block);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Wide` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx512` (AVX-512F and AVX2 with OS support for `zmm`).
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

/// Runs `f` with the AVX-512 encryption backend.
#[target_feature(enable = "avx512f")]
pub(crate) fn encrypt<const LE: bool>(st: &State, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> { st })
}

/// Runs `f` with the AVX-512 decryption backend.
#[target_feature(enable = "avx512f")]
pub(crate) fn decrypt<const LE: bool>(st: &State, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> { st })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`, both byte orders, random key
    /// lengths: tail lengths around 64 blocks, misaligned buffers, sentinels.
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 64);
    }
}
