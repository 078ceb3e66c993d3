//! Bitsliced DES on NEON (aarch64): 128 hashes of one (salt, count) group per batch, the salt as a
//! swap of E-expansion outputs and each lane's key as its own key-bit planes. The code
//! is the `des` crate's (`des::__crypt::crypt_batch`); this file groups and encodes.

#![forbid(unsafe_code)]

use crate::Error;
use alloc::vec::Vec;

/// Hashes per batch.
const LANES: usize = 128;

/// [`crate::crypt_many`] in batches of [`LANES`].
pub(crate) fn crypt_many<K: AsRef<[u8]>, S: AsRef<str>, T: crate::HashOut>(
    jobs: &[(K, S)],
) -> Vec<Result<T, Error>> {
    crate::run_many(jobs, LANES, |keys, salt, count, out| {
        des::__crypt::crypt_batch("neon", keys, salt, count, out)
    })
}

/// [`crate::crypt_keys`] in batches of [`LANES`].
pub(crate) fn crypt_keys<K: AsRef<[u8]>>(
    setting: &str,
    keys: &[K],
) -> Result<Vec<crate::CryptHash>, Error> {
    crate::run_keys(setting, keys, LANES, |keys, salt, count, out| {
        des::__crypt::crypt_batch("neon", keys, salt, count, out)
    })
}

#[cfg(test)]
mod tests {
    /// `crypt_many` on neon against single `crypt` calls: groups of 1, around
    /// `BATCH_MIN` and around the batch width, traditional and BSDi, malformed settings.
    #[test]
    fn neon_matches_soft() {
        crate::backends::check_matches_soft("neon");
    }
}
