//! The Speed table of `crates/des/README.md`: DES and 3DES in ECB, CTR, CBC encryption,
//! CBC decryption and key setup + one block, ours against RustCrypto's des 0.9.0 (with the
//! published `ctr`/`cbc`) and OpenSSL 3, on 8 KiB buffers.
//!
//! ```text
//! cargo run --release -p speed --features openssl --bin des-table [-- [ROUNDS] [--json FILE]]
//! ```
//!
//! `--json FILE` also writes the rows, with the machine, the date and the command, for
//! `cargo xtask figures` (which renders the README table from it).
//!
//! The three implementations of a row run in turns, `ROUNDS` times (default 31); each
//! turn is timed with the TSC and the median is printed in TSC cycles per byte. OpenSSL
//! has no DES-CTR; its row shows ECB, which CTR cannot beat.

use cipher::{
    BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, StreamCipher,
    array::{Array, ArraySize},
};
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use openssl::provider::Provider;
use std::fmt::Write as _;
use std::hint::black_box;

#[path = "../machine.rs"]
mod machine;
#[path = "../stamp.rs"]
mod stamp;

/// The buffer of the bulk rows.
const LEN: usize = 8192;

/// One implementation of a row: runs over the buffer it is given.
type Run = Box<dyn FnMut(&mut [u8])>;

/// The TSC, fenced so the timed work cannot move across the read.
fn tsc() -> u64 {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: LFENCE (SSE2) and RDTSC exist on every x86_64 CPU; they only order and
    // read the counter.
    unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
}

/// `buf` as 8-byte blocks.
fn blocks<N: ArraySize>(buf: &mut [u8]) -> &mut [Array<u8, N>] {
    Array::slice_as_chunks_mut(buf).0
}

/// OpenSSL's `name` over the buffer: CBC from a zero IV (`cbc`) or ECB.
fn openssl(name: &str, key: &[u8], encrypt: bool, cbc: bool) -> Run {
    let cipher = Cipher::fetch(None, name, None).expect("OpenSSL has the cipher");
    let mut ctx = CipherCtx::new().expect("a cipher context");
    let iv = [0; 8];
    let iv = cbc.then_some(&iv[..]);
    if encrypt {
        ctx.encrypt_init(Some(&cipher), Some(key), iv)
    } else {
        ctx.decrypt_init(Some(&cipher), Some(key), iv)
    }
    .expect("key and IV lengths fit");
    ctx.set_padding(false);
    let mut out = vec![0; LEN + 16];
    Box::new(move |buf| {
        let n = ctx
            .cipher_update(buf, Some(&mut out))
            .expect("whole blocks");
        buf[..n].copy_from_slice(&out[..n]);
    })
}

/// OpenSSL's key setup (`EVP_EncryptInit_ex` with the key) and one ECB block.
fn openssl_setup(name: &str, key: Vec<u8>) -> Run {
    let cipher = Cipher::fetch(None, name, None).expect("OpenSSL has the cipher");
    let mut ctx = CipherCtx::new().expect("a cipher context");
    let mut out = [0; 24];
    Box::new(move |buf| {
        ctx.encrypt_init(Some(&cipher), Some(black_box(&key)), None)
            .expect("key length fits");
        ctx.set_padding(false);
        ctx.cipher_update(&buf[..8], Some(&mut out))
            .expect("one block");
        buf[..8].copy_from_slice(&out[..8]);
    })
}

/// The five rows of one cipher: `(label, bytes per run, [ours, des 0.9.0, OpenSSL])`.
macro_rules! rows {
    ($label:literal, $ours:ty, $theirs:ty, $cbc:literal, $ecb:literal, $key:expr) => {{
        let key: &'static [u8] = $key;
        let iv = [7; 8];
        let ours = <$ours>::new_from_slice(key).expect("key length");
        let theirs = <$theirs>::new_from_slice(key).expect("key length");
        let mut rows: Vec<(String, usize, [Run; 3])> = Vec::new();
        rows.push((
            format!("{} ECB", $label),
            LEN,
            [
                Box::new(move |b| ours.encrypt_blocks(blocks(b))),
                Box::new(move |b| theirs.encrypt_blocks(blocks(b))),
                openssl($ecb, key, true, false),
            ],
        ));
        let mut ours = ctr::Ctr64BE::<$ours>::new_from_slices(key, &iv).expect("lengths");
        let mut theirs = rc_ctr::Ctr64BE::<$theirs>::new_from_slices(key, &iv).expect("lengths");
        rows.push((
            format!("{} CTR (OpenSSL: ECB)", $label),
            LEN,
            [
                Box::new(move |b| ours.apply_keystream(b)),
                Box::new(move |b| theirs.apply_keystream(b)),
                openssl($ecb, key, true, false),
            ],
        ));
        let mut ours = cbc::Encryptor::<$ours>::new_from_slices(key, &iv).expect("lengths");
        let mut theirs = rc_cbc::Encryptor::<$theirs>::new_from_slices(key, &iv).expect("lengths");
        rows.push((
            format!("{} CBC encrypt", $label),
            LEN,
            [
                Box::new(move |b| ours.encrypt_blocks(blocks(b))),
                Box::new(move |b| theirs.encrypt_blocks(blocks(b))),
                openssl($cbc, key, true, true),
            ],
        ));
        let mut ours = cbc::Decryptor::<$ours>::new_from_slices(key, &iv).expect("lengths");
        let mut theirs = rc_cbc::Decryptor::<$theirs>::new_from_slices(key, &iv).expect("lengths");
        rows.push((
            format!("{} CBC decrypt", $label),
            LEN,
            [
                Box::new(move |b| ours.decrypt_blocks(blocks(b))),
                Box::new(move |b| theirs.decrypt_blocks(blocks(b))),
                openssl($cbc, key, false, true),
            ],
        ));
        rows.push((
            format!("{} key setup + 1 block", $label),
            8,
            [
                Box::new(move |b| {
                    let c = <$ours>::new_from_slice(black_box(key)).expect("key length");
                    c.encrypt_block(&mut blocks(&mut b[..8])[0]);
                }),
                Box::new(move |b| {
                    let c = <$theirs>::new_from_slice(black_box(key)).expect("key length");
                    c.encrypt_block(&mut blocks(&mut b[..8])[0]);
                }),
                openssl_setup($ecb, key.to_vec()),
            ],
        ));
        rows
    }};
}

