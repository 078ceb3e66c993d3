//! What the numbers were measured on: CPU model, core count and the instruction-set
//! extensions the crates' backends are chosen by.

/// A description of this machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// `std::env::consts::ARCH`.
    pub arch: &'static str,
    /// `std::env::consts::OS`.
    pub os: &'static str,
    /// The CPU's vendor (`vendor_id` in `/proc/cpuinfo`, as lscpu's `Vendor ID`), or
    /// `unknown`.
    pub cpu_vendor: String,
    /// The CPU's name (`model name` in `/proc/cpuinfo`), or `unknown`.
    pub cpu_model: String,
    /// Logical CPUs this process may use.
    pub logical_cpus: usize,
    /// The detected extensions the backends care about, in a fixed order.
    pub features: Vec<&'static str>,
    /// The libcrypto version, when OpenSSL is a peer.
    pub openssl: Option<String>,
}

impl Machine {
    /// Looks at the machine `speed` runs on.
    pub fn detect() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        Machine {
            arch: std::env::consts::ARCH,
            os: std::env::consts::OS,
            cpu_vendor: field(&cpuinfo, &["vendor_id", "CPU implementer"])
                .unwrap_or_else(|| "unknown".to_owned()),
            cpu_model: field(
                &cpuinfo,
                &["model name", "cpu model", "Model", "Hardware", "cpu"],
            )
            .unwrap_or_else(|| "unknown".to_owned()),
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            features: features(),
            openssl: None,
        }
    }
}

/// The first of `keys` that a `/proc/cpuinfo` text gives a value (x86's `model name`,
/// or the fields other architectures use).
fn field(cpuinfo: &str, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|key| {
        cpuinfo.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_owned())
        })
    })
}

/// Detects each listed feature at run time; the list stays in the order given.
macro_rules! detect_features {
    ($detect:ident: $($name:tt),* $(,)?) => {{
        let mut found = Vec::new();
        $(if std::arch::$detect!($name) { found.push($name); })*
        found
    }};
}

#[cfg(target_arch = "x86_64")]
fn features() -> Vec<&'static str> {
    detect_features!(is_x86_feature_detected:
        "sse2", "ssse3", "sse4.1", "sse4.2", "pclmulqdq", "aes", "sha", "avx", "avx2",
        "bmi1", "bmi2", "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "vaes", "gfni",
        "vpclmulqdq",
    )
}

#[cfg(target_arch = "aarch64")]
fn features() -> Vec<&'static str> {
    detect_features!(is_aarch64_feature_detected: "neon", "aes", "sha2", "sha3", "pmull")
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn features() -> Vec<&'static str> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu_model(cpuinfo: &str) -> Option<String> {
        field(
            cpuinfo,
            &["model name", "cpu model", "Model", "Hardware", "cpu"],
        )
    }

    #[test]
    fn cpu_model_from_cpuinfo() {
        let x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 106\n\
                   model name\t: Intel(R) Xeon(R) Processor\nflags\t\t: fpu\n";
        assert_eq!(
            cpu_model(x86).as_deref(),
            Some("Intel(R) Xeon(R) Processor")
        );
        assert_eq!(
            cpu_model("processor : 0\nHardware : BCM2835\n").as_deref(),
            Some("BCM2835")
        );
        assert_eq!(cpu_model("processor : 0\n"), None);
        assert_eq!(
            field(x86, &["vendor_id", "CPU implementer"]).as_deref(),
            Some("GenuineIntel")
        );
    }

    #[test]
    fn detects_this_machine() {
        let machine = Machine::detect();
        assert!(machine.logical_cpus >= 1);
        #[cfg(target_arch = "x86_64")]
        assert!(
            machine.features.contains(&"sse2"),
            "SSE2 is baseline on x86_64"
        );
    }
}
