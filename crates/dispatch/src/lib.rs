//! The backend table behind the simdcrypt crates.
//!
//! Every simdcrypt crate declares its implementations ("backends") in **one table**, an
//! invocation of [`backends!`] in its `src/backends.rs`. A row names the backend, the
//! architectures it is compiled for, the CPU features it needs, the message sizes where it
//! is the right choice and the CPUs where the automatic choice passes it over. From the
//! table come the proof tokens, the `Backend` enum, forced selection
//! (`--cfg <alg>_backend="<name>"`), detection, the crate's hidden `__backends` facts
//! (`ALL`, `TABLE`, `available`, `selected`) and what `cargo xtask` reads.
//!
//! Feature detection is this crate's own, once per process, cached in one atomic word.
//! x86: CPUID and XGETBV, so that VAES, GFNI and VPCLMULQDQ count on CPUs with AVX2 but no
//! AVX-512: the OS state a backend needs comes from the *other* features its row lists
//! (`avx2` means `ymm` state, `avx512*` means `zmm` state), not from VAES itself.
//! aarch64 ([`AARCH64_FEATURES`]): `getauxval(AT_HWCAP)` on Linux and Android, always-present
//! features on Apple, compile-time `target_feature`s elsewhere. Other architectures
//! detect nothing (only rows without `arch` run there).
//!
//! This crate is an implementation detail of simdcrypt; its API follows the needs of the
//! workspace.
//!
//! # The table
//! In `src/backends.rs` (this one is compiled, with its module files, as
//! `tests/demo/backends.rs`):
//! ```ignore
//! simdcrypt_dispatch::backends! {
//!     crate: "demo", cfg: demo_backend;
//!     /// Portable Rust, every target.
//!     "soft" => Soft;
//!     // Then the others, the most preferred first: detection takes the first row this
//!     // CPU runs and does not avoid.
//!     /// SSE2, 4 blocks per call.
//!     "sse2" => Sse2 {
//!         mod: sse2,
//!         arch: ["x86_64"],
//!         needs: ["sse2"],
//!         blocks: 3,
//!         avoid: ["slow-gather"],
//!     }
//! }
//!
//! /// Encrypts `blocks` under `keys` on `backend`: `soft::encrypt(keys, blocks)` or
//! /// `sse2::encrypt(keys, blocks)`.
//! pub(crate) fn encrypt(backend: Backend, keys: &Keys, blocks: &mut [Block]) {
//!     dispatch!(backend => encrypt(keys, blocks))
//! }
//! ```
//! - `mod` (every row but `soft`): the row's module, `src/backends/<name>.rs`, named as
//!   the row (a compile-time check). The table declares it (`soft` too) under the row's
//!   `cfg`, so adding a backend is its file and its row.
//! - `alias` (optional, `alias: "x86-sha"`): a value of the RustCrypto crate's own
//!   `<alg>_backend` cfg that forces this row, for drop-in builds that set it.
//! - `blocks` (optional, default 1): from how many blocks per call the backend is the
//!   right choice; it is `token::V::MIN_BLOCKS` for the backend's own tail handling.
//! - `avoid` (optional): CPU classes (see [`CLASSES`]) on which the automatic choice skips
//!   the row. Forcing still runs it.
//! - `rustc` (optional, `rustc: "1.89"`): the oldest Rust that compiles the row's code,
//!   when that is newer than the crate's `rust-version`. Older compilers build the crate
//!   without the row (its token, variant and detection arm), as if its `arch` did not
//!   match. The crate's build script calls [`build::rustc_cfg`] (feature `build`), which
//!   sets the `simdcrypt_rustc` cfg the rows test; hand-written code that uses the row
//!   carries the same `#[cfg(all(any(target_arch = …), simdcrypt_rustc = "1.89"))]`.
//!
//! Forcing: `--cfg demo_backend="sse2"` makes `detect()` return that backend and panics
//! with a clear message if the CPU lacks a needed feature. Every backend stays compiled.
#![no_std]
#![deny(missing_docs)]

#[cfg(any(test, feature = "build"))]
extern crate std;

#[cfg(feature = "build")]
pub mod build;

