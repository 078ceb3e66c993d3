//! Pure Rust implementation of the [Camellia][1] block cipher (RFC 3713): a drop-in
//! replacement for RustCrypto's `camellia` 0.2 with the same public API and faster SIMD
//! backends chosen at run time.
//!
//! # ⚠️ Security Warning: Hazmat!
//!
//! This crate implements only the low-level block cipher function, and is intended
//! for use for implementing higher-level constructions *only*. It is NOT
//! intended for direct use in applications.
//!
//! USE AT YOUR OWN RISK!
//!
//! # Backends
//!
//! Chosen once per key at construction: the one forced by `--cfg camellia_backend="…"`,
//! else the best this CPU supports (first in the table that it has).
//!
//! | backend | cfg value | CPU | blocks per pass |
//! |---|---|---|---|
//! | byte-sliced GFNI on `zmm` | `camellia_backend="gfni_avx512"` | x86/x86-64 with AVX-512F/BW/VL and GFNI | 64 |
//! | byte-sliced GFNI on `ymm` | `camellia_backend="gfni_avx2"` | x86/x86-64 with AVX2 and GFNI | 32 |
//! | byte-sliced AES-NI + `vpshufb` on `ymm` | `camellia_backend="aesni_avx2"` | x86/x86-64 with AES-NI and AVX2 | 32 |
//! | byte-sliced NEON + `AESE` + `TBL` | `camellia_backend="neon_aes"` | aarch64 with NEON and the AES extension | 16 |
//! | table-based portable Rust | `camellia_backend="soft"` | every target (also 32-bit and big-endian) | 1 |
//!
//! The SIMD backends run many blocks at once (ECB, CTR, CBC decryption); a single block
//! (CBC encryption), and a call or tail of fewer than 4 blocks (6 on `aesni_avx2`: the
//! rows' `blocks` in `src/backends.rs`; two more for 192- and 256-bit keys, whose passes
//! cost more), runs on the `soft` code, since a padded pass costs as much as a full one;
//! the byte-sliced subkeys are made only when a pass first needs them. `soft`'s F-function is eight look-ups into 32-bit "SP" tables (4 KiB). The byte-sliced backends
//! keep byte `j` of every block in vector `j` and compute each Camellia S-box as one
//! `vgf2p8affineqb` plus one `vgf2p8affineinvqb` (Camellia's S-boxes are affine-equivalent
//! to inversion in GF(2⁸)); `aesni_avx2` gets the same inversion from `vaesenclast`
//! (SubBytes) with the affine maps around it done as `vpshufb` nibble look-ups. The
//! design is J. Kivilinna's byte-sliced AES-NI/AVX Camellia ("Block Ciphers: Fast
//! Implementations on x86-64 Architecture", University of Oulu, 2013). Wide backends hand the blocks that do not fill a pass to the narrower
//! paths (`zmm` → `ymm` → a zero-padded `ymm` pass → one `soft` block).
//!
//! CBC encryption through this workspace's `cbc` runs a `soft` loop of its own with the
//! chain in registers and the whitening keys folded into the one XOR that links two
//! blocks (`src/backends/soft.rs`, `cbc_encrypt`). Intel Xeon (family 6 model 207), TSC
//! cycles/byte at 8 KiB, one interleaved run of `cargo run --release -p speed --features
//! openssl -- --compare --cycles camellia-128-cbc camellia-256-cbc`:
//!
//! | | before (one block at a time) | now | OpenSSL 3.0 | RustCrypto 0.2.1 |
//! |---|---:|---:|---:|---:|
//! | Camellia-128 | 10.11 | 9.36 | 9.50 | 13.75 |
//! | Camellia-256 | 13.35 | 12.56 | 12.70 | 18.26 |
//!
//! ## aarch64: `neon_aes`
//!
//! `aesni_avx2`'s design on 128-bit NEON registers, as Kivilinna's own SIMD128 Camellia
//! in libgcrypt (`cipher/camellia-simd128.h`, 2023) does it with the ARMv8 Cryptography
//! Extension: the same shared byte-sliced code and nibble tables, `TBL` for `vpshufb`,
//! `AESE` with a zero key for `vaesenclast` (both are SubBytes and ShiftRows around an
//! XOR with zero; the same InvShiftRows `TBL` cancels the ShiftRows). 16 blocks per pass
//! (16 byte slices in 16 of the 32 registers). Calls and tails of fewer than 10 blocks
//! (12 with 192/256-bit keys) run `soft`, like on x86; CBC encryption always does.
//! Without the AES extension `soft` runs: a `TBL`-only S-box (four 64-byte `TBL`/`TBX`
//! look-ups per byte slice) was not written.
//!
//! Why it pays against `soft` — **an estimate; no aarch64 speed was measured**: the only
//! aarch64 this code ran on is qemu, whose timings mean nothing. Instructions counted in
//! the release build's disassembly (Debian rustc 1.96, `aarch64-unknown-linux-gnu`,
//! `aarch64-linux-gnu-objdump -d`, the `camellia` bench binary):
//! - `neon_aes`, one 16-block pass: an iteration of the round loop (two Feistel rounds)
//!   is 310 instructions: 16 `AESE`, 80 `TBL`, 96 `EOR`, 32 `AND`, 32 `USHR`, 16 `DUP`
//!   (subkey bytes, from one `LDP` per subkey), 2 `MOVI`, about 30 loads and stores of
//!   spilled registers and reloaded tables, and loop control; an FL/FL⁻¹ layer 80;
//!   loads, the two 16×16 transposes (128 `ZIP1`/`ZIP2`), whitening and stores 238.
//!   Camellia-128 (9 round pairs, 2 FL layers): 3188 per pass, **199 per block**;
//!   Camellia-192/256 (12 pairs, 3 layers): 4198, **262 per block** (the same loop body
//!   with more iterations; counted in the `RK = 26` instance).
//! - `soft`, one block: a round is 8 byte extractions (`UBFX`/`LSR`/`AND`), 8 table
//!   loads and about 9 `EOR`s; six rounds plus FL/FL⁻¹ are a 175-instruction loop.
//!   Camellia-128: **535 per block** (plus the call), 144 of them table loads;
//!   Camellia-192/256: **710**.
//!
//! Weighed with the Arm Neoverse N1 Software Optimization Guide as LLVM encodes it
//! (`llvm/lib/Target/AArch64/AArch64SchedNeoverseN1.td`): N1 has two 128-bit vector
//! pipes; `EOR`/`AND`/`ZIP`/`MOV`/1-register `TBL` issue on either (2 cycles latency),
//! `AESE` on V0 only, `USHR` on V1 only (16 and 32 per round pair: balanced), `DUP`
//! (element) on either, a `STP` of two `q` registers takes two vector slots. A round
//! pair is about 290 vector µops, a Camellia-128 pass about 2950: ≥ 1475 cycles
//! per 16 blocks, **≈ 92 cycles per block (≈ 5.8 cycles/byte)**. `soft` runs on 3
//! integer pipes and 2 load pipes with 4-wide decode: ≥ 134 cycles per block from
//! decode alone, and each round's critical path (XOR, extract, a 4-cycle load, a
//! three-level XOR tree) is about 10 cycles, 180 for the 18 rounds, which the
//! 128-entry window overlaps with the next block only in part: **≈ 135–180 cycles per
//! block (8–11 cycles/byte)**. So `neon_aes` is expected at 1.5–2× `soft` on N1, more
//! on cores with four vector pipes (Neoverse V1/V2, Apple), where the vector side
//! doubles and the scalar side does not. The crossover of a zero-padded 16-block pass
//! (≈ 1475 cycles) with `soft` (135–180 per block) is 8–11 blocks: the row's `blocks`
//! is 10, the choice that loses least at either end. The criterion ids
//! `camellia128/neon_aes` and `camellia128/soft` let the real arm64 CI host measure it.
//!
//! # Security
//!
//! - `soft` is **table-based** (4 KiB of tables indexed by key- and data-dependent
//!   bytes), like RustCrypto's `camellia` and most software Camellia: it is **not
//!   constant-time** on CPUs with caches. Its key schedule uses the same tables.
//! - `gfni_avx512`, `gfni_avx2`, `aesni_avx2`, `neon_aes`: whole passes are
//!   constant-time (GFNI, AES-NI or ARMv8 `AESE` instructions, `vpshufb`/`TBL` on
//!   registers and plain vector logic, no memory table indexed by data, no branch or
//!   address that depends on data or key). `TBL`'s (and `vpshufb`'s) indices are data,
//!   but `TBL` is a permutation of bytes already in registers, not a memory load: its
//!   timing does not depend on the index values. Single blocks and short runs — every
//!   block of CBC *encryption*, calls and tails of fewer than 4 (`aesni_avx2`: 6;
//!   `neon_aes`: 10; all two more with 192- and 256-bit keys) blocks,
//!   and the key schedule — use the `soft` code and are not.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), data secret, whole batches:
//! `gfni_avx512`, `gfni_avx2` and `aesni_avx2` pass the timing test (dudect, fixed vs
//! random data) and the disassembly scan (no secret-dependent branch or address, no
//! table load); `aesni_avx2` also valgrind memcheck. `neon_aes`'s passes pass the
//! disassembly scan of `cargo xtask ct` over the aarch64 release build (cross-compiled
//! with rustc 1.96; issue 24) (its short rests call the table code out of line,
//! `bytesliced::short_rest`); the timing test and valgrind need an aarch64 host and
//! have not run on one.
//!
//! With the `zeroize` feature, the subkeys are overwritten with zeros on drop (and the
//! SIMD backends' broadcast copies of them at the end of each call).
//!
//! # Configuration
//!
//! `--cfg camellia_backend="soft"`, `"aesni_avx2"`, `"gfni_avx2"`, `"gfni_avx512"` or
//! `"neon_aes"`: use
//! that backend instead of detecting one. Every backend stays compiled; a forced backend
//! the CPU lacks panics with a clear message at key setup. Set it with `RUSTFLAGS` (e.g.
//! `RUSTFLAGS='--cfg camellia_backend="soft"'`) or in `.cargo/config.toml`.
//!
//! # Examples
//! ```
//! use camellia::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//! use camellia::Camellia128;
//!
//! let key = Array::from([0_u8; 16]);
//! let mut block = Array::from([0_u8; 16]);
//!
//! // Initialize cipher
//! let cipher = Camellia128::new(&key);
//!
//! let block_copy = block;
//!
//! // Encrypt block in-place
//! cipher.encrypt_block(&mut block);
//!
//! // And decrypt it back
//! cipher.decrypt_block(&mut block);
//!
//! assert_eq!(block, block_copy);
//! ```
//!
//! [1]: https://en.wikipedia.org/wiki/Camellia_(cipher)

