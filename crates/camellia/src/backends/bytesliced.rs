//! Byte-sliced Camellia, shared by the SIMD backends (generic over the vector width and
//! the S-box instructions).
//!
//! A pass takes `W` blocks (`W` = bytes per vector: 32 on `ymm`, 64 on `zmm`) as 16
//! vectors, transposes them within each 128-bit lane so that vector `j` holds byte `j`
//! of every block (byte 0 = the most significant byte of the left half), runs the
//! rounds on those 16 "byte slices" and transposes back. In this form:
//! - the key is added by XORing each slice with its key byte broadcast to the vector
//!   (the bytes are kept as `u32`s repeating the byte, so `vpxord zmm, zmm, m32bcst`
//!   / `vpbroadcastd` take them straight from memory);
//! - the S-box layer is one call to the backend ([`Simd::sboxes`]) on the 8 slices of
//!   the F-function input — each slice goes through one of `s1`…`s4` as a whole;
//! - the P-function is 20 XORs of whole slices (below, after Kivilinna's
//!   byte-sliced implementation: J. Kivilinna, "Block Ciphers: Fast Implementations on
//!   x86-64 Architecture", University of Oulu, 2013);
//! - FL/FL⁻¹ are byte-wise AND/OR/XOR plus a 32-bit rotation by one, which in slices is
//!   `(a << 1) | (b >> 7)` of neighbouring slices.
//!
//! Nothing here branches on or indexes by data or key: constant time as long as the
//! backend's S-box instructions are (GFNI and AES-NI are).

use core::cell::OnceCell;

use super::soft;
use crate::backends::Block;
use cipher::inout::{InOut, InOutBuf};

/// The vector operations a byte-sliced backend provides. An implementing value is a
/// proof that the CPU has the instructions (backends make one only inside their
/// `#[target_feature]` functions), so the methods are safe.
pub(crate) trait Simd: Copy {
    /// A vector of `W` bytes.
    type V: Copy;
    /// Bytes per vector = blocks per pass.
    const W: usize;
    /// Loads `W` bytes from the start of `src` (at least `W` long).
    fn load(self, src: &[u8]) -> Self::V;
    /// Stores `v` to the start of `dst` (at least `W` long).
    fn store(self, dst: &mut [u8], v: Self::V);
    /// `rep` (a byte repeated four times) in every 32-bit lane.
    fn splat(self, rep: &u32) -> Self::V;
    /// Byte `j` of the subkey `k` in every lane: `splat(&k[j])`, which a backend may
    /// override to load `k` in wider pieces and broadcast a lane (the same value).
    #[inline(always)]
    fn key_byte(self, k: &KeyBytes, j: usize) -> Self::V {
        self.splat(&k[j])
    }
    /// `a ^ b`.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a ^ b ^ c`.
    fn xor3(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `a & b`.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a | b`.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// Per byte, `(hi << 1) | (lo >> 7)`.
    fn rotl1_pair(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// `punpcklbw` (per 128-bit lane).
    fn unpacklo8(self, a: Self::V, b: Self::V) -> Self::V;
    /// `punpckhbw` (per 128-bit lane).
    fn unpackhi8(self, a: Self::V, b: Self::V) -> Self::V;
    /// The S-box layer of F: `[s1(x0), s2(x1), s3(x2), s4(x3), s2(x4), s3(x5), s4(x6),
    /// s1(x7)]`.
    fn sboxes(self, x: [Self::V; 8]) -> [Self::V; 8];
    /// Stores the block whose big-endian halves are `hi‖lo` to `dst` as one 16-byte
    /// store (see [`one`]).
    fn store_block(self, dst: &mut Block, hi: u64, lo: u64);
}

/// A subkey as eight `u32`s, each its byte `j` (most significant first) repeated.
pub(crate) type KeyBytes = [u32; 8];

/// The subkeys `k` in the order a pass uses them: for encryption the RFC order; for
/// decryption the whitening keys swapped and the round keys reversed, so one routine
/// runs both directions (FL/FL⁻¹ then fall at the same positions).
#[inline]
pub(crate) fn schedule<const RK: usize>(k: &[u64; RK], dec: bool) -> [KeyBytes; RK] {
    core::array::from_fn(|e| {
        let i = if !dec {
            e
        } else if e == 0 {
            RK - 2
        } else if e == 1 {
            RK - 1
        } else if e == RK - 2 {
            0
        } else if e == RK - 1 {
            1
        } else {
            RK - 1 - e
        };
        let b = k[i].to_be_bytes();
        core::array::from_fn(|j| u32::from(b[j]) * 0x0101_0101)
    })
}

/// The byte-sliced subkeys of one direction, made by the first pass that needs them: a
/// call that runs only single blocks (`soft`) never computes them (issue 18). Zeroed on
/// drop with the `zeroize` feature.
pub(crate) struct LazyKeyBytes<'a, const RK: usize> {
    k: &'a [u64; RK],
    dec: bool,
    kb: OnceCell<[KeyBytes; RK]>,
}

impl<'a, const RK: usize> LazyKeyBytes<'a, RK> {
    pub(crate) fn new(k: &'a [u64; RK], dec: bool) -> Self {
        Self {
            k,
            dec,
            kb: OnceCell::new(),
        }
    }

