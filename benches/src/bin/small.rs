//! `small`: the small-message cross-check of issue 18, as plain as a skeptic would write
//! it. One persistent cipher (or mode), one call in a loop over the same buffer, ours and
//! the RustCrypto release alternating turn by turn; the median of the turns, in TSC
//! cycles and nanoseconds per call, and the ratio (> 1: ours is faster).
//!
//! `cargo run --release -p speed --bin small [-- SIZE... NAME...]` (default sizes 16 64
//! 8192, every cipher and digest; a NAME such as `aes-128` or `md5` keeps only those).
//! Each cipher also gets one `setup+1` row: key setup plus one block, per call.
//! Our cipher runs through our `ctr`/`cbc`, the release through the published ones, as a
//! user who patches ours in gets them.

use std::hint::black_box;
use std::time::Instant;

use cipher::{
    BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, StreamCipher,
    array::Array,
};

/// Turns per implementation; each turn times `calls` calls.
const TURNS: usize = 11;

fn tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86_64 CPU and only reads the counter.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    0
}

/// Median (cycles, ns) per call of `a` and of `b`, alternating turns.
fn race(
    size: usize,
    mut a: impl FnMut(&mut [u8]),
    mut b: impl FnMut(&mut [u8]),
) -> [(f64, f64); 2] {
    let mut buf = vec![0x5au8; size];
    let calls = (1 << 22) / size.max(64);
    let mut turns = [Vec::new(), Vec::new()];
    for t in 0..=TURNS {
        for j in 0..2 {
            let k = (t + j) % 2;
            let (c0, t0) = (tsc(), Instant::now());
            for _ in 0..calls {
                if k == 0 {
                    a(black_box(&mut buf))
                } else {
                    b(black_box(&mut buf))
                }
            }
            let (c, ns) = (tsc() - c0, t0.elapsed().as_nanos());
            if t > 0 {
                turns[k].push((c as f64 / calls as f64, ns as f64 / calls as f64));
            }
        }
    }
    turns.map(|mut v| {
        v.sort_by(|x, y| x.0.total_cmp(&y.0));
        v[v.len() / 2]
    })
}

fn row(name: &str, size: usize, r: [(f64, f64); 2]) {
    println!(
        "{name:<22} {size:>6} B  ours {:>9.1} cyc {:>9.1} ns   release {:>9.1} cyc {:>9.1} ns   {:>5.2}x",
        r[0].0,
        r[0].1,
        r[1].0,
        r[1].1,
        r[1].0 / r[0].0
    );
}

macro_rules! block_cipher {
    ($name:literal, $ours:ty, $theirs:ty, $size:expr, $setup:expr) => {{
        let key = [7u8; 64];
        let size = $size;
        if $setup {
            // Key setup plus one block (a KDF's or a TLS record's pattern), once per run.
            let ks = <$ours as cipher::KeySizeUser>::key_size();
            let bs = <$ours as cipher::BlockSizeUser>::block_size();
            row(
                concat!($name, " setup+1"),
                bs,
                race(
                    bs,
                    |b| {
                        <$ours>::new_from_slice(&key[..ks])
                            .unwrap()
                            .encrypt_block(b.try_into().unwrap())
                    },
                    |b| {
                        <$theirs>::new_from_slice(&key[..ks])
                            .unwrap()
                            .encrypt_block(b.try_into().unwrap())
                    },
                ),
            );
        }
        let (o, t) = (
            <$ours>::new_from_slice(&key[..<$ours as cipher::KeySizeUser>::key_size()]).unwrap(),
            <$theirs>::new_from_slice(&key[..<$theirs as cipher::KeySizeUser>::key_size()])
                .unwrap(),
        );
        fn blocks<N: cipher::array::ArraySize>(b: &mut [u8]) -> &mut [Array<u8, N>] {
            Array::slice_as_chunks_mut(b).0
        }
        row(
            concat!($name, " ecb"),
            size,
            race(
                size,
                |b| o.encrypt_blocks(blocks(b)),
                |b| t.encrypt_blocks(blocks(b)),
            ),
        );
        let iv = [9u8; 16];
        let (mut o, mut t) = (
            ctr::Ctr64BE::<$ours>::new_from_slices(
                &key[..<$ours as cipher::KeySizeUser>::key_size()],
                &iv[..<$ours as cipher::BlockSizeUser>::block_size()],
            )
            .unwrap(),
            rc_ctr::Ctr64BE::<$theirs>::new_from_slices(
                &key[..<$theirs as cipher::KeySizeUser>::key_size()],
                &iv[..<$theirs as cipher::BlockSizeUser>::block_size()],
            )
            .unwrap(),
        );
        row(
            concat!($name, " ctr"),
            size,
            race(size, |b| o.apply_keystream(b), |b| t.apply_keystream(b)),
        );
        let ks = <$ours as cipher::KeySizeUser>::key_size();
        let bs = <$ours as cipher::BlockSizeUser>::block_size();
        let (mut o, mut t) = (
            cbc::Encryptor::<$ours>::new_from_slices(&key[..ks], &iv[..bs]).unwrap(),
            rc_cbc::Encryptor::<$theirs>::new_from_slices(&key[..ks], &iv[..bs]).unwrap(),
        );
        row(
            concat!($name, " cbc-enc"),
            size,
            race(
                size,
                |b| o.encrypt_blocks(blocks(b)),
                |b| t.encrypt_blocks(blocks(b)),
            ),
        );
        let (mut o, mut t) = (
            cbc::Decryptor::<$ours>::new_from_slices(&key[..ks], &iv[..bs]).unwrap(),
            rc_cbc::Decryptor::<$theirs>::new_from_slices(&key[..ks], &iv[..bs]).unwrap(),
        );
        row(
            concat!($name, " cbc-dec"),
            size,
            race(
                size,
                |b| o.decrypt_blocks(blocks(b)),
                |b| t.decrypt_blocks(blocks(b)),
            ),
        );
    }};
}

