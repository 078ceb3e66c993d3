//! Backend selection: the only place that decides which AES implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg aes_backend="…"`, else the best one
//! this CPU supports. A cipher stores its choice together with the key schedule in the
//! layout that backend needs ([`Keys`]), so a bulk call dispatches once and a key layout
//! can never meet the wrong backend.
//!
//! Preference on x86: `vaes256` > `vaes512` > `aesni` > `avx2` > `soft`; see [`best`] for
//! the measurement behind putting `vaes256` first.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod aesni;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
mod soft;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod vaes256;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod vaes512;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U16};

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
use aesni::NiKeys;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(aesni_cpuid, "aes", "ssse3");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "aes", "ssse3", "avx2");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_only_cpuid, "avx2");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(vaes512_cpuid, "aes", "ssse3", "avx512f", "vaes");

/// Proof that the CPU has AES-NI and SSSE3: only [`aesni_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct AesniToken(());

/// Proof that the CPU has AVX2 with `ymm` state enabled by the OS: only [`avx2_token`]
/// makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

/// Proof that the CPU has AES-NI, SSSE3, AVX2 and VAES with `ymm` state enabled by the
/// OS: only [`vaes256_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vaes256Token(());

/// Proof that the CPU has AES-NI, SSSE3, AVX-512F and VAES with `zmm` state enabled by
/// the OS: only [`vaes512_token`] makes one.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vaes512Token(());

/// The implementation chosen for a cipher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable fixsliced Rust, every target.
    Soft,
    /// Fixsliced like `Soft`, four batches in the lanes of `ymm`: 16 blocks at once.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(Avx2Token),
    /// AES-NI on `xmm`, 8 blocks in flight.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Aesni(AesniToken),
    /// VAES on `ymm`, 16 blocks in flight.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Vaes256(Vaes256Token),
    /// VAES on `zmm`, 32 blocks in flight.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Vaes512(Vaes512Token),
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(_) => "avx2",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Aesni(_) => "aesni",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Vaes256(_) => "vaes256",
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Vaes512(_) => "vaes512",
        }
    }
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn aesni_token() -> Option<AesniToken> {
    aesni_cpuid::get().then_some(AesniToken(()))
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn avx2_token() -> Option<Avx2Token> {
    avx2_only_cpuid::get().then_some(Avx2Token(()))
}

/// VAES on `ymm`: `cpufeatures` 0.3 ties `vaes` to AVX-512 OS state, so VAES itself is
/// read from CPUID leaf 7 (ECX bit 9) here and AVX2 with OS `ymm` support from
/// `cpufeatures` — an AVX2-only CPU with VAES (e.g. Zen 3, Alder Lake) qualifies. The
/// answer is cached: CPUID is slow, and traps to the hypervisor in a VM.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn vaes256_token() -> Option<Vaes256Token> {
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    /// 0: not yet known, 1: absent, 2: present.
    static VAES256: AtomicU8 = AtomicU8::new(0);
    let known = match VAES256.load(Relaxed) {
        0 => {
            let has = detect_vaes256();
            VAES256.store(if has { 2 } else { 1 }, Relaxed);
            has
        }
        v => v == 2,
    };
    known.then_some(Vaes256Token(()))
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[cold]
fn detect_vaes256() -> bool {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::__cpuid_count;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::__cpuid_count;
    // AVX2 (with OS support for `ymm`) implies that CPUID leaf 7 exists.
    avx2_cpuid::get() && __cpuid_count(7, 0).ecx & (1 << 9) != 0
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
fn vaes512_token() -> Option<Vaes512Token> {
    vaes512_cpuid::get().then_some(Vaes512Token(()))
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "avx2" => avx2_token().map(Backend::Avx2),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "aesni" => aesni_token().map(Backend::Aesni),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "vaes256" => vaes256_token().map(Backend::Vaes256),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        "vaes512" => vaes512_token().map(Backend::Vaes512),
        _ => None,
    }
}

/// The best backend this CPU supports: `vaes256` > `vaes512` > `aesni` > `avx2` > `soft`.
///
/// `vaes256` before `vaes512`, measured on this project's reference machine (Intel Xeon
/// with AVX-512 and VAES; one interleaved run, raw AES-128 `encrypt_blocks`, TSC cycles
/// per byte):
///
/// | bytes | 128 | 256 | 512 | 1024 | 8192 | 16384 |
/// |---|---|---|---|---|---|---|
/// | `vaes256` | 0.273 | 0.220 | 0.169 | 0.150 | 0.125 | 0.126 |
/// | `vaes512` | 0.670 | 0.333 | 0.250 | 0.186 | 0.123 | 0.126 |
///
/// This core sustains two 256-bit `vaesenc` per cycle but only one 512-bit one (8 KiB
/// = 2560 `ymm` or 1280 `zmm` instructions in about 1020 TSC cycles), so both do four
/// blocks per cycle and long
/// messages run at the same speed; `zmm` only adds cost — broadcasting the round keys
/// to 512 bits, 32-block batches that leave more of a short message to the narrow
/// tail paths, and AVX-512 frequency licences on some parts. Zen 4 splits `zmm` into
/// two `ymm` halves (equal again); only cores with two full 512-bit AES units (Zen 5,
/// Granite Rapids and later) would favour `vaes512`, which can be forced with
/// `--cfg aes_backend="vaes512"` and is kept compiled for that.
#[inline]
#[cfg_attr(
    any(
        aes_backend = "soft",
        aes_backend = "avx2",
        aes_backend = "aesni",
        aes_backend = "vaes256",
        aes_backend = "vaes512"
    ),
    allow(dead_code)
)]
fn best() -> Backend {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        if let Some(t) = vaes256_token() {
            return Backend::Vaes256(t);
        }
        if let Some(t) = vaes512_token() {
            return Backend::Vaes512(t);
        }
        if let Some(t) = aesni_token() {
            return Backend::Aesni(t);
        }
        if let Some(t) = avx2_token() {
            return Backend::Avx2(t);
        }
    }
    Backend::Soft
}

