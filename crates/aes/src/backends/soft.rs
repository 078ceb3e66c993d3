//! Portable constant-time AES: fixsliced, four blocks in eight 64-bit words.
//!
//! Technique: *fixslicing* (A. Adomnicai and T. Peyrin, "Fixslicing AES-like ciphers: new
//! bitsliced AES speed records on ARM-Cortex M and RISC-V", TCHES 2021/1,
//! <https://eprint.iacr.org/2020/1123>) with the S-box circuit of J. Boyar and R. Peralta
//! ("A new combinational logic minimization technique with applications to cryptology",
//! SEA 2010; 113 gates, 32 of them AND). Written for this crate from the papers.
//!
//! # Layout
//! Four blocks are one *batch*. Word `s[b]` holds bit `b` of all 64 bytes; byte `(row r,
//! column c)` of block `k` sits at bit `16·r + 4·c + k`. So "the same column, one row down"
//! is a plain 16-bit rotation and "one column right within the row" a rotation inside the
//! 16-bit lane.
//!
//! # Fixslicing
//! ShiftRows is never executed inside the rounds. After `s` skipped ShiftRows the logical
//! state is `SR^s(X)` of the physical state `X` (`SR^s(X)[r][c] = X[r][c + s·r]`), and round
//! `i` computes `X ← MC_t(SB(X)) ⊕ SR^-t(K_i)` with `t = i mod 4`, where
//! `MC_t(Y)[r][c] = 2·Y[r][c] ⊕ 3·Y[r+1][c+t] ⊕ Y[r+2][c+2t] ⊕ Y[r+3][c+3t]` (MixColumns on
//! the twisted columns). The round keys are stored pre-twisted (`SR^-t(K_i)`), and one
//! ShiftRows power `SR^(Nr mod 4)` is applied to the output. Decryption runs the same steps
//! backwards with `InvMixColumns = MixColumns ∘ (5·a[r] ⊕ 4·a[r+2])` (Daemen–Rijmen) and the
//! same twisted keys.
//!
//! # Constant time
//! Only bitwise operations, shifts and rotations by constants: no table, no data- or
//! key-dependent branch or index. The key schedule uses the same S-box circuit on packed
//! 32-bit words (four S-boxes at once).
#![forbid(unsafe_code)]

use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U4, U16},
    inout::{InOut, InOutBuf},
};
use core::ops::{BitAnd, BitOr, BitXor, Not};

/// Eight bit-planes of a four-block batch.
pub(crate) type State = [u64; 8];

/// A word of bit-planes: `u64` here (one four-block batch); the `avx2` backend runs the
/// same rounds on four `u64` lanes of a `ymm` register (four batches at once). Every
/// operation acts on each 64-bit lane alone, so the layout below holds per lane.
pub(crate) trait Word:
    Copy + BitXor<Output = Self> + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// `x` in every 64-bit lane.
    fn splat(x: u64) -> Self;
    /// Each lane shifted left by `n` (`n < 64`; a constant once inlined).
    fn shl(self, n: u32) -> Self;
    /// Each lane shifted right by `n` (`n < 64`).
    fn shr(self, n: u32) -> Self;
    /// Each lane rotated right by `n` (`n < 64`).
    #[inline(always)]
    fn rotr(self, n: u32) -> Self {
        if n == 0 {
            self
        } else {
            self.shr(n) | self.shl(64 - n)
        }
    }
}

impl Word for u64 {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline(always)]
    fn rotr(self, n: u32) -> Self {
        self.rotate_right(n)
    }
}

/// Bitsliced round keys, each pre-twisted for its round (`SR^-(i mod 4)(K_i)`) and
/// broadcast to the four blocks of a batch.
#[derive(Clone)]
pub(crate) struct Keys<const R: usize> {
    rk: [State; R],
}

#[cfg(feature = "zeroize")]
impl<const R: usize> zeroize::Zeroize for Keys<R> {
    fn zeroize(&mut self) {
        self.rk.zeroize();
    }
}

// ---------------------------------------------------------------------------------------
// Packing: 4 blocks <-> 8 bit-planes.

/// Exchanges, between words `a` (index bit 0) and `b` (index bit 1), the word-index bit
/// with in-word address bit `m` (`n = 1 << m`, `mask` = the positions whose bit `m` is 0).
#[inline(always)]
fn swapmove<W: Word>(a: &mut W, b: &mut W, mask: u64, n: u32) {
    let t = (a.shr(n) ^ *b) & W::splat(mask);
    *b = *b ^ t;
    *a = *a ^ t.shl(n);
}

/// Applies `swapmove` to the four word pairs that differ in word-index bit `j`.
#[inline(always)]
fn exchange<W: Word>(w: &mut [W; 8], j: usize, mask: u64, n: u32) {
    for i in 0..8 {
        if i & (1 << j) == 0 {
            let (lo, hi) = w.split_at_mut(i | (1 << j));
            swapmove(&mut lo[i], &mut hi[0], mask, n);
        }
    }
}

