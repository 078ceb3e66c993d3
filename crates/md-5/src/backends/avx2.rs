//! AVX2 MD5: the 8-lane multi-buffer kernel [`compress8`], one message per 32-bit
//! lane of `ymm`.
//!
//! AVX2 cannot shorten the latency of one MD5 step (it has no three-input logic
//! and no rotate), so single-stream compression under this backend is the
//! portable code; the gain is width. A step on 8 lanes:
//!
//! ```text
//! t = a + (m[k] + K[i])            off the critical path
//! f = F/G/H/I(b, c, d)             2 dependent ops (F, I), 1 (H), G split as
//!                                  (c & !d) + (b & d), the first half early
//! t = t + f; r = (t << s) | (t >> 32 - s); a = b + r
//! ```
//!
//! ≈ 6 dependent operations per step, 64 steps per block set of 8 × 64 bytes.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::soft::K;

/// `rotl(x, s)` on each lane.
macro_rules! rol {
    ($x:expr, $s:literal) => {{
        let x = $x;
        _mm256_or_si256(
            _mm256_slli_epi32::<$s>(x),
            _mm256_srli_epi32::<{ 32 - $s }>(x),
        )
    }};
}

/// One step on 8 lanes; `$mk` is the vector `m[k] + K[i]`.
macro_rules! step8 {
    (F, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = _mm256_add_epi32($a, $mk);
        let f = _mm256_xor_si256($d, _mm256_and_si256($b, _mm256_xor_si256($c, $d)));
        $a = _mm256_add_epi32($b, rol!(_mm256_add_epi32(t, f), $s));
    };
    (G, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = _mm256_add_epi32(_mm256_add_epi32($a, $mk), _mm256_andnot_si256($d, $c));
        let f = _mm256_and_si256($b, $d);
        $a = _mm256_add_epi32($b, rol!(_mm256_add_epi32(t, f), $s));
    };
    (H, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = _mm256_add_epi32($a, $mk);
        let f = _mm256_xor_si256($b, _mm256_xor_si256($c, $d));
        $a = _mm256_add_epi32($b, rol!(_mm256_add_epi32(t, f), $s));
    };
    (I, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = _mm256_add_epi32($a, $mk);
        let nd = _mm256_xor_si256($d, _mm256_set1_epi32(-1));
        let f = _mm256_xor_si256($c, _mm256_or_si256($b, nd));
        $a = _mm256_add_epi32($b, rol!(_mm256_add_epi32(t, f), $s));
    };
}

/// Four steps of one round.
macro_rules! quad8 {
    ($f:ident, $m:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     $i:literal, [$k0:literal, $k1:literal, $k2:literal, $k3:literal],
     [$s0:literal, $s1:literal, $s2:literal, $s3:literal]) => {
        step8!(
            $f,
            $a,
            $b,
            $c,
            $d,
            _mm256_add_epi32($m[$k0], _mm256_set1_epi32(K[$i] as i32)),
            $s0
        );
        step8!(
            $f,
            $d,
            $a,
            $b,
            $c,
            _mm256_add_epi32($m[$k1], _mm256_set1_epi32(K[$i + 1] as i32)),
            $s1
        );
        step8!(
            $f,
            $c,
            $d,
            $a,
            $b,
            _mm256_add_epi32($m[$k2], _mm256_set1_epi32(K[$i + 2] as i32)),
            $s2
        );
        step8!(
            $f,
            $b,
            $c,
            $d,
            $a,
            _mm256_add_epi32($m[$k3], _mm256_set1_epi32(K[$i + 3] as i32)),
            $s3
        );
    };
}

