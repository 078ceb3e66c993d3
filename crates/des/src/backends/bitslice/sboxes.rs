//! DES S-boxes as gate networks over bit planes. Generated (do not edit): the
//! circuits of `tools/sboxes/circuits.txt`, found by `tools/sboxes/search.rs` and
//! emitted by `tools/sboxes/circuits.rs` (see `tools/sboxes/README.md`).
//! Three-input gates: 200 in all (25 per S-box), 215 a round with the XORs into
//! the left half (outputs folded into them cost none); two-input gates (and-not
//! counts one): 382 (47.75 per S-box) and 32 XORs.

#![allow(clippy::all)]

use super::Gates;

/// S-box 1 with three-input gates (26 gates, 29 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s1<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x86>(x[3], x[4], x[5]);
    let t1 = V::tl::<0xBC>(x[0], x[3], x[4]);
    let t2 = V::tl::<0x66>(x[3], x[0], x[5]);
    let t3 = V::tl::<0xBC>(x[4], t2, t0);
    let t4 = V::tl::<0xB5>(t1, x[4], x[1]);
    let t5 = V::tl::<0x92>(t3, x[3], x[1]);
    let t6 = V::tl::<0x97>(x[2], x[5], x[4]);
    let t7 = V::tl::<0x7B>(x[3], x[0], x[4]);
    let t8 = V::tl::<0x6C>(t4, t6, t7);
    let t9 = V::tl::<0xB4>(t0, t1, x[1]);
    let t10 = V::tl::<0x4A>(x[5], t8, t9);
    let t11 = V::tl::<0x36>(t5, t6, t10);
    let t12 = V::tl::<0xCA>(x[2], x[3], x[0]);
    let t13 = V::tl::<0x91>(t5, x[1], t11);
    let t14 = V::tl::<0xCA>(t12, t7, t13);
    let t15 = V::tl::<0xD8>(t4, t5, x[2]);
    let t16 = V::tl::<0x2E>(t15, x[1], t12);
    let t17 = V::tl::<0xC6>(t2, t11, t16);
    let t18 = V::tl::<0x70>(t9, t14, t3);
    let t19 = V::tl::<0x8A>(t5, t2, t18);
    let t21 = V::tl::<0x1D>(t18, t11, t3);
    let t22 = V::tl::<0xAC>(x[1], t21, t3);
    let t23 = V::tl::<0xCA>(x[2], t9, t22);
    let t24 = V::tl::<0x36>(t15, t14, t10);
    let t25 = V::tl::<0xAC>(x[5], t15, t24);
    [
        V::xor(l[0], t23),
        V::xor(l[1], t25),
        V::xor(l[2], t17),
        V::tl::<0x96>(l[3], t8, t19),
    ]
}

/// S-box 1 with two-input gates (53 gates), as `s1`.
#[inline(always)]
pub(crate) fn s1_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::andnot(x[2], V::ones());
    let t1 = V::xor(x[0], x[3]);
    let t2 = V::andnot(x[5], t1);
    let t3 = V::xor(t0, t2);
    let t4 = V::andnot(t3, t1);
    let t5 = V::xor(t3, x[5]);
    let t6 = V::andnot(t4, t5);
    let t7 = V::andnot(t6, x[0]);
    let t8 = V::xor(x[3], t7);
    let t9 = V::or(x[2], x[5]);
    let t10 = V::or(t8, t9);
    let t11 = V::andnot(x[4], t8);
    let t12 = V::xor(t3, t11);
    let t13 = V::andnot(t8, t12);
    let t14 = V::xor(t13, t4);
    let t15 = V::and(x[4], t14);
    let t16 = V::xor(t10, t15);
    let t17 = V::xor(t16, x[1]);
    let t18 = V::xor(t9, x[3]);
    let t19 = V::xor(t18, t12);
    let t20 = V::or(t19, x[5]);
    let t21 = V::andnot(x[3], t20);
    let t22 = V::xor(t17, t21);
    let t23 = V::xor(t15, t5);
    let t24 = V::andnot(t1, t12);
    let t25 = V::xor(t24, t10);
    let t26 = V::andnot(x[4], t25);
    let t27 = V::xor(t23, t26);
    let t28 = V::xor(x[5], t27);
    let t29 = V::andnot(t28, x[3]);
    let t30 = V::andnot(t29, x[0]);
    let t31 = V::xor(t19, t30);
    let t32 = V::andnot(x[1], t31);
    let t33 = V::xor(t27, t32);
    let t34 = V::and(x[4], t32);
    let t35 = V::andnot(t34, t31);
    let t36 = V::and(x[3], t35);
    let t37 = V::xor(t33, t36);
    let t38 = V::andnot(t14, t37);
    let t39 = V::xor(t22, t38);
    let t40 = V::xor(t39, t14);
    let t41 = V::andnot(t15, t40);
    let t42 = V::or(x[5], t35);
    let t43 = V::or(x[2], t18);
    let t44 = V::and(t42, t43);
    let t45 = V::andnot(x[1], t44);
    let t46 = V::xor(t41, t45);
    let t47 = V::andnot(t3, t42);
    let t48 = V::xor(t47, t8);
    let t49 = V::and(t27, t48);
    let t50 = V::xor(t46, t49);
    let t51 = V::andnot(x[1], t17);
    let t52 = V::xor(t51, t12);
    [
        V::xor(l[0], t39),
        V::xor(l[1], t33),
        V::xor(l[2], t52),
        V::xor(l[3], t50),
    ]
}

