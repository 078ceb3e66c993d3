//! Portable IDEA: the key schedule and the one-block cipher, every target.
//!
//! Constant time: the multiplication modulo 2^16+1 ([`mul`]) has no branch (the operand 0,
//! which stands for 2^16, is handled with a mask). The key schedule's inverse is extended
//! Euclid, whose step count depends on the key (as in the release).

#![forbid(unsafe_code)]

use crate::{Blk, LENGTH_SUB_KEYS};
use simdcrypt_dispatch::modes::CbcEncrypt;
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, InOut, InOutBuf, ParBlocks,
    ParBlocksSizeUser,
    consts::{U4, U8},
};

/// Number of full rounds.
const ROUNDS: usize = 8;

/// The 52 encryption subkeys of `key` (the 128-bit key rotated left by 25 bits between
/// groups of eight 16-bit words).
pub(crate) fn expand_key(key: &[u8; 16]) -> [u16; LENGTH_SUB_KEYS] {
    let mut k = [0u16; LENGTH_SUB_KEYS];
    for i in 0..8 {
        k[i] = u16::from_be_bytes([key[2 * i], key[2 * i + 1]]);
    }
    for i in 8..LENGTH_SUB_KEYS {
        let a = if (i + 1) % 8 == 0 {
            k[i - 15]
        } else {
            k[i - 7]
        };
        let b = if (i + 2) % 8 < 2 { k[i - 14] } else { k[i - 6] };
        k[i] = (a << 9) | (b >> 7);
    }
    k
}

/// The decryption subkeys for encryption subkeys `enc`.
///
/// The 18 multiplicative inverses come from one: Montgomery's batch inversion
/// (P. L. Montgomery, "Speeding the Pollard and Elliptic Curve Methods of
/// Factorization", Math. Comp. 48, 1987, §10.3.1) inverts the product of all 18 keys
/// with [`mul_inv`] and recovers each inverse with two more products. Every IDEA
/// multiplier (0 standing for 2^16) is a unit modulo the prime 2^16+1, so no key
/// needs a special case. Each `mul_inv` is a dependent chain of divisions; one instead
/// of 18 took key setup plus one block from 940 to 610 TSC cycles on the Intel Xeon,
/// from 0.93× RustCrypto's `idea` 0.6.0 (which inverts each key) to 1.44–1.51×
/// (`cargo run --release -p speed --bin small 8 idea`, three rounds).
pub(crate) fn invert_sub_keys(enc: &[u16; LENGTH_SUB_KEYS]) -> [u16; LENGTH_SUB_KEYS] {
    let mut dec = [0u16; LENGTH_SUB_KEYS];
    let k = ROUNDS * 6;
    // The multiplicative keys in the order their inverses are written.
    let mut m = [0u16; 2 * (ROUNDS + 1)];
    for i in 0..=ROUNDS {
        m[2 * i] = enc[k - i * 6];
        m[2 * i + 1] = enc[k - i * 6 + 3];
    }
    let inv = mul_inv_all(m);
    for i in 0..=ROUNDS {
        let j = i * 6;
        let l = k - j;
        let (m, n) = if i > 0 && i < 8 { (2, 1) } else { (1, 2) };
        dec[j] = inv[2 * i];
        dec[j + 1] = enc[l + m].wrapping_neg();
        dec[j + 2] = enc[l + n].wrapping_neg();
        dec[j + 3] = inv[2 * i + 1];
    }
    let k = (ROUNDS - 1) * 6;
    for i in 0..ROUNDS {
        let j = i * 6;
        let l = k - j;
        dec[j + 4] = enc[l + 4];
        dec[j + 5] = enc[l + 5];
    }
    dec
}

/// The inverses modulo 2^16+1 of every element of `a` (0 standing for 2^16), by one
/// [`mul_inv`] of their product.
fn mul_inv_all<const N: usize>(a: [u16; N]) -> [u16; N] {
    // prefix[i] = a[0]·…·a[i]
    let mut prefix = a;
    for i in 1..N {
        prefix[i] = mul(prefix[i - 1], a[i]);
    }
    let mut out = [0u16; N];
    // `t` is the inverse of a[0]·…·a[i] at step i.
    let mut t = mul_inv(prefix[N - 1]);
    for i in (1..N).rev() {
        out[i] = mul(t, prefix[i - 1]);
        t = mul(t, a[i]);
    }
    out[0] = t;
    out
}

/// The inverse of `a` modulo 2^16+1 (0 stands for 2^16, its own inverse; 1 is its own).
fn mul_inv(a: u16) -> u16 {
    if a <= 1 {
        return a;
    }
    const MAXIM: u32 = 0x10001;
    let mut x = u32::from(a);
    let mut y = MAXIM;
    let mut t0 = 1u32;
    let mut t1 = 0u32;
    loop {
        t1 += y / x * t0;
        y %= x;
        if y == 1 {
            return (MAXIM - t1) as u16;
        }
        t0 += x / y * t1;
        x %= y;
        if x == 1 {
            return t0 as u16;
        }
    }
}

