//! One Rust type per spec type: enums, flag sets, bitfields, structs and unions, with
//! `read`/`write`, metadata tables and the visitor walk.

use super::records::MetaArgs;
use proc_macro2::{Delimiter, Literal, TokenStream, TokenTree};
use quote::{format_ident, quote};

use super::data::Lit;
use super::render::{Render, in_archs};
use super::util::{
    code, confidence, doc_attr, hex, ident, int_ty, lit, n, shifted_down, shifted_up, uint_for,
};
use crate::model::*;

/// Getter and setter of a joined value: part `k` holds the bits above the parts before it.
/// `gated` is the deprecation both carry under a confidence gate (or nothing).
pub(super) fn join_fns(j: &Join, gated: &TokenStream) -> TokenStream {
    let get = ident(&j.name);
    let set = format_ident!("set_{}", j.name);
    let mut shift = 0u32;
    let mut gets = Vec::new();
    let mut sets = Vec::new();
    for (part, width) in &j.parts {
        let p = ident(part);
        let pty = int_ty(uint_for(*width));
        let at = Literal::u32_unsuffixed(shift);
        if shift == 0 {
            gets.push(quote!((self.#p as u64)));
            sets.push(quote!(self.#p = value as #pty;));
        } else {
            gets.push(quote!(((self.#p as u64) << #at)));
            sets.push(quote!(self.#p = (value >> #at) as #pty;));
        }
        shift += width;
    }
    let joined = if gets.is_empty() {
        quote!(0)
    } else {
        quote!(#(#gets)|*)
    };
    let doc = format!(
        " {} (joined from {}).",
        crate::emit::escape_doc(&j.doc),
        j.parts
            .iter()
            .map(|p| p.0.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    );
    quote! {
        #[doc = #doc]
        #gated
        pub const fn #get(&self) -> u64 { #joined }
        /// Splits `value` into its parts (bits above the parts' total are dropped).
        #gated
        pub fn #set(&mut self, value: u64) { #(#sets)* }
    }
}

/// `x as to`, or `x` alone (outside the parentheses that only held it for the cast) when it
/// already has that type.
fn cast(x: TokenStream, from: Int, to: Int) -> TokenStream {
    // `u24` is held in a `u32`: no cast between the two.
    if from.rust() != to.rust() {
        let to = int_ty(to);
        return quote!(#x as #to);
    }
    let mut tokens = x.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Group(g)), None) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
        _ => x,
    }
}

impl Render<'_> {
    pub(super) fn type_def(&self, t: &TypeDef) -> TokenStream {
        match &t.kind {
            TypeKind::Enum { repr, values } => self.enum_def(t, *repr, values),
            TypeKind::Flags { repr, bits, .. } => self.flags_def(t, *repr, bits),
            TypeKind::Bitfield { repr, fields } => self.bitfield_def(t, *repr, fields),
            TypeKind::Struct {
                fields,
                opcode,
                aliases,
                ..
            } => {
                let def = self.struct_def(&t.name, t, fields, opcode.as_ref(), None);
                // A word's aliases are names to look it up by (`WordMeta::aliases`); a nested
                // struct's (MEM_PATTERN3D for TENSOR3D) name the same layout, so they are types.
                let id = ident(&t.name);
                let names = aliases.iter().filter(|_| opcode.is_none()).map(|a| {
                    let (alias, doc) = (
                        ident(&a.name),
                        format!(" Alias of [`{}`] (as {} names it).", t.name, a.spelled_by()),
                    );
                    quote!(#[doc = #doc] pub type #alias = #id;)
                });
                quote!(#def #(#names)*)
            }
            TypeKind::Union {
                discriminator,
                variants,
            } => self.union_def(t, discriminator, variants),
        }
    }

    /// An enum is its raw value behind a newtype, each enumerator an associated constant:
    /// as small as the wire value, decoded by a copy, and every value (named or not)
    /// encodes back unchanged.
    pub(super) fn enum_def(&self, t: &TypeDef, repr: Int, values: &[Enumerator]) -> TokenStream {
        let name = ident(&t.name);
        let ty = int_ty(repr);
        let repr_size = n(repr.size());
        let doc = doc_attr(&t.doc, &t.confidence);
        let ids: Vec<_> = values.iter().map(|v| ident(&v.name)).collect();
        let vals: Vec<_> = values.iter().map(|v| lit(v.value, repr)).collect();
        let strs: Vec<_> = values.iter().map(|v| v.name.as_str()).collect();
        let docs: Vec<_> = values
            .iter()
            .map(|v| {
                let mut d = format!(" `{}` = {:#x}", v.c_name, v.value);
                if let Some(doc) = &v.doc {
                    d.push_str(&format!(": {}", crate::emit::escape_doc(doc)));
                }
                if !v.arch.is_empty() {
                    d.push_str(&format!(" (only on {})", v.arch.join(", ")));
                }
                super::util::sentence(&d)
            })
            .collect();
        let metas = values.iter().map(|v| {
            self.lits.embed(Lit::update(
                "meta::EnumeratorMeta",
                [
                    ("name", Some(Lit::str(&v.name))),
                    ("value", Some(Lit::num(v.value))),
                    ("c_name", Some(Lit::str(&v.c_name))),
                    (
                        "aliases",
                        Lit::nonempty(v.aliases.iter().map(|a| Lit::str(&a.name))),
                    ),
                    ("arch", Lit::nonempty(v.arch.iter().map(|a| Lit::str(a)))),
                    ("engine", Lit::some(v.engine.as_deref().map(Lit::str))),
                ],
                "meta::EnumeratorMeta::DEFAULT",
            ))
        });
        let limited: Vec<_> = values
            .iter()
            .filter(|v| !v.arch.is_empty())
            .map(|v| {
                let id = ident(&v.name);
                let archs = in_archs(&v.arch);
                quote!(Self::#id => #archs,)
            })
            .collect();
        let everywhere: Vec<_> = values
            .iter()
            .filter(|v| v.arch.is_empty())
            .map(|v| ident(&v.name))
            .collect();
        let in_arch = match (limited.is_empty(), everywhere.is_empty()) {
            (true, true) => quote!(let _ = (self, arch); false),
            (true, false) => quote!(let _ = arch; matches!(self, #(Self::#everywhere)|*)),
            (false, true) => quote!(match self { #(#limited)* _ => false }),
            (false, false) => quote! {
                match self { #(#limited)* #(Self::#everywhere)|* => true, _ => false }
            },
        };
        let name_fn = match ids.is_empty() {
            true => quote!(let _ = self; None),
            false => quote!(match self { #(Self::#ids => Some(#strs),)* _ => None }),
        };
        // Spec names such as `Unassigned` (klr's) are kept as the sources spell them.
        let case_allow = values
            .iter()
            .any(|v| v.name.chars().any(|c| c.is_ascii_lowercase()))
            .then(|| quote!(#[allow(non_upper_case_globals)]));
        let unnamed = format!("{}({{:#x}})", t.name);
        let raw = raw_u64(repr);
        quote! {
            #doc
            #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
            #[repr(transparent)]
            pub struct #name(pub #ty);
            #case_allow
            impl #name {
                #( #[doc = #docs] pub const #ids: Self = Self(#vals); )*
                pub const ENUMERATORS: &'static [meta::EnumeratorMeta] = &[#(#metas),*];
                #[inline(always)]
                pub const fn from_raw(raw: #ty) -> Self { Self(raw) }
                #[inline(always)]
                pub const fn raw(self) -> #ty { self.0 }
                /// The enumerator's name, or `None` for a value the sources do not name.
                pub const fn name(self) -> Option<&'static str> { #name_fn }
                /// Whether `arch` has this enumerator (values that are not enumerators: no).
                pub const fn in_arch(self, arch: Arch) -> bool { #in_arch }
                /// The name as `arch` spells it, or `None` if it is not an enumerator there.
                pub const fn name_in(self, arch: Arch) -> Option<&'static str> {
                    if self.in_arch(arch) { self.name() } else { None }
                }
                #[inline(always)]
                pub const fn read(b: &[u8; #repr_size]) -> Self { Self(#ty::from_le_bytes(*b)) }
                #[inline(always)]
                pub fn write(&self, b: &mut [u8; #repr_size]) { *b = self.0.to_le_bytes(); }
                pub fn value(self, arch: Arch) -> visit::Value<'static> {
                    visit::Value::Enum { raw: #raw, name: self.name_in(arch) }
                }
            }
            /// The enumerator's name, or the raw value for one the sources do not name.
            impl core::fmt::Debug for #name {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    match self.name() {
                        Some(name) => f.write_str(name),
                        None => write!(f, #unnamed, self.0),
                    }
                }
            }
        }
    }

    pub(super) fn flags_def(&self, t: &TypeDef, repr: Int, bits: &[FlagBit]) -> TokenStream {
        let name = ident(&t.name);
        let ty = int_ty(repr);
        let size = n(repr.size());
        let doc = doc_attr(&t.doc, &t.confidence);
        let raw = raw_u64(repr);
        let ids: Vec<_> = bits.iter().map(|b| ident(&b.name)).collect();
        let masks: Vec<_> = bits.iter().map(|b| hex(1 << b.bit)).collect();
        let docs: Vec<_> = bits
            .iter()
            .map(|b| {
                format!(
                    " `{}` (bit {}): {}",
                    b.c_name,
                    b.bit,
                    crate::emit::escape_doc(&b.doc)
                )
            })
            .collect();
        let metas = bits.iter().map(|b| {
            self.lits.embed(Lit::record(
                "meta::FlagMeta",
                [
                    ("name", Lit::str(&b.name)),
                    ("bit", Lit::num(b.bit)),
                    ("doc", Lit::str(&b.doc)),
                ],
            ))
        });
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #name(pub #ty);
            impl #name {
                #( #[doc = #docs] pub const #ids: Self = Self(#masks); )*
                pub const BITS: &'static [meta::FlagMeta] = &[#(#metas),*];
                #[inline] pub const fn from_raw(raw: #ty) -> Self { Self(raw) }
                #[inline] pub const fn raw(self) -> #ty { self.0 }
                /// Whether every bit of `other` is set.
                #[inline] pub const fn contains(self, other: Self) -> bool { self.0 & other.0 == other.0 }
                #[inline(always)] pub const fn read(b: &[u8; #size]) -> Self { Self(#ty::from_le_bytes(*b)) }
                #[inline(always)] pub fn write(&self, b: &mut [u8; #size]) { *b = self.0.to_le_bytes(); }
                pub fn value(self, _arch: Arch) -> visit::Value<'static> {
                    visit::Value::Flags { raw: #raw, bits: Self::BITS }
                }
            }
        }
    }

    pub(super) fn bitfield_def(&self, t: &TypeDef, repr: Int, fields: &[BitField]) -> TokenStream {
        let name = ident(&t.name);
        let ty = int_ty(repr);
        let size = n(repr.size());
        let doc = doc_attr(&t.doc, &t.confidence);
        let mut decls = Vec::new();
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        let mut visits = Vec::new();
        let metas: Vec<_> = fields
            .iter()
            .map(|b| self.bits_meta(b, repr.size()))
            .collect();
        for (i, b) in fields.iter().enumerate() {
            let i_l = n(i);
            let id = ident(&b.name);
            let fdoc = doc_attr(
                &format!("Bits {}..={}. {}", b.lsb, b.lsb + b.width - 1, b.doc),
                b.claimed(),
            );
            let gated = self.gate_attr(b.claimed(), &b.evidence);
            let fdoc = quote!(#fdoc #gated);
            let mask = hex(b.mask());
            let raw = code(&shifted_down("raw", b.lsb, &mask));
            match &b.ty {
                BitsType::Uint => {
                    let width = uint_for(b.width);
                    let fty = int_ty(width);
                    let read = cast(raw, repr, width);
                    decls.push(quote!(#fdoc pub #id: #fty,));
                    reads.push(quote!(#id: #read,));
                    let own = cast(quote!(self.#id), width, repr);
                    writes.push(code(&shifted_up(own, b.lsb, &mask)));
                    let wide = cast(quote!(self.#id), width, Int::U64);
                    visits.push(
                        quote!(v.value(&Self::FIELDS[#i_l], base, visit::Value::Unsigned(#wide));),
                    );
                }
                BitsType::Named { name, index } => {
                    let nt = ident(name);
                    let inner = match &self.model.ty(*index).kind {
                        TypeKind::Enum { repr, .. } | TypeKind::Flags { repr, .. } => *repr,
                        _ => Int::U8,
                    };
                    let read = cast(raw, repr, inner);
                    decls.push(quote!(#fdoc pub #id: #nt,));
                    reads.push(quote!(#id: #nt::read(&(#read).to_le_bytes()),));
                    let own = cast(quote!(self.#id.raw()), inner, repr);
                    writes.push(code(&shifted_up(own, b.lsb, &mask)));
                    visits.push(quote!(v.value(&Self::FIELDS[#i_l], base, self.#id.value(arch));));
                }
            }
        }
        // A `u24` container is three bytes held in a `u32`.
        let (from_bytes, to_bytes) = match repr {
            Int::U24 => (
                quote!(u32::from_le_bytes([b[0], b[1], b[2], 0])),
                quote!(let w = self.raw().to_le_bytes(); *b = [w[0], w[1], w[2]];),
            ),
            _ => (
                quote!(#ty::from_le_bytes(*b)),
                quote!(*b = self.raw().to_le_bytes();),
            ),
        };
        let packed = if writes.is_empty() {
            quote!(0)
        } else if let [one] = writes.as_slice() {
            // One sub-field: no parentheses around the block's value.
            cast(one.clone(), Int::U8, Int::U8)
        } else {
            quote!(#(#writes)|*)
        };
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #name { #(#decls)* }
            impl #name {
                pub const SIZE: usize = #size;
                pub const FIELDS: &'static [meta::FieldMeta] = &[#(#metas),*];
                #[inline(always)]
                pub const fn from_raw(raw: #ty) -> Self { Self { #(#reads)* } }
                /// The packed value; sub-field values wider than their bits are truncated.
                #[inline(always)]
                pub const fn raw(&self) -> #ty { #packed }
                #[inline(always)] pub const fn read(b: &[u8; #size]) -> Self { Self::from_raw(#from_bytes) }
                #[inline(always)] pub fn write(&self, b: &mut [u8; #size]) { #to_bytes }
                pub fn visit(&self, meta: &'static meta::FieldMeta, v: &mut impl visit::Visitor, base: usize, arch: Arch) {
                    let _ = arch;
                    v.enter(meta, base, visit::Group::Bitfield);
                    #(#visits)*
                    v.leave(visit::Group::Bitfield);
                }
            }
        }
    }

    /// A struct: a nested type, a word, or one arm of a union. An arm holds the union's
    /// discriminator too (so it encodes alone) but leaves it to the union to visit.
    pub(super) fn struct_def(
        &self,
        name: &str,
        t: &TypeDef,
        fields: &[Field],
        opcode: Option<&Opcode>,
        skip_visit: Option<&str>,
    ) -> TokenStream {
        let id = ident(name);
        let size = n(t.size);
        let doc = doc_attr(&t.doc, &t.confidence);
        let metas: Vec<_> = fields.iter().map(|f| self.field_meta(f)).collect();
        let decls = fields.iter().map(|f| {
            let fid = ident(&f.name);
            let fty = self.rust_ty(&f.ty);
            let role = match f.role {
                Role::Data => String::new(),
                Role::Reserved => " Reserved.".into(),
                Role::Unknown => " Unknown: no source gives a meaning; kept raw.".into(),
            };
            let fdoc = doc_attr(
                &format!(
                    "Offset {} ({}), `{}`.{role} {}",
                    f.offset,
                    crate::emit::plural(f.size, "byte"),
                    f.ty.spelling(),
                    f.doc
                ),
                f.claimed(),
            );
            let gated = self.gate_attr(f.claimed(), &f.evidence);
            quote!(#fdoc #gated pub #fid: #fty,)
        });
        let reads = fields.iter().map(|f| {
            let fid = ident(&f.name);
            let e = self.read_expr(&f.ty, f.offset, t.size);
            quote!(#fid: #e,)
        });
        let writes = fields.iter().map(|f| {
            let fid = ident(&f.name);
            self.write_stmts(&f.ty, quote!(self.#fid), f.offset, t.size)
        });
        let visits = fields
            .iter()
            .enumerate()
            .filter(|(_, f)| Some(f.name.as_str()) != skip_visit)
            .map(|(i, f)| {
                let (fid, i) = (ident(&f.name), n(i));
                self.visit_stmts(
                    &f.ty,
                    quote!(self.#fid),
                    quote!(&Self::FIELDS[#i]),
                    f.offset,
                )
            });
        let word = match opcode {
            Some(o) => Some(self.word_impl(&id, t, o)),
            None => t.is_record().then(|| self.record_impl(&id, t)),
        };
        let joins: &[Join] = match &t.kind {
            TypeKind::Struct { joins, .. } => joins,
            _ => &[],
        };
        let join_metas = joins.iter().map(|j| {
            let parts = j
                .parts
                .iter()
                .map(|(p, w)| Lit::code(format!("({p:?}, {w})")));
            self.lits.embed(Lit::record(
                "meta::JoinMeta",
                [
                    ("name", Lit::str(&j.name)),
                    ("parts", Lit::slice(parts)),
                    ("doc", Lit::str(&j.doc)),
                    ("confidence", confidence(&j.confidence)),
                    ("evidence", self.evidence(&j.evidence)),
                ],
            ))
        });
        let join_fns = joins.iter().map(|j| {
            let gated = self.gate_attr(&j.confidence, &j.evidence);
            join_fns(j, &gated)
        });
        let codec_fns = fields.iter().filter_map(|f| {
            let Some(Codec::ZeroMeans(v)) = f.codec else { return None };
            let fid = ident(&f.name);
            let get = format_ident!("{}_value", f.name);
            let doc = format!(" `{}` as a value: stored 0 means {v}.", f.name);
            let gated = self.gate_attr(f.claimed(), &f.evidence);
            Some(quote! {
                #[doc = #doc]
                #gated
                pub const fn #get(&self) -> u64 { meta::Codec::ZeroMeans(#v).decode(self.#fid as u64) }
            })
        });
        let join_visits = joins.iter().enumerate().map(|(i, j)| {
            let (get, i) = (ident(&j.name), n(i));
            quote!(v.joined(&Self::JOINS[#i], base, self.#get());)
        });
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub struct #id { #(#decls)* }
            /// All bytes zero (arrays of any length, so not derived).
            impl Default for #id {
                fn default() -> Self { Self::read(&[0u8; #size]) }
            }
            impl #id {
                pub const SIZE: usize = #size;
                pub const FIELDS: &'static [meta::FieldMeta] = &[#(#metas),*];
                /// Logical values stored across several fields.
                pub const JOINS: &'static [meta::JoinMeta] = &[#(#join_metas),*];
                #(#join_fns)*
                #(#codec_fns)*
                #[inline(always)]
                pub const fn read(b: &[u8; #size]) -> Self { Self { #(#reads)* } }
                #[inline(always)]
                pub fn write(&self, b: &mut [u8; #size]) { #(#writes)* }
                pub fn visit(&self, meta: &'static meta::FieldMeta, v: &mut impl visit::Visitor, base: usize, arch: Arch) {
                    v.enter(meta, base, visit::Group::Struct);
                    self.visit_fields(v, base, arch);
                    v.leave(visit::Group::Struct);
                }
                /// Visits the members without opening a group for the struct itself.
                pub fn visit_fields(&self, v: &mut impl visit::Visitor, base: usize, arch: Arch) {
                    let _ = arch;
                    #(#visits)*
                    #(#join_visits)*
                }
            }
            #word
        }
    }

    pub(super) fn union_def(&self, t: &TypeDef, disc: &Field, variants: &[Variant]) -> TokenStream {
        let id = ident(&t.name);
        let size = n(t.size);
        let doc = doc_attr(&t.doc, &t.confidence);
        let mut arms = Vec::new();
        let mut arm_types = Vec::new();
        let disc_read = self.read_expr(&disc.ty, disc.offset, t.size);
        let disc_raw = match &disc.ty {
            TypeRef::Named { .. } => quote!(d.raw() as u64),
            _ => quote!(d as u64),
        };
        let arm_enum = ident(&format!("{}_arm", t.name));
        let mut selects = Vec::new();
        let mut default = None;
        let mut variant_metas = Vec::new();
        for v in variants {
            let arm_name = v.arm_type_name(&t.name);
            let arm_id = ident(&arm_name);
            let vid = ident(&v.name);
            let fields = v.arm_fields(disc);
            let arm_t = TypeDef {
                name: arm_name.clone(),
                c_name: String::new(),
                size: t.size,
                doc: format!("The `{}` arm of [`{}`]. {}", v.name, t.name, v.doc),
                confidence: v.confidence.clone(),
                evidence: v.evidence.clone(),
                file: t.file.clone(),
                line: t.line,
                kind: TypeKind::Struct {
                    fields: fields.clone(),
                    opcode: None,
                    arch: Vec::new(),
                    arch_inferred: false,
                    follows: Vec::new(),
                    top_level: false,
                    aliases: Vec::new(),
                    joins: Vec::new(),
                    alternatives: Vec::new(),
                },
            };
            arm_types.push(self.struct_def(&arm_name, &arm_t, &fields, None, Some(&disc.name)));
            let vdoc = doc_attr(&v.doc, &v.confidence);
            let gated = self.gate_attr(&v.confidence, &v.evidence);
            arms.push(quote!(#vdoc #gated #vid(#arm_id),));
            let build = quote!(#arm_enum::#vid(#arm_id::read(b)));
            match (v.mask, v.value) {
                (Some(m), Some(val)) => selects.push(quote!(if raw & #m == #val { #build } else)),
                _ => default = Some(build),
            }
            variant_metas.push(self.meta_tokens(MetaArgs {
                name: &v.name,
                offset: 0,
                size: t.size,
                bits: None,
                type_name: &v.name,
                role: Role::Data,
                doc: &v.doc,
                confidence: Some(&v.confidence),
                evidence: &v.evidence,
                alternatives: &[],
                constant: None,
                codec: None,
            }));
        }
        let default = default.unwrap_or_else(|| quote!(unreachable!()));
        // A union with only its default arm reads no discriminator.
        let pick = if selects.is_empty() {
            default
        } else {
            quote! {
                let d = #disc_read;
                let raw = #disc_raw;
                #(#selects)* { #default }
            }
        };
        let vids: Vec<_> = variants.iter().map(|v| ident(&v.name)).collect();
        let arm_ids: Vec<_> = variants
            .iter()
            .map(|v| ident(&v.arm_type_name(&t.name)))
            .collect();
        let idx: Vec<_> = (0..variants.len()).map(n).collect();
        let disc_id = ident(&disc.name);
        let disc_meta = self.field_meta(disc);
        let disc_visit = self.visit_stmts(
            &disc.ty,
            quote!(a.#disc_id),
            quote!(&Self::DISCRIMINATOR),
            disc.offset,
        );
        let arm_doc = format!(
            " The arms of [`{}`], as [`{}::arm`] reads them.",
            t.name, t.name
        );
        // The union keeps its bytes and reads an arm when asked: decoding it is a copy, and
        // a word that holds one stays as small as the wire (issue 25's profile: building
        // every arm and picking one cost more than the rest of DMA_DIRECT2D's decode).
        // `Default` for arrays stops at 32 elements.
        let (derive_default, impl_default) = match t.size <= 32 {
            true => (quote!(Default,), None),
            false => (
                quote!(),
                Some(quote!(impl Default for #id { fn default() -> Self { Self([0; #size]) } })),
            ),
        };
        quote! {
            #(#arm_types)*
            #doc
            #[derive(Clone, Copy, #derive_default PartialEq, Eq, Hash)]
            #[repr(transparent)]
            pub struct #id(pub [u8; #size]);
            #[doc = #arm_doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum #arm_enum { #(#arms)* }
            #impl_default
            impl #id {
                pub const SIZE: usize = #size;
                pub const DISCRIMINATOR: meta::FieldMeta = #disc_meta;
                pub const VARIANTS: &'static [meta::FieldMeta] = &[#(#variant_metas),*];
                #[inline(always)]
                pub const fn read(b: &[u8; #size]) -> Self { Self(*b) }
                #[inline(always)]
                pub fn write(&self, b: &mut [u8; #size]) { *b = self.0; }
                /// The arm the discriminator selects, with its fields.
                #[inline]
                pub const fn arm(&self) -> #arm_enum {
                    let b = &self.0;
                    #pick
                }
                /// The arm's name.
                pub const fn variant(&self) -> &'static str {
                    match self.arm() { #(#arm_enum::#vids(_) => Self::VARIANTS[#idx].name,)* }
                }
                pub fn visit(&self, meta: &'static meta::FieldMeta, v: &mut impl visit::Visitor, base: usize, arch: Arch) {
                    v.enter(meta, base, visit::Group::Union);
                    match self.arm() {
                        #(#arm_enum::#vids(a) => {
                            #disc_visit
                            v.enter(&Self::VARIANTS[#idx], base, visit::Group::Struct);
                            a.visit_fields(v, base, arch);
                            v.leave(visit::Group::Struct);
                        })*
                    }
                    v.leave(visit::Group::Union);
                }
            }
            impl From<#arm_enum> for #id {
                fn from(arm: #arm_enum) -> Self {
                    let mut b = [0; #size];
                    match arm { #(#arm_enum::#vids(a) => a.write(&mut b),)* }
                    Self(b)
                }
            }
            #(impl From<#arm_ids> for #id {
                fn from(a: #arm_ids) -> Self { Self::from(#arm_enum::#vids(a)) }
            })*
            /// The arm, as [`Self::arm`] reads it.
            impl core::fmt::Debug for #id {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    core::fmt::Debug::fmt(&self.arm(), f)
                }
            }
        }
    }
}

/// `self.0` widened to u64: a u64 value (NEFF_PKG_VERSION, NOTIFIC_WR_BUFFER) is its raw
/// value already, with no cast for clippy to flag.
fn raw_u64(repr: Int) -> TokenStream {
    match repr {
        Int::U64 => quote!(self.0),
        _ => quote!(self.0 as u64),
    }
}
