//! Camellia benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! camellia 0.2.1, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `camellia128/<backend>` (`soft`, `aesni_avx2`, `gfni_avx2`, `gfni_avx512`; on
//!   aarch64 `neon_aes`), same for `camellia192` and `camellia256`: raw ECB
//!   `encrypt_blocks` with that backend forced (`__backends`);
//! - `camellia128/api`: `camellia::Camellia128` as detected; `camellia128/rustcrypto`:
//!   `rc_camellia::Camellia128`;
//! - `camellia128-ctr/…`, `camellia128-cbc-enc/…`, `camellia128-cbc-dec/…`: the published
//!   `ctr` 0.10 and `cbc` 0.2 over our `Camellia128` (`api`) and RustCrypto's.

use camellia::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, consts::U16,
};
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{self, Bench};

fn blocks(buf: &mut [u8]) -> &mut [Array<u8, U16>] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U16> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

macro_rules! ecb_group {
    ($fn:ident, $group:literal, $with:ident, $ours:ty, $theirs:ty, $n:literal) => {
        fn $fn(c: &mut Criterion) {
            let key = [7u8; $n];
            let mut impls = Vec::new();
            for &id in camellia::__backends::ALL {
                if camellia::__backends::available(id) {
                    impls.push(ecb(id, camellia::__backends::$with(id, &key)));
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
    camellia128,
    "camellia128",
    camellia128_with,
    camellia::Camellia128,
    rc_camellia::Camellia128,
    16
);
ecb_group!(
    camellia192,
    "camellia192",
    camellia192_with,
    camellia::Camellia192,
    rc_camellia::Camellia192,
    24
);
ecb_group!(
    camellia256,
    "camellia256",
    camellia256_with,
    camellia::Camellia256,
    rc_camellia::Camellia256,
    32
);

fn modes(c: &mut Criterion) {
    let (key, iv) = ([7u8; 16], [9u8; 16]);
    bench::bytes(
        c,
        "camellia128-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr128BE::<camellia::Camellia128>::new(&key.into(), &iv.into()),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr128BE::<rc_camellia::Camellia128>::new(&key.into(), &iv.into()),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<camellia::Camellia128>::new(&key.into(), &iv.into());
    let mut e2 = cbc::Encryptor::<rc_camellia::Camellia128>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "camellia128-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<camellia::Camellia128>::new(&key.into(), &iv.into());
    let mut d2 = cbc::Decryptor::<rc_camellia::Camellia128>::new(&key.into(), &iv.into());
    bench::bytes(
        c,
        "camellia128-cbc-dec",
        vec![
            Bench::new("api", move |buf: &mut [u8]| d1.decrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                d2.decrypt_blocks(blocks(buf))
            }),
        ],
    );
}

criterion_group!(benches, camellia128, camellia192, camellia256, modes);
criterion_main!(benches);
