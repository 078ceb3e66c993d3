//! MD2 benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! md2 0.11.0, interleaved size by size. Ids: `md2/<impl>/<size>`.
//!
//! - `md2/soft`: a whole MD2 of the buffer (its blocks, the padding block, the
//!   checksum block) through `__backends::compress_with`, i.e. the backend forced;
//! - `md2/api`: `md2::Md2::digest` (detected backend, hasher overhead included);
//! - `md2/rustcrypto`: `rc_md2::Md2::digest`.
// Tests and benches need a newer Rust than the library's 1.85 floor (criterion 0.8 needs
// 1.86, the renamed RustCrypto peers more): `as_chunks` (1.88) is fine here.
#![allow(clippy::incompatible_msrv)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use testkit::bench::{self, Bench};

/// MD2 of `msg` with the backend `id`.
fn md2_with(id: &str, msg: &[u8]) -> [u8; 16] {
    let (mut x, mut c) = ([0u8; 48], [0u8; 16]);
    let (blocks, tail) = msg.as_chunks::<16>();
    md2::__backends::compress_with(id, &mut x, &mut c, blocks);
    let pad = (16 - tail.len()) as u8;
    let mut last = [pad; 16];
    last[..tail.len()].copy_from_slice(tail);
    md2::__backends::compress_with(id, &mut x, &mut c, &[last]);
    let checksum = c;
    md2::__backends::compress_with(id, &mut x, &mut c, &[checksum]);
    x[..16].try_into().unwrap()
}

fn md2(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in md2::__backends::ALL {
        if md2::__backends::available(id) {
            impls.push(Bench::new(id, move |buf: &mut [u8]| {
                black_box(md2_with(id, buf));
            }));
        } else {
            println!("SKIP md2/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(bench::digest::<md2::Md2>("api"));
    impls.push(bench::digest::<rc_md2::Md2>("rustcrypto"));
    bench::bytes(c, "md2", impls);
}

criterion_group!(benches, md2);
criterion_main!(benches);
