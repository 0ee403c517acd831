//! The C target: packed C11 / C++17 headers named like the shipped ISA headers.
//!
//! * `c/aws_neuron_isa_tpb_common.h`: every type that is not a word (enums, flags,
//!   bitfields, nested structs, unions), in dependency order;
//! * `c/aws_neuron_isa_tpb_<word>.h`: one per word, with its opcode and size `#define`s,
//!   and one per record (a `top_level` struct such as the 16-byte SDMA descriptor) with its
//!   size `#define`;
//! * `c/regs/<file>.h`: one per register file, PeakRDL-cheader style macros and helpers
//!   per architecture ([`registers`]);
//! * `c/addrmap_<arch>.h`: one per SoC address map, `_OFFSET` per slot part and `_BASE`
//!   per instance (`addrmap.rs`);
//! * `c/dmaspec.h`: includes them all.
//!
//! Every type is usable by its shipped name (`NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT x;`) and
//! is `__attribute__((packed))`; every size and every byte offset is checked at compile
//! time with `DMASPEC_STATIC_ASSERT` (`_Static_assert` in C, `static_assert` in C++).
//!
//! Enums whose values fit an `int` are C enums for their constants plus a `typedef` of
//! their wire integer as the type (C enums are `int`-sized); C++ gets
//! `enum NAME : uintN_t` instead. Bitfield members are `unsigned int name : W` (ISO C's
//! only unsigned bit-field type); with `packed`, GCC lays them out lsb-first with no
//! padding, which `tests/c_layout.rs` checks bit by bit. Member names that are C or C++
//! keywords get a trailing `_` ([`member`]).

use std::fmt::Write as _;

use super::plural;
use crate::model::*;

mod addrmap;
mod gate;
pub mod registers;
mod rules;
mod sub_opcode;
mod util;
pub(crate) use rules::c_path;
use util::*;
pub use util::{DIR, arm_type, header_file, member, reserved, stem, word_header};

/// The shared-types header.
pub const COMMON_HEADER: &str = "aws_neuron_isa_tpb_common.h";
/// The header that includes every other.
pub const UMBRELLA_HEADER: &str = "dmaspec.h";

const PACKED: &str = "__attribute__((packed))";

/// Files under `generated/` for this target, as (relative path, contents): the common
/// header, one header per word in spec order, one per record, one per register file, then
/// the umbrella header.
pub fn render(model: &Model) -> Vec<(String, String)> {
    let cx = Headers { model };
    let words: Vec<&TypeDef> = model.words().chain(model.records()).collect();
    let mut files = vec![(format!("{DIR}/{COMMON_HEADER}"), cx.common())];
    for w in &words {
        files.push((format!("{DIR}/{}", word_header(w)), cx.word(w)));
    }
    files.extend(registers::render(model));
    files.extend(addrmap::render(model));
    files.push((format!("{DIR}/{UMBRELLA_HEADER}"), cx.umbrella(&words)));
    files
}

/// The named types a type's members use.
fn deps(t: &TypeDef) -> Vec<usize> {
    fn named(ty: &TypeRef, out: &mut Vec<usize>) {
        match ty {
            TypeRef::Int { .. } | TypeRef::Ascii { .. } => {}
            TypeRef::Named { index, .. } => out.push(*index),
            TypeRef::Array { elem, .. } => named(elem, out),
        }
    }
    let mut out = Vec::new();
    match &t.kind {
        TypeKind::Enum { .. } | TypeKind::Flags { .. } => {}
        TypeKind::Bitfield { fields, .. } => {
            for b in fields {
                if let BitsType::Named { index, .. } = &b.ty {
                    out.push(*index);
                }
            }
        }
        TypeKind::Struct { fields, .. } => fields.iter().for_each(|f| named(&f.ty, &mut out)),
        TypeKind::Union {
            discriminator,
            variants,
        } => {
            named(&discriminator.ty, &mut out);
            for v in variants {
                v.fields.iter().for_each(|f| named(&f.ty, &mut out));
            }
        }
    }
    out
}

/// The headers of one model.
struct Headers<'m> {
    model: &'m Model,
}

