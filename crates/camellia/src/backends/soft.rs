//! Portable Camellia: the reference and fallback backend, on every target.
//!
//! **Table-based.** The F-function is eight look-ups into four 256-entry tables of 32-bit
//! words (4 KiB: `T[i][x]` is S-box `i` of `x` already spread over one 32-bit half by the
//! P-function), XORed together in two 32-bit halves — the 32-bit form of the classic
//! "SP" tables (RFC 3713 §2.4) that OpenSSL's `cmll-x86_64.pl` and the NTT reference code
//! use. The look-up addresses depend on key and data, so on CPUs with data caches
//! this backend is **not constant-time** (cache-timing attacks apply); the SIMD backends
//! are. The key schedule uses the same F-function (six calls per key).
//!
//! The subkey layout (`[u64; RK]`, RFC 3713 order kw1‖kw2, k1…, ke…, kw3‖kw4) is the
//! one RustCrypto's camellia 0.2.1 uses; every backend reads it.

#![forbid(unsafe_code)]

use cipher::consts::U16;
use simdcrypt_dispatch::modes::CbcEncrypt;

/// S-box `s1` of RFC 3713 §2.4.4.
pub(crate) const SBOX1: [u8; 256] = [
    0x70, 0x82, 0x2c, 0xec, 0xb3, 0x27, 0xc0, 0xe5, 0xe4, 0x85, 0x57, 0x35, 0xea, 0x0c, 0xae, 0x41,
    0x23, 0xef, 0x6b, 0x93, 0x45, 0x19, 0xa5, 0x21, 0xed, 0x0e, 0x4f, 0x4e, 0x1d, 0x65, 0x92, 0xbd,
    0x86, 0xb8, 0xaf, 0x8f, 0x7c, 0xeb, 0x1f, 0xce, 0x3e, 0x30, 0xdc, 0x5f, 0x5e, 0xc5, 0x0b, 0x1a,
    0xa6, 0xe1, 0x39, 0xca, 0xd5, 0x47, 0x5d, 0x3d, 0xd9, 0x01, 0x5a, 0xd6, 0x51, 0x56, 0x6c, 0x4d,
    0x8b, 0x0d, 0x9a, 0x66, 0xfb, 0xcc, 0xb0, 0x2d, 0x74, 0x12, 0x2b, 0x20, 0xf0, 0xb1, 0x84, 0x99,
    0xdf, 0x4c, 0xcb, 0xc2, 0x34, 0x7e, 0x76, 0x05, 0x6d, 0xb7, 0xa9, 0x31, 0xd1, 0x17, 0x04, 0xd7,
    0x14, 0x58, 0x3a, 0x61, 0xde, 0x1b, 0x11, 0x1c, 0x32, 0x0f, 0x9c, 0x16, 0x53, 0x18, 0xf2, 0x22,
    0xfe, 0x44, 0xcf, 0xb2, 0xc3, 0xb5, 0x7a, 0x91, 0x24, 0x08, 0xe8, 0xa8, 0x60, 0xfc, 0x69, 0x50,
    0xaa, 0xd0, 0xa0, 0x7d, 0xa1, 0x89, 0x62, 0x97, 0x54, 0x5b, 0x1e, 0x95, 0xe0, 0xff, 0x64, 0xd2,
    0x10, 0xc4, 0x00, 0x48, 0xa3, 0xf7, 0x75, 0xdb, 0x8a, 0x03, 0xe6, 0xda, 0x09, 0x3f, 0xdd, 0x94,
    0x87, 0x5c, 0x83, 0x02, 0xcd, 0x4a, 0x90, 0x33, 0x73, 0x67, 0xf6, 0xf3, 0x9d, 0x7f, 0xbf, 0xe2,
    0x52, 0x9b, 0xd8, 0x26, 0xc8, 0x37, 0xc6, 0x3b, 0x81, 0x96, 0x6f, 0x4b, 0x13, 0xbe, 0x63, 0x2e,
    0xe9, 0x79, 0xa7, 0x8c, 0x9f, 0x6e, 0xbc, 0x8e, 0x29, 0xf5, 0xf9, 0xb6, 0x2f, 0xfd, 0xb4, 0x59,
    0x78, 0x98, 0x06, 0x6a, 0xe7, 0x46, 0x71, 0xba, 0xd4, 0x25, 0xab, 0x42, 0x88, 0xa2, 0x8d, 0xfa,
    0x72, 0x07, 0xb9, 0x55, 0xf8, 0xee, 0xac, 0x0a, 0x36, 0x49, 0x2a, 0x68, 0x3c, 0x38, 0xf1, 0xa4,
    0x40, 0x28, 0xd3, 0x7b, 0xbb, 0xc9, 0x43, 0xc1, 0x15, 0xe3, 0xad, 0xf4, 0x77, 0xc7, 0x80, 0x9e,
];

