//! DES S-box circuits: the recorded description format (`circuits.txt`), exhaustive
//! evaluation over the 64 inputs, and the deterministic emitter of
//! `src/backends/bitslice/sboxes.rs`.
//!
//! Shared by the search (`search.rs`, a standalone program) and by `des`'s unit test
//! `sboxes_are_the_recorded_circuits` (`src/backends/bitslice.rs`), which re-runs
//! [`emit`] on the committed description and checks every circuit exhaustively, so the
//! committed `sboxes.rs`, the description and the DES tables cannot drift apart.
//!
//! A circuit has six inputs `x0` … `x5` (`x0` = `b1`, the MSB of the six-bit S-box
//! index) and gates `t0`, `t1`, … each over earlier nodes; `out` names the four output
//! nodes, most significant output bit first.
//!
//! - `lut3` circuits: every gate is `lut IMM a b c`, any three-input function (the
//!   truth-table bit `a<<2 | b<<1 | c` of `IMM`, `vpternlogd`'s immediate).
//! - `gate2` circuits: `and a b`, `or a b`, `xor a b`, `andnot a b` (`!a & b`, one
//!   AVX2/SSE2 instruction) and `not a` (an XOR with all ones: it costs a gate).
//!
//! The emitted S-box functions take the four planes of the other half the outputs go
//! into and return them XORed with the outputs. A `lut3` output whose last gate reads
//! two nodes and feeds nothing else is folded into that XOR: one gate over `(l, a, b)`
//! ([`Circuit::fused_outs`]); every other output costs one XOR.

#![allow(dead_code)]

use std::fmt::Write;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

/// Truth table of input `k` (`k = 0` is `b1`, the MSB of the index) over the 64 inputs.
pub const VAR: [u64; 6] = {
    let mut v = [0u64; 6];
    let mut k = 0;
    while k < 6 {
        let mut n = 0;
        while n < 64 {
            if (n >> (5 - k)) & 1 == 1 {
                v[k] |= 1 << n;
            }
            n += 1;
        }
        k += 1;
    }
    v
};

/// The gate set of a circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Three-input LUTs (AVX-512 `vpternlogd`).
    Lut3,
    /// Two-input AND, OR, XOR, ANDNOT and NOT (AVX2).
    Gate2,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Lut3 => "lut3",
            Kind::Gate2 => "gate2",
        }
    }
}

/// One gate's function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Three-input table, bit `a<<2 | b<<1 | c`.
    Lut(u8),
    /// `a & b`.
    And,
    /// `a | b`.
    Or,
    /// `a ^ b`.
    Xor,
    /// `!a & b`.
    AndNot,
    /// `!a`.
    Not,
}

impl Op {
    /// Number of operands.
    pub fn arity(self) -> usize {
        match self {
            Op::Lut(_) => 3,
            Op::Not => 1,
            _ => 2,
        }
    }

    /// The gate's value on operand tables `a`, `b`, `c`.
    pub fn apply(self, a: u64, b: u64, c: u64) -> u64 {
        match self {
            Op::Lut(imm) => {
                let mut r = 0;
                for p in 0..8 {
                    if (imm >> p) & 1 == 1 {
                        let x = if p & 4 != 0 { a } else { !a };
                        let y = if p & 2 != 0 { b } else { !b };
                        let z = if p & 1 != 0 { c } else { !c };
                        r |= x & y & z;
                    }
                }
                r
            }
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
            Op::AndNot => !a & b,
            Op::Not => !a,
        }
    }
}

/// A gate: its function and operand nodes (`0..6` are the inputs, `6 + i` is gate `i`;
/// operands past the arity are ignored and written as 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gate {
    pub op: Op,
    pub ins: [u16; 3],
}

/// One S-box's circuit of one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circuit {
    /// S-box number, 1..=8.
    pub sbox: usize,
    pub kind: Kind,
    /// How the search found it (seed, restart, parameters), one `key=value` list.
    pub meta: String,
    pub gates: Vec<Gate>,
    /// The four output nodes, most significant output bit first.
    pub outs: [u16; 4],
}

impl Circuit {
    /// The value of every node over the 64 inputs (inputs first).
    pub fn tables(&self) -> Vec<u64> {
        let mut t: Vec<u64> = VAR.to_vec();
        for g in &self.gates {
            let v = g.op.apply(
                t[g.ins[0] as usize],
                t[g.ins[1] as usize],
                t[g.ins[2] as usize],
            );
            t.push(v);
        }
        t
    }

