//! Pure Rust implementation of the [RIPEMD] cryptographic hash functions, a drop-in
//! replacement for RustCrypto's [`ripemd`](https://docs.rs/ripemd/0.2.0) 0.2: the same
//! types, traits, features, OIDs and serialized states, only faster.
//!
//! This crate implements only the modified 1996 versions, not the original
//! one from 1992.
//!
//! Note that RIPEMD-256 provides only the same security as RIPEMD-128,
//! and RIPEMD-320 provides only the same security as RIPEMD-160.
//!
//! # Examples
//!
//! ```rust
//! use ripemd::{Ripemd160, Ripemd320, Digest};
//! use hex_literal::hex;
//!
//! let mut hasher = Ripemd160::new();
//! hasher.update(b"Hello world!");
//! let hash160 = hasher.finalize();
//!
//! assert_eq!(hash160, hex!("7f772647d88750add82d8e1a7a3e5c0902a346a3"));
//!
//! // Same example for RIPEMD-320
//! let mut hasher = Ripemd320::new();
//! hasher.update(b"Hello world!");
//! let hash320 = hasher.finalize();
//!
//! assert_eq!(hash320, hex!(
//!     "f1c1c231d301abcf2d7daae0269ff3e7bc68e623"
//!     "ad723aa068d316b056d26b7d1bb6f0cc0f28336d"
//! ));
//! ```
//!
//! See the [`digest`] crate docs for additional examples.
//!
//! # Backends
//!
//! | cfg value | used when | how |
//! |---|---|---|
//! | `ripemd_backend="soft"` | everywhere (any architecture, either endianness, 32- or 64-bit; the only backend) | portable Rust: the two independent lines of each function interleaved step by step so that the CPU overlaps them, Boolean functions arranged so that one or two operations per step wait for the previous step, every constant, message index and rotation unrolled at compile time |
//!
//! Measured on this project's x86-64 test host (8 KiB messages, TSC cycles per byte,
//! best of 301 interleaved runs): RIPEMD-160 4.6 against 8.5 for RustCrypto's
//! `ripemd` 0.2.0 and 9.1 for OpenSSL 3.0; RIPEMD-128 3.1 (6.6), RIPEMD-256 3.2 (4.8),
//! RIPEMD-320 4.7 (7.0).
//!
//! RIPEMD is two serial chains of 32-bit steps with different functions, message
//! orders and rotations per chain, so one message leaves vector units nothing to do
//! that the scalar code does not do at about the same latency, and the scalar code
//! is already close to both its latency bound and the core's issue width; there is
//! no ISA backend (building the same code with every feature of the host CPU enabled,
//! BMI included, measures the same). The backend is chosen once per hasher (when its
//! core is created) and each bulk update dispatches once.
//!
//! # Security
//!
//! The `soft` backend runs in constant time with respect to the data hashed: it uses
//! only additions, rotations by constant amounts and bitwise logic, with no
//! data-dependent branches or table lookups. `cargo xtask ct` checks RIPEMD-160's
//! compression under valgrind memcheck, with the timing test (dudect, fixed vs random
//! data) and with the disassembly scan (no secret-dependent branch or address, no table
//! load), on AMD Zen 4 (issue 24); the scan passes its aarch64 build too.
//!
//! # Configuration
//!
//! - Crate features, as in RustCrypto's `ripemd`: `alloc` and `oid` (default; `oid`
//!   implements `AssociatedOid` for [`Ripemd128`], [`Ripemd160`] and [`Ripemd256`],
//!   with the TeleTrusT OIDs) and `zeroize` (hasher states are zeroized on drop).
//! - `RUSTFLAGS='--cfg ripemd_backend="soft"'` forces the `soft` backend. It is the
//!   only backend, so this changes nothing; the cfg exists so that every simdcrypt
//!   crate can be forced the same way.
//!
//! [RIPEMD]: https://en.wikipedia.org/wiki/RIPEMD

#![no_std]
#![doc(
    html_logo_url = "https://raw.githubusercontent.com/RustCrypto/media/6ee8e381/logo.svg",
    html_favicon_url = "https://raw.githubusercontent.com/RustCrypto/media/6ee8e381/logo.svg"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
extern crate std;

pub use digest::{self, Digest};

mod backends;