/// `s1`…`s4` (RFC 3713: `s2(x) = s1(x) <<< 1`, `s3(x) = s1(x) <<< 7`,
/// `s4(x) = s1(x <<< 1)`).
pub(crate) const fn sbox(i: usize, x: u8) -> u8 {
    match i {
        0 => SBOX1[x as usize],
        1 => SBOX1[x as usize].rotate_left(1),
        2 => SBOX1[x as usize].rotate_left(7),
        _ => SBOX1[x.rotate_left(1) as usize],
    }
}

/// `T[i][x]` for S-box `i` (s1…s4): `si(x)` placed in the bytes of the P-function's
/// 32-bit halves that it reaches, most significant byte first: s1 in bytes 1110, s2 in
/// 0222, s3 in 3033, s4 in 4404 (4 KiB in all).
const fn make_t() -> [[u32; 256]; 4] {
    const SPREAD: [u32; 4] = [0x0101_0100, 0x0001_0101, 0x0100_0101, 0x0101_0001];
    let mut t = [[0u32; 256]; 4];
    let mut i = 0;
    while i < 4 {
        let mut x = 0;
        while x < 256 {
            t[i][x] = SPREAD[i] * sbox(i, x as u8) as u32;
            x += 1;
        }
        i += 1;
    }
    t
}

static T: [[u32; 256]; 4] = make_t();

/// A 64-bit half of the state as two 32-bit words (high, low).
type Half = (u32, u32);

#[inline(always)]
fn split(v: u64) -> Half {
    ((v >> 32) as u32, v as u32)
}

#[inline(always)]
fn join(h: Half) -> u64 {
    (u64::from(h.0) << 32) | u64::from(h.1)
}

#[inline(always)]
fn xor(a: Half, b: Half) -> Half {
    (a.0 ^ b.0, a.1 ^ b.1)
}

/// `leaf ^ F(x)` where `x` is the F-function's input already XORed with its subkey
/// (RFC 3713 §2.4.1), in the 32-bit form of OpenSSL's `cmll-x86_64.pl` and the NTT
/// reference code (the technique, not their code): the right input word `x.1` (bytes
/// t5…t8, S-boxes s2 s3 s4 s1) looks up `yl`, the left word `x.0` (t1…t4, s1 s2 s3 s4)
/// `yr`; the P-function is then `zl = yl ^ yr`, `zr = zl ^ (yr >>> 8)`.
///
/// On Zen 4 this runs a dependent chain of F at 9.2 TSC cycles against 10.2 for the
/// 64-bit tables it replaces (eight look-ups either way, but one shift fewer per byte
/// and 4 KiB instead of 16 KiB of tables). `yr ^ (yr >>> 8)` is formed before it meets
/// `leaf ^ yl`, which takes one XOR off the path of the right word.
#[inline(always)]
fn f_into(leaf: Half, x: Half) -> Half {
    let yr = T[2][usize::from((x.0 >> 8) as u8)]
        ^ T[3][usize::from(x.0 as u8)]
        ^ T[0][(x.0 >> 24) as usize]
        ^ T[1][usize::from((x.0 >> 16) as u8)];
    let yl = T[3][usize::from((x.1 >> 8) as u8)]
        ^ T[0][usize::from(x.1 as u8)]
        ^ T[1][(x.1 >> 24) as usize]
        ^ T[2][usize::from((x.1 >> 16) as u8)];
    let w = yr ^ yr.rotate_right(8);
    (leaf.0 ^ yl ^ yr, leaf.1 ^ yl ^ w)
}