    /// The four output bits' tables.
    pub fn outputs(&self) -> [u64; 4] {
        let t = self.tables();
        self.outs.map(|o| t[o as usize])
    }

    /// Every gate well-formed for the kind, operands earlier than the gate, and the
    /// outputs equal to `sbox` on all 64 inputs; else what is wrong.
    pub fn check(&self, sbox: &[u8; 64]) -> Result<(), String> {
        for (i, g) in self.gates.iter().enumerate() {
            let ok_kind = matches!((self.kind, g.op), (Kind::Lut3, Op::Lut(_)))
                || (self.kind == Kind::Gate2 && !matches!(g.op, Op::Lut(_)));
            if !ok_kind {
                return Err(format!(
                    "S{} {}: t{i} is {:?}",
                    self.sbox,
                    self.kind.name(),
                    g.op
                ));
            }
            for (j, &x) in g.ins.iter().enumerate() {
                let bad = if j < g.op.arity() {
                    x as usize >= 6 + i
                } else {
                    x != 0
                };
                if bad {
                    return Err(format!("S{}: t{i} operand {j} is {x}", self.sbox));
                }
            }
        }
        let n = 6 + self.gates.len();
        if self.outs.iter().any(|&o| o as usize >= n) {
            return Err(format!("S{}: an output is out of range", self.sbox));
        }
        let got = self.outputs();
        for (m, &g) in got.iter().enumerate() {
            for (x, &s) in sbox.iter().enumerate() {
                if (g >> x) & 1 != u64::from((s >> (3 - m)) & 1) {
                    return Err(format!(
                        "S{} {}: output bit {m} wrong at input {x}",
                        self.sbox,
                        self.kind.name()
                    ));
                }
            }
        }
        Ok(())
    }

    /// (`lut3`) The outputs the round folds into its XOR with the left half: output `m`
    /// whose gate reads at most two distinct nodes `a`, `b` (as its table depends on them)
    /// and feeds nothing else (no gate, no other output) becomes one three-input gate
    /// `l ^ g(a, b)` over the half's plane `l`: `Some((imm, a, b))`, `imm` with `l` as
    /// the first operand. Each such output costs the round no gate of its own; every other
    /// output costs one XOR.
    pub fn fused_outs(&self) -> [Option<(u8, u16, u16)>; 4] {
        let mut uses: Vec<usize> = std::iter::repeat_n(0, 6 + self.gates.len()).collect();
        for g in &self.gates {
            for &x in &g.ins[..g.op.arity()] {
                uses[x as usize] += 1;
            }
        }
        for &o in &self.outs {
            uses[o as usize] += 1;
        }
        self.outs.map(|o| {
            let o = o as usize;
            if o < 6 || uses[o] != 1 {
                return None;
            }
            let g = self.gates[o - 6];
            let Op::Lut(imm) = g.op else { return None };
            let reads = |p: usize| (0..8).any(|i| (imm >> i & 1) != (imm >> (i ^ 4 >> p) & 1));
            let mut nodes: Vec<u16> = (0..3).filter(|&p| reads(p)).map(|p| g.ins[p]).collect();
            nodes.sort_unstable();
            nodes.dedup();
            let (a, b) = match nodes[..] {
                [] => (0, 0),
                [a] => (a, a),
                [a, b] => (a, b),
                _ => return None,
            };
            // The gate's value with node `a` = va and `b` = vb (unread operands at 0).
            let at = |va: usize, vb: usize| {
                let bit = |p: usize| {
                    let n = g.ins[p];
                    let v = if n == a {
                        va
                    } else if n == b {
                        vb
                    } else {
                        0
                    };
                    usize::from(reads(p)) & v
                };
                imm >> (bit(0) << 2 | bit(1) << 1 | bit(2)) & 1
            };
            let mut f = 0u8;
            for i in 0..8 {
                f |= ((i >> 2) as u8 ^ at(i >> 1 & 1, i & 1)) << i;
            }
            Some((f, a, b))
        })
    }

    /// Three-input gates the round spends on this `lut3` circuit: its gates, and one XOR
    /// into the left half for each output [`Circuit::fused_outs`] does not fold.
    pub fn round_gates(&self) -> usize {
        let folded = self.fused_outs().iter().filter(|f| f.is_some()).count();
        self.gates.len() + 4 - folded
    }
}

fn node_name(n: u16) -> String {
    if n < 6 {
        format!("x{n}")
    } else {
        format!("t{}", n - 6)
    }
}

