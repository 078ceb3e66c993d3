//! Differential tests against RustCrypto's cast5 0.12.0 (dev-dependency `rc_cast5`): ECB
//! with every key length 5..=16 (both round counts), CTR through the published `ctr` and
//! CBC through the published `cbc`, seeded cases (`TESTKIT_CASES` overrides the count);
//! bad key lengths; Debug and AlgorithmName strings; the `zeroize` feature.

use cast5::Cast5;
use cast5::cipher::{AlgorithmName, KeyInit};
use testkit::{cases, peer};

/// Cases per mode: keeps this binary at ~5 s in the test profile on the loaded 2-core
/// reference machine. A full 10^6 run: `TESTKIT_CASES=1000000`.
const CASES: usize = 25_000;

#[test]
fn ecb_all_key_lengths() {
    peer::ecb::<Cast5, rc_cast5::Cast5>(cases(CASES), 5..=16);
}

#[test]
fn ctr64be() {
    peer::stream_iv::<ctr::Ctr64BE<Cast5>, ctr::Ctr64BE<rc_cast5::Cast5>>(cases(CASES));
}

#[test]
fn ctr32le() {
    peer::stream_iv::<ctr::Ctr32LE<Cast5>, ctr::Ctr32LE<rc_cast5::Cast5>>(cases(CASES / 4));
}

#[test]
fn cbc() {
    peer::block_mode::<
        cbc::Encryptor<Cast5>,
        cbc::Decryptor<Cast5>,
        cbc::Encryptor<rc_cast5::Cast5>,
        cbc::Decryptor<rc_cast5::Cast5>,
    >(cases(CASES));
}

#[test]
fn bad_key_lengths() {
    for len in (0..5).chain(17..40) {
        let key = vec![0x42u8; len];
        assert!(Cast5::new_from_slice(&key).is_err(), "accepts {len} bytes");
        assert!(rc_cast5::Cast5::new_from_slice(&key).is_err());
    }
    for len in 5..=16 {
        assert!(Cast5::new_from_slice(&vec![1u8; len]).is_ok());
    }
}

#[test]
fn debug_and_algorithm_name() {
    let key = [7u8; 16];
    let ours = Cast5::new(&key.into());
    let theirs = rc_cast5::Cast5::new(&key.into());
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    assert_eq!(format!("{ours:?}"), "Cast5 { ... }");
    struct Name<T>(core::marker::PhantomData<T>);
    impl<T: AlgorithmName> std::fmt::Display for Name<T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            T::write_alg_name(f)
        }
    }
    assert_eq!(Name::<Cast5>(Default::default()).to_string(), "Cast5");
    assert_eq!(
        Name::<rc_cast5::Cast5>(Default::default()).to_string(),
        "Cast5"
    );
}

/// The traits the release implements, checked at compile time.
#[test]
fn trait_impls() {
    fn is<
        T: Clone
            + Send
            + Sync
            + std::fmt::Debug
            + cast5::cipher::BlockCipherEncBackend
            + cast5::cipher::BlockCipherDecBackend
            + cast5::cipher::ParBlocksSizeUser<ParBlocksSize = cast5::cipher::consts::U1>,
    >() {
    }
    is::<Cast5>();
    #[cfg(feature = "zeroize")]
    {
        fn zod<T: cast5::cipher::zeroize::ZeroizeOnDrop>() {}
        zod::<Cast5>();
    }
}
