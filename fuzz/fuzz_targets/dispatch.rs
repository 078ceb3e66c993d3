//! The size-aware dispatch paths (issue 24): short calls, 1 to 4 blocks, and calls just
//! around each backend's `min_blocks` (where the dispatch hands a call to a narrower
//! backend or the wide one runs a padded batch), through every backend this CPU runs and
//! through the public, dispatched type, all against `soft`; with `encrypt_block` and
//! `decrypt_blocks` beside `encrypt_blocks`. Digests: compression of 1 to 4 blocks and
//! multi-buffer hashing of 1 to 4 messages on every backend against `soft`.
#![no_main]

use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, BlockSizeUser, KeyInit};
use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::Input;

/// How many blocks: 1–4, or one of the table's `min_blocks` of crate `$c`, ±1.
macro_rules! count {
    ($inp:ident, $c:ident) => {{
        let sel = $inp.byte();
        let rows = $c::__backends::TABLE;
        if sel & 1 == 0 {
            usize::from(sel >> 1) % 4 + 1
        } else {
            let row = &rows[usize::from(sel >> 1) % rows.len()];
            (row.min_blocks + usize::from($inp.byte() % 3))
                .saturating_sub(1)
                .max(1)
        }
    }};
}

/// Every backend of `$c` this CPU runs, the public type and `soft` on `n` blocks.
macro_rules! cipher {
    ($inp:ident, $c:ident, $ty:ty, $k:literal, $with:expr) => {{
        let key: [u8; $k] = core::array::from_fn(|_| $inp.byte());
        let n = count!($inp, $c);
        let data: Vec<u8> = (0..n * <$ty>::block_size()).map(|_| $inp.byte()).collect();
        let with = $with;
        let soft: $ty = with("soft", &key);
        let expect = ecb(&soft, &data);
        let public = <$ty>::new_from_slice(&key).unwrap();
        check(&public, &data, &expect, "dispatched", n);
        for name in $c::__backends::ALL
            .iter()
            .filter(|n| $c::__backends::available(n))
        {
            check(&with(name, &key), &data, &expect, name, n);
        }
    }};
}

fn ecb<C: BlockCipherEncrypt>(c: &C, data: &[u8]) -> Vec<u8> {
    let mut blocks: Vec<cipher::Block<C>> = data
        .chunks_exact(C::block_size())
        .map(|b| b.try_into().unwrap())
        .collect();
    c.encrypt_blocks(&mut blocks);
    blocks.concat()
}

fn check<C: BlockCipherEncrypt + BlockCipherDecrypt>(
    c: &C,
    data: &[u8],
    expect: &[u8],
    name: &str,
    n: usize,
) {
    let got = ecb(c, data);
    assert!(got == expect, "{name}: {n} blocks");
    // One block at a time.
    for (i, b) in data.chunks_exact(C::block_size()).enumerate() {
        let mut blk: cipher::Block<C> = b.try_into().unwrap();
        c.encrypt_block(&mut blk);
        let bs = C::block_size();
        assert!(
            blk[..] == expect[i * bs..(i + 1) * bs],
            "{name}: block {i} of {n} alone"
        );
    }
    let mut back: Vec<cipher::Block<C>> = got
        .chunks_exact(C::block_size())
        .map(|b| b.try_into().unwrap())
        .collect();
    c.decrypt_blocks(&mut back);
    assert!(back.concat() == data, "{name}: decryption of {n} blocks");
}

/// Compression of 1–4 blocks and multi-buffer hashing of 1–4 messages, every backend of
/// `$c` against `soft`.
macro_rules! digest {
    ($inp:ident, $c:ident, $w:literal, $d:literal) => {{
        let n = usize::from($inp.byte() % 4) + 1;
        let blocks: Vec<[u8; 64]> = (0..n)
            .map(|_| core::array::from_fn(|_| $inp.byte()))
            .collect();
        let len = usize::from($inp.u16() % 600);
        let msgs: Vec<Vec<u8>> = (0..n)
            .map(|_| (0..len).map(|_| $inp.byte()).collect())
            .collect();
        let mut want = [0x0123_4567u32; $w];
        $c::__backends::compress_with("soft", &mut want, &blocks);
        let mut want_many = vec![[0u8; $d]; n];
        $c::__backends::digest_many_with("soft", &msgs, &mut want_many);
        for name in $c::__backends::ALL
            .iter()
            .filter(|n| $c::__backends::available(n))
        {
            let mut got = [0x0123_4567u32; $w];
            $c::__backends::compress_with(name, &mut got, &blocks);
            assert_eq!(got, want, "{name}: compression of {n} blocks");
            let mut many = vec![[0u8; $d]; n];
            $c::__backends::digest_many_with(name, &msgs, &mut many);
            assert_eq!(many, want_many, "{name}: {n} messages of {len} bytes");
        }
    }};
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    match inp.byte() % 14 {
        0 => cipher!(inp, aes, aes::Aes128, 16, |n: &str, k: &[u8; 16]| {
            aes::__backends::aes128_with(n, k)
        }),
        1 => cipher!(inp, aes, aes::Aes192, 24, |n: &str, k: &[u8; 24]| {
            aes::__backends::aes192_with(n, k)
        }),
        2 => cipher!(inp, aes, aes::Aes256, 32, |n: &str, k: &[u8; 32]| {
            aes::__backends::aes256_with(n, k)
        }),
        3 => cipher!(inp, des, des::Des, 8, |n: &str, k: &[u8; 8]| {
            des::__backends::des_with(n, k)
        }),
        4 => cipher!(inp, des, des::TdesEde3, 24, |n: &str, k: &[u8; 24]| {
            des::__backends::tdes_ede3_with(n, k)
        }),
        5 => cipher!(
            inp,
            camellia,
            camellia::Camellia128,
            16,
            |n: &str, k: &[u8; 16]| { camellia::__backends::camellia128_with(n, k) }
        ),
        6 => cipher!(
            inp,
            camellia,
            camellia::Camellia256,
            32,
            |n: &str, k: &[u8; 32]| { camellia::__backends::camellia256_with(n, k) }
        ),
        7 => cipher!(
            inp,
            serpent,
            serpent::Serpent,
            32,
            |n: &str, k: &[u8; 32]| { serpent::__backends::serpent_with(n, k) }
        ),
        8 => cipher!(inp, idea, idea::Idea, 16, |n: &str, k: &[u8; 16]| {
            idea::__backends::idea_with(n, k)
        }),
        9 => cipher!(
            inp,
            twofish,
            twofish::Twofish,
            32,
            |n: &str, k: &[u8; 32]| { twofish::__backends::twofish_with(n, k) }
        ),
        10 => cipher!(inp, rc2, rc2::Rc2, 16, |n: &str, k: &[u8; 16]| {
            rc2::__backends::rc2_with(n, k, 128)
        }),
        11 => cipher!(inp, cast5, cast5::Cast5, 16, |n: &str, k: &[u8; 16]| {
            cast5::__backends::cast5_with(n, k)
        }),
        12 => digest!(inp, md5, 4, 16),
        _ => digest!(inp, sha1, 5, 20),
    }
});
