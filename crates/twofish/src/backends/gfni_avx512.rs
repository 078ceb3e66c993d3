//! AVX-512 with VBMI and GFNI, byte-sliced: 64 blocks as sixteen byte planes (`zmm`
//! register `q` holds byte `q` of all 64 blocks), no memory look-ups.
//!
//! A word is four planes, least significant byte first, so `g`'s byte `j` is a whole
//! register: S-box `j` is one 256-byte look-up of 64 bytes (two `vpermi2b` over 128-byte
//! halves, merged on the index's top bit), and the MDS matrix is, per input plane, one
//! `gf2p8affineqb` for each of its coefficients 0x5b and 0xef (multiplication by a
//! constant in Twofish's field is linear over GF(2)) and XORs. In the word-per-lane
//! layout each S-box look-up served one byte in four and the MDS needed rotations; here
//! `g` costs 8 `vpermi2b` and 8 affine products per 64 words, against 32 and 16.
//! The 32-bit additions of the PHT run on the planes with carries passed as masks, and
//! the 1-bit rotations are byte shifts merged across planes; `x <<< 8` is free (a
//! renaming of planes).
//!
//! Byte-slicing for table ciphers on SIMD: Kivilinna, "Block Ciphers: Fast
//! Implementations on x86-64 Architecture" (2013); the field map of the MDS to
//! `gf2p8affineqb` matrices is the usual GFNI technique (Intel's GFNI whitepaper).
//!
//! Constant time: no memory access and no branch depends on data or key (the S-box
//! tables are whole registers, indexed by `vpermi2b`); the only branches are on the
//! number of blocks.

use core::arch::x86_64::*;

mod words;
pub(crate) use words::PHI;

use super::soft::{MDS_POLY, Tables, gf_mult};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U16, U64},
    inout::{InOut, InOutBuf},
};

/// A call or leftover of at least this many blocks is padded to a full pass; fewer go
/// to the word-per-lane code ([`words`]): on Zen 4 a pass costs about 1750 TSC cycles
/// for any number of blocks, that code about 47 a block in batches of 16, so they break
/// even near 37.
const MIN_PAD: usize = 37;

/// The MDS matrix: output byte `i` is `Σ M[i][j]·yⱼ` over the S-box outputs `yⱼ`.
use words::M;

/// The `gf2p8affineqb` matrix of multiplication by `c` in GF(2^8)/0x169: row `i` (byte
/// `7 − i`) has bit `k` set when bit `i` of `c·2ᵏ` is set.
const fn mul_matrix(c: u8) -> i64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < 8 {
        let mut row = 0u8;
        let mut k = 0;
        while k < 8 {
            if gf_mult(c, 1 << k, MDS_POLY) & (1 << i) != 0 {
                row |= 1 << k;
            }
            k += 1;
        }
        m |= (row as u64) << (8 * (7 - i));
        i += 1;
    }
    m as i64
}

const MUL_5B: i64 = mul_matrix(0x5b);
const MUL_EF: i64 = mul_matrix(0xef);

/// Index vectors of one level of a byte transposition of two registers `a`, `b` that
/// each hold `64 / g` blocks of `g` bytes, block-major (`blk * g + p`) or position-major
/// (`p * (64 / g) + blk`). The outputs are position-major: `lo` holds positions
/// `0..g/2` of all `128 / g` blocks (`a`'s first), `hi` positions `g/2..g`. Four levels
/// (g = 16, 8, 4, 2) turn sixteen registers of four 16-byte blocks into byte planes.
const fn level(g: usize, block_major: bool) -> [[u8; 64]; 2] {
    let nb = 64 / g;
    let mut out = [[0u8; 64]; 2];
    let mut half = 0;
    while half < 2 {
        let mut p = 0;
        while p < g / 2 {
            let mut blk = 0;
            while blk < 2 * nb {
                let (src, b) = (blk / nb, blk % nb);
                let pos = half * g / 2 + p;
                let at = if block_major {
                    b * g + pos
                } else {
                    pos * nb + b
                };
                out[half][p * 2 * nb + blk] = (64 * src + at) as u8;
                blk += 1;
            }
            p += 1;
        }
        half += 1;
    }
    out
}

/// The inverse of [`level`]: index vectors taking `lo`, `hi` back to `a`, `b`.
const fn unlevel(g: usize, block_major: bool) -> [[u8; 64]; 2] {
    let fwd = level(g, block_major);
    let mut out = [[0u8; 64]; 2];
    let mut d = 0;
    while d < 128 {
        let s = fwd[d / 64][d % 64] as usize;
        out[s / 64][s % 64] = d as u8;
        d += 1;
    }
    out
}

