//! The word declarations: enums, flags, bitfields, unions and structs, and the checks that
//! need every type resolved (opcodes, bit widths of enums in bit ranges).

use std::collections::BTreeMap;

use serde_spanned::Spanned;

use super::members::max_of;
use super::names::c_prefix;
use super::names::check_ident;
use super::nesting::{self, Room};
use super::provenance::source_id;
use super::{Decl, FileId, Loader, Scope};
use crate::diagnostics::suggest;
use crate::model::*;
use crate::naming::c;
use crate::schema::*;

impl Loader {
    // ---- declarations --------------------------------------------------------------

    pub(super) fn enum_def(&mut self, at: FileId, r: &RawEnum, scope: &Scope) -> TypeDef {
        let repr = self.int_repr(at, &r.repr);
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let prefix = c_prefix(&r.c_prefix, &r.c_name);
        let max = max_of(repr);
        let mut values: Vec<Enumerator> = Vec::new();
        for v in &r.values {
            check_ident(self, at, &v.name);
            let taken = values.iter().any(|x| &x.name == v.name.get_ref());
            if self.duplicate_in(at, &v.name, "enumerator", r.name.get_ref(), taken) {
                continue;
            }
            if *v.value.get_ref() > max {
                self.err(
                    at,
                    v.value.span(),
                    format!(
                        "enumerator `{}` = {:#x} does not fit `{}`'s repr {} (max {max:#x})",
                        v.name.get_ref(),
                        v.value.get_ref(),
                        r.name.get_ref(),
                        repr.rust()
                    ),
                );
            }
            let arch = self.arch_list(at, &v.arch, scope);
            let aliases = self.aliases(at, &v.aliases, scope, |a| format!("{prefix}{a}"));
            values.push(Enumerator {
                name: v.name.get_ref().clone(),
                value: *v.value.get_ref(),
                c_name: format!("{prefix}{}", v.name.get_ref()),
                doc: v.doc.clone(),
                arch,
                aliases,
                engine: v.engine.clone(),
            });
        }
        self.type_def(
            at,
            &r.name,
            &r.c_name,
            repr.size(),
            &r.doc,
            confidence,
            evidence,
            TypeKind::Enum { repr, values },
        )
    }

    /// Other names of an enumerator or word: each cites its source, or says it is ours.
    /// `c_name` spells an alias in C.
    fn aliases(
        &mut self,
        at: FileId,
        raw: &[RawAlias],
        scope: &Scope,
        c_name: impl Fn(&str) -> String,
    ) -> Vec<Alias> {
        raw.iter()
            .map(|a| {
                check_ident(self, at, &a.name);
                let name = a.name.get_ref();
                match (&a.source, a.ours) {
                    (Some(s), true) => self.err(at, s.span(), format!(
                        "alias `{name}` has a `source` and `ours = true`: a name a source uses is \
                         not the spec's own")),
                    (None, false) => self.err(at, a.name.span(), format!(
                        "alias `{name}` needs a `source` that spells it so, or `ours = true` for \
                         a name the spec coined")),
                    (Some(s), false) => {
                        let id = source_id(s.get_ref());
                        if !scope.sources.contains_key(id) {
                            let hint = suggest(id, scope.sources.keys().map(String::as_str));
                            self.err(at, s.span(), format!("unknown source `{id}`{hint}"));
                        }
                    }
                    (None, true) => {}
                }
                Alias {
                    name: name.clone(),
                    c_name: c_name(name),
                    source: a.source.as_ref().map(|s| s.get_ref().clone()),
                    note: a.note.clone(),
                    section: a
                        .source
                        .as_ref()
                        .and_then(|s| self.cited_section(at, s, scope)),
                }
            })
            .collect()
    }