    /// The subkeys in byte-sliced form.
    #[inline]
    pub(crate) fn get(&self) -> &[KeyBytes; RK] {
        self.kb.get_or_init(|| schedule(self.k, self.dec))
    }
}

impl<const RK: usize> Drop for LazyKeyBytes<'_, RK> {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        if let Some(kb) = self.kb.get_mut() {
            cipher::zeroize::Zeroize::zeroize(kb);
        }
    }
}

/// 16×16 byte transpose within each 128-bit lane: four rounds of `unpack{lo,hi}bw`
/// between vectors `i` and `i + 8`. Each round rotates the 8-bit index (vector, byte)
/// left by one, so four rounds swap its halves; the function is its own inverse.
/// (Written out by destructuring: a loop over a copied array makes LLVM go through
/// memory.)
#[inline(always)]
fn transpose<S: Simd>(s: S, a: [S::V; 16]) -> [S::V; 16] {
    #[inline(always)]
    fn round<S: Simd>(s: S, a: [S::V; 16]) -> [S::V; 16] {
        let [
            a0,
            a1,
            a2,
            a3,
            a4,
            a5,
            a6,
            a7,
            a8,
            a9,
            a10,
            a11,
            a12,
            a13,
            a14,
            a15,
        ] = a;
        [
            s.unpacklo8(a0, a8),
            s.unpackhi8(a0, a8),
            s.unpacklo8(a1, a9),
            s.unpackhi8(a1, a9),
            s.unpacklo8(a2, a10),
            s.unpackhi8(a2, a10),
            s.unpacklo8(a3, a11),
            s.unpackhi8(a3, a11),
            s.unpacklo8(a4, a12),
            s.unpackhi8(a4, a12),
            s.unpacklo8(a5, a13),
            s.unpackhi8(a5, a13),
            s.unpacklo8(a6, a14),
            s.unpackhi8(a6, a14),
            s.unpacklo8(a7, a15),
            s.unpackhi8(a7, a15),
        ]
    }
    round(s, round(s, round(s, round(s, a))))
}

// An index loop, not `iter_mut`: the x86 backends' code stays as it was before
// `key_byte` (an `iter_mut` loop changed their register allocation).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn add_key<S: Simd>(s: S, x: &mut [S::V; 8], k: &KeyBytes) {
    for j in 0..8 {
        x[j] = s.xor(x[j], s.key_byte(k, j));
    }
}

