//! RIPEMD benches (ARCHITECTURE §5): every backend and the public API, beside RustCrypto's
//! ripemd 0.2.0, interleaved size by size. Ids: `ripemd<width>/<impl>/<size>`.
//!
//! - `ripemd160/soft` (and each width): a whole hash of the buffer (its blocks, then
//!   the padding) through `__backends::compress160_with`, i.e. the backend forced;
//! - `ripemd160/api`: `ripemd::Ripemd160::digest` (detected backend, hasher overhead
//!   included);
//! - `ripemd160/rustcrypto`: `rc_ripemd::Ripemd160::digest`.
// Tests and benches need a newer Rust than the library's 1.85 floor (criterion 0.8 needs
// 1.86, the renamed RustCrypto peers more): `as_chunks` (1.88) is fine here.
#![allow(clippy::incompatible_msrv)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use testkit::bench::{self, Bench};

const H128: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
const H160: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];
const H256: [u32; 8] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0x7654_3210,
    0xfedc_ba98,
    0x89ab_cdef,
    0x0123_4567,
];
const H320: [u32; 10] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
    0x7654_3210,
    0xfedc_ba98,
    0x89ab_cdef,
    0x0123_4567,
    0x3c2d_1e0f,
];

/// The chaining value after hashing `msg` (MD-style padding, little-endian length)
/// from `init` with the compression function `compress`.
fn hash_with<const N: usize>(
    init: [u32; N],
    msg: &[u8],
    compress: impl Fn(&mut [u32; N], &[[u8; 64]]),
) -> [u32; N] {
    let mut state = init;
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

macro_rules! width {
    ($fn:ident, $group:literal, $init:ident, $with:path, $ours:ty, $peer:ty) => {
        fn $fn(c: &mut Criterion) {
            let mut impls = Vec::new();
            for &id in ripemd::__backends::ALL {
                if ripemd::__backends::available(id) {
                    impls.push(Bench::new(id, move |buf: &mut [u8]| {
                        black_box(hash_with($init, buf, |s, b| $with(id, s, b)));
                    }));
                } else {
                    println!("SKIP {}/{id}: this CPU lacks the features it needs", $group);
                }
            }
            impls.push(bench::digest::<$ours>("api"));
            impls.push(bench::digest::<$peer>("rustcrypto"));
            bench::bytes(c, $group, impls);
        }
    };
}

width!(
    ripemd128,
    "ripemd128",
    H128,
    ripemd::__backends::compress128_with,
    ripemd::Ripemd128,
    rc_ripemd::Ripemd128
);
width!(
    ripemd160,
    "ripemd160",
    H160,
    ripemd::__backends::compress160_with,
    ripemd::Ripemd160,
    rc_ripemd::Ripemd160
);
width!(
    ripemd256,
    "ripemd256",
    H256,
    ripemd::__backends::compress256_with,
    ripemd::Ripemd256,
    rc_ripemd::Ripemd256
);
width!(
    ripemd320,
    "ripemd320",
    H320,
    ripemd::__backends::compress320_with,
    ripemd::Ripemd320,
    rc_ripemd::Ripemd320
);

criterion_group!(benches, ripemd160, ripemd128, ripemd256, ripemd320);
criterion_main!(benches);
