//! Every prefix × every buffer alignment, through every backend (issue 11).
//!
//! For each cipher type: one long random input (two of the widest backend's parallel
//! groups plus three blocks, so every tail length of every backend is a prefix); each
//! backend this CPU runs (built through the crate's `__backends`) encrypts and decrypts
//! every prefix 0..=len blocks at every address misalignment 0..15, and must give the
//! prefix of the `soft` backend's result. RC4 (byte-wise, `soft` only) and the digests
//! do the same at byte granularity: every prefix of a 2 KiB input at every alignment
//! through the public API against the RustCrypto release, the block functions of every
//! backend against `soft` on every prefix of whole blocks, and MD5/SHA-1's multi-buffer
//! calls with every prefix length at once.
//!
//! The `harness` tests inside each crate cover the same backends at a handful of
//! lengths with sentinels and counters; this is the exhaustive sweep.

use std::marker::PhantomData;

use cipher::{
    BlockCipherDecrypt, BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt,
    BlockSizeUser, KeyInit, StreamCipher,
    array::{Array, ArraySize},
    typenum::Unsigned,
};
use testkit::Rng;

/// Address misalignments tried.
const MIS: usize = 16;
/// Bytes of the digests' and RC4's long input.
const BYTES: usize = 2048;

/// `data` copied `mis` bytes past a 64-byte boundary: the buffer and where it starts.
fn misaligned(data: &[u8], mis: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; data.len() + 128];
    let at = (64 - buf.as_ptr() as usize % 64) % 64 + mis;
    buf[at..at + data.len()].copy_from_slice(data);
    (buf, at)
}

/// The `ParBlocksSize` of the backend `c` runs on.
fn par_blocks<C: BlockCipherEncrypt>(c: &C) -> usize {
    struct Par<'a, N>(&'a mut usize, PhantomData<N>);
    impl<N: ArraySize> BlockSizeUser for Par<'_, N> {
        type BlockSize = N;
    }
    impl<N: ArraySize> BlockCipherEncClosure for Par<'_, N> {
        fn call<B: BlockCipherEncBackend<BlockSize = N>>(self, _: &B) {
            *self.0 = B::ParBlocksSize::USIZE;
        }
    }
    let mut n = 0;
    c.encrypt_with_backend(Par(&mut n, PhantomData));
    n
}

/// The ECB sweep of one cipher type: `backends` are the crate's `__backends::ALL`,
/// `available` its check, `make(name)` the cipher keyed on backend `name`.
fn ecb<C>(what: &str, backends: &[&str], available: fn(&str) -> bool, make: impl Fn(&str) -> C)
where
    C: BlockCipherEncrypt + BlockCipherDecrypt,
{
    let bs = C::block_size();
    let others: Vec<&str> = backends
        .iter()
        .copied()
        .filter(|&b| b != "soft" && testkit::available(b, available(b)))
        .collect();
    let widest = others
        .iter()
        .map(|b| par_blocks(&make(b)))
        .max()
        .unwrap_or(1);
    let blocks = 2 * widest + 3;
    println!("{what}: {others:?} vs soft, 0..={blocks} blocks x {MIS} alignments");
    let mut rng = Rng::new(testkit::seed(0x9E1F_1C5E) ^ blocks as u64);
    let plain = rng.bytes(blocks * bs);
    let mut expect = plain.clone();
    let (chunks, _) = Array::<u8, C::BlockSize>::slice_as_chunks_mut(&mut expect);
    make("soft").encrypt_blocks(chunks);
    for b in others {
        let c = make(b);
        for n in 0..=blocks {
            let len = n * bs;
            for mis in 0..MIS {
                let (mut buf, at) = misaligned(&plain[..len], mis);
                let (chunks, _) =
                    Array::<u8, C::BlockSize>::slice_as_chunks_mut(&mut buf[at..at + len]);
                c.encrypt_blocks(chunks);
                assert!(
                    buf[at..at + len] == expect[..len],
                    "{what} {b}: {n} blocks at misalignment {mis} differ from soft"
                );
                let (chunks, _) =
                    Array::<u8, C::BlockSize>::slice_as_chunks_mut(&mut buf[at..at + len]);
                c.decrypt_blocks(chunks);
                assert!(
                    buf[at..at + len] == plain[..len],
                    "{what} {b}: decryption of {n} blocks at misalignment {mis}"
                );
                assert!(
                    buf[..at].iter().chain(&buf[at + len..]).all(|&x| x == 0),
                    "{what} {b}: wrote outside {n} blocks at misalignment {mis}"
                );
            }
        }
    }
}

