//! Backend selection: the only place that decides which Camellia implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg camellia_backend="…"`, else the best
//! one this CPU supports: `gfni_avx512` > `gfni_avx2` > `aesni_avx2` > `soft`. Every backend reads the
//! same subkeys (`[u64; RK]`, RFC 3713 order), so the cipher stores them once next to the
//! chosen [`Backend`]; a bulk call dispatches once.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod aesni_avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod bytesliced;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod gfni_avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod gfni_avx512;
pub(crate) mod soft;

use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocksSizeUser,
    array::Array,
    consts::{U1, U16},
    inout::InOut,
};

/// A Camellia block.
pub(crate) type Block = Array<u8, U16>;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "avx2");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(aesni_avx2_cpuid, "aes", "avx2");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(
    gfni_avx512_cpuid,
    "avx2",
    "gfni",
    "avx512f",
    "avx512bw",
    "avx512vl"
);

/// Proof that the CPU has AES-NI and AVX2 with `ymm` state enabled by the OS: only
/// [`aesni_avx2_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct AesniAvx2Token(());

/// Proof that the CPU has AVX2 and GFNI with `ymm` state enabled by the OS: only
/// [`gfni_avx2_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct GfniAvx2Token(());

/// Proof that the CPU has AVX2, AVX-512F/BW/VL and GFNI with `zmm` state enabled by the
/// OS: only [`gfni_avx512_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct GfniAvx512Token(());

/// The implementation chosen for a cipher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable table-based Rust, every target.
    Soft,
    /// Byte-sliced AES-NI + `vpshufb` on `ymm`, 32 blocks per pass.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    AesniAvx2(AesniAvx2Token),
    /// Byte-sliced GFNI on `ymm`, 32 blocks per pass.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    GfniAvx2(GfniAvx2Token),
    /// Byte-sliced GFNI on `zmm`, 64 blocks per pass.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    GfniAvx512(GfniAvx512Token),
}

/// GFNI with AVX2 only: `cpufeatures` 0.3 ties `gfni` to AVX-512 OS state, so GFNI itself
/// is read from CPUID leaf 7 (ECX bit 8) here and AVX2 with OS `ymm` support from
/// `cpufeatures` — an AVX2-only CPU with GFNI (e.g. Alder Lake) qualifies. Cached: CPUID
/// is slow, and traps to the hypervisor in a VM.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn gfni_avx2_token() -> Option<GfniAvx2Token> {
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    /// 0: not yet known, 1: absent, 2: present.
    static GFNI_AVX2: AtomicU8 = AtomicU8::new(0);
    let known = match GFNI_AVX2.load(Relaxed) {
        0 => {
            let has = detect_gfni_avx2();
            GFNI_AVX2.store(if has { 2 } else { 1 }, Relaxed);
            has
        }
        v => v == 2,
    };
    known.then_some(GfniAvx2Token(()))
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[cold]
fn detect_gfni_avx2() -> bool {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::__cpuid_count;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::__cpuid_count;
    // AVX2 (with OS support for `ymm`) implies that CPUID leaf 7 exists.
    avx2_cpuid::get() && __cpuid_count(7, 0).ecx & (1 << 8) != 0
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn aesni_avx2_token() -> Option<AesniAvx2Token> {
    aesni_avx2_cpuid::get().then_some(AesniAvx2Token(()))
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn gfni_avx512_token() -> Option<GfniAvx512Token> {
    gfni_avx512_cpuid::get().then_some(GfniAvx512Token(()))
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::AesniAvx2(_) => "aesni_avx2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::GfniAvx2(_) => "gfni_avx2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::GfniAvx512(_) => "gfni_avx512",
        }
    }

    /// Runs `f` with this backend's encryption under the subkeys `k`.
    #[inline]
    pub(crate) fn encrypt<const RK: usize>(
        self,
        k: &[u64; RK],
        f: impl BlockCipherEncClosure<BlockSize = U16>,
    ) {
        match self {
            Backend::Soft => f.call(&Soft(k)),
            // SAFETY: the token proves the CPU has the target features of
            // `aesni_avx2::encrypt` (AES-NI, AVX2).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::AesniAvx2(_) => unsafe { aesni_avx2::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of
            // `gfni_avx2::encrypt` (AVX2, GFNI).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::GfniAvx2(_) => unsafe { gfni_avx2::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of
            // `gfni_avx512::encrypt` (AVX2, AVX-512F/BW/VL, GFNI).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::GfniAvx512(_) => unsafe { gfni_avx512::encrypt(k, f) },
        }
    }

    /// Runs `f` with this backend's decryption under the subkeys `k`.
    #[inline]
    pub(crate) fn decrypt<const RK: usize>(
        self,
        k: &[u64; RK],
        f: impl BlockCipherDecClosure<BlockSize = U16>,
    ) {
        match self {
            Backend::Soft => f.call(&Soft(k)),
            // SAFETY: the token proves the CPU has the target features of
            // `aesni_avx2::decrypt` (AES-NI, AVX2).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::AesniAvx2(_) => unsafe { aesni_avx2::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of
            // `gfni_avx2::decrypt` (AVX2, GFNI).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::GfniAvx2(_) => unsafe { gfni_avx2::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of
            // `gfni_avx512::decrypt` (AVX2, AVX-512F/BW/VL, GFNI).
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::GfniAvx512(_) => unsafe { gfni_avx512::decrypt(k, f) },
        }
    }
}

