//! CAST5 benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's cast5
//! 0.12.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `cast5/<backend>` (`soft`, `avx2`, `avx512`, `vbmi`): raw ECB `encrypt_blocks` with that
//!   backend forced (`__backends`); `cast5/api`: `cast5::Cast5` as detected;
//!   `cast5/rustcrypto`: `rc_cast5::Cast5`;
//! - `cast5-ctr/…`, `cast5-cbc-enc/…`, `cast5-cbc-dec/…`: the published `ctr` 0.10
//!   (`Ctr64BE`) and `cbc` 0.2 over our `Cast5` (`api`) and over RustCrypto's
//!   (`rustcrypto`);
//! - `cast5-setup/…`: key schedule plus one block.

use cast5::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, consts::U8,
};
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{self, Bench};

fn blocks(buf: &mut [u8]) -> &mut [Array<u8, U8>] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U8> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

const KEY: [u8; 16] = [7; 16];
const IV: [u8; 8] = [9; 8];

fn raw(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in cast5::__backends::ALL {
        if cast5::__backends::available(id) {
            impls.push(ecb(id, cast5::__backends::cast5_with(id, &KEY)));
        } else {
            println!("SKIP cast5/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(ecb("api", cast5::Cast5::new(&KEY.into())));
    impls.push(ecb("rustcrypto", rc_cast5::Cast5::new(&KEY.into())));
    bench::bytes(c, "cast5", impls);
}

fn modes(c: &mut Criterion) {
    bench::bytes(
        c,
        "cast5-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr64BE::<cast5::Cast5>::new(&KEY.into(), &IV.into()),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr64BE::<rc_cast5::Cast5>::new(&KEY.into(), &IV.into()),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<cast5::Cast5>::new(&KEY.into(), &IV.into());
    let mut e2 = cbc::Encryptor::<rc_cast5::Cast5>::new(&KEY.into(), &IV.into());
    bench::bytes(
        c,
        "cast5-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<cast5::Cast5>::new(&KEY.into(), &IV.into());
    let mut d2 = cbc::Decryptor::<rc_cast5::Cast5>::new(&KEY.into(), &IV.into());
    bench::bytes(
        c,
        "cast5-cbc-dec",
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
        "cast5-setup",
        vec![
            Bench::new("api", move |buf: &mut [u8]| {
                k = k.wrapping_add(1);
                let c = cast5::Cast5::new(&[k; 16].into());
                c.encrypt_block(&mut blocks(&mut buf[..8])[0]);
            }),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                k = k.wrapping_add(1);
                let c = rc_cast5::Cast5::new(&[k; 16].into());
                c.encrypt_block(&mut blocks(&mut buf[..8])[0]);
            }),
        ],
    );
}

criterion_group!(benches, raw, modes);
criterion_main!(benches);