/// S-box 2 with three-input gates (25 gates, 27 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x18>(x[2], x[5], x[4]);
    let t1 = V::tl::<0xDC>(x[0], t0, x[5]);
    let t2 = V::tl::<0xBF>(x[4], x[5], x[0]);
    let t3 = V::tl::<0xC6>(x[3], t1, t2);
    let t4 = V::tl::<0x69>(t3, x[4], x[2]);
    let t5 = V::tl::<0xAB>(x[4], x[5], t4);
    let t6 = V::tl::<0xCB>(x[0], t5, x[5]);
    let t7 = V::tl::<0x6A>(t6, x[1], t3);
    let t8 = V::tl::<0x93>(x[4], t4, x[5]);
    let t9 = V::tl::<0x6A>(x[3], x[5], t7);
    let t10 = V::tl::<0x63>(x[4], x[1], t9);
    let t11 = V::tl::<0x9C>(t10, t8, x[0]);
    let t12 = V::tl::<0xC1>(x[0], t3, x[4]);
    let t13 = V::tl::<0x6C>(x[5], t8, t12);
    let t14 = V::tl::<0xBC>(t3, x[5], x[4]);
    let t15 = V::tl::<0x64>(x[3], t4, x[2]);
    let t16 = V::tl::<0xC9>(x[0], t15, t13);
    let t17 = V::tl::<0x6C>(t9, x[1], t16);
    let t19 = V::tl::<0xC6>(x[1], t11, t14);
    let t20 = V::tl::<0xE6>(t1, t5, t11);
    let t21 = V::tl::<0x6C>(x[1], t20, t1);
    let t22 = V::tl::<0xD4>(t1, t10, t13);
    let t23 = V::tl::<0xC6>(x[4], t21, t22);
    [
        V::xor(l[0], t19),
        V::tl::<0x96>(l[1], t12, t23),
        V::tl::<0x96>(l[2], t13, t17),
        V::xor(l[3], t7),
    ]
}

/// S-box 2 with two-input gates (48 gates), as `s2`.
#[inline(always)]
pub(crate) fn s2_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::xor(x[4], x[1]);
    let t1 = V::xor(t0, x[5]);
    let t2 = V::and(x[5], x[4]);
    let t3 = V::andnot(t2, x[2]);
    let t4 = V::xor(t1, t3);
    let t5 = V::andnot(x[4], t4);
    let t6 = V::xor(t5, x[2]);
    let t7 = V::andnot(t1, V::ones());
    let t8 = V::or(x[1], t2);
    let t9 = V::andnot(x[3], t8);
    let t10 = V::xor(t4, t9);
    let t11 = V::xor(x[3], t10);
    let t12 = V::or(t7, t11);
    let t13 = V::andnot(x[5], t12);
    let t14 = V::xor(t6, t13);
    let t15 = V::andnot(x[4], x[3]);
    let t16 = V::or(t5, x[5]);
    let t17 = V::andnot(t16, x[0]);
    let t18 = V::andnot(x[1], t16);
    let t19 = V::and(x[5], t10);
    let t20 = V::and(x[0], t19);
    let t21 = V::xor(t18, t20);
    let t22 = V::xor(t15, t14);
    let t23 = V::xor(t22, t17);
    let t24 = V::andnot(t1, t21);
    let t25 = V::xor(t23, t24);
    let t26 = V::xor(x[0], t7);
    let t27 = V::andnot(t17, t7);
    let t28 = V::xor(t27, x[4]);
    let t29 = V::andnot(t28, x[2]);
    let t30 = V::xor(t26, t29);
    let t31 = V::andnot(x[2], t2);
    let t32 = V::andnot(t28, x[1]);
    let t33 = V::xor(t31, t32);
    let t34 = V::andnot(t33, x[3]);
    let t35 = V::xor(t30, t34);
    let t36 = V::andnot(x[0], t14);
    let t37 = V::xor(t36, t10);
    let t38 = V::andnot(x[4], V::ones());
    let t39 = V::or(t37, t19);
    let t40 = V::xor(t38, t39);
    let t41 = V::and(t1, t0);
    let t42 = V::andnot(t41, x[0]);
    let t43 = V::xor(t40, t42);
    let t44 = V::andnot(t20, x[5]);
    let t45 = V::or(t44, t35);
    let t46 = V::and(t25, t45);
    let t47 = V::xor(t43, t46);
    [
        V::xor(l[0], t37),
        V::xor(l[1], t35),
        V::xor(l[2], t47),
        V::xor(l[3], t25),
    ]
}

