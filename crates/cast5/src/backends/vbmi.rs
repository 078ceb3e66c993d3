//! AVX-512 VBMI: 128 blocks per pass with the S-boxes held as byte tables and looked up
//! with `vpermi2b`, so no memory access of this file's code depends on data or key, and
//! no branch does (constant time; what it hands to `soft` is not, see below).
//!
//! Byte-sliced S-boxes, as `twofish`'s `gfni_avx512` does for its 8→8 S-boxes: CAST5's
//! S1–S4 are fixed 8→32 tables, split here into 16 byte tables of 256 entries
//! ([`BYTES`], 4 KiB). A look-up of 64 indices in a 256-entry byte table is two
//! `vpermi2b` over 128 entries each (the index's bits 0–6) and a `vpblendmb` on bit 7
//! (`vpmovb2m`). The table addresses are fixed, so loading the tables that do not fit in
//! the 32 registers leaks nothing.
//!
//! The halves `L`, `R` stay in 32-bit lanes, four `zmm` each (16 blocks per register):
//! `(Km op D) <<< Kr` is `vpaddd`/`vpxord`/`vpsubd` and `vprolvd` there. Its four
//! registers are transposed into four byte planes (plane `j` = byte `j` of all 64
//! blocks, [`to_planes`]), each plane indexes the four byte tables of its S-box, and the
//! four output planes of an S-box go back to 32-bit lanes with `vpunpck*` ([`to_dwords`])
//! for the round's `+`, `^` and `−` (type 1's `S1 ^ S2` is taken on the planes, one
//! transpose fewer). Combining on the planes instead would need carry chains for `+` and
//! `−` (`vpcmpub` masks, ~16 operations per 32-bit add or subtract against 8 `vpunpck*`
//! per transpose, by count; not built).
//!
//! Passes of 128 blocks (two groups of 64 interleaved), then one of 64; a rest of
//! [`PAD`] blocks or more is padded to a 64-block pass, a shorter one (and every call of
//! fewer than [`PAD`] blocks) runs the portable code, not the next narrower SIMD backend:
//! on the CPUs with slow gathers the gather backends lose to `soft`. (On Intel's with
//! fast gathers, `avx512` would likely run a rest of 16–23 blocks faster than `soft`;
//! not measured there, so not done.)

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{B8, Keys, soft};
use crate::consts::{S1, S2, S3, S4};
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U128},
    inout::{InOut, InOutBuf},
};

/// Blocks per group: 64 = one byte plane per `zmm`.
const PASS: usize = 64;

/// Groups of 64 blocks in flight in the main loop; see the `ParBlocksSizeUser` impl.
const GROUPS: usize = 2;

/// Fewest remaining blocks that are padded to a 64-block pass rather than run by `soft`:
/// the table row's `blocks`, where a padded pass costs what `soft` takes for as many
/// blocks. Measured on Zen 4 (`speed` `auto`, TSC cycles per call): 24 blocks padded
/// 1323, `soft` 1304; a full 64-block pass ~1270.
const PAD: usize = super::token::Vbmi::MIN_BLOCKS;

/// 64-byte aligned, so that every 64-entry quarter of a table is one aligned load.
#[repr(C, align(64))]
struct Align<T>(T);

/// `BYTES.0[s][k]`: byte `k` (bits `8k..8k+8`) of S-box `s + 1`, 256 entries each.
static BYTES: Align<[[[u8; 256]; 4]; 4]> = Align(split([&S1, &S2, &S3, &S4]));

const fn split(s: [&[u32; 256]; 4]) -> [[[u8; 256]; 4]; 4] {
    let mut t = [[[0; 256]; 4]; 4];
    let mut i = 0;
    while i < 4 * 4 * 256 {
        let (b, k, x) = (i / 1024, i / 256 % 4, i % 256);
        t[b][k][x] = (s[b][x] >> (8 * k)) as u8;
        i += 1;
    }
    t
}

/// Indices of [`to_planes`]: `[stage 1, planes 0–1; stage 1, planes 2–3; stage 2, even
/// planes; stage 2, odd planes]`.
static PLANE_IDX: Align<[[u8; 64]; 4]> = Align(plane_idx());

