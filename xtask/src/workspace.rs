//! What xtask knows about the workspace, read from the manifests' text.
//!
//! Each crate's backend table (the `simdcrypt_dispatch::backends!` invocation in its
//! `src/backends.rs`) is the list of its backends, with the architectures and CPU features
//! each needs; each `crates/*/Cargo.toml` gives a package name, lib name, version,
//! `publish` and the RustCrypto peer it is checked against. Only the few lines needed are
//! parsed, by hand.

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::Result;

/// One library crate under `crates/`.
#[derive(Clone, Debug)]
pub struct Crate {
    pub dir: PathBuf,
    /// `md-5`
    pub package: String,
    /// `md5`: the name in `<lib>_backend`.
    pub lib: String,
    /// `0.11.1` (`None` if inherited from the workspace).
    pub version: Option<String>,
    pub publish: bool,
    /// The exact version of the RustCrypto crate of the same name pinned as the peer
    /// dev-dependency (`rc_md5 = { package = "md-5", version = "=0.11.0" }`), if any.
    pub peer_version: Option<String>,
}

/// One crate's backend table (`backends! { crate: …, cfg: <alg>_backend; … }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendList {
    /// `md5` (the cfg name without `_backend`).
    pub alg: String,
    /// The backend names, in table order (`soft` first).
    pub values: Vec<String>,
    /// The rows, in the same order.
    pub rows: Vec<Row>,
    /// The table's file (`crates/<x>/src/backends.rs`).
    pub file: PathBuf,
    /// 1-based line of `backends!` in that file.
    pub line: usize,
}

/// One row of a backend table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    /// The `Backend` variant (`Avx2`).
    pub variant: String,
    /// `target_arch` values; empty for `soft` (every target).
    pub arch: Vec<String>,
    /// CPU features (names of `is_x86_feature_detected!`).
    pub needs: Vec<String>,
    /// 1-based line of the row in the table's file.
    pub line: usize,
}

impl Crate {
    /// The `-p` spec naming this crate and not the RustCrypto peer of the same name
    /// that is in the lock file too: `md-5@0.11.1`.
    pub fn spec(&self) -> String {
        match &self.version {
            Some(v) => format!("{}@{v}", self.package),
            None => self.package.clone(),
        }
    }
}

impl BackendList {
    pub fn cfg_name(&self) -> String {
        format!("{}_backend", self.alg)
    }

    /// The row of backend `name`.
    pub fn row(&self, name: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.name == name)
    }
}

#[derive(Debug)]
pub struct Workspace {
    pub root: PathBuf,
    pub crates: Vec<Crate>,
    pub backends: Vec<BackendList>,
    /// `benches/` holds the `speed` package.
    pub has_speed: bool,
    /// The `speed` package has an `openssl` feature.
    pub speed_openssl: bool,
}

impl Workspace {
    pub fn load(root: &Path) -> Result<Self> {
        let manifest = root.join("Cargo.toml");
        fs::metadata(&manifest).map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        let mut backends = Vec::new();
        let mut crates = Vec::new();
        if let Ok(entries) = fs::read_dir(root.join("crates")) {
            let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            dirs.sort();
            for dir in dirs {
                // A crate still being written may have no manifest yet: not a crate (yet).
                if let Ok(text) = fs::read_to_string(dir.join("Cargo.toml")) {
                    let m = parse_manifest(&text);
                    let Some(package) = m.package else { continue };
                    let lib = m.lib.unwrap_or_else(|| package.replace('-', "_"));
                    let table = dir.join("src/backends.rs");
                    if let Some(list) = fs::read_to_string(&table)
                        .ok()
                        .and_then(|t| parse_table(&t, &table))
                    {
                        backends.push(list);
                    }
                    crates.push(Crate {
                        dir,
                        package,
                        lib,
                        version: m.version,
                        publish: m.publish,
                        peer_version: m.peer_version,
                    });
                }
            }
        }
        let speed = fs::read_to_string(root.join("benches/Cargo.toml")).ok();
        let speed_openssl = speed.as_deref().is_some_and(|t| {
            section_lines(t, "features").any(|l| l.trim_start().starts_with("openssl"))
        });
        Ok(Self {
            root: root.to_path_buf(),
            crates,
            backends,
            has_speed: speed.is_some(),
            speed_openssl,
        })
    }

    /// The crate `name` names (package or lib name, `@version` ignored).
    pub fn find(&self, name: &str) -> Option<&Crate> {
        let name = name.split('@').next().unwrap_or(name);
        self.crates
            .iter()
            .find(|c| c.package == name || c.lib == name)
    }

    /// The crate `-p name` names, or an error listing the crates there are.
    pub fn get(&self, name: &str) -> Result<&Crate> {
        self.find(name).ok_or_else(|| {
            let names: Vec<&str> = self.crates.iter().map(|c| c.package.as_str()).collect();
            format!(
                "no crate `{name}` under crates/ (there are: {})",
                names.join(", ")
            )
        })
    }

