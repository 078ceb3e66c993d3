//! Portable SHA-1 compression (FIPS 180-4 §6.1.2): the reference every other backend is
//! tested against, and the fallback on every target (any endianness, 32- or 64-bit).
//!
//! SHA-1 is one chain of 80 dependent rounds
//! `e += rotl(a, 5) + f(b, c, d) + K + W[t]; b = rotl(b, 30)`, after which the roles of
//! the five words rotate. The code is arranged so that as little as possible waits for
//! `a`, the word the previous round produced:
//! - `e + (K + W[t])` and `f(b, c, d)` only need words that are at least one round old
//!   (`b` is the previous round's `a`), so they are computed while the previous round
//!   finishes; only `rotl(a, 5)` and one add wait for `a`: 2 operations per round;
//! - the Boolean functions in their cheapest forms: Ch = `d ^ (b & (c ^ d))` (2
//!   operations after `c ^ d`), Parity = `b ^ c ^ d`, Maj = `(b & c) + (d & (b ^ c))`
//!   (the two terms never have a bit in common, so `|` is `+`, and each term is added
//!   to `e` on its own);
//! - the message schedule `W[t] = rotl(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16], 1)` is
//!   computed on the fly in a ring of 16 words, four rounds ahead of its use at the
//!   latest, so it overlaps the rounds; all 80 rounds are unrolled, so every ring index
//!   is a constant and the variables' roles rotate by renaming, not by moves.

#![forbid(unsafe_code)]

/// The round constants of rounds 0–19, 20–39, 40–59 and 60–79 (FIPS 180-4 §4.2.1).
pub(crate) const K: [u32; 4] = [0x5A82_7999, 0x6ED9_EBA1, 0x8F1B_BCDC, 0xCA62_C1D6];

/// The 16 big-endian message words of a block.
#[inline(always)]
pub(crate) fn words(block: &[u8; 64]) -> [u32; 16] {
    let mut w = [0u32; 16];
    for (w, chunk) in w.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    w
}

/// `W[t]` for `t >= 16`, written over `W[t - 16]` in the ring.
macro_rules! schedule {
    ($w:ident, $t:expr) => {{
        let x = $w[($t - 3) & 15] ^ $w[($t - 8) & 15] ^ $w[($t - 14) & 15] ^ $w[$t & 15];
        $w[$t & 15] = x.rotate_left(1);
        $w[$t & 15]
    }};
}

/// The message word of round `$t`: from the block for `t < 16`, else scheduled.
macro_rules! word {
    ($w:ident, $t:expr) => {
        if $t < 16 {
            $w[$t & 15]
        } else {
            schedule!($w, $t)
        }
    };
}

