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
        let arms = value_groups(t).into_iter().map(|(v, keys)| {
            let keys = key_patterns(&keys);
            let v = Literal::i64_unsuffixed(v);
            quote!(#(#keys)|* => #v,)
        });
        let default = Literal::i64_unsuffixed(t.default);
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

/// A table's entries grouped by value, in first-appearance order: `(value, raw keys)`.
pub(super) fn value_groups(t: &crate::model::rules::Table) -> Vec<(i64, Vec<i64>)> {
    let mut groups: Vec<(i64, Vec<i64>)> = Vec::new();
    for (raw, _, v) in &t.entries {
        match groups.iter_mut().find(|g| g.0 == *v) {
            Some(g) => g.1.push(*raw),
            None => groups.push((*v, vec![*raw])),
        }
    }
    groups
}

/// The match patterns of `keys`: a run of three or more consecutive values as a range
/// (`5..=16`), others one by one; the literals take their type from the scrutinee.
pub(super) fn key_patterns(keys: &[i64]) -> Vec<TokenStream> {
    let mut sorted = keys.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        let (lo, hi) = (
            Literal::i64_unsuffixed(sorted[i]),
            Literal::i64_unsuffixed(sorted[j]),
        );
        if j - i >= 2 {
            out.push(quote!(#lo..=#hi));
            i = j + 1;
        } else {
            out.push(quote!(#lo));
            i += 1;
        }
    }
    out
}
