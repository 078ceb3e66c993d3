//! Mode requests: how this workspace's `cbc` hands a whole chain to a cipher of this
//! workspace that has a faster loop for it, through `cipher`'s own closure API.
//!
//! `cipher` 0.5 lets a mode run code with a cipher's backend (`encrypt_with_backend`), one
//! block or one batch of independent blocks at a time. A CBC-encryption chain cannot be
//! batched, and its speed is the latency of one block: for AES-NI, the XOR of the
//! plaintext and the previous ciphertext, the XOR of round key 0 and the ten rounds. A
//! cipher that sees the whole chain can take those XORs off the latency path (see `aes`'s
//! `aesni::cbc_encrypt`). So `cbc` passes [`CbcEncrypt`] as its closure:
//! - any cipher runs it as a closure: [`CbcEncrypt`]'s `call` is the plain chain, one
//!   `encrypt_block` after another;
//! - a cipher that knows the request ([`CbcEncrypt::intercept`]) runs the chain itself.
//!
//! Nothing changes for other ciphers, other closures or the published crates: the request
//! is recognised by its type (`TypeId`, lifetimes erased), so a `cbc` and an `aes` built
//! against different versions of this crate simply take the plain chain.

use cipher::{
    BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser,
    array::{Array, ArraySize},
    inout::InOutBuf,
};

/// CBC encryption of `blocks` chained from `iv`: `C_i = E(P_i ⊕ C_{i-1})`, `C_{-1} = iv`;
/// `iv` ends as the last ciphertext block (unchanged for no blocks).
pub struct CbcEncrypt<'a, BS: ArraySize> {
    /// The chaining value: the IV, or the last ciphertext block of the previous call.
    pub iv: &'a mut Array<u8, BS>,
    /// Plaintext in, ciphertext out (the same buffer or two disjoint ones).
    pub blocks: InOutBuf<'a, 'a, Array<u8, BS>>,
}

impl<BS: ArraySize> BlockSizeUser for CbcEncrypt<'_, BS> {
    type BlockSize = BS;
}

impl<BS: ArraySize> BlockCipherEncClosure for CbcEncrypt<'_, BS> {
    /// The plain chain, with the chaining value in a local (a register for 16-byte
    /// blocks) rather than behind `iv` on every block.
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = BS>>(self, cipher: &B) {
        let Self { iv, blocks } = self;
        let mut c = iv.clone();
        for mut block in blocks {
            let mut t = block.clone_in();
            xor(&mut t, &c);
            cipher.encrypt_block_inplace(&mut t);
            c.clone_from(&t);
            *block.get_out() = t;
        }
        *iv = c;
    }
}

impl<BS: ArraySize + 'static> CbcEncrypt<'_, BS> {
    /// Runs `chain` on the request if the closure `f` is one (for blocks of `BS` bytes),
    /// and returns `Ok`; otherwise hands `f` back untouched.
    ///
    /// `chain` must do what [`CbcEncrypt`] says; it is given the request for a lifetime of
    /// this call only.
    #[inline(always)]
    pub fn intercept<F>(f: F, chain: impl FnOnce(CbcEncrypt<'_, BS>)) -> Result<(), F> {
        if typeid::of::<F>() != typeid::of::<CbcEncrypt<'static, BS>>() {
            return Err(f);
        }
        let f = core::mem::ManuallyDrop::new(f);
        // SAFETY: `F` has the `TypeId` of `CbcEncrypt<'_, BS>` with its lifetime erased,
        // so it is `CbcEncrypt<'x, BS>` for some `'x` that outlives this call (`f` is a
        // live value of it). The type is covariant in its lifetime (a `&'a mut` of a type
        // without lifetimes and an `InOutBuf<'a, 'a, _>`), so reading it with the shorter
        // lifetime `chain` accepts for any lifetime is sound; `f` is not used or dropped
        // again (it owns nothing to drop).
        let request: CbcEncrypt<'_, BS> = unsafe { core::mem::transmute_copy(&*f) };
        chain(request);
        Ok(())
    }
}

