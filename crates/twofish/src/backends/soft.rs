//! Portable Twofish: the key schedule every backend uses, and the reference and fallback
//! block code.
//!
//! The key schedule folds the key-dependent S-boxes and the MDS matrix into four
//! 256-entry tables of 32-bit words ([`Tables::s`]), so the round function `g` is four
//! table look-ups and three XORs. The tables are built from compile-time constants: the
//! fixed permutations `q0`/`q1` and `MQ[j][x] = MDS column j · q(x)` (the last `q` of each
//! byte's chain is the same for every key length), so one table entry costs `k` byte
//! look-ups and one word look-up (`k` = key length / 8). The RS matrix of the key
//! schedule is a table of packed products too (`RS_T`).
//!
//! Not constant time: the round function indexes key-dependent tables with data bytes.

#![forbid(unsafe_code)]

use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U3, U16},
    inout::{InOut, InOutBuf},
};

/// Runs `$f` for `r` = 0 to 7, written out: a loop would carry a lone block's four
/// state words in one `xmm` register (LLVM packs the loop-carried values), with inserts
/// and extracts on the chain of every round pair.
macro_rules! unroll8 {
    (|$r:ident| $f:expr) => {
        unroll8!(@ $r, $f, 0 1 2 3 4 5 6 7)
    };
    (@ $r:ident, $f:expr, $($n:literal)*) => {
        $({
            let $r = $n;
            $f;
        })*
    };
}

/// The 4-bit permutations `t0..t3` of `q0` and `q1` (Twofish paper, §4.3.5).
const QBOX: [[[u8; 16]; 4]; 2] = [
    [
        [8, 1, 7, 13, 6, 15, 3, 2, 0, 11, 5, 9, 14, 12, 10, 4],
        [14, 12, 11, 8, 1, 2, 3, 5, 15, 4, 10, 6, 7, 0, 9, 13],
        [11, 10, 5, 14, 6, 13, 9, 0, 12, 8, 15, 3, 2, 4, 7, 1],
        [13, 7, 15, 4, 1, 2, 6, 14, 9, 11, 3, 0, 8, 5, 12, 10],
    ],
    [
        [2, 8, 11, 13, 15, 7, 6, 14, 3, 1, 9, 4, 0, 10, 12, 5],
        [1, 14, 2, 11, 4, 12, 3, 7, 6, 13, 10, 5, 15, 9, 0, 8],
        [4, 12, 7, 5, 1, 6, 9, 10, 0, 14, 13, 8, 2, 11, 3, 15],
        [11, 9, 5, 1, 12, 3, 13, 14, 6, 4, 7, 15, 2, 0, 8, 10],
    ],
];

/// Which `q` (0 or 1) each byte position `j` passes through at stage `z` of `h`
/// (stage 0 only for 256-bit keys, stage 1 for 192- and 256-bit keys).
pub(crate) const QORD: [[usize; 5]; 4] = [
    [1, 1, 0, 0, 1],
    [0, 1, 1, 0, 0],
    [0, 0, 0, 1, 1],
    [1, 0, 1, 1, 0],
];

/// The Reed–Solomon matrix of the key schedule (over GF(2^8) mod x^8+x^6+x^3+x^2+1).
const RS: [[u8; 8]; 4] = [
    [0x01, 0xa4, 0x55, 0x87, 0x5a, 0x58, 0xdb, 0x9e],
    [0xa4, 0x56, 0x82, 0xf3, 0x1e, 0xc6, 0x68, 0xe5],
    [0x02, 0xa1, 0xfc, 0xc1, 0x47, 0xae, 0x3d, 0x19],
    [0xa4, 0x55, 0x87, 0x5a, 0x58, 0xdb, 0x9e, 0x03],
];

/// Low byte of the MDS field polynomial 0x169 (x^8+x^6+x^5+x^3+1).
pub(crate) const MDS_POLY: u8 = 0x69;
/// Low byte of the RS field polynomial 0x14d.
const RS_POLY: u8 = 0x4d;

pub(crate) const fn gf_mult(mut a: u8, mut b: u8, p: u8) -> u8 {
    let mut r = 0;
    while a > 0 {
        if a & 1 == 1 {
            r ^= b;
        }
        a >>= 1;
        b = if b & 0x80 != 0 { (b << 1) ^ p } else { b << 1 };
    }
    r
}

