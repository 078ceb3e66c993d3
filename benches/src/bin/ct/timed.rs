//! The targets of the timing test (`ct time`) and of the static check (`ct code`, read
//! by `cargo xtask ct`): every backend the crate docs' `# Security` sections call
//! constant-time, forced through the crate's `__backends`, each with the code it runs
//! (symbol prefixes of the release build) and its two leaky controls.
//!
//! Each target times one call on a whole number of the backend's batches (the crates
//! hand shorter tails to other backends): block ciphers encrypt then decrypt a buffer of
//! blocks (`key+data`: key and data are both secret, a fresh cipher is keyed for every
//! measurement outside the timed region; `data`: the key is fixed, because the docs say
//! the key schedule is not constant-time), digests compress whole blocks or hash 16
//! messages at once, `des-crypt` hashes a batch of passwords.

use std::hint::black_box;

use cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt};

use crate::dudect::{Measure, Rng, input};

/// How a target's secrets travel, for the static check's taint analysis: `vector` code
/// loads secrets into SIMD registers only (scalar loads are pointers, lengths and
/// counters), `scalar` code loads secret 8- to 32-bit words into general-purpose registers
/// too, `scalar64` secret 64-bit words (bitsliced `u64` code).
#[derive(Clone, Copy)]
pub enum Regs {
    Vector,
    Scalar,
    Scalar64,
}

/// One timed target.
pub struct Timed {
    pub name: &'static str,
    /// What is secret: `"key+data"` or `"data"` (the docs' claim for the backend).
    pub secret: &'static str,
    /// The backend's code: demangled symbol prefixes (`aes::backends::vaes512::`).
    pub code: &'static [&'static str],
    pub regs: Regs,
    /// Why the static check's findings in `code` do not refute the docs' claim, when it
    /// has some (each reviewed by hand; see the docs of `cargo xtask ct`), else `""`.
    pub known: &'static str,
    /// The measurement, or `Err(backend)` when this CPU lacks the backend.
    pub make: fn() -> Result<Box<dyn Measure>, &'static str>,
}

/// Encrypt-then-decrypt of `blocks` blocks; with `rekey`, a new cipher from a fixed or
/// random key before every measurement.
struct CipherM<C: cipher::BlockSizeUser> {
    make: fn(&[u8]) -> C,
    rekey: bool,
    key: Vec<u8>,
    cipher: C,
    blocks: Vec<Block<C>>,
}

impl<C: BlockCipherEncrypt + BlockCipherDecrypt> CipherM<C> {
    fn new(make: fn(&[u8]) -> C, key_len: usize, rekey: bool, blocks: usize) -> Box<Self> {
        let key = vec![0x42; key_len];
        Box::new(Self {
            make,
            rekey,
            cipher: make(&key),
            key,
            blocks: vec![Block::<C>::default(); blocks],
        })
    }
}

impl<C: BlockCipherEncrypt + BlockCipherDecrypt> Measure for CipherM<C> {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if self.rekey {
            input(&mut self.key, class, 0x5a, rng);
            self.cipher = (self.make)(&self.key);
        }
        for (i, b) in self.blocks.iter_mut().enumerate() {
            input(b, class, 0x3c00 + i as u64, rng);
        }
    }

    fn run(&mut self) {
        self.cipher.encrypt_blocks(&mut self.blocks);
        self.cipher.decrypt_blocks(&mut self.blocks);
        black_box(&self.blocks);
    }
}

/// A compression function over `blocks` secret 64-byte blocks from a fixed state.
struct CompressM<const W: usize> {
    f: fn(&mut [u32; W], &[[u8; 64]]),
    state: [u32; W],
    blocks: Vec<[u8; 64]>,
}

impl<const W: usize> Measure for CompressM<W> {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        self.state = [0x6745_2301; W];
        for (i, b) in self.blocks.iter_mut().enumerate() {
            input(b, class, 0x1700 + i as u64, rng);
        }
    }

    fn run(&mut self) {
        (self.f)(&mut self.state, &self.blocks);
        black_box(&self.state);
    }
}

