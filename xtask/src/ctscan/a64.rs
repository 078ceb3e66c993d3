//! The AArch64 instruction model of the static check: the effect of one instruction of
//! `aarch64-linux-gnu-objdump -d -C` output on the taint, by the rules of the x86-64
//! model ([`super`]'s docs), in A64's terms:
//!
//! - **Registers.** `x`*n* and `w`*n* are one register, `v`*n* with its views `q`/`d`/`s`/
//!   `h`/`b`*n*, lanes (`v3.s[1]`) and lists (`{v0.16b-v3.16b}`); `xzr`/`wzr` and
//!   immediates are public. The flags are one register, written by `cmp`, `tst`, `ccmp`,
//!   the `…s` forms (`subs`, `ands`, …), read by `b.`*cond*, `csel` and its aliases,
//!   `adc`/`sbc` and `ccmp`.
//! - **Sources.** A load is secret by the target's [`Regs`]: `vector`: loads into SIMD
//!   registers; `scalar`: every load but a 64-bit load into `x` registers (pointers,
//!   lengths); `scalar64`: every load. Literal loads (`ldr q0, <address>`) are constants,
//!   and so are loads through a pointer into the binary's constants: a register set by
//!   `adrp`/`adr`, moved, or offset by an immediate or a public register (tracked as
//!   its negation, `nc:`*reg* = "may not be such a pointer", so that the union at joins
//!   stays sound).
//!   Stack slots (`[sp, #d]`, `[x29, #d]`) are tracked in 8-byte words: a word this function
//!   stored holds what it stored (a store that covers part of a word adds its taint and
//!   removes none); a word it did not store is secret once any secret went to the stack.
//! - **Destinations.** The first operand, except for stores, compares and branches; loads
//!   write every register before the address. Instructions that also read their
//!   destination (`movk`, `bsl`/`bit`/`bif`, `mla`, `tbx`, `sli`/`sri`, `usra`, the
//!   accumulating widenings, `aese`/`aesd`, the SHA instructions, the `…2` narrowings,
//!   lane inserts and lane loads) keep its taint.
//! - **Findings.** A conditional branch on tainted flags (`b.`*cond*) or on a tainted
//!   register (`cbz`/`cbnz`/`tbz`/`tbnz`), an indirect branch or call through a tainted
//!   register (`br`/`blr`), and an address (base, index or post-index register) that is
//!   tainted, for loads, stores and prefetches alike. `tbl`/`tbx` are register
//!   permutations, not memory accesses, and are not findings: that is what NEON code
//!   that is documented table-free rests on.
//! - **Calls** (`bl`, `blr`): AAPCS64 passes arguments in `x0`–`x7`; `x0`–`x18`, `x30`,
//!   the flags and the vector registers are tainted after a call that received a
//!   tainted argument, public after one that did not (as on x86-64).

use super::{Flow, Insn, Regs, State};

/// The register family of an operand (`w3` → `x3`, `q7`/`v7.4s`/`v7.s[1]` → `v7`,
/// `wsp` → `sp`), or `None` (zero registers, immediates, shifts, conditions, labels).
fn reg(op: &str) -> Option<String> {
    let w = op.trim();
    let base = w.split(['.', '[']).next()?;
    if base == "sp" || base == "wsp" {
        return Some("sp".into());
    }
    let mut chars = base.chars();
    let kind = chars.next()?;
    let n: &str = chars.as_str();
    if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: u32 = n.parse().ok()?;
    match kind {
        'x' | 'w' if n <= 30 => Some(format!("x{n}")),
        'v' | 'q' | 'd' | 's' | 'h' | 'b' if n < 32 => Some(format!("v{n}")),
        _ => None,
    }
}

