//! Portable Blowfish: the key schedules (every backend uses them, and the bcrypt functions
//! run them), one block at a time, and four blocks interleaved.
//!
//! One block is a chain of 16 dependent S-box look-ups-and-adds, so a single block is
//! bound by load latency (about 10 cycles a round); four independent blocks in flight
//! fill that latency with the other blocks' work and make it throughput-bound.
//!
//! Not constant-time: the S-box look-ups are indexed by secret data (see the crate docs).

#![forbid(unsafe_code)]

use crate::consts;
use simdcrypt_dispatch::modes::CbcEncrypt;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::{U4, U8},
    inout::{InOut, InOutBuf},
};

/// A 64-bit block.
type Block = Array<u8, U8>;

/// Blowfish's key-dependent state: the four S-boxes and the P-array.
#[derive(Clone)]
pub(crate) struct State {
    /// The four S-boxes, 256 words each.
    pub(crate) s: [[u32; 256]; 4],
    /// The P-array: 18 subkeys.
    pub(crate) p: [u32; 18],
}

/// The round function F.
#[inline(always)]
fn f(s: &[[u32; 256]; 4], x: u32) -> u32 {
    let a = s[0][(x >> 24) as usize];
    let b = s[1][(x >> 16) as u8 as usize];
    let c = s[2][(x >> 8) as u8 as usize];
    let d = s[3][x as u8 as usize];
    (a.wrapping_add(b) ^ c).wrapping_add(d)
}

/// The `k`-th subkey in encryption order (`DEC`: reversed for decryption).
#[inline(always)]
fn pk<const DEC: bool>(p: &[u32; 18], k: usize) -> u32 {
    if DEC { p[17 - k] } else { p[k] }
}

/// One block: `[l, r]` in, `[r, l]` of the last round out (as RustCrypto's `blowfish`).
///
/// Each half-round is `y = (y ^ P[k]) ^ F(x)`: the subkey is XORed in off the critical
/// path, so the dependency chain is only F and one XOR.
#[inline(always)]
fn crypt<const DEC: bool>(s: &[[u32; 256]; 4], p: &[u32; 18], [l, r]: [u32; 2]) -> [u32; 2] {
    let [r, l] = rounds::<DEC>(s, p, [l ^ pk::<DEC>(p, 0), r]);
    [r ^ pk::<DEC>(p, 17), l]
}

/// The sixteen rounds of [`crypt`], without its first and last subkey XORs (so that a
/// chain can fold them into the XOR that links two blocks: [`cbc_encrypt`]).
#[inline(always)]
fn rounds<const DEC: bool>(
    s: &[[u32; 256]; 4],
    p: &[u32; 18],
    [mut l, mut r]: [u32; 2],
) -> [u32; 2] {
    let mut k = 1;
    while k < 17 {
        r = (r ^ pk::<DEC>(p, k)) ^ f(s, l);
        l = (l ^ pk::<DEC>(p, k + 1)) ^ f(s, r);
        k += 2;
    }
    [r, l]
}

/// `N` blocks interleaved round by round.
#[inline(always)]
fn crypt_n<const DEC: bool, const N: usize>(
    s: &[[u32; 256]; 4],
    p: &[u32; 18],
    mut l: [u32; N],
    mut r: [u32; N],
) -> ([u32; N], [u32; N]) {
    let p0 = pk::<DEC>(p, 0);
    l.iter_mut().for_each(|x| *x ^= p0);
    let mut k = 1;
    while k < 17 {
        let (pa, pb) = (pk::<DEC>(p, k), pk::<DEC>(p, k + 1));
        for i in 0..N {
            r[i] = (r[i] ^ pa) ^ f(s, l[i]);
        }
        for i in 0..N {
            l[i] = (l[i] ^ pb) ^ f(s, r[i]);
        }
        k += 2;
    }
    let p17 = pk::<DEC>(p, 17);
    r.iter_mut().for_each(|x| *x ^= p17);
    (r, l)
}

/// The next 32-bit word of `buf` read cyclically from `*pos` (big-endian, wrapping).
///
/// # Panics
/// If `buf` is empty (as RustCrypto's `blowfish`).
#[inline(always)]
fn next_u32_wrap(buf: &[u8], pos: &mut usize) -> u32 {
    let mut v = 0;
    for _ in 0..4 {
        if *pos >= buf.len() {
            *pos = 0;
        }
        v = (v << 8) | buf[*pos] as u32;
        *pos += 1;
    }
    v
}

impl State {
    /// The initial state (digits of pi).
    #[inline]
    pub(crate) fn init() -> Self {
        Self {
            s: consts::S,
            p: consts::P,
        }
    }

