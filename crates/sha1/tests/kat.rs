//! Known answers: NIST CAVP SHAVS SHA-1 (ShortMsg, LongMsg, Monte Carlo), the FIPS 180
//! examples and RustCrypto's 16 MiB pseudo-random vector, through the public API and
//! through every backend this CPU has; serialized states byte for byte as RustCrypto
//! sha1 0.11.0 writes them (both directions); the OID and the Debug/AlgorithmName
//! strings.
//!
//! The public API runs with whichever backend is selected, so the forced-backend runs
//! (`--cfg sha1_backend="…"`) check every backend against the vectors that way too.
// Tests and benches need a newer Rust than the library's 1.85 floor (criterion 0.8 needs
// 1.86, the renamed RustCrypto peers more): `as_chunks` (1.88) is fine here.
#![allow(clippy::incompatible_msrv)]

use core::fmt;
use digest::{Digest, FixedOutputReset, block_api::CoreProxy, common::hazmat::SerializableState};
use sha1::{
    Sha1,
    block_api::{Sha1Core, compress},
};
use testkit::kat::parse;

const H0: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// The messages and digests of a ShortMsg/LongMsg file: `Len` is in bits, and the
/// byte-oriented files only have whole bytes (`Len = 0` comes with `Msg = 00`).
fn messages(text: &str) -> Vec<(usize, Vec<u8>, Vec<u8>)> {
    parse(text)
        .iter()
        .filter(|r| r.has("Len"))
        .map(|r| {
            let bits = r.number("Len") as usize;
            assert_eq!(bits % 8, 0, "line {}: not a whole number of bytes", r.line);
            let msg = r.bytes("Msg");
            assert!(msg.len() >= bits / 8, "line {}", r.line);
            (r.line, msg[..bits / 8].to_vec(), r.bytes("MD"))
        })
        .collect()
}

fn short_msg() -> Vec<(usize, Vec<u8>, Vec<u8>)> {
    let v = messages(include_str!("data/sha1_short_msg.txt"));
    assert_eq!(v.len(), 65, "records in sha1_short_msg.txt");
    v
}

fn long_msg() -> Vec<(usize, Vec<u8>, Vec<u8>)> {
    let v = messages(include_str!("data/sha1_long_msg.txt"));
    assert_eq!(v.len(), 64, "records in sha1_long_msg.txt");
    v
}