/// S-box 3 with three-input gates (25 gates, 27 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s3<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x69>(x[3], x[4], x[5]);
    let t1 = V::tl::<0xF4>(x[1], x[4], x[5]);
    let t2 = V::tl::<0x6C>(x[2], t0, t1);
    let t3 = V::tl::<0xE9>(x[4], x[2], t0);
    let t4 = V::tl::<0x9C>(x[1], t3, x[2]);
    let t5 = V::tl::<0x74>(t4, x[3], t1);
    let t6 = V::tl::<0x6C>(x[1], t5, x[3]);
    let t7 = V::tl::<0x96>(t0, x[1], x[0]);
    let t8 = V::tl::<0x95>(t3, t2, x[4]);
    let t9 = V::tl::<0x78>(t7, x[3], t8);
    let t10 = V::tl::<0x86>(t6, x[0], t7);
    let t11 = V::tl::<0xDC>(t3, t10, x[4]);
    let t12 = V::tl::<0x28>(x[4], x[0], x[5]);
    let t13 = V::tl::<0x36>(t11, x[1], t12);
    let t14 = V::tl::<0xC6>(x[2], t9, t11);
    let t15 = V::tl::<0x1C>(t14, t4, t3);
    let t16 = V::tl::<0xB8>(t13, t10, t15);
    let t18 = V::tl::<0x2C>(t1, t2, x[3]);
    let t19 = V::tl::<0x9C>(t7, t18, t13);
    let t20 = V::tl::<0x78>(t13, t5, t11);
    let t21 = V::tl::<0xC2>(t3, t20, t1);
    let t22 = V::tl::<0xAC>(t14, t19, t21);
    let t24 = V::tl::<0xC6>(x[0], t2, t6);
    [
        V::xor(l[0], t24),
        V::xor(l[1], t14),
        V::tl::<0x96>(l[2], x[2], t22),
        V::tl::<0x96>(l[3], x[2], t16),
    ]
}

/// S-box 3 with two-input gates (49 gates), as `s3`.
#[inline(always)]
pub(crate) fn s3_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::xor(x[2], x[3]);
    let t1 = V::xor(x[5], x[2]);
    let t2 = V::andnot(t1, x[1]);
    let t3 = V::xor(t0, t2);
    let t4 = V::xor(t3, x[2]);
    let t5 = V::xor(t4, x[4]);
    let t6 = V::xor(t1, x[1]);
    let t7 = V::andnot(t2, x[5]);
    let t8 = V::or(x[3], t7);
    let t9 = V::and(x[0], t8);
    let t10 = V::xor(t6, t9);
    let t11 = V::andnot(t3, x[0]);
    let t12 = V::xor(t0, t11);
    let t13 = V::andnot(x[4], t12);
    let t14 = V::xor(t10, t13);
    let t15 = V::xor(t3, t14);
    let t16 = V::or(t15, x[3]);
    let t17 = V::andnot(x[0], t16);
    let t18 = V::xor(t5, t17);
    let t19 = V::andnot(t16, V::ones());
    let t20 = V::andnot(x[0], t19);
    let t21 = V::andnot(t14, x[4]);
    let t22 = V::xor(t21, t16);
    let t23 = V::andnot(x[1], t22);
    let t24 = V::or(t20, t23);
    let t25 = V::andnot(x[5], t24);
    let t26 = V::xor(t18, t25);
    let t27 = V::andnot(t18, t4);
    let t28 = V::and(x[5], t27);
    let t29 = V::or(t21, t28);
    let t30 = V::xor(t29, t1);
    let t31 = V::and(t2, t26);
    let t32 = V::xor(t15, t31);
    let t33 = V::xor(t32, t28);
    let t34 = V::and(x[1], t33);
    let t35 = V::xor(t30, t34);
    let t36 = V::and(t35, x[0]);
    let t37 = V::xor(t18, t24);
    let t38 = V::andnot(t27, t37);
    let t39 = V::xor(t36, t3);
    let t40 = V::andnot(t39, x[3]);
    let t41 = V::xor(t38, t40);
    let t42 = V::or(t36, t11);
    let t43 = V::andnot(t11, t18);
    let t44 = V::and(x[2], t43);
    let t45 = V::xor(t42, t44);
    let t46 = V::andnot(x[1], t45);
    let t47 = V::xor(t41, t46);
    let t48 = V::xor(t33, t36);
    [
        V::xor(l[0], t26),
        V::xor(l[1], t48),
        V::xor(l[2], t47),
        V::xor(l[3], t14),
    ]
}

