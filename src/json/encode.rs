//! Words from the JSON shape: a list of instructions with the names `decode --json` prints
//! (`struct` + `fields`, or `raw_hex` for a word that did not decode); records (structs
//! decoded on their own) from `decode --struct --json`'s list the same way.
//!
//! The encoder is driven by each word's flattened leaves (path, offset, bits, type): a
//! value given at a leaf's path is range-checked and laid into the word's template
//! (opcode and constants set, everything else zero). Every error in the list is reported
//! at once.

use core::fmt;

use serde_json::{Map, Value as Json};

use crate::names::{echo, listing};
use crate::runtime::meta::{EnumeratorMeta, FieldMeta, FlagMeta, JoinMeta, LeafMeta};
use crate::runtime::record::RecordMeta;
use crate::runtime::visit::{Group, Value, Visitor};
use crate::runtime::wire::put;
use crate::words::{RECORDS, Record, WORDS, enumerators, flag_bits};

use super::fields::text_before_nul;
use super::path::PathStack;

/// Keys of an instruction object that `decode --json` prints besides `struct` and `fields`;
/// they are derived from the bytes, so encode reads past them (`opcode` is checked).
const DERIVED_KEYS: &[&str] = &[
    "index",
    "offset",
    "opcode",
    "extension_of",
    "alternatives",
    "joined",
    "constant_mismatches",
    "violations",
    "undecided",
    // What the spec says of each leaf shown, not of these bytes.
    "confidence",
    "compiler_findings",
    "error",
    "opcode_enumerator",
    // `lower --json` adds where each word came from.
    "from",
    "lowered_by",
];

/// Why a document is not an instruction list.
#[derive(Debug)]
pub enum ListError {
    /// The text is not JSON.
    Json(serde_json::Error),
    /// The document is neither a list nor an object with a list under this key
    /// (`instructions`, or `records`).
    NotAList(&'static str),
    /// A byte that is not UTF-8, at this line and column (from 1, in characters), read
    /// by [`for_each_instruction`](super::for_each_instruction).
    NotUtf8 {
        line: usize,
        column: usize,
        byte: u8,
    },
    /// The document could not be read ([`for_each_instruction`](super::for_each_instruction)).
    Io(std::io::Error),
    /// Element `index` of the list (counted from 0) is over `max` bytes
    /// ([`for_each_instruction`](super::for_each_instruction) does not hold it).
    TooLarge { index: usize, max: u64 },
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListError::Json(e) => write!(f, "{e}"),
            ListError::NotAList(key) => write!(f, "expected an `{key}` list"),
            ListError::NotUtf8 { line, column, byte } => write!(
                f,
                "line {line}, column {column}: byte {byte:#04x} is not UTF-8 \
                 (the input is UTF-8 text)"
            ),
            ListError::Io(e) => write!(f, "{e}"),
            ListError::TooLarge { index, max } => {
                write!(f, "element {index} of the list is over {} MiB", max >> 20)
            }
        }
    }
}

impl std::error::Error for ListError {}

/// The instructions of a document: `{"instructions": [...]}` (what decode prints) or a
/// bare array.
pub fn instructions(doc: Json) -> Result<Vec<Json>, ListError> {
    list_under(doc, "instructions")
}

/// The records of a document: `{"records": [...]}` (what `decode --struct` prints) or a
/// bare array.
pub fn records(doc: Json) -> Result<Vec<Json>, ListError> {
    list_under(doc, "records")
}

fn list_under(doc: Json, key: &'static str) -> Result<Vec<Json>, ListError> {
    match doc {
        Json::Array(list) => Ok(list),
        Json::Object(mut m) => match m.remove(key) {
            Some(Json::Array(list)) => Ok(list),
            _ => Err(ListError::NotAList(key)),
        },
        _ => Err(ListError::NotAList(key)),
    }
}

/// The instructions of a JSON text, as [`instructions`] reads them.
pub fn instructions_from_str(text: &str) -> Result<Vec<Json>, ListError> {
    instructions(super::strict::from_str_strict(text).map_err(ListError::Json)?)
}

/// One problem with one instruction of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// The instruction's index in the list.
    pub instruction: usize,
    /// Its `struct` as given, or `?`.
    pub label: String,
    /// What is wrong (naming the field, if it is one field).
    pub message: String,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} ({}): {}",
            self.instruction, self.label, self.message
        )
    }
}

