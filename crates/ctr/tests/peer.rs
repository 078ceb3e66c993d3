//! Seeded differential test against RustCrypto's `ctr` 0.10.1 (`rc_ctr`): every flavor, with
//! our `aes` and the published `aes`, `des` (DES and 3DES) and `blowfish`, byte for byte.
//!
//! Each case: a random key and IV (often with the counter word a few blocks before its
//! wrap), then a few steps, each a random seek (sometimes to the last blocks of a 32-bit
//! counter) or keystream over a random message cut at random points, in place or buffer
//! to buffer; outputs, errors (`try_*`) and positions must agree. Core-level calls
//! (`write_keystream_blocks`, `apply_keystream_blocks_inout`, `try_apply_keystream_partial`)
//! and a borrowed cipher (`CtrCore<&C, _>`, as `aes-gcm` uses) are compared too.
//!
//! `TESTKIT_CASES` sets the number of cases per cipher, `TESTKIT_SEED` the seed.

use cipher::{
    Block, BlockCipherEncrypt, InnerIvInit, KeyInit, KeyIvInit, StreamCipher, StreamCipherCore,
    StreamCipherSeek, StreamCipherSeekCore, inout::InOutBuf, typenum::Unsigned,
};
use testkit::Rng;

/// Cases per cipher by default: the whole binary in a few seconds.
const CASES: usize = 300;

/// An IV for a flavor with `ctr_bytes`-byte counter words, big or little endian: random,
/// or with the counter word a few blocks below its wrap (or right at it).
fn iv(rng: &mut Rng, len: usize, ctr_bytes: usize, be: bool) -> Vec<u8> {
    let mut iv = rng.bytes(len);
    if rng.below(2) == 0 {
        let word = if be {
            len - ctr_bytes..len
        } else {
            0..ctr_bytes
        };
        let near = rng.below(300) as u128;
        // For 128-bit words, half the time only the low 64 bits are near their wrap, so
        // the carry into a high half that does not wrap is exercised too.
        let top = if ctr_bytes == 16 && rng.below(2) == 0 {
            u128::from(u64::MAX) | (u128::from(rng.next_u64() >> 1) << 64)
        } else {
            u128::MAX
        };
        let v = (top - near).to_be_bytes();
        let v = &v[16 - ctr_bytes..];
        for (k, i) in word.clone().enumerate() {
            iv[i] = if be { v[k] } else { v[ctr_bytes - 1 - k] };
        }
    }
    iv
}

/// One random step on both ciphers: a seek or a keystream application.
fn step<O, T>(ours: &mut O, theirs: &mut T, rng: &mut Rng, bs: usize, ctr_bits: u32)
where
    O: StreamCipher + StreamCipherSeek,
    T: StreamCipher + StreamCipherSeek,
{
    if rng.below(3) == 0 {
        let pos: u64 = if ctr_bits == 32 && rng.below(2) == 0 {
            // Within a few blocks of the end of a 32-bit counter.
            ((1u64 << 32) - rng.below(40) as u64) * bs as u64 - rng.below(bs) as u64
        } else {
            rng.below(1 << 22) as u64
        };
        let a = ours.try_seek(pos).is_ok();
        let b = theirs.try_seek(pos).is_ok();
        assert_eq!(a, b, "seek to {pos}");
        if !a {
            // Both refused; put both back somewhere valid.
            ours.seek(0u64);
            theirs.seek(0u64);
        }
        return;
    }
    let len = rng.msg_len();
    let data = rng.bytes(len);
    let mut cuts = rng.cuts(len, 4);
    cuts.push(len);
    let mut start = 0;
    for c in cuts {
        let piece = &data[start..c];
        start = c;
        let mut expect = piece.to_vec();
        let rt = theirs.try_apply_keystream(&mut expect);
        let (ro, got) = if rng.below(2) == 0 {
            let mut p = piece.to_vec();
            (ours.try_apply_keystream(&mut p), p)
        } else {
            let mut out = vec![0; piece.len()];
            (ours.try_apply_keystream_b2b(piece, &mut out), out)
        };
        assert_eq!(
            ro.is_ok(),
            rt.is_ok(),
            "{} bytes: error mismatch",
            piece.len()
        );
        // On an error neither cipher touched its buffer (the b2b output stays zero).
        assert!(rt.is_err() || got == expect, "{} bytes differ", piece.len());
        let (po, pt) = (
            ours.try_current_pos::<u64>(),
            theirs.try_current_pos::<u64>(),
        );
        assert_eq!(po.ok(), pt.ok(), "position");
    }
}

