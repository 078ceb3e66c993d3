//! Word-sliced Serpent on NEON (`q`) registers, for aarch64.
//!
//! Four blocks share four `q` registers: `LD4 {v0.4s-v3.4s}` de-interleaves 64 bytes so
//! that register `j` holds word `j` of four blocks (the 4×4 transpose the x86 backends do
//! with unpacks comes with the load, and `ST4` undoes it with the store), and the
//! bitsliced round code of `soft.rs` (`serpent_sboxes!`, `serpent_rounds!`) runs on four
//! blocks at once. The S-box networks are Osvik's, as in `soft` and `avx2`; LLVM folds their
//! `x & !y` and `x | !y` into NEON's `BIC` and `ORN`. A rotation is `SHL` then `SRI`
//! (shift right and insert; LLVM emits `SHL` + `USRA`), two instructions. Four such
//! sets (16 blocks) run interleaved.
//!
//! Why NEON pays here, counted and estimated (no aarch64 speed is measured: the only
//! aarch64 this ran on is qemu, whose timings mean nothing). Instructions per block,
//! release build for `aarch64-unknown-linux-gnu` (the settings of `cargo xtask cross`),
//! `encrypt_blocks` on 1024 blocks in a small program, disassembled with
//! `aarch64-linux-gnu-objdump -d --no-show-raw-insn` and counted along the loops: this
//! backend's 16-block batch is 5739 instructions, 359 a block (its loop body of 8
//! rounds over 16 blocks: ≈ 716 `EOR`, 224 `SHL`, 192 `USRA`, 144 `AND`/`ORR`, 40
//! `BIC`/`ORN`, 32 `MVN`, the rest round-key broadcasts and loads); `soft`'s one-block
//! loop is 1166 a block (it folds rotations into `EOR …, ror #n` operands). From Arm's Software Optimization
//! Guides as LLVM encodes them (`AArch64SchedNeoverseN1.td`, `AArch64SchedNeoverseV1.td`):
//! - Neoverse N1: 3 integer pipes (1-cycle logic, also with a shifted operand) against 2
//!   NEON pipes (2-cycle logic; shifts and `SRI` on V1 only, `USRA` 4 cycles): `soft` ≥
//!   389 cycles a block, this backend ≥ 180 (its 104 shifts a block fit V1): ≈ 2.2×.
//! - Neoverse V1: 4 integer pipes against 4 NEON pipes (shifts on V1/V3): ≥ 292
//!   against ≥ 90 cycles a block: ≈ 3×.
//!
//! These are bounds from issue width, an estimate, not a measurement.
//!
//! Why 16 blocks (`ParBlocksSize`): a round of one set is ≈ 54 NEON instructions with a
//! dependency chain of ≈ 20 of them (the S-box network's depth plus the linear
//! transformation), ≈ 40–50 cycles at 2–4 cycles a step, against 27 cycles of issue on
//! N1's two pipes and 14 on V1's four: one set is latency-bound, three to four keep a
//! V1 busy. Four sets use 16 state registers, about two temporaries each and the four
//! round-key broadcasts: ≈ 28 of the 32 `v` registers (in the disassembly a few
//! key broadcasts per round go through the stack).
//!
//! Tails: 16 blocks per batch, then 8 (two sets), then 4 (one set); the last 1–3 blocks
//! run one padded 4-block pass, or, below the table's `blocks` (3), the `soft` one-block
//! code. One set alone is latency-bound: a round's chain of ≈ 20 NEON steps at 2–4
//! cycles (a rotation is `SHL` 2 + `USRA` 4 on N1) is ≈ 42 cycles, ≈ 1350 a pass, where
//! `soft`'s one block runs a chain of ≈ 18 one-cycle steps a round, ≈ 580 cycles: the
//! pass costs ≈ 2.3 `soft` blocks (estimated, Neoverse N1 figures as above), so one and
//! two blocks (CBC encryption among them) stay on `soft`.
//!
//! Constant time: bitwise operations, shifts by constants and the fixed permutations of
//! `LD4`/`ST4` only; no table, no data- or key-dependent branch or index.

use core::arch::aarch64::*;

use super::{RoundKeys, soft};
use super::soft::{serpent_rounds, serpent_sboxes};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::U16,
    inout::{InOut, InOutBuf},
};

type W = uint32x4_t;

#[inline]
#[target_feature(enable = "neon")]
fn and(a: W, b: W) -> W {
    vandq_u32(a, b)
}

#[inline]
#[target_feature(enable = "neon")]
fn or(a: W, b: W) -> W {
    vorrq_u32(a, b)
}

#[inline]
#[target_feature(enable = "neon")]
fn xor(a: W, b: W) -> W {
    veorq_u32(a, b)
}

#[inline]
#[target_feature(enable = "neon")]
fn not(a: W) -> W {
    vmvnq_u32(a)
}

/// Rotate left by `L` (= right by `R`): `SHL` then `SRI` inserts the high bits.
#[inline]
#[target_feature(enable = "neon")]
fn rol<const L: i32, const R: i32>(a: W) -> W {
    vsriq_n_u32::<R>(vshlq_n_u32::<L>(a), a)
}

#[inline]
#[target_feature(enable = "neon")]
fn shl<const S: i32>(a: W) -> W {
    vshlq_n_u32::<S>(a)
}

#[inline]
#[target_feature(enable = "neon")]
fn splat(a: u32) -> W {
    vdupq_n_u32(a)
}

