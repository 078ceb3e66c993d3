//! Portable DES: the reference and fallback backend, correct on every target.
//!
//! SSLeay-style: the eight S-boxes are merged with the P permutation into eight tables
//! of 64 words (`SP`), so a round is two XORs with the round key, one rotation, eight
//! table look-ups and their XOR. The state is kept rotated left by 5 bits, which puts
//! the six E-expansion bits of S-boxes 1, 3, 5, 7 at bits 0, 24, 16, 8 of `R ^ k_even`
//! and, after a rotation by 4, those of S-boxes 2, 4, 6, 8 at bits 24, 16, 8, 0 — E
//! costs nothing. IP and FP are five shift-XOR swaps each; Triple DES applies them once
//! for all three passes (FP of one pass and IP of the next cancel). The key schedule
//! rotates the two 28-bit halves and maps them through PC-2 with eight look-ups of 7
//! bits each (`KC`, `KD`) straight into the round-key layout the rounds use. All tables
//! are computed at compile time from the FIPS 46-3 tables below.
//!
//! Not constant time: the look-ups' addresses depend on key and data.

#![forbid(unsafe_code)]

use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U4, U8},
    inout::{InOut, InOutBuf},
};

/// Round keys of one DES key: for round `r`, `ks[2r]` holds the key bits of S-boxes
/// 1, 3, 5, 7 and `ks[2r + 1]` those of S-boxes 2, 4, 6, 8, at the bit positions of the
/// rotated state (see the module docs and [`FIELD`]).
pub(crate) type Ks = [u32; 32];

/// Bit offset of S-box `i`'s six-bit field in its half of the round key (bit 5 of the
/// field is the first E-expansion bit, bit 0 the last).
pub(crate) const FIELD: [u32; 8] = [0, 24, 24, 16, 16, 8, 8, 0];

