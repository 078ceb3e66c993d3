//! Backend selection for [`crate::crypt_many`]: the only place that decides which
//! implementation runs.
//!
//! The bitsliced DES lives in the `des` crate (its hidden `__crypt` module, behind the
//! same `simdcrypt-dispatch` detection as `des`'s own backends); this crate only asks it
//! for batches. Each row below needs the same features as the `des` row of that name, so
//! `available(name)` here agrees with `des::__crypt::lanes(name) > 0`.
//!
//! The backends are the rows of the `backends!` table below, most preferred first:
//! `detect()` returns the backend forced by `--cfg des_crypt_backend="…"`, else the first
//! one this CPU supports (`avx512`, then `avx2`, then `soft` on x86-64; `neon`, then `soft`
//! on aarch64). A row's `blocks` is
//! [`crate::BATCH_MIN`], the fewest hashes of one (salt, count) group worth a batch.

use crate::Error;
use alloc::vec::Vec;

simdcrypt_dispatch::backends! {
    crate: "des-crypt", cfg: des_crypt_backend;
    /// Portable table DES, one hash at a time.
    "soft" => Soft;
    /// 512 hashes per bitsliced batch in `zmm` registers.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86_64"],
        needs: ["avx512f", "avx512vl"],
        blocks: crate::BATCH_MIN,
        rustc: "1.89",
    }
    /// 256 hashes per bitsliced batch in `ymm` registers.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86_64"],
        needs: ["avx2"],
        blocks: crate::BATCH_MIN,
        rustc: "1.89",
    }
    /// 128 hashes per bitsliced batch in NEON `v` registers (aarch64).
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        blocks: crate::BATCH_MIN,
        rustc: "1.89",
    }
}

/// [`crate::crypt_many`] on backend `b`.
pub(crate) fn crypt_many<K: AsRef<[u8]>, S: AsRef<str>, T: crate::HashOut>(
    b: Backend,
    jobs: &[(K, S)],
) -> Vec<Result<T, Error>> {
    dispatch!(b => crypt_many(jobs))
}

/// [`crate::crypt_keys`] on backend `b`.
pub(crate) fn crypt_keys<K: AsRef<[u8]>>(
    b: Backend,
    setting: &str,
    keys: &[K],
) -> Result<Vec<crate::CryptHash>, Error> {
    dispatch!(b => crypt_keys(setting, keys))
}

/// Unstable, hidden: the backends by name, for tests, benches and the CLI. Not covered
/// by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::Backend;
    use crate::Error;
    use alloc::{string::String, vec::Vec};

    /// [`crate::crypt_keys`] on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn crypt_keys_with<K: AsRef<[u8]>>(
        name: &str,
        setting: &str,
        keys: &[K],
    ) -> Result<Vec<crate::CryptHash>, Error> {
        super::crypt_keys(Backend::named(name), setting, keys)
    }

    /// [`crate::crypt_many`] on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn crypt_many_with<K: AsRef<[u8]>, S: AsRef<str>>(
        name: &str,
        jobs: &[(K, S)],
    ) -> Vec<Result<String, Error>> {
        super::crypt_many(Backend::named(name), jobs)
    }

    /// [`crate::crypt_many_hashes`] on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn crypt_many_hashes_with<K: AsRef<[u8]>, S: AsRef<str>>(
        name: &str,
        jobs: &[(K, S)],
    ) -> Vec<Result<crate::CryptHash, Error>> {
        super::crypt_many(Backend::named(name), jobs)
    }
}

/// The in-process test every backend file runs: `crypt_many` on backend `name` against
/// the single-hash `crypt` for traditional and BSDi settings, groups around the batch
/// width, long keys and high-bit bytes, with malformed settings mixed in.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str) {
    extern crate std;
    use alloc::{format, string::String, vec::Vec};
    if !testkit::available(name, __backends::available(name)) {
        return;
    }
    let mut rng = testkit::Rng::new(testkit::seed(0xDE5C));
    let lanes = des::__crypt::lanes(name).max(1);
    for &group in &[
        1,
        crate::BATCH_MIN - 1,
        crate::BATCH_MIN,
        lanes - 1,
        lanes,
        lanes + 1,
        2 * lanes + 3,
    ] {
        let mut jobs: Vec<(Vec<u8>, String)> = Vec::new();
        let salts = [
            format!("{}{}", 'a', 'b'),
            "./".into(),
            "_/...zz.z".into(),
            "_7...ab/.".into(),
        ];
        for s in &salts {
            for _ in 0..group.min(if s.starts_with('_') { 40 } else { usize::MAX }) {
                let len = rng.range(0, 24);
                let key: Vec<u8> = (0..len).map(|_| 1 + rng.below(255) as u8).collect();
                jobs.push((key, s.clone()));
            }
        }
        jobs.push((b"x".to_vec(), "a!".into()));
        jobs.push((b"x".to_vec(), "$1$abc".into()));
        jobs.insert(jobs.len() / 2, (b"x".to_vec(), "_J9".into()));
        // Interleave so groups are not contiguous.
        let n = jobs.len();
        for i in 0..n {
            jobs.swap(i, rng.below(n));
        }
        let got = __backends::crypt_many_with(name, &jobs);
        let want: Vec<_> = jobs.iter().map(|(k, s)| crate::crypt(k, s)).collect();
        assert_eq!(got, want, "backend {name}, group {group}");
        let inline = __backends::crypt_many_hashes_with(name, &jobs);
        let inline: Vec<_> = inline
            .iter()
            .map(|r| r.map(|h| String::from(h.as_str())))
            .collect();
        assert_eq!(inline, want, "backend {name}, group {group}, inline hashes");
        for s in &salts {
            let keys: Vec<&Vec<u8>> = jobs
                .iter()
                .filter(|(_, js)| js == s)
                .map(|(k, _)| k)
                .collect();
            let got = __backends::crypt_keys_with(name, s, &keys).unwrap();
            for (h, k) in got.iter().zip(&keys) {
                assert_eq!(
                    h.as_str(),
                    crate::crypt(k, s).unwrap(),
                    "backend {name} crypt_keys"
                );
            }
            // One setting for every job: `crypt_many`'s in-order path.
            let one: Vec<(&Vec<u8>, &String)> = keys.iter().map(|&k| (k, s)).collect();
            let got = __backends::crypt_many_with(name, &one);
            let inline = __backends::crypt_many_hashes_with(name, &one);
            for ((h, i), k) in got.iter().zip(&inline).zip(&keys) {
                assert_eq!(
                    h,
                    &crate::crypt(k, s),
                    "backend {name} crypt_many, one setting"
                );
                assert_eq!(
                    i.map(|h| String::from(h.as_str())),
                    crate::crypt(k, s),
                    "backend {name} crypt_many_hashes, one setting"
                );
            }
        }
        assert_eq!(
            __backends::crypt_keys_with(name, "a!", &[b"x"]),
            Err(Error::InvalidChar { pos: 1, byte: b'!' })
        );
    }
}

/// Each backend is available exactly when the `des` crate runs its batch
/// (`des::__crypt::lanes`), which `crypt_batch` needs.
#[cfg(test)]
#[test]
fn available_matches_des() {
    for &name in __backends::ALL {
        assert_eq!(
            __backends::available(name),
            name == "soft" || des::__crypt::lanes(name) > 0,
            "{name}"
        );
    }
}
