//! Differential tests against RustCrypto's `blowfish` 0.10.0 (dev-dependency
//! `rc_blowfish`): ECB with every key length 4..=56, CTR through the published `ctr` and
//! CBC through the published `cbc`, both byte orders; the `bcrypt` feature's functions on
//! random salts and keys of 1..=72 bytes; bad key lengths; Debug and AlgorithmName
//! strings. Seeded; `TESTKIT_CASES` overrides the case count (`1000000` for a full run).

use blowfish::cipher::{AlgorithmName, KeyInit};
use blowfish::{Blowfish, BlowfishLE};
use testkit::{cases, peer};

/// Per test; each case runs two key schedules of up to 56 bytes (≈60 µs for the pair).
const CASES: usize = 2_000;

type RcBe = rc_blowfish::Blowfish;
type RcLe = rc_blowfish::BlowfishLE;

#[test]
fn ecb_be() {
    peer::ecb::<Blowfish, RcBe>(cases(CASES), 4..=56);
}

#[test]
fn ecb_le() {
    peer::ecb::<BlowfishLE, RcLe>(cases(CASES), 4..=56);
}

#[test]
fn ctr_be() {
    peer::stream_iv::<ctr::Ctr64BE<Blowfish>, ctr::Ctr64BE<RcBe>>(cases(CASES));
}

#[test]
fn ctr_le() {
    peer::stream_iv::<ctr::Ctr32LE<BlowfishLE>, ctr::Ctr32LE<RcLe>>(cases(CASES));
}

#[test]
fn cbc_be() {
    peer::block_mode::<
        cbc::Encryptor<Blowfish>,
        cbc::Decryptor<Blowfish>,
        cbc::Encryptor<RcBe>,
        cbc::Decryptor<RcBe>,
    >(cases(CASES));
}

#[test]
fn cbc_le() {
    peer::block_mode::<
        cbc::Encryptor<BlowfishLE>,
        cbc::Decryptor<BlowfishLE>,
        cbc::Encryptor<RcLe>,
        cbc::Decryptor<RcLe>,
    >(cases(CASES));
}

/// `salted_expand_key`, `bc_expand_key` and `bc_encrypt` against the peer: random salts
/// and keys of 1..=72 bytes, a few expansions, then blocks through `bc_encrypt` and the
/// cipher traits.
#[cfg(feature = "bcrypt")]
#[test]
fn bcrypt_functions() {
    use blowfish::cipher::{Array, BlockCipherEncrypt};
    let seed = testkit::seed(0xBC);
    for i in 0..cases(CASES) {
        let mut rng = testkit::Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let key = rng.bytes_in(1, 72);
        let salt = rng.bytes_in(1, 24);
        let mut ours = Blowfish::bc_init_state();
        let mut theirs = RcBe::bc_init_state();
        ours.salted_expand_key(&salt, &key);
        theirs.salted_expand_key(&salt, &key);
        for _ in 0..rng.range(0, 2) {
            ours.bc_expand_key(&key);
            theirs.bc_expand_key(&key);
            ours.bc_expand_key(&salt);
            theirs.bc_expand_key(&salt);
        }
        let lr = [rng.next_u64() as u32, rng.next_u64() as u32];
        assert_eq!(
            ours.bc_encrypt(lr),
            theirs.bc_encrypt(lr),
            "case {i} of seed {seed}"
        );
        let n = rng.range(0, 40);
        let data = rng.bytes(8 * n);
        let mut a: Vec<Array<u8, _>> = data
            .chunks(8)
            .map(|c| Array::try_from(c).unwrap())
            .collect();
        let mut b = a.clone();
        ours.encrypt_blocks(&mut a);
        theirs.encrypt_blocks(&mut b);
        assert_eq!(a, b, "case {i} of seed {seed}: blocks");
    }
}

#[test]
fn bad_key_lengths_are_errors() {
    for len in 0..=80usize {
        let key = vec![0x5Au8; len];
        let ok = (4..=56).contains(&len);
        assert_eq!(
            Blowfish::<byteorder::BE>::new_from_slice(&key).is_ok(),
            ok,
            "{len}"
        );
        assert_eq!(BlowfishLE::new_from_slice(&key).is_ok(), ok, "{len}");
        assert_eq!(RcBe::new_from_slice(&key).is_ok(), ok, "peer {len}");
        if !ok {
            assert!(matches!(
                Blowfish::<byteorder::BE>::new_from_slice(&key),
                Err(blowfish::cipher::InvalidLength)
            ));
        }
    }
    // `new` takes the full 56-byte key.
    let _ = Blowfish::<byteorder::BE>::new(&[7u8; 56].into());
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
    let key = [1u8; 16];
    let (ours, theirs) = (
        Blowfish::<byteorder::BE>::new_from_slice(&key).unwrap(),
        RcBe::new_from_slice(&key).unwrap(),
    );
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    assert_eq!(format!("{ours:?}"), "Blowfish<BE> { ... }");
    let (ours, theirs) = (
        BlowfishLE::new_from_slice(&key).unwrap(),
        RcLe::new_from_slice(&key).unwrap(),
    );
    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    assert_eq!(format!("{ours:?}"), "Blowfish<LE> { ... }");
    assert_eq!(name::<Blowfish>(), name::<RcBe>());
    assert_eq!(name::<Blowfish>(), "Blowfish<BE>");
    assert_eq!(name::<BlowfishLE>(), name::<RcLe>());
    assert_eq!(name::<BlowfishLE>(), "Blowfish<LE>");
}

#[test]
fn clone_keeps_the_key() {
    use blowfish::cipher::{Array, BlockCipherEncrypt};
    let c = Blowfish::<byteorder::BE>::new_from_slice(b"clone me").unwrap();
    let d = c.clone();
    drop(c);
    let mut b = [Array::from([3u8; 8]); 40];
    d.encrypt_blocks(&mut b);
    let mut e = [Array::from([3u8; 8]); 40];
    RcBe::new_from_slice(b"clone me")
        .unwrap()
        .encrypt_blocks(&mut e);
    assert_eq!(b, e);
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn is_zod<T: blowfish::cipher::zeroize::ZeroizeOnDrop>() {}
    is_zod::<Blowfish>();
    is_zod::<BlowfishLE>();
}
