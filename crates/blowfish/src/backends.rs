//! Backend selection: the only place that decides which Blowfish implementation runs.
//!
//! Every backend uses the same key-dependent state (the S-boxes and P-array of
//! [`State`]), built by the portable key schedule; a cipher stores the state and the
//! chosen [`Backend`] (with its CPU-feature token), so a bulk call dispatches once.
//!
//! Preference on x86: `avx512` > `avx2` > `soft`; see [`best`].

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
pub(crate) mod soft;

pub(crate) use soft::State;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U8};

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "avx2");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx512_cpuid, "avx512f");

/// Proof that the CPU has AVX2 with `ymm` state enabled by the OS: only [`by_name`] and
/// [`best`] make one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

/// Proof that the CPU has AVX-512F with `zmm` state enabled by the OS:
/// only [`by_name`] and [`best`] make one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Token(());

/// The implementation chosen for a cipher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable Rust, four blocks interleaved.
    Soft,
    /// 8-lane `vpgatherdd` on `ymm`, 32 blocks in flight.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(Avx2Token),
    /// 16-lane `vpgatherdd` on `zmm`, 64 blocks in flight.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx512(Avx512Token),
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => "avx2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512(_) => "avx512",
        }
    }
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "avx2" => avx2_cpuid::get().then_some(Backend::Avx2(Avx2Token(()))),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "avx512" => avx512_cpuid::get().then_some(Backend::Avx512(Avx512Token(()))),
        _ => None,
    }
}

/// The best backend this CPU supports: `avx512` > `avx2` > `soft` (measured on this
/// project's reference machine; figures in the crate README).
#[inline]
#[cfg_attr(
    any(
        blowfish_backend = "soft",
        blowfish_backend = "avx2",
        blowfish_backend = "avx512"
    ),
    allow(dead_code)
)]
fn best() -> Backend {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        if avx512_cpuid::get() {
            return Backend::Avx512(Avx512Token(()));
        }
        if avx2_cpuid::get() {
            return Backend::Avx2(Avx2Token(()));
        }
    }
    Backend::Soft
}

/// The forced backend (`--cfg blowfish_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU (or is not compiled for this target).
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(blowfish_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(blowfish_backend = "avx2")]
    let backend = forced("avx2", "AVX2 on x86/x86-64");
    #[cfg(blowfish_backend = "avx512")]
    let backend = forced("avx512", "AVX-512F on x86/x86-64");
    #[cfg(not(any(
        blowfish_backend = "soft",
        blowfish_backend = "avx2",
        blowfish_backend = "avx512"
    )))]
    let backend = best();
    backend
}

#[cfg(any(blowfish_backend = "avx2", blowfish_backend = "avx512"))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => panic!(
            "blowfish was built with --cfg blowfish_backend=\"{name}\", but this CPU lacks {needs}"
        ),
    }
}

/// Runs `f` with `backend`'s encryption over `st` (block words in byte order `LE`).
#[inline]
pub(crate) fn encrypt<const LE: bool>(
    backend: Backend,
    st: &State,
    f: impl BlockCipherEncClosure<BlockSize = U8>,
) {
    match backend {
        Backend::Soft => soft::encrypt::<LE>(st, f),
        // SAFETY: the token proves the CPU has the target features of `avx2::encrypt`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx2(_) => unsafe { avx2::encrypt::<LE>(st, f) },
        // SAFETY: the token proves the CPU has the target features of `avx512::encrypt`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx512(_) => unsafe { avx512::encrypt::<LE>(st, f) },
    }
}

/// Runs `f` with `backend`'s decryption over `st` (block words in byte order `LE`).
#[inline]
pub(crate) fn decrypt<const LE: bool>(
    backend: Backend,
    st: &State,
    f: impl BlockCipherDecClosure<BlockSize = U8>,
) {
    match backend {
        Backend::Soft => soft::decrypt::<LE>(st, f),
        // SAFETY: the token proves the CPU has the target features of `avx2::decrypt`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx2(_) => unsafe { avx2::decrypt::<LE>(st, f) },
        // SAFETY: the token proves the CPU has the target features of `avx512::decrypt`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx512(_) => unsafe { avx512::decrypt::<LE>(st, f) },
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    use super::by_name;
    use byteorder::ByteOrder;

    /// Names of the backends compiled into this build (available or not).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub const ALL: &[&str] = &["soft", "avx2", "avx512"];
    /// Names of the backends compiled into this build (available or not).
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    pub const ALL: &[&str] = &["soft"];

    /// Whether backend `name` is compiled in and can run on this CPU.
    pub fn available(name: &str) -> bool {
        by_name(name).is_some()
    }

    /// The name of the backend a new cipher uses (forced or detected).
    pub fn selected() -> &'static str {
        super::detect().name()
    }

    /// A [`Blowfish`](crate::Blowfish) keyed with `key` (4..=56 bytes) that runs on
    /// backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or `key` has a bad length.
    pub fn blowfish_with<T: ByteOrder>(name: &str, key: &[u8]) -> crate::Blowfish<T> {
        match by_name(name) {
            Some(b) => crate::Blowfish::with_backend(b, key).expect("key of 4..=56 bytes"),
            None => panic!("blowfish backend `{name}` is not available on this CPU"),
        }
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `blowfish`) through `testkit::harness::block`, both byte orders,
/// random key lengths 4..=56.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, blowfish_with};
    use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, array::Array};

    if !testkit::available(name, available(name)) {
        return;
    }
    fn enc<C: BlockCipherEncrypt<BlockSize = U8>>(c: &C, i: &[u8], o: &mut [u8]) {
        let (i, _) = Array::slice_as_chunks(i);
        let (o, _) = Array::slice_as_chunks_mut(o);
        c.encrypt_blocks_b2b(i, o).expect("same lengths");
    }
    fn dec<C: BlockCipherDecrypt<BlockSize = U8>>(c: &C, i: &[u8], o: &mut [u8]) {
        let (i, _) = Array::slice_as_chunks(i);
        let (o, _) = Array::slice_as_chunks_mut(o);
        c.decrypt_blocks_b2b(i, o).expect("same lengths");
    }
    let key = |rng: &mut testkit::Rng| {
        let n = rng.range(4, 56);
        rng.bytes(n)
    };
    macro_rules! run {
        ($bo:ty, $peer:ty) => {
            if name == "soft" {
                testkit::harness::block(
                    name,
                    8,
                    par,
                    key,
                    (|k: &[u8]| <$peer>::new_from_slice(k).unwrap(), enc, dec),
                    (|k: &[u8]| blowfish_with::<$bo>("soft", k), enc, dec),
                );
            } else {
                testkit::harness::block(
                    name,
                    8,
                    par,
                    key,
                    (|k: &[u8]| blowfish_with::<$bo>("soft", k), enc, dec),
                    (|k: &[u8]| blowfish_with::<$bo>(name, k), enc, dec),
                );
            }
        };
    }
    run!(byteorder::BE, rc_blowfish::Blowfish);
    run!(byteorder::LE, rc_blowfish::BlowfishLE);
}
