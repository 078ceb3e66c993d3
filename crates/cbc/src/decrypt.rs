use crate::{mode_common, xor};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt, BlockModeDecBackend,
    BlockModeDecClosure, BlockModeDecrypt, BlockSizeUser, InOut, ParBlocks, ParBlocksSizeUser,
    array::{Array, ArraySize},
    consts::{U2, U4, U8, U16, U32, U64},
    inout::{InOutBuf, NotEqualError},
    typenum::Unsigned,
};

/// CBC mode decryptor.
pub struct Decryptor<C>
where
    C: BlockCipherDecrypt,
{
    cipher: C,
    iv: Block<C>,
}

mode_common!(Decryptor, BlockCipherDecrypt, "cbc::Decryptor");

impl<C: BlockCipherDecrypt> BlockModeDecrypt for Decryptor<C> {
    fn decrypt_with_backend(&mut self, f: impl BlockModeDecClosure<BlockSize = Self::BlockSize>) {
        let Self { cipher, iv } = self;
        cipher.decrypt_with_backend(WithBackend { iv, f });
    }

    // The bulk methods run one loop of ours over the whole buffer ([`UnchainBlocks`]).

    #[inline]
    fn decrypt_blocks_inout(&mut self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        let Self { cipher, iv } = self;
        cipher.decrypt_with_backend(UnchainBlocks { iv, blocks });
    }

    #[inline]
    fn decrypt_blocks(&mut self, blocks: &mut [Block<Self>]) {
        self.decrypt_blocks_inout(blocks.into());
    }

    #[inline]
    fn decrypt_blocks_b2b(
        &mut self,
        in_blocks: &[Block<Self>],
        out_blocks: &mut [Block<Self>],
    ) -> Result<(), NotEqualError> {
        InOutBuf::new(in_blocks, out_blocks).map(|blocks| self.decrypt_blocks_inout(blocks))
    }
}

/// CBC decryption of a whole buffer, a window at a time: the cipher decrypts the
/// window's ciphertext into a buffer in L1 (`ParBlocksSize` groups at once), then
/// `P_k = D(C_k) ^ C_{k-1}` is written from the last block down to the first. Going down,
/// `C_{k-1}` is still intact when `P_k` overwrites `C_k` in place, so in-place and
/// buffer-to-buffer run the same code and no ciphertext is copied.
///
/// The window is 64 blocks when the cipher's groups divide it, else one group.
struct UnchainBlocks<'a, 'i, 'o, BS: ArraySize> {
    iv: &'a mut Array<u8, BS>,
    blocks: InOutBuf<'i, 'o, Array<u8, BS>>,
}

impl<BS: ArraySize> BlockSizeUser for UnchainBlocks<'_, '_, '_, BS> {
    type BlockSize = BS;
}

impl<BS: ArraySize> BlockCipherDecClosure for UnchainBlocks<'_, '_, '_, BS> {
    #[inline(always)]
    fn call<B: BlockCipherDecBackend<BlockSize = BS>>(self, cipher: &B) {
        let Self { iv, blocks } = self;
        if U64::USIZE % B::ParBlocksSize::USIZE == 0 {
            unchain_windows::<U64, B>(cipher, iv, blocks);
        } else {
            unchain_windows::<B::ParBlocksSize, B>(cipher, iv, blocks);
        }
    }
}

/// [`UnchainBlocks`] with windows of `W` blocks.
///
/// The scratch array is zeroed before use, so it is sized to the work: the whole
/// windows share one of `W` blocks, and a tail gets one of 2, 4, 8, 16, 32 or `W`
/// blocks, whichever is the smallest that holds it (a 9–63 block AES call zeroed a 1 KiB
/// window before). A single block needs no array at all: on Zen 3 that took a 16-byte
/// AES-128 call from about 59 to about 45 TSC cycles (issue 18). The 2- and 4-block
/// arrays took CAST5's 16-byte call (two blocks) from 142 to 134 TSC cycles on the
/// Intel Xeon (`small 16 cast5`, three rounds), where it had tied cast5 0.12.0.
#[inline(always)]
fn unchain_windows<W: ArraySize, B: BlockCipherDecBackend>(
    cipher: &B,
    iv: &mut Block<B>,
    blocks: InOutBuf<'_, '_, Block<B>>,
) {
    let (windows, tail) = blocks.into_chunks::<W>();
    if !windows.is_empty() {
        let mut pt = Array::<Block<B>, W>::default();
        for window in windows {
            unchain(cipher, iv, window.into_buf(), &mut pt);
        }
    }
    match tail.len() {
        0 => {}
        1 => unchain_one(cipher, iv, tail),
        2 => unchain_tail::<U2, B>(cipher, iv, tail),
        n if n <= 4 => unchain_tail::<U4, B>(cipher, iv, tail),
        n if n <= 8 => unchain_tail::<U8, B>(cipher, iv, tail),
        n if n <= 16 => unchain_tail::<U16, B>(cipher, iv, tail),
        n if n <= 32 => unchain_tail::<U32, B>(cipher, iv, tail),
        _ => unchain_tail::<W, B>(cipher, iv, tail),
    }
}

/// One block: decrypted on the cipher's single-block path, XORed with the IV.
#[inline(always)]
fn unchain_one<B: BlockCipherDecBackend>(
    cipher: &B,
    iv: &mut Block<B>,
    mut buf: InOutBuf<'_, '_, Block<B>>,
) {
    let mut block = buf.get(0);
    let ct = block.clone_in();
    let mut p = ct.clone();
    cipher.decrypt_block_inplace(&mut p);
    xor(&mut p, iv);
    *block.get_out() = p;
    *iv = ct;
}

