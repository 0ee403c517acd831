//! The JSON target: `dmaspec.json`, the whole resolved model for tools in other languages.
//!
//! Top level (keys in this order):
//!
//! - `format`: `"dmaspec/3"`; bumped when the shape changes (2: a sub-word's
//!   `opcode.sub_opcode`, `follows` a list of words, the `records` and `gaps` keys;
//!   3: each word and record leaf's `constant`, which the viewer checks as decode does;
//!   4: the `regfiles` key; 5: the `addrmaps` key).
//! - `levels`, `scales`, `sources`, `archs`, `types`: the model as [`Model`] serializes it
//!   (every type with its kind, members, evidence and alternatives; type references carry
//!   `index` into `types`).
//! - `words`: a convenience view, one object per word in spec order, with its opcode, the
//!   architectures that ship it and its leaves flattened as the byte tables show them
//!   (`path`, `offset`, `size`, `bits`, `type`, `role`, `constant`, `confidence`,
//!   `evidence`, `alternatives`), so a consumer can decode a word without walking `types`.
//! - `records`: the same view of each record (a struct declared `top_level`, decoded on
//!   its own: a 16-byte ring descriptor), with its size and no opcode.
//! - `rules`: the validity rules — `constants`, `tables`, and `sets` (one per struct with
//!   rules: each rule's id, shipped name, kind, `authority` (`header` or `compiler`),
//!   lowered expression, parent, architectures, message, fields, confidence and evidence).
//! - `lowerings`: the pseudo-word lowerings (`spec/lowering/`): per selector value the real
//!   word, its routes per ABI version and every field mapping (places as byte offset / bit
//!   range, transform, confidence, `inferred`, note, evidence).
//! - `klr`: seed 003's KLR→BIR leaves (`spec/klr/`): `enums`, `tables`, `layouts` (klr
//!   ops and BIR classes, fields by offset), `leaves` (each with its ordered `steps`:
//!   checks with their exact messages, routes, lets, the fork and its paths, stamps and
//!   effects; conditions as written and as typed expressions), and the `offsets` and
//!   `transposes` reference tables; every record with its confidence and evidence.
//! - `conflicts`: the `[[conflict]]` records, every reading with its evidence.
//! - `gaps`: what the sources name but do not lay out (`spec/gaps.toml`): each with its
//!   `name`, `opcode` (`value`, `enumerator`) or null, the `word` it is part of or null,
//!   `reason`, confidence, evidence and declaring `file`.
//! - `regfiles`: the register files (`spec/registers/`): `name`, `size`, `bus_width`,
//!   `archs`, `counts`, and `bundles` (`offset`, `size`, `count`, `stride`, `archs`), each
//!   with `registers` (`offset` from the bundle, `width`, `access`, `special_access`
//!   (`"PulseOnW"` or null), `reset` or null) and
//!   their `fields` (`lsb`, `width`, `access`, `reset`, `enum_type`); every item with its
//!   `archs`, confidence and evidence.
//! - `addrmaps`: the SoC address maps (`spec/addrmap/`), one per architecture a source
//!   places: `arch`, `doc`, `slots` (`name`, `size`, `parts`: `name`, `regfile` or null for
//!   a reserved range, `offset` from the instance's base, `size`) and `windows` (`name`
//!   with `{n}` for the channel number, `slot` an index into `slots`, `base`, `count`,
//!   `stride`, `step`): instance `i` of a window is at `base + i·stride` and named with
//!   `{n}` = `i·step`; every slot and window with its confidence and evidence.

use serde::Serialize;

use crate::model::*;

/// The dictionary's format version, the first key of `dmaspec.json`.
pub const FORMAT: &str = "dmaspec/5";

/// Files under `generated/` for this target, as (relative path, contents): `dmaspec.json`
/// and the same dictionary as a script for the viewer (`docs/viewer/dmaspec.js`, compact:
/// a page opened from file:// cannot fetch a JSON file, but it can load a script).
pub fn render(model: &Model) -> Vec<(String, String)> {
    let doc = doc(model);
    let compact = serde_json::to_string(&doc).expect("the model serializes");
    vec![
        ("dmaspec.json".to_string(), pretty(&doc)),
        (
            super::viewer::DICTIONARY.to_string(),
            super::viewer::dictionary_script(&compact),
        ),
    ]
}

/// The text of `dmaspec.json`.
pub fn dictionary(model: &Model) -> String {
    pretty(&doc(model))
}

fn pretty(doc: &Doc<'_>) -> String {
    let mut text = serde_json::to_string_pretty(doc).expect("the model serializes");
    text.push('\n');
    text
}

