//! Resolves `[[lowering]]` (how a runtime turns a pseudo word into a real one) into
//! [`Lowering`]s, with the same file:line:col errors as the rest of the loader: unknown
//! words, paths that name no field on either side, widths and types that do not match,
//! unknown transforms, missing evidence, INFERRED mappings without a note, two mappings
//! writing the same bits.

use serde_spanned::Spanned;

use super::{Cause, FileId, Loader, Scope};
use crate::diagnostics::{suggest, suggest_or_list};
use crate::model::lowering::*;
use crate::model::path::{Step, Target, Unions};
use crate::model::{BitsType, Confidence, Model, Role, TypeDef, TypeKind, TypeRef};
use crate::schema::RawFile;
use crate::schema::lowering::*;

/// What a resolved path holds, for comparing the two sides of a mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    /// A plain integer or unsigned bit range.
    Int,
    /// A named type (enum, flags, bitfield, struct, union), by index.
    Named(usize),
    /// Arrays and text, by spelling.
    Other(String),
}

struct Resolved {
    place: Place,
    key: Key,
}

/// Resolves `path` (`a.b[1].c`) in `word` to the place it names.
fn resolve_path(model: &Model, word: &TypeDef, path: &str) -> Result<Resolved, String> {
    let Some(owner) = model.types.iter().position(|t| std::ptr::eq(t, word)) else {
        return Err(format!("`{}` is not a type of the model", word.name));
    };
    let steps = Step::parse(path)?;
    let at = model
        .locate(owner, &steps, Unions::Arms)
        .map_err(|e| e.message)?;
    let key = match at.target {
        Target::Bits { field, .. } => match &field.ty {
            BitsType::Uint => Key::Int,
            BitsType::Named { index, .. } => Key::Named(*index),
        },
        Target::Type(TypeRef::Int { .. }) => Key::Int,
        Target::Type(TypeRef::Named { index, .. }) => Key::Named(*index),
        Target::Type(other) => Key::Other(other.spelling()),
    };
    Ok(Resolved {
        place: Place {
            path: path.to_string(),
            offset: at.offset,
            size: at.size(model),
            bits: at.bits(),
            type_name: at.type_name(),
        },
        key,
    })
}

/// Bit mask per byte of a place, for overlap and coverage checks.
fn place_mask(p: &Place, size: usize) -> Vec<u8> {
    let mut m = vec![0u8; size];
    match p.bits {
        None => {
            for b in m.iter_mut().skip(p.offset).take(p.size) {
                *b = 0xff;
            }
        }
        Some((lsb, width)) => {
            for bit in lsb..lsb + width {
                let byte = p.offset + (bit / 8) as usize;
                if byte < size {
                    m[byte] |= 1 << (bit % 8);
                }
            }
        }
    }
    m
}

fn covers(mask: &[u8], leaf: &[u8]) -> bool {
    mask.iter().zip(leaf).all(|(m, l)| m & l == *l)
}

fn touches(mask: &[u8], leaf: &[u8]) -> bool {
    mask.iter().zip(leaf).any(|(m, l)| m & l != 0)
}

/// Data leaves of `word` not (fully) inside `mask`, leaving out the opcode byte.
fn uncovered(model: &Model, word: &TypeDef, mask: &[u8], prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for leaf in model.leaves(word) {
        if leaf.role != Role::Data || leaf.constant.is_some() {
            continue;
        }
        let p = Place {
            path: leaf.path.clone(),
            offset: leaf.offset,
            size: leaf.size,
            bits: leaf.bits,
            type_name: String::new(),
        };
        let lm = place_mask(&p, word.size);
        if lm.iter().skip(1).all(|b| *b == 0) {
            continue; // the opcode byte: consumed by dispatch, set by the template
        }
        if covers(mask, &lm) {
            continue;
        }
        // An array of integers is one leaf; name the elements left out when some are read.
        let len = leaf
            .type_name
            .rsplit_once('[')
            .and_then(|(_, n)| n.strip_suffix(']'))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n > 1 && leaf.bits.is_none() && leaf.size % n == 0);
        match len {
            Some(n) if touches(mask, &lm) => {
                let esize = leaf.size / n;
                for i in 0..n {
                    let e = Place {
                        offset: leaf.offset + i * esize,
                        size: esize,
                        ..p.clone()
                    };
                    if !covers(mask, &place_mask(&e, word.size)) {
                        out.push(format!("{prefix}{}[{i}]", leaf.path));
                    }
                }
            }
            _ => out.push(format!("{prefix}{}", leaf.path)),
        }
    }
    out
}

