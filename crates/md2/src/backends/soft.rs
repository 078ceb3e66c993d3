//! Portable MD2 compression: the reference and fallback on every target.
//!
//! MD2 (RFC 1319) absorbs a 16-byte block with 18 rounds over a 48-byte state `x`;
//! each round is 48 dependent S-box steps `t = x[k] ^= S[t]`, and round `j > 0`
//! starts from the last `t` of round `j - 1` plus `j - 1`. That is one serial chain
//! of 864 table lookups per block, so MD2 runs at the latency of the chain: a load
//! (5 cycles on current x86 cores) and an `xor` (1 cycle) per step in the published
//! crate (which also zero-extends `t` on some cores), about 6.3 cycles per step
//! measured on this project's test host.
//!
//! The code here halves the number of loads on the chain:
//!
//! - **Two steps per lookup.** Steps `t1 = x1 ^ S[t0]` and `t2 = x2 ^ S[t1]` give
//!   `t2 = x2 ^ W[x1][t0]` with `W[x][u] = S[x ^ S[u]]`, a 64 KiB table. `x1` (the
//!   old `x[k]`, written a round earlier) is known long before `t0`, so the row
//!   address is ready and the chain is one load and one `xor` for two steps. `t1`
//!   is still needed (it is the new `x[k]`) but nothing waits for it. Steps 1..=46
//!   of a round go in 23 pairs; steps 0 and 47 are single lookups.
//! - **The rows are touched ahead.** `W` does not fit in a 48 KiB L1, and a row read
//!   from L2 costs three times an L1 hit on the chain; the four cache lines of the
//!   row a pair will need are read a few pairs earlier (`AHEAD`; the row index is a
//!   state byte known a round in advance), so the chain finds them in L1. Without
//!   this (or touching only two pairs ahead) the table is no faster than one lookup
//!   per step.
//! - **The round offset is folded into the table address:** step 0 of round `j`
//!   looks `t` up in `S` rotated by `j - 1` (a window of a doubled table, `S2`),
//!   so the `+ (j - 1)` costs nothing on the chain.
//! - **No narrowing.** The state is kept as `u32` words during a call, so each
//!   `xor` of a table byte and a state word is a 32-bit operation whose result is
//!   the next index as it is (with two byte operands LLVM narrows the `xor` to 8
//!   bits and zero-extends the result, one more cycle per step).
//! - The checksum update, a separate chain of 16 lookups per block, comes first in
//!   program order and overlaps with the rounds completely.
//!
//! Measured on the test host (TSC cycles per byte at 8 KiB): 142 against 254 for
//! the published crate. The chain then takes about 7.5 core cycles per pair of
//! steps, of which 6 are the load and the `xor` and the rest L1 misses on `W` that
//! touching does not hide (with a 32 KiB stand-in table that stays in L1 the same
//! code runs at about 6.4). Taking the `xor` off the chain with a table per pair built by
//! vector code (`W[x1] ^ x2`, AVX2 or AVX-512) was tried: it is bound by the stores
//! and the L2 reads of the rows, at about 9 cycles per pair.

#![forbid(unsafe_code)]

/// The MD2 S-box: a permutation of 0..=255 built from the digits of pi (RFC 1319, 3.2).
const S: [u8; 256] = [
    41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19, 98, 167, 5, 243, 192, 199,
    115, 140, 152, 147, 43, 217, 188, 76, 130, 202, 30, 155, 87, 60, 253, 212, 224, 22, 103, 66,
    111, 24, 138, 23, 229, 18, 190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47,
    238, 122, 169, 104, 121, 145, 21, 178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33, 128, 127, 93,
    154, 90, 144, 50, 39, 53, 62, 204, 231, 191, 247, 151, 3, 255, 25, 48, 179, 72, 165, 181, 209,
    215, 94, 146, 42, 172, 86, 170, 198, 79, 184, 56, 210, 150, 164, 125, 182, 118, 252, 107, 226,
    156, 116, 4, 241, 69, 157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2, 27,
    96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15, 85, 71, 163, 35, 221, 81,
    175, 58, 195, 92, 249, 206, 186, 197, 234, 38, 44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205,
    244, 65, 129, 77, 82, 106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
    120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57, 242, 239, 183, 14,
    102, 88, 208, 228, 166, 119, 114, 248, 235, 117, 75, 10, 49, 68, 80, 180, 143, 237, 31, 26,
    219, 153, 141, 51, 159, 17, 131, 20,
];

/// `S` twice in a row: `S2[j..j + 256]` is `S` rotated by `j`, the table of
/// `u -> S[(u + j) mod 256]`.
static S2: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = S[i % 256];
        i += 1;
    }
    t
};

/// `S` rotated by `j` (`j < 256`): `rot(j)[u] == S[(u + j) mod 256]`.
#[inline(always)]
fn rot(j: usize) -> &'static [u8; 256] {
    S2[j..j + 256].try_into().expect("a 256-byte window of S2")
}

