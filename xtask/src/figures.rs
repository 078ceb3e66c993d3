//! `cargo xtask figures`: the speed tables of the READMEs and `docs/speed.svg`, remade
//! from measurements by one command.
//!
//! Two runs make every figure (the [`SOURCES`]): `speed --compare --cycles` over every
//! algorithm, which writes `docs/figures/speed.json` and `docs/speed.svg`, and
//! `des-table`, which writes `docs/figures/des.json`. The JSON files are committed. Each
//! generated table in `README.md` and `crates/*/README.md` sits between
//!
//! ```text
//! <!-- figures:begin KIND [ARGS...] -->
//! <!-- figures:end -->
//! ```
//!
//! and is rendered from its JSON file by [`render`]: the table, then a stamp line with the
//! machine (CPU vendor and model), the date and the exact command of the run.
//!
//! - `cargo xtask figures` measures (both runs; a few minutes), then rewrites every block;
//! - `--no-measure` only rewrites the blocks from the committed JSON files;
//! - `--check` (and tidy, through [`problems`]) fails when a block differs from what its
//!   JSON renders or has no stamp, when a table in a `## Speed` section is neither
//!   generated nor labelled `<!-- figures:hand: WHY -->` (a table no command makes), and
//!   when `docs/speed.svg` is not from the run of `speed.json`. No measuring.
//!
//! Block kinds (all numbers come from the JSON, nothing is typed in):
//! - `speed-summary`: every algorithm of `speed.json`: ours in MB/s at each size, and
//!   ours ÷ each peer at 16 B, 64 B and 8 KiB;
//! - `speed-cycles SIZE ALG...`: TSC cycles per byte at SIZE of ours and the peers for
//!   each ALG, and ours against the faster peer;
//! - `des-table`: the rows of `des.json`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::util::{Cmd, Result, rel};

/// The `-seconds` of the `speed` run. `openssl speed`'s 3 s would take about 40 minutes
/// with the peers interleaved; 0.5 s takes about 7 minutes here, and the interleaving
/// keeps the ratios fair.
pub const SECONDS: &str = "0.5";

/// One run that writes a JSON file the blocks are made from.
pub struct Source {
    /// The name block kinds refer to it by.
    pub name: &'static str,
    /// The JSON file, relative to the root.
    pub json: &'static str,
    /// The arguments after `cargo run --release -p speed --features openssl`.
    pub args: fn() -> Vec<String>,
}

fn speed_args() -> Vec<String> {
    [
        "--",
        "-seconds",
        SECONDS,
        "--compare",
        "--cycles",
        "--json",
        "docs/figures/speed.json",
        "--plot",
        SVG,
    ]
    .map(String::from)
    .to_vec()
}

fn des_args() -> Vec<String> {
    [
        "--bin",
        "des-table",
        "--",
        "--json",
        "docs/figures/des.json",
    ]
    .map(String::from)
    .to_vec()
}

/// The runs, in the order `cargo xtask figures` makes them.
pub const SOURCES: [Source; 2] = [
    Source {
        name: "speed",
        json: "docs/figures/speed.json",
        args: speed_args,
    },
    Source {
        name: "des",
        json: "docs/figures/des.json",
        args: des_args,
    },
];

/// The plot `speed` writes in the same run as `speed.json`.
pub const SVG: &str = "docs/speed.svg";

const BEGIN: &str = "<!-- figures:begin ";
const END: &str = "<!-- figures:end -->";
const HAND: &str = "<!-- figures:hand";
/// How every stamp line starts.
const STAMP: &str = "Measured on ";

