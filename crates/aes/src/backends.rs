//! Backend selection: the only place that decides which AES implementation runs.
//!
//! `detect()` returns the backend forced by `--cfg aes_backend="…"`, else the best one
//! this CPU supports. A cipher stores its choice together with the key schedule in the
//! layout that backend needs ([`Keys`]), so a bulk call dispatches once and a key layout
//! can never meet the wrong backend.
//!
//! Preference on x86, the row order of the table below: `vaes256` > `vaes512` >
//! `aesni` > `avx2` > `soft`; on aarch64: `armv8` > `soft`.
//!
//! `vaes256` before `vaes512`, measured on this project's reference machine (Intel Xeon
//! with AVX-512 and VAES; one interleaved run, raw AES-128 `encrypt_blocks`, TSC cycles
//! per byte):
//!
//! | bytes | 128 | 256 | 512 | 1024 | 8192 | 16384 |
//! |---|---|---|---|---|---|---|
//! | `vaes256` | 0.273 | 0.220 | 0.169 | 0.150 | 0.125 | 0.126 |
//! | `vaes512` | 0.670 | 0.333 | 0.250 | 0.186 | 0.123 | 0.126 |
//!
//! This core sustains two 256-bit `vaesenc` per cycle but only one 512-bit one (8 KiB
//! = 2560 `ymm` or 1280 `zmm` instructions in about 1020 TSC cycles), so both do four
//! blocks per cycle and long
//! messages run at the same speed; `zmm` only adds cost — broadcasting the round keys
//! to 512 bits, 32-block batches that leave more of a short message to the narrow
//! tail paths, and AVX-512 frequency licences on some parts. Zen 4 splits `zmm` into
//! two `ymm` halves (equal again); only cores with two full 512-bit AES units (Zen 5,
//! Granite Rapids and later) would favour `vaes512`, which can be forced with
//! `--cfg aes_backend="vaes512"` and is kept compiled for that.
//!
//! `vaes256` needs VAES with AVX2 only (the dispatch crate reads VAES as the instruction
//! bit alone and the `ymm` state from `avx2`), so AVX2-only CPUs with VAES (e.g. Zen 3,
//! Alder Lake) qualify.

use cipher::{BlockCipherDecClosure, BlockCipherEncClosure, consts::U16};
#[cfg(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"))]
use simdcrypt_dispatch::modes::CbcEncrypt;

/// Round keys in the layout of the AES-instruction backends (x86 AES-NI and VAES, ARMv8):
/// `enc[i]` is `K_i` in FIPS-197 byte order, `dec[0] = K_Nr`, `dec[i] =
/// InvMixColumns(K_{Nr-i})`, `dec[Nr] = K_0` (the Equivalent Inverse Cipher).
#[cfg(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64"))]
#[derive(Clone)]
pub(crate) struct HwKeys<const R: usize> {
    pub(crate) enc: [[u8; 16]; R],
    pub(crate) dec: [[u8; 16]; R],
}

#[cfg(all(
    feature = "zeroize",
    any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")
))]
impl<const R: usize> zeroize::Zeroize for HwKeys<R> {
    fn zeroize(&mut self) {
        self.enc.zeroize();
        self.dec.zeroize();
    }
}

simdcrypt_dispatch::backends! {
    crate: "aes", cfg: aes_backend;
    /// Portable fixsliced Rust, every target.
    "soft" => Soft;
    /// VAES on `ymm`, 16 blocks in flight.
    "vaes256" => Vaes256 {
        mod: vaes256,
        arch: ["x86", "x86_64"],
        needs: ["aes", "ssse3", "avx2", "vaes"],
    }
    /// VAES on `zmm`, 32 blocks in flight.
    "vaes512" => Vaes512 {
        mod: vaes512,
        arch: ["x86", "x86_64"],
        needs: ["aes", "ssse3", "avx512f", "vaes"],
    }
    /// AES-NI on `xmm`, 8 blocks in flight.
    "aesni" => Aesni {
        mod: aesni,
        arch: ["x86", "x86_64"],
        needs: ["aes", "ssse3"],
    }
    /// Fixsliced like `Soft`, four batches in the lanes of `ymm`: 16 blocks at once.
    "avx2" => Avx2 {
        mod: avx2,
        arch: ["x86", "x86_64"],
        needs: ["avx2"],
    }
    /// ARMv8 Cryptography Extensions (`AESE`/`AESMC`) on NEON, 8 blocks in flight.
    "armv8" => Armv8 {
        mod: armv8,
        arch: ["aarch64"],
        needs: ["neon", "aes"],
    }
}

