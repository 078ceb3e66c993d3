use crate::{mode_common, xor};
use cipher::{
    Block, BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockModeEncBackend,
    BlockModeEncClosure, BlockModeEncrypt, BlockSizeUser, InOut, InOutBuf, ParBlocksSizeUser,
    array::{Array, ArraySize},
    consts::U1,
    inout::NotEqualError,
};
use simdcrypt_dispatch::modes::CbcEncrypt;

/// CBC mode encryptor.
pub struct Encryptor<C>
where
    C: BlockCipherEncrypt,
{
    cipher: C,
    iv: Block<C>,
}

mode_common!(Encryptor, BlockCipherEncrypt, "cbc::Encryptor");

impl<C: BlockCipherEncrypt> BlockModeEncrypt for Encryptor<C> {
    fn encrypt_with_backend(&mut self, f: impl BlockModeEncClosure<BlockSize = Self::BlockSize>) {
        let Self { cipher, iv } = self;
        cipher.encrypt_with_backend(WithBackend { iv, f });
    }

    // The bulk methods hand the cipher the whole chain as one request: any cipher runs
    // it as a closure, one loop with the chaining value in a local (a register for
    // 16-byte blocks) rather than the `iv` field behind `&mut self`, which the generic
    // per-block path stores and reloads on every block; a cipher of this workspace may
    // run it in a loop of its own (`aes` with AES-NI: the XORs off the chain's latency).

    #[inline]
    fn encrypt_blocks_inout(&mut self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        let Self { cipher, iv } = self;
        cipher.encrypt_with_backend(CbcEncrypt { iv, blocks });
    }

    #[inline]
    fn encrypt_blocks(&mut self, blocks: &mut [Block<Self>]) {
        self.encrypt_blocks_inout(blocks.into());
    }

    #[inline]
    fn encrypt_blocks_b2b(
        &mut self,
        in_blocks: &[Block<Self>],
        out_blocks: &mut [Block<Self>],
    ) -> Result<(), NotEqualError> {
        InOutBuf::new(in_blocks, out_blocks).map(|blocks| self.encrypt_blocks_inout(blocks))
    }
}

/// Hands the caller's closure the CBC backend over the cipher's.
struct WithBackend<'a, BS: ArraySize, F> {
    iv: &'a mut Array<u8, BS>,
    f: F,
}

impl<BS: ArraySize, F> BlockSizeUser for WithBackend<'_, BS, F> {
    type BlockSize = BS;
}

impl<BS: ArraySize, F: BlockModeEncClosure<BlockSize = BS>> BlockCipherEncClosure
    for WithBackend<'_, BS, F>
{
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = BS>>(self, cipher: &B) {
        let Self { iv, f } = self;
        f.call(&mut Chain { iv, cipher });
    }
}

/// CBC encryption is one chain: one block at a time (`ParBlocksSize` 1).
struct Chain<'a, BS: ArraySize, B> {
    iv: &'a mut Array<u8, BS>,
    cipher: &'a B,
}

impl<BS: ArraySize, B> BlockSizeUser for Chain<'_, BS, B> {
    type BlockSize = BS;
}

impl<BS: ArraySize, B> ParBlocksSizeUser for Chain<'_, BS, B> {
    type ParBlocksSize = U1;
}

impl<BS: ArraySize, B: BlockCipherEncBackend<BlockSize = BS>> BlockModeEncBackend
    for Chain<'_, BS, B>
{
    #[inline(always)]
    fn encrypt_block(&mut self, mut block: InOut<'_, '_, Block<Self>>) {
        // C_i = E(P_i ^ C_{i-1}), in a local: the input may alias nothing we know of.
        let mut c = block.clone_in();
        xor(&mut c, self.iv);
        self.cipher.encrypt_block_inplace(&mut c);
        self.iv.clone_from(&c);
        *block.get_out() = c;
    }
}
