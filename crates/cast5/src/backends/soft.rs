//! Portable CAST5: one block at a time for chained modes, and four blocks interleaved
//! for everything that can run blocks in parallel (ECB, CTR, CBC decryption), so the
//! latency of one block's S-box look-ups overlaps the others'.
//!
//! Table-based: the S-box look-ups use secret-dependent addresses (not constant time).

#![forbid(unsafe_code)]

use super::B8;
use crate::consts::{S1, S2, S3, S4, S5, S6, S7, S8};
use simdcrypt_dispatch::modes::CbcEncrypt;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U4, U8},
    inout::{InOut, InOutBuf},
};

/// A CAST5 key schedule: masking keys `km`, rotation counts `kr` (0..32) and the
/// number of rounds (12 for keys of 80 bits or less, else 16; RFC 2144 §2.5).
#[derive(Clone)]
pub(crate) struct Keys {
    pub(crate) km: [u32; 16],
    pub(crate) kr: [u32; 16],
    /// `(kr + 16) mod 32`: the rotation of the one-block path's index layout ([`idx1`]).
    pub(crate) kr16: [u32; 16],
    pub(crate) rounds: usize,
}

macro_rules! get_i {
    ($x:expr, $i:expr) => {
        (($x[($i) / 4] >> (8 * (3 - (($i) % 4)))) & 0xff) as usize
    };
}