    pub(super) fn flags_def(&mut self, at: FileId, r: &RawFlags, scope: &Scope) -> TypeDef {
        let repr = self.int_repr(at, &r.repr);
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let prefix = c_prefix(&r.c_prefix, &r.c_name);
        let mut bits: Vec<FlagBit> = Vec::new();
        for b in &r.bits {
            check_ident(self, at, &b.name);
            let taken = bits.iter().any(|x| &x.name == b.name.get_ref());
            if self.duplicate(at, &b.name, "flag", taken) {
                continue;
            }
            if *b.bit.get_ref() >= u64::from(repr.bits()) {
                self.err(
                    at,
                    b.bit.span(),
                    format!(
                        "flag `{}` is bit {} but `{}` is only {} bits wide",
                        b.name.get_ref(),
                        b.bit.get_ref(),
                        r.name.get_ref(),
                        repr.bits()
                    ),
                );
                continue;
            }
            if bits.iter().any(|x| u64::from(x.bit) == *b.bit.get_ref()) {
                self.err(
                    at,
                    b.bit.span(),
                    format!("bit {} is named twice", b.bit.get_ref()),
                );
            }
            bits.push(FlagBit {
                name: b.name.get_ref().clone(),
                bit: *b.bit.get_ref() as u32,
                c_name: format!("{prefix}{}", b.name.get_ref()),
                doc: b.doc.clone(),
            });
        }
        self.type_def(
            at,
            &r.name,
            &r.c_name,
            repr.size(),
            &r.doc,
            confidence,
            evidence,
            TypeKind::Flags {
                repr,
                none: r.none.clone(),
                bits,
            },
        )
    }

    pub(super) fn bitfield_def(&mut self, at: FileId, r: &RawBitfield, scope: &Scope) -> TypeDef {
        let repr = self.bitfield_repr(at, &r.repr);
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let width = repr.bits();
        let mut fields: Vec<BitField> = Vec::new();
        let mut taken = vec![None::<String>; width as usize];
        // A sub-field whose range is unusable claims no bits, so gaps are not reported.
        let mut rejected = false;
        for b in &r.fields {
            check_ident(self, at, &b.name);
            let dup = fields.iter().any(|x| &x.name == b.name.get_ref());
            self.duplicate_in(at, &b.name, "sub-field", r.name.get_ref(), dup);
            let Some((lsb, msb)) = parse_bits(b.bits.get_ref()) else {
                self.err(
                    at,
                    b.bits.span(),
                    format!(
                        "bit range `{}` is not `N` or `LO..HI` (inclusive, LO <= HI){}",
                        b.bits.get_ref(),
                        bits_hint(b.bits.get_ref())
                    ),
                );
                self.broken_member(b.name.get_ref());
                rejected = true;
                continue;
            };
            if msb >= width {
                self.err(
                    at,
                    b.bits.span(),
                    format!(
                        "bits {lsb}..{msb} of `{}` lie outside its {width}-bit container `{}`",
                        b.name.get_ref(),
                        r.name.get_ref()
                    ),
                );
                self.broken_member(b.name.get_ref());
                rejected = true;
                continue;
            }
            // Report the first clash only, but claim every free bit of the range so that
            // the gap check below does not also call them undeclared.
            let mut clash = None;
            for bit in lsb..=msb {
                match &taken[bit as usize] {
                    Some(other) => {
                        clash = clash.or_else(|| Some((bit, other.clone())));
                    }
                    None => taken[bit as usize] = Some(b.name.get_ref().clone()),
                }
            }
            if let Some((bit, other)) = clash {
                self.err(
                    at,
                    b.bits.span(),
                    format!("bit {bit} of `{}` is also in `{other}`", b.name.get_ref()),
                );
            }
            let bw = msb - lsb + 1;
            let ty = match &b.ty {
                None => BitsType::Uint,
                Some(t) => self.bits_type(at, t, bw, scope),
            };
            let role = match (b.reserved, b.unknown) {
                (true, _) => Role::Reserved,
                (false, true) => Role::Unknown,
                _ => Role::Data,
            };
            let conf = self.confidence_or(at, &b.confidence, &confidence, scope);
            if b.evidence.is_empty() && role != Role::Unknown && r.evidence.is_empty() {
                let what = format!("sub-field `{}`", b.name.get_ref());
                self.missing_evidence(at, b.name.span(), &what);
            }
            let ev = self.evidence(at, &b.evidence, &conf, scope);
            let room = Room::of("bitfield", repr.size(), r.name.get_ref());
            let alternatives = self.alternatives(at, &b.alternatives, scope, &room);
            let constant = b.constant.as_ref().and_then(|c| {
                let fits = bw >= 64 || *c.get_ref() < (1u64 << bw);
                if !fits {
                    self.err(
                        at,
                        c.span(),
                        format!(
                            "constant {:#x} does not fit the {bw}-bit sub-field `{}`",
                            c.get_ref(),
                            b.name.get_ref()
                        ),
                    );
                }
                fits.then_some(*c.get_ref())
            });
            fields.push(BitField {
                name: b.name.get_ref().clone(),
                lsb,
                width: bw,
                ty,
                doc: b.doc.clone().unwrap_or_default(),
                role,
                confidence: conf,
                evidence: ev,
                alternatives,
                constant,
            });
        }
        if let Some(gap) = taken.iter().position(Option::is_none).filter(|_| !rejected) {
            let end = taken[gap..]
                .iter()
                .position(Option::is_some)
                .map_or(width, |n| gap as u32 + n as u32);
            self.err(
                at,
                r.name.span(),
                format!(
                    "bits {gap}..{} of `{}` are not declared: add a sub-field or mark them \
                     `reserved = true` or `unknown = true`",
                    end - 1,
                    r.name.get_ref()
                ),
            );
        }
        fields.sort_by_key(|f| f.lsb);
        self.type_def(
            at,
            &r.name,
            &r.c_name,
            repr.size(),
            &r.doc,
            confidence,
            evidence,
            TypeKind::Bitfield { repr, fields },
        )
    }

