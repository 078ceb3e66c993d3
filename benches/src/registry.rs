//! Every algorithm `speed` knows, in one table, and the generic runners behind it.
//!
//! A new crate adds one [`Alg`] entry to [`ALGS`]. A digest entry names its types
//! through [`digest()`], a stream cipher through [`stream()`]. A block-cipher mode (CBC
//! with a persistent IV, CTR) adds a runner of the same shape next to these: a struct
//! that holds the initialised mode, implements [`Runner::run`] by encrypting the
//! buffer in place, and a generic `fn() -> Box<dyn Runner>` that builds it. Its
//! OpenSSL peer is an `EVP_CIPHER` name (`Evp::Cipher("AES-128-CBC")`) run through
//! the same persistent context as RC4; for block ciphers that runner must write to a
//! scratch buffer, as the `openssl` crate's in-place update wants one spare block.

use std::hint::black_box;
use std::marker::PhantomData;

use cipher::{
    Array, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser, InnerIvInit,
    KeyInit, KeyIvInit, StreamCipher, StreamCipherCore,
};
use digest::Digest;

/// One implementation of one algorithm, set up (keyed) and ready to process buffers.
pub trait Runner {
    /// One operation, as `openssl speed` counts them: hash all of `buf` (the digest
    /// is thrown away), or encrypt `buf` in place, continuing the cipher's state.
    fn run(&mut self, buf: &mut [u8]);

    /// The bytes one operation makes from `input` (the digest or the ciphertext);
    /// used to check that every implementation computes the same thing.
    fn output(&mut self, input: &[u8]) -> Vec<u8> {
        let mut buf = input.to_vec();
        self.run(&mut buf);
        buf
    }
}

/// Builds a fresh runner with the fixed benchmark key.
pub type Factory = fn() -> Box<dyn Runner>;

/// The name of an algorithm in OpenSSL's libcrypto, for `EVP_MD_fetch` or
/// `EVP_CIPHER_fetch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evp {
    /// A message digest, hashed one-shot per operation like `EVP_Digest`.
    Digest(&'static str),
    /// A cipher, run through one persistent `EVP_CIPHER_CTX` in place.
    Cipher(&'static str),
}

impl Evp {
    /// The name libcrypto knows the algorithm by.
    pub fn name(self) -> &'static str {
        match self {
            Evp::Digest(name) | Evp::Cipher(name) => name,
        }
    }
}

/// One algorithm and every implementation of it that `speed` can run.
pub struct Alg {
    /// The name `openssl speed` uses (`md5`, `rc4`, `aes-128-cbc`, ...).
    pub name: &'static str,
    /// simdcrypt's crate.
    pub ours: Factory,
    /// The RustCrypto crate ours replaces.
    pub rustcrypto: Factory,
    /// The same algorithm in OpenSSL's libcrypto, if it has it.
    pub openssl: Option<Evp>,
}

/// The key every cipher is benchmarked with (its first `KEY_LEN` bytes).
const KEY: [u8; 32] = [
    0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12,
    0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x56,
];

/// The benchmark key of length `len`.
pub fn key(len: usize) -> &'static [u8] {
    &KEY[..len]
}