/// `data` in pieces of the given sizes (cycled), then the rest.
fn update_in_pieces(h: &mut Sha1, data: &[u8], sizes: &[usize]) {
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

/// Checks `msg` -> `md` through the public API: one-shot, in pieces, after resets.
fn check_api(msg: &[u8], md: &[u8], what: &str) {
    assert_eq!(Sha1::digest(msg)[..], md[..], "one-shot, {what}");

    // Irregular pieces cross every block boundary at a different offset.
    let sizes: &[usize] = if msg.len() > 10_000 {
        &[1, 4093, 64, 63, 65, 8192, 7]
    } else {
        &[1, 2, 3, 5, 7, 11, 13, 64, 17]
    };
    let mut h = Sha1::new();
    update_in_pieces(&mut h, msg, sizes);
    assert_eq!(h.finalize_reset()[..], md[..], "in pieces, {what}");
    // After the reset the hasher is as new.
    h.update(msg);
    assert_eq!(h.finalize()[..], md[..], "after finalize_reset, {what}");

    let mut h = Sha1::new();
    h.update(b"garbage");
    digest::Reset::reset(&mut h);
    h.update(msg);
    let mut out = Default::default();
    FixedOutputReset::finalize_into_reset(&mut h, &mut out);
    assert_eq!(out[..], md[..], "after reset, {what}");
}

/// SHA-1 of `msg` with the compression function of backend `name` (padding by hand).
fn sha1_with(name: &str, msg: &[u8]) -> [u8; 20] {
    let mut state = H0;
    let (blocks, tail) = msg.as_chunks::<64>();
    sha1::__backends::compress_with(name, &mut state, blocks);
    let mut last = [[0u8; 64]; 2];
    let flat = last.as_flattened_mut();
    flat[..tail.len()].copy_from_slice(tail);
    flat[tail.len()] = 0x80;
    let n = if tail.len() < 56 { 1 } else { 2 };
    flat[64 * n - 8..64 * n].copy_from_slice(&(8 * msg.len() as u64).to_be_bytes());
    sha1::__backends::compress_with(name, &mut state, &last[..n]);
    let mut out = [0u8; 20];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// The backends compiled in that this CPU runs (the others print SKIP).
fn backends() -> Vec<&'static str> {
    sha1::__backends::ALL
        .iter()
        .copied()
        .filter(|&n| testkit::available(n, sha1::__backends::available(n)))
        .collect()
}

#[test]
fn cavp_short_msg() {
    println!("backend: {}", sha1::__backends::selected());
    for (line, msg, md) in short_msg() {
        check_api(
            &msg,
            &md,
            &format!("ShortMsg line {line} ({} bytes)", msg.len()),
        );
    }
}

#[test]
fn cavp_long_msg() {
    for (line, msg, md) in long_msg() {
        check_api(
            &msg,
            &md,
            &format!("LongMsg line {line} ({} bytes)", msg.len()),
        );
    }
}

#[test]
fn cavp_short_and_long_msg_every_backend() {
    for name in backends() {
        for (line, msg, md) in short_msg().into_iter().chain(long_msg()) {
            assert_eq!(sha1_with(name, &msg)[..], md[..], "{name}: line {line}");
        }
    }
}

/// SHAVS 6.4 Monte Carlo test: from the seed, 100 checkpoints, each the last of 1000
/// digests of the three digests before.
fn monte_carlo(mut hash: impl FnMut(&[u8]) -> [u8; 20]) {
    let records = parse(include_str!("data/sha1_monte.txt"));
    let mut seed = records[0].bytes("Seed");
    let checkpoints = &records[1..];
    assert_eq!(checkpoints.len(), 100, "checkpoints in sha1_monte.txt");
    for (j, rec) in checkpoints.iter().enumerate() {
        assert_eq!(rec.number("COUNT"), j as u64);
        let mut md = [seed.clone(), seed.clone(), seed.clone()];
        for _ in 3..1003 {
            let msg = md.concat();
            let next = hash(&msg).to_vec();
            md = [md[1].clone(), md[2].clone(), next];
        }
        assert_eq!(md[2], rec.bytes("MD"), "checkpoint {j} (line {})", rec.line);
        seed = md[2].clone();
    }
}

#[test]
fn cavp_monte_carlo() {
    monte_carlo(|m| Sha1::digest(m).into());
}

#[test]
fn cavp_monte_carlo_every_backend() {
    for name in backends() {
        monte_carlo(|m| sha1_with(name, m));
    }
}

#[test]
fn fips180_examples() {
    let recs = parse(include_str!("data/fips180.txt"));
    assert_eq!(recs.len(), 3, "records in fips180.txt");
    for rec in recs {
        let (msg, md) = (rec.bytes("msg"), rec.bytes("md"));
        check_api(&msg, &md, &format!("fips180.txt line {}", rec.line));
        assert_eq!(
            rc_sha1::Sha1::digest(&msg)[..],
            md[..],
            "the peer disagrees"
        );
        for name in backends() {
            assert_eq!(
                sha1_with(name, &msg)[..],
                md[..],
                "{name}: line {}",
                rec.line
            );
        }
    }
}

/// RustCrypto sha1 0.11.0's `sha1_rand` test: 16 MiB fed in pseudo-random pieces.
#[test]
fn rustcrypto_rand_16mib() {
    let mut h = Sha1::new();
    digest::dev::feed_rand_16mib(&mut h);
    assert_eq!(
        h.finalize()[..],
        hex_literal::hex!("7e565a25a8b123e9881addbcedcd927b23377a78")
    );
}

#[test]
fn byte_at_a_time_across_blocks() {
    for (line, msg, md) in short_msg() {
        let mut h = Sha1::new();
        for b in &msg {
            h.update(core::slice::from_ref(b));
        }
        assert_eq!(h.finalize()[..], md[..], "line {line}");
    }
}

#[test]
fn compress_of_one_padded_block() {
    // "abc" padded by hand: the compression function alone gives the digest.
    let mut block = [0u8; 64];
    block[..3].copy_from_slice(b"abc");
    block[3] = 0x80;
    block[63] = 24;
    let mut state = H0;
    compress(&mut state, &[block]);
    assert_eq!(
        state,
        [
            0xA999_3E36,
            0x4706_816A,
            0xBA3E_2571,
            0x7850_C26C,
            0x9CD0_D89D
        ]
    );
    // No blocks: no change.
    let before = state;
    compress(&mut state, &[]);
    assert_eq!(state, before);
    for name in backends() {
        let mut s = before;
        sha1::__backends::compress_with(name, &mut s, &[]);
        assert_eq!(s, before, "{name}: no blocks");
    }
}

#[test]
fn forced_backend_is_the_one_used() {
    let selected = sha1::__backends::selected();
    assert!(sha1::__backends::ALL.contains(&selected));
    assert!(sha1::__backends::available(selected));
    // RustCrypto's own values: "x86-sha" means shani, "aarch64-sha2" means armv8.
    #[allow(unexpected_cfgs)]
    let forced = if cfg!(sha1_backend = "soft") {
        Some("soft")
    } else if cfg!(any(sha1_backend = "armv8", sha1_backend = "aarch64-sha2")) {
        Some("armv8")
    } else if cfg!(any(sha1_backend = "shani", sha1_backend = "x86-sha")) {
        Some("shani")
    } else if cfg!(sha1_backend = "avx2") {
        Some("avx2")
    } else if cfg!(sha1_backend = "avx512") {
        Some("avx512")
    } else if cfg!(sha1_backend = "neon") {
        Some("neon")
    } else {
        None
    };
    match forced {
        Some(name) => assert_eq!(selected, name),
        // Unforced: the best available, in the documented order.
        None => {
            let best = ["avx512", "shani", "avx2", "armv8", "neon", "soft"]
                .into_iter()
                .find(|&n| sha1::__backends::available(n));
            assert_eq!(Some(selected), best);
        }
    }
    assert!(!sha1::__backends::available("no-such-backend"));
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
        let mut ours = Sha1::new();
        let mut theirs = rc_sha1::Sha1::new();
        ours.update(&msg);
        theirs.update(&msg);
        assert_eq!(
            ours.serialize()[..],
            theirs.serialize()[..],
            "Sha1 after {len} bytes"
        );

        // The core alone: 5 state words then the block count, 28 bytes.
        let (core, _) = ours.clone().decompose();
        let (peer_core, _) = theirs.clone().decompose();
        let s = core.serialize();
        assert_eq!(s.len(), 28);
        assert_eq!(
            s[..],
            peer_core.serialize()[..],
            "Sha1Core after {len} bytes"
        );
        assert_eq!(
            u64::from_le_bytes(s[20..].try_into().unwrap()),
            (len / 64) as u64
        );
    }
}

