//! `cargo xtask tidy`: policy checks over the source text that the compiler does not make.
//!
//! - (a) every `.rs` file under `crates/*/src` (and `benches/src`, `xtask/src`) is
//!   reachable through `mod` declarations from `lib.rs` (or `main.rs`, `bin/*.rs`): a
//!   file nobody declares is never compiled (a backend table declares `soft` and each
//!   row's `mod:`);
//! - (b) every crate with `src/backends/` declares its backends in one table (the
//!   `simdcrypt_dispatch::backends!` invocation in `src/backends.rs`) whose cfg is
//!   `<lib>_backend` and is listed in the root `Cargo.toml`'s check-cfg; every row `v` has
//!   `src/backends/v.rs` (or `backends/v/mod.rs`) and a test `fn v_matches_soft` (not
//!   for `soft` itself), needs only CPU features the dispatch crate detects, and is
//!   benched (the crate's benches iterate `__backends::ALL`). Nothing else names a
//!   backend: the table declares the modules and its `dispatch!` writes the `match`, so
//!   adding one is its file, its row and its crate docs' row;
//! - (c) `#[target_feature` appears only in files under `src/backends/`;
//! - (d) every `unsafe {` block and `unsafe impl` has a `// SAFETY:` comment on its line,
//!   within the 3 lines before it, or in the comment block right above it;
//! - (e) the crate docs (`//!` of lib.rs, plus README.md when lib.rs includes it) name
//!   every backend value: `md5_backend="avx512"` or a table row with the name as a cell;
//! - (f) every `tests/data/*.txt` starts with a `# ` line saying where it comes from;
//! - (g) every published crate carries unchanged copies of the root's `LICENSE-MIT` and
//!   `LICENSE-APACHE` (a package holds only its crate's directory);
//! - (h) the speed figures of the READMEs are what their committed JSON renders, each with
//!   its stamp, and a table in a `## Speed` section that no command makes is labelled so
//!   (`figures.rs`; reads files only, measures nothing);
//! - (i) what `dispatch!(backend => f(…))` calls in each row's module, inside `unsafe` on
//!   the row's token alone, needs no more than the token proves: a `#[target_feature]`
//!   `f` enables only features of the row's `needs`, an `unsafe fn f` names the token as
//!   its `# Safety` precondition.
//!
//! Also run by `cargo test` on the real tree (`real_tree_is_tidy`).

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cpu;
use crate::figures;
use crate::util::{Result, files_with_suffix, rel};
use crate::workspace::{Crate, Workspace};

/// One broken rule, at `path:line` (path relative to the root).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    pub path: String,
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.path, self.line, self.msg)
    }
}

struct Report<'a> {
    root: &'a Path,
    found: Vec<Violation>,
}

impl Report<'_> {
    fn add(&mut self, path: &Path, line: usize, msg: impl Into<String>) {
        self.found.push(Violation {
            path: rel(path, self.root),
            line,
            msg: msg.into(),
        });
    }
}

/// Runs every check, prints every violation, fails if there is one.
pub fn run(root: &Path) -> Result {
    let found = check(root)?;
    for v in &found {
        println!("{v}");
    }
    if found.is_empty() {
        println!("tidy: ok");
        Ok(())
    } else {
        Err(format!("tidy: {} violation(s)", found.len()))
    }
}

