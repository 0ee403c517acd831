//! The reports of what is wrong with a word: its faults (the rules it breaks, its constant
//! mismatches, a word that does not decode or follows the wrong leader) and the compiler
//! rules it breaks, as `validate`'s lines, decode's table lines and decode's JSON.

use std::fmt;

use crate::Arch;
use crate::runtime::meta::{LeafMeta, constant_mismatches};
use crate::runtime::rules::{RuleAuthority, RuleKind, RuleMeta, Verdict, Violations};
use crate::stream::{Decoded, WORD_SIZE};
use serde_json::{Value as Json, json};

use super::Error;
use super::input::{WordReader, each_word};
use super::opcode::outside_family;

/// The composites a rule is a part of, outermost first (`a > b`), if any.
fn context(v: &Violations, r: &RuleMeta) -> Option<String> {
    let mut chain = Vec::new();
    let mut at = r.parent;
    while let Some(p) = at {
        chain.push(v.rules[p].id);
        at = v.rules[p].parent;
    }
    chain.reverse();
    (!chain.is_empty()).then(|| chain.join(" > "))
}

/// The failed checks of `v` (composites are explained by their failed parts).
pub fn failed(v: &Violations) -> impl Iterator<Item = &'static RuleMeta> + '_ {
    v.leaves()
}

/// What a compiler finding adds to its line: it is no ISA violation.
const COMPILER_NOTE: &str =
    "a compiler rule: neuronx-cc does not write such a word, but the ISA sources do not forbid it";

/// `decode --json`: `[{"rule", "message", "fields", "source", ...}]`, empty when valid.
pub fn violations_json(v: &Violations) -> Json {
    rules_json(v, failed(v))
}

/// `decode --json`'s `compiler_findings`, in the shape of its `violations`; None when
/// there are none.
pub fn compiler_findings_json(v: &Violations) -> Option<Json> {
    (v.compiler != 0).then(|| rules_json(v, v.compiler_findings()))
}

/// `decode --json`'s `undecided`: the alternatives the sources name without a body that
/// leave a rule undecided, in the shape of its `violations` plus `failing`, the checks of
/// the other alternatives that fail; None when nothing is undecided.
pub fn undecided_json(v: &Violations) -> Option<Json> {
    let Json::Array(mut list) = rules_json(v, v.undecided_by()) else {
        unreachable!("rules_json makes an array")
    };
    for (o, r) in list.iter_mut().zip(v.undecided_by()) {
        if let Json::Object(m) = o {
            m.insert("failing".into(), json!(failing_alternatives(v, r)));
        }
    }
    (!list.is_empty()).then_some(Json::Array(list))
}

/// The checks that fail in the other alternatives of the `Any` that `bodiless` is an
/// alternative of: what only the bodiless alternative could excuse.
pub fn failing_alternatives(v: &Violations, bodiless: &RuleMeta) -> Vec<&'static str> {
    let fails = |i: usize| v.truth >> i & 1 == 0;
    let mut out = Vec::new();
    let mut todo: Vec<usize> = bodiless
        .parent
        .map(|p| v.rules[p].parts.iter().rev().copied().collect())
        .unwrap_or_default();
    while let Some(i) = todo.pop() {
        let r = &v.rules[i];
        if !fails(i) {
            continue;
        }
        match r.kind {
            RuleKind::Expr => out.push(r.id),
            RuleKind::All | RuleKind::Any => todo.extend(r.parts.iter().rev()),
            RuleKind::NotEnforced => {}
        }
    }
    out
}

/// One line per bodiless alternative that leaves a rule undecided: `id: the rule holds
/// only if it does (in …; the checked alternatives fail: …; source: …)`.
pub fn undecided_text(v: &Violations, r: &RuleMeta) -> String {
    let mut notes = Vec::new();
    if let Some(c) = context(v, r) {
        notes.push(format!("in {c}"));
    }
    let failing = failing_alternatives(v, r);
    if !failing.is_empty() {
        notes.push(format!(
            "the checked alternatives fail: {}",
            failing.join(", ")
        ));
    }
    if !r.source.is_empty() {
        notes.push(format!("source: {}", r.source));
    }
    format!(
        "{}: undecided, the sources name this alternative without a body ({})",
        r.id,
        notes.join("; ")
    )
}

