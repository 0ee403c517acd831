//! `docs/words/<NAME>.md`: one page per word, a row per leaf.

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::emit::plural;
use crate::model::path::{Arm, Member, Node, Walk};
use crate::model::*;

/// Leaves tagged with their position in `Model::leaves`.
pub(super) type Indexed<'l> = Vec<(usize, Leaf<'l>)>;

// ---------------------------------------------------------------------------------------
// A word's walk (every member, containers included, unlike `Model::leaves`) places
// conflicts on any level and labels union arms.

/// The Markdown pages' own reading of a walk.
impl<'m> Walk<'m> {
    /// `Model::leaves` order, except that a union's discriminator is listed after its arms
    /// when it sits after them (ADDR8's marker in its high byte), so rows read by offset.
    fn order<'l>(&self, mut leaves: Vec<Leaf<'l>>) -> Vec<Leaf<'l>> {
        let mut unions: Vec<(&str, &str)> = Vec::new();
        for a in &self.arms {
            let u = a.path.rsplit_once('.').map_or("", |(u, _)| u);
            if !unions.iter().any(|(p, _)| *p == u) {
                unions.push((u, &a.discriminator.name));
            }
        }
        for (u, d) in unions {
            let dpath = format!("{u}.{d}");
            let arm_prefix = format!("{u}.");
            let is_disc = |l: &Leaf| {
                l.path == dpath
                    || l.path.starts_with(&format!("{dpath}."))
                    || l.path.starts_with(&format!("{dpath}["))
            };
            let is_arm = |l: &Leaf| {
                !is_disc(l)
                    && l.variant
                        .as_deref()
                        .is_some_and(|v| v.starts_with(&arm_prefix))
            };
            let disc_min = leaves.iter().filter(|l| is_disc(l)).map(|l| l.offset).min();
            let arm_min = leaves.iter().filter(|l| is_arm(l)).map(|l| l.offset).min();
            let last_arm = leaves.iter().rposition(is_arm);
            let (Some(dm), Some(am), Some(last)) = (disc_min, arm_min, last_arm) else {
                continue;
            };
            if dm <= am {
                continue;
            }
            let (disc, rest): (Indexed, Indexed) = leaves
                .into_iter()
                .enumerate()
                .partition(|(_, l)| is_disc(l));
            let mut out = Vec::with_capacity(disc.len() + rest.len());
            let mut disc = Some(disc);
            for (i, l) in rest {
                out.push(l);
                if i == last {
                    out.extend(disc.take().into_iter().flatten().map(|(_, l)| l));
                }
            }
            out.extend(disc.into_iter().flatten().map(|(_, l)| l));
            leaves = out;
        }
        leaves
    }

    fn arm(&self, path: &str) -> Option<&Arm<'m>> {
        self.arms.iter().find(|a| a.path == path)
    }

    /// Members with alternative readings.
    fn conflicted(&self) -> impl Iterator<Item = &Node<'m>> {
        self.nodes
            .iter()
            .filter(|n| !n.member.alternatives().is_empty())
    }

    /// How many alternative readings the members at `path` or holding it have.
    pub(super) fn alternatives_over(&self, path: &str) -> usize {
        self.conflicted()
            .filter(|n| {
                path == n.path
                    || path.starts_with(&format!("{}.", n.path))
                    || path.starts_with(&format!("{}[", n.path))
            })
            .map(|n| n.member.alternatives().len())
            .sum()
    }
}

impl<'m> Pages<'m> {
    /// Values stored across several fields of the word.
    fn joins_section(&self, joins: &[Join], out: &mut String) {
        if joins.is_empty() {
            return;
        }
        out.push_str("## Joined values\n\n");
        self.table_head(
            &[
                "Value",
                "Parts (low first)",
                "Meaning",
                "Confidence",
                "Evidence",
            ],
            out,
        );
        for j in joins {
            let parts: Vec<String> = j
                .parts
                .iter()
                .map(|(p, w)| format!("{} ({w} bits)", code(p, true)))
                .collect();
            self.row(
                &[
                    code(&j.name, true),
                    parts.join(" + "),
                    text(&j.doc),
                    self.confidence_cell(&j.confidence),
                    self.evidence_cell(&j.evidence),
                ],
                out,
            );
        }
        out.push('\n');
    }

    /// Readings of the whole word that other sources give (documented, not decoded).
    fn word_readings_section(&self, alternatives: &[Alternative], out: &mut String) {
        if alternatives.is_empty() {
            return;
        }
        out.push_str("## Other readings of the whole word\n\n");
        self.table_head(&["Reading", "Meaning", "Confidence", "Evidence"], out);
        for a in alternatives {
            self.row(
                &[
                    code(&a.name, true),
                    text(&a.doc),
                    self.confidence_cell(&a.confidence),
                    self.evidence_cell(&a.evidence),
                ],
                out,
            );
        }
        out.push('\n');
    }

