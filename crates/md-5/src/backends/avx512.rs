//! AVX-512 (F + VL) MD5: compression of a single message, and the 16-lane
//! multi-buffer kernel [`compress16`] (one message per 32-bit lane of `zmm`; see
//! its docs).
//!
//! Single message:
//!
//! MD5 is one chain of dependent steps, so this backend is about latency, not width:
//! each state word lives in lane 0 of its own `xmm` register (the other lanes carry
//! harmless garbage) and every step is
//!
//! ```text
//! t = a + (m[k] + K[i])          off the critical path (a is three steps old)
//! f = vpternlogd(b, c, d, IMM)   F, G, H or I in one instruction    1 cycle
//! t = t + f                                                         1 cycle
//! t = vprold(t, s)                                                  1 cycle
//! a = b + t                                                         1 cycle
//! ```
//!
//! so 4 cycles per step, 256 per block, ≈ 4.0 cycles per byte; the scalar code
//! needs two dependent operations for F and I (5 cycles per step).
//!
//! `vpternlogd` truth-table immediates, with `b` = 0xF0, `c` = 0xCC, `d` = 0xAA:
//! F = `(b & c) | (!b & d)` = 0xCA, G = `(b & d) | (c & !d)` = 0xE4,
//! H = `b ^ c ^ d` = 0x96, I = `c ^ (b | !d)` = 0x39.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::soft::{K, words};

const F: i32 = 0xCA;
const G: i32 = 0xE4;
const H: i32 = 0x96;
const I: i32 = 0x39;

/// One step; `$mk` is the scalar `m[k] + K[i]`.
macro_rules! step {
    ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = _mm_add_epi32($a, _mm_cvtsi32_si128($mk as i32));
        let f = _mm_ternarylogic_epi32::<$f>($b, $c, $d);
        $a = _mm_add_epi32($b, _mm_rol_epi32::<$s>(_mm_add_epi32(t, f)));
    };
}

/// Four steps of one round, rotating the roles of the state words.
macro_rules! quad {
    ($f:ident, $m:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     $i:literal, [$k0:literal, $k1:literal, $k2:literal, $k3:literal],
     [$s0:literal, $s1:literal, $s2:literal, $s3:literal]) => {
        step!($f, $a, $b, $c, $d, $m[$k0].wrapping_add(K[$i]), $s0);
        step!($f, $d, $a, $b, $c, $m[$k1].wrapping_add(K[$i + 1]), $s1);
        step!($f, $c, $d, $a, $b, $m[$k2].wrapping_add(K[$i + 2]), $s2);
        step!($f, $b, $c, $d, $a, $m[$k3].wrapping_add(K[$i + 3]), $s3);
    };
}

/// Absorbs `blocks` into `state`.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) fn compress(state: &mut [u32; 4], blocks: &[[u8; 64]]) {
    let mut sa = _mm_cvtsi32_si128(state[0] as i32);
    let mut sb = _mm_cvtsi32_si128(state[1] as i32);
    let mut sc = _mm_cvtsi32_si128(state[2] as i32);
    let mut sd = _mm_cvtsi32_si128(state[3] as i32);

    for block in blocks {
        let m = words(block);
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);

        quad!(F, m, a, b, c, d, 0, [0, 1, 2, 3], [7, 12, 17, 22]);
        quad!(F, m, a, b, c, d, 4, [4, 5, 6, 7], [7, 12, 17, 22]);
        quad!(F, m, a, b, c, d, 8, [8, 9, 10, 11], [7, 12, 17, 22]);
        quad!(F, m, a, b, c, d, 12, [12, 13, 14, 15], [7, 12, 17, 22]);

        quad!(G, m, a, b, c, d, 16, [1, 6, 11, 0], [5, 9, 14, 20]);
        quad!(G, m, a, b, c, d, 20, [5, 10, 15, 4], [5, 9, 14, 20]);
        quad!(G, m, a, b, c, d, 24, [9, 14, 3, 8], [5, 9, 14, 20]);
        quad!(G, m, a, b, c, d, 28, [13, 2, 7, 12], [5, 9, 14, 20]);

        quad!(H, m, a, b, c, d, 32, [5, 8, 11, 14], [4, 11, 16, 23]);
        quad!(H, m, a, b, c, d, 36, [1, 4, 7, 10], [4, 11, 16, 23]);
        quad!(H, m, a, b, c, d, 40, [13, 0, 3, 6], [4, 11, 16, 23]);
        quad!(H, m, a, b, c, d, 44, [9, 12, 15, 2], [4, 11, 16, 23]);

        quad!(I, m, a, b, c, d, 48, [0, 7, 14, 5], [6, 10, 15, 21]);
        quad!(I, m, a, b, c, d, 52, [12, 3, 10, 1], [6, 10, 15, 21]);
        quad!(I, m, a, b, c, d, 56, [8, 15, 6, 13], [6, 10, 15, 21]);
        quad!(I, m, a, b, c, d, 60, [4, 11, 2, 9], [6, 10, 15, 21]);

        sa = _mm_add_epi32(sa, a);
        sb = _mm_add_epi32(sb, b);
        sc = _mm_add_epi32(sc, c);
        sd = _mm_add_epi32(sd, d);
    }

    state[0] = _mm_cvtsi128_si32(sa) as u32;
    state[1] = _mm_cvtsi128_si32(sb) as u32;
    state[2] = _mm_cvtsi128_si32(sc) as u32;
    state[3] = _mm_cvtsi128_si32(sd) as u32;
}