/// The `soft` backend handed to `cipher`'s closures: one block at a time (the table code
/// has its parallelism inside the F-function's eight independent look-ups).
struct Soft<'a, const RK: usize>(&'a [u64; RK]);

impl<const RK: usize> BlockSizeUser for Soft<'_, RK> {
    type BlockSize = U16;
}

impl<const RK: usize> ParBlocksSizeUser for Soft<'_, RK> {
    type ParBlocksSize = U1;
}

impl<const RK: usize> BlockCipherEncBackend for Soft<'_, RK> {
    #[inline(always)]
    fn encrypt_block(&self, mut block: InOut<'_, '_, Block>) {
        let r = soft::encrypt(self.0, block.get_in());
        block.get_out().copy_from_slice(&r);
    }
}

impl<const RK: usize> BlockCipherDecBackend for Soft<'_, RK> {
    #[inline(always)]
    fn decrypt_block(&self, mut block: InOut<'_, '_, Block>) {
        let r = soft::decrypt(self.0, block.get_in());
        block.get_out().copy_from_slice(&r);
    }
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "aesni_avx2" => aesni_avx2_token().map(Backend::AesniAvx2),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "gfni_avx2" => gfni_avx2_token().map(Backend::GfniAvx2),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "gfni_avx512" => gfni_avx512_token().map(Backend::GfniAvx512),
        _ => None,
    }
}

/// The best backend this CPU supports: `gfni_avx512` > `gfni_avx2` > `aesni_avx2` >
/// `soft`.
#[inline]
#[cfg_attr(
    any(
        camellia_backend = "soft",
        camellia_backend = "aesni_avx2",
        camellia_backend = "gfni_avx2",
        camellia_backend = "gfni_avx512"
    ),
    allow(dead_code)
)]
fn best() -> Backend {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        if let Some(t) = gfni_avx512_token() {
            return Backend::GfniAvx512(t);
        }
        if let Some(t) = gfni_avx2_token() {
            return Backend::GfniAvx2(t);
        }
        if let Some(t) = aesni_avx2_token() {
            return Backend::AesniAvx2(t);
        }
    }
    Backend::Soft
}

/// The forced backend (`--cfg camellia_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU (or is not compiled for this target).
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(camellia_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(camellia_backend = "aesni_avx2")]
    let backend = forced("aesni_avx2", "AES-NI and AVX2 on x86/x86-64");
    #[cfg(camellia_backend = "gfni_avx2")]
    let backend = forced("gfni_avx2", "AVX2 and GFNI on x86/x86-64");
    #[cfg(camellia_backend = "gfni_avx512")]
    let backend = forced("gfni_avx512", "AVX2, AVX-512F/BW/VL and GFNI on x86/x86-64");
    #[cfg(not(any(
        camellia_backend = "soft",
        camellia_backend = "aesni_avx2",
        camellia_backend = "gfni_avx2",
        camellia_backend = "gfni_avx512"
    )))]
    let backend = best();
    backend
}

#[cfg(any(
    camellia_backend = "aesni_avx2",
    camellia_backend = "gfni_avx2",
    camellia_backend = "gfni_avx512"
))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => panic!(
            "camellia was built with --cfg camellia_backend=\"{name}\", but this CPU lacks {needs}"
        ),
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    use super::by_name;
    use crate::{Camellia128, Camellia192, Camellia256};

    /// Names of the backends compiled into this build (available or not).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub const ALL: &[&str] = &["soft", "aesni_avx2", "gfni_avx2", "gfni_avx512"];
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

    fn backend(name: &str) -> super::Backend {
        match by_name(name) {
            Some(b) => b,
            None => panic!("camellia backend `{name}` is not available on this CPU"),
        }
    }

    /// A [`Camellia128`] that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn camellia128_with(name: &str, key: &[u8; 16]) -> Camellia128 {
        Camellia128::from_parts(super::soft::expand128(key), backend(name))
    }

    /// A [`Camellia192`] that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn camellia192_with(name: &str, key: &[u8; 24]) -> Camellia192 {
        Camellia192::from_parts(super::soft::expand256(key), backend(name))
    }

    /// A [`Camellia256`] that runs on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn camellia256_with(name: &str, key: &[u8; 32]) -> Camellia256 {
        Camellia256::from_parts(super::soft::expand256(key), backend(name))
    }
}
