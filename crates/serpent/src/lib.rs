//! Pure Rust implementation of the [Serpent] block cipher: a drop-in replacement for
//! RustCrypto's `serpent` 0.6 with the same public API, word-sliced SIMD backends chosen at
//! run time, and a constant-time bitsliced portable one.
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
//! Chosen once per key at construction: the one forced by `--cfg serpent_backend="…"`,
//! else the best this CPU supports (first in the table that it has).
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | word-sliced on `zmm`, `vpternlogd` S-boxes | `serpent_backend="avx512"` | x86/x86-64 with AVX-512F and AVX-512VL | 32 |
//! | word-sliced on `ymm` | `serpent_backend="avx2"` | x86/x86-64 with AVX2 | 16 |
//! | word-sliced on NEON `q` registers | `serpent_backend="neon"` | aarch64 (every AArch64 CPU has NEON) | 16 |
//! | bitsliced portable Rust | `serpent_backend="soft"` | every target (also 32-bit and big-endian) | 1 |
//!
//! All backends compute the S-boxes as Boolean networks on whole words: `soft` and `avx2`
//! use Dag Arne Osvik's AND/OR/XOR/NOT networks ("Speeding up Serpent", 2000), `avx512`
//! depth-2 networks of three-input `vpternlogd` gates (9–12 per S-box, 10.75 on average,
//! found by an exhaustive search over Shannon-style decompositions; see
//! `src/backends/avx512.rs`). The SIMD backends transpose 4×4 blocks of 32-bit words so
//! that each lane of a vector register holds one block ("word slicing"): a `ymm` register
//! holds one word of eight blocks, a `zmm` one word of sixteen, and two such sets run
//! interleaved. Blocks that do not fill a batch are padded into one (the padding is
//! computed and thrown away), unless they are fewer than the backend's table row says a
//! padded pass is worth (2 on `avx2`, 4 on `avx512`). Those, and single blocks (CBC
//! encryption), run one-block code: the portable one, or on `avx512` the same
//! `vpternlogd` networks on `xmm` registers. On Zen 3 a 16-byte `encrypt_blocks` took 660
//! TSC cycles as a padded `avx2` pass and takes 420 this way (serpent 0.6.0: 425).
//! On AMD CPUs, whose `zmm` operations run as two 256-bit halves (Zen 4), `avx512` runs
//! 2–8 leftover blocks in one padded `ymm` pass and encrypts a single block with the
//! portable code: 16-byte calls then take 357–366 TSC cycles against serpent 0.6.0's
//! 391–416 (ECB, CTR, CBC), and 64-byte ECB 479 against 1487 (`cargo run --release -p
//! speed --bin small 16 64 serpent`; the figures per block count are in
//! `src/backends/avx512.rs`).
//!
//! On aarch64, `neon` is the same word slicing with four blocks per `q` register: `LD4`
//! and `ST4` do the 4×4 transpose with the loads and stores, and four sets (16 blocks)
//! run interleaved. It issues 359 instructions per block against `soft`'s 1166 (counted
//! in the release build's disassembly, `encrypt_blocks`): an estimated ≈ 2× `soft`'s
//! throughput on Neoverse N1 and ≈ 3× on Neoverse V1, from the cores' published issue
//! widths (Arm's Software Optimization Guides as LLVM's scheduling models encode them).
//! No aarch64 figure here is measured (the only aarch64 this ran on is qemu); the
//! reasoning is in `src/backends/neon.rs`. One or two blocks run `soft`, three leftover
//! blocks one padded 4-block pass.
//!
//! # Security
//!
//! Every backend is designed to run in constant time: only bitwise operations, shifts and
//! rotations by constants and fixed shuffles; no look-up table and no branch or memory
//! index that depends on the data or the key (the key schedule uses the same S-box
//! networks, on 32-bit words). This holds for `soft`, `avx2`, `avx512` and `neon` alike;
//! the only data-independent branches are on the message length (batch and tail sizes),
//! which is public.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), key and data secret: `soft`,
//! `avx2` and `avx512` pass the timing test (dudect, fixed vs random key and data) and
//! the disassembly scan (no secret-dependent branch or address, no table load); `soft`
//! and `avx2` also valgrind memcheck. `neon` is constant-time by construction (the same
//! networks, `LD4`/`ST4` and shifts by constants; its single blocks run `soft`): it and
//! `soft` pass the disassembly scan of the aarch64 release build (cross-compiled with
//! rustc 1.96); the timing test and valgrind need an aarch64 host and have not run on
//! one.
//!
//! With the `zeroize` feature, the round keys are overwritten with zeros on drop.
//!
//! # Configuration
//!
//! `--cfg serpent_backend="soft"`, `"avx2"`, `"avx512"` or `"neon"`: use that backend
//! instead of detecting one. Every backend of the target's architecture stays compiled; a
//! forced backend the CPU lacks panics with a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg serpent_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use serpent::Serpent;
//! use serpent::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let cipher = Serpent::new_from_slice(&[0x42; 32]).unwrap();
//! let mut block = Array::from([7u8; 16]);
//! let copy = block;
//! cipher.encrypt_block(&mut block);
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, copy);
//!
//! // Many blocks at once go through the SIMD backends.
//! let mut blocks = [copy; 100];
//! cipher.encrypt_blocks(&mut blocks);
//! cipher.decrypt_blocks(&mut blocks);
//! assert!(blocks.iter().all(|b| *b == copy));
//! ```
//!
//! [Serpent]: https://en.wikipedia.org/wiki/Serpent_(cipher)

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use cipher;

