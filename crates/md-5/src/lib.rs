//! Pure Rust implementation of the [MD5] cryptographic hash algorithm, a drop-in
//! replacement for RustCrypto's [`md-5`](https://docs.rs/md-5/0.11.0) 0.11 with
//! backends chosen at run time.
//!
//! # ⚠️ Security Warning
//!
//! This crate is provided for the purposes of legacy interoperability with
//! protocols and systems which mandate the use of MD5.
//!
//! However, MD5 is [cryptographically broken and unsuitable for further use][1].
//!
//! Collision attacks against MD5 are both practical and trivial, and
//! [theoretical attacks against MD5's preimage resistance have been found][2].
//!
//! [RFC 6151] advises no new IETF protocols can be designed MD5-based constructions,
//! including HMAC-MD5.
//!
//! # Examples
//!
//! ```rust
//! use md5::{Md5, Digest};
//! use hex_literal::hex;
//!
//! let mut hasher = Md5::new();
//! hasher.update(b"hello world");
//! let hash = hasher.finalize();
//!
//! assert_eq!(hash, hex!("5eb63bbbe01eeed093cb22bb8f5acdc3"));
//! ```
//!
//! See the [`digest`] crate docs for additional examples.
//!
//! # Backends
//!
//! MD5 is one serial chain of 64 steps per 64-byte block, so a backend is as fast
//! as the latency of one step; SIMD width does not help a single message.
//!
//! | cfg value | used when | single stream: step latency | [`multi`] (many messages) |
//! |---|---|---|---|
//! | `md5_backend="avx512"` | x86/x86-64 with AVX-512 F and VL | 4 cycles: each state word lives in lane 0 of an `xmm` register, `vpternlogd` computes F/G/H/I in one instruction, `vprold` rotates; message words and constants are added off the critical path (≈ 4.0 cycles per byte) | 16 messages in the lanes of `zmm` (`vpternlogd`, `vprold`), message words transposed 16×16 |
//! | `md5_backend="avx2"` | x86/x86-64 with AVX2 but not AVX-512 | the `soft` code (AVX2 cannot shorten a step) | 8 messages in the lanes of `ymm` |
//! | `md5_backend="neon"` | aarch64 (every aarch64 CPU has NEON) | the `soft` code: a NEON step is ≈5 dependent instructions of 2–3 cycles each, a scalar step ≈4–5 instructions of 1 cycle | 4 messages in the 4 lanes of a `q` register (`SHL`+`SRI` rotations, `BSL`/`BIT` for F and G), message words transposed 4×4 with `TRN1`/`TRN2` |
//! | `md5_backend="soft"` | everywhere else (any architecture, either endianness, 32- or 64-bit) | 4–5 cycles: portable Rust arranged so that only one or two operations per step depend on the previous step (≈ 4.5 cycles per byte on x86-64) | one message after the other |
//!
//! On AMD CPUs the one-lane `xmm` kernel is slower than the portable code, so there a
//! single stream runs `soft` and only [`multi`] runs `avx512`'s 16-lane kernel. One
//! interleaved run, 8 KiB, TSC cycles per byte (`cargo run --release -p speed --bin auto
//! md5 md5-mb`):
//!
//! | machine | one message: `avx512` | `soft` | 16 messages: `avx512` | `avx2` |
//! |---|---|---|---|---|
//! | AMD Zen 4 (EPYC, family 25 model 17) | 3.93 | 3.23 | 0.51 | 0.74 |
//!
//! On the Intel Xeon reference machine the one-lane kernel is the faster one (1.2×
//! OpenSSL 3, where `soft` is about 1.05×).
//!
//! On aarch64, `neon`'s figures are an **estimate, not a measurement** (no aarch64
//! machine measures here; qemu timings mean nothing), from the release disassembly
//! (aarch64, Rust 1.96) and the Arm Software Optimization Guides' timings as LLVM's
//! scheduling models encode them (`AArch64SchedNeoverseN1.td`, `…NeoverseV1.td`, and
//! `AArch64SchedA57.td`, which LLVM uses for Cortex-A72). Four lanes share one chain of 64
//! steps; after `b` is known a step waits for the Boolean function (1–2 instructions),
//! `t + f`, then `(b + (u >> 32 - s)) + (u << s)` (`USRA` beside `SHL`, then `ADD`). On
//! Neoverse N1/V1 (ASIMD integer 2 cycles, `USRA` 4) that is 10–12 cycles per step,
//! ≈700 per 4 blocks, ≈175 per block (≈2.7 cycles per byte of each message); on Cortex-A72
//! (3 cycles) ≈13–16 per step, ≈230 per block. `soft` on one message: ≈4–5 one-cycle scalar
//! operations per step, ≈290 cycles per block. So ≈1.6× the throughput on N1/V1, ≈1.25×
//! on A72. Instructions per 64-byte block (the block loops): `neon` 693 per 4 blocks
//! (≈173 per block: 265 `ADD`, 106 `MOV`, 60 `USRA`, 60 `SHL`, 46 `EOR`, 32 `BSL`, 16
//! `ORN`, 4 `REV32`, 65 loads, 24 `TRN`/`ZIP`), `soft` 531 (scalar), so the ASIMD pipes
//! (2 on N1, 4 on V1) have room and the step latency bounds `neon`. Single streams stay on
//! `soft`, as under `avx2`. Bench ids `md5/neon`, `md5-mb16/neon` (run by the aarch64 CI
//! host).
//!
//! The backend is detected once (the result is cached by `simdcrypt-dispatch`) and
//! stored in [`block_api::Md5Core`] when it is created, so each bulk update dispatches
//! once.
//! [`block_api::compress`] and the [`multi`] functions dispatch once per call. A
//! forced backend governs both: forcing `avx2` gives the soft single-stream code
//! and the 8-lane multi-buffer kernel.
//!
//! # Security
//!
//! All backends run in constant time with respect to the data hashed: they use
//! only additions, rotations by constant amounts and bitwise logic, with no
//! data-dependent branches or table lookups. (That does not make MD5 secure; see
//! above.)
//!
//! `neon` (aarch64) is constant-time in the same way: message loads, additions, shifts
//! and bitwise selects (`BSL`), no branch or address that depends on the data. Its
//! multi-buffer kernel and `soft`'s compression pass the disassembly scan of `cargo
//! xtask ct` over the aarch64 release build (cross-compiled with rustc 1.96; issue 24);
//! the timing test and valgrind need an aarch64 host and have not run on one.
//!
//! Checked by `cargo xtask ct` (on AMD Zen 4, issue 24), data secret: the compression of
//! `soft` and `avx512` and the multi-buffer hashing of `avx2` and `avx512` pass the timing
//! test (dudect, fixed vs random data); all but `avx512`'s multi-buffer kernel pass the
//! disassembly scan (no secret-dependent branch or address, no table load), which reports
//! there the lane pointers chosen by the mask of non-empty lanes (message lengths, public,
//! computed in mask registers); `soft` and `avx2` also valgrind memcheck.
//!
//! # Configuration
//!
//! The backend can be forced at build time, mainly for testing:
//!
//! ```text
//! RUSTFLAGS='--cfg md5_backend="soft"' cargo test
//! RUSTFLAGS='--cfg md5_backend="avx2"' cargo test
//! RUSTFLAGS='--cfg md5_backend="avx512"' cargo test
//! RUSTFLAGS='--cfg md5_backend="neon"' cargo test    # aarch64
//! ```
//!
//! Forcing `soft` is honoured everywhere. Forcing `avx512` (`avx2`) on a CPU
//! without AVX-512 F/VL (AVX2), or on a non-x86 target, or `neon` off aarch64, makes creating a hasher,
//! or calling [`block_api::compress`] or a [`multi`] function, panic with a clear message. Forcing never removes
//! code: every backend stays compiled.
//!
//! Crate features, as in RustCrypto's `md-5`: `alloc` and `oid` (default;
//! `oid` implements `AssociatedOid` for [`Md5`]) and `zeroize` (the hasher state
//! is zeroized on drop).
//!
//! [MD5]: https://en.wikipedia.org/wiki/MD5
//! [1]: https://www.kb.cert.org/vuls/id/836068
//! [2]: https://dl.acm.org/citation.cfm?id=1724151
//! [RFC 6151]: https://tools.ietf.org/html/rfc6151

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

