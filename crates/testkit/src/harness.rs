//! One backend against the portable `soft` backend, in one process (ARCHITECTURE §4, step 3).
//!
//! A backend file's test module calls one of these with two closures: the soft
//! reference and the backend under test. Each function drives both over the lengths
//! where wide backends hand over to narrower ones ([`lengths`]), input and output
//! buffers misaligned by 0..15 bytes, sentinel bytes around every output, several
//! calls in a row (state carried across calls), and for counter modes, counters
//! that wrap at 2^32, 2^64 and 2^128. Any difference panics with the case that
//! shows it.

use crate::rng::pieces;
use crate::{Rng, seed};
use std::fmt::Debug;

/// Byte written around every output buffer; a write outside the output changes it.
pub const SENTINEL: u8 = 0xA5;
/// Number of sentinel bytes on each side of an output buffer.
pub const GUARD: usize = 32;
/// Misalignments tried for input and output buffers.
pub const MISALIGN: usize = 16;

/// The lengths (in blocks, or bytes for byte-wise ciphers) that a backend handling
/// `par` units at a time must get right: 0, 1 to 5 (the short calls that a size-aware
/// backend hands to narrower code), par−1, par, par+1, 2·par+1, and a long odd length that
/// runs many wide iterations before its tail.
pub fn lengths(par: usize) -> Vec<usize> {
    let par = par.max(1);
    let mut v = vec![
        0,
        1,
        2,
        3,
        4,
        5,
        par - 1,
        par,
        par + 1,
        2 * par + 1,
        2 * par - 1,
        9 * par + 3,
        67,
    ];
    v.sort_unstable();
    v.dedup();
    v
}

/// A buffer of `len` bytes at misalignment `mis`, with sentinels around it.
struct Guarded {
    buf: Vec<u8>,
    start: usize,
    len: usize,
}

impl Guarded {
    fn new(len: usize, mis: usize) -> Self {
        // Over-allocate so `start` can be placed at the wanted address misalignment.
        let buf = vec![SENTINEL; GUARD + MISALIGN + len + GUARD];
        let base = buf.as_ptr() as usize + GUARD;
        let start = GUARD + (MISALIGN - base % MISALIGN + mis) % MISALIGN;
        Self { buf, start, len }
    }

    fn with(data: &[u8], mis: usize) -> Self {
        let mut g = Self::new(data.len(), mis);
        g.get_mut().copy_from_slice(data);
        g
    }

    fn get(&self) -> &[u8] {
        &self.buf[self.start..self.start + self.len]
    }

    fn get_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.start..self.start + self.len]
    }

    fn check(&self, what: &dyn Fn() -> String) {
        let before = &self.buf[..self.start];
        let after = &self.buf[self.start + self.len..];
        if let Some(p) = before.iter().rposition(|&b| b != SENTINEL) {
            panic!(
                "{}: wrote {} bytes before the output",
                what(),
                self.start - p
            );
        }
        if let Some(p) = after.iter().position(|&b| b != SENTINEL) {
            panic!("{}: wrote past the end of the output (at +{p})", what());
        }
    }
}

/// Compression functions (digests): `soft` and `backend` absorb whole blocks of
/// `block_len` bytes into a state made by `init`; `par` is the number of blocks the
/// backend handles at once (1 for a single-stream backend).
pub fn compress<S>(
    name: &str,
    block_len: usize,
    par: usize,
    init: impl Fn(&mut Rng) -> S,
    soft: impl Fn(&mut S, &[u8]),
    backend: impl Fn(&mut S, &[u8]),
) where
    S: Clone + PartialEq + Debug,
{
    let mut rng = Rng::new(seed(0x5EED_C0DE));
    for blocks in lengths(par) {
        for mis in 0..MISALIGN {
            let state = init(&mut rng);
            let input = Guarded::with(&rng.bytes(blocks * block_len), mis);
            let mut expect = state.clone();
            soft(&mut expect, input.get());
            let mut got = state.clone();
            backend(&mut got, input.get());
            assert_eq!(
                got, expect,
                "{name}: {blocks} blocks at misalignment {mis} differ from soft (state {state:?})"
            );
            input.check(&|| format!("{name}: input changed"));

            // The same blocks in several calls, cut at block boundaries.
            let cuts: Vec<usize> = rng
                .cuts(blocks, 3)
                .into_iter()
                .map(|c| c * block_len)
                .collect();
            let mut split = state.clone();
            for piece in pieces(input.get(), &cuts) {
                backend(&mut split, piece);
            }
            assert_eq!(
                split, expect,
                "{name}: {blocks} blocks cut at {cuts:?} differ"
            );
        }
    }
}

