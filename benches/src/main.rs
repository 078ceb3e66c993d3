//! `speed`: `openssl speed` for the simdcrypt crates.
//!
//! `cargo run --release -p speed` measures every algorithm of the workspace on
//! 16…16384-byte buffers and prints the table `openssl speed` prints (1000s of bytes
//! per second), with the same algorithm names. `--compare` runs the RustCrypto crate
//! each of ours replaces, and with the `openssl` feature OpenSSL's libcrypto too,
//! interleaved with ours in short turns, and prints ours ÷ peer; `--cycles` adds TSC
//! cycles per byte (x86_64); `--json` and `--plot` write the numbers for tools and
//! for people. `speed --help` lists the options and the algorithms.
//!
//! Layout: [`args`] parses the command line, [`registry`] holds the one table of
//! algorithms and the generic runners, [`measure`] times them, [`results`] holds the
//! numbers, and [`report`], [`json`] and [`plot`] write them out.

mod args;
mod json;
mod machine;
mod measure;
#[cfg(feature = "openssl")]
mod ossl;
mod plot;
mod registry;
mod report;
mod results;
mod stamp;

use std::process::ExitCode;

use args::{ArgError, Command, Options};
use machine::Machine;
use registry::{ALGS, Alg, Runner};
use results::{Point, Results, Row, Source};

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match args::parse(argv.clone(), &registry::names()) {
        Ok(Command::Help) => {
            let default_secs = estimate(&ALGS.iter().collect::<Vec<_>>(), &Options::default());
            print!(
                "{}",
                args::usage(&algorithm_list(), ALGS.len(), default_secs)
            );
            ExitCode::SUCCESS
        }
        Ok(Command::Run(opts)) => match run(&opts, &argv) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("speed: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("speed: {e}\nTry 'speed --help' for more information.");
            ExitCode::from(ArgError::EXIT_CODE)
        }
    }
}

/// One line per algorithm for `--help`.
fn algorithm_list() -> String {
    let openssl_note = if cfg!(feature = "openssl") {
        ""
    } else {
        " (with --features openssl)"
    };
    ALGS.iter()
        .map(|alg| {
            let openssl = alg.openssl.map_or(String::new(), |evp| {
                format!(", OpenSSL {}{openssl_note}", evp.name())
            });
            format!("  {:<16}RustCrypto{openssl}\n", alg.name)
        })
        .collect()
}

/// The implementations `alg` runs with `opts` (ours, and the peers `--compare` adds).
fn implementation_count(alg: &Alg, opts: &Options) -> usize {
    let openssl = cfg!(feature = "openssl") && alg.openssl.is_some();
    1 + usize::from(opts.compare) * (1 + usize::from(openssl))
}

/// Seconds of measuring `algs` takes with `opts` (the budget; calibration and cycle
/// counting add a little).
fn estimate(algs: &[&Alg], opts: &Options) -> f64 {
    algs.iter()
        .map(|alg| implementation_count(alg, opts) as f64)
        .sum::<f64>()
        * opts.sizes.len() as f64
        * opts.seconds
}

