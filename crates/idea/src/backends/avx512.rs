//! AVX-512BW: IDEA's 16-bit words in 16-bit lanes, 32 blocks per `zmm` register, two
//! register groups (64 blocks) in flight.
//!
//! A group of 32 blocks is four `zmm` registers, register *i* holding word *i* of every
//! block (a byte shuffle that also swaps the big-endian words, then a 4×4 transpose of
//! 32-bit pairs). The multiplication modulo 2^16+1 is `vpmullw`/`vpmulhuw` with
//! `lo − hi + (lo < hi)` through a mask register and a masked fix-up for the operand 0
//! (see [`mul`]).
//!
//! Tails: 32 blocks as one group, fewer to the `ymm` code of `avx2.rs`; single blocks (and
//! so CBC encryption) with the `soft` one-block code.
//!
//! Constant time: only lane-wise arithmetic, compares and logic; no table, no
//! data-dependent branch or address.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{avx2, soft};
use crate::{Blk, LENGTH_SUB_KEYS};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockSizeUser, InOut, InOutBuf, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U64},
};
use core::cell::OnceCell;

/// Subkeys broadcast to 32 lanes, and `1 − k` (for the zero fix-up of [`mul`]).
struct Keys {
    k: [__m512i; LENGTH_SUB_KEYS],
    nk: [__m512i; LENGTH_SUB_KEYS],
}

/// The broadcast subkeys of `k`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn broadcast(k: &[u16; LENGTH_SUB_KEYS]) -> Keys {
    Keys {
        k: core::array::from_fn(|i| _mm512_set1_epi16(k[i] as i16)),
        nk: core::array::from_fn(|i| _mm512_set1_epi16(1u16.wrapping_sub(k[i]) as i16)),
    }
}

/// `a·b` modulo 2^16+1 in each lane (0 stands for 2^16); `nb` = 1 − b.
///
/// `lo`, `hi` are the halves of the 32-bit product: for `a, b ≠ 0` the answer is
/// `lo − hi`, plus 1 when `lo < hi` (`lo = hi` is impossible then). For `a` or `b` = 0 the
/// product is 0 (`lo = hi = 0`) and the lanes where `lo = hi` get `1 − a − b` instead.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn mul(a: __m512i, b: __m512i, nb: __m512i) -> __m512i {
    let lo = _mm512_mullo_epi16(a, b);
    let hi = _mm512_mulhi_epu16(a, b);
    let r = _mm512_sub_epi16(lo, hi);
    let lt = _mm512_cmplt_epu16_mask(lo, hi);
    let r = _mm512_mask_sub_epi16(r, lt, r, _mm512_set1_epi16(-1));
    let eq = _mm512_cmpeq_epi16_mask(lo, hi);
    _mm512_mask_sub_epi16(r, eq, nb, a)
}

/// The cipher on `G` groups of 32 blocks (each group: word *i* of 32 blocks in `x[g][i]`).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn words<const G: usize>(k: &Keys, mut x: [[__m512i; 4]; G]) -> [[__m512i; 4]; G] {
    let (kk, nk) = (&k.k, &k.nk);
    for r in 0..8 {
        let j = 6 * r;
        for x in x.iter_mut() {
            let [x1, x2, x3, x4] = *x;
            let y1 = mul(x1, kk[j], nk[j]);
            let y2 = _mm512_add_epi16(x2, kk[j + 1]);
            let y3 = _mm512_add_epi16(x3, kk[j + 2]);
            let y4 = mul(x4, kk[j + 3], nk[j + 3]);
            let t0 = mul(_mm512_xor_si512(y1, y3), kk[j + 4], nk[j + 4]);
            let t1 = mul(
                _mm512_add_epi16(_mm512_xor_si512(y2, y4), t0),
                kk[j + 5],
                nk[j + 5],
            );
            let t2 = _mm512_add_epi16(t0, t1);
            *x = [
                _mm512_xor_si512(y1, t1),
                _mm512_xor_si512(y3, t1),
                _mm512_xor_si512(y2, t2),
                _mm512_xor_si512(y4, t2),
            ];
        }
    }
    x.map(|[x1, x2, x3, x4]| {
        [
            mul(x1, kk[48], nk[48]),
            _mm512_add_epi16(x3, kk[49]),
            _mm512_add_epi16(x2, kk[50]),
            mul(x4, kk[51], nk[51]),
        ]
    })
}

/// Per 128-bit lane (two blocks a, b): bytes of `a.w0 b.w0 a.w1 b.w1 …`, each word
/// byte-swapped to little-endian, so 32-bit element *i* holds word *i* of both blocks.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn gather_mask() -> __m512i {
    _mm512_broadcast_i32x4(_mm_setr_epi8(
        1, 0, 9, 8, 3, 2, 11, 10, 5, 4, 13, 12, 7, 6, 15, 14,
    ))
}

/// The inverse of [`gather_mask`]'s shuffle.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn scatter_mask() -> __m512i {
    _mm512_broadcast_i32x4(_mm_setr_epi8(
        1, 0, 5, 4, 9, 8, 13, 12, 3, 2, 7, 6, 11, 10, 15, 14,
    ))
}

