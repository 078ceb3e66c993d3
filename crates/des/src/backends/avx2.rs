//! Bitsliced DES on AVX2: 256 blocks per batch in `ymm` registers, with the two-input
//! S-box networks of `bitslice/sboxes.rs` (AND/OR/XOR/ANDN, one instruction each: AVX2 has
//! no three-input gate) and the 64×64 transpose as swap-moves.
//!
//! Constant time for the batches: only bitwise operations and shifts by constants. Blocks
//! the batches do not take (fewer than [`MIN_BATCH`], single blocks) go to the
//! table-driven `soft` code, which is not.

use core::arch::x86_64::*;
use core::cell::OnceCell;

use super::bitslice::{self, Gates, Masks};
use super::soft::{self, Ks, Passes};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U256},
    inout::{InOut, InOutBuf},
};

/// A `ymm` register of bit planes (4 lanes of 64 blocks).
///
/// Its methods use AVX2 intrinsics; they are only reached from [`run`], which is only
/// called with a `token::Avx2` (see `Backend`).
#[derive(Clone, Copy)]
struct Y(__m256i);

impl Gates for Y {
    const LANES: usize = 4;
    const TERNLOG: bool = false;
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: only reached with AVX2 present (see the type's docs).
        Y(unsafe { _mm256_setzero_si256() })
    }
    #[inline(always)]
    fn ones() -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_set1_epi32(-1) })
    }
    #[inline(always)]
    fn and(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_and_si256(a.0, b.0) })
    }
    #[inline(always)]
    fn or(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_or_si256(a.0, b.0) })
    }
    #[inline(always)]
    fn xor(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_xor_si256(a.0, b.0) })
    }
    #[inline(always)]
    fn andnot(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_andnot_si256(a.0, b.0) })
    }
    /// Not used (`TERNLOG` is false): the sum of the minterms of `IMM`.
    #[inline(always)]
    fn tl<const IMM: i32>(a: Self, b: Self, c: Self) -> Self {
        let mut r = Self::zero();
        for idx in 0..8 {
            if (IMM >> idx) & 1 == 1 {
                let pick = |bit: i32, v: Self| {
                    if bit == 1 {
                        v
                    } else {
                        Self::andnot(v, Self::ones())
                    }
                };
                let t = Self::and(
                    Self::and(pick((idx >> 2) & 1, a), pick((idx >> 1) & 1, b)),
                    pick(idx & 1, c),
                );
                r = Self::or(r, t);
            }
        }
        r
    }
    #[inline(always)]
    fn splat(m: u32) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_set1_epi32(m as i32) })
    }
    #[inline(always)]
    fn splat64(m: u64) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_set1_epi64x(m as i64) })
    }
    #[inline(always)]
    fn shr<const S: u32>(a: Self) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_srl_epi64(a.0, _mm_cvtsi32_si128(S as i32)) })
    }
    #[inline(always)]
    fn shl<const S: u32>(a: Self) -> Self {
        // SAFETY: as in `zero`.
        Y(unsafe { _mm256_sll_epi64(a.0, _mm_cvtsi32_si128(S as i32)) })
    }
    #[inline(always)]
    fn load(b: &[Block]) -> Self {
        assert_eq!(b.len(), 4);
        // SAFETY: `b` holds 32 readable bytes; the load is unaligned. CPU features: as in
        // `zero`.
        Y(unsafe { _mm256_loadu_si256(b.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, b: &mut [Block]) {
        assert_eq!(b.len(), 4);
        // SAFETY: `b` holds 32 writable bytes; the store is unaligned. CPU features: as in
        // `zero`.
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), self.0) }
    }
}

/// One 256-block batch (kept out of line: one copy of the 48-round code for every cipher
/// type, direction and mode that uses it).
#[inline(never)]
#[target_feature(enable = "avx2")]
fn batch_y(buf: InOutBuf<'_, '_, Block>, m: &[Masks]) {
    bitslice::batch::<Y>(buf, m, m.len() / 16);
}

/// Fewest tail blocks worth a padded 256-block batch; fewer go to `soft` (break-even
/// measured with `benches/des.rs`: see the crate README). The `blocks` of the `avx2` row.
pub(crate) const MIN_BATCH: usize = super::token::Avx2::MIN_BLOCKS;

/// Runs the `P` passes whose masks are `m` over every block of `buf`: 256 at a time, a
/// tail of at least [`MIN_BATCH`] blocks as one padded batch, fewer through `soft`.
#[inline]
#[target_feature(enable = "avx2")]
fn run<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    m: &[Masks],
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 256 {
        // In place or not: the batch reads all input before it writes.
        batch_y(buf.reborrow().split_at(at).1.split_at(256).0, m);
        at += 256;
    }
    let rem = n - at;
    if rem == 0 {
        return;
    }
    let (_, mut tail) = buf.split_at(at);
    if rem < MIN_BATCH {
        return soft::crypt_blocks(ks, passes, tail);
    }
    let mut tmp = [Block::default(); 256];
    tmp[..rem].copy_from_slice(tail.get_in());
    batch_y((&mut tmp[..]).into(), m);
    tail.get_out().copy_from_slice(&tmp[..rem]);
}

