//! Validity rules at run time: what the generated `validate` functions report.
//!
//! Each struct with rules has `RULES: &[RuleMeta]` (in spec order), `rule_truth(bytes,
//! arch) -> u64` (bit `i` set when rule `i` holds) and `validate(&self, arch) ->
//! Result<(), Violations>`. A rule is *violated* when it does not hold and no composite
//! above it holds either, so a failing alternative of an `any` that another alternative
//! satisfies is not reported. Only a broken rule of [`RuleAuthority::Header`] is a
//! violation, which makes the value invalid; a broken [`RuleAuthority::Compiler`] rule is a
//! compiler finding (`Violations::compiler`).
//!
//! A predicate the sources name without a body checks nothing. As a requirement (a rule
//! of its own, or a part of an `All`) it is not checked and the value is judged on the
//! rest; as an alternative of an `Any` it cannot excuse the failure of the checked
//! alternatives: a rule that holds only through such an alternative is *undecided*
//! ([`Verdict::Undecided`]), neither broken nor known to hold. Everything here is
//! `no_std` and allocation-free.

use core::fmt;

use super::meta::{Confidence, Evidence};

/// How a rule is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// A checked expression (`expr` in [`RuleMeta`]).
    Expr,
    /// Holds when every part holds.
    All,
    /// Holds when some part holds.
    Any,
    /// Named by the sources without a body: never broken, never known to hold.
    NotEnforced,
}

/// Who forbids a value that breaks a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleAuthority {
    /// The shipped ISA header validates it: a value that breaks it is invalid.
    Header,
    /// neuronx-cc guarantees it of the words it writes (an assert or FATAL); the ISA sources
    /// do not forbid a value that breaks it, which is a compiler finding, still valid.
    Compiler,
}

/// One rule, as the spec declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    /// Unique within the struct (the predicate's name, or a call site's id).
    pub id: &'static str,
    /// The shipped predicate's name (or a descriptive one for an unnamed clause).
    pub name: &'static str,
    /// The call's arguments as the source writes them.
    pub args: Option<&'static str>,
    /// True when the sources give this clause no predicate name of its own.
    pub clause: bool,
    pub kind: RuleKind,
    pub authority: RuleAuthority,
    /// The expression as written in the spec, for `Expr` rules.
    pub expr: Option<&'static str>,
    /// Indices (into the same `RULES`) of a composite's parts.
    pub parts: &'static [usize],
    /// The composite this rule is a part of.
    pub parent: Option<usize>,
    /// Architectures it applies to; empty means all.
    pub arch: &'static [&'static str],
    /// The assert string, or what a violation means.
    pub message: &'static str,
    pub doc: &'static str,
    /// Field paths the rule reads.
    pub fields: &'static [&'static str],
    /// The first citation.
    pub source: &'static str,
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
    /// False when this rule (with its parts) checks nothing.
    pub enforced: bool,
}

impl RuleMeta {
    /// An enforced header expression rule of no composite, on every architecture, reading
    /// no field and citing no evidence: what the generated tables build on with the setters
    /// below.
    pub const fn new(
        id: &'static str,
        name: &'static str,
        source: &'static str,
        confidence: Confidence,
        message: &'static str,
        doc: &'static str,
    ) -> RuleMeta {
        RuleMeta {
            id,
            name,
            args: None,
            clause: false,
            kind: RuleKind::Expr,
            authority: RuleAuthority::Header,
            expr: None,
            parts: &[],
            parent: None,
            arch: &[],
            message,
            doc,
            fields: &[],
            source,
            confidence,
            evidence: &[],
            enforced: true,
        }
    }

    pub const fn args(self, args: &'static str) -> RuleMeta {
        RuleMeta {
            args: Some(args),
            ..self
        }
    }

    /// The rule as a clause the sources give no predicate name of its own.
    pub const fn clause(self) -> RuleMeta {
        RuleMeta {
            clause: true,
            ..self
        }
    }

    /// A composite of `parts` (or a rule that is not enforced, with none).
    pub const fn kind(self, kind: RuleKind, parts: &'static [usize]) -> RuleMeta {
        RuleMeta {
            kind,
            parts,
            ..self
        }
    }

    pub const fn authority(self, authority: RuleAuthority) -> RuleMeta {
        RuleMeta { authority, ..self }
    }

    pub const fn expr(self, expr: &'static str) -> RuleMeta {
        RuleMeta {
            expr: Some(expr),
            ..self
        }
    }