/// Two steps in one lookup: `W.0[x][u] == S[x ^ S[u]]` (64 KiB).
static W: Rows = Rows({
    let mut w = [[0u8; 256]; 256];
    let mut x = 0;
    while x < 256 {
        let mut u = 0;
        while u < 256 {
            w[x][u] = S[x ^ S[u] as usize];
            u += 1;
        }
        x += 1;
    }
    w
});

/// [`W`], each row on four whole cache lines (the rows are touched line by line).
#[repr(align(256))]
struct Rows([[u8; 256]; 256]);

/// How many pairs ahead of its use a row of [`W`] is touched. Two is too few (the
/// L2 latency shows); 6 to 16 measure the same.
const AHEAD: usize = 8;

/// Steps `2p + 1` and `2p + 2` of a round for each listed `p`, unrolled.
///
/// Every `t` is below 256 (a byte xor a word below 256); the bounds checks on it are
/// a compare and a never-taken branch, off the chain.
macro_rules! pairs {
    ($x:ident, $t:ident, $sink:ident, [$($p:literal),*]) => {$(
        {
            const K: usize = 1 + 2 * $p;
            // Touch the row a later pair uses: the old x of this round or, past
            // the end, the new x of the next round's pair (already computed).
            let ahead = &W.0[$x[const { 1 + 2 * (($p + AHEAD) % 23) }] as usize];
            $sink ^= ahead[0] ^ ahead[64] ^ ahead[128] ^ ahead[192];

            let (x1, x2) = ($x[K], $x[K + 1]);
            let mid = u32::from(S[$t]) ^ x1;
            $t = (u32::from(W.0[x1 as usize][$t]) ^ x2) as usize;
            $x[K] = mid;
            $x[K + 1] = $t as u32;
        }
    )*};
}

/// The checksum update of one block (RFC 1319, 3.2), independent of the rounds.
#[inline(always)]
fn checksum(c: &mut [u8; 16], block: &[u8; 16]) {
    let mut l = usize::from(c[15]);
    for (c, &m) in c.iter_mut().zip(block) {
        *c ^= S[usize::from(m) ^ l];
        l = usize::from(*c);
    }
}

/// Absorbs `blocks` into the state `state` and the checksum `c`.
pub(super) fn compress(state: &mut [u8; 48], c: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let mut x = [0u32; 48];
    for (w, &b) in x.iter_mut().zip(state.iter()) {
        *w = u32::from(b);
    }
    // The touched bytes, folded together and handed to `black_box` so that the
    // loads are not optimised away.
    let mut sink = 0u8;
    for block in blocks {
        checksum(c, block);
        for k in 0..16 {
            x[16 + k] = u32::from(block[k]);
            x[32 + k] = x[k] ^ u32::from(block[k]);
        }
        let mut t = 0usize;
        for j in 0..18usize {
            // Step 0 alone: round 0 starts from t = 0, round j > 0 from the last t
            // plus j - 1, i.e. from a lookup in S rotated by j - 1.
            t = (u32::from(rot(j.saturating_sub(1))[t]) ^ x[0]) as usize;
            x[0] = t as u32;
            pairs!(
                x,
                t,
                sink,
                [
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                    22
                ]
            );
            // Step 47 alone.
            t = (u32::from(S[t]) ^ x[47]) as usize;
            x[47] = t as u32;
        }
    }
    core::hint::black_box(sink);
    for (b, &w) in state.iter_mut().zip(x.iter()) {
        *b = w as u8;
    }
}

#[cfg(test)]
mod tests {
    //! The paired-lookup code against a plain transcription of RFC 1319 section 3
    //! (one lookup per step, byte state, as in RustCrypto's crate), through testkit's
    //! compression harness.

    use super::S;

    type State = ([u8; 48], [u8; 16]);

    fn reference(state: &mut State, data: &[u8]) {
        let (x, c) = state;
        for block in data.chunks_exact(16) {
            for j in 0..16 {
                x[16 + j] = block[j];
                x[32 + j] = x[j] ^ block[j];
            }
            let mut t = 0u8;
            for j in 0..18u8 {
                for v in x.iter_mut() {
                    *v ^= S[usize::from(t)];
                    t = *v;
                }
                t = t.wrapping_add(j);
            }
            let mut l = c[15];
            for j in 0..16 {
                c[j] ^= S[usize::from(block[j] ^ l)];
                l = c[j];
            }
        }
    }

    #[test]
    fn soft_matches_reference() {
        testkit::harness::compress(
            "soft",
            16,
            1,
            |rng| {
                let mut s: State = ([0; 48], [0; 16]);
                rng.fill(&mut s.0);
                rng.fill(&mut s.1);
                s
            },
            reference,
            |s, data| {
                let (blocks, rest) = data.as_chunks::<16>();
                assert!(rest.is_empty());
                super::compress(&mut s.0, &mut s.1, blocks)
            },
        );
    }

    #[test]
    fn the_pair_table_is_two_steps() {
        for x in 0..256 {
            for u in 0..256 {
                assert_eq!(super::W.0[x][u], S[x ^ usize::from(S[u])]);
            }
        }
        for j in 0..18 {
            for u in 0..256 {
                assert_eq!(super::rot(j)[u], S[(u + j) % 256]);
            }
        }
    }
}