/// Every violation in the tree at `root`, sorted.
pub fn check(root: &Path) -> Result<Vec<Violation>> {
    let ws = Workspace::load(root)?;
    let mut r = Report {
        root,
        found: Vec::new(),
    };
    for krate in &ws.crates {
        reachable(&mut r, &krate.dir.join("src"));
        target_feature_placement(&mut r, krate);
        data_headers(&mut r, krate);
        license_files(&mut r, krate);
    }
    for tool in ["benches/src", "xtask/src"] {
        reachable(&mut r, &root.join(tool));
    }
    backends(&mut r, &ws);
    for (path, line, msg) in figures::problems(root) {
        r.add(&path, line, msg);
    }
    for dir in ["crates", "benches"] {
        for file in files_with_suffix(&root.join(dir), ".rs") {
            safety_comments(&mut r, &file);
        }
    }
    let mut found = r.found;
    found.sort();
    found.dedup();
    Ok(found)
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

/// Whether a trimmed line is a comment (`//…`, `/*…`). A line starting with `*` may be
/// code (`*out = …`), so block-comment continuations are not recognised.
fn is_comment(t: &str) -> bool {
    t.starts_with("//") || t.starts_with("/*")
}

// (a) ------------------------------------------------------------------------------------

/// `mod name;` declarations of a file: (name, `#[path]` value, line).
fn mod_decls(text: &str) -> Vec<(String, Option<String>, usize)> {
    let mut out = Vec::new();
    let mut path_attr: Option<String> = None;
    let mut in_block_comment = false;
    // Inside a raw string (a test's source text) or a `macro_rules!` body (the dispatch
    // crate's table macro), `mod` lines declare nothing here.
    let mut in_raw_string = false;
    let mut macro_depth = 0i64;
    for (i, line) in text.lines().enumerate() {
        let mut t = line.trim();
        if in_raw_string {
            in_raw_string = !t.contains("\"#");
            continue;
        }
        if let Some(at) = t.find("r#\"") {
            in_raw_string = !t[at + 3..].contains("\"#");
            continue;
        }
        if macro_depth > 0 || t.contains("macro_rules!") {
            macro_depth += t.matches('{').count() as i64 - t.matches('}').count() as i64;
            continue;
        }
        if in_block_comment {
            if t.contains("*/") {
                in_block_comment = false;
            }
            continue;
        }
        if t.starts_with("/*") && !t.contains("*/") {
            in_block_comment = true;
            continue;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        // A backend table (`simdcrypt_dispatch::backends!`) declares `soft` and the module
        // of each row (`mod: avx2,`).
        if t.ends_with("backends! {") {
            out.push(("soft".to_string(), None, i + 1));
            continue;
        }
        if let Some(name) = t
            .strip_prefix("mod:")
            .and_then(|n| n.trim().strip_suffix(','))
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push((name.to_string(), None, i + 1));
            continue;
        }
        // Leading attributes on the same line: `#[cfg(test)] mod tests;`.
        while t.starts_with("#[") {
            let Some(end) = attr_end(t) else { break };
            let attr = &t[2..end - 1];
            if let Some(p) = attr.trim().strip_prefix("path") {
                let p = p.trim_start();
                if let Some(p) = p.strip_prefix('=') {
                    path_attr = Some(p.trim().trim_matches('"').to_string());
                }
            }
            t = t[end..].trim_start();
        }
        if t.is_empty() {
            continue; // an attribute line: keep `path_attr` for the item below
        }
        let mut item = t;
        if let Some(rest) = item.strip_prefix("pub") {
            item = rest.trim_start();
            if item.starts_with('(') {
                item = item[item.find(')').map_or(item.len(), |e| e + 1)..].trim_start();
            }
        }
        if let Some(rest) = item.strip_prefix("mod ") {
            let rest = rest.trim();
            if let Some(name) = rest.strip_suffix(';') {
                let name = name.trim().trim_start_matches("r#");
                out.push((name.to_string(), path_attr.take(), i + 1));
            }
        }
        path_attr = None;
    }
    out
}

/// The index just past the `]` closing the attribute at the start of `t`.
fn attr_end(t: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in t.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn reachable(r: &mut Report<'_>, src: &Path) {
    let src = src.to_path_buf();
    let all = files_with_suffix(&src, ".rs");
    if all.is_empty() {
        return;
    }
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .filter(|p| p.is_file())
        .collect();
    if let Ok(entries) = fs::read_dir(src.join("bin")) {
        for e in entries.filter_map(|e| e.ok()) {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "rs") {
                roots.push(p);
            } else if p.join("main.rs").is_file() {
                roots.push(p.join("main.rs"));
            }
        }
    }
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    // (file, whether it owns a directory of the same level: crate roots and mod.rs)
    let mut stack: Vec<(PathBuf, bool)> = roots.into_iter().map(|p| (p, true)).collect();
    while let Some((file, mod_rs)) = stack.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let dir = file.parent().unwrap_or(&src).to_path_buf();
        let child_dir = if mod_rs {
            dir.clone()
        } else {
            dir.join(file.file_stem().unwrap_or_default())
        };
        for (name, path_attr, line) in mod_decls(&read(&file)) {
            let candidates = match path_attr {
                Some(p) => vec![dir.join(p)],
                None => vec![
                    child_dir.join(format!("{name}.rs")),
                    child_dir.join(&name).join("mod.rs"),
                ],
            };
            match candidates.into_iter().find(|p| p.is_file()) {
                Some(p) => {
                    let is_mod_rs = p.file_name().is_some_and(|n| n == "mod.rs");
                    stack.push((p, is_mod_rs));
                }
                None => r.add(&file, line, format!("`mod {name};` has no file")),
            }
        }
    }
    for file in all {
        if !seen.contains(&file) {
            r.add(
                &file,
                1,
                "not reachable through `mod` declarations from the crate root: it is never compiled",
            );
        }
    }
}

