//! Known answers through the public API (RFC 1319 A.5, one million 'a'), serialized
//! states byte for byte as RustCrypto md2 0.11.0 writes them (both directions), the
//! OID, and the Debug/AlgorithmName strings.
//!
//! These run with whichever backend is selected, so the forced-backend runs
//! (`--cfg md2_backend="…"`) check every backend against the vectors.

use core::fmt;
use digest::{
    Digest, FixedOutputReset, Reset, block_api::CoreProxy, common::hazmat::SerializableState,
};
use md2::{Md2, block_api::Md2Core};
use testkit::kat::{Record, parse};

fn records() -> Vec<Record> {
    let recs = parse(include_str!("data/md2.txt"));
    assert_eq!(recs.len(), 7 + 1, "records in tests/data/md2.txt");
    recs
}

/// `data` in pieces of the given sizes (cycled), then the rest.
fn update_in_pieces(h: &mut Md2, data: &[u8], sizes: &[usize]) {
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

#[test]
fn md2_kat() {
    println!("backend: {}", md2::__backends::selected());
    for rec in records() {
        let msg = rec.bytes("msg");
        let md = rec.bytes("md");
        let what = format!("line {} ({} bytes)", rec.line, msg.len());

        assert_eq!(Md2::digest(&msg)[..], md[..], "one-shot, {what}");
        assert_eq!(
            rc_md2::Md2::digest(&msg)[..],
            md[..],
            "the peer disagrees with {what}"
        );

        // Irregular pieces cross every block boundary at a different offset.
        let sizes: &[usize] = if msg.len() > 10_000 {
            &[1, 4093, 16, 15, 17, 8192, 7]
        } else {
            &[1, 2, 3, 5, 7, 11, 13, 16, 17]
        };
        let mut h = Md2::new();
        update_in_pieces(&mut h, &msg, sizes);
        assert_eq!(h.finalize_reset()[..], md[..], "in pieces, {what}");
        // After the reset the hasher is as new.
        h.update(&msg);
        assert_eq!(h.finalize()[..], md[..], "after finalize_reset, {what}");

        let mut h = Md2::new();
        h.update(b"garbage");
        Reset::reset(&mut h);
        h.update(&msg);
        let mut out = Default::default();
        FixedOutputReset::finalize_into_reset(&mut h, &mut out);
        assert_eq!(out[..], md[..], "after reset, {what}");

        if msg.len() < 100 {
            let mut h = Md2::new();
            for b in &msg {
                h.update(core::slice::from_ref(b));
            }
            assert_eq!(h.finalize()[..], md[..], "byte at a time, {what}");
        }
    }
}

#[test]
fn every_length_around_the_block_size() {
    // Padding adds 1..=16 bytes: every length 0..=66 against the peer.
    let msg: Vec<u8> = (0..66u8).map(|i| i.wrapping_mul(29) ^ 0x5c).collect();
    for len in 0..=msg.len() {
        assert_eq!(
            Md2::digest(&msg[..len])[..],
            rc_md2::Md2::digest(&msg[..len])[..],
            "{len} bytes"
        );
    }
}

#[test]
fn forced_backend_is_the_one_used() {
    let selected = md2::__backends::selected();
    assert!(md2::__backends::ALL.contains(&selected));
    assert!(md2::__backends::available(selected));
    if cfg!(md2_backend = "soft") {
        assert_eq!(selected, "soft");
    }
    assert!(!md2::__backends::available("no-such-backend"));
}

/// The message used by the serialization tests.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

const SERIALIZATION_LENGTHS: [usize; 12] = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 100, 1027];

#[test]
fn serialize_matches_rustcrypto() {
    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len);
        let mut ours = Md2::new();
        let mut theirs = rc_md2::Md2::new();
        ours.update(&msg);
        theirs.update(&msg);
        assert_eq!(
            ours.serialize()[..],
            theirs.serialize()[..],
            "Md2 after {len} bytes"
        );

        // The core alone: the 48-byte state (all of it, as RustCrypto keeps it)
        // then the checksum.
        let (core, _) = ours.clone().decompose();
        let (peer_core, _) = theirs.clone().decompose();
        assert_eq!(
            core.serialize()[..],
            peer_core.serialize()[..],
            "Md2Core after {len} bytes"
        );
    }
}

