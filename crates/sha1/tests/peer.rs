//! Differential runs against RustCrypto sha1 0.11.0 (dev-dependency `rc_sha1`):
//! 10^6 seeded messages through the public API, and the compression function
//! (public and every available backend) on random states and blocks.

use testkit::Rng;

#[test]
fn digest_matches_rustcrypto() {
    testkit::peer::digest::<sha1::Sha1, rc_sha1::Sha1>(testkit::cases(1_000_000));
}

#[test]
fn compress_matches_rustcrypto() {
    let seed = testkit::seed(0xC0_5A1);
    let mut rng = Rng::new(seed);
    let mut names = vec!["public"];
    names.extend(
        sha1::__backends::ALL
            .iter()
            .copied()
            .filter(|&n| testkit::available(n, sha1::__backends::available(n))),
    );
    for case in 0..testkit::cases(100_000) {
        let mut state = [0u32; 5];
        state.iter_mut().for_each(|w| *w = rng.next_u64() as u32);
        let n = rng.below(9);
        let data = rng.bytes(64 * n);
        let (blocks, _) = data.as_chunks::<64>();

        let mut expect = state;
        rc_sha1::block_api::compress(&mut expect, blocks);
        for &name in &names {
            let mut got = state;
            if name == "public" {
                sha1::block_api::compress(&mut got, blocks);
            } else {
                sha1::__backends::compress_with(name, &mut got, blocks);
            }
            assert_eq!(
                got, expect,
                "{name}: case {case} ({n} blocks, state {state:08x?}, seed {seed})"
            );
        }
    }
}
