//! The Kaitai Struct target: `kaitai/<type>.ksy`, one file per word, record and shared
//! type, for reverse engineers' tools (the Kaitai Web IDE, and parsers compiled by
//! `kaitai-struct-compiler` for a dozen languages).
//!
//! Each file's top-level type has the spec type's name in lower case (`DMA_INDIRECT1D` is
//! `dma_indirect1d`) and imports the files of the types it uses. How the model maps:
//!
//! - a struct (word, record or nested) is a `seq` of its members by offset, little-endian;
//!   bytes no member covers are unnamed `size` entries;
//! - an enum is a file holding only `enums: {<id>: …}`, used as `enum: <id>::<id>` on an
//!   integer of its width; each enumerator keeps its spelling as `-orig-id`;
//! - a bitfield is a `seq` of `bN` in `bit-endian: le` order (lowest bit first, which is
//!   how a little-endian container holds them); a 1-bit sub-field reads as a boolean;
//! - a flags type is its `raw` integer and one boolean instance per named bit;
//! - a union reads its selector bytes (`selector`), names the arm it picks as `variant`
//!   (tests in spec order, the default arm last, as dmaspec decodes) and reads that arm as
//!   `arm` with `switch-on: variant`; each arm is a local type `arm_<name>`;
//! - a value split across fields (a join) and a stored 0 that means another value (a
//!   codec) are value instances beside the stored fields.
//!
//! Every `doc` carries the spec's prose, the confidence tag and the citations (`[HIGH/
//! OBSERVED; seed-004 §3.2]`), the constant the encoder writes, the alternative readings,
//! and what Kaitai cannot say: enumerators that exist only on some architectures, a
//! word's positional requirement (`follows`), its sub-opcode selector and its rules.
//!
//! Beside them, `kaitai/dmaspec_stream.ksy` reads a file of words, each as the word its
//! opcode names (`stream.rs`).

mod ident;
mod stream;
mod yaml;

pub use ident::id;
use ident::uint_type;

use std::collections::BTreeSet;

use yaml::Node;

use crate::emit::svd::provenance;
use crate::model::provenance::{Confidence, Evidence};
use crate::model::*;
use crate::output::STAMP;

/// Every `.ksy` file: (path under `generated/`, contents), the types in spec order, then
/// the stream of words.
pub fn render(model: &Model) -> Vec<(String, String)> {
    let mut files: Vec<_> = model
        .types
        .iter()
        .map(|t| (path(t), file(model, t)))
        .collect();
    files.push(stream::render(model));
    files
}

/// `kaitai/<id>.ksy`.
pub fn path(t: &TypeDef) -> String {
    format!("kaitai/{}.ksy", id(&t.name))
}

/// One type's file: the stamp, `meta` (with the imports its members need), `doc`, then
/// what the kind holds.
fn file(model: &Model, t: &TypeDef) -> String {
    let mut f = Ksy {
        model,
        imports: BTreeSet::new(),
    };
    let own = id(&t.name);
    let body = match &t.kind {
        TypeKind::Enum { values, .. } => vec![(
            "enums".to_string(),
            Node::map([(own.clone(), enumerators(values))]),
        )],
        TypeKind::Flags { repr, none, bits } => flags(*repr, none.as_deref(), bits),
        TypeKind::Bitfield { repr, fields } => f.bitfield(*repr, fields),
        TypeKind::Struct { fields, joins, .. } => {
            let mut body = vec![(
                "seq".to_string(),
                f.seq(fields, t.size, &|_, _| "no member".to_string()),
            )];
            let instances = f.derived(fields, joins);
            if !instances.is_empty() {
                body.push(("instances".to_string(), Node::Map(instances)));
            }
            body
        }
        TypeKind::Union {
            discriminator,
            variants,
        } => f.union(t, discriminator, variants),
    };
    f.imports.remove(&own);
    let mut meta = vec![
        ("id".to_string(), Node::str(&own)),
        ("title".to_string(), Node::str(&t.name)),
        ("endian".to_string(), Node::str("le")),
        ("bit-endian".to_string(), Node::str("le")),
    ];
    if !f.imports.is_empty() {
        meta.push((
            "imports".to_string(),
            Node::List(f.imports.iter().map(Node::str).collect()),
        ));
    }
    let mut root = vec![
        ("meta".to_string(), Node::Map(meta)),
        ("doc".to_string(), Node::str(type_doc(model, t))),
    ];
    root.extend(body);
    format!(
        "# {STAMP} from spec/{}: do not edit\n{}",
        t.file,
        yaml::render(&Node::Map(root))
    )
}

