//! Pure Rust implementation of the [RC2] block cipher (RFC 2268): a drop-in replacement
//! for RustCrypto's `rc2` 0.9 with the same public API and SIMD backends chosen at run
//! time.
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
//! Chosen once per key at construction: the one forced by `--cfg rc2_backend="…"`, else
//! the best this CPU supports (first in the table that it has).
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | AVX-512 on `zmm`, 16-bit lanes | `rc2_backend="avx512"` | x86-64 with AVX-512F and AVX-512BW | 64 (2 × 32) |
//! | AVX2 on `ymm`, 16-bit lanes | `rc2_backend="avx2"` | x86/x86-64 with AVX2 | 32 (2 × 16) |
//! | NEON on `q` registers, 16-bit lanes, `TBL` look-ups | `rc2_backend="neon"` | aarch64 (every AArch64 CPU has NEON) | 32 (4 × 8) |
//! | portable Rust | `rc2_backend="soft"` | every target (also 32-bit and big-endian) | 4 |
//!
//! The SIMD backends hold word *i* of 16 (`ymm`) or 32 (`zmm`) blocks in one register. The
//! mix rounds are lane-wise (`vpternlogd` or and/and-not for the bit select, adds, rotates
//! by shifts); the mash rounds' look-ups `K[r & 63]` are `vpermi2w` over the 64 key words
//! held in two `zmm` registers on AVX-512, and scalar look-ups of the lanes on AVX2. They
//! speed up everything that has several blocks at once: ECB, CTR and CBC decryption. CBC
//! encryption is serial by nature and runs the one-block code of `soft` on every backend.
//! A wide backend hands its tail to the narrower paths, and a call or tail of fewer than 8
//! blocks runs the `soft` code, four or two blocks interleaved: the SIMD key tables are
//! broadcast only when a call first needs them, so a short message never pays for them
//! (the `blocks` of the `avx2` row in `src/backends.rs`). On Zen 4 (TSC cycles per byte,
//! one interleaved run of `cargo run --release -p speed --bin auto SIZE rc2`) four blocks
//! cost 14.6 on `soft` against 28.7 as a padded 16-block `ymm` pass, eight blocks 14.4
//! against 14.5, ten 15.1 against 11.6.
//!
//! On aarch64, `neon` holds word *i* of 8 blocks in a `q` register and runs four such
//! groups. NEON has no gather, but RC2's table is only 128 bytes: the mash look-ups are
//! `TBL`s on the table held in eight registers (two 64-byte halves; each 16-bit lane
//! builds the byte indices of its word), as Linux's `aes-neon.S` looks up the AES S-box.
//! The mash is 8 of the 72 word steps, and the 64 mix steps are a `BSL`, two adds and a
//! rotation on 8 blocks at once, so NEON pays: 60 instructions per block against
//! `soft`'s 541 (counted in the release build's disassembly, `encrypt_blocks`), an
//! estimated ≈ 5× `soft`'s throughput on Neoverse N1 and ≈ 6× on Neoverse V1 (latency
//! bound there), from the cores' published issue widths and latencies (Arm's Software
//! Optimization Guides as LLVM's scheduling models encode them). No aarch64 figure here is
//! measured (the only aarch64 this ran on is qemu); the reasoning is in
//! `src/backends/neon.rs`. Calls and tails of fewer than 4 blocks run `soft`.
//!
//! # Security
//!
//! RC2's mash rounds index the key table with data (`K[r & 63]`), so no backend is
//! constant-time in the strict sense:
//! - `soft`: the mash look-ups are loads from a 128-byte table at data-dependent addresses
//!   (two cache lines, as in RustCrypto's `rc2`); everything else is branch-free arithmetic.
//! - `avx512`: the look-ups are `vpermi2w` register permutes — no memory access depends on
//!   data, and `vpermi2w`'s timing does not depend on its indices on the cores we know of,
//!   but the index is data and this is not a documented guarantee.
//! - `avx2`: the look-ups are scalar loads at data-dependent addresses of the 128-byte
//!   key table (like `soft`'s).
//! - `neon`: the look-ups are `TBL` on registers — no memory access depends on data in
//!   its batches (as with `vpermi2w`, `TBL`'s timing not depending on its indices is what
//!   cores do, not a documented guarantee); its calls and tails of fewer than 4 blocks
//!   run `soft`, with `soft`'s table loads.
//!
//! The key schedule (RFC 2268 §2) indexes its PITABLE with key bytes. With the `zeroize`
//! feature, the key table is overwritten with zeros on drop.
//!
//! # Configuration
//!
//! `--cfg rc2_backend="soft"`, `"avx2"`, `"avx512"` or `"neon"`: use that backend
//! instead of detecting one. Every backend of the target's architecture stays compiled; a forced backend the CPU lacks panics with
//! a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg rc2_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use rc2::Rc2;
//! use rc2::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! // RFC 2268 section 5, the 128-bit key with 64 effective key bits.
//! let key = [
//!     0x88, 0xbc, 0xa9, 0x0e, 0x90, 0x87, 0x5a, 0x7f,
//!     0x0f, 0x79, 0xc3, 0x84, 0x62, 0x7b, 0xaf, 0xb2,
//! ];
//! let cipher = Rc2::new_with_eff_key_len(&key, 64);
//! let mut block = Array::from([0u8; 8]);
//! cipher.encrypt_block(&mut block);
//! assert_eq!(block, Array::from([0x1a, 0x80, 0x7d, 0x27, 0x2b, 0xbe, 0x5d, 0xb1]));
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, Array::from([0u8; 8]));
//!
//! // Keys of 1..=128 bytes (effective bits = 8 × length) through `KeyInit`.
//! let cipher = Rc2::new_from_slice(&key).unwrap();
//! let mut blocks = [block; 100];
//! cipher.encrypt_blocks(&mut blocks);
//! cipher.decrypt_blocks(&mut blocks);
//! assert!(blocks.iter().all(|b| b == &block));
//! ```
//!
//! [RC2]: https://en.wikipedia.org/wiki/RC2

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