/// One multi-buffer step on 16 lanes; `$mk` is the vector `m[k] + K[i]`.
macro_rules! step16 {
    ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = _mm512_add_epi32($a, $mk);
        let f = _mm512_ternarylogic_epi32::<$f>($b, $c, $d);
        $a = _mm512_add_epi32($b, _mm512_rol_epi32::<$s>(_mm512_add_epi32(t, f)));
    };
}

/// Four multi-buffer steps of one round.
macro_rules! quad16 {
    ($f:ident, $m:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     $i:literal, [$k0:literal, $k1:literal, $k2:literal, $k3:literal],
     [$s0:literal, $s1:literal, $s2:literal, $s3:literal]) => {
        step16!(
            $f,
            $a,
            $b,
            $c,
            $d,
            _mm512_add_epi32($m[$k0], _mm512_set1_epi32(K[$i] as i32)),
            $s0
        );
        step16!(
            $f,
            $d,
            $a,
            $b,
            $c,
            _mm512_add_epi32($m[$k1], _mm512_set1_epi32(K[$i + 1] as i32)),
            $s1
        );
        step16!(
            $f,
            $c,
            $d,
            $a,
            $b,
            _mm512_add_epi32($m[$k2], _mm512_set1_epi32(K[$i + 2] as i32)),
            $s2
        );
        step16!(
            $f,
            $b,
            $c,
            $d,
            $a,
            _mm512_add_epi32($m[$k3], _mm512_set1_epi32(K[$i + 3] as i32)),
            $s3
        );
    };
}

