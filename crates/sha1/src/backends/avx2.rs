//! SHA-1 for x86 CPUs without the SHA extensions; also the 8-lane multi-buffer
//! kernel [`compress8`] (one message per 32-bit lane of `ymm`, at the end of this
//! file). Single-stream compression: the message schedule
//! (`W[t] + K`) of two blocks at a time in AVX2, the 80 rounds in scalar code with
//! BMI1/BMI2 (`rorx`, `andn`).
//!
//! This is the design of M. Locktyukhin, "Improving the Performance of the Secure Hash
//! Algorithm (SHA-1)" (Intel, 2010) and of Linux's
//! `arch/x86/crypto/sha1_avx2_x86_64_asm.S` (Intel 2014: I. Albrekht, M. Locktyukhin,
//! R. Zohar, C. Narayanan), which keeps one block in each 128-bit half of a `ymm`
//! register. The rounds are a serial chain
//! (2 dependent operations each, see `soft.rs`); what this backend removes from the
//! scalar ports is the schedule, 4–5 operations per round in `soft`: here it costs
//! about 10 vector operations per four words for *two* blocks, and the rounds only
//! load `W[t] + K` from the stack.
//!
//! Schedule, four words per 128-bit lane (lane `i` holds `W[4g + i]`):
//! - `W[16..32]`: the FIPS recurrence `W[t] = rotl(W[t-3] ^ W[t-8] ^ W[t-14] ^
//!   W[t-16], 1)`; `W[t+3]` needs `W[t]` of the same group, so it is computed
//!   without it and then corrected with `rotl(W[t] before its rotation, 2)`;
//! - `W[32..80]`: `W[t] = rotl(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32], 2)` (the FIPS
//!   recurrence applied to itself), whose four words depend only on earlier groups.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::soft::K;

/// `rotl(x, N)` in every 32-bit lane (AVX2 has no rotate); `$r` is `32 - N`.
macro_rules! rotl {
    ($x:expr, $n:literal, $r:literal) => {{
        let x = $x;
        _mm256_or_si256(_mm256_slli_epi32::<$n>(x), _mm256_srli_epi32::<$r>(x))
    }};
}

/// `W[t] + K` of the 80 rounds of two blocks: `wk[g][i]` is word `4g + i % 4` of
/// block `i / 4`.
type Schedule = [[u32; 8]; 20];

/// Big-endian words: reverses the bytes of every 32-bit lane.
const BSWAP: [u8; 32] = [
    3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
    3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
];

/// Schedule group `$g` (`W[4g..4g + 4]` of both blocks) into `$x[$g]`, and its
/// `W + K` into `$wk[$g]`. Groups 0–3 are the blocks themselves (`$b0`, `$b1`).
macro_rules! group {
    ($x:ident, $wk:ident, $b0:ident, $b1:ident, $g:literal) => {
        $x[$g] = if $g < 4 {
            let (p0, p1): (*const __m128i, *const __m128i) =
                ($b0.as_ptr().cast(), $b1.as_ptr().cast());
            // SAFETY: each block is 64 bytes; these are 16-byte unaligned loads at 16·g.
            let (lo, hi) = unsafe { (_mm_loadu_si128(p0.add($g)), _mm_loadu_si128(p1.add($g))) };
            let both = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
            // SAFETY: `BSWAP` is 32 bytes: one unaligned 32-byte load.
            let bswap = unsafe { _mm256_loadu_si256(BSWAP.as_ptr().cast()) };
            _mm256_shuffle_epi8(both, bswap)
        } else if $g < 8 {
            // W[t-14..t-10] straddles groups g-4 and g-3; W[t-3..t] is the top three
            // words of group g-1, with 0 where W[t] belongs.
            let w14 = _mm256_alignr_epi8::<8>($x[$g - 3], $x[$g - 4]);
            let w3 = _mm256_srli_si256::<4>($x[$g - 1]);
            let t = _mm256_xor_si256(_mm256_xor_si256($x[$g - 4], w14), $x[$g - 2]);
            let t = _mm256_xor_si256(t, w3);
            // W[t+3] also needs rotl(W[t], 1) = rotl(t[0], 2).
            let fix = _mm256_slli_si256::<12>(t);
            _mm256_xor_si256(rotl!(t, 1, 31), rotl!(fix, 2, 30))
        } else {
            // W[t-6..t-2] straddles groups g-2 and g-1.
            let w6 = _mm256_alignr_epi8::<8>($x[$g - 1], $x[$g - 2]);
            let t = _mm256_xor_si256(_mm256_xor_si256($x[$g - 4], $x[$g - 7]), $x[$g - 8]);
            rotl!(_mm256_xor_si256(w6, t), 2, 30)
        };
        let k = _mm256_set1_epi32(K[$g / 5] as i32);
        let v = _mm256_add_epi32($x[$g], k);
        // SAFETY: `$wk[$g]` is 8 `u32`s, 32 bytes: one unaligned 32-byte store.
        unsafe { _mm256_storeu_si256($wk[$g].as_mut_ptr().cast(), v) };
    };
}

