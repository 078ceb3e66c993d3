//! Pure Rust implementation of the [SHA-1] cryptographic hash algorithm, a drop-in
//! replacement for RustCrypto's [`sha1`](https://docs.rs/sha1/0.11.0) 0.11 with
//! backends chosen at run time.
//!
//! # Warning: Cryptographically Broken!
//!
//! The SHA-1 hash function should be considered cryptographically broken and
//! unsuitable for further use in any security critical capacity, as it is
//! [practically vulnerable to chosen-prefix collisions][1].
//!
//! This crate is provided for legacy interoperability purposes only.
//!
//! If possible use the [sha1-checked] crate, while slower it provides the ability to
//! detect potential collisions, as well as generate alternative safe hashes.
//!
//! # Examples
//!
//! ## One-shot API
//!
//! ```rust
//! use hex_literal::hex;
//! use sha1::{Sha1, Digest};
//!
//! let result = Sha1::digest(b"hello world");
//! assert_eq!(result, hex!("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"));
//! ```
//!
//! ## Incremental API
//!
//! ```rust
//! use hex_literal::hex;
//! use sha1::{Sha1, Digest};
//!
//! let mut hasher = Sha1::new();
//! hasher.update(b"hello world");
//! let hash = hasher.finalize();
//!
//! assert_eq!(hash, hex!("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"));
//! ```
//!
//! See the [`digest`] crate docs for additional examples.
//!
//! # Backends
//!
//! SHA-1 is one serial chain of 80 rounds per 64-byte block; a backend is as fast as
//! it makes that chain short and keeps everything else (the message schedule) off it.
//!
//! | cfg value | used when | how | 8 KiB, test host (TSC cycles/byte) |
//! |---|---|---|---|
//! | `sha1_backend="avx512"` | x86/x86-64 with AVX-512 F and BW, AVX2, BMI1 and BMI2 | single streams: SHA-NI's code when the CPU has it, else `avx2`'s; [`multi`]: 16 messages in the lanes of `zmm` (`vpternlogd` for the Boolean functions and the schedule's XORs, `vprold`), message words transposed 16×16 | as `shani` |
//! | `sha1_backend="shani"` | x86/x86-64 with SHA, SSE2, SSSE3 and SSE4.1 (Intel since Goldmont and Ice Lake, AMD since Zen) | `sha1rnds4` does four rounds; `W[32..80]` of the schedule is plain SSE instead of `sha1msg2`, which competes with `sha1rnds4` for its execution unit; the next block's first schedule groups are computed during the current block's rounds | ≈1.23 (RustCrypto sha1 0.11.0 ≈1.45, OpenSSL 3.0 ≈1.42, both with SHA-NI too) |
//! | `sha1_backend="avx2"` | x86/x86-64 with AVX2, BMI1 and BMI2 but no SHA-NI (Intel Haswell to Cascade Lake and Comet Lake, AMD Excavator) | `W[t] + K` of two blocks at a time in `ymm` registers, then scalar `rorx`/`andn` rounds that only load it; [`multi`]: 8 messages in the lanes of `ymm` | ≈3.0 (OpenSSL's AVX2 code ≈2.7) |
//! | `sha1_backend="armv8"` | aarch64 with NEON and the SHA-1/SHA-256 instructions (Rust's `sha2` target feature; detected with `getauxval` on Linux and Android, always present on Apple silicon) | `SHA1C`/`SHA1P`/`SHA1M` do four rounds, `SHA1H` gives the next `E`, `SHA1SU0`/`SHA1SU1` the message schedule | not measured (no aarch64 test host) |
//! | `sha1_backend="neon"` | aarch64 without the SHA-1 instructions (e.g. Cortex-A72 without the crypto extension, Raspberry Pi 4) | single streams: the `soft` code; [`multi`]: 4 messages in the lanes of a `q` register (`USRA`+`SHL` rotations, `BSL` for Ch and Maj), message words transposed 4×4 with `TRN1`/`TRN2` | not measured (no aarch64 test host) |
//! | `sha1_backend="soft"` | everywhere else (any architecture, either endianness, 32- or 64-bit) | portable Rust: two dependent operations per round, the schedule computed on the fly in a 16-word ring | ≈3.4 |
//!
//! The test host is an Intel Xeon (family 6, model 207) with SHA-NI and AVX-512; its
//! cores are wide enough that `soft` is nearly as fast as `avx2` there. On narrower
//! cores without SHA-NI, `avx2` runs half as many instructions per block as `soft`
//! (LLVM's machine model for Skylake: ≈240 against ≈360 cycles per block).
//!
//! [`multi`] under `shani`, `armv8` and `soft` hashes one message after the other.
//!
//! **Short messages.** Under `shani` (and `avx512` with SHA-NI) the last block or two
//! of a message, padding included, are built in registers: the rest of the message is
//! read with loads inside it and the padding never goes through memory. `block-buffer`'s
//! padding, which RustCrypto's `sha1` uses, stores `0x80`, the zeros and the length in
//! pieces, and the 16-byte loads of the block then wait for those stores to reach the
//! cache (store-to-load forwarding fails). Intel Xeon, one interleaved run each against
//! sha1 0.11.0 (`cargo run --release -p speed --bin small 16 64 sha1`, three runs): 16 B
//! 0.99–1.03× → 1.23–1.25×, 64 B 0.97–1.02× → 1.18–1.23×; 8 KiB unchanged. Not yet
//! measured on Zen 4, where the 16-byte row was 0.91×.
//!
//! **aarch64, multi-buffer: `armv8` before `neon`** (an estimate from instruction counts
//! and published timings, **not a measurement**: no aarch64 machine measures here, and
//! qemu timings mean nothing). Timings are the Arm Software Optimization Guides' as
//! LLVM's scheduling models encode them (`AArch64SchedNeoverseN1.td`,
//! `AArch64SchedNeoverseV1.td`, and `AArch64SchedA57.td`, which LLVM uses for Cortex-A72).
//! Instructions per 64-byte block, counted in the release disassembly (aarch64, Rust
//! 1.96) of each backend's block loop:
//!
//! | | `armv8`, one message | `neon`, 4 messages | `soft`, one message |
//! |---|---|---|---|
//! | instructions per block | 105: 20 `SHA1C/P/M`, 20 `SHA1H`, 32 `SHA1SU0/1`, 22 `ADD` | 1262 per 4 blocks = 315.5: 394 `ADD`, 292 `EOR`, 224 `USRA`, 160 `SHL`, 85 `AND`/`ORR`/`BSL`, 36 `MOV`, the rest loads, `REV32`, `TRN`, loop control | 1001 (scalar) |
//! | bound on Neoverse N1 | the chain of 20 `SHA1C/P/M` at 4 cycles each, ≈80 cycles (72 crypto µops on the one V0 pipe fit under it) | 1262 ASIMD µops on 2 pipes, 384 shifts on V1 alone: ≈631 cycles per 4 blocks, ≈158 per block (the chain, 80 rounds × 6 cycles = 480, is shorter) | ≈334 (3 integer pipes) |
//! | bound on Neoverse V1 | the same ≈80 cycles (`SHA1C/P/M` 4 cycles, V0 only) | the chain, 480 cycles per 4 blocks, ≈120 per block (4 ASIMD pipes: 316 cycles of µops) | ≈250 (4 integer pipes) |
//! | bound on Cortex-A72 | 20 × 6 cycles (`SHA1C/P/M`, 2 µops on F0), ≈120 | ≈631 cycles per 4 blocks (2 pipes, shifts on F1 only), ≈158 per block | ≈334–500 (3-wide decode, 2 integer ALUs) |
//!
//! So where the SHA-1 instructions exist, four messages one after the other through
//! `armv8` take ≈1.5–2× fewer cycles than the four lanes of `neon`, and detection puts
//! `armv8` first for [`multi`] as for single streams. Without them (Cortex-A72 without
//! the crypto extension: qemu's `cortex-a72` rung of the cross ladder), `neon`'s lanes are
//! ≈2–3× `soft`, so `neon` comes before `soft`, and single streams stay on `soft` there
//! (a one-lane NEON round would be longer than the scalar one: NEON has no rotate and
//! 2–3-cycle integer latency). Bench ids `sha1/neon`, `sha1-mb16/neon` (aarch64 CI host).
//!
//! Detection prefers `avx512` (which hashes single streams with SHA-NI when
//! present, so it only adds the 16-lane kernel), then `shani`, then `avx2`, then
//! `soft`; on aarch64 `armv8`, then `neon`, then `soft`. A forced backend governs both single
//! streams and [`multi`]. It runs once
//! (the result is cached by `simdcrypt-dispatch`) and the choice is stored in
//! [`block_api::Sha1Core`] when it is created, so each bulk update dispatches once;
//! [`block_api::compress`] and the [`multi`] functions dispatch once per call.
//!
//! # Security
//!
//! Every backend runs in constant time with respect to the data hashed: only
//! additions, rotations by constant amounts and bitwise logic, with no data-dependent
//! branches or table lookups. (That does not make SHA-1 secure; see above.)
//!
//! On aarch64, `armv8` (the SHA-1 instructions) and `neon` (additions, shifts and
//! bitwise selects on the message lanes) are constant-time in the same way: both, and
//! `soft`'s compression, pass the disassembly scan of `cargo xtask ct` over the aarch64
//! release build (cross-compiled with rustc 1.96; issue 24); the timing test and
//! valgrind need an aarch64 host and have not run on one.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), data secret: the compression of
//! `soft`, `avx2` and `shani` (with `shani`'s end of a message, which builds the padding
//! in registers; on the Intel Xeon since) and the multi-buffer hashing of `avx2` and
//! `avx512` pass the timing test (dudect, fixed vs random data) and the disassembly scan
//! (no secret-dependent branch or address, no table load); `soft` and `avx2` also
//! valgrind memcheck (valgrind cannot run SHA-NI).
//!
//! # Configuration
//!
//! The backend can be forced at build time, mainly for testing:
//!
//! ```text
//! RUSTFLAGS='--cfg sha1_backend="soft"' cargo test
//! RUSTFLAGS='--cfg sha1_backend="shani"' cargo test
//! RUSTFLAGS='--cfg sha1_backend="avx2"' cargo test
//! RUSTFLAGS='--cfg sha1_backend="avx512"' cargo test
//! RUSTFLAGS='--cfg sha1_backend="armv8"' cargo test    # aarch64
//! RUSTFLAGS='--cfg sha1_backend="neon"' cargo test     # aarch64
//! ```
//!
//! Forcing `soft` is honoured everywhere. Forcing `shani`, `avx2`, `avx512`, `armv8` or
//! `neon`
//! makes the first hasher created panic with a clear message if the CPU lacks the
//! features (or is not of the backend's architecture). Forcing never removes code: every
//! backend of the target stays compiled. RustCrypto's own values are accepted too:
//! `sha1_backend="x86-sha"` means `shani`, and `sha1_backend="aarch64-sha2"` means
//! `armv8` (RustCrypto's `sha1` needs `-C target-feature=+sha2` for it; here the CPU is
//! checked at run time instead).
//!
//! Crate features, as in RustCrypto's `sha1`: `alloc` and `oid` (default; `oid`
//! implements `AssociatedOid` for [`Sha1`]) and `zeroize` (the hasher state is
//! zeroized on drop).
//!
//! Minimum Rust: 1.85, as RustCrypto's `sha1` 0.11.0. The SIMD backends need Rust 1.89
//! (safe `#[target_feature]` functions and the AVX-512 intrinsics), so a build with
//! 1.85–1.88 compiles `soft` alone: correct, but without SHA-NI it runs slower than the
//! RustCrypto release, which has its SHA-NI code on 1.85. Use 1.89 or later for speed.
//!
//! [SHA-1]: https://en.wikipedia.org/wiki/SHA-1
//! [1]: https://sha-mbles.github.io/
//! [sha1-checked]: https://crates.io/crates/sha1-checked

