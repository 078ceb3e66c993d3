//! Portable MD5 compression: the reference every other backend is tested against,
//! and the fallback on every target (any endianness, 32- or 64-bit).
//!
//! MD5 is one chain of 64 dependent steps `a = b + rotl(a + f(b, c, d) + m[k] + K[i], s)`,
//! so its speed is the latency of one step. The code is arranged so that as few
//! operations as possible wait for `b`, the word the previous step produced:
//! - `a + m[k] + K[i]` is computed as soon as `a` is known, off the critical path;
//! - F = `d ^ (b & (c ^ d))`: `c ^ d` is ready early, two operations wait for `b`;
//! - G = `(b & d) + (c & !d)` (the two masks never overlap, so `|` is `+`):
//!   `c & !d` is folded into `a` early, so only `b & d` and one add wait for `b`;
//! - H = `b ^ (c ^ d)`: one operation waits for `b`;
//! - I = `c ^ (b | !d)`: `!d` is ready early, two operations wait for `b`.
//!
//! The final `+ b` after the rotation is one more step on the path, then the next
//! step starts; so a step costs 4 dependent operations in G and H and 5 in F and I.

#![forbid(unsafe_code)]

/// The 64 additive constants `K[i] = floor(abs(sin(i + 1)) * 2^32)` (RFC 1321 3.4).
pub(super) const K: [u32; 64] = [
    // round 1
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    // round 2
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    // round 3
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    // round 4
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// The 16 little-endian message words of a block.
#[inline(always)]
pub(super) fn words(block: &[u8; 64]) -> [u32; 16] {
    let mut m = [0u32; 16];
    for (w, chunk) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    m
}

/// One step: `$a = $b + rotl($a + f($b, $c, $d) + m[k] + K[i], s)` with `f` chosen
/// by the first token and arranged as described in the module docs.
macro_rules! step {
    (F, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = $a.wrapping_add($mk);
        let f = $d ^ ($b & ($c ^ $d));
        $a = t.wrapping_add(f).rotate_left($s).wrapping_add($b);
    };
    (G, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = $a.wrapping_add($mk).wrapping_add($c & !$d);
        $a = t.wrapping_add($b & $d).rotate_left($s).wrapping_add($b);
    };
    (H, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = $a.wrapping_add($mk);
        let cd = $c ^ $d;
        $a = t.wrapping_add($b ^ cd).rotate_left($s).wrapping_add($b);
    };
    (I, $a:ident, $b:ident, $c:ident, $d:ident, $mk:expr, $s:literal) => {
        let t = $a.wrapping_add($mk);
        let nd = !$d;
        $a = t
            .wrapping_add($c ^ ($b | nd))
            .rotate_left($s)
            .wrapping_add($b);
    };
}

/// Four steps of one round, rotating the roles of the state words.
macro_rules! quad {
    ($f:ident, $m:ident, $kt:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     $i:literal, [$k0:literal, $k1:literal, $k2:literal, $k3:literal],
     [$s0:literal, $s1:literal, $s2:literal, $s3:literal]) => {
        step!($f, $a, $b, $c, $d, $m[$k0].wrapping_add($kt[$i]), $s0);
        step!($f, $d, $a, $b, $c, $m[$k1].wrapping_add($kt[$i + 1]), $s1);
        step!($f, $c, $d, $a, $b, $m[$k2].wrapping_add($kt[$i + 2]), $s2);
        step!($f, $b, $c, $d, $a, $m[$k3].wrapping_add($kt[$i + 3]), $s3);
    };
}

/// The 64 steps of one block on `[a, b, c, d]` (without the final feed-forward).
#[inline(always)]
fn rounds(s: [u32; 4], m: &[u32; 16], k: &[u32; 64]) -> [u32; 4] {
    let [mut a, mut b, mut c, mut d] = s;

    quad!(F, m, k, a, b, c, d, 0, [0, 1, 2, 3], [7, 12, 17, 22]);
    quad!(F, m, k, a, b, c, d, 4, [4, 5, 6, 7], [7, 12, 17, 22]);
    quad!(F, m, k, a, b, c, d, 8, [8, 9, 10, 11], [7, 12, 17, 22]);
    quad!(F, m, k, a, b, c, d, 12, [12, 13, 14, 15], [7, 12, 17, 22]);

    quad!(G, m, k, a, b, c, d, 16, [1, 6, 11, 0], [5, 9, 14, 20]);
    quad!(G, m, k, a, b, c, d, 20, [5, 10, 15, 4], [5, 9, 14, 20]);
    quad!(G, m, k, a, b, c, d, 24, [9, 14, 3, 8], [5, 9, 14, 20]);
    quad!(G, m, k, a, b, c, d, 28, [13, 2, 7, 12], [5, 9, 14, 20]);

    quad!(H, m, k, a, b, c, d, 32, [5, 8, 11, 14], [4, 11, 16, 23]);
    quad!(H, m, k, a, b, c, d, 36, [1, 4, 7, 10], [4, 11, 16, 23]);
    quad!(H, m, k, a, b, c, d, 40, [13, 0, 3, 6], [4, 11, 16, 23]);
    quad!(H, m, k, a, b, c, d, 44, [9, 12, 15, 2], [4, 11, 16, 23]);

    quad!(I, m, k, a, b, c, d, 48, [0, 7, 14, 5], [6, 10, 15, 21]);
    quad!(I, m, k, a, b, c, d, 52, [12, 3, 10, 1], [6, 10, 15, 21]);
    quad!(I, m, k, a, b, c, d, 56, [8, 15, 6, 13], [6, 10, 15, 21]);
    quad!(I, m, k, a, b, c, d, 60, [4, 11, 2, 9], [6, 10, 15, 21]);

    [a, b, c, d]
}

/// Absorbs `blocks` into `state`.
pub(super) fn compress(state: &mut [u32; 4], blocks: &[[u8; 64]]) {
    // Read the constants through a pointer the optimiser cannot see through: with
    // `K` as literals, LLVM's reassociation moves `+ K[i]` after `+ f(b, c, d)`,
    // putting one more add on the critical path of every step (what happens to the
    // published crate). Loaded values keep the order written here.
    // (Inside the loop, so that LLVM does not copy the table to the stack.)
    let mut s = *state;
    for block in blocks {
        let k = core::hint::black_box(&K);
        let m = words(block);
        let r = rounds(s, &m, k);
        for (x, y) in s.iter_mut().zip(r) {
            *x = x.wrapping_add(y);
        }
    }
    *state = s;
}

/// The MD5 initial state (RFC 1321 3.3).
pub(super) const INIT: [u32; 4] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476];