fn rules_json<'v>(v: &'v Violations, rules: impl Iterator<Item = &'static RuleMeta> + 'v) -> Json {
    Json::Array(
        rules
            .map(|r| {
                let mut o = json!({
                    "rule": r.id,
                    "message": r.message,
                    "fields": r.fields,
                    "source": r.source,
                    "predicate": r.name,
                    "confidence": r.confidence.tag,
                });
                if let (Some(c), Json::Object(m)) = (context(v, r), &mut o) {
                    m.insert("in".into(), json!(c));
                }
                o
            })
            .collect(),
    )
}

/// One line per failed check: `id: message (in …; fields: …; source: …; confidence: …)`,
/// with `COMPILER_NOTE` first for a compiler rule and the confidence only when the rule
/// is less than confirmed.
pub fn violation_text(v: &Violations, r: &RuleMeta) -> String {
    let mut notes = Vec::new();
    if r.authority == RuleAuthority::Compiler {
        notes.push(COMPILER_NOTE.to_string());
    }
    if let Some(c) = context(v, r) {
        notes.push(format!("in {c}"));
    }
    if !r.fields.is_empty() {
        notes.push(format!("fields: {}", r.fields.join(", ")));
    }
    if !r.source.is_empty() {
        notes.push(format!("source: {}", r.source));
    }
    // A check the spec is less than sure of says so: a violation is as sure as its rule.
    if r.confidence.rank > 0 {
        let c = r.confidence;
        let level = if c.tag.eq_ignore_ascii_case(c.level) {
            String::new()
        } else {
            format!(" ({})", c.level)
        };
        notes.push(format!("confidence: {}{level}", c.tag));
    }
    format!("{}: {} ({})", r.id, r.message, notes.join("; "))
}

/// The lines `decode` prints under a word's table: its verdict (valid or undecided, or one
/// `VIOLATION` per failed check and one `CONSTANT` per field that does not hold its
/// constant), one `UNDECIDED` line per bodiless alternative a rule rests on, then one
/// `COMPILER` line per compiler finding. The verdict counts only what was checked: a
/// required rule the sources name without a body, or one for other architectures, holds
/// without a check.
pub fn table_lines(v: &Violations, arch: Arch, constants: &[String]) -> String {
    let mut out = String::new();
    if v.is_empty() && constants.is_empty() && !v.rules.is_empty() {
        let verdict = match v.verdict() {
            Verdict::Undecided => "undecided",
            Verdict::Holds | Verdict::Broken => "valid",
        };
        out = format!("  {verdict} for {}: {}\n", arch.name(), tally(v, arch));
    }
    for c in constants {
        out.push_str(&format!("  CONSTANT {c}\n"));
    }
    let lines = failed(v)
        .map(|r| ("VIOLATION", violation_text(v, r)))
        .chain(
            v.undecided_by()
                .map(|r| ("UNDECIDED", undecided_text(v, r))),
        )
        .chain(
            v.compiler_findings()
                .map(|r| ("COMPILER", violation_text(v, r))),
        );
    for (label, text) in lines {
        out.push_str(&format!("  {label} {text}\n"));
    }
    out
}

