//! Known answers through the public API: FIPS-197 Appendix C and the NIST CAVP AESAVS
//! files (GFSbox, KeySbox, VarKey, VarTxt, ECB and CBC MMT) for every key size, through
//! every public type. Forced-backend runs (`--cfg aes_backend="…"`) rerun these on each
//! backend.

use aes::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser,
    KeyInit, KeyIvInit, array::Array, consts::U16,
};
use aes::{Aes128, Aes128Dec, Aes128Enc, Aes192, Aes192Dec, Aes192Enc, Aes256, Aes256Dec};
use aes::{Aes256Enc, Block};
use testkit::kat::{Record, parse};

fn blocks(data: &[u8]) -> Vec<Block> {
    let (b, rest) = Array::slice_as_chunks(data);
    assert!(rest.is_empty(), "whole blocks");
    b.to_vec()
}

fn flat(b: &[Block]) -> Vec<u8> {
    b.iter().flat_map(|x| x.iter().copied()).collect()
}

/// ECB through the full, encrypt-only and decrypt-only types, one block at a time and
/// all blocks at once, in place and buffer to buffer.
fn check_ecb<C, E, D>(file: &str, text: &str)
where
    C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>,
    E: KeyInit + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>,
    D: KeyInit + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + for<'a> From<&'a E>,
{
    let records = parse(text);
    assert!(!records.is_empty(), "{file}: no records");
    for r in &records {
        let what = || format!("{file}, record at line {}", r.line);
        let key = r.bytes("KEY");
        let (pt, ct) = (
            blocks(&r.bytes("PLAINTEXT")),
            blocks(&r.bytes("CIPHERTEXT")),
        );
        let c = C::new_from_slice(&key).unwrap();
        let e = E::new_from_slice(&key).unwrap();
        let d = D::new_from_slice(&key).unwrap();
        let d2 = D::from(&e);
        let decrypting = r.section.as_deref() == Some("DECRYPT");

        if !decrypting {
            let mut x = pt.clone();
            c.encrypt_blocks(&mut x);
            assert_eq!(x, ct, "{}: encrypt_blocks", what());
            let mut y = pt.clone();
            y.iter_mut().for_each(|b| e.encrypt_block(b));
            assert_eq!(y, ct, "{}: Enc encrypt_block", what());
            let mut z = vec![Block::default(); pt.len()];
            e.encrypt_blocks_b2b(&pt, &mut z).unwrap();
            assert_eq!(z, ct, "{}: encrypt_blocks_b2b", what());
        }
        let mut x = ct.clone();
        c.decrypt_blocks(&mut x);
        assert_eq!(x, pt, "{}: decrypt_blocks", what());
        let mut y = ct.clone();
        y.iter_mut().for_each(|b| d.decrypt_block(b));
        assert_eq!(y, pt, "{}: Dec decrypt_block", what());
        let mut z = vec![Block::default(); ct.len()];
        d2.decrypt_blocks_b2b(&ct, &mut z).unwrap();
        assert_eq!(z, pt, "{}: Dec from Enc, decrypt_blocks_b2b", what());
    }
}

/// CBC: a chaining loop over `encrypt_block`/`decrypt_block`, and the published `cbc`
/// crate driving our cipher.
fn check_cbc<C>(file: &str, text: &str)
where
    C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>,
{
    let records = parse(text);
    assert!(!records.is_empty(), "{file}: no records");
    for r in &records {
        let what = || format!("{file}, record at line {}", r.line);
        let (key, iv) = (r.bytes("KEY"), r.bytes("IV"));
        let (pt, ct) = (
            blocks(&r.bytes("PLAINTEXT")),
            blocks(&r.bytes("CIPHERTEXT")),
        );
        let c = C::new_from_slice(&key).unwrap();

        let mut chain = Block::try_from(&iv[..]).unwrap();
        let mut got = Vec::new();
        for p in &pt {
            let mut b = *p;
            b.iter_mut().zip(chain.iter()).for_each(|(x, y)| *x ^= y);
            c.encrypt_block(&mut b);
            chain = b;
            got.push(b);
        }
        assert_eq!(got, ct, "{}: CBC encryption loop", what());

        let mut chain = Block::try_from(&iv[..]).unwrap();
        let mut back = Vec::new();
        for x in &ct {
            let mut b = *x;
            c.decrypt_block(&mut b);
            b.iter_mut().zip(chain.iter()).for_each(|(x, y)| *x ^= y);
            chain = *x;
            back.push(b);
        }
        assert_eq!(back, pt, "{}: CBC decryption loop", what());

        let mut x = pt.clone();
        cbc::Encryptor::<C>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks(&mut x);
        assert_eq!(flat(&x), flat(&ct), "{}: cbc::Encryptor", what());
        cbc::Decryptor::<C>::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_blocks(&mut x);
        assert_eq!(x, pt, "{}: cbc::Decryptor", what());
    }
}