/// Core-level calls on `CtrCore<&C, F>` (ours) and `rc_ctr::CtrCore<&C, F>`.
fn core_case<'c, C, O, T>(cipher: &'c C, iv: &[u8], rng: &mut Rng)
where
    C: BlockCipherEncrypt,
    O: StreamCipherCore + StreamCipherSeekCore + InnerIvInit<Inner = &'c C, IvSize = O::BlockSize>,
    T: StreamCipherCore<BlockSize = O::BlockSize>
        + StreamCipherSeekCore<Counter = O::Counter>
        + InnerIvInit<Inner = &'c C>,
{
    let iv = cipher::Iv::<O>::try_from(iv).expect("block-sized IV");
    let mut ours = O::inner_iv_init(cipher, &iv);
    let mut theirs = T::inner_iv_init(cipher, &iv.as_slice().try_into().expect("same size"));
    let bs = O::BlockSize::USIZE;
    for _ in 0..rng.range(1, 4) {
        let n = rng.below(200);
        match rng.below(3) {
            0 => {
                let mut a = vec![Block::<O>::default(); n];
                let mut b = a.clone();
                ours.write_keystream_blocks(&mut a);
                theirs.write_keystream_blocks(&mut b);
                assert!(a == b, "write_keystream_blocks({n})");
            }
            1 => {
                let src: Vec<Block<O>> = (0..n)
                    .map(|_| Block::<O>::try_from(&rng.bytes(bs)[..]).unwrap())
                    .collect();
                let mut a = vec![Block::<O>::default(); n];
                let mut b = src.clone();
                ours.apply_keystream_blocks_inout(InOutBuf::new(&src, &mut a).unwrap());
                theirs.apply_keystream_blocks(&mut b);
                assert!(a == b, "apply_keystream_blocks_inout({n})");
            }
            _ => {
                let pos = rng.below(1 << 20);
                let Ok(p) = O::Counter::try_from(pos) else {
                    continue;
                };
                ours.set_block_pos(p);
                theirs.set_block_pos(p);
            }
        }
        let (po, pt): (Option<u64>, Option<u64>) = (
            ours.get_block_pos().try_into().ok(),
            theirs.get_block_pos().try_into().ok(),
        );
        assert_eq!(po, pt, "block position");
        assert_eq!(ours.remaining_blocks(), theirs.remaining_blocks());
    }
    let len = rng.below(40 * bs);
    let data = rng.bytes(len);
    let (mut a, mut b) = (data.clone(), data.clone());
    let ra = ours.try_apply_keystream_partial(a.as_mut_slice().into());
    let rb = theirs.try_apply_keystream_partial(b.as_mut_slice().into());
    assert_eq!(ra.is_ok(), rb.is_ok(), "partial: error mismatch");
    assert!(a == b, "try_apply_keystream_partial({len})");
}

/// One flavor, both crates: the wrapper types `$o<C>`/`$t<C>` and the cores.
macro_rules! flavor {
    ($rng:ident, $c:ty, $o:ident, $t:ident, $bits:literal, $be:literal) => {{
        let bs = <$c as cipher::BlockSizeUser>::BlockSize::USIZE;
        let key = $rng.bytes(<$c as cipher::KeySizeUser>::KeySize::USIZE);
        let iv = iv(&mut $rng, bs, $bits / 8, $be);
        let mut ours = ctr::$o::<$c>::new_from_slices(&key, &iv).unwrap();
        let mut theirs = rc_ctr::$t::<$c>::new_from_slices(&key, &iv).unwrap();
        for _ in 0..$rng.range(1, 5) {
            step(&mut ours, &mut theirs, &mut $rng, bs, $bits);
        }
        let cipher = <$c>::new_from_slice(&key).unwrap();
        core_case::<
            $c,
            ctr::CtrCore<&$c, ctr::flavors::$o>,
            rc_ctr::CtrCore<&$c, rc_ctr::flavors::$t>,
        >(&cipher, &iv, &mut $rng);
    }};
}

/// Runs the cases for cipher `$c`: each case one random flavor of those listed
/// (`Ctr128*` only for 16-byte blocks).
macro_rules! cipher_test {
    ($name:ident, $c:ty, $seed:literal, [$(($f:ident, $bits:literal, $be:literal)),+]) => {
        #[test]
        fn $name() {
            let seed = testkit::seed($seed);
            let flavors = [$(stringify!($f)),+];
            for i in 0..testkit::cases(CASES) {
                let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let which = flavors[rng.below(flavors.len())];
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    $(
                        if which == stringify!($f) {
                            flavor!(rng, $c, $f, $f, $bits, $be);
                        }
                    )+
                }));
                if let Err(e) = r {
                    eprintln!(
                        "{}: case {i} ({which}) of seed {seed} failed",
                        stringify!($name)
                    );
                    std::panic::resume_unwind(e);
                }
            }
        }
    };
    ($name:ident, $c:ty, $seed:literal, wide) => {
        cipher_test!($name, $c, $seed, [
            (Ctr32BE, 32, true), (Ctr32LE, 32, false), (Ctr64BE, 64, true),
            (Ctr64LE, 64, false), (Ctr128BE, 128, true), (Ctr128LE, 128, false)
        ]);
    };
    ($name:ident, $c:ty, $seed:literal, narrow) => {
        cipher_test!($name, $c, $seed, [
            (Ctr32BE, 32, true), (Ctr32LE, 32, false), (Ctr64BE, 64, true),
            (Ctr64LE, 64, false)
        ]);
    };
}

cipher_test!(ours_aes128, simdcrypt_aes::Aes128, 0xC7_0001, wide);
cipher_test!(ours_aes256, simdcrypt_aes::Aes256, 0xC7_0002, wide);
cipher_test!(published_aes128, aes::Aes128, 0xC7_0003, wide);
// Ours with groups that do not divide the 64-block window (bitsliced DES: 256 or 512
// blocks) and 8-byte blocks with parallel backends.
cipher_test!(ours_des, simdcrypt_des::Des, 0xC7_0007, narrow);
cipher_test!(ours_tdes, simdcrypt_des::TdesEde3, 0xC7_0008, narrow);
cipher_test!(
    ours_blowfish,
    simdcrypt_blowfish::Blowfish,
    0xC7_0009,
    narrow
);
cipher_test!(published_des, des::Des, 0xC7_0004, narrow);
cipher_test!(published_tdes, des::TdesEde3, 0xC7_0005, narrow);
cipher_test!(published_blowfish, blowfish::Blowfish, 0xC7_0006, narrow);
