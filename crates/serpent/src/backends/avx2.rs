//! Word-sliced Serpent on `ymm` registers, for CPUs with AVX2.
//!
//! Eight blocks share four `ymm` registers: after a 4×4 transpose of 32-bit words inside
//! each 128-bit lane, register `j` holds word `j` of all eight blocks, so the bitsliced
//! round code of `soft.rs` (`serpent_sboxes!`, `serpent_rounds!`) runs on eight blocks at once; rotations are
//! two shifts and an OR. Two such sets run interleaved (16 blocks).
//!
//! Constant time: bitwise operations, shifts by constants and shuffles only; no table, no
//! data- or key-dependent branch or index.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{RoundKeys, soft};
use super::soft::{serpent_rounds, serpent_sboxes};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::U16,
    inout::{InOut, InOutBuf},
};

type W = __m256i;

#[inline]
#[target_feature(enable = "avx2")]
fn and(a: W, b: W) -> W {
    _mm256_and_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn or(a: W, b: W) -> W {
    _mm256_or_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor(a: W, b: W) -> W {
    _mm256_xor_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn not(a: W) -> W {
    _mm256_xor_si256(a, _mm256_set1_epi32(-1))
}

#[inline]
#[target_feature(enable = "avx2")]
fn rol<const L: i32, const R: i32>(a: W) -> W {
    _mm256_or_si256(_mm256_slli_epi32::<L>(a), _mm256_srli_epi32::<R>(a))
}

#[inline]
#[target_feature(enable = "avx2")]
fn shl<const S: i32>(a: W) -> W {
    _mm256_slli_epi32::<S>(a)
}

#[inline]
#[target_feature(enable = "avx2")]
fn splat(a: u32) -> W {
    _mm256_set1_epi32(a as i32)
}

serpent_sboxes!(#[inline] #[target_feature(enable = "avx2")]);
serpent_rounds!(#[inline] #[target_feature(enable = "avx2")]);

/// Blocks per set: one 32-bit lane each in a `ymm` register.
const LANES: usize = 8;

/// 4×4 transpose of 32-bit words inside each 128-bit lane (its own inverse): from four
/// registers of two blocks each to four registers of one word of eight blocks each.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose([a, b, c, d]: [W; 4]) -> [W; 4] {
    let t0 = _mm256_unpacklo_epi32(a, b);
    let t1 = _mm256_unpackhi_epi32(a, b);
    let t2 = _mm256_unpacklo_epi32(c, d);
    let t3 = _mm256_unpackhi_epi32(c, d);
    [
        _mm256_unpacklo_epi64(t0, t2),
        _mm256_unpackhi_epi64(t0, t2),
        _mm256_unpacklo_epi64(t1, t3),
        _mm256_unpackhi_epi64(t1, t3),
    ]
}

/// Transforms `N·8` blocks from `inp` to `out` (byte pointers, `N·128` bytes each).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `N·128` bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn run_n<const N: usize>(k: &RoundKeys, inp: *const u8, out: *mut u8, enc: bool) {
    let x: [[W; 4]; N] = core::array::from_fn(|s| {
        transpose(core::array::from_fn(|j| {
            // SAFETY: the caller gives N·128 readable bytes; `loadu` is unaligned.
            unsafe { _mm256_loadu_si256(inp.add(128 * s + 32 * j).cast()) }
        }))
    });
    let y = if enc {
        encrypt_n(k, x)
    } else {
        decrypt_n(k, x)
    };
    for (s, v) in y.into_iter().enumerate() {
        for (j, v) in transpose(v).into_iter().enumerate() {
            // SAFETY: the caller gives N·128 writable bytes; `storeu` is unaligned.
            unsafe { _mm256_storeu_si256(out.add(128 * s + 32 * j).cast(), v) };
        }
    }
}

/// Any number of blocks: 16 at a time, then 8, then the last 1–7 by [`run_short`].
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn run_blocks(k: &RoundKeys, buf: InOutBuf<'_, '_, Block<Backend<'_>>>, enc: bool) {
    let n = buf.len();
    let (inp, out) = buf.into_raw();
    let (inp, out) = (inp.cast::<u8>(), out.cast::<u8>());
    let mut at = 0;
    while n - at >= 2 * LANES {
        // SAFETY: blocks `at..at + 16` are in the buffer (16 bytes each); in-place
        // operation is fine: every load of a batch happens before its stores.
        unsafe { run_n::<2>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += 2 * LANES;
    }
    if n - at >= LANES {
        // SAFETY: as above, blocks `at..at + 8`.
        unsafe { run_n::<1>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += LANES;
    }
    if at < n {
        // SAFETY: blocks `at..n` (fewer than 8) are in the buffer.
        unsafe { run_short(k, inp.add(16 * at), out.add(16 * at), n - at, enc) };
    }
}

/// 1–8 blocks from `inp` to `out` (byte pointers): one block on the `soft` code, more in
/// one `ymm` pass (padded to 8 blocks). Also the short path of the `avx512` backend on
/// CPUs where `zmm` runs at half width.
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `16·n` bytes, `1 <= n <= 8`;
/// they may be the same buffer (each block is read before it is written).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn run_short(k: &RoundKeys, inp: *const u8, out: *mut u8, n: usize, enc: bool) {
    debug_assert!((1..=LANES).contains(&n));
    if n < super::token::Avx2::MIN_BLOCKS {
        // One block runs on the `soft` code: a padded pass costs as much as 8 blocks, and
        // a 16-byte call took 660 TSC cycles that way against 400 on `soft` (Zen 3;
        // the table's `blocks`, issue 18).
        for i in 0..n {
            // SAFETY: block `i` is in the buffer (16 bytes at `16·i`); it is read whole
            // before it is written.
            let x: [u8; 16] = unsafe { core::ptr::read_unaligned(inp.add(16 * i).cast()) };
            let w = [soft::read_words(&x)];
            let [w] = if enc {
                soft::encrypt_n(k, w)
            } else {
                soft::decrypt_n(k, w)
            };
            let mut y = [0u8; 16];
            soft::write_words(w, &mut y);
            // SAFETY: as above, for the output.
            unsafe { core::ptr::write_unaligned(out.add(16 * i).cast::<[u8; 16]>(), y) };
        }
    } else {
        let mut tmp = [0u8; 16 * LANES];
        // SAFETY: the caller gives `n` blocks; `tmp` has room for them.
        unsafe { core::ptr::copy_nonoverlapping(inp, tmp.as_mut_ptr(), 16 * n) };
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 128 bytes.
        unsafe { run_n::<1>(k, p, p, enc) };
        // SAFETY: the caller gives `n` writable blocks.
        unsafe { core::ptr::copy_nonoverlapping(tmp.as_ptr(), out, 16 * n) };
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2.
pub(crate) struct Backend<'a>(&'a RoundKeys);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// 16 blocks = two sets of four `ymm` words: the S-box networks need 1–2 temporaries per
/// set and the linear transformation one, so two sets use 8 state + 4–6 temporaries + a
/// round-key broadcast of the 16 `ymm` registers. A third set would spill.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U16;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::encrypt_block(self.0, block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx2` (AVX2 with OS support for `ymm`).
        unsafe { run_blocks(self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::decrypt_block(self.0, block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, false) }
    }
}

/// Runs `f` with the AVX2 encryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn encrypt(k: &RoundKeys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    f.call(&Backend(k))
}

/// Runs `f` with the AVX2 decryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt(k: &RoundKeys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    f.call(&Backend(k))
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key length: tail lengths
    /// around 16 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx2_matches_soft() {
        crate::backends::check_matches_soft("avx2", 16);
    }
}
