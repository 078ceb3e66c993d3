//! `des-crypt` as a C library with libxcrypt's ABI: `libsimdcrypt_libcrypt.so` (and
//! `.a`) exports `crypt`, `crypt_r`, `crypt_rn`, `crypt_ra`, `crypt_checksalt`,
//! `crypt_preferred_method`, `crypt_gensalt`, `crypt_gensalt_rn`, `crypt_gensalt_ra`,
//! `setkey`, `encrypt`, `setkey_r`, `encrypt_r`, FreeSec's `des_setkey` and
//! `des_cipher`, and the batch entry point `simdcrypt_crypt_keys`. The declarations are
//! in `include/simdcrypt_crypt.h` (libxcrypt's `crypt.h` for what is exported).
//!
//! # What it hashes
//!
//! DES settings as libxcrypt 4.4 does, byte for byte (`tests/libxcrypt.rs` checks it
//! against the system's `libcrypt.so.1`):
//! - traditional (`ab`, 2 alphabet characters, anything allowed after them), and when
//!   the setting is longer than 13 characters libxcrypt's bigcrypt (11 more hash
//!   characters per further 8 key bytes, at most 16 segments);
//! - BSDi extended (`_` + 4 count + 4 salt characters).
//!
//! Failures write libxcrypt's failure token (`*0`, or `*1` for a setting starting with
//! `*0`) and set `errno`: `EINVAL` for a NULL key or setting, a setting with a byte
//! outside printable ASCII or one of `!*:;\`, or a malformed DES setting; `ERANGE` for a
//! key of 512 bytes or more (`CRYPT_MAX_PASSPHRASE_SIZE`). `crypt`, `crypt_r` return the
//! token, `crypt_rn`, `crypt_ra` return NULL, as libxcrypt does.
//!
//! # Other methods: the fall-through
//!
//! Any other well-formed setting (`$1$`, `$2b$`, `$5$`, `$6$`, `$y$`, …) goes to the
//! next definition of the same function in the link chain (`dlsym(RTLD_NEXT, …)`, or
//! an already loaded `libcrypt.so.1` outside the global scope, see `next.rs`): with
//! this library in `LD_PRELOAD` in front of the system libcrypt, every method keeps
//! working. Standalone (no next definition) such a setting fails with the `*0` token and
//! `EINVAL`, as a libxcrypt built without that method does. The same holds for
//! `crypt_checksalt` (standalone: `CRYPT_SALT_INVALID`), `crypt_gensalt*` with a `$`
//! prefix or a NULL prefix, and `crypt_preferred_method` (standalone: `"_"`, BSDi).
//!
//! # Storage
//!
//! `crypt` and `crypt_gensalt` write a static buffer, as libxcrypt documents: not safe
//! from several threads at once. `crypt_r`, `crypt_rn`, `crypt_ra` keep everything in
//! the caller's `struct crypt_data` and are thread-safe. `setkey`/`encrypt` and
//! `des_setkey`/`des_cipher` keep their key in a static (a lock guards it);
//! `setkey_r`/`encrypt_r` keep it in the caller's `struct crypt_data`.

use core::cell::UnsafeCell;
use core::ffi::{CStr, c_char, c_int, c_long, c_ulong, c_void};
use std::sync::Mutex;

use des_crypt::{ALPHABET, DesCipher, Encrypt};

mod next;

