//! Bad-input sweeps over every cipher and mode of the workspace (issue 11): every key
//! length 0..=128 through `new_from_slice`, and every IV length 0..=64 through the
//! `ctr`/`cbc` constructors, must be accepted exactly when the RustCrypto release accepts
//! it, and must never panic. Lives here because this package already depends on every
//! crate and its published peer.

use std::panic::{AssertUnwindSafe, catch_unwind};

use cipher::{KeyInit, KeyIvInit};

/// Longest key tried (RC4 and RC2 accept up to 256 and 128 bytes; 128 covers every
/// boundary of the others).
const MAX_KEY: usize = 128;
/// Longest IV tried.
const MAX_IV: usize = 64;

/// Which key lengths `new_from_slice` accepts, panicking with the length if it panics.
fn accepted_keys<C: KeyInit>(what: &str) -> Vec<usize> {
    (0..=MAX_KEY)
        .filter(|&n| {
            let key: Vec<u8> = (0..n).map(|i| i as u8 ^ 0x5a).collect();
            catch_unwind(AssertUnwindSafe(|| C::new_from_slice(&key).is_ok()))
                .unwrap_or_else(|_| panic!("{what}: new_from_slice panicked on a {n}-byte key"))
        })
        .collect()
}

/// Ours accepts exactly the key lengths the release accepts (and some length at all).
fn keys<O: KeyInit, T: KeyInit>(what: &str) {
    let ours = accepted_keys::<O>(what);
    assert!(!ours.is_empty(), "{what}: no key length accepted");
    assert_eq!(
        ours,
        accepted_keys::<T>(what),
        "{what}: accepted key lengths"
    );
}

/// Which (key, IV) length pairs the mode constructor accepts.
fn accepted_ivs<M: KeyIvInit>(what: &str) -> Vec<(usize, usize)> {
    let mut ok = Vec::new();
    for k in [0, M::key_size(), M::key_size() + 1] {
        for n in 0..=MAX_IV {
            let key = vec![7u8; k];
            let iv = vec![9u8; n];
            let r = catch_unwind(AssertUnwindSafe(|| M::new_from_slices(&key, &iv).is_ok()))
                .unwrap_or_else(|_| panic!("{what}: panicked on key {k}, IV {n} bytes"));
            if r {
                ok.push((k, n));
            }
        }
    }
    ok
}

fn ivs<O: KeyIvInit, T: KeyIvInit>(what: &str) {
    let ours = accepted_ivs::<O>(what);
    assert_eq!(
        ours,
        vec![(O::key_size(), O::iv_size())],
        "{what}: accepted lengths"
    );
    assert_eq!(
        ours,
        accepted_ivs::<T>(what),
        "{what}: accepted lengths vs the release"
    );
}

#[test]
fn key_lengths() {
    keys::<aes::Aes128, rc_aes::Aes128>("Aes128");
    keys::<aes::Aes192, rc_aes::Aes192>("Aes192");
    keys::<aes::Aes256, rc_aes::Aes256>("Aes256");
    keys::<aes::Aes128Enc, rc_aes::Aes128Enc>("Aes128Enc");
    keys::<aes::Aes256Dec, rc_aes::Aes256Dec>("Aes256Dec");
    keys::<des::Des, rc_des::Des>("Des");
    keys::<des::TdesEde2, rc_des::TdesEde2>("TdesEde2");
    keys::<des::TdesEde3, rc_des::TdesEde3>("TdesEde3");
    keys::<des::TdesEee2, rc_des::TdesEee2>("TdesEee2");
    keys::<des::TdesEee3, rc_des::TdesEee3>("TdesEee3");
    keys::<blowfish::Blowfish, rc_blowfish::Blowfish>("Blowfish");
    keys::<blowfish::BlowfishLE, rc_blowfish::BlowfishLE>("BlowfishLE");
    keys::<cast5::Cast5, rc_cast5::Cast5>("Cast5");
    keys::<idea::Idea, rc_idea::Idea>("Idea");
    keys::<rc2::Rc2, rc_rc2::Rc2>("Rc2");
    keys::<camellia::Camellia128, rc_camellia::Camellia128>("Camellia128");
    keys::<camellia::Camellia192, rc_camellia::Camellia192>("Camellia192");
    keys::<camellia::Camellia256, rc_camellia::Camellia256>("Camellia256");
    keys::<serpent::Serpent, rc_serpent::Serpent>("Serpent");
    keys::<twofish::Twofish, rc_twofish::Twofish>("Twofish");
    keys::<rc4::Rc4, rc_rc4::Rc4>("Rc4");
}

#[test]
fn iv_lengths() {
    ivs::<ctr::Ctr128BE<aes::Aes128>, rc_ctr::Ctr128BE<rc_aes::Aes128>>("Ctr128BE<Aes128>");
    ivs::<ctr::Ctr32BE<aes::Aes256>, rc_ctr::Ctr32BE<rc_aes::Aes256>>("Ctr32BE<Aes256>");
    ivs::<ctr::Ctr64LE<des::Des>, rc_ctr::Ctr64LE<rc_des::Des>>("Ctr64LE<Des>");
    ivs::<ctr::Ctr32LE<cast5::Cast5>, rc_ctr::Ctr32LE<rc_cast5::Cast5>>("Ctr32LE<Cast5>");
    ivs::<cbc::Encryptor<aes::Aes128>, rc_cbc::Encryptor<rc_aes::Aes128>>("cbc::Encryptor<Aes128>");
    ivs::<cbc::Decryptor<des::TdesEde3>, rc_cbc::Decryptor<rc_des::TdesEde3>>(
        "cbc::Decryptor<TdesEde3>",
    );
    ivs::<cbc::Decryptor<camellia::Camellia256>, rc_cbc::Decryptor<rc_camellia::Camellia256>>(
        "cbc::Decryptor<Camellia256>",
    );
}
