//! Lowerings, emitted into the Rust module (see [`crate::lowering`]): one
//! `pub const LOWERINGS: &[lowering::LoweringMeta]` with every kind, route and mapping as
//! data (places resolved to byte offsets and bit ranges, each target's `TEMPLATE` by
//! reference), for the generic engine in the runtime (`runtime::lowering::apply`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Cx, ident, n, opt_str};
use crate::lowering::model::*;

fn place(rt: &TokenStream, p: &Place) -> TokenStream {
    let (path, off, size, ty) = (&p.path, n(p.offset), n(p.size), &p.type_name);
    let bits = match p.bits {
        Some((a, b)) => quote!(Some((#a, #b))),
        None => quote!(None),
    };
    quote!(#rt::lowering::Place { path: #path, offset: #off, size: #size, bits: #bits, type_name: #ty })
}

fn pair((a, b): (usize, usize)) -> TokenStream {
    let (a, b) = (n(a), n(b));
    quote!((#a, #b))
}

fn message(cx: &Cx<'_>, rt: &TokenStream, m: &Message) -> TokenStream {
    let text = &m.message;
    let conf = cx.confidence(&m.confidence);
    let inferred = m.inferred;
    let note = opt_str(&m.note);
    let ev = cx.evidence(&m.evidence);
    quote!(#rt::lowering::MessageMeta { text: #text, confidence: #conf, inferred: #inferred, note: #note, evidence: #ev })
}

fn mapping(cx: &Cx<'_>, rt: &TokenStream, m: &Mapping) -> TokenStream {
    let to = place(rt, &m.to);
    let source = match &m.source {
        Source::Pseudo { place: p } => {
            let p = place(rt, p);
            quote!(#rt::lowering::Source::Pseudo(#p))
        }
        Source::Ext { place: p } => {
            let p = place(rt, p);
            quote!(#rt::lowering::Source::Ext(#p))
        }
        Source::Value { value } => {
            let v = Literal::u64_suffixed(*value);
            quote!(#rt::lowering::Source::Value(#v))
        }
    };
    let via = match &m.via {
        Transform::Copy => quote!(#rt::lowering::Transform::Copy),
        Transform::Narrow => quote!(#rt::lowering::Transform::Narrow),
        Transform::ResolveAddr { addr } => {
            let marker = n(addr.marker);
            let (mask, value) = (
                Literal::u64_suffixed(addr.mask),
                Literal::u64_suffixed(addr.value),
            );
            let (imm, lo, hi) = (
                pair(addr.immediate),
                pair(addr.var_id_lo),
                pair(addr.var_id_hi),
            );
            quote!(#rt::lowering::Transform::ResolveAddr(#rt::lowering::AddrVar {
                marker: #marker, mask: #mask, value: #value, immediate: #imm,
                var_id_lo: #lo, var_id_hi: #hi,
            }))
        }
    };
    let conf = cx.confidence(&m.confidence);
    let inferred = m.inferred;
    let note = opt_str(&m.note);
    let ev = cx.evidence(&m.evidence);
    quote!(#rt::lowering::MappingMeta { to: #to, source: #source, via: #via,
        confidence: #conf, inferred: #inferred, note: #note, evidence: #ev })
}

fn kind(cx: &Cx<'_>, rt: &TokenStream, k: &Kind) -> TokenStream {
    let value = Literal::u64_suffixed(k.value);
    let (name, to, doc) = (&k.name, &k.to, &k.doc);
    let to_id = ident(&k.to);
    let op = Literal::u8_suffixed(k.to_opcode);
    let extension = match k.extension {
        ExtensionUse::Required => quote!(#rt::lowering::ExtensionUse::Required),
        ExtensionUse::Ignored => quote!(#rt::lowering::ExtensionUse::Ignored),
    };
    let missing = match &k.missing_extension {
        Some(m) => {
            let m = message(cx, rt, m);
            quote!(Some(#m))
        }
        None => quote!(None),
    };
    let routes = k.routes.iter().map(|r| {
        let (abi, via) = (&r.abi, &r.via);
        let conf = cx.confidence(&r.confidence);
        let inferred = r.inferred;
        let note = opt_str(&r.note);
        let ev = cx.evidence(&r.evidence);
        quote!(#rt::lowering::RouteMeta { abi: #abi, via: &[#(#via),*], confidence: #conf,
            inferred: #inferred, note: #note, evidence: #ev })
    });
    let mappings = k.mappings.iter().map(|m| mapping(cx, rt, m));
    let (unmapped, unread) = (&k.unmapped, &k.unread);
    quote!(#rt::lowering::KindMeta {
        value: #value, name: #name, to: #to, to_opcode: #op, template: &#to_id::TEMPLATE,
        extension: #extension, missing_extension: #missing, doc: #doc,
        routes: &[#(#routes),*], mappings: &[#(#mappings),*],
        unmapped: &[#(#unmapped),*], unread: &[#(#unread),*],
    })
}

/// `LOWERINGS`.
pub(super) fn items(cx: &Cx<'_>, rt: &TokenStream) -> TokenStream {
    let lowerings = cx.model.lowerings.iter().map(|l| {
        let (name, from, doc, sel_ty) = (&l.name, &l.from, &l.doc, &l.selector_type);
        let op = Literal::u8_suffixed(l.from_opcode);
        let selector = place(rt, &l.selector);
        let extension = opt_str(&l.extension);
        let ext_op = match l.extension_opcode {
            Some(o) => {
                let o = Literal::u8_suffixed(o);
                quote!(Some(#o))
            }
            None => quote!(None),
        };
        let conf = cx.confidence(&l.confidence);
        let ev = cx.evidence(&l.evidence);
        let unsupported = message(cx, rt, &l.unsupported);
        let abis = l.abis.iter().map(|a| {
            let (name, entry, doc, default, inferred) =
                (&a.name, &a.entry, &a.doc, a.default, a.inferred);
            let conf = cx.confidence(&a.confidence);
            let note = opt_str(&a.note);
            let ev = cx.evidence(&a.evidence);
            quote!(#rt::lowering::AbiMeta { name: #name, entry: #entry, doc: #doc, default: #default,
                confidence: #conf, inferred: #inferred, note: #note, evidence: #ev })
        });
        let kinds = l.kinds.iter().map(|k| kind(cx, rt, k));
        quote!(#rt::lowering::LoweringMeta {
            name: #name, from: #from, from_opcode: #op, selector: #selector,
            selector_type: #sel_ty, extension: #extension, extension_opcode: #ext_op,
            doc: #doc, confidence: #conf, evidence: #ev, unsupported: #unsupported,
            abis: &[#(#abis),*], kinds: &[#(#kinds),*],
        })
    });
    quote! {
        /// How a runtime lowers pseudo words to real ones, from the spec's `[[lowering]]`:
        /// per selector value the real word, its routes per ABI version and every field
        /// mapping with its confidence (`inferred` marks the ones the sources do not state).
        /// Applied by `runtime::lowering::apply`.
        pub const LOWERINGS: &[#rt::lowering::LoweringMeta] = &[#(#lowerings),*];
    }
}
