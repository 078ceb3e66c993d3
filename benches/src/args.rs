//! The command line, parsed by hand (std only).
//!
//! Options take one dash like `openssl speed` (`-seconds 3`) or two (`--seconds 3`),
//! and a value may follow an `=` (`--json=out.json`). Every other word names an
//! algorithm.

use std::fmt;
use std::path::PathBuf;

/// The sizes `openssl speed` measures.
pub const SIZES: [usize; 6] = [16, 64, 256, 1024, 8192, 16384];

/// What to measure and what to write.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Seconds per implementation and size (`-seconds`, default 3).
    pub seconds: f64,
    /// Buffer sizes (`-bytes N` for one, else [`SIZES`]).
    pub sizes: Vec<usize>,
    /// The algorithms to run, in the order given (none: all of them).
    pub algs: Vec<String>,
    /// Also count TSC cycles per byte (`--cycles`).
    pub cycles: bool,
    /// Also run the peers and print ratios (`--compare`).
    pub compare: bool,
    /// Where to write the JSON results (`--json FILE`).
    pub json: Option<PathBuf>,
    /// Where to write the SVG plot (`--plot FILE.svg`).
    pub plot: Option<PathBuf>,
    /// Run our ciphers' CBC and CTR rows through the published `cbc`/`ctr` crates instead
    /// of ours (`--modes published`; `--modes ours` is the default).
    pub published_modes: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seconds: 3.0,
            sizes: SIZES.to_vec(),
            algs: Vec::new(),
            cycles: false,
            compare: false,
            json: None,
            plot: None,
            published_modes: false,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Print the usage and exit.
    Help,
    /// Measure.
    Run(Options),
}

/// A command line `speed` cannot run; the process exits with status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// An option `speed` does not have.
    UnknownOption(String),
    /// A word that names no algorithm; carries the known names.
    UnknownAlgorithm(String, Vec<&'static str>),
    /// An option that needs a value came last.
    MissingValue(String),
    /// A value that does not parse or is out of range.
    BadValue {
        option: String,
        value: String,
        expected: &'static str,
    },
    /// A flag given a value with `=`.
    UnexpectedValue(String),
}

impl ArgError {
    /// The exit status for a bad command line, as for `openssl speed`'s usage errors.
    pub const EXIT_CODE: u8 = 2;
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::UnknownOption(opt) => write!(f, "unknown option '{opt}'"),
            ArgError::UnknownAlgorithm(name, known) => {
                write!(f, "unknown algorithm '{name}' (known: {})", known.join(" "))
            }
            ArgError::MissingValue(opt) => write!(f, "option '{opt}' needs a value"),
            ArgError::BadValue {
                option,
                value,
                expected,
            } => {
                write!(f, "bad value '{value}' for '{option}': expected {expected}")
            }
            ArgError::UnexpectedValue(opt) => write!(f, "option '{opt}' takes no value"),
        }
    }
}

impl std::error::Error for ArgError {}

