//! What words add to their struct (`OPCODE`, `META`, `TEMPLATE`, `decode`/`encode`), the
//! `Word` enum over every word and the lookups by spec name.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::data::Lit;
use super::render::{Render, in_archs, unguarded};
use super::util::{code, hex, ident, n};
use crate::model::*;

/// A word's opcode and constants laid into 64 zero bytes.
pub(super) fn template_bytes(leaves: &[Leaf], opcode: u8) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[0] = opcode;
    for l in leaves.iter().filter(|l| l.variant.is_none()) {
        let Some(c) = l.constant else { continue };
        let (lsb, width) = l.bits.unwrap_or((0, l.size as u32 * 8));
        let mask = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        for i in 0..l.size.min(8) {
            let shift = i as u32 * 8;
            let keep = !((mask << lsb) >> shift) as u8;
            let set = (((c & mask) << lsb) >> shift) as u8;
            b[l.offset + i] = (b[l.offset + i] & keep) | set;
        }
    }
    b
}

/// `Packed` for `id`: its inherent `read` and `write` (which stay `const` where they can,
/// for the tables built at compile time) behind the trait that provides `encode`.
pub(super) fn packed_impl(id: &syn::Ident, name: &str, size: usize) -> TokenStream {
    let size = n(size);
    quote! {
        impl Packed for #id {
            const NAME: &'static str = #name;
            const ZERO: [u8; #size] = [0; #size];
            #[inline(always)]
            fn read(b: &[u8; #size]) -> Self { Self::read(b) }
            #[inline(always)]
            fn write(&self, b: &mut [u8; #size]) { self.write(b) }
        }
    }
}

impl Render<'_> {
    pub(super) fn word_impl(&self, id: &syn::Ident, t: &TypeDef, o: &Opcode) -> TokenStream {
        let op = hex(u64::from(o.value));
        let name = &t.name;
        let leaves = self.model.leaves(t);
        let leaf_metas = self.lits.embed(Lit::slice(
            leaves.iter().map(|l| self.leaf_meta(l, &t.name)),
        ));
        let c_name = &t.c_name;
        let (archs, arch_inferred) = match &t.kind {
            TypeKind::Struct {
                arch,
                arch_inferred,
                ..
            } => (
                arch.iter().map(|a| ident(a)).collect::<Vec<_>>(),
                *arch_inferred,
            ),
            _ => (Vec::new(), false),
        };
        let follows: &[String] = match &t.kind {
            TypeKind::Struct { follows, .. } => follows,
            _ => &[],
        };
        let doc = &t.doc;
        let aliases: Vec<&str> = match &t.kind {
            TypeKind::Struct { aliases, .. } => aliases.iter().map(|a| a.name.as_str()).collect(),
            _ => Vec::new(),
        };
        let enumerator = &o.enumerator;
        let sub_opcode = match &o.sub {
            Some(s) => {
                let (env, field, e) = (&s.envelope, &s.field, &s.enumerator);
                let (offset, size, value) = (s.offset, s.size, s.value);
                quote!(Some(SubOpcodeMeta { envelope: #env, field: #field, offset: #offset,
                    size: #size, enumerator: #e, value: #value }))
            }
            None => quote!(None),
        };
        let template = template_bytes(&leaves, o.value).map(Literal::u8_unsuffixed);
        let packed = packed_impl(id, name, t.size);
        quote! {
            impl #id {
                pub const META: WordMeta = WordMeta {
                    name: #name, c_name: #c_name, aliases: &[#(#aliases),*], opcode: #op,
                    opcode_enumerator: #enumerator, arch: &[#(Arch::#archs),*],
                    arch_inferred: #arch_inferred, follows: &[#(#follows),*],
                    sub_opcode: #sub_opcode, doc: #doc,
                    fields: Self::FIELDS, leaves: #leaf_metas,
                    template: &Self::TEMPLATE,
                };
            }
            #packed
            impl Instruction for #id {
                const OPCODE: u8 = #op;
                const TEMPLATE: [u8; 64] = [#(#template),*];
                const LEAVES: &'static [meta::LeafMeta] = Self::META.leaves;
            }
        }
    }

    /// Lookups by spec type name, for tools that read values as text (encode, explain).
    pub(super) fn type_registry(&self) -> TokenStream {
        let by_kind = |want: fn(&TypeKind) -> bool| -> (Vec<&str>, Vec<syn::Ident>) {
            self.model
                .types
                .iter()
                .filter(|t| want(&t.kind))
                .map(|t| (t.name.as_str(), ident(&t.name)))
                .unzip()
        };
        let (enum_names, enum_ids) = by_kind(|k| matches!(k, TypeKind::Enum { .. }));
        let (flag_names, flag_ids) = by_kind(|k| matches!(k, TypeKind::Flags { .. }));
        quote! {
            /// The enumerators of the enum named `type_name` (spec name).
            pub fn enumerators(type_name: &str) -> Option<&'static [meta::EnumeratorMeta]> {
                match type_name { #(#enum_names => Some(#enum_ids::ENUMERATORS),)* _ => None }
            }
            /// The named bits of the flag set named `type_name` (spec name).
            pub fn flag_bits(type_name: &str) -> Option<&'static [meta::FlagMeta]> {
                match type_name { #(#flag_names => Some(#flag_ids::BITS),)* _ => None }
            }
        }
    }

    pub(super) fn word_enum(&self) -> TokenStream {
        let words: Vec<&TypeDef> = self.model.words().collect();
        let unguarded = unguarded(self.model).map(code);
        let ids: Vec<_> = words.iter().map(|w| ident(&w.name)).collect();
        // One match arm per word, in dispatch order: its pattern and guard, and its type.
        let patterns: Vec<(TokenStream, _)> = dispatch_order(&words)
            .into_iter()
            .map(|i| {
                let w = words[i];
                let op = hex(u64::from(w.opcode().map_or(0, |o| o.value)));
                let archs = match &w.kind {
                    TypeKind::Struct { arch, .. } => in_archs(arch),
                    _ => in_archs(&[]),
                };
                let sub = w.opcode().and_then(|o| o.sub.as_ref()).map(|s| {
                    let guard = code(&s.rust_guard());
                    quote!(&& #guard)
                });
                (quote!(#op if #archs #sub), ident(&w.name))
            })
            .collect();
        let arms = patterns
            .iter()
            .map(|(p, id)| quote!(#p => Some(Word::#id(#id::read(b))),));
        let identify_arms = patterns
            .iter()
            .map(|(p, id)| quote!(#p => Some(&#id::META),));
        quote! {
            /// What every generated word shares, for tools that work on any of them.
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub struct WordMeta {
                /// Spec name (the C name without `NEURON_ISA_TPB_` and `_STRUCT`).
                pub name: &'static str,
                pub c_name: &'static str,
                /// Other names of the word (older spec names, sources' spellings): input
                /// that names the word by one of them resolves to it.
                pub aliases: &'static [&'static str],
                pub opcode: u8,
                pub opcode_enumerator: &'static str,
                pub arch: &'static [Arch],
                /// No source lists the word per architecture: `arch` (all of them) is the
                /// spec's inference.
                pub arch_inferred: bool,
                /// The words one of which this one must immediately follow (positional
                /// extensions); empty when it stands alone.
                pub follows: &'static [&'static str],
                /// For a word chosen by a sub-opcode: its envelope and selector.
                pub sub_opcode: Option<SubOpcodeMeta>,
                pub doc: &'static str,
                pub fields: &'static [meta::FieldMeta],
                pub leaves: &'static [meta::LeafMeta],
                /// The opcode and every constant laid into zero bytes (what `new()` reads).
                pub template: &'static [u8; 64],
            }

            /// How a sub-word is told apart from its envelope, which shares its opcode:
            /// bytes `offset..offset + size` hold `value` (the enumerator `enumerator`).
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub struct SubOpcodeMeta {
                pub envelope: &'static str,
                pub field: &'static str,
                pub offset: usize,
                pub size: usize,
                pub enumerator: &'static str,
                pub value: u64,
            }

            /// Every word in the spec.
            pub const WORDS: &[WordMeta] = &[#(#ids::META),*];

            /// A decoded word of any kind.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            #[allow(clippy::large_enum_variant)]
            pub enum Word { #(#ids(#ids),)* }

            impl Word {
                /// Decodes by opcode; `None` when `arch` has no word with this opcode.
                pub fn decode(b: &[u8; 64], arch: Arch) -> Option<Word> {
                    #unguarded
                    match b[0] { #(#arms)* _ => None }
                }
                /// Which word `decode` would make of `b`, without reading its fields.
                pub fn identify(b: &[u8; 64], arch: Arch) -> Option<&'static WordMeta> {
                    #unguarded
                    match b[0] { #(#identify_arms)* _ => None }
                }
                pub fn encode(&self) -> [u8; 64] {
                    match self { #(Word::#ids(w) => w.encode(),)* }
                }
                pub fn meta(&self) -> &'static WordMeta {
                    match self { #(Word::#ids(_) => &#ids::META,)* }
                }
                /// Walks every field in offset order.
                pub fn visit(&self, v: &mut impl visit::Visitor, arch: Arch) {
                    match self { #(Word::#ids(w) => w.visit_fields(v, 0, arch),)* }
                }
            }
        }
    }
}
