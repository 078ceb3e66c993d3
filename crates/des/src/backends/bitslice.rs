//! Bitsliced DES, generic over the register type: the code `avx512.rs`, `avx2.rs` and
//! `neon.rs` instantiate (no `unsafe`, no target features here; it inlines into their
//! `#[target_feature]` functions).
//!
//! A batch is `64 · LANES` blocks: 64 registers of `LANES` 64-bit lanes are loaded (block
//! `LANES·j + q` in lane `q` of register `j`) and transposed in each lane as a 64×64 bit
//! matrix, so register `p` then holds bit `p` (of the little-endian `u64`) of every block:
//! one bit plane. IP, E, P and FP become renamings of planes ([`PLANE`], [`E`],
//! [`PINV`]); each round XORs the 48 E-bits with the round-key masks, runs the eight
//! S-box gate networks of [`sboxes`] and XORs their outputs into the other half.
//!
//! For `des-crypt`: [`des_core`] takes the E table (a salt swaps E outputs) and a pass
//! count (25 encryptions with one key schedule never leave the bitsliced domain).

#![forbid(unsafe_code)]

mod sboxes;

/// The recorded circuits' format, checker and emitter (`tools/sboxes/`), for the test
/// that pins `sboxes.rs` to them.
#[cfg(test)]
#[path = "../../tools/sboxes/circuits.rs"]
mod circuits;

use super::soft::{Ks, P, key_bit};
use crate::Block;
use cipher::inout::InOutBuf;

/// A register of bit planes and the operations the networks need.
pub(crate) trait Gates: Copy {
    /// 64-bit lanes per register (blocks per register row).
    const LANES: usize;
    /// Whether [`Gates::tl`] is a single instruction (else the networks lowered to
    /// two-input operations are used).
    const TERNLOG: bool;
    /// Whether [`Gates::tl`] is a single instruction for the bit select `0xCA` (`a ? b :
    /// c`), as with NEON's `BSL`, even without [`Gates::TERNLOG`]: the transpose's
    /// swap-moves then use it.
    const MUX: bool = Self::TERNLOG;
    /// All zeros.
    fn zero() -> Self;
    /// All ones.
    fn ones() -> Self;
    /// `a & b`.
    fn and(a: Self, b: Self) -> Self;
    /// `a | b`.
    fn or(a: Self, b: Self) -> Self;
    /// `a ^ b`.
    fn xor(a: Self, b: Self) -> Self;
    /// `!a & b`.
    fn andnot(a: Self, b: Self) -> Self;
    /// The three-input function with truth table `IMM` (bit `a<<2 | b<<1 | c`).
    fn tl<const IMM: i32>(a: Self, b: Self, c: Self) -> Self;
    /// Every 32-bit lane set to `m`.
    fn splat(m: u32) -> Self;
    /// Every 64-bit lane set to `m`.
    fn splat64(m: u64) -> Self;
    /// Each 64-bit lane shifted right by `S`.
    fn shr<const S: u32>(a: Self) -> Self;
    /// Each 64-bit lane shifted left by `S`.
    fn shl<const S: u32>(a: Self) -> Self;
    /// `LANES` blocks as little-endian `u64`s, one per lane.
    fn load(b: &[Block]) -> Self;
    /// The lanes back to `LANES` blocks.
    fn store(self, b: &mut [Block]);
}

/// Exchanges bit `c + s` of `a` with bit `c` of `b` wherever bit `c` of `m` is set
/// (`mh` is `m << s`).
#[inline(always)]
fn swapmove<V: Gates, const S: u32>(a: &mut V, b: &mut V, m: V, mh: V) {
    if V::TERNLOG || V::MUX {
        // Two independent bit selects (`0xCA`: first ? second : third), four gates
        // instead of the XOR form's five (six without a three-input gate).
        let nb = V::tl::<0xCA>(m, V::shr::<S>(*a), *b);
        *a = V::tl::<0xCA>(mh, V::shl::<S>(*b), *a);
        *b = nb;
    } else {
        let _ = mh;
        let t = V::and(V::xor(V::shr::<S>(*a), *b), m);
        *b = V::xor(*b, t);
        *a = V::xor(*a, V::shl::<S>(t));
    }
}

/// [`swapmove`] on registers `i < j` of `r`, with mask `m = (mask, mask << S)`.
#[inline(always)]
fn swap_in<V: Gates, const S: u32>(r: &mut [V; 8], i: usize, j: usize, m: (V, V)) {
    let (lo, hi) = r.split_at_mut(j);
    swapmove::<V, S>(&mut lo[i], &mut hi[0], m.0, m.1);
}

/// A swap-move mask and the same mask shifted left by `s`.
#[inline(always)]
fn masks2<V: Gates>(m: u64, s: u32) -> (V, V) {
    (V::splat64(m), V::splat64(m << s))
}

