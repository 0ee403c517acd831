//! Escaping, small formatters and the cells every page shares: links, types,
//! confidence and evidence, table rows.

use std::fmt::Write as _;

use super::pages::*;
use crate::model::path::Member;
use crate::model::*;

// ---------------------------------------------------------------------------------------
// Escaping

/// Prose for a table cell; see [`prose`].
pub(super) fn text(s: &str) -> String {
    prose(s, true)
}

/// Prose: escapes what GitHub would otherwise read as markup (emphasis, links, HTML, table
/// pipes), except that a `backticked` run the spec writes becomes a code span. Newlines
/// become `<br>` so the text stays inside a table cell.
pub(super) fn prose(s: &str, cell: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        match after.find('`') {
            Some(close) if close > 0 && !after[..close].contains('\n') => {
                out.push_str(&escape(&rest[..open]));
                out.push_str(&code(&after[..close], cell));
                rest = &after[close + 1..];
            }
            _ => break,
        }
    }
    out.push_str(&escape(rest));
    out
}

pub(super) fn escape(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\\' | '`' | '*' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '_' => {
                let word = |j: Option<usize>| {
                    j.and_then(|j| chars.get(j))
                        .is_some_and(|c| c.is_alphanumeric())
                };
                if word(i.checked_sub(1)) && word(Some(i + 1)) {
                    out.push('_');
                } else {
                    out.push_str("\\_");
                }
            }
            '<' => out.push_str("&lt;"),
            // Only `&name;` / `&#..;` would be read as an entity.
            '&' if chars
                .get(i + 1)
                .is_some_and(|c| c.is_alphanumeric() || *c == '#') =>
            {
                out.push_str("&amp;")
            }
            '\n' => out.push_str("<br>"),
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// Prose that starts a block (a paragraph or list item body): also keeps a leading `#`,
/// `-`, `+`, `=` or `1.` from turning into a heading or list.
pub(super) fn para(s: &str) -> String {
    let t = prose(s, false);
    if t.starts_with(['#', '-', '+', '=']) {
        return format!("\\{t}");
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && t[digits..].starts_with(['.', ')']) {
        return format!("{}\\{}", &t[..digits], &t[digits..]);
    }
    t
}

/// A code span holding `s` verbatim. In a table cell (`cell`), pipes are escaped, which
/// GitHub undoes inside the span.
pub(super) fn code(s: &str, cell: bool) -> String {
    let mut s = s.replace(['\n', '\r'], " ");
    if s.is_empty() {
        return "*(empty)*".into();
    }
    if cell {
        s = s.replace('|', "\\|");
    }
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// What a leaf's Meaning cell adds for constants and value codecs.
pub(super) fn value_notes(constant: Option<u64>, codec: Option<Codec>) -> String {
    let mut out = String::new();
    if let Some(c) = constant {
        let _ = write!(
            out,
            "<br>constant `{c:#x}` (encode writes it; decode reports a mismatch)"
        );
    }
    if let Some(Codec::ZeroMeans(v)) = codec {
        let _ = write!(out, "<br>stored 0 means {v}");
    }
    out
}

/// GitHub's heading anchor for plain heading text.
pub(super) fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

pub(super) fn off(o: usize) -> String {
    format!("{o} (0x{o:02X})")
}

pub(super) fn hex(v: u64, repr: Int) -> String {
    format!("0x{v:0w$X}", w = repr.size() * 2)
}

pub(super) fn bits_range((lsb, width): (u32, u32)) -> String {
    if width <= 1 {
        format!("b{lsb}")
    } else {
        format!("b{lsb}..{}", lsb + width - 1)
    }
}

/// `bit 7` / `bits 0..2`, for prose.
pub(super) fn bits_prose((lsb, width): (u32, u32)) -> String {
    if width <= 1 {
        format!("bit {lsb}")
    } else {
        format!("bits {lsb}..{}", lsb + width - 1)
    }
}

pub(super) fn or_dash(s: String) -> String {
    if s.is_empty() { "—".into() } else { s }
}

/// Whether something holds in an architecture, as a table mark.
pub(super) fn tick(holds: bool) -> &'static str {
    if holds { "✓" } else { "—" }
}

/// When an arm is taken, in words.
pub(super) fn arm_condition(discriminator: &Field, v: &Variant) -> String {
    match (v.mask, v.value) {
        (Some(m), Some(x)) => format!("{} & 0x{m:02X} == 0x{x:02X}", discriminator.name),
        (None, Some(x)) => format!("{} == 0x{x:02X}", discriminator.name),
        _ => "default: no other arm matches".into(),
    }
}

// ---------------------------------------------------------------------------------------
// Rendering

/// Where a page sits, for relative links.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Loc {
    /// `docs/*.md`
    Top,
    /// `docs/words/*.md`
    Word,
}

impl Loc {
    fn up(self) -> &'static str {
        match self {
            Loc::Top => "",
            Loc::Word => "../",
        }
    }
}