macro_rules! ecb {
    ($krate:ident, $($ty:ident => $make:expr),* $(,)?) => {$(
        ecb(
            concat!(stringify!($krate), "::", stringify!($ty)),
            $krate::__backends::ALL,
            $krate::__backends::available,
            $make,
        );
    )*};
}

#[test]
fn aes_every_prefix() {
    use aes::__backends::*;
    ecb!(aes,
        Aes128 => |b| aes128_with(b, &[1; 16]),
        Aes192 => |b| aes192_with(b, &[2; 24]),
        Aes256 => |b| aes256_with(b, &[3; 32]),
    );
}

#[test]
fn des_every_prefix() {
    use des::__backends::*;
    let k: [u8; 24] = core::array::from_fn(|i| (i * 37 + 11) as u8);
    ecb!(des,
        Des => |b| des_with(b, k[..8].try_into().unwrap()),
        TdesEde2 => |b| tdes_ede2_with(b, k[..16].try_into().unwrap()),
        TdesEde3 => |b| tdes_ede3_with(b, &k),
        TdesEee2 => |b| tdes_eee2_with(b, k[..16].try_into().unwrap()),
        TdesEee3 => |b| tdes_eee3_with(b, &k),
    );
}

#[test]
fn small_block_ciphers_every_prefix() {
    ecb!(blowfish,
        Blowfish => |b| -> blowfish::Blowfish { blowfish::__backends::blowfish_with(b, b"sixteen key") },
        BlowfishLE => |b| -> blowfish::BlowfishLE { blowfish::__backends::blowfish_with(b, b"LE key") },
    );
    ecb!(cast5, Cast5 => |b| cast5::__backends::cast5_with(b, b"0123456789abcdef"));
    ecb!(idea, Idea => |b| idea::__backends::idea_with(b, b"0123456789abcdef"));
    ecb!(rc2,
        Rc2 => |b| rc2::__backends::rc2_with(b, b"0123456789abcdef", 128),
    );
    ecb!(rc2,
        Rc2 => |b| rc2::__backends::rc2_with(b, b"0123456789abcdef", 63),
    );
}

#[test]
fn wide_block_ciphers_every_prefix() {
    use camellia::__backends::*;
    ecb!(camellia,
        Camellia128 => |b| camellia128_with(b, &[4; 16]),
        Camellia192 => |b| camellia192_with(b, &[5; 24]),
        Camellia256 => |b| camellia256_with(b, &[6; 32]),
    );
    ecb!(serpent, Serpent => |b| serpent::__backends::serpent_with(b, &[7; 32]));
    ecb!(twofish, Twofish => |b| twofish::__backends::twofish_with(b, &[8; 32]));
    ecb!(twofish, Twofish => |b| twofish::__backends::twofish_with(b, &[9; 16]));
}

/// Every byte prefix of a long input at every alignment: ours (public API, dispatched
/// backend) against the RustCrypto release, once in one call and once in two.
fn digest_prefixes<O: digest::Digest, T: digest::Digest>(what: &str) {
    let input = Rng::new(testkit::seed(0xD16E)).bytes(BYTES);
    for len in 0..=BYTES {
        let expect = T::digest(&input[..len]);
        for mis in 0..MIS {
            let (buf, at) = misaligned(&input[..len], mis);
            let msg = &buf[at..at + len];
            assert!(
                O::digest(msg)[..] == expect[..],
                "{what}: {len} bytes at misalignment {mis}"
            );
            let mut d = O::new();
            d.update(&msg[..len / 3]);
            d.update(&msg[len / 3..]);
            assert!(d.finalize()[..] == expect[..], "{what}: {len} bytes in two");
        }
    }
}

#[test]
fn digests_every_prefix() {
    digest_prefixes::<md5::Md5, rc_md5::Md5>("md5");
    digest_prefixes::<md2::Md2, rc_md2::Md2>("md2");
    digest_prefixes::<sha1::Sha1, rc_sha1::Sha1>("sha1");
    digest_prefixes::<ripemd::Ripemd128, rc_ripemd::Ripemd128>("ripemd128");
    digest_prefixes::<ripemd::Ripemd160, rc_ripemd::Ripemd160>("ripemd160");
    digest_prefixes::<ripemd::Ripemd256, rc_ripemd::Ripemd256>("ripemd256");
    digest_prefixes::<ripemd::Ripemd320, rc_ripemd::Ripemd320>("ripemd320");
}