/// What a valid word's verdict rests on: its top-level rules, split into the header rules
/// checked (all hold), the compiler rules checked, and those not checked.
fn tally(v: &Violations, arch: Arch) -> String {
    let (mut header, mut compiler, mut unenforced, mut elsewhere) = (0, 0, 0, 0);
    let mut open = 0;
    for (i, r) in v
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.parent.is_none())
    {
        if !r.applies(arch.name()) {
            elsewhere += 1;
        } else if v.undecided >> i & 1 == 1 {
            open += 1;
        } else if !r.enforced {
            unenforced += 1;
        } else if r.authority == RuleAuthority::Compiler {
            compiler += 1;
        } else {
            header += 1;
        }
    }
    let rules = |n: usize| if n == 1 { "rule" } else { "rules" };
    let mut parts = vec![match (header, open) {
        (0, 0) => "no header rule checks it".to_string(),
        (0, _) => "no checked header rule holds".to_string(),
        (1, _) => "1 checked header rule holds".to_string(),
        (n, _) => format!("{n} checked header rules hold"),
    }];
    if open > 0 {
        parts.push(format!("{open} header {} undecided", rules(open)));
    }
    if compiler > 0 {
        let broken = v.compiler_findings().count();
        parts.push(match broken {
            0 => format!(
                "{compiler} compiler {} checked, none broken",
                rules(compiler)
            ),
            b => format!(
                "{compiler} compiler {} checked, {b} broken",
                rules(compiler)
            ),
        });
    }
    if unenforced > 0 {
        parts.push(format!(
            "{unenforced} {} the sources name without a body, not checked",
            rules(unenforced)
        ));
    }
    if elsewhere > 0 {
        parts.push(format!(
            "{elsewhere} {} for other architectures",
            rules(elsewhere)
        ));
    }
    parts.join("; ")
}

/// The `CONSTANT` lines of a word: each field that does not hold the spec's constant.
pub fn constant_lines(bytes: &[u8; WORD_SIZE], leaves: &'static [LeafMeta]) -> Vec<String> {
    constant_mismatches(bytes, leaves)
        .map(|(leaf, expected, found)| constant_text(leaf, expected, found))
        .collect()
}

fn constant_text(leaf: &LeafMeta, expected: u64, found: u64) -> String {
    format!(
        "{}: is {found:#x}, but the spec's constant is {expected:#x}",
        leaf.path
    )
}

/// The word `d`'s rules checked in `arch`, once for all that is reported of it; `None`
/// for a word that did not decode.
pub fn check_word(d: &Decoded, arch: Arch) -> Option<Violations> {
    match d {
        Decoded::Word { word, .. } => Some(word.check(arch)),
        _ => None,
    }
}

/// The compiler findings of a word (its [`check_word`]), one line each (`OWNER id: …`).
pub fn compiler_findings(v: Option<&Violations>) -> Vec<String> {
    let Some(v) = v else { return Vec::new() };
    v.compiler_findings()
        .map(|r| format!("{} {}", v.owner, violation_text(v, r)))
        .collect()
}

/// The bodiless alternatives that leave a rule of a word (its [`check_word`]) undecided, one
/// line each (`OWNER id: …`); none for a word that is broken or did not decode.
pub fn undecided(v: Option<&Violations>) -> Vec<String> {
    let Some(v) = v.filter(|v| v.is_empty()) else {
        return Vec::new();
    };
    v.undecided_by()
        .map(|r| format!("{} {}", v.owner, undecided_text(v, r)))
        .collect()
}