fn parse_node(s: &str) -> Result<u16, String> {
    let (p, num) = s.split_at(1);
    let v: u16 = num.parse().map_err(|_| format!("bad node `{s}`"))?;
    match p {
        "x" if v < 6 => Ok(v),
        "t" => Ok(v + 6),
        _ => Err(format!("bad node `{s}`")),
    }
}

/// The description file: `header` lines (each written as a `# ` comment) and the circuits.
pub fn format_desc(header: &[String], circuits: &[Circuit]) -> String {
    let mut s = String::new();
    for h in header {
        let _ = writeln!(s, "# {h}");
    }
    for c in circuits {
        let _ = writeln!(
            s,
            "\nsbox {} {} gates={} {}",
            c.sbox,
            c.kind.name(),
            c.gates.len(),
            c.meta
        );
        for (i, g) in c.gates.iter().enumerate() {
            let ops: Vec<String> = g.ins[..g.op.arity()]
                .iter()
                .map(|&x| node_name(x))
                .collect();
            let f = match g.op {
                Op::Lut(imm) => format!("lut 0x{imm:02X}"),
                Op::And => "and".into(),
                Op::Or => "or".into(),
                Op::Xor => "xor".into(),
                Op::AndNot => "andnot".into(),
                Op::Not => "not".into(),
            };
            let _ = writeln!(s, "t{i} = {f} {}", ops.join(" "));
        }
        let outs: Vec<String> = c.outs.iter().map(|&o| node_name(o)).collect();
        let _ = writeln!(s, "out {}", outs.join(" "));
    }
    s
}

/// Parses [`format_desc`]'s output (comments and blank lines are skipped).
pub fn parse_desc(text: &str) -> Result<Vec<Circuit>, String> {
    let mut out: Vec<Circuit> = Vec::new();
    let mut cur: Option<Circuit> = None;
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let err = |m: &str| format!("line {}: {m}", ln + 1);
        match w[0] {
            "sbox" => {
                if cur.is_some() {
                    return Err(err("circuit without `out`"));
                }
                if w.len() < 3 {
                    return Err(err("short `sbox` line"));
                }
                let kind = match w[2] {
                    "lut3" => Kind::Lut3,
                    "gate2" => Kind::Gate2,
                    _ => return Err(err("unknown kind")),
                };
                let meta: Vec<&str> = w[3..]
                    .iter()
                    .copied()
                    .filter(|x| !x.starts_with("gates="))
                    .collect();
                cur = Some(Circuit {
                    sbox: w[1].parse().map_err(|_| err("bad S-box number"))?,
                    kind,
                    meta: meta.join(" "),
                    gates: Vec::new(),
                    outs: [0; 4],
                });
            }
            "out" => {
                let mut c = cur.take().ok_or_else(|| err("`out` outside a circuit"))?;
                if w.len() != 5 {
                    return Err(err("`out` needs four nodes"));
                }
                for m in 0..4 {
                    c.outs[m] = parse_node(w[1 + m]).map_err(|e| err(&e))?;
                }
                out.push(c);
            }
            t => {
                let c = cur.as_mut().ok_or_else(|| err("gate outside a circuit"))?;
                if t != format!("t{}", c.gates.len()) || w.len() < 3 || w[1] != "=" {
                    return Err(err("expected `tN = …` with N the next gate"));
                }
                let (op, rest) = match w[2] {
                    "lut" => {
                        let h = w.get(3).ok_or_else(|| err("lut without immediate"))?;
                        let imm = u8::from_str_radix(h.trim_start_matches("0x"), 16)
                            .map_err(|_| err("bad immediate"))?;
                        (Op::Lut(imm), &w[4..])
                    }
                    "and" => (Op::And, &w[3..]),
                    "or" => (Op::Or, &w[3..]),
                    "xor" => (Op::Xor, &w[3..]),
                    "andnot" => (Op::AndNot, &w[3..]),
                    "not" => (Op::Not, &w[3..]),
                    _ => return Err(err("unknown gate")),
                };
                if rest.len() != op.arity() {
                    return Err(err("wrong operand count"));
                }
                let mut ins = [0u16; 3];
                for (j, x) in rest.iter().enumerate() {
                    ins[j] = parse_node(x).map_err(|e| err(&e))?;
                }
                c.gates.push(Gate { op, ins });
            }
        }
    }
    if cur.is_some() {
        return Err("last circuit has no `out`".to_string());
    }
    Ok(out)
}

fn rs_name(n: u16) -> String {
    if n < 6 {
        format!("x[{n}]")
    } else {
        format!("t{}", n - 6)
    }
}