/// The index-bit exchanges that turn little-endian 8-byte halves into bit-planes
/// (self-inverse one by one; unpacking runs them backwards). Words start indexed by
/// (block k1 k0, column c1) and hold (c0 r1 r0 b2 b1 b0) in their address bits 5..0; they
/// end indexed by (b1 b0 b2) holding (r1 r0 c1 c0 k1 k0).
const EXCHANGES: [(usize, u64, u32); 6] = [
    (0, 0x00ff_00ff_00ff_00ff, 8),  // c1 <-> r0
    (0, 0x0000_ffff_0000_ffff, 16), // r0 <-> r1
    (0, 0x0000_0000_ffff_ffff, 32), // r1 <-> c0
    (0, 0x0f0f_0f0f_0f0f_0f0f, 4),  // c0 <-> b2
    (1, 0x5555_5555_5555_5555, 1),  // k0 <-> b0
    (2, 0x3333_3333_3333_3333, 2),  // k1 <-> b1
];

/// Word index holding bit-plane `b` after the exchanges (index bits are b2, b0, b1).
const PLANE: [usize; 8] = [0, 2, 4, 6, 1, 3, 5, 7];

/// Words `w[2k]`, `w[2k + 1]` = the little-endian halves of block `k`, to bit-planes.
#[inline(always)]
fn to_planes<W: Word>(mut w: [W; 8]) -> [W; 8] {
    for &(j, mask, n) in EXCHANGES.iter() {
        exchange(&mut w, j, mask, n);
    }
    let mut s = w;
    for (b, &p) in PLANE.iter().enumerate() {
        s[b] = w[p];
    }
    s
}

/// The inverse of [`to_planes`].
#[inline(always)]
fn from_planes<W: Word>(s: &[W; 8]) -> [W; 8] {
    let mut w = *s;
    for (b, &p) in PLANE.iter().enumerate() {
        w[p] = s[b];
    }
    for &(j, mask, n) in EXCHANGES.iter().rev() {
        exchange(&mut w, j, mask, n);
    }
    w
}

#[inline(always)]
fn pack(blocks: [&[u8; 16]; 4]) -> State {
    let mut w = [0u64; 8];
    for (k, b) in blocks.iter().enumerate() {
        let (lo, hi) = b.split_at(8);
        w[2 * k] = u64::from_le_bytes(lo.try_into().expect("8 bytes"));
        w[2 * k + 1] = u64::from_le_bytes(hi.try_into().expect("8 bytes"));
    }
    to_planes(w)
}

#[inline(always)]
fn unpack(s: &State) -> [[u8; 16]; 4] {
    let w = from_planes(s);
    let mut out = [[0u8; 16]; 4];
    for (k, o) in out.iter_mut().enumerate() {
        o[..8].copy_from_slice(&w[2 * k].to_le_bytes());
        o[8..].copy_from_slice(&w[2 * k + 1].to_le_bytes());
    }
    out
}

// ---------------------------------------------------------------------------------------
// Rotations of rows and columns.

/// Positions whose column `c` satisfies `c + b < 4`, for `b = 0..4`.
const COL_MASK: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0x0fff_0fff_0fff_0fff,
    0x00ff_00ff_00ff_00ff,
    0x000f_000f_000f_000f,
];

/// `R(x)[r][c] = x[r + a][c + b]` (indices mod 4) on one bit-plane.
#[inline(always)]
fn fetch<W: Word>(x: W, a: u32, b: u32) -> W {
    let n = 16 * a + 4 * b;
    if b == 0 {
        x.rotr(n % 64)
    } else {
        let m = COL_MASK[b as usize];
        (x.rotr(n % 64) & W::splat(m)) | (x.rotr((n + 48) % 64) & W::splat(!m))
    }
}

/// `SR^t(x)[r][c] = x[r][c + t·r]` on one bit-plane (row `r` rotated by `t·r` columns).
#[inline(always)]
fn shift_rows_pow<W: Word>(x: W, t: u32) -> W {
    let mut out = x & W::splat(0x0000_0000_0000_ffff);
    for r in 1..4u32 {
        let b = (t * r) % 4;
        let row = x & W::splat(0xffff << (16 * r));
        out = out
            | if b == 0 {
                row
            } else {
                // Rotate the 16-bit lane right by 4·b bits.
                let lane = row.shr(16 * r);
                let rot = (lane.shr(4 * b) | lane.shl(16 - 4 * b)) & W::splat(0xffff);
                rot.shl(16 * r)
            };
    }
    out
}

#[inline(always)]
fn shift_rows_state<W: Word>(s: &mut [W; 8], t: u32) {
    if !t.is_multiple_of(4) {
        for w in s.iter_mut() {
            *w = shift_rows_pow(*w, t % 4);
        }
    }
}

/// Multiplication by 2 in GF(2^8) on bit-planes (`s[0]` is the least significant bit).
#[inline(always)]
fn xtime<W: Word>(a: &[W; 8]) -> [W; 8] {
    [
        a[7],
        a[0] ^ a[7],
        a[1],
        a[2] ^ a[7],
        a[3] ^ a[7],
        a[4],
        a[5],
        a[6],
    ]
}