/// Stream ciphers: `soft` and `backend` XOR their keystream over `input` into
/// `output` (same length), carrying state across calls. `par` is the number of
/// bytes the backend produces at once.
pub fn stream<S, B>(
    name: &str,
    par: usize,
    key: impl Fn(&mut Rng) -> Vec<u8>,
    new_soft: impl Fn(&[u8]) -> S,
    new_backend: impl Fn(&[u8]) -> B,
    soft: impl Fn(&mut S, &[u8], &mut [u8]),
    backend: impl Fn(&mut B, &[u8], &mut [u8]),
) {
    let mut rng = Rng::new(seed(0x5EED_57EA));
    for len in lengths(par) {
        for mis in 0..MISALIGN {
            let key = key(&mut rng);
            let (mut s, mut b) = (new_soft(&key), new_backend(&key));
            let data = rng.bytes(len);
            let input = Guarded::with(&data, (mis * 7) % MISALIGN);
            // Three calls in a row: state must carry over exactly.
            for call in 0..3 {
                let mut expect = vec![0; len];
                soft(&mut s, input.get(), &mut expect);
                let mut out = Guarded::new(len, mis);
                backend(&mut b, input.get(), out.get_mut());
                let what = || format!("{name}: call {call}, {len} bytes, misalignment {mis}");
                out.check(&what);
                assert!(out.get() == expect, "{}: output differs from soft", what());
            }
        }
    }
}

/// Block ciphers in ECB: `encrypt`/`decrypt` process whole blocks from `input`
/// into `output` with a key schedule made by `new_*` from a key made by `key`;
/// `par` is the number of blocks the backend handles at once.
#[allow(clippy::too_many_arguments)]
pub fn block<S, B>(
    name: &str,
    block_len: usize,
    par: usize,
    key: impl Fn(&mut Rng) -> Vec<u8>,
    (new_soft, enc_soft, dec_soft): (
        impl Fn(&[u8]) -> S,
        impl Fn(&S, &[u8], &mut [u8]),
        impl Fn(&S, &[u8], &mut [u8]),
    ),
    (new_backend, enc_backend, dec_backend): (
        impl Fn(&[u8]) -> B,
        impl Fn(&B, &[u8], &mut [u8]),
        impl Fn(&B, &[u8], &mut [u8]),
    ),
) {
    let mut rng = Rng::new(seed(0x5EED_B10C));
    for blocks in lengths(par) {
        for mis in 0..MISALIGN {
            let key = key(&mut rng);
            let (s, b) = (new_soft(&key), new_backend(&key));
            let len = blocks * block_len;
            let plain = Guarded::with(&rng.bytes(len), (mis * 5) % MISALIGN);
            let what = |op: &str| format!("{name}: {op} of {blocks} blocks, misalignment {mis}");

            let mut expect = vec![0; len];
            enc_soft(&s, plain.get(), &mut expect);
            let mut ct = Guarded::new(len, mis);
            enc_backend(&b, plain.get(), ct.get_mut());
            ct.check(&|| what("encryption"));
            assert!(
                ct.get() == expect,
                "{}: differs from soft",
                what("encryption")
            );

            let mut back = Guarded::new(len, (mis + 3) % MISALIGN);
            dec_backend(&b, ct.get(), back.get_mut());
            back.check(&|| what("decryption"));
            let mut soft_back = vec![0; len];
            dec_soft(&s, ct.get(), &mut soft_back);
            assert!(
                back.get() == soft_back,
                "{}: differs from soft",
                what("decryption")
            );
            assert!(
                back.get() == plain.get(),
                "{}: does not invert",
                what("decryption")
            );
        }
    }
}

