//! AVX-512BW: RC2's 16-bit words in 16-bit lanes, 32 blocks per `zmm` register, two
//! register groups (64 blocks) in flight.
//!
//! A group of 32 blocks is four `zmm` registers, register *i* holding word *i* of every
//! block (a byte shuffle, then a 4×4 transpose of 32-bit pairs per 128-bit lane). Mix
//! rounds are lane-wise: `vpternlogd` for the bit select, adds, rotates as two shifts and
//! an or. The mash rounds' `K[r & 63]` are one `vpermi2w` each: the 64 key words sit in
//! two `zmm` registers and `vpermi2w` uses the low 6 bits of each lane as the index.
//!
//! Tails: 32 blocks as one group, fewer to the `ymm` code of `avx2.rs`; single blocks (and
//! so CBC encryption) with the `soft` code.
//!
//! The look-ups index registers, not memory, by data: no data-dependent address, but the
//! index is data (see the crate's `# Security`).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{avx2, soft};
use crate::Blk;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, InOut, InOutBuf, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U64},
};
use core::cell::OnceCell;

/// The key table broadcast to 32 lanes, in two registers for `vpermi2w`, and as is.
struct Keys {
    k: [__m512i; 64],
    tab: [__m512i; 2],
}

/// The broadcast key table of `k`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn broadcast(k: &[u16; 64]) -> Keys {
    // SAFETY: `k` is 128 readable bytes; `loadu` is unaligned.
    let tab = unsafe {
        [
            _mm512_loadu_si512(k.as_ptr().cast()),
            _mm512_loadu_si512(k.as_ptr().add(32).cast()),
        ]
    };
    Keys {
        k: core::array::from_fn(|i| _mm512_set1_epi16(k[i] as i16)),
        tab,
    }
}

/// `(a & b) | (!a & c)`: RC2's bit select, one `vpternlogd` (truth table 0xCA).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn select(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0xCA>(a, b, c)
}

/// Rotates each 16-bit lane left by `L` (`R` = 16 − `L`).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn rotl<const L: u32, const R: u32>(x: __m512i) -> __m512i {
    _mm512_or_si512(_mm512_slli_epi16::<L>(x), _mm512_srli_epi16::<R>(x))
}

/// `K[v & 63]` in each 16-bit lane of `v` (`vpermi2w` reads only the low 6 index bits).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn lookup(tab: &[__m512i; 2], v: __m512i) -> __m512i {
    _mm512_permutex2var_epi16(tab[0], v, tab[1])
}

/// Encryption mix of word `I` (rotation `L`, `R` = 16 − `L`) in every group.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn mix<const I: usize, const L: u32, const R: u32, const G: usize>(
    x: &mut [[__m512i; 4]; G],
    k: __m512i,
) {
    for x in x.iter_mut() {
        let f = select(x[(I + 3) % 4], x[(I + 2) % 4], x[(I + 1) % 4]);
        x[I] = rotl::<L, R>(_mm512_add_epi16(_mm512_add_epi16(x[I], k), f));
    }
}

/// Decryption mix of word `I` (the inverse of [`mix`]: rotate right by `L`, subtract).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn unmix<const I: usize, const L: u32, const R: u32, const G: usize>(
    x: &mut [[__m512i; 4]; G],
    k: __m512i,
) {
    for x in x.iter_mut() {
        let f = select(x[(I + 3) % 4], x[(I + 2) % 4], x[(I + 1) % 4]);
        x[I] = _mm512_sub_epi16(_mm512_sub_epi16(rotl::<R, L>(x[I]), k), f);
    }
}

/// The 16 mix rounds and two mash rounds of encryption on `G` groups.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn encrypt_words<const G: usize>(k: &Keys, mut x: [[__m512i; 4]; G]) -> [[__m512i; 4]; G] {
    for round in 0..16 {
        let j = 4 * round;
        mix::<0, 1, 15, G>(&mut x, k.k[j]);
        mix::<1, 2, 14, G>(&mut x, k.k[j + 1]);
        mix::<2, 3, 13, G>(&mut x, k.k[j + 2]);
        mix::<3, 5, 11, G>(&mut x, k.k[j + 3]);
        if round == 4 || round == 10 {
            for i in 0..4 {
                for x in x.iter_mut() {
                    x[i] = _mm512_add_epi16(x[i], lookup(&k.tab, x[(i + 3) % 4]));
                }
            }
        }
    }
    x
}