    /// The crate whose lib name is `alg` (`md5` → `md-5`).
    pub fn crate_for(&self, list: &BackendList) -> Option<&Crate> {
        self.crates.iter().find(|c| c.lib == list.alg)
    }

    /// The backend list of `krate` (empty if it has none).
    pub fn backends_of(&self, krate: &Crate) -> &[String] {
        self.backends
            .iter()
            .find(|b| b.alg == krate.lib)
            .map_or(&[], |b| &b.values)
    }
}

/// The `backends! { … }` table in `text` (the file at `file`), if there is one.
///
/// The grammar is `simdcrypt_dispatch::backends!`'s: `cfg: <alg>_backend;`, then rows
/// `"name" => Variant;` (soft) or `"name" => Variant { arch: [..], needs: [..], … }`.
pub fn parse_table(text: &str, file: &Path) -> Option<BackendList> {
    let start = text
        .lines()
        .position(|l| !l.trim_start().starts_with("//") && l.contains("backends! {"))?;
    let mut alg = None;
    let mut rows: Vec<Row> = Vec::new();
    let mut depth = 1i64;
    for (i, line) in text.lines().enumerate().skip(start + 1) {
        let t = line.trim();
        if t.starts_with("//") {
            continue;
        }
        // Rows with fields open and close braces; the table ends where its own closes.
        depth += t.matches('{').count() as i64 - t.matches('}').count() as i64;
        if depth <= 0 {
            break;
        }
        if let Some(rest) = t.strip_prefix("crate:") {
            if let Some(pos) = rest.find("cfg:") {
                let cfg = rest[pos + 4..].trim().trim_end_matches(';').trim();
                alg = cfg.strip_suffix("_backend").map(str::to_string);
            }
            continue;
        }
        if t.starts_with('"')
            && let Some((name, rest)) = t[1..].split_once("\" =>")
        {
            let variant = rest.trim().trim_end_matches([';', '{']).trim();
            rows.push(Row {
                name: name.to_string(),
                variant: variant.to_string(),
                arch: Vec::new(),
                needs: Vec::new(),
                line: i + 1,
            });
            continue;
        }
        let list = |key: &str| -> Option<Vec<String>> {
            let rest = t.strip_prefix(key)?.trim().strip_prefix('[')?;
            let inner = &rest[..rest.find(']')?];
            Some(
                inner
                    .split(',')
                    .map(|v| v.trim().trim_matches('"').to_string())
                    .filter(|v| !v.is_empty())
                    .collect(),
            )
        };
        if let (Some(row), Some(v)) = (rows.last_mut(), list("arch:")) {
            row.arch = v;
        } else if let (Some(row), Some(v)) = (rows.last_mut(), list("needs:")) {
            row.needs = v;
        }
    }
    Some(BackendList {
        alg: alg?,
        values: rows.iter().map(|r| r.name.clone()).collect(),
        rows,
        file: file.to_path_buf(),
        line: start + 1,
    })
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub package: Option<String>,
    pub version: Option<String>,
    pub lib: Option<String>,
    pub publish: bool,
    pub peer_version: Option<String>,
}

/// The lines of `[section]` (without its header).
/// Every dependency of a manifest's text given by `path`, in any dependency section, as an
/// inline table: its path and its `version` requirement, if any.
pub fn path_dependencies(text: &str) -> Vec<(String, Option<String>)> {
    text.lines()
        .filter_map(|l| {
            let (_, v) = key_value(l)?;
            Some((inline_get(v, "path")?, inline_get(v, "version")))
        })
        .collect()
}

fn section_lines<'a>(text: &'a str, section: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let mut current = String::new();
    text.lines().filter(move |l| {
        let t = l.trim();
        if t.starts_with('[') {
            current = t.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            return false;
        }
        current == section
    })
}

/// `key = value` → (key, value), both trimmed, the key without quotes.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let t = line.trim();
    if t.starts_with('#') {
        return None;
    }
    let (k, v) = t.split_once('=')?;
    Some((k.trim().trim_matches('"'), v.trim()))
}

/// `"text"` (a basic or literal TOML string) → text.
fn string_value(v: &str) -> Option<String> {
    let v = v.trim();
    let q = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &v[1..];
    Some(body[..body.find(q)?].to_string())
}

/// `key = "…"` inside an inline table `{ …, key = "…", … }`.
fn inline_get(table: &str, key: &str) -> Option<String> {
    let body = table.trim().strip_prefix('{')?;
    body.split(',').find_map(|part| {
        let (k, v) = key_value(part.trim_end_matches('}'))?;
        (k == key).then(|| string_value(v)).flatten()
    })
}

