//! `regs`: one module per register file, one sub-module per architecture it exists on
//! (`regs::UDMA_M2S::cayman`), one per bundle in it (`M2S_Q`), and in that one typed value
//! per register with a getter per readable field, a `with_*` builder per writable one and
//! `RESET` when the source gives the reset; plus `REGFILES`, the metadata tools read.
//! Layouts that differ by generation are per-architecture modules, never `if`s.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::data::Lit;
use super::render::Render;
use super::util::{confidence, ident};
use crate::model::registers::{BundleView, RegField, RegFile, RegFileView, RegisterView};
use crate::model::{Int, TypeKind};

pub(super) fn items(cx: &Render, rt: &TokenStream) -> TokenStream {
    let files = cx.model.regfiles.iter().map(|f| regfile(cx, f));
    let meta = cx.lits.embed(Lit::slice(
        cx.model.regfiles.iter().map(|f| regfile_meta(cx, f)),
    ));
    quote! {
        /// The register files: `regs::UDMA_M2S::cayman::M2S_Q::cfg` is the `cfg` register
        /// of bundle `M2S_Q` as Cayman lays it out. Bind a file to a bus with its
        /// architecture module's `Block::new(bus, base)`.
        #[allow(non_snake_case)]
        pub mod regs {
            #[allow(unused_imports)]
            use super::{evidence, meta, confidence};
            pub use #rt::regs::{Bus, MemoryBus, Readable, Reg, Register, Writable};
            #[allow(unused_imports)]
            use #rt::regs as rt;
            #(#files)*
            /// What the spec says about every register file (all generations, each item
            /// with its architectures), for tools.
            pub const REGFILES: &[rt::RegFileMeta] = #meta;
        }
    }
}

fn regfile(cx: &Render, f: &RegFile) -> TokenStream {
    let name = ident(&f.name);
    let doc = doc_lines(&f.doc);
    let layouts = Layouts::of(f);
    let types = (layouts.bundles.iter())
        .filter(|(_, regs)| !regs.is_empty())
        .map(|(bundle, regs)| {
            let m = ident(bundle);
            // The module's tuple structs: no parameter may be named like one.
            let types: Vec<&str> = (regs.iter())
                .flat_map(|(_, variants)| variants.iter().map(|v| v.ty.as_str()))
                .collect();
            let defs = (regs.iter())
                .flat_map(|(_, variants)| variants.iter().map(|v| register(cx, v, &types)));
            let d = doc_lines(&format!(
                "The register value types of bundle `{bundle}`, every generation's (a register \
             whose layout differs by generation has one type per layout, named after the \
             first architecture that has it)."
            ));
            quote!(#d pub mod #m { #[allow(unused_imports)] use super::*; #(#defs)* })
        });
    // An architecture laid out exactly as an earlier one re-exports that one's module.
    let mut bodies: Vec<(&str, String)> = Vec::new();
    let archs: Vec<TokenStream> = (f.views())
        .map(|v| {
            let body = arch_body(&v, &layouts);
            let text = body.to_string();
            let arch = ident(v.arch);
            match bodies.iter().find(|(_, b)| *b == text) {
                Some((same, _)) => {
                    let doc = doc_lines(&format!(
                        "`{}` as {} lays it out: the same as {same}'s, re-exported.",
                        f.name, v.arch
                    ));
                    let same = ident(same);
                    quote!(#doc pub mod #arch { pub use super::#same::*; })
                }
                None => {
                    bodies.push((v.arch, text));
                    let doc = doc_lines(&format!(
                        "`{}` as {} lays it out: its bundles, their register types and \
                         `Block`, the file bound to a bus.",
                        f.name, v.arch,
                    ));
                    quote!(#doc pub mod #arch { #body })
                }
            }
        })
        .collect();
    quote! {
        #doc
        pub mod #name {
            #[allow(unused_imports)]
            use super::*;
            #(#types)*
            #(#archs)*
        }
    }
}

/// One register type: a register declaration with the fields one or more architectures
/// give it.
struct Variant<'m> {
    view: RegisterView<'m>,
    archs: Vec<&'m str>,
    /// The type's name: the register's, or with its first architecture's when the
    /// register has several layouts.
    ty: String,
}

/// The distinct register layouts of a file, by bundle name and register name, in spec
/// order.
struct Layouts<'m> {
    bundles: Vec<(&'m str, RegisterLayouts<'m>)>,
}

