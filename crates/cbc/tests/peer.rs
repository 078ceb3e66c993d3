//! Seeded differential test against RustCrypto's `cbc` 0.2.1 (`rc_cbc`), with our `aes`,
//! `des`, `blowfish`, `camellia` and `cast5` and the published `aes`, `des` (DES and
//! 3DES) and `blowfish`, byte for byte.
//!
//! Each case: a random key and IV, a random number of blocks encrypted and decrypted in
//! random pieces (in place or buffer to buffer, `*_blocks`, `*_blocks_b2b`, single-block
//! calls), the IV state compared after each piece; then a random message through
//! `encrypt_padded*`/`decrypt_padded*` with one of every `block-padding` padding, and a
//! corrupted ciphertext whose unpadding must fail (or not) the same way in both.
//!
//! `TESTKIT_CASES` sets the number of cases per cipher, `TESTKIT_SEED` the seed.

use cipher::{
    Array, BlockModeDecrypt, BlockModeEncrypt, IvState, KeyIvInit,
    block_padding::{AnsiX923, Iso7816, Iso10126, NoPadding, Padding, Pkcs7, ZeroPadding},
    typenum::Unsigned,
};
use testkit::Rng;

/// Cases per cipher by default: the whole binary in a few seconds.
const CASES: usize = 400;

/// Blocks of `data` (whole blocks).
fn blocks<N: cipher::array::ArraySize>(data: &[u8]) -> Vec<Array<u8, N>> {
    data.chunks(N::USIZE)
        .map(|c| Array::try_from(c).unwrap())
        .collect()
}

/// Random block-level calls over `n` blocks on ours (`OE`/`OD`) and theirs (`TE`/`TD`).
fn blocks_case<OE, OD, TE, TD>(rng: &mut Rng)
where
    OE: KeyIvInit + BlockModeEncrypt + IvState,
    OD: KeyIvInit + BlockModeDecrypt<BlockSize = OE::BlockSize> + IvState,
    TE: KeyIvInit + BlockModeEncrypt<BlockSize = OE::BlockSize> + IvState,
    TD: KeyIvInit + BlockModeDecrypt<BlockSize = OE::BlockSize> + IvState,
{
    let bs = OE::BlockSize::USIZE;
    let key = rng.bytes(OE::key_size());
    let iv = rng.bytes(bs);
    let n = rng.msg_len() / bs;
    let plain = rng.bytes(n * bs);
    let mut cuts = rng.cuts(n, 5);
    cuts.push(n);

    let mut expect = blocks::<OE::BlockSize>(&plain);
    TE::new_from_slices(&key, &iv)
        .unwrap()
        .encrypt_blocks(&mut expect);

    let (mut oe, mut te) = (
        OE::new_from_slices(&key, &iv).unwrap(),
        TE::new_from_slices(&key, &iv).unwrap(),
    );
    let (mut od, mut td) = (
        OD::new_from_slices(&key, &iv).unwrap(),
        TD::new_from_slices(&key, &iv).unwrap(),
    );
    let mut start = 0;
    for c in cuts {
        let p = blocks::<OE::BlockSize>(&plain[start * bs..c * bs]);
        let ct = &expect[start..c];
        let mut t = p.clone();
        te.encrypt_blocks(&mut t);
        let mut o = p.clone();
        match rng.below(3) {
            0 => oe.encrypt_blocks(&mut o),
            1 => oe.encrypt_blocks_b2b(&p, &mut o).unwrap(),
            _ => o.iter_mut().for_each(|b| oe.encrypt_block(b)),
        }
        assert!(o == t && o == ct, "encryption of blocks {start}..{c}");
        assert_eq!(oe.iv_state()[..], te.iv_state()[..], "encryptor IV state");

        let mut t = ct.to_vec();
        td.decrypt_blocks(&mut t);
        let mut o = ct.to_vec();
        match rng.below(3) {
            0 => od.decrypt_blocks(&mut o),
            1 => od.decrypt_blocks_b2b(ct, &mut o).unwrap(),
            _ => o.iter_mut().for_each(|b| od.decrypt_block(b)),
        }
        assert!(o == t && o == p, "decryption of blocks {start}..{c}");
        assert_eq!(od.iv_state()[..], td.iv_state()[..], "decryptor IV state");
        start = c;
    }
}

