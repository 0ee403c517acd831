//! The metadata tables (`FIELDS`, `META`, `RULES`, `LOWERINGS`, ...) as literal text.
//!
//! They are two thirds of the generated module and pure data, so they skip the
//! quote → syn → prettyplease round trip that the code goes through: each table entry is
//! built as a [`Lit`], stands in the token stream as a `__lit!(N)` placeholder, and is
//! spliced into prettyplease's output at the placeholder's indentation. The printed form
//! is the one prettyplease gives long literals: one field or element per line.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// A Rust constant expression as text, starting at column 0, possibly over several lines.
#[derive(Debug, Clone)]
pub(super) struct Lit(String);

/// Width up to which a slice of one-line items stays on one line.
const INLINE: usize = 72;

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
        for i in &items {
            push_indented(&mut out, &i.0, ",");
        }
        out.push(']');
        Lit(out)
    }

    /// `path { name: value, ... }`, one field per line.
    pub fn record<'a>(path: &str, fields: impl IntoIterator<Item = (&'a str, Lit)>) -> Lit {
        let mut out = format!("{path} {{\n");
        for (name, value) in fields {
            push_indented(&mut out, &format!("{name}: {}", value.0), ",");
        }
        out.push('}');
        Lit(out)
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

/// The literals of one generated module, by placeholder number.
#[derive(Default)]
pub(super) struct Lits(RefCell<Vec<Lit>>);

const MARK: &str = "__lit!(";

impl Lits {
    /// The placeholder tokens that stand for `lit` until [`Lits::splice`].
    pub fn embed(&self, lit: Lit) -> TokenStream {
        let mut all = self.0.borrow_mut();
        let i = Literal::usize_unsuffixed(all.len());
        all.push(lit);
        quote!(__lit!(#i))
    }

    /// Replaces every placeholder in prettyplease's output with its literal; lines after
    /// the first take the placeholder line's indentation.
    pub fn splice(&self, code: &str) -> String {
        let lits = self.0.borrow();
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
        let rec = Lit::record("m::R", [("a", Lit::num(1)), ("b", Lit::slice([]))]);
        let tokens = lits.embed(rec).to_string();
        let code = format!("    const X: m::R = {};\n", tokens.replace(' ', ""));
        assert_eq!(
            lits.splice(&code),
            "    const X: m::R = m::R {\n        a: 1,\n        b: &[],\n    };\n"
        );
    }

    #[test]
    fn long_slices_go_one_element_per_line() {
        let short = Lit::slice([Lit::str("a"), Lit::str("b")]);
        assert_eq!(short.text(), r#"&["a", "b"]"#);
        let long = Lit::slice((0..20).map(|i| Lit::str(&format!("element{i}"))));
        assert!(long.text().starts_with("&[\n    \"element0\",\n"));
        assert!(long.text().ends_with("    \"element19\",\n]"));
    }
}