/// Parses the arguments after the program name; `known` lists the algorithm names.
pub fn parse<I>(args: I, known: &[&'static str]) -> Result<Command, ArgError>
where
    I: IntoIterator<Item = String>,
{
    let mut opts = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if !arg.starts_with('-') || arg == "-" {
            if !known.contains(&arg.as_str()) {
                return Err(ArgError::UnknownAlgorithm(arg, known.to_vec()));
            }
            if !opts.algs.contains(&arg) {
                opts.algs.push(arg);
            }
            continue;
        }
        // `--name` and `-name` are the same option; `--name=value` carries its value.
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (arg.as_str(), None),
        };
        let name = name
            .strip_prefix("--")
            .or_else(|| name.strip_prefix('-'))
            .unwrap_or(name);
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| ArgError::MissingValue(arg.clone()))
        };
        let flag = |set: &mut bool| match inline {
            Some(_) => Err(ArgError::UnexpectedValue(arg.clone())),
            None => {
                *set = true;
                Ok(())
            }
        };
        match name {
            "h" | "help" => return Ok(Command::Help),
            "seconds" => {
                let v = value()?;
                opts.seconds = match v.parse::<f64>() {
                    Ok(s) if s > 0.0 && s <= 1e6 => s,
                    _ => return Err(bad(&arg, v, "a number of seconds above 0")),
                };
            }
            "bytes" => {
                let v = value()?;
                opts.sizes = match v.parse::<usize>() {
                    Ok(n) if (1..=1 << 30).contains(&n) => vec![n],
                    _ => return Err(bad(&arg, v, "a size from 1 to 1073741824 bytes")),
                };
            }
            "json" => opts.json = Some(PathBuf::from(value()?)),
            "plot" => opts.plot = Some(PathBuf::from(value()?)),
            "cycles" => flag(&mut opts.cycles)?,
            "compare" => flag(&mut opts.compare)?,
            "modes" => {
                let v = value()?;
                opts.published_modes = match v.as_str() {
                    "ours" => false,
                    "published" => true,
                    _ => return Err(bad(&arg, v, "`ours` or `published`")),
                };
            }
            _ => return Err(ArgError::UnknownOption(arg)),
        }
    }
    Ok(Command::Run(opts))
}

fn bad(option: &str, value: String, expected: &'static str) -> ArgError {
    ArgError::BadValue {
        option: option.split('=').next().unwrap_or(option).to_owned(),
        value,
        expected,
    }
}

