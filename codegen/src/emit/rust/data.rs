//! The metadata tables (`FIELDS`, `META`, `RULES`, `LOWERINGS`, ...) as literal text.
//!
//! They are two thirds of the generated module and pure data, so they skip the
//! quote → syn → prettyplease round trip that the code goes through: each table entry is
//! built as a [`Lit`], stands in the token stream as a `__lit!(N)` placeholder, and is
//! spliced into prettyplease's output at the placeholder's indentation. The printed form
//! is close to prettyplease's: one long field or element per line, short ones sharing
//! lines.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Display;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// A Rust constant expression as text, starting at column 0, possibly over several lines.
#[derive(Debug, Clone)]
pub(super) struct Lit(String);

/// Width up to which a slice of one-line items stays on one line.
const INLINE: usize = 96;

/// Width up to which the elements of a long slice share a line.
const PACKED: usize = 48;

/// Width up to which a record of one-line fields stays on one line.
const RECORD_INLINE: usize = 100;

/// Width up to which the short fields of a long record share a line (records nest, so
/// less than [`INLINE`]).
const FIELDS_LINE: usize = 80;

/// Width up to which a builder chain stays on one line: 100 columns less the indent and
/// comma of an element of a table in an impl's constant.
const CHAIN_INLINE: usize = 87;

impl Lit {
    pub fn str(s: &str) -> Lit {
        Lit(format!("{s:?}"))
    }

    pub fn opt_str(s: Option<&str>) -> Lit {
        Lit::opt(s.map(Lit::str))
    }

    pub fn num(v: impl Display) -> Lit {
        Lit(v.to_string())
    }

    /// A path or a short expression, verbatim (`Arch::sunda`, `&Self::TEMPLATE`).
    pub fn code(s: impl Into<String>) -> Lit {
        Lit(s.into())
    }

    /// The text, for wrapping in a call (`Some(..)`, `Source::Ext(..)`).
    pub fn text(&self) -> &str {
        &self.0
    }

    pub fn opt(v: Option<Lit>) -> Lit {
        match v {
            Some(v) => Lit(format!("Some({})", v.0)),
            None => Lit::code("None"),
        }
    }

    /// `&[a, b]`: on one line when every element is one short line, else one per line.
    pub fn slice(items: impl IntoIterator<Item = Lit>) -> Lit {
        let items: Vec<Lit> = items.into_iter().collect();
        let one_line = items.iter().all(|i| !i.0.contains('\n'))
            && items.iter().map(|i| i.0.len() + 2).sum::<usize>() <= INLINE;
        if one_line {
            let inner: Vec<&str> = items.iter().map(|i| i.0.as_str()).collect();
            return Lit(format!("&[{}]", inner.join(", ")));
        }
        let mut out = String::from("&[\n");
        if items
            .iter()
            .all(|i| !i.0.contains('\n') && i.0.len() <= PACKED)
        {
            // Short elements (field names, numbers) fill their lines.
            let mut line = String::new();
            for i in &items {
                if !line.is_empty() && line.len() + i.0.len() + 2 > INLINE {
                    push_indented(&mut out, line.trim_end(), "");
                    line.clear();
                }
                line.push_str(&i.0);
                line.push_str(", ");
            }
            push_indented(&mut out, line.trim_end(), "");
        } else {
            for i in &items {
                push_indented(&mut out, &i.0, ",");
            }
        }
        out.push(']');
        Lit(out)
    }

