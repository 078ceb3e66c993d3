//! Known answers through the public API: the NIST SP 800-17 known-answer sets (variable
//! plaintext, inverse permutation, variable key, permutation operation, substitution
//! table) and the TDES multi-block message tests from NIST CAVP (ECB and CBC), the
//! SP 800-67 Triple-DES example and the classic FIPS 46 worked example. Each record runs
//! through `Des` (single-key records), `TdesEde3` and `TdesEde2` (where the keys allow),
//! one block at a time and all blocks at once, in place and buffer to buffer, plus the
//! published `cbc` crate for CBC. Forced-backend runs (`--cfg des_backend="…"`) rerun
//! these on each backend; long messages (the records repeated) reach the wide paths.

use des::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit,
    array::Array, consts::U8,
};
use des::{Des, TdesEde2, TdesEde3};
use hex_literal::hex;
use testkit::kat::{Record, parse};

type Block = Array<u8, U8>;

fn blocks(data: &[u8]) -> Vec<Block> {
    let (b, rest) = Array::slice_as_chunks(data);
    assert!(rest.is_empty(), "whole blocks");
    b.to_vec()
}

/// The keys of a record for each type it applies to: (`Des`, `TdesEde2`, `TdesEde3`).
fn keys(r: &Record) -> (Option<Vec<u8>>, Option<Vec<u8>>, Vec<u8>) {
    if r.has("KEYs") {
        let k = r.bytes("KEYs");
        return (Some(k.clone()), Some(k.repeat(2)), k.repeat(3));
    }
    let (k1, k2, k3) = (r.bytes("KEY1"), r.bytes("KEY2"), r.bytes("KEY3"));
    let des = (k1 == k2 && k2 == k3).then(|| k1.clone());
    let ede2 = (k1 == k3).then(|| [k1.clone(), k2.clone()].concat());
    (des, ede2, [k1, k2, k3].concat())
}

/// ECB with cipher `C` keyed by `key`: encrypts `pt` to `ct` (unless `dec_only`) and
/// decrypts back, every way; `reps` copies of the message reach the wide backends.
fn ecb<C: KeyInit + BlockCipherEncrypt<BlockSize = U8> + BlockCipherDecrypt<BlockSize = U8>>(
    what: &str,
    key: &[u8],
    pt: &[Block],
    ct: &[Block],
    dec_only: bool,
) {
    let c = C::new_from_slice(key).unwrap();
    if !dec_only {
        let mut x = pt.to_vec();
        c.encrypt_blocks(&mut x);
        assert_eq!(x, ct, "{what}: encrypt_blocks");
        let mut y = pt.to_vec();
        y.iter_mut().for_each(|b| c.encrypt_block(b));
        assert_eq!(y, ct, "{what}: encrypt_block");
        let mut z = vec![Block::default(); pt.len()];
        c.encrypt_blocks_b2b(pt, &mut z).unwrap();
        assert_eq!(z, ct, "{what}: encrypt_blocks_b2b");
    }
    let mut x = ct.to_vec();
    c.decrypt_blocks(&mut x);
    assert_eq!(x, pt, "{what}: decrypt_blocks");
    let mut y = ct.to_vec();
    y.iter_mut().for_each(|b| c.decrypt_block(b));
    assert_eq!(y, pt, "{what}: decrypt_block");
    // The record repeated 700 times: full batches and a tail on every backend.
    let (pl, cl) = (pt.repeat(700), ct.repeat(700));
    let mut x = pl.clone();
    c.encrypt_blocks(&mut x);
    assert!(x == cl, "{what}: encrypt_blocks x700");
    c.decrypt_blocks(&mut x);
    assert!(x == pl, "{what}: decrypt_blocks x700");
}

fn check_ecb(file: &str, text: &str) {
    let records = parse(text);
    assert!(!records.is_empty(), "{file}: no records");
    for r in &records {
        let what = format!("{file}, record at line {}", r.line);
        let (pt, ct) = (
            blocks(&r.bytes("PLAINTEXT")),
            blocks(&r.bytes("CIPHERTEXT")),
        );
        let dec = r.section.as_deref() == Some("DECRYPT");
        let (des, ede2, ede3) = keys(r);
        ecb::<TdesEde3>(&what, &ede3, &pt, &ct, dec);
        if let Some(k) = ede2 {
            ecb::<TdesEde2>(&what, &k, &pt, &ct, dec);
        }
        if let Some(k) = des {
            ecb::<Des>(&what, &k, &pt, &ct, dec);
        }
    }
}

