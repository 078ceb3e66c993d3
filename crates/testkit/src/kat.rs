//! Readable known-answer files (`tests/data/*.txt`).
//!
//! The format is the one of NIST's CAVP `.rsp` files, so those can be used as they
//! are, plus quoted strings for text messages:
//!
//! ```text
//! # Source: RFC 1321, appendix A.5        <- comments start with '#'
//! [MD5]                                   <- an optional section header
//! msg = "abc"                             <- a quoted string (\" \\ \n \t \xNN escapes)
//! md = 900150983cd24fb0d6963f7d28e17f72   <- hex (upper or lower case, may be empty)
//!
//! msg = "a" * 1000000                     <- a quoted string repeated N times
//! md = 7707d6ae4e027c70eea2a935c2296f21
//! ```
//!
//! A record is a run of `name = value` lines; a blank line or a section header ends
//! it. Every error names the line it comes from.

use std::fmt;

/// One record: its `name = value` fields, the section it is in, and its first line.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The last `[section]` header above the record, if any.
    pub section: Option<String>,
    /// The 1-based line the record starts on.
    pub line: usize,
    fields: Vec<(String, String)>,
}

impl Record {
    /// The raw text of field `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the record has field `name`.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn field(&self, name: &str) -> &str {
        self.get(name)
            .unwrap_or_else(|| panic!("KAT record at line {} has no field `{name}`", self.line))
    }

    /// Field `name` as bytes: hex digits, or a quoted string (optionally `* N`).
    pub fn bytes(&self, name: &str) -> Vec<u8> {
        decode(self.field(name))
            .unwrap_or_else(|e| panic!("KAT record at line {}, field `{name}`: {e}", self.line))
    }

    /// Field `name` as a decimal number.
    pub fn number(&self, name: &str) -> u64 {
        let v = self.field(name);
        v.parse().unwrap_or_else(|_| {
            panic!(
                "KAT record at line {}: `{name} = {v}` is not a number",
                self.line
            )
        })
    }
}

/// Why a value does not decode.
#[derive(Debug, PartialEq)]
pub struct DecodeError(String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Decodes a value: hex, `"text"` or `"text" * N`.
pub fn decode(v: &str) -> Result<Vec<u8>, DecodeError> {
    let v = v.trim();
    if let Some(rest) = v.strip_prefix('"') {
        let (text, tail) = unquote(rest)?;
        let tail = tail.trim();
        if tail.is_empty() {
            return Ok(text);
        }
        let n = tail
            .strip_prefix('*')
            .and_then(|n| n.trim().parse::<usize>().ok())
            .ok_or_else(|| {
                DecodeError(format!("after the string, expected `* N`, found `{tail}`"))
            })?;
        return Ok(text.repeat(n));
    }
    if !v.len().is_multiple_of(2) {
        return Err(DecodeError(format!("odd number of hex digits in `{v}`")));
    }
    (0..v.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&v[i..i + 2], 16)
                .map_err(|_| DecodeError(format!("`{}` is not hex", &v[i..i + 2])))
        })
        .collect()
}

/// Reads a quoted string up to its closing quote; returns it and what follows.
fn unquote(s: &str) -> Result<(Vec<u8>, &str), DecodeError> {
    let mut out = Vec::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &s[i + 1..])),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('n') => out.push(b'\n'),
                Some('t') => out.push(b'\t'),
                Some('0') => out.push(0),
                Some('\\') => out.push(b'\\'),
                Some('"') => out.push(b'"'),
                Some('x') => {
                    let hex: String = (0..2)
                        .filter_map(|_| chars.next().map(|(_, c)| c))
                        .collect();
                    let b = u8::from_str_radix(&hex, 16)
                        .map_err(|_| DecodeError(format!("bad escape \\x{hex}")))?;
                    out.push(b);
                }
                other => return Err(DecodeError(format!("unknown escape \\{other:?}"))),
            },
            c => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    Err(DecodeError("string has no closing quote".into()))
}

/// Parses a KAT file into its records.
///
/// # Panics
/// On a line that is neither a comment, a section header, blank, nor `name = value`.
pub fn parse(text: &str) -> Vec<Record> {
    let mut records = Vec::new();
    let mut section = None;
    let mut current: Option<Record> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() || line.starts_with('[') {
            records.extend(current.take());
            if let Some(s) = line.strip_prefix('[') {
                let s = s
                    .strip_suffix(']')
                    .unwrap_or_else(|| panic!("line {}: unclosed `[`", n + 1));
                section = Some(s.to_string());
            }
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("line {}: expected `name = value`, found `{line}`", n + 1));
        let rec = current.get_or_insert_with(|| Record {
            section: section.clone(),
            line: n + 1,
            fields: Vec::new(),
        });
        rec.fields
            .push((k.trim().to_string(), v.trim().to_string()));
    }
    records.extend(current);
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# Source: somewhere\n\
        [ENCRYPT]\n\
        COUNT = 0\n\
        KEY = 00ff\n\
        PLAINTEXT = \n\
        \n\
        msg = \"a\\\"b\\x41\" * 2\n\
        md = AB\n\
        [DECRYPT]\n\
        COUNT = 1\n";

    #[test]
    fn parses_sections_records_and_values() {
        let r = parse(SAMPLE);
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].section.as_deref(), Some("ENCRYPT"));
        assert_eq!(r[0].line, 3);
        assert_eq!(r[0].number("count"), 0);
        assert_eq!(r[0].bytes("KEY"), vec![0, 0xff]);
        assert_eq!(r[0].bytes("PLAINTEXT"), Vec::<u8>::new());
        assert_eq!(r[1].bytes("msg"), b"a\"bAa\"bA".to_vec());
        assert_eq!(r[1].bytes("md"), vec![0xab]);
        assert_eq!(r[2].section.as_deref(), Some("DECRYPT"));
        assert!(!r[2].has("KEY"));
    }

    #[test]
    fn bad_values_are_errors() {
        assert!(decode("abc").is_err());
        assert!(decode("zz").is_err());
        assert!(decode("\"open").is_err());
        assert!(decode("\"x\" * many").is_err());
        assert_eq!(decode("\"\\0\\n\\t\\\\\"").unwrap(), b"\0\n\t\\".to_vec());
    }

    #[test]
    #[should_panic(expected = "line 2")]
    fn a_line_without_equals_names_its_line() {
        parse("a = 1\nnonsense\n");
    }
}