/// What a kind is resolved against.
#[derive(Clone, Copy)]
struct KindCx<'a> {
    r: &'a RawLowering,
    from: &'a TypeDef,
    ext: Option<&'a TypeDef>,
    selector_enum: Option<usize>,
    abis: &'a [Abi],
    /// The lowering's tag: the default of every evidence record below it.
    doc_conf: &'a Confidence,
}

/// The words a mapping reads and writes.
#[derive(Clone, Copy)]
struct Sides<'a> {
    from: &'a TypeDef,
    ext: Option<&'a TypeDef>,
    extension: ExtensionUse,
    to: &'a TypeDef,
    doc_conf: &'a Confidence,
}

impl Loader {
    /// Resolves every file's `[[lowering]]`, after the words.
    pub(super) fn lowerings(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> Vec<Lowering> {
        let mut out: Vec<Lowering> = Vec::new();
        for (fi, raw) in raws {
            for r in &raw.lowering {
                let at = FileId(*fi);
                let taken = out.iter().any(|l| &l.name == r.name.get_ref());
                if self.duplicate(at, &r.name, "lowering", taken) {
                    continue;
                }
                if let Some(l) = self.lowering(at, r, scope, model) {
                    out.push(l);
                }
            }
        }
        out
    }

    fn word<'m>(
        &mut self,
        at: FileId,
        name: &Spanned<String>,
        model: &'m Model,
    ) -> Option<&'m TypeDef> {
        let found = model.words().find(|w| &w.name == name.get_ref());
        if found.is_none() {
            let names = model.words().map(|w| w.name.as_str());
            self.err_unknown(
                at,
                name.span(),
                name.get_ref(),
                format!(
                    "unknown word `{}`{}",
                    name.get_ref(),
                    suggest_or_list(name.get_ref(), names)
                ),
            );
        }
        found
    }

    /// A tag, and whether it is INFERRED (then `note` must say why).
    fn tagged(
        &mut self,
        at: FileId,
        tag: &Spanned<String>,
        note: &Option<String>,
        scope: &Scope,
        what: &str,
    ) -> (Confidence, bool) {
        let c = self.confidence(at, tag, scope);
        let inferred = is_inferred(&c);
        if inferred && note.as_deref().is_none_or(|n| n.trim().is_empty()) {
            self.err(
                at,
                tag.span(),
                format!(
                    "{what} is tagged `{}` but has no `note` saying what it is inferred from",
                    c.tag
                ),
            );
        }
        (c, inferred)
    }

    /// `doc_conf` is the lowering's tag: the default of evidence records, which cite facts
    /// (the claim's own tag may be INFERRED while the facts it rests on are observed).
    fn message(
        &mut self,
        at: FileId,
        m: &RawMessage,
        doc_conf: &Confidence,
        scope: &Scope,
        what: &str,
    ) -> Message {
        let (confidence, inferred) = self.tagged(at, &m.confidence, &m.note, scope, what);
        let text = m.message.get_ref();
        let mut rest = text.as_str();
        while let Some(i) = rest.find('%') {
            if !rest[i..].starts_with("%u") {
                self.err(
                    at,
                    m.message.span(),
                    format!(
                        "{what}: only `%u` (the selector value) may be formatted into the message"
                    ),
                );
                break;
            }
            rest = &rest[i + 2..];
        }
        let evidence =
            self.required_evidence(at, &m.evidence, doc_conf, scope, m.message.span(), what);
        Message {
            message: text.clone(),
            confidence,
            inferred,
            note: m.note.clone(),
            evidence,
        }
    }

    fn lowering(
        &mut self,
        at: FileId,
        r: &RawLowering,
        scope: &Scope,
        model: &Model,
    ) -> Option<Lowering> {
        let from = self.word(at, &r.from, model);
        let ext = r.extension.as_ref().and_then(|e| {
            let Some(w) = self.word(at, e, model) else {
                // Every `ext.` read follows from the unknown word.
                let root = self.errors.len() - 1;
                let reads = Cause::Prefix("`ext.` reads the extension");
                self.cascades.push((root, root + 1, reads));
                return None;
            };
            let follows = match &w.kind {
                TypeKind::Struct { follows, .. } => follows.clone(),
                _ => Vec::new(),
            };
            if !follows.contains(r.from.get_ref()) {
                self.err(
                    at,
                    e.span(),
                    format!(
                        "`{}` is not an extension of `{}` (its `follows` is {})",
                        w.name,
                        r.from.get_ref(),
                        if follows.is_empty() {
                            "absent".into()
                        } else {
                            follows
                                .iter()
                                .map(|f| format!("`{f}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    ),
                );
            }
            Some(w)
        });
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.required_evidence(
            at,
            &r.evidence,
            &confidence,
            scope,
            r.name.span(),
            &format!("lowering `{}`", r.name.get_ref()),
        );
        let unsupported = self.message(at, &r.unsupported, &confidence, scope, "`unsupported`");

        // ABI versions.
        let mut abis: Vec<Abi> = Vec::new();
        for a in &r.abi {
            let taken = abis.iter().any(|x| &x.name == a.name.get_ref());
            if self.duplicate(at, &a.name, "abi", taken) {
                continue;
            }
            let what = format!("abi `{}`", a.name.get_ref());
            let (c, inferred) = self.tagged(at, &a.confidence, &a.note, scope, &what);
            let ev =
                self.required_evidence(at, &a.evidence, &confidence, scope, a.name.span(), &what);
            if a.default && abis.iter().any(|x| x.default) {
                self.err(
                    at,
                    a.name.span(),
                    format!("abi `{}` is a second default", a.name.get_ref()),
                );
            }
            abis.push(Abi {
                name: a.name.get_ref().clone(),
                entry: a.entry.clone(),
                doc: a.doc.clone(),
                default: a.default,
                confidence: c,
                inferred,
                note: a.note.clone(),
                evidence: ev,
            });
        }
        if abis.is_empty() {
            self.err(
                at,
                r.name.span(),
                "a lowering needs at least one `[[lowering.abi]]` (the dispatcher)",
            );
        } else if !abis.iter().any(|a| a.default) {
            self.err(
                at,
                r.name.span(),
                "one `[[lowering.abi]]` must be `default = true`",
            );
        }

        let from = from?;
        let selector = match resolve_path(model, from, r.selector.get_ref()) {
            Ok(s) => Some(s),
            Err(msg) => {
                self.err(at, r.selector.span(), format!("selector: {msg}"));
                None
            }
        };
        let selector_enum = selector.as_ref().and_then(|s| match s.key {
            Key::Named(i) if matches!(model.types[i].kind, TypeKind::Enum { .. }) => Some(i),
            _ => {
                self.err(
                    at,
                    r.selector.span(),
                    format!(
                        "the selector `{}` is {}, not an enum",
                        r.selector.get_ref(),
                        s.place.type_name
                    ),
                );
                None
            }
        });

        let mut kinds: Vec<Kind> = Vec::new();
        for k in &r.kind {
            let cx = KindCx {
                r,
                from,
                ext,
                selector_enum,
                abis: &abis,
                doc_conf: &confidence,
            };
            if let Some(kind) = self.kind(at, k, &cx, scope, model) {
                if kinds.iter().any(|x| x.value == kind.value) {
                    self.err(
                        at,
                        k.value.span(),
                        format!("selector value `{}` has two kinds", k.value.get_ref()),
                    );
                    continue;
                }
                kinds.push(kind);
            }
        }
        let selector = selector?;
        let file = &self.files[at.0];
        Some(Lowering {
            name: r.name.get_ref().clone(),
            from: from.name.clone(),
            from_opcode: from.opcode().map_or(0, |o| o.value),
            selector_type: selector.place.type_name.clone(),
            selector: selector.place,
            extension: ext.map(|w| w.name.clone()),
            extension_opcode: ext.and_then(|w| w.opcode().map(|o| o.value)),
            doc: r.doc.clone(),
            confidence,
            evidence,
            unsupported,
            abis,
            kinds,
            file: file.relative(&self.root),
            line: file.line_of(r.name.span().start),
        })
    }

    fn kind(
        &mut self,
        at: FileId,
        k: &RawKind,
        cx: &KindCx<'_>,
        scope: &Scope,
        model: &Model,
    ) -> Option<Kind> {
        let KindCx {
            r,
            from,
            ext,
            selector_enum,
            abis,
            doc_conf,
        } = *cx;
        let value = selector_enum.and_then(|i| {
            let TypeKind::Enum { values, .. } = &model.types[i].kind else {
                return None;
            };
            let found = values.iter().find(|e| &e.name == k.value.get_ref());
            if found.is_none() {
                let names: Vec<&str> = values.iter().map(|e| e.name.as_str()).collect();
                self.err(
                    at,
                    k.value.span(),
                    format!(
                        "`{}` is not an enumerator of {}{} ({})",
                        k.value.get_ref(),
                        model.types[i].name,
                        suggest(k.value.get_ref(), names.iter().copied()),
                        names.join(", ")
                    ),
                );
            }
            found.map(|e| e.value)
        });
        let to = self.word(at, &k.to, model);
        let extension = match k.extension.get_ref().as_str() {
            "required" => ExtensionUse::Required,
            "ignored" => ExtensionUse::Ignored,
            other => {
                self.err(
                    at,
                    k.extension.span(),
                    format!("`extension` is `required` or `ignored`, not `{other}`"),
                );
                ExtensionUse::Ignored
            }
        };
        if extension == ExtensionUse::Required && ext.is_none() && r.extension.is_none() {
            self.err(
                at,
                k.extension.span(),
                "this kind requires an extension, but the lowering names no `extension` word",
            );
        }
        let kind_name = k.value.get_ref();
        let missing_extension = match (&k.missing_extension, extension) {
            (Some(m), ExtensionUse::Required) => Some(self.message(
                at,
                m,
                doc_conf,
                scope,
                &format!("`missing_extension` of `{kind_name}`"),
            )),
            (Some(m), ExtensionUse::Ignored) => {
                self.err(
                    at,
                    m.message.span(),
                    "`missing_extension` is only for a kind whose extension is `required`",
                );
                None
            }
            (None, ExtensionUse::Required) => {
                self.err(
                    at,
                    k.extension.span(),
                    format!(
                        "kind `{kind_name}` requires the extension but gives no `missing_extension` message"
                    ),
                );
                None
            }
            (None, ExtensionUse::Ignored) => None,
        };

        // Routes: one per ABI.
        let mut routes: Vec<Route> = Vec::new();
        for rt in &k.route {
            if !abis.iter().any(|a| &a.name == rt.abi.get_ref()) {
                let names: Vec<&str> = abis.iter().map(|a| a.name.as_str()).collect();
                self.err(
                    at,
                    rt.abi.span(),
                    format!(
                        "unknown abi `{}` (declared: {})",
                        rt.abi.get_ref(),
                        names.join(", ")
                    ),
                );
                continue;
            }
            if routes.iter().any(|x| &x.abi == rt.abi.get_ref()) {
                self.err(
                    at,
                    rt.abi.span(),
                    format!("two routes for abi `{}`", rt.abi.get_ref()),
                );
                continue;
            }
            if rt.via.is_empty() {
                self.err(
                    at,
                    rt.abi.span(),
                    "a route's `via` lists at least the dispatcher",
                );
            }
            let what = format!("the `{}` route of `{kind_name}`", rt.abi.get_ref());
            let (c, inferred) = self.tagged(at, &rt.confidence, &rt.note, scope, &what);
            let ev =
                self.required_evidence(at, &rt.evidence, doc_conf, scope, rt.abi.span(), &what);
            routes.push(Route {
                abi: rt.abi.get_ref().clone(),
                via: rt.via.clone(),
                confidence: c,
                inferred,
                note: rt.note.clone(),
                evidence: ev,
            });
        }
        for a in abis {
            if !routes.iter().any(|x| x.abi == a.name) {
                self.err(
                    at,
                    k.value.span(),
                    format!("kind `{kind_name}` has no route for abi `{}`", a.name),
                );
            }
        }
        routes.sort_by_key(|x| abis.iter().position(|a| a.name == x.abi));

        let to = to?;
        let size = to.size;
        let mut written = vec![0u8; size];
        let mut read_pseudo = vec![0u8; from.size];
        let mut read_ext = vec![0u8; ext.map_or(0, |e| e.size)];
        let mut writers: Vec<(String, Vec<u8>)> = Vec::new();
        let mut mappings = Vec::new();
        for m in &k.map {
            let sides = Sides {
                from,
                ext,
                extension,
                to,
                doc_conf,
            };
            let Some(mapping) = self.mapping(at, m, &sides, scope, model) else {
                continue;
            };
            let mask = place_mask(&mapping.to, size);
            if let Some((other, _)) = writers.iter().find(|(_, w)| touches(w, &mask)) {
                self.err(
                    at,
                    m.to.span(),
                    format!(
                        "`{}` overlaps `{other}`, which an earlier mapping of this kind writes",
                        mapping.to.path
                    ),
                );
            }
            for (w, b) in written.iter_mut().zip(&mask) {
                *w |= b;
            }
            writers.push((mapping.to.path.clone(), mask));
            match &mapping.source {
                Operand::Pseudo { place } => {
                    for (w, b) in read_pseudo.iter_mut().zip(place_mask(place, from.size)) {
                        *w |= b;
                    }
                }
                Operand::Ext { place } => {
                    let len = read_ext.len();
                    for (w, b) in read_ext.iter_mut().zip(place_mask(place, len)) {
                        *w |= b;
                    }
                }
                Operand::Value { .. } => {}
            }
            mappings.push(mapping);
        }
        // The selector is read by dispatch.
        if let Ok(s) = resolve_path(model, from, r.selector.get_ref()) {
            for (w, b) in read_pseudo.iter_mut().zip(place_mask(&s.place, from.size)) {
                *w |= b;
            }
        }
        let mut unread = uncovered(model, from, &read_pseudo, "");
        if let (Some(e), ExtensionUse::Required) = (ext, extension) {
            unread.extend(uncovered(model, e, &read_ext, "ext."));
        }
        let file = &self.files[at.0];
        Some(Kind {
            value: value?,
            name: kind_name.clone(),
            to: to.name.clone(),
            to_opcode: to.opcode().map_or(0, |o| o.value),
            extension,
            missing_extension,
            doc: k.doc.clone(),
            routes,
            mappings,
            unmapped: uncovered(model, to, &written, ""),
            unread,
            line: file.line_of(k.value.span().start),
        })
    }

    fn mapping(
        &mut self,
        at: FileId,
        m: &RawMapping,
        sides: &Sides<'_>,
        scope: &Scope,
        model: &Model,
    ) -> Option<Mapping> {
        let Sides {
            from,
            ext,
            extension,
            to,
            doc_conf,
        } = *sides;
        let what = format!("the mapping to `{}`", m.to.get_ref());
        let (confidence, inferred) = self.tagged(at, &m.confidence, &m.note, scope, &what);
        let evidence = self.required_evidence(at, &m.evidence, doc_conf, scope, m.to.span(), &what);
        let target = match resolve_path(model, to, m.to.get_ref()) {
            Ok(t) => Some(t),
            Err(msg) => {
                self.err(at, m.to.span(), format!("target: {msg}"));
                None
            }
        };
        let via_name = m.via.as_ref().map_or("copy", |v| v.get_ref().as_str());
        if !TRANSFORMS.contains(&via_name) {
            self.err(
                at,
                m.via.as_ref().map_or(m.to.span(), Spanned::span),
                format!(
                    "unknown transform `{via_name}` (known: {})",
                    TRANSFORMS.join(", ")
                ),
            );
            return None;
        }
        // The source side.
        let source: Option<(Operand, Option<Resolved>)> = match (&m.from, &m.value) {
            (Some(_), Some(v)) => {
                self.err(at, v.span(), "a mapping has `from` or `value`, not both");
                None
            }
            (None, None) => {
                self.err(
                    at,
                    m.to.span(),
                    "a mapping needs `from` (a path) or `value`",
                );
                None
            }
            (None, Some(v)) => Some((
                Operand::Value {
                    value: *v.get_ref(),
                },
                None,
            )),
            (Some(f), None) => {
                let path = f.get_ref();
                let (word, rel, is_ext) = match path.strip_prefix("ext.") {
                    Some(rest) => match (ext, extension) {
                        (None, _) => {
                            self.err(
                                at,
                                f.span(),
                                "`ext.` reads the extension, but the lowering names no `extension` word",
                            );
                            return None;
                        }
                        (Some(_), ExtensionUse::Ignored) => {
                            self.err(
                                at,
                                f.span(),
                                "this kind's extension is `ignored`; it cannot read `ext.` fields",
                            );
                            return None;
                        }
                        (Some(e), ExtensionUse::Required) => (e, rest, true),
                    },
                    None => (from, path.as_str(), false),
                };
                match resolve_path(model, word, rel) {
                    Ok(s) => {
                        let place = s.place.clone();
                        let src = if is_ext {
                            Operand::Ext { place }
                        } else {
                            Operand::Pseudo { place }
                        };
                        Some((src, Some(s)))
                    }
                    Err(msg) => {
                        self.err(at, f.span(), format!("source: {msg}"));
                        None
                    }
                }
            }
        };
        let target = target?;
        let (source, resolved) = source?;
        let t = &target.place;
        let via = match (via_name, &resolved) {
            (_, None) => {
                // A constant: it must fit the target.
                let Operand::Value { value } = source else {
                    unreachable!("no resolved source means a value")
                };
                let span = m.value.as_ref().map_or(m.to.span(), Spanned::span);
                if m.via.is_some() && via_name != "copy" {
                    self.err(
                        at,
                        span.clone(),
                        "a constant is written as it is; drop `via`",
                    );
                }
                let w = t.width();
                if w > 64 || (w < 64 && value >> w != 0) {
                    self.err(
                        at,
                        span,
                        format!("{value:#x} does not fit `{}` ({w} bits)", t.path),
                    );
                }
                Transform::Copy
            }
            ("copy", Some(s)) => {
                let sp = &s.place;
                let span = m.from.as_ref().map_or(m.to.span(), Spanned::span);
                if sp.width() != t.width() {
                    self.err(
                        at,
                        span.clone(),
                        format!(
                            "width mismatch: `{}` is {} bits ({}) but `{}` is {} bits ({}); a \
                             copy needs the same width",
                            sp.path,
                            sp.width(),
                            sp.type_name,
                            t.path,
                            t.width(),
                            t.type_name
                        ),
                    );
                } else if s.key != target.key {
                    self.err(
                        at,
                        span.clone(),
                        format!(
                            "type mismatch: `{}` is {} but `{}` is {}; a copy needs the same \
                             type (or a transform)",
                            sp.path, sp.type_name, t.path, t.type_name
                        ),
                    );
                }
                if (sp.bits.is_some() || t.bits.is_some()) && sp.width() > 64 {
                    self.err(at, span, "a bit-range copy is at most 64 bits");
                }
                Transform::Copy
            }
            ("narrow", Some(s)) => {
                let sp = &s.place;
                let span = m.via.as_ref().map_or(m.to.span(), Spanned::span);
                if s.key != target.key {
                    self.err(
                        at,
                        span,
                        format!(
                            "type mismatch: `narrow` keeps the type, but `{}` is {} and `{}` \
                             is {}",
                            sp.path, sp.type_name, t.path, t.type_name
                        ),
                    );
                } else if t.width() >= sp.width() {
                    self.err(
                        at,
                        span,
                        format!(
                            "`narrow` is for a narrower target: `{}` is {} bits, `{}` {} bits; \
                             use a copy",
                            t.path,
                            t.width(),
                            sp.path,
                            sp.width()
                        ),
                    );
                } else if sp.width() > 64 {
                    self.err(at, span, "`narrow` reads at most 64 bits");
                }
                Transform::Narrow
            }
            ("resolve_addr", Some(s)) => {
                let span = m.via.as_ref().map_or(m.to.span(), Spanned::span);
                match addr_var(model, s, &target) {
                    Ok(addr) => Transform::ResolveAddr { addr },
                    Err(msg) => {
                        self.err(at, span, format!("resolve_addr: {msg}"));
                        return None;
                    }
                }
            }
            _ => unreachable!("transform names checked above"),
        };
        Some(Mapping {
            to: target.place,
            source,
            via,
            confidence,
            inferred,
            note: m.note.clone(),
            evidence,
            line: self.files[at.0].line_of(m.to.span().start),
        })
    }
}

/// The `addr_var` layout `resolve_addr` needs: the source is a union with an arm holding
/// `immediate`, `var_id_lo` and `var_id_hi`; the target a union of the same size with its
/// marker at the same (last) byte.
fn addr_var(model: &Model, from: &Resolved, to: &Resolved) -> Result<AddrVar, String> {
    let union_of = |r: &Resolved| match r.key {
        Key::Named(i) => match &model.types[i].kind {
            TypeKind::Union {
                discriminator,
                variants,
            } => Some((&model.types[i], discriminator, variants)),
            _ => None,
        },
        _ => None,
    };
    let Some((fu, fdisc, fvars)) = union_of(from) else {
        return Err(format!(
            "the source `{}` is {}, not an address union",
            from.place.path, from.place.type_name
        ));
    };
    let Some((tu, tdisc, _)) = union_of(to) else {
        return Err(format!(
            "the target `{}` is {}, not an address union",
            to.place.path, to.place.type_name
        ));
    };
    if fu.size != tu.size {
        return Err(format!(
            "{} is {} bytes but {} is {}",
            fu.name, fu.size, tu.name, tu.size
        ));
    }
    if fdisc.offset != tdisc.offset || fdisc.size != 1 || fdisc.offset + 1 != fu.size {
        return Err(format!(
            "the marker must be the last byte of both unions ({} has it at +{}, {} at +{})",
            fu.name, fdisc.offset, tu.name, tdisc.offset
        ));
    }
    let want = ["immediate", "var_id_lo", "var_id_hi"];
    let arm = fvars.iter().find(|v| {
        want.iter().all(|n| {
            v.fields
                .iter()
                .any(|f| f.name == *n && f.role == Role::Data)
        })
    });
    let Some(arm) = arm else {
        return Err(format!(
            "{} has no arm with `immediate`, `var_id_lo` and `var_id_hi` fields",
            fu.name
        ));
    };
    let (Some(mask), Some(value)) = (arm.mask, arm.value) else {
        return Err(format!(
            "the `{}` arm of {} has no marker bits",
            arm.name, fu.name
        ));
    };
    let part = |n: &str| {
        arm.fields
            .iter()
            .find(|f| f.name == n)
            .map(|f| (f.offset, f.size))
            .unwrap_or((0, 0))
    };
    let (immediate, var_id_lo, var_id_hi) = (part(want[0]), part(want[1]), part(want[2]));
    if immediate.1 > 8 || var_id_lo.1 + var_id_hi.1 > 8 {
        return Err(format!(
            "the `{}` arm's fields are wider than 64 bits",
            arm.name
        ));
    }
    Ok(AddrVar {
        marker: fdisc.offset,
        mask,
        value,
        immediate,
        var_id_lo,
        var_id_hi,
    })
}
