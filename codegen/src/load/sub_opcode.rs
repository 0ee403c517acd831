//! Words chosen by opcode and a sub-opcode field. A sub-word (RDMA_DESC_GEN) shares its
//! envelope's opcode (EXTENDED_INST 0xf0) and is told apart by the value of one of the
//! envelope's fields (`extended_opcode`); any other value decodes as the envelope.

use std::collections::BTreeMap;
use std::ops::Range;

use super::{Decl, FileId, Loader};
use crate::diagnostics::suggest;
use crate::model::*;
use crate::schema::RawSubOpcode;

impl Loader {
    /// Resolves every `sub_opcode` once opcodes are bound (after `check_words`): the
    /// envelope, the selector field in both words, the value, and its uniqueness.
    pub(super) fn check_sub_opcodes(&mut self, decls: &[(FileId, Decl)], model: &mut Model) {
        let mut seen: BTreeMap<(String, String, u64), String> = BTreeMap::new();
        let subs: Vec<&String> = decls
            .iter()
            .filter_map(|(_, d)| match d {
                Decl::Struct(r) if r.sub_opcode.is_some() => Some(r.name.get_ref()),
                _ => None,
            })
            .collect();
        for (at, d) in decls {
            let Decl::Struct(r) = d else { continue };
            let Some(s) = &r.sub_opcode else { continue };
            let Some(index) = model.types.iter().position(|t| &t.name == r.name.get_ref()) else {
                continue;
            };
            let Some(sub) = self.sub_opcode(*at, s, &model.types[index], model, &subs) else {
                continue;
            };
            let TypeKind::Struct {
                opcode: Some(o),
                arch,
                fields,
                ..
            } = &mut model.types[index].kind
            else {
                continue;
            };
            for a in arch.iter() {
                let key = (sub.envelope.clone(), a.clone(), sub.value);
                if let Some(other) = seen.insert(key, r.name.get_ref().clone()) {
                    self.err(
                        *at,
                        s.value.span(),
                        format!(
                            "sub-opcode `{}` of `{}` is already bound to `{other}` in architecture \
                             `{a}`: give one of them another value, or limit their `arch` lists \
                             so that they do not meet",
                            sub.enumerator, sub.envelope
                        ),
                    );
                }
            }
            // The selector is a constant of the sub-word: `new()` and encode write it.
            if let Some(f) = fields.iter_mut().find(|f| f.name == sub.field) {
                f.constant = Some(sub.value);
            }
            o.sub = Some(sub);
        }
    }

