//! `docs/types.md`: every shared type.

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::emit::plural;
use crate::model::*;

/// A heading of types.md and which kinds it lists.
pub(super) type KindGroup = (&'static str, fn(&TypeKind) -> bool);

impl<'m> Pages<'m> {
    // -----------------------------------------------------------------------------------
    // types.md

    pub(super) fn types_page(&self) -> String {
        let m = self.model;
        let loc = Loc::Top;
        let mut out = String::from(BANNER);
        out.push_str("# Shared types\n\n");
        out.push_str(
            "The types the words are built from, in spec order within each kind. Words have \
             their own pages (see the [index](README.md)). C names are those of the shipped ISA \
             headers.\n\n",
        );
        let groups: [KindGroup; 5] = [
            ("Enums", |k| matches!(k, TypeKind::Enum { .. })),
            ("Flags", |k| matches!(k, TypeKind::Flags { .. })),
            ("Bitfields", |k| matches!(k, TypeKind::Bitfield { .. })),
            ("Structs", |k| {
                matches!(k, TypeKind::Struct { opcode: None, .. })
            }),
            ("Unions", |k| matches!(k, TypeKind::Union { .. })),
        ];
        for (title, pick) in &groups {
            let list: Vec<String> = m
                .types
                .iter()
                .filter(|t| pick(&t.kind))
                .map(|t| self.type_link(t, loc))
                .collect();
            if !list.is_empty() {
                let _ = writeln!(out, "- **{title}:** {}", list.join(", "));
            }
        }
        out.push('\n');
        for (title, pick) in &groups {
            let list: Vec<&TypeDef> = m.types.iter().filter(|t| pick(&t.kind)).collect();
            if list.is_empty() {
                continue;
            }
            let _ = writeln!(out, "## {title}\n");
            for t in list {
                self.type_section(t, &mut out);
            }
        }
        out
    }

    /// Types that hold `target` (by field, array element, bit range, or alternative reading).
    fn used_by(&self, target: usize) -> Vec<&'m TypeDef> {
        fn refers(t: &TypeRef, target: usize) -> bool {
            match t {
                TypeRef::Int { .. } | TypeRef::Ascii { .. } => false,
                TypeRef::Named { index, .. } => *index == target,
                TypeRef::Array { elem, .. } => refers(elem, target),
            }
        }
        let field = |f: &Field| {
            refers(&f.ty, target)
                || f.alternatives
                    .iter()
                    .any(|a| a.ty.as_ref().is_some_and(|t| refers(t, target)))
        };
        self.model
            .types
            .iter()
            .filter(|t| match &t.kind {
                TypeKind::Struct { fields, .. } => fields.iter().any(field),
                TypeKind::Union {
                    discriminator,
                    variants,
                } => field(discriminator) || variants.iter().any(|v| v.fields.iter().any(field)),
                TypeKind::Bitfield { fields, .. } => fields.iter().any(|b| {
                    matches!(b.ty, BitsType::Named { index, .. } if index == target)
                        || b.alternatives
                            .iter()
                            .any(|a| a.ty.as_ref().is_some_and(|t| refers(t, target)))
                }),
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => false,
            })
            .collect()
    }

    fn type_section(&self, t: &TypeDef, out: &mut String) {
        let m = self.model;
        let loc = Loc::Top;
        let _ = writeln!(out, "### {}\n", text(&t.name));
        let _ = writeln!(out, "{}\n", para(&t.doc));
        let kind = match &t.kind {
            TypeKind::Enum { repr, .. } => format!("enum over {}", code(repr.rust(), false)),
            TypeKind::Flags { repr, .. } => format!("flags over {}", code(repr.rust(), false)),
            TypeKind::Bitfield { repr, .. } => {
                format!("bitfield over {}", code(repr.rust(), false))
            }
            TypeKind::Struct { .. } => "struct".into(),
            TypeKind::Union { .. } => "union".into(),
        };
        let _ = writeln!(out, "- **Kind:** {kind}, {}", plural(t.size, "byte"));
        let _ = writeln!(out, "- **C name:** {}", code(&t.c_name, false));
        let _ = writeln!(
            out,
            "- **Confidence:** {}",
            self.confidence_inline(&t.confidence)
        );
        let _ = writeln!(out, "- **Declared in:** `spec/{}:{}`", t.file, t.line);
        let index = m
            .types
            .iter()
            .position(|x| std::ptr::eq(x, t))
            .unwrap_or(usize::MAX);
        let users: Vec<String> = self
            .used_by(index)
            .iter()
            .map(|u| self.type_link(u, loc))
            .collect();
        let _ = writeln!(out, "- **Used by:** {}", or_dash(users.join(", ")));
        out.push_str("- **Evidence:**\n");
        let mut ev = String::new();
        self.evidence_list(&t.evidence, &mut ev);
        for line in ev.lines() {
            let _ = writeln!(out, "  {line}");
        }
        out.push('\n');

        match &t.kind {
            TypeKind::Enum { repr, values } => {
                let words: Vec<&TypeDef> = if t.name == "OPCODE" {
                    m.words().collect()
                } else {
                    Vec::new()
                };
                self.table_head(
                    &[
                        "Value",
                        "Name",
                        "C enumerator",
                        "Meaning",
                        "Architectures",
                        "Aliases",
                    ],
                    out,
                );
                for e in values {
                    let mut meaning = or_dash(e.doc.as_deref().map(text).unwrap_or_default());
                    let bound: Vec<String> = words
                        .iter()
                        .filter(|w| w.opcode().is_some_and(|o| o.enumerator == e.name))
                        .map(|w| self.type_link(w, loc))
                        .collect();
                    if !bound.is_empty() {
                        let _ = write!(meaning, "<br>word: {}", bound.join(", "));
                    }
                    if let Some(engine) = &e.engine {
                        let _ = write!(meaning, "<br>engine: {}", text(engine));
                    }
                    self.row(
                        &[
                            format!("`{}` ({})", hex(e.value, *repr), e.value),
                            code(&e.name, true),
                            code(&e.c_name, true),
                            meaning,
                            self.archs_of(&e.arch),
                            self.aliases(&e.aliases, true),
                        ],
                        out,
                    );
                }
                out.push('\n');
            }
            TypeKind::Flags { repr, none, bits } => {
                self.table_head(&["Bit", "Mask", "Name", "C name", "Meaning"], out);
                if let Some(n) = none {
                    self.row(
                        &[
                            "—".into(),
                            format!("`{}`", hex(0, *repr)),
                            code(n, true),
                            "—".into(),
                            "No bit set.".into(),
                        ],
                        out,
                    );
                }
                for b in bits {
                    self.row(
                        &[
                            b.bit.to_string(),
                            format!("`{}`", hex(1u64 << b.bit, *repr)),
                            code(&b.name, true),
                            code(&b.c_name, true),
                            or_dash(text(&b.doc)),
                        ],
                        out,
                    );
                }
                out.push('\n');
            }
            TypeKind::Bitfield { repr, fields } => {
                self.table_head(
                    &[
                        "Bits",
                        "Mask",
                        "Field",
                        "Type",
                        "Meaning",
                        "Confidence",
                        "Evidence",
                    ],
                    out,
                );
                for b in fields {
                    let ty = b.type_name();
                    let mut field = format!("{}{}", code(&b.name, true), self.role_mark(b.role));
                    self.conflict_mark(b.alternatives.len(), t, &b.name, &mut field);
                    self.row(
                        &[
                            bits_range((b.lsb, b.width)),
                            format!("`{}`", hex(b.mask() << b.lsb, *repr)),
                            field,
                            self.type_cell(&ty, loc),
                            self.meaning(&b.doc, &ty),
                            self.claimed_cell(b.claimed()),
                            self.evidence_cell(&b.evidence),
                        ],
                        out,
                    );
                }
                out.push('\n');
            }
            TypeKind::Struct {
                fields, aliases, ..
            } => {
                if !aliases.is_empty() {
                    let _ = writeln!(out, "- **Also named:** {}\n", self.aliases(aliases, false));
                }
                let _ = writeln!(out, "{}\n", super::svg::image(t, ""));
                let rows: Vec<(&Field, Option<&str>)> = fields.iter().map(|f| (f, None)).collect();
                self.fields_table(t, None, &rows, out);
            }
            TypeKind::Union {
                discriminator,
                variants,
            } => {
                let _ = writeln!(
                    out,
                    "The arm is chosen by {} at byte {}: the first arm whose mask and value match \
                     wins, else the default arm.\n",
                    code(&discriminator.name, false),
                    off(discriminator.offset)
                );
                for v in variants {
                    let _ = writeln!(
                        out,
                        "#### {}.{} — {}\n",
                        text(&t.name),
                        text(&v.name),
                        code(&arm_condition(discriminator, v), false)
                    );
                    let _ = writeln!(out, "{}\n", para(&v.doc));
                    let _ = writeln!(
                        out,
                        "- **Confidence:** {}",
                        self.confidence_inline(&v.confidence)
                    );
                    out.push_str("- **Evidence:**\n");
                    let mut ev = String::new();
                    self.evidence_list(&v.evidence, &mut ev);
                    for line in ev.lines() {
                        let _ = writeln!(out, "  {line}");
                    }
                    out.push('\n');
                    let mut rows: Vec<(&Field, Option<&str>)> =
                        v.fields.iter().map(|f| (f, None)).collect();
                    rows.push((discriminator, Some("discriminator")));
                    rows.sort_by_key(|(f, _)| f.offset);
                    self.fields_table(t, Some(&v.name), &rows, out);
                }
            }
        }
    }

    /// Marks a member of `owner` declared with alternatives; `path` is its path in `owner`.
    fn conflict_mark(&self, alts: usize, owner: &TypeDef, path: &str, field: &mut String) {
        if alts > 0 {
            let _ = write!(
                field,
                "<br>⚠ [{}](conflicts.md#{})",
                plural(alts, "alternative reading"),
                slug(&format!("{}.{path}", owner.name))
            );
        }
    }

    /// Byte-placed members of a nested type (of arm `arm` of a union); `label` tags a row
    /// (the union discriminator).
    fn fields_table(
        &self,
        t: &TypeDef,
        arm: Option<&str>,
        rows: &[(&Field, Option<&str>)],
        out: &mut String,
    ) {
        let loc = Loc::Top;
        self.table_head(&LAYOUT_COLUMNS, out);
        for (f, label) in rows {
            let ty = f.ty.spelling();
            let mut field = format!("{}{}", code(&f.name, true), self.role_mark(f.role));
            if let Some(l) = label {
                let _ = write!(field, "<br>*{}*", text(l));
            }
            let path = match (arm, label) {
                (Some(a), None) => format!("{a}.{}", f.name),
                _ => f.name.clone(),
            };
            self.conflict_mark(f.alternatives.len(), t, &path, &mut field);
            self.row(
                &[
                    off(f.offset),
                    f.size.to_string(),
                    field,
                    self.type_cell(&ty, loc),
                    self.meaning(&f.doc, &ty),
                    self.claimed_cell(f.claimed()),
                    self.evidence_cell(&f.evidence),
                ],
                out,
            );
        }
        out.push('\n');
    }
}
