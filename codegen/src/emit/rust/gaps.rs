//! `GAPS`: the spec's `[[gap]]` records, for tools that explain an opcode or a name the
//! spec knows of but does not lay out.

use proc_macro2::TokenStream;
use quote::quote;

use super::data::Lit;
use super::render::Render;
use super::util::confidence;

pub(super) fn items(cx: &Render) -> TokenStream {
    let records = Lit::slice(cx.model.gaps.iter().map(|g| {
        let opcode = g.opcode.as_ref().map(|o| {
            Lit::code(format!(
                "({:#04x}, {})",
                o.value,
                Lit::str(&o.enumerator).text()
            ))
        });
        Lit::record(
            "meta::Gap",
            [
                ("name", Lit::str(&g.name)),
                ("opcode", Lit::opt(opcode)),
                ("word", Lit::opt_str(g.word.as_deref())),
                ("reason", Lit::str(&g.reason)),
                ("confidence", confidence(&g.confidence)),
                ("evidence", cx.evidence(&g.evidence)),
            ],
        )
    }));
    let records = cx.lits.embed(records);
    quote! {
        /// What the sources name but do not lay out, from the spec's `[[gap]]`: each with
        /// why it cannot be specified and who says so. No word or field stands for these.
        pub const GAPS: &[meta::Gap] = #records;
    }
}
