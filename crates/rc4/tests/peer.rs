//! Differential test against RustCrypto's rc4 0.2.0 (`TESTKIT_CASES`, `TESTKIT_SEED`).

#[test]
fn peer_rc4_0_2_0() {
    // Random key lengths in 1..=256 (each length ~3900 times in 10^6 cases), random
    // message lengths and call splits; also checks that both reject 0 and 257 bytes.
    testkit::peer::stream::<rc4::Rc4, rc_rc4::Rc4>(testkit::cases(1_000_000), 1..=256);
}

#[test]
fn peer_extreme_key_lengths() {
    use rc4::{KeyInit, StreamCipher};
    let mut rng = testkit::Rng::new(testkit::seed(0x4EE5));
    for len in [1usize, 256] {
        for _ in 0..1000 {
            let key = rng.bytes(len);
            let n = rng.msg_len();
            let msg = rng.bytes(n);
            let mut ours = msg.clone();
            rc4::Rc4::new_from_slice(&key)
                .unwrap()
                .apply_keystream(&mut ours);
            let mut theirs = msg;
            let mut peer = <rc_rc4::Rc4 as rc_rc4::KeyInit>::new_from_slice(&key).unwrap();
            rc_rc4::StreamCipher::apply_keystream(&mut peer, &mut theirs);
            assert_eq!(ours, theirs, "{len}-byte key {key:02x?}");
        }
    }
}
