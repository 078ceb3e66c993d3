//! Word-sliced Serpent on `zmm` registers, for CPUs with AVX-512F (and VL, for the
//! one-block code).
//!
//! Sixteen blocks share four `zmm` registers: after a 4×4 transpose of 32-bit words inside
//! each 128-bit lane, register `j` holds word `j` of all sixteen blocks, and the round code
//! of `soft.rs` (`serpent_rounds!`) runs on sixteen blocks at once. AVX-512 adds `vprold`
//! (a rotation in one instruction) and `vpternlogd` (any Boolean function of three inputs
//! in one instruction): the S-boxes are depth-2 networks of 9–12 `vpternlogd`
//! ([`ternlog_sboxes!`], 10.75 on average), and the compiler folds the linear
//! transformation's three-way XORs into one `vpternlogd` each. Two sets run interleaved
//! (32 blocks). A single block (CBC encryption) runs the same code on `xmm` registers
//! ([`one`]), where the depth-2 S-boxes shorten the chain of dependent instructions.
//!
//! Constant time: bitwise operations, rotations and shifts by constants and shuffles only;
//! no table, no data- or key-dependent branch or index.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::RoundKeys;
use super::soft::serpent_rounds;
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U16, U32},
    inout::{InOut, InOutBuf},
};

/// Writes the sixteen S-boxes as networks of `vpternlogd` (`t::<imm>(x, y, z)`, defined by
/// the expanding module for its word type `W`), depth 2: each output bit `y` is
/// `t(x_p, g, h)` for an input word `x_p` and two functions `g`, `h` of the other three
/// inputs (a Shannon expansion on `x_p`, or `g` = one cofactor and `h` = the XOR of both),
/// and the gates `g`, `h` are shared between output bits where possible. The split input
/// and encoding per output bit were chosen by exhaustive search over the 4 × 3 choices per
/// bit (4⁴·3⁴ combinations per S-box), minimising the distinct gates, and every network was
/// checked against the S-box's truth table (evaluated from Osvik's networks in `soft.rs`)
/// on all 16 inputs; the search was a one-off script (not part of the crate: it is fully
/// described by this paragraph), and `kat.rs` and the in-process test against `soft`
/// re-check the result on every run.
/// Total: 172 gates for the 16 S-boxes (10.75 on average: 9–12), against ≈12 instructions
/// when the compiler fuses Osvik's two-input networks (measured, `objdump`).
macro_rules! ternlog_sboxes {
    ($(#[$m:meta])*) => {
        /// Inverse S-box 0: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d0([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x5b>(b, c, d);
            let g1 = t::<0x29>(b, c, d);
            let g2 = t::<0x1c>(b, c, d);
            let g3 = t::<0xa7>(b, c, d);
            let g4 = t::<0xa9>(a, b, d);
            let g5 = t::<0x9d>(b, c, d);
            let g6 = t::<0x4a>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0x24>(c, g4, c),
                t::<0xac>(a, g5, g6),
            ]
        }

        /// Inverse S-box 1: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d1([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x2f>(b, c, d);
            let g1 = t::<0x68>(b, c, d);
            let g2 = t::<0xb6>(b, c, d);
            let g3 = t::<0x54>(b, c, d);
            let g4 = t::<0x65>(b, c, d);
            let g5 = t::<0x1e>(b, c, d);
            let g6 = t::<0xc6>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0xac>(a, g4, g5),
                t::<0x24>(a, g6, a),
            ]
        }

        /// Inverse S-box 2: 6 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d2([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x5c>(b, c, d);
            let g1 = t::<0xb4>(b, c, d);
            let g2 = t::<0xc6>(b, c, d);
            let g3 = t::<0x39>(b, c, d);
            let g4 = t::<0x95>(b, c, d);
            let g5 = t::<0x2d>(b, c, d);
            [
                t::<0x24>(a, g0, a),
                t::<0xac>(a, g1, g2),
                t::<0xac>(a, g3, g1),
                t::<0xac>(a, g4, g5),
            ]
        }

        /// Inverse S-box 3: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d3([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x36>(a, c, d);
            let g1 = t::<0xd8>(a, c, d);
            let g2 = t::<0xd6>(b, c, d);
            let g3 = t::<0x34>(b, c, d);
            let g4 = t::<0x68>(a, c, d);
            let g5 = t::<0xb4>(b, c, d);
            let g6 = t::<0x4d>(b, c, d);
            [
                t::<0xac>(b, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0x6c>(b, g4, g0),
                t::<0xac>(a, g5, g6),
            ]
        }

        /// Inverse S-box 4: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d4([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0xe1>(b, c, d);
            let g1 = t::<0x9c>(b, c, d);
            let g2 = t::<0x86>(a, c, d);
            let g3 = t::<0xc9>(b, c, d);
            let g4 = t::<0x6a>(b, c, d);
            let g5 = t::<0xb4>(b, c, d);
            let g6 = t::<0x4e>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0x6c>(b, g2, a),
                t::<0xac>(a, g3, g4),
                t::<0xac>(a, g5, g6),
            ]
        }

        /// Inverse S-box 5: 6 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d5([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0xda>(a, b, d);
            let g1 = t::<0x9a>(b, c, d);
            let g2 = t::<0x63>(b, c, d);
            let g3 = t::<0x6c>(b, c, d);
            let g4 = t::<0x4b>(b, c, d);
            let g5 = t::<0x99>(a, b, c);
            [
                t::<0x6c>(c, g0, b),
                t::<0xac>(a, g1, g2),
                t::<0xac>(a, g3, g4),
                t::<0x6c>(a, g5, g1),
            ]
        }

        /// Inverse S-box 6: 5 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d6([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x65>(a, c, d);
            let g1 = t::<0xb1>(a, c, d);
            let g2 = t::<0x69>(b, c, d);
            let g3 = t::<0x87>(a, c, d);
            let g4 = t::<0x9a>(a, c, d);
            [
                t::<0xac>(b, g0, g1),
                t::<0x6c>(a, g2, c),
                t::<0x6c>(b, g3, g1),
                t::<0xac>(b, g1, g4),
            ]
        }

        /// Inverse S-box 7: 8 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_d7([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x67>(b, c, d);
            let g1 = t::<0x38>(b, c, d);
            let g2 = t::<0x79>(b, c, d);
            let g3 = t::<0xa4>(b, c, d);
            let g4 = t::<0xd2>(b, c, d);
            let g5 = t::<0x36>(b, c, d);
            let g6 = t::<0x6c>(b, c, d);
            let g7 = t::<0x56>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0xac>(a, g4, g5),
                t::<0xac>(a, g6, g7),
            ]
        }

        /// S-box 0: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e0([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0xd9>(b, c, d);
            let g1 = t::<0x52>(b, c, d);
            let g2 = t::<0x1f>(b, c, d);
            let g3 = t::<0x64>(b, c, d);
            let g4 = t::<0x7a>(b, c, d);
            let g5 = t::<0x86>(b, c, d);
            let g6 = t::<0x36>(a, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0xac>(a, g4, g5),
                t::<0x24>(b, g6, b),
            ]
        }

        /// S-box 1: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e1([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0xc7>(b, c, d);
            let g1 = t::<0x1a>(b, c, d);
            let g2 = t::<0xb9>(b, c, d);
            let g3 = t::<0x52>(b, c, d);
            let g4 = t::<0x69>(b, c, d);
            let g5 = t::<0x25>(b, c, d);
            let g6 = t::<0x6b>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0x6c>(a, g4, b),
                t::<0xac>(a, g5, g6),
            ]
        }

        /// S-box 2: 6 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e2([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x96>(b, c, d);
            let g1 = t::<0x74>(b, c, d);
            let g2 = t::<0xc9>(b, c, d);
            let g3 = t::<0xb2>(b, c, d);
            let g4 = t::<0x65>(b, c, d);
            let g5 = t::<0xe9>(a, b, c);
            [
                t::<0x6c>(a, g0, c),
                t::<0xac>(a, g1, g2),
                t::<0xac>(a, g3, g4),
                t::<0x6c>(d, g5, b),
            ]
        }

        /// S-box 3: 8 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e3([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x92>(b, c, d);
            let g1 = t::<0x4f>(b, c, d);
            let g2 = t::<0x78>(b, c, d);
            let g3 = t::<0xc9>(b, c, d);
            let g4 = t::<0xc6>(b, c, d);
            let g5 = t::<0xa9>(b, c, d);
            let g6 = t::<0x1e>(b, c, d);
            let g7 = t::<0x95>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0xac>(a, g4, g5),
                t::<0xac>(a, g6, g7),
            ]
        }

        /// S-box 4: 6 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e4([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x39>(a, c, d);
            let g1 = t::<0x9c>(a, c, d);
            let g2 = t::<0xc2>(b, c, d);
            let g3 = t::<0x79>(b, c, d);
            let g4 = t::<0xa4>(b, c, d);
            let g5 = t::<0xcb>(b, c, d);
            [
                t::<0xac>(b, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0xac>(a, g4, g5),
                t::<0x6c>(b, g1, g0),
            ]
        }

        /// S-box 5: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e5([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x71>(a, b, d);
            let g1 = t::<0xb1>(b, c, d);
            let g2 = t::<0x1e>(b, c, d);
            let g3 = t::<0xad>(b, c, d);
            let g4 = t::<0x49>(b, c, d);
            let g5 = t::<0x69>(b, c, d);
            let g6 = t::<0x74>(b, c, d);
            [
                t::<0x24>(c, g0, c),
                t::<0xac>(a, g1, g2),
                t::<0xac>(a, g3, g4),
                t::<0xac>(a, g5, g6),
            ]
        }

        /// S-box 6: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e6([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x29>(b, c, d);
            let g1 = t::<0x7a>(b, c, d);
            let g2 = t::<0x99>(a, b, c);
            let g3 = t::<0x5b>(b, c, d);
            let g4 = t::<0x34>(b, c, d);
            let g5 = t::<0x9e>(b, c, d);
            let g6 = t::<0x62>(b, c, d);
            [
                t::<0xac>(a, g0, g1),
                t::<0x6c>(a, g2, d),
                t::<0xac>(a, g3, g4),
                t::<0xac>(a, g5, g6),
            ]
        }

        /// S-box 7: 7 + 4 `vpternlogd`, depth 2.
        $(#[$m])*
        fn sbox_e7([a, b, c, d]: [W; 4]) -> [W; 4] {
            let g0 = t::<0x9b>(b, c, d);
            let g1 = t::<0x49>(b, c, d);
            let g2 = t::<0x56>(b, c, d);
            let g3 = t::<0xe8>(b, c, d);
            let g4 = t::<0xb6>(b, c, d);
            let g5 = t::<0x83>(b, c, d);
            let g6 = t::<0xb6>(a, b, c);
            [
                t::<0xac>(a, g0, g1),
                t::<0xac>(a, g2, g3),
                t::<0xac>(a, g4, g5),
                t::<0x6c>(d, g6, a),
            ]
        }
    };
}