#![no_std]
#![warn(missing_docs, unreachable_pub)]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub use digest::{self, Digest};

mod backends;

#[doc(hidden)]
pub use backends::__backends;

/// Multi-buffer hashing (an addition to RustCrypto's API): the SHA-1 of many
/// independent messages at once, one message per SIMD lane.
///
/// The AVX-512 backend hashes 16 messages in the 16 lanes of a `zmm` register, the
/// AVX2 backend 8 in a `ymm`, the aarch64 NEON backend 4 in a `q` register (on CPUs
/// without the SHA-1 instructions); with SHA-NI alone, the ARMv8 SHA-1 instructions, or
/// elsewhere, the messages are
/// hashed one after the other with the single-stream code (so every platform gets
/// the same results). Messages may have any, unequal lengths: a lane whose message
/// is done drops out while the others continue, and every lane builds its own
/// padding. The backend is chosen once per call (see the crate docs' Backends table).
///
/// ```
/// use hex_literal::hex;
///
/// let out = sha1::multi::digest_many([&b""[..], b"abc"]);
/// assert_eq!(out[0], hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
/// assert_eq!(out[1], hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
///
/// // No allocation: any slice of byte-slice-likes, outputs into a slice.
/// let msgs = [b"a".to_vec(), b"abc".to_vec()];
/// let mut digests = [[0u8; 20]; 2];
/// sha1::multi::digest_into(&msgs, &mut digests);
/// assert_eq!(digests[1], out[1]);
/// ```
pub mod multi {
    use crate::backends;