/// Transposes the 64×64 bit matrix in each 64-bit lane of the rows `read(j)` (row `j` =
/// register `j`), handing row `j` of the result to `write(j, row)`; `tmp` holds the
/// rows between the two halves.
///
/// The six swap-move stages (shift `s` pairs rows `j` and `j + s`) each swap one bit of
/// the row index with the same bit of the column index, so they commute: stages 32, 16
/// and 8 run on each group of rows `{g, g + 8, …, g + 56}` and then stages 4, 2 and 1
/// on each group `{8g, …, 8g + 7}`, eight registers at a time. Two passes over the 64
/// registers instead of six: the state lives in L1, and its loads and stores, not the
/// gates of a swap-move, were most of a transpose's time. For the same reason the
/// loads, the stores and the plane renamings around a transpose happen in its passes.
#[inline(always)]
fn transpose_with<V: Gates>(
    read: impl Fn(usize) -> V,
    tmp: &mut [V; 64],
    mut write: impl FnMut(usize, V),
) {
    let m32 = masks2::<V>(0x0000_0000_FFFF_FFFF, 32);
    let m16 = masks2::<V>(0x0000_FFFF_0000_FFFF, 16);
    let m8 = masks2::<V>(0x00FF_00FF_00FF_00FF, 8);
    for g in 0..8 {
        let mut r: [V; 8] = core::array::from_fn(|i| read(g + 8 * i));
        for i in 0..4 {
            swap_in::<V, 32>(&mut r, i, i + 4, m32);
        }
        for i in [0, 1, 4, 5] {
            swap_in::<V, 16>(&mut r, i, i + 2, m16);
        }
        for i in [0, 2, 4, 6] {
            swap_in::<V, 8>(&mut r, i, i + 1, m8);
        }
        for (i, v) in r.into_iter().enumerate() {
            tmp[g + 8 * i] = v;
        }
    }
    let m4 = masks2::<V>(0x0F0F_0F0F_0F0F_0F0F, 4);
    let m2 = masks2::<V>(0x3333_3333_3333_3333, 2);
    let m1 = masks2::<V>(0x5555_5555_5555_5555, 1);
    for g in 0..8 {
        let mut r: [V; 8] = core::array::from_fn(|i| tmp[8 * g + i]);
        for i in 0..4 {
            swap_in::<V, 4>(&mut r, i, i + 4, m4);
        }
        for i in [0, 1, 4, 5] {
            swap_in::<V, 2>(&mut r, i, i + 2, m2);
        }
        for i in [0, 2, 4, 6] {
            swap_in::<V, 1>(&mut r, i, i + 1, m1);
        }
        for (i, v) in r.into_iter().enumerate() {
            write(8 * g + i, v);
        }
    }
}

/// Transposes the 64×64 bit matrix in each 64-bit lane of `x` in place.
#[inline(always)]
fn transpose<V: Gates>(x: &mut [V; 64]) {
    let mut tmp = [V::zero(); 64];
    let src = *x;
    transpose_with(|j| src[j], &mut tmp, |j, v| x[j] = v);
}

/// FIPS 46-3 IP: bit `k + 1` of `L0‖R0` is block bit `IP[k]` (1..=64 from the MSB).
const IP: [u8; 64] = [
    58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4, 62, 54, 46, 38, 30, 22, 14, 6,
    64, 56, 48, 40, 32, 24, 16, 8, 57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3, 61,
    53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
];

/// `PLANE[k]`: the transposed plane holding bit `k + 1` of `L0‖R0`. Block bit `n`
/// (1..=64 from the MSB of the big-endian block) is bit `8·⌊(n−1)/8⌋ + 7 − (n−1) mod 8`
/// of the little-endian `u64`.
const PLANE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        let n = IP[k] - 1;
        t[k] = 8 * (n / 8) + 7 - n % 8;
        k += 1;
    }
    t
};

/// `PLANE_INV[PLANE[k]] == k`: which bit of `L0‖R0` a transposed plane holds.
const PLANE_INV: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[PLANE[k] as usize] = k as u8;
        k += 1;
    }
    t
};

/// An index below 32 (a plane of one half): indexing a `[V; 32]` with it needs no bounds
/// check, and loading it from a run-time table is one `movzx` (a `u8` masked with `& 31`
/// gets SLP-vectorised into two-uop `vpextrb`s on the ports the gates need).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[rustfmt::skip]
pub(crate) enum Ix32 { I0, I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14, I15, I16, I17, I18, I19, I20, I21, I22, I23, I24, I25, I26, I27, I28, I29, I30, I31 }

