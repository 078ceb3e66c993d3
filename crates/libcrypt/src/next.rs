//! The next definitions of the libcrypt functions in the link chain: the system
//! libcrypt when this library is preloaded in front of it, none when it is used alone.
//!
//! First `dlsym(RTLD_NEXT, …)`. When that finds nothing but `libcrypt.so.1` is loaded in
//! the process all the same, outside the global scope (Python loads its `_crypt`
//! module, and with it libcrypt, by `dlopen` with `RTLD_LOCAL`), its definition is taken
//! through `dlopen(…, RTLD_NOLOAD)`; the handle is kept, so the library stays loaded.
//! Only found definitions are cached: a libcrypt loaded later is still found.

use core::ffi::{c_char, c_int, c_ulong, c_void};
use std::sync::OnceLock;

use crate::CryptData;

/// Resolves `name` (found definitions once); `None` when nothing follows us, or when the
/// next definition is our own (the library loaded twice).
fn lookup(cell: &OnceLock<usize>, name: &core::ffi::CStr, ours: usize) -> Option<usize> {
    if let Some(&p) = cell.get() {
        return Some(p);
    }
    // SAFETY: `name` is NUL-terminated; RTLD_NEXT asks for the definition after the
    // object that holds this code.
    let mut p = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) } as usize;
    if p == 0 || p == ours {
        // SAFETY: NUL-terminated names; RTLD_NOLOAD only returns a handle to a library
        // already loaded, never loads one. The handle is not closed (see above).
        p = unsafe {
            let h = libc::dlopen(
                c"libcrypt.so.1".as_ptr(),
                libc::RTLD_LAZY | libc::RTLD_NOLOAD,
            );
            if h.is_null() {
                0
            } else {
                libc::dlsym(h, name.as_ptr()) as usize
            }
        };
    }
    if p == 0 || p == ours {
        return None;
    }
    Some(*cell.get_or_init(|| p))
}

macro_rules! next_fn {
    ($name:ident, $ty:ty) => {
        #[doc = concat!("The next `", stringify!($name), "`.")]
        pub(crate) fn $name() -> Option<$ty> {
            static CELL: OnceLock<usize> = OnceLock::new();
            let ours = crate::$name as $ty as usize;
            let c = CStr_of!($name);
            // SAFETY: the symbol of that name in libxcrypt has the C signature `$ty`
            // (the declarations of its crypt.h).
            lookup(&CELL, c, ours).map(|p| unsafe { core::mem::transmute::<usize, $ty>(p) })
        }
    };
}

macro_rules! CStr_of {
    ($name:ident) => {
        match core::ffi::CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()) {
            Ok(c) => c,
            Err(_) => unreachable!(),
        }
    };
}

type CryptFn = unsafe extern "C" fn(*const c_char, *const c_char) -> *mut c_char;
type CryptRFn = unsafe extern "C" fn(*const c_char, *const c_char, *mut CryptData) -> *mut c_char;
type CryptRnFn =
    unsafe extern "C" fn(*const c_char, *const c_char, *mut c_void, c_int) -> *mut c_char;
type CheckFn = unsafe extern "C" fn(*const c_char) -> c_int;
type PreferredFn = extern "C" fn() -> *const c_char;
type GensaltRnFn = unsafe extern "C" fn(
    *const c_char,
    c_ulong,
    *const c_char,
    c_int,
    *mut c_char,
    c_int,
) -> *mut c_char;

next_fn!(crypt, CryptFn);
next_fn!(crypt_r, CryptRFn);
next_fn!(crypt_rn, CryptRnFn);
next_fn!(crypt_checksalt, CheckFn);
next_fn!(crypt_preferred_method, PreferredFn);
next_fn!(crypt_gensalt_rn, GensaltRnFn);