/// Every algorithm, in the order `openssl speed` prints them.
pub const ALGS: &[Alg] = &[
    Alg {
        name: "md2",
        ours: digest::<md2::Md2>,
        rustcrypto: digest::<rc_md2::Md2>,
        // OpenSSL 3 is built without MD2 (no provider has it).
        openssl: None,
    },
    Alg {
        name: "md5",
        ours: digest::<md5::Md5>,
        rustcrypto: digest::<rc_md5::Md5>,
        openssl: Some(Evp::Digest("MD5")),
    },
    Alg {
        name: "sha1",
        ours: digest::<sha1::Sha1>,
        rustcrypto: digest::<rc_sha1::Sha1>,
        openssl: Some(Evp::Digest("SHA1")),
    },
    Alg {
        name: "rmd160",
        ours: digest::<ripemd::Ripemd160>,
        rustcrypto: digest::<rc_ripemd::Ripemd160>,
        openssl: Some(Evp::Digest("RIPEMD160")),
    },
    Alg {
        name: "md5-mb16",
        ours: || many::<16, 16>(|m, o| md5::multi::digest_into(m, o)),
        rustcrypto: || many::<16, 16>(each::<rc_md5::Md5, 16>),
        openssl: None,
    },
    Alg {
        name: "sha1-mb16",
        ours: || many::<16, 20>(|m, o| sha1::multi::digest_into(m, o)),
        rustcrypto: || many::<16, 20>(each::<rc_sha1::Sha1, 20>),
        openssl: None,
    },
    Alg {
        name: "rc4",
        ours: stream::<rc4::Rc4, 16>,
        rustcrypto: stream::<rc_rc4::Rc4, 16>,
        openssl: Some(Evp::Cipher("RC4")),
    },
    Alg {
        name: "aes-128-cbc",
        ours: block_mode::<cbc::Encryptor<aes::Aes128>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_aes::Aes128>>,
        openssl: Some(Evp::Cipher("AES-128-CBC")),
    },
    Alg {
        name: "aes-192-cbc",
        ours: block_mode::<cbc::Encryptor<aes::Aes192>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_aes::Aes192>>,
        openssl: Some(Evp::Cipher("AES-192-CBC")),
    },
    Alg {
        name: "aes-256-cbc",
        ours: block_mode::<cbc::Encryptor<aes::Aes256>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_aes::Aes256>>,
        openssl: Some(Evp::Cipher("AES-256-CBC")),
    },
    Alg {
        name: "aes-128-cbc-dec",
        ours: block_mode_dec::<cbc::Decryptor<aes::Aes128>>,
        rustcrypto: block_mode_dec::<rc_cbc::Decryptor<rc_aes::Aes128>>,
        // `speed`'s OpenSSL runner encrypts only.
        openssl: None,
    },
    Alg {
        name: "aes-256-cbc-dec",
        ours: block_mode_dec::<cbc::Decryptor<aes::Aes256>>,
        rustcrypto: block_mode_dec::<rc_cbc::Decryptor<rc_aes::Aes256>>,
        openssl: None,
    },
    Alg {
        name: "aes-128-ctr",
        ours: stream_iv::<ctr::Ctr128BE<aes::Aes128>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_aes::Aes128>>,
        openssl: Some(Evp::Cipher("AES-128-CTR")),
    },
    Alg {
        name: "aes-192-ctr",
        ours: stream_iv::<ctr::Ctr128BE<aes::Aes192>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_aes::Aes192>>,
        openssl: Some(Evp::Cipher("AES-192-CTR")),
    },
    Alg {
        name: "aes-256-ctr",
        ours: stream_iv::<ctr::Ctr128BE<aes::Aes256>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_aes::Aes256>>,
        openssl: Some(Evp::Cipher("AES-256-CTR")),
    },
    Alg {
        name: "aes-128-ecb",
        ours: ecb::<aes::Aes128>,
        rustcrypto: ecb::<rc_aes::Aes128>,
        openssl: Some(Evp::Cipher("AES-128-ECB")),
    },
    Alg {
        name: "aes-192-ecb",
        ours: ecb::<aes::Aes192>,
        rustcrypto: ecb::<rc_aes::Aes192>,
        openssl: Some(Evp::Cipher("AES-192-ECB")),
    },
    Alg {
        name: "aes-256-ecb",
        ours: ecb::<aes::Aes256>,
        rustcrypto: ecb::<rc_aes::Aes256>,
        openssl: Some(Evp::Cipher("AES-256-ECB")),
    },
    Alg {
        name: "des-cbc",
        ours: block_mode::<cbc::Encryptor<des::Des>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_des::Des>>,
        openssl: Some(Evp::Cipher("DES-CBC")),
    },
    Alg {
        name: "des-ctr",
        ours: stream_iv::<ctr::Ctr64BE<des::Des>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr64BE<rc_des::Des>>,
        openssl: None,
    },
    Alg {
        name: "des-ecb",
        ours: ecb::<des::Des>,
        rustcrypto: ecb::<rc_des::Des>,
        openssl: Some(Evp::Cipher("DES-ECB")),
    },
    Alg {
        name: "des-ede3",
        ours: block_mode::<cbc::Encryptor<des::TdesEde3>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_des::TdesEde3>>,
        openssl: Some(Evp::Cipher("DES-EDE3-CBC")),
    },
    Alg {
        name: "des-ede3-ctr",
        ours: stream_iv::<ctr::Ctr64BE<des::TdesEde3>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr64BE<rc_des::TdesEde3>>,
        openssl: None,
    },
    Alg {
        name: "des-ede3-ecb",
        ours: ecb::<des::TdesEde3>,
        rustcrypto: ecb::<rc_des::TdesEde3>,
        openssl: Some(Evp::Cipher("DES-EDE3-ECB")),
    },
    Alg {
        name: "idea-cbc",
        ours: block_mode::<cbc::Encryptor<idea::Idea>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_idea::Idea>>,
        openssl: None,
    },
    Alg {
        name: "idea-ctr",
        ours: stream_iv::<ctr::Ctr64BE<idea::Idea>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr64BE<rc_idea::Idea>>,
        openssl: None,
    },
    Alg {
        name: "idea-ecb",
        ours: ecb::<idea::Idea>,
        rustcrypto: ecb::<rc_idea::Idea>,
        openssl: None,
    },
    Alg {
        name: "rc2-cbc",
        ours: block_mode_k::<cbc::Encryptor<rc2::Rc2>, 16>,
        rustcrypto: block_mode_k::<rc_cbc::Encryptor<rc_rc2::Rc2>, 16>,
        openssl: Some(Evp::Cipher("RC2-CBC")),
    },
    Alg {
        name: "rc2-ctr",
        ours: stream_core_k::<ctr::CtrCore<rc2::Rc2, ctr::flavors::Ctr64BE>, 16>,
        rustcrypto: stream_core_k::<rc_ctr::CtrCore<rc_rc2::Rc2, rc_ctr::flavors::Ctr64BE>, 16>,
        openssl: None,
    },
    Alg {
        name: "rc2-ecb",
        ours: ecb_k::<rc2::Rc2, 16>,
        rustcrypto: ecb_k::<rc_rc2::Rc2, 16>,
        openssl: Some(Evp::Cipher("RC2-ECB")),
    },
    Alg {
        name: "bf-cbc",
        ours: block_mode_k::<cbc::Encryptor<blowfish::Blowfish>, 16>,
        rustcrypto: block_mode_k::<rc_cbc::Encryptor<rc_blowfish::Blowfish>, 16>,
        openssl: Some(Evp::Cipher("BF-CBC")),
    },
    Alg {
        name: "bf-ctr",
        ours: stream_core_k::<ctr::CtrCore<blowfish::Blowfish, ctr::flavors::Ctr64BE>, 16>,
        rustcrypto: stream_core_k::<
            rc_ctr::CtrCore<rc_blowfish::Blowfish, rc_ctr::flavors::Ctr64BE>,
            16,
        >,
        openssl: None,
    },
    Alg {
        name: "bf-ecb",
        ours: ecb_k::<blowfish::Blowfish, 16>,
        rustcrypto: ecb_k::<rc_blowfish::Blowfish, 16>,
        openssl: Some(Evp::Cipher("BF-ECB")),
    },
    Alg {
        name: "cast-cbc",
        ours: block_mode::<cbc::Encryptor<cast5::Cast5>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_cast5::Cast5>>,
        openssl: Some(Evp::Cipher("CAST5-CBC")),
    },
    Alg {
        name: "cast-ctr",
        ours: stream_iv::<ctr::Ctr64BE<cast5::Cast5>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr64BE<rc_cast5::Cast5>>,
        openssl: None,
    },
    Alg {
        name: "cast-ecb",
        ours: ecb::<cast5::Cast5>,
        rustcrypto: ecb::<rc_cast5::Cast5>,
        openssl: Some(Evp::Cipher("CAST5-ECB")),
    },
    Alg {
        name: "camellia-128-cbc",
        ours: block_mode::<cbc::Encryptor<camellia::Camellia128>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_camellia::Camellia128>>,
        openssl: Some(Evp::Cipher("CAMELLIA-128-CBC")),
    },
    Alg {
        name: "camellia-128-ctr",
        ours: stream_iv::<ctr::Ctr128BE<camellia::Camellia128>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_camellia::Camellia128>>,
        openssl: Some(Evp::Cipher("CAMELLIA-128-CTR")),
    },
    Alg {
        name: "camellia-128-ecb",
        ours: ecb::<camellia::Camellia128>,
        rustcrypto: ecb::<rc_camellia::Camellia128>,
        openssl: Some(Evp::Cipher("CAMELLIA-128-ECB")),
    },
    Alg {
        name: "camellia-192-cbc",
        ours: block_mode::<cbc::Encryptor<camellia::Camellia192>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_camellia::Camellia192>>,
        openssl: Some(Evp::Cipher("CAMELLIA-192-CBC")),
    },
    Alg {
        name: "camellia-192-ctr",
        ours: stream_iv::<ctr::Ctr128BE<camellia::Camellia192>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_camellia::Camellia192>>,
        openssl: Some(Evp::Cipher("CAMELLIA-192-CTR")),
    },
    Alg {
        name: "camellia-192-ecb",
        ours: ecb::<camellia::Camellia192>,
        rustcrypto: ecb::<rc_camellia::Camellia192>,
        openssl: Some(Evp::Cipher("CAMELLIA-192-ECB")),
    },
    Alg {
        name: "camellia-256-cbc",
        ours: block_mode::<cbc::Encryptor<camellia::Camellia256>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_camellia::Camellia256>>,
        openssl: Some(Evp::Cipher("CAMELLIA-256-CBC")),
    },
    Alg {
        name: "camellia-256-ctr",
        ours: stream_iv::<ctr::Ctr128BE<camellia::Camellia256>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_camellia::Camellia256>>,
        openssl: Some(Evp::Cipher("CAMELLIA-256-CTR")),
    },
    Alg {
        name: "camellia-256-ecb",
        ours: ecb::<camellia::Camellia256>,
        rustcrypto: ecb::<rc_camellia::Camellia256>,
        openssl: Some(Evp::Cipher("CAMELLIA-256-ECB")),
    },
    Alg {
        name: "serpent-cbc",
        ours: block_mode::<cbc::Encryptor<serpent::Serpent>>,
        rustcrypto: block_mode::<rc_cbc::Encryptor<rc_serpent::Serpent>>,
        openssl: None,
    },
    Alg {
        name: "serpent-ctr",
        ours: stream_iv::<ctr::Ctr128BE<serpent::Serpent>>,
        rustcrypto: stream_iv::<rc_ctr::Ctr128BE<rc_serpent::Serpent>>,
        openssl: None,
    },
    Alg {
        name: "serpent-ecb",
        ours: ecb::<serpent::Serpent>,
        rustcrypto: ecb::<rc_serpent::Serpent>,
        openssl: None,
    },
    Alg {
        name: "twofish-cbc",
        ours: block_mode_k::<cbc::Encryptor<twofish::Twofish>, 16>,
        rustcrypto: block_mode_k::<rc_cbc::Encryptor<rc_twofish::Twofish>, 16>,
        openssl: None,
    },
    Alg {
        name: "twofish-ctr",
        ours: stream_core_k::<ctr::CtrCore<twofish::Twofish, ctr::flavors::Ctr128BE>, 16>,
        rustcrypto: stream_core_k::<
            rc_ctr::CtrCore<rc_twofish::Twofish, rc_ctr::flavors::Ctr128BE>,
            16,
        >,
        openssl: None,
    },
    Alg {
        name: "twofish-ecb",
        ours: ecb_k::<twofish::Twofish, 16>,
        rustcrypto: ecb_k::<rc_twofish::Twofish, 16>,
        openssl: None,
    },
];

