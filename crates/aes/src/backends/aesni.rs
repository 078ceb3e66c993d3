//! AES-NI on `xmm` registers: 8 blocks in flight, `aesenclast`-based key expansion.
//!
//! Also the x86 key expansion into the key layout shared with `armv8` ([`HwKeys`]: the
//! FIPS-197 round keys as 16-byte blocks and the `aesimc`-transformed decryption keys of
//! the Equivalent Inverse Cipher) and the narrow paths the VAES backends hand their tails
//! to.
//!
//! Constant time: the AES instructions take the same time whatever the data and key.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::HwKeys;
use crate::Block;
use cipher::{
    BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherEncBackend, BlockCipherEncClosure,
    BlockSizeUser, ParBlocks, ParBlocksSizeUser,
    consts::{U8, U16},
    inout::{InOut, InOutBuf},
};
use simdcrypt_dispatch::modes::CbcEncrypt;

#[inline(always)]
fn load(b: &[u8; 16]) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[inline(always)]
fn store(b: &mut [u8; 16], x: __m128i) {
    // SAFETY: `b` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), x) }
}

/// `k ⊕ (k << 32) ⊕ (k << 64) ⊕ (k << 96)`: the running XOR of the previous round key's
/// words that each FIPS-197 key-expansion step needs.
#[inline]
#[target_feature(enable = "aes,ssse3")]
fn prefix_xor(k: __m128i) -> __m128i {
    let k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
    let k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
    _mm_xor_si128(k, _mm_slli_si128::<4>(k))
}

/// `SubWord(RotWord(w3)) ⊕ rcon` in every column (`rot`) or `SubWord(w3)` (`!rot`), w3 the
/// last word of `k`: with all four columns equal, ShiftRows is the identity, so
/// `aesenclast` is SubBytes plus the XOR with `rcon` (Gueron's trick, faster than
/// `aeskeygenassist` on recent cores).
#[inline]
#[target_feature(enable = "aes,ssse3")]
fn sub_last_word(k: __m128i, rcon: i32, rot: bool) -> __m128i {
    let idx = if rot {
        // RotWord: bytes 13, 14, 15, 12 in each column.
        _mm_set1_epi32(0x0c0f_0e0d)
    } else {
        _mm_set1_epi32(0x0f0e_0d0c)
    };
    _mm_aesenclast_si128(_mm_shuffle_epi8(k, idx), _mm_set1_epi32(rcon))
}

/// FIPS-197 key expansion (`key`: 16, 24 or 32 bytes for `R` = 11, 13, 15) and the
/// decryption keys.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn expand<const R: usize>(key: &[u8]) -> HwKeys<R> {
    let mut enc = [[0u8; 16]; R];
    match R {
        11 => {
            let mut k = load(key.try_into().expect("16-byte key"));
            store(&mut enc[0], k);
            let mut rcon = 1;
            for rk in enc.iter_mut().skip(1) {
                k = _mm_xor_si128(prefix_xor(k), sub_last_word(k, rcon, true));
                store(rk, k);
                rcon = (rcon << 1) ^ if rcon & 0x80 != 0 { 0x11b } else { 0 };
            }
        }
        15 => {
            let mut a = load(key[..16].try_into().expect("16 bytes"));
            let mut b = load(key[16..32].try_into().expect("16 bytes"));
            store(&mut enc[0], a);
            store(&mut enc[1], b);
            let mut rcon = 1;
            let mut i = 2;
            while i < R {
                a = _mm_xor_si128(prefix_xor(a), sub_last_word(b, rcon, true));
                store(&mut enc[i], a);
                rcon <<= 1;
                if i + 1 < R {
                    b = _mm_xor_si128(prefix_xor(b), sub_last_word(a, 0, false));
                    store(&mut enc[i + 1], b);
                }
                i += 2;
            }
        }
        _ => {
            // AES-192: word by word (6-word period, not a multiple of 4).
            let mut w = [0u32; 52];
            for (i, c) in key.chunks_exact(4).enumerate() {
                w[i] = u32::from_le_bytes(c.try_into().expect("4 bytes"));
            }
            let mut rcon = 1u32;
            for i in 6..4 * R {
                let mut t = w[i - 1];
                if i % 6 == 0 {
                    let x = _mm_set1_epi32(t as i32);
                    let s = _mm_cvtsi128_si32(_mm_aesenclast_si128(x, _mm_setzero_si128())) as u32;
                    t = s.rotate_right(8) ^ rcon;
                    rcon <<= 1;
                }
                w[i] = w[i - 6] ^ t;
            }
            for (r, rk) in enc.iter_mut().enumerate() {
                for j in 0..4 {
                    rk[4 * j..4 * j + 4].copy_from_slice(&w[4 * r + j].to_le_bytes());
                }
            }
            #[cfg(feature = "zeroize")]
            zeroize::Zeroize::zeroize(&mut w);
        }
    }
    let mut keys = HwKeys {
        enc,
        dec: [[0u8; 16]; R],
    };
    inv_keys(&mut keys);
    keys
}

