//! Differential tests against RustCrypto's `camellia` 0.2.1 (dev-dependency
//! `rc_camellia`): ECB, CTR through the published `ctr` and CBC through the published
//! `cbc`, per key size (`TESTKIT_CASES` overrides the count; the 10^6 run:
//! `TESTKIT_CASES=1000000`); bad key lengths; Debug and AlgorithmName strings.

use camellia::cipher::{AlgorithmName, KeyInit};
use camellia::{Camellia128, Camellia192, Camellia256};
use testkit::{cases, peer};

/// Per key size and mode (the whole binary stays within a few seconds).
const CASES: usize = 10_000;

#[test]
fn ecb_camellia128() {
    peer::ecb::<Camellia128, rc_camellia::Camellia128>(cases(CASES), 16..=16);
}

#[test]
fn ecb_camellia192() {
    peer::ecb::<Camellia192, rc_camellia::Camellia192>(cases(CASES), 24..=24);
}

#[test]
fn ecb_camellia256() {
    peer::ecb::<Camellia256, rc_camellia::Camellia256>(cases(CASES), 32..=32);
}

#[test]
fn ctr_camellia128() {
    peer::stream_iv::<ctr::Ctr128BE<Camellia128>, ctr::Ctr128BE<rc_camellia::Camellia128>>(cases(
        CASES,
    ));
}

#[test]
fn ctr_camellia192() {
    peer::stream_iv::<ctr::Ctr32BE<Camellia192>, ctr::Ctr32BE<rc_camellia::Camellia192>>(cases(
        CASES,
    ));
}

#[test]
fn ctr_camellia256() {
    peer::stream_iv::<ctr::Ctr64LE<Camellia256>, ctr::Ctr64LE<rc_camellia::Camellia256>>(cases(
        CASES,
    ));
}

macro_rules! cbc_test {
    ($($test:ident: $ours:ty, $theirs:ty;)*) => {$(
        #[test]
        fn $test() {
            peer::block_mode::<
                cbc::Encryptor<$ours>,
                cbc::Decryptor<$ours>,
                cbc::Encryptor<$theirs>,
                cbc::Decryptor<$theirs>,
            >(cases(CASES));
        }
    )*};
}

cbc_test! {
    cbc_camellia128: Camellia128, rc_camellia::Camellia128;
    cbc_camellia192: Camellia192, rc_camellia::Camellia192;
    cbc_camellia256: Camellia256, rc_camellia::Camellia256;
}

#[test]
fn bad_key_lengths_are_errors() {
    for len in 0..=64 {
        let key = vec![0x5a; len];
        assert_eq!(
            Camellia128::new_from_slice(&key).is_ok(),
            len == 16,
            "{len}"
        );
        assert_eq!(
            Camellia192::new_from_slice(&key).is_ok(),
            len == 24,
            "{len}"
        );
        assert_eq!(
            Camellia256::new_from_slice(&key).is_ok(),
            len == 32,
            "{len}"
        );
    }
}

#[test]
fn names_match_the_release() {
    let k16 = [1u8; 16];
    let k24 = [1u8; 24];
    let k32 = [1u8; 32];
    assert_eq!(
        format!("{:?}", Camellia128::new(&k16.into())),
        format!("{:?}", rc_camellia::Camellia128::new(&k16.into()))
    );
    assert_eq!(
        format!("{:?}", Camellia192::new(&k24.into())),
        format!("{:?}", rc_camellia::Camellia192::new(&k24.into()))
    );
    assert_eq!(
        format!("{:?}", Camellia256::new(&k32.into())),
        "Camellia256 { ... }"
    );
    fn name<T: AlgorithmName>() -> String {
        struct N<T>(core::marker::PhantomData<T>);
        impl<T: AlgorithmName> core::fmt::Display for N<T> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                T::write_alg_name(f)
            }
        }
        N::<T>(core::marker::PhantomData).to_string()
    }
    assert_eq!(name::<Camellia128>(), name::<rc_camellia::Camellia128>());
    assert_eq!(name::<Camellia192>(), name::<rc_camellia::Camellia192>());
    assert_eq!(name::<Camellia256>(), name::<rc_camellia::Camellia256>());
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: camellia::cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<Camellia128>();
    is_zod::<Camellia192>();
    is_zod::<Camellia256>();
}

/// The generic type as published: usable through its parameters.
#[test]
fn generic_type_as_published() {
    use camellia::Camellia;
    use camellia::cipher::consts::U16;
    fn takes<const RK: usize>(_: &Camellia<U16, RK>) {}
    takes(&Camellia128::new(&[0u8; 16].into()));
}
