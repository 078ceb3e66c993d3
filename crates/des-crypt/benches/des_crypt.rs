//! des-crypt benches (ARCHITECTURE §5), `Throughput::Elements` = hashes. Ids:
//!
//! - `descrypt-batch/<backend>/<n>` (`soft`, `avx2`, `avx512`, `neon`): `crypt_keys` of `n` keys
//!   under one traditional setting, that backend forced (`__backends`);
//! - `descrypt-many/<backend>/<n>`: the same through `crypt_many` (a `String` per hash);
//! - `descrypt/single`, `bsdicrypt-725/single`: one `crypt` call;
//! - `des_cipher/count-1`, `des_cipher/count-25`: FreeSec's `des_cipher` with a salt.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn batch(c: &mut Criterion) {
    let keys: Vec<Vec<u8>> = (0..4096).map(|i| format!("k{i:06}").into_bytes()).collect();
    let mut g = c.benchmark_group("descrypt-batch");
    for n in [64usize, 4096] {
        g.throughput(Throughput::Elements(n as u64));
        for &id in des_crypt::__backends::ALL {
            if !des_crypt::__backends::available(id) {
                println!("SKIP descrypt-batch/{id}: this CPU lacks the features it needs");
                continue;
            }
            g.bench_function(BenchmarkId::new(id, n), |b| {
                b.iter(|| des_crypt::__backends::crypt_keys_with(id, "ab", black_box(&keys[..n])))
            });
        }
    }
    g.finish();
    let mut g = c.benchmark_group("descrypt-many");
    let jobs: Vec<(&[u8], &str)> = keys.iter().map(|k| (&k[..], "ab")).collect();
    g.throughput(Throughput::Elements(jobs.len() as u64));
    for &id in des_crypt::__backends::ALL {
        if des_crypt::__backends::available(id) {
            g.bench_function(BenchmarkId::new(id, jobs.len()), |b| {
                b.iter(|| des_crypt::__backends::crypt_many_with(id, black_box(&jobs)))
            });
        }
    }
    g.finish();
}

fn single(c: &mut Criterion) {
    let mut g = c.benchmark_group("descrypt");
    g.throughput(Throughput::Elements(1));
    g.bench_function("single", |b| {
        b.iter(|| des_crypt::crypt(black_box(b"password"), "ab"))
    });
    g.finish();
    let mut g = c.benchmark_group("bsdicrypt-725");
    g.throughput(Throughput::Elements(1));
    g.bench_function("single", |b| {
        b.iter(|| des_crypt::crypt(black_box(b"password"), "_J9..abcd"))
    });
    g.finish();
    let dc = des_crypt::DesCipher::new(b"\x02\x04\x06\x08\x0a\x0c\x0e\x10");
    let mut g = c.benchmark_group("des_cipher");
    for count in [1, 25] {
        g.throughput(Throughput::Elements(count as u64));
        g.bench_function(format!("count-{count}"), |b| {
            b.iter(|| dc.des_cipher(black_box(&[0; 8]), 0x5A5, count))
        });
    }
    g.finish();
}

criterion_group!(benches, batch, single);
criterion_main!(benches);