impl Ix32 {
    /// Every value, in order: `ALL[i] as usize == i`.
    #[rustfmt::skip]
    pub(crate) const ALL: [Ix32; 32] = [Ix32::I0, Ix32::I1, Ix32::I2, Ix32::I3, Ix32::I4, Ix32::I5, Ix32::I6, Ix32::I7, Ix32::I8, Ix32::I9, Ix32::I10, Ix32::I11, Ix32::I12, Ix32::I13, Ix32::I14, Ix32::I15, Ix32::I16, Ix32::I17, Ix32::I18, Ix32::I19, Ix32::I20, Ix32::I21, Ix32::I22, Ix32::I23, Ix32::I24, Ix32::I25, Ix32::I26, Ix32::I27, Ix32::I28, Ix32::I29, Ix32::I30, Ix32::I31];
}

/// An index below 64 (a key-bit plane), as [`Ix32`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[rustfmt::skip]
pub(crate) enum Ix64 { I0, I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14, I15, I16, I17, I18, I19, I20, I21, I22, I23, I24, I25, I26, I27, I28, I29, I30, I31, I32, I33, I34, I35, I36, I37, I38, I39, I40, I41, I42, I43, I44, I45, I46, I47, I48, I49, I50, I51, I52, I53, I54, I55, I56, I57, I58, I59, I60, I61, I62, I63 }

impl Ix64 {
    /// Every value, in order: `ALL[i] as usize == i`.
    #[rustfmt::skip]
    pub(crate) const ALL: [Ix64; 64] = [Ix64::I0, Ix64::I1, Ix64::I2, Ix64::I3, Ix64::I4, Ix64::I5, Ix64::I6, Ix64::I7, Ix64::I8, Ix64::I9, Ix64::I10, Ix64::I11, Ix64::I12, Ix64::I13, Ix64::I14, Ix64::I15, Ix64::I16, Ix64::I17, Ix64::I18, Ix64::I19, Ix64::I20, Ix64::I21, Ix64::I22, Ix64::I23, Ix64::I24, Ix64::I25, Ix64::I26, Ix64::I27, Ix64::I28, Ix64::I29, Ix64::I30, Ix64::I31, Ix64::I32, Ix64::I33, Ix64::I34, Ix64::I35, Ix64::I36, Ix64::I37, Ix64::I38, Ix64::I39, Ix64::I40, Ix64::I41, Ix64::I42, Ix64::I43, Ix64::I44, Ix64::I45, Ix64::I46, Ix64::I47, Ix64::I48, Ix64::I49, Ix64::I50, Ix64::I51, Ix64::I52, Ix64::I53, Ix64::I54, Ix64::I55, Ix64::I56, Ix64::I57, Ix64::I58, Ix64::I59, Ix64::I60, Ix64::I61, Ix64::I62, Ix64::I63];
}

/// The standard E expansion: S-box `i`'s input `j` (`j = 0` is `b1`) is bit `E[6i + j]`
/// of `R` (0-based from the MSB). `des-crypt` swaps entries `k` and `k + 24` per salt bit.
pub(crate) const E: [u8; 48] = {
    let mut t = [0u8; 48];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 6 {
            t[6 * i + j] = ((4 * i + j + 31) % 32) as u8;
            j += 1;
        }
        i += 1;
    }
    t
};

/// [`E`] as [`Ix32`]s.
pub(crate) const E_IX: [Ix32; 48] = {
    let mut t = [Ix32::I0; 48];
    let mut k = 0;
    while k < 48 {
        t[k] = Ix32::ALL[E[k] as usize];
        k += 1;
    }
    t
};

/// `PINV[b]`: where P puts bit `b` (0-based) of the S-box outputs.
const PINV: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut j = 0;
    while j < 32 {
        t[P[j] as usize - 1] = j as u8;
        j += 1;
    }
    t
};

/// Round-key masks: one 0 / all-ones word per S-box input bit, for each round in the
/// order the rounds run.
pub(crate) type Masks = [u32; 48];

/// The masks of one DES pass with round keys `ks`, forwards or backwards.
#[inline]
pub(crate) fn masks(ks: &Ks, dec: bool, out: &mut [Masks]) {
    for (t, m) in out.iter_mut().enumerate().take(16) {
        let r = if dec { 15 - t } else { t };
        let k = u64::from(ks[2 * r]) | (u64::from(ks[2 * r + 1]) << 32);
        for i in 0..8 {
            for j in 0..6 {
                let bit = (k >> key_bit(i, 5 - j as u32)) & 1;
                m[6 * i + j] = (bit as u32).wrapping_neg();
            }
        }
    }
}

