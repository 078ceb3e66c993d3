//! Portable RIPEMD-128/160/256/320 compression: the reference and fallback on every
//! target (any endianness, 32- or 64-bit).
//!
//! Every RIPEMD function runs two independent lines ("left" and "right") over the same
//! message block and combines them at the end (RIPEMD-256/320 swap one word between
//! the lines after each round). Each line is one chain of dependent steps
//! `a = rotl(a + f(b, c, d) + x[r] + k, s) (+ e)`, so a line alone runs at the
//! latency of one step. The code here is arranged for the two things that make it
//! fast:
//!
//! - **The lines are interleaved step by step** (left step `j`, then right step `j`),
//!   so the two chains sit side by side in the instruction stream and an out-of-order
//!   core overlaps them completely. (Written line after line, as in the published
//!   crate, the right line only starts when the left one has left the reorder
//!   window.)
//! - **Few operations wait for `b`**, the word the previous step produced. `a + x + k`
//!   is ready early, and so is everything in `f` that does not involve `b`:
//!   - f1 = `b ^ (c ^ d)`: one operation on the chain;
//!   - f2 = `(b & c) | (!b & d)` as `d ^ (b & (c ^ d))`: two;
//!   - f3 = `(b | !c) ^ d`: two;
//!   - f4 = `(b & d) | (c & !d)`: the masks are disjoint, so `|` is `+`, and
//!     `c & !d` is added to `a` early: one `and` and one `add` on the chain;
//!   - f5 = `b ^ (c | !d)`: one.
//!
//!   So a RIPEMD-160 step costs 4 or 5 dependent operations (f, add, rotate, add
//!   `e`) and RIPEMD-128 one fewer (no `e`).
//!
//! Rotation amounts and message word indices are compile-time constants (`const
//! { … }` blocks in fully unrolled macros), and the five or four working words of
//! each line live in registers (arrays indexed only by constants). The round
//! constants are the exception: they are read from a table through `black_box`
//! (see [`constants5`]), because as literals LLVM moves `+ k` onto the chain.
//!
//! A RIPEMD-160 line is then 352 dependent operations per block (16 steps per round,
//! 4 or 5 operations per step); with the two lines overlapped a block measures about
//! 400 core cycles on the test host (6.2 core cycles per byte; the published crate
//! 11.4, OpenSSL 3.0's C code 12.2), with about 1900 instructions per block, so the
//! code is also close to the core's issue width.

#![forbid(unsafe_code)]

/// Message word used by step `j` of round `n` of the left line.
const RL: [[usize; 16]; 5] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8],
    [3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12],
    [1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2],
    [4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13],
];

/// Message word used by step `j` of round `n` of the right line.
const RR: [[usize; 16]; 5] = [
    [5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12],
    [6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2],
    [15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13],
    [8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14],
    [12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11],
];

/// Rotation of step `j` of round `n` of the left line.
const SL: [[u32; 16]; 5] = [
    [11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8],
    [7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12],
    [11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5],
    [11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12],
    [9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6],
];

/// Rotation of step `j` of round `n` of the right line.
const SR: [[u32; 16]; 5] = [
    [8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6],
    [9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11],
    [9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5],
    [15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8],
    [8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11],
];

/// Round constants of the left line (RIPEMD-128/256 use the first four).
const KL: [u32; 5] = [
    0x0000_0000,
    0x5a82_7999,
    0x6ed9_eba1,
    0x8f1b_bcdc,
    0xa953_fd4e,
];
/// Round constants of the right line of RIPEMD-160/320.
const KR5: [u32; 5] = [
    0x50a2_8be6,
    0x5c4d_d124,
    0x6d70_3ef3,
    0x7a6d_76e9,
    0x0000_0000,
];
/// Round constants of the right line of RIPEMD-128/256.
const KR4: [u32; 4] = [0x50a2_8be6, 0x5c4d_d124, 0x6d70_3ef3, 0x0000_0000];

/// The round constants of the left and right lines of RIPEMD-160/320, read through
/// a pointer the optimiser cannot see through.
///
/// With the constants as literals, LLVM's reassociation moves `+ k` after `+ f(b, c, d)`
/// (constants go last), which puts one more add on the critical path of every step.
/// Loaded values keep the order written here: `a + x + k` first, off the chain. (Called
/// once per block, so that LLVM does not copy the tables to the stack.)
#[inline(always)]
fn constants5() -> (&'static [u32; 5], &'static [u32; 5]) {
    core::hint::black_box((&KL, &KR5))
}