/// One measured row: label, then TSC cycles per byte of ours, des 0.9.0 and OpenSSL.
struct Measured {
    label: String,
    bytes: usize,
    cycles: [f64; 3],
}

/// The JSON document of a run: `{"tool", "date", "command", "machine", "settings",
/// "rows": [{"label", "bytes", "ours", "rustcrypto", "openssl"}]}` (TSC cycles per byte).
fn json(rows: &[Measured], rounds: usize, argv: &[String]) -> String {
    let machine = machine::Machine {
        openssl: Some(openssl::version::version().to_owned()),
        ..machine::Machine::detect()
    };
    let mut out = String::from("{\n  \"tool\": \"des-table\",\n");
    let _ = writeln!(out, "  \"date\": {},", stamp::string(&stamp::today()));
    let command = stamp::command("des-table", true, argv);
    let _ = writeln!(out, "  \"command\": {},", stamp::string(&command));
    let _ = writeln!(out, "  \"machine\": {},", stamp::machine_object(&machine));
    let _ = writeln!(
        out,
        "  \"settings\": {{\"rounds\": {rounds}, \"bytes\": {LEN}, \"unit\": \"TSC cycles per byte\"}},"
    );
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            let [ours, theirs, ossl] = r.cycles.map(|c| stamp::number(Some(c)));
            format!(
                "    {{\"label\": {}, \"bytes\": {}, \"ours\": {ours}, \"rustcrypto\": {theirs}, \
                 \"openssl\": {ossl}}}",
                stamp::string(&r.label),
                r.bytes
            )
        })
        .collect();
    let _ = writeln!(out, "  \"rows\": [\n{}\n  ]\n}}", rows.join(",\n"));
    out
}

fn main() {
    const USAGE: &str = "usage: des-table [ROUNDS] [--json FILE]";
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let (mut rounds, mut json_path) = (31usize, None);
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--json" => json_path = Some(words.next().expect(USAGE).clone()),
            n => rounds = n.parse().expect(USAGE),
        }
    }
    let _default = Provider::try_load(None, "default", true).expect("OpenSSL's default provider");
    let _legacy = Provider::try_load(None, "legacy", true).expect("OpenSSL's legacy provider");
    let key3: &[u8] = b"\x01\x23\x45\x67\x89\xab\xcd\xef\xfe\xdc\xba\x98\x76\x54\x32\x10\x89\xab\xcd\xef\x01\x23\x45\x67";
    let mut rows = rows!(
        "DES",
        des::Des,
        rc_des::Des,
        "DES-CBC",
        "DES-ECB",
        &key3[..8]
    );
    rows.extend(rows!(
        "3DES",
        des::TdesEde3,
        rc_des::TdesEde3,
        "DES-EDE3-CBC",
        "DES-EDE3-ECB",
        key3
    ));

    println!("OpenSSL: {}", openssl::version::version());
    println!("TSC cycles per byte, median of {rounds} interleaved turns ({LEN}-byte buffers)");
    println!(
        "{:<28} {:>8} {:>10} {:>10} {:>13}",
        "", "ours", "des 0.9.0", "OpenSSL 3", "ours vs peer"
    );
    let mut buf = vec![0u8; LEN];
    let mut measured = Vec::new();
    for (label, bytes, mut impls) in rows {
        // Enough runs per turn for ~1 ms: 8 buffers, or 2000 key setups.
        let runs = if bytes == LEN { 8 } else { 2000 };
        let mut turns: [Vec<f64>; 3] = Default::default();
        for _ in 0..rounds {
            for (run, turns) in impls.iter_mut().zip(&mut turns) {
                run(&mut buf);
                let t0 = tsc();
                for _ in 0..runs {
                    run(&mut buf);
                }
                turns.push((tsc() - t0) as f64 / (runs * bytes) as f64);
            }
        }
        let [ours, theirs, ossl] = turns.map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        });
        let ratio = theirs.min(ossl) / ours;
        println!("{label:<28} {ours:>8.2} {theirs:>10.1} {ossl:>10.1} {ratio:>12.2}×");
        measured.push(Measured {
            label,
            bytes,
            cycles: [ours, theirs, ossl],
        });
    }
    if let Some(path) = json_path {
        std::fs::write(&path, json(&measured, rounds, &argv))
            .unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        eprintln!("des-table: wrote {path}");
    }
}
