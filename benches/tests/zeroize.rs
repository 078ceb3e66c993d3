//! With the `zeroize` feature, dropping a cipher clears its key schedule (issue 11).
//!
//! The check needs no knowledge of any type's layout: two instances keyed with different
//! keys show which bytes of the type depend on the key (where their images differ); after
//! `drop_in_place` on one of them, in memory we still own, every one of those bytes must
//! be zero. A type whose `Drop` forgot a field, or zeroized a copy, fails.

use std::mem::{MaybeUninit, size_of};

use cipher::{KeyInit, KeyIvInit};

/// The bytes of `v` (which must not be dropped by the caller afterwards).
fn image<T>(v: &MaybeUninit<T>) -> Vec<u8> {
    // SAFETY: `v` was initialised by the caller (or dropped in place after zeroizing,
    // whose volatile writes initialised every byte they cover); we read `size_of::<T>()`
    // bytes of memory we own. Padding bytes may hold anything, which is why only bytes
    // that differ between two keys are checked.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), size_of::<T>()).to_vec() }
}

/// A `T` built by `make` after the stack below us was filled with `junk`, so that padding
/// bytes (which a copy may carry from anywhere) are unlikely to repeat between calls.
#[inline(never)]
fn build<T>(junk: u8, make: &dyn Fn() -> T) -> MaybeUninit<T> {
    let dirt = std::hint::black_box([junk; 4096]);
    let v = MaybeUninit::new(make());
    std::hint::black_box(&dirt);
    v
}

/// Builds instances with two keys (one of them twice, over differently dirtied stacks),
/// drops one in place and checks that every key-dependent byte is now zero. A byte is
/// key-dependent when it differs between the keys and not between the two builds with
/// the same key (which tells padding apart from fields).
fn cleared<T>(what: &str, make: impl Fn(u8) -> T) {
    let mut a = build(0x00, &|| make(0x11));
    let a2 = build(0xff, &|| make(0x11));
    let b = build(0x5a, &|| make(0xee));
    let (ia, ia2, ib) = (image(&a), image(&a2), image(&b));
    let keyed: Vec<usize> = (0..ia.len())
        .filter(|&i| ia[i] != ib[i] && ia[i] == ia2[i])
        .collect();
    assert!(
        keyed.len() >= 8,
        "{what}: too few key-dependent bytes to check"
    );
    // SAFETY: `a` holds an initialised `T`, dropped exactly once here and never used as
    // a `T` again (MaybeUninit does not drop it).
    unsafe { a.assume_init_drop() };
    let after = image(&a);
    let left: Vec<usize> = keyed.iter().copied().filter(|&i| after[i] != 0).collect();
    assert!(
        left.is_empty(),
        "{what}: {} key-dependent bytes survive drop: {left:?}",
        left.len()
    );
    for mut v in [a2, b] {
        // SAFETY: initialised and dropped once.
        unsafe { v.assume_init_drop() };
    }
}

macro_rules! ciphers {
    ($($t:ty),* $(,)?) => {$(
        cleared(stringify!($t), |k| {
            let key = vec![k; <$t as cipher::KeySizeUser>::key_size()];
            <$t>::new_from_slice(&key).unwrap()
        });
    )*};
}

/// Release builds only: unoptimised code assembles values in stack slots that held key
/// material, and copies them with their padding, so padding bytes there can be both
/// key-dependent and stable (seen: two bytes of `Camellia128`), which the filter above
/// cannot tell from fields. `cargo xtask ci` runs the tests in release mode too.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "padding bytes are not distinguishable in debug builds"
)]
fn key_schedules_are_cleared_on_drop() {
    ciphers!(
        aes::Aes128,
        aes::Aes192,
        aes::Aes256,
        aes::Aes128Enc,
        aes::Aes256Dec,
        des::Des,
        des::TdesEde2,
        des::TdesEde3,
        des::TdesEee2,
        des::TdesEee3,
        blowfish::Blowfish,
        cast5::Cast5,
        idea::Idea,
        rc2::Rc2,
        camellia::Camellia128,
        camellia::Camellia192,
        camellia::Camellia256,
        serpent::Serpent,
        twofish::Twofish,
    );
    cleared("Rc4", |k| rc4::Rc4::new_from_slice(&[k; 16]).unwrap());
    cleared("cbc::Encryptor<Aes128>", |k| {
        cbc::Encryptor::<aes::Aes128>::new(&[k; 16].into(), &[k; 16].into())
    });
    cleared("cbc::Decryptor<Des>", |k| {
        cbc::Decryptor::<des::Des>::new(&[k; 8].into(), &[k; 8].into())
    });
    cleared("Ctr128BE<Aes256>", |k| {
        ctr::Ctr128BE::<aes::Aes256>::new(&[k; 32].into(), &[k; 16].into())
    });
}
