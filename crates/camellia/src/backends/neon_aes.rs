//! Byte-sliced Camellia with NEON and the ARMv8 AES instructions (16 blocks per pass),
//! for aarch64 CPUs with the AES instructions of the Cryptography Extension (every
//! Apple core; optional on Arm's Cortex-A and Neoverse cores, present on most servers).
//!
//! The x86 `aesni_avx2` design carried to NEON: J. Kivilinna's byte-sliced Camellia
//! ("Block Ciphers: Fast Implementations on x86-64 Architecture", University of Oulu,
//! 2013; Linux `arch/x86/crypto/camellia-aesni-avx-asm_64.S`), which Kivilinna also
//! wrote for NEON with the ARMv8 Cryptography Extension in libgcrypt
//! (`cipher/camellia-simd128.h`, 2023: 16 blocks, `vaeseq_u8` for `vaesenclast`, the
//! same InvShiftRows `vqtbl1q_u8` before it).
//! The pass, transposes, P-function and FL layers are the shared generic code of
//! `bytesliced.rs` on `uint8x16_t`; this file gives the vector operations and the S-box:
//! `s(x) = Q · SubBytes(PRE · x ⊕ 0x45) ⊕ c` with
//! - each affine map two `TBL` nibble look-ups XORed (`TBL` is `pshufb` for indices
//!   0..15, and the indices here are nibbles, `AND 0x0f` and `USHR #4`, never ≥ 16),
//!   with the same tables as `aesni_avx2` (`bytesliced::PRE123_LO` …);
//! - SubBytes from `AESE` with a zero round key: AddRoundKey(0), SubBytes, ShiftRows,
//!   which is x86's `aesenclast(x, 0)` (ShiftRows, SubBytes, AddRoundKey(0)) because
//!   SubBytes works on each byte alone; so the same `INV_SHIFT_ROWS` permutation (one
//!   `TBL`) first cancels the ShiftRows, which would otherwise move lanes, that is,
//!   blocks, within a byte slice (`aese_is_aesenclast` checks it).
//!
//! Per byte slice an S-box is 12 instructions: `TBL` (InvShiftRows), `AND`, `USHR`,
//! 2 `TBL`, `EOR`, `AESE`, `AND`, `USHR`, 2 `TBL`, `EOR`.
//!
//! Tails: calls of at least the row's `blocks` (10; 12 for 192/256-bit keys) but under 16
//! go through one zero-padded pass, fewer through the `soft` code, as on x86.
//!
//! Constant time for whole passes: `AESE`, `TBL` and the vector logic take the same time
//! whatever the data. `TBL`'s indices are data, but `TBL` permutes bytes of registers
//! (here: constant tables already in registers, and the state itself for InvShiftRows
//! with a constant index); it is not a memory load, so no address depends on data.
//! Single blocks use the table-based `soft` code (see the crate's `# Security`).
//!
//! Why it pays against `soft` (an estimate: nothing aarch64 is measured here) and why
//! `blocks: 10`: the crate docs' `# Backends`, from the instruction counts of the
//! release disassembly and the Neoverse N1 timings in LLVM's scheduling model.

use core::arch::aarch64::*;

use super::bytesliced::{
    self, INV_SHIFT_ROWS, KeyBytes, LazyKeyBytes, POST1_HI, POST1_LO, POST2_HI, POST2_LO, POST3_HI,
    POST3_LO, PRE4_HI, PRE4_LO, PRE123_HI, PRE123_LO, Simd, one,
};
use crate::backends::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    array::Array,
    consts::U16,
    inout::{InOut, InOutBuf},
};

/// Proof of NEON and AES: made only by [`neon_aes`], a `#[target_feature]` function.
#[derive(Clone, Copy)]
struct NeonAes(());

/// A [`NeonAes`]; callable (safely) only from code compiled for NEON and AES.
#[inline]
#[target_feature(enable = "neon,aes")]
fn neon_aes() -> NeonAes {
    NeonAes(())
}

