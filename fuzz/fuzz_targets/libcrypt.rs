//! The C ABI of `simdcrypt-libcrypt` (issue 24), called from Rust as a C program would:
//! any key and setting bytes through `crypt`, `crypt_r`, `crypt_rn` (any buffer size)
//! and `crypt_ra`, which must agree with each other and, for the settings `des-crypt`
//! hashes, with `des_crypt::crypt`; `crypt_checksalt`; `crypt_gensalt_rn`, whose
//! settings must hash; `setkey`/`encrypt` against `setkey_r`/`encrypt_r` and their
//! decryption; `des_setkey`/`des_cipher` round trips; and `simdcrypt_crypt_keys`, whose
//! slots must hold what `crypt_r` gives for each key.
//!
//! The library is linked as an rlib, with no system libcrypt behind it, so the
//! fall-through for other methods finds nothing and fails as documented.
#![no_main]

use std::ffi::{CStr, CString, c_char, c_int, c_void};

use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::Input;
use simdcrypt_libcrypt as lc;

/// Bytes up to the first NUL, as C sees them.
fn cstring(b: &[u8]) -> CString {
    CString::new(b.split(|&c| c == 0).next().unwrap_or(b)).unwrap()
}

/// A setting from the fuzzer's bytes, with a BSDi count capped at 4095 (the two high
/// count characters set to `.`, 0) so that one execution stays short, as in `des_crypt`.
fn setting(b: &[u8]) -> CString {
    let mut s = b.to_vec();
    if s.first() == Some(&b'_') {
        for i in 3..5.min(s.len()) {
            s[i] = b'.';
        }
    }
    cstring(&s)
}

