//! The C batch entry point against des-crypt's Rust batch API, interleaved in one process:
//! `cargo run --release -p simdcrypt-libcrypt --example batch_speed`. Both hash the same
//! 4096 keys under one traditional setting per call; the median of 21 turns of 1 s / 21
//! each is printed in million crypts per second.

use std::ffi::{CString, c_char};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let keys: Vec<CString> = (0..4096)
        .map(|i| CString::new(format!("k{i:06}")).unwrap())
        .collect();
    let ptrs: Vec<*const c_char> = keys.iter().map(|k| k.as_ptr()).collect();
    let rust_keys: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    let setting = c"ab";
    let mut out = vec![0 as c_char; 4096 * 21];
    let mut turns = [Vec::new(), Vec::new()];
    for t in 0..22 {
        for j in 0..2 {
            let side = (t + j) % 2;
            let (start, mut n) = (Instant::now(), 0usize);
            while start.elapsed().as_secs_f64() < 1.0 / 21.0 {
                if side == 0 {
                    // SAFETY: 4096 C strings, 4096 slots of 21 bytes.
                    let rc = unsafe {
                        simdcrypt_libcrypt::simdcrypt_crypt_keys(
                            setting.as_ptr(),
                            ptrs.as_ptr(),
                            ptrs.len(),
                            out.as_mut_ptr(),
                            21,
                        )
                    };
                    assert_eq!(rc, 0);
                } else {
                    black_box(des_crypt::crypt_keys("ab", &rust_keys).unwrap());
                }
                n += 4096;
            }
            if t > 0 {
                turns[side].push(n as f64 / start.elapsed().as_secs_f64() / 1e6);
            }
        }
    }
    let [c, rust] = turns.map(|mut v| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    });
    println!("simdcrypt_crypt_keys (C ABI): {c:.2} M crypts/s");
    println!(
        "des_crypt::crypt_keys (Rust): {rust:.2} M crypts/s  (C / Rust {:.2})",
        c / rust
    );
}