    /// The rule as a part of the composite `RULES[parent]`.
    pub const fn parent(self, parent: usize) -> RuleMeta {
        RuleMeta {
            parent: Some(parent),
            ..self
        }
    }

    pub const fn arch(self, arch: &'static [&'static str]) -> RuleMeta {
        RuleMeta { arch, ..self }
    }

    pub const fn fields(self, fields: &'static [&'static str]) -> RuleMeta {
        RuleMeta { fields, ..self }
    }

    pub const fn evidence(self, evidence: &'static [Evidence]) -> RuleMeta {
        RuleMeta { evidence, ..self }
    }

    /// The rule (with its parts) as one that checks nothing.
    pub const fn not_enforced(self) -> RuleMeta {
        RuleMeta {
            enforced: false,
            ..self
        }
    }

    /// Whether the rule applies to the architecture named `arch` (an empty list: to all).
    pub fn applies(&self, arch: &str) -> bool {
        self.arch.is_empty() || self.arch.contains(&arch)
    }

    /// Writes `name(args)` as the source writes the call, or just `name`.
    pub fn write_call(&self, f: &mut impl fmt::Write) -> fmt::Result {
        match self.args {
            Some(a) => write!(f, "{}({a})", self.name),
            None => f.write_str(self.name),
        }
    }
}

/// What the rules say of one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every header rule that applies holds.
    Holds,
    /// A header rule is violated: the value is invalid.
    Broken,
    /// Nothing is violated, but a header rule holds only if an alternative the sources
    /// name without a body does ([`Violations::undecided_by`] names it).
    Undecided,
}

impl Verdict {
    /// `holds`, `broken` or `undecided`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Broken => "broken",
            Verdict::Undecided => "undecided",
        }
    }
}

/// The violated rules of one struct value (empty means valid), its compiler findings and
/// the rules left undecided.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Violations {
    /// The struct's spec name.
    pub owner: &'static str,
    pub rules: &'static [RuleMeta],
    /// Bit `i` set: rule `i` holds, or is undecided.
    pub truth: u64,
    /// Bit `i` set: rule `i`, a header rule, is violated.
    pub mask: u64,
    /// Bit `i` set: rule `i`, a compiler rule, is broken: a word neuronx-cc would not write.
    pub compiler: u64,
    /// Bit `i` set: rule `i`, a header rule, is undecided and so is every composite above
    /// it (a part of a composite that holds anyway is not listed).
    pub undecided: u64,
}

/// Where each rule of one list sits in its tree, as bit masks (bit `i` is `RULES[i]`), so
/// deciding violations is a few mask operations. Computed at compile time
/// ([`Checked::TREE`](super::validate::Checked::TREE)).
#[derive(Clone, Copy, Debug)]
pub struct RuleTree {
    all: u64,
    /// The rules that are no other rule's part.
    roots: u64,
    /// The header rules (the rest are compiler rules).
    header: u64,
    /// The composites with at least one part.
    composites: u64,
    /// The alternatives of an `Any` that the sources name without a body.
    bodiless_alternatives: u64,
    /// `parts[p]`: the parts of rule `p`.
    parts: [u64; 64],
}

impl RuleTree {
    pub const fn of(rules: &[RuleMeta]) -> RuleTree {
        let mut t = RuleTree {
            all: 0,
            roots: 0,
            header: 0,
            composites: 0,
            bodiless_alternatives: 0,
            parts: [0; 64],
        };
        let mut i = 0;
        while i < rules.len() && i < 64 {
            let bit = 1u64 << i;
            t.all |= bit;
            if matches!(rules[i].authority, RuleAuthority::Header) {
                t.header |= bit;
            }
            if let (RuleKind::NotEnforced, Some(p)) = (rules[i].kind, rules[i].parent)
                && p < rules.len()
                && matches!(rules[p].kind, RuleKind::Any)
            {
                t.bodiless_alternatives |= bit;
            }
            match rules[i].parent {
                Some(p) if p < 64 => {
                    t.parts[p] |= bit;
                    t.composites |= 1 << p;
                }
                _ => t.roots |= bit,
            }
            i += 1;
        }
        t
    }

    /// Whether an alternative of an `Any` is named without a body: only then can a rule
    /// be undecided.
    pub const fn has_bodiless_alternative(&self) -> bool {
        self.bodiless_alternatives != 0
    }