/// One round: `l ^= f(r, k)`, where `k(j)` is the round-key plane of S-box input `j`
/// (`6i + j'`, `j' = 0` is `b1`): a splat mask when every lane has the same key
/// ([`des_core`]), a key-bit plane when each lane has its own ([`crypt_batch`]); `e(j)`
/// is the plane of `r` that input reads (E, salted or not).
#[inline(always)]
fn round<V: Gates>(l: &mut [V], r: &[V], k: impl Fn(usize) -> V, e: impl Fn(usize) -> Ix32) {
    let r: &[V; 32] = r.try_into().expect("a half is 32 planes");
    macro_rules! sbox {
        ($i:literal, $f3:path, $f2:path) => {{
            let x: [V; 6] =
                core::array::from_fn(|j| V::xor(r[e(6 * $i + j) as usize], k(6 * $i + j)));
            // The planes of `l` the four outputs go into; the S-box returns them XORed.
            let dst: [usize; 4] = core::array::from_fn(|m| PINV[4 * $i + m] as usize);
            let h = dst.map(|d| l[d]);
            let s = if V::TERNLOG { $f3(&x, h) } else { $f2(&x, h) };
            for m in 0..4 {
                l[dst[m]] = s[m];
            }
        }};
    }
    sbox!(0, sboxes::s1, sboxes::s1_2);
    sbox!(1, sboxes::s2, sboxes::s2_2);
    sbox!(2, sboxes::s3, sboxes::s3_2);
    sbox!(3, sboxes::s4, sboxes::s4_2);
    sbox!(4, sboxes::s5, sboxes::s5_2);
    sbox!(5, sboxes::s6, sboxes::s6_2);
    sbox!(6, sboxes::s7, sboxes::s7_2);
    sbox!(7, sboxes::s8, sboxes::s8_2);
}

/// Runs `$pass!(l, r, p)` for the passes `p` in `0..$n` over the halves `$a` (`L0`) and
/// `$b`: two a turn, `($a, $b)` then `($b, $a)`, so that each half is at one place in
/// every round (a run-time pass parity choosing `l` and `r` made every plane address in
/// every round depend on it), and a last one alone when `$n` is odd. `$pass` is a macro,
/// not a closure: a closure is a function of its own, compiled without the caller's
/// target features unless inlined.
macro_rules! in_pairs {
    ($n:expr, $a:ident, $b:ident, $pass:ident) => {
        for p in 0..$n / 2 {
            $pass!($a, $b, 2 * p);
            $pass!($b, $a, 2 * p + 1);
        }
        if $n % 2 == 1 {
            $pass!($a, $b, $n - 1);
        }
    };
}

/// `passes` DES passes on the state `st` (`L0‖R0` planes): pass `p` uses the 16 masks
/// at `masks[16·(p mod masks.len()/16)..]`; the halves swap between passes (FP of one
/// pass and IP of the next cancel). Ends with the `L16` of the last pass in the half
/// that held `L0` when `passes` is odd.
#[inline(always)]
pub(crate) fn des_core<V: Gates>(st: &mut [V; 64], masks: &[Masks], passes: usize, e: &[Ix32; 48]) {
    let keys = masks.len() / 16;
    macro_rules! pass {
        ($l:expr, $r:expr, $p:expr) => {
            let m = &masks[16 * ($p % keys)..16 * ($p % keys) + 16];
            for t in 0..8 {
                round($l, $r, |j| V::splat(m[2 * t][j]), |j| e[j]);
                round($r, $l, |j| V::splat(m[2 * t + 1][j]), |j| e[j]);
            }
        };
    }
    let (a, b) = st.split_at_mut(32);
    in_pairs!(passes, a, b, pass);
}

/// Encrypts (or decrypts: the masks decide) the `64 · LANES` blocks of `buf` with
/// `passes` (1 or 3) DES passes, through the standard E. In place or not: every block
/// is loaded before any is stored, so the input needs no copy.
#[inline(always)]
pub(crate) fn batch<V: Gates>(mut buf: InOutBuf<'_, '_, Block>, masks: &[Masks], passes: usize) {
    let w = V::LANES;
    debug_assert!(passes % 2 == 1 && buf.len() == 64 * w);
    let mut tmp = [V::zero(); 64];
    let mut st = [V::zero(); 64];
    {
        let inp = buf.get_in();
        transpose_with(
            |j| V::load(&inp[w * j..w * j + w]),
            &mut tmp,
            |j, v| st[PLANE_INV[j] as usize] = v,
        );
    }
    des_core(&mut st, masks, passes, &E_IX);
    // The pre-output is R16‖L16: the halves trade places, and FP undoes IP.
    let out = buf.get_out();
    transpose_with(
        |j| st[(PLANE_INV[j] as usize + 32) % 64],
        &mut tmp,
        |j, v| v.store(&mut out[w * j..w * j + w]),
    );
}

/// `CD_PLANE[q]`: the key plane (bit of the key loaded as a little-endian `u64`) that
/// PC-1 puts at bit `q` of `C‖D` (0 = MSB of the 56).
const CD_PLANE: [Ix64; 56] = {
    let mut t = [Ix64::I0; 56];
    let mut n = 0;
    while n < 64 {
        // Big-endian key bit `n` (0 = LSB) through PC-1 to bit `q` of `C‖D`.
        let cd = super::soft::pc1(1u64 << n) >> 8;
        if cd != 0 {
            // Plane of big-endian bit `n`: byte `7 - n/8` of the block, bit `n % 8`.
            t[55 - cd.trailing_zeros() as usize] = Ix64::ALL[(8 * (7 - n / 8) + n % 8) as usize];
        }
        n += 1;
    }
    t
};

