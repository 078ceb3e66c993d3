//! Known answers through the public API: RFC 3713 Appendix A, the NESSIE Camellia sets
//! (128/192/256-bit keys) and OpenSSL's CBC vectors. Every vector runs one block at a
//! time and inside a batch of over 100 blocks under its key (so through the wide
//! backend's passes and tails too). Forced-backend runs (`--cfg camellia_backend="…"`)
//! rerun these on each backend.

use camellia::cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit,
    KeyIvInit, consts::U16,
};
use camellia::{Camellia128, Camellia192, Camellia256};
use testkit::kat::{Record, parse};

type Block = Array<u8, U16>;

fn block(v: &[u8]) -> Block {
    Block::try_from(v).expect("16 bytes")
}

/// All records of `text` that share a key, through cipher `C`.
fn check_key<C: KeyInit + BlockCipherEncrypt<BlockSize = U16> + BlockCipherDecrypt>(
    file: &str,
    key: &[u8],
    recs: &[&Record],
) {
    let c = C::new_from_slice(key).expect("key length");
    let pt: Vec<Block> = recs.iter().map(|r| block(&r.bytes("PLAINTEXT"))).collect();
    let ct: Vec<Block> = recs.iter().map(|r| block(&r.bytes("CIPHERTEXT"))).collect();
    for (i, r) in recs.iter().enumerate() {
        let mut b = pt[i];
        c.encrypt_block(&mut b);
        assert_eq!(b, ct[i], "{file}, line {}: encrypt_block", r.line);
        c.decrypt_block(&mut b);
        assert_eq!(b, pt[i], "{file}, line {}: decrypt_block", r.line);
    }
    // The same vectors repeated to 101..=150 blocks, in one call each way.
    let reps = 101usize.div_ceil(recs.len());
    let mut x: Vec<Block> = (0..reps).flat_map(|_| pt.iter().copied()).collect();
    let want: Vec<Block> = (0..reps).flat_map(|_| ct.iter().copied()).collect();
    c.encrypt_blocks(&mut x);
    assert!(x == want, "{file}, key {key:02x?}: encrypt_blocks");
    c.decrypt_blocks(&mut x);
    let back: Vec<Block> = (0..reps).flat_map(|_| pt.iter().copied()).collect();
    assert!(x == back, "{file}, key {key:02x?}: decrypt_blocks");
}

fn check_ecb(file: &str, text: &str) -> usize {
    let records = parse(text);
    assert!(!records.is_empty(), "{file}: no records");
    let mut groups: Vec<(Vec<u8>, Vec<&Record>)> = Vec::new();
    for r in &records {
        let key = r.bytes("KEY");
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    for (key, recs) in &groups {
        match key.len() {
            16 => check_key::<Camellia128>(file, key, recs),
            24 => check_key::<Camellia192>(file, key, recs),
            32 => check_key::<Camellia256>(file, key, recs),
            n => panic!("{file}: {n}-byte key"),
        }
    }
    records.len()
}

#[test]
fn rfc3713() {
    assert_eq!(
        check_ecb("rfc3713.txt", include_str!("data/rfc3713.txt")),
        3
    );
}

#[test]
fn nessie128() {
    let n = check_ecb("nessie128.txt", include_str!("data/nessie128.txt"));
    assert_eq!(n, 1028);
}

#[test]
fn nessie192() {
    let n = check_ecb("nessie192.txt", include_str!("data/nessie192.txt"));
    assert_eq!(n, 1156);
}

#[test]
fn nessie256() {
    let n = check_ecb("nessie256.txt", include_str!("data/nessie256.txt"));
    assert_eq!(n, 1284);
}

fn cbc_one<C: KeyInit + BlockCipherEncrypt<BlockSize = U16> + BlockCipherDecrypt>(r: &Record) {
    let (key, iv) = (r.bytes("KEY"), r.bytes("IV"));
    let pt: Vec<Block> = r.bytes("PLAINTEXT").chunks(16).map(block).collect();
    let ct: Vec<Block> = r.bytes("CIPHERTEXT").chunks(16).map(block).collect();
    let mut x = pt.clone();
    cbc::Encryptor::<C>::new_from_slices(&key, &iv)
        .unwrap()
        .encrypt_blocks(&mut x);
    assert_eq!(x, ct, "cbc.txt, line {}: encrypt", r.line);
    cbc::Decryptor::<C>::new_from_slices(&key, &iv)
        .unwrap()
        .decrypt_blocks(&mut x);
    assert_eq!(x, pt, "cbc.txt, line {}: decrypt", r.line);
}

#[test]
fn openssl_cbc() {
    let records = parse(include_str!("data/cbc.txt"));
    assert!(records.len() >= 12);
    for r in &records {
        match r.bytes("KEY").len() {
            16 => cbc_one::<Camellia128>(r),
            24 => cbc_one::<Camellia192>(r),
            32 => cbc_one::<Camellia256>(r),
            n => panic!("cbc.txt: {n}-byte key"),
        }
    }
}
