//! SHA-1 benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! sha1 0.11.0, interleaved size by size. Ids: `sha1/<impl>/<size>`.
//!
//! - `sha1/soft`, `sha1/shani`, `sha1/avx2`: a whole SHA-1 of the buffer (its blocks,
//!   then the padding) through `__backends::compress_with`, i.e. one backend forced;
//! - `sha1/rustcrypto-compress`: the same through `rc_sha1::block_api::compress`;
//! - `sha1/api`: `sha1::Sha1::digest` (detected backend, hasher overhead included);
//! - `sha1/rustcrypto`: `rc_sha1::Sha1::digest`.
//!
//! (`sha1/avx512` single-stream is SHA-NI's code when the CPU has it.)
//!
//! Multi-buffer (`sha1::multi`), group `sha1-mb16`: each operation hashes the buffer
//! as 16 equal segments (16 messages of size/16 bytes, so the throughput is the
//! aggregate), ids `sha1-mb16/<backend>/<size>` through
//! `__backends::digest_many_with` and `sha1-mb16/api` through `multi::digest_into`.
// Tests and benches need a newer Rust than the library's 1.85 floor (criterion 0.8 needs
// 1.86, the renamed RustCrypto peers more): `as_chunks` (1.88) is fine here.
#![allow(clippy::incompatible_msrv)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use testkit::bench::{self, Bench};

const H0: [u32; 5] = [
    0x6745_2301,
    0xEFCD_AB89,
    0x98BA_DCFE,
    0x1032_5476,
    0xC3D2_E1F0,
];

/// SHA-1 of `msg` with the compression function `compress`.
fn sha1_with(msg: &[u8], compress: impl Fn(&mut [u32; 5], &[[u8; 64]])) -> [u32; 5] {
    let mut state = H0;
    let (blocks, tail) = msg.as_chunks::<64>();
    compress(&mut state, blocks);
    let mut last = [[0u8; 64]; 2];
    let flat = last.as_flattened_mut();
    flat[..tail.len()].copy_from_slice(tail);
    flat[tail.len()] = 0x80;
    let n = if tail.len() < 56 { 1 } else { 2 };
    flat[64 * n - 8..64 * n].copy_from_slice(&(8 * msg.len() as u64).to_be_bytes());
    compress(&mut state, &last[..n]);
    state
}

fn sha1(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in sha1::__backends::ALL {
        if sha1::__backends::available(id) {
            impls.push(Bench::new(id, move |buf: &mut [u8]| {
                black_box(sha1_with(buf, |s, b| {
                    sha1::__backends::compress_with(id, s, b)
                }));
            }));
        } else {
            println!("SKIP sha1/{id}: this CPU lacks the features it needs");
        }
    }
    impls.push(Bench::new("rustcrypto-compress", |buf: &mut [u8]| {
        black_box(sha1_with(buf, rc_sha1::block_api::compress));
    }));
    impls.push(bench::digest::<sha1::Sha1>("api"));
    impls.push(bench::digest::<rc_sha1::Sha1>("rustcrypto"));
    bench::bytes(c, "sha1", impls);
}

/// The buffer as 16 equal messages (every bench size is a multiple of 16).
fn segments(buf: &[u8]) -> [&[u8]; 16] {
    let len = buf.len() / 16;
    core::array::from_fn(|i| &buf[i * len..(i + 1) * len])
}

/// 16 messages per operation: the buffer's 16 segments.
fn sha1_mb16(c: &mut Criterion) {
    let mut impls = Vec::new();
    for &id in sha1::__backends::ALL {
        if sha1::__backends::available(id) {
            impls.push(Bench::new(id, move |buf: &mut [u8]| {
                let mut out = [[0u8; 20]; 16];
                sha1::__backends::digest_many_with(id, &segments(buf), &mut out);
                black_box(out);
            }));
        }
    }
    impls.push(Bench::new("api", |buf: &mut [u8]| {
        let mut out = [[0u8; 20]; 16];
        sha1::multi::digest_into(&segments(buf), &mut out);
        black_box(out);
    }));
    bench::bytes(c, "sha1-mb16", impls);
}

criterion_group!(benches, sha1, sha1_mb16);
criterion_main!(benches);