    fn bits_type(
        &mut self,
        at: FileId,
        t: &Spanned<String>,
        width: u32,
        scope: &Scope,
    ) -> BitsType {
        let Some(&index) = scope.types.get(t.get_ref()) else {
            let hint = suggest(t.get_ref(), scope.types.keys().map(String::as_str));
            self.err(
                at,
                t.span(),
                format!("unknown type `{}`{hint}", t.get_ref()),
            );
            return BitsType::Uint;
        };
        if !matches!(scope.kinds[index], "enum" | "flags") {
            self.err(
                at,
                t.span(),
                format!(
                    "a bit range holds an unsigned value, an enum or flags; `{}` is a {}",
                    t.get_ref(),
                    scope.kinds[index]
                ),
            );
        }
        // Enumerator widths are checked in `check_words`, once every enum is resolved.
        let _ = width;
        BitsType::Named {
            name: t.get_ref().clone(),
            index,
        }
    }

    pub(super) fn union_def(&mut self, at: FileId, r: &RawUnion, scope: &Scope) -> TypeDef {
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let size = *r.size.get_ref() as usize;
        let room = Room::of("union", size, r.name.get_ref());
        let (mut discriminator, _) = self.field(at, &r.discriminator, &confidence, scope, &room);
        let discriminator_size = discriminator.size;
        nesting::fit(&mut discriminator, size);
        let mut variants: Vec<Variant> = Vec::new();
        let mut defaults = 0;
        for v in &r.variant {
            check_ident(self, at, &v.name);
            let taken = variants.iter().any(|x| &x.name == v.name.get_ref())
                || v.name.get_ref() == &discriminator.name;
            self.duplicate_in(at, &v.name, "name", r.name.get_ref(), taken);
            let vconf = self.confidence(at, &v.confidence, scope);
            let vev = self.evidence(at, &v.evidence, &vconf, scope);
            let owner = format!("{}.{}", r.name.get_ref(), v.name.get_ref());
            let fields = self.fields(
                at,
                &v.field,
                Some((&r.discriminator, discriminator_size)),
                &room,
                &owner,
                &vconf,
                scope,
            );
            let (mask, value) =
                match (v.default, &v.mask, &v.value) {
                    (true, None, None) => {
                        defaults += 1;
                        (None, None)
                    }
                    (false, Some(m), Some(val)) => {
                        if val.get_ref() & !m.get_ref() != 0 {
                            self.err(at, val.span(), format!(
                            "value {:#x} has bits outside mask {:#x}: the arm could never match",
                            val.get_ref(), m.get_ref()));
                        }
                        (Some(*m.get_ref()), Some(*val.get_ref()))
                    }
                    _ => {
                        self.err(at, v.name.span(), format!(
                        "arm `{}` needs either `mask` and `value`, or `default = true` alone",
                        v.name.get_ref()));
                        (None, None)
                    }
                };
            variants.push(Variant {
                name: v.name.get_ref().clone(),
                mask,
                value,
                doc: v.doc.clone(),
                confidence: vconf,
                evidence: vev,
                fields,
            });
        }
        if defaults != 1 {
            self.err(
                at,
                r.name.span(),
                format!(
                    "union `{}` needs exactly one `default = true` arm (it has {defaults}) so that \
                 every discriminator value decodes",
                    r.name.get_ref()
                ),
            );
        }
        self.type_def(
            at,
            &r.name,
            &r.c_name,
            size,
            &r.doc,
            confidence,
            evidence,
            TypeKind::Union {
                discriminator,
                variants,
            },
        )
    }