/// The registers of a non-memory operand: one register, or a list
/// (`{v0.16b-v3.16b}`, `{v4.16b, v5.16b}`, `{v1.s}[2]`).
fn op_regs(op: &str) -> Vec<String> {
    let op = op.trim();
    if op.starts_with('[') {
        return Vec::new();
    }
    let Some(list) = op.strip_prefix('{') else {
        return reg(op).into_iter().collect();
    };
    let inner = &list[..list.find('}').unwrap_or(list.len())];
    if let Some((a, b)) = inner.split_once('-')
        && let (Some(a), Some(b)) = (reg(a), reg(b))
    {
        let num = |r: &str| r[1..].parse::<u32>().unwrap_or(0);
        let (a, b) = (num(&a), num(&b));
        // Lists wrap around v31 (`{v31.16b-v2.16b}`).
        let len = (b + 32 - a) % 32 + 1;
        return (0..len).map(|i| format!("v{}", (a + i) % 32)).collect();
    }
    inner.split(',').filter_map(reg).collect()
}

/// Bytes one register operand of a load or store moves (`x` 8, `w` 4, `q` 16, lists by
/// their arrangement; a lane moves one element).
fn width(op: &str) -> u64 {
    let op = op.trim();
    if op.contains("}[") {
        return 1;
    }
    if op.starts_with('{') {
        let per = if [".8b", ".4h", ".2s", ".1d"].iter().any(|a| op.contains(a)) {
            8
        } else {
            16
        };
        return per * op_regs(op).len() as u64;
    }
    match op.chars().next() {
        Some('x' | 'd') => 8,
        Some('w' | 's') => 4,
        Some('q' | 'v') => 16,
        Some('h') => 2,
        _ => 1,
    }
}

/// A memory operand `[base{, index|#imm}{, extend}]{!}`.
struct Mem {
    regs: Vec<String>,
    /// A stack slot: base `sp` or `x29` (the frame pointer) plus an immediate.
    slot: Option<(String, i64)>,
}

fn mem(op: &str) -> Option<Mem> {
    let op = op.trim();
    let inner = op.strip_prefix('[')?;
    let inner = &inner[..inner.find(']')?];
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let regs: Vec<String> = parts
        .iter()
        .filter_map(|p| reg(p.split_whitespace().next().unwrap_or("")))
        .collect();
    let imm = parts
        .iter()
        .find_map(|p| p.strip_prefix('#'))
        .map_or(Some(0), parse_imm);
    let slot = match (regs.as_slice(), imm) {
        ([b], Some(d)) if b == "sp" || b == "x29" => Some((b.clone(), d)),
        _ => None,
    };
    Some(Mem { regs, slot })
}

fn parse_imm(s: &str) -> Option<i64> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = match s.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => s.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// The 8-byte stack words `len` bytes at `base + d` touch, and whether the access covers
/// each of them whole.
fn words(base: &str, d: i64, len: u64) -> Vec<(String, bool)> {
    let (lo, hi) = (d, d + len as i64);
    let first = lo.div_euclid(8);
    let last = (hi - 1).div_euclid(8);
    (first..=last)
        .map(|w| {
            (
                format!("s:{base}{:+}", w * 8),
                lo <= w * 8 && hi >= w * 8 + 8,
            )
        })
        .collect()
}

/// A branch target operand (`4006c0`), as an address.
fn address(op: Option<&String>) -> Option<u64> {
    u64::from_str_radix(op?.trim().trim_start_matches("0x"), 16).ok()
}

const ARGS: &[&str] = &["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"];

/// The state at a function's entry: no register is known to point into the constants.
pub fn entry() -> State {
    (0..=30).map(|n| format!("nc:x{n}")).collect()
}

/// Whether `r` is known to point into the binary's constants.
fn constant(st: &State, r: &str) -> bool {
    r.starts_with('x') && !st.contains(&format!("nc:{r}"))
}

/// Records whether general-purpose register `r` now points into the constants.
fn set_constant(st: &mut State, r: &str, yes: bool) {
    if !r.starts_with('x') {
        return;
    }
    let key = format!("nc:{r}");
    if yes {
        st.remove(&key);
    } else {
        st.insert(key);
    }
}

/// Whether `m` writes the flags.
fn sets_flags(m: &str) -> bool {
    matches!(
        m,
        "cmp"
            | "cmn"
            | "tst"
            | "ccmp"
            | "ccmn"
            | "fcmp"
            | "fcmpe"
            | "fccmp"
            | "fccmpe"
            | "adds"
            | "subs"
            | "ands"
            | "bics"
            | "adcs"
            | "sbcs"
            | "negs"
            | "ngcs"
    )
}

