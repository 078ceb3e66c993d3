//! AVX-512 VBMI: 64 blocks byte-sliced, the S-boxes applied with `vpermi2b`, no gathers
//! and no memory access indexed by data.
//!
//! The blocks are transposed into eight byte planes (`zmm` register `q` holds byte `q` of
//! all 64 blocks), so a word is four registers, least significant byte first. Each S-box
//! is cut into four 256-byte tables, one per byte of its words ([`Planes`], built from
//! the key-dependent S-boxes once per call); looking up 64 index bytes in a 256-byte
//! table is two `vpermi2b` over 128 bytes each, merged on the index's top bit. F's two
//! 32-bit additions run on the planes with the carries passed between them as masks.
//! This is the byte-slicing of Kivilinna's thesis ("Block Ciphers: Fast Implementations
//! on x86-64 Architecture", 2013, which used `pshufb` on 16-byte tables for Camellia)
//! with the 128-byte tables of `vpermi2b`, as the `twofish` crate's `gfni_avx512`
//! backend holds its 8→8 S-boxes.
//!
//! Per half-round of 64 blocks: 32 `vpermi2b`, 16 blends, 2 additions of 13
//! instructions, 8 XORs — about 1.5 instructions per byte of data, none of them the
//! 16 loads of a gather. Two groups of 64 blocks run interleaved, sharing the table
//! loads. Short calls and leftovers (fewer than [`MIN_PAD`] blocks) go to the portable
//! code: a pass costs the same for 1 block as for 64.
//!
//! Constant time: the tables are read whole, at fixed addresses; the only branches are on
//! the number of blocks.

use core::arch::x86_64::*;
use core::cell::OnceCell;

use super::{State, soft};
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U8, U128},
    inout::{InOut, InOutBuf},
};

/// A 64-bit block.
type Block = Array<u8, U8>;

/// A call or leftover of at least this many blocks is padded to a full pass; fewer run
/// on the portable code. On Zen 4 a pass with the table set-up of the call costs about
/// 1700 TSC cycles whatever it holds (`speed --bin auto` at 128–256 bytes), the
/// portable code 44 a block, so they break even near 38 blocks.
const MIN_PAD: usize = 40;

/// The S-boxes as byte tables: `0[4 * i + j]` holds byte `j` (least significant first)
/// of S-box `i`'s 256 words, as four `zmm` (entries 0–63, …, 192–255).
#[repr(C, align(64))]
struct Planes([[__m512i; 4]; 16]);

/// Index vectors of one level of a byte transposition of two registers `a`, `b` that
/// each hold `64 / g` blocks of `g` bytes, block-major (`blk * g + p`) or position-major
/// (`p * (64 / g) + blk`). The outputs are position-major: `lo` holds positions
/// `0..g/2` of all `128 / g` blocks (`a`'s first), `hi` positions `g/2..g`. Three levels
/// (g = 8, 4, 2) turn eight registers of eight 8-byte blocks into eight byte planes.
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

const L8: [[u8; 64]; 2] = level(8, true);
const L4: [[u8; 64]; 2] = level(4, false);
const L2: [[u8; 64]; 2] = level(2, false);
const U8_: [[u8; 64]; 2] = unlevel(8, true);
const U4: [[u8; 64]; 2] = unlevel(4, false);
const U2: [[u8; 64]; 2] = unlevel(2, false);
/// The S-box words (4 bytes each, block-major) to byte planes: levels g = 4, 2.
const W4: [[u8; 64]; 2] = level(4, true);

/// `(lo, hi)` of one transposition level over `a`, `b` (index vectors `ix`).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn pair(a: __m512i, b: __m512i, ix: &[[u8; 64]; 2]) -> (__m512i, __m512i) {
    // SAFETY: `ix` holds two 64-byte vectors; `loadu` is unaligned.
    let (il, ih) = unsafe {
        (
            _mm512_loadu_si512(ix[0].as_ptr().cast()),
            _mm512_loadu_si512(ix[1].as_ptr().cast()),
        )
    };
    (
        _mm512_permutex2var_epi8(a, il, b),
        _mm512_permutex2var_epi8(a, ih, b),
    )
}

