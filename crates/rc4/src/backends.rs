//! Backend selection: the only place that knows which backends exist.
//!
//! RC4 has one backend, `soft` (portable Rust). RC4 is serial: each keystream byte
//! needs the swap made for the byte before it, so vector units have nothing to work
//! on, and the portable code already keeps the CPU's load and store ports busy (see
//! `soft.rs`). The pattern of the other simdcrypt crates is kept all the same — a
//! one-row backend table, a `Backend` enum stored in the cipher, `detect()`,
//! `--cfg rc4_backend="…"`, `__backends` for the benches — so that an ISA backend could
//! be added here alone (as a row of the table).

use cipher::InOutBuf;

pub(crate) use soft::State;

simdcrypt_dispatch::backends! {
    crate: "rc4", cfg: rc4_backend;
    /// Portable Rust (`src/backends/soft.rs`).
    "soft" => Soft;
}

impl Backend {
    /// XORs the keystream over `buf`.
    #[inline]
    pub(crate) fn apply_keystream(self, state: &mut State, buf: InOutBuf<'_, '_, u8>) {
        match self {
            Backend::Soft => state.apply_keystream(buf),
        }
    }

    /// Writes the keystream to `buf`.
    #[inline]
    pub(crate) fn write_keystream(self, state: &mut State, buf: &mut [u8]) {
        match self {
            Backend::Soft => state.write_keystream(buf),
        }
    }
}

/// Unstable hooks for benches and tests that compare backends in one process.
///
/// Not part of the RustCrypto `rc4` API; hidden, and may change in any release.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;
    use crate::Rc4;

    /// The backend `cipher` uses. (It shadows the table's `selected()`, the backend a
    /// new cipher would use.)
    pub fn selected(cipher: &Rc4) -> &'static str {
        cipher.backend.name()
    }

    /// Applies `cipher`'s keystream to `buf` with backend `name`, whatever backend the
    /// cipher itself would use.
    ///
    /// It runs the public `apply_keystream` with the cipher's backend swapped for the
    /// call, inlined into the caller as a user's call is, so a forced figure times the
    /// code a user's call runs. An out-of-line hook calling the backend compiled the
    /// byte loop a second time, register-allocated worse: `cargo run --release -p speed
    /// --bin auto rc4` on the Intel Xeon gave 2.00 TSC cycles/byte for forced `soft`
    /// against 1.72 for the automatic choice, the same `soft`; now 1.72–1.73 for both.
    ///
    /// # Panics
    /// If `name` is not [`available`].
    #[inline]
    pub fn apply_keystream_with(name: &str, cipher: &mut Rc4, buf: &mut [u8]) {
        use cipher::StreamCipher;
        let own = core::mem::replace(&mut cipher.backend, Backend::named(name));
        cipher.apply_keystream(buf);
        cipher.backend = own;
    }
}
