//! RustCrypto's ctr 0.10.1 test suite (vectors, counter wrap, seeking, IV state), unchanged
//! but for the cipher: our `ctr` with the published `aes` 0.9.4 (and the published GOST
//! ciphers). `tests/ours.rs` runs the same files with our `aes`.

/// The block cipher the suite runs: the published `aes`.
use ::aes;

mod ctr128;
mod ctr32;
mod gost;
