//! The text `speed` prints, in `openssl speed`'s format: the progress lines and the
//! tables of throughput, ratios and cycles per byte.

use std::fmt::Write as _;

use crate::machine::Machine;
use crate::results::Results;

/// `openssl speed` pads names to 13 columns (`%-13s`); longer labels widen the
/// first column of the whole table so the numbers stay aligned.
const NAME_WIDTH: usize = 13;

/// The `-seconds` value the way `openssl speed` writes it (`3s`, or `0.3s`).
pub fn seconds(secs: f64) -> String {
    format!("{secs}s")
}

/// The progress line printed after each measurement (on stderr), e.g.
/// `Doing md5 for 3s on 16 size blocks: 12345678 md5's in 3.00s`.
pub fn doing(label: &str, alg: &str, budget: f64, size: usize, ops: u64, secs: f64) -> String {
    format!(
        "Doing {label} for {} on {size} size blocks: {ops} {alg}'s in {secs:.2}s",
        seconds(budget)
    )
}

/// A duration for people: `42s`, `3m05s`, `1h02m`.
pub fn duration(secs: f64) -> String {
    let secs = secs.max(0.0).round() as u64;
    match secs {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m{:02}s", s / 60, s % 60),
        s => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// What a run is about to do and about how long it will take (on stderr, before it
/// starts).
pub fn plan(algs: usize, sizes: usize, seconds: f64, estimate: f64) -> String {
    format!(
        "speed: {algs} algorithm(s) x {sizes} size(s) x {} per implementation: about {} \
         (progress on stderr; `speed --help` names a shorter run)",
        self::seconds(seconds),
        duration(estimate)
    )
}

/// The progress line after each algorithm (on stderr): how far the run is and about how
/// long is left.
pub fn progress(done: usize, total: usize, alg: &str, elapsed: f64, left: f64) -> String {
    format!(
        "speed: [{done}/{total}] {alg} done, {} elapsed, about {} left",
        duration(elapsed),
        duration(left)
    )
}

/// The lines before the tables, like `openssl speed`'s version and CPU lines.
pub fn header(machine: &Machine, seconds: f64, slice_ms: f64) -> String {
    let mut out = format!("version: simdcrypt speed {}\n", env!("CARGO_PKG_VERSION"));
    if let Some(openssl) = &machine.openssl {
        let _ = writeln!(out, "peer: {openssl}");
    }
    let _ = writeln!(
        out,
        "cpu: {} ({}, {} logical CPUs)",
        machine.cpu_model, machine.arch, machine.logical_cpus
    );
    let _ = writeln!(out, "features: {}", machine.features.join(" "));
    let _ = writeln!(
        out,
        "timing: {}, {} per implementation and size, interleaved in {slice_ms:.0} ms turns",
        crate::measure::clock::NAME,
        self::seconds(seconds)
    );
    out
}

/// A table in `openssl speed`'s layout: a `type` header of sizes, then one
/// labelled row of 13-column cells per entry. Trailing blanks are trimmed.
fn table(sizes: &[usize], rows: &[(String, Vec<String>)]) -> String {
    let width = rows
        .iter()
        .map(|(label, _)| label.len())
        .max()
        .unwrap_or(0)
        .max(NAME_WIDTH);
    let mut out = format!("{:<w$}", "type", w = width - 1);
    for size in sizes {
        let _ = write!(out, "{size:>7} bytes");
    }
    out.push('\n');
    for (label, cells) in rows {
        let line = format!("{label:<width$}{}", cells.concat());
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A throughput cell: thousands of bytes per second with a `k`, as `openssl speed`
/// prints them (and plain bytes per second at 10000 or below).
fn kilobytes(bytes_per_sec: f64) -> String {
    if bytes_per_sec > 10000.0 {
        format!(" {:11.2}k", bytes_per_sec / 1e3)
    } else {
        format!(" {bytes_per_sec:11.2} ")
    }
}

/// A cell for a number that may be missing.
fn cell(value: Option<f64>, suffix: char) -> String {
    match value {
        Some(v) => format!(" {v:11.2}{suffix}"),
        None => format!(" {:>11} ", "n/a"),
    }
}

/// The `openssl speed` table: one row per implementation.
pub fn throughput_table(results: &Results) -> String {
    let rows: Vec<(String, Vec<String>)> = results
        .rows
        .iter()
        .map(|row| {
            (
                row.label(),
                row.points
                    .iter()
                    .map(|p| kilobytes(p.bytes_per_sec()))
                    .collect(),
            )
        })
        .collect();
    format!(
        "The 'numbers' are in 1000s of bytes per second processed.\n{}",
        table(&results.sizes, &rows)
    )
}

/// Ours ÷ each peer, one row per algorithm and peer (empty without peers).
pub fn ratio_table(results: &Results) -> String {
    let rows: Vec<(String, Vec<String>)> = results
        .ratios()
        .iter()
        .map(|r| (r.label(), r.values.iter().map(|v| cell(*v, 'x')).collect()))
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    format!(
        "The 'numbers' are simdcrypt's throughput divided by the peer's \
         (above 1.00x simdcrypt is faster).\n{}",
        table(&results.sizes, &rows)
    )
}

/// Median TSC cycles per byte, one row per implementation (empty if not counted).
pub fn cycles_table(results: &Results, samples: usize) -> String {
    if !results.has_cycles() {
        return String::new();
    }
    let rows: Vec<(String, Vec<String>)> = results
        .rows
        .iter()
        .map(|row| {
            (
                row.label(),
                row.points
                    .iter()
                    .map(|p| cell(p.cycles_per_byte, ' '))
                    .collect(),
            )
        })
        .collect();
    format!(
        "The 'numbers' are TSC cycles per byte (median of {samples} samples; lower is better).\n{}",
        table(&results.sizes, &rows)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::tests::{point, sample};
    use crate::results::{Row, Source};

    /// `openssl speed -seconds 1 md5` from OpenSSL 3.0.19 (stdout).
    const OPENSSL_MD5: &str = "\
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
md5              68656.52k   182535.17k   384976.42k   516402.07k   591741.47k   602950.03k
";

    #[test]
    fn matches_openssl_speed_byte_for_byte() {
        let sizes = vec![16, 64, 256, 1024, 8192, 16384];
        let kbps = [
            68656.52, 182535.17, 384976.42, 516402.07, 591741.47, 602950.03,
        ];
        let points = sizes
            .iter()
            .zip(kbps)
            .map(|(&size, k)| point(size, k, None))
            .collect();
        let results = Results {
            sizes,
            rows: vec![Row {
                alg: "md5",
                source: Source::Ours,
                points,
            }],
        };
        assert_eq!(throughput_table(&results), OPENSSL_MD5);
        assert_eq!(ratio_table(&results), "");
        assert_eq!(cycles_table(&results, 255), "");
    }

    #[test]
    fn small_numbers_have_no_k() {
        assert_eq!(kilobytes(10000.0), "    10000.00 ");
        assert_eq!(kilobytes(10001.0), "       10.00k");
    }

    #[test]
    fn long_labels_widen_the_name_column() {
        let results = sample();
        let expected = "\
The 'numbers' are in 1000s of bytes per second processed.
type                16 bytes   8192 bytes
md5                100000.00k   600000.00k
md5 (RustCrypto)    80000.00k   400000.00k
md5 (OpenSSL)      125000.00k   600000.00k
rc4                300000.00k   900000.00k
rc4 (RustCrypto)   150000.00k   300000.00k
";
        assert_eq!(throughput_table(&results), expected);
    }

    #[test]
    fn ratio_and_cycles_tables() {
        let results = sample();
        let expected = "\
The 'numbers' are simdcrypt's throughput divided by the peer's (above 1.00x simdcrypt is faster).
type                 16 bytes   8192 bytes
md5 vs RustCrypto        1.25x        1.50x
md5 vs OpenSSL           0.80x        1.00x
rc4 vs RustCrypto        2.00x        3.00x
";
        assert_eq!(ratio_table(&results), expected);
        let cycles = cycles_table(&results, 255);
        assert!(cycles.starts_with("The 'numbers' are TSC cycles per byte (median of 255 samples"));
        assert!(
            cycles.contains("\nmd5 (OpenSSL)           4.00         1.50\n"),
            "{cycles}"
        );
    }

    #[test]
    fn durations_and_progress() {
        assert_eq!(duration(0.4), "0s");
        assert_eq!(duration(42.0), "42s");
        assert_eq!(duration(185.0), "3m05s");
        assert_eq!(duration(3720.0), "1h02m");
        assert_eq!(duration(-1.0), "0s");
        assert_eq!(
            progress(3, 51, "sha1", 65.0, 1030.0),
            "speed: [3/51] sha1 done, 1m05s elapsed, about 17m10s left"
        );
        assert!(plan(51, 6, 3.0, 1080.0).starts_with(
            "speed: 51 algorithm(s) x 6 size(s) x 3s per implementation: about 18m00s"
        ));
    }

    #[test]
    fn progress_line() {
        assert_eq!(
            doing("md5", "md5", 3.0, 16, 12345678, 3.0),
            "Doing md5 for 3s on 16 size blocks: 12345678 md5's in 3.00s"
        );
        assert_eq!(
            doing("rc4 (OpenSSL)", "rc4", 0.3, 64, 5, 0.301),
            "Doing rc4 (OpenSSL) for 0.3s on 64 size blocks: 5 rc4's in 0.30s"
        );
    }
}