    /// One block, words in, words out (`[l, r]` → `[r, l]`; `bc_encrypt`).
    #[cfg_attr(not(feature = "bcrypt"), allow(dead_code))]
    #[inline]
    pub(crate) fn encrypt(&self, lr: [u32; 2]) -> [u32; 2] {
        crypt::<false>(&self.s, &self.p, lr)
    }

    /// XORs the key into the P-array, cyclically.
    #[inline(always)]
    fn xor_key(&mut self, key: &[u8]) {
        // `% 4 == 0`, not `is_multiple_of` (Rust 1.87): the crate builds with 1.85.
        if key.len() % 4 == 0 || key.len() >= 72 {
            // Whole words: no word straddles the wrap point.
            let mut pos = 0;
            for p in self.p.iter_mut() {
                if pos + 4 > key.len() {
                    pos = 0;
                }
                *p ^= u32::from_be_bytes([key[pos], key[pos + 1], key[pos + 2], key[pos + 3]]);
                pos += 4;
            }
        } else {
            let mut pos = 0;
            for p in self.p.iter_mut() {
                *p ^= next_u32_wrap(key, &mut pos);
            }
        }
    }

    /// The Blowfish key schedule on the current state (also `bc_expand_key`).
    ///
    /// 521 dependent encryptions: latency-bound, so the block function is the one-block
    /// code with the subkey XOR off the critical path, fully unrolled, and the state is
    /// borrowed once (S-box reads see the S-box writes of the previous encryptions).
    pub(crate) fn expand_key(&mut self, key: &[u8]) {
        self.xor_key(key);
        let mut lr = [0u32; 2];
        for i in 0..9 {
            lr = crypt::<false>(&self.s, &self.p, lr);
            self.p[2 * i] = lr[0];
            self.p[2 * i + 1] = lr[1];
        }
        let p = self.p;
        for i in 0..4 {
            for j in 0..128 {
                lr = crypt::<false>(&self.s, &p, lr);
                self.s[i][2 * j] = lr[0];
                self.s[i][2 * j + 1] = lr[1];
            }
        }
    }

    /// bcrypt's salted key schedule (EksBlowfishSetup's `ExpandKey(state, salt, key)`).
    #[cfg_attr(not(feature = "bcrypt"), allow(dead_code))]
    pub(crate) fn salted_expand_key(&mut self, salt: &[u8], key: &[u8]) {
        self.xor_key(key);
        let mut lr = [0u32; 2];
        let mut salt_pos = 0;
        for i in 0..9 {
            lr[0] ^= next_u32_wrap(salt, &mut salt_pos);
            lr[1] ^= next_u32_wrap(salt, &mut salt_pos);
            lr = crypt::<false>(&self.s, &self.p, lr);
            self.p[2 * i] = lr[0];
            self.p[2 * i + 1] = lr[1];
        }
        let p = self.p;
        for i in 0..4 {
            for j in 0..128 {
                lr[0] ^= next_u32_wrap(salt, &mut salt_pos);
                lr[1] ^= next_u32_wrap(salt, &mut salt_pos);
                lr = crypt::<false>(&self.s, &p, lr);
                self.s[i][2 * j] = lr[0];
                self.s[i][2 * j + 1] = lr[1];
            }
        }
    }

    /// Overwrites the state with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        use cipher::zeroize::Zeroize;
        self.s.zeroize();
        self.p.zeroize();
    }
}

/// The two words of a block in the byte order `LE` (little-endian) or big-endian.
///
/// One 8-byte load: the block is often the one just stored by the previous step of a
/// chained mode (CBC encryption), and one wide store followed by one wide load forwards
/// cheaply where byte or half-word pieces do not.
#[inline(always)]
pub(crate) fn load<const LE: bool>(b: &[u8]) -> [u32; 2] {
    let x: [u8; 8] = b[..8].try_into().expect("8-byte block");
    if LE {
        let v = u64::from_le_bytes(x);
        [v as u32, (v >> 32) as u32]
    } else {
        let v = u64::from_be_bytes(x);
        [(v >> 32) as u32, v as u32]
    }
}

/// Writes two words as a block in the byte order `LE` or big-endian (one 8-byte store).
#[inline(always)]
pub(crate) fn store<const LE: bool>(b: &mut [u8], [x, y]: [u32; 2]) {
    let v = if LE {
        (u64::from(y) << 32 | u64::from(x)).to_le_bytes()
    } else {
        (u64::from(x) << 32 | u64::from(y)).to_be_bytes()
    };
    b[..8].copy_from_slice(&v);
}

