//! RC2 benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's rc2
//! 0.9.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `rc2/<backend>` (`soft`, `avx2`, `avx512`; `soft`, `neon` on aarch64): raw ECB
//!   `encrypt_blocks` with that backend forced (`__backends`); `rc2/api`: `rc2::Rc2` as detected;
//!   `rc2/rustcrypto`: `rc_rc2::Rc2`;
//! - `rc2-ctr/…`, `rc2-cbc-enc/…`, `rc2-cbc-dec/…`: the published `ctr` 0.10 and `cbc`
//!   0.2 over our `Rc2` (`api`) and over RustCrypto's (`rustcrypto`).

use criterion::{Criterion, criterion_group, criterion_main};
use rc2::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit, KeyInit, consts::U8,
};
use testkit::bench::{self, Bench};

type Blk = Array<u8, U8>;

fn blocks(buf: &mut [u8]) -> &mut [Blk] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U8> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

/// A 16-byte key (128 effective bits), as `openssl speed rc2-cbc` uses; `KeyInit::new`
/// would take 32 bytes (`KeySize` is 32 in RustCrypto's `rc2`).
const KEY: [u8; 16] = [7; 16];

fn ours() -> rc2::Rc2 {
    rc2::Rc2::new_from_slice(&KEY).unwrap()
}

fn theirs() -> rc_rc2::Rc2 {
    rc_rc2::Rc2::new_from_slice(&KEY).unwrap()
}

fn raw(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in rc2::__backends::ALL {
        if rc2::__backends::available(id) {
            impls.push(ecb(id, rc2::__backends::rc2_with(id, &KEY, 128)));
        } else {
            println!("SKIP rc2/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(ecb("api", ours()));
    impls.push(ecb("rustcrypto", theirs()));
    bench::bytes(c, "rc2", impls);
}

fn modes(c: &mut Criterion) {
    let iv = [9u8; 8];
    bench::bytes(
        c,
        "rc2-ctr",
        vec![
            bench::stream(
                "api",
                ctr::Ctr64BE::<rc2::Rc2>::from_core(ctr::CtrCore::inner_iv_init(
                    ours(),
                    &iv.into(),
                )),
            ),
            bench::stream(
                "rustcrypto",
                ctr::Ctr64BE::<rc_rc2::Rc2>::from_core(ctr::CtrCore::inner_iv_init(
                    theirs(),
                    &iv.into(),
                )),
            ),
        ],
    );
    let mut e1 = cbc::Encryptor::<rc2::Rc2>::inner_iv_init(ours(), &iv.into());
    let mut e2 = cbc::Encryptor::<rc_rc2::Rc2>::inner_iv_init(theirs(), &iv.into());
    bench::bytes(
        c,
        "rc2-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 = cbc::Decryptor::<rc2::Rc2>::inner_iv_init(ours(), &iv.into());
    let mut d2 = cbc::Decryptor::<rc_rc2::Rc2>::inner_iv_init(theirs(), &iv.into());
    bench::bytes(
        c,
        "rc2-cbc-dec",
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
