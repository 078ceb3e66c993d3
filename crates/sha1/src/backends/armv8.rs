//! SHA-1 compression with the ARMv8 Cryptography Extensions (`SHA1C`, `SHA1P`, `SHA1M`,
//! `SHA1H`, `SHA1SU0`, `SHA1SU1`; Rust's `sha2` target feature, which implies NEON).
//!
//! `ABCD` lives in one NEON register with `A` in lane 0 and `E` in a scalar. Each of the
//! 20 groups of four rounds is one `SHA1C`/`SHA1P`/`SHA1M` (choose, parity, majority:
//! rounds 0–19, 20–39 and 60–79, 40–59) on `ABCD`, `E` and four `W[t] + K`; the `E` of
//! the group after is `rotl(A, 30)` of the `A` going in, which `SHA1H` computes from lane
//! 0 before the group runs. The message schedule is four vectors of four words, each
//! next group `W[t..t+4] = SHA1SU1(SHA1SU0(W[t-16..], W[t-12..], W[t-8..]), W[t-4..])`
//! (the FIPS 180-4 recurrence in two instructions); it depends only on the block, so the
//! core runs it beside the chain of 20 round instructions that bounds a block.
//!
//! Constant time: the instructions take the same time whatever the data.

use core::arch::aarch64::*;

use super::soft::K;

/// Message group `g` < 4 of `block` (`W[4g..4g+4]`, lane 0 first): big-endian words,
/// so each 32-bit lane is byte-reversed.
#[inline]
#[target_feature(enable = "sha2")]
fn load_words(block: &[u8; 64], g: usize) -> uint32x4_t {
    // SAFETY: `16 * g + 16 <= 64` bytes of `block` (g < 4, checked by the slice index) are
    // readable; `vld1q_u8` has no alignment requirement.
    let bytes = unsafe { vld1q_u8(block[16 * g..16 * g + 16].as_ptr()) };
    vreinterpretq_u32_u8(vrev32q_u8(bytes))
}

/// Absorbs `blocks` into `state`.
#[target_feature(enable = "sha2")]
pub(super) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: `state` has 5 words; the load reads the first 4 (A, B, C, D).
    let mut abcd = unsafe { vld1q_u32(state.as_ptr()) };
    let mut e = state[4];
    let k = K.map(|k| vdupq_n_u32(k));

    // Four rounds with function `$f` and constant `k[$k]` on message group `$w`.
    macro_rules! group {
        ($f:ident, $k:literal, $w:expr) => {
            let wk = vaddq_u32($w, k[$k]);
            let next_e = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
            abcd = $f(abcd, e, wk);
            e = next_e;
        };
    }
    // The next message group into `$a` (which held the one 4 groups back), then its
    // four rounds.
    macro_rules! next {
        ($f:ident, $k:literal, $a:ident, $b:ident, $c:ident, $d:ident) => {
            $a = vsha1su1q_u32(vsha1su0q_u32($a, $b, $c), $d);
            group!($f, $k, $a);
        };
    }

    for block in blocks {
        let (abcd0, e0) = (abcd, e);
        let [mut w0, mut w1, mut w2, mut w3] = core::array::from_fn(|g| load_words(block, g));
        // Rounds 0-19: choose.
        group!(vsha1cq_u32, 0, w0);
        group!(vsha1cq_u32, 0, w1);
        group!(vsha1cq_u32, 0, w2);
        group!(vsha1cq_u32, 0, w3);
        next!(vsha1cq_u32, 0, w0, w1, w2, w3);
        // Rounds 20-39: parity.
        next!(vsha1pq_u32, 1, w1, w2, w3, w0);
        next!(vsha1pq_u32, 1, w2, w3, w0, w1);
        next!(vsha1pq_u32, 1, w3, w0, w1, w2);
        next!(vsha1pq_u32, 1, w0, w1, w2, w3);
        next!(vsha1pq_u32, 1, w1, w2, w3, w0);
        // Rounds 40-59: majority.
        next!(vsha1mq_u32, 2, w2, w3, w0, w1);
        next!(vsha1mq_u32, 2, w3, w0, w1, w2);
        next!(vsha1mq_u32, 2, w0, w1, w2, w3);
        next!(vsha1mq_u32, 2, w1, w2, w3, w0);
        next!(vsha1mq_u32, 2, w2, w3, w0, w1);
        // Rounds 60-79: parity.
        next!(vsha1pq_u32, 3, w3, w0, w1, w2);
        next!(vsha1pq_u32, 3, w0, w1, w2, w3);
        next!(vsha1pq_u32, 3, w1, w2, w3, w0);
        next!(vsha1pq_u32, 3, w2, w3, w0, w1);
        next!(vsha1pq_u32, 3, w3, w0, w1, w2);
        abcd = vaddq_u32(abcd, abcd0);
        e = e.wrapping_add(e0);
    }

    // SAFETY: `state` has 5 words; the store writes the first 4.
    unsafe { vst1q_u32(state.as_mut_ptr(), abcd) };
    state[4] = e;
}

#[cfg(test)]
mod tests {
    use super::super::{
        __backends::{available, compress_with},
        soft,
    };

    #[test]
    fn armv8_matches_soft() {
        if !testkit::available("armv8", available("armv8")) {
            return;
        }
        testkit::harness::compress(
            "armv8",
            64,
            1,
            |rng| core::array::from_fn::<u32, 5, _>(|_| rng.next_u64() as u32),
            |s, data| soft::compress(s, as_blocks(data)),
            |s, data| compress_with("armv8", s, as_blocks(data)),
        );
    }

    /// Multi-buffer hashing through `armv8` (one message after the other).
    #[test]
    fn armv8_multi() {
        if testkit::available("armv8", available("armv8")) {
            soft::check_multi("armv8");
        }
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
