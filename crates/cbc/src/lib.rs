//! [Cipher Block Chaining][1] (CBC) mode for any `cipher` 0.5 block cipher: a drop-in
//! for RustCrypto's `cbc` 0.2.1 (the same types, traits and features) that keeps the
//! block cipher's parallel speed when decrypting.
//!
//! The mode is reached through the traits of the re-exported [`cipher`] crate.
//!
//! # ⚠️ Security warning: hazmat
//!
//! CBC does not authenticate anything, and unauthenticated CBC with padding invites
//! padding-oracle attacks. Use an AEAD unless you authenticate the ciphertext yourself
//! (encrypt-then-MAC).
//!
//! # Example
//! ```
//! # #[cfg(all(feature = "block-padding", feature = "alloc"))] {
//! use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit, block_padding::Pkcs7};
//!
//! type Aes128CbcEnc = cbc::Encryptor<aes::Aes128>;
//! type Aes128CbcDec = cbc::Decryptor<aes::Aes128>;
//!
//! let key = [0x5a; 16];
//! let iv = [0xc3; 16];
//! let message = b"CBC needs whole blocks, so it pads";
//!
//! // In place: the buffer has room for the padding.
//! let mut buf = [0u8; 48];
//! buf[..message.len()].copy_from_slice(message);
//! let ct = Aes128CbcEnc::new(&key.into(), &iv.into())
//!     .encrypt_padded::<Pkcs7>(&mut buf, message.len())
//!     .unwrap();
//! assert_eq!(ct.len(), 48);
//! let pt = Aes128CbcDec::new(&key.into(), &iv.into())
//!     .decrypt_padded::<Pkcs7>(&mut buf)
//!     .unwrap();
//! assert_eq!(pt, message);
//!
//! // Allocating.
//! let ct = Aes128CbcEnc::new(&key.into(), &iv.into()).encrypt_padded_vec::<Pkcs7>(message);
//! let pt = Aes128CbcDec::new(&key.into(), &iv.into()).decrypt_padded_vec::<Pkcs7>(&ct);
//! assert_eq!(pt.unwrap(), message);
//! # }
//! ```
//!
//! # Speed
//!
//! - Decryption is parallel: each group of the cipher's `ParBlocksSize` blocks is
//!   decrypted with one backend call, straight from the input to the output, and the
//!   previous ciphertexts are XORed in from a single saved copy of the group (RustCrypto's
//!   `cbc` copies the group twice and the result once more).
//! - Encryption is one serial chain: the chaining value is XORed with stores as wide as
//!   the cipher's loads of the block (one vector for 16-byte blocks, one 64-bit word for
//!   8-byte blocks), so the load on the chain is forwarded from the store (a byte-wise
//!   XOR there costs a failed store-to-load forwarding on every block).
//!
//! # Backends
//!
//! None of its own, and no `--cfg` switch: decryption and encryption run as closures
//! inside the block cipher's backend (`decrypt_with_backend`, `encrypt_with_backend`;
//! encryption is a serial chain of single blocks there), so both use whichever backend
//! the cipher chose — with a simdcrypt cipher, the SIMD backend detected at run time,
//! and on targets without one (every non-x86 target today) the cipher's portable code.
//! This crate itself is portable Rust with `forbid(unsafe_code)`.
//!
//! # Security
//!
//! This crate adds no secret-dependent branches or memory indices. Constant-time
//! behaviour is the block cipher's; padding checks are `block-padding`'s.
//!
//! # Configuration
//!
//! Cargo features, the same as RustCrypto's `cbc` 0.2.1:
//! - `block-padding` (default): the `encrypt_padded*`/`decrypt_padded*` methods of
//!   `cipher` with every padding of the `block-padding` crate;
//! - `alloc`: the `…_vec` methods that return a new `Vec`;
//! - `zeroize`: the IV is zeroed on drop, and the modes implement `ZeroizeOnDrop` when
//!   the cipher does.
//!
//! [1]: https://en.wikipedia.org/wiki/Block_cipher_mode_of_operation#CBC

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations, missing_docs)]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod decrypt;
mod encrypt;

pub use cipher;
pub use decrypt::Decryptor;
pub use encrypt::Encryptor;

use simdcrypt_dispatch::modes::xor;

/// What `Encryptor` and `Decryptor` share: a cipher and the chaining value, and the
/// same IV, naming, `Debug` and zeroizing impls.
macro_rules! mode_common {
    ($mode:ident, $cipher_trait:ident, $label:literal) => {
        impl<C: $cipher_trait> cipher::BlockSizeUser for $mode<C> {
            type BlockSize = C::BlockSize;
        }

        impl<C: $cipher_trait> cipher::common::InnerUser for $mode<C> {
            type Inner = C;
        }

        impl<C: $cipher_trait> cipher::IvSizeUser for $mode<C> {
            type IvSize = C::BlockSize;
        }

        impl<C: $cipher_trait> cipher::InnerIvInit for $mode<C> {
            #[inline]
            fn inner_iv_init(cipher: C, iv: &cipher::Iv<Self>) -> Self {
                Self {
                    cipher,
                    iv: iv.clone(),
                }
            }
        }

        impl<C: $cipher_trait> cipher::IvState for $mode<C> {
            #[inline]
            fn iv_state(&self) -> cipher::Iv<Self> {
                self.iv.clone()
            }
        }

        impl<C: $cipher_trait> cipher::SetIvState for $mode<C> {
            #[inline]
            fn set_iv(&mut self, iv: &cipher::Iv<Self>) {
                self.iv = iv.clone();
            }
        }

        impl<C: $cipher_trait + cipher::AlgorithmName> cipher::AlgorithmName for $mode<C> {
            fn write_alg_name(f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!($label, "<"))?;
                C::write_alg_name(f)?;
                f.write_str(">")
            }
        }

        impl<C: $cipher_trait + cipher::AlgorithmName> core::fmt::Debug for $mode<C> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                <Self as cipher::AlgorithmName>::write_alg_name(f)?;
                f.write_str(" { ... }")
            }
        }

        impl<C: $cipher_trait> Drop for $mode<C> {
            fn drop(&mut self) {
                #[cfg(feature = "zeroize")]
                cipher::zeroize::Zeroize::zeroize(&mut self.iv);
            }
        }

        #[cfg(feature = "zeroize")]
        impl<C: $cipher_trait + cipher::zeroize::ZeroizeOnDrop> cipher::zeroize::ZeroizeOnDrop
            for $mode<C>
        {
        }
    };
}
use mode_common;
