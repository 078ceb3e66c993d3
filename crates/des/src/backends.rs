//! Backend selection: the only place that decides which DES implementation runs.
//!
//! The backends are the rows of the `backends!` table below, most preferred first:
//! `detect()` returns the backend forced by `--cfg des_backend="…"`, else the first one
//! this CPU supports: `avx512` > `avx2` > `soft` on x86-64, `neon` > `soft` on aarch64.
//! A row's `blocks` is its backend's break-even batch size (`avx512::MIN_YMM`,
//! `avx2::MIN_BATCH`, measured with `benches/des.rs`: see the crate README;
//! `neon::MIN_BATCH`, estimated from instruction counts, see `neon.rs`); the backend hands
//! shorter calls to the `soft` code itself.
//!
//! Every backend uses the same compact key schedule ([`soft::Ks`], 128 bytes per DES key,
//! made by the table-driven key schedule); the bitsliced backends expand it into per-bit
//! masks inside each bulk call, so key setup costs the same on every backend and single
//! blocks never pay for it.

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    simdcrypt_rustc = "1.89"
))]
#[clippy::msrv = "1.89"]
pub(crate) mod bitslice;

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U8};
use soft::{Ks, Passes};

simdcrypt_dispatch::backends! {
    crate: "des", cfg: des_backend;
    /// Portable table-driven Rust, every target.
    "soft" => Soft;
    /// Bitsliced over 512 blocks in `zmm` registers.
    "avx512" => Avx512 {
        mod: avx512,
        arch: ["x86_64"],
        needs: ["avx512f", "avx512vl"],
        blocks: 40,
        rustc: "1.89",
    }
    /// Bitsliced over 256 blocks in `ymm` registers.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86_64"],
        needs: ["avx2"],
        blocks: 48,
        rustc: "1.89",
    }
    /// Bitsliced over 128 blocks in NEON `v` registers.
    // `blocks` is estimated, not measured (no aarch64 hardware here; see `neon.rs`): a
    // padded batch costs as much as a full one, ~46 cycles × 128 blocks on Neoverse N1
    // (~5 900), plus ~1 000 for the round-key masks, against ~168 cycles per block for
    // `soft`: break-even near 40 blocks. The real arm64 CI host's `des/neon` bench can
    // move it.
    "neon" => Neon {
        mod: neon,
        arch: ["aarch64"],
        needs: ["neon"],
        blocks: 40,
        rustc: "1.89",
    }
}

/// The round keys of `K` DES keys and the backend that runs them.
#[derive(Clone)]
pub(crate) struct Keys<const K: usize> {
    /// One compact key schedule per DES key (the layout every backend starts from).
    pub(crate) ks: [Ks; K],
    backend: Backend,
}

impl<const K: usize> Keys<K> {
    /// The key schedules of `key` (`8·K` bytes, big-endian DES keys) for `backend`.
    #[inline]
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        let ks = core::array::from_fn(|i| {
            let k: [u8; 8] = key[8 * i..8 * i + 8].try_into().expect("8-byte DES keys");
            let k = u64::from_be_bytes(k);
            // The table-driven schedule for `soft` (documented as not constant-time); the
            // bitsliced backends are, key setup included.
            dispatch!(backend => key_schedule(k))
        });
        Self { ks, backend }
    }

    /// Runs `f` with this backend's implementation of `passes` (encryption).
    #[inline]
    pub(crate) fn encrypt<const P: usize>(
        &self,
        passes: &Passes<P>,
        f: impl BlockCipherEncClosure<BlockSize = U8>,
    ) {
        let ks = &self.ks;
        dispatch!(self.backend => encrypt(ks, passes, f), soft => f.call(&soft::Backend {
            ks,
            passes: *passes,
        }))
    }

    /// Runs `f` with this backend's implementation of `passes` (decryption).
    #[inline]
    pub(crate) fn decrypt<const P: usize>(
        &self,
        passes: &Passes<P>,
        f: impl BlockCipherDecClosure<BlockSize = U8>,
    ) {
        let ks = &self.ks;
        dispatch!(self.backend => decrypt(ks, passes, f), soft => f.call(&soft::Backend {
            ks,
            passes: *passes,
        }))
    }
}

impl<const K: usize> Drop for Keys<K> {
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use cipher::zeroize::Zeroize;
            for k in self.ks.iter_mut() {
                k.zeroize();
            }
        }
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::{Backend, Keys};

    fn keys<const K: usize>(name: &str, key: &[u8]) -> Keys<K> {
        Keys::new(Backend::named(name), key)
    }

    macro_rules! with {
        ($($f:ident, $ty:ident, $k:literal, $n:literal;)*) => {$(
            #[doc = concat!("A [`", stringify!($ty), "`](crate::", stringify!($ty), ") that runs on backend `name`.")]
            ///
            /// # Panics
            /// If `name` is unknown or cannot run on this CPU.
            pub fn $f(name: &str, key: &[u8; $n]) -> crate::$ty {
                crate::$ty::from_keys(keys::<$k>(name, key))
            }
        )*};
    }

    with! {
        des_with, Des, 1, 8;
        tdes_ede2_with, TdesEde2, 2, 16;
        tdes_ede3_with, TdesEde3, 3, 24;
        tdes_eee2_with, TdesEee2, 2, 16;
        tdes_eee3_with, TdesEee3, 3, 24;
    }
}

/// Unstable, hidden: the DES building blocks of `crypt(3)` for the `des-crypt` crate.
///
/// Not part of the RustCrypto API and not covered by semver: it changes with `des-crypt`.
#[doc(hidden)]
pub mod __crypt {
    use super::{Backend, soft};
    use crate::Block;