/// SHA-1 with `shani` of a 229-byte message: three whole blocks, then its last 37
/// bytes (the first of `blocks[3]`) and the padding, which `shani::finalize` builds in
/// registers; both are `shani` code for the scan and the timing test.
fn sha1_shani_message(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    sha1::__backends::compress_with("shani", state, &blocks[..3]);
    sha1::__backends::finalize_with("shani", state, &blocks[3][..37], 8 * 229);
}

/// Multi-buffer hashing of 16 secret messages of 256 bytes.
struct ManyM<const D: usize> {
    f: fn(&[[u8; 256]], &mut [[u8; D]]),
    msgs: Vec<[u8; 256]>,
    out: Vec<[u8; D]>,
}

impl<const D: usize> Measure for ManyM<D> {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        for (i, m) in self.msgs.iter_mut().enumerate() {
            input(m, class, 0x7100 + i as u64, rng);
        }
    }

    fn run(&mut self) {
        (self.f)(&self.msgs, &mut self.out);
        black_box(&self.out);
    }
}

/// `des_crypt::crypt_keys` of one batch of secret 8-character passwords.
struct CryptM {
    backend: &'static str,
    keys: Vec<[u8; 8]>,
}

impl Measure for CryptM {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        for (i, k) in self.keys.iter_mut().enumerate() {
            input(k, class, 0x5000 + i as u64, rng);
            // Printable, never NUL: the length (8) is public in both classes.
            for b in k.iter_mut() {
                *b = 0x21 + *b % 94;
            }
        }
    }

    fn run(&mut self) {
        black_box(des_crypt::__backends::crypt_keys_with(self.backend, "ab", &self.keys).ok());
    }
}

macro_rules! cipher {
    ($name:literal, $secret:literal, $krate:ident, $backend:literal, $with:ident, $k:literal,
     $blocks:expr, $regs:ident $(, $extra:literal)*) => {
        Timed {
            name: $name,
            secret: $secret,
            code: &[concat!(stringify!($krate), "::backends::", $backend, "::") $(, $extra)*],
            regs: Regs::$regs,
            known: "",
            make: || {
                if !$krate::__backends::available($backend) {
                    return Err($backend);
                }
                let make: fn(&[u8]) -> _ =
                    |k| $krate::__backends::$with($backend, k.try_into().unwrap());
                Ok(CipherM::new(make, $k, $secret == "key+data", $blocks))
            },
        }
    };
}

macro_rules! compress {
    ($name:literal, $krate:ident, $backend:literal, $f:ident, $w:literal, $regs:ident,
     [$($code:literal),*]) => {
        compress!(
            $name, $krate, $backend, with |s, b| $krate::__backends::$f($backend, s, b),
            $w, $regs, [$($code),*]
        )
    };
    // `run`: a `fn(&mut [u32; W], &[[u8; 64]])` over the four secret blocks.
    ($name:literal, $krate:ident, $backend:literal, with $run:expr, $w:literal,
     $regs:ident, [$($code:literal),*]) => {
        Timed {
            name: $name,
            secret: "data",
            code: &[$($code),*],
            regs: Regs::$regs,
            known: "",
            make: || {
                if !$krate::__backends::available($backend) {
                    return Err($backend);
                }
                Ok(Box::new(CompressM::<$w> {
                    f: $run,
                    state: [0; $w],
                    blocks: vec![[0; 64]; 4],
                }))
            },
        }
    };
}

macro_rules! many {
    ($name:literal, $krate:ident, $backend:literal, $d:literal, $code:literal) => {
        many!($name, $krate, $backend, $d, $code, "")
    };
    ($name:literal, $krate:ident, $backend:literal, $d:literal, $code:literal, $known:expr) => {
        Timed {
            name: $name,
            secret: "data",
            code: &[$code],
            regs: Regs::Vector,
            known: $known,
            make: || {
                if !$krate::__backends::available($backend) {
                    return Err($backend);
                }
                Ok(Box::new(ManyM::<$d> {
                    f: |m, o| $krate::__backends::digest_many_with($backend, m, o),
                    msgs: vec![[0; 256]; 16],
                    out: vec![[0; $d]; 16],
                }))
            },
        }
    };
}