macro_rules! ecb_tests {
    ($($test:ident: $file:literal => $c:ty, $e:ty, $d:ty;)*) => {$(
        #[test]
        fn $test() {
            check_ecb::<$c, $e, $d>($file, include_str!(concat!("data/", $file)));
        }
    )*};
}

ecb_tests! {
    gfsbox_128: "ecbgfsbox128.txt" => Aes128, Aes128Enc, Aes128Dec;
    gfsbox_192: "ecbgfsbox192.txt" => Aes192, Aes192Enc, Aes192Dec;
    gfsbox_256: "ecbgfsbox256.txt" => Aes256, Aes256Enc, Aes256Dec;
    keysbox_128: "ecbkeysbox128.txt" => Aes128, Aes128Enc, Aes128Dec;
    keysbox_192: "ecbkeysbox192.txt" => Aes192, Aes192Enc, Aes192Dec;
    keysbox_256: "ecbkeysbox256.txt" => Aes256, Aes256Enc, Aes256Dec;
    varkey_128: "ecbvarkey128.txt" => Aes128, Aes128Enc, Aes128Dec;
    varkey_192: "ecbvarkey192.txt" => Aes192, Aes192Enc, Aes192Dec;
    varkey_256: "ecbvarkey256.txt" => Aes256, Aes256Enc, Aes256Dec;
    vartxt_128: "ecbvartxt128.txt" => Aes128, Aes128Enc, Aes128Dec;
    vartxt_192: "ecbvartxt192.txt" => Aes192, Aes192Enc, Aes192Dec;
    vartxt_256: "ecbvartxt256.txt" => Aes256, Aes256Enc, Aes256Dec;
    ecb_mmt_128: "ecbmmt128.txt" => Aes128, Aes128Enc, Aes128Dec;
    ecb_mmt_192: "ecbmmt192.txt" => Aes192, Aes192Enc, Aes192Dec;
    ecb_mmt_256: "ecbmmt256.txt" => Aes256, Aes256Enc, Aes256Dec;
}

/// FIPS-197 Appendix C, all three key sizes, encryption and decryption.
#[test]
fn fips197() {
    for r in parse(include_str!("data/fips197.txt")) {
        let key = r.bytes("KEY");
        let mut b = Block::try_from(&r.bytes("PLAINTEXT")[..]).unwrap();
        let (pt, ct) = (b, r.bytes("CIPHERTEXT"));
        fn both<
            C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>,
        >(
            key: &[u8],
            b: &mut Block,
        ) -> Block {
            let c = C::new_from_slice(key).unwrap();
            c.encrypt_block(b);
            let mut back = *b;
            c.decrypt_block(&mut back);
            back
        }
        let back = match key.len() {
            16 => both::<Aes128>(&key, &mut b),
            24 => both::<Aes192>(&key, &mut b),
            32 => both::<Aes256>(&key, &mut b),
            n => panic!("{n}-byte key"),
        };
        assert_eq!(b[..], ct[..], "FIPS-197 line {}", r.line);
        assert_eq!(back, pt, "FIPS-197 line {}: decryption", r.line);
    }
}

#[test]
fn cbc_mmt_128() {
    check_cbc::<Aes128>("cbcmmt128.txt", include_str!("data/cbcmmt128.txt"));
}

#[test]
fn cbc_mmt_192() {
    check_cbc::<Aes192>("cbcmmt192.txt", include_str!("data/cbcmmt192.txt"));
}

#[test]
fn cbc_mmt_256() {
    check_cbc::<Aes256>("cbcmmt256.txt", include_str!("data/cbcmmt256.txt"));
}

/// Every record of every file is used: a parser that dropped records would pass silently.
#[test]
fn record_counts() {
    let n = |t: &str| parse(t).len();
    assert_eq!(n(include_str!("data/fips197.txt")), 3);
    assert_eq!(n(include_str!("data/ecbvarkey128.txt")), 2 * 128);
    assert_eq!(n(include_str!("data/ecbvarkey256.txt")), 2 * 256);
    assert_eq!(n(include_str!("data/ecbvartxt192.txt")), 2 * 128);
    assert_eq!(n(include_str!("data/cbcmmt256.txt")), 20);
    let _: fn(&Record) = |_| {};
}
