//! Criterion benches: AES-128 CBC encryption and decryption through this crate and
//! through the published `cbc` 0.2.1, over this workspace's `aes`.
use cipher::{Array, BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{Bench, bytes};

const KEY: [u8; 16] = [7; 16];
const IV: [u8; 16] = [9; 16];

fn enc<M: BlockModeEncrypt + KeyIvInit + 'static>(id: &str) -> Bench<'_> {
    let mut m = M::new_from_slices(&KEY, &IV).expect("AES-128 key and IV");
    Bench::new(id, move |buf| {
        m.encrypt_blocks(Array::slice_as_chunks_mut(buf).0)
    })
}

fn dec<M: BlockModeDecrypt + KeyIvInit + 'static>(id: &str) -> Bench<'_> {
    let mut m = M::new_from_slices(&KEY, &IV).expect("AES-128 key and IV");
    Bench::new(id, move |buf| {
        m.decrypt_blocks(Array::slice_as_chunks_mut(buf).0)
    })
}

fn cbc(c: &mut Criterion) {
    bytes(
        c,
        "aes128-cbc-enc",
        vec![
            enc::<cbc::Encryptor<simdcrypt_aes::Aes128>>("ours"),
            enc::<rc_cbc::Encryptor<simdcrypt_aes::Aes128>>("published-cbc"),
        ],
    );
    bytes(
        c,
        "aes128-cbc-dec",
        vec![
            dec::<cbc::Decryptor<simdcrypt_aes::Aes128>>("ours"),
            dec::<rc_cbc::Decryptor<simdcrypt_aes::Aes128>>("published-cbc"),
        ],
    );
}

criterion_group!(benches, cbc);
criterion_main!(benches);