macro_rules! crypt {
    ($name:literal, $backend:literal) => {
        Timed {
            name: $name,
            secret: "key",
            code: &[
                concat!("des_crypt::backends::", $backend, "::"),
                concat!("des::backends::", $backend, "::batch_"),
                concat!("des::backends::", $backend, "::crypt_batch"),
                "des::backends::bitslice::",
            ],
            regs: Regs::Vector,
            known: "",
            make: || {
                if !des_crypt::__backends::available($backend) {
                    return Err($backend);
                }
                Ok(Box::new(CryptM {
                    backend: $backend,
                    keys: vec![[0; 8]; des::__crypt::lanes($backend)],
                }))
            },
        }
    };
}

/// `aes`'s `soft` is bitsliced on `u64`s, so the scan counts every load as secret
/// (`scalar64`), the key schedule's pointer and length too, and reports the loop over
/// blocks; valgrind, which runs this backend, finds no secret branch or address.
const AES_SOFT: &str = "scalar64: pointer and length loads count as secret; valgrind checks it";
/// `aes`'s `avx2` moves bitsliced words between `xmm` and general-purpose registers; the
/// one finding is the tail's jump table on a spilled counter (`[rsp+0x80] & 3`) that the
/// scan cannot tell from a secret spill; valgrind, which runs this backend, passes it.
const AES_AVX2: &str =
    "jump table on a spilled block counter the scan merges with secret spills; valgrind checks it";

/// Blocks per call of the ciphers with a narrower tail backend: crosses each backend's
/// parallel width and its (also constant-time) tail.
const BLOCKS: usize = 70;

// The portable backends, in both lists below.

/// `aes128-soft`, on every architecture.
const AES128_SOFT: Timed = Timed {
    known: AES_SOFT,
    ..cipher!(
        "aes128-soft",
        "key+data",
        aes,
        "soft",
        aes128_with,
        16,
        BLOCKS,
        Scalar64
    )
};

/// `serpent-soft`, on every architecture: one block per out-of-line call.
const SERPENT_SOFT: Timed = cipher!(
    "serpent-soft",
    "key+data",
    serpent,
    "soft",
    serpent_with,
    32,
    BLOCKS,
    Scalar
);

/// `idea-soft`, on every architecture.
const IDEA_SOFT: Timed = cipher!(
    "idea-soft",
    "data",
    idea,
    "soft",
    idea_with,
    16,
    BLOCKS,
    Scalar
);

/// `md5-soft`, on every architecture.
const MD5_SOFT: Timed = compress!(
    "md5-soft",
    md5,
    "soft",
    compress_with,
    4,
    Scalar,
    ["md5::backends::soft::compress$"]
);

/// `sha1-soft`, on every architecture.
const SHA1_SOFT: Timed = compress!(
    "sha1-soft",
    sha1,
    "soft",
    compress_with,
    5,
    Scalar,
    ["sha1::backends::soft::compress$"]
);

/// `ripemd160-soft`, on every architecture.
const RIPEMD160_SOFT: Timed = compress!(
    "ripemd160-soft",
    ripemd,
    "soft",
    compress160_with,
    5,
    Scalar,
    ["ripemd::backends::soft::compress160"]
);