/// Transposes 16 rows of 16 words: `r[j]` holds the block of lane `j`; the result's
/// element `w` holds word `w` of every lane (lane `j` in element `j`).
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose16(r: [__m512i; 16]) -> [__m512i; 16] {
    // Pairs of rows: 2x2 blocks of words, then 4x4 blocks.
    let mut t = [_mm512_setzero_si512(); 16];
    for i in 0..8 {
        t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    // u[4q + c]: rows 4q..4q+4, columns c, c+4, c+8, c+12 (one per 128-bit lane).
    let mut u = [_mm512_setzero_si512(); 16];
    for q in 0..4 {
        let (a0, a1, b0, b1) = (t[4 * q], t[4 * q + 1], t[4 * q + 2], t[4 * q + 3]);
        u[4 * q] = _mm512_unpacklo_epi64(a0, b0);
        u[4 * q + 1] = _mm512_unpackhi_epi64(a0, b0);
        u[4 * q + 2] = _mm512_unpacklo_epi64(a1, b1);
        u[4 * q + 3] = _mm512_unpackhi_epi64(a1, b1);
    }
    let mut out = [_mm512_setzero_si512(); 16];
    for c in 0..4 {
        // Columns c and c+8 of rows 0..8, then of rows 8..16; likewise c+4, c+12.
        let v0 = _mm512_shuffle_i32x4::<0x88>(u[c], u[4 + c]);
        let v1 = _mm512_shuffle_i32x4::<0xDD>(u[c], u[4 + c]);
        let v2 = _mm512_shuffle_i32x4::<0x88>(u[8 + c], u[12 + c]);
        let v3 = _mm512_shuffle_i32x4::<0xDD>(u[8 + c], u[12 + c]);
        out[c] = _mm512_shuffle_i32x4::<0x88>(v0, v2);
        out[c + 8] = _mm512_shuffle_i32x4::<0xDD>(v0, v2);
        out[c + 4] = _mm512_shuffle_i32x4::<0x88>(v1, v3);
        out[c + 12] = _mm512_shuffle_i32x4::<0xDD>(v1, v3);
    }
    out
}

/// The block a lane with no work reads (its result is discarded).
static IDLE: [u8; 64] = [0; 64];

/// Multi-buffer kernel, 16 lanes in `zmm` (the contract of `soft::LaneKernel`):
/// lanes with a non-empty slice absorb `n` blocks each, the others are masked out
/// of the feed-forward and keep their state.
///
/// Latency-bound like the single stream (4 cycles per step: `vpternlogd`, add,
/// `vprold`, add), but for 16 messages at once: ≈ 256 cycles per 1 KiB of input,
/// plus the 16×16 transpose of the message words (64 shuffles per block set).
#[target_feature(enable = "avx512f")]
pub(super) fn compress16(state: &mut [[u32; 16]; 4], lanes: &[&[[u8; 64]]; 16], n: usize) {
    let mut active: __mmask16 = 0;
    for (j, l) in lanes.iter().enumerate() {
        if !l.is_empty() {
            assert!(l.len() >= n, "lane {j} has fewer than {n} blocks");
            active |= 1 << j;
        }
    }
    // SAFETY: each `state[w]` is 16 `u32`s = 64 readable bytes (unaligned load).
    let load = |w: &[u32; 16]| unsafe { _mm512_loadu_si512(w.as_ptr().cast()) };
    let (mut sa, mut sb, mut sc, mut sd) = (
        load(&state[0]),
        load(&state[1]),
        load(&state[2]),
        load(&state[3]),
    );

    for k in 0..n {
        let mut rows = [_mm512_setzero_si512(); 16];
        for (row, lane) in rows.iter_mut().zip(lanes) {
            let block = lane.get(k).unwrap_or(&IDLE);
            // SAFETY: `block` is 64 readable bytes (unaligned load).
            *row = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        }
        let m = transpose16(rows);
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);

        quad16!(F, m, a, b, c, d, 0, [0, 1, 2, 3], [7, 12, 17, 22]);
        quad16!(F, m, a, b, c, d, 4, [4, 5, 6, 7], [7, 12, 17, 22]);
        quad16!(F, m, a, b, c, d, 8, [8, 9, 10, 11], [7, 12, 17, 22]);
        quad16!(F, m, a, b, c, d, 12, [12, 13, 14, 15], [7, 12, 17, 22]);

        quad16!(G, m, a, b, c, d, 16, [1, 6, 11, 0], [5, 9, 14, 20]);
        quad16!(G, m, a, b, c, d, 20, [5, 10, 15, 4], [5, 9, 14, 20]);
        quad16!(G, m, a, b, c, d, 24, [9, 14, 3, 8], [5, 9, 14, 20]);
        quad16!(G, m, a, b, c, d, 28, [13, 2, 7, 12], [5, 9, 14, 20]);

        quad16!(H, m, a, b, c, d, 32, [5, 8, 11, 14], [4, 11, 16, 23]);
        quad16!(H, m, a, b, c, d, 36, [1, 4, 7, 10], [4, 11, 16, 23]);
        quad16!(H, m, a, b, c, d, 40, [13, 0, 3, 6], [4, 11, 16, 23]);
        quad16!(H, m, a, b, c, d, 44, [9, 12, 15, 2], [4, 11, 16, 23]);

        quad16!(I, m, a, b, c, d, 48, [0, 7, 14, 5], [6, 10, 15, 21]);
        quad16!(I, m, a, b, c, d, 52, [12, 3, 10, 1], [6, 10, 15, 21]);
        quad16!(I, m, a, b, c, d, 56, [8, 15, 6, 13], [6, 10, 15, 21]);
        quad16!(I, m, a, b, c, d, 60, [4, 11, 2, 9], [6, 10, 15, 21]);

        sa = _mm512_mask_add_epi32(sa, active, sa, a);
        sb = _mm512_mask_add_epi32(sb, active, sb, b);
        sc = _mm512_mask_add_epi32(sc, active, sc, c);
        sd = _mm512_mask_add_epi32(sd, active, sd, d);
    }

    for (w, v) in state.iter_mut().zip([sa, sb, sc, sd]) {
        // SAFETY: `w` is 16 `u32`s = 64 writable bytes (unaligned store).
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        __backends::{available, compress_with},
        soft,
    };

    #[test]
    fn avx512_matches_soft() {
        if !testkit::available("avx512", available("avx512")) {
            return;
        }
        testkit::harness::compress(
            "avx512",
            64,
            1,
            |rng| {
                let mut s = [0u32; 4];
                s.iter_mut().for_each(|w| *w = rng.next_u64() as u32);
                s
            },
            |s, data| soft::compress(s, as_blocks(data)),
            |s, data| compress_with("avx512", s, as_blocks(data)),
        );
        soft::check_multi("avx512");
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