/// The S-boxes indexed directly by the six input bits `b1..b6` (`b1` the MSB): RustCrypto
/// des 0.9.0's arrangement of the FIPS 46-3 tables.
#[rustfmt::skip]
pub(crate) const SBOXES: [[u8; 64]; 8] = [
    [
        14,  0,  4, 15, 13,  7,  1,  4,  2, 14, 15,  2, 11, 13,  8,  1,
         3, 10, 10,  6,  6, 12, 12, 11,  5,  9,  9,  5,  0,  3,  7,  8,
         4, 15,  1, 12, 14,  8,  8,  2, 13,  4,  6,  9,  2,  1, 11,  7,
        15,  5, 12, 11,  9,  3,  7, 14,  3, 10, 10,  0,  5,  6,  0, 13,
    ],
    [
        15,  3,  1, 13,  8,  4, 14,  7,  6, 15, 11,  2,  3,  8,  4, 14,
         9, 12,  7,  0,  2,  1, 13, 10, 12,  6,  0,  9,  5, 11, 10,  5,
         0, 13, 14,  8,  7, 10, 11,  1, 10,  3,  4, 15, 13,  4,  1,  2,
         5, 11,  8,  6, 12,  7,  6, 12,  9,  0,  3,  5,  2, 14, 15,  9,
    ],
    [
        10, 13,  0,  7,  9,  0, 14,  9,  6,  3,  3,  4, 15,  6,  5, 10,
         1,  2, 13,  8, 12,  5,  7, 14, 11, 12,  4, 11,  2, 15,  8,  1,
        13,  1,  6, 10,  4, 13,  9,  0,  8,  6, 15,  9,  3,  8,  0,  7,
        11,  4,  1, 15,  2, 14, 12,  3,  5, 11, 10,  5, 14,  2,  7, 12,
    ],
    [
         7, 13, 13,  8, 14, 11,  3,  5,  0,  6,  6, 15,  9,  0, 10,  3,
         1,  4,  2,  7,  8,  2,  5, 12, 11,  1, 12, 10,  4, 14, 15,  9,
        10,  3,  6, 15,  9,  0,  0,  6, 12, 10, 11,  1,  7, 13, 13,  8,
        15,  9,  1,  4,  3,  5, 14, 11,  5, 12,  2,  7,  8,  2,  4, 14,
    ],
    [
         2, 14, 12, 11,  4,  2,  1, 12,  7,  4, 10,  7, 11, 13,  6,  1,
         8,  5,  5,  0,  3, 15, 15, 10, 13,  3,  0,  9, 14,  8,  9,  6,
         4, 11,  2,  8,  1, 12, 11,  7, 10,  1, 13, 14,  7,  2,  8, 13,
        15,  6,  9, 15, 12,  0,  5,  9,  6, 10,  3,  4,  0,  5, 14,  3,
    ],
    [
        12, 10,  1, 15, 10,  4, 15,  2,  9,  7,  2, 12,  6,  9,  8,  5,
         0,  6, 13,  1,  3, 13,  4, 14, 14,  0,  7, 11,  5,  3, 11,  8,
         9,  4, 14,  3, 15,  2,  5, 12,  2,  9,  8,  5, 12, 15,  3, 10,
         7, 11,  0, 14,  4,  1, 10,  7,  1,  6, 13,  0, 11,  8,  6, 13,
    ],
    [
         4, 13, 11,  0,  2, 11, 14,  7, 15,  4,  0,  9,  8,  1, 13, 10,
         3, 14, 12,  3,  9,  5,  7, 12,  5,  2, 10, 15,  6,  8,  1,  6,
         1,  6,  4, 11, 11, 13, 13,  8, 12,  1,  3,  4,  7, 10, 14,  7,
        10,  9, 15,  5,  6,  0,  8, 15,  0, 14,  5,  2,  9,  3,  2, 12,
    ],
    [
        13,  1,  2, 15,  8, 13,  4,  8,  6, 10, 15,  3, 11,  7,  1,  4,
        10, 12,  9,  5,  3,  6, 14, 11,  5,  0,  0, 14, 12,  9,  7,  2,
         7,  2, 11,  1,  4, 14,  1,  7,  9,  4, 12, 10, 14,  8,  2, 13,
         0, 15,  6, 12, 10,  9, 13,  0, 15,  3,  3,  5,  5,  6,  8, 11,
    ],
];

/// FIPS 46-3 P: output bit `j + 1` is input bit `P[j]` (bits numbered 1..=32 from the MSB).
pub(crate) const P: [u8; 32] = [
    16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10, 2, 8, 24, 14, 32, 27, 3, 9, 19,
    13, 30, 6, 22, 11, 4, 25,
];

/// FIPS 46-3 PC-2: round-key bit `j + 1` is bit `PC2[j]` of `C‖D` (1..=56 from the MSB).
pub(crate) const PC2: [u8; 48] = [
    14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2, 41, 52,
    31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
];

/// Left rotations of `C` and `D` before each round.
pub(crate) const SHIFTS: [u32; 16] = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1];

/// Rotation of the state words: bit `b` (1..=32 from the MSB) of a half sits at bit
/// `(37 - b) mod 32` of the word the rounds work on.
const ROT: u32 = 5;

/// Where S-box `i`'s input bit `fb` (5 = `b1`, 0 = `b6`) sits in the 64-bit round key
/// `ks[2r] | ks[2r + 1] << 32`.
pub(crate) const fn key_bit(i: usize, fb: u32) -> u32 {
    FIELD[i] + fb + if i % 2 == 1 { 32 } else { 0 }
}

const fn make_sp() -> [[u32; 64]; 8] {
    let mut t = [[0u32; 64]; 8];
    let mut i = 0;
    while i < 8 {
        let mut x = 0;
        while x < 64 {
            let s = SBOXES[i][x] as u32;
            let mut out = 0u32;
            let mut j = 0;
            while j < 32 {
                // Output bit j + 1 of P takes pre-P bit P[j], which S-box i fills when
                // 4i < P[j] <= 4i + 4 (its bit m = P[j] - 4i - 1, from the MSB).
                let src = P[j] as usize;
                if src > 4 * i && src <= 4 * i + 4 {
                    let m = src - 4 * i - 1;
                    if (s >> (3 - m)) & 1 == 1 {
                        out |= 1 << (31 - j);
                    }
                }
                j += 1;
            }
            t[i][x] = out.rotate_left(ROT);
            x += 1;
        }
        i += 1;
    }
    t
}

