//! Pure Rust implementation of the [Blowfish] block cipher: a drop-in replacement for
//! RustCrypto's `blowfish` 0.10 with the same public API (including the `bcrypt`
//! feature's functions), many blocks in flight, and SIMD backends chosen at run time.
//!
//! # ⚠️ Security Warning: Hazmat!
//!
//! This crate implements only the low-level block cipher function, and is intended
//! for use for implementing higher-level constructions *only*. It is NOT
//! intended for direct use in applications.
//!
//! USE AT YOUR OWN RISK!
//!
//! # Backends
//!
//! Chosen once per key at construction: the one forced by `--cfg blowfish_backend="…"`,
//! else the first in the table that this CPU has and does not avoid.
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | byte-sliced, `vpermi2b` S-box look-ups on `zmm` | `blowfish_backend="vbmi"` | x86-64 with AVX-512F, BW and VBMI | 64 (fewer than 40: `soft`) |
//! | 16-lane `vpgatherdd` on `zmm` (not on `slow-gather` CPUs) | `blowfish_backend="avx512"` | x86/x86-64 with AVX-512F | 64 |
//! | 8-lane `vpgatherdd` on `ymm` (not on `slow-gather` CPUs) | `blowfish_backend="avx2"` | x86/x86-64 with AVX2 | 32 |
//! | portable Rust, interleaved | `blowfish_backend="soft"` | every target (also 32-bit and big-endian) | 4 |
//!
//! `vbmi` holds 64 blocks as eight byte planes and looks the S-boxes up with `vpermi2b`
//! in 256-byte tables cut from them, so it needs no gathers. On AMD Zen 4 (8 KiB ECB, TSC
//! cycles per byte, `cargo run --release -p speed --bin auto -- 8192 blowfish`) it does
//! 1.8 against `soft` 5.4, `avx2` 6.0 and `avx512` 6.3. On Intel cores with AVX512-FP16,
//! where gathers are fast, it is first too: on an Intel Xeon (family 6 model 207,
//! 2026-12-06, medians of three runs) `vbmi` 2.64, `avx512` 2.86, `avx2` 3.10, `soft`
//! 5.53. CPUs without VBMI in the `slow-gather` class (every x86 CPU but
//! Intel's with AVX512-FP16, see `simdcrypt_dispatch::CLASSES`) run `soft`.
//!
//! The wide backends hand the blocks that do not fill a batch to the narrower paths
//! (`zmm` → `ymm` → four, two, one block of portable code); `vbmi` pads a leftover of 40
//! blocks or more to a pass and gives fewer to `soft` (a pass, with the per-call cutting
//! of the tables, costs about as much as 38 blocks of `soft`). Key schedules (and the
//! `bcrypt` functions) are portable code on every backend: they are chains of dependent
//! encryptions, bound by latency, where SIMD does not help; that code keeps the subkey
//! XOR off the critical path of each round.
//!
//! CBC encryption through this workspace's `cbc` runs a portable loop of its own
//! (`src/backends/soft.rs`, `cbc_encrypt`): the chain stays in two words in registers,
//! with the first and last subkeys folded into the one XOR that links two blocks. Intel
//! Xeon (family 6 model 207), TSC cycles per byte, one interleaved run of `cargo run
//! --release -p speed --features openssl -- --compare --cycles bf-cbc`: 11.54 at 8 KiB
//! and 11.72 at 64 B, against 12.55 and 12.58 one block at a time before, OpenSSL 3.0's
//! 12.39 and 12.83, RustCrypto's 14.26 and 14.29.
//!
//! On aarch64 (and every target but x86) `soft` runs. NEON has no gather, and its table
//! instruction `TBL` indexes at most four registers (64 bytes). A byte-sliced design like
//! `vbmi` needs sixteen 256-byte tables per key (four S-boxes × four output bytes), 256
//! registers' worth against NEON's 32, so each look-up of 16 bytes (one byte of 16
//! blocks) would stream its whole table through the load pipes and chain four `TBX`:
//! 16 such look-ups per round, so 16 `q` loads per block and round, 256 per block. On a
//! core with two load pipes (Neoverse N1) that alone is ≥ 128 cycles per block, where
//! `soft`'s round is about 13 scalar instructions (four loads), about 210 per block, ≈ 70
//! cycles at three a cycle. A rough estimate from the instruction mix, not a
//! measurement, but a factor of two against NEON.
//!
//! # Security
//!
//! **No backend is constant-time.** Blowfish's S-boxes are key-dependent tables indexed
//! by bytes of the secret state: the portable code loads `S[i][x]` with `x` secret, and
//! the `avx2`/`avx512` backends gather from the same tables with secret indices (gathers
//! touch one cache line per lane, just like scalar loads). `vbmi`'s passes (64 or 128
//! blocks, or a padded rest of 40 or more) read every table whole and branch only on
//! the block count; `cargo xtask ct` checks them (timing test with secret data, and a
//! disassembly scan of the pass kernel: no secret-dependent branch or address, on AMD
//! Zen 4, issue 24). But the same cipher runs single blocks, short calls, CBC
//! encryption and the key schedule on the portable code, so it is not constant-time as
//! a whole. An attacker who shares the
//! CPU's caches with the process can learn about keys and data from cache timing.
//! RustCrypto's `blowfish` and OpenSSL's `BF_*` have the same property.
//!
//! With the `zeroize` feature, the S-boxes and P-array are overwritten with zeros on
//! drop.
//!
//! # Configuration
//!
//! `--cfg blowfish_backend="soft"`, `"vbmi"`, `"avx2"` or `"avx512"`: use that backend instead of
//! detecting one. Every backend stays compiled; a forced backend the CPU lacks panics
//! with a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg blowfish_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use blowfish::Blowfish;
//! use blowfish::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let cipher: Blowfish = Blowfish::new_from_slice(b"a 16-byte secret").unwrap();
//! let mut blocks = [Array::from([42u8; 8]); 100];
//! // Many blocks at once: the wide backends process them in parallel.
//! cipher.encrypt_blocks(&mut blocks);
//! cipher.decrypt_blocks(&mut blocks);
//! assert!(blocks.iter().all(|b| b == &Array::from([42u8; 8])));
//! ```
//!
//! [Blowfish]: https://en.wikipedia.org/wiki/Blowfish_(cipher)

