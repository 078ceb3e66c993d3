//! Our C ABI against the system's libxcrypt (`libcrypt.so.1`, opened with `dlopen` so
//! that our exported names do not interpose on it): every class of input (NULL key or
//! setting, non-UTF-8 and long keys, invalid characters, truncated and overlong
//! settings, bigcrypt, failure tokens), seeded random (key, setting) pairs, gensalt,
//! checksalt, `setkey_r`/`encrypt_r`, the batch entry point, and `crypt_r`/`crypt_rn`
//! from several threads at once. Compared: the returned string (or NULL) and `errno`.
//!
//! `TESTKIT_CASES` sets the number of random pairs (default 10 000), `TESTKIT_SEED` the
//! seed. The system libcrypt is loaded here before our first non-DES call, so those
//! settings go through the fall-through (its `RTLD_NOLOAD` arm) and must give the
//! system's answers too; `tests/abi.c` checks the standalone path, `cargo xtask
//! libcrypt-check` the `LD_PRELOAD` one.
#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use core::ffi::{CStr, c_char, c_int, c_ulong, c_void};
use std::ffi::CString;
use std::sync::OnceLock;

use simdcrypt_libcrypt as ours;
use simdcrypt_libcrypt::CryptData;
use testkit::Rng;

type CryptR = unsafe extern "C" fn(*const c_char, *const c_char, *mut CryptData) -> *mut c_char;
type CryptRn =
    unsafe extern "C" fn(*const c_char, *const c_char, *mut c_void, c_int) -> *mut c_char;
type Check = unsafe extern "C" fn(*const c_char) -> c_int;
type GensaltRn = unsafe extern "C" fn(
    *const c_char,
    c_ulong,
    *const c_char,
    c_int,
    *mut c_char,
    c_int,
) -> *mut c_char;
type SetkeyR = unsafe extern "C" fn(*const c_char, *mut CryptData);
type EncryptR = unsafe extern "C" fn(*mut c_char, c_int, *mut CryptData);

struct Sys {
    crypt_r: CryptR,
    crypt_rn: CryptRn,
    checksalt: Check,
    gensalt_rn: GensaltRn,
    setkey_r: Option<(SetkeyR, EncryptR)>,
}

fn sys() -> &'static Sys {
    static SYS: OnceLock<Sys> = OnceLock::new();
    SYS.get_or_init(|| {
        // SAFETY: NUL-terminated names; each symbol has the C signature of crypt.h.
        unsafe {
            let h = libc::dlopen(c"libcrypt.so.1".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            assert!(!h.is_null(), "dlopen libcrypt.so.1");
            let f = |n: &CStr| {
                let p = libc::dlsym(h, n.as_ptr());
                assert!(!p.is_null(), "{n:?}");
                p
            };
            let v = |n: &CStr| {
                let p = libc::dlsym(h, n.as_ptr());
                if p.is_null() {
                    libc::dlvsym(h, n.as_ptr(), c"GLIBC_2.2.5".as_ptr())
                } else {
                    p
                }
            };
            let (sk, en) = (v(c"setkey_r"), v(c"encrypt_r"));
            Sys {
                crypt_r: core::mem::transmute::<*mut c_void, CryptR>(f(c"crypt_r")),
                crypt_rn: core::mem::transmute::<*mut c_void, CryptRn>(f(c"crypt_rn")),
                checksalt: core::mem::transmute::<*mut c_void, Check>(f(c"crypt_checksalt")),
                gensalt_rn: core::mem::transmute::<*mut c_void, GensaltRn>(f(c"crypt_gensalt_rn")),
                setkey_r: (!sk.is_null() && !en.is_null()).then(|| {
                    (
                        core::mem::transmute::<*mut c_void, SetkeyR>(sk),
                        core::mem::transmute::<*mut c_void, EncryptR>(en),
                    )
                }),
            }
        }
    })
}

fn errno() -> c_int {
    // SAFETY: this thread's errno.
    unsafe { *libc::__errno_location() }
}

fn clear_errno() {
    // SAFETY: this thread's errno.
    unsafe { *libc::__errno_location() = 0 };
}

