//! Differential test against the system's libxcrypt `crypt_r(3)` through FFI (Linux
//! x86-64, where CI installs `libcrypt-dev`): random keys (NUL-free, with high-bit bytes,
//! longer than 8 bytes) and salts for traditional and BSDi settings, full hashes as
//! settings, the batch API, and the failure tokens of malformed settings.
//!
//! `TESTKIT_CASES` sets the number of random cases of each kind (default 10 000; the
//! done-criterion run uses 100 000), `TESTKIT_SEED` the seed.
#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::ffi::{CStr, CString, c_char};

use des_crypt::{ALPHABET, crypt, crypt_many};
use testkit::Rng;

#[link(name = "crypt")]
unsafe extern "C" {
    fn crypt_r(key: *const c_char, setting: *const c_char, data: *mut u8) -> *mut c_char;
}

/// Bytes of libxcrypt's `struct crypt_data` (32 768 in 4.4) with room to spare.
const DATA: usize = 1 << 16;

/// libxcrypt's `crypt_r`: the hash or its failure token (`*0`/`*1`).
fn sys(key: &[u8], setting: &str, data: &mut [u8]) -> String {
    assert!(data.len() >= DATA);
    let k = CString::new(key).expect("NUL-free key");
    let s = CString::new(setting).expect("NUL-free setting");
    // SAFETY: both strings are NUL-terminated; `data` is a zeroed buffer at least as
    // large as `struct crypt_data`; the result points into `data` and is copied out
    // before `data` is touched again.
    let r = unsafe { crypt_r(k.as_ptr(), s.as_ptr(), data.as_mut_ptr()) };
    assert!(!r.is_null(), "libxcrypt returned NULL for {setting:?}");
    // SAFETY: a non-NULL result is a NUL-terminated string inside `data`.
    unsafe { CStr::from_ptr(r) }
        .to_str()
        .expect("ASCII")
        .to_string()
}

fn key(rng: &mut Rng, max: usize) -> Vec<u8> {
    let len = rng.range(0, max + 1);
    let high = rng.below(2) == 0;
    (0..len)
        .map(|_| {
            if high {
                1 + rng.below(255) as u8
            } else {
                0x20 + rng.below(0x5F) as u8
            }
        })
        .collect()
}

fn chars(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| ALPHABET[rng.below(64)] as char).collect()
}

fn run(kind: &str, mut setting: impl FnMut(&mut Rng) -> String, max_key: usize) {
    let n = testkit::cases(10_000);
    let mut rng = Rng::new(testkit::seed(0xC0FFEE));
    let mut data = vec![0u8; DATA];
    let t = std::time::Instant::now();
    let mut batch = Vec::new();
    for i in 0..n {
        let k = key(&mut rng, max_key);
        let s = setting(&mut rng);
        let want = sys(&k, &s, &mut data);
        assert_eq!(
            crypt(&k, &s).as_deref(),
            Ok(&want[..]),
            "{kind} key {k:?} setting {s}"
        );
        // The whole hash as the setting gives the hash again.
        assert_eq!(crypt(&k, &want).as_deref(), Ok(&want[..]));
        if i % 16 == 0 {
            batch.push((k, s, want));
        }
    }
    let jobs: Vec<(&[u8], &str)> = batch.iter().map(|(k, s, _)| (&k[..], &s[..])).collect();
    for (r, (_, _, want)) in crypt_many(&jobs).iter().zip(&batch) {
        assert_eq!(r.as_deref(), Ok(&want[..]));
    }
    println!(
        "{kind}: {n} random cases agree with libxcrypt ({:.2?})",
        t.elapsed()
    );
}

#[test]
fn traditional_matches_libxcrypt() {
    run("traditional", |rng| chars(rng, 2), 12);
}

#[test]
fn bsdi_matches_libxcrypt() {
    run(
        "bsdi",
        |rng| {
            // Mostly small counts (the test's time is the sum of counts), some 725 (the
            // usual), a few up to 2^12.
            let count = match rng.below(16) {
                0 => 725,
                1 => rng.below(1 << 12),
                _ => rng.below(64),
            };
            let c: String = (0..4)
                .map(|i| ALPHABET[(count >> (6 * i)) & 63] as char)
                .collect();
            format!("_{c}{}", chars(rng, 4))
        },
        40,
    );
}

/// Many keys under one salt, so the bitsliced batches run (the random tests above have
/// one key per salt).
#[test]
fn batch_matches_libxcrypt() {
    let mut rng = Rng::new(testkit::seed(0xBA7C));
    let mut data = vec![0u8; DATA];
    for setting in ["ab", "./", "zz", "_J9..CCCC", "_7/..abcd"] {
        let keys: Vec<Vec<u8>> = (0..1100).map(|_| key(&mut rng, 20)).collect();
        let jobs: Vec<(&[u8], &str)> = keys.iter().map(|k| (&k[..], setting)).collect();
        for name in des_crypt::__backends::ALL {
            if !testkit::available(name, des_crypt::__backends::available(name)) {
                continue;
            }
            let got = des_crypt::__backends::crypt_many_with(name, &jobs);
            for (k, r) in keys.iter().zip(&got) {
                assert_eq!(r.as_deref(), Ok(&sys(k, setting, &mut data)[..]), "{name}");
            }
        }
    }
}