/// `CRYPT_OUTPUT_SIZE`: the output field of `struct crypt_data`.
pub const CRYPT_OUTPUT_SIZE: usize = 384;
/// `CRYPT_MAX_PASSPHRASE_SIZE`: keys must be shorter.
pub const CRYPT_MAX_PASSPHRASE_SIZE: usize = 512;
/// `CRYPT_GENSALT_OUTPUT_SIZE`.
pub const CRYPT_GENSALT_OUTPUT_SIZE: usize = 192;
/// `CRYPT_DATA_RESERVED_SIZE`.
pub const CRYPT_DATA_RESERVED_SIZE: usize = 767;
/// `CRYPT_DATA_INTERNAL_SIZE`.
pub const CRYPT_DATA_INTERNAL_SIZE: usize = 30720;
/// `crypt_checksalt`: the setting is fine.
pub const CRYPT_SALT_OK: c_int = 0;
/// `crypt_checksalt`: the setting is malformed or its method unknown.
pub const CRYPT_SALT_INVALID: c_int = 1;
/// `crypt_checksalt`: the method is too weak for new hashes (every DES method).
pub const CRYPT_SALT_METHOD_LEGACY: c_int = 3;
/// Keys per `crypt_keys` call in `simdcrypt_crypt_keys`: 2 AVX-512 (4 AVX2) batches. With
/// 4096 the chunk's three buffers passed glibc's 128 KiB trim threshold, so each call gave
/// its pages back and faulted them in again: 8.9 M crypts/s against 10.0 with 512–2048
/// (Zen 4, `cargo run --release -p simdcrypt-libcrypt --example batch_speed`, where the
/// Rust `crypt_keys` does 11.0).
const CHUNK: usize = 1024;
/// Most bigcrypt segments libxcrypt writes (`2 + 16 * 11` characters).
const BIGCRYPT_SEGMENTS: usize = 16;

/// libxcrypt's `struct crypt_data` (32 768 bytes, byte-aligned).
#[repr(C)]
pub struct CryptData {
    /// Where the hash (or failure token) is written.
    pub output: [c_char; CRYPT_OUTPUT_SIZE],
    /// For the application's setting.
    pub setting: [c_char; CRYPT_OUTPUT_SIZE],
    /// For the application's passphrase.
    pub input: [c_char; CRYPT_MAX_PASSPHRASE_SIZE],
    /// Reserved.
    pub reserved: [c_char; CRYPT_DATA_RESERVED_SIZE],
    /// Zero before the first call.
    pub initialized: c_char,
    /// Scratch: `setkey_r` keeps its key here.
    pub internal: [c_char; CRYPT_DATA_INTERNAL_SIZE],
}

const _: () = assert!(size_of::<CryptData>() == 32768);
const _: () = assert!(align_of::<CryptData>() == 1);

/// What [`compute`] made of a call.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// A hash of this many bytes was written.
    Hash,
    /// The failure token was written; `errno` gets this.
    Fail(c_int),
    /// Not DES: for the next library (the token is already written).
    Other,
}

/// A byte libxcrypt refuses anywhere in a setting.
fn bad_setting_byte(b: u8) -> bool {
    !(0x21..=0x7e).contains(&b) || b"!*:;\\".contains(&b)
}

fn is_alpha(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'/'
}

fn value(b: u8) -> u32 {
    ALPHABET.iter().position(|&a| a == b).unwrap_or(0) as u32
}

/// Writes `s` and a NUL into `out`.
fn put(out: &mut [u8], s: &[u8]) {
    out[..s.len()].copy_from_slice(s);
    out[s.len()] = 0;
}

/// libxcrypt's failure token for `setting`.
fn token(setting: Option<&[u8]>) -> &'static [u8] {
    match setting {
        Some(s) if s.starts_with(b"*0") => b"*1",
        _ => b"*0",
    }
}

/// The part of `do_crypt` that does not depend on the buffer kind: the token first, then
/// the DES hash into `out` (NUL-terminated), or the reason it failed.
fn compute(phrase: Option<&[u8]>, setting: Option<&[u8]>, out: &mut [u8]) -> Outcome {
    put(out, token(setting));
    let (Some(phrase), Some(setting)) = (phrase, setting) else {
        return Outcome::Fail(libc::EINVAL);
    };
    if phrase.len() >= CRYPT_MAX_PASSPHRASE_SIZE {
        return Outcome::Fail(libc::ERANGE);
    }
    if setting.is_empty() || setting.iter().any(|&b| bad_setting_byte(b)) {
        return Outcome::Fail(libc::EINVAL);
    }
    if setting[0] == b'_' {
        if setting.len() < 9 || !setting[1..9].iter().all(|&b| is_alpha(b)) {
            return Outcome::Fail(libc::EINVAL);
        }
        return des(phrase, &setting[..9], out);
    }
    if setting.len() >= 2 && is_alpha(setting[0]) && is_alpha(setting[1]) {
        if setting.len() > 13 && phrase.len() > 8 {
            return bigcrypt(phrase, setting, out);
        }
        return des(phrase, &setting[..2], out);
    }
    if setting[0] == b'$' {
        return Outcome::Other;
    }
    Outcome::Fail(libc::EINVAL)
}

