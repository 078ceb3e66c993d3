//! Bitsliced DES on AVX-512: 512 blocks per batch in `zmm` registers, 256 per batch in
//! `ymm` registers (AVX-512VL) for shorter tails, with `vpternlogd` three-input gates
//! (the networks of `bitslice/sboxes.rs`) and the 64×64 transpose as swap-moves whose
//! masked XOR is one `vpternlogq`-style gate.
//!
//! Constant time for the batches: only bitwise operations and shifts by constants. Blocks
//! the batches do not take (fewer than [`MIN_YMM`], single blocks) go to the table-driven
//! `soft` code, which is not.

use core::arch::x86_64::*;
use core::cell::OnceCell;

use super::bitslice::{self, Gates, Masks};
use super::soft::{self, Ks, Passes};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U512},
    inout::{InOut, InOutBuf},
};

/// A `zmm` register of bit planes (8 lanes of 64 blocks).
///
/// Its methods use AVX-512F intrinsics; they are only reached from [`run`], which is
/// only called with a `token::Avx512` (see `Backend`).
#[derive(Clone, Copy)]
struct Z(__m512i);

/// A `ymm` register of bit planes (4 lanes of 64 blocks) with AVX-512VL `vpternlogd`.
///
/// Its methods are only reached from [`run`], as for [`Z`].
#[derive(Clone, Copy)]
struct Y(__m256i);

macro_rules! gates {
    ($t:ident, $v:ty, $lanes:literal, $feat:literal,
     $zero:ident, $set1:ident, $set64:ident, $and:ident, $or:ident, $xor:ident, $andn:ident,
     $tl:ident, $srl:ident, $sll:ident, $load:ident, $store:ident) => {
        impl Gates for $t {
            const LANES: usize = $lanes;
            const TERNLOG: bool = true;
            #[inline(always)]
            fn zero() -> Self {
                // SAFETY: only reached with the CPU features checked (see the type's docs).
                $t(unsafe { $zero() })
            }
            #[inline(always)]
            fn ones() -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $set1(-1) })
            }
            #[inline(always)]
            fn and(a: Self, b: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $and(a.0, b.0) })
            }
            #[inline(always)]
            fn or(a: Self, b: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $or(a.0, b.0) })
            }
            #[inline(always)]
            fn xor(a: Self, b: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $xor(a.0, b.0) })
            }
            #[inline(always)]
            fn andnot(a: Self, b: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $andn(a.0, b.0) })
            }
            #[inline(always)]
            fn tl<const IMM: i32>(a: Self, b: Self, c: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $tl::<IMM>(a.0, b.0, c.0) })
            }
            #[inline(always)]
            fn splat(m: u32) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $set1(m as i32) })
            }
            #[inline(always)]
            fn splat64(m: u64) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $set64(m as i64) })
            }
            #[inline(always)]
            fn shr<const S: u32>(a: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $srl(a.0, _mm_cvtsi32_si128(S as i32)) })
            }
            #[inline(always)]
            fn shl<const S: u32>(a: Self) -> Self {
                // SAFETY: as in `zero`.
                $t(unsafe { $sll(a.0, _mm_cvtsi32_si128(S as i32)) })
            }
            #[inline(always)]
            fn load(b: &[Block]) -> Self {
                assert_eq!(b.len(), $lanes);
                // SAFETY: `b` holds `8·LANES` readable bytes (the register's width); the load
                // is unaligned. CPU features: as in `zero`.
                $t(unsafe { $load(b.as_ptr().cast()) })
            }
            #[inline(always)]
            fn store(self, b: &mut [Block]) {
                assert_eq!(b.len(), $lanes);
                // SAFETY: `b` holds `8·LANES` writable bytes; the store is unaligned. CPU
                // features: as in `zero`.
                unsafe { $store(b.as_mut_ptr().cast(), self.0) }
            }
        }
    };
}

gates!(
    Z,
    __m512i,
    8,
    "avx512f",
    _mm512_setzero_si512,
    _mm512_set1_epi32,
    _mm512_set1_epi64,
    _mm512_and_si512,
    _mm512_or_si512,
    _mm512_xor_si512,
    _mm512_andnot_si512,
    _mm512_ternarylogic_epi32,
    _mm512_srl_epi64,
    _mm512_sll_epi64,
    _mm512_loadu_si512,
    _mm512_storeu_si512
);
gates!(
    Y,
    __m256i,
    4,
    "avx512vl",
    _mm256_setzero_si256,
    _mm256_set1_epi32,
    _mm256_set1_epi64x,
    _mm256_and_si256,
    _mm256_or_si256,
    _mm256_xor_si256,
    _mm256_andnot_si256,
    _mm256_ternarylogic_epi32,
    _mm256_srl_epi64,
    _mm256_sll_epi64,
    _mm256_loadu_si256,
    _mm256_storeu_si256
);

/// One 512-block batch (kept out of line: one copy of the 48-round code for every cipher
/// type, direction and mode that uses it).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl")]
fn batch_z(buf: InOutBuf<'_, '_, Block>, m: &[Masks]) {
    bitslice::batch::<Z>(buf, m, m.len() / 16);
}

