//! Pure Rust implementation of the [Twofish] block cipher: a drop-in replacement for
//! RustCrypto's `twofish` 0.8 with the same public API, key-dependent table code and
//! SIMD backends chosen at run time.
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
//! Chosen once per key at construction: the one forced by `--cfg twofish_backend="…"`,
//! else the first in the table that this CPU has and does not avoid.
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | byte-sliced, `vpermi2b` + `gf2p8affineqb` on `zmm` | `twofish_backend="gfni_avx512"` | x86-64 with AVX2, AVX-512F/BW/VBMI and GFNI | 64 (word-per-lane 32 and 16 below 37) |
//! | `vpgatherdd` on `zmm` (not on `slow-gather` CPUs) | `twofish_backend="avx512"` | x86-64 with AVX2 and AVX-512F | 32 |
//! | `ymm` rounds, scalar look-ups | `twofish_backend="avx2"` | x86-64 with AVX2 | 16 |
//! | portable table code | `twofish_backend="soft"` | every target (also 32-bit and big-endian) | 3 |
//!
//! The key schedule folds the key-dependent S-boxes and the MDS matrix into four
//! 256-entry tables of 32-bit words (4 KiB per key), so the round function `g` is four
//! table look-ups and three XORs. `soft` runs three blocks interleaved; `avx2` and
//! `avx512` hold one 32-bit word of 8 or 16 blocks per register, two sets of registers
//! interleaved; `avx512` does the look-ups with `vpgatherdd`, `avx2` with scalar loads
//! (the CPUs that pick `avx2` all have slow or mitigated gathers, and on Zen 4 a gather
//! variant was no faster; see `src/backends/avx2.rs`). On CPUs with AVX-512 VBMI the
//! `avx512` and `gfni_avx512` key schedules build the tables with byte permutes, 64 entries at
//! a time. `gfni_avx512` keeps the four key-dependent 8→8 S-boxes in registers (`vpermi2b`) and
//! holds 64 blocks byte-sliced: sixteen registers, each one byte of every block, so an
//! S-box look-up serves 64 bytes and the MDS multiplication is two `gf2p8affineqb` per
//! input byte (multiplication by a constant in Twofish's field, mod x⁸+x⁶+x⁵+x³+1, is
//! linear). Leftovers of fewer than 37 blocks run its word-per-lane code (16 blocks a
//! register, the MDS through `gf2p8mulb` and an isomorphism with the AES field). On AMD
//! Zen 4, 8 KiB ECB, it does 1.73 TSC cycles per byte against `avx512`'s 6.47 (the
//! word-per-lane code alone: 2.97); it is chosen first wherever the CPU has it. On an
//! Intel Xeon with fast gathers (family 6 model 207, 2026-12-06, medians of three runs)
//! it does 1.76 against `avx512`'s 2.91 and `soft`'s 5.89. The wide backends hand the blocks that
//! do not fill a batch to the narrower ones (`zmm` → `ymm` → `soft`).
//!
//! On aarch64 (and every target but x86) `soft` runs. NEON has no gather, and its table
//! instruction `TBL` indexes at most four registers (64 bytes). The four key-dependent
//! 8→8 S-boxes of a byte-sliced design are 1 KiB, 64 registers' worth against NEON's 32,
//! so each look-up of 16 bytes would stream a 256-byte table through the load pipes:
//! eight per round, 128 `q` loads per block (≥ 64 cycles on Neoverse N1's two load
//! pipes). Without GFNI the MDS multiplications become two nibble `TBL`s per input
//! byte and constant, about 110 vector instructions per block, and with the look-ups,
//! the plane carries of the PHT and the rotations about 250 in all: ≈ 125 cycles on
//! N1's two vector pipes, against about 30 scalar instructions per `soft` round (eight
//! loads of the folded tables), ≈ 480 per block, ≈ 160 cycles at three a cycle. That
//! margin (≈ 1.3×, more on four-pipe cores such as Neoverse V1) is within the error of
//! so rough an estimate and was not built; it is the one table cipher where a NEON
//! backend might pay, and needs a real aarch64 machine to decide.
//!
//! # Security
//!
//! Twofish's S-boxes depend on the key, and table code indexes key-dependent tables with
//! data bytes:
//! - `soft`, `avx2`, `avx512`: **not constant time.** `soft` and `avx2` load from the
//!   4 KiB key-dependent tables at data-dependent addresses, `avx512` does the same with
//!   `vpgatherdd`; cache-timing and gather side channels can leak key and data bits to an
//!   attacker who shares the core or its caches. The single-block calls (and so CBC
//!   encryption) use the `soft` code on every backend.
//! - `gfni_avx512` (detected wherever the CPU has it): constant time for bulk calls —
//!   the S-boxes are whole `zmm` registers indexed by `vpermi2b`, the MDS products are
//!   `gf2p8affineqb`/`gf2p8mulb`, no memory access or branch depends on data or key.
//!   But its key schedule computes the subkeys with scalar look-ups indexed by key
//!   bytes, and blocks that do not fill a batch of 16, and single-block calls, run the
//!   `soft` code: only the processing of whole batches of 16 blocks is protected.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24): `gfni_avx512`'s 64-block passes
//! pass the timing test (dudect, fixed vs random data), and the disassembly scan finds
//! no secret-dependent branch or address in the byte-sliced kernel (`pass`, kept out of
//! line for that). The word-per-lane code that runs leftovers of 16 to 36 blocks has no
//! target of its own in either check.
//!
//! RustCrypto's `twofish` 0.8.0 computes the S-boxes on the fly with data-dependent
//! indexing into small tables, so it is not constant time either.
//!
//! With the `zeroize` feature, the key schedule is overwritten with zeros on drop.
//!
//! # Configuration
//!
//! `--cfg twofish_backend="soft"`, `"avx2"`, `"avx512"` or `"gfni_avx512"`: use that backend
//! instead of detecting one. Every backend stays compiled; a forced backend the CPU lacks panics
//! with a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg twofish_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use twofish::Twofish;
//! use twofish::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let cipher = Twofish::new_from_slice(&[0u8; 16]).unwrap();
//! let mut block = Array::from([42u8; 16]);
//! let copy = block;
//! cipher.encrypt_block(&mut block);
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, copy);
//!
//! // Many blocks at once use the wide backends.
//! let mut blocks = [copy; 100];
//! cipher.encrypt_blocks(&mut blocks);
//! cipher.decrypt_blocks(&mut blocks);
//! assert!(blocks.iter().all(|b| *b == copy));
//! ```
//!
//! [Twofish]: https://en.wikipedia.org/wiki/Twofish

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