/// S-box 4 with three-input gates (22 gates, 22 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s4<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x8B>(x[0], x[2], x[1]);
    let t1 = V::tl::<0xC1>(x[3], t0, x[1]);
    let t2 = V::tl::<0x5E>(x[0], x[1], x[3]);
    let t3 = V::tl::<0xC6>(x[2], t2, x[0]);
    let t4 = V::tl::<0x6C>(x[4], t1, t3);
    let t5 = V::tl::<0x1B>(t1, x[1], t2);
    let t6 = V::tl::<0x49>(t4, x[1], x[0]);
    let t7 = V::tl::<0x6C>(x[4], t6, t5);
    let t8 = V::tl::<0x7A>(x[2], t5, t7);
    let t9 = V::tl::<0xB5>(x[0], t5, x[2]);
    let t10 = V::tl::<0xBD>(t2, t0, t4);
    let t11 = V::tl::<0x6C>(x[4], t9, t10);
    let t12 = V::tl::<0x59>(t4, x[2], t1);
    let t13 = V::tl::<0xA6>(t6, x[3], t8);
    let t14 = V::tl::<0xC6>(x[1], t12, t13);
    let t15 = V::tl::<0x2D>(t4, t14, x[5]);
    let t16 = V::tl::<0x69>(x[5], t14, t11);
    let t18 = V::tl::<0x95>(t8, x[5], t4);
    [
        V::tl::<0x96>(l[0], t11, t15),
        V::tl::<0x96>(l[1], t15, t16),
        V::tl::<0x69>(l[2], t8, t18),
        V::tl::<0x96>(l[3], x[5], t18),
    ]
}

/// S-box 4 with two-input gates (39 gates), as `s4`.
#[inline(always)]
pub(crate) fn s4_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::andnot(x[2], V::ones());
    let t1 = V::xor(t0, x[0]);
    let t2 = V::andnot(x[0], t1);
    let t3 = V::xor(t2, x[3]);
    let t4 = V::andnot(t3, x[4]);
    let t5 = V::xor(t1, t4);
    let t6 = V::andnot(x[4], t3);
    let t7 = V::xor(t6, t0);
    let t8 = V::andnot(x[0], t3);
    let t9 = V::or(t7, t8);
    let t10 = V::and(x[1], t9);
    let t11 = V::xor(t5, t10);
    let t12 = V::or(t8, t6);
    let t13 = V::or(t7, x[4]);
    let t14 = V::andnot(x[3], t13);
    let t15 = V::xor(t12, t14);
    let t16 = V::and(t7, t3);
    let t17 = V::andnot(t16, x[1]);
    let t18 = V::xor(t15, t17);
    let t19 = V::andnot(x[5], t18);
    let t20 = V::xor(t11, t19);
    let t21 = V::xor(t18, t20);
    let t22 = V::andnot(t5, x[4]);
    let t23 = V::xor(t22, t3);
    let t24 = V::andnot(t22, t14);
    let t25 = V::xor(t24, x[2]);
    let t26 = V::and(x[1], t25);
    let t27 = V::xor(t23, t26);
    let t28 = V::xor(t27, t11);
    let t29 = V::andnot(t28, x[1]);
    let t30 = V::xor(t21, t29);
    let t31 = V::andnot(x[3], t28);
    let t32 = V::xor(t30, t31);
    let t33 = V::and(x[5], t32);
    let t34 = V::xor(t27, t33);
    let t35 = V::xor(t19, t34);
    let t36 = V::xor(x[5], t32);
    let t37 = V::xor(t35, t36);
    let t38 = V::xor(x[5], t21);
    [
        V::xor(l[0], t20),
        V::xor(l[1], t38),
        V::xor(l[2], t37),
        V::xor(l[3], t34),
    ]
}

