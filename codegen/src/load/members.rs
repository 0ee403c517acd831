//! Byte-placed members: field types, sizes, constants, codecs, joins, alternative
//! readings, and the check that a struct's or arm's members tile it exactly.

use std::collections::HashMap;

use serde_spanned::Spanned;

use super::names::check_ident;
use super::nesting::{self, Room};
use super::{FileId, Loader, Scope};
use crate::diagnostics::{sorted_keys, suggest_or_list};
use crate::model::*;
use crate::schema::*;

impl Loader {
    /// A bitfield's container: an integer type, or `u24` (three bytes).
    pub(super) fn bitfield_repr(&mut self, at: FileId, repr: &Spanned<String>) -> Int {
        match repr.get_ref().as_str() {
            "u24" => Int::U24,
            _ => self.int_repr(at, repr),
        }
    }

    pub(super) fn int_repr(&mut self, at: FileId, repr: &Spanned<String>) -> Int {
        Int::parse(repr.get_ref()).unwrap_or_else(|| {
            self.err(
                at,
                repr.span(),
                format!(
                    "`{}` is not an integer type (u8, u16, u32, u64, i8, i16, i32, i64)",
                    repr.get_ref()
                ),
            );
            Int::U8
        })
    }

    /// Parses `T` or `T[N]` (nesting allowed: `u8[2][3]`).
    fn type_ref(
        &mut self,
        at: FileId,
        ty: &Spanned<String>,
        scope: &Scope,
        room: &Room,
    ) -> Option<TypeRef> {
        let text = ty.get_ref().trim();
        match parse_type(text, scope, room) {
            Ok(t) => Some(t),
            Err(msg) => {
                self.err(at, ty.span(), msg);
                None
            }
        }
    }

    pub(super) fn alternatives(
        &mut self,
        at: FileId,
        raw: &[RawAlternative],
        scope: &Scope,
        primary: &Room,
    ) -> Vec<Alternative> {
        let primary_size = primary.size;
        raw.iter()
            .map(|a| {
                let confidence = self.confidence(at, &a.confidence, scope);
                let ty =
                    a.ty.as_ref()
                        .and_then(|t| self.type_ref(at, t, scope, primary));
                if let (Some(t), Some(span)) = (&ty, a.ty.as_ref().map(Spanned::span)) {
                    let size = size_in(t, scope);
                    if size > primary_size && primary_size > 0 {
                        self.err(
                            at,
                            span,
                            format!(
                                "alternative reading `{}` is {size} bytes but the field is only \
                                 {primary_size}",
                                a.name.get_ref()
                            ),
                        );
                    }
                }
                if a.evidence.is_empty() {
                    self.err(
                        at,
                        a.name.span(),
                        format!(
                            "alternative reading `{}` needs at least one evidence record",
                            a.name.get_ref()
                        ),
                    );
                }
                let evidence = self.evidence(at, &a.evidence, &confidence, scope);
                Alternative {
                    name: a.name.get_ref().clone(),
                    ty,
                    doc: a.doc.clone(),
                    confidence,
                    evidence,
                }
            })
            .collect()
    }

