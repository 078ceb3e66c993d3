//! Known answers through the public API: the NESSIE IDEA vectors (sets 1–8, with the
//! 100- and 1000-fold iterated encryptions), the Lai–Massey example, and CBC vectors
//! through the published `cbc`. Each vector also runs as 67 copies through
//! `encrypt_blocks`/`decrypt_blocks` so every lane and tail path of the selected backend
//! sees it. Forced-backend runs (`--cfg idea_backend="…"`) rerun these on each backend.

use idea::Idea;
use idea::cipher::{
    Block, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit,
    KeyIvInit, array::Array,
};
use testkit::kat::{Record, parse};

fn block(data: &[u8]) -> Block<Idea> {
    Array::try_from(data).expect("one 8-byte block")
}

/// `pt` ↔ `ct` under `key`: single blocks, 67 copies in bulk, in place and b2b.
fn check(what: &str, key: &[u8], pt: &[u8], ct: &[u8]) {
    let c = Idea::new_from_slice(key).unwrap();
    let (pt, ct) = (block(pt), block(ct));
    let mut x = pt;
    c.encrypt_block(&mut x);
    assert_eq!(x, ct, "{what}: encrypt_block");
    c.decrypt_block(&mut x);
    assert_eq!(x, pt, "{what}: decrypt_block");
    let mut many = vec![pt; 67];
    c.encrypt_blocks(&mut many);
    assert!(many.iter().all(|b| *b == ct), "{what}: encrypt_blocks");
    let mut back = vec![Block::<Idea>::default(); 67];
    c.decrypt_blocks_b2b(&many, &mut back).unwrap();
    assert!(back.iter().all(|b| *b == pt), "{what}: decrypt_blocks_b2b");
}

#[test]
fn nessie_sets_1_to_8() {
    let records = parse(include_str!("data/nessie-idea.txt"));
    assert_eq!(
        records.len(),
        900,
        "sets 1–8: 128 + 64 + 256 + 2 vectors, twice"
    );
    let mut iterated = 0;
    for r in &records {
        let what = format!("nessie-idea.txt, record at line {}", r.line);
        let (key, pt, ct) = (r.bytes("KEY"), r.bytes("PLAINTEXT"), r.bytes("CIPHERTEXT"));
        check(&what, &key, &pt, &ct);
        if r.has("CIPHERTEXT100") {
            iterate(&what, r, &key, &pt);
            iterated += 1;
        }
    }
    assert_eq!(
        iterated, 450,
        "every encryption vector has its iterated answers"
    );
}

/// NESSIE's "iterated 100 / 1000 times": the plaintext encrypted 100 and 1000 times.
fn iterate(what: &str, r: &Record, key: &[u8], pt: &[u8]) {
    let c = Idea::new_from_slice(key).unwrap();
    let mut x = block(pt);
    for i in 1..=1000 {
        c.encrypt_block(&mut x);
        if i == 100 {
            assert_eq!(&x[..], &r.bytes("CIPHERTEXT100")[..], "{what}: 100 times");
        }
    }
    assert_eq!(&x[..], &r.bytes("CIPHERTEXT1000")[..], "{what}: 1000 times");
}

#[test]
fn lai_massey_example() {
    for r in parse(include_str!("data/lai-massey.txt")) {
        let what = format!("lai-massey.txt, record at line {}", r.line);
        check(
            &what,
            &r.bytes("KEY"),
            &r.bytes("PLAINTEXT"),
            &r.bytes("CIPHERTEXT"),
        );
    }
}

#[test]
fn cbc_vectors() {
    let records = parse(include_str!("data/idea-cbc.txt"));
    assert!(!records.is_empty());
    for r in &records {
        let what = format!("idea-cbc.txt, record at line {}", r.line);
        let (key, iv) = (r.bytes("KEY"), r.bytes("IV"));
        let (pt, ct) = (r.bytes("PLAINTEXT"), r.bytes("CIPHERTEXT"));
        let to_blocks = |d: &[u8]| -> Vec<Block<Idea>> { d.chunks(8).map(block).collect() };
        let mut x = to_blocks(&pt);
        cbc::Encryptor::<Idea>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks(&mut x);
        assert_eq!(x, to_blocks(&ct), "{what}: encryption");
        cbc::Decryptor::<Idea>::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_blocks(&mut x);
        assert_eq!(x, to_blocks(&pt), "{what}: decryption");
    }
}