/// Measures what `opts` asks for and writes every report; `argv` is the command line
/// (recorded in the JSON).
fn run(opts: &Options, argv: &[String]) -> Result<(), String> {
    let algs: Vec<&Alg> = ALGS
        .iter()
        .filter(|alg| opts.algs.is_empty() || opts.algs.iter().any(|a| a == alg.name))
        .collect();
    #[cfg(feature = "openssl")]
    let _providers = if opts.compare {
        Some(ossl::load_providers()?)
    } else {
        None
    };
    let machine = Machine {
        #[cfg(feature = "openssl")]
        openssl: opts.compare.then(|| ossl::version().to_owned()),
        ..Machine::detect()
    };
    if opts.compare && !cfg!(feature = "openssl") {
        eprintln!("speed: note: OpenSSL is not a peer in this build (add --features openssl)");
    }
    let cycles = opts.cycles && measure::tsc::AVAILABLE;
    if opts.cycles && !cycles {
        eprintln!(
            "speed: --cycles: not available on this arch ({}): cycle counts need x86_64's RDTSC",
            std::env::consts::ARCH
        );
    }
    let slice_ms = measure::slice_len(opts.seconds).as_secs_f64() * 1e3;
    print!("{}", report::header(&machine, opts.seconds, slice_ms));

    let mut results = Results {
        sizes: opts.sizes.clone(),
        rows: Vec::new(),
    };
    let total = estimate(&algs, opts);
    eprintln!(
        "{}",
        report::plan(algs.len(), opts.sizes.len(), opts.seconds, total)
    );
    let started = std::time::Instant::now();
    let mut budget_done = 0.0;
    for (done, alg) in algs.iter().enumerate() {
        let (sources, mut runners) = implementations(alg, opts.compare, opts.published_modes);
        check_agreement(alg, &sources, &mut runners)?;
        let mut rows: Vec<Row> = sources
            .iter()
            .map(|&source| Row {
                alg: alg.name,
                source,
                points: Vec::new(),
            })
            .collect();
        for &size in &opts.sizes {
            let counts = measure::throughput(&mut runners, size, opts.seconds);
            for (row, count) in rows.iter().zip(&counts) {
                eprintln!(
                    "{}",
                    report::doing(
                        &row.label(),
                        alg.name,
                        opts.seconds,
                        size,
                        count.ops,
                        count.secs
                    )
                );
            }
            let cpb = if cycles {
                measure::cycles_per_byte(&mut runners, size)
            } else {
                None
            };
            if let Some(cpb) = &cpb {
                let each: Vec<String> = rows
                    .iter()
                    .zip(cpb)
                    .map(|(row, c)| format!("{} {c:.2}", row.label()))
                    .collect();
                eprintln!(
                    "Counted TSC cycles per byte on {size} size blocks: {}",
                    each.join(", ")
                );
            }
            for (i, (row, count)) in rows.iter_mut().zip(counts).enumerate() {
                let cycles_per_byte = cpb.as_ref().map(|c| c[i]);
                row.points.push(Point {
                    size,
                    count,
                    cycles_per_byte,
                });
            }
        }
        results.rows.extend(rows);
        budget_done += estimate(&[*alg], opts);
        let elapsed = started.elapsed().as_secs_f64();
        // The rest at the pace so far (which includes calibration and cycle counting).
        let left = (total - budget_done) * elapsed / budget_done.max(1e-9);
        eprintln!(
            "{}",
            report::progress(done + 1, algs.len(), alg.name, elapsed, left)
        );
    }

    print!("{}", report::throughput_table(&results));
    for table in [
        report::ratio_table(&results),
        report::cycles_table(&results, measure::CYCLE_SAMPLES),
    ] {
        if !table.is_empty() {
            print!("\n{table}");
        }
    }
    if let Some(path) = &opts.json {
        let settings = json::Settings {
            seconds: opts.seconds,
            slice_ms,
            compare: opts.compare,
            cycle_samples: cycles.then_some(measure::CYCLE_SAMPLES),
        };
        let stamp = json::Stamp {
            date: stamp::today(),
            command: stamp::command("speed", cfg!(feature = "openssl"), argv),
        };
        write(path, &json::render(&results, &machine, &settings, &stamp))?;
    }
    if let Some(path) = &opts.plot {
        let date = stamp::today();
        write(path, &plot::render(&results, &machine, opts.seconds, &date))?;
    }
    Ok(())
}

/// Ours, and with `compare` every peer that can run here.
///
/// With `published_modes`, ours is our cipher through the published `cbc`/`ctr` where the
/// algorithm is a mode ([`registry::published_mode`]).
fn implementations(
    alg: &Alg,
    compare: bool,
    published_modes: bool,
) -> (Vec<Source>, Vec<Box<dyn Runner>>) {
    let mut sources = vec![Source::Ours];
    let ours = match published_modes {
        true => registry::published_mode(alg.name).unwrap_or(alg.ours),
        false => alg.ours,
    };
    let mut runners = vec![ours()];
    if compare {
        sources.push(Source::RustCrypto);
        runners.push((alg.rustcrypto)());
        #[cfg(feature = "openssl")]
        if let Some(evp) = alg.openssl {
            match ossl::runner(evp) {
                Ok(runner) => {
                    sources.push(Source::OpenSsl);
                    runners.push(runner);
                }
                Err(e) => eprintln!(
                    "speed: note: {e}; {} runs without the OpenSSL peer",
                    alg.name
                ),
            }
        }
    }
    (sources, runners)
}

/// Refuses to time implementations that do not compute the same thing: every one
/// must give ours' output on the same input, twice (so streams carry state over).
fn check_agreement(
    alg: &Alg,
    sources: &[Source],
    runners: &mut [Box<dyn Runner>],
) -> Result<(), String> {
    // Whole blocks of every block cipher (a block cipher's tail is not processed the same
    // way by every implementation: libcrypto keeps it for the next call).
    let input: Vec<u8> = (0..1040u32).map(|i| (i * 31 + 17) as u8).collect();
    for _ in 0..2 {
        let outputs: Vec<Vec<u8>> = runners.iter_mut().map(|r| r.output(&input)).collect();
        if let Some(i) = outputs.iter().position(|o| *o != outputs[0]) {
            return Err(format!(
                "{}: {} and {} disagree on the same input; not timing either",
                alg.name,
                sources[0].name(),
                sources[i].name()
            ));
        }
    }
    Ok(())
}

/// Writes `contents` to `path` (through `path.tmp`, so a reader never sees half a
/// file) and says so on stderr.
fn write(path: &std::path::Path, contents: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, contents)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("speed: wrote {}", path.display());
    Ok(())
}
