//! Known answers through the public API (the RIPEMD authors' vectors for all four
//! widths, one million 'a'), serialized states byte for byte as RustCrypto ripemd
//! 0.2.0 writes them (both directions), the OIDs, and the Debug/AlgorithmName strings.
//!
//! These run with whichever backend is selected, so the forced-backend runs
//! (`--cfg ripemd_backend="…"`) check every backend against the vectors.

use core::fmt;
use digest::{
    Digest, FixedOutputReset, Reset, block_api::CoreProxy, common::hazmat::SerializableState,
};
use ripemd::{
    Ripemd128, Ripemd160, Ripemd256, Ripemd320,
    block_api::{Ripemd128Core, Ripemd160Core, Ripemd256Core, Ripemd320Core},
};
use testkit::kat::{Record, parse};

/// The records of section `[RIPEMD-<width>]` of `tests/data/ripemd.txt`.
fn records(width: u32) -> Vec<Record> {
    let section = format!("RIPEMD-{width}");
    let recs: Vec<Record> = parse(include_str!("data/ripemd.txt"))
        .into_iter()
        .filter(|r| r.section.as_deref() == Some(section.as_str()))
        .collect();
    assert_eq!(recs.len(), 9, "records in [{section}]");
    recs
}

/// `data` in pieces of the given sizes (cycled), then the rest.
fn update_in_pieces<D: Digest>(h: &mut D, data: &[u8], sizes: &[usize]) {
    let mut rest = data;
    for &n in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        h.update(piece);
        rest = tail;
    }
}

/// Every record of `[RIPEMD-<width>]` through `D` (ours) and `P` (the peer): one
/// shot, in irregular pieces, after `finalize_reset`, after `reset`, byte at a time.
fn kat<D, P>(width: u32)
where
    D: Digest + FixedOutputReset + Reset,
    P: Digest,
{
    for rec in records(width) {
        let msg = rec.bytes("msg");
        let md = rec.bytes("md");
        let what = format!("RIPEMD-{width}, line {} ({} bytes)", rec.line, msg.len());

        assert_eq!(D::digest(&msg)[..], md[..], "one-shot, {what}");
        assert_eq!(
            P::digest(&msg)[..],
            md[..],
            "the peer disagrees with {what}"
        );

        // Irregular pieces cross every block boundary at a different offset.
        let sizes: &[usize] = if msg.len() > 10_000 {
            &[1, 4093, 64, 63, 65, 8192, 7]
        } else {
            &[1, 2, 3, 5, 7, 11, 13, 64, 17]
        };
        let mut h = D::new();
        update_in_pieces(&mut h, &msg, sizes);
        assert_eq!(
            Digest::finalize_reset(&mut h)[..],
            md[..],
            "in pieces, {what}"
        );
        // After the reset the hasher is as new.
        Digest::update(&mut h, &msg);
        assert_eq!(h.finalize()[..], md[..], "after finalize_reset, {what}");

        let mut h = D::new();
        Digest::update(&mut h, b"garbage");
        Reset::reset(&mut h);
        Digest::update(&mut h, &msg);
        let mut out = Default::default();
        FixedOutputReset::finalize_into_reset(&mut h, &mut out);
        assert_eq!(out[..], md[..], "after reset, {what}");

        if msg.len() < 100 {
            let mut h = D::new();
            for b in &msg {
                Digest::update(&mut h, core::slice::from_ref(b));
            }
            assert_eq!(h.finalize()[..], md[..], "byte at a time, {what}");
        }
    }
}

#[test]
fn ripemd128_kat() {
    println!("backend: {}", ripemd::__backends::selected());
    kat::<Ripemd128, rc_ripemd::Ripemd128>(128);
}

#[test]
fn ripemd160_kat() {
    kat::<Ripemd160, rc_ripemd::Ripemd160>(160);
}

#[test]
fn ripemd256_kat() {
    kat::<Ripemd256, rc_ripemd::Ripemd256>(256);
}

#[test]
fn ripemd320_kat() {
    kat::<Ripemd320, rc_ripemd::Ripemd320>(320);
}

#[test]
fn readme_example() {
    // The example of RustCrypto's README (and of our crate docs), "Hello world!".
    assert_eq!(
        Ripemd160::digest(b"Hello world!")[..],
        hex_literal::hex!("7f772647d88750add82d8e1a7a3e5c0902a346a3")
    );
}

#[test]
fn forced_backend_is_the_one_used() {
    let selected = ripemd::__backends::selected();
    assert!(ripemd::__backends::ALL.contains(&selected));
    assert!(ripemd::__backends::available(selected));
    if cfg!(ripemd_backend = "soft") {
        assert_eq!(selected, "soft");
    }
    assert!(!ripemd::__backends::available("no-such-backend"));
}