/// Transposes 8 rows of 8 words: `r[j]` holds 8 words of lane `j`; the result's
/// element `w` holds word `w` of every lane (lane `j` in element `j`).
#[inline]
#[target_feature(enable = "avx2")]
fn transpose8(r: [__m256i; 8]) -> [__m256i; 8] {
    let mut t = [_mm256_setzero_si256(); 8];
    for i in 0..4 {
        t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    // u[4q + c]: rows 4q..4q+4, columns c (low half) and c + 4 (high half).
    let mut u = [_mm256_setzero_si256(); 8];
    for q in 0..2 {
        let (a0, a1, b0, b1) = (t[4 * q], t[4 * q + 1], t[4 * q + 2], t[4 * q + 3]);
        u[4 * q] = _mm256_unpacklo_epi64(a0, b0);
        u[4 * q + 1] = _mm256_unpackhi_epi64(a0, b0);
        u[4 * q + 2] = _mm256_unpacklo_epi64(a1, b1);
        u[4 * q + 3] = _mm256_unpackhi_epi64(a1, b1);
    }
    let mut out = [_mm256_setzero_si256(); 8];
    for c in 0..4 {
        out[c] = _mm256_permute2x128_si256::<0x20>(u[c], u[4 + c]);
        out[c + 4] = _mm256_permute2x128_si256::<0x31>(u[c], u[4 + c]);
    }
    out
}

/// The block a lane with no work reads (its result is discarded).
static IDLE: [u8; 64] = [0; 64];

/// Multi-buffer kernel, 8 lanes in `ymm` (the contract of `soft::LaneKernel`):
/// lanes with a non-empty slice absorb `n` blocks each, the others are masked out
/// of the feed-forward and keep their state.
#[target_feature(enable = "avx2")]
pub(super) fn compress8(state: &mut [[u32; 8]; 4], lanes: &[&[[u8; 64]]; 8], n: usize) {
    let mut active = [0i32; 8];
    for ((j, l), a) in lanes.iter().enumerate().zip(&mut active) {
        if !l.is_empty() {
            assert!(l.len() >= n, "lane {j} has fewer than {n} blocks");
            *a = -1;
        }
    }
    // SAFETY: `active` and each `state[w]` are 8 32-bit words = 32 readable bytes
    // (unaligned load).
    let active = unsafe { _mm256_loadu_si256(active.as_ptr().cast()) };
    // SAFETY: as above.
    let load = |w: &[u32; 8]| unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
    let (mut sa, mut sb, mut sc, mut sd) = (
        load(&state[0]),
        load(&state[1]),
        load(&state[2]),
        load(&state[3]),
    );

    for k in 0..n {
        let mut lo = [_mm256_setzero_si256(); 8];
        let mut hi = [_mm256_setzero_si256(); 8];
        for ((lo, hi), lane) in lo.iter_mut().zip(&mut hi).zip(lanes) {
            let block = lane.get(k).unwrap_or(&IDLE);
            // SAFETY: `block` is 64 readable bytes: two unaligned 32-byte loads.
            unsafe {
                *lo = _mm256_loadu_si256(block.as_ptr().cast());
                *hi = _mm256_loadu_si256(block.as_ptr().add(32).cast());
            }
        }
        let (m0, m1) = (transpose8(lo), transpose8(hi));
        let m = [
            m0[0], m0[1], m0[2], m0[3], m0[4], m0[5], m0[6], m0[7], m1[0], m1[1], m1[2], m1[3],
            m1[4], m1[5], m1[6], m1[7],
        ];
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);

        quad8!(F, m, a, b, c, d, 0, [0, 1, 2, 3], [7, 12, 17, 22]);
        quad8!(F, m, a, b, c, d, 4, [4, 5, 6, 7], [7, 12, 17, 22]);
        quad8!(F, m, a, b, c, d, 8, [8, 9, 10, 11], [7, 12, 17, 22]);
        quad8!(F, m, a, b, c, d, 12, [12, 13, 14, 15], [7, 12, 17, 22]);

        quad8!(G, m, a, b, c, d, 16, [1, 6, 11, 0], [5, 9, 14, 20]);
        quad8!(G, m, a, b, c, d, 20, [5, 10, 15, 4], [5, 9, 14, 20]);
        quad8!(G, m, a, b, c, d, 24, [9, 14, 3, 8], [5, 9, 14, 20]);
        quad8!(G, m, a, b, c, d, 28, [13, 2, 7, 12], [5, 9, 14, 20]);

        quad8!(H, m, a, b, c, d, 32, [5, 8, 11, 14], [4, 11, 16, 23]);
        quad8!(H, m, a, b, c, d, 36, [1, 4, 7, 10], [4, 11, 16, 23]);
        quad8!(H, m, a, b, c, d, 40, [13, 0, 3, 6], [4, 11, 16, 23]);
        quad8!(H, m, a, b, c, d, 44, [9, 12, 15, 2], [4, 11, 16, 23]);

        quad8!(I, m, a, b, c, d, 48, [0, 7, 14, 5], [6, 10, 15, 21]);
        quad8!(I, m, a, b, c, d, 52, [12, 3, 10, 1], [6, 10, 15, 21]);
        quad8!(I, m, a, b, c, d, 56, [8, 15, 6, 13], [6, 10, 15, 21]);
        quad8!(I, m, a, b, c, d, 60, [4, 11, 2, 9], [6, 10, 15, 21]);

        sa = _mm256_add_epi32(sa, _mm256_and_si256(a, active));
        sb = _mm256_add_epi32(sb, _mm256_and_si256(b, active));
        sc = _mm256_add_epi32(sc, _mm256_and_si256(c, active));
        sd = _mm256_add_epi32(sd, _mm256_and_si256(d, active));
    }

    for (w, v) in state.iter_mut().zip([sa, sb, sc, sd]) {
        // SAFETY: `w` is 8 `u32`s = 32 writable bytes (unaligned store).
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), v) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        __backends::{available, compress_with},
        soft,
    };

    /// Single-stream compression under `avx2` (the portable code) and the 8-lane
    /// multi-buffer kernel, both against soft.
    #[test]
    fn avx2_matches_soft() {
        if !testkit::available("avx2", available("avx2")) {
            return;
        }
        testkit::harness::compress(
            "avx2",
            64,
            1,
            |rng| {
                let mut s = [0u32; 4];
                s.iter_mut().for_each(|w| *w = rng.next_u64() as u32);
                s
            },
            |s, data| soft::compress(s, as_blocks(data)),
            |s, data| compress_with("avx2", s, as_blocks(data)),
        );
        soft::check_multi("avx2");
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