impl std::error::Error for EncodeError {}

/// Encodes every instruction, or returns every error found (each naming the instruction).
pub fn encode_all(list: &[Json]) -> Result<Vec<[u8; 64]>, Vec<EncodeError>> {
    encode_each(list, encode_one)
}

/// Encodes one instruction, or returns its errors, naming it as the `index`th of its list:
/// [`encode_all`] for a list read one instruction at a time
/// ([`for_each_instruction`](super::for_each_instruction)).
pub fn encode_instruction(index: usize, ins: &Json) -> Result<[u8; 64], Vec<EncodeError>> {
    encode_each(core::slice::from_ref(ins), encode_one)
        .map(|words| words[0])
        .map_err(|mut errors| {
            for e in &mut errors {
                e.instruction = index;
            }
            errors
        })
}

/// Encodes every entry of a `decode --struct NAME --json` list as a record of the struct
/// `name`, or returns every error found (each naming the entry). `None`: no such record.
pub fn encode_records(name: &str, list: &[Json]) -> Option<Result<Vec<Vec<u8>>, Vec<EncodeError>>> {
    let meta = RECORDS.iter().find(|r| r.name == name)?;
    Some(encode_each(list, |ins, errors| {
        encode_record(meta, ins, errors)
    }))
}

fn encode_each<T>(
    list: &[Json],
    one: impl Fn(&Json, &mut Vec<String>) -> T,
) -> Result<Vec<T>, Vec<EncodeError>> {
    let mut words = Vec::new();
    let mut errors = Vec::new();
    for (i, ins) in list.iter().enumerate() {
        let mut e = Vec::new();
        let word = one(ins, &mut e);
        let label = ins
            .get("struct")
            .and_then(Json::as_str)
            .map_or("?".into(), echo);
        errors.extend(e.into_iter().map(|message| EncodeError {
            instruction: i,
            label: label.to_string(),
            message,
        }));
        words.push(word);
    }
    if errors.is_empty() {
        Ok(words)
    } else {
        Err(errors)
    }
}

/// `unknown struct `X``, with the word it most likely misspells, or else every word's name;
/// a record's name says to encode it with `--struct`.
fn unknown_struct(name: &str) -> String {
    if RECORDS.iter().any(|r| r.name == name) {
        return format!("`{name}` is a record, not a word: encode it with `--struct {name}`");
    }
    let names = WORDS
        .iter()
        .flat_map(|w| core::iter::once(w.name).chain(w.aliases.iter().copied()));
    let shown = echo(name);
    match crate::names::nearest(name, names.clone()) {
        Some(guess) => format!("unknown struct `{shown}`; did you mean `{guess}`?"),
        None => {
            let words: Vec<&str> = WORDS.iter().map(|w| w.name).collect();
            format!("unknown struct `{shown}` (words: {})", words.join(", "))
        }
    }
}

fn encode_one(ins: &Json, errors: &mut Vec<String>) -> [u8; 64] {
    let Some(obj) = ins.as_object() else {
        errors.push("an instruction is an object with `struct` and `fields`".into());
        return [0; 64];
    };
    let word = match obj.get("struct") {
        Some(Json::String(name)) => match WORDS
            .iter()
            .find(|w| w.name == name || w.aliases.contains(&name.as_str()))
        {
            Some(w) => w,
            None => {
                errors.push(unknown_struct(name));
                return [0; 64];
            }
        },
        // An unknown opcode as decode printed it: its raw bytes.
        Some(Json::Null) | None => return raw_word(obj, errors),
        Some(other) => {
            errors.push(format!("`struct` must be a name, not {}", shown(other)));
            return [0; 64];
        }
    };
    unknown_keys(obj, errors);
    if let Some(op) = obj.get("opcode")
        && op.as_u64() != Some(u64::from(word.opcode))
    {
        errors.push(format!(
            "`opcode` {} does not match {} ({:#04x})",
            shown(op),
            word.name,
            word.opcode
        ));
    }
    let mut bytes = *word.template;
    let Some(fields) = fields_of(obj, errors) else {
        return bytes;
    };
    let target = Target {
        name: word.name,
        leaves: word.leaves,
        opcode: Some(word.opcode),
    };
    let mut arms: Vec<(String, String)> = Vec::new();
    walk(&target, fields, "", &mut bytes, &mut arms, errors);
    if let Some(&arch) = word.arch.first()
        && let Some(decoded) = crate::Word::decode(&bytes, arch)
    {
        let mut taken = ArmCollector::default();
        decoded.visit(&mut taken, arch);
        check_arms(&taken.arms, &arms, errors);
        check_joined(obj, &taken.joined, errors);
    }
    bytes
}