/// Every backend documented as constant-time (x86-64), and what of it is.
pub const TIMED: &[Timed] = &[
    AES128_SOFT,
    Timed {
        known: AES_SOFT,
        ..cipher!(
            "aes256-soft",
            "key+data",
            aes,
            "soft",
            aes256_with,
            32,
            BLOCKS,
            Scalar64
        )
    },
    Timed {
        known: AES_AVX2,
        ..cipher!(
            "aes128-avx2",
            "key+data",
            aes,
            "avx2",
            aes128_with,
            16,
            BLOCKS,
            Vector
        )
    },
    cipher!(
        "aes128-aesni",
        "key+data",
        aes,
        "aesni",
        aes128_with,
        16,
        BLOCKS,
        Vector
    ),
    cipher!(
        "aes256-aesni",
        "key+data",
        aes,
        "aesni",
        aes256_with,
        32,
        BLOCKS,
        Vector
    ),
    cipher!(
        "aes128-vaes256",
        "key+data",
        aes,
        "vaes256",
        aes128_with,
        16,
        BLOCKS,
        Vector
    ),
    cipher!(
        "aes128-vaes512",
        "key+data",
        aes,
        "vaes512",
        aes128_with,
        16,
        BLOCKS,
        Vector
    ),
    cipher!(
        "aes256-vaes512",
        "key+data",
        aes,
        "vaes512",
        aes256_with,
        32,
        BLOCKS,
        Vector
    ),
    // Camellia's byte-sliced passes (whole batches; the key schedule and short runs are
    // the table-based `soft` code, documented as not constant-time).
    cipher!(
        "camellia128-gfni_avx512",
        "data",
        camellia,
        "gfni_avx512",
        camellia128_with,
        16,
        128,
        Vector
    ),
    cipher!(
        "camellia256-gfni_avx512",
        "data",
        camellia,
        "gfni_avx512",
        camellia256_with,
        32,
        128,
        Vector
    ),
    cipher!(
        "camellia128-gfni_avx2",
        "data",
        camellia,
        "gfni_avx2",
        camellia128_with,
        16,
        64,
        Vector
    ),
    cipher!(
        "camellia128-aesni_avx2",
        "data",
        camellia,
        "aesni_avx2",
        camellia128_with,
        16,
        64,
        Vector
    ),
    SERPENT_SOFT,
    cipher!(
        "serpent-avx2",
        "key+data",
        serpent,
        "avx2",
        serpent_with,
        32,
        BLOCKS,
        Vector
    ),
    cipher!(
        "serpent-avx512",
        "key+data",
        serpent,
        "avx512",
        serpent_with,
        32,
        BLOCKS,
        Vector
    ),
    // DES's bitsliced batches (round keys derived in constant time too); shorter tails are
    // the table-based `soft`, inlined into `run`/`decrypt`, so the static check reads the
    // batch kernels (`batch_y`, `batch_z`) and the key schedule.
    Timed {
        code: &[
            "des::backends::avx2::batch_",
            "des::backends::avx2::key_schedule",
            "des::backends::bitslice::",
        ],
        ..cipher!(
            "des-avx2",
            "key+data",
            des,
            "avx2",
            des_with,
            8,
            256,
            Vector,
            "des::backends::bitslice::"
        )
    },
    Timed {
        code: &[
            "des::backends::avx512::batch_",
            "des::backends::avx512::key_schedule",
            "des::backends::bitslice::",
        ],
        ..cipher!(
            "des-avx512",
            "key+data",
            des,
            "avx512",
            des_with,
            8,
            512,
            Vector,
            "des::backends::bitslice::"
        )
    },
    Timed {
        code: &[
            "des::backends::avx512::batch_",
            "des::backends::avx512::key_schedule",
            "des::backends::bitslice::",
        ],
        ..cipher!(
            "tdes-ede3-avx512",
            "key+data",
            des,
            "avx512",
            tdes_ede3_with,
            24,
            512,
            Vector,
            "des::backends::bitslice::"
        )
    },
    // IDEA: the key schedule's inverses are not constant-time (docs): data only.
    IDEA_SOFT,
    cipher!(
        "idea-avx2",
        "data",
        idea,
        "avx2",
        idea_with,
        16,
        BLOCKS,
        Vector
    ),
    cipher!(
        "idea-avx512",
        "data",
        idea,
        "avx512",
        idea_with,
        16,
        BLOCKS,
        Vector
    ),
    // Twofish: only `gfni_avx512`'s whole passes (its key schedule is not constant-time,
    // and leftovers of fewer than 16 blocks run the table code): the byte-sliced kernel.
    Timed {
        code: &["twofish::backends::gfni_avx512::pass$"],
        ..cipher!(
            "twofish-gfni_avx512",
            "data",
            twofish,
            "gfni_avx512",
            twofish_with,
            32,
            64,
            Vector
        )
    },
    // Blowfish and CAST5: the `vbmi` passes only (the ciphers' key schedules, single
    // blocks and short calls run table code): data secret, whole passes of 128 blocks.
    Timed {
        name: "blowfish-vbmi",
        secret: "data",
        code: &["blowfish::backends::vbmi::pass$"],
        regs: Regs::Vector,
        known: "",
        make: || {
            if !blowfish::__backends::available("vbmi") {
                return Err("vbmi");
            }
            let make: fn(&[u8]) -> blowfish::Blowfish =
                |k| blowfish::__backends::blowfish_with("vbmi", k);
            Ok(CipherM::new(make, 16, false, 128))
        },
    },
    Timed {
        code: &["cast5::backends::vbmi::pass$"],
        ..cipher!(
            "cast5-vbmi",
            "data",
            cast5,
            "vbmi",
            cast5_with,
            16,
            128,
            Vector
        )
    },
    // Digests: the compression functions (a trailing `$`: that function, no longer name);
    // the portable multi-message helpers around them are not part of the claim.
    MD5_SOFT,
    compress!(
        "md5-avx512",
        md5,
        "avx512",
        compress_with,
        4,
        Vector,
        ["md5::backends::avx512::compress$"]
    ),
    many!("md5-avx2-mb", md5, "avx2", 16, "md5::backends::avx2::"),
    many!(
        "md5-avx512-mb",
        md5,
        "avx512",
        16,
        "md5::backends::avx512::compress16",
        "the lane pointers are chosen by a mask of the non-empty lanes (public lengths) that \
         LLVM computes in mask registers, which the scan takes for secret"
    ),
    SHA1_SOFT,
    compress!(
        "sha1-avx2",
        sha1,
        "avx2",
        compress_with,
        5,
        Scalar,
        [
            "sha1::backends::avx2::compress$",
            "sha1::backends::avx2::rounds"
        ]
    ),
    // Three blocks, then the end of a message in registers (`shani::finalize`).
    compress!(
        "sha1-shani",
        sha1,
        "shani",
        with sha1_shani_message,
        5,
        Vector,
        ["sha1::backends::shani::"]
    ),
    many!(
        "sha1-avx2-mb",
        sha1,
        "avx2",
        20,
        "sha1::backends::avx2::compress8"
    ),
    many!(
        "sha1-avx512-mb",
        sha1,
        "avx512",
        20,
        "sha1::backends::avx512::"
    ),
    RIPEMD160_SOFT,
    crypt!("des-crypt-avx2", "avx2"),
    crypt!("des-crypt-avx512", "avx512"),
];