/// `KC[c][v]`: the round-key bits (layout of [`key_bit`]) that PC-2 takes from bits
/// `7c + 1 ..= 7c + 7` of `C` (from its MSB) when those bits are `v`; `KD` for `D`.
const fn make_kt(half: usize) -> [[u64; 128]; 4] {
    let mut t = [[0u64; 128]; 4];
    let mut c = 0;
    while c < 4 {
        let mut v = 0;
        while v < 128 {
            let mut out = 0u64;
            let mut bit = 0;
            while bit < 7 {
                if (v >> bit) & 1 == 1 {
                    // Bit `bit` of the chunk is bit 7c + 7 - bit (1-based) of the half.
                    let src = (28 * half + 7 * c + 7 - bit) as u8;
                    let mut j = 0;
                    while j < 48 {
                        if PC2[j] == src {
                            out |= 1 << key_bit(j / 6, 5 - (j % 6) as u32);
                        }
                        j += 1;
                    }
                }
                bit += 1;
            }
            t[c][v] = out;
            v += 1;
        }
        c += 1;
    }
    t
}

static KC: [[u64; 128]; 4] = make_kt(0);
static KD: [[u64; 128]; 4] = make_kt(1);

/// Exchanges the bits of `a` selected by `mask` with those `delta` places higher.
#[inline(always)]
const fn delta_swap(a: u64, delta: u32, mask: u64) -> u64 {
    let b = (a ^ (a >> delta)) & mask;
    a ^ b ^ (b << delta)
}

/// PC-1 by shift-XOR swaps (RustCrypto des 0.9.0's sequence): `C‖D` in the top 56 bits.
#[inline(always)]
pub(crate) const fn pc1(mut key: u64) -> u64 {
    key = delta_swap(key, 2, 0x3333000033330000);
    key = delta_swap(key, 4, 0x0f0f0f0f00000000);
    key = delta_swap(key, 8, 0x009a000a00a200a8);
    key = delta_swap(key, 16, 0x00006c6c0000cccc);
    key = delta_swap(key, 1, 0x1045500500550550);
    key = delta_swap(key, 32, 0x00000000f0f0f5fa);
    key = delta_swap(key, 8, 0x00550055006a00aa);
    key = delta_swap(key, 2, 0x0000333330000300);
    key & 0xFFFFFFFFFFFFFF00
}

/// The initial permutation by five shift-XOR swaps.
#[inline(always)]
pub(crate) const fn ip(mut m: u64) -> u64 {
    m = delta_swap(m, 9, 0x0055005500550055);
    m = delta_swap(m, 18, 0x0000333300003333);
    m = delta_swap(m, 36, 0x000000000F0F0F0F);
    m = delta_swap(m, 24, 0x00000000FF00FF00);
    delta_swap(m, 24, 0x000000FF000000FF)
}

/// The final permutation (inverse of [`ip`]).
#[inline(always)]
pub(crate) const fn fp(mut m: u64) -> u64 {
    m = delta_swap(m, 24, 0x000000FF000000FF);
    m = delta_swap(m, 24, 0x00000000FF00FF00);
    m = delta_swap(m, 36, 0x000000000F0F0F0F);
    m = delta_swap(m, 18, 0x0000333300003333);
    delta_swap(m, 9, 0x0055005500550055)
}