// (b) and (e) ----------------------------------------------------------------------------

fn backends(r: &mut Report<'_>, ws: &Workspace) {
    let manifest = ws.root.join("Cargo.toml");
    let root_text = read(&manifest);
    for krate in &ws.crates {
        let list = ws.backends.iter().find(|l| l.file.starts_with(&krate.dir));
        let Some(list) = list else {
            if krate.dir.join("src/backends").is_dir() {
                r.add(
                    &krate.dir.join("src/backends.rs"),
                    1,
                    format!(
                        "{}: src/backends/ exists but src/backends.rs has no \
                         `simdcrypt_dispatch::backends!` table",
                        krate.package
                    ),
                );
            }
            continue;
        };
        let cfg = list.cfg_name();
        let name = &krate.package;
        if list.alg != krate.lib {
            r.add(
                &list.file,
                list.line,
                format!(
                    "{name}: the table's cfg is `{cfg}`, not `{}_backend`",
                    krate.lib
                ),
            );
        }
        if !root_text.contains(&format!("'cfg({cfg},")) {
            r.add(
                &manifest,
                1,
                format!("{name}: the workspace check-cfg has no `cfg({cfg}, values(any()))`"),
            );
        }
        let all_rs: Vec<PathBuf> = ["src", "tests", "benches"]
            .iter()
            .flat_map(|d| files_with_suffix(&krate.dir.join(d), ".rs"))
            .collect();
        let code: String = all_rs
            .iter()
            .map(|p| read(p))
            .collect::<Vec<_>>()
            .join("\n");
        let bench_code: String = files_with_suffix(&krate.dir.join("benches"), ".rs")
            .iter()
            .map(|p| read(p))
            .collect::<Vec<_>>()
            .join("\n");
        if !bench_code.contains("__backends::ALL") {
            r.add(
                &list.file,
                list.line,
                format!("{name}: no bench iterates `__backends::ALL` (every backend is benched)"),
            );
        }
        let docs = crate_docs(krate);
        let lib_rs = krate.dir.join("src/lib.rs");
        for row in &list.rows {
            let v = &row.name;
            let backends_dir = krate.dir.join("src/backends");
            if !backends_dir.join(format!("{v}.rs")).is_file()
                && !backends_dir.join(v).join("mod.rs").is_file()
            {
                r.add(
                    &list.file,
                    row.line,
                    format!("{name}: backend `{v}` has no file src/backends/{v}.rs"),
                );
            }
            if v != "soft" && !has_fn(&code, &format!("{v}_matches_soft")) {
                r.add(
                    &list.file,
                    row.line,
                    format!("{name}: backend `{v}` has no test `fn {v}_matches_soft`"),
                );
            }
            for f in &row.needs {
                if cpu::has_feature(f).is_none() && !cpu::AARCH64_FEATURES.contains(&f.as_str()) {
                    r.add(
                        &list.file,
                        row.line,
                        format!(
                            "{name}: backend `{v}` needs `{f}`, which simdcrypt-dispatch \
                             does not detect"
                        ),
                    );
                }
            }
            if !docs_name(&docs, &cfg, v) {
                r.add(
                    &lib_rs,
                    1,
                    format!(
                        "{name}: the crate docs do not name backend `{v}` \
                         ({cfg}=\"{v}\" or a Backends table row)"
                    ),
                );
            }
        }
        dispatched_functions(r, krate, list);
    }
}

// (i) ------------------------------------------------------------------------------------