#[cfg(feature = "modes")]
pub mod modes;

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One row of a crate's backend table, as data (for benches, xtask and docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The backend's name: file stem, cfg value, test prefix and bench id.
    pub name: &'static str,
    /// The `target_arch` values it is compiled for; empty for `soft` (every target).
    pub arch: &'static [&'static str],
    /// The CPU features it needs (Rust's `target_feature` names for the row's `arch`:
    /// [`FEATURES`] on x86, [`AARCH64_FEATURES`] on aarch64).
    pub needs: &'static [&'static str],
    /// From how many blocks (or digest blocks) per call it is the right choice.
    pub min_blocks: usize,
    /// CPU classes on which the automatic choice passes it over.
    pub avoid: &'static [&'static str],
    /// The row's doc comment.
    pub about: &'static str,
    /// The oldest Rust that compiles the row's code (`rustc: "1.89"`), if it is newer than
    /// the crate's `rust-version`; else `""`. Older compilers build the crate without it.
    pub rustc: &'static str,
    /// Whether the row is compiled into this build (its `target_arch` and `rustc`).
    pub built: bool,
}

impl Row {
    /// Whether this row is compiled into the current build.
    pub fn compiled(&self) -> bool {
        self.built
    }
}

/// This build's `target_arch`, spelled as in `cfg(target_arch = "…")`.
const TARGET_ARCH: &str = if cfg!(target_arch = "x86_64") {
    "x86_64"
} else if cfg!(target_arch = "x86") {
    "x86"
} else if cfg!(target_arch = "aarch64") {
    "aarch64"
} else {
    "other"
};

/// The x86 CPU features a row may need, with their bit in the detection word (names as
/// in `is_x86_feature_detected!` and `#[target_feature]`).
pub const FEATURES: &[(&str, u32)] = &[
    ("sse2", 0),
    ("ssse3", 1),
    ("sse4.1", 2),
    ("sse4.2", 3),
    ("aes", 4),
    ("pclmulqdq", 5),
    ("avx", 6),
    ("avx2", 7),
    ("bmi1", 8),
    ("bmi2", 9),
    ("avx512f", 10),
    ("avx512bw", 11),
    ("avx512dq", 12),
    ("avx512vl", 13),
    ("avx512vbmi", 14),
    ("avx512vbmi2", 15),
    ("vaes", 16),
    ("vpclmulqdq", 17),
    ("gfni", 18),
    ("sha", 19),
    ("fma", 20),
];

/// The aarch64 CPU features a row may need, with their bit in the detection word. The
/// names are Rust's aarch64 `target_feature` names (as in `is_aarch64_feature_detected!`),
/// with their meaning there:
///
/// - `neon`: Advanced SIMD (`HWCAP_ASIMD`);
/// - `aes`: the AES instructions *and* 64-bit `PMULL` (`HWCAP_AES` and `HWCAP_PMULL`);
///   it shares its bit with x86's `aes` (one detection word per process, one
///   architecture);
/// - `sha2`: the SHA-1 and SHA-256 instructions (`HWCAP_SHA1` and `HWCAP_SHA2`);
/// - `sha3`: the SHA-3 and SHA-512 instructions (`HWCAP_SHA3` and `HWCAP_SHA512`).
///
/// Kept apart from [`FEATURES`] so that the x86 list stays what x86 tools print.
pub const AARCH64_FEATURES: &[(&str, u32)] =
    &[("neon", 21), ("aes", 4), ("sha2", 22), ("sha3", 23)];

/// The CPU classes a row may avoid, with their bit in the detection word.
///
/// - `intel`, `amd`: the CPUID vendor (`amd` includes Hygon).
/// - `zen4`: AMD family 19h with AVX-512 (512-bit operations run as two 256-bit halves).
/// - `slow-gather`: every x86 CPU except Intel cores with AVX512-FP16 (Sapphire Rapids and
///   later), the only ones where `vpgatherdd` was measured to beat scalar table look-ups
///   (Sapphire/Emerald Rapids are not affected by Gather Data Sampling; the earlier
///   AVX-512 Intel cores run gathers under its microcode mitigation, up to ≈3× slower, and
///   AMD Zen 4 issues gathers as scalar loads: issue 18's Zen 4 figures).
pub const CLASSES: &[(&str, u32)] = &[
    ("intel", 40),
    ("amd", 41),
    ("zen4", 42),
    ("slow-gather", 43),
];

/// Bit 63: the detection word has been filled in.
const KNOWN: u64 = 1 << 63;

