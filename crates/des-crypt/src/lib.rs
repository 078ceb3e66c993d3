//! The Unix DES `crypt(3)` family in Rust: a successor to FreeSec's libcrypt.
//!
//! - [`crypt`]: traditional DES crypt (`SShhhhhhhhhhh`: 2 salt characters, 25
//!   iterations, the key truncated to 8 bytes, each byte shifted left one bit) and BSDi
//!   extended crypt (`_CCCCSSSShhhhhhhhhhh`: 24-bit iteration count, 24-bit salt, keys
//!   longer than 8 bytes folded in by encrypting the key with itself and XORing the next
//!   8 bytes in);
//! - [`verify`]: recomputes and compares in constant time over the hash string;
//! - [`crypt_many`]: many hashes at once, on the bitsliced AVX-512/AVX2/NEON DES of the `des`
//!   crate (one key per bit lane, the salt as a swap of E-expansion outputs);
//!   [`crypt_many_hashes`]: the same, each result an inline [`CryptHash`] (no allocation
//!   per hash); [`crypt_keys`]: many keys under one setting, without an allocation per
//!   hash;
//! - the legacy interfaces: [`Encrypt`] (`setkey`/`encrypt`, the 64-element bit arrays)
//!   and [`DesCipher`] (`des_setkey`/`des_cipher`).
//!
//! ```
//! assert_eq!(des_crypt::crypt(b"test", "ab").unwrap(), "abgOeLfPimXQo");
//! assert_eq!(des_crypt::crypt(b"test", "_J9..abcd").unwrap(), "_J9..abcdx/cgK8gMibw");
//! assert!(des_crypt::verify(b"test", "abgOeLfPimXQo"));
//! ```
//!
//! # ⚠️ Security
//!
//! DES crypt is broken: 56-bit keys, 12 bits of salt, 8 significant characters; this
//! crate exists to read old password files and to test password crackers' speed. The
//! single-hash path ([`crypt`], [`verify`], [`DesCipher`]) uses table look-ups whose
//! addresses depend on the key (not constant time); [`crypt_many`]'s bitsliced batches
//! are constant time. [`verify`] compares the result in constant time.
//!
//! `cargo xtask ct` checks the batches of the `avx2` and `avx512` backends
//! ([`crypt_keys`], secret passwords) with the timing test (dudect, fixed vs random
//! keys) and the disassembly scan of the bitsliced DES kernels (no secret-dependent
//! branch or address, no table load), on AMD Zen 4 (issue 24). The `neon` batch
//! (aarch64) is bitsliced the same way and constant time by construction; its kernel
//! (`des::backends::neon::crypt_batch`, with `batch_v` and the key schedule) passes the
//! disassembly scan of `cargo xtask ct` over the aarch64 release build (cross-compiled
//! with rustc 1.96; issue 24): key planes are loaded at constant offsets, the only
//! data-derived addresses come from the salted E table (the salt is public), and every
//! branch tests a loop counter or a length. The timing test has not run on aarch64.
//!
//! # Keys
//!
//! Keys are byte strings as C sees them: the key ends at its first NUL byte (as it
//! would in `crypt(3)`), high-bit bytes are fine (the shift drops their top bit, as C
//! does).
//!
//! # Settings and errors
//!
//! | setting | ours | libxcrypt 4.4 `crypt()` (checked by `tests/libxcrypt.rs`) |
//! |---|---|---|
//! | `ab`, `abgOeLfPimXQo` (2..=13 characters of `./0-9A-Za-z`) | traditional hash | same hash |
//! | `_J9..abcd`, `_J9..abcdx/cgK8gMibw` (9..=20 characters) | BSDi hash | same hash |
//! | `_....abcd` (count 0) | 1 iteration, as libxcrypt | 1 iteration (FreeSec returned NULL) |
//! | empty, `a`, `_J9.` | [`Error::TooShort`] | `"*0"`, `errno = EINVAL` |
//! | `a!`, `!a`, `_J9..ab!d`, non-ASCII | [`Error::InvalidChar`] | `"*0"`, `EINVAL` |
//! | `*0`, `*1` (failure tokens) | [`Error::InvalidChar`] | `"*1"` for a setting starting `*0`, else `"*0"`; `EINVAL` |
//! | more than 13 (traditional) / 20 (BSDi) characters | [`Error::TooLong`] | hashes the first 2 / 9 (trailing characters ignored if printable ASCII other than `!*:;\`) |
//! | more than 13 characters (traditional) and a key of more than 8 bytes | [`Error::TooLong`] | libxcrypt's bigcrypt: the traditional hash, then 11 characters per further 8 key bytes (not implemented here) |
//! | `ab-` (non-alphabet character after the salt) | [`Error::InvalidChar`] | hash, trailing characters ignored |
//! | `$1$…`, `$2b$…`, `$5$…`, `$6$…`, `$y$…` | [`Error::NotDesCrypt`] | hashes with that method if compiled in, else `"*0"`/`EINVAL` |
//!
//! glibc before libxcrypt returned NULL (and set `EINVAL`) for an invalid salt;
//! libxcrypt returns a failure token that never verifies. Ours returns `Err`, never
//! panics, and never a string a failure token could equal.
//!
//! # Backends
//!
//! [`crypt_many`] groups its inputs by (salt, count) and runs each group through the
//! widest batch this CPU has; groups smaller than [`BATCH_MIN`] and other CPUs use the
//! portable code. Forced with `--cfg des_crypt_backend="…"` (panics if the CPU lacks it).
//! The DES code itself lives in the `des` crate (its hidden `__crypt` module).
//!
//! | backend | cfg value | CPU | hashes per batch |
//! |---|---|---|---|
//! | `avx512` | `des_crypt_backend="avx512"` | x86-64 with AVX-512F and AVX-512VL | 512 |
//! | `avx2` | `des_crypt_backend="avx2"` | x86-64 with AVX2 | 256 |
//! | `neon` | `des_crypt_backend="neon"` | aarch64 with NEON | 128 |
//! | `soft` | `des_crypt_backend="soft"` | everything | 1 (table DES with the salt swap) |
//!
//! The batches are bitsliced and constant time; `soft` (and every single hash) is
//! table-based and not (see Security above). The batch backends are compiled for x86-64
//! and aarch64 only: on other targets every hash takes the portable path.
//!
//! `neon` runs `des`'s bitsliced core on 128-bit registers (two-input S-box networks,
//! NEON has no three-input gate). Why it pays on aarch64 — an estimate from instruction
//! counts and Arm's Neoverse N1 timings (LLVM's `AArch64SchedNeoverseN1.td`), not a
//! measurement. The release disassembly of the batch kernel has 971 vector logic
//! instructions and 72 `q` stores (each also two vector micro-ops on N1) per two rounds
//! of 128 hashes: ~560 vector micro-ops per round on N1's two vector pipes, ≈ 280
//! cycles, so 25 × 16 rounds ≈ 112 000 cycles per batch, ~870 per hash. One portable
//! hash is 400 dependent table rounds (40 instructions each, a load-to-use chain of
//! ~10 cycles): ≈ 4 000 cycles. About 4.6× per hash on a full batch; a batch costs
//! about 28 single hashes, so groups of [`BATCH_MIN`] (16) to ~28 hashes are estimated
//! to run slower on `neon` than on `soft` (up to ~1.7× at 16): `BATCH_MIN` is one
//! constant for every backend, measured on x86.
//!
//! # Configuration
//!
//! - `--cfg des_crypt_backend="soft"`, `"avx2"`, `"avx512"` or (aarch64) `"neon"` (in `RUSTFLAGS` or
//!   `.cargo/config.toml`): run [`crypt_many`] and [`crypt_keys`] on that backend instead
//!   of detecting one. Every backend stays compiled; a forced backend the CPU lacks
//!   panics with a clear message.
//! - No Cargo features: the crate is `no_std` and needs `alloc`.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

