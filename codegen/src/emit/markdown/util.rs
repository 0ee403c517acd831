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

/// A quote of a Markdown source (an evidence record's `names`, `pin` or `value`) as its
/// text reads there, in quotation marks: a quoted table row's cells joined by ` · `
/// instead of pipes (an empty cell a dash), `**` dropped outside code spans, code spans
/// kept. A quote cut inside a code span (its backticks unpaired) shows as plain text.
pub(super) fn quote(s: &str, cell: bool) -> String {
    // Code spans are set aside first, so that their pipes do not split the row.
    let spans: Vec<&str> = s.split('`').collect();
    // A span that starts or ends with a space pairs the backticks wrongly (a quote cut
    // after an opening one): then none is a code span.
    let paired = spans.len() % 2 == 1
        && (spans.iter().skip(1).step_by(2))
            .all(|c| !c.starts_with(char::is_whitespace) && !c.ends_with(char::is_whitespace));
    let mut row = String::new();
    for (i, span) in spans.iter().enumerate() {
        if paired && i % 2 == 1 {
            row.push(CODE);
            row.push_str(&span.replace('|', &PIPE.to_string()));
            row.push(CODE);
        } else {
            row.push_str(&span.replace("**", ""));
        }
    }
    let row = row.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let row = row.strip_suffix('|').unwrap_or(row);
    let cells: Vec<String> = row
        .split('|')
        .map(|c| {
            let c = c.trim();
            if c.is_empty() {
                return "—".to_string();
            }
            c.split(CODE)
                .enumerate()
                .map(|(i, part)| match i % 2 {
                    1 => code(&part.replace(PIPE, "|"), cell),
                    _ => escape(part),
                })
                .collect()
        })
        .collect();
    format!("“{}”", cells.join(" · "))
}

/// Where [`quote`] set a code span aside, and a pipe inside one.
const CODE: char = '\u{1}';
const PIPE: char = '\u{2}';

/// A table cell's evidence `body` in a collapsed `<details>` whose summary counts its
/// `records`: the column stays narrow (quotes widened tables past the page) and every
/// record stays on the page, a click away.
pub(super) fn folded(records: usize, body: &str) -> String {
    let n = crate::emit::plural(records, "record");
    format!("<details><summary>{n}</summary>{body}</details>")
}

