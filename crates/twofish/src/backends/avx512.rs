//! AVX-512: one 32-bit word of 16 blocks per `zmm` register, the `g` look-ups with
//! `vpgatherdd` into the key-dependent tables, two sets of 16 blocks interleaved.
//!
//! Tails of fewer than 32 blocks run one set of 16, then go to the `ymm` paths of
//! `avx2.rs` (8 blocks) and from there to `soft`.
//!
//! Key setup: on CPUs that also have AVX-512BW and AVX-512 VBMI, [`tables`] builds the
//! four key-dependent tables 64 entries at a time, each 256-entry byte look-up (`q0`,
//! `q1`, and `q` followed by the MDS products) being two `vpermi2b` and a blend on the
//! index's top bit, and the 8→32 expansion two byte permutes per 16 words.
//!
//! Not constant time: the gathers index key-dependent tables with data bytes.

use core::arch::x86_64::*;

use super::{
    avx2,
    soft::{self, MDS_POLY, Q, QORD, Tables, gf_mult},
};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U16, U32},
    inout::{InOut, InOutBuf},
};

/// The four words of 16 blocks, word-sliced.
type State = [__m512i; 4];

/// `g(x)` for 16 words: four gathers, one per byte, from the four tables.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn g(t: &Tables, x: __m512i) -> __m512i {
    let m = _mm512_set1_epi32(0xff);
    let i0 = _mm512_and_si512(x, m);
    let i1 = _mm512_and_si512(_mm512_srli_epi32::<8>(x), m);
    let i2 = _mm512_and_si512(_mm512_srli_epi32::<16>(x), m);
    let i3 = _mm512_srli_epi32::<24>(x);
    // SAFETY: every index is below 256 (masked to a byte, or the top byte of a 32-bit
    // lane), and each table holds 256 `u32`s; scale 4 is the size of a `u32`.
    unsafe {
        let a = _mm512_i32gather_epi32::<4>(i0, t.s[0].as_ptr().cast());
        let b = _mm512_i32gather_epi32::<4>(i1, t.s[1].as_ptr().cast());
        let c = _mm512_i32gather_epi32::<4>(i2, t.s[2].as_ptr().cast());
        let d = _mm512_i32gather_epi32::<4>(i3, t.s[3].as_ptr().cast());
        _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d))
    }
}

#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn enc_n<const N: usize>(t: &Tables, x: &mut [State; N]) {
    let k = |i: usize| _mm512_set1_epi32(t.k[i] as i32);
    for s in x.iter_mut() {
        for (i, w) in s.iter_mut().enumerate() {
            *w = _mm512_xor_si512(*w, k(i));
        }
    }
    for r in 0..8 {
        let kr = 4 * r + 8;
        for (a, b, c, d, ka, kb) in [(0, 1, 2, 3, kr, kr + 1), (2, 3, 0, 1, kr + 2, kr + 3)] {
            let (ka, kb) = (k(ka), k(kb));
            for s in x.iter_mut() {
                let t1 = g(t, _mm512_rol_epi32::<8>(s[b]));
                let t0 = g(t, s[a]);
                let f0 = _mm512_add_epi32(_mm512_add_epi32(t0, t1), ka);
                let f1 = _mm512_add_epi32(_mm512_add_epi32(t0, _mm512_add_epi32(t1, t1)), kb);
                s[c] = _mm512_ror_epi32::<1>(_mm512_xor_si512(s[c], f0));
                s[d] = _mm512_xor_si512(_mm512_rol_epi32::<1>(s[d]), f1);
            }
        }
    }
    for s in x.iter_mut() {
        *s = [
            _mm512_xor_si512(s[2], k(4)),
            _mm512_xor_si512(s[3], k(5)),
            _mm512_xor_si512(s[0], k(6)),
            _mm512_xor_si512(s[1], k(7)),
        ];
    }
}

#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn dec_n<const N: usize>(t: &Tables, x: &mut [State; N]) {
    let k = |i: usize| _mm512_set1_epi32(t.k[i] as i32);
    for s in x.iter_mut() {
        *s = [
            _mm512_xor_si512(s[2], k(6)),
            _mm512_xor_si512(s[3], k(7)),
            _mm512_xor_si512(s[0], k(4)),
            _mm512_xor_si512(s[1], k(5)),
        ];
    }
    for r in (0..8).rev() {
        let kr = 4 * r + 8;
        for (a, b, c, d, ka, kb) in [(2, 3, 0, 1, kr + 2, kr + 3), (0, 1, 2, 3, kr, kr + 1)] {
            let (ka, kb) = (k(ka), k(kb));
            for s in x.iter_mut() {
                let t1 = g(t, _mm512_rol_epi32::<8>(s[b]));
                let t0 = g(t, s[a]);
                let f0 = _mm512_add_epi32(_mm512_add_epi32(t0, t1), ka);
                let f1 = _mm512_add_epi32(_mm512_add_epi32(t0, _mm512_add_epi32(t1, t1)), kb);
                s[c] = _mm512_xor_si512(_mm512_rol_epi32::<1>(s[c]), f0);
                s[d] = _mm512_ror_epi32::<1>(_mm512_xor_si512(s[d], f1));
            }
        }
    }
    for s in x.iter_mut() {
        for (i, w) in s.iter_mut().enumerate() {
            *w = _mm512_xor_si512(*w, k(i));
        }
    }
}

