//! What every JSON file of the speed tools records about its run, so that a table made
//! from it can say where, when and how it was measured (`cargo xtask figures` stamps
//! each README table with these): JSON literals, the machine object, the UTC date and
//! the command that reproduces the run.
//!
//! Shared by `speed` (through [`crate::json`]) and the `des-table` binary (which
//! includes this file and `machine.rs` with `#[path]`).

use std::fmt::Write as _;

use crate::machine::Machine;

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number, or `null` for a missing or non-finite value.
pub fn number(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => "null".to_owned(),
    }
}

/// The machine as a JSON object.
pub fn machine_object(machine: &Machine) -> String {
    let features: Vec<String> = machine.features.iter().map(|f| string(f)).collect();
    format!(
        "{{\"arch\": {}, \"os\": {}, \"cpu_vendor\": {}, \"cpu_model\": {}, \
         \"logical_cpus\": {}, \"features\": [{}], \"openssl\": {}}}",
        string(machine.arch),
        string(machine.os),
        string(&machine.cpu_vendor),
        string(&machine.cpu_model),
        machine.logical_cpus,
        features.join(", "),
        machine.openssl.as_deref().map_or("null".to_owned(), string),
    )
}

/// The UTC date (`YYYY-MM-DD`) of `unix_secs` seconds after the epoch.
pub fn utc_date(unix_secs: u64) -> String {
    // Howard Hinnant's days-to-civil, for days since 1970-01-01.
    let z = (unix_secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Today's UTC date.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_date(secs)
}

/// A word as a POSIX shell reads it back: bare when it is safe, else single-quoted.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The command that reruns `bin` of this package with `args`:
/// `cargo run --release -p speed [--features openssl] [--bin BIN] [-- ARGS]`.
pub fn command(bin: &str, openssl: bool, args: &[String]) -> String {
    let mut out = String::from("cargo run --release -p speed");
    if openssl {
        out.push_str(" --features openssl");
    }
    if bin != "speed" {
        let _ = write!(out, " --bin {bin}");
    }
    if !args.is_empty() {
        out.push_str(" --");
        for arg in args {
            out.push(' ');
            out.push_str(&shell_word(arg));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_strings() {
        assert_eq!(string("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\u0001é\"");
        assert_eq!(number(Some(1.5)), "1.5");
        assert_eq!(number(Some(f64::INFINITY)), "null");
        assert_eq!(number(None), "null");
    }

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(utc_date(951_782_400), "2000-02-29");
        assert_eq!(utc_date(951_868_799), "2000-02-29");
        assert_eq!(utc_date(951_868_800), "2000-03-01");
        assert_eq!(utc_date(1_798_761_599), "2026-12-31");
        assert_eq!(utc_date(4_107_542_400), "2100-03-01");
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn commands() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(command("speed", false, &[]), "cargo run --release -p speed");
        assert_eq!(
            command(
                "speed",
                true,
                &args(&["-seconds", "0.3", "--json", "docs/figures/speed.json"])
            ),
            "cargo run --release -p speed --features openssl -- -seconds 0.3 --json \
             docs/figures/speed.json"
        );
        assert_eq!(
            command("des-table", true, &args(&["a b", "it's"])),
            "cargo run --release -p speed --features openssl --bin des-table -- 'a b' 'it'\\''s'"
        );
    }
}
