//! The two measurements: throughput over thread CPU time, and TSC cycles per byte.
//!
//! Throughput is timed, like `openssl speed`'s default user time, on a clock that
//! runs only while this thread does (see [`clock`]): on a busy machine the time
//! other processes take is not charged to whichever implementation was running.
//! Both measurements interleave the implementations of one algorithm: they take
//! turns in short slices (throughput) or single samples (cycles), the first turn
//! rotating each round, so frequency changes and noise from the rest of the machine
//! hit every implementation alike.

use std::hint::black_box;
use std::time::Duration;

use crate::registry::Runner;

/// A 64-byte-aligned buffer of `len` bytes with a fixed, non-zero pattern.
pub struct Buffer {
    storage: Vec<u8>,
    offset: usize,
    len: usize,
}

impl Buffer {
    /// A new buffer of `len` bytes, aligned to a cache line like `openssl speed`'s.
    pub fn new(len: usize) -> Buffer {
        let mut storage: Vec<u8> = (0..len + 63).map(|i| (i * 131 + 7) as u8).collect();
        let offset = storage.as_mut_ptr().align_offset(64);
        Buffer {
            storage,
            offset,
            len,
        }
    }

    /// The aligned bytes.
    pub fn bytes(&mut self) -> &mut [u8] {
        &mut self.storage[self.offset..self.offset + self.len]
    }
}

/// How many operations an implementation did, in how much time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count {
    /// Operations on one buffer (`md5's` in `openssl speed`).
    pub ops: u64,
    /// Seconds of [`clock`] time they took.
    pub secs: f64,
}

/// The length of one turn when each implementation runs for `seconds` in all:
/// long enough that switching costs nothing, short enough for many turns.
pub fn slice_len(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds / 20.0)
        .clamp(Duration::from_millis(1), Duration::from_millis(20))
}

/// Runs every runner on its own `size`-byte buffer for `seconds` of [`clock`] time
/// each, taking turns in slices of [`slice_len`]; one [`Count`] per runner.
pub fn throughput(runners: &mut [Box<dyn Runner>], size: usize, seconds: f64) -> Vec<Count> {
    let budget = Duration::from_secs_f64(seconds);
    let slice = slice_len(seconds);
    let mut bufs: Vec<Buffer> = runners.iter().map(|_| Buffer::new(size)).collect();
    // Operations per clock read: about an eighth of a slice, found by doubling (the
    // calibration runs double as warm-up and are not counted).
    let batches: Vec<u64> = runners
        .iter_mut()
        .zip(&mut bufs)
        .map(|(runner, buf)| {
            let mut batch = 1u64;
            loop {
                let start = clock::now();
                run_n(runner.as_mut(), buf.bytes(), batch);
                if clock::now() - start >= slice / 8 || batch >= 1 << 40 {
                    return batch;
                }
                batch *= 2;
            }
        })
        .collect();
    let mut spent = vec![Duration::ZERO; runners.len()];
    let mut ops = vec![0u64; runners.len()];
    let n = runners.len();
    for round in 0.. {
        if spent.iter().all(|s| *s >= budget) {
            break;
        }
        for k in 0..n {
            let i = (round + k) % n;
            if spent[i] >= budget {
                continue;
            }
            let turn = slice.min(budget - spent[i]);
            let start = clock::now();
            let mut now;
            loop {
                run_n(runners[i].as_mut(), bufs[i].bytes(), batches[i]);
                ops[i] += batches[i];
                now = clock::now();
                if now - start >= turn {
                    break;
                }
            }
            spent[i] += now - start;
        }
    }
    ops.iter()
        .zip(&spent)
        .map(|(&ops, t)| Count {
            ops,
            secs: t.as_secs_f64(),
        })
        .collect()
}

fn run_n(runner: &mut dyn Runner, buf: &mut [u8], n: u64) {
    for _ in 0..n {
        runner.run(buf);
    }
    black_box(buf);
}

/// Samples per implementation and size for cycles per byte.
pub const CYCLE_SAMPLES: usize = 255;

/// Each cycle sample times this many bytes at least (several operations on small
/// buffers), so that reading the counter is a small part of it.
const MIN_SAMPLE_BYTES: usize = 2048;

