//! Differential tests against RustCrypto's `rc2` 0.9.0 (dev-dependency `rc_rc2`): ECB,
//! CTR through the published `ctr` and CBC through the published `cbc`, seeded cases
//! (`TESTKIT_CASES` overrides the count); bad key lengths; Debug and AlgorithmName strings.

use rc2::cipher::{AlgorithmName, KeyInit};
use testkit::{cases, peer};

/// Per mode; a full 10^6 run: `TESTKIT_CASES=1000000`.
const CASES: usize = 20_000;

#[test]
fn ecb() {
    peer::ecb::<rc2::Rc2, rc_rc2::Rc2>(cases(CASES), 1..=128);
}

#[test]
fn ctr64be() {
    peer::stream_iv::<ctr::Ctr64BE<rc2::Rc2>, ctr::Ctr64BE<rc_rc2::Rc2>>(cases(CASES));
}

#[test]
fn ctr32le() {
    peer::stream_iv::<ctr::Ctr32LE<rc2::Rc2>, ctr::Ctr32LE<rc_rc2::Rc2>>(cases(CASES / 4));
}

#[test]
fn cbc() {
    peer::block_mode::<
        cbc::Encryptor<rc2::Rc2>,
        cbc::Decryptor<rc2::Rc2>,
        cbc::Encryptor<rc_rc2::Rc2>,
        cbc::Decryptor<rc_rc2::Rc2>,
    >(cases(CASES));
}

/// `new_with_eff_key_len` with random keys (1..=128 bytes) and effective bits (1..=1024),
/// many blocks through `encrypt_blocks`/`decrypt_blocks`.
#[test]
fn effective_key_bits() {
    use rc2::cipher::{BlockCipherDecrypt, BlockCipherEncrypt, array::Array};
    let mut rng = testkit::Rng::new(testkit::seed(0x0E2F));
    for _ in 0..cases(CASES / 4) {
        let key = rng.bytes_in(1, 128);
        let bits = rng.range(1, 1024);
        let ours = rc2::Rc2::new_with_eff_key_len(&key, bits);
        let theirs = rc_rc2::Rc2::new_with_eff_key_len(&key, bits);
        let n = rng.below(150);
        let plain = rng.bytes(8 * n);
        let mut a: Vec<Array<u8, _>> = plain
            .chunks(8)
            .map(|c| Array::try_from(c).unwrap())
            .collect();
        let mut b = a.clone();
        ours.encrypt_blocks(&mut a);
        theirs.encrypt_blocks(&mut b);
        assert_eq!(a, b, "{n} blocks, {bits} bits, key {key:02x?}");
        ours.decrypt_blocks(&mut a);
        assert!(a.iter().flatten().copied().eq(plain.iter().copied()));
    }
}

#[test]
fn bad_key_lengths_are_errors() {
    for len in [0usize, 129, 130, 256, 1000] {
        assert!(
            matches!(
                rc2::Rc2::new_from_slice(&vec![0u8; len]),
                Err(rc2::cipher::InvalidLength)
            ),
            "{len}"
        );
        assert!(rc_rc2::Rc2::new_from_slice(&vec![0u8; len]).is_err());
    }
    for len in 1..=128 {
        assert!(rc2::Rc2::new_from_slice(&vec![0u8; len]).is_ok(), "{len}");
    }
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
    let ours = rc2::Rc2::new_from_slice(&[1; 16]).unwrap();
    let theirs = rc_rc2::Rc2::new_from_slice(&[1; 16]).unwrap();
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    assert_eq!(format!("{ours:?}"), "Rc2 { ... }");
    assert_eq!(name::<rc2::Rc2>(), name::<rc_rc2::Rc2>());
    assert_eq!(name::<rc2::Rc2>(), "Rc2");
}

#[test]
fn clone_keeps_the_key() {
    use rc2::cipher::BlockCipherEncrypt;
    let a = rc2::Rc2::new_from_slice(&[3; 16]).unwrap();
    let b = a.clone();
    let (mut x, mut y) = ([5u8; 8].into(), [5u8; 8].into());
    a.encrypt_block(&mut x);
    b.encrypt_block(&mut y);
    assert_eq!(x, y);
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: rc2::cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<rc2::Rc2>();
}