#![no_std]
#![doc(
    html_logo_url = "https://raw.githubusercontent.com/RustCrypto/media/26acc39f/logo.svg",
    html_favicon_url = "https://raw.githubusercontent.com/RustCrypto/media/26acc39f/logo.svg"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use core::{fmt, marker::PhantomData};

pub use cipher;

use cipher::{
    AlgorithmName, Block, BlockSizeUser, Key, KeyInit, KeySizeUser, ParBlocksSizeUser,
    array::ArraySize,
    block::{
        BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncBackend,
        BlockCipherEncClosure, BlockCipherEncrypt,
    },
    consts::{U1, U16, U24, U32},
    inout::{InOut, InOutBuf, NotEqualError},
};

#[cfg(feature = "zeroize")]
use cipher::zeroize::{Zeroize, ZeroizeOnDrop};

mod backends;

#[doc(hidden)]
pub use backends::__backends;

use backends::{Backend, soft};

/// Generic implementation of the Camellia block cipher.
///
/// This type can be initialized only with 3 combinations of `KeySize` and `RK`:
/// - Camellia-128: U16, 26
/// - Camellia-192: U24, 34
/// - Camellia-256: U32, 34
#[derive(Clone)]
pub struct Camellia<KeySize: ArraySize, const RK: usize> {
    k: [u64; RK],
    backend: Backend,
    _pd: PhantomData<KeySize>,
}

