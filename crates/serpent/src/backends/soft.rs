//! Portable bitsliced Serpent, one block at a time, and the round code every backend
//! shares.
//!
//! Serpent's 32 four-bit S-boxes of a round are applied "bitsliced": the four 32-bit words
//! of a block are the four bit planes, so one S-box is a short network of word-wide AND, OR,
//! XOR and NOT. The networks are Dag Arne Osvik's ("Speeding up Serpent", Third AES
//! Candidate Conference, 2000, <https://www.ii.uib.no/~osvik/pub/aes3.pdf>), as used by
//! RustCrypto's `serpent` 0.6.0 and the Linux kernel's `serpent_generic.c`.
//!
//! [`serpent_sboxes!`] and [`serpent_rounds!`] write the S-boxes, the linear transformation
//! and the 32 rounds once, over a word type `W` and the functions `and`, `or`, `xor`, `not`, `rol::<L, R>`
//! (rotate left by `L` = right by `R`), `shl::<S>` and `splat` that the expanding module
//! defines: here `W = u32` (one block), in `avx2.rs` a `ymm` (eight blocks, one 32-bit word
//! of each per lane: "word-sliced"), in `avx512.rs` a `zmm` (sixteen blocks).
//!
//! Constant time: only bitwise operations, shifts and rotations by constants; no table, no
//! branch or index that depends on data or key (the key schedule uses the same S-boxes).

#![forbid(unsafe_code)]

use super::RoundKeys;
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, ParBlocksSizeUser,
    consts::{U1, U16},
    inout::InOut,
};

