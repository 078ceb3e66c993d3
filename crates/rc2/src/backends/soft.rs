//! Portable RC2 (RFC 2268): the key expansion and the block cipher, every target.
//!
//! Not constant-time: the mash rounds load `K[r & 63]` at data-dependent addresses (a
//! 128-byte table), and the key expansion indexes PITABLE with key bytes; the rest is
//! branch-free arithmetic.

#![forbid(unsafe_code)]

use crate::Blk;
use cipher::{
    BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, InOut, InOutBuf, ParBlocks,
    ParBlocksSizeUser,
    consts::{U4, U8},
};

/// RFC 2268's PITABLE (a permutation of 0..=255 from the digits of π).
static PI_TABLE: [u8; 256] = [
    217, 120, 249, 196, 25, 221, 181, 237, 40, 233, 253, 121, 74, 160, 216, 157, 198, 126, 55, 131,
    43, 118, 83, 142, 98, 76, 100, 136, 68, 139, 251, 162, 23, 154, 89, 245, 135, 179, 79, 19, 97,
    69, 109, 141, 9, 129, 125, 50, 189, 143, 64, 235, 134, 183, 123, 11, 240, 149, 33, 34, 92, 107,
    78, 130, 84, 214, 101, 147, 206, 96, 178, 28, 115, 86, 192, 20, 167, 140, 241, 220, 18, 117,
    202, 31, 59, 190, 228, 209, 66, 61, 212, 48, 163, 60, 182, 38, 111, 191, 14, 218, 70, 105, 7,
    87, 39, 242, 29, 155, 188, 148, 67, 3, 248, 17, 199, 246, 144, 239, 62, 231, 6, 195, 213, 47,
    200, 102, 30, 215, 8, 232, 234, 222, 128, 82, 238, 247, 132, 170, 114, 172, 53, 77, 106, 42,
    150, 26, 210, 113, 90, 21, 73, 116, 75, 159, 208, 94, 4, 24, 164, 236, 194, 224, 65, 110, 15,
    81, 203, 204, 36, 145, 175, 80, 161, 244, 112, 57, 153, 124, 58, 133, 35, 184, 180, 122, 252,
    2, 54, 91, 37, 85, 151, 49, 45, 93, 250, 152, 227, 138, 146, 174, 5, 223, 41, 16, 103, 108,
    186, 201, 211, 0, 230, 207, 225, 158, 168, 44, 99, 22, 1, 63, 88, 226, 137, 169, 13, 56, 52,
    27, 171, 51, 255, 176, 187, 72, 12, 95, 185, 177, 205, 46, 197, 243, 219, 71, 229, 165, 156,
    119, 10, 166, 32, 104, 254, 127, 193, 173,
];

/// PITABLE twice over, as 32-bit words: `PI_WIDE[x] = PITABLE[x mod 256]` for the sum
/// of two bytes (0..=510) or their XOR, with no masking or narrowing of the index.
static PI_WIDE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = PI_TABLE[x % 256] as u32;
        x += 1;
    }
    t
};

/// RFC 2268 §2: the 64 key words of `key` with `t1` effective key bits.
///
/// The same steps as RustCrypto's `rc2` 0.9.0, and so the same panics on inputs it panics
/// on (an empty or longer than 128-byte key, `t1` of 0 or above 1024).
///
/// Both loops are chains of dependent PITABLE look-ups (about 240 for a 16-byte key).
/// The byte just looked up is carried in a register as a 32-bit word from [`PI_WIDE`], so
/// a step is one `add` or `xor` and one load: reading it back as a byte and
/// zero-extending the 8-bit sum for the index put a seventh cycle on each step. Key
/// setup plus one block went from 910 to 805 TSC cycles on the Intel Xeon, from 0.99× to
/// 1.11× RustCrypto's `rc2` 0.9.0 (`cargo run --release -p speed --bin small 8 rc2`,
/// three rounds).
pub(crate) fn expand_key(key: &[u8], t1: usize) -> [u16; 64] {
    let key_len = key.len();
    let t8: usize = (t1 + 7) >> 3;
    let tm: usize = (255 % (2u32.pow((8 + t1 - 8 * t8) as u32))) as usize;

    let mut l = [0u8; 128];
    l[..key_len].copy_from_slice(&key[..key_len]);
    let mut prev = u32::from(l[key_len - 1]);
    for i in key_len..128 {
        prev = PI_WIDE[(prev + u32::from(l[i - key_len])) as usize];
        l[i] = prev as u8;
    }
    let mut prev = PI_WIDE[usize::from(l[128 - t8] & tm as u8)];
    l[128 - t8] = prev as u8;
    for i in (0..128 - t8).rev() {
        prev = PI_WIDE[(prev ^ u32::from(l[i + t8])) as usize];
        l[i] = prev as u8;
    }
    core::array::from_fn(|i| u16::from_le_bytes([l[2 * i], l[2 * i + 1]]))
}