const fn q_slow(i: usize, x: u8) -> u8 {
    let (a0, b0) = ((x >> 4) & 15, x & 15);
    let a1 = a0 ^ b0;
    let b1 = (a0 ^ ((b0 << 3) | (b0 >> 1)) ^ (a0 << 3)) & 15;
    let (a2, b2) = (QBOX[i][0][a1 as usize], QBOX[i][1][b1 as usize]);
    let a3 = a2 ^ b2;
    let b3 = (a2 ^ ((b2 << 3) | (b2 >> 1)) ^ (a2 << 3)) & 15;
    let (a4, b4) = (QBOX[i][2][a3 as usize], QBOX[i][3][b3 as usize]);
    (b4 << 4) | a4
}

/// `q0` and `q1` as 256-byte tables.
pub(crate) const Q: [[u8; 256]; 2] = {
    let mut q = [[0u8; 256]; 2];
    let mut i = 0;
    while i < 256 {
        q[0][i] = q_slow(0, i as u8);
        q[1][i] = q_slow(1, i as u8);
        i += 1;
    }
    q
};

/// Column `j` of the MDS matrix times `x`, as a little-endian word.
const fn mds_column(x: u8, j: usize) -> u32 {
    let x5b = gf_mult(x, 0x5b, MDS_POLY);
    let xef = gf_mult(x, 0xef, MDS_POLY);
    let v = match j {
        0 => [x, x5b, xef, xef],
        1 => [xef, xef, x5b, x],
        2 => [x5b, xef, x, xef],
        _ => [x5b, x, xef, x5b],
    };
    u32::from_le_bytes(v)
}

/// `MQ[j][x]`: MDS column `j` times `q(x)`, where `q` is the last permutation of byte
/// `j`'s chain (`QORD[j][4]`), the same for every key length.
const MQ: [[u32; 256]; 4] = {
    let mut t = [[0u32; 256]; 4];
    let mut j = 0;
    while j < 4 {
        let mut x = 0;
        while x < 256 {
            t[j][x] = mds_column(Q[QORD[j][4]][x], j);
            x += 1;
        }
        j += 1;
    }
    t
};

/// `RS_T[c][x]`: column `c` of the RS matrix times `x`, packed as a little-endian word.
const RS_T: [[u32; 256]; 8] = {
    let mut t = [[0u32; 256]; 8];
    let mut c = 0;
    while c < 8 {
        let mut x = 0;
        while x < 256 {
            let mut w = 0u32;
            let mut i = 0;
            while i < 4 {
                w |= (gf_mult(x as u8, RS[i][c], RS_POLY) as u32) << (8 * i);
                i += 1;
            }
            t[c][x] = w;
            x += 1;
        }
        c += 1;
    }
    t
};

/// The expanded key shared by every backend: the 40 round subkeys and the four
/// key-dependent 8→32 tables (S-box then MDS column), `g(x) = s[0][x₀] ^ s[1][x₁] ^
/// s[2][x₂] ^ s[3][x₃]` for the little-endian bytes `xᵢ` of `x`.
#[derive(Clone)]
pub(crate) struct Tables {
    /// Subkeys `K₀..K₃₉`: input whitening, output whitening, two per half-round.
    pub(crate) k: [u32; 40],
    /// The key-dependent `g` tables.
    pub(crate) s: [[u32; 256]; 4],
}

/// Byte `j` of `x` through the chain of `q`s from stage `start` to 4, XORing `l[z]`
/// (byte `j` of key word `z - start - 1`) between stages, then through MDS column `j`.
#[inline(always)]
fn chain(j: usize, x: u8, start: usize, l: &[[u8; 4]]) -> u32 {
    let mut g = Q[QORD[j][start]][x as usize];
    for z in start + 1..4 {
        g = Q[QORD[j][z]][(g ^ l[z - start - 1][j]) as usize];
    }
    MQ[j][(g ^ l[4 - start - 1][j]) as usize]
}

/// The 40 round subkeys of a 16-, 24- or 32-byte key: `h(2i·ρ, Me)` and
/// `h((2i+1)·ρ, Mo)`.
pub(crate) fn subkeys(key: &[u8]) -> [u32; 40] {
    let k = key.len() / 8;
    let start = 4 - k;
    let word = |i: usize| -> [u8; 4] { key[4 * i..4 * i + 4].try_into().unwrap() };
    // The key words in the order the stages use them (the last word of the list first).
    let mut me = [[0u8; 4]; 4];
    let mut mo = [[0u8; 4]; 4];
    for z in 0..k {
        me[z] = word(2 * (k - 1 - z));
        mo[z] = word(2 * (k - 1 - z) + 1);
    }
    let h = |x: u8, l: &[[u8; 4]]| -> u32 {
        chain(0, x, start, l)
            ^ chain(1, x, start, l)
            ^ chain(2, x, start, l)
            ^ chain(3, x, start, l)
    };
    let mut sk = [0u32; 40];
    for i in 0..20 {
        let a = h(2 * i as u8, &me[..k]);
        let b = h(2 * i as u8 + 1, &mo[..k]).rotate_left(8);
        let v = a.wrapping_add(b);
        sk[2 * i] = v;
        sk[2 * i + 1] = v.wrapping_add(b).rotate_left(9);
    }
    sk
}

