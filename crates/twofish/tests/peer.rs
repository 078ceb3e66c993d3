//! Differential tests against RustCrypto's `twofish` 0.8.0 (dev-dependency `rc_twofish`): ECB,
//! CTR through the published `ctr` and CBC through the published `cbc`; bad key lengths;
//! Debug and AlgorithmName strings; zeroize.
//!
//! The peer is a naive reference (≈1100 cycles per byte, and its key schedule is slow too),
//! so the default case counts keep this binary at a few seconds. The mode drivers average
//! about 600 bytes per case, too slow for 10^6 cases against this peer; `keys_and_blocks`
//! (a fresh random key per case, mostly one block) is the one to run at 10^6:
//! `TESTKIT_CASES=1000000 cargo test -p twofish@0.8.1 --release --test peer keys_and_blocks`.

use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use testkit::{Rng, cases, peer};

/// Per key size and mode.
const CASES: usize = 500;

/// A fresh random key of every length per case (the key schedule is where the peer
/// differential adds most), one block, or one in 16 cases 16..=40 blocks (the wide
/// backends' batches and tails), encrypted by both, decrypted by ours.
#[test]
fn keys_and_blocks() {
    let seed = testkit::seed(0x2F15);
    for i in 0..cases(3_000) {
        let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let len = [16, 24, 32][rng.below(3)];
        let key = rng.bytes(len);
        let n = if rng.below(16) == 0 {
            rng.range(16, 40)
        } else {
            1
        };
        let plain: Vec<cipher::Array<u8, cipher::consts::U16>> = (0..n)
            .map(|_| cipher::Array::try_from(&rng.bytes(16)[..]).unwrap())
            .collect();
        let ours = twofish::Twofish::new_from_slice(&key).unwrap();
        let theirs = rc_twofish::Twofish::new_from_slice(&key).unwrap();
        let (mut a, mut b) = (plain.clone(), plain.clone());
        ours.encrypt_blocks(&mut a);
        theirs.encrypt_blocks(&mut b);
        assert!(a == b, "case {i} (seed {seed}): key {key:02x?}, {n} blocks");
        ours.decrypt_blocks(&mut a);
        assert!(a == plain, "case {i}: decryption");
    }
}

#[test]
fn ecb_all_key_sizes() {
    for n in [16usize, 24, 32] {
        peer::ecb::<twofish::Twofish, rc_twofish::Twofish>(cases(CASES), n..=n);
    }
}

#[test]
fn ctr() {
    peer::stream_iv::<ctr::Ctr128BE<twofish::Twofish>, ctr::Ctr128BE<rc_twofish::Twofish>>(cases(
        CASES,
    ));
    peer::stream_iv::<ctr::Ctr32LE<twofish::Twofish>, ctr::Ctr32LE<rc_twofish::Twofish>>(cases(
        CASES / 3,
    ));
}

#[test]
fn cbc() {
    peer::block_mode::<
        cbc::Encryptor<twofish::Twofish>,
        cbc::Decryptor<twofish::Twofish>,
        cbc::Encryptor<rc_twofish::Twofish>,
        cbc::Decryptor<rc_twofish::Twofish>,
    >(cases(CASES));
}

#[test]
fn bad_key_lengths_are_errors() {
    for len in 0..=80usize {
        let key = vec![0x5Au8; len];
        let ok = matches!(len, 16 | 24 | 32);
        assert_eq!(twofish::Twofish::new_from_slice(&key).is_ok(), ok, "{len}");
        assert_eq!(
            rc_twofish::Twofish::new_from_slice(&key).is_ok(),
            ok,
            "{len}"
        );
    }
    assert!(matches!(
        twofish::Twofish::new_from_slice(&[0; 15]),
        Err(cipher::InvalidLength)
    ));
}

#[test]
fn debug_and_algorithm_names_match_peer() {
    let ours = twofish::Twofish::new_from_slice(&[1; 16]).unwrap();
    let theirs = rc_twofish::Twofish::new_from_slice(&[1; 16]).unwrap();
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    assert_eq!(format!("{ours:?}"), "Twofish { ... }");
    assert_eq!(
        testkit::alg_name::<twofish::Twofish>(),
        testkit::alg_name::<rc_twofish::Twofish>()
    );
    assert_eq!(testkit::alg_name::<twofish::Twofish>(), "Twofish");
}

/// `Twofish::new` takes a 32-byte key, as in the peer.
#[test]
fn new_takes_32_bytes() {
    use cipher::{BlockCipherEncrypt, KeySizeUser};
    assert_eq!(twofish::Twofish::key_size(), 32);
    let key = [7u8; 32];
    let (a, b) = (
        twofish::Twofish::new(&key.into()),
        rc_twofish::Twofish::new(&key.into()),
    );
    let (mut x, mut y) = (
        cipher::Array::from([3u8; 16]),
        cipher::Array::from([3u8; 16]),
    );
    a.encrypt_block(&mut x);
    b.encrypt_block(&mut y);
    assert_eq!(x, y);
}

/// The backend-trait impls on the public type (ParBlocksSize = 1) give the same blocks.
#[test]
fn public_backend_traits() {
    use cipher::{
        BlockCipherDecBackend, BlockCipherEncBackend, ParBlocksSizeUser, typenum::Unsigned,
    };
    assert_eq!(
        <twofish::Twofish as ParBlocksSizeUser>::ParBlocksSize::USIZE,
        1
    );
    let key = [9u8; 24];
    let (a, b) = (
        twofish::Twofish::new_from_slice(&key).unwrap(),
        rc_twofish::Twofish::new_from_slice(&key).unwrap(),
    );
    let mut x = cipher::Array::from([5u8; 16]);
    let mut y = x;
    BlockCipherEncBackend::encrypt_block_inplace(&a, &mut x);
    BlockCipherEncBackend::encrypt_block_inplace(&b, &mut y);
    assert_eq!(x, y);
    BlockCipherDecBackend::decrypt_block_inplace(&a, &mut x);
    assert_eq!(x, cipher::Array::from([5u8; 16]));
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<twofish::Twofish>();
}
