//! Bitsliced DES on NEON (aarch64 Advanced SIMD): 128 blocks per batch in 128-bit `v`
//! registers, with the two-input S-box networks of `bitslice/sboxes.rs` and the 64×64
//! transpose as swap-moves whose masked exchange is two bit selects (`BSL`).
//!
//! Sources: bitsliced DES is E. Biham, "A Fast New DES Implementation in Software"
//! (FSE 1997); the two-input circuits come from this crate's search after M. Kwan,
//! "Reducing the Gate Count of Bitslice DES" (IACR ePrint 2000/051), see
//! `tools/sboxes/README.md`; the transpose is the swap-move ("delta swap") of H. S.
//! Warren, *Hacker's Delight* (2nd ed.), "Transposing a Bit Matrix", and a swap-move
//! with a bit select in place of the masked XOR is what `bitslice.rs` already does with
//! `vpternlogq` on AVX-512.
//! Instruction timings: Arm Neoverse N1 Software Optimization Guide, as encoded in
//! LLVM's `llvm/lib/Target/AArch64/AArch64SchedNeoverseN1.td`.
//!
//! # Gates
//!
//! NEON has no three-input LUT (`vpternlogd`), so [`Gates::TERNLOG`] is false and the
//! rounds run the two-input circuits (382 gates for the eight S-boxes, and-not counted as
//! one). Each is one instruction here: `AND`, `ORR`, `EOR`, and `BIC` for the and-not
//! (`BIC d, b, a` is `b & !a`, operands swapped against x86's `vpandn`). A NOT (an
//! and-not with all-ones) is `MVN`, and LLVM folds a NOT that feeds an `AND`/`ORR` into
//! `BIC`/`ORN`; the circuits need no other gate. `BSL` (a three-input bit select) is one
//! instruction too, so [`Gates::tl`] maps the six multiplexer truth tables (`0xCA`:
//! `a ? b : c`, and its operand permutations) to it, and [`Gates::MUX`] lets the
//! transpose use it: a swap-move costs two shifts and two `BSL`s instead of the six
//! operations of the shift-XOR-AND form (and LLVM turns the 32-bit stage, whose mask is
//! one contiguous field, into an `SRI` and an `SLI`: shift-and-insert, two
//! instructions). Other truth tables fall back to a sum of minterms; the rounds never
//! ask for one (`TERNLOG` is false). Armv8.2's SHA3 extension adds `EOR3` and
//! `BCAX` (three-input XOR and `a ^ (b & !c)`), which a circuit search could target; it
//! is not on Neoverse N1 or Cortex-A72, and this backend needs only base NEON.
//!
//! # Batch size
//!
//! A register holds two 64-bit lanes, so the 64 bit planes of a 64×64 transpose per lane
//! make a 128-block batch ([`Gates::LANES`] = 2, `ParBlocksSize` = 128). The state (64
//! planes, 1 KiB) does not fit the 32 `v` registers any more than AVX2's fits 16 `ymm`:
//! as there, it lives in L1 and each S-box loads its six input planes and a key mask
//! per input, runs its gates in registers and XORs its four outputs into the other
//! half. The release build's round loop uses 25 `v` registers (`v0`–`v8`, `v16`–`v31`:
//! LLVM leaves the callee-saved `v8`–`v15` mostly alone) and spills no vector value. A
//! wider virtual register (two `v` registers per plane, 256 blocks) would share the
//! address arithmetic and the key splats between two registers but not save a vector
//! operation per gate, and would double the padding of a tail; the vector pipes, not
//! the loads, bound the batch (see the estimate below).
//!
//! # Why NEON pays against `soft` (an estimate, not a measurement)
//!
//! No aarch64 speed is measured here: the only aarch64 this code ran on is qemu, whose
//! timings mean nothing. The estimate is instruction counts from the release
//! disassembly (`aarch64-linux-gnu-objdump -d`, rustc 1.96, `aarch64-unknown-linux-gnu`,
//! single-DES ECB through `encrypt_blocks`, loop bodies times their trip counts) and
//! Neoverse N1 timings from Arm's Software Optimization Guide as LLVM's
//! `AArch64SchedNeoverseN1.td` encodes them:
//!
//! - `batch_v`, per block (15 747 instructions per 128 blocks): 123 instructions, of
//!   them 74 vector logic/shift (`EOR`/`BIC`/`AND`/`ORR`/`ORN`/`MVN`/`BSL`/`BIT`/`BIF`/
//!   `USHR`/`SHL`/`SRI`/`SLI`), 19 loads (6 of them `LD1R` key-mask splats), 6 stores,
//!   22 scalar (address arithmetic and the `CSEL`s that pick the halves by pass
//!   parity). The 16 rounds are 60 of the 74 vector operations (per round and 128 blocks:
//!   402 S-box gates, 48 key XORs, 32 XORs into the other half, and 37 `MVN`s LLVM did
//!   not fold into `BIC`/`ORN`); the two transposes are 14. (Counted with the previous
//!   circuits of 402 gates; today's 382 take about 2.5 instructions per block off.)
//! - `soft` (the `u64` SSLeay-style tables, four blocks interleaved), per block: 670
//!   instructions, 213 of them loads (8 table look-ups per round, and IP/FP by nibble
//!   tables) and 444 integer ALU (`UBFX`, `EOR`, `ORR`, `ADD` with shifted operands).
//!
//! On N1 ASIMD logic and `BSL` issue on two pipes (V0/V1, latency 2), vector shifts on
//! V1 only, `LD1R` takes a load and a V slot, `STR q` two of each; decode is 4 wide.
//! `neon`: (74 + 6 + 2 × 6) V micro-ops / 2 ≈ 46 cycles per block, above the 31 of
//! decode. `soft`: 670 / 4 ≈ 168 cycles per block from decode (444 ALU ops on 3
//! integer pipes ≈ 148, 213 loads on 2 pipes ≈ 107). So `neon` ≈ 3.6× `soft` on N1.
//! Neoverse V1 and Apple cores have four 128-bit vector pipes, which favours the batch
//! more; the 22 scalar instructions per block then start to count against decode.
//! [`MIN_BATCH`] (40) follows: a padded batch costs ~128 × 46 cycles plus ~1 000 for
//! the round-key masks, as much as ~40 `soft` blocks.
//!
//! The two-input circuits suit NEON as they are: each gate, and-not included, is one
//! instruction. The three-input LUT circuits would not: lowering each of their 205
//! gates to its cheapest NEON sequence (`AND`/`ORR`/`EOR`/`BIC`/`ORN`/`MVN`/`BSL`,
//! found by exhaustive search over the 256 three-input functions) takes 454
//! instructions for the eight S-boxes (12 gates are one instruction, 137 two, 56
//! three) against the two-input circuits' 402 (382 since). So `tl` maps only the bit-select tables
//! to `BSL`, for the transpose, and the rounds keep the two-input networks.
//!
//! Constant time for the batches: only bitwise operations and shifts by constants, no
//! table indexed by data, no branch on data (checked in the disassembly: the round code
//! of `batch_v` and `crypt_batch` is straight-line vector logic, loads and stores at
//! addresses fixed by the loop counters). Blocks the batches do not take (fewer than
//! [`MIN_BATCH`], single blocks) go to the table-driven `soft` code, which is not.