/// Our cipher through the published `cbc` 0.2.1 / `ctr` 0.10.1 instead of this workspace's
/// `cbc`/`ctr`, for the mode rows (`speed --modes published`): what a user gets who swaps
/// in our cipher crate but not our mode crates. `None` for rows that are not a mode.
pub fn published_mode(name: &str) -> Option<Factory> {
    Some(match name {
        "aes-128-cbc" => block_mode::<rc_cbc::Encryptor<aes::Aes128>>,
        "aes-192-cbc" => block_mode::<rc_cbc::Encryptor<aes::Aes192>>,
        "aes-256-cbc" => block_mode::<rc_cbc::Encryptor<aes::Aes256>>,
        "aes-128-cbc-dec" => block_mode_dec::<rc_cbc::Decryptor<aes::Aes128>>,
        "aes-256-cbc-dec" => block_mode_dec::<rc_cbc::Decryptor<aes::Aes256>>,
        "aes-128-ctr" => stream_iv::<rc_ctr::Ctr128BE<aes::Aes128>>,
        "aes-192-ctr" => stream_iv::<rc_ctr::Ctr128BE<aes::Aes192>>,
        "aes-256-ctr" => stream_iv::<rc_ctr::Ctr128BE<aes::Aes256>>,
        "des-cbc" => block_mode::<rc_cbc::Encryptor<des::Des>>,
        "des-ctr" => stream_iv::<rc_ctr::Ctr64BE<des::Des>>,
        "des-ede3" => block_mode::<rc_cbc::Encryptor<des::TdesEde3>>,
        "des-ede3-ctr" => stream_iv::<rc_ctr::Ctr64BE<des::TdesEde3>>,
        "idea-cbc" => block_mode::<rc_cbc::Encryptor<idea::Idea>>,
        "idea-ctr" => stream_iv::<rc_ctr::Ctr64BE<idea::Idea>>,
        "rc2-cbc" => block_mode_k::<rc_cbc::Encryptor<rc2::Rc2>, 16>,
        "rc2-ctr" => stream_core_k::<rc_ctr::CtrCore<rc2::Rc2, rc_ctr::flavors::Ctr64BE>, 16>,
        "bf-cbc" => block_mode_k::<rc_cbc::Encryptor<blowfish::Blowfish>, 16>,
        "bf-ctr" => {
            stream_core_k::<rc_ctr::CtrCore<blowfish::Blowfish, rc_ctr::flavors::Ctr64BE>, 16>
        }
        "cast-cbc" => block_mode::<rc_cbc::Encryptor<cast5::Cast5>>,
        "cast-ctr" => stream_iv::<rc_ctr::Ctr64BE<cast5::Cast5>>,
        "camellia-128-cbc" => block_mode::<rc_cbc::Encryptor<camellia::Camellia128>>,
        "camellia-128-ctr" => stream_iv::<rc_ctr::Ctr128BE<camellia::Camellia128>>,
        "camellia-192-cbc" => block_mode::<rc_cbc::Encryptor<camellia::Camellia192>>,
        "camellia-192-ctr" => stream_iv::<rc_ctr::Ctr128BE<camellia::Camellia192>>,
        "camellia-256-cbc" => block_mode::<rc_cbc::Encryptor<camellia::Camellia256>>,
        "camellia-256-ctr" => stream_iv::<rc_ctr::Ctr128BE<camellia::Camellia256>>,
        "serpent-cbc" => block_mode::<rc_cbc::Encryptor<serpent::Serpent>>,
        "serpent-ctr" => stream_iv::<rc_ctr::Ctr128BE<serpent::Serpent>>,
        "twofish-cbc" => block_mode_k::<rc_cbc::Encryptor<twofish::Twofish>, 16>,
        "twofish-ctr" => {
            stream_core_k::<rc_ctr::CtrCore<twofish::Twofish, rc_ctr::flavors::Ctr128BE>, 16>
        }
        _ => return None,
    })
}

