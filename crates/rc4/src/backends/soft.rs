//! Portable RC4: the reference and (on every CPU) the fastest backend.
//!
//! # How it is fast
//!
//! RC4 (key schedule and generator as in Schneier, *Applied Cryptography*, 2nd ed.,
//! §17.1) is one serial chain: `i += 1; j += S[i]; swap(S[i], S[j]);
//! out = S[S[i] + S[j]]`. What limits it on an out-of-order CPU is not arithmetic but
//! memory ordering: `S[i+1]`, needed for the next `j`, is read right after a store to
//! `S[j]` whose address is only known once `j` is, so the CPU either waits for that
//! address (a load-to-use chain of ~6 cycles per byte) or guesses "no alias" and pays a
//! pipeline flush when `j == i + 1`. The choices below were measured on this project's
//! test host (Xeon, Intel family 6 model 207, in a VM) in TSC cycles per byte, 8 KiB
//! calls, against OpenSSL 3.0's `RC4` assembly (`crypto/rc4/asm/rc4-x86_64.pl`, its
//! Intel 16x path) and RustCrypto's rc4 0.2.0, interleaved in one process (the host
//! alternates between two speed regimes, so both are quoted; ratios are per round):
//!
//! | variant | c/B (fast regime) | c/B (slow regime) |
//! |---|---|---|
//! | RustCrypto rc4 0.2.0 (`u8` state, byte at a time) | 5.8–6.3 | 6.9–7.1 |
//! | OpenSSL `RC4` (x86-64 assembly) | 6.0 | 4.6–4.7 |
//! | textbook loop, `u8` state | 5.7–6.3 | — |
//! | textbook loop, `u32` state | 3.9–4.0 | — |
//! | OpenSSL's order (read `S[i+1]` after storing `S[j]`), 8× unrolled, `u32` | 5.1–7.3 | — |
//! | read `S[i+1]` before the swap + fix-up, `u8` state | 4.0–4.5 | — |
//! | same, fix-up compiled as `cmov` (on the `j` chain), `u32` | 4.1 | — |
//! | **same, fix-up as a rarely taken branch, `u32`, aligned groups (this file)** | **2.4** | **4.2–4.4** |
//!
//! 1. **`u32` state, not `u8`** (OpenSSL's `RC4_INT` vs `RC4_CHAR`; the comments in
//!    `rc4-x86_64.pl` report the same "~40% … even for C" gain on AMD, and the reverse
//!    on Pentium 4): 3.9 vs 5.7 c/B for the textbook loop, 2.4 vs 4.0 for the loop
//!    below. Our guess (no performance counters in the VM): with bytes, several state
//!    entries share the granule the CPU uses to match loads against older stores, so
//!    unrelated swaps look like conflicts; with `u32` only a true `j == i+1` does.
//! 2. **`S[i+1]` is read before this step's stores.** The only store of the step that
//!    can hit it is `S[j] = S[i]` (the other goes to `S[i]`), so when `j == i + 1` the
//!    right value is the old `S[i]`, else the value read. The load then no longer
//!    waits on `j`, and the chain from one `j` to the next is a single add.
//! 3. **The fix-up is a branch, not a `cmov`.** A `cmov` puts the compare on the `j`
//!    chain (≈4.1 c/B above); a branch that is taken once per 256 bytes on average
//!    (a mispredict every ~256 bytes) keeps the chain at one add. The taken side goes
//!    through `core::hint::black_box`, which LLVM cannot turn into a select, so the
//!    branch survives every optimisation level (a cold function call there cost
//!    0.1–0.9 c/B in register spills).
//! 4. **Eight bytes at a time.** Eight keystream bytes are assembled into a `u64`
//!    and XORed with eight input bytes in one load and one store (as OpenSSL's
//!    `Loop8`/`Loop16` do with `ror`/`pinsrw`), which keeps the store port free for
//!    the swaps. Long calls first step single bytes until `i + 1` is a multiple of 8;
//!    then the eight indices of a group are `base + 0..8` with no wrap, so the
//!    compiler addresses them as constant offsets from one register (OpenSSL's
//!    `.Loop8_warmup` does the same). Short calls (< [`ALIGN_FROM`] bytes) skip the
//!    warm-up and wrap each index instead (3.0 vs 3.3 c/B at 16 bytes).
//! 5. `i` and `j` live in registers for the whole call, and indexing a `[u32; 256]`
//!    with a value masked to 8 bits needs no bounds check (the loop has no panic
//!    branch; checked with `objdump -d`).
//!
//! Writing keystream (`write_keystream`) runs the same loop without reading input.

