//! NEON MD5 (aarch64): the 4-lane multi-buffer kernel [`compress4`], one message per
//! 32-bit lane of a `q` register. Single streams under this backend run the portable
//! code, as under `avx2` on x86.
//!
//! Why no one-lane kernel: MD5 is one chain of 64 dependent steps, and NEON makes a
//! step longer, not shorter. Every ASIMD integer operation has a latency of 2 cycles on
//! Neoverse N1 and V1 and 3 on Cortex-A72, the shift-and-accumulate `USRA` 4 (the Arm
//! Software Optimization Guides, as LLVM's `AArch64SchedNeoverseN1.td`,
//! `AArch64SchedNeoverseV1.td` and `AArch64SchedA57.td` encode them), where the scalar
//! `add`, `eor`, `bic` and `ror` take 1; and NEON has no rotate. A step in the lanes is
//!
//! ```text
//! t = a + (m[k] + K[i])         off the critical path (a is three steps old)
//! f = F/G/H/I(b, c, d)          F: MOV of b and BSL (LLVM's choice for d ^ (b & (c ^ d)));
//!                               G: BSL by d (its copy is early); H: EOR (c ^ d is early);
//!                               I: ORN, EOR
//! u = t + f                     ADD
//! a = (b + (u >> 32 - s))       USRA (b is ready early: its copy for USRA's accumulator
//!     + (u << s)                too) beside SHL, then ADD; REV32 on 16-bit elements and
//!                               ADD when s = 16
//! ```
//!
//! 10–12 cycles after `b` on N1/V1 (13–16 on A72): ≈700 cycles for four blocks, ≈175 per
//! block, against ≈4–5 cycles per step (≈290 per block) for the scalar code on one
//! message. So the gain is width only: four messages share each instruction. The step
//! is the one of the x86 `avx2` kernel (`avx2.rs`), in the multi-buffer layout of Intel's
//! "Fast multi-buffer IPsec implementations on Intel Architecture processors" (Guilford,
//! Gulley, Gopal, 2012); the counts are the crate docs' (release disassembly).
//!
//! Message words: a lane's 64-byte block is read as four 16-byte rows and each group of
//! four rows (one per lane) is transposed with `TRN1`/`TRN2` on 32- and 64-bit
//! elements, 8 instructions per group, so that register `w` holds word `w` of every
//! lane.
//!
//! Constant time: only loads of the message blocks, additions, shifts and bitwise
//! logic; no branch or address depends on the data.

use core::arch::aarch64::*;

use super::soft::K;

/// `b + rotl(u, s)` in each 32-bit lane, written as `(b + (u >> 32 - s)) + (u << s)`
/// (the two shifted halves have no bit in common, so `|` is `+`): `USRA` (shift right
/// and accumulate into `b`, which is ready early) beside `SHL`, then one `ADD`. From
/// `u` that is max(4, 2) + 2 = 6 cycles on N1, as `SHL`, `SRI`, `ADD` would be; LLVM
/// turns a plain `SHL`+`SRI` rotation into `SHL` then `USRA` on the rotation's own
/// result, which would cost 2 + 4 + 2 = 8. A rotation by 16 is one `REV32` on 16-bit
/// elements, then the `ADD`.
macro_rules! add_rotl {
    ($b:expr, $u:expr, 16) => {{
        vaddq_u32(
            $b,
            vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32($u))),
        )
    }};
    ($b:expr, $u:expr, $s:literal) => {{
        let u = $u;
        vaddq_u32(vsraq_n_u32::<{ 32 - $s }>($b, u), vshlq_n_u32::<$s>(u))
    }};
}

/// One step on 4 lanes; `$mk` is the vector `m[k] + K[i]`.
macro_rules! step4 {
    (F, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:tt) => {
        let t = vaddq_u32($a, $mk);
        // F = d ^ (b & (c ^ d)): `c ^ d` is early, AND and EOR wait for b. (A `BSL` by b
        // would need a copy of b first, since b, c and d all stay live: no shorter.)
        let f = veorq_u32($d, vandq_u32($b, veorq_u32($c, $d)));
        $a = add_rotl!($b, vaddq_u32(t, f), $s);
    };
    (G, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:tt) => {
        let t = vaddq_u32($a, $mk);
        // G = (b & d) | (c & !d): a bitwise select by d, which is ready early (its copy
        // for `BSL` too), so only the select waits for b.
        let f = vbslq_u32($d, $b, $c);
        $a = add_rotl!($b, vaddq_u32(t, f), $s);
    };
    (H, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:tt) => {
        let t = vaddq_u32($a, $mk);
        let f = veorq_u32($b, veorq_u32($c, $d));
        $a = add_rotl!($b, vaddq_u32(t, f), $s);
    };
    (I, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:tt) => {
        let t = vaddq_u32($a, $mk);
        // I = c ^ (b | !d): ORN then EOR.
        let f = veorq_u32($c, vornq_u32($b, $d));
        $a = add_rotl!($b, vaddq_u32(t, f), $s);
    };
}

/// Four steps of one round; `$kv` is the table of broadcast constants.
macro_rules! quad4 {
    ($f:ident, $m:ident, $kv:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     $i:literal, [$k0:literal, $k1:literal, $k2:literal, $k3:literal],
     [$s0:tt, $s1:tt, $s2:tt, $s3:tt]) => {
        step4!($f, $a, $b, $c, $d, vaddq_u32($m[$k0], $kv($i)), $s0);
        step4!($f, $d, $a, $b, $c, vaddq_u32($m[$k1], $kv($i + 1)), $s1);
        step4!($f, $c, $d, $a, $b, vaddq_u32($m[$k2], $kv($i + 2)), $s2);
        step4!($f, $b, $c, $d, $a, vaddq_u32($m[$k3], $kv($i + 3)), $s3);
    };
}