/// What makes a word of a stream invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// A failed check of a validity rule (its id).
    Rule(&'static str),
    /// A constant field (its path) that does not hold its constant.
    Constant(&'static str),
    /// The word does not decode: an unknown opcode, or an extension that does not follow
    /// its word.
    NotDecoded,
}

/// One reason a word is invalid, as `validate` prints it after the offset.
#[derive(Debug, Clone)]
pub struct Fault {
    pub kind: FaultKind,
    pub text: String,
}

/// Every reason the word `d`, decoded from `bytes` in its stream, is invalid in `arch`
/// (`v`: its [`check_word`]): what `validate` reports and what `encode` checks before it writes.
pub fn faults(
    d: &Decoded,
    v: Option<&Violations>,
    bytes: &[u8; WORD_SIZE],
    arch: Arch,
) -> Vec<Fault> {
    match (d, v) {
        (Decoded::Word { word, .. }, Some(v)) => {
            let rules = failed(v).map(|r| Fault {
                kind: FaultKind::Rule(r.id),
                text: format!("{} {}", v.owner, violation_text(v, r)),
            });
            let name = word.meta().name;
            let constants =
                constant_mismatches(bytes, word.meta().leaves).map(|(leaf, expected, found)| {
                    Fault {
                        kind: FaultKind::Constant(leaf.path),
                        text: format!("{name} {}", constant_text(leaf, expected, found)),
                    }
                });
            rules.chain(constants).collect()
        }
        // A word is checked whenever it decodes ([`check_word`]).
        (Decoded::Word { .. }, None) => Vec::new(),
        // An opcode outside the spec's family is not checked ([`unchecked`]), not a fault.
        (Decoded::UnknownOpcode, _) if outside_family(bytes[0], arch).is_some() => Vec::new(),
        (Decoded::UnknownOpcode, _) => vec![Fault {
            kind: FaultKind::NotDecoded,
            text: format!(
                "opcode {:#04x}: no word has this opcode in {}",
                bytes[0],
                arch.name()
            ),
        }],
        (Decoded::Orphan { name, follows }, _) => vec![Fault {
            kind: FaultKind::NotDecoded,
            text: format!("{name}: must immediately follow {follows}, and does not"),
        }],
    }
}

/// Why the word `d` is not checked at all in `arch`: its opcode names an operation outside
/// the spec's family (a compute op, an SP/SEQ control op: an `OPCODE` enumerator no word
/// lays out), one line; `None` for a word the spec checks or one that is broken.
pub fn unchecked(d: &Decoded, bytes: &[u8; WORD_SIZE], arch: Arch) -> Option<String> {
    match d {
        Decoded::UnknownOpcode => {
            let e = outside_family(bytes[0], arch)?;
            let engine = e.engine.map_or(String::new(), |g| format!(" ({g})"));
            Some(format!(
                "opcode {:#04x} {}{engine}: outside the spec's family (no layout), not checked",
                bytes[0], e.name
            ))
        }
        _ => None,
    }
}

/// How a finding weighs on its word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The word is invalid: a broken rule, a wrong constant, an opcode that is no word.
    Error,
    /// A rule holds only through an alternative the sources name without a body.
    Undecided,
    /// A compiler rule (what neuronx-cc writes, not what the ISA forbids) is broken.
    Warning,
    /// The word's operation is outside the spec's family: nothing about it is checked.
    NotChecked,
}

impl Severity {
    /// As `validate` prints it and the Python package returns it.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Undecided => "undecided",
            Severity::Warning => "warning",
            Severity::NotChecked => "not checked",
        }
    }
}

/// One line of `validate`'s report about the word at `offset`.
#[derive(Debug, Clone)]
pub struct Finding {
    pub index: usize,
    pub offset: usize,
    pub severity: Severity,
    pub text: String,
}

/// Every finding of every word of the stream, handed to `f` word by word (a word's list
/// is empty when it is valid and breaks no compiler rule).
pub fn each_finding(
    words: WordReader,
    arch: Arch,
    mut f: impl FnMut(&[Finding]) -> Result<(), Error>,
) -> Result<(), Error> {
    each_word(words, arch, |index, offset, bytes, d| {
        let found = |severity, text| Finding {
            index,
            offset,
            severity,
            text,
        };
        let v = check_word(d, arch);
        let errors = (faults(d, v.as_ref(), bytes, arch).into_iter())
            .map(|x| found(Severity::Error, x.text));
        let open = (undecided(v.as_ref()).into_iter()).map(|t| found(Severity::Undecided, t));
        let warnings =
            (compiler_findings(v.as_ref()).into_iter()).map(|t| found(Severity::Warning, t));
        let skipped =
            (unchecked(d, bytes, arch).into_iter()).map(|t| found(Severity::NotChecked, t));
        f(&errors
            .chain(open)
            .chain(warnings)
            .chain(skipped)
            .collect::<Vec<_>>())
    })
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.severity {
            Severity::Error => write!(f, "offset {} {}", self.offset, self.text),
            s => write!(f, "offset {} {}: {}", self.offset, s.name(), self.text),
        }
    }
}