/// The round keys of the DES key `key` (big-endian, parity bits ignored).
#[inline]
pub(crate) fn key_schedule(key: u64) -> Ks {
    let cd = pc1(key) >> 8;
    let mut c = (cd >> 28) as u32;
    let mut d = (cd & 0x0FFF_FFFF) as u32;
    let mut ks = [0u32; 32];
    for (r, &s) in SHIFTS.iter().enumerate() {
        c = ((c << s) | (c >> (28 - s))) & 0x0FFF_FFFF;
        d = ((d << s) | (d >> (28 - s))) & 0x0FFF_FFFF;
        let k = KC[0][(c >> 21) as usize & 127]
            | KC[1][(c >> 14) as usize & 127]
            | KC[2][(c >> 7) as usize & 127]
            | KC[3][c as usize & 127]
            | KD[0][(d >> 21) as usize & 127]
            | KD[1][(d >> 14) as usize & 127]
            | KD[2][(d >> 7) as usize & 127]
            | KD[3][d as usize & 127];
        ks[2 * r] = k as u32;
        ks[2 * r + 1] = (k >> 32) as u32;
    }
    ks
}

/// `KEY_MASKS[q]`: the bits of the 16 round keys (each in the 64-bit layout of
/// [`key_bit`]) that bit `q` of `C‖D` (0 = MSB of the 56) becomes through the rotations
/// and PC-2, which together are a fixed bit map from `C‖D` to the whole schedule. The
/// bitsliced backends' constant-time key schedules OR together the rows of the set bits,
/// selected by masks.
#[cfg_attr(
    not(all(target_arch = "x86_64", simdcrypt_rustc = "1.89")),
    allow(dead_code)
)]
pub(crate) static KEY_MASKS: [[u64; 16]; 56] = {
    let mut t = [[0u64; 16]; 56];
    let mut q = 0;
    while q < 56 {
        let (half, pos) = (q / 28, q % 28);
        let (mut r, mut shift) = (0, 0);
        while r < 16 {
            shift += SHIFTS[r] as usize;
            // Where bit `q` sits (1-based, as PC-2 counts) after `shift` left rotations.
            let at = (pos + 28 - shift % 28) % 28 + 28 * half + 1;
            let mut j = 0;
            while j < 48 {
                if PC2[j] as usize == at {
                    t[q][r] |= 1 << key_bit(j / 6, 5 - (j % 6) as u32);
                }
                j += 1;
            }
            r += 1;
        }
        q += 1;
    }
    t
};

/// The [`Ks`] of 16 round keys in the 64-bit layout of [`key_bit`].
#[cfg_attr(
    not(all(target_arch = "x86_64", simdcrypt_rustc = "1.89")),
    allow(dead_code)
)]
pub(crate) fn ks_from_round_keys(k: [u64; 16]) -> Ks {
    let mut ks = [0u32; 32];
    for (r, k) in k.into_iter().enumerate() {
        ks[2 * r] = k as u32;
        ks[2 * r + 1] = (k >> 32) as u32;
    }
    ks
}

/// [`SP`] with each entry in both halves of a `u64`: the state is kept doubled so every
/// six-bit field, including the one that wraps around bit 31, is a plain shift away.
static SP2: [[u64; 64]; 8] = {
    let sp = make_sp();
    let mut t = [[0u64; 64]; 8];
    let mut i = 0;
    while i < 8 {
        let mut x = 0;
        while x < 64 {
            t[i][x] = sp[i][x] as u64 * 0x1_0000_0001;
            x += 1;
        }
        i += 1;
    }
    t
};

/// S-box 8's entries of [`SP2`] 16 bytes apart: its field sits at bits 4..=9 of
/// `r ^ (k1 << 4)`, so `u & 0x3F0` is the byte offset — one AND instead of a shift and an
/// AND on the critical path (as S-box 1's field at bit 0 is, through the ×8 scale).
static SP8: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut x = 0;
    while x < 64 {
        t[x][0] = SP2[7][x];
        x += 1;
    }
    t
};

/// The round function `f(R, k)` on the doubled rotated state `r` (`R'‖R'`): S-boxes 1, 3,
/// 5, 7 read bits 0, 24, 16, 8 of `r ^ k0`, S-boxes 2, 4, 6, 8 bits 28, 20, 12, 4 of
/// `r ^ (k1 << 4)` — two independent XORs, no rotation on the critical path.
#[inline(always)]
fn f(r: u64, k0: u32, k1: u32) -> u64 {
    sp_lookup(r ^ u64::from(k0), r ^ (u64::from(k1) << 4))
}