/// Whether `m` reads the flags (besides `b.`*cond*).
fn reads_flags(m: &str) -> bool {
    matches!(
        m,
        "csel"
            | "csinc"
            | "csinv"
            | "csneg"
            | "cset"
            | "csetm"
            | "cinc"
            | "cinv"
            | "cneg"
            | "adc"
            | "adcs"
            | "sbc"
            | "sbcs"
            | "ngc"
            | "ngcs"
            | "ccmp"
            | "ccmn"
            | "fcsel"
            | "fccmp"
            | "fccmpe"
    )
}

/// Whether `m` also reads its destination register.
fn reads_dest(m: &str, dest: &str) -> bool {
    // A lane insert (`mov v0.s[1], w2`, `ins`, `fmov v0.d[1], x1`) keeps the other lanes.
    if dest.contains('[') {
        return true;
    }
    const NARROW2: &[&str] = &[
        "xtn2",
        "sqxtn2",
        "uqxtn2",
        "sqxtun2",
        "shrn2",
        "rshrn2",
        "sqshrn2",
        "uqshrn2",
        "sqrshrn2",
        "uqrshrn2",
        "sqshrun2",
        "sqrshrun2",
        "addhn2",
        "raddhn2",
        "subhn2",
        "rsubhn2",
        "fcvtn2",
        "fcvtxn2",
    ];
    NARROW2.contains(&m)
        || matches!(
            m,
            "movk"
                | "bfi"
                | "bfxil"
                | "bfm"
                | "bfc"
                | "ins"
                | "mla"
                | "mls"
                | "fmla"
                | "fmls"
                | "bsl"
                | "bit"
                | "bif"
                | "tbx"
                | "sli"
                | "sri"
                | "usra"
                | "ssra"
                | "ursra"
                | "srsra"
                | "uaba"
                | "saba"
                | "uabal"
                | "uabal2"
                | "sabal"
                | "sabal2"
                | "umlal"
                | "umlal2"
                | "smlal"
                | "smlal2"
                | "umlsl"
                | "umlsl2"
                | "smlsl"
                | "smlsl2"
                | "sqdmlal"
                | "sqdmlal2"
                | "sadalp"
                | "uadalp"
                | "sdot"
                | "udot"
                | "aese"
                | "aesd"
                | "sha1c"
                | "sha1p"
                | "sha1m"
                | "sha1su0"
                | "sha1su1"
                | "sha256h"
                | "sha256h2"
                | "sha256su0"
                | "sha256su1"
                | "sha512h"
                | "sha512h2"
                | "sha512su0"
                | "sha512su1"
        )
}

/// Whether a load into `dest` (its first register operand) brings a secret, by `regs`.
fn secret_load(m: &str, dest: &str, regs: Regs) -> bool {
    let into_vector = reg(dest).is_some_and(|r| r.starts_with('v'));
    match regs {
        Regs::Scalar64 => true,
        Regs::Vector => into_vector,
        Regs::Scalar => {
            let gpr64 = dest.trim().starts_with('x')
                && matches!(
                    m,
                    "ldr" | "ldur" | "ldp" | "ldnp" | "ldar" | "ldapr" | "ldxr" | "ldaxr"
                );
            !gpr64
        }
    }
}