/// The four little-endian words of a block.
#[inline(always)]
fn load(b: &Blk) -> [u16; 4] {
    [
        u16::from_le_bytes([b[0], b[1]]),
        u16::from_le_bytes([b[2], b[3]]),
        u16::from_le_bytes([b[4], b[5]]),
        u16::from_le_bytes([b[6], b[7]]),
    ]
}

#[inline(always)]
fn store(b: &mut Blk, r: [u16; 4]) {
    for (o, w) in b.chunks_exact_mut(2).zip(r) {
        o.copy_from_slice(&w.to_le_bytes());
    }
}

/// Rotation amounts of the four words in a mix round.
const S: [u32; 4] = [1, 2, 3, 5];

/// One encryption mix round (RFC 2268 §3.1) on `N` interleaved blocks with key words
/// `k[4·round ..]`.
#[inline(always)]
fn mix<const N: usize>(r: &mut [[u16; 4]; N], k: &[u16; 64], round: usize) {
    for i in 0..4 {
        let kj = k[4 * round + i];
        for r in r.iter_mut() {
            let (a, b, c) = (r[(i + 3) % 4], r[(i + 2) % 4], r[(i + 1) % 4]);
            // `+` (not `|`) between the two terms, as the RFC writes it, so the compiler
            // may add both and `r[i] + K[j]` in one three-operand `lea`.
            r[i] = r[i]
                .wrapping_add(kj)
                .wrapping_add(a & b)
                .wrapping_add(!a & c)
                .rotate_left(S[i]);
        }
    }
}

/// One encryption mash round (RFC 2268 §3.2).
#[inline(always)]
fn mash<const N: usize>(r: &mut [[u16; 4]; N], k: &[u16; 64]) {
    for i in 0..4 {
        for r in r.iter_mut() {
            r[i] = r[i].wrapping_add(k[usize::from(r[(i + 3) % 4] & 63)]);
        }
    }
}

/// Encryption of `N` interleaved blocks: 5 mix rounds, a mash round, 6 mix rounds, a
/// mash round, 5 mix rounds (three loops, so no round tests for the mash).
#[inline(always)]
fn enc_words<const N: usize>(mut r: [[u16; 4]; N], k: &[u16; 64]) -> [[u16; 4]; N] {
    for round in 0..5 {
        mix(&mut r, k, round);
    }
    mash(&mut r, k);
    for round in 5..11 {
        mix(&mut r, k, round);
    }
    mash(&mut r, k);
    for round in 11..16 {
        mix(&mut r, k, round);
    }
    r
}

/// One decryption ("r-mix") round, the inverse of [`mix`].
#[inline(always)]
fn unmix<const N: usize>(r: &mut [[u16; 4]; N], k: &[u16; 64], round: usize) {
    for i in (0..4).rev() {
        let kj = k[4 * round + i];
        for r in r.iter_mut() {
            let (a, b, c) = (r[(i + 3) % 4], r[(i + 2) % 4], r[(i + 1) % 4]);
            r[i] = r[i]
                .rotate_right(S[i])
                .wrapping_sub(kj)
                .wrapping_sub(a & b)
                .wrapping_sub(!a & c);
        }
    }
}

/// One decryption ("r-mash") round, the inverse of [`mash`].
#[inline(always)]
fn unmash<const N: usize>(r: &mut [[u16; 4]; N], k: &[u16; 64]) {
    for i in (0..4).rev() {
        for r in r.iter_mut() {
            r[i] = r[i].wrapping_sub(k[usize::from(r[(i + 3) % 4] & 63)]);
        }
    }
}

/// Decryption of `N` interleaved blocks: the inverse of [`enc_words`].
#[inline(always)]
fn dec_words<const N: usize>(mut r: [[u16; 4]; N], k: &[u16; 64]) -> [[u16; 4]; N] {
    for round in (11..16).rev() {
        unmix(&mut r, k, round);
    }
    unmash(&mut r, k);
    for round in (5..11).rev() {
        unmix(&mut r, k, round);
    }
    unmash(&mut r, k);
    for round in (0..5).rev() {
        unmix(&mut r, k, round);
    }
    r
}

