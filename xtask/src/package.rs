//! `cargo xtask package`: every published crate packaged as `cargo publish` would make it,
//! then each package's tests built and run **from its unpacked `.crate` file**, so a test
//! that needs a file the package leaves out, or a dev-dependency packaging strips, fails
//! here and not on a user's machine.
//!
//! Each package is unpacked under the system's temporary directory (outside the
//! workspace, so it is its own root, as on a user's machine) and tested there with
//! `cargo test --release`, resolving its dependencies afresh as a user's first build
//! does. `--config patch.crates-io…` points only at the packages that crates.io does not
//! have yet and that the package names by version (`simdcrypt-dispatch`,
//! `simdcrypt-testkit`, and `des` for `des-crypt`'s exact pin): their unpacked copies
//! stand in for the registry, as they will once published in that order. The builds share
//! the workspace's target directory, so the registry dependencies are compiled once.

use std::env;
use std::fs;

use crate::util::{Cmd, Result, dry_run, target_dir};
use crate::workspace::{self, Crate, Workspace};

/// Packages every published crate and runs its tests from the unpacked package
/// (`tests: false`: builds them only).
pub fn run(ws: &Workspace, tests: bool) -> Result {
    let crates: Vec<&Crate> = ws.crates.iter().filter(|c| c.publish).collect();
    // Packaged together, cargo resolves the crates whose path dependencies are not on
    // crates.io yet to each other (packaging `des-crypt` alone needs `des` 0.9.1 there).
    // `--no-verify`: the builds below compile every package from its unpacked sources
    // (library, tests and doc tests), more than cargo's verify build does.
    Cmd::cargo()
        .args(["package", "--no-verify", "--allow-dirty"])
        .args(crates.iter().flat_map(|c| ["-p".to_string(), c.spec()]))
        .run()?;
    let target = target_dir();
    // Outside the workspace: cargo would take a package under it for a stray member.
    let out = env::temp_dir().join("simdcrypt-package-test");
    if !dry_run() {
        if out.exists() {
            fs::remove_dir_all(&out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
        }
        fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    }
    let mut unpacked = Vec::new();
    for c in &crates {
        let stem = stem(c)?;
        let file = target.join("package").join(format!("{stem}.crate"));
        Cmd::new("tar")
            .arg("-xzf")
            .arg(file.display().to_string())
            .arg("-C")
            .arg(out.display().to_string())
            .run()?;
        unpacked.push((*c, out.join(&stem)));
    }
    let pinned = unpublished(ws)?;
    for (c, dir) in &unpacked {
        let mut cmd = Cmd::cargo()
            .dir(dir)
            // Shared with the workspace's own builds: the registry dependencies are reused.
            .env("CARGO_TARGET_DIR", target.display().to_string());
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        for p in pinned.iter().filter(|p| needs(&manifest, p)) {
            let (_, path) = unpacked
                .iter()
                .find(|(u, _)| u.package == p.package)
                .ok_or_else(|| format!("{} is not packaged", p.package))?;
            cmd = cmd.args([
                "--config".to_string(),
                format!(
                    "patch.crates-io.{}.path={:?}",
                    p.package,
                    path.display().to_string()
                ),
            ]);
        }
        cmd = if tests {
            cmd.args(["test", "--release"])
        } else {
            cmd.args(["test", "--release", "--no-run"])
        };
        println!("\n--- {} (unpacked package)", stem(c)?);
        cmd.run()?;
    }
    Ok(())
}

/// `aes-0.9.5`: the package's file stem and unpacked directory name.
fn stem(c: &Crate) -> Result<String> {
    let version = c
        .version
        .as_deref()
        .ok_or_else(|| format!("{}: a published crate needs its own `version`", c.package))?;
    Ok(format!("{}-{version}", c.package))
}

/// The crates a package needs at a version crates.io does not have yet: our own crates
/// with no RustCrypto release of the same name (`simdcrypt-dispatch`, `simdcrypt-testkit`),
/// and those another crate pins exactly (`des = { path = …, version = "=0.9.1" }`). Their
/// unpacked packages stand in for the registry, as they will once published in that order.
/// A caret requirement (`aes = "0.9"`) resolves from crates.io, as it does for a user.
fn unpublished(ws: &Workspace) -> Result<Vec<&Crate>> {
    let mut out: Vec<&Crate> = ws
        .crates
        .iter()
        .filter(|c| c.publish && c.peer_version.is_none())
        .collect();
    for c in &ws.crates {
        let text = fs::read_to_string(c.dir.join("Cargo.toml")).map_err(|e| e.to_string())?;
        for (path, version) in workspace::path_dependencies(&text) {
            let Ok(dir) = fs::canonicalize(c.dir.join(path)) else {
                continue;
            };
            if version.is_some_and(|v| v.starts_with('='))
                && let Some(dep) = ws
                    .crates
                    .iter()
                    .find(|d| fs::canonicalize(&d.dir).is_ok_and(|d| d == dir))
                && !out.iter().any(|o| o.package == dep.package)
            {
                out.push(dep);
            }
        }
    }
    Ok(out)
}

/// The dependencies of a packaged (normalized) manifest, which cargo writes one table
/// each (`[dev-dependencies.testkit]`, with `package = "…"` if renamed): (package,
/// version requirement).
fn dependencies(manifest: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in manifest.lines().map(str::trim).chain(["[end]"]) {
        if line.starts_with('[') {
            out.extend(current.take());
            current = line
                .trim_matches(|c| c == '[' || c == ']')
                .split_once('.')
                .filter(|(section, _)| section.ends_with("dependencies"))
                .map(|(_, key)| (key.to_string(), String::new()));
        } else if let Some((package, version)) = current.as_mut()
            && let Some((k, v)) = line.split_once('=')
        {
            let v = v.trim().trim_matches('"').to_string();
            match k.trim() {
                "package" => *package = v,
                "version" => *version = v,
                _ => {}
            }
        }
    }
    out
}

/// Whether a package with `manifest` needs the unpacked `c` patched in: it depends on it,
/// and (for a crate whose name RustCrypto also publishes) pins exactly our version.
fn needs(manifest: &str, c: &Crate) -> bool {
    let exact = format!("={}", c.version.as_deref().unwrap_or_default());
    dependencies(manifest)
        .iter()
        .any(|(p, v)| *p == c.package && (c.peer_version.is_none() || *v == exact))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn patches_only_what_a_package_pins() {
        let m = "[dependencies.des]\nversion = \"=0.9.1\"\n\n[dev-dependencies.testkit]\n\
                 version = \"0.1.0\"\npackage = \"simdcrypt-testkit\"\n\n\
                 [dev-dependencies.rc_des]\nversion = \"=0.9.0\"\npackage = \"des\"\n\
                 [features]\nstd = []\n";
        assert_eq!(
            dependencies(m),
            [
                ("des".to_string(), "=0.9.1".to_string()),
                ("simdcrypt-testkit".into(), "0.1.0".into()),
                ("des".into(), "=0.9.0".into()),
            ]
        );
        let krate = |package: &str, version: &str, peer: Option<&str>| Crate {
            dir: PathBuf::new(),
            package: package.into(),
            lib: package.replace('-', "_"),
            version: Some(version.into()),
            publish: true,
            peer_version: peer.map(String::from),
        };
        assert!(needs(m, &krate("des", "0.9.1", Some("0.9.0"))));
        assert!(!needs(m, &krate("des", "0.9.2", Some("0.9.0"))));
        assert!(needs(m, &krate("simdcrypt-testkit", "0.1.0", None)));
        assert!(!needs(m, &krate("aes", "0.9.5", Some("0.9.4"))));
        let rc_only = "[dev-dependencies.rc_des]\nversion = \"=0.9.0\"\npackage = \"des\"\n";
        assert!(!needs(rc_only, &krate("des", "0.9.1", Some("0.9.0"))));
    }
}