fn new_data() -> Box<CryptData> {
    // SAFETY: all-zero bytes are a valid `CryptData` (arrays of c_char).
    unsafe { Box::new(core::mem::zeroed()) }
}

fn ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(core::ptr::null(), |s| s.as_ptr())
}

/// (result of crypt_r, errno) and (crypt_rn's result or None, errno).
type Seen = ((Vec<u8>, c_int), (Option<Vec<u8>>, c_int));

fn call(r: CryptR, rn: CryptRn, key: &Option<CString>, set: &Option<CString>) -> Seen {
    let mut d = new_data();
    // SAFETY: C strings or NULL; a zeroed `struct crypt_data` of the right size.
    unsafe {
        clear_errno();
        let p = r(ptr(key), ptr(set), &mut *d);
        let a = (CStr::from_ptr(p).to_bytes().to_vec(), errno());
        let mut d = new_data();
        clear_errno();
        let size = size_of::<CryptData>() as c_int;
        let p = rn(ptr(key), ptr(set), (&mut *d as *mut CryptData).cast(), size);
        let b = (
            (!p.is_null()).then(|| CStr::from_ptr(p).to_bytes().to_vec()),
            errno(),
        );
        (a, b)
    }
}

fn cs(b: &[u8]) -> Option<CString> {
    Some(CString::new(b).unwrap())
}

fn check(key: Option<&[u8]>, set: Option<&[u8]>) {
    let (k, s) = (key.and_then(cs), set.and_then(cs));
    let s_ = sys();
    let theirs = call(s_.crypt_r, s_.crypt_rn, &k, &s);
    let mine = call(ours::crypt_r, ours::crypt_rn, &k, &s);
    let shown =
        |b: Option<&[u8]>| b.map(|b| String::from_utf8_lossy(&b[..b.len().min(40)]).into_owned());
    // A successful call may leave errno as it was (0 here) in both.
    assert_eq!(
        mine,
        theirs,
        "key {:?} setting {:?}",
        shown(key),
        shown(set)
    );
}

