//! Backend selection: the only place that decides which Twofish implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg twofish_backend="…"`, else the first
//! row of the table below that this CPU runs and does not avoid. Every backend reads the
//! same expanded key ([`soft::Tables`]: the 40 subkeys and the four key-dependent 8→32
//! tables), so a cipher stores its backend next to one key layout and a bulk call
//! dispatches once.
//!
//! Preference on x86: `gfni_avx512` > `avx512` (except on CPUs in the `slow-gather`
//! class) > `avx2` > `soft`. 8 KiB ECB, TSC cycles per byte, `cargo run --release -p
//! speed --bin auto -- 8192 twofish`:
//!
//! | machine | `gfni_avx512` | `avx512` | `avx2` | `soft` |
//! |---|---|---|---|---|
//! | AMD Zen 4 (EPYC, family 25 model 17; `slow-gather`), issue 20 | 1.73 | 6.47 | 6.36 | 6.02 |
//! | Intel Xeon (family 6 model 207, AVX512-FP16; not `slow-gather`), 2026-12-06, medians of three runs | 1.76 | 2.91 | 5.78 | 5.89 |
//!
//! The byte-sliced `gfni_avx512` is first wherever it runs; its word-per-lane predecessor
//! did 2.97 on Zen 4 and 3.57 on an earlier Intel Xeon, where the gathers did 2.85.

pub(crate) use soft::Tables;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U16};

simdcrypt_dispatch::backends! {
    crate: "twofish", cfg: twofish_backend;
    /// Portable table code, three blocks interleaved, every target.
    "soft" => Soft;
    /// Byte-sliced: `vpermi2b` S-boxes and `gf2p8affineqb` MDS on byte planes, 64
    /// blocks in flight (short leftovers: word-per-lane, 32 and 16).
    "gfni_avx512" => GfniAvx512 {
        mod: gfni_avx512,
        arch: ["x86_64"],
        needs: ["avx2", "avx512f", "avx512bw", "avx512vbmi", "gfni"],
        rustc: "1.89",
    }
    /// `vpgatherdd` on `zmm`, 32 blocks in flight.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86_64"],
        needs: ["avx2", "avx512f"],
        avoid: ["slow-gather"],
        rustc: "1.89",
    }
    /// `ymm` rounds with scalar table look-ups, 16 blocks in flight.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86_64"],
        needs: ["avx2"],
        rustc: "1.89",
    }
}

/// The features of the `avx512` backend's VBMI key schedule, which builds its tables with
/// byte permutes when the CPU has them (Ice Lake, Zen 4 and later), else with the scalar
/// code.
#[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
const VBMI: u64 = simdcrypt_dispatch::mask(&["avx2", "avx512f", "avx512bw", "avx512vbmi"]);

/// Whether the VBMI key schedule can run.
#[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
#[inline]
fn vbmi_available() -> bool {
    simdcrypt_dispatch::has(VBMI)
}

/// The expanded key and the backend that runs it.
#[derive(Clone)]
pub(crate) struct Keys {
    backend: Backend,
    t: Tables,
    /// The `gfni_avx512` backend's 8→8 S-boxes in its field representation (zeros for the other
    /// backends).
    #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
    s8: [[u8; 256]; 4],
}

impl Keys {
    /// The key schedule of `key` (16, 24 or 32 bytes) for `backend`.
    #[inline]
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
        let mut s8 = [[0u8; 256]; 4];
        let t = match backend {
            // SAFETY: the token implies AVX-512 VBMI and the rest of the target features of
            // `avx512::tables`.
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
            Backend::GfniAvx512(_) => unsafe { avx512::tables(key, Some(&mut s8)) },
            // SAFETY: `vbmi_available` found AVX2, AVX-512F, AVX-512BW and AVX-512 VBMI with
            // OS support for `zmm`, the target features of `avx512::tables`.
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
            Backend::Avx512(_) if vbmi_available() => unsafe { avx512::tables(key, None) },
            _ => Tables::new(key),
        };
        Keys {
            backend,
            t,
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
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
        dispatch!(self.backend => encrypt(self, f), soft => f.call(&soft::Backend(&self.t)))
    }

    /// Runs `f` with this backend's decryption.
    #[inline]
    pub(crate) fn decrypt(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        dispatch!(self.backend => decrypt(self, f), soft => f.call(&soft::Backend(&self.t)))
    }

    /// Overwrites the key material with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        self.t.zeroize();
        #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
        cipher::zeroize::Zeroize::zeroize(&mut self.s8.as_flattened_mut()[..]);
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::{Backend, Keys};

    /// A [`Twofish`](crate::Twofish) with a 16-, 24- or 32-byte key that runs on backend
    /// `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU, or the key length is wrong.
    pub fn twofish_with(name: &str, key: &[u8]) -> crate::Twofish {
        assert!(matches!(key.len(), 16 | 24 | 32), "bad Twofish key length");
        crate::Twofish::from_keys(Keys::new(Backend::named(name), key))
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `twofish`) through `testkit::harness::block` for all key sizes.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, twofish_with};
    use cipher::KeyInit;

    if !testkit::available(name, available(name)) {
        return;
    }
    let peer = |k: &[u8]| rc_twofish::Twofish::new_from_slice(k).unwrap();
    for n in [16usize, 24, 32] {
        testkit::harness::block_vs_soft(name, 16, par, |rng| rng.bytes(n), peer, twofish_with);
    }
}