/// Planes of `C‖C‖D‖D` in [`crypt_batch`]'s key array: each 28-bit half twice, so that
/// its left rotation by `s` is the window starting `s` planes further on.
const KEY_WINDOW: usize = 112;

/// `KEY_AT[j]`: where the key bit of S-box input `j` (`6i + j'`, `j' = 0` is `b1`), PC-2
/// output `j`, sits in the key array before any rotation; round `r` reads it at
/// `KEY_AT[j] + ROT[r]`. In bitsliced DES the key schedule is a renaming of key-bit
/// planes (Biham, "A Fast New DES Implementation in Software", FSE 1997); the doubled
/// halves make that renaming one offset per round plus constant displacements, so no
/// per-bit index is loaded.
const KEY_AT: [u8; 48] = {
    let mut t = [0u8; 48];
    let mut j = 0;
    while j < 48 {
        let b = super::soft::PC2[j]; // 1..=56
        t[j] = if b <= 28 { b - 1 } else { b - 29 + 56 };
        j += 1;
    }
    t
};

/// `ROT[r]`: the left rotation of `C` and `D` in round `r` (the sum of the shifts so far).
const ROT: [u8; 16] = {
    let mut t = [0u8; 16];
    let (mut r, mut s) = (0, 0);
    while r < 16 {
        s += super::soft::SHIFTS[r];
        t[r] = s as u8;
        r += 1;
    }
    t
};

/// The plane at index `i` of the `C‖C‖D‖D` key array.
const fn window_plane(i: usize) -> Ix64 {
    CD_PLANE[28 * (i / 56) + i % 28]
}

/// The plane round `r` uses for S-box input `j`, through [`KEY_AT`], [`ROT`] and the
/// doubled halves ([`KEY_WINDOW`]).
#[cfg(test)]
const fn key_plane(r: usize, j: usize) -> Ix64 {
    window_plane(KEY_AT[j] as usize + ROT[r] as usize)
}

/// The E table with the `crypt(3)` salt applied: entries `k` and `k + 24` swapped for
/// every set bit `k` of the 24-bit `salt`.
#[inline(always)]
fn salted_e(salt: u32) -> [Ix32; 48] {
    let mut e = E_IX;
    for k in 0..24 {
        if (salt >> k) & 1 == 1 {
            e.swap(k, k + 24);
        }
    }
    e
}

/// `count` DES encryptions of the all-zero block with the E table salted by `salt` under `64 ·
/// LANES` keys at once, one per lane (`keys[i]` as loaded from its bytes, the layout of
/// [`batch`]), each result as the 11 characters of its `crypt(3)` hash: `out[i]` holds
/// bytes 0..8 of key `i`'s 16 (the characters, then zeros) and `out[64 · LANES + i]`
/// bytes 8..16. The key-bit planes are transposed once and laid out as `C‖C‖D‖D`;
/// round `r` reads them from [`ROT`]`[r]` on, displaced by [`KEY_AT`]. The 25 (or
/// `count`) passes and the encoding ([`crypt_char`]) never leave the bitsliced domain.
#[inline(always)]
pub(crate) fn crypt_batch<V: Gates>(keys: &[Block], out: &mut [Block], salt: u32, count: u32) {
    let w = V::LANES;
    debug_assert!(keys.len() == 64 * w && out.len() == 128 * w);
    // Made here, in this frame: every round loads its 48 indices, and as a caller's
    // array at a caller-dependent distance from the state the batch ran up to 1.35×
    // slower on the Intel machine (likely 4K aliasing with the state's stores).
    let e = &salted_e(salt);
    let mut kp: [V; 64] = core::array::from_fn(|j| V::load(&keys[w * j..w * j + w]));
    transpose(&mut kp);
    let kk: [V; KEY_WINDOW] = core::array::from_fn(|i| kp[window_plane(i) as usize]);
    // Round `r`'s key: the 84 planes from `ROT[r]` on, read at the constant `KEY_AT`.
    let key = |r: usize| -> &[V; 84] {
        kk[ROT[r] as usize..]
            .first_chunk()
            .expect("ROT ≤ 28 leaves 84 planes")
    };
    let mut st: [V; 64] = [V::zero(); 64];
    // A traditional salt has 12 bits: the other 24 E entries are then constants, read at
    // fixed places instead of through the table. With the halves also at fixed places
    // (`crypt_passes`), two rounds of the AVX-512 loop went from 995 instructions to
    // 875 (their scalar address work from 94 `mov` and 56 `lea` to about 40 `mov`), and
    // the batch from 44.3 to 41.5 ns a hash on the Intel machine; a 24-bit (BSDi) salt
    // stays at 44.
    if salt >> 12 == 0 {
        crypt_passes::<V, 12>(&mut st, key, e, count);
    } else {
        crypt_passes::<V, 24>(&mut st, key, e, count);
    }
    // The pre-output is R16‖L16 of the last pass: the half that was `r` comes first.
    // `x[p]`: bit `p` of each lane's DES output, read as a little-endian `u64`.
    let off = if count % 2 == 1 { 32 } else { 0 };
    let mut x = [V::zero(); 64];
    for k in 0..64 {
        x[PLANE[k] as usize] = st[(k + off) % 64];
    }
    // The 11 characters, still bitsliced: byte `c` of each lane's 16 output bytes.
    let (mut text, mut tmp) = ([[V::zero(); 64]; 2], [V::zero(); 64]);
    macro_rules! encode {
        ($($c:literal)*) => {$({
            let six: [V; 6] = core::array::from_fn(|t| match TEXT_BITS[$c][t] {
                64 => V::zero(),
                p => x[p as usize],
            });
            let at = 8 * ($c % 8);
            text[$c / 8][at..at + 7].copy_from_slice(&crypt_char(six));
        })*};
    }
    // Written out, so that every plane index is a constant.
    encode!(0 1 2 3 4 5 6 7 8 9 10);
    for (h, half) in text.iter().enumerate() {
        let out = &mut out[64 * w * h..];
        transpose_with(
            |j| half[j],
            &mut tmp,
            |j, v| v.store(&mut out[w * j..w * j + w]),
        );
    }
}