/// The names of every algorithm, in table order.
pub fn names() -> Vec<&'static str> {
    ALGS.iter().map(|alg| alg.name).collect()
}

/// A multi-buffer hash: the digests of `msgs` into `out` (same lengths).
pub type HashMany<const OUT: usize> = fn(&[&[u8]], &mut [[u8; OUT]]);

/// Hashes the buffer as `N` independent messages (equal segments, the last one takes
/// the remainder) in one call, for the `-mbN` rows: bytes per operation are the
/// buffer's, so the figures are aggregate throughput.
struct ManyRunner<const N: usize, const OUT: usize>(HashMany<OUT>);

fn segments<const N: usize>(buf: &[u8]) -> [&[u8]; N] {
    let len = buf.len() / N;
    std::array::from_fn(|i| {
        if i + 1 < N {
            &buf[i * len..(i + 1) * len]
        } else {
            &buf[i * len..]
        }
    })
}

impl<const N: usize, const OUT: usize> Runner for ManyRunner<N, OUT> {
    fn run(&mut self, buf: &mut [u8]) {
        let mut out = [[0u8; OUT]; N];
        (self.0)(&segments::<N>(black_box(&*buf)), &mut out);
        black_box(out);
    }

    fn output(&mut self, input: &[u8]) -> Vec<u8> {
        let mut out = [[0u8; OUT]; N];
        (self.0)(&segments::<N>(input), &mut out);
        out.as_flattened().to_vec()
    }
}