    // -----------------------------------------------------------------------------------
    // words/<NAME>.md

    pub(super) fn word_page(&self, w: &TypeDef) -> String {
        let m = self.model;
        let loc = Loc::Word;
        let mut walk = m.walk(w);
        let leaves = std::mem::take(&mut walk.leaves);
        let mut out = String::from(BANNER);
        let _ = writeln!(out, "# {}\n", text(&w.name));
        let _ = writeln!(out, "{}\n", para(&w.doc));

        let _ = writeln!(out, "- **C name:** {}", code(&w.c_name, false));
        match w.opcode() {
            Some(op) => self.word_header_lines(w, op, loc, &mut out),
            None => {
                let _ = writeln!(
                    out,
                    "- **Record:** decoded on its own, not inside a word: {} per record \
                     (`dmaspec decode --struct {}`)",
                    plural(w.size, "byte"),
                    w.name
                );
            }
        }
        let _ = writeln!(
            out,
            "- **Confidence:** {}",
            self.confidence_inline(&w.confidence)
        );
        let _ = writeln!(out, "- **Declared in:** `spec/{}:{}`", w.file, w.line);
        let cov = m.byte_coverage(w);
        let _ = writeln!(
            out,
            "- **Coverage:** {} ([all words](../coverage.md))\n",
            self.coverage_summary(&cov)
        );
        let _ = writeln!(out, "{}\n", super::svg::image(w, "../"));

        out.push_str("## Evidence\n\n");
        self.evidence_list(&w.evidence, &mut out);
        out.push('\n');

        out.push_str("## Layout\n\n");
        self.table_head(&LAYOUT_COLUMNS, &mut out);
        let conflicted: Vec<&Node> = walk.conflicted().collect();
        for leaf in walk.order(leaves) {
            let size = match leaf.bits {
                Some(b) => bits_range(b),
                None => leaf.size.to_string(),
            };
            let mut field = code(&leaf.path, true);
            if let Some(v) = &leaf.variant {
                match walk.arm(v) {
                    Some(a) => {
                        let _ = write!(
                            field,
                            "<br>arm *{}*: {}",
                            text(&a.variant.name),
                            code(&arm_condition(a.discriminator, a.variant), true)
                        );
                    }
                    None => {
                        let _ = write!(field, "<br>arm {}", code(v, true));
                    }
                }
            }
            field.push_str(self.role_mark(leaf.role));
            let alts = walk.alternatives_over(&leaf.path);
            if alts > 0 {
                let _ = write!(
                    field,
                    "<br>⚠ [{}](#conflicting-readings)",
                    plural(alts, "alternative reading")
                );
            }
            self.row(
                &[
                    off(leaf.offset),
                    size,
                    field,
                    self.type_cell(&leaf.type_name, loc),
                    self.meaning(leaf.doc, &leaf.type_name)
                        + &value_notes(leaf.constant, leaf.codec),
                    self.leaf_confidence_cell(&leaf),
                    self.leaf_evidence_cell(&leaf),
                ],
                &mut out,
            );
        }
        out.push('\n');

        if let TypeKind::Struct {
            joins,
            alternatives,
            ..
        } = &w.kind
        {
            self.joins_section(joins, &mut out);
            self.word_readings_section(alternatives, &mut out);
        }

        out.push_str(&super::rules::word_section(self, w));

        out.push_str("## Conflicting readings\n\n");
        if conflicted.is_empty() {
            out.push_str("No field of this word has an alternative reading.\n");
        }
        for n in conflicted {
            let _ = writeln!(out, "### {}\n", text(&n.path));
            let mut at = format!("At {}", off(n.offset));
            if let Some(b) = n.bits {
                let _ = write!(at, ", {}", bits_prose(b));
            }
            let site = format!("{}.{}", n.owner.name, self.site_path(n));
            let link = format!("[conflicts](../conflicts.md#{})", slug(&site));
            if std::ptr::eq(n.owner, w) {
                let _ = writeln!(out, "{at}, a member of this word (also in {link}).\n");
            } else {
                let _ = writeln!(
                    out,
                    "{at}; declared as {} in {} (every word using it: {link}).\n",
                    code(n.member.name(), false),
                    self.type_link(n.owner, loc),
                );
            }
            self.readings_table(n.member, loc, &mut out);
            out.push('\n');
        }
        out
    }

