//! Lowerings, emitted into the Rust module (see [`crate::schema::lowering`]): one
//! `pub const LOWERINGS: &[lowering::LoweringMeta]` with every kind, route and mapping as
//! data (places resolved to byte offsets and bit ranges, each target's `TEMPLATE` by
//! reference), for the generic engine in the runtime (`runtime::lowering::apply`).

use proc_macro2::TokenStream;
use quote::quote;

use super::data::Lit;
use super::render::Render;
use super::util::{self, bits_lit, ident};
use crate::model::lowering::*;
use crate::model::{Confidence, Evidence};

/// Names a runtime `lowering::` item (the module imports `lowering`).
fn of(name: &str) -> String {
    format!("lowering::{name}")
}

fn place(p: &Place) -> Lit {
    Lit::record(
        &of("Place"),
        [
            ("path", Lit::str(&p.path)),
            ("offset", Lit::num(p.offset)),
            ("size", Lit::num(p.size)),
            ("bits", bits_lit(p.bits)),
            ("type_name", Lit::str(&p.type_name)),
        ],
    )
}

fn pair((a, b): (usize, usize)) -> Lit {
    Lit::code(format!("({a}, {b})"))
}

/// What every lowering record ends with: how sure, whether inferred, why, the evidence.
trait Provenance {
    fn parts(&self) -> (&Confidence, bool, Option<&str>, &[Evidence]);
}

macro_rules! provenance {
    ($($t:ty),*) => {$(
        impl Provenance for $t {
            fn parts(&self) -> (&Confidence, bool, Option<&str>, &[Evidence]) {
                (&self.confidence, self.inferred, self.note.as_deref(), &self.evidence)
            }
        }
    )*};
}

provenance!(Message, Mapping, Route, Abi);

/// `lowering::<name> { fields..., confidence, inferred, note, evidence }`.
fn record<'a>(
    cx: &Render<'_>,
    name: &str,
    fields: impl IntoIterator<Item = (&'a str, Lit)>,
    p: &impl Provenance,
) -> Lit {
    let (confidence, inferred, note, evidence) = p.parts();
    let tail = [
        ("confidence", util::confidence(confidence)),
        ("inferred", Lit::num(inferred)),
        ("note", Lit::opt_str(note)),
        ("evidence", cx.evidence(evidence)),
    ];
    Lit::record(&of(name), fields.into_iter().chain(tail))
}

fn message(cx: &Render<'_>, m: &Message) -> Lit {
    record(cx, "MessageMeta", [("text", Lit::str(&m.message))], m)
}

fn mapping(cx: &Render<'_>, m: &Mapping) -> Lit {
    let source = match &m.source {
        Operand::Pseudo { place: p } => ("Source::Pseudo", place(p)),
        Operand::Ext { place: p } => ("Source::Ext", place(p)),
        Operand::Value { value } => ("Source::Value", Lit::code(format!("{value}u64"))),
    };
    let source = Lit::code(format!("{}({})", of(source.0), source.1.text()));
    let via = match &m.via {
        Transform::Copy => Lit::code(of("Transform::Copy")),
        Transform::Narrow => Lit::code(of("Transform::Narrow")),
        Transform::ResolveAddr { addr } => {
            let addr = Lit::record(
                &of("AddrVar"),
                [
                    ("marker", Lit::num(addr.marker)),
                    ("mask", Lit::code(format!("{}u64", addr.mask))),
                    ("value", Lit::code(format!("{}u64", addr.value))),
                    ("immediate", pair(addr.immediate)),
                    ("var_id_lo", pair(addr.var_id_lo)),
                    ("var_id_hi", pair(addr.var_id_hi)),
                ],
            );
            let call = of("Transform::ResolveAddr");
            Lit::code(format!("{call}({})", addr.text()))
        }
    };
    record(
        cx,
        "MappingMeta",
        [("to", place(&m.to)), ("source", source), ("via", via)],
        m,
    )
}

fn kind(cx: &Render<'_>, k: &Kind) -> Lit {
    let extension = match k.extension {
        ExtensionUse::Required => of("ExtensionUse::Required"),
        ExtensionUse::Ignored => of("ExtensionUse::Ignored"),
    };
    let routes = k.routes.iter().map(|r| {
        record(
            cx,
            "RouteMeta",
            [
                ("abi", Lit::str(&r.abi)),
                ("via", Lit::slice(r.via.iter().map(|v| Lit::str(v)))),
            ],
            r,
        )
    });
    let strs = |xs: &[String]| Lit::slice(xs.iter().map(|x| Lit::str(x)));
    Lit::record(
        &of("KindMeta"),
        [
            ("value", Lit::code(format!("{}u64", k.value))),
            ("name", Lit::str(&k.name)),
            ("to", Lit::str(&k.to)),
            ("to_opcode", Lit::code(format!("{}u8", k.to_opcode))),
            (
                "template",
                Lit::code(format!("&{}::TEMPLATE", ident(&k.to))),
            ),
            ("extension", Lit::code(extension)),
            (
                "missing_extension",
                Lit::opt(k.missing_extension.as_ref().map(|m| message(cx, m))),
            ),
            ("doc", Lit::str(&k.doc)),
            ("routes", Lit::slice(routes)),
            (
                "mappings",
                Lit::slice(k.mappings.iter().map(|m| mapping(cx, m))),
            ),
            ("unmapped", strs(&k.unmapped)),
            ("unread", strs(&k.unread)),
        ],
    )
}

/// `LOWERINGS`.
pub(super) fn items(cx: &Render<'_>) -> TokenStream {
    let lowerings = Lit::slice(cx.model.lowerings.iter().map(|l| {
        let abis = l.abis.iter().map(|a| {
            record(
                cx,
                "AbiMeta",
                [
                    ("name", Lit::str(&a.name)),
                    ("entry", Lit::str(&a.entry)),
                    ("doc", Lit::str(&a.doc)),
                    ("default", Lit::num(a.default)),
                ],
                a,
            )
        });
        Lit::record(
            &of("LoweringMeta"),
            [
                ("name", Lit::str(&l.name)),
                ("from", Lit::str(&l.from)),
                ("from_opcode", Lit::code(format!("{}u8", l.from_opcode))),
                ("selector", place(&l.selector)),
                ("selector_type", Lit::str(&l.selector_type)),
                ("extension", Lit::opt_str(l.extension.as_deref())),
                (
                    "extension_opcode",
                    Lit::opt(l.extension_opcode.map(|o| Lit::code(format!("{o}u8")))),
                ),
                ("doc", Lit::str(&l.doc)),
                ("confidence", util::confidence(&l.confidence)),
                ("evidence", cx.evidence(&l.evidence)),
                ("unsupported", message(cx, &l.unsupported)),
                ("abis", Lit::slice(abis)),
                ("kinds", Lit::slice(l.kinds.iter().map(|k| kind(cx, k)))),
            ],
        )
    }));
    let lowerings = cx.lits.embed(lowerings);
    quote! {
        /// How a runtime lowers pseudo words to real ones, from the spec's `[[lowering]]`:
        /// per selector value the real word, its routes per ABI version and every field
        /// mapping with its confidence (`inferred` marks the ones the sources do not state).
        /// Applied by `runtime::lowering::apply`.
        pub const LOWERINGS: &[lowering::LoweringMeta] = #lowerings;
    }
}