/// The runner hashing `N` messages per operation with `f`.
pub fn many<const N: usize, const OUT: usize>(f: HashMany<OUT>) -> Box<dyn Runner> {
    Box::new(ManyRunner::<N, OUT>(f))
}

/// [`HashMany`] for a single-stream digest: one message after the other (the peer).
fn each<D: Digest, const OUT: usize>(msgs: &[&[u8]], out: &mut [[u8; OUT]]) {
    for (m, o) in msgs.iter().zip(out) {
        o.copy_from_slice(&D::digest(m));
    }
}

/// Hashes the whole buffer one-shot per operation, like `openssl speed`'s `EVP_Digest`.
struct DigestRunner<D>(PhantomData<D>);

impl<D: Digest> Runner for DigestRunner<D> {
    fn run(&mut self, buf: &mut [u8]) {
        black_box(D::digest(black_box(&*buf)));
    }

    fn output(&mut self, input: &[u8]) -> Vec<u8> {
        D::digest(input).to_vec()
    }
}

/// The runner for digest `D`.
pub fn digest<D: Digest + 'static>() -> Box<dyn Runner> {
    Box::new(DigestRunner::<D>(PhantomData))
}

/// Applies the keystream in place; the cipher's position carries over between
/// operations, as it does in `openssl speed`.
struct StreamRunner<C>(C);