/// A 16-byte table in a register (the compiler hoists these out of the pass).
#[inline(always)]
fn table(t: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `t` is 16 readable bytes; `vld1q_u8` has no alignment requirement; NEON is
    // part of every aarch64 target Rust supports (and proven by a `NeonAes`).
    unsafe { vld1q_u8(t.as_ptr()) }
}

impl NeonAes {
    /// `lo[x & 15] ^ hi[x >> 4]` per byte: an affine map on bytes.
    #[inline(always)]
    fn affine(self, x: uint8x16_t, lo: &[u8; 16], hi: &[u8; 16]) -> uint8x16_t {
        let (lo, hi) = (table(lo), table(hi));
        // SAFETY: NEON, as proven by `self`.
        unsafe {
            let l = vandq_u8(x, vdupq_n_u8(0x0f));
            let h = vshrq_n_u8::<4>(x);
            veorq_u8(vqtbl1q_u8(lo, l), vqtbl1q_u8(hi, h))
        }
    }

    /// AES SubBytes on every byte of `x`, in place: `AESE` with a zero key after the
    /// InvShiftRows that cancels its ShiftRows. (A `#[target_feature]` function, not
    /// `#[inline(always)]`: `vaeseq_u8` inlines only into code compiled for AES; the
    /// compiler still inlines this one into the pass, see the crate docs' counts.)
    #[inline]
    #[target_feature(enable = "neon,aes")]
    fn sub_bytes(self, x: uint8x16_t) -> uint8x16_t {
        vaeseq_u8(vqtbl1q_u8(x, table(&INV_SHIFT_ROWS)), vdupq_n_u8(0))
    }

    /// One Camellia S-box on every byte of `x`.
    #[inline(always)]
    fn sbox(
        self,
        x: uint8x16_t,
        pre: (&[u8; 16], &[u8; 16]),
        post: (&[u8; 16], &[u8; 16]),
    ) -> uint8x16_t {
        let p = self.affine(x, pre.0, pre.1);
        // SAFETY: NEON and the AES extension, as proven by `self`.
        let s = unsafe { self.sub_bytes(p) };
        self.affine(s, post.0, post.1)
    }
}

impl Simd for NeonAes {
    type V = uint8x16_t;
    const W: usize = 16;

    #[inline(always)]
    fn store_block(self, dst: &mut Block, hi: u64, lo: u64) {
        // The lanes of a little-endian `u64x2` in byte order: `hi` big-endian first (the
        // AArch64 targets built here are little-endian).
        // SAFETY: 16 writable bytes; `vst1q_u8` has no alignment requirement; NEON as
        // proven by `self`.
        unsafe {
            let v = vcombine_u64(vcreate_u64(hi.swap_bytes()), vcreate_u64(lo.swap_bytes()));
            vst1q_u8(dst.as_mut_ptr(), vreinterpretq_u8_u64(v))
        }
    }

