//! `auto`: is the automatic backend choice the fastest one on this CPU? (issue 18: at
//! 8 KiB it must be within 3 % of the fastest forced backend, for every crate.)
//!
//! For each crate, the public API as detected (`auto`) and every backend this CPU runs,
//! forced through the crate's `__backends`, make one call on the same 8 KiB buffer (or
//! the size given) in a loop, all of them alternating turn by turn in one process; the
//! median of the turns is printed in TSC cycles per byte. The last column is `auto` ÷ the
//! fastest forced backend, and a `!` marks a crate over the 3 % target.
//!
//! `cargo run --release -p speed --bin auto [-- SIZE] [CRATE...]`
//!
//! Block ciphers run raw ECB `encrypt_blocks`; digests their compression function over
//! whole blocks (`auto`: `update` on a long-lived hasher, which compresses the same
//! blocks); `md5-mb`/`sha1-mb` hash 16 messages of SIZE/16 bytes at once; rc4 runs its
//! keystream.

use std::hint::black_box;

use cipher::{BlockCipherEncrypt, KeyInit, StreamCipher, array::Array};
use digest::Update;

/// Timed turns per implementation, after one warm-up turn.
const TURNS: usize = 15;

/// One implementation: its name and one call on a buffer of the measured size.
type Imp<'a> = (String, Box<dyn FnMut(&mut [u8]) + 'a>);

fn tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86_64 CPU and only reads the counter.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // Elsewhere: nanoseconds (the column header says which).
        std::time::UNIX_EPOCH
            .elapsed()
            .map_or(0, |d| d.as_nanos() as u64)
    }
}

/// Median cycles per byte of each implementation, all of them alternating turn by turn
/// (the order rotates, so none always runs first).
fn race(size: usize, imps: &mut [Imp<'_>]) -> Vec<f64> {
    let mut buf = vec![0x5au8; size];
    let calls = ((1 << 21) / size).max(1);
    let n = imps.len();
    let mut turns = vec![Vec::new(); n];
    for t in 0..=TURNS {
        for j in 0..n {
            let k = (t + j) % n;
            let run = &mut imps[k].1;
            let c0 = tsc();
            for _ in 0..calls {
                run(black_box(&mut buf));
            }
            if t > 0 {
                turns[k].push((tsc() - c0) as f64 / (calls * size) as f64);
            }
        }
    }
    turns
        .into_iter()
        .map(|mut v| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        })
        .collect()
}

/// Races `imps` (the first is `auto`, choosing `chosen`) and prints one line.
fn report(krate: &str, chosen: &str, size: usize, mut imps: Vec<Imp<'_>>) {
    let cpb = race(size, &mut imps);
    let (best, best_cpb) = imps[1..]
        .iter()
        .zip(&cpb[1..])
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, c)| (i.0.clone(), *c))
        .expect("soft is always there");
    let ratio = cpb[0] / best_cpb;
    let forced: Vec<String> = imps[1..]
        .iter()
        .zip(&cpb[1..])
        .map(|(i, c)| format!("{} {c:.2}", i.0))
        .collect();
    println!(
        "{krate:<10} auto={chosen:<12} {:>7.2}   {:<52} best {best:<12} auto/best {ratio:.3}{}",
        cpb[0],
        forced.join(", "),
        if ratio > 1.03 { " !" } else { "" }
    );
}

fn blocks<N: cipher::array::ArraySize>(b: &mut [u8]) -> &mut [Array<u8, N>] {
    Array::slice_as_chunks_mut(b).0
}

/// `auto` plus every available backend of a block cipher, as raw ECB.
macro_rules! cipher_row {
    ($krate:literal, $m:ident, $auto:expr, |$name:ident| $with:expr, $size:expr) => {{
        let auto = $auto;
        let mut imps: Vec<Imp<'_>> = vec![(
            "auto".into(),
            Box::new(move |b: &mut [u8]| auto.encrypt_blocks(blocks(b))),
        )];
        for &$name in $m::__backends::ALL {
            if $m::__backends::available($name) {
                let c = $with;
                imps.push((
                    $name.into(),
                    Box::new(move |b: &mut [u8]| c.encrypt_blocks(blocks(b))),
                ));
            }
        }
        report($krate, $m::__backends::selected(), $size, imps);
    }};
}