/// Eight registers of eight blocks each to eight byte planes (plane `q` = byte `q` of
/// every block, blocks in order), or back with `inv`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn transpose<const INV: bool>(v: [__m512i; 8]) -> [__m512i; 8] {
    // Forward: level 8 on (v0,v1) … (v6,v7); level 4 on the halves of positions 0–3
    // and 4–7 of blocks 0–31 and 32–63; level 2 on the pairs of position pairs. The
    // register order at each step is chosen so that every level pairs `x[2m]`, `x[2m+1]`.
    let step = |x: [__m512i; 8], ix: &[[u8; 64]; 2]| {
        let mut y = [x[0]; 8];
        for m in 0..4 {
            (y[m], y[m + 4]) = pair(x[2 * m], x[2 * m + 1], ix);
        }
        y
    };
    let unstep = |y: [__m512i; 8], ix: &[[u8; 64]; 2]| {
        let mut x = [y[0]; 8];
        for m in 0..4 {
            (x[2 * m], x[2 * m + 1]) = pair(y[m], y[m + 4], ix);
        }
        x
    };
    if INV {
        unstep(unstep(unstep(v, &U2), &U4), &U8_)
    } else {
        step(step(step(v, &L8), &L4), &L2)
    }
}

/// Where byte `q` of the blocks ends up after [`transpose`]: the steps put position
/// `q` in register `[0, 4, 2, 6, 1, 5, 3, 7][q]`.
const PLANE: [usize; 8] = {
    // Trace the three steps: after a step, register m holds the low half of the pair
    // (2m, 2m+1)'s positions and register m + 4 the high half.
    let mut at = [0usize; 8];
    let mut q = 0;
    while q < 8 {
        // Level 8 splits q into q / 4 (half) and q % 4; level 4 into (q % 4) / 2; level 2
        // into q % 2. Each step moves the half bit into the top of the register index.
        let (h8, h4, h2) = (q / 4, (q % 4) / 2, q % 2);
        at[q] = h2 * 4 + h4 * 2 + h8;
        q += 1;
    }
    at
};

impl Planes {
    /// Cuts the four S-boxes of `st` into byte tables.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn new(st: &State) -> Self {
        let mut t = Planes([[_mm512_setzero_si512(); 4]; 16]);
        for (i, s) in st.s.iter().enumerate() {
            for q in 0..4 {
                // SAFETY: `s` holds 256 words; this reads words 64q..64q+64, in bounds.
                let w = unsafe {
                    let p = s.as_ptr().add(64 * q).cast::<__m512i>();
                    [
                        _mm512_loadu_si512(p),
                        _mm512_loadu_si512(p.add(1)),
                        _mm512_loadu_si512(p.add(2)),
                        _mm512_loadu_si512(p.add(3)),
                    ]
                };
                // Level 4 on words 0–31, 32–63 (bytes 0–1 | 2–3), then level 2.
                let (lo01, hi01) = pair(w[0], w[1], &W4);
                let (lo23, hi23) = pair(w[2], w[3], &W4);
                let (b0, b1) = pair(lo01, lo23, &L2);
                let (b2, b3) = pair(hi01, hi23, &L2);
                // Words are stored in native (little-endian) order: byte 0 is the least
                // significant.
                for (j, b) in [b0, b1, b2, b3].into_iter().enumerate() {
                    t.0[4 * i + j][q] = b;
                }
            }
        }
        t
    }
}

/// Byte `j` of S-box `i`'s words at the 64 indices `x` (`hi`: the indices ≥ 128).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn lookup(t: &[__m512i; 4], x: __m512i, hi: __mmask64) -> __m512i {
    let lo_half = _mm512_permutex2var_epi8(t[0], x, t[1]);
    let hi_half = _mm512_permutex2var_epi8(t[2], x, t[3]);
    _mm512_mask_blend_epi8(hi, lo_half, hi_half)
}

/// A word as four byte planes, least significant first.
type Word = [__m512i; 4];

/// S-box `i` at the index bytes `x` of `N` groups of 64 words: four planes each. Each
/// table is loaded once for all the groups.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn sbox<const N: usize>(t: &Planes, i: usize, x: [__m512i; N]) -> [Word; N] {
    let mut hi = [0; N];
    for g in 0..N {
        hi[g] = _mm512_movepi8_mask(x[g]);
    }
    let mut out = [x; 4].map(|_| [_mm512_setzero_si512(); N]);
    for (j, out) in out.iter_mut().enumerate() {
        let tb = &t.0[4 * i + j];
        for g in 0..N {
            out[g] = lookup(tb, x[g], hi[g]);
        }
    }
    let mut w = [[_mm512_setzero_si512(); 4]; N];
    for g in 0..N {
        for j in 0..4 {
            w[g][j] = out[j][g];
        }
    }
    w
}

/// `a + b` (mod 2^32) on byte planes: the carry out of plane `j` is the majority of the
/// top bits of `a`, `b` and the carry in, `(a & b) | ((a | b) & !s)` (`vpternlogd` 0xD4),
/// moved into a mask by `vpmovb2m` and added to plane `j + 1` by a masked subtraction of −1.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
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

