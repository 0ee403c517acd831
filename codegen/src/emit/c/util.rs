//! Names, literals and comments of the C headers: keyword-safe identifiers, header and
//! guard names, hex literals, member docs and wrapped `/** */` comments.

use std::fmt::Write as _;

use crate::model::*;
pub use crate::naming::c::{header_file, member, reserved};

/// Column limit for wrapped comments.
const WIDTH: usize = 100;

/// The C name without its `_STRUCT` suffix: `NEURON_ISA_TPB_DMA_DIRECT2D`.
pub fn stem(t: &TypeDef) -> &str {
    t.c_name.strip_suffix("_STRUCT").unwrap_or(&t.c_name)
}

/// The header a word lives in, as shipped: `aws_neuron_isa_tpb_dma_direct2d.h`.
pub fn word_header(t: &TypeDef) -> String {
    header_file(stem(t))
}

/// The C type of one arm of a union: `NEURON_ISA_TPB_ADDR8_addr_reg`.
pub fn arm_type(union: &TypeDef, v: &Variant) -> String {
    format!("{}_{}", union.c_name, v.name)
}

pub(super) fn guard(file: &str) -> String {
    let mut g = String::from("DMASPEC_");
    g.extend(file.chars().map(|c| {
        if c.is_ascii_alphanumeric() {
            c.to_ascii_uppercase()
        } else {
            '_'
        }
    }));
    g
}

pub(super) fn hex(v: u64, repr: Int) -> String {
    format!("0x{v:0w$x}", w = repr.size() * 2)
}

/// Suffix that makes a literal of `repr`'s width unsigned.
pub(super) fn suffix(repr: Int) -> &'static str {
    if repr.size() == 8 { "ull" } else { "u" }
}

pub(super) fn confidence(c: &Confidence) -> String {
    format!("Confidence: {} ({}).", c.tag, c.level)
}

/// One paragraph for a member: where it sits, its doc, its confidence (none for an unknown
/// member, which claims no meaning).
pub(super) fn member_doc(place: &str, doc: &str, c: Option<&Confidence>) -> String {
    let doc = doc.trim();
    let sep = if doc.is_empty() || doc.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    match c {
        Some(c) => format!("{place} {doc}{sep} {}", confidence(c)),
        None => format!("{place} {doc}{sep}").trim_end().to_string(),
    }
}

/// Text that can sit inside a `/* */` comment (no `*/` to end it early, no `/*` for
/// `-Wcomment`).
pub(super) fn comment_safe(s: &str) -> String {
    s.replace("*/", "*\\/").replace("/*", "/\\*")
}

/// Greedy word wrap of one paragraph to `width` columns (a longer word stands alone).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A doc comment of paragraphs (empty ones dropped): one line when it fits, else a
/// wrapped block.
pub(super) fn doc(out: &mut String, indent: &str, paras: &[String]) {
    let paras: Vec<String> = paras
        .iter()
        .flat_map(|p| p.split("\n\n"))
        .map(|p| comment_safe(&p.split_whitespace().collect::<Vec<_>>().join(" ")))
        .filter(|p| !p.is_empty())
        .collect();
    if paras.is_empty() {
        return;
    }
    if paras.len() == 1 && indent.len() + paras[0].chars().count() + 7 <= WIDTH {
        let _ = writeln!(out, "{indent}/** {} */", paras[0]);
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for (i, p) in paras.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(out, "{indent} *");
        }
        for l in wrap(p, WIDTH.saturating_sub(indent.len() + 3).max(20)) {
            let _ = writeln!(out, "{indent} * {l}");
        }
    }
    let _ = writeln!(out, "{indent} */");
}

pub(super) fn static_assert(out: &mut String, cond: &str, msg: &str) {
    let _ = writeln!(out, "DMASPEC_STATIC_ASSERT({cond}, \"{msg}\");");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_and_escapes() {
        let mut out = String::new();
        doc(&mut out, "", &["a */ b /* c".to_string()]);
        assert_eq!(out, "/** a *\\/ b /\\* c */\n");
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
    }
}