/// One pass of the RFC 2144 §2.4 key schedule: 16 subkeys from `x`, which it updates.
///
/// Not inlined: one copy of this long chain of look-ups is faster than two inlined copies
/// (register pressure; measured).
#[inline(never)]
fn schedule_pass(x: &mut [u32; 4], z: &mut [u32; 4], k: &mut [u32; 16]) {
    z[0] = (x[0] ^ S7[get_i!(x, 8)])
        ^ ((S5[get_i!(x, 13)] ^ S6[get_i!(x, 15)]) ^ (S7[get_i!(x, 12)] ^ S8[get_i!(x, 14)]));
    z[1] = (x[2] ^ S8[get_i!(x, 10)])
        ^ ((S5[get_i!(z, 0)] ^ S6[get_i!(z, 2)]) ^ (S7[get_i!(z, 1)] ^ S8[get_i!(z, 3)]));
    z[2] = (x[3] ^ S5[get_i!(x, 9)])
        ^ ((S5[get_i!(z, 7)] ^ S6[get_i!(z, 6)]) ^ (S7[get_i!(z, 5)] ^ S8[get_i!(z, 4)]));
    z[3] = (x[1] ^ S6[get_i!(x, 11)])
        ^ ((S5[get_i!(z, 10)] ^ S6[get_i!(z, 9)]) ^ (S7[get_i!(z, 11)] ^ S8[get_i!(z, 8)]));
    k[0] = S5[get_i!(z, 8)]
        ^ S6[get_i!(z, 9)]
        ^ S7[get_i!(z, 7)]
        ^ S8[get_i!(z, 6)]
        ^ S5[get_i!(z, 2)];
    k[1] = S5[get_i!(z, 10)]
        ^ S6[get_i!(z, 11)]
        ^ S7[get_i!(z, 5)]
        ^ S8[get_i!(z, 4)]
        ^ S6[get_i!(z, 6)];
    k[2] = S5[get_i!(z, 12)]
        ^ S6[get_i!(z, 13)]
        ^ S7[get_i!(z, 3)]
        ^ S8[get_i!(z, 2)]
        ^ S7[get_i!(z, 9)];
    k[3] = S5[get_i!(z, 14)]
        ^ S6[get_i!(z, 15)]
        ^ S7[get_i!(z, 1)]
        ^ S8[get_i!(z, 0)]
        ^ S8[get_i!(z, 12)];

    x[0] = (z[2] ^ S7[get_i!(z, 0)])
        ^ ((S5[get_i!(z, 5)] ^ S6[get_i!(z, 7)]) ^ (S7[get_i!(z, 4)] ^ S8[get_i!(z, 6)]));
    x[1] = (z[0] ^ S8[get_i!(z, 2)])
        ^ ((S5[get_i!(x, 0)] ^ S6[get_i!(x, 2)]) ^ (S7[get_i!(x, 1)] ^ S8[get_i!(x, 3)]));
    x[2] = (z[1] ^ S5[get_i!(z, 1)])
        ^ ((S5[get_i!(x, 7)] ^ S6[get_i!(x, 6)]) ^ (S7[get_i!(x, 5)] ^ S8[get_i!(x, 4)]));
    x[3] = (z[3] ^ S6[get_i!(z, 3)])
        ^ ((S5[get_i!(x, 10)] ^ S6[get_i!(x, 9)]) ^ (S7[get_i!(x, 11)] ^ S8[get_i!(x, 8)]));
    k[4] = S5[get_i!(x, 3)]
        ^ S6[get_i!(x, 2)]
        ^ S7[get_i!(x, 12)]
        ^ S8[get_i!(x, 13)]
        ^ S5[get_i!(x, 8)];
    k[5] = S5[get_i!(x, 1)]
        ^ S6[get_i!(x, 0)]
        ^ S7[get_i!(x, 14)]
        ^ S8[get_i!(x, 15)]
        ^ S6[get_i!(x, 13)];
    k[6] = S5[get_i!(x, 7)]
        ^ S6[get_i!(x, 6)]
        ^ S7[get_i!(x, 8)]
        ^ S8[get_i!(x, 9)]
        ^ S7[get_i!(x, 3)];
    k[7] = S5[get_i!(x, 5)]
        ^ S6[get_i!(x, 4)]
        ^ S7[get_i!(x, 10)]
        ^ S8[get_i!(x, 11)]
        ^ S8[get_i!(x, 7)];

    z[0] = (x[0] ^ S7[get_i!(x, 8)])
        ^ ((S5[get_i!(x, 13)] ^ S6[get_i!(x, 15)]) ^ (S7[get_i!(x, 12)] ^ S8[get_i!(x, 14)]));
    z[1] = (x[2] ^ S8[get_i!(x, 10)])
        ^ ((S5[get_i!(z, 0)] ^ S6[get_i!(z, 2)]) ^ (S7[get_i!(z, 1)] ^ S8[get_i!(z, 3)]));
    z[2] = (x[3] ^ S5[get_i!(x, 9)])
        ^ ((S5[get_i!(z, 7)] ^ S6[get_i!(z, 6)]) ^ (S7[get_i!(z, 5)] ^ S8[get_i!(z, 4)]));
    z[3] = (x[1] ^ S6[get_i!(x, 11)])
        ^ ((S5[get_i!(z, 10)] ^ S6[get_i!(z, 9)]) ^ (S7[get_i!(z, 11)] ^ S8[get_i!(z, 8)]));
    k[8] = S5[get_i!(z, 3)]
        ^ S6[get_i!(z, 2)]
        ^ S7[get_i!(z, 12)]
        ^ S8[get_i!(z, 13)]
        ^ S5[get_i!(z, 9)];
    k[9] = S5[get_i!(z, 1)]
        ^ S6[get_i!(z, 0)]
        ^ S7[get_i!(z, 14)]
        ^ S8[get_i!(z, 15)]
        ^ S6[get_i!(z, 12)];
    k[10] = S5[get_i!(z, 7)]
        ^ S6[get_i!(z, 6)]
        ^ S7[get_i!(z, 8)]
        ^ S8[get_i!(z, 9)]
        ^ S7[get_i!(z, 2)];
    k[11] = S5[get_i!(z, 5)]
        ^ S6[get_i!(z, 4)]
        ^ S7[get_i!(z, 10)]
        ^ S8[get_i!(z, 11)]
        ^ S8[get_i!(z, 6)];

    x[0] = (z[2] ^ S7[get_i!(z, 0)])
        ^ ((S5[get_i!(z, 5)] ^ S6[get_i!(z, 7)]) ^ (S7[get_i!(z, 4)] ^ S8[get_i!(z, 6)]));
    x[1] = (z[0] ^ S8[get_i!(z, 2)])
        ^ ((S5[get_i!(x, 0)] ^ S6[get_i!(x, 2)]) ^ (S7[get_i!(x, 1)] ^ S8[get_i!(x, 3)]));
    x[2] = (z[1] ^ S5[get_i!(z, 1)])
        ^ ((S5[get_i!(x, 7)] ^ S6[get_i!(x, 6)]) ^ (S7[get_i!(x, 5)] ^ S8[get_i!(x, 4)]));
    x[3] = (z[3] ^ S6[get_i!(z, 3)])
        ^ ((S5[get_i!(x, 10)] ^ S6[get_i!(x, 9)]) ^ (S7[get_i!(x, 11)] ^ S8[get_i!(x, 8)]));
    k[12] = S5[get_i!(x, 8)]
        ^ S6[get_i!(x, 9)]
        ^ S7[get_i!(x, 7)]
        ^ S8[get_i!(x, 6)]
        ^ S5[get_i!(x, 3)];
    k[13] = S5[get_i!(x, 10)]
        ^ S6[get_i!(x, 11)]
        ^ S7[get_i!(x, 5)]
        ^ S8[get_i!(x, 4)]
        ^ S6[get_i!(x, 7)];
    k[14] = S5[get_i!(x, 12)]
        ^ S6[get_i!(x, 13)]
        ^ S7[get_i!(x, 3)]
        ^ S8[get_i!(x, 2)]
        ^ S7[get_i!(x, 8)];
    k[15] = S5[get_i!(x, 14)]
        ^ S6[get_i!(x, 15)]
        ^ S7[get_i!(x, 1)]
        ^ S8[get_i!(x, 0)]
        ^ S8[get_i!(x, 13)];
}