/// The forced backend (`--cfg aes_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU (or is not compiled for this target).
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(aes_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(aes_backend = "avx2")]
    let backend = forced("avx2", "AVX2 on x86/x86-64");
    #[cfg(aes_backend = "aesni")]
    let backend = forced("aesni", "AES-NI and SSSE3 on x86/x86-64");
    #[cfg(aes_backend = "vaes256")]
    let backend = forced("vaes256", "AES-NI, SSSE3, AVX2 and VAES on x86/x86-64");
    #[cfg(aes_backend = "vaes512")]
    let backend = forced("vaes512", "AES-NI, SSSE3, AVX-512F and VAES on x86/x86-64");
    #[cfg(not(any(
        aes_backend = "soft",
        aes_backend = "avx2",
        aes_backend = "aesni",
        aes_backend = "vaes256",
        aes_backend = "vaes512"
    )))]
    let backend = best();
    backend
}

#[cfg(any(
    aes_backend = "avx2",
    aes_backend = "aesni",
    aes_backend = "vaes256",
    aes_backend = "vaes512"
))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => {
            panic!("aes was built with --cfg aes_backend=\"{name}\", but this CPU lacks {needs}")
        }
    }
}

/// Whether AES hardware acceleration (AES-NI) is used on this machine.
pub(crate) fn hardware_accelerated() -> bool {
    match detect() {
        Backend::Soft => false,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx2(_) => false,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Aesni(_) | Backend::Vaes256(_) | Backend::Vaes512(_) => true,
    }
}