/// `auto` (`update` on a hasher) plus every available backend's compression function.
macro_rules! digest_row {
    ($krate:literal, $m:ident, $chosen:expr, $hasher:ty, $state:expr, $compress:path, $size:expr) => {{
        let mut h = <$hasher>::default();
        let mut imps: Vec<Imp<'_>> =
            vec![("auto".into(), Box::new(move |b: &mut [u8]| h.update(b)))];
        for &name in $m::__backends::ALL {
            if $m::__backends::available(name) {
                let mut state = $state;
                imps.push((
                    name.into(),
                    Box::new(move |b: &mut [u8]| {
                        $compress(name, &mut state, b.as_chunks::<64>().0)
                    }),
                ));
            }
        }
        report($krate, $chosen, $size, imps);
    }};
}

/// Multi-buffer hashing: 16 messages of SIZE/16 bytes per call (`auto`: `multi::digest_into`).
macro_rules! multi_row {
    ($krate:literal, $m:ident, $out:literal, $size:expr) => {{
        let mut out = [[0u8; $out]; 16];
        let mut imps: Vec<Imp<'_>> = vec![(
            "auto".into(),
            Box::new(move |b: &mut [u8]| {
                let msgs: Vec<&[u8]> = b.chunks(b.len() / 16).collect();
                $m::multi::digest_into(&msgs, &mut out)
            }),
        )];
        for &name in $m::__backends::ALL {
            if $m::__backends::available(name) {
                let mut out = [[0u8; $out]; 16];
                imps.push((
                    name.into(),
                    Box::new(move |b: &mut [u8]| {
                        let msgs: Vec<&[u8]> = b.chunks(b.len() / 16).collect();
                        $m::__backends::digest_many_with(name, &msgs, &mut out)
                    }),
                ));
            }
        }
        report($krate, $m::__backends::selected(), $size, imps);
    }};
}

