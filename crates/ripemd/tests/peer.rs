//! Differential runs against RustCrypto ripemd 0.2.0 (dev-dependency `rc_ripemd`):
//! 10^6 seeded messages in all (250 000 per width) through the public API (`TESTKIT_CASES`,
//! `TESTKIT_SEED`), and every available backend's compression of random states and
//! blocks against a whole-hash computed by the peer.

#[test]
fn ripemd128_matches_rustcrypto() {
    testkit::peer::digest::<ripemd::Ripemd128, rc_ripemd::Ripemd128>(testkit::cases(250_000));
}

#[test]
fn ripemd160_matches_rustcrypto() {
    testkit::peer::digest::<ripemd::Ripemd160, rc_ripemd::Ripemd160>(testkit::cases(250_000));
}

#[test]
fn ripemd256_matches_rustcrypto() {
    testkit::peer::digest::<ripemd::Ripemd256, rc_ripemd::Ripemd256>(testkit::cases(250_000));
}

#[test]
fn ripemd320_matches_rustcrypto() {
    testkit::peer::digest::<ripemd::Ripemd320, rc_ripemd::Ripemd320>(testkit::cases(250_000));
}

/// The peer's compression of `blocks` into the chaining value `start` (`N` words):
/// RustCrypto's crate has no public compression function, but its core's serialized
/// state starts with the chaining value, so a state set by deserialization and read
/// back after `update_blocks` gives it.
fn peer_compress<C, const N: usize>(start: &[u32; N], blocks: &[[u8; 64]]) -> [u32; N]
where
    C: digest::block_api::UpdateCore + SerializableState,
{
    let mut raw = SerializedState::<C>::default();
    for (chunk, w) in raw.chunks_exact_mut(4).zip(start) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    let mut core = C::deserialize(&raw).expect("any chaining value");
    let blocks: Vec<digest::block_api::Block<C>> = blocks
        .iter()
        .map(|b| digest::block_api::Block::<C>::try_from(&b[..]).unwrap())
        .collect();
    core.update_blocks(&blocks);
    let after = core.serialize();
    core::array::from_fn(|i| u32::from_le_bytes(after[4 * i..4 * i + 4].try_into().unwrap()))
}

use digest::common::hazmat::{SerializableState, SerializedState};

/// Every available backend's compression against the peer's, on random chaining
/// values and 0..=4 random blocks, for all four widths.
#[test]
fn every_backend_compresses_like_rustcrypto() {
    use rc_ripemd::block_api as peer;
    use ripemd::__backends as b;

    let mut rng = testkit::Rng::new(testkit::seed(0x0041_BE3D));
    let names: Vec<&str> = b::ALL
        .iter()
        .copied()
        .filter(|&n| testkit::available(n, b::available(n)))
        .collect();
    for case in 0..testkit::cases(20_000) {
        let n = rng.below(5);
        let data = rng.bytes(64 * n);
        let (blocks, _) = data.as_chunks::<64>();
        macro_rules! check {
            ($core:ty, $words:literal, $with:path) => {
                let start: [u32; $words] = core::array::from_fn(|_| rng.next_u64() as u32);
                let expect = peer_compress::<$core, $words>(&start, blocks);
                for &name in &names {
                    let mut got = start;
                    $with(name, &mut got, blocks);
                    assert_eq!(
                        got,
                        expect,
                        "{name}: {} case {case} ({n} blocks)",
                        stringify!($core)
                    );
                }
            };
        }
        check!(peer::Ripemd128Core, 4, b::compress128_with);
        check!(peer::Ripemd160Core, 5, b::compress160_with);
        check!(peer::Ripemd256Core, 8, b::compress256_with);
        check!(peer::Ripemd320Core, 10, b::compress320_with);
    }
}
