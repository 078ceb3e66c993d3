//! AVX2: IDEA's 16-bit words in 16-bit lanes, 16 blocks per `ymm` register, two register
//! groups (32 blocks) in flight.
//!
//! A group of 16 blocks is four `ymm` registers, register *i* holding word *i* of every
//! block (a byte shuffle that also swaps the big-endian words, then a 4×4 transpose of
//! 32-bit pairs). The multiplication modulo 2^16+1 is `vpmullw`/`vpmulhuw` with
//! `lo − hi + (lo ≤ hi)` and a masked fix-up for the operand 0 (see [`mul`]).
//!
//! Tails: 16 blocks as one group; 2..15 blocks padded into one group on the stack; one
//! block with the `soft` one-block code (also used for single-block calls, so CBC
//! encryption runs at `soft` speed).
//!
//! Constant time: only lane-wise arithmetic, compares and logic; no table, no
//! data-dependent branch or address.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::soft;
use crate::{Blk, LENGTH_SUB_KEYS};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockSizeUser, InOut, InOutBuf, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U32},
};
use core::cell::OnceCell;

/// Below this many blocks a call runs the `soft` one-block code instead (the table's
/// `blocks` for `avx2`): broadcasting the 104 subkey vectors and one padded 16-block group
/// cost more than a few serial blocks (issue 18).
pub(crate) const MIN_BLOCKS: usize = super::token::Avx2::MIN_BLOCKS;

/// Subkeys broadcast to 16 lanes, and their negations (for the zero fix-up of [`mul`]).
pub(crate) struct Keys {
    k: [__m256i; LENGTH_SUB_KEYS],
    nk: [__m256i; LENGTH_SUB_KEYS],
    words: [u16; LENGTH_SUB_KEYS],
}

/// The broadcast subkeys of `k`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn broadcast(k: &[u16; LENGTH_SUB_KEYS]) -> Keys {
    Keys {
        k: core::array::from_fn(|i| _mm256_set1_epi16(k[i] as i16)),
        nk: core::array::from_fn(|i| _mm256_set1_epi16(k[i].wrapping_neg() as i16)),
        words: *k,
    }
}

/// `a·b` modulo 2^16+1 in each lane (0 stands for 2^16); `nb` = −b.
///
/// `lo`, `hi` are the halves of the 32-bit product: for `a, b ≠ 0` the answer is
/// `lo − hi`, plus 1 when `lo < hi` (`lo = hi` is impossible then). For `a` or `b` = 0 the
/// product is 0 (`lo = hi = 0`): the same formula gives 1, and `−a − b` is added where
/// `lo = hi`, giving `1 − a − b`.
#[inline]
#[target_feature(enable = "avx2")]
fn mul(a: __m256i, b: __m256i, nb: __m256i) -> __m256i {
    let lo = _mm256_mullo_epi16(a, b);
    let hi = _mm256_mulhi_epu16(a, b);
    let le = _mm256_cmpeq_epi16(_mm256_min_epu16(lo, hi), lo);
    let eq = _mm256_cmpeq_epi16(lo, hi);
    let r = _mm256_sub_epi16(_mm256_sub_epi16(lo, hi), le);
    _mm256_add_epi16(r, _mm256_and_si256(eq, _mm256_sub_epi16(nb, a)))
}