/// `MC_t`: MixColumns on the columns twisted by `t` skipped ShiftRows.
/// `out = 2·(y ⊕ R1 y) ⊕ R1 y ⊕ R2(y ⊕ R1 y)` with `R_j = fetch(·, j, j·t)`.
#[inline(always)]
fn mix_columns_t<W: Word>(y: &[W; 8], t: u32) -> [W; 8] {
    // Plain loops, not `core::array::from_fn`: LLVM keeps that closure out of line, and
    // out of the `avx2` backend's target-feature context, once it holds vector code.
    let (mut r1, mut a) = (*y, *y);
    for i in 0..8 {
        r1[i] = fetch(y[i], 1, t % 4);
        a[i] = y[i] ^ r1[i];
    }
    let mut out = xtime(&a);
    for i in 0..8 {
        out[i] = out[i] ^ r1[i] ^ fetch(a[i], 2, (2 * t) % 4);
    }
    out
}

/// `M_t(y)[r][c] = y[r][c] ⊕ 4·(y[r][c] ⊕ y[r+2][c+2t])`; `InvMixColumns = MC ∘ M`.
#[inline(always)]
fn inv_mix_pre_t<W: Word>(y: &[W; 8], t: u32) -> [W; 8] {
    let mut d = *y;
    for i in 0..8 {
        d[i] = y[i] ^ fetch(y[i], 2, (2 * t) % 4);
    }
    let mut out = xtime(&xtime(&d));
    for i in 0..8 {
        out[i] = out[i] ^ y[i];
    }
    out
}

#[inline(always)]
fn inv_mix_columns_t<W: Word>(y: &[W; 8], t: u32) -> [W; 8] {
    mix_columns_t(&inv_mix_pre_t(y, t), t)
}

// ---------------------------------------------------------------------------------------
// S-box: Boyar–Peralta circuit.

/// The S-box circuit of Boyar and Peralta on bit-planes `s` (`s[0]` least significant),
/// any word type. `AFFINE_CONST` false omits the four NOTs of the `0x63` constant.
#[inline(always)]
fn sbox_circuit<T, const AFFINE_CONST: bool>(s: &mut [T; 8])
where
    T: Copy + BitXor<Output = T> + BitAnd<Output = T> + Not<Output = T>,
{
    // The paper numbers bits from the most significant one: U0 = bit 7.
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]);

    // Top linear layer.
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;

    // Non-linear middle: inversion in GF(2^4)^2.
    let m1 = t13 & t6;
    let m2 = t23 & t8;
    let m3 = t14 ^ m1;
    let m4 = t19 & u7;
    let m5 = m4 ^ m1;
    let m6 = t3 & t16;
    let m7 = t22 & t9;
    let m8 = t26 ^ m6;
    let m9 = t20 & t17;
    let m10 = m9 ^ m6;
    let m11 = t1 & t15;
    let m12 = t4 & t27;
    let m13 = m12 ^ m11;
    let m14 = t2 & t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    let m46 = m44 & t6;
    let m47 = m40 & t8;
    let m48 = m39 & u7;
    let m49 = m43 & t16;
    let m50 = m38 & t9;
    let m51 = m37 & t17;
    let m52 = m42 & t15;
    let m53 = m45 & t27;
    let m54 = m41 & t10;
    let m55 = m44 & t13;
    let m56 = m40 & t23;
    let m57 = m39 & t19;
    let m58 = m43 & t3;
    let m59 = m38 & t22;
    let m60 = m37 & t20;
    let m61 = m42 & t1;
    let m62 = m45 & t4;
    let m63 = m41 & t2;

    // Bottom linear layer (with the affine map).
    let l0 = m61 ^ m62;
    let l1 = m50 ^ m56;
    let l2 = m46 ^ m48;
    let l3 = m47 ^ m55;
    let l4 = m54 ^ m58;
    let l5 = m49 ^ m61;
    let l6 = m62 ^ l5;
    let l7 = m46 ^ l3;
    let l8 = m51 ^ m59;
    let l9 = m52 ^ m53;
    let l10 = m53 ^ l4;
    let l11 = m60 ^ l2;
    let l12 = m48 ^ m51;
    let l13 = m50 ^ l0;
    let l14 = m52 ^ m61;
    let l15 = m55 ^ l1;
    let l16 = m56 ^ l0;
    let l17 = m57 ^ l1;
    let l18 = m58 ^ l8;
    let l19 = m63 ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;

    let (n1, n2, n6, n7) = (l16 ^ l26, l19 ^ l28, l13 ^ l27, l6 ^ l23);
    s[7] = l6 ^ l24;
    s[6] = if AFFINE_CONST { !n1 } else { n1 };
    s[5] = if AFFINE_CONST { !n2 } else { n2 };
    s[4] = l6 ^ l21;
    s[3] = l20 ^ l22;
    s[2] = l25 ^ l29;
    s[1] = if AFFINE_CONST { !n6 } else { n6 };
    s[0] = if AFFINE_CONST { !n7 } else { n7 };
}

