//! Differential tests against RustCrypto's `aes` 0.9.4 (dev-dependency `rc_aes`): ECB,
//! CTR through the published `ctr` and CBC through the published `cbc`, 10^5 seeded cases
//! per key size and mode by default (`TESTKIT_CASES` overrides); the hazmat round functions on
//! random inputs; bad key lengths; Debug and AlgorithmName strings.

use aes::cipher::{AlgorithmName, KeyInit};
use testkit::{Rng, cases, peer};

/// Per key size and mode; a full 10^6 run: `TESTKIT_CASES=1000000` (forced `soft` takes
/// minutes at that count, so the gate runs 10^5).
const CASES: usize = 100_000;

#[test]
fn ecb_aes128() {
    peer::ecb::<aes::Aes128, rc_aes::Aes128>(cases(CASES), 16..=16);
}

#[test]
fn ecb_aes192() {
    peer::ecb::<aes::Aes192, rc_aes::Aes192>(cases(CASES), 24..=24);
}

#[test]
fn ecb_aes256() {
    peer::ecb::<aes::Aes256, rc_aes::Aes256>(cases(CASES), 32..=32);
}

#[test]
fn ctr_aes128() {
    peer::stream_iv::<ctr::Ctr128BE<aes::Aes128>, ctr::Ctr128BE<rc_aes::Aes128>>(cases(CASES));
}

#[test]
fn ctr_aes192() {
    peer::stream_iv::<ctr::Ctr32BE<aes::Aes192>, ctr::Ctr32BE<rc_aes::Aes192>>(cases(CASES));
}

#[test]
fn ctr_aes256() {
    peer::stream_iv::<ctr::Ctr64LE<aes::Aes256>, ctr::Ctr64LE<rc_aes::Aes256>>(cases(CASES));
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
    cbc_aes128: aes::Aes128, rc_aes::Aes128;
    cbc_aes192: aes::Aes192, rc_aes::Aes192;
    cbc_aes256: aes::Aes256, rc_aes::Aes256;
}

/// `cbc::Decryptor` over the decrypt-only types (the Encryptor needs `…Enc`).
#[test]
fn cbc_dec_only_types() {
    use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
    let mut rng = Rng::new(testkit::seed(7));
    for _ in 0..cases(10_000) {
        let (key, iv) = (rng.bytes(32), rng.bytes(16));
        let n = rng.below(40);
        let plain = rng.bytes(16 * n);
        let mut buf: Vec<aes::Block> = plain.chunks(16).map(|c| c.try_into().unwrap()).collect();
        cbc::Encryptor::<rc_aes::Aes256Enc>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks(&mut buf);
        cbc::Decryptor::<aes::Aes256Dec>::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_blocks(&mut buf);
        assert_eq!(buf.concat(), plain);
    }
}

#[cfg(feature = "hazmat")]
#[test]
fn hazmat_matches_peer() {
    use aes::hazmat::{Block, Block8};
    let mut rng = Rng::new(testkit::seed(0x4A2A));
    let block = |rng: &mut Rng| Block::try_from(&rng.bytes(16)[..]).unwrap();
    let block8 = |rng: &mut Rng| Block8::from_fn(|_| block(rng));
    for _ in 0..cases(20_000) {
        let (b, k) = (block(&mut rng), block(&mut rng));
        let (b8, k8) = (block8(&mut rng), block8(&mut rng));

        macro_rules! same1 {
            ($f:ident) => {{
                let (mut x, mut y) = (b, b);
                aes::hazmat::$f(&mut x, &k);
                rc_aes::hazmat::$f(&mut y, &k);
                assert_eq!(x, y, stringify!($f));
            }};
        }
        macro_rules! same8 {
            ($f:ident) => {{
                let (mut x, mut y) = (b8.clone(), b8.clone());
                aes::hazmat::$f(&mut x, &k8);
                rc_aes::hazmat::$f(&mut y, &k8);
                assert_eq!(x, y, stringify!($f));
            }};
        }
        same1!(cipher_round);
        same1!(equiv_inv_cipher_round);
        same8!(cipher_round_par);
        same8!(equiv_inv_cipher_round_par);
        let (mut x, mut y) = (b, b);
        aes::hazmat::mix_columns(&mut x);
        rc_aes::hazmat::mix_columns(&mut y);
        assert_eq!(x, y, "mix_columns");
        aes::hazmat::inv_mix_columns(&mut x);
        rc_aes::hazmat::inv_mix_columns(&mut y);
        assert_eq!(x, y, "inv_mix_columns");
        assert_eq!(x, b, "inv_mix_columns inverts mix_columns");
    }
}