/// Median TSC cycles per byte of every runner on its own `size`-byte buffer, SUPERCOP
/// style: [`CYCLE_SAMPLES`] timings each, interleaved, the median kept and the cost of
/// reading the counter taken off. `None` where there is no cycle counter.
pub fn cycles_per_byte(runners: &mut [Box<dyn Runner>], size: usize) -> Option<Vec<f64>> {
    if !tsc::AVAILABLE {
        return None;
    }
    let mut bufs: Vec<Buffer> = runners.iter().map(|_| Buffer::new(size)).collect();
    let reps = MIN_SAMPLE_BYTES.div_ceil(size) as u64;
    let overhead = median(
        (0..CYCLE_SAMPLES)
            .map(|_| {
                let start = tsc::now();
                tsc::now().saturating_sub(start)
            })
            .collect(),
    );
    let n = runners.len();
    let mut samples = vec![Vec::with_capacity(CYCLE_SAMPLES); n];
    // Eight uncounted rounds warm caches and branch predictors.
    for round in 0..CYCLE_SAMPLES + 8 {
        for k in 0..n {
            let i = (round + k) % n;
            let start = tsc::now();
            run_n(runners[i].as_mut(), bufs[i].bytes(), reps);
            let cycles = tsc::now().saturating_sub(start);
            if round >= 8 {
                samples[i].push(cycles.saturating_sub(overhead));
            }
        }
    }
    let bytes = (reps as usize * size) as f64;
    Some(
        samples
            .into_iter()
            .map(|s| median(s) as f64 / bytes)
            .collect(),
    )
}

/// The median of `values` (the upper one of an even count).
pub fn median(mut values: Vec<u64>) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

/// The clock throughput is timed with.
pub mod clock {
    use std::time::Duration;

    /// What [`now`] measures, for the reports.
    #[cfg(target_os = "linux")]
    pub const NAME: &str = "thread CPU time";

    /// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, nanosecond resolution).
    #[cfg(target_os = "linux")]
    pub fn now() -> Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable `timespec` for the duration of the call.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }

    /// What [`now`] measures, for the reports.
    #[cfg(not(target_os = "linux"))]
    pub const NAME: &str = "wall clock";

    /// Wall-clock time since the first call.
    #[cfg(not(target_os = "linux"))]
    pub fn now() -> Duration {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed()
    }
}

/// The time-stamp counter, where there is one.
pub mod tsc {
    /// Whether [`now`] reads a cycle counter: only x86_64's RDTSC is supported.
    pub const AVAILABLE: bool = cfg!(target_arch = "x86_64");

    /// The TSC, fenced so the work being timed cannot move across the read.
    #[cfg(target_arch = "x86_64")]
    pub fn now() -> u64 {
        use core::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: LFENCE is part of SSE2, which every x86_64 CPU has; RDTSC exists on
        // every x86_64 CPU and only reads the counter.
        unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        }
    }

    /// Zero: there is no cycle counter to read on this architecture.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn now() -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// Counts its operations.
    struct Counting(Rc<Cell<u64>>);

    impl Runner for Counting {
        fn run(&mut self, buf: &mut [u8]) {
            self.0.set(self.0.get() + 1);
            buf[0] ^= 1;
        }
    }

    #[test]
    fn clock_advances_while_working() {
        let start = clock::now();
        let mut x = 0u64;
        while clock::now() - start < Duration::from_millis(2) {
            x = black_box(x + 1);
        }
        assert!(x > 0);
    }

    #[test]
    fn buffer_is_aligned() {
        for len in [1, 16, 100, 16384] {
            let mut buf = Buffer::new(len);
            assert_eq!(buf.bytes().len(), len);
            assert_eq!(buf.bytes().as_ptr() as usize % 64, 0);
        }
    }

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(vec![5, 1, 3]), 3);
        assert_eq!(median(vec![4, 1, 3, 2]), 3);
        assert_eq!(median(Vec::new()), 0);
    }

    #[test]
    fn slice_is_clamped() {
        assert_eq!(slice_len(3.0), Duration::from_millis(20));
        assert_eq!(slice_len(0.001), Duration::from_millis(1));
        assert_eq!(slice_len(0.1), Duration::from_millis(5));
    }

    #[test]
    fn throughput_counts_every_runner_for_its_budget() {
        let (a, b) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
        let mut runners: Vec<Box<dyn Runner>> =
            vec![Box::new(Counting(a.clone())), Box::new(Counting(b.clone()))];
        let counts = throughput(&mut runners, 16, 0.02);
        for (count, seen) in counts.iter().zip([&a, &b]) {
            assert!(count.ops > 0 && count.ops <= seen.get(), "{count:?}");
            assert!(count.secs >= 0.02 && count.secs < 0.5, "{count:?}");
        }
    }

    #[test]
    fn cycles_where_there_is_a_counter() {
        let cell = Rc::new(Cell::new(0));
        let mut runners: Vec<Box<dyn Runner>> = vec![Box::new(Counting(cell.clone()))];
        let cpb = cycles_per_byte(&mut runners, 64);
        if cfg!(target_arch = "x86_64") {
            let cpb = cpb.expect("x86_64 has a TSC");
            assert!(cpb[0].is_finite() && cpb[0] >= 0.0);
            assert_eq!(
                cell.get(),
                ((CYCLE_SAMPLES + 8) * MIN_SAMPLE_BYTES / 64) as u64
            );
        } else {
            assert!(cpb.is_none());
        }
    }
}