/// Fills `keys.dec` from `keys.enc`.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn inv_keys<const R: usize>(keys: &mut HwKeys<R>) {
    keys.dec[0] = keys.enc[R - 1];
    keys.dec[R - 1] = keys.enc[0];
    for i in 1..R - 1 {
        store(
            &mut keys.dec[i],
            _mm_aesimc_si128(load(&keys.enc[R - 1 - i])),
        );
    }
}

/// Round keys as the cipher stores them. The rounds read them in place (`aesenc`'s
/// memory operand, or a register the compiler loads once per loop), so a call copies no
/// key material: copying 11–15 keys to the stack and back cost a one-block call 20 of
/// its 60 cycles on Zen 3 (issue 18).
pub(crate) type Rk<const R: usize> = [[u8; 16]; R];

/// Round key `i` of `k`.
#[inline(always)]
pub(crate) fn key<const R: usize>(k: &Rk<R>, i: usize) -> __m128i {
    load(&k[i])
}

/// Encrypts `N` independent blocks (their rounds interleaved).
#[inline]
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn enc_n<const N: usize, const R: usize>(
    k: &Rk<R>,
    mut x: [__m128i; N],
) -> [__m128i; N] {
    for b in x.iter_mut() {
        *b = _mm_xor_si128(*b, key(k, 0));
    }
    for i in 1..R - 1 {
        let rk = key(k, i);
        for b in x.iter_mut() {
            *b = _mm_aesenc_si128(*b, rk);
        }
    }
    for b in x.iter_mut() {
        *b = _mm_aesenclast_si128(*b, key(k, R - 1));
    }
    x
}

/// Decrypts `N` independent blocks with the Equivalent Inverse Cipher keys.
#[inline]
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn dec_n<const N: usize, const R: usize>(
    k: &Rk<R>,
    mut x: [__m128i; N],
) -> [__m128i; N] {
    for b in x.iter_mut() {
        *b = _mm_xor_si128(*b, key(k, 0));
    }
    for i in 1..R - 1 {
        let rk = key(k, i);
        for b in x.iter_mut() {
            *b = _mm_aesdec_si128(*b, rk);
        }
    }
    for b in x.iter_mut() {
        *b = _mm_aesdeclast_si128(*b, key(k, R - 1));
    }
    x
}

/// Loads, transforms and stores `N` blocks of `buf` starting at block `at`.
#[inline]
#[target_feature(enable = "aes,ssse3")]
fn run_n<const N: usize, const R: usize>(
    k: &Rk<R>,
    buf: &mut InOutBuf<'_, '_, Block>,
    at: usize,
    enc: bool,
) {
    let x: [__m128i; N] = {
        let inp = &buf.get_in()[at..at + N];
        core::array::from_fn(|j| load(inp[j].as_ref()))
    };
    let y = if enc { enc_n(k, x) } else { dec_n(k, x) };
    let out = &mut buf.get_out()[at..at + N];
    for (o, v) in out.iter_mut().zip(y) {
        store(o.as_mut(), v);
    }
}

