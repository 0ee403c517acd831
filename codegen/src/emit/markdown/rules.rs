//! The validity rules in the Markdown docs: a section on each word page (and on the types
//! page's nested types, via `docs/rules.md`) and `docs/rules.md`, which lists every rule
//! set, the rules that are not enforced, and the constants and tables the rules use.

use std::fmt::Write as _;

use super::pages::Pages;
use super::util::{Loc, breakable, code, para, prose, text};
use crate::model::rules::{Authority, Enforcement, RuleKind, RuleSet};
use crate::model::*;

/// The page's path under `generated/`.
pub(super) const PAGE: &str = "docs/rules.md";

const HOW: &str = "A rule *holds* or not. It is *violated* when it does not hold and no \
    composite rule above it holds either, so a failing alternative of an `any` that another \
    alternative satisfies is not reported. A rule limited to some architectures holds on the \
    others. A rule the sources name without giving its body is listed as **not enforced** and \
    holds; a composite with such parts is **partly enforced**. A rule's *authority* says who \
    forbids a value that breaks it: **header**, the shipped ISA header validates it, so the \
    value is invalid; **compiler**, neuronx-cc guarantees it of the words it writes (an assert \
    or FATAL) while the ISA sources do not forbid it, so breaking it is a *compiler finding*, \
    reported apart, and the value stays valid. Checked by `validate` / `rule_truth` in Rust \
    (`Violations::compiler` holds the findings), `<C name>_is_valid` / `_violations` / \
    `_compiler_findings` in C, and `dmaspec validate` (findings as warnings).";

fn counts(s: &RuleSet) -> (usize, usize) {
    let mut enforced = 0;
    let mut not = 0;
    for r in &s.rules {
        match r.kind {
            RuleKind::Expr { .. } => enforced += 1,
            RuleKind::NotEnforced => not += 1,
            _ => {}
        }
    }
    (enforced, not)
}

fn depth(s: &RuleSet, mut i: usize) -> usize {
    let mut d = 0;
    while let Some(p) = s.rules[i].parent {
        d += 1;
        i = p;
    }
    d
}

/// The rule table of one struct.
fn table(cx: &Pages<'_>, s: &RuleSet, out: &mut String) {
    cx.table_head(
        &[
            "Rule",
            "Checks",
            "Meaning",
            "Applies",
            "Enforced",
            "Authority",
            "Confidence",
            "Source",
        ],
        out,
    );
    for i in s.pre_order() {
        let r = &s.rules[i];
        let indent = "&nbsp;&nbsp;".repeat(depth(s, i));
        let mark = if depth(s, i) > 0 { "↳ " } else { "" };
        let mut name = format!("{indent}{mark}{}", code(&r.id, true));
        if r.id != r.call() {
            let _ = write!(name, "<br>{indent}{}", code(&r.call(), true));
        }
        if r.clause {
            let _ = write!(name, "<br>{indent}*unnamed clause*");
        }
        let checks = match &r.kind {
            RuleKind::Expr { source, .. } => code(&one_line(source), true),
            RuleKind::All { parts } => format!("all of: {}", ids(s, parts)),
            RuleKind::Any { parts } => format!("any of: {}", ids(s, parts)),
            RuleKind::NotEnforced => "*body not given by the sources*".to_string(),
        };
        let mut meaning = breakable(&text(&r.message));
        if !r.doc.is_empty() {
            let _ = write!(meaning, "<br>{}", breakable(&text(&r.doc)));
        }
        cx.row(
            &[
                name,
                checks,
                meaning,
                cx.archs_of(&r.arch),
                s.enforcement(i).label().to_string(),
                r.authority.name().to_string(),
                cx.confidence_cell(&r.confidence),
                cx.evidence_cell(&r.evidence),
            ],
            out,
        );
    }
}