    /// Resolves one byte-placed member (struct field, union discriminator or arm member).
    pub(super) fn field(
        &mut self,
        at: FileId,
        f: &RawField,
        parent: &Confidence,
        scope: &Scope,
        room: &Room,
    ) -> (Field, bool) {
        let role = match (f.reserved, f.unknown) {
            (true, true) => {
                self.err(
                    at,
                    f.name.span(),
                    "a field cannot be both `reserved` and `unknown`",
                );
                Role::Reserved
            }
            (true, false) => Role::Reserved,
            (false, true) => Role::Unknown,
            (false, false) => Role::Data,
        };
        let ty = match &f.ty {
            Some(t) => self.type_ref(at, t, scope, room),
            None if role != Role::Data => match &f.size {
                Some(s) => Some(TypeRef::Array {
                    elem: Box::new(TypeRef::Int { int: Int::U8 }),
                    len: *s.get_ref() as usize,
                }),
                None => {
                    self.err(
                        at,
                        f.name.span(),
                        format!(
                            "`{}` needs a `type` or a `size` (reserved and unknown bytes are \
                             kept as u8[size])",
                            f.name.get_ref()
                        ),
                    );
                    None
                }
            },
            None => {
                self.err(
                    at,
                    f.name.span(),
                    format!("field `{}` needs a `type`", f.name.get_ref()),
                );
                None
            }
        };
        let resolved = ty.is_some();
        if !resolved {
            self.broken_member(f.name.get_ref());
        }
        let ty = ty.unwrap_or(TypeRef::Array {
            elem: Box::new(TypeRef::Int { int: Int::U8 }),
            len: f.size.as_ref().map_or(1, |s| *s.get_ref() as usize),
        });
        let size = size_in(&ty, scope);
        if let Some(s) = &f.size
            && *s.get_ref() as usize != size
        {
            self.err(
                at,
                s.span(),
                format!(
                    "`{}` is declared {} bytes but its type `{}` is {size} bytes",
                    f.name.get_ref(),
                    s.get_ref(),
                    ty.spelling()
                ),
            );
        }
        let confidence = self.confidence_or(at, &f.confidence, parent, scope);
        if f.evidence.is_empty() && role != Role::Unknown {
            self.err(
                at,
                f.name.span(),
                format!(
                    "field `{}` has no evidence: cite at least one source (or mark the bytes \
                     `unknown = true`)",
                    f.name.get_ref()
                ),
            );
        }
        let evidence = self.evidence(at, &f.evidence, &confidence, scope);
        let alternatives = self.alternatives(
            at,
            &f.alternatives,
            scope,
            &Room::of("field", size, f.name.get_ref()),
        );
        check_ident(self, at, &f.name);
        let constant = f
            .constant
            .as_ref()
            .and_then(|c| self.constant(at, c, &ty, scope));
        let codec = f.codec.as_ref().and_then(|c| self.codec(at, c, &ty));
        let field = Field {
            name: f.name.get_ref().clone(),
            offset: *f.off.get_ref() as usize,
            size,
            ty,
            doc: f.doc.clone().unwrap_or_default(),
            role,
            confidence,
            evidence,
            alternatives,
            constant,
            codec,
        };
        (field, resolved)
    }

    /// A constant must sit on a scalar (integer, enum or flags) and fit it.
    fn constant(
        &mut self,
        at: FileId,
        c: &Spanned<u64>,
        ty: &TypeRef,
        scope: &Scope,
    ) -> Option<u64> {
        let value = *c.get_ref();
        let int = match ty {
            TypeRef::Int { int } => Some(*int),
            TypeRef::Named { index, .. } if matches!(scope.kinds[*index], "enum" | "flags") => {
                scope.reprs[*index]
            }
            _ => None,
        };
        let Some(int) = int else {
            self.err(
                at,
                c.span(),
                format!(
                    "`const` needs an integer, enum or flags field; this one is `{}`",
                    ty.spelling()
                ),
            );
            return None;
        };
        if value > max_of(int) {
            self.err(
                at,
                c.span(),
                format!("constant {value:#x} does not fit `{}`", ty.spelling()),
            );
            return None;
        }
        Some(value)
    }

    fn codec(&mut self, at: FileId, c: &RawCodec, ty: &TypeRef) -> Option<Codec> {
        let value = *c.zero_means.get_ref();
        let TypeRef::Int { int } = ty else {
            self.err(
                at,
                c.zero_means.span(),
                format!(
                    "`codec` needs an unsigned integer field; this one is `{}`",
                    ty.spelling()
                ),
            );
            return None;
        };
        if int.signed() || value <= max_of(*int) {
            self.err(
                at,
                c.zero_means.span(),
                format!(
                    "`zero_means = {value}` must be a value `{}` cannot hold (above {:#x}); \
                     otherwise 0 is ambiguous",
                    int.rust(),
                    max_of(*int)
                ),
            );
            return None;
        }
        Some(Codec::ZeroMeans(value))
    }

