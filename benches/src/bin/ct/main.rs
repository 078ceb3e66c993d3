//! `ct`: the constant-time checks. `cargo xtask ct` runs all three:
//!
//! - `ct run NAME` under valgrind memcheck (issue 11; described below);
//! - `ct time [--long] [NAME...]`: the statistical timing test (issue 24, [`dudect`] and
//!   [`timed`]), which runs every backend the docs call constant-time, AVX-512, VAES, GFNI
//!   and SHA-NI included, which valgrind cannot execute;
//! - `ct code`: the list the static disassembly check of `cargo xtask ct` reads (each
//!   timed target's symbol prefixes and how its secrets travel).
//!
//! Each target marks its secret inputs (key, plaintext, message) *undefined* through
//! valgrind's client requests, runs one backend on them, and marks the outputs defined
//! again. Memcheck then reports every conditional jump and every memory address that
//! depends on a secret ("Conditional jump or move depends on uninitialised value(s)",
//! "Use of uninitialised value of size 8"), and `valgrind --error-exitcode=1` fails the
//! run. This is the technique of Adam Langley's ctgrind (2010).
//!
//! `ct list` prints the targets; `ct run NAME` runs one; `ct run leaky-toy` runs a
//! deliberately leaky table look-up, which the check must reject. A backend the CPU (as
//! valgrind presents it: no AVX-512, VAES or GFNI) lacks is reported and skipped.
//!
//! Exempt, because their docs say they are not constant-time (table look-ups at
//! secret-dependent indices): rc4, md2, blowfish, cast5 (but for its `vbmi` passes), rc2,
//! twofish, `des`'s `soft`,
//! `camellia`'s `soft` (and the camellia key schedule and partial batches it runs), and the
//! IDEA key schedule. Their targets are absent from [`TARGETS`] on purpose.

use std::hint::black_box;
use std::process::ExitCode;

use cipher::{BlockCipherDecrypt, BlockCipherEncrypt};

mod dudect;
mod timed;

/// Valgrind client requests (valgrind.h's x86-64 "special instruction sequence"): with no
/// valgrind they are a few rotates that leave `rdi` as it was, and `rdx` (the result)
/// keeps its default.
#[cfg(target_arch = "x86_64")]
mod vg {
    /// `VG_USERREQ__MAKE_MEM_UNDEFINED` (memcheck.h: `VG_USERREQ_TOOL_BASE('M','C') + 1`).
    const MAKE_MEM_UNDEFINED: usize = (((b'M' as usize) << 24) | ((b'C' as usize) << 16)) + 1;
    /// `VG_USERREQ__MAKE_MEM_DEFINED`.
    const MAKE_MEM_DEFINED: usize = MAKE_MEM_UNDEFINED + 1;
    /// `VG_USERREQ__RUNNING_ON_VALGRIND` (valgrind.h: 0x1001).
    const RUNNING_ON_VALGRIND: usize = 0x1001;

    fn request(default: usize, args: [usize; 6]) -> usize {
        let mut result = default;
        // SAFETY: the sequence only rotates `rdi` by 3+13+61+51 = 128 bits (back to its
        // value) and exchanges `rbx` with itself; under valgrind it is intercepted and
        // reads the six words at `rax` and writes `rdx`. `args` outlives the asm.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") result,
                options(nostack, preserves_flags),
            );
        }
        result
    }

    /// Marks `buf` as holding secret (undefined) bytes.
    pub fn secret(buf: &[u8]) {
        request(
            0,
            [
                MAKE_MEM_UNDEFINED,
                buf.as_ptr() as usize,
                buf.len(),
                0,
                0,
                0,
            ],
        );
    }

    /// Marks `buf` as public (defined) again.
    pub fn public(buf: &[u8]) {
        request(
            0,
            [MAKE_MEM_DEFINED, buf.as_ptr() as usize, buf.len(), 0, 0, 0],
        );
    }

    /// Whether the process runs under valgrind.
    pub fn running() -> bool {
        request(0, [RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) != 0
    }
}

/// Elsewhere (the aarch64 build, which `cargo xtask ct` only disassembles for the static
/// check) there are no client requests: nothing is marked, and `ct run` says so.
#[cfg(not(target_arch = "x86_64"))]
mod vg {
    pub fn secret(_: &[u8]) {}
    pub fn public(_: &[u8]) {}
    pub fn running() -> bool {
        false
    }
}

/// Bytes of a secret input: fixed, then marked undefined.
fn secret<const N: usize>(seed: u8) -> [u8; N] {
    let v: [u8; N] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ seed);
    vg::secret(&v);
    v
}