extern crate alloc;

mod backends;
mod legacy;

use alloc::{string::String, vec, vec::Vec};
use core::fmt;

pub use backends::__backends;
pub use legacy::{DesCipher, Encrypt};

/// The crypt alphabet: value `v` is `ALPHABET[v]`.
pub const ALPHABET: &[u8; 64] = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Fewest hashes sharing a salt (and count) that [`crypt_many`] and [`crypt_keys`] hand
/// to a bitsliced batch; smaller groups take the single-hash path. About the break-even
/// measured here: a whole batch costs as much as ~15 (AVX-512, 512 lanes) to ~19 (AVX2,
/// 256 lanes) single hashes, however few of its lanes are used.
pub const BATCH_MIN: usize = 16;

/// Why a setting (or a legacy call) was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The setting names another method (`$1$`, `$2b$`, `$5$`, `$6$`, `$y$`, …): it is not
    /// DES crypt.
    NotDesCrypt,
    /// Shorter than the format needs: 2 characters (traditional) or 9 (`_` + count + salt).
    TooShort {
        /// The setting's length in bytes.
        len: usize,
        /// The length the format needs at least.
        min: usize,
    },
    /// Longer than a full hash of the format: 13 characters (traditional) or 20 (BSDi).
    TooLong {
        /// The setting's length in bytes.
        len: usize,
        /// The longest setting of the format.
        max: usize,
    },
    /// A byte outside `./0-9A-Za-z` where the format needs one of those.
    InvalidChar {
        /// Its position in the setting.
        pos: usize,
        /// The byte.
        byte: u8,
    },
    /// `des_cipher` with a count of 0 (FreeSec's `do_des` returns 1).
    ZeroCount,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::NotDesCrypt => f.write_str(
                "not DES crypt: the setting starts with `$` (a modular crypt format of another method)",
            ),
            Error::TooShort { len, min } => {
                write!(f, "setting too short: {len} bytes, DES crypt needs at least {min}")
            }
            Error::TooLong { len, max } => {
                write!(f, "setting too long: {len} bytes, a DES crypt hash has at most {max}")
            }
            Error::InvalidChar { pos, byte } => write!(
                f,
                "invalid character {:?} at position {pos}: DES crypt salts and hashes use ./0-9A-Za-z",
                char::from(byte)
            ),
            Error::ZeroCount => f.write_str("des_cipher: count must not be 0"),
        }
    }
}