/// Whether `a` and `b` are the same string, in a `const` (for [`backends!`]).
#[doc(hidden)]
pub const fn __same(a: &str, b: &str) -> bool {
    same(a, b)
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn bit_of(name: &str, table: &[(&str, u32)]) -> Option<u32> {
    let mut i = 0;
    while i < table.len() {
        if same(table[i].0, name) {
            return Some(table[i].1);
        }
        i += 1;
    }
    None
}

/// The detection-word mask of `names` (features or CPU classes).
///
/// # Panics
/// On a name in none of [`FEATURES`], [`AARCH64_FEATURES`] and [`CLASSES`]: at compile
/// time, where a table uses it.
pub const fn mask(names: &[&str]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < names.len() {
        let bit = match bit_of_any(names[i]) {
            Some(b) => b,
            None => panic!("unknown CPU feature or class in a backend table"),
        };
        m |= 1 << bit;
        i += 1;
    }
    m
}

/// The bit of a feature (x86 or aarch64) or CPU class.
const fn bit_of_any(name: &str) -> Option<u32> {
    match bit_of(name, FEATURES) {
        Some(b) => Some(b),
        None => match bit_of(name, AARCH64_FEATURES) {
            Some(b) => Some(b),
            None => bit_of(name, CLASSES),
        },
    }
}

/// The cached detection word (features and classes of this CPU, plus [`KNOWN`]).
static WORD: AtomicU64 = AtomicU64::new(0);

#[inline]
fn word() -> u64 {
    match WORD.load(Relaxed) {
        0 => fill(),
        w => w,
    }
}

#[cold]
fn fill() -> u64 {
    let w = detect::word() | KNOWN;
    WORD.store(w, Relaxed);
    w
}

/// This CPU's detection word, read once, for a caller that tests several masks: the
/// automatic choice tests every row of a table against one read.
///
/// Only [`Detected::now`] makes one, so a value is detection's answer and a proof
/// token may be made from it. (Each [`has`] reads the word again: an atomic load the
/// compiler may not merge. `Sha1::new()` read it five times; `Backend::best()` now
/// reads it once.)
#[derive(Clone, Copy, Debug)]
pub struct Detected(u64);

impl Detected {
    /// The detection word (detecting on first use).
    #[inline]
    pub fn now() -> Self {
        Self(word())
    }

    /// Whether this CPU has every feature and class in `mask`.
    #[inline]
    pub fn has(self, mask: u64) -> bool {
        self.0 & mask == mask
    }

    /// Whether this CPU is in any of the classes (or has any of the features) in `mask`.
    #[inline]
    pub fn has_any(self, mask: u64) -> bool {
        self.0 & mask != 0
    }
}

/// Whether this CPU has every feature and class in `mask` (with the OS state they need).
#[inline]
pub fn has(mask: u64) -> bool {
    Detected::now().has(mask)
}

/// Whether this CPU is in any of the classes (or has any of the features) in `mask`.
#[inline]
pub fn has_any(mask: u64) -> bool {
    Detected::now().has_any(mask)
}

/// Whether this CPU has the feature or class `name` (`false` for unknown names).
pub fn has_named(name: &str) -> bool {
    match bit_of_any(name) {
        Some(bit) => has(1 << bit),
        None => false,
    }
}

/// What a forced backend resolves to; panics with the cfg and the missing features if
/// this CPU cannot run it.
#[track_caller]
pub fn forced<B>(backend: Option<B>, krate: &str, cfg: &str, name: &str, needs: &[&str]) -> B {
    match backend {
        Some(b) => b,
        None => {
            let lacks = Lacking(needs);
            panic!(
                "{krate} was built with --cfg {cfg}=\"{name}\", but this CPU or target lacks \
                 {lacks}"
            )
        }
    }
}

/// Formats the features of a list that this CPU lacks.
struct Lacking<'a>(&'a [&'a str]);

impl core::fmt::Display for Lacking<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut first = true;
        for n in self.0.iter().filter(|n| !has_named(n)) {
            if !first {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
            first = false;
        }
        if first {
            // The CPU has the features: the row is not compiled in (its `arch` or `rustc`).
            f.write_str("it in this build (not compiled for ")?;
            f.write_str(TARGET_ARCH)?;
            f.write_str(" or for this Rust version)")?;
        }
        Ok(())
    }
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod detect {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::{__cpuid_count, CpuidResult};
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::{__cpuid_count, CpuidResult};

    use super::mask;

    /// XCR0 bits: SSE and AVX state (`ymm`).
    const YMM_STATE: u64 = 0b110;
    /// XCR0 bits: `ymm` plus opmask, ZMM_Hi256 and Hi16_ZMM state (`zmm`).
    const ZMM_STATE: u64 = 0b1110_0110;

    /// CPUID leaf `leaf`, sub-leaf `sub`.
    // `__cpuid_count` is a safe function from Rust 1.87 on and an `unsafe fn` before, down
    // to this crate's 1.85 floor: the block is needed there and unused here.
    #[allow(unused_unsafe)]
    fn cpuid(leaf: u32, sub: u32) -> CpuidResult {
        // SAFETY: CPUID exists on every x86-64 CPU and on every x86 CPU Rust targets
        // (i586 and later); a leaf above the maximum only returns unspecified values,
        // which the callers avoid for leaf 7 by checking leaf 0's maximum.
        unsafe { __cpuid_count(leaf, sub) }
    }

    /// Features and classes of this CPU from CPUID leaves 0, 1 and 7 and XCR0.
    pub(super) fn word() -> u64 {
        let leaf0 = cpuid(0, 0);
        let max_leaf = leaf0.eax;
        let vendor = [leaf0.ebx, leaf0.edx, leaf0.ecx];
        let is = |s: &[u8; 12]| {
            let mut v = [0u8; 12];
            for (i, r) in vendor.iter().enumerate() {
                v[4 * i..4 * i + 4].copy_from_slice(&r.to_le_bytes());
            }
            &v == s
        };
        let intel = is(b"GenuineIntel");
        let amd = is(b"AuthenticAMD") || is(b"HygonGenuine");
        let l1 = cpuid(1, 0);
        let family = match (l1.eax >> 8) & 0xf {
            0xf => 0xf + ((l1.eax >> 20) & 0xff),
            f => f,
        };
        let (b7, c7, d7) = if max_leaf >= 7 {
            let l7 = cpuid(7, 0);
            (l7.ebx, l7.ecx, l7.edx)
        } else {
            (0, 0, 0)
        };
        let osxsave = l1.ecx & (1 << 27) != 0;
        let xcr0 = if osxsave { xgetbv0() } else { 0 };
        let ymm = xcr0 & YMM_STATE == YMM_STATE;
        let zmm = xcr0 & ZMM_STATE == ZMM_STATE;

        let mut w = 0;
        let mut set = |on: bool, name: &str| {
            if on {
                w |= mask(&[name]);
            }
        };
        set(l1.edx & (1 << 26) != 0, "sse2");
        set(l1.ecx & (1 << 9) != 0, "ssse3");
        set(l1.ecx & (1 << 19) != 0, "sse4.1");
        set(l1.ecx & (1 << 20) != 0, "sse4.2");
        set(l1.ecx & (1 << 25) != 0, "aes");
        set(l1.ecx & (1 << 1) != 0, "pclmulqdq");
        set(ymm && l1.ecx & (1 << 28) != 0, "avx");
        set(ymm && l1.ecx & (1 << 12) != 0, "fma");
        set(ymm && b7 & (1 << 5) != 0, "avx2");
        set(b7 & (1 << 3) != 0, "bmi1");
        set(b7 & (1 << 8) != 0, "bmi2");
        set(b7 & (1 << 29) != 0, "sha");
        // The instruction-set bits alone: the rows that use them on `ymm` or `zmm` also
        // list `avx2` or `avx512f`, which carry the OS state.
        set(c7 & (1 << 9) != 0, "vaes");
        set(c7 & (1 << 10) != 0, "vpclmulqdq");
        set(c7 & (1 << 8) != 0, "gfni");
        set(zmm && b7 & (1 << 16) != 0, "avx512f");
        set(zmm && b7 & (1 << 17) != 0, "avx512dq");
        set(zmm && b7 & (1 << 30) != 0, "avx512bw");
        set(zmm && b7 & (1 << 31) != 0, "avx512vl");
        set(zmm && c7 & (1 << 1) != 0, "avx512vbmi");
        set(zmm && c7 & (1 << 6) != 0, "avx512vbmi2");
        let avx512f = zmm && b7 & (1 << 16) != 0;
        let avx512fp16 = d7 & (1 << 23) != 0;
        set(intel, "intel");
        set(amd, "amd");
        set(amd && family == 0x19 && avx512f, "zen4");
        set(!(intel && avx512fp16), "slow-gather");
        w
    }

    fn xgetbv0() -> u64 {
        let (lo, hi): (u32, u32);
        // SAFETY: only called when CPUID.1:ECX.OSXSAVE is set, which means the OS has
        // enabled XSAVE and XGETBV is executable; ECX = 0 selects XCR0, which always
        // exists. The instruction reads no memory and changes no flags.
        unsafe {
            core::arch::asm!(
                "xgetbv",
                in("ecx") 0u32,
                out("eax") lo,
                out("edx") hi,
                options(nomem, nostack, preserves_flags),
            );
        }
        (u64::from(hi) << 32) | u64::from(lo)
    }
}

/// aarch64: the OS reports the features (EL0 cannot read the ID registers portably).
///
/// - Linux and Android: `getauxval(AT_HWCAP)`, the kernel's hardware capabilities;
/// - Apple (macOS, iOS, …): every Apple aarch64 core has NEON, AES, PMULL, SHA-1 and
///   SHA-256, and Apple's targets enable them at compile time;
/// - elsewhere (Windows, the BSDs, bare metal): the features the build enables
///   (`-C target-feature`, `-C target-cpu`) only.
///
/// In every case a feature enabled at compile time counts: the binary only runs on CPUs
/// that have it.
#[cfg(target_arch = "aarch64")]
mod detect {
    use super::mask;

    /// `getauxval` from the C library (glibc, musl and Bionic all have it; std links it).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    mod auxv {
        use core::ffi::c_ulong;

        unsafe extern "C" {
            fn getauxval(kind: c_ulong) -> c_ulong;
        }

        /// `AT_HWCAP` and its bits, from Linux's `include/uapi/linux/auxvec.h` and
        /// `arch/arm64/include/uapi/asm/hwcap.h`.
        const AT_HWCAP: c_ulong = 16;
        pub(super) const ASIMD: u64 = 1 << 1;
        pub(super) const AES: u64 = 1 << 3;
        pub(super) const PMULL: u64 = 1 << 4;
        pub(super) const SHA1: u64 = 1 << 5;
        pub(super) const SHA2: u64 = 1 << 6;
        pub(super) const SHA3: u64 = 1 << 17;
        pub(super) const SHA512: u64 = 1 << 21;

        /// The kernel's `AT_HWCAP` word.
        pub(super) fn hwcap() -> u64 {
            // SAFETY: `getauxval` takes an integer, reads the process's auxiliary vector
            // and returns 0 for a type it does not know; it has no other effect.
            u64::from(unsafe { getauxval(AT_HWCAP) })
        }
    }

    /// Features of this CPU as the OS reports them, plus those the build enables.
    pub(super) fn word() -> u64 {
        let mut w = 0;
        let mut set = |on: bool, name: &str| {
            if on {
                w |= mask(&[name]);
            }
        };
        set(cfg!(target_feature = "neon"), "neon");
        set(cfg!(target_feature = "aes"), "aes");
        set(cfg!(target_feature = "sha2"), "sha2");
        set(cfg!(target_feature = "sha3"), "sha3");
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let h = auxv::hwcap();
            let all = |bits: u64| h & bits == bits;
            let neon = all(auxv::ASIMD);
            // As Rust's std: each crypto feature implies (and here requires) NEON.
            set(neon, "neon");
            set(neon && all(auxv::AES | auxv::PMULL), "aes");
            set(neon && all(auxv::SHA1 | auxv::SHA2), "sha2");
            // `sha3` implies `sha2` in Rust's feature set, as in std's detection.
            let sha2 = neon && all(auxv::SHA1 | auxv::SHA2);
            set(sha2 && all(auxv::SHA3 | auxv::SHA512), "sha3");
        }
        #[cfg(target_vendor = "apple")]
        {
            set(true, "neon");
            set(true, "aes");
            set(true, "sha2");
        }
        w
    }
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")))]
mod detect {
    /// No feature detection on this architecture yet: only `soft` runs.
    pub(super) fn word() -> u64 {
        0
    }
}

/// Declares a crate's backend table and generates what comes from it.
///
/// See the [crate docs](crate) for the grammar. In the invoking module it generates:
/// - `mod token`: one proof type per row, named like its variant, made only by
///   `token::V::get()` or `token::V::of(Detected)` (detection), with `NEEDS` and
///   `MIN_BLOCKS`;
/// - `enum Backend` (`Copy`), with `name()`, `by_name()`, `named()` (panics for a
///   backend this CPU cannot run) and `best()`;
/// - `fn detect()`: the forced backend (`--cfg <cfg>="<name>"`), else `Backend::best()`;
/// - `pub mod __table`: `ALL` (the names compiled into this build), `TABLE` (every row, as
///   [`Row`]s), `available(name)` and `selected()`, for the crate's `__backends`;
/// - the modules: `pub(crate) mod soft;` and each row's `mod`, under the row's `cfg`;
/// - `macro_rules! dispatch`: `dispatch!(backend => f(a, b))` is a `match` that calls
///   `f(a, b)` of the module of `backend`'s row (inside `unsafe` for the others than
///   `soft`: the token in the variant is the proof); `dispatch!(backend => f(a, b), soft =>
///   expr)` gives `soft` its own arm.
#[macro_export]
macro_rules! backends {
    (
        crate: $krate:literal, cfg: $cfg:ident;
        $(#[doc = $sdoc:literal])*
        "soft" => $Soft:ident;
        $(
            $(#[doc = $doc:literal])*
            $name:literal => $V:ident {
                mod: $m:ident,
                arch: [$($arch:literal),+ $(,)?],
                needs: [$($feat:literal),* $(,)?],
                $(blocks: $blocks:expr,)?
                $(avoid: [$($avoid:literal),* $(,)?],)?
                $(rustc: $rustc:literal,)?
                $(alias: $alias:literal,)?
            }
        )*
    ) => {
        pub(crate) mod soft;
        $(
            #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
            $(#[clippy::msrv = $rustc])?
            pub(crate) mod $m;

            const _: () = assert!(
                $crate::__same($name, stringify!($m)),
                concat!("backend \"", $name, "\": `mod:` names another module (one name per backend)")
            );
        )*

        /// Proof tokens: a value of `token::V` shows that this CPU runs backend `V`; only
        /// `V::get()` and `V::of`, which ask detection, make one.
        #[allow(dead_code)]
        pub(crate) mod token {
            $(
                #[doc = concat!("Proof that this CPU runs the `", $name, "` backend.")]
                #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                #[derive(Clone, Copy, Debug)]
                pub(crate) struct $V(());

                #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                impl $V {
                    /// The detection-word mask of the features it needs.
                    pub(crate) const NEEDS: u64 = $crate::mask(&[$($feat),*]);
                    /// The detection-word mask of the CPU classes the automatic choice
                    /// skips it on.
                    pub(crate) const AVOID: u64 = $crate::mask(&[$($($avoid),*)?]);
                    /// From how many blocks per call this backend is the right choice.
                    pub(crate) const MIN_BLOCKS: usize = { let _b = 1; $(let _b = $blocks;)? _b };
                    /// The token, if this CPU has every feature the backend needs.
                    #[inline]
                    pub(crate) fn get() -> Option<Self> {
                        Self::of($crate::Detected::now())
                    }
                    /// [`get`](Self::get) on a detection word already read.
                    #[inline]
                    pub(crate) fn of(cpu: $crate::Detected) -> Option<Self> {
                        cpu.has(Self::NEEDS).then_some(Self(()))
                    }
                }
            )*
        }

        /// The implementation chosen for a cipher or hasher (stored at `new()`).
        #[derive(Clone, Copy, Debug)]
        pub(crate) enum Backend {
            $(#[doc = $sdoc])*
            $Soft,
            $(
                $(#[doc = $doc])*
                #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                $V(token::$V),
            )*
        }

        #[allow(dead_code)]
        impl Backend {
            /// The backend's name (the cfg value, file stem and bench id).
            pub(crate) fn name(self) -> &'static str {
                match self {
                    Backend::$Soft => "soft",
                    $(
                        #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                        Backend::$V(_) => $name,
                    )*
                }
            }

            /// The backend named `name`, if it is compiled in and this CPU runs it.
            pub(crate) fn by_name(name: &str) -> Option<Self> {
                match name {
                    "soft" => Some(Backend::$Soft),
                    $(
                        #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                        $name => token::$V::get().map(Backend::$V),
                    )*
                    _ => None,
                }
            }

            /// The backend named `name`, for the constructors of a crate's `__backends`.
            ///
            /// # Panics
            /// If `name` is unknown or this CPU cannot run it.
            pub(crate) fn named(name: &str) -> Self {
                Self::by_name(name).unwrap_or_else(|| {
                    panic!("{} backend `{name}` is not available on this CPU", $krate)
                })
            }

            /// The automatic choice: the first row of the table (after `soft`) that this
            /// CPU runs and does not avoid, else `soft`.
            #[inline]
            pub(crate) fn best() -> Self {
                if __table::ALL.len() == 1 {
                    // No row is compiled in for this target: no detection to read.
                    return Backend::$Soft;
                }
                let _cpu = $crate::Detected::now();
                $(
                    #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                    if !_cpu.has_any(token::$V::AVOID) {
                        if let Some(t) = token::$V::of(_cpu) {
                            return Backend::$V(t);
                        }
                    }
                )*
                Backend::$Soft
            }
        }

        /// The forced backend (`--cfg <alg>_backend="…"`), else [`Backend::best`].
        ///
        /// # Panics
        /// If a forced backend cannot run on this CPU (or is not compiled for this target).
        #[inline]
        #[allow(unreachable_code)]
        pub(crate) fn detect() -> Backend {
            #[cfg($cfg = "soft")]
            {
                return Backend::$Soft;
            }
            $(
                #[cfg(any($cfg = $name $(, $cfg = $alias)?))]
                {
                    return $crate::forced(
                        Backend::by_name($name),
                        $krate,
                        stringify!($cfg),
                        {
                            // The value given: the row's name or its alias.
                            let _v = $name;
                            $(#[cfg($cfg = $alias)] let _v = $alias;)?
                            _v
                        },
                        &[$($feat),*],
                    );
                }
            )*
            Backend::best()
        }

        /// Unstable, hidden: the table as data, for `__backends`.
        #[doc(hidden)]
        pub mod __table {
            /// Every row of the table (compiled in or not), preference order after `soft`.
            pub const TABLE: &[$crate::Row] = &[
                $crate::Row {
                    name: "soft",
                    arch: &[],
                    needs: &[],
                    min_blocks: 1,
                    avoid: &[],
                    about: concat!($($sdoc),*),
                    rustc: "",
                    built: true,
                },
                $(
                    $crate::Row {
                        name: $name,
                        arch: &[$($arch),+],
                        needs: &[$($feat),*],
                        min_blocks: { let _b = 1; $(let _b = $blocks;)? _b },
                        avoid: &[$($($avoid),*)?],
                        about: concat!($($doc),*),
                        rustc: { let _v = ""; $(let _v = $rustc;)? _v },
                        built: cfg!(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?)),
                    },
                )*
            ];

            const COMPILED: usize = 1 $(+ cfg!(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?)) as usize)*;

            const NAMES: [&str; COMPILED] = {
                let mut names = ["soft"; COMPILED];
                let mut _i = 1;
                $(
                    if cfg!(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?)) {
                        names[_i] = $name;
                        _i += 1;
                    }
                )*
                names
            };

            /// Names of the backends compiled into this build (available or not).
            pub const ALL: &[&str] = &NAMES;

            /// Whether backend `name` is compiled in and can run on this CPU.
            pub fn available(name: &str) -> bool {
                super::Backend::by_name(name).is_some()
            }

            /// The name of the backend a new instance uses (forced or detected).
            pub fn selected() -> &'static str {
                super::detect().name()
            }
        }
        $crate::backends!(@dispatch ($) $Soft; $($m $V [$($arch),+] [$($rustc)?])*);
    };
    // `dispatch!`, written by the arm above: `$d` is a `$` for the inner macro's own
    // metavariables.
    (@dispatch ($d:tt) $Soft:ident; $($m:ident $V:ident [$($arch:literal),+] [$($rustc:literal)?])*) => {
        /// `dispatch!(backend => f(a, b))` calls `f` of the module of `backend`'s row:
        /// `soft::f(a, b)`, `avx2::f(a, b)`, … (`f::<T>` too; the arguments are names, so
        /// that no expression runs inside the `unsafe` below). `dispatch!(backend => f(a, b),
        /// soft => expr)` gives the `soft` arm its own expression.
        #[allow(unused_macros)]
        macro_rules! dispatch {
            ($d backend:expr => $d f:ident $d(::<$d($d g:tt),+>)? ($d($d a:ident),* $d(,)?)) => {
                dispatch!(
                    $d backend => $d f $d(::<$d($d g),+>)? ($d($d a),*),
                    soft => soft::$d f $d(::<$d($d g),+>)? ($d($d a),*)
                )
            };
            (
                $d backend:expr => $d f:ident $d(::<$d($d g:tt),+>)? ($d($d a:ident),* $d(,)?),
                soft => $d soft:expr $d(,)?
            ) => {
                match $d backend {
                    Backend::$Soft => $d soft,
                    $(
                        #[cfg(all(any($(target_arch = $arch),+) $(, simdcrypt_rustc = $rustc)?))]
                        #[allow(unused_unsafe)]
                        // SAFETY: `Backend::$V` holds a `token::$V`, which only detection
                        // makes, on a CPU with every feature of the row's `needs`. What
                        // `dispatch!` calls in a backend's module is a `#[target_feature]`
                        // function that enables only those features, or an `unsafe fn`
                        // whose one precondition is that token (`cargo xtask tidy` checks
                        // both against the table).
                        Backend::$V(_) => unsafe { $m::$d f $d(::<$d($d g),+>)? ($d($d a),*) },
                    )*
                }
            };
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(mask(&[]), 0);
        assert_eq!(mask(&["sse2", "avx2"]), 0b1000_0001);
        assert_eq!(mask(&["slow-gather"]), 1 << 43);
        for (name, _) in FEATURES.iter().chain(CLASSES) {
            assert_eq!(mask(&[name]).count_ones(), 1, "{name}");
        }
    }

    #[test]
    fn aarch64_names() {
        // `aes` is one bit on both architectures; the others are aarch64's own.
        assert_eq!(mask(&["aes"]), 1 << 4);
        assert_eq!(mask(&["neon", "sha2", "sha3"]).count_ones(), 3);
        assert_eq!(mask(&["neon", "sha2", "sha3"]) & mask(&["sse2", "sha"]), 0);
        for (name, bit) in AARCH64_FEATURES {
            assert!(*bit < 40, "{name}: feature bits stay below the classes");
            assert!(CLASSES.iter().all(|(c, _)| c != name));
        }
        // No two names share a bit, except `aes`.
        for (a, x) in FEATURES.iter().chain(AARCH64_FEATURES).chain(CLASSES) {
            for (b, y) in FEATURES.iter().chain(AARCH64_FEATURES).chain(CLASSES) {
                assert!(x != y || a == b, "{a} and {b} share bit {x}");
            }
        }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[test]
    fn x86_lacks_aarch64_features() {
        for name in ["neon", "sha2", "sha3"] {
            assert!(!has_named(name), "{name}");
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[test]
    fn aarch64_detection() {
        // Every Linux/Apple aarch64 CPU Rust targets has NEON (the targets enable it).
        assert!(has_named("neon"));
        assert!(!has_named("sse2") && !has_named("avx2") && !has_named("intel"));
        // The crypto features imply NEON; sha3 implies sha2.
        for name in ["aes", "sha2", "sha3"] {
            if has_named(name) {
                assert!(has_named("neon"), "{name}");
            }
        }
        if has_named("sha3") {
            assert!(has_named("sha2"));
        }
        // What this crate detects agrees with std's detection.
        use std::arch::is_aarch64_feature_detected as std_has;
        assert_eq!(has_named("neon"), std_has!("neon"));
        assert_eq!(has_named("aes"), std_has!("aes"));
        assert_eq!(has_named("sha2"), std_has!("sha2"));
        assert_eq!(has_named("sha3"), std_has!("sha3"));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_64_has_sse2() {
        assert!(has(mask(&["sse2"])));
        assert!(has_named("sse2"));
        assert!(!has_named("no-such-feature"));
        // Exactly one vendor class or none.
        assert!(!(has_named("intel") && has_named("amd")));
        // The OS-state rules: AVX-512 implies AVX2 state, and zen4 is an AMD class.
        if has_named("avx512f") {
            assert!(has_named("avx2"));
        }
        if has_named("zen4") {
            assert!(has_named("amd") && has_named("slow-gather"));
        }
    }

    #[test]
    #[should_panic(expected = "demo was built with --cfg demo_backend=\"never\"")]
    fn forced_missing_panics() {
        let b: Option<()> = None;
        forced(b, "demo", "demo_backend", "never", &["intel", "amd"]);
    }
}
