//! `lower`: what the host runtime makes of the compiler's pseudo words. Reads a
//! stream like `decode`, lowers every pseudo that has a `[[lowering]]` in the spec
//! (PSEUDO_DMA_DIRECT2D + its positional PSEUDO_DMA_EXT) with `crate::lower`, passes every
//! other word through, and writes the real stream as binary, hex, JSON (decode's shape plus
//! `from`) or an explanation of every mapping applied.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

use crate::Arch;
use crate::lower::{Item, LowerError, Lowered, Lowerer, StreamError};
use crate::names::echo;
use crate::runtime::lowering::{ApplyError, MappingMeta, Source};
use crate::runtime::meta::Confidence;
use crate::stream::{Decoder, WORD_SIZE};
use crate::words::LOWERINGS;
use serde_json::{Value as Json, json};

use super::Error;
use super::error::Listed;
use super::input::{self, WordReader};
use super::table::{fit_text, render_columns};
use crate::json::hex_string;

/// What [`lower_stream`] makes of a stream: `lower`'s options but its input and `--vars`.
pub struct LowerOptions {
    /// The architecture the words are decoded and lowered for.
    pub arch: Arch,
    /// The dispatcher version (`v2`, `v3`); the spec's default when `None`.
    pub abi: Option<String>,
    /// Hex text, one word per line, instead of binary.
    pub hex: bool,
    /// One JSON document: decode's shape of each produced word plus `from`.
    pub json: bool,
    /// Per produced word, every mapping applied with its confidence (over `json`).
    pub explain: bool,
}

/// A variable table: id → base address.
pub type Vars = BTreeMap<u64, u64>;

