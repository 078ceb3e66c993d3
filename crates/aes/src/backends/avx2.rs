//! Constant-time bitsliced AES on AVX2, for CPUs with AVX2 but without AES-NI.
//!
//! The rounds are the `soft` backend's fixsliced ones (Adomnicai–Peyrin fixslicing with
//! the Boyar–Peralta S-box circuit; see `soft.rs`), run on 256-bit words: each 64-bit lane
//! of a `ymm` register holds one four-block batch, so one pass encrypts sixteen blocks.
//! This is the Käsper–Schwabe idea ("Faster and timing-attack resistant AES-GCM", CHES
//! 2009) — bitsliced AES in wide vector registers — with the fixsliced layout, so the
//! round code is shared with `soft` through its [`Word`] trait instead of written twice.
//!
//! Only bitwise operations and shifts by constants, as in `soft`: constant-time.
//!
//! `ParBlocksSize` = 16: 4 lanes × 4 blocks. The state takes 8 `ymm` registers and
//! MixColumns 8 more temporaries, which is the whole 16-register AVX2 file: a second
//! interleaved pass would only spill.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::ops::{BitAnd, BitOr, BitXor, Not};

use super::soft::{self, State, Word};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::U16,
    inout::{InOut, InOutBuf},
};

/// One `ymm` word of bit-planes: four batches.
///
/// Private to this module, and every function here that makes or uses one is either a
/// `#[target_feature(enable = "avx2")]` function or `#[inline(always)]` into one; those
/// run only behind a `token::Avx2` (see `backends.rs`). That is what makes the intrinsic
/// calls in the operator impls sound.
#[derive(Clone, Copy)]
struct Y(__m256i);

