//! `[[table]]`s as Rust functions, so that code using the generated types can apply the
//! same lookup the validity rules use (`dtype_size(DTYPE::FP16) == 2`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::data::Lit;
use super::render::Render;
use super::util::{doc_text, ident};
use crate::model::*;

/// `CONFLICTS`: the `[[conflict]]` records, each reading with its confidence and evidence.
pub(super) fn conflicts(cx: &Render) -> TokenStream {
    let records = Lit::slice(cx.model.conflicts.iter().map(|c| {
        Lit::record(
            "meta::Conflict",
            [
                ("name", Lit::str(&c.name)),
                ("doc", Lit::str(&c.doc)),
                ("about", Lit::slice(c.about.iter().map(|a| Lit::str(a)))),
                ("readings", cx.alternatives(&c.readings, "")),
            ],
        )
    }));
    let records = cx.lits.embed(records);
    quote! {
        /// Disagreements between sources that no field's alternatives hold (a table's
        /// value, an enum's width, a range), from the spec's `[[conflict]]`: every reading,
        /// none primary. The code above follows none of them.
        pub const CONFLICTS: &[meta::Conflict] = #records;
    }
}

/// One `pub const fn <table>(x: <Enum>) -> i64` per table, plus `TABLES` for tools.
pub(super) fn items(model: &Model) -> TokenStream {
    let fns = model.rules.tables.iter().map(|t| {
        let name = ident(&t.name);
        let over = ident(&t.over_name);
        let mut groups: Vec<(i64, Vec<i64>)> = Vec::new();
        for (raw, _, v) in &t.entries {
            match groups.iter_mut().find(|g| g.0 == *v) {
                Some(g) => g.1.push(*raw),
                None => groups.push((*v, vec![*raw])),
            }
        }
        let repr = match &model.types[t.over].kind {
            TypeKind::Enum { repr, .. } => *repr,
            _ => Int::U64,
        };
        let arms = groups.iter().map(|(v, keys)| {
            let keys = keys.iter().map(|k| key_literal(repr, *k));
            let v = Literal::i64_suffixed(*v);
            quote!(#(#keys)|* => #v,)
        });
        let default = Literal::i64_suffixed(t.default);
        let doc = format!(
            "{} Values not listed give {}.",
            doc_text(&t.doc, &t.confidence),
            t.default
        );
        quote! {
            #[doc = #doc]
            pub const fn #name(x: #over) -> i64 {
                match x.raw() { #(#arms)* _ => #default }
            }
        }
    });
    quote! { #(#fns)* }
}

fn key_literal(repr: Int, k: i64) -> Literal {
    match repr {
        Int::U8 => Literal::u8_suffixed(k as u8),
        Int::U16 => Literal::u16_suffixed(k as u16),
        Int::U32 => Literal::u32_suffixed(k as u32),
        Int::U64 => Literal::u64_suffixed(k as u64),
        Int::I8 => Literal::i8_suffixed(k as i8),
        Int::I16 => Literal::i16_suffixed(k as i16),
        Int::I32 => Literal::i32_suffixed(k as i32),
        Int::I64 => Literal::i64_suffixed(k),
    }
}