impl Keys {
    /// The key schedule of a 5..=16-byte key (shorter keys are zero-padded to 16 bytes).
    pub(crate) fn new(key: &[u8]) -> Self {
        debug_assert!((5..=16).contains(&key.len()));
        let mut padded = [0u8; 16];
        match <[u8; 16]>::try_from(key) {
            Ok(k) => padded = k,
            // Keys shorter than 128 bits are padded with zeros (RFC 2144 §2.5).
            Err(_) => padded[..key.len()].copy_from_slice(key),
        }
        let mut x: [u32; 4] = core::array::from_fn(|i| {
            u32::from_be_bytes(padded[4 * i..4 * i + 4].try_into().unwrap())
        });
        let mut z = [0u32; 4];
        let mut km = [0u32; 16];
        let mut k2 = [0u32; 16];
        schedule_pass(&mut x, &mut z, &mut km);
        schedule_pass(&mut x, &mut z, &mut k2);
        let kr = k2.map(|k| k & 0x1f);
        let kr16 = k2.map(|k| (k + 16) & 0x1f);
        #[cfg(feature = "zeroize")]
        {
            use cipher::zeroize::Zeroize;
            padded.zeroize();
            x.zeroize();
            z.zeroize();
            k2.zeroize();
        }
        Keys {
            km,
            kr,
            kr16,
            rounds: if key.len() <= 10 { 12 } else { 16 },
        }
    }

    /// Overwrites the key material with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        use cipher::zeroize::Zeroize;
        self.km.zeroize();
        self.kr.zeroize();
        self.kr16.zeroize();
        self.rounds.zeroize();
    }
}

#[inline(always)]
fn sb(t: &[u32; 256], i: u32) -> u32 {
    t[(i & 0xff) as usize]
}

/// The four S-box indices of `t` rotated left by `kr`: `(S1, S2, S3, S4)` from its bytes
/// 3, 2, 1, 0.
#[inline(always)]
fn idx(t: u32, kr: u32) -> (u32, u32, u32, u32) {
    let i = t.rotate_left(kr);
    (i >> 24, i >> 16, i >> 8, i)
}

