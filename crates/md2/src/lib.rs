//! An implementation of the [MD2][1] cryptographic hash algorithm, a drop-in
//! replacement for RustCrypto's [`md2`](https://docs.rs/md2/0.11.0) 0.11: the same
//! types, traits, features, OID and serialized state, only faster.
//!
//! # Usage
//!
//! ```rust
//! use md2::{Md2, Digest};
//! use hex_literal::hex;
//!
//! // create a Md2 hasher instance
//! let mut hasher = Md2::new();
//!
//! // process input message
//! hasher.update(b"hello world");
//!
//! // acquire hash digest in the form of Array,
//! // which in this case is equivalent to [u8; 16]
//! let hash = hasher.finalize();
//! assert_eq!(hash, hex!("d9cce882ee690a5c1ce70beff3a78c77"));
//! ```
//!
//! Also see [RustCrypto/hashes][2] readme.
//!
//! # Backends
//!
//! | cfg value | used when | how |
//! |---|---|---|
//! | `md2_backend="soft"` | everywhere (any architecture, either endianness, 32- or 64-bit; the only backend) | portable Rust: two steps of the 864-step lookup chain of a block per load, through a 64 KiB table of `S[x ^ S[u]]` whose rows are read into L1 ahead of use; the round offset folded into the table address; the checksum chain overlapped with the rounds |
//!
//! Measured on this project's x86-64 test host (8 KiB messages, TSC cycles per byte,
//! best of 201 interleaved runs): 142 against 254 for RustCrypto's `md2` 0.11.0
//! (1.8x); at 64 bytes 222 against 378. OpenSSL 3 builds without MD2.
//!
//! The price is a 64 KiB read-only table (RustCrypto's crate has one of 256 bytes).
//! A vector backend that builds a table per pair of steps (taking the `xor` off the
//! chain) was measured slower than `soft` and is not included. The backend is chosen
//! once per hasher (when its core is created) and each bulk update dispatches once.
//!
//! # Security
//!
//! MD2 is broken (collisions and preimages faster than generic attacks); use it
//! only to interoperate with old formats. No MD2 implementation is constant time,
//! and neither is this one: every step reads the S-box (here, and in pairs of steps,
//! the 64 KiB two-step table) at an index that depends on the data hashed, so cache
//! timing can leak information about the message, as with RustCrypto's and
//! OpenSSL's implementations.
//!
//! # Configuration
//!
//! - Crate features, as in RustCrypto's `md2`: `alloc` and `oid` (default; `oid`
//!   implements `AssociatedOid` for [`Md2`]) and `zeroize` (the hasher state is
//!   zeroized on drop).
//! - `RUSTFLAGS='--cfg md2_backend="soft"'` forces the `soft` backend. It is the only
//!   backend, so this changes nothing; the cfg exists so that every simdcrypt crate
//!   can be forced the same way.
//!
//! [1]: https://en.wikipedia.org/wiki/MD2_(hash_function)
//! [2]: https://github.com/RustCrypto/hashes

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
        consts::{U16, U48, U64},
    };

    const STATE_LEN: usize = 48;

    /// Core MD2 hasher state
    #[derive(Clone)]
    pub struct Md2Core {
        x: [u8; STATE_LEN],
        checksum: [u8; 16],
        backend: Backend,
    }

    impl Md2Core {
        #[inline]
        fn compress(&mut self, blocks: &[[u8; 16]]) {
            self.backend
                .compress(&mut self.x, &mut self.checksum, blocks);
        }
    }

    impl HashMarker for Md2Core {}

    impl BlockSizeUser for Md2Core {
        type BlockSize = U16;
    }

    impl BufferKindUser for Md2Core {
        type BufferKind = Eager;
    }

    impl OutputSizeUser for Md2Core {
        type OutputSize = U16;
    }

    impl UpdateCore for Md2Core {
        #[inline]
        fn update_blocks(&mut self, blocks: &[Block<Self>]) {
            self.compress(Array::cast_slice_to_core(blocks));
        }
    }

    impl FixedOutputCore for Md2Core {
        #[inline]
        fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
            let pos = buffer.get_pos();
            let rem = buffer.remaining() as u8;
            let mut block = buffer.pad_with_zeros();
            block[pos..].iter_mut().for_each(|b| *b = rem);

            self.compress(&[block.0]);
            let checksum = self.checksum;
            self.compress(&[checksum]);
            out.copy_from_slice(&self.x[..16]);
        }
    }

    impl Default for Md2Core {
        #[inline]
        fn default() -> Self {
            Self {
                x: [0; STATE_LEN],
                checksum: Default::default(),
                backend: backends::detect(),
            }
        }
    }

    impl Reset for Md2Core {
        #[inline]
        fn reset(&mut self) {
            // The backend stays: the CPU did not change.
            self.x = [0; STATE_LEN];
            self.checksum = Default::default();
        }
    }

    impl AlgorithmName for Md2Core {
        fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Md2")
        }
    }

    impl fmt::Debug for Md2Core {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Md2Core { ... }")
        }
    }

    impl Drop for Md2Core {
        fn drop(&mut self) {
            #[cfg(feature = "zeroize")]
            {
                use digest::zeroize::Zeroize;
                self.x.zeroize();
                self.checksum.zeroize();
            }
        }
    }

    #[cfg(feature = "zeroize")]
    impl digest::zeroize::ZeroizeOnDrop for Md2Core {}

    impl SerializableState for Md2Core {
        type SerializedStateSize = U64;

        fn serialize(&self) -> SerializedState<Self> {
            let checksum: Block<Self> = self.checksum.into();
            Array::<_, U48>::from(self.x).concat(checksum)
        }

        fn deserialize(
            serialized_state: &SerializedState<Self>,
        ) -> Result<Self, DeserializeStateError> {
            let (serialized_x, serialized_checksum) = serialized_state.split::<U48>();

            Ok(Self {
                x: *serialized_x.as_ref(),
                checksum: serialized_checksum.0,
                backend: backends::detect(),
            })
        }
    }
}

digest::buffer_fixed!(
    /// MD2 hasher.
    pub struct Md2(block_api::Md2Core);
    oid: "1.2.840.113549.2.2";
    impl: FixedHashTraits;
);
