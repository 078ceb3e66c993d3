//! The numbers of one run and the arithmetic on them (throughput, ratios).

use crate::measure::Count;

/// Who wrote an implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// This workspace's crate.
    Ours,
    /// The RustCrypto crate ours replaces.
    RustCrypto,
    /// OpenSSL's libcrypto.
    OpenSsl,
}

impl Source {
    /// The lower-case identifier used in JSON.
    pub fn id(self) -> &'static str {
        match self {
            Source::Ours => "simdcrypt",
            Source::RustCrypto => "rustcrypto",
            Source::OpenSsl => "openssl",
        }
    }

    /// The name shown to people.
    pub fn name(self) -> &'static str {
        match self {
            Source::Ours => "simdcrypt",
            Source::RustCrypto => "RustCrypto",
            Source::OpenSsl => "OpenSSL",
        }
    }
}

/// One implementation measured at one buffer size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Bytes per operation.
    pub size: usize,
    /// Operations done, and the time they took.
    pub count: Count,
    /// Median TSC cycles per byte, if cycles were counted.
    pub cycles_per_byte: Option<f64>,
}

impl Point {
    /// Bytes processed per second (what `openssl speed` prints, in thousands).
    pub fn bytes_per_sec(&self) -> f64 {
        if self.count.secs > 0.0 {
            self.count.ops as f64 * self.size as f64 / self.count.secs
        } else {
            0.0
        }
    }
}

/// One implementation of one algorithm at every size of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The `openssl speed` name of the algorithm.
    pub alg: &'static str,
    /// Whose implementation.
    pub source: Source,
    /// One point per size, in the order of [`Results::sizes`].
    pub points: Vec<Point>,
}

impl Row {
    /// The table label: the bare algorithm name for ours, the peer in parentheses.
    pub fn label(&self) -> String {
        match self.source {
            Source::Ours => self.alg.to_owned(),
            peer => format!("{} ({})", self.alg, peer.name()),
        }
    }
}

/// Everything one run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// The buffer sizes, in bytes.
    pub sizes: Vec<usize>,
    /// Ours first, then the peers, algorithm by algorithm.
    pub rows: Vec<Row>,
}

/// How ours compares with one peer on one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratio {
    /// The algorithm.
    pub alg: &'static str,
    /// The peer ours is divided by.
    pub peer: Source,
    /// Ours ÷ peer in bytes per second, per size; `None` where the peer did nothing.
    pub values: Vec<Option<f64>>,
}

impl Ratio {
    /// The table label.
    pub fn label(&self) -> String {
        format!("{} vs {}", self.alg, self.peer.name())
    }
}

/// `ours ÷ peer`; above 1 ours is faster. `None` when the peer has no throughput.
pub fn ratio(ours: f64, peer: f64) -> Option<f64> {
    (peer > 0.0 && ours.is_finite() && peer.is_finite()).then(|| ours / peer)
}

impl Results {
    /// Ours against each peer, for every algorithm that has both.
    pub fn ratios(&self) -> Vec<Ratio> {
        let mut out = Vec::new();
        for ours in self.rows.iter().filter(|row| row.source == Source::Ours) {
            for peer in self
                .rows
                .iter()
                .filter(|row| row.alg == ours.alg && row.source != Source::Ours)
            {
                let values = ours
                    .points
                    .iter()
                    .zip(&peer.points)
                    .map(|(o, p)| ratio(o.bytes_per_sec(), p.bytes_per_sec()))
                    .collect();
                out.push(Ratio {
                    alg: ours.alg,
                    peer: peer.source,
                    values,
                });
            }
        }
        out
    }

    /// Whether any point has cycles per byte.
    pub fn has_cycles(&self) -> bool {
        self.rows
            .iter()
            .flat_map(|row| &row.points)
            .any(|p| p.cycles_per_byte.is_some())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A point doing exactly `kbps` thousand bytes per second at `size` bytes.
    pub(crate) fn point(size: usize, kbps: f64, cycles: Option<f64>) -> Point {
        let count = Count {
            ops: (kbps * 1000.0) as u64,
            secs: size as f64,
        };
        Point {
            size,
            count,
            cycles_per_byte: cycles,
        }
    }

    /// md5 and rc4, ours and RustCrypto, OpenSSL for md5 only, at two sizes.
    pub(crate) fn sample() -> Results {
        let row = |alg, source, kbps: [f64; 2]| Row {
            alg,
            source,
            points: vec![
                point(16, kbps[0], Some(4.0)),
                point(8192, kbps[1], Some(1.5)),
            ],
        };
        Results {
            sizes: vec![16, 8192],
            rows: vec![
                row("md5", Source::Ours, [100_000.0, 600_000.0]),
                row("md5", Source::RustCrypto, [80_000.0, 400_000.0]),
                row("md5", Source::OpenSsl, [125_000.0, 600_000.0]),
                row("rc4", Source::Ours, [300_000.0, 900_000.0]),
                row("rc4", Source::RustCrypto, [150_000.0, 300_000.0]),
            ],
        }
    }

    #[test]
    fn bytes_per_second() {
        let p = Point {
            size: 16,
            count: Count {
                ops: 3_000_000,
                secs: 3.0,
            },
            cycles_per_byte: None,
        };
        assert_eq!(p.bytes_per_sec(), 16_000_000.0);
        let idle = Point {
            count: Count { ops: 0, secs: 0.0 },
            ..p
        };
        assert_eq!(idle.bytes_per_sec(), 0.0);
    }

    #[test]
    fn ratio_math() {
        assert_eq!(ratio(3.0, 2.0), Some(1.5));
        assert_eq!(ratio(1.0, 4.0), Some(0.25));
        assert_eq!(ratio(1.0, 0.0), None);
        assert_eq!(ratio(f64::NAN, 1.0), None);
    }

    #[test]
    fn ratios_pair_ours_with_each_peer() {
        let ratios = sample().ratios();
        let got: Vec<(String, Vec<Option<f64>>)> = ratios
            .iter()
            .map(|r| (r.label(), r.values.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("md5 vs RustCrypto".to_owned(), vec![Some(1.25), Some(1.5)]),
                ("md5 vs OpenSSL".to_owned(), vec![Some(0.8), Some(1.0)]),
                ("rc4 vs RustCrypto".to_owned(), vec![Some(2.0), Some(3.0)]),
            ]
        );
    }

    #[test]
    fn labels() {
        let results = sample();
        let labels: Vec<String> = results.rows.iter().map(Row::label).collect();
        assert_eq!(
            labels,
            [
                "md5",
                "md5 (RustCrypto)",
                "md5 (OpenSSL)",
                "rc4",
                "rc4 (RustCrypto)"
            ]
        );
        assert!(results.has_cycles());
    }
}
