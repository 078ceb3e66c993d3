//! NEON on aarch64: RC2's 16-bit words in 16-bit lanes, 8 blocks per `q` register, four
//! register groups (32 blocks) in flight.
//!
//! A group of 8 blocks is four `q` registers, register *i* holding word *i* of every
//! block (`LD4 {v0.8h-v3.8h}` de-interleaves 64 bytes that way, `ST4` undoes it). Mix
//! rounds are lane-wise: `BSL` is RC2's bit select in one instruction, two adds, and a
//! rotation as a shift and a shift-insert (LLVM emits `SHL` + `USRA`).
//!
//! The mash rounds' `K[r & 63]` have no gather on NEON, but the key table is only 128
//! bytes: two 64-byte halves, each four registers, are what `TBL` with a four-register
//! table looks up in. Each 16-bit lane builds the byte indices `2j` and `2j + 1` of
//! word `j = r & 63`; `TBL` on the low half gives the bytes of the words 0..31 (an index
//! of 64 or more gives 0), `TBL` on the high half with the indices XOR 64 those of the
//! words 32..63, and an OR joins them (see [`lookup`]). The technique is the one Linux
//! uses for AES's 256-byte S-box on NEON (`arch/arm64/crypto/aes-neon.S`, Ard
//! Biesheuvel: `TBL` on the first 64 bytes, then `TBX` on each further quarter with the
//! indices minus 0x40); here it replaces the avx2 backend's scalar look-ups through the
//! stack.
//!
//! Why NEON pays, although the x86 question ("gathers are slow") suggests it might not:
//! the mash is 8 of 72 word steps, and with `TBL` it stays in registers. Counted and
//! estimated (no aarch64 speed is measured: the only aarch64 this ran on is qemu, whose
//! timings mean nothing). Instructions per block, release build for
//! `aarch64-unknown-linux-gnu` (the settings of `cargo xtask cross`), `encrypt_blocks`
//! on 1024 blocks in a small program, disassembled with `aarch64-linux-gnu-objdump -d
//! --no-show-raw-insn` and counted along the code: this backend's 32-block batch (fully
//! unrolled) is ≈ 1917 instructions, 60 a block (per word update and group `MOV`, `BSL`,
//! two `ADD`, `SHL`, `USRA`; per mash word and group ≈ 10 with two four-register `TBL`s);
//! `soft`'s 4-block interleaved loop is 2164, 541 a block (a scalar 16-bit rotation is
//! `UBFX`, `ORR` with a shifted operand and an `AND`). From Arm's Software Optimization
//! Guides as LLVM encodes them (`AArch64SchedNeoverseN1.td`, `AArch64SchedNeoverseV1.td`):
//! - Neoverse N1: 3 integer pipes against 2 NEON pipes (shifts and `SLI` on V1 only,
//!   ≈ 18 a block; `TBL` with four table registers 3 micro-ops, 4 cycles): `soft` ≥ 180
//!   cycles a block, this backend ≥ 32: ≈ 5×.
//! - Neoverse V1: 4 integer pipes against 4 NEON pipes: ≥ 135 against ≥ 16 cycles of
//!   issue, but a word update is a chain of ≈ 10 cycles and four groups give only 32
//!   blocks to overlap, so ≈ 20 cycles a block: ≈ 6×.
//!
//! These are bounds from issue width and latency, an estimate, not a measurement.
//!
//! Why four groups (`ParBlocksSize` = 32): the 64 word updates of a block are serial,
//! each a chain of `BSL`, `ADD`, `SHL`, `USRA` (2 + 2 + 2 + 4 cycles on N1) while a group
//! issues ≈ 6 instructions an update, 3 cycles on N1's two pipes: one group is
//! latency-bound, three to four keep the pipes busy. Four groups are 16 state registers;
//! the mix keys come from memory (one `LDR q` each, on the load pipes), and the 8 table
//! registers are loaded for the mash rounds.
//!
//! Tails: 32 blocks as four groups, then 16, then 8; the rest padded into one group on
//! the stack; fewer than the table's `blocks` (4), and single-block calls (CBC
//! encryption), run the `soft` code: the key broadcast and a padded, latency-bound group
//! (≈ 750 cycles of dependent updates on N1) cost about as much as 4 `soft` blocks.
//!
//! Constant time: these batches have no data-dependent branch or address (the look-ups
//! are `TBL` on registers), but calls of fewer than 4 blocks run `soft`, which loads
//! from the key table at data-dependent addresses, and the key expansion indexes
//! PITABLE with key bytes: the backend as a whole is not constant-time (crate docs).

use core::arch::aarch64::*;