/// S-box 5 with three-input gates (26 gates, 29 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s5<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0xD6>(x[0], x[4], x[2]);
    let t1 = V::tl::<0xC8>(x[1], t0, x[2]);
    let t2 = V::tl::<0x43>(x[4], x[1], x[2]);
    let t3 = V::tl::<0x82>(x[0], t2, x[5]);
    let t4 = V::tl::<0xA4>(x[5], t1, t3);
    let t5 = V::tl::<0x5E>(x[5], x[0], x[2]);
    let t6 = V::tl::<0xD2>(t4, x[4], x[2]);
    let t7 = V::tl::<0x69>(t0, x[1], x[5]);
    let t8 = V::tl::<0x85>(t7, t2, t6);
    let t9 = V::tl::<0x86>(x[1], x[4], x[2]);
    let t10 = V::tl::<0xAB>(t8, x[4], x[5]);
    let t11 = V::tl::<0xC6>(x[3], t9, t10);
    let t12 = V::tl::<0xB7>(t3, t11, t8);
    let t13 = V::tl::<0x6C>(x[5], t8, t12);
    let t14 = V::tl::<0xAC>(x[3], t4, t13);
    let t15 = V::tl::<0xC6>(t3, t5, x[4]);
    let t16 = V::tl::<0xC6>(x[1], t15, t6);
    let t17 = V::tl::<0xAC>(x[3], t16, t7);
    let t18 = V::tl::<0x8E>(t4, x[3], x[4]);
    let t19 = V::tl::<0xAC>(t8, t5, t18);
    let t20 = V::tl::<0xC6>(x[0], t11, t19);
    let t21 = V::tl::<0x97>(t5, t20, t14);
    let t22 = V::tl::<0xC1>(x[1], t21, x[2]);
    let t23 = V::tl::<0xB8>(t5, t0, t13);
    let t24 = V::tl::<0x2C>(t17, t22, t23);
    [
        V::tl::<0x96>(l[0], t5, t24),
        V::xor(l[1], t17),
        V::xor(l[2], t20),
        V::xor(l[3], t14),
    ]
}

/// S-box 5 with two-input gates (52 gates), as `s5`.
#[inline(always)]
pub(crate) fn s5_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::xor(x[0], x[2]);
    let t1 = V::xor(x[2], x[5]);
    let t2 = V::or(x[2], x[5]);
    let t3 = V::andnot(x[3], t2);
    let t4 = V::andnot(t3, x[0]);
    let t5 = V::xor(t1, t4);
    let t6 = V::or(x[3], t1);
    let t7 = V::andnot(x[0], t3);
    let t8 = V::xor(t6, t7);
    let t9 = V::andnot(x[1], t8);
    let t10 = V::xor(t5, t9);
    let t11 = V::xor(t6, x[2]);
    let t12 = V::and(t11, t0);
    let t13 = V::andnot(t12, x[4]);
    let t14 = V::xor(t10, t13);
    let t15 = V::andnot(t0, t14);
    let t16 = V::andnot(t14, t1);
    let t17 = V::or(t15, t16);
    let t18 = V::andnot(x[4], t12);
    let t19 = V::andnot(t18, x[1]);
    let t20 = V::xor(t17, t19);
    let t21 = V::or(t16, x[1]);
    let t22 = V::andnot(x[2], t21);
    let t23 = V::or(x[4], t22);
    let t24 = V::or(t13, t14);
    let t25 = V::andnot(x[1], t24);
    let t26 = V::xor(t23, t25);
    let t27 = V::and(x[3], t26);
    let t28 = V::xor(t20, t27);
    let t29 = V::andnot(t17, t13);
    let t30 = V::xor(t29, t6);
    let t31 = V::or(t10, t16);
    let t32 = V::xor(x[3], t31);
    let t33 = V::xor(t32, t24);
    let t34 = V::andnot(t33, x[1]);
    let t35 = V::xor(t30, t34);
    let t36 = V::andnot(t11, t35);
    let t37 = V::andnot(t36, V::ones());
    let t38 = V::andnot(x[4], t37);
    let t39 = V::xor(t28, t38);
    let t40 = V::xor(t14, t39);
    let t41 = V::xor(t40, x[0]);
    let t42 = V::xor(x[0], x[1]);
    let t43 = V::andnot(t25, t42);
    let t44 = V::and(x[4], t31);
    let t45 = V::xor(t43, t44);
    let t46 = V::xor(t45, t36);
    let t47 = V::or(t39, t23);
    let t48 = V::andnot(x[4], t47);
    let t49 = V::xor(t46, t48);
    let t50 = V::and(t42, t49);
    let t51 = V::xor(t41, t50);
    [
        V::xor(l[0], t28),
        V::xor(l[1], t14),
        V::xor(l[2], t51),
        V::xor(l[3], t46),
    ]
}