/// `n` secret blocks of `B` bytes.
fn secret_blocks<const B: usize>(n: usize) -> Vec<[u8; B]> {
    let v: Vec<[u8; B]> = (0..n)
        .map(|i| core::array::from_fn(|j| (i * 31 + j) as u8))
        .collect();
    for b in &v {
        vg::secret(b);
    }
    v
}

/// Encrypts and decrypts `blocks` (`n` blocks, secret) with cipher `c`, then publishes
/// the output.
fn ecb_roundtrip<C: BlockCipherEncrypt + BlockCipherDecrypt>(c: &C, n: usize) {
    let mut blocks: Vec<cipher::Block<C>> = (0..n)
        .map(|i| cipher::Block::<C>::try_from(&vec![i as u8 ^ 0x3c; C::block_size()][..]).unwrap())
        .collect();
    for b in &blocks {
        vg::secret(b);
    }
    c.encrypt_blocks(&mut blocks);
    c.decrypt_blocks(&mut blocks);
    for b in &blocks {
        vg::public(b);
    }
    black_box(&blocks);
}

/// One check: a name and what it runs (`Err` = the backend is not available here).
struct Target {
    name: &'static str,
    run: fn() -> Result<(), &'static str>,
}

/// Blocks per ECB call: crosses every backend's parallel width (and its tail) at least
/// once.
const BLOCKS: usize = 70;

macro_rules! cipher_target {
    ($name:literal, $krate:ident, $avail:expr, $with:ident, $k:literal, $blocks:expr) => {
        Target {
            name: $name,
            run: || {
                let backend = $avail;
                if !$krate::__backends::available(backend) {
                    return Err(backend);
                }
                let key = secret::<$k>(0x5a);
                let c = $krate::__backends::$with(backend, &key);
                ecb_roundtrip(&c, $blocks);
                Ok(())
            },
        }
    };
}

/// Block ciphers whose key is public (key setup documented as not constant-time): only
/// the data is secret.
macro_rules! data_only_target {
    ($name:literal, $krate:ident, $avail:expr, $with:ident, $k:literal, $blocks:expr) => {
        Target {
            name: $name,
            run: || {
                let backend = $avail;
                if !$krate::__backends::available(backend) {
                    return Err(backend);
                }
                let c = $krate::__backends::$with(backend, &[0x42; $k]);
                ecb_roundtrip(&c, $blocks);
                Ok(())
            },
        }
    };
}

macro_rules! compress_target {
    ($name:literal, $krate:ident, $avail:expr, $f:ident, $words:literal) => {
        Target {
            name: $name,
            run: || {
                let backend = $avail;
                if !$krate::__backends::available(backend) {
                    return Err(backend);
                }
                let blocks = secret_blocks::<64>(5);
                let mut state = [0x6745_2301u32; $words];
                $krate::__backends::$f(backend, &mut state, &blocks);
                vg::public(bytes_of(&state));
                black_box(state);
                Ok(())
            },
        }
    };
}

fn bytes_of(words: &[u32]) -> &[u8] {
    // SAFETY: a `[u32]` is plain bytes; same address, 4× the length, shorter lifetime.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast(), words.len() * 4) }
}

const TARGETS: &[Target] = &[
    cipher_target!("aes128-soft", aes, "soft", aes128_with, 16, BLOCKS),
    cipher_target!("aes256-soft", aes, "soft", aes256_with, 32, BLOCKS),
    cipher_target!("aes128-avx2", aes, "avx2", aes128_with, 16, BLOCKS),
    cipher_target!("aes256-avx2", aes, "avx2", aes256_with, 32, BLOCKS),
    cipher_target!("aes128-aesni", aes, "aesni", aes128_with, 16, BLOCKS),
    cipher_target!("aes256-aesni", aes, "aesni", aes256_with, 32, BLOCKS),
    cipher_target!("aes128-vaes256", aes, "vaes256", aes128_with, 16, BLOCKS),
    cipher_target!("serpent-soft", serpent, "soft", serpent_with, 32, BLOCKS),
    cipher_target!("serpent-avx2", serpent, "avx2", serpent_with, 32, BLOCKS),
    cipher_target!(
        "serpent-avx512",
        serpent,
        "avx512",
        serpent_with,
        32,
        BLOCKS
    ),
    // DES's bitsliced backends: whole 256-block batches (tails and CBC run `soft`).
    data_only_target!("des-avx2-data", des, "avx2", des_with, 8, 256),
    cipher_target!("des-avx2", des, "avx2", des_with, 8, 256),
    data_only_target!("idea-soft", idea, "soft", idea_with, 16, BLOCKS),
    data_only_target!("idea-avx2", idea, "avx2", idea_with, 16, BLOCKS),
    // Camellia's byte-sliced backends: whole 32-block batches.
    data_only_target!(
        "camellia128-aesni_avx2",
        camellia,
        "aesni_avx2",
        camellia128_with,
        16,
        64
    ),
    // CAST5's byte-sliced backend: whole 128-block passes (the key schedule, short calls
    // and rests under 24 blocks run `soft`). Needs AVX-512, so valgrind skips it today.
    data_only_target!("cast5-vbmi-data", cast5, "vbmi", cast5_with, 16, 128),
    compress_target!("md5-soft", md5, "soft", compress_with, 4),
    compress_target!("md5-avx2", md5, "avx2", compress_with, 4),
    compress_target!("sha1-soft", sha1, "soft", compress_with, 5),
    compress_target!("sha1-avx2", sha1, "avx2", compress_with, 5),
    compress_target!("sha1-shani", sha1, "shani", compress_with, 5),
    compress_target!("ripemd160-soft", ripemd, "soft", compress160_with, 5),
];

