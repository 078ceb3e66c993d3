//! Pure Rust implementation of the [Data Encryption Standard][DES] (DES),
//! including [Triple DES] (TDES, 3DES) block ciphers: a drop-in replacement for
//! RustCrypto's `des` 0.9 with the same public API, a fast table-driven portable
//! backend and bitsliced SIMD backends chosen at run time.
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
//! Chosen once per key at construction: the one forced by `--cfg des_backend="…"`, else
//! the best this CPU supports (first in the table that it has).
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | bitsliced on `zmm` | `des_backend="avx512"` | x86-64 with AVX-512F and AVX-512VL | 512 |
//! | bitsliced on `ymm` | `des_backend="avx2"` | x86-64 with AVX2 | 256 |
//! | bitsliced on NEON `v` | `des_backend="neon"` | aarch64 with NEON (every aarch64 Linux, Apple and Windows CPU) | 128 |
//! | SSLeay-style tables | `des_backend="soft"` | every target (also 32-bit and big-endian) | 4 |
//!
//! The bitsliced backends hold one bit of 512 (256) blocks per register: a 64×64 bit
//! transpose turns the blocks into 64 bit planes, IP, E and P become free renamings of
//! planes, each S-box is a network of three-input logic gates (`vpternlogd` on AVX-512)
//! or of AND/OR/XOR/ANDN gates (AVX2), found by the crate's `tools/sboxes` search, and
//! Triple DES runs all 48
//! rounds before transposing back. They take full batches; what is left (and single
//! blocks, and CBC encryption, which is serial) goes to the `soft` code.
//!
//! `neon` (aarch64) is the same code on 128-bit registers: 128 blocks per batch, the
//! AND/OR/XOR/and-not networks of AVX2 (NEON's `BIC` is the and-not; it has no
//! three-input LUT), and `BSL` bit selects in the transpose. Chosen over `soft` from
//! the algorithm, with instruction counts from the release disassembly and Arm's
//! Neoverse N1 timings as LLVM's `AArch64SchedNeoverseN1.td` encodes them — an
//! **estimate, not a measurement** (no aarch64 hardware was available; qemu timings
//! mean nothing):
//!
//! | single DES, per block | instructions | vector logic / shift | loads | stores | N1 bound (est.) |
//! |---|---|---|---|---|---|
//! | `neon` batch (128 blocks) | 123 | 74 | 19 | 6 | ~46 cycles (2 V pipes; `LD1R` and `STR q` also take V slots) |
//! | `soft` (`u64` tables, 4 blocks interleaved) | 670 | 0 | 213 | 10 | ~168 cycles (4-wide decode; 444 ALU ops on 3 pipes) |
//!
//! About 3.6× on N1; Neoverse V1 and Apple cores have four 128-bit vector pipes, which
//! favours the batch more. The rounds are 60 vector operations per block (402 gates
//! for the eight S-boxes, 48 key XORs, 32 XORs into the other half, per 128 blocks per
//! round; counted with the previous circuits, today's have 382 gates); the transposes 14. Calls of fewer than 40 blocks (estimated break-even, the
//! row's `blocks`) stay on `soft`. The `des/neon` bench measures it on a real arm64
//! host. Details in `src/backends/neon.rs`.
//!
//! # Security
//!
//! - `soft` is **table-based and not constant-time**: its S-box (and key schedule)
//!   look-ups use addresses that depend on key and data, as SSLeay's and OpenSSL's DES do.
//! - `avx2`, `avx512` and `neon` process full batches in constant time (bitsliced: only
//!   bitwise operations, no data- or key-dependent addresses or branches), and derive
//!   their round keys in constant time too (rotations and PC-2 as a mask-OR in vector
//!   registers, checked under valgrind by `cargo xtask ct`); the blocks they hand to
//!   `soft` (tails shorter than a batch, single blocks, CBC encryption) are table-based.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), key and data secret, whole
//! batches: `avx2` and `avx512` (DES and TDES) pass the timing test (dudect, fixed vs
//! random key and data) and the disassembly scan of the batch kernels and the round-key
//! derivation (no secret-dependent branch or address, no table load or gather); `avx2`
//! also valgrind memcheck. The scan finds the table look-ups of the `soft` tail inlined
//! into the batch backends' entry points, as documented above.
//!
//! `neon` (aarch64): `batch_v` and `key_schedule` pass the disassembly scan of `cargo
//! xtask ct` over the aarch64 release build (cross-compiled with rustc 1.96; issue 24),
//! and `des-crypt`'s scan covers `crypt_batch`. Read by hand too: the round code is
//! straight-line vector logic; its loads and stores address the state at offsets fixed
//! by the loop counters and the constant plane tables (in `des-crypt`'s batch also the
//! salted E table: the salt is public); every branch tests a loop counter, the pass
//! parity or a slice length; the key schedule is a `CMLT`/`AND`/`ORR` mask-OR with no
//! table load. The timing test and valgrind have not run on aarch64.
//!
//! DES has a 56-bit key and a 64-bit block and is broken by exhaustive search; Triple
//! DES has a 64-bit block (see Sweet32). [`weak_key_test`] reports the weak, semi-weak
//! and possibly-weak keys as RustCrypto's `des` does; key construction does not reject
//! them. With the `zeroize` feature, the key schedules are overwritten with zeros on drop.
//!
//! # Configuration
//!
//! `--cfg des_backend="soft"`, `"avx2"`, `"avx512"` or (aarch64) `"neon"` (in `RUSTFLAGS` or
//! `.cargo/config.toml`) uses that backend instead of detecting one. Every backend stays
//! compiled; a forced backend the CPU lacks panics with a clear message at key setup.
//!
//! # Examples
//! ```
//! use des::TdesEde3;
//! use des::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let cipher = TdesEde3::new(&Array::from([7u8; 24]));
//! let mut blocks = [Array::from([42u8; 8]); 1000];
//! cipher.encrypt_blocks(&mut blocks); // in parallel on the SIMD backends
//! cipher.decrypt_blocks(&mut blocks);
//! assert!(blocks.iter().all(|b| *b == Array::from([42u8; 8])));
//! ```
//!
//! [DES]: https://en.wikipedia.org/wiki/Data_Encryption_Standard
//! [Triple DES]: https://en.wikipedia.org/wiki/Triple_DES

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