/// Traditional or BSDi through `des_crypt::crypt` (`prefix`: 2 or 9 alphabet characters).
fn des(phrase: &[u8], prefix: &[u8], out: &mut [u8]) -> Outcome {
    let prefix = core::str::from_utf8(prefix).unwrap_or_default();
    match des_crypt::crypt(phrase, prefix) {
        Ok(h) => {
            put(out, h.as_bytes());
            Outcome::Hash
        }
        Err(_) => Outcome::Fail(libc::EINVAL),
    }
}

/// libxcrypt's bigcrypt: the traditional hash of the first 8 key bytes, then for each
/// further 8 bytes (at most 16 segments in all) 11 characters of DES under the salt of
/// the previous segment's first two hash characters.
fn bigcrypt(phrase: &[u8], setting: &[u8], out: &mut [u8]) -> Outcome {
    let mut text = Vec::with_capacity(2 + 11 * BIGCRYPT_SEGMENTS);
    text.extend_from_slice(&setting[..2]);
    let mut salt_at = 0;
    for chunk in phrase.chunks(8).take(BIGCRYPT_SEGMENTS) {
        let mut key = [0u8; 8];
        for (d, &s) in key.iter_mut().zip(chunk) {
            *d = s << 1;
        }
        let salt = value(text[salt_at]) | value(text[salt_at + 1]) << 6;
        let Ok(o) = DesCipher::new(&key).des_cipher(&[0; 8], salt, 25) else {
            return Outcome::Fail(libc::EINVAL);
        };
        salt_at = text.len();
        let v = u64::from_be_bytes(o);
        for i in 0..10 {
            text.push(ALPHABET[((v >> (58 - 6 * i)) & 63) as usize]);
        }
        text.push(ALPHABET[((v << 2) & 63) as usize]);
    }
    put(out, &text);
    Outcome::Hash
}

/// The C string at `p`, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that outlives the result.
unsafe fn cstr<'a>(p: *const c_char) -> Option<&'a [u8]> {
    // SAFETY: the caller's contract.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_bytes())
}

fn set_errno(e: c_int) {
    // SAFETY: `__errno_location` returns this thread's errno.
    unsafe { *libc::__errno_location() = e };
}

/// `crypt_r` into `data`, forwarding non-DES settings with `fwd`.
///
/// # Safety
/// `phrase`, `setting`: NULL or C strings; `data` points to a `struct crypt_data`.
unsafe fn crypt_into(
    phrase: *const c_char,
    setting: *const c_char,
    data: *mut CryptData,
    fwd: impl FnOnce() -> Option<*mut c_char>,
) -> (*mut c_char, bool) {
    // SAFETY: the caller's contract.
    let (p, s) = unsafe { (cstr(phrase), cstr(setting)) };
    // SAFETY: `data` is a valid `struct crypt_data`; `output` is its first field.
    let out = unsafe { &mut *(&raw mut (*data).output).cast::<[u8; CRYPT_OUTPUT_SIZE]>() };
    let r = compute(p, s, out);
    let ptr = out.as_mut_ptr().cast::<c_char>();
    match r {
        Outcome::Hash => (ptr, true),
        Outcome::Fail(e) => {
            set_errno(e);
            (ptr, false)
        }
        Outcome::Other => match fwd() {
            Some(r) => (r, !r.is_null()),
            None => {
                set_errno(libc::EINVAL);
                (ptr, false)
            }
        },
    }
}