/// A deliberately leaky function: an S-box look-up at a secret index (what AES T-tables
/// do). The check must flag it.
fn leaky_toy() {
    static SBOX: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).wrapping_mul(167).wrapping_add(13);
            i += 1;
        }
        t
    };
    let k = secret::<16>(0x11);
    let out: Vec<u8> = k.iter().map(|&b| SBOX[b as usize]).collect();
    vg::public(&out);
    black_box(out);
}

/// |t| above which a run is suspect (the paper's threshold): the target is rerun.
const THRESHOLD: f64 = 4.5;
/// |t| above which a run counts as a leak, for the pass/fail of the targets and the
/// controls alike. Above the paper's 4.5 for this machine (2 vCPUs under KVM, shared with
/// other builds): an interrupt storm can push one run of constant-time code past 4.5, and
/// the rerun rule asks for two of three runs above this bound.
///
/// It was 50 while the harness itself leaked the class: LLVM had unswitched
/// [`dudect::input`]'s loop on it (see there), and constant-time code measured |t| of
/// 5–75 depending on where the linker put it, which a6085dd read as the clock following
/// the power (Hertzbleed). With that fixed, every target stays below 3.3 in full runs,
/// with both cores busy with other work too, and the leaky controls give 118–1740, so 10
/// keeps a margin of 3× above the noise and 10× below the weakest control.
const LEAK: f64 = 10.0;
/// Measurements per run: `ct time` (CI) and `ct time --long`.
const SHORT: usize = 20_000;
const LONG: usize = 200_000;
/// A run's wall-time cap in seconds (short, long): slow calls (DES batches, `des-crypt`)
/// take fewer measurements, never fewer than [`FEWEST`].
const CAP: [f64; 2] = [1.5, 15.0];
const FEWEST: usize = 6_000;
/// Extra runs of a suspect target (|t| above [`THRESHOLD`]): it fails if two of its three
/// runs are above [`LEAK`]. A leaky control gets no rerun and must be above [`LEAK`].
const RERUNS: usize = 2;

/// How many measurements `m` gets: `max` unless that would take longer than `cap`.
fn measurements(m: &mut dyn dudect::Measure, max: usize, cap: f64) -> usize {
    let mut rng = dudect::Rng::new(7);
    let t0 = std::time::Instant::now();
    for i in 0..20 {
        m.prepare(i & 1, &mut rng);
        m.run();
    }
    let per = t0.elapsed().as_secs_f64() / 20.0;
    // A tenth more for the warm-up.
    ((cap / per / 1.1) as usize).clamp(FEWEST, max)
}

