#!/usr/bin/env python3
"""Generates the DES S-box gate networks of src/backends/bitslice/sboxes.rs.

Each S-box output bit (a function of the six input bits) is decomposed by Shannon
expansion on one input at a time until a sub-function depends on at most three inputs,
which one three-input gate computes (`vpternlogd`'s immediate is the truth table). The
split variable is chosen to minimise the gate count, counting sub-functions that are
already built (for this or an earlier output bit of the same S-box) as free; a split
whose cofactors are {0, 1, g, ~g} over two variables is one gate over (a, b, g); and a
mux with constant or complementary cofactors needs one sub-function only. The network
is checked against the S-box tables on all 64 inputs.

The same network, for AVX2, lowers each gate to the fewest AND/OR/XOR/ANDN operations
(a minimal formula per three-input truth table, found by dynamic programming).

Technique reference: M. Kwan, "Reducing the Gate Count of Bitslice DES" (2000), and
R. Rusakov's `vpternlogd` S-boxes for John the Ripper (2015), which reach ~23 gates per
S-box with a circuit search; the networks here are derived independently by the simple
method above and are larger (see the counts printed at the end).

Usage: python3 tools/gen_sboxes.py > src/backends/bitslice/sboxes.rs
"""

import itertools
import re
import sys

SRC = open(__file__.rsplit('/', 2)[0] + '/src/backends/soft.rs').read()
body = SRC.split('pub(crate) const SBOXES: [[u8; 64]; 8] = [', 1)[1].split('];', 1)[0]
nums = [int(x) for x in re.findall(r'\d+', body)]
assert len(nums) == 512
SBOXES = [nums[64 * i:64 * i + 64] for i in range(8)]

FULL = (1 << 64) - 1
# Truth table of input k (0 = b1, the MSB of the six-bit index) over the 64 inputs.
VAR = [sum(1 << n for n in range(64) if (n >> (5 - k)) & 1) for k in range(6)]


def cof(f, k, val):
    """Cofactor f|x_k=val, as a 64-bit table (independent of x_k)."""
    out = 0
    for n in range(64):
        m = (n | (1 << (5 - k))) if val else (n & ~(1 << (5 - k)))
        if (f >> m) & 1:
            out |= 1 << n
    return out


def support(f):
    return [k for k in range(6) if cof(f, k, 0) != cof(f, k, 1)]


class Net:
    def __init__(self):
        self.nodes = []  # (table, operands (tables), fn over operand bits)
        self.have = {VAR[k]: ('x', k) for k in range(6)}
        self.have[0] = ('c', 0)
        self.have[FULL] = ('c', 1)

    def gate(self, table, operands):
        if table in self.have:
            return
        self.have[table] = ('t', len(self.nodes))
        self.nodes.append((table, operands))

    # cost(f): number of new gates needed to build f given what exists (no commit).
    def cost(self, f, memo):
        if f in self.have or f in memo:
            return 0 if f in self.have else memo[f][0]
        best = None
        sup = support(f)
        if len(sup) <= 3:
            best = (1, ('direct', sup))
        else:
            for k in sup:
                f0, f1 = cof(f, k, 0), cof(f, k, 1)
                if f1 == f0 ^ FULL:
                    c = 1 + self.cost(f0, memo)
                    cand = (c, ('xor', k, f0))
                elif f0 in (0, FULL):
                    cand = (1 + self.cost(f1, memo), ('one', k, f1))
                elif f1 in (0, FULL):
                    cand = (1 + self.cost(f0, memo), ('one', k, f0))
                else:
                    c = 1 + self.cost(f0, memo) + self.cost(f1, memo)
                    if f1 in memo and f0 in memo:
                        pass
                    cand = (c, ('mux', k, f0, f1))
                if best is None or cand[0] < best[0]:
                    best = cand
            for a, b in itertools.combinations(sup, 2):
                cs = [cof(cof(f, a, i), b, j) for i in (0, 1) for j in (0, 1)]
                gs = [c for c in cs if c not in (0, FULL)]
                if not gs:
                    continue
                g = gs[0]
                if all(c in (0, FULL, g, g ^ FULL) for c in cs):
                    cand = (1 + self.cost(g, memo), ('two', a, b, g))
                    if cand[0] < best[0]:
                        best = cand
        memo[f] = best
        return best[0]

    def build(self, f):
        if f in self.have:
            return
        memo = {}
        self.cost(f, memo)
        plan = memo[f][1]
        if plan[0] == 'direct':
            self.gate(f, [VAR[k] for k in plan[1]])
        elif plan[0] in ('xor', 'one'):
            self.build(plan[2])
            self.gate(f, [VAR[plan[1]], plan[2]])
        elif plan[0] == 'mux':
            self.build(plan[2])
            self.build(plan[3])
            self.gate(f, [VAR[plan[1]], plan[2], plan[3]])
        elif plan[0] == 'two':
            self.build(plan[3])
            self.gate(f, [VAR[plan[1]], VAR[plan[2]], plan[3]])


def gate_fn(table, operands):
    """Truth table (index a<<2|b<<1|c, operands padded with the first) of the gate."""
    ops = operands + [operands[0]] * (3 - len(operands))
    imm = 0
    for idx in range(8):
        bits = [(idx >> 2) & 1, (idx >> 1) & 1, idx & 1]
        # Find an input n where the operands take these values; else don't care.
        for n in range(64):
            if all(((ops[j] >> n) & 1) == bits[j] for j in range(3)):
                if (table >> n) & 1:
                    imm |= 1 << idx
                break
    return imm