/// The file being written: the model, and the files its types import.
struct Ksy<'m> {
    model: &'m Model,
    imports: BTreeSet<String>,
}

impl Ksy<'_> {
    /// A `seq` of `fields` (offsets from the type's start) covering `size` bytes; a run of
    /// bytes `a..b` no field covers is an unnamed entry whose doc says it holds `gap(a, b)`.
    fn seq(&mut self, fields: &[Field], size: usize, gap: &dyn Fn(usize, usize) -> String) -> Node {
        let mut sorted: Vec<&Field> = fields.iter().collect();
        sorted.sort_by_key(|f| f.offset);
        let mut items = Vec::new();
        let mut at = 0;
        for f in sorted {
            if f.offset > at {
                items.push(gap_entry(at, f.offset, &gap(at, f.offset)));
            }
            let mut e = vec![("id".to_string(), Node::str(&f.name))];
            self.typed(&f.ty, &mut e);
            e.push(("doc".to_string(), Node::str(field_doc(f))));
            items.push(Node::Map(e));
            at = at.max(f.offset + f.size);
        }
        if size > at {
            items.push(gap_entry(at, size, &gap(at, size)));
        }
        Node::List(items)
    }

    /// The keys that read a member of type `ty`: `type`, and `enum`, `size` or `repeat`.
    fn typed(&mut self, ty: &TypeRef, e: &mut Vec<(String, Node)>) {
        match ty {
            TypeRef::Int { int } => e.push(("type".into(), Node::str(int_type(*int)))),
            TypeRef::Named { index, .. } => {
                let t = &self.model.types[*index];
                let tid = id(&t.name);
                self.imports.insert(tid.clone());
                match &t.kind {
                    TypeKind::Enum { repr, .. } => {
                        e.push(("type".into(), Node::str(int_type(*repr))));
                        e.push(("enum".into(), Node::str(format!("{tid}::{tid}"))));
                    }
                    // The union reads at positions within its own bytes: a substream.
                    TypeKind::Union { .. } => {
                        e.push(("size".into(), Node::int(t.size as u64)));
                        e.push(("type".into(), Node::str(tid)));
                    }
                    _ => e.push(("type".into(), Node::str(tid))),
                }
            }
            TypeRef::Array { elem, len } => {
                self.typed(elem, e);
                e.push(("repeat".into(), Node::str("expr")));
                e.push(("repeat-expr".into(), Node::int(*len as u64)));
            }
            // Raw bytes: a text decoding would fail on the bytes a random or corrupt word
            // holds, where dmaspec shows them.
            TypeRef::Ascii { len } => e.push(("size".into(), Node::int(*len as u64))),
        }
    }

    /// A bitfield: its sub-fields as `bN`, lowest bit first; unnamed runs for bits in no
    /// sub-field.
    fn bitfield(&mut self, repr: Int, fields: &[BitField]) -> Vec<(String, Node)> {
        let mut sorted: Vec<&BitField> = fields.iter().collect();
        sorted.sort_by_key(|b| b.lsb);
        let mut items = Vec::new();
        let mut at = 0;
        let gap = |from: u32, to: u32| {
            Node::map([
                ("type", Node::str(format!("b{}", to - from))),
                (
                    "doc",
                    Node::str(format!("Bits {from}..={}: in no sub-field.", to - 1)),
                ),
            ])
        };
        for b in sorted {
            if b.lsb > at {
                items.push(gap(at, b.lsb));
            }
            let mut e = vec![
                ("id".to_string(), Node::str(&b.name)),
                ("type".to_string(), Node::str(format!("b{}", b.width))),
            ];
            let mut notes = vec![match b.width {
                1 => format!("Bit {}.", b.lsb),
                w => format!("Bits {}..={}.", b.lsb, b.lsb + w - 1),
            }];
            if let BitsType::Named { index, .. } = &b.ty {
                let t = &self.model.types[*index];
                let tid = id(&t.name);
                match t.kind {
                    TypeKind::Enum { .. } => {
                        self.imports.insert(tid.clone());
                        e.push(("enum".into(), Node::str(format!("{tid}::{tid}"))));
                    }
                    _ => notes.push(format!(
                        "Holds the bits of flags type {} (Kaitai reads them as one integer).",
                        t.name
                    )),
                }
            }
            notes.extend(member_notes(b.role, b.constant, &b.alternatives));
            let doc = describe(&b.doc, &notes, tag(b.claimed(), &b.evidence));
            e.push(("doc".into(), Node::str(doc)));
            items.push(Node::Map(e));
            at = at.max(b.lsb + b.width);
        }
        if repr.bits() > at {
            items.push(gap(at, repr.bits()));
        }
        vec![("seq".to_string(), Node::List(items))]
    }

    /// Value instances for a struct's joins and codecs.
    fn derived(&self, fields: &[Field], joins: &[Join]) -> Vec<(String, Node)> {
        let mut out = Vec::new();
        for j in joins {
            let mut shift = 0;
            let mut terms = Vec::new();
            for (part, width) in &j.parts {
                // A product, not `<<`: JavaScript shifts only 32 bits.
                terms.push(match shift {
                    0 => part.clone(),
                    s => format!("{part} * {}", 1u128 << s),
                });
                shift += width;
            }
            let parts: Vec<&str> = j.parts.iter().map(|(p, _)| p.as_str()).collect();
            let notes = [format!(
                "One value stored in {}, low part first.",
                parts.join(", ")
            )];
            out.push((
                j.name.clone(),
                Node::map([
                    ("value", Node::str(terms.join(" + "))),
                    (
                        "doc",
                        Node::str(describe(
                            &j.doc,
                            &notes,
                            provenance(&j.confidence, &j.evidence),
                        )),
                    ),
                ]),
            ));
        }
        for f in fields {
            if let Some(Codec::ZeroMeans(v)) = f.codec {
                let doc = format!(
                    "`{}` as meant: a stored 0 means {v}, any other value itself.",
                    f.name
                );
                out.push((
                    codec_instance(f),
                    Node::map([
                        ("value", Node::str(format!("{0} == 0 ? {v} : {0}", f.name))),
                        ("doc", Node::str(doc)),
                    ]),
                ));
            }
        }
        out
    }

    /// A union: its discriminator and selector bits, the arm they pick (`variant`) and
    /// the arm's fields (`arm`), each arm a local type.
    fn union(&mut self, t: &TypeDef, disc: &Field, variants: &[Variant]) -> Vec<(String, Node)> {
        let mut instances = Vec::new();
        let mut d = vec![("pos".to_string(), Node::int(disc.offset as u64))];
        self.typed(&disc.ty, &mut d);
        d.push(("doc".into(), Node::str(field_doc(disc))));
        instances.push((disc.name.clone(), Node::Map(d)));
        instances.push((
            "selector".to_string(),
            Node::map([
                ("pos", Node::int(disc.offset as u64)),
                ("type", Node::str(uint_type(disc.size))),
                (
                    "doc",
                    Node::str(format!(
                        "The bits of `{}` as one integer: what chooses the arm.",
                        disc.name
                    )),
                ),
            ]),
        ));
        // Tests in spec order, then the default arm (or, with none, no arm).
        let default = variants.iter().position(|v| v.mask.is_none());
        let mut choice = default.unwrap_or(variants.len()).to_string();
        for (i, v) in variants.iter().enumerate().rev() {
            if let (Some(m), Some(val)) = (v.mask, v.value) {
                let otherwise = match choice.contains('?') {
                    true => format!("({choice})"),
                    false => choice,
                };
                choice = format!("(selector & {m}) == {val} ? {i} : {otherwise}");
            }
        }
        instances.push((
            "variant".to_string(),
            Node::map([
                ("value", Node::str(choice)),
                ("enum", Node::str("variant")),
                (
                    "doc",
                    Node::str(
                        "The arm the selector picks: each arm's test in turn \
                         (`selector & mask == value`), the default arm when none holds.",
                    ),
                ),
            ]),
        ));
        let cases: Vec<(String, Node)> = variants
            .iter()
            .map(|v| {
                (
                    format!("variant::{}", v.name),
                    Node::str(format!("arm_{}", v.name)),
                )
            })
            .collect();
        instances.push((
            "arm".to_string(),
            Node::map([
                ("pos", Node::int(0)),
                ("size", Node::int(t.size as u64)),
                (
                    "type",
                    Node::map([
                        ("switch-on", Node::str("variant")),
                        ("cases", Node::Map(cases)),
                    ]),
                ),
                ("doc", Node::str("The fields of the arm `variant` names.")),
            ]),
        ));
        let arm_enum = variants.iter().enumerate().map(|(i, v)| {
            let test = match (v.mask, v.value) {
                (Some(m), Some(val)) => format!("When selector & {m:#x} == {val:#x}."),
                _ => "The default arm: when no other arm's test holds.".to_string(),
            };
            let doc = describe(&v.doc, &[test], provenance(&v.confidence, &v.evidence));
            (
                i.to_string(),
                Node::map([("id", Node::str(&v.name)), ("doc", Node::str(doc))]),
            )
        });
        let selector = disc.offset..disc.offset + disc.size;
        let gap = |from: usize, to: usize| {
            if from < selector.end && selector.start < to {
                format!("the union's selector `{}` (read above)", disc.name)
            } else {
                "no member of this arm".to_string()
            }
        };
        let arms: Vec<(String, Node)> = variants
            .iter()
            .map(|v| {
                let seq = self.seq(&v.fields, t.size, &gap);
                let doc = describe(
                    &v.doc,
                    &[format!("The `{}` arm of {}.", v.name, t.name)],
                    provenance(&v.confidence, &v.evidence),
                );
                (
                    format!("arm_{}", v.name),
                    Node::map([("doc", Node::str(doc)), ("seq", seq)]),
                )
            })
            .collect();
        vec![
            ("instances".to_string(), Node::Map(instances)),
            (
                "enums".to_string(),
                Node::map([("variant", Node::map(arm_enum))]),
            ),
            ("types".to_string(), Node::Map(arms)),
        ]
    }
}

