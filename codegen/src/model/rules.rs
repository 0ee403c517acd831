//! The resolved validity rules (see [`crate::schema::rules`] for how they are written).

use serde::Serialize;

use super::provenance::{Arch, Confidence, Evidence};

/// Every rule of the spec, with the constants and tables they use.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RuleModel {
    pub constants: Vec<Constant>,
    pub tables: Vec<Table>,
    /// One set per type that has rules, in type order.
    pub sets: Vec<RuleSet>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Constant {
    pub name: String,
    pub value: i64,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub name: String,
    /// Index of the enum type in `Model::types`.
    pub over: usize,
    pub over_name: String,
    /// (raw enum value, enumerator name, table value), in enumerator order.
    pub entries: Vec<(i64, String, i64)>,
    pub default: i64,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

impl Table {
    pub fn lookup(&self, raw: i64) -> i64 {
        self.entries
            .iter()
            .find(|e| e.0 == raw)
            .map_or(self.default, |e| e.2)
    }
}

/// The rules of one struct or bitfield.
#[derive(Debug, Clone, Serialize)]
pub struct RuleSet {
    /// Index of the owner in `Model::types`.
    pub owner: usize,
    pub owner_name: String,
    pub rules: Vec<Rule>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Rule {
    pub id: String,
    pub name: String,
    pub args: Option<String>,
    pub clause: bool,
    pub kind: RuleKind,
    pub authority: Authority,
    /// The composite this rule is a part of.
    pub parent: Option<usize>,
    /// Architectures it applies to; empty means all.
    pub arch: Vec<String>,
    pub message: String,
    pub doc: String,
    /// Leaf paths read (for a composite: read by its parts), sorted.
    pub fields: Vec<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub file: String,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleKind {
    /// `source` as written; `expr` type-checked and lowered.
    Expr {
        source: String,
        expr: Expr,
    },
    All {
        parts: Vec<usize>,
    },
    Any {
        parts: Vec<usize>,
    },
    /// Named by the sources without a body: holds.
    NotEnforced,
}

/// Who forbids a value that breaks a rule (see [`crate::schema::rules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Authority {
    /// The shipped ISA header validates it: a value that breaks it is invalid.
    Header,
    /// neuronx-cc guarantees it of the words it writes (an assert or FATAL); the ISA
    /// sources do not forbid a value that breaks it, so it is a finding, not a violation.
    Compiler,
}

impl Authority {
    /// The spec's spelling (`authority = "..."`), also the JSON's.
    pub const NAMES: [(&'static str, Authority); 2] = [
        ("header", Authority::Header),
        ("compiler", Authority::Compiler),
    ];

    pub fn name(self) -> &'static str {
        match self {
            Authority::Header => "header",
            Authority::Compiler => "compiler",
        }
    }
}

/// How much of a rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Enforcement {
    Enforced,
    /// A composite with some parts not enforced.
    Partial,
    NotEnforced,
}

impl Enforcement {
    pub fn label(self) -> &'static str {
        match self {
            Enforcement::Enforced => "enforced",
            Enforcement::Partial => "partly enforced",
            Enforcement::NotEnforced => "not enforced",
        }
    }
}

/// A lowered, type-checked rule expression. Values are `i64`, conditions `bool`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Expr {
    Int {
        value: i64,
    },
    Bool {
        value: bool,
    },
    /// A field (or bitfield sub-field) read as an integer.
    Read {
        access: Access,
    },
    /// A `[[constant]]`, by index.
    Const {
        index: usize,
    },
    /// The architecture's NeuronCore generation.
    Nc,
    Not {
        arg: Box<Expr>,
    },
    Neg {
        arg: Box<Expr>,
    },
    Bin {
        bin: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `parts[0] && parts[1] && ...` (or `||`, as `bin` says), left to right: an `in [...]`
    /// list, flat so that a list of any length nests no deeper than one of two values.
    Chain {
        bin: BinOp,
        parts: Vec<Expr>,
    },
    /// A `[[table]]` lookup, by index.
    Table {
        index: usize,
        arg: Box<Expr>,
    },
    /// `if cond { then } else { other }` (integers); from `value(x)` on a field whose
    /// stored 0 means another value.
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        other: Box<Expr>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Whether the result is a condition (else an integer).
    pub fn is_bool(self) -> bool {
        !matches!(
            self,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::BitAnd
        )
    }
}