/// What libxcrypt returns for each malformed-setting class (the crate docs' table):
/// a failure token, where ours returns `Err`.
#[test]
fn malformed_settings_fail_in_both() {
    let mut data = vec![0u8; DATA];
    for s in [
        "",
        "a",
        "a!",
        "!a",
        "*",
        "_",
        "_J9.",
        "_J9..abc",
        "_J9..ab!d",
        "_J9..abcd!",
        "a\u{e9}",
        "$",
        "$9$",
        "$y$j9T$abc",
    ] {
        let token = if s.starts_with("*0") { "*1" } else { "*0" };
        assert_eq!(sys(b"key", s, &mut data), token, "{s:?}");
        assert!(crypt(b"key", s).is_err(), "{s:?}");
    }
    assert_eq!(sys(b"key", "*0", &mut data), "*1");
    // Other methods: libxcrypt hashes them, ours says it is not DES crypt.
    for s in ["$1$abc$", "$5$abc", "$6$abc"] {
        assert!(sys(b"key", s, &mut data).starts_with(s));
        assert_eq!(crypt(b"key", s), Err(des_crypt::Error::NotDesCrypt));
    }
    // Trailing characters: libxcrypt ignores them, ours refuses over-long settings.
    assert_eq!(sys(b"test", "abgOeLfPimXQoXYZ", &mut data), "abgOeLfPimXQo");
    assert!(crypt(b"test", "abgOeLfPimXQoXYZ").is_err());
    // Count 0 runs once in both.
    assert_eq!(
        crypt(b"key", "_....abcd").as_deref(),
        Ok(&sys(b"key", "_....abcd", &mut data)[..])
    );
}

/// The known answers of tests/data/vectors.txt are libxcrypt's too.
#[test]
fn vectors_are_libxcrypts() {
    let mut data = vec![0u8; DATA];
    for l in include_str!("data/vectors.txt").lines() {
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        let (h, k) = l.split_once('\t').unwrap();
        assert_eq!(sys(k.as_bytes(), h, &mut data), h);
    }
}

unsafe extern "C" {
    fn dlopen(file: *const c_char, mode: i32) -> *mut u8;
    fn dlvsym(handle: *mut u8, name: *const c_char, version: *const c_char) -> *mut u8;
}

/// `Encrypt` (`setkey`/`encrypt`) against libxcrypt's: they are compat-only symbols
/// (`setkey@GLIBC_2.2.5`), reached through `dlvsym`. Single-threaded use of C statics,
/// so one test does it all.
#[test]
fn legacy_encrypt_matches_libxcrypt() {
    type SetKey = unsafe extern "C" fn(*const c_char);
    type Encrypt = unsafe extern "C" fn(*mut c_char, i32);
    let lib = c"libcrypt.so.1";
    let ver = c"GLIBC_2.2.5";
    // SAFETY: NUL-terminated names; RTLD_NOW (2). The symbols, if found, have the C
    // signatures of `setkey(3)` and `encrypt(3)`.
    let (sk, en) = unsafe {
        let h = dlopen(lib.as_ptr(), 2);
        assert!(!h.is_null(), "dlopen libcrypt.so.1");
        let sk = dlvsym(h, c"setkey".as_ptr(), ver.as_ptr());
        let en = dlvsym(h, c"encrypt".as_ptr(), ver.as_ptr());
        if sk.is_null() || en.is_null() {
            println!("SKIP: this libxcrypt has no setkey/encrypt compat symbols");
            return;
        }
        (
            core::mem::transmute::<*mut u8, SetKey>(sk),
            core::mem::transmute::<*mut u8, Encrypt>(en),
        )
    };
    let mut rng = Rng::new(testkit::seed(0x5E7));
    for _ in 0..testkit::cases(10_000).min(20_000) {
        let key: [u8; 64] = core::array::from_fn(|_| rng.below(2) as u8);
        let block: [u8; 64] = core::array::from_fn(|_| rng.below(2) as u8);
        let dec = rng.below(2) == 1;
        let mut theirs = block.map(|b| b as c_char);
        let k = key.map(|b| b as c_char);
        // SAFETY: 64-element arrays, as setkey/encrypt read and write.
        unsafe {
            sk(k.as_ptr());
            en(theirs.as_mut_ptr(), i32::from(dec));
        }
        let mut ours = block;
        des_crypt::Encrypt::new(&key).encrypt(&mut ours, dec);
        assert_eq!(ours.map(|b| b as c_char), theirs);
    }
}