/// A static buffer shared by every caller (`crypt`, `crypt_gensalt`), as in libxcrypt.
struct Static<T>(UnsafeCell<T>);
// SAFETY: as libxcrypt's statics: the functions using them are documented as not
// thread-safe; the data is plain bytes, so a race garbles output but is not otherwise
// different from C's.
unsafe impl<T> Sync for Static<T> {}

static CRYPT_DATA: Static<CryptData> = Static(UnsafeCell::new(CryptData {
    output: [0; CRYPT_OUTPUT_SIZE],
    setting: [0; CRYPT_OUTPUT_SIZE],
    input: [0; CRYPT_MAX_PASSPHRASE_SIZE],
    reserved: [0; CRYPT_DATA_RESERVED_SIZE],
    initialized: 0,
    internal: [0; CRYPT_DATA_INTERNAL_SIZE],
}));
static GENSALT: Static<[u8; CRYPT_GENSALT_OUTPUT_SIZE]> =
    Static(UnsafeCell::new([0; CRYPT_GENSALT_OUTPUT_SIZE]));

/// `crypt(3)`: the hash in a static buffer, or the failure token.
///
/// # Safety
/// C strings or NULL; not to be called from several threads at once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt(phrase: *const c_char, setting: *const c_char) -> *mut c_char {
    // SAFETY: the static buffer is a `struct crypt_data`; the caller's contract.
    unsafe {
        crypt_into(phrase, setting, CRYPT_DATA.0.get(), || {
            next::crypt().map(|f| f(phrase, setting))
        })
        .0
    }
}

/// `crypt_r(3)`: the hash in `data->output`, or the failure token.
///
/// # Safety
/// C strings or NULL; `data` points to a `struct crypt_data`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_r(
    phrase: *const c_char,
    setting: *const c_char,
    data: *mut CryptData,
) -> *mut c_char {
    if data.is_null() {
        set_errno(libc::EINVAL);
        return core::ptr::null_mut();
    }
    // SAFETY: the caller's contract.
    unsafe {
        crypt_into(phrase, setting, data, || {
            next::crypt_r().map(|f| f(phrase, setting, data))
        })
        .0
    }
}

/// `crypt_rn(3)`: as `crypt_r` in a buffer of `size` bytes (at least
/// `sizeof(struct crypt_data)`), NULL on failure.
///
/// # Safety
/// C strings or NULL; `data` points to `size` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_rn(
    phrase: *const c_char,
    setting: *const c_char,
    data: *mut c_void,
    size: c_int,
) -> *mut c_char {
    if data.is_null() || size < 0 || (size as usize) < size_of::<CryptData>() {
        set_errno(libc::ERANGE);
        return core::ptr::null_mut();
    }
    // SAFETY: the caller's contract; `data` holds a `struct crypt_data`.
    let (r, ok) = unsafe {
        crypt_into(phrase, setting, data.cast(), || {
            next::crypt_rn().map(|f| f(phrase, setting, data, size))
        })
    };
    if ok { r } else { core::ptr::null_mut() }
}

/// `crypt_ra(3)`: as `crypt_rn` in a buffer `malloc`ed (or grown) here.
///
/// # Safety
/// C strings or NULL; `*data` NULL or `malloc`ed with `*size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_ra(
    phrase: *const c_char,
    setting: *const c_char,
    data: *mut *mut c_void,
    size: *mut c_int,
) -> *mut c_char {
    if data.is_null() || size.is_null() {
        set_errno(libc::EINVAL);
        return core::ptr::null_mut();
    }
    let need = size_of::<CryptData>();
    // SAFETY: `data` and `size` are valid pointers (checked non-NULL; the caller's
    // contract); `*data` is NULL or from malloc, so realloc may grow it.
    unsafe {
        if (*data).is_null() || *size < 0 || (*size as usize) < need {
            let p = libc::realloc(*data, need);
            if p.is_null() {
                set_errno(libc::ENOMEM);
                return core::ptr::null_mut();
            }
            core::ptr::write_bytes(p.cast::<u8>(), 0, need);
            *data = p;
            *size = need as c_int;
        }
        crypt_rn(phrase, setting, *data, *size)
    }
}

