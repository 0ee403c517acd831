//! `Render`, what every part of the Rust module is rendered with: the model, the
//! metadata literals placed so far, and the member-level helpers (types, reads, writes,
//! visits) the type, view and word renderers share.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::data::Lits;
use super::util::{ident, int_ty, n};
use crate::gate::Gate;
use crate::model::*;

/// One thread's rendering: the model and the metadata literals placed so far.
pub(super) struct Render<'m> {
    pub(super) model: &'m Model,
    /// The confidence gate, if any: what falls below it is marked `#[deprecated]`.
    pub(super) gate: Option<&'m Gate>,
    /// The metadata literals standing in the tokens as placeholders.
    pub(super) lits: Lits,
}

/// Whether `arch` is one of `archs` (`false` for none: a spec may declare no `[[arch]]`).
pub(super) fn in_archs(archs: &[String]) -> TokenStream {
    in_archs_text(archs).parse().expect("an arch test is Rust")
}

/// [`in_archs`] as text.
pub(super) fn in_archs_text(archs: &[String]) -> String {
    if archs.is_empty() {
        return "false".into();
    }
    let ids: Vec<String> = archs
        .iter()
        .map(|a| format!("Arch::{}", ident(a)))
        .collect();
    format!("matches!(arch, {})", ids.join(" | "))
}

/// `let _ = arch;` for a dispatch on the opcode that no word's architectures guard.
pub(super) fn unguarded(model: &Model) -> Option<&'static str> {
    let guarded = model
        .words()
        .any(|w| matches!(&w.kind, TypeKind::Struct { arch, .. } if !arch.is_empty()));
    (!guarded).then_some("let _ = arch;")
}

/// The Rust type of a member, its named types reached through `prefix` (`super::` from
/// inside `view`, nothing at the module's top).
pub(super) fn rust_ty_from(t: &TypeRef, prefix: &str) -> String {
    match t {
        TypeRef::Int { int } => int.rust().to_string(),
        TypeRef::Named { name, .. } => format!("{prefix}{}", ident(name)),
        TypeRef::Array { elem, len } => format!("[{}; {len}]", rust_ty_from(elem, prefix)),
        TypeRef::Ascii { len } => format!("text::AsciiZ<{len}>"),
    }
}

