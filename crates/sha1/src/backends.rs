//! Backend selection: the only place that decides which compression function runs.
//!
//! `detect()` returns the backend forced by `--cfg sha1_backend="…"` or else the best
//! one this CPU supports, the row order of the table: on x86 `avx512` > `shani` >
//! `avx2` > `soft` (`avx512` hashes single streams with SHA-NI when present, so it only
//! adds the 16-lane kernel), on aarch64 `armv8` > `neon` > `soft` (`neon` hashes single
//! streams with the portable code and adds the 4-lane kernel; `armv8` stays first for
//! multi-buffer hashing too, see the crate docs); the result is stored in `Sha1Core` at
//! construction, so a bulk update dispatches once.

/// `Sha1Core`'s buffer: the bytes after the last whole block.
pub(crate) type Buffer =
    digest::block_buffer::BlockBuffer<digest::consts::U64, digest::block_api::Eager>;

simdcrypt_dispatch::backends! {
    crate: "sha1", cfg: sha1_backend;
    /// Portable Rust, every target.
    "soft" => Soft;
    /// AVX-512: multi-buffer hashing of 16 messages in the lanes of `zmm`; single
    /// streams go through SHA-NI when the CPU has it, else `avx2`.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86", "x86_64"],
        needs: ["avx512f", "avx512bw", "avx2", "bmi1", "bmi2"],
        rustc: "1.89",
    }
    /// SHA-NI `sha1rnds4`, four rounds per instruction; SSE message schedule. Also
    /// forced by RustCrypto's own `sha1_backend="x86-sha"`.
    "shani" => Shani {
        mod: shani,
        arch: ["x86", "x86_64"],
        needs: ["sha", "sse2", "ssse3", "sse4.1"],
        rustc: "1.89",
        alias: "x86-sha",
    }
    /// AVX2 message schedule of two blocks at a time, scalar BMI2 rounds.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2", "bmi1", "bmi2"],
        rustc: "1.89",
    }
    /// ARMv8 SHA-1 instructions, four rounds per `SHA1C`/`SHA1P`/`SHA1M`. Also forced
    /// by RustCrypto's `sha1_backend="aarch64-sha2"` (which RustCrypto's crate refuses
    /// to compile without `-C target-feature=+sha2`; here it is checked at run time and
    /// panics like any forced backend the CPU lacks).
    "armv8" => Armv8 {
        mod: armv8,
        arch: ["aarch64"],
        needs: ["neon", "sha2"],
        rustc: "1.89",
        alias: "aarch64-sha2",
    }
    /// NEON without the SHA-1 instructions: single streams run the portable code;
    /// multi-buffer hashing runs 4 messages in the lanes of a `q` register. After
    /// `armv8`: with the SHA-1 instructions, one message after the other beats the
    /// 4 lanes (crate docs).
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        rustc: "1.89",
    }
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
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            // SAFETY: a `token::Shani` exists only if detection found SHA, SSE2, SSSE3
            // and SSE4.1, the target features `shani::compress` is compiled for.
            Backend::Shani(_) => unsafe { shani::compress(state, blocks) },
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            // SAFETY: a `token::Avx2` exists only if detection found AVX2, BMI1 and
            // BMI2, the target features `avx2::compress` is compiled for.
            Backend::Avx2(_) => unsafe { avx2::compress(state, blocks) },
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            // SAFETY: a `token::Armv8` exists only if detection found NEON and the SHA-1/
            // SHA-256 instructions, the target feature (`sha2`) `armv8::compress` is
            // compiled for.
            Backend::Armv8(_) => unsafe { armv8::compress(state, blocks) },
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Backend::Neon(_) => soft::compress(state, blocks),
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::Avx512(_) => match token::Shani::get() {
                // SAFETY: a `token::Shani` proves SHA-NI as above.
                Some(_) => unsafe { shani::compress(state, blocks) },
                // SAFETY: a `token::Avx512` exists only if detection found (among
                // others) AVX2, BMI1 and BMI2, the target features of `avx2::compress`.
                None => unsafe { avx2::compress(state, blocks) },
            },
        }
    }

    /// Absorbs the end of a message into `state`: the bytes of `buffer` (those after its
    /// last whole block), then the padding (`0x80`, zeros and the big-endian 64-bit
    /// `bit_len`), one block or two; `buffer` ends empty. `shani` builds the blocks in
    /// registers (see `shani::finalize`); the others pad `buffer` in place, as
    /// RustCrypto's `sha1` does.
    #[inline(never)]
    pub(crate) fn finalize(self, state: &mut [u32; 5], buffer: &mut Buffer, bit_len: u64) {
        match self {
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            // SAFETY: as in `compress`.
            Backend::Shani(_) => unsafe { shani::finalize(state, buffer.get_data(), bit_len) },
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            // SAFETY: a `token::Shani` proves SHA-NI as in `compress`.
            Backend::Avx512(_) if token::Shani::get().is_some() => unsafe {
                shani::finalize(state, buffer.get_data(), bit_len)
            },
            _ => return buffer.len64_padding_be(bit_len, |b| self.compress(state, &[b.0])),
        }
        buffer.reset();
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
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::Avx2(_) => soft::digest_lanes::<8, M>(msgs, out, single, |s, l, n| {
                // SAFETY: a `token::Avx2` exists only if detection found AVX2, the target
                // feature `avx2::compress8` is compiled for.
                unsafe { avx2::compress8(s, l, n) }
            }),
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                simdcrypt_rustc = "1.89"
            ))]
            Backend::Avx512(..) => soft::digest_lanes::<16, M>(msgs, out, single, |s, l, n| {
                // SAFETY: a `token::Avx512` exists only if detection found AVX-512 F
                // and BW, the target features of `avx512::compress16`.
                unsafe { avx512::compress16(s, l, n) }
            }),
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Backend::Neon(_) => soft::digest_lanes::<4, M>(msgs, out, single, |s, l, n| {
                // SAFETY: a `token::Neon` exists only if detection found NEON (ASIMD), the
                // target feature `neon::compress4` is compiled for.
                unsafe { neon::compress4(s, l, n) }
            }),
            // SHA-NI, ARMv8 and soft: one message after the other.
            _ => soft::digest_each(msgs, out, single),
        }
    }
}