#[test]
fn states_move_between_us_and_rustcrypto() {
    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len + 100);
        let (head, tail) = msg.split_at(len);
        let expect = rc_md2::Md2::digest(&msg);

        // RustCrypto's state continued by us.
        let mut theirs = rc_md2::Md2::new();
        theirs.update(head);
        let mut ours = Md2::deserialize(&theirs.serialize()).expect("peer state");
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "peer -> ours after {len} bytes"
        );

        // Our state continued by RustCrypto.
        let mut ours = Md2::new();
        ours.update(head);
        let mut theirs = rc_md2::Md2::deserialize(&ours.serialize()).expect("our state");
        theirs.update(tail);
        assert_eq!(
            theirs.finalize()[..],
            expect[..],
            "ours -> peer after {len} bytes"
        );

        // And the core alone.
        let mut core_src = Md2::new();
        core_src.update(head);
        let (core, buffer) = core_src.decompose();
        let core = Md2Core::deserialize(&core.serialize()).expect("core state");
        let mut ours = Md2::compose(core, buffer);
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "core round trip after {len} bytes"
        );
    }
}

#[test]
fn arbitrary_states_continue_like_rustcrypto() {
    // Any 64 bytes deserialize (RustCrypto accepts them all); the bytes 16..48 of `x`
    // do not affect the hash but are carried and serialized back as they are.
    let mut rng = testkit::Rng::new(testkit::seed(0x3D2));
    for _ in 0..200 {
        let mut raw = [0u8; 64];
        rng.fill(&mut raw);
        let ours = Md2Core::deserialize(&raw.into()).unwrap();
        let theirs = rc_md2::block_api::Md2Core::deserialize(&raw.into()).unwrap();
        assert_eq!(ours.serialize()[..], raw[..]);
        let n = rng.below(40);
        let tail = rng.bytes(n);
        let mut ours = Md2::compose(ours, Default::default());
        let mut theirs = rc_md2::Md2::compose(theirs, Default::default());
        ours.update(&tail);
        theirs.update(&tail);
        assert_eq!(ours.serialize()[..], theirs.serialize()[..]);
        assert_eq!(ours.finalize()[..], theirs.finalize()[..]);
    }
}

#[test]
fn rustcrypto_serialization_vector() {
    let rec = &parse(include_str!("data/md2_serialization.txt"))[0];
    let expected = rec.bytes("state");
    let mut h = Md2::new();
    h.update([0x13; 17]);
    let s = h.serialize();
    assert_eq!(s[..], expected[..]);

    let mut h = Md2::deserialize(&s).unwrap();
    h.update([0x13; 17]);
    assert_eq!(h.finalize(), Md2::digest([0x13; 34]));
}

#[test]
fn bad_serialized_states_are_rejected_like_rustcrypto() {
    let mut h = Md2::new();
    h.update([0x13; 17]);
    let good = h.serialize();
    // Buffer position out of range, and a nonzero byte after the buffered data.
    for (at, byte) in [(64, 16u8), (64, 0xFF), (64 + 1 + 5, 1), (79, 9)] {
        let mut bad = good;
        bad[at] = byte;
        let ours = Md2::deserialize(&bad).is_ok();
        let theirs = rc_md2::Md2::deserialize(&bad).is_ok();
        assert!(!ours, "accepted a state with byte {at} = {byte:#x}");
        assert_eq!(ours, theirs);
    }
}

#[cfg(feature = "oid")]
#[test]
fn oid() {
    use digest::const_oid::{AssociatedOid, ObjectIdentifier};
    assert_eq!(Md2::OID, ObjectIdentifier::new_unwrap("1.2.840.113549.2.2"));
    assert_eq!(Md2::OID, <rc_md2::Md2 as AssociatedOid>::OID);
}

#[test]
fn debug_and_algorithm_name_strings() {
    assert_eq!(format!("{:?}", Md2::new()), "Md2 { ... }");
    assert_eq!(format!("{:?}", Md2Core::default()), "Md2Core { ... }");
    assert_eq!(format!("{:?}", rc_md2::Md2::new()), "Md2 { ... }");
    assert_eq!(testkit::alg_name::<Md2>(), "Md2");
    assert_eq!(testkit::alg_name::<Md2Core>(), "Md2");
    assert_eq!(
        testkit::alg_name::<Md2>(),
        testkit::alg_name::<rc_md2::Md2>()
    );
}

#[test]
fn trait_contract() {
    fn eager<T: digest::block_api::EagerHash + Send + Sync + Default + fmt::Debug>() {}
    fn core<T: Clone + Default + Send + Sync + fmt::Debug + digest::block_api::UpdateCore>() {}
    eager::<Md2>();
    core::<Md2Core>();
    assert_eq!(<Md2 as Digest>::output_size(), 16);
    // Digest re-exported as RustCrypto does.
    let _: fn() -> md2::Md2 = <md2::Md2 as md2::Digest>::new;
    let _ = md2::digest::Output::<Md2>::default();
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn zod<T: digest::zeroize::ZeroizeOnDrop>() {}
    zod::<Md2>();
    zod::<Md2Core>();
}