/// The four levels, forward and inverse.
const LEVELS: [[[u8; 64]; 2]; 4] = [
    level(16, true),
    level(8, false),
    level(4, false),
    level(2, false),
];
const UNLEVELS: [[[u8; 64]; 2]; 4] = [
    unlevel(16, true),
    unlevel(8, false),
    unlevel(4, false),
    unlevel(2, false),
];

/// Which register holds byte `q` of the blocks after [`transpose`]: found by running
/// the four steps on the labels `q` of the bytes.
const PLANE: [usize; 16] = {
    let mut x = [[0u8; 64]; 16];
    let mut r = 0;
    while r < 16 {
        let mut b = 0;
        while b < 64 {
            x[r][b] = (b % 16) as u8;
            b += 1;
        }
        r += 1;
    }
    let mut l = 0;
    while l < 4 {
        let mut y = [[0u8; 64]; 16];
        let mut m = 0;
        while m < 8 {
            let mut half = 0;
            while half < 2 {
                let mut d = 0;
                while d < 64 {
                    let s = LEVELS[l][half][d] as usize;
                    y[m + 8 * half][d] = x[2 * m + s / 64][s % 64];
                    d += 1;
                }
                half += 1;
            }
            m += 1;
        }
        x = y;
        l += 1;
    }
    let mut at = [0usize; 16];
    let mut r = 0;
    while r < 16 {
        at[x[r][0] as usize] = r;
        r += 1;
    }
    at
};

/// Sixteen registers of four blocks each to sixteen byte planes, or back with `INV`.
/// Each step pairs registers `2m`, `2m + 1` into `m` (low positions) and `m + 8`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn transpose<const INV: bool>(mut x: [__m512i; 16]) -> [__m512i; 16] {
    let ix = |v: &[u8; 64]| {
        // SAFETY: `v` is 64 readable bytes; `loadu` is unaligned.
        unsafe { _mm512_loadu_si512(v.as_ptr().cast()) }
    };
    for l in 0..4 {
        let mut y = x;
        if INV {
            let [lo, hi] = &UNLEVELS[3 - l];
            for m in 0..8 {
                y[2 * m] = _mm512_permutex2var_epi8(x[m], ix(lo), x[m + 8]);
                y[2 * m + 1] = _mm512_permutex2var_epi8(x[m], ix(hi), x[m + 8]);
            }
        } else {
            let [lo, hi] = &LEVELS[l];
            for m in 0..8 {
                y[m] = _mm512_permutex2var_epi8(x[2 * m], ix(lo), x[2 * m + 1]);
                y[m + 8] = _mm512_permutex2var_epi8(x[2 * m], ix(hi), x[2 * m + 1]);
            }
        }
        x = y;
    }
    x
}

/// A word as four byte planes, least significant first.
type Word = [__m512i; 4];

/// The key's S-boxes `sⱼ` as 256-byte tables in registers, and the key as stored
/// (subkeys; the φ-tables of the narrower code for short calls).
struct Keys<'a> {
    s: [[__m512i; 4]; 4],
    t: &'a Tables,
    s8: &'a [[u8; 256]; 4],
}

/// `s8[j][x]` = φ(sⱼ(x)) (the `gfni_avx512` key layout); φ⁻¹ gives sⱼ back.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn keys<'a>(t: &'a Tables, s8: &'a [[u8; 256]; 4]) -> Keys<'a> {
    let inv = _mm512_set1_epi64(words::PHI_INV_MATRIX as i64);
    let s = core::array::from_fn(|j| {
        let b = &s8[j];
        core::array::from_fn(|q| {
            // SAFETY: `b` is 256 readable bytes; `loadu` is unaligned.
            let v = unsafe { _mm512_loadu_si512(b.as_ptr().add(64 * q).cast()) };
            _mm512_gf2p8affine_epi64_epi8::<0>(v, inv)
        })
    });
    Keys { s, t, s8 }
}

/// The 256-byte table `t` at the 64 indices `x`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn lookup(t: &[__m512i; 4], x: __m512i) -> __m512i {
    let lo = _mm512_permutex2var_epi8(t[0], x, t[1]);
    let hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
    _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
}

/// `g` on 64 words.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn g(k: &Keys<'_>, x: Word) -> Word {
    let y: Word = core::array::from_fn(|j| lookup(&k.s[j], x[j]));
    let m5 = _mm512_set1_epi64(MUL_5B);
    let me = _mm512_set1_epi64(MUL_EF);
    let y5 = y.map(|y| _mm512_gf2p8affine_epi64_epi8::<0>(y, m5));
    let ye = y.map(|y| _mm512_gf2p8affine_epi64_epi8::<0>(y, me));
    core::array::from_fn(|i| {
        let term = |j: usize| match M[i][j] {
            0x01 => y[j],
            0x5b => y5[j],
            _ => ye[j],
        };
        _mm512_xor_si512(
            _mm512_ternarylogic_epi32::<0x96>(term(0), term(1), term(2)),
            term(3),
        )
    })
}

