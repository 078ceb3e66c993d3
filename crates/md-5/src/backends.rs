//! Backend selection: the only place that decides which compression function runs.
//!
//! `detect()` returns the backend forced by `--cfg md5_backend="…"` or else the best
//! one this CPU supports; the result is stored in `Md5Core` at construction, so a
//! bulk update dispatches once.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
mod soft;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx512_cpuid, "avx512f", "avx512vl");

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
            // SAFETY: an `Avx512Token` exists only if `avx512_cpuid` detected AVX-512 F
            // and VL, the target features `avx512::compress` is compiled for.
            Backend::Avx512(_) => unsafe { avx512::compress(state, blocks) },
        }
    }

    /// The backend's name (the cfg value, file stem and bench id).
    fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
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

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        "avx512" => avx512_backend(),
        _ => None,
    }
}

/// The best backend this CPU supports.
#[inline]
#[cfg_attr(any(md5_backend = "soft", md5_backend = "avx512"), allow(dead_code))]
fn best() -> Backend {
    avx512_backend().unwrap_or(Backend::Soft)
}

/// The forced backend (`--cfg md5_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU.
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(md5_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(md5_backend = "avx512")]
    let backend = match avx512_backend() {
        Some(b) => b,
        None => forced_unavailable("avx512", "AVX-512 F and VL on x86/x86-64"),
    };
    #[cfg(not(any(md5_backend = "soft", md5_backend = "avx512")))]
    let backend = best();
    backend
}

#[cfg(md5_backend = "avx512")]
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
    pub const ALL: &[&str] = &["soft", "avx512"];
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
}
