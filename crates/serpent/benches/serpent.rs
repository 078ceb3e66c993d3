//! Serpent benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! serpent 0.6.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `serpent/<backend>` (`soft`, `avx2`, `avx512`; `soft`, `neon` on aarch64): raw ECB
//!   `encrypt_blocks` with that backend forced (`__backends`); `serpent/api`: `serpent::Serpent` as detected;
//!   `serpent/rustcrypto`: `rc_serpent::Serpent`;
//! - `serpent-ctr/…`, `serpent-cbc-enc/…`, `serpent-cbc-dec/…`: the published `ctr` 0.10 and
//!   `cbc` 0.2 over our `Serpent` (`api`) and over RustCrypto's (`rustcrypto`).

use criterion::{Criterion, criterion_group, criterion_main};
use serpent::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, consts::U16,
};
use testkit::bench::{self, Bench};

fn blocks(buf: &mut [u8]) -> &mut [Array<u8, U16>] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U16> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

fn raw(c: &mut Criterion) {
    let key = [7u8; 16];
    let mut impls = Vec::new();
    for &id in serpent::__backends::ALL {
        if serpent::__backends::available(id) {
            impls.push(ecb(id, serpent::__backends::serpent_with(id, &key)));
        } else {
            println!("SKIP serpent/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(ecb("api", serpent::Serpent::new(&key.into())));
    impls.push(ecb("rustcrypto", rc_serpent::Serpent::new(&key.into())));
    bench::bytes(c, "serpent", impls);
}

fn modes(c: &mut Criterion) {
    let (key, iv) = ([7u8; 16], [9u8; 16]);
    bench::bytes(
        c,
        "serpent-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr128BE::<serpent::Serpent>::new(&key.into(), &iv.into()),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr128BE::<rc_serpent::Serpent>::new(&key.into(), &iv.into()),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<serpent::Serpent>::new(&key.into(), &iv.into());
    let mut e2 = cbc::Encryptor::<rc_serpent::Serpent>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "serpent-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<serpent::Serpent>::new(&key.into(), &iv.into());
    let mut d2 = cbc::Decryptor::<rc_serpent::Serpent>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "serpent-cbc-dec",
        vec![
            Bench::new("api", move |buf: &mut [u8]| d1.decrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                d2.decrypt_blocks(blocks(buf))
            }),
        ],
    );
}

criterion_group!(benches, raw, modes);
criterion_main!(benches);