impl<'m> Pages<'m> {
    /// A word or a record: a type with a page of its own.
    pub(super) fn is_word(&self, t: &TypeDef) -> bool {
        t.is_top_level()
    }

    /// Link to a type's description: its own page for a word, else its section of types.md.
    pub(super) fn type_link(&self, t: &TypeDef, loc: Loc) -> String {
        if self.is_word(t) {
            self.word_link(t, loc)
        } else {
            format!(
                "[{}]({}types.md#{})",
                text(&t.name),
                loc.up(),
                slug(&t.name)
            )
        }
    }

    pub(super) fn word_link(&self, w: &TypeDef, loc: Loc) -> String {
        let dir = match loc {
            Loc::Top => "words/",
            Loc::Word => "",
        };
        format!("[{}]({dir}{}.md)", text(&w.name), w.name)
    }

    /// A type as spelled in the spec (`DTYPE`, `i32[2]`, `u3`), linked when it names a
    /// declared type.
    pub(super) fn type_cell(&self, spelling: &str, loc: Loc) -> String {
        let (base, suffix) = spelling.split_at(spelling.find('[').unwrap_or(spelling.len()));
        match self.model.type_by_name(base) {
            Some(t) => format!("{}{}", self.type_link(t, loc), text(suffix)),
            None => code(spelling, true),
        }
    }

    pub(super) fn confidence_cell(&self, c: &Confidence) -> String {
        format!("{}<br>*{}*", text(&c.tag), text(&c.level))
    }

    /// A member's confidence cell; a dash for an unknown member, which claims no meaning.
    pub(super) fn claimed_cell(&self, c: Option<&Confidence>) -> String {
        c.map_or_else(|| "—".into(), |c| self.confidence_cell(c))
    }

    pub(super) fn confidence_inline(&self, c: &Confidence) -> String {
        format!("{} (*{}*)", text(&c.tag), text(&c.level))
    }

    /// One evidence record on one line: citation, then whatever the record pins, then its tag.
    pub(super) fn evidence_one(&self, e: &Evidence, cell: bool) -> String {
        let mut parts = vec![format!("**{}**", text(&e.cite))];
        if let Some(s) = &e.alias {
            parts.push(format!("as {}", code(s, cell)));
        }
        if let Some(s) = &e.names {
            parts.push(format!("names {}", code(s, cell)));
        }
        if let Some(s) = &e.pin {
            parts.push(format!("pin {}", code(s, cell)));
        }
        if let Some(s) = &e.value {
            parts.push(format!("value {}", code(s, cell)));
        }
        if let Some(s) = &e.note {
            parts.push(format!("note: {}", prose(s, cell)));
        }
        parts.push(format!("*{}*", text(&e.confidence.tag)));
        parts.join(" · ")
    }