/// The block function of every backend against `soft` on every prefix of whole
/// 64-byte blocks, at every alignment, from a random state.
fn compress_prefixes<S: Clone + PartialEq + std::fmt::Debug>(
    what: &str,
    backends: &[&str],
    available: fn(&str) -> bool,
    state: S,
    compress: impl Fn(&str, &mut S, &[[u8; 64]]),
) {
    let input = Rng::new(testkit::seed(0xC0FF)).bytes(BYTES);
    let blocks = BYTES / 64;
    let others: Vec<&str> = backends
        .iter()
        .copied()
        .filter(|&b| b != "soft" && testkit::available(b, available(b)))
        .collect();
    println!("{what}: {others:?} vs soft, 0..={blocks} blocks x {MIS} alignments");
    for b in others {
        for n in 0..=blocks {
            let mut expect = state.clone();
            compress("soft", &mut expect, input[..n * 64].as_chunks().0);
            for mis in 0..MIS {
                let (buf, at) = misaligned(&input[..n * 64], mis);
                let mut got = state.clone();
                compress(b, &mut got, buf[at..at + n * 64].as_chunks().0);
                assert_eq!(got, expect, "{what} {b}: {n} blocks at misalignment {mis}");
            }
        }
    }
}

#[test]
fn block_functions_every_prefix() {
    compress_prefixes(
        "md5",
        md5::__backends::ALL,
        md5::__backends::available,
        [0x0123_4567u32, 0x89ab_cdef, 0xfedc_ba98, 0x7654_3210],
        md5::__backends::compress_with,
    );
    compress_prefixes(
        "sha1",
        sha1::__backends::ALL,
        sha1::__backends::available,
        [
            0x6745_2301u32,
            0xefcd_ab89,
            0x98ba_dcfe,
            0x1032_5476,
            0xc3d2_e1f0,
        ],
        sha1::__backends::compress_with,
    );
}

/// MD5 and SHA-1's multi-buffer calls on every backend: at each alignment, one call
/// with every prefix 0..=2048 of the input as its messages (lanes of every length side
/// by side), against `soft`.
#[test]
fn multi_buffer_every_prefix() {
    let input = Rng::new(testkit::seed(0x3017)).bytes(BYTES);
    for mis in 0..MIS {
        let (buf, at) = misaligned(&input, mis);
        let msgs: Vec<&[u8]> = (0..=BYTES).map(|l| &buf[at..at + l]).collect();
        let mut expect = vec![[0u8; 16]; msgs.len()];
        md5::__backends::digest_many_with("soft", &msgs, &mut expect);
        for b in md5::__backends::ALL {
            if testkit::available(b, md5::__backends::available(b)) {
                let mut got = vec![[0u8; 16]; msgs.len()];
                md5::__backends::digest_many_with(b, &msgs, &mut got);
                assert!(got == expect, "md5 {b}: prefixes at misalignment {mis}");
            }
        }
        let mut expect = vec![[0u8; 20]; msgs.len()];
        sha1::__backends::digest_many_with("soft", &msgs, &mut expect);
        for b in sha1::__backends::ALL {
            if testkit::available(b, sha1::__backends::available(b)) {
                let mut got = vec![[0u8; 20]; msgs.len()];
                sha1::__backends::digest_many_with(b, &msgs, &mut got);
                assert!(got == expect, "sha1 {b}: prefixes at misalignment {mis}");
            }
        }
    }
}

/// RC4 (one backend, `soft`): every prefix at every alignment against the release.
#[test]
fn rc4_every_prefix() {
    let input = Rng::new(testkit::seed(0x4C4)).bytes(BYTES);
    let key = b"Key of sixteen b";
    let mut expect = input.clone();
    rc_rc4::Rc4::new_from_slice(key)
        .unwrap()
        .apply_keystream(&mut expect);
    for len in 0..=BYTES {
        for mis in 0..MIS {
            let (mut buf, at) = misaligned(&input[..len], mis);
            rc4::Rc4::new_from_slice(key)
                .unwrap()
                .apply_keystream(&mut buf[at..at + len]);
            assert!(
                buf[at..at + len] == expect[..len],
                "rc4: {len} bytes at misalignment {mis}"
            );
        }
    }
}