pub fn parse_manifest(text: &str) -> Manifest {
    let mut m = Manifest {
        publish: true,
        ..Manifest::default()
    };
    for l in section_lines(text, "package") {
        match key_value(l) {
            Some(("name", v)) => m.package = string_value(v),
            Some(("version", v)) => m.version = string_value(v),
            Some(("publish", v)) if v == "false" || v == "[]" => m.publish = false,
            _ => {}
        }
    }
    for l in section_lines(text, "lib") {
        if let Some(("name", v)) = key_value(l) {
            m.lib = string_value(v);
        }
    }
    let Some(package) = m.package.clone() else {
        return m;
    };
    // The peer: a renamed dev-dependency on the RustCrypto crate of our own name,
    // pinned with `=`, as an inline table or as a `[dev-dependencies.rc_x]` table.
    for l in section_lines(text, "dev-dependencies") {
        if let Some((_, v)) = key_value(l)
            && inline_get(v, "package").as_deref() == Some(package.as_str())
            && let Some(ver) = inline_get(v, "version")
            && let Some(exact) = ver.strip_prefix('=')
        {
            m.peer_version = Some(exact.trim().to_string());
        }
    }
    let mut current = String::new();
    let (mut pkg, mut ver) = (None, None);
    for l in text.lines().chain(std::iter::once("[end]")) {
        let t = l.trim();
        if t.starts_with('[') {
            if current.starts_with("dev-dependencies.")
                && pkg.as_deref() == Some(package.as_str())
                && let Some(v) = ver.take()
            {
                m.peer_version = Some(v);
            }
            current = t.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            (pkg, ver) = (None, None);
        } else if current.starts_with("dev-dependencies.") {
            match key_value(t) {
                Some(("package", v)) => pkg = string_value(v),
                Some(("version", v)) => {
                    ver = string_value(v)
                        .and_then(|s| s.strip_prefix('=').map(|s| s.trim().to_string()));
                }
                _ => {}
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_table() {
        let text = r#"//! Docs.
use cipher::Block;

simdcrypt_dispatch::backends! {
    crate: "md-5", cfg: md5_backend;
    /// Portable.
    "soft" => Soft;
    /// AVX-512 { in a doc comment }.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86_64"],
        needs: ["avx512f", "avx512vl"],
        blocks: 4,
    }
    // A comment "quoted" => Not.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: [],
        avoid: ["slow-gather"],
    }
}

fn after() { let _ = "x" => 1; }
"#;
        let b = parse_table(text, Path::new("b.rs")).unwrap();
        assert_eq!(b.alg, "md5");
        assert_eq!(b.cfg_name(), "md5_backend");
        assert_eq!(b.values, ["soft", "avx512", "avx2"]);
        assert_eq!(b.line, 4);
        let r = b.row("avx512").unwrap();
        assert_eq!(
            (r.arch.as_slice(), r.line),
            (&["x86_64".to_string()][..], 9)
        );
        assert_eq!(
            (r.variant.as_str(), b.rows[0].variant.as_str()),
            ("Avx512", "Soft")
        );
        assert_eq!(r.needs, ["avx512f", "avx512vl"]);
        assert_eq!(b.row("avx2").unwrap().arch, ["x86", "x86_64"]);
        assert!(b.row("avx2").unwrap().needs.is_empty());
        assert!(b.row("soft").unwrap().arch.is_empty());
        assert_eq!(parse_table("fn f() {}\n", Path::new("c.rs")), None);
    }

    #[test]
    fn manifest_inline_peer() {
        let m = parse_manifest(
            r#"
[package]
name = "md-5"
version = "0.11.1"
edition.workspace = true

[lib]
name = "md5"

[dev-dependencies]
testkit.workspace = true
rc_md5 = { package = "md-5", version = "=0.11.0", features = ["oid", "zeroize"] }
rc_rc4 = { package = "rc4", version = "=0.2.0" }
"#,
        );
        assert_eq!(m.package.as_deref(), Some("md-5"));
        assert_eq!(m.lib.as_deref(), Some("md5"));
        assert_eq!(m.version.as_deref(), Some("0.11.1"));
        assert!(m.publish);
        assert_eq!(m.peer_version.as_deref(), Some("0.11.0"));
    }

    #[test]
    fn path_dependencies_with_versions() {
        let text = r#"
[dependencies]
des = { path = "../des", version = "=0.9.1" }
# x = { path = "commented" }
[dev-dependencies]
blowfish = { path = ".", features = ["bcrypt", "zeroize"] }
rc_aes = { package = "aes", version = "=0.9.4" }
"#;
        let got = path_dependencies(text);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], ("../des".into(), Some("=0.9.1".into())));
        assert_eq!(got[1], (".".into(), None));
    }

    #[test]
    fn manifest_table_peer_and_publish() {
        let m = parse_manifest(
            r#"
[package]
name = "rc4"
publish = false

[dev-dependencies.rc_rc4]
package = "rc4"
version = "=0.2.0"

[features]
zeroize = []
"#,
        );
        assert_eq!(m.package.as_deref(), Some("rc4"));
        assert_eq!(m.lib, None);
        assert!(!m.publish);
        assert_eq!(m.peer_version.as_deref(), Some("0.2.0"));
    }
}