    /// `[[struct.join]]`: parts must be unsigned integer fields of the struct, low first.
    pub(super) fn joins(
        &mut self,
        at: FileId,
        raw: &[RawJoin],
        fields: &[Field],
        parent: &Confidence,
        scope: &Scope,
    ) -> Vec<Join> {
        let mut out: Vec<Join> = Vec::new();
        for j in raw {
            check_ident(self, at, &j.name);
            if fields.iter().any(|f| &f.name == j.name.get_ref())
                || out.iter().any(|x| &x.name == j.name.get_ref())
            {
                self.err(
                    at,
                    j.name.span(),
                    format!("`{}` is already a field or join name", j.name.get_ref()),
                );
            }
            if j.parts.len() < 2 {
                self.err(
                    at,
                    j.name.span(),
                    format!("join `{}` needs at least two parts", j.name.get_ref()),
                );
            }
            let mut parts = Vec::new();
            let mut bits = 0;
            for p in &j.parts {
                match fields.iter().find(|f| &f.name == p.get_ref()) {
                    Some(Field {
                        ty: TypeRef::Int { int },
                        ..
                    }) if !int.signed() => {
                        bits += int.bits();
                        parts.push((p.get_ref().clone(), int.bits()));
                    }
                    Some(f) => self.err(
                        at,
                        p.span(),
                        format!(
                            "join part `{}` must be an unsigned integer field; it is `{}`",
                            p.get_ref(),
                            f.ty.spelling()
                        ),
                    ),
                    None => self.err(
                        at,
                        p.span(),
                        format!("join part `{}` is not a field of this struct", p.get_ref()),
                    ),
                }
            }
            if bits > 64 {
                self.err(
                    at,
                    j.name.span(),
                    format!("join `{}` spans {bits} bits; at most 64", j.name.get_ref()),
                );
            }
            let confidence = self.confidence_or(at, &j.confidence, parent, scope);
            let evidence = self.required_evidence(
                at,
                &j.evidence,
                &confidence,
                scope,
                j.name.span(),
                &format!("join `{}`", j.name.get_ref()),
            );
            out.push(Join {
                name: j.name.get_ref().clone(),
                parts,
                doc: j.doc.clone(),
                confidence,
                evidence,
            });
        }
        out
    }

    /// Byte-placed members must tile `0..size` exactly: no overlap, nothing past the end,
    /// every gap declared reserved or unknown.
    fn check_tiling(
        &mut self,
        at: FileId,
        members: &[(&RawField, usize)],
        size: usize,
        owner: &str,
    ) {
        let mut names: HashMap<&str, ()> = HashMap::new();
        for (f, _) in members {
            let taken = names.insert(f.name.get_ref(), ()).is_some();
            self.duplicate_in(at, &f.name, "field name", owner, taken);
        }
        let mut sorted: Vec<&(&RawField, usize)> = members.iter().collect();
        sorted.sort_by_key(|(f, _)| *f.off.get_ref());
        let mut cursor = 0usize;
        // The member that runs to `cursor`, and its offset.
        let mut prev: Option<(&str, usize)> = None;
        for (f, len) in sorted {
            let start = *f.off.get_ref() as usize;
            // Past the end of the address space is past the end of the owner too.
            let end = start.saturating_add(*len);
            if start < cursor {
                self.err(
                    at,
                    f.off.span(),
                    format!(
                        "`{}` at offset {start} overlaps `{}`, which runs to offset {cursor}",
                        f.name.get_ref(),
                        prev.map_or("?", |p| p.0)
                    ),
                );
                // Moving it past `prev` is a fix only if it then still fits.
                let room = cursor.checked_add(*len).is_some_and(|e| e <= size);
                let fix = |p| overlap_fix(p, (f.name.get_ref(), start), cursor, room);
                if let Some(note) = prev.map(fix)
                    && let Some(e) = self.errors.last_mut()
                {
                    e.notes.push(note);
                }
            } else if start.min(size) > cursor {
                // Past the end, only the bytes up to the end are a gap.
                let gap_end = start.min(size);
                self.err(
                    at,
                    f.off.span(),
                    format!(
                        "bytes {cursor}..{gap_end} of `{owner}` are not declared: add a field \
                         there, or mark them `reserved = true` or `unknown = true`"
                    ),
                );
            }
            if end > size {
                self.err(
                    at,
                    f.off.span(),
                    format!(
                        "`{}` (offset {start}, {}) runs past the end of `{owner}` ({})",
                        f.name.get_ref(),
                        crate::naming::plural(*len, "byte"),
                        crate::naming::plural(size, "byte")
                    ),
                );
            }
            if end > cursor {
                cursor = end;
                prev = Some((f.name.get_ref(), start));
            }
        }
        if cursor < size && !members.is_empty() {
            let last = members
                .iter()
                .max_by_key(|(f, _)| *f.off.get_ref())
                .map(|(f, _)| f);
            let span = last.map_or(0..0, |f| f.name.span());
            self.err(
                at,
                span,
                format!(
                    "bytes {cursor}..{size} of `{owner}` are not declared: add a field there, \
                     or mark them `reserved = true` or `unknown = true`"
                ),
            );
        }
    }