impl core::error::Error for Error {}

/// The value of crypt alphabet character `c`.
#[inline]
fn value(c: u8) -> Option<u32> {
    Some(match c {
        b'.'..=b'9' => c - b'.',
        b'A'..=b'Z' => c - b'A' + 12,
        b'a'..=b'z' => c - b'a' + 38,
        _ => return None,
    } as u32)
}

/// A parsed setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Setting {
    /// 12-bit (traditional) or 24-bit (BSDi) salt.
    salt: u32,
    /// DES iterations (25 for traditional).
    count: u32,
    /// BSDi extended (`_` prefix): long keys are folded.
    ext: bool,
}

impl Setting {
    fn parse(s: &str) -> Result<Setting, Error> {
        let b = s.as_bytes();
        if b.first() == Some(&b'$') {
            return Err(Error::NotDesCrypt);
        }
        let ext = b.first() == Some(&b'_');
        let (min, max) = if ext { (9, 20) } else { (2, 13) };
        let start = usize::from(ext);
        // Report the first bad character before the length, as C would read it.
        let mut v = [0u32; 8];
        for (pos, &byte) in b.iter().enumerate().skip(start).take(max - start) {
            let x = value(byte).ok_or(Error::InvalidChar { pos, byte })?;
            if pos < min {
                v[pos - start] = x;
            }
        }
        if b.len() < min {
            return Err(Error::TooShort { len: b.len(), min });
        }
        if b.len() > max {
            return Err(Error::TooLong { len: b.len(), max });
        }
        Ok(if ext {
            let count = v[0] | v[1] << 6 | v[2] << 12 | v[3] << 18;
            Setting {
                salt: v[4] | v[5] << 6 | v[6] << 12 | v[7] << 18,
                // libxcrypt runs a count of 0 as 1 (FreeSec refused it).
                count: count.max(1),
                ext,
            }
        } else {
            Setting {
                salt: v[0] | v[1] << 6,
                count: 25,
                ext,
            }
        })
    }
}