/// The DES method of a gensalt `prefix`: `Some(true)` BSDi, `Some(false)` traditional.
fn gensalt_method(prefix: &[u8]) -> Option<bool> {
    match prefix {
        [] => Some(false),
        [b'_', ..] => Some(true),
        [a, b, ..] if is_alpha(*a) && is_alpha(*b) => Some(false),
        _ => None,
    }
}

/// `crypt_checksalt(3)`: `CRYPT_SALT_METHOD_LEGACY` for DES settings.
///
/// # Safety
/// `setting` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_checksalt(setting: *const c_char) -> c_int {
    // SAFETY: the caller's contract.
    let Some(s) = (unsafe { cstr(setting) }) else {
        return CRYPT_SALT_INVALID;
    };
    if s.is_empty() || s.iter().any(|&b| bad_setting_byte(b)) {
        return CRYPT_SALT_INVALID;
    }
    if s[0] == b'_' || (s.len() >= 2 && is_alpha(s[0]) && is_alpha(s[1])) {
        return CRYPT_SALT_METHOD_LEGACY;
    }
    match next::crypt_checksalt() {
        // SAFETY: libxcrypt's crypt_checksalt with the caller's C string.
        Some(f) if s[0] == b'$' => unsafe { f(setting) },
        _ => CRYPT_SALT_INVALID,
    }
}

/// `crypt_preferred_method(3)`: the next library's, or `"_"` (BSDi) standalone.
#[unsafe(no_mangle)]
pub extern "C" fn crypt_preferred_method() -> *const c_char {
    match next::crypt_preferred_method() {
        Some(f) => f(),
        None => c"_".as_ptr(),
    }
}

/// `crypt_gensalt_rn(3)` for DES prefixes (`""` or two alphabet characters:
/// traditional, `count` must be 0, 2 random bytes; `"_"`: BSDi, `count` 0 means 725,
/// even counts are made odd, at most 2^24 - 1, 3 random bytes). `rbytes` NULL: random
/// bytes from the OS. NULL on failure (`EINVAL`, or `ERANGE` for a short `output`).
///
/// # Safety
/// `prefix` NULL or a C string; `rbytes` NULL or `nrbytes` bytes; `output` has
/// `output_size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_gensalt_rn(
    prefix: *const c_char,
    count: c_ulong,
    rbytes: *const c_char,
    nrbytes: c_int,
    output: *mut c_char,
    output_size: c_int,
) -> *mut c_char {
    // libxcrypt checks first that the failure token would fit.
    if output.is_null() || output_size < 3 {
        set_errno(libc::ERANGE);
        return core::ptr::null_mut();
    }
    // SAFETY: the caller's contract.
    let p = unsafe { cstr(prefix) };
    let method = match p {
        Some(p) => gensalt_method(p),
        None => None,
    };
    let Some(bsdi) = method else {
        if p.is_none_or(|p| p.first() == Some(&b'$')) {
            if let Some(f) = next::crypt_gensalt_rn() {
                // SAFETY: libxcrypt's crypt_gensalt_rn with the caller's arguments.
                return unsafe { f(prefix, count, rbytes, nrbytes, output, output_size) };
            }
            if p.is_none() {
                // Standalone, the preferred method is BSDi.
                // SAFETY: the caller's contract.
                return unsafe {
                    crypt_gensalt_rn(c"_".as_ptr(), count, rbytes, nrbytes, output, output_size)
                };
            }
        }
        set_errno(libc::EINVAL);
        return core::ptr::null_mut();
    };
    let need = if bsdi { 3 } else { 2 };
    // The setting's length (2 or 9) and its NUL must fit.
    if (output_size as usize) < if bsdi { 10 } else { 3 } {
        set_errno(libc::ERANGE);
        return core::ptr::null_mut();
    }
    let mut rnd = [0u8; 3];
    if rbytes.is_null() {
        if getrandom(&mut rnd[..need]).is_err() {
            return core::ptr::null_mut();
        }
    } else {
        if nrbytes < need as c_int {
            set_errno(libc::EINVAL);
            return core::ptr::null_mut();
        }
        // SAFETY: `rbytes` has at least `nrbytes >= need` bytes.
        rnd[..need].copy_from_slice(unsafe { core::slice::from_raw_parts(rbytes.cast(), need) });
    }
    let mut text = [0u8; 9];
    let len = if bsdi {
        let mut c = match count {
            0 => 725,
            c => c.min(0xFF_FFFF),
        };
        if c % 2 == 0 {
            c += 1;
        }
        let salt = u32::from(rnd[0]) | u32::from(rnd[1]) << 8 | u32::from(rnd[2]) << 16;
        text[0] = b'_';
        for i in 0..4 {
            text[1 + i] = ALPHABET[((c >> (6 * i)) & 63) as usize];
            text[5 + i] = ALPHABET[((salt >> (6 * i)) & 63) as usize];
        }
        9
    } else {
        if count != 0 {
            set_errno(libc::EINVAL);
            return core::ptr::null_mut();
        }
        text[0] = ALPHABET[usize::from(rnd[0] & 63)];
        text[1] = ALPHABET[usize::from(rnd[1] & 63)];
        2
    };
    // SAFETY: `output` has `output_size > len` bytes (checked above).
    put(
        unsafe { core::slice::from_raw_parts_mut(output.cast(), len + 1) },
        &text[..len],
    );
    output
}