/// The S-box key words `S_i = RS · key[8i..8i+8]` (bytes), in the order the `g` stages
/// use them (S₀ first); only the first `key.len() / 8` are set.
pub(crate) fn sbox_words(key: &[u8]) -> [[u8; 4]; 4] {
    let mut sw = [[0u8; 4]; 4];
    for (i, w) in sw.iter_mut().enumerate().take(key.len() / 8) {
        let mut v = 0u32;
        for (c, &b) in key[8 * i..8 * i + 8].iter().enumerate() {
            v ^= RS_T[c][b as usize];
        }
        *w = v.to_le_bytes();
    }
    sw
}

impl Tables {
    /// The key schedule of a 16-, 24- or 32-byte key.
    pub(crate) fn new(key: &[u8]) -> Self {
        debug_assert!(matches!(key.len(), 16 | 24 | 32));
        let k = key.len() / 8;
        let start = 4 - k;
        let sk = subkeys(key);
        let sw = sbox_words(key);

        let mut s = [[0u32; 256]; 4];
        for (j, t) in s.iter_mut().enumerate() {
            let qa = &Q[QORD[j][start]];
            let mq = &MQ[j];
            match k {
                2 => {
                    let (q1, s0, s1) = (&Q[QORD[j][3]], sw[0][j], sw[1][j]);
                    for (x, e) in t.iter_mut().enumerate() {
                        *e = mq[(q1[(qa[x] ^ s0) as usize] ^ s1) as usize];
                    }
                }
                3 => {
                    let (q1, q2) = (&Q[QORD[j][2]], &Q[QORD[j][3]]);
                    let (s0, s1, s2) = (sw[0][j], sw[1][j], sw[2][j]);
                    for (x, e) in t.iter_mut().enumerate() {
                        *e = mq[(q2[(q1[(qa[x] ^ s0) as usize] ^ s1) as usize] ^ s2) as usize];
                    }
                }
                _ => {
                    let (q1, q2, q3) = (&Q[QORD[j][1]], &Q[QORD[j][2]], &Q[QORD[j][3]]);
                    let (s0, s1, s2, s3) = (sw[0][j], sw[1][j], sw[2][j], sw[3][j]);
                    for (x, e) in t.iter_mut().enumerate() {
                        let y = q2[(q1[(qa[x] ^ s0) as usize] ^ s1) as usize];
                        *e = mq[(q3[(y ^ s2) as usize] ^ s3) as usize];
                    }
                }
            }
        }
        Tables { k: sk, s }
    }

