//! The Rust target for seed 003's KLR→BIR leaves: `pub mod klr` inside the generated
//! file (`dmaspec::words::klr`), written against the runtime's `klr` module.
//!
//! Per klr layout an op struct (`ops::NcDmaCopy`, its input fields); per leaf a function
//! `lower_<Leaf>(&op, &mut Function) -> Outcome` that runs the leaf's steps in order and
//! returns the BIR node it builds (class, IT, name prefix, every stamped field as offset +
//! name + value, the operand bindings, effects) or the exact error; the enums (rendered as
//! every spec enum is) and tables; metadata with provenance (`LEAVES`) and a
//! `Fields`-driven constructor so that a front end (the CLI's JSON reader) can build any
//! op generically. Conditions compile to the runtime's three-valued `eval` functions.
//!
//! Leaf, layout and table names are the spec's verbatim (`lower_NcCopy`,
//! `tables::translateDGEMode`), so the items that carry them allow the naming lints.

use std::str::FromStr;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::klr_leaf::leaf_fn;
use super::klr_meta::meta;
use super::klr_op::op_enum;
use super::klr_ty::{borrows, doc};
use super::{render::Render, util::ident};
use crate::model::TypeKind;
use crate::model::klr::*;

/// The `pub mod klr { … }` item; `rt` is the runtime's path.
pub(super) fn items(cx: &Render<'_>, rt: &TokenStream) -> TokenStream {
    let m = &cx.model.klr;
    let s = sizes(m);
    let [stamps, bindings, effects, shown, unevaluated] =
        [s.stamps, s.bindings, s.effects, s.shown, s.unevaluated].map(Literal::usize_unsuffixed);
    let provenance = provenance_imports(m);
    let enums = enums(cx, m);
    let tables = tables(m);
    let ops = ops(m);
    let meta = meta(cx, m);
    let leaves = m.leaves.iter().map(|l| leaf_fn(&cx.lits, m, l));
    let op_enum = op_enum(&cx.lits, m);
    let module_doc = doc(
        "Seed 003's KLR→BIR data-movement leaves, generated from `spec/klr/`: one \
         `lower_<Leaf>` function per `codegen<Op>` leaf, the klr op structs (`ops`), the \
         enums (`enums`) and tables (`tables`) they use. Each `lower_<Leaf>` runs the \
         leaf's steps in order; see `generated/docs/klr/` for the rule list.",
    );
    quote! {
        #module_doc
        pub mod klr {
            pub use #rt::klr::*;
            #provenance
            pub const MAX_STAMPS: usize = #stamps;
            pub const MAX_BINDINGS: usize = #bindings;
            pub const MAX_EFFECTS: usize = #effects;
            pub const MAX_SHOWN: usize = #shown;
            pub const MAX_UNEVALUATED: usize = #unevaluated;
            /// The BIR node an op becomes, its lists sized for these leaves.
            pub type Node<'a> = #rt::klr::Node<'a, MAX_STAMPS, MAX_BINDINGS, MAX_EFFECTS, MAX_SHOWN, MAX_UNEVALUATED>;
            /// What a leaf returns for an op.
            pub type Outcome<'a> = #rt::klr::Outcome<Node<'a>>;
            #enums
            #tables
            #ops
            #meta
            #(#leaves)*
            #op_enum
            /// The leaf called `name`.
            pub fn leaf(name: &str) -> Option<&'static LeafMeta> {
                find_leaf(&LEAVES, name)
            }
        }
    }
}