macro_rules! digest {
    ($name:literal, $ours:ty, $theirs:ty, $size:expr) => {{
        use digest::Digest;
        let size = $size;
        row(
            $name,
            size,
            race(
                size,
                |b| {
                    black_box(<$ours>::digest(&*b));
                },
                |b| {
                    black_box(<$theirs>::digest(&*b));
                },
            ),
        );
    }};
}

fn main() {
    let (sizes, names): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .partition(|a| a.bytes().all(|b| b.is_ascii_digit()));
    let sizes: Vec<usize> = sizes.iter().map(|s| s.parse().expect("a size")).collect();
    let want = |name: &str| names.is_empty() || names.iter().any(|n| n == name);
    let sizes = if sizes.is_empty() {
        vec![16, 64, 8192]
    } else {
        sizes
    };
    println!(
        "# TSC cycles and ns per call, median of {TURNS} alternating turns; ratio = release / ours"
    );
    for (i, &size) in sizes.iter().enumerate() {
        let setup = i == 0;
        if want("aes-128") {
            block_cipher!("aes-128", aes::Aes128, rc_aes::Aes128, size, setup);
        }
        if want("aes-256") {
            block_cipher!("aes-256", aes::Aes256, rc_aes::Aes256, size, setup);
        }
        if want("des") {
            block_cipher!("des", des::Des, rc_des::Des, size, setup);
        }
        if want("3des") {
            block_cipher!("3des", des::TdesEde3, rc_des::TdesEde3, size, setup);
        }
        if want("idea") {
            block_cipher!("idea", idea::Idea, rc_idea::Idea, size, setup);
        }
        if want("rc2") {
            block_cipher!("rc2", rc2::Rc2, rc_rc2::Rc2, size, setup);
        }
        if want("blowfish") {
            block_cipher!(
                "blowfish",
                blowfish::Blowfish,
                rc_blowfish::Blowfish,
                size,
                setup
            );
        }
        if want("cast5") {
            block_cipher!("cast5", cast5::Cast5, rc_cast5::Cast5, size, setup);
        }
        if want("camellia-128") {
            block_cipher!(
                "camellia-128",
                camellia::Camellia128,
                rc_camellia::Camellia128,
                size,
                setup
            );
        }
        if want("serpent") {
            block_cipher!(
                "serpent",
                serpent::Serpent,
                rc_serpent::Serpent,
                size,
                setup
            );
        }
        if want("twofish") {
            block_cipher!(
                "twofish",
                twofish::Twofish,
                rc_twofish::Twofish,
                size,
                setup
            );
        }
        if want("md5") {
            digest!("md5", md5::Md5, rc_md5::Md5, size);
        }
        if want("sha1") {
            digest!("sha1", sha1::Sha1, rc_sha1::Sha1, size);
        }
        if want("ripemd160") {
            digest!("ripemd160", ripemd::Ripemd160, rc_ripemd::Ripemd160, size);
        }
        if want("md2") {
            digest!("md2", md2::Md2, rc_md2::Md2, size);
        }
    }
}
