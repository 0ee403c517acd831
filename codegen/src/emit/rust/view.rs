//! Zero-copy views, emitted into a `view` module next to the owned types.
//!
//! Two generic views, in the style of svd2rust's `generic.rs` (emitted once per file):
//! `View<'a, T>` borrows `&'a T::Bytes` and `ViewMut<'a, T>` borrows it mutably, for any
//! `T` with a `Layout` (the runtime's `layout` module). Per struct,
//! bitfield and union (and per union arm) `view::X<'a>` and `view::X_mut<'a>` are aliases
//! of them, and the generated code is only what is the type's own:
//!
//! - on `View<'a, X>`, one accessor per field that decodes the field when called
//!   (integers and enums by value, `u8` arrays as `&'a [u8; N]`, nested structs, bitfields
//!   and unions as nested views), and `read()` through them;
//! - on `ViewMut<'a, X>`, `set_<field>` (and `<field>_mut` for nested views) that write
//!   only the field's bytes, and `write()` through them. It reads through `as_view()`, so
//!   no getter is written twice.
//!
//! Tests comparing `read()`/`write()` with the owned decoder check every accessor. Words
//! also get `view::Word`/`view::Word_mut`, which dispatch on the opcode once. Everything
//! is `no_std` and free of `unsafe`.
//!
//! The views are the same few method shapes for every type, so they are printed as text
//! (no token stream, parse and pretty-print): short methods take one line.

use std::fmt::Write;

use super::render::{Render, in_archs_text, rust_ty_from, unguarded};
use super::rules::unused_arch;
use super::util::{hex, ident, shifted_down, shifted_up, uint_for};
use crate::model::*;
use crate::naming;

/// A method line's indentation: inside `pub mod view` and an `impl`.
const IN: &str = "        ";

/// Where rustfmt would break a line.
const WIDTH: usize = 100;

fn accessor(name: &str) -> String {
    ident(&naming::rust::view_accessor(name)).to_string()
}

fn setter(name: &str) -> String {
    format!("set_{}", naming::rust::view_accessor(name))
}

fn mut_accessor(name: &str) -> String {
    format!("{}_mut", naming::rust::view_accessor(name))
}

/// Appends one `#[inline]` method with its doc (none if empty): `body` is its statements
/// and tail, each maybe several lines. A one-line body that fits goes on the signature's
/// line.
fn method(out: &mut String, doc: &str, sig: &str, body: &[String]) {
    for line in doc.lines() {
        let _ = writeln!(out, "{IN}/// {line}");
    }
    let _ = writeln!(out, "{IN}#[inline]");
    if let [one] = body
        && !one.contains('\n')
        && IN.len() + sig.len() + one.len() + 5 <= WIDTH
    {
        let _ = writeln!(out, "{IN}{sig} {{ {one} }}");
        return;
    }
    let _ = writeln!(out, "{IN}{sig} {{");
    for line in body.iter().flat_map(|s| s.lines()) {
        let _ = writeln!(out, "{IN}    {line}");
    }
    let _ = writeln!(out, "{IN}}}");
}

/// [`method`] for a member's accessor, first marked `#[deprecated]` with `gate`'s note
/// when the member falls below a confidence gate.
fn member_method(out: &mut String, gate: Option<&str>, doc: &str, sig: &str, body: &[String]) {
    if let Some(note) = gate {
        let _ = writeln!(out, "{IN}#[deprecated(note = {note:?})]");
    }
    method(out, doc, sig, body);
}

/// `items` in brackets after `open` (`"["`, `"super::X {"`), on one line if short, else
/// one item a line.
fn list(open: &str, items: &[String], sep: &str, close: &str) -> String {
    let flat = items.join(&format!("{sep} "));
    if !flat.contains('\n') && open.len() + flat.len() + close.len() < 60 {
        let pad = if close == "}" { " " } else { "" };
        return format!("{open}{pad}{flat}{pad}{close}");
    }
    let mut s = format!("{open}\n");
    for item in items {
        for line in item.lines() {
            let _ = writeln!(s, "    {line}");
        }
        s.pop();
        s.push_str(sep);
        s.push('\n');
    }
    s.push_str(close);
    s
}

/// `at::<off, size, m>(b)`: the member's bytes.
fn at(mutable: bool, off: usize, size: usize, m: usize, b: &str) -> String {
    let at = if mutable { "at_mut" } else { "at" };
    format!("{at}::<{off}, {size}, {m}>({b})")
}