/// A tail of up to `N` blocks, with an `N`-block scratch array.
#[inline(always)]
fn unchain_tail<N: ArraySize, B: BlockCipherDecBackend>(
    cipher: &B,
    iv: &mut Block<B>,
    buf: InOutBuf<'_, '_, Block<B>>,
) {
    let mut pt = Array::<Block<B>, N>::default();
    let n = buf.len();
    unchain(cipher, iv, buf, &mut pt[..n]);
}

/// One window: `buf` (n blocks) decrypted with `tmp` (n blocks) as scratch.
#[inline(always)]
fn unchain<B: BlockCipherDecBackend>(
    cipher: &B,
    iv: &mut Block<B>,
    mut buf: InOutBuf<'_, '_, Block<B>>,
    tmp: &mut [Block<B>],
) {
    let n = buf.len();
    if n == 0 {
        return;
    }
    let (in_groups, in_tail) = Array::<_, B::ParBlocksSize>::slice_as_chunks(buf.get_in());
    let (tmp_groups, tmp_tail) = Array::<_, B::ParBlocksSize>::slice_as_chunks_mut(tmp);
    for (i, o) in in_groups.iter().zip(tmp_groups) {
        cipher.decrypt_par_blocks((i, o).into());
    }
    // Not a let chain: those need Rust 1.88, this crate's floor is 1.85.
    if !in_tail.is_empty() {
        if let Ok(tail) = InOutBuf::new(in_tail, tmp_tail) {
            cipher.decrypt_tail_blocks(tail);
        }
    }
    let next_iv = buf.get(n - 1).clone_in();
    for k in (1..n).rev() {
        let prev = buf.get(k - 1).clone_in();
        let mut p = tmp[k].clone();
        xor(&mut p, &prev);
        *buf.get(k).get_out() = p;
    }
    let mut p = tmp[0].clone();
    xor(&mut p, iv);
    *buf.get(0).get_out() = p;
    *iv = next_iv;
}

/// Hands the caller's closure the CBC backend over the cipher's.
struct WithBackend<'a, BS: ArraySize, F> {
    iv: &'a mut Array<u8, BS>,
    f: F,
}

impl<BS: ArraySize, F> BlockSizeUser for WithBackend<'_, BS, F> {
    type BlockSize = BS;
}

impl<BS: ArraySize, F: BlockModeDecClosure<BlockSize = BS>> BlockCipherDecClosure
    for WithBackend<'_, BS, F>
{
    #[inline(always)]
    fn call<B: BlockCipherDecBackend<BlockSize = BS>>(self, cipher: &B) {
        let Self { iv, f } = self;
        f.call(&mut Unchain { iv, cipher });
    }
}

/// CBC decryption: every block is independent given the ciphertext before it, so groups
/// of the cipher's `ParBlocksSize` run in parallel.
struct Unchain<'a, BS: ArraySize, B> {
    iv: &'a mut Array<u8, BS>,
    cipher: &'a B,
}

impl<BS: ArraySize, B> BlockSizeUser for Unchain<'_, BS, B> {
    type BlockSize = BS;
}

impl<BS: ArraySize, B: BlockCipherDecBackend<BlockSize = BS>> ParBlocksSizeUser
    for Unchain<'_, BS, B>
{
    type ParBlocksSize = B::ParBlocksSize;
}

impl<BS: ArraySize, B: BlockCipherDecBackend<BlockSize = BS>> Unchain<'_, BS, B> {
    /// `out[k] ^= ct[k-1]` (`ct[-1]` = the chaining value), then the chaining value
    /// becomes the last ciphertext block.
    #[inline(always)]
    fn chain(&mut self, out: &mut [Block<Self>], ct: &[Block<Self>]) {
        if let (Some((first, rest)), Some(last)) = (out.split_first_mut(), ct.last()) {
            xor(first, self.iv);
            for (o, c) in rest.iter_mut().zip(ct) {
                xor(o, c);
            }
            self.iv.clone_from(last);
        }
    }
}

impl<BS: ArraySize, B: BlockCipherDecBackend<BlockSize = BS>> BlockModeDecBackend
    for Unchain<'_, BS, B>
{
    #[inline(always)]
    fn decrypt_block(&mut self, mut block: InOut<'_, '_, Block<Self>>) {
        let ct = block.clone_in();
        self.cipher.decrypt_block(block.reborrow());
        self.chain(
            core::slice::from_mut(block.get_out()),
            core::slice::from_ref(&ct),
        );
    }

    #[inline(always)]
    fn decrypt_par_blocks(&mut self, mut blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // One copy of the ciphertext (the output may be the input), then the cipher
        // writes straight to the output.
        let ct = blocks.clone_in();
        self.cipher.decrypt_par_blocks(blocks.reborrow());
        self.chain(blocks.get_out(), &ct);
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&mut self, mut blocks: InOutBuf<'_, '_, Block<Self>>) {
        let n = blocks.len();
        let mut ct = ParBlocks::<Self>::default();
        ct[..n].clone_from_slice(blocks.get_in());
        self.cipher.decrypt_tail_blocks(blocks.reborrow());
        self.chain(blocks.get_out(), &ct[..n]);
    }
}