/// [`constants5`] for RIPEMD-128/256.
#[inline(always)]
fn constants4() -> (&'static [u32; 5], &'static [u32; 4]) {
    core::hint::black_box((&KL, &KR4))
}

/// The 16 little-endian message words of a block.
#[inline(always)]
fn words(block: &[u8; 64]) -> [u32; 16] {
    let mut x = [0u32; 16];
    for (w, chunk) in x.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    x
}

/// `t + f_n(b, c, d)` for Boolean function `n` (1..=5, numbered as in the left line),
/// arranged so that as few operations as possible wait for `b` (see the module docs).
macro_rules! add_f {
    (1, $t:expr, $b:expr, $c:expr, $d:expr) => {
        $t.wrapping_add($b ^ ($c ^ $d))
    };
    (2, $t:expr, $b:expr, $c:expr, $d:expr) => {
        $t.wrapping_add($d ^ ($b & ($c ^ $d)))
    };
    (3, $t:expr, $b:expr, $c:expr, $d:expr) => {
        $t.wrapping_add(($b | !$c) ^ $d)
    };
    (4, $t:expr, $b:expr, $c:expr, $d:expr) => {
        $t.wrapping_add($c & !$d).wrapping_add($b & $d)
    };
    (5, $t:expr, $b:expr, $c:expr, $d:expr) => {
        $t.wrapping_add($b ^ ($c | !$d))
    };
}

/// One step of a five-word line (RIPEMD-160/320) on the words of `$v` at positions
/// `[a, b, c, d, e]`: `a = rotl(a + f(b, c, d) + x + k, s) + e; c = rotl(c, 10)`.
macro_rules! step5 {
    ($v:ident, $f:tt, [$a:tt, $b:tt, $c:tt, $d:tt, $e:tt], $x:expr, $k:expr, $s:expr) => {
        let t = $v[$a].wrapping_add($x).wrapping_add($k);
        $v[$a] = add_f!($f, t, $v[$b], $v[$c], $v[$d])
            .rotate_left($s)
            .wrapping_add($v[$e]);
        $v[$c] = $v[$c].rotate_left(10);
    };
}

/// One step of a four-word line (RIPEMD-128/256) on the words of `$v` at positions
/// `[a, b, c, d]`: `a = rotl(a + f(b, c, d) + x + k, s)`.
macro_rules! step4 {
    ($v:ident, $f:tt, [$a:tt, $b:tt, $c:tt, $d:tt], $x:expr, $k:expr, $s:expr) => {
        let t = $v[$a].wrapping_add($x).wrapping_add($k);
        $v[$a] = add_f!($f, t, $v[$b], $v[$c], $v[$d]).rotate_left($s);
    };
}

/// Step `j` of round `n` of both lines, left then right, so that the two independent
/// chains are interleaved in the instruction stream.
macro_rules! pair {
    ($step:ident, $k:ident, $l:ident, $r:ident, $x:ident, $n:literal, $fl:tt, $fr:tt,
     $j:literal, $pos:tt) => {
        $step!(
            $l,
            $fl,
            $pos,
            $x[const { RL[$n][$j] }],
            $k.0[$n],
            const { SL[$n][$j] }
        );
        $step!(
            $r,
            $fr,
            $pos,
            $x[const { RR[$n][$j] }],
            $k.1[$n],
            const { SR[$n][$j] }
        );
    };
}

/// Round `n` (16 steps) of both five-word lines: left function `fl`, right function
/// `fr`, the roles `[a, b, c, d, e]` starting at the given positions and rotating by
/// one position per step.
macro_rules! round5 {
    ($k:ident, $l:ident, $r:ident, $x:ident, $n:literal, $fl:tt, $fr:tt, [$a:tt, $b:tt, $c:tt, $d:tt, $e:tt]) => {
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 0, [$a, $b, $c, $d, $e]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 1, [$e, $a, $b, $c, $d]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 2, [$d, $e, $a, $b, $c]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 3, [$c, $d, $e, $a, $b]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 4, [$b, $c, $d, $e, $a]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 5, [$a, $b, $c, $d, $e]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 6, [$e, $a, $b, $c, $d]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 7, [$d, $e, $a, $b, $c]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 8, [$c, $d, $e, $a, $b]);
        pair!(step5, $k, $l, $r, $x, $n, $fl, $fr, 9, [$b, $c, $d, $e, $a]);
        pair!(
            step5,
            $k,
            $l,
            $r,
            $x,
            $n,
            $fl,
            $fr,
            10,
            [$a, $b, $c, $d, $e]
        );
        pair!(
            step5,
            $k,
            $l,
            $r,
            $x,
            $n,
            $fl,
            $fr,
            11,
            [$e, $a, $b, $c, $d]
        );
        pair!(
            step5,
            $k,
            $l,
            $r,
            $x,
            $n,
            $fl,
            $fr,
            12,
            [$d, $e, $a, $b, $c]
        );
        pair!(
            step5,
            $k,
            $l,
            $r,
            $x,
            $n,
            $fl,
            $fr,
            13,
            [$c, $d, $e, $a, $b]
        );
        pair!(
            step5,
            $k,
            $l,
            $r,
            $x,
            $n,
            $fl,
            $fr,
            14,
            [$b, $c, $d, $e, $a]
        );
        pair!(
            step5,
            $k,
            $l,
            $r,
            $x,
            $n,
            $fl,
            $fr,
            15,
            [$a, $b, $c, $d, $e]
        );
    };
}

