//! AVX2: RC2's 16-bit words in 16-bit lanes, 16 blocks per `ymm` register, two register
//! groups (32 blocks) in flight.
//!
//! A group of 16 blocks is four `ymm` registers, register *i* holding word *i* of every
//! block (a byte shuffle, then a 4×4 transpose of 32-bit pairs). Mix rounds are lane-wise:
//! and/and-not/or for the bit select, adds, and rotates as two shifts and an or. The mash
//! rounds' `K[r & 63]` are scalar look-ups of the 16 lanes through the stack (see
//! [`lookup`] for why not `vpgatherdd`); they are 8 of the 72 word steps.
//!
//! Tails: 16 blocks as one group; 2..15 blocks padded into one group on the stack; one
//! block with the `soft` code (also used for single-block calls, so CBC encryption runs at
//! `soft` speed).
//!
//! Not constant-time: the look-ups load from data-dependent addresses of the 128-byte
//! key table, as `soft` does (see the crate's `# Security`).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::soft;
use crate::Blk;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, InOut, InOutBuf, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U32},
};
use core::cell::OnceCell;

/// Below this many blocks a call runs the `soft` one-block code instead (the table's
/// `blocks` for `avx2`): broadcasting the 64 key vectors and one padded 16-block group
/// cost more than a few serial blocks (issue 18).
pub(crate) const MIN_BLOCKS: usize = super::token::Avx2::MIN_BLOCKS;

/// Blocks `at..` of `buf` on the `soft` code ([`soft::crypt_blocks`]: two at a time).
#[inline(always)]
pub(crate) fn soft_blocks(k: &[u16; 64], buf: InOutBuf<'_, '_, Blk>, at: usize, enc: bool) {
    soft::crypt_blocks(k, buf.split_at(at).1, enc);
}

/// The key table broadcast to 16 lanes, and as is (for the look-ups and single blocks).
pub(crate) struct Keys {
    k: [__m256i; 64],
    words: [u16; 64],
}

/// The broadcast key table of `k`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn broadcast(k: &[u16; 64]) -> Keys {
    Keys {
        k: core::array::from_fn(|i| _mm256_set1_epi16(k[i] as i16)),
        words: *k,
    }
}

/// `(a & b) | (!a & c)`: RC2's bit select (the two terms never share a bit, so this is
/// the sum the RFC writes).
#[inline]
#[target_feature(enable = "avx2")]
fn select(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_and_si256(a, b), _mm256_andnot_si256(a, c))
}

/// Rotates each 16-bit lane left by `L` (`R` = 16 − `L`).
#[inline]
#[target_feature(enable = "avx2")]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi16::<L>(x), _mm256_srli_epi16::<R>(x))
}

/// `K[v & 63]` in each 16-bit lane of `v`: sixteen scalar look-ups through the stack.
///
/// Not `vpgatherdd`: a gather version (two gathers of the table widened to 32 bits) was
/// correct on hardware but computed wrong lanes under `qemu-x86_64 -cpu Haswell`
/// (QEMU 7.2 TCG), which the CPU ladder of the CI runs; scalar loads are right everywhere.
#[inline]
#[target_feature(enable = "avx2")]
fn lookup(words: &[u16; 64], v: __m256i) -> __m256i {
    let mut lanes = [0u16; 16];
    // SAFETY: `lanes` is 32 writable bytes; `storeu` is unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) };
    let out: [u16; 16] = core::array::from_fn(|i| words[usize::from(lanes[i] & 63)]);
    // SAFETY: `out` is 32 readable bytes; `loadu` is unaligned.
    unsafe { _mm256_loadu_si256(out.as_ptr().cast()) }
}

/// Encryption mix of word `I` (rotation `L`, `R` = 16 − `L`) in every group.
#[inline]
#[target_feature(enable = "avx2")]
fn mix<const I: usize, const L: i32, const R: i32, const G: usize>(
    x: &mut [[__m256i; 4]; G],
    k: __m256i,
) {
    for x in x.iter_mut() {
        let f = select(x[(I + 3) % 4], x[(I + 2) % 4], x[(I + 1) % 4]);
        x[I] = rotl::<L, R>(_mm256_add_epi16(_mm256_add_epi16(x[I], k), f));
    }
}

/// Decryption mix of word `I` (the inverse of [`mix`]: rotate right by `L`, subtract).
#[inline]
#[target_feature(enable = "avx2")]
fn unmix<const I: usize, const L: i32, const R: i32, const G: usize>(
    x: &mut [[__m256i; 4]; G],
    k: __m256i,
) {
    for x in x.iter_mut() {
        let f = select(x[(I + 3) % 4], x[(I + 2) % 4], x[(I + 1) % 4]);
        x[I] = _mm256_sub_epi16(_mm256_sub_epi16(rotl::<R, L>(x[I]), k), f);
    }
}

/// The 16 mix rounds and two mash rounds of encryption on `G` groups.
#[inline]
#[target_feature(enable = "avx2")]
fn encrypt_words<const G: usize>(k: &Keys, mut x: [[__m256i; 4]; G]) -> [[__m256i; 4]; G] {
    for round in 0..16 {
        let j = 4 * round;
        mix::<0, 1, 15, G>(&mut x, k.k[j]);
        mix::<1, 2, 14, G>(&mut x, k.k[j + 1]);
        mix::<2, 3, 13, G>(&mut x, k.k[j + 2]);
        mix::<3, 5, 11, G>(&mut x, k.k[j + 3]);
        if round == 4 || round == 10 {
            for i in 0..4 {
                for x in x.iter_mut() {
                    x[i] = _mm256_add_epi16(x[i], lookup(&k.words, x[(i + 3) % 4]));
                }
            }
        }
    }
    x
}

