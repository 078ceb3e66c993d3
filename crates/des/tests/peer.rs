//! Differential tests against RustCrypto's `des` 0.9.0 (dev-dependency `rc_des`): ECB,
//! CTR through the published `ctr` and CBC through the published `cbc` for every type,
//! seeded cases (`TESTKIT_CASES` overrides; a full run is `TESTKIT_CASES=1000000`); weak
//! keys; bad key lengths; Debug and AlgorithmName strings; zeroize.

use des::cipher::{AlgorithmName, KeyInit};
use testkit::{Rng, cases, peer};

/// Per type and mode: enough to cross the 256/512-block batches many times while the
/// whole binary stays within seconds.
const CASES: usize = 500;

macro_rules! types {
    ($($m:ident: $ours:ident, $n:literal;)*) => {$(
        mod $m {
            use super::*;

            #[test]
            fn ecb() {
                peer::ecb::<des::$ours, rc_des::$ours>(cases(CASES), $n..=$n);
            }

            #[test]
            fn ctr64be() {
                peer::stream_iv::<ctr::Ctr64BE<des::$ours>, ctr::Ctr64BE<rc_des::$ours>>(
                    cases(CASES),
                );
            }

            #[test]
            fn ctr32le() {
                peer::stream_iv::<ctr::Ctr32LE<des::$ours>, ctr::Ctr32LE<rc_des::$ours>>(
                    cases(CASES / 4),
                );
            }

            #[test]
            fn cbc() {
                peer::block_mode::<
                    cbc::Encryptor<des::$ours>,
                    cbc::Decryptor<des::$ours>,
                    cbc::Encryptor<rc_des::$ours>,
                    cbc::Decryptor<rc_des::$ours>,
                >(cases(CASES));
            }

            #[test]
            fn names() {
                let key = [0x5Au8; $n];
                let ours = des::$ours::new_from_slice(&key).unwrap();
                let theirs = rc_des::$ours::new_from_slice(&key).unwrap();
                assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
                assert_eq!(alg_name::<des::$ours>(), alg_name::<rc_des::$ours>());
                assert_eq!(alg_name::<des::$ours>(), stringify!($ours));
            }

            #[test]
            fn bad_key_lengths() {
                for len in 0..=40usize {
                    let key = vec![1u8; len];
                    assert_eq!(des::$ours::new_from_slice(&key).is_ok(), len == $n, "{len}");
                }
                assert_eq!(
                    des::$ours::new_from_slice(&[0; 3]).err(),
                    Some(des::cipher::InvalidLength)
                );
            }
        }
    )*};
}

types! {
    des_: Des, 8;
    tdes_ede2: TdesEde2, 16;
    tdes_ede3: TdesEde3, 24;
    tdes_eee2: TdesEee2, 16;
    tdes_eee3: TdesEee3, 24;
}

fn alg_name<T: AlgorithmName>() -> String {
    struct N<T>(core::marker::PhantomData<T>);
    impl<T: AlgorithmName> core::fmt::Display for N<T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            T::write_alg_name(f)
        }
    }
    N::<T>(core::marker::PhantomData).to_string()
}

/// The release's Debug quirk: `TdesEde3` prints as `TdesEee3`.
#[test]
fn debug_strings_exactly() {
    let d = |s: &str| s.to_string();
    assert_eq!(
        format!("{:?}", des::Des::new(&[1; 8].into())),
        d("Des { ... }")
    );
    assert_eq!(
        format!("{:?}", des::TdesEde3::new(&[1; 24].into())),
        d("TdesEee3 { ... }")
    );
    assert_eq!(
        format!("{:?}", des::TdesEee3::new(&[1; 24].into())),
        d("TdesEee3 { ... }")
    );
    assert_eq!(
        format!("{:?}", des::TdesEde2::new(&[1; 16].into())),
        d("TdesEde2 { ... }")
    );
    assert_eq!(
        format!("{:?}", des::TdesEee2::new(&[1; 16].into())),
        d("TdesEee2 { ... }")
    );
}

/// `weak_key_test` and `WeakKeyError` behave as the release's: the release's own cases,
/// then random keys, keys built from weak halves and repeated sub-keys.
#[test]
fn weak_keys_match_peer() {
    let same = |k: &[u8]| {
        let (a, b) = (des::weak_key_test(k), rc_des::weak_key_test(k));
        assert_eq!(a.is_ok(), b.is_ok(), "{k:02x?}");
        if let (Err(x), Err(y)) = (a, b) {
            assert_eq!(x.to_string(), y.to_string());
            assert_eq!(format!("{x:?}"), format!("{y:?}"));
        }
    };
    let weak: [[u8; 8]; 4] = [
        [1; 8],
        [0xFE; 8],
        [0xE0, 0xE0, 0xE0, 0xE0, 0xF1, 0xF1, 0xF1, 0xF1],
        [0x01, 0x1F, 0x01, 0x1F, 0x01, 0x0E, 0x01, 0x0E],
    ];
    let mut rng = Rng::new(testkit::seed(0x3EA4));
    for _ in 0..cases(20_000) {
        let n = [8, 16, 24][rng.below(3)];
        let mut k = rng.bytes(n);
        match rng.below(4) {
            0 => {
                let w = weak[rng.below(4)];
                let at = 8 * rng.below(n / 8);
                k[at..at + 8].copy_from_slice(&w);
            }
            1 if n > 8 => {
                let (a, b) = (8 * rng.below(n / 8), 8 * rng.below(n / 8));
                let src: Vec<u8> = k[a..a + 8].to_vec();
                k[b..b + 8].copy_from_slice(&src);
            }
            _ => {}
        }
        same(&k);
    }
    assert!(des::weak_key_test(&[1; 8]).is_err());
    assert_eq!(des::WeakKeyError.to_string(), "WeakKey");
    let e: &dyn core::error::Error = &des::WeakKeyError;
    assert_eq!(e.to_string(), "WeakKey");
    // Weak keys are accepted by the constructors, as in the release.
    assert!(des::Des::new_from_slice(&[1; 8]).is_ok());
}

#[test]
#[should_panic(expected = "key size is not equal to 8, 16, or 24 bytes")]
fn weak_key_test_panics_on_bad_length() {
    let _ = des::weak_key_test(&[0; 9]);
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: des::cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<des::Des>();
    is_zod::<des::TdesEde2>();
    is_zod::<des::TdesEde3>();
    is_zod::<des::TdesEee2>();
    is_zod::<des::TdesEee3>();
}