/// The two generic views every type's accessors are written on, emitted once per file (a
/// crate generating its own types adds inherent `impl`s to them, which it may do only on
/// its own types).
const GENERIC: &str = r#"    /// A read-only view of the bytes of a `T`; `T`'s accessors decode a field when called.
    pub struct View<'a, T: Layout>(&'a T::Bytes);
    impl<'a, T: Layout> View<'a, T> {
        /// Views `b`; nothing is checked or copied.
        #[inline]
        pub const fn new(b: &'a T::Bytes) -> Self { Self(b) }
        /// The bytes under the view.
        #[inline]
        pub const fn bytes(&self) -> &'a T::Bytes { self.0 }
    }
    impl<T: Layout> Clone for View<'_, T> {
        fn clone(&self) -> Self { *self }
    }
    impl<T: Layout> Copy for View<'_, T> {}
    impl<T: Layout> PartialEq for View<'_, T> {
        fn eq(&self, other: &Self) -> bool { self.0 == other.0 }
    }
    impl<T: Layout> Eq for View<'_, T> {}
    impl<T: Layout> core::hash::Hash for View<'_, T> {
        fn hash<H: core::hash::Hasher>(&self, h: &mut H) { self.0.hash(h) }
    }
    impl<T: Layout> core::fmt::Debug for View<'_, T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_tuple("View").field(self.0).finish()
        }
    }
    /// A writable view of the bytes of a `T`: `T`'s setters write only their field's bytes
    /// or bits, and [`ViewMut::as_view`] reads them.
    pub struct ViewMut<'a, T: Layout>(&'a mut T::Bytes);
    impl<'a, T: Layout> ViewMut<'a, T> {
        /// Views `b` for writing; nothing is checked or copied.
        #[inline]
        pub fn new(b: &'a mut T::Bytes) -> Self { Self(b) }
        /// The bytes under the view.
        #[inline]
        pub fn bytes(&self) -> &T::Bytes { self.0 }
        /// A read-only view of the same bytes, with the getters.
        #[inline]
        pub fn as_view(&self) -> View<'_, T> { View(self.0) }
    }
    impl<T: Layout> PartialEq for ViewMut<'_, T> {
        fn eq(&self, other: &Self) -> bool { self.0 == other.0 }
    }
    impl<T: Layout> Eq for ViewMut<'_, T> {}
    impl<T: Layout> core::hash::Hash for ViewMut<'_, T> {
        fn hash<H: core::hash::Hasher>(&self, h: &mut H) { self.0.hash(h) }
    }
    impl<T: Layout> core::fmt::Debug for ViewMut<'_, T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_tuple("ViewMut").field(self.0).finish()
        }
    }
    impl<'a, T: Instruction> View<'a, T> {
        /// Views a word; fails only if byte 0 is not this word's opcode.
        #[inline]
        pub fn decode(b: &'a [u8; 64]) -> Result<Self, DecodeError> {
            instruction::check_opcode::<T>(b)?;
            Ok(Self(b))
        }
    }
    impl<'a, T: Instruction> ViewMut<'a, T> {
        /// Views a word for writing; fails only if byte 0 is not this word's opcode.
        #[inline]
        pub fn decode(b: &'a mut [u8; 64]) -> Result<Self, DecodeError> {
            instruction::check_opcode::<T>(b)?;
            Ok(Self(b))
        }
    }
    impl<T: Checked> View<'_, T> {
        /// The violated rules of the bytes under the view for `arch` (empty when valid).
        #[inline]
        pub fn check(&self, arch: T::Arch) -> rules::Violations { T::check_rules(self.0, arch) }
        /// Checks every rule for `arch`; the error lists every violated rule.
        #[inline]
        pub fn validate(&self, arch: T::Arch) -> Result<(), rules::Violations> {
            self.check(arch).into_result()
        }
    }
"#;

/// How a member type is exposed by a view.
enum Shape {
    /// Decoded by value: integers, enums, flags, arrays other than `u8[N]`.
    Value(String),
    /// `u8[N]`: borrowed as `&[u8; N]`.
    Bytes(usize),
    /// A bitfield, struct or union: a nested view of this name.
    Nested(String),
}