/// The first 8 bytes of the C string `key` (it ends at its first NUL) shifted left one
/// bit, zero-padded; and whether the key goes on past them. Word-at-a-time: the bytes
/// load as one little-endian `u64` and the first NUL is found with the zero-byte test of
/// Mycroft (1987; Warren, *Hacker's Delight*, 6-1), which cannot report a zero byte below
/// the first true one.
#[inline]
fn key_block(key: &[u8]) -> ([u8; 8], bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let n = key.len();
    let x = if let Some(k) = key.first_chunk::<8>() {
        u64::from_le_bytes(*k)
    } else if n >= 4 {
        // Two overlapping 4-byte loads: the shared bytes are equal, so OR joins them.
        let lo = u32::from_le_bytes(key[..4].try_into().expect("n >= 4"));
        let hi = u32::from_le_bytes(key[n - 4..n].try_into().expect("n >= 4"));
        u64::from(lo) | u64::from(hi) << (8 * (n - 4))
    } else {
        key.iter().rev().fold(0, |x, &b| x << 8 | u64::from(b))
    };
    // High bit of each zero byte (and perhaps of bytes above the first zero byte).
    let z = x.wrapping_sub(ONES) & !x & (ONES << 7);
    // Keep the bytes below the first zero byte (all eight when there is none).
    let x = if z == 0 {
        x
    } else {
        x & ((z & z.wrapping_neg()) >> 7).wrapping_sub(1)
    };
    let more = z == 0 && n > 8 && key[8] != 0;
    (((x << 1) & !ONES).to_le_bytes(), more)
}

/// The DES key of `key` for setting `st`: BSDi folds every further 8 bytes in (encrypt
/// the key with itself, salt 0, one pass; XOR the next 8 shifted bytes).
#[inline]
fn des_key(key: &[u8], st: &Setting) -> [u8; 8] {
    let (k, more) = key_block(key);
    if st.ext && more {
        fold_key(k, &key[8..])
    } else {
        k
    }
}

/// [`des_key`]'s BSDi fold of the bytes `rest` after the first 8 into `k`: out of line,
/// so that the batch loops' common case (traditional, or keys of at most 8 bytes) keeps
/// no DES key schedule in its frame.
#[inline(never)]
fn fold_key(mut k: [u8; 8], mut rest: &[u8]) -> [u8; 8] {
    loop {
        k = des::__crypt::Key::new(&k).crypt(k, 0, 1, false);
        let (next, more) = key_block(rest);
        for (d, s) in k.iter_mut().zip(next) {
            *d ^= s;
        }
        if !more {
            return k;
        }
        rest = &rest[8..];
    }
}

/// The 11 hash characters of DES output `out` (its 64 bits, big-endian, in 6-bit groups,
/// the last one padded with two zero bits) in the low 11 bytes of a little-endian
/// `u128`, computed in registers, a byte per character:
/// - the groups are moved into bytes by halving fields (24, 12, then 6 bits) into lanes;
/// - a value `x` becomes `x + 46` (`./0-9`), `+ 53` (`A-Z`, from 12) or `+ 59` (`a-z`,
///   from 38), the comparisons as carries into each byte's top bit (`x ≤ 63`, so no
///   byte carries into the next).
///
/// No table and no byte stores. On the Intel machine, the hash assembled from bytes
/// stored one by one cost `crypt_keys` about 8 ns a hash more than this word built from
/// the same table look-ups (likely store-to-load forwarding failing when its `Vec` copy
/// reads those bytes back as wider words), and the look-ups 4 ns more than this.
#[inline]
fn chars(out: [u8; 8]) -> u128 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let v = u64::from_be_bytes(out);
    // Groups 0..8 (the top 48 bits), group 7 in byte 0, then reversed.
    let t = v >> 16;
    let t = (t & 0xFF_FFFF) | (t & 0xFFFF_FF00_0000) << 8;
    let t = (t & 0x0000_0FFF_0000_0FFF) | (t & 0x00FF_F000_00FF_F000) << 4;
    let t = (t & 0x003F_003F_003F_003F) | (t & 0x0FC0_0FC0_0FC0_0FC0) << 2;
    let first = t.swap_bytes();
    // Groups 8, 9 and 10.
    let last = (v >> 10 & 63) | (v >> 4 & 63) << 8 | (v << 2 & 63) << 16;
    let ascii = |x: u64| {
        let from12 = (x + 116 * ONES) >> 7 & ONES;
        let from38 = (x + 90 * ONES) >> 7 & ONES;
        x + 46 * ONES + 7 * from12 + 6 * from38
    };
    let last = ascii(last) & 0xFF_FFFF;
    u128::from(ascii(first)) | u128::from(last) << 64
}