/// `out ^= x`, shaped so that the stores match the loads a cipher makes of the block
/// (a wider load that spans several narrower stores cannot be forwarded from them and
/// waits for the stores to retire, on the chain of every CBC-encrypt block): whole
/// vectors for 16-byte multiples (the byte loop compiles to them), 64-bit words for
/// 8-byte blocks (where a byte loop stays byte-wise: 8 loads, XORs and stores a block).
/// `cbc` and `ctr` use it.
#[inline(always)]
pub fn xor<N: ArraySize>(out: &mut Array<u8, N>, x: &Array<u8, N>) {
    if N::USIZE % 16 != 0 && N::USIZE % 8 == 0 {
        for (a, b) in out.chunks_exact_mut(8).zip(x.chunks_exact(8)) {
            let w = u64::from_ne_bytes(a.try_into().expect("8 bytes"))
                ^ u64::from_ne_bytes(b.try_into().expect("8 bytes"));
            a.copy_from_slice(&w.to_ne_bytes());
        }
    } else {
        for (a, b) in out.iter_mut().zip(x) {
            *a ^= *b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cipher::{
        BlockCipherEncBackend, ParBlocksSizeUser,
        consts::{U1, U8, U16},
        inout::InOut,
    };

    /// A toy 16-byte "cipher": adds 1 to every byte.
    struct Add1;
    impl BlockSizeUser for Add1 {
        type BlockSize = U16;
    }
    impl ParBlocksSizeUser for Add1 {
        type ParBlocksSize = U1;
    }
    impl BlockCipherEncBackend for Add1 {
        fn encrypt_block(&self, mut block: InOut<'_, '_, Array<u8, U16>>) {
            let mut t = block.clone_in();
            t.iter_mut().for_each(|b| *b = b.wrapping_add(1));
            *block.get_out() = t;
        }
    }

    /// Some other closure with the same block size.
    struct Other<'a>(&'a mut Array<u8, U16>);
    impl BlockSizeUser for Other<'_> {
        type BlockSize = U16;
    }
    impl BlockCipherEncClosure for Other<'_> {
        fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, cipher: &B) {
            cipher.encrypt_block_inplace(self.0);
        }
    }

    fn request<'a>(
        iv: &'a mut Array<u8, U16>,
        blocks: &'a mut [Array<u8, U16>],
    ) -> CbcEncrypt<'a, U16> {
        CbcEncrypt {
            iv,
            blocks: blocks.into(),
        }
    }

    #[test]
    fn the_plain_chain_is_cbc() {
        let mut iv = Array([9u8; 16]);
        let mut blocks = [Array([1u8; 16]), Array([2u8; 16])];
        request(&mut iv, &mut blocks).call(&Add1);
        // C0 = (1 ^ 9) + 1 = 9; C1 = (2 ^ 9) + 1 = 12.
        assert_eq!(blocks, [Array([9u8; 16]), Array([12u8; 16])]);
        assert_eq!(iv, Array([12u8; 16]));
    }

    #[test]
    fn intercept_takes_requests_and_returns_other_closures() {
        let mut iv = Array([0u8; 16]);
        let mut blocks = [Array([5u8; 16]); 3];
        let mut seen = 0;
        let taken = CbcEncrypt::<U16>::intercept(request(&mut iv, &mut blocks), |r| {
            seen = r.blocks.len();
            *r.iv = Array([7u8; 16]);
        });
        assert!(taken.is_ok());
        assert_eq!((seen, iv), (3, Array([7u8; 16])));

        let mut block = Array([3u8; 16]);
        let back = CbcEncrypt::<U16>::intercept(Other(&mut block), |_| panic!("not a request"));
        back.expect_err("handed back").call(&Add1);
        assert_eq!(block, Array([4u8; 16]));
        // A request for 8-byte blocks is not one for 16-byte blocks.
        let mut iv8: Array<u8, U8> = Array([0u8; 8]);
        let mut b8: [Array<u8, U8>; 1] = [Array([0u8; 8])];
        let r8 = CbcEncrypt {
            iv: &mut iv8,
            blocks: (&mut b8[..]).into(),
        };
        let r8 = match CbcEncrypt::<U16>::intercept(r8, |_| panic!("wrong block size")) {
            Err(r8) => r8,
            Ok(()) => panic!("an 8-byte request taken as a 16-byte one"),
        };
        // And it is one for 8-byte blocks.
        let mut seen = 0;
        assert!(CbcEncrypt::<U8>::intercept(r8, |r| seen = r.blocks.len()).is_ok());
        assert_eq!(seen, 1);
    }
}
