//! CTR flavors: how a counter value becomes a counter block.
//!
//! A flavor takes one `W`-bit word of the IV as the counter (the last word for the
//! big-endian flavors, the first for the little-endian ones, in that byte order) and
//! keeps the rest of the IV as the nonce. Block `i` of the keystream encrypts the IV with
//! that word replaced by `word + i` modulo 2^W; the other words never change (no carry
//! leaves the counter word), exactly as RustCrypto's `ctr` does.

use cipher::{
    StreamCipherCounter,
    array::{Array, ArraySize},
    typenum::{PartialDiv, PartialQuot, U4, U8, U16, Unsigned},
};
use core::fmt;

/// Trait implemented by different CTR flavors.
pub trait CtrFlavor<B: ArraySize> {
    /// Inner representation of nonce.
    type CtrNonce: Clone;
    /// Backend numeric type
    type Backend: StreamCipherCounter;
    /// Flavor name
    const NAME: &'static str;

    /// Return number of remaining blocks.
    ///
    /// If result does not fit into `usize`, returns `None`.
    fn remaining(cn: &Self::CtrNonce) -> Option<usize>;

    /// Generate block for given `nonce` and current counter value.
    fn next_block(cn: &mut Self::CtrNonce) -> Array<u8, B>;

    /// Generate block for given `nonce` and current counter value.
    fn current_block(cn: &Self::CtrNonce) -> Array<u8, B>;

    /// Initialize from bytes.
    fn from_nonce(block: &Array<u8, B>) -> Self::CtrNonce;

    /// Convert from a backend value
    fn set_from_backend(cn: &mut Self::CtrNonce, v: Self::Backend);

    /// Convert to a backend value
    fn as_backend(cn: &Self::CtrNonce) -> Self::Backend;

    /// Writes the next `blocks.len()` counter blocks and advances past them.
    ///
    /// Not part of RustCrypto's API: the bulk path of [`CtrCore`](crate::CtrCore) calls it
    /// once per group of blocks. The default calls [`CtrFlavor::next_block`] per block;
    /// this crate's flavors write a template and the counter word instead.
    #[doc(hidden)]
    #[inline(always)]
    fn fill_blocks(cn: &mut Self::CtrNonce, blocks: &mut [Array<u8, B>]) {
        for block in blocks {
            *block = Self::next_block(cn);
        }
    }

    /// [`CtrFlavor::fill_blocks`] for blocks that already hold counter blocks of this
    /// nonce: only what changes with the counter needs writing.
    ///
    /// Not part of RustCrypto's API. The default writes the whole blocks.
    #[doc(hidden)]
    #[inline(always)]
    fn refill_blocks(cn: &mut Self::CtrNonce, blocks: &mut [Array<u8, B>]) {
        Self::fill_blocks(cn, blocks);
    }
}

/// Splits a counter word for the fast path of `refill_blocks`.
trait Halves: Sized {
    /// For a 128-bit word whose low 64 bits do not wrap within the next `n` values: the
    /// high and low halves. `None` for narrower words (they need no split).
    #[inline(always)]
    fn halves(self, _n: usize) -> Option<(u64, u64)> {
        None
    }
}

impl Halves for u32 {}
impl Halves for u64 {}
impl Halves for u128 {
    #[inline(always)]
    #[allow(clippy::cast_possible_truncation)]
    fn halves(self, n: usize) -> Option<(u64, u64)> {
        let (hi, lo) = ((self >> 64) as u64, self as u64);
        lo.checked_add(n as u64).map(|_| (hi, lo))
    }
}