    /// `path { name: value, ... }`: on one line when short, else one field per line.
    pub fn record<'a>(path: &str, fields: impl IntoIterator<Item = (&'a str, Lit)>) -> Lit {
        Lit::fields(
            path,
            fields.into_iter().map(|(n, v)| format!("{n}: {}", v.0)),
            RECORD_INLINE,
        )
    }

    /// `path { name: value, ..base }`: a record stating only the fields that differ from
    /// `base` (`None` leaves a field to it).
    pub fn update<'a>(
        path: &str,
        fields: impl IntoIterator<Item = (&'a str, Option<Lit>)>,
        base: &str,
    ) -> Lit {
        Lit::fields(path, Lit::stated(fields, base), RECORD_INLINE)
    }

    /// [`Lit::update`] on one line whatever its width: a record of a table that holds
    /// nothing else (the `evidence` module), read one record per line.
    pub fn update_line<'a>(
        path: &str,
        fields: impl IntoIterator<Item = (&'a str, Option<Lit>)>,
        base: &str,
    ) -> Lit {
        Lit::fields(path, Lit::stated(fields, base), usize::MAX)
    }

    /// The fields that differ from `base`, then `..base` unless every field is stated
    /// (callers list every field of the struct, stated or not).
    fn stated<'a>(
        fields: impl IntoIterator<Item = (&'a str, Option<Lit>)>,
        base: &str,
    ) -> impl Iterator<Item = String> {
        let fields: Vec<(&str, Option<Lit>)> = fields.into_iter().collect();
        let rest = fields.iter().any(|(_, v)| v.is_none());
        let stated = fields
            .into_iter()
            .filter_map(|(n, v)| Some(format!("{n}: {}", v?.0)));
        stated.chain(rest.then(|| format!("..{base}")))
    }

    fn fields(path: &str, fields: impl Iterator<Item = String>, width: usize) -> Lit {
        let fields: Vec<String> = fields.collect();
        let one_line = fields.iter().all(|f| !f.contains('\n'))
            && path.len() + fields.iter().map(|f| f.len() + 2).sum::<usize>() <= width;
        if one_line {
            let inner = fields.join(", ");
            return Lit(format!("{path} {{ {inner} }}"));
        }
        let mut out = format!("{path} {{\n");
        // Short fields (names, offsets, sizes) share lines; a long one has its own.
        let mut line = String::new();
        for f in &fields {
            let end = if f.starts_with("..") { "" } else { "," };
            let short = !f.contains('\n') && f.len() <= PACKED;
            if !line.is_empty() && (!short || line.len() + f.len() + 2 > FIELDS_LINE) {
                push_indented(&mut out, &line, "");
                line.clear();
            }
            if !short {
                push_indented(&mut out, f, end);
                continue;
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(f);
            line.push_str(end);
        }
        if !line.is_empty() {
            push_indented(&mut out, &line, "");
        }
        out.push('}');
        Lit(out)
    }

    /// `base.a(..).b(..)`: on one line when it fits, else one call per line as rustfmt
    /// breaks a chain (a base made long by its string literals stays on its line).
    pub fn chain(base: String, calls: impl IntoIterator<Item = String>) -> Lit {
        let calls: Vec<String> = calls.into_iter().collect();
        let width = base.len() + calls.iter().map(|c| c.len() + 1).sum::<usize>();
        if width <= CHAIN_INLINE && !calls.iter().any(|c| c.contains('\n')) {
            return Lit(calls.iter().fold(base, |out, c| format!("{out}.{c}")));
        }
        Lit(calls.iter().fold(base, |out, c| {
            format!("{out}\n    .{}", c.replace('\n', "\n    "))
        }))
    }

    /// `path(args).a(..).b(..)`: a constructor call and the setters of the parts stated
    /// (`None` leaves a part to the constructor's default), as [`Lit::chain`].
    pub fn built<'a>(
        path: &str,
        args: impl IntoIterator<Item = Lit>,
        calls: impl IntoIterator<Item = (&'a str, Option<Lit>)>,
    ) -> Lit {
        let args: Vec<String> = args.into_iter().map(|a| a.0).collect();
        let base = format!("{path}({})", args.join(", "));
        let calls = calls
            .into_iter()
            .filter_map(|(name, arg)| Some(format!("{name}({})", arg?.0)));
        Lit::chain(base, calls)
    }

    /// `Some(v)` when `v` is not `None`.
    pub fn some(v: Option<Lit>) -> Option<Lit> {
        v.map(|v| Lit::opt(Some(v)))
    }

    /// The slice, unless it is empty.
    pub fn nonempty(items: impl IntoIterator<Item = Lit>) -> Option<Lit> {
        let items: Vec<Lit> = items.into_iter().collect();
        (!items.is_empty()).then(|| Lit::slice(items))
    }
}

/// Appends `text` + `end`, every line indented one level, each ending in a newline.
fn push_indented(out: &mut String, text: &str, end: &str) {
    for line in text.lines() {
        if !line.is_empty() {
            out.push_str("    ");
        }
        out.push_str(line);
        out.push('\n');
    }
    out.pop();
    out.push_str(end);
    out.push('\n');
}

/// The literals one render thread has placed, by placeholder number, and the evidence
/// records they cite, by the thread's own number (see [`Interned`]).
#[derive(Default)]
pub(super) struct Lits {
    lits: RefCell<Vec<Lit>>,
    evidence: RefCell<Table>,
}

const MARK: &str = "__lit!(";

/// Marks an evidence reference in a thread's text until [`Interned::resolve`]: the
/// thread's record number between two U+0001 (a spec string is printed with `{:?}`, which
/// escapes control characters, so none occurs otherwise).
const EVIDENCE_MARK: char = '\u{1}';

/// Distinct record texts in first-use order, each with the name stem of what it cites.
#[derive(Default)]
struct Table {
    texts: Vec<String>,
    stems: Vec<String>,
    index: HashMap<String, usize>,
}

