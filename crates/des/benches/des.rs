//! DES benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's des
//! 0.9.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `des/<backend>`, `tdes-ede3/<backend>` (`soft`, `avx2`, `avx512`, `neon`): raw ECB
//!   `encrypt_blocks` with that backend forced (`__backends`); `…/api`: our type as
//!   detected; `…/rustcrypto`: `rc_des`;
//! - `des-ctr/…`, `des-cbc-enc/…`, `des-cbc-dec/…` and the same for `tdes-ede3`: the
//!   published `ctr` 0.10 and `cbc` 0.2 over ours (`api`) and RustCrypto's (`rustcrypto`);
//! - `des-setup/…`, `tdes-ede3-setup/…`: key setup plus one block.

use criterion::{Criterion, criterion_group, criterion_main};
use des::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, consts::U8,
};
use testkit::bench::{self, Bench};

type Block = Array<u8, U8>;

fn blocks(buf: &mut [u8]) -> &mut [Block] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U8> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

macro_rules! group {
    ($fn:ident, $g:literal, $with:ident, $ours:ty, $theirs:ty, $n:literal) => {
        fn $fn(c: &mut Criterion) {
            let key = [7u8; $n];
            let iv = [9u8; 8];
            let mut impls = Vec::new();
            for &id in des::__backends::ALL {
                if des::__backends::available(id) {
                    impls.push(ecb(id, des::__backends::$with(id, &key)));
                } else {
                    println!("SKIP {}/{id}: this CPU lacks the features it needs", $g);
                }
            }
            impls.push(ecb("api", <$ours>::new(&key.into())));
            impls.push(ecb("rustcrypto", <$theirs>::new(&key.into())));
            bench::bytes(c, $g, impls);

            bench::bytes(
                c,
                concat!($g, "-ctr"),
                vec![
                    bench::stream("api", ctr::Ctr64BE::<$ours>::new(&key.into(), &iv.into())),
                    bench::stream(
                        "rustcrypto",
                        ctr::Ctr64BE::<$theirs>::new(&key.into(), &iv.into()),
                    ),
                ],
            );
            let mut e1 = cbc::Encryptor::<$ours>::new(&key.into(), &iv.into());
            let mut e2 = cbc::Encryptor::<$theirs>::new(&key.into(), &iv.into());
            bench::bytes(
                c,
                concat!($g, "-cbc-enc"),
                vec![
                    Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
                    Bench::new("rustcrypto", move |buf: &mut [u8]| {
                        e2.encrypt_blocks(blocks(buf))
                    }),
                ],
            );
            let mut d1 = cbc::Decryptor::<$ours>::new(&key.into(), &iv.into());
            let mut d2 = cbc::Decryptor::<$theirs>::new(&key.into(), &iv.into());
            bench::bytes(
                c,
                concat!($g, "-cbc-dec"),
                vec![
                    Bench::new("api", move |buf: &mut [u8]| d1.decrypt_blocks(blocks(buf))),
                    Bench::new("rustcrypto", move |buf: &mut [u8]| {
                        d2.decrypt_blocks(blocks(buf))
                    }),
                ],
            );
            let mut k = 0u8;
            bench::bytes(
                c,
                concat!($g, "-setup"),
                vec![
                    Bench::new("api", move |buf: &mut [u8]| {
                        k = k.wrapping_add(1);
                        let c = <$ours>::new(&[k; $n].into());
                        c.encrypt_block(&mut blocks(&mut buf[..8])[0]);
                    }),
                    Bench::new("rustcrypto", move |buf: &mut [u8]| {
                        k = k.wrapping_add(1);
                        let c = <$theirs>::new(&[k; $n].into());
                        c.encrypt_block(&mut blocks(&mut buf[..8])[0]);
                    }),
                ],
            );
        }
    };
}

group!(des_, "des", des_with, des::Des, rc_des::Des, 8);
group!(
    tdes,
    "tdes-ede3",
    tdes_ede3_with,
    des::TdesEde3,
    rc_des::TdesEde3,
    24
);

criterion_group!(benches, des_, tdes);
criterion_main!(benches);