serpent_sboxes!(#[inline] #[target_feature(enable = "neon")]);
serpent_rounds!(#[inline] #[target_feature(enable = "neon")]);

/// Blocks per set: one 32-bit lane each in a `q` register.
const LANES: usize = 4;

/// Transforms `N·4` blocks from `inp` to `out` (byte pointers, `N·64` bytes each).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `N·64` bytes; they may be the
/// same address (every load happens before the stores).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn run_n<const N: usize>(k: &RoundKeys, inp: *const u8, out: *mut u8, enc: bool) {
    let x: [[W; 4]; N] = core::array::from_fn(|s| {
        // SAFETY: the caller gives N·64 readable bytes; `vld4q_u32` is `LD4`, which
        // has no alignment requirement on normal memory (the LLVM intrinsic assumes none).
        let v = unsafe { vld4q_u32(inp.add(64 * s).cast()) };
        [v.0, v.1, v.2, v.3]
    });
    let y = if enc {
        encrypt_n(k, x)
    } else {
        decrypt_n(k, x)
    };
    for (s, [a, b, c, d]) in y.into_iter().enumerate() {
        // SAFETY: the caller gives N·64 writable bytes; `ST4`, like `LD4`, needs no
        // alignment.
        unsafe { vst4q_u32(out.add(64 * s).cast(), uint32x4x4_t(a, b, c, d)) };
    }
}

/// Any number of blocks: 16 at a time, then 8, then 4, then the last 1–3 by
/// [`run_short`].
#[inline]
#[target_feature(enable = "neon")]
fn run_blocks(k: &RoundKeys, buf: InOutBuf<'_, '_, Block<Backend<'_>>>, enc: bool) {
    let n = buf.len();
    let (inp, out) = buf.into_raw();
    let (inp, out) = (inp.cast::<u8>(), out.cast::<u8>());
    let mut at = 0;
    while n - at >= 4 * LANES {
        // SAFETY: blocks `at..at + 16` are in the buffer (16 bytes each); in-place
        // operation is fine: every load of a batch happens before its stores.
        unsafe { run_n::<4>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += 4 * LANES;
    }
    if n - at >= 2 * LANES {
        // SAFETY: as above, blocks `at..at + 8`.
        unsafe { run_n::<2>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += 2 * LANES;
    }
    if n - at >= LANES {
        // SAFETY: as above, blocks `at..at + 4`.
        unsafe { run_n::<1>(k, inp.add(16 * at), out.add(16 * at), enc) };
        at += LANES;
    }
    if at < n {
        // SAFETY: blocks `at..n` (1–3) are in the buffer.
        unsafe { run_short(k, inp.add(16 * at), out.add(16 * at), n - at, enc) };
    }
}

/// 1–3 blocks from `inp` to `out` (byte pointers): below the row's `blocks` on the
/// `soft` code, else one padded 4-block pass.
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `16·n` bytes, `1 <= n < 4`;
/// they may be the same buffer (each block is read before it is written).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn run_short(k: &RoundKeys, inp: *const u8, out: *mut u8, n: usize, enc: bool) {
    debug_assert!((1..LANES).contains(&n));
    if n < super::token::Neon::MIN_BLOCKS {
        for i in 0..n {
            // SAFETY: block `i` is in the buffer (16 bytes at `16·i`); it is read whole
            // before it is written.
            let x: [u8; 16] = unsafe { core::ptr::read_unaligned(inp.add(16 * i).cast()) };
            let w = [soft::read_words(&x)];
            let [w] = if enc {
                soft::encrypt_n(k, w)
            } else {
                soft::decrypt_n(k, w)
            };
            let mut y = [0u8; 16];
            soft::write_words(w, &mut y);
            // SAFETY: as above, for the output.
            unsafe { core::ptr::write_unaligned(out.add(16 * i).cast::<[u8; 16]>(), y) };
        }
    } else {
        let mut tmp = [0u8; 16 * LANES];
        // SAFETY: the caller gives `n` blocks; `tmp` has room for them.
        unsafe { core::ptr::copy_nonoverlapping(inp, tmp.as_mut_ptr(), 16 * n) };
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 64 bytes.
        unsafe { run_n::<1>(k, p, p, enc) };
        // SAFETY: the caller gives `n` writable blocks.
        unsafe { core::ptr::copy_nonoverlapping(tmp.as_ptr(), out, 16 * n) };
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) NEON.
pub(crate) struct Backend<'a>(&'a RoundKeys);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

/// 16 blocks = four sets of four `q` words: 16 state registers, 1–2 temporaries per set
/// for the S-box networks and the linear transformation, and four round-key broadcasts
/// are ≈ 28 of the 32 `v` registers; a fifth set would spill, and three sets would leave
/// a Neoverse V1's four NEON pipes short of independent work (module docs).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U16;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::encrypt_block(self.0, block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Neon` (the CPU has NEON).
        unsafe { run_blocks(self.0, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::decrypt_block(self.0, block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.0, blocks, false) }
    }
}

/// Runs `f` with the NEON encryption backend.
#[target_feature(enable = "neon")]
pub(crate) fn encrypt(k: &RoundKeys, f: impl BlockCipherEncClosure<BlockSize = U16>) {
    f.call(&Backend(k))
}

/// Runs `f` with the NEON decryption backend.
#[target_feature(enable = "neon")]
pub(crate) fn decrypt(k: &RoundKeys, f: impl BlockCipherDecClosure<BlockSize = U16>) {
    f.call(&Backend(k))
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key length: tail lengths
    /// around 16 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn neon_matches_soft() {
        crate::backends::check_matches_soft("neon", 16);
    }
}
