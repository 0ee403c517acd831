//! `dmaspec decode`: a stream of words in, one table or one JSON document out, written as
//! the words are read.

use std::io::{self, Write};
use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::json::JsonFields;
use dmaspec::runtime::meta::{EnumeratorMeta, LeafMeta, constant_mismatches};
use dmaspec::runtime::rules::Violations;
use dmaspec::stream::{Decoded, Decoder, Leads, WORD_SIZE};
use dmaspec::words::{WORDS, enumerators};
use serde_json::{Map, Value as Json, json};

use super::input::{self, WordReader};
use super::table::{self, TableRows};
use super::{CliError, hex_string};

pub struct DecodeArgs {
    pub arch: Arch,
    pub hex: bool,
    pub json: bool,
    pub input: Option<PathBuf>,
    /// No progress bar (one is shown on a terminal's stderr for a file input).
    pub quiet: bool,
    /// `--struct NAME`: a stream of records of this struct instead of words.
    pub record: Option<String>,
}

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
pub(super) fn insert_fields(
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

/// `violations` and, when there are any, `compiler_findings`.
pub(super) fn insert_verdict(obj: &mut Map<String, Json>, checked: &Violations) {
    obj.insert(
        "violations".into(),
        super::validate::violations_json(checked),
    );
    if let Some(found) = super::validate::compiler_findings_json(checked) {
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

/// The `OPCODE` enumerator with value `op`, if any.
pub fn opcode_enumerator(op: u8) -> Option<&'static EnumeratorMeta> {
    enumerators("OPCODE")?
        .iter()
        .find(|e| e.value == u64::from(op))
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

fn orphan_message(name: &str, follows: &Leads) -> String {
    format!("{name} must immediately follow {follows}; this one does not, so it is not decoded")
}

fn table_text(
    index: usize,
    offset: usize,
    bytes: &[u8; WORD_SIZE],
    d: &Decoded,
    arch: Arch,
) -> String {
    let head = format!(
        "#{index}  offset {offset} ({offset:#06x})  opcode {:#04x}",
        bytes[0]
    );
    match d {
        Decoded::Word { word, extends } => {
            let mut rows = TableRows::new(word.meta().leaves);
            word.visit(&mut rows, arch);
            let ext = extends.map_or(String::new(), |i| format!("  (extension of #{i})"));
            format!(
                "{head}  {}{ext}\n{}{}",
                word.meta().name,
                table::render(&rows.rows),
                table::fit_text(&super::validate::table_lines(
                    &word.check(arch),
                    arch,
                    &super::validate::constant_lines(bytes, word.meta().leaves)
                ))
            )
        }
        Decoded::UnknownOpcode => format!(
            "{head}  {}\n{}",
            opcode_text(bytes[0], arch),
            table::raw_lines(bytes)
        ),
        Decoded::Orphan { name, follows } => format!(
            "{head}  {}\n{}",
            orphan_message(name, follows),
            table::raw_lines(bytes)
        ),
    }
}

/// The words of a stream decoded in order, pulled one at a time.
pub struct Words<'a> {
    reader: WordReader<'a>,
    decoder: Decoder,
}

/// One word of a stream: its index, byte offset, bytes and decoding.
pub type StreamWord = (usize, usize, [u8; WORD_SIZE], Decoded);

impl<'a> Words<'a> {
    pub fn new(reader: WordReader<'a>, arch: Arch) -> Self {
        Words {
            reader,
            decoder: Decoder::new(arch),
        }
    }

    /// The next whole word; `None` at the end. A read error (a trailing partial word among
    /// them) is an input error.
    pub fn next_word(&mut self) -> Result<Option<StreamWord>, CliError> {
        let offset = self.reader.offset();
        let Some(bytes) = self.reader.next_word().map_err(CliError::Input)? else {
            return Ok(None);
        };
        let index = self.decoder.index();
        let d = self.decoder.push(&bytes);
        Ok(Some((index, offset, bytes, d)))
    }
}

/// Calls `f` with each word of the stream ([`Words`]), in order. A read error stops the
/// stream after the whole words before it; an error of `f` stops it at once.
pub fn each_word(
    words: WordReader,
    arch: Arch,
    mut f: impl FnMut(usize, usize, &[u8; WORD_SIZE], &Decoded) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut words = Words::new(words, arch);
    while let Some((index, offset, bytes, d)) = words.next_word()? {
        f(index, offset, &bytes, &d)?;
    }
    Ok(())
}

pub fn run(args: &DecodeArgs) -> Result<(), CliError> {
    if let Some(name) = &args.record {
        return super::records::decode(args, name);
    }
    let (reader, progress) = super::progress::open(args.input.as_deref(), args.quiet)?;
    let words = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
    let mut out = super::output::stdout();
    if args.json {
        out.write_all(b"{\"instructions\":[")?;
    }
    let result = each_word(words, args.arch, |index, offset, bytes, d| {
        if args.json {
            if index > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            serde_json::to_writer(
                &mut out,
                &instruction_json(index, offset, bytes, d, args.arch),
            )
            .map_err(io::Error::from)?;
        } else {
            if index > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(table_text(index, offset, bytes, d, args.arch).as_bytes())?;
        }
        Ok(())
    });
    if args.json {
        out.write_all(b"\n]}\n")?;
    }
    out.flush()?;
    progress.finish();
    result
}
