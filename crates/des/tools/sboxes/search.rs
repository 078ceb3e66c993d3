//! The search for the DES S-box circuits of `circuits.txt` (std only; see README.md for
//! the commands).
//!
//! Method: the recursive decomposition with don't-cares of M. Kwan, "Reducing the Gate
//! Count of Bitslice DES" (2000), as generalised to LUTs and randomised by M. Dansarie,
//! "sboxgates: A program for finding low gate count implementations of S-boxes", Journal
//! of Open Source Software 6(62), 2021 (github.com/dansarie/sboxgates). Written here from
//! those descriptions; no circuit of either (nor R. Rusakov's John the Ripper S-boxes) is
//! used. For one target function `T` with a care mask `M` (the 64 S-box inputs where its
//! value matters), [`Search::create`] tries, cheapest first:
//!
//! 1. a node already built that equals `T` on `M` (for `lut3`, or whose complement does:
//!    every consumer is a LUT and absorbs it; `gate2` callers say whether they can);
//! 2. `lut3`: one LUT over any three built nodes (any triple whose eight value classes
//!    are each constant on `M`); `gate2`: one gate over a pair, else the cheapest
//!    AND/OR/XOR/ANDNOT/NOT formula (a precomputed table of minimal formulas for every
//!    three-input function with don't-cares) over a triple;
//! 3. Kwan's split on an input bit `s` not used above: build `g` for `T` on one half of
//!    `M` (`s = 0` or `s = 1`), then `h` for the other half, with the half's target and
//!    care chosen per combining gate (`g ^ (s & h)`, `g | (s & h)`, `g & !(s & h)` and the
//!    `s = 1` mirror images; for `lut3` one LUT `(s, g, h)` whose care shrinks where `g`
//!    already decides); keep the variant with the fewest new gates (branch and bound).
//!
//! Every decision that has ties (order of the triples, of the split bits, of the four
//! outputs) is drawn from a seeded generator: restart `r` of S-box `i` in mode `k` is
//! fully determined by `(seed, i, k, r)` and the parameters, so the best circuit over
//! `restarts` restarts is reproducible, and the search is bounded by its parameters
//! (branching per recursion depth and the restart count), not by the clock. `lut3`
//! circuits are then shrunk by merging a gate into its only consumer when their inputs
//! together are at most three nodes; `gate2` keeps the smaller of its own search and of
//! the `lut3` circuit lowered gate by gate to minimal formulas.
//!
//! A second step, `--improve FILE`, shrinks the recorded circuits of a description file
//! (the first step's output, or an earlier improvement's; see [`improve`]) of the kinds
//! `--kind` names (default both). Kwan's search builds the outputs one
//! after the other, so the first outputs cannot use gates the later ones build; the
//! improvement therefore rebuilds one, two or three outputs at a time on top of the gates
//! the other outputs keep (the shared-gate pool, as sboxgates builds each new output over
//! all gates built so far, here with the pool taken from a whole circuit), and after every
//! rebuild tidies the circuit: for `gate2` with [`resub`], a resubstitution pass that
//! re-expresses each gate over other nodes as 0, 1 or 2 new gates (merging duplicates and
//! dropping the dead cone), then folding NOT into AND as ANDNOT ([`fold_nots`]); for `lut3`
//! with [`merge_luts`], as after the first step. It is deterministic from the input file,
//! `--seed` and its parameters, and bounded by `--rounds`.
//!
//! With `--fuse N` (`lut3`) the improvement minimises the round's gates instead: the
//! circuit's gates plus one XOR into the other half for each output that the round
//! cannot fold into that XOR (an output whose last gate reads two nodes and feeds nothing
//! else folds: `circuits::Circuit::fused_outs`), then the gates; rebuilt outputs try a
//! two-input top first ([`Search::create_fused`]).

mod circuits;

use circuits::{Circuit, Gate, Kind, Op, VAR};
use std::time::Instant;

const FULL: u64 = !0;

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The DES S-boxes, read from `src/backends/soft.rs` (indexed by `b1..b6`, `b1` the MSB).
fn sboxes(root: &str) -> [[u8; 64]; 8] {
    let src = std::fs::read_to_string(format!("{root}/src/backends/soft.rs"))
        .expect("run from crates/des or pass --root");
    let body = src
        .split("pub(crate) const SBOXES: [[u8; 64]; 8] = [")
        .nth(1)
        .expect("SBOXES in soft.rs")
        .split("];")
        .next()
        .unwrap();
    let nums: Vec<u8> = body
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums.len(), 512);
    let mut t = [[0u8; 64]; 8];
    for i in 0..8 {
        t[i].copy_from_slice(&nums[64 * i..64 * i + 64]);
    }
    t
}

/// A partial circuit: node tables (inputs first) and gates.
#[derive(Clone)]
struct St {
    tt: Vec<u64>,
    g: Vec<Gate>,
}

impl St {
    fn new() -> St {
        St {
            tt: VAR.to_vec(),
            g: Vec::new(),
        }
    }
    fn add(&mut self, op: Op, a: usize, b: usize, c: usize) -> usize {
        let ins = [a as u16, b as u16, c as u16];
        let mut ins2 = [0u16; 3];
        ins2[..op.arity()].copy_from_slice(&ins[..op.arity()]);
        let v = op.apply(self.tt[a], self.tt[b], self.tt[c]);
        self.tt.push(v);
        self.g.push(Gate { op, ins: ins2 });
        self.tt.len() - 1
    }
}

/// The three-input table (bit `a<<2|b<<1|c`) that equals `t` on `m`, if one does.
#[inline(always)]
fn lut_fit(a: u64, b: u64, c: u64, t: u64, m: u64) -> Option<u8> {
    let mut imm = 0u8;
    let ab = [!a & !b & m, !a & b & m, a & !b & m, a & b & m];
    for (p, &x) in ab.iter().enumerate() {
        for (q, cc) in [!c, c].into_iter().enumerate() {
            let sel = x & cc;
            let on = sel & t;
            if on != 0 {
                if on != sel {
                    return None;
                }
                imm |= 1 << (2 * p + q);
            }
        }
    }
    Some(imm)
}

/// Care set and values over the eight classes of `(a, b, c)`, if `t` is a function of them on `m`.
#[inline(always)]
fn classes(a: u64, b: u64, c: u64, t: u64, m: u64) -> Option<(u8, u8)> {
    let mut care = 0u8;
    let mut val = 0u8;
    for p in 0..8 {
        let sel = (if p & 4 != 0 { a } else { !a })
            & (if p & 2 != 0 { b } else { !b })
            & (if p & 1 != 0 { c } else { !c })
            & m;
        if sel != 0 {
            care |= 1 << p;
            let on = sel & t;
            if on == sel {
                val |= 1 << p;
            } else if on != 0 {
                return None;
            }
        }
    }
    Some((care, val))
}

/// A minimal AND/OR/XOR/ANDNOT/NOT formula over `A = 0xF0, B = 0xCC, C = 0xAA`.
#[derive(Clone, Debug)]
enum F {
    Leaf(usize),
    Node(Op, Box<F>, Box<F>),
}

