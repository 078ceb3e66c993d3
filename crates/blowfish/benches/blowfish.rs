//! Blowfish benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! blowfish 0.10.0, interleaved size by size. Ids: `<group>/<impl>/<size>`.
//!
//! - `blowfish/<backend>` (`soft`, `vbmi`, `avx2`, `avx512`): raw ECB `encrypt_blocks` with that
//!   backend forced (`__backends`), big-endian, 16-byte key;
//! - `blowfish/api`: `blowfish::Blowfish` as detected; `blowfish/rustcrypto`: the peer;
//! - `blowfish-ctr/…`, `blowfish-cbc-enc/…`, `blowfish-cbc-dec/…`: the published `ctr`
//!   0.10 (`Ctr64BE`) and `cbc` 0.2 over our `Blowfish` (`api`) and over RustCrypto's;
//! - `blowfish-expand/…`: one `bc_expand_key` with a 72-byte key (the step bcrypt runs
//!   2^(cost+1) times), measured per 72 key bytes.

use blowfish::cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit, KeyInit,
    StreamCipherCoreWrapper, consts::U8,
};
use criterion::{Criterion, criterion_group, criterion_main};
use testkit::bench::{self, Bench};

type Bf = blowfish::Blowfish;
type RcBf = rc_blowfish::Blowfish;

fn blocks(buf: &mut [u8]) -> &mut [Array<u8, U8>] {
    Array::slice_as_chunks_mut(buf).0
}

fn ecb<C: BlockCipherEncrypt<BlockSize = U8> + 'static>(id: &str, c: C) -> Bench<'_> {
    Bench::new(id, move |buf: &mut [u8]| c.encrypt_blocks(blocks(buf)))
}

const KEY: [u8; 16] = *b"0123456789abcdef";

/// `Ctr64BE` over an already keyed cipher (the 16-byte benchmark key; `KeyIvInit` would
/// take the 56-byte `KeySize`).
fn ctr64<C: BlockCipherEncrypt<BlockSize = U8>>(
    cipher: C,
    iv: &[u8],
) -> Result<ctr::Ctr64BE<C>, blowfish::cipher::InvalidLength> {
    Ok(StreamCipherCoreWrapper::from_core(
        ctr::CtrCore::inner_iv_slice_init(cipher, iv)?,
    ))
}

fn raw(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in blowfish::__backends::ALL {
        if blowfish::__backends::available(id) {
            impls.push(ecb(
                id,
                blowfish::__backends::blowfish_with::<byteorder::BE>(id, &KEY),
            ));
        } else {
            println!("SKIP blowfish/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(ecb("api", Bf::new_from_slice(&KEY).unwrap()));
    impls.push(ecb("rustcrypto", RcBf::new_from_slice(&KEY).unwrap()));
    bench::bytes(c, "blowfish", impls);
}

fn modes(c: &mut Criterion) {
    let iv = [9u8; 8];
    bench::bytes(
        c,
        "blowfish-ctr",
        vec![
            bench::stream(
                "api",
                ctr64::<Bf>(Bf::new_from_slice(&KEY).unwrap(), &iv).unwrap(),
            ),
            bench::stream(
                "rustcrypto",
                ctr64::<RcBf>(RcBf::new_from_slice(&KEY).unwrap(), &iv).unwrap(),
            ),
        ],
    );
    let mut e1 =
        cbc::Encryptor::<Bf>::inner_iv_slice_init(Bf::new_from_slice(&KEY).unwrap(), &iv).unwrap();
    let mut e2 =
        cbc::Encryptor::<RcBf>::inner_iv_slice_init(RcBf::new_from_slice(&KEY).unwrap(), &iv)
            .unwrap();
    bench::bytes(
        c,
        "blowfish-cbc-enc",
        vec![
            Bench::new("api", move |buf: &mut [u8]| e1.encrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                e2.encrypt_blocks(blocks(buf))
            }),
        ],
    );
    let mut d1 =
        cbc::Decryptor::<Bf>::inner_iv_slice_init(Bf::new_from_slice(&KEY).unwrap(), &iv).unwrap();
    let mut d2 =
        cbc::Decryptor::<RcBf>::inner_iv_slice_init(RcBf::new_from_slice(&KEY).unwrap(), &iv)
            .unwrap();
    bench::bytes(
        c,
        "blowfish-cbc-dec",
        vec![
            Bench::new("api", move |buf: &mut [u8]| d1.decrypt_blocks(blocks(buf))),
            Bench::new("rustcrypto", move |buf: &mut [u8]| {
                d2.decrypt_blocks(blocks(buf))
            }),
        ],
    );
}

fn expand(c: &mut Criterion) {
    let key = [0x61u8; 72];
    let mut ours = Bf::bc_init_state();
    let mut theirs = RcBf::bc_init_state();
    let mut group = c.benchmark_group("blowfish-expand");
    group.throughput(criterion::Throughput::Bytes(72));
    group.bench_function("api", |b| {
        b.iter(|| ours.bc_expand_key(std::hint::black_box(&key)))
    });
    group.bench_function("rustcrypto", |b| {
        b.iter(|| theirs.bc_expand_key(std::hint::black_box(&key)))
    });
    group.finish();
}

criterion_group!(benches, raw, modes, expand);
criterion_main!(benches);