/// Whether AES hardware acceleration (AES-NI, ARMv8 AES) is used on this machine.
pub(crate) fn hardware_accelerated() -> bool {
    match detect() {
        Backend::Soft => false,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Avx2(_) => false,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Backend::Aesni(_) | Backend::Vaes256(_) | Backend::Vaes512(_) => true,
        #[cfg(target_arch = "aarch64")]
        Backend::Armv8(_) => true,
    }
}

/// A key schedule in the layout of the backend that will use it (the backend's token
/// inside): `R` round keys, 11/13/15 for AES-128/192/256.
#[derive(Clone)]
pub(crate) enum Keys<const R: usize> {
    /// Bitsliced, pre-twisted round keys of the `soft` backend (encryption and
    /// decryption use the same ones).
    Soft(soft::Keys<R>),
    /// The `soft` layout, run on `ymm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2(token::Avx2, soft::Keys<R>),
    /// AES-NI layout, run on `xmm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Aesni(token::Aesni, HwKeys<R>),
    /// AES-NI layout, run on `ymm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Vaes256(token::Vaes256, HwKeys<R>),
    /// AES-NI layout, run on `zmm`.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Vaes512(token::Vaes512, HwKeys<R>),
    /// The same layout, run with the ARMv8 AES instructions.
    #[cfg(target_arch = "aarch64")]
    Armv8(token::Armv8, HwKeys<R>),
}