struct Formulas {
    /// Tree cost and formula of every three-input function (`None`: constants).
    best: Vec<Option<(u8, F)>>,
    /// `cost[care << 8 | val]`: the cheapest table agreeing with `val` on `care`.
    pick: Vec<(u8, u8)>,
}

impl Formulas {
    fn new() -> Formulas {
        let mut best: Vec<Option<(u8, F)>> = vec![None; 256];
        for (k, t) in [0xF0u8, 0xCC, 0xAA].into_iter().enumerate() {
            best[t as usize] = Some((0, F::Leaf(k)));
        }
        loop {
            let mut changed = false;
            let items: Vec<(usize, u8, F)> = best
                .iter()
                .enumerate()
                .filter_map(|(t, b)| b.as_ref().map(|(c, f)| (t, *c, f.clone())))
                .collect();
            for (x, cx, fx) in &items {
                let nv = !(*x as u8);
                let c = cx + 1;
                if best[nv as usize].as_ref().is_none_or(|b| b.0 > c) {
                    best[nv as usize] = Some((
                        c,
                        F::Node(Op::Not, Box::new(fx.clone()), Box::new(fx.clone())),
                    ));
                    changed = true;
                }
                for (y, cy, fy) in &items {
                    let (x8, y8) = (*x as u8, *y as u8);
                    for (op, v) in [
                        (Op::And, x8 & y8),
                        (Op::Or, x8 | y8),
                        (Op::Xor, x8 ^ y8),
                        (Op::AndNot, !x8 & y8),
                    ] {
                        let c = cx + cy + 1;
                        if best[v as usize].as_ref().is_none_or(|b| b.0 > c) {
                            best[v as usize] =
                                Some((c, F::Node(op, Box::new(fx.clone()), Box::new(fy.clone()))));
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut pick = vec![(u8::MAX, 0u8); 65536];
        for care in 0..256usize {
            for f in 0..256usize {
                if let Some((c, _)) = &best[f] {
                    let idx = care << 8 | (f & care);
                    if *c < pick[idx].0 {
                        pick[idx] = (*c, f as u8);
                    }
                }
            }
        }
        Formulas { best, pick }
    }
}

#[derive(Clone, Copy, Debug)]
struct Params {
    /// Split bits tried at recursion depth `d` (the last entry for deeper levels).
    branch: [usize; 4],
    /// Whether both halves are tried first at each split.
    both_orders: bool,
    restarts: usize,
    /// Recursion depths below which the two-LUT search runs.
    lut5_depth: usize,
    /// Rebuild-one-output rounds per restart.
    polish: usize,
    /// (gate2) recursion depths below which the three-gate search runs.
    quad_depth: usize,
    /// Recursion depths below which built gates are also tried as split selectors, and
    /// how many.
    sel_depth: usize,
    sel_nodes: usize,
    /// (`--improve`, lut3) Fused-output candidates tried per rebuilt output; 0: the
    /// improvement counts gates only and rebuilds plain outputs.
    fuse: usize,
}

struct Search<'a> {
    kind: Kind,
    rng: Rng,
    p: Params,
    fm: &'a Formulas,
    /// Give up a restart after this many `create` calls (keeps every restart bounded).
    calls: u64,
    max_calls: u64,
    /// The gate budget of the restart (the two-LUT search is skipped past it).
    limit_hint: usize,
}

impl Search<'_> {
    /// Builds `t` on care mask `m` into `st` using at most `limit` gates in all; returns
    /// the node and whether it is the complement (only when `inv_ok`).
    fn create(
        &mut self,
        st: &mut St,
        t: u64,
        m: u64,
        used: u8,
        inv_ok: bool,
        depth: usize,
        limit: usize,
    ) -> Option<(usize, bool)> {
        self.calls += 1;
        if m == 0 {
            return Some((0, false));
        }
        // 1. Already built.
        let lut = self.kind == Kind::Lut3;
        let mut inv_at = None;
        for (i, &v) in st.tt.iter().enumerate() {
            if (v ^ t) & m == 0 {
                return Some((i, false));
            }
            if (v ^ !t) & m == 0 && inv_at.is_none() {
                inv_at = Some(i);
            }
        }
        if let Some(i) = inv_at {
            if inv_ok {
                return Some((i, true));
            }
        }
        if st.g.len() >= limit || self.calls > self.max_calls {
            return None;
        }
        if let Some(i) = inv_at {
            let r = if lut {
                st.add(Op::Lut(0x0F), i, i, i)
            } else {
                st.add(Op::Not, i, 0, 0)
            };
            return Some((r, false));
        }
        let n = st.tt.len();
        let mut ord: Vec<usize> = (0..n).collect();
        self.rng.shuffle(&mut ord);
        if lut {
            // 2. One LUT over three built nodes.
            for x in 0..n {
                let a = st.tt[ord[x]];
                for y in x + 1..n {
                    let b = st.tt[ord[y]];
                    for z in y + 1..n {
                        if let Some(imm) = lut_fit(a, b, st.tt[ord[z]], t, m) {
                            return Some((st.add(Op::Lut(imm), ord[x], ord[y], ord[z]), false));
                        }
                    }
                }
            }
        } else {
            // 2. One gate over a pair.
            for x in 0..n {
                let a = st.tt[ord[x]];
                for y in 0..n {
                    if x == y {
                        continue;
                    }
                    let b = st.tt[ord[y]];
                    for (op, v) in [
                        (Op::And, a & b),
                        (Op::Or, a | b),
                        (Op::Xor, a ^ b),
                        (Op::AndNot, !a & b),
                    ] {
                        if (v ^ t) & m == 0 {
                            return Some((st.add(op, ord[x], ord[y], 0), false));
                        }
                        if inv_ok && (v ^ !t) & m == 0 {
                            return Some((st.add(op, ord[x], ord[y], 0), true));
                        }
                    }
                }
            }
        }
        // 2b. (lut3, shallow) two LUTs: `L1(a, b, L2(c, d, e))` over built nodes.
        if lut && depth < self.p.lut5_depth {
            if let Some(r) = self.lut5(st, t, m, &ord) {
                return Some((r, false));
            }
        }
        // 3. (gate2) the cheapest formula over a triple; compared with the split below.
        let mut tri: Option<(u8, u8, bool, [usize; 3])> = None;
        if !lut {
            'outer: for x in 0..n {
                let a = st.tt[ord[x]];
                for y in x + 1..n {
                    let b = st.tt[ord[y]];
                    for z in y + 1..n {
                        if let Some((care, val)) = classes(a, b, st.tt[ord[z]], t, m) {
                            let (mut c, mut f) = self.fm.pick[(care as usize) << 8 | val as usize];
                            let mut inv = false;
                            if inv_ok {
                                let (c2, f2) =
                                    self.fm.pick[(care as usize) << 8 | (!val & care) as usize];
                                if c2 < c {
                                    (c, f, inv) = (c2, f2, true);
                                }
                            }
                            if tri.is_none_or(|b| c < b.0) {
                                tri = Some((c, f, inv, [ord[x], ord[y], ord[z]]));
                                if c <= 2 {
                                    break 'outer;
                                }
                            }
                        }
                    }
                }
            }
            if let Some((c, f, inv, ins)) = tri {
                if c <= 2 && st.g.len() + c as usize <= limit {
                    let r = self.insert(st, f, ins);
                    return Some((r, inv));
                }
            }
            // 3b. (shallow) three gates over four nodes: `op(op(a, b), op(c, d))`.
            if depth < self.p.quad_depth && tri.is_none_or(|b| b.0 > 3) && st.g.len() + 3 <= limit {
                if let Some(r) = self.quad(st, t, m, inv_ok, &ord) {
                    return Some(r);
                }
            }
        }
        // 4. Split on an input bit.
        let mut best: Option<(St, usize, bool)> = None;
        let mut lim = limit;
        if let Some((c, _, _, _)) = tri {
            lim = lim.min(st.g.len() + c as usize);
        }
        let mut bits: Vec<usize> = (0..6).filter(|&s| used >> s & 1 == 0).collect();
        self.rng.shuffle(&mut bits);
        bits.truncate(self.p.branch[depth.min(3)]);
        if depth < self.p.sel_depth {
            // Also split on built gates (a generalisation of the input-bit split).
            let mut cand: Vec<usize> = (6..st.tt.len())
                .filter(|&x| st.tt[x] & m != 0 && !st.tt[x] & m != 0)
                .collect();
            self.rng.shuffle(&mut cand);
            cand.truncate(self.p.sel_nodes);
            bits.extend(cand);
        }
        for &s in &bits {
            let sv = st.tt[s];
            let nused = if s < 6 { used | 1 << s } else { used };
            let orders: &[bool] = if self.p.both_orders {
                &[false, true]
            } else if self.rng.next() & 1 == 0 {
                &[false]
            } else {
                &[true]
            };
            for &hi_first in orders {
                // `m1`: the half built first (s = 0 unless hi_first).
                let (m1, m2) = if hi_first {
                    (m & sv, m & !sv)
                } else {
                    (m & !sv, m & sv)
                };
                let need = if lut { 1 } else { 2 };
                if st.g.len() + need > lim {
                    continue;
                }
                let mut st1 = st.clone();
                let Some((g0, _)) = self.create(&mut st1, t, m1, nused, lut, depth + 1, lim - need)
                else {
                    continue;
                };
                let g = st1.tt[g0];
                // Variants for the second half: (target, care, kind).
                let mut vars: Vec<(u64, u64, u8)> = vec![(t ^ g, m2, 0)];
                if g & !t & m2 == 0 {
                    vars.push((t, m2 & !g, 1)); // g | h
                }
                if !g & t & m2 == 0 {
                    vars.push((!t, m2 & g, 2)); // g & !h
                }
                if lut {
                    if g & t & m2 == 0 {
                        vars.push((t, m2 & !g, 3));
                    }
                    if !g & !t & m2 == 0 {
                        vars.push((t, m2 & g, 4));
                    }
                    if !vars.iter().any(|v| v.2 != 0) {
                        vars.push((t, m2, 5));
                    }
                }
                for (th, mh, var) in vars {
                    if st1.g.len() + need > lim {
                        break;
                    }
                    let mut st2 = st1.clone();
                    let h_inv_ok = lut || !hi_first || var == 2;
                    let Some((h, hinv)) =
                        self.create(&mut st2, th, mh, nused, h_inv_ok, depth + 1, lim - need)
                    else {
                        continue;
                    };
                    let r = if lut {
                        let imm = lut_fit(sv, st2.tt[g0], st2.tt[h], t, m).expect("split LUT");
                        st2.add(Op::Lut(imm), s, g0, h)
                    } else {
                        // u: the h-half as `th` (or its complement for var 2 with hinv),
                        // zero on the g-half.
                        let (u, uinv) = match (hi_first, hinv) {
                            (false, false) => (st2.add(Op::And, s, h, 0), false),
                            (false, true) => (st2.add(Op::AndNot, h, s, 0), false),
                            (true, false) => (st2.add(Op::AndNot, s, h, 0), false),
                            // only var 2: u' = s | h' is one on the g-half, h = !th.
                            (true, true) => (st2.add(Op::Or, s, h, 0), true),
                        };
                        match (var, uinv) {
                            (0, _) => st2.add(Op::Xor, g0, u, 0),
                            (1, _) => st2.add(Op::Or, g0, u, 0),
                            (_, false) => st2.add(Op::AndNot, u, g0, 0),
                            (_, true) => st2.add(Op::And, g0, u, 0),
                        }
                    };
                    debug_assert_eq!((st2.tt[r] ^ t) & m, 0);
                    let len = st2.g.len();
                    if best.as_ref().is_none_or(|b| len < b.0.g.len()) {
                        lim = len - 1;
                        best = Some((st2, r, false));
                    }
                }
            }
        }
        if let Some((b, r, inv)) = best {
            *st = b;
            return Some((r, inv));
        }
        if let Some((c, f, inv, ins)) = tri {
            if st.g.len() + c as usize <= limit {
                let r = self.insert(st, f, ins);
                return Some((r, inv));
            }
        }
        None
    }

    /// (lut3) `t` as a two-input function of a built node `p` and a node `q` built here,
    /// one LUT `(p, q, q)` on top, within `limit` gates: the output the round folds into
    /// its XOR with the left half ([`circuits::Circuit::fused_outs`]). `q` is `t ^ p`,
    /// or `t` where `t` is constant on one side of `p` (that side's cells don't care).
    /// Up to `self.p.fuse` candidates `(p, form)`, in a drawn order, keeping the smallest.
    fn create_fused(&mut self, st: &mut St, t: u64, limit: usize) -> Option<usize> {
        let mut cand: Vec<(usize, u64, u64)> = Vec::new();
        for (p, &v) in st.tt.iter().enumerate() {
            cand.push((p, t ^ v, FULL));
            if t & !v == 0 || !t & !v == 0 {
                cand.push((p, t, v));
            }
            if t & v == 0 || !t & v == 0 {
                cand.push((p, t, !v));
            }
        }
        self.rng.shuffle(&mut cand);
        cand.truncate(self.p.fuse);
        let mut best: Option<(St, usize)> = None;
        let mut lim = limit;
        for (p, tq, mq) in cand {
            if st.g.len() + 1 > lim {
                break;
            }
            let mut s2 = st.clone();
            self.calls = 0;
            let Some((q, _)) = self.create(&mut s2, tq, mq, 0, true, 0, lim - 1) else {
                continue;
            };
            let imm = lut_fit(s2.tt[p], s2.tt[q], s2.tt[q], t, FULL).expect("two-input top");
            let r = s2.add(Op::Lut(imm), p, q, q);
            if best.as_ref().is_none_or(|b| s2.g.len() < b.0.g.len()) {
                lim = s2.g.len() - 1;
                best = Some((s2, r));
            }
        }
        let (b, r) = best?;
        *st = b;
        Some(r)
    }

    /// `t` on `m` as `L1(a, b, g)` with `g = L2(c, d, e)`, all five built nodes (two new
    /// gates), if there is such a pair of LUTs. Within each class of `(a, b)` where `t` is
    /// not constant, `t` must be `g` or `!g`; `g` is a function of `(c, d, e)`.
    fn lut5(&mut self, st: &mut St, t: u64, m: u64, ord: &[usize]) -> Option<usize> {
        if st.g.len() + 2 > self.limit_hint {
            return None;
        }
        let n = ord.len();
        // Cell masks of every triple, in `ord` order.
        let mut tri: Vec<([usize; 3], [u64; 8])> = Vec::with_capacity(n * n * n / 6);
        for x in 0..n {
            let a = st.tt[ord[x]];
            for y in x + 1..n {
                let b = st.tt[ord[y]];
                for z in y + 1..n {
                    let c = st.tt[ord[z]];
                    let mut cells = [0u64; 8];
                    for (p, cell) in cells.iter_mut().enumerate() {
                        *cell = (if p & 4 != 0 { a } else { !a })
                            & (if p & 2 != 0 { b } else { !b })
                            & (if p & 1 != 0 { c } else { !c })
                            & m;
                    }
                    tri.push(([ord[x], ord[y], ord[z]], cells));
                }
            }
        }
        for x in 0..n {
            let a = st.tt[ord[x]];
            for y in x + 1..n {
                let b = st.tt[ord[y]];
                let mut mixed = [0u64; 4];
                let mut k = 0;
                for cls in [!a & !b & m, !a & b & m, a & !b & m, a & b & m] {
                    let on = cls & t;
                    if on != 0 && on != cls {
                        mixed[k] = cls;
                        k += 1;
                    }
                }
                if k == 0 {
                    continue;
                }
                'tri: for (ins, cells) in &tri {
                    // Per mixed class: the 8-cell care set and values of `t`.
                    let mut cv = [(0u8, 0u8); 4];
                    for (j, cls) in mixed[..k].iter().enumerate() {
                        let (mut care, mut val) = (0u8, 0u8);
                        for (p, &cell) in cells.iter().enumerate() {
                            let sel = cell & cls;
                            if sel != 0 {
                                care |= 1 << p;
                                let on = sel & t;
                                if on == sel {
                                    val |= 1 << p;
                                } else if on != 0 {
                                    continue 'tri;
                                }
                            }
                        }
                        cv[j] = (care, val);
                    }
                    // Polarity per class (the first fixed): one g agreeing with all.
                    for pol in 0..1u8 << (k - 1) {
                        let (mut gc, mut gv) = cv[0];
                        let mut ok = true;
                        for j in 1..k {
                            let (c, mut v) = cv[j];
                            if pol >> (j - 1) & 1 == 1 {
                                v = !v & c;
                            }
                            if (gv ^ v) & gc & c != 0 {
                                ok = false;
                                break;
                            }
                            gc |= c;
                            gv |= v;
                        }
                        if ok {
                            let g = st.add(Op::Lut(gv), ins[0], ins[1], ins[2]);
                            let imm = lut_fit(a, b, st.tt[g], t, m).expect("two-LUT fit");
                            return Some(st.add(Op::Lut(imm), ord[x], ord[y], g));
                        }
                    }
                }
            }
        }
        None
    }

    /// `gate2`: `t` (or `!t` when `inv_ok`) on `m` as one gate over two new one-gate
    /// functions of built nodes (Kwan's three-gate step), if there is one.
    fn quad(
        &mut self,
        st: &mut St,
        t: u64,
        m: u64,
        inv_ok: bool,
        ord: &[usize],
    ) -> Option<(usize, bool)> {
        // One-gate functions (deduplicated on `m`): (table, op, a, b).
        let mut seen = std::collections::HashMap::new();
        let mut p: Vec<(u64, Op, usize, usize)> = Vec::new();
        for (x, &i) in ord.iter().enumerate() {
            for &j in &ord[x + 1..] {
                let (a, b) = (st.tt[i], st.tt[j]);
                for (op, v, i, j) in [
                    (Op::And, a & b, i, j),
                    (Op::Or, a | b, i, j),
                    (Op::Xor, a ^ b, i, j),
                    (Op::AndNot, !a & b, i, j),
                    (Op::AndNot, a & !b, j, i),
                ] {
                    let key = v & m;
                    if st.tt.iter().any(|&e| (e ^ v) & m == 0) || seen.contains_key(&key) {
                        continue;
                    }
                    seen.insert(key, p.len());
                    p.push((v, op, i, j));
                }
            }
        }
        let pols: &[bool] = if inv_ok { &[false, true] } else { &[false] };
        for &inv in pols {
            let tt = if inv { !t } else { t };
            let mut found = None;
            // XOR: the partner is determined.
            for (k, &(u, ..)) in p.iter().enumerate() {
                if let Some(&l) = seen.get(&((tt ^ u) & m)) {
                    if l != k {
                        found = Some((Op::Xor, k, l));
                        break;
                    }
                }
            }
            if found.is_none() {
                let sup: Vec<usize> = (0..p.len()).filter(|&k| tt & !p[k].0 & m == 0).collect();
                let sub: Vec<usize> = (0..p.len()).filter(|&k| p[k].0 & !tt & m == 0).collect();
                let dis: Vec<usize> = (0..p.len()).filter(|&k| p[k].0 & tt & m == 0).collect();
                'f: for (op, xs, ys) in [
                    (Op::And, &sup, &sup),
                    (Op::Or, &sub, &sub),
                    (Op::AndNot, &dis, &sup),
                ] {
                    for &k in xs.iter() {
                        for &l in ys.iter() {
                            if k != l && (op.apply(p[k].0, p[l].0, 0) ^ tt) & m == 0 {
                                found = Some((op, k, l));
                                break 'f;
                            }
                        }
                    }
                }
            }
            if let Some((op, k, l)) = found {
                let (_, o1, a1, b1) = p[k];
                let (_, o2, a2, b2) = p[l];
                let u = st.add(o1, a1, b1, 0);
                let v = st.add(o2, a2, b2, 0);
                let r = st.add(op, u, v, 0);
                debug_assert_eq!((st.tt[r] ^ tt) & m, 0);
                return Some((r, inv));
            }
        }
        None
    }

