//! AVX-512 (F + VL) MD5 compression of a single message.
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
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
