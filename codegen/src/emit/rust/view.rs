//! Zero-copy views, emitted into a `view` module next to the owned types.
//!
//! Per struct, bitfield and union (and per union arm) two types in the style of svd2rust's
//! readers and writers:
//!
//! - `view::X<'a>` borrows `&'a [u8; SIZE]` and has one accessor per field that decodes
//!   the field when called (integers and enums by value, `u8` arrays as `&'a [u8; N]`,
//!   nested structs, bitfields and unions as nested views);
//! - `view::X_mut<'a>` borrows `&'a mut [u8; SIZE]` and adds `set_<field>` (and
//!   `<field>_mut` for nested views) that write only the field's bytes.
//!
//! Both have `read()`/`write()` that go through the accessors, so tests comparing them with
//! the owned decoder check every accessor. Words also get `view::Word`/`view::Word_mut`,
//! which dispatch on the opcode once. Everything is `no_std` and free of `unsafe`.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};

use super::render::{Render, in_archs, unguarded};
use super::util::{hex, ident, int_ty, n, shifted_down, shifted_up, uint_for};
use crate::model::*;
use crate::naming;

fn accessor(name: &str) -> syn::Ident {
    ident(&naming::rust::view_accessor(name))
}

fn setter(name: &str) -> syn::Ident {
    format_ident!("set_{}", naming::rust::view_accessor(name))
}

fn mut_accessor(name: &str) -> syn::Ident {
    format_ident!("{}_mut", naming::rust::view_accessor(name))
}

fn mut_ident(name: &str) -> syn::Ident {
    format_ident!("{}_mut", name)
}

/// How a member type is exposed by a view.
enum Shape {
    /// Decoded by value: integers, enums, flags, arrays other than `u8[N]`.
    Value(TokenStream),
    /// `u8[N]`: borrowed as `&[u8; N]`.
    Bytes(usize),
    /// A bitfield, struct or union: a nested view of this name.
    Nested(String),
}