/// Where a value lives in the owner's bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Access {
    /// Spec path: `flags.gather_dim`, `src_num_elem[1]`, `src_start_addr.marker`.
    pub path: String,
    /// Byte offset of the container within the owner.
    pub offset: usize,
    /// Container size in bytes (1, 2, 4 or 8).
    pub size: usize,
    pub signed: bool,
    /// `(lsb, width)` within the little-endian container, for bitfield sub-fields.
    pub bits: Option<(u32, u32)>,
}

impl Access {
    /// The value in `bytes` (the owner's encoding).
    pub fn read(&self, bytes: &[u8]) -> i64 {
        let mut raw = 0u64;
        for i in (0..self.size).rev() {
            raw = raw << 8 | u64::from(bytes[self.offset + i]);
        }
        if let Some((lsb, width)) = self.bits {
            let mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            return ((raw >> lsb) & mask) as i64;
        }
        if self.signed {
            let shift = 64 - 8 * self.size as u32;
            ((raw << shift) as i64) >> shift
        } else {
            raw as i64
        }
    }

    /// Writes `value` (truncated to the field) into `bytes`.
    pub fn write(&self, bytes: &mut [u8], value: i64) {
        let mut raw = 0u64;
        for i in (0..self.size).rev() {
            raw = raw << 8 | u64::from(bytes[self.offset + i]);
        }
        let raw = match self.bits {
            Some((lsb, width)) => {
                let mask = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                (raw & !(mask << lsb)) | ((value as u64 & mask) << lsb)
            }
            None => value as u64,
        };
        for i in 0..self.size {
            bytes[self.offset + i] = (raw >> (8 * i)) as u8;
        }
    }
}

impl Expr {
    /// Every field read, in expression order (with repeats).
    pub fn reads(&self, out: &mut Vec<Access>) {
        match self {
            Expr::Read { access } => out.push(access.clone()),
            Expr::Not { arg } | Expr::Neg { arg } | Expr::Table { arg, .. } => arg.reads(out),
            Expr::Bin { lhs, rhs, .. } => {
                lhs.reads(out);
                rhs.reads(out);
            }
            Expr::Chain { parts, .. } => parts.iter().for_each(|p| p.reads(out)),
            Expr::If { cond, then, other } => {
                cond.reads(out);
                then.reads(out);
                other.reads(out);
            }
            Expr::Int { .. } | Expr::Bool { .. } | Expr::Const { .. } | Expr::Nc => {}
        }
    }

    /// Whether the value depends on the architecture.
    pub fn uses_nc(&self) -> bool {
        match self {
            Expr::Nc => true,
            Expr::Not { arg } | Expr::Neg { arg } | Expr::Table { arg, .. } => arg.uses_nc(),
            Expr::Bin { lhs, rhs, .. } => lhs.uses_nc() || rhs.uses_nc(),
            Expr::Chain { parts, .. } => parts.iter().any(Expr::uses_nc),
            Expr::If { cond, then, other } => cond.uses_nc() || then.uses_nc() || other.uses_nc(),
            Expr::Int { .. } | Expr::Bool { .. } | Expr::Const { .. } | Expr::Read { .. } => false,
        }
    }