/// A bundle's registers by name, each with its layouts.
type RegisterLayouts<'m> = Vec<(&'m str, Vec<Variant<'m>>)>;

impl<'m> Layouts<'m> {
    fn of(f: &'m RegFile) -> Self {
        let mut bundles: Vec<(&str, RegisterLayouts)> = Vec::new();
        for v in f.views() {
            for b in v.bundles {
                let bi = match bundles.iter().position(|(n, _)| *n == b.bundle.name) {
                    Some(i) => i,
                    None => {
                        bundles.push((&b.bundle.name, Vec::new()));
                        bundles.len() - 1
                    }
                };
                for r in b.registers {
                    let regs = &mut bundles[bi].1;
                    let ri = match regs.iter().position(|(n, _)| *n == r.register.name) {
                        Some(i) => i,
                        None => {
                            regs.push((&r.register.name, Vec::new()));
                            regs.len() - 1
                        }
                    };
                    let variants = &mut regs[ri].1;
                    let same = |x: &Variant| {
                        std::ptr::eq(x.view.register, r.register)
                            && x.view.fields.len() == r.fields.len()
                            && (x.view.fields.iter().zip(&r.fields))
                                .all(|(a, b)| std::ptr::eq(*a, *b))
                    };
                    match variants.iter_mut().find(|x| same(x)) {
                        Some(x) => x.archs.push(v.arch),
                        None => variants.push(Variant {
                            view: r,
                            archs: vec![v.arch],
                            ty: String::new(),
                        }),
                    }
                }
            }
        }
        for (_, regs) in &mut bundles {
            for (name, variants) in regs {
                let several = variants.len() > 1;
                for x in variants.iter_mut() {
                    x.ty = if several {
                        format!("{name}_{}", x.archs[0])
                    } else {
                        name.to_string()
                    };
                }
            }
        }
        Layouts { bundles }
    }

    /// The type of register `reg` of bundle `bundle` on `arch`.
    fn ty(&self, bundle: &str, reg: &str, arch: &str) -> String {
        let regs = self
            .bundles
            .iter()
            .find(|(n, _)| *n == bundle)
            .map(|(_, r)| r);
        let variants = regs
            .and_then(|r| r.iter().find(|(n, _)| *n == reg))
            .map(|(_, v)| v);
        (variants.into_iter().flatten())
            .find(|x| x.archs.contains(&arch))
            .map_or(reg.to_string(), |x| x.ty.clone())
    }
}

/// What an architecture's module holds: the window's size, the bundles and the file's
/// `Block`.
fn arch_body(v: &RegFileView, layouts: &Layouts) -> TokenStream {
    let file = v.file;
    let size = hex(file.size_on(v.arch));
    let bundles = v.bundles.iter().map(|b| bundle(b, v.arch, layouts));
    let accessors = v.bundles.iter().map(|b| {
        let m = ident(&b.bundle.name);
        let d = doc_lines(&format!(
            "Bundle `{}` at {:#x}.",
            b.bundle.name, b.bundle.offset
        ));
        if b.bundle.count > 1 {
            let count = b.bundle.count as usize;
            quote! {
                #d
                /// `None` when `index` is not below the array's length.
                pub fn #m(&mut self, index: usize) -> Option<#m::Block<'_, B>> {
                    (index < #count).then(|| #m::Block::at(&mut self.bus, self.base, index))
                }
            }
        } else {
            quote! {
                #d
                pub fn #m(&mut self) -> #m::Block<'_, B> {
                    #m::Block::at(&mut self.bus, self.base, 0)
                }
            }
        }
    });
    quote! {
        #[allow(unused_imports)]
        use super::*;
        /// The window in bytes.
        pub const SIZE: u64 = #size;
        #(#bundles)*
        /// The register file on a bus, its window starting at `base`.
        pub struct Block<B: Bus> {
            pub bus: B,
            pub base: u64,
        }
        impl<B: Bus> Block<B> {
            pub fn new(bus: B, base: u64) -> Self {
                Block { bus, base }
            }
            #(#accessors)*
        }
    }
}