/// Defines the nonce state for `W`-bit counters and its big- and little-endian flavors.
macro_rules! flavors {
    ($(
        $nonce:ident, $w:ty, $wsize:ty:
        $be:ident = $be_name:literal, $le:ident = $le_name:literal;
    )*) => {$(
        #[doc = concat!("Counter state of the ", stringify!($w), " flavors: the IV, the value of its")]
        /// counter word, and the number of blocks generated since (both modulo 2^W).
        #[derive(Clone)]
        pub struct $nonce<B: ArraySize> {
            iv: Array<u8, B>,
            word: $w,
            ctr: $w,
        }

        impl<B: ArraySize> fmt::Debug for $nonce<B> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($nonce), " { ... }"))
            }
        }

        impl<B: ArraySize> Drop for $nonce<B> {
            fn drop(&mut self) {
                #[cfg(feature = "zeroize")]
                {
                    use cipher::zeroize::Zeroize;
                    self.iv.zeroize();
                    self.word.zeroize();
                    self.ctr.zeroize();
                }
            }
        }

        #[cfg(feature = "zeroize")]
        impl<B: ArraySize> cipher::zeroize::ZeroizeOnDrop for $nonce<B> {}

        flavors!(@one $nonce, $w, $wsize, $be, $be_name, to_be_bytes, from_be_bytes,
            "big", false, B::USIZE - <$wsize>::USIZE);
        flavors!(@one $nonce, $w, $wsize, $le, $le_name, to_le_bytes, from_le_bytes,
            "little", true, 0);
    )*};

    (@one $nonce:ident, $w:ty, $wsize:ty, $name:ident, $label:literal, $to:ident, $from:ident,
        $endian:literal, $little:literal, $at:expr) => {
        #[doc = concat!(stringify!($w), "-bit ", $endian, "-endian counter flavor.")]
        #[derive(Clone, Copy, Debug)]
        pub enum $name {}

        impl<B> CtrFlavor<B> for $name
        where
            B: ArraySize + PartialDiv<$wsize>,
            PartialQuot<B, $wsize>: ArraySize,
        {
            type CtrNonce = $nonce<B>;
            type Backend = $w;
            const NAME: &'static str = $label;

            #[inline]
            fn remaining(cn: &Self::CtrNonce) -> Option<usize> {
                (<$w>::MAX - cn.ctr).try_into().ok()
            }

            #[inline(always)]
            fn current_block(cn: &Self::CtrNonce) -> Array<u8, B> {
                let mut block = cn.iv.clone();
                let at = $at;
                block[at..at + <$wsize>::USIZE]
                    .copy_from_slice(&cn.word.wrapping_add(cn.ctr).$to());
                block
            }

            #[inline]
            fn next_block(cn: &mut Self::CtrNonce) -> Array<u8, B> {
                let block = Self::current_block(cn);
                cn.ctr = cn.ctr.wrapping_add(1);
                block
            }

            #[inline]
            fn from_nonce(block: &Array<u8, B>) -> Self::CtrNonce {
                let at = $at;
                let mut word = [0; <$wsize>::USIZE];
                word.copy_from_slice(&block[at..at + <$wsize>::USIZE]);
                $nonce { iv: block.clone(), word: <$w>::$from(word), ctr: 0 }
            }

            #[inline]
            fn as_backend(cn: &Self::CtrNonce) -> Self::Backend {
                cn.ctr
            }

            #[inline]
            fn set_from_backend(cn: &mut Self::CtrNonce, v: Self::Backend) {
                cn.ctr = v;
            }

            #[inline(always)]
            fn fill_blocks(cn: &mut Self::CtrNonce, blocks: &mut [Array<u8, B>]) {
                for block in blocks.iter_mut() {
                    block.clone_from(&cn.iv);
                }
                Self::refill_blocks(cn, blocks);
            }

            #[inline(always)]
            fn refill_blocks(cn: &mut Self::CtrNonce, blocks: &mut [Array<u8, B>]) {
                // Outside the counter word every block already holds the IV.
                let at = $at;
                let first = cn.word.wrapping_add(cn.ctr);
                if let Some((hi, lo)) = first.halves(blocks.len()) {
                    // A 128-bit word whose low half does not wrap in this run: 64-bit
                    // adds (which the compiler vectorises) and a constant high half.
                    let (h, l) = if $little { (at + 8, at) } else { (at, at + 8) };
                    for (i, block) in blocks.iter_mut().enumerate() {
                        block[h..h + 8].copy_from_slice(&hi.$to());
                        block[l..l + 8].copy_from_slice(&lo.wrapping_add(i as u64).$to());
                    }
                } else {
                    for (i, block) in blocks.iter_mut().enumerate() {
                        // `as` keeps the low W bits: the counter word wraps modulo 2^W.
                        let word = first.wrapping_add(i as $w);
                        block[at..at + <$wsize>::USIZE].copy_from_slice(&word.$to());
                    }
                }
                cn.ctr = cn.ctr.wrapping_add(blocks.len() as $w);
            }
        }
    };
}

flavors! {
    CtrNonce32, u32, U4: Ctr32BE = "32BE", Ctr32LE = "32LE";
    CtrNonce64, u64, U8: Ctr64BE = "64BE", Ctr64LE = "64LE";
    CtrNonce128, u128, U16: Ctr128BE = "128BE", Ctr128LE = "128LE";
}
