//! Backend selection: the only place that decides which compression function runs.
//!
//! `detect()` returns the backend forced by `--cfg sha1_backend="…"` or else the best
//! one this CPU supports (`avx512` > `shani` > `avx2` > `soft`; `avx512` hashes
//! single streams with SHA-NI when present, so it only adds the 16-lane kernel); the result is stored in
//! `Sha1Core` at construction, so a bulk update dispatches once.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod shani;
mod soft;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(shani_cpuid, "sha", "sse2", "ssse3", "sse4.1");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "avx2", "bmi1", "bmi2");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(
    avx512_cpuid,
    "avx512f",
    "avx512vl",
    "avx512bw",
    "avx2",
    "bmi1",
    "bmi2"
);

/// Proof that the CPU has SHA, SSE2, SSSE3 and SSE4.1: only [`shani_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShaniToken(());

/// Proof that the CPU has AVX2, BMI1 and BMI2: only [`avx2_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

/// Proof that the CPU has AVX-512 F, VL and BW, AVX2, BMI1 and BMI2: only
/// [`avx512_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Token(());

/// The compression function chosen for a hasher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable Rust, every target.
    Soft,
    /// SHA-NI `sha1rnds4`, four rounds per instruction; SSE message schedule.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Shani(ShaniToken),
    /// AVX2 message schedule of two blocks at a time, scalar BMI2 rounds.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(Avx2Token),
    /// AVX-512: multi-buffer hashing of 16 messages in the lanes of `zmm`; single
    /// streams go through SHA-NI when the CPU has it (the `Some`), else `avx2`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx512(Avx512Token, Option<ShaniToken>),
}

impl Backend {
    /// Absorbs `blocks` into `state`.
    ///
    /// Kept out of line on purpose: inlined, the three-way dispatch made `Sha1`'s
    /// `update` too large for the compiler to inline into its callers, and hashing
    /// 16- and 64-byte messages 6–8% slower than with this one extra call.
    #[inline(never)]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress(state, blocks),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `ShaniToken` exists only if `shani_cpuid` detected SHA, SSE2,
            // SSSE3 and SSE4.1, the target features `shani::compress` is compiled for.
            Backend::Shani(_) => unsafe { shani::compress(state, blocks) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: an `Avx2Token` exists only if `avx2_cpuid` detected AVX2, BMI1 and
            // BMI2, the target features `avx2::compress` is compiled for.
            Backend::Avx2(_) => unsafe { avx2::compress(state, blocks) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `ShaniToken` proves SHA-NI as above.
            Backend::Avx512(_, Some(_)) => unsafe { shani::compress(state, blocks) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: an `Avx512Token` exists only if `avx512_cpuid` detected (among
            // others) AVX2, BMI1 and BMI2, the target features of `avx2::compress`.
            Backend::Avx512(_, None) => unsafe { avx2::compress(state, blocks) },
        }
    }

    /// SHA-1 of each message of `msgs` into the same index of `out` (equal
    /// lengths), several messages at a time in SIMD lanes where the backend has a
    /// lane kernel.
    pub(crate) fn digest_many<M: AsRef<[u8]>>(self, msgs: &[M], out: &mut [[u8; 20]]) {
        assert_eq!(
            msgs.len(),
            out.len(),
            "sha1::multi: one output per message is needed"
        );
        let single = |s: &mut [u32; 5], b: &[[u8; 64]]| self.compress(s, b);
        match self {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => soft::digest_lanes::<8, M>(msgs, out, single, |s, l, n| {
                // SAFETY: an `Avx2Token` exists only if `avx2_cpuid` detected AVX2, the
                // target feature `avx2::compress8` is compiled for.
                unsafe { avx2::compress8(s, l, n) }
            }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512(..) => soft::digest_lanes::<16, M>(msgs, out, single, |s, l, n| {
                // SAFETY: an `Avx512Token` exists only if `avx512_cpuid` detected
                // AVX-512 F and BW, the target features of `avx512::compress16`.
                unsafe { avx512::compress16(s, l, n) }
            }),
            // SHA-NI and soft: one message after the other.
            _ => soft::digest_each(msgs, out, single),
        }
    }

    /// The backend's name (the cfg value, file stem and bench id).
    fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Shani(_) => "shani",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => "avx2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512(..) => "avx512",
        }
    }
}

/// The SHA-NI backend if the CPU has it (detection is cached by `cpufeatures`).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn shani_token() -> Option<Backend> {
    shani_cpuid::get().then_some(Backend::Shani(ShaniToken(())))
}