/// The message used by the serialization tests.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

const SERIALIZATION_LENGTHS: [usize; 12] = [0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 1000, 4099];

/// Serialized states of `D` (ours) and `P` (RustCrypto) are equal byte for byte,
/// for the hasher and for its core, and each continues the other's state.
fn serialization<D, P>(state_words: usize)
where
    D: Digest + Clone + SerializableState + CoreProxy,
    D::Core: SerializableState,
    P: Digest + Clone + SerializableState + CoreProxy,
    P::Core: SerializableState,
{
    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len);
        let mut ours = D::new();
        let mut theirs = P::new();
        ours.update(&msg);
        theirs.update(&msg);
        assert_eq!(
            ours.serialize()[..],
            theirs.serialize()[..],
            "hasher after {len} bytes"
        );

        // The core alone: the state words then the block count.
        let (core, _) = ours.clone().decompose();
        let (peer_core, _) = theirs.clone().decompose();
        let s = core.serialize();
        assert_eq!(s.len(), 4 * state_words + 8);
        assert_eq!(s[..], peer_core.serialize()[..], "core after {len} bytes");
        assert_eq!(
            u64::from_le_bytes(s[4 * state_words..].try_into().unwrap()),
            (len / 64) as u64
        );
    }

    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len + 300);
        let (head, tail) = msg.split_at(len);
        let expect = P::digest(&msg);

        // RustCrypto's state continued by us.
        let mut theirs = P::new();
        theirs.update(head);
        let mut ours = D::deserialize(
            theirs.serialize()[..]
                .try_into()
                .expect("same serialized size"),
        )
        .expect("peer state");
        ours.update(tail);
        assert_eq!(ours.finalize()[..], expect[..], "peer -> ours after {len}");

        // Our state continued by RustCrypto.
        let mut ours = D::new();
        ours.update(head);
        let mut theirs = P::deserialize(
            ours.serialize()[..]
                .try_into()
                .expect("same serialized size"),
        )
        .expect("our state");
        theirs.update(tail);
        assert_eq!(
            theirs.finalize()[..],
            expect[..],
            "ours -> peer after {len}"
        );

        // And the core alone, through its own serialization.
        let mut src = D::new();
        src.update(head);
        let (core, buffer) = src.decompose();
        let core = D::Core::deserialize(&core.serialize()).expect("core state");
        let mut ours = D::compose(core, buffer);
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "core round trip after {len}"
        );
    }
}

#[test]
fn serialization_matches_rustcrypto() {
    serialization::<Ripemd128, rc_ripemd::Ripemd128>(4);
    serialization::<Ripemd160, rc_ripemd::Ripemd160>(5);
    serialization::<Ripemd256, rc_ripemd::Ripemd256>(8);
    serialization::<Ripemd320, rc_ripemd::Ripemd320>(10);
}

/// RustCrypto's own serialization vector (`hash_serialization_test!`): the state
/// after 65 bytes of 0x13, then continued by 65 more.
fn serialization_vector<D: Digest + SerializableState>(width: u32) {
    let section = format!("RIPEMD-{width}");
    let rec = parse(include_str!("data/ripemd_serialization.txt"))
        .into_iter()
        .find(|r| r.section.as_deref() == Some(section.as_str()))
        .expect("a record per width");
    let expected = rec.bytes("state");
    let mut h = D::new();
    h.update([0x13; 65]);
    let s = h.serialize();
    assert_eq!(s[..], expected[..], "{section}");

    let mut h = D::deserialize(&s).unwrap();
    h.update([0x13; 65]);
    assert_eq!(h.finalize()[..], D::digest([0x13; 130])[..], "{section}");
}

#[test]
fn rustcrypto_serialization_vectors() {
    serialization_vector::<Ripemd128>(128);
    serialization_vector::<Ripemd160>(160);
    serialization_vector::<Ripemd256>(256);
    serialization_vector::<Ripemd320>(320);
}

#[test]
fn bad_serialized_states_are_rejected_like_rustcrypto() {
    let mut h = Ripemd160::new();
    h.update([0x13; 65]);
    let good = h.serialize();
    // Buffer position out of range, and a nonzero byte after the buffered data.
    for (at, byte) in [(28, 64u8), (28, 0xFF), (28 + 1 + 5, 1), (91, 9)] {
        let mut bad = good;
        bad[at] = byte;
        let ours = Ripemd160::deserialize(&bad).is_ok();
        let theirs = rc_ripemd::Ripemd160::deserialize(&bad).is_ok();
        assert!(!ours, "accepted a state with byte {at} = {byte:#x}");
        assert_eq!(ours, theirs);
    }
}

