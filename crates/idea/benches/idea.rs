//! IDEA benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's idea
//! 0.6.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `idea/<backend>` (`soft`, `avx2`, `avx512`; `soft`, `neon` on aarch64): raw ECB
//!   `encrypt_blocks` with that backend forced (`__backends`); `idea/api`: `idea::Idea` as detected;
//!   `idea/rustcrypto`: `rc_idea::Idea`;
//! - `idea-ctr/…`, `idea-cbc-enc/…`, `idea-cbc-dec/…`: the published `ctr` 0.10 and `cbc`
//!   0.2 over our `Idea` (`api`) and over RustCrypto's (`rustcrypto`).

use criterion::{Criterion, criterion_group, criterion_main};
use idea::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, consts::U8,
};
use testkit::bench::{self, Bench};

type Blk = Array<u8, U8>;

fn blocks(buf: &mut [u8]) -> &mut [Blk] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U8> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

const KEY: [u8; 16] = [7; 16];

fn raw(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in idea::__backends::ALL {
        if idea::__backends::available(id) {
            impls.push(ecb(id, idea::__backends::idea_with(id, &KEY)));
        } else {
            println!("SKIP idea/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(ecb("api", idea::Idea::new(&KEY.into())));
    impls.push(ecb("rustcrypto", rc_idea::Idea::new(&KEY.into())));
    bench::bytes(c, "idea", impls);
}

fn modes(c: &mut Criterion) {
    let iv = [9u8; 8];
    bench::bytes(
        c,
        "idea-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr64BE::<idea::Idea>::new(&KEY.into(), &iv.into()),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr64BE::<rc_idea::Idea>::new(&KEY.into(), &iv.into()),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<idea::Idea>::new(&KEY.into(), &iv.into());
    let mut e2 = cbc::Encryptor::<rc_idea::Idea>::new(&KEY.into(), &iv.into());
    bench::bytes(
        c,
        "idea-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<idea::Idea>::new(&KEY.into(), &iv.into());
    let mut d2 = cbc::Decryptor::<rc_idea::Idea>::new(&KEY.into(), &iv.into());
    bench::bytes(
        c,
        "idea-cbc-dec",
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
