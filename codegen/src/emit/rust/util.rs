//! The Rust target's spelling of names, numbers and docs: identifiers, literals, hex
//! masks and shifts, doc attributes, confidence references.

use std::fmt::Display;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::data::Lit;
use crate::model::{BitField, BitsType, Confidence, Int, Scale};
use crate::naming::rust::KEYWORDS;

pub(super) fn ident(name: &str) -> syn::Ident {
    if KEYWORDS.contains(&name) {
        format_ident!("r#{}", name)
    } else {
        format_ident!("{}", name)
    }
}

/// `Some((lsb, width))` for a bitfield sub-field.
pub(super) fn bits_lit(bits: Option<(u32, u32)>) -> Lit {
    Lit::opt(bits.map(|(lsb, width)| Lit::code(format!("({lsb}, {width})"))))
}

/// Rust the generator spells as text, as tokens for `quote!`.
pub(super) fn code(text: &str) -> TokenStream {
    text.parse().expect("generated Rust is tokens")
}

/// A hex literal of the type the expression around it gives (`0x1f`).
pub(super) fn hex(v: u64) -> Literal {
    format!("{v:#x}")
        .parse()
        .expect("a hex number is a literal")
}

/// `(x >> lsb) & mask`, without a shift by zero.
pub(super) fn shifted_down(x: impl Display, lsb: u32, mask: impl Display) -> String {
    if lsb == 0 {
        format!("({x} & {mask})")
    } else {
        format!("({x} >> {lsb} & {mask})")
    }
}

/// `(x & mask) << lsb`, without a shift by zero.
pub(super) fn shifted_up(x: impl Display, lsb: u32, mask: impl Display) -> String {
    if lsb == 0 {
        format!("({x} & {mask})")
    } else {
        format!("({x} & {mask}) << {lsb}")
    }
}

/// The type name a bitfield sub-field's metadata states (`u3`, or the enum's name).
pub(super) fn bits_type_name(b: &BitField) -> String {
    match &b.ty {
        BitsType::Uint => format!("u{}", b.width),
        BitsType::Named { name, .. } => name.clone(),
    }
}

/// An unsuffixed integer literal, so the output reads `at::<24, 4, 64>` not `24usize`.
pub(super) fn n(v: usize) -> Literal {
    Literal::usize_unsuffixed(v)
}

pub(super) fn uint_for(width: u32) -> Int {
    match width {
        0..=8 => Int::U8,
        9..=16 => Int::U16,
        17..=32 => Int::U32,
        _ => Int::U64,
    }
}

pub(super) fn int_ty(i: Int) -> TokenStream {
    let id = format_ident!("{}", i.rust());
    quote!(#id)
}

pub(super) fn lit(v: u64, i: Int) -> Literal {
    match i {
        Int::U8 => Literal::u8_suffixed(v as u8),
        Int::U16 => Literal::u16_suffixed(v as u16),
        Int::U24 | Int::U32 => Literal::u32_suffixed(v as u32),
        _ => Literal::u64_suffixed(v),
    }
}

/// Doc text for an item: the spec's doc line, then its confidence in the same paragraph
/// (none for an unknown member, which claims no meaning).
pub(super) fn doc_text<'c>(doc: &str, c: impl Into<Option<&'c Confidence>>) -> String {
    let doc = sentence(&crate::emit::escape_doc(doc));
    match c.into() {
        Some(c) => {
            let sep = if doc.is_empty() { "" } else { " " };
            format!(" {doc}{sep}Confidence: {} ({}).", c.tag, c.level)
        }
        None => format!(" {doc}"),
    }
}

/// `doc` ending as a sentence does (`.`, `!` or `?`), so that what follows it, such as
/// the confidence, starts a sentence of its own.
pub(super) fn sentence(doc: &str) -> String {
    let doc = doc.trim_end();
    match doc.chars().last() {
        None | Some('.' | '!' | '?') => doc.to_string(),
        Some(_) => format!("{doc}."),
    }
}

/// [`doc_text`] as an attribute.
pub(super) fn doc_attr<'c>(doc: &str, c: impl Into<Option<&'c Confidence>>) -> TokenStream {
    let text = doc_text(doc, c);
    quote!(#[doc = #text])
}

/// A confidence is named, not spelled out: `confidence::wiki::HIGH_OBSERVED`.
pub(super) fn confidence(c: &Confidence) -> Lit {
    let (scale, tag) = (ident(&c.scale), ident(&Scale::const_name(&c.tag)));
    Lit::code(format!("confidence::{scale}::{tag}"))
}