#[cfg(test)]
extern crate std;

mod backends;
mod weak_key;

#[doc(hidden)]
pub use backends::__backends;
#[doc(hidden)]
pub use backends::__crypt;

pub use weak_key::{WeakKeyError, weak_key_test};

use backends::{Keys, soft};
use cipher::{
    AlgorithmName, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut, Key,
    KeyInit, KeySizeUser, ParBlocksSizeUser,
    array::Array,
    consts::{U1, U8, U16, U24},
};
use core::fmt;

/// A DES block.
pub(crate) type Block = Array<u8, U8>;

macro_rules! define_des {
    (
        $(#[$doc:meta])*
        $name:ident, $keys:literal, $key_size:ty, $debug:literal,
        enc = $enc:expr, dec = $dec:expr $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            keys: Keys<$keys>,
        }

        impl $name {
            /// The DES passes of encryption: (key index, decrypt?) in order.
            const ENC: soft::Passes<{ $enc.len() }> = $enc;
            /// The DES passes of decryption.
            const DEC: soft::Passes<{ $dec.len() }> = $dec;

            /// A cipher around an existing key schedule (for `__backends`).
            pub(crate) fn from_keys(keys: Keys<$keys>) -> Self {
                Self { keys }
            }
        }

        impl KeySizeUser for $name {
            type KeySize = $key_size;
        }

        impl KeyInit for $name {
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                Self {
                    keys: Keys::new(backends::detect(), key),
                }
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = U8;
        }

        impl ParBlocksSizeUser for $name {
            type ParBlocksSize = U1;
        }

        impl BlockCipherEncrypt for $name {
            #[inline]
            fn encrypt_with_backend(
                &self,
                f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>,
            ) {
                self.keys.encrypt(&Self::ENC, f)
            }
        }

        impl BlockCipherEncBackend for $name {
            #[inline]
            fn encrypt_block(&self, block: InOut<'_, '_, cipher::Block<Self>>) {
                soft::crypt1(&self.keys.ks, &Self::ENC, block)
            }
        }

        impl BlockCipherDecrypt for $name {
            #[inline]
            fn decrypt_with_backend(
                &self,
                f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>,
            ) {
                self.keys.decrypt(&Self::DEC, f)
            }
        }

        impl BlockCipherDecBackend for $name {
            #[inline]
            fn decrypt_block(&self, block: InOut<'_, '_, cipher::Block<Self>>) {
                soft::crypt1(&self.keys.ks, &Self::DEC, block)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($debug)
            }
        }

        impl AlgorithmName for $name {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }

        #[cfg(feature = "zeroize")]
        impl cipher::zeroize::ZeroizeOnDrop for $name {}
    };
}

define_des!(
    /// Data Encryption Standard (DES) block cipher.
    Des, 1, U8, "Des { ... }",
    enc = [(0, false)],
    dec = [(0, true)],
);

impl Drop for Des {
    fn drop(&mut self) {
        // The key schedule zeroizes itself (feature `zeroize`); this impl is kept for
        // parity with RustCrypto's `Des`.
    }
}

define_des!(
    /// Triple DES (3DES) block cipher.
    // RustCrypto's des 0.9.0 prints `TdesEee3` for `TdesEde3`; kept for drop-in parity.
    TdesEde3, 3, U24, "TdesEee3 { ... }",
    enc = [(0, false), (1, true), (2, false)],
    dec = [(2, true), (1, false), (0, true)],
);

define_des!(
    /// Triple DES (3DES) block cipher.
    TdesEee3, 3, U24, "TdesEee3 { ... }",
    enc = [(0, false), (1, false), (2, false)],
    dec = [(2, true), (1, true), (0, true)],
);

define_des!(
    /// Triple DES (3DES) block cipher.
    TdesEde2, 2, U16, "TdesEde2 { ... }",
    enc = [(0, false), (1, true), (0, false)],
    dec = [(0, true), (1, false), (0, true)],
);

define_des!(
    /// Triple DES (3DES) block cipher.
    TdesEee2, 2, U16, "TdesEee2 { ... }",
    enc = [(0, false), (1, false), (0, false)],
    dec = [(0, true), (1, true), (0, true)],
);