#[test]
fn every_class_matches_libxcrypt() {
    let long = |n: usize| vec![b'k'; n];
    let high: Vec<u8> = (0x80..=0xFF).collect();
    let keys: Vec<Option<Vec<u8>>> = vec![
        None,
        Some(b"".to_vec()),
        Some(b"test".to_vec()),
        Some(b"\xff\xfe\x80 not utf-8".to_vec()),
        Some(high.clone()),
        Some(long(8)),
        Some(long(9)),
        Some(long(16)),
        Some(long(17)),
        Some(long(127)),
        Some(long(128)),
        Some(long(129)),
        Some(long(200)),
        Some(long(511)),
        Some(long(512)),
        Some(long(4000)),
    ];
    let sets: Vec<Option<&[u8]>> = vec![
        None,
        Some(b""),
        Some(b"a"),
        Some(b"ab"),
        Some(b"./"),
        Some(b"zz"),
        Some(b"a!"),
        Some(b"!a"),
        Some(b"ab!"),
        Some(b"ab:"),
        Some(b"ab;"),
        Some(b"ab\\"),
        Some(b"ab "),
        Some(b"ab\x7f"),
        Some(b"ab\x01"),
        Some(b"ab\xe9"),
        Some(b"a\xe9"),
        Some(b"ab-"),
        Some(b"ab$"),
        Some(b"abgOeLfPimXQo"),
        Some(b"abgOeLfPimXQoX"),
        Some(b"abgOeLfPimXQoXYZ"),
        Some(b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"),
        Some(b"*"),
        Some(b"*0"),
        Some(b"*0ab"),
        Some(b"*1"),
        Some(b"_"),
        Some(b"_J9."),
        Some(b"_J9..abc"),
        Some(b"_J9..abcd"),
        Some(b"_....abcd"),
        Some(b"_zzz.abcd"),
        Some(b"_J9..ab!d"),
        Some(b"_J9..abcd!"),
        Some(b"_J9..abcd-"),
        Some(b"_J9..abcdx/cgK8gMibw"),
        Some(b"_J9..abcdx/cgK8gMibwXYZ"),
        Some(b"_J9..abc\xe9"),
        Some(b"_!9..abcd"),
        Some(b"$"),
        Some(b"$9$"),
        Some(b"$1$abc$"),
        Some(b"$5$abc"),
        Some(b"$6$abc"),
        Some(b"$y$j9T$abc"),
        Some(b"$2b$05$abcdefghijklmnopqrstuu"),
        Some(b"$6$!"),
    ];
    let mut n = 0;
    for k in &keys {
        for s in &sets {
            // BSDi with count zzz. (2^18 - 1 iterations) only once: it is slow (the
            // test binaries also run under qemu in the `ladder` step).
            if s == &Some(&b"_zzz.abcd"[..]) && k.as_deref() != Some(b"test") {
                continue;
            }
            check(k.as_deref(), *s);
            n += 1;
        }
    }
    println!("{n} (key, setting) classes agree with libxcrypt");
}

fn random_setting(rng: &mut Rng) -> Vec<u8> {
    const A: &[u8] = des_crypt::ALPHABET;
    let alpha = |rng: &mut Rng, n: usize| -> Vec<u8> { (0..n).map(|_| A[rng.below(64)]).collect() };
    // Mostly alphabet, sometimes a byte libxcrypt refuses or any byte.
    let tail = |rng: &mut Rng, n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| match rng.below(20) {
                0 => b"!*:;\\ $\x7f"[rng.below(8)],
                1 => 1 + rng.below(255) as u8,
                2 => 0x21 + rng.below(0x5e) as u8,
                _ => A[rng.below(64)],
            })
            .collect()
    };
    match rng.below(8) {
        0..=2 => {
            let mut s = alpha(rng, 2);
            let n = [0, 0, 11, rng.below(30)][rng.below(4)];
            s.extend(tail(rng, n));
            s
        }
        3..=4 => {
            let count = match rng.below(8) {
                0 => 725,
                _ => rng.below(64),
            };
            let mut s = vec![b'_'];
            s.extend((0..4).map(|i| A[(count >> (6 * i)) & 63]));
            s.extend(alpha(rng, 4));
            let n = [0, 0, 11, rng.below(20)][rng.below(4)];
            s.extend(tail(rng, n));
            s
        }
        5 => {
            // Truncated.
            let mut s = if rng.below(2) == 0 {
                vec![b'_']
            } else {
                Vec::new()
            };
            let n = rng.below(if s.is_empty() { 2 } else { 8 });
            s.extend(alpha(rng, n));
            s
        }
        6 => {
            let n = rng.range(1, 16);
            tail(rng, n)
        }
        _ => {
            let mut s = if rng.below(2) == 0 {
                b"*0".to_vec()
            } else {
                Vec::new()
            };
            let n = rng.range(1, 14);
            s.extend(tail(rng, n));
            s
        }
    }
}

fn random_key(rng: &mut Rng) -> Vec<u8> {
    let len = match rng.below(10) {
        0 => rng.range(100, 600),
        1..=3 => rng.range(9, 40),
        _ => rng.below(9),
    };
    let high = rng.below(2) == 0;
    (0..len)
        .map(|_| {
            if high {
                1 + rng.below(255) as u8
            } else {
                0x20 + rng.below(0x5f) as u8
            }
        })
        .collect()
}

#[test]
fn random_pairs_match_libxcrypt() {
    let n = testkit::cases(10_000);
    let mut rng = Rng::new(testkit::seed(0x0011_B0C7));
    let t = std::time::Instant::now();
    for _ in 0..n {
        let k = random_key(&mut rng);
        let s = random_setting(&mut rng);
        let s = s.split(|&b| b == 0).next().unwrap_or_default().to_vec();
        check(Some(&k), Some(&s));
    }
    println!(
        "{n} random (key, setting) pairs agree with libxcrypt ({:.2?})",
        t.elapsed()
    );
}