impl Table {
    /// The record's number, and whether this is its first use.
    fn intern(&mut self, text: String, stem: &str) -> (usize, bool) {
        if let Some(&i) = self.index.get(&text) {
            return (i, false);
        }
        self.texts.push(text.clone());
        self.stems.push(stem.to_string());
        self.index.insert(text, self.texts.len() - 1);
        (self.texts.len() - 1, true)
    }
}

/// The constant-name stem of an evidence record: its citation in upper snake case, the
/// source first (`wiki-dropout §3` is `WIKI_DROPOUT_S3`), so a name says what it cites and
/// changes only when records citing the same place come or go.
pub(super) fn evidence_stem(source: &str, cite: &str) -> String {
    let text = match cite.starts_with(source) {
        true => cite.to_string(),
        false => format!("{source} {cite}"),
    };
    let mut snake = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '§' if chars.peek().is_some_and(char::is_ascii_digit) => snake.push('S'),
            c if c.is_ascii_alphanumeric() => snake.push(c.to_ascii_uppercase()),
            _ if !snake.ends_with('_') => snake.push('_'),
            _ => {}
        }
    }
    // Whole words, up to 32 characters (the first word whatever its length).
    let mut stem = String::new();
    for word in snake.split('_').filter(|w| !w.is_empty()) {
        if !stem.is_empty() && stem.len() + 1 + word.len() > 32 {
            break;
        }
        if !stem.is_empty() {
            stem.push('_');
        }
        stem.push_str(word);
    }
    let stem = stem.trim_matches('_');
    match stem.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => stem.to_string(),
        _ => format!("E_{stem}"),
    }
}

