//! NEON on aarch64: IDEA's 16-bit words in 16-bit lanes, 8 blocks per `q` register, four
//! register groups (32 blocks) in flight.
//!
//! A group of 8 blocks is four `q` registers, register *i* holding word *i* of every
//! block, in host order: the load is `LD4 {v0.16b-v3.16b}` with widening shifts, adds and
//! `UZP1`/`UZP2` to join and sort the big-endian bytes (see [`load`]), the store `REV16`
//! and `ST4 {v0.8h-v3.8h}`. The multiplication modulo 2^16+1 is the
//! x86 backends' branch-free one (see [`mul`]): `UMULL`/`UMULL2` give the 32-bit
//! products of the 8 lanes, `UZP1`/`UZP2` their low and high halves, then
//! `lo − hi + (lo ≤ hi)` with a masked fix-up for the operand 0.
//!
//! Why NEON pays, counted and estimated (no aarch64 speed is measured: the only aarch64
//! this ran on is qemu, whose timings mean nothing). Instructions per block, release
//! build for `aarch64-unknown-linux-gnu` (the settings of `cargo xtask cross`),
//! `encrypt_blocks` on 1024 blocks in a small program, disassembled with
//! `aarch64-linux-gnu-objdump -d --no-show-raw-insn` and counted along the loops: this
//! backend's 32-block batch is 2154 instructions, 67 a block (a round of four groups is
//! 247: 32 `UMULL`/`UMULL2`, 32 `UZP1`/`UZP2`, 32 compares, 82 add/sub, 24 `EOR`, 16
//! `AND`, subkey loads and a few spills); `soft`'s 4-block interleaved loop is 2475, 619 a
//! block (its `mul` is a scalar `MUL` and ≈ 8 instructions of reduction and zero fix-up,
//! 34 times a block). From Arm's Software Optimization Guides as LLVM encodes them
//! (`AArch64SchedNeoverseN1.td`, `AArch64SchedNeoverseV1.td`):
//! - Neoverse N1: 3 integer pipes (scalar `MUL` on the one M pipe, 2 cycles) against 2
//!   NEON pipes (`UMULL` on V0 only, 4 cycles, one per cycle: 8.5 a block): `soft` ≥ 206
//!   cycles a block, this backend ≥ 34: ≈ 6×.
//! - Neoverse V1: 4 integer pipes against 4 NEON pipes (`UMULL` on V0/V2, 3 cycles):
//!   ≥ 155 against ≥ 17 cycles a block: ≈ 9×.
//!
//! These are bounds from issue width, an estimate, not a measurement.
//!
//! Why four groups (`ParBlocksSize` = 32): one round is a chain of three dependent
//! multiplications of ≈ 14 cycles each on N1 (`UMULL` 4, `UZP` 2, compare 2, three
//! add/sub 2 each) plus the adds and XORs between them, ≈ 50 cycles, while a group
//! issues ≈ 62 instructions a round, ≈ 31 cycles on N1's two pipes: two groups hide
//! the latency on N1, and a core with four NEON pipes (Neoverse V1: ≈ 16 cycles of
//! issue a group and round) needs three to four.
//! Four groups are 16 state registers plus ≈ 4 temporaries each in a multiplication:
//! the 32 `v` registers (the subkeys come from memory, one `LDR q` each, on the load
//! pipes).
//!
//! Tails: 32 blocks as four groups, then 16, then 8; 4..7 blocks padded into one group
//! on the stack; fewer than the table's `blocks` (4), and single-block calls (CBC
//! encryption), run the `soft` code: broadcasting the 104 subkey vectors and a padded
//! group cost about as much as 4 blocks of `soft`.
//!
//! Constant time: only lane-wise arithmetic, compares, logic and fixed permutations; no
//! table, no data-dependent branch or address.

use core::arch::aarch64::*;

use super::soft;
use crate::{Blk, LENGTH_SUB_KEYS};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockSizeUser, InOut, InOutBuf, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U32},
};
use core::cell::OnceCell;

/// Below this many blocks a call runs the `soft` code instead (the table's `blocks`).
const MIN_BLOCKS: usize = super::token::Neon::MIN_BLOCKS;

/// Blocks per group: one 16-bit lane each in a `q` register.
const LANES: usize = 8;

type W = uint16x8_t;

/// Subkeys broadcast to 8 lanes, and their negations (for the zero fix-up of [`mul`]).
struct Keys {
    k: [W; LENGTH_SUB_KEYS],
    nk: [W; LENGTH_SUB_KEYS],
}

/// The broadcast subkeys of `k`.
#[inline]
#[target_feature(enable = "neon")]
fn broadcast(k: &[u16; LENGTH_SUB_KEYS]) -> Keys {
    Keys {
        k: core::array::from_fn(|i| vdupq_n_u16(k[i])),
        nk: core::array::from_fn(|i| vdupq_n_u16(k[i].wrapping_neg())),
    }
}