/// One block.
#[inline]
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn run_one<const R: usize>(k: &Rk<R>, mut block: InOut<'_, '_, Block>, enc: bool) {
    let x = [load(block.get_in().as_ref())];
    let [y] = if enc { enc_n(k, x) } else { dec_n(k, x) };
    store(block.get_out().as_mut(), y);
}

/// Any number of blocks with this backend's widths: 8, then 4, 2, 1.
#[inline]
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn run_blocks<const R: usize>(k: &Rk<R>, mut buf: InOutBuf<'_, '_, Block>, enc: bool) {
    let n = buf.len();
    let mut at = 0;
    while n - at >= 8 {
        run_n::<8, R>(k, &mut buf, at, enc);
        at += 8;
    }
    if n - at >= 4 {
        run_n::<4, R>(k, &mut buf, at, enc);
        at += 4;
    }
    if n - at >= 2 {
        run_n::<2, R>(k, &mut buf, at, enc);
        at += 2;
    }
    if n - at >= 1 {
        run_n::<1, R>(k, &mut buf, at, enc);
    }
}

/// The block-cipher backend handed to `cipher`'s closures. Only [`encrypt`] and
/// [`decrypt`] make one, inside code compiled for (and only run with) AES-NI and SSSE3.
struct Backend<'k, const R: usize> {
    k: &'k Rk<R>,
}

impl<const R: usize> BlockSizeUser for Backend<'_, R> {
    type BlockSize = U16;
}

/// 8 blocks: `aesenc` has a latency of 3–4 cycles and issues 1–2 per cycle, so 6–8
/// independent blocks keep the AES units busy; 8 state registers leave 8 of the 16 `xmm`
/// registers for round keys and loads (the other round keys come from L1 as memory
/// operands, which costs no extra µops). 16 would spill.
impl<const R: usize> ParBlocksSizeUser for Backend<'_, R> {
    type ParBlocksSize = U8;
}

impl<const R: usize> BlockCipherEncBackend for Backend<'_, R> {
    #[inline(always)]
    fn encrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: a `Backend` exists only inside `encrypt`/`decrypt`, which are called only
        // with a `token::Aesni` (the CPU has AES-NI and SSSE3).
        unsafe { run_one(self.k, block, true) }
    }

    #[inline(always)]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks.into_buf(), true) }
    }

    #[inline(always)]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks, true) }
    }
}

impl<const R: usize> BlockCipherDecBackend for Backend<'_, R> {
    #[inline(always)]
    fn decrypt_block(&self, block: InOut<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_one(self.k, block, false) }
    }

    #[inline(always)]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks.into_buf(), false) }
    }

    #[inline(always)]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block>) {
        // SAFETY: as in `encrypt_block`.
        unsafe { run_blocks(self.k, blocks, false) }
    }
}

/// Rounds 1 to `R − 2` of one block: all but the first key addition and the last round.
#[inline]
#[target_feature(enable = "aes,ssse3")]
fn middle_rounds<const R: usize>(k: &Rk<R>, mut x: __m128i) -> __m128i {
    for i in 1..R - 1 {
        x = _mm_aesenc_si128(x, key(k, i));
    }
    x
}

