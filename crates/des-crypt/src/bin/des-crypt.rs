//! `des-crypt KEY SETTING`: prints `crypt(KEY, SETTING)`.
//!
//! `des-crypt --bench [SECONDS]`: FreeSec's benchmark table (crypt/sec with alternate
//! keys and with a constant key, `des_cipher` blocks/sec with count 1 and 25), plus BSDi
//! extended crypt and the batch API, side by side with the system's libxcrypt `crypt(3)`
//! (Linux x86-64) in the same run: turns of ours and theirs alternate, timed by thread
//! CPU time.

use std::process::ExitCode;

use des_crypt::{DesCipher, crypt, crypt_many};

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod sys {
    //! The system's `crypt_r(3)` (libxcrypt) and the thread CPU clock.
    use std::ffi::{CStr, CString, c_char};

    #[link(name = "crypt")]
    unsafe extern "C" {
        fn crypt_r(key: *const c_char, setting: *const c_char, data: *mut u8) -> *mut c_char;
    }

    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }

    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }

    /// Thread CPU time in seconds.
    pub fn cpu_time() -> f64 {
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: `ts` is a valid `struct timespec` (x86-64 Linux layout);
        // CLOCK_THREAD_CPUTIME_ID is 3.
        let rc = unsafe { clock_gettime(3, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime");
        ts.sec as f64 + ts.nsec as f64 * 1e-9
    }

    /// A `crypt_r` state (libxcrypt's `struct crypt_data`, 32 KiB, with room to spare).
    pub struct Crypt(Vec<u8>);

    impl Crypt {
        pub fn new() -> Self {
            Crypt(vec![0; 1 << 16])
        }

        /// `crypt_r(key, setting)`: the hash or the failure token; returns its first byte
        /// so the benchmark keeps it alive cheaply.
        pub fn crypt(&mut self, key: &CStr, setting: &CStr) -> u8 {
            // SAFETY: NUL-terminated strings; `self.0` is zeroed and larger than
            // `struct crypt_data`; the result is read before the next call.
            let r = unsafe { crypt_r(key.as_ptr(), setting.as_ptr(), self.0.as_mut_ptr()) };
            assert!(!r.is_null());
            // SAFETY: a non-NULL result points to a NUL-terminated string in `self.0`.
            unsafe { *r.cast::<u8>() }
        }

        /// The whole result, for the CLI's comparison line.
        pub fn crypt_string(&mut self, key: &[u8], setting: &str) -> Option<String> {
            let k = CString::new(key).ok()?;
            let s = CString::new(setting).ok()?;
            // SAFETY: as in `crypt`.
            let r = unsafe { crypt_r(k.as_ptr(), s.as_ptr(), self.0.as_mut_ptr()) };
            // SAFETY: as in `crypt`.
            (!r.is_null()).then(|| unsafe { CStr::from_ptr(r) }.to_string_lossy().into_owned())
        }
    }
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
mod sys {
    //! No libxcrypt peer on this target: wall-clock time only.
    pub fn cpu_time() -> f64 {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}

/// Runs `f` (which does `per_call` operations) in turns of `turn` for `total` seconds;
/// operations per second.
fn rate(mut f: impl FnMut() -> u64, per_call: u64, total: f64) -> f64 {
    let (mut ops, mut secs, mut sink) = (0u64, 0.0, 0u64);
    let start = sys::cpu_time();
    while secs < total {
        let t0 = sys::cpu_time();
        let mut n = 0;
        while sys::cpu_time() - t0 < 0.01 {
            sink = sink.wrapping_add(f());
            n += per_call;
        }
        secs += sys::cpu_time() - t0;
        ops += n;
        if sys::cpu_time() - start > 10.0 * total {
            break;
        }
    }
    std::hint::black_box(sink);
    ops as f64 / secs
}

/// Ours and (where it exists) libxcrypt's rate, in `turns` alternating turns.
fn pair(
    turns: usize,
    secs: f64,
    mut ours: impl FnMut() -> u64,
    per_ours: u64,
    mut theirs: Option<&mut dyn FnMut() -> u64>,
) -> (f64, Option<f64>) {
    let (mut a, mut b) = (0.0, 0.0);
    for _ in 0..turns {
        a += rate(&mut ours, per_ours, secs / turns as f64);
        if let Some(t) = theirs.as_mut() {
            b += rate(t, 1, secs / turns as f64);
        }
    }
    (a / turns as f64, theirs.map(|_| b / turns as f64))
}

fn bench(secs: f64) {
    let keys: Vec<Vec<u8>> = (0..64).map(|i| format!("pw{i:05}x").into_bytes()).collect();
    let mut i = 0usize;
    let mut next = move || {
        i = (i + 1) % 64;
        i
    };
    println!(
        "des-crypt {} --bench: backend {} for crypt_many; {} s per cell, interleaved turns, thread CPU time",
        env!("CARGO_PKG_VERSION"),
        des_crypt::__backends::selected(),
        secs
    );
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    let ckeys: Vec<std::ffi::CString> = keys
        .iter()
        .map(|k| std::ffi::CString::new(k.clone()).unwrap())
        .collect();
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    let mut sys_crypt = sys::Crypt::new();
    type Row = (&'static str, &'static str, f64, Option<f64>);
    let mut rows: Vec<Row> = Vec::new();
    let turns = 5;

    macro_rules! theirs {
        ($setting:expr, $alt:expr) => {{
            #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
            {
                let s = std::ffi::CString::new($setting).unwrap();
                let mut j = 0usize;
                let sc = &mut sys_crypt;
                let ck = &ckeys;
                Some(move || {
                    if $alt {
                        j = (j + 1) % 64;
                    }
                    u64::from(sc.crypt(&ck[j], &s))
                })
            }
            #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
            {
                None::<fn() -> u64>
            }
        }};
    }
    macro_rules! row {
        ($name:expr, $unit:expr, $ours:expr, $per:expr, $theirs:expr) => {{
            let mut t = $theirs;
            let (a, b) = pair(
                turns,
                secs,
                $ours,
                $per,
                t.as_mut().map(|f| f as &mut dyn FnMut() -> u64),
            );
            rows.push(($name, $unit, a, b));
        }};
    }

    row!(
        "crypt (alternate keys)",
        "crypt/sec",
        || u64::from(crypt(&keys[next()], "ab").unwrap().as_bytes()[5]),
        1,
        theirs!("ab", true)
    );
    row!(
        "crypt (constant key)",
        "crypt/sec",
        || u64::from(crypt(&keys[0], "ab").unwrap().as_bytes()[5]),
        1,
        theirs!("ab", false)
    );
    let dc = DesCipher::new(b"\x02\x04\x06\x08\x0a\x0c\x0e\x10");
    let mut blk = [0u8; 8];
    row!(
        "des_cipher( , , , 1)",
        "blocks/sec",
        || {
            blk = dc.des_cipher(&blk, 0x5A5, 1).unwrap();
            u64::from(blk[0])
        },
        1,
        None::<fn() -> u64>
    );
    let mut blk = [0u8; 8];
    row!(
        "des_cipher( , , , 25)",
        "blocks/sec",
        || {
            blk = dc.des_cipher(&blk, 0x5A5, 25).unwrap();
            u64::from(blk[0])
        },
        25,
        None::<fn() -> u64>
    );
    row!(
        "BSDi crypt _J9.. (725 rounds)",
        "crypt/sec",
        || u64::from(crypt(&keys[next()], "_J9..abcd").unwrap().as_bytes()[12]),
        1,
        theirs!("_J9..abcd", true)
    );
    // The batch: 4096 distinct keys under one salt per call.
    let batch: Vec<(Vec<u8>, &str)> = (0..4096)
        .map(|i| (format!("k{i:06}").into_bytes(), "ab"))
        .collect();
    row!(
        "crypt_many (one salt, 4096 keys)",
        "crypt/sec",
        || u64::from(crypt_many(&batch)[7].as_ref().unwrap().as_bytes()[3]),
        4096,
        theirs!("ab", true)
    );
    row!(
        "crypt_many_hashes (one salt, 4096 keys)",
        "crypt/sec",
        || u64::from(des_crypt::crypt_many_hashes(&batch)[7].unwrap().as_bytes()[3]),
        4096,
        theirs!("ab", true)
    );
    let batch_keys: Vec<Vec<u8>> = batch.iter().map(|(k, _)| k.clone()).collect();
    row!(
        "crypt_keys (one setting, 4096 keys)",
        "crypt/sec",
        || u64::from(des_crypt::crypt_keys("ab", &batch_keys).unwrap()[7].as_bytes()[3]),
        4096,
        theirs!("ab", true)
    );
    // The bitsliced core alone: 25 salted DES under 512 (256) keys and the bitsliced
    // encoding, no key folding or hash assembly (what `crypt_keys` adds).
    let best = ["avx512", "avx2"]
        .into_iter()
        .find(|b| des::__crypt::lanes(b) > 0);
    if let Some(b) = best {
        let lanes = des::__crypt::lanes(b);
        let core_keys: Vec<[u8; 8]> = (0..lanes as u64)
            .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & 0xFEFE_FEFE_FEFE_FEFE).to_le_bytes())
            .collect();
        let mut out = vec![[0u8; 8]; 2 * lanes];
        row!(
            if b == "avx512" {
                "batch core (avx512, 512 keys)"
            } else {
                "batch core (avx2, 256 keys)"
            },
            "crypt/sec",
            || {
                des::__crypt::crypt_batch(b, &core_keys, 0x5A5, 25, &mut out);
                u64::from(out[1][0])
            },
            lanes as u64,
            theirs!("ab", true)
        );
    }
    let batch_ext: Vec<(Vec<u8>, &str)> = (0..1024)
        .map(|i| (format!("k{i:06}").into_bytes(), "_J9..abcd"))
        .collect();
    row!(
        "crypt_many BSDi _J9.. (1024 keys)",
        "crypt/sec",
        || u64::from(crypt_many(&batch_ext)[7].as_ref().unwrap().as_bytes()[12]),
        1024,
        theirs!("_J9..abcd", true)
    );

    println!();
    println!(
        "| {:<50} | {:>12} | {:>12} | {:>8} |",
        "", "des-crypt", "libxcrypt", "ratio"
    );
    println!("|{:-<52}|{:->14}|{:->14}|{:->10}|", "", "", "", "");
    for (name, unit, a, b) in rows {
        let (bs, r) = match b {
            Some(b) => (format!("{b:.0}"), format!("{:.2}x", a / b)),
            None => ("n/a".to_string(), String::new()),
        };
        println!(
            "| {:<50} | {:>12.0} | {:>12} | {:>8} |",
            format!("{name} {unit}"),
            a,
            bs,
            r
        );
    }
    println!();
    println!("libxcrypt exports no des_cipher (n/a). Batch rows (crypt_many, crypt_keys): the");
    println!("libxcrypt column is its single crypt with alternate keys (it has no batch API).");
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [b] if b == "--bench" => bench(1.0),
        [b, s] if b == "--bench" => match s.parse::<f64>() {
            Ok(s) if s > 0.0 => bench(s),
            _ => {
                eprintln!("des-crypt: --bench takes seconds per cell, e.g. --bench 0.5");
                return ExitCode::FAILURE;
            }
        },
        [key, setting] => match crypt(key.as_bytes(), setting) {
            Ok(h) => {
                println!("{h}");
                #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
                if std::env::var_os("DES_CRYPT_COMPARE").is_some() {
                    let c = sys::Crypt::new().crypt_string(key.as_bytes(), setting);
                    eprintln!("libxcrypt: {}", c.unwrap_or_else(|| "NULL".into()));
                }
            }
            Err(e) => {
                eprintln!("des-crypt: {e}");
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!(
                "usage: des-crypt KEY SETTING      print crypt(KEY, SETTING)\n       \
                 des-crypt --bench [SECONDS]  FreeSec's table beside the system's libxcrypt"
            );
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
