//! One emitter per target. Each reads only the resolved [`crate::model::Model`] and
//! returns its files; none of them re-reads the spec.

pub mod c;
pub mod json;
pub mod kaitai;
pub mod markdown;
pub mod rust;
pub mod schema;
pub mod svd;
pub mod systemrdl;
pub mod viewer;

pub use crate::naming::plural;

/// Doc text for rustdoc: spec prose may hold `[0]`, `[INFERRED]` or `<NcCopy>`, which
/// Markdown would read as links or HTML tags. Outside code spans those characters are
/// escaped; intra-doc links the emitters write (`` [`X`] ``, `` [`X`](path) ``) are kept.
pub fn escape_doc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut code = false;
    let mut chars = text.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        match c {
            '`' => code = !code,
            '[' if !code && chars.peek() != Some(&'`') => out.push('\\'),
            ']' if !code && prev != '`' => out.push('\\'),
            '<' if !code => out.push('\\'),
            _ => {}
        }
        out.push(c);
        prev = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape_doc;

    #[test]
    fn doc_text_keeps_code_and_links_and_escapes_the_rest() {
        assert_eq!(
            escape_doc("a[0] <NcCopy> `x[1] <y>`"),
            "a\\[0\\] \\<NcCopy> `x[1] <y>`"
        );
        assert_eq!(
            escape_doc("see [`X`](super::X) and [`Y`]"),
            "see [`X`](super::X) and [`Y`]"
        );
    }
}