/// One padding `P`: `encrypt_padded`/`_b2b` and `decrypt_padded`/`_b2b` on a random message,
/// then a corrupted last block.
fn padded_case<P, OE, OD, TE, TD>(rng: &mut Rng)
where
    P: Padding,
    OE: KeyIvInit + BlockModeEncrypt,
    OD: KeyIvInit + BlockModeDecrypt<BlockSize = OE::BlockSize>,
    TE: KeyIvInit + BlockModeEncrypt<BlockSize = OE::BlockSize>,
    TD: KeyIvInit + BlockModeDecrypt<BlockSize = OE::BlockSize>,
{
    let bs = OE::BlockSize::USIZE;
    let key = rng.bytes(OE::key_size());
    let iv = rng.bytes(bs);
    let mut len = rng.msg_len();
    if core::any::TypeId::of::<P>() == core::any::TypeId::of::<NoPadding>() {
        len -= len % bs;
    }
    let msg = rng.bytes(len);
    let cap = (len / bs + 1) * bs;

    let mut tb = vec![0; cap];
    let t = TE::new_from_slices(&key, &iv)
        .unwrap()
        .encrypt_padded_b2b::<P>(&msg, &mut tb)
        .map(|c| c.to_vec());
    let mut ob = vec![0; cap];
    ob[..len].copy_from_slice(&msg);
    let o = if rng.below(2) == 0 {
        OE::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_padded::<P>(&mut ob, len)
            .map(|c| c.to_vec())
    } else {
        OE::new_from_slices(&key, &iv)
            .unwrap()
            .encrypt_padded_b2b::<P>(&msg, &mut ob)
            .map(|c| c.to_vec())
    };
    assert_eq!(
        o.is_ok(),
        t.is_ok(),
        "encrypt_padded, {len} bytes: error mismatch"
    );
    let Ok(mut ct) = t else { return };
    assert!(o.unwrap() == ct, "encrypt_padded, {len} bytes");

    for corrupt in [false, true] {
        if corrupt {
            if ct.is_empty() {
                return;
            }
            let at = ct.len() - 1 - rng.below(bs.min(ct.len()));
            ct[at] ^= 1 << rng.below(8);
        }
        let mut tb = ct.clone();
        let t = TD::new_from_slices(&key, &iv)
            .unwrap()
            .decrypt_padded::<P>(&mut tb)
            .map(|p| p.to_vec());
        let o = if rng.below(2) == 0 {
            let mut ob = ct.clone();
            OD::new_from_slices(&key, &iv)
                .unwrap()
                .decrypt_padded::<P>(&mut ob)
                .map(|p| p.to_vec())
        } else {
            let mut ob = vec![0; ct.len() + rng.below(bs)];
            OD::new_from_slices(&key, &iv)
                .unwrap()
                .decrypt_padded_b2b::<P>(&ct, &mut ob)
                .map(|p| p.to_vec())
        };
        assert_eq!(
            o.is_ok(),
            t.is_ok(),
            "decrypt_padded (corrupt: {corrupt}): error mismatch"
        );
        assert!(
            o.ok() == t.ok(),
            "decrypt_padded (corrupt: {corrupt}), {len} bytes"
        );
        if !corrupt {
            let mut v = ct.clone();
            let p = OD::new_from_slices(&key, &iv)
                .unwrap()
                .decrypt_padded::<P>(&mut v);
            if core::any::TypeId::of::<P>() != core::any::TypeId::of::<ZeroPadding>() {
                assert!(p.unwrap() == &msg[..], "round trip");
            }
        }
    }
}

macro_rules! cipher_test {
    ($name:ident, $c:ty, $seed:literal) => {
        #[test]
        fn $name() {
            type OE = cbc::Encryptor<$c>;
            type OD = cbc::Decryptor<$c>;
            type TE = rc_cbc::Encryptor<$c>;
            type TD = rc_cbc::Decryptor<$c>;
            let seed = testkit::seed($seed);
            for i in 0..testkit::cases(CASES) {
                let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let which = rng.below(7);
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match which {
                    0 => blocks_case::<OE, OD, TE, TD>(&mut rng),
                    1 => padded_case::<Pkcs7, OE, OD, TE, TD>(&mut rng),
                    2 => padded_case::<ZeroPadding, OE, OD, TE, TD>(&mut rng),
                    3 => padded_case::<Iso7816, OE, OD, TE, TD>(&mut rng),
                    4 => padded_case::<AnsiX923, OE, OD, TE, TD>(&mut rng),
                    5 => padded_case::<Iso10126, OE, OD, TE, TD>(&mut rng),
                    _ => padded_case::<NoPadding, OE, OD, TE, TD>(&mut rng),
                }));
                if let Err(e) = r {
                    eprintln!(
                        "{}: case {i} (kind {which}) of seed {seed} failed",
                        stringify!($name)
                    );
                    std::panic::resume_unwind(e);
                }
            }
        }
    };
}

cipher_test!(ours_aes128, simdcrypt_aes::Aes128, 0xCB_0001);
cipher_test!(ours_aes256, simdcrypt_aes::Aes256, 0xCB_0002);
cipher_test!(published_aes128, aes::Aes128, 0xCB_0003);
cipher_test!(published_des, des::Des, 0xCB_0004);
cipher_test!(published_tdes, des::TdesEde3, 0xCB_0005);
cipher_test!(published_blowfish, blowfish::Blowfish, 0xCB_0006);
// Ours with groups that do not divide the 64-block window (bitsliced DES) and 8-byte
// blocks with parallel backends.
cipher_test!(ours_des, simdcrypt_des::Des, 0xCB_0007);
cipher_test!(ours_tdes, simdcrypt_des::TdesEde3, 0xCB_0008);
// Blowfish, CAST5, Camellia and IDEA run the request in their own loops
// (`soft::cbc_encrypt`, the chain in registers), RC2 the plain chain; the published `cbc`
// drives the same cipher one block at a time.
cipher_test!(ours_blowfish, simdcrypt_blowfish::Blowfish, 0xCB_0009);
cipher_test!(ours_blowfish_le, simdcrypt_blowfish::BlowfishLE, 0xCB_000D);
cipher_test!(ours_camellia128, simdcrypt_camellia::Camellia128, 0xCB_000A);
cipher_test!(ours_camellia192, simdcrypt_camellia::Camellia192, 0xCB_000B);
cipher_test!(ours_camellia256, simdcrypt_camellia::Camellia256, 0xCB_000C);
cipher_test!(ours_cast5, simdcrypt_cast5::Cast5, 0xCB_000E);
cipher_test!(ours_idea, simdcrypt_idea::Idea, 0xCB_000F);
cipher_test!(ours_rc2, simdcrypt_rc2::Rc2, 0xCB_0010);