/// As [`idx`], for the one-block latency path (OpenSSL's arrangement): `t` is rotated by
/// `kr16 = kr + 16` instead, which moves S1's byte to bits 8..16 and S2's to bits 0..8
/// (one `movzx` each from the low byte registers), S3's to the top (one shift) and S4's
/// to bits 16..24 — the one index that takes two instructions, for the S-box combined
/// last.
#[inline(always)]
fn idx1(t: u32, kr16: u32) -> (u32, u32, u32, u32) {
    let i = t.rotate_left(kr16);
    (i >> 8, i, i >> 24, i >> 16)
}

/// [`idx1`] for the one-block path (`ONE`), else [`idx`].
#[inline(always)]
fn pick<const ONE: bool>(t: u32, kr: u32, kr16: u32) -> (u32, u32, u32, u32) {
    if ONE { idx1(t, kr16) } else { idx(t, kr) }
}

/// Round function type 1: `((S1 ^ S2) - S3) + S4`.
#[inline(always)]
fn f1<const ONE: bool>(d: u32, km: u32, kr: u32, kr16: u32) -> u32 {
    let (a, b, c, e) = pick::<ONE>(km.wrapping_add(d), kr, kr16);
    if ONE {
        // In order, so the late S4 comes last.
        (sb(&S1, a) ^ sb(&S2, b))
            .wrapping_sub(sb(&S3, c))
            .wrapping_add(sb(&S4, e))
    } else {
        (sb(&S1, a) ^ sb(&S2, b)).wrapping_add(sb(&S4, e).wrapping_sub(sb(&S3, c)))
    }
}

/// Round function type 2: `((S1 - S2) + S3) ^ S4`.
#[inline(always)]
fn f2<const ONE: bool>(d: u32, km: u32, kr: u32, kr16: u32) -> u32 {
    let (a, b, c, e) = pick::<ONE>(km ^ d, kr, kr16);
    if ONE {
        sb(&S1, a).wrapping_sub(sb(&S2, b)).wrapping_add(sb(&S3, c)) ^ sb(&S4, e)
    } else {
        sb(&S1, a).wrapping_add(sb(&S3, c).wrapping_sub(sb(&S2, b))) ^ sb(&S4, e)
    }
}

/// Round function type 3: `((S1 + S2) ^ S3) - S4`.
#[inline(always)]
fn f3<const ONE: bool>(d: u32, km: u32, kr: u32, kr16: u32) -> u32 {
    let (a, b, c, e) = pick::<ONE>(km.wrapping_sub(d), kr, kr16);
    (sb(&S1, a).wrapping_add(sb(&S2, b)) ^ sb(&S3, c)).wrapping_sub(sb(&S4, e))
}

/// Round `r` (0-based) on `N` blocks: `(l, r) <- (r, l ^ f(r))`, `f` of type `r % 3 + 1`.
#[inline(always)]
fn round<const N: usize>(k: &Keys, n: usize, l: &mut [u32; N], r: &mut [u32; N]) {
    let (km, kr, kr16) = (k.km[n], k.kr[n], k.kr16[n]);
    for j in 0..N {
        let f = match n % 3 {
            0 => f1::<false>(r[j], km, kr, kr16),
            1 => f2::<false>(r[j], km, kr, kr16),
            _ => f3::<false>(r[j], km, kr, kr16),
        };
        let t = l[j] ^ f;
        l[j] = r[j];
        r[j] = t;
    }
}

