//! Differential tests against RustCrypto's `idea` 0.6.0 (dev-dependency `rc_idea`): ECB,
//! CTR through the published `ctr` and CBC through the published `cbc`, seeded cases
//! (`TESTKIT_CASES` overrides the count); bad key lengths; Debug and AlgorithmName strings.

use idea::cipher::{AlgorithmName, KeyInit};
use testkit::{cases, peer};

/// Per mode; a full 10^6 run: `TESTKIT_CASES=1000000`.
const CASES: usize = 20_000;

#[test]
fn ecb() {
    peer::ecb::<idea::Idea, rc_idea::Idea>(cases(CASES), 16..=16);
}

#[test]
fn ctr64be() {
    peer::stream_iv::<ctr::Ctr64BE<idea::Idea>, ctr::Ctr64BE<rc_idea::Idea>>(cases(CASES));
}

#[test]
fn ctr32le() {
    peer::stream_iv::<ctr::Ctr32LE<idea::Idea>, ctr::Ctr32LE<rc_idea::Idea>>(cases(CASES / 4));
}

#[test]
fn cbc() {
    peer::block_mode::<
        cbc::Encryptor<idea::Idea>,
        cbc::Decryptor<idea::Idea>,
        cbc::Encryptor<rc_idea::Idea>,
        cbc::Decryptor<rc_idea::Idea>,
    >(cases(CASES));
}

#[test]
fn bad_key_lengths_are_errors() {
    for len in [0usize, 1, 8, 15, 17, 24, 32, 64] {
        assert!(
            matches!(
                idea::Idea::new_from_slice(&vec![0u8; len]),
                Err(idea::cipher::InvalidLength)
            ),
            "{len}"
        );
    }
    assert!(idea::Idea::new_from_slice(&[0u8; 16]).is_ok());
}

#[test]
fn debug_and_algorithm_names_match_peer() {
    fn name<T: AlgorithmName>() -> String {
        struct N<T>(core::marker::PhantomData<T>);
        impl<T: AlgorithmName> core::fmt::Display for N<T> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                T::write_alg_name(f)
            }
        }
        N::<T>(core::marker::PhantomData).to_string()
    }
    let ours = idea::Idea::new_from_slice(&[1; 16]).unwrap();
    let theirs = rc_idea::Idea::new_from_slice(&[1; 16]).unwrap();
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    assert_eq!(format!("{ours:?}"), "Idea { ... }");
    assert_eq!(name::<idea::Idea>(), name::<rc_idea::Idea>());
    assert_eq!(name::<idea::Idea>(), "Idea");
}

#[test]
fn clone_keeps_the_key() {
    use idea::cipher::BlockCipherEncrypt;
    let a = idea::Idea::new_from_slice(&[3; 16]).unwrap();
    let b = a.clone();
    let (mut x, mut y) = ([5u8; 8].into(), [5u8; 8].into());
    a.encrypt_block(&mut x);
    b.encrypt_block(&mut y);
    assert_eq!(x, y);
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: idea::cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<idea::Idea>();
}
