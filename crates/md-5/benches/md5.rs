//! MD5 benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! md-5 0.11.0, interleaved size by size. Ids: `md5/<impl>/<size>`.
//!
//! - `md5/soft`, `md5/avx512`: a whole MD5 of the buffer (its blocks, then the
//!   padding) through `__backends::compress_with`, i.e. one backend forced;
//! - `md5/rustcrypto-compress`: the same through `rc_md5::block_api::compress`;
//! - `md5/api`: `md5::Md5::digest` (detected backend, hasher overhead included);
//! - `md5/rustcrypto`: `rc_md5::Md5::digest`.
//!
//! Multi-buffer (`md5::multi`), group `md5-mb16`: each operation hashes the buffer
//! as 16 equal segments (16 messages of size/16 bytes, so the throughput is the
//! aggregate), ids `md5-mb16/<backend>/<size>` through
//! `__backends::digest_many_with` and `md5-mb16/api` through `multi::digest_into`.
// Tests and benches need a newer Rust than the library's 1.85 floor (criterion 0.8 needs
// 1.86, the renamed RustCrypto peers more): `as_chunks` (1.88) is fine here.
#![allow(clippy::incompatible_msrv)]

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
    for &id in md5::__backends::ALL {
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

/// The buffer as 16 equal messages (every bench size is a multiple of 16).
fn segments(buf: &[u8]) -> [&[u8]; 16] {
    let len = buf.len() / 16;
    core::array::from_fn(|i| &buf[i * len..(i + 1) * len])
}

/// 16 messages per operation: the buffer's 16 segments.
fn md5_mb16(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in md5::__backends::ALL {
        if md5::__backends::available(id) {
            impls.push(Bench::new(id, move |buf: &mut [u8]| {
                let mut out = [[0u8; 16]; 16];
                md5::__backends::digest_many_with(id, &segments(buf), &mut out);
                black_box(out);
            }));
        }
    }
    impls.push(Bench::new("api", |buf: &mut [u8]| {
        let mut out = [[0u8; 16]; 16];
        md5::multi::digest_into(&segments(buf), &mut out);
        black_box(out);
    }));
    bench::bytes(c, "md5-mb16", impls);
}

criterion_group!(benches, md5, md5_mb16);
criterion_main!(benches);