/// The name of a codec field's meant-value instance.
pub fn codec_instance(f: &Field) -> String {
    format!("{}_value", f.name)
}

/// An unnamed `seq` entry over bytes `from..to`.
fn gap_entry(from: usize, to: usize, holds: &str) -> Node {
    Node::map([
        ("size", Node::int((to - from) as u64)),
        ("doc", Node::str(format!("Bytes {from}..{to}: {holds}."))),
    ])
}

/// Kaitai's name of a little-endian integer (`endian: le` is the files' default).
fn int_type(int: Int) -> &'static str {
    match int {
        Int::U8 => "u1",
        Int::U16 => "u2",
        Int::U24 => "b24",
        Int::U32 => "u4",
        Int::U64 => "u8",
        Int::I8 => "s1",
        Int::I16 => "s2",
        Int::I32 => "s4",
        Int::I64 => "s8",
    }
}

/// A flags type: the raw integer and a boolean per named bit.
fn flags(repr: Int, none: Option<&str>, bits: &[FlagBit]) -> Vec<(String, Node)> {
    let mut raw_doc = "Every bit; the named ones are the instances beside it.".to_string();
    if let Some(n) = none {
        raw_doc.push_str(&format!(" No bit set is {n}."));
    }
    let seq = Node::List(vec![Node::map([
        ("id", Node::str("raw")),
        ("type", Node::str(int_type(repr))),
        ("doc", Node::str(raw_doc)),
    ])]);
    let instances = bits.iter().map(|b| {
        let doc = describe(&b.doc, &[format!("Bit {}.", b.bit)], String::new());
        (
            b.name.to_ascii_lowercase(),
            Node::map([
                (
                    "value",
                    Node::str(format!("(raw & {}) != 0", 1u64 << b.bit)),
                ),
                ("-orig-id", Node::str(&b.name)),
                ("doc", Node::str(doc)),
            ]),
        )
    });
    vec![
        ("seq".to_string(), seq),
        ("instances".to_string(), Node::map(instances)),
    ]
}