/// The F-function (RFC 3713 §2.4.1).
#[inline(always)]
fn f(input: u64, key: u64) -> u64 {
    join(f_into((0, 0), split(input ^ key)))
}

/// Six Feistel rounds with the subkeys `kk` in the order used: `d2 ^= F(d1 ^ kk[0])`,
/// `d1 ^= F(d2 ^ kk[1])`, and so on.
///
/// (Carrying the halves pre-XORed with the next subkey, to keep that XOR off the
/// critical path, measured slower with these tables: LLVM re-associates the XORs
/// anyway and runs out of registers.)
#[inline(always)]
fn six_rounds(d1: Half, d2: Half, kk: [u64; 6]) -> (Half, Half) {
    let k = kk.map(split);
    let d2 = f_into(d2, xor(d1, k[0]));
    let d1 = f_into(d1, xor(d2, k[1]));
    let d2 = f_into(d2, xor(d1, k[2]));
    let d1 = f_into(d1, xor(d2, k[3]));
    let d2 = f_into(d2, xor(d1, k[4]));
    let d1 = f_into(d1, xor(d2, k[5]));
    (d1, d2)
}

/// FL (RFC 3713 §2.4.2).
#[inline(always)]
fn fl(x: Half, k: u64) -> Half {
    let ((mut x1, mut x2), (k1, k2)) = (x, split(k));
    x2 ^= (x1 & k1).rotate_left(1);
    x1 ^= x2 | k2;
    (x1, x2)
}

/// FL⁻¹ (RFC 3713 §2.4.3).
#[inline(always)]
fn flinv(y: Half, k: u64) -> Half {
    let ((mut y1, mut y2), (k1, k2)) = (y, split(k));
    y1 ^= y2 | k2;
    y2 ^= (y1 & k1).rotate_left(1);
    (y1, y2)
}

/// Encrypts one block (16 bytes) with the subkeys `k` (`RK` = 26 or 34).
#[inline]
pub(crate) fn encrypt<const RK: usize>(k: &[u64; RK], block: &[u8]) -> [u8; 16] {
    let (hi, lo) = words(block);
    words_out(encrypt_words(k, hi, lo))
}

/// Decrypts one block (16 bytes) with the subkeys `k` (`RK` = 26 or 34).
#[inline]
pub(crate) fn decrypt<const RK: usize>(k: &[u64; RK], block: &[u8]) -> [u8; 16] {
    let (hi, lo) = words(block);
    words_out(decrypt_words(k, hi, lo))
}

/// The block's two halves as big-endian `u64`s.
#[inline(always)]
pub(crate) fn words(block: &[u8]) -> (u64, u64) {
    (be(block, 0), be(block, 8))
}

/// The block's two big-endian halves back to bytes.
#[inline(always)]
fn words_out((hi, lo): (u64, u64)) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&hi.to_be_bytes());
    out[8..].copy_from_slice(&lo.to_be_bytes());
    out
}

/// [`encrypt`] on the block's big-endian halves ([`words`]), with the block in registers
/// both ways (the SIMD backends' single blocks: see `bytesliced::one`).
#[inline(always)]
pub(crate) fn encrypt_words<const RK: usize>(k: &[u64; RK], hi: u64, lo: u64) -> (u64, u64) {
    let (hi, lo) = encrypt_unwhitened(k, hi ^ k[0], lo ^ k[1]);
    (hi ^ k[RK - 2], lo ^ k[RK - 1])
}