/// 4×4 transpose of 32-bit words inside each 128-bit lane of four registers: blocks
/// (one per lane) to words (one register per word) and back; it is its own inverse.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn transpose(x: State) -> State {
    let t0 = _mm512_unpacklo_epi32(x[0], x[1]);
    let t1 = _mm512_unpackhi_epi32(x[0], x[1]);
    let t2 = _mm512_unpacklo_epi32(x[2], x[3]);
    let t3 = _mm512_unpackhi_epi32(x[2], x[3]);
    [
        _mm512_unpacklo_epi64(t0, t2),
        _mm512_unpackhi_epi64(t0, t2),
        _mm512_unpacklo_epi64(t1, t3),
        _mm512_unpackhi_epi64(t1, t3),
    ]
}

/// Loads, transforms and stores `16·N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn run_n<const N: usize>(t: &Tables, buf: &mut InOutBuf<'_, '_, Block>, at: usize, enc: bool) {
    let mut x: [State; N] = {
        let inp = &buf.get_in()[at..at + 16 * N];
        let p = inp.as_ptr().cast::<u8>();
        core::array::from_fn(|s| {
            // SAFETY: `inp` holds 16·N blocks = 256·N readable bytes; `loadu` is unaligned.
            transpose(core::array::from_fn(|j| unsafe {
                _mm512_loadu_si512(p.add(256 * s + 64 * j).cast())
            }))
        })
    };
    if enc {
        enc_n(t, &mut x);
    } else {
        dec_n(t, &mut x);
    }
    let out = &mut buf.get_out()[at..at + 16 * N];
    let p = out.as_mut_ptr().cast::<u8>();
    for (s, v) in x.into_iter().enumerate() {
        for (j, w) in transpose(v).into_iter().enumerate() {
            // SAFETY: `out` holds 256·N writable bytes; `storeu` is unaligned.
            unsafe { _mm512_storeu_si512(p.add(256 * s + 64 * j).cast(), w) };
        }
    }
}

/// Any number of blocks: 32 at a time, then 16, then the `ymm` and `soft` paths.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn run_blocks(t: &Tables, mut buf: InOutBuf<'_, '_, Block>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 32 {
        run_n::<2>(t, &mut buf, at, enc);
        at += 32;
    }
    if n - at >= 16 {
        run_n::<1>(t, &mut buf, at, enc);
        at += 16;
    }
    if at < n {
        let (_, rest) = buf.split_at(at);
        avx2::run_blocks(t, rest, enc);
    }
}

/// Byte `m` of MDS column `j`'s word is `x`, `5b·x` or `ef·x` (0, 1, 2): the column
/// patterns of `soft::mds_column`.
const PATTERN: [[u8; 4]; 4] = [[0, 1, 2, 2], [2, 2, 1, 0], [1, 2, 0, 2], [1, 0, 2, 1]];

/// `FINAL[j][c][x]`: `c·q(x)` for `c` = 1, 0x5b, 0xef, where `q` is byte `j`'s last
/// permutation (`QORD[j][4]`).
const FINAL: [[[u8; 256]; 3]; 4] = {
    let mut t = [[[0u8; 256]; 3]; 4];
    let mut j = 0;
    while j < 4 {
        let mut x = 0;
        while x < 256 {
            let y = Q[QORD[j][4]][x];
            t[j][0][x] = y;
            t[j][1][x] = gf_mult(y, 0x5b, MDS_POLY);
            t[j][2][x] = gf_mult(y, 0xef, MDS_POLY);
            x += 1;
        }
        j += 1;
    }
    t
};

/// `SPREAD[j][q]`: `vpermi2b` indexes that build words `16q..16q+16` of table `j` from
/// the `5b·x` (0..64) and `ef·x` (64..128) vectors; bytes that take `x` itself are
/// filled afterwards with `SPREAD1[q]` under the mask `ZMASK[j]`.
const SPREAD: [[[u8; 64]; 4]; 4] = {
    let mut t = [[[0u8; 64]; 4]; 4];
    let mut j = 0;
    while j < 4 {
        let mut q = 0;
        while q < 4 {
            let mut b = 0;
            while b < 64 {
                let (i, m) = (b / 4, b % 4);
                t[j][q][b] = match PATTERN[j][m] {
                    1 => (16 * q + i) as u8,
                    2 => (64 + 16 * q + i) as u8,
                    _ => 0,
                };
                b += 1;
            }
            q += 1;
        }
        j += 1;
    }
    t
};

/// `vpermb` indexes: byte `4i+m` of quarter `q` takes entry `16q+i`.
const SPREAD1: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut q = 0;
    while q < 4 {
        let mut b = 0;
        while b < 64 {
            t[q][b] = (16 * q + b / 4) as u8;
            b += 1;
        }
        q += 1;
    }
    t
};