/// `ct time [--long] [NAME...]`: the controls, then the targets (all or NAMEs).
fn time(args: &[&str]) -> ExitCode {
    let long = args.contains(&"--long");
    let names: Vec<&str> = args.iter().copied().filter(|a| *a != "--long").collect();
    let (max, cap) = if long {
        (LONG, CAP[1])
    } else {
        (SHORT, CAP[0])
    };
    let seed = std::env::var("CT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::UNIX_EPOCH
                .elapsed()
                .map_or(1, |d| d.as_nanos() as u64)
        });
    println!(
        "dudect: fixed vs random inputs, up to {max} measurements a run (rdtsc), \
         Welch's t raw, at {} crops and 2nd order; |t| > {THRESHOLD} is suspect and \
         rerun {RERUNS} times, a leak if 2 of 3 runs are above {LEAK}; CT_SEED={seed}",
        dudect::CROPS
    );
    println!(
        "{:<26} {:<9} {:>7} {:>9} {:>8} {:>8}  {:<14} verdict",
        "target", "secret", "n", "median", "diff", "|t|", "test"
    );
    let line = |t: &timed::Timed, o: &dudect::Outcome, verdict: &str| {
        let test = if o.test == "crop" {
            format!("crop p={:.3}", o.p)
        } else {
            o.test.to_string()
        };
        println!(
            "{:<26} {:<9} {:>7} {:>9} {:>+8.1} {:>8.2}  {:<14} {verdict}",
            t.name, t.secret, o.n, o.median, o.diff, o.t, test
        );
    };
    let mut failed = Vec::new();
    for (i, t) in timed::leaky::CONTROLS.iter().enumerate() {
        if !names.is_empty() && !names.contains(&t.name) {
            continue;
        }
        let mut m = (t.make)().expect("controls run everywhere");
        let n = measurements(&mut *m, max, cap);
        let o = dudect::run(&mut *m, n, seed ^ i as u64);
        if o.t > LEAK {
            line(t, &o, "leak found, as it must be");
        } else {
            line(t, &o, "NOT FOUND: the test is blind");
            failed.push(t.name);
        }
    }
    for (i, t) in timed::for_arch(std::env::consts::ARCH).iter().enumerate() {
        if !names.is_empty() && !names.contains(&t.name) {
            continue;
        }
        let mut m = match (t.make)() {
            Ok(m) => m,
            Err(b) => {
                println!(
                    "{:<26} skipped: backend {b} not available on this CPU",
                    t.name
                );
                continue;
            }
        };
        let n = measurements(&mut *m, max, cap);
        let mut o = dudect::run(&mut *m, n, seed ^ (i as u64) << 8);
        if o.t <= THRESHOLD {
            line(t, &o, "ok");
            continue;
        }
        line(t, &o, "suspect, rerun");
        let mut leaks = usize::from(o.t > LEAK);
        for r in 1..=RERUNS {
            o = dudect::run(&mut *m, n, seed ^ (i as u64) << 8 ^ (r as u64) << 32);
            leaks += usize::from(o.t > LEAK);
            let verdict = if o.t > LEAK {
                "above the leak bound"
            } else {
                "rerun"
            };
            line(t, &o, verdict);
        }
        if leaks >= 2 {
            println!("{:<26} LEAK: {leaks} of 3 runs above {LEAK}", t.name);
            failed.push(t.name);
        } else {
            println!("{:<26} ok after reruns ({leaks} of 3 above {LEAK})", t.name);
        }
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("dudect: failed: {}", failed.join(", "));
        ExitCode::FAILURE
    }
}

/// `ct code [ARCH]`: one line per target and control for the static check of ARCH's build
/// (default: this one's, `x86_64` or `aarch64`):
/// `name<TAB>vector|scalar|scalar64<TAB>prefix,prefix…<TAB>known findings` (controls' names start with `leaky-`).
fn code(arch: &str) -> ExitCode {
    for t in timed::leaky::CONTROLS.iter().chain(timed::for_arch(arch)) {
        let regs = match t.regs {
            timed::Regs::Vector => "vector",
            timed::Regs::Scalar => "scalar",
            timed::Regs::Scalar64 => "scalar64",
        };
        println!("{}\t{regs}\t{}\t{}", t.name, t.code.join(","), t.known);
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["list"] => {
            for t in TARGETS {
                println!("{}", t.name);
            }
            ExitCode::SUCCESS
        }
        ["time", rest @ ..] => time(rest),
        ["code"] => code(std::env::consts::ARCH),
        ["code", arch] => code(arch),
        ["run", "leaky-toy"] => {
            leaky_toy();
            ExitCode::SUCCESS
        }
        ["run", name] => {
            let Some(t) = TARGETS.iter().find(|t| t.name == *name) else {
                eprintln!("ct: no target {name} (see `ct list`)");
                return ExitCode::from(2);
            };
            if !vg::running() {
                eprintln!("ct: note: not under valgrind; this run checks nothing");
            }
            match (t.run)() {
                Ok(()) => ExitCode::SUCCESS,
                Err(backend) => {
                    // Exit code 3: skipped (the CPU valgrind presents lacks the backend).
                    println!("ct: {name}: skipped, backend {backend} not available here");
                    ExitCode::from(3)
                }
            }
        }
        _ => {
            eprintln!(
                "usage: ct list | ct run NAME | ct run leaky-toy | ct time [--long] [NAME...] | ct code [ARCH]"
            );
            ExitCode::from(2)
        }
    }
}