#[inline(always)]
fn sub_bytes<W: Word>(s: &mut [W; 8]) {
    sbox_circuit::<W, true>(s);
}

/// `f(y) = (L(y))⁻¹`, the GF(2^8) inverse of the inverse affine map's linear part, so that
/// `InvSubBytes(y) = f(y ⊕ 0x63)` (`L(0x63) = 0x05` is the constant of `A⁻¹`).
///
/// The middle (non-linear) layer is Boyar–Peralta's, as in [`sbox_circuit`]. The linear
/// layers are that circuit's top layer composed with `L` on the input side, and `L`
/// composed with its bottom layer (without the `0x63`) on the output side, each
/// re-synthesised with Paar's greedy common-pair algorithm: 31 + 35 XORs, against
/// 16 + 27 + 30 + 16 for running `L`, the forward circuit and `L` again. (Generated for
/// this crate by a script from the equations of `sbox_circuit`; checked exhaustively by
/// the `inverse_sbox_inverts` test.)
#[inline(always)]
#[rustfmt::skip]
fn inv_sbox_core<W: Word>(y: &mut [W; 8]) {
    let z0 = y[0] ^ y[6];
    let z1 = y[1] ^ z0;
    let z2 = y[3] ^ y[4];
    let z3 = y[2] ^ y[7];
    let z4 = y[4] ^ y[5];
    let z5 = y[6] ^ y[7];
    let z6 = y[0] ^ z2;
    let z7 = y[3] ^ z1;
    let z8 = y[4] ^ z1;
    let z9 = y[0] ^ y[3];
    let z10 = y[1] ^ y[2];
    let z11 = y[1] ^ y[3];
    let z12 = y[1] ^ z6;
    let z13 = y[2] ^ y[6];
    let z14 = y[3] ^ y[7];
    let z15 = y[4] ^ y[6];
    let z16 = y[4] ^ y[7];
    let z17 = y[4] ^ z5;
    let z18 = y[5] ^ y[6];
    let z19 = y[5] ^ z2;
    let z20 = y[5] ^ z3;
    let z21 = y[7] ^ z1;
    let z22 = z0 ^ z4;
    let z23 = z0 ^ z14;
    let z24 = z1 ^ z4;
    let z25 = z2 ^ z5;
    let z26 = z2 ^ z10;
    let z27 = z3 ^ z7;
    let z28 = z3 ^ z8;
    let z29 = z4 ^ z13;
    let z30 = z11 ^ z18;
    let t13 = z21;
    let t6 = z29;
    let t23 = z16;
    let t8 = z17;
    let t14 = z27;
    let t19 = z8;
    let u7 = z20;
    let t3 = z12;
    let t16 = z30;
    let t22 = z15;
    let t9 = z6;
    let t26 = z22;
    let t20 = z7;
    let t17 = z24;
    let t1 = z2;
    let t15 = z28;
    let t4 = z25;
    let t27 = z26;
    let t2 = z5;
    let t10 = z23;
    let t24 = z9;
    let t25 = z19;
    let m1 = t13 & t6;
    let m2 = t23 & t8;
    let m3 = t14 ^ m1;
    let m4 = t19 & u7;
    let m5 = m4 ^ m1;
    let m6 = t3 & t16;
    let m7 = t22 & t9;
    let m8 = t26 ^ m6;
    let m9 = t20 & t17;
    let m10 = m9 ^ m6;
    let m11 = t1 & t15;
    let m12 = t4 & t27;
    let m13 = m12 ^ m11;
    let m14 = t2 & t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    let m46 = m44 & t6;
    let m47 = m40 & t8;
    let m48 = m39 & u7;
    let m49 = m43 & t16;
    let m50 = m38 & t9;
    let m51 = m37 & t17;
    let m52 = m42 & t15;
    let m53 = m45 & t27;
    let m54 = m41 & t10;
    let m55 = m44 & t13;
    let m56 = m40 & t23;
    let m57 = m39 & t19;
    let m58 = m43 & t3;
    let m59 = m38 & t22;
    let m60 = m37 & t20;
    let m61 = m42 & t1;
    let m62 = m45 & t4;
    let m63 = m41 & t2;
    let z0 = m52 ^ m61;
    let z1 = m58 ^ z0;
    let z2 = m59 ^ z1;
    let z3 = m54 ^ m62;
    let z4 = m46 ^ z2;
    let z5 = m47 ^ m50;
    let z6 = m48 ^ m56;
    let z7 = m49 ^ m60;
    let z8 = m49 ^ z2;
    let z9 = m50 ^ m53;
    let z10 = m51 ^ z3;
    let z11 = m55 ^ m63;
    let z12 = m57 ^ z6;
    let z13 = z5 ^ z7;
    let z14 = m48 ^ z3;
    let z15 = m51 ^ m63;
    let z16 = m54 ^ m59;
    let z17 = m57 ^ m61;
    let z18 = m62 ^ z8;
    let z19 = z0 ^ z6;
    let z20 = z1 ^ z3;
    let z21 = z4 ^ z5;
    let z22 = z4 ^ z9;
    let z23 = z4 ^ z14;
    let z24 = z8 ^ z10;
    let z25 = z9 ^ z18;
    let z26 = z10 ^ z21;
    let z27 = z11 ^ z13;
    let z28 = z11 ^ z17;
    let z29 = z12 ^ z13;
    let z30 = z12 ^ z15;
    let z31 = z16 ^ z19;
    let z32 = z20 ^ z29;
    let z33 = z22 ^ z30;
    let z34 = z27 ^ z31;
    y[0] = z28;
    y[1] = z25;
    y[2] = z26;
    y[3] = z33;
    y[4] = z23;
    y[5] = z32;
    y[6] = z34;
    y[7] = z24;
}