fn main() {
    let (sizes, names): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .partition(|a| a.bytes().all(|b| b.is_ascii_digit()));
    let size = sizes.first().map_or(8192, |s| s.parse().expect("a size"));
    assert!(size % 16 == 0 && size > 0, "SIZE must be a multiple of 16");
    // Digest rows compress whole 64-byte blocks.
    let digests = size % 64 == 0;
    let want = |name: &str| names.is_empty() || names.iter().any(|n| n == name);
    let unit = if cfg!(target_arch = "x86_64") {
        "TSC cycles"
    } else {
        "ns"
    };
    println!(
        "# {unit} per byte at {size} B, median of {TURNS} alternating turns; auto/best > 1.03 is marked !"
    );
    let key = [7u8; 32];
    if want("aes") {
        cipher_row!(
            "aes-128",
            aes,
            aes::Aes128::new(&key[..16].try_into().unwrap()),
            |n| aes::__backends::aes128_with(n, key[..16].try_into().unwrap()),
            size
        );
        cipher_row!(
            "aes-256",
            aes,
            aes::Aes256::new(&key.into()),
            |n| aes::__backends::aes256_with(n, &key),
            size
        );
    }
    if want("des") {
        cipher_row!(
            "des",
            des,
            des::Des::new(&key[..8].try_into().unwrap()),
            |n| des::__backends::des_with(n, key[..8].try_into().unwrap()),
            size
        );
        cipher_row!(
            "3des",
            des,
            des::TdesEde3::new(&key[..24].try_into().unwrap()),
            |n| des::__backends::tdes_ede3_with(n, key[..24].try_into().unwrap()),
            size
        );
    }
    if want("idea") {
        cipher_row!(
            "idea",
            idea,
            idea::Idea::new(&key[..16].try_into().unwrap()),
            |n| idea::__backends::idea_with(n, key[..16].try_into().unwrap()),
            size
        );
    }
    if want("rc2") {
        cipher_row!(
            "rc2",
            rc2,
            rc2::Rc2::new_from_slice(&key[..16]).unwrap(),
            |n| rc2::__backends::rc2_with(n, &key[..16], 128),
            size
        );
    }
    if want("blowfish") {
        cipher_row!(
            "blowfish",
            blowfish,
            <blowfish::Blowfish>::new_from_slice(&key[..16]).unwrap(),
            |n| blowfish::__backends::blowfish_with::<byteorder::BE>(n, &key[..16]),
            size
        );
    }
    if want("cast5") {
        cipher_row!(
            "cast5",
            cast5,
            cast5::Cast5::new_from_slice(&key[..16]).unwrap(),
            |n| cast5::__backends::cast5_with(n, &key[..16]),
            size
        );
    }
    if want("camellia") {
        cipher_row!(
            "camellia128",
            camellia,
            camellia::Camellia128::new(&key[..16].try_into().unwrap()),
            |n| camellia::__backends::camellia128_with(n, key[..16].try_into().unwrap()),
            size
        );
        cipher_row!(
            "camellia256",
            camellia,
            camellia::Camellia256::new(&key.into()),
            |n| camellia::__backends::camellia256_with(n, &key),
            size
        );
    }
    if want("serpent") {
        cipher_row!(
            "serpent",
            serpent,
            serpent::Serpent::new_from_slice(&key[..16]).unwrap(),
            |n| serpent::__backends::serpent_with(n, &key[..16]),
            size
        );
    }
    if want("twofish") {
        cipher_row!(
            "twofish",
            twofish,
            twofish::Twofish::new_from_slice(&key[..16]).unwrap(),
            |n| twofish::__backends::twofish_with(n, &key[..16]),
            size
        );
    }
    if digests && want("md5") {
        digest_row!(
            "md5",
            md5,
            md5::__backends::selected_stream(),
            md5::Md5,
            [1u32; 4],
            md5::__backends::compress_with,
            size
        );
    }
    if digests && want("sha1") {
        digest_row!(
            "sha1",
            sha1,
            sha1::__backends::selected(),
            sha1::Sha1,
            [1u32; 5],
            sha1::__backends::compress_with,
            size
        );
    }
    if digests && want("md5-mb") {
        multi_row!("md5-mb16", md5, 16, size);
    }
    if digests && want("sha1-mb") {
        multi_row!("sha1-mb16", sha1, 20, size);
    }
    if digests && want("ripemd") {
        digest_row!(
            "ripemd160",
            ripemd,
            ripemd::__backends::selected(),
            ripemd::Ripemd160,
            [1u32; 5],
            ripemd::__backends::compress160_with,
            size
        );
    }
    if digests && want("md2") {
        let mut h = md2::Md2::default();
        let mut imps: Vec<Imp<'_>> =
            vec![("auto".into(), Box::new(move |b: &mut [u8]| h.update(b)))];
        for &name in md2::__backends::ALL {
            if md2::__backends::available(name) {
                let (mut x, mut c) = ([0u8; 48], [0u8; 16]);
                imps.push((
                    name.into(),
                    Box::new(move |b: &mut [u8]| {
                        md2::__backends::compress_with(name, &mut x, &mut c, b.as_chunks::<16>().0)
                    }),
                ));
            }
        }
        report("md2", md2::__backends::selected(), size, imps);
    }
    if want("rc4") {
        let mut auto = rc4::Rc4::new_from_slice(&key[..16]).unwrap();
        let mut imps: Vec<Imp<'_>> = vec![(
            "auto".into(),
            Box::new(move |b: &mut [u8]| auto.apply_keystream(b)),
        )];
        for &name in rc4::__backends::ALL {
            if rc4::__backends::available(name) {
                let mut c = rc4::Rc4::new_from_slice(&key[..16]).unwrap();
                imps.push((
                    name.into(),
                    Box::new(move |b: &mut [u8]| {
                        rc4::__backends::apply_keystream_with(name, &mut c, b)
                    }),
                ));
            }
        }
        let chosen = rc4::__backends::selected(&rc4::Rc4::new_from_slice(&key[..16]).unwrap());
        report("rc4", chosen, size, imps);
    }
}
