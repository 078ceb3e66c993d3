//! Backend selection: the only place that decides which compression function runs.
//!
//! `detect()` returns the backend forced by `--cfg md5_backend="…"` or else the best
//! one this CPU supports; the result is stored in `Md5Core` at construction, so a
//! bulk update dispatches once.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
mod soft;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx512_cpuid, "avx512f", "avx512vl");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "avx2");

/// Proof that the CPU has AVX2: only [`avx2_backend`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

/// Proof that the CPU has AVX-512 F and VL: only [`avx512_backend`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Token(());

/// The compression function chosen for a hasher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable Rust, every target.
    Soft,
    /// AVX-512 F+VL: one state word per `xmm` lane 0, `vpternlogd` and `vprold`.
    /// AVX2: single-stream compression is the portable code (AVX2 cannot shorten
    /// the step latency); multi-buffer hashing runs 8 messages in the 8 lanes of `ymm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(Avx2Token),
    /// AVX-512 F+VL: one state word per `xmm` lane 0, `vpternlogd` and `vprold`;
    /// multi-buffer hashing runs 16 messages in the 16 lanes of `zmm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx512(Avx512Token),
}

impl Backend {
    /// Absorbs `blocks` into `state`.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress(state, blocks),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => soft::compress(state, blocks),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: an `Avx512Token` exists only if `avx512_cpuid` detected AVX-512 F
            // and VL, the target features `avx512::compress` is compiled for.
            Backend::Avx512(_) => unsafe { avx512::compress(state, blocks) },
        }
    }

    /// MD5 of each message of `msgs` into the same index of `out` (equal lengths),
    /// several messages at a time in SIMD lanes where the backend has a lane kernel.
    pub(crate) fn digest_many<M: AsRef<[u8]>>(self, msgs: &[M], out: &mut [[u8; 16]]) {
        assert_eq!(
            msgs.len(),
            out.len(),
            "md5::multi: one output per message is needed"
        );
        match self {
            Backend::Soft => soft::digest_each(msgs, out, soft::compress),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => soft::digest_lanes::<8, M>(msgs, out, soft::compress, |s, l, n| {
                // SAFETY: an `Avx2Token` exists only if `avx2_cpuid` detected AVX2, the
                // target feature `avx2::compress8` is compiled for.
                unsafe { avx2::compress8(s, l, n) }
            }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512(_) => soft::digest_lanes::<16, M>(
                msgs,
                out,
                // SAFETY: an `Avx512Token` exists only if `avx512_cpuid` detected
                // AVX-512 F and VL, the target features `avx512::compress` needs.
                |s, b| unsafe { avx512::compress(s, b) },
                // SAFETY: as above; `avx512::compress16` needs AVX-512 F only.
                |s, l, n| unsafe { avx512::compress16(s, l, n) },
            ),
        }
    }

    /// The backend's name (the cfg value, file stem and bench id).
    fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => "avx2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512(_) => "avx512",
        }
    }
}

/// The AVX-512 backend if the CPU has it (detection is cached by `cpufeatures`).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn avx512_backend() -> Option<Backend> {
    avx512_cpuid::get().then_some(Backend::Avx512(Avx512Token(())))
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
fn avx512_backend() -> Option<Backend> {
    None
}

/// The AVX2 backend if the CPU has it (detection is cached by `cpufeatures`).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn avx2_backend() -> Option<Backend> {
    avx2_cpuid::get().then_some(Backend::Avx2(Avx2Token(())))
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
fn avx2_backend() -> Option<Backend> {
    None
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        "avx2" => avx2_backend(),
        "avx512" => avx512_backend(),
        _ => None,
    }
}

/// The best backend this CPU supports.
#[inline]
#[cfg_attr(
    any(md5_backend = "soft", md5_backend = "avx2", md5_backend = "avx512"),
    allow(dead_code)
)]
fn best() -> Backend {
    avx512_backend()
        .or_else(avx2_backend)
        .unwrap_or(Backend::Soft)
}

/// The forced backend (`--cfg md5_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU.
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(md5_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(md5_backend = "avx2")]
    let backend = match avx2_backend() {
        Some(b) => b,
        None => forced_unavailable("avx2", "AVX2 on x86/x86-64"),
    };
    #[cfg(md5_backend = "avx512")]
    let backend = match avx512_backend() {
        Some(b) => b,
        None => forced_unavailable("avx512", "AVX-512 F and VL on x86/x86-64"),
    };
    #[cfg(not(any(md5_backend = "soft", md5_backend = "avx2", md5_backend = "avx512")))]
    let backend = best();
    backend
}

#[cfg(any(md5_backend = "avx2", md5_backend = "avx512"))]
#[cold]
fn forced_unavailable(name: &str, needs: &str) -> ! {
    panic!("md-5 was built with --cfg md5_backend=\"{name}\", but this CPU lacks {needs}")
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    /// Names of the backends compiled into this build (available or not).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub const ALL: &[&str] = &["soft", "avx2", "avx512"];
    /// Names of the backends compiled into this build (available or not).
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    pub const ALL: &[&str] = &["soft"];

    /// Whether backend `name` is compiled in and can run on this CPU.
    pub fn available(name: &str) -> bool {
        super::by_name(name).is_some()
    }

    /// The name of the backend a new hasher uses (forced or detected).
    pub fn selected() -> &'static str {
        super::detect().name()
    }

    /// MD5 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress_with(name: &str, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        match super::by_name(name) {
            Some(b) => b.compress(state, blocks),
            None => panic!("md5 backend `{name}` is not available on this CPU"),
        }
    }

    /// Multi-buffer MD5 ([`crate::multi::digest_into`]) with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or if the lengths differ.
    pub fn digest_many_with<M: AsRef<[u8]>>(name: &str, msgs: &[M], out: &mut [[u8; 16]]) {
        match super::by_name(name) {
            Some(b) => b.digest_many(msgs, out),
            None => panic!("md5 backend `{name}` is not available on this CPU"),
        }
    }
}
