//! RC4 against RustCrypto's `rc4`: keys of any length through `new_from_slice`, then the keystream over uneven pieces, in
//! place and buffer to buffer, misaligned.
#![no_main]

use cipher::{KeyInit, StreamCipher};
use libfuzzer_sys::fuzz_target;
use simdcrypt_fuzz::{Input, Layout, Misaligned, pieces};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    // 0..=255 bytes, or 256 (the longest RC4 key) when the length byte is 255 and the
    // next byte is odd.
    let n = usize::from(inp.byte());
    let n = n + usize::from(n == 255 && inp.byte() & 1 == 1);
    let key = inp.bytes(n);
    let (ours, theirs) = (
        rc4::Rc4::new_from_slice(key),
        rc_rc4::Rc4::new_from_slice(key),
    );
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{}-byte key", key.len());
    let (Ok(mut ours), Ok(mut theirs)) = (ours, theirs) else {
        return;
    };
    let layout = Layout::read(&mut inp);
    let b2b = inp.byte();
    let msg = Misaligned::new(inp.rest(), usize::from(b2b >> 4));
    let mut expect = msg.bytes().to_vec();
    theirs.apply_keystream(&mut expect);
    let mut got = Vec::new();
    for (k, p) in pieces(msg.bytes(), &layout.cuts(msg.bytes().len()))
        .into_iter()
        .enumerate()
    {
        if b2b >> (k % 4) & 1 != 0 {
            let mut out = Misaligned::new(&vec![0; p.len()], k);
            ours.apply_keystream_b2b(p, out.bytes_mut());
            got.extend_from_slice(out.bytes());
        } else {
            let mut p = p.to_vec();
            ours.apply_keystream(&mut p);
            got.extend_from_slice(&p);
        }
    }
    assert!(
        got == expect,
        "{}-byte key, {} bytes",
        key.len(),
        expect.len()
    );
});