/// `InvSubBytes` on bit-planes (the `0x63` constant as four NOTs).
#[inline(always)]
#[cfg_attr(not(any(test, feature = "hazmat")), allow(dead_code))]
fn inv_sub_bytes<W: Word>(s: &mut [W; 8]) {
    for b in [0, 1, 5, 6] {
        s[b] = !s[b];
    }
    inv_sbox_core(s);
}

#[inline(always)]
fn add_round_key<W: Word>(s: &mut [W; 8], k: &State) {
    for (a, &b) in s.iter_mut().zip(k) {
        *a = *a ^ W::splat(b);
    }
}

// ---------------------------------------------------------------------------------------
// The ciphers on one batch.

/// One middle round of encryption with its twist `T` (a constant, so the rotations and
/// masks of `mix_columns_t` fold).
#[inline(always)]
fn enc_round<W: Word, const T: u32>(s: &mut [W; 8], k: &State) {
    sub_bytes(s);
    *s = mix_columns_t(s, T);
    add_round_key(s, k);
}

/// One middle round of decryption with its twist `T`.
#[inline(always)]
fn dec_round<W: Word, const T: u32>(s: &mut [W; 8], k: &State) {
    add_round_key(s, k);
    *s = inv_mix_columns_t(s, T);
    inv_sbox_core(s);
}

#[inline(always)]
fn encrypt_batch<W: Word, const R: usize>(rk: &[State; R], s: &mut [W; 8]) {
    let nr = R - 1;
    add_round_key(s, &rk[0]);
    for (i, k) in rk.iter().enumerate().take(nr).skip(1) {
        match i % 4 {
            1 => enc_round::<W, 1>(s, k),
            2 => enc_round::<W, 2>(s, k),
            3 => enc_round::<W, 3>(s, k),
            _ => enc_round::<W, 0>(s, k),
        }
    }
    sub_bytes(s);
    add_round_key(s, &rk[nr]);
    shift_rows_state(s, nr as u32);
}

/// Decryption. `rk` are the encryption keys with `0x63` added to rounds `1..=Nr` (see
/// [`Keys::dec_keys`]): `InvSubBytes(InvMixColumns(x ⊕ k)) = f(InvMixColumns(x ⊕ k ⊕ 0x63))`
/// because InvMixColumns maps a state of equal bytes `c` to itself (14⊕11⊕13⊕9 = 1).
#[inline(always)]
fn decrypt_batch<W: Word, const R: usize>(rk: &[State; R], s: &mut [W; 8]) {
    let nr = R - 1;
    // Undo SR^Nr: SR^(4 - Nr mod 4).
    shift_rows_state(s, (4 - (nr as u32 % 4)) % 4);
    add_round_key(s, &rk[nr]);
    inv_sbox_core(s);
    for i in (1..nr).rev() {
        match i % 4 {
            1 => dec_round::<W, 1>(s, &rk[i]),
            2 => dec_round::<W, 2>(s, &rk[i]),
            3 => dec_round::<W, 3>(s, &rk[i]),
            _ => dec_round::<W, 0>(s, &rk[i]),
        }
    }
    add_round_key(s, &rk[0]);
}

// ---------------------------------------------------------------------------------------
// Key schedule.

/// Four S-boxes at once on a little-endian word (bit `b` of byte `j` at bit `8j + b`).
#[inline(always)]
fn sub_word(w: u32) -> u32 {
    let mut s: [u32; 8] = core::array::from_fn(|b| (w >> b) & 0x0101_0101);
    sbox_circuit::<u32, true>(&mut s);
    s.iter()
        .enumerate()
        .fold(0, |acc, (b, &x)| acc | ((x & 0x0101_0101) << b))
}