#![forbid(unsafe_code)]

use cipher::{InOutBuf, consts::U8};
use core::hint::black_box;

/// Calls at least this long align `i` to groups of 8 before the main loop.
const ALIGN_FROM: usize = 64;

/// RC4 state: the permutation `S` (entries < 256, one per `u32`, see the module
/// docs) and the indices `i`, `j`.
pub(crate) struct State {
    s: [u32; 256],
    i: u8,
    j: u8,
}

/// One generator step. `i` is this step's index and `inext = (i + 1) % 256`; `x` holds
/// `S[i]` on entry and `S[inext]` (as of after this step) on return. Returns the
/// keystream byte, `< 256`.
#[inline(always)]
fn step(s: &mut [u32; 256], i: usize, inext: usize, j: &mut usize, x: &mut u32) -> u32 {
    *j = (*j + *x as usize) & 0xff;
    // `S[inext]` after the swap below: the swap's store `S[j] = x` changes it only if
    // `j == inext` (the other store goes to `S[i]`, and `i != inext`). Reading it here,
    // before the stores, takes the load off the `j` chain; the rare case is a branch.
    let next = if *j == inext { black_box(*x) } else { s[inext] };
    let y = s[*j];
    s[*j] = *x;
    s[i] = y;
    let k = s[((*x + y) & 0xff) as usize];
    *x = next;
    k
}

/// Eight steps with `i + 1 == base` a multiple of 8 (so `base + 7 <= 255`): keystream
/// bytes in little-endian order.
#[inline(always)]
fn group_aligned(s: &mut [u32; 256], base: usize, j: &mut usize, x: &mut u32) -> u64 {
    let base = base & 0xf8;
    let mut ks = 0;
    for n in 0..7 {
        ks |= u64::from(step(s, base + n, base + n + 1, j, x)) << (8 * n);
    }
    ks | u64::from(step(s, base + 7, (base + 8) & 0xff, j, x)) << 56
}

/// Eight steps from any `i`: keystream bytes in little-endian order.
#[inline(always)]
fn group_wrapping(s: &mut [u32; 256], i: usize, j: &mut usize, x: &mut u32) -> u64 {
    let mut ks = 0;
    for n in 0..8 {
        let ii = (i + 1 + n) & 0xff;
        ks |= u64::from(step(s, ii, (ii + 1) & 0xff, j, x)) << (8 * n);
    }
    ks
}

impl State {
    /// Key schedule (KSA). `key` is 1 to 256 bytes long (checked by the caller).
    pub(crate) fn new(key: &[u8]) -> Self {
        let mut s = [0u32; 256];
        for (v, n) in s.iter_mut().zip(0u32..) {
            *v = n;
        }
        let mut j = 0usize;
        for (i, &k) in (0..256).zip(key.iter().cycle()) {
            let x = s[i];
            j = (j + x as usize + usize::from(k)) & 0xff;
            s[i] = s[j];
            s[j] = x;
        }
        Self { s, i: 0, j: 0 }
    }

    /// Zeroes the whole state.
    #[cfg(feature = "zeroize")]
    pub(crate) fn zeroize(&mut self) {
        use cipher::zeroize::Zeroize;
        self.s.zeroize();
        self.i.zeroize();
        self.j.zeroize();
    }

    /// How many single steps make `i + 1` a multiple of 8, for a call of `len` bytes
    /// (0 for short calls, which do not align).
    #[inline(always)]
    fn warm_up(&self, len: usize) -> usize {
        if len >= ALIGN_FROM {
            usize::from(self.i.wrapping_add(1).wrapping_neg() & 7)
        } else {
            0
        }
    }

