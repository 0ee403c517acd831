//! The Rust spelling of a klr op struct: its type (with a lifetime when it borrows) and doc
//! attributes, shared by the module, its leaf functions and `Op`.

use proc_macro2::TokenStream;
use quote::quote;

use super::util::ident;
use crate::model::klr::*;

/// `#[doc]` attributes, one per line of `text`.
pub(super) fn doc(text: &str) -> TokenStream {
    let lines = crate::emit::escape_doc(text)
        .lines()
        .map(|l| format!(" {l}"))
        .collect::<Vec<_>>();
    quote!(#(#[doc = #lines])*)
}

/// Whether the op struct of `layout` borrows (has a field of lifetime `'a`).
pub(super) fn borrows(m: &KlrModel, layout: &str) -> bool {
    m.inputs(layout).iter().any(|f| {
        matches!(
            f.input,
            Some(Input::Ap | Input::Aps | Input::Imms | Input::Text)
        )
    })
}

pub(super) fn op_ty(m: &KlrModel, layout: &str) -> TokenStream {
    let id = ident(layout);
    if borrows(m, layout) {
        quote!(ops::#id<'a>)
    } else {
        quote!(ops::#id)
    }
}