#[doc(hidden)]
pub use backends::__backends;

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
        typenum::{Sum, U8, U16, U20, U32, U40, U64, Unsigned},
    };

    const H128: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    const H160: [u32; 5] = [
        0x6745_2301,
        0xefcd_ab89,
        0x98ba_dcfe,
        0x1032_5476,
        0xc3d2_e1f0,
    ];
    const H256: [u32; 8] = [
        0x6745_2301,
        0xefcd_ab89,
        0x98ba_dcfe,
        0x1032_5476,
        0x7654_3210,
        0xfedc_ba98,
        0x89ab_cdef,
        0x0123_4567,
    ];
    const H320: [u32; 10] = [
        0x6745_2301,
        0xefcd_ab89,
        0x98ba_dcfe,
        0x1032_5476,
        0xc3d2_e1f0,
        0x7654_3210,
        0xfedc_ba98,
        0x89ab_cdef,
        0x0123_4567,
        0x3c2d_1e0f,
    ];

    macro_rules! impl_ripemd {
        (
            $name:ident, $words:literal, $h0:ident, $compress:ident, $alg_width:expr,
            $doc_name:expr, $output_size:ty, $state_bytes:ty
        ) => {
            #[doc = "Core block-level"]
            #[doc = $doc_name]
            #[doc = " hasher state."]
            #[derive(Clone)]
            pub struct $name {
                h: [u32; $words],
                block_len: u64,
                backend: Backend,
            }

            impl HashMarker for $name {}

            impl BlockSizeUser for $name {
                type BlockSize = U64;
            }

            impl BufferKindUser for $name {
                type BufferKind = Eager;
            }

            impl OutputSizeUser for $name {
                type OutputSize = $output_size;
            }

            impl UpdateCore for $name {
                #[inline]
                fn update_blocks(&mut self, blocks: &[Block<Self>]) {
                    self.block_len = self.block_len.wrapping_add(blocks.len() as u64);
                    let blocks = Array::cast_slice_to_core(blocks);
                    self.backend.$compress(&mut self.h, blocks);
                }
            }

            impl FixedOutputCore for $name {
                #[inline]
                fn finalize_fixed_core(
                    &mut self,
                    buffer: &mut Buffer<Self>,
                    out: &mut Output<Self>,
                ) {
                    let bit_len = self
                        .block_len
                        .wrapping_mul(Self::BlockSize::U64)
                        .wrapping_add(buffer.get_pos() as u64)
                        .wrapping_mul(8);
                    let mut h = self.h;
                    let backend = self.backend;
                    buffer.len64_padding_le(bit_len, |block| backend.$compress(&mut h, &[block.0]));

                    for (chunk, v) in out.chunks_exact_mut(4).zip(h.iter()) {
                        chunk.copy_from_slice(&v.to_le_bytes());
                    }
                }
            }

            impl Default for $name {
                #[inline]
                fn default() -> Self {
                    Self {
                        h: $h0,
                        block_len: 0,
                        backend: backends::detect(),
                    }
                }
            }

            impl Reset for $name {
                #[inline]
                fn reset(&mut self) {
                    // The backend stays: the CPU did not change.
                    self.h = $h0;
                    self.block_len = 0;
                }
            }

            impl AlgorithmName for $name {
                #[inline]
                fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str(concat!("Ripemd", $alg_width))
                }
            }

            impl fmt::Debug for $name {
                #[inline]
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str(concat!("Ripemd", $alg_width, "Core { ... }"))
                }
            }

            impl Drop for $name {
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
            impl digest::zeroize::ZeroizeOnDrop for $name {}

            impl SerializableState for $name {
                type SerializedStateSize = Sum<$state_bytes, U8>;

                fn serialize(&self) -> SerializedState<Self> {
                    let mut serialized_h = SerializedState::<Self>::default();

                    for (val, chunk) in self.h.iter().zip(serialized_h.chunks_exact_mut(4)) {
                        chunk.copy_from_slice(&val.to_le_bytes());
                    }

                    serialized_h[<$state_bytes>::USIZE..]
                        .copy_from_slice(&self.block_len.to_le_bytes());
                    serialized_h
                }

                fn deserialize(
                    serialized_state: &SerializedState<Self>,
                ) -> Result<Self, DeserializeStateError> {
                    let (serialized_h, serialized_block_len) =
                        serialized_state.split::<$state_bytes>();

                    let mut h = [0; $words];
                    for (val, chunk) in h.iter_mut().zip(serialized_h.chunks_exact(4)) {
                        *val = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                    }

                    let block_len = u64::from_le_bytes(*serialized_block_len.as_ref());

                    Ok(Self {
                        h,
                        block_len,
                        backend: backends::detect(),
                    })
                }
            }
        };
    }

    impl_ripemd!(
        Ripemd128Core,
        4,
        H128,
        compress128,
        "128",
        "RIPEMD-128",
        U16,
        U16
    );
    impl_ripemd!(
        Ripemd160Core,
        5,
        H160,
        compress160,
        "160",
        "RIPEMD-160",
        U20,
        U20
    );
    impl_ripemd!(
        Ripemd256Core,
        8,
        H256,
        compress256,
        "256",
        "RIPEMD-256",
        U32,
        U32
    );
    impl_ripemd!(
        Ripemd320Core,
        10,
        H320,
        compress320,
        "320",
        "RIPEMD-320",
        U40,
        U40
    );
}

// Note about used OIDs: there are two OIDs defined for RIPEMD-128/160.
// The Teletrust one (which is used by almost anybody, including BouncyCastle,
// OpenSSL, GnuTLS, etc.) and the ISO one (1.0.10118.3.0.50/49), which appears
// to be used only by the Go standard library.

digest::buffer_fixed!(
    /// RIPEMD-128 hasher
    pub struct Ripemd128(block_api::Ripemd128Core);
    oid: "1.3.36.3.2.2";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// RIPEMD-160 hasher
    pub struct Ripemd160(block_api::Ripemd160Core);
    oid: "1.3.36.3.2.1";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// RIPEMD-256 hasher
    pub struct Ripemd256(block_api::Ripemd256Core);
    oid: "1.3.36.3.2.3";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// RIPEMD-320 hasher
    pub struct Ripemd320(block_api::Ripemd320Core);
    impl: FixedHashTraits;
);
