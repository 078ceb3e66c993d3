//! AVX2: one 32-bit word of 8 blocks per `ymm` register, two sets of 8 blocks
//! interleaved; the `g` look-ups into the key-dependent tables are scalar loads.
//!
//! Gather or not: on the reference machine (Intel Xeon with AVX512-FP16; 8 KiB ECB
//! decryption, TSC cycles per byte) this file with `vpgatherdd` did 3.9 and with scalar
//! look-ups 5.4, but that machine never picks `avx2` (it has `gfni_avx512`). The CPUs
//! that do are those without AVX-512 VBMI and GFNI: AVX2-only parts and Skylake/Cascade
//! Lake, all in the `slow-gather` class, where gathers are microcoded (AMD Zen 1/2) or
//! slowed up to about 3× by Intel's Gather Data Sampling mitigation. On Zen 4 the two
//! were equal (a `vpgatherdd` variant against this file in one run, issue 20: 1.005×),
//! so the scalar look-ups stay. (qemu 7.2 also computes the gather variant wrongly;
//! qemu 10, which the CPU ladder now runs, computes it right, so that is no longer a
//! reason either way.) `avx512` keeps `vpgatherdd` for the CPUs with fast gathers.
//!
//! Tails of fewer than 16 blocks run one set of 8, then go to `soft`.
//!
//! Not constant time: the loads index key-dependent tables with data bytes.

use core::arch::x86_64::*;

use super::soft::Tables;
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::U16,
    inout::{InOut, InOutBuf},
};

/// The four words of 8 blocks, word-sliced.
type State = [__m256i; 4];