/// The inverse of [`encrypt_words`].
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn decrypt_words<const G: usize>(k: &Keys, mut x: [[__m512i; 4]; G]) -> [[__m512i; 4]; G] {
    for round in (0..16).rev() {
        let j = 4 * round;
        unmix::<3, 5, 11, G>(&mut x, k.k[j + 3]);
        unmix::<2, 3, 13, G>(&mut x, k.k[j + 2]);
        unmix::<1, 2, 14, G>(&mut x, k.k[j + 1]);
        unmix::<0, 1, 15, G>(&mut x, k.k[j]);
        if round == 11 || round == 5 {
            for i in (0..4).rev() {
                for x in x.iter_mut() {
                    x[i] = _mm512_sub_epi16(x[i], lookup(&k.tab, x[(i + 3) % 4]));
                }
            }
        }
    }
    x
}

/// Per 128-bit lane (two blocks a, b): bytes of `a.w0 b.w0 a.w1 b.w1 …`, so 32-bit
/// element *i* holds word *i* of both blocks.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn gather_mask() -> __m512i {
    _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
    ))
}

/// The inverse of [`gather_mask`]'s shuffle.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn scatter_mask() -> __m512i {
    _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15,
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
unsafe fn run_ptr<const G: usize>(k: &Keys, inp: *const u8, out: *mut u8, enc: bool) {
    // SAFETY: the caller guarantees 256·G readable bytes.
    let x: [[__m512i; 4]; G] = core::array::from_fn(|g| unsafe { load(inp.add(256 * g)) });
    let y = if enc {
        encrypt_words(k, x)
    } else {
        decrypt_words(k, x)
    };
    for (g, y) in y.into_iter().enumerate() {
        // SAFETY: the caller guarantees 256·G writable bytes.
        unsafe { store(out.add(256 * g), y) };
    }
}

/// Transforms `32·G` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn run_n<const G: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, Blk>, at: usize, enc: bool) {
    let n = 32 * G;
    let inp = buf.get_in()[at..at + n].as_ptr().cast::<u8>();
    let out = buf.get_out()[at..at + n].as_mut_ptr().cast::<u8>();
    // SAFETY: both slices hold `n` blocks = 256·G bytes (bounds-checked above); the
    // input and output of an `InOutBuf` are either the same buffer or disjoint, and
    // `run_ptr` reads all input before it writes.
    unsafe { run_ptr::<G>(k, inp, out, enc) }
}

/// Any number of blocks: 64 at a time, then 32, then the `ymm` paths of `avx2.rs` (or
/// `soft` below its [`avx2::MIN_BLOCKS`]). Each key layout is made on first use, so a
/// short call never broadcasts the `zmm` table.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn run_blocks(b: &Backend<'_>, mut buf: InOutBuf<'_, '_, Blk>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    if n >= 32 {
        let k = b.keys.get_or_init(|| broadcast(b.words));
        while n - at >= 64 {
            run_n::<2>(k, &mut buf, at, enc);
            at += 64;
        }
        if n - at >= 32 {
            run_n::<1>(k, &mut buf, at, enc);
            at += 32;
        }
    }
    match n - at {
        0 => {}
        rest if rest < avx2::MIN_BLOCKS => avx2::soft_blocks(b.words, buf, at, enc),
        _ => {
            let (_, rest) = buf.split_at(at);
            avx2::run_blocks(b.narrow.get_or_init(|| avx2::broadcast(b.words)), rest, enc);
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512F/BW.
struct Backend<'a> {
    words: &'a [u16; 64],
    /// The `zmm` key table, made by the first call of 32 blocks or more.
    keys: OnceCell<Keys>,
    /// The `ymm` key table for tails, made by the first tail that needs it.
    narrow: OnceCell<avx2::Keys>,
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 64 blocks = 2 groups of 4 `zmm` registers: a word update is a chain of 5 dependent
/// instructions (select, two adds, shift, or) and the 64 updates of a block are serial,
/// while one group offers 6 instructions per update to the 2 `zmm` ports: one group is
/// latency-bound, two keep the ports busy. 8 state registers, the 2 table registers and
/// temporaries fit the 32 `zmm` registers.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U64;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Blk>) {
        soft::encrypt(block, self.words);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::Avx512` (AVX2, AVX-512F and AVX-512BW with OS `zmm` support).
        unsafe { run_blocks(self, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self, blocks, true) }
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
        unsafe { run_blocks(self, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self, blocks, false) }
    }
}

/// Runs `f` with the AVX-512 encryption backend.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn encrypt(k: &[u16; 64], f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
        narrow: OnceCell::new(),
    })
}

/// Runs `f` with the AVX-512 decryption backend.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn decrypt(k: &[u16; 64], f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
        narrow: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`: tail lengths around 64 blocks,
    /// misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 64);
    }
}