/// The `--help` text; `algs` is one line per algorithm, `count` the number of
/// algorithms and `default_secs` how long the default run measures.
pub fn usage(algs: &str, count: usize, default_secs: f64) -> String {
    let sizes = SIZES.len();
    let default_min = (default_secs / 60.0).round();
    let first_look = default_secs / 30.0;
    format!(
        "\
speed: `openssl speed` for simdcrypt's crates, with their peers side by side

Usage: cargo run --release -p speed [--features openssl] -- [options] [algorithm...]

Measures every algorithm (or those named) on buffers of 16, 64, 256, 1024, 8192 and
16384 bytes and prints the throughput table of `openssl speed` on stdout, in 1000s
of bytes per second. Progress goes to stderr: a line per measurement, and after each
algorithm how far the run is and about how long is left.

The default run measures each of {count} algorithms 3 s per size ({sizes} sizes), as
`openssl speed` does: about {default_min:.0} minutes. For a first look:
  cargo run --release -p speed -- -seconds 0.1              (about {first_look:.0} s, all of them)
  cargo run --release -p speed -- -seconds 0.3 md5 aes-128-ctr   (a few, in seconds)

Options (one dash or two):
  -seconds N      run each implementation N seconds per size (default 3; 0.1 for a
                  first look, 0.05 for a smoke test)
  -bytes N        measure only N-byte buffers
  --compare       also run the RustCrypto crate (and OpenSSL's libcrypto when built
                  with --features openssl), interleaved with ours in short turns, and
                  print ours / peer ratios
  --cycles        also count TSC cycles per byte, SUPERCOP style: many timings per
                  implementation and size, the median kept (x86_64 only)
  --modes M       `ours` (default): CBC and CTR rows run our ciphers through this
                  workspace's `cbc`/`ctr`; `published`: through RustCrypto's published
                  `cbc` 0.2.1/`ctr` 0.10.1 (the peer column always uses the published
                  cipher and mode crates)
  --json FILE     write every number, with the machine's CPU and features, as JSON
  --plot FILE     write a bar chart of the throughput as SVG
  -h, --help      print this help

Timing: on Linux each implementation is charged its own thread's CPU time, as
`openssl speed` charges user time, so other processes on a busy machine do not
count; elsewhere the wall clock. Cycles are TSC ticks, not core clock cycles.

Algorithms (openssl speed names) and their peers:
{algs}
Exit status: 0 on success, 1 if a measurement fails, 2 for a bad command line.
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["md5", "rc4"];

    fn run(args: &[&str]) -> Result<Command, ArgError> {
        parse(args.iter().map(|a| a.to_string()), KNOWN)
    }

    fn opts(args: &[&str]) -> Options {
        match run(args) {
            Ok(Command::Run(opts)) => opts,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn defaults() {
        assert_eq!(opts(&[]), Options::default());
        assert_eq!(Options::default().seconds, 3.0);
        assert_eq!(Options::default().sizes, SIZES);
    }

    #[test]
    fn openssl_style_and_gnu_style() {
        let expected = Options {
            seconds: 0.05,
            sizes: vec![100],
            algs: vec!["rc4".into(), "md5".into()],
            cycles: true,
            compare: true,
            json: Some("o.json".into()),
            plot: Some("p.svg".into()),
            published_modes: false,
        };
        let one_dash = [
            "-seconds", "0.05", "rc4", "-bytes", "100", "-cycles", "-compare", "-json", "o.json",
            "-plot", "p.svg", "md5",
        ];
        assert_eq!(opts(&one_dash), expected);
        let two_dashes = [
            "--seconds=0.05",
            "--bytes",
            "100",
            "rc4",
            "--cycles",
            "--compare",
            "--json=o.json",
            "--plot",
            "p.svg",
            "md5",
            "rc4",
        ];
        assert_eq!(opts(&two_dashes), expected);
    }

    #[test]
    fn modes() {
        assert!(!opts(&["--modes", "ours"]).published_modes);
        assert!(opts(&["--modes=published"]).published_modes);
        assert!(matches!(
            run(&["--modes", "theirs"]),
            Err(ArgError::BadValue { .. })
        ));
    }

    #[test]
    fn usage_says_how_long() {
        let text = usage("  md5\n", 50, 900.0);
        assert!(
            text.contains("each of 50 algorithms 3 s per size (6 sizes)"),
            "{text}"
        );
        assert!(text.contains("about 15 minutes"), "{text}");
        assert!(
            text.contains("-seconds 0.1              (about 30 s"),
            "{text}"
        );
    }

    #[test]
    fn help() {
        assert_eq!(run(&["--help"]), Ok(Command::Help));
        assert_eq!(run(&["md5", "-h"]), Ok(Command::Help));
        assert_eq!(run(&["-help"]), Ok(Command::Help));
    }

    #[test]
    fn errors() {
        assert_eq!(
            run(&["--bogus"]),
            Err(ArgError::UnknownOption("--bogus".into()))
        );
        assert_eq!(run(&["-evp"]), Err(ArgError::UnknownOption("-evp".into())));
        let err = run(&["sha1"]).unwrap_err();
        assert_eq!(err.to_string(), "unknown algorithm 'sha1' (known: md5 rc4)");
        assert_eq!(
            run(&["-seconds"]),
            Err(ArgError::MissingValue("-seconds".into()))
        );
        for bad_value in [
            ["-seconds", "0"],
            ["-seconds", "x"],
            ["-seconds", "NaN"],
            ["-bytes", "0"],
            ["-bytes", "-1"],
        ] {
            assert!(
                matches!(run(&bad_value), Err(ArgError::BadValue { .. })),
                "{bad_value:?}"
            );
        }
        assert_eq!(
            run(&["--seconds=inf"]).unwrap_err().to_string(),
            "bad value 'inf' for '--seconds': expected a number of seconds above 0"
        );
        assert_eq!(
            run(&["--cycles=yes"]),
            Err(ArgError::UnexpectedValue("--cycles=yes".into()))
        );
        assert_eq!(
            run(&["-"]),
            Err(ArgError::UnknownAlgorithm("-".into(), KNOWN.to_vec()))
        );
        assert_eq!(ArgError::EXIT_CODE, 2);
    }
}