    #[inline(always)]
    fn load(self, src: &[u8]) -> uint8x16_t {
        assert!(src.len() >= 16);
        // SAFETY: 16 readable bytes; `vld1q_u8` has no alignment requirement.
        unsafe { vld1q_u8(src.as_ptr()) }
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8], v: uint8x16_t) {
        assert!(dst.len() >= 16);
        // SAFETY: 16 writable bytes; `vst1q_u8` has no alignment requirement.
        unsafe { vst1q_u8(dst.as_mut_ptr(), v) }
    }

    #[inline(always)]
    fn splat(self, rep: &u32) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { vreinterpretq_u8_u32(vdupq_n_u32(*rep)) }
    }

    /// A 16-byte load of the half of `k` that holds byte `j` and a `DUP` (element) of its
    /// lane: the compiler merges the loads of one subkey into one `LDP`, where `LD1R` per
    /// byte (`splat`) would need an address register each (it has no offset form), one
    /// more `SUB` per byte.
    #[inline(always)]
    fn key_byte(self, k: &KeyBytes, j: usize) -> uint8x16_t {
        let half = &k[j & 4..(j & 4) + 4];
        // SAFETY: NEON, as proven by `self`; `half` is 4 readable `u32`s.
        unsafe {
            let v = vld1q_u32(half.as_ptr());
            vreinterpretq_u8_u32(match j & 3 {
                0 => vdupq_laneq_u32::<0>(v),
                1 => vdupq_laneq_u32::<1>(v),
                2 => vdupq_laneq_u32::<2>(v),
                _ => vdupq_laneq_u32::<3>(v),
            })
        }
    }

    #[inline(always)]
    fn xor(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { veorq_u8(a, b) }
    }

    /// Two `EOR`s: `EOR3` needs the SHA3 extension, which this row does not ask for.
    #[inline(always)]
    fn xor3(self, a: uint8x16_t, b: uint8x16_t, c: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { veorq_u8(veorq_u8(a, b), c) }
    }

    #[inline(always)]
    fn and(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { vandq_u8(a, b) }
    }

    #[inline(always)]
    fn or(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { vorrq_u8(a, b) }
    }

    /// `SHL #1` then `SRI #7` (shift right and insert: keeps the top 7 bits of `hi << 1`).
    #[inline(always)]
    fn rotl1_pair(self, hi: uint8x16_t, lo: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { vsriq_n_u8::<7>(vshlq_n_u8::<1>(hi), lo) }
    }

    /// `ZIP1` is `punpcklbw`.
    #[inline(always)]
    fn unpacklo8(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { vzip1q_u8(a, b) }
    }

    /// `ZIP2` is `punpckhbw`.
    #[inline(always)]
    fn unpackhi8(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON, as proven by `self`.
        unsafe { vzip2q_u8(a, b) }
    }

    #[inline(always)]
    fn sboxes(self, x: [uint8x16_t; 8]) -> [uint8x16_t; 8] {
        let p123 = (&PRE123_LO, &PRE123_HI);
        let p4 = (&PRE4_LO, &PRE4_HI);
        let (q1, q2, q3) = (
            (&POST1_LO, &POST1_HI),
            (&POST2_LO, &POST2_HI),
            (&POST3_LO, &POST3_HI),
        );
        [
            self.sbox(x[0], p123, q1),
            self.sbox(x[1], p123, q2),
            self.sbox(x[2], p123, q3),
            self.sbox(x[3], p4, q1),
            self.sbox(x[4], p123, q2),
            self.sbox(x[5], p123, q3),
            self.sbox(x[6], p4, q1),
            self.sbox(x[7], p123, q1),
        ]
    }
}

/// Any number of blocks, 16 per pass; see the module docs for the rest.
#[inline]
#[target_feature(enable = "neon,aes")]
fn run_blocks<const RK: usize>(
    k: &[u64; RK],
    kb: &LazyKeyBytes<'_, RK>,
    dec: bool,
    mut buf: InOutBuf<'_, '_, Block>,
) {
    let s = neon_aes();
    let n = buf.len();
    let mut at = 0;
    while n - at >= 16 {
        let y = bytesliced::pass(
            s,
            kb.get(),
            Array::slice_as_flattened(&buf.get_in()[at..at + 16]),
        );
        bytesliced::store(
            s,
            Array::slice_as_flattened_mut(&mut buf.get_out()[at..at + 16]),
            y,
        );
        at += 16;
    }
    let rest = n - at;
    if rest >= super::min_pass::<RK>(super::token::NeonAes::MIN_BLOCKS) {
        let mut tmp = [0u8; 16 * 16];
        tmp[..16 * rest].copy_from_slice(Array::slice_as_flattened(&buf.get_in()[at..]));
        let y = bytesliced::pass(s, kb.get(), &tmp);
        bytesliced::store(s, &mut tmp, y);
        Array::slice_as_flattened_mut(&mut buf.get_out()[at..]).copy_from_slice(&tmp[..16 * rest]);
    } else {
        bytesliced::short_rest(s, k, dec, buf.split_at(at).1);
    }
}