    /// Adds the minimal formula of table `f` over nodes `ins` (reusing built nodes).
    fn insert(&mut self, st: &mut St, f: u8, ins: [usize; 3]) -> usize {
        let form = self.fm.best[f as usize]
            .as_ref()
            .expect("formula")
            .1
            .clone();
        ins_f(st, &form, ins)
    }
}

fn ins_f(st: &mut St, f: &F, ins: [usize; 3]) -> usize {
    match f {
        F::Leaf(k) => ins[*k],
        F::Node(op, x, y) => {
            let a = ins_f(st, x, ins);
            let b = if *op == Op::Not { a } else { ins_f(st, y, ins) };
            let v = op.apply(st.tt[a], st.tt[b], 0);
            if let Some(i) = st.tt.iter().position(|&t| t == v) {
                return i;
            }
            st.add(*op, a, b, 0)
        }
    }
}

/// Drops gates no output needs, renumbering.
fn prune(st: &St, outs: [usize; 4]) -> (St, [usize; 4]) {
    let (s, o) = prune_list(st, &outs);
    (s, [o[0], o[1], o[2], o[3]])
}

/// [`prune`] for any list of outputs.
fn prune_list(st: &St, outs: &[usize]) -> (St, Vec<usize>) {
    let n = st.tt.len();
    let mut live = vec![false; n];
    for &o in outs {
        live[o] = true;
    }
    for i in (6..n).rev() {
        if live[i] {
            let g = st.g[i - 6];
            for &x in &g.ins[..g.op.arity()] {
                live[x as usize] = true;
            }
        }
    }
    let mut map = vec![0usize; n];
    let mut out = St::new();
    for i in 0..n {
        if i < 6 {
            map[i] = i;
        } else if live[i] {
            let g = st.g[i - 6];
            let ins = g.ins.map(|x| map[x as usize]);
            map[i] = out.add(g.op, ins[0], ins[1], ins[2]);
        }
    }
    (out, outs.iter().map(|&o| map[o]).collect())
}