/// Camellia-128 block cipher instance.
pub type Camellia128 = Camellia<U16, 26>;
/// Camellia-192 block cipher instance.
pub type Camellia192 = Camellia<U24, 34>;
/// Camellia-256 block cipher instance.
pub type Camellia256 = Camellia<U32, 34>;

impl<KeySize: ArraySize, const RK: usize> Camellia<KeySize, RK> {
    /// A cipher from its subkeys and the backend that will run it.
    fn from_parts(k: [u64; RK], backend: Backend) -> Self {
        Self {
            k,
            backend,
            _pd: PhantomData,
        }
    }
}

impl<KeySize: ArraySize, const RK: usize> KeySizeUser for Camellia<KeySize, RK> {
    type KeySize = KeySize;
}

impl<KeySize: ArraySize, const RK: usize> BlockSizeUser for Camellia<KeySize, RK> {
    type BlockSize = U16;
}

/// One block: the type itself is the single-block (`soft`) backend, as in RustCrypto's
/// crate; [`BlockCipherEncrypt`]/[`BlockCipherDecrypt`] hand the closures a wide backend.
impl<KeySize: ArraySize, const RK: usize> ParBlocksSizeUser for Camellia<KeySize, RK> {
    type ParBlocksSize = U1;
}

impl<KeySize: ArraySize, const RK: usize> BlockCipherEncrypt for Camellia<KeySize, RK> {
    #[inline]
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        self.backend.encrypt(&self.k, f)
    }

    /// A call too short for the backend's passes runs the one-block code here, without
    /// entering the backend (on Zen 4 that hop cost a 16-byte `encrypt_blocks` 21 TSC
    /// cycles, 9 %). `encrypt_blocks` and `encrypt_blocks_b2b` come here too.
    #[inline]
    fn encrypt_blocks_inout(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        if blocks.len() < self.backend.short::<RK>() {
            for block in blocks {
                BlockCipherEncBackend::encrypt_block(self, block);
            }
        } else {
            self.backend.encrypt(&self.k, Blocks(blocks));
        }
    }

    #[inline]
    fn encrypt_blocks(&self, blocks: &mut [Block<Self>]) {
        self.encrypt_blocks_inout(blocks.into());
    }

    #[inline]
    fn encrypt_blocks_b2b(
        &self,
        in_blocks: &[Block<Self>],
        out_blocks: &mut [Block<Self>],
    ) -> Result<(), NotEqualError> {
        InOutBuf::new(in_blocks, out_blocks).map(|blocks| self.encrypt_blocks_inout(blocks))
    }
}

