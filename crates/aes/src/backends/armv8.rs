//! The ARMv8 Cryptography Extensions on NEON registers: `AESE`/`AESMC` to encrypt,
//! `AESD`/`AESIMC` to decrypt, 8 blocks in flight.
//!
//! `AESE` is AddRoundKey, then SubBytes and ShiftRows (x86's `aesenc` adds the key last),
//! `AESMC` is MixColumns. An AES-128 encryption is therefore `AESE K_0, AESMC, …, AESE
//! K_8, AESMC, AESE K_9, EOR K_10`: the round keys are the FIPS-197 ones, in the layout
//! the x86 backends use ([`HwKeys`]). Decryption is the mirror image with `AESD`/`AESIMC`
//! and the Equivalent Inverse Cipher keys of the same layout.
//!
//! Why 8 blocks: a block's rounds form one dependent chain, so the AES units stay busy
//! only with (latency × issue rate) independent blocks. Arm's Software Optimization
//! Guides, as LLVM's scheduling models encode them (`AArch64SchedNeoverseN1.td`,
//! `AArch64SchedNeoverseV1.td`): `AESE`/`AESD` have a latency of 2 cycles, on pipeline V0
//! only on Neoverse N1 and on any of the four V pipelines on Neoverse V1, and an `AESMC`/
//! `AESIMC` that directly follows on the same register reads the result with no further
//! latency (the pair is fused), so a round costs 2 cycles. The Cortex-A57/A72 guides give
//! 3 cycles and one per cycle; these cores and Apple's fuse the pairs too. That asks for
//! 2 (N1) to 8 (V1: 2 cycles × 4 pipelines) blocks in flight: 8 keeps a V1-class core
//! full and costs the narrower ones nothing. The register budget allows it: 8 states
//! plus all 11–15 round keys are 19–23 of the 32 NEON registers, so the keys are loaded
//! once per call, not once per round. The code keeps every `AESMC` right after its
//! `AESE` (the compiler keeps fusible pairs together; checked in the disassembly).
//!
//! Calls of fewer blocks take the narrower paths (4, 2, 1 blocks), never a padded batch
//! of 8.
//!
//! Constant time: the AES instructions take the same time whatever the data and key; the
//! key expansion uses `AESE` for SubWord, no table.
//!
//! Instructions, counted in the disassembly (no aarch64 speed is claimed: the only
//! aarch64 this was run on is qemu). AES-128 `encrypt_blocks`, release build for
//! `aarch64-unknown-linux-gnu`, `aarch64-linux-gnu-objdump -d`: the loop over 8-block
//! batches is 172 instructions, 21.5 per block — 4 `ldp` and 4 `stp` (the blocks, two
//! per instruction), 80 `aese`, 72 `aesmc`, 8 `eor` (the last round key), 4 of loop
//! control — with the 11 round keys loaded into registers before the loop. RustCrypto's
//! `aes` 0.9.4, built the same way in the same binary, runs the same 172 (decryption:
//! 172 against 172, with `aesd`/`aesimc`). That is the floor of this instruction set:
//! 20 AES-round and XOR instructions per block plus a load and a store.
//!
//! Both rely on the compiler inlining the batch into `cipher`'s loop: [`run_par`] is the
//! only caller of `crypt_n::<8, …>`, so it is. In a program where several closure types
//! (ECB, CTR, CBC, …) call the batch, both crates' batch function is called out of line
//! instead and reloads the round keys per batch of 8.

use core::arch::aarch64::*;

use super::HwKeys;
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U16},
    inout::{InOut, InOutBuf},
};
use simdcrypt_dispatch::modes::CbcEncrypt;

#[inline]
#[target_feature(enable = "neon")]
fn load(b: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `b` is 16 readable bytes; `vld1q_u8` has no alignment requirement.
    unsafe { vld1q_u8(b.as_ptr()) }
}

#[inline]
#[target_feature(enable = "neon")]
fn store(b: &mut [u8; 16], x: uint8x16_t) {
    // SAFETY: `b` is 16 writable bytes; `vst1q_u8` has no alignment requirement.
    unsafe { vst1q_u8(b.as_mut_ptr(), x) }
}