/// `lut3`: merges a gate into its only consumer when their inputs are at most three nodes.
fn merge_luts(mut st: St, mut outs: [usize; 4]) -> (St, [usize; 4]) {
    loop {
        let n = st.tt.len();
        let mut fan = vec![0usize; n];
        for g in &st.g {
            let mut seen = [usize::MAX; 3];
            for (j, &x) in g.ins.iter().enumerate() {
                if !seen.contains(&(x as usize)) {
                    fan[x as usize] += 1;
                    seen[j] = x as usize;
                }
            }
        }
        for &o in &outs {
            fan[o] += 1;
        }
        let mut done = false;
        'scan: for h in 6..n {
            let gh = st.g[h - 6];
            for &x in &gh.ins {
                let x = x as usize;
                if x < 6 || fan[x] != 1 {
                    continue;
                }
                let gx = st.g[x - 6];
                let mut set: Vec<usize> = gh
                    .ins
                    .iter()
                    .map(|&v| v as usize)
                    .filter(|&v| v != x)
                    .collect();
                set.extend(gx.ins.iter().map(|&v| v as usize));
                set.sort();
                set.dedup();
                if set.len() <= 3 {
                    while set.len() < 3 {
                        set.push(set[0]);
                    }
                    let imm = lut_fit(st.tt[set[0]], st.tt[set[1]], st.tt[set[2]], st.tt[h], FULL)
                        .expect("merged LUT");
                    st.g[h - 6] = Gate {
                        op: Op::Lut(imm),
                        ins: [set[0] as u16, set[1] as u16, set[2] as u16],
                    };
                    done = true;
                    break 'scan;
                }
            }
        }
        let (s2, o2) = prune(&st, outs);
        st = s2;
        outs = o2;
        if !done {
            return (st, outs);
        }
    }
}

