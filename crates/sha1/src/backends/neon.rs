//! NEON SHA-1 (aarch64): the 4-lane multi-buffer kernel [`compress4`], one message per
//! 32-bit lane of a `q` register. Single streams under this backend run the portable
//! code; CPUs with the SHA-1 instructions detect `armv8` first, for single streams and
//! for multi-buffer hashing alike (the reasoning is in the crate docs' Backends section).
//!
//! A round on 4 lanes, the words in the roles `a, b, c, d, e`:
//!
//! ```text
//! x = e + (W[t] + K)              off the critical path
//! x = x + f(b, c, d)              b is a round old: Ch = BSL (select by b), Parity = 2 EOR,
//!                                 Maj = BSL by b ^ c between d and b (EOR, BSL)
//! e = (x + (a >> 27)) + (a << 5)  USRA beside SHL, then ADD: rotl(a, 5) + x, the only part
//!                                 that waits for a (the two halves have no bit in common)
//! b = rotl(b, 30)                 off the critical path
//! ```
//!
//! and the message schedule `W[t] = rotl(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16], 1)` in a
//! ring of 16 vectors, as in `soft.rs` and the `avx2` 8-lane kernel. The layout is the
//! multi-buffer one of Intel's "Fast multi-buffer IPsec implementations on Intel
//! Architecture processors" (Guilford, Gulley, Gopal, 2012), which Linux's
//! `arch/x86/crypto/sha1-mb` also used; on NEON the rotations are shifts with
//! accumulate (`USRA`), since there is no vector rotate.
//!
//! Message words: a lane's block is read as four 16-byte rows, each 32-bit element
//! byte-reversed (`REV32`, big-endian words), and each group of four rows (one per
//! lane) transposed with `TRN1`/`TRN2`, so that register `w` holds word `w` of every
//! lane.
//!
//! Constant time: loads of the message blocks, additions, shifts and bitwise logic; no
//! branch or address depends on the data.

use core::arch::aarch64::*;

use super::soft::K;

/// `rotl(x, N)` in every 32-bit lane; `$r` is `32 - N`: `(x << N) + (x >> r)`.
macro_rules! rotl {
    ($x:expr, $n:literal, $r:literal) => {{
        let x = $x;
        vsraq_n_u32::<$r>(vshlq_n_u32::<$n>(x), x)
    }};
}

/// The message word of round `$t` on 4 lanes (scheduled in the ring for `t >= 16`).
macro_rules! word4 {
    ($w:ident, $t:expr) => {
        if $t < 16 {
            $w[$t & 15]
        } else {
            let x = veorq_u32(
                veorq_u32($w[($t - 3) & 15], $w[($t - 8) & 15]),
                veorq_u32($w[($t - 14) & 15], $w[$t & 15]),
            );
            $w[$t & 15] = rotl!(x, 1, 31);
            $w[$t & 15]
        }
    };
}

/// The Boolean function of a round on 4 lanes.
macro_rules! f4 {
    // (b & c) | (!b & d)
    (ch, $b:ident, $c:ident, $d:ident) => {
        vbslq_u32($b, $c, $d)
    };
    (parity, $b:ident, $c:ident, $d:ident) => {
        veorq_u32($b, veorq_u32($c, $d))
    };
    // Where b and c differ the majority is d, elsewhere it is b (= c).
    (maj, $b:ident, $c:ident, $d:ident) => {
        vbslq_u32(veorq_u32($b, $c), $d, $b)
    };
}

/// One round `$t` on 4 lanes with the words in the roles `a, b, c, d, e`.
macro_rules! round4 {
    ($f:ident, $w:ident, $t:expr, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let x = vaddq_u32($e, vaddq_u32(word4!($w, $t), $k));
        let x = vaddq_u32(x, f4!($f, $b, $c, $d));
        $e = vaddq_u32(vsraq_n_u32::<27>(x, $a), vshlq_n_u32::<5>($a));
        $b = rotl!($b, 30, 2);
    };
}

