//! Pure Rust implementation of the [IDEA] block cipher: a drop-in replacement for
//! RustCrypto's `idea` 0.6 with the same public API, SIMD backends chosen at run time, and
//! a constant-time portable one.
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
//! Chosen once per key at construction: the one forced by `--cfg idea_backend="…"`, else
//! the best this CPU supports (first in the table that it has).
//!
//! | backend | cfg value | CPU | blocks in flight |
//! |---|---|---|---|
//! | AVX-512 on `zmm`, 16-bit lanes | `idea_backend="avx512"` | x86-64 with AVX-512F and AVX-512BW | 64 (2 × 32) |
//! | AVX2 on `ymm`, 16-bit lanes | `idea_backend="avx2"` | x86/x86-64 with AVX2 | 32 (2 × 16) |
//! | NEON on `q` registers, 16-bit lanes | `idea_backend="neon"` | aarch64 (every AArch64 CPU has NEON) | 32 (4 × 8) |
//! | portable Rust | `idea_backend="soft"` | every target (also 32-bit and big-endian) | 4 (interleaved) |
//!
//! The SIMD backends hold word *i* of 16 (`ymm`) or 32 (`zmm`) blocks in one register and
//! multiply modulo 2<sup>16</sup>+1 with `vpmullw`/`vpmulhuw` (low and high halves of the
//! product, `lo − hi + borrow`, and a masked fix-up for the operand 0 that stands for
//! 2<sup>16</sup>). They speed up everything that has several blocks at once: ECB, CTR and
//! CBC decryption. CBC encryption is serial by nature and runs `soft`'s code on every
//! backend: through this workspace's `cbc`, its own loop (`src/backends/soft.rs`,
//! `cbc_encrypt`), with the chain in four words in registers, so bytes are converted only
//! beside it (8 KiB on the Intel Xeon, one interleaved run each: 1.08–1.09× RustCrypto's
//! `idea` with the one-block code, 1.11–1.12× with the loop); through other modes, the
//! one-block code. A wide backend hands its tail to the narrower paths (`zmm` →
//! `ymm`, then one padded `ymm` batch), and a call or tail of fewer than 4 blocks runs the
//! `soft` one-block code: the SIMD subkeys are broadcast only when a call first needs them,
//! so a short message never pays for them (the `blocks` of the `avx2` row in
//! `src/backends.rs`).
//!
//! On aarch64, `neon` holds word *i* of 8 blocks in a `q` register and runs four such
//! groups; the multiplication is the same formula with `UMULL`/`UMULL2` and `UZP1`/`UZP2`
//! for the low and high halves of the products. It issues 67 instructions per block
//! against `soft`'s 619 (counted in the release build's disassembly, `encrypt_blocks`): an
//! estimated ≈ 6× `soft`'s throughput on Neoverse N1 and ≈ 9× on Neoverse V1, from the
//! cores' published issue widths (Arm's Software Optimization Guides as LLVM's scheduling
//! models encode them). No aarch64 figure here is measured (the only aarch64 this ran on
//! is qemu); the reasoning is in `src/backends/neon.rs`. Calls and tails of fewer than 4
//! blocks run `soft`, as on x86.
//!
//! # Security
//!
//! Every backend is designed to run in constant time:
//! - `soft`: the multiplication modulo 2<sup>16</sup>+1 is branch-free (the zero operand is
//!   handled with a mask, not a branch, unlike RustCrypto's `idea` 0.6.0); there is no table
//!   and no data- or key-dependent index or branch. The key schedule's multiplicative
//!   inverse (extended Euclid, once, of the product of the 18 multiplier keys) runs a
//!   data-dependent number of steps: key setup is not constant-time, as in the release.
//! - `avx2`, `avx512`, `neon`: only lane-wise SIMD arithmetic, compares into masks and
//!   blends; no table, no data-dependent branch or address. Their calls of fewer than 4
//!   blocks run `soft`'s code, which is constant-time too.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), data secret (the key schedule
//! is not constant-time): `soft`, `avx2` and `avx512` pass the timing test (dudect,
//! fixed vs random data) and the disassembly scan (no secret-dependent branch or
//! address, no table load); `soft` and `avx2` also valgrind memcheck. `neon` and `soft`
//! pass the disassembly scan of `cargo xtask ct` over the aarch64 release build
//! (cross-compiled with rustc 1.96; issue 24); the timing test and valgrind need an
//! aarch64 host and have not run on one.
//!
//! With the `zeroize` feature, the key schedules are overwritten with zeros on drop.
//!
//! # Configuration
//!
//! `--cfg idea_backend="soft"`, `"avx2"`, `"avx512"` or `"neon"`: use that backend
//! instead of detecting one. Every backend of the target's architecture stays compiled; a forced backend the CPU lacks panics with
//! a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg idea_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use idea::Idea;
//! use idea::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let key = Array::from([0u8; 16]);
//! let mut block = Array::from([42u8; 8]);
//! let cipher = Idea::new(&key);
//!
//! let block_copy = block;
//! cipher.encrypt_block(&mut block);
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, block_copy);
//!
//! // Many blocks at once run on the SIMD backends.
//! let mut blocks = [block; 100];
//! cipher.encrypt_blocks(&mut blocks);
//! cipher.decrypt_blocks(&mut blocks);
//! assert!(blocks.iter().all(|b| b == &block_copy));
//! ```
//!
//! [IDEA]: https://en.wikipedia.org/wiki/International_Data_Encryption_Algorithm

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
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut, Key,
    KeyInit, KeySizeUser, ParBlocksSizeUser,
    consts::{U1, U8, U16},
};
use core::fmt;

