//! Known answers through the public API (RFC 1321 A.5, one million 'a', the padding
//! boundaries), serialized states byte for byte as RustCrypto md-5 0.11.0 writes them,
//! the OID, and the Debug/AlgorithmName strings.
//!
//! These run with whichever backend is selected, so the forced-backend runs
//! (`--cfg md5_backend="…"`) check every backend against the vectors.

use core::fmt;
use digest::{Digest, FixedOutputReset, block_api::CoreProxy, common::hazmat::SerializableState};
use md5::{
    Md5,
    block_api::{Md5Core, compress},
};
use testkit::kat::{Record, parse};

fn records() -> Vec<Record> {
    let recs = parse(include_str!("data/md5.txt"));
    assert_eq!(recs.len(), 7 + 1 + 9, "records in tests/data/md5.txt");
    recs
}

/// `data` in pieces of the given sizes (cycled), then the rest.
fn update_in_pieces(h: &mut Md5, data: &[u8], sizes: &[usize]) {
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
fn md5_kat() {
    println!("backend: {}", md5::__backends::selected());
    for rec in records() {
        let msg = rec.bytes("msg");
        let md = rec.bytes("md");
        if rec.has("len") {
            assert_eq!(msg.len() as u64, rec.number("len"), "line {}", rec.line);
        }
        let what = format!("line {} ({} bytes)", rec.line, msg.len());

        assert_eq!(Md5::digest(&msg)[..], md[..], "one-shot, {what}");
        assert_eq!(
            rc_md5::Md5::digest(&msg)[..],
            md[..],
            "the peer disagrees with {what}"
        );

        // Irregular pieces cross every block boundary at a different offset.
        let sizes: &[usize] = if msg.len() > 10_000 {
            &[1, 4093, 64, 63, 65, 8192, 7]
        } else {
            &[1, 2, 3, 5, 7, 11, 13, 64, 17]
        };
        let mut h = Md5::new();
        update_in_pieces(&mut h, &msg, sizes);
        assert_eq!(h.finalize_reset()[..], md[..], "in pieces, {what}");
        // After the reset the hasher is as new.
        h.update(&msg);
        assert_eq!(h.finalize()[..], md[..], "after finalize_reset, {what}");

        let mut h = Md5::new();
        h.update(b"garbage");
        digest::Reset::reset(&mut h);
        h.update(&msg);
        let mut out = Default::default();
        FixedOutputReset::finalize_into_reset(&mut h, &mut out);
        assert_eq!(out[..], md[..], "after reset, {what}");
    }
}

#[test]
fn byte_at_a_time_across_two_blocks() {
    for rec in records().iter().filter(|r| r.has("len")) {
        let msg = rec.bytes("msg");
        let mut h = Md5::new();
        for b in &msg {
            h.update(core::slice::from_ref(b));
        }
        assert_eq!(h.finalize()[..], rec.bytes("md")[..], "line {}", rec.line);
    }
}

#[test]
fn compress_of_one_padded_block() {
    // "abc" padded by hand: the compression function alone gives the digest.
    let mut block = [0u8; 64];
    block[..3].copy_from_slice(b"abc");
    block[3] = 0x80;
    block[56] = 24;
    let mut state = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476];
    compress(&mut state, &[block]);
    let mut out = [0u8; 16];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    assert_eq!(out, hex_literal::hex!("900150983cd24fb0d6963f7d28e17f72"));
    // No blocks: no change.
    let before = state;
    compress(&mut state, &[]);
    assert_eq!(state, before);
}

#[test]
fn forced_backend_is_the_one_used() {
    let selected = md5::__backends::selected();
    assert!(md5::__backends::ALL.contains(&selected));
    assert!(md5::__backends::available(selected));
    if cfg!(md5_backend = "soft") {
        assert_eq!(selected, "soft");
    }
    if cfg!(md5_backend = "avx2") {
        assert_eq!(selected, "avx2");
    }
    if cfg!(md5_backend = "avx512") {
        assert_eq!(selected, "avx512");
    }
    if cfg!(md5_backend = "neon") {
        assert_eq!(selected, "neon");
    }
    assert!(!md5::__backends::available("no-such-backend"));
}

/// The message used by the serialization tests.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

const SERIALIZATION_LENGTHS: [usize; 12] = [0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 1000, 4099];

