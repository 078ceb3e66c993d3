//! Pure Rust implementation of the [Advanced Encryption Standard][AES]
//! (AES, a.k.a. Rijndael): a drop-in replacement for RustCrypto's `aes` 0.9 with the same
//! public API, faster SIMD backends chosen at run time, and a constant-time portable one.
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
//! Chosen once per key at construction: the one forced by `--cfg aes_backend="…"`, else
//! the best this CPU supports (first in the table that it has).
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | VAES on `ymm` | `aes_backend="vaes256"` | x86/x86-64 with AES-NI, AVX2 and VAES | 16 |
//! | VAES on `zmm` | `aes_backend="vaes512"` | x86/x86-64 with AES-NI, AVX-512F and VAES | 32 |
//! | AES-NI on `xmm` | `aes_backend="aesni"` | x86/x86-64 with AES-NI and SSSE3 | 8 |
//! | fixsliced on `ymm` | `aes_backend="avx2"` | x86/x86-64 with AVX2 (no AES-NI) | 16 |
//! | ARMv8 AES on NEON | `aes_backend="armv8"` | aarch64 with the AES extension (`aes`: AES and PMULL) | 8 |
//! | fixsliced portable Rust | `aes_backend="soft"` | every target (also 32-bit and big-endian) | 4 |
//!
//! On CPUs with AVX-512, `vaes512` is as fast as `vaes256` for long messages and slower
//! for short ones (measured; see the crate README), so detection picks `vaes256`; force
//! `vaes512` for cores with two full 512-bit AES units. The wide backends hand the blocks that do not fill a batch to the narrower paths
//! (`zmm` → `ymm` → `xmm`). The `soft` backend is [fixslicing] (Adomnicai and Peyrin,
//! TCHES 2021) with the Boyar–Peralta S-box circuit on 64-bit words, four blocks at a
//! time; `avx2` runs the same rounds on the four 64-bit lanes of `ymm` registers (sixteen
//! blocks, bitsliced AES in vector registers as Käsper and Schwabe proposed, CHES 2009),
//! for CPUs with AVX2 but no AES instructions; it is about 2.8× `soft` there.
//!
//! On aarch64, `armv8` runs `AESE`/`AESMC` (`AESD`/`AESIMC` to decrypt) on 8 blocks at a
//! time; detection asks the OS (`getauxval(AT_HWCAP)` on Linux and Android; every Apple
//! aarch64 CPU has it) and falls back to `soft` only on cores without the AES extension
//! (e.g. some Cortex-A53/A55 parts, Raspberry Pi 4). Elsewhere (other OSes) it is used
//! when the build enables the `aes` target feature.
//!
//! # Security
//!
//! Every backend is designed to run in constant time:
//! - `aesni`, `vaes256`, `vaes512`, `armv8`: the AES round instructions take the same
//!   time whatever the data and key; no table is used, key expansion included.
//! - `soft` and `avx2`: bitsliced — only bitwise operations, shifts and rotations by constants, no
//!   look-up table and no branch or index that depends on data or key, in the key
//!   schedule too (its S-boxes use the same circuit).
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), key and data secret:
//! - `aesni`, `vaes256`, `vaes512`: the timing test (dudect, fixed vs random key and data)
//!   and the disassembly scan (no secret-dependent branch or address, no table load);
//!   `aesni` also under valgrind memcheck;
//! - `soft`, `avx2`: valgrind memcheck and the timing test. The disassembly scan reports
//!   findings it cannot rule out (`soft`: every 64-bit load of bitsliced code counts as
//!   secret, pointers too; `avx2`: a tail's jump table on a spilled block counter); valgrind,
//!   which runs both, finds no secret-dependent branch or address.
//! - `armv8` (aarch64), key expansion included: the disassembly scan of the aarch64
//!   release build (cross-compiled with rustc 1.96); the timing test and valgrind need
//!   an aarch64 host and have not run on one.
//!
//! With the `zeroize` feature, the key schedules are overwritten with zeros on drop.
//!
//! # Configuration
//!
//! - `--cfg aes_backend="soft"` (as in RustCrypto's `aes`), or `"avx2"`, `"aesni"`,
//!   `"vaes256"`, `"vaes512"`, `"armv8"`: use that backend instead of detecting one. Every backend stays
//!   compiled; a forced backend the CPU lacks panics with a clear message at key setup.
//!   With `soft` or `avx2` forced, [`hardware_accelerated`] returns `false` (no AES
//!   instructions run), as RustCrypto's `aes` does for `soft`.
//! - `--cfg aes_backend_soft="compact"` (RustCrypto's switch for a smaller `soft`
//!   backend) is accepted; this crate's `soft` backend already keeps the rounds in a loop,
//!   so the flag changes nothing.
//!
//! Set them with `RUSTFLAGS` (e.g. `RUSTFLAGS='--cfg aes_backend="soft"'`) or in
//! `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use aes::Aes128;
//! use aes::cipher::{Array, BlockCipherEncrypt, BlockCipherDecrypt, KeyInit};
//!
//! let key = Array::from([0u8; 16]);
//! let mut block = Array::from([42u8; 16]);
//!
//! // Initialize cipher
//! let cipher = Aes128::new(&key);
//!
//! let block_copy = block;
//!
//! // Encrypt block in-place
//! cipher.encrypt_block(&mut block);
//!
//! // And decrypt it back
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, block_copy);
//!
//! // Implementation supports parallel block processing. Number of blocks
//! // processed in parallel depends in general on hardware capabilities.
//! // This is achieved by instruction-level parallelism (ILP) on a single
//! // CPU core, which is different from multi-threaded parallelism.
//! let mut blocks = [block; 100];
//! cipher.encrypt_blocks(&mut blocks);
//!
//! for block in blocks.iter_mut() {
//!     cipher.decrypt_block(block);
//!     assert_eq!(block, &block_copy);
//! }
//!
//! // `decrypt_blocks` also supports parallel block processing.
//! cipher.decrypt_blocks(&mut blocks);
//!
//! for block in blocks.iter_mut() {
//!     cipher.encrypt_block(block);
//!     assert_eq!(block, &block_copy);
//! }
//! ```
//!
//! For implementation of block cipher modes of operation see
//! [`block-modes`] repository.
//!
//! [AES]: https://en.wikipedia.org/wiki/Advanced_Encryption_Standard
//! [fixslicing]: https://eprint.iacr.org/2020/1123.pdf
//! [`block-modes`]: https://github.com/RustCrypto/block-modes/

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use cipher;

