//! Running commands, finding programs, the repository root and the target directory.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::{env, fs};

/// Errors are messages for a person; `main` prints them and exits non-zero.
pub type Result<T = ()> = std::result::Result<T, String>;

/// `--dry-run`: print the commands that change something instead of running them.
static DRY_RUN: AtomicBool = AtomicBool::new(false);

pub fn set_dry_run(on: bool) {
    DRY_RUN.store(on, Ordering::Relaxed);
}

pub fn dry_run() -> bool {
    DRY_RUN.load(Ordering::Relaxed)
}

/// Everything skipped so far, for the summary of `cargo xtask ci`.
static SKIPPED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Prints `SKIP <what>` loudly and remembers it for the summary.
pub fn skip(what: impl Into<String>) {
    let what = what.into();
    println!("SKIP {what}");
    SKIPPED.lock().unwrap_or_else(|e| e.into_inner()).push(what);
}

/// What was skipped so far.
pub fn skipped() -> Vec<String> {
    SKIPPED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The workspace root: the parent of this package's directory.
pub fn root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = fs::canonicalize(dir).map_or_else(|_| dir.to_path_buf(), strip_verbatim);
    dir.parent().map_or(dir.clone(), Path::to_path_buf)
}

/// `\\?\C:\x` → `C:\x`: Windows' canonical form confuses other programs.
fn strip_verbatim(p: PathBuf) -> PathBuf {
    match p.to_str().and_then(|s| s.strip_prefix(r"\\?\")) {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => PathBuf::from(rest),
        _ => p,
    }
}

/// The cargo that runs us (`$CARGO`), so nested runs use the same toolchain.
pub fn cargo_program() -> String {
    env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

/// The workspace's target directory as cargo sees it (`CARGO_TARGET_DIR`, config, or
/// `<root>/target`). The forced-backend, ladder and drop-in builds live under it.
pub fn target_dir() -> PathBuf {
    let meta = Cmd::cargo()
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output();
    if let Ok(json) = meta
        && let Some(dir) = json_string_field(&json, "target_directory")
    {
        return PathBuf::from(dir);
    }
    match env::var_os("CARGO_TARGET_DIR") {
        Some(d) if Path::new(&d).is_absolute() => PathBuf::from(d),
        Some(d) => root().join(d),
        None => root().join("target"),
    }
}

/// The value of the first `"field":"…"` in a JSON text (enough for `cargo metadata`).
pub fn json_string_field(json: &str, field: &str) -> Option<String> {
    let key = format!("\"{field}\":\"");
    let start = json.find(&key)? + key.len();
    let mut out = String::new();
    let mut chars = json[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// The host's target triple, from `rustc -vV`.
pub fn host_triple() -> Result<String> {
    let out = Cmd::new("rustc").arg("-vV").output()?;
    out.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|s| s.trim().to_string())
        .ok_or_else(|| "`rustc -vV` printed no `host:` line".to_string())
}

/// The full path of `name` on `PATH`, if it is there.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    let exts: &[&str] = if cfg!(windows) {
        &[".exe", ".cmd", ".bat", ""]
    } else {
        &[""]
    };
    env::split_paths(&path).find_map(|dir| {
        exts.iter()
            .map(|ext| dir.join(format!("{name}{ext}")))
            .find(|p| p.is_file())
    })
}

/// Whether we run as root (Unix), asked of `id -u` to stay in plain std.
pub fn is_root() -> bool {
    Cmd::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|s| s.trim() == "0")
}

/// `RUSTFLAGS` (or empty) with `extra` appended.
pub fn rustflags_plus(var: &str, extra: &str) -> String {
    let old = env::var(var).unwrap_or_default();
    let old = old.trim();
    if old.is_empty() {
        extra.to_string()
    } else {
        format!("{old} {extra}")
    }
}

/// `RUSTFLAGS` without any `target-cpu` choice (binaries that must run on weaker CPUs);
/// `None` if it is not set.
pub fn rustflags_without_target_cpu() -> Option<String> {
    let old = env::var("RUSTFLAGS").ok()?;
    let mut out: Vec<&str> = Vec::new();
    let mut it = old.split_whitespace().peekable();
    while let Some(f) = it.next() {
        if f.starts_with("-Ctarget-cpu") {
            continue;
        }
        if f == "-C" && it.peek().is_some_and(|n| n.starts_with("target-cpu")) {
            it.next();
            continue;
        }
        out.push(f);
    }
    Some(out.join(" "))
}