// ---------------------------------------------------------------------------------------
// A small JSON reader (the files are written by the speed tools; std only).

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// Parses a whole document.
    pub fn parse(text: &str) -> Result<Json> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("JSON: trailing text at byte {}", p.i));
        }
        Ok(v)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn num(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(items) => items,
            _ => &[],
        }
    }

    /// The string member `key`, or an error naming it.
    fn field(&self, key: &str) -> Result<&str> {
        self.get(key)
            .and_then(Json::str)
            .ok_or_else(|| format!("JSON: no string `{key}`"))
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T> {
        Err(format!("JSON: {what} at byte {}", self.i))
    }

    fn eat(&mut self, c: u8) -> Result {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            self.err(&format!("expected `{}`", c as char))
        }
    }

    fn value(&mut self) -> Result<Json> {
        self.ws();
        let rest = &self.s[self.i..];
        for (word, v) in [
            ("null", Json::Null),
            ("true", Json::Bool(true)),
            ("false", Json::Bool(false)),
        ] {
            if rest.starts_with(word.as_bytes()) {
                self.i += word.len();
                return Ok(v);
            }
        }
        match rest.first() {
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return self.err("expected `,` or `]`"),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    self.eat(b':')?;
                    members.push((key, self.value()?));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(members));
                        }
                        _ => return self.err("expected `,` or `}`"),
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self
                    .s
                    .get(self.i)
                    .is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c))
                {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                match text.parse() {
                    Ok(n) => Ok(Json::Num(n)),
                    Err(_) => self.err("bad number"),
                }
            }
            _ => self.err("expected a value"),
        }
    }

    fn string(&mut self) -> Result<String> {
        if self.s.get(self.i) != Some(&b'"') {
            return self.err("expected a string");
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.s.get(self.i) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).or_else(|_| self.err("bad UTF-8"));
                }
                Some(b'\\') => {
                    let c = match self.s.get(self.i + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(b'r') => '\r',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'u') => {
                            let hex = self.s.get(self.i + 2..self.i + 6).unwrap_or(b"");
                            let code = std::str::from_utf8(hex)
                                .ok()
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .and_then(char::from_u32);
                            let Some(c) = code else {
                                return self.err("bad \\u escape");
                            };
                            self.i += 4;
                            c
                        }
                        _ => return self.err("bad escape"),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    self.i += 2;
                }
                Some(&c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rendering.

/// A number with two decimals below 10, one below 100, none above.
fn num(v: f64) -> String {
    match v.abs() {
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// A ratio cell: `1.23×`.
fn times(v: f64) -> String {
    format!("{v:.2}×")
}

/// A size in a header: `16 B`, `8 KiB`.
fn size_name(size: usize) -> String {
    if size >= 1024 && size.is_multiple_of(1024) {
        format!("{} KiB", size / 1024)
    } else {
        format!("{size} B")
    }
}

/// A markdown table.
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let mut out = line(header);
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// The stamp line of a table made from `doc`: machine, date and command.
fn stamp(doc: &Json) -> Result<String> {
    let machine = doc.get("machine").ok_or("JSON: no `machine`")?;
    let mut cpu = format!(
        "{} {} ({}, {} logical CPUs",
        machine.field("cpu_vendor")?,
        machine.field("cpu_model")?,
        machine.field("arch")?,
        machine
            .get("logical_cpus")
            .and_then(Json::num)
            .unwrap_or(0.0)
    );
    if let Some(openssl) = machine.get("openssl").and_then(Json::str) {
        let _ = write!(cpu, "; {openssl}");
    }
    cpu.push(')');
    let seconds = doc
        .get("settings")
        .and_then(|s| s.get("seconds"))
        .and_then(Json::num)
        .map_or(String::new(), |s| {
            format!(", {s} s per implementation and size (`openssl speed`: 3 s)")
        });
    Ok(format!(
        "{STAMP}{cpu}, {} (UTC){seconds}, by `cargo xtask figures`: `{}`",
        doc.field("date")?,
        doc.field("command")?
    ))
}

/// One measured point of `speed.json`.
struct Point<'a> {
    alg: &'a str,
    imp: &'a str,
    size: usize,
    bytes_per_second: Option<f64>,
    cycles_per_byte: Option<f64>,
}

fn points(doc: &Json) -> Vec<Point<'_>> {
    doc.get("results")
        .map(Json::arr)
        .unwrap_or_default()
        .iter()
        .filter_map(|r| {
            Some(Point {
                alg: r.get("algorithm")?.str()?,
                imp: r.get("implementation")?.str()?,
                size: r.get("size")?.num()? as usize,
                bytes_per_second: r.get("bytes_per_second").and_then(Json::num),
                cycles_per_byte: r.get("cycles_per_byte").and_then(Json::num),
            })
        })
        .collect()
}

const PEERS: [(&str, &str); 2] = [("rustcrypto", "RustCrypto"), ("openssl", "OpenSSL")];

/// `speed-summary`: every algorithm, ours in MB/s per size, ours ÷ each peer.
fn speed_summary(doc: &Json) -> Result<String> {
    let pts = points(doc);
    let sizes: Vec<usize> = doc
        .get("settings")
        .and_then(|s| s.get("sizes"))
        .map(Json::arr)
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s.num().map(|n| n as usize))
        .collect();
    // Small messages count as much as bulk: 16 and 64 B beside 8 KiB.
    let shown: Vec<usize> = [16, 64, 8192]
        .into_iter()
        .filter(|s| sizes.contains(s))
        .collect();
    let (sizes, ratio_sizes) = match shown.is_empty() {
        true => (sizes.clone(), sizes),
        false => (shown.clone(), shown),
    };
    let peers: Vec<(&str, &str)> = PEERS
        .into_iter()
        .filter(|(id, _)| pts.iter().any(|p| p.imp == *id))
        .collect();
    let mut header = vec!["algorithm".to_owned()];
    header.extend(sizes.iter().map(|s| format!("MB/s {}", size_name(*s))));
    for (_, peer) in &peers {
        header.extend(
            ratio_sizes
                .iter()
                .map(|s| format!("÷ {peer} {}", size_name(*s))),
        );
    }
    let bps = |alg: &str, imp: &str, size: usize| {
        pts.iter()
            .find(|p| p.alg == alg && p.imp == imp && p.size == size)
            .and_then(|p| p.bytes_per_second)
    };
    let mut algs: Vec<&str> = Vec::new();
    for p in &pts {
        if !algs.contains(&p.alg) {
            algs.push(p.alg);
        }
    }
    let rows: Vec<Vec<String>> = algs
        .iter()
        .map(|alg| {
            let mut row = vec![alg.to_string()];
            row.extend(
                sizes
                    .iter()
                    .map(|s| bps(alg, "simdcrypt", *s).map_or("–".to_owned(), |v| num(v / 1e6))),
            );
            for (id, _) in &peers {
                row.extend(ratio_sizes.iter().map(|s| {
                    match (bps(alg, "simdcrypt", *s), bps(alg, id, *s)) {
                        (Some(ours), Some(peer)) if peer > 0.0 => times(ours / peer),
                        _ => "–".to_owned(),
                    }
                }));
            }
            row
        })
        .collect();
    if rows.is_empty() {
        return Err("speed.json has no results".into());
    }
    Ok(table(&header, &rows))
}