/// The FIPS-197 key expansion into round keys as 16-byte blocks (words little-endian, so
/// byte order is the standard one).
fn expand_bytes<const R: usize>(key: &[u8]) -> [[u8; 16]; R] {
    let nk = key.len() / 4;
    debug_assert!(nk == R - 7 && key.len().is_multiple_of(4));
    let total = 4 * R;
    let mut w = [0u32; 60];
    for (i, c) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_le_bytes(c.try_into().expect("4 bytes"));
    }
    let mut rcon: u32 = 1;
    for i in nk..total {
        let mut t = w[i - 1];
        if i % nk == 0 {
            t = sub_word(t.rotate_right(8)) ^ rcon;
            // xtime on the round constant (data-independent).
            rcon = (rcon << 1) ^ (if rcon & 0x80 != 0 { 0x11b } else { 0 });
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    let mut out = [[0u8; 16]; R];
    for (r, o) in out.iter_mut().enumerate() {
        for j in 0..4 {
            o[4 * j..4 * j + 4].copy_from_slice(&w[4 * r + j].to_le_bytes());
        }
    }
    #[cfg(feature = "zeroize")]
    zeroize::Zeroize::zeroize(&mut w);
    out
}

impl<const R: usize> Keys<R> {
    /// Key schedule; `key` has 16, 24 or 32 bytes for `R` = 11, 13, 15.
    pub(crate) fn new(key: &[u8]) -> Self {
        let mut bytes = expand_bytes::<R>(key);
        let zero = [0u8; 16];
        let mut rk = [[0u64; 8]; R];
        // Twist each round key on bytes (`SR^-t`, t = i mod 4: row r rotated right by
        // t·r columns), pack four at a time (one per block lane), then broadcast each lane.
        for (i, k) in bytes.iter_mut().enumerate() {
            let t = i % 4;
            let src = *k;
            for (j, b) in k.iter_mut().enumerate() {
                let (c, r) = (j / 4, j % 4);
                *b = src[4 * ((c + 4 * 4 - t * r) % 4) + r];
            }
        }
        for base in (0..R).step_by(4) {
            let get = |j: usize| bytes.get(base + j).unwrap_or(&zero);
            let s = pack([get(0), get(1), get(2), get(3)]);
            for k in 0..4.min(R - base) {
                for b in 0..8 {
                    // Fill the four block lanes of each nibble (no carries: one bit each).
                    rk[base + k][b] = ((s[b] >> k) & 0x1111_1111_1111_1111) * 0xf;
                }
            }
        }
        #[cfg(feature = "zeroize")]
        zeroize::Zeroize::zeroize(&mut bytes);
        Self { rk }
    }

    #[inline]
    pub(crate) fn encrypt(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        f.call(&Backend { rk: &self.rk })
    }

    /// The encryption round keys (for the `avx2` backend).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[inline]
    pub(crate) fn enc_keys(&self) -> &[State; R] {
        &self.rk
    }

    /// The decryption keys: rounds `1..=Nr` with `0x63` added (NOT of planes 0, 1, 5, 6).
    #[inline]
    pub(crate) fn dec_keys(&self) -> [State; R] {
        let mut rk = self.rk;
        for k in rk.iter_mut().skip(1) {
            for b in [0, 1, 5, 6] {
                k[b] = !k[b];
            }
        }
        rk
    }

    #[inline]
    pub(crate) fn decrypt(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        #[allow(unused_mut)]
        let mut rk = self.dec_keys();
        f.call(&Backend { rk: &rk });
        #[cfg(feature = "zeroize")]
        zeroize::Zeroize::zeroize(&mut rk);
    }
}

/// The block-cipher backend handed to `cipher`'s closures.
struct Backend<'a, const R: usize> {
    rk: &'a [State; R],
}

impl<const R: usize> BlockSizeUser for Backend<'_, R> {
    type BlockSize = U16;
}

/// Four blocks: one batch fills the 64 bits of each bit-plane word (8 words of state,
/// 8 of temporaries in MixColumns: the 16 general registers of x86-64 / AArch64's 31).
impl<const R: usize> ParBlocksSizeUser for Backend<'_, R> {
    type ParBlocksSize = U4;
}

/// Encrypts (`enc`) or decrypts with round keys `rk` (for decryption
/// [`Keys::dec_keys`]) the blocks whose little-endian halves are in `w` (as
/// [`to_planes`] takes them), returning them in the same layout. The `avx2` backend
/// calls this with four batches in the lanes of each word.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn crypt_words<W: Word, const R: usize>(
    rk: &[State; R],
    w: [W; 8],
    enc: bool,
) -> [W; 8] {
    let mut s = to_planes(w);
    if enc {
        encrypt_batch(rk, &mut s);
    } else {
        decrypt_batch(rk, &mut s);
    }
    from_planes(&s)
}

/// Encrypts or decrypts up to four blocks from `input` as one batch.
#[inline(always)]
fn batch<const R: usize>(rk: &[State; R], blocks: [&[u8; 16]; 4], enc: bool) -> [[u8; 16]; 4] {
    let mut s = pack(blocks);
    if enc {
        encrypt_batch(rk, &mut s);
    } else {
        decrypt_batch(rk, &mut s);
    }
    unpack(&s)
}

