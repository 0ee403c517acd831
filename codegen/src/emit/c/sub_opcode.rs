//! What a sub-word's header adds (RDMA_DESC_GEN within EXTENDED): its envelope's header,
//! the sub-opcode value, layout checks that the selector sits where the envelope has it,
//! and `<stem>_is_sub_opcode`, which tells from an envelope whether it is this word.

use std::fmt::Write as _;

use super::util::{doc, static_assert, stem, word_header};
use crate::model::*;

/// The envelope whose header a sub-word's header includes.
pub(super) fn envelope<'m>(model: &'m Model, w: &TypeDef) -> Option<&'m TypeDef> {
    let s = w.opcode()?.sub.as_ref()?;
    model.words().find(|e| e.name == s.envelope)
}

/// The sub-opcode define, asserts and predicate; empty for any other word.
pub(super) fn checks(model: &Model, w: &TypeDef) -> String {
    let mut out = String::new();
    let (Some(op), Some(env)) = (w.opcode(), envelope(model, w)) else {
        return out;
    };
    let Some(s) = &op.sub else { return out };
    let (st, env_c) = (stem(w), &env.c_name);
    let enumerator = field_type(model, env, &s.field)
        .and_then(|t| match &t.kind {
            TypeKind::Enum { values, .. } => values.iter().find(|v| v.name == s.enumerator),
            _ => None,
        })
        .map(|v| v.c_name.clone());
    doc(
        &mut out,
        "",
        &[format!(
            "Sub-opcode of {} within {env_c} as a number, for the preprocessor (`#if`).",
            w.c_name
        )],
    );
    let _ = writeln!(out, "#define {st}_SUB_OPCODE_VALUE {}", s.value);
    // The enumerator, where there is one: it assigns to an enum-typed field in C++ too.
    doc(
        &mut out,
        "",
        &[format!(
            "Sub-opcode of {} within {env_c}: `{}` (byte {}) == {}.",
            w.c_name, s.field, s.offset, s.enumerator
        )],
    );
    let _ = writeln!(
        out,
        "#define {st}_SUB_OPCODE {}",
        enumerator
            .clone()
            .unwrap_or_else(|| format!("{st}_SUB_OPCODE_VALUE"))
    );
    static_assert(
        &mut out,
        &format!(
            "{st}_SUB_OPCODE_VALUE == {}",
            enumerator.unwrap_or_else(|| s.value.to_string())
        ),
        &format!("{st}_SUB_OPCODE_VALUE is {}", s.enumerator),
    );
    for c in [&w.c_name, env_c] {
        static_assert(
            &mut out,
            &format!("offsetof({c}, {}) == {}", s.field, s.offset),
            &format!("{c}.{} at offset {}", s.field, s.offset),
        );
    }
    let test: Vec<String> = std::iter::once(format!("b[0] == 0x{:02x}", op.value))
        .chain(
            s.bytes()
                .iter()
                .enumerate()
                .map(|(i, v)| format!("b[{}] == 0x{v:02x}", s.offset + i)),
        )
        .collect();
    doc(
        &mut out,
        "",
        &[format!(
            "True when the envelope word `e` is a {}: opcode 0x{:02x} and `{}` == {}. Other \
             sub-opcodes stay {env_c}.",
            w.c_name, op.value, s.field, s.value
        )],
    );
    let _ = write!(
        out,
        "static inline bool {st}_is_sub_opcode(const {env_c} *e) {{\n    \
         const uint8_t *b = (const uint8_t *)e;\n    return {};\n}}\n",
        test.join(" && ")
    );
    out
}

/// The envelope's header file, for a sub-word's `#include`.
pub(super) fn include(model: &Model, w: &TypeDef) -> Option<String> {
    envelope(model, w).map(word_header)
}

/// The named type of `owner`'s field `field`.
fn field_type<'m>(model: &'m Model, owner: &TypeDef, field: &str) -> Option<&'m TypeDef> {
    let TypeKind::Struct { fields, .. } = &owner.kind else {
        return None;
    };
    match &fields.iter().find(|f| f.name == field)?.ty {
        TypeRef::Named { index, .. } => Some(model.ty(*index)),
        _ => None,
    }
}