/// `SubWord(w)`: with `w` in all four columns ShiftRows moves only equal bytes, so `AESE`
/// with a zero key is SubBytes alone (Rijndael's S-box without a table).
#[inline]
#[target_feature(enable = "aes")]
fn sub_word(w: u32) -> u32 {
    let x = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(x))
}

/// FIPS-197 key expansion (`key`: 16, 24 or 32 bytes for `R` = 11, 13, 15) and the
/// decryption keys.
#[target_feature(enable = "aes")]
pub(crate) fn expand<const R: usize>(key: &[u8]) -> HwKeys<R> {
    let nk = key.len() / 4;
    debug_assert!(key.len() % 4 == 0 && nk + 7 == R);
    // FIPS-197 words, little-endian: byte 0 of a word is its low byte.
    let mut w = [0u32; 60];
    for (i, c) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_le_bytes(c.try_into().expect("4 bytes"));
    }
    let mut rcon = 1u32;
    for i in nk..4 * R {
        let mut t = w[i - 1];
        if i % nk == 0 {
            // SubWord(RotWord(t)): the S-box is bytewise, so rotating after is the same.
            t = sub_word(t).rotate_right(8) ^ rcon;
            rcon = (rcon << 1) ^ if rcon & 0x80 != 0 { 0x11b } else { 0 };
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    let mut enc = [[0u8; 16]; R];
    for (r, rk) in enc.iter_mut().enumerate() {
        for j in 0..4 {
            rk[4 * j..4 * j + 4].copy_from_slice(&w[4 * r + j].to_le_bytes());
        }
    }
    #[cfg(feature = "zeroize")]
    zeroize::Zeroize::zeroize(&mut w);
    // The Equivalent Inverse Cipher: the keys reversed, the inner ones InvMixColumns'd.
    let mut dec = [[0u8; 16]; R];
    dec[0] = enc[R - 1];
    dec[R - 1] = enc[0];
    for i in 1..R - 1 {
        store(&mut dec[i], vaesimcq_u8(load(&enc[R - 1 - i])));
    }
    HwKeys { enc, dec }
}

/// Round keys as the cipher stores them (`HwKeys::enc` or `HwKeys::dec`).
type Rk<const R: usize> = [[u8; 16]; R];

/// A batch: the backend's `ParBlocks`.
type Par = cipher::array::Array<Block, U8>;

/// Encrypts (`ENC`) or decrypts `N` independent blocks, their rounds interleaved.
#[inline]
#[target_feature(enable = "aes")]
fn crypt_n<const N: usize, const R: usize, const ENC: bool>(
    k: &Rk<R>,
    mut x: [uint8x16_t; N],
) -> [uint8x16_t; N] {
    for rk in &k[..R - 2] {
        let rk = load(rk);
        for b in x.iter_mut() {
            // Each pair adjacent and on one register: one fused operation.
            *b = if ENC {
                vaesmcq_u8(vaeseq_u8(*b, rk))
            } else {
                vaesimcq_u8(vaesdq_u8(*b, rk))
            };
        }
    }
    let (last, post) = (load(&k[R - 2]), load(&k[R - 1]));
    for b in x.iter_mut() {
        let y = if ENC {
            vaeseq_u8(*b, last)
        } else {
            vaesdq_u8(*b, last)
        };
        *b = veorq_u8(y, post);
    }
    x
}

/// One block.
#[inline]
#[target_feature(enable = "aes")]
fn run_one<const R: usize, const ENC: bool>(k: &Rk<R>, mut block: InOut<'_, '_, Block>) {
    let [y] = crypt_n::<1, R, ENC>(k, [load(block.get_in().as_ref())]);
    store(block.get_out().as_mut(), y);
}

/// One batch of 8 blocks (`ParBlocks`). The only caller of `crypt_n::<8, …>`, which
/// lets the compiler inline it into `cipher`'s loop over the batches, where the round
/// keys then stay in registers (checked in the disassembly, see the module docs).
#[inline]
#[target_feature(enable = "aes")]
fn run_par<const R: usize, const ENC: bool>(k: &Rk<R>, mut blocks: InOut<'_, '_, Par>) {
    let x: [uint8x16_t; 8] = core::array::from_fn(|j| load(blocks.get_in()[j].as_ref()));
    let y = crypt_n::<8, R, ENC>(k, x);
    for (o, v) in blocks.get_out().iter_mut().zip(y) {
        store(o.as_mut(), v);
    }
}

/// Loads, transforms and stores `N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "aes")]
fn run_n<const N: usize, const R: usize, const ENC: bool>(
    k: &Rk<R>,
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
) {
    let x: [uint8x16_t; N] = {
        let inp = &buf.get_in()[at..at + N];
        core::array::from_fn(|j| load(inp[j].as_ref()))
    };
    let y = crypt_n::<N, R, ENC>(k, x);
    let out = &mut buf.get_out()[at..at + N];
    for (o, v) in out.iter_mut().zip(y) {
        store(o.as_mut(), v);
    }
}

/// Any number of blocks (`cipher` hands over the fewer than 8 at the end of a call): 4
/// at a time, then 2, 1 — never a padded batch.
#[inline]
#[target_feature(enable = "aes")]
fn run_blocks<const R: usize, const ENC: bool>(k: &Rk<R>, mut buf: InOutBuf<'_, '_, Block>) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 4 {
        run_n::<4, R, ENC>(k, &mut buf, at);
        at += 4;
    }
    if n - at >= 2 {
        run_n::<2, R, ENC>(k, &mut buf, at);
        at += 2;
    }
    if n - at >= 1 {
        run_n::<1, R, ENC>(k, &mut buf, at);
    }
}