/// The hash text as a `String`: the setting's prefix (checked: alphabet characters) and
/// the 11 characters of `text` (as [`chars`] makes them), pushed as `char`s (no UTF-8
/// validation pass).
fn encode(setting: &str, st: &Setting, text: u128) -> String {
    let pre = if st.ext { 9 } else { 2 };
    let mut s = String::with_capacity(pre + 11);
    s.push_str(&setting[..pre]);
    for &c in &text.to_le_bytes()[..11] {
        // `& 0x7F` (a no-op on these characters) lets `push` skip its multi-byte paths.
        s.push(char::from(c & 0x7F));
    }
    s
}

/// A DES crypt hash held inline (13 or 20 ASCII characters): what [`crypt_keys`]
/// returns, without an allocation per hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CryptHash {
    buf: [u8; 20],
    len: u8,
}

impl CryptHash {
    /// The hash text.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// The hash text as bytes (ASCII), without `as_str`'s UTF-8 check: what a C caller
    /// copies out (the check cost `simdcrypt-libcrypt`'s batch entry point about 125
    /// instructions a hash).
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }
}

impl core::ops::Deref for CryptHash {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for CryptHash {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for CryptHash {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for CryptHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for CryptHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// `crypt(3)` for traditional DES (`setting` = 2 salt characters, or a whole 13-character
/// hash) and BSDi extended DES (`_` + 4 count + 4 salt characters, or a whole
/// 20-character hash). Errors: see the crate docs' table.
///
/// ```
/// assert_eq!(des_crypt::crypt(b"test", "ab"), Ok("abgOeLfPimXQo".into()));
/// assert_eq!(des_crypt::crypt(b"x", "$1$abc"), Err(des_crypt::Error::NotDesCrypt));
/// ```
pub fn crypt(key: &[u8], setting: &str) -> Result<String, Error> {
    let st = Setting::parse(setting)?;
    let k = des::__crypt::Key::new(&des_key(key, &st));
    let out = k.crypt([0; 8], st.salt, st.count, false);
    Ok(encode(setting, &st, chars(out)))
}

/// Whether `crypt(key, hash)` is `hash`; the comparison runs in constant time over the
/// hash string (the hashing itself is not constant time, see the crate docs). A
/// malformed `hash` never verifies.
pub fn verify(key: &[u8], hash: &str) -> bool {
    let full = if hash.starts_with('_') { 20 } else { 13 };
    if hash.len() != full {
        return false;
    }
    match crypt(key, hash) {
        Ok(h) => {
            let diff = h
                .bytes()
                .zip(hash.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b));
            core::hint::black_box(diff) == 0 && h.len() == hash.len()
        }
        Err(_) => false,
    }
}

/// Many hashes at once: `out[i] = crypt(keys[i].0, keys[i].1)`, grouped by (salt, count)
/// and run through the bitsliced batches of the detected backend (see the crate docs).
///
/// ```
/// let jobs = [(&b"test"[..], "ab"), (b"other", "ab"), (b"x", "a!")];
/// let r = des_crypt::crypt_many(&jobs);
/// assert_eq!(r[0].as_deref(), Ok("abgOeLfPimXQo"));
/// assert!(r[2].is_err());
/// ```
pub fn crypt_many<K: AsRef<[u8]>, S: AsRef<str>>(jobs: &[(K, S)]) -> Vec<Result<String, Error>> {
    backends::crypt_many(backends::detect(), jobs)
}

/// [`crypt_many`] without an allocation per hash: each result is a [`CryptHash`] held
/// inline (one `Vec` for the whole call), in the order of `jobs`.
///
/// ```
/// let jobs = [(&b"test"[..], "ab"), (b"other", "_J9..abcd"), (b"x", "a!")];
/// let r = des_crypt::crypt_many_hashes(&jobs);
/// assert_eq!(r[0].unwrap(), "abgOeLfPimXQo");
/// assert_eq!(r[1].unwrap().as_str(), des_crypt::crypt(b"other", "_J9..abcd").unwrap());
/// assert!(r[2].is_err());
/// ```
pub fn crypt_many_hashes<K: AsRef<[u8]>, S: AsRef<str>>(
    jobs: &[(K, S)],
) -> Vec<Result<CryptHash, Error>> {
    backends::crypt_many(backends::detect(), jobs)
}

/// One hash result as a batch call returns it: an allocated `String` ([`crypt_many`]) or
/// an inline [`CryptHash`] ([`crypt_many_hashes`]).
pub(crate) trait HashOut: Clone {
    /// The hash text for `setting` (parsed to `st`) and the 11 characters `text` (the
    /// low bytes of the little-endian word, as [`chars`] makes them).
    fn make(setting: &str, st: &Setting, text: u128) -> Self;
}

impl HashOut for String {
    #[inline]
    fn make(setting: &str, st: &Setting, text: u128) -> Self {
        encode(setting, st, text)
    }
}

impl HashOut for CryptHash {
    #[inline]
    fn make(setting: &str, st: &Setting, text: u128) -> Self {
        // The prefix (2 or 9 setting characters) and the 11 characters as two words.
        let s = setting.as_bytes();
        let (lo, hi, len) = if st.ext {
            let pre = u64::from_le_bytes(s[..8].try_into().expect("BSDi settings have 9+"));
            let pre = u128::from(pre) | u128::from(s[8]) << 64;
            (pre | text << 72, (text >> 56) as u32, 20)
        } else {
            (
                u128::from(u16::from_le_bytes([s[0], s[1]])) | text << 16,
                0,
                13,
            )
        };
        let mut buf = [0; 20];
        buf[..16].copy_from_slice(&lo.to_le_bytes());
        buf[16..].copy_from_slice(&hi.to_le_bytes());
        CryptHash { buf, len }
    }
}

/// Many keys under one setting (the password-cracking shape): `out[i] = crypt(keys[i],
/// setting)`, the whole slice in bitsliced batches of the detected backend (when there
/// are at least [`BATCH_MIN`] keys), without an allocation per hash.
///
/// ```
/// let h = des_crypt::crypt_keys("ab", &["test", "other"]).unwrap();
/// assert_eq!(h[0], "abgOeLfPimXQo");
/// assert_eq!(h[1].as_str(), des_crypt::crypt(b"other", "ab").unwrap());
/// ```
pub fn crypt_keys<K: AsRef<[u8]>>(setting: &str, keys: &[K]) -> Result<Vec<CryptHash>, Error> {
    backends::crypt_keys(backends::detect(), setting, keys)
}

/// [`crypt_keys`] with the batch function of a backend (`lanes == 0`: none).
fn run_keys<K: AsRef<[u8]>>(
    setting: &str,
    keys: &[K],
    lanes: usize,
    mut batch: impl FnMut(&[[u8; 8]], u32, u32, &mut [[u8; 8]]),
) -> Result<Vec<CryptHash>, Error> {
    run_keys_with(
        setting,
        keys,
        |k| k.as_ref(),
        lanes,
        &mut batch,
        CryptHash::make,
    )
}

/// Every key of `keys` under the one `setting`, in order, through `batch` in chunks of
/// `lanes` (the single path when there is no batch or too few keys); `out` makes each
/// result from the DES output.
fn run_keys_with<J, T>(
    setting: &str,
    keys: &[J],
    key: fn(&J) -> &[u8],
    lanes: usize,
    batch: &mut impl FnMut(&[[u8; 8]], u32, u32, &mut [[u8; 8]]),
    mut out: impl FnMut(&str, &Setting, u128) -> T,
) -> Result<Vec<T>, Error> {
    let st = Setting::parse(setting)?;
    let mut res = Vec::with_capacity(keys.len());
    if lanes == 0 || keys.len() < BATCH_MIN {
        for k in keys {
            let o = des::__crypt::Key::new(&des_key(key(k), &st))
                .crypt([0; 8], st.salt, st.count, false);
            res.push(out(setting, &st, chars(o)));
        }
        return Ok(res);
    }
    // A whole batch every call: a short last one runs the keys left in `kb`.
    let mut kb = vec![[0u8; 8]; lanes];
    let mut ob = vec![[0u8; 8]; 2 * lanes];
    for part in keys.chunks(lanes) {
        for (d, k) in kb.iter_mut().zip(part) {
            *d = des_key(key(k), &st);
        }
        batch(&kb, st.salt, st.count, &mut ob);
        for i in 0..part.len() {
            res.push(out(setting, &st, lane_text(&ob, lanes, i)));
        }
    }
    for k in kb.iter_mut() {
        *k = core::hint::black_box([0; 8]);
    }
    Ok(res)
}

/// Lane `i`'s 11 characters from a batch's `text` (bytes 0..8 of every lane, then bytes
/// 8..16: `des::__crypt::crypt_batch`), as [`chars`] makes them.
#[inline]
fn lane_text(text: &[[u8; 8]], lanes: usize, i: usize) -> u128 {
    u128::from(u64::from_le_bytes(text[i])) | u128::from(u64::from_le_bytes(text[lanes + i])) << 64
}

/// [`HashOut::make`] for a job whose setting parsed to `salt` and `count`.
#[inline]
fn encode_job<T: HashOut>(setting: &str, salt: u32, count: u32, text: u128) -> T {
    let ext = setting.starts_with('_');
    T::make(setting, &Setting { salt, count, ext }, text)
}

/// Shared by every backend: parse, fold the keys, group by (salt, count) (stable), and
/// run each group through `batch` (at most `lanes` keys a call) when it has at least
/// [`BATCH_MIN`] members, else through the single path.
fn run_many<K: AsRef<[u8]>, S: AsRef<str>, T: HashOut>(
    jobs: &[(K, S)],
    lanes: usize,
    mut batch: impl FnMut(&[[u8; 8]], u32, u32, &mut [[u8; 8]]),
) -> Vec<Result<T, Error>> {
    // The common shape, one setting for every job: no grouping, results in order.
    if let Some((_, first)) = jobs.first() {
        let first = first.as_ref();
        if jobs.iter().all(|(_, s)| s.as_ref() == first) {
            return run_keys_with(
                first,
                jobs,
                |j| j.0.as_ref(),
                lanes,
                &mut batch,
                |_, st, out| Ok(T::make(first, st, out)),
            )
            .unwrap_or_else(|e| vec![Err(e); jobs.len()]);
        }
    }
    let mut res: Vec<Result<T, Error>> = vec![Err(Error::NotDesCrypt); jobs.len()];
    // (salt, count, index, key) of the well-formed jobs; `ext` is told by the setting.
    let mut ok: Vec<(u32, u32, usize, [u8; 8])> = Vec::with_capacity(jobs.len());
    // Jobs usually repeat a setting: parse each distinct run once.
    let mut last: Option<(&str, Result<Setting, Error>)> = None;
    for (i, (k, s)) in jobs.iter().enumerate() {
        let s = s.as_ref();
        let st = match last {
            Some((ls, r)) if ls == s => r,
            _ => {
                let r = Setting::parse(s);
                last = Some((s, r));
                r
            }
        };
        match st {
            Ok(st) => ok.push((st.salt, st.count, i, des_key(k.as_ref(), &st))),
            Err(e) => res[i] = Err(e),
        }
    }
    if !ok.is_sorted_by_key(|&(salt, count, i, _)| (salt, count, i)) {
        ok.sort_unstable_by_key(|&(salt, count, i, _)| (salt, count, i));
    }
    let mut keys = vec![[0u8; 8]; lanes.max(1)];
    let mut outs = vec![[0u8; 8]; 2 * lanes.max(1)];
    let mut at = 0;
    while at < ok.len() {
        let (salt, count) = (ok[at].0, ok[at].1);
        let end = at + ok[at..].partition_point(|&(s, c, _, _)| (s, c) == (salt, count));
        let group = &ok[at..end];
        if lanes == 0 || group.len() < BATCH_MIN {
            for &(_, _, i, k) in group {
                let out = des::__crypt::Key::new(&k).crypt([0; 8], salt, count, false);
                res[i] = Ok(encode_job(jobs[i].1.as_ref(), salt, count, chars(out)));
            }
        } else {
            for part in group.chunks(lanes) {
                for (d, &(_, _, _, k)) in keys.iter_mut().zip(part) {
                    *d = k;
                }
                batch(&keys, salt, count, &mut outs);
                for (l, &(_, _, i, _)) in part.iter().enumerate() {
                    let text = lane_text(&outs, lanes, l);
                    res[i] = Ok(encode_job(jobs[i].1.as_ref(), salt, count, text));
                }
            }
        }
        at = end;
    }
    for k in keys.iter_mut() {
        *k = core::hint::black_box([0; 8]);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `key_block` against the byte loop it replaced: every length up to 12, a NUL at
    /// every position or none, bytes with the high bit set.
    #[test]
    fn key_block_is_the_byte_loop() {
        fn reference(key: &[u8]) -> ([u8; 8], bool) {
            let mut k = [0u8; 8];
            for (d, &s) in k.iter_mut().zip(key) {
                if s == 0 {
                    return (k, false);
                }
                *d = s << 1;
            }
            (k, key.len() > 8 && key[8] != 0)
        }
        let mut rng = testkit::Rng::new(testkit::seed(0x6B62));
        for len in 0..=12 {
            for nul in 0..=len {
                for _ in 0..64 {
                    let mut key: Vec<u8> = (0..len).map(|_| 1 + rng.below(255) as u8).collect();
                    if nul < len {
                        key[nul] = 0;
                    }
                    assert_eq!(key_block(&key), reference(&key), "{key:02x?}");
                }
            }
        }
    }

    /// `chars` is the crypt alphabet's 6-bit encoding, for every value in every position.
    #[test]
    fn chars_are_the_alphabet() {
        let mut rng = testkit::Rng::new(testkit::seed(0xC4A5));
        let mut outs: Vec<u64> = (0..4096).map(|_| rng.next_u64()).collect();
        for v in 0..64u64 {
            outs.extend((0..10).map(|i| v << (58 - 6 * i)));
            outs.push(v >> 2);
        }
        outs.extend([0, u64::MAX]);
        for v in outs {
            let want: Vec<u8> = (0..11)
                .map(|i| {
                    let six = if i < 10 { v >> (58 - 6 * i) } else { v << 2 };
                    ALPHABET[(six & 63) as usize]
                })
                .collect();
            let got = chars(v.to_be_bytes()).to_le_bytes();
            assert_eq!(got[..11], want[..], "{v:#018x}");
            assert_eq!(got[11..], [0; 5], "{v:#018x}");
        }
    }

    #[test]
    fn parse_classes() {
        assert_eq!(Setting::parse("$1$x"), Err(Error::NotDesCrypt));
        assert_eq!(Setting::parse(""), Err(Error::TooShort { len: 0, min: 2 }));
        assert_eq!(Setting::parse("a"), Err(Error::TooShort { len: 1, min: 2 }));
        assert_eq!(
            Setting::parse("a!"),
            Err(Error::InvalidChar { pos: 1, byte: b'!' })
        );
        assert_eq!(
            Setting::parse("abcdefghijklmn"),
            Err(Error::TooLong { len: 14, max: 13 })
        );
        assert_eq!(
            Setting::parse("_J9."),
            Err(Error::TooShort { len: 4, min: 9 })
        );
        let s = Setting::parse("_J9..CCCC").unwrap();
        assert_eq!((s.count, s.ext), (725, true));
        assert_eq!(Setting::parse("_....CCCC").unwrap().count, 1);
    }
}
