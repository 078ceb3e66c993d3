//! The static half of `cargo xtask ct` (issue 24): a taint analysis of the release
//! build's machine code for secret-dependent branches and addresses. Below, the x86-64
//! model; [`a64`] applies the same rules to AArch64, and both share the analysis of a
//! function's control-flow graph ([`analyse`]).
//!
//! `objdump -d -C -M intel` of the `ct` binary gives every function; the ones that belong
//! to a constant-time backend are those whose demangled name starts with one of the
//! target's prefixes (`ct code` lists them: the backend's module, e.g.
//! `aes::backends::vaes512::`, which holds its round functions and the block loops they are
//! inlined into). Each such function is analysed on its own control-flow graph (basic
//! blocks from the jump targets, taint merged at joins, iterated to a fixed point):
//!
//! - **Secret sources.** Loads from memory that is not the stack and not `rip`-relative
//!   (constants), by how the target's secrets travel (`ct code`'s column):
//!   `scalar64` (bitsliced `u64` code): every such load; `scalar` (secret words of 8 to 32
//!   bits): every load but a 64-bit load into a 64-bit register (pointers, lengths, enum
//!   tags); `vector`: the loads into SIMD and mask registers (the scalar loads are
//!   pointers, lengths and counters; secret words reach a general-purpose register only
//!   through an instruction this analysis follows, `vmovd`/`vpextr*`/`kmov`/…).
//!   Function arguments are public (pointers and lengths), except where a call site of an
//!   analysed function passes tainted registers: those are tainted at the callee's entry.
//! - **Propagation.** Through every register write (the destination is tainted if a
//!   source is; zeroing idioms and immediates are public), the flags, stack slots
//!   (`[rsp+d]`/`[rbp+d]`: a slot this function wrote holds what it wrote; every other
//!   stack word, such as arrays written through an index or by `memcpy`, is secret once any
//!   secret went to the stack that way) and calls (results and caller-saved registers are
//!   tainted when an argument register was).
//! - **Findings.** A conditional jump on tainted flags, an indirect jump or call through a
//!   tainted register, any memory operand whose base or index register is tainted (a
//!   secret-indexed table load or store; `vpgather*` counts through its index register),
//!   and a gather instruction at all (table-free code has none).
//!
//! So the rule for loops is: a branch is allowed when its condition derives only from
//! arguments, constants and public loads (block counts, lengths, round counters), which is
//! what a loop over blocks or rounds compares; any branch whose condition has a secret in
//! its data flow is reported, wherever it is. The analysis is intra-procedural with entry
//! taint from analysed callers; it does not follow calls into code outside the target
//! (`memcpy`, the allocator), which handle public lengths only.
//!
//! For work on a backend: `XTASK_CT_ONLY=static cargo xtask ct` runs only this check, and
//! `XTASK_CT_TRACE=<part of a function name>` prints each instruction of the matching
//! functions with the taint after it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

mod a64;

/// How a target's secrets travel (the `ct code` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Regs {
    /// Secrets only in SIMD and mask registers.
    Vector,
    /// Secrets in 8- to 32-bit words of general-purpose registers too; 64-bit loads into a
    /// 64-bit register are pointers, lengths and enum tags (public).
    Scalar,
    /// Secrets in 64-bit words too (bitsliced `u64` code): every load is secret.
    Scalar64,
}

/// One instruction of the disassembly.
#[derive(Clone, Debug)]
pub struct Insn {
    pub addr: u64,
    pub mnemonic: String,
    pub ops: Vec<String>,
    pub text: String,
}

/// The instruction set of a disassembly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arch {
    /// `objdump -d -C -M intel`.
    X86_64,
    /// `aarch64-linux-gnu-objdump -d -C` (see [`a64`]).
    Aarch64,
}