/// Round `n` (16 steps) of both four-word lines; the roles rotate by one position per
/// step and so start every round at `[0, 1, 2, 3]`.
macro_rules! round4 {
    ($k:ident, $l:ident, $r:ident, $x:ident, $n:literal, $fl:tt, $fr:tt) => {
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 0, [0, 1, 2, 3]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 1, [3, 0, 1, 2]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 2, [2, 3, 0, 1]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 3, [1, 2, 3, 0]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 4, [0, 1, 2, 3]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 5, [3, 0, 1, 2]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 6, [2, 3, 0, 1]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 7, [1, 2, 3, 0]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 8, [0, 1, 2, 3]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 9, [3, 0, 1, 2]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 10, [2, 3, 0, 1]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 11, [1, 2, 3, 0]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 12, [0, 1, 2, 3]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 13, [3, 0, 1, 2]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 14, [2, 3, 0, 1]);
        pair!(step4, $k, $l, $r, $x, $n, $fl, $fr, 15, [1, 2, 3, 0]);
    };
}

/// The four rounds of both lines of RIPEMD-128/256 from the starting words `l` and
/// `r`, with the word swap of RIPEMD-256 after each round when `SWAP`.
#[inline(always)]
fn lines4<const SWAP: bool>(
    mut l: [u32; 4],
    mut r: [u32; 4],
    x: &[u32; 16],
    k: (&[u32; 5], &[u32; 4]),
) -> ([u32; 4], [u32; 4]) {
    round4!(k, l, r, x, 0, 1, 4);
    if SWAP {
        core::mem::swap(&mut l[0], &mut r[0]);
    }
    round4!(k, l, r, x, 1, 2, 3);
    if SWAP {
        core::mem::swap(&mut l[1], &mut r[1]);
    }
    round4!(k, l, r, x, 2, 3, 2);
    if SWAP {
        core::mem::swap(&mut l[2], &mut r[2]);
    }
    round4!(k, l, r, x, 3, 4, 1);
    if SWAP {
        core::mem::swap(&mut l[3], &mut r[3]);
    }
    (l, r)
}

/// The five rounds of both lines of RIPEMD-160/320 from the starting words `l` and
/// `r`, with the word swap of RIPEMD-320 after each round when `SWAP`.
#[inline(always)]
fn lines5<const SWAP: bool>(
    mut l: [u32; 5],
    mut r: [u32; 5],
    x: &[u32; 16],
    k: (&[u32; 5], &[u32; 5]),
) -> ([u32; 5], [u32; 5]) {
    round5!(k, l, r, x, 0, 1, 5, [0, 1, 2, 3, 4]);
    if SWAP {
        core::mem::swap(&mut l[0], &mut r[0]);
    }
    round5!(k, l, r, x, 1, 2, 4, [4, 0, 1, 2, 3]);
    if SWAP {
        core::mem::swap(&mut l[1], &mut r[1]);
    }
    round5!(k, l, r, x, 2, 3, 3, [3, 4, 0, 1, 2]);
    if SWAP {
        core::mem::swap(&mut l[2], &mut r[2]);
    }
    round5!(k, l, r, x, 3, 4, 2, [2, 3, 4, 0, 1]);
    if SWAP {
        core::mem::swap(&mut l[3], &mut r[3]);
    }
    round5!(k, l, r, x, 4, 5, 1, [1, 2, 3, 4, 0]);
    if SWAP {
        core::mem::swap(&mut l[4], &mut r[4]);
    }
    (l, r)
}