/// The OS's random bytes (`getrandom(2)`), `errno` set on failure.
fn getrandom(buf: &mut [u8]) -> Result<(), ()> {
    let mut at = 0;
    while at < buf.len() {
        // SAFETY: writes at most the rest of `buf`.
        let n = unsafe { libc::getrandom(buf[at..].as_mut_ptr().cast(), buf.len() - at, 0) };
        if n < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(());
        }
        at += n as usize;
    }
    Ok(())
}

/// `crypt_gensalt(3)`: `crypt_gensalt_rn` into a static buffer.
///
/// # Safety
/// As `crypt_gensalt_rn`; not to be called from several threads at once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_gensalt(
    prefix: *const c_char,
    count: c_ulong,
    rbytes: *const c_char,
    nrbytes: c_int,
) -> *mut c_char {
    // SAFETY: the static buffer has CRYPT_GENSALT_OUTPUT_SIZE bytes; the caller's contract.
    unsafe {
        crypt_gensalt_rn(
            prefix,
            count,
            rbytes,
            nrbytes,
            GENSALT.0.get().cast(),
            CRYPT_GENSALT_OUTPUT_SIZE as c_int,
        )
    }
}

/// `crypt_gensalt_ra(3)`: `crypt_gensalt_rn` into a `malloc`ed buffer (the caller frees it).
///
/// # Safety
/// As `crypt_gensalt_rn`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn crypt_gensalt_ra(
    prefix: *const c_char,
    count: c_ulong,
    rbytes: *const c_char,
    nrbytes: c_int,
) -> *mut c_char {
    // SAFETY: a fresh allocation of CRYPT_GENSALT_OUTPUT_SIZE bytes, freed on failure.
    unsafe {
        let buf = libc::malloc(CRYPT_GENSALT_OUTPUT_SIZE).cast::<c_char>();
        if buf.is_null() {
            set_errno(libc::ENOMEM);
            return buf;
        }
        let r = crypt_gensalt_rn(
            prefix,
            count,
            rbytes,
            nrbytes,
            buf,
            CRYPT_GENSALT_OUTPUT_SIZE as c_int,
        );
        if r.is_null() {
            libc::free(buf.cast());
        }
        r
    }
}

/// The 64 bit-bytes at `p`.
///
/// # Safety
/// `p` points to 64 readable bytes.
unsafe fn bits(p: *const c_char) -> [u8; 64] {
    // SAFETY: the caller's contract.
    core::array::from_fn(|i| unsafe { *p.add(i) } as u8)
}

static LEGACY_KEY: Mutex<Option<Encrypt>> = Mutex::new(None);