/// The AVX2 backend if the CPU has it (detection is cached by `cpufeatures`).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn avx2_token() -> Option<Backend> {
    avx2_cpuid::get().then_some(Backend::Avx2(Avx2Token(())))
}

/// The AVX-512 backend if the CPU has it, with SHA-NI for single streams if the
/// CPU has that too.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn avx512_token() -> Option<Backend> {
    let shani = shani_cpuid::get().then_some(ShaniToken(()));
    avx512_cpuid::get().then_some(Backend::Avx512(Avx512Token(()), shani))
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
fn avx512_token() -> Option<Backend> {
    None
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
fn shani_token() -> Option<Backend> {
    None
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
fn avx2_token() -> Option<Backend> {
    None
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        "shani" => shani_token(),
        "avx2" => avx2_token(),
        "avx512" => avx512_token(),
        _ => None,
    }
}

/// The best backend this CPU supports.
#[inline]
fn best() -> Backend {
    avx512_token()
        .or_else(shani_token)
        .or_else(avx2_token)
        .unwrap_or(Backend::Soft)
}

// RustCrypto's sha1 0.11 has its own `sha1_backend` values; they are accepted here
// with the nearest meaning: "x86-sha" forces `shani`, "aarch64-sha2" (no aarch64
// backend here yet) forces `soft`. They are not in the workspace check-cfg list
// (every value there must name a backend file), hence the `allow`s.

/// The backend forced by `--cfg sha1_backend="…"`, if any.
#[allow(unexpected_cfgs)]
const FORCED: Option<&str> = if cfg!(sha1_backend = "soft") || cfg!(sha1_backend = "aarch64-sha2") {
    Some("soft")
} else if cfg!(sha1_backend = "shani") || cfg!(sha1_backend = "x86-sha") {
    Some("shani")
} else if cfg!(sha1_backend = "avx2") {
    Some("avx2")
} else if cfg!(sha1_backend = "avx512") {
    Some("avx512")
} else {
    None
};

/// The forced backend (`--cfg sha1_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU.
#[inline]
pub(crate) fn detect() -> Backend {
    match FORCED {
        None => best(),
        Some(name) => by_name(name).unwrap_or_else(|| forced_unavailable(name)),
    }
}

#[cold]
#[inline(never)]
fn forced_unavailable(name: &str) -> ! {
    let needs = match name {
        "shani" => "SHA, SSE2, SSSE3 and SSE4.1 on x86/x86-64",
        "avx512" => "AVX-512 F, VL and BW, AVX2, BMI1 and BMI2 on x86/x86-64",
        _ => "AVX2, BMI1 and BMI2 on x86/x86-64",
    };
    panic!("sha1 was built with --cfg sha1_backend=\"{name}\", but this CPU lacks {needs}")
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    /// Names of the backends compiled into this build (available or not).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub const ALL: &[&str] = &["soft", "shani", "avx2", "avx512"];
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

    /// SHA-1 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress_with(name: &str, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match super::by_name(name) {
            Some(b) => b.compress(state, blocks),
            None => panic!("sha1 backend `{name}` is not available on this CPU"),
        }
    }

    /// Multi-buffer SHA-1 ([`crate::multi::digest_into`]) with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or if the lengths differ.
    pub fn digest_many_with<M: AsRef<[u8]>>(name: &str, msgs: &[M], out: &mut [[u8; 20]]) {
        match super::by_name(name) {
            Some(b) => b.digest_many(msgs, out),
            None => panic!("sha1 backend `{name}` is not available on this CPU"),
        }
    }
}