/// One block through the state, bytes in and out.
#[inline(always)]
pub(crate) fn one<const LE: bool, const DEC: bool>(st: &State, mut block: InOut<'_, '_, Block>) {
    let x = load::<LE>(block.get_in());
    let y = crypt::<DEC>(&st.s, &st.p, x);
    store::<LE>(block.get_out(), y);
}

/// CBC encryption (`cbc`'s request, see `simdcrypt_dispatch::modes`) with the chain in
/// two words in registers: `C_i = E(P_i ^ C_{i-1})`.
///
/// The one-block path carried the chain as the 8 ciphertext bytes, so each block put a
/// byte swap, a rotate and a split in front of the rounds and a join and a byte swap
/// after them, all on the chain. Here the chain carries the rounds' output `y` before
/// the last subkey XOR, and one XOR links two blocks: the next input is
/// `y ^ (P ^ [P17 ^ P0, 0])`, the bracket formed off the chain; `C = y ^ [P17, 0]` is
/// stored beside it.
pub(crate) fn cbc_encrypt<const LE: bool>(st: &State, request: CbcEncrypt<'_, U8>) {
    let CbcEncrypt { iv, blocks } = request;
    let (first, last) = (st.p[0], st.p[17]);
    let c = load::<LE>(iv);
    let mut y = [c[0] ^ last, c[1]];
    for mut block in blocks {
        let p = load::<LE>(block.get_in());
        let link = [p[0] ^ first ^ last, p[1]];
        y = rounds::<false>(&st.s, &st.p, [y[0] ^ link[0], y[1] ^ link[1]]);
        store::<LE>(block.get_out(), [y[0] ^ last, y[1]]);
    }
    store::<LE>(iv, [y[0] ^ last, y[1]]);
}

/// `N` blocks of `buf` starting at block `at`, interleaved.
#[inline(always)]
fn run_n<const LE: bool, const DEC: bool, const N: usize>(
    st: &State,
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
) {
    let mut l = [0u32; N];
    let mut r = [0u32; N];
    for i in 0..N {
        [l[i], r[i]] = load::<LE>(&buf.get_in()[at + i]);
    }
    let (x, y) = crypt_n::<DEC, N>(&st.s, &st.p, l, r);
    for i in 0..N {
        store::<LE>(&mut buf.get_out()[at + i], [x[i], y[i]]);
    }
}

/// Any number of blocks: four at a time, then two, then one.
#[inline(always)]
pub(crate) fn run_blocks<const LE: bool, const DEC: bool>(
    st: &State,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 4 {
        run_n::<LE, DEC, 4>(st, &mut buf, at);
        at += 4;
    }
    if n - at >= 2 {
        run_n::<LE, DEC, 2>(st, &mut buf, at);
        at += 2;
    }
    if at < n {
        run_n::<LE, DEC, 1>(st, &mut buf, at);
    }
}

/// The block-cipher backend handed to `cipher`'s closures.
pub(crate) struct Wide<'a, const LE: bool> {
    st: &'a State,
}

impl<const LE: bool> BlockSizeUser for Wide<'_, LE> {
    type BlockSize = U8;
}

/// Four blocks: two words each is eight general-purpose registers, plus the four S-box
/// indices and sums of the half-round in flight — about what x86-64's sixteen registers
/// hold without spilling; four independent chains cover the ≈10-cycle latency of a
/// half-round (load, add, xor, add, xor).
impl<const LE: bool> ParBlocksSizeUser for Wide<'_, LE> {
    type ParBlocksSize = U4;
}

impl<const LE: bool> BlockCipherEncBackend for Wide<'_, LE> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        one::<LE, false>(self.st, block);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        run_blocks::<LE, false>(self.st, blocks.into_buf());
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        run_blocks::<LE, false>(self.st, blocks);
    }
}

impl<const LE: bool> BlockCipherDecBackend for Wide<'_, LE> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        one::<LE, true>(self.st, block);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        run_blocks::<LE, true>(self.st, blocks.into_buf());
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        run_blocks::<LE, true>(self.st, blocks);
    }
}

/// Runs `f` with the portable encryption backend.
#[inline]
pub(crate) fn encrypt<const LE: bool>(st: &State, f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> { st })
}

/// Runs `f` with the portable decryption backend.
#[inline]
pub(crate) fn decrypt<const LE: bool>(st: &State, f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Wide::<LE> { st })
}

#[cfg(test)]
mod tests {
    /// ECB against RustCrypto's `blowfish` (both byte orders, every key length): tail
    /// lengths around 4 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft", 4);
    }
}