/// A command to run, printed first as a shell line a person can paste.
#[derive(Clone, Debug)]
pub struct Cmd {
    program: String,
    args: Vec<String>,
    env: Vec<(String, Option<String>)>,
    dir: Option<PathBuf>,
}

impl Cmd {
    pub fn new(program: impl Into<String>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            dir: None,
        }
    }

    /// `cargo …` in the workspace root.
    pub fn cargo() -> Self {
        Self::new(cargo_program()).dir(root())
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets `key` (replacing an earlier setting or removal of it).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let key = key.into();
        self.env.retain(|(k, _)| *k != key);
        self.env.push((key, Some(value.into())));
        self
    }

    /// Removes `key` from the environment (replacing an earlier setting of it).
    pub fn env_remove(mut self, key: impl Into<String>) -> Self {
        let key = key.into();
        self.env.retain(|(k, _)| *k != key);
        self.env.push((key, None));
        self
    }

    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dir = Some(dir.into());
        self
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args);
        for (k, v) in &self.env {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        if let Some(d) = &self.dir {
            c.current_dir(d);
        }
        c
    }

    /// The command as a shell line (`cargo` shown by name, not by its full path).
    pub fn display(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        // `env -u A B=1 cmd`: env's options come before its assignments.
        for (k, v) in &self.env {
            if v.is_none() {
                parts.push(format!("-u {k}"));
            }
        }
        if !parts.is_empty() {
            parts.insert(0, "env".to_string());
        }
        for (k, v) in &self.env {
            if let Some(v) = v {
                parts.push(format!("{k}={}", shell_quote(v)));
            }
        }
        let program = if self.program == cargo_program() {
            "cargo"
        } else {
            &self.program
        };
        parts.push(shell_quote(program));
        parts.extend(self.args.iter().map(|a| shell_quote(a)));
        parts.join(" ")
    }

    /// Runs the command with inherited stdio; non-zero exit is an error.
    pub fn run(&self) -> Result {
        println!("$ {}", self.display());
        if dry_run() {
            return Ok(());
        }
        let status = self
            .command()
            .status()
            .map_err(|e| format!("cannot start `{}`: {e}", self.program))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` failed ({status})", self.display()))
        }
    }

    /// Runs the command quietly and returns its stdout (also in `--dry-run`: queries only).
    pub fn output(&self) -> Result<String> {
        let out = self
            .command()
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot start `{}`: {e}", self.program))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(format!(
                "`{}` failed ({}): {}",
                self.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Runs the command quietly and returns stdout and stderr, whatever its exit status
    /// (for programs like `qemu-x86_64 -cpu help` that exit non-zero after printing).
    pub fn output_any(&self) -> Result<String> {
        let out = self
            .command()
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot start `{}`: {e}", self.program))?;
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        Ok(text)
    }

    /// Runs the command silently; whether it exited 0.
    pub fn succeeds(&self) -> bool {
        self.command()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// Quotes a word for a POSIX shell if it needs it.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted; skips
/// `target` and hidden directories.
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, &mut |p| {
        if p.file_name()
            .and_then(OsStr::to_str)
            .is_some_and(|n| n.ends_with(suffix))
        {
            out.push(p.to_path_buf());
        }
    });
    out.sort();
    out
}

fn walk(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(OsStr::to_str).unwrap_or("");
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                walk(&p, f);
            }
        } else {
            f(&p);
        }
    }
}

/// `path` relative to `base` for messages (unchanged if it is not under `base`).
pub fn rel(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("cargo"), "cargo");
        assert_eq!(
            shell_quote("--cfg md5_backend=\"avx512\""),
            "'--cfg md5_backend=\"avx512\"'"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn json_field() {
        let j = r#"{"packages":[],"target_directory":"C:\\w\\target","version":1}"#;
        assert_eq!(
            json_string_field(j, "target_directory").as_deref(),
            Some(r"C:\w\target")
        );
        assert_eq!(json_string_field(j, "nope"), None);
    }

    #[test]
    fn display_shows_env() {
        let c = Cmd::new("cargo")
            .args(["test", "-p", "md-5"])
            .env("RUSTFLAGS", "--cfg md5_backend=\"soft\"");
        assert_eq!(
            c.display(),
            "RUSTFLAGS='--cfg md5_backend=\"soft\"' cargo test -p md-5"
        );
        let c = Cmd::new("x").env("A", "1").env_remove("B");
        assert_eq!(c.display(), "env -u B A=1 x");
        let c = Cmd::new("x").env("A", "1").env("B", "2").env("A", "3");
        assert_eq!(c.display(), "B=2 A=3 x");
    }
}
