//! Names, literals and comments of the C headers: keyword-safe identifiers, header and
//! guard names, hex literals, member docs and wrapped `/** */` comments.

use std::fmt::Write as _;

use super::WIDTH;
use crate::model::*;

/// The C name without its `_STRUCT` suffix: `NEURON_ISA_TPB_DMA_DIRECT2D`.
pub fn stem(t: &TypeDef) -> &str {
    t.c_name.strip_suffix("_STRUCT").unwrap_or(&t.c_name)
}

/// The header a word lives in, as shipped: `aws_neuron_isa_tpb_dma_direct2d.h`.
pub fn word_header(t: &TypeDef) -> String {
    header_file(stem(t))
}

/// The header of the word whose C name (without `_STRUCT`) is `stem`.
pub fn header_file(stem: &str) -> String {
    let s = stem.strip_prefix("NEURON_ISA_TPB_").unwrap_or(stem);
    format!("aws_neuron_isa_tpb_{}.h", s.to_ascii_lowercase())
}

/// The C type of one arm of a union: `NEURON_ISA_TPB_ADDR8_addr_reg`.
pub fn arm_type(union: &TypeDef, v: &Variant) -> String {
    format!("{}_{}", union.c_name, v.name)
}

/// A spec name as a C/C++ member name: itself, or with a trailing `_` if it is a keyword
/// or standard name of either language ([`reserved`]).
pub fn member(name: &str) -> String {
    if reserved(name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// A C or C++ keyword, or a name the headers' standard includes (`<stddef.h>`,
/// `<stdint.h>`, `<stdbool.h>`) or the C++ standard library define: no generated name may
/// be one. File-scope names are checked by the loader; members are escaped by [`member`].
pub fn reserved(name: &str) -> bool {
    KEYWORDS.binary_search(&name).is_ok()
        || STD_NAMES.binary_search(&name).is_ok()
        || name.starts_with("__")
        || name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase())
}

/// Types, macros and names of the standard headers the generated ones include, sorted.
const STD_NAMES: &[&str] = &[
    "EOF",
    "INT16_C",
    "INT16_MAX",
    "INT16_MIN",
    "INT32_C",
    "INT32_MAX",
    "INT32_MIN",
    "INT64_C",
    "INT64_MAX",
    "INT64_MIN",
    "INT8_C",
    "INT8_MAX",
    "INT8_MIN",
    "INTMAX_C",
    "INTMAX_MAX",
    "INTMAX_MIN",
    "INTPTR_MAX",
    "INTPTR_MIN",
    "NULL",
    "PTRDIFF_MAX",
    "PTRDIFF_MIN",
    "SIG_ATOMIC_MAX",
    "SIG_ATOMIC_MIN",
    "SIZE_MAX",
    "UINT16_C",
    "UINT16_MAX",
    "UINT32_C",
    "UINT32_MAX",
    "UINT64_C",
    "UINT64_MAX",
    "UINT8_C",
    "UINT8_MAX",
    "UINTMAX_C",
    "UINTMAX_MAX",
    "UINTPTR_MAX",
    "WCHAR_MAX",
    "WCHAR_MIN",
    "WINT_MAX",
    "WINT_MIN",
    "assert",
    "errno",
    "int16_t",
    "int32_t",
    "int64_t",
    "int8_t",
    "int_fast16_t",
    "int_fast32_t",
    "int_fast64_t",
    "int_fast8_t",
    "int_least16_t",
    "int_least32_t",
    "int_least64_t",
    "int_least8_t",
    "intmax_t",
    "intptr_t",
    "main",
    "max_align_t",
    "nullptr_t",
    "offsetof",
    "ptrdiff_t",
    "size_t",
    "std",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "uint8_t",
    "uint_fast16_t",
    "uint_fast32_t",
    "uint_fast64_t",
    "uint_fast8_t",
    "uint_least16_t",
    "uint_least32_t",
    "uint_least64_t",
    "uint_least8_t",
    "uintmax_t",
    "uintptr_t",
    "wint_t",
];

/// C11 and C++17/20 keywords and alternative tokens, sorted (for `binary_search`).
const KEYWORDS: &[&str] = &[
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

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

/// One paragraph for a member: where it sits, its doc, its confidence.
pub(super) fn member_doc(place: &str, doc: &str, c: &Confidence) -> String {
    let doc = doc.trim();
    let sep = if doc.is_empty() || doc.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!("{place} {doc}{sep} {}", confidence(c))
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
    fn keywords_sorted() {
        assert!(KEYWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STD_NAMES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(member("default"), "default_");
        assert_eq!(member("uint8_t"), "uint8_t_");
        assert_eq!(member("_Foo"), "_Foo_");
        assert_eq!(member("flags"), "flags");
    }

    #[test]
    fn wraps_and_escapes() {
        let mut out = String::new();
        doc(&mut out, "", &["a */ b /* c".to_string()]);
        assert_eq!(out, "/** a *\\/ b /\\* c */\n");
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
    }
}