/// `a·b` modulo 2^16+1 in each lane (0 stands for 2^16); `nb` = −b.
///
/// `lo`, `hi` are the halves of the 32-bit product: for `a, b ≠ 0` the answer is
/// `lo − hi`, plus 1 when `lo < hi` (`lo = hi` is impossible then). For `a` or `b` = 0 the
/// product is 0 (`lo = hi = 0`): the same formula gives 1, and `−a − b` is added where
/// `lo = hi`, giving `1 − a − b`. (The avx2 backend's formula; the `lo − hi` reduction is
/// Lai and Massey's "low-high" algorithm, as in the IDEA reference code.)
#[inline]
#[target_feature(enable = "neon")]
fn mul(a: W, b: W, nb: W) -> W {
    let p0 = vmull_u16(vget_low_u16(a), vget_low_u16(b));
    let p1 = vmull_high_u16(a, b);
    let (p0, p1) = (vreinterpretq_u16_u32(p0), vreinterpretq_u16_u32(p1));
    let lo = vuzp1q_u16(p0, p1);
    let hi = vuzp2q_u16(p0, p1);
    // All ones where lo ≤ hi: subtracting it adds 1.
    let le = vcleq_u16(lo, hi);
    let eq = vceqq_u16(lo, hi);
    let r = vsubq_u16(vsubq_u16(lo, hi), le);
    vaddq_u16(r, vandq_u16(eq, vsubq_u16(nb, a)))
}

/// The cipher on `G` groups of 8 blocks (each group: word *i* of 8 blocks in `x[g][i]`).
#[inline]
#[target_feature(enable = "neon")]
fn words<const G: usize>(k: &Keys, mut x: [[W; 4]; G]) -> [[W; 4]; G] {
    let (kk, nk) = (&k.k, &k.nk);
    for r in 0..8 {
        let j = 6 * r;
        for x in x.iter_mut() {
            let [x1, x2, x3, x4] = *x;
            let y1 = mul(x1, kk[j], nk[j]);
            let y2 = vaddq_u16(x2, kk[j + 1]);
            let y3 = vaddq_u16(x3, kk[j + 2]);
            let y4 = mul(x4, kk[j + 3], nk[j + 3]);
            let t0 = mul(veorq_u16(y1, y3), kk[j + 4], nk[j + 4]);
            let t1 = mul(vaddq_u16(veorq_u16(y2, y4), t0), kk[j + 5], nk[j + 5]);
            let t2 = vaddq_u16(t0, t1);
            *x = [
                veorq_u16(y1, t1),
                veorq_u16(y3, t1),
                veorq_u16(y2, t2),
                veorq_u16(y4, t2),
            ];
        }
    }
    x.map(|[x1, x2, x3, x4]| {
        [
            mul(x1, kk[48], nk[48]),
            vaddq_u16(x3, kk[49]),
            vaddq_u16(x2, kk[50]),
            mul(x4, kk[51], nk[51]),
        ]
    })
}

/// The bytes of each 16-bit lane swapped (big-endian words back to memory order).
#[inline]
#[target_feature(enable = "neon")]
fn swap(w: W) -> W {
    vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(w)))
}

/// 8 blocks (64 bytes at `p`) as four registers of words, register *i* holding word *i*
/// of every block (big-endian words, so the bytes are swapped).
///
/// Not `LD4 .8h` then `REV16`: LLVM merges the two shuffles into `TBL`s, lane moves and
/// spilled masks (seen in the disassembly: 32 `TBL`s and 16 `MOV`s per 32 blocks, ≈ 10
/// instructions a block more). Here `LD4 .16b` splits the bytes by position mod 4 and
/// widening arithmetic (`SHLL #8`, `UADDW`), which LLVM leaves alone, joins the high and
/// low bytes; words 0 and 2 (1 and 3) come out alternating by block, and `UZP1`/`UZP2`
/// sort them.
///
/// # Safety
/// `p` must be valid for reading 64 bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn load(p: *const u8) -> [W; 4] {
    // SAFETY: the caller guarantees 64 readable bytes; `LD4` has no alignment
    // requirement on normal memory (the LLVM intrinsic assumes none).
    let v = unsafe { vld4q_u8(p) };
    // Byte 4m + r of the 64 is in `v.r`, lane m: lane 2b of `v.0` is the high byte of
    // word 0 of block b, lane 2b + 1 that of word 2; `v.1` has their low bytes, `v.2`
    // and `v.3` the same for words 1 and 3.
    let join_lo = |hi, lo| vaddw_u8(vshll_n_u8::<8>(vget_low_u8(hi)), vget_low_u8(lo));
    let join_hi = |hi, lo| vaddw_high_u8(vshll_high_n_u8::<8>(hi), lo);
    // SAFETY: (of the closures' calls) NEON is enabled in this function.
    let (p02, q02) = (join_lo(v.0, v.1), join_hi(v.0, v.1));
    let (p13, q13) = (join_lo(v.2, v.3), join_hi(v.2, v.3));
    [
        vuzp1q_u16(p02, q02),
        vuzp1q_u16(p13, q13),
        vuzp2q_u16(p02, q02),
        vuzp2q_u16(p13, q13),
    ]
}