fn block_ref(b: &Block) -> &[u8; 16] {
    b.as_ref()
}

#[inline(always)]
pub(crate) fn one<const R: usize>(rk: &[State; R], mut block: InOut<'_, '_, Block>, enc: bool) {
    let mut b = [block.clone_in()];
    tail(rk, (&mut b[..]).into(), enc);
    *block.get_out() = b[0];
}

#[inline(always)]
fn par<const R: usize>(
    rk: &[State; R],
    blocks: InOut<'_, '_, ParBlocks<Backend<'_, R>>>,
    enc: bool,
) {
    tail(rk, blocks.into_buf(), enc);
}

/// Any number of blocks, four per batch, in [`tail_enc`] or [`tail_dec`].
#[inline(always)]
pub(crate) fn tail<const R: usize>(rk: &[State; R], blocks: InOutBuf<'_, '_, Block>, enc: bool) {
    if enc {
        tail_enc(rk, blocks)
    } else {
        tail_dec(rk, blocks)
    }
}

/// Encryption of any number of blocks, out of line: one copy per key size. Inlined, the
/// bitsliced rounds (about 20 KB of code) were copied into every `cipher` closure that
/// runs this backend, or `avx2`, whose short tails come here: every mode, counter flavor
/// and direction of every caller. `cbc`'s test of RustCrypto's suite took 5½ minutes of
/// `rustc` for that (Intel Xeon, 2026-12-07). The price is a call per `cipher` backend
/// call, so per four blocks in bulk: 1 % on one block, 4 % on 4 to 64 blocks (the minimum
/// of six alternating runs each, same machine).
#[inline(never)]
fn tail_enc<const R: usize>(rk: &[State; R], blocks: InOutBuf<'_, '_, Block>) {
    batches(rk, blocks, true);
}

/// Decryption of any number of blocks, out of line as [`tail_enc`].
#[inline(never)]
fn tail_dec<const R: usize>(rk: &[State; R], blocks: InOutBuf<'_, '_, Block>) {
    batches(rk, blocks, false);
}

/// `blocks` four at a time, the last batch padded (one copy of the batch's code).
#[inline(always)]
fn batches<const R: usize>(rk: &[State; R], mut blocks: InOutBuf<'_, '_, Block>, enc: bool) {
    while !blocks.is_empty() {
        let n = blocks.len().min(4);
        let (head, rest) = blocks.split_at(n);
        up_to_four(rk, head, enc);
        blocks = rest;
    }
}

/// Up to four blocks as one batch.
#[inline(always)]
fn up_to_four<const R: usize>(rk: &[State; R], mut blocks: InOutBuf<'_, '_, Block>, enc: bool) {
    let n = blocks.len();
    debug_assert!(n <= 4);
    if n == 0 {
        return;
    }
    let zero = Block::default();
    let input: [Block; 4] = core::array::from_fn(|k| {
        if k < n {
            blocks.get(k).clone_in()
        } else {
            zero
        }
    });
    let out = batch(rk, core::array::from_fn(|k| block_ref(&input[k])), enc);
    for (k, o) in out.iter().take(n).enumerate() {
        blocks.get(k).get_out().copy_from_slice(o);
    }
}

impl<const R: usize> BlockCipherEncBackend for Backend<'_, R> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.rk, block, true);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        par(self.rk, blocks, true);
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        tail(self.rk, blocks, true);
    }
}

impl<const R: usize> BlockCipherDecBackend for Backend<'_, R> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.rk, block, false);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        par(self.rk, blocks, false);
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        tail(self.rk, blocks, false);
    }
}

// ---------------------------------------------------------------------------------------
// Hazmat round functions (FIPS-197 steps on whole blocks, as AESENC/AESDEC/AESIMC).

#[cfg(feature = "hazmat")]
/// Applies `f` to the bit-planes of up to four blocks in place.
fn on_blocks(blocks: &mut [Block], f: impl Fn(&mut State)) {
    for chunk in blocks.chunks_mut(4) {
        let n = chunk.len();
        let zero = [0u8; 16];
        let input: [[u8; 16]; 4] =
            core::array::from_fn(|k| if k < n { chunk[k].into() } else { zero });
        let mut s = pack(core::array::from_fn(|k| &input[k]));
        f(&mut s);
        let out = unpack(&s);
        for (b, o) in chunk.iter_mut().zip(out.iter()) {
            b.copy_from_slice(o);
        }
    }
}

#[cfg(feature = "hazmat")]
fn packed_keys(keys: &[Block]) -> [State; 2] {
    let zero = [0u8; 16];
    let get = |i: usize| -> [u8; 16] { keys.get(i).map_or(zero, |k| (*k).into()) };
    let lo: [[u8; 16]; 4] = core::array::from_fn(get);
    let hi: [[u8; 16]; 4] = core::array::from_fn(|k| get(k + 4));
    [
        pack(core::array::from_fn(|k| &lo[k])),
        pack(core::array::from_fn(|k| &hi[k])),
    ]
}