    pub(super) fn struct_def(&mut self, at: FileId, r: &RawStruct, scope: &Scope) -> TypeDef {
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let size = *r.size.get_ref() as usize;
        let room = match r.opcode {
            Some(_) => Room::of("word", size.min(nesting::WORD_SIZE), r.name.get_ref()),
            None => Room::of("struct", size, r.name.get_ref()),
        };
        let fields = self.fields(
            at,
            &r.field,
            None,
            &room,
            r.name.get_ref(),
            &confidence,
            scope,
        );
        if r.field.is_empty() && size > 0 {
            // `check_tiling` reports gaps between and after members; with none there is
            // no member to point at, so point at the struct.
            self.err(
                at,
                r.name.span(),
                format!(
                    "bytes 0..{size} of `{}` are not declared: add a field there, or mark \
                     them `reserved = true` or `unknown = true`",
                    r.name.get_ref()
                ),
            );
        }
        let mut fields = fields;
        fields.sort_by_key(|f| f.offset);
        let joins = self.joins(at, &r.join, &fields, &confidence, scope);
        let alternatives = self.alternatives(at, &r.alternatives, scope, &room);
        let arch = match &r.arch {
            Some(_) => self.arch_list(at, &r.arch, scope),
            None => scope.archs.clone(),
        };
        // The opcode value is filled in by `check_words` once OPCODE is resolved.
        let opcode = r.opcode.as_ref().map(|o| Opcode {
            value: 0,
            enumerator: o.get_ref().clone(),
            sub: None,
        });
        let name = r.name.get_ref();
        let aliases = self.aliases(at, &r.aliases, scope, |a| c::word_alias(&r.c_name, name, a));
        if !r.aliases.is_empty() && !r.c_name.contains(name.as_str()) {
            self.err(
                at,
                r.name.span(),
                format!(
                    "`{name}` has aliases, so its C name must contain its name (`{}` does not) to \
                 spell them in C",
                    r.c_name
                ),
            );
        }
        let top_level = self.top_level(at, r);
        if r.opcode.is_some() && size != nesting::WORD_SIZE {
            self.err(at, r.size.span(), format!(
                "`{}` is bound to an opcode, so it is a 64-byte instruction word; size is {size}",
                r.name.get_ref()));
        }
        self.type_def(
            at,
            &r.name,
            &r.c_name,
            size,
            &r.doc,
            confidence,
            evidence,
            TypeKind::Struct {
                fields,
                opcode,
                arch,
                arch_inferred: r.arch.is_none(),
                follows: r
                    .follows
                    .as_ref()
                    .map_or(Vec::new(), |f| f.get_ref().names()),
                top_level,
                aliases,
                joins,
                alternatives,
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn type_def(
        &mut self,
        at: FileId,
        name: &Spanned<String>,
        c_name: &str,
        size: usize,
        doc: &str,
        confidence: Confidence,
        evidence: Vec<Evidence>,
        kind: TypeKind,
    ) -> TypeDef {
        check_ident(self, at, name);
        if evidence.is_empty() {
            self.missing_evidence(at, name.span(), &format!("`{}`", name.get_ref()));
        }
        let file = &self.files[at.0];
        TypeDef {
            name: name.get_ref().clone(),
            c_name: c_name.to_string(),
            size,
            doc: doc.trim().to_string(),
            confidence,
            evidence,
            file: file.relative(&self.root),
            line: file.line_of(name.span().start),
            kind,
        }
    }

    /// Checks that need every type resolved: opcodes, architectures, bit widths of enums
    /// placed in bit ranges, positional extensions.
    pub(super) fn check_words(&mut self, decls: &[(FileId, Decl)], model: &mut Model) {
        let opcode_enum: Option<Vec<Enumerator>> =
            model
                .types
                .iter()
                .find_map(|t| match (&t.kind, t.name.as_str()) {
                    (TypeKind::Enum { values, .. }, "OPCODE") => Some(values.clone()),
                    _ => None,
                });
        let mut seen: BTreeMap<(String, u8), String> = BTreeMap::new();
        let names: Vec<String> = model.types.iter().map(|t| t.name.clone()).collect();
        for (at, d) in decls {
            let Some(index) = names.iter().position(|n| n == d.name().get_ref()) else {
                continue;
            };
            match d {
                Decl::Struct(r) => {
                    let Some(op) = &r.opcode else {
                        if let Some(f) = &r.follows {
                            self.err(
                                *at,
                                f.span(),
                                "`follows` is only for words bound to an opcode",
                            );
                        }
                        continue;
                    };
                    let Some(values) = &opcode_enum else {
                        self.err(
                            *at,
                            op.span(),
                            "words name their opcode from the `OPCODE` enum, which is not declared",
                        );
                        continue;
                    };
                    let e = match opcode_named(values, op.get_ref()) {
                        Ok(e) => e,
                        Err(message) => {
                            self.err(*at, op.span(), message);
                            continue;
                        }
                    };
                    let value = e.value as u8;
                    let enumerator = e.name.clone();
                    if let TypeKind::Struct {
                        opcode: Some(o),
                        arch,
                        follows,
                        ..
                    } = &mut model.types[index].kind
                    {
                        o.value = value;
                        o.enumerator = enumerator;
                        // Sub-words share their envelope's opcode: `check_sub_opcodes`.
                        for a in arch.iter().filter(|_| r.sub_opcode.is_none()) {
                            if let Some(other) =
                                seen.insert((a.clone(), value), r.name.get_ref().clone())
                            {
                                self.err(*at, op.span(), format!(
                                    "opcode {value:#04x} is already bound to `{other}` in architecture `{a}`"));
                            }
                        }
                        if let Some(span) = r.follows.as_ref().map(Spanned::span) {
                            if follows.is_empty() {
                                self.err(*at, span.clone(), "`follows` lists no word");
                            }
                            for f in follows.iter().filter(|f| !names.contains(f)) {
                                let message = format!(
                                    "`follows` names unknown word `{f}`{}",
                                    suggest(f, names.iter().map(String::as_str))
                                );
                                self.err_unknown(*at, span.clone(), f, message);
                            }
                        }
                    }
                    let leaves = model.leaves(&model.types[index]);
                    // The member at byte 0 of a type that did not resolve: that error stands.
                    let unresolved_0 = (r.field.iter())
                        .filter(|f| *f.off.get_ref() == 0)
                        .filter_map(|f| f.ty.as_ref())
                        .any(|t| {
                            let base = t.get_ref().split('[').next().unwrap_or_default().trim();
                            Int::parse(base).is_none() && !names.iter().any(|n| n == base)
                        });
                    if !unresolved_0
                        && !leaves
                            .first()
                            .is_some_and(|l| l.offset == 0 && l.type_name == "OPCODE")
                    {
                        self.err(*at, r.name.span(), format!(
                            "word `{}` must carry its opcode at byte 0 (a field of type OPCODE, \
                             directly or as the first member of its header)", r.name.get_ref()));
                    }
                }
                Decl::Bitfield(r) => {
                    let TypeKind::Bitfield { fields, .. } = &model.types[index].kind else {
                        continue;
                    };
                    for b in fields {
                        let BitsType::Named { index: ti, name } = &b.ty else {
                            continue;
                        };
                        // Sub-fields rejected earlier are not in `fields`, so find this one's
                        // declaration by name and position rather than by index.
                        let Some(raw) = r.fields.iter().find(|x| {
                            x.name.get_ref() == &b.name
                                && parse_bits(x.bits.get_ref()).is_some_and(|(lsb, _)| lsb == b.lsb)
                        }) else {
                            continue;
                        };
                        let too_wide = match &model.types[*ti].kind {
                            TypeKind::Enum { values, .. } => values
                                .iter()
                                .find(|v| v.value > b.mask())
                                .map(|v| format!("enumerator `{}` = {:#x}", v.name, v.value)),
                            TypeKind::Flags { bits, .. } => bits
                                .iter()
                                .find(|f| f.bit >= b.width)
                                .map(|f| format!("flag `{}` (bit {})", f.name, f.bit)),
                            _ => None,
                        };
                        if let Some(what) = too_wide
                            && let Some(span) = raw.ty.as_ref().map(Spanned::span)
                        {
                            self.err(
                                *at,
                                span,
                                format!(
                                    "{what} of `{name}` does not fit the {}-bit sub-field `{}`",
                                    b.width, b.name
                                ),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// `"3"` -> (3, 3); `"0..2"` -> (0, 2).
fn parse_bits(s: &str) -> Option<(u32, u32)> {
    let s = s.trim();
    let (lo, hi) = match s.split_once("..") {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let n = s.parse().ok()?;
            (n, n)
        }
    };
    (lo <= hi).then_some((lo, hi))
}

/// `"; did you mean `0..2`?"` for a range written `0-2` or `0:2`, `2..0` or `2-0`.
fn bits_hint(s: &str) -> String {
    let Some((a, b)) = s.split_once("..").or_else(|| s.split_once(['-', ':'])) else {
        return String::new();
    };
    let (a, b) = (a.trim(), b.trim());
    [format!("{a}..{b}"), format!("{b}..{a}")]
        .into_iter()
        .find(|r| parse_bits(r).is_some())
        .map_or(String::new(), |r| format!("; did you mean `{r}`?"))
}

/// The `OPCODE` enumerator (of `values`) named `op` by its name or an alias; the error
/// when none is.
pub(super) fn opcode_named<'v>(
    values: &'v [Enumerator],
    op: &str,
) -> Result<&'v Enumerator, String> {
    let found = values
        .iter()
        .find(|e| e.name == op || e.aliases.iter().any(|a| a.name == op));
    found.ok_or_else(|| {
        let names = values
            .iter()
            .flat_map(|e| std::iter::once(&e.name).chain(e.aliases.iter().map(|a| &a.name)));
        format!(
            "`{op}` is not an `OPCODE` enumerator{}",
            suggest(op, names.map(String::as_str))
        )
    })
}