/// `dst ^= F(src, k)`.
#[inline(always)]
fn feistel<S: Simd>(s: S, src: &[S::V; 8], dst: &mut [S::V; 8], k: &KeyBytes) {
    let x = [
        s.xor(src[0], s.key_byte(k, 0)),
        s.xor(src[1], s.key_byte(k, 1)),
        s.xor(src[2], s.key_byte(k, 2)),
        s.xor(src[3], s.key_byte(k, 3)),
        s.xor(src[4], s.key_byte(k, 4)),
        s.xor(src[5], s.key_byte(k, 5)),
        s.xor(src[6], s.key_byte(k, 6)),
        s.xor(src[7], s.key_byte(k, 7)),
    ];
    let [
        mut x0,
        mut x1,
        mut x2,
        mut x3,
        mut x4,
        mut x5,
        mut x6,
        mut x7,
    ] = s.sboxes(x);
    // P-function on t1..t8 = x0..x7; afterwards x0..x3 = z5..z8 and
    // x4 ^ x3, x5 ^ x0, x6 ^ x1, x7 ^ x2 = z1..z4.
    x0 = s.xor(x0, x5);
    x1 = s.xor(x1, x6);
    x2 = s.xor(x2, x7);
    x3 = s.xor(x3, x4);
    x4 = s.xor(x4, x2);
    x5 = s.xor(x5, x3);
    x6 = s.xor(x6, x0);
    x7 = s.xor(x7, x1);
    x0 = s.xor(x0, x7);
    x1 = s.xor(x1, x4);
    x2 = s.xor(x2, x5);
    x3 = s.xor(x3, x6);
    dst[0] = s.xor3(dst[0], x4, x3);
    dst[1] = s.xor3(dst[1], x5, x0);
    dst[2] = s.xor3(dst[2], x6, x1);
    dst[3] = s.xor3(dst[3], x7, x2);
    dst[4] = s.xor(dst[4], x0);
    dst[5] = s.xor(dst[5], x1);
    dst[6] = s.xor(dst[6], x2);
    dst[7] = s.xor(dst[7], x3);
}

/// FL: `x2 ^= (x1 & k1) <<< 1; x1 ^= x2 | k2` on the 32-bit halves.
#[inline(always)]
fn fl<S: Simd>(s: S, x: &mut [S::V; 8], k: &KeyBytes) {
    let t = [
        s.and(x[0], s.key_byte(k, 0)),
        s.and(x[1], s.key_byte(k, 1)),
        s.and(x[2], s.key_byte(k, 2)),
        s.and(x[3], s.key_byte(k, 3)),
    ];
    for j in 0..4 {
        x[4 + j] = s.xor(x[4 + j], s.rotl1_pair(t[j], t[(j + 1) % 4]));
    }
    for j in 0..4 {
        x[j] = s.xor(x[j], s.or(x[4 + j], s.key_byte(k, 4 + j)));
    }
}

/// FL⁻¹: `y1 ^= y2 | k2; y2 ^= (y1 & k1) <<< 1`.
#[inline(always)]
fn flinv<S: Simd>(s: S, y: &mut [S::V; 8], k: &KeyBytes) {
    for j in 0..4 {
        y[j] = s.xor(y[j], s.or(y[4 + j], s.key_byte(k, 4 + j)));
    }
    let t = [
        s.and(y[0], s.key_byte(k, 0)),
        s.and(y[1], s.key_byte(k, 1)),
        s.and(y[2], s.key_byte(k, 2)),
        s.and(y[3], s.key_byte(k, 3)),
    ];
    for j in 0..4 {
        y[4 + j] = s.xor(y[4 + j], s.rotl1_pair(t[j], t[(j + 1) % 4]));
    }
}

/// One pass: the `W` blocks of `inp` (`16·W` bytes) through the cipher with the
/// subkeys `kb` in pass order ([`schedule`]); returns them as 16 vectors for [`store`]
/// (so the output may be the input's memory).
#[inline(always)]
pub(crate) fn pass<S: Simd>(s: S, kb: &[KeyBytes], inp: &[u8]) -> [S::V; 16] {
    let w = S::W;
    assert!(inp.len() >= 16 * w && kb.len() >= 6);
    let ld = |j: usize| s.load(&inp[j * w..]);
    let v = transpose(
        s,
        [
            ld(0),
            ld(1),
            ld(2),
            ld(3),
            ld(4),
            ld(5),
            ld(6),
            ld(7),
            ld(8),
            ld(9),
            ld(10),
            ld(11),
            ld(12),
            ld(13),
            ld(14),
            ld(15),
        ],
    );
    let [
        l0,
        l1,
        l2,
        l3,
        l4,
        l5,
        l6,
        l7,
        r0,
        r1,
        r2,
        r3,
        r4,
        r5,
        r6,
        r7,
    ] = v;
    let mut l = [l0, l1, l2, l3, l4, l5, l6, l7];
    let mut r = [r0, r1, r2, r3, r4, r5, r6, r7];
    let rk = kb.len();
    add_key(s, &mut l, &kb[0]);
    add_key(s, &mut r, &kb[1]);
    let mut e = 2;
    while e < rk - 2 {
        if e % 8 == 0 {
            fl(s, &mut l, &kb[e]);
            flinv(s, &mut r, &kb[e + 1]);
        } else {
            feistel(s, &l, &mut r, &kb[e]);
            feistel(s, &r, &mut l, &kb[e + 1]);
        }
        e += 2;
    }
    add_key(s, &mut r, &kb[rk - 2]);
    add_key(s, &mut l, &kb[rk - 1]);
    let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
    let [l0, l1, l2, l3, l4, l5, l6, l7] = l;
    transpose(
        s,
        [
            r0, r1, r2, r3, r4, r5, r6, r7, l0, l1, l2, l3, l4, l5, l6, l7,
        ],
    )
}