impl<KeySize: ArraySize, const RK: usize> BlockCipherEncBackend for Camellia<KeySize, RK> {
    #[inline]
    fn encrypt_block(&self, mut block: InOut<'_, '_, Block<Self>>) {
        let r = soft::encrypt(&self.k, block.get_in());
        block.get_out().copy_from_slice(&r);
    }
}

impl<KeySize: ArraySize, const RK: usize> BlockCipherDecrypt for Camellia<KeySize, RK> {
    #[inline]
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        self.backend.decrypt(&self.k, f)
    }

    /// As [`BlockCipherEncrypt::encrypt_blocks_inout`].
    #[inline]
    fn decrypt_blocks_inout(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        if blocks.len() < self.backend.short::<RK>() {
            for block in blocks {
                BlockCipherDecBackend::decrypt_block(self, block);
            }
        } else {
            self.backend.decrypt(&self.k, Blocks(blocks));
        }
    }

    #[inline]
    fn decrypt_blocks(&self, blocks: &mut [Block<Self>]) {
        self.decrypt_blocks_inout(blocks.into());
    }

    #[inline]
    fn decrypt_blocks_b2b(
        &self,
        in_blocks: &[Block<Self>],
        out_blocks: &mut [Block<Self>],
    ) -> Result<(), NotEqualError> {
        InOutBuf::new(in_blocks, out_blocks).map(|blocks| self.decrypt_blocks_inout(blocks))
    }
}

/// The closure of a bulk call: every block through the backend's wide paths.
struct Blocks<'i, 'o>(InOutBuf<'i, 'o, Block<Camellia128>>);

impl BlockSizeUser for Blocks<'_, '_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for Blocks<'_, '_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        backend.encrypt_tail_blocks(self.0)
    }
}

impl BlockCipherDecClosure for Blocks<'_, '_> {
    #[inline(always)]
    fn call<B: BlockCipherDecBackend<BlockSize = U16>>(self, backend: &B) {
        backend.decrypt_tail_blocks(self.0)
    }
}

impl<KeySize: ArraySize, const RK: usize> BlockCipherDecBackend for Camellia<KeySize, RK> {
    #[inline]
    fn decrypt_block(&self, mut block: InOut<'_, '_, Block<Self>>) {
        let r = soft::decrypt(&self.k, block.get_in());
        block.get_out().copy_from_slice(&r);
    }
}

impl<KeySize: ArraySize, const RK: usize> Drop for Camellia<KeySize, RK> {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        self.k.zeroize();
    }
}

#[cfg(feature = "zeroize")]
impl<KeySize: ArraySize, const RK: usize> ZeroizeOnDrop for Camellia<KeySize, RK> {}

macro_rules! impl_named {
    ($name:ident, $expand:ident) => {
        impl KeyInit for $name {
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                Self::from_parts(soft::$expand(key), backends::detect())
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), " { ... }"))
            }
        }

        impl AlgorithmName for $name {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}

impl_named!(Camellia128, expand128);
impl_named!(Camellia192, expand256);
impl_named!(Camellia256, expand256);

/// The in-process test every backend file runs: `name` against `soft` (for `soft`
/// itself, against RustCrypto's `camellia` 0.2.1) through `testkit::harness::block` for
/// all three key sizes.
#[cfg(test)]
pub(crate) fn check_matches_soft(name: &str, par: usize) {
    use __backends::{available, camellia128_with, camellia192_with, camellia256_with};
    use testkit::harness::block_vs_soft_sized as check;

    if testkit::available(name, available(name)) {
        check::<rc_camellia::Camellia128, _, 16>(name, 16, par, camellia128_with);
        check::<rc_camellia::Camellia192, _, 24>(name, 16, par, camellia192_with);
        check::<rc_camellia::Camellia256, _, 32>(name, 16, par, camellia256_with);
    }
}
