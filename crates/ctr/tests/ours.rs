//! RustCrypto's ctr 0.10.1 test suite (the files of `tests/rustcrypto/`) with our `aes`.

/// The block cipher the suite runs: this workspace's `aes`.
use simdcrypt_aes as aes;

#[path = "rustcrypto/ctr128/mod.rs"]
mod ctr128;
#[path = "rustcrypto/ctr32/mod.rs"]
mod ctr32;
#[path = "rustcrypto/gost/mod.rs"]
mod gost;
