//! Portable Camellia: the reference and fallback backend, on every target.
//!
//! **Table-based.** The F-function is eight look-ups into 256-entry tables of 64-bit
//! words (16 KiB: `SP[i][x]` is S-box `i` of `x` already spread by the P-function), XORed
//! together — the classic fast software form of Camellia (RFC 3713 §2.4, the "SP"
//! tables). The look-up addresses depend on key and data, so on CPUs with data caches
//! this backend is **not constant-time** (cache-timing attacks apply); the SIMD backends
//! are. The key schedule uses the same F-function (six calls per key).
//!
//! The subkey layout (`[u64; RK]`, RFC 3713 order kw1‖kw2, k1…, ke…, kw3‖kw4) is the
//! one RustCrypto's camellia 0.2.1 uses; every backend reads it.

#![forbid(unsafe_code)]

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

/// Which S-box handles input byte `j` (0 = most significant) of the F-function.
const SBOX_OF_BYTE: [usize; 8] = [0, 1, 2, 3, 1, 2, 3, 0];

/// The P-function's spread of output byte `j` of the S-box layer (the multipliers of
/// RFC 3713 §2.4.1 written as 64-bit words, z1 in the top byte).
const SPREAD: [u64; 8] = [
    0x0101_0100_0100_0001,
    0x0001_0101_0101_0000,
    0x0100_0101_0001_0100,
    0x0101_0001_0000_0101,
    0x0001_0101_0001_0101,
    0x0100_0101_0100_0101,
    0x0101_0001_0101_0001,
    0x0101_0100_0101_0100,
];

const fn make_sp() -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    let mut j = 0;
    while j < 8 {
        let mut x = 0;
        while x < 256 {
            let v = SPREAD[j] * sbox(SBOX_OF_BYTE[j], x as u8) as u64;
            // Tables 4..8 are stored rotated by 32 bits; see `f_into`.
            t[j][x] = if j < 4 { v } else { v.rotate_right(32) };
            x += 1;
        }
        j += 1;
    }
    t
}

/// `SP[j][x]`: the F-function's contribution of input byte `j` having value `x`
/// (`j` ≥ 4: rotated right by 32 bits).
static SP: [[u64; 256]; 8] = make_sp();

/// `leaf ^ F(x)` where `x` is the F-function's input already XORed with its subkey
/// (RFC 3713 §2.4.1).
///
/// Latency is what CBC encryption waits for, so the eight look-ups are XORed as two
/// chains of four — one starting from `leaf`, which is ready early — joined by a
/// rotation (the second half of the tables is stored pre-rotated). Written as one XOR
/// expression, LLVM turns it into a single chain of eight dependent XORs; the rotation
/// keeps the two chains apart.
#[inline(always)]
fn f_into(leaf: u64, x: u64) -> u64 {
    let a = leaf
        ^ SP[0][(x >> 56) as usize]
        ^ SP[1][(x >> 48) as u8 as usize]
        ^ SP[2][(x >> 40) as u8 as usize]
        ^ SP[3][(x >> 32) as u8 as usize];
    let b = SP[4][(x >> 24) as u8 as usize]
        ^ SP[5][(x >> 16) as u8 as usize]
        ^ SP[6][(x >> 8) as u8 as usize]
        ^ SP[7][x as u8 as usize];
    a ^ b.rotate_left(32)
}

/// The F-function (RFC 3713 §2.4.1).
#[inline(always)]
fn f(input: u64, key: u64) -> u64 {
    f_into(0, input ^ key)
}

/// Six Feistel rounds with the subkeys `kk` in the order used: `d2 ^= F(d1, kk[0])`,
/// `d1 ^= F(d2, kk[1])`, and so on. Each F works on the half already XORed with its
/// subkey, and the next half-plus-subkey enters the F's XOR tree as an early leaf, so no
/// XOR with a subkey sits on the critical path.
#[inline(always)]
fn six_rounds(d1: u64, d2: u64, kk: [u64; 6]) -> (u64, u64) {
    let a = d1 ^ kk[0];
    let b = f_into(d2 ^ kk[1], a); // new d2 ^ kk1
    let a = f_into(a ^ (kk[0] ^ kk[2]), b); // new d1 ^ kk2
    let b = f_into(b ^ (kk[1] ^ kk[3]), a); // new d2 ^ kk3
    let a = f_into(a ^ (kk[2] ^ kk[4]), b); // new d1 ^ kk4
    let b = f_into(b ^ (kk[3] ^ kk[5]), a); // new d2 ^ kk5
    let a = f_into(a ^ kk[4], b); // new d1
    (a, b ^ kk[5])
}

/// FL (RFC 3713 §2.4.2).
#[inline(always)]
fn fl(x: u64, k: u64) -> u64 {
    let (mut x1, mut x2) = ((x >> 32) as u32, x as u32);
    let (k1, k2) = ((k >> 32) as u32, k as u32);
    x2 ^= (x1 & k1).rotate_left(1);
    x1 ^= x2 | k2;
    (u64::from(x1) << 32) | u64::from(x2)
}

/// FL⁻¹ (RFC 3713 §2.4.3).
#[inline(always)]
fn flinv(y: u64, k: u64) -> u64 {
    let (mut y1, mut y2) = ((y >> 32) as u32, y as u32);
    let (k1, k2) = ((k >> 32) as u32, k as u32);
    y1 ^= y2 | k2;
    y2 ^= (y1 & k1).rotate_left(1);
    (u64::from(y1) << 32) | u64::from(y2)
}

/// Encrypts one block (16 bytes) with the subkeys `k` (`RK` = 26 or 34).
#[inline]
pub(crate) fn encrypt<const RK: usize>(k: &[u64; RK], block: &[u8]) -> [u8; 16] {
    let (a, b) = block.split_at(8);
    let mut d1 = u64::from_be_bytes(a.try_into().expect("8 bytes")) ^ k[0];
    let mut d2 = u64::from_be_bytes(b.try_into().expect("8 bytes")) ^ k[1];
    // (RK - 2) / 8 groups of six rounds, FL/FL^-1 between them.
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
    d2 ^= k[RK - 2];
    d1 ^= k[RK - 1];
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&d2.to_be_bytes());
    out[8..].copy_from_slice(&d1.to_be_bytes());
    out
}

/// Decrypts one block (16 bytes) with the subkeys `k` (`RK` = 26 or 34).
#[inline]
pub(crate) fn decrypt<const RK: usize>(k: &[u64; RK], block: &[u8]) -> [u8; 16] {
    let (a, b) = block.split_at(8);
    let mut d1 = u64::from_be_bytes(a.try_into().expect("8 bytes")) ^ k[RK - 2];
    let mut d2 = u64::from_be_bytes(b.try_into().expect("8 bytes")) ^ k[RK - 1];
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
    d1 ^= k[1];
    d2 ^= k[0];
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&d2.to_be_bytes());
    out[8..].copy_from_slice(&d1.to_be_bytes());
    out
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