/// `speed-cycles SIZE ALG...`: TSC cycles per byte at SIZE, ours against the peers.
fn speed_cycles(doc: &Json, args: &[&str]) -> Result<String> {
    let (size, algs) = args
        .split_first()
        .ok_or("speed-cycles needs SIZE and algorithms")?;
    let size: usize = size
        .parse()
        .map_err(|_| format!("speed-cycles: `{size}` is not a size"))?;
    if algs.is_empty() {
        return Err("speed-cycles needs algorithms".into());
    }
    let pts = points(doc);
    let cpb = |alg: &str, imp: &str| {
        pts.iter()
            .find(|p| p.alg == alg && p.imp == imp && p.size == size)
            .and_then(|p| p.cycles_per_byte)
    };
    let header = [
        format!("{}, TSC cycles/byte", size_name(size)),
        "ours".into(),
        "RustCrypto".into(),
        "OpenSSL".into(),
        "ours vs faster peer".into(),
    ];
    let mut rows = Vec::new();
    for alg in algs {
        let ours =
            cpb(alg, "simdcrypt").ok_or_else(|| format!("speed.json has no {alg} at {size}"))?;
        let peers: Vec<Option<f64>> = PEERS.iter().map(|(id, _)| cpb(alg, id)).collect();
        let best = peers
            .iter()
            .flatten()
            .copied()
            .fold(f64::INFINITY, f64::min);
        let mut row = vec![alg.to_string(), num(ours)];
        row.extend(peers.iter().map(|p| p.map_or("–".to_owned(), num)));
        row.push(if best.is_finite() && ours > 0.0 {
            times(best / ours)
        } else {
            "–".to_owned()
        });
        rows.push(row);
    }
    Ok(table(&header, &rows))
}

