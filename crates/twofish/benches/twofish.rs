//! Twofish benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's twofish
//! 0.8.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `twofish/<backend>` (`soft`, `avx2`, `avx512`, `gfni_avx512`): raw ECB `encrypt_blocks` with that
//!   backend forced (`__backends`); `twofish/api`: `twofish::Twofish` as detected;
//!   `twofish/rustcrypto`: `rc_twofish::Twofish`;
//! - `twofish-ctr/…`, `twofish-cbc-enc/…`, `twofish-cbc-dec/…`: the published `ctr` 0.10 and
//!   `cbc` 0.2 over our `Twofish` (`api`) and over RustCrypto's (`rustcrypto`);
//! - `twofish-setup/…`: key setup plus one block encrypted and decrypted.

use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit,
    KeyIvInit, consts::U16,
};
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{self, Bench};

type Block = Array<u8, U16>;

fn blocks(buf: &mut [u8]) -> &mut [Block] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U16> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

fn raw(c: &mut Criterion) {
    let key = [7u8; 16];
    let mut impls = Vec::new();
    for &id in twofish::__backends::ALL {
        if twofish::__backends::available(id) {
            impls.push(ecb(id, twofish::__backends::twofish_with(id, &key)));
        } else {
            println!("SKIP twofish/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(ecb("api", twofish::Twofish::new_from_slice(&key).unwrap()));
    impls.push(ecb(
        "rustcrypto",
        rc_twofish::Twofish::new_from_slice(&key).unwrap(),
    ));
    bench::bytes(c, "twofish", impls);
}

fn modes(c: &mut Criterion) {
    let (key, iv) = ([7u8; 32], [9u8; 16]);
    bench::bytes(
        c,
        "twofish-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr128BE::<twofish::Twofish>::new(&key.into(), &iv.into()),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr128BE::<rc_twofish::Twofish>::new(&key.into(), &iv.into()),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<twofish::Twofish>::new(&key.into(), &iv.into());
    let mut e2 = cbc::Encryptor::<rc_twofish::Twofish>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "twofish-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<twofish::Twofish>::new(&key.into(), &iv.into());
    let mut d2 = cbc::Decryptor::<rc_twofish::Twofish>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "twofish-cbc-dec",
        vec![
            Bench::new("api", move |buf: &mut [u8]| d1.decrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                d2.decrypt_blocks(blocks(buf))
            }),
        ],
    );
    // Key setup plus one block.
    let mut k = 0u8;
    bench::bytes(
        c,
        "twofish-setup",
        vec![
            Bench::new("api", move |buf: &mut [u8]| {
                k = k.wrapping_add(1);
                let c = twofish::Twofish::new_from_slice(&[k; 16]).unwrap();
                c.encrypt_block(&mut blocks(&mut buf[..16])[0]);
                c.decrypt_block(&mut blocks(&mut buf[..16])[0]);
            }),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                k = k.wrapping_add(1);
                let c = rc_twofish::Twofish::new_from_slice(&[k; 16]).unwrap();
                c.encrypt_block(&mut blocks(&mut buf[..16])[0]);
                c.decrypt_block(&mut blocks(&mut buf[..16])[0]);
            }),
        ],
    );
}

criterion_group!(benches, raw, modes);
criterion_main!(benches);
