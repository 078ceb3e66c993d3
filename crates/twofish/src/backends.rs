//! Backend selection: the only place that decides which Twofish implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg twofish_backend="…"`, else the best one
//! this CPU supports. Every backend reads the same expanded key ([`soft::Tables`]: the 40
//! subkeys and the four key-dependent 8→32 tables), so a cipher stores its backend next
//! to one key layout and a bulk call dispatches once.
//!
//! Preference on x86: `avx512` > `avx2` > `soft`. `gfni_avx512` (constant time, about 25% slower
//! than `avx512` on the reference machine) is chosen only when forced; see [`best`].

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod gfni_avx512;
mod soft;

pub(crate) use soft::Tables;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U16};

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(avx2_cpuid, "avx2");
#[cfg(target_arch = "x86_64")]
cpufeatures::new!(avx512_cpuid, "avx2", "avx512f");
// The `avx512` backend's key schedule builds its tables with VBMI byte permutes when the
// CPU has them (Ice Lake, Zen 4 and later), else with the scalar code.
#[cfg(target_arch = "x86_64")]
cpufeatures::new!(vbmi_cpuid, "avx2", "avx512f", "avx512bw", "avx512vbmi");

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(
    gfni_cpuid,
    "avx2",
    "avx512f",
    "avx512bw",
    "avx512vbmi",
    "gfni"
);

/// Proof that the CPU has AVX2, AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI with OS
/// support for `zmm`: only [`gfni_token`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct GfniToken(());

#[cfg(target_arch = "x86_64")]
#[inline]
fn gfni_token() -> Option<GfniToken> {
    gfni_cpuid::get().then_some(GfniToken(()))
}

/// Whether the VBMI key schedule can run (for tests).
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn vbmi_available() -> bool {
    vbmi_cpuid::get()
}

/// Proof that the CPU has AVX2 with `ymm` state enabled by the OS: only [`avx2_token`]
/// makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

/// Proof that the CPU has AVX-512F with `zmm` state enabled by the OS: only
/// [`avx512_token`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Token(());

/// The implementation chosen for a cipher.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// Portable table code, three blocks interleaved, every target.
    Soft,
    /// `ymm` rounds with scalar table look-ups, 16 blocks in flight.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
    /// `vpgatherdd` on `zmm`, 32 blocks in flight.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512Token),
    /// `vpermi2b` S-boxes and `gf2p8mulb` MDS on `zmm`, 32 blocks in flight.
    #[cfg(target_arch = "x86_64")]
    GfniAvx512(GfniToken),
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(_) => "avx512",
            #[cfg(target_arch = "x86_64")]
            Backend::GfniAvx512(_) => "gfni_avx512",
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_token() -> Option<Avx2Token> {
    avx2_cpuid::get().then_some(Avx2Token(()))
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn avx512_token() -> Option<Avx512Token> {
    avx512_cpuid::get().then_some(Avx512Token(()))
}

/// The backend named `name`, if it is compiled in and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    match name {
        "soft" => Some(Backend::Soft),
        #[cfg(target_arch = "x86_64")]
        "avx2" => avx2_token().map(Backend::Avx2),
        #[cfg(target_arch = "x86_64")]
        "avx512" => avx512_token().map(Backend::Avx512),
        #[cfg(target_arch = "x86_64")]
        "gfni_avx512" => gfni_token().map(Backend::GfniAvx512),
        _ => None,
    }
}

/// The best backend this CPU supports: `avx512` > `avx2` > `soft`.
///
/// `gfni_avx512` is never picked here: measured on the reference machine (Intel Xeon with
/// AVX-512, VBMI and GFNI; one interleaved run, 8 KiB ECB, TSC cycles per byte, minimum
/// of 31 samples) the `vpgatherdd` backend does 2.85 and `gfni_avx512` 3.57 (`avx2`: 5.4), so
/// the gathers win on speed; `gfni_avx512` is the constant-time choice, forced with
/// `--cfg twofish_backend="gfni_avx512"`.
#[inline]
#[cfg_attr(
    any(
        twofish_backend = "soft",
        twofish_backend = "avx2",
        twofish_backend = "avx512",
        twofish_backend = "gfni_avx512"
    ),
    allow(dead_code)
)]
fn best() -> Backend {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(t) = avx512_token() {
            return Backend::Avx512(t);
        }
        if let Some(t) = avx2_token() {
            return Backend::Avx2(t);
        }
    }
    Backend::Soft
}

/// The forced backend (`--cfg twofish_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU (or is not compiled for this target).
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(twofish_backend = "soft")]
    let backend = Backend::Soft;
    #[cfg(twofish_backend = "avx2")]
    let backend = forced("avx2", "AVX2 on x86-64");
    #[cfg(twofish_backend = "avx512")]
    let backend = forced("avx512", "AVX2 and AVX-512F on x86-64");
    #[cfg(twofish_backend = "gfni_avx512")]
    let backend = forced(
        "gfni_avx512",
        "AVX2, AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI on x86-64",
    );
    #[cfg(not(any(
        twofish_backend = "soft",
        twofish_backend = "avx2",
        twofish_backend = "avx512",
        twofish_backend = "gfni_avx512"
    )))]
    let backend = best();
    backend
}