    /// Overwrites the key material with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        use cipher::zeroize::Zeroize;
        self.k.zeroize();
        for t in self.s.iter_mut() {
            t.zeroize();
        }
    }

    /// `g(x)`.
    #[inline(always)]
    fn g0(&self, x: u32) -> u32 {
        self.s[0][x as u8 as usize]
            ^ self.s[1][(x >> 8) as u8 as usize]
            ^ self.s[2][(x >> 16) as u8 as usize]
            ^ self.s[3][(x >> 24) as usize]
    }

    /// `g(x <<< 8)`.
    #[inline(always)]
    fn g1(&self, x: u32) -> u32 {
        self.s[0][(x >> 24) as usize]
            ^ self.s[1][x as u8 as usize]
            ^ self.s[2][(x >> 8) as u8 as usize]
            ^ self.s[3][(x >> 16) as u8 as usize]
    }

    /// Encrypts `N` blocks (as little-endian words), interleaved step by step.
    #[inline(always)]
    pub(crate) fn encrypt_words<const N: usize>(&self, p: &mut [[u32; 4]; N]) {
        let k = &self.k;
        for b in p.iter_mut() {
            for i in 0..4 {
                b[i] ^= k[i];
            }
        }
        for r in 0..8 {
            let k = &k[4 * r + 8..4 * r + 12];
            let mut t0 = [0u32; N];
            let mut t1 = [0u32; N];
            for i in 0..N {
                t1[i] = self.g1(p[i][1]);
                t0[i] = self.g0(p[i][0]);
            }
            for i in 0..N {
                let (a, b) = (
                    t0[i].wrapping_add(t1[i]),
                    t0[i].wrapping_add(t1[i].wrapping_mul(2)),
                );
                p[i][2] = (p[i][2] ^ a.wrapping_add(k[0])).rotate_right(1);
                p[i][3] = p[i][3].rotate_left(1) ^ b.wrapping_add(k[1]);
            }
            for i in 0..N {
                t1[i] = self.g1(p[i][3]);
                t0[i] = self.g0(p[i][2]);
            }
            for i in 0..N {
                let (a, b) = (
                    t0[i].wrapping_add(t1[i]),
                    t0[i].wrapping_add(t1[i].wrapping_mul(2)),
                );
                p[i][0] = (p[i][0] ^ a.wrapping_add(k[2])).rotate_right(1);
                p[i][1] = p[i][1].rotate_left(1) ^ b.wrapping_add(k[3]);
            }
        }
        for b in p.iter_mut() {
            *b = [b[2] ^ k[4], b[3] ^ k[5], b[0] ^ k[6], b[1] ^ k[7]];
        }
    }

    /// Decrypts `N` blocks (as little-endian words), interleaved step by step.
    #[inline(always)]
    pub(crate) fn decrypt_words<const N: usize>(&self, c: &mut [[u32; 4]; N]) {
        let k = &self.k;
        for b in c.iter_mut() {
            *b = [b[2] ^ k[6], b[3] ^ k[7], b[0] ^ k[4], b[1] ^ k[5]];
        }
        for r in (0..8).rev() {
            let k = &k[4 * r + 8..4 * r + 12];
            let mut t0 = [0u32; N];
            let mut t1 = [0u32; N];
            for i in 0..N {
                t1[i] = self.g1(c[i][3]);
                t0[i] = self.g0(c[i][2]);
            }
            for i in 0..N {
                let (a, b) = (
                    t0[i].wrapping_add(t1[i]),
                    t0[i].wrapping_add(t1[i].wrapping_mul(2)),
                );
                c[i][0] = c[i][0].rotate_left(1) ^ a.wrapping_add(k[2]);
                c[i][1] = (c[i][1] ^ b.wrapping_add(k[3])).rotate_right(1);
            }
            for i in 0..N {
                t1[i] = self.g1(c[i][1]);
                t0[i] = self.g0(c[i][0]);
            }
            for i in 0..N {
                let (a, b) = (
                    t0[i].wrapping_add(t1[i]),
                    t0[i].wrapping_add(t1[i].wrapping_mul(2)),
                );
                c[i][2] = c[i][2].rotate_left(1) ^ a.wrapping_add(k[0]);
                c[i][3] = (c[i][3] ^ b.wrapping_add(k[1])).rotate_right(1);
            }
        }
        for b in c.iter_mut() {
            for i in 0..4 {
                b[i] ^= k[i];
            }
        }
    }

    /// Runs `N` blocks from `input` to `output` through `f`.
    #[inline(always)]
    fn run<const N: usize>(
        &self,
        input: &[Block],
        output: &mut [Block],
        f: impl Fn(&Self, &mut [[u32; 4]; N]),
    ) {
        let mut w = [[0u32; 4]; N];
        for (wb, b) in w.iter_mut().zip(input) {
            for (i, x) in wb.iter_mut().enumerate() {
                *x = u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
            }
        }
        f(self, &mut w);
        for (wb, b) in w.iter().zip(output.iter_mut()) {
            for (i, x) in wb.iter().enumerate() {
                b[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
            }
        }
    }

    /// Encrypts one block: the rounds of [`Self::encrypt_words`] on four scalars, written
    /// out (`unroll8!`); CBC encryption is a chain of these.
    #[inline(always)]
    pub(crate) fn encrypt_one(&self, mut block: InOut<'_, '_, Block>) {
        let k = &self.k;
        let [mut a, mut b, mut c, mut d] = le_words(block.get_in(), &k[..4]);
        let mut pair = |rk: &[u32]| {
            let (t0, t1) = (self.g0(a), self.g1(b));
            c = (c ^ t0.wrapping_add(t1).wrapping_add(rk[0])).rotate_right(1);
            d = d.rotate_left(1) ^ t0.wrapping_add(t1.wrapping_mul(2)).wrapping_add(rk[1]);
            let (t0, t1) = (self.g0(c), self.g1(d));
            a = (a ^ t0.wrapping_add(t1).wrapping_add(rk[2])).rotate_right(1);
            b = b.rotate_left(1) ^ t0.wrapping_add(t1.wrapping_mul(2)).wrapping_add(rk[3]);
        };
        unroll8!(|r| pair(&k[4 * r + 8..4 * r + 12]));
        le_bytes([c, d, a, b], &k[4..8], block.get_out());
    }

    /// Decrypts one block (on four scalars, as [`Self::encrypt_one`]).
    #[inline(always)]
    pub(crate) fn decrypt_one(&self, mut block: InOut<'_, '_, Block>) {
        let k = &self.k;
        let [mut c, mut d, mut a, mut b] = le_words(block.get_in(), &k[4..8]);
        let mut pair = |rk: &[u32]| {
            let (t0, t1) = (self.g0(c), self.g1(d));
            a = a.rotate_left(1) ^ t0.wrapping_add(t1).wrapping_add(rk[2]);
            b = (b ^ t0.wrapping_add(t1.wrapping_mul(2)).wrapping_add(rk[3])).rotate_right(1);
            let (t0, t1) = (self.g0(a), self.g1(b));
            c = c.rotate_left(1) ^ t0.wrapping_add(t1).wrapping_add(rk[0]);
            d = (d ^ t0.wrapping_add(t1.wrapping_mul(2)).wrapping_add(rk[1])).rotate_right(1);
        };
        unroll8!(|r| pair(&k[4 * (7 - r) + 8..4 * (7 - r) + 12]));
        le_bytes([a, b, c, d], &k[..4], block.get_out());
    }

    /// Any number of blocks: [`PAR`] at a time, then one at a time.
    #[inline]
    pub(crate) fn run_blocks(&self, mut buf: InOutBuf<'_, '_, Block>, enc: bool) {
        let n = buf.len();
        let mut at = 0;
        while n - at >= PAR {
            let inp: [Block; PAR] = core::array::from_fn(|i| buf.get_in()[at + i]);
            let out = &mut buf.get_out()[at..at + PAR];
            if enc {
                self.run::<PAR>(&inp, out, |t, w| t.encrypt_words(w));
            } else {
                self.run::<PAR>(&inp, out, |t, w| t.decrypt_words(w));
            }
            at += PAR;
        }
        while at < n {
            if enc {
                self.encrypt_one(buf.get(at));
            } else {
                self.decrypt_one(buf.get(at));
            }
            at += 1;
        }
    }
}

