//! Types compared by name (a type that vanished and one that appeared with the same shape,
//! or with the old name as an alias, is a rename), then their members.

use super::change::{Change, Cx, Impact, Kind, cites};
use super::members::{Class, Item, Member, compare};
use crate::model::{BitsType, Field, Model, TypeDef, TypeKind};
use crate::naming::plural;

/// What the report calls a type.
pub(super) fn kind_of(t: &TypeDef) -> &'static str {
    match &t.kind {
        TypeKind::Enum { .. } => "enum",
        TypeKind::Flags { .. } => "flags",
        TypeKind::Bitfield { .. } => "bitfield",
        TypeKind::Union { .. } => "union",
        TypeKind::Struct { .. } if t.opcode().is_some() => "word",
        TypeKind::Struct { .. } if t.is_record() => "record",
        TypeKind::Struct { .. } => "struct",
    }
}

/// The storage integer of an enum, flags or bitfield type.
fn repr_of(t: &TypeDef) -> Option<&'static str> {
    match &t.kind {
        TypeKind::Enum { repr, .. }
        | TypeKind::Flags { repr, .. }
        | TypeKind::Bitfield { repr, .. } => Some(repr.rust()),
        _ => None,
    }
}

fn aliases_of(t: &TypeDef) -> Vec<&str> {
    match &t.kind {
        TypeKind::Struct { aliases, .. } => aliases.iter().map(|a| a.name.as_str()).collect(),
        _ => Vec::new(),
    }
}

fn field<'m>(f: &'m Field, prefix: &str) -> Member<'m> {
    Member {
        name: format!("{prefix}{}", f.name),
        place: (f.offset as u64, f.size as u64),
        ty: f.ty.spelling(),
        confidence: Some(&f.confidence),
        cites: cites(&f.evidence),
        alternatives: f.alternatives.iter().map(|a| a.name.clone()).collect(),
        aliases: Vec::new(),
    }
}

/// The members of `t` and how they are compared.
fn members(t: &TypeDef) -> (Class, Vec<Member<'_>>) {
    match &t.kind {
        TypeKind::Enum { values, .. } => (
            Class::Enumerator,
            values
                .iter()
                .map(|v| Member {
                    name: v.name.clone(),
                    place: (v.value, 0),
                    ty: String::new(),
                    confidence: None,
                    cites: Vec::new(),
                    alternatives: Vec::new(),
                    aliases: v.aliases.iter().map(|a| a.name.clone()).collect(),
                })
                .collect(),
        ),
        TypeKind::Flags { bits, .. } => (
            Class::FlagBit,
            bits.iter()
                .map(|b| Member {
                    name: b.name.clone(),
                    place: (u64::from(b.bit), 1),
                    ty: String::new(),
                    confidence: None,
                    cites: Vec::new(),
                    alternatives: Vec::new(),
                    aliases: Vec::new(),
                })
                .collect(),
        ),
        TypeKind::Bitfield { fields, .. } => (
            Class::SubField,
            fields
                .iter()
                .map(|b| Member {
                    name: b.name.clone(),
                    place: (u64::from(b.lsb), u64::from(b.width)),
                    ty: match &b.ty {
                        BitsType::Uint => format!("u{}", b.width),
                        BitsType::Named { name, .. } => name.clone(),
                    },
                    confidence: Some(&b.confidence),
                    cites: cites(&b.evidence),
                    alternatives: b.alternatives.iter().map(|a| a.name.clone()).collect(),
                    aliases: Vec::new(),
                })
                .collect(),
        ),
        TypeKind::Struct { fields, .. } => {
            (Class::Field, fields.iter().map(|f| field(f, "")).collect())
        }
        TypeKind::Union {
            discriminator,
            variants,
        } => {
            let mut all = vec![field(discriminator, "")];
            for v in variants {
                let prefix = format!("{}.", v.name);
                all.extend(v.fields.iter().map(|f| field(f, &prefix)));
            }
            (Class::Field, all)
        }
    }
}

/// Same kind, size and members (by name and place): the same type under another name.
fn same_shape(a: &TypeDef, b: &TypeDef) -> bool {
    let (ma, mb) = (members(a).1, members(b).1);
    kind_of(a) == kind_of(b)
        && a.size == b.size
        && ma.len() == mb.len()
        && ma
            .iter()
            .zip(&mb)
            .all(|(x, y)| x.name == y.name && x.place == y.place)
}

impl<'m> Cx<'m> {
    /// What comparing `old` with `new` shares (here, beside the renames it finds).
    pub(crate) fn new(old: &'m Model, new: &'m Model) -> Self {
        Cx {
            new,
            renames: renames(old, new),
        }
    }
}