/// The eight look-ups of [`f`] on the keyed words `t = r ^ k0`, `u = r ^ (k1 << 4)`.
#[inline(always)]
fn sp_lookup(t: u64, u: u64) -> u64 {
    let sp = &SP2;
    let s = [
        sp[0][(t & 63) as usize],
        sp[2][((t >> 24) & 63) as usize],
        sp[4][((t >> 16) & 63) as usize],
        sp[6][((t >> 8) & 63) as usize],
        sp[1][((u >> 28) & 63) as usize],
        sp[3][((u >> 20) & 63) as usize],
        sp[5][((u >> 12) & 63) as usize],
        SP8[((u >> 4) & 63) as usize][0],
    ];
    // The eight entries have disjoint bits (P sends each S-box to its own four bits), so
    // `|`, `+` and `^` agree on them. Mixing the operators keeps LLVM from flattening
    // the tree into a serial chain of XORs onto `L` (it reassociates one operator at a
    // time): depth 3 after the loads instead of 8.
    ((s[0] | s[1]) + (s[2] | s[3])) | ((s[4] | s[5]) + (s[6] | s[7]))
}

/// One DES pass (16 rounds) over `N` independent blocks, keys forwards (encryption) or
/// backwards (decryption). `(l, r)` in, `(L16, R16)` out, doubled.
#[inline(always)]
fn pass<const N: usize>(ks: &Ks, dec: bool, l: &mut [u64; N], r: &mut [u64; N]) {
    // One branch per pass, so the rounds see a constant key order.
    if dec {
        pass_dir::<N, true>(ks, l, r)
    } else {
        pass_dir::<N, false>(ks, l, r)
    }
}

#[inline(always)]
fn pass_dir<const N: usize, const DEC: bool>(ks: &Ks, l: &mut [u64; N], r: &mut [u64; N]) {
    for i in 0..8 {
        let (a, b) = if DEC {
            (15 - 2 * i, 14 - 2 * i)
        } else {
            (2 * i, 2 * i + 1)
        };
        for n in 0..N {
            l[n] ^= f(r[n], ks[2 * a], ks[2 * a + 1]);
        }
        for n in 0..N {
            r[n] ^= f(l[n], ks[2 * b], ks[2 * b + 1]);
        }
    }
}

/// The salt masks of `crypt(3)` in the layout of [`f`]'s keyed words: bit `k` of the
/// 24-bit `salt` swaps E outputs `k` and `k + 24` (S-box `i = k/6` input `k mod 6` with
/// the same input of S-box `i + 4`). Partners sit 16 bits apart in the same word (`t` for
/// odd-numbered S-boxes, `u` for even-numbered ones); the masks mark the lower one.
#[inline]
pub(crate) fn salt_masks(salt: u32) -> (u64, u64) {
    let (mut mt, mut mu) = (0u64, 0u64);
    for k in 0..24 {
        if (salt >> k) & 1 == 1 {
            let (i, j) = (k / 6, (k % 6) as u32);
            let off = if i % 2 == 1 { 4 } else { 0 };
            let lo = FIELD[i].min(FIELD[i + 4]) + off + (5 - j);
            if i % 2 == 0 {
                mt |= 1 << lo;
            } else {
                mu |= 1 << lo;
            }
        }
    }
    (mt, mu)
}

