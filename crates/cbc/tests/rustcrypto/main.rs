//! RustCrypto's cbc 0.2.1 test suite (CAVP multi-block vectors, IV state), unchanged but for
//! the cipher: our `cbc` with the published `aes` 0.9.4. `tests/ours.rs` runs the same
//! files with our `aes`.

/// The block cipher the suite runs: the published `aes`.
use ::aes;

mod aes_cavp;
mod iv_state;