/// `des-table`: the rows of `des.json`.
fn des_table(doc: &Json) -> Result<String> {
    let header = [
        "TSC cycles/byte".to_owned(),
        "ours".into(),
        "des 0.9.0".into(),
        "OpenSSL 3".into(),
        "ours vs faster peer".into(),
    ];
    let mut rows = Vec::new();
    for r in doc.get("rows").map(Json::arr).unwrap_or_default() {
        let label = r.field("label")?;
        let [ours, theirs, ossl] = ["ours", "rustcrypto", "openssl"]
            .map(|k| r.get(k).and_then(Json::num).unwrap_or(f64::NAN));
        let bytes = r.get("bytes").and_then(Json::num).unwrap_or(0.0);
        let label = if bytes < 64.0 {
            format!("{label} (per byte of the block)")
        } else {
            label.to_owned()
        };
        rows.push(vec![
            label,
            num(ours),
            num(theirs),
            num(ossl),
            times(theirs.min(ossl) / ours),
        ]);
    }
    if rows.is_empty() {
        return Err("des.json has no rows".into());
    }
    Ok(table(&header, &rows))
}

/// Which source a block kind is made from.
fn source_of(kind: &str) -> Option<&'static Source> {
    let name = match kind {
        "speed-summary" | "speed-cycles" => "speed",
        "des-table" => "des",
        _ => return None,
    };
    SOURCES.iter().find(|s| s.name == name)
}

/// The body of block `spec` (`KIND ARGS...`) from its source's document: a blank line, the
/// table, a blank line, the stamp, a blank line.
pub fn render(spec: &str, doc: &Json) -> Result<String> {
    let words: Vec<&str> = spec.split_whitespace().collect();
    let (kind, args) = words.split_first().ok_or("empty figures block name")?;
    let table = match *kind {
        "speed-summary" if args.is_empty() => speed_summary(doc)?,
        "speed-cycles" => speed_cycles(doc, args)?,
        "des-table" if args.is_empty() => des_table(doc)?,
        _ => return Err(format!("unknown figures block `{spec}`")),
    };
    Ok(format!("\n{table}\n{}\n\n", stamp(doc)?))
}

// ---------------------------------------------------------------------------------------
// The READMEs.

/// A figures block in a file: its spec, the 1-based line of its begin marker, and the
/// byte range of its body (between the marker lines).
struct Block {
    spec: String,
    line: usize,
    body: std::ops::Range<usize>,
}

/// The blocks of `text`, or the line and message of a broken marker.
fn blocks(text: &str) -> std::result::Result<Vec<Block>, (usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, usize)> = None;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(BEGIN) {
            if open.is_some() {
                return Err((i + 1, "figures:begin inside a figures block".into()));
            }
            let spec = rest.strip_suffix("-->").unwrap_or(rest).trim().to_owned();
            open = Some((spec, i + 1, offset + line.len()));
        } else if t == END {
            let Some((spec, line_no, start)) = open.take() else {
                return Err((i + 1, "figures:end without figures:begin".into()));
            };
            out.push(Block {
                spec,
                line: line_no,
                body: start..offset,
            });
        }
        offset += line.len();
    }
    match open {
        Some((_, line, _)) => Err((line, "figures:begin without figures:end".into())),
        None => Ok(out),
    }
}

/// The READMEs that may hold figures: the workspace's and every crate's.
fn readmes(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    if let Ok(dirs) = fs::read_dir(root.join("crates")) {
        let mut crates: Vec<PathBuf> = dirs
            .flatten()
            .map(|d| d.path().join("README.md"))
            .filter(|p| p.is_file())
            .collect();
        crates.sort();
        out.extend(crates);
    }
    out.retain(|p| p.is_file());
    out
}

