//! Backend selection: the only place that decides which IDEA implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg idea_backend="…"`, else the best one
//! this CPU supports: `avx512` > `avx2` > `soft`. The subkeys are the same 52 words for
//! every backend (the SIMD ones broadcast them once per bulk call), so a cipher stores the
//! words and its [`Backend`]; a bulk call dispatches once.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub(crate) mod soft;

use crate::LENGTH_SUB_KEYS;
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
    any(idea_backend = "soft", idea_backend = "avx2", idea_backend = "avx512"),
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

/// The forced backend (`--cfg idea_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU (or is not compiled for this target).
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(idea_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(idea_backend = "avx2")]
    let backend = forced("avx2", "AVX2 on x86/x86-64");
    #[cfg(idea_backend = "avx512")]
    let backend = forced("avx512", "AVX-512F and AVX-512BW on x86-64");
    #[cfg(not(any(idea_backend = "soft", idea_backend = "avx2", idea_backend = "avx512")))]
    let backend = best();
    backend
}

#[cfg(any(idea_backend = "avx2", idea_backend = "avx512"))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => {
            panic!("idea was built with --cfg idea_backend=\"{name}\", but this CPU lacks {needs}")
        }
    }
}

/// Runs `f` with `backend`'s encryption under subkeys `k`.
#[inline]
pub(crate) fn encrypt(
    backend: Backend,
    k: &[u16; LENGTH_SUB_KEYS],
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

/// Runs `f` with `backend`'s decryption under (decryption) subkeys `k`.
#[inline]
pub(crate) fn decrypt(
    backend: Backend,
    k: &[u16; LENGTH_SUB_KEYS],
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

    /// An [`Idea`](crate::Idea) that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn idea_with(name: &str, key: &[u8; 16]) -> crate::Idea {
        match by_name(name) {
            Some(b) => crate::Idea::with_backend(key, b),
            None => panic!("idea backend `{name}` is not available on this CPU"),
        }
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `idea`) through `testkit::harness::block`.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, idea_with};
    use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, array::Array};
    use std::{vec, vec::Vec};

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
    // Keys with zero words (subkeys 0, i.e. 2^16) as well as random ones.
    let key = |rng: &mut testkit::Rng| {
        let mut k = rng.bytes(16);
        if rng.below(2) == 0 {
            for i in 0..8 {
                if rng.below(3) == 0 {
                    k[2 * i] = 0;
                    k[2 * i + 1] = 0;
                }
            }
        }
        k
    };
    if name == "soft" {
        testkit::harness::block(
            name,
            8,
            par,
            key,
            (
                |k: &[u8]| rc_idea::Idea::new_from_slice(k).unwrap(),
                enc,
                dec,
            ),
            (
                |k: &[u8]| idea_with("soft", k.try_into().unwrap()),
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
                |k: &[u8]| idea_with("soft", k.try_into().unwrap()),
                enc,
                dec,
            ),
            (|k: &[u8]| idea_with(name, k.try_into().unwrap()), enc, dec),
        );
    }
    // Data words of 0 and 1 (the multiplication's special operands) in every lane.
    let c = idea_with(name, &[0; 16]);
    let s = idea_with("soft", &[0; 16]);
    let plain: Vec<u8> = (0..8 * 8 * par.max(1) + 24)
        .map(|i| if i % 5 < 3 { 0 } else { (i % 2) as u8 })
        .collect();
    let (mut x, mut y) = (vec![0; plain.len()], vec![0; plain.len()]);
    enc(&c, &plain, &mut x);
    enc(&s, &plain, &mut y);
    assert_eq!(x, y, "{name}: zero words");
    dec(&c, &x, &mut y);
    assert_eq!(y, plain, "{name}: zero words, decryption");
}