mod backends;

#[doc(hidden)]
pub use backends::__backends;

use backends::{Backend, RoundKeys};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut,
    InvalidLength, KeyInit, KeySizeUser, ParBlocksSizeUser,
    consts::{U1, U16},
};
use core::fmt;

#[cfg(feature = "zeroize")]
use cipher::zeroize::{Zeroize, ZeroizeOnDrop};

/// Serpent block cipher.
#[derive(Clone)]
pub struct Serpent {
    round_keys: RoundKeys,
    backend: Backend,
}

impl Serpent {
    /// A cipher with round keys for `key` (16..=32 bytes) that runs on `backend`.
    fn with_backend(key: &[u8], backend: Backend) -> Result<Self, InvalidLength> {
        if key.len() < 16 || key.len() > 32 {
            return Err(InvalidLength);
        }
        Ok(Serpent {
            round_keys: backends::round_keys(key),
            backend,
        })
    }
}

impl KeySizeUser for Serpent {
    type KeySize = U16;
}

impl KeyInit for Serpent {
    fn new(key: &cipher::Key<Self>) -> Self {
        Self::new_from_slice(key).unwrap()
    }

    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        Self::with_backend(key, backends::detect())
    }
}

impl BlockSizeUser for Serpent {
    type BlockSize = U16;
}

/// One block at a time, as in RustCrypto's `serpent`; the closures of
/// [`BlockCipherEncrypt::encrypt_with_backend`] get this crate's wide backend instead.
impl ParBlocksSizeUser for Serpent {
    type ParBlocksSize = U1;
}

impl BlockCipherEncrypt for Serpent {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        backends::encrypt(self.backend, &self.round_keys, f)
    }
}

impl BlockCipherEncBackend for Serpent {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        backends::encrypt_block(self.backend, &self.round_keys, block)
    }
}

impl BlockCipherDecrypt for Serpent {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        backends::decrypt(self.backend, &self.round_keys, f)
    }
}

impl BlockCipherDecBackend for Serpent {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        backends::decrypt_block(self.backend, &self.round_keys, block)
    }
}

impl fmt::Debug for Serpent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Serpent { ... }")
    }
}

impl AlgorithmName for Serpent {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Serpent")
    }
}

impl Drop for Serpent {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.round_keys.zeroize();
    }
}

#[cfg(feature = "zeroize")]
impl ZeroizeOnDrop for Serpent {}
