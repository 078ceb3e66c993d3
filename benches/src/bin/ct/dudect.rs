//! The statistical timing test (dudect: Reparaz, Balasch and Verbauwhede, "Dude, is my
//! code constant time?", DATE 2017), small and self-contained.
//!
//! One run of a target takes `n` measurements (after `n / 10` warm-up ones that are
//! thrown away). Before each, a fair coin picks the class: 0 = the fixed input (a fixed
//! key and fixed data), 1 = a fresh random input. The target prepares its input *outside*
//! the timed region, with the same work for both classes (random bytes are drawn for
//! both, class 0 then overwrites them with the fixed ones), so only the call itself is
//! timed: `mfence; lfence; rdtsc` before it, `rdtscp; lfence` after.
//!
//! The cycle counts then go through Welch's t-test (class 0 against class 1):
//! - once on all measurements;
//! - once per cropping threshold: the measurements at or below the `p`-th percentile of
//!   all of them, for the paper's (and dudect.c's) percentiles `p = 1 − 0.5^(10·(k+1)/K)`,
//!   `k = 0..K` (here `K` = [`CROPS`]), which cut the long upper tail that interrupts and
//!   the other engineers' builds put on a shared machine;
//! - once as dudect's second-order test: the t-test of the squared distances to each
//!   class's mean (uncropped), which catches a leak in the variance only.
//!
//! A test counts only with at least [`MIN_PER_CLASS`] measurements in each class. The
//! result of a run is the largest |t| of all the tests that count, and which test it was.
//! The caller (`ct time`) compares it with the threshold and reruns suspects.

use std::hint::black_box;

/// Cropping thresholds per run (dudect.c uses 100; the curve is the same, coarser).
pub const CROPS: usize = 20;
/// Fewest measurements per class for a test to count.
pub const MIN_PER_CLASS: usize = 500;

/// A small generator for the random class and the coin (SplitMix64: fast, and good
/// enough to make the two classes independent of the machine's drift; not for keys).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// One thing to time: `prepare` sets up the input of `class` (untimed), `run` is the
/// timed call.
pub trait Measure {
    fn prepare(&mut self, class: usize, rng: &mut Rng);
    fn run(&mut self);
}