/// RIPEMD-128 compression of `blocks` into `h`.
pub(super) fn compress128(h: &mut [u32; 4], blocks: &[[u8; 64]]) {
    let mut s = *h;
    for block in blocks {
        let (l, r) = lines4::<false>(s, s, &words(block), constants4());
        s = [
            s[1].wrapping_add(l[2]).wrapping_add(r[3]),
            s[2].wrapping_add(l[3]).wrapping_add(r[0]),
            s[3].wrapping_add(l[0]).wrapping_add(r[1]),
            s[0].wrapping_add(l[1]).wrapping_add(r[2]),
        ];
    }
    *h = s;
}

/// RIPEMD-160 compression of `blocks` into `h`.
pub(super) fn compress160(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut s = *h;
    for block in blocks {
        let (l, r) = lines5::<false>(s, s, &words(block), constants5());
        s = [
            s[1].wrapping_add(l[2]).wrapping_add(r[3]),
            s[2].wrapping_add(l[3]).wrapping_add(r[4]),
            s[3].wrapping_add(l[4]).wrapping_add(r[0]),
            s[4].wrapping_add(l[0]).wrapping_add(r[1]),
            s[0].wrapping_add(l[1]).wrapping_add(r[2]),
        ];
    }
    *h = s;
}

/// RIPEMD-256 compression of `blocks` into `h`.
pub(super) fn compress256(h: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let mut s = *h;
    for block in blocks {
        let (l0, r0) = ([s[0], s[1], s[2], s[3]], [s[4], s[5], s[6], s[7]]);
        let (l, r) = lines4::<true>(l0, r0, &words(block), constants4());
        for i in 0..4 {
            s[i] = s[i].wrapping_add(l[i]);
            s[4 + i] = s[4 + i].wrapping_add(r[i]);
        }
    }
    *h = s;
}

/// RIPEMD-320 compression of `blocks` into `h`.
pub(super) fn compress320(h: &mut [u32; 10], blocks: &[[u8; 64]]) {
    let mut s = *h;
    for block in blocks {
        let (l0, r0) = (
            [s[0], s[1], s[2], s[3], s[4]],
            [s[5], s[6], s[7], s[8], s[9]],
        );
        let (l, r) = lines5::<true>(l0, r0, &words(block), constants5());
        for i in 0..5 {
            s[i] = s[i].wrapping_add(l[i]);
            s[5 + i] = s[5 + i].wrapping_add(r[i]);
        }
    }
    *h = s;
}

#[cfg(test)]
mod tests {
    //! The unrolled code against a plain, loop-based reference written from the
    //! specification (Dobbertin, Bosselaers, Preneel 1996), with the message orders
    //! derived from the permutations rho and pi rather than copied from the tables
    //! above, through testkit's compression harness.

    use std::{vec, vec::Vec};

    /// `rho`: the message order of round 1 to round 2 (`r[16 j + i] = rho^j(i)`).
    const RHO: [usize; 16] = [7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8];
    /// Shifts of the left line for words 0..16, per round (the right line uses the
    /// same table indexed by its own message word).
    const SHIFT: [[u32; 16]; 5] = [
        [11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8],
        [12, 13, 11, 15, 6, 9, 9, 7, 12, 15, 11, 13, 7, 8, 7, 7],
        [13, 15, 14, 11, 7, 7, 6, 8, 13, 14, 13, 12, 5, 5, 6, 9],
        [14, 11, 12, 14, 8, 6, 5, 5, 15, 12, 15, 14, 9, 9, 8, 6],
        [15, 12, 13, 13, 9, 5, 8, 6, 14, 11, 12, 11, 8, 6, 5, 5],
    ];

    fn f(j: usize, x: u32, y: u32, z: u32) -> u32 {
        match j {
            0 => x ^ y ^ z,
            1 => (x & y) | (!x & z),
            2 => (x | !y) ^ z,
            3 => (x & z) | (y & !z),
            _ => x ^ (y | !z),
        }
    }

    /// Message word of step `i` (0..80) of the left (`right == false`) or right line.
    fn word(i: usize, right: bool) -> usize {
        let mut w = if right {
            (9 * (i % 16) + 5) % 16
        } else {
            i % 16
        };
        for _ in 0..i / 16 {
            w = RHO[w];
        }
        w
    }