fn bundle(b: &BundleView, arch: &str, layouts: &Layouts) -> TokenStream {
    let bd = b.bundle;
    let m = ident(&bd.name);
    let (offset, count, stride) = (hex(bd.offset), bd.count, hex(bd.stride));
    let doc = doc_lines(&bd.doc);
    let uses = b.registers.iter().map(|r| {
        let name = ident(&r.register.name);
        let ty = layouts.ty(&bd.name, &r.register.name, arch);
        if ty == r.register.name {
            quote!(#name)
        } else {
            let ty = ident(&ty);
            quote!(#ty as #name)
        }
    });
    let accessors = b.registers.iter().map(|r| {
        let t = ident(&r.register.name);
        let d = doc_lines(&format!(
            "`{}` at {:#x} ({}).",
            r.register.name,
            r.register.offset,
            r.register.access.as_str()
        ));
        quote! {
            #d
            pub fn #t(&mut self) -> Reg<'_, B, #t> {
                Reg::at(&mut *self.bus, self.base)
            }
        }
    });
    let uses = (!b.registers.is_empty()).then(|| quote!(pub use super::super::#m::{#(#uses),*};));
    let accessors = (!b.registers.is_empty()).then(|| {
        quote! {
            impl<'b, B: Bus> Block<'b, B> {
                #(#accessors)*
            }
        }
    });
    quote! {
        #doc
        pub mod #m {
            #[allow(unused_imports)]
            use super::*;
            #uses
            rt::bundle!(#offset, #count, #stride);
            #accessors
        }
    }
}

/// The first of `name`, `name_`, `name__` … that is none of `taken`.
fn free(name: &str, taken: &[&str]) -> syn::Ident {
    let mut n = name.to_string();
    while taken.contains(&n.as_str()) {
        n.push('_');
    }
    ident(&n)
}

/// A register value type; `taken`: the tuple structs of its module, which no parameter
/// may be named like.
fn register(cx: &Render, v: &Variant, taken: &[&str]) -> TokenStream {
    let r = &v.view;
    let reg = r.register;
    let t = ident(&v.ty);
    let offset = hex(reg.offset);
    let mut doc = format!(
        "`{}` at +{:#x}, {} ({}). {}",
        reg.name,
        reg.offset,
        reg.access.as_str(),
        v.archs.join(", "),
        reg.doc
    );
    let unknown = r.unknown_mask();
    if unknown != 0 {
        doc.push_str(&format!(
            "\n\nBits no source names: mask {unknown:#010x} (kept in the raw value)."
        ));
    }
    let doc = doc_lines(&doc);
    let reset = reg.reset.map(|v| {
        let v = hex(v);
        quote! {
            /// The value after reset, as the source gives it.
            pub const RESET: Self = Self(#v);
        }
    });
    let getters = (r.fields.iter())
        .filter(|f| f.access.readable() && reg.access.readable())
        .map(|f| getter(cx, f));
    let value = free("value", taken);
    let setters = (r.fields.iter())
        .filter(|f| f.access.writable() && reg.access.writable())
        .map(|f| setter(cx, f, &value));
    let markers = [
        reg.access.readable().then(|| quote!(Readable)),
        reg.access.writable().then(|| quote!(Writable)),
    ]
    .into_iter()
    .flatten();
    let bits = free("bits", taken);
    let register = if bits == "bits" {
        quote!(rt::register!(#t, #offset #(, #markers)*);)
    } else {
        quote!(rt::register!(#t, #offset, bits = #bits #(, #markers)*);)
    };
    let fields = (reset.is_some() || !r.fields.is_empty()).then(|| {
        quote! {
            #[allow(non_snake_case)]
            impl #t {
                #reset
                #(#getters)*
                #(#setters)*
            }
        }
    });
    quote! {
        #doc
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
        pub struct #t(u32);
        #fields
        #register
    }
}

/// The field's Rust type and how it is made from / turned into the masked bits.
/// `value`: the setter's parameter.
fn field_type(
    cx: &Render,
    f: &RegField,
    value: &syn::Ident,
) -> (TokenStream, TokenStream, TokenStream) {
    let m = hex(u64::from(mask(f)));
    // A field that reaches bit 31 needs no mask once shifted down.
    let raw = match (f.lsb, reaches_top(f)) {
        (0, true) => quote!(self.0),
        (0, false) => quote!(self.0 & #m),
        (lsb, top) => {
            let lsb = proc_macro2::Literal::u32_unsuffixed(lsb);
            if top {
                quote!(self.0 >> #lsb)
            } else {
                quote!((self.0 >> #lsb) & #m)
            }
        }
    };
    // `raw` is a u32: cast only to a narrower type.
    let to = |r: Int| match r {
        Int::U32 | Int::I32 | Int::U24 => raw.clone(),
        r => {
            let r = int(r);
            quote!((#raw) as #r)
        }
    };
    if let Some(e) = &f.enum_type
        && let Some(t) = cx.model.types.iter().find(|t| &t.name == e)
        && let TypeKind::Enum { repr, .. } = &t.kind
    {
        let et = ident(e);
        let from = to(*repr);
        return (
            quote!(super::super::super::#et),
            quote!(super::super::super::#et::from_raw(#from)),
            quote!((#value.raw() as u32)),
        );
    }
    if f.width == 1 {
        return (quote!(bool), quote!((#raw) != 0), quote!((#value as u32)));
    }
    let r = match f.width {
        0..=8 => Int::U8,
        9..=16 => Int::U16,
        _ => Int::U32,
    };
    let into = match r {
        Int::U32 => quote!(#value),
        _ => quote!((#value as u32)),
    };
    (int(r), to(r), into)
}

/// Whether the field's top bit is the register's bit 31.
fn reaches_top(f: &RegField) -> bool {
    f.lsb + f.width == u32::BITS
}

/// `0x1000`: offsets, masks and resets as CSR tables write them.
fn hex(v: u64) -> TokenStream {
    format!("{v:#x}").parse().expect("a hex literal")
}

fn mask(f: &RegField) -> u32 {
    (f.mask() >> f.lsb) as u32
}

fn int(i: Int) -> TokenStream {
    match i {
        Int::U8 | Int::I8 => quote!(u8),
        Int::U16 | Int::I16 => quote!(u16),
        Int::U24 | Int::U32 | Int::I32 => quote!(u32),
        Int::U64 | Int::I64 => quote!(u64),
    }
}

fn getter(cx: &Render, f: &RegField) -> TokenStream {
    let name = ident(&f.name);
    let (ty, from, _) = field_type(cx, f, &format_ident!("value"));
    let doc = field_doc(f);
    quote! {
        #doc
        pub const fn #name(self) -> #ty {
            #from
        }
    }
}

fn setter(cx: &Render, f: &RegField, value: &syn::Ident) -> TokenStream {
    let name = format_ident!("with_{}", f.name);
    let (ty, _, into) = field_type(cx, f, value);
    let m = hex(u64::from(mask(f)));
    // A left shift drops what does not fit below bit 32, so a field reaching bit 31 needs
    // no mask; one that is the whole register replaces it.
    let bits = match (f.lsb, reaches_top(f)) {
        (0, true) => quote!(#into),
        (0, false) => quote!((self.0 & !#m) | (#into & #m)),
        (lsb, top) => {
            let lsb = proc_macro2::Literal::u32_unsuffixed(lsb);
            let put = if top {
                quote!((#into << #lsb))
            } else {
                quote!(((#into & #m) << #lsb))
            };
            quote!((self.0 & !(#m << #lsb)) | #put)
        }
    };
    let doc = doc_lines(&format!(
        "This value with `{}` (bits {}) set to `value`; bits of `value` above the field's {} are dropped.",
        f.name,
        f.bits(),
        f.width
    ));
    quote! {
        #doc
        pub const fn #name(self, #value: #ty) -> Self {
            Self(#bits)
        }
    }
}

fn field_doc(f: &RegField) -> TokenStream {
    let reset = f.reset.map_or(String::new(), |r| format!(", reset {r:#x}"));
    doc_lines(&format!(
        "`{}` bits {} ({}{reset}). {}",
        f.name,
        f.bits(),
        f.access.as_str(),
        f.doc
    ))
}

fn doc_lines(text: &str) -> TokenStream {
    let text = crate::emit::escape_doc(text.trim());
    let lines = text.lines().map(|l| format!(" {l}"));
    quote!(#(#[doc = #lines])*)
}

fn archs(list: &[String]) -> Lit {
    Lit::slice(list.iter().map(|a| Lit::str(a)))
}

fn regfile_meta(cx: &Render, f: &RegFile) -> Lit {
    let bundles = f.bundles.iter().map(|b| {
        let registers = b.registers.iter().map(|r| {
            let fields = r.fields.iter().map(|x| {
                let enumerators = x.enum_type.as_ref().and_then(|e| {
                    let t = cx.model.types.iter().find(|t| &t.name == e)?;
                    let TypeKind::Enum { values, .. } = &t.kind else {
                        return None;
                    };
                    let list = Lit::slice(values.iter().map(|v| {
                        Lit::code(format!("({}, {})", Lit::str(&v.name).text(), v.value))
                    }));
                    Some(Lit::code(format!(
                        "({}, {})",
                        Lit::str(e).text(),
                        list.text()
                    )))
                });
                Lit::record(
                    "rt::RegFieldMeta",
                    [
                        ("name", Lit::str(&x.name)),
                        ("doc", Lit::str(&x.doc)),
                        ("lsb", Lit::num(x.lsb)),
                        ("width", Lit::num(x.width)),
                        ("access", Lit::str(x.access.as_str())),
                        (
                            "reset",
                            Lit::opt(x.reset.map(|v| Lit::code(format!("{v:#x}")))),
                        ),
                        ("enumerators", Lit::opt(enumerators)),
                        ("archs", archs(&x.archs)),
                        ("confidence", confidence(&x.confidence)),
                        ("evidence", cx.evidence(&x.evidence)),
                        (
                            "alternatives",
                            if x.alternatives.is_empty() {
                                Lit::code("&[]")
                            } else {
                                cx.alternatives(&x.alternatives, "")
                            },
                        ),
                    ],
                )
            });
            Lit::record(
                "rt::RegisterMeta",
                [
                    ("name", Lit::str(&r.name)),
                    ("doc", Lit::str(&r.doc)),
                    ("offset", Lit::code(format!("{:#x}", r.offset))),
                    ("width", Lit::num(r.width)),
                    ("access", Lit::str(r.access.as_str())),
                    (
                        "special_access",
                        Lit::opt_str(r.special_access.map(|e| e.as_str())),
                    ),
                    (
                        "reset",
                        Lit::opt(r.reset.map(|v| Lit::code(format!("{v:#x}")))),
                    ),
                    ("archs", archs(&r.archs)),
                    ("confidence", confidence(&r.confidence)),
                    ("evidence", cx.evidence(&r.evidence)),
                    ("fields", Lit::slice(fields)),
                ],
            )
        });
        Lit::record(
            "rt::BundleMeta",
            [
                ("name", Lit::str(&b.name)),
                ("doc", Lit::str(&b.doc)),
                ("offset", Lit::code(format!("{:#x}", b.offset))),
                ("size", Lit::code(format!("{:#x}", b.size))),
                ("count", Lit::num(b.count)),
                ("stride", Lit::code(format!("{:#x}", b.stride))),
                ("archs", archs(&b.archs)),
                ("registers", Lit::slice(registers)),
            ],
        )
    });
    Lit::record(
        "rt::RegFileMeta",
        [
            ("name", Lit::str(&f.name)),
            ("doc", Lit::str(&f.doc)),
            ("size", Lit::code(format!("{:#x}", f.size))),
            (
                "arch_sizes",
                Lit::slice(
                    (f.arch_sizes.iter())
                        .map(|(a, s)| Lit::code(format!("({}, {s:#x})", Lit::str(a).text()))),
                ),
            ),
            ("bus_width", Lit::num(f.bus_width)),
            ("archs", archs(&f.archs)),
            ("confidence", confidence(&f.confidence)),
            ("evidence", cx.evidence(&f.evidence)),
            ("bundles", Lit::slice(bundles)),
        ],
    )
}
