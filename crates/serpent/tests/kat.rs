//! Known answers, on every backend this CPU has and through the public type: one block at a
//! time, and 37 copies through `encrypt_blocks` / `decrypt_blocks` so that the wide paths
//! and their tails run too.
//!
//! - NESSIE Serpent test vectors, sets 1–4 for 128-, 192- and 256-bit keys
//!   (`tests/data/serpent{128,192,256}.txt`);
//! - the AES-submission variable-key and variable-text known-answer tables
//!   (`tests/data/ecb_vk.txt`, `ecb_vt.txt`; 128-, 192- and 256-bit keys), whose hex
//!   strings are byte-reversed.

use serpent::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};

/// A known answer: the line it starts on, key, plaintext, ciphertext.
type Vector = (usize, Vec<u8>, Vec<u8>, Vec<u8>);

/// The vectors of a NESSIE file.
fn nessie(text: &str) -> Vec<Vector> {
    testkit::kat::parse(text)
        .iter()
        .map(|r| (r.line, r.bytes("key"), r.bytes("plain"), r.bytes("cipher")))
        .collect()
}

/// The vectors of an AES-submission table (`KEY=`/`PT=` records set the
/// fixed value, `I=` records the rest), byte order reversed to the NESSIE/RustCrypto one.
fn submission(text: &str) -> Vec<Vector> {
    let rev = |mut v: Vec<u8>| {
        v.reverse();
        v
    };
    let (mut key, mut pt) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for r in testkit::kat::parse(text) {
        if r.has("KEY") {
            key = rev(r.bytes("KEY"));
        }
        if r.has("PT") {
            pt = rev(r.bytes("PT"));
        }
        if r.has("CT") {
            out.push((r.line, key.clone(), pt.clone(), rev(r.bytes("CT"))));
        }
    }
    out
}

fn check(file: &str, records: Vec<Vector>, min: usize) {
    assert!(records.len() >= min, "{file}: too few vectors");
    let mut backends: Vec<&str> = serpent::__backends::ALL
        .iter()
        .copied()
        .filter(|b| testkit::available(b, serpent::__backends::available(b)))
        .collect();
    backends.push("api");
    for name in backends {
        for (line, key, plain, cipher) in &records {
            let c = if name == "api" {
                serpent::Serpent::new_from_slice(key).unwrap()
            } else {
                serpent::__backends::serpent_with(name, key)
            };
            let line = *line;
            let mut b = Array::try_from(&plain[..]).unwrap();
            c.encrypt_block(&mut b);
            assert_eq!(b[..], cipher[..], "{file}:{} {name} encrypt", line);
            c.decrypt_block(&mut b);
            assert_eq!(b[..], plain[..], "{file}:{} {name} decrypt", line);
            let mut many = vec![Array::try_from(&plain[..]).unwrap(); 37];
            c.encrypt_blocks(&mut many);
            assert!(
                many.iter().all(|b| b[..] == cipher[..]),
                "{file}:{} {name} encrypt_blocks",
                line
            );
            c.decrypt_blocks(&mut many);
            assert!(
                many.iter().all(|b| b[..] == plain[..]),
                "{file}:{} {name} decrypt_blocks",
                line
            );
        }
    }
}

#[test]
fn nessie_128() {
    check(
        "serpent128.txt",
        nessie(include_str!("data/serpent128.txt")),
        514,
    );
}

#[test]
fn nessie_192() {
    check(
        "serpent192.txt",
        nessie(include_str!("data/serpent192.txt")),
        578,
    );
}

#[test]
fn nessie_256() {
    check(
        "serpent256.txt",
        nessie(include_str!("data/serpent256.txt")),
        642,
    );
}

#[test]
fn aes_submission_ecb_vk() {
    check(
        "ecb_vk.txt",
        submission(include_str!("data/ecb_vk.txt")),
        576,
    );
}

#[test]
fn aes_submission_ecb_vt() {
    check(
        "ecb_vt.txt",
        submission(include_str!("data/ecb_vt.txt")),
        384,
    );
}