impl Render<'_> {
    /// The note of a fact below the gate (`None` ungated or at or above it).
    /// The deprecation note of a fact below the gate; none for one above it, or for an
    /// unknown member (`c` None), which claims nothing to gate.
    pub(super) fn gated<'c>(
        &self,
        c: impl Into<Option<&'c Confidence>>,
        evidence: &[Evidence],
    ) -> Option<String> {
        let c = c.into()?;
        let gate = self.gate.filter(|g| g.below(c))?;
        Some(gate.note(c, evidence))
    }

    /// `#[deprecated(note = …)]` for a fact below the gate; nothing otherwise.
    pub(super) fn gate_attr<'c>(
        &self,
        c: impl Into<Option<&'c Confidence>>,
        evidence: &[Evidence],
    ) -> TokenStream {
        match self.gated(c, evidence) {
            Some(note) => quote!(#[deprecated(note = #note)]),
            None => TokenStream::new(),
        }
    }

    pub(super) fn arch(&self) -> TokenStream {
        let names: Vec<_> = self.model.archs.iter().map(|a| ident(&a.name)).collect();
        let strs: Vec<_> = self.model.archs.iter().map(|a| a.name.as_str()).collect();
        let ncs: Vec<_> = self.model.archs.iter().map(|a| a.nc).collect();
        let docs: Vec<_> = self
            .model
            .archs
            .iter()
            .map(|a| format!(" {} (NC-v{}).", crate::emit::escape_doc(&a.doc), a.nc))
            .collect();
        quote! {
            /// The NeuronCore architectures the spec knows.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum Arch { #( #[doc = #docs] #names, )* }
            impl Arch {
                pub const ALL: &'static [Arch] = &[#(Arch::#names),*];
                pub const fn name(self) -> &'static str { match self { #(Arch::#names => #strs,)* } }
                /// NeuronCore generation (NC-vN).
                pub const fn nc(self) -> u8 { match self { #(Arch::#names => #ncs,)* } }
                pub fn from_name(name: &str) -> Option<Arch> {
                    match name { #(#strs => Some(Arch::#names),)* _ => None }
                }
            }
        }
    }

    /// One module per confidence scale, one constant per tag.
    pub(super) fn confidences(&self, rt: &TokenStream) -> TokenStream {
        let levels = &self.model.levels;
        let scales = self.model.scales.iter().map(|s| {
            let (id, doc) = (ident(&s.name), format!(" {}", crate::emit::escape_doc(&s.doc)));
            let scale = &s.name;
            let consts = s.levels.iter().map(|(tag, level)| {
                let id = ident(&Scale::const_name(tag));
                let rank = levels.iter().position(|l| &l.name == level).unwrap_or(0);
                let doc = format!(" `{tag}`: common level `{level}`.");
                quote! {
                    #[doc = #doc]
                    pub const #id: Confidence = Confidence { tag: #tag, scale: #scale, level: #level, rank: #rank };
                }
            });
            quote! {
                #[doc = #doc]
                pub mod #id {
                    use #rt::meta::Confidence;
                    #(#consts)*
                }
            }
        });
        quote! {
            /// The spec's confidence tags by scale, each placed on the common ordering.
            #[allow(non_snake_case)]
            pub mod confidence {
                #(#scales)*
            }
        }
    }

    /// The Rust type of a member.
    pub(super) fn rust_ty(&self, t: &TypeRef) -> TokenStream {
        rust_ty_from(t, "").parse().expect("a member type is Rust")
    }

    /// Expression reading type `t` at `off` of the byte array `b` (of size `m`).
    pub(super) fn read_expr(&self, t: &TypeRef, off: usize, m: usize) -> TokenStream {
        let size = n(self.model.size_of(t));
        let (off_l, m_l) = (n(off), n(m));
        match t {
            TypeRef::Int { int } => {
                let ty = int_ty(*int);
                quote!(#ty::from_le_bytes(*at::<#off_l, #size, #m_l>(b)))
            }
            TypeRef::Named { name, .. } => {
                let id = ident(name);
                quote!(#id::read(at::<#off_l, #size, #m_l>(b)))
            }
            TypeRef::Array { elem, len } => {
                if **elem == (TypeRef::Int { int: Int::U8 }) {
                    return quote!(*at::<#off_l, #size, #m_l>(b));
                }
                let es = self.model.size_of(elem);
                let items = (0..*len).map(|i| self.read_expr(elem, off + i * es, m));
                quote!([#(#items),*])
            }
            TypeRef::Ascii { .. } => quote!(text::AsciiZ(*at::<#off_l, #size, #m_l>(b))),
        }
    }

    /// Statements writing `value` (an expression of type `t`) at `off` of `b`.
    pub(super) fn write_stmts(
        &self,
        t: &TypeRef,
        value: TokenStream,
        off: usize,
        m: usize,
    ) -> TokenStream {
        let size = n(self.model.size_of(t));
        let (off_l, m_l) = (n(off), n(m));
        match t {
            TypeRef::Int { .. } => {
                quote!(*at_mut::<#off_l, #size, #m_l>(b) = #value.to_le_bytes();)
            }
            TypeRef::Named { .. } => quote!(#value.write(at_mut::<#off_l, #size, #m_l>(b));),
            TypeRef::Array { elem, len } => {
                if **elem == (TypeRef::Int { int: Int::U8 }) {
                    return quote!(*at_mut::<#off_l, #size, #m_l>(b) = #value;);
                }
                let es = self.model.size_of(elem);
                let stmts = (0..*len).map(|i| {
                    let i_l = n(i);
                    self.write_stmts(elem, quote!(#value[#i_l]), off + i * es, m)
                });
                quote!(#(#stmts)*)
            }
            TypeRef::Ascii { .. } => quote!(*at_mut::<#off_l, #size, #m_l>(b) = #value.0;),
        }
    }

    /// Statements visiting `value` of type `t`, described by `meta`, at `base + off`.
    pub(super) fn visit_stmts(
        &self,
        t: &TypeRef,
        value: TokenStream,
        meta: TokenStream,
        off: usize,
    ) -> TokenStream {
        let at = if off == 0 {
            quote!(base)
        } else {
            let off = n(off);
            quote!(base + #off)
        };
        self.visit_at(t, value, &meta, at, 0)
    }

    /// [`Self::visit_stmts`] at the offset expression `at`; an array is a loop whose
    /// index is named after its `depth`.
    pub(super) fn visit_at(
        &self,
        t: &TypeRef,
        value: TokenStream,
        meta: &TokenStream,
        at: TokenStream,
        depth: usize,
    ) -> TokenStream {
        match t {
            TypeRef::Int { int } => {
                // 64-bit values are already what the visitor takes.
                let value = match int.size() {
                    8 => value,
                    _ if int.signed() => quote!(#value as i64),
                    _ => quote!(#value as u64),
                };
                let v = if int.signed() {
                    quote!(visit::Value::Signed(#value))
                } else {
                    quote!(visit::Value::Unsigned(#value))
                };
                quote!(v.value(#meta, #at, #v);)
            }
            TypeRef::Ascii { .. } => {
                quote!(v.value(#meta, #at, visit::Value::Text(&#value.0));)
            }
            TypeRef::Named { index, .. } => match &self.model.ty(*index).kind {
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => {
                    quote!(v.value(#meta, #at, #value.value(arch));)
                }
                _ => quote!(#value.visit(#meta, v, #at, arch);),
            },
            TypeRef::Array { elem, .. } => {
                let (i, x) = (format_ident!("i{depth}"), format_ident!("x{depth}"));
                let step = match self.model.size_of(elem) {
                    1 => quote!(#at + #i),
                    es => {
                        let es = n(es);
                        quote!(#at + #i * #es)
                    }
                };
                let item = self.visit_at(elem, quote!((*#x)), meta, step, depth + 1);
                quote! {
                    v.enter(#meta, #at, visit::Group::Array);
                    for (#i, #x) in #value.iter().enumerate() { #item }
                    v.leave(visit::Group::Array);
                }
            }
        }
    }
}