#[test]
fn states_move_between_us_and_rustcrypto() {
    for len in SERIALIZATION_LENGTHS {
        let msg = pattern(len + 300);
        let (head, tail) = msg.split_at(len);
        let expect = rc_sha1::Sha1::digest(&msg);

        // RustCrypto's state continued by us.
        let mut theirs = rc_sha1::Sha1::new();
        theirs.update(head);
        let mut ours = Sha1::deserialize(&theirs.serialize()).expect("peer state");
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "peer -> ours after {len} bytes"
        );

        // Our state continued by RustCrypto.
        let mut ours = Sha1::new();
        ours.update(head);
        let mut theirs = rc_sha1::Sha1::deserialize(&ours.serialize()).expect("our state");
        theirs.update(tail);
        assert_eq!(
            theirs.finalize()[..],
            expect[..],
            "ours -> peer after {len} bytes"
        );

        // And the core alone.
        let mut core_src = Sha1::new();
        core_src.update(head);
        let (core, buffer) = core_src.decompose();
        let core = Sha1Core::deserialize(&core.serialize()).expect("core state");
        let mut ours = Sha1::compose(core, buffer);
        ours.update(tail);
        assert_eq!(
            ours.finalize()[..],
            expect[..],
            "core round trip after {len} bytes"
        );
    }
}

