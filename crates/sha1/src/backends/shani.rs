//! SHA-1 compression with the Intel SHA extensions (SHA-NI) and SSE4.1.
//!
//! The rounds follow Intel's reference structure (S. Gulley et al., "Intel SHA
//! Extensions", Intel white paper 2013; the same sequence is Linux's
//! `arch/x86/crypto/sha1_ni_asm.S`): `ABCD` lives in one `xmm` register with `A` in
//! the top lane, `sha1rnds4` does four rounds, and `sha1nexte` derives the fifth word
//! `E` of the next four rounds (`rotl(A, 30)` of the state four rounds back) and adds it
//! to the next four message words. The 20 `sha1rnds4` form one dependent chain, so a
//! block costs at least 20 times their latency.
//!
//! What differs from the reference is the message schedule. On the test host (see the
//! crate docs) `sha1rnds4` has a latency of 4 cycles and a reciprocal throughput of 3;
//! `sha1msg2` (latency 5, reciprocal throughput 4) and to a lesser degree `sha1msg1`
//! and `sha1nexte` compete with it for the same execution unit, while plain vector
//! instructions do not slow the `sha1rnds4` chain at all (measured with dependent
//! chains of each). Only the first four schedule groups (`W[16..32]`) use
//! `sha1msg1`/`sha1msg2`; the other twelve (`W[32..80]`) use the equivalent recurrence
//!
//! ```text
//! W[t] = rotl(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32], 2)      (t >= 32)
//! ```
//!
//! (M. Locktyukhin, "Improving the Performance of the Secure Hash Algorithm (SHA-1)",
//! Intel 2010; it follows from applying the FIPS recurrence to itself), whose four
//! words of a group depend only on earlier groups, so plain SSE does it: one
//! `palignr`, three `pxor` and a rotate by shifts. Measured at 8 KiB: ≈1.27 TSC
//! cycles per byte against ≈1.44 for the reference sequence (RustCrypto's `sha1`
//! 0.11.0), and ≈1.23 with the software pipelining described at [`compress`]. (With
//! AVX-512VL, `vprold` and `vpternlogd` would save a few more instructions per group,
//! ≈1.15; that needs a backend with its own CPU requirements and is not done here.)
//!
//! Vector lane order: a group `w[g]` holds `W[4g]` in lane 3 (the top) down to
//! `W[4g+3]` in lane 0, as `sha1rnds4` wants it.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// `rotl(x, 2)` in every lane (SSE2 has no rotate).
macro_rules! rotl2 {
    ($x:expr) => {{
        let x = $x;
        _mm_or_si128(_mm_slli_epi32::<2>(x), _mm_srli_epi32::<30>(x))
    }};
}

/// Message group `g` by the FIPS recurrence `W[t] = rotl(W[t-3] ^ W[t-8] ^ W[t-14] ^
/// W[t-16], 1)` with `sha1msg1`/`sha1msg2`: it needs groups `g-4..g` of `w`.
macro_rules! fips {
    ($w:expr, $g:expr) => {{
        let (w, g) = (&$w, $g);
        let x = _mm_sha1msg1_epu32(w[g - 4], w[g - 3]);
        _mm_sha1msg2_epu32(_mm_xor_si128(x, w[g - 2]), w[g - 1])
    }};
}

/// The four 16-byte loads of `block`.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn load(block: &[u8; 64]) -> [__m128i; 4] {
    let p: *const __m128i = block.as_ptr().cast();
    // SAFETY: `block` is 64 bytes, read as four unaligned 16-byte loads.
    unsafe {
        [
            _mm_loadu_si128(p),
            _mm_loadu_si128(p.add(1)),
            _mm_loadu_si128(p.add(2)),
            _mm_loadu_si128(p.add(3)),
        ]
    }
}