/// Five rounds on 4 lanes from `$t`: after five the words are back in their roles.
macro_rules! rounds5x4 {
    ($f:ident, $w:ident, $t:expr, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round4!($f, $w, $t, $k, $a, $b, $c, $d, $e);
        round4!($f, $w, $t + 1, $k, $e, $a, $b, $c, $d);
        round4!($f, $w, $t + 2, $k, $d, $e, $a, $b, $c);
        round4!($f, $w, $t + 3, $k, $c, $d, $e, $a, $b);
        round4!($f, $w, $t + 4, $k, $b, $c, $d, $e, $a);
    };
}

/// Transposes 4 rows of 4 words: `r[j]` holds 4 words of lane `j`; the result's element
/// `w` holds word `w` of every lane (lane `j` in element `j`).
#[inline]
#[target_feature(enable = "neon")]
fn transpose4(r: [uint32x4_t; 4]) -> [uint32x4_t; 4] {
    // [r0[0], r1[0], r0[2], r1[2]], [r0[1], r1[1], r0[3], r1[3]], and so for r2, r3.
    let t0 = vtrn1q_u32(r[0], r[1]);
    let t1 = vtrn2q_u32(r[0], r[1]);
    let t2 = vtrn1q_u32(r[2], r[3]);
    let t3 = vtrn2q_u32(r[2], r[3]);
    let lo = |x: uint32x4_t, y: uint32x4_t| {
        vreinterpretq_u32_u64(vtrn1q_u64(
            vreinterpretq_u64_u32(x),
            vreinterpretq_u64_u32(y),
        ))
    };
    let hi = |x: uint32x4_t, y: uint32x4_t| {
        vreinterpretq_u32_u64(vtrn2q_u64(
            vreinterpretq_u64_u32(x),
            vreinterpretq_u64_u32(y),
        ))
    };
    [lo(t0, t2), lo(t1, t3), hi(t0, t2), hi(t1, t3)]
}

/// The block a lane with no work reads (its result is discarded).
static IDLE: [u8; 64] = [0; 64];