/// `setkey(3)`: the key of `encrypt` (64 bit-bytes).
///
/// # Safety
/// `key` points to 64 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn setkey(key: *const c_char) {
    // SAFETY: the caller's contract.
    let k = Encrypt::new(&unsafe { bits(key) });
    *LEGACY_KEY.lock().unwrap_or_else(|e| e.into_inner()) = Some(k);
}

/// `encrypt(3)`: DES (or DES decryption if `edflag` is not 0) of the 64 bit-bytes at
/// `block` in place, under `setkey`'s key (all-zero before the first `setkey`).
///
/// # Safety
/// `block` points to 64 writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn encrypt(block: *mut c_char, edflag: c_int) {
    let g = LEGACY_KEY.lock().unwrap_or_else(|e| e.into_inner());
    let e = g.clone().unwrap_or_else(|| Encrypt::new(&[0; 64]));
    drop(g);
    // SAFETY: the caller's contract.
    unsafe { encrypt_bits(&e, block, edflag) }
}

/// # Safety
/// `block` points to 64 writable bytes.
unsafe fn encrypt_bits(e: &Encrypt, block: *mut c_char, edflag: c_int) {
    // SAFETY: the caller's contract.
    let mut b = unsafe { bits(block) };
    e.encrypt(&mut b, edflag != 0);
    for (i, v) in b.into_iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { *block.add(i) = v as c_char };
    }
}

/// `setkey_r(3)`: `setkey` with the key kept in `data->internal` (64 bit-bytes).
///
/// # Safety
/// `key` points to 64 bytes, `data` to a `struct crypt_data`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn setkey_r(key: *const c_char, data: *mut CryptData) {
    // SAFETY: the caller's contract: 64 bytes at `key`; `internal` has 30720.
    unsafe {
        let k = bits(key);
        for (i, &v) in k.iter().enumerate() {
            (*data).internal[i] = (v & 1) as c_char;
        }
        (*data).initialized = 1;
    }
}

/// `encrypt_r(3)`: `encrypt` under `setkey_r`'s key in `data`.
///
/// # Safety
/// `block` points to 64 writable bytes, `data` to a `struct crypt_data`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn encrypt_r(block: *mut c_char, edflag: c_int, data: *mut CryptData) {
    // SAFETY: the caller's contract.
    unsafe {
        let e = Encrypt::new(&bits((&raw const (*data).internal).cast()));
        encrypt_bits(&e, block, edflag);
    }
}

static CIPHER_KEY: Mutex<Option<DesCipher>> = Mutex::new(None);

/// FreeSec's `des_setkey(key)`: 8 key bytes for `des_cipher`; returns 0.
///
/// # Safety
/// `key` points to 8 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn des_setkey(key: *const c_char) -> c_int {
    // SAFETY: the caller's contract.
    let k: [u8; 8] = core::array::from_fn(|i| unsafe { *key.add(i) } as u8);
    *CIPHER_KEY.lock().unwrap_or_else(|e| e.into_inner()) = Some(DesCipher::new(&k));
    0
}

/// FreeSec's `des_cipher(in, out, salt, count)`: DES of 8 bytes with the `crypt` salt
/// (low 24 bits), `count` times (decryption for `count < 0`); returns 0, or 1 for
/// `count == 0` (`out` untouched).
///
/// # Safety
/// `input` points to 8 readable bytes, `out` to 8 writable ones.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn des_cipher(
    input: *const c_char,
    out: *mut c_char,
    salt: c_long,
    count: c_int,
) -> c_int {
    let c = CIPHER_KEY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| DesCipher::new(&[0; 8]));
    // SAFETY: the caller's contract.
    let i: [u8; 8] = core::array::from_fn(|k| unsafe { *input.add(k) } as u8);
    match c.des_cipher(&i, salt as u32, count) {
        Ok(o) => {
            for (k, v) in o.into_iter().enumerate() {
                // SAFETY: the caller's contract.
                unsafe { *out.add(k) = v as c_char };
            }
            0
        }
        Err(_) => 1,
    }
}

/// Bytes each output slot of [`simdcrypt_crypt_keys`] needs at least (a BSDi hash and
/// its NUL).
pub const SIMDCRYPT_KEYS_SLOT: usize = 21;