const fn plane_idx() -> [[u8; 64]; 4] {
    let mut t = [[0; 64]; 4];
    let mut p = 0;
    while p < 64 {
        // Stage 1 (registers q = 0, 1 or 2, 3; bytes 2v, 2v + 1): position
        // 32·jj + 16·q + m holds byte 2v + jj of dword m of register q.
        let (jj, q, m) = (p / 32, p / 16 % 2, p % 16);
        t[0][p] = (64 * q + 4 * m + jj) as u8;
        t[1][p] = (64 * q + 4 * m + 2 + jj) as u8;
        // Stage 2: plane position 16·l + 4·q + i is dword m = 4·l + i of register q, the
        // order `to_dwords` brings back (q = 2, 3 from the second operand).
        let (l, q, i) = (p / 16, p / 4 % 4, p % 4);
        let m = 4 * l + i;
        let src = 64 * (q / 2) + 16 * (q % 2) + m;
        t[2][p] = src as u8;
        t[3][p] = (src + 32) as u8;
        p += 1;
    }
    t
}

/// Load and store indices: `[L, R]` of 16 blocks in 128 bytes as big-endian dwords.
static HALF_IDX: Align<[[u8; 64]; 2]> = Align(half_idx());

const fn half_idx() -> [[u8; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut p = 0;
    while p < 64 {
        let (m, b) = (p / 4, p % 4);
        t[0][p] = (8 * m + 3 - b) as u8;
        t[1][p] = (8 * m + 7 - b) as u8;
        p += 1;
    }
    t
}

/// Store indices: 8 blocks from `L` (first operand) and `R` (second), `[blocks 0–7,
/// blocks 8–15]` of the 16.
static OUT_IDX: Align<[[u8; 64]; 2]> = Align(out_idx());

const fn out_idx() -> [[u8; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut p = 0;
    while p < 64 {
        let (m, u) = (p / 8, p % 8);
        let mut h = 0;
        while h < 2 {
            let m = m + 8 * h;
            t[h][p] = if u < 4 {
                4 * m + 3 - u
            } else {
                64 + 4 * m + 7 - u
            } as u8;
            h += 1;
        }
        p += 1;
    }
    t
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn load64(p: &[u8; 64]) -> __m512i {
    // SAFETY: `p` is 64 readable bytes; `loadu` is unaligned.
    unsafe { _mm512_loadu_si512(p.as_ptr().cast()) }
}

/// 64 look-ups of `idx` in byte table `t` (`hi`: the indices with bit 7 set).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn look(t: &[u8; 256], idx: __m512i, hi: __mmask64) -> __m512i {
    let q = |i: usize| load64(t[64 * i..64 * i + 64].try_into().unwrap());
    let lo = _mm512_permutex2var_epi8(q(0), idx, q(1));
    let up = _mm512_permutex2var_epi8(q(2), idx, q(3));
    _mm512_mask_blend_epi8(hi, lo, up)
}

/// S-box `s + 1` on the byte planes `x` of `G` groups: each group's output as four byte
/// planes. The groups share each table's loads.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn sbox<const G: usize>(s: usize, x: [__m512i; G]) -> [[__m512i; 4]; G] {
    let mut hi = [0; G];
    for g in 0..G {
        hi[g] = _mm512_movepi8_mask(x[g]);
    }
    let mut o = [[_mm512_setzero_si512(); 4]; G];
    for (k, t) in BYTES.0[s].iter().enumerate() {
        for g in 0..G {
            o[g][k] = look(t, x[g], hi[g]);
        }
    }
    o
}

/// Four registers of 16 dwords to four byte planes (plane `j`: byte `j` of the 64), two
/// layers of `vpermi2b`; the order of the blocks in a plane is the one [`to_dwords`]
/// undoes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn to_planes(d: [__m512i; 4]) -> [__m512i; 4] {
    let i = &PLANE_IDX.0;
    let (s01, s23) = (load64(&i[0]), load64(&i[1]));
    let (even, odd) = (load64(&i[2]), load64(&i[3]));
    let a01 = _mm512_permutex2var_epi8(d[0], s01, d[1]);
    let a23 = _mm512_permutex2var_epi8(d[0], s23, d[1]);
    let b01 = _mm512_permutex2var_epi8(d[2], s01, d[3]);
    let b23 = _mm512_permutex2var_epi8(d[2], s23, d[3]);
    [
        _mm512_permutex2var_epi8(a01, even, b01),
        _mm512_permutex2var_epi8(a01, odd, b01),
        _mm512_permutex2var_epi8(a23, even, b23),
        _mm512_permutex2var_epi8(a23, odd, b23),
    ]
}

