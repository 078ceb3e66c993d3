//! Every block cipher type of the workspace against its RustCrypto release: keys of
//! any length through `new_from_slice`, then ECB through the dispatched backend and
//! every backend this CPU runs; RC2's effective key length; Blowfish's bcrypt calls.
#![no_main]

use cipher::BlockCipherEncrypt;
use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::{Input, block_cipher};

/// The backends of crate `$c` this CPU runs.
macro_rules! backends {
    ($c:ident) => {
        &$c::__backends::ALL
            .iter()
            .copied()
            .filter(|n| $c::__backends::available(n))
            .collect::<Vec<_>>()
    };
}

/// `$c::$ty` against `rc_$c::$ty`, with `$with(name, key)` building it on a backend.
macro_rules! case {
    ($inp:ident, $c:ident, $rc:ident, $ty:ident, $with:expr) => {
        block_cipher::<$c::$ty, $rc::$ty>(&mut $inp, backends!($c), $with)
    };
}

fn fixed<const N: usize>(key: &[u8]) -> &[u8; N] {
    key.try_into().expect("a key new_from_slice accepted")
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    match inp.byte() % 20 {
        0 => case!(inp, aes, rc_aes, Aes128, |n, k| {
            aes::__backends::aes128_with(n, fixed(k))
        }),
        1 => case!(inp, aes, rc_aes, Aes192, |n, k| {
            aes::__backends::aes192_with(n, fixed(k))
        }),
        2 => case!(inp, aes, rc_aes, Aes256, |n, k| {
            aes::__backends::aes256_with(n, fixed(k))
        }),
        3 => case!(inp, des, rc_des, Des, |n, k| des::__backends::des_with(
            n,
            fixed(k)
        )),
        4 => case!(inp, des, rc_des, TdesEde2, |n, k| {
            des::__backends::tdes_ede2_with(n, fixed(k))
        }),
        5 => case!(inp, des, rc_des, TdesEde3, |n, k| {
            des::__backends::tdes_ede3_with(n, fixed(k))
        }),
        6 => case!(inp, des, rc_des, TdesEee2, |n, k| {
            des::__backends::tdes_eee2_with(n, fixed(k))
        }),
        7 => case!(inp, des, rc_des, TdesEee3, |n, k| {
            des::__backends::tdes_eee3_with(n, fixed(k))
        }),
        8 => case!(
            inp,
            blowfish,
            rc_blowfish,
            Blowfish,
            blowfish::__backends::blowfish_with
        ),
        9 => case!(
            inp,
            blowfish,
            rc_blowfish,
            BlowfishLE,
            blowfish::__backends::blowfish_with
        ),
        10 => case!(inp, cast5, rc_cast5, Cast5, cast5::__backends::cast5_with),
        11 => case!(
            inp,
            idea,
            rc_idea,
            Idea,
            |n, k| idea::__backends::idea_with(n, fixed(k))
        ),
        12 => case!(inp, rc2, rc_rc2, Rc2, |n, k| rc2::__backends::rc2_with(
            n,
            k,
            k.len() * 8
        )),
        13 => case!(inp, camellia, rc_camellia, Camellia128, |n, k| {
            camellia::__backends::camellia128_with(n, fixed(k))
        }),
        14 => case!(inp, camellia, rc_camellia, Camellia192, |n, k| {
            camellia::__backends::camellia192_with(n, fixed(k))
        }),
        15 => case!(inp, camellia, rc_camellia, Camellia256, |n, k| {
            camellia::__backends::camellia256_with(n, fixed(k))
        }),
        16 => case!(
            inp,
            serpent,
            rc_serpent,
            Serpent,
            serpent::__backends::serpent_with
        ),
        17 => case!(
            inp,
            twofish,
            rc_twofish,
            Twofish,
            twofish::__backends::twofish_with
        ),
        18 => rc2_effective(&mut inp),
        _ => bcrypt(&mut inp),
    }
});

/// `Rc2::new_with_eff_key_len` over its whole domain (1..=128-byte keys, 1..=1024
/// effective bits; the release panics outside it, and so does ours).
fn rc2_effective(inp: &mut Input<'_>) {
    let len = usize::from(inp.byte() % 128) + 1;
    let key = inp.bytes(len).to_vec();
    if key.len() != len {
        return;
    }
    let eff = usize::from(inp.u16() % 1024) + 1;
    let ours = rc2::Rc2::new_with_eff_key_len(&key, eff);
    let theirs = rc_rc2::Rc2::new_with_eff_key_len(&key, eff);
    let mut a = cipher::Block::<rc2::Rc2>::try_from(inp.bytes(8)).unwrap_or_default();
    let mut b = a;
    ours.encrypt_block(&mut a);
    theirs.encrypt_block(&mut b);
    assert_eq!(a, b, "{len}-byte key, {eff} effective bits");
    for name in backends!(rc2) {
        let ours = rc2::__backends::rc2_with(name, &key, eff);
        let mut blocks = [a; 33];
        for (i, b) in blocks.iter_mut().enumerate() {
            b[7] ^= i as u8;
        }
        let mut expect = blocks;
        ours.encrypt_blocks(&mut blocks);
        theirs.encrypt_blocks(&mut expect);
        assert_eq!(
            blocks, expect,
            "{name}: {len}-byte key, {eff} effective bits"
        );
    }
}

/// Blowfish's bcrypt interface (what the `bcrypt` crate calls): `bc_init_state`, then
/// `salted_expand_key` / `bc_expand_key` with non-empty salts and keys, then
/// `bc_encrypt`, and the keyed state through `encrypt_block`.
fn bcrypt(inp: &mut Input<'_>) {
    let mut ours = blowfish::Blowfish::bc_init_state();
    let mut theirs = rc_blowfish::Blowfish::bc_init_state();
    for _ in 0..inp.byte() % 4 {
        let salt = inp.prefixed(32).to_vec();
        let key = inp.prefixed(80).to_vec();
        if salt.is_empty() || key.is_empty() {
            return;
        }
        if inp.byte() & 1 == 0 {
            ours.salted_expand_key(&salt, &key);
            theirs.salted_expand_key(&salt, &key);
        } else {
            ours.bc_expand_key(&key);
            theirs.bc_expand_key(&key);
        }
        let lr = [inp.u64() as u32, inp.u64() as u32];
        assert_eq!(ours.bc_encrypt(lr), theirs.bc_encrypt(lr), "bc_encrypt");
    }
    let mut blocks = [cipher::Block::<blowfish::Blowfish>::default(); 37];
    for (i, b) in blocks.iter_mut().enumerate() {
        b[0] = i as u8;
    }
    let mut expect = blocks;
    ours.encrypt_blocks(&mut blocks);
    theirs.encrypt_blocks(&mut expect);
    assert_eq!(blocks, expect, "keyed state through encrypt_blocks");
}
