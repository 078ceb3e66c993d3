//! Criterion benches: AES-128 CTR through this crate and through the published `ctr`
//! 0.10.1, over this workspace's `aes` and over the published `aes` 0.9.4.
use cipher::KeyIvInit;
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{bytes, stream};

const KEY: [u8; 16] = [7; 16];
const IV: [u8; 16] = [9; 16];

fn ctr(c: &mut Criterion) {
    bytes(
        c,
        "aes128-ctr",
        vec![
            stream(
                "ours",
                ctr::Ctr128BE::<simdcrypt_aes::Aes128>::new(&KEY.into(), &IV.into()),
            ),
            stream(
                "published-ctr",
                rc_ctr::Ctr128BE::<simdcrypt_aes::Aes128>::new(&KEY.into(), &IV.into()),
            ),
            stream(
                "ours-over-rc-aes",
                ctr::Ctr128BE::<aes::Aes128>::new(&KEY.into(), &IV.into()),
            ),
            stream(
                "rustcrypto",
                rc_ctr::Ctr128BE::<aes::Aes128>::new(&KEY.into(), &IV.into()),
            ),
        ],
    );
}

criterion_group!(benches, ctr);
criterion_main!(benches);
