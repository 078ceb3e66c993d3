#![no_std]
#![doc = include_str!("../README.md")]
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
#![doc(
    html_logo_url = "https://raw.githubusercontent.com/RustCrypto/media/8f1a9894/logo.svg",
    html_favicon_url = "https://raw.githubusercontent.com/RustCrypto/media/8f1a9894/logo.svg"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

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