    /// Every integer literal and constant compared against a field, with that field:
    /// the boundaries a test should probe.
    pub fn boundaries(&self, model: &RuleModel, out: &mut Vec<(Access, i64)>) {
        if let Expr::Bin { lhs, rhs, .. } = self {
            for (a, b) in [(lhs, rhs), (rhs, lhs)] {
                let field = match &**a {
                    Expr::Read { access } => Some(access.clone()),
                    Expr::Bin { lhs, .. } => match &**lhs {
                        Expr::Read { access } => Some(access.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                let value = match &**b {
                    Expr::Int { value } => Some(*value),
                    Expr::Const { index } => Some(model.constants[*index].value),
                    _ => None,
                };
                if let (Some(f), Some(v)) = (field, value) {
                    out.push((f, v));
                }
            }
        }
        match self {
            Expr::Not { arg } | Expr::Neg { arg } | Expr::Table { arg, .. } => {
                arg.boundaries(model, out)
            }
            Expr::Bin { lhs, rhs, .. } => {
                lhs.boundaries(model, out);
                rhs.boundaries(model, out);
            }
            Expr::Chain { parts, .. } => parts.iter().for_each(|p| p.boundaries(model, out)),
            Expr::If { cond, then, other } => {
                cond.boundaries(model, out);
                then.boundaries(model, out);
                other.boundaries(model, out);
            }
            _ => {}
        }
    }

    /// Evaluates as an integer (conditions are 0 / 1) on the owner's bytes; the reference
    /// semantics the generated code must match.
    pub fn eval(&self, model: &RuleModel, bytes: &[u8], nc: i64) -> i64 {
        let b = |e: &Expr| e.eval(model, bytes, nc);
        match self {
            Expr::Int { value } => *value,
            Expr::Bool { value } => i64::from(*value),
            Expr::Read { access } => access.read(bytes),
            Expr::Const { index } => model.constants[*index].value,
            Expr::Nc => nc,
            Expr::Not { arg } => i64::from(b(arg) == 0),
            Expr::Neg { arg } => -b(arg),
            Expr::Table { index, arg } => model.tables[*index].lookup(b(arg)),
            Expr::If { cond, then, other } => {
                if b(cond) != 0 {
                    b(then)
                } else {
                    b(other)
                }
            }
            Expr::Chain { bin, parts } => {
                let holds = |p: &Expr| b(p) != 0;
                i64::from(match bin {
                    BinOp::And => parts.iter().all(holds),
                    _ => parts.iter().any(holds),
                })
            }
            Expr::Bin { bin, lhs, rhs } => {
                let l = b(lhs);
                match bin {
                    BinOp::And => return i64::from(l != 0 && b(rhs) != 0),
                    BinOp::Or => return i64::from(l != 0 || b(rhs) != 0),
                    _ => {}
                }
                let r = b(rhs);
                match bin {
                    BinOp::Add => l + r,
                    BinOp::Sub => l - r,
                    BinOp::Mul => l * r,
                    BinOp::Div => l / r,
                    BinOp::Rem => l % r,
                    BinOp::BitAnd => l & r,
                    BinOp::Eq => i64::from(l == r),
                    BinOp::Ne => i64::from(l != r),
                    BinOp::Lt => i64::from(l < r),
                    BinOp::Le => i64::from(l <= r),
                    BinOp::Gt => i64::from(l > r),
                    BinOp::Ge => i64::from(l >= r),
                    BinOp::And | BinOp::Or => unreachable!(),
                }
            }
        }
    }
}

impl RuleSet {
    /// Rules that are no other rule's part.
    pub fn top_level(&self) -> impl Iterator<Item = (usize, &Rule)> {
        self.rules
            .iter()
            .enumerate()
            .filter(|(_, r)| r.parent.is_none())
    }

    pub fn by_id(&self, id: &str) -> Option<usize> {
        self.rules.iter().position(|r| r.id == id)
    }

    /// Children before parents: the order to compute truth values in.
    pub fn post_order(&self) -> Vec<usize> {
        fn walk(set: &RuleSet, i: usize, out: &mut Vec<usize>) {
            if let RuleKind::All { parts } | RuleKind::Any { parts } = &set.rules[i].kind {
                for &p in parts {
                    walk(set, p, out);
                }
            }
            out.push(i);
        }
        let mut out = Vec::new();
        for (i, _) in self.top_level() {
            walk(self, i, &mut out);
        }
        out
    }

    /// Whether rule `i` is an alternative of an `Any` that the sources name without a
    /// body: it cannot excuse the failure of the checked alternatives, so a rule that holds
    /// only through it is undecided.
    pub fn is_bodiless_alternative(&self, i: usize) -> bool {
        let r = &self.rules[i];
        matches!(r.kind, RuleKind::NotEnforced)
            && r.parent
                .is_some_and(|p| matches!(self.rules[p].kind, RuleKind::Any { .. }))
    }

    /// Whether any rule is such an alternative.
    pub fn has_bodiless_alternative(&self) -> bool {
        (0..self.rules.len()).any(|i| self.is_bodiless_alternative(i))
    }

    /// Parents before children: the order to decide violations in.
    pub fn pre_order(&self) -> Vec<usize> {
        fn walk(set: &RuleSet, i: usize, out: &mut Vec<usize>) {
            out.push(i);
            if let RuleKind::All { parts } | RuleKind::Any { parts } = &set.rules[i].kind {
                for &p in parts {
                    walk(set, p, out);
                }
            }
        }
        let mut out = Vec::new();
        for (i, _) in self.top_level() {
            walk(self, i, &mut out);
        }
        out
    }

    pub fn enforcement(&self, i: usize) -> Enforcement {
        match &self.rules[i].kind {
            RuleKind::Expr { .. } => Enforcement::Enforced,
            RuleKind::NotEnforced => Enforcement::NotEnforced,
            RuleKind::All { parts } | RuleKind::Any { parts } => {
                let all: Vec<Enforcement> = parts.iter().map(|&p| self.enforcement(p)).collect();
                if all.iter().all(|e| *e == Enforcement::Enforced) {
                    Enforcement::Enforced
                } else if all.iter().all(|e| *e == Enforcement::NotEnforced) {
                    Enforcement::NotEnforced
                } else {
                    Enforcement::Partial
                }
            }
        }
    }

    /// Whether rule `i` (with its parts) depends on the architecture.
    pub fn uses_arch(&self, i: usize) -> bool {
        let r = &self.rules[i];
        !r.arch.is_empty()
            || match &r.kind {
                RuleKind::Expr { expr, .. } => expr.uses_nc(),
                RuleKind::All { parts } | RuleKind::Any { parts } => {
                    parts.iter().any(|&p| self.uses_arch(p))
                }
                RuleKind::NotEnforced => false,
            }
    }

    /// The condition under which rule `i` applies, over `Nc` (None: everywhere).
    pub fn applies(&self, archs: &[Arch], i: usize) -> Option<Expr> {
        arch_condition(archs, &self.rules[i].arch)
    }

    /// Rule `i` as one condition (parts inlined, not-enforced parts `true`, architecture
    /// limits applied): what a call of this rule from another struct's rule evaluates.
    pub fn inline(&self, archs: &[Arch], i: usize) -> Expr {
        let r = &self.rules[i];
        let body = match &r.kind {
            RuleKind::Expr { expr, .. } => expr.clone(),
            RuleKind::NotEnforced => Expr::Bool { value: true },
            RuleKind::All { parts } => {
                fold(parts.iter().map(|&p| self.inline(archs, p)), BinOp::And)
            }
            RuleKind::Any { parts } => {
                fold(parts.iter().map(|&p| self.inline(archs, p)), BinOp::Or)
            }
        };
        match self.applies(archs, i) {
            None => body,
            Some(cond) => bin(BinOp::Or, not(cond), body),
        }
    }

    /// The broken rules, from the truth bits: rules that do not hold inside composites
    /// that do not hold either, of either authority.
    pub fn broken(&self, truth: u64) -> u64 {
        let mut v = 0u64;
        for i in self.pre_order() {
            let parent_violated = self.rules[i].parent.is_none_or(|p| v >> p & 1 == 1);
            if truth >> i & 1 == 0 && parent_violated {
                v |= 1 << i;
            }
        }
        v
    }

    /// The rules of this authority, as a mask.
    pub fn of_authority(&self, authority: Authority) -> u64 {
        self.rules
            .iter()
            .enumerate()
            .filter(|(_, r)| r.authority == authority)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The violations: broken header rules, which make the value invalid.
    pub fn violations(&self, truth: u64) -> u64 {
        self.broken(truth) & self.of_authority(Authority::Header)
    }

    /// The compiler findings: broken compiler rules (the value stays valid).
    pub fn compiler_findings(&self, truth: u64) -> u64 {
        self.broken(truth) & self.of_authority(Authority::Compiler)
    }
}

/// `a op b op c ...` for `&&` / `||` as one flat [`Expr::Chain`] (one part stays itself).
pub fn chain(op: BinOp, mut parts: Vec<Expr>) -> Expr {
    match parts.len() {
        1 => parts.remove(0),
        _ => Expr::Chain { bin: op, parts },
    }
}

/// `a op b op c ...` (`true` for an empty list).
pub fn fold(parts: impl Iterator<Item = Expr>, op: BinOp) -> Expr {
    parts
        .reduce(|a, b| bin(op, a, b))
        .unwrap_or(Expr::Bool { value: true })
}

pub fn bin(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Bin {
        bin: op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    }
}

pub fn not(e: Expr) -> Expr {
    Expr::Not { arg: Box::new(e) }
}

/// `nc == a || nc == b ...` for the listed architectures; None when the list is empty.
pub fn arch_condition(archs: &[Arch], arch: &[String]) -> Option<Expr> {
    if arch.is_empty() {
        return None;
    }
    let conds = arch.iter().filter_map(|a| {
        archs.iter().find(|x| &x.name == a).map(|x| {
            bin(
                BinOp::Eq,
                Expr::Nc,
                Expr::Int {
                    value: i64::from(x.nc),
                },
            )
        })
    });
    Some(fold(conds, BinOp::Or))
}

impl Rule {
    /// `name(args)` as the source writes the call, or just `name`.
    pub fn call(&self) -> String {
        match &self.args {
            Some(a) => format!("{}({a})", self.name),
            None => self.name.clone(),
        }
    }

    /// The first citation, for one-line reports.
    pub fn source(&self) -> &str {
        self.evidence.first().map_or("", |e| e.cite.as_str())
    }

    pub fn expr_source(&self) -> Option<&str> {
        match &self.kind {
            RuleKind::Expr { source, .. } => Some(source),
            _ => None,
        }
    }
}