type W = __m512i;

/// `vpternlogd`: bit `4·a + 2·b + c` of `I` is the result for input bits `a`, `b`, `c`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn t<const I: i32>(a: W, b: W, c: W) -> W {
    _mm512_ternarylogic_epi32::<I>(a, b, c)
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn xor(a: W, b: W) -> W {
    _mm512_xor_si512(a, b)
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn rol<const L: i32, const R: i32>(a: W) -> W {
    _mm512_rol_epi32::<L>(a)
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn shl<const S: u32>(a: W) -> W {
    _mm512_slli_epi32::<S>(a)
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn splat(a: u32) -> W {
    _mm512_set1_epi32(a as i32)
}

ternlog_sboxes!(#[inline] #[target_feature(enable = "avx512f,avx512vl")]);
serpent_rounds!(#[inline] #[target_feature(enable = "avx512f,avx512vl")]);

/// Blocks per set: one 32-bit lane each in a `zmm` register.
const LANES: usize = 16;

/// 4×4 transpose of 32-bit words inside each 128-bit lane (its own inverse): from four
/// registers of four blocks each to four registers of one word of sixteen blocks each.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn transpose([a, b, c, d]: [W; 4]) -> [W; 4] {
    let t0 = _mm512_unpacklo_epi32(a, b);
    let t1 = _mm512_unpackhi_epi32(a, b);
    let t2 = _mm512_unpacklo_epi32(c, d);
    let t3 = _mm512_unpackhi_epi32(c, d);
    [
        _mm512_unpacklo_epi64(t0, t2),
        _mm512_unpackhi_epi64(t0, t2),
        _mm512_unpacklo_epi64(t1, t3),
        _mm512_unpackhi_epi64(t1, t3),
    ]
}

/// Transforms `N·16` blocks from `inp` to `out` (byte pointers, `N·256` bytes each).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `N·256` bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn run_n<const N: usize>(k: &RoundKeys, inp: *const u8, out: *mut u8, enc: bool) {
    let x: [[W; 4]; N] = core::array::from_fn(|s| {
        transpose(core::array::from_fn(|j| {
            // SAFETY: the caller gives N·256 readable bytes; `loadu` is unaligned.
            unsafe { _mm512_loadu_si512(inp.add(256 * s + 64 * j).cast()) }
        }))
    });
    let y = if enc {
        encrypt_n(k, x)
    } else {
        decrypt_n(k, x)
    };
    for (s, v) in y.into_iter().enumerate() {
        for (j, v) in transpose(v).into_iter().enumerate() {
            // SAFETY: the caller gives N·256 writable bytes; `storeu` is unaligned.
            unsafe { _mm512_storeu_si512(out.add(256 * s + 64 * j).cast(), v) };
        }
    }
}

/// Whether this CPU runs 512-bit operations as two 256-bit halves (the `amd` class: Zen 4;
/// Zen 5's full-width units are not measured yet). There 2–8 blocks are cheaper in one
/// padded `ymm` pass of the `avx2` code than on the one-block `xmm` code or in a padded
/// `zmm` pass, and one block encrypts faster on `soft` (see [`single`]). Zen 4 (EPYC, family 25 model 17), TSC
/// cycles per byte, one interleaved run of `cargo run --release -p speed --bin auto SIZE
/// serpent` per size:
///
/// | blocks | `soft` | `xmm`, one by one | `avx2` (`ymm`) | `zmm`, padded |
/// |---|---|---|---|---|
/// | 1 | 23.2 | 26.4 | | |
/// | 2 | 21.5 | 24.5 | 16.7 | |
/// | 3 | 21.3 | 25.1 | 11.7 | |
/// | 4 | | | 8.5 | 9.9 |
/// | 8 | | | 4.0 | 4.9 |
/// | 12 | | | 5.3 (two passes) | 3.3 |
///
/// The Intel Xeon reference machine keeps the `xmm` code below the table's `blocks` and
/// `zmm` from there (issue 18's measurements).
#[inline]
fn half_width() -> bool {
    const HALF_WIDTH: u64 = simdcrypt_dispatch::mask(&["amd"]);
    simdcrypt_dispatch::has(HALF_WIDTH)
}

/// Any number of blocks: 32 at a time, then 16, then the last 1–15 padded to 16, or one
/// at a time when fewer than the table's `blocks`; on [`half_width`] CPUs a last 2–8 on
/// the `avx2` code. A last single block runs [`single`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn run_blocks(k: &RoundKeys, buf: InOutBuf<'_, '_, Block<Backend<'_>>>, enc: bool) {
    let n = buf.len();
    let (inp, out) = buf.into_raw();
    let (inp, out) = (inp.cast::<u8>(), out.cast::<u8>());
    let mut at = 0;
    while n - at >= 2 * LANES {
        // SAFETY: blocks `at..at + 32` are in the buffer (16 bytes each); in-place
        // operation is fine: every load of a batch happens before its stores.
        unsafe { run_n::<2>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += 2 * LANES;
    }
    if n - at >= LANES {
        // SAFETY: as above, blocks `at..at + 16`.
        unsafe { run_n::<1>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += LANES;
    }
    if n - at == 1 {
        // SAFETY: block `at` is in the buffer (16 bytes at `16·at`); it is read whole
        // before it is written.
        let x: [u8; 16] = unsafe { core::ptr::read_unaligned(inp.add(16 * at).cast()) };
        let y = single(k, &x, enc);
        // SAFETY: as above, for the output.
        unsafe { core::ptr::write_unaligned(out.add(16 * at).cast::<[u8; 16]>(), y) };
    } else if at < n && n - at <= 8 && half_width() {
        // SAFETY: blocks `at..n` (1 to 8) are in the buffer; a `token::Avx512` (the only
        // way here) includes AVX2, the target feature of `run_short`.
        unsafe { super::avx2::run_short(k, inp.add(16 * at), out.add(16 * at), n - at, enc) };
    } else if at < n && n - at < super::token::Avx512::MIN_BLOCKS {
        // A few blocks run one at a time on the single-block code: a padded pass costs
        // as much as 16 blocks (the table's `blocks`; issue 18).
        for i in at..n {
            // SAFETY: block `i` is in the buffer (16 bytes at `16·i`); each block is read
            // whole before it is written.
            let x: [u8; 16] = unsafe { core::ptr::read_unaligned(inp.add(16 * i).cast()) };
            let y = one::run(k, &x, enc);
            // SAFETY: as above, for the output.
            unsafe { core::ptr::write_unaligned(out.add(16 * i).cast::<[u8; 16]>(), y) };
        }
    } else if at < n {
        let rest = n - at;
        let mut tmp = [0u8; 16 * LANES];
        // SAFETY: blocks `at..n` are in the buffer; `tmp` has room for them.
        unsafe { core::ptr::copy_nonoverlapping(inp.add(16 * at), tmp.as_mut_ptr(), 16 * rest) };
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 256 bytes.
        unsafe { run_n::<1>(k, p, p, enc) };
        // SAFETY: blocks `at..n` of the output are in the buffer.
        unsafe { core::ptr::copy_nonoverlapping(tmp.as_ptr(), out.add(16 * at), 16 * rest) };
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AVX-512F.
pub(crate) struct Backend<'a>(&'a RoundKeys);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// 32 blocks = two sets of four `zmm` words (8 registers of state plus a few temporaries
/// of the 32): each S-box network is a chain of dependent `vpternlogd`s (latency 1, two per
/// cycle on ports 0 and 5), so two independent sets keep both ports busy. A third set
/// would fit the registers too, but makes batches of 48 blocks (not a power of two: the
/// modes' buffers and short messages would leave more to the padded tail path).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx512` (AVX-512F, AVX-512VL and AVX2 with OS support for `zmm`).
        unsafe { one_block(self.0, block, true) }
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx512` (AVX-512F, AVX-512VL and AVX2 with OS support for `zmm`).
        unsafe { run_blocks(self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { one_block(self.0, block, false) }
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, false) }
    }
}

/// The round code on one block: word `j` in lane 0 of `xmm` register `j`, so the S-boxes
/// get `vpternlogd` and the rotations `vprold` as in the wide code (a latency-bound chain:
/// CBC encryption's case).
mod one {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    use super::RoundKeys;
    use crate::backends::soft::serpent_rounds;

    type W = __m128i;

    /// `vpternlogd` on `xmm`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn t<const I: i32>(a: W, b: W, c: W) -> W {
        _mm_ternarylogic_epi32::<I>(a, b, c)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn xor(a: W, b: W) -> W {
        _mm_xor_si128(a, b)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn rol<const L: i32, const R: i32>(a: W) -> W {
        _mm_rol_epi32::<L>(a)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn shl<const S: i32>(a: W) -> W {
        _mm_slli_epi32::<S>(a)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    fn splat(a: u32) -> W {
        _mm_cvtsi32_si128(a as i32)
    }

    ternlog_sboxes!(#[inline] #[target_feature(enable = "avx512f,avx512vl")]);
    serpent_rounds!(#[inline] #[target_feature(enable = "avx512f,avx512vl")]);

    /// Encrypts (`enc`) or decrypts one block.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    pub(super) fn run(k: &RoundKeys, b: &[u8; 16], enc: bool) -> [u8; 16] {
        // SAFETY: `b` is 16 readable bytes; `loadu` is unaligned.
        let v = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
        let x = [
            v,
            _mm_srli_si128::<4>(v),
            _mm_srli_si128::<8>(v),
            _mm_srli_si128::<12>(v),
        ];
        let [[y0, y1, y2, y3]] = if enc {
            encrypt_n(k, [x])
        } else {
            decrypt_n(k, [x])
        };
        let v = _mm_unpacklo_epi64(_mm_unpacklo_epi32(y0, y1), _mm_unpacklo_epi32(y2, y3));
        let mut out = [0u8; 16];
        // SAFETY: `out` is 16 writable bytes; `storeu` is unaligned.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) };
        out
    }
}

/// One block: the `xmm` code of [`one`], but encryption on [`half_width`] CPUs runs
/// `soft`. On Zen 4 (TSC cycles per 16-byte call of `cargo run --release -p speed --bin
/// small 16 serpent`, interleaved with serpent 0.6.0) `soft` encrypts a block in 357
/// against 426 for `xmm`, and decrypts it in 387 against 333.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn single(k: &RoundKeys, x: &[u8; 16], enc: bool) -> [u8; 16] {
    if enc && half_width() {
        let w = super::soft::encrypt_n(k, [super::soft::read_words(x)]);
        let mut y = [0u8; 16];
        super::soft::write_words(w[0], &mut y);
        return y;
    }
    one::run(k, x, enc)
}

/// One block with [`single`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn one_block(k: &RoundKeys, mut block: InOut<'_, '_, Block<Backend<'_>>>, enc: bool) {
    let y = single(k, block.get_in().as_ref(), enc);
    *block.get_out() = y.into();
}

/// Encrypts one block (the public type's own `encrypt_block`).
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn encrypt_block(k: &RoundKeys, block: InOut<'_, '_, Block<Backend<'_>>>) {
    one_block(k, block, true)
}

/// Decrypts one block (the public type's own `decrypt_block`).
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn decrypt_block(k: &RoundKeys, block: InOut<'_, '_, Block<Backend<'_>>>) {
    one_block(k, block, false)
}

/// Runs `f` with the AVX-512F encryption backend.
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn encrypt(k: &RoundKeys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    f.call(&Backend(k))
}

/// Runs `f` with the AVX-512F decryption backend.
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn decrypt(k: &RoundKeys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    f.call(&Backend(k))
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key length: tail lengths
    /// around 32 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 32);
    }

    /// The one-block `xmm` code against `soft` directly: the harness above reaches it only
    /// on CPUs that are not `half_width` (those run single blocks on `soft`).
    #[test]
    fn one_block_xmm_matches_soft() {
        use super::super::{round_keys, soft, token};
        if !testkit::available("avx512", token::Avx512::get().is_some()) {
            return;
        }
        let mut rng = testkit::Rng::new(0x005e_7ea7);
        for len in [16, 24, 32] {
            for _ in 0..200 {
                let key = rng.bytes(len);
                let k = round_keys(&key);
                let mut x = [0u8; 16];
                rng.fill(&mut x);
                let mut y = cipher::Block::<crate::Serpent>::from(x);
                soft::encrypt_block(&k, (&mut y).into());
                // SAFETY: the token proves AVX-512F and VL, `one::run`'s target features.
                let enc = unsafe { super::one::run(&k, &x, true) };
                assert_eq!(enc, <[u8; 16]>::from(y), "xmm encryption, key {key:02x?}");
                // SAFETY: as above.
                let dec = unsafe { super::one::run(&k, &enc, false) };
                assert_eq!(dec, x, "xmm decryption, key {key:02x?}");
            }
        }
    }
}
