//! Shared test and bench helpers for the simdcrypt crates.
//!
//! Published as `simdcrypt-testkit` (library name `testkit`) so that every crate's packaged
//! tests build from its `.crate` file; every crate takes it as a dev-dependency only, and its
//! API follows no semver promise of its own.
//!
//! - [`harness`]: one backend against the portable `soft` backend, in one process
//!   (ARCHITECTURE §4, step 3): tail lengths around the backend's parallelism, counters near
//!   2^32 and 2^64 wrap, misaligned buffers and sentinel bytes around outputs.
//! - [`peer`]: seeded, reproducible differential runs of our public API against the
//!   RustCrypto crate (a renamed dev-dependency) through ECB, CBC, CTR, stream
//!   ciphers and digests.
//! - [`kat`]: a parser for the readable known-answer files under `tests/data/`.
//! - [`bench`](mod@bench): criterion helpers so a crate's bench file is a few lines.
//!
//! Environment knobs, read by every helper:
//! - `TESTKIT_REQUIRE=avx512,vaes` (or `all`): a named backend the CPU lacks is a
//!   failure instead of a `SKIP` line.
//! - `TESTKIT_CASES=N`: overrides the number of differential cases of every run.
//! - `TESTKIT_SEED=N`: overrides the seed of every seeded run (printed on failure).

pub mod bench;
pub mod harness;
pub mod kat;
pub mod peer;
mod rng;

pub use rng::Rng;

/// Whether the backend `name` can run on this CPU; prints a `SKIP` line if not.
///
/// A backend test starts with `if !testkit::available("avx2", detected) { return; }`.
/// When `TESTKIT_REQUIRE` names the backend (or is `all`), a missing backend panics
/// instead, so a CI host that is known to have the feature cannot silently skip it.
pub fn available(name: &str, detected: bool) -> bool {
    if detected {
        return true;
    }
    if required(name) {
        panic!("backend `{name}` is required by TESTKIT_REQUIRE but this CPU lacks it");
    }
    println!("SKIP {name}: this CPU lacks the features it needs");
    false
}

/// `T`'s `AlgorithmName` as a string (`"Md5"`, `"Sha1"`, ...), for tests that compare
/// ours with the RustCrypto crate's.
pub fn alg_name<T: digest::common::AlgorithmName>() -> String {
    struct Name<T>(core::marker::PhantomData<T>);
    impl<T: digest::common::AlgorithmName> std::fmt::Display for Name<T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            T::write_alg_name(f)
        }
    }
    Name::<T>(core::marker::PhantomData).to_string()
}

fn required(name: &str) -> bool {
    std::env::var("TESTKIT_REQUIRE")
        .map(|v| v.split(',').map(str::trim).any(|r| r == name || r == "all"))
        .unwrap_or(false)
}

/// The number of cases a differential run makes: `TESTKIT_CASES` if set, else
/// `default` capped at `TESTKIT_CASES_MAX` (the emulated CPU ladder sets that cap, so a
/// crate with a small default keeps it and a large one shrinks).
pub fn cases(default: usize) -> usize {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    var("TESTKIT_CASES")
        .unwrap_or_else(|| default.min(var("TESTKIT_CASES_MAX").unwrap_or(usize::MAX)))
}

/// The seed of a seeded run: `TESTKIT_SEED` or `default`.
pub fn seed(default: u64) -> u64 {
    std::env::var("TESTKIT_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    #[test]
    fn alg_name_formats_the_trait() {
        assert_eq!(super::alg_name::<rc_md5::Md5>(), "Md5");
    }

    #[test]
    fn available_true_when_detected() {
        assert!(super::available("anything", true));
    }

    #[test]
    fn cases_and_seed_fall_back_to_defaults() {
        // The test environment does not set these knobs.
        if std::env::var_os("TESTKIT_CASES").is_none() {
            assert_eq!(super::cases(7), 7);
        }
        if std::env::var_os("TESTKIT_SEED").is_none() {
            assert_eq!(super::seed(9), 9);
        }
    }
}