#[doc(hidden)]
pub use backends::__backends;

use backends::{Backend, soft};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut,
    InvalidLength, Key, KeyInit, KeySizeUser, ParBlocksSizeUser,
    consts::{U1, U8, U32},
};
use core::fmt;

#[cfg(feature = "zeroize")]
use cipher::zeroize::{Zeroize, ZeroizeOnDrop};

/// One 64-bit block, for the backends.
pub(crate) type Blk = cipher::array::Array<u8, U8>;

/// A structure that represents the block cipher initialized with a key
#[derive(Clone)]
pub struct Rc2 {
    keys: [u16; 64],
    backend: Backend,
}

impl Rc2 {
    /// Create a cipher with the specified effective key length
    pub fn new_with_eff_key_len(key: &[u8], eff_key_len: usize) -> Self {
        Self::with_backend(key, eff_key_len, backends::detect())
    }

    /// A cipher for `key` that runs on `backend` (for `__backends`).
    pub(crate) fn with_backend(key: &[u8], eff_key_len: usize, backend: Backend) -> Self {
        Self {
            keys: soft::expand_key(key, eff_key_len),
            backend,
        }
    }
}

impl KeySizeUser for Rc2 {
    type KeySize = U32;
}

impl KeyInit for Rc2 {
    fn new(key: &Key<Self>) -> Self {
        Self::new_with_eff_key_len(key, key.len() * 8)
    }

    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        if key.is_empty() || key.len() > 128 {
            Err(InvalidLength)
        } else {
            Ok(Self::new_with_eff_key_len(key, key.len() * 8))
        }
    }
}

impl BlockSizeUser for Rc2 {
    type BlockSize = U8;
}

impl ParBlocksSizeUser for Rc2 {
    type ParBlocksSize = U1;
}

impl BlockCipherEncrypt for Rc2 {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        backends::encrypt(self.backend, &self.keys, f)
    }
}

impl BlockCipherEncBackend for Rc2 {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::encrypt(block, &self.keys);
    }
}

impl BlockCipherDecrypt for Rc2 {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        backends::decrypt(self.backend, &self.keys, f)
    }
}

impl BlockCipherDecBackend for Rc2 {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::decrypt(block, &self.keys);
    }
}

impl fmt::Debug for Rc2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Rc2 { ... }")
    }
}

impl AlgorithmName for Rc2 {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Rc2")
    }
}

impl Drop for Rc2 {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.keys.zeroize();
    }
}

#[cfg(feature = "zeroize")]
impl ZeroizeOnDrop for Rc2 {}