/// Every backend documented as constant-time on aarch64: the portable ones, `aes` and
/// `sha1`'s ARMv8 instructions, the NEON backends. `cargo xtask ct` scans their code in
/// the aarch64 build (`ct code aarch64`); nothing here times them (no aarch64 host).
pub const TIMED_AARCH64: &[Timed] = &[
    AES128_SOFT,
    cipher!(
        "aes128-armv8",
        "key+data",
        aes,
        "armv8",
        aes128_with,
        16,
        BLOCKS,
        Vector
    ),
    cipher!(
        "aes256-armv8",
        "key+data",
        aes,
        "armv8",
        aes256_with,
        32,
        BLOCKS,
        Vector
    ),
    cipher!(
        "camellia128-neon_aes",
        "data",
        camellia,
        "neon_aes",
        camellia128_with,
        16,
        64,
        Vector
    ),
    SERPENT_SOFT,
    cipher!(
        "serpent-neon",
        "key+data",
        serpent,
        "neon",
        serpent_with,
        32,
        BLOCKS,
        Vector
    ),
    Timed {
        code: &[
            "des::backends::neon::batch_",
            "des::backends::neon::key_schedule",
            "des::backends::bitslice::",
        ],
        ..cipher!(
            "des-neon", "key+data", des, "neon", des_with, 8, 256, Vector
        )
    },
    IDEA_SOFT,
    cipher!(
        "idea-neon",
        "data",
        idea,
        "neon",
        idea_with,
        16,
        BLOCKS,
        Vector
    ),
    MD5_SOFT,
    many!("md5-neon-mb", md5, "neon", 16, "md5::backends::neon::"),
    SHA1_SOFT,
    compress!(
        "sha1-armv8",
        sha1,
        "armv8",
        compress_with,
        5,
        Vector,
        ["sha1::backends::armv8::"]
    ),
    many!("sha1-neon-mb", sha1, "neon", 20, "sha1::backends::neon::"),
    RIPEMD160_SOFT,
    crypt!("des-crypt-neon", "neon"),
];