fn doc(model: &Model) -> Doc<'_> {
    Doc {
        format: FORMAT,
        levels: &model.levels,
        scales: &model.scales,
        sources: &model.sources,
        archs: &model.archs,
        types: &model.types,
        words: model.words().map(|w| word(model, w)).collect(),
        records: model.records().map(|r| record(model, r)).collect(),
        rules: rules(model),
        lowerings: &model.lowerings,
        klr: &model.klr,
        conflicts: &model.conflicts,
        gaps: &model.gaps,
        regfiles: &model.regfiles,
        addrmaps: &model.addrmaps,
    }
}

#[derive(Serialize)]
struct Doc<'m> {
    format: &'static str,
    levels: &'m [Level],
    scales: &'m [Scale],
    sources: &'m [Source],
    archs: &'m [Arch],
    types: &'m [TypeDef],
    words: Vec<Word<'m>>,
    /// Structs decoded on their own (`top_level`), each with its size and leaves.
    records: Vec<Record<'m>>,
    /// Validity rules (constants, tables, one set per struct), expressions lowered to
    /// field reads by byte offset / bit range (see `dmaspec_codegen::rules`).
    rules: serde_json::Value,
    /// Pseudo-word lowerings: per selector value the real word, routes and every field
    /// mapping with its confidence (`inferred`: not stated by the sources).
    lowerings: &'m [crate::model::lowering::Lowering],
    /// Seed 003's KLR→BIR leaves, their layouts, enums, tables and provenance.
    klr: &'m crate::model::klr::KlrModel,
    /// Disagreements no field's alternatives hold (`[[conflict]]`), every reading with
    /// its confidence and evidence.
    conflicts: &'m [Conflict],
    /// What the sources name but do not lay out (`[[gap]]`), each with why and who says so.
    gaps: &'m [crate::model::gaps::Gap],
    /// Register files: bundles, registers and fields, per generation (`archs`).
    regfiles: &'m [crate::model::registers::RegFile],
    /// Where the register files' instances lie in the SoC's MMIO space, per architecture.
    addrmaps: &'m [crate::model::addrmap::AddrMap],
}

#[derive(Serialize)]
struct Word<'m> {
    name: &'m str,
    c_name: &'m str,
    size: usize,
    doc: &'m str,
    opcode: WordOpcode<'m>,
    /// Other names of the word, each with who spells it so (`source` null: the spec's own).
    aliases: &'m [Alias],
    /// Architectures that ship the word: its own list narrowed by its enumerator's.
    arch: Vec<&'m str>,
    /// No source lists the word per architecture: "all" is the spec's inference.
    arch_inferred: bool,
    /// The words one of which this one positionally extends (empty: it stands alone).
    follows: &'m [String],
    confidence: &'m Confidence,
    evidence: &'m [Evidence],
    leaves: Vec<WordLeaf<'m>>,
}

#[derive(Serialize)]
struct Record<'m> {
    name: &'m str,
    c_name: &'m str,
    /// Bytes per record.
    size: usize,
    doc: &'m str,
    confidence: &'m Confidence,
    evidence: &'m [Evidence],
    leaves: Vec<WordLeaf<'m>>,
}

#[derive(Serialize)]
struct WordOpcode<'m> {
    value: u8,
    /// The `OPCODE` enumerator's name.
    enumerator: &'m str,
    /// Other spellings of the enumerator, each with the source that uses it.
    aliases: &'m [Alias],
    /// The engine that executes the opcode, when the sources say.
    engine: Option<&'m str>,
    /// A sub-word's envelope, selector field (offset, size) and value; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    sub_opcode: Option<&'m SubOpcode>,
}

#[derive(Serialize)]
struct WordLeaf<'m> {
    path: String,
    offset: usize,
    size: usize,
    /// Bit range within the `size`-byte little-endian container, for bitfield sub-fields.
    bits: Option<Bits>,
    #[serde(rename = "type")]
    type_name: String,
    role: Role,
    /// The value the encoder always writes here (decode reports a word where it differs).
    constant: Option<u64>,
    doc: &'m str,
    /// The union arm (`src_start_addr.addr_reg`) the leaf belongs to.
    variant: Option<String>,
    /// The weakest tag along `chain`; null for an unknown leaf (no meaning is claimed).
    confidence: Option<&'m Confidence>,
    /// The members from the word's field to the one declaring the leaf, outermost first,
    /// each with its own tag and evidence.
    chain: Vec<ChainLink<'m>>,
    alternatives: Vec<WordAlternative<'m>>,
}

#[derive(Serialize)]
struct ChainLink<'m> {
    path: String,
    /// Null for the unknown member an unknown leaf is: it claims no meaning.
    confidence: Option<&'m Confidence>,
    evidence: &'m [Evidence],
}

