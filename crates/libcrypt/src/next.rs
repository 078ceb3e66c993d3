//! The next definitions of the libcrypt functions in the link chain
//! (`dlsym(RTLD_NEXT, …)`), looked up once each: the system libcrypt when this library is
//! preloaded in front of it, none when it is used alone.

use core::ffi::{c_char, c_int, c_ulong, c_void};
use std::sync::OnceLock;

use crate::CryptData;

/// Resolves `name` (NUL-terminated) once; `None` when nothing follows us, or when the
/// next definition is our own (the library loaded twice).
fn lookup(cell: &OnceLock<usize>, name: &core::ffi::CStr, ours: usize) -> Option<usize> {
    let p = *cell.get_or_init(|| {
        // SAFETY: `name` is NUL-terminated; RTLD_NEXT asks for the definition after the
        // object that holds this code.
        let p = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) } as usize;
        if p == ours { 0 } else { p }
    });
    (p != 0).then_some(p)
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