/// Four byte planes (byte 0 first) back to four registers of 16 dwords: bytes to words,
/// words to dwords, within 128-bit lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn to_dwords(o: [__m512i; 4]) -> [__m512i; 4] {
    let a = _mm512_unpacklo_epi8(o[0], o[1]);
    let b = _mm512_unpackhi_epi8(o[0], o[1]);
    let c = _mm512_unpacklo_epi8(o[2], o[3]);
    let d = _mm512_unpackhi_epi8(o[2], o[3]);
    [
        _mm512_unpacklo_epi16(a, c),
        _mm512_unpackhi_epi16(a, c),
        _mm512_unpacklo_epi16(b, d),
        _mm512_unpackhi_epi16(b, d),
    ]
}

/// `f` of round `n` of type `T + 1` (RFC 2144 §2.2) on the dwords `i` = `(Km op R) <<< Kr`
/// of `G` groups of 64 blocks.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn f<const T: usize, const G: usize>(i: [[__m512i; 4]; G]) -> [[__m512i; 4]; G] {
    let mut p = [[_mm512_setzero_si512(); 4]; G];
    for g in 0..G {
        p[g] = to_planes(i[g]);
    }
    // S1 takes the most significant byte (plane 3), S4 the least (plane 0).
    let s1 = sbox(0, p.map(|p| p[3]));
    let s2 = sbox(1, p.map(|p| p[2]));
    let mut x = [[_mm512_setzero_si512(); 4]; G];
    for g in 0..G {
        x[g] = match T {
            // Type 1 starts with S1 ^ S2: on the planes, one transpose fewer.
            0 => to_dwords([0, 1, 2, 3].map(|j| _mm512_xor_si512(s1[g][j], s2[g][j]))),
            // S1 - S2
            1 => {
                let (a, b) = (to_dwords(s1[g]), to_dwords(s2[g]));
                [0, 1, 2, 3].map(|j| _mm512_sub_epi32(a[j], b[j]))
            }
            // S1 + S2
            _ => {
                let (a, b) = (to_dwords(s1[g]), to_dwords(s2[g]));
                [0, 1, 2, 3].map(|j| _mm512_add_epi32(a[j], b[j]))
            }
        };
    }
    let s3 = sbox(2, p.map(|p| p[1]));
    for g in 0..G {
        let s3 = to_dwords(s3[g]);
        x[g] = [0, 1, 2, 3].map(|j| match T {
            0 => _mm512_sub_epi32(x[g][j], s3[j]),
            1 => _mm512_add_epi32(x[g][j], s3[j]),
            _ => _mm512_xor_si512(x[g][j], s3[j]),
        });
    }
    let s4 = sbox(3, p.map(|p| p[0]));
    for g in 0..G {
        let s4 = to_dwords(s4[g]);
        x[g] = [0, 1, 2, 3].map(|j| match T {
            0 => _mm512_add_epi32(x[g][j], s4[j]),
            1 => _mm512_xor_si512(x[g][j], s4[j]),
            _ => _mm512_sub_epi32(x[g][j], s4[j]),
        });
    }
    x
}

/// Round `n` on `G` groups, then the swap: `(L, R) = (R, L ^ f(R))`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn round<const G: usize>(k: &Keys, n: usize, l: &mut [[__m512i; 4]; G], r: &mut [[__m512i; 4]; G]) {
    let km = _mm512_set1_epi32(k.km[n] as i32);
    let kr = _mm512_set1_epi32(k.kr[n] as i32);
    let mut i = [[_mm512_setzero_si512(); 4]; G];
    for g in 0..G {
        for j in 0..4 {
            let x = match n % 3 {
                0 => _mm512_add_epi32(km, r[g][j]),
                1 => _mm512_xor_si512(km, r[g][j]),
                _ => _mm512_sub_epi32(km, r[g][j]),
            };
            i[g][j] = _mm512_rolv_epi32(x, kr);
        }
    }
    let f = match n % 3 {
        0 => f::<0, G>(i),
        1 => f::<1, G>(i),
        _ => f::<2, G>(i),
    };
    for g in 0..G {
        for j in 0..4 {
            l[g][j] = _mm512_xor_si512(l[g][j], f[g][j]);
        }
    }
    core::mem::swap(l, r);
}