/// Multi-buffer kernel, 4 lanes in `q` registers (the contract of `soft::LaneKernel`):
/// lanes with a non-empty slice absorb `n` blocks each, the others are masked out of
/// the feed-forward and keep their state.
#[target_feature(enable = "neon")]
pub(super) fn compress4(state: &mut [[u32; 4]; 5], lanes: &[&[[u8; 64]]; 4], n: usize) {
    let mut active = [0u32; 4];
    for ((j, l), a) in lanes.iter().enumerate().zip(&mut active) {
        if !l.is_empty() {
            assert!(l.len() >= n, "lane {j} has fewer than {n} blocks");
            *a = u32::MAX;
        }
    }
    // SAFETY: `active` and each `state[w]` are 4 `u32`s = 16 readable bytes; `vld1q_u32`
    // needs only the element alignment, which `[u32; 4]` has.
    let active = unsafe { vld1q_u32(active.as_ptr()) };
    // SAFETY: as above.
    let load = |w: &[u32; 4]| unsafe { vld1q_u32(w.as_ptr()) };
    let mut s = [
        load(&state[0]),
        load(&state[1]),
        load(&state[2]),
        load(&state[3]),
        load(&state[4]),
    ];
    let k0 = vdupq_n_u32(K[0]);
    let k1 = vdupq_n_u32(K[1]);
    let k2 = vdupq_n_u32(K[2]);
    let k3 = vdupq_n_u32(K[3]);

    for k in 0..n {
        // rows[g][j]: words 4g..4g+4 of lane j's block, big-endian (REV32 of the bytes).
        let mut rows = [[vdupq_n_u32(0); 4]; 4];
        for (j, lane) in lanes.iter().enumerate() {
            let block = lane.get(k).unwrap_or(&IDLE);
            for (g, row) in rows.iter_mut().enumerate() {
                // SAFETY: `block` is 64 readable bytes and `16 * g + 16 <= 64` (g < 4,
                // checked by the slice index); `vld1q_u8` has no alignment requirement.
                let bytes = unsafe { vld1q_u8(block[16 * g..16 * g + 16].as_ptr()) };
                row[j] = vreinterpretq_u32_u8(vrev32q_u8(bytes));
            }
        }
        let (m0, m1) = (transpose4(rows[0]), transpose4(rows[1]));
        let (m2, m3) = (transpose4(rows[2]), transpose4(rows[3]));
        let mut w = [
            m0[0], m0[1], m0[2], m0[3], m1[0], m1[1], m1[2], m1[3], m2[0], m2[1], m2[2], m2[3],
            m3[0], m3[1], m3[2], m3[3],
        ];
        let [mut a, mut b, mut c, mut d, mut e] = s;

        rounds5x4!(ch, w, 0, k0, a, b, c, d, e);
        rounds5x4!(ch, w, 5, k0, a, b, c, d, e);
        rounds5x4!(ch, w, 10, k0, a, b, c, d, e);
        rounds5x4!(ch, w, 15, k0, a, b, c, d, e);
        rounds5x4!(parity, w, 20, k1, a, b, c, d, e);
        rounds5x4!(parity, w, 25, k1, a, b, c, d, e);
        rounds5x4!(parity, w, 30, k1, a, b, c, d, e);
        rounds5x4!(parity, w, 35, k1, a, b, c, d, e);
        rounds5x4!(maj, w, 40, k2, a, b, c, d, e);
        rounds5x4!(maj, w, 45, k2, a, b, c, d, e);
        rounds5x4!(maj, w, 50, k2, a, b, c, d, e);
        rounds5x4!(maj, w, 55, k2, a, b, c, d, e);
        rounds5x4!(parity, w, 60, k3, a, b, c, d, e);
        rounds5x4!(parity, w, 65, k3, a, b, c, d, e);
        rounds5x4!(parity, w, 70, k3, a, b, c, d, e);
        rounds5x4!(parity, w, 75, k3, a, b, c, d, e);

        for (x, y) in s.iter_mut().zip([a, b, c, d, e]) {
            *x = vaddq_u32(*x, vandq_u32(y, active));
        }
    }

    for (w, v) in state.iter_mut().zip(s) {
        // SAFETY: `w` is 4 `u32`s = 16 writable bytes, element-aligned.
        unsafe { vst1q_u32(w.as_mut_ptr(), v) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        __backends::{available, compress_with, digest_many_with},
        soft,
    };

    /// Single-stream compression under `neon` (the portable code) and the 4-lane
    /// multi-buffer kernel, both against soft.
    #[test]
    fn neon_matches_soft() {
        if !testkit::available("neon", available("neon")) {
            return;
        }
        testkit::harness::compress(
            "neon",
            64,
            1,
            |rng| core::array::from_fn::<u32, 5, _>(|_| rng.next_u64() as u32),
            |s, data| soft::compress(s, as_blocks(data)),
            |s, data| compress_with("neon", s, as_blocks(data)),
        );
        soft::check_multi("neon");
    }

    /// Batches of 1 to 9 messages (fewer than the 4 lanes, exactly 4, a second partial
    /// batch) whose lengths differ and sit on the padding and block edges, so lanes
    /// drop out after different block counts, each against RustCrypto's sha1.
    #[test]
    fn neon_lane_edges() {
        use digest::Digest;
        if !testkit::available("neon", available("neon")) {
            return;
        }
        const LENS: [usize; 12] = [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200, 1000];
        for count in 1..=9 {
            for shift in 0..LENS.len() {
                let msgs: std::vec::Vec<std::vec::Vec<u8>> = (0..count)
                    .map(|i| {
                        let len = LENS[(shift + 5 * i) % LENS.len()];
                        (0..len).map(|b| (b * 7 + i * 13 + shift) as u8).collect()
                    })
                    .collect();
                let mut got = std::vec![[0x5Au8; 20]; count];
                digest_many_with("neon", &msgs, &mut got);
                for (i, (g, m)) in got.iter().zip(&msgs).enumerate() {
                    let want: [u8; 20] = rc_sha1::Sha1::digest(m).into();
                    assert_eq!(*g, want, "{count} messages, #{i} of {} bytes", m.len());
                }
            }
        }
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
