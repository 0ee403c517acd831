//! Lowerings, emitted into the Rust module (see [`crate::schema::lowering`]): one
//! `pub const LOWERINGS: &[lowering::LoweringMeta]` with every kind, route and mapping as
//! data (places resolved to byte offsets and bit ranges, each target's `TEMPLATE` by
//! reference), for the generic engine in the runtime (`runtime::lowering::apply`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Cx, Lit, bits_lit, ident};
use crate::model::lowering::*;
use crate::model::{Confidence, Evidence};

/// Names a runtime `lowering::` item: `#rt::lowering::<name>`.
struct Paths(String);

impl Paths {
    fn of(&self, name: &str) -> String {
        format!("{}::lowering::{name}", self.0)
    }
}

fn place(rt: &Paths, p: &Place) -> Lit {
    Lit::record(
        &rt.of("Place"),
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

/// `rt::lowering::<name> { fields..., confidence, inferred, note, evidence }`.
fn record<'a>(
    cx: &Cx<'_>,
    rt: &Paths,
    name: &str,
    fields: impl IntoIterator<Item = (&'a str, Lit)>,
    p: &impl Provenance,
) -> Lit {
    let (confidence, inferred, note, evidence) = p.parts();
    let tail = [
        ("confidence", cx.confidence(confidence)),
        ("inferred", Lit::num(inferred)),
        ("note", Lit::opt_str(note)),
        ("evidence", cx.evidence(evidence)),
    ];
    Lit::record(&rt.of(name), fields.into_iter().chain(tail))
}

fn message(cx: &Cx<'_>, rt: &Paths, m: &Message) -> Lit {
    record(cx, rt, "MessageMeta", [("text", Lit::str(&m.message))], m)
}

fn mapping(cx: &Cx<'_>, rt: &Paths, m: &Mapping) -> Lit {
    let source = match &m.source {
        Operand::Pseudo { place: p } => ("Source::Pseudo", place(rt, p)),
        Operand::Ext { place: p } => ("Source::Ext", place(rt, p)),
        Operand::Value { value } => ("Source::Value", Lit::code(format!("{value}u64"))),
    };
    let source = Lit::code(format!("{}({})", rt.of(source.0), source.1.text()));
    let via = match &m.via {
        Transform::Copy => Lit::code(rt.of("Transform::Copy")),
        Transform::Narrow => Lit::code(rt.of("Transform::Narrow")),
        Transform::ResolveAddr { addr } => {
            let addr = Lit::record(
                &rt.of("AddrVar"),
                [
                    ("marker", Lit::num(addr.marker)),
                    ("mask", Lit::code(format!("{}u64", addr.mask))),
                    ("value", Lit::code(format!("{}u64", addr.value))),
                    ("immediate", pair(addr.immediate)),
                    ("var_id_lo", pair(addr.var_id_lo)),
                    ("var_id_hi", pair(addr.var_id_hi)),
                ],
            );
            let call = rt.of("Transform::ResolveAddr");
            Lit::code(format!("{call}({})", addr.text()))
        }
    };
    record(
        cx,
        rt,
        "MappingMeta",
        [("to", place(rt, &m.to)), ("source", source), ("via", via)],
        m,
    )
}

fn kind(cx: &Cx<'_>, rt: &Paths, k: &Kind) -> Lit {
    let extension = match k.extension {
        ExtensionUse::Required => rt.of("ExtensionUse::Required"),
        ExtensionUse::Ignored => rt.of("ExtensionUse::Ignored"),
    };
    let routes = k.routes.iter().map(|r| {
        record(
            cx,
            rt,
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
        &rt.of("KindMeta"),
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
                Lit::opt(k.missing_extension.as_ref().map(|m| message(cx, rt, m))),
            ),
            ("doc", Lit::str(&k.doc)),
            ("routes", Lit::slice(routes)),
            (
                "mappings",
                Lit::slice(k.mappings.iter().map(|m| mapping(cx, rt, m))),
            ),
            ("unmapped", strs(&k.unmapped)),
            ("unread", strs(&k.unread)),
        ],
    )
}

/// `LOWERINGS`.
pub(super) fn items(cx: &Cx<'_>, rt: &TokenStream) -> TokenStream {
    let paths = &Paths(rt.to_string().replace(' ', ""));
    let lowerings = Lit::slice(cx.model.lowerings.iter().map(|l| {
        let abis = l.abis.iter().map(|a| {
            record(
                cx,
                paths,
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
            &paths.of("LoweringMeta"),
            [
                ("name", Lit::str(&l.name)),
                ("from", Lit::str(&l.from)),
                ("from_opcode", Lit::code(format!("{}u8", l.from_opcode))),
                ("selector", place(paths, &l.selector)),
                ("selector_type", Lit::str(&l.selector_type)),
                ("extension", Lit::opt_str(l.extension.as_deref())),
                (
                    "extension_opcode",
                    Lit::opt(l.extension_opcode.map(|o| Lit::code(format!("{o}u8")))),
                ),
                ("doc", Lit::str(&l.doc)),
                ("confidence", cx.confidence(&l.confidence)),
                ("evidence", cx.evidence(&l.evidence)),
                ("unsupported", message(cx, paths, &l.unsupported)),
                ("abis", Lit::slice(abis)),
                (
                    "kinds",
                    Lit::slice(l.kinds.iter().map(|k| kind(cx, paths, k))),
                ),
            ],
        )
    }));
    let lowerings = cx.lits.embed(lowerings);
    quote! {
        /// How a runtime lowers pseudo words to real ones, from the spec's `[[lowering]]`:
        /// per selector value the real word, its routes per ABI version and every field
        /// mapping with its confidence (`inferred` marks the ones the sources do not state).
        /// Applied by `runtime::lowering::apply`.
        pub const LOWERINGS: &[#rt::lowering::LoweringMeta] = #lowerings;
    }
}