/// `crypt_r` and `crypt_rn` from 4 threads at once, each with its own `crypt_data`,
/// against the answers computed beforehand on one thread.
#[test]
fn crypt_r_and_rn_are_thread_safe() {
    let mut rng = Rng::new(testkit::seed(0x7EAD));
    let jobs: Vec<(CString, CString, Vec<u8>)> = (0..400)
        .map(|_| {
            let k = CString::new(
                random_key(&mut rng)
                    .into_iter()
                    .filter(|&b| b != 0)
                    .take(100)
                    .collect::<Vec<u8>>(),
            )
            .unwrap();
            let s = CString::new(if rng.below(2) == 0 {
                vec![b'a' + rng.below(26) as u8, b'.' + rng.below(12) as u8]
            } else {
                b"_/...abcd".to_vec()
            })
            .unwrap();
            let want = call(
                sys().crypt_r,
                sys().crypt_rn,
                &Some(k.clone()),
                &Some(s.clone()),
            );
            (k, s, want.0.0)
        })
        .collect();
    std::thread::scope(|sc| {
        for t in 0..4 {
            let jobs = &jobs;
            sc.spawn(move || {
                let mut d = new_data();
                for round in 0..5 {
                    for (i, (k, s, want)) in jobs.iter().enumerate() {
                        if (i + t + round) % 2 == 0 {
                            // SAFETY: C strings; this thread's own crypt_data.
                            let p = unsafe { ours::crypt_r(k.as_ptr(), s.as_ptr(), &mut *d) };
                            // SAFETY: a NUL-terminated string in `d`.
                            assert_eq!(unsafe { CStr::from_ptr(p) }.to_bytes(), &want[..]);
                        } else {
                            let size = size_of::<CryptData>() as c_int;
                            // SAFETY: as above, through crypt_rn.
                            let p = unsafe {
                                ours::crypt_rn(
                                    k.as_ptr(),
                                    s.as_ptr(),
                                    (&mut *d as *mut CryptData).cast(),
                                    size,
                                )
                            };
                            assert!(!p.is_null());
                            // SAFETY: a NUL-terminated string in `d`.
                            assert_eq!(unsafe { CStr::from_ptr(p) }.to_bytes(), &want[..]);
                        }
                    }
                }
            });
        }
    });
}

#[test]
fn crypt_rn_short_buffer_and_crypt_ra() {
    let mut buf = vec![0u8; size_of::<CryptData>()];
    for size in [0, 100, size_of::<CryptData>() as c_int - 1] {
        // SAFETY: `buf` has more than `size` bytes.
        let (a, ea) = unsafe {
            clear_errno();
            let p = ours::crypt_rn(c"k".as_ptr(), c"ab".as_ptr(), buf.as_mut_ptr().cast(), size);
            (p.is_null(), errno())
        };
        // SAFETY: as above.
        let (b, eb) = unsafe {
            clear_errno();
            let p = (sys().crypt_rn)(c"k".as_ptr(), c"ab".as_ptr(), buf.as_mut_ptr().cast(), size);
            (p.is_null(), errno())
        };
        assert_eq!((a, ea), (b, eb), "size {size}");
    }
    let mut data: *mut c_void = core::ptr::null_mut();
    let mut size: c_int = 0;
    // SAFETY: `data` starts NULL, crypt_ra allocates it with malloc; freed below.
    unsafe {
        let p = ours::crypt_ra(c"test".as_ptr(), c"ab".as_ptr(), &mut data, &mut size);
        assert_eq!(CStr::from_ptr(p).to_bytes(), b"abgOeLfPimXQo");
        assert_eq!(size as usize, size_of::<CryptData>());
        let p = ours::crypt_ra(c"test".as_ptr(), c"a!".as_ptr(), &mut data, &mut size);
        assert!(p.is_null());
        assert_eq!(errno(), libc::EINVAL);
        libc::free(data);
    }
}

#[test]
fn checksalt_matches_libxcrypt() {
    for s in [
        &b""[..],
        b"a",
        b"ab",
        b"a!",
        b"ab!",
        b"ab\x80",
        b"_",
        b"_!",
        b"_J9.",
        b"_J9..abcd",
        b"abgOeLfPimXQoXYZ",
        b"*0",
        b"*",
        b"./",
        b"-a",
        b"a-",
    ] {
        let c = CString::new(s).unwrap();
        // SAFETY: C strings.
        let (a, b) = unsafe {
            (
                ours::crypt_checksalt(c.as_ptr()),
                (sys().checksalt)(c.as_ptr()),
            )
        };
        assert_eq!(a, b, "{s:?}");
    }
    for s in [core::ptr::null(), c"$6$abc".as_ptr(), c"$9$".as_ptr()] {
        // SAFETY: NULL or a C string; the second call goes to the system libcrypt.
        let (a, b) = unsafe { (ours::crypt_checksalt(s), (sys().checksalt)(s)) };
        assert_eq!(a, b);
    }
}