    /// The rules of `open` whose composites are all in `open` too, from the roots down: a
    /// part that fails inside a composite that holds (an `Any` with another alternative)
    /// is not reported.
    fn reach(&self, open: u64) -> u64 {
        let mut found = open & self.roots;
        let mut todo = found & self.composites;
        while todo != 0 {
            let p = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = self.parts[p] & open & !found;
            found |= new;
            todo |= new & self.composites;
        }
        found
    }
}

impl Violations {
    /// Decides the violations and compiler findings from the truth bits, with nothing
    /// undecided.
    pub fn from_truth(owner: &'static str, rules: &'static [RuleMeta], truth: u64) -> Self {
        Self::decide(owner, rules, &RuleTree::of(rules), truth, truth)
    }

    /// [`from_truth`](Self::from_truth) with the rules' tree already computed. `truth`
    /// takes every bodiless predicate to hold, `known` takes no bodiless alternative of an
    /// `Any` to: a rule set in `truth` but not in `known` is undecided.
    #[inline]
    pub fn decide(
        owner: &'static str,
        rules: &'static [RuleMeta],
        tree: &RuleTree,
        truth: u64,
        known: u64,
    ) -> Self {
        let broken = tree.reach(!truth & tree.all);
        Violations {
            owner,
            rules,
            truth,
            mask: broken & tree.header,
            compiler: broken & !tree.header,
            undecided: tree.reach(truth & !known & tree.all) & tree.header,
        }
    }

    /// Holds, broken (a header rule is violated) or undecided.
    pub fn verdict(&self) -> Verdict {
        if self.mask != 0 {
            Verdict::Broken
        } else if self.undecided != 0 {
            Verdict::Undecided
        } else {
            Verdict::Holds
        }
    }

    /// The alternatives the sources name without a body that leave a header rule
    /// undecided, in spec order.
    pub fn undecided_by(&self) -> impl Iterator<Item = &'static RuleMeta> + '_ {
        in_mask(self.rules, self.undecided).filter(|r| r.kind == RuleKind::NotEnforced)
    }

    /// The undecided header rules that are no other rule's part.
    pub fn undecided_roots(&self) -> impl Iterator<Item = &'static RuleMeta> + '_ {
        in_mask(self.rules, self.undecided).filter(|r| r.parent.is_none())
    }

    /// The broken compiler rules that are not composites, in spec order.
    pub fn compiler_findings(&self) -> impl Iterator<Item = &'static RuleMeta> + '_ {
        leaves(self.rules, self.compiler)
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    pub fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Ok when nothing is violated.
    pub fn into_result(self) -> Result<(), Violations> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }

    /// The violated rules, in spec order.
    pub fn iter(&self) -> impl Iterator<Item = &'static RuleMeta> + '_ {
        in_mask(self.rules, self.mask)
    }

    /// Whether the rule with this id is violated.
    pub fn contains(&self, id: &str) -> bool {
        self.iter().any(|r| r.id == id)
    }

    /// Whether the rule with this id holds.
    pub fn holds(&self, id: &str) -> bool {
        self.rules
            .iter()
            .position(|r| r.id == id)
            .is_some_and(|i| self.truth >> i & 1 == 1)
    }

    /// The violated rules that are not composites: the checks that failed.
    pub fn leaves(&self) -> impl Iterator<Item = &'static RuleMeta> + '_ {
        leaves(self.rules, self.mask)
    }
}

fn in_mask(rules: &'static [RuleMeta], mask: u64) -> impl Iterator<Item = &'static RuleMeta> {
    (0..rules.len())
        .filter(move |i| mask >> i & 1 == 1)
        .map(move |i| &rules[i])
}

fn leaves(rules: &'static [RuleMeta], mask: u64) -> impl Iterator<Item = &'static RuleMeta> {
    in_mask(rules, mask).filter(|r| matches!(r.kind, RuleKind::Expr | RuleKind::NotEnforced))
}

impl fmt::Debug for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut l = f.debug_list();
        for r in self.iter() {
            l.entry(&r.id);
        }
        l.finish()
    }
}

impl fmt::Display for Violations {
    /// One line per violated rule: `OWNER id: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, r) in self.iter().enumerate() {
            if n > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{} {}: {}", self.owner, r.id, r.message)?;
        }
        Ok(())
    }
}

impl core::error::Error for Violations {}