/// A key schedule in the layout of the backend that will use it (the backend's token
/// inside): `R` round keys, 11/13/15 for AES-128/192/256.
#[derive(Clone)]
pub(crate) enum Keys<const R: usize> {
    /// Bitsliced, pre-twisted round keys of the `soft` backend (encryption and
    /// decryption use the same ones).
    Soft(soft::Keys<R>),
    /// The `soft` layout, run on `ymm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(Avx2Token, soft::Keys<R>),
    /// AES-NI layout, run on `xmm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Aesni(AesniToken, NiKeys<R>),
    /// AES-NI layout, run on `ymm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Vaes256(Vaes256Token, NiKeys<R>),
    /// AES-NI layout, run on `zmm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Vaes512(Vaes512Token, NiKeys<R>),
}

impl<const R: usize> Keys<R> {
    /// The key schedule of `key` (16, 24 or 32 bytes) for `backend`.
    #[inline]
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        match backend {
            Backend::Soft => Keys::Soft(soft::Keys::new(key)),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(t) => Keys::Avx2(t, soft::Keys::new(key)),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the token proves the CPU has AES-NI and SSSE3, the target features
            // of `aesni::expand`.
            Backend::Aesni(t) => Keys::Aesni(t, unsafe { aesni::expand(key) }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: as above (a `Vaes256Token` implies AES-NI and SSSE3).
            Backend::Vaes256(t) => Keys::Vaes256(t, unsafe { aesni::expand(key) }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: as above (a `Vaes512Token` implies AES-NI and SSSE3).
            Backend::Vaes512(t) => Keys::Vaes512(t, unsafe { aesni::expand(key) }),
        }
    }

    /// Runs `f` with this backend's encryption.
    #[inline]
    pub(crate) fn encrypt(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        match self {
            Keys::Soft(k) => k.encrypt(f),
            // SAFETY: the token proves the CPU has the target features of `avx2::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Avx2(_, k) => unsafe { avx2::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `aesni::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Aesni(_, k) => unsafe { aesni::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes256::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes256(_, k) => unsafe { vaes256::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes512::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes512(_, k) => unsafe { vaes512::encrypt(k, f) },
        }
    }

    /// Runs `f` with this backend's decryption.
    #[inline]
    pub(crate) fn decrypt(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        match self {
            Keys::Soft(k) => k.decrypt(f),
            // SAFETY: the token proves the CPU has the target features of `avx2::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Avx2(_, k) => unsafe { avx2::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `aesni::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Aesni(_, k) => unsafe { aesni::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes256::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes256(_, k) => unsafe { vaes256::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes512::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes512(_, k) => unsafe { vaes512::decrypt(k, f) },
        }
    }

    /// Overwrites the key material with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        use zeroize::Zeroize;
        match self {
            Keys::Soft(k) => k.zeroize(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Avx2(_, k) => k.zeroize(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Aesni(_, k) | Keys::Vaes256(_, k) | Keys::Vaes512(_, k) => k.zeroize(),
        }
    }
}

/// The hazmat round functions: AES-NI when the CPU has it (and `soft` is not forced),
/// else the bitsliced `soft` code. `blocks` and `keys` have the same length (1 or 8).
#[cfg(feature = "hazmat")]
pub(crate) mod hazmat {
    use super::*;
    use crate::Block;

    #[inline]
    #[cfg_attr(
        not(any(target_arch = "x86", target_arch = "x86_64")),
        allow(dead_code)
    )]
    fn ni() -> bool {
        hardware_accelerated()
    }

    /// `AESENC` on each block with its round key.
    pub(crate) fn cipher_round(blocks: &mut [Block], keys: &[Block]) {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if let (true, Some(_)) = (ni(), aesni_token()) {
            // SAFETY: `aesni_token` found AES-NI and SSSE3.
            return unsafe { aesni::cipher_round(blocks, keys) };
        }
        soft::cipher_round(blocks, keys)
    }

    /// `AESDEC` on each block with its round key.
    pub(crate) fn equiv_inv_cipher_round(blocks: &mut [Block], keys: &[Block]) {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if let (true, Some(_)) = (ni(), aesni_token()) {
            // SAFETY: `aesni_token` found AES-NI and SSSE3.
            return unsafe { aesni::equiv_inv_cipher_round(blocks, keys) };
        }
        soft::equiv_inv_cipher_round(blocks, keys)
    }