/// Stores the 16 vectors of a [`pass`] to `out` (`16·W` bytes).
#[inline(always)]
pub(crate) fn store<S: Simd>(s: S, out: &mut [u8], y: [S::V; 16]) {
    let w = S::W;
    assert!(out.len() >= 16 * w);
    let [
        y0,
        y1,
        y2,
        y3,
        y4,
        y5,
        y6,
        y7,
        y8,
        y9,
        y10,
        y11,
        y12,
        y13,
        y14,
        y15,
    ] = y;
    for (j, v) in [
        y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15,
    ]
    .into_iter()
    .enumerate()
    {
        s.store(&mut out[j * w..], v);
    }
}

/// One block through the `soft` code, which takes and returns it in registers; the
/// result is written with one 16-byte vector store. A CBC-encryption chain loads each
/// result right back as 16 bytes, and store-to-load forwarding does not serve one load
/// from two 8-byte stores. (AMD EPYC Zen 4, a one-block CBC chain of Camellia-256: 285
/// TSC cycles a block through memory and two stores; 277 with the block in registers
/// but still two stores, the `soft` backend's path; 270–271 with one store.)
#[inline(always)]
pub(crate) fn one<S: Simd, const RK: usize>(
    s: S,
    k: &[u64; RK],
    dec: bool,
    mut block: InOut<'_, '_, Block>,
) {
    let (hi, lo) = soft::words(block.get_in());
    let (hi, lo) = if dec {
        soft::decrypt_words(k, hi, lo)
    } else {
        soft::encrypt_words(k, hi, lo)
    };
    s.store_block(block.get_out(), hi, lo);
}

/// The last blocks of a call, too few for a pass, through the table-based `soft` code,
/// out of line: the byte-sliced backends' own functions then hold only their
/// constant-time passes, which is what `cargo xtask ct`'s static check reads (on AArch64,
/// where NEON is the baseline, LLVM would otherwise inline the table code into them).
#[inline(never)]
pub(crate) fn short_rest<S: Simd, const RK: usize>(
    s: S,
    k: &[u64; RK],
    dec: bool,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    for i in 0..buf.len() {
        one(s, k, dec, buf.get(i));
    }
}

// The S-boxes from AES SubBytes (`aesni_avx2`'s `vaesenclast`, `neon_aes`'s `AESE`):
// `s(x) = Q · SubBytes(PRE · x ⊕ 0x45) ⊕ c`, each affine map as two 16-entry nibble
// look-ups XORed (`vpshufb` / `TBL`). Checked by `nibble_tables_give_the_sboxes`.