#[cfg(any(
    twofish_backend = "avx2",
    twofish_backend = "avx512",
    twofish_backend = "gfni_avx512"
))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => panic!(
            "twofish was built with --cfg twofish_backend=\"{name}\", but this CPU lacks {needs}"
        ),
    }
}

/// The expanded key and the backend that runs it.
#[derive(Clone)]
pub(crate) struct Keys {
    backend: Backend,
    t: Tables,
    /// The `gfni_avx512` backend's 8→8 S-boxes in its field representation (zeros for the other
    /// backends).
    #[cfg(target_arch = "x86_64")]
    s8: [[u8; 256]; 4],
}

impl Keys {
    /// The key schedule of `key` (16, 24 or 32 bytes) for `backend`.
    #[inline]
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        #[cfg(target_arch = "x86_64")]
        let mut s8 = [[0u8; 256]; 4];
        let t = match backend {
            // SAFETY: the token implies AVX-512 VBMI and the rest of the target features of
            // `avx512::tables`.
            #[cfg(target_arch = "x86_64")]
            Backend::GfniAvx512(_) => unsafe { avx512::tables(key, Some(&mut s8)) },
            // SAFETY: `vbmi_cpuid` found AVX2, AVX-512F, AVX-512BW and AVX-512 VBMI with OS
            // support for `zmm`, the target features of `avx512::tables`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(_) if vbmi_cpuid::get() => unsafe { avx512::tables(key, None) },
            _ => Tables::new(key),
        };
        Keys {
            backend,
            t,
            #[cfg(target_arch = "x86_64")]
            s8,
        }
    }

    /// The shared expanded key (for the single-block calls).
    #[inline]
    pub(crate) fn tables(&self) -> &Tables {
        &self.t
    }

    /// Runs `f` with this backend's encryption.
    #[inline]
    pub(crate) fn encrypt(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        match self.backend {
            Backend::Soft => f.call(&soft::Backend(&self.t)),
            // SAFETY: the token proves the CPU has the target features of `avx2::encrypt`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::encrypt(&self.t, f) },
            // SAFETY: the token proves the CPU has the target features of `avx512::encrypt`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(_) => unsafe { avx512::encrypt(&self.t, f) },
            // SAFETY: the token proves the CPU has the target features of `gfni_avx512::encrypt`.
            #[cfg(target_arch = "x86_64")]
            Backend::GfniAvx512(_) => unsafe { gfni_avx512::encrypt(&self.t, &self.s8, f) },
        }
    }

    /// Runs `f` with this backend's decryption.
    #[inline]
    pub(crate) fn decrypt(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        match self.backend {
            Backend::Soft => f.call(&soft::Backend(&self.t)),
            // SAFETY: the token proves the CPU has the target features of `avx2::decrypt`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => unsafe { avx2::decrypt(&self.t, f) },
            // SAFETY: the token proves the CPU has the target features of `avx512::decrypt`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(_) => unsafe { avx512::decrypt(&self.t, f) },
            // SAFETY: the token proves the CPU has the target features of `gfni_avx512::decrypt`.
            #[cfg(target_arch = "x86_64")]
            Backend::GfniAvx512(_) => unsafe { gfni_avx512::decrypt(&self.t, &self.s8, f) },
        }
    }

    /// Overwrites the key material with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        self.t.zeroize();
        #[cfg(target_arch = "x86_64")]
        cipher::zeroize::Zeroize::zeroize(&mut self.s8.as_flattened_mut()[..]);
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    use super::{Keys, by_name};

    /// Names of the backends compiled into this build (available or not).
    #[cfg(target_arch = "x86_64")]
    pub const ALL: &[&str] = &["soft", "avx2", "avx512", "gfni_avx512"];
    /// Names of the backends compiled into this build (available or not).
    #[cfg(not(target_arch = "x86_64"))]
    pub const ALL: &[&str] = &["soft"];

    /// Whether backend `name` is compiled in and can run on this CPU.
    pub fn available(name: &str) -> bool {
        by_name(name).is_some()
    }

    /// The name of the backend a new cipher uses (forced or detected).
    pub fn selected() -> &'static str {
        super::detect().name()
    }

    /// A [`Twofish`](crate::Twofish) with a 16-, 24- or 32-byte key that runs on backend
    /// `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or the key length is wrong.
    pub fn twofish_with(name: &str, key: &[u8]) -> crate::Twofish {
        assert!(matches!(key.len(), 16 | 24 | 32), "bad Twofish key length");
        match by_name(name) {
            Some(b) => crate::Twofish::from_keys(Keys::new(b, key)),
            None => panic!("twofish backend `{name}` is not available on this CPU"),
        }
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `twofish`) through `testkit::harness::block` for all key sizes.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, twofish_with};
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
    for n in [16usize, 24, 32] {
        if name == "soft" {
            testkit::harness::block(
                name,
                16,
                par,
                |rng| rng.bytes(n),
                (
                    |k: &[u8]| rc_twofish::Twofish::new_from_slice(k).unwrap(),
                    enc,
                    dec,
                ),
                (|k: &[u8]| twofish_with("soft", k), enc, dec),
            );
        } else {
            testkit::harness::block(
                name,
                16,
                par,
                |rng| rng.bytes(n),
                (|k: &[u8]| twofish_with("soft", k), enc, dec),
                (|k: &[u8]| twofish_with(name, k), enc, dec),
            );
        }
    }
}
