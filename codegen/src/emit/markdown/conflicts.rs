//! `docs/conflicts.md`: every member with alternative readings, and where words use it;
//! then the klr layout fields with alternatives and the `[[conflict]]` records.

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::model::path::{Member, Node, Walk};
use crate::model::*;

/// A member declared with alternatives, at its declaration site.
struct Site<'m> {
    owner: &'m TypeDef,
    /// Path within the owner (`inst_word_len`, `addr_reg.body`).
    path: String,
    /// Byte offset within the owner, or bit range of a bitfield sub-field.
    offset: usize,
    bits: Option<(u32, u32)>,
    member: Member<'m>,
}

impl Site<'_> {
    fn title(&self) -> String {
        format!("{}.{}", self.owner.name, self.path)
    }
}

fn sites<'m>(model: &'m Model) -> Vec<Site<'m>> {
    let mut out = Vec::new();
    for t in &model.types {
        let mut push = |path: String, offset: usize, bits, member: Member<'m>| {
            if !member.alternatives().is_empty() {
                out.push(Site {
                    owner: t,
                    path,
                    offset,
                    bits,
                    member,
                });
            }
        };
        match &t.kind {
            TypeKind::Struct { fields, .. } => {
                for f in fields {
                    push(f.name.clone(), f.offset, None, Member::Field(f));
                }
            }
            TypeKind::Union {
                discriminator,
                variants,
            } => {
                let d = discriminator;
                push(d.name.clone(), d.offset, None, Member::Field(d));
                for v in variants {
                    for f in &v.fields {
                        push(
                            format!("{}.{}", v.name, f.name),
                            f.offset,
                            None,
                            Member::Field(f),
                        );
                    }
                }
            }
            TypeKind::Bitfield { fields, .. } => {
                for b in fields {
                    push(b.name.clone(), 0, Some((b.lsb, b.width)), Member::Bits(b));
                }
            }
            TypeKind::Enum { .. } | TypeKind::Flags { .. } => {}
        }
    }
    out
}

impl<'m> Pages<'m> {
    // -----------------------------------------------------------------------------------
    // conflicts.md

    pub(super) fn conflicts_page(&self) -> String {
        let m = self.model;
        let loc = Loc::Top;
        let mut out = String::from(BANNER);
        out.push_str("# Conflicting readings\n\n");
        out.push_str(
            "Fields whose bytes the sources read in more than one way. The **primary** reading \
             is the one the generated encoders, decoders and tables use; every alternative is \
             kept, with its own sources and tag, so that it can be re-checked. Each section is \
             one declaration; it lists every place in a word where that declaration lands.\n\n",
        );
        let sites = sites(m);
        let walks: Vec<(&TypeDef, Walk)> = m.words().map(|w| (w, m.walk(w))).collect();
        if sites.is_empty() {
            out.push_str("No field of a type has an alternative reading.\n");
            self.register_readings(&mut out);
            self.recorded_conflicts(&mut out);
            return out;
        }
        self.table_head(&["Where", "Primary", "Alternatives", "In words"], &mut out);
        let mut sections = String::new();
        for s in &sites {
            let title = s.title();
            let uses: Vec<(&TypeDef, &Node)> = walks
                .iter()
                .flat_map(|(w, walk)| {
                    walk.nodes
                        .iter()
                        .filter(|n| n.member.id() == s.member.id())
                        .map(move |n| (*w, n))
                })
                .collect();
            let mut words_cell: Vec<String> = Vec::new();
            for (w, _) in &uses {
                let l = self.type_link(w, loc);
                if !words_cell.contains(&l) {
                    words_cell.push(l);
                }
            }
            let alts: Vec<String> = s
                .member
                .alternatives()
                .iter()
                .map(|a| format!("{} ({})", code(&a.name, true), text(&a.confidence.tag)))
                .collect();
            self.row(
                &[
                    format!("[{}](#{})", text(&title), slug(&title)),
                    format!(
                        "{} ({})",
                        code(s.member.name(), true),
                        text(&s.member.confidence().tag)
                    ),
                    alts.join("<br>"),
                    or_dash(words_cell.join(", ")),
                ],
                &mut out,
            );

            let _ = writeln!(sections, "## {}\n", text(&title));
            let at = match s.bits {
                Some(b) => format!("{} of", bits_prose(b)),
                None => format!("byte {} of", off(s.offset)),
            };
            let _ = writeln!(
                sections,
                "- **Declared:** {at} {} (`spec/{}`)",
                self.type_link(s.owner, loc),
                s.owner.file
            );
            if uses.is_empty() {
                sections.push_str("- **In words:** none yet\n\n");
            } else {
                sections.push_str("- **In words:**\n");
                for (w, n) in &uses {
                    let mut at = off(n.offset);
                    if let Some(b) = n.bits {
                        let _ = write!(at, " {}", bits_range(b));
                    }
                    let _ = writeln!(
                        sections,
                        "  - {} {} at {at}",
                        self.type_link(w, loc),
                        code(&n.path, false)
                    );
                }
                sections.push('\n');
            }
            self.readings_table(s.member, loc, &mut sections);
            sections.push('\n');
        }
        out.push('\n');
        out.push_str(&sections);
        self.whole_word_readings(&mut out);
        self.layout_readings(&mut out);
        self.register_readings(&mut out);
        self.recorded_conflicts(&mut out);
        out
    }