/// The rounds of [`encrypt_words`], out of line, without the whitening: the input is
/// already XORed with kw1‖kw2, and the output is yet to be XORed with kw3‖kw4. So a
/// caller can fold the whitening into XORs it makes anyway ([`cbc_encrypt`]).
#[inline(never)]
fn encrypt_unwhitened<const RK: usize>(k: &[u64; RK], hi: u64, lo: u64) -> (u64, u64) {
    let mut d1 = split(hi);
    let mut d2 = split(lo);
    // (RK - 2) / 8 groups of six rounds, FL/FL^-1 between them. (Written out instead of
    // looped, the code is three times the size and no faster on Zen 4.)
    let groups = (RK - 2) / 8;
    for g in 0..groups {
        let i = 2 + 8 * g;
        (d1, d2) = six_rounds(
            d1,
            d2,
            [k[i], k[i + 1], k[i + 2], k[i + 3], k[i + 4], k[i + 5]],
        );
        if g + 1 < groups {
            d1 = fl(d1, k[i + 6]);
            d2 = flinv(d2, k[i + 7]);
        }
    }
    (join(d2), join(d1))
}

/// CBC encryption (`cbc`'s request, see `simdcrypt_dispatch::modes`) with the chain in
/// registers: `C_i = E(P_i ^ C_{i-1})`.
///
/// The chain carries the rounds' output `y` before its closing whitening, so one XOR
/// links two blocks: the next input is `y ^ (kw3‖kw4 ^ P_{i+1} ^ kw1‖kw2)`, the bracket
/// formed off the chain, and `C_i = y ^ kw3‖kw4` is stored beside it. (The same idea as
/// `aes`'s `aesni::cbc_encrypt`, whose last round key carries the link.) Through the
/// one-block path the chain also ran through a 16-byte store and two 8-byte loads
/// (store-to-load forwarding), the byte swaps, and moves between general and vector
/// registers.
pub(crate) fn cbc_encrypt<const RK: usize>(k: &[u64; RK], request: CbcEncrypt<'_, U16>) {
    let CbcEncrypt { iv, blocks } = request;
    let (kin, kout) = ((k[0], k[1]), (k[RK - 2], k[RK - 1]));
    let (hi, lo) = words(iv);
    let mut y = (hi ^ kout.0, lo ^ kout.1);
    for mut block in blocks {
        let (hi, lo) = words(block.get_in());
        let link = (hi ^ kin.0 ^ kout.0, lo ^ kin.1 ^ kout.1);
        y = encrypt_unwhitened(k, y.0 ^ link.0, y.1 ^ link.1);
        *block.get_out() = words_out((y.0 ^ kout.0, y.1 ^ kout.1)).into();
    }
    *iv = words_out((y.0 ^ kout.0, y.1 ^ kout.1)).into();
}

/// [`decrypt`] on the block's big-endian halves, out of line (as [`encrypt_words`]'s rounds).
#[inline(never)]
pub(crate) fn decrypt_words<const RK: usize>(k: &[u64; RK], hi: u64, lo: u64) -> (u64, u64) {
    let mut d1 = xor(split(hi), split(k[RK - 2]));
    let mut d2 = xor(split(lo), split(k[RK - 1]));
    let groups = (RK - 2) / 8;
    for g in 0..groups {
        let i = RK - 3 - 8 * g;
        (d1, d2) = six_rounds(
            d1,
            d2,
            [k[i], k[i - 1], k[i - 2], k[i - 3], k[i - 4], k[i - 5]],
        );
        if g + 1 < groups {
            d1 = fl(d1, k[i - 6]);
            d2 = flinv(d2, k[i - 7]);
        }
    }
    (join(d2) ^ k[0], join(d1) ^ k[1])
}

/// The constants Σ1…Σ6 of the key schedule (RFC 3713 §2.2).
const SIGMA: [u64; 6] = [
    0xa09e_667f_3bcc_908b,
    0xb67a_e858_4caa_73b2,
    0xc6ef_372f_e94f_82be,
    0x54ff_53a5_f1d3_6f1c,
    0x10e5_27fa_de68_2d1d,
    0xb056_88c2_b3e6_c1fd,
];

type U128 = (u64, u64);