/// (i): `dispatch!(backend => f(…))` calls `f` of each row's module inside `unsafe`, on
/// the proof of the row's token alone. So each row's `f` must be a `#[target_feature]`
/// function whose features are all in the row's `needs`, an `unsafe fn` whose `# Safety`
/// names the row's token (`token::Vbmi`), or a safe function without target features.
fn dispatched_functions(r: &mut Report<'_>, krate: &Crate, list: &crate::workspace::BackendList) {
    let text = read(&list.file);
    let name = &krate.package;
    for (f, call_line) in dispatched(&text) {
        for row in list.rows.iter().filter(|row| row.name != "soft") {
            let v = &row.name;
            let dir = krate.dir.join("src/backends");
            let mut files: Vec<PathBuf> = vec![dir.join(format!("{v}.rs"))];
            files.extend(files_with_suffix(&dir.join(v), ".rs"));
            let Some((file, line, head)) = files.iter().find_map(|p| find_fn(p, &f)) else {
                r.add(
                    &list.file,
                    call_line,
                    format!("{name}: `dispatch!` calls `{f}`, which backend `{v}`'s module does not define"),
                );
                continue;
            };
            let features = target_features(&head);
            for feature in features.iter().filter(|x| !row.needs.contains(x)) {
                r.add(
                    &file,
                    line,
                    format!(
                        "{name}: `{v}::{f}` enables `{feature}`, which row `{v}` does not need: \
                         `dispatch!` calls it on the row's token alone"
                    ),
                );
            }
            let token = format!("token::{}", row.variant);
            if features.is_empty()
                && head.contains("unsafe fn")
                && !(head.contains("# Safety") && head.contains(&token))
            {
                r.add(
                    &file,
                    line,
                    format!(
                        "{name}: `{v}::{f}` is an `unsafe fn` that `dispatch!` calls on the row's \
                         token alone; its `# Safety` must say that `{token}` is its one precondition"
                    ),
                );
            }
        }
    }
}

/// The functions named by `dispatch!(… => f(…)` in `text`, with their 1-based lines.
fn dispatched(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices("dispatch!(") {
        let line = text[..i].lines().count().max(1);
        if is_comment(text[..i].rsplit('\n').next().unwrap_or("").trim()) {
            continue;
        }
        let rest = &text[i..];
        let Some(arrow) = rest.find("=>") else {
            continue;
        };
        let f: String = rest[arrow + 2..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !f.is_empty() {
            found.push((f, line));
        }
    }
    found
}

/// The module-level `fn name` in `path`: its path, 1-based line, and its head (the
/// attribute and doc lines above it, and its own line).
fn find_fn(path: &Path, name: &str) -> Option<(PathBuf, usize, String)> {
    let text = fs::read_to_string(path).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| {
        let l = l
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("unsafe ");
        l.strip_prefix("fn ")
            .and_then(|l| l.strip_prefix(name))
            .is_some_and(|l| l.starts_with(['(', '<']))
    })?;
    let mut start = at;
    while start > 0 {
        let t = lines[start - 1].trim();
        let attr_tail = t.ends_with(")]") || t.ends_with(']') && !t.contains('[');
        if t.starts_with("#[")
            || t.starts_with("//")
            || attr_tail
            || lines[start - 1].starts_with("    ")
        {
            start -= 1;
        } else {
            break;
        }
    }
    Some((path.to_path_buf(), at + 1, lines[start..=at].join("\n")))
}

/// The features of every `#[target_feature(enable = "…")]` in `head`.
fn target_features(head: &str) -> Vec<String> {
    head.match_indices("target_feature(enable = \"")
        .flat_map(|(i, m)| {
            let list = &head[i + m.len()..];
            list[..list.find('"').unwrap_or(0)]
                .split(',')
                .map(|f| f.trim().to_string())
        })
        .filter(|f| !f.is_empty())
        .collect()
}

/// Whether `code` defines `fn name` (followed by `(` or `<`).
fn has_fn(code: &str, name: &str) -> bool {
    let pat = format!("fn {name}");
    code.match_indices(&pat)
        .any(|(i, _)| code[i + pat.len()..].trim_start().starts_with(['(', '<']))
}

/// The crate docs: the `//!` lines of lib.rs, and README.md if lib.rs includes it.
fn crate_docs(krate: &Crate) -> String {
    let lib = read(&krate.dir.join("src/lib.rs"));
    let mut docs: String = lib
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    if lib.contains("include_str!(\"../README.md\")") {
        docs.push('\n');
        docs.push_str(&read(&krate.dir.join("README.md")));
    }
    docs
}

/// `md5_backend="avx512"` (spaces ignored) or a table row with a cell `avx512` / `` `avx512` ``.
fn docs_name(docs: &str, cfg: &str, value: &str) -> bool {
    let squeezed: String = docs.chars().filter(|c| !c.is_whitespace()).collect();
    if squeezed.contains(&format!("{cfg}=\"{value}\"")) {
        return true;
    }
    docs.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|'))
        .any(|row| {
            row.split('|')
                .map(|cell| cell.trim().trim_matches('`').trim())
                .any(|cell| cell == value)
        })
}

// (c) ------------------------------------------------------------------------------------