/// CBC encryption of a whole chain (`cbc`'s request), `C_i = E(P_i ⊕ C_{i-1})`.
///
/// A chain runs at the latency of one block. The plain loop (and OpenSSL's
/// `aesni_cbc_encrypt`, which XORs `P_i ⊕ k_0` ahead) has the XORs with `C_{i-1}` and
/// `k_0` (or one of them) on the chain before the rounds. Here the chain is the rounds
/// alone: `aesenclast` ends with an XOR of its key operand, so the next block's input
/// `C_i ⊕ P_{i+1} ⊕ k_0` is `aesenclast(s, k_last ⊕ P_{i+1} ⊕ k_0)`, a key that does not
/// depend on the chain, and `C_i` itself is that input with `P_{i+1} ⊕ k_0` XORed back
/// out, beside the chain.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn cbc_encrypt<const R: usize>(keys: &HwKeys<R>, request: CbcEncrypt<'_, U16>) {
    let CbcEncrypt { iv, mut blocks } = request;
    let Some(last) = blocks.len().checked_sub(1) else {
        return;
    };
    let k = &keys.enc;
    let k0 = key(k, 0);
    let k_last = key(k, R - 1);
    let mut x = _mm_xor_si128(load(blocks.get_in()[0].as_ref()), k0);
    x = _mm_xor_si128(x, load(iv.as_ref()));
    for i in 0..last {
        let p_k0 = _mm_xor_si128(load(blocks.get_in()[i + 1].as_ref()), k0);
        let next = _mm_aesenclast_si128(middle_rounds(k, x), _mm_xor_si128(k_last, p_k0));
        store(blocks.get_out()[i].as_mut(), _mm_xor_si128(next, p_k0));
        x = next;
    }
    let c = _mm_aesenclast_si128(middle_rounds(k, x), k_last);
    store(blocks.get_out()[last].as_mut(), c);
    store(iv.as_mut(), c);
}

/// Runs `f` with the AES-NI encryption backend.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn encrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherEncClosure<BlockSize = U16>,
) {
    f.call(&Backend { k: &keys.enc })
}

/// Runs `f` with the AES-NI decryption backend.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn decrypt<const R: usize>(
    keys: &HwKeys<R>,
    f: impl BlockCipherDecClosure<BlockSize = U16>,
) {
    f.call(&Backend { k: &keys.dec })
}

// Hazmat round functions: one instruction each.

#[cfg(feature = "hazmat")]
/// `AESENC` of each block with its own round key.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn cipher_round(blocks: &mut [Block], keys: &[Block]) {
    for (b, k) in blocks.iter_mut().zip(keys) {
        let x = _mm_aesenc_si128(load(b.as_ref()), load(k.as_ref()));
        store(b.as_mut(), x);
    }
}

#[cfg(feature = "hazmat")]
/// `AESDEC` of each block with its own round key.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn equiv_inv_cipher_round(blocks: &mut [Block], keys: &[Block]) {
    for (b, k) in blocks.iter_mut().zip(keys) {
        let x = _mm_aesdec_si128(load(b.as_ref()), load(k.as_ref()));
        store(b.as_mut(), x);
    }
}

#[cfg(feature = "hazmat")]
/// MixColumns: `aesdeclast` with a zero key undoes ShiftRows and SubBytes, then `aesenc`
/// with a zero key redoes them and adds MixColumns.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn mix_columns(block: &mut Block) {
    let z = _mm_setzero_si128();
    let x = _mm_aesenc_si128(_mm_aesdeclast_si128(load(block.as_ref()), z), z);
    store(block.as_mut(), x);
}

#[cfg(feature = "hazmat")]
/// InvMixColumns: `aesimc`.
#[target_feature(enable = "aes,ssse3")]
pub(crate) fn inv_mix_columns(block: &mut Block) {
    let x = _mm_aesimc_si128(load(block.as_ref()));
    store(block.as_mut(), x);
}

#[cfg(test)]
mod tests {
    /// ECB encryption and decryption against `soft` for every key size: tail lengths
    /// around 8 blocks, misaligned buffers, sentinels (`testkit::harness::block`).
    #[test]
    fn aesni_matches_soft() {
        crate::backends::check_matches_soft("aesni", 8);
    }

    /// `cbc`'s CBC-encryption request, which this backend runs in `aesni::cbc_encrypt`.
    #[test]
    fn aesni_cbc_chain_matches_soft() {
        crate::backends::check_cbc_matches_soft("aesni", 8);
    }
}