/// `f` with the salt swap of `crypt(3)`: the partner fields of the expanded `R` exchange
/// the bits in `mt`/`mu` (see [`salt_masks`]), then the round key is XORed in (FreeSec's
/// order: salt before key). The swap is linear, so it is applied to the keyed words as
/// the fields are extracted: `x = (R ^ R >> 16) & m` does not wait for the key, and each
/// field is `(keyed or keyed >> 16) ^ x`. `TRAD`: a 12-bit salt, which only touches
/// S-boxes 1, 2, 5, 6 — the other four read the keyed words directly.
#[inline(always)]
fn f_salted<const TRAD: bool>(r: u64, k0: u32, k1: u32, mt: u64, mu: u64) -> (u64, u64) {
    let d = r ^ (r >> 16);
    let (xt, xu) = (d & mt, d & mu);
    let ka = r ^ u64::from(k0);
    let kb = r ^ (u64::from(k1) << 4);
    let (a, b) = (ka ^ xt, (ka >> 16) ^ xt);
    let (c, e) = (kb ^ xu, (kb >> 16) ^ xu);
    let sp = &SP2;
    // Fields of `f`'s `t` (S-boxes 1, 3, 5, 7) and `u` (2, 4, 6, 8) after the swap.
    let s1 = sp[0][(a & 63) as usize];
    let s5 = sp[4][(b & 63) as usize];
    let s2 = sp[1][((e >> 12) & 63) as usize];
    let s6 = sp[5][((c >> 12) & 63) as usize];
    let (s3, s7, s4, s8) = if TRAD {
        (
            sp[2][((ka >> 24) & 63) as usize],
            sp[6][((ka >> 8) & 63) as usize],
            sp[3][((kb >> 20) & 63) as usize],
            SP8[((kb >> 4) & 63) as usize][0],
        )
    } else {
        (
            sp[2][((b >> 8) & 63) as usize],
            sp[6][((a >> 8) & 63) as usize],
            sp[3][((e >> 4) & 63) as usize],
            SP8[((c >> 4) & 63) as usize][0],
        )
    };
    // Disjoint bits, so `|`, `+` and `^` agree; mixing them keeps LLVM's tree (see `f`).
    // Returned in two halves: with a 12-bit salt the first is ready earlier (no swap).
    ((s3 | s7) + (s4 | s8), (s1 | s5) + (s2 | s6))
}

/// One salted DES pass over one block (`crypt(3)`'s modified DES), keys forwards or
/// backwards.
#[inline(always)]
fn pass_salted<const DEC: bool, const TRAD: bool>(
    ks: &Ks,
    mt: u64,
    mu: u64,
    l: &mut u64,
    r: &mut u64,
) {
    for i in 0..8 {
        let (a, b) = if DEC {
            (15 - 2 * i, 14 - 2 * i)
        } else {
            (2 * i, 2 * i + 1)
        };
        // `(l ^ early) ^ late`: the XOR with the early half overlaps the late look-ups.
        let (e, x) = f_salted::<TRAD>(*r, ks[2 * a], ks[2 * a + 1], mt, mu);
        *l = (*l ^ e) ^ x;
        let (e, x) = f_salted::<TRAD>(*l, ks[2 * b], ks[2 * b + 1], mt, mu);
        *r = (*r ^ e) ^ x;
    }
}

/// `count` chained DES passes with the `crypt(3)` salt (24 bits; 0 is plain DES) over
/// the block `x` (little-endian), forwards or backwards: FreeSec's `do_des`.
#[inline]
pub(crate) fn crypt_salted(ks: &Ks, salt: u32, count: u32, dec: bool, x: u64) -> u64 {
    let (mut l, mut r) = ip_t(x);
    let (mt, mu) = salt_masks(salt);
    let trad = salt < 1 << 12;
    for _ in 0..count {
        match (dec, trad) {
            (false, true) => pass_salted::<false, true>(ks, mt, mu, &mut l, &mut r),
            (false, false) => pass_salted::<false, false>(ks, mt, mu, &mut l, &mut r),
            (true, true) => pass_salted::<true, true>(ks, mt, mu, &mut l, &mut r),
            (true, false) => pass_salted::<true, false>(ks, mt, mu, &mut l, &mut r),
        }
        core::mem::swap(&mut l, &mut r);
    }
    fp_t(l, r)
}

/// Doubles a 32-bit half: `R'‖R'`.
const fn dbl(x: u32) -> u64 {
    x as u64 * 0x1_0000_0001
}