use super::soft;
use crate::Blk;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, InOut, InOutBuf, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U32},
};
use core::cell::OnceCell;

/// Below this many blocks a call runs the `soft` code instead (the table's `blocks`).
const MIN_BLOCKS: usize = super::token::Neon::MIN_BLOCKS;

/// Blocks per group: one 16-bit lane each in a `q` register.
const LANES: usize = 8;

type W = uint16x8_t;

/// The key table broadcast to 8 lanes, and as bytes in registers for [`lookup`].
struct Keys {
    k: [W; 64],
    /// Bytes 0..64 and 64..128 of the table (little-endian words).
    t: [uint8x16x4_t; 2],
}

/// The broadcast key table of `k`.
#[inline]
#[target_feature(enable = "neon")]
fn broadcast(k: &[u16; 64]) -> Keys {
    let mut bytes = [0u8; 128];
    for (b, w) in bytes.chunks_exact_mut(2).zip(k) {
        b.copy_from_slice(&w.to_le_bytes());
    }
    let q = |i: usize| {
        let c: &[u8; 16] = bytes[16 * i..16 * i + 16].try_into().expect("16 bytes");
        // SAFETY: `c` is 16 readable bytes; `LD1` has no alignment requirement.
        unsafe { vld1q_u8(c.as_ptr()) }
    };
    let t = [
        uint8x16x4_t(q(0), q(1), q(2), q(3)),
        uint8x16x4_t(q(4), q(5), q(6), q(7)),
    ];
    #[cfg(feature = "zeroize")]
    cipher::zeroize::Zeroize::zeroize(&mut bytes);
    Keys {
        k: core::array::from_fn(|i| vdupq_n_u16(k[i])),
        t,
    }
}

/// `K[v & 63]` in each 16-bit lane of `v`, by `TBL` on the table in registers.
///
/// The byte indices of word `j = v & 63` are `2j` (low byte) and `2j + 1`: `(v << 1) &
/// 0x7e` is `2j` in the low byte of the lane, `SLI #8` copies it to the high byte and
/// the OR with `0x0100` makes that `2j + 1`. An index of 64 or more gives 0 from
/// `TBL`, so the two halves' look-ups (the high half's with the indices XOR 64, which
/// maps 64..127 to 0..63 and 0..63 out of range) OR together into the word.
#[inline]
#[target_feature(enable = "neon")]
fn lookup(t: &[uint8x16x4_t; 2], v: W) -> W {
    let j2 = vandq_u16(vshlq_n_u16::<1>(v), vdupq_n_u16(0x7e));
    let idx = vorrq_u16(vsliq_n_u16::<8>(j2, j2), vdupq_n_u16(0x0100));
    let idx = vreinterpretq_u8_u16(idx);
    let lo = vqtbl4q_u8(t[0], idx);
    let hi = vqtbl4q_u8(t[1], veorq_u8(idx, vdupq_n_u8(0x40)));
    vreinterpretq_u16_u8(vorrq_u8(lo, hi))
}

/// Rotates each 16-bit lane left by `L` (`R` = 16 − `L`).
#[inline]
#[target_feature(enable = "neon")]
fn rotl<const L: i32, const R: i32>(x: W) -> W {
    vsriq_n_u16::<R>(vshlq_n_u16::<L>(x), x)
}

/// Encryption mix of word `I` (rotation `L`, `R` = 16 − `L`) in every group.
#[inline]
#[target_feature(enable = "neon")]
fn mix<const I: usize, const L: i32, const R: i32, const G: usize>(x: &mut [[W; 4]; G], k: W) {
    for x in x.iter_mut() {
        // RC2's `(a & b) | (!a & c)` is `BSL` with `a` as the mask.
        let f = vbslq_u16(x[(I + 3) % 4], x[(I + 2) % 4], x[(I + 1) % 4]);
        x[I] = rotl::<L, R>(vaddq_u16(vaddq_u16(x[I], k), f));
    }
}

/// Decryption mix of word `I` (the inverse of [`mix`]: rotate right by `L`, subtract).
#[inline]
#[target_feature(enable = "neon")]
fn unmix<const I: usize, const L: i32, const R: i32, const G: usize>(x: &mut [[W; 4]; G], k: W) {
    for x in x.iter_mut() {
        let f = vbslq_u16(x[(I + 3) % 4], x[(I + 2) % 4], x[(I + 1) % 4]);
        x[I] = vsubq_u16(vsubq_u16(rotl::<R, L>(x[I]), k), f);
    }
}