#[cfg(feature = "oid")]
#[test]
fn oids() {
    use digest::const_oid::{AssociatedOid, ObjectIdentifier};
    assert_eq!(Ripemd128::OID, ObjectIdentifier::new_unwrap("1.3.36.3.2.2"));
    assert_eq!(Ripemd160::OID, ObjectIdentifier::new_unwrap("1.3.36.3.2.1"));
    assert_eq!(Ripemd256::OID, ObjectIdentifier::new_unwrap("1.3.36.3.2.3"));
    assert_eq!(Ripemd128::OID, <rc_ripemd::Ripemd128 as AssociatedOid>::OID);
    assert_eq!(Ripemd160::OID, <rc_ripemd::Ripemd160 as AssociatedOid>::OID);
    assert_eq!(Ripemd256::OID, <rc_ripemd::Ripemd256 as AssociatedOid>::OID);
    // RIPEMD-320 has no OID, here as in RustCrypto's crate (checked by semver-checks:
    // adding an `AssociatedOid` impl would be an API difference).
}

#[test]
fn debug_and_algorithm_name_strings() {
    assert_eq!(format!("{:?}", Ripemd128::new()), "Ripemd128 { ... }");
    assert_eq!(format!("{:?}", Ripemd160::new()), "Ripemd160 { ... }");
    assert_eq!(format!("{:?}", Ripemd256::new()), "Ripemd256 { ... }");
    assert_eq!(format!("{:?}", Ripemd320::new()), "Ripemd320 { ... }");
    assert_eq!(
        format!("{:?}", Ripemd128Core::default()),
        "Ripemd128Core { ... }"
    );
    assert_eq!(
        format!("{:?}", Ripemd160Core::default()),
        "Ripemd160Core { ... }"
    );
    assert_eq!(
        format!("{:?}", Ripemd256Core::default()),
        "Ripemd256Core { ... }"
    );
    assert_eq!(
        format!("{:?}", Ripemd320Core::default()),
        "Ripemd320Core { ... }"
    );
    assert_eq!(
        format!("{:?}", rc_ripemd::Ripemd160::new()),
        format!("{:?}", Ripemd160::new())
    );
    assert_eq!(
        format!("{:?}", rc_ripemd::block_api::Ripemd320Core::default()),
        format!("{:?}", Ripemd320Core::default())
    );
    assert_eq!(testkit::alg_name::<Ripemd128>(), "Ripemd128");
    assert_eq!(testkit::alg_name::<Ripemd160>(), "Ripemd160");
    assert_eq!(testkit::alg_name::<Ripemd256>(), "Ripemd256");
    assert_eq!(testkit::alg_name::<Ripemd320>(), "Ripemd320");
    assert_eq!(testkit::alg_name::<Ripemd160Core>(), "Ripemd160");
    assert_eq!(
        testkit::alg_name::<Ripemd320>(),
        testkit::alg_name::<rc_ripemd::Ripemd320>()
    );
}

#[test]
fn trait_contract() {
    fn eager<T: digest::block_api::EagerHash + Send + Sync + Default + fmt::Debug>() {}
    fn core<T: Clone + Default + Send + Sync + fmt::Debug + digest::block_api::UpdateCore>() {}
    eager::<Ripemd128>();
    eager::<Ripemd160>();
    eager::<Ripemd256>();
    eager::<Ripemd320>();
    core::<Ripemd128Core>();
    core::<Ripemd160Core>();
    core::<Ripemd256Core>();
    core::<Ripemd320Core>();
    assert_eq!(<Ripemd128 as Digest>::output_size(), 16);
    assert_eq!(<Ripemd160 as Digest>::output_size(), 20);
    assert_eq!(<Ripemd256 as Digest>::output_size(), 32);
    assert_eq!(<Ripemd320 as Digest>::output_size(), 40);
    // Digest re-exported as RustCrypto does.
    let _: fn() -> ripemd::Ripemd160 = <ripemd::Ripemd160 as ripemd::Digest>::new;
    let _ = ripemd::digest::Output::<Ripemd160>::default();
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn zod<T: digest::zeroize::ZeroizeOnDrop>() {}
    zod::<Ripemd128>();
    zod::<Ripemd160>();
    zod::<Ripemd256>();
    zod::<Ripemd320>();
    zod::<Ripemd128Core>();
    zod::<Ripemd320Core>();
}
