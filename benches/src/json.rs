//! `--json FILE`: every number of the run, with the machine it ran on, for tools.
//!
//! Written by hand (no serde) in a fixed shape:
//! `{"tool", "version", "date", "command", "machine": {...}, "settings": {...}, "results": [...],
//! "ratios": [...]}`. `date` (UTC) and `command` (what reruns it) let `cargo xtask figures`
//! stamp the README tables made from the file; `machine` has the CPU's vendor and model.
//! Each result is one implementation at one size: `algorithm`, `implementation`
//! (`simdcrypt`, `rustcrypto`, `openssl`), `label`, `size`, `ops`, `seconds`,
//! `bytes_per_second` and `cycles_per_byte` (`null` unless counted).

use std::fmt::Write as _;

use crate::machine::Machine;
use crate::results::Results;
use crate::stamp::{machine_object, number, string};

/// What the run was asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Seconds per implementation and size.
    pub seconds: f64,
    /// Length of one interleaved turn, in milliseconds.
    pub slice_ms: f64,
    /// Whether peers were run.
    pub compare: bool,
    /// Cycle samples per implementation and size, if cycles were counted.
    pub cycle_samples: Option<usize>,
}

/// When and how the run was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Stamp {
    /// The UTC date, `YYYY-MM-DD`.
    pub date: String,
    /// The command that reruns it ([`crate::stamp::command`]).
    pub command: String,
}

/// The whole document.
pub fn render(results: &Results, machine: &Machine, settings: &Settings, stamp: &Stamp) -> String {
    let sizes: Vec<String> = results.sizes.iter().map(usize::to_string).collect();
    let mut out = String::from("{\n");
    let _ = writeln!(
        out,
        "  \"tool\": \"speed\",\n  \"version\": {},",
        string(env!("CARGO_PKG_VERSION"))
    );
    let _ = writeln!(
        out,
        "  \"date\": {},\n  \"command\": {},",
        string(&stamp.date),
        string(&stamp.command)
    );
    let _ = writeln!(out, "  \"machine\": {},", machine_object(machine));
    let _ = writeln!(
        out,
        "  \"settings\": {{\"seconds\": {}, \"sizes\": [{}], \"timer\": {}, \
         \"slice_ms\": {}, \"compare\": {}, \"cycle_samples\": {}, \"cycle_counter\": {}}},",
        number(Some(settings.seconds)),
        sizes.join(", "),
        string(crate::measure::clock::NAME),
        number(Some(settings.slice_ms)),
        settings.compare,
        settings
            .cycle_samples
            .map_or("null".to_owned(), |n| n.to_string()),
        settings.cycle_samples.map_or("null".to_owned(), |_| string(
            "x86_64 RDTSC (TSC ticks, not core clocks)"
        )),
    );
    let mut results_json = Vec::new();
    for row in &results.rows {
        for p in &row.points {
            results_json.push(format!(
                "    {{\"algorithm\": {}, \"implementation\": {}, \"label\": {}, \"size\": {}, \
                 \"ops\": {}, \"seconds\": {}, \"bytes_per_second\": {}, \"cycles_per_byte\": {}}}",
                string(row.alg),
                string(row.source.id()),
                string(&row.label()),
                p.size,
                p.count.ops,
                number(Some(p.count.secs)),
                number(Some(p.bytes_per_sec())),
                number(p.cycles_per_byte),
            ));
        }
    }
    let _ = writeln!(out, "  \"results\": [\n{}\n  ],", results_json.join(",\n"));
    let mut ratios_json = Vec::new();
    for r in results.ratios() {
        for (size, value) in results.sizes.iter().zip(&r.values) {
            ratios_json.push(format!(
                "    {{\"algorithm\": {}, \"peer\": {}, \"size\": {size}, \"ours_over_peer\": {}}}",
                string(r.alg),
                string(r.peer.id()),
                number(*value),
            ));
        }
    }
    let _ = writeln!(out, "  \"ratios\": [\n{}\n  ]\n}}", ratios_json.join(",\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::tests::sample;

    fn machine() -> Machine {
        Machine {
            arch: "x86_64",
            os: "linux",
            cpu_vendor: "GenuineIntel".to_owned(),
            cpu_model: "Test \"CPU\"\\1".to_owned(),
            logical_cpus: 2,
            features: vec!["sse2", "avx2"],
            openssl: None,
        }
    }

    #[test]
    fn document_has_every_result_and_ratio() {
        let settings = Settings {
            seconds: 0.5,
            slice_ms: 20.0,
            compare: true,
            cycle_samples: Some(255),
        };
        let stamp = Stamp {
            date: "2026-12-03".to_owned(),
            command: "cargo run --release -p speed -- -seconds 0.5".to_owned(),
        };
        let doc = render(&sample(), &machine(), &settings, &stamp);
        assert!(doc.contains("\"date\": \"2026-12-03\",\n  \"command\": \"cargo run"));
        assert!(doc.contains("\"cpu_vendor\": \"GenuineIntel\""));
        assert!(
            doc.contains("\"cpu_model\": \"Test \\\"CPU\\\"\\\\1\""),
            "{doc}"
        );
        assert!(doc.contains("\"features\": [\"sse2\", \"avx2\"]"));
        assert!(doc.contains("\"sizes\": [16, 8192]"));
        // 5 implementations × 2 sizes, 3 peer pairs × 2 sizes.
        assert_eq!(doc.matches("\"bytes_per_second\"").count(), 10);
        assert_eq!(doc.matches("\"ours_over_peer\"").count(), 6);
        assert!(doc.contains(
            "{\"algorithm\": \"md5\", \"implementation\": \"openssl\", \"label\": \"md5 (OpenSSL)\", \
             \"size\": 16, \"ops\": 125000000, \"seconds\": 16, \"bytes_per_second\": 125000000, \
             \"cycles_per_byte\": 4}"
        ), "{doc}");
        assert!(doc.contains(
            "{\"algorithm\": \"rc4\", \"peer\": \"rustcrypto\", \"size\": 8192, \
             \"ours_over_peer\": 3}"
        ));
        // Balanced brackets and braces outside strings: a cheap well-formedness check.
        let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
        for c in doc.chars() {
            match (in_string, escaped, c) {
                (true, true, _) => escaped = false,
                (true, false, '\\') => escaped = true,
                (_, false, '"') => in_string = !in_string,
                (false, _, '{' | '[') => depth += 1,
                (false, _, '}' | ']') => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0);
        }
        assert_eq!((depth, in_string), (0, false));
    }
}