/// The cipher on `G` groups of 16 blocks (each group: word *i* of 16 blocks in `x[g][i]`).
#[inline]
#[target_feature(enable = "avx2")]
fn words<const G: usize>(k: &Keys, mut x: [[__m256i; 4]; G]) -> [[__m256i; 4]; G] {
    let (kk, nk) = (&k.k, &k.nk);
    for r in 0..8 {
        let j = 6 * r;
        for x in x.iter_mut() {
            let [x1, x2, x3, x4] = *x;
            let y1 = mul(x1, kk[j], nk[j]);
            let y2 = _mm256_add_epi16(x2, kk[j + 1]);
            let y3 = _mm256_add_epi16(x3, kk[j + 2]);
            let y4 = mul(x4, kk[j + 3], nk[j + 3]);
            let t0 = mul(_mm256_xor_si256(y1, y3), kk[j + 4], nk[j + 4]);
            let t1 = mul(
                _mm256_add_epi16(_mm256_xor_si256(y2, y4), t0),
                kk[j + 5],
                nk[j + 5],
            );
            let t2 = _mm256_add_epi16(t0, t1);
            *x = [
                _mm256_xor_si256(y1, t1),
                _mm256_xor_si256(y3, t1),
                _mm256_xor_si256(y2, t2),
                _mm256_xor_si256(y4, t2),
            ];
        }
    }
    x.map(|[x1, x2, x3, x4]| {
        [
            mul(x1, kk[48], nk[48]),
            _mm256_add_epi16(x3, kk[49]),
            _mm256_add_epi16(x2, kk[50]),
            mul(x4, kk[51], nk[51]),
        ]
    })
}

/// Per 128-bit lane (two blocks a, b): bytes of `a.w0 b.w0 a.w1 b.w1 …`, each word
/// byte-swapped to little-endian, so 32-bit element *i* holds word *i* of both blocks.
#[inline]
#[target_feature(enable = "avx2")]
fn gather_mask() -> __m256i {
    _mm256_setr_epi8(
        1, 0, 9, 8, 3, 2, 11, 10, 5, 4, 13, 12, 7, 6, 15, 14, //
        1, 0, 9, 8, 3, 2, 11, 10, 5, 4, 13, 12, 7, 6, 15, 14,
    )
}

/// The inverse of [`gather_mask`]'s shuffle.
#[inline]
#[target_feature(enable = "avx2")]
fn scatter_mask() -> __m256i {
    _mm256_setr_epi8(
        1, 0, 5, 4, 9, 8, 13, 12, 3, 2, 7, 6, 11, 10, 15, 14, //
        1, 0, 5, 4, 9, 8, 13, 12, 3, 2, 7, 6, 11, 10, 15, 14,
    )
}

/// 16 blocks (128 bytes at `p`) as four registers of words.
///
/// # Safety
/// `p` must be valid for reading 128 bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(p: *const u8) -> [__m256i; 4] {
    let m = gather_mask();
    // SAFETY: the caller guarantees 128 readable bytes; `loadu` is unaligned.
    let r: [__m256i; 4] = core::array::from_fn(|j| unsafe {
        _mm256_shuffle_epi8(_mm256_loadu_si256(p.add(32 * j).cast()), m)
    });
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    [
        _mm256_unpacklo_epi64(t0, t2),
        _mm256_unpackhi_epi64(t0, t2),
        _mm256_unpacklo_epi64(t1, t3),
        _mm256_unpackhi_epi64(t1, t3),
    ]
}

/// The inverse of [`load`]: four registers of words back to 16 blocks at `p`.
///
/// # Safety
/// `p` must be valid for writing 128 bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store(p: *mut u8, x: [__m256i; 4]) {
    let u0 = _mm256_unpacklo_epi32(x[0], x[1]);
    let u1 = _mm256_unpackhi_epi32(x[0], x[1]);
    let u2 = _mm256_unpacklo_epi32(x[2], x[3]);
    let u3 = _mm256_unpackhi_epi32(x[2], x[3]);
    let m = scatter_mask();
    let r = [
        _mm256_unpacklo_epi64(u0, u2),
        _mm256_unpackhi_epi64(u0, u2),
        _mm256_unpacklo_epi64(u1, u3),
        _mm256_unpackhi_epi64(u1, u3),
    ];
    for (j, v) in r.into_iter().enumerate() {
        // SAFETY: the caller guarantees 128 writable bytes; `storeu` is unaligned.
        unsafe { _mm256_storeu_si256(p.add(32 * j).cast(), _mm256_shuffle_epi8(v, m)) };
    }
}

