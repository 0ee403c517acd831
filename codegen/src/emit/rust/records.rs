//! The metadata records of the Rust module: `FieldMeta` of members, union arms and
//! discriminators, `LeafMeta` of a word's leaves, evidence and alternatives.

use proc_macro2::TokenStream;

use super::data::Lit;
use super::render::Render;
use super::util::{bits_lit, bits_type_name, confidence, ident};
use crate::model::*;

/// The layout a member's `FieldMeta` states, which its leaves share.
pub(super) struct Declared {
    pub(super) size: usize,
    pub(super) bits: Option<(u32, u32)>,
    pub(super) type_name: String,
}

/// What a `meta::FieldMeta` literal is made of.
pub(super) struct MetaArgs<'a> {
    pub(super) name: &'a str,
    pub(super) offset: usize,
    pub(super) size: usize,
    pub(super) bits: Option<(u32, u32)>,
    pub(super) type_name: &'a str,
    pub(super) role: Role,
    pub(super) doc: &'a str,
    /// None for an unknown member: the record keeps `Confidence::UNSTATED`.
    pub(super) confidence: Option<&'a Confidence>,
    pub(super) evidence: &'a [Evidence],
    pub(super) alternatives: &'a [Alternative],
    pub(super) constant: Option<u64>,
    pub(super) codec: Option<Codec>,
}