use backends::Keys;
use cipher::{
    AlgorithmName, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut,
    InvalidLength, Key, KeyInit, KeySizeUser, ParBlocksSizeUser,
    array::Array,
    consts::{U1, U16, U32},
};
use core::fmt;

#[cfg(feature = "zeroize")]
use cipher::zeroize::ZeroizeOnDrop;

/// A Twofish block.
pub(crate) type Block = Array<u8, U16>;

/// Twofish block cipher
#[derive(Clone)]
pub struct Twofish {
    keys: Keys,
}

impl Twofish {
    /// A cipher around an existing key schedule (for `__backends`).
    pub(crate) fn from_keys(keys: Keys) -> Self {
        Self { keys }
    }
}

impl KeySizeUser for Twofish {
    type KeySize = U32;
}

impl KeyInit for Twofish {
    #[inline]
    fn new(key: &Key<Self>) -> Self {
        Self::new_from_slice(key).unwrap()
    }

    #[inline]
    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        match key.len() {
            16 | 24 | 32 => Ok(Self {
                keys: Keys::new(backends::detect(), key),
            }),
            _ => Err(InvalidLength),
        }
    }
}

impl BlockSizeUser for Twofish {
    type BlockSize = U16;
}

/// One block: the single-block calls of the public type (as in RustCrypto's `twofish`);
/// bulk calls get a wide backend through [`BlockCipherEncrypt::encrypt_with_backend`].
impl ParBlocksSizeUser for Twofish {
    type ParBlocksSize = U1;
}

impl BlockCipherEncrypt for Twofish {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        self.keys.encrypt(f)
    }
}

impl BlockCipherEncBackend for Twofish {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, cipher::Block<Self>>) {
        self.keys.tables().encrypt_one(block)
    }
}

impl BlockCipherDecrypt for Twofish {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        self.keys.decrypt(f)
    }
}

impl BlockCipherDecBackend for Twofish {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, cipher::Block<Self>>) {
        self.keys.tables().decrypt_one(block)
    }
}

impl fmt::Debug for Twofish {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Twofish { ... }")
    }
}

impl AlgorithmName for Twofish {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Twofish")
    }
}

impl Drop for Twofish {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.keys.zeroize();
    }
}

#[cfg(feature = "zeroize")]
impl ZeroizeOnDrop for Twofish {}