/// The block-cipher backend handed to `cipher`'s closures. Only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) the AES extension.
struct Backend<'k, const R: usize> {
    k: &'k Rk<R>,
}

impl<const R: usize> BlockSizeUser for Backend<'_, R> {
    type BlockSize = U16;
}

/// 8 blocks: the latency × throughput argument of the module docs; 8 states and up to 15
/// round keys fit the 32 NEON registers together (16 states would leave one register
/// beside AES-256's keys, and none of the cores above needs more than 8).
impl<const R: usize> ParBlocksSizeUser for Backend<'_, R> {
    type ParBlocksSize = U8;
}

impl<const R: usize> BlockCipherEncBackend for Backend<'_, R> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Armv8` (the CPU has the AES extension and NEON).
        unsafe { run_one::<R, true>(self.k, block) }
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_par::<R, true>(self.k, blocks) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks::<R, true>(self.k, blocks) }
    }
}

impl<const R: usize> BlockCipherDecBackend for Backend<'_, R> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_one::<R, false>(self.k, block) }
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_par::<R, false>(self.k, blocks) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks::<R, false>(self.k, blocks) }
    }
}

/// CBC encryption of a whole chain (`cbc`'s request), `C_i = E(P_i ⊕ C_{i-1})`.
///
/// A chain runs at the latency of one block, and the plain loop has two `EOR`s on it:
/// `P_i ⊕ C_{i-1}` before the rounds and the last round key after them. Here the chain is
/// the fused `AESE`/`AESMC` pairs alone, as `aesni::cbc_encrypt` does it with
/// `aesenclast`: `AESE` begins with an XOR of its two operands, so the first round of
/// block `i` is `AESE(t_{i-1}, P_i ⊕ K_0 ⊕ K_last)`, where `t_{i-1}` is block `i-1`'s
/// state before its closing XOR (`C_{i-1} = t_{i-1} ⊕ K_last`, stored beside the chain)
/// and the key operand does not depend on the chain. On Neoverse N1 (`EOR` 2 cycles, a
/// fused pair 2; LLVM's scheduling model, see the module docs) that is 20 cycles a block
/// for AES-128 instead of at least 24; not measured, no aarch64 machine was at hand.
#[target_feature(enable = "aes")]
pub(crate) fn cbc_encrypt<const R: usize>(keys: &HwKeys<R>, request: CbcEncrypt<'_, U16>) {
    let CbcEncrypt { iv, mut blocks } = request;
    let k: [uint8x16_t; R] = core::array::from_fn(|i| load(&keys.enc[i]));
    let link = veorq_u8(k[0], k[R - 1]);
    let mut t = veorq_u8(load(iv.as_ref()), k[R - 1]);
    let block = |t: uint8x16_t, p: uint8x16_t| {
        let mut s = vaesmcq_u8(vaeseq_u8(t, veorq_u8(p, link)));
        for rk in &k[1..R - 2] {
            s = vaesmcq_u8(vaeseq_u8(s, *rk));
        }
        vaeseq_u8(s, k[R - 2])
    };
    // Two blocks an iteration: with one, LLVM makes the key operand `AESE`'s destination
    // and copies the chain value back at the end of each iteration, a vector `mov` on the
    // chain; with two, the chain stays in one register (checked in the disassembly).
    let n = blocks.len();
    let mut i = 0;
    while i + 2 <= n {
        let a = block(t, load(blocks.get_in()[i].as_ref()));
        store(blocks.get_out()[i].as_mut(), veorq_u8(a, k[R - 1]));
        t = block(a, load(blocks.get_in()[i + 1].as_ref()));
        store(blocks.get_out()[i + 1].as_mut(), veorq_u8(t, k[R - 1]));
        i += 2;
    }
    if i < n {
        t = block(t, load(blocks.get_in()[i].as_ref()));
        store(blocks.get_out()[i].as_mut(), veorq_u8(t, k[R - 1]));
    }
    store(iv.as_mut(), veorq_u8(t, k[R - 1]));
}