/// The functions of a disassembly: demangled name → instructions.
pub fn parse(dis: &str, arch: Arch) -> BTreeMap<String, Vec<Insn>> {
    // objdump's trailing comments: `# 4a0 <sym>` on x86, `// #16` on AArch64 (where `#`
    // starts every immediate).
    let comment = match arch {
        Arch::X86_64 => " #",
        Arch::Aarch64 => " //",
    };
    let mut out: BTreeMap<String, Vec<Insn>> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in dis.lines() {
        if let Some(rest) = line.strip_suffix(">:")
            && let Some((_, name)) = rest.split_once(" <")
        {
            let mut name = name.to_string();
            // Several copies of one function (monomorphizations) get a suffix.
            let base = name.clone();
            let mut k = 1;
            while out.contains_key(&name) {
                k += 1;
                name = format!("{base}#{k}");
            }
            out.insert(name.clone(), Vec::new());
            cur = Some(name);
            continue;
        }
        let Some(f) = &cur else { continue };
        let Some((addr, rest)) = line.split_once(":\t") else {
            continue;
        };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        let text = rest.trim().to_string();
        let mut words = text.split_whitespace();
        let mut mnemonic = words.next().unwrap_or("").to_string();
        // Prefixes objdump prints as words.
        while matches!(
            mnemonic.as_str(),
            "lock"
                | "rep"
                | "repz"
                | "repnz"
                | "repe"
                | "repne"
                | "notrack"
                | "bnd"
                | "data16"
                | "cs"
                | "ds"
        ) {
            mnemonic = words.next().unwrap_or("").to_string();
        }
        let rest: String = words.collect::<Vec<_>>().join(" ");
        let rest = rest.split(comment).next().unwrap_or("").trim().to_string();
        // Jump targets print as `a0df0 <sym+0x..>`; keep the address.
        let ops = split_ops(&rest)
            .into_iter()
            .map(|o| o.split(" <").next().unwrap_or("").trim().to_string())
            .filter(|o| !o.is_empty())
            .collect();
        out.get_mut(f).unwrap().push(Insn {
            addr,
            mnemonic,
            ops,
            text,
        });
    }
    out
}

fn split_ops(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in s.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

const GPRS: &[(&str, &[&str])] = &[
    ("rax", &["rax", "eax", "ax", "al", "ah"]),
    ("rbx", &["rbx", "ebx", "bx", "bl", "bh"]),
    ("rcx", &["rcx", "ecx", "cx", "cl", "ch"]),
    ("rdx", &["rdx", "edx", "dx", "dl", "dh"]),
    ("rsi", &["rsi", "esi", "si", "sil"]),
    ("rdi", &["rdi", "edi", "di", "dil"]),
    ("rbp", &["rbp", "ebp", "bp", "bpl"]),
    ("rsp", &["rsp", "esp", "sp", "spl"]),
];

/// The register family of an operand word (`eax` → `rax`, `ymm3` → `v3`), if it is one.
fn reg(word: &str) -> Option<String> {
    let w = word.trim();
    for (fam, names) in GPRS {
        if names.contains(&w) {
            return Some((*fam).to_string());
        }
    }
    if let Some(n) = w.strip_prefix('r') {
        let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
        let suffix = &n[digits.len()..];
        if !digits.is_empty() && matches!(suffix, "" | "d" | "w" | "b") {
            return Some(format!("r{digits}"));
        }
    }
    for p in ["xmm", "ymm", "zmm"] {
        if let Some(n) = w.strip_prefix(p)
            && n.chars().all(|c| c.is_ascii_digit())
            && !n.is_empty()
        {
            return Some(format!("v{n}"));
        }
    }
    if let Some(n) = w.strip_prefix('k')
        && n.len() == 1
        && n.chars().all(|c| c.is_ascii_digit())
    {
        return Some(format!("k{n}"));
    }
    None
}

fn is_vector(r: &str) -> bool {
    r.starts_with('v') || r.starts_with('k')
}

/// A memory operand: its base and index registers, and whether it is a stack slot or
/// `rip`-relative.
struct Mem {
    regs: Vec<String>,
    index: bool,
    slot: Option<String>,
    rip: bool,
}

fn mem(op: &str) -> Option<Mem> {
    let open = op.find('[')?;
    let inner = &op[open + 1..op.rfind(']')?];
    let mut regs = Vec::new();
    let mut index = false;
    for part in inner.split(['+', '-']) {
        let (r, scaled) = match part.split_once('*') {
            Some((r, _)) => (r, true),
            None => (part, false),
        };
        if let Some(r) = reg(r) {
            index |= scaled || !regs.is_empty();
            regs.push(r);
        }
    }
    let rip = inner.starts_with("rip");
    let slot = match regs.as_slice() {
        [b] if b == "rsp" || b == "rbp" => Some(format!("s:{b}{}", &inner[3..])),
        _ => None,
    };
    Some(Mem {
        regs,
        index,
        slot,
        rip,
    })
}

/// The registers an operand names (masks in `{k1}` included), memory operands aside.
fn op_regs(op: &str) -> Vec<String> {
    if op.contains('[') {
        // `{k1}` after a memory operand still reads the mask.
        return op
            .split(['{', '}'])
            .filter_map(reg)
            .filter(|r| r.starts_with('k'))
            .collect();
    }
    op.split(['{', '}', ' ']).filter_map(reg).collect()
}

type State = BTreeSet<String>;

const ARGS: &[&str] = &["rdi", "rsi", "rdx", "rcx", "r8", "r9"];
const CALLER_SAVED: &[&str] = &[
    "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "flags",
];

/// A finding: where and why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub function: String,
    pub addr: u64,
    pub what: &'static str,
    pub text: String,
}

