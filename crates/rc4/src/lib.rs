//! Pure Rust implementation of the [RC4] stream cipher: a drop-in replacement for
//! RustCrypto's `rc4` 0.2 with the same `Rc4` type, `cipher` 0.5 traits (`KeyInit`,
//! `StreamCipher`) and `zeroize` feature, only faster.
//!
//! # 🚨 Warning: Cryptographically Broken 🚨
//!
//! RC4 is [cryptographically broken and unsuitable for further use][1]! [RFC 7465] and
//! [RFC 8758] prohibit it in TLS and SSH. This crate is provided for interoperability
//! with protocols and systems that still mandate RC4; do not rely on it for
//! confidentiality.
//!
//! # Examples
//! ```
//! use hex_literal::hex;
//! use rc4::{KeyInit, Rc4, StreamCipher};
//!
//! let mut rc4 = Rc4::new_from_slice(b"Key").unwrap();
//! let mut data = *b"Plaintext";
//! rc4.apply_keystream(&mut data);
//! assert_eq!(data, hex!("BBF316E8D940AF0AD3"));
//! ```
//!
//! `Rc4` accepts keys of 1 to 256 bytes, though short keys are insecure and real-world
//! usage typically uses 5–32 bytes (40–256 bits).
//!
//! # Backends
//!
//! | cfg value | backend | runs on | speed (8 KiB, this project's x86-64 test host) |
//! |---|---|---|---|
//! | `rc4_backend="soft"` | portable Rust, `u32` state, 8 bytes of keystream per `u64` | every target (the default and only backend) | ≈2.4–4.3 TSC cycles/byte; OpenSSL's assembly ≈4.6–6.0 on the same host |
//!
//! RC4 is serial (every byte depends on the swap before it), so there is nothing for
//! SIMD to do; the portable code is written so that the CPU can overlap consecutive
//! bytes (see `src/backends/soft.rs` for the technique and the measurements).
//!
//! # Security
//!
//! RC4 itself is broken (see the warning above). No implementation of it is constant
//! time, and neither is this one: the keystream generator reads and writes its
//! 256-entry permutation at secret-dependent indices (as in every RC4 implementation,
//! RustCrypto's and OpenSSL's included), and the `soft` backend also takes a rarely
//! taken branch when the secret index `j` equals `i + 1` (as OpenSSL's byte-state
//! code path does). Cache and branch timing can therefore leak information about the
//! state.
//!
//! # Configuration
//!
//! - Cargo feature `zeroize`: the state is zeroed when an [`Rc4`] is dropped, and
//!   [`Rc4`] implements `ZeroizeOnDrop`.
//! - `RUSTFLAGS='--cfg rc4_backend="soft"'` forces the `soft` backend. It is the only
//!   backend, so this changes nothing; the cfg exists so that every simdcrypt crate can
//!   be forced the same way.
//!
//! [RC4]: https://en.wikipedia.org/wiki/RC4
//! [1]: https://www.usenix.org/system/files/conference/usenixsecurity13/sec13-paper_alfardan.pdf
//! [RFC 7465]: https://datatracker.ietf.org/doc/html/rfc7465
//! [RFC 8758]: https://datatracker.ietf.org/doc/html/rfc8758

#![no_std]
#![doc(
    html_logo_url = "https://raw.githubusercontent.com/RustCrypto/media/8f1a9894/logo.svg",
    html_favicon_url = "https://raw.githubusercontent.com/RustCrypto/media/8f1a9894/logo.svg"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
extern crate std;

pub use cipher::{self, KeyInit, StreamCipher, consts};

use cipher::{BlockSizeUser, InOutBuf, InvalidLength, Key, KeySizeUser, StreamCipherError};

mod backends;

#[doc(hidden)]
pub use backends::__backends;

const MIN_KEY_SIZE: usize = 1;
const MAX_KEY_SIZE: usize = 256;

/// RC4 stream cipher.
pub struct Rc4 {
    state: backends::State,
    backend: backends::Backend,
}

impl Rc4 {
    /// Key schedule for a key of `MIN_KEY_SIZE..=MAX_KEY_SIZE` bytes.
    fn with_key(key: &[u8]) -> Self {
        Self {
            state: backends::State::new(key),
            backend: backends::detect(),
        }
    }
}

impl KeySizeUser for Rc4 {
    type KeySize = consts::U32;
}

impl KeyInit for Rc4 {
    #[inline]
    fn new(key: &Key<Self>) -> Self {
        Self::with_key(key)
    }

    #[inline]
    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        if key.len() < MIN_KEY_SIZE || key.len() > MAX_KEY_SIZE {
            return Err(InvalidLength);
        }
        Ok(Self::with_key(key))
    }
}

impl BlockSizeUser for Rc4 {
    type BlockSize = consts::U1;
}

impl StreamCipher for Rc4 {
    #[inline(always)]
    fn check_remaining(&self, _data_len: usize) -> Result<(), StreamCipherError> {
        Ok(())
    }

    #[inline]
    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.backend.apply_keystream(&mut self.state, buf);
    }

    #[inline]
    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        self.backend.write_keystream(&mut self.state, buf);
    }
}

#[cfg(feature = "zeroize")]
impl cipher::zeroize::ZeroizeOnDrop for Rc4 {}

impl core::ops::Drop for Rc4 {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.state.zeroize();
    }
}
