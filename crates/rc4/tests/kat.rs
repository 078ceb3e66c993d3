//! Known answers: every RFC 6229 vector (all key lengths and offsets), through
//! `write_keystream`, `apply_keystream` (in place and buffer to buffer) and calls split
//! at random points; plus key-length handling.

use rc4::cipher::InvalidLength;
use rc4::{KeyInit, Rc4, StreamCipher};
use testkit::Rng;
use testkit::kat::{Record, parse};

struct Vector {
    key: Vec<u8>,
    offset: usize,
    keystream: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("data/rfc6229.txt");
    assert!(text.starts_with("# Source: RFC 6229, section 2"));
    let v: Vec<Vector> = parse(text)
        .iter()
        .map(|r: &Record| Vector {
            key: r.bytes("key"),
            offset: r.number("offset") as usize,
            keystream: r.bytes("keystream"),
        })
        .collect();
    // 7 key lengths x 2 keys x 18 offsets.
    assert_eq!(v.len(), 252);
    v
}

/// The keystream of `key` up to the largest offset + 16, computed by `f`.
fn check(what: &str, mut f: impl FnMut(&[u8], usize) -> Vec<u8>) {
    for v in vectors() {
        let ks = f(&v.key, v.offset + 16);
        assert_eq!(
            &ks[v.offset..],
            &v.keystream[..],
            "{what}: key {:02x?}, offset {}",
            v.key,
            v.offset
        );
    }
}

#[test]
fn rfc6229_write_keystream() {
    check("write_keystream", |key, len| {
        let mut out = vec![0xA5; len];
        Rc4::new_from_slice(key).unwrap().write_keystream(&mut out);
        out
    });
}

#[test]
fn rfc6229_apply_keystream() {
    check("apply_keystream", |key, len| {
        let mut out = vec![0; len];
        Rc4::new_from_slice(key).unwrap().apply_keystream(&mut out);
        out
    });
    check("apply_keystream_b2b", |key, len| {
        let zeros = vec![0; len];
        let mut out = vec![0x5A; len];
        Rc4::new_from_slice(key)
            .unwrap()
            .apply_keystream_b2b(&zeros, &mut out);
        out
    });
}

#[test]
fn rfc6229_split_calls() {
    let mut rng = Rng::new(testkit::seed(0x6229));
    for round in 0..50 {
        check("split calls", |key, len| {
            let mut cipher = Rc4::new_from_slice(key).unwrap();
            let mut out = vec![0; len];
            let mut pos = 0;
            while pos < len {
                // Mostly short pieces (the single-step and wrapping paths), some long.
                let n = match rng.below(4) {
                    0 => rng.below(8),
                    1 => rng.below(70),
                    2 => rng.below(300),
                    _ => rng.below(2000),
                }
                .min(len - pos);
                let piece = &mut out[pos..pos + n];
                match (round + pos) % 3 {
                    0 => cipher.apply_keystream(piece),
                    1 => cipher.write_keystream(piece),
                    _ => {
                        let zeros = vec![0; n];
                        cipher.apply_keystream_b2b(&zeros, piece);
                    }
                }
                pos += n;
            }
            out
        });
    }
}

#[test]
fn key_lengths() {
    for len in [0usize, 257, 1000] {
        assert_eq!(
            Rc4::new_from_slice(&vec![1; len]).err(),
            Some(InvalidLength),
            "{len}-byte key"
        );
    }
    for len in [1usize, 2, 5, 16, 32, 255, 256] {
        let key: Vec<u8> = (1..=len).map(|b| b as u8).collect();
        let mut ours = Rc4::new_from_slice(&key).expect("1..=256-byte keys are accepted");
        let mut theirs = <rc_rc4::Rc4 as rc_rc4::KeyInit>::new_from_slice(&key).unwrap();
        let (mut a, mut b) = (vec![0; 1000], vec![0; 1000]);
        ours.apply_keystream(&mut a);
        rc_rc4::StreamCipher::apply_keystream(&mut theirs, &mut b);
        assert_eq!(a, b, "{len}-byte key");
    }
    // `KeyInit::new` takes the 32-byte `KeySize`.
    let key = [7u8; 32];
    let mut a = [0u8; 40];
    let mut b = [0u8; 40];
    Rc4::new(&key.into()).apply_keystream(&mut a);
    Rc4::new_from_slice(&key).unwrap().apply_keystream(&mut b);
    assert_eq!(a, b);
}

#[test]
fn readme_vectors() {
    let cases: [(&[u8], &[u8], &[u8]); 3] = [
        (
            b"Key",
            b"Plaintext",
            &hex_literal::hex!("BBF316E8D940AF0AD3"),
        ),
        (b"Wiki", b"pedia", &hex_literal::hex!("1021BF0420")),
        (
            b"Secret",
            b"Attack at dawn",
            &hex_literal::hex!("45A01F645FC35B383552544B9BF5"),
        ),
    ];
    for (key, plain, ct) in cases {
        let mut data = plain.to_vec();
        Rc4::new_from_slice(key).unwrap().apply_keystream(&mut data);
        assert_eq!(data, ct);
    }
}

#[test]
fn traits_and_sizes() {
    use rc4::cipher::{BlockSizeUser, KeySizeUser};
    assert_eq!(Rc4::key_size(), 32);
    assert_eq!(Rc4::block_size(), 1);
    fn send_sync<T: Send + Sync + Unpin + std::panic::UnwindSafe>() {}
    send_sync::<Rc4>();
    #[cfg(feature = "zeroize")]
    {
        fn zod<T: rc4::cipher::zeroize::ZeroizeOnDrop>() {}
        zod::<Rc4>();
    }
    // The keystream never ends.
    let c = Rc4::new_from_slice(b"k").unwrap();
    assert!(c.check_remaining(usize::MAX).is_ok());
}