    /// The compression of one block into `h` (4, 5, 8 or 10 words): both lines, with
    /// the word swaps of RIPEMD-256/320 when `swap`; returns the new state.
    fn reference(h: &[u32], block: &[u8; 64], swap: bool) -> Vec<u32> {
        let x: Vec<u32> = block
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let n = if swap { h.len() / 2 } else { h.len() };
        let rounds = if n == 5 { 5 } else { 4 };
        let kl = [0, 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xa953fd4e];
        let kr: &[u32] = if n == 5 {
            &[0x50a28be6, 0x5c4dd124, 0x6d703ef3, 0x7a6d76e9, 0]
        } else {
            &[0x50a28be6, 0x5c4dd124, 0x6d703ef3, 0]
        };
        let mut l: Vec<u32> = h[..n].to_vec();
        let mut r: Vec<u32> = if swap {
            h[n..].to_vec()
        } else {
            h[..n].to_vec()
        };
        for j in 0..rounds {
            for i in 16 * j..16 * j + 16 {
                for (v, right) in [(&mut l, false), (&mut r, true)] {
                    // The right line runs the functions in reverse order.
                    let fj = if right { rounds - 1 - j } else { j };
                    let k = if right { kr[j] } else { kl[j] };
                    let w = word(i, right);
                    let t = v[0]
                        .wrapping_add(f(fj, v[1], v[2], v[3]))
                        .wrapping_add(x[w])
                        .wrapping_add(k)
                        .rotate_left(SHIFT[j][w]);
                    if n == 5 {
                        let t = t.wrapping_add(v[4]);
                        *v = vec![v[4], t, v[1], v[2].rotate_left(10), v[3]];
                    } else {
                        *v = vec![v[3], t, v[1], v[2]];
                    }
                }
            }
            if swap {
                // Swap the word the specification names A after round 1, B after
                // round 2, ...: word j started at position j and the roles move it
                // one position per step, 16 steps per round.
                let idx = (j + 16 * (j + 1)) % n;
                core::mem::swap(&mut l[idx], &mut r[idx]);
            }
        }
        // Undo the role rotation: after 16 * rounds steps the words sit shifted.
        let shift = (16 * rounds) % n;
        l.rotate_left(shift);
        r.rotate_left(shift);
        if swap {
            h[..n]
                .iter()
                .zip(&l)
                .chain(h[n..].iter().zip(&r))
                .map(|(a, b)| a.wrapping_add(*b))
                .collect()
        } else {
            (0..n)
                .map(|i| {
                    h[(i + 1) % n]
                        .wrapping_add(l[(i + 2) % n])
                        .wrapping_add(r[(i + 3) % n])
                })
                .collect()
        }
    }

    fn reference_compress(h: &mut [u32], data: &[u8], swap: bool) {
        for block in data.chunks_exact(64) {
            let out = reference(h, block.try_into().unwrap(), swap);
            h.copy_from_slice(&out);
        }
    }

    fn blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }

    fn state<const N: usize>(rng: &mut testkit::Rng) -> [u32; N] {
        core::array::from_fn(|_| rng.next_u64() as u32)
    }

    #[test]
    fn soft_matches_reference() {
        use testkit::harness::compress;
        compress(
            "soft128",
            64,
            1,
            state::<4>,
            |s, d| reference_compress(s, d, false),
            |s, d| super::compress128(s, blocks(d)),
        );
        compress(
            "soft160",
            64,
            1,
            state::<5>,
            |s, d| reference_compress(s, d, false),
            |s, d| super::compress160(s, blocks(d)),
        );
        compress(
            "soft256",
            64,
            1,
            state::<8>,
            |s, d| reference_compress(s, d, true),
            |s, d| super::compress256(s, blocks(d)),
        );
        compress(
            "soft320",
            64,
            1,
            state::<10>,
            |s, d| reference_compress(s, d, true),
            |s, d| super::compress320(s, blocks(d)),
        );
    }

    #[test]
    fn reference_knows_the_empty_message() {
        // The reference itself against the authors' vectors (one padded block).
        let mut block = [0u8; 64];
        block[0] = 0x80;
        let mut h160 = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
        reference_compress(&mut h160, &block, false);
        let out: Vec<u8> = h160.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(
            out,
            hex_literal::hex!("9c1185a5c5e9fc54612808977ee8f548b2258d31")
        );
        let mut h320 = [
            0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0, 0x76543210, 0xfedcba98,
            0x89abcdef, 0x01234567, 0x3c2d1e0f,
        ];
        reference_compress(&mut h320, &block, true);
        let out: Vec<u8> = h320.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(
            out,
            hex_literal::hex!(
                "22d65d5661536cdc75c1fdf5c6de7b41b9f27325ebc61e8557177d705a0ec880151c3a32a00899b8"
            )
        );
    }
}