/// Runs `f` with the ARMv8 encryption backend.
#[target_feature(enable = "aes")]
pub(crate) fn encrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend { k: &keys.enc })
}

/// Runs `f` with the ARMv8 decryption backend.
#[target_feature(enable = "aes")]
pub(crate) fn decrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend { k: &keys.dec })
}

// Hazmat round functions. x86's `aesenc` (which they are defined by) adds the round key
// last; `AESE` adds it first, so they run `AESE` with a zero key and add the key after.

#[cfg(feature = "hazmat")]
/// `AESENC` of each block with its own round key: MixColumns(ShiftRows(SubBytes(b))) ⊕ k.
#[target_feature(enable = "aes")]
pub(crate) fn cipher_round(blocks: &mut [Block], keys: &[Block]) {
    let zero = vdupq_n_u8(0);
    for (b, k) in blocks.iter_mut().zip(keys) {
        let x = vaesmcq_u8(vaeseq_u8(load(b.as_ref()), zero));
        store(b.as_mut(), veorq_u8(x, load(k.as_ref())));
    }
}

#[cfg(feature = "hazmat")]
/// `AESDEC` of each block with its own round key:
/// InvMixColumns(InvSubBytes(InvShiftRows(b))) ⊕ k.
#[target_feature(enable = "aes")]
pub(crate) fn equiv_inv_cipher_round(blocks: &mut [Block], keys: &[Block]) {
    let zero = vdupq_n_u8(0);
    for (b, k) in blocks.iter_mut().zip(keys) {
        let x = vaesimcq_u8(vaesdq_u8(load(b.as_ref()), zero));
        store(b.as_mut(), veorq_u8(x, load(k.as_ref())));
    }
}

#[cfg(feature = "hazmat")]
/// MixColumns: `AESMC`.
#[target_feature(enable = "aes")]
pub(crate) fn mix_columns(block: &mut Block) {
    let x = vaesmcq_u8(load(block.as_ref()));
    store(block.as_mut(), x);
}

#[cfg(feature = "hazmat")]
/// InvMixColumns: `AESIMC`.
#[target_feature(enable = "aes")]
pub(crate) fn inv_mix_columns(block: &mut Block) {
    let x = vaesimcq_u8(load(block.as_ref()));
    store(block.as_mut(), x);
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key size: tail lengths
    /// around 8 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn armv8_matches_soft() {
        crate::backends::check_matches_soft("armv8", 8);
    }

    /// `cbc`'s CBC-encryption request, which this backend runs in `armv8::cbc_encrypt`.
    #[test]
    fn armv8_cbc_chain_matches_soft() {
        crate::backends::check_cbc_matches_soft("armv8", 8);
    }
}