/// One pass: `64·G` blocks through `buf` (input and output may be the same memory:
/// every load happens before the first store).
///
/// Not inlined: its spill area (~5 KiB with a stack probe) would otherwise be set up by
/// every call of [`run_blocks`], also those that only hand a few blocks to `soft`
/// (measured: 64 B 6% slower than `soft`).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn pass<const G: usize>(k: &Keys, mut buf: InOutBuf<'_, '_, B8>, enc: bool) {
    debug_assert_eq!(buf.len(), PASS * G);
    let (il, ir) = (load64(&HALF_IDX.0[0]), load64(&HALF_IDX.0[1]));
    let mut l = [[_mm512_setzero_si512(); 4]; G];
    let mut r = [[_mm512_setzero_si512(); 4]; G];
    {
        let p = buf.get_in().as_ptr().cast::<u8>();
        for g in 0..G {
            for q in 0..4 {
                let at = 512 * g + 128 * q;
                // SAFETY: the input holds 64·G blocks = 512·G readable bytes; `loadu` is
                // unaligned.
                let (a, b) = unsafe {
                    (
                        _mm512_loadu_si512(p.add(at).cast()),
                        _mm512_loadu_si512(p.add(at + 64).cast()),
                    )
                };
                l[g][q] = _mm512_permutex2var_epi8(a, il, b);
                r[g][q] = _mm512_permutex2var_epi8(a, ir, b);
            }
        }
    }
    // One call of `round` for both directions, so that it is inlined (with two, LLVM
    // keeps it out of line and passes the state through memory: 8 KiB 2.08 against 1.91
    // TSC cycles/byte).
    for step in 0..k.rounds {
        let n = if enc { step } else { k.rounds - 1 - step };
        round(k, n, &mut l, &mut r);
    }
    // The output is (R, L) after the last round's swap.
    let (o0, o1) = (load64(&OUT_IDX.0[0]), load64(&OUT_IDX.0[1]));
    let p = buf.get_out().as_mut_ptr().cast::<u8>();
    for g in 0..G {
        for q in 0..4 {
            let a = _mm512_permutex2var_epi8(r[g][q], o0, l[g][q]);
            let b = _mm512_permutex2var_epi8(r[g][q], o1, l[g][q]);
            let at = 512 * g + 128 * q;
            // SAFETY: the output holds 512·G writable bytes; `storeu` is unaligned.
            unsafe {
                _mm512_storeu_si512(p.add(at).cast(), a);
                _mm512_storeu_si512(p.add(at + 64).cast(), b);
            }
        }
    }
}

/// Any number of blocks: 128 at a time, then 64; a rest of [`PAD`] or more padded to one
/// pass (through a buffer on the stack), a shorter one by the portable code.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn run_blocks(k: &Keys, mut buf: InOutBuf<'_, '_, B8>, enc: bool) {
    while buf.len() >= GROUPS * PASS {
        let (head, tail) = buf.split_at(GROUPS * PASS);
        pass::<GROUPS>(k, head, enc);
        buf = tail;
    }
    if GROUPS > 1 && buf.len() >= PASS {
        let (head, tail) = buf.split_at(PASS);
        pass::<1>(k, head, enc);
        buf = tail;
    }
    let rest = buf.len();
    if rest >= PAD {
        let mut tmp = [B8::default(); PASS];
        tmp[..rest].copy_from_slice(buf.get_in());
        pass::<1>(k, InOutBuf::from(&mut tmp[..]), enc);
        buf.get_out().copy_from_slice(&tmp[..rest]);
    } else if rest > 0 {
        soft::run_blocks(k, buf, enc);
    }
}

