//! The digests against their RustCrypto releases: update splits, clones mid-stream,
//! `finalize_reset`, misaligned input; and MD5/SHA-1's multi-buffer calls on every
//! backend this CPU runs, with messages of every length the input makes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::{Input, digest};

/// The messages of a multi-buffer call: prefixes and suffixes of the data, up to 40.
fn messages(inp: &mut Input<'_>) -> Vec<Vec<u8>> {
    let n = usize::from(inp.byte() % 40) + 1;
    let lens: Vec<u16> = (0..n).map(|_| inp.u16()).collect();
    let data = inp.rest();
    lens.iter()
        .enumerate()
        .map(|(i, &l)| {
            let l = usize::from(l) % (data.len() + 1);
            if i % 2 == 0 {
                data[..l].to_vec()
            } else {
                data[data.len() - l..].to_vec()
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    match inp.byte() % 9 {
        0 => digest::<md5::Md5, rc_md5::Md5>(&mut inp),
        1 => digest::<md2::Md2, rc_md2::Md2>(&mut inp),
        2 => digest::<sha1::Sha1, rc_sha1::Sha1>(&mut inp),
        3 => digest::<ripemd::Ripemd128, rc_ripemd::Ripemd128>(&mut inp),
        4 => digest::<ripemd::Ripemd160, rc_ripemd::Ripemd160>(&mut inp),
        5 => digest::<ripemd::Ripemd256, rc_ripemd::Ripemd256>(&mut inp),
        6 => digest::<ripemd::Ripemd320, rc_ripemd::Ripemd320>(&mut inp),
        7 => {
            let msgs = messages(&mut inp);
            for name in md5::__backends::ALL {
                if md5::__backends::available(name) {
                    let mut out = vec![[0u8; 16]; msgs.len()];
                    md5::__backends::digest_many_with(name, &msgs, &mut out);
                    for (m, o) in msgs.iter().zip(&out) {
                        assert!(
                            o[..] == <rc_md5::Md5 as digest::Digest>::digest(m)[..],
                            "{name}: {} bytes",
                            m.len()
                        );
                    }
                }
            }
        }
        _ => {
            let msgs = messages(&mut inp);
            for name in sha1::__backends::ALL {
                if sha1::__backends::available(name) {
                    let mut out = vec![[0u8; 20]; msgs.len()];
                    sha1::__backends::digest_many_with(name, &msgs, &mut out);
                    for (m, o) in msgs.iter().zip(&out) {
                        let want = <rc_sha1::Sha1 as digest::Digest>::digest(m);
                        assert!(o[..] == want[..], "{name}: {} bytes", m.len());
                    }
                }
            }
        }
    }
});