/// One round `$t` with the words in the roles `a, b, c, d, e`: updates `$e` (the new
/// `a`) and `$b`.
macro_rules! round {
    (ch, $w:ident, $t:expr, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let x = $e.wrapping_add(word!($w, $t).wrapping_add($k));
        let x = x.wrapping_add($d ^ ($b & ($c ^ $d)));
        $e = x.wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
    (parity, $w:ident, $t:expr, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let x = $e.wrapping_add(word!($w, $t).wrapping_add($k));
        let x = x.wrapping_add($b ^ $c ^ $d);
        $e = x.wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
    (maj, $w:ident, $t:expr, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        let x = $e.wrapping_add(word!($w, $t).wrapping_add($k));
        let x = x.wrapping_add($b & $c).wrapping_add($d & ($b ^ $c));
        $e = x.wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
    };
}

/// Five rounds from `$t`: after five the words are back in their starting roles.
macro_rules! rounds5 {
    ($f:ident, $w:ident, $t:expr, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round!($f, $w, $t, $k, $a, $b, $c, $d, $e);
        round!($f, $w, $t + 1, $k, $e, $a, $b, $c, $d);
        round!($f, $w, $t + 2, $k, $d, $e, $a, $b, $c);
        round!($f, $w, $t + 3, $k, $c, $d, $e, $a, $b);
        round!($f, $w, $t + 4, $k, $b, $c, $d, $e, $a);
    };
}

/// Absorbs one block into `state`.
#[inline(always)]
fn block(state: &mut [u32; 5], block: &[u8; 64]) {
    let mut w = words(block);
    let [mut a, mut b, mut c, mut d, mut e] = *state;

    let k = K[0];
    rounds5!(ch, w, 0, k, a, b, c, d, e);
    rounds5!(ch, w, 5, k, a, b, c, d, e);
    rounds5!(ch, w, 10, k, a, b, c, d, e);
    rounds5!(ch, w, 15, k, a, b, c, d, e);

    let k = K[1];
    rounds5!(parity, w, 20, k, a, b, c, d, e);
    rounds5!(parity, w, 25, k, a, b, c, d, e);
    rounds5!(parity, w, 30, k, a, b, c, d, e);
    rounds5!(parity, w, 35, k, a, b, c, d, e);

    let k = K[2];
    rounds5!(maj, w, 40, k, a, b, c, d, e);
    rounds5!(maj, w, 45, k, a, b, c, d, e);
    rounds5!(maj, w, 50, k, a, b, c, d, e);
    rounds5!(maj, w, 55, k, a, b, c, d, e);

    let k = K[3];
    rounds5!(parity, w, 60, k, a, b, c, d, e);
    rounds5!(parity, w, 65, k, a, b, c, d, e);
    rounds5!(parity, w, 70, k, a, b, c, d, e);
    rounds5!(parity, w, 75, k, a, b, c, d, e);

    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
    state[4] = state[4].wrapping_add(e);
}

/// Absorbs `blocks` into `state`.
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    for b in blocks {
        block(state, b);
    }
}

/// The SHA-1 initial hash value (FIPS 180-4 §5.3.1).
pub(super) const INIT: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// Writes the final block(s) of a message of `len` bytes whose partial last block is
/// `tail` (its bytes, `0x80`, zeros, the bit length) into `out` (zeroed); returns
/// how many blocks (1 or 2) they take.
fn pad(tail: &[u8], len: usize, out: &mut [[u8; 64]; 2]) -> usize {
    let flat = out.as_flattened_mut();
    flat[..tail.len()].copy_from_slice(tail);
    flat[tail.len()] = 0x80;
    let n = if tail.len() < 56 { 1 } else { 2 };
    flat[64 * n - 8..64 * n].copy_from_slice(&(len as u64).wrapping_mul(8).to_be_bytes());
    n
}

/// The digest bytes of `state`.
fn output(state: [u32; 5]) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (chunk, w) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// SHA-1 of each message, one after the other, with the single-stream `compress`.
pub(super) fn digest_each<M: AsRef<[u8]>>(
    msgs: &[M],
    out: &mut [[u8; 20]],
    compress: impl Fn(&mut [u32; 5], &[[u8; 64]]),
) {
    for (msg, out) in msgs.iter().zip(out) {
        let msg = msg.as_ref();
        let (blocks, tail) = as_blocks(msg);
        let mut state = INIT;
        compress(&mut state, blocks);
        let mut last = [[0u8; 64]; 2];
        let n = pad(tail, msg.len(), &mut last);
        compress(&mut state, &last[..n]);
        *out = output(state);
    }
}

/// A lane kernel: for every lane `j` whose slice `lanes[j]` is not empty (its
/// length is then at least `n`), absorbs its first `n` blocks into lane `j` of the
/// word-major state (`state[w][j]` is word `w` of lane `j`); lanes with an empty
/// slice keep their state.
// The lane driver serves the x86 and aarch64 lane kernels; other targets hash one
// message after the other (`digest_each`).
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
        simdcrypt_rustc = "1.89"
    )),
    allow(dead_code)
)]
pub(super) trait LaneKernel<const L: usize>:
    Fn(&mut [[u32; L]; 5], &[&[[u8; 64]]; L], usize)
{
}

impl<const L: usize, T: Fn(&mut [[u32; L]; 5], &[&[[u8; 64]]; L], usize)> LaneKernel<L> for T {}