impl<C: StreamCipher> Runner for StreamRunner<C> {
    fn run(&mut self, buf: &mut [u8]) {
        self.0.apply_keystream(black_box(buf));
    }
}

/// The runner for stream cipher `C` keyed with the first `KEY_LEN` bytes of the
/// benchmark key (`openssl speed rc4` uses 16).
pub fn stream<C: KeyInit + StreamCipher + 'static, const KEY_LEN: usize>() -> Box<dyn Runner> {
    let cipher = C::new_from_slice(key(KEY_LEN)).expect("the registry gives a valid key length");
    Box::new(StreamRunner(cipher))
}

/// The whole blocks of `buf` (the speed sizes are all multiples of the block size; a
/// partial last block is left as it is, as OpenSSL's update leaves it buffered).
fn whole_blocks<C: BlockSizeUser>(buf: &mut [u8]) -> &mut [cipher::Block<C>] {
    Array::slice_as_chunks_mut(buf).0
}

/// Encrypts the buffer's blocks in place with block mode `M` (CBC); the chaining value
/// carries over between operations, as in `openssl speed`'s persistent context.
struct BlockModeRunner<M>(M);

impl<M: BlockModeEncrypt> Runner for BlockModeRunner<M> {
    fn run(&mut self, buf: &mut [u8]) {
        self.0.encrypt_blocks(whole_blocks::<M>(black_box(buf)));
    }
}

