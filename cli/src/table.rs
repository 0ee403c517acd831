//! `decode` without `--json`: a readable table per word.

use std::fmt::Write as _;

use dmaspec::json::PathStack;
use dmaspec::runtime::meta::{FieldMeta, JoinMeta, LeafMeta, Role};
use dmaspec::runtime::visit::{Group, Value, Visitor};

use dmaspec::runtime::text::canonical_text;

use super::hex_string;

/// Collects the rows of one word's table.
pub struct TableRows {
    /// The word's leaves, whose confidence the rows show.
    leaves: &'static [LeafMeta],
    path: PathStack,
    pub rows: Vec<[String; 5]>,
    /// Bytes of a reserved/unknown array being collected into one row.
    raw: Option<(String, usize, &'static FieldMeta, Vec<u8>)>,
}

impl TableRows {
    /// The rows of a word with these leaves.
    pub fn new(leaves: &'static [LeafMeta]) -> Self {
        TableRows {
            leaves,
            path: PathStack::default(),
            rows: Vec::new(),
            raw: None,
        }
    }

    /// The confidence column of the row at `path`: its leaf's (an array leaf's, for one
    /// element). Unknown bytes have none to show: nobody claims a meaning for them.
    fn confidence_text(&self, path: &str) -> String {
        let leaf = leaf_at(self.leaves, path);
        leaf.and_then(|l| l.confidence)
            .map_or("-".to_string(), |c| c.tag.to_string())
    }
}

/// The leaf a value at `path` belongs to: the leaf itself, or the array leaf it is one
/// element of (`src_num_elem[1]`).
fn leaf_at(leaves: &'static [LeafMeta], path: &str) -> Option<&'static LeafMeta> {
    leaves.iter().find(|l| {
        path.strip_prefix(l.path)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
    })
}

fn value_text(v: Value) -> (String, String) {
    match v {
        Value::Unsigned(u) if u > 9 => (format!("{u} ({u:#x})"), String::new()),
        Value::Unsigned(u) => (u.to_string(), String::new()),
        Value::Signed(i) => (i.to_string(), String::new()),
        Value::Enum { raw, name } => (
            format!("{raw:#x}"),
            name.unwrap_or("(not an enumerator)").to_string(),
        ),
        Value::Flags { raw, .. } => {
            let mut names: Vec<String> = v.flag_names().map(str::to_string).collect();
            let rest = v.unnamed_flag_bits();
            if rest != 0 {
                names.push(format!("unnamed bits {rest:#x}"));
            }
            (format!("{raw:#04x}"), names.join("|"))
        }
        Value::Text(bytes) => match canonical_text(bytes) {
            Some(text) => (format!("{text:?}"), "text".to_string()),
            None => (hex_string(bytes), "text, not NUL-padded ASCII".to_string()),
        },
    }
}

impl Visitor for TableRows {
    fn enter(&mut self, field: &'static FieldMeta, offset: usize, group: Group) {
        if group == Group::Array && field.role != Role::Data && field.type_name.starts_with("u8[") {
            let path = self.path.leaf(field.name);
            self.raw = Some((path, offset, field, Vec::new()));
        }
        self.path.enter(field.name, group);
    }

    fn leave(&mut self, _group: Group) {
        self.path.leave();
        if let Some((path, offset, field, bytes)) = self.raw.take() {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let meaning = match field.role {
                Role::Reserved => "reserved",
                _ => "UNKNOWN (kept raw)",
            };
            let confidence = self.confidence_text(&path);
            self.rows.push([
                format!("+{offset:#04x}"),
                path,
                hex,
                meaning.to_string(),
                confidence,
            ]);
        }
    }

    fn value(&mut self, field: &'static FieldMeta, offset: usize, value: Value<'_>) {
        if let (Some((_, _, _, bytes)), Value::Unsigned(b)) = (self.raw.as_mut(), value) {
            bytes.push(b as u8);
            return;
        }
        let path = self.path.leaf(field.name);
        let mut at = format!("+{offset:#04x}");
        if let Some((lsb, width)) = field.bits {
            if width == 1 {
                let _ = write!(at, " b{lsb}");
            } else {
                let _ = write!(at, " b{lsb}..{}", lsb + width - 1);
            }
        }
        let (mut val, mut meaning) = value_text(value);
        let raw = dmaspec::json::raw_bits(value);
        if let Some(codec) = field.codec
            && codec.decode(raw) != raw
        {
            val = format!("{val} (= {})", codec.decode(raw));
        }
        match field.constant {
            Some(c) if c == raw => meaning = join(&meaning, "constant"),
            Some(c) => meaning = join(&meaning, &format!("CONSTANT MISMATCH: expected {c:#x}")),
            None => {}
        }
        match field.role {
            Role::Data => {}
            Role::Reserved => meaning = join(&meaning, "reserved"),
            Role::Unknown => meaning = join(&meaning, "UNKNOWN (kept raw)"),
        }
        for a in field.alternatives {
            meaning = join(&meaning, &format!("CONFLICT: also read as {}", a.name));
        }
        let confidence = self.confidence_text(&path);
        self.rows.push([at, path, val, meaning, confidence]);
    }

    fn joined(&mut self, join: &'static JoinMeta, _offset: usize, value: u64) {
        let parts: Vec<&str> = join.parts.iter().map(|p| p.0).collect();
        // Where the parts are (a joined value has no offset of its own).
        let at: Vec<&str> = parts
            .iter()
            .filter_map(|p| {
                let path = self.path.leaf(p);
                self.rows
                    .iter()
                    .find(|r| r[1] == path)
                    .map(|r| r[0].as_str())
            })
            .collect();
        self.rows.push([
            at.join(", "),
            self.path.leaf(join.name),
            format!("{value} ({value:#x})"),
            format!("joined from {}", parts.join(" + ")),
            join.confidence.tag.to_string(),
        ]);
    }
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}; {b}")
    }
}

/// Lays rows out in aligned columns under the decode header.
pub fn render(rows: &[[String; 5]]) -> String {
    let header = ["offset", "field", "value", "meaning", "confidence"].map(String::from);
    render_columns(&header, rows)
}

/// Lays `rows` out in aligned columns under `header`.
pub fn render_columns(header: &[String; 5], rows: &[[String; 5]]) -> String {
    let mut widths = [0usize; 5];
    for r in std::iter::once(header).chain(rows) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    for r in std::iter::once(header).chain(rows) {
        let mut line = String::new();
        for (i, (c, w)) in r.iter().zip(widths).enumerate() {
            if i + 1 == r.len() {
                line.push_str(c);
            } else {
                let _ = write!(line, "{c:<w$}  ");
            }
        }
        out.push_str("  ");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
