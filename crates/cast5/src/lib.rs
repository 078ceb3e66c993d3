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
//! `slow-gather` class of `simdcrypt_dispatch::CLASSES`) skip the gather backends.
//!
//! | backend | cfg value | CPU | blocks in flight | constant time |
//! |---|---|---|---|---|
//! | AVX-512 VBMI, S-boxes as byte tables in `vpermi2b` | `cast5_backend="vbmi"` | x86/x86-64 with AVX-512F, BW and VBMI | 128 | yes, for its passes (≥ 24 blocks, see [Security](#security)) |
//! | AVX-512 `vpgatherdd zmm` + `vprolvd` | `cast5_backend="avx512"` | x86/x86-64 with AVX2 and AVX-512F | 64 | no |
//! | AVX2 `vpgatherdd ymm` | `cast5_backend="avx2"` | x86/x86-64 with AVX2 | 16 | no |
//! | portable Rust, interleaved | `cast5_backend="soft"` | every target (also 32-bit and big-endian) | 4 | no |
//!
//! So `vbmi` runs wherever AVX-512 VBMI is present (AMD Zen 4 and later, Intel Ice Lake
//! and later), `avx512` and `avx2` on Intel CPUs with fast gathers but no VBMI (none
//! known: every AVX512-FP16 core has VBMI; they stay for forcing and comparison), and
//! `soft` everywhere else.
//!
//! The SIMD backends run many blocks at once (one block per 32-bit lane) and matter for
//! the modes that can: ECB, CTR and CBC decryption. A lone block (CBC encryption,
//! `encrypt_block`) always runs the portable one-block code, arranged for a short
//! dependency chain from one round to the next (that chain is all that CBC encryption
//! waits for). The wide backends hand the blocks that do not fill a batch to the narrower
//! paths (`zmm` → `ymm` → portable; `vbmi` pads a rest of 24 blocks or more to a pass and
//! gives shorter ones, and calls of fewer than 24 blocks, to the portable code).
//!
//! Measured on AMD Zen 4 (EPYC, 8 KiB, 16-byte key, TSC cycles per byte, one interleaved
//! run of `cargo run --release -p speed --bin auto -- 8192 cast5`): ECB 1.9 (`vbmi`),
//! 6.3 (`soft`), 6.6 (`avx512`), 7.0 (`avx2`). On the Intel reference machine (Xeon with
//! AVX-512, 8 KiB, 16-byte key, TSC cycles per byte, one interleaved run; `vbmi` not yet
//! measured there): ECB 2.8 (`avx512`), 4.3 (`avx2`), 6.7 (`soft`) against 12.5 for
//! RustCrypto's cast5 0.12.0 and 17.2 for OpenSSL 3; CTR 3.0 against 15.9; CBC
//! decryption 2.9 against 16.4; CBC encryption (one block at a time) 23.1 against 25.9
//! and OpenSSL's 21.9 (modes through the published `ctr` 0.10 and `cbc` 0.2). `cargo
//! bench -p cast5@0.12.1` repeats the comparison with RustCrypto's crate.
//!
//! Through this workspace's `cbc`, CBC encryption runs a portable loop of its own
//! (`src/backends/soft.rs`, `cbc_encrypt`) that keeps the chain in two words in
//! registers, with no byte swaps on it. Intel Xeon (family 6 model 207, 2026-12-07), 8
//! KiB, TSC cycles per byte, one interleaved run of `cargo run --release -p speed
//! --features openssl -- --compare --cycles cast-cbc`: 13.72, against 14.84 one block at
//! a time before, OpenSSL 3.0's 14.87 and RustCrypto's 15.69.
//!
//! On aarch64 (and every target but x86) `soft` runs. NEON has no gather, and its table
//! instruction `TBL` indexes at most four registers (64 bytes). CAST5's four 8→32-bit
//! S-boxes byte-sliced as in `vbmi` are sixteen 256-byte tables, 256 registers' worth
//! against NEON's 32, so each look-up of 16 bytes (one byte of 16 blocks) would stream
//! its whole table through the load pipes and chain four `TBX`: 16 such look-ups per
//! round, so 16 `q` loads per block and round, 256 per block. On a core with two load
//! pipes (Neoverse N1) that alone is ≥ 128 cycles per block, where `soft`'s round is
//! about 14 scalar instructions (four loads), about 220 per block, ≈ 75 cycles at three a
//! cycle. A rough estimate from the instruction mix, not a measurement, but a factor of
//! two against NEON.
//!
//! # Security
//!
//! CAST5 is defined by four 8×32-bit S-boxes indexed by key- and data-dependent bytes.
//!
//! **`vbmi` is constant-time in its passes**: it holds the S-boxes as 16 byte tables and
//! looks them up with `vpermi2b` (register permutes); the only memory it reads besides
//! the blocks are those tables, whole, at fixed addresses, and it has no branch on
//! secret data. What it hands to the portable code is not: calls and tails of fewer than
//! 24 blocks, single blocks (`encrypt_block`, CBC encryption) and the key schedule.
//! `cargo xtask ct` checks the passes (timing test with secret data, 128-block calls,
//! and a disassembly scan of the pass kernel: no secret-dependent branch or address, on
//! AMD Zen 4, issue 24).
//!
//! **The other backends are not constant-time.** They look the S-boxes up in memory
//! (`soft` with ordinary loads, `avx2` and `avx512` with `vpgatherdd`), so the addresses
//! touched depend on secret data and can leak through the cache and other timing side
//! channels to an attacker sharing the machine. The key schedule uses the S-boxes S5–S8
//! the same way, on every backend. This is the same exposure as RustCrypto's `cast5` and
//! OpenSSL's CAST5.
//!
//! With the `zeroize` feature, the key schedule is overwritten with zeros on drop (and the
//! temporaries of the key schedule before it returns).
//!
//! # Configuration
//!
//! `--cfg cast5_backend="soft"`, `"avx2"`, `"avx512"` or `"vbmi"`: use that backend instead of
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