impl Render<'_> {
    /// The `view` module.
    pub(super) fn views(&self) -> TokenStream {
        let mut items = Vec::new();
        for t in &self.model.types {
            match &t.kind {
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => {}
                TypeKind::Bitfield { repr, fields } => {
                    items.push(self.view_bitfield(t, *repr, fields))
                }
                TypeKind::Struct { fields, opcode, .. } => {
                    items.push(self.view_struct(&t.name, t.size, fields, opcode.is_some()))
                }
                TypeKind::Union {
                    discriminator,
                    variants,
                } => items.push(self.view_union(t, discriminator, variants)),
            }
        }
        items.push(self.view_words());
        quote! {
            /// Zero-copy views: one accessor per field, decoded on access. `X<'a>` reads
            /// `&'a [u8; X::SIZE]`; `X_mut<'a>` also writes `&'a mut [u8; X::SIZE]`.
            #[allow(clippy::all, non_camel_case_types)]
            pub mod view {
                #[allow(unused_imports)]
                use super::*;
                #(#items)*
            }
        }
    }

    fn view_shape(&self, t: &TypeRef) -> Shape {
        match t {
            TypeRef::Int { int } => Shape::Value(int_ty(*int)),
            TypeRef::Array { elem, len } => {
                if **elem == (TypeRef::Int { int: Int::U8 }) {
                    Shape::Bytes(*len)
                } else {
                    Shape::Value(self.view_owned_ty(t))
                }
            }
            TypeRef::Ascii { .. } => Shape::Value(self.view_owned_ty(t)),
            TypeRef::Named { name, index } => match &self.model.ty(*index).kind {
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => {
                    Shape::Value(self.view_owned_ty(t))
                }
                _ => Shape::Nested(name.clone()),
            },
        }
    }

    /// The owned Rust type of a member, spelled from inside `view`.
    fn view_owned_ty(&self, t: &TypeRef) -> TokenStream {
        self.rust_ty_from(t, &quote!(super::))
    }

    /// Reads a by-value member at `off` of `b: &[u8; m]`.
    fn view_value_read(&self, t: &TypeRef, off: usize, m: usize) -> TokenStream {
        let size = n(self.model.size_of(t));
        let (off_l, m_l) = (n(off), n(m));
        match t {
            TypeRef::Int { int } => {
                let ty = int_ty(*int);
                quote!(#ty::from_le_bytes(*at::<#off_l, #size, #m_l>(b)))
            }
            // An enum through its `match`, not `read`'s table, so `v.x().raw()` folds to
            // the byte.
            TypeRef::Named { name, index } => {
                let id = ident(name);
                match &self.model.ty(*index).kind {
                    TypeKind::Enum { repr, .. } => {
                        let ty = int_ty(*repr);
                        quote!(super::#id::from_raw(#ty::from_le_bytes(*at::<#off_l, #size, #m_l>(b))))
                    }
                    _ => quote!(super::#id::read(at::<#off_l, #size, #m_l>(b))),
                }
            }
            TypeRef::Array { elem, len } => {
                if **elem == (TypeRef::Int { int: Int::U8 }) {
                    return quote!(*at::<#off_l, #size, #m_l>(b));
                }
                let es = self.model.size_of(elem);
                let items = (0..*len).map(|i| self.view_value_read(elem, off + i * es, m));
                quote!([#(#items),*])
            }
            TypeRef::Ascii { .. } => quote!(text::AsciiZ(*at::<#off_l, #size, #m_l>(b))),
        }
    }

    /// Statements writing `v` (a by-value member) at `off` of `b: &mut [u8; m]`.
    fn view_value_write(&self, t: &TypeRef, v: TokenStream, off: usize, m: usize) -> TokenStream {
        let size = n(self.model.size_of(t));
        let (off_l, m_l) = (n(off), n(m));
        match t {
            TypeRef::Int { .. } => quote!(*at_mut::<#off_l, #size, #m_l>(b) = #v.to_le_bytes();),
            TypeRef::Named { .. } => quote!(#v.write(at_mut::<#off_l, #size, #m_l>(b));),
            TypeRef::Array { elem, len } => {
                if **elem == (TypeRef::Int { int: Int::U8 }) {
                    return quote!(*at_mut::<#off_l, #size, #m_l>(b) = #v;);
                }
                let es = self.model.size_of(elem);
                let stmts = (0..*len).map(|i| {
                    let i_l = n(i);
                    self.view_value_write(elem, quote!(#v[#i_l]), off + i * es, m)
                });
                quote!(#(#stmts)*)
            }
            TypeRef::Ascii { .. } => quote!(*at_mut::<#off_l, #size, #m_l>(b) = #v.0;),
        }
    }

    /// Getter, setter and `read`/`write` pieces for one struct member of `owner` (`None`
    /// for a union's discriminator).
    fn view_member(&self, owner: Option<&str>, f: &Field, size: usize) -> Member {
        let get = accessor(&f.name);
        let set = setter(&f.name);
        let get_mut = mut_accessor(&f.name);
        let fid = ident(&f.name);
        let doc = match owner {
            // A union's discriminator is no field of the owned enum: link its metadata.
            Some(owner) => member_doc(owner, &f.name, &format!("offset {}", f.offset)),
            None => {
                let doc = format!(" The discriminator, offset {}.", f.offset);
                quote!(#[doc = #doc])
            }
        };
        let (off, fsize, m) = (n(f.offset), n(f.size), n(size));
        match self.view_shape(&f.ty) {
            Shape::Value(ty) => {
                let read = self.view_value_read(&f.ty, f.offset, size);
                let write = self.view_value_write(&f.ty, quote!(v), f.offset, size);
                Member {
                    getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> #ty { let b = self.0; #read }
                    },
                    mut_getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> #ty { self.as_view().#get() }
                    },
                    setter: quote! {
                        #doc #[inline]
                        pub fn #set(&mut self, v: #ty) -> &mut Self { let b = &mut *self.0; #write self }
                    },
                    to_owned: quote!(#fid: self.#get(),),
                    from_owned: quote!(self.#set(v.#fid);),
                }
            }
            Shape::Bytes(len) => {
                let len = n(len);
                Member {
                    getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> &'a [u8; #len] { at::<#off, #fsize, #m>(self.0) }
                    },
                    mut_getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> &[u8; #len] { self.as_view().#get() }
                    },
                    setter: quote! {
                        #doc #[inline]
                        pub fn #set(&mut self, v: [u8; #len]) -> &mut Self {
                            *at_mut::<#off, #fsize, #m>(self.0) = v; self
                        }
                        /// The bytes, writable in place.
                        #[inline]
                        pub fn #get_mut(&mut self) -> &mut [u8; #len] { at_mut::<#off, #fsize, #m>(self.0) }
                    },
                    to_owned: quote!(#fid: *self.#get(),),
                    from_owned: quote!(self.#set(v.#fid);),
                }
            }
            Shape::Nested(name) => {
                let vid = ident(&name);
                let vmut = mut_ident(&name);
                Member {
                    getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> #vid<'a> { #vid::new(at::<#off, #fsize, #m>(self.0)) }
                    },
                    mut_getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> #vid<'_> { self.as_view().#get() }
                    },
                    setter: quote! {
                        #doc #[inline]
                        pub fn #set(&mut self, v: super::#vid) -> &mut Self {
                            v.write(at_mut::<#off, #fsize, #m>(self.0)); self
                        }
                        #doc #[inline]
                        pub fn #get_mut(&mut self) -> #vmut<'_> { #vmut::new(at_mut::<#off, #fsize, #m>(self.0)) }
                    },
                    to_owned: quote!(#fid: self.#get().read(),),
                    from_owned: quote!(self.#get_mut().write(&v.#fid);),
                }
            }
        }
    }

    /// The reader and writer pair around `members`; `extra`/`extra_mut` add methods.
    #[allow(clippy::too_many_arguments)]
    fn view_pair(
        &self,
        name: &str,
        size: usize,
        doc: TokenStream,
        read_body: TokenStream,
        write_body: TokenStream,
        members: &[Member],
        extra: TokenStream,
        extra_mut: TokenStream,
    ) -> TokenStream {
        let id = ident(name);
        let id_mut = mut_ident(name);
        let owned = quote!(super::#id);
        let size = n(size);
        let getters = members.iter().map(|m| &m.getter);
        let mut_getters = members.iter().map(|m| &m.mut_getter);
        let setters = members.iter().map(|m| &m.setter);
        let link = format!(" Writable view of [`{name}`](super::{name}); see [`{name}`].");
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub struct #id<'a>(&'a [u8; #size]);
            impl<'a> #id<'a> {
                /// Views `b`; nothing is checked or copied.
                #[inline]
                pub const fn new(b: &'a [u8; #size]) -> Self { Self(b) }
                /// The bytes under the view.
                #[inline]
                pub const fn bytes(&self) -> &'a [u8; #size] { self.0 }
                /// Every field through its accessor: the owned value.
                #[inline]
                pub fn read(&self) -> #owned { #read_body }
                #(#getters)*
                #extra
            }
            #[doc = #link]
            #[derive(Debug, PartialEq, Eq, Hash)]
            pub struct #id_mut<'a>(&'a mut [u8; #size]);
            impl<'a> #id_mut<'a> {
                /// Views `b` for writing; nothing is checked or copied.
                #[inline]
                pub fn new(b: &'a mut [u8; #size]) -> Self { Self(b) }
                /// The bytes under the view.
                #[inline]
                pub fn bytes(&self) -> &[u8; #size] { &*self.0 }
                /// A read-only view of the same bytes.
                #[inline]
                pub fn as_view(&self) -> #id<'_> { #id::new(&*self.0) }
                /// Every field through its accessor: the owned value.
                #[inline]
                pub fn read(&self) -> #owned { self.as_view().read() }
                /// Writes every field of `v` through its setter.
                #[inline]
                pub fn write(&mut self, v: &#owned) -> &mut Self { #write_body self }
                #(#mut_getters)*
                #(#setters)*
                #extra_mut
            }
        }
    }

    /// `check`/`validate` on the bytes under a view, for types with validity rules: the
    /// validators read bytes, so a view validates without decoding anything else.
    fn view_rules(&self, name: &str) -> TokenStream {
        if self.model.rule_set_of(name).is_none() {
            return quote!();
        }
        let id = ident(name);
        quote! {
            /// The violated rules of the bytes under the view for `arch` (empty when valid).
            #[inline]
            pub fn check(&self, arch: Arch) -> rules::Violations { super::#id::check_rules(self.bytes(), arch) }
            /// Checks every rule for `arch`; the error lists every violated rule.
            #[inline]
            pub fn validate(&self, arch: Arch) -> Result<(), rules::Violations> { self.check(arch).into_result() }
        }
    }

    fn view_struct(&self, name: &str, size: usize, fields: &[Field], is_word: bool) -> TokenStream {
        let id = ident(name);
        let members: Vec<Member> = fields
            .iter()
            .map(|f| self.view_member(Some(name), f, size))
            .collect();
        let to_owned = members.iter().map(|m| &m.to_owned);
        let from_owned = members.iter().map(|m| &m.from_owned);
        let doc = owned_link("Read-only view of", name);
        let (extra, extra_mut, owned_impl) = if is_word {
            let id_mut = mut_ident(name);
            (
                quote! {
                    /// Views a word; fails only if byte 0 is not this word's opcode.
                    #[inline]
                    pub fn decode(b: &'a [u8; 64]) -> Result<Self, DecodeError> {
                        if b[0] != super::#id::OPCODE {
                            return Err(DecodeError::WrongOpcode { expected: super::#id::OPCODE, found: b[0], name: super::#id::NAME });
                        }
                        Ok(Self(b))
                    }
                },
                quote! {
                    /// Views a word for writing; fails only if byte 0 is not this word's opcode.
                    #[inline]
                    pub fn decode(b: &'a mut [u8; 64]) -> Result<Self, DecodeError> {
                        if b[0] != super::#id::OPCODE {
                            return Err(DecodeError::WrongOpcode { expected: super::#id::OPCODE, found: b[0], name: super::#id::NAME });
                        }
                        Ok(Self(b))
                    }
                },
                quote! {
                    impl super::#id {
                        /// A zero-copy view of a word; fails only if byte 0 is not this word's opcode.
                        #[inline]
                        pub fn view(b: &[u8; 64]) -> Result<#id<'_>, DecodeError> { #id::decode(b) }
                        /// A zero-copy writable view of a word; fails only on a wrong opcode.
                        #[inline]
                        pub fn view_mut(b: &mut [u8; 64]) -> Result<#id_mut<'_>, DecodeError> { #id_mut::decode(b) }
                    }
                },
            )
        } else {
            (quote!(), quote!(), quote!())
        };
        let checks = self.view_rules(name);
        let (extra, extra_mut) = (quote!(#extra #checks), quote!(#extra_mut #checks));
        let pair = self.view_pair(
            name,
            size,
            doc,
            quote!(super::#id { #(#to_owned)* }),
            quote!(#(#from_owned)*),
            &members,
            extra,
            extra_mut,
        );
        quote!(#pair #owned_impl)
    }

    fn view_bitfield(&self, t: &TypeDef, repr: Int, fields: &[BitField]) -> TokenStream {
        let id = ident(&t.name);
        let ty = int_ty(repr);
        let members: Vec<Member> = fields
            .iter()
            .map(|b| {
                let get = accessor(&b.name);
                let set = setter(&b.name);
                let fid = ident(&b.name);
                let bits = format!("bits {}..={}", b.lsb, b.lsb + b.width - 1);
                let doc = member_doc(&t.name, &b.name, &bits);
                let mask = hex(b.mask());
                let raw = shifted_down(quote!(self.bits()), b.lsb, &mask);
                let clear = match b.lsb {
                    0 => mask.to_token_stream(),
                    lsb => {
                        let lsb = proc_macro2::Literal::u32_unsuffixed(lsb);
                        quote!((#mask << #lsb))
                    }
                };
                let (vty, from, to) = match &b.ty {
                    BitsType::Uint => {
                        let vty = int_ty(uint_for(b.width));
                        (vty.clone(), quote!(#raw as #vty), quote!(v as #ty))
                    }
                    BitsType::Named { name, index } => {
                        let nt = ident(name);
                        let inner = match &self.model.ty(*index).kind {
                            TypeKind::Enum { repr, .. } | TypeKind::Flags { repr, .. } => {
                                int_ty(*repr)
                            }
                            _ => int_ty(Int::U8),
                        };
                        (
                            quote!(super::#nt),
                            quote!(super::#nt::from_raw(#raw as #inner)),
                            quote!(v.raw() as #ty),
                        )
                    }
                };
                let put = shifted_up(to, b.lsb, &mask);
                Member {
                    getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> #vty { #from }
                    },
                    mut_getter: quote! {
                        #doc #[inline]
                        pub fn #get(&self) -> #vty { self.as_view().#get() }
                    },
                    setter: quote! {
                        #doc #[inline]
                        pub fn #set(&mut self, v: #vty) -> &mut Self {
                            self.set_bits(self.bits() & !#clear | #put)
                        }
                    },
                    to_owned: quote!(#fid: self.#get(),),
                    from_owned: quote!(self.#set(v.#fid);),
                }
            })
            .collect();
        let to_owned = members.iter().map(|m| &m.to_owned);
        let from_owned = members.iter().map(|m| &m.from_owned);
        let doc = owned_link("Read-only view of", &t.name);
        let raw_doc = " The packed container value.";
        let checks = self.view_rules(&t.name);
        let extra = quote! {
            #[doc = #raw_doc]
            #[inline]
            pub fn bits(&self) -> #ty { #ty::from_le_bytes(*self.0) }
            #checks
        };
        let extra_mut = quote! {
            #[doc = #raw_doc]
            #[inline]
            pub fn bits(&self) -> #ty { #ty::from_le_bytes(*self.0) }
            /// Sets the packed container value.
            #[inline]
            pub fn set_bits(&mut self, v: #ty) -> &mut Self { *self.0 = v.to_le_bytes(); self }
            #checks
        };
        self.view_pair(
            &t.name,
            t.size,
            doc,
            quote!(super::#id { #(#to_owned)* }),
            quote!(#(#from_owned)*),
            &members,
            extra,
            extra_mut,
        )
    }

    fn view_union(&self, t: &TypeDef, disc: &Field, variants: &[Variant]) -> TokenStream {
        let id = ident(&t.name);
        let arm_enum = format_ident!("{}_arm", t.name);
        let arm_enum_mut = format_ident!("{}_arm_mut", t.name);
        let mut arm_views = Vec::new();
        let mut arms = Vec::new();
        let mut arms_mut = Vec::new();
        let mut selects = Vec::new();
        let mut selects_mut = Vec::new();
        let mut default = None;
        let mut default_mut = None;
        let mut as_arms = Vec::new();
        let mut as_arms_mut = Vec::new();
        let mut to_owned = Vec::new();
        let mut from_owned = Vec::new();
        let vids: Vec<_> = variants.iter().map(|v| ident(&v.name)).collect();
        for (v, vid) in variants.iter().zip(&vids) {
            let arm_name = format!("{}_{}", t.name, v.name);
            let arm_id = ident(&arm_name);
            let arm_mut = mut_ident(&arm_name);
            let mut fields = v.fields.clone();
            fields.push(disc.clone());
            fields.sort_by_key(|f| f.offset);
            arm_views.push(self.view_struct(&arm_name, t.size, &fields, false));
            let vdoc = owned_link("A view of", &arm_name);
            arms.push(quote!(#vdoc #vid(#arm_id<'a>),));
            arms_mut.push(quote!(#vdoc #vid(#arm_mut<'a>),));
            let as_arm = format_ident!("as_{}", v.name);
            let as_arm_mut = format_ident!("as_{}_mut", v.name);
            let as_doc = format!(
                " The bytes read as the `{}` arm, whatever the discriminator says.",
                v.name
            );
            as_arms.push(quote! {
                #[doc = #as_doc] #[inline]
                pub fn #as_arm(&self) -> #arm_id<'a> { #arm_id::new(self.0) }
            });
            as_arms_mut.push(quote! {
                #[doc = #as_doc] #[inline]
                pub fn #as_arm_mut(&mut self) -> #arm_mut<'_> { #arm_mut::new(self.0) }
            });
            match (v.mask, v.value) {
                (Some(m), Some(val)) => {
                    selects.push(quote!(if raw & #m == #val { return #arm_enum::#vid(#arm_id::new(self.0)); }));
                    selects_mut.push(quote!(if raw & #m == #val { return #arm_enum_mut::#vid(#arm_mut::new(self.0)); }));
                }
                _ => {
                    default = Some(quote!(#arm_enum::#vid(#arm_id::new(self.0))));
                    default_mut = Some(quote!(#arm_enum_mut::#vid(#arm_mut::new(self.0))));
                }
            }
            to_owned.push(quote!(#arm_enum::#vid(a) => super::#id::#vid(a.read()),));
            from_owned.push(quote!(super::#id::#vid(a) => { self.#as_arm_mut().write(a); }));
        }
        let default = default.unwrap_or_else(|| quote!(unreachable!()));
        let default_mut = default_mut.unwrap_or_else(|| quote!(unreachable!()));
        let disc_member = self.view_member(None, disc, t.size);
        let disc_get = accessor(&disc.name);
        // A union with only its default arm reads no discriminator. The accessor is called
        // by path: on `&mut self` a method call would find a trait method of the same name
        // first (a discriminator `ne` is `PartialEq::ne`).
        let disc_raw = match &disc.ty {
            _ if selects.is_empty() => quote!(),
            TypeRef::Named { .. } => quote!(let raw = Self::#disc_get(self).raw() as u64;),
            _ => quote!(let raw = Self::#disc_get(self) as u64;),
        };
        let doc = format!(
            " Read-only view of the union [`{0}`](super::{0}); [`{0}::arm`] picks the arm by \
             the discriminator.",
            t.name
        );
        let doc = quote!(#[doc = #doc]);
        let arm_doc = format!(" The arms of [`{}`], as views.", t.name);
        let arm_mut_doc = format!(" The arms of [`{}_mut`], as writable views.", t.name);
        let extra = quote! {
            /// The arm the discriminator selects.
            #[inline]
            pub fn arm(&self) -> #arm_enum<'a> {
                #disc_raw
                #(#selects)*
                #default
            }
            #(#as_arms)*
        };
        let extra_mut = quote! {
            /// The arm the discriminator selects, writable.
            #[inline]
            pub fn arm_mut(&mut self) -> #arm_enum_mut<'_> {
                #disc_raw
                #(#selects_mut)*
                #default_mut
            }
            #(#as_arms_mut)*
        };
        let pair = self.view_pair(
            &t.name,
            t.size,
            doc,
            quote!(match self.arm() { #(#to_owned)* }),
            quote!(match v { #(#from_owned)* }),
            std::slice::from_ref(&disc_member),
            extra,
            extra_mut,
        );
        quote! {
            #(#arm_views)*
            #pair
            #[doc = #arm_doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum #arm_enum<'a> { #(#arms)* }
            #[doc = #arm_mut_doc]
            #[derive(Debug, PartialEq, Eq, Hash)]
            pub enum #arm_enum_mut<'a> { #(#arms_mut)* }
        }
    }

    fn view_words(&self) -> TokenStream {
        let words: Vec<&TypeDef> = self.model.words().collect();
        let ids: Vec<_> = words.iter().map(|w| ident(&w.name)).collect();
        let ids_mut: Vec<_> = words.iter().map(|w| mut_ident(&w.name)).collect();
        let guards: Vec<_> = words
            .iter()
            .map(|w| {
                let op = w.opcode().map_or(0, |o| o.value);
                let archs = match &w.kind {
                    TypeKind::Struct { arch, .. } => in_archs(arch),
                    _ => in_archs(&[]),
                };
                quote!(#op if #archs)
            })
            .collect();
        let checks: Vec<_> = words
            .iter()
            .map(|w| {
                let id = ident(&w.name);
                let name = &w.name;
                if self.model.rule_set_of(&w.name).is_some() {
                    quote!(Word::#id(w) => super::#id::check_rules(w.bytes(), arch))
                } else {
                    quote!(Word::#id(_) => rules::Violations::from_truth(#name, &[], 0))
                }
            })
            .collect();
        let unused_arch = super::rules::unused_arch(self.model);
        let unguarded = unguarded(self.model);
        quote! {
            /// A word of any kind, viewed in place: the opcode is dispatched on once.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum Word<'a> { #(#ids(#ids<'a>),)* }
            impl<'a> Word<'a> {
                /// Views by opcode; `None` when `arch` has no word with this opcode.
                #[inline]
                pub fn new(b: &'a [u8; 64], arch: Arch) -> Option<Self> {
                    #unguarded
                    match b[0] { #(#guards => Some(Word::#ids(#ids::new(b))),)* _ => None }
                }
                #[inline]
                pub fn meta(&self) -> &'static WordMeta {
                    match self { #(Word::#ids(_) => &super::#ids::META,)* }
                }
                #[inline]
                pub fn bytes(&self) -> &'a [u8; 64] {
                    match self { #(Word::#ids(w) => w.bytes(),)* }
                }
                /// The owned word, every field through its accessor.
                #[inline]
                pub fn read(&self) -> super::Word {
                    match self { #(Word::#ids(w) => super::Word::#ids(w.read()),)* }
                }
                /// The word's violations for `arch`, checked on the bytes in place (empty
                /// when valid, or when its struct has no rules).
                #[inline]
                pub fn check(&self, arch: Arch) -> rules::Violations {
                    #unused_arch
                    match self { #(#checks,)* }
                }
                /// Checks the word's rules for `arch`; the error lists every violated rule.
                #[inline]
                pub fn validate(&self, arch: Arch) -> Result<(), rules::Violations> {
                    self.check(arch).into_result()
                }
            }
            /// A word of any kind, viewed in place for writing.
            #[derive(Debug, PartialEq, Eq, Hash)]
            pub enum Word_mut<'a> { #(#ids(#ids_mut<'a>),)* }
            impl<'a> Word_mut<'a> {
                /// Views by opcode; `None` when `arch` has no word with this opcode.
                #[inline]
                pub fn new(b: &'a mut [u8; 64], arch: Arch) -> Option<Self> {
                    #unguarded
                    match b[0] { #(#guards => Some(Word_mut::#ids(#ids_mut::new(b))),)* _ => None }
                }
                #[inline]
                pub fn meta(&self) -> &'static WordMeta {
                    match self { #(Word_mut::#ids(_) => &super::#ids::META,)* }
                }
                /// A read-only view of the same bytes.
                #[inline]
                pub fn as_view(&self) -> Word<'_> {
                    match self { #(Word_mut::#ids(w) => Word::#ids(w.as_view()),)* }
                }
                /// Writes every field of `w` through the setters; fails (writing nothing)
                /// when `w` is another kind of word.
                pub fn write(&mut self, w: &super::Word) -> Result<(), DecodeError> {
                    match (self, w) {
                        #((Word_mut::#ids(v), super::Word::#ids(w)) => { v.write(w); Ok(()) })*
                        #[allow(unreachable_patterns)]
                        (this, w) => Err(DecodeError::WrongOpcode {
                            expected: this.meta().opcode,
                            found: w.meta().opcode,
                            name: this.meta().name,
                        }),
                    }
                }
            }
        }
    }
}

/// `/// <what> [`name`](super::name).`: the owned type's doc carries the spec's text.
fn owned_link(what: &str, name: &str) -> TokenStream {
    let doc = format!(" {what} [`{name}`](super::{}).", ident(name));
    quote!(#[doc = #doc])
}

/// A view accessor's doc: where the member lies and a link to the owned field, whose doc
/// carries the spec's text and confidence.
fn member_doc(owner: &str, member: &str, place: &str) -> TokenStream {
    let path = format!("{}::{}", ident(owner), ident(member));
    let doc = format!(" [`{owner}::{member}`](super::{path}), {place}.");
    quote!(#[doc = #doc])
}

struct Member {
    getter: TokenStream,
    mut_getter: TokenStream,
    setter: TokenStream,
    /// `field: <owned value>,` for `read`.
    to_owned: TokenStream,
    /// Statement writing `v.field` for `write`.
    from_owned: TokenStream,
}