/// Multi-buffer hashing (an addition to RustCrypto's API): the MD5 of many
/// independent messages at once, one message per SIMD lane.
///
/// MD5 of one message is a serial chain, but independent messages can share the
/// instructions: the AVX-512 backend hashes 16 messages in the 16 lanes of a `zmm`
/// register, the AVX2 backend 8 in a `ymm`, the aarch64 NEON backend 4 in a `q`
/// register, and elsewhere the messages are hashed
/// one after the other with the single-stream code (so every platform gets the
/// same results). Messages may have any, unequal lengths: a lane whose message is
/// done drops out while the others continue, and every lane builds its own padding.
/// The backend is chosen once per call (see the crate docs' Backends table).
///
/// ```
/// use hex_literal::hex;
///
/// let out = md5::multi::digest_many([&b""[..], b"abc", b"message digest"]);
/// assert_eq!(out[0], hex!("d41d8cd98f00b204e9800998ecf8427e"));
/// assert_eq!(out[1], hex!("900150983cd24fb0d6963f7d28e17f72"));
/// assert_eq!(out[2], hex!("f96b697d7cb7938d525a2f31aaf161d0"));
///
/// // No allocation: any slice of byte-slice-likes, outputs into a slice.
/// let msgs = [b"a".to_vec(), b"abc".to_vec()];
/// let mut digests = [[0u8; 16]; 2];
/// md5::multi::digest_into(&msgs, &mut digests);
/// assert_eq!(digests[1], out[1]);
/// ```
pub mod multi {
    use crate::backends;

    /// An MD5 digest (the bytes of [`crate::Md5`]'s output).
    pub type Output = [u8; 16];