# Minimal AND/OR/XOR/ANDN formulas for every 3-input table (A=0xF0, B=0xCC, C=0xAA).
def formulas():
    best = {0xF0: (0, 'a'), 0xCC: (0, 'b'), 0xAA: (0, 'c'), 0x00: (0, 'Z'), 0xFF: (0, 'O')}
    changed = True
    while changed:
        changed = False
        items = list(best.items())
        for (x, (cx, ex)), (y, (cy, ey)) in itertools.product(items, items):
            for name, val in (('and', x & y), ('or', x | y), ('xor', x ^ y),
                              ('andnot', (~x & 0xFF) & y)):
                c = cx + cy + 1
                if val not in best or best[val][0] > c:
                    best[val] = (c, (name, ex, ey))
                    changed = True
    return best


FORM = formulas()


def emit_formula(e, names):
    if isinstance(e, str):
        return {'a': names[0], 'b': names[1], 'c': names[2], 'Z': 'V::zero()',
                'O': 'V::ones()'}[e]
    op, x, y = e
    return f'V::{op}({emit_formula(x, names)}, {emit_formula(y, names)})'


def lowered(imm, k, o):
    """The cheapest formula agreeing with `imm` wherever the operands can take the
    values (operands repeat when a gate has fewer than three distinct inputs)."""
    care = 0
    for idx in range(8):
        bits = [(idx >> 2) & 1, (idx >> 1) & 1, idx & 1]
        for n in range(64):
            if all(((o[j] >> n) & 1) == bits[j] for j in range(3)):
                care |= 1 << idx
                break
    best = None
    for tt, (c, e) in FORM.items():
        if (tt ^ imm) & care == 0 and (best is None or c < best[0]):
            best = (c, e)
    return best


def main():
    out = []
    total = 0
    total2 = 0
    for i in range(8):
        net = Net()
        outs = [sum(1 << n for n in range(64) if (SBOXES[i][n] >> (3 - m)) & 1)
                for m in range(4)]
        # Try every order of building the four outputs; keep the smallest network.
        bestnet = None
        for order in itertools.permutations(range(4)):
            n = Net()
            for m in order:
                n.build(outs[m])
            if bestnet is None or len(n.nodes) < len(bestnet.nodes):
                bestnet = n
        net = bestnet
        # Check by evaluation.
        val = {VAR[k]: VAR[k] for k in range(6)}
        for table, ops in net.nodes:
            imm = gate_fn(table, ops)
            o = ops + [ops[0]] * (3 - len(ops))
            r = 0
            for n in range(64):
                idx = (((o[0] >> n) & 1) << 2) | (((o[1] >> n) & 1) << 1) | ((o[2] >> n) & 1)
                r |= ((imm >> idx) & 1) << n
            assert r == table
        for m in range(4):
            assert outs[m] in net.have

        def name(t):
            kind, v = net.have[t]
            return {'x': f'x[{v}]', 't': f't{v}', 'c': 'V::zero()' if v == 0 else 'V::ones()'}[kind]

        lines512 = []
        lines2 = []
        n2 = 0
        for j, (table, ops) in enumerate(net.nodes):
            imm = gate_fn(table, ops)
            o = ops + [ops[0]] * (3 - len(ops))
            lines512.append(f'    let t{j} = V::tl::<0x{imm:02X}>({name(o[0])}, {name(o[1])}, {name(o[2])});')
            c, e = lowered(imm, len(set(ops)) if len(ops) == 3 else len(ops), o)
            n2 += c
            lines2.append(f'    let t{j} = {emit_formula(e, [name(x) for x in o])};')
        ret = ', '.join(name(outs[m]) for m in range(4))
        total += len(net.nodes)
        total2 += n2
        out.append((i, lines512, lines2, ret, len(net.nodes), n2))

    w = sys.stdout.write
    w('//! DES S-boxes as gate networks over bit planes; generated by `tools/gen_sboxes.py`\n')
    w('//! (do not edit): Shannon expansion down to three-input gates, sharing sub-functions.\n')
    w(f'//! Three-input gates: {total} in all ({total / 8:.1f} per S-box); lowered to\n')
    w(f'//! AND/OR/XOR/ANDN: {total2} ({total2 / 8:.1f} per S-box).\n\n')
    w('#![allow(clippy::all)]\n\nuse super::Gates;\n\n')
    for i, l512, l2, ret, c1, c2 in out:
        w(f'/// S-box {i + 1} with three-input gates ({c1} gates): `x[0]` = b1 … `x[5]` = b6;\n')
        w('/// returns the four output bits, most significant first.\n')
        w('#[inline(always)]\n')
        w(f'pub(crate) fn s{i + 1}<V: Gates>(x: &[V; 6]) -> [V; 4] {{\n')
        w('\n'.join(l512) + '\n')
        w(f'    [{ret}]\n}}\n\n')
        w(f'/// S-box {i + 1} with two-input gates ({c2} operations).\n')
        w('#[inline(always)]\n')
        w(f'pub(crate) fn s{i + 1}_2<V: Gates>(x: &[V; 6]) -> [V; 4] {{\n')
        w('\n'.join(l2) + '\n')
        w(f'    [{ret}]\n}}\n\n')
    print(f'gates {total} ({total/8:.1f}/sbox), lowered {total2} ({total2/8:.1f}/sbox)', file=sys.stderr)


main()