/// [`run_blocks`], but calls of fewer than [`PAD`] blocks (the short messages) go straight
/// to `soft`, without entering the AVX-512 code.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI (the features of [`run_blocks`]).
#[inline(always)]
unsafe fn run_tail(k: &Keys, buf: InOutBuf<'_, '_, B8>, enc: bool) {
    if buf.len() < PAD {
        soft::run_blocks(k, buf, enc)
    } else {
        // SAFETY: the caller guarantees the features.
        unsafe { run_blocks(k, buf, enc) }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512 VBMI.
struct Backend<'a>(&'a Keys);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 128 blocks = [`GROUPS`] groups of 64 (a group is the narrowest that fills a `zmm` per
/// byte plane). A round of one group is a chain (rotate, two layers of `vpermi2b`,
/// look-ups, transposes, combine, xor) whose start needs the end of the previous round;
/// a second group fills that chain's latency. Measured here (ECB, 8 KiB, TSC
/// cycles/byte): 1 group 2.2–2.5, 2 groups 1.9, 3 groups 1.8–2.2. Registers: the state
/// takes 16 of the 32 `zmm`, a round's planes and outputs most of the rest, so the 64
/// `zmm` of tables are read from memory (fixed addresses) or from spill slots; two
/// groups share each table load.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U128;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, B8>) {
        soft::run_one(self.0, block, true)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Vbmi` (AVX-512F, BW and VBMI with OS support for `zmm`).
        unsafe { pass::<GROUPS>(self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, B8>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_tail(self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, B8>) {
        soft::run_one(self.0, block, false)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { pass::<GROUPS>(self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, B8>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_tail(self.0, blocks, false) }
    }
}

// `encrypt` and `decrypt` are `unsafe fn`, not `#[target_feature]` ones as in the other
// backends: inlined into the caller, a short call (fewer than `PAD` blocks) runs `soft`
// without the call into AVX-512 code and its `vzeroupper` (measured at 16 B: 11.0 against
// `soft`'s 10.3 TSC cycles/byte before, as `avx512`/`avx2` still pay).

/// Runs `f` with the VBMI encryption backend.
///
/// # Safety
/// The CPU has AVX-512F, BW and VBMI, with OS support for `zmm`: a `token::Vbmi` exists.
#[inline(always)]
pub(crate) unsafe fn encrypt(k: &Keys, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend(k))
}

/// Runs `f` with the VBMI decryption backend.
///
/// # Safety
/// As for [`encrypt`]: a `token::Vbmi` exists.
#[inline(always)]
pub(crate) unsafe fn decrypt(k: &Keys, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend(k))
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key length: tail lengths
    /// around 128 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn vbmi_matches_soft() {
        crate::backends::check_matches_soft("vbmi", 128);
    }

    /// Every length of 0..200 blocks (each hand-over: passes, padded rest from `PAD`,
    /// `soft` below it), in place and buffer to buffer at every misalignment mod 16, keys
    /// of every length 5..=16, encryption and decryption against `soft`.
    #[test]
    fn vbmi_every_length_matches_soft() {
        use crate::backends::__backends::{available, cast5_with};
        use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt};
        if !testkit::available("vbmi", available("vbmi")) {
            return;
        }
        let mut rng = testkit::Rng::new(testkit::seed(0xCA57_5B41));
        for blocks in 0..200 {
            let key = rng.bytes(5 + blocks % 12);
            let (soft, vbmi) = (cast5_with("soft", &key), cast5_with("vbmi", &key));
            let mis = blocks % 16;
            let plain = rng.bytes(8 * blocks);
            let mut expect = plain.clone();
            soft.encrypt_blocks(Array::slice_as_chunks_mut(&mut expect).0);
            // In place.
            let mut buf = rng.bytes(mis + 8 * blocks);
            buf[mis..].copy_from_slice(&plain);
            vbmi.encrypt_blocks(Array::slice_as_chunks_mut(&mut buf[mis..]).0);
            assert!(
                buf[mis..] == expect,
                "encryption of {blocks} blocks in place"
            );
            vbmi.decrypt_blocks(Array::slice_as_chunks_mut(&mut buf[mis..]).0);
            assert!(
                buf[mis..] == plain,
                "decryption of {blocks} blocks in place"
            );
            // Buffer to buffer, the output at another misalignment.
            let mut out = rng.bytes(15 - mis + 8 * blocks);
            let o = &mut out[15 - mis..];
            let (i, _) = Array::slice_as_chunks(&expect);
            vbmi.decrypt_blocks_b2b(i, Array::slice_as_chunks_mut(o).0)
                .unwrap();
            assert!(*o == plain, "decryption of {blocks} blocks");
            let (i, _) = Array::slice_as_chunks(&plain);
            vbmi.encrypt_blocks_b2b(i, Array::slice_as_chunks_mut(o).0)
                .unwrap();
            assert!(*o == expect, "encryption of {blocks} blocks");
        }
    }

    /// The transposes undo each other.
    #[test]
    fn planes_round_trip() {
        if !crate::backends::__backends::available("vbmi") {
            return;
        }
        // SAFETY: the CPU has the features of the `vbmi` row (checked above).
        unsafe { round_trip() }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn round_trip() {
        use super::*;
        let x: [__m512i; 4] = core::array::from_fn(|q| {
            _mm512_add_epi8(
                _mm512_set1_epi8((64 * q) as i8),
                load64(&core::array::from_fn(|b| b as u8)),
            )
        });
        let y = to_dwords(to_planes(x));
        for q in 0..4 {
            assert_eq!(_mm512_cmpeq_epi32_mask(x[q], y[q]), 0xffff, "register {q}");
        }
    }
}