fn writes_flags(m: &str) -> bool {
    const NO: &[&str] = &[
        "mov",
        "lea",
        "push",
        "pop",
        "call",
        "ret",
        "jmp",
        "nop",
        "bswap",
        "movbe",
        "rorx",
        "shlx",
        "shrx",
        "sarx",
        "pdep",
        "pext",
        "not",
        "xchg",
        "cdq",
        "cqo",
        "cdqe",
        "cwde",
        "endbr64",
        "ud2",
        "int3",
        "lfence",
        "mfence",
        "sfence",
        "rdtsc",
        "rdtscp",
        "prefetcht0",
    ];
    if m.starts_with("set") || m.starts_with("cmov") || (m.starts_with('j') && m != "jmp") {
        return false;
    }
    if m.starts_with('v')
        || m.starts_with('k')
        || m.starts_with('p')
        || m.ends_with("ps")
        || m.ends_with("pd")
    {
        // Vector instructions leave the flags alone, except the tests and compares.
        return matches!(m, "ptest" | "vptest" | "vtestps" | "vtestpd" | "popcnt")
            || m.starts_with("kortest")
            || m.starts_with("ktest")
            || m.contains("comis");
    }
    !NO.iter()
        .any(|n| m == *n || (m.starts_with(n) && *n == "mov"))
}

/// Whether the destination (first operand) is only written, not read.
fn pure_write(m: &str, ops: &[String]) -> bool {
    let merge = ops
        .first()
        .is_some_and(|d| d.contains("{k") && !d.contains("{z}"));
    if merge {
        return false;
    }
    if m.starts_with("mov") && !m.starts_with("movs") || m == "movsx" || m == "movsxd" {
        return true;
    }
    if matches!(
        m,
        "lea"
            | "pop"
            | "rorx"
            | "shlx"
            | "shrx"
            | "sarx"
            | "andn"
            | "pdep"
            | "pext"
            | "popcnt"
            | "lzcnt"
            | "tzcnt"
            | "bsf"
            | "bsr"
            | "cvtsi2sd"
            | "imul3"
    ) || m.starts_with("set")
        || m.starts_with("kmov")
        || m.starts_with("vmov")
        || m.starts_with("vpmov")
        || m.starts_with("vpbroadcast")
        || m.starts_with("vbroadcast")
        || m.starts_with("vpextr")
        || m.starts_with("pextr")
        || m.starts_with("vcvt")
    {
        return true;
    }
    if m.starts_with('v') || m.starts_with('k') {
        // Three-operand VEX/EVEX forms write their destination, except the ones that also
        // read it.
        return ops.len() >= 3
            && !(m.starts_with("vpternlog")
                || m.starts_with("vfmadd")
                || m.starts_with("vfnmadd")
                || m.starts_with("vpermi2")
                || m.starts_with("vpermt2")
                || m.starts_with("vpdpb")
                || m.starts_with("vpdpw")
                || m.starts_with("vpshldv")
                || m.starts_with("vpshrdv"));
    }
    if m == "imul" && ops.len() == 3 {
        return true;
    }
    false
}