/// The runner for block mode `M` keyed with the benchmark key and an all-zero IV (as
/// `speed`'s OpenSSL runner keys libcrypto).
pub fn block_mode<M: KeyIvInit + BlockModeEncrypt + 'static>() -> Box<dyn Runner> {
    let iv = vec![0; M::iv_size()];
    let mode = M::new_from_slices(key(M::key_size()), &iv).expect("valid key and IV lengths");
    Box::new(BlockModeRunner(mode))
}

/// Decrypts the buffer's blocks in place with block mode `M` (CBC decryption, where the
/// mode can run the cipher in parallel); the chaining value carries over.
struct BlockModeDecRunner<M>(M);

impl<M: BlockModeDecrypt> Runner for BlockModeDecRunner<M> {
    fn run(&mut self, buf: &mut [u8]) {
        self.0.decrypt_blocks(whole_blocks::<M>(black_box(buf)));
    }
}

/// The decrypting runner for block mode `M` keyed like [`block_mode`].
pub fn block_mode_dec<M: KeyIvInit + BlockModeDecrypt + 'static>() -> Box<dyn Runner> {
    let iv = vec![0; M::iv_size()];
    let mode = M::new_from_slices(key(M::key_size()), &iv).expect("valid key and IV lengths");
    Box::new(BlockModeDecRunner(mode))
}

/// [`block_mode`] over a cipher keyed with the first `KEY_LEN` benchmark bytes, for
/// ciphers whose `KeySize` is not the key OpenSSL benchmarks with (Blowfish: 56, RC2: 32,
/// Twofish: 32; `openssl speed` and `EVP` use 16).
pub fn block_mode_k<M, const KEY_LEN: usize>() -> Box<dyn Runner>
where
    M: InnerIvInit + BlockModeEncrypt + 'static,
    M::Inner: KeyInit,
{
    let cipher = M::Inner::new_from_slice(key(KEY_LEN)).expect("valid key length");
    let iv = vec![0; M::iv_size()];
    let mode = M::inner_iv_slice_init(cipher, &iv).expect("valid IV length");
    Box::new(BlockModeRunner(mode))
}

/// Applies a stream core's keystream to the buffer's whole blocks in place (what the
/// `StreamCipherCoreWrapper` of [`stream_iv`] does for block-multiple buffers).
struct CoreRunner<T>(T);

impl<T: StreamCipherCore> Runner for CoreRunner<T> {
    fn run(&mut self, buf: &mut [u8]) {
        self.0
            .apply_keystream_blocks(whole_blocks::<T>(black_box(buf)));
    }
}

/// [`stream_iv`] for a stream core `T` (a `ctr::CtrCore`) over a cipher keyed with the
/// first `KEY_LEN` benchmark bytes (see [`block_mode_k`]).
pub fn stream_core_k<T, const KEY_LEN: usize>() -> Box<dyn Runner>
where
    T: InnerIvInit + StreamCipherCore + 'static,
    T::Inner: KeyInit,
{
    let cipher = T::Inner::new_from_slice(key(KEY_LEN)).expect("valid key length");
    let iv = vec![0; T::iv_size()];
    let core = T::inner_iv_slice_init(cipher, &iv).expect("valid IV length");
    Box::new(CoreRunner(core))
}