/// `a + b` (mod 2^32) on byte planes: the carry out of plane `j` is the majority of the
/// top bits of `a`, `b` and the carry in, `(a & b) | ((a | b) & !s)` (`vpternlogd` 0xD4),
/// moved into a mask by `vpmovb2m` and added to plane `j + 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn add(a: Word, b: Word) -> Word {
    let ones = _mm512_set1_epi8(-1);
    let mut s = a;
    let mut carry: __mmask64 = 0;
    for j in 0..4 {
        let t = _mm512_add_epi8(a[j], b[j]);
        s[j] = if j == 0 {
            t
        } else {
            _mm512_mask_sub_epi8(t, carry, t, ones)
        };
        if j < 3 {
            carry = _mm512_movepi8_mask(_mm512_ternarylogic_epi32::<0xD4>(a[j], b[j], s[j]));
        }
    }
    s
}

/// `a + k` for a subkey `k` broadcast into the planes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn add_key(a: Word, k: u32) -> Word {
    add(
        a,
        [0, 1, 2, 3].map(|j| _mm512_set1_epi8((k >> (8 * j)) as i8)),
    )
}

/// `a ^ b`.
#[inline]
#[target_feature(enable = "avx512f")]
fn xor(a: Word, b: Word) -> Word {
    [0, 1, 2, 3].map(|j| _mm512_xor_si512(a[j], b[j]))
}

/// `a ^ k` for a subkey `k`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn xor_key(a: Word, k: u32) -> Word {
    [0, 1, 2, 3].map(|j| _mm512_xor_si512(a[j], _mm512_set1_epi8((k >> (8 * j)) as i8)))
}

/// `x >>> 1`: each plane shifted right by one bit, the low bit of the next plane on top
/// (16-bit shifts, the bits that crossed a byte replaced by a bit-select).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn ror1(x: Word) -> Word {
    let m = _mm512_set1_epi8(0x7f);
    core::array::from_fn(|j| {
        let lo = _mm512_srli_epi16::<1>(x[j]);
        let top = _mm512_slli_epi16::<7>(x[(j + 1) % 4]);
        _mm512_ternarylogic_epi32::<0xCA>(m, lo, top)
    })
}

/// `x <<< 1`: each plane doubled, the top bit of the previous plane below.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn rol1(x: Word) -> Word {
    let m = _mm512_set1_epi8(-2);
    core::array::from_fn(|j| {
        let hi = _mm512_add_epi8(x[j], x[j]);
        let bottom = _mm512_srli_epi16::<7>(x[(j + 3) % 4]);
        _mm512_ternarylogic_epi32::<0xCA>(m, hi, bottom)
    })
}

/// `x <<< 8`: the planes renamed.
#[inline(always)]
fn rol8(x: Word) -> Word {
    [x[3], x[0], x[1], x[2]]
}

/// `(t0 + t1 + ka, t0 + 2·t1 + kb)` for `t0 = g(a)`, `t1 = g(b <<< 8)`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn f(k: &Keys<'_>, a: Word, b: Word, ka: u32, kb: u32) -> (Word, Word) {
    let t0 = g(k, a);
    let t1 = g(k, rol8(b));
    let u = add(t0, t1);
    (add_key(u, ka), add_key(add(u, t1), kb))
}

/// 64 blocks (as words of planes) through the cipher.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn encrypt_words(kk: &Keys<'_>, x: [Word; 4]) -> [Word; 4] {
    let k = &kk.t.k;
    let mut s: [Word; 4] = core::array::from_fn(|i| xor_key(x[i], k[i]));
    for r in 0..8 {
        let kr = 4 * r + 8;
        for (a, b, c, d, ka, kb) in [(0, 1, 2, 3, kr, kr + 1), (2, 3, 0, 1, kr + 2, kr + 3)] {
            let (f0, f1) = f(kk, s[a], s[b], k[ka], k[kb]);
            s[c] = ror1(xor(s[c], f0));
            s[d] = xor(rol1(s[d]), f1);
        }
    }
    [
        xor_key(s[2], k[4]),
        xor_key(s[3], k[5]),
        xor_key(s[0], k[6]),
        xor_key(s[1], k[7]),
    ]
}