fn zero_idiom(m: &str, ops: &[String]) -> bool {
    let same = match ops {
        [a, b] => a == b,
        [_, a, b] => a == b,
        _ => false,
    };
    same && matches!(
        m,
        "xor"
            | "sub"
            | "pxor"
            | "vpxor"
            | "vpxord"
            | "vpxorq"
            | "xorps"
            | "vxorps"
            | "vxorpd"
            | "kxorw"
            | "kxorq"
            | "kxord"
            | "kxorb"
            | "sbb"
    ) && m != "sbb"
}

/// Where control goes after an instruction.
enum Flow {
    /// To the next instruction.
    Next,
    /// To the target only (an unconditional jump; `None`: out of the function).
    Jump(Option<u64>),
    /// To the target or the next instruction (a conditional branch).
    Branch(Option<u64>),
    /// Nowhere in this function (a return, a trap).
    Stop,
}

/// The effect of one instruction on the taint, for one instruction set: updates `st`,
/// reports findings through `find` and the argument taint of calls in `calls`.
type Step<'a> =
    dyn Fn(&Insn, &mut State, &mut dyn FnMut(&'static str), &mut Vec<(u64, State)>) -> Flow + 'a;

/// Analyses one function; `entry` is its tainted registers at entry. Returns the
/// findings and the taint of the argument registers at each call (callee address).
fn analyse(
    name: &str,
    code: &[Insn],
    step: &Step<'_>,
    entry: &State,
) -> (BTreeSet<Finding>, Vec<(u64, State)>) {
    let index: HashMap<u64, usize> = code.iter().enumerate().map(|(i, x)| (x.addr, i)).collect();
    let mut states: Vec<Option<State>> = vec![None; code.len()];
    if !code.is_empty() {
        states[0] = Some(entry.clone());
    }
    let mut work: Vec<usize> = vec![0];
    let mut findings = BTreeSet::new();
    let mut calls: Vec<(u64, State)> = Vec::new();
    let mut visits = 0usize;
    let trace = std::env::var("XTASK_CT_TRACE").is_ok_and(|t| name.contains(&t));
    while let Some(start) = work.pop() {
        visits += 1;
        if visits > 200_000 {
            findings.insert(Finding {
                function: name.to_string(),
                addr: 0,
                what: "analysis did not converge",
                text: String::new(),
            });
            break;
        }
        let mut st = states[start].clone().unwrap_or_default();
        let mut i = start;
        loop {
            let x = &code[i];
            let mut find = |what: &'static str| {
                findings.insert(Finding {
                    function: name.to_string(),
                    addr: x.addr,
                    what,
                    text: x.text.clone(),
                });
            };
            let flow = step(x, &mut st, &mut find, &mut calls);
            if trace {
                eprintln!("{:x} {:<60} {:?}", x.addr, x.text, st);
            }
            // Successors.
            let next = (i + 1 < code.len()).then_some(i + 1);
            let at = |a: Option<u64>| a.and_then(|a| index.get(&a).copied());
            let succ: Vec<usize> = match flow {
                Flow::Next => next.into_iter().collect(),
                Flow::Jump(t) => at(t).into_iter().collect(),
                Flow::Branch(t) => at(t).into_iter().chain(next).collect(),
                Flow::Stop => Vec::new(),
            };
            // Fall through inside the block while the successor is not a join.
            let mut cont = None;
            for s in succ {
                let changed = match &mut states[s] {
                    Some(old) => {
                        let before = old.len();
                        old.extend(st.iter().cloned());
                        old.len() != before
                    }
                    slot @ None => {
                        *slot = Some(st.clone());
                        true
                    }
                };
                if matches!(flow, Flow::Next) {
                    if changed {
                        cont = Some(s);
                    }
                } else if changed {
                    work.push(s);
                }
            }
            match cont {
                Some(s) => {
                    st = states[s].clone().unwrap_or_default();
                    i = s;
                }
                None => break,
            }
        }
    }
    (findings, calls)
}

/// A call's effect, on either ISA: records the taint of the argument registers `args`
/// for the callee (when it is a direct call), and leaves the `clobbered` registers tainted
/// if any argument was, public if none was.
fn call(
    st: &mut State,
    args: &[&str],
    callee: Option<u64>,
    clobbered: impl Iterator<Item = String>,
    calls: &mut Vec<(u64, State)>,
) {
    let passed: State = st
        .iter()
        .filter(|r| args.contains(&r.as_str()))
        .cloned()
        .collect();
    let dirty = !passed.is_empty();
    if let Some(a) = callee {
        calls.push((a, passed));
    }
    for r in clobbered {
        if dirty {
            st.insert(r);
        } else {
            st.remove(&r);
        }
    }
}

/// An x86-64 instruction's effect (Intel syntax).
fn x86_step(
    x: &Insn,
    st: &mut State,
    find: &mut dyn FnMut(&'static str),
    calls: &mut Vec<(u64, State)>,
    regs_mode: Regs,
) -> Flow {
    let m = x.mnemonic.as_str();
    let is_jump = |m: &str| m.starts_with('j');
    let target = || {
        x.ops
            .first()
            .and_then(|op| u64::from_str_radix(op.trim_start_matches("0x"), 16).ok())
    };
    // Sources: registers and loads.
    let mut src = false;
    let mut dest_mem: Option<Mem> = None;
    for (k, op) in x.ops.iter().enumerate() {
        if let Some(mm) = mem(op) {
            if m != "lea" && !m.starts_with("nop") && mm.regs.iter().any(|r| st.contains(r)) {
                find(if mm.index {
                    "secret-dependent address (indexed table access)"
                } else {
                    "secret-dependent address"
                });
            }
            let is_dest = k == 0
                && !matches!(m, "cmp" | "test" | "push")
                && !m.starts_with('j')
                && m != "call";
            let loads =
                !(m == "lea" || m.starts_with("prefetch") || is_dest && pure_write(m, &x.ops));
            if loads {
                let value = if mm.rip {
                    false
                } else if let Some(s) = &mm.slot {
                    // A spill slot written here holds what was written; any other
                    // stack word may be part of an array written through an index
                    // or by a call (`memcpy`), tracked as one `stack*` taint.
                    if st.contains(&format!("w:{s}")) {
                        st.contains(s)
                    } else {
                        st.contains("stack*")
                    }
                } else if mm.regs.first().is_some_and(|b| b == "rsp" || b == "rbp") {
                    st.contains("stack*") || st.iter().any(|s| s.starts_with("s:"))
                } else {
                    let gpr64 = x.ops.first().is_some_and(|d| {
                        d.starts_with('r') && reg(d).is_some() && !d.ends_with(['d', 'w', 'b'])
                    }) && op.starts_with("QWORD PTR");
                    match regs_mode {
                        Regs::Scalar64 => true,
                        Regs::Scalar => !gpr64,
                        Regs::Vector => x
                            .ops
                            .first()
                            .and_then(|d| op_regs(d).first().cloned())
                            .is_some_and(|d| is_vector(&d)),
                    }
                };
                src |= value;
            }
            if m == "lea" {
                src |= mm.regs.iter().any(|r| st.contains(r));
            }
            if is_dest {
                dest_mem = Some(mm);
            }
        } else if k > 0 || !pure_write(m, &x.ops) || m == "cmp" || m == "test" {
            src |= op_regs(op).iter().any(|r| st.contains(r));
        } else {
            // A pure-write destination still reads its mask.
            src |= op_regs(op).iter().skip(1).any(|r| st.contains(r));
        }
    }
    if m.starts_with("vpgather") || m.starts_with("vgather") {
        find("gather (a table look-up)");
    }
    if m.starts_with("cmov") || m.starts_with("set") || m == "adc" || m == "sbb" {
        src |= st.contains("flags");
    }
    if zero_idiom(m, &x.ops) {
        src = false;
    }
    // Control flow.
    if is_jump(m) {
        let cond = m != "jmp";
        if cond && st.contains("flags") {
            find("branch on a secret");
        }
        if x.ops
            .first()
            .is_some_and(|o| op_regs(o).iter().any(|r| st.contains(r)))
        {
            find("indirect jump through a secret");
        }
    }
    if m == "call" {
        if x.ops
            .first()
            .is_some_and(|o| op_regs(o).iter().any(|r| st.contains(r)))
        {
            find("indirect call through a secret");
        }
        // Rust passes SIMD values to non-inlined functions by reference.
        let callee = x
            .ops
            .first()
            .and_then(|o| u64::from_str_radix(o.trim_start_matches("0x"), 16).ok());
        let clobbered = CALLER_SAVED
            .iter()
            .map(|r| (*r).to_string())
            .chain((0..32).map(|v| format!("v{v}")));
        call(st, ARGS, callee, clobbered, calls);
    } else if !is_jump(m) && m != "ret" {
        // Destination.
        let written: Vec<String> = match x.ops.first() {
            Some(d)
                if dest_mem.is_none()
                    && !matches!(m, "cmp" | "test" | "push" | "bt")
                    && !m.contains("test")
                    && !m.contains("comis") =>
            {
                op_regs(d).into_iter().take(1).collect()
            }
            _ => Vec::new(),
        };
        let mut written = written;
        if matches!(m, "mul" | "div" | "idiv" | "cqo" | "cdq") || (m == "imul" && x.ops.len() == 1)
        {
            written = vec!["rax".into(), "rdx".into()];
            src |= st.contains("rax");
        }
        if m == "xchg" {
            let rs: Vec<String> = x.ops.iter().flat_map(|o| op_regs(o)).collect();
            written = rs;
        }
        for r in &written {
            if src {
                st.insert(r.clone());
            } else {
                st.remove(r);
            }
        }
        if let Some(mm) = &dest_mem {
            match &mm.slot {
                Some(s) => {
                    st.insert(format!("w:{s}"));
                    if src {
                        st.insert(s.clone());
                    } else {
                        st.remove(s);
                    }
                }
                None if src && mm.regs.first().is_some_and(|b| b == "rsp" || b == "rbp") => {
                    st.insert("stack*".into());
                }
                None => {}
            }
        }
        if m == "push" && src {
            st.insert("stack*".into());
        }
        if writes_flags(m) {
            if src {
                st.insert("flags".into());
            } else {
                st.remove("flags");
            }
        }
    }
    if m == "ret" || m == "ud2" {
        Flow::Stop
    } else if m == "jmp" {
        Flow::Jump(target())
    } else if is_jump(m) {
        Flow::Branch(target())
    } else {
        Flow::Next
    }
}

/// The result of one target.
pub struct Report {
    pub functions: usize,
    pub insns: usize,
    pub findings: BTreeSet<Finding>,
}

/// Scans the functions whose names start with one of `prefixes`.
pub fn scan(
    funcs: &BTreeMap<String, Vec<Insn>>,
    prefixes: &[&str],
    regs: Regs,
    arch: Arch,
) -> Report {
    let x86 =
        move |x: &Insn,
              st: &mut State,
              find: &mut dyn FnMut(&'static str),
              calls: &mut Vec<(u64, State)>| { x86_step(x, st, find, calls, regs) };
    let aarch64 =
        move |x: &Insn,
              st: &mut State,
              find: &mut dyn FnMut(&'static str),
              calls: &mut Vec<(u64, State)>| { a64::step(x, st, find, calls, regs) };
    let step: &Step<'_> = match arch {
        Arch::X86_64 => &x86,
        Arch::Aarch64 => &aarch64,
    };
    let chosen: Vec<(&String, &Vec<Insn>)> = funcs
        .iter()
        .filter(|(n, _)| {
            prefixes.iter().any(|p| match p.strip_suffix('$') {
                // `name$`: that function (and its other monomorphizations, `name#2`).
                Some(f) => n.as_str() == f || n.strip_prefix(f).is_some_and(|r| r.starts_with('#')),
                None => !p.is_empty() && n.starts_with(p),
            })
        })
        .collect();
    let by_addr: HashMap<u64, &String> = chosen
        .iter()
        .filter_map(|(n, c)| c.first().map(|x| (x.addr, *n)))
        .collect();
    let mut entry: HashMap<&String, State> = HashMap::new();
    let mut findings = BTreeSet::new();
    for _round in 0..8 {
        let mut changed = false;
        findings.clear();
        for (n, code) in &chosen {
            let mut e = entry.get(n).cloned().unwrap_or_default();
            if arch == Arch::Aarch64 {
                e.extend(a64::entry());
            }
            let (f, calls) = analyse(n, code, step, &e);
            findings.extend(f);
            for (a, args) in calls {
                if let Some(callee) = by_addr.get(&a) {
                    let slot = entry.entry(callee).or_default();
                    let before = slot.len();
                    slot.extend(args);
                    changed |= slot.len() != before;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Report {
        functions: chosen.len(),
        insns: chosen.iter().map(|(_, c)| c.len()).sum(),
        findings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dis(body: &str) -> BTreeMap<String, Vec<Insn>> {
        parse(&format!("0000000000001000 <t::f>:\n{body}"), Arch::X86_64)
    }

    #[test]
    fn a_secret_index_and_a_secret_branch_are_found_and_a_counted_loop_is_not() {
        let table = dis(
            "    1000:\tmovzx  eax,BYTE PTR [rsi]\n    1003:\tmov    eax,DWORD PTR [rdi+rax*4]\n    1006:\tret\n",
        );
        let r = scan(&table, &["t::"], Regs::Scalar, Arch::X86_64);
        assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
        let branch = dis(
            "    1000:\tmovzx  eax,BYTE PTR [rsi]\n    1003:\tcmp    al,0x5\n    1005:\tje     1000 <t::f>\n    1007:\tret\n",
        );
        assert_eq!(
            scan(&branch, &["t::"], Regs::Scalar, Arch::X86_64)
                .findings
                .len(),
            1
        );
        let count = dis(
            "    1000:\txor    ecx,ecx\n    1002:\tvmovdqu64 zmm0,ZMMWORD PTR [rdi+rcx*1]\n    1008:\tvpxorq zmm0,zmm0,zmm1\n    100e:\tvmovdqu64 ZMMWORD PTR [rdi+rcx*1],zmm0\n    1014:\tadd    rcx,0x40\n    1018:\tcmp    rcx,rsi\n    101b:\tjb     1002 <t::f+0x2>\n    101d:\tret\n",
        );
        let r = scan(&count, &["t::"], Regs::Vector, Arch::X86_64);
        assert!(r.findings.is_empty(), "{:?}", r.findings);
    }
}