/// Encryption mash of word `I` in every group.
#[inline]
#[target_feature(enable = "neon")]
fn mash<const I: usize, const G: usize>(x: &mut [[W; 4]; G], t: &[uint8x16x4_t; 2]) {
    for x in x.iter_mut() {
        x[I] = vaddq_u16(x[I], lookup(t, x[(I + 3) % 4]));
    }
}

/// Decryption mash of word `I` (the inverse of [`mash`]).
#[inline]
#[target_feature(enable = "neon")]
fn unmash<const I: usize, const G: usize>(x: &mut [[W; 4]; G], t: &[uint8x16x4_t; 2]) {
    for x in x.iter_mut() {
        x[I] = vsubq_u16(x[I], lookup(t, x[(I + 3) % 4]));
    }
}

/// Encryption mix round `round` (key words `4·round ..`) on `G` groups.
#[inline]
#[target_feature(enable = "neon")]
fn mix_round<const G: usize>(k: &Keys, x: &mut [[W; 4]; G], round: usize) {
    let j = 4 * round;
    mix::<0, 1, 15, G>(x, k.k[j]);
    mix::<1, 2, 14, G>(x, k.k[j + 1]);
    mix::<2, 3, 13, G>(x, k.k[j + 2]);
    mix::<3, 5, 11, G>(x, k.k[j + 3]);
}

/// Encryption mash round on `G` groups.
#[inline]
#[target_feature(enable = "neon")]
fn mash_round<const G: usize>(k: &Keys, x: &mut [[W; 4]; G]) {
    mash::<0, G>(x, &k.t);
    mash::<1, G>(x, &k.t);
    mash::<2, G>(x, &k.t);
    mash::<3, G>(x, &k.t);
}

/// The 16 mix rounds and two mash rounds of encryption on `G` groups: three loops of
/// mix rounds, so that the mix code, which needs no table registers, is not allocated
/// around the mash's `TBL` (whose four-register tables must be consecutive registers;
/// with the mash inside a 16-round loop, LLVM spilled state in every round).
#[inline]
#[target_feature(enable = "neon")]
fn encrypt_words<const G: usize>(k: &Keys, mut x: [[W; 4]; G]) -> [[W; 4]; G] {
    for round in 0..5 {
        mix_round(k, &mut x, round);
    }
    mash_round(k, &mut x);
    for round in 5..11 {
        mix_round(k, &mut x, round);
    }
    mash_round(k, &mut x);
    for round in 11..16 {
        mix_round(k, &mut x, round);
    }
    x
}

/// Decryption mix round `round` (the inverse of [`mix_round`]).
#[inline]
#[target_feature(enable = "neon")]
fn unmix_round<const G: usize>(k: &Keys, x: &mut [[W; 4]; G], round: usize) {
    let j = 4 * round;
    unmix::<3, 5, 11, G>(x, k.k[j + 3]);
    unmix::<2, 3, 13, G>(x, k.k[j + 2]);
    unmix::<1, 2, 14, G>(x, k.k[j + 1]);
    unmix::<0, 1, 15, G>(x, k.k[j]);
}

/// Decryption mash round (the inverse of [`mash_round`]).
#[inline]
#[target_feature(enable = "neon")]
fn unmash_round<const G: usize>(k: &Keys, x: &mut [[W; 4]; G]) {
    unmash::<3, G>(x, &k.t);
    unmash::<2, G>(x, &k.t);
    unmash::<1, G>(x, &k.t);
    unmash::<0, G>(x, &k.t);
}

/// The inverse of [`encrypt_words`].
#[inline]
#[target_feature(enable = "neon")]
fn decrypt_words<const G: usize>(k: &Keys, mut x: [[W; 4]; G]) -> [[W; 4]; G] {
    for round in (11..16).rev() {
        unmix_round(k, &mut x, round);
    }
    unmash_round(k, &mut x);
    for round in (5..11).rev() {
        unmix_round(k, &mut x, round);
    }
    unmash_round(k, &mut x);
    for round in (0..5).rev() {
        unmix_round(k, &mut x, round);
    }
    x
}

/// Transforms `8·G` blocks from `inp` to `out` (which may be the same address).
///
/// # Safety
/// `inp` must be valid for reading and `out` for writing `64·G` bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn run_ptr<const G: usize>(k: &Keys, inp: *const u8, out: *mut u8, enc: bool) {
    let x: [[W; 4]; G] = core::array::from_fn(|g| {
        // SAFETY: the caller guarantees 64·G readable bytes; `LD4` has no alignment
        // requirement on normal memory (the LLVM intrinsic assumes none).
        let v = unsafe { vld4q_u16(inp.add(64 * g).cast()) };
        [v.0, v.1, v.2, v.3]
    });
    let y = if enc {
        encrypt_words(k, x)
    } else {
        decrypt_words(k, x)
    };
    for (g, [a, b, c, d]) in y.into_iter().enumerate() {
        // SAFETY: the caller guarantees 64·G writable bytes; `ST4`, like `LD4`, needs no
        // alignment.
        unsafe { vst4q_u16(out.add(64 * g).cast(), uint16x8x4_t(a, b, c, d)) };
    }
}

