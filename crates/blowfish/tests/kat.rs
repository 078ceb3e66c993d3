//! Known answers through the public API: Schneier's Blowfish vectors (the ECB
//! variable-key set, the set_key tests with keys of 1 to 24 bytes, the CBC vector), and
//! the raw bcrypt vectors of the `bcrypt` crate (jBCrypt's) through the `bcrypt`
//! feature's functions. Each block is also run in a batch of 67 copies so the wide
//! paths and their tails see it; forced-backend runs (`--cfg blowfish_backend="…"`)
//! rerun these on each backend.

use blowfish::Blowfish;
use blowfish::cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit,
    KeyIvInit, consts::U8,
};
use testkit::kat::parse;

type Block = Array<u8, U8>;

fn blocks(data: &[u8]) -> Vec<Block> {
    let (b, rest) = Array::slice_as_chunks(data);
    assert!(rest.is_empty(), "whole blocks");
    b.to_vec()
}

/// One block, and a batch of 67 copies, each way.
fn check_cipher<C: BlockCipherEncrypt<BlockSize = U8> + BlockCipherDecrypt<BlockSize = U8>>(
    c: &C,
    pt: &Block,
    ct: &Block,
    what: &str,
) {
    let mut x = *pt;
    c.encrypt_block(&mut x);
    assert_eq!(&x, ct, "{what}: encrypt_block");
    c.decrypt_block(&mut x);
    assert_eq!(&x, pt, "{what}: decrypt_block");
    let mut many = vec![*pt; 67];
    c.encrypt_blocks(&mut many);
    assert!(many.iter().all(|b| b == ct), "{what}: encrypt_blocks");
    c.decrypt_blocks(&mut many);
    assert!(many.iter().all(|b| b == pt), "{what}: decrypt_blocks");
}

#[test]
fn schneier_ecb_variable_key_and_set_key() {
    let records = parse(include_str!("data/bf-ecb.txt"));
    assert_eq!(records.len(), 58);
    let mut short = 0;
    for r in &records {
        let what = format!("bf-ecb.txt, record at line {}", r.line);
        let key = r.bytes("KEY");
        let pt = Block::try_from(&r.bytes("PLAINTEXT")[..]).unwrap();
        let ct = Block::try_from(&r.bytes("CIPHERTEXT")[..]).unwrap();
        match Blowfish::<byteorder::BE>::new_from_slice(&key) {
            Ok(c) => check_cipher(&c, &pt, &ct, &what),
            Err(_) => {
                assert!(key.len() < 4, "{what}: rejected a {}-byte key", key.len());
                short += 1;
            }
        }
        // The bcrypt path takes any non-empty key: the set_key tests of 1..3 bytes too.
        #[cfg(feature = "bcrypt")]
        {
            let mut c = Blowfish::bc_init_state();
            c.bc_expand_key(&key);
            check_cipher(&c, &pt, &ct, &format!("{what} (bc_expand_key)"));
            let w = |b: &[u8]| u32::from_be_bytes(b.try_into().unwrap());
            let [l, r] = c.bc_encrypt([w(&pt[..4]), w(&pt[4..])]);
            assert_eq!(
                [l.to_be_bytes(), r.to_be_bytes()].concat(),
                &ct[..],
                "{what}: bc_encrypt"
            );
        }
    }
    assert_eq!(short, 3, "the 1-, 2- and 3-byte set_key tests");
}

#[test]
fn schneier_cbc() {
    let records = parse(include_str!("data/bf-cbc.txt"));
    assert_eq!(records.len(), 1);
    for r in &records {
        let (key, iv) = (r.bytes("KEY"), r.bytes("IV"));
        let (pt, ct) = (
            blocks(&r.bytes("PLAINTEXT")),
            blocks(&r.bytes("CIPHERTEXT")),
        );
        let mut x = pt.clone();
        cbc::Encryptor::<Blowfish>::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_blocks(&mut x);
        assert_eq!(x, ct, "CBC encryption");
        cbc::Decryptor::<Blowfish>::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_blocks(&mut x);
        assert_eq!(x, pt, "CBC decryption");
    }
}

/// `bcrypt`'s raw function, as the `bcrypt` crate 0.19 writes it over this API.
#[cfg(feature = "bcrypt")]
fn raw_bcrypt(cost: u32, salt: [u8; 16], password: &[u8]) -> [u8; 24] {
    let mut state = Blowfish::bc_init_state();
    state.salted_expand_key(&salt, password);
    for _ in 0..1u32 << cost {
        state.bc_expand_key(password);
        state.bc_expand_key(&salt);
    }
    let mut ctext = [
        0x4f727068, 0x65616e42, 0x65686f6c, 0x64657253, 0x63727944, 0x6f756274,
    ];
    let mut output = [0; 24];
    for i in (0..6).step_by(2) {
        for _ in 0..64 {
            [ctext[i], ctext[i + 1]] = state.bc_encrypt([ctext[i], ctext[i + 1]]);
        }
        output[i * 4..][..4].copy_from_slice(&ctext[i].to_be_bytes());
        output[(i + 1) * 4..][..4].copy_from_slice(&ctext[i + 1].to_be_bytes());
    }
    output
}

/// The raw bcrypt vectors of the `bcrypt` crate's tests (from jBCrypt's TestBCrypt.java).
#[cfg(feature = "bcrypt")]
#[test]
fn bcrypt_raw_vectors() {
    use hex_literal::hex;
    // $2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.
    assert_eq!(
        raw_bcrypt(6, hex!("144b3d691a7b4ecf39cf735c7fa7a79c"), b"\0")[..23],
        hex!("557e94f34bf286e8719a26be94ac1e16d95ef9f819dee0")
    );
    // $2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe
    assert_eq!(
        raw_bcrypt(6, hex!("a3612d8c9a37dac2f99d94da03bd4521"), b"a\0")[..23],
        hex!("e6d53831f82060dc08a2e8489ce850ce48fbf976978738")
    );
    // $2a$08$aTsUwsyowQuzRrDqFflhgekJ8d9/7Z3GV3UcgvzQW3J5zMyrTvlz.
    assert_eq!(
        raw_bcrypt(
            8,
            hex!("715b96caed2ac92c354ed16c1e19e38a"),
            b"abcdefghijklmnopqrstuvwxyz\0"
        )[..23],
        hex!("98bf9ffc1f5be485f959e8b1d526392fbd4ed2d5719f50")
    );
}