/// `a·b` modulo 2^16+1, where 0 stands for 2^16; branch-free.
///
/// For `a, b ≠ 0` the product `p = hi·2^16 + lo` is `lo − hi` modulo 2^16+1 (2^16 ≡ −1):
/// the 16-bit difference, plus 1 when it borrows (`lo < hi`; `lo = hi` is impossible).
/// When `a` or `b` is 0, `p` is 0 and so is the difference; the answer `1 − a − b` is
/// added through a mask. Written so that the compiler emits `sub` + `adc` (the borrow and
/// the fix-up in one instruction): 6 cycles from `a` to the result on x86-64, one less than
/// the usual `r − (r >> 16)` form, on the critical path of CBC encryption.
#[inline(always)]
pub(crate) fn mul(a: u16, b: u16) -> u16 {
    let p = u32::from(a) * u32::from(b);
    let (d, borrow) = (p as u16).overflowing_sub((p >> 16) as u16);
    let zero = u16::from((a == 0) | (b == 0)).wrapping_neg();
    let fix = 1u16.wrapping_sub(a).wrapping_sub(b) & zero;
    d.wrapping_add(fix).wrapping_add(u16::from(borrow))
}

/// The four big-endian words of a block.
#[inline(always)]
fn load(b: &[u8]) -> [u16; 4] {
    [
        u16::from_be_bytes([b[0], b[1]]),
        u16::from_be_bytes([b[2], b[3]]),
        u16::from_be_bytes([b[4], b[5]]),
        u16::from_be_bytes([b[6], b[7]]),
    ]
}

/// Writes four words big-endian.
#[inline(always)]
fn store(out: &mut [u8], y: [u16; 4]) {
    for (o, w) in out.chunks_exact_mut(2).zip(y) {
        o.copy_from_slice(&w.to_be_bytes());
    }
}

/// Encrypts (with encryption subkeys) or decrypts (with decryption subkeys) one block.
#[inline]
pub(crate) fn crypt(mut block: InOut<'_, '_, Blk>, k: &[u16; LENGTH_SUB_KEYS]) {
    let y = words(load(block.get_in()), k);
    store(block.get_out(), y);
}

/// CBC encryption of `request` under encryption subkeys `k`, on every backend (a chain
/// is one block at a time): the chain stays in four words in registers, so bytes are
/// converted only at the loads and stores beside it (big-endian words: the XOR that links
/// two blocks commutes with the byte order), and the loop runs no call per block.
pub(crate) fn cbc_encrypt(k: &[u16; LENGTH_SUB_KEYS], request: CbcEncrypt<'_, U8>) {
    let CbcEncrypt { iv, blocks } = request;
    let mut y = load(iv);
    for mut block in blocks {
        let p = load(block.get_in());
        y = words(core::array::from_fn(|i| y[i] ^ p[i]), k);
        store(block.get_out(), y);
    }
    store(iv, y);
}

/// One block for the SIMD backends' one-block calls (a CBC chain through another `cbc`
/// than this workspace's, which runs [`cbc_encrypt`]), passed and returned by value so
/// that it stays in a register across the call: out of line, so that their
/// `#[target_feature]` code does not recompile it. Through a pointer, as
/// [`crypt`] takes it, a 16-byte CBC encryption took 385 TSC cycles on Zen 4, against
/// 348 for `soft`'s inlined loop (`cargo run --release -p speed --bin small 16 idea`).
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
        simdcrypt_rustc = "1.89"
    )),
    allow(dead_code)
)]
#[inline(never)]
pub(crate) fn crypt_value(b: [u8; 8], k: &[u16; LENGTH_SUB_KEYS]) -> [u8; 8] {
    let mut out = [0u8; 8];
    store(&mut out, words(load(&b), k));
    out
}

/// [`crypt_value`] on an `InOut` block.
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
        simdcrypt_rustc = "1.89"
    )),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn crypt_one(mut block: InOut<'_, '_, Blk>, k: &[u16; LENGTH_SUB_KEYS]) {
    let y = crypt_value((*block.get_in()).into(), k);
    *block.get_out() = y.into();
}

/// Any number of blocks, two at a time interleaved (one block is a latency-bound chain
/// of multiplications, so a second one in flight is nearly free): the SIMD backends'
/// short calls and tails.
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"),
        simdcrypt_rustc = "1.89"
    )),
    allow(dead_code)
)]
#[inline]
pub(crate) fn crypt_blocks(mut buf: InOutBuf<'_, '_, Blk>, k: &[u16; LENGTH_SUB_KEYS]) {
    let n = buf.len();
    let mut i = 0;
    while i + 2 <= n {
        let x = [load(&buf.get_in()[i]), load(&buf.get_in()[i + 1])];
        let y = words_n::<2>(x, k);
        for (j, y) in y.into_iter().enumerate() {
            store(&mut buf.get_out()[i + j], y);
        }
        i += 2;
    }
    if i < n {
        crypt(buf.get(i), k);
    }
}