/// The batch entry point: `n` keys under one DES `setting`, on the bitsliced batches of
/// `des_crypt::crypt_keys`. Slot `i` (at `out + i * stride`, `stride >= 21`) receives
/// what `crypt_r(keys[i], setting, …)` returns: the hash, or the failure token for a
/// key of 512 bytes or more. Returns 0 when every slot holds a hash; -1 with `errno`
/// `ERANGE` if some key was too long (the others are hashed); -1 with `EINVAL` (every
/// slot the token) for a NULL argument, a setting that is not DES, is malformed, or is
/// longer than 13 characters and traditional (bigcrypt: use `crypt_r`); -1 with
/// `ERANGE` and nothing written for `stride < 21`.
///
/// # Safety
/// `setting` NULL or a C string; `keys` NULL or `n` pointers to C strings (or NULL);
/// `out` NULL or `n * stride` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn simdcrypt_crypt_keys(
    setting: *const c_char,
    keys: *const *const c_char,
    n: usize,
    out: *mut c_char,
    stride: usize,
) -> c_int {
    if stride < SIMDCRYPT_KEYS_SLOT || (n > 0 && (out.is_null() || keys.is_null())) {
        set_errno(if stride < SIMDCRYPT_KEYS_SLOT {
            libc::ERANGE
        } else {
            libc::EINVAL
        });
        return -1;
    }
    // SAFETY: the caller's contract.
    let s = unsafe { cstr(setting) };
    let (out, ptrs): (&mut [u8], &[*const c_char]) = if n == 0 {
        // NULL pointers are fine with no keys; slices must not be made from them.
        (&mut [], &[])
    } else {
        // SAFETY: the caller's contract: `out` has `n * stride` bytes and `keys` `n`
        // pointers (both checked non-NULL above).
        unsafe {
            (
                core::slice::from_raw_parts_mut(out.cast::<u8>(), n * stride),
                core::slice::from_raw_parts(keys, n),
            )
        }
    };
    let tok = token(s);
    let fail_all = |out: &mut [u8]| {
        for slot in out.chunks_mut(stride) {
            put(slot, tok);
        }
        set_errno(libc::EINVAL);
        -1
    };
    // The setting is checked as `crypt_r` would with a short key.
    let mut scratch = [0u8; CRYPT_OUTPUT_SIZE];
    let Some(s) = s else { return fail_all(out) };
    if compute(Some(b""), Some(s), &mut scratch) != Outcome::Hash || (s[0] != b'_' && s.len() > 13)
    {
        return fail_all(out);
    }
    let prefix = core::str::from_utf8(&s[..if s[0] == b'_' { 9 } else { 2 }]).unwrap_or_default();
    let mut ret = 0;
    // Chunks of `CHUNK` keys: the keys, hashes and slots of a chunk stay in cache, and
    // nothing grows with `n`.
    for (ptrs, out) in ptrs.chunks(CHUNK).zip(out.chunks_mut(CHUNK * stride)) {
        // SAFETY: the caller's contract: each key is NULL or a C string.
        let ks: Vec<Option<&[u8]>> = ptrs.iter().map(|&k| unsafe { cstr(k) }).collect();
        let good: Vec<&[u8]> = ks
            .iter()
            .filter_map(|k| k.filter(|k| k.len() < CRYPT_MAX_PASSPHRASE_SIZE))
            .collect();
        let Ok(hashes) = des_crypt::crypt_keys(prefix, &good) else {
            return fail_all(out);
        };
        let mut hashes = hashes.iter();
        for (slot, k) in out.chunks_mut(stride).zip(&ks) {
            match k {
                Some(k) if k.len() < CRYPT_MAX_PASSPHRASE_SIZE => {
                    put(slot, hashes.next().map_or(tok, |h| h.as_bytes()));
                }
                _ => {
                    put(slot, tok);
                    set_errno(if k.is_none() {
                        libc::EINVAL
                    } else {
                        libc::ERANGE
                    });
                    ret = -1;
                }
            }
        }
    }
    ret
}
