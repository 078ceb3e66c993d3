//! Backend selection: the only place that decides which RC2 implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg rc2_backend="…"`, else the best one
//! this CPU supports: `avx512` > `avx2` > `soft`. The key table is the same 64 words for
//! every backend (the SIMD ones broadcast them once per bulk call), so a cipher stores the
//! words and its [`Backend`]; a bulk call dispatches once.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub(crate) mod soft;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U8};

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "avx2");
#[cfg(target_arch = "x86_64")]
cpufeatures::new!(avx512_cpuid, "avx512f", "avx512bw");

/// Proof that the CPU has AVX2 with `ymm` state enabled by the OS: only [`avx2_token`]
/// makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

/// Proof that the CPU has AVX-512F and AVX-512BW (and AVX2) with `zmm` state enabled by the
/// OS: only [`avx512_token`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Token(());

/// The implementation chosen for a cipher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable Rust, one block at a time, every target.
    Soft,
    /// AVX2, 16 blocks per `ymm` register.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(Avx2Token),
    /// AVX-512BW, 32 blocks per `zmm` register.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512Token),
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(_) => "avx512",
        }
    }
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn avx2_token() -> Option<Avx2Token> {
    avx2_cpuid::get().then_some(Avx2Token(()))
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn avx512_token() -> Option<Avx512Token> {
    // `avx512_cpuid` checks AVX-512F/BW and the OS `zmm` state; AVX2 is implied on every
    // CPU with AVX-512 but checked too, since the `zmm` code hands tails to `avx2`.
    (avx512_cpuid::get() && avx2_cpuid::get()).then_some(Avx512Token(()))
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "avx2" => avx2_token().map(Backend::Avx2),
        #[cfg(target_arch = "x86_64")]
        "avx512" => avx512_token().map(Backend::Avx512),
        _ => None,
    }
}

/// The best backend this CPU supports: `avx512` > `avx2` > `soft`.
#[inline]
#[cfg_attr(
    any(rc2_backend = "soft", rc2_backend = "avx2", rc2_backend = "avx512"),
    allow(dead_code)
)]
fn best() -> Backend {
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = avx512_token() {
        return Backend::Avx512(t);
    }
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if let Some(t) = avx2_token() {
        return Backend::Avx2(t);
    }
    Backend::Soft
}

/// The forced backend (`--cfg rc2_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU (or is not compiled for this target).
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(rc2_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(rc2_backend = "avx2")]
    let backend = forced("avx2", "AVX2 on x86/x86-64");
    #[cfg(rc2_backend = "avx512")]
    let backend = forced("avx512", "AVX-512F and AVX-512BW on x86-64");
    #[cfg(not(any(rc2_backend = "soft", rc2_backend = "avx2", rc2_backend = "avx512")))]
    let backend = best();
    backend
}

#[cfg(any(rc2_backend = "avx2", rc2_backend = "avx512"))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => {
            panic!("rc2 was built with --cfg rc2_backend=\"{name}\", but this CPU lacks {needs}")
        }
    }
}

/// Runs `f` with `backend`'s encryption under key table `k`.
#[inline]
pub(crate) fn encrypt(
    backend: Backend,
    k: &[u16; 64],
    f: impl BlockCipherEncClosure<BlockSize = U8>,
) {
    match backend {
        Backend::Soft => f.call(&soft::Backend(k)),
        // SAFETY: the token proves the CPU has AVX2, the target feature of `avx2::encrypt`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx2(_) => unsafe { avx2::encrypt(k, f) },
        // SAFETY: the token proves the CPU has AVX2, AVX-512F and AVX-512BW, the target
        // features of `avx512::encrypt`.
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512(_) => unsafe { avx512::encrypt(k, f) },
    }
}

/// Runs `f` with `backend`'s decryption under key table `k`.
#[inline]
pub(crate) fn decrypt(
    backend: Backend,
    k: &[u16; 64],
    f: impl BlockCipherDecClosure<BlockSize = U8>,
) {
    match backend {
        Backend::Soft => f.call(&soft::Backend(k)),
        // SAFETY: the token proves the CPU has AVX2, the target feature of `avx2::decrypt`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx2(_) => unsafe { avx2::decrypt(k, f) },
        // SAFETY: the token proves the CPU has AVX2, AVX-512F and AVX-512BW, the target
        // features of `avx512::decrypt`.
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512(_) => unsafe { avx512::decrypt(k, f) },
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    use super::by_name;

    /// Names of the backends compiled into this build (available or not).
    #[cfg(target_arch = "x86_64")]
    pub const ALL: &[&str] = &["soft", "avx2", "avx512"];
    /// Names of the backends compiled into this build (available or not).
    #[cfg(target_arch = "x86")]
    pub const ALL: &[&str] = &["soft", "avx2"];
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

    /// An [`Rc2`](crate::Rc2) for `key` with `eff_key_len` effective bits that runs on
    /// backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn rc2_with(name: &str, key: &[u8], eff_key_len: usize) -> crate::Rc2 {
        match by_name(name) {
            Some(b) => crate::Rc2::with_backend(key, eff_key_len, b),
            None => panic!("rc2 backend `{name}` is not available on this CPU"),
        }
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `rc2`) through `testkit::harness::block`, keys of 1..=128 bytes
/// with random effective key bits.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, rc2_with};
    use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, array::Array};
    use std::vec::Vec;

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
    // The harness makes keys; the effective bits (1..=1024) ride in the first two bytes.
    let key = |rng: &mut testkit::Rng| {
        let len = rng.range(1, 128);
        let bits = rng.range(1, 1024) as u16;
        let mut k: Vec<u8> = bits.to_le_bytes().to_vec();
        k.extend(rng.bytes(len));
        k
    };
    fn split(k: &[u8]) -> (&[u8], usize) {
        (&k[2..], usize::from(u16::from_le_bytes([k[0], k[1]])))
    }
    if name == "soft" {
        testkit::harness::block(
            name,
            8,
            par,
            key,
            (
                |k: &[u8]| {
                    let (k, bits) = split(k);
                    rc_rc2::Rc2::new_with_eff_key_len(k, bits)
                },
                enc,
                dec,
            ),
            (
                |k: &[u8]| {
                    let (k, bits) = split(k);
                    rc2_with("soft", k, bits)
                },
                enc,
                dec,
            ),
        );
    } else {
        testkit::harness::block(
            name,
            8,
            par,
            key,
            (
                |k: &[u8]| {
                    let (k, bits) = split(k);
                    rc2_with("soft", k, bits)
                },
                enc,
                dec,
            ),
            (
                |k: &[u8]| {
                    let (k, bits) = split(k);
                    rc2_with(name, k, bits)
                },
                enc,
                dec,
            ),
        );
    }
}