/// 64 blocks (as words of planes) back through the cipher.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn decrypt_words(kk: &Keys<'_>, x: [Word; 4]) -> [Word; 4] {
    let k = &kk.t.k;
    let mut s = [
        xor_key(x[2], k[6]),
        xor_key(x[3], k[7]),
        xor_key(x[0], k[4]),
        xor_key(x[1], k[5]),
    ];
    for r in (0..8).rev() {
        let kr = 4 * r + 8;
        for (a, b, c, d, ka, kb) in [(2, 3, 0, 1, kr + 2, kr + 3), (0, 1, 2, 3, kr, kr + 1)] {
            let (f0, f1) = f(kk, s[a], s[b], k[ka], k[kb]);
            s[c] = xor(rol1(s[c]), f0);
            s[d] = ror1(xor(s[d], f1));
        }
    }
    core::array::from_fn(|i| xor_key(s[i], k[i]))
}

/// The first 64 blocks of `blocks` through the cipher, as sixteen registers.
///
/// Not inlined: `cargo xtask ct` checks this function's code for secret-dependent
/// branches and addresses, apart from the table code that short leftovers run (a call
/// per 64 blocks costs nothing measurable).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn pass(k: &Keys<'_>, blocks: &[Block], enc: bool) -> [__m512i; 16] {
    let p = blocks[..64].as_ptr().cast::<__m512i>();
    // SAFETY: 64 blocks are 1024 readable bytes; `loadu` is unaligned.
    let v: [__m512i; 16] = core::array::from_fn(|i| unsafe { _mm512_loadu_si512(p.add(i)) });
    let b = transpose::<false>(v);
    // Byte 4i + j of a block is byte j of word i (little-endian words).
    let x: [Word; 4] = core::array::from_fn(|i| core::array::from_fn(|j| b[PLANE[4 * i + j]]));
    let y = if enc {
        encrypt_words(k, x)
    } else {
        decrypt_words(k, x)
    };
    let mut o = b;
    for i in 0..4 {
        for j in 0..4 {
            o[PLANE[4 * i + j]] = y[i][j];
        }
    }
    transpose::<true>(o)
}

/// Writes sixteen registers to the first 64 blocks of `blocks`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(blocks: &mut [Block], v: [__m512i; 16]) {
    let p = blocks[..64].as_mut_ptr().cast::<__m512i>();
    for (i, v) in v.into_iter().enumerate() {
        // SAFETY: 64 blocks are 1024 writable bytes; `storeu` is unaligned.
        unsafe { _mm512_storeu_si512(p.add(i), v) };
    }
}

/// Any number of blocks: passes of 64, a leftover of at least [`MIN_PAD`] blocks padded
/// to one more pass, fewer to the word-per-lane code.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn run_blocks(k: &Keys<'_>, mut buf: InOutBuf<'_, '_, Block>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 64 {
        let v = pass(k, &buf.get_in()[at..], enc);
        store(&mut buf.get_out()[at..], v);
        at += 64;
    }
    let (_, mut rest) = buf.split_at(at);
    let m = rest.len();
    if m >= MIN_PAD {
        let mut tmp = [Block::default(); 64];
        tmp[..m].copy_from_slice(rest.get_in());
        let v = pass(k, &tmp, enc);
        store(&mut tmp, v);
        rest.get_out().copy_from_slice(&tmp[..m]);
    } else {
        words::run_blocks(k.t, k.s8, rest, enc);
    }
}

struct Backend<'a>(Keys<'a>);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// 64 blocks: one byte plane per `zmm` needs a byte of each of 64 blocks. The state is
/// 16 registers, the S-boxes 16 more; the look-ups take some of the tables from memory.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U64;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.t.encrypt_one(block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::GfniAvx512`.
        unsafe { run_blocks(&self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(&self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.t.decrypt_one(block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(&self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(&self.0, blocks, false) }
    }
}

/// Runs `f` with the byte-sliced encryption backend.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub(crate) fn encrypt(k: &super::Keys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    f.call(&Backend(keys(&k.t, &k.s8)))
}

/// Runs `f` with the byte-sliced decryption backend.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub(crate) fn decrypt(k: &super::Keys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    f.call(&Backend(keys(&k.t, &k.s8)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planes are where [`PLANE`] says, and every level is a permutation.
    #[test]
    fn plane_map_is_a_permutation() {
        let mut seen = [false; 16];
        for &r in &PLANE {
            assert!(!seen[r]);
            seen[r] = true;
        }
        for l in LEVELS.iter().flatten() {
            let mut s = [false; 128];
            for &x in l {
                s[x as usize] = true;
            }
            assert_eq!(s.iter().filter(|&&b| b).count(), 64);
        }
    }

    /// ECB both ways against `soft`: tail lengths around 64 blocks (padded passes, the
    /// word-per-lane code's 32 and 16, and the portable rest), misaligned buffers,
    /// sentinels.
    #[test]
    fn gfni_avx512_matches_soft() {
        crate::backends::check_matches_soft("gfni_avx512", 64);
    }
}