/// Writes Osvik's S-box networks (`sbox_e0`…`sbox_e7` and the inverses `sbox_d0`…`sbox_d7`)
/// for the word type `W` of the expanding module, with the attributes given (e.g.
/// `#[inline] #[target_feature(enable = "avx2")]`) on every function.
macro_rules! serpent_sboxes {
    ($(#[$m:meta])*) => {
        $(#[$m])*
        fn sbox_e0([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w4 = xor(w4, w1);
            let mut t0 = w2;
            w2 = and(w2, w4);
            t0 = xor(t0, w3);
            w2 = xor(w2, w1);
            w1 = or(w1, w4);
            w1 = xor(w1, t0);
            t0 = xor(t0, w4);
            w4 = xor(w4, w3);
            w3 = or(w3, w2);
            w3 = xor(w3, t0);
            t0 = not(t0);
            t0 = or(t0, w2);
            w2 = xor(w2, w4);
            w2 = xor(w2, t0);
            w4 = or(w4, w1);
            w2 = xor(w2, w4);
            t0 = xor(t0, w4);
            [w2, t0, w3, w1]
        }

        $(#[$m])*
        fn sbox_e1([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w1 = not(w1);
            w3 = not(w3);
            let mut t0 = w1;
            w1 = and(w1, w2);
            w3 = xor(w3, w1);
            w1 = or(w1, w4);
            w4 = xor(w4, w3);
            w2 = xor(w2, w1);
            w1 = xor(w1, t0);
            t0 = or(t0, w2);
            w2 = xor(w2, w4);
            w3 = or(w3, w1);
            w3 = and(w3, t0);
            w1 = xor(w1, w2);
            w2 = and(w2, w3);
            w2 = xor(w2, w1);
            w1 = and(w1, w3);
            t0 = xor(t0, w1);
            [w3, t0, w4, w2]
        }

        $(#[$m])*
        fn sbox_e2([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w1;
            w1 = and(w1, w3);
            w1 = xor(w1, w4);
            w3 = xor(w3, w2);
            w3 = xor(w3, w1);
            w4 = or(w4, t0);
            w4 = xor(w4, w2);
            t0 = xor(t0, w3);
            w2 = w4;
            w4 = or(w4, t0);
            w4 = xor(w4, w1);
            w1 = and(w1, w2);
            t0 = xor(t0, w1);
            w2 = xor(w2, w4);
            w2 = xor(w2, t0);
            t0 = not(t0);
            [w3, w4, w2, t0]
        }

        $(#[$m])*
        fn sbox_e3([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w1;
            w1 = or(w1, w4);
            w4 = xor(w4, w2);
            w2 = and(w2, t0);
            t0 = xor(t0, w3);
            w3 = xor(w3, w4);
            w4 = and(w4, w1);
            t0 = or(t0, w2);
            w4 = xor(w4, t0);
            w1 = xor(w1, w2);
            t0 = and(t0, w1);
            w2 = xor(w2, w4);
            t0 = xor(t0, w3);
            w2 = or(w2, w1);
            w2 = xor(w2, w3);
            w1 = xor(w1, w4);
            w3 = w2;
            w2 = or(w2, w4);
            w1 = xor(w1, w2);
            [w1, w3, w4, t0]
        }

        $(#[$m])*
        fn sbox_e4([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w2 = xor(w2, w4);
            w4 = not(w4);
            w3 = xor(w3, w4);
            w4 = xor(w4, w1);
            let mut t0 = w2;
            w2 = and(w2, w4);
            w2 = xor(w2, w3);
            t0 = xor(t0, w4);
            w1 = xor(w1, t0);
            w3 = and(w3, t0);
            w3 = xor(w3, w1);
            w1 = and(w1, w2);
            w4 = xor(w4, w1);
            t0 = or(t0, w2);
            t0 = xor(t0, w1);
            w1 = or(w1, w4);
            w1 = xor(w1, w3);
            w3 = and(w3, w4);
            w1 = not(w1);
            t0 = xor(t0, w3);
            [w2, t0, w1, w4]
        }

        $(#[$m])*
        fn sbox_e5([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w1 = xor(w1, w2);
            w2 = xor(w2, w4);
            w4 = not(w4);
            let mut t0 = w2;
            w2 = and(w2, w1);
            w3 = xor(w3, w4);
            w2 = xor(w2, w3);
            w3 = or(w3, t0);
            t0 = xor(t0, w4);
            w4 = and(w4, w2);
            w4 = xor(w4, w1);
            t0 = xor(t0, w2);
            t0 = xor(t0, w3);
            w3 = xor(w3, w1);
            w1 = and(w1, w4);
            w3 = not(w3);
            w1 = xor(w1, t0);
            t0 = or(t0, w4);
            t0 = xor(t0, w3);
            w3 = w1;
            w1 = w2;
            w2 = w4;
            w4 = t0;
            [w1, w2, w3, w4]
        }

        $(#[$m])*
        fn sbox_e6([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w3 = not(w3);
            let mut t0 = w4;
            w4 = and(w4, w1);
            w1 = xor(w1, t0);
            w4 = xor(w4, w3);
            w3 = or(w3, t0);
            w2 = xor(w2, w4);
            w3 = xor(w3, w1);
            w1 = or(w1, w2);
            w3 = xor(w3, w2);
            t0 = xor(t0, w1);
            w1 = or(w1, w4);
            w1 = xor(w1, w3);
            t0 = xor(t0, w4);
            t0 = xor(t0, w1);
            w4 = not(w4);
            w3 = and(w3, t0);
            w4 = xor(w4, w3);
            w3 = t0;
            [w1, w2, w3, w4]
        }

        $(#[$m])*
        fn sbox_e7([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w2;
            w2 = or(w2, w3);
            w2 = xor(w2, w4);
            t0 = xor(t0, w3);
            w3 = xor(w3, w2);
            w4 = or(w4, t0);
            w4 = and(w4, w1);
            t0 = xor(t0, w3);
            w4 = xor(w4, w2);
            w2 = or(w2, t0);
            w2 = xor(w2, w1);
            w1 = or(w1, t0);
            w1 = xor(w1, w3);
            w2 = xor(w2, t0);
            w3 = xor(w3, w2);
            w2 = and(w2, w1);
            w2 = xor(w2, t0);
            w3 = not(w3);
            w3 = or(w3, w1);
            t0 = xor(t0, w3);
            [t0, w4, w2, w1]
        }

        $(#[$m])*
        fn sbox_d0([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w3 = not(w3);
            let mut t0 = w2;
            w2 = or(w2, w1);
            t0 = not(t0);
            w2 = xor(w2, w3);
            w3 = or(w3, t0);
            w2 = xor(w2, w4);
            w1 = xor(w1, t0);
            w3 = xor(w3, w1);
            w1 = and(w1, w4);
            t0 = xor(t0, w1);
            w1 = or(w1, w2);
            w1 = xor(w1, w3);
            w4 = xor(w4, t0);
            w3 = xor(w3, w2);
            w4 = xor(w4, w1);
            w4 = xor(w4, w2);
            w3 = and(w3, w4);
            t0 = xor(t0, w3);
            [w1, t0, w2, w4]
        }

        $(#[$m])*
        fn sbox_d1([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w2;
            w2 = xor(w2, w4);
            w4 = and(w4, w2);
            t0 = xor(t0, w3);
            w4 = xor(w4, w1);
            w1 = or(w1, w2);
            w3 = xor(w3, w4);
            w1 = xor(w1, t0);
            w1 = or(w1, w3);
            w2 = xor(w2, w4);
            w1 = xor(w1, w2);
            w2 = or(w2, w4);
            w2 = xor(w2, w1);
            t0 = not(t0);
            t0 = xor(t0, w2);
            w2 = or(w2, w1);
            w2 = xor(w2, w1);
            w2 = or(w2, t0);
            w4 = xor(w4, w2);
            [t0, w1, w4, w3]
        }

        $(#[$m])*
        fn sbox_d2([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w3 = xor(w3, w4);
            w4 = xor(w4, w1);
            let mut t0 = w4;
            w4 = and(w4, w3);
            w4 = xor(w4, w2);
            w2 = or(w2, w3);
            w2 = xor(w2, t0);
            t0 = and(t0, w4);
            w3 = xor(w3, w4);
            t0 = and(t0, w1);
            t0 = xor(t0, w3);
            w3 = and(w3, w2);
            w3 = or(w3, w1);
            w4 = not(w4);
            w3 = xor(w3, w4);
            w1 = xor(w1, w4);
            w1 = and(w1, w2);
            w4 = xor(w4, t0);
            w4 = xor(w4, w1);
            [w2, t0, w3, w4]
        }

        $(#[$m])*
        fn sbox_d3([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w3;
            w3 = xor(w3, w2);
            w1 = xor(w1, w3);
            t0 = and(t0, w3);
            t0 = xor(t0, w1);
            w1 = and(w1, w2);
            w2 = xor(w2, w4);
            w4 = or(w4, t0);
            w3 = xor(w3, w4);
            w1 = xor(w1, w4);
            w2 = xor(w2, t0);
            w4 = and(w4, w3);
            w4 = xor(w4, w2);
            w2 = xor(w2, w1);
            w2 = or(w2, w3);
            w1 = xor(w1, w4);
            w2 = xor(w2, t0);
            w1 = xor(w1, w2);
            [w3, w2, w4, w1]
        }

        $(#[$m])*
        fn sbox_d4([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w3;
            w3 = and(w3, w4);
            w3 = xor(w3, w2);
            w2 = or(w2, w4);
            w2 = and(w2, w1);
            t0 = xor(t0, w3);
            t0 = xor(t0, w2);
            w2 = and(w2, w3);
            w1 = not(w1);
            w4 = xor(w4, t0);
            w2 = xor(w2, w4);
            w4 = and(w4, w1);
            w4 = xor(w4, w3);
            w1 = xor(w1, w2);
            w3 = and(w3, w1);
            w4 = xor(w4, w1);
            w3 = xor(w3, t0);
            w3 = or(w3, w4);
            w4 = xor(w4, w1);
            w3 = xor(w3, w2);
            [w1, w4, w3, t0]
        }

        $(#[$m])*
        fn sbox_d5([w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w2 = not(w2);
            let mut t0 = w4;
            w3 = xor(w3, w2);
            w4 = or(w4, w1);
            w4 = xor(w4, w3);
            w3 = or(w3, w2);
            w3 = and(w3, w1);
            t0 = xor(t0, w4);
            w3 = xor(w3, t0);
            t0 = or(t0, w1);
            t0 = xor(t0, w2);
            w2 = and(w2, w3);
            w2 = xor(w2, w4);
            t0 = xor(t0, w3);
            w4 = and(w4, t0);
            t0 = xor(t0, w2);
            w4 = xor(w4, t0);
            t0 = not(t0);
            w4 = xor(w4, w1);
            [w2, t0, w4, w3]
        }

        $(#[$m])*
        fn sbox_d6([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            w1 = xor(w1, w3);
            let mut t0 = w3;
            w3 = and(w3, w1);
            t0 = xor(t0, w4);
            w3 = not(w3);
            w4 = xor(w4, w2);
            w3 = xor(w3, w4);
            t0 = or(t0, w1);
            w1 = xor(w1, w3);
            w4 = xor(w4, t0);
            t0 = xor(t0, w2);
            w2 = and(w2, w4);
            w2 = xor(w2, w1);
            w1 = xor(w1, w4);
            w1 = or(w1, w3);
            w4 = xor(w4, w2);
            t0 = xor(t0, w1);
            [w2, w3, t0, w4]
        }

        $(#[$m])*
        fn sbox_d7([mut w1, mut w2, mut w3, mut w4]: [W; 4]) -> [W; 4] {
            let mut t0 = w3;
            w3 = xor(w3, w1);
            w1 = and(w1, w4);
            t0 = or(t0, w4);
            w3 = not(w3);
            w4 = xor(w4, w2);
            w2 = or(w2, w1);
            w1 = xor(w1, w3);
            w3 = and(w3, t0);
            w4 = and(w4, t0);
            w2 = xor(w2, w3);
            w3 = xor(w3, w1);
            w1 = or(w1, w3);
            t0 = xor(t0, w2);
            w1 = xor(w1, w4);
            w4 = xor(w4, t0);
            t0 = or(t0, w1);
            w4 = xor(w4, w3);
            t0 = xor(t0, w3);
            [w4, w1, w2, t0]
        }

    };
}

/// Writes the Serpent rounds for the word type `W` of the expanding module (which also
/// provides the S-boxes, e.g. by [`serpent_sboxes!`]), with the attributes given on every
/// function.
///
/// Defines `encrypt_n::<N>` and `decrypt_n::<N>`: `N` independent states of four words,
/// run through the rounds side by side so that their instructions interleave.
macro_rules! serpent_rounds {
    ($(#[$m:meta])*) => {
        /// The inverse of Serpent's linear transformation.
        $(#[$m])*
        fn lt_inv([mut x0, mut x1, mut x2, mut x3]: [W; 4]) -> [W; 4] {
            x2 = rol::<10, 22>(x2);
            x0 = rol::<27, 5>(x0);
            x2 = xor(xor(x2, x3), shl::<7>(x1));
            x0 = xor(xor(x0, x1), x3);
            x3 = rol::<25, 7>(x3);
            x1 = rol::<31, 1>(x1);
            x3 = xor(xor(x3, x2), shl::<3>(x0));
            x1 = xor(xor(x1, x0), x2);
            x2 = rol::<29, 3>(x2);
            x0 = rol::<19, 13>(x0);
            [x0, x1, x2, x3]
        }

        /// The linear transformation followed by the XOR of the next round key `k`, with the
        /// key XORs of words 0 and 2 moved ahead of their final rotations
        /// (`rol(a, r) ^ k = rol(a ^ ror(k, r), r)`), where they are off the critical path:
        /// one instruction less of latency per round for the one-block code.
        $(#[$m])*
        fn lt_kx<const N: usize>(x: &mut [[W; 4]; N], k: &[u32; 4]) {
            let (k0, k1) = (splat(k[0].rotate_right(5)), splat(k[1]));
            let (k2, k3) = (splat(k[2].rotate_right(22)), splat(k[3]));
            for s in x.iter_mut() {
                let [mut x0, mut x1, mut x2, mut x3] = *s;
                x0 = rol::<13, 19>(x0);
                x2 = rol::<3, 29>(x2);
                x1 = xor(xor(x1, x0), x2);
                x3 = xor(xor(x3, x2), shl::<3>(x0));
                x1 = rol::<1, 31>(x1);
                x3 = rol::<7, 25>(x3);
                let (x0k, x2k) = (xor(x0, k0), xor(x2, k2));
                x0 = xor(xor(x0k, x1), x3);
                x2 = xor(xor(x2k, x3), shl::<7>(x1));
                x0 = rol::<5, 27>(x0);
                x2 = rol::<22, 10>(x2);
                *s = [x0, xor(x1, k1), x2, xor(x3, k3)];
            }
        }

        /// XORs round key `k` into every state.
        $(#[$m])*
        fn kx<const N: usize>(x: &mut [[W; 4]; N], k: &[u32; 4]) {
            let k = [splat(k[0]), splat(k[1]), splat(k[2]), splat(k[3])];
            for s in x.iter_mut() {
                for (w, k) in s.iter_mut().zip(k) {
                    *w = xor(*w, k);
                }
            }
        }

        /// Applies `f` to every state.
        $(#[$m])*
        fn each<const N: usize>(x: &mut [[W; 4]; N], f: impl Fn([W; 4]) -> [W; 4]) {
            for s in x.iter_mut() {
                *s = f(*s);
            }
        }

        /// Encrypts `N` states with round keys `k`.
        $(#[$m])*
        pub(crate) fn encrypt_n<const N: usize>(k: &RoundKeys, mut x: [[W; 4]; N]) -> [[W; 4]; N] {
            // Rounds 0..32 as four groups of eight S-boxes; each linear transformation
            // carries the next round's key XOR, and the last round ends with a key XOR
            // instead.
            kx(&mut x, &k[0]);
            for g in 0..4 {
                let k = &k[8 * g..];
                each(&mut x, |s| sbox_e0(s));
                lt_kx(&mut x, &k[1]);
                each(&mut x, |s| sbox_e1(s));
                lt_kx(&mut x, &k[2]);
                each(&mut x, |s| sbox_e2(s));
                lt_kx(&mut x, &k[3]);
                each(&mut x, |s| sbox_e3(s));
                lt_kx(&mut x, &k[4]);
                each(&mut x, |s| sbox_e4(s));
                lt_kx(&mut x, &k[5]);
                each(&mut x, |s| sbox_e5(s));
                lt_kx(&mut x, &k[6]);
                each(&mut x, |s| sbox_e6(s));
                lt_kx(&mut x, &k[7]);
                each(&mut x, |s| sbox_e7(s));
                if g == 3 {
                    kx(&mut x, &k[8]);
                } else {
                    lt_kx(&mut x, &k[8]);
                }
            }
            x
        }

        /// Decrypts `N` states with round keys `k`.
        $(#[$m])*
        pub(crate) fn decrypt_n<const N: usize>(k: &RoundKeys, mut x: [[W; 4]; N]) -> [[W; 4]; N] {
            kx(&mut x, &k[32]);
            for g in (0..4).rev() {
                let k = &k[8 * g..];
                if g == 3 {
                    each(&mut x, |s| sbox_d7(s));
                } else {
                    each(&mut x, |s| sbox_d7(lt_inv(s)));
                }
                kx(&mut x, &k[7]);
                each(&mut x, |s| sbox_d6(lt_inv(s)));
                kx(&mut x, &k[6]);
                each(&mut x, |s| sbox_d5(lt_inv(s)));
                kx(&mut x, &k[5]);
                each(&mut x, |s| sbox_d4(lt_inv(s)));
                kx(&mut x, &k[4]);
                each(&mut x, |s| sbox_d3(lt_inv(s)));
                kx(&mut x, &k[3]);
                each(&mut x, |s| sbox_d2(lt_inv(s)));
                kx(&mut x, &k[2]);
                each(&mut x, |s| sbox_d1(lt_inv(s)));
                kx(&mut x, &k[1]);
                each(&mut x, |s| sbox_d0(lt_inv(s)));
                kx(&mut x, &k[0]);
            }
            x
        }
    };
}

type W = u32;

#[inline(always)]
fn and(a: W, b: W) -> W {
    a & b
}

#[inline(always)]
fn or(a: W, b: W) -> W {
    a | b
}

#[inline(always)]
fn xor(a: W, b: W) -> W {
    a ^ b
}

#[inline(always)]
fn not(a: W) -> W {
    !a
}

#[inline(always)]
fn rol<const L: u32, const R: u32>(a: W) -> W {
    a.rotate_left(L)
}

#[inline(always)]
fn shl<const S: u32>(a: W) -> W {
    a << S
}

#[inline(always)]
fn splat(a: u32) -> W {
    a
}

// The SIMD backends expand the same macros with their own attributes.
pub(crate) use {serpent_rounds, serpent_sboxes};

serpent_sboxes!(#[inline(always)]);
serpent_rounds!(#[inline(always)]);

/// S-box `i % 8` on one block's words (the key schedule's use).
pub(crate) fn apply_s(i: usize, x: [u32; 4]) -> [u32; 4] {
    match i % 8 {
        0 => sbox_e0(x),
        1 => sbox_e1(x),
        2 => sbox_e2(x),
        3 => sbox_e3(x),
        4 => sbox_e4(x),
        5 => sbox_e5(x),
        6 => sbox_e6(x),
        _ => sbox_e7(x),
    }
}

/// The four little-endian words of a block.
#[inline(always)]
pub(crate) fn read_words(b: &[u8; 16]) -> [u32; 4] {
    core::array::from_fn(|i| {
        u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

/// Stores four words little-endian.
#[inline(always)]
pub(crate) fn write_words(w: [u32; 4], b: &mut [u8; 16]) {
    for (d, w) in b.chunks_exact_mut(4).zip(w) {
        d.copy_from_slice(&w.to_le_bytes());
    }
}

/// Encrypts one block. Out of line (as is [`decrypt_block`]): a call costs a few cycles
/// of the ≈600 a block takes, and it gives the rounds a function of their own, which the
/// static check of `cargo xtask ct` reads (inlined into `cipher`'s generic methods they
/// had no symbol to find).
#[inline(never)]
pub(crate) fn encrypt_block(k: &RoundKeys, mut block: InOut<'_, '_, Block<Backend<'_>>>) {
    let [x] = encrypt_n(k, [read_words(block.get_in().as_ref())]);
    write_words(x, block.get_out().as_mut());
}

/// Decrypts one block.
#[inline(never)]
pub(crate) fn decrypt_block(k: &RoundKeys, mut block: InOut<'_, '_, Block<Backend<'_>>>) {
    let [x] = decrypt_n(k, [read_words(block.get_in().as_ref())]);
    write_words(x, block.get_out().as_mut());
}

/// The `soft` backend handed to `cipher`'s closures: one block at a time (the S-box networks
/// already use the ALUs' parallelism within a block).
pub(crate) struct Backend<'a>(pub(crate) &'a RoundKeys);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U1;
}

impl BlockCipherEncBackend for Backend<'_> {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        encrypt_block(self.0, block)
    }
}

impl BlockCipherDecBackend for Backend<'_> {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        decrypt_block(self.0, block)
    }
}

#[cfg(test)]
mod tests {
    /// `soft` against RustCrypto's `serpent` 0.6.0 (the reference for `soft`).
    #[test]
    fn soft_matches_soft() {
        crate::backends::check_matches_soft("soft", 1);
    }
}
