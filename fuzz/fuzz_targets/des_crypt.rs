//! `des-crypt` against the system's libxcrypt `crypt_r(3)` (there is no RustCrypto
//! crate for it): any key bytes and any setting string. A setting ours hashes must give
//! libxcrypt's hash; one ours refuses must make libxcrypt fail (`*0`/`*1`), except the
//! documented differences (other methods' `$` prefixes, trailing characters after a
//! full hash). `verify`, `crypt_many` and `crypt_keys` (bitsliced batches) agree with
//! `crypt`; `DesCipher` round-trips. BSDi counts are capped at 4095 so that one
//! execution stays short.
#![no_main]

use std::ffi::{CStr, CString, c_char};

use des_crypt::{ALPHABET, Error, crypt, crypt_keys, crypt_many, verify};
use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::Input;

#[link(name = "crypt")]
unsafe extern "C" {
    fn crypt_r(key: *const c_char, setting: *const c_char, data: *mut u8) -> *mut c_char;
}

/// libxcrypt's hash, or its failure token. Both strings are C strings: they end at
/// their first NUL.
fn sys(key: &[u8], setting: &str) -> String {
    let cut = |b: &[u8]| CString::new(b.split(|&c| c == 0).next().unwrap_or(b)).unwrap();
    let (k, s) = (cut(key), cut(setting.as_bytes()));
    let mut data = vec![0u8; 1 << 16];
    // SAFETY: NUL-terminated strings; `data` is zeroed and larger than libxcrypt's
    // `struct crypt_data` (32 768 bytes); the result is copied out before `data` drops.
    let r = unsafe { crypt_r(k.as_ptr(), s.as_ptr(), data.as_mut_ptr()) };
    assert!(!r.is_null(), "libxcrypt returned NULL");
    // SAFETY: a non-NULL result is a NUL-terminated string inside `data`.
    unsafe { CStr::from_ptr(r) }.to_string_lossy().into_owned()
}

/// Whether libxcrypt lets a setting through its character check: printable ASCII
/// except `!*:;\\` (past the salt that is all it checks).
fn xcrypt_charset(setting: &str) -> bool {
    setting
        .bytes()
        .all(|b| (0x21..=0x7e).contains(&b) && !b"!*:;\\".contains(&b))
}

/// What libxcrypt must say about `setting`, given ours.
fn check(key: &[u8], setting: &str) {
    if let Some(nul) = setting.find('\0') {
        // C ends the setting there; ours refuses a NUL inside it, and agrees on the
        // part C sees.
        assert!(crypt(key, setting).is_err(), "NUL in {setting:?}");
        return check(key, &setting[..nul]);
    }
    let want = sys(key, setting);
    let salt = if setting.starts_with('_') { 9 } else { 2 };
    match crypt(key, setting) {
        Ok(h) => {
            assert_eq!(h, want, "key {key:?} setting {setting:?}");
            assert!(verify(key, &h), "verify of its own hash");
            assert_eq!(crypt(key, &h).as_deref(), Ok(&h[..]), "the hash as setting");
        }
        Err(Error::NotDesCrypt) => assert!(setting.starts_with('$'), "{setting:?}"),
        // Ours refuses what is not a hash's own characters and length after the salt;
        // libxcrypt hashes with the salt alone if the character check passes (the
        // crate docs' table).
        Err(Error::TooLong { .. }) => lenient(key, setting, salt, &want),
        Err(Error::InvalidChar { pos, .. }) if pos >= salt => lenient(key, setting, salt, &want),
        Err(e) => assert!(
            want == "*0" || want == "*1",
            "{setting:?}: ours {e:?}, libxcrypt {want:?}"
        ),
    }
    let full = crypt(key, setting).is_ok_and(|h| h == setting);
    assert_eq!(verify(key, setting), full, "verify {setting:?}");
}

/// libxcrypt's reading of a setting ours refuses past its salt (`salt` characters).
fn lenient(key: &[u8], setting: &str, salt: usize, want: &str) {
    let head = setting.get(..salt).filter(|_| xcrypt_charset(setting));
    match head.map(|h| crypt(key, h)) {
        // A traditional setting longer than a hash, with a key longer than 8 bytes:
        // libxcrypt's bigcrypt (not implemented here), whose first 13 characters are
        // the traditional hash, then 11 per further 8 key bytes.
        Some(Ok(h)) if salt == 2 && setting.len() > 13 && want.len() > 13 => assert!(
            want.starts_with(&h) && (want.len() - 13) % 11 == 0,
            "{setting:?}: bigcrypt {want:?} vs {h:?}"
        ),
        Some(Ok(h)) => assert_eq!(h, want, "{setting:?} read as {:?}", &setting[..salt]),
        _ => assert!(want.starts_with('*'), "{setting:?}: libxcrypt {want:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let mode = inp.byte();
    let key = inp.prefixed(47).to_vec();
    let mut s = inp.prefixed(23).to_vec();
    // Cap the BSDi count: its top two characters (bits 12..23) become '.' (0) when they
    // are valid, so malformed characters there still reach the parser.
    if s.first() == Some(&b'_') {
        for c in s.iter_mut().skip(3).take(2) {
            if ALPHABET.contains(c) {
                *c = b'.';
            }
        }
    }
    let setting = String::from_utf8_lossy(&s).into_owned();
    check(&key, &setting);

    match mode % 4 {
        // Many keys under this setting: the bitsliced batch path.
        0 => {
            let keys: Vec<Vec<u8>> = (0..usize::from(inp.byte() % 40))
                .map(|i| {
                    let mut k = key.clone();
                    k.extend_from_slice(inp.prefixed(11));
                    k.push(i as u8 | 0x40);
                    k
                })
                .collect();
            match crypt_keys(&setting, &keys) {
                Ok(hashes) => {
                    for (k, h) in keys.iter().zip(&hashes) {
                        assert_eq!(Ok(h.as_str()), crypt(k, &setting).as_deref(), "crypt_keys");
                    }
                }
                Err(e) => assert_eq!(Err(e), crypt(&key, &setting), "crypt_keys error"),
            }
        }
        // Mixed jobs: this setting and variants of it, several keys.
        1 => {
            let jobs: Vec<(Vec<u8>, String)> = (0..usize::from(inp.byte() % 40))
                .map(|i| {
                    let mut s = setting.clone().into_bytes();
                    if let Some(c) = s.get_mut(i % 2) {
                        *c = ALPHABET[usize::from(inp.byte() % 64)];
                    }
                    (
                        vec![i as u8 + 1; i % 11],
                        String::from_utf8_lossy(&s).into_owned(),
                    )
                })
                .collect();
            for ((k, s), r) in jobs.iter().zip(crypt_many(&jobs)) {
                assert_eq!(r, crypt(k, s), "crypt_many {s:?}");
            }
        }
        // FreeSec's des_cipher: any count round-trips (count 0 is refused).
        2 => {
            let c = des_crypt::DesCipher::new(&core::array::from_fn(|i| *key.get(i).unwrap_or(&0)));
            let block = core::array::from_fn(|_| inp.byte());
            let salt = inp.u64() as u32 & 0xff_ffff;
            let count = i32::from(inp.byte() % 64) - 32;
            match c.des_cipher(&block, salt, count) {
                Ok(out) => assert_eq!(c.des_cipher(&out, salt, -count), Ok(block)),
                Err(e) => assert_eq!((e, count), (Error::ZeroCount, 0)),
            }
        }
        _ => {}
    }
});