#[test]
fn bad_key_lengths_are_errors() {
    for len in [0usize, 1, 15, 17, 23, 25, 31, 33, 64] {
        let key = vec![0u8; len];
        assert_eq!(
            aes::Aes128::new_from_slice(&key).is_err(),
            len != 16,
            "{len}"
        );
        assert_eq!(aes::Aes128Enc::new_from_slice(&key).is_err(), len != 16);
        assert_eq!(aes::Aes128Dec::new_from_slice(&key).is_err(), len != 16);
        assert_eq!(
            aes::Aes192::new_from_slice(&key).is_err(),
            len != 24,
            "{len}"
        );
        assert_eq!(aes::Aes192Enc::new_from_slice(&key).is_err(), len != 24);
        assert_eq!(aes::Aes192Dec::new_from_slice(&key).is_err(), len != 24);
        assert_eq!(
            aes::Aes256::new_from_slice(&key).is_err(),
            len != 32,
            "{len}"
        );
        assert_eq!(aes::Aes256Enc::new_from_slice(&key).is_err(), len != 32);
        assert_eq!(aes::Aes256Dec::new_from_slice(&key).is_err(), len != 32);
    }
    assert!(matches!(
        aes::Aes128::new_from_slice(&[0; 15]),
        Err(aes::cipher::InvalidLength)
    ));
}

#[test]
fn debug_and_algorithm_names_match_peer() {
    fn names<T: AlgorithmName>() -> String {
        struct N<T>(core::marker::PhantomData<T>);
        impl<T: AlgorithmName> core::fmt::Display for N<T> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                T::write_alg_name(f)
            }
        }
        N::<T>(core::marker::PhantomData).to_string()
    }
    macro_rules! check {
        ($($t:ident, $k:literal;)*) => {$(
            let ours = aes::$t::new_from_slice(&[1; $k]).unwrap();
            let theirs = rc_aes::$t::new_from_slice(&[1; $k]).unwrap();
            assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
            assert_eq!(format!("{ours:?}"), concat!(stringify!($t), " { .. }"));
            assert_eq!(names::<aes::$t>(), names::<rc_aes::$t>());
            assert_eq!(names::<aes::$t>(), stringify!($t));
        )*};
    }
    check! {
        Aes128, 16; Aes128Enc, 16; Aes128Dec, 16;
        Aes192, 24; Aes192Enc, 24; Aes192Dec, 24;
        Aes256, 32; Aes256Enc, 32; Aes256Dec, 32;
    }
}

#[test]
fn hardware_accelerated_matches_peer() {
    // Both detect AES-NI (x86) or the ARMv8 AES extension the same way, unless a
    // backend is forced (`soft` and `avx2` run no AES instructions).
    if !matches!(aes::__backends::selected(), "soft" | "avx2") {
        assert!(aes::hardware_accelerated());
        assert_eq!(aes::hardware_accelerated(), rc_aes::hardware_accelerated());
    } else {
        assert!(!aes::hardware_accelerated());
    }
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: zeroize::ZeroizeOnDrop>() {}
    is_zod::<aes::Aes128>();
    is_zod::<aes::Aes192Enc>();
    is_zod::<aes::Aes256Dec>();
}
