//! `addrmap`: the SoC address maps as a table the runtime's `locate` reads — one module
//! per architecture with a constant per slot and `WINDOWS` — rather than a constant per
//! instance (280 on Cayman); `ADDRMAPS` lists them.

use proc_macro2::TokenStream;
use quote::quote;

use super::data::Lit;
use super::render::Render;
use super::util::{confidence, ident};
use crate::model::addrmap::AddrMap;

pub(super) fn items(cx: &Render, rt: &TokenStream) -> TokenStream {
    let maps = cx.model.addrmaps.iter().map(|m| map(cx, m));
    let meta = cx.lits.embed(Lit::slice(cx.model.addrmaps.iter().map(|m| {
        Lit::record(
            "rt::AddrMapMeta",
            [
                ("arch", Lit::str(&m.arch)),
                ("doc", Lit::str(&m.doc)),
                ("windows", Lit::code(format!("{}::WINDOWS", m.arch))),
            ],
        )
    })));
    quote! {
        /// The SoC address maps: where each register file's instances lie. An absolute
        /// address is `ADDRMAPS[..].locate(address)`; an instance's base is its window's
        /// `base + index * stride`.
        #[allow(non_snake_case)]
        pub mod addrmap {
            #[allow(unused_imports)]
            use super::{evidence, meta, confidence};
            #[allow(unused_imports)]
            use #rt::addrmap as rt;
            #(#maps)*
            /// Every architecture's map.
            pub const ADDRMAPS: &[rt::AddrMapMeta] = #meta;
        }
    }
}

fn map(cx: &Render, m: &AddrMap) -> TokenStream {
    let arch = ident(&m.arch);
    let slots = m.slots.iter().map(|s| {
        let name = ident(&s.name);
        let parts = Lit::slice(s.parts.iter().map(|p| {
            Lit::record(
                "rt::PartMeta",
                [
                    ("name", Lit::str(&p.name)),
                    ("regfile", Lit::opt_str(p.regfile.as_deref())),
                    ("offset", Lit::code(format!("{:#x}", p.offset))),
                    ("size", Lit::code(format!("{:#x}", p.size))),
                ],
            )
        }));
        let slot = cx.lits.embed(Lit::record(
            "rt::SlotMeta",
            [
                ("name", Lit::str(&s.name)),
                ("size", Lit::code(format!("{:#x}", s.size))),
                ("parts", parts),
            ],
        ));
        let doc = format!(" {}", crate::emit::escape_doc(&s.doc));
        quote! {
            #[doc = #doc]
            pub const #name: rt::SlotMeta = #slot;
        }
    });
    let windows = cx.lits.embed(Lit::slice(m.windows.iter().map(|w| {
        Lit::record(
            "rt::WindowMeta",
            [
                ("name", Lit::str(&w.name)),
                ("slot", Lit::code(format!("&{}", m.slots[w.slot].name))),
                ("base", Lit::code(format!("{:#x}", w.base))),
                ("count", Lit::num(w.count)),
                ("stride", Lit::code(format!("{:#x}", w.stride))),
                ("step", Lit::num(w.step)),
                ("confidence", confidence(&w.confidence)),
                ("evidence", cx.evidence(&w.evidence)),
            ],
        )
    })));
    let doc = format!(" {}", crate::emit::escape_doc(&m.doc));
    quote! {
        #[doc = #doc]
        pub mod #arch {
            #[allow(unused_imports)]
            use super::{evidence, meta, confidence, rt};
            #(#slots)*
            /// The windows of instances, in spec order.
            pub const WINDOWS: &[rt::WindowMeta] = #windows;
        }
    }
}