/// Multi-buffer SHA-1: the messages go `L` at a time through `kernel`, each lane
/// absorbing its message's whole blocks and then its own padding block(s); the
/// kernel is called for the largest block count all busy lanes still have, so a
/// lane whose message is done (or that has none) sits out while the others go on.
/// A batch of a single message uses the single-stream `compress` instead.
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
        simdcrypt_rustc = "1.89"
    )),
    allow(dead_code)
)]
pub(super) fn digest_lanes<const L: usize, M: AsRef<[u8]>>(
    msgs: &[M],
    out: &mut [[u8; 20]],
    compress: impl Fn(&mut [u32; 5], &[[u8; 64]]),
    kernel: impl LaneKernel<L>,
) {
    for (msgs, out) in msgs.chunks(L).zip(out.chunks_mut(L)) {
        if msgs.len() == 1 {
            digest_each(msgs, out, &compress);
            continue;
        }
        let mut tails = [[[0u8; 64]; 2]; L];
        let mut ntail = [0usize; L];
        // Each lane's queue: whole blocks of the message, then its padding blocks.
        let mut body: [&[[u8; 64]]; L] = [&[]; L];
        for (((msg, body), tails), ntail) in
            msgs.iter().zip(&mut body).zip(&mut tails).zip(&mut ntail)
        {
            let msg = msg.as_ref();
            let (blocks, tail) = as_blocks(msg);
            *body = blocks;
            *ntail = pad(tail, msg.len(), tails);
        }
        let mut tail: [&[[u8; 64]]; L] = [&[]; L];
        for ((t, blocks), n) in tail.iter_mut().zip(&tails).zip(ntail) {
            *t = &blocks[..n];
        }

        let mut state = [[0u32; L]; 5];
        for (s, init) in state.iter_mut().zip(INIT) {
            *s = [init; L];
        }
        loop {
            let mut cur: [&[[u8; 64]]; L] = [&[]; L];
            let mut n = usize::MAX;
            for ((c, b), t) in cur.iter_mut().zip(&body).zip(&tail) {
                *c = if b.is_empty() { t } else { b };
                if !c.is_empty() {
                    n = n.min(c.len());
                }
            }
            if n == usize::MAX {
                break;
            }
            kernel(&mut state, &cur, n);
            for (b, t) in body.iter_mut().zip(&mut tail) {
                if !b.is_empty() {
                    *b = &b[n..];
                } else if !t.is_empty() {
                    *t = &t[n..];
                }
            }
        }
        for (j, o) in out.iter_mut().enumerate() {
            *o = output([
                state[0][j],
                state[1][j],
                state[2][j],
                state[3][j],
                state[4][j],
            ]);
        }
    }
}

/// Test helper of every lane backend: `digest_many_with(name)` equals the
/// single-stream digest for 1..=33 messages of random, unequal lengths (0..2 KiB,
/// with the padding edge cases 0, 55, 56, 63, 64, 65 mixed in).
/// `data.as_chunks::<64>()`, which needs Rust 1.88: the whole 64-byte blocks of `data`
/// and the rest. This crate builds with Rust 1.85.
fn as_blocks(data: &[u8]) -> (&[[u8; 64]], &[u8]) {
    use digest::{array::Array, consts::U64};
    let (blocks, rest) = Array::<u8, U64>::slice_as_chunks(data);
    (Array::cast_slice_to_core(blocks), rest)
}

#[cfg(test)]
pub(super) fn check_multi(name: &str) {
    use super::__backends::digest_many_with;
    let mut rng = testkit::Rng::new(testkit::seed(0x5A1_4D5));
    const EDGES: [usize; 8] = [0, 1, 55, 56, 63, 64, 65, 128];
    for round in 0..20 {
        for count in 1..=33 {
            let msgs: std::vec::Vec<std::vec::Vec<u8>> = (0..count)
                .map(|_| {
                    let len = if rng.below(3) == 0 {
                        EDGES[rng.below(EDGES.len())]
                    } else {
                        rng.below(2049)
                    };
                    rng.bytes(len)
                })
                .collect();
            let mut want = std::vec![[0u8; 20]; count];
            digest_each(&msgs, &mut want, compress);
            let mut got = std::vec![[0xA5u8; 20]; count];
            digest_many_with(name, &msgs, &mut got);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "{name}: round {round}, {count} messages, message {i} of {} bytes",
                    msgs[i].len()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// Multi-buffer hashing with the soft backend (one message after the other).
    #[test]
    fn soft_multi() {
        super::check_multi("soft");
    }

    /// FIPS 180-4 example "abc" (one block, padded by hand), through `compress` alone.
    #[test]
    fn abc_block() {
        let mut block = [0u8; 64];
        block[..3].copy_from_slice(b"abc");
        block[3] = 0x80;
        block[63] = 24;
        let mut state = [
            0x6745_2301,
            0xEFCD_AB89,
            0x98BA_DCFE,
            0x1032_5476,
            0xC3D2_E1F0,
        ];
        super::compress(&mut state, &[block]);
        assert_eq!(
            state,
            [
                0xA999_3E36,
                0x4706_816A,
                0xBA3E_2571,
                0x7850_C26C,
                0x9CD0_D89D
            ]
        );
    }
}