/// `IPT[h][k][v]`: the doubled rotated half `h` (0 = `L`, 1 = `R`) of IP's output
/// contributed by nibble `k` of the block loaded as a little-endian `u64` when it is `v`
/// (IP is a bit permutation, so the contributions OR together). Sixteen look-ups and an
/// OR tree: about half the latency of the five dependent swaps, which matters to CBC
/// encryption, where every block waits for the one before.
static IPT: [[[u64; 16]; 16]; 2] = {
    let mut t = [[[0u64; 16]; 16]; 2];
    let mut k = 0;
    while k < 16 {
        let mut v = 0;
        while v < 16 {
            let x = ip(((v as u64) << (4 * k)).swap_bytes());
            t[0][k][v] = dbl(((x >> 32) as u32).rotate_left(ROT));
            t[1][k][v] = dbl((x as u32).rotate_left(ROT));
            v += 1;
        }
        k += 1;
    }
    t
};

/// `FPT[h][k][v]`: FP's output (as a little-endian `u64`) contributed by nibble `k` of
/// the low word of state half `h` (0: the word that becomes bits 1..=32 of the
/// pre-output, 1: bits 33..=64), rotation undone.
static FPT: [[[u64; 16]; 8]; 2] = {
    let mut t = [[[0u64; 16]; 8]; 2];
    let mut k = 0;
    while k < 8 {
        let mut v = 0;
        while v < 16 {
            let w = (((v as u32) << (4 * k)).rotate_right(ROT)) as u64;
            t[0][k][v] = fp(w << 32).swap_bytes();
            t[1][k][v] = fp(w).swap_bytes();
            v += 1;
        }
        k += 1;
    }
    t
};

/// The OR of `t[k][nibble k of w]` for the first `K` nibbles of `w`, as a tree.
#[inline(always)]
fn nibbles<const K: usize>(t: &[[u64; 16]; K], w: u64) -> u64 {
    let v: [u64; K] = core::array::from_fn(|k| t[k][((w >> (4 * k)) & 15) as usize]);
    // The contributions have disjoint bits, so OR, XOR and ADD all combine them. Mixing
    // the three keeps LLVM's SLP vectorizer from packing the tree into vector registers
    // (one `vmovq` per look-up, then a vector reduction: longer latency on the CBC
    // chain, 9 % slower DES-CBC encryption in an AVX-512 context).
    let mut acc = [0u64; 4];
    for (k, &x) in v.iter().enumerate() {
        match k % 4 {
            0 => acc[0] |= x,
            1 => acc[1] ^= x,
            2 => acc[2] = acc[2].wrapping_add(x),
            _ => acc[3] |= x,
        }
    }
    (acc[0] ^ acc[1]) | acc[2].wrapping_add(acc[3])
}

/// IP by [`IPT`]: the doubled rotated halves `(L', R')` of the block `x` (little-endian).
#[inline(always)]
fn ip_t(x: u64) -> (u64, u64) {
    (nibbles(&IPT[0], x), nibbles(&IPT[1], x))
}

/// FP by [`FPT`]: the block (little-endian) from the pre-output halves `hi‖lo`.
#[inline(always)]
fn fp_t(hi: u64, lo: u64) -> u64 {
    nibbles(&FPT[0], hi) | nibbles(&FPT[1], lo)
}

/// A cipher made of DES passes: `passes[i] = (key index, decrypt?)` in order.
pub(crate) type Passes<const P: usize> = [(usize, bool); P];

/// Runs `passes` over `N` blocks (as little-endian `u64`s) with one IP and one FP.
#[inline(always)]
pub(crate) fn crypt_n<const N: usize, const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    x: [u64; N],
) -> [u64; N] {
    let mut l = [0u64; N];
    let mut r = [0u64; N];
    for n in 0..N {
        (l[n], r[n]) = ip_t(x[n]);
    }
    for &(k, dec) in passes {
        pass(&ks[k], dec, &mut l, &mut r);
        // FP of this pass and IP of the next cancel; the halves swap.
        core::mem::swap(&mut l, &mut r);
    }
    // After the last swap `l` holds R16 and `r` holds L16: the pre-output is R16‖L16.
    core::array::from_fn(|n| fp_t(l[n], r[n]))
}