/// `lut3` circuit lowered to minimal two-input formulas, gate by gate.
fn lower(fm: &Formulas, st: &St, outs: [usize; 4]) -> (St, [usize; 4]) {
    let mut out = St::new();
    let mut map: Vec<usize> = (0..6).collect();
    for (i, g) in st.g.iter().enumerate() {
        let Op::Lut(imm) = g.op else { unreachable!() };
        let ins = g.ins.map(|x| map[x as usize]);
        let (a, b, c) = (out.tt[ins[0]], out.tt[ins[1]], out.tt[ins[2]]);
        let (care, val) = classes(a, b, c, st.tt[6 + i], FULL).expect("LUT is a function");
        debug_assert_eq!(val, imm & care);
        let (_, f) = fm.pick[(care as usize) << 8 | val as usize];
        let r = {
            let form = fm.best[f as usize].as_ref().expect("formula").1.clone();
            ins_f(&mut out, &form, ins)
        };
        map.push(r);
    }
    let o = outs.map(|x| map[x]);
    prune(&out, o)
}

/// One restart for S-box `i`: the four outputs in a random order.
fn restart(
    kind: Kind,
    fm: &Formulas,
    p: Params,
    seed: u64,
    i: usize,
    r: usize,
    box_: &[u8; 64],
    limit: usize,
) -> Option<(St, [usize; 4])> {
    let mut rng = Rng(seed ^ (i as u64) << 48 ^ (kind as u64) << 44 ^ r as u64);
    rng.next();
    let mut s = Search {
        kind,
        rng,
        p,
        fm,
        calls: 0,
        max_calls: 2_000_000,
        limit_hint: limit + 8,
    };
    let outs: [u64; 4] = core::array::from_fn(|m| {
        (0..64)
            .filter(|&x| (box_[x] >> (3 - m)) & 1 == 1)
            .fold(0u64, |a, x| a | 1 << x)
    });
    let mut order = [0usize, 1, 2, 3];
    s.rng.shuffle(&mut order);
    let mut st = St::new();
    let mut res = [0usize; 4];
    for &o in &order {
        let (n, inv) = s.create(&mut st, outs[o], FULL, 0, false, 0, limit + 8)?;
        assert!(!inv);
        res[o] = n;
    }
    let (mut st, mut res) = prune(&st, res);
    let post = |st: St, res: [usize; 4]| {
        if kind == Kind::Lut3 {
            merge_luts(st, res)
        } else {
            fold_nots(st, res)
        }
    };
    (st, res) = post(st, res);
    // Polish: rebuild one output's own gates on top of the other three, keeping the
    // result when it is no larger (plateau moves let the search drift).
    for _ in 0..p.polish {
        let o = s.rng.below(4);
        let others: Vec<usize> = (0..4).filter(|&j| j != o).map(|j| res[j]).collect();
        let (mut base, omap) = prune_list(&st, &others);
        let budget = st.g.len();
        s.calls = 0;
        let Some((n, _)) = s.create(&mut base, outs[o], FULL, 0, false, 0, budget + 2) else {
            continue;
        };
        let mut r2 = [0usize; 4];
        let mut k = 0;
        for j in 0..4 {
            if j == o {
                r2[j] = n;
            } else {
                r2[j] = omap[k];
                k += 1;
            }
        }
        let (b2, r2) = prune(&base, r2);
        let (b2, r2) = post(b2, r2);
        if b2.g.len() <= st.g.len() {
            st = b2;
            res = r2;
        }
    }
    if st.g.len() > limit {
        return None;
    }
    Some((st, res))
}