fn ids(s: &RuleSet, parts: &[usize]) -> String {
    parts
        .iter()
        .map(|&p| code(&s.rules[p].id, true))
        .collect::<Vec<_>>()
        .join(", ")
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The "Validity rules" section of a word page.
pub(super) fn word_section(cx: &Pages<'_>, w: &TypeDef) -> String {
    let m = cx.model;
    let mut out = String::from("## Validity rules\n\n");
    let Some(s) = m.rules.sets.iter().find(|s| std::ptr::eq(m.ty(s.owner), w)) else {
        out.push_str("The sources state no rules for this word.\n\n");
        return out;
    };
    let (e, n) = counts(s);
    let _ = writeln!(
        out,
        "{} checks: {e} enforced, {n} not enforced (see [all rules](../rules.md)). {}\n",
        e + n,
        prose(HOW, false)
    );
    table(cx, s, &mut out);
    out.push('\n');
    out
}

/// `docs/rules.md`.
pub(super) fn page(cx: &Pages<'_>) -> String {
    let m = cx.model;
    let r = &m.rules;
    let mut out = String::from(super::pages::BANNER);
    out.push_str("# Validity rules\n\n");
    let _ = writeln!(
        out,
        "{}\n\n{}\n",
        para(
            "The predicates the sources state for each struct, declared in the spec next to \
             the struct (`[[struct.rule]]`, `[[bitfield.rule]]`) and generated into Rust, C and \
             these pages. Rule names are the shipped predicates' names where the sources give \
             one; an *unnamed clause* is a condition the sources state without a name of its \
             own. Expressions read the struct's fields; every value is a 64-bit signed integer."
        ),
        prose(HOW, false)
    );
    out.push_str("## Summary\n\n");
    cx.table_head(
        &[
            "Struct",
            "Rules",
            "Enforced checks",
            "Not enforced",
            "Top-level rules",
        ],
        &mut out,
    );
    let (mut te, mut tn) = (0, 0);
    for s in &r.sets {
        let owner = m.ty(s.owner);
        let (e, n) = counts(s);
        te += e;
        tn += n;
        let tops: Vec<String> = s.top_level().map(|(_, r)| code(&r.id, true)).collect();
        cx.row(
            &[
                cx.type_link(owner, Loc::Top),
                s.rules.len().to_string(),
                e.to_string(),
                n.to_string(),
                tops.join(", "),
            ],
            &mut out,
        );
    }
    let _ = writeln!(
        out,
        "\nIn all: {te} enforced checks and {tn} not enforced (composites not counted).\n"
    );

    out.push_str("## Not enforced\n\n");
    out.push_str(
        "Predicates the sources name, or conditions they state, without a body that this spec \
         can check against the word. Each holds until its body is known.\n\n",
    );
    cx.table_head(&["Struct", "Rule", "Why", "Reads", "Source"], &mut out);
    for s in &r.sets {
        let owner = m.ty(s.owner);
        for (i, rule) in s.rules.iter().enumerate() {
            if s.enforcement(i) != Enforcement::NotEnforced
                || !matches!(rule.kind, RuleKind::NotEnforced)
            {
                continue;
            }
            let mut why = text(&rule.message);
            if !rule.doc.is_empty() {
                let _ = write!(why, "<br>{}", text(&rule.doc));
            }
            let reads = if rule.fields.is_empty() {
                "—".to_string()
            } else {
                rule.fields
                    .iter()
                    .map(|f| code(f, true))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            cx.row(
                &[
                    cx.type_link(owner, Loc::Top),
                    code(&rule.call(), true),
                    why,
                    reads,
                    cx.evidence_cell(&rule.evidence),
                ],
                &mut out,
            );
        }
    }
    out.push('\n');

    out.push_str("## Compiler rules\n\n");
    out.push_str(
        "What neuronx-cc guarantees of the words it writes, which the ISA sources do not \
         forbid: a word that breaks one is reported as a compiler finding and stays valid.\n\n",
    );
    cx.table_head(
        &["Struct", "Rule", "Meaning", "Enforced", "Source"],
        &mut out,
    );
    for s in &r.sets {
        let owner = m.ty(s.owner);
        for (i, rule) in s.rules.iter().enumerate() {
            if rule.authority != Authority::Compiler || rule.parent.is_some() {
                continue;
            }
            cx.row(
                &[
                    cx.type_link(owner, Loc::Top),
                    code(&rule.call(), true),
                    text(&rule.message),
                    s.enforcement(i).label().to_string(),
                    cx.evidence_cell(&rule.evidence),
                ],
                &mut out,
            );
        }
    }
    out.push('\n');

    out.push_str("## Constants\n\n");
    if r.constants.is_empty() {
        out.push_str("None.\n\n");
    } else {
        cx.table_head(
            &["Name", "Value", "Meaning", "Confidence", "Source"],
            &mut out,
        );
        for c in &r.constants {
            cx.row(
                &[
                    code(&c.name, true),
                    c.value.to_string(),
                    text(&c.doc),
                    cx.confidence_cell(&c.confidence),
                    cx.evidence_cell(&c.evidence),
                ],
                &mut out,
            );
        }
        out.push('\n');
    }

    out.push_str("## Tables\n\n");
    if r.tables.is_empty() {
        out.push_str("None.\n\n");
    }
    for t in &r.tables {
        let _ = writeln!(out, "### {}\n", text(&t.name));
        let _ = writeln!(
            out,
            "`{}(x)` for a {} value `x`: {} Other values: {}. Confidence: {}.\n",
            t.name,
            cx.type_link(m.ty(t.over), Loc::Top),
            prose(&t.doc, false),
            t.default,
            cx.confidence_inline(&t.confidence)
        );
        cx.table_head(&["Value", "Enumerators"], &mut out);
        let mut groups: Vec<(i64, Vec<&str>)> = Vec::new();
        for (_, name, v) in &t.entries {
            match groups.iter_mut().find(|g| g.0 == *v) {
                Some(g) => g.1.push(name),
                None => groups.push((*v, vec![name])),
            }
        }
        for (v, names) in groups {
            let names: Vec<String> = names.iter().map(|n| code(n, true)).collect();
            cx.row(&[v.to_string(), names.join(", ")], &mut out);
        }
        out.push_str("\nSources:\n\n");
        cx.evidence_list(&t.evidence, &mut out);
        out.push('\n');
    }

    out.push_str("## Rules of nested types\n\n");
    out.push_str(
        "A word's rule calls one of these as `rule(field)`; the call checks the rule on that \
         field. Each type also has its own `validate` (Rust) and `_is_valid` (C).\n\n",
    );
    let mut any = false;
    for s in r.sets.iter().filter(|s| m.ty(s.owner).opcode().is_none()) {
        any = true;
        let owner = m.ty(s.owner);
        let _ = writeln!(out, "### {}\n", text(&owner.name));
        let _ = writeln!(out, "Declared on {}.\n", cx.type_link(owner, Loc::Top));
        table(cx, s, &mut out);
        out.push('\n');
    }
    if !any {
        out.push_str("None.\n\n");
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