    /// MixColumns.
    pub(crate) fn mix_columns(block: &mut Block) {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if let (true, Some(_)) = (ni(), aesni_token()) {
            // SAFETY: `aesni_token` found AES-NI and SSSE3.
            return unsafe { aesni::mix_columns(block) };
        }
        soft::mix_columns(block)
    }

    /// InvMixColumns.
    pub(crate) fn inv_mix_columns(block: &mut Block) {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if let (true, Some(_)) = (ni(), aesni_token()) {
            // SAFETY: `aesni_token` found AES-NI and SSSE3.
            return unsafe { aesni::inv_mix_columns(block) };
        }
        soft::inv_mix_columns(block)
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    use super::{Keys, by_name};

    /// Names of the backends compiled into this build (available or not).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    pub const ALL: &[&str] = &["soft", "avx2", "aesni", "vaes256", "vaes512"];
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

    fn keys<const R: usize>(name: &str, key: &[u8]) -> Keys<R> {
        match by_name(name) {
            Some(b) => Keys::new(b, key),
            None => panic!("aes backend `{name}` is not available on this CPU"),
        }
    }

    macro_rules! with {
        ($($f:ident, $ty:ident, $n:literal, $doc:literal;)*) => {$(
            #[doc = $doc]
            ///
            /// # Panics
            /// If `name` is unknown or cannot run on this CPU.
            pub fn $f(name: &str, key: &[u8; $n]) -> crate::$ty {
                crate::$ty::from_keys(keys(name, key))
            }
        )*};
    }

    with! {
        aes128_with, Aes128, 16, "An [`Aes128`](crate::Aes128) that runs on backend `name`.";
        aes192_with, Aes192, 24, "An [`Aes192`](crate::Aes192) that runs on backend `name`.";
        aes256_with, Aes256, 32, "An [`Aes256`](crate::Aes256) that runs on backend `name`.";
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `aes`) through `testkit::harness::block` for all three key sizes.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{aes128_with, aes192_with, aes256_with, available};
    use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, array::Array};

    if !testkit::available(name, available(name)) {
        return;
    }
    fn enc<C: BlockCipherEncrypt<BlockSize = U16>>(c: &C, i: &[u8], o: &mut [u8]) {
        let (i, _) = Array::slice_as_chunks(i);
        let (o, _) = Array::slice_as_chunks_mut(o);
        c.encrypt_blocks_b2b(i, o).expect("same lengths");
    }
    fn dec<C: BlockCipherDecrypt<BlockSize = U16>>(c: &C, i: &[u8], o: &mut [u8]) {
        let (i, _) = Array::slice_as_chunks(i);
        let (o, _) = Array::slice_as_chunks_mut(o);
        c.decrypt_blocks_b2b(i, o).expect("same lengths");
    }
    macro_rules! run {
        ($with:ident, $peer:ty, $n:literal) => {
            if name == "soft" {
                testkit::harness::block(
                    name,
                    16,
                    par,
                    |rng| rng.bytes($n),
                    (|k: &[u8]| <$peer>::new_from_slice(k).unwrap(), enc, dec),
                    (|k: &[u8]| $with("soft", k.try_into().unwrap()), enc, dec),
                );
            } else {
                testkit::harness::block(
                    name,
                    16,
                    par,
                    |rng| rng.bytes($n),
                    (|k: &[u8]| $with("soft", k.try_into().unwrap()), enc, dec),
                    (|k: &[u8]| $with(name, k.try_into().unwrap()), enc, dec),
                );
            }
        };
    }
    run!(aes128_with, rc_aes::Aes128, 16);
    run!(aes192_with, rc_aes::Aes192, 24);
    run!(aes256_with, rc_aes::Aes256, 32);
}