    /// A SHA-1 digest (the bytes of [`crate::Sha1`]'s output).
    pub type Output = [u8; 20];

    /// Writes the SHA-1 of `msgs[i]` to `out[i]` for every `i`.
    ///
    /// # Panics
    /// If `msgs` and `out` have different lengths.
    #[inline]
    pub fn digest_into<M: AsRef<[u8]>>(msgs: &[M], out: &mut [Output]) {
        backends::detect().digest_many(msgs, out)
    }

    /// The SHA-1 of each of the `N` messages.
    #[inline]
    pub fn digest_many<const N: usize>(msgs: [&[u8]; N]) -> [Output; N] {
        let mut out = [[0u8; 20]; N];
        digest_into(&msgs, &mut out);
        out
    }

    /// The SHA-1 of each message, in a new `Vec`.
    #[cfg(feature = "alloc")]
    pub fn digest_many_vec<M: AsRef<[u8]>>(msgs: &[M]) -> alloc::vec::Vec<Output> {
        let mut out = alloc::vec![[0u8; 20]; msgs.len()];
        digest_into(msgs, &mut out);
        out
    }
}

/// Block-level types
pub mod block_api {
    use crate::backends::{self, Backend};
    use core::fmt;
    use digest::{
        HashMarker, Output,
        array::Array,
        block_api::{
            AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore,
            OutputSizeUser, Reset, UpdateCore,
        },
        common::hazmat::{DeserializeStateError, SerializableState, SerializedState},
        typenum::{U20, U28, U64, Unsigned},
    };