fn number(v: &Json) -> Option<u64> {
    match v {
        Json::Number(n) => n.as_u64(),
        Json::String(s) => parse_u64(s),
        _ => None,
    }
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.trim().replace('_', "");
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Reads `--vars FILE`: TOML or JSON, a table of variable id → base address (ids and
/// addresses as numbers or decimal / `0x` strings), at the top level or under `vars`.
pub fn read_vars(path: &Path) -> Result<Vars, Error> {
    let text = input::read_text(path, input::MAX_DOCUMENT_BYTES)?;
    let is_toml = super::document::is_toml(path);
    parse_vars(
        &text,
        is_toml,
        &format!("--vars {}", input::name(Some(path))),
    )
}

/// A variable table from its text (TOML, else JSON), named `what` in errors.
pub fn parse_vars(text: &str, is_toml: bool, what: &str) -> Result<Vars, Error> {
    let bad = |msg: String| Error::BadFile(format!("{what}: {msg}"));
    let doc = super::document::parse(text, is_toml).map_err(bad)?;
    let table = match doc {
        Json::Object(mut m) => match m.remove("vars") {
            Some(Json::Object(v)) if m.is_empty() => v,
            Some(other) if m.is_empty() => {
                return Err(bad(format!(
                    "`vars` must be a table, not {}",
                    echo(&other.to_string())
                )));
            }
            Some(v) => {
                m.insert("vars".into(), v);
                m
            }
            None => m,
        },
        other => {
            return Err(bad(format!(
                "expected a table of id = address, not {}",
                echo(&other.to_string())
            )));
        }
    };
    let mut out = Vars::new();
    let mut errors = Vec::new();
    for (k, v) in &table {
        match (parse_u64(k), number(v)) {
            (Some(id), Some(base)) => {
                out.insert(id, base);
            }
            (None, _) => errors.push(format!("`{}` is not a variable id (a number)", echo(k))),
            (_, None) => errors.push(format!(
                "variable {}: {} is not an address (a number)",
                echo(k),
                echo(&v.to_string())
            )),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(bad(errors.join("; ")))
    }
}

fn location(index: usize, offset: usize) -> String {
    format!("word #{index} at byte offset {offset} ({offset:#x})")
}

/// The one-line report of a failed item.
pub fn error_line(item: &Item) -> Option<String> {
    let Item::Failed {
        index,
        offset,
        ext,
        error,
    } = item
    else {
        return None;
    };
    let with = ext.map_or(String::new(), |e| format!(" (with its extension #{e})"));
    let hint = match error {
        StreamError::Lower(LowerError::Apply(ApplyError::UnresolvedVariable { .. })) => {
            "; give its base address with --vars FILE"
        }
        _ => "",
    };
    Some(format!(
        "{}{with}: {error}{hint}",
        location(*index, *offset)
    ))
}

fn tag(c: &Confidence, inferred: bool) -> String {
    if inferred {
        format!("INFERRED ({})", c.tag)
    } else {
        c.tag.to_string()
    }
}

fn value_text(m: &MappingMeta, word: &[u8; WORD_SIZE]) -> String {
    const INTS: &[&str] = &["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];
    let plain = m.to.bits.is_some() || m.to.size == 1 || INTS.contains(&m.to.type_name);
    if plain && m.to.width() <= 64 {
        let v = m.to.read(word);
        if v > 9 {
            format!("{v} ({v:#x})")
        } else {
            v.to_string()
        }
    } else {
        hex_string(m.to.bytes(word))
    }
}

/// The explanation of one lowered word: kind, route, and every mapping applied.
pub fn explain_lowered(index: usize, offset: usize, ext: Option<usize>, l: &Lowered) -> String {
    let mut out = String::new();
    let k = l.kind;
    let with = match (ext, k.extension) {
        (Some(e), crate::runtime::lowering::ExtensionUse::Required) => {
            format!(" + extension #{e}")
        }
        (Some(e), _) => format!(" + extension #{e} (not read by this kind)"),
        (None, _) => String::new(),
    };
    let _ = writeln!(
        out,
        "{} {}{with}: {} {} ({}) -> {} ({:#04x})",
        location(index, offset),
        l.lowering.from,
        l.lowering.selector.path,
        k.value,
        k.name,
        k.to,
        k.to_opcode
    );
    if let Some(r) = l.route {
        let _ = writeln!(
            out,
            "  abi {}: {}  [{}]",
            l.abi.name,
            r.via.join(" -> "),
            tag(&r.confidence, r.inferred)
        );
    }
    let header = ["field", "from", "value", "confidence", "source"].map(String::from);
    let rows: Vec<[String; 5]> = k
        .mappings
        .iter()
        .map(|m| {
            let mut from = format!("<- {}", m.source_text());
            if !matches!(m.via, crate::runtime::lowering::Transform::Copy) {
                let _ = write!(from, " via {}", m.via.name());
            }
            if matches!(m.source, Source::Value(_)) {
                from = format!("<- {} (constant)", m.source_text());
            }
            let mut cite: Vec<&str> = m.evidence.iter().map(|e| e.cite).collect();
            cite.dedup();
            let mut source = cite.join(", ");
            if let Some(note) = m.note {
                let _ = write!(source, ": {note}");
            }
            [
                m.to.path.to_string(),
                from,
                value_text(m, &l.bytes),
                tag(&m.confidence, m.inferred),
                source,
            ]
        })
        .collect();
    out.push_str(&render_columns(&header, &rows));
    let inferred = k.mappings.iter().filter(|m| m.inferred).count();
    let _ = writeln!(
        out,
        "  {} of {} mappings are INFERRED (not stated by the sources).",
        inferred,
        k.mappings.len()
    );
    if !k.unread.is_empty() {
        let _ = writeln!(out, "  not read: {}", k.unread.join(", "));
    }
    if !k.unmapped.is_empty() {
        let _ = writeln!(out, "  left at the template: {}", k.unmapped.join(", "));
    }
    out
}

fn explain_item(item: &Item, arch: Arch) -> String {
    match item {
        Item::Lowered {
            index,
            offset,
            ext,
            lowered,
        } => explain_lowered(*index, *offset, *ext, lowered),
        Item::Passed {
            index,
            offset,
            bytes,
        } => {
            let what = crate::Word::decode(bytes, arch).map_or("unknown opcode", |w| w.meta().name);
            let note = if what.starts_with("PSEUDO") {
                " (a pseudo the spec has no lowering for)"
            } else {
                ""
            };
            format!(
                "{} {what} ({:#04x}): passed through unchanged{note}\n",
                location(*index, *offset),
                bytes[0]
            )
        }
        Item::Failed { .. } => format!("{}\n", error_line(item).unwrap_or_default()),
    }
}

/// Where the items go.
struct Sink<'a, W: Write> {
    args: &'a LowerOptions,
    out: W,
    errors: Listed,
    /// Numbers the produced words for the JSON shape (and applies the positional rule).
    out_decoder: Decoder,
    /// Whether an item went to `out`.
    written: bool,
}

impl<W: Write> Sink<'_, W> {
    fn take(&mut self, item: &Item) -> io::Result<()> {
        if let Some(line) = error_line(item) {
            self.errors.push(line);
        }
        if self.args.explain {
            if self.written {
                self.out.write_all(b"\n")?;
            }
            self.out
                .write_all(fit_text(&explain_item(item, self.args.arch)).as_bytes())?;
        } else if self.args.json {
            let v = item_json(item, &mut self.out_decoder, self.args.arch);
            if self.written {
                self.out.write_all(b",")?;
            }
            self.out.write_all(b"\n")?;
            serde_json::to_writer(&mut self.out, &v).map_err(io::Error::from)?;
        } else if let Some(b) = item.bytes().filter(|_| self.errors.is_empty()) {
            // Binary and hex output stop at the first word that cannot be lowered: what
            // is written is the start of the lowered stream, never one with a word left out.
            if self.args.hex {
                writeln!(self.out, "{}", hex_string(b))?;
            } else {
                self.out.write_all(b)?;
            }
        } else {
            return Ok(());
        }
        self.written = true;
        Ok(())
    }
}

/// Lowers the stream `words` as `args` says, with the variable table `vars`, writing to
/// `out` what `dmaspec lower` prints on stdout.
pub fn lower_stream(
    args: &LowerOptions,
    vars: &Vars,
    words: &mut WordReader,
    out: impl Write,
) -> Result<(), Error> {
    let lookup = |id: u64| vars.get(&id).copied();
    let mut lowerer = Lowerer::new(args.arch, args.abi.as_deref(), &lookup).map_err(|_| {
        let mut names: Vec<&str> = LOWERINGS
            .iter()
            .flat_map(|l| l.abis.iter().map(|a| a.name))
            .collect();
        names.sort();
        names.dedup();
        Error::Usage(format!(
            "unknown --abi `{}` (one of: {})",
            echo(args.abi.as_deref().unwrap_or("")),
            names.join(", ")
        ))
    })?;
    let mut sink = Sink {
        args,
        out,
        errors: Listed::default(),
        out_decoder: Decoder::new(args.arch),
        written: false,
    };
    if args.json {
        sink.out.write_all(b"{\"instructions\":[")?;
    }
    loop {
        match words.next_word() {
            Ok(Some(b)) => {
                for item in lowerer.push(&b) {
                    sink.take(&item)?;
                }
            }
            Ok(None) => {
                if let Some(item) = lowerer.finish() {
                    sink.take(&item)?;
                }
                break;
            }
            Err(e) => {
                if let Some(item) = lowerer.finish() {
                    sink.take(&item)?;
                }
                sink.errors.push(e.to_string());
                break;
            }
        }
    }
    if args.json {
        sink.out.write_all(b"\n]}\n")?;
    }
    sink.out.flush()?;
    if !sink.errors.is_empty() {
        return Err(Error::Lower {
            errors: sink.errors,
            // JSON output is always a whole document.
            written: sink.written || args.json,
        });
    }
    Ok(())
}

/// One output entry: decode's shape of the produced word plus `from`, or the error.
fn item_json(item: &Item, out_decoder: &mut Decoder, arch: Arch) -> Json {
    let produced = |bytes: &[u8; WORD_SIZE], out_decoder: &mut Decoder| {
        let index = out_decoder.index();
        let d = out_decoder.push(bytes);
        super::shape::instruction_json(index, index * WORD_SIZE, bytes, &d, arch)
    };
    match item {
        Item::Lowered {
            index,
            ext,
            lowered,
            ..
        } => {
            let mut v = produced(&lowered.bytes, out_decoder);
            if let Json::Object(m) = &mut v {
                m.insert("from".into(), json!([index, ext]));
                let k = lowered.kind;
                m.insert(
                    "lowered_by".into(),
                    json!({
                        "lowering": lowered.lowering.name,
                        "selector": { "field": lowered.lowering.selector.path, "raw": k.value, "name": k.name },
                        "abi": lowered.abi.name,
                        "route": lowered.route.map(|r| r.via),
                        "inferred_fields": k.mappings.iter().filter(|m| m.inferred).map(|m| m.to.path).collect::<Vec<_>>(),
                    }),
                );
            }
            v
        }
        Item::Passed { index, bytes, .. } => {
            let mut v = produced(bytes, out_decoder);
            if let Json::Object(m) = &mut v {
                m.insert("from".into(), json!([index, Json::Null]));
            }
            v
        }
        Item::Failed {
            index,
            offset,
            ext,
            error,
        } => json!({
            "from": [index, ext],
            "input_offset": offset,
            "error": error.to_string(),
        }),
    }
}