/// Writes the final block(s) of a message of `len` bytes whose partial last block is
/// `tail` (its bytes, `0x80`, zeros, the bit length) into `out` (zeroed); returns
/// how many blocks (1 or 2) they take.
fn pad(tail: &[u8], len: usize, out: &mut [[u8; 64]; 2]) -> usize {
    let flat = out.as_flattened_mut();
    flat[..tail.len()].copy_from_slice(tail);
    flat[tail.len()] = 0x80;
    let n = if tail.len() < 56 { 1 } else { 2 };
    flat[64 * n - 8..64 * n].copy_from_slice(&(len as u64).wrapping_mul(8).to_le_bytes());
    n
}

/// The digest bytes of `state`.
fn output(state: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (chunk, w) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// MD5 of each message, one after the other, with the single-stream `compress`.
pub(super) fn digest_each<M: AsRef<[u8]>>(
    msgs: &[M],
    out: &mut [[u8; 16]],
    compress: impl Fn(&mut [u32; 4], &[[u8; 64]]),
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
    Fn(&mut [[u32; L]; 4], &[&[[u8; 64]]; L], usize)
{
}

impl<const L: usize, T: Fn(&mut [[u32; L]; 4], &[&[[u8; 64]]; L], usize)> LaneKernel<L> for T {}

/// Multi-buffer MD5: the messages go `L` at a time through `kernel`, each lane
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
    out: &mut [[u8; 16]],
    compress: impl Fn(&mut [u32; 4], &[[u8; 64]]),
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

        let mut state = [[0u32; L]; 4];
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
            *o = output([state[0][j], state[1][j], state[2][j], state[3][j]]);
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
    let mut rng = testkit::Rng::new(testkit::seed(0x3D5_4D5));
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
            let mut want = std::vec![[0u8; 16]; count];
            digest_each(&msgs, &mut want, compress);
            let mut got = std::vec![[0xA5u8; 16]; count];
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
    /// The soft backend in the harness's backend slot, with RustCrypto's published
    /// compression function (`md-5` 0.11.0) as the reference.
    #[test]
    fn soft_matches_soft() {
        assert!(testkit::available("soft", true));
        testkit::harness::compress(
            "soft",
            64,
            1,
            |rng| {
                let mut s = [0u32; 4];
                s.iter_mut().for_each(|w| *w = rng.next_u64() as u32);
                s
            },
            |s, data| rc_md5::block_api::compress(s, as_blocks(data)),
            |s, data| super::compress(s, as_blocks(data)),
        );
        super::check_multi("soft");
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