    /// Writes the MD5 of `msgs[i]` to `out[i]` for every `i`.
    ///
    /// # Panics
    /// If `msgs` and `out` have different lengths.
    #[inline]
    pub fn digest_into<M: AsRef<[u8]>>(msgs: &[M], out: &mut [Output]) {
        backends::detect().digest_many(msgs, out)
    }

    /// The MD5 of each of the `N` messages.
    #[inline]
    pub fn digest_many<const N: usize>(msgs: [&[u8]; N]) -> [Output; N] {
        let mut out = [[0u8; 16]; N];
        digest_into(&msgs, &mut out);
        out
    }

    /// The MD5 of each message, in a new `Vec`.
    #[cfg(feature = "alloc")]
    pub fn digest_many_vec<M: AsRef<[u8]>>(msgs: &[M]) -> alloc::vec::Vec<Output> {
        let mut out = alloc::vec![[0u8; 16]; msgs.len()];
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
        typenum::{U16, U24, U64, Unsigned},
    };

    const STATE_LEN: usize = 4;
    const STATE_INIT: [u32; STATE_LEN] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476];

    /// MD5 compression function
    ///
    /// Absorbs `blocks` into `state` with the fastest backend this CPU supports.
    #[inline]
    pub fn compress(state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        backends::detect_stream().compress(state, blocks)
    }

    /// Core MD5 hasher state.
    #[derive(Clone)]
    pub struct Md5Core {
        block_len: u64,
        state: [u32; STATE_LEN],
        backend: Backend,
    }

    impl HashMarker for Md5Core {}

    impl BlockSizeUser for Md5Core {
        type BlockSize = U64;
    }

    impl BufferKindUser for Md5Core {
        type BufferKind = Eager;
    }

    impl OutputSizeUser for Md5Core {
        type OutputSize = U16;
    }

    impl UpdateCore for Md5Core {
        #[inline]
        fn update_blocks(&mut self, blocks: &[Block<Self>]) {
            self.block_len = self.block_len.wrapping_add(blocks.len() as u64);
            let blocks = Array::cast_slice_to_core(blocks);
            self.backend.compress(&mut self.state, blocks)
        }
    }

    impl FixedOutputCore for Md5Core {
        #[inline]
        fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
            let bit_len = self
                .block_len
                .wrapping_mul(Self::BlockSize::U64)
                .wrapping_add(buffer.get_pos() as u64)
                .wrapping_mul(8);
            let mut s = self.state;
            let backend = self.backend;
            buffer.len64_padding_le(bit_len, |b| backend.compress(&mut s, &[b.0]));
            for (chunk, v) in out.chunks_exact_mut(4).zip(s.iter()) {
                chunk.copy_from_slice(&v.to_le_bytes());
            }
        }
    }

    impl Default for Md5Core {
        #[inline]
        fn default() -> Self {
            Self {
                block_len: 0,
                state: STATE_INIT,
                backend: backends::detect_stream(),
            }
        }
    }

    impl Reset for Md5Core {
        #[inline]
        fn reset(&mut self) {
            // The backend stays: the CPU did not change.
            self.block_len = 0;
            self.state = STATE_INIT;
        }
    }

    impl AlgorithmName for Md5Core {
        fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Md5")
        }
    }

    impl fmt::Debug for Md5Core {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Md5Core { ... }")
        }
    }

    impl Drop for Md5Core {
        fn drop(&mut self) {
            #[cfg(feature = "zeroize")]
            {
                use digest::zeroize::Zeroize;
                self.state.zeroize();
                self.block_len.zeroize();
            }
        }
    }

    #[cfg(feature = "zeroize")]
    impl digest::zeroize::ZeroizeOnDrop for Md5Core {}

    impl SerializableState for Md5Core {
        type SerializedStateSize = U24;

        fn serialize(&self) -> SerializedState<Self> {
            let mut serialized_state = SerializedState::<Self>::default();

            for (val, chunk) in self.state.iter().zip(serialized_state.chunks_exact_mut(4)) {
                chunk.copy_from_slice(&val.to_le_bytes());
            }

            serialized_state[16..].copy_from_slice(&self.block_len.to_le_bytes());
            serialized_state
        }

        fn deserialize(
            serialized_state: &SerializedState<Self>,
        ) -> Result<Self, DeserializeStateError> {
            let (serialized_state, serialized_block_len) = serialized_state.split::<U16>();

            let mut state = [0; STATE_LEN];
            for (val, chunk) in state.iter_mut().zip(serialized_state.chunks_exact(4)) {
                let mut word = [0; 4];
                word.copy_from_slice(chunk);
                *val = u32::from_le_bytes(word);
            }

            let block_len = u64::from_le_bytes(*serialized_block_len.as_ref());

            Ok(Self {
                state,
                block_len,
                backend: backends::detect_stream(),
            })
        }
    }
}

digest::buffer_fixed!(
    /// MD5 hasher state.
    pub struct Md5(block_api::Md5Core);
    oid: "1.2.840.113549.2.5";
    impl: FixedHashTraits;
);