fn string(p: *const c_char) -> Option<String> {
    // SAFETY: the library returns NULL or a NUL-terminated string in a live buffer.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

fn zeroed_data() -> Box<lc::CryptData> {
    // SAFETY: `struct crypt_data` is plain bytes; all zeros is its documented start.
    unsafe { Box::new(std::mem::zeroed()) }
}

fn crypt_r(key: &CString, setting: &CString) -> String {
    let mut data = zeroed_data();
    // SAFETY: C strings and a whole `struct crypt_data`.
    let r = unsafe { lc::crypt_r(key.as_ptr(), setting.as_ptr(), &mut *data) };
    string(r).expect("crypt_r returns the hash or the token, never NULL")
}

fn hashes(inp: &mut Input<'_>) {
    let long = inp.byte() == 0xff;
    let key = if long {
        // Around CRYPT_MAX_PASSPHRASE_SIZE (512): ERANGE above.
        vec![b'k'; 500 + usize::from(inp.byte() % 24)]
    } else {
        inp.prefixed(40).to_vec()
    };
    let (k, s) = (cstring(&key), setting(inp.prefixed(40)));
    let r = crypt_r(&k, &s);
    let token = r.starts_with('*');
    // crypt (static buffer) says the same.
    // SAFETY: C strings; the fuzzer runs one thread.
    let c = string(unsafe { lc::crypt(k.as_ptr(), s.as_ptr()) });
    assert_eq!(c.as_deref(), Some(&r[..]), "crypt vs crypt_r");
    // crypt_rn: NULL exactly where crypt_r gives the token, or when the buffer is short.
    let size = match inp.byte() % 4 {
        0 => usize::from(inp.u16()),
        _ => size_of::<lc::CryptData>(),
    };
    let mut buf = vec![0u8; size.max(1)];
    // SAFETY: `buf` has `size` bytes (at least one).
    let rn = string(unsafe {
        lc::crypt_rn(
            k.as_ptr(),
            s.as_ptr(),
            buf.as_mut_ptr().cast::<c_void>(),
            size as c_int,
        )
    });
    if size < size_of::<lc::CryptData>() || token {
        assert_eq!(rn, None, "crypt_rn with {size} bytes for {r:?}");
    } else {
        assert_eq!(rn.as_deref(), Some(&r[..]), "crypt_rn vs crypt_r");
    }
    // crypt_ra: allocates.
    let (mut p, mut n): (*mut c_void, c_int) = (std::ptr::null_mut(), 0);
    // SAFETY: a NULL buffer and a size to fill in; freed below with libc's free.
    let ra = string(unsafe { lc::crypt_ra(k.as_ptr(), s.as_ptr(), &mut p, &mut n) });
    assert_eq!(
        ra.as_deref(),
        (!token).then_some(&r[..]),
        "crypt_ra vs crypt_r"
    );
    // SAFETY: `p` is NULL or from the library's realloc.
    unsafe { libc::free(p) };
    // The Rust API agrees where it hashes (the C library adds bigcrypt for long
    // traditional settings and refuses keys of 512 bytes or more).
    let st = std::str::from_utf8(s.as_bytes());
    if let Ok(st) = st
        && let Ok(h) = des_crypt::crypt(k.as_bytes(), st)
        && key.len() < 512
        && (st.starts_with('_') || st.len() <= 13)
    {
        assert_eq!(h, r, "des_crypt::crypt vs crypt_r for {st:?}");
    }
    // SAFETY: a C string.
    let check = unsafe { lc::crypt_checksalt(s.as_ptr()) };
    if !token && !long {
        assert_eq!(
            check,
            lc::CRYPT_SALT_METHOD_LEGACY,
            "checksalt of a setting that hashed"
        );
    }
}

fn gensalt(inp: &mut Input<'_>) {
    let prefix = cstring(inp.prefixed(4));
    // Small counts (the hash check below runs them), or any, up to past 2^24 - 1.
    let big = inp.byte() & 1 == 1;
    let count = if big {
        u64::from(inp.u16()) << (inp.byte() % 16)
    } else {
        u64::from(inp.u16() % 4096)
    };
    let rbytes = inp.prefixed(8).to_vec();
    let mut out = vec![0u8; usize::from(inp.byte() % 64) + 1];
    // SAFETY: `rbytes` has `nrbytes` bytes, `out` `output_size` bytes.
    let r = string(unsafe {
        lc::crypt_gensalt_rn(
            prefix.as_ptr(),
            count as _,
            rbytes.as_ptr().cast(),
            rbytes.len() as c_int,
            out.as_mut_ptr().cast(),
            out.len() as c_int,
        )
    });
    // A BSDi setting runs its count of DES encryptions (up to 2^24 - 1): hashed only
    // for small counts, so that one execution stays short.
    if let Some(setting) = r.filter(|_| !big) {
        let h = crypt_r(&cstring(b"password"), &cstring(setting.as_bytes()));
        assert!(
            !h.starts_with('*'),
            "gensalt gave {setting:?}, which does not hash"
        );
    }
}

fn bits(inp: &mut Input<'_>) {
    let key: Vec<c_char> = (0..64).map(|_| (inp.byte() & 1) as c_char).collect();
    let block: Vec<c_char> = (0..64).map(|_| (inp.byte() & 1) as c_char).collect();
    let mut a = block.clone();
    let mut b = block.clone();
    let mut data = zeroed_data();
    // SAFETY: 64-byte key and blocks; the fuzzer runs one thread (setkey's static).
    unsafe {
        lc::setkey(key.as_ptr());
        lc::encrypt(a.as_mut_ptr(), 0);
        lc::setkey_r(key.as_ptr(), &mut *data);
        lc::encrypt_r(b.as_mut_ptr(), 0, &mut *data);
    }
    assert_eq!(a, b, "encrypt vs encrypt_r");
    // SAFETY: as above.
    unsafe { lc::encrypt(a.as_mut_ptr(), 1) };
    assert_eq!(a, block, "encrypt then decrypt");

    let key: [u8; 8] = core::array::from_fn(|_| inp.byte());
    let input: [u8; 8] = core::array::from_fn(|_| inp.byte());
    let salt = inp.u64() as libc::c_long;
    let count = (inp.u16() % 64) as c_int + 1;
    let (mut out, mut back) = ([0u8; 8], [0u8; 8]);
    // SAFETY: 8-byte key, input and outputs.
    unsafe {
        assert_eq!(lc::des_setkey(key.as_ptr().cast()), 0);
        assert_eq!(
            lc::des_cipher(input.as_ptr().cast(), out.as_mut_ptr().cast(), salt, count),
            0
        );
        lc::des_cipher(out.as_ptr().cast(), back.as_mut_ptr().cast(), salt, -count);
    }
    assert_eq!(back, input, "des_cipher {count} then {}", -count);
}

fn batch(inp: &mut Input<'_>) {
    let setting = setting(inp.prefixed(16));
    let n = usize::from(inp.byte() % 40);
    let keys: Vec<CString> = (0..n).map(|_| cstring(inp.prefixed(12))).collect();
    let ptrs: Vec<*const c_char> = keys.iter().map(|k| k.as_ptr()).collect();
    let stride = lc::SIMDCRYPT_KEYS_SLOT + usize::from(inp.byte() % 4);
    let mut out = vec![0xa5u8; n * stride];
    // SAFETY: `n` key pointers, `n * stride` output bytes.
    let ret = unsafe {
        lc::simdcrypt_crypt_keys(
            setting.as_ptr(),
            ptrs.as_ptr(),
            n,
            out.as_mut_ptr().cast(),
            stride,
        )
    };
    for (i, k) in keys.iter().enumerate() {
        let slot = &out[i * stride..(i + 1) * stride];
        let got = CStr::from_bytes_until_nul(slot).expect("a NUL in each slot");
        let want = crypt_r(k, &setting);
        if ret == 0 {
            assert_eq!(got.to_str().unwrap(), want, "slot {i} vs crypt_r");
        } else {
            assert!(got.to_bytes().starts_with(b"*"), "slot {i} after a failure");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    match inp.byte() % 4 {
        0 => hashes(&mut inp),
        1 => gensalt(&mut inp),
        2 => bits(&mut inp),
        _ => batch(&mut inp),
    }
});