/// An enum's `enums` entry: each value with its id, spelling and doc.
fn enumerators(values: &[Enumerator]) -> Node {
    Node::map(values.iter().map(|e| {
        let mut notes = Vec::new();
        if !e.arch.is_empty() {
            notes.push(format!(
                "Only on {} (a Kaitai enum is the same on every architecture).",
                e.arch.join(", ")
            ));
        }
        if let Some(engine) = &e.engine {
            notes.push(format!("Executed by {engine}."));
        }
        for a in &e.aliases {
            notes.push(format!("Also {} ({}).", a.name, a.spelled_by()));
        }
        let mut entry = vec![
            ("id".to_string(), Node::str(e.name.to_ascii_lowercase())),
            ("-orig-id".to_string(), Node::str(&e.name)),
        ];
        let doc = describe(e.doc.as_deref().unwrap_or(""), &notes, String::new());
        if !doc.is_empty() {
            entry.push(("doc".into(), Node::str(doc)));
        }
        (e.value.to_string(), Node::Map(entry))
    }))
}

/// `[TAG; cite; …]`, or for a member that claims no meaning, what cites it.
fn tag(claimed: Option<&Confidence>, evidence: &[Evidence]) -> String {
    match claimed {
        Some(c) => provenance(c, evidence),
        None => {
            let cites = evidence.iter().map(|e| format!("; {}", e.cite));
            format!("[no meaning claimed{}]", cites.collect::<String>())
        }
    }
}