/// The in-process check of a block cipher's backend (DESIGN §4.3), through [`block`]:
/// backend `name` against `soft`, or for `soft` itself, `soft` against `peer` (the
/// RustCrypto cipher). `ours(backend, key)` makes the crate's cipher on `backend`, `peer`
/// the RustCrypto one, from the same key. The caller asks [`crate::available`] first.
pub fn block_vs_soft<P, C>(
    name: &str,
    block_len: usize,
    par: usize,
    key: impl Fn(&mut Rng) -> Vec<u8>,
    peer: impl Fn(&[u8]) -> P,
    ours: impl Fn(&str, &[u8]) -> C,
) where
    P: cipher::BlockCipherEncrypt + cipher::BlockCipherDecrypt,
    C: cipher::BlockCipherEncrypt + cipher::BlockCipherDecrypt,
{
    let soft = (|k: &[u8]| ours("soft", k), encrypt_b2b, decrypt_b2b);
    if name == "soft" {
        block(
            name,
            block_len,
            par,
            key,
            (peer, encrypt_b2b, decrypt_b2b),
            soft,
        );
    } else {
        let backend = (|k: &[u8]| ours(name, k), encrypt_b2b, decrypt_b2b);
        block(name, block_len, par, key, soft, backend);
    }
}

/// [`block_vs_soft`] for ciphers with one key size, `N` bytes: `peer` is the RustCrypto
/// cipher `P` made by `KeyInit`, `ours(backend, key)` the crate's.
pub fn block_vs_soft_sized<P, C, const N: usize>(
    name: &str,
    block_len: usize,
    par: usize,
    ours: impl Fn(&str, &[u8; N]) -> C,
) where
    P: cipher::BlockCipherEncrypt + cipher::BlockCipherDecrypt + cipher::KeyInit,
    C: cipher::BlockCipherEncrypt + cipher::BlockCipherDecrypt,
{
    let sized = |k: &[u8]| -> [u8; N] {
        k.try_into()
            .unwrap_or_else(|_| panic!("{name}: a {N}-byte key, not {}", k.len()))
    };
    let peer = |k: &[u8]| P::new_from_slice(&sized(k)).expect("the peer takes the key size");
    let ours = |backend: &str, k: &[u8]| ours(backend, &sized(k));
    block_vs_soft(name, block_len, par, |rng| rng.bytes(N), peer, ours);
}

/// `c.encrypt_blocks_b2b` over the whole blocks of `input` into `output` (same length):
/// the encryption closure [`block`] takes, for any `cipher` block cipher.
pub fn encrypt_b2b<C: cipher::BlockCipherEncrypt>(c: &C, input: &[u8], output: &mut [u8]) {
    let (i, _) = cipher::Array::slice_as_chunks(input);
    let (o, _) = cipher::Array::slice_as_chunks_mut(output);
    c.encrypt_blocks_b2b(i, o).expect("same lengths");
}

/// `c.decrypt_blocks_b2b` over the whole blocks of `input` into `output`: [`block`]'s
/// decryption closure.
pub fn decrypt_b2b<C: cipher::BlockCipherDecrypt>(c: &C, input: &[u8], output: &mut [u8]) {
    let (i, _) = cipher::Array::slice_as_chunks(input);
    let (o, _) = cipher::Array::slice_as_chunks_mut(output);
    c.decrypt_blocks_b2b(i, o).expect("same lengths");
}