/// The types that vanished from `old` and reappear in `new` under another name, with the
/// same shape or with the old name as an alias: (old, new).
pub(super) fn renames<'m>(old: &'m Model, new: &'m Model) -> Vec<(&'m TypeDef, &'m TypeDef)> {
    let mut gone: Vec<&TypeDef> = old
        .types
        .iter()
        .filter(|o| new.type_by_name(&o.name).is_none())
        .collect();
    let mut out = Vec::new();
    for n in new
        .types
        .iter()
        .filter(|n| old.type_by_name(&n.name).is_none())
    {
        let kept = |o: &&TypeDef| aliases_of(n).contains(&o.name.as_str()) || same_shape(o, n);
        if let Some(i) = gone.iter().position(kept) {
            out.push((gone.remove(i), n));
        }
    }
    out
}

/// The changes of one kind's types (`olds` and `news`, each spec's in order): the new
/// ones, then the removed ones. A type is found by name in the whole other spec, so one
/// that changed kind (a struct become a record) is retyped, not removed and added.
pub(super) fn types(
    cx: &Cx,
    (old, new): (&Model, &Model),
    olds: &[&TypeDef],
    news: &[&TypeDef],
) -> Vec<Change> {
    let mut out = Vec::new();
    for n in news.iter().copied() {
        let item = Item {
            name: &n.name,
            kind: kind_of(n),
        };
        let o = match old.type_by_name(&n.name) {
            Some(o) => o,
            None => match cx.renames.iter().find(|(_, r)| r.name == n.name) {
                Some((o, _)) => {
                    out.push(renamed_type(&item, o, n));
                    o
                }
                None => {
                    out.push(added_type(&item, n));
                    continue;
                }
            },
        };
        out.extend(matched(cx, &item, o, n));
    }
    let gone = olds.iter().filter(|o| {
        new.type_by_name(&o.name).is_none() && cx.renames.iter().all(|(r, _)| r.name != o.name)
    });
    for o in gone {
        let item = Item {
            name: &o.name,
            kind: kind_of(o),
        };
        let detail = format!("{} ({}, {})", item.kind, plural(o.size, "byte"), o.file);
        out.push(item.change(None, Kind::Removed, detail, Impact::Major, Impact::Major));
    }
    out
}

fn added_type(item: &Item, n: &TypeDef) -> Change {
    let detail = format!("{} ({}, {})", item.kind, plural(n.size, "byte"), n.file);
    let why = match item.kind {
        "word" => {
            "Rust: a new variant of the exhaustive `Word` and `view::Word` enums breaks exhaustive matches; C: a new header"
        }
        "record" => {
            "Rust: a new variant of the exhaustive `Record` enum breaks exhaustive matches; C: a new struct"
        }
        _ => return item.change(None, Kind::Added, detail, Impact::Minor, Impact::Minor),
    };
    item.because(
        None,
        Kind::Added,
        detail,
        (Impact::Major, Impact::Minor, why),
    )
}

/// A nested struct's aliases are `pub type`s in Rust, a word's only names to look it up
/// by; every struct's are C typedefs.
fn renamed_type(item: &Item, o: &TypeDef, n: &TypeDef) -> Change {
    let detail = format!("{} `{}` -> `{}`", item.kind, o.name, n.name);
    if !aliases_of(n).contains(&o.name.as_str()) {
        return item.change(None, Kind::Renamed, detail, Impact::Major, Impact::Major);
    }
    let impact = if item.kind == "struct" {
        (
            Impact::Minor,
            Impact::Minor,
            "the old name stays a `pub type` alias (Rust) and a typedef (C)",
        )
    } else {
        (
            Impact::Major,
            Impact::Minor,
            "Rust: a word's aliases are lookup names only; C: the old name stays a typedef",
        )
    };
    item.because(None, Kind::Renamed, detail, impact)
}

fn matched(cx: &Cx, item: &Item, o: &TypeDef, n: &TypeDef) -> Vec<Change> {
    let mut out = Vec::new();
    let major = |kind, detail| item.change(None, kind, detail, Impact::Major, Impact::Major);
    if kind_of(o) != item.kind || repr_of(o) != repr_of(n) {
        let spell = |t: &TypeDef| {
            format!("{} {}", kind_of(t), repr_of(t).unwrap_or(""))
                .trim_end()
                .to_string()
        };
        out.push(major(
            Kind::Retyped,
            format!("{} -> {}", spell(o), spell(n)),
        ));
    }
    if o.size != n.size {
        out.push(major(
            Kind::Resized,
            format!("{} -> {} bytes", o.size, n.size),
        ));
    }
    out.extend(item.told(
        cx,
        None,
        (&o.confidence, &o.evidence),
        (&n.confidence, &n.evidence),
    ));
    let ((oclass, om), (nclass, nm)) = (members(o), members(n));
    if oclass == nclass {
        out.extend(compare(cx, item, nclass, &om, &nm));
    }
    out
}