/// CBC: the published `cbc` crate over our cipher, and a chaining loop over
/// `encrypt_block`/`decrypt_block`.
fn cbc_one<C>(what: &str, key: &[u8], iv: &[u8], pt: &[Block], ct: &[Block], dec_only: bool)
where
    C: KeyInit + BlockCipherEncrypt<BlockSize = U8> + BlockCipherDecrypt<BlockSize = U8>,
{
    if !dec_only {
        let mut x = pt.to_vec();
        cbc::Encryptor::<C>::new_from_slices(key, iv)
            .unwrap()
            .encrypt_blocks(&mut x);
        assert_eq!(x, ct, "{what}: cbc encrypt");
        let c = C::new_from_slice(key).unwrap();
        let mut prev = Block::try_from(iv).unwrap();
        for (p, e) in pt.iter().zip(ct) {
            let mut b = Block::from_fn(|i| p[i] ^ prev[i]);
            c.encrypt_block(&mut b);
            assert_eq!(&b, e, "{what}: chained encrypt_block");
            prev = b;
        }
    }
    let mut x = ct.to_vec();
    cbc::Decryptor::<C>::new_from_slices(key, iv)
        .unwrap()
        .decrypt_blocks(&mut x);
    assert_eq!(x, pt, "{what}: cbc decrypt");
}

fn check_cbc(file: &str, text: &str) {
    let records = parse(text);
    assert!(!records.is_empty(), "{file}: no records");
    for r in &records {
        let what = format!("{file}, record at line {}", r.line);
        let iv = r.bytes("IV");
        let (pt, ct) = (
            blocks(&r.bytes("PLAINTEXT")),
            blocks(&r.bytes("CIPHERTEXT")),
        );
        let dec = r.section.as_deref() == Some("DECRYPT");
        let (des, ede2, ede3) = keys(r);
        cbc_one::<TdesEde3>(&what, &ede3, &iv, &pt, &ct, dec);
        if let Some(k) = ede2 {
            cbc_one::<TdesEde2>(&what, &k, &iv, &pt, &ct, dec);
        }
        if let Some(k) = des {
            cbc_one::<Des>(&what, &k, &iv, &pt, &ct, dec);
        }
    }
}

macro_rules! kat {
    ($($test:ident: $check:ident, $file:literal;)*) => {$(
        #[test]
        fn $test() {
            $check($file, include_str!(concat!("data/", $file)));
        }
    )*};
}

kat! {
    sp800_17_variable_plaintext: check_ecb, "tecbvartext.txt";
    sp800_17_inverse_permutation: check_ecb, "tecbinvperm.txt";
    sp800_17_variable_key: check_ecb, "tecbvarkey.txt";
    sp800_17_permutation_operation: check_ecb, "tecbpermop.txt";
    sp800_17_substitution_table: check_ecb, "tecbsubtab.txt";
    tdes_ecb_mmt1: check_ecb, "tecbmmt1.txt";
    tdes_ecb_mmt2: check_ecb, "tecbmmt2.txt";
    tdes_ecb_mmt3: check_ecb, "tecbmmt3.txt";
    tdes_cbc_mmt1: check_cbc, "tcbcmmt1.txt";
    tdes_cbc_mmt2: check_cbc, "tcbcmmt2.txt";
    tdes_cbc_mmt3: check_cbc, "tcbcmmt3.txt";
    tdes_cbc_variable_key: check_cbc, "tcbcvarkey.txt";
}

/// SP 800-67 Rev. 2, the TDEA example ("The qufck brown fox jump", three keys, ECB).
#[test]
fn sp800_67_example() {
    let key = hex!("0123456789ABCDEF 23456789ABCDEF01 456789ABCDEF0123");
    let pt = blocks(&hex!("5468652071756663 6B2062726F776E20 666F78206A756D70"));
    let ct = blocks(&hex!("A826FD8CE53B855F CCE21C8112256FE6 68D5C05DD9B6B900"));
    ecb::<TdesEde3>("SP 800-67 example", &key, &pt, &ct, false);
}

/// The worked example of FIPS 46 tutorials (J. Orlin Grabbe): key 133457799BBCDFF1.
#[test]
fn fips46_worked_example() {
    let pt = blocks(&hex!("0123456789ABCDEF"));
    let ct = blocks(&hex!("85E813540F0AB405"));
    ecb::<Des>("worked example", &hex!("133457799BBCDFF1"), &pt, &ct, false);
}
