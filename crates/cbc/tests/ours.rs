//! RustCrypto's cbc 0.2.1 test suite (the files of `tests/rustcrypto/`) with our `aes`.

/// The block cipher the suite runs: this workspace's `aes`.
use simdcrypt_aes as aes;

#[path = "rustcrypto/aes_cavp.rs"]
mod aes_cavp;
#[path = "rustcrypto/iv_state.rs"]
mod iv_state;