    fn sub_opcode(
        &mut self,
        at: FileId,
        s: &RawSubOpcode,
        word: &TypeDef,
        model: &Model,
        subs: &[&String],
    ) -> Option<SubOpcode> {
        let name = &word.name;
        let (Some(op), TypeKind::Struct { arch, fields, .. }) = (word.opcode(), &word.kind) else {
            self.err(
                at,
                s.envelope.span(),
                format!(
                    "`{name}` has a `sub_opcode` but no `opcode`: bind it to its envelope's opcode"
                ),
            );
            return None;
        };
        let env_name = s.envelope.get_ref();
        let Some(env) = model.words().find(|w| &w.name == env_name) else {
            let words = model.words().map(|w| w.name.as_str());
            self.err_unknown(
                at,
                s.envelope.span(),
                env_name,
                format!(
                    "envelope `{env_name}` of `{name}` is not a word{}",
                    suggest(env_name, words)
                ),
            );
            return None;
        };
        let (
            Some(env_op),
            TypeKind::Struct {
                arch: env_arch,
                fields: env_fields,
                ..
            },
        ) = (env.opcode(), &env.kind)
        else {
            return None;
        };
        if subs.contains(&env_name) {
            self.err(
                at,
                s.envelope.span(),
                format!("envelope `{env_name}` is itself a sub-word: name the word it belongs to"),
            );
            return None;
        }
        if op.value != env_op.value {
            self.err(
                at,
                s.envelope.span(),
                format!(
                    "`{name}` has opcode {:#04x} but its envelope `{env_name}` has {:#04x}: bind \
                     `{name}` to `opcode = \"{}\"`",
                    op.value, env_op.value, env_op.enumerator
                ),
            );
        }
        let wider: Vec<&String> = arch.iter().filter(|a| !env_arch.contains(a)).collect();
        if let Some(a) = wider.first() {
            self.err(
                at,
                s.envelope.span(),
                format!(
                    "`{name}` ships in architecture `{a}`, where its envelope `{env_name}` does \
                     not: limit `{name}`'s `arch` to {}",
                    list(env_arch)
                ),
            );
        }
        let field_name = s.field.get_ref();
        let field_span: Range<usize> = s.field.span();
        let Some(env_field) = env_fields.iter().find(|f| &f.name == field_name) else {
            self.err(
                at,
                field_span,
                format!(
                    "envelope `{env_name}` has no field `{field_name}`{}",
                    suggest(field_name, env_fields.iter().map(|f| f.name.as_str()))
                ),
            );
            return None;
        };
        let Some(own) = fields.iter().find(|f| &f.name == field_name) else {
            self.err(
                at,
                field_span,
                format!(
                    "`{name}` has no field `{field_name}`: declare it as its envelope does, at \
                     offset {} with type `{}`",
                    env_field.offset,
                    env_field.ty.spelling()
                ),
            );
            return None;
        };
        if (own.offset, own.size, &own.ty) != (env_field.offset, env_field.size, &env_field.ty) {
            self.err(
                at,
                field_span,
                format!(
                    "`{name}.{field_name}` is `{}` at offset {}, size {}, but its envelope's is \
                     `{}` at offset {}, size {}: declare it as the envelope does",
                    own.ty.spelling(),
                    own.offset,
                    own.size,
                    env_field.ty.spelling(),
                    env_field.offset,
                    env_field.size
                ),
            );
            return None;
        }
        let TypeRef::Named { index, .. } = &env_field.ty else {
            self.err(
                at,
                field_span,
                format!(
                    "sub-opcode field `{field_name}` is `{}`; it must be an enum, whose \
                     enumerators name the sub-opcodes",
                    env_field.ty.spelling()
                ),
            );
            return None;
        };
        let enum_def = &model.types[*index];
        let TypeKind::Enum { values, .. } = &enum_def.kind else {
            self.err(
                at,
                field_span,
                format!(
                    "sub-opcode field `{field_name}` is `{}`, not an enum; its enumerators must \
                     name the sub-opcodes",
                    enum_def.name
                ),
            );
            return None;
        };
        let want = s.value.get_ref();
        let Some(e) = values
            .iter()
            .find(|e| &e.name == want || e.aliases.iter().any(|a| &a.name == want))
        else {
            let names = values
                .iter()
                .flat_map(|e| std::iter::once(&e.name).chain(e.aliases.iter().map(|a| &a.name)));
            self.err(
                at,
                s.value.span(),
                format!(
                    "`{want}` is not an enumerator of `{}`{}",
                    enum_def.name,
                    suggest(want, names.map(String::as_str))
                ),
            );
            return None;
        };
        if let Some(a) = arch
            .iter()
            .find(|a| !e.arch.is_empty() && !e.arch.contains(a))
        {
            self.err(
                at,
                s.value.span(),
                format!(
                    "enumerator `{}` is not in architecture `{a}`, where `{name}` ships: limit \
                     `{name}`'s `arch` to {}",
                    e.name,
                    list(&e.arch)
                ),
            );
        }
        Some(SubOpcode {
            envelope: env_name.clone(),
            field: field_name.clone(),
            offset: own.offset,
            size: own.size,
            enumerator: e.name.clone(),
            value: e.value,
        })
    }
}

/// `["a", "b"]` as `` `a`, `b` ``.
fn list(archs: &[String]) -> String {
    archs
        .iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
