//! The host CPU: its features, and which forced backends it can run.

use std::env;

use crate::workspace::{Row, Workspace};

/// The x86 features a backend table may name: `simdcrypt_dispatch`'s list, which is
/// also what `cargo xtask ci` prints first on x86 hosts.
pub fn x86_features() -> impl Iterator<Item = &'static str> {
    simdcrypt_dispatch::FEATURES.iter().map(|(name, _)| *name)
}

/// The features printed on aarch64 hosts.
pub const AARCH64_FEATURES: &[&str] = &["neon", "aes", "pmull", "sha2", "sha3"];

/// Whether the host has `feature`; `None` if the name is unknown on this architecture.
pub fn has_feature(feature: &str) -> Option<bool> {
    // On x86 the crates' own detection answers (simdcrypt-dispatch: CPUID and XCR0), so
    // xtask skips exactly what the crates would refuse.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if x86_features().any(|f| f == feature) {
        return Some(simdcrypt_dispatch::has_named(feature));
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! arm {
            ($($name:tt)*) => {
                match feature {
                    $($name => return Some(std::arch::is_aarch64_feature_detected!($name)),)*
                    _ => {}
                }
            };
        }
        arm!("neon" "aes" "pmull" "sha2" "sha3");
    }
    let _ = feature;
    None
}

/// `Ok` if this host can run the backend of `row` (its crate's table), else why not.
pub fn can_run(row: &Row) -> Result<(), String> {
    let host = env::consts::ARCH;
    if !row.arch.is_empty() && !row.arch.iter().any(|a| a == host) {
        return Err(format!("needs {} (this is {host})", row.arch.join(" or ")));
    }
    let missing: Vec<&str> = row
        .needs
        .iter()
        .map(String::as_str)
        .filter(|f| has_feature(f) != Some(true))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("this CPU lacks {}", missing.join(", ")))
    }
}

/// Whether `TESTKIT_REQUIRE` (comma list or `all`) names `backend`: then a missing
/// backend is a failure, not a skip (same rule as `testkit::available`).
pub fn required(backend: &str) -> bool {
    env::var("TESTKIT_REQUIRE").is_ok_and(|v| {
        v.split(',')
            .map(str::trim)
            .any(|r| r == backend || r == "all")
    })
}

/// Prints the architecture, the CPU model (Linux) and the features that matter here.
pub fn print_features() {
    let arch = env::consts::ARCH;
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_default();
    println!("arch: {arch} ({})  {model}", env::consts::OS);
    let list: Vec<&str> = match arch {
        "x86" | "x86_64" => x86_features().collect(),
        "aarch64" => AARCH64_FEATURES.to_vec(),
        _ => {
            println!("no feature list for {arch}: only the portable backends run here");
            return;
        }
    };
    let (have, lack): (Vec<&str>, Vec<&str>) =
        list.iter().partition(|f| has_feature(f) == Some(true));
    println!("has:   {}", have.join(" "));
    println!(
        "lacks: {}",
        if lack.is_empty() {
            "-".to_string()
        } else {
            lack.join(" ")
        }
    );
    if let Ok(ws) = Workspace::load(&crate::util::root()) {
        let mut runnable: Vec<&str> = ws
            .backends
            .iter()
            .flat_map(|l| &l.rows)
            .filter(|r| can_run(r).is_ok())
            .map(|r| r.name.as_str())
            .collect();
        runnable.sort_unstable();
        runnable.dedup();
        println!("backends this CPU runs: {}", runnable.join(" "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(arch: &[&str], needs: &[&str]) -> Row {
        Row {
            name: "x".into(),
            variant: "X".into(),
            arch: arch.iter().map(|s| s.to_string()).collect(),
            needs: needs.iter().map(|s| s.to_string()).collect(),
            line: 1,
        }
    }

    /// Every feature a crate's table needs is one xtask can detect.
    #[test]
    fn tables_use_known_features() {
        let ws = Workspace::load(&crate::util::root()).unwrap();
        assert!(!ws.backends.is_empty());
        for list in &ws.backends {
            for r in &list.rows {
                for f in &r.needs {
                    let known =
                        x86_features().any(|x| x == f) || AARCH64_FEATURES.contains(&f.as_str());
                    assert!(
                        known,
                        "{}: {}: feature {f} is not in xtask's lists",
                        list.alg, r.name
                    );
                }
            }
        }
        assert!(can_run(&row(&[], &[])).is_ok());
        assert!(can_run(&row(&["no-such-arch"], &[])).is_err());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_64_host() {
        assert!(can_run(&row(&["x86_64"], &["sse2"])).is_ok());
        assert_eq!(has_feature("sse2"), Some(true));
        assert_eq!(has_feature("neon"), None);
        assert!(can_run(&row(&["aarch64"], &["neon"])).is_err());
        for f in x86_features() {
            assert!(has_feature(f).is_some(), "{f}");
        }
    }
}