/// One 256-block batch in `ymm` registers (out of line, as [`batch_z`]).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl")]
fn batch_y(buf: InOutBuf<'_, '_, Block>, m: &[Masks]) {
    bitslice::batch::<Y>(buf, m, m.len() / 16);
}

/// Fewest tail blocks worth a padded 256-block `ymm` batch; fewer go to `soft`
/// (break-even measured with `benches/des.rs`: see the crate README). The `blocks` of
/// the `avx512` row.
pub(crate) const MIN_YMM: usize = super::token::Avx512::MIN_BLOCKS;

/// Runs the `P` passes whose masks are `m` over every block of `buf`: 512 at a time in
/// `zmm`, a tail of more than 256 blocks as one padded `zmm` batch, a tail of
/// [`MIN_YMM`]..=256 as padded `ymm` batches, fewer through `soft`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn run<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    m: &[Masks],
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 512 {
        // In place or not: the batch reads all input before it writes.
        batch_z(buf.reborrow().split_at(at).1.split_at(512).0, m);
        at += 512;
    }
    let rem = n - at;
    if rem == 0 {
        return;
    }
    let (_, mut tail) = buf.split_at(at);
    if rem < MIN_YMM {
        return soft::crypt_blocks(ks, passes, tail);
    }
    let mut tmp = [Block::default(); 512];
    let width = if rem > 256 { 512 } else { 256 };
    tmp[..rem].copy_from_slice(tail.get_in());
    if width == 512 {
        batch_z((&mut tmp[..]).into(), m);
    } else {
        batch_y((&mut tmp[..256]).into(), m);
    }
    tail.get_out().copy_from_slice(&tmp[..rem]);
}

/// `des-crypt`'s batch: `count` salted DES encryptions of the zero block under 512
/// keys, one per lane, encoded as `crypt(3)` hash characters (see `bitslice::crypt_batch`).
/// Out of line, as the ECB batches.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn crypt_batch(keys: &[Block], out: &mut [Block], salt: u32, count: u32) {
    bitslice::crypt_batch::<Z>(keys, out, salt, count);
}

/// The backend handed to `cipher`'s closures; only [`encrypt`] and [`decrypt`] make one,
/// inside code compiled for (and only run with) AVX-512F and AVX-512VL.
struct Backend<'a, const P: usize> {
    ks: &'a [Ks],
    passes: Passes<P>,
    /// The round-key masks, made on the first batch (single blocks never need them).
    masks: OnceCell<[[Masks; 16]; P]>,
}

impl<const P: usize> Backend<'_, P> {
    #[inline(always)]
    fn run(&self, buf: InOutBuf<'_, '_, Block>) {
        if buf.len() < MIN_YMM {
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
        // with a `token::Avx512` (AVX-512F and AVX-512VL with OS support for `zmm`).
        unsafe { run(self.ks, &self.passes, m.as_flattened(), buf) }
    }
}

impl<const P: usize> BlockSizeUser for Backend<'_, P> {
    type BlockSize = U8;
}

/// 512 blocks: one bit per block in each of the 512 bits of a `zmm` register, 64 such
/// registers of state (the 32 architectural ones plus L1-resident spills, which the
/// memory-operand forms of `vpternlogd`/`vpxord` absorb). `ctr` and `cbc` decryption
/// then hand over whole batches.
impl<const P: usize> ParBlocksSizeUser for Backend<'_, P> {
    type ParBlocksSize = U512;
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

/// Runs `f` with the AVX-512 backend for `passes` (encryption).
/// The round keys of `key` in constant time: the mask-OR of [`soft::KEY_MASKS`] in two
/// `zmm` accumulators, as `avx2::key_schedule` does (an arithmetic shift widens the
/// sign bit to the lane mask; one `vpternlogq` does `acc | (mask & row)`).
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn key_schedule(key: u64) -> Ks {
    let mut x = _mm512_set1_epi64(soft::pc1(key) as i64);
    let mut acc = [_mm512_setzero_si512(); 2];
    for row in &soft::KEY_MASKS {
        let m = _mm512_srai_epi64::<63>(x);
        x = _mm512_add_epi64(x, x);
        for (a, bits) in acc.iter_mut().zip(row.chunks_exact(8)) {
            // SAFETY: `bits` is eight `u64`, the 64 bytes of the unaligned load.
            let b = unsafe { _mm512_loadu_si512(bits.as_ptr().cast()) };
            *a = _mm512_ternarylogic_epi64::<0xF8>(*a, m, b);
        }
    }
    let mut k = [0u64; 16];
    for (a, out) in acc.into_iter().zip(k.chunks_exact_mut(8)) {
        // SAFETY: `out` is eight `u64`, the 64 bytes of the unaligned store.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), a) }
    }
    soft::ks_from_round_keys(k)
}

#[target_feature(enable = "avx512f,avx512vl")]
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

/// Runs `f` with the AVX-512 backend for `passes` (decryption).
#[target_feature(enable = "avx512f,avx512vl")]
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
    /// ECB against `soft` for DES and every Triple-DES flavor: lengths around 512 blocks
    /// and the tail paths, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn avx512_matches_soft() {
        crate::backends::check_matches_soft("avx512", 512);
        crate::backends::check_matches_soft("avx512", 256);
        crate::backends::check_matches_soft("avx512", super::MIN_YMM);
    }
}