    /// A word page's opcode, names, size, architectures and extension lines.
    fn word_header_lines(&self, w: &TypeDef, op: &Opcode, loc: Loc, out: &mut String) {
        let m = self.model;
        let mut opline = format!(
            "- **Opcode:** `0x{:02X}` ({}) — `OPCODE` enumerator {}",
            op.value,
            op.value,
            code(&op.enumerator, false)
        );
        if let Some(e) = m.opcode_enumerator(w) {
            if !e.aliases.is_empty() {
                let _ = write!(opline, "; also spelled {}", self.aliases(&e.aliases, false));
            }
            if let Some(engine) = &e.engine {
                let _ = write!(opline, "; engine {}", text(engine));
            }
        }
        let _ = writeln!(out, "{opline}");
        if let Some(line) = self.sub_opcode_line(w) {
            let _ = writeln!(out, "{line}");
        }
        if let TypeKind::Struct { aliases, .. } = &w.kind
            && !aliases.is_empty()
        {
            let _ = writeln!(out, "- **Also named:** {}", self.aliases(aliases, false));
        }
        let _ = writeln!(out, "- **Size:** {}", plural(w.size, "byte"));
        let have = m.word_archs(w);
        let archs: Vec<String> = m
            .archs
            .iter()
            .map(|a| {
                format!(
                    "{} {}",
                    text(&a.name),
                    tick(have.contains(&a.name.as_str()))
                )
            })
            .collect();
        let inferred = match &w.kind {
            TypeKind::Struct {
                arch_inferred: true,
                ..
            } => {
                " — all by the spec's inference (no source lists this word per architecture; see its INFERRED evidence)"
            }
            _ => "",
        };
        let _ = writeln!(out, "- **Architectures:** {}{inferred}", archs.join(" · "));
        if let TypeKind::Struct { follows, .. } = &w.kind {
            // Each word it may follow, linked where it is one of ours.
            let leads: Vec<String> = follows
                .iter()
                .map(|f| match m.type_by_name(f) {
                    Some(t) => self.word_link(t, loc),
                    None => code(f, false),
                })
                .collect();
            if leads.is_empty() {
                out.push_str("- **Follows:** — (stands alone)\n");
            } else {
                let _ = writeln!(
                    out,
                    "- **Follows:** {} — a positional extension: it means something only \
                     right after {}.",
                    leads.join(" or "),
                    if leads.len() == 1 {
                        "that word"
                    } else {
                        "one of those words"
                    }
                );
            }
        }
        let followers: Vec<String> = m
            .words()
            .filter(|o| matches!(&o.kind, TypeKind::Struct { follows, .. } if follows.contains(&w.name)))
            .map(|o| self.word_link(o, loc))
            .collect();
        if !followers.is_empty() {
            let _ = writeln!(out, "- **Extended by:** {}", followers.join(", "));
        }
    }

    /// A leaf's confidence: the weakest along its chain, naming the member it comes from
    /// when that is not the leaf's own; a dash for an unknown leaf, which claims no meaning.
    fn leaf_confidence_cell(&self, leaf: &Leaf) -> String {
        let Some(c) = leaf.confidence else {
            return self.claimed_cell(None);
        };
        let mut cell = self.confidence_cell(c);
        if c.rank > leaf.member.confidence.rank
            && let Some(from) = leaf.within.iter().find(|l| std::ptr::eq(l.confidence, c))
        {
            let _ = write!(cell, "<br>from {}", code(&from.path, true));
        }
        cell
    }

    /// A leaf's evidence: its own member's, preceded by that of every member holding it,
    /// each level under its path, folded into one `<details>`.
    fn leaf_evidence_cell(&self, leaf: &Leaf) -> String {
        if leaf.within.is_empty() {
            return self.evidence_cell(leaf.member.evidence);
        }
        let mut records = 0;
        let levels: Vec<String> = leaf
            .chain()
            .map(|l| {
                records += l.evidence.len();
                let lines: Vec<String> = if l.evidence.is_empty() {
                    vec!["*none*".into()]
                } else {
                    l.evidence
                        .iter()
                        .map(|e| self.evidence_one(e, true))
                        .collect()
                };
                format!("{}: {}", code(&l.path, true), lines.join("<br>"))
            })
            .collect();
        folded(records, &levels.join("<br>"))
    }

    /// The member's path inside its declaring type, as conflicts.md titles it.
    fn site_path(&self, n: &Node<'_>) -> String {
        if let TypeKind::Union { variants, .. } = &n.owner.kind {
            for v in variants {
                if v.fields
                    .iter()
                    .any(|f| Member::Field(f).id() == n.member.id())
                {
                    return format!("{}.{}", v.name, n.member.name());
                }
            }
        }
        n.member.name().to_string()
    }
}