/// `des-crypt`'s batch: `count` salted DES encryptions of the zero block under 256
/// keys, one per lane, encoded as `crypt(3)` hash characters (see `bitslice::crypt_batch`).
/// Out of line, as the ECB batches.
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(crate) fn crypt_batch(keys: &[Block], out: &mut [Block], salt: u32, count: u32) {
    bitslice::crypt_batch::<Y>(keys, out, salt, count);
}

/// The backend handed to `cipher`'s closures; only [`encrypt`] and [`decrypt`] make one,
/// inside code compiled for (and only run with) AVX2.
struct Backend<'a, const P: usize> {
    ks: &'a [Ks],
    passes: Passes<P>,
    /// The round-key masks, made on the first batch (single blocks never need them).
    masks: OnceCell<[[Masks; 16]; P]>,
}

impl<const P: usize> Backend<'_, P> {
    #[inline(always)]
    fn run(&self, buf: InOutBuf<'_, '_, Block>) {
        if buf.len() < MIN_BATCH {
            return soft::crypt_blocks(self.ks, &self.passes, buf);
        }
        let m = self.masks.get_or_init(|| {
            // Sized by `P`: a 3DES-sized array for single DES cost a 9 KiB zeroing and
            // copies on every call (a tenth of an 8 KiB ECB call).
            let mut m = [[[0u32; 48]; 16]; P];
            for (p, &(k, dec)) in self.passes.iter().enumerate() {
                bitslice::masks(&self.ks[k], dec, &mut m[p]);
            }
            m
        });
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Avx2` (AVX2 with OS support for `ymm`).
        unsafe { run(self.ks, &self.passes, m.as_flattened(), buf) }
    }
}

impl<const P: usize> BlockSizeUser for Backend<'_, P> {
    type BlockSize = U8;
}

/// 256 blocks: one bit per block in each of the 256 bits of a `ymm` register, 64 such
/// registers of state (16 architectural ones plus L1-resident spills). `ctr` and `cbc`
/// decryption then hand over whole batches.
impl<const P: usize> ParBlocksSizeUser for Backend<'_, P> {
    type ParBlocksSize = U256;
}

impl<const P: usize> BlockCipherEncBackend for Backend<'_, P> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::crypt1(self.ks, &self.passes, block);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.run(blocks.into_buf());
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        self.run(blocks);
    }
}

impl<const P: usize> BlockCipherDecBackend for Backend<'_, P> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        soft::crypt1(self.ks, &self.passes, block);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.run(blocks.into_buf());
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        self.run(blocks);
    }
}

/// Runs `f` with the AVX2 backend for `passes` (encryption).
/// The round keys of `key` in constant time: the mask-OR of [`soft::KEY_MASKS`] in four
/// `ymm` accumulators. `C‖D` is broadcast and doubled once per row, so bit `q` reaches
/// the sign bit, which a compare widens to a lane mask: the key flows only through
/// bitwise data flow, never a branch or an address (written with intrinsics because
/// LLVM turns the scalar `0 - bit` mask into a branch). `cargo xtask ct` checks it.
#[target_feature(enable = "avx2")]
pub(crate) fn key_schedule(key: u64) -> Ks {
    let zero = _mm256_setzero_si256();
    let mut x = _mm256_set1_epi64x(soft::pc1(key) as i64);
    let mut acc = [zero; 4];
    for row in &soft::KEY_MASKS {
        let m = _mm256_cmpgt_epi64(zero, x);
        x = _mm256_add_epi64(x, x);
        for (a, bits) in acc.iter_mut().zip(row.chunks_exact(4)) {
            // SAFETY: `bits` is four `u64`, the 32 bytes of the unaligned load.
            let b = unsafe { _mm256_loadu_si256(bits.as_ptr().cast()) };
            *a = _mm256_or_si256(*a, _mm256_and_si256(m, b));
        }
    }
    let mut k = [0u64; 16];
    for (a, out) in acc.into_iter().zip(k.chunks_exact_mut(4)) {
        // SAFETY: `out` is four `u64`, the 32 bytes of the unaligned store.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), a) }
    }
    soft::ks_from_round_keys(k)
}

#[target_feature(enable = "avx2")]
pub(crate) fn encrypt<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    f: impl BlockCipherEncClosure<BlockSize = U8>,
) {
    f.call(&Backend {
        ks,
        passes: *passes,
        masks: OnceCell::new(),
    })
}

/// Runs `f` with the AVX2 backend for `passes` (decryption).
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    f: impl BlockCipherDecClosure<BlockSize = U8>,
) {
    f.call(&Backend {
        ks,
        passes: *passes,
        masks: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB against `soft` for DES and every Triple-DES flavor: lengths around 256 blocks
    /// and the tail paths, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx2_matches_soft() {
        crate::backends::check_matches_soft("avx2", 256);
        crate::backends::check_matches_soft("avx2", super::MIN_BATCH);
    }
}
