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
    if cx.model.regfiles.is_empty() {
        return TokenStream::new();
    }
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
    let name = format_ident!("{}", f.name);
    let doc = doc_lines(&f.doc);
    let size = hex(f.size);
    let archs = f.views().map(|v| arch_module(cx, &v));
    quote! {
        #doc
        pub mod #name {
            #[allow(unused_imports)]
            use super::*;
            /// The window in bytes.
            pub const SIZE: u64 = #size;
            #(#archs)*
        }
    }
}

fn arch_module(cx: &Render, v: &RegFileView) -> TokenStream {
    let arch = ident(v.arch);
    let file = v.file;
    let bundles = v.bundles.iter().map(|b| bundle(cx, b));
    let accessors = v.bundles.iter().map(|b| {
        let m = format_ident!("{}", b.bundle.name);
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
    let doc = doc_lines(&format!(
        "`{}` as {} lays it out ({} bundles).",
        file.name,
        v.arch,
        v.bundles.len()
    ));
    quote! {
        #doc
        pub mod #arch {
            #[allow(unused_imports)]
            use super::*;
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
}

fn bundle(cx: &Render, b: &BundleView) -> TokenStream {
    let bd = b.bundle;
    let m = format_ident!("{}", bd.name);
    let (offset, count, stride) = (hex(bd.offset), bd.count, hex(bd.stride));
    let doc = doc_lines(&bd.doc);
    let regs = b.registers.iter().map(|r| register(cx, r));
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
    quote! {
        #doc
        pub mod #m {
            #[allow(unused_imports)]
            use super::*;
            /// From the register file's base.
            pub const OFFSET: u64 = #offset;
            /// Elements in the array (1: a single bundle).
            pub const COUNT: u64 = #count;
            /// Distance between elements.
            pub const STRIDE: u64 = #stride;
            #(#regs)*
            /// One element of the bundle on a bus.
            pub struct Block<'b, B: Bus> {
                bus: &'b mut B,
                base: u64,
            }
            impl<'b, B: Bus> Block<'b, B> {
                /// Element `index` of the bundle of the file whose window starts at `file_base`.
                pub fn at(bus: &'b mut B, file_base: u64, index: usize) -> Self {
                    Block { bus, base: file_base + OFFSET + index as u64 * STRIDE }
                }
                /// The element's base address on the bus.
                pub fn base(&self) -> u64 {
                    self.base
                }
                #(#accessors)*
            }
        }
    }
}

fn register(cx: &Render, r: &RegisterView) -> TokenStream {
    let reg = r.register;
    let t = ident(&reg.name);
    let offset = hex(reg.offset);
    let mut doc = reg.doc.clone();
    let unknown = r.unknown_mask();
    if unknown != 0 {
        doc.push_str(&format!(
            "\n\nBits no source names: mask {unknown:#010x} (kept in the raw value)."
        ));
    }
    let doc = doc_lines(&format!(
        "{} {:#x}, {}. {}",
        reg.name,
        reg.offset,
        reg.access.as_str(),
        doc
    ));
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
    let setters = (r.fields.iter())
        .filter(|f| f.access.writable() && reg.access.writable())
        .map(|f| setter(cx, f));
    let consts = r.fields.iter().map(|f| {
        let mask = format_ident!("{}_MASK", f.name.to_ascii_uppercase());
        let m = hex(f.mask());
        let d = doc_lines(&format!("Bits {} of `{}`.", f.bits(), f.name));
        quote!(#d pub const #mask: u32 = #m;)
    });
    let readable = reg
        .access
        .readable()
        .then(|| quote!(impl Readable for #t {}));
    let writable = reg
        .access
        .writable()
        .then(|| quote!(impl Writable for #t {}));
    quote! {
        #doc
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
        pub struct #t(u32);
        #[allow(non_snake_case)]
        impl #t {
            #reset
            #(#consts)*
            pub const fn from_bits(bits: u32) -> Self {
                Self(bits)
            }
            pub const fn to_bits(self) -> u32 {
                self.0
            }
            #(#getters)*
            #(#setters)*
        }
        impl Register for #t {
            const OFFSET: u64 = #offset;
            fn from_bits(bits: u32) -> Self {
                Self(bits)
            }
            fn to_bits(self) -> u32 {
                self.0
            }
        }
        #readable
        #writable
    }
}

/// The field's Rust type and how it is made from / turned into the masked bits. The
/// expressions leave out shifts by 0, masks of all ones and same-type casts, so the
/// generated code is clippy-clean.
fn field_type(cx: &Render, f: &RegField) -> (TokenStream, TokenStream, TokenStream) {
    let (lsb, m) = (
        proc_macro2::Literal::u32_unsuffixed(f.lsb),
        hex(u64::from(mask(f))),
    );
    // `bare` as a whole expression, `raw` as an operand.
    let bare = match (f.lsb == 0, f.lsb + f.width >= 32) {
        (true, true) => quote!(self.0),
        (true, false) => quote!(self.0 & #m),
        (false, true) => quote!(self.0 >> #lsb),
        (false, false) => quote!((self.0 >> #lsb) & #m),
    };
    let raw = if f.lsb == 0 && f.width >= 32 {
        bare.clone()
    } else {
        quote!((#bare))
    };
    if let Some(e) = &f.enum_type
        && let Some(t) = cx.model.types.iter().find(|t| &t.name == e)
        && let TypeKind::Enum { repr, .. } = &t.kind
    {
        let et = format_ident!("{}", e);
        let wide = matches!(repr, Int::U32);
        let r = int(*repr);
        let from = if wide {
            quote!(#bare)
        } else {
            quote!(#raw as #r)
        };
        let into = if wide {
            quote!(value.raw())
        } else {
            quote!((value.raw() as u32))
        };
        return (
            quote!(super::super::super::super::#et),
            quote!(super::super::super::super::#et::from_raw(#from)),
            into,
        );
    }
    if f.width == 1 {
        return (quote!(bool), quote!(#raw != 0), quote!((value as u32)));
    }
    let r = int(match f.width {
        0..=8 => Int::U8,
        9..=16 => Int::U16,
        _ => Int::U32,
    });
    if f.width > 16 {
        (r, bare, quote!(value))
    } else {
        (r.clone(), quote!(#raw as #r), quote!((value as u32)))
    }
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
        Int::U32 | Int::I32 => quote!(u32),
        Int::U64 | Int::I64 => quote!(u64),
    }
}

fn getter(cx: &Render, f: &RegField) -> TokenStream {
    let name = ident(&f.name);
    let (ty, from, _) = field_type(cx, f);
    let doc = field_doc(f);
    quote! {
        #doc
        pub const fn #name(self) -> #ty {
            #from
        }
    }
}

fn setter(cx: &Render, f: &RegField) -> TokenStream {
    let name = format_ident!("with_{}", f.name);
    let (ty, _, into) = field_type(cx, f);
    let lsb = proc_macro2::Literal::u32_unsuffixed(f.lsb);
    let doc = doc_lines(&format!(
        "This value with `{}` (bits {}) set to `value`; bits of `value` above the field's {} are dropped.",
        f.name,
        f.bits(),
        f.width
    ));
    // The field's mask in place; a field of all 32 bits replaces the value.
    let placed = hex(f.mask());
    let body = if f.lsb == 0 && f.width >= 32 {
        quote!(#into)
    } else if f.lsb == 0 {
        quote!((self.0 & !#placed) | (#into & #placed))
    } else {
        quote!((self.0 & !#placed) | ((#into << #lsb) & #placed))
    };
    quote! {
        #doc
        pub const fn #name(self, value: #ty) -> Self {
            Self(#body)
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
            ("bus_width", Lit::num(f.bus_width)),
            ("archs", archs(&f.archs)),
            ("confidence", confidence(&f.confidence)),
            ("evidence", cx.evidence(&f.evidence)),
            ("bundles", Lit::slice(bundles)),
        ],
    )
}