use core::arch::aarch64::*;
use core::cell::OnceCell;

use super::bitslice::{self, Gates, Masks};
use super::soft::{self, Ks, Passes};
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U128},
    inout::{InOut, InOutBuf},
};

/// A `v` register of bit planes (2 lanes of 64 blocks).
///
/// Its methods use NEON intrinsics; they are only reached from [`run`], [`crypt_batch`]
/// and [`key_schedule`], which are only called with a `token::Neon` (see `Backend`).
/// Where NEON is part of the target (every aarch64 Linux, Apple and Windows target) the
/// intrinsics need no `unsafe`; the blocks stay for targets without it (`unused_unsafe`
/// is allowed for that).
#[derive(Clone, Copy)]
struct V(uint64x2_t);

#[allow(unused_unsafe)]
impl Gates for V {
    const LANES: usize = 2;
    const TERNLOG: bool = false;
    const MUX: bool = true;
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: only reached with NEON present (see the type's docs).
        V(unsafe { vdupq_n_u64(0) })
    }
    #[inline(always)]
    fn ones() -> Self {
        // SAFETY: as in `zero`.
        V(unsafe { vdupq_n_u64(!0) })
    }
    #[inline(always)]
    fn and(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        V(unsafe { vandq_u64(a.0, b.0) })
    }
    #[inline(always)]
    fn or(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        V(unsafe { vorrq_u64(a.0, b.0) })
    }
    #[inline(always)]
    fn xor(a: Self, b: Self) -> Self {
        // SAFETY: as in `zero`.
        V(unsafe { veorq_u64(a.0, b.0) })
    }
    #[inline(always)]
    fn andnot(a: Self, b: Self) -> Self {
        // `vbicq_u64(x, y)` is `x & !y`.
        // SAFETY: as in `zero`.
        V(unsafe { vbicq_u64(b.0, a.0) })
    }
    /// The six bit-select tables are one `BSL` (`vbslq_u64(m, x, y)` is `m ? x : y`
    /// bitwise); the rest a sum of minterms (not used: `TERNLOG` is false).
    #[inline(always)]
    fn tl<const IMM: i32>(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: as in `zero`.
        let sel = |m: Self, x: Self, y: Self| V(unsafe { vbslq_u64(m.0, x.0, y.0) });
        match IMM {
            0xCA => sel(a, b, c),
            0xAC => sel(a, c, b),
            0xE2 => sel(b, a, c),
            0xB8 => sel(b, c, a),
            0xD8 => sel(c, a, b),
            0xE4 => sel(c, b, a),
            _ => {
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
        }
    }
    #[inline(always)]
    fn splat(m: u32) -> Self {
        // SAFETY: as in `zero`.
        V(unsafe { vreinterpretq_u64_u32(vdupq_n_u32(m)) })
    }
    #[inline(always)]
    fn splat64(m: u64) -> Self {
        // SAFETY: as in `zero`.
        V(unsafe { vdupq_n_u64(m) })
    }
    #[inline(always)]
    fn shr<const S: u32>(a: Self) -> Self {
        // `USHR` takes its count as an immediate; the transpose shifts by powers of two.
        // SAFETY: as in `zero`.
        V(unsafe {
            match S {
                1 => vshrq_n_u64::<1>(a.0),
                2 => vshrq_n_u64::<2>(a.0),
                4 => vshrq_n_u64::<4>(a.0),
                8 => vshrq_n_u64::<8>(a.0),
                16 => vshrq_n_u64::<16>(a.0),
                32 => vshrq_n_u64::<32>(a.0),
                _ => vshlq_u64(a.0, vdupq_n_s64(-i64::from(S))),
            }
        })
    }
    #[inline(always)]
    fn shl<const S: u32>(a: Self) -> Self {
        // SAFETY: as in `zero`.
        V(unsafe {
            match S {
                1 => vshlq_n_u64::<1>(a.0),
                2 => vshlq_n_u64::<2>(a.0),
                4 => vshlq_n_u64::<4>(a.0),
                8 => vshlq_n_u64::<8>(a.0),
                16 => vshlq_n_u64::<16>(a.0),
                32 => vshlq_n_u64::<32>(a.0),
                _ => vshlq_u64(a.0, vdupq_n_s64(i64::from(S))),
            }
        })
    }
    #[inline(always)]
    fn load(b: &[Block]) -> Self {
        assert_eq!(b.len(), 2);
        // Lane `q` is block `q` as a little-endian `u64` on either byte order (on
        // little-endian aarch64 this is one `ldr q`).
        let w = [
            u64::from_le_bytes(b[0].into()),
            u64::from_le_bytes(b[1].into()),
        ];
        // SAFETY: `w` holds 16 readable bytes, aligned for `u64`. CPU features: as in
        // `zero`.
        V(unsafe { vld1q_u64(w.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, b: &mut [Block]) {
        assert_eq!(b.len(), 2);
        let mut w = [0u64; 2];
        // SAFETY: `w` holds 16 writable bytes, aligned for `u64`. CPU features: as in
        // `zero`.
        unsafe { vst1q_u64(w.as_mut_ptr(), self.0) };
        b[0] = w[0].to_le_bytes().into();
        b[1] = w[1].to_le_bytes().into();
    }
}

/// One 128-block batch (kept out of line: one copy of the 48-round code for every cipher
/// type, direction and mode that uses it).
#[inline(never)]
#[target_feature(enable = "neon")]
fn batch_v(buf: InOutBuf<'_, '_, Block>, m: &[Masks]) {
    bitslice::batch::<V>(buf, m, m.len() / 16);
}

/// Fewest tail blocks worth a padded 128-block batch; fewer go to `soft`. The `blocks`
/// of the `neon` row, where it is derived (an estimate from instruction counts: no
/// aarch64 machine measured it).
pub(crate) const MIN_BATCH: usize = super::token::Neon::MIN_BLOCKS;

/// Runs the `P` passes whose masks are `m` over every block of `buf`: 128 at a time, a
/// tail of at least [`MIN_BATCH`] blocks as one padded batch, fewer through `soft`.
#[inline]
#[target_feature(enable = "neon")]
fn run<const P: usize>(
    ks: &[Ks],
    passes: &Passes<P>,
    m: &[Masks],
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 128 {
        // In place or not: the batch reads all input before it writes.
        batch_v(buf.reborrow().split_at(at).1.split_at(128).0, m);
        at += 128;
    }
    let rem = n - at;
    if rem == 0 {
        return;
    }
    let (_, mut tail) = buf.split_at(at);
    if rem < MIN_BATCH {
        return soft::crypt_blocks(ks, passes, tail);
    }
    let mut tmp = [Block::default(); 128];
    tmp[..rem].copy_from_slice(tail.get_in());
    batch_v((&mut tmp[..]).into(), m);
    tail.get_out().copy_from_slice(&tmp[..rem]);
}

/// `des-crypt`'s batch: `count` salted DES encryptions of the zero block under 128
/// keys, one per lane, encoded as `crypt(3)` hash characters (see `bitslice::crypt_batch`).
/// Out of line, as the ECB batches.
#[inline(never)]
#[target_feature(enable = "neon")]
pub(crate) fn crypt_batch(keys: &[Block], out: &mut [Block], salt: u32, count: u32) {
    bitslice::crypt_batch::<V>(keys, out, salt, count);
}

/// The backend handed to `cipher`'s closures; only [`encrypt`] and [`decrypt`] make one,
/// inside code compiled for (and only run with) NEON.
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
            // Sized by `P`, as in `avx2.rs`.
            let mut m = [[[0u32; 48]; 16]; P];
            for (p, &(k, dec)) in self.passes.iter().enumerate() {
                bitslice::masks(&self.ks[k], dec, &mut m[p]);
            }
            m
        });
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Neon` (the CPU has NEON).
        unsafe { run(self.ks, &self.passes, m.as_flattened(), buf) }
    }
}

impl<const P: usize> BlockSizeUser for Backend<'_, P> {
    type BlockSize = U8;
}

/// 128 blocks: one bit per block in each of the 128 bits of a `v` register, 64 such
/// registers of state. The 32 architectural `v` registers hold the values of one S-box
/// circuit (and of eight rows of a transpose pass), not the state: it lives in L1, as
/// on AVX2. A batch is one register wide, so `ctr` and `cbc` decryption hand over whole
/// batches of 128.
impl<const P: usize> ParBlocksSizeUser for Backend<'_, P> {
    type ParBlocksSize = U128;
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

/// The round keys of `key` in constant time: the mask-OR of [`soft::KEY_MASKS`] in eight
/// `v` accumulators, as `avx2::key_schedule` does. `C‖D` is broadcast and doubled once
/// per row, so bit `q` reaches the sign bit, which `CMLT #0` widens to a lane mask: the
/// key flows only through bitwise data flow, never a branch or an address.
#[target_feature(enable = "neon")]
pub(crate) fn key_schedule(key: u64) -> Ks {
    let mut x = vdupq_n_s64(soft::pc1(key) as i64);
    let mut acc = [vdupq_n_u64(0); 8];
    for row in &soft::KEY_MASKS {
        let m = vcltzq_s64(x);
        x = vshlq_n_s64::<1>(x);
        for (a, bits) in acc.iter_mut().zip(row.chunks_exact(2)) {
            // SAFETY: `bits` is two `u64`, the 16 bytes of the load.
            let b = unsafe { vld1q_u64(bits.as_ptr()) };
            *a = vorrq_u64(*a, vandq_u64(m, b));
        }
    }
    let mut k = [0u64; 16];
    for (a, out) in acc.into_iter().zip(k.chunks_exact_mut(2)) {
        // SAFETY: `out` is two `u64`, the 16 bytes of the store.
        unsafe { vst1q_u64(out.as_mut_ptr(), a) }
    }
    soft::ks_from_round_keys(k)
}

/// Runs `f` with the NEON backend for `passes` (encryption).
#[target_feature(enable = "neon")]
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

/// Runs `f` with the NEON backend for `passes` (decryption).
#[target_feature(enable = "neon")]
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
    /// ECB against `soft` for DES and every Triple-DES flavor: lengths around 128 blocks
    /// and the tail paths, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn neon_matches_soft() {
        crate::backends::check_matches_soft("neon", 128);
        crate::backends::check_matches_soft("neon", super::MIN_BATCH);
    }
}
