//! The workspace README's quick start, compiled and run: the `rust` block under its
//! "## Quick start" heading must stand verbatim in `quick_start` below.

#[test]
fn quick_start() {
    // README quick start begins
    use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit, StreamCipher};
    use cbc::cipher::block_padding::Pkcs7;
    use hmac::{Hmac, KeyInit, Mac};

    let (key, iv) = ([0x42u8; 16], [0x24u8; 16]);

    // AES-128-CTR: the same call encrypts and decrypts, in place.
    let mut data = *b"hello, simdcrypt";
    ctr::Ctr128BE::<aes::Aes128>::new(&key.into(), &iv.into()).apply_keystream(&mut data);

    // AES-128-CBC with PKCS#7 padding (cbc's `alloc` feature).
    let ct = cbc::Encryptor::<aes::Aes128>::new(&key.into(), &iv.into())
        .encrypt_padded_vec::<Pkcs7>(b"attack at dawn");
    let pt = cbc::Decryptor::<aes::Aes128>::new(&key.into(), &iv.into())
        .decrypt_padded_vec::<Pkcs7>(&ct)
        .expect("valid padding");
    assert_eq!(pt, b"attack at dawn");

    // HMAC-SHA1 through the published `hmac` crate, on our `sha1`.
    let mut mac = <Hmac<sha1::Sha1> as KeyInit>::new_from_slice(b"key").unwrap();
    mac.update(b"The quick brown fox jumps over the lazy dog");
    let tag = mac.finalize().into_bytes();
    assert_eq!(tag[..4], [0xde, 0x7c, 0x9b, 0x85]);
    // README quick start ends
    assert_ne!(data, *b"hello, simdcrypt");
}

/// The README's block is this test's body, line for line (less the body's indent).
#[test]
fn readme_shows_this_test() {
    let readme = include_str!("../../README.md");
    let section = readme
        .split("\n## Quick start")
        .nth(1)
        .expect("README has a `## Quick start` section");
    let block = section
        .split("```rust\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("the quick start has a ```rust block");
    let this = include_str!("quickstart.rs");
    let body = this
        .split("// README quick start begins\n")
        .nth(1)
        .and_then(|b| b.split("    // README quick start ends").next())
        .unwrap();
    let lines = |s: &str, indent: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.strip_prefix(indent).unwrap_or(l).trim_end().to_string())
            .collect()
    };
    assert_eq!(lines(block, ""), lines(body.trim_end(), "    "));
}