#![no_std]
#![doc(
    html_logo_url = "https://raw.githubusercontent.com/RustCrypto/media/26acc39f/logo.svg",
    html_favicon_url = "https://raw.githubusercontent.com/RustCrypto/media/26acc39f/logo.svg"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use cipher;

use backends::{Backend, State, soft};
use byteorder::{BE, ByteOrder, LE};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut,
    InvalidLength, Key, KeyInit, KeySizeUser, ParBlocksSizeUser,
    consts::{U1, U8, U56},
};
use core::fmt;
use core::marker::PhantomData;

#[cfg(feature = "zeroize")]
use cipher::zeroize::ZeroizeOnDrop;

mod backends;
mod consts;

#[doc(hidden)]
pub use backends::__backends;

/// Blowfish variant which uses Little Endian byte order read/writes.s.
pub type BlowfishLE = Blowfish<LE>;

/// Blowfish block cipher instance.
#[derive(Clone)]
pub struct Blowfish<T: ByteOrder = BE> {
    state: State,
    backend: Backend,
    _pd: PhantomData<T>,
}

/// Whether `T` is little-endian (`byteorder::ByteOrder` is sealed: `BE` or `LE`); folds
/// to a constant.
#[inline(always)]
fn is_le<T: ByteOrder>() -> bool {
    T::read_u32(&[1, 0, 0, 0]) == 1
}