/// [`ecb`] with the first `KEY_LEN` benchmark bytes as the key (see [`block_mode_k`]).
pub fn ecb_k<C: KeyInit + BlockCipherEncrypt + 'static, const KEY_LEN: usize>() -> Box<dyn Runner> {
    let cipher = C::new_from_slice(key(KEY_LEN)).expect("valid key length");
    Box::new(EcbRunner(cipher))
}

/// The runner for a stream cipher with an IV (CTR) keyed with the benchmark key and an
/// all-zero IV; the keystream position carries over between operations.
pub fn stream_iv<C: KeyIvInit + StreamCipher + 'static>() -> Box<dyn Runner> {
    let iv = vec![0; C::iv_size()];
    let cipher = C::new_from_slices(key(C::key_size()), &iv).expect("valid key and IV lengths");
    Box::new(StreamRunner(cipher))
}

/// Encrypts the buffer's blocks in place with the raw block cipher (ECB).
struct EcbRunner<C>(C);

impl<C: BlockCipherEncrypt> Runner for EcbRunner<C> {
    fn run(&mut self, buf: &mut [u8]) {
        self.0.encrypt_blocks(whole_blocks::<C>(black_box(buf)));
    }
}

/// The runner for block cipher `C` in ECB keyed with the benchmark key.
pub fn ecb<C: KeyInit + BlockCipherEncrypt + 'static>() -> Box<dyn Runner> {
    let cipher = C::new_from_slice(key(C::key_size())).expect("valid key length");
    Box::new(EcbRunner(cipher))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_lowercase_openssl_style() {
        let names = names();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} registered twice");
            assert!(
                name.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{name} is not an openssl speed name"
            );
        }
    }

    #[test]
    fn ours_and_rustcrypto_agree() {
        let input: Vec<u8> = (0..1031u32).map(|i| (i * 7 + 3) as u8).collect();
        for alg in ALGS {
            let (mut ours, mut peer) = ((alg.ours)(), (alg.rustcrypto)());
            // Twice: a stream cipher must carry its position over.
            for _ in 0..2 {
                assert_eq!(ours.output(&input), peer.output(&input), "{}", alg.name);
            }
        }
    }

    #[test]
    fn published_modes_agree() {
        let input: Vec<u8> = (0..1031u32).map(|i| (i * 5 + 1) as u8).collect();
        for alg in ALGS {
            if let Some(published) = published_mode(alg.name) {
                let (mut ours, mut theirs) = ((alg.ours)(), published());
                for _ in 0..2 {
                    assert_eq!(ours.output(&input), theirs.output(&input), "{}", alg.name);
                }
            }
        }
        assert!(published_mode("aes-128-ctr").is_some());
        assert!(published_mode("md5").is_none());
    }

    #[test]
    fn known_answers() {
        // RFC 1321 A.5 and RFC 6229 (key 0x0102030405, first keystream bytes).
        assert_eq!(
            (digest::<md5::Md5>)().output(b"abc"),
            [
                0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0, 0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1,
                0x7f, 0x72
            ]
        );
        // FIPS 180 "abc".
        assert_eq!(
            (digest::<sha1::Sha1>)().output(b"abc"),
            [
                0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e, 0x25, 0x71, 0x78, 0x50,
                0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d
            ]
        );
        let mut rc4 = StreamRunner(rc4::Rc4::new_from_slice(&[1, 2, 3, 4, 5]).unwrap());
        assert_eq!(rc4.output(&[0; 4]), [0xb2, 0x39, 0x63, 0x05]);
        // The persistent state: the next call continues the keystream.
        assert_eq!(rc4.output(&[0; 4]), [0xf0, 0x3d, 0xc0, 0x27]);
    }
}
