//! Backend selection: the only place that decides which compression function runs.
//!
//! `detect()` returns the backend forced by `--cfg md5_backend="…"` or else the best
//! one this CPU supports (the row order of the table: `avx512` > `avx2` > `soft` on
//! x86, `neon` > `soft` on aarch64); multi-buffer hashing uses it. Single streams use [`detect_stream`], which differs on
//! AMD (see there); the result is stored in `Md5Core` at construction, so a bulk update
//! dispatches once.

simdcrypt_dispatch::backends! {
    crate: "md-5", cfg: md5_backend;
    /// Portable Rust, every target.
    "soft" => Soft;
    /// AVX-512 F+VL: one state word per `xmm` lane 0, `vpternlogd` and `vprold`;
    /// multi-buffer hashing runs 16 messages in the 16 lanes of `zmm`.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86", "x86_64"],
        needs: ["avx512f", "avx512vl"],
        rustc: "1.89",
    }
    /// AVX2: single-stream compression is the portable code (AVX2 cannot shorten
    /// the step latency); multi-buffer hashing runs 8 messages in the 8 lanes of `ymm`.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2"],
        rustc: "1.89",
    }
    /// NEON (aarch64): single-stream compression is the portable code (NEON lengthens
    /// the step); multi-buffer hashing runs 4 messages in the 4 lanes of a `q` register.
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        rustc: "1.89",
    }
}

/// The backend for one stream (`Md5`, `compress`): [`detect`], except that on CPUs in
/// the `amd` class the automatic choice hashes single streams with the portable code
/// instead of `avx512`'s one-lane kernel. Its 16-lane kernel stays the multi-buffer
/// choice there.
///
/// Measured on AMD Zen 4 (EPYC, family 25 model 17), 8 KiB, TSC cycles/byte, one
/// interleaved run (`cargo run --release -p speed --bin auto md5 md5-mb`): single stream
/// `soft` 3.23, `avx2` (the same portable code) 3.24, `avx512` 3.93; 16 messages at once
/// `avx512` 0.51, `avx2` 0.74. On the Intel Xeon (Emerald Rapids) the one-lane kernel
/// wins (1.2× OpenSSL, where `soft` is 1.05×), so it stays the choice there.
/// A forced `--cfg md5_backend="avx512"` still runs the one-lane kernel everywhere.
#[inline]
pub(crate) fn detect_stream() -> Backend {
    let b = detect();
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        simdcrypt_rustc = "1.89"
    ))]
    if matches!(b, Backend::Avx512(_))
        && !cfg!(md5_backend = "avx512")
        && simdcrypt_dispatch::has(const { simdcrypt_dispatch::mask(&["amd"]) })
    {
        return Backend::Soft;
    }
    b
}

impl Backend {
    /// Absorbs `blocks` into `state`.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        match self {
            Backend::Soft => soft::compress(state, blocks),
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::Avx2(_) => soft::compress(state, blocks),
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Backend::Neon(_) => soft::compress(state, blocks),
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            // SAFETY: a `token::Avx512` exists only if detection found AVX-512 F and VL,
            // the target features `avx512::compress` is compiled for.
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
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::Avx2(_) => soft::digest_lanes::<8, M>(msgs, out, soft::compress, |s, l, n| {
                // SAFETY: a `token::Avx2` exists only if detection found AVX2, the target
                // feature `avx2::compress8` is compiled for.
                unsafe { avx2::compress8(s, l, n) }
            }),
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::Avx512(_) => soft::digest_lanes::<16, M>(
                msgs,
                out,
                // SAFETY: a `token::Avx512` exists only if detection found AVX-512 F
                // and VL, the target features `avx512::compress` needs.
                |s, b| unsafe { avx512::compress(s, b) },
                // SAFETY: as above; `avx512::compress16` needs AVX-512 F only.
                |s, l, n| unsafe { avx512::compress16(s, l, n) },
            ),
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Backend::Neon(_) => soft::digest_lanes::<4, M>(msgs, out, soft::compress, |s, l, n| {
                // SAFETY: a `token::Neon` exists only if detection found NEON (ASIMD), the
                // target feature `neon::compress4` is compiled for.
                unsafe { neon::compress4(s, l, n) }
            }),
        }
    }
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// The name of the backend a new `Md5` hashes with (the table's `selected()` is the
    /// one multi-buffer hashing uses).
    pub fn selected_stream() -> &'static str {
        super::detect_stream().name()
    }

    /// MD5 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress_with(name: &str, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        Backend::named(name).compress(state, blocks)
    }

    /// Multi-buffer MD5 ([`crate::multi::digest_into`]) with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or if the lengths differ.
    pub fn digest_many_with<M: AsRef<[u8]>>(name: &str, msgs: &[M], out: &mut [[u8; 16]]) {
        Backend::named(name).digest_many(msgs, out)
    }
}