fn target_feature_placement(r: &mut Report<'_>, krate: &Crate) {
    let src = krate.dir.join("src");
    for file in files_with_suffix(&src, ".rs") {
        if file.starts_with(src.join("backends")) {
            continue;
        }
        for (i, line) in read(&file).lines().enumerate() {
            let t = line.trim();
            if !is_comment(t) && t.contains("#[target_feature") {
                r.add(
                    &file,
                    i + 1,
                    "`#[target_feature]` outside src/backends/ (ARCHITECTURE §3.5: only in backend files)",
                );
            }
        }
    }
}

// (d) ------------------------------------------------------------------------------------

/// Whether the code part of `line` opens an `unsafe` block or an `unsafe impl`.
fn opens_unsafe(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices("unsafe").any(|(i, w)| {
        let before_ok = code[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = &code[i + w.len()..];
        let after_ok = after.starts_with([' ', '{', '\t']) || after.is_empty();
        let after = after.trim_start();
        before_ok && after_ok && (after.starts_with('{') || after.starts_with("impl"))
    })
}

fn safety_comments(r: &mut Report<'_>, file: &Path) {
    let text = read(file);
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if is_comment(t) || !opens_unsafe(t) {
            continue;
        }
        let near = lines[i.saturating_sub(3)..=i]
            .iter()
            .any(|l| l.contains("SAFETY:"));
        let block_above = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim())
            .take_while(|l| l.starts_with("//") || l.starts_with("#["))
            .any(|l| l.contains("SAFETY:"));
        if !near && !block_above {
            r.add(
                file,
                i + 1,
                "`unsafe` without a `// SAFETY:` comment on the line or in the 3 lines above",
            );
        }
    }
}

// (f) ------------------------------------------------------------------------------------

fn data_headers(r: &mut Report<'_>, krate: &Crate) {
    for file in files_with_suffix(&krate.dir.join("tests/data"), ".txt") {
        let text = read(&file);
        let first = text.lines().next().unwrap_or("");
        if !first.starts_with("# ") {
            r.add(
                &file,
                1,
                "test data must start with a `# ` line saying where it comes from",
            );
        }
    }
}

// (g) ------------------------------------------------------------------------------------

/// The workspace's license texts, which every package must carry (`cargo package` takes
/// only the crate's own directory, and every RustCrypto package has both files).
const LICENSES: [&str; 2] = ["LICENSE-MIT", "LICENSE-APACHE"];