/// `K[i]` in every lane: one `LDR q` each from this table (built at compile time), where
/// a broadcast of a constant costs `MOV`, `MOVK` and `DUP` (3 instructions).
static KV: [[u32; 4]; 64] = {
    let mut t = [[0u32; 4]; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = [K[i]; 4];
        i += 1;
    }
    t
};

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
pub(super) fn compress4(state: &mut [[u32; 4]; 4], lanes: &[&[[u8; 64]]; 4], n: usize) {
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
    let (mut sa, mut sb, mut sc, mut sd) = (
        load(&state[0]),
        load(&state[1]),
        load(&state[2]),
        load(&state[3]),
    );

    // Through a pointer the optimiser cannot see through, so that it loads the
    // constants instead of rebuilding them (see `KV`).
    let kt = core::hint::black_box(&KV);
    // SAFETY: `kt[i]` is 4 `u32`s = 16 readable bytes, element-aligned.
    let kv = |i: usize| unsafe { vld1q_u32(kt[i].as_ptr()) };

    for k in 0..n {
        // rows[g][j]: words 4g..4g+4 of lane j's block (little-endian words: the bytes
        // in memory order, so on either endianness of the target).
        let mut rows = [[vdupq_n_u32(0); 4]; 4];
        for (j, lane) in lanes.iter().enumerate() {
            let block = lane.get(k).unwrap_or(&IDLE);
            for (g, row) in rows.iter_mut().enumerate() {
                // SAFETY: `block` is 64 readable bytes and `16 * g + 16 <= 64` (g < 4,
                // checked by the slice index); `vld1q_u8` has no alignment requirement.
                let bytes = unsafe { vld1q_u8(block[16 * g..16 * g + 16].as_ptr()) };
                row[j] = vreinterpretq_u32_u8(bytes);
            }
        }
        let (m0, m1) = (transpose4(rows[0]), transpose4(rows[1]));
        let (m2, m3) = (transpose4(rows[2]), transpose4(rows[3]));
        let m = [
            m0[0], m0[1], m0[2], m0[3], m1[0], m1[1], m1[2], m1[3], m2[0], m2[1], m2[2], m2[3],
            m3[0], m3[1], m3[2], m3[3],
        ];
        let (mut a, mut b, mut c, mut d) = (sa, sb, sc, sd);

        quad4!(F, m, kv, a, b, c, d, 0, [0, 1, 2, 3], [7, 12, 17, 22]);
        quad4!(F, m, kv, a, b, c, d, 4, [4, 5, 6, 7], [7, 12, 17, 22]);
        quad4!(F, m, kv, a, b, c, d, 8, [8, 9, 10, 11], [7, 12, 17, 22]);
        quad4!(F, m, kv, a, b, c, d, 12, [12, 13, 14, 15], [7, 12, 17, 22]);

        quad4!(G, m, kv, a, b, c, d, 16, [1, 6, 11, 0], [5, 9, 14, 20]);
        quad4!(G, m, kv, a, b, c, d, 20, [5, 10, 15, 4], [5, 9, 14, 20]);
        quad4!(G, m, kv, a, b, c, d, 24, [9, 14, 3, 8], [5, 9, 14, 20]);
        quad4!(G, m, kv, a, b, c, d, 28, [13, 2, 7, 12], [5, 9, 14, 20]);

        quad4!(H, m, kv, a, b, c, d, 32, [5, 8, 11, 14], [4, 11, 16, 23]);
        quad4!(H, m, kv, a, b, c, d, 36, [1, 4, 7, 10], [4, 11, 16, 23]);
        quad4!(H, m, kv, a, b, c, d, 40, [13, 0, 3, 6], [4, 11, 16, 23]);
        quad4!(H, m, kv, a, b, c, d, 44, [9, 12, 15, 2], [4, 11, 16, 23]);

        quad4!(I, m, kv, a, b, c, d, 48, [0, 7, 14, 5], [6, 10, 15, 21]);
        quad4!(I, m, kv, a, b, c, d, 52, [12, 3, 10, 1], [6, 10, 15, 21]);
        quad4!(I, m, kv, a, b, c, d, 56, [8, 15, 6, 13], [6, 10, 15, 21]);
        quad4!(I, m, kv, a, b, c, d, 60, [4, 11, 2, 9], [6, 10, 15, 21]);

        sa = vaddq_u32(sa, vandq_u32(a, active));
        sb = vaddq_u32(sb, vandq_u32(b, active));
        sc = vaddq_u32(sc, vandq_u32(c, active));
        sd = vaddq_u32(sd, vandq_u32(d, active));
    }

    for (w, v) in state.iter_mut().zip([sa, sb, sc, sd]) {
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
            |rng| {
                let mut s = [0u32; 4];
                s.iter_mut().for_each(|w| *w = rng.next_u64() as u32);
                s
            },
            |s, data| soft::compress(s, as_blocks(data)),
            |s, data| compress_with("neon", s, as_blocks(data)),
        );
        soft::check_multi("neon");
    }

    /// Batches of 1 to 9 messages (fewer lanes than 4, exactly 4, a second partial
    /// batch) whose lengths differ and sit on the padding and block edges, so lanes
    /// drop out after different block counts, each against RustCrypto's md-5.
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
                let mut got = std::vec![[0x5Au8; 16]; count];
                digest_many_with("neon", &msgs, &mut got);
                for (i, (g, m)) in got.iter().zip(&msgs).enumerate() {
                    let want: [u8; 16] = rc_md5::Md5::digest(m).into();
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