/// One record: zero bytes with every field given laid in.
fn encode_record(meta: &RecordMeta, ins: &Json, errors: &mut Vec<String>) -> Vec<u8> {
    let mut bytes = vec![0u8; meta.size];
    let Some(obj) = ins.as_object() else {
        errors.push("a record is an object with `fields`".into());
        return bytes;
    };
    match obj.get("struct") {
        Some(Json::String(s)) if s == meta.name => {}
        None => {}
        Some(other) => errors.push(format!("`struct` {} is not {}", shown(other), meta.name)),
    }
    unknown_keys(obj, errors);
    let Some(fields) = fields_of(obj, errors) else {
        return bytes;
    };
    let target = Target {
        name: meta.name,
        leaves: meta.leaves,
        opcode: None,
    };
    let mut arms: Vec<(String, String)> = Vec::new();
    walk(&target, fields, "", &mut bytes, &mut arms, errors);
    if let Some(Ok(decoded)) = Record::decode(meta.name, &bytes) {
        let mut taken = ArmCollector::default();
        decoded.visit(&mut taken, crate::Arch::ALL[0]);
        check_arms(&taken.arms, &arms, errors);
        check_joined(obj, &taken.joined, errors);
    }
    bytes
}

/// Keys that are neither `struct`, `fields` nor one decode derives.
fn unknown_keys(obj: &Map<String, Json>, errors: &mut Vec<String>) {
    for key in obj.keys() {
        if key != "struct" && key != "fields" && !DERIVED_KEYS.contains(&key.as_str()) {
            errors.push(format!("unknown key `{}`", echo(key)));
        }
    }
}

/// The `fields` object (none given: no field set); `None` when it is not an object.
fn fields_of<'a>(
    obj: &'a Map<String, Json>,
    errors: &mut Vec<String>,
) -> Option<&'a Map<String, Json>> {
    static EMPTY: std::sync::LazyLock<Map<String, Json>> = std::sync::LazyLock::new(Map::new);
    match obj.get("fields") {
        Some(Json::Object(m)) => Some(m),
        None => Some(&EMPTY),
        Some(_) => {
            errors.push("`fields` must be an object".into());
            None
        }
    }
}

/// What an object is encoded as: a word (whose byte 0 must stay its opcode) or a record.
struct Target<'a> {
    name: &'a str,
    leaves: &'static [LeafMeta],
    opcode: Option<u8>,
}

fn raw_word(obj: &Map<String, Json>, errors: &mut Vec<String>) -> [u8; 64] {
    let Some(hex) = obj.get("raw_hex").and_then(Json::as_str) else {
        errors.push("needs `struct` (a word name) or `raw_hex`".into());
        return [0; 64];
    };
    let mut out = [0u8; 64];
    let clean: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if clean.len() != 128 {
        errors.push(format!(
            "`raw_hex` has {} hex digits; a word is 128",
            clean.len()
        ));
        return out;
    }
    for (i, pair) in clean.chunks(2).enumerate() {
        match hex_byte(pair) {
            Some(b) => out[i] = b,
            None => {
                errors.push(format!("`raw_hex` byte {i} is not hex"));
                return out;
            }
        }
    }
    out
}

