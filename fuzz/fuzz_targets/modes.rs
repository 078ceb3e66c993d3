//! `ctr` and `cbc` against their RustCrypto releases: every flavor, over our ciphers
//! (dispatched and each backend this CPU runs, through `InnerIvInit`) and over the
//! published ciphers; keys and IVs of any length; scripts of uneven applies and seeks
//! (near the ends of 32- and 64-bit counters too); CBC in pieces and every padding.
#![no_main]

use cipher::InnerIvInit;
use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::{self as f, Input};

macro_rules! backends {
    ($c:ident) => {
        &$c::__backends::ALL
            .iter()
            .copied()
            .filter(|n| $c::__backends::available(n))
            .collect::<Vec<_>>()
    };
}

/// CTR flavor `$fl` over our `$ours` (built on each backend by `$with`) against the
/// published `$theirs` through the published `ctr`.
macro_rules! ctr_case {
    ($inp:ident, $fl:ident, $ours:ty, $theirs:ty, $backends:expr, $with:expr) => {
        f::ctr::<ctr::$fl<$ours>, rc_ctr::$fl<$theirs>, $ours>(
            &mut $inp,
            $backends,
            $with,
            |c, iv| ctr::$fl::from_core(InnerIvInit::inner_iv_init(c, iv.try_into().unwrap())),
        )
    };
}

/// One mode, chosen by `$sel`, of cipher `$c::$ty` (ours, whose backends `$with`
/// builds) against `$rc::$ty` through the published modes. `wide` adds the 128-bit
/// flavors (16-byte blocks only).
macro_rules! modes {
    ($inp:ident, $sel:expr, $c:ident, $rc:ident, $ty:ident, $with:expr, wide) => {
        match $sel % 7 {
            5 => ctr_case!($inp, Ctr128BE, $c::$ty, $rc::$ty, backends!($c), $with),
            6 => ctr_case!($inp, Ctr128LE, $c::$ty, $rc::$ty, backends!($c), $with),
            s => modes!($inp, s, $c, $rc, $ty, $with),
        }
    };
    ($inp:ident, $sel:expr, $c:ident, $rc:ident, $ty:ident, $with:expr) => {
        match $sel % 5 {
            0 => ctr_case!($inp, Ctr32BE, $c::$ty, $rc::$ty, backends!($c), $with),
            1 => ctr_case!($inp, Ctr32LE, $c::$ty, $rc::$ty, backends!($c), $with),
            2 => ctr_case!($inp, Ctr64BE, $c::$ty, $rc::$ty, backends!($c), $with),
            3 => ctr_case!($inp, Ctr64LE, $c::$ty, $rc::$ty, backends!($c), $with),
            _ => f::cbc::<
                cbc::Encryptor<$c::$ty>,
                cbc::Decryptor<$c::$ty>,
                rc_cbc::Encryptor<$rc::$ty>,
                rc_cbc::Decryptor<$rc::$ty>,
            >(&mut $inp, backends!($c), $with),
        }
    };
}

/// A published cipher through our mode crates against it through the published ones.
macro_rules! published {
    ($inp:ident, $sel:expr, $rc:ident :: $ty:ident) => {{
        let none = |_: &str, _: &[u8]| -> $rc::$ty { unreachable!("no backends listed") };
        match $sel % 3 {
            0 => ctr_case!($inp, Ctr32BE, $rc::$ty, $rc::$ty, &[], none),
            1 => ctr_case!($inp, Ctr64LE, $rc::$ty, $rc::$ty, &[], none),
            _ => f::cbc::<
                cbc::Encryptor<$rc::$ty>,
                cbc::Decryptor<$rc::$ty>,
                rc_cbc::Encryptor<$rc::$ty>,
                rc_cbc::Decryptor<$rc::$ty>,
            >(&mut $inp, &[], none),
        }
    }};
}

fn fixed<const N: usize>(key: &[u8]) -> &[u8; N] {
    key.try_into().expect("a key new_from_slices accepted")
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let cipher = inp.byte();
    let sel = inp.byte();
    match cipher % 15 {
        0 => modes!(
            inp,
            sel,
            aes,
            rc_aes,
            Aes128,
            |n, k| aes::__backends::aes128_with(n, fixed(k)),
            wide
        ),
        1 => modes!(
            inp,
            sel,
            aes,
            rc_aes,
            Aes256,
            |n, k| aes::__backends::aes256_with(n, fixed(k)),
            wide
        ),
        2 => modes!(
            inp,
            sel,
            camellia,
            rc_camellia,
            Camellia128,
            |n, k| { camellia::__backends::camellia128_with(n, fixed(k)) },
            wide
        ),
        3 => modes!(
            inp,
            sel,
            serpent,
            rc_serpent,
            Serpent,
            serpent::__backends::serpent_with,
            wide
        ),
        4 => modes!(
            inp,
            sel,
            twofish,
            rc_twofish,
            Twofish,
            twofish::__backends::twofish_with,
            wide
        ),
        5 => modes!(
            inp,
            sel,
            des,
            rc_des,
            Des,
            |n, k| des::__backends::des_with(n, fixed(k))
        ),
        6 => modes!(inp, sel, des, rc_des, TdesEde3, |n, k| {
            des::__backends::tdes_ede3_with(n, fixed(k))
        }),
        7 => modes!(
            inp,
            sel,
            blowfish,
            rc_blowfish,
            Blowfish,
            blowfish::__backends::blowfish_with
        ),
        8 => modes!(
            inp,
            sel,
            cast5,
            rc_cast5,
            Cast5,
            cast5::__backends::cast5_with
        ),
        9 => modes!(inp, sel, idea, rc_idea, Idea, |n, k| {
            idea::__backends::idea_with(n, fixed(k))
        }),
        10 => modes!(
            inp,
            sel,
            rc2,
            rc_rc2,
            Rc2,
            |n, k| rc2::__backends::rc2_with(n, k, k.len() * 8)
        ),
        11 => published!(inp, sel, rc_aes::Aes128),
        12 => published!(inp, sel, rc_des::Des),
        13 => published!(inp, sel, rc_blowfish::Blowfish),
        _ => published!(inp, sel, rc_serpent::Serpent),
    }
});
