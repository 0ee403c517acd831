//! What records (structs declared `top_level`, decoded on their own) add to their struct
//! (`NAME`, `META`, `decode` from a slice, `encode`, `view`), and the `Record` enum over
//! them. The work is in the runtime's `record` module; this stays thin.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::data::Lit;
use super::render::Render;
use super::util::ident;
use crate::model::*;

impl Render<'_> {
    pub(super) fn record_impl(&self, id: &syn::Ident, t: &TypeDef) -> TokenStream {
        let name = &t.name;
        let id_mut = format_ident!("{}_mut", t.name);
        let c_name = &t.c_name;
        let doc = &t.doc;
        let size = proc_macro2::Literal::usize_unsuffixed(t.size);
        let leaves = self.model.leaves(t);
        let leaf_metas = self.lits.embed(Lit::slice(
            leaves.iter().map(|l| self.leaf_meta(l, &t.name)),
        ));
        let rules = match self.model.rule_set_of(name) {
            Some(_) => quote!(Self::RULES),
            None => quote!(&[]),
        };
        let packed = super::words::packed_impl(id, name, t.size);
        quote! {
            #packed
            impl TopLevel for #id {
                const META: record::RecordMeta = record::RecordMeta {
                    name: #name, c_name: #c_name, size: #size, doc: #doc,
                    fields: Self::FIELDS, leaves: #leaf_metas, rules: #rules,
                };
            }
            impl #id {
                /// A zero-copy view of the first `SIZE` bytes of `b`.
                #[inline]
                pub fn view(b: &[u8]) -> Result<view::#id<'_>, DecodeError> {
                    Ok(view::#id::new(record::bytes_of(b, Self::NAME)?))
                }
                /// A writable view of the first `SIZE` bytes of `b`.
                #[inline]
                pub fn view_mut(b: &mut [u8]) -> Result<view::#id_mut<'_>, DecodeError> {
                    Ok(view::#id_mut::new(record::bytes_of_mut(b, Self::NAME)?))
                }
            }
        }
    }

    /// `RECORDS` and the `Record` enum: decode by spec name, walk, check, encode.
    pub(super) fn record_enum(&self) -> TokenStream {
        let records: Vec<&TypeDef> = self.model.records().collect();
        let ids: Vec<_> = records.iter().map(|r| ident(&r.name)).collect();
        let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
        let checks = records.iter().map(|r| {
            let id = ident(&r.name);
            let name = &r.name;
            if self.model.rule_set_of(&r.name).is_some() {
                quote!(Record::#id(r) => #id::check_rules(&r.encode(), arch))
            } else {
                quote!(Record::#id(_) => rules::Violations::from_truth(#name, &[], 0))
            }
        });
        // With no records every method's arguments go unused; say so rather than warn
        // downstream.
        let unused = records
            .is_empty()
            .then(|| quote!(#[allow(unused_variables)]));
        let unused_arch = (!records
            .iter()
            .any(|r| self.model.rule_set_of(&r.name).is_some()))
        .then(|| quote!(let _ = arch;));
        quote! {
            /// Every record in the spec: the top-level structs that are not words.
            pub const RECORDS: &[record::RecordMeta] = &[#(#ids::META),*];

            /// A decoded record of any kind.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            #[allow(clippy::large_enum_variant)]
            pub enum Record { #(#ids(#ids),)* }

            #unused
            impl Record {
                /// Decodes the front of `b` as the record named `name` (spec name); `None`
                /// when no record has that name.
                pub fn decode(name: &str, b: &[u8]) -> Option<Result<Record, DecodeError>> {
                    match name {
                        #(#names => Some(#ids::decode(b).map(Record::#ids)),)*
                        _ => None,
                    }
                }
                pub fn meta(&self) -> &'static record::RecordMeta {
                    match *self { #(Record::#ids(_) => &#ids::META,)* }
                }
                /// Writes the record's bytes to the front of `out`.
                pub fn encode_into(&self, out: &mut [u8]) -> Result<(), DecodeError> {
                    match *self {
                        #(Record::#ids(r) => {
                            r.write(record::bytes_of_mut(out, #ids::NAME)?);
                            Ok(())
                        })*
                    }
                }
                /// Walks every field in offset order.
                pub fn visit(&self, v: &mut impl visit::Visitor, arch: Arch) {
                    match *self { #(Record::#ids(r) => r.visit_fields(v, 0, arch),)* }
                }
                /// The record's violations for `arch` (empty when valid, or when its
                /// struct has no rules).
                pub fn check(&self, arch: Arch) -> rules::Violations {
                    #unused_arch
                    match *self { #(#checks,)* }
                }
            }
        }
    }
}