/// The byte two hex digits spell (no sign, no prefix: `u8::from_str_radix` takes `+f`).
fn hex_byte(pair: &[u8]) -> Option<u8> {
    let digit = |c: u8| char::from(c).to_digit(16);
    match pair {
        [hi, lo] => Some((digit(*hi)? << 4 | digit(*lo)?) as u8),
        _ => None,
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Descends `obj` at `prefix`, writing every leaf it names.
fn walk(
    word: &Target,
    obj: &Map<String, Json>,
    prefix: &str,
    bytes: &mut [u8],
    arms: &mut Vec<(String, String)>,
    errors: &mut Vec<String>,
) {
    for (key, value) in obj {
        let path = join(prefix, key);
        if let Some(leaf) = word.leaves.iter().find(|l| l.path == path) {
            if let Err(e) = write_leaf(leaf, value, bytes) {
                errors.push(format!("field `{}`: {e}", echo(&path)));
            } else if let Some(op) = word.opcode
                && bytes[0] != op
            {
                // The opcode leaf (`header.opcode`) must name this word, or the word
                // would decode as another one (or as none).
                errors.push(format!(
                    "field `{path}`: {} does not match {} ({op:#04x})",
                    bytes[0], word.name
                ));
                bytes[0] = op;
            }
            continue;
        }
        let below = |l: &&LeafMeta| {
            l.path.starts_with(&format!("{path}.")) || l.path.starts_with(&format!("{path}["))
        };
        if !word.leaves.iter().any(|l| below(&l)) {
            errors.push(format!("unknown field `{}`", echo(&path)));
            continue;
        }
        if word.leaves.iter().any(|l| l.variant == Some(path.as_str())) {
            arms.push((path.clone(), path.clone()));
        }
        match value {
            Json::Object(m) => walk(word, m, &path, bytes, arms, errors),
            // Arrays of composites: `x[0].y`.
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let p = format!("{path}[{i}]");
                    match item {
                        Json::Object(m) => walk(word, m, &p, bytes, arms, errors),
                        _ => errors.push(format!("field `{}`: expected an object", echo(&p))),
                    }
                }
            }
            _ => errors.push(format!(
                "field `{}`: expected an object of its members",
                echo(&path)
            )),
        }
    }
}

/// The fields given for a union must belong to the arm its discriminator selects (`taken`:
/// the arms the encoded bytes take).
fn check_arms(taken: &[String], arms: &[(String, String)], errors: &mut Vec<String>) {
    for (arm, path) in arms {
        if !taken.contains(arm) {
            let union = arm.rsplit_once('.').map_or(arm.as_str(), |p| p.0);
            let selected = taken
                .iter()
                .find(|c| c.rsplit_once('.').is_some_and(|p| p.0 == union))
                .map_or("another arm", String::as_str);
            errors.push(format!(
                "field `{path}` belongs to `{arm}`, but the discriminator given selects `{selected}`"
            ));
        }
    }
}

/// `joined` is what decode read of the parts of each value stored across several fields
/// (`timestamp.ps`): one that is not what the encoded parts give would be lost, so it is
/// refused (the parts are the fields to edit).
fn check_joined(
    obj: &Map<String, Json>,
    read: &[(String, &JoinMeta, u64)],
    errors: &mut Vec<String>,
) {
    let Some(given) = obj.get("joined") else {
        return;
    };
    let Json::Object(given) = given else {
        errors.push(format!("`joined` must be an object, not {}", shown(given)));
        return;
    };
    for (path, v) in given {
        let Some((_, meta, value)) = read.iter().find(|(p, ..)| p == path) else {
            errors.push(format!(
                "`joined`: no value `{}` is joined here",
                echo(path)
            ));
            continue;
        };
        if v.get("value").unwrap_or(v).as_u64() != Some(*value) {
            let parent = path.rsplit_once('.').map_or("", |p| p.0);
            let parts: Vec<String> = meta.parts.iter().map(|p| join(parent, p.0)).collect();
            errors.push(format!(
                "`joined` `{path}` is {} but its parts give {value}: it is read from \
                 `{}`, so edit those fields instead",
                shown(v.get("value").unwrap_or(v)),
                parts.join("` + `")
            ));
        }
    }
}