/// The round function F on `N` groups of 64 words: `((S0[x3] + S1[x2]) ^ S2[x1]) + S3[x0]`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn f<const N: usize>(t: &Planes, x: &[Word; N]) -> [Word; N] {
    let byte = |j: usize| {
        let mut b = [_mm512_setzero_si512(); N];
        for g in 0..N {
            b[g] = x[g][j];
        }
        b
    };
    let (a, b) = (sbox(t, 0, byte(3)), sbox(t, 1, byte(2)));
    let mut y = [[_mm512_setzero_si512(); 4]; N];
    for g in 0..N {
        y[g] = add(a[g], b[g]);
    }
    let c = sbox(t, 2, byte(1));
    for g in 0..N {
        for j in 0..4 {
            y[g][j] = _mm512_xor_si512(y[g][j], c[g][j]);
        }
    }
    let d = sbox(t, 3, byte(0));
    for g in 0..N {
        y[g] = add(y[g], d[g]);
    }
    y
}

/// `y ^ F-output ^ k` (the subkey `k` broadcast into each plane).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn xor3(y: Word, fx: Word, k: u32) -> Word {
    [0, 1, 2, 3].map(|j| {
        let kb = _mm512_set1_epi8((k >> (8 * j)) as u8 as i8);
        _mm512_ternarylogic_epi32::<0x96>(y[j], fx[j], kb)
    })
}

/// `N` groups of 64 blocks as planes `(l, r)` through the 16 rounds, interleaved;
/// returns `(r, l)` of the last round (the output words in block order).
///
/// Two groups share each table load between two `vpermi2b`: one group alone is bound by
/// loading the tables (two 64-byte loads per `vpermi2b`, and Zen 4 loads one a cycle).
/// Timed on Zen 4 in one process, alternating (TSC cycles per byte): two passes of one
/// group 2.44, one pass of two 1.88, of three 1.84, of four 2.26 (spills).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn crypt<const DEC: bool, const N: usize>(
    st: &State,
    t: &Planes,
    mut l: [Word; N],
    mut r: [Word; N],
) -> ([Word; N], [Word; N]) {
    let pk = |k: usize| if DEC { st.p[17 - k] } else { st.p[k] };
    let zero = [_mm512_setzero_si512(); 4];
    for l in l.iter_mut() {
        *l = xor3(*l, zero, pk(0));
    }
    let mut k = 1;
    while k < 17 {
        let fl = f(t, &l);
        for g in 0..N {
            r[g] = xor3(r[g], fl[g], pk(k));
        }
        let fr = f(t, &r);
        for g in 0..N {
            l[g] = xor3(l[g], fr[g], pk(k + 1));
        }
        k += 2;
    }
    for r in r.iter_mut() {
        *r = xor3(*r, zero, pk(17));
    }
    (r, l)
}

/// `N` groups of 64 blocks (eight registers of eight each, as loaded) through the cipher.
///
/// Not inlined: `cargo xtask ct` checks this function's code for secret-dependent
/// branches and addresses, apart from the portable code its callers also run (a call per
/// 64 or 128 blocks costs nothing measurable).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn pass<const LE: bool, const DEC: bool, const N: usize>(
    st: &State,
    t: &Planes,
    v: [[__m512i; 8]; N],
) -> [[__m512i; 8]; N] {
    let mut b = v;
    for b in b.iter_mut() {
        *b = transpose::<false>(*b);
    }
    // Byte q of a block is plane PLANE[q]; the first word is bytes 0–3, big-endian
    // (byte 3 least significant) unless `LE`.
    let at = |word: usize, j: usize| PLANE[4 * word + if LE { j } else { 3 - j }];
    let mut l = [[_mm512_setzero_si512(); 4]; N];
    let mut r = l;
    for g in 0..N {
        for j in 0..4 {
            l[g][j] = b[g][at(0, j)];
            r[g][j] = b[g][at(1, j)];
        }
    }
    let (x, y) = crypt::<DEC, N>(st, t, l, r);
    for g in 0..N {
        for j in 0..4 {
            b[g][at(0, j)] = x[g][j];
            b[g][at(1, j)] = y[g][j];
        }
        b[g] = transpose::<true>(b[g]);
    }
    b
}

/// The first `64 N` blocks of `blocks`, as `N` groups of eight registers.
#[inline]
#[target_feature(enable = "avx512f")]
fn load<const N: usize>(blocks: &[Block]) -> [[__m512i; 8]; N] {
    let p = blocks[..64 * N].as_ptr().cast::<__m512i>();
    let mut v = [[_mm512_setzero_si512(); 8]; N];
    for (i, v) in v.as_flattened_mut().iter_mut().enumerate() {
        // SAFETY: 64·N blocks are 512·N readable bytes; `loadu` is unaligned.
        *v = unsafe { _mm512_loadu_si512(p.add(i)) };
    }
    v
}

