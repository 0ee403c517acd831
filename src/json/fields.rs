//! Words to the JSON shape: each word's fields as a JSON object mirroring the struct, built
//! by a visitor (what `dmaspec decode --json` prints under `fields`).

use serde_json::{Map, Value as Json, json};

use crate::runtime::meta::{FieldMeta, JoinMeta};
use crate::runtime::text::canonical_text;
use crate::runtime::visit::{Group, Value, Visitor};

use super::path::PathStack;

/// Builds the `fields` object of one instruction, and its `alternatives`.
pub struct JsonFields<'w> {
    /// The word (or record), for reading a composite field's bytes under an alternative reading.
    bytes: &'w [u8],
    /// (key, container) per open group; the bottom one is the word itself.
    stack: Vec<(&'static str, Json)>,
    path: PathStack,
    alternatives: Map<String, Json>,
    joined: Map<String, Json>,
}

impl<'w> JsonFields<'w> {
    /// A builder for the word `bytes`; pass it to the decoded word's `visit`.
    pub fn new(bytes: &'w [u8]) -> Self {
        JsonFields {
            bytes,
            stack: vec![("", Json::Object(Map::new()))],
            path: PathStack::default(),
            alternatives: Map::new(),
            joined: Map::new(),
        }
    }

    /// Records every alternative reading of `field`, whose bits are `raw`.
    fn alternatives_of(&mut self, path: String, field: &'static FieldMeta, raw: u64) {
        if field.alternatives.is_empty() {
            return;
        }
        let alts: Vec<Json> = field
            .alternatives
            .iter()
            .map(|a| {
                json!({
                    "name": a.name,
                    "type": a.type_name,
                    "value": raw,
                    "confidence": a.confidence.tag,
                    "sources": a.evidence.iter().map(|e| e.cite).collect::<Vec<_>>(),
                })
            })
            .collect();
        self.alternatives.insert(path, Json::Array(alts));
    }

    /// (fields, alternatives keyed by field path, joined values keyed by path)
    pub fn finish(mut self) -> (Json, Map<String, Json>, Map<String, Json>) {
        let fields = self.stack.pop().map_or(Json::Null, |(_, v)| v);
        (fields, self.alternatives, self.joined)
    }

    fn insert(&mut self, key: &'static str, v: Json) {
        match self.stack.last_mut() {
            Some((_, Json::Object(m))) => {
                m.insert(key.to_string(), v);
            }
            Some((_, Json::Array(a))) => a.push(v),
            _ => {}
        }
    }
}

/// A leaf as the JSON shape has it.
pub fn leaf_json(v: Value) -> Json {
    match v {
        Value::Unsigned(u) => json!(u),
        Value::Signed(i) => json!(i),
        Value::Enum { raw, name } => json!({ "raw": raw, "name": name }),
        Value::Flags { raw, .. } => {
            let names: Vec<&str> = v.flag_names().collect();
            json!({ "raw": raw, "flags": names })
        }
        // Text + NUL padding reads as a string; anything else keeps every byte.
        Value::Text(bytes) => match canonical_text(bytes) {
            Some(text) => json!(text),
            None => json!({
                "text": text_before_nul(bytes),
                "raw_hex": hex_string(bytes),
            }),
        },
    }
}

/// What an ASCII field's bytes read as text: those before the first NUL.
pub(crate) fn text_before_nul(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes.split(|&b| b == 0).next().unwrap_or(&[]))
}

/// The raw bits of a leaf, for showing the same bytes under another reading.
pub fn raw_bits(v: Value) -> u64 {
    match v {
        Value::Unsigned(u) => u,
        Value::Signed(i) => i as u64,
        Value::Enum { raw, .. } | Value::Flags { raw, .. } => raw,
        Value::Text(bytes) => le_value(bytes, 0, bytes.len()),
    }
}

/// Little-endian value of `size` bytes at `offset` (at most 8 bytes are significant).
fn le_value(bytes: &[u8], offset: usize, size: usize) -> u64 {
    let end = (offset + size.min(8)).min(bytes.len());
    bytes[offset.min(end)..end]
        .iter()
        .rev()
        .fold(0u64, |acc, b| acc << 8 | u64::from(*b))
}

impl Visitor for JsonFields<'_> {
    fn enter(&mut self, field: &'static FieldMeta, offset: usize, group: Group) {
        // The group's own path (`descriptor_imm[1]`): entering takes its array index once.
        self.path.enter(field.name, group);
        if !field.alternatives.is_empty() {
            let path = self.path.current();
            self.alternatives_of(path, field, le_value(self.bytes, offset, field.size));
        }
        let container = match group {
            Group::Array => Json::Array(Vec::new()),
            _ => Json::Object(Map::new()),
        };
        self.stack.push((field.name, container));
    }

    fn leave(&mut self, _group: Group) {
        self.path.leave();
        if let Some((key, v)) = self.stack.pop() {
            self.insert(key, v);
        }
    }

    fn value(&mut self, field: &'static FieldMeta, _offset: usize, value: Value<'_>) {
        let path = self.path.leaf(field.name);
        self.alternatives_of(path, field, raw_bits(value));
        self.insert(field.name, leaf_json(value));
    }

    fn joined(&mut self, join: &'static JoinMeta, _offset: usize, value: u64) {
        let path = self.path.leaf(join.name);
        let parts: Vec<&str> = join.parts.iter().map(|p| p.0).collect();
        self.joined
            .insert(path, json!({ "value": value, "parts": parts }));
    }
}

/// Lowercase hex, no separators (how the JSON shape writes raw bytes).
pub fn hex_string(bytes: &[u8]) -> String {
    use core::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}