/// S-box 6 with three-input gates (25 gates, 27 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s6<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x69>(x[3], x[0], x[4]);
    let t1 = V::tl::<0xA9>(x[4], t0, x[1]);
    let t2 = V::tl::<0xC6>(x[2], t0, t1);
    let t3 = V::tl::<0xB1>(x[3], x[1], t2);
    let t4 = V::tl::<0xC1>(x[2], t3, t1);
    let t5 = V::tl::<0x43>(t2, t4, x[1]);
    let t6 = V::tl::<0x6C>(x[4], t4, t5);
    let t7 = V::tl::<0x96>(t1, x[5], t0);
    let t8 = V::tl::<0x25>(x[2], x[0], t7);
    let t9 = V::tl::<0x9C>(x[1], t8, x[0]);
    let t10 = V::tl::<0xDA>(x[3], t6, t7);
    let t11 = V::tl::<0x4D>(t1, x[3], t6);
    let t12 = V::tl::<0xBB>(t8, x[4], t7);
    let t13 = V::tl::<0x68>(x[5], t11, t12);
    let t14 = V::tl::<0x16>(t10, t13, x[2]);
    let t15 = V::tl::<0xB4>(t9, t14, t8);
    let t16 = V::tl::<0xA7>(t13, x[0], t12);
    let t17 = V::tl::<0x9A>(t15, t5, t16);
    let t19 = V::tl::<0x98>(x[1], t8, t12);
    let t20 = V::tl::<0x78>(t13, x[0], t19);
    let t22 = V::tl::<0x4E>(t10, t9, t0);
    let t23 = V::tl::<0xE2>(t10, t5, t22);
    let t24 = V::tl::<0xAC>(x[5], t2, t6);
    [
        V::xor(l[0], t24),
        V::xor(l[1], t23),
        V::tl::<0x96>(l[2], x[2], t20),
        V::tl::<0x96>(l[3], t0, t17),
    ]
}

/// S-box 6 with two-input gates (48 gates), as `s6`.
#[inline(always)]
pub(crate) fn s6_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::andnot(x[4], V::ones());
    let t1 = V::andnot(x[3], t0);
    let t2 = V::andnot(x[2], t1);
    let t3 = V::or(x[4], x[0]);
    let t4 = V::xor(x[1], t3);
    let t5 = V::xor(x[4], x[0]);
    let t6 = V::and(x[2], t5);
    let t7 = V::xor(t4, t6);
    let t8 = V::or(x[2], t7);
    let t9 = V::xor(t8, t5);
    let t10 = V::xor(t9, x[3]);
    let t11 = V::xor(t2, t10);
    let t12 = V::xor(t10, x[2]);
    let t13 = V::andnot(x[3], t9);
    let t14 = V::xor(t7, t13);
    let t15 = V::or(x[4], t14);
    let t16 = V::and(x[0], t8);
    let t17 = V::xor(t15, t11);
    let t18 = V::andnot(t17, x[3]);
    let t19 = V::or(t16, t18);
    let t20 = V::and(t19, t15);
    let t21 = V::andnot(t20, x[5]);
    let t22 = V::xor(t12, t21);
    let t23 = V::xor(t22, t9);
    let t24 = V::and(x[5], t19);
    let t25 = V::xor(t14, t24);
    let t26 = V::andnot(t23, t25);
    let t27 = V::and(t25, t1);
    let t28 = V::or(t26, t4);
    let t29 = V::xor(t27, t28);
    let t30 = V::and(x[1], t29);
    let t31 = V::xor(t22, t30);
    let t32 = V::andnot(t31, V::ones());
    let t33 = V::xor(t32, x[1]);
    let t34 = V::andnot(t4, t9);
    let t35 = V::xor(t34, t20);
    let t36 = V::andnot(x[5], t35);
    let t37 = V::xor(t33, t36);
    let t38 = V::or(t37, t15);
    let t39 = V::andnot(t26, t7);
    let t40 = V::and(x[1], t39);
    let t41 = V::xor(t38, t40);
    let t42 = V::and(x[5], t41);
    let t43 = V::xor(t11, t42);
    let t44 = V::andnot(t29, x[2]);
    let t45 = V::xor(t44, t17);
    let t46 = V::and(t25, t45);
    let t47 = V::xor(t37, t46);
    [
        V::xor(l[0], t43),
        V::xor(l[1], t47),
        V::xor(l[2], t31),
        V::xor(l[3], t25),
    ]
}