/// Collects the union arms a decoded word took (`src_start_addr.addr_var`), and its joined
/// values (path, what joins them, value).
#[derive(Default)]
struct ArmCollector {
    path: PathStack,
    groups: Vec<Group>,
    arms: Vec<String>,
    joined: Vec<(String, &'static JoinMeta, u64)>,
}

impl Visitor for ArmCollector {
    fn enter(&mut self, field: &'static FieldMeta, _offset: usize, group: Group) {
        if group == Group::Struct && self.groups.last() == Some(&Group::Union) {
            self.arms.push(self.path.leaf(field.name));
        }
        self.path.enter(field.name, group);
        self.groups.push(group);
    }
    fn leave(&mut self, _group: Group) {
        self.path.leave();
        self.groups.pop();
    }
    fn value(&mut self, _field: &'static FieldMeta, _offset: usize, _value: Value<'_>) {}
    fn joined(&mut self, join: &'static JoinMeta, _offset: usize, value: u64) {
        self.joined.push((self.path.leaf(join.name), join, value));
    }
}

/// Lays one leaf's value into the word.
pub(crate) fn write_leaf(leaf: &LeafMeta, value: &Json, bytes: &mut [u8]) -> Result<(), String> {
    let ty = leaf.type_name;
    if ty.starts_with("ascii[") {
        return write_text(leaf, value, bytes);
    }
    if let Some((elem, n)) = array_type(ty) {
        let Json::Array(items) = value else {
            return Err(format!("expected an array of {n} `{elem}`"));
        };
        if items.len() != n {
            return Err(format!("expected {n} elements, got {}", items.len()));
        }
        let esize = leaf.size / n;
        let bits = (esize * 8) as u32;
        for (i, item) in items.iter().enumerate() {
            let v = int_value(item, elem, bits).map_err(|e| format!("element {i}: {e}"))?;
            put(bytes, leaf.offset + i * esize, esize, None, v);
        }
        return Ok(());
    }
    let width = leaf.bits.map_or((leaf.size * 8) as u32, |b| b.1);
    let v = if let Some(values) = enumerators(ty) {
        enum_value(value, ty, values, width)?
    } else if let Some(bits) = flag_bits(ty) {
        flags_value(value, bits, width)?
    } else {
        int_value(value, ty, width)?
    };
    put(bytes, leaf.offset, leaf.size, leaf.bits, v);
    Ok(())
}

/// `i32[2]` -> ("i32", 2).
fn array_type(ty: &str) -> Option<(&str, usize)> {
    let (elem, rest) = ty.split_once('[')?;
    let n = rest.strip_suffix(']')?.parse().ok()?;
    Some((elem, n))
}

/// A plain integer of `ty` (`u16`, `i32`, `u3` for a bit range), range-checked.
fn int_value(v: &Json, ty: &str, bits: u32) -> Result<u64, String> {
    let signed = ty.starts_with('i');
    if signed {
        let Some(i) = v.as_i64() else {
            return Err(format!("expected a signed integer, got {}", shown(v)));
        };
        let min = -(1i128 << (bits - 1));
        let max = (1i128 << (bits - 1)) - 1;
        if i128::from(i) < min || i128::from(i) > max {
            return Err(format!("{i} is out of range for {ty} ({min}..={max})"));
        }
        return Ok(i as u64 & mask(bits));
    }
    let Some(u) = v.as_u64() else {
        return Err(format!("expected an unsigned integer, got {}", shown(v)));
    };
    if u > mask(bits) {
        return Err(format!("{u} does not fit {bits} bits (max {})", mask(bits)));
    }
    Ok(u)
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The value of the enumerator of `ty` named `n` (or one of its other spellings), or an
/// error suggesting the nearest name.
fn enumerator(n: &str, ty: &str, values: &[EnumeratorMeta]) -> Result<u64, String> {
    if let Some(e) = values
        .iter()
        .find(|e| e.name == n || e.aliases.contains(&n))
    {
        return Ok(e.value);
    }
    let names: Vec<&str> = values.iter().map(|e| e.name).collect();
    let unknown = format!("unknown enumerator `{}` of `{ty}`", echo(n));
    Err(match crate::names::nearest(n, names.iter().copied()) {
        Some(guess) => format!("{unknown}; did you mean `{guess}`?"),
        None => format!(
            "{unknown} ({})",
            listing(&names, "enumerators", &format!("`dmaspec explain {ty}`"))
        ),
    })
}

/// An object value (an enum's, a flag set's, a text's) has only the keys decode writes.
fn only_keys(m: &Map<String, Json>, known: [&str; 2]) -> Result<(), String> {
    match m.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(format!(
            "unknown key `{}` (the keys are `{}` and `{}`)",
            echo(k),
            known[0],
            known[1]
        )),
        None => Ok(()),
    }
}

/// `{"raw": 7, "name": "FP16"}`, `"FP16"`, or `7`.
fn enum_value(v: &Json, ty: &str, values: &[EnumeratorMeta], bits: u32) -> Result<u64, String> {
    let by_name = |n: &str| enumerator(n, ty, values);
    let raw = match v {
        Json::String(n) => by_name(n)?,
        Json::Object(m) => {
            only_keys(m, ["raw", "name"])?;
            let raw = m.get("raw").map(|r| int_value(r, "u64", 64)).transpose()?;
            let named = match m.get("name") {
                Some(Json::String(n)) => Some(by_name(n)?),
                _ => None,
            };
            match (raw, named) {
                (Some(r), Some(n)) if r != n => {
                    return Err(format!("`raw` {r} and `name` (= {n}) disagree"));
                }
                (Some(r), _) => r,
                (None, Some(n)) => n,
                (None, None) => return Err("expected `raw` or `name`".into()),
            }
        }
        other => int_value(other, "u64", 64)?,
    };
    if raw > mask(bits) {
        return Err(format!("{raw} does not fit {bits} bits"));
    }
    Ok(raw)
}

/// `{"raw": 40, "flags": [...]}`, a list of flag names, or a number.
fn flags_value(v: &Json, bits: &[FlagMeta], width: u32) -> Result<u64, String> {
    let from_names = |list: &[Json]| -> Result<u64, String> {
        list.iter().try_fold(0u64, |acc, n| {
            let n = n
                .as_str()
                .ok_or_else(|| format!("flag names are strings, not {}", shown(n)))?;
            bits.iter()
                .find(|b| b.name == n)
                .map(|b| acc | 1 << b.bit)
                .ok_or_else(|| format!("unknown flag `{}`", echo(n)))
        })
    };
    let raw = match v {
        Json::Array(list) => from_names(list)?,
        Json::Object(m) => match (
            only_keys(m, ["raw", "flags"])?,
            m.get("raw"),
            m.get("flags"),
        ) {
            ((), Some(r), _) => {
                let r = int_value(r, "u64", 64)?;
                if let Some(Json::Array(list)) = m.get("flags") {
                    let named = from_names(list)?;
                    let known = bits.iter().fold(0u64, |a, b| a | 1 << b.bit);
                    if r & known != named {
                        return Err(format!("`raw` {r:#x} and `flags` (= {named:#x}) disagree"));
                    }
                }
                r
            }
            ((), None, Some(Json::Array(list))) => from_names(list)?,
            _ => return Err("expected `raw` or `flags`".into()),
        },
        other => int_value(other, "u64", 64)?,
    };
    if raw > mask(width) {
        return Err(format!("{raw} does not fit {width} bits"));
    }
    Ok(raw)
}

/// A string (NUL-padded on encode), or `{"text", "raw_hex"}` for bytes that are not.
fn write_text(leaf: &LeafMeta, v: &Json, bytes: &mut [u8]) -> Result<(), String> {
    let field = &mut bytes[leaf.offset..leaf.offset + leaf.size];
    match v {
        Json::String(s) => {
            if !s.is_ascii() || s.contains('\0') {
                return Err("text must be ASCII without NUL".into());
            }
            if s.len() >= leaf.size {
                return Err(format!(
                    "text is {} bytes; at most {} fit with the terminating NUL",
                    s.len(),
                    leaf.size - 1
                ));
            }
            field.fill(0);
            field[..s.len()].copy_from_slice(s.as_bytes());
            Ok(())
        }
        Json::Object(m) => {
            only_keys(m, ["text", "raw_hex"])?;
            let hex = m
                .get("raw_hex")
                .and_then(Json::as_str)
                .ok_or("expected a string or `raw_hex`")?;
            if hex.len() != leaf.size * 2 {
                return Err(format!("`raw_hex` must be {} hex digits", leaf.size * 2));
            }
            for (b, pair) in field.iter_mut().zip(hex.as_bytes().chunks(2)) {
                *b = hex_byte(pair).ok_or("`raw_hex` is not hex")?;
            }
            // `text` is what decode read of these bytes: an edit of it alone would be lost.
            let read = text_before_nul(field);
            match m.get("text") {
                Some(given) if given.as_str() != Some(&*read) => Err(format!(
                    "`text` {} and `raw_hex` (text {read:?}) disagree; \
                     to write a new text, give it alone as a string",
                    shown(given)
                )),
                _ => Ok(()),
            }
        }
        other => Err(format!("expected text, got {}", shown(other))),
    }
}

/// A JSON value as a message repeats it ([`echo`]).
fn shown(v: &Json) -> String {
    echo(&v.to_string()).into_owned()
}
