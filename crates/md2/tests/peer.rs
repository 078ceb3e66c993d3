//! Differential runs against RustCrypto md2 0.11.0 (dev-dependency `rc_md2`): seeded
//! messages through the public API (`TESTKIT_CASES`, `TESTKIT_SEED`), and every
//! available backend's compression of random states against the peer's.
//!
//! MD2 runs at about 15 MB/s here and the peer at about 9, and an average case hashes
//! some 2.5 KB on each side, so the default is 40 000 cases (about 10 s in the
//! release/test profile on the project's test host) rather than the usual 10^6;
//! `TESTKIT_CASES=1000000` runs the full set (a few minutes).

use digest::common::hazmat::SerializableState;

#[test]
fn md2_matches_rustcrypto() {
    testkit::peer::digest::<md2::Md2, rc_md2::Md2>(testkit::cases(40_000));
}

/// Every available backend against the peer's compression, reached through its
/// core: a random 48-byte state and checksum set by deserialization, 0..=8 random
/// blocks through `update_blocks`, the state read back by serialization.
#[test]
fn every_backend_compresses_like_rustcrypto() {
    use digest::block_api::{Block, UpdateCore};
    use rc_md2::block_api::Md2Core as Peer;

    let mut rng = testkit::Rng::new(testkit::seed(0x03D2_C0DE));
    let names: Vec<&str> = md2::__backends::ALL
        .iter()
        .copied()
        .filter(|&n| testkit::available(n, md2::__backends::available(n)))
        .collect();
    for case in 0..testkit::cases(2_000) {
        let mut raw = [0u8; 64];
        rng.fill(&mut raw);
        let n = rng.below(9);
        let data = rng.bytes(16 * n);
        let (blocks, _) = data.as_chunks::<16>();

        let mut peer = Peer::deserialize(&raw.into()).unwrap();
        let peer_blocks: Vec<Block<Peer>> = blocks.iter().map(|b| (*b).into()).collect();
        peer.update_blocks(&peer_blocks);
        let expect = peer.serialize();

        for &name in &names {
            let mut x: [u8; 48] = raw[..48].try_into().unwrap();
            let mut c: [u8; 16] = raw[48..].try_into().unwrap();
            md2::__backends::compress_with(name, &mut x, &mut c, blocks);
            assert_eq!(
                x[..],
                expect[..48],
                "{name}: state, case {case} ({n} blocks)"
            );
            assert_eq!(
                c[..],
                expect[48..],
                "{name}: checksum, case {case} ({n} blocks)"
            );
        }
    }
}