impl Render<'_> {
    /// The `view` module.
    pub(super) fn views(&self) -> String {
        let mut out = String::from(
            "/// Zero-copy views: one accessor per field, decoded on access. `X<'a>` reads\n\
             /// `&'a [u8; X::SIZE]`; `X_mut<'a>` also writes `&'a mut [u8; X::SIZE]`.\n\
             #[allow(non_camel_case_types)]\n\
             pub mod view {\n    #[allow(unused_imports)]\n    use super::*;\n",
        );
        out.push_str(GENERIC);
        for t in &self.model.types {
            match &t.kind {
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => {}
                TypeKind::Bitfield { repr, fields } => {
                    self.view_bitfield(&mut out, t, *repr, fields)
                }
                TypeKind::Struct { fields, opcode, .. } => {
                    self.view_struct(&mut out, &t.name, t.size, fields, opcode.is_some())
                }
                TypeKind::Union {
                    discriminator,
                    variants,
                } => self.view_union(&mut out, t, discriminator, variants),
            }
        }
        self.view_words(&mut out);
        out.push_str("}\n");
        out
    }

    fn view_shape(&self, t: &TypeRef) -> Shape {
        match t {
            TypeRef::Array { elem, len } if **elem == (TypeRef::Int { int: Int::U8 }) => {
                Shape::Bytes(*len)
            }
            TypeRef::Named { name, index } => match &self.model.ty(*index).kind {
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => {
                    Shape::Value(rust_ty_from(t, "super::"))
                }
                _ => Shape::Nested(name.clone()),
            },
            _ => Shape::Value(rust_ty_from(t, "super::")),
        }
    }

    /// Reads a by-value member at `off` of the view's `&[u8; m]`.
    fn view_value_read(&self, t: &TypeRef, off: usize, m: usize) -> String {
        let bytes = at(false, off, self.model.size_of(t), m, "self.0");
        match t {
            TypeRef::Int { int } => format!("{}::from_le_bytes(*{bytes})", int.rust()),
            // An enum through its `match`, not `read`'s table, so `v.x().raw()` folds to
            // the byte.
            TypeRef::Named { name, index } => {
                let id = ident(name);
                match &self.model.ty(*index).kind {
                    TypeKind::Enum { repr, .. } => {
                        format!(
                            "super::{id}::from_raw({}::from_le_bytes(*{bytes}))",
                            repr.rust()
                        )
                    }
                    _ => format!("super::{id}::read({bytes})"),
                }
            }
            TypeRef::Array { elem, len } => {
                if **elem == (TypeRef::Int { int: Int::U8 }) {
                    return format!("*{bytes}");
                }
                let es = self.model.size_of(elem);
                let items: Vec<String> = (0..*len)
                    .map(|i| self.view_value_read(elem, off + i * es, m))
                    .collect();
                list("[", &items, ",", "]")
            }
            TypeRef::Ascii { .. } => format!("text::AsciiZ(*{bytes})"),
        }
    }

    /// Statements writing `v` (a by-value member) at `off` of the view's `&mut [u8; m]`.
    fn view_value_write(&self, t: &TypeRef, v: &str, off: usize, m: usize, out: &mut Vec<String>) {
        let bytes = at(true, off, self.model.size_of(t), m, "self.0");
        match t {
            TypeRef::Int { .. } => out.push(format!("*{bytes} = {v}.to_le_bytes();")),
            TypeRef::Named { .. } => out.push(format!("{v}.write({bytes});")),
            TypeRef::Array { elem, len } if **elem != (TypeRef::Int { int: Int::U8 }) => {
                let es = self.model.size_of(elem);
                for i in 0..*len {
                    self.view_value_write(elem, &format!("{v}[{i}]"), off + i * es, m, out);
                }
            }
            TypeRef::Array { .. } => out.push(format!("*{bytes} = {v};")),
            TypeRef::Ascii { .. } => out.push(format!("*{bytes} = {v}.0;")),
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
            None => format!("The discriminator, offset {}.", f.offset),
        };
        let (off, fsize) = (f.offset, f.size);
        let mut m = Member {
            doc,
            gate: self.gated(f.claimed(), &f.evidence),
            get: get.clone(),
            getter: String::new(),
            ty: String::new(),
            setters: Vec::new(),
            to_owned: format!("{fid}: self.{get}()"),
            from_owned: format!("self.{set}(v.{fid});"),
        };
        match self.view_shape(&f.ty) {
            Shape::Value(ty) => {
                let mut body = Vec::new();
                self.view_value_write(&f.ty, "v", f.offset, size, &mut body);
                body.push("self".into());
                m.getter = self.view_value_read(&f.ty, f.offset, size);
                m.setters.push((
                    format!("pub fn {set}(&mut self, v: {ty}) -> &mut Self"),
                    body,
                ));
                m.ty = ty;
            }
            Shape::Bytes(len) => {
                m.getter = at(false, off, fsize, size, "self.0");
                m.ty = format!("&[u8; {len}]");
                m.to_owned = format!("{fid}: *self.{get}()");
                let put = format!("*{} = v;", at(true, off, fsize, size, "self.0"));
                m.setters.push((
                    format!("pub fn {set}(&mut self, v: [u8; {len}]) -> &mut Self"),
                    vec![put, "self".into()],
                ));
                m.setters.push((
                    format!("pub fn {get_mut}(&mut self) -> &mut [u8; {len}]"),
                    vec![at(true, off, fsize, size, "self.0")],
                ));
            }
            Shape::Nested(name) => {
                let vid = ident(&name);
                m.getter = format!("{vid}::new({})", at(false, off, fsize, size, "self.0"));
                m.ty = format!("{vid}<'_>");
                m.to_owned = format!("{fid}: self.{get}().read()");
                m.from_owned = format!("self.{get_mut}().write(&v.{fid});");
                let put = format!("v.write({});", at(true, off, fsize, size, "self.0"));
                m.setters.push((
                    format!("pub fn {set}(&mut self, v: super::{vid}) -> &mut Self"),
                    vec![put, "self".into()],
                ));
                m.setters.push((
                    format!("pub fn {get_mut}(&mut self) -> {vid}_mut<'_>"),
                    vec![format!(
                        "{vid}_mut::new({})",
                        at(true, off, fsize, size, "self.0")
                    )],
                ));
            }
        }
        m
    }

    /// The reader and writer pair around `members`: aliases of the generic `View` and
    /// `ViewMut`, the type's `Layout`, and one `impl` of each with only what is the type's
    /// own (`extra` adds methods). The writable view has no getters: `as_view()` has them.
    #[allow(clippy::too_many_arguments)]
    fn view_pair(
        &self,
        out: &mut String,
        name: &str,
        size: usize,
        doc: &str,
        read_body: String,
        write_body: &[String],
        members: &[Member],
        extra: &dyn Fn(&mut String, bool),
    ) {
        let id = ident(name);
        let owned = format!("super::{id}");
        for line in doc.lines() {
            let _ = writeln!(out, "    /// {line}");
        }
        let _ = write!(
            out,
            "    pub type {id}<'a> = View<'a, {owned}>;\n    \
             /// Writable view of [`{name}`](super::{name}).\n    \
             pub type {id}_mut<'a> = ViewMut<'a, {owned}>;\n    \
             impl Layout for {owned} {{\n        type Bytes = [u8; {size}];\n    }}\n    \
             impl<'a> {id}<'a> {{\n"
        );
        method(
            out,
            "Every field through its accessor: the owned value.",
            &format!("pub fn read(&self) -> {owned}"),
            &[read_body],
        );
        for m in members {
            // The read-only view hands out what it borrows for `'a`.
            let ty = m.ty.replace("'_", "'a").replacen('&', "&'a ", 1);
            let sig = format!("pub fn {}(&self) -> {ty}", m.get);
            let getter = std::slice::from_ref(&m.getter);
            member_method(out, m.gate.as_deref(), &m.doc, &sig, getter);
        }
        extra(out, false);
        let _ = writeln!(out, "    }}\n    impl<'a> {id}_mut<'a> {{");
        let mut write = write_body.to_vec();
        write.push("self".into());
        method(
            out,
            "Writes every field of `v` through its setter.",
            &format!("pub fn write(&mut self, v: &{owned}) -> &mut Self"),
            &write,
        );
        for m in members {
            for (i, (sig, body)) in m.setters.iter().enumerate() {
                // A `u8` array's second setter is its bytes, writable in place.
                let doc = match (i, m.ty.starts_with("&[u8")) {
                    (1, true) => "The bytes, writable in place.",
                    _ => &m.doc,
                };
                member_method(out, m.gate.as_deref(), doc, sig, body);
            }
        }
        extra(out, true);
        out.push_str("    }\n");
    }

    fn view_struct(
        &self,
        out: &mut String,
        name: &str,
        size: usize,
        fields: &[Field],
        is_word: bool,
    ) {
        let id = ident(name);
        let members: Vec<Member> = fields
            .iter()
            .map(|f| self.view_member(Some(name), f, size))
            .collect();
        let to_owned: Vec<String> = members.iter().map(|m| m.to_owned.clone()).collect();
        let from_owned: Vec<String> = members.iter().map(|m| m.from_owned.clone()).collect();
        let extra = |_: &mut String, _: bool| {};
        self.view_pair(
            out,
            name,
            size,
            &owned_link("Read-only view of", name),
            list(&format!("super::{id} {{"), &to_owned, ",", "}"),
            &from_owned,
            &members,
            &extra,
        );
        if is_word {
            let _ = writeln!(out, "    impl super::{id} {{");
            method(
                out,
                "A zero-copy view of a word; fails only if byte 0 is not this word's opcode.",
                &format!("pub fn view(b: &[u8; 64]) -> Result<{id}<'_>, DecodeError>"),
                &[format!("{id}::decode(b)")],
            );
            method(
                out,
                "A zero-copy writable view of a word; fails only on a wrong opcode.",
                &format!("pub fn view_mut(b: &mut [u8; 64]) -> Result<{id}_mut<'_>, DecodeError>"),
                &[format!("{id}_mut::decode(b)")],
            );
            out.push_str("    }\n");
        }
    }

    fn view_bitfield(&self, out: &mut String, t: &TypeDef, repr: Int, fields: &[BitField]) {
        let id = ident(&t.name);
        let ty = repr.rust();
        let members: Vec<Member> = fields
            .iter()
            .map(|b| {
                let get = accessor(&b.name);
                let set = setter(&b.name);
                let fid = ident(&b.name);
                let bits = format!("bits {}..={}", b.lsb, b.lsb + b.width - 1);
                let mask = hex(b.mask());
                let raw = shifted_down("self.bits()", b.lsb, &mask);
                let clear = match b.lsb {
                    0 => mask.to_string(),
                    lsb => format!("({mask} << {lsb})"),
                };
                // `x as T`, or `x` alone when it already is a `T`.
                let cast = |x: &str, from: &str, to: &str| match from == to {
                    true => x
                        .strip_prefix('(')
                        .and_then(|x| x.strip_suffix(')'))
                        .unwrap_or(x)
                        .to_string(),
                    false => format!("{x} as {to}"),
                };
                let (vty, from, to) = match &b.ty {
                    BitsType::Uint => {
                        let vty = uint_for(b.width).rust().to_string();
                        let from = cast(&raw, ty, &vty);
                        let to = cast("v", &vty, ty);
                        (vty, from, to)
                    }
                    BitsType::Named { name, index } => {
                        let inner = match &self.model.ty(*index).kind {
                            TypeKind::Enum { repr, .. } | TypeKind::Flags { repr, .. } => {
                                repr.rust()
                            }
                            _ => Int::U8.rust(),
                        };
                        let nt = format!("super::{}", ident(name));
                        let from = format!("{nt}::from_raw({})", cast(&raw, ty, inner));
                        (nt, from, cast("v.raw()", inner, ty))
                    }
                };
                let put = shifted_up(to, b.lsb, &mask);
                Member {
                    doc: member_doc(&t.name, &b.name, &bits),
                    gate: self.gated(b.claimed(), &b.evidence),
                    get: get.clone(),
                    getter: from,
                    setters: vec![(
                        format!("pub fn {set}(&mut self, v: {vty}) -> &mut Self"),
                        vec![format!("self.set_bits(self.bits() & !{clear} | {put})")],
                    )],
                    ty: vty,
                    to_owned: format!("{fid}: self.{get}()"),
                    from_owned: format!("self.{set}(v.{fid});"),
                }
            })
            .collect();
        let to_owned: Vec<String> = members.iter().map(|m| m.to_owned.clone()).collect();
        let from_owned: Vec<String> = members.iter().map(|m| m.from_owned.clone()).collect();
        let extra = |out: &mut String, mutable: bool| {
            method(
                out,
                "The packed container value.",
                &format!("pub fn bits(&self) -> {ty}"),
                &match repr {
                    Int::U24 => vec![
                        "let b = *self.0;".into(),
                        "u32::from_le_bytes([b[0], b[1], b[2], 0])".into(),
                    ],
                    _ => vec![format!("{ty}::from_le_bytes(*self.0)")],
                },
            );
            if mutable {
                let body: Vec<String> = match repr {
                    Int::U24 => vec![
                        "let w = v.to_le_bytes();".into(),
                        "*self.0 = [w[0], w[1], w[2]];".into(),
                        "self".into(),
                    ],
                    _ => vec!["*self.0 = v.to_le_bytes();".into(), "self".into()],
                };
                method(
                    out,
                    "Sets the packed container value.",
                    &format!("pub fn set_bits(&mut self, v: {ty}) -> &mut Self"),
                    &body,
                );
            }
        };
        self.view_pair(
            out,
            &t.name,
            t.size,
            &owned_link("Read-only view of", &t.name),
            list(&format!("super::{id} {{"), &to_owned, ",", "}"),
            &from_owned,
            &members,
            &extra,
        );
    }

    fn view_union(&self, out: &mut String, t: &TypeDef, disc: &Field, variants: &[Variant]) {
        let id = ident(&t.name);
        let arm_enum = format!("{}_arm", t.name);
        let mut arms = Vec::new();
        let mut selects = Vec::new();
        let mut default = None;
        for v in variants {
            let vid = ident(&v.name);
            let arm_name = format!("{}_{}", t.name, v.name);
            let mut fields = v.fields.clone();
            fields.push(disc.clone());
            fields.sort_by_key(|f| f.offset);
            self.view_struct(out, &arm_name, t.size, &fields, false);
            arms.push((
                owned_link("A view of", &arm_name),
                vid.to_string(),
                arm_name,
            ));
            match (v.mask, v.value) {
                (Some(m), Some(val)) => selects.push((hex(m), hex(val), vid.to_string())),
                _ => default = Some(vid.to_string()),
            }
        }
        let disc_member = self.view_member(None, disc, t.size);
        // A union with only its default arm reads no discriminator. The accessor is called
        // by path: on `&mut self` a method call would find a trait method of the same name
        // first (a discriminator `ne` is `PartialEq::ne`).
        let disc_raw = |mutable: bool| {
            let view = if mutable { "&self.as_view()" } else { "self" };
            let get = format!("{id}::{}({view})", disc_member.get);
            match &disc.ty {
                _ if selects.is_empty() => None,
                // A bitfield's view reads its container with `bits()`.
                TypeRef::Named { index, .. }
                    if matches!(self.model.ty(*index).kind, TypeKind::Bitfield { .. }) =>
                {
                    Some(format!("let raw = {get}.bits() as u64;"))
                }
                TypeRef::Named { .. } => Some(format!("let raw = {get}.raw() as u64;")),
                _ => Some(format!("let raw = {get} as u64;")),
            }
        };
        let extra = |out: &mut String, mutable: bool| {
            let (arm_enum, sfx, self_ref) = match mutable {
                false => (arm_enum.clone(), "", "&self"),
                true => (format!("{arm_enum}_mut"), "_mut", "&mut self"),
            };
            let life = if mutable { "'_" } else { "'a" };
            let arm = |vid: &str| {
                let arm_view = format!("{}_{vid}{sfx}", t.name);
                format!("{arm_enum}::{vid}({arm_view}::new(self.0))")
            };
            let mut body: Vec<String> = disc_raw(mutable).into_iter().collect();
            for (m, val, vid) in &selects {
                body.push(format!(
                    "if raw & {m} == {val} {{\n    return {};\n}}",
                    arm(vid)
                ));
            }
            body.push(default.as_deref().map_or("unreachable!()".into(), arm));
            let (doc, name) = match mutable {
                false => ("The arm the discriminator selects.", "arm"),
                true => ("The arm the discriminator selects, writable.", "arm_mut"),
            };
            method(
                out,
                doc,
                &format!("pub fn {name}({self_ref}) -> {arm_enum}<{life}>"),
                &body,
            );
            for v in variants {
                let arm_view = format!("{}_{}{sfx}", t.name, v.name);
                method(
                    out,
                    &format!(
                        "The bytes read as the `{}` arm, whatever the discriminator says.",
                        v.name
                    ),
                    &format!(
                        "pub fn as_{}{sfx}({self_ref}) -> {arm_view}<{life}>",
                        v.name
                    ),
                    &[format!("{arm_view}::new(self.0)")],
                );
            }
        };
        let doc = format!(
            "Read-only view of the union [`{0}`](super::{0}); [`{0}::arm`] picks the arm by \
             the discriminator.",
            t.name
        );
        self.view_pair(
            out,
            &t.name,
            t.size,
            &doc,
            // The owned union is its bytes too.
            format!("super::{id}(*self.0)"),
            &["*self.0 = v.0;".to_string()],
            std::slice::from_ref(&disc_member),
            &extra,
        );
        for (mutable, what) in [(false, "views"), (true, "writable views")] {
            let (sfx, derive) = match mutable {
                false => ("", "Clone, Copy, Debug, PartialEq, Eq, Hash"),
                true => ("_mut", "Debug, PartialEq, Eq, Hash"),
            };
            let _ = write!(
                out,
                "    /// The arms of [`{}{sfx}`], as {what}.\n    #[derive({derive})]\n    \
                 pub enum {arm_enum}{sfx}<'a> {{\n",
                t.name
            );
            for (doc, vid, arm_name) in &arms {
                let _ = writeln!(
                    out,
                    "        /// {doc}\n        {vid}({arm_name}{sfx}<'a>),"
                );
            }
            out.push_str("    }\n");
        }
    }

    fn view_words(&self, out: &mut String) {
        let words: Vec<&TypeDef> = self.model.words().collect();
        let ids: Vec<String> = words.iter().map(|w| ident(&w.name).to_string()).collect();
        let guards: Vec<String> = words
            .iter()
            .map(|w| {
                let op = w.opcode().map_or(0, |o| o.value);
                let archs = match &w.kind {
                    TypeKind::Struct { arch, .. } => in_archs_text(arch),
                    _ => in_archs_text(&[]),
                };
                let sub = w.opcode().and_then(|o| o.sub.as_ref());
                let sub = sub.map_or(String::new(), |s| format!(" && {}", s.rust_guard()));
                format!("{op} if {archs}{sub}")
            })
            .collect();
        let order = dispatch_order(&words);
        let arms =
            |f: &dyn Fn(&str) -> String| -> Vec<String> { ids.iter().map(|id| f(id)).collect() };
        let dispatch = |kind: &str, view: &str| -> Vec<String> {
            let mut body: Vec<String> = unguarded(self.model)
                .map(String::from)
                .into_iter()
                .collect();
            let mut items: Vec<String> = order
                .iter()
                .map(|&i| (&ids[i], &guards[i]))
                .map(|(id, g)| format!("{g} => Some({kind}::{id}({id}{view}::new(b)))"))
                .collect();
            items.push("_ => None".into());
            body.push(list("match b[0] {", &items, ",", "}"));
            body
        };
        let meta = |kind: &str| {
            vec![list(
                "match self {",
                &arms(&|id| format!("{kind}::{id}(_) => &super::{id}::META")),
                ",",
                "}",
            )]
        };
        out.push_str(
            "    /// A word of any kind, viewed in place: the opcode is dispatched on once.\n    \
             #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n    pub enum Word<'a> {\n",
        );
        for id in &ids {
            let _ = writeln!(out, "        {id}({id}<'a>),");
        }
        out.push_str("    }\n    impl<'a> Word<'a> {\n");
        method(
            out,
            "Views by opcode; `None` when `arch` has no word with this opcode.",
            "pub fn new(b: &'a [u8; 64], arch: Arch) -> Option<Self>",
            &dispatch("Word", ""),
        );
        method(
            out,
            "",
            "pub fn meta(&self) -> &'static WordMeta",
            &meta("Word"),
        );
        let bytes = arms(&|id| format!("Word::{id}(w) => w.bytes()"));
        method(
            out,
            "",
            "pub fn bytes(&self) -> &'a [u8; 64]",
            &[list("match self {", &bytes, ",", "}")],
        );
        let read = arms(&|id| format!("Word::{id}(w) => super::Word::{id}(w.read())"));
        method(
            out,
            "The owned word, every field through its accessor.",
            "pub fn read(&self) -> super::Word",
            &[list("match self {", &read, ",", "}")],
        );
        let checks: Vec<String> = words
            .iter()
            .zip(&ids)
            .map(|(w, id)| match self.model.rule_set_of(&w.name) {
                Some(_) => format!("Word::{id}(w) => super::{id}::check_rules(w.bytes(), arch)"),
                None => format!(
                    "Word::{id}(_) => rules::Violations::from_truth({:?}, &[], 0)",
                    w.name
                ),
            })
            .collect();
        let mut check: Vec<String> = unused_arch(self.model)
            .map(String::from)
            .into_iter()
            .collect();
        check.push(list("match self {", &checks, ",", "}"));
        method(
            out,
            "The word's violations for `arch`, checked on the bytes in place (empty\n\
             when valid, or when its struct has no rules).",
            "pub fn check(&self, arch: Arch) -> rules::Violations",
            &check,
        );
        method(
            out,
            "Checks the word's rules for `arch`; the error lists every violated rule.",
            "pub fn validate(&self, arch: Arch) -> Result<(), rules::Violations>",
            &["self.check(arch).into_result()".into()],
        );
        out.push_str(
            "    }\n    /// A word of any kind, viewed in place for writing.\n    \
             #[derive(Debug, PartialEq, Eq, Hash)]\n    pub enum Word_mut<'a> {\n",
        );
        for id in &ids {
            let _ = writeln!(out, "        {id}({id}_mut<'a>),");
        }
        out.push_str("    }\n    impl<'a> Word_mut<'a> {\n");
        method(
            out,
            "Views by opcode; `None` when `arch` has no word with this opcode.",
            "pub fn new(b: &'a mut [u8; 64], arch: Arch) -> Option<Self>",
            &dispatch("Word_mut", "_mut"),
        );
        method(
            out,
            "",
            "pub fn meta(&self) -> &'static WordMeta",
            &meta("Word_mut"),
        );
        let as_view = arms(&|id| format!("Word_mut::{id}(w) => Word::{id}(w.as_view())"));
        method(
            out,
            "A read-only view of the same bytes.",
            "pub fn as_view(&self) -> Word<'_>",
            &[list("match self {", &as_view, ",", "}")],
        );
        let mut writes = arms(&|id| {
            format!(
                "(Word_mut::{id}(v), super::Word::{id}(w)) => {{\n    v.write(w);\n    Ok(())\n}}"
            )
        });
        writes.push(
            "#[allow(unreachable_patterns)]\n(this, w) => Err(DecodeError::WrongOpcode {\n    \
             expected: this.meta().opcode,\n    found: w.meta().opcode,\n    \
             name: this.meta().name,\n}),"
                .into(),
        );
        method(
            out,
            "Writes every field of `w` through the setters; fails (writing nothing)\n\
             when `w` is another kind of word.",
            "pub fn write(&mut self, w: &super::Word) -> Result<(), DecodeError>",
            &[list("match (self, w) {", &writes, "", "}")],
        );
        out.push_str("    }\n");
    }
}