/// The initial counter blocks a counter-mode backend must get right: random ones and
/// ones whose low 32, 64 or all bits (big- and little-endian) are `k` steps before
/// wrapping, for `k` in `0..=par+1`, so the wrap falls at every lane of a wide batch.
pub fn wrap_counters(block_len: usize, par: usize, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = vec![rng.bytes(block_len), rng.bytes(block_len)];
    for k in 0..=par as u64 + 1 {
        for width in [4usize, 8, block_len] {
            let width = width.min(block_len);
            let mut be = rng.bytes(block_len);
            let mut le = rng.bytes(block_len);
            for i in 0..width {
                // Big-endian: low bits at the end; little-endian: low bits first.
                let byte = if i < 8 { (!k >> (8 * i)) as u8 } else { 0xFF };
                be[block_len - 1 - i] = byte;
                le[i] = byte;
            }
            out.push(be);
            out.push(le);
        }
    }
    out
}

/// Counter-mode keystream: `soft` and `backend` fill `out` (whole blocks) with the
/// encryptions of the counter blocks starting at `counter`, incremented the way the
/// backend's counter flavor defines (the harness only feeds counters near a wrap).
#[allow(clippy::too_many_arguments)]
pub fn ctr<S, B>(
    name: &str,
    block_len: usize,
    par: usize,
    key: impl Fn(&mut Rng) -> Vec<u8>,
    new_soft: impl Fn(&[u8]) -> S,
    new_backend: impl Fn(&[u8]) -> B,
    soft: impl Fn(&S, &[u8], &mut [u8]),
    backend: impl Fn(&B, &[u8], &mut [u8]),
) {
    let mut rng = Rng::new(seed(0x5EED_C7C7));
    let counters = wrap_counters(block_len, par, &mut rng);
    for blocks in lengths(par) {
        for (ci, counter) in counters.iter().enumerate() {
            let key = key(&mut rng);
            let (s, b) = (new_soft(&key), new_backend(&key));
            let len = blocks * block_len;
            let mut expect = vec![0; len];
            soft(&s, counter, &mut expect);
            let mis = ci % MISALIGN;
            let mut out = Guarded::new(len, mis);
            backend(&b, counter, out.get_mut());
            let what = || format!("{name}: {blocks} blocks from counter {counter:02x?}");
            out.check(&what);
            assert!(out.get() == expect, "{}: differs from soft", what());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::catch_unwind;

    fn toy_compress(state: &mut u64, data: &[u8]) {
        for block in data.chunks_exact(8) {
            *state = state.rotate_left(5) ^ u64::from_le_bytes(block.try_into().unwrap());
        }
    }

    fn toy_stream(state: &mut u8, input: &[u8], output: &mut [u8]) {
        for (o, i) in output.iter_mut().zip(input) {
            *state = state.wrapping_mul(5).wrapping_add(1);
            *o = i ^ *state;
        }
    }

    #[test]
    fn lengths_cover_the_hand_over_points() {
        assert_eq!(lengths(8), vec![0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 17, 67, 75]);
        assert_eq!(lengths(1), vec![0, 1, 2, 3, 4, 5, 12, 67]);
    }

    #[test]
    fn guarded_buffers_are_misaligned_as_asked() {
        for mis in 0..MISALIGN {
            let g = Guarded::new(5, mis);
            assert_eq!(g.get().as_ptr() as usize % MISALIGN, mis);
        }
    }

    #[test]
    fn compress_passes_equal_and_catches_a_tail_bug() {
        compress("toy", 8, 4, |r| r.next_u64(), toy_compress, toy_compress);
        let bug = catch_unwind(|| {
            compress(
                "toy",
                8,
                4,
                |r| r.next_u64(),
                toy_compress,
                |s, d| {
                    // Forgets the last block of long inputs.
                    toy_compress(
                        s,
                        &d[..d.len().saturating_sub(if d.len() > 40 { 8 } else { 0 })],
                    )
                },
            )
        });
        assert!(bug.is_err());
    }

    #[test]
    fn stream_passes_equal_and_catches_overwrite_and_lost_state() {
        let key = |r: &mut Rng| r.bytes(1);
        let new = |k: &[u8]| k[0];
        stream("toy", 4, key, new, new, toy_stream, toy_stream);
        let overwrite = catch_unwind(|| {
            stream("toy", 4, key, new, new, toy_stream, |s, i, o: &mut [u8]| {
                toy_stream(s, i, o);
                // Writes one byte too far, the classic tail bug.
                let p = o.as_mut_ptr();
                if !o.is_empty() {
                    // SAFETY: deliberately wrong test double; stays inside the
                    // guarded allocation, which has GUARD spare bytes after `o`.
                    unsafe { *p.add(o.len()) = 0 };
                }
            })
        });
        assert!(overwrite.is_err());
        let lost = catch_unwind(|| {
            stream("toy", 4, key, new, new, toy_stream, |s, i, o| {
                let mut fresh = *s;
                toy_stream(&mut fresh, i, o) // never advances the state
            })
        });
        assert!(lost.is_err());
    }

    #[test]
    fn block_and_ctr_catch_a_bad_lane() {
        // Toy 4-byte "block cipher": add the key byte to every byte.
        let key = |r: &mut Rng| r.bytes(1);
        let new = |k: &[u8]| k[0];
        let enc = |k: &u8, i: &[u8], o: &mut [u8]| {
            o.iter_mut()
                .zip(i)
                .for_each(|(o, i)| *o = i.wrapping_add(*k))
        };
        let dec = |k: &u8, i: &[u8], o: &mut [u8]| {
            o.iter_mut()
                .zip(i)
                .for_each(|(o, i)| *o = i.wrapping_sub(*k))
        };
        block("toy", 4, 4, key, (new, enc, dec), (new, enc, dec));
        let bad_dec = |k: &u8, i: &[u8], o: &mut [u8]| {
            dec(k, i, o);
            if o.len() >= 36 {
                o[33] ^= 1; // lane 0 of the third batch
            }
        };
        assert!(
            catch_unwind(|| block("toy", 4, 4, key, (new, enc, dec), (new, enc, bad_dec))).is_err()
        );

        // Toy CTR with a 32-bit big-endian counter in the last 4 bytes.
        let ks = |k: &u8, ctr: &[u8], out: &mut [u8]| {
            let n = u32::from_be_bytes(ctr[4..8].try_into().unwrap());
            for (i, b) in out.chunks_exact_mut(8).enumerate() {
                b[..4].copy_from_slice(&ctr[..4]);
                b[4..].copy_from_slice(&n.wrapping_add(i as u32).to_be_bytes());
                b.iter_mut().for_each(|x| *x = x.wrapping_add(*k));
            }
        };
        ctr("toy", 8, 4, key, new, new, ks, ks);
        let no_wrap = |k: &u8, c: &[u8], out: &mut [u8]| {
            // Saturates instead of wrapping: wrong exactly at the wrap.
            let n = u32::from_be_bytes(c[4..8].try_into().unwrap());
            for (i, b) in out.chunks_exact_mut(8).enumerate() {
                b[..4].copy_from_slice(&c[..4]);
                b[4..].copy_from_slice(&n.saturating_add(i as u32).to_be_bytes());
                b.iter_mut().for_each(|x| *x = x.wrapping_add(*k));
            }
        };
        assert!(catch_unwind(|| ctr("toy", 8, 4, key, new, new, ks, no_wrap)).is_err());
    }

    #[test]
    fn wrap_counters_sit_before_the_wrap() {
        let mut rng = Rng::new(1);
        let c = wrap_counters(16, 2, &mut rng);
        // k = 0, width 4, big-endian: last four bytes all ones.
        assert_eq!(&c[2][12..], &[0xFF; 4]);
        // k = 0, width 16: every byte is 0xFF in both orders.
        assert_eq!(c[6], vec![0xFF; 16]);
        assert_eq!(c[7], vec![0xFF; 16]);
    }
}
