//! AES benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's aes
//! 0.9.4, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `aes128/<backend>` (`soft`, `aesni`, `vaes256`, `vaes512`), same for `aes192` and
//!   `aes256`: raw ECB `encrypt_blocks` with that backend forced (`__backends`);
//! - `aes128/api`: `aes::Aes128` as detected; `aes128/rustcrypto`: `rc_aes::Aes128`;
//! - `aes128-ctr/…`, `aes128-cbc-enc/…`, `aes128-cbc-dec/…`: the published `ctr` 0.10 and
//!   `cbc` 0.2 over our `Aes128` (`api`) and over RustCrypto's (`rustcrypto`).

use aes::cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit,
    KeyIvInit,
};
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{self, Bench};

fn blocks(buf: &mut [u8]) -> &mut [aes::Block] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16> + 'static>(
    id: &str,
    c: C,
) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

macro_rules! ecb_group {
    ($fn:ident, $group:literal, $with:ident, $ours:ty, $theirs:ty, $n:literal) => {
        fn $fn(c: &mut Criterion) {
            let key = [7u8; $n];
            let mut impls = Vec::new();
            for &id in aes::__backends::ALL {
                if aes::__backends::available(id) {
                    impls.push(ecb(id, aes::__backends::$with(id, &key)));
                } else {
                    println!("SKIP {}/{id}: this CPU lacks the features it needs", $group);
                }
            }
            impls.push(ecb("api", <$ours>::new(&key.into())));
            impls.push(ecb("rustcrypto", <$theirs>::new(&key.into())));
            bench::bytes(c, $group, impls);
        }
    };
}

ecb_group!(
    aes128,
    "aes128",
    aes128_with,
    aes::Aes128,
    rc_aes::Aes128,
    16
);
ecb_group!(
    aes192,
    "aes192",
    aes192_with,
    aes::Aes192,
    rc_aes::Aes192,
    24
);
ecb_group!(
    aes256,
    "aes256",
    aes256_with,
    aes::Aes256,
    rc_aes::Aes256,
    32
);

fn modes(c: &mut Criterion) {
    let (key, iv) = ([7u8; 16], [9u8; 16]);
    bench::bytes(
        c,
        "aes128-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr128BE::<aes::Aes128>::new(&key.into(), &iv.into()),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr128BE::<rc_aes::Aes128>::new(&key.into(), &iv.into()),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<aes::Aes128>::new(&key.into(), &iv.into());
    let mut e2 = cbc::Encryptor::<rc_aes::Aes128>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "aes128-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<aes::Aes128>::new(&key.into(), &iv.into());
    let mut d2 = cbc::Decryptor::<rc_aes::Aes128>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "aes128-cbc-dec",
        vec![
            Bench::new("api", move |buf: &mut [u8]| d1.decrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                d2.decrypt_blocks(blocks(buf))
            }),
        ],
    );
    // Key setup plus one block, as a TLS record layer or a KDF does it.
    let mut k = 0u8;
    bench::bytes(
        c,
        "aes128-setup",
        vec![
            Bench::new("api", move |buf: &mut [u8]| {
                k = k.wrapping_add(1);
                let c = aes::Aes128::new(&[k; 16].into());
                c.encrypt_block(&mut blocks(&mut buf[..16])[0]);
                c.decrypt_block(&mut blocks(&mut buf[..16])[0]);
            }),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                k = k.wrapping_add(1);
                let c = rc_aes::Aes128::new(&[k; 16].into());
                c.encrypt_block(&mut blocks(&mut buf[..16])[0]);
                c.decrypt_block(&mut blocks(&mut buf[..16])[0]);
            }),
        ],
    );
}

criterion_group!(benches, aes128, aes192, aes256, modes);
criterion_main!(benches);