/// RustCrypto sha1 0.11.0's `sha1_serialization` test, with its vector.
#[test]
fn rustcrypto_serialization_vector() {
    let rec = &parse(include_str!("data/sha1_serialization.txt"))[0];
    let expected = rec.bytes("state");
    let mut h = Sha1::new();
    h.update([0x13; 65]);
    let s = h.serialize();
    assert_eq!(s[..], expected[..]);

    let mut h = Sha1::deserialize(&s).unwrap();
    h.update([0x13; 65]);
    assert_eq!(h.finalize(), Sha1::digest([0x13; 130]));
}

#[test]
fn bad_serialized_states_are_rejected_like_rustcrypto() {
    let mut h = Sha1::new();
    h.update([0x13; 65]);
    let good = h.serialize();
    // Buffer position out of range, and a nonzero byte after the buffered data.
    for (at, byte) in [(28, 64u8), (28, 0xFF), (28 + 1 + 5, 1), (91, 9)] {
        let mut bad = good;
        bad[at] = byte;
        let ours = Sha1::deserialize(&bad).is_ok();
        let theirs = rc_sha1::Sha1::deserialize(&bad).is_ok();
        assert!(!ours, "accepted a state with byte {at} = {byte:#x}");
        assert_eq!(ours, theirs);
    }
}

#[cfg(feature = "oid")]
#[test]
fn oid() {
    use digest::const_oid::{AssociatedOid, ObjectIdentifier};
    assert_eq!(Sha1::OID, ObjectIdentifier::new_unwrap("1.3.14.3.2.26"));
    assert_eq!(Sha1::OID, <rc_sha1::Sha1 as AssociatedOid>::OID);
}

#[test]
fn debug_and_algorithm_name_strings() {
    assert_eq!(format!("{:?}", Sha1::new()), "Sha1 { ... }");
    assert_eq!(format!("{:?}", Sha1Core::default()), "Sha1Core { ... }");
    assert_eq!(format!("{:?}", rc_sha1::Sha1::new()), "Sha1 { ... }");
    assert_eq!(
        format!("{:?}", rc_sha1::block_api::Sha1Core::default()),
        "Sha1Core { ... }"
    );
    assert_eq!(testkit::alg_name::<Sha1>(), "Sha1");
    assert_eq!(testkit::alg_name::<Sha1Core>(), "Sha1");
    assert_eq!(
        testkit::alg_name::<Sha1>(),
        testkit::alg_name::<rc_sha1::Sha1>()
    );
}

#[test]
fn trait_contract() {
    fn eager<T: digest::block_api::EagerHash + Send + Sync + Default + fmt::Debug>() {}
    fn core<T: Clone + Default + Send + Sync + fmt::Debug + digest::block_api::UpdateCore>() {}
    eager::<Sha1>();
    core::<Sha1Core>();
    assert_eq!(<Sha1 as Digest>::output_size(), 20);
    // Digest re-exported as RustCrypto does.
    let _: fn() -> sha1::Sha1 = <sha1::Sha1 as sha1::Digest>::new;
    let _ = sha1::digest::Output::<Sha1>::default();
}

#[cfg(feature = "zeroize")]
#[test]
fn zeroize_on_drop() {
    fn zod<T: digest::zeroize::ZeroizeOnDrop>() {}
    zod::<Sha1>();
    zod::<Sha1Core>();
}
