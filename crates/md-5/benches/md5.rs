//! MD5 benches (DESIGN §5): every backend and the public API, beside RustCrypto's
//! md-5 0.11.0, interleaved size by size. Ids: `md5/<impl>/<size>`.
//!
//! - `md5/soft`, `md5/avx512`: a whole MD5 of the buffer (its blocks, then the
//!   padding) through `__backends::compress_with`, i.e. one backend forced;
//! - `md5/rustcrypto-compress`: the same through `rc_md5::block_api::compress`;
//! - `md5/api`: `md5::Md5::digest` (detected backend, hasher overhead included);
//! - `md5/rustcrypto`: `rc_md5::Md5::digest`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use testkit::bench::{self, Bench};

const INIT: [u32; 4] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476];

/// MD5 of `msg` with the compression function `compress`.
fn md5_with(msg: &[u8], compress: impl Fn(&mut [u32; 4], &[[u8; 64]])) -> [u32; 4] {
    let mut state = INIT;
    let (blocks, tail) = msg.as_chunks::<64>();
    compress(&mut state, blocks);
    let mut last = [[0u8; 64]; 2];
    let flat = last.as_flattened_mut();
    flat[..tail.len()].copy_from_slice(tail);
    flat[tail.len()] = 0x80;
    let n = if tail.len() < 56 { 1 } else { 2 };
    flat[64 * n - 8..64 * n].copy_from_slice(&(8 * msg.len() as u64).to_le_bytes());
    compress(&mut state, &last[..n]);
    state
}

fn md5(c: &mut Criterion) {
    let mut impls = Vec::new();
    for id in ["soft", "avx512"] {
        if md5::__backends::available(id) {
            impls.push(Bench::new(id, move |buf: &mut [u8]| {
                black_box(md5_with(buf, |s, b| {
                    md5::__backends::compress_with(id, s, b)
                }));
            }));
        } else {
            println!("SKIP md5/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(Bench::new("rustcrypto-compress", |buf: &mut [u8]| {
        black_box(md5_with(buf, rc_md5::block_api::compress));
    }));
    impls.push(bench::digest::<md5::Md5>("api"));
    impls.push(bench::digest::<rc_md5::Md5>("rustcrypto"));
    bench::bytes(c, "md5", impls);
}

criterion_group!(benches, md5);
criterion_main!(benches);