#[test]
fn serialize_matches_rustcrypto() {
    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len);
        let mut ours = Md5::new();
        let mut theirs = rc_md5::Md5::new();
        ours.update(&msg);
        theirs.update(&msg);
        assert_eq!(
            ours.serialize()[..],
            theirs.serialize()[..],
            "Md5 after {len} bytes"
        );

        // The core alone: 4 state words then the block count, 24 bytes.
        let (core, _) = ours.clone().decompose();
        let (peer_core, _) = theirs.clone().decompose();
        let s = core.serialize();
        assert_eq!(s.len(), 24);
        assert_eq!(
            s[..],
            peer_core.serialize()[..],
            "Md5Core after {len} bytes"
        );
        assert_eq!(
            u64::from_le_bytes(s[16..].try_into().unwrap()),
            (len / 64) as u64
        );
    }
}

#[test]
fn states_move_between_us_and_rustcrypto() {
    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len + 300);
        let (head, tail) = msg.split_at(len);
        let expect = rc_md5::Md5::digest(&msg);

        // RustCrypto's state continued by us.
        let mut theirs = rc_md5::Md5::new();
        theirs.update(head);
        let mut ours = Md5::deserialize(&theirs.serialize()).expect("peer state");
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "peer -> ours after {len} bytes"
        );

        // Our state continued by RustCrypto.
        let mut ours = Md5::new();
        ours.update(head);
        let mut theirs = rc_md5::Md5::deserialize(&ours.serialize()).expect("our state");
        theirs.update(tail);
        assert_eq!(
            theirs.finalize()[..],
            expect[..],
            "ours -> peer after {len} bytes"
        );

        // And the core alone.
        let mut core_src = Md5::new();
        core_src.update(head);
        let (core, buffer) = core_src.decompose();
        let core = Md5Core::deserialize(&core.serialize()).expect("core state");
        let mut ours = Md5::compose(core, buffer);
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "core round trip after {len} bytes"
        );
    }
}

#[test]
fn rustcrypto_serialization_vector() {
    let rec = &parse(include_str!("data/md5_serialization.txt"))[0];
    let expected = rec.bytes("state");
    let mut h = Md5::new();
    h.update([0x13; 65]);
    let s = h.serialize();
    assert_eq!(s[..], expected[..]);

    let mut h = Md5::deserialize(&s).unwrap();
    h.update([0x13; 65]);
    assert_eq!(h.finalize(), Md5::digest([0x13; 130]));
}

#[test]
fn bad_serialized_states_are_rejected_like_rustcrypto() {
    let mut h = Md5::new();
    h.update([0x13; 65]);
    let good = h.serialize();
    // Buffer position out of range, and a nonzero byte after the buffered data.
    for (at, byte) in [(24, 64u8), (24, 0xFF), (24 + 1 + 5, 1), (87, 9)] {
        let mut bad = good;
        bad[at] = byte;
        let ours = Md5::deserialize(&bad).is_ok();
        let theirs = rc_md5::Md5::deserialize(&bad).is_ok();
        assert!(!ours, "accepted a state with byte {at} = {byte:#x}");
        assert_eq!(ours, theirs);
    }
}

#[cfg(feature = "oid")]
#[test]
fn oid() {
    use digest::const_oid::{AssociatedOid, ObjectIdentifier};
    assert_eq!(Md5::OID, ObjectIdentifier::new_unwrap("1.2.840.113549.2.5"));
    assert_eq!(Md5::OID, <rc_md5::Md5 as AssociatedOid>::OID);
}

#[test]
fn debug_and_algorithm_name_strings() {
    assert_eq!(format!("{:?}", Md5::new()), "Md5 { ... }");
    assert_eq!(format!("{:?}", Md5Core::default()), "Md5Core { ... }");
    assert_eq!(format!("{:?}", rc_md5::Md5::new()), "Md5 { ... }");
    assert_eq!(testkit::alg_name::<Md5>(), "Md5");
    assert_eq!(testkit::alg_name::<Md5Core>(), "Md5");
    assert_eq!(
        testkit::alg_name::<Md5>(),
        testkit::alg_name::<rc_md5::Md5>()
    );
}

#[test]
fn trait_contract() {
    fn eager<T: digest::block_api::EagerHash + Send + Sync + Default + fmt::Debug>() {}
    fn core<T: Clone + Default + Send + Sync + fmt::Debug + digest::block_api::UpdateCore>() {}
    eager::<Md5>();
    core::<Md5Core>();
    assert_eq!(<Md5 as Digest>::output_size(), 16);
    // Digest re-exported as RustCrypto does.
    let _: fn() -> md5::Md5 = <md5::Md5 as md5::Digest>::new;
    let _ = md5::digest::Output::<Md5>::default();
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn zod<T: digest::zeroize::ZeroizeOnDrop>() {}
    zod::<Md5>();
    zod::<Md5Core>();
}