/// 32 blocks (256 bytes at `p`) as four registers of words.
///
/// # Safety
/// `p` must be valid for reading 256 bytes.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn load(p: *const u8) -> [__m512i; 4] {
    let m = gather_mask();
    // SAFETY: the caller guarantees 256 readable bytes; `loadu` is unaligned.
    let r: [__m512i; 4] = core::array::from_fn(|j| unsafe {
        _mm512_shuffle_epi8(_mm512_loadu_si512(p.add(64 * j).cast()), m)
    });
    let t0 = _mm512_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm512_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm512_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm512_unpackhi_epi32(r[2], r[3]);
    [
        _mm512_unpacklo_epi64(t0, t2),
        _mm512_unpackhi_epi64(t0, t2),
        _mm512_unpacklo_epi64(t1, t3),
        _mm512_unpackhi_epi64(t1, t3),
    ]
}

/// The inverse of [`load`]: four registers of words back to 32 blocks at `p`.
///
/// # Safety
/// `p` must be valid for writing 256 bytes.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn store(p: *mut u8, x: [__m512i; 4]) {
    let u0 = _mm512_unpacklo_epi32(x[0], x[1]);
    let u1 = _mm512_unpackhi_epi32(x[0], x[1]);
    let u2 = _mm512_unpacklo_epi32(x[2], x[3]);
    let u3 = _mm512_unpackhi_epi32(x[2], x[3]);
    let m = scatter_mask();
    let r = [
        _mm512_unpacklo_epi64(u0, u2),
        _mm512_unpackhi_epi64(u0, u2),
        _mm512_unpacklo_epi64(u1, u3),
        _mm512_unpackhi_epi64(u1, u3),
    ];
    for (j, v) in r.into_iter().enumerate() {
        // SAFETY: the caller guarantees 256 writable bytes; `storeu` is unaligned.
        unsafe { _mm512_storeu_si512(p.add(64 * j).cast(), _mm512_shuffle_epi8(v, m)) };
    }
}

/// Transforms `32·G` blocks from `inp` to `out` (which may be the same address).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `256·G` bytes.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn run_ptr<const G: usize>(k: &Keys, inp: *const u8, out: *mut u8) {
    // SAFETY: the caller guarantees 256·G readable bytes.
    let x: [[__m512i; 4]; G] = core::array::from_fn(|g| unsafe { load(inp.add(256 * g)) });
    let y = words(k, x);
    for (g, y) in y.into_iter().enumerate() {
        // SAFETY: the caller guarantees 256·G writable bytes.
        unsafe { store(out.add(256 * g), y) };
    }
}

/// Transforms `32·G` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn run_n<const G: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, Blk>, at: usize) {
    let n = 32 * G;
    let inp = buf.get_in()[at..at + n].as_ptr().cast::<u8>();
    let out = buf.get_out()[at..at + n].as_mut_ptr().cast::<u8>();
    // SAFETY: both slices hold `n` blocks = 256·G bytes (bounds-checked above); the
    // input and output of an `InOutBuf` are either the same buffer or disjoint, and
    // `run_ptr` reads all input before it writes.
    unsafe { run_ptr::<G>(k, inp, out) }
}

/// Any number of blocks: 64 at a time, then 32, then the `ymm` paths of `avx2.rs` (or
/// `soft` below its [`avx2::MIN_BLOCKS`]). Each key layout is made on first use, so a
/// short call never broadcasts the `zmm` subkeys.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn run_blocks(b: &Backend<'_>, mut buf: InOutBuf<'_, '_, Blk>) {
    let n = buf.len();
    let mut at = 0;
    if n >= 32 {
        let k = b.keys.get_or_init(|| broadcast(b.words));
        while n - at >= 64 {
            run_n::<2>(k, &mut buf, at);
            at += 64;
        }
        if n - at >= 32 {
            run_n::<1>(k, &mut buf, at);
            at += 32;
        }
    }
    match n - at {
        0 => {}
        rest if rest < avx2::MIN_BLOCKS => soft::crypt_blocks(buf.split_at(at).1, b.words),
        _ => {
            let (_, rest) = buf.split_at(at);
            avx2::run_blocks(b.narrow.get_or_init(|| avx2::broadcast(b.words)), rest);
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512F/BW.
struct Backend<'a> {
    words: &'a [u16; LENGTH_SUB_KEYS],
    /// The `zmm` subkeys, made by the first call of 32 blocks or more.
    keys: OnceCell<Keys>,
    /// The `ymm` subkeys for tails, made by the first tail that needs them.
    narrow: OnceCell<avx2::Keys>,
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 64 blocks = 2 groups of 4 `zmm` registers: a round is a chain of three dependent
/// multiplications (7 instructions, ≈ 12 cycles each) while one group offers ≈ 40
/// instructions per round to the 2 `zmm` vector ports (≈ 20 cycles): one group is
/// latency-bound, two hide it. 8 state registers plus temporaries fit easily in the 32
/// `zmm` registers (subkeys come from memory operands).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U64;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt_one(block, self.words);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with an `token::Avx512` (AVX2, AVX-512F and AVX-512BW with OS `zmm` support).
        unsafe { run_blocks(self, blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self, blocks) }
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
        unsafe { run_blocks(self, blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self, blocks) }
    }
}

/// Runs `f` with the AVX-512 encryption backend (encryption subkeys `k`).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn encrypt(k: &[u16; LENGTH_SUB_KEYS], f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
        narrow: OnceCell::new(),
    })
}

/// Runs `f` with the AVX-512 decryption backend (decryption subkeys `k`).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn decrypt(k: &[u16; LENGTH_SUB_KEYS], f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
        narrow: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`: tail lengths around 64 blocks,
    /// misaligned buffers, sentinels (`testkit::harness::block`), zero words.
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 64);
    }
}