/// The documents of the sources that exist under `root`, by source name.
fn documents(root: &Path) -> Vec<(&'static str, Result<Json>)> {
    SOURCES
        .iter()
        .map(|s| {
            let path = root.join(s.json);
            let doc = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", s.json))
                .and_then(|t| Json::parse(&t).map_err(|e| format!("{}: {e}", s.json)));
            (s.name, doc)
        })
        .collect()
}

/// Renders block `spec` from the loaded documents.
fn render_from(spec: &str, docs: &[(&str, Result<Json>)]) -> Result<String> {
    let kind = spec.split_whitespace().next().unwrap_or("");
    let source = source_of(kind).ok_or_else(|| format!("unknown figures block `{spec}`"))?;
    let (_, doc) = docs
        .iter()
        .find(|(name, _)| *name == source.name)
        .ok_or("no document")?;
    render(spec, doc.as_ref().map_err(Clone::clone)?)
}

/// `text` with every block's body rendered anew.
fn rewrite(text: &str, docs: &[(&str, Result<Json>)]) -> Result<String> {
    let blocks = blocks(text).map_err(|(line, msg)| format!("line {line}: {msg}"))?;
    let mut out = String::new();
    let mut last = 0;
    for b in &blocks {
        out.push_str(&text[last..b.body.start]);
        out.push_str(&render_from(&b.spec, docs).map_err(|e| format!("line {}: {e}", b.line))?);
        last = b.body.end;
    }
    out.push_str(&text[last..]);
    Ok(out)
}

/// The 1-based lines of `## Speed` sections (up to the next `## ` heading).
fn speed_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            inside = line.trim() == "## Speed";
        } else if inside {
            out.push((i + 1, line));
        }
    }
    out
}

/// A block's spec for messages: its kind and first argument.
fn short(spec: &str) -> String {
    let words: Vec<&str> = spec.split_whitespace().collect();
    match words.len() {
        0..=3 => words.join(" "),
        _ => format!("{} …", words[..3].join(" ")),
    }
}

/// Everything wrong with the figures of one README (`text`): `(line, message)`.
fn file_problems(text: &str, docs: &[(&str, Result<Json>)]) -> Vec<(usize, String)> {
    let blocks = match blocks(text) {
        Ok(b) => b,
        Err(e) => return vec![e],
    };
    let mut out = Vec::new();
    for b in &blocks {
        let body = &text[b.body.clone()];
        if !body.lines().any(|l| l.starts_with(STAMP)) {
            out.push((
                b.line,
                format!(
                    "figures table `{}` has no stamp (machine, date, command); run `cargo xtask figures --no-measure`",
                    short(&b.spec)
                ),
            ));
            continue;
        }
        match render_from(&b.spec, docs) {
            Ok(fresh) if fresh == body => {}
            Ok(_) => out.push((
                b.line,
                format!(
                    "figures table `{}` differs from what its JSON renders; run `cargo xtask figures --no-measure` (or measure anew)",
                    short(&b.spec)
                ),
            )),
            Err(e) => out.push((b.line, format!("figures table `{}`: {e}", b.spec))),
        }
    }
    // Tables in the Speed sections that no block makes must say so.
    let in_block = |line: usize| {
        blocks.iter().any(|b| {
            let start = text[..b.body.start].lines().count();
            let end = text[..b.body.end].lines().count();
            line > start && line <= end
        })
    };
    let lines = speed_lines(text);
    let mut previous_table = false;
    for (k, &(no, line)) in lines.iter().enumerate() {
        let t = line.trim_start();
        let is_table = t.starts_with('|');
        if is_table && !previous_table && !in_block(no) {
            let labelled = lines[k.saturating_sub(4)..k]
                .iter()
                .any(|(_, l)| l.trim_start().starts_with(HAND));
            if !labelled {
                out.push((
                    no,
                    "table in a Speed section that `cargo xtask figures` does not make: put it in \
                     a figures block, or label it `<!-- figures:hand: WHY -->` and say so in the text"
                        .into(),
                ));
            }
        }
        if t.starts_with("The 'numbers' are") && !in_block(no) {
            out.push((
                no,
                "pasted `speed` output in a Speed section: use a figures block".into(),
            ));
        }
        previous_table = is_table;
    }
    out
}