#[test]
fn gensalt_matches_libxcrypt() {
    let mut rng = Rng::new(testkit::seed(0x6E5A));
    let prefixes: [&[u8]; 7] = [b"", b"_", b"ab", b"ab!", b"_x", b"a!", b"*0"];
    let counts: [c_ulong; 9] = [0, 1, 2, 4, 5, 725, 7250, (1 << 24) - 1, 1 << 24];
    for _ in 0..2000 {
        let p = CString::new(prefixes[rng.below(prefixes.len())]).unwrap();
        let count = counts[rng.below(counts.len())];
        let nr = rng.below(5) as c_int;
        let rb = rng.bytes(4);
        let size = [2, 3, 9, 10, 192][rng.below(5)];
        let run = |f: GensaltRn| {
            let mut out = [0 as c_char; 192];
            // SAFETY: `rb` has 4 >= nr bytes; `out` has 192 >= size bytes.
            unsafe {
                clear_errno();
                let r = f(
                    p.as_ptr(),
                    count,
                    rb.as_ptr().cast(),
                    nr,
                    out.as_mut_ptr(),
                    size,
                );
                (
                    (!r.is_null()).then(|| CStr::from_ptr(r).to_bytes().to_vec()),
                    errno(),
                )
            }
        };
        assert_eq!(
            run(ours::crypt_gensalt_rn),
            run(sys().gensalt_rn),
            "prefix {p:?} count {count} nrbytes {nr} size {size}"
        );
    }
    // Random bytes from the OS: a setting that hashes.
    // SAFETY: NULL rbytes is allowed; the result is a C string in a malloc'ed buffer.
    unsafe {
        let r = ours::crypt_gensalt_ra(c"_".as_ptr(), 0, core::ptr::null(), 0);
        let s = CStr::from_ptr(r).to_bytes().to_vec();
        assert_eq!((s.len(), &s[..5]), (9, &b"_J9.."[..]));
        libc::free(r.cast());
        let r = ours::crypt_gensalt(c"".as_ptr(), 0, core::ptr::null(), 0);
        assert_eq!(ours::crypt_checksalt(r), ours::CRYPT_SALT_METHOD_LEGACY);
        assert_eq!(CStr::from_ptr(r).to_bytes().len(), 2);
    }
}

#[test]
fn setkey_r_encrypt_r_match_libxcrypt() {
    let Some((sk, en)) = sys().setkey_r else {
        println!("SKIP: this libxcrypt has no setkey_r/encrypt_r");
        return;
    };
    let mut rng = Rng::new(testkit::seed(0x5E7));
    let (mut a, mut b) = (new_data(), new_data());
    for _ in 0..2000 {
        let key: [c_char; 64] = core::array::from_fn(|_| rng.below(2) as c_char);
        let block: [c_char; 64] = core::array::from_fn(|_| rng.below(2) as c_char);
        let dec = rng.below(2) as c_int;
        let (mut x, mut y) = (block, block);
        // SAFETY: 64-element arrays and crypt_data structs.
        unsafe {
            sk(key.as_ptr(), &mut *a);
            en(x.as_mut_ptr(), dec, &mut *a);
            ours::setkey_r(key.as_ptr(), &mut *b);
            ours::encrypt_r(y.as_mut_ptr(), dec, &mut *b);
        }
        assert_eq!(x, y);
        // The static-key pair agrees with the _r pair.
        let mut z = block;
        // SAFETY: 64-element arrays.
        unsafe {
            ours::setkey(key.as_ptr());
            ours::encrypt(z.as_mut_ptr(), dec);
        }
        assert_eq!(z, y);
    }
}