/// The bytes of table `j`'s words that are `x` itself.
const ZMASK: [u64; 4] = {
    let mut t = [0u64; 4];
    let mut j = 0;
    while j < 4 {
        let mut b = 0;
        while b < 64 {
            if PATTERN[j][b % 4] == 0 {
                t[j] |= 1 << b;
            }
            b += 1;
        }
        j += 1;
    }
    t
};

#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn load64(b: &[u8; 64]) -> __m512i {
    // SAFETY: `b` is 64 readable bytes; `loadu` is unaligned.
    unsafe { _mm512_loadu_si512(b.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn load256(t: &[u8; 256]) -> [__m512i; 4] {
    core::array::from_fn(|i| load64(t[64 * i..64 * i + 64].try_into().unwrap()))
}

/// A 256-entry byte table look-up of 64 bytes: two 128-entry `vpermi2b`, blended on the
/// top bit of the index.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn lookup(t: &[__m512i; 4], x: __m512i) -> __m512i {
    let lo = _mm512_permutex2var_epi8(t[0], x, t[1]);
    let hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
    _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
}

/// The key schedule of a 16-, 24- or 32-byte key, the same as [`Tables::new`], with the
/// four 8→32 tables built by AVX-512 VBMI byte permutes; with `phi`, also the `gfni_avx512`
/// backend's 8→8 S-boxes `φ(s_j(x))` (see `gfni_avx512.rs`).
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(crate) fn tables(key: &[u8], mut phi: Option<&mut [[u8; 256]; 4]>) -> Tables {
    let k = key.len() / 8;
    let start = 4 - k;
    let sw = soft::sbox_words(key);
    let q = [load256(&Q[0]), load256(&Q[1])];
    let spread1: [__m512i; 4] = core::array::from_fn(|i| load64(&SPREAD1[i]));
    let phi_t = load256(&super::gfni_avx512::PHI);
    let mut s = [[0u32; 256]; 4];
    for (j, tj) in s.iter_mut().enumerate() {
        let fin: [[__m512i; 4]; 3] = core::array::from_fn(|c| load256(&FINAL[j][c]));
        let spread: [__m512i; 4] = core::array::from_fn(|i| load64(&SPREAD[j][i]));
        let first = &Q[QORD[j][start]];
        for v in 0..4 {
            let mut y = load64(first[64 * v..64 * v + 64].try_into().unwrap());
            for z in start + 1..4 {
                let l = _mm512_set1_epi8(sw[z - start - 1][j] as i8);
                y = lookup(&q[QORD[j][z]], _mm512_xor_si512(y, l));
            }
            y = _mm512_xor_si512(y, _mm512_set1_epi8(sw[k - 1][j] as i8));
            let (z1, z5, ze) = (lookup(&fin[0], y), lookup(&fin[1], y), lookup(&fin[2], y));
            if let Some(p) = phi.as_deref_mut() {
                let out = &mut p[j][64 * v..64 * v + 64];
                // SAFETY: `out` is 64 writable bytes; `storeu` is unaligned.
                unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), lookup(&phi_t, z1)) };
            }
            for (qq, out) in tj[64 * v..64 * v + 64].chunks_exact_mut(16).enumerate() {
                let w = _mm512_permutex2var_epi8(z5, spread[qq], ze);
                let w = _mm512_mask_permutexvar_epi8(w, ZMASK[j], spread1[qq], z1);
                // SAFETY: `out` is 16 writable `u32`s = 64 bytes; `storeu` is unaligned.
                unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), w) };
            }
        }
    }
    Tables {
        k: soft::subkeys(key),
        s,
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512F.
struct Backend<'a>(&'a Tables);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// 32 blocks = two sets of four `zmm` registers: one half-round of a set issues eight
/// independent gathers, and a second set gives the out-of-order core more to overlap
/// with the gathers' 20+ cycle latency. State (8) + gather indexes and results (up to 8
/// per set) + subkey and mask constants stay well inside the 32 `zmm` registers.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.encrypt_one(block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx512` (AVX2 and AVX-512F with OS support for `zmm`).
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

/// Runs `f` with the AVX-512 encryption backend.
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn encrypt(k: &super::Keys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    f.call(&Backend(k.tables()))
}

/// Runs `f` with the AVX-512 decryption backend.
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn decrypt(k: &super::Keys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    f.call(&Backend(k.tables()))
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key size: tail lengths
    /// around 32 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 32);
    }

    /// The VBMI key schedule builds the same tables as the scalar one, for every key size.
    #[test]
    fn avx512_tables_match_soft() {
        if !testkit::available("avx512", crate::backends::vbmi_available()) {
            return;
        }
        let mut rng = testkit::Rng::new(testkit::seed(0x7AB1E5));
        for _ in 0..300 {
            for n in [16, 24, 32] {
                let key = rng.bytes(n);
                let (a, b) = (super::super::Tables::new(&key), {
                    // SAFETY: `vbmi_available` found AVX2, AVX-512F/BW and AVX-512 VBMI.
                    unsafe { super::tables(&key, None) }
                });
                assert!(a.k == b.k && a.s == b.s, "key {key:02x?}");
            }
        }
    }
}