    const STATE_LEN: usize = 5;
    const H0: [u32; STATE_LEN] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];

    /// SHA-1 compression function
    ///
    /// Absorbs `blocks` into `state` with the fastest backend this CPU supports.
    #[inline]
    pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        backends::detect_stream().compress(state, blocks)
    }

    /// Core SHA-1 hasher state.
    #[derive(Clone)]
    pub struct Sha1Core {
        h: [u32; STATE_LEN],
        block_len: u64,
        backend: Backend,
    }

    impl HashMarker for Sha1Core {}

    impl BlockSizeUser for Sha1Core {
        type BlockSize = U64;
    }

    impl BufferKindUser for Sha1Core {
        type BufferKind = Eager;
    }

    impl OutputSizeUser for Sha1Core {
        type OutputSize = U20;
    }

    impl UpdateCore for Sha1Core {
        #[inline]
        fn update_blocks(&mut self, blocks: &[Block<Self>]) {
            self.block_len = self.block_len.wrapping_add(blocks.len() as u64);
            let blocks = Array::cast_slice_to_core(blocks);
            self.backend.compress(&mut self.h, blocks)
        }
    }

    impl FixedOutputCore for Sha1Core {
        #[inline]
        fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
            let bit_len = self
                .block_len
                .wrapping_mul(Self::BlockSize::U64)
                .wrapping_add(buffer.get_pos() as u64)
                .wrapping_mul(8);
            let mut h = self.h;
            self.backend.finalize(&mut h, buffer, bit_len);
            for (chunk, v) in out.chunks_exact_mut(4).zip(h.iter()) {
                chunk.copy_from_slice(&v.to_be_bytes());
            }
        }
    }

    impl Default for Sha1Core {
        #[inline]
        fn default() -> Self {
            Self {
                h: H0,
                block_len: 0,
                backend: backends::detect_stream(),
            }
        }
    }

    impl Reset for Sha1Core {
        #[inline]
        fn reset(&mut self) {
            // The backend stays: the CPU did not change.
            self.h = H0;
            self.block_len = 0;
        }
    }

    impl AlgorithmName for Sha1Core {
        fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Sha1")
        }
    }

    impl fmt::Debug for Sha1Core {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Sha1Core { ... }")
        }
    }

    impl Drop for Sha1Core {
        fn drop(&mut self) {
            #[cfg(feature = "zeroize")]
            {
                use digest::zeroize::Zeroize;
                self.h.zeroize();
                self.block_len.zeroize();
            }
        }
    }

    #[cfg(feature = "zeroize")]
    impl digest::zeroize::ZeroizeOnDrop for Sha1Core {}

    impl SerializableState for Sha1Core {
        type SerializedStateSize = U28;

        fn serialize(&self) -> SerializedState<Self> {
            let mut serialized_h = SerializedState::<Self>::default();

            for (val, chunk) in self.h.iter().zip(serialized_h.chunks_exact_mut(4)) {
                chunk.copy_from_slice(&val.to_le_bytes());
            }

            serialized_h[20..].copy_from_slice(&self.block_len.to_le_bytes());
            serialized_h
        }

        fn deserialize(
            serialized_state: &SerializedState<Self>,
        ) -> Result<Self, DeserializeStateError> {
            let (serialized_h, serialized_block_len) = serialized_state.split::<U20>();

            let mut h = [0; STATE_LEN];
            for (val, chunk) in h.iter_mut().zip(serialized_h.chunks_exact(4)) {
                let mut word = [0; 4];
                word.copy_from_slice(chunk);
                *val = u32::from_le_bytes(word);
            }

            let block_len = u64::from_le_bytes(*serialized_block_len.as_ref());

            Ok(Self {
                h,
                block_len,
                backend: backends::detect_stream(),
            })
        }
    }
}

digest::buffer_fixed!(
    /// SHA-1 hasher.
    pub struct Sha1(block_api::Sha1Core);
    oid: "1.3.14.3.2.26";
    impl: FixedHashTraits;
);