    /// The key schedule of one DES key (FreeSec's `des_setkey`).
    #[derive(Clone)]
    pub struct Key(soft::Ks);

    impl Key {
        /// The round keys of the 8-byte DES key `key` (parity bits ignored).
        pub fn new(key: &[u8; 8]) -> Self {
            Key(soft::key_schedule(u64::from_be_bytes(*key)))
        }

        /// `count` chained DES passes over `block` with the 24-bit `salt` of `crypt(3)`
        /// (bit `k` swaps E outputs `k` and `k + 24`; 0 is plain DES), forwards or
        /// backwards (FreeSec's `do_des`). Runs the portable table code.
        pub fn crypt(&self, block: [u8; 8], salt: u32, count: u32, decrypt: bool) -> [u8; 8] {
            let x = u64::from_le_bytes(block);
            soft::crypt_salted(&self.0, salt & 0xFF_FFFF, count, decrypt, x).to_le_bytes()
        }
    }

    impl Drop for Key {
        #[inline]
        fn drop(&mut self) {
            #[cfg(feature = "zeroize")]
            {
                use cipher::zeroize::Zeroize;
                self.0.zeroize();
            }
        }
    }

    /// Keys per batch of backend `name` (0: no bitsliced batch, e.g. `soft`, or not
    /// available on this CPU).
    pub fn lanes(name: &str) -> usize {
        match Backend::by_name(name) {
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
            Some(Backend::Avx2(_)) => 256,
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
            Some(Backend::Avx512(_)) => 512,
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Some(Backend::Neon(_)) => 128,
            _ => 0,
        }
    }

    /// `count` salted DES encryptions of the all-zero block under each of `keys` (exactly
    /// [`lanes`]`(name)` of them) on backend `name`'s bitsliced batch, encoded as
    /// `crypt(3)` does: key `i`'s 11 hash characters (its result's 64 bits big-endian in
    /// 6-bit groups, `./0-9A-Za-z`) and 5 zero bytes are `text[i]` (bytes 0..8) then
    /// `text[lanes + i]` (bytes 8..16). The batch reads and writes the callers' buffers
    /// in place. Constant time (bitwise operations only, the encoding included).
    ///
    /// # Panics
    /// If `name` has no batch on this CPU, or `keys` is not [`lanes`]`(name)` long and
    /// `text` twice that.
    // Without a bitsliced backend in the build (another arch, Rust < 1.89) `lanes` is 0
    // and this only panics.
    #[cfg_attr(
        not(all(
            any(target_arch = "x86_64", target_arch = "aarch64"),
            simdcrypt_rustc = "1.89"
        )),
        allow(unused_variables, unreachable_code)
    )]
    pub fn crypt_batch(name: &str, keys: &[[u8; 8]], salt: u32, count: u32, text: &mut [[u8; 8]]) {
        let n = lanes(name);
        assert!(
            n != 0 && keys.len() == n && text.len() == 2 * n,
            "des: no crypt batch of {} keys on backend `{name}`",
            keys.len()
        );
        let salt = salt & 0xFF_FFFF;
        let (k, o) = (
            Block::cast_slice_from_core(keys),
            Block::cast_slice_from_core_mut(text),
        );
        match Backend::by_name(name) {
            // SAFETY: the token in `Avx2` proves the CPU has AVX2 (`crypt_batch`'s features).
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
            Some(Backend::Avx2(_)) => unsafe { super::avx2::crypt_batch(k, o, salt, count) },
            // SAFETY: the token in `Avx512` proves AVX-512F and AVX-512VL.
            #[cfg(all(target_arch = "x86_64", simdcrypt_rustc = "1.89"))]
            Some(Backend::Avx512(_)) => unsafe { super::avx512::crypt_batch(k, o, salt, count) },
            // SAFETY: the token in `Neon` proves the CPU has NEON.
            #[cfg(all(target_arch = "aarch64", simdcrypt_rustc = "1.89"))]
            Some(Backend::Neon(_)) => unsafe { super::neon::crypt_batch(k, o, salt, count) },
            _ => unreachable!("checked by `lanes`"),
        }
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `des`) through `testkit::harness::block` for DES and every
/// Triple-DES flavor.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::*;
    use testkit::harness::block_vs_soft_sized as check;

    if testkit::available(name, available(name)) {
        check::<rc_des::Des, _, 8>(name, 8, par, des_with);
        check::<rc_des::TdesEde2, _, 16>(name, 8, par, tdes_ede2_with);
        check::<rc_des::TdesEde3, _, 24>(name, 8, par, tdes_ede3_with);
        check::<rc_des::TdesEee2, _, 16>(name, 8, par, tdes_eee2_with);
        check::<rc_des::TdesEee3, _, 24>(name, 8, par, tdes_eee3_with);
    }
}

/// Every backend's key schedule equals the table-driven one of `soft` (the bitsliced
/// backends have their own, constant-time ones): random keys and the all-zero/all-one
/// corners.
#[cfg(test)]
#[test]
fn key_schedules_match_soft() {
    let mut rng = testkit::Rng::new(testkit::seed(0xDE5C7));
    // The bitsliced rows compiled into this build (another arch's are not a SKIP).
    for &name in __backends::ALL.iter().filter(|&&n| n != "soft") {
        let Some(backend) = Backend::by_name(name) else {
            testkit::available(name, false); // SKIP, or a panic under TESTKIT_REQUIRE
            continue;
        };
        for i in 0..20_000u32 {
            let key = match i {
                0 => 0,
                1 => u64::MAX,
                _ => rng.next_u64(),
            };
            assert_eq!(
                Keys::<1>::new(backend, &key.to_be_bytes()).ks[0],
                soft::key_schedule(key),
                "{name}, key {key:016x}"
            );
        }
    }
}