/// Encrypts one block, passed and returned by value.
///
/// Not inlined: this is the whole of CBC encryption, a chain of 64 dependent word
/// updates, and inlined into the SIMD backends' `#[target_feature]` code it ran ≈ 40 %
/// slower (measured) than in a function of its own. By value, so that the block stays in
/// a register across the call: through a pointer, CBC encryption of 16 bytes took 500
/// TSC cycles on Zen 4 against rc2 0.9.0's 475.
#[inline(never)]
fn encrypt_value(b: [u8; 8], k: &[u16; 64]) -> [u8; 8] {
    let [r] = enc_words([load(&b.into())], k);
    let mut out = Blk::default();
    store(&mut out, r);
    out.into()
}

/// Decrypts one block (as [`encrypt_value`]).
#[inline(never)]
fn decrypt_value(b: [u8; 8], k: &[u16; 64]) -> [u8; 8] {
    let [r] = dec_words([load(&b.into())], k);
    let mut out = Blk::default();
    store(&mut out, r);
    out.into()
}

/// Encrypts one block.
#[inline(always)]
pub(crate) fn encrypt(mut block: InOut<'_, '_, Blk>, k: &[u16; 64]) {
    *block.get_out() = encrypt_value((*block.get_in()).into(), k).into();
}

/// Decrypts one block.
#[inline(always)]
pub(crate) fn decrypt(mut block: InOut<'_, '_, Blk>, k: &[u16; 64]) {
    *block.get_out() = decrypt_value((*block.get_in()).into(), k).into();
}

/// Encrypts (`enc`) or decrypts `buf` four blocks at a time, interleaved, then two, then
/// a last odd block alone: the short calls and tails of every backend. One block is a serial
/// chain, so two chains cost little more than one; at 16 bytes (two blocks) this made
/// `encrypt_blocks` 1.6× faster on Zen 4 than two calls of [`encrypt`]. Not inlined, as
/// [`encrypt`].
#[inline(never)]
pub(crate) fn crypt_blocks(k: &[u16; 64], mut buf: InOutBuf<'_, '_, Blk>, enc: bool) {
    let n = buf.len();
    let mut i = 0;
    while i + 4 <= n {
        let inp = buf.get_in();
        let x: [[u16; 4]; 4] = core::array::from_fn(|j| load(&inp[i + j]));
        let y = if enc {
            enc_words(x, k)
        } else {
            dec_words(x, k)
        };
        for (o, y) in buf.get_out()[i..i + 4].iter_mut().zip(y) {
            store(o, y);
        }
        i += 4;
    }
    if i + 2 <= n {
        let inp = buf.get_in();
        let x = [load(&inp[i]), load(&inp[i + 1])];
        let y = if enc {
            enc_words(x, k)
        } else {
            dec_words(x, k)
        };
        let out = buf.get_out();
        store(&mut out[i], y[0]);
        store(&mut out[i + 1], y[1]);
        i += 2;
    }
    if i < n {
        if enc {
            encrypt(buf.get(i), k);
        } else {
            decrypt(buf.get(i), k);
        }
    }
}

/// The portable backend handed to `cipher`'s closures.
pub(crate) struct Backend<'a>(pub(crate) &'a [u16; 64]);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 4 blocks interleaved: one block is a chain of 64 dependent word updates (≈ 4 cycles
/// each); four independent chains fill a core's ALUs, and 16 words of state fit the
/// general registers of x86-64 and AArch64.
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U4;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Blk>) {
        encrypt(block, self.0);
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        crypt_blocks(self.0, blocks, true);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, mut blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let inp = blocks.get_in();
        let x: [[u16; 4]; 4] = core::array::from_fn(|j| load(&inp[j]));
        let y = enc_words(x, self.0);
        for (b, y) in blocks.get_out().iter_mut().zip(y) {
            store(b, y);
        }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Blk>) {
        decrypt(block, self.0);
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        crypt_blocks(self.0, blocks, false);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, mut blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let inp = blocks.get_in();
        let x: [[u16; 4]; 4] = core::array::from_fn(|j| load(&inp[j]));
        let y = dec_words(x, self.0);
        for (b, y) in blocks.get_out().iter_mut().zip(y) {
            store(b, y);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn soft_matches_soft() {
        // The in-process harness with `soft` against RustCrypto's `rc2` 0.9.0.
        crate::backends::check_matches_soft("soft", 4);
    }
}