impl Headers<'_> {
    /// A word or a record: a type with a header of its own.
    fn is_word(&self, index: usize) -> bool {
        self.model.ty(index).is_top_level()
    }

    /// Types that are neither words nor records, each after the types it uses; otherwise in spec order.
    fn common_order(&self) -> Vec<usize> {
        fn visit(cx: &Headers, i: usize, seen: &mut [bool], out: &mut Vec<usize>) {
            if seen[i] || cx.is_word(i) {
                return;
            }
            seen[i] = true;
            for d in deps(cx.model.ty(i)) {
                visit(cx, d, seen, out);
            }
            out.push(i);
        }
        let mut seen = vec![false; self.model.types.len()];
        let mut out = Vec::new();
        for i in 0..self.model.types.len() {
            visit(self, i, &mut seen, &mut out);
        }
        out
    }

    /// Base type and array suffix of a member: (`int32_t`, `[2]`).
    fn c_type(&self, ty: &TypeRef) -> (String, String) {
        match ty {
            TypeRef::Int { int } => (int.c().to_string(), String::new()),
            TypeRef::Named { index, .. } => (self.model.ty(*index).c_name.clone(), String::new()),
            TypeRef::Array { elem, len } => {
                let (base, dims) = self.c_type(elem);
                (base, format!("[{len}]{dims}"))
            }
            TypeRef::Ascii { len } => ("char".to_string(), format!("[{len}]")),
        }
    }

    fn c_spelling(&self, ty: &TypeRef) -> String {
        let (base, dims) = self.c_type(ty);
        format!("{base}{dims}")
    }

    fn type_doc(&self, out: &mut String, t: &TypeDef, extra: &[String]) {
        let mut paras = vec![format!(
            "{} ({}): {}",
            t.name,
            plural(t.size, "byte"),
            t.doc
        )];
        paras.extend(extra.iter().cloned());
        paras.push(confidence(&t.confidence));
        let mut cites: Vec<&str> = Vec::new();
        for e in &t.evidence {
            if !cites.contains(&e.cite.as_str()) {
                cites.push(&e.cite);
            }
        }
        if !cites.is_empty() {
            paras.push(format!(
                "Evidence: {}. Spec: {}:{}.",
                cites.join("; "),
                t.file,
                t.line
            ));
        }
        doc(out, "", &paras);
    }

    fn alternatives(&self, alts: &[Alternative], primary: &str) -> Vec<String> {
        alts.iter()
            .map(|a| {
                let ty =
                    a.ty.as_ref()
                        .map_or(primary.to_string(), |t| self.c_spelling(t));
                format!(
                    "Alternative reading `{}` ({ty}): {} [{}]",
                    a.name, a.doc, a.confidence.tag
                )
            })
            .collect()
    }

    fn role(role: Role) -> &'static str {
        match role {
            Role::Data => "",
            Role::Reserved => " Reserved.",
            Role::Unknown => " Unknown: no source gives a meaning; kept raw.",
        }
    }

    // ---- files -----------------------------------------------------------------------

    fn common(&self) -> String {
        let g = guard(COMMON_HEADER);
        let mut out = String::from(GENERATED);
        doc(
            &mut out,
            "",
            &[
                "Types shared by the DMA-family instruction words of the AWS Neuron TPB ISA: \
                 enums, flags, bitfields, nested structs and unions. Every struct and union is \
                 packed and its size and member offsets are checked at compile time. Needs C11 \
                 or C++11 and GCC-style `__attribute__((packed))`."
                    .to_string(),
            ],
        );
        let _ = write!(
            out,
            "#ifndef {g}\n#define {g}\n\n#include <stddef.h>\n#include <stdint.h>\n\n\
             /* Compile-time layout checks: `_Static_assert` in C11, `static_assert` in C++. */\n\
             #ifndef DMASPEC_STATIC_ASSERT\n#ifdef __cplusplus\n\
             #define DMASPEC_STATIC_ASSERT(cond, msg) static_assert(cond, msg)\n#else\n\
             #define DMASPEC_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)\n#endif\n#endif\n"
        );
        out.push_str(&rules::generations(self.model));
        out.push_str(&gate::prelude(self.model));
        let _ = writeln!(out, "{}", gate::OWN_USES_BEGIN);
        for i in self.common_order() {
            out.push('\n');
            self.type_def(&mut out, self.model.ty(i));
        }
        out.push_str(&rules::common(self.model));
        out.push_str(&rules::conflicts(self.model));
        let _ = writeln!(out, "\n{}\n#endif /* {g} */", gate::OWN_USES_END);
        out
    }

    fn word(&self, w: &TypeDef) -> String {
        let file = word_header(w);
        let g = guard(&file);
        let mut out = String::from(GENERATED);
        doc(
            &mut out,
            "",
            &[if w.is_record() {
                format!(
                    "The {} record ({}), decoded on its own rather than inside a word.",
                    w.name, w.c_name
                )
            } else {
                format!("The {} instruction word ({}).", w.name, w.c_name)
            }],
        );
        let _ = write!(
            out,
            "#ifndef {g}\n#define {g}\n\n#include <stddef.h>\n#include <stdint.h>\n\n\
             #include \"{COMMON_HEADER}\"\n"
        );
        // A word that embeds another word or a record needs that header too.
        let mut includes: Vec<String> = Vec::new();
        for d in deps(w).into_iter().filter(|&d| self.is_word(d)) {
            let h = word_header(self.model.ty(d));
            if !includes.contains(&h) {
                includes.push(h);
            }
        }
        includes.extend(sub_opcode::include(self.model, w));
        for inc in includes {
            let _ = writeln!(out, "#include \"{inc}\"");
        }
        let _ = writeln!(out, "{}", gate::OWN_USES_BEGIN);
        let s = stem(w);
        out.push('\n');
        if let Some(op) = w.opcode() {
            // The enumerator itself, not its number: in C++ an `int` does not convert to
            // the enum type of `header.opcode`. `_OPCODE_VALUE` is the number, for `#if`.
            let e = self.opcode_enumerator(w);
            let shown = e.clone().unwrap_or_else(|| op.enumerator.clone());
            doc(
                &mut out,
                "",
                &[format!(
                    "Opcode of {} (byte 0) as a number, for the preprocessor (`#if`).",
                    w.c_name
                )],
            );
            let _ = writeln!(out, "#define {s}_OPCODE_VALUE 0x{:02x}", op.value);
            doc(
                &mut out,
                "",
                &[match &e {
                    Some(_) => format!(
                        "Opcode of {} (byte 0): `{shown}`, the enumerator, so that it assigns \
                         to the enum-typed `header.opcode` in C and in C++.",
                        w.c_name
                    ),
                    None => format!("Opcode of {} (byte 0): `{shown}`.", w.c_name),
                }],
            );
            let _ = writeln!(
                out,
                "#define {s}_OPCODE {}",
                e.as_deref().unwrap_or(&format!("{s}_OPCODE_VALUE"))
            );
        }
        doc(&mut out, "", &[format!("Size of {} in bytes.", w.c_name)]);
        let _ = write!(out, "#define {s}_SIZE {}\n\n", w.size);
        self.type_def(&mut out, w);
        if let Some(e) = self.opcode_enumerator(w) {
            static_assert(
                &mut out,
                &format!("{s}_OPCODE_VALUE == {e}"),
                &format!("{s}_OPCODE_VALUE is {e}"),
            );
        }
        out.push_str(&sub_opcode::checks(self.model, w));
        out.push_str(&rules::word(self.model, w));
        let _ = writeln!(out, "\n{}\n#endif /* {g} */", gate::OWN_USES_END);
        out
    }

    /// The C name of a word's opcode enumerator, if the model has it.
    fn opcode_enumerator(&self, w: &TypeDef) -> Option<String> {
        let op = w.opcode()?;
        self.model.types.iter().find_map(|t| match &t.kind {
            TypeKind::Enum { values, .. } if t.name == "OPCODE" => values
                .iter()
                .find(|v| v.name == op.enumerator)
                .map(|v| v.c_name.clone()),
            _ => None,
        })
    }

    fn umbrella(&self, words: &[&TypeDef]) -> String {
        let g = guard(UMBRELLA_HEADER);
        let mut out = String::from(GENERATED);
        doc(
            &mut out,
            "",
            &[format!(
                "Every DMA-family instruction word of the AWS Neuron TPB ISA in the dmaspec spec \
                 ({}{}), with the types they share{}.",
                plural(self.model.words().count(), "word"),
                match self.model.records().count() {
                    0 => String::new(),
                    n => format!(" and {}", plural(n, "record")),
                },
                match self.model.regfiles.len() {
                    0 => String::new(),
                    n => format!(", and the {} (`regs/`)", plural(n, "register file")),
                }
            )],
        );
        let _ = write!(
            out,
            "#ifndef {g}\n#define {g}\n\n#include \"{COMMON_HEADER}\"\n"
        );
        for w in words {
            let _ = writeln!(out, "#include \"{}\"", word_header(w));
        }
        for f in &self.model.regfiles {
            let _ = writeln!(out, "#include \"{}\"", registers::regs_header(f));
        }
        for m in &self.model.addrmaps {
            let _ = writeln!(out, "#include \"{}\"", addrmap::header_file(m));
        }
        let _ = writeln!(out, "\n#endif /* {g} */");
        out
    }

    // ---- types -----------------------------------------------------------------------

    fn type_def(&self, out: &mut String, t: &TypeDef) {
        match &t.kind {
            TypeKind::Enum { repr, values } => self.enum_def(out, t, *repr, values),
            TypeKind::Flags { repr, none, bits } => self.flags_def(out, t, *repr, none, bits),
            TypeKind::Bitfield { repr, fields } => self.bitfield_def(out, t, *repr, fields),
            TypeKind::Struct {
                fields,
                opcode,
                arch,
                follows,
                aliases,
                ..
            } => {
                let mut extra = Vec::new();
                if let Some(op) = opcode {
                    extra.push(format!(
                        "Opcode 0x{:02x} (`{}`). Architectures: {}.",
                        op.value,
                        self.opcode_enumerator(t)
                            .unwrap_or_else(|| op.enumerator.clone()),
                        if arch.is_empty() {
                            "all".to_string()
                        } else {
                            arch.join(", ")
                        }
                    ));
                }
                if !follows.is_empty() {
                    extra.push(format!(
                        "Must immediately follow a {} word.",
                        follows.join(" or ")
                    ));
                }
                self.type_doc(out, t, &extra);
                let capping = self.model.capping_fields(t);
                self.struct_body(out, &t.c_name, t.size, fields, &capping);
                for a in aliases {
                    let d = format!("Alias of {} (as {} names it).", t.c_name, a.spelled_by());
                    doc(out, "", &[d]);
                    let _ = writeln!(out, "typedef {} {};", t.c_name, a.c_name);
                }
            }
            TypeKind::Union {
                discriminator,
                variants,
            } => self.union_def(out, t, discriminator, variants),
        }
    }

    fn enum_def(&self, out: &mut String, t: &TypeDef, repr: Int, values: &[Enumerator]) {
        let c = &t.c_name;
        let ty = repr.c();
        self.type_doc(out, t, &[]);
        // C enumerators must fit an `int`; otherwise fall back to macros.
        let as_enum = !values.is_empty() && values.iter().all(|v| v.value <= i32::MAX as u64);
        let mut items: Vec<(Vec<String>, &str, u64)> = Vec::new();
        for v in values {
            let mut d = v.doc.clone().unwrap_or_default();
            if !v.arch.is_empty() {
                d.push_str(&format!(" (only on {})", v.arch.join(", ")));
            }
            if let Some(e) = &v.engine {
                d.push_str(&format!(" Engine: {e}."));
            }
            items.push((vec![d], &v.c_name, v.value));
            for a in &v.aliases {
                let mut d = format!("Alias of `{}` (as {} spells it).", v.c_name, a.spelled_by());
                if let Some(n) = &a.note {
                    d.push_str(&format!(" {n}"));
                }
                items.push((vec![d], &a.c_name, v.value));
            }
        }
        if as_enum {
            let _ = write!(
                out,
                "#ifdef __cplusplus\nenum {c} : {ty} {{\n#else\nenum {c} {{\n#endif\n"
            );
            for (d, name, value) in &items {
                doc(out, "    ", d);
                let _ = writeln!(out, "    {name} = {},", hex(*value, repr));
            }
            let _ = write!(out, "}};\n#ifndef __cplusplus\ntypedef {ty} {c};\n#endif\n");
        } else {
            let _ = writeln!(out, "typedef {ty} {c};");
            for (d, name, value) in &items {
                doc(out, "", d);
                let _ = writeln!(out, "#define {name} {}{}", hex(*value, repr), suffix(repr));
            }
        }
        static_assert(
            out,
            &format!("sizeof({c}) == {}", t.size),
            &format!("{c} is {}", plural(t.size, "byte")),
        );
        name_helper(out, c, repr, values);
    }

    fn flags_def(
        &self,
        out: &mut String,
        t: &TypeDef,
        repr: Int,
        none: &Option<String>,
        bits: &[FlagBit],
    ) {
        let c = &t.c_name;
        self.type_doc(out, t, &[]);
        let _ = writeln!(out, "typedef {} {c};", repr.c());
        if let Some(none) = none {
            // The model keeps only the bits' C names; the `none` value shares their prefix.
            let prefix = bits
                .iter()
                .find_map(|b| b.c_name.strip_suffix(b.name.as_str()))
                .map_or_else(|| format!("{c}_"), str::to_string);
            doc(out, "", &["No bit set.".to_string()]);
            let _ = writeln!(
                out,
                "#define {prefix}{none} {}{}",
                hex(0, repr),
                suffix(repr)
            );
        }
        for b in bits {
            doc(out, "", &[format!("Bit {}: {}", b.bit, b.doc)]);
            let _ = writeln!(
                out,
                "#define {} {}{}",
                b.c_name,
                hex(1u64 << b.bit, repr),
                suffix(repr)
            );
        }
        static_assert(
            out,
            &format!("sizeof({c}) == {}", t.size),
            &format!("{c} is {}", plural(t.size, "byte")),
        );
    }

    fn bitfield_def(&self, out: &mut String, t: &TypeDef, repr: Int, fields: &[BitField]) {
        let c = &t.c_name;
        self.type_doc(
            out,
            t,
            &[format!(
                "A {} read as bit-fields, lsb first (GCC's layout on little-endian targets).",
                repr.c()
            )],
        );
        let _ = writeln!(out, "typedef struct {PACKED} {c} {{");
        for b in fields {
            let range = if b.width == 1 {
                format!("Bit {}", b.lsb)
            } else {
                format!("Bits {}..{}", b.lsb, b.lsb + b.width - 1)
            };
            let holds = match &b.ty {
                BitsType::Uint => String::new(),
                BitsType::Named { index, .. } => {
                    format!(" Holds a `{}`.", self.model.ty(*index).c_name)
                }
            };
            let mut paras = vec![member_doc(
                &format!("{range}.{holds}{}", Self::role(b.role)),
                &b.doc,
                b.claimed(),
            )];
            paras.extend(self.alternatives(&b.alternatives, &format!("u{}", b.width)));
            doc(out, "    ", &paras);
            // ISO C allows only `unsigned int` (and `_Bool`, `int`) bit-fields; wider ones
            // need the GCC extension, marked so that -pedantic accepts it.
            let decl = if b.width <= 32 {
                "unsigned int"
            } else {
                "__extension__ unsigned long long"
            };
            let gated = gate::member_suffix(b.claimed(), &b.evidence);
            let _ = writeln!(out, "    {decl} {} : {}{gated};", member(&b.name), b.width);
        }
        let _ = writeln!(out, "}} {c};");
        static_assert(
            out,
            &format!("sizeof({c}) == {}", t.size),
            &format!("{c} is {}", plural(t.size, "byte")),
        );
    }

    /// `typedef struct packed NAME { members } NAME;` with its size and offset checks; the
    /// `capping` members say that what they hold is no surer here than they are.
    fn struct_body(
        &self,
        out: &mut String,
        c: &str,
        size: usize,
        fields: &[Field],
        capping: &[String],
    ) {
        let mut sorted: Vec<&Field> = fields.iter().collect();
        sorted.sort_by_key(|f| f.offset);
        let _ = writeln!(out, "typedef struct {PACKED} {c} {{");
        let mut cursor = 0;
        for f in &sorted {
            // The loader guarantees the fields tile the struct; pad anyway if they did not.
            if f.offset > cursor {
                let _ = writeln!(
                    out,
                    "    uint8_t dmaspec_pad_{cursor}[{}];",
                    f.offset - cursor
                );
            }
            let (base, dims) = self.c_type(&f.ty);
            let place = format!(
                "Offset {}, {}.{}",
                f.offset,
                plural(f.size, "byte"),
                Self::role(f.role)
            );
            let mut paras = vec![member_doc(&place, &f.doc, f.claimed())];
            if capping.contains(&f.name) {
                paras.push(format!(
                    "Here no member of `{base}` is surer than {}, whatever its own tag.",
                    f.confidence.tag
                ));
            }
            paras.extend(self.alternatives(&f.alternatives, &format!("{base}{dims}")));
            doc(out, "    ", &paras);
            let gated = gate::member_suffix(f.claimed(), &f.evidence);
            let _ = writeln!(out, "    {base} {}{dims}{gated};", member(&f.name));
            cursor = cursor.max(f.offset + f.size);
        }
        if size > cursor {
            let _ = writeln!(out, "    uint8_t dmaspec_pad_{cursor}[{}];", size - cursor);
        }
        let _ = writeln!(out, "}} {c};");
        static_assert(
            out,
            &format!("sizeof({c}) == {size}"),
            &format!("{c} is {}", plural(size, "byte")),
        );
        for f in &sorted {
            let m = member(&f.name);
            static_assert(
                out,
                &format!("offsetof({c}, {m}) == {}", f.offset),
                &format!("{c}.{m} is at offset {}", f.offset),
            );
        }
    }

    fn union_def(&self, out: &mut String, t: &TypeDef, disc: &Field, variants: &[Variant]) {
        let c = &t.c_name;
        let dm = member(&disc.name);
        let rule = |v: &Variant| match (v.mask, v.value) {
            (Some(m), Some(val)) => format!("`({dm} & {m:#x}) == {val:#x}`"),
            _ => "no other arm matches".to_string(),
        };
        for v in variants {
            let mut fields = v.fields.clone();
            fields.push(disc.clone());
            let arm = arm_type(t, v);
            let intro = format!("The `{}` arm of {c}, selected when {}.", v.name, rule(v));
            let paras = vec![member_doc(&intro, &v.doc, Some(&v.confidence))];
            doc(out, "", &paras);
            self.struct_body(out, &arm, t.size, &fields, &[]);
            out.push('\n');
        }
        let arms: Vec<String> = variants
            .iter()
            .map(|v| format!("`{}` when {}", v.name, rule(v)))
            .collect();
        self.type_doc(
            out,
            t,
            &[format!(
                "Every arm holds the discriminator `{dm}` ({}) at offset {}; read it through any \
                 arm. Arms, tried in this order (the first match wins): {}.",
                self.c_spelling(&disc.ty),
                disc.offset,
                arms.join("; ")
            )],
        );
        let _ = writeln!(out, "typedef union {PACKED} {c} {{");
        for v in variants {
            let _ = writeln!(out, "    {} {};", arm_type(t, v), member(&v.name));
        }
        let _ = writeln!(out, "}} {c};");
        static_assert(
            out,
            &format!("sizeof({c}) == {}", t.size),
            &format!("{c} is {}", plural(t.size, "byte")),
        );
        for v in variants {
            let m = member(&v.name);
            static_assert(
                out,
                &format!("offsetof({c}, {m}) == 0"),
                &format!("{c}.{m} is at offset 0"),
            );
        }
    }
}