/// The block-cipher backend handed to `cipher`'s closures; only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) NEON and AES.
struct Backend<'a, const RK: usize> {
    /// The proof of the CPU features (for single blocks' stores).
    s: NeonAes,
    k: &'a [u64; RK],
    kb: LazyKeyBytes<'a, RK>,
    dec: bool,
}

impl<const RK: usize> BlockSizeUser for Backend<'_, RK> {
    type BlockSize = U16;
}

/// 16 blocks: a pass is 16 byte slices of 16 lanes, 16 of the 32 NEON registers. The
/// S-box layer needs 13 constants (zero key, `0x0f` mask, InvShiftRows, 10 nibble tables)
/// and the F-function 8 outputs plus 2–3 temporaries: 16 + 13 + 11 = 40 > 32, so a few
/// tables are reloaded from L1 even at this width. Two passes interleaved (32 blocks)
/// would need 32 registers of state alone and spill the state itself; one 16-lane pass
/// already has 8 independent S-box chains per F-function to fill the pipelines.
impl<const RK: usize> ParBlocksSizeUser for Backend<'_, RK> {
    type ParBlocksSize = U16;
}

impl<const RK: usize> BlockCipherEncBackend for Backend<'_, RK> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.s, self.k, false, block)
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called
        // only with a `token::NeonAes` (NEON and the AES extension).
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks.into_buf()) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks) }
    }
}

impl<const RK: usize> BlockCipherDecBackend for Backend<'_, RK> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        one(self.s, self.k, true, block)
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks.into_buf()) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_par_blocks`.
        unsafe { run_blocks(self.k, &self.kb, self.dec, blocks) }
    }
}

/// Runs `f` with the NEON/AES encryption backend.
#[target_feature(enable = "neon,aes")]
pub(crate) fn encrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: neon_aes(),
        k,
        kb: LazyKeyBytes::new(k, false),
        dec: false,
    })
}

/// Runs `f` with the NEON/AES decryption backend.
#[target_feature(enable = "neon,aes")]
pub(crate) fn decrypt<const RK: usize>(
    k: &[u64; RK],
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend {
        s: neon_aes(),
        k,
        kb: LazyKeyBytes::new(k, true),
        dec: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::bytesliced::tests::sub_bytes;

    /// FIPS-197 §5.1.2 ShiftRows as a byte permutation: output byte `i` is input byte
    /// `SHIFT_ROWS[i]` (column-major state).
    const SHIFT_ROWS: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];

    /// `AESE(x, 0)` is x86's `aesenclast(x, 0)` = SubBytes(ShiftRows(x)), and after the
    /// `INV_SHIFT_ROWS` `TBL` it is SubBytes alone, lane by lane: the fix-up the x86
    /// backend uses holds for `AESE` too.
    #[test]
    fn aese_is_aesenclast() {
        if !testkit::available("neon_aes", crate::__backends::available("neon_aes")) {
            return;
        }
        #[target_feature(enable = "neon,aes")]
        fn check() {
            let s = neon_aes();
            let mut x = [0u8; 16];
            for v in 0..=255u8 {
                for (i, b) in x.iter_mut().enumerate() {
                    // Every byte value in every lane over the 256 vectors.
                    *b = v.wrapping_add(37u8.wrapping_mul(i as u8));
                }
                let v = table(&x);
                let mut raw = [0u8; 16];
                let mut fixed = [0u8; 16];
                s.store(&mut raw, vaeseq_u8(v, vdupq_n_u8(0)));
                s.store(&mut fixed, s.sub_bytes(v));
                for i in 0..16 {
                    assert_eq!(raw[i], sub_bytes(x[SHIFT_ROWS[i]]), "AESE lane {i}");
                    assert_eq!(fixed[i], sub_bytes(x[i]), "fixed-up lane {i}");
                }
            }
        }
        // SAFETY: `available` checked NEON and AES just above.
        unsafe { check() }
    }

    #[test]
    fn neon_aes_matches_soft() {
        crate::check_matches_soft("neon_aes", 16);
    }
}