/// S-box 7 with three-input gates (26 gates, 27 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s7<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x92>(x[5], x[0], x[4]);
    let t1 = V::tl::<0x6C>(x[1], t0, x[0]);
    let t2 = V::tl::<0x1B>(x[5], t1, x[4]);
    let t3 = V::tl::<0x6C>(x[0], x[1], t2);
    let t4 = V::tl::<0x6C>(x[3], t1, t3);
    let t5 = V::tl::<0x8D>(x[5], t1, x[4]);
    let t6 = V::tl::<0x87>(x[1], x[3], t4);
    let t7 = V::tl::<0xAD>(x[0], t6, t5);
    let t8 = V::tl::<0x94>(x[2], x[4], x[3]);
    let t9 = V::tl::<0x9C>(x[1], t8, x[2]);
    let t10 = V::tl::<0x4E>(t9, x[2], t7);
    let t11 = V::tl::<0xC9>(t4, t10, x[4]);
    let t12 = V::tl::<0x6C>(x[2], t4, t7);
    let t13 = V::tl::<0xAB>(x[0], t6, t12);
    let t14 = V::tl::<0xB8>(t11, t7, t13);
    let t15 = V::tl::<0x84>(t2, t12, x[0]);
    let t16 = V::tl::<0xB8>(t9, x[5], t11);
    let t17 = V::tl::<0x9C>(t15, x[3], x[1]);
    let t19 = V::tl::<0xB1>(x[2], x[5], t3);
    let t20 = V::tl::<0x2C>(x[3], t19, t16);
    let t21 = V::tl::<0xB2>(x[1], x[5], x[2]);
    let t22 = V::tl::<0x63>(x[3], t10, t21);
    let t23 = V::tl::<0xAC>(x[0], t20, t22);
    [
        V::xor(l[0], t12),
        V::tl::<0x96>(l[1], t4, t23),
        V::tl::<0x96>(l[2], t14, t17),
        V::tl::<0x96>(l[3], x[0], t16),
    ]
}

/// S-box 7 with two-input gates (49 gates), as `s7`.
#[inline(always)]
pub(crate) fn s7_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::xor(x[4], x[2]);
    let t1 = V::andnot(x[5], t0);
    let t2 = V::xor(x[1], t1);
    let t3 = V::xor(t2, x[2]);
    let t4 = V::and(t3, x[3]);
    let t5 = V::or(t4, x[4]);
    let t6 = V::andnot(t0, x[5]);
    let t7 = V::xor(t5, t6);
    let t8 = V::and(t6, x[4]);
    let t9 = V::andnot(t8, x[3]);
    let t10 = V::xor(t2, t9);
    let t11 = V::andnot(x[1], t4);
    let t12 = V::xor(t10, t11);
    let t13 = V::xor(t7, t12);
    let t14 = V::xor(t13, x[3]);
    let t15 = V::xor(t13, t4);
    let t16 = V::and(x[1], t15);
    let t17 = V::xor(t14, t16);
    let t18 = V::or(t17, t7);
    let t19 = V::and(x[0], t18);
    let t20 = V::xor(t19, t12);
    let t21 = V::or(t4, t2);
    let t22 = V::or(t20, t7);
    let t23 = V::xor(t22, x[4]);
    let t24 = V::and(x[5], t23);
    let t25 = V::andnot(t9, V::ones());
    let t26 = V::xor(t25, x[4]);
    let t27 = V::xor(t24, t26);
    let t28 = V::xor(t21, t27);
    let t29 = V::and(x[0], t28);
    let t30 = V::xor(t26, t16);
    let t31 = V::xor(t29, t30);
    let t32 = V::and(x[5], t10);
    let t33 = V::and(t32, t31);
    let t34 = V::andnot(t33, x[0]);
    let t35 = V::andnot(t0, t25);
    let t36 = V::xor(t28, t34);
    let t37 = V::xor(t35, t36);
    let t38 = V::andnot(t1, t27);
    let t39 = V::xor(t38, t14);
    let t40 = V::and(x[2], t39);
    let t41 = V::xor(t37, t40);
    let t42 = V::xor(t31, t36);
    let t43 = V::xor(t42, t19);
    let t44 = V::andnot(t35, t30);
    let t45 = V::xor(t23, t41);
    let t46 = V::andnot(t44, t45);
    let t47 = V::and(x[5], t46);
    let t48 = V::xor(t43, t47);
    [
        V::xor(l[0], t48),
        V::xor(l[1], t31),
        V::xor(l[2], t20),
        V::xor(l[3], t41),
    ]
}