/// Live gates in a topological order: a post-order walk from the outputs of a gate list
/// whose operands may point forwards (`nodes[k]` is node `6 + k`); renumbers.
fn relink(nodes: &[(Op, [usize; 3])], outs: [usize; 4]) -> (St, [usize; 4]) {
    let n = 6 + nodes.len();
    let mut map = vec![usize::MAX; n];
    for (i, m) in map.iter_mut().enumerate().take(6) {
        *m = i;
    }
    let mut st = St::new();
    // Iterative post-order (operands first, in operand order).
    for &o in &outs {
        let mut stack = vec![(o, 0usize)];
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if map[v] != usize::MAX {
                stack.pop();
                continue;
            }
            let (op, ins) = nodes[v - 6];
            if *k < op.arity() {
                let x = ins[*k];
                *k += 1;
                if map[x] == usize::MAX {
                    stack.push((x, 0));
                }
                continue;
            }
            let a = ins.map(|x| {
                if x < n && map[x] != usize::MAX {
                    map[x]
                } else {
                    0
                }
            });
            map[v] = st.add(op, a[0], a[1], a[2]);
            stack.pop();
        }
    }
    (st, outs.map(|o| map[o]))
}

/// `gate2` post-pass: resubstitution. A gate `g` is re-expressed over nodes that do not
/// depend on it: as an existing node (duplicate merging), as one new gate over a pair or
/// a NOT, or as a two-gate formula over a triple; the change is kept when the circuit
/// (after dropping the gates no output needs any more: the cone only `g` used) gets
/// smaller. This is the resubstitution of logic synthesis (A. Mishchenko, S. Chatterjee,
/// R. Brayton, "DAG-aware AIG rewriting", DAC 2006, and ABC's `resub`), here exhaustive
/// over the small S-box circuits; deterministic (no random choice).
fn resub(fm: &Formulas, mut st: St, mut outs: [usize; 4]) -> (St, [usize; 4]) {
    loop {
        let n = st.tt.len();
        if n > 128 {
            return (st, outs);
        }
        // dep[x]: the nodes `x` depends on, itself included.
        let mut dep = vec![0u128; n];
        for (i, d) in dep.iter_mut().enumerate() {
            *d = 1u128 << i;
        }
        for i in 6..n {
            let g = st.g[i - 6];
            for &x in &g.ins[..g.op.arity()] {
                dep[i] |= dep[x as usize];
            }
        }
        let cur = st.g.len();
        let nodes: Vec<(Op, [usize; 3])> =
            st.g.iter()
                .map(|g| (g.op, g.ins.map(|x| x as usize)))
                .collect();
        let mut done = false;
        'g: for g in 6..n {
            let t = st.tt[g];
            let ok: Vec<usize> = (0..n).filter(|&x| dep[x] >> g & 1 == 0).collect();
            // Replacements of g's definition: extra gates (appended) and g's own gate, or
            // another node standing for g.
            let try_it =
                |extra: &[(Op, [usize; 3])], top: Option<(Op, [usize; 3])>, alias: usize| {
                    let mut ns = nodes.clone();
                    let mut o = outs;
                    if let Some(top) = top {
                        ns[g - 6] = top;
                        ns.extend_from_slice(extra);
                    } else {
                        for e in ns.iter_mut() {
                            for x in e.1.iter_mut() {
                                if *x == g {
                                    *x = alias;
                                }
                            }
                        }
                        for x in o.iter_mut() {
                            if *x == g {
                                *x = alias;
                            }
                        }
                    }
                    relink(&ns, o)
                };
            // Cost 0: an equal node.
            for &x in &ok {
                if st.tt[x] == t {
                    let (s2, o2) = try_it(&[], None, x);
                    if s2.g.len() < cur {
                        (st, outs) = (s2, o2);
                        done = true;
                        break 'g;
                    }
                }
            }
            if cur < 2 {
                continue;
            }
            // Cost 1: NOT, or one gate over a pair.
            for (xi, &x) in ok.iter().enumerate() {
                let a = st.tt[x];
                if !a == t {
                    let (s2, o2) = try_it(&[], Some((Op::Not, [x, 0, 0])), 0);
                    if s2.g.len() < cur {
                        (st, outs) = (s2, o2);
                        done = true;
                        break 'g;
                    }
                }
                for &y in &ok[xi + 1..] {
                    let b = st.tt[y];
                    for (op, v, p, q) in [
                        (Op::And, a & b, x, y),
                        (Op::Or, a | b, x, y),
                        (Op::Xor, a ^ b, x, y),
                        (Op::AndNot, !a & b, x, y),
                        (Op::AndNot, a & !b, y, x),
                    ] {
                        if v == t {
                            let (s2, o2) = try_it(&[], Some((op, [p, q, 0])), 0);
                            if s2.g.len() < cur {
                                (st, outs) = (s2, o2);
                                done = true;
                                break 'g;
                            }
                        }
                    }
                }
            }
            if cur < 3 {
                continue;
            }
            // Cost 2: a two-gate formula over a triple.
            for (xi, &x) in ok.iter().enumerate() {
                for (yi, &y) in ok.iter().enumerate().skip(xi + 1) {
                    for &z in &ok[yi + 1..] {
                        let Some((care, val)) = classes(st.tt[x], st.tt[y], st.tt[z], t, FULL)
                        else {
                            continue;
                        };
                        let (c, f) = fm.pick[(care as usize) << 8 | val as usize];
                        if c != 2 {
                            continue;
                        }
                        let Some((_, F::Node(op, l, r))) = &fm.best[f as usize] else {
                            continue;
                        };
                        let ins = [x, y, z];
                        let mut extra = Vec::new();
                        let leaf = |e: &F, extra: &mut Vec<(Op, [usize; 3])>| match e {
                            F::Leaf(k) => ins[*k],
                            F::Node(o2, a, b) => {
                                let (F::Leaf(ka), F::Leaf(kb)) = (&**a, &**b) else {
                                    unreachable!("two-gate formula")
                                };
                                extra.push((*o2, [ins[*ka], ins[*kb], 0]));
                                n + extra.len() - 1
                            }
                        };
                        let a = leaf(l, &mut extra);
                        let b = if *op == Op::Not {
                            a
                        } else {
                            leaf(r, &mut extra)
                        };
                        let (s2, o2) = try_it(&extra, Some((*op, [a, b, 0])), 0);
                        if s2.g.len() < cur {
                            (st, outs) = (s2, o2);
                            done = true;
                            break 'g;
                        }
                    }
                }
            }
        }
        if !done {
            return (st, outs);
        }
    }
}

/// `gate2`: a NOT whose consumers are all ANDs (or ANDNOTs taking it first) is folded
/// into them as ANDNOTs.
fn fold_nots(mut st: St, outs: [usize; 4]) -> (St, [usize; 4]) {
    for i in 0..st.g.len() {
        let node = 6 + i;
        if st.g[i].op != Op::Not || outs.contains(&node) {
            continue;
        }
        let a = st.g[i].ins[0];
        let users: Vec<usize> = (0..st.g.len())
            .filter(|&j| st.g[j].ins[..st.g[j].op.arity()].contains(&(node as u16)))
            .collect();
        let ok = users.iter().all(|&j| {
            let g = st.g[j];
            (g.op == Op::And && g.ins[0] != g.ins[1])
                || (g.op == Op::AndNot && g.ins[0] == node as u16 && g.ins[1] != node as u16)
        });
        if !ok {
            continue;
        }
        for &j in &users {
            let g = st.g[j];
            st.g[j] = if g.op == Op::And {
                let other = if g.ins[0] == node as u16 {
                    g.ins[1]
                } else {
                    g.ins[0]
                };
                Gate {
                    op: Op::AndNot,
                    ins: [a, other, 0],
                }
            } else {
                Gate {
                    op: Op::And,
                    ins: [a, g.ins[1], 0],
                }
            };
        }
    }
    prune(&st, outs)
}

