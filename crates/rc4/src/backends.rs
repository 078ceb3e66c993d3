//! Backend selection: the only place that knows which backends exist.
//!
//! RC4 has one backend, `soft` (portable Rust). RC4 is serial: each keystream byte
//! needs the swap made for the byte before it, so vector units have nothing to work
//! on, and the portable code already keeps the CPU's load and store ports busy (see
//! `soft.rs`). The pattern of the other simdcrypt crates is kept all the same — a
//! `Backend` enum stored in the cipher, `detect()`, `--cfg rc4_backend="…"`,
//! `__backends` for the benches — so that an ISA backend could be added here alone.

use cipher::InOutBuf;

mod soft;

pub(crate) use soft::State;

/// The backend chosen for a cipher instance at key setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// Portable Rust (`src/backends/soft.rs`).
    Soft,
}

impl Backend {
    /// The backend's name, as used in `--cfg rc4_backend="…"` and bench ids.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
        }
    }

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

/// The backend to use: the one forced by `--cfg rc4_backend="…"`, else the best one
/// this CPU has. With `soft` as the only backend both answers are `Soft`.
#[inline]
pub(crate) fn detect() -> Backend {
    // The backend named by `--cfg rc4_backend="…"`, if any.
    const FORCED: Option<Backend> = if cfg!(rc4_backend = "soft") {
        Some(Backend::Soft)
    } else {
        None
    };
    match FORCED {
        Some(forced) => forced,
        // No ISA backend exists: the best available is always `soft`.
        None => Backend::Soft,
    }
}

/// Unstable hooks for benches and tests that compare backends in one process.
///
/// Not part of the RustCrypto `rc4` API; hidden, and may change in any release.
#[doc(hidden)]
pub mod __backends {
    use super::Backend;
    use crate::Rc4;

    /// Names of the backends compiled into this build.
    pub const ALL: &[&str] = &[Backend::Soft.name()];

    fn by_name(name: &str) -> Option<Backend> {
        match name {
            "soft" => Some(Backend::Soft),
            _ => None,
        }
    }

    /// Whether backend `name` exists and can run on this CPU.
    pub fn available(name: &str) -> bool {
        by_name(name).is_some()
    }

    /// The backend `cipher` uses.
    pub fn selected(cipher: &Rc4) -> &'static str {
        cipher.backend.name()
    }

    /// Applies `cipher`'s keystream to `buf` with backend `name`, whatever backend the
    /// cipher itself would use.
    ///
    /// # Panics
    /// If `name` is not [`available`].
    pub fn apply_keystream_with(name: &str, cipher: &mut Rc4, buf: &mut [u8]) {
        let backend = by_name(name)
            .filter(|_| available(name))
            .unwrap_or_else(|| panic!("rc4 backend `{name}` is not available"));
        backend.apply_keystream(&mut cipher.state, buf.into());
    }
}