    /// The generator loop, generic over where the keystream goes: `put1` takes the
    /// items of `head` and `tail` one byte each, `put8` the items of `chunks` eight
    /// bytes each. `aligned`: `head` brings `i + 1` to a multiple of 8.
    #[inline(always)]
    fn run<B, C>(
        &mut self,
        aligned: bool,
        (head, chunks, tail): (
            impl Iterator<Item = B>,
            impl Iterator<Item = C>,
            impl Iterator<Item = B>,
        ),
        mut put1: impl FnMut(B, u8),
        mut put8: impl FnMut(C, u64),
    ) {
        let s = &mut self.s;
        let mut i = usize::from(self.i);
        let mut j = usize::from(self.j);
        let mut x = s[(i + 1) & 0xff];
        // Keystream bytes are < 256 (the state is a permutation of 0..=255), so the
        // `as u8` casts below drop nothing.
        for b in head {
            i = (i + 1) & 0xff;
            put1(b, step(s, i, (i + 1) & 0xff, &mut j, &mut x) as u8);
        }
        if aligned {
            for c in chunks {
                put8(c, group_aligned(s, i + 1, &mut j, &mut x));
                i = (i + 8) & 0xff;
            }
        } else {
            for c in chunks {
                put8(c, group_wrapping(s, i, &mut j, &mut x));
                i = (i + 8) & 0xff;
            }
        }
        for b in tail {
            i = (i + 1) & 0xff;
            put1(b, step(s, i, (i + 1) & 0xff, &mut j, &mut x) as u8);
        }
        // Both are masked to 8 bits throughout.
        self.i = i as u8;
        self.j = j as u8;
    }

    /// XORs the keystream over `buf` (in place or buffer to buffer).
    #[inline]
    pub(crate) fn apply_keystream(&mut self, buf: InOutBuf<'_, '_, u8>) {
        let aligned = buf.len() >= ALIGN_FROM;
        let warm = self.warm_up(buf.len());
        let (head, body) = buf.split_at(warm);
        let (chunks, tail) = body.into_chunks::<U8>();
        self.run(
            aligned,
            (head.into_iter(), chunks.into_iter(), tail.into_iter()),
            |mut b, k| *b.get_out() = b.clone_in() ^ k,
            |mut c, ks| {
                let v = u64::from_le_bytes(c.clone_in().into()) ^ ks;
                *c.get_out() = v.to_le_bytes().into();
            },
        );
    }