/// The first eight message groups of a block given as its four 16-byte pieces `raw`
/// (`W[0..32]`): the byte-swapped block and, unless `lazy`, four groups of the FIPS
/// recurrence by `sha1msg1`/`sha1msg2` (`lazy`: zeros, for [`absorb`] to fill in between
/// the rounds of a lone block).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn head(raw: [__m128i; 4], lazy: bool) -> [__m128i; 8] {
    // Reverses the 16 bytes: big-endian words, `W[4g]` in the top lane.
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F);
    let mut w = [_mm_setzero_si128(); 8];
    for (w, raw) in w.iter_mut().zip(raw) {
        *w = _mm_shuffle_epi8(raw, bswap);
    }
    if !lazy {
        for g in 4..8 {
            w[g] = fips!(w, g);
        }
    }
    w
}

/// Absorbs `blocks` into `state`.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    absorb(state, blocks.len(), |i| load(&blocks[i]));
}

/// Absorbs the end of a message into `state`: `data`, the bytes after its last whole
/// block (fewer than 64), then the padding (`0x80`, zeros and the big-endian 64-bit
/// `bit_len`), one block or two, built in registers.
///
/// `data` is read with loads that stay inside it: whole 16-byte pieces, and the piece
/// `data` ends in from the 16 bytes ending at its end, shifted by `pshufb` (from 64-bit
/// and byte loads when `data` is shorter than 16 bytes). The padding never goes through
/// memory. `block-buffer`'s padding, which RustCrypto's `sha1` uses, stores `0x80`,
/// the zeros and the length into the buffer in pieces of 1 to 32 bytes, and the 16-byte
/// loads of the block then span several such stores: no store-to-load forwarding, and
/// each waits for the stores to reach the cache (Intel Xeon, a 20-line loop of one-block
/// compressions: 66 TSC cycles from a block in the cache, 82 just after its padding
/// was stored).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn finalize(state: &mut [u32; 5], data: &[u8], bit_len: u64) {
    let len = data.len();
    assert!(len < 64, "sha1: more than a block left to finalize");
    let at = |i: usize| -> __m128i {
        debug_assert!(i + 16 <= len);
        // SAFETY: bytes `i..i + 16` are inside `data` (checked by the callers below).
        unsafe { _mm_loadu_si128(data.as_ptr().add(i).cast()) }
    };
    let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // The bytes of `data` from `16 * (len / 16)` to its end, at the bottom of a vector
    // with zeros above them.
    let part = if len < 16 {
        let (words, tail) = data.as_chunks::<8>();
        let mut t = 0u64;
        for (j, &b) in tail.iter().enumerate() {
            t |= u64::from(b) << (8 * j);
        }
        match words {
            [w] => _mm_set_epi64x(t as i64, u64::from_le_bytes(*w) as i64),
            _ => _mm_set_epi64x(0, t as i64),
        }
    } else {
        // Lane `j` takes byte `j + shift` of the last 16, or 0 past the end (a `pshufb`
        // index with its top bit set).
        let shift = _mm_set1_epi8((16 - len % 16) as i8);
        let index = _mm_add_epi8(iota, shift);
        let index = _mm_or_si128(index, _mm_cmpgt_epi8(index, _mm_set1_epi8(15)));
        _mm_shuffle_epi8(at(len - 16), index)
    };
    let len8 = _mm_set1_epi8(len as i8);
    let piece = |k: usize| -> __m128i {
        let bytes = if 16 * k + 16 <= len {
            at(16 * k)
        } else if 16 * k < len {
            part
        } else {
            _mm_setzero_si128()
        };
        // 0x80 at byte `len` of the block.
        let here = _mm_add_epi8(iota, _mm_set1_epi8((16 * k) as i8));
        let mark = _mm_and_si128(_mm_cmpeq_epi8(here, len8), _mm_set1_epi8(0x80u8 as i8));
        _mm_or_si128(bytes, mark)
    };
    // The length, big-endian, in bytes 56..64.
    let length = _mm_set_epi64x(u64::from_le_bytes(bit_len.to_be_bytes()) as i64, 0);
    let mut blocks = [[piece(0), piece(1), piece(2), piece(3)], [_mm_setzero_si128(); 4]];
    let n = if len < 56 { 1 } else { 2 };
    blocks[n - 1][3] = _mm_or_si128(blocks[n - 1][3], length);
    absorb(state, n, |i| blocks[i]);
}