/// Computes the schedule of `b0` (low lanes) and `b1` (high lanes) into `wk`.
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn schedule(b0: &[u8; 64], b1: &[u8; 64], wk: &mut Schedule) {
    let mut x = [_mm256_setzero_si256(); 20];
    group!(x, wk, b0, b1, 0);
    group!(x, wk, b0, b1, 1);
    group!(x, wk, b0, b1, 2);
    group!(x, wk, b0, b1, 3);
    group!(x, wk, b0, b1, 4);
    group!(x, wk, b0, b1, 5);
    group!(x, wk, b0, b1, 6);
    group!(x, wk, b0, b1, 7);
    group!(x, wk, b0, b1, 8);
    group!(x, wk, b0, b1, 9);
    group!(x, wk, b0, b1, 10);
    group!(x, wk, b0, b1, 11);
    group!(x, wk, b0, b1, 12);
    group!(x, wk, b0, b1, 13);
    group!(x, wk, b0, b1, 14);
    group!(x, wk, b0, b1, 15);
    group!(x, wk, b0, b1, 16);
    group!(x, wk, b0, b1, 17);
    group!(x, wk, b0, b1, 18);
    group!(x, wk, b0, b1, 19);
}

/// One round with the words in the roles `a, b, c, d, e` and `$wk = W[t] + K`:
/// updates `$e` (the new `a`) and `$b`. Only `rotl(a, 5)` and the last add wait for
/// `a`, the previous round's result; the rest uses words at least a round old.
macro_rules! round {
    (ch, $wk:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        // (b & c) and (!b & d) have no bit in common: add them one by one (`andn`).
        $e = $e
            .wrapping_add($wk)
            .wrapping_add($b & $c)
            .wrapping_add(!$b & $d);
        $e = $e.wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
    (parity, $wk:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        $e = $e.wrapping_add($wk).wrapping_add($b ^ $c ^ $d);
        $e = $e.wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
    (maj, $wk:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        $e = $e
            .wrapping_add($wk)
            .wrapping_add($b & $c)
            .wrapping_add($d & ($b ^ $c));
        $e = $e.wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
}

/// Four rounds of group `$g` from lanes `$o..$o + 4` of `$wk`, the words starting in
/// the roles `a, b, c, d, e`; they end in the roles `b, c, d, e, a`.
macro_rules! rounds4 {
    ($f:ident, $wk:ident, $g:expr, $o:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round!($f, $wk[$g][$o], $a, $b, $c, $d, $e);
        round!($f, $wk[$g][$o + 1], $e, $a, $b, $c, $d);
        round!($f, $wk[$g][$o + 2], $d, $e, $a, $b, $c);
        round!($f, $wk[$g][$o + 3], $c, $d, $e, $a, $b);
    };
}

/// The 80 rounds of one block, from lanes `$o..$o + 4` of `$wk`.
macro_rules! rounds80 {
    ($st:ident, $wk:ident, $o:expr) => {{
        let [mut a, mut b, mut c, mut d, mut e] = *$st;
        rounds4!(ch, $wk, 0, $o, a, b, c, d, e);
        rounds4!(ch, $wk, 1, $o, b, c, d, e, a);
        rounds4!(ch, $wk, 2, $o, c, d, e, a, b);
        rounds4!(ch, $wk, 3, $o, d, e, a, b, c);
        rounds4!(ch, $wk, 4, $o, e, a, b, c, d);
        rounds4!(parity, $wk, 5, $o, a, b, c, d, e);
        rounds4!(parity, $wk, 6, $o, b, c, d, e, a);
        rounds4!(parity, $wk, 7, $o, c, d, e, a, b);
        rounds4!(parity, $wk, 8, $o, d, e, a, b, c);
        rounds4!(parity, $wk, 9, $o, e, a, b, c, d);
        rounds4!(maj, $wk, 10, $o, a, b, c, d, e);
        rounds4!(maj, $wk, 11, $o, b, c, d, e, a);
        rounds4!(maj, $wk, 12, $o, c, d, e, a, b);
        rounds4!(maj, $wk, 13, $o, d, e, a, b, c);
        rounds4!(maj, $wk, 14, $o, e, a, b, c, d);
        rounds4!(parity, $wk, 15, $o, a, b, c, d, e);
        rounds4!(parity, $wk, 16, $o, b, c, d, e, a);
        rounds4!(parity, $wk, 17, $o, c, d, e, a, b);
        rounds4!(parity, $wk, 18, $o, d, e, a, b, c);
        rounds4!(parity, $wk, 19, $o, e, a, b, c, d);
        $st[0] = $st[0].wrapping_add(a);
        $st[1] = $st[1].wrapping_add(b);
        $st[2] = $st[2].wrapping_add(c);
        $st[3] = $st[3].wrapping_add(d);
        $st[4] = $st[4].wrapping_add(e);
    }};
}

/// The 80 rounds of the block in lanes `o..o + 4` (0 or 4) of `wk`.
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn rounds(state: &mut [u32; 5], wk: &Schedule, o: usize) {
    rounds80!(state, wk, o);
}

/// Absorbs `blocks` into `state`.
///
/// Blocks go in pairs: the schedule of both, then the rounds of each (an odd last
/// block is scheduled in both halves and its second copy ignored). Computing the
/// next pair's schedule in between the rounds instead (as Linux does) measured 10%
/// slower here: the vector work then competes with the rounds for the ports that
/// run `rorx`, while done in one burst it overlaps the tail of the previous rounds.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut wk: Schedule = [[0; 8]; 20];
    let (pairs, last) = blocks.as_chunks::<2>();
    for [b0, b1] in pairs {
        schedule(b0, b1, &mut wk);
        rounds(state, &wk, 0);
        rounds(state, &wk, 4);
    }
    if let [b] = last {
        schedule(b, b, &mut wk);
        rounds(state, &wk, 0);
    }
}

// ---- Multi-buffer: 8 messages in the 8 lanes of `ymm` ----

/// The message word of round `$t` on 8 lanes (scheduled in the ring for `t >= 16`).
macro_rules! word8 {
    ($w:ident, $t:expr) => {
        if $t < 16 {
            $w[$t & 15]
        } else {
            let x = _mm256_xor_si256(
                _mm256_xor_si256($w[($t - 3) & 15], $w[($t - 8) & 15]),
                _mm256_xor_si256($w[($t - 14) & 15], $w[$t & 15]),
            );
            $w[$t & 15] = rotl!(x, 1, 31);
            $w[$t & 15]
        }
    };
}

/// The Boolean function of a round on 8 lanes.
macro_rules! f8 {
    (ch, $b:ident, $c:ident, $d:ident) => {
        _mm256_xor_si256($d, _mm256_and_si256($b, _mm256_xor_si256($c, $d)))
    };
    (parity, $b:ident, $c:ident, $d:ident) => {
        _mm256_xor_si256($b, _mm256_xor_si256($c, $d))
    };
    (maj, $b:ident, $c:ident, $d:ident) => {
        _mm256_or_si256(
            _mm256_and_si256($b, $c),
            _mm256_and_si256($d, _mm256_or_si256($b, $c)),
        )
    };
}

/// One round `$t` on 8 lanes with the words in the roles `a, b, c, d, e`.
macro_rules! round8 {
    ($f:ident, $w:ident, $t:expr, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let x = _mm256_add_epi32($e, _mm256_add_epi32(word8!($w, $t), $k));
        let x = _mm256_add_epi32(x, f8!($f, $b, $c, $d));
        $e = _mm256_add_epi32(x, rotl!($a, 5, 27));
        $b = rotl!($b, 30, 2);
    };
}

/// Five rounds on 8 lanes from `$t`.
macro_rules! rounds5x8 {
    ($f:ident, $w:ident, $t:expr, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round8!($f, $w, $t, $k, $a, $b, $c, $d, $e);
        round8!($f, $w, $t + 1, $k, $e, $a, $b, $c, $d);
        round8!($f, $w, $t + 2, $k, $d, $e, $a, $b, $c);
        round8!($f, $w, $t + 3, $k, $c, $d, $e, $a, $b);
        round8!($f, $w, $t + 4, $k, $b, $c, $d, $e, $a);
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
pub(super) fn compress8(state: &mut [[u32; 8]; 5], lanes: &[&[[u8; 64]]; 8], n: usize) {
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
    let mut s = [
        load(&state[0]),
        load(&state[1]),
        load(&state[2]),
        load(&state[3]),
        load(&state[4]),
    ];
    // Big-endian words: reverse the bytes of each 32-bit word.
    let bswap = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
        15, 14, 13, 12,
    );
    let k0 = _mm256_set1_epi32(K[0] as i32);
    let k1 = _mm256_set1_epi32(K[1] as i32);
    let k2 = _mm256_set1_epi32(K[2] as i32);
    let k3 = _mm256_set1_epi32(K[3] as i32);

    for k in 0..n {
        let mut lo = [_mm256_setzero_si256(); 8];
        let mut hi = [_mm256_setzero_si256(); 8];
        for ((lo, hi), lane) in lo.iter_mut().zip(&mut hi).zip(lanes) {
            let block = lane.get(k).unwrap_or(&IDLE);
            // SAFETY: `block` is 64 readable bytes: two unaligned 32-byte loads.
            let (l, h) = unsafe {
                (
                    _mm256_loadu_si256(block.as_ptr().cast()),
                    _mm256_loadu_si256(block.as_ptr().add(32).cast()),
                )
            };
            *lo = _mm256_shuffle_epi8(l, bswap);
            *hi = _mm256_shuffle_epi8(h, bswap);
        }
        let (m0, m1) = (transpose8(lo), transpose8(hi));
        let mut w = [
            m0[0], m0[1], m0[2], m0[3], m0[4], m0[5], m0[6], m0[7], m1[0], m1[1], m1[2], m1[3],
            m1[4], m1[5], m1[6], m1[7],
        ];
        let [mut a, mut b, mut c, mut d, mut e] = s;

        rounds5x8!(ch, w, 0, k0, a, b, c, d, e);
        rounds5x8!(ch, w, 5, k0, a, b, c, d, e);
        rounds5x8!(ch, w, 10, k0, a, b, c, d, e);
        rounds5x8!(ch, w, 15, k0, a, b, c, d, e);
        rounds5x8!(parity, w, 20, k1, a, b, c, d, e);
        rounds5x8!(parity, w, 25, k1, a, b, c, d, e);
        rounds5x8!(parity, w, 30, k1, a, b, c, d, e);
        rounds5x8!(parity, w, 35, k1, a, b, c, d, e);
        rounds5x8!(maj, w, 40, k2, a, b, c, d, e);
        rounds5x8!(maj, w, 45, k2, a, b, c, d, e);
        rounds5x8!(maj, w, 50, k2, a, b, c, d, e);
        rounds5x8!(maj, w, 55, k2, a, b, c, d, e);
        rounds5x8!(parity, w, 60, k3, a, b, c, d, e);
        rounds5x8!(parity, w, 65, k3, a, b, c, d, e);
        rounds5x8!(parity, w, 70, k3, a, b, c, d, e);
        rounds5x8!(parity, w, 75, k3, a, b, c, d, e);

        for (x, y) in s.iter_mut().zip([a, b, c, d, e]) {
            *x = _mm256_add_epi32(*x, _mm256_and_si256(y, active));
        }
    }

    for (w, v) in state.iter_mut().zip(s) {
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

    #[test]
    fn avx2_matches_soft() {
        if !testkit::available("avx2", available("avx2")) {
            return;
        }
        testkit::harness::compress(
            "avx2",
            64,
            2,
            |rng| core::array::from_fn::<u32, 5, _>(|_| rng.next_u64() as u32),
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