/// `--improve`: shrinks a recorded circuit of kind `kind` of S-box `i`. First the kind's
/// tidy pass ([`resub`] and [`fold_nots`] for `gate2`, [`merge_luts`] for `lut3`); then
/// `rounds` rounds that each rebuild one, two or three outputs (the sets of at most
/// `group` outputs in turn) with [`Search::create`] on top of the gates the other outputs
/// need (Kwan's search with the other outputs' gates as the shared pool, the "polish" of
/// [`restart`]), followed by the tidy pass; a round
/// is kept when the circuit is no larger (plateau moves let it drift). Round `r` draws
/// its tie-breaks from `(seed, i, r)`, so the result is a function of the input circuit,
/// the seed and the parameters.
fn improve(
    kind: Kind,
    fm: &Formulas,
    p: Params,
    seed: u64,
    rounds: usize,
    group: usize,
    i: usize,
    box_: &[u8; 64],
    c: &Circuit,
) -> (St, [usize; 4]) {
    let mut st = St::new();
    for g in &c.gates {
        st.add(
            g.op,
            g.ins[0] as usize,
            g.ins[1] as usize,
            g.ins[2] as usize,
        );
    }
    let outs0 = c.outs.map(|o| o as usize);
    let tidy = |st: St, res: [usize; 4]| {
        if kind == Kind::Lut3 {
            return merge_luts(st, res);
        }
        let (st, res) = fold_nots(st, res);
        let (st, res) = resub(fm, st, res);
        fold_nots(st, res)
    };
    // What a round of improvement minimises: gates, or with `--fuse` the round's gates
    // (the XORs into the left half that fused outputs save counted), then gates.
    let cost = |st: &St, res: [usize; 4]| {
        if p.fuse == 0 {
            (st.g.len(), 0)
        } else {
            (
                to_circuit(i, kind, st, res, String::new()).round_gates(),
                st.g.len(),
            )
        }
    };
    let (st0, o0) = prune(&st, outs0);
    let (mut st, mut res) = tidy(st0, o0);
    let want: [u64; 4] = core::array::from_fn(|m| {
        (0..64)
            .filter(|&x| (box_[x] >> (3 - m)) & 1 == 1)
            .fold(0u64, |a, x| a | 1 << x)
    });
    let mut sets: Vec<Vec<usize>> = (1u32..15)
        .filter(|m| m.count_ones() as usize <= group.max(1))
        .map(|m| (0..4).filter(|&j| m >> j & 1 == 1).collect::<Vec<usize>>())
        .collect();
    sets.sort_by_key(Vec::len);
    for r in 0..rounds {
        let mut rng = Rng(seed ^ (i as u64) << 48 ^ 0xA5 << 40 ^ r as u64);
        rng.next();
        let mut s = Search {
            kind,
            rng,
            p,
            fm,
            calls: 0,
            max_calls: 2_000_000,
            limit_hint: st.g.len() + 8,
        };
        // The outputs rebuilt this round, in turn: each one alone, then (`group` ≥ 2)
        // each pair, then (`group` ≥ 3) each triple; built in a drawn order.
        let mut set = sets[r % sets.len()].clone();
        s.rng.shuffle(&mut set);
        let others: Vec<usize> = (0..4)
            .filter(|j| !set.contains(j))
            .map(|j| res[j])
            .collect();
        let (mut base, omap) = prune_list(&st, &others);
        let budget = st.g.len() + 2;
        let mut r2 = [usize::MAX; 4];
        let mut failed = false;
        for &o in &set {
            s.calls = 0;
            // With `--fuse`, three rebuilds in four try a fused output first.
            let fused = if p.fuse > 0 && s.rng.below(4) != 0 {
                s.create_fused(&mut base, want[o], budget)
            } else {
                None
            };
            s.calls = 0;
            match fused.or_else(|| {
                s.create(&mut base, want[o], FULL, 0, false, 0, budget)
                    .map(|r| r.0)
            }) {
                Some(n) => r2[o] = n,
                None => failed = true,
            }
            if failed {
                break;
            }
        }
        if failed {
            continue;
        }
        let mut k = 0;
        for (j, x) in r2.iter_mut().enumerate() {
            if !set.contains(&j) {
                *x = omap[k];
                k += 1;
            }
        }
        let (b2, r2) = prune(&base, r2);
        let (b2, r2) = tidy(b2, r2);
        let (new, old) = (cost(&b2, r2), cost(&st, res));
        if new <= old {
            if new < old {
                eprintln!(
                    "S{} improve round {r}: {} gates, {} a round",
                    i + 1,
                    b2.g.len(),
                    new.0
                );
            }
            st = b2;
            res = r2;
        }
    }
    (st, res)
}

fn to_circuit(i: usize, kind: Kind, st: &St, outs: [usize; 4], meta: String) -> Circuit {
    Circuit {
        sbox: i + 1,
        kind,
        meta,
        gates: st.g.clone(),
        outs: outs.map(|o| o as u16),
    }
}

