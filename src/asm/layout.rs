//! What a line's keys name: the leaves of a word the spec lays out, or, for an opcode the
//! spec names but has no word for (pool.bin's EVENT_SEMAPHORE 0xA0), the header and the
//! 8-byte events block every 64-byte word opens with ("Per-Engine TPB-Sequencer Microcode"
//! §1: header, events, then the per-opcode payload; pool.asm prints 0xA0's events as
//! `$S[11]>0`), the payload after them kept as raw bytes.

use serde_json::{Map, Value as Json, json};

use crate::json::JsonFields;
use crate::runtime::meta::{FieldMeta, LeafMeta};
use crate::runtime::wire::put;
use crate::words::{Arch, EVENTS, HEADER, Word, WordMeta, enumerators};

/// A layout a line is read and written with.
#[derive(Clone, Copy)]
pub enum Layout {
    Word(&'static WordMeta),
    /// An opcode without a word: its byte and `OPCODE` enumerator.
    Opcode(u8, &'static str),
}

/// One field a key names, laid out at its absolute offset.
pub struct Slot {
    pub key: String,
    pub leaf: LeafMeta,
}

impl Layout {
    /// The layout `arch` reads `bytes` with; `None` when it names no opcode.
    pub fn of(bytes: &[u8; 64], arch: Arch) -> Option<Layout> {
        Word::identify(bytes, arch).map(Layout::Word).or_else(|| {
            opcode_enumerator(bytes[0], arch).map(|name| Layout::Opcode(bytes[0], name))
        })
    }

    pub fn mnemonic(&self) -> &'static str {
        match self {
            Layout::Word(w) => w.name,
            Layout::Opcode(_, name) => name,
        }
    }

    pub fn slots(&self) -> Vec<Slot> {
        match self {
            Layout::Word(w) => w
                .leaves
                .iter()
                .map(|l| Slot {
                    key: l.path.to_string(),
                    leaf: *l,
                })
                .collect(),
            // The opcode is the mnemonic's: not a key.
            Layout::Opcode(..) => prefixed("header.", 0, &HEADER::FIELDS[1..])
                .chain(prefixed("events.", HEADER::SIZE, EVENTS::FIELDS))
                .collect(),
        }
    }

    /// The bytes a line with no operand gives: the word's template, or the opcode and the
    /// header's constants.
    pub fn template(&self) -> [u8; 64] {
        match self {
            Layout::Word(w) => *w.template,
            Layout::Opcode(op, _) => {
                let mut b = [0u8; 64];
                b[0] = *op;
                for s in self.slots() {
                    if let Some(c) = s.leaf.field.constant {
                        put(&mut b, s.leaf.offset, s.leaf.size, s.leaf.bits, c);
                    }
                }
                b
            }
        }
    }

    /// Where the bytes no key names start (the payload of an opcode without a word).
    pub fn raw_from(&self) -> usize {
        match self {
            Layout::Word(_) => 64,
            Layout::Opcode(..) => HEADER::SIZE + EVENTS::SIZE,
        }
    }

    /// The reading of every field `bytes` shows, (key, value in the JSON shape), in offset
    /// order (a union shows its selected arm only).
    pub fn read(&self, bytes: &[u8; 64], arch: Arch) -> Vec<(String, Json)> {
        match self {
            Layout::Word(w) => {
                let Some(word) = Word::decode(bytes, arch) else {
                    return Vec::new();
                };
                let mut fields = JsonFields::new(bytes);
                word.visit(&mut fields, arch);
                let mut out = Vec::new();
                if let Json::Object(m) = fields.finish().0 {
                    flatten(&m, "", w.leaves, &mut out);
                }
                let at = |k: &str| w.leaves.iter().position(|l| l.path == k);
                out.sort_by_key(|(k, _)| at(k));
                out
            }
            Layout::Opcode(..) => self
                .slots()
                .into_iter()
                .map(|s| {
                    let raw = s.leaf.raw(bytes);
                    let value = match enumerators(s.leaf.type_name) {
                        Some(values) => {
                            let name = values.iter().find(|e| e.value == raw).map(|e| e.name);
                            json!({ "raw": raw, "name": name })
                        }
                        None => json!(raw),
                    };
                    (s.key, value)
                })
                .collect(),
        }
    }
}

/// `fields` of a shared struct at `base`, keyed `prefix` + name.
fn prefixed(
    prefix: &'static str,
    base: usize,
    fields: &'static [FieldMeta],
) -> impl Iterator<Item = Slot> {
    fields.iter().map(move |f| Slot {
        key: format!("{prefix}{}", f.name),
        leaf: LeafMeta::of(f.name, base + f.offset, f),
    })
}

/// The `OPCODE` enumerator `arch` has for `op`.
fn opcode_enumerator(op: u8, arch: Arch) -> Option<&'static str> {
    enumerators("OPCODE")?
        .iter()
        .find(|e| e.value == u64::from(op) && (e.arch.is_empty() || e.arch.contains(&arch.name())))
        .map(|e| e.name)
}

/// The leaves of a decoded word's JSON `fields`, as (path, value).
fn flatten(
    obj: &Map<String, Json>,
    prefix: &str,
    leaves: &[LeafMeta],
    out: &mut Vec<(String, Json)>,
) {
    for (key, value) in obj {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        if leaves.iter().any(|l| l.path == path) {
            out.push((path, value.clone()));
            continue;
        }
        match value {
            Json::Object(m) => flatten(m, &path, leaves, out),
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let Json::Object(m) = item {
                        flatten(m, &format!("{path}[{i}]"), leaves, out);
                    }
                }
            }
            _ => {}
        }
    }
}
