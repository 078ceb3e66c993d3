//! Known answers from the Twofish AES submission (`tests/data/*.txt`), through the public
//! API and through every backend this CPU has: each vector is also run as a batch of 67
//! copies, so the wide backends' full batches and tails are checked against it too.

use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use testkit::kat::{Record, parse};
use twofish::Twofish;

const TBL: &str = include_str!("data/ecb_tbl.txt");
const IVAL: &str = include_str!("data/ecb_ival.txt");
const E_M: &str = include_str!("data/ecb_e_m.txt");

type Block = Array<u8, cipher::consts::U16>;

fn block(b: &[u8]) -> Block {
    Block::try_from(b).expect("16-byte block")
}

/// The public type (detected backend) and every available backend by name.
fn ciphers(key: &[u8]) -> Vec<(&'static str, Twofish)> {
    let mut v = vec![("api", Twofish::new_from_slice(key).unwrap())];
    for &name in twofish::__backends::ALL {
        if twofish::__backends::available(name) {
            v.push((name, twofish::__backends::twofish_with(name, key)));
        }
    }
    v
}

/// `pt` encrypts to `ct` under `key` on every backend, alone and in a batch, and back.
fn check(key: &[u8], pt: &[u8], ct: &[u8], what: &str) {
    for (name, c) in ciphers(key) {
        let mut b = block(pt);
        c.encrypt_block(&mut b);
        assert_eq!(&b[..], ct, "{what}: {name} encryption");
        c.decrypt_block(&mut b);
        assert_eq!(&b[..], pt, "{what}: {name} decryption");
        let mut many = vec![block(pt); 67];
        c.encrypt_blocks(&mut many);
        assert!(
            many.iter().all(|b| &b[..] == ct),
            "{what}: {name} batch encryption"
        );
        c.decrypt_blocks(&mut many);
        assert!(
            many.iter().all(|b| &b[..] == pt),
            "{what}: {name} batch decryption"
        );
    }
}

fn key_size(r: &Record) -> usize {
    let s = r.section.as_deref().expect("KEYSIZE section");
    s.strip_prefix("KEYSIZE=")
        .unwrap()
        .parse::<usize>()
        .unwrap()
        / 8
}

#[test]
fn ecb_tbl() {
    let records = parse(TBL);
    assert_eq!(records.len(), 36);
    for r in &records {
        let (key, pt, ct) = (r.bytes("KEY"), r.bytes("PT"), r.bytes("CT"));
        assert_eq!(key.len(), key_size(r));
        check(&key, &pt, &ct, &format!("ecb_tbl line {}", r.line));
    }
}

/// Replays the whole table (I = 1..=49) from its chain rule and meets every printed record.
#[test]
fn ecb_tbl_chain() {
    let records = parse(TBL);
    for n in [16usize, 24, 32] {
        let printed: Vec<&Record> = records.iter().filter(|r| key_size(r) == n).collect();
        assert_eq!(printed.len(), 12);
        let (mut key, mut pt) = (vec![0u8; n], vec![0u8; 16]);
        let mut met = 0;
        for i in 1..=49u64 {
            let c = Twofish::new_from_slice(&key).unwrap();
            let mut b = block(&pt);
            c.encrypt_block(&mut b);
            if let Some(r) = printed.iter().find(|r| r.number("I") == i) {
                assert_eq!(r.bytes("KEY"), key, "KEY of I={i}, {n}-byte key");
                assert_eq!(r.bytes("PT"), pt, "PT of I={i}");
                assert_eq!(r.bytes("CT"), &b[..], "CT of I={i}");
                met += 1;
            }
            let mut next = pt.clone();
            next.extend_from_slice(&key[..n - 16]);
            key = next;
            pt = b.to_vec();
        }
        assert_eq!(met, 12);
    }
}

#[test]
fn ecb_ival() {
    let records = parse(IVAL);
    assert_eq!(records.len(), 3);
    for r in &records {
        let key = r.bytes("KEY");
        assert_eq!(key.len(), key_size(r));
        check(&key, &r.bytes("PT"), &r.bytes("CT"), "ecb_ival");
    }
}

/// Monte Carlo: 10000 encryptions per record, chained as the submission's MCT does.
#[test]
fn ecb_e_m() {
    let records = parse(E_M);
    assert_eq!(records.len(), 2);
    let (mut key, mut pt) = (records[0].bytes("KEY"), records[0].bytes("PT"));
    for r in &records {
        assert_eq!(r.bytes("KEY"), key);
        assert_eq!(r.bytes("PT"), pt);
        for (name, c) in ciphers(&key) {
            // Alone, one block after another.
            let mut b = block(&pt);
            for _ in 0..10_000 {
                c.encrypt_block(&mut b);
            }
            assert_eq!(
                &b[..],
                &r.bytes("CT")[..],
                "MCT I={} on {name}",
                r.number("I")
            );
            // 10000 decryptions lead back.
            for _ in 0..10_000 {
                c.decrypt_block(&mut b);
            }
            assert_eq!(&b[..], &pt[..]);
            // A batch of 40 lanes iterated together through the wide backend.
            let mut many = vec![block(&pt); 40];
            for _ in 0..10_000 {
                c.encrypt_blocks(&mut many);
            }
            assert!(
                many.iter().all(|x| x[..] == r.bytes("CT")[..]),
                "MCT batch on {name}"
            );
        }
        let ct = r.bytes("CT");
        key.iter_mut().zip(&ct).for_each(|(k, c)| *k ^= c);
        pt = ct;
    }
}
