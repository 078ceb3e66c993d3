//! Known answers through the public API: RFC 2144 appendix B.1 (128-, 80- and 40-bit keys,
//! the 12-round rule for keys of 80 bits or less) and the B.2 full maintenance test, plus
//! pyca/cryptography's CBC and CTR vectors (`tests/data/*.txt`), on the detected (or
//! forced) backend and on every backend this CPU has through `__backends`.

use cast5::Cast5;
use cast5::cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, InnerIvInit,
    KeyInit, KeyIvInit, StreamCipher,
};
use hex_literal::hex;
use testkit::kat;

/// The ciphers to check: the public constructor and each available backend.
fn ciphers(key: &[u8]) -> Vec<(&'static str, Cast5)> {
    let mut v = vec![("api", Cast5::new_from_slice(key).unwrap())];
    for &name in cast5::__backends::ALL {
        if cast5::__backends::available(name) {
            v.push((name, cast5::__backends::cast5_with(name, key)));
        }
    }
    v
}

fn to_blocks(b: &[u8]) -> Vec<Array<u8, cast5::cipher::consts::U8>> {
    b.chunks(8).map(|c| Array::try_from(c).unwrap()).collect()
}

/// RFC 2144 B.1, also with many copies of the block so the wide paths run.
#[test]
fn rfc2144_b1() {
    let recs = kat::parse(include_str!("data/cast5-ecb.txt"));
    assert_eq!(recs.len(), 3);
    for rec in recs {
        let (key, pt, ct) = (
            rec.bytes("key"),
            rec.bytes("plaintext"),
            rec.bytes("ciphertext"),
        );
        for (name, c) in ciphers(&key) {
            let mut b = Array::try_from(&pt[..]).unwrap();
            c.encrypt_block(&mut b);
            assert_eq!(b[..], ct[..], "{name}: key {key:02x?}");
            c.decrypt_block(&mut b);
            assert_eq!(b[..], pt[..], "{name}: key {key:02x?}");

            for n in [1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 100] {
                let mut blocks = to_blocks(&pt.repeat(n));
                c.encrypt_blocks(&mut blocks);
                assert_eq!(blocks.concat(), ct.repeat(n), "{name}: {n} blocks");
                c.decrypt_blocks(&mut blocks);
                assert_eq!(blocks.concat(), pt.repeat(n), "{name}: {n} blocks");
            }
        }
    }
}

/// The same three vectors written out in RFC 2144's own words.
#[test]
fn rfc2144_b1_inline() {
    let pt = hex!("0123456789ABCDEF");
    for (key, ct) in [
        (
            &hex!("0123456712345678234567893456789A")[..],
            hex!("238B4FE5847E44B2"),
        ),
        (&hex!("01234567123456782345")[..], hex!("EB6A711A2C02271B")),
        (&hex!("0123456712")[..], hex!("7AC816D16E9B302E")),
    ] {
        let c = Cast5::new_from_slice(key).unwrap();
        let mut b = Array::from(pt);
        c.encrypt_block(&mut b);
        assert_eq!(b, Array::from(ct));
    }
}

/// RFC 2144 B.2: one million iterations of two 128-bit keys encrypting each other
/// (2·10^6 key schedules and 4·10^6 one-block encryptions).
#[test]
fn rfc2144_b2_full_maintenance() {
    let mut a = hex!("0123456712345678234567893456789A");
    let mut b = hex!("0123456712345678234567893456789A");
    let enc2 = |k: &[u8; 16], x: &mut [u8; 16]| {
        let c = Cast5::new(&Array::from(*k));
        let mut blocks = to_blocks(x);
        for blk in blocks.iter_mut() {
            c.encrypt_block(blk);
        }
        x.copy_from_slice(&blocks.concat());
    };
    for _ in 0..1_000_000 {
        enc2(&b, &mut a);
        enc2(&a, &mut b);
    }
    assert_eq!(a, hex!("EEA9D0A249FD3BA6B3436FB89D6DCA92"));
    assert_eq!(b, hex!("B2C95EB00C31AD7180AC05B8E83D696E"));
}

/// pyca/cryptography's CBC vectors through the published `cbc` crate.
#[test]
fn cbc_vectors() {
    let recs = kat::parse(include_str!("data/cast5-cbc.txt"));
    assert_eq!(recs.len(), 20);
    for rec in recs {
        let (key, iv, pt, ct) = (
            rec.bytes("KEY"),
            rec.bytes("IV"),
            rec.bytes("PLAINTEXT"),
            rec.bytes("CIPHERTEXT"),
        );
        for (name, c) in ciphers(&key) {
            let mut blocks = to_blocks(&pt);
            cbc::Encryptor::<Cast5>::inner_iv_slice_init(c.clone(), &iv)
                .unwrap()
                .encrypt_blocks(&mut blocks);
            assert_eq!(blocks.concat(), ct, "{name}: line {}", rec.line);
            cbc::Decryptor::<Cast5>::inner_iv_slice_init(c, &iv)
                .unwrap()
                .decrypt_blocks(&mut blocks);
            assert_eq!(blocks.concat(), pt, "{name}: line {}", rec.line);
        }
    }
}

/// pyca/cryptography's CTR vectors (64-bit big-endian counter) through the published
/// `ctr` crate.
#[test]
fn ctr_vectors() {
    let recs = kat::parse(include_str!("data/cast5-ctr.txt"));
    assert_eq!(recs.len(), 3);
    for rec in recs {
        let (key, iv, pt, ct) = (
            rec.bytes("KEY"),
            rec.bytes("IV"),
            rec.bytes("PLAINTEXT"),
            rec.bytes("CIPHERTEXT"),
        );
        let mut buf = pt.clone();
        ctr::Ctr64BE::<Cast5>::new_from_slices(&key, &iv)
            .unwrap()
            .apply_keystream(&mut buf);
        assert_eq!(buf, ct, "line {}", rec.line);
        for (name, c) in ciphers(&key) {
            let mut buf = pt.clone();
            let core = ctr::CtrCore::<Cast5, ctr::flavors::Ctr64BE>::inner_iv_slice_init(c, &iv);
            cast5::cipher::StreamCipherCoreWrapper::from_core(core.unwrap())
                .apply_keystream(&mut buf);
            assert_eq!(buf, ct, "{name}: line {}", rec.line);
        }
    }
}
