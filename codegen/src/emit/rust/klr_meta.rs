//! The klr metadata: `FIELDS_<layout>`, `PATHS_<leaf>` and `LEAVES`, each record on one
//! line with its provenance, stating only what differs from the runtime's base record.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::data::Lit;
use super::render::Render;
use super::util::confidence;
use crate::model::klr::*;

pub(super) fn fields_static(layout: &str) -> syn::Ident {
    format_ident!("FIELDS_{}", layout)
}

pub(super) fn paths_static(leaf: &str) -> syn::Ident {
    format_ident!("PATHS_{}", leaf)
}

/// The records of a table, one per line: `[\n    r,\n]`.
fn rows(records: &[Lit]) -> Lit {
    let mut text = String::from("[\n");
    for r in records {
        text.push_str(&format!("    {},\n", r.text()));
    }
    text.push(']');
    Lit::code(text)
}

/// `pub static <id>: [<ty>; N] = [records]`, named after a spec name.
fn records_static(
    cx: &Render<'_>,
    doc: &str,
    id: syn::Ident,
    ty: &str,
    records: &[Lit],
) -> TokenStream {
    let len = Literal::usize_unsuffixed(records.len());
    let ty = format_ident!("{}", ty);
    let rows = cx.lits.embed(rows(records));
    quote! {
        #[doc = #doc]
        #[allow(non_upper_case_globals)]
        pub static #id: [#ty; #len] = #rows;
    }
}

fn input_name(i: Input) -> &'static str {
    match i {
        Input::Ap => "Input::Ap",
        Input::Aps => "Input::Aps",
        Input::Imm => "Input::Imm",
        Input::Imms => "Input::Imms",
        Input::Int => "Input::Int",
        Input::Bool => "Input::Bool",
        Input::Text => "Input::Text",
    }
}

/// `FIELDS_<layout>`, `PATHS_<leaf>` and `LEAVES`.
pub(super) fn meta(cx: &Render<'_>, m: &KlrModel) -> TokenStream {
    let fields = m.layouts.iter().filter(|l| l.side == Side::Klr).map(|l| {
        let records: Vec<Lit> = m
            .inputs(&l.name)
            .into_iter()
            .filter_map(|f| Some(field_meta(cx, f, f.input?)))
            .collect();
        let doc = format!(" The input fields of `{}`.", l.qualified);
        records_static(cx, &doc, fields_static(&l.name), "FieldMeta", &records)
    });
    let paths = m.leaves.iter().map(|l| {
        let records: Vec<Lit> = l.paths().iter().map(|p| path_info(cx, m, p)).collect();
        let doc = format!(" The paths of `{}`.", l.function);
        records_static(cx, &doc, paths_static(&l.name), "PathInfo", &records)
    });
    let leaves: Vec<Lit> = m.leaves.iter().map(|l| leaf_meta(cx, m, l)).collect();
    let len = Literal::usize_unsuffixed(leaves.len());
    let leaves = cx.lits.embed(rows(&leaves));
    quote! {
        #(#fields)*
        #(#paths)*
        /// Every leaf, in spec order.
        pub static LEAVES: [LeafMeta; #len] = #leaves;
    }
}

fn field_meta(cx: &Render<'_>, f: &LayoutField, input: Input) -> Lit {
    Lit::update_line(
        "FieldMeta",
        [
            ("name", Some(Lit::str(&f.name))),
            (
                "input",
                (input != Input::Int).then(|| Lit::code(input_name(input))),
            ),
            ("optional", f.optional.then(|| Lit::num(true))),
            ("enum_ty", Lit::some(f.enum_.as_deref().map(Lit::str))),
            ("offset", Lit::some(f.offset.map(Lit::num))),
            ("doc", (!f.doc.is_empty()).then(|| Lit::str(&f.doc))),
            ("confidence", Some(confidence(&f.confidence))),
            (
                "evidence",
                (!f.evidence.is_empty()).then(|| cx.evidence(&f.evidence)),
            ),
        ],
        "FieldMeta::DEFAULT",
    )
}

fn path_info(cx: &Render<'_>, m: &KlrModel, p: &KlrPath) -> Lit {
    let class = m
        .layout(&p.class)
        .map_or(p.class.as_str(), |l| l.qualified.as_str());
    let it =
        p.it.as_ref()
            .map(|(n, v)| Lit::code(format!("({}, {v})", Lit::str(n).text())));
    Lit::update_line(
        "PathInfo",
        [
            ("name", Some(Lit::str(&p.name))),
            (
                "when",
                Lit::some(p.when.as_ref().map(|w| Lit::str(&w.text))),
            ),
            ("class", Some(Lit::str(class))),
            ("it", Lit::some(it)),
            ("prefix", Lit::some(p.prefix.as_deref().map(Lit::str))),
            ("build", Some(Lit::str(&p.build))),
            ("confidence", Some(confidence(&p.confidence))),
            (
                "evidence",
                (!p.evidence.is_empty()).then(|| cx.evidence(&p.evidence)),
            ),
        ],
        "PathInfo::NONE",
    )
}

/// A leaf's record, on one line (every field is stated, so it has no base).
fn leaf_meta(cx: &Render<'_>, m: &KlrModel, l: &KlrLeaf) -> Lit {
    let q = m
        .layout(&l.op)
        .map_or(l.op.as_str(), |x| x.qualified.as_str());
    let fields = [
        ("name", Lit::str(&l.name)),
        ("op", Lit::str(&l.op)),
        ("qualified", Lit::str(q)),
        ("function", Lit::str(&l.function)),
        ("va", Lit::code(format!("{:#x}", l.va))),
        ("section", Lit::str(&l.section)),
        ("fields", Lit::code(format!("&{}", fields_static(&l.op)))),
        ("paths", Lit::code(format!("&{}", paths_static(&l.name)))),
        ("confidence", confidence(&l.confidence)),
        ("evidence", cx.evidence(&l.evidence)),
    ];
    let fields: Vec<String> = fields
        .iter()
        .map(|(n, v)| format!("{n}: {}", v.text()))
        .collect();
    Lit::code(format!("LeafMeta {{ {} }}", fields.join(", ")))
}