/// Every figures problem under `root`: `(path, line, message)`. Cheap: reads files only.
pub fn problems(root: &Path) -> Vec<(PathBuf, usize, String)> {
    let docs = documents(root);
    let mut out = Vec::new();
    let mut used = false;
    for path in readmes(root) {
        let text = fs::read_to_string(&path).unwrap_or_default();
        used |= text.contains(BEGIN);
        out.extend(
            file_problems(&text, &docs)
                .into_iter()
                .map(|(line, msg)| (path.clone(), line, msg)),
        );
    }
    // The plot comes from the same run as speed.json: same date, same CPU.
    if let (true, Some((_, Ok(doc)))) = (used, docs.iter().find(|(n, _)| *n == "speed")) {
        let svg = fs::read_to_string(root.join(SVG)).unwrap_or_default();
        let model = doc
            .get("machine")
            .and_then(|m| m.get("cpu_model"))
            .and_then(Json::str)
            .unwrap_or("");
        let date = doc.get("date").and_then(Json::str).unwrap_or("");
        let model = model
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        if svg.is_empty() || !svg.contains(date) || !svg.contains(&model) {
            out.push((
                root.join(SVG),
                1,
                format!(
                    "not from the run of docs/figures/speed.json ({date}, {model}); run `cargo xtask figures`"
                ),
            ));
        }
    }
    out
}