/// Transforms `8·G` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "neon")]
fn run_n<const G: usize>(k: &Keys, buf: &mut InOutBuf<'_, '_, Blk>, at: usize, enc: bool) {
    let n = LANES * G;
    let inp = buf.get_in()[at..at + n].as_ptr().cast::<u8>();
    let out = buf.get_out()[at..at + n].as_mut_ptr().cast::<u8>();
    // SAFETY: both slices hold `n` blocks = 64·G bytes (bounds-checked above); the
    // input and output of an `InOutBuf` are either the same buffer or disjoint, and
    // `run_ptr` reads all input before it writes.
    unsafe { run_ptr::<G>(k, inp, out, enc) }
}

/// Any number of blocks: 32 at a time, then 16, then 8, then the rest padded to 8 (or,
/// below [`MIN_BLOCKS`], with the `soft` code).
#[inline]
#[target_feature(enable = "neon")]
fn run_blocks(k: &Keys, words: &[u16; 64], mut buf: InOutBuf<'_, '_, Blk>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 4 * LANES {
        run_n::<4>(k, &mut buf, at, enc);
        at += 4 * LANES;
    }
    if n - at >= 2 * LANES {
        run_n::<2>(k, &mut buf, at, enc);
        at += 2 * LANES;
    }
    if n - at >= LANES {
        run_n::<1>(k, &mut buf, at, enc);
        at += LANES;
    }
    let rest = n - at;
    if rest > 0 && rest < MIN_BLOCKS {
        soft::crypt_blocks(words, buf.split_at(at).1, enc);
    } else if rest > 0 {
        let mut tmp = [0u8; 8 * LANES];
        for (i, b) in buf.get_in()[at..].iter().enumerate() {
            tmp[8 * i..8 * i + 8].copy_from_slice(b);
        }
        let p = tmp.as_mut_ptr();
        // SAFETY: `tmp` holds 64 bytes, read and written through the same pointer.
        unsafe { run_ptr::<1>(k, p, p, enc) };
        for (i, b) in buf.get_out()[at..].iter_mut().enumerate() {
            b.copy_from_slice(&tmp[8 * i..8 * i + 8]);
        }
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) NEON.
struct Backend<'a> {
    words: &'a [u16; 64],
    /// The broadcast key table, made by the first call of [`MIN_BLOCKS`] blocks or more:
    /// a call of a few blocks runs `soft` and never pays for it.
    keys: OnceCell<Keys>,
}

impl Backend<'_> {
    /// Any number of blocks: `soft` below [`MIN_BLOCKS`], else [`run_blocks`].
    #[inline]
    #[target_feature(enable = "neon")]
    fn run(&self, buf: InOutBuf<'_, '_, Blk>, enc: bool) {
        if buf.len() < MIN_BLOCKS {
            soft::crypt_blocks(self.words, buf, enc);
        } else {
            let keys = self.keys.get_or_init(|| broadcast(self.words));
            run_blocks(keys, self.words, buf, enc);
        }
    }
}

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U8;
}

/// 32 blocks = 4 groups of 4 `q` registers: a word update is a serial chain of ≈ 10
/// cycles on Neoverse N1 against ≈ 3 cycles of issue per group, so three to four groups
/// keep the pipes busy; 16 state registers leave the rest of the 32 `v` registers for
/// temporaries and, in the mash rounds, the 8 table registers (module docs).
impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U32;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Blk>) {
        soft::encrypt(block, self.words);
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::Neon` (the CPU has NEON).
        unsafe { self.run(blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks, true) }
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Blk>) {
        soft::decrypt(block, self.words);
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Blk>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { self.run(blocks, false) }
    }
}

/// Runs `f` with the NEON encryption backend.
#[target_feature(enable = "neon")]
pub(crate) fn encrypt(k: &[u16; 64], f: impl BlockCipherEncClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

/// Runs `f` with the NEON decryption backend.
#[target_feature(enable = "neon")]
pub(crate) fn decrypt(k: &[u16; 64], f: impl BlockCipherDecClosure<BlockSize = U8>) {
    f.call(&Backend {
        words: k,
        keys: OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft`: tail lengths around 32 blocks,
    /// misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn neon_matches_soft() {
        crate::backends::check_matches_soft("neon", 32);
    }
}