/// Pre map of `s1`/`s2`/`s3` (`PRE123 · x ⊕ 0x45`) on the low nibble (constant included).
pub(crate) const PRE123_LO: [u8; 16] = [
    0x45, 0xe8, 0x40, 0xed, 0x2e, 0x83, 0x2b, 0x86, 0x4b, 0xe6, 0x4e, 0xe3, 0x20, 0x8d, 0x25, 0x88,
];
/// … on the high nibble.
pub(crate) const PRE123_HI: [u8; 16] = [
    0x00, 0x51, 0xf1, 0xa0, 0x8a, 0xdb, 0x7b, 0x2a, 0x09, 0x58, 0xf8, 0xa9, 0x83, 0xd2, 0x72, 0x23,
];
/// Pre map of `s4` on the low nibble (constant included).
pub(crate) const PRE4_LO: [u8; 16] = [
    0x45, 0x40, 0x2e, 0x2b, 0x4b, 0x4e, 0x20, 0x25, 0x14, 0x11, 0x7f, 0x7a, 0x1a, 0x1f, 0x71, 0x74,
];
/// … on the high nibble.
pub(crate) const PRE4_HI: [u8; 16] = [
    0x00, 0xf1, 0x8a, 0x7b, 0x09, 0xf8, 0x83, 0x72, 0xad, 0x5c, 0x27, 0xd6, 0xa4, 0x55, 0x2e, 0xdf,
];
/// Post map of `s1`/`s4` after SubBytes, low nibble (constant included).
pub(crate) const POST1_LO: [u8; 16] = [
    0x3c, 0xcc, 0xcf, 0x3f, 0x32, 0xc2, 0xc1, 0x31, 0xdc, 0x2c, 0x2f, 0xdf, 0xd2, 0x22, 0x21, 0xd1,
];
/// … high nibble.
pub(crate) const POST1_HI: [u8; 16] = [
    0x00, 0xf9, 0x86, 0x7f, 0xd7, 0x2e, 0x51, 0xa8, 0xa4, 0x5d, 0x22, 0xdb, 0x73, 0x8a, 0xf5, 0x0c,
];
/// Post map of `s2`, low nibble (constant included).
pub(crate) const POST2_LO: [u8; 16] = [
    0x78, 0x99, 0x9f, 0x7e, 0x64, 0x85, 0x83, 0x62, 0xb9, 0x58, 0x5e, 0xbf, 0xa5, 0x44, 0x42, 0xa3,
];
/// … high nibble.
pub(crate) const POST2_HI: [u8; 16] = [
    0x00, 0xf3, 0x0d, 0xfe, 0xaf, 0x5c, 0xa2, 0x51, 0x49, 0xba, 0x44, 0xb7, 0xe6, 0x15, 0xeb, 0x18,
];
/// Post map of `s3`, low nibble (constant included).
pub(crate) const POST3_LO: [u8; 16] = [
    0x1e, 0x66, 0xe7, 0x9f, 0x19, 0x61, 0xe0, 0x98, 0x6e, 0x16, 0x97, 0xef, 0x69, 0x11, 0x90, 0xe8,
];
/// … high nibble.
pub(crate) const POST3_HI: [u8; 16] = [
    0x00, 0xfc, 0x43, 0xbf, 0xeb, 0x17, 0xa8, 0x54, 0x52, 0xae, 0x11, 0xed, 0xb9, 0x45, 0xfa, 0x06,
];
/// InvShiftRows as a `vpshufb` index: cancels the ShiftRows inside `vaesenclast`.
pub(crate) const INV_SHIFT_ROWS: [u8; 16] = [0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3];

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Inversion in GF(2⁸) mod x⁸ + x⁴ + x³ + x + 1 (0 ↦ 0).
    fn inv(x: u8) -> u8 {
        let mul = |mut a: u8, mut b: u8| {
            let mut p = 0u8;
            while b != 0 {
                if b & 1 != 0 {
                    p ^= a;
                }
                a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
                b >>= 1;
            }
            p
        };
        (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0)
    }

    /// AES SubBytes (FIPS-197 §5.1.1).
    pub(crate) fn sub_bytes(x: u8) -> u8 {
        let b = inv(x);
        b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
    }

    fn nib(x: u8, lo: &[u8; 16], hi: &[u8; 16]) -> u8 {
        lo[usize::from(x & 15)] ^ hi[usize::from(x >> 4)]
    }

    #[test]
    fn nibble_tables_give_the_sboxes() {
        let s = |x, pre: (&[u8; 16], &[u8; 16]), post: (&[u8; 16], &[u8; 16])| {
            nib(sub_bytes(nib(x, pre.0, pre.1)), post.0, post.1)
        };
        for x in 0..=255u8 {
            let p = (&PRE123_LO, &PRE123_HI);
            let p4 = (&PRE4_LO, &PRE4_HI);
            assert_eq!(s(x, p, (&POST1_LO, &POST1_HI)), soft::sbox(0, x), "s1");
            assert_eq!(s(x, p, (&POST2_LO, &POST2_HI)), soft::sbox(1, x), "s2");
            assert_eq!(s(x, p, (&POST3_LO, &POST3_HI)), soft::sbox(2, x), "s3");
            assert_eq!(s(x, p4, (&POST1_LO, &POST1_HI)), soft::sbox(3, x), "s4");
        }
        // InvShiftRows undoes ShiftRows.
        const SHIFT_ROWS: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];
        for (i, &j) in SHIFT_ROWS.iter().enumerate() {
            assert_eq!(usize::from(INV_SHIFT_ROWS[j]), i);
        }
    }
}