/// Transforms `16·G` blocks from `inp` to `out` (which may be the same address).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `128·G` bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn run_ptr<const G: usize>(k: &Keys, inp: *const u8, out: *mut u8) {
    // SAFETY: the caller guarantees 128·G readable bytes.
    let x: [[__m256i; 4]; G] = core::array::from_fn(|g| unsafe { load(inp.add(128 * g)) });
    let y = words(k, x);
    for (g, y) in y.into_iter().enumerate() {
        // SAFETY: the caller guarantees 128·G writable bytes.
        unsafe { store(out.add(128 * g), y) };
    }
}

/// Transforms `16·G` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2")]
fn run_n<const G: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, Blk>, at: usize) {
    let n = 16 * G;
    let inp = buf.get_in()[at..at + n].as_ptr().cast::<u8>();
    let out = buf.get_out()[at..at + n].as_mut_ptr().cast::<u8>();
    // SAFETY: both slices hold `n` blocks = 128·G bytes (bounds-checked above); the
    // input and output of an `InOutBuf` are either the same buffer or disjoint, and
    // `run_ptr` reads all input before it writes.
    unsafe { run_ptr::<G>(k, inp, out) }
}

/// Any number of blocks: 32 at a time, then 16, then the rest padded to 16 (or one block
/// with the `soft` code).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn run_blocks(k: &Keys, mut buf: InOutBuf<'_, '_, Blk>) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 32 {
        run_n::<2>(k, &mut buf, at);
        at += 32;
    }
    if n - at >= 16 {
        run_n::<1>(k, &mut buf, at);
        at += 16;
    }
    let rest = n - at;
    if rest > 0 && rest < MIN_BLOCKS {
        soft::crypt_blocks(buf.split_at(at).1, &k.words);
    } else if rest > 0 {
        let mut tmp = [0u8; 128];
        for (i, b) in buf.get_in()[at..].iter().enumerate() {
            tmp[8 * i..8 * i + 8].copy_from_slice(b);
        }
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 128 bytes, read and written through the same pointer.
        unsafe { run_ptr::<1>(k, p, p) };
        for (i, b) in buf.get_out()[at..].iter_mut().enumerate() {
            b.copy_from_slice(&tmp[8 * i..8 * i + 8]);
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2.
struct Backend<'a> {
    words: &'a [u16; LENGTH_SUB_KEYS],
    /// The broadcast subkeys, made by the first call of more than [`MIN_BLOCKS`] − 1
    /// blocks: a call of a few blocks runs `soft` and never pays for them.
    keys: OnceCell<Keys>,
}

impl Backend<'_> {
    /// Any number of blocks: `soft` below [`MIN_BLOCKS`], else [`run_blocks`].
    #[inline]
    #[target_feature(enable = "avx2")]
    fn run(&self, buf: InOutBuf<'_, '_, Blk>) {
        if buf.len() < MIN_BLOCKS {
            soft::crypt_blocks(buf, self.words);
        } else {
            run_blocks(self.keys.get_or_init(|| broadcast(self.words)), buf);
        }
    }
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 32 blocks = 2 groups of 4 `ymm` registers: a round is a chain of three dependent
/// multiplications (≈ 10 instructions, ≈ 12 cycles each) while one group offers ≈ 50
/// instructions per round to 3 vector ports (≈ 17 cycles): one group is latency-bound, two
/// hide it. 8 state registers plus ≈ 6 temporaries fit the 16 `ymm` registers (subkeys
/// come from memory operands).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt_one(block, self.words);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with an `token::Avx2` (AVX2 with OS support for `ymm`).
        unsafe { self.run(blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt_one(block, self.words);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks) }
    }
}

/// Runs `f` with the AVX2 encryption backend (encryption subkeys `k`).
#[target_feature(enable = "avx2")]
pub(crate) fn encrypt(k: &[u16; LENGTH_SUB_KEYS], f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

/// Runs `f` with the AVX2 decryption backend (decryption subkeys `k`).
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt(k: &[u16; LENGTH_SUB_KEYS], f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`: tail lengths around 32 blocks,
    /// misaligned buffers, sentinels (`testkit::harness::block`), zero words.
    #[test]
    fn avx2_matches_soft() {
        crate::backends::check_matches_soft("avx2", 32);
    }
}
