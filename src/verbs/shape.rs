//! The JSON shape of words (decode's output, encode's input) beyond the fields the library
//! writes: where a word is, what is wrong with it, its confidence per field; and reading a
//! list of instructions back.

use std::fmt::{Display, Write as _};
use std::path::Path;

use crate::Arch;
use crate::json::{self, JsonFields};
use crate::runtime::meta::{LeafMeta, constant_mismatches};
use crate::runtime::rules::Violations;
use crate::stream::{Decoded, Leads, WORD_SIZE};
use crate::words::WORDS;
use serde_json::{Map, Value as Json, json};

use super::Error;
use super::opcode::opcode_enumerator;
use super::report::{FaultKind, compiler_findings_json, undecided_json, violations_json};
use crate::json::hex_string;

/// One decoded word, as the JSON shape has it.
pub fn instruction_json(
    index: usize,
    offset: usize,
    bytes: &[u8; WORD_SIZE],
    d: &Decoded,
    arch: Arch,
) -> Json {
    let mut obj = Map::new();
    obj.insert("index".into(), json!(index));
    obj.insert("offset".into(), json!(offset));
    obj.insert("opcode".into(), json!(bytes[0]));
    match d {
        Decoded::Word { word, extends } => {
            obj.insert("struct".into(), json!(word.meta().name));
            if let Some(i) = extends {
                obj.insert("extension_of".into(), json!(i));
            }
            let mut v = JsonFields::new(bytes);
            word.visit(&mut v, arch);
            insert_fields(&mut obj, v, word.meta().leaves);
            let mismatches: Vec<Json> = constant_mismatches(bytes, word.meta().leaves)
                .map(|(leaf, expected, found)| {
                    json!({ "field": leaf.path, "expected": expected, "found": found })
                })
                .collect();
            if !mismatches.is_empty() {
                obj.insert("constant_mismatches".into(), Json::Array(mismatches));
            }
            insert_verdict(&mut obj, &word.check(arch));
        }
        Decoded::UnknownOpcode => {
            obj.insert("struct".into(), Json::Null);
            obj.insert("raw_hex".into(), json!(hex_string(bytes)));
            let e = opcode_enumerator(bytes[0]);
            obj.insert(
                "opcode_enumerator".into(),
                e.map_or(
                    Json::Null,
                    |e| json!({ "name": e.name, "engine": e.engine }),
                ),
            );
            obj.insert("error".into(), json!(opcode_text(bytes[0], arch)));
            // Not decoded, so not validated (`dmaspec validate` counts it as invalid).
            obj.insert("violations".into(), Json::Null);
        }
        Decoded::Orphan { name, follows } => {
            obj.insert("struct".into(), Json::Null);
            obj.insert("raw_hex".into(), json!(hex_string(bytes)));
            obj.insert("error".into(), json!(orphan_message(name, follows)));
            obj.insert("violations".into(), Json::Null);
        }
    }
    Json::Object(obj)
}

/// `confidence`, `fields` and, when there are any, `alternatives` and `joined`, from a
/// finished walk over the leaves `leaves`.
pub fn insert_fields(
    obj: &mut Map<String, Json>,
    walk: JsonFields<'_>,
    leaves: &'static [LeafMeta],
) {
    let (fields, alternatives, joined) = walk.finish();
    obj.insert("confidence".into(), confidence_json(&fields, leaves));
    obj.insert("fields".into(), fields);
    if !alternatives.is_empty() {
        obj.insert("alternatives".into(), Json::Object(alternatives));
    }
    if !joined.is_empty() {
        obj.insert("joined".into(), Json::Object(joined));
    }
}

/// `violations` and, when there are any, `undecided` and `compiler_findings`.
pub fn insert_verdict(obj: &mut Map<String, Json>, checked: &Violations) {
    obj.insert("violations".into(), violations_json(checked));
    if let Some(open) = undecided_json(checked).filter(|_| checked.is_empty()) {
        obj.insert("undecided".into(), open);
    }
    if let Some(found) = compiler_findings_json(checked) {
        obj.insert("compiler_findings".into(), found);
    }
}