impl<T: ByteOrder> Blowfish<T> {
    /// The initial state on `backend`.
    fn init_state(backend: Backend) -> Self {
        Blowfish {
            state: State::init(),
            backend,
            _pd: PhantomData,
        }
    }

    /// Keyed with `key` (4..=56 bytes) on `backend`.
    fn with_backend(backend: Backend, key: &[u8]) -> Result<Self, InvalidLength> {
        if key.len() < 4 || key.len() > 56 {
            return Err(InvalidLength);
        }
        let mut blowfish = Self::init_state(backend);
        blowfish.state.expand_key(key);
        Ok(blowfish)
    }
}

impl<T: ByteOrder> KeySizeUser for Blowfish<T> {
    type KeySize = U56;
}

impl<T: ByteOrder> KeyInit for Blowfish<T> {
    fn new(key: &Key<Self>) -> Self {
        Self::new_from_slice(&key[..]).unwrap()
    }

    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        Self::with_backend(backends::detect(), key)
    }
}

impl<T: ByteOrder> BlockSizeUser for Blowfish<T> {
    type BlockSize = U8;
}

impl<T: ByteOrder> ParBlocksSizeUser for Blowfish<T> {
    type ParBlocksSize = U1;
}

impl<T: ByteOrder> BlockCipherEncrypt for Blowfish<T> {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        if is_le::<T>() {
            backends::encrypt::<true>(self.backend, &self.state, f)
        } else {
            backends::encrypt::<false>(self.backend, &self.state, f)
        }
    }
}

impl<T: ByteOrder> BlockCipherEncBackend for Blowfish<T> {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        if is_le::<T>() {
            soft::one::<true, false>(&self.state, block)
        } else {
            soft::one::<false, false>(&self.state, block)
        }
    }
}

impl<T: ByteOrder> BlockCipherDecrypt for Blowfish<T> {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        if is_le::<T>() {
            backends::decrypt::<true>(self.backend, &self.state, f)
        } else {
            backends::decrypt::<false>(self.backend, &self.state, f)
        }
    }
}

impl<T: ByteOrder> BlockCipherDecBackend for Blowfish<T> {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        if is_le::<T>() {
            soft::one::<true, true>(&self.state, block)
        } else {
            soft::one::<false, true>(&self.state, block)
        }
    }
}

impl fmt::Debug for Blowfish<BE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Blowfish<BE> { ... }")
    }
}

impl AlgorithmName for Blowfish<BE> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Blowfish<BE>")
    }
}

impl fmt::Debug for Blowfish<LE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Blowfish<LE> { ... }")
    }
}

impl AlgorithmName for Blowfish<LE> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Blowfish<LE>")
    }
}

impl<T: ByteOrder> Drop for Blowfish<T> {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.state.zeroize();
    }
}

#[cfg(feature = "zeroize")]
impl<T: ByteOrder> ZeroizeOnDrop for Blowfish<T> {}

/// Bcrypt extension of blowfish
///
/// These run the portable key schedule (latency-bound chains of encryptions) whatever
/// the backend; `bc_encrypt` is the portable one-block function.
#[cfg(feature = "bcrypt")]
impl Blowfish<BE> {
    /// Salted expand key
    ///
    /// # Panics
    /// If `salt` or `key` is empty (as in RustCrypto's `blowfish`).
    pub fn salted_expand_key(&mut self, salt: &[u8], key: &[u8]) {
        self.state.salted_expand_key(salt, key)
    }

    /// Init state
    pub fn bc_init_state() -> Blowfish<BE> {
        Blowfish::init_state(backends::detect())
    }

    /// Encrypt
    pub fn bc_encrypt(&self, lr: [u32; 2]) -> [u32; 2] {
        self.state.encrypt(lr)
    }

    /// Expand key
    ///
    /// # Panics
    /// If `key` is empty (as in RustCrypto's `blowfish`).
    pub fn bc_expand_key(&mut self, key: &[u8]) {
        self.state.expand_key(key)
    }
}