/// [`crypt_batch`]'s `count` passes from the zero state `st`, round `r`'s key planes
/// from `key(r)`, the E entries `k` with `k mod 24 < SALTED` read from the salted table
/// `e` and the others from [`E_IX`] (which the salt leaves alone).
#[inline(always)]
fn crypt_passes<'k, V: Gates + 'k, const SALTED: usize>(
    st: &mut [V; 64],
    key: impl Fn(usize) -> &'k [V; 84],
    e: &[Ix32; 48],
    count: u32,
) {
    let e = |j: usize| if j % 24 < SALTED { e[j] } else { E_IX[j] };
    macro_rules! pass {
        ($l:expr, $r:expr, $p:expr) => {
            let _ = $p; // Every pass has the same round keys.
            for t in 0..8 {
                let (k0, k1) = (key(2 * t), key(2 * t + 1));
                round($l, $r, |j| k0[KEY_AT[j] as usize], e);
                round($r, $l, |j| k1[KEY_AT[j] as usize], e);
            }
        };
    }
    let (a, b) = st.split_at_mut(32);
    in_pairs!(count, a, b, pass);
}

/// `TEXT_BITS[c][t]`: the plane of [`crypt_batch`]'s output (bit `p` of the result read
/// as a little-endian `u64`) that is bit `t` of `crypt(3)` character `c`: the result's
/// bits read big-endian, 6 at a time from the top; 64 for the two zero bits below the
/// last 4.
const TEXT_BITS: [[u8; 6]; 11] = {
    let mut t = [[64u8; 6]; 11];
    let mut c: usize = 0;
    while c < 11 {
        let mut b: usize = 0;
        while b < 6 {
            // Bit `m` of the big-endian reading, if it exists.
            let m = if c < 10 {
                58 - 6 * c + b
            } else {
                b.wrapping_sub(2)
            };
            if m < 64 {
                t[c][b] = (8 * (7 - m / 8) + m % 8) as u8;
            }
            b += 1;
        }
        c += 1;
    }
    t
};

/// The `crypt(3)` alphabet character (`./0-9A-Za-z`) of each lane's 6-bit value `a`
/// (planes, least significant first) as 7 planes of its ASCII code: `a + 46` below 12,
/// `a + 53` below 38, else `a + 59`; the sum by a ripple-carry adder. About 40 logic
/// operations for every lane of the batch at once.
#[inline(always)]
fn crypt_char<V: Gates>(a: [V; 6]) -> [V; 7] {
    let from12 = V::or(a[5], V::or(a[4], V::and(a[3], a[2])));
    let from38 = V::and(a[5], V::or(a[4], V::or(a[3], V::and(a[2], a[1]))));
    // 12..=37: the upper-case letters.
    let upper = V::andnot(from38, from12);
    let not = |v| V::xor(v, V::ones());
    // 46 = 0b0101110, 53 = 0b0110101, 59 = 0b0111011, least significant bit first.
    let k = [
        from12,
        not(upper),
        not(from38),
        not(upper),
        from12,
        V::ones(),
        V::zero(),
    ];
    let mut sum = [V::zero(); 7];
    let mut carry = V::zero();
    for i in 0..7 {
        let ai = if i < 6 { a[i] } else { V::zero() };
        let half = V::xor(ai, k[i]);
        sum[i] = V::xor(half, carry);
        carry = V::or(V::and(ai, k[i]), V::and(half, carry));
    }
    sum
}

