//! The host CPU: its features, and which forced backends it can run.

use std::env;

/// What each backend name needs: the architecture (`any`, `x86` = x86 or x86_64,
/// `x86_64`, `aarch64`) and the CPU features (names of `is_x86_feature_detected!` /
/// `is_aarch64_feature_detected!`). A new backend name is one new line here; `tidy`
/// fails while a check-cfg value is missing from this table.
pub const BACKENDS: &[(&str, &str, &[&str])] = &[
    ("soft", "any", &[]),
    ("x86_64", "x86_64", &[]),
    ("sse2", "x86", &["sse2"]),
    ("ssse3", "x86", &["ssse3"]),
    ("sse41", "x86", &["sse4.1"]),
    ("aesni", "x86", &["aes"]),
    ("clmul", "x86", &["pclmulqdq"]),
    ("avx", "x86", &["avx"]),
    ("avx2", "x86", &["avx2"]),
    ("bmi2", "x86", &["bmi2"]),
    ("avx512", "x86", &["avx512f", "avx512bw", "avx512vl"]),
    ("vaes", "x86", &["vaes", "avx512f"]),
    ("vaes256", "x86", &["vaes", "avx2"]),
    ("vaes512", "x86", &["vaes", "avx512f"]),
    ("gfni", "x86", &["gfni"]),
    ("aesni_avx2", "x86", &["aes", "avx2"]),
    ("gfni_avx2", "x86", &["gfni", "avx2"]),
    (
        "gfni_avx512",
        "x86",
        &["gfni", "avx512f", "avx512bw", "avx512vl", "avx512vbmi"],
    ),
    ("shani", "x86", &["sha"]),
    ("neon", "aarch64", &["neon"]),
    ("armv8", "aarch64", &["aes", "pmull"]),
    ("sha2", "aarch64", &["sha2"]),
];

/// The features `cargo xtask ci` prints first (x86 / x86_64 hosts).
pub const X86_FEATURES: &[&str] = &[
    "sse2",
    "ssse3",
    "sse4.1",
    "aes",
    "pclmulqdq",
    "avx",
    "avx2",
    "bmi2",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512vbmi",
    "vaes",
    "vpclmulqdq",
    "gfni",
    "sha",
];

/// The features printed on aarch64 hosts.
pub const AARCH64_FEATURES: &[&str] = &["neon", "aes", "pmull", "sha2", "sha3"];

/// The table entry of `backend`.
pub fn requirement(backend: &str) -> Option<(&'static str, &'static [&'static str])> {
    BACKENDS
        .iter()
        .find(|(name, _, _)| *name == backend)
        .map(|&(_, arch, features)| (arch, features))
}

/// Whether the host has `feature`; `None` if the name is unknown on this architecture.
pub fn has_feature(feature: &str) -> Option<bool> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        macro_rules! x86 {
            ($($name:tt)*) => {
                match feature {
                    $($name => return Some(std::arch::is_x86_feature_detected!($name)),)*
                    _ => {}
                }
            };
        }
        x86!("sse2" "ssse3" "sse4.1" "sse4.2" "aes" "pclmulqdq" "avx" "avx2" "bmi1" "bmi2"
            "avx512f" "avx512bw" "avx512dq" "avx512vl" "avx512vbmi" "avx512vbmi2" "vaes"
            "vpclmulqdq" "gfni" "sha");
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

fn arch_matches(arch: &str) -> bool {
    let host = env::consts::ARCH;
    match arch {
        "any" => true,
        "x86" => host == "x86" || host == "x86_64",
        a => host == a,
    }
}

/// `Ok` if this host can run `backend`, else why not.
pub fn can_run(backend: &str) -> Result<(), String> {
    let Some((arch, features)) = requirement(backend) else {
        return Err(format!(
            "backend `{backend}` is not in xtask's table (xtask/src/cpu.rs BACKENDS): \
             add the CPU features it needs"
        ));
    };
    if !arch_matches(arch) {
        return Err(format!(
            "needs an {arch} CPU, this is {}",
            env::consts::ARCH
        ));
    }
    let missing: Vec<&str> = features
        .iter()
        .copied()
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
    let list = match arch {
        "x86" | "x86_64" => X86_FEATURES,
        "aarch64" => AARCH64_FEATURES,
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
    let runnable: Vec<&str> = BACKENDS
        .iter()
        .map(|b| b.0)
        .filter(|b| can_run(b).is_ok())
        .collect();
    println!("backends this CPU runs: {}", runnable.join(" "));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (name, arch, features) in BACKENDS {
            assert!(["any", "x86", "x86_64", "aarch64"].contains(arch), "{name}");
            for f in *features {
                let known = match *arch {
                    "x86" | "x86_64" => X86_FEATURES.contains(f),
                    "aarch64" => AARCH64_FEATURES.contains(f),
                    _ => false,
                };
                assert!(known, "{name}: feature {f} is not in the feature list");
            }
        }
        assert!(can_run("soft").is_ok());
        assert!(can_run("no-such-backend").is_err());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_64_host() {
        assert!(can_run("x86_64").is_ok());
        assert_eq!(has_feature("sse2"), Some(true));
        assert_eq!(has_feature("neon"), None);
        assert!(can_run("neon").is_err());
        for f in X86_FEATURES {
            assert!(has_feature(f).is_some(), "{f}");
        }
    }
}