    /// Writes the keystream to `buf`.
    #[inline]
    pub(crate) fn write_keystream(&mut self, buf: &mut [u8]) {
        let aligned = buf.len() >= ALIGN_FROM;
        let warm = self.warm_up(buf.len());
        let (head, body) = buf.split_at_mut(warm);
        let (body, tail) = body.split_at_mut(body.len() / 8 * 8);
        self.run(
            aligned,
            (head.iter_mut(), body.chunks_exact_mut(8), tail.iter_mut()),
            |b, k| *b = k,
            |c, ks| c.copy_from_slice(&ks.to_le_bytes()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::State;
    use cipher::InOutBuf;
    use std::{vec, vec::Vec};
    use testkit::Rng;

    /// Textbook RC4 (Schneier, Applied Cryptography §17.1), byte state, one byte at a
    /// time: the reference the backend is compared with.
    #[derive(Clone)]
    struct Reference {
        s: [u8; 256],
        i: u8,
        j: u8,
        /// Steps so far at which `j == i + 1` (the backend's fix-up case).
        events: Vec<usize>,
        steps: usize,
    }

    impl Reference {
        fn new(key: &[u8]) -> Self {
            let mut s = [0u8; 256];
            for (n, v) in s.iter_mut().enumerate() {
                *v = n as u8;
            }
            let mut j = 0u8;
            for n in 0..256 {
                j = j.wrapping_add(s[n]).wrapping_add(key[n % key.len()]);
                s.swap(n, usize::from(j));
            }
            Self::from_parts(s, 0, 0)
        }

        fn from_parts(s: [u8; 256], i: u8, j: u8) -> Self {
            Self {
                s,
                i,
                j,
                events: Vec::new(),
                steps: 0,
            }
        }

        fn next(&mut self) -> u8 {
            self.i = self.i.wrapping_add(1);
            self.j = self.j.wrapping_add(self.s[usize::from(self.i)]);
            if self.j == self.i.wrapping_add(1) {
                self.events.push(self.steps);
            }
            self.steps += 1;
            self.s.swap(usize::from(self.i), usize::from(self.j));
            let t = self.s[usize::from(self.i)].wrapping_add(self.s[usize::from(self.j)]);
            self.s[usize::from(t)]
        }

        /// Undoes one `next` (the generator is a permutation of states).
        fn unstep(&mut self) {
            self.s.swap(usize::from(self.i), usize::from(self.j));
            self.j = self.j.wrapping_sub(self.s[usize::from(self.i)]);
            self.i = self.i.wrapping_sub(1);
        }

        fn apply(&mut self, input: &[u8], output: &mut [u8]) {
            for (o, i) in output.iter_mut().zip(input) {
                *o = i ^ self.next();
            }
        }
    }

    fn ours(r: &Reference) -> State {
        State {
            s: r.s.map(u32::from),
            i: r.i,
            j: r.j,
        }
    }

    fn random_key(rng: &mut Rng) -> Vec<u8> {
        rng.bytes_in(1, 256)
    }

    #[test]
    fn soft_matches_reference() {
        // `par` = 8: the backend works in groups of 8 bytes.
        testkit::harness::stream(
            "soft apply_keystream",
            8,
            random_key,
            Reference::new,
            State::new,
            Reference::apply,
            |st: &mut State, input: &[u8], output: &mut [u8]| {
                st.apply_keystream(InOutBuf::new(input, output).unwrap())
            },
        );
        testkit::harness::stream(
            "soft write_keystream",
            8,
            random_key,
            Reference::new,
            State::new,
            Reference::apply,
            |st: &mut State, input: &[u8], output: &mut [u8]| {
                st.write_keystream(output);
                output.iter_mut().zip(input).for_each(|(o, i)| *o ^= i);
            },
        );
    }

    /// A random permutation.
    fn permutation(rng: &mut Rng) -> [u8; 256] {
        let mut s = [0u8; 256];
        for (n, v) in s.iter_mut().enumerate() {
            *v = n as u8;
        }
        for n in (1..256).rev() {
            s.swap(n, rng.below(n + 1));
        }
        s
    }

    /// The case the backend patches up: `j == i + 1`, where the value it read ahead
    /// (`S[i+1]`) is overwritten by the swap. States are built backwards (the generator
    /// runs in reverse) so that the case falls at step `m` of a call, for every `i`
    /// (every position in an aligned group of 8, and the wrap from 255 to 0), every `m`
    /// up to three groups in, through one call of each length class (single bytes,
    /// wrapping groups, warm-up + aligned groups) and through split calls; also twice
    /// in a row (`S[i] == 1`).
    #[test]
    fn j_equals_i_plus_1() {
        let mut rng = Rng::new(testkit::seed(0x1_2_1));
        let mut checked = 0;
        for m in 0..24 {
            for i in 0..=255u8 {
                for twice in [false, true] {
                    let mut s = permutation(&mut rng);
                    // Before step m: i_prev = i - 1, and j_prev + S[i] == i + 1.
                    if twice {
                        let at = s.iter().position(|&v| v == 1).unwrap();
                        s.swap(at, usize::from(i));
                    }
                    let j_prev = i.wrapping_add(1).wrapping_sub(s[usize::from(i)]);
                    let mut start = Reference::from_parts(s, i.wrapping_sub(1), j_prev);
                    for _ in 0..m {
                        start.unstep();
                    }
                    for len in [m + 1, m + 2, m + 9, 64 + m, 200] {
                        let mut reference = start.clone();
                        let mut expect = vec![0; len];
                        reference.apply(&vec![0; len], &mut expect);
                        assert!(reference.events.contains(&m), "event not at step {m}");
                        if twice && len > m + 1 {
                            assert!(reference.events.contains(&(m + 1)));
                        }
                        // One call, in place.
                        let mut got = vec![0; len];
                        ours(&start).apply_keystream((&mut got[..]).into());
                        assert_eq!(got, expect, "m {m}, i {i}, len {len}, twice {twice}");
                        // Split calls, alternating write and apply.
                        let mut st = ours(&start);
                        let mut got = vec![0; len];
                        let mut pos = 0;
                        while pos < len {
                            let n = rng.range(0, 70).min(len - pos);
                            if rng.below(2) == 0 {
                                st.write_keystream(&mut got[pos..pos + n]);
                            } else {
                                st.apply_keystream((&mut got[pos..pos + n]).into());
                            }
                            pos += n;
                        }
                        assert_eq!(got, expect, "split: m {m}, i {i}, len {len}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 24 * 256 * 2 * 5);
    }

    #[test]
    fn long_streams_and_state_after() {
        let mut rng = Rng::new(testkit::seed(0x10_96));
        for _ in 0..50 {
            let key = random_key(&mut rng);
            let len = rng.range(0, 20_000);
            let mut r = Reference::new(&key);
            let mut st = State::new(&key);
            let mut expect = vec![0; len];
            r.apply(&vec![0; len], &mut expect);
            let mut got = vec![0; len];
            st.write_keystream(&mut got);
            assert_eq!(got, expect);
            assert_eq!((st.i, st.j), (r.i, r.j));
            assert!(st.s.iter().zip(r.s).all(|(&a, b)| a == u32::from(b)));
        }
    }
}
