//! Differential tests against RustCrypto's `serpent` 0.6.0 (dev-dependency `rc_serpent`):
//! ECB with keys of every accepted length (16..=32 bytes), CTR through the published `ctr`
//! and CBC through the published `cbc`; bad key lengths; Debug and AlgorithmName strings.
//! `TESTKIT_CASES` overrides the number of cases (a full run: `TESTKIT_CASES=1000000`).

use serpent::cipher::{AlgorithmName, KeyInit};
use testkit::{cases, peer};

/// Cases per mode.
const CASES: usize = 20_000;

#[test]
fn ecb() {
    peer::ecb::<serpent::Serpent, rc_serpent::Serpent>(cases(CASES), 16..=32);
}

#[test]
fn ctr128be() {
    peer::stream_iv::<ctr::Ctr128BE<serpent::Serpent>, ctr::Ctr128BE<rc_serpent::Serpent>>(cases(
        CASES,
    ));
}

#[test]
fn ctr32le() {
    peer::stream_iv::<ctr::Ctr32LE<serpent::Serpent>, ctr::Ctr32LE<rc_serpent::Serpent>>(cases(
        CASES / 4,
    ));
}

#[test]
fn cbc() {
    peer::block_mode::<
        cbc::Encryptor<serpent::Serpent>,
        cbc::Decryptor<serpent::Serpent>,
        cbc::Encryptor<rc_serpent::Serpent>,
        cbc::Decryptor<rc_serpent::Serpent>,
    >(cases(CASES));
}

#[test]
fn key_lengths() {
    for len in 0..=64 {
        let key = vec![0x5A; len];
        let ours = serpent::Serpent::new_from_slice(&key);
        let theirs = rc_serpent::Serpent::new_from_slice(&key);
        assert_eq!(ours.is_ok(), theirs.is_ok(), "key of {len} bytes");
        assert_eq!(ours.is_ok(), (16..=32).contains(&len), "key of {len} bytes");
    }
}

#[test]
fn names() {
    let c = serpent::Serpent::new(&[1u8; 16].into());
    assert_eq!(format!("{c:?}"), "Serpent { ... }");
    assert_eq!(
        format!("{c:?}"),
        format!("{:?}", rc_serpent::Serpent::new(&[1u8; 16].into()))
    );
    struct Name<T>(core::marker::PhantomData<T>);
    impl<T: AlgorithmName> core::fmt::Display for Name<T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            T::write_alg_name(f)
        }
    }
    assert_eq!(
        Name::<serpent::Serpent>(Default::default()).to_string(),
        "Serpent"
    );
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: serpent::cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<serpent::Serpent>();
}
