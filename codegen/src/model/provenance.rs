//! What every sub-model shares: the common confidence ordering, the sources' scales, the
//! sources, architectures and evidence records, all resolved.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Level {
    pub name: String,
    pub doc: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Scale {
    pub name: String,
    pub doc: String,
    /// (tag, common level name), strongest first.
    pub levels: Vec<(String, String)>,
}

impl Scale {
    /// The Rust name of a tag's constant in this scale's module (`HIGH/OBSERVED` ->
    /// `HIGH_OBSERVED`, `[INFERRED]` -> `INFERRED`).
    pub fn const_name(tag: &str) -> String {
        let mut out = String::new();
        for c in tag.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c);
            } else if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
        }
        let out = out.trim_end_matches('_');
        match out.chars().next() {
            Some(c) if c.is_ascii_alphabetic() => out.to_string(),
            _ => format!("T_{out}"),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Source {
    pub id: String,
    pub title: String,
    pub file: String,
    pub scale: String,
    pub doc: Option<String>,
    /// Its headings in page order (see [`section_key`]); `None` when the spec does not
    /// declare them, so its citations are not checked.
    pub sections: Option<Vec<String>>,
}

/// The source id a citation starts with (`"seed-004 §2"` -> `seed-004`).
pub fn source_id(cite: &str) -> &str {
    cite.split_whitespace().next().unwrap_or("")
}

/// What a citation writes to name a heading: its number (`2`, `3.1`) when the heading is
/// numbered, else its text up to the first ` — `, backticks dropped (`Static arm`,
/// `assign64bitAddr`).
pub fn section_key(heading: &str) -> String {
    let number: String = heading
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let number = number.trim_end_matches('.');
    // A lettered sub-section (`1.3a`) keeps its letter.
    let lettered = heading[number.len()..]
        .chars()
        .next()
        .filter(|c| c.is_ascii_lowercase() && !number.is_empty())
        .map_or(number.len(), |_| number.len() + 1);
    if !number.is_empty() && heading[lettered..].starts_with(['.', ' ']) {
        return heading[..lettered].to_string();
    }
    let plain = heading.replace('`', "");
    plain.split(" — ").next().unwrap_or("").trim().to_string()
}

#[derive(Debug, Clone, Serialize)]
pub struct Arch {
    pub name: String,
    pub nc: u8,
    pub doc: String,
}

/// A confidence tag as written, with where it sits on the common ordering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Confidence {
    pub tag: String,
    pub scale: String,
    /// The common level's name.
    pub level: String,
    /// Position in the common ordering; 0 is strongest.
    pub rank: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Evidence {
    /// Document id (a declared source).
    pub source: String,
    /// The full citation as written, document plus section.
    pub cite: String,
    /// The name this source uses for the thing, when it differs from the declaration's
    /// (the spec's `name` key).
    #[serde(rename = "name")]
    pub alias: Option<String>,
    /// The assert / `_STRUCT` / `instr.<field>` string in the source that names it.
    pub names: Option<String>,
    pub pin: Option<String>,
    pub value: Option<String>,
    pub confidence: Confidence,
    pub note: Option<String>,
    /// The declared heading `cite` names (see [`Source::sections`]); `None` for a citation
    /// of the whole document or of a source without declared sections. Not serialized:
    /// `cite` and the source's `sections` give it.
    #[serde(skip)]
    pub section: Option<String>,
}