#[cfg(feature = "hazmat")]
/// `AESENC` on each block with its own round key (`keys.len() == blocks.len() <= 8`).
pub(crate) fn cipher_round(blocks: &mut [Block], keys: &[Block]) {
    let k = packed_keys(keys);
    let (lo, hi) = blocks.split_at_mut(blocks.len().min(4));
    for (part, key) in [(lo, &k[0]), (hi, &k[1])] {
        on_blocks(part, |s| {
            sub_bytes(s);
            shift_rows_state(s, 1);
            *s = mix_columns_t(s, 0);
            add_round_key(s, key);
        });
    }
}

#[cfg(feature = "hazmat")]
/// `AESDEC` on each block with its own round key (`keys.len() == blocks.len() <= 8`).
pub(crate) fn equiv_inv_cipher_round(blocks: &mut [Block], keys: &[Block]) {
    let k = packed_keys(keys);
    let (lo, hi) = blocks.split_at_mut(blocks.len().min(4));
    for (part, key) in [(lo, &k[0]), (hi, &k[1])] {
        on_blocks(part, |s| {
            shift_rows_state(s, 3);
            inv_sub_bytes(s);
            *s = inv_mix_columns_t(s, 0);
            add_round_key(s, key);
        });
    }
}

#[cfg(feature = "hazmat")]
/// MixColumns of one block.
pub(crate) fn mix_columns(block: &mut Block) {
    on_blocks(core::slice::from_mut(block), |s| *s = mix_columns_t(s, 0));
}

#[cfg(feature = "hazmat")]
/// InvMixColumns of one block (`AESIMC`).
pub(crate) fn inv_mix_columns(block: &mut Block) {
    on_blocks(core::slice::from_mut(block), |s| {
        *s = inv_mix_columns_t(s, 0)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The soft backend against RustCrypto's `aes` (the reference for `soft` itself):
    /// tails, misalignment and sentinels through `testkit::harness::block`.
    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft", 4);
    }

    /// Reference S-box from the definition (inverse in GF(2^8), then the affine map).
    fn ref_sbox(x: u8) -> u8 {
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
        let inv = (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0);
        let r = |v: u8, n: u32| v.rotate_left(n);
        inv ^ r(inv, 1) ^ r(inv, 2) ^ r(inv, 3) ^ r(inv, 4) ^ 0x63
    }

    #[test]
    fn sbox_circuit_matches_definition() {
        for x in 0..=255u8 {
            let y = sub_word(u32::from_le_bytes([x, x ^ 1, x ^ 0x80, 0]));
            let b = y.to_le_bytes();
            assert_eq!(b[0], ref_sbox(x), "S({x:#04x})");
            assert_eq!(b[1], ref_sbox(x ^ 1));
            assert_eq!(b[2], ref_sbox(x ^ 0x80));
            assert_eq!(b[3], ref_sbox(0));
        }
    }

    #[test]
    fn inverse_sbox_inverts() {
        let blocks: [[u8; 16]; 16] =
            core::array::from_fn(|i| core::array::from_fn(|j| (16 * i + j) as u8));
        for q in blocks.chunks(4) {
            let s0 = pack(core::array::from_fn(|k| &q[k]));
            let mut s = s0;
            sub_bytes(&mut s);
            let out = unpack(&s);
            for k in 0..4 {
                for j in 0..16 {
                    assert_eq!(out[k][j], ref_sbox(q[k][j]));
                }
            }
            inv_sub_bytes(&mut s);
            assert_eq!(s, s0);
        }
    }

    #[test]
    fn pack_layout_and_roundtrip() {
        let blocks: [[u8; 16]; 4] =
            core::array::from_fn(|k| core::array::from_fn(|j| (j * 4 + k) as u8 * 3 + 1));
        let s = pack(core::array::from_fn(|k| &blocks[k]));
        for (k, blk) in blocks.iter().enumerate() {
            for (j, &byte) in blk.iter().enumerate() {
                let (c, r) = (j / 4, j % 4);
                for (b, plane) in s.iter().enumerate() {
                    let bit = (plane >> (16 * r + 4 * c + k)) & 1;
                    assert_eq!(bit as u8, (byte >> b) & 1, "block {k} byte {j} bit {b}");
                }
            }
        }
        assert_eq!(unpack(&s), blocks);
    }

    #[test]
    fn twisted_mix_columns_invert() {
        let blocks: [[u8; 16]; 4] =
            core::array::from_fn(|k| core::array::from_fn(|j| (j * 37 + k * 101) as u8));
        let s = pack(core::array::from_fn(|k| &blocks[k]));
        for t in 0..4 {
            assert_eq!(inv_mix_columns_t(&mix_columns_t(&s, t), t), s);
            assert_eq!(shift_rows_state_copy(shift_rows_state_copy(s, t), 4 - t), s);
        }
    }

    fn shift_rows_state_copy(mut s: State, t: u32) -> State {
        shift_rows_state(&mut s, t);
        s
    }
}
