//! AVX-512 SHA-1: the 16-lane multi-buffer kernel [`compress16`], one message per
//! 32-bit lane of `zmm`. (Single-stream compression under this backend is SHA-NI's
//! if the CPU has it, else the `avx2` backend's; see `backends.rs`.)
//!
//! A round on 16 lanes:
//!
//! ```text
//! W[t] = vprold(vpternlogd(W[t-3], W[t-8], W[t-14], 0x96) ^ W[t-16], 1)   t >= 16
//! e += (W[t] + K) + vpternlogd(b, c, d, Ch 0xCA | Parity 0x96 | Maj 0xE8)
//! e += vprold(a, 5);  b = vprold(b, 30)
//! ```
//!
//! About 10 vector operations per round, 80 rounds per 16 × 64 bytes: the kernel
//! is bound by the two 512-bit vector ports (≈ 400 cycles per KiB), not by the
//! dependency chain (2 operations per round), so one lane set suffices.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::soft::K;

const CH: i32 = 0xCA;
const PARITY: i32 = 0x96;
const MAJ: i32 = 0xE8;

/// The message word of round `$t` (scheduled in the 16-word ring for `t >= 16`).
macro_rules! word16 {
    ($w:ident, $t:expr) => {
        if $t < 16 {
            $w[$t & 15]
        } else {
            let x = _mm512_ternarylogic_epi32::<PARITY>(
                $w[($t - 3) & 15],
                $w[($t - 8) & 15],
                $w[($t - 14) & 15],
            );
            $w[$t & 15] = _mm512_rol_epi32::<1>(_mm512_xor_si512(x, $w[$t & 15]));
            $w[$t & 15]
        }
    };
}

/// One round `$t` with the words in the roles `a, b, c, d, e`.
macro_rules! round16 {
    ($f:ident, $w:ident, $t:expr, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let x = _mm512_add_epi32($e, _mm512_add_epi32(word16!($w, $t), $k));
        let x = _mm512_add_epi32(x, _mm512_ternarylogic_epi32::<$f>($b, $c, $d));
        $e = _mm512_add_epi32(x, _mm512_rol_epi32::<5>($a));
        $b = _mm512_rol_epi32::<30>($b);
    };
}

/// Five rounds from `$t`: after five the words are back in their starting roles.
macro_rules! rounds5 {
    ($f:ident, $w:ident, $t:expr, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round16!($f, $w, $t, $k, $a, $b, $c, $d, $e);
        round16!($f, $w, $t + 1, $k, $e, $a, $b, $c, $d);
        round16!($f, $w, $t + 2, $k, $d, $e, $a, $b, $c);
        round16!($f, $w, $t + 3, $k, $c, $d, $e, $a, $b);
        round16!($f, $w, $t + 4, $k, $b, $c, $d, $e, $a);
    };
}

/// Transposes 16 rows of 16 words: `r[j]` holds the block of lane `j`; the result's
/// element `w` holds word `w` of every lane (lane `j` in element `j`).
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose16(r: [__m512i; 16]) -> [__m512i; 16] {
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
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn compress16(state: &mut [[u32; 16]; 5], lanes: &[&[[u8; 64]]; 16], n: usize) {
    let mut active: __mmask16 = 0;
    for (j, l) in lanes.iter().enumerate() {
        if !l.is_empty() {
            assert!(l.len() >= n, "lane {j} has fewer than {n} blocks");
            active |= 1 << j;
        }
    }
    // SAFETY: each `state[w]` is 16 `u32`s = 64 readable bytes (unaligned load).
    let load = |w: &[u32; 16]| unsafe { _mm512_loadu_si512(w.as_ptr().cast()) };
    let mut s = [
        load(&state[0]),
        load(&state[1]),
        load(&state[2]),
        load(&state[3]),
        load(&state[4]),
    ];
    // Big-endian words: reverse the bytes of each 32-bit word.
    let bswap = _mm512_set4_epi32(0x0C0D_0E0F, 0x0809_0A0B, 0x0405_0607, 0x0001_0203);
    let k0 = _mm512_set1_epi32(K[0] as i32);
    let k1 = _mm512_set1_epi32(K[1] as i32);
    let k2 = _mm512_set1_epi32(K[2] as i32);
    let k3 = _mm512_set1_epi32(K[3] as i32);

    for k in 0..n {
        let mut rows = [_mm512_setzero_si512(); 16];
        for (row, lane) in rows.iter_mut().zip(lanes) {
            let block = lane.get(k).unwrap_or(&IDLE);
            // SAFETY: `block` is 64 readable bytes (unaligned load).
            let r = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
            *row = _mm512_shuffle_epi8(r, bswap);
        }
        let mut w = transpose16(rows);
        let [mut a, mut b, mut c, mut d, mut e] = s;

        rounds5!(CH, w, 0, k0, a, b, c, d, e);
        rounds5!(CH, w, 5, k0, a, b, c, d, e);
        rounds5!(CH, w, 10, k0, a, b, c, d, e);
        rounds5!(CH, w, 15, k0, a, b, c, d, e);
        rounds5!(PARITY, w, 20, k1, a, b, c, d, e);
        rounds5!(PARITY, w, 25, k1, a, b, c, d, e);
        rounds5!(PARITY, w, 30, k1, a, b, c, d, e);
        rounds5!(PARITY, w, 35, k1, a, b, c, d, e);
        rounds5!(MAJ, w, 40, k2, a, b, c, d, e);
        rounds5!(MAJ, w, 45, k2, a, b, c, d, e);
        rounds5!(MAJ, w, 50, k2, a, b, c, d, e);
        rounds5!(MAJ, w, 55, k2, a, b, c, d, e);
        rounds5!(PARITY, w, 60, k3, a, b, c, d, e);
        rounds5!(PARITY, w, 65, k3, a, b, c, d, e);
        rounds5!(PARITY, w, 70, k3, a, b, c, d, e);
        rounds5!(PARITY, w, 75, k3, a, b, c, d, e);

        for (x, y) in s.iter_mut().zip([a, b, c, d, e]) {
            *x = _mm512_mask_add_epi32(*x, active, *x, y);
        }
    }

    for (w, v) in state.iter_mut().zip(s) {
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

    /// Single-stream compression under `avx512` (SHA-NI's or AVX2's) and the
    /// 16-lane multi-buffer kernel, both against soft.
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
                let mut s = [0u32; 5];
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