/// One block through `passes`.
#[inline(always)]
pub(crate) fn crypt1<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    mut block: InOut<'_, '_, Block>,
) {
    let x = u64::from_le_bytes(block.clone_in().into());
    let [y] = crypt_n(ks, passes, [x]);
    *block.get_out() = y.to_le_bytes().into();
}

/// Blocks handled together by [`Backend`]: four independent look-up chains keep the
/// load ports busy while each chain waits on its table loads (a round is a chain of
/// XOR, shift, load and an XOR tree).
pub(crate) const PAR: usize = 4;

/// `blocks` through `passes`, four at a time, then one at a time.
///
/// Triple DES out of line ([`crypt_blocks_3`]); single DES inlined, where its constant
/// key order and key array keep it 15 % faster than a call (8 KiB of ECB, Intel Xeon,
/// 2026-12-07) for a few KB per caller.
#[inline(always)]
pub(crate) fn crypt_blocks<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    blocks: InOutBuf<'_, '_, Block>,
) {
    if P == 1 {
        blocks_with(ks, passes, blocks)
    } else {
        crypt_blocks_3(ks, passes, blocks)
    }
}

/// [`crypt_blocks`] for Triple DES, out of line: one copy per pass count. Inlined, its
/// unrolled rounds (both key orders of three passes, four blocks wide) were copied into
/// every `cipher` closure that runs `soft` or the tails of `avx2`/`avx512`, about 36 KB
/// of code for each mode, counter flavor and direction of every caller: most of the 5½
/// minutes `rustc` spent on `ctr`'s differential test (Intel Xeon, 2026-12-07). Out of
/// line it also ran 13 % faster there.
#[inline(never)]
fn crypt_blocks_3<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    blocks: InOutBuf<'_, '_, Block>,
) {
    blocks_with(ks, passes, blocks)
}

/// The loop of [`crypt_blocks`].
#[inline(always)]
fn blocks_with<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    mut blocks: InOutBuf<'_, '_, Block>,
) {
    let (chunks, tail) = blocks.reborrow().into_chunks::<U4>();
    for mut chunk in chunks {
        let inp = chunk.clone_in();
        let x: [u64; PAR] = core::array::from_fn(|i| u64::from_le_bytes(inp[i].into()));
        let y = crypt_n(ks, passes, x);
        let out = chunk.get_out();
        for i in 0..PAR {
            out[i] = y[i].to_le_bytes().into();
        }
    }
    for b in tail {
        crypt1(ks, passes, b);
    }
}

/// The `soft` backend handed to `cipher`'s closures: `P` passes over the keys `ks`.
pub(crate) struct Backend<'a, const P: usize> {
    pub(crate) ks: &'a [Ks],
    pub(crate) passes: Passes<P>,
}

impl<const P: usize> BlockSizeUser for Backend<'_, P> {
    type BlockSize = U8;
}

impl<const P: usize> ParBlocksSizeUser for Backend<'_, P> {
    type ParBlocksSize = U4;
}

impl<const P: usize> BlockCipherEncBackend for Backend<'_, P> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        crypt1(self.ks, &self.passes, block);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        crypt_blocks(self.ks, &self.passes, blocks.into_buf());
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        crypt_blocks(self.ks, &self.passes, blocks);
    }
}

impl<const P: usize> BlockCipherDecBackend for Backend<'_, P> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        crypt1(self.ks, &self.passes, block);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        crypt_blocks(self.ks, &self.passes, blocks.into_buf());
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        crypt_blocks(self.ks, &self.passes, blocks);
    }
}

#[cfg(test)]
mod tests {
    /// ECB through the `soft` backend against RustCrypto's des 0.9.0 for DES and every
    /// Triple-DES flavor (`testkit::harness::block`).
    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft", super::PAR);
    }
}