    /// Register fields that sources read differently, each linked to its register.
    fn register_readings(&self, out: &mut String) {
        let fields: Vec<_> = (self.model.regfiles.iter())
            .flat_map(|f| f.bundles.iter().map(move |b| (f, b)))
            .flat_map(|(f, b)| b.registers.iter().map(move |r| (f, b, r)))
            .flat_map(|(f, b, r)| r.fields.iter().map(move |x| (f, b, r, x)))
            .filter(|(.., x)| !x.alternatives.is_empty())
            .collect();
        if fields.is_empty() {
            return;
        }
        out.push_str("\n## Register fields\n\n");
        out.push_str(
            "Fields of the register files whose bits sources read differently; each register's \
             section on its file's page has the readings beside its bit map.\n\n",
        );
        self.table_head(
            &["Field", "Reading", "Meaning", "Confidence", "Evidence"],
            out,
        );
        for (f, b, r, x) in fields {
            let place = format!(
                "[{}]({}) `{}`",
                text(&format!("{}.{}.{}.{}", f.name, b.name, r.name, x.name)),
                super::registers::register_link(f, &b.name, &r.name, ""),
                x.bits()
            );
            let primary = format!("**primary**<br>{}", code(&x.name, true));
            self.reading_row(
                [place.clone(), primary],
                &x.doc,
                &x.confidence,
                &x.evidence,
                out,
            );
            for a in &x.alternatives {
                let label = format!("alternative<br>{}", code(&a.name, true));
                self.reading_row(
                    [place.clone(), label],
                    &a.doc,
                    &a.confidence,
                    &a.evidence,
                    out,
                );
            }
        }
    }

    /// Fields of the compiler's klr / BIR node layouts that sources read differently.
    fn layout_readings(&self, out: &mut String) {
        let fields: Vec<_> = (self.model.klr.layouts.iter())
            .flat_map(|l| l.fields.iter().map(move |f| (l, f)))
            .filter(|(_, f)| !f.alternatives.is_empty())
            .collect();
        if fields.is_empty() {
            return;
        }
        out.push_str("\n## Compiler node layouts\n\n");
        out.push_str(
            "Fields of the klr / BIR nodes (`spec/klr/`, [klr layouts](klr/layouts.md)) that \
             sources read differently.\n\n",
        );
        self.table_head(
            &["Field", "Reading", "Meaning", "Confidence", "Evidence"],
            out,
        );
        for (l, f) in fields {
            let at = f.offset.map_or(String::new(), |o| format!(" +{o:#x}"));
            let place = format!("{}{at} {}", code(&l.qualified, true), code(&f.name, true));
            let primary = format!("**primary**<br>{}", code(&f.name, true));
            self.reading_row(
                [place.clone(), primary],
                &f.doc,
                &f.confidence,
                &f.evidence,
                out,
            );
            for a in &f.alternatives {
                let label = format!("alternative<br>{}", code(&a.name, true));
                self.reading_row(
                    [place.clone(), label],
                    &a.doc,
                    &a.confidence,
                    &a.evidence,
                    out,
                );
            }
        }
    }

    /// One row of a readings table: its leading cells, then meaning, tag and evidence.
    fn reading_row<const N: usize>(
        &self,
        lead: [String; N],
        doc: &str,
        confidence: &Confidence,
        evidence: &[Evidence],
        out: &mut String,
    ) {
        let mut cells = lead.to_vec();
        cells.extend([
            or_dash(text(doc)),
            self.confidence_cell(confidence),
            self.evidence_cell(evidence),
        ]);
        self.row(&cells, out);
    }

    /// `[[conflict]]`s: disagreements about tables, enum widths and ranges.
    fn recorded_conflicts(&self, out: &mut String) {
        let m = self.model;
        if m.conflicts.is_empty() {
            return;
        }
        out.push_str("\n## Other recorded conflicts\n\n");
        out.push_str(
            "Disagreements that are not one field's bytes read two ways (a table's value, an \
             enum's width, who narrows a value over what range), declared as `[[conflict]]`. \
             No reading is primary.\n\n",
        );
        for c in &m.conflicts {
            let _ = writeln!(out, "### {}\n", text(&c.name));
            let _ = writeln!(out, "{}\n", text(&c.doc));
            let about: Vec<String> = (c.about.iter())
                .map(|a| match m.types.iter().find(|t| &t.name == a) {
                    Some(t) => self.type_link(t, Loc::Top),
                    None => match m.register_path(a) {
                        Some(p) => format!(
                            "[{}]({})",
                            text(a),
                            super::registers::register_link(
                                p.file,
                                &p.bundle.name,
                                &p.registers[0].name,
                                ""
                            )
                        ),
                        None => code(a, true),
                    },
                })
                .collect();
            let _ = writeln!(
                out,
                "- **About:** {} (`spec/{}`)\n",
                about.join(", "),
                c.file
            );
            self.table_head(&["Reading", "Meaning", "Confidence", "Evidence"], out);
            for r in &c.readings {
                let name = code(&r.name, true);
                self.reading_row([name], &r.doc, &r.confidence, &r.evidence, out);
            }
            out.push('\n');
        }
    }

    /// Words that some source reads as a different word altogether.
    fn whole_word_readings(&self, out: &mut String) {
        let words: Vec<(&TypeDef, &Vec<Alternative>)> = self
            .model
            .words()
            .filter_map(|w| match &w.kind {
                TypeKind::Struct { alternatives, .. } if !alternatives.is_empty() => {
                    Some((w, alternatives))
                }
                _ => None,
            })
            .collect();
        if words.is_empty() {
            return;
        }
        out.push_str("\n## Whole-word readings\n\n");
        self.table_head(
            &["Word", "Reading", "Meaning", "Confidence", "Evidence"],
            out,
        );
        for (w, alts) in words {
            for a in alts {
                self.row(
                    &[
                        self.type_link(w, Loc::Top),
                        code(&a.name, true),
                        text(&a.doc),
                        self.confidence_cell(&a.confidence),
                        self.evidence_cell(&a.evidence),
                    ],
                    out,
                );
            }
        }
    }
}