/// Fills `buf` with the input of `class`: random bytes, or (class 0) the fixed bytes
/// that `seed` gives. Both classes draw both streams and run the same select, with no
/// branch on the class, so the preparation leaves the same traces either way.
///
/// The mask goes through [`black_box`]: knowing it is 0x00 or 0xff, LLVM unswitched the
/// loop on the class (`test dl, 1; jne`) into a fixed-bytes loop that skipped the random
/// stream and a random-bytes loop that skipped the fixed one. The two loops then left
/// class-dependent state in the branch predictor and the µop cache right before the timed
/// call, which showed as |t| ≈ 50–75 on `des-avx512` in one build and ≈ 2 in another
/// whose instructions differed only in their addresses.
///
/// The fixed input looks random too (a fixed random value, not a constant), and callers
/// give each block or key its own `seed`, so a bitsliced batch's lanes differ and its
/// words are not all zeros or all ones. That was a guard against the clock following the
/// power (Hertzbleed, 2022), set up while the unswitched loop above was mistaken for it;
/// with the loop fixed, an all-zero fixed input also measured |t| < 3 on the DES, Serpent
/// and AES batches here. It stays: it costs nothing and is the stronger test.
pub fn input(buf: &mut [u8], class: usize, seed: u64, rng: &mut Rng) {
    let keep = black_box((class as u8 & 1).wrapping_neg()); // 0x00 for class 0, 0xff for 1
    let mut fixed = Rng::new(seed);
    for c in buf.chunks_mut(8) {
        let r = rng.next_u64().to_le_bytes();
        let f = fixed.next_u64().to_le_bytes();
        for ((b, r), f) in c.iter_mut().zip(r).zip(f) {
            *b = f ^ ((r ^ f) & keep);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn start() -> u64 {
    use core::arch::x86_64::{_mm_lfence, _mm_mfence, _rdtsc};
    // SAFETY: MFENCE, LFENCE and RDTSC exist on every x86-64 CPU and only order the
    // pipeline and read the time-stamp counter.
    unsafe {
        _mm_mfence();
        _mm_lfence();
        _rdtsc()
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn stop() -> u64 {
    use core::arch::x86_64::{__rdtscp, _mm_lfence};
    let mut aux = 0;
    // SAFETY: RDTSCP (every x86-64 CPU this runs the AVX backends on has it; KVM passes
    // it through) writes `aux`, a local; LFENCE only orders.
    unsafe {
        let t = __rdtscp(&mut aux);
        _mm_lfence();
        t
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn start() -> u64 {
    std::time::UNIX_EPOCH
        .elapsed()
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(not(target_arch = "x86_64"))]
fn stop() -> u64 {
    start()
}

/// Runs the same few hundred branches before every measurement, so that the branch
/// predictor's global history when the timed call starts does not depend on the class
/// (on Zen 4 it reaches far back: without this, the class-dependent path of the call that
/// prepared the input biased later calls by a mispredicted loop exit, |t| ≈ 10–40 on
/// identical inputs).
#[inline(never)]
fn scrub() {
    let mut x = 0u32;
    for i in 0..512u32 {
        if black_box(i) & 3 == 0 {
            x = x.wrapping_add(i);
        }
    }
    black_box(x);
}

/// The outcome of one run.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// The largest |t| of the tests that count.
    pub t: f64,
    /// Which test: `"raw"`, `"crop p=0.xx"` or `"2nd order"`.
    pub test: &'static str,
    /// The percentile of that crop (for the `"crop"` test).
    pub p: f64,
    /// Measurements taken (both classes, warm-up not counted).
    pub n: usize,
    /// The median cycles of one call (all measurements).
    pub median: u64,
    /// Mean of class 1 minus mean of class 0, in cycles (all measurements).
    pub diff: f64,
}

/// Welch's t of two samples given as (count, mean, M2) accumulators.
fn welch(a: &Acc, b: &Acc) -> Option<f64> {
    if a.n < MIN_PER_CLASS as f64 || b.n < MIN_PER_CLASS as f64 {
        return None;
    }
    let (va, vb) = (a.m2 / (a.n - 1.0), b.m2 / (b.n - 1.0));
    let se = (va / a.n + vb / b.n).sqrt();
    if se == 0.0 {
        // Both classes took identical times throughout: no difference to see.
        return Some(if a.mean == b.mean { 0.0 } else { f64::INFINITY });
    }
    Some((a.mean - b.mean) / se)
}

/// Welford's running mean and sum of squared deviations.
#[derive(Clone, Copy, Default)]
struct Acc {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Acc {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }
}

/// Takes `n` measurements of `m` (seeded by `seed`) and runs the tests.
pub fn run(m: &mut dyn Measure, n: usize, seed: u64) -> Outcome {
    // A pause first, so the power and clock state the previous run (often AVX-512 at
    // full tilt) left behind has settled before this one starts.
    std::thread::sleep(std::time::Duration::from_millis(250));
    let mut rng = Rng::new(seed);
    let mut samples: Vec<(u64, usize)> = Vec::with_capacity(n);
    for i in 0..n + n / 10 {
        let class = (rng.next_u64() & 1) as usize;
        m.prepare(class, &mut rng);
        scrub();
        let t0 = start();
        m.run();
        let t1 = stop();
        black_box(&mut *m);
        if i >= n / 10 {
            samples.push((t1.wrapping_sub(t0), class));
        }
    }
    analyse(&samples)
}

/// The tests of one run's `(cycles, class)` samples.
pub fn analyse(samples: &[(u64, usize)]) -> Outcome {
    let mut sorted: Vec<u64> = samples.iter().map(|s| s.0).collect();
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2];
    let mut best = Outcome {
        t: 0.0,
        test: "raw",
        p: 1.0,
        n: samples.len(),
        median,
        diff: 0.0,
    };
    let mut consider = |t: Option<f64>, test: &'static str, p: f64| {
        if let Some(t) = t
            && t.abs() > best.t
        {
            best.t = t.abs();
            best.test = test;
            best.p = p;
        }
    };
    let t_of = |limit: u64| {
        let mut acc = [Acc::default(); 2];
        for &(c, class) in samples {
            if c <= limit {
                acc[class].push(c as f64);
            }
        }
        (welch(&acc[0], &acc[1]), acc)
    };
    let (raw, acc) = t_of(u64::MAX);
    best.diff = acc[1].mean - acc[0].mean;
    consider(raw, "raw", 1.0);
    for k in 0..CROPS {
        let p = 1.0 - 0.5f64.powf(10.0 * (k + 1) as f64 / CROPS as f64);
        let limit = sorted[((sorted.len() - 1) as f64 * p) as usize];
        consider(t_of(limit).0, "crop", p);
    }
    // Second order: the squared distance to the class mean, per class.
    let mut second = [Acc::default(); 2];
    for &(c, class) in samples {
        let d = c as f64 - acc[class].mean;
        second[class].push(d * d);
    }
    consider(welch(&second[0], &second[1]), "2nd order", 1.0);
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_distribution_is_quiet_and_a_shift_is_loud() {
        let mut rng = Rng::new(1);
        let noise = |rng: &mut Rng| 1000 + rng.next_u64() % 50;
        let same: Vec<(u64, usize)> = (0..20_000)
            .map(|_| {
                let class = (rng.next_u64() & 1) as usize;
                (noise(&mut rng), class)
            })
            .collect();
        assert!(analyse(&same).t < 4.5, "{:?}", analyse(&same));
        let shifted: Vec<(u64, usize)> = (0..20_000)
            .map(|_| {
                let class = (rng.next_u64() & 1) as usize;
                (noise(&mut rng) + 3 * class as u64, class)
            })
            .collect();
        assert!(analyse(&shifted).t > 10.0);
    }
}