/// Blocks in flight: three independent blocks keep the load ports busy while one
/// block's `g` waits for its look-ups; with 12 state words plus table base, subkey pointer
/// and temporaries, three blocks fill the 16 general registers of x86-64 (four spill).
pub(crate) const PAR: usize = 3;

/// The `soft` block-cipher backend handed to `cipher`'s closures.
pub(crate) struct Backend<'a>(pub(crate) &'a Tables);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// See [`PAR`].
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U3;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.encrypt_one(block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.0.run_blocks(blocks.into_buf(), true)
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        self.0.run_blocks(blocks, true)
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        self.0.decrypt_one(block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.0.run_blocks(blocks.into_buf(), false)
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        self.0.run_blocks(blocks, false)
    }
}

/// The block's four little-endian words, each XORed with its whitening key in `k`.
#[inline(always)]
fn le_words(block: &Block, k: &[u32]) -> [u32; 4] {
    core::array::from_fn(|i| {
        u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().expect("4 bytes")) ^ k[i]
    })
}

/// `w`, each word XORed with its whitening key in `k`, as the block's little-endian bytes.
#[inline(always)]
fn le_bytes(w: [u32; 4], k: &[u32], out: &mut Block) {
    for (i, (w, k)) in w.into_iter().zip(k).enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&(w ^ k).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subkeys and S-box key words of the Twofish paper's intermediate values
    /// (`ecb_ival.txt`, 128-bit zero key).
    #[test]
    fn intermediate_subkeys_128() {
        let t = Tables::new(&[0u8; 16]);
        assert_eq!(t.k[0], 0x52C54DDE);
        assert_eq!(t.k[39], 0x696EA672);
    }

    /// `ecb_ival.txt`, 256-bit key 0123…EEFF: first and last subkeys.
    #[test]
    fn intermediate_subkeys_256() {
        let key: [u8; 32] = core::array::from_fn(|i| {
            [
                0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54,
                0x32, 0x10, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB,
                0xCC, 0xDD, 0xEE, 0xFF,
            ][i]
        });
        let t = Tables::new(&key);
        assert_eq!(t.k[0], 0x5EC769BF);
        assert_eq!(t.k[39], 0xF0D54DCD);
    }

    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft", PAR);
    }
}