#[cfg(test)]
mod tests {
    //! The generic code on plain `u64`s (one lane, 64 blocks): checks the transpose,
    //! the plane renamings and both S-box networks without any SIMD.
    use super::*;
    use crate::backends::soft;
    use std::{vec, vec::Vec};

    #[derive(Clone, Copy)]
    struct W<const T: bool>(u64);

    impl<const T: bool> Gates for W<T> {
        const LANES: usize = 1;
        const TERNLOG: bool = T;
        fn zero() -> Self {
            W(0)
        }
        fn ones() -> Self {
            W(!0)
        }
        fn and(a: Self, b: Self) -> Self {
            W(a.0 & b.0)
        }
        fn or(a: Self, b: Self) -> Self {
            W(a.0 | b.0)
        }
        fn xor(a: Self, b: Self) -> Self {
            W(a.0 ^ b.0)
        }
        fn andnot(a: Self, b: Self) -> Self {
            W(!a.0 & b.0)
        }
        // Out of line: unrolled into each of the networks' thousands of gates, this
        // loop made the test build take 1½ minutes of `rustc` (2 MB of code).
        #[inline(never)]
        fn tl<const IMM: i32>(a: Self, b: Self, c: Self) -> Self {
            let mut r = 0;
            for bit in 0..64 {
                let idx = ((a.0 >> bit) & 1) << 2 | ((b.0 >> bit) & 1) << 1 | ((c.0 >> bit) & 1);
                r |= (((IMM as u64) >> idx) & 1) << bit;
            }
            W(r)
        }
        fn splat(m: u32) -> Self {
            W(u64::from(m) | u64::from(m) << 32)
        }
        fn splat64(m: u64) -> Self {
            W(m)
        }
        fn shr<const S: u32>(a: Self) -> Self {
            W(a.0 >> S)
        }
        fn shl<const S: u32>(a: Self) -> Self {
            W(a.0 << S)
        }
        fn load(b: &[Block]) -> Self {
            W(u64::from_le_bytes(b[0].into()))
        }
        fn store(self, b: &mut [Block]) {
            b[0] = self.0.to_le_bytes().into();
        }
    }

    fn check<const T: bool>() {
        let mut rng = testkit::Rng::new(7);
        for _ in 0..4 {
            let ks: [Ks; 3] = core::array::from_fn(|_| {
                soft::key_schedule(u64::from_le_bytes(rng.bytes(8).try_into().unwrap()))
            });
            let inp: Vec<Block> = (0..64)
                .map(|_| Block::try_from(&rng.bytes(8)[..]).unwrap())
                .collect();
            for passes in [
                [(0, false), (1, true), (2, false)],
                [(2, true), (1, false), (0, true)],
            ] {
                let mut m = [[0u32; 48]; 48];
                for (p, &(k, dec)) in passes.iter().enumerate() {
                    masks(&ks[k], dec, &mut m[16 * p..16 * p + 16]);
                }
                let mut out = vec![Block::default(); 64];
                batch::<W<T>>(InOutBuf::new(&inp, &mut out).unwrap(), &m, 3);
                for (i, o) in inp.iter().zip(&out) {
                    let x = u64::from_le_bytes((*i).into());
                    let [y] = soft::crypt_n(&ks, &passes, [x]);
                    assert_eq!(u64::from_le_bytes((*o).into()), y);
                }
                let mut out1 = vec![Block::default(); 64];
                batch::<W<T>>(InOutBuf::new(&inp, &mut out1).unwrap(), &m[..16], 1);
                for (i, o) in inp.iter().zip(&out1) {
                    let x = u64::from_le_bytes((*i).into());
                    let [y] = soft::crypt_n(&ks, &[passes[0]], [x]);
                    assert_eq!(u64::from_le_bytes((*o).into()), y);
                }
            }
        }
    }

    /// [`key_plane`] (the windows [`crypt_batch`] reads) against the table key schedule:
    /// the renaming gives the same masks.
    #[test]
    fn key_planes_match_key_schedule() {
        let mut rng = testkit::Rng::new(11);
        for _ in 0..16 {
            let kb: [u8; 8] = rng.bytes(8).try_into().unwrap();
            let ks = soft::key_schedule(u64::from_be_bytes(kb));
            let mut m = [[0u32; 48]; 16];
            masks(&ks, false, &mut m);
            let le = u64::from_le_bytes(kb);
            for (r, mr) in m.iter().enumerate() {
                for (j, &mask) in mr.iter().enumerate() {
                    let bit = (le >> key_plane(r, j) as u8) & 1;
                    assert_eq!(mask, (bit as u32).wrapping_neg(), "round {r} bit {j}");
                }
            }
        }
    }