#[derive(Serialize)]
struct Bits {
    lsb: u32,
    width: u32,
}

#[derive(Serialize)]
struct WordAlternative<'m> {
    name: &'m str,
    /// Spelled as in the spec; the leaf's own type when the alternative keeps it.
    #[serde(rename = "type")]
    type_name: String,
    doc: &'m str,
    confidence: &'m Confidence,
    evidence: &'m [Evidence],
}

/// The rules as the model serializes them, each field read with the C member path the
/// headers use (`c_path`, after `path`), which the model leaves to the C emitter.
fn rules(model: &Model) -> serde_json::Value {
    let mut v = serde_json::to_value(&model.rules).expect("the rules serialize");
    let sets = v.get_mut("sets").and_then(serde_json::Value::as_array_mut);
    for (json, set) in sets.into_iter().flatten().zip(&model.rules.sets) {
        add_c_paths(model, set.owner, json);
    }
    v
}

fn add_c_paths(model: &Model, owner: usize, v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Array(items) => items.iter_mut().for_each(|x| add_c_paths(model, owner, x)),
        Value::Object(o) => {
            let read = o.get("op").and_then(Value::as_str) == Some("read");
            match o.get_mut("access") {
                Some(Value::Object(access)) if read => {
                    let path = access.get("path").and_then(Value::as_str).unwrap_or("");
                    let c = Value::String(crate::emit::c::c_path(model, owner, path));
                    let mut c = Some(c);
                    *access = std::mem::take(access)
                        .into_iter()
                        .flat_map(|(k, x)| {
                            let after = (k == "path").then(|| c.take()).flatten();
                            std::iter::once((k, x)).chain(after.map(|c| ("c_path".into(), c)))
                        })
                        .collect();
                }
                _ => o.values_mut().for_each(|x| add_c_paths(model, owner, x)),
            }
        }
        _ => {}
    }
}

/// The leaves of a word or record, as the byte tables show them.
fn leaves<'m>(model: &'m Model, t: &'m TypeDef) -> Vec<WordLeaf<'m>> {
    model
        .leaves(t)
        .into_iter()
        .map(|l| WordLeaf {
            chain: l
                .claims()
                .map(|(c, confidence)| ChainLink {
                    path: c.path.clone(),
                    confidence,
                    evidence: c.evidence,
                })
                .collect(),
            alternatives: l
                .alternatives
                .iter()
                .map(|a| WordAlternative {
                    name: &a.name,
                    type_name: a
                        .ty
                        .as_ref()
                        .map_or_else(|| l.type_name.clone(), TypeRef::spelling),
                    doc: &a.doc,
                    confidence: &a.confidence,
                    evidence: &a.evidence,
                })
                .collect(),
            bits: l.bits.map(|(lsb, width)| Bits { lsb, width }),
            path: l.path,
            offset: l.offset,
            size: l.size,
            type_name: l.type_name,
            role: l.role,
            constant: l.constant,
            doc: l.doc,
            variant: l.variant,
            confidence: l.confidence,
        })
        .collect()
}

fn record<'m>(model: &'m Model, r: &'m TypeDef) -> Record<'m> {
    Record {
        name: &r.name,
        c_name: &r.c_name,
        size: r.size,
        doc: &r.doc,
        confidence: &r.confidence,
        evidence: &r.evidence,
        leaves: leaves(model, r),
    }
}

fn word<'m>(model: &'m Model, w: &'m TypeDef) -> Word<'m> {
    let op = w.opcode().expect("words have an opcode");
    let follows = match &w.kind {
        TypeKind::Struct { follows, .. } => follows.as_slice(),
        _ => &[],
    };
    let leaves = leaves(model, w);
    Word {
        name: &w.name,
        c_name: &w.c_name,
        size: w.size,
        doc: &w.doc,
        opcode: WordOpcode {
            value: op.value,
            enumerator: &op.enumerator,
            aliases: model
                .opcode_enumerator(w)
                .map_or(&[][..], |e| e.aliases.as_slice()),
            engine: model.opcode_enumerator(w).and_then(|e| e.engine.as_deref()),
            sub_opcode: op.sub.as_ref(),
        },
        aliases: match &w.kind {
            TypeKind::Struct { aliases, .. } => aliases,
            _ => &[],
        },
        arch: model.word_archs(w),
        arch_inferred: matches!(
            w.kind,
            TypeKind::Struct {
                arch_inferred: true,
                ..
            }
        ),
        follows,
        confidence: &w.confidence,
        evidence: &w.evidence,
        leaves,
    }
}
