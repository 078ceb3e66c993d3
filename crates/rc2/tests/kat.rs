//! Known answers through the public API: the eight RFC 2268 §5 vectors with their effective
//! key bits (`Rc2::new_with_eff_key_len`, and `KeyInit` where the effective bits are
//! 8 × the key length), and CBC vectors through the published `cbc`. Each vector also runs
//! as 67 copies through `encrypt_blocks`/`decrypt_blocks` so every lane and tail path of the
//! selected backend sees it. Forced-backend runs (`--cfg rc2_backend="…"`) rerun these on
//! each backend.

use rc2::Rc2;
use rc2::cipher::{
    Block, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit,
    KeyInit, array::Array,
};
use testkit::kat::parse;

fn block(data: &[u8]) -> Block<Rc2> {
    Array::try_from(data).expect("one 8-byte block")
}

/// `pt` ↔ `ct` under `c`: single blocks, 67 copies in bulk, in place and b2b.
fn check(what: &str, c: &Rc2, pt: &[u8], ct: &[u8]) {
    let (pt, ct) = (block(pt), block(ct));
    let mut x = pt;
    c.encrypt_block(&mut x);
    assert_eq!(x, ct, "{what}: encrypt_block");
    c.decrypt_block(&mut x);
    assert_eq!(x, pt, "{what}: decrypt_block");
    let mut many = vec![pt; 67];
    c.encrypt_blocks(&mut many);
    assert!(many.iter().all(|b| *b == ct), "{what}: encrypt_blocks");
    let mut back = vec![Block::<Rc2>::default(); 67];
    c.decrypt_blocks_b2b(&many, &mut back).unwrap();
    assert!(back.iter().all(|b| *b == pt), "{what}: decrypt_blocks_b2b");
}

#[test]
fn rfc2268_section_5() {
    let records = parse(include_str!("data/rfc2268.txt"));
    assert_eq!(records.len(), 8, "all eight vectors");
    for r in &records {
        let what = format!("rfc2268.txt, record at line {}", r.line);
        let key = r.bytes("KEY");
        let bits = r.number("EFFECTIVE_BITS") as usize;
        let (pt, ct) = (r.bytes("PLAINTEXT"), r.bytes("CIPHERTEXT"));
        check(&what, &Rc2::new_with_eff_key_len(&key, bits), &pt, &ct);
        if bits == 8 * key.len() {
            check(&what, &Rc2::new_from_slice(&key).unwrap(), &pt, &ct);
        }
    }
}

#[test]
fn cbc_vectors() {
    let records = parse(include_str!("data/rc2-cbc.txt"));
    assert!(!records.is_empty());
    for r in &records {
        let what = format!("rc2-cbc.txt, record at line {}", r.line);
        let (key, iv) = (r.bytes("Key"), r.bytes("IV"));
        let (pt, ct) = (r.bytes("Plaintext"), r.bytes("Ciphertext"));
        let to_blocks = |d: &[u8]| -> Vec<Block<Rc2>> { d.chunks(8).map(block).collect() };
        // `cbc`'s `new_from_slices` checks the key against `KeySize` (32 bytes), so the
        // 16-byte key goes through `inner_iv_init`.
        let cipher = Rc2::new_from_slice(&key).unwrap();
        let mut x = to_blocks(&pt);
        cbc::Encryptor::<Rc2>::inner_iv_slice_init(cipher.clone(), &iv)
            .unwrap()
            .encrypt_blocks(&mut x);
        assert_eq!(x, to_blocks(&ct), "{what}: encryption");
        cbc::Decryptor::<Rc2>::inner_iv_slice_init(cipher, &iv)
            .unwrap()
            .decrypt_blocks(&mut x);
        assert_eq!(x, to_blocks(&pt), "{what}: decryption");
    }
}