/// S-box 8 with three-input gates (25 gates, 27 with the XORs into `l`):
/// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output
/// bits (most significant first) go into; returns `l` XOR the output.
#[inline(always)]
pub(crate) fn s8<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::tl::<0x38>(x[2], x[4], x[0]);
    let t1 = V::tl::<0xBC>(x[5], t0, x[4]);
    let t2 = V::tl::<0xAC>(x[0], x[4], x[5]);
    let t3 = V::tl::<0x6C>(x[3], t1, t2);
    let t4 = V::tl::<0xF6>(t2, x[3], x[0]);
    let t5 = V::tl::<0xCB>(x[2], t4, x[0]);
    let t6 = V::tl::<0xC6>(x[1], t3, t5);
    let t7 = V::tl::<0x79>(t2, x[3], x[4]);
    let t8 = V::tl::<0xC8>(x[0], t7, t4);
    let t9 = V::tl::<0x79>(x[2], x[0], t7);
    let t10 = V::tl::<0xA3>(t6, t8, t9);
    let t11 = V::tl::<0xAC>(x[1], t8, t10);
    let t12 = V::tl::<0x24>(t11, x[3], x[4]);
    let t13 = V::tl::<0x63>(t5, t11, t12);
    let t14 = V::tl::<0x69>(x[0], t7, t0);
    let t15 = V::tl::<0x96>(t7, t11, x[4]);
    let t16 = V::tl::<0x6C>(t13, t14, t15);
    let t17 = V::tl::<0x6C>(t1, t13, t16);
    let t18 = V::tl::<0x18>(t0, t11, t11);
    let t19 = V::tl::<0x95>(x[5], t6, x[2]);
    let t20 = V::tl::<0x36>(x[3], t18, t19);
    let t21 = V::tl::<0x74>(t18, x[4], t2);
    let t22 = V::tl::<0xAC>(x[1], t20, t21);
    [
        V::tl::<0x96>(l[0], t6, t17),
        V::xor(l[1], t6),
        V::xor(l[2], t18),
        V::tl::<0x96>(l[3], t17, t22),
    ]
}

/// S-box 8 with two-input gates (44 gates), as `s8`.
#[inline(always)]
pub(crate) fn s8_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {
    let t0 = V::xor(x[4], x[1]);
    let t1 = V::andnot(x[1], x[2]);
    let t2 = V::xor(t0, t1);
    let t3 = V::or(t2, x[3]);
    let t4 = V::andnot(x[0], V::ones());
    let t5 = V::or(t4, t1);
    let t6 = V::andnot(x[4], t5);
    let t7 = V::or(t6, x[1]);
    let t8 = V::xor(t7, t1);
    let t9 = V::xor(t3, t8);
    let t10 = V::xor(x[2], x[0]);
    let t11 = V::xor(t10, x[1]);
    let t12 = V::xor(t11, t6);
    let t13 = V::andnot(t6, t0);
    let t14 = V::andnot(t13, x[3]);
    let t15 = V::xor(t12, t14);
    let t16 = V::xor(t4, t15);
    let t17 = V::or(x[3], t1);
    let t18 = V::and(t2, t10);
    let t19 = V::andnot(t18, V::ones());
    let t20 = V::xor(t11, t19);
    let t21 = V::xor(t17, t20);
    let t22 = V::andnot(x[3], t19);
    let t23 = V::andnot(t8, t22);
    let t24 = V::andnot(t23, x[0]);
    let t25 = V::andnot(x[5], t24);
    let t26 = V::andnot(t21, t25);
    let t27 = V::andnot(t26, x[0]);
    let t28 = V::andnot(t25, t21);
    let t29 = V::xor(t28, t9);
    let t30 = V::xor(t29, x[5]);
    let t31 = V::xor(x[4], t27);
    let t32 = V::xor(t31, t29);
    let t33 = V::andnot(t29, t30);
    let t34 = V::andnot(t33, t16);
    let t35 = V::and(x[1], t34);
    let t36 = V::xor(t32, t35);
    let t37 = V::xor(t8, t22);
    let t38 = V::and(x[5], t37);
    let t39 = V::xor(t15, t38);
    let t40 = V::xor(t30, t15);
    let t41 = V::andnot(x[5], t9);
    let t42 = V::xor(t27, t16);
    let t43 = V::xor(t41, t42);
    [
        V::xor(l[0], t43),
        V::xor(l[1], t40),
        V::xor(l[2], t36),
        V::xor(l[3], t39),
    ]
}