/// A published crate has a copy of each license file the workspace root has, unchanged.
fn license_files(r: &mut Report<'_>, krate: &Crate) {
    if !krate.publish {
        return;
    }
    for name in LICENSES {
        let Ok(root_text) = fs::read(r.root.join(name)) else {
            continue;
        };
        let copy = krate.dir.join(name);
        match fs::read(&copy) {
            Ok(text) if text == root_text => {}
            Ok(_) => r.add(&copy, 1, format!("differs from the workspace's {name}")),
            Err(_) => r.add(
                &krate.dir.join("Cargo.toml"),
                1,
                format!("the package lacks {name} (copy the workspace's)"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A synthetic tree in a temporary directory, removed on drop.
    struct Tree(PathBuf);

    impl Tree {
        fn new(files: &[(&str, &str)]) -> Self {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "xtask-tidy-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            let _ = fs::remove_dir_all(&dir);
            for (path, text) in files {
                let p = dir.join(path);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(p, text).unwrap();
            }
            Self(dir)
        }

        fn violations(&self) -> Vec<String> {
            check(&self.0)
                .unwrap()
                .iter()
                .map(ToString::to_string)
                .collect()
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    // The fixtures spell `unsafe` through `U` so this file holds no unsafe-looking code.
    const U: &str = "unsafe";

    /// A clean crate `foo-x` (lib `foo`) with backends soft and avx2.
    fn clean() -> Vec<(String, String)> {
        vec![
            (
                "Cargo.toml".into(),
                "[workspace]\nmembers = [\"crates/*\"]\n[workspace.lints.rust]\n\
                 unexpected_cfgs = { level = \"warn\", check-cfg = [\n\
                 \x20   'cfg(foo_backend, values(any()))',\n] }\n"
                    .into(),
            ),
            (
                "crates/foo-x/Cargo.toml".into(),
                "[package]\nname = \"foo-x\"\n\n[lib]\nname = \"foo\"\n".into(),
            ),
            (
                "crates/foo-x/src/lib.rs".into(),
                "//! Foo.\n//!\n//! # Backends\n//!\n//! | name | needs |\n//! |---|---|\n\
                 //! | `soft` | - |\n//! | `avx2` | AVX2 |\n//!\n\
                 //! Force one with `--cfg foo_backend=\"avx2\"`.\n\n\
                 mod backends;\n#[path = \"extra_file.rs\"]\nmod extra;\n"
                    .into(),
            ),
            (
                "crates/foo-x/src/extra_file.rs".into(),
                "//! Extra.\n".into(),
            ),
            (
                "crates/foo-x/src/backends.rs".into(),
                format!(
                    "simdcrypt_dispatch::backends! {{\n    crate: \"foo-x\", cfg: foo_backend;\n    \
                     /// Portable.\n    \"soft\" => Soft;\n    /// AVX2.\n    \"avx2\" => Avx2 {{\n        \
                     mod: avx2,\n        arch: [\"x86_64\"],\n        needs: [\"avx2\"],\n    }}\n}}\n\n\
                     fn call() {{\n    // SAFETY: detect() proved AVX2.\n    {U} {{ avx2::f() }}\n}}\n\n\
                     fn run(b: Backend) {{\n    dispatch!(b => f())\n}}\n"
                ),
            ),
            (
                "crates/foo-x/src/backends/soft.rs".into(),
                "//! Soft.\n".into(),
            ),
            (
                "crates/foo-x/src/backends/avx2/mod.rs".into(),
                format!(
                    "//! AVX2.\nmod helpers;\n#[target_feature(enable = \"avx2\")]\npub fn f() {{}}\n\
                     // SAFETY: a long\n// explanation\n// over\n// several\n// lines.\n\
                     {U} impl Send for X {{}}\n\
                     #[cfg(test)]\nmod tests {{\n    #[test]\n    fn avx2_matches_soft() {{}}\n}}\n"
                ),
            ),
            (
                "crates/foo-x/src/backends/avx2/helpers.rs".into(),
                "//! Helpers.\n".into(),
            ),
            (
                "crates/foo-x/benches/foo.rs".into(),
                "fn ids() -> &'static [&'static str] {\n    foo::__backends::ALL\n}\n".into(),
            ),
            (
                "crates/foo-x/tests/data/vectors.txt".into(),
                "# From RFC 0000, section 1.\nkey = 00\n".into(),
            ),
        ]
    }

    fn tree_with(edit: impl FnOnce(&mut Vec<(String, String)>)) -> Tree {
        let mut files = clean();
        edit(&mut files);
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        Tree::new(&refs)
    }

    fn set(files: &mut Vec<(String, String)>, path: &str, text: &str) {
        files.retain(|(p, _)| p != path);
        files.push((path.into(), text.into()));
    }

    fn remove(files: &mut Vec<(String, String)>, path: &str) {
        files.retain(|(p, _)| p != path);
    }

    fn assert_one(v: &[String], path_line: &str, needle: &str) {
        assert_eq!(v.len(), 1, "expected one violation, got {v:#?}");
        assert!(
            v[0].starts_with(path_line) && v[0].contains(needle),
            "expected {path_line} … {needle}, got {v:#?}"
        );
    }

    #[test]
    fn clean_tree_passes() {
        let v = tree_with(|_| {}).violations();
        assert!(v.is_empty(), "{v:#?}");
    }

    #[test]
    fn empty_workspace_passes() {
        let t = Tree::new(&[("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n")]);
        assert!(t.violations().is_empty());
    }

    #[test]
    fn license_files_are_copies() {
        let with = |crate_text: Option<&str>| {
            tree_with(|f| {
                set(f, "LICENSE-MIT", "MIT text\n");
                if let Some(t) = crate_text {
                    set(f, "crates/foo-x/LICENSE-MIT", t);
                }
            })
            .violations()
        };
        assert!(with(Some("MIT text\n")).is_empty());
        assert_one(
            &with(None),
            "crates/foo-x/Cargo.toml:1",
            "lacks LICENSE-MIT",
        );
        assert_one(
            &with(Some("other\n")),
            "crates/foo-x/LICENSE-MIT:1",
            "differs",
        );
    }

    #[test]
    fn orphan_file() {
        let v =
            tree_with(|f| set(f, "crates/foo-x/src/backends/old.rs", "//! Old.\n")).violations();
        assert_one(&v, "crates/foo-x/src/backends/old.rs:1", "not reachable");
    }

    #[test]
    fn commented_out_mod_does_not_count() {
        let v = tree_with(|f| {
            set(
                f,
                "crates/foo-x/src/lib.rs",
                "//! | `soft` |\n//! | `avx2` |\n// mod backends;\n#[path = \"extra_file.rs\"]\nmod extra;\n",
            )
        })
        .violations();
        assert_eq!(v.len(), 4, "{v:#?}"); // backends.rs, soft.rs, avx2/mod.rs, helpers.rs
        assert!(v.iter().all(|l| l.contains("not reachable")), "{v:#?}");
    }

    #[test]
    fn missing_mod_file() {
        let v = tree_with(|f| {
            let lib = f
                .iter()
                .find(|(p, _)| p == "crates/foo-x/src/lib.rs")
                .unwrap()
                .1
                .clone();
            set(f, "crates/foo-x/src/lib.rs", &format!("{lib}mod gone;\n"));
        })
        .violations();
        assert_one(&v, "crates/foo-x/src/lib.rs:", "`mod gone;` has no file");
    }

    const TABLE: &str = "crates/foo-x/src/backends.rs";

    /// `edit` applied to the clean tree's backends.rs.
    fn table_with(edit: impl FnOnce(&str) -> String) -> Tree {
        tree_with(|f| {
            let text = f.iter().find(|(p, _)| p == TABLE).unwrap().1.clone();
            set(f, TABLE, &edit(&text));
        })
    }

    #[test]
    fn backend_without_file_test_docs() {
        let v = table_with(|t| {
            t.replace(
                "    \"avx2\" => Avx2 {",
                "    \"gfni\" => Gfni {\n        arch: [\"x86_64\"],\n        needs: [\"gfni\"],\n    }\n    \"avx2\" => Avx2 {",
            )
        })
        .violations();
        let expected = [
            "crates/foo-x/src/backends.rs:6: foo-x: backend `gfni` has no file src/backends/gfni.rs",
            "crates/foo-x/src/backends.rs:6: foo-x: backend `gfni` has no test `fn gfni_matches_soft`",
            "crates/foo-x/src/backends.rs:23: foo-x: `dispatch!` calls `f`, which backend `gfni`'s \
             module does not define",
            "crates/foo-x/src/lib.rs:1: foo-x: the crate docs do not name backend `gfni` \
             (foo_backend=\"gfni\" or a Backends table row)",
        ];
        assert_eq!(v, expected);
    }

    const AVX2: &str = "crates/foo-x/src/backends/avx2/mod.rs";

    /// `edit` applied to the clean tree's avx2/mod.rs.
    fn avx2_with(edit: impl FnOnce(&str) -> String) -> Tree {
        tree_with(|f| {
            let text = f.iter().find(|(p, _)| p == AVX2).unwrap().1.clone();
            set(f, AVX2, &edit(&text));
        })
    }

    #[test]
    fn dispatched_function_needs_only_the_row() {
        let v = avx2_with(|t| t.replace("\"avx2\")]\npub fn f", "\"avx2,avx512f\")]\npub fn f"))
            .violations();
        assert_one(
            &v,
            "crates/foo-x/src/backends/avx2/mod.rs:4:",
            "enables `avx512f`",
        );
        // An `unsafe fn` must name the token as its precondition.
        let unsafe_fn = |doc: &str| {
            let doc = doc.to_string();
            avx2_with(move |t| {
                t.replace(
                    "#[target_feature(enable = \"avx2\")]\npub fn f",
                    &format!("{doc}pub unsafe fn f"),
                )
            })
            .violations()
        };
        let v = unsafe_fn("/// Runs.\n");
        assert_one(
            &v,
            "crates/foo-x/src/backends/avx2/mod.rs:4:",
            "`token::Avx2`",
        );
        assert!(unsafe_fn("/// # Safety\n/// A `token::Avx2` exists.\n").is_empty());
        // A safe function without target features needs nothing.
        assert!(
            avx2_with(|t| t.replace("#[target_feature(enable = \"avx2\")]\n", ""))
                .violations()
                .is_empty()
        );
    }

    #[test]
    fn no_bench_file() {
        let v = tree_with(|f| remove(f, "crates/foo-x/benches/foo.rs")).violations();
        assert_one(&v, "crates/foo-x/src/backends.rs:1:", "__backends::ALL");
    }

    #[test]
    fn feature_unknown_to_dispatch() {
        let v = table_with(|t| t.replace("[\"avx2\"]", "[\"avx2\", \"quantum\"]")).violations();
        assert_one(&v, "crates/foo-x/src/backends.rs:6:", "`quantum`");
    }

    #[test]
    fn table_cfg_checked() {
        let v = tree_with(|f| {
            let root = f[0].1.replace("foo_backend", "bar_backend");
            set(f, "Cargo.toml", &root);
        })
        .violations();
        assert_one(&v, "Cargo.toml:1", "no `cfg(foo_backend, values(any()))`");
        let v = table_with(|t| t.replace("cfg: foo_backend", "cfg: fo_backend")).violations();
        assert_eq!(v.len(), 2, "{v:#?}"); // the cfg name and its check-cfg line
        assert!(v.iter().any(|l| l.contains("not `foo_backend`")), "{v:#?}");
    }

    #[test]
    fn backends_dir_without_table() {
        let v = table_with(|t| t.replace("backends! {", "not_a_table! {")).violations();
        assert_eq!(v.len(), 2, "{v:#?}");
        assert!(
            v[0].starts_with("crates/foo-x/src/backends.rs:1")
                && v[0].contains("no `simdcrypt_dispatch::backends!`"),
            "{v:#?}"
        );
        // The table declares `soft`'s module too.
        assert!(
            v[1].starts_with("crates/foo-x/src/backends/soft.rs:1"),
            "{v:#?}"
        );
    }

    #[test]
    fn target_feature_outside_backends() {
        let v = tree_with(|f| {
            set(
                f,
                "crates/foo-x/src/extra_file.rs",
                "//! Extra: `#[target_feature]` in a comment is fine.\n\n#[target_feature(enable = \"avx2\")]\nfn g() {}\n",
            )
        })
        .violations();
        assert_one(&v, "crates/foo-x/src/extra_file.rs:3", "target_feature");
    }

    #[test]
    fn unsafe_without_safety() {
        let v = tree_with(|f| {
            set(
                f,
                "crates/foo-x/src/extra_file.rs",
                &format!(
                    "//! Extra.\nfn g() {{\n    let a = 1;\n    let b = 2;\n    let c = 3;\n    let d = 4;\n    \
                     // SAFETY: too far away.\n    let e = 5;\n    let f = 6;\n    let g = 7;\n    \
                     {U} {{ h() }};\n    let ok = // SAFETY: same line is fine\n        {U} {{ h() }};\n}}\n\
                     fn a() {{}}\nfn b() {{}}\nfn c() {{}}\n{U} impl Sync for Y {{}}\n{U} fn not_a_block() {{}}\nfn not_{U}() {{}}\n"
                ),
            )
        })
        .violations();
        assert_eq!(v.len(), 2, "{v:#?}");
        assert!(
            v[0].starts_with("crates/foo-x/src/extra_file.rs:11:"),
            "{v:#?}"
        );
        assert!(
            v[1].starts_with("crates/foo-x/src/extra_file.rs:18:"),
            "{v:#?}"
        );
    }

    #[test]
    fn docs_via_readme() {
        let v = tree_with(|f| {
            set(
                f,
                "crates/foo-x/src/lib.rs",
                "#![doc = include_str!(\"../README.md\")]\nmod backends;\n#[path = \"extra_file.rs\"]\nmod extra;\n",
            );
            set(
                f,
                "crates/foo-x/README.md",
                "# foo\n\n`foo_backend = \"soft\"` or `foo_backend=\"avx2\"`.\n",
            );
        })
        .violations();
        assert!(v.is_empty(), "{v:#?}");
    }

    #[test]
    fn data_file_without_header() {
        let v =
            tree_with(|f| set(f, "crates/foo-x/tests/data/more.txt", "key = 01\n")).violations();
        assert_one(
            &v,
            "crates/foo-x/tests/data/more.txt:1",
            "where it comes from",
        );
    }

    #[test]
    fn mod_decl_parsing() {
        let d = mod_decls(
            "//! x\n// mod no;\npub(crate) mod a;\n#[cfg(test)] mod b;\n#[path = \"c_impl.rs\"]\n\
             #[cfg(x)]\npub mod c;\nmod inline { fn f() {} }\nmod r#type;\n/* mod no2;\n*/\n",
        );
        assert_eq!(
            d,
            vec![
                ("a".to_string(), None, 3),
                ("b".to_string(), None, 4),
                ("c".to_string(), Some("c_impl.rs".to_string()), 7),
                ("type".to_string(), None, 9),
            ]
        );
    }

    /// The policy holds on the real tree (so `cargo test` enforces it).
    #[test]
    fn real_tree_is_tidy() {
        let v = check(&crate::util::root()).unwrap();
        assert!(
            v.is_empty(),
            "tidy found {} violation(s):\n{}",
            v.len(),
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
