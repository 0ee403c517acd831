//! One value of a `name=value` operand, both ways: a leaf's reading (the JSON shape of
//! [`crate::json`]) as text, and text back to the JSON value the encoder lays in.
//!
//! Numbers are decimal as the producer prints them (`block_id=0`, `num_elements=32`);
//! `0x` hex and a leading `-` are read too. Enumerators go by name (`op=ADD`); `DTYPE`'s
//! print lowercase as pe.asm's `dtype=fp32` and the profiler's `fp16@…` do, and a name that is
//! no enumerator's exact spelling is read whatever its case. Flags are names joined by `|`; an array of integers is
//! `[a,b,…]`; text is `"…"`, or `0x` and every byte of the field when it is not plain
//! printable text.

use serde_json::{Value as Json, json};

use crate::json::hex_string;
use crate::names::echo;
use crate::runtime::meta::{EnumeratorMeta, LeafMeta};
use crate::runtime::text::canonical_text;
use crate::words::{enumerators, flag_bits};

/// The enum type whose names print lowercase, as the producer's tools print element types.
const LOWERCASE_ENUM: &str = "DTYPE";

/// Whether `leaf` holds text (a NUL-padded ASCII field).
pub fn is_text(leaf: &LeafMeta) -> bool {
    leaf.type_name.starts_with("ascii[")
}

/// The text of `leaf` in `bytes` when it can stand bare (a queue name): plain text that
/// reads as one identifier.
pub fn bare_text<'b>(leaf: &LeafMeta, bytes: &'b [u8; 64]) -> Option<&'b str> {
    let text = canonical_text(&bytes[leaf.offset..leaf.offset + leaf.size])?;
    let mut chars = text.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() || first == '_')
        .then_some(text)
        .filter(|_| chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'))
}

/// `value`, the reading of `leaf` in `bytes`, as operand text.
pub fn render(leaf: &LeafMeta, value: &Json, bytes: &[u8; 64]) -> String {
    if is_text(leaf) {
        let field = &bytes[leaf.offset..leaf.offset + leaf.size];
        return match canonical_text(field) {
            Some(t)
                if t.bytes()
                    .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\') =>
            {
                format!("\"{t}\"")
            }
            _ => format!("0x{}", hex_string(field)),
        };
    }
    render_json(leaf.type_name, value)
}

fn render_json(type_name: &str, value: &Json) -> String {
    match value {
        Json::Object(m) => {
            let raw = m.get("raw").and_then(Json::as_u64).unwrap_or(0);
            if let Some(Json::String(name)) = m.get("name") {
                return if type_name == LOWERCASE_ENUM {
                    name.to_ascii_lowercase()
                } else {
                    name.clone()
                };
            }
            match m.get("flags") {
                Some(Json::Array(names)) if raw != 0 && covers(type_name, names, raw) => names
                    .iter()
                    .filter_map(Json::as_str)
                    .collect::<Vec<_>>()
                    .join("|"),
                _ => raw.to_string(),
            }
        }
        Json::Array(items) => {
            let items: Vec<String> = items.iter().map(|i| render_json("", i)).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// Whether the flag `names` account for every set bit of `raw`.
fn covers(type_name: &str, names: &[Json], raw: u64) -> bool {
    let bits = flag_bits(type_name).unwrap_or(&[]);
    let named = names
        .iter()
        .filter_map(Json::as_str)
        .filter_map(|n| bits.iter().find(|b| b.name == n))
        .fold(0u64, |acc, b| acc | 1 << b.bit);
    named == raw
}

/// The JSON value the text `token` gives `leaf`, or what was expected.
pub fn parse(leaf: &LeafMeta, token: &str) -> Result<Json, String> {
    let ty = leaf.type_name;
    if is_text(leaf) {
        return parse_text(token);
    }
    if let Some(inner) = token.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or("an array ends with `]`")?;
        let items = (!inner.is_empty())
            .then(|| inner.split(','))
            .into_iter()
            .flatten();
        return items
            .map(number)
            .collect::<Result<Vec<_>, _>>()
            .map(Json::Array);
    }
    if token.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return number(token);
    }
    if let Some(values) = enumerators(ty) {
        // Exact spellings first: some aliases differ from another value's name in case only.
        let exact = |e: &&EnumeratorMeta| e.name == token || e.aliases.contains(&token);
        return (values.iter().find(exact))
            .or_else(|| values.iter().find(|e| e.name.eq_ignore_ascii_case(token)))
            .map(|e| Json::String(e.name.to_string()))
            .ok_or_else(|| format!("`{}` is not a {ty} enumerator", echo(token)));
    }
    if flag_bits(ty).is_some() {
        let names: Vec<Json> = token.split('|').map(|n| json!(n)).collect();
        return Ok(Json::Array(names));
    }
    Err(format!("expected a number for {ty}, got `{}`", echo(token)))
}

/// Text as `"…"` (or a bare identifier), or every byte of the field as `0x…`.
fn parse_text(token: &str) -> Result<Json, String> {
    if let Some(hex) = token.strip_prefix("0x") {
        return Ok(json!({ "raw_hex": hex }));
    }
    match token.strip_prefix('"') {
        Some(rest) => rest
            .strip_suffix('"')
            .map(|t| json!(t))
            .ok_or_else(|| "text ends with `\"`".to_string()),
        None => Ok(json!(token)),
    }
}

/// A decimal or `0x` hex integer, with an optional leading `-`.
pub fn number(token: &str) -> Result<Json, String> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    // `from_str_radix` takes a sign of its own: only digits are read here.
    let (radix, body) = match digits.strip_prefix("0x") {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    let not = || format!("expected a number, got `{}`", echo(token));
    let m = (!body.is_empty() && body.chars().all(|c| c.is_digit(radix)))
        .then(|| u64::from_str_radix(body, radix).ok())
        .flatten()
        .ok_or_else(not)?;
    if !negative {
        return Ok(json!(m));
    }
    i64::try_from(m)
        .ok()
        .and_then(i64::checked_neg)
        .or((m == 1u64 << 63).then_some(i64::MIN))
        .map(|i| json!(i))
        .ok_or_else(not)
}