/// The targets of an architecture (`std::env::consts::ARCH`'s names).
pub fn for_arch(arch: &str) -> &'static [Timed] {
    match arch {
        "aarch64" => TIMED_AARCH64,
        _ => TIMED,
    }
}

/// The deliberately leaky controls: the test must find both, every run.
pub mod leaky {
    use super::*;

    /// Table size: 16 MiB, far beyond this machine's L2 (1 MiB per core on Zen 4), so a
    /// random index misses where the fixed one hits.
    const TABLE: usize = 1 << 24;

    /// Four look-ups at secret indices in a large table (an AES T-table, writ large).
    pub struct Table {
        table: Vec<u32>,
        secret: [u8; 16],
    }

    /// The leaky code itself, out of line so the static check finds it by name.
    #[inline(never)]
    pub fn table_lookup(table: &[u32], secret: &[u8; 16]) -> u32 {
        let mut acc = 0u32;
        for w in secret.chunks_exact(4) {
            let i = u32::from_le_bytes(w.try_into().unwrap()) as usize % table.len();
            acc = acc.wrapping_add(table[i]);
        }
        acc
    }

    impl Measure for Table {
        fn prepare(&mut self, class: usize, rng: &mut Rng) {
            input(&mut self.secret, class, 0x11, rng);
        }

        fn run(&mut self) {
            black_box(table_lookup(&self.table, black_box(&self.secret)));
        }
    }

    /// An early-exit comparison of a secret with a reference (a password check written
    /// the wrong way): the loop stops at the first differing byte.
    pub struct Branch {
        reference: [u8; 32],
        secret: [u8; 32],
    }

    /// The leaky code itself, out of line so the static check finds it by name.
    #[inline(never)]
    pub fn early_exit_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
        for i in 0..32 {
            if black_box(a[i]) != b[i] {
                return false;
            }
        }
        true
    }

    impl Measure for Branch {
        fn prepare(&mut self, class: usize, rng: &mut Rng) {
            input(&mut self.secret, class, 0x22, rng);
        }

        fn run(&mut self) {
            black_box(early_exit_eq(black_box(&self.secret), &self.reference));
        }
    }

    /// The two controls, as timed targets.
    pub const CONTROLS: &[Timed] = &[
        Timed {
            name: "leaky-table",
            secret: "data",
            code: &["ct::timed::leaky::table_lookup"],
            regs: Regs::Scalar,
            known: "",
            make: || {
                let table: Vec<u32> = (0..TABLE as u32)
                    .map(|i| i.wrapping_mul(0x9E37_79B9))
                    .collect();
                Ok(Box::new(Table {
                    table,
                    secret: [0; 16],
                }))
            },
        },
        Timed {
            name: "leaky-branch",
            secret: "data",
            code: &["ct::timed::leaky::early_exit_eq"],
            regs: Regs::Scalar,
            known: "",
            make: || {
                let mut reference = [0; 32];
                input(&mut reference, 0, 0x22, &mut Rng::new(0));
                Ok(Box::new(Branch {
                    reference,
                    secret: [0; 32],
                }))
            },
        },
    ];
}
