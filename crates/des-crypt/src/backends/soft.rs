//! Portable: every hash through the single-hash path (the `des` crate's table DES with
//! the salt swap). The reference the bitsliced backends are tested against.

#![forbid(unsafe_code)]

use crate::Error;
use alloc::vec::Vec;

/// [`crate::crypt_many`], one hash at a time.
pub(crate) fn crypt_many<K: AsRef<[u8]>, S: AsRef<str>, T: crate::HashOut>(
    jobs: &[(K, S)],
) -> Vec<Result<T, Error>> {
    crate::run_many(jobs, 0, |_, _, _, _| unreachable!("soft has no batch"))
}

/// [`crate::crypt_keys`], one hash at a time.
pub(crate) fn crypt_keys<K: AsRef<[u8]>>(
    setting: &str,
    keys: &[K],
) -> Result<Vec<crate::CryptHash>, Error> {
    crate::run_keys(setting, keys, 0, |_, _, _, _| {
        unreachable!("soft has no batch")
    })
}

#[cfg(test)]
mod tests {
    /// `crypt_many` through `soft` against single `crypt` calls (the shared check).
    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft");
    }
}