/// Writes `N` groups of eight registers to the first `64 N` blocks of `blocks`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store<const N: usize>(blocks: &mut [Block], v: [[__m512i; 8]; N]) {
    let p = blocks[..64 * N].as_mut_ptr().cast::<__m512i>();
    for (i, v) in v.as_flattened().iter().enumerate() {
        // SAFETY: 64·N blocks are 512·N writable bytes; `storeu` is unaligned.
        unsafe { _mm512_storeu_si512(p.add(i), *v) };
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512 VBMI.
struct Wide<'a, const LE: bool> {
    st: &'a State,
    /// The byte tables, built by the first call with a full pass.
    t: OnceCell<Planes>,
}

impl<const LE: bool> Wide<'_, LE> {
    /// Any number of blocks: passes of 128 and 64, a leftover of at least [`MIN_PAD`]
    /// blocks padded to a pass of 64, fewer to the portable code.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn run<const DEC: bool>(&self, mut buf: InOutBuf<'_, '_, Block>) {
        let n = buf.len();
        if n < MIN_PAD {
            return soft::run_blocks::<LE, DEC>(self.st, buf);
        }
        let t = self.t.get_or_init(|| Planes::new(self.st));
        let mut at = 0;
        while n - at >= 128 {
            let v = load::<2>(&buf.get_in()[at..]);
            store(&mut buf.get_out()[at..], pass::<LE, DEC, 2>(self.st, t, v));
            at += 128;
        }
        if n - at >= 64 {
            let v = load::<1>(&buf.get_in()[at..]);
            store(&mut buf.get_out()[at..], pass::<LE, DEC, 1>(self.st, t, v));
            at += 64;
        }
        let (_, mut rest) = buf.split_at(at);
        let k = rest.len();
        if k >= MIN_PAD {
            let mut tmp = [Block::default(); 64];
            tmp[..k].copy_from_slice(rest.get_in());
            let v = pass::<LE, DEC, 1>(self.st, t, load::<1>(&tmp));
            store(&mut tmp, v);
            rest.get_out().copy_from_slice(&tmp[..k]);
        } else {
            soft::run_blocks::<LE, DEC>(self.st, rest);
        }
    }
}

impl<const LE: bool> BlockSizeUser for Wide<'_, LE> {
    type BlockSize = U8;
}

/// 128 blocks, two groups of 64: one byte plane per `zmm` register needs a byte from
/// each of 64 blocks, and two groups share the table loads (see [`crypt`]). The state is
/// 16 registers (two words of four planes per group); F's S-box outputs and sums take
/// most of the rest, the tables are memory operands of `vpermi2b`.
impl<const LE: bool> ParBlocksSizeUser for Wide<'_, LE> {
    type ParBlocksSize = U128;
}

impl<const LE: bool> BlockCipherEncBackend for Wide<'_, LE> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::one::<LE, false>(self.st, block);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Wide` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Vbmi` (AVX-512F, BW and VBMI with OS support for `zmm`).
        unsafe { self.run::<false>(blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run::<false>(blocks) }
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
        unsafe { self.run::<true>(blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run::<true>(blocks) }
    }
}

/// Runs `f` with the VBMI encryption backend.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) fn encrypt<const LE: bool>(st: &State, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> {
        st,
        t: OnceCell::new(),
    })
}

/// Runs `f` with the VBMI decryption backend.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) fn decrypt<const LE: bool>(st: &State, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> {
        st,
        t: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transposition levels and their inverses are permutations of 128 bytes.
    #[test]
    fn levels_are_bijections() {
        for (g, bm) in [(8, true), (4, false), (2, false), (4, true)] {
            let f = level(g, bm);
            let mut seen = [false; 128];
            for x in f.iter().flatten() {
                assert!(!seen[*x as usize]);
                seen[*x as usize] = true;
            }
            let u = unlevel(g, bm);
            for d in 0..128 {
                let s = f[d / 64][d % 64] as usize;
                assert_eq!(u[s / 64][s % 64] as usize, d);
            }
        }
    }

    /// ECB encryption and decryption against `soft`, both byte orders, random key
    /// lengths: tail lengths around 128 blocks (passes of 128 and 64, padded passes and the portable rest),
    /// misaligned buffers, sentinels.
    #[test]
    fn vbmi_matches_soft() {
        crate::backends::check_matches_soft("vbmi", 128);
    }
}