    pub(super) fn evidence_cell(&self, ev: &[Evidence]) -> String {
        if ev.is_empty() {
            return "*none*".into();
        }
        ev.iter()
            .map(|e| self.evidence_one(e, true))
            .collect::<Vec<_>>()
            .join("<br>")
    }

    pub(super) fn evidence_list(&self, ev: &[Evidence], out: &mut String) {
        if ev.is_empty() {
            out.push_str("*No evidence records.*\n");
        }
        for e in ev {
            let _ = writeln!(out, "- {}", self.evidence_one(e, false));
        }
    }

    /// Meaning of a member: its doc, else (in italics) the doc of the type it holds.
    pub(super) fn meaning(&self, doc: &str, type_name: &str) -> String {
        if !doc.is_empty() {
            return text(doc);
        }
        let base = type_name.split('[').next().unwrap_or_default();
        match self.model.type_by_name(base) {
            Some(t) if !t.doc.is_empty() => format!("*{}*", text(&t.doc)),
            _ => "—".into(),
        }
    }

    pub(super) fn role_mark(&self, role: Role) -> &'static str {
        match role {
            Role::Data => "",
            Role::Reserved => "<br>**reserved**",
            Role::Unknown => "<br>**unknown**",
        }
    }

    pub(super) fn archs_of(&self, list: &[String]) -> String {
        if list.is_empty() || self.model.archs.iter().all(|a| list.contains(&a.name)) {
            "all".into()
        } else {
            list.iter().map(|a| text(a)).collect::<Vec<_>>().join(", ")
        }
    }

    pub(super) fn aliases(&self, aliases: &[Alias], cell: bool) -> String {
        let items: Vec<String> = aliases
            .iter()
            .map(|a| {
                let mut s = format!("{} ({}", code(&a.name, cell), text(a.spelled_by()));
                if let Some(n) = &a.note {
                    let _ = write!(s, ": {}", prose(n, cell));
                }
                s.push(')');
                s
            })
            .collect();
        or_dash(items.join(if cell { "<br>" } else { ", " }))
    }

    pub(super) fn table_head(&self, cols: &[&str], out: &mut String) {
        let _ = writeln!(out, "| {} |", cols.join(" | "));
        let seps: Vec<&str> = cols
            .iter()
            .map(|c| match *c {
                "Off" | "Size" | "Value" | "Bit" | "Bytes" | "reserved" | "unknown" => "---:",
                _ if self.model.levels.iter().any(|l| l.name == *c) => "---:",
                _ if self.model.archs.iter().any(|a| a.name == *c) => ":---:",
                _ => "---",
            })
            .collect();
        let _ = writeln!(out, "|{}|", seps.join("|"));
    }

    pub(super) fn row(&self, cells: &[String], out: &mut String) {
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }

    /// Table of a member's primary reading followed by every alternative.
    pub(super) fn readings_table(&self, m: Member<'_>, loc: Loc, out: &mut String) {
        self.table_head(
            &["Reading", "Type", "Meaning", "Confidence", "Evidence"],
            out,
        );
        let primary = m.type_name();
        self.row(
            &[
                format!(
                    "**primary**<br>{}{}",
                    code(m.name(), true),
                    self.role_mark(m.role())
                ),
                self.type_cell(&primary, loc),
                self.meaning(m.doc(), &primary),
                self.claimed_cell(m.claimed()),
                self.evidence_cell(m.evidence()),
            ],
            out,
        );
        for a in m.alternatives() {
            let ty = match &a.ty {
                Some(t) => self.type_cell(&t.spelling(), loc),
                None => format!("{}<br>*(as primary)*", self.type_cell(&primary, loc)),
            };
            self.row(
                &[
                    format!("alternative<br>{}", code(&a.name, true)),
                    ty,
                    or_dash(text(&a.doc)),
                    self.confidence_cell(&a.confidence),
                    self.evidence_cell(&a.evidence),
                ],
                out,
            );
        }
    }
}