/// A table cell's prose (`text`'s output) with a `<wbr>` after each `_`, `(`, `,` and `.`
/// of a word longer than [`LONG_WORD`] characters outside code spans, links and tags: an
/// identifier in prose (`has_valid_active_channel_range_with_tile(num_active_channels,`)
/// may then wrap, and the column it sits in need not be wider than the page.
pub(super) fn breakable(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut word = String::new();
    let mut plain = true;
    let flush = |word: &mut String, plain: bool, out: &mut String| {
        if plain && word.chars().count() > LONG_WORD {
            for c in word.chars() {
                out.push(c);
                if matches!(c, '_' | '(' | ',' | '.') {
                    out.push_str("<wbr>");
                }
            }
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    let mut chars = md.chars().peekable();
    let mut fence = 0;
    while let Some(c) = chars.next() {
        if c == '`' {
            let mut run = 1;
            while chars.next_if_eq(&'`').is_some() {
                run += 1;
            }
            // A code span opens on a run of backticks and closes on the same length.
            fence = match fence {
                0 => run,
                f if f == run => 0,
                f => f,
            };
            plain = false;
            word.push_str(&"`".repeat(run));
            continue;
        }
        let line_break = c == '<' && chars.clone().take(3).eq("br>".chars());
        if fence == 0 && (c.is_whitespace() || line_break) {
            flush(&mut word, plain, &mut out);
            plain = true;
            out.push(c);
            continue;
        }
        if fence == 0 && (c == '<' || (matches!(c, '[' | ']') && !word.ends_with('\\'))) {
            // A tag or a link: the word keeps its characters as they are.
            plain = false;
        }
        word.push(c);
    }
    flush(&mut word, plain, &mut out);
    out
}

/// Words longer than this may break inside in a table cell (see [`breakable`]).
const LONG_WORD: usize = 20;

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
    /// `docs/registers/<file>/*.md`: a register file's bundle pages
    Bundle,
}

impl Loc {
    pub(super) fn up(self) -> &'static str {
        match self {
            Loc::Top => "",
            Loc::Word => "../",
            Loc::Bundle => "../../",
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
                breakable(&text(&t.name)),
                loc.up(),
                slug(&t.name)
            )
        }
    }

    pub(super) fn word_link(&self, w: &TypeDef, loc: Loc) -> String {
        let dir = match loc {
            Loc::Top => "words/",
            Loc::Word => "",
            Loc::Bundle => "../../words/",
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
    /// The pinned strings quote Markdown sources: [`quote`] shows them as their text reads.
    pub(super) fn evidence_one(&self, e: &Evidence, cell: bool) -> String {
        let mut parts = vec![format!("**{}**", text(&e.cite))];
        if let Some(s) = &e.alias {
            parts.push(format!("as {}", code(s, cell)));
        }
        if let Some(s) = &e.names {
            parts.push(format!("names {}", quote(s, cell)));
        }
        if let Some(s) = &e.pin {
            parts.push(format!("pin {}", quote(s, cell)));
        }
        if let Some(s) = &e.value {
            parts.push(format!("value {}", quote(s, cell)));
        }
        if let Some(s) = &e.note {
            parts.push(format!("note: {}", prose(s, cell)));
        }
        parts.push(format!("*{}*", text(&e.confidence.tag)));
        parts.join(" · ")
    }

    /// A table's Evidence cell: the records, one a line, folded (see [`folded`]).
    pub(super) fn evidence_cell(&self, ev: &[Evidence]) -> String {
        if ev.is_empty() {
            return "*none*".into();
        }
        let lines: Vec<String> = ev.iter().map(|e| self.evidence_one(e, true)).collect();
        folded(ev.len(), &lines.join("<br>"))
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
            return breakable(&text(doc));
        }
        let base = type_name.split('[').next().unwrap_or_default();
        match self.model.type_by_name(base) {
            Some(t) if !t.doc.is_empty() => format!("*{}*", breakable(&text(&t.doc))),
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

    /// An Archs cell: `all`, else the architectures in the model's (generation) order, a
    /// run of three or more neighbours as a range (`cayman–maverick`), so the column
    /// stays one line wide.
    pub(super) fn archs_of(&self, list: &[String]) -> String {
        let archs = &self.model.archs;
        if list.is_empty() || archs.iter().all(|a| list.contains(&a.name)) {
            return "all".into();
        }
        let mut runs: Vec<Vec<&str>> = Vec::new();
        let mut last: Option<usize> = None;
        for (i, a) in archs.iter().enumerate() {
            if !list.contains(&a.name) {
                continue;
            }
            match runs.last_mut() {
                Some(run) if last == Some(i.wrapping_sub(1)) => run.push(&a.name),
                _ => runs.push(vec![&a.name]),
            }
            last = Some(i);
        }
        let parts: Vec<String> = runs
            .iter()
            .map(|run| match run.as_slice() {
                [first, .., last] if run.len() >= 3 => format!("{}–{}", text(first), text(last)),
                _ => run.iter().map(|a| text(a)).collect::<Vec<_>>().join(", "),
            })
            .collect();
        parts.join(", ")
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

#[cfg(test)]
mod tests {
    use super::{breakable, quote};

    /// Quotes as the spec holds them (spec/registers/udma_m2s.toml, M2S_Q.cfg and
    /// force_full_line), and what a reader sees.
    #[test]
    fn a_quoted_table_row_shows_its_cells_without_pipes_or_bold() {
        assert_eq!(
            quote("| `0x20` | 4 | RW | `cfg` | see Table 6.1a below |", true),
            "“`0x20` · 4 · RW · `cfg` · see Table 6.1a below”"
        );
        assert_eq!(
            quote("| [18] | `force_full_line` | **1** | | |", true),
            "“\\[18\\] · `force_full_line` · 1 · — · —”"
        );
        // A pipe inside a code span is the code's own (a C expression), escaped for the cell.
        assert_eq!(quote("`a | b` | c", true), "“`a \\| b` · c”");
    }

    #[test]
    fn a_quote_cut_inside_a_code_span_is_plain_text() {
        assert_eq!(
            quote("=0x20000` are the **enable** bits; `AXI_qos[30:28]", true),
            "“=0x20000 are the enable bits; AXI_qos\\[30:28\\]”"
        );
    }

    #[test]
    fn long_words_break_outside_code_links_and_tags() {
        assert_eq!(
            breakable(
                "calls has_valid_active_channel_range(n, m) `has_valid_active_channel_range`"
            ),
            "calls has_<wbr>valid_<wbr>active_<wbr>channel_<wbr>range(<wbr>n,<wbr> m) \
             `has_valid_active_channel_range`"
        );
        assert_eq!(
            breakable("[NEURON_ISA_TPB_INSTRUCTION](x.md)<br>short_word"),
            "[NEURON_ISA_TPB_INSTRUCTION](x.md)<br>short_word"
        );
        assert_eq!(
            breakable("a<br>AXI_M2S.enhanced_ostand_cfg"),
            "a<br>AXI_<wbr>M2S.<wbr>enhanced_<wbr>ostand_<wbr>cfg"
        );
    }
}