/// `g(x)` for 8 words: the words go through memory and the four look-ups each are
/// scalar loads (no `vpgatherdd`, see the module docs); the rest of the round stays in
/// `ymm` registers.
#[inline]
#[target_feature(enable = "avx2")]
fn g(t: &Tables, x: __m256i) -> __m256i {
    let mut w = [0u32; 8];
    // SAFETY: `w` is 32 writable bytes; `storeu` is unaligned.
    unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), x) };
    for v in w.iter_mut() {
        let y = *v;
        *v = t.s[0][y as u8 as usize]
            ^ t.s[1][(y >> 8) as u8 as usize]
            ^ t.s[2][(y >> 16) as u8 as usize]
            ^ t.s[3][(y >> 24) as usize];
    }
    // SAFETY: `w` is 32 readable bytes; `loadu` is unaligned.
    unsafe { _mm256_loadu_si256(w.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn enc_n<const N: usize>(t: &Tables, x: &mut [State; N]) {
    let k = |i: usize| _mm256_set1_epi32(t.k[i] as i32);
    for s in x.iter_mut() {
        for (i, w) in s.iter_mut().enumerate() {
            *w = _mm256_xor_si256(*w, k(i));
        }
    }
    for r in 0..8 {
        let kr = 4 * r + 8;
        for (a, b, c, d, ka, kb) in [(0, 1, 2, 3, kr, kr + 1), (2, 3, 0, 1, kr + 2, kr + 3)] {
            let (ka, kb) = (k(ka), k(kb));
            for s in x.iter_mut() {
                let t1 = g(t, rol8(s[b]));
                let t0 = g(t, s[a]);
                let f0 = _mm256_add_epi32(_mm256_add_epi32(t0, t1), ka);
                let f1 = _mm256_add_epi32(_mm256_add_epi32(t0, _mm256_add_epi32(t1, t1)), kb);
                s[c] = ror1(_mm256_xor_si256(s[c], f0));
                s[d] = _mm256_xor_si256(rol1(s[d]), f1);
            }
        }
    }
    for s in x.iter_mut() {
        *s = [
            _mm256_xor_si256(s[2], k(4)),
            _mm256_xor_si256(s[3], k(5)),
            _mm256_xor_si256(s[0], k(6)),
            _mm256_xor_si256(s[1], k(7)),
        ];
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn dec_n<const N: usize>(t: &Tables, x: &mut [State; N]) {
    let k = |i: usize| _mm256_set1_epi32(t.k[i] as i32);
    for s in x.iter_mut() {
        *s = [
            _mm256_xor_si256(s[2], k(6)),
            _mm256_xor_si256(s[3], k(7)),
            _mm256_xor_si256(s[0], k(4)),
            _mm256_xor_si256(s[1], k(5)),
        ];
    }
    for r in (0..8).rev() {
        let kr = 4 * r + 8;
        for (a, b, c, d, ka, kb) in [(2, 3, 0, 1, kr + 2, kr + 3), (0, 1, 2, 3, kr, kr + 1)] {
            let (ka, kb) = (k(ka), k(kb));
            for s in x.iter_mut() {
                let t1 = g(t, rol8(s[b]));
                let t0 = g(t, s[a]);
                let f0 = _mm256_add_epi32(_mm256_add_epi32(t0, t1), ka);
                let f1 = _mm256_add_epi32(_mm256_add_epi32(t0, _mm256_add_epi32(t1, t1)), kb);
                s[c] = _mm256_xor_si256(rol1(s[c]), f0);
                s[d] = ror1(_mm256_xor_si256(s[d], f1));
            }
        }
    }
    for s in x.iter_mut() {
        for (i, w) in s.iter_mut().enumerate() {
            *w = _mm256_xor_si256(*w, k(i));
        }
    }
}

/// 4×4 transpose of 32-bit words inside each 128-bit lane of four registers: blocks
/// (one per lane) to words (one register per word) and back; it is its own inverse.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose(x: State) -> State {
    let t0 = _mm256_unpacklo_epi32(x[0], x[1]);
    let t1 = _mm256_unpackhi_epi32(x[0], x[1]);
    let t2 = _mm256_unpacklo_epi32(x[2], x[3]);
    let t3 = _mm256_unpackhi_epi32(x[2], x[3]);
    [
        _mm256_unpacklo_epi64(t0, t2),
        _mm256_unpackhi_epi64(t0, t2),
        _mm256_unpacklo_epi64(t1, t3),
        _mm256_unpackhi_epi64(t1, t3),
    ]
}

/// Loads, transforms and stores `8·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2")]
fn run_n<const N: usize>(t: &Tables, buf: &mut InOutBuf<'_, '_, Block>, at: usize, enc: bool) {
    let mut x: [State; N] = {
        let inp = &buf.get_in()[at..at + 8 * N];
        let p = inp.as_ptr().cast::<u8>();
        core::array::from_fn(|s| {
            // SAFETY: `inp` holds 8·N blocks = 128·N readable bytes; `loadu` is unaligned.
            transpose(core::array::from_fn(|j| unsafe {
                _mm256_loadu_si256(p.add(128 * s + 32 * j).cast())
            }))
        })
    };
    if enc {
        enc_n(t, &mut x);
    } else {
        dec_n(t, &mut x);
    }
    let out = &mut buf.get_out()[at..at + 8 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for (s, v) in x.into_iter().enumerate() {
        for (j, w) in transpose(v).into_iter().enumerate() {
            // SAFETY: `out` holds 128·N writable bytes; `storeu` is unaligned.
            unsafe { _mm256_storeu_si256(p.add(128 * s + 32 * j).cast(), w) };
        }
    }
}

/// Any number of blocks: 16 at a time, then 8, then the `soft` path.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn run_blocks(t: &Tables, mut buf: InOutBuf<'_, '_, Block>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 16 {
        run_n::<2>(t, &mut buf, at, enc);
        at += 16;
    }
    if n - at >= 8 {
        run_n::<1>(t, &mut buf, at, enc);
        at += 8;
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        t.run_blocks(rest, enc);
    }
}

/// `x <<< 8` in each 32-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn rol8(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<8>(x), _mm256_srli_epi32::<24>(x))
}

/// `x <<< 1` in each 32-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn rol1(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<1>(x), _mm256_srli_epi32::<31>(x))
}

/// `x >>> 1` in each 32-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn ror1(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<1>(x), _mm256_slli_epi32::<31>(x))
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX2.
struct Backend<'a>(&'a Tables);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// 16 blocks = two sets of four `ymm` registers: one half-round of a set makes 64
/// independent scalar look-ups, and a second set gives the out-of-order core more to
/// overlap; state (8 registers) plus subkey broadcasts and temporaries fit the 16 `ymm`
/// registers.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U16;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.encrypt_one(block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx2` or a `token::Avx512` (AVX2 with OS support for `ymm`).
        unsafe { run_blocks(self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.decrypt_one(block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, false) }
    }
}

/// Runs `f` with the AVX2 encryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn encrypt(k: &super::Keys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    f.call(&Backend(k.tables()))
}

/// Runs `f` with the AVX2 decryption backend.
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt(k: &super::Keys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    f.call(&Backend(k.tables()))
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