impl Render<'_> {
    /// References to the records, each stated once in the `evidence` module.
    pub(super) fn evidence(&self, ev: &[Evidence]) -> Lit {
        Lit::slice(ev.iter().map(|e| {
            let opt = |v: &Option<String>| Lit::some(v.as_deref().map(Lit::str));
            let stem = super::data::evidence_stem(&e.source, &e.cite);
            self.lits.evidence(
                &stem,
                Lit::update_line(
                    "meta::Evidence",
                    [
                        ("source", Some(Lit::str(&e.source))),
                        ("cite", Some(Lit::str(&e.cite))),
                        ("name", opt(&e.alias)),
                        ("names", opt(&e.names)),
                        ("pin", opt(&e.pin)),
                        ("value", opt(&e.value)),
                        ("confidence", Some(confidence(&e.confidence))),
                        ("note", opt(&e.note)),
                    ],
                    "meta::Evidence::DEFAULT",
                ),
            )
        }))
    }

    pub(super) fn alternatives(&self, alts: &[Alternative], primary: &str) -> Lit {
        Lit::slice(alts.iter().map(|a| {
            let ty = a.ty.as_ref().map_or(primary.to_string(), TypeRef::spelling);
            Lit::record(
                "meta::Alternative",
                [
                    ("name", Lit::str(&a.name)),
                    ("type_name", Lit::str(&ty)),
                    ("doc", Lit::str(&a.doc)),
                    ("confidence", confidence(&a.confidence)),
                    ("evidence", self.evidence(&a.evidence)),
                ],
            )
        }))
    }

    /// One `meta::FieldMeta` literal; every kind of member goes through here.
    pub(super) fn meta_tokens(&self, m: MetaArgs) -> TokenStream {
        let role = match m.role {
            Role::Data => "meta::Role::Data",
            Role::Reserved => "meta::Role::Reserved",
            Role::Unknown => "meta::Role::Unknown",
        };
        let unstated = || Lit::code("meta::Confidence::UNSTATED");
        let lit = Lit::built(
            "meta::FieldMeta::new",
            [
                Lit::str(m.name),
                Lit::num(m.offset),
                Lit::num(m.size),
                Lit::str(m.type_name),
                m.confidence.map_or_else(unstated, confidence),
                Lit::str(m.doc),
            ],
            [
                (
                    "bits",
                    m.bits
                        .map(|(lsb, width)| Lit::code(format!("{lsb}, {width}"))),
                ),
                ("role", (m.role != Role::Data).then(|| Lit::code(role))),
                (
                    "evidence",
                    (!m.evidence.is_empty()).then(|| self.evidence(m.evidence)),
                ),
                (
                    "alternatives",
                    (!m.alternatives.is_empty())
                        .then(|| self.alternatives(m.alternatives, m.type_name)),
                ),
                ("constant", m.constant.map(Lit::num)),
                (
                    "codec",
                    m.codec.map(|Codec::ZeroMeans(v)| {
                        Lit::code(format!("meta::Codec::ZeroMeans({v})"))
                    }),
                ),
            ],
        );
        self.lits.embed(lit)
    }

    pub(super) fn field_meta(&self, f: &Field) -> TokenStream {
        self.meta_tokens(MetaArgs {
            name: &f.name,
            offset: f.offset,
            size: f.size,
            bits: None,
            type_name: &f.ty.spelling(),
            role: f.role,
            doc: &f.doc,
            confidence: f.claimed(),
            evidence: &f.evidence,
            alternatives: &f.alternatives,
            constant: f.constant,
            codec: f.codec,
        })
    }

    pub(super) fn bits_meta(&self, b: &BitField, size: usize) -> TokenStream {
        let ty = bits_type_name(b);
        self.meta_tokens(MetaArgs {
            name: &b.name,
            offset: 0,
            size,
            bits: Some((b.lsb, b.width)),
            type_name: &ty,
            role: b.role,
            doc: &b.doc,
            confidence: b.claimed(),
            evidence: &b.evidence,
            alternatives: &b.alternatives,
            constant: b.constant,
            codec: None,
        })
    }

    /// A leaf as `LeafMeta::of` its declaring member, with a builder call for each thing
    /// that differs from it (an array element's size and type, a union arm, the members
    /// holding it and the confidence they bring), all in the table of the word `owner`.
    pub(super) fn leaf_meta(&self, l: &Leaf, owner: &str) -> Lit {
        let field = slot_ref(l.declared(), owner);
        let base = format!("meta::LeafMeta::of({:?}, {}, {field})", l.path, l.offset);
        let (size, bits, ty) = self
            .declared(l.declared())
            .map_or((false, false, false), |d| {
                (
                    d.size == l.size,
                    d.bits == l.bits,
                    d.type_name == l.type_name,
                )
            });
        // `LeafMeta::of` takes the member's own tag, none for an unknown member.
        let own = l.claims().last().and_then(|(_, c)| c);
        let within: Vec<String> = l.within.iter().map(|w| slot_ref(&w.slot, owner)).collect();
        let calls = [
            (!(size && bits && ty)).then(|| {
                let bits = bits_lit(l.bits);
                format!("element({}, {}, {:?})", l.size, bits.text(), l.type_name)
            }),
            l.variant.as_ref().map(|arm| format!("arm({arm:?})")),
            (own != l.confidence).then(|| {
                let c = Lit::opt(l.confidence.map(confidence));
                format!("confidence({})", c.text())
            }),
            (!within.is_empty()).then(|| format!("within(const {{ &[{}] }})", within.join(", "))),
        ];
        Lit::chain(base, calls.into_iter().flatten())
    }

    /// The size, bit range and type name the `FieldMeta` of `slot` states.
    pub(super) fn declared(&self, slot: &MetaSlot) -> Option<Declared> {
        let of_field = |f: &Field| Declared {
            size: f.size,
            bits: None,
            type_name: f.ty.spelling(),
        };
        let (owner, index) = match slot {
            MetaSlot::Field { owner, index } => (owner, Some(*index)),
            MetaSlot::Discriminator { owner } => (owner, None),
        };
        for t in &self.model.types {
            match (&t.kind, index) {
                (TypeKind::Struct { fields, .. }, Some(i)) if &t.name == owner => {
                    return fields.get(i).map(of_field);
                }
                (TypeKind::Bitfield { repr, fields }, Some(i)) if &t.name == owner => {
                    return fields.get(i).map(|b| Declared {
                        size: repr.size(),
                        bits: Some((b.lsb, b.width)),
                        type_name: bits_type_name(b),
                    });
                }
                (TypeKind::Union { discriminator, .. }, None) if &t.name == owner => {
                    return Some(of_field(discriminator));
                }
                (
                    TypeKind::Union {
                        discriminator,
                        variants,
                    },
                    Some(i),
                ) => {
                    if let Some(v) = variants.iter().find(|v| &v.arm_type_name(&t.name) == owner) {
                        return v.arm_fields(discriminator).get(i).map(of_field);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// `&OWNER::FIELDS[i]` or `&OWNER::DISCRIMINATOR`: the `FieldMeta` a slot names, from
/// inside the impl of `within` (`&Self::FIELDS[i]` for its own members).
fn slot_ref(slot: &MetaSlot, within: &str) -> String {
    let (owner, item) = match slot {
        MetaSlot::Field { owner, index } => (owner, format!("FIELDS[{index}]")),
        MetaSlot::Discriminator { owner } => (owner, "DISCRIMINATOR".to_string()),
    };
    if owner == within {
        format!("&Self::{item}")
    } else {
        format!("&{}::{item}", ident(owner))
    }
}