    /// [`crypt_batch`] against `soft` DES of the zero block, encoded with the `crypt(3)`
    /// alphabet: 0..=3, 24 and 25 passes (the passes run in pairs, then one alone), 12-
    /// and 24-bit salts (the 12-bit ones read half of E as constants), both networks.
    #[test]
    fn crypt_batch_matches_soft() {
        const ALPHABET: &[u8; 64] =
            b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut rng = testkit::Rng::new(12);
        let keys: Vec<Block> = (0..64)
            .map(|_| Block::try_from(&rng.bytes(8)[..]).unwrap())
            .collect();
        for (count, salt) in [
            (0, 0x5A5),
            (1, 0),
            (2, 0x5A5),
            (3, 0xFF_FFFF),
            (24, 0xABC_DEF),
            (25, 0x9E6),
        ] {
            let mut out = [vec![Block::default(); 128], vec![Block::default(); 128]];
            crypt_batch::<W<true>>(&keys, &mut out[0], salt, count);
            crypt_batch::<W<false>>(&keys, &mut out[1], salt, count);
            for (i, k) in keys.iter().enumerate() {
                let ks = soft::key_schedule(u64::from_be_bytes((*k).into()));
                // The block's bytes read big-endian, as `crypt(3)` encodes them.
                let v = soft::crypt_salted(&ks, salt, count, false, 0).swap_bytes();
                let mut want = [0u8; 16];
                for (c, w) in want[..11].iter_mut().enumerate() {
                    let six = if c < 10 { v >> (58 - 6 * c) } else { v << 2 };
                    *w = ALPHABET[(six & 63) as usize];
                }
                for o in &out {
                    let mut got = [0u8; 16];
                    got[..8].copy_from_slice(&o[i]);
                    got[8..].copy_from_slice(&o[64 + i]);
                    assert_eq!(got, want, "count {count}, salt {salt:#x}, key {i}");
                }
            }
        }
    }

    /// Every recorded circuit (`tools/sboxes/circuits.txt`) computes its S-box on all 64
    /// inputs, and `sboxes.rs` is exactly what the emitter makes of them: the search's
    /// output, the DES tables and the compiled networks cannot drift apart.
    #[test]
    fn sboxes_are_the_recorded_circuits() {
        let desc = include_str!("../../tools/sboxes/circuits.txt");
        let cs = circuits::parse_desc(desc).expect("well-formed circuits.txt");
        assert_eq!(cs.len(), 16, "one lut3 and one gate2 circuit per S-box");
        for c in &cs {
            if let Err(e) = c.check(&soft::SBOXES[c.sbox - 1]) {
                panic!("{e}");
            }
        }
        // Every output the round folds into its XOR with the left half: the folded gate
        // over (l, a, b) is `l ^ output` on all 64 inputs, for `l` all zeros and all ones.
        for c in cs.iter().filter(|c| c.kind == circuits::Kind::Lut3) {
            let (t, outs) = (c.tables(), c.outputs());
            for (m, f) in c.fused_outs().into_iter().enumerate() {
                if let Some((imm, a, b)) = f {
                    let (a, b) = (t[usize::from(a)], t[usize::from(b)]);
                    for l in [0, !0] {
                        let got = circuits::Op::Lut(imm).apply(l, a, b);
                        assert_eq!(got, l ^ outs[m], "S{} output {m} folded", c.sbox);
                    }
                }
            }
        }
        let want = circuits::emit(&cs).expect("one circuit of each kind per S-box");
        assert!(
            want == include_str!("bitslice/sboxes.rs"),
            "src/backends/bitslice/sboxes.rs is not the emitter's output: regenerate it \
             (tools/sboxes/README.md)"
        );
    }

    /// The exhaustive check itself catches a wrong gate.
    #[test]
    fn circuit_check_rejects_a_wrong_gate() {
        let desc = include_str!("../../tools/sboxes/circuits.txt");
        let mut cs = circuits::parse_desc(desc).unwrap();
        for c in &mut cs {
            let mut swapped = c.clone();
            swapped.outs.swap(0, 1);
            assert!(
                swapped.check(&soft::SBOXES[c.sbox - 1]).is_err(),
                "S{}",
                c.sbox
            );
            // The last gate feeds an output (the circuits hold no dead gates).
            let last = c.gates.len() - 1;
            if let circuits::Op::Lut(imm) = c.gates[last].op {
                c.gates[last].op = circuits::Op::Lut(!imm);
                assert!(c.check(&soft::SBOXES[c.sbox - 1]).is_err(), "S{}", c.sbox);
            }
        }
    }

    #[test]
    fn bitsliced_ternlog_network_matches_soft() {
        check::<true>();
    }

    #[test]
    fn bitsliced_two_input_network_matches_soft() {
        check::<false>();
    }
}