#[cfg(feature = "hazmat")]
pub mod hazmat;

mod backends;

#[doc(hidden)]
pub use backends::__backends;

use backends::Keys;
use cipher::{
    AlgorithmName, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncClosure,
    BlockCipherEncrypt, BlockSizeUser, Key, KeyInit, KeySizeUser,
    array::Array,
    consts::{U16, U24, U32},
};
use core::fmt;

/// 128-bit AES block
pub type Block = Array<u8, U16>;

/// Returns `true` if this crate can use AES hardware acceleration on the current machine.
///
/// This is a runtime check performed on the machine where the code is executed.
///
/// ```
/// if aes::hardware_accelerated() {
///     println!("AES hardware acceleration is available");
/// } else {
///     println!("WARNING: using software fallback for AES");
/// }
/// ```
pub fn hardware_accelerated() -> bool {
    backends::hardware_accelerated()
}

macro_rules! common_impls {
    ($name:ident, $rounds:literal) => {
        impl $name {
            /// A cipher around an existing key schedule (for `__backends`).
            #[allow(dead_code)]
            pub(crate) fn from_keys(keys: Keys<$rounds>) -> Self {
                Self { keys }
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = U16;
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> Result<(), fmt::Error> {
                f.write_str(concat!(stringify!($name), " { .. }"))
            }
        }

        impl AlgorithmName for $name {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }

        impl Drop for $name {
            #[inline]
            fn drop(&mut self) {
                #[cfg(feature = "zeroize")]
                self.keys.zeroize();
            }
        }

        #[cfg(feature = "zeroize")]
        impl zeroize::ZeroizeOnDrop for $name {}
    };
}

macro_rules! impl_key_init {
    ($name:ident, $key_size:ty) => {
        impl KeySizeUser for $name {
            type KeySize = $key_size;
        }

        impl KeyInit for $name {
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                Self {
                    keys: Keys::new(backends::detect(), key.as_slice()),
                }
            }
        }
    };
}

macro_rules! impl_encrypt {
    ($name:ident) => {
        impl BlockCipherEncrypt for $name {
            #[inline]
            fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
                self.keys.encrypt(f)
            }
        }
    };
}

macro_rules! impl_decrypt {
    ($name:ident) => {
        impl BlockCipherDecrypt for $name {
            #[inline]
            fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
                self.keys.decrypt(f)
            }
        }
    };
}

macro_rules! impl_from_enc {
    ($name:ident, $name_enc:ident) => {
        impl From<&$name_enc> for $name {
            #[inline]
            fn from(enc: &$name_enc) -> $name {
                Self {
                    keys: enc.keys.clone(),
                }
            }
        }

        impl From<$name_enc> for $name {
            #[inline]
            fn from(enc: $name_enc) -> $name {
                Self::from(&enc)
            }
        }
    };
}

macro_rules! define_aes_impl {
    (
        name = $name:ident,
        name_enc = $name_enc:ident,
        name_dec = $name_dec:ident,
        rounds = $rounds:literal,
        key_size = $key_size:ident,
        doc = $doc:expr,
    ) => {
        #[doc=$doc]
        #[doc = "block cipher"]
        #[derive(Clone)]
        pub struct $name {
            keys: Keys<$rounds>,
        }

        common_impls!($name, $rounds);
        impl_key_init!($name, $key_size);
        impl_encrypt!($name);
        impl_decrypt!($name);
        impl_from_enc!($name, $name_enc);

        #[doc=$doc]
        #[doc = "block cipher (encrypt-only)"]
        #[derive(Clone)]
        pub struct $name_enc {
            keys: Keys<$rounds>,
        }

        common_impls!($name_enc, $rounds);
        impl_key_init!($name_enc, $key_size);
        impl_encrypt!($name_enc);

        #[doc=$doc]
        #[doc = "block cipher (decrypt-only)"]
        #[derive(Clone)]
        pub struct $name_dec {
            keys: Keys<$rounds>,
        }

        common_impls!($name_dec, $rounds);
        impl_key_init!($name_dec, $key_size);
        impl_decrypt!($name_dec);
        impl_from_enc!($name_dec, $name_enc);
    };
}

define_aes_impl!(
    name = Aes128,
    name_enc = Aes128Enc,
    name_dec = Aes128Dec,
    rounds = 11,
    key_size = U16,
    doc = "AES-128",
);
define_aes_impl!(
    name = Aes192,
    name_enc = Aes192Enc,
    name_dec = Aes192Dec,
    rounds = 13,
    key_size = U24,
    doc = "AES-192",
);
define_aes_impl!(
    name = Aes256,
    name_enc = Aes256Enc,
    name_dec = Aes256Dec,
    rounds = 15,
    key_size = U32,
    doc = "AES-256",
);