/// The inverse of [`encrypt_words`].
#[inline]
#[target_feature(enable = "avx2")]
fn decrypt_words<const G: usize>(k: &Keys, mut x: [[__m256i; 4]; G]) -> [[__m256i; 4]; G] {
    for round in (0..16).rev() {
        let j = 4 * round;
        unmix::<3, 5, 11, G>(&mut x, k.k[j + 3]);
        unmix::<2, 3, 13, G>(&mut x, k.k[j + 2]);
        unmix::<1, 2, 14, G>(&mut x, k.k[j + 1]);
        unmix::<0, 1, 15, G>(&mut x, k.k[j]);
        if round == 11 || round == 5 {
            for i in (0..4).rev() {
                for x in x.iter_mut() {
                    x[i] = _mm256_sub_epi16(x[i], lookup(&k.words, x[(i + 3) % 4]));
                }
            }
        }
    }
    x
}

/// Per 128-bit lane (two blocks a, b): bytes of `a.w0 b.w0 a.w1 b.w1 …`, so 32-bit
/// element *i* holds word *i* of both blocks.
#[inline]
#[target_feature(enable = "avx2")]
fn gather_mask() -> __m256i {
    _mm256_setr_epi8(
        0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, //
        0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
    )
}

/// The inverse of [`gather_mask`]'s shuffle.
#[inline]
#[target_feature(enable = "avx2")]
fn scatter_mask() -> __m256i {
    _mm256_setr_epi8(
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, //
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,
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
unsafe fn run_ptr<const G: usize>(k: &Keys, inp: *const u8, out: *mut u8, enc: bool) {
    // SAFETY: the caller guarantees 128·G readable bytes.
    let x: [[__m256i; 4]; G] = core::array::from_fn(|g| unsafe { load(inp.add(128 * g)) });
    let y = if enc {
        encrypt_words(k, x)
    } else {
        decrypt_words(k, x)
    };
    for (g, y) in y.into_iter().enumerate() {
        // SAFETY: the caller guarantees 128·G writable bytes.
        unsafe { store(out.add(128 * g), y) };
    }
}

/// Transforms `16·G` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2")]
fn run_n<const G: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, Blk>, at: usize, enc: bool) {
    let n = 16 * G;
    let inp = buf.get_in()[at..at + n].as_ptr().cast::<u8>();
    let out = buf.get_out()[at..at + n].as_mut_ptr().cast::<u8>();
    // SAFETY: both slices hold `n` blocks = 128·G bytes (bounds-checked above); the
    // input and output of an `InOutBuf` are either the same buffer or disjoint, and
    // `run_ptr` reads all input before it writes.
    unsafe { run_ptr::<G>(k, inp, out, enc) }
}

/// Any number of blocks: 32 at a time, then 16, then the rest padded to 16 (or one block
/// with the `soft` code).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn run_blocks(k: &Keys, mut buf: InOutBuf<'_, '_, Blk>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 32 {
        run_n::<2>(k, &mut buf, at, enc);
        at += 32;
    }
    if n - at >= 16 {
        run_n::<1>(k, &mut buf, at, enc);
        at += 16;
    }
    let rest = n - at;
    if rest > 0 && rest < MIN_BLOCKS {
        soft_blocks(&k.words, buf, at, enc);
    } else if rest > 0 {
        let mut tmp = [0u8; 128];
        for (i, b) in buf.get_in()[at..].iter().enumerate() {
            tmp[8 * i..8 * i + 8].copy_from_slice(b);
        }
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 128 bytes, read and written through the same pointer.
        unsafe { run_ptr::<1>(k, p, p, enc) };
        for (i, b) in buf.get_out()[at..].iter_mut().enumerate() {
            b.copy_from_slice(&tmp[8 * i..8 * i + 8]);
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2.
struct Backend<'a> {
    words: &'a [u16; 64],
    /// The broadcast key table, made by the first call of [`MIN_BLOCKS`] blocks or more:
    /// a call of a few blocks runs `soft` and never pays for it.
    keys: OnceCell<Keys>,
}

impl Backend<'_> {
    /// Any number of blocks: `soft` below [`MIN_BLOCKS`], else [`run_blocks`].
    #[inline]
    #[target_feature(enable = "avx2")]
    fn run(&self, buf: InOutBuf<'_, '_, Blk>, enc: bool) {
        if buf.len() < MIN_BLOCKS {
            soft_blocks(self.words, buf, 0, enc);
        } else {
            run_blocks(self.keys.get_or_init(|| broadcast(self.words)), buf, enc);
        }
    }
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 32 blocks = 2 groups of 4 `ymm` registers: a word update is a chain of 5 dependent
/// instructions (select, two adds, shift, or) and the 64 updates of a block are serial,
/// while one group offers only 8 instructions per update to 3 vector ports: one group is
/// latency-bound, two keep the ports busy. 8 state registers plus temporaries fit the 16
/// `ymm` registers (keys come from memory operands).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Blk>) {
        soft::encrypt(block, self.words);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::Avx2` (AVX2 with OS support for `ymm`).
        unsafe { self.run(blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Blk>) {
        soft::decrypt(block, self.words);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks, false) }
    }
}

/// Runs `f` with the AVX2 encryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn encrypt(k: &[u16; 64], f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

/// Runs `f` with the AVX2 decryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt(k: &[u16; 64], f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`: tail lengths around 32 blocks,
    /// misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx2_matches_soft() {
        crate::backends::check_matches_soft("avx2", 32);
    }
}