impl<const R: usize> Keys<R> {
    /// The key schedule of `key` (16, 24 or 32 bytes) for `backend`.
    #[inline]
    pub(crate) fn new(backend: Backend, key: &[u8]) -> Self {
        match backend {
            Backend::Soft => Keys::Soft(soft::Keys::new(key)),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2(t) => Keys::Avx2(t, soft::Keys::new(key)),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the token proves the CPU has AES-NI and SSSE3, the target features
            // of `aesni::expand`.
            Backend::Aesni(t) => Keys::Aesni(t, unsafe { aesni::expand(key) }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: as above (a `token::Vaes256` implies AES-NI and SSSE3).
            Backend::Vaes256(t) => Keys::Vaes256(t, unsafe { aesni::expand(key) }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: as above (a `token::Vaes512` implies AES-NI and SSSE3).
            Backend::Vaes512(t) => Keys::Vaes512(t, unsafe { aesni::expand(key) }),
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the token proves the CPU has the AES extension (and NEON), the
            // target feature of `armv8::expand`.
            Backend::Armv8(t) => Keys::Armv8(t, unsafe { armv8::expand(key) }),
        }
    }

    /// Runs `f` with this backend's encryption. `cbc`'s CBC-encryption request runs in
    /// `aesni::cbc_encrypt`'s own loop where the CPU has AES-NI (the `xmm` chain is the
    /// same for the VAES backends), and in `armv8::cbc_encrypt`'s with the ARMv8 AES
    /// instructions; every other closure, and the request elsewhere, runs as a closure.
    #[inline]
    pub(crate) fn encrypt(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let f = match self {
            Keys::Aesni(_, k) | Keys::Vaes256(_, k) | Keys::Vaes512(_, k) => {
                // SAFETY: the token proves the CPU has AES-NI and SSSE3, the target
                // features of `aesni::cbc_encrypt` (`token::Vaes256` and `token::Vaes512`
                // imply them).
                match CbcEncrypt::intercept(f, |request| unsafe { aesni::cbc_encrypt(k, request) })
                {
                    Ok(()) => return,
                    Err(f) => f,
                }
            }
            _ => f,
        };
        #[cfg(target_arch = "aarch64")]
        let f = match self {
            Keys::Armv8(_, k) => {
                // SAFETY: the token proves the CPU has the AES extension and NEON, the
                // target features of `armv8::cbc_encrypt`.
                match CbcEncrypt::intercept(f, |request| unsafe { armv8::cbc_encrypt(k, request) })
                {
                    Ok(()) => return,
                    Err(f) => f,
                }
            }
            _ => f,
        };
        match self {
            Keys::Soft(k) => k.encrypt(f),
            // SAFETY: the token proves the CPU has the target features of `avx2::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Avx2(_, k) => unsafe { avx2::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `aesni::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Aesni(_, k) => unsafe { aesni::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes256::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes256(_, k) => unsafe { vaes256::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes512::encrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes512(_, k) => unsafe { vaes512::encrypt(k, f) },
            // SAFETY: the token proves the CPU has the target feature of `armv8::encrypt`.
            #[cfg(target_arch = "aarch64")]
            Keys::Armv8(_, k) => unsafe { armv8::encrypt(k, f) },
        }
    }

    /// Runs `f` with this backend's decryption.
    #[inline]
    pub(crate) fn decrypt(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        match self {
            Keys::Soft(k) => k.decrypt(f),
            // SAFETY: the token proves the CPU has the target features of `avx2::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Avx2(_, k) => unsafe { avx2::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `aesni::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Aesni(_, k) => unsafe { aesni::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes256::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes256(_, k) => unsafe { vaes256::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target features of `vaes512::decrypt`.
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Vaes512(_, k) => unsafe { vaes512::decrypt(k, f) },
            // SAFETY: the token proves the CPU has the target feature of `armv8::decrypt`.
            #[cfg(target_arch = "aarch64")]
            Keys::Armv8(_, k) => unsafe { armv8::decrypt(k, f) },
        }
    }

    /// Overwrites the key material with zeros.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        use zeroize::Zeroize;
        match self {
            Keys::Soft(k) => k.zeroize(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Avx2(_, k) => k.zeroize(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Keys::Aesni(_, k) | Keys::Vaes256(_, k) | Keys::Vaes512(_, k) => k.zeroize(),
            #[cfg(target_arch = "aarch64")]
            Keys::Armv8(_, k) => k.zeroize(),
        }
    }
}

/// The hazmat round functions: the AES instructions (AES-NI, ARMv8) when the CPU has them
/// and the selected backend uses them (not with `soft` or `avx2` forced), else the
/// bitsliced `soft` code. `blocks` and `keys` have the same length (1 or 8).
#[cfg(feature = "hazmat")]
pub(crate) mod hazmat {
    use super::*;
    use crate::Block;

    /// Calls `$f` of the instruction backend if it may be used, else of `soft`.
    macro_rules! hw {
        ($f:ident($($arg:expr),*)) => {{
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            if let (true, Some(_)) = (hardware_accelerated(), token::Aesni::get()) {
                // SAFETY: `token::Aesni::get` found AES-NI and SSSE3, the target features
                // of the `aesni` functions.
                return unsafe { aesni::$f($($arg),*) };
            }
            #[cfg(target_arch = "aarch64")]
            if let (true, Some(_)) = (hardware_accelerated(), token::Armv8::get()) {
                // SAFETY: `token::Armv8::get` found the AES extension and NEON, the target
                // features of the `armv8` functions.
                return unsafe { armv8::$f($($arg),*) };
            }
            soft::$f($($arg),*)
        }};
    }

    /// `AESENC` on each block with its round key.
    pub(crate) fn cipher_round(blocks: &mut [Block], keys: &[Block]) {
        hw!(cipher_round(blocks, keys))
    }

    /// `AESDEC` on each block with its round key.
    pub(crate) fn equiv_inv_cipher_round(blocks: &mut [Block], keys: &[Block]) {
        hw!(equiv_inv_cipher_round(blocks, keys))
    }

    /// MixColumns.
    pub(crate) fn mix_columns(block: &mut Block) {
        hw!(mix_columns(block))
    }

    /// InvMixColumns.
    pub(crate) fn inv_mix_columns(block: &mut Block) {
        hw!(inv_mix_columns(block))
    }
}

/// Unstable, hidden: the backends by name, for benches, tests and the `speed` tool.
///
/// Not part of the RustCrypto API and not covered by semver.
#[doc(hidden)]
pub mod __backends {
    pub use super::__table::*;
    use super::{Backend, Keys};

    fn keys<const R: usize>(name: &str, key: &[u8]) -> Keys<R> {
        Keys::new(Backend::named(name), key)
    }

    macro_rules! with {
        ($($f:ident, $ty:ident, $n:literal, $doc:literal;)*) => {$(
            #[doc = $doc]
            ///
            /// # Panics
            /// If `name` is unknown or cannot run on this CPU.
            pub fn $f(name: &str, key: &[u8; $n]) -> crate::$ty {
                crate::$ty::from_keys(keys(name, key))
            }
        )*};
    }

    with! {
        aes128_with, Aes128, 16, "An [`Aes128`](crate::Aes128) that runs on backend `name`.";
        aes192_with, Aes192, 24, "An [`Aes192`](crate::Aes192) that runs on backend `name`.";
        aes256_with, Aes256, 32, "An [`Aes256`](crate::Aes256) that runs on backend `name`.";
    }
}

/// The in-process test every backend file runs: `name` against `soft` (for `soft` itself,
/// against RustCrypto's `aes`) through `testkit::harness::block` for all three key sizes.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{aes128_with, aes192_with, aes256_with, available};
    use testkit::harness::block_vs_soft_sized as check;

    if testkit::available(name, available(name)) {
        check::<rc_aes::Aes128, _, 16>(name, 16, par, aes128_with);
        check::<rc_aes::Aes192, _, 24>(name, 16, par, aes192_with);
        check::<rc_aes::Aes256, _, 32>(name, 16, par, aes256_with);
    }
}

/// `cbc`'s CBC-encryption request (its bulk path, which `aesni::cbc_encrypt` runs for the
/// x86 hardware backends) on backend `name` against `soft` (whose chain is the request's
/// plain closure), through `testkit::harness::block` for all three key sizes: lengths
/// around `par`, misaligned buffers, sentinels. The IV is fixed; after each call it must be
/// the last ciphertext block. Decryption is ECB decryption and the XOR with the previous
/// ciphertext block.
#[cfg(test)]
pub(crate) fn check_cbc_matches_soft(name: &str, par: usize) {
    use __backends::{aes128_with, aes192_with, aes256_with, available};
    use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, inout::InOutBuf};
    use simdcrypt_dispatch::modes::CbcEncrypt;

    const IV: [u8; 16] = [0xA5; 16];

    fn enc<C: BlockCipherEncrypt<BlockSize = U16>>(c: &C, input: &[u8], output: &mut [u8]) {
        let (i, _) = Array::slice_as_chunks(input);
        let (o, _) = Array::slice_as_chunks_mut(output);
        let mut iv = Array(IV);
        let blocks = InOutBuf::new(i, o).expect("same lengths");
        c.encrypt_with_backend(CbcEncrypt {
            iv: &mut iv,
            blocks,
        });
        assert_eq!(
            iv.0,
            *o.last().map_or(&IV, |b| &b.0),
            "the chaining value after the call"
        );
    }

    fn dec<C: BlockCipherDecrypt<BlockSize = U16>>(c: &C, input: &[u8], output: &mut [u8]) {
        testkit::harness::decrypt_b2b(c, input, output);
        let previous = core::iter::once(&IV[..]).chain(input.chunks(16));
        for (o, p) in output.chunks_mut(16).zip(previous) {
            o.iter_mut().zip(p).for_each(|(o, p)| *o ^= p);
        }
    }

    fn run<C>(name: &str, par: usize, key_len: usize, with: impl Fn(&str, &[u8]) -> C)
    where
        C: BlockCipherEncrypt<BlockSize = U16> + BlockCipherDecrypt<BlockSize = U16>,
    {
        let with = &with;
        let new = |backend| move |k: &[u8]| with(backend, k);
        let (soft, ours) = ((new("soft"), enc, dec), (new(name), enc, dec));
        testkit::harness::block(name, 16, par, |rng| rng.bytes(key_len), soft, ours);
    }

    if testkit::available(name, available(name)) {
        run(name, par, 16, |b, k| aes128_with(b, k.try_into().unwrap()));
        run(name, par, 24, |b, k| aes192_with(b, k.try_into().unwrap()));
        run(name, par, 32, |b, k| aes256_with(b, k.try_into().unwrap()));
    }
}