/// The confidence tag of every leaf `fields` shows (of a union, the chosen arm's), keyed
/// by leaf path; null for an unknown leaf, whose bytes claim no meaning.
fn confidence_json(fields: &Json, leaves: &'static [LeafMeta]) -> Json {
    // `fields` has the leaf when every segment of its path (`a.b[1]`: `a`, `b`, `1`) leads
    // on: what `Value::pointer` finds, without building the pointer text per leaf.
    let shown = |l: &&LeafMeta| {
        let mut at = Some(fields);
        for seg in l.path.split(['.', '[']) {
            let seg = seg.trim_end_matches(']');
            at = match at {
                Some(Json::Object(m)) => m.get(seg),
                Some(Json::Array(a)) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
        }
        at.is_some()
    };
    let map: Map<String, Json> = leaves
        .iter()
        .filter(shown)
        .map(|l| (l.path.to_string(), json!(l.confidence.map(|c| c.tag))))
        .collect();
    Json::Object(map)
}

/// Reads an instruction list: `{"instructions": [...]}` (what decode prints), a bare JSON
/// array, or TOML with `[[instructions]]` tables.
pub fn read_instructions(path: &Path) -> Result<Vec<Json>, Error> {
    read_list(path, json::instructions)
}

/// Reads a list as `take` finds it in the document (JSON, or TOML for a `.toml` path).
pub fn read_list(
    path: &Path,
    take: fn(Json) -> Result<Vec<Json>, json::ListError>,
) -> Result<Vec<Json>, Error> {
    let text = super::input::read_text(path, super::input::MAX_DOCUMENT_BYTES)?;
    let bad = |e: &dyn Display| Error::BadFile(format!("{}: {e}", super::input::name(Some(path))));
    let doc = super::document::parse(&text, super::document::is_toml(path)).map_err(|e| bad(&e))?;
    take(doc).map_err(|e| bad(&e))
}

/// Hex text, one word per line.
pub fn hex_lines(words: &[[u8; 64]]) -> String {
    let mut out = String::new();
    for w in words {
        let _ = writeln!(out, "{}", crate::json::hex_string(w));
    }
    out
}

/// An instruction object says what decode found wrong with its word: a rule in its
/// `violations`, a field in its `constant_mismatches`, or `"struct": null` for a word that
/// did not decode. Such a fault was in the decoded input, so it is not the user's edit.
pub fn declared(ins: &Json, kind: FaultKind) -> bool {
    let listed = |list: &str, key: &str, value: &str| {
        ins.get(list).and_then(Json::as_array).is_some_and(|l| {
            l.iter()
                .any(|x| x.get(key).and_then(Json::as_str) == Some(value))
        })
    };
    match kind {
        FaultKind::Rule(id) => listed("violations", "rule", id),
        FaultKind::Constant(path) => listed("constant_mismatches", "field", path),
        FaultKind::NotDecoded => ins.get("struct").is_some_and(Json::is_null),
    }
}

/// What the spec knows of an opcode no word of `arch` decodes: its enumerator and engine,
/// and why there is no layout ("0x41 TENSOR_TENSOR_ARITH_OP (DVE): no layout in the spec").
pub fn opcode_text(op: u8, arch: Arch) -> String {
    let Some(e) = opcode_enumerator(op) else {
        return format!(
            "{op:#04x}: unknown opcode (no OPCODE enumerator, no word in {})",
            arch.name()
        );
    };
    let engine = e.engine.map_or(String::new(), |g| format!(" ({g})"));
    let why = if WORDS.iter().any(|w| w.opcode == op) {
        format!("no word in {}", arch.name())
    } else {
        "no layout in the spec".to_string()
    };
    let only = if e.arch.is_empty() || e.arch.contains(&arch.name()) {
        String::new()
    } else {
        format!("; an opcode only on {}", e.arch.join(", "))
    };
    format!("{op:#04x} {}{engine}: {why}{only}", e.name)
}

pub fn orphan_message(name: &str, follows: &Leads) -> String {
    format!("{name} must immediately follow {follows}; this one does not, so it is not decoded")
}