impl Lits {
    /// The placeholder tokens that stand for `lit` until [`Lits::splice`]. The number has
    /// a fixed width, so where prettyplease breaks a line does not depend on it (nor on
    /// which thread rendered the piece).
    pub fn embed(&self, lit: Lit) -> TokenStream {
        let mut all = self.lits.borrow_mut();
        let i: Literal = format!("{:08}", all.len())
            .parse()
            .expect("digits are a literal");
        all.push(lit);
        quote!(__lit!(#i))
    }

    /// A reference to the evidence record `record`, stored once per module. The marker's
    /// width does not depend on the thread's numbering, so neither does a line's layout.
    pub fn evidence(&self, stem: &str, record: Lit) -> Lit {
        let (i, _) = self.evidence.borrow_mut().intern(record.0, stem);
        // The stem makes the marker about as wide as the name it becomes.
        Lit(format!("{EVIDENCE_MARK}{i:08}:{stem}{EVIDENCE_MARK}"))
    }

    /// The evidence records this thread cites, by its own number: (stem, text).
    pub fn into_evidence(self) -> Vec<(String, String)> {
        let t = self.evidence.into_inner();
        t.stems.into_iter().zip(t.texts).collect()
    }

    /// Replaces every placeholder in prettyplease's output with its literal; lines after
    /// the first take the placeholder line's indentation.
    pub fn splice(&self, code: &str) -> String {
        let lits = self.lits.borrow();
        let size = code.len() + lits.iter().map(|l| l.0.len()).sum::<usize>();
        let mut out = String::with_capacity(size);
        for line in code.split_inclusive('\n') {
            let indent = &line[..line.len() - line.trim_start().len()];
            let mut rest = line;
            while let Some((before, index, after)) = placeholder(rest) {
                out.push_str(before);
                let mut lines = lits[index].0.lines();
                out.push_str(lines.next().unwrap_or(""));
                for l in lines {
                    out.push('\n');
                    if !l.is_empty() {
                        out.push_str(indent);
                    }
                    out.push_str(l);
                }
                rest = after;
            }
            out.push_str(rest);
        }
        out
    }
}

/// The evidence records of the whole module, numbered in the order the module first
/// cites them, so the numbers do not depend on which thread rendered what.
#[derive(Default)]
pub(super) struct Interned {
    table: Table,
    /// Each record's constant name, by its number.
    names: Vec<String>,
    /// Records named so far per stem.
    per_stem: HashMap<String, usize>,
}

impl Interned {
    /// `text` (rendered by a thread whose records are `records`) with every evidence
    /// marker replaced by the record's name in the `evidence` module.
    pub fn resolve(&mut self, text: &str, records: &[(String, String)]) -> String {
        let mut out = String::with_capacity(text.len());
        let mut parts = text.split(EVIDENCE_MARK);
        out.push_str(parts.next().unwrap_or(""));
        while let (Some(number), Some(after)) = (parts.next(), parts.next()) {
            let number = number.split(':').next().unwrap_or(number);
            let local: usize = number.parse().expect("an evidence marker holds its number");
            let (stem, record) = &records[local];
            let (global, first) = self.table.intern(record.clone(), stem);
            if first {
                let k = self.per_stem.entry(stem.clone()).or_default();
                self.names.push(format!("{stem}_{k}"));
                *k += 1;
            }
            out.push_str("evidence::");
            out.push_str(&self.names[global]);
            out.push_str(after);
        }
        out
    }

    /// The `evidence` module: one constant per record (nothing when none is cited).
    pub fn module(&self) -> String {
        if self.table.texts.is_empty() {
            return String::new();
        }
        let mut out = String::from(
            "/// Every evidence record the tables cite, stated once; the tables name them.\n\
             pub mod evidence {\n    use super::{confidence, meta};\n",
        );
        for (name, text) in self.names.iter().zip(&self.table.texts) {
            let item = format!("pub const {name}: meta::Evidence = {text};");
            push_indented(&mut out, &item, "");
        }
        out.push_str("}\n");
        out
    }
}

/// The first `__lit!(N)` in `s`: the text before it, `N`, and the text after it.
fn placeholder(s: &str) -> Option<(&str, usize, &str)> {
    let at = s.find(MARK)?;
    let digits = at + MARK.len();
    let close = digits + s[digits..].find(')')?;
    let index = s[digits..close].parse().ok()?;
    Some((&s[..at], index, &s[close + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_print_as_rust_literals_of_the_same_text() {
        for s in [
            "plain",
            "q\"uote \\ back",
            "tab\tnl\n§ ✓",
            "\u{7f}\u{0}",
            "'{}'",
        ] {
            let lit: syn::LitStr = syn::parse_str(Lit::str(s).text()).expect("a string literal");
            assert_eq!(lit.value(), s);
        }
    }

    #[test]
    fn placeholders_take_the_indentation_of_their_line() {
        let lits = Lits::default();
        let long = "x".repeat(100);
        let rec = Lit::record("m::R", [("a", Lit::num(1)), ("b", Lit::str(&long))]);
        let tokens = lits.embed(rec).to_string();
        let code = format!("    const X: m::R = {};\n", tokens.replace(' ', ""));
        assert_eq!(
            lits.splice(&code),
            format!(
                "    const X: m::R = m::R {{\n        a: 1,\n        b: \"{long}\",\n    }};\n"
            )
        );
    }

    #[test]
    fn placeholders_have_one_width_whatever_their_number() {
        let lits = Lits::default();
        let first = lits.embed(Lit::num(0)).to_string();
        for _ in 0..1000 {
            lits.embed(Lit::num(1));
        }
        assert_eq!(lits.embed(Lit::num(2)).to_string().len(), first.len());
        let first = lits.evidence("A", Lit::str("a")).text().len();
        let later = (0..1000).map(|i| lits.evidence("A", Lit::num(i)).text().len());
        assert!(later.into_iter().all(|l| l == first));
    }

    #[test]
    fn records_state_only_what_differs_from_their_base() {
        let short = Lit::update(
            "m::R",
            [("a", Some(Lit::num(1))), ("b", None)],
            "m::R::DEFAULT",
        );
        assert_eq!(short.text(), "m::R { a: 1, ..m::R::DEFAULT }");
        let long = "x".repeat(80);
        let rec = Lit::update(
            "m::R",
            [("a", Some(Lit::str(&long))), ("b", None)],
            "m::R::DEFAULT",
        );
        let want = format!("m::R {{\n    a: {long:?},\n    ..m::R::DEFAULT\n}}");
        assert_eq!(rec.text(), want);
        // Every field stated: nothing is left to the base.
        let full = Lit::update("m::R", [("a", Some(Lit::num(1)))], "m::R::DEFAULT");
        assert_eq!(full.text(), "m::R { a: 1 }");
    }

    #[test]
    fn long_slices_fill_lines_or_go_one_element_per_line() {
        let short = Lit::slice([Lit::str("a"), Lit::str("b")]);
        assert_eq!(short.text(), r#"&["a", "b"]"#);
        let long = Lit::slice((0..20).map(|i| Lit::str(&format!("element{i}"))));
        let want = "&[\n    \"element0\", \"element1\", \"element2\", \"element3\", \"element4\", \"element5\", \"element6\", \"element7\",\n";
        assert!(
            long.text().starts_with(want),
            "short elements fill their lines"
        );
        assert!(long.text().ends_with(", \"element19\",\n]"));
        let wide = Lit::slice((0..3).map(|i| Lit::str(&format!("{i}{}", "x".repeat(50)))));
        assert_eq!(
            wide.text().lines().count(),
            5,
            "long elements take a line each"
        );
    }
}