/// Transforms `8·G` blocks from `inp` to `out` (which may be the same address).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `64·G` bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn run_ptr<const G: usize>(k: &Keys, inp: *const u8, out: *mut u8) {
    let x: [[W; 4]; G] = core::array::from_fn(|g| {
        // SAFETY: the caller guarantees 64·G readable bytes.
        unsafe { load(inp.add(64 * g)) }
    });
    let y = words(k, x);
    for (g, y) in y.into_iter().enumerate() {
        let [a, b, c, d] = y;
        let (a, b, c, d) = (swap(a), swap(b), swap(c), swap(d));
        // SAFETY: the caller guarantees 64·G writable bytes; `ST4`, like `LD4`, needs no
        // alignment.
        unsafe { vst4q_u16(out.add(64 * g).cast(), uint16x8x4_t(a, b, c, d)) };
    }
}

/// Transforms `8·G` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "neon")]
fn run_n<const G: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, Blk>, at: usize) {
    let n = LANES * G;
    let inp = buf.get_in()[at..at + n].as_ptr().cast::<u8>();
    let out = buf.get_out()[at..at + n].as_mut_ptr().cast::<u8>();
    // SAFETY: both slices hold `n` blocks = 64·G bytes (bounds-checked above); the
    // input and output of an `InOutBuf` are either the same buffer or disjoint, and
    // `run_ptr` reads all input before it writes.
    unsafe { run_ptr::<G>(k, inp, out) }
}

/// Any number of blocks: 32 at a time, then 16, then 8, then the rest padded to 8 (or,
/// below [`MIN_BLOCKS`], with the `soft` code).
#[inline]
#[target_feature(enable = "neon")]
fn run_blocks(k: &Keys, mut buf: InOutBuf<'_, '_, Blk>, words: &[u16; LENGTH_SUB_KEYS]) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 4 * LANES {
        run_n::<4>(k, &mut buf, at);
        at += 4 * LANES;
    }
    if n - at >= 2 * LANES {
        run_n::<2>(k, &mut buf, at);
        at += 2 * LANES;
    }
    if n - at >= LANES {
        run_n::<1>(k, &mut buf, at);
        at += LANES;
    }
    let rest = n - at;
    if rest > 0 && rest < MIN_BLOCKS {
        soft::crypt_blocks(buf.split_at(at).1, words);
    } else if rest > 0 {
        let mut tmp = [0u8; 8 * LANES];
        for (i, b) in buf.get_in()[at..].iter().enumerate() {
            tmp[8 * i..8 * i + 8].copy_from_slice(b);
        }
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 64 bytes, read and written through the same pointer.
        unsafe { run_ptr::<1>(k, p, p) };
        for (i, b) in buf.get_out()[at..].iter_mut().enumerate() {
            b.copy_from_slice(&tmp[8 * i..8 * i + 8]);
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) NEON.
struct Backend<'a> {
    words: &'a [u16; LENGTH_SUB_KEYS],
    /// The broadcast subkeys, made by the first call of [`MIN_BLOCKS`] blocks or more: a
    /// call of a few blocks runs `soft` and never pays for them.
    keys: OnceCell<Keys>,
}

impl Backend<'_> {
    /// Any number of blocks: `soft` below [`MIN_BLOCKS`], else [`run_blocks`].
    #[inline]
    #[target_feature(enable = "neon")]
    fn run(&self, buf: InOutBuf<'_, '_, Blk>) {
        if buf.len() < MIN_BLOCKS {
            soft::crypt_blocks(buf, self.words);
        } else {
            run_blocks(
                self.keys.get_or_init(|| broadcast(self.words)),
                buf,
                self.words,
            );
        }
    }
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 32 blocks = 4 groups of 4 `q` registers: 16 state registers and ≈ 4 temporaries per
/// group inside a multiplication fill the 32 `v` registers; two groups would hide the
/// multiplication chain's latency on Neoverse N1's two NEON pipes, four on cores with
/// four (module docs).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt_one(block, self.words);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::Neon` (the CPU has NEON).
        unsafe { self.run(blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        soft::crypt_one(block, self.words);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks) }
    }
}

/// Runs `f` with the NEON encryption backend (encryption subkeys `k`).
#[target_feature(enable = "neon")]
pub(crate) fn encrypt(k: &[u16; LENGTH_SUB_KEYS], f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

/// Runs `f` with the NEON decryption backend (decryption subkeys `k`).
#[target_feature(enable = "neon")]
pub(crate) fn decrypt(k: &[u16; LENGTH_SUB_KEYS], f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`: tail lengths around 32 blocks,
    /// misaligned buffers, sentinels (`testkit::harness::block`), zero words.
    #[test]
    fn neon_matches_soft() {
        crate::backends::check_matches_soft("neon", 32);
    }
}