/// The portable backend handed to `cipher`'s closures: subkeys for one direction.
pub(crate) struct Backend<'a>(pub(crate) &'a [u16; LENGTH_SUB_KEYS]);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 4 blocks interleaved: one block is a chain of 3 dependent multiplications per round
/// (≈ 24 cycles), using a fraction of a core's multipliers and ALUs; four independent
/// chains fill them (16 words of state plus temporaries fit the 16 general registers of
/// x86-64 only just, so more would spill).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U4;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        crypt(block, self.0);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        crypt_par(blocks, self.0);
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        crypt(block, self.0);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        crypt_par(blocks, self.0);
    }
}

/// Four blocks, interleaved round by round.
#[inline]
fn crypt_par(mut blocks: InOut<'_, '_, ParBlocks<Backend<'_>>>, k: &[u16; LENGTH_SUB_KEYS]) {
    let inp = blocks.get_in();
    let x: [[u16; 4]; 4] = core::array::from_fn(|j| load(&inp[j]));
    let y = words_n(x, k);
    for (b, y) in blocks.get_out().iter_mut().zip(y) {
        store(b, y);
    }
}

/// The cipher on `N` blocks of four 16-bit words, the blocks interleaved.
#[inline(always)]
fn words_n<const N: usize>(x: [[u16; 4]; N], k: &[u16; LENGTH_SUB_KEYS]) -> [[u16; 4]; N] {
    let mut x = x;
    for r in k[..48].chunks_exact(6) {
        for x in x.iter_mut() {
            let [x1, x2, x3, x4] = *x;
            let y1 = mul(x1, r[0]);
            let y2 = x2.wrapping_add(r[1]);
            let y3 = x3.wrapping_add(r[2]);
            let y4 = mul(x4, r[3]);
            let t0 = mul(y1 ^ y3, r[4]);
            let t1 = mul((y2 ^ y4).wrapping_add(t0), r[5]);
            let t2 = t0.wrapping_add(t1);
            *x = [y1 ^ t1, y3 ^ t1, y2 ^ t2, y4 ^ t2];
        }
    }
    x.map(|[x1, x2, x3, x4]| {
        [
            mul(x1, k[48]),
            x3.wrapping_add(k[49]),
            x2.wrapping_add(k[50]),
            mul(x4, k[51]),
        ]
    })
}

/// The cipher on four 16-bit words.
#[inline(always)]
pub(crate) fn words(x: [u16; 4], k: &[u16; LENGTH_SUB_KEYS]) -> [u16; 4] {
    let [mut x1, mut x2, mut x3, mut x4] = x;
    for r in k[..48].chunks_exact(6) {
        let y1 = mul(x1, r[0]);
        let y2 = x2.wrapping_add(r[1]);
        let y3 = x3.wrapping_add(r[2]);
        let y4 = mul(x4, r[3]);
        let t0 = mul(y1 ^ y3, r[4]);
        let t1 = mul((y2 ^ y4).wrapping_add(t0), r[5]);
        let t2 = t0.wrapping_add(t1);
        x1 = y1 ^ t1;
        x2 = y3 ^ t1;
        x3 = y2 ^ t2;
        x4 = y4 ^ t2;
    }
    [
        mul(x1, k[48]),
        x3.wrapping_add(k[49]),
        x2.wrapping_add(k[50]),
        mul(x4, k[51]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `mul` against the definition, over all operand pairs on a grid and the edges.
    #[test]
    fn mul_matches_definition() {
        let reference = |a: u16, b: u16| {
            let a = if a == 0 { 0x10000u64 } else { u64::from(a) };
            let b = if b == 0 { 0x10000u64 } else { u64::from(b) };
            ((a * b) % 0x10001) as u16 // 0x10000 truncates to 0
        };
        let edges = [0u16, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff];
        for &a in &edges {
            for b in 0..=u16::MAX {
                assert_eq!(mul(a, b), reference(a, b), "{a} {b}");
                assert_eq!(mul(b, a), reference(b, a), "{b} {a}");
            }
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..2_000_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (a, b) = (x as u16, (x >> 16) as u16);
            assert_eq!(mul(a, b), reference(a, b), "{a} {b}");
        }
    }

    #[test]
    fn mul_inv_all_inverts_each() {
        let mut x = 0x1234_5678u32;
        for n in 0..200u32 {
            let mut a = [0u16; 18];
            for v in a.iter_mut() {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *v = x as u16;
            }
            // The edge values somewhere in the batch: 0 (2^16), 1 and 2^16 - 1.
            a[n as usize % 18] = [0, 1, u16::MAX][n as usize % 3];
            let inv = mul_inv_all(a);
            for (a, inv) in a.iter().zip(inv) {
                assert_eq!(inv, mul_inv(*a), "{a}");
            }
        }
        assert_eq!(mul_inv_all([0u16; 18]), [0u16; 18]);
        assert_eq!(mul_inv_all([1u16; 18]), [1u16; 18]);
    }

    #[test]
    fn mul_inv_inverts() {
        for a in 0..=u16::MAX {
            assert_eq!(mul(a, mul_inv(a)), 1, "{a}");
        }
    }

    #[test]
    fn soft_matches_soft() {
        // The in-process harness with `soft` against RustCrypto's `idea` 0.6.0.
        crate::backends::check_matches_soft("soft", 1);
    }
}