/// What a member's role, constant and alternative readings add to its doc.
fn member_notes(role: Role, constant: Option<u64>, alternatives: &[Alternative]) -> Vec<String> {
    let mut notes = Vec::new();
    match role {
        Role::Data => {}
        Role::Reserved => notes.push("Reserved.".to_string()),
        Role::Unknown => notes.push("No source gives these bits a meaning.".to_string()),
    }
    if let Some(c) = constant {
        notes.push(format!(
            "The encoder always writes {c} (dmaspec decode reports another value; this \
             parser reads it as it is)."
        ));
    }
    for a in alternatives {
        let ty =
            a.ty.as_ref()
                .map_or(String::new(), |t| format!(" as {}", t.spelling()));
        notes.push(format!(
            "Alternative reading `{}`{ty}: {} {}",
            a.name,
            a.doc.trim(),
            provenance(&a.confidence, &a.evidence)
        ));
    }
    notes
}

fn field_doc(f: &Field) -> String {
    let mut notes = Vec::new();
    if let TypeRef::Ascii { len } = f.ty {
        notes.push(format!(
            "ASCII text, NUL-padded to {len} bytes (read as bytes)."
        ));
    }
    if let Some(Codec::ZeroMeans(v)) = f.codec {
        notes.push(format!(
            "A stored 0 means {v} (instance `{}`).",
            codec_instance(f)
        ));
    }
    notes.extend(member_notes(f.role, f.constant, &f.alternatives));
    describe(&f.doc, &notes, tag(f.claimed(), &f.evidence))
}

/// A type's doc: its prose, what it is (a word's opcode, architectures and positional
/// requirement; a record's size), its alternative readings, and its provenance.
fn type_doc(model: &Model, t: &TypeDef) -> String {
    let mut notes = Vec::new();
    if let Some(op) = t.opcode() {
        notes.push(format!(
            "A {}-byte word: opcode {:#04x} ({}), on {}{}.",
            t.size,
            op.value,
            op.enumerator,
            model.word_archs(t).join(", "),
            match t.kind {
                TypeKind::Struct {
                    arch_inferred: true,
                    ..
                } => " (no source lists it per architecture)",
                _ => "",
            }
        ));
        if let Some(sub) = &op.sub {
            notes.push(format!(
                "Chosen over {} by bytes {}..{} (its field `{}`) holding {} ({}); a file \
                 per word cannot dispatch, so pick this type for such words.",
                sub.envelope,
                sub.offset,
                sub.offset + sub.size,
                sub.field,
                sub.value,
                sub.enumerator
            ));
        }
    } else if t.is_record() {
        notes.push(format!("A {}-byte record, decoded on its own.", t.size));
    }
    if let TypeKind::Struct {
        follows,
        aliases,
        alternatives,
        ..
    } = &t.kind
    {
        if !follows.is_empty() {
            notes.push(format!(
                "Must immediately follow one of {} (Kaitai cannot check the word before).",
                follows.join(", ")
            ));
        }
        for a in aliases {
            notes.push(format!("Also {} ({}).", a.name, a.spelled_by()));
        }
        notes.extend(member_notes(Role::Data, None, alternatives));
    }
    if t.is_top_level()
        && model
            .rules
            .sets
            .iter()
            .any(|s| model.types[s.owner].name == t.name)
    {
        notes.push(
            "Its validity rules are not expressed here: `dmaspec validate` checks them."
                .to_string(),
        );
    }
    describe(&t.doc, &notes, provenance(&t.confidence, &t.evidence))
}

/// Prose, notes and provenance as one doc line.
fn describe(doc: &str, notes: &[String], prov: String) -> String {
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut parts: Vec<String> = Vec::new();
    if !doc.is_empty() {
        parts.push(doc);
    }
    parts.extend(notes.iter().cloned());
    if !prov.is_empty() {
        parts.push(prov);
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests;