/// One block, encryption, latency-tuned (CBC encryption and single blocks run this
/// chain back to back): a type-1 round's output `R' = L ^ F` feeds the next (type-2)
/// round as `Km ^ R' = (Km ^ L) ^ F`, where `Km ^ L` is ready early.
#[inline(always)]
fn enc1(k: &Keys, l: u32, r: u32) -> (u32, u32) {
    /// Rounds n, n+1, n+2 (types 1, 2, 3).
    #[inline(always)]
    fn three(k: &Keys, n: usize, l: u32, r: u32) -> (u32, u32) {
        let f = f1::<true>(r, k.km[n], k.kr[n], k.kr16[n]);
        let r1 = l ^ f;
        // Round n+1 (type 2): its input is L ^ F, its Km applied to L before F arrives.
        let t = (k.km[n + 1] ^ l) ^ f;
        let r2 = r ^ f2::<true>(t, 0, k.kr[n + 1], k.kr16[n + 1]);
        // Round n+2 (type 3).
        let r3 = r1 ^ f3::<true>(r2, k.km[n + 2], k.kr[n + 2], k.kr16[n + 2]);
        (r2, r3)
    }
    let (l, r) = three(k, 0, l, r);
    let (l, r) = three(k, 3, l, r);
    let (l, r) = three(k, 6, l, r);
    let (l, r) = three(k, 9, l, r);
    if k.rounds == 16 {
        let (l, r) = three(k, 12, l, r);
        let r1 = l ^ f1::<true>(r, k.km[15], k.kr[15], k.kr16[15]);
        (r1, r)
    } else {
        (r, l)
    }
}

/// Encrypts `N` blocks given as big-endian halves; returns them as `(L, R)` of the output.
#[inline(always)]
pub(crate) fn enc_n<const N: usize>(
    k: &Keys,
    mut l: [u32; N],
    mut r: [u32; N],
) -> ([u32; N], [u32; N]) {
    round(k, 0, &mut l, &mut r);
    round(k, 1, &mut l, &mut r);
    round(k, 2, &mut l, &mut r);
    round(k, 3, &mut l, &mut r);
    round(k, 4, &mut l, &mut r);
    round(k, 5, &mut l, &mut r);
    round(k, 6, &mut l, &mut r);
    round(k, 7, &mut l, &mut r);
    round(k, 8, &mut l, &mut r);
    round(k, 9, &mut l, &mut r);
    round(k, 10, &mut l, &mut r);
    round(k, 11, &mut l, &mut r);
    if k.rounds == 16 {
        round(k, 12, &mut l, &mut r);
        round(k, 13, &mut l, &mut r);
        round(k, 14, &mut l, &mut r);
        round(k, 15, &mut l, &mut r);
    }
    (r, l)
}

/// Decrypts `N` blocks given as big-endian halves; returns them as `(L, R)` of the output.
#[inline(always)]
pub(crate) fn dec_n<const N: usize>(
    k: &Keys,
    mut l: [u32; N],
    mut r: [u32; N],
) -> ([u32; N], [u32; N]) {
    if k.rounds == 16 {
        round(k, 15, &mut l, &mut r);
        round(k, 14, &mut l, &mut r);
        round(k, 13, &mut l, &mut r);
        round(k, 12, &mut l, &mut r);
    }
    round(k, 11, &mut l, &mut r);
    round(k, 10, &mut l, &mut r);
    round(k, 9, &mut l, &mut r);
    round(k, 8, &mut l, &mut r);
    round(k, 7, &mut l, &mut r);
    round(k, 6, &mut l, &mut r);
    round(k, 5, &mut l, &mut r);
    round(k, 4, &mut l, &mut r);
    round(k, 3, &mut l, &mut r);
    round(k, 2, &mut l, &mut r);
    round(k, 1, &mut l, &mut r);
    round(k, 0, &mut l, &mut r);
    (r, l)
}

/// Runs `N` blocks of `blocks` through `enc_n`/`dec_n`.
#[inline(always)]
fn run_n<const N: usize>(k: &Keys, mut blocks: InOutBuf<'_, '_, B8>, enc: bool) {
    debug_assert_eq!(blocks.len(), N);
    let (l, r) = {
        let inp = blocks.get_in();
        let l: [u32; N] =
            core::array::from_fn(|j| u32::from_be_bytes(inp[j][0..4].try_into().unwrap()));
        let r: [u32; N] =
            core::array::from_fn(|j| u32::from_be_bytes(inp[j][4..8].try_into().unwrap()));
        (l, r)
    };
    let (l, r) = if enc { enc_n(k, l, r) } else { dec_n(k, l, r) };
    let out = blocks.get_out();
    for j in 0..N {
        out[j][0..4].copy_from_slice(&l[j].to_be_bytes());
        out[j][4..8].copy_from_slice(&r[j].to_be_bytes());
    }
}