/// One A64 instruction's effect.
pub fn step(
    x: &Insn,
    st: &mut State,
    find: &mut dyn FnMut(&'static str),
    calls: &mut Vec<(u64, State)>,
    regs_mode: Regs,
) -> Flow {
    let m = x.mnemonic.as_str();
    let ops = &x.ops;
    let tainted = |st: &State, op: &str| op_regs(op).iter().any(|r| st.contains(r));
    // Control flow.
    if m.starts_with("b.") {
        if st.contains("flags") {
            find("branch on a secret");
        }
        return Flow::Branch(address(ops.first()));
    }
    match m {
        "cbz" | "cbnz" | "tbz" | "tbnz" => {
            if ops.first().is_some_and(|o| tainted(st, o)) {
                find("branch on a secret");
            }
            return Flow::Branch(address(ops.last()));
        }
        "b" => return Flow::Jump(address(ops.first())),
        "br" | "braa" | "brab" | "braaz" | "brabz" => {
            if ops.first().is_some_and(|o| tainted(st, o)) {
                find("indirect jump through a secret");
            }
            return Flow::Jump(None);
        }
        "ret" | "retaa" | "retab" | "brk" | "udf" | "hlt" => return Flow::Stop,
        "bl" | "blr" | "blraa" | "blrab" | "blraaz" | "blrabz" => {
            if m != "bl" && ops.first().is_some_and(|o| tainted(st, o)) {
                find("indirect call through a secret");
            }
            let callee = if m == "bl" {
                address(ops.first())
            } else {
                None
            };
            let clobbered = (0..=18)
                .map(|n| format!("x{n}"))
                .chain((0..32).map(|n| format!("v{n}")))
                .chain(["x30".to_string(), "flags".to_string()]);
            super::call(st, ARGS, callee, clobbered, calls);
            for n in (0..=18).chain([30]) {
                set_constant(st, &format!("x{n}"), false);
            }
            return Flow::Next;
        }
        _ => {}
    }
    // Memory operands: every address must be public.
    let at = ops.iter().position(|o| o.trim().starts_with('['));
    let access = at.and_then(|k| mem(&ops[k]).map(|mm| (k, mm)));
    if let Some((k, mm)) = &access {
        if mm.regs.iter().any(|r| st.contains(r)) {
            find(if mm.regs.len() > 1 {
                "secret-dependent address (indexed table access)"
            } else {
                "secret-dependent address"
            });
        }
        // Post-index by a register: the base moves by it (a public one keeps a constant
        // pointer constant).
        if let (Some(post), Some(b)) = (ops.get(k + 1), mm.regs.first())
            && let Some(p) = reg(post)
        {
            let secret = st.contains(&p);
            if secret {
                find("secret-dependent address");
                st.insert(b.clone());
            }
            let keep = constant(st, b) && !secret;
            set_constant(st, b, keep);
        }
    }
    let stack_secret = |st: &State| st.contains("stack*") || st.iter().any(|s| s.starts_with("s:"));
    let is_load = m.starts_with("ld");
    let is_store = m.starts_with("st") && access.is_some();
    if m.starts_with("prfm") {
        return Flow::Next;
    }
    if is_load {
        let Some(k) = at else {
            // A literal load: a constant from the code (a lane-load form keeps its taint).
            for r in ops.first().map(|o| op_regs(o)).unwrap_or_default() {
                st.remove(&r);
                set_constant(st, &r, false);
            }
            return Flow::Next;
        };
        let (_, mm) = access.as_ref().expect("a memory operand");
        let dests: Vec<&String> = ops[..k].iter().collect();
        let len: u64 = dests.iter().map(|d| width(d)).sum();
        let value = match (&mm.slot, mm.regs.first().map(String::as_str)) {
            (Some((base, d)), _) => {
                let ws = words(base, *d, len);
                if ws.iter().all(|(w, _)| st.contains(&format!("w:{w}"))) {
                    ws.iter().any(|(w, _)| st.contains(w))
                } else {
                    stack_secret(st)
                }
            }
            (None, Some("sp" | "x29")) => stack_secret(st),
            // The binary's constants, at a public offset.
            (None, Some(b)) if constant(st, b) && !mm.regs[1..].iter().any(|r| st.contains(r)) => {
                false
            }
            _ => dests.first().is_some_and(|d| secret_load(m, d, regs_mode)),
        };
        let lane = dests.iter().any(|d| d.contains("}["));
        for d in &dests {
            for r in op_regs(d) {
                set_constant(st, &r, false);
                if value || (lane && st.contains(&r)) {
                    st.insert(r);
                } else {
                    st.remove(&r);
                }
            }
        }
        return Flow::Next;
    }
    if is_store {
        let (k, mm) = access.as_ref().expect("a memory operand");
        // `stxr`-style status registers come first and are written, not stored; they are
        // public (success or failure of an exclusive store).
        let srcs = if m.starts_with("stx") || m.starts_with("stlx") {
            &ops[1..*k]
        } else {
            &ops[..*k]
        };
        let value = srcs.iter().any(|o| tainted(st, o));
        let len: u64 = srcs.iter().map(|d| width(d)).sum();
        match (&mm.slot, mm.regs.first().map(String::as_str)) {
            (Some((base, d)), _) => {
                for (w, whole) in words(base, *d, len) {
                    st.insert(format!("w:{w}"));
                    if value {
                        st.insert(w);
                    } else if whole {
                        st.remove(&w);
                    }
                }
            }
            (None, Some("sp" | "x29")) if value => {
                st.insert("stack*".into());
            }
            _ => {}
        }
        return Flow::Next;
    }
    // Compares: the flags only.
    if matches!(
        m,
        "cmp" | "cmn" | "tst" | "ccmp" | "ccmn" | "fcmp" | "fcmpe" | "fccmp" | "fccmpe"
    ) {
        let value = ops.iter().any(|o| tainted(st, o)) || (reads_flags(m) && st.contains("flags"));
        if value {
            st.insert("flags".into());
        } else {
            st.remove("flags");
        }
        return Flow::Next;
    }
    // Data processing: the first operand is written from the others.
    let Some(dest) = ops.first() else {
        return Flow::Next;
    };
    let Some(d) = reg(dest) else {
        return Flow::Next;
    };
    let zero =
        matches!(m, "eor" | "sub" | "bic" | "subs" | "bics") && ops.len() == 3 && ops[1] == ops[2];
    let value = !zero
        && m != "mrs"
        && (ops[1..].iter().any(|o| tainted(st, o))
            || (reads_flags(m) && st.contains("flags"))
            || (reads_dest(m, dest) && st.contains(&d)));
    // A pointer into the constants: `adrp`/`adr`, a move of one, or one plus an immediate
    // or a public register.
    let srcs: Vec<String> = ops[1..].iter().filter_map(|o| reg(o)).collect();
    let is_constant = match m {
        "adrp" | "adr" => true,
        "mov" => srcs.first().is_none_or(|r| constant(st, r)),
        "add" | "sub" => {
            srcs.first().is_some_and(|r| constant(st, r))
                && srcs[1..].iter().all(|r| !st.contains(r))
        }
        _ => false,
    };
    set_constant(st, &d, is_constant && !value);
    if value {
        st.insert(d);
    } else {
        st.remove(&d);
    }
    if sets_flags(m) {
        if value {
            st.insert("flags".into());
        } else {
            st.remove("flags");
        }
    }
    Flow::Next
}

#[cfg(test)]
mod tests {
    use super::super::{Arch, Regs, parse, scan};

    fn findings(body: &str, regs: Regs) -> usize {
        let funcs = parse(&format!("0000000000001000 <t::f>:\n{body}"), Arch::Aarch64);
        scan(&funcs, &["t::"], regs, Arch::Aarch64).findings.len()
    }

    #[test]
    fn registers_and_lists() {
        assert_eq!(super::reg("w3").as_deref(), Some("x3"));
        assert_eq!(super::reg("q7").as_deref(), Some("v7"));
        assert_eq!(super::reg("v7.s[1]").as_deref(), Some("v7"));
        assert_eq!(super::reg("xzr"), None);
        assert_eq!(super::reg("#16"), None);
        assert_eq!(
            super::op_regs("{v30.16b-v1.16b}"),
            ["v30", "v31", "v0", "v1"]
        );
        assert_eq!(super::op_regs("{v4.16b, v5.16b}"), ["v4", "v5"]);
        assert_eq!(super::op_regs("{v1.s}[2]"), ["v1"]);
    }

    #[test]
    fn a_secret_index_and_a_secret_branch_are_found_and_a_counted_loop_is_not() {
        // A byte of the secret indexes a table.
        let table =
            "    1000:\tldrb\tw8, [x1]\n    1004:\tldr\tw0, [x0, x8, lsl #2]\n    1008:\tret\n";
        assert_eq!(findings(table, Regs::Scalar), 1);
        // An early exit on a secret byte, by flags and by `cbz`.
        let flags = "    1000:\tldrb\tw8, [x1]\n    1004:\tcmp\tw8, #0x5\n    1008:\tb.eq\t1000 <t::f>\n    100c:\tret\n";
        assert_eq!(findings(flags, Regs::Scalar), 1);
        let cbz = "    1000:\tldrb\tw8, [x1]\n    1004:\tcbz\tw8, 1000 <t::f>\n    1008:\tret\n";
        assert_eq!(findings(cbz, Regs::Scalar), 1);
        // Vector code: loads, a permutation by a secret (`tbl`), a counted loop.
        let count = "    1000:\tmov\tx8, xzr\n    1004:\tldr\tq0, [x0, x8]\n    1008:\ttbl\tv0.16b, {v1.16b-v4.16b}, v0.16b\n    100c:\teor\tv0.16b, v0.16b, v5.16b\n    1010:\tstr\tq0, [x0, x8]\n    1014:\tadd\tx8, x8, #0x10\n    1018:\tcmp\tx8, x1\n    101c:\tb.ne\t1004 <t::f+0x4>\n    1020:\tret\n";
        assert_eq!(findings(count, Regs::Vector), 0);
        // A secret moved from a vector lane to an address.
        let lane = "    1000:\tldr\tq0, [x0]\n    1004:\tumov\tw8, v0.b[3]\n    1008:\tldrb\tw9, [x1, x8]\n    100c:\tret\n";
        assert_eq!(findings(lane, Regs::Vector), 1);
    }

    #[test]
    fn the_constants_are_public_and_a_secret_index_into_them_is_not() {
        // A 32-bit load from a constant table at a public index is public (`scalar`).
        let table = "    1000:\tadrp\tx8, 4000 <t::f+0x3000>\n    1004:\tadd\tx8, x8, #0x10\n    1008:\tldr\tw9, [x8, x2, lsl #2]\n    100c:\tldr\tw0, [x0, x9]\n    1010:\tret\n";
        assert_eq!(findings(table, Regs::Scalar), 0);
        // The same load through an argument is a secret (a data pointer).
        let data =
            "    1000:\tldr\tw9, [x1, x2, lsl #2]\n    1004:\tldr\tw0, [x0, x9]\n    1008:\tret\n";
        assert_eq!(findings(data, Regs::Scalar), 1);
        // A pointer that is constant on one path only is not constant at the join.
        let join = "    1000:\tadrp\tx8, 4000 <t::f+0x3000>\n    1004:\tcbz\tx3, 100c <t::f+0xc>\n    1008:\tmov\tx8, x1\n    100c:\tldr\tw9, [x8]\n    1010:\tldr\tw0, [x0, x9]\n    1014:\tret\n";
        assert_eq!(findings(join, Regs::Scalar), 1);
        // A secret index into the constants is a finding, and what it loads is secret.
        let sbox = "    1000:\tldrb\tw9, [x1]\n    1004:\tadrp\tx8, 4000 <t::f+0x3000>\n    1008:\tldrb\tw10, [x8, x9]\n    100c:\tldr\tw0, [x0, x10]\n    1010:\tret\n";
        assert_eq!(findings(sbox, Regs::Scalar), 2);
    }

    #[test]
    fn spills_keep_their_taint_by_word() {
        // A secret spilled with `stp` and reloaded by a narrower `ldr` at the second word.
        let spill = "    1000:\tldp\tw8, w9, [x1]\n    1004:\tstp\tx8, x9, [sp, #16]\n    1008:\tmov\tw8, wzr\n    100c:\tldr\tx10, [sp, #24]\n    1010:\tldr\tw0, [x0, x10]\n    1014:\tret\n";
        assert_eq!(findings(spill, Regs::Scalar), 1);
        // A public word overwritten whole is public again.
        let over = "    1000:\tldr\tw8, [x1]\n    1004:\tstr\tx8, [sp, #8]\n    1008:\tstr\txzr, [sp, #8]\n    100c:\tldr\tx10, [sp, #8]\n    1010:\tldr\tw0, [x0, x10]\n    1014:\tret\n";
        assert_eq!(findings(over, Regs::Scalar), 0);
    }
}