/// Absorbs `n` blocks into `state`; `block(i)` gives block `i` as its four 16-byte
/// pieces.
///
/// The loop is software-pipelined: while the rounds of one block run, [`head`] of
/// the next block is computed, so the slow `sha1msg2` chain is never waited for at
/// the start of a block (measured: 5% fewer cycles per byte than computing it in
/// the same iteration).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn absorb(state: &mut [u32; 5], n: usize, block: impl Fn(usize) -> [__m128i; 4]) {
    if n == 0 {
        return;
    }

    // SAFETY: `state` is 20 bytes; the unaligned load reads its first 16.
    let abcd = unsafe { _mm_loadu_si128(state.as_ptr().cast()) };
    let mut abcd = _mm_shuffle_epi32::<0x1B>(abcd);
    let mut e0 = _mm_set_epi32(state[4] as i32, 0, 0, 0);

    // One block alone: nothing to pipeline with (see `schedule!`).
    let single = n == 1;
    let mut next = head(block(0), single);
    let mut i = 1;
    loop {
        let mut w = [_mm_setzero_si128(); 20];
        w[..8].copy_from_slice(&next);
        let more = i < n;
        if more {
            next = head(block(i), false);
            i += 1;
        }

        // Message group `$g` >= 8. A run of blocks uses the recurrence
        // W[t] = rotl(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32], 2) in plain SSE (see the module
        // docs). A lone block (a short message, or the padding block) uses the FIPS
        // recurrence by `sha1msg1`/`sha1msg2` as [`head`] does: its group `g` needs only
        // groups `g-4..g`, so the schedule does not hold back the rounds of a block
        // that has no neighbour to overlap with. Zen 4, `cargo run --release -p speed
        // --bin small 64 sha1`: a 64-byte digest took 236 TSC cycles with the plain
        // recurrence, 203–222 this way (sha1 0.11.0: 219–225); 8 KiB is unchanged.
        macro_rules! schedule {
            ($g:literal) => {
                if single {
                    w[$g] = fips!(w, $g);
                } else {
                    // W[t-6..t-2] straddles groups g-2 and g-1.
                    let w6 = _mm_alignr_epi8::<8>(w[$g - 2], w[$g - 1]);
                    let x = _mm_xor_si128(_mm_xor_si128(w[$g - 4], w[$g - 7]), w[$g - 8]);
                    w[$g] = rotl2!(_mm_xor_si128(w6, x));
                }
            };
        }

        let (abcd_save, e_save) = (abcd, e0);
        let mut e1;

        // Four rounds of function `$f` with message group `$g`: `$e` receives `E + W`,
        // `$next` keeps `ABCD` for the `E` of the group after.
        macro_rules! rounds4 {
            ($e:ident, $next:ident, $g:literal, $f:literal) => {
                $e = _mm_sha1nexte_epu32($e, w[$g]);
                $next = abcd;
                abcd = _mm_sha1rnds4_epu32::<$f>(abcd, $e);
            };
        }

        // Rounds 0..4: E comes from the state, not from sha1nexte. A lone block computes
        // groups 4..8 here, each three round groups before it is used, rather than all
        // in `head` ahead of round 0: `sha1msg1`/`sha1msg2` share `sha1rnds4`'s execution
        // unit, and issued first they delay the start of the chain. (Intel Xeon, a
        // 16-byte `Sha1::digest` in a 20-line loop against sha1 0.11.0, five alternating
        // runs of each build: 0.98–1.00× before, 1.00–1.02× after.)
        e0 = _mm_add_epi32(e0, w[0]);
        e1 = abcd;
        abcd = _mm_sha1rnds4_epu32::<0>(abcd, e0);
        if single { w[4] = fips!(w, 4); }
        rounds4!(e1, e0, 1, 0);
        if single { w[5] = fips!(w, 5); }
        rounds4!(e0, e1, 2, 0);
        if single { w[6] = fips!(w, 6); }
        rounds4!(e1, e0, 3, 0);
        if single { w[7] = fips!(w, 7); }
        rounds4!(e0, e1, 4, 0);
        rounds4!(e1, e0, 5, 1);
        rounds4!(e0, e1, 6, 1);
        rounds4!(e1, e0, 7, 1);
        schedule!(8);
        rounds4!(e0, e1, 8, 1);
        schedule!(9);
        rounds4!(e1, e0, 9, 1);
        schedule!(10);
        rounds4!(e0, e1, 10, 2);
        schedule!(11);
        rounds4!(e1, e0, 11, 2);
        schedule!(12);
        rounds4!(e0, e1, 12, 2);
        schedule!(13);
        rounds4!(e1, e0, 13, 2);
        schedule!(14);
        rounds4!(e0, e1, 14, 2);
        schedule!(15);
        rounds4!(e1, e0, 15, 3);
        schedule!(16);
        rounds4!(e0, e1, 16, 3);
        schedule!(17);
        rounds4!(e1, e0, 17, 3);
        schedule!(18);
        rounds4!(e0, e1, 18, 3);
        schedule!(19);
        rounds4!(e1, e0, 19, 3);

        // e0 holds ABCD of four rounds ago: its rotl(A, 30) is the final E.
        e0 = _mm_sha1nexte_epu32(e0, e_save);
        abcd = _mm_add_epi32(abcd, abcd_save);

        if !more {
            break;
        }
    }

    let abcd = _mm_shuffle_epi32::<0x1B>(abcd);
    // SAFETY: `state` is 20 bytes; the unaligned store writes its first 16.
    unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), abcd) };
    state[4] = _mm_extract_epi32::<3>(e0) as u32;
}