#[cfg(feature = "zeroize")]
use cipher::zeroize::{Zeroize, ZeroizeOnDrop};

/// One 64-bit block, for the backends.
pub(crate) type Blk = cipher::array::Array<u8, U8>;

/// Number of 16-bit subkeys: 6 per round for 8 rounds, and 4 for the output transform.
pub(crate) const LENGTH_SUB_KEYS: usize = 52;

/// The International Data Encryption Algorithm (IDEA) block cipher.
#[derive(Clone)]
pub struct Idea {
    enc_keys: [u16; LENGTH_SUB_KEYS],
    dec_keys: [u16; LENGTH_SUB_KEYS],
    backend: Backend,
}

impl Idea {
    /// A cipher for `key` that runs on `backend` (for `__backends`).
    pub(crate) fn with_backend(key: &[u8; 16], backend: Backend) -> Self {
        let enc_keys = soft::expand_key(key);
        let dec_keys = soft::invert_sub_keys(&enc_keys);
        Self {
            enc_keys,
            dec_keys,
            backend,
        }
    }
}

impl KeySizeUser for Idea {
    type KeySize = U16;
}

impl KeyInit for Idea {
    fn new(key: &Key<Self>) -> Self {
        Self::with_backend(&key.0, backends::detect())
    }
}

impl BlockSizeUser for Idea {
    type BlockSize = U8;
}

impl ParBlocksSizeUser for Idea {
    type ParBlocksSize = U1;
}

impl BlockCipherEncrypt for Idea {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        backends::encrypt(self.backend, &self.enc_keys, f)
    }
}

impl BlockCipherEncBackend for Idea {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt(block, &self.enc_keys);
    }
}

impl BlockCipherDecrypt for Idea {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        backends::decrypt(self.backend, &self.dec_keys, f)
    }
}

impl BlockCipherDecBackend for Idea {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt(block, &self.dec_keys);
    }
}

impl fmt::Debug for Idea {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Idea { ... }")
    }
}

impl AlgorithmName for Idea {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Idea")
    }
}

impl Drop for Idea {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            self.enc_keys.zeroize();
            self.dec_keys.zeroize();
        }
    }
}

#[cfg(feature = "zeroize")]
impl ZeroizeOnDrop for Idea {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subkeys of RustCrypto's `idea` 0.6.0 unit test (key 0001 0002 … 0008).
    #[test]
    #[rustfmt::skip]
    fn test_sub_key_generation() {
        let key: [u8; 16] = [
            0x00, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x04,
            0x00, 0x05, 0x00, 0x06, 0x00, 0x07, 0x00, 0x08,
        ];
        let enc_keys: [u16; 52] = [
            0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0007, 0x0008,
            0x0400, 0x0600, 0x0800, 0x0a00, 0x0c00, 0x0e00, 0x1000, 0x0200,
            0x0010, 0x0014, 0x0018, 0x001c, 0x0020, 0x0004, 0x0008, 0x000c,
            0x2800, 0x3000, 0x3800, 0x4000, 0x0800, 0x1000, 0x1800, 0x2000,
            0x0070, 0x0080, 0x0010, 0x0020, 0x0030, 0x0040, 0x0050, 0x0060,
            0x0000, 0x2000, 0x4000, 0x6000, 0x8000, 0xa000, 0xc000, 0xe001,
            0x0080, 0x00c0, 0x0100, 0x0140,
        ];
        let dec_keys: [u16; 52] = [
            0xfe01, 0xff40, 0xff00, 0x659a, 0xc000, 0xe001, 0xfffd, 0x8000,
            0xa000, 0xcccc, 0x0000, 0x2000, 0xa556, 0xffb0, 0xffc0, 0x52ab,
            0x0010, 0x0020, 0x554b, 0xff90, 0xe000, 0xfe01, 0x0800, 0x1000,
            0x332d, 0xc800, 0xd000, 0xfffd, 0x0008, 0x000c, 0x4aab, 0xffe0,
            0xffe4, 0xc001, 0x0010, 0x0014, 0xaa96, 0xf000, 0xf200, 0xff81,
            0x0800, 0x0a00, 0x4925, 0xfc00, 0xfff8, 0x552b, 0x0005, 0x0006,
            0x0001, 0xfffe, 0xfffd, 0xc001,
        ];
        let idea = Idea::new_from_slice(&key).unwrap();
        assert_eq!(&idea.enc_keys[..], &enc_keys[..]);
        assert_eq!(&idea.dec_keys[..], &dec_keys[..]);
    }
}