/// `des_setkey`/`des_cipher` make traditional crypt by hand (FreeSec's use of them).
#[test]
fn des_cipher_is_crypts_core() {
    let key = b"test\0\0\0\0".map(|c| (c << 1) as c_char);
    let mut out = [0 as c_char; 8];
    let mut back = [0 as c_char; 8];
    let salt = (39 << 6) | 38; // "ab"
    // SAFETY: 8-byte arrays.
    unsafe {
        assert_eq!(ours::des_setkey(key.as_ptr()), 0);
        assert_eq!(
            ours::des_cipher([0; 8].as_ptr(), out.as_mut_ptr(), salt, 25),
            0
        );
        assert_eq!(
            ours::des_cipher(out.as_ptr(), back.as_mut_ptr(), salt, -25),
            0
        );
        assert_eq!(
            ours::des_cipher(out.as_ptr(), back.as_mut_ptr(), salt, 0),
            1
        );
    }
    assert_eq!(back, [0; 8]);
    let want = des_crypt::DesCipher::new(&key.map(|c| c as u8))
        .des_cipher(&[0; 8], salt as u32, 25)
        .unwrap();
    assert_eq!(out.map(|c| c as u8), want);
}

#[test]
fn batch_matches_crypt_r() {
    let mut rng = Rng::new(testkit::seed(0xBA7C));
    for setting in [
        &b"ab"[..],
        b"zz",
        b"abgOeLfPimXQo",
        b"_J9..CCCC",
        b"_/...abcdXYZ",
    ] {
        let keys: Vec<CString> = (0..4700)
            .map(|i| {
                let mut k: Vec<u8> = random_key(&mut rng)
                    .into_iter()
                    .filter(|&b| b != 0)
                    .collect();
                if i == 4100 {
                    k = vec![b'x'; 600];
                }
                CString::new(k).unwrap()
            })
            .collect();
        let ptrs: Vec<*const c_char> = keys.iter().map(|k| k.as_ptr()).collect();
        let stride = 24;
        let mut out = vec![0 as c_char; keys.len() * stride];
        let s = CString::new(setting).unwrap();
        // SAFETY: `ptrs` holds `keys.len()` C strings; `out` has len * stride bytes.
        let r = unsafe {
            clear_errno();
            ours::simdcrypt_crypt_keys(
                s.as_ptr(),
                ptrs.as_ptr(),
                keys.len(),
                out.as_mut_ptr(),
                stride,
            )
        };
        assert_eq!((r, errno()), (-1, libc::ERANGE), "key 4100 is too long");
        let mut d = new_data();
        for (i, k) in keys.iter().enumerate() {
            // SAFETY: C strings and a crypt_data.
            let want = unsafe { CStr::from_ptr((sys().crypt_r)(k.as_ptr(), s.as_ptr(), &mut *d)) };
            // SAFETY: each slot is NUL-terminated.
            let got = unsafe { CStr::from_ptr(out[i * stride..].as_ptr()) };
            assert_eq!(got, want, "key {i}");
        }
    }
    // No keys: NULL pointers are fine, the setting is still checked.
    // SAFETY: n = 0, nothing is read or written.
    let (a, b) = unsafe {
        (
            ours::simdcrypt_crypt_keys(
                c"ab".as_ptr(),
                core::ptr::null(),
                0,
                core::ptr::null_mut(),
                21,
            ),
            ours::simdcrypt_crypt_keys(
                c"a!".as_ptr(),
                core::ptr::null(),
                0,
                core::ptr::null_mut(),
                21,
            ),
        )
    };
    assert_eq!((a, b), (0, -1));
    // Refused settings: every slot gets the token.
    for (setting, tok) in [
        (c"$6$abc", "*0"),
        (c"*0", "*1"),
        (c"a!", "*0"),
        (c"abgOeLfPimXQoX", "*0"),
    ] {
        let ptrs = [c"k".as_ptr(), c"l".as_ptr()];
        let mut out = [0 as c_char; 42];
        // SAFETY: 2 keys, 2 slots of 21 bytes.
        let r = unsafe {
            ours::simdcrypt_crypt_keys(setting.as_ptr(), ptrs.as_ptr(), 2, out.as_mut_ptr(), 21)
        };
        assert_eq!((r, errno()), (-1, libc::EINVAL));
        // SAFETY: NUL-terminated slots.
        let second = unsafe { CStr::from_ptr(out[21..].as_ptr()) };
        assert_eq!(second.to_str(), Ok(tok));
    }
}
