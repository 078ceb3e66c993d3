//! Criterion helpers: a crate's bench file names its implementations and calls one
//! function.
//!
//! Ids follow ARCHITECTURE §5: group = algorithm, function = backend, parameter = size,
//! so criterion prints `md5/avx512/8192`, with `Throughput::Bytes`.

use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// The sizes every bench measures, as `openssl speed` does (plus 16 KiB).
pub const SIZES: [usize; 6] = [16, 64, 256, 1024, 8192, 16384];

/// The operation a bench measures, on a buffer of the measured size.
pub type Op<'a> = Box<dyn FnMut(&mut [u8]) + 'a>;

/// One implementation to measure: its id (the backend name) and what it does to a
/// buffer of the measured size (hash it, encrypt it in place, ...).
pub struct Bench<'a> {
    /// Backend name, e.g. `"avx2"`.
    pub id: &'a str,
    /// The operation, called once per iteration on a buffer of the measured size.
    pub run: Op<'a>,
}

impl<'a> Bench<'a> {
    /// An implementation named `id` doing `run`.
    pub fn new(id: &'a str, run: impl FnMut(&mut [u8]) + 'a) -> Self {
        Self {
            id,
            run: Box::new(run),
        }
    }
}

/// Measures every implementation at every size of [`SIZES`] in group `alg`,
/// interleaved size by size so the implementations see the same machine state.
pub fn bytes(c: &mut Criterion, alg: &str, mut impls: Vec<Bench<'_>>) {
    let mut group = c.benchmark_group(alg);
    for size in SIZES {
        group.throughput(Throughput::Bytes(size as u64));
        let mut buf = vec![0x5A; size];
        for b in impls.iter_mut() {
            group.bench_function(BenchmarkId::new(b.id, size), |bencher| {
                bencher.iter(|| (b.run)(black_box(&mut buf)))
            });
        }
    }
    group.finish();
}

/// A digest measured through its public API: one-shot hash of the buffer.
pub fn digest<D: digest::Digest>(id: &str) -> Bench<'_> {
    Bench::new(id, |buf| {
        black_box(D::digest(&*buf));
    })
}

/// A stream cipher measured through its public API: keystream applied in place,
/// state carried from one iteration to the next.
pub fn stream<C: cipher::StreamCipher + 'static>(id: &str, mut cipher: C) -> Bench<'_> {
    Bench::new(id, move |buf| cipher.apply_keystream(buf))
}
