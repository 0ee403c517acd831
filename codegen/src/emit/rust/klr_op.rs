//! The klr `Op` enum (one variant per leaf), its `Fields`-driven builders and `lower`,
//! the entry points a front end (the CLI's JSON reader) builds and lowers any op with.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::data::{Lit, Lits};
use super::klr_meta::fields_static;
use super::klr_ty::{borrows, op_ty};
use super::util::ident;
use crate::model::klr::*;

/// `Op` (one variant per leaf), its `Fields`-driven builders and `lower`.
pub(super) fn op_enum(lits: &Lits, m: &KlrModel) -> TokenStream {
    let borrowed = m.leaves.iter().any(|l| borrows(m, &l.op));
    let names: Vec<_> = m.leaves.iter().map(|l| ident(&l.name)).collect();
    let strs: Vec<_> = m.leaves.iter().map(|l| l.name.as_str()).collect();
    let tys = m.leaves.iter().map(|l| op_ty(m, &l.op));
    let lowers = m.leaves.iter().map(|l| format_ident!("lower_{}", l.name));
    let builds: Vec<_> = m
        .leaves
        .iter()
        .map(|l| format_ident!("build_{}", l.op))
        .collect();
    // An `Op` that borrows nothing still takes `'a`; the variant cannot be built.
    let (life, life_arm) = if borrowed {
        (TokenStream::new(), TokenStream::new())
    } else {
        (
            quote!(#[doc(hidden)] _Life(core::marker::PhantomData<&'a ()>, core::convert::Infallible),),
            quote!(Op::_Life(_, never) => match *never {},),
        )
    };
    // One builder per klr layout a leaf takes.
    let mut used: Vec<&str> = m.leaves.iter().map(|l| l.op.as_str()).collect();
    used.sort_unstable();
    used.dedup();
    let builders = m
        .layouts
        .iter()
        .filter(|l| l.side == Side::Klr && used.contains(&l.name.as_str()))
        .map(|l| {
            let (opty, fields) = (op_ty(m, &l.name), fields_static(&l.name));
            let build = format_ident!("build_{}", l.name);
            let inits: Vec<String> = m
                .inputs(&l.name)
                .into_iter()
                .enumerate()
                .filter_map(|(i, f)| {
                    let getter = match (f.input?, f.optional) {
                        (Input::Ap, false) => "ap",
                        (Input::Ap, true) => "opt_ap",
                        (Input::Aps, _) => "aps",
                        (Input::Imm, false) => "imm",
                        (Input::Imm, true) => "opt_imm",
                        (Input::Imms, _) => "imms",
                        (Input::Int, false) => "int",
                        (Input::Int, true) => "opt_int",
                        (Input::Bool, _) => "boolean",
                        (Input::Text, false) => "text",
                        (Input::Text, true) => "opt_text",
                    };
                    Some(format!("{}: src.{getter}(&{fields}[{i}])?", ident(&f.name)))
                })
                .collect();
            // The op on one line, as the metadata records are.
            let op = lits.embed(Lit::code(format!(
                "Ok(ops::{} {{ {} }})",
                ident(&l.name),
                inits.join(", ")
            )));
            quote! {
                #[allow(non_snake_case)]
                fn #build<'a, F: Fields<'a>>(src: &F) -> Result<#opty, F::Error> {
                    #op
                }
            }
        });
    let (src, fx) = if m.leaves.is_empty() {
        (quote!(_src), quote!(_fx))
    } else {
        (quote!(src), quote!(fx))
    };
    quote! {
        /// A klr op for one of the leaves (the leaf decides how it is lowered).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Op<'a> {
            #(#names(#tys),)*
            #life
        }
        #(#builders)*
        impl<'a> Op<'a> {
            /// The leaf this op is for.
            pub fn leaf(&self) -> &'static str {
                match self { #(Op::#names(_) => #strs,)* #life_arm }
            }
            /// Builds the op of leaf `leaf` from `src`; `None` for an unknown leaf.
            pub fn build<F: Fields<'a>>(leaf: &str, #src: &F) -> Option<Result<Op<'a>, F::Error>> {
                match leaf {
                    #(#strs => Some(#builds(src).map(Op::#names)),)*
                    _ => None,
                }
            }
        }
        /// Lowers one op with its leaf.
        pub fn lower<'a>(op: &Op<'a>, #fx: &mut Function) -> Outcome<'a> {
            match op { #(Op::#names(o) => #lowers(o, fx),)* #life_arm }
        }
    }
}