/// The backend for one stream (`Sha1`, `compress`): [`detect`], with `avx512` resolved
/// once to the code it hashes single streams with (SHA-NI when present, else `avx2`), so
/// a compression does not test for SHA-NI again. On Zen 4 this took a 64-byte `Sha1`
/// digest from 240 to 228 TSC cycles (`cargo run --release -p speed --bin small 16 64
/// sha1`).
#[inline]
pub(crate) fn detect_stream() -> Backend {
    let b = detect();
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        simdcrypt_rustc = "1.89"
    ))]
    if let Backend::Avx512(_) = b {
        let cpu = simdcrypt_dispatch::Detected::now();
        return match token::Shani::of(cpu) {
            Some(t) => Backend::Shani(t),
            // `avx512`'s needs include `avx2`'s, so this token exists.
            None => token::Avx2::of(cpu).map_or(b, Backend::Avx2),
        };
    }
    b
}

/// Unstable, hidden: the backends by name, for benches and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;

    /// SHA-1 compression of `blocks` into `state` with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn compress_with(name: &str, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        Backend::named(name).compress(state, blocks)
    }

    /// The end of a message with backend `name`: `data` (fewer than 64 bytes) and the
    /// padding with the 64-bit `bit_len`, absorbed into `state`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or `data` has 64 bytes or more.
    pub fn finalize_with(name: &str, state: &mut [u32; 5], data: &[u8], bit_len: u64) {
        assert!(
            data.len() < 64,
            "finalize_with: the rest of a message is under 64 bytes"
        );
        Backend::named(name).finalize(state, &mut super::Buffer::new(data), bit_len)
    }

    /// Multi-buffer SHA-1 ([`crate::multi::digest_into`]) with backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or if the lengths differ.
    pub fn digest_many_with<M: AsRef<[u8]>>(name: &str, msgs: &[M], out: &mut [[u8; 20]]) {
        Backend::named(name).digest_many(msgs, out)
    }
}
