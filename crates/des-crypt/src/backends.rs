//! Backend selection for [`crate::crypt_many`]: the only place that decides which
//! implementation runs.
//!
//! The bitsliced DES lives in the `des` crate (its hidden `__crypt` module, behind the
//! same `cpufeatures` detection as `des`'s own backends); this crate only asks it which
//! batches this CPU runs. `detect()` returns the backend forced by
//! `--cfg des_crypt_backend="…"`, else the best available: `avx512` > `avx2` > `soft`.

mod avx2;
mod avx512;
mod soft;

use crate::Error;
use alloc::{string::String, vec::Vec};

/// The implementation chosen for a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// Portable table DES, one hash at a time.
    Soft,
    /// 256 hashes per bitsliced batch in `ymm` registers.
    Avx2,
    /// 512 hashes per bitsliced batch in `zmm` registers.
    Avx512,
}

impl Backend {
    /// The backend's name (the cfg value, file stem and bench id).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }
}

/// The backend named `name`, if it is known and this CPU can run it.
fn by_name(name: &str) -> Option<Backend> {
    let b = match name {
        "soft" => return Some(Backend::Soft),
        "avx2" => Backend::Avx2,
        "avx512" => Backend::Avx512,
        _ => return None,
    };
    (des::__crypt::lanes(name) > 0).then_some(b)
}

/// The forced backend (`--cfg des_crypt_backend="…"`), else the best available one.
///
/// # Panics
/// If a forced backend cannot run on this CPU.
#[inline]
pub(crate) fn detect() -> Backend {
    #[cfg(des_crypt_backend = "soft")]
    let b = Backend::Soft;
    #[cfg(des_crypt_backend = "avx2")]
    let b = forced("avx2", "AVX2 on x86-64");
    #[cfg(des_crypt_backend = "avx512")]
    let b = forced("avx512", "AVX-512F and AVX-512VL on x86-64");
    #[cfg(not(any(
        des_crypt_backend = "soft",
        des_crypt_backend = "avx2",
        des_crypt_backend = "avx512"
    )))]
    let b = by_name("avx512")
        .or_else(|| by_name("avx2"))
        .unwrap_or(Backend::Soft);
    b
}

#[cfg(any(des_crypt_backend = "avx2", des_crypt_backend = "avx512"))]
fn forced(name: &str, needs: &str) -> Backend {
    match by_name(name) {
        Some(b) => b,
        None => panic!(
            "des-crypt was built with --cfg des_crypt_backend=\"{name}\", but this CPU lacks {needs}"
        ),
    }
}

/// [`crate::crypt_many`] on backend `b`.
pub(crate) fn crypt_many<K: AsRef<[u8]>, S: AsRef<str>>(
    b: Backend,
    jobs: &[(K, S)],
) -> Vec<Result<String, Error>> {
    match b {
        Backend::Soft => soft::crypt_many(jobs),
        Backend::Avx2 => avx2::crypt_many(jobs),
        Backend::Avx512 => avx512::crypt_many(jobs),
    }
}

/// [`crate::crypt_keys`] on backend `b`.
pub(crate) fn crypt_keys<K: AsRef<[u8]>>(
    b: Backend,
    setting: &str,
    keys: &[K],
) -> Result<Vec<crate::CryptHash>, Error> {
    match b {
        Backend::Soft => soft::crypt_keys(setting, keys),
        Backend::Avx2 => avx2::crypt_keys(setting, keys),
        Backend::Avx512 => avx512::crypt_keys(setting, keys),
    }
}

/// Unstable, hidden: the backends by name, for tests, benches and the CLI. Not covered
/// by semver.
#[doc(hidden)]
pub mod __backends {
    use super::by_name;
    use crate::Error;
    use alloc::{string::String, vec::Vec};

    /// Names of every backend (available or not).
    pub const ALL: &[&str] = &["soft", "avx2", "avx512"];

    /// Whether backend `name` can run on this CPU.
    pub fn available(name: &str) -> bool {
        by_name(name).is_some()
    }

    /// The backend [`crate::crypt_many`] uses (forced or detected).
    pub fn selected() -> &'static str {
        super::detect().name()
    }

    /// [`crate::crypt_keys`] on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn crypt_keys_with<K: AsRef<[u8]>>(
        name: &str,
        setting: &str,
        keys: &[K],
    ) -> Result<Vec<crate::CryptHash>, Error> {
        match by_name(name) {
            Some(b) => super::crypt_keys(b, setting, keys),
            None => panic!("des-crypt backend `{name}` is not available on this CPU"),
        }
    }

    /// [`crate::crypt_many`] on backend `name`.
    ///
    /// # Panics
    /// If `name` is unknown or cannot run on this CPU.
    pub fn crypt_many_with<K: AsRef<[u8]>, S: AsRef<str>>(
        name: &str,
        jobs: &[(K, S)],
    ) -> Vec<Result<String, Error>> {
        match by_name(name) {
            Some(b) => super::crypt_many(b, jobs),
            None => panic!("des-crypt backend `{name}` is not available on this CPU"),
        }
    }
}

/// The in-process test every backend file runs: `crypt_many` on backend `name` against
/// the single-hash `crypt` for traditional and BSDi settings, groups around the batch
/// width, long keys and high-bit bytes, with malformed settings mixed in.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str) {
    extern crate std;
    use alloc::{format, vec::Vec};
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
            for (h, k) in got.iter().zip(&keys) {
                assert_eq!(
                    h,
                    &crate::crypt(k, s),
                    "backend {name} crypt_many, one setting"
                );
            }
        }
        assert_eq!(
            __backends::crypt_keys_with(name, "a!", &[b"x"]),
            Err(Error::InvalidChar { pos: 1, byte: b'!' })
        );
    }
}