/// `cargo xtask figures [--check] [--no-measure]`.
pub fn run(root: &Path, check: bool, measure: bool) -> Result {
    if check {
        let found = problems(root);
        for (path, line, msg) in &found {
            println!("{}:{line}: {msg}", rel(path, root));
        }
        return match found.len() {
            0 => {
                println!("figures: ok");
                Ok(())
            }
            n => Err(format!("figures: {n} problem(s)")),
        };
    }
    if measure {
        fs::create_dir_all(root.join("docs/figures"))
            .map_err(|e| format!("cannot create docs/figures: {e}"))?;
        let started = Instant::now();
        for source in &SOURCES {
            Cmd::cargo()
                .args(["run", "--release", "-p", "speed", "--features", "openssl"])
                .args((source.args)())
                .run()?;
        }
        println!(
            "figures: measured in {:.1} minutes",
            started.elapsed().as_secs_f64() / 60.0
        );
    }
    let docs = documents(root);
    for path in readmes(root) {
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let fresh = rewrite(&text, &docs).map_err(|e| format!("{}: {e}", rel(&path, root)))?;
        if fresh != text {
            fs::write(&path, &fresh).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("figures: rewrote {}", rel(&path, root));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEED: &str = r#"{
  "tool": "speed",
  "date": "2026-12-03",
  "command": "cargo run --release -p speed --features openssl -- -seconds 0.5 --compare",
  "machine": {"arch": "x86_64", "os": "linux", "cpu_vendor": "GenuineIntel", "cpu_model": "Intel(R) Xeon(R) \"X\"", "logical_cpus": 2, "features": ["sse2"], "openssl": "OpenSSL 3.0.19"},
  "settings": {"seconds": 0.5, "sizes": [16, 8192], "compare": true},
  "results": [
    {"algorithm": "md5", "implementation": "simdcrypt", "size": 16, "bytes_per_second": 125000000, "cycles_per_byte": 16},
    {"algorithm": "md5", "implementation": "simdcrypt", "size": 8192, "bytes_per_second": 7.5e8, "cycles_per_byte": 3.125},
    {"algorithm": "md5", "implementation": "rustcrypto", "size": 16, "bytes_per_second": 1e8, "cycles_per_byte": 20},
    {"algorithm": "md5", "implementation": "rustcrypto", "size": 8192, "bytes_per_second": 5e8, "cycles_per_byte": 4.5},
    {"algorithm": "md5", "implementation": "openssl", "size": 16, "bytes_per_second": 5e7, "cycles_per_byte": 40},
    {"algorithm": "md5", "implementation": "openssl", "size": 8192, "bytes_per_second": 6e8, "cycles_per_byte": 3.75},
    {"algorithm": "idea-ctr", "implementation": "simdcrypt", "size": 16, "bytes_per_second": 3.3e7, "cycles_per_byte": null},
    {"algorithm": "idea-ctr", "implementation": "simdcrypt", "size": 8192, "bytes_per_second": 1.5e9, "cycles_per_byte": 1.5},
    {"algorithm": "idea-ctr", "implementation": "rustcrypto", "size": 8192, "bytes_per_second": 7e7, "cycles_per_byte": 32.25}
  ],
  "ratios": []
}"#;

    const DES: &str = r#"{"tool": "des-table", "date": "2026-12-02", "command": "cargo run --release -p speed --features openssl --bin des-table -- --json docs/figures/des.json",
  "machine": {"arch": "x86_64", "cpu_vendor": "AuthenticAMD", "cpu_model": "AMD EPYC", "logical_cpus": 4, "openssl": null},
  "rows": [{"label": "DES ECB", "bytes": 8192, "ours": 1.5, "rustcrypto": 78, "openssl": 30},
           {"label": "DES key setup + 1 block", "bytes": 8, "ours": 50.4, "rustcrypto": 129.1, "openssl": 143.2}]}"#;

    fn docs() -> Vec<(&'static str, Result<Json>)> {
        vec![("speed", Json::parse(SPEED)), ("des", Json::parse(DES))]
    }

    #[test]
    fn json_reader() {
        let v = Json::parse(r#" {"a": [1, -2.5e1, true, null], "b": "x\"\u00e9\n", "c": {}} "#)
            .unwrap();
        assert_eq!(
            v.get("a").unwrap().arr(),
            &[
                Json::Num(1.0),
                Json::Num(-25.0),
                Json::Bool(true),
                Json::Null
            ]
        );
        assert_eq!(v.get("b").and_then(Json::str), Some("x\"é\n"));
        assert_eq!(v.get("c"), Some(&Json::Obj(vec![])));
        for bad in [
            "{",
            "[1,]",
            "{\"a\" 1}",
            "\"abc",
            "1 2",
            "nul",
            "{\"a\": 1,}",
        ] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
        // What the speed tools write reads back exactly.
        assert_eq!(Json::parse("0.020062586").unwrap(), Json::Num(0.020062586));
    }

    #[test]
    fn summary_table() {
        let doc = Json::parse(SPEED).unwrap();
        let body = render("speed-summary", &doc).unwrap();
        let expected = "
| algorithm | MB/s 16 B | MB/s 8 KiB | ÷ RustCrypto 16 B | ÷ RustCrypto 8 KiB | ÷ OpenSSL 16 B | ÷ OpenSSL 8 KiB |
|---|---|---|---|---|---|---|
| md5 | 125 | 750 | 1.25× | 1.50× | 2.50× | 1.25× |
| idea-ctr | 33.0 | 1500 | – | 21.43× | – | – |

Measured on GenuineIntel Intel(R) Xeon(R) \"X\" (x86_64, 2 logical CPUs; OpenSSL 3.0.19), 2026-12-03 (UTC), 0.5 s per implementation and size (`openssl speed`: 3 s), by `cargo xtask figures`: `cargo run --release -p speed --features openssl -- -seconds 0.5 --compare`

";
        assert_eq!(body, expected);
    }

    #[test]
    fn cycles_table() {
        let doc = Json::parse(SPEED).unwrap();
        let body = render("speed-cycles 8192 md5 idea-ctr", &doc).unwrap();
        assert!(body.starts_with(
            "\n| 8 KiB, TSC cycles/byte | ours | RustCrypto | OpenSSL | ours vs faster peer |\n|---|---|---|---|---|\n\
             | md5 | 3.12 | 4.50 | 3.75 | 1.20× |\n| idea-ctr | 1.50 | 32.2 | – | 21.50× |\n\n\
             Measured on GenuineIntel"
        ), "{body}");
        // An algorithm the run did not measure, or no cycles at that size, is an error.
        assert!(render("speed-cycles 8192 des-cbc", &doc).is_err());
        assert!(render("speed-cycles 16 idea-ctr", &doc).is_err());
        assert!(render("speed-cycles md5", &doc).is_err());
        assert!(render("speed-bogus", &doc).is_err());
    }

    #[test]
    fn des_rows() {
        let doc = Json::parse(DES).unwrap();
        let body = render("des-table", &doc).unwrap();
        assert!(
            body.contains("| DES ECB | 1.50 | 78.0 | 30.0 | 20.00× |\n"),
            "{body}"
        );
        assert!(body.contains(
            "| DES key setup + 1 block (per byte of the block) | 50.4 | 129 | 143 | 2.56× |\n"
        ));
        assert!(body.contains(
            "Measured on AuthenticAMD AMD EPYC (x86_64, 4 logical CPUs), 2026-12-02 (UTC)"
        ));
    }

    fn readme(body: &str) -> String {
        format!(
            "# x\n\n## Speed\n\nText.\n\n<!-- figures:begin speed-cycles 8192 md5 -->\n{body}<!-- figures:end -->\n\n## Tests\n\n| a | b |\n|---|---|\n"
        )
    }

    #[test]
    fn rewrite_then_check() {
        let docs = docs();
        let stale = readme("| old | table |\n");
        let problems = file_problems(&stale, &docs);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 7);
        assert!(problems[0].1.contains("has no stamp"), "{problems:?}");

        let fresh = rewrite(&stale, &docs).unwrap();
        assert_eq!(
            fresh,
            readme(&render("speed-cycles 8192 md5", &docs[0].1.clone().unwrap()).unwrap())
        );
        assert_eq!(file_problems(&fresh, &docs), vec![]);
        assert_eq!(rewrite(&fresh, &docs).unwrap(), fresh);

        // A number edited by hand, stamp kept: the check fails.
        let edited = fresh.replace("| 3.12 |", "| 3.10 |");
        assert_ne!(edited, fresh);
        let problems = file_problems(&edited, &docs);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].1.contains("differs from what its JSON renders"),
            "{problems:?}"
        );

        // The JSON changed (a new run) and the README was not rewritten: the check fails.
        let newer = SPEED.replace("\"cycles_per_byte\": 3.125", "\"cycles_per_byte\": 3.5");
        let newer_docs = vec![("speed", Json::parse(&newer)), ("des", Json::parse(DES))];
        assert_eq!(file_problems(&fresh, &newer_docs).len(), 1);
    }

    #[test]
    fn hand_tables_in_speed_sections() {
        let docs = docs();
        let text = "## Speed\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<!-- figures:hand: libxcrypt run -->\nMade by hand.\n\n| c |\n|---|\n\n```\nThe 'numbers' are in 1000s\n```\n## Other\n\n| d |\n";
        let problems = file_problems(text, &docs);
        let lines: Vec<usize> = problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, vec![3, 14], "{problems:?}");
        assert!(problems[0].1.contains("figures:hand"));
        assert!(problems[1].1.contains("pasted `speed` output"));
    }

    #[test]
    fn broken_markers() {
        let docs = docs();
        for (text, line) in [
            ("<!-- figures:begin des-table -->\n", 1),
            ("a\n<!-- figures:end -->\n", 2),
            (
                "<!-- figures:begin des-table -->\n<!-- figures:begin des-table -->\n",
                2,
            ),
        ] {
            assert_eq!(file_problems(text, &docs)[0].0, line, "{text}");
        }
        let unknown = "<!-- figures:begin nope -->\nMeasured on x\n<!-- figures:end -->\n";
        assert!(
            file_problems(unknown, &docs)[0]
                .1
                .contains("unknown figures block")
        );
        // A missing JSON file is a problem, not a panic.
        let missing = vec![(
            "speed",
            Err("cannot read docs/figures/speed.json".to_owned()),
        )];
        let text = readme("Measured on x\n");
        assert!(file_problems(&text, &missing)[0].1.contains("cannot read"));
    }

    #[test]
    fn sources_write_the_files_they_name() {
        for source in &SOURCES {
            let args = (source.args)();
            let json = args.iter().position(|a| a == "--json").unwrap();
            assert_eq!(args[json + 1], source.json);
        }
        assert!(speed_args().iter().any(|a| a == SVG));
        assert!(source_of("speed-summary").is_some() && source_of("des-table").is_some());
    }
}