/// `static inline const char *<enum>_name(<enum> v)`: the spec name of each enumerator
/// (the first of several sharing a value; never an alias), NULL for any other value.
fn name_helper(out: &mut String, c: &str, repr: Int, values: &[Enumerator]) {
    doc(
        out,
        "",
        &[format!(
            "The spec name of a {c} value{}, or NULL when the value is no enumerator. \
             Aliases are never returned; an enumerator limited to some architectures is named \
             on every one.",
            values.first().map_or(String::new(), |v| format!(
                " (\"{}\" for `{}`)",
                v.name, v.c_name
            ))
        )],
    );
    let _ = writeln!(out, "static inline const char *{c}_name({c} v) {{");
    if values.is_empty() {
        let _ = writeln!(out, "    (void)v;\n    return NULL;\n}}");
        return;
    }
    let _ = writeln!(out, "    switch (v) {{");
    let mut seen: Vec<u64> = Vec::new();
    for v in values {
        if seen.contains(&v.value) {
            continue;
        }
        seen.push(v.value);
        let name = v.name.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(
            out,
            "    case {}{}:\n        return \"{name}\";",
            hex(v.value, repr),
            suffix(repr)
        );
    }
    let _ = writeln!(out, "    default:\n        return NULL;\n    }}\n}}");
}