fn ka(kl: U128, kr: U128) -> U128 {
    let mut d1 = kl.0 ^ kr.0;
    let mut d2 = kl.1 ^ kr.1;
    d2 ^= f(d1, SIGMA[0]);
    d1 ^= f(d2, SIGMA[1]);
    d1 ^= kl.0;
    d2 ^= kl.1;
    d2 ^= f(d1, SIGMA[2]);
    d1 ^= f(d2, SIGMA[3]);
    (d1, d2)
}

fn kb(ka: U128, kr: U128) -> U128 {
    let mut d1 = ka.0 ^ kr.0;
    let mut d2 = ka.1 ^ kr.1;
    d2 ^= f(d1, SIGMA[4]);
    d1 ^= f(d2, SIGMA[5]);
    (d1, d2)
}

/// The 128-bit value `v` (high, low) rotated left by `n` (0 < `n` < 128).
#[inline(always)]
fn rot(v: U128, n: u32) -> U128 {
    let x = ((u128::from(v.0) << 64) | u128::from(v.1)).rotate_left(n);
    ((x >> 64) as u64, x as u64)
}

#[inline(always)]
fn be(key: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(key[at..at + 8].try_into().expect("8 bytes"))
}

/// The 26 subkeys of a 16-byte key (RFC 3713 §2.2, Camellia-128).
pub(crate) fn expand128(key: &[u8]) -> [u64; 26] {
    let kl = (be(key, 0), be(key, 8));
    let ka = ka(kl, (0, 0));
    let [l15, a15, a30, l45, a45, l60, a60, l77, l94, a94, l111, a111] = [
        rot(kl, 15),
        rot(ka, 15),
        rot(ka, 30),
        rot(kl, 45),
        rot(ka, 45),
        rot(kl, 60),
        rot(ka, 60),
        rot(kl, 77),
        rot(kl, 94),
        rot(ka, 94),
        rot(kl, 111),
        rot(ka, 111),
    ];
    [
        kl.0, kl.1, ka.0, ka.1, l15.0, l15.1, a15.0, a15.1, a30.0, a30.1, l45.0, l45.1, a45.0,
        l60.1, a60.0, a60.1, l77.0, l77.1, l94.0, l94.1, a94.0, a94.1, l111.0, l111.1, a111.0,
        a111.1,
    ]
}

/// The 34 subkeys of a 24- or 32-byte key (RFC 3713 §2.2, Camellia-192/256; a 24-byte
/// key's right half is its last 8 bytes and their complement).
pub(crate) fn expand256(key: &[u8]) -> [u64; 34] {
    let kl = (be(key, 0), be(key, 8));
    let kr = if key.len() == 24 {
        let x = be(key, 16);
        (x, !x)
    } else {
        (be(key, 16), be(key, 24))
    };
    let ka = ka(kl, kr);
    let kb = kb(ka, kr);
    let [
        r15,
        a15,
        r30,
        b30,
        l45,
        a45,
        l60,
        r60,
        b60,
        l77,
        a77,
        r94,
        a94,
        l111,
        b111,
    ] = [
        rot(kr, 15),
        rot(ka, 15),
        rot(kr, 30),
        rot(kb, 30),
        rot(kl, 45),
        rot(ka, 45),
        rot(kl, 60),
        rot(kr, 60),
        rot(kb, 60),
        rot(kl, 77),
        rot(ka, 77),
        rot(kr, 94),
        rot(ka, 94),
        rot(kl, 111),
        rot(kb, 111),
    ];
    [
        kl.0, kl.1, kb.0, kb.1, r15.0, r15.1, a15.0, a15.1, r30.0, r30.1, b30.0, b30.1, l45.0,
        l45.1, a45.0, a45.1, l60.0, l60.1, r60.0, r60.1, b60.0, b60.1, l77.0, l77.1, a77.0, a77.1,
        r94.0, r94.1, a94.0, a94.1, l111.0, l111.1, b111.0, b111.1,
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn soft_matches_soft() {
        // `soft` against RustCrypto's camellia 0.2.1 through the same harness.
        crate::check_matches_soft("soft", 1);
    }
}