impl BitXor for Y {
    type Output = Y;
    #[inline(always)]
    fn bitxor(self, o: Y) -> Y {
        // SAFETY: a `Y` exists only in AVX2 code (see the type's docs).
        Y(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
}

impl BitAnd for Y {
    type Output = Y;
    #[inline(always)]
    fn bitand(self, o: Y) -> Y {
        // SAFETY: a `Y` exists only in AVX2 code (see the type's docs).
        Y(unsafe { _mm256_and_si256(self.0, o.0) })
    }
}

impl BitOr for Y {
    type Output = Y;
    #[inline(always)]
    fn bitor(self, o: Y) -> Y {
        // SAFETY: a `Y` exists only in AVX2 code (see the type's docs).
        Y(unsafe { _mm256_or_si256(self.0, o.0) })
    }
}

impl Not for Y {
    type Output = Y;
    #[inline(always)]
    fn not(self) -> Y {
        self ^ Y::splat(u64::MAX)
    }
}

impl Word for Y {
    #[inline(always)]
    fn splat(x: u64) -> Y {
        // SAFETY: a `Y` is only made in AVX2 code (see the type's docs).
        Y(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Y {
        // A constant once inlined: LLVM folds the count register into `vpsllq ymm, imm`.
        // SAFETY: a `Y` exists only in AVX2 code (see the type's docs).
        Y(unsafe { _mm256_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Y {
        // SAFETY: a `Y` exists only in AVX2 code (see the type's docs).
        Y(unsafe { _mm256_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
    }
}

/// Transposes two 4×4 matrices of 64-bit words: `r[0..4]` and `r[4..8]` are rows, the
/// result their columns (and back: the transpose is its own inverse).
#[target_feature(enable = "avx2")]
fn transpose(r: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

/// Sixteen blocks through the cipher. Lane `g` of word `i` must hold the `i`-th
/// little-endian 64-bit half of batch `g` (blocks `4g..4g + 4`), i.e. 64-bit word
/// `8g + i` of the input: two 4×4 transposes of the eight loaded `ymm` rows.
#[target_feature(enable = "avx2")]
fn sixteen<const R: usize>(rk: &[State; R], blocks: InOut<'_, '_, Array<Block, U16>>, enc: bool) {
    let (inp, out) = blocks.into_raw();
    let inp = inp.cast::<__m256i>();
    let out = out.cast::<__m256i>();
    // SAFETY: `inp` points to 16 blocks = 8 unaligned `ymm` words.
    let row = |j: usize| unsafe { _mm256_loadu_si256(inp.add(j)) };
    // Rows 2g hold words 0..4 of batch g, rows 2g + 1 words 4..8.
    let lo = transpose([row(0), row(2), row(4), row(6)]);
    let hi = transpose([row(1), row(3), row(5), row(7)]);
    let w: [Y; 8] = core::array::from_fn(|i| Y(if i < 4 { lo[i] } else { hi[i - 4] }));
    let w = soft::crypt_words(rk, w, enc);
    let lo = transpose([w[0].0, w[1].0, w[2].0, w[3].0]);
    let hi = transpose([w[4].0, w[5].0, w[6].0, w[7].0]);
    for g in 0..4 {
        // SAFETY: `out` points to 16 blocks = 8 unaligned `ymm` words (it may alias
        // `inp`, which is fully read above).
        unsafe {
            _mm256_storeu_si256(out.add(2 * g), lo[g]);
            _mm256_storeu_si256(out.add(2 * g + 1), hi[g]);
        }
    }
}

/// The backend handed to `cipher`'s closures.
struct Backend<'a, const R: usize> {
    rk: &'a [State; R],
}

impl<const R: usize> BlockSizeUser for Backend<'_, R> {
    type BlockSize = U16;
}

impl<const R: usize> ParBlocksSizeUser for Backend<'_, R> {
    type ParBlocksSize = U16;
}

impl<const R: usize> Backend<'_, R> {
    #[inline(always)]
    fn par(&self, blocks: InOut<'_, '_, ParBlocks<Self>>, enc: bool) {
        // SAFETY: `Backend` is only made by `encrypt`/`decrypt` below, which run with
        // AVX2 enabled (their callers hold a `token::Avx2`).
        unsafe { sixteen(self.rk, blocks, enc) }
    }

    /// Fewer than sixteen blocks: up to four take one `soft` batch; more are padded to
    /// one sixteen-block pass, which costs about as much as two `soft` batches.
    #[inline(always)]
    fn tail(&self, mut blocks: InOutBuf<'_, '_, Block>, enc: bool) {
        let n = blocks.len();
        if n <= 4 {
            return soft::tail(self.rk, blocks, enc);
        }
        let mut buf = Array::<Block, U16>::default();
        for (k, b) in buf.iter_mut().take(n).enumerate() {
            *b = blocks.get(k).clone_in();
        }
        // SAFETY: as in `par`.
        unsafe { sixteen(self.rk, (&mut buf).into(), enc) };
        for (k, b) in buf.iter().take(n).enumerate() {
            *blocks.get(k).get_out() = *b;
        }
    }
}

impl<const R: usize> BlockCipherEncBackend for Backend<'_, R> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::one(self.rk, block, true);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.par(blocks, true);
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        self.tail(blocks, true);
    }
}

impl<const R: usize> BlockCipherDecBackend for Backend<'_, R> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::one(self.rk, block, false);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.par(blocks, false);
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        self.tail(blocks, false);
    }
}

/// Runs `f` with the AVX2 encryption backend (the `soft` key layout).
#[target_feature(enable = "avx2")]
pub(crate) fn encrypt<const R: usize>(
    keys: &soft::Keys<R>,
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        rk: keys.enc_keys(),
    })
}

/// Runs `f` with the AVX2 decryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt<const R: usize>(
    keys: &soft::Keys<R>,
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    #[allow(unused_mut)]
    let mut rk = keys.dec_keys();
    f.call(&Backend { rk: &rk });
    #[cfg(feature = "zeroize")]
    zeroize::Zeroize::zeroize(&mut rk);
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key size: tail lengths
    /// around 16 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx2_matches_soft() {
        crate::backends::check_matches_soft("avx2", 16);
    }
}