    /// Resolves the members of a struct or union arm; `extra` is the union's
    /// discriminator (raw, resolved size), which every arm's tiling includes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fields(
        &mut self,
        at: FileId,
        raw: &[RawField],
        extra: Option<(&RawField, usize)>,
        room: &Room,
        owner: &str,
        parent: &Confidence,
        scope: &Scope,
    ) -> Vec<Field> {
        let (mut fields, resolved): (Vec<Field>, Vec<bool>) = raw
            .iter()
            .map(|f| self.field(at, f, parent, scope, room))
            .unzip();
        let mut members: Vec<(&RawField, usize)> =
            raw.iter().zip(&fields).map(|(r, f)| (r, f.size)).collect();
        // A member whose type failed and that gives no `size` has no known extent: let it
        // reach the next member, so that tiling reports nothing that follows from that.
        let offsets: Vec<usize> = raw.iter().map(|r| *r.off.get_ref() as usize).collect();
        for ((r, len), typed) in members.iter_mut().zip(resolved) {
            if !typed && r.size.is_none() {
                let start = *r.off.get_ref() as usize;
                let next = offsets.iter().copied().filter(|o| *o > start).min();
                *len = next.unwrap_or(room.size).saturating_sub(start).max(1);
            }
        }
        members.extend(extra);
        self.check_tiling(at, &members, room.size, owner);
        for f in &mut fields {
            nesting::fit(f, room.size);
        }
        fields
    }
}

/// `room` bounds every array's size, so that no size overflows and no array is expanded
/// element by element before it is known to fit.
fn parse_type(text: &str, scope: &Scope, room: &Room) -> Result<TypeRef, String> {
    if let Some(len) = text
        .strip_prefix("ascii[")
        .and_then(|t| t.strip_suffix(']'))
    {
        return match len.trim().parse::<usize>() {
            Ok(len) if len > 0 => Ok(TypeRef::Ascii { len }),
            _ => Err(format!("`{text}`: an ASCII field is `ascii[N]` with N > 0")),
        };
    }
    if let Some(open) = text.rfind('[') {
        let Some(inner) = text[open + 1..].strip_suffix(']') else {
            return Err(format!("malformed array type `{text}` (expected `T[N]`)"));
        };
        let len: usize = inner.trim().parse().map_err(|e: std::num::ParseIntError| {
            let why = match (e.kind(), inner.trim().parse::<i128>()) {
                (_, Ok(n)) if n < 0 => "is negative",
                (std::num::IntErrorKind::PosOverflow, _) => "is too large",
                _ => "is not a number",
            };
            format!("array length `{inner}` in `{text}` {why}")
        })?;
        if len == 0 {
            return Err(format!("array `{text}` has length 0"));
        }
        nesting::array_dimensions(text)?;
        let elem = parse_type(text[..open].trim(), scope, room)?;
        room.array_fits(len, size_in(&elem, scope))?;
        return Ok(TypeRef::Array {
            elem: Box::new(elem),
            len,
        });
    }
    if let Some(int) = Int::parse(text) {
        return Ok(TypeRef::Int { int });
    }
    match scope.types.get(text) {
        Some(&index) => Ok(TypeRef::Named {
            name: text.to_string(),
            index,
        }),
        None => {
            let known = INTS.into_iter().chain(sorted_keys(&scope.types));
            Err(format!(
                "unknown type `{text}`{}",
                suggest_or_list(text, known)
            ))
        }
    }
}

fn size_in(t: &TypeRef, scope: &Scope) -> usize {
    match t {
        TypeRef::Int { int } => int.size(),
        TypeRef::Named { index, .. } => scope.sizes[*index],
        // `parse_type` bounded every array by its room; a reserved run's `u8[size]`
        // saturates and is reported by the tiling check.
        TypeRef::Array { elem, len } => size_in(elem, scope).saturating_mul(*len),
        TypeRef::Ascii { len } => *len,
    }
}

pub(super) fn max_of(int: Int) -> u64 {
    if int.signed() {
        (1u64 << (int.bits() - 1)) - 1
    } else if int.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << int.bits()) - 1
    }
}

/// How to resolve `next` (name, offset) starting inside `prev` (name, offset), which runs to
/// `end`; moving `next` to `end` is offered only when it fits there (`room`).
fn overlap_fix(prev: (&str, usize), next: (&str, usize), end: usize, room: bool) -> String {
    let ((p, p_start), (n, n_start)) = (prev, next);
    let keep = n_start - p_start;
    let moved = format!("move `{n}` to offset {end}");
    match (keep, room) {
        (0, true) => format!("both start at offset {n_start}: {moved}, or remove one of them"),
        (0, false) => format!("both start at offset {n_start}: remove one of them"),
        _ => {
            let shrink = format!(
                "shrink `{p}` to {} (offsets {p_start}..{n_start})",
                crate::naming::plural(keep, "byte")
            );
            match room {
                true => format!("{shrink}, or {moved}"),
                false => shrink,
            }
        }
    }
}

/// The built-in integer types, for "did you mean".
const INTS: [&str; 8] = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];