/// The command line without `--out FILE` and `--jobs N`: what reproduces the output.
fn recorded_command(args: &[String]) -> String {
    let mut cmd: Vec<&str> = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if a == "--out" || a == "--jobs" {
            skip = true;
        } else {
            cmd.push(a);
        }
    }
    cmd.join(" ")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--emit") {
        // The fast deterministic half: description file -> sboxes.rs on stdout.
        let path = args.get(1).expect("--emit DESCRIPTION");
        let root = args.get(3).map_or(".", String::as_str);
        let tables = sboxes(root);
        let text = std::fs::read_to_string(path).expect("description file");
        let cs = circuits::parse_desc(&text).expect("well-formed description");
        for c in &cs {
            c.check(&tables[c.sbox - 1])
                .expect("circuit matches the S-box");
        }
        print!(
            "{}",
            circuits::emit(&cs).expect("one circuit of each kind per S-box")
        );
        return;
    }
    let mut root = ".".to_string();
    let mut seed: u64 = 1;
    let mut restarts = 50usize;
    let mut branch = [6usize, 3, 2, 1];
    let mut only: Vec<usize> = (0..8).collect();
    let mut out_path: Option<String> = None;
    let mut kinds = vec![Kind::Lut3, Kind::Gate2];
    let mut lut5_depth = 1usize;
    let mut polish = 20usize;
    let mut quad_depth = 1usize;
    let mut sel_depth = 0usize;
    let mut sel_nodes = 4usize;
    let mut jobs = 1usize;
    let mut improve_from: Option<String> = None;
    let mut rounds = 0usize;
    let mut group = 1usize;
    let mut fuse = 0usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut v = || it.next().expect("missing value").clone();
        match a.as_str() {
            "--root" => root = v(),
            "--seed" => seed = v().parse().expect("seed"),
            "--restarts" => restarts = v().parse().expect("restarts"),
            "--branch" => {
                let b: Vec<usize> = v().split(',').map(|x| x.parse().unwrap()).collect();
                branch.copy_from_slice(&b);
            }
            "--sbox" => {
                only = v()
                    .split(',')
                    .map(|x| x.parse::<usize>().unwrap() - 1)
                    .collect()
            }
            "--kind" => {
                kinds = match v().as_str() {
                    "lut3" => vec![Kind::Lut3],
                    "gate2" => vec![Kind::Gate2],
                    _ => panic!("kind"),
                }
            }
            "--out" => out_path = Some(v()),
            "--lut5-depth" => lut5_depth = v().parse().expect("depth"),
            "--polish" => polish = v().parse().expect("polish"),
            "--quad-depth" => quad_depth = v().parse().expect("quad depth"),
            "--sel-depth" => sel_depth = v().parse().expect("sel depth"),
            "--sel-nodes" => sel_nodes = v().parse().expect("sel nodes"),
            "--jobs" => jobs = v().parse().expect("jobs"),
            "--improve" => improve_from = Some(v()),
            "--rounds" => rounds = v().parse().expect("rounds"),
            "--group" => group = v().parse().expect("group"),
            "--fuse" => fuse = v().parse().expect("fuse"),
            _ => panic!("unknown argument {a}"),
        }
    }
    let tables = sboxes(&root);
    let fm = Formulas::new();
    let p = Params {
        branch,
        both_orders: true,
        restarts,
        lut5_depth,
        polish,
        quad_depth,
        sel_depth,
        sel_nodes,
        fuse,
    };
    let t0 = Instant::now();
    if let Some(path) = &improve_from {
        // Improve the recorded `gate2` circuits of a description file (the others are
        // copied); the header keeps the file's commands and adds this one.
        let text = std::fs::read_to_string(path).expect("description file");
        let cs = circuits::parse_desc(&text).expect("well-formed description");
        let mut header: Vec<String> = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| l.trim_start_matches('#').trim().to_string())
            .filter(|l| !l.ends_with("see tools/sboxes/README.md"))
            .collect();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<std::sync::Mutex<Option<Circuit>>> =
            cs.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|sc| {
            for _ in 0..jobs.max(1) {
                sc.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= cs.len() {
                            break;
                        }
                        let c = &cs[k];
                        let i = c.sbox - 1;
                        let out = if kinds.contains(&c.kind) && only.contains(&i) {
                            let box_ = &tables[i];
                            let (st, o) = improve(c.kind, &fm, p, seed, rounds, group, i, box_, c);
                            let mut meta = format!(
                                "{} improve-seed={seed} improve-rounds={rounds} improve-group={group} \
                                 improve-branch={} improve-quad-depth={} \
                                 improve-sel-depth={} improve-sel-nodes={}",
                                c.meta,
                                p.branch.map(|b| b.to_string()).join(","),
                                p.quad_depth,
                                p.sel_depth,
                                p.sel_nodes
                            );
                            if p.fuse > 0 {
                                meta += &format!(" improve-fuse={}", p.fuse);
                            }
                            let n = to_circuit(i, c.kind, &st, o, meta);
                            eprintln!(
                                "S{} {}: {} -> {} gates, {} -> {} a round ({:.1}s)",
                                i + 1,
                                c.kind.name(),
                                c.gates.len(),
                                n.gates.len(),
                                c.round_gates(),
                                n.round_gates(),
                                t0.elapsed().as_secs_f64()
                            );
                            n
                        } else {
                            c.clone()
                        };
                        out.check(&tables[i]).expect("circuit matches the S-box");
                        *results[k].lock().unwrap() = Some(out);
                    }
                });
            }
        });
        let circuits: Vec<Circuit> = results
            .into_iter()
            .map(|r| r.into_inner().unwrap().unwrap())
            .collect();
        let cmd = recorded_command(&args);
        header.push(format!("then tools/sboxes/search.rs {cmd}"));
        header.push(format!(
            "{} circuits; see tools/sboxes/README.md",
            circuits.len()
        ));
        let text = circuits::format_desc(&header, &circuits);
        match out_path {
            Some(p) => std::fs::write(p, text).unwrap(),
            None => print!("{text}"),
        }
        return;
    }
    // One S-box (both kinds); S-boxes are independent, so `--jobs` threads take them in
    // turn without changing any result.
    let one = |i: usize| -> Vec<Circuit> {
        let mut out = Vec::new();
        let mut best3: Option<(St, [usize; 4], usize)> = None;
        for &kind in &kinds {
            let mut best: Option<(St, [usize; 4], String)> = None;
            if kind == Kind::Gate2 {
                if let Some((st, o, r)) = &best3 {
                    let (l, lo) = lower(&fm, st, *o);
                    best = Some((l, lo, format!("lowered-from=lut3 restart={r}")));
                }
            }
            for r in 0..p.restarts {
                let limit = best.as_ref().map_or(200, |b| b.0.g.len() - 1);
                if let Some((st, o)) = restart(kind, &fm, p, seed, i, r, &tables[i], limit) {
                    eprintln!(
                        "S{} {:?} restart {r}: {} gates ({:.1}s)",
                        i + 1,
                        kind,
                        st.g.len(),
                        t0.elapsed().as_secs_f64()
                    );
                    if kind == Kind::Lut3 {
                        best3 = Some((st.clone(), o, r));
                    }
                    best = Some((st, o, format!("restart={r}")));
                }
            }
            let (st, o, how) = best.expect("a circuit");
            let meta = format!(
                "{how} seed={seed} restarts={} branch={} lut5-depth={} quad-depth={} \
                 sel-depth={} sel-nodes={} polish={}",
                p.restarts,
                p.branch.map(|b| b.to_string()).join(","),
                p.lut5_depth,
                p.quad_depth,
                p.sel_depth,
                p.sel_nodes,
                p.polish
            );
            let c = to_circuit(i, kind, &st, o, meta);
            c.check(&tables[i]).expect("circuit matches the S-box");
            eprintln!("S{} {:?}: {} gates", i + 1, kind, c.gates.len());
            out.push(c);
        }
        out
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Vec<Circuit>>> = only
        .iter()
        .map(|_| std::sync::Mutex::new(Vec::new()))
        .collect();
    std::thread::scope(|sc| {
        for _ in 0..jobs.max(1) {
            sc.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= only.len() {
                        break;
                    }
                    *results[k].lock().unwrap() = one(only[k]);
                }
            });
        }
    });
    let circuits: Vec<Circuit> = results
        .into_iter()
        .flat_map(|r| r.into_inner().unwrap())
        .collect();
    let header = vec![
        format!(
            "generated by tools/sboxes/search.rs {}",
            recorded_command(&args)
        ),
        format!("{} circuits; see tools/sboxes/README.md", circuits.len()),
    ];
    let text = circuits::format_desc(&header, &circuits);
    match out_path {
        Some(p) => std::fs::write(p, text).unwrap(),
        None => print!("{text}"),
    }
}