/// `<what> [`name`](super::name).`: the owned type's doc carries the spec's text.
fn owned_link(what: &str, name: &str) -> String {
    format!("{what} [`{name}`](super::{}).", ident(name))
}

/// A view accessor's doc: where the member lies and a link to the owned field, whose doc
/// carries the spec's text and confidence.
fn member_doc(owner: &str, member: &str, place: &str) -> String {
    // A keyword member is `r#type` in Rust, which a link cannot name (`#` starts its
    // fragment): the name stays plain code.
    if naming::rust::KEYWORDS.contains(&member) {
        return format!("`{owner}::{member}`, {place}.");
    }
    let path = format!("{}::{}", ident(owner), ident(member));
    format!("[`{owner}::{member}`](super::{path}), {place}.")
}

/// One member of a view, as text.
struct Member {
    doc: String,
    /// The deprecation note when the member falls below a confidence gate.
    gate: Option<String>,
    /// The accessor's name.
    get: String,
    /// The accessor's body on the read-only view.
    getter: String,
    /// What the accessor returns, as the writable view spells it (`'_` borrows).
    ty: String,
    /// Signature and body of each writing method.
    setters: Vec<(String, Vec<String>)>,
    /// `field: <owned value>` for `read`.
    to_owned: String,
    /// Statement writing `v.field` for `write`.
    from_owned: String,
}