#[cfg(test)]
mod tests {
    use super::super::{
        __backends::{available, compress_with},
        soft,
    };

    #[test]
    fn shani_matches_soft() {
        if !testkit::available("shani", available("shani")) {
            return;
        }
        testkit::harness::compress(
            "shani",
            64,
            1,
            |rng| core::array::from_fn::<u32, 5, _>(|_| rng.next_u64() as u32),
            |s, data| soft::compress(s, as_blocks(data)),
            |s, data| compress_with("shani", s, as_blocks(data)),
        );
    }

    /// `finalize` in registers against `block-buffer`'s padding in memory (`soft`'s),
    /// for every length of the rest, at every offset of a 16-byte line, random bit
    /// lengths (the count is not checked against the data: any 64-bit value is padded),
    /// on both backends that run it.
    #[test]
    fn finalize_matches_soft() {
        use super::super::{Backend, Buffer};
        let mut rng = testkit::Rng::new(testkit::seed(0x5A1F));
        for name in ["shani", "avx512"] {
            if !testkit::available(name, available(name)) {
                continue;
            }
            let backend = Backend::named(name);
            for len in 0..64 {
                for offset in 0..16 {
                    let buf = rng.bytes(len + offset + 16);
                    let data = &buf[offset..offset + len];
                    let state = core::array::from_fn::<u32, 5, _>(|_| rng.next_u64() as u32);
                    let bit_len = match rng.below(3) {
                        0 => 8 * len as u64,
                        _ => rng.next_u64(),
                    };
                    let (mut ours, mut theirs) = (state, state);
                    backend.finalize(&mut ours, &mut Buffer::new(data), bit_len);
                    Backend::Soft.finalize(&mut theirs, &mut Buffer::new(data), bit_len);
                    assert_eq!(ours, theirs, "{name}: {len} bytes at offset {offset}");
                }
            }
        }
    }

    /// Whole 64-byte blocks of `data` (its length is a multiple of 64).
    fn as_blocks(data: &[u8]) -> &[[u8; 64]] {
        let (blocks, rest) = data.as_chunks::<64>();
        assert!(rest.is_empty());
        blocks
    }
}