/// `sboxes.rs`: for S-box `i`, `s{i}` from its `lut3` circuit and `s{i}_2` from its
/// `gate2` circuit. Needs exactly one circuit of each kind per S-box.
pub fn emit(circuits: &[Circuit]) -> Result<String, String> {
    let find = |i: usize, k: Kind| {
        let v: Vec<&Circuit> = circuits
            .iter()
            .filter(|c| c.sbox == i && c.kind == k)
            .collect();
        match v.as_slice() {
            [c] => Ok(*c),
            _ => Err(format!("S{i}: need exactly one {} circuit", k.name())),
        }
    };
    let (mut n3, mut r3, mut n2) = (0, 0, 0);
    for i in 1..=8 {
        n3 += find(i, Kind::Lut3)?.gates.len();
        r3 += find(i, Kind::Lut3)?.round_gates();
        n2 += find(i, Kind::Gate2)?.gates.len();
    }
    let mut s = String::new();
    s.push_str(
        "//! DES S-boxes as gate networks over bit planes. Generated (do not edit): the\n\
         //! circuits of `tools/sboxes/circuits.txt`, found by `tools/sboxes/search.rs` and\n\
         //! emitted by `tools/sboxes/circuits.rs` (see `tools/sboxes/README.md`).\n",
    );
    let _ = writeln!(
        s,
        "//! Three-input gates: {n3} in all ({} per S-box), {r3} a round with the XORs into\n\
         //! the left half (outputs folded into them cost none); two-input gates (and-not\n\
         //! counts one): {n2} ({} per S-box) and 32 XORs.\n",
        avg(n3),
        avg(n2)
    );
    s.push_str("#![allow(clippy::all)]\n\nuse super::Gates;\n");
    for i in 1..=8 {
        let c3 = find(i, Kind::Lut3)?;
        let c2 = find(i, Kind::Gate2)?;
        let _ = write!(
            s,
            "\n/// S-box {i} with three-input gates ({} gates, {} with the XORs into `l`):\n\
             /// `x[0]` = b1 … `x[5]` = b6 in, `l` the left half's planes its four output\n\
             /// bits (most significant first) go into; returns `l` XOR the output.\n\
             #[inline(always)]\n\
             pub(crate) fn s{i}<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {{\n",
            c3.gates.len(),
            c3.round_gates()
        );
        body(&mut s, c3, c3.fused_outs());
        let _ = write!(
            s,
            "\n/// S-box {i} with two-input gates ({} gates), as `s{i}`.\n\
             #[inline(always)]\n\
             pub(crate) fn s{i}_2<V: Gates>(x: &[V; 6], l: [V; 4]) -> [V; 4] {{\n",
            c2.gates.len()
        );
        body(&mut s, c2, [None; 4]);
    }
    Ok(s)
}

fn avg(n: usize) -> String {
    let r = format!("{:.3}", n as f64 / 8.0);
    r.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The gates, then each output XORed into `l[m]`: one gate over `l[m]` for the outputs
/// `fused` folds (whose own gates are not emitted), else an XOR.
fn body(s: &mut String, c: &Circuit, fused: [Option<(u8, u16, u16)>; 4]) {
    for (i, g) in c.gates.iter().enumerate() {
        let folded = |m: usize| fused[m].is_some() && c.outs[m] as usize == 6 + i;
        if (0..4).any(folded) {
            continue;
        }
        let [a, b, d] = g.ins.map(rs_name);
        let e = match g.op {
            Op::Lut(imm) => format!("V::tl::<0x{imm:02X}>({a}, {b}, {d})"),
            Op::And => format!("V::and({a}, {b})"),
            Op::Or => format!("V::or({a}, {b})"),
            Op::Xor => format!("V::xor({a}, {b})"),
            Op::AndNot => format!("V::andnot({a}, {b})"),
            Op::Not => format!("V::andnot({a}, V::ones())"),
        };
        let _ = writeln!(s, "    let t{i} = {e};");
    }
    let outs: Vec<String> = (0..4)
        .map(|m| match fused[m] {
            Some((imm, a, b)) => format!(
                "V::tl::<0x{imm:02X}>(l[{m}], {}, {})",
                rs_name(a),
                rs_name(b)
            ),
            None => format!("V::xor(l[{m}], {})", rs_name(c.outs[m])),
        })
        .collect();
    let _ = writeln!(s, "    [\n        {},\n    ]\n}}", outs.join(",\n        "));
}
