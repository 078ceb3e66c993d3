//! Pure Rust implementation of the [CAST5] block cipher ([RFC 2144]): a drop-in
//! replacement for RustCrypto's `cast5` 0.12 with the same public API and faster
//! backends chosen at run time.
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
//! Chosen once per key at construction: the one forced by `--cfg cast5_backend="…"`,
//! else the best this CPU supports (first in the table that it has), except that CPUs
//! where gathers are slow (every x86 CPU but Intel's with AVX512-FP16, the
//! `slow-gather` class of `simdcrypt_dispatch::CLASSES`) run `soft`.
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | AVX-512 `vpgatherdd zmm` + `vprolvd` | `cast5_backend="avx512"` | x86/x86-64 with AVX2 and AVX-512F | 64 |
//! | AVX2 `vpgatherdd ymm` | `cast5_backend="avx2"` | x86/x86-64 with AVX2 | 16 |
//! | portable Rust, interleaved | `cast5_backend="soft"` | every target (also 32-bit and big-endian) | 4 |
//!
//! The SIMD backends run many blocks at once (one block per 32-bit lane) and matter for
//! the modes that can: ECB, CTR and CBC decryption. A lone block (CBC encryption,
//! `encrypt_block`) always runs the portable one-block code, arranged for a short
//! dependency chain from one round to the next (that chain is all that CBC encryption
//! waits for). The wide backends hand the blocks that do not fill a batch to the narrower
//! paths (`zmm` → `ymm` → portable).
//!
//! Measured on the reference machine (Intel Xeon with AVX-512, 8 KiB, 16-byte key, TSC
//! cycles per byte, one interleaved run): ECB 2.8 (`avx512`), 4.3 (`avx2`), 6.7 (`soft`)
//! against 12.5 for RustCrypto's cast5 0.12.0 and 17.2 for OpenSSL 3; CTR 3.0 against
//! 15.9; CBC decryption 2.9 against 16.4; CBC encryption (one block at a time) 23.1
//! against 25.9 and OpenSSL's 21.9 (modes through the published `ctr` 0.10 and `cbc`
//! 0.2). `cargo bench -p cast5@0.12.1` repeats the comparison with RustCrypto's crate.
//!
//! # Security
//!
//! **No backend is constant-time.** CAST5 is defined by four 8×32-bit S-boxes indexed
//! by key- and data-dependent bytes; every backend looks them up in memory (`soft` with
//! ordinary loads, `avx2` and `avx512` with `vpgatherdd`), so the addresses touched
//! depend on secret data and can leak through the cache and other timing side channels
//! to an attacker sharing the machine. The key schedule uses the S-boxes S5–S8 the same
//! way. This is the same exposure as RustCrypto's `cast5` and OpenSSL's CAST5.
//!
//! With the `zeroize` feature, the key schedule is overwritten with zeros on drop (and the
//! temporaries of the key schedule before it returns).
//!
//! # Configuration
//!
//! `--cfg cast5_backend="soft"`, `"avx2"` or `"avx512"`: use that backend instead of
//! detecting one. Every backend stays compiled; a forced backend the CPU lacks panics with
//! a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg cast5_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use cast5::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//! use cast5::Cast5;
//!
//! let key = Array::from([0u8; 16]);
//! let mut block = Array::from([0u8; 8]);
//! // Initialize cipher
//! let cipher = Cast5::new(&key);
//!
//! let block_copy = block;
//! // Encrypt block in-place
//! cipher.encrypt_block(&mut block);
//! // And decrypt it back
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, block_copy);
//! ```
//!
//! [CAST5]: https://en.wikipedia.org/wiki/CAST-128
//! [RFC 2144]: https://tools.ietf.org/html/rfc2144

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use cipher;

mod backends;
mod consts;

#[doc(hidden)]
pub use backends::__backends;

use backends::{Backend, Keys};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut,
    InvalidLength, Key, KeyInit, KeySizeUser, ParBlocksSizeUser,
    consts::{U1, U8, U16},
};
use core::fmt;

#[cfg(feature = "zeroize")]
use cipher::zeroize::ZeroizeOnDrop;

/// The CAST5 block cipher.
#[derive(Clone)]
pub struct Cast5 {
    keys: Keys,
    backend: Backend,
}

impl Cast5 {
    /// The cipher for a 5..=16-byte key, run by `backend`.
    fn with_backend(backend: Backend, key: &[u8]) -> Result<Self, InvalidLength> {
        // Available key sizes are 40...128 bits.
        if key.len() < 5 || key.len() > 16 {
            return Err(InvalidLength);
        }
        Ok(Cast5 {
            keys: Keys::new(key),
            backend,
        })
    }
}

impl KeySizeUser for Cast5 {
    type KeySize = U16;
}

impl KeyInit for Cast5 {
    fn new(key: &Key<Self>) -> Self {
        Self::new_from_slice(key).unwrap()
    }

    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        Self::with_backend(backends::detect(), key)
    }
}

impl BlockSizeUser for Cast5 {
    type BlockSize = U8;
}

impl ParBlocksSizeUser for Cast5 {
    type ParBlocksSize = U1;
}

impl BlockCipherEncrypt for Cast5 {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        self.backend.encrypt(&self.keys, f)
    }

    // One block never needs a wide backend: skip the dispatch (every backend runs the same
    // one-block code).
    #[inline]
    fn encrypt_block_inout(&self, block: InOut<'_, '_, Block<Self>>) {
        backends::one_block(&self.keys, block, true)
    }

    #[inline]
    fn encrypt_block(&self, block: &mut Block<Self>) {
        backends::one_block(&self.keys, block.into(), true)
    }

    #[inline]
    fn encrypt_block_b2b(&self, in_block: &Block<Self>, out_block: &mut Block<Self>) {
        backends::one_block(&self.keys, (in_block, out_block).into(), true)
    }
}

impl BlockCipherEncBackend for Cast5 {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        backends::one_block(&self.keys, block, true)
    }
}

impl BlockCipherDecrypt for Cast5 {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        self.backend.decrypt(&self.keys, f)
    }

    #[inline]
    fn decrypt_block_inout(&self, block: InOut<'_, '_, Block<Self>>) {
        backends::one_block(&self.keys, block, false)
    }

    #[inline]
    fn decrypt_block(&self, block: &mut Block<Self>) {
        backends::one_block(&self.keys, block.into(), false)
    }

    #[inline]
    fn decrypt_block_b2b(&self, in_block: &Block<Self>, out_block: &mut Block<Self>) {
        backends::one_block(&self.keys, (in_block, out_block).into(), false)
    }
}

impl BlockCipherDecBackend for Cast5 {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        backends::one_block(&self.keys, block, false)
    }
}

impl fmt::Debug for Cast5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cast5 { ... }")
    }
}

impl AlgorithmName for Cast5 {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cast5")
    }
}

impl Drop for Cast5 {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.keys.zeroize();
    }
}

#[cfg(feature = "zeroize")]
impl ZeroizeOnDrop for Cast5 {}
