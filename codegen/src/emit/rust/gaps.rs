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
        Lit::update(
            "meta::Gap",
            [
                ("name", Some(Lit::str(&g.name))),
                ("opcode", Lit::some(opcode)),
                ("word", Lit::some(g.word.as_deref().map(Lit::str))),
                ("reason", Some(Lit::str(&g.reason))),
                ("confidence", Some(confidence(&g.confidence))),
                ("evidence", Some(cx.evidence(&g.evidence))),
            ],
            "meta::Gap::DEFAULT",
        )
    }));
    let records = cx.lits.embed(records);
    quote! {
        /// What the sources name but do not lay out, from the spec's `[[gap]]`: each with
        /// why it cannot be specified and who says so. No word or field stands for these.
        pub const GAPS: &[meta::Gap] = #records;
    }
}