/// One block.
#[inline(always)]
pub(crate) fn run_one(k: &Keys, mut block: InOut<'_, '_, B8>, enc: bool) {
    let b = block.get_in();
    let l = u32::from_be_bytes(b[0..4].try_into().unwrap());
    let r = u32::from_be_bytes(b[4..8].try_into().unwrap());
    let (l, r) = if enc {
        enc1(k, l, r)
    } else {
        let ([l], [r]) = dec_n(k, [l], [r]);
        (l, r)
    };
    let out = block.get_out();
    out[0..4].copy_from_slice(&l.to_be_bytes());
    out[4..8].copy_from_slice(&r.to_be_bytes());
}

/// CBC encryption (`cbc`'s request, see `simdcrypt_dispatch::modes`) with the chain in
/// two words in registers: `C_i = E(P_i ^ C_{i-1})`. The one-block path carried the
/// chain as the 8 ciphertext bytes, with byte swaps and a split and join of the two
/// halves on it.
pub(crate) fn cbc_encrypt(k: &Keys, request: CbcEncrypt<'_, U8>) {
    let CbcEncrypt { iv, blocks } = request;
    let word = |b: &[u8], at: usize| u32::from_be_bytes(b[at..at + 4].try_into().unwrap());
    let mut c = (word(iv, 0), word(iv, 4));
    for mut block in blocks {
        let p = block.get_in();
        c = enc1(k, c.0 ^ word(p, 0), c.1 ^ word(p, 4));
        let out = block.get_out();
        out[0..4].copy_from_slice(&c.0.to_be_bytes());
        out[4..8].copy_from_slice(&c.1.to_be_bytes());
    }
    iv[0..4].copy_from_slice(&c.0.to_be_bytes());
    iv[4..8].copy_from_slice(&c.1.to_be_bytes());
}

/// Any number of blocks: four at a time, then two, then one.
#[inline(always)]
pub(crate) fn run_blocks(k: &Keys, mut buf: InOutBuf<'_, '_, B8>, enc: bool) {
    while buf.len() >= 4 {
        let (head, tail) = buf.split_at(4);
        run_n::<4>(k, head, enc);
        buf = tail;
    }
    if buf.len() >= 2 {
        let (head, tail) = buf.split_at(2);
        run_n::<2>(k, head, enc);
        buf = tail;
    }
    if buf.len() == 1 {
        run_n::<1>(k, buf, enc);
    }
}

/// The interleaved backend handed to `cipher`'s closures.
struct Par<'a>(&'a Keys);

impl BlockSizeUser for Par<'_> {
    type BlockSize = U8;
}

/// Four blocks: each round is a chain of about ten dependent operations (add, rotate,
/// byte extraction, four loads, three combining operations, xor) with ~12 cycles of
/// latency, which four independent blocks fill; 8 state words plus 4 temporaries fit the
/// 16 general registers of x86-64 (more blocks would spill).
impl ParBlocksSizeUser for Par<'_> {
    type ParBlocksSize = U4;
}

impl BlockCipherEncBackend for Par<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, B8>) {
        run_one(self.0, block, true)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        run_n::<4>(self.0, blocks.into_buf(), true)
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, B8>) {
        run_blocks(self.0, blocks, true)
    }
}

impl BlockCipherDecBackend for Par<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, B8>) {
        run_one(self.0, block, false)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        run_n::<4>(self.0, blocks.into_buf(), false)
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, B8>) {
        run_blocks(self.0, blocks, false)
    }
}

/// Runs `f` with the interleaved portable encryption backend.
#[inline]
pub(crate) fn encrypt(k: &Keys, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Par(k))
}

/// Runs `f` with the interleaved portable decryption backend.
#[inline]
pub(crate) fn decrypt(k: &Keys, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Par(k))
}

#[cfg(test)]
mod tests {
    /// `soft` against RustCrypto's cast5 0.12.0, every key length, tail lengths around 4
    /// blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft", 4);
    }
}