/// `v` as an `i64` literal (negative values as a negated literal).
fn int(v: i64) -> TokenStream {
    let abs = Literal::from_str(&format!("{}i64", v.unsigned_abs())).expect("an integer literal");
    if v < 0 { quote!(-#abs) } else { quote!(#abs) }
}

fn field_ty(input: Input, optional: bool) -> TokenStream {
    let base = match input {
        Input::Ap => quote!(Ap<'a>),
        Input::Aps => quote!(&'a [Ap<'a>]),
        Input::Imm => quote!(Imm),
        Input::Imms => quote!(&'a [Imm]),
        Input::Int => quote!(i64),
        Input::Bool => quote!(bool),
        Input::Text => quote!(&'a str),
    };
    if optional {
        quote!(Option<#base>)
    } else {
        base
    }
}

/// `use super::{confidence, meta};` for what the metadata records name.
fn provenance_imports(m: &KlrModel) -> TokenStream {
    let klr_layouts = || m.layouts.iter().filter(|l| l.side == Side::Klr);
    let records = !m.leaves.is_empty() || klr_layouts().any(|l| !m.inputs(&l.name).is_empty());
    let evidence = m
        .leaves
        .iter()
        .any(|l| !l.evidence.is_empty() || l.paths().iter().any(|p| !p.evidence.is_empty()))
        || klr_layouts().any(|l| m.inputs(&l.name).iter().any(|f| !f.evidence.is_empty()));
    match (records, evidence) {
        (true, true) => quote!(
            use super::{confidence, evidence};
        ),
        (true, false) => quote!(
            use super::confidence;
        ),
        _ => TokenStream::new(),
    }
}

struct Sizes {
    stamps: usize,
    bindings: usize,
    effects: usize,
    shown: usize,
    unevaluated: usize,
}

fn sizes(m: &KlrModel) -> Sizes {
    let mut s = Sizes {
        stamps: 1,
        bindings: 1,
        effects: 1,
        shown: 1,
        unevaluated: 1,
    };
    for l in &m.leaves {
        let count = |f: &dyn Fn(&StepKind) -> bool| l.steps.iter().filter(|x| f(&x.kind)).count();
        s.stamps = s
            .stamps
            .max(count(&|k| matches!(k, StepKind::Stamp { .. })));
        s.effects = s
            .effects
            .max(count(&|k| matches!(k, StepKind::Effect { .. })));
        s.shown = s
            .shown
            .max(count(&|k| matches!(k, StepKind::Let { show: true, .. })));
        // Every check, conditional stamp / effect and conditional binding may end up
        // undecided.
        let conditional = count(&|k| {
            matches!(
                k,
                StepKind::Check(_)
                    | StepKind::Stamp { when: Some(_), .. }
                    | StepKind::Effect { when: Some(_), .. }
            )
        });
        let binds = l.paths().iter().map(|p| p.bind.len()).max().unwrap_or(0);
        s.bindings = s.bindings.max(binds);
        s.unevaluated = s.unevaluated.max(conditional + binds);
    }
    s
}

/// The klr enums, each rendered as every spec enum is, and `ALL` by name.
fn enums(cx: &Render<'_>, m: &KlrModel) -> TokenStream {
    let mut defs = Vec::new();
    let mut names = Vec::new();
    let mut ids = Vec::new();
    for t in &m.enums {
        let TypeKind::Enum { repr, values } = &t.kind else {
            continue;
        };
        defs.push(cx.enum_def(t, *repr, values));
        names.push(t.name.as_str());
        ids.push(ident(&t.name));
    }
    let imports = (!defs.is_empty()).then(|| {
        quote!(
            use super::super::{meta, visit, Arch};
        )
    });
    quote! {
        /// The klr enums, typed like every enum of the spec.
        pub mod enums {
            #imports
            #(#defs)*
            /// Every enum: (name, enumerators).
            pub const ALL: &super::Enums = &[#((#names, #ids::ENUMERATORS)),*];
        }
    }
}

fn tables(m: &KlrModel) -> TokenStream {
    let tables = m.tables.iter().map(|t| {
        let mut d = t.doc.clone();
        if let Some(f) = &t.function {
            d.push_str(&format!(" (`{f}`)"));
        }
        d.push_str(match t.out_of_range {
            OutOfRange::Fatal => " An index past the end is fatal.",
            OutOfRange::Unknown => " Past the end: not given.",
        });
        let doc = doc(&d);
        let id = ident(&t.name);
        let entries = t.entries.iter().map(|e| int(*e));
        quote! {
            #doc
            pub const #id: &[i64] = &[#(#entries),*];
        }
    });
    quote! {
        /// The klr tables, indexed from 0.
        #[allow(non_upper_case_globals)]
        pub mod tables {
            #(#tables)*
        }
    }
}

fn ops(m: &KlrModel) -> TokenStream {
    let klr = || m.layouts.iter().filter(|l| l.side == Side::Klr);
    let inputs = || {
        klr()
            .flat_map(|l| m.inputs(&l.name))
            .filter_map(|f| f.input)
    };
    let mut uses = Vec::new();
    if inputs().any(|i| matches!(i, Input::Ap | Input::Aps)) {
        uses.push(quote!(Ap));
    }
    if inputs().any(|i| matches!(i, Input::Imm | Input::Imms)) {
        uses.push(quote!(Imm));
    }
    let imports = (!uses.is_empty()).then(|| quote!(use super::{#(#uses),*};));
    let structs = klr().map(|l| {
        let struct_doc = doc(&format!("`{}`: {}", l.qualified, l.doc));
        let id = ident(&l.name);
        let life = borrows(m, &l.name).then(|| quote!(<'a>));
        let fields = m.inputs(&l.name).into_iter().filter_map(|f| {
            let ty = field_ty(f.input?, f.optional);
            let mut d = f.doc.clone();
            if let Some(off) = f.offset {
                d = format!("{d} (klr +{off:#x})");
            }
            let (doc, id) = (doc(&d), ident(&f.name));
            Some(quote!(#doc pub #id: #ty,))
        });
        quote! {
            #struct_doc
            #[derive(Clone, Copy, Debug, PartialEq)]
            pub struct #id #life { #(#fields)* }
        }
    });
    quote! {
        /// The klr ops the leaves take: their input fields.
        #[allow(non_snake_case)]
        pub mod ops {
            #imports
            #(#structs)*
        }
    }
}
