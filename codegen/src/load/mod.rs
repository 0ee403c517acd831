//! Reads `spec/**/*.toml`, checks it, and resolves it into one [`Model`].
//!
//! Every check reports the file, line and column of the value at fault. The loader keeps
//! going after an error so that a single run lists every problem in an edit.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_spanned::Spanned;

use crate::diagnostics::{SourceFile, SpecError, SpecErrors, did_you_mean, suggest};
use crate::model::*;
use crate::schema::*;

mod cascade;
mod files;
mod klr;
mod lowering;
mod names;
mod nesting;
mod parse;
pub mod rule_depth;
mod rules;

use cascade::Cause;
pub(crate) use files::discover;
use nesting::Room;

/// Loads every `*.toml` below `dir` (sorted by path, so output is deterministic).
pub fn load_dir(dir: &Path) -> Result<Model, SpecErrors> {
    let read = files::read(dir)?;
    load(dir, read.files, read.errors)
}

/// Loads spec files given as (path, text); `root` is what paths in the model are relative to.
pub fn load_files(root: &Path, files: Vec<(PathBuf, String)>) -> Result<Model, SpecErrors> {
    load(root, files, Vec::new())
}

fn load(
    root: &Path,
    files: Vec<(PathBuf, String)>,
    early: Vec<SpecError>,
) -> Result<Model, SpecErrors> {
    let mut loader = Loader {
        root: root.to_path_buf(),
        errors: early,
        files: Vec::new(),
        cascades: Vec::new(),
        broken_members: Vec::new(),
    };
    let mut raws = Vec::new();
    for (path, text) in files {
        let file = SourceFile { path, text };
        let parsed = parse::parse(&file.text);
        let base = loader.errors.len();
        for (span, msg) in &parsed.errors {
            loader.errors.push(file.error(span.clone(), msg.as_str()));
        }
        for (name, i) in parsed.dropped {
            loader
                .cascades
                .push((base + i, base + i + 1, Cause::Name(name)));
        }
        match parsed.raw {
            Some(raw) if raw.is_empty() && parsed.errors.is_empty() => {
                loader.errors.push(file.error(
                    0..0,
                    "this file declares nothing (it is empty or holds only comments): add \
                     its declarations, or delete it",
                ));
            }
            Some(raw) => raws.push((loader.files.len(), raw)),
            None => {}
        }
        loader.files.push(file);
    }
    let model = loader.resolve(raws);
    loader.suppress_cascades();
    // The checks run declaration kind by kind; report in file order, as documented.
    let order = |e: &SpecError| {
        let file = loader.files.iter().position(|f| f.path == e.file);
        (file, e.span.start)
    };
    loader.errors.sort_by_key(order);
    if loader.errors.is_empty() {
        Ok(model)
    } else {
        Err(SpecErrors(loader.errors))
    }
}

struct Loader {
    root: PathBuf,
    errors: Vec<SpecError>,
    files: Vec<SourceFile>,
    /// (root error, first error it may explain, cause).
    cascades: Vec<(usize, usize, Cause)>,
    /// Members whose type or bit range failed (with the root error): what later checks
    /// (rules, lowerings) say about them follows from that error.
    broken_members: Vec<(String, usize)>,
}

/// Where a declaration sits, for later errors.
#[derive(Clone, Copy)]
struct At(usize);

/// A declaration waiting to be resolved, in the order types are numbered.
enum Decl<'r> {
    Enum(&'r RawEnum),
    Flags(&'r RawFlags),
    Bitfield(&'r RawBitfield),
    Union(&'r RawUnion),
    Struct(&'r RawStruct),
}

impl Decl<'_> {
    fn name(&self) -> &Spanned<String> {
        match self {
            Decl::Enum(r) => &r.name,
            Decl::Flags(r) => &r.name,
            Decl::Bitfield(r) => &r.name,
            Decl::Union(r) => &r.name,
            Decl::Struct(r) => &r.name,
        }
    }

    fn c_name(&self) -> &str {
        match self {
            Decl::Enum(r) => &r.c_name,
            Decl::Flags(r) => &r.c_name,
            Decl::Bitfield(r) => &r.c_name,
            Decl::Union(r) => &r.c_name,
            Decl::Struct(r) => &r.c_name,
        }
    }
}

/// Names known after the first pass.
struct Scope {
    /// tag -> confidence
    tags: HashMap<String, Confidence>,
    /// source id -> the scale its tags are on
    sources: HashMap<String, String>,
    archs: Vec<String>,
    types: HashMap<String, usize>,
    /// Pre-computed sizes of named types (0 until known).
    sizes: Vec<usize>,
    kinds: Vec<&'static str>,
    /// The integer representation of enums, flags and bitfields.
    reprs: Vec<Option<Int>>,
}

impl Loader {
    fn err(&mut self, at: At, span: Range<usize>, msg: impl Into<String>) {
        let e = self.files[at.0].error(span, msg);
        self.errors.push(e);
    }

    fn resolve(&mut self, raws: Vec<(usize, RawFile)>) -> Model {
        let levels = self.common_levels(&raws);
        let scales = self.scales(&raws, &levels);
        if scales.is_empty() && !levels.is_empty() {
            self.missing(
                "confidence.toml",
                "`[[scale]]`",
                "the scales (`[[scale]]`) declare every confidence tag",
                &["unknown confidence tag `", "unknown confidence scale `"],
            );
        }
        let sources = self.sources(&raws, &scales);
        if sources.is_empty() {
            self.missing(
                "sources.toml",
                "`[[source]]`",
                "it declares the documents (`[[source]]`) every evidence record cites",
                &["unknown source `"],
            );
        }
        let archs = self.archs(&raws);
        let tags = declared_tags(&levels, &scales)
            .map(|c| (c.tag.clone(), c))
            .collect();

        // Number every named type first so that declarations may refer to each other in
        // any order and across files.
        let mut decls: Vec<(At, Decl)> = Vec::new();
        for (fi, raw) in &raws {
            let at = At(*fi);
            decls.extend(raw.enums.iter().map(|r| (at, Decl::Enum(r))));
            decls.extend(raw.flags.iter().map(|r| (at, Decl::Flags(r))));
            decls.extend(raw.bitfield.iter().map(|r| (at, Decl::Bitfield(r))));
            decls.extend(raw.union.iter().map(|r| (at, Decl::Union(r))));
            decls.extend(raw.structs.iter().map(|r| (at, Decl::Struct(r))));
        }
        let mut scope = Scope {
            tags,
            sources: sources
                .iter()
                .map(|s| (s.id.clone(), s.scale.clone()))
                .collect(),
            archs: archs.iter().map(|a| a.name.clone()).collect(),
            types: HashMap::new(),
            sizes: Vec::new(),
            kinds: Vec::new(),
            reprs: Vec::new(),
        };
        for (at, d) in &decls {
            let name = d.name();
            if Int::parse(name.get_ref()).is_some() {
                self.err(
                    *at,
                    name.span(),
                    format!("`{}` is a built-in integer type", name.get_ref()),
                );
            }
            let taken = scope.types.contains_key(name.get_ref());
            if self.duplicate(*at, name, "type name", taken) {
                continue;
            }
            scope
                .types
                .insert(name.get_ref().clone(), scope.sizes.len());
            let (size, kind) = match d {
                Decl::Enum(r) => (Int::parse(r.repr.get_ref()).map_or(0, Int::size), "enum"),
                Decl::Flags(r) => (Int::parse(r.repr.get_ref()).map_or(0, Int::size), "flags"),
                Decl::Bitfield(r) => (
                    Int::parse(r.repr.get_ref()).map_or(0, Int::size),
                    "bitfield",
                ),
                Decl::Union(r) => (*r.size.get_ref() as usize, "union"),
                Decl::Struct(r) => (*r.size.get_ref() as usize, "struct"),
            };
            let repr = match d {
                Decl::Enum(r) => Int::parse(r.repr.get_ref()),
                Decl::Flags(r) => Int::parse(r.repr.get_ref()),
                Decl::Bitfield(r) => Int::parse(r.repr.get_ref()),
                Decl::Union(_) | Decl::Struct(_) => None,
            };
            scope.sizes.push(size);
            scope.kinds.push(kind);
            scope.reprs.push(repr);
        }

        let mut types = Vec::new();
        let mut names = Vec::new();
        for (at, d) in &decls {
            if types.len() >= scope.sizes.len() {
                break;
            }
            if scope.types.get(d.name().get_ref()) != Some(&types.len()) {
                continue; // a duplicate, already reported
            }
            names.push((*at, d.name().span()));
            let t = match d {
                Decl::Enum(r) => self.enum_def(*at, r, &scope),
                Decl::Flags(r) => self.flags_def(*at, r, &scope),
                Decl::Bitfield(r) => self.bitfield_def(*at, r, &scope),
                Decl::Union(r) => self.union_def(*at, r, &scope),
                Decl::Struct(r) => self.struct_def(*at, r, &scope),
            };
            types.push(t);
        }
        for (t, msg) in nesting::check_types(&mut types) {
            let (at, span) = names[t].clone();
            self.err(at, span, msg);
        }
        let after = self.errors.len();
        for (name, root) in std::mem::take(&mut self.broken_members) {
            self.cascades.push((root, after, Cause::Name(name)));
        }
        let mut model = Model {
            levels,
            scales,
            sources,
            archs,
            types,
            rules: Default::default(),
            klr: Default::default(),
            lowerings: Vec::new(),
        };
        self.check_words(&decls, &mut model);
        self.check_names(&raws, &decls);
        let (rules, errors) = crate::load::rules::resolve(&raws, &model, &self.files);
        self.errors.extend(errors);
        model.rules = rules;
        model.klr = self.klr(&raws, &scope);
        model.lowerings = self.lowerings(&raws, &scope, &model);
        model
    }

    fn common_levels(&mut self, raws: &[(usize, RawFile)]) -> Vec<Level> {
        let mut found: Option<Vec<Level>> = None;
        for (fi, raw) in raws {
            let Some(c) = &raw.confidence else { continue };
            if found.is_some() {
                let span = c.levels.first().map_or(0..0, |l| l.name.span());
                self.err(
                    At(*fi),
                    span,
                    "the common confidence ordering is declared twice",
                );
                continue;
            }
            let mut levels: Vec<Level> = Vec::new();
            for l in &c.levels {
                let taken = levels.iter().any(|x| &x.name == l.name.get_ref());
                self.duplicate(At(*fi), &l.name, "confidence level", taken);
                levels.push(Level {
                    name: l.name.get_ref().clone(),
                    doc: l.doc.clone(),
                });
            }
            found = Some(levels);
        }
        found.unwrap_or_else(|| {
            self.missing(
                "confidence.toml",
                "`[confidence]` table",
                "it declares the common confidence ordering (`[confidence]`) and the scales \
                 (`[[scale]]`) every confidence tag is on",
                &[
                    "unknown confidence tag `",
                    "unknown common confidence level `",
                    "unknown confidence scale `",
                ],
            );
            Vec::new()
        })
    }

    fn scales(&mut self, raws: &[(usize, RawFile)], levels: &[Level]) -> Vec<Scale> {
        let mut scales: Vec<Scale> = Vec::new();
        let mut seen_tags: HashMap<String, String> = HashMap::new();
        for (fi, raw) in raws {
            let at = At(*fi);
            for s in &raw.scale {
                let taken = scales.iter().any(|x| &x.name == s.name.get_ref());
                if self.duplicate(at, &s.name, "scale", taken) {
                    continue;
                }
                check_ident(self, at, &s.name);
                let mut out: Vec<(String, String)> = Vec::new();
                let mut last_rank = 0;
                for l in &s.levels {
                    let Some(rank) = levels.iter().position(|x| &x.name == l.common.get_ref())
                    else {
                        self.err(
                            at,
                            l.common.span(),
                            format!(
                                "unknown common confidence level `{}` (known: {})",
                                l.common.get_ref(),
                                join(levels.iter().map(|l| l.name.as_str()))
                            ),
                        );
                        continue;
                    };
                    if rank < last_rank {
                        self.err(
                            at,
                            l.common.span(),
                            format!(
                                "scale `{}` lists its levels strongest first, but `{}` maps \
                                 to a stronger common level than the tag before it",
                                s.name.get_ref(),
                                l.tag.get_ref()
                            ),
                        );
                    }
                    last_rank = rank;
                    if let Some(other) = seen_tags.get(l.tag.get_ref()) {
                        self.err(
                            at,
                            l.tag.span(),
                            format!(
                                "confidence tag `{}` is already declared by scale `{other}`",
                                l.tag.get_ref()
                            ),
                        );
                        continue;
                    }
                    let rust = Scale::const_name(l.tag.get_ref());
                    if let Some((other, _)) = out.iter().find(|(t, _)| Scale::const_name(t) == rust)
                    {
                        self.err(
                            at,
                            l.tag.span(),
                            format!(
                                "confidence tags `{other}` and `{}` of scale `{}` both become \
                                 the Rust constant `{rust}`; spell one differently",
                                l.tag.get_ref(),
                                s.name.get_ref()
                            ),
                        );
                        continue;
                    }
                    seen_tags.insert(l.tag.get_ref().clone(), s.name.get_ref().clone());
                    out.push((l.tag.get_ref().clone(), l.common.get_ref().clone()));
                }
                scales.push(Scale {
                    name: s.name.get_ref().clone(),
                    doc: s.doc.clone(),
                    levels: out,
                });
            }
        }
        scales
    }

    fn sources(&mut self, raws: &[(usize, RawFile)], scales: &[Scale]) -> Vec<Source> {
        let mut out: Vec<Source> = Vec::new();
        for (fi, raw) in raws {
            for s in &raw.source {
                let taken = out.iter().any(|x| &x.id == s.id.get_ref());
                if self.duplicate(At(*fi), &s.id, "source", taken) {
                    continue;
                }
                if s.id.get_ref().contains(char::is_whitespace) {
                    self.err(At(*fi), s.id.span(), "a source id cannot contain spaces");
                }
                if !scales.iter().any(|x| &x.name == s.scale.get_ref()) {
                    self.err(
                        At(*fi),
                        s.scale.span(),
                        format!("unknown confidence scale `{}`", s.scale.get_ref()),
                    );
                }
                out.push(Source {
                    id: s.id.get_ref().clone(),
                    title: s.title.clone(),
                    file: s.file.clone(),
                    scale: s.scale.get_ref().clone(),
                    doc: s.doc.clone(),
                });
            }
        }
        out
    }

    fn archs(&mut self, raws: &[(usize, RawFile)]) -> Vec<Arch> {
        let mut out: Vec<Arch> = Vec::new();
        for (fi, raw) in raws {
            for a in &raw.arch {
                let taken = out.iter().any(|x| &x.name == a.name.get_ref());
                if self.duplicate(At(*fi), &a.name, "architecture", taken) {
                    continue;
                }
                check_ident(self, At(*fi), &a.name);
                out.push(Arch {
                    name: a.name.get_ref().clone(),
                    nc: a.nc,
                    doc: a.doc.clone(),
                });
            }
        }
        out
    }

    // ---- shared pieces -------------------------------------------------------------

    fn confidence(&mut self, at: At, tag: &Spanned<String>, scope: &Scope) -> Confidence {
        match scope.tags.get(tag.get_ref()) {
            Some(c) => c.clone(),
            None => {
                self.err(
                    at,
                    tag.span(),
                    format!(
                        "unknown confidence tag `{}`{} (declared tags: {})",
                        tag.get_ref(),
                        suggest(tag.get_ref(), scope.tags.keys().map(String::as_str)),
                        sorted_keys(&scope.tags)
                    ),
                );
                undeclared_confidence(tag.get_ref())
            }
        }
    }

    /// Reports `name` as a second declaration of a `what` when `taken`; returns `taken`.
    fn duplicate(&mut self, at: At, name: &Spanned<String>, what: &str, taken: bool) -> bool {
        self.duplicate_in(at, name, what, "", taken)
    }

    /// [`Self::duplicate`] for a member name, which only has to be unique in its `owner`
    /// (empty for a top-level name).
    fn duplicate_in(
        &mut self,
        at: At,
        name: &Spanned<String>,
        what: &str,
        owner: &str,
        taken: bool,
    ) -> bool {
        if taken {
            let within = if owner.is_empty() {
                String::new()
            } else {
                format!(" in `{owner}`")
            };
            let message = format!("duplicate {what} `{}`{within}", name.get_ref());
            self.err(at, name.span(), message);
        }
        taken
    }

    /// The confidence `tag` names, or `default` (the enclosing declaration's) without one.
    fn confidence_or(
        &mut self,
        at: At,
        tag: &Option<Spanned<String>>,
        default: &Confidence,
        scope: &Scope,
    ) -> Confidence {
        match tag {
            Some(t) => self.confidence(at, t, scope),
            None => default.clone(),
        }
    }

    fn evidence(
        &mut self,
        at: At,
        raw: &[RawEvidence],
        default: &Confidence,
        scope: &Scope,
    ) -> Vec<Evidence> {
        let mut sources: Vec<(&str, &str)> = (scope.sources.iter())
            .map(|(id, scale)| (id.as_str(), scale.as_str()))
            .collect();
        sources.sort();
        raw.iter()
            .map(|e| {
                let confidence = self.confidence_or(at, &e.confidence, default, scope);
                for (span, msg) in citation_errors(e, &confidence, &sources) {
                    self.err(at, span, msg);
                }
                evidence_record(e, confidence)
            })
            .collect()
    }

    fn arch_list(
        &mut self,
        at: At,
        raw: &Option<Vec<Spanned<String>>>,
        scope: &Scope,
    ) -> Vec<String> {
        let Some(list) = raw else { return Vec::new() };
        let mut out = Vec::new();
        for a in list {
            if !scope.archs.contains(a.get_ref()) {
                self.err(
                    at,
                    a.span(),
                    format!(
                        "unknown architecture `{}` (known: {})",
                        a.get_ref(),
                        scope.archs.join(", ")
                    ),
                );
            } else if out.contains(a.get_ref()) {
                self.err(
                    at,
                    a.span(),
                    format!("architecture `{}` listed twice", a.get_ref()),
                );
            } else {
                out.push(a.get_ref().clone());
            }
        }
        out
    }

    fn int_repr(&mut self, at: At, repr: &Spanned<String>) -> Int {
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
        at: At,
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

    fn alternatives(
        &mut self,
        at: At,
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
    fn field(
        &mut self,
        at: At,
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
    fn constant(&mut self, at: At, c: &Spanned<u64>, ty: &TypeRef, scope: &Scope) -> Option<u64> {
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

    fn codec(&mut self, at: At, c: &RawCodec, ty: &TypeRef) -> Option<Codec> {
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
    fn joins(
        &mut self,
        at: At,
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
            if j.evidence.is_empty() {
                self.err(
                    at,
                    j.name.span(),
                    format!("join `{}` has no evidence", j.name.get_ref()),
                );
            }
            let evidence = self.evidence(at, &j.evidence, &confidence, scope);
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
    fn check_tiling(&mut self, at: At, members: &[(&RawField, usize)], size: usize, owner: &str) {
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
                if let Some(note) = prev.map(|p| overlap_fix(p, (f.name.get_ref(), start), cursor))
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
                        crate::emit::plural(*len, "byte"),
                        crate::emit::plural(size, "byte")
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
    fn fields(
        &mut self,
        at: At,
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

    // ---- declarations --------------------------------------------------------------

    fn enum_def(&mut self, at: At, r: &RawEnum, scope: &Scope) -> TypeDef {
        let repr = self.int_repr(at, &r.repr);
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let prefix = r
            .c_prefix
            .clone()
            .unwrap_or_else(|| format!("{}_", r.c_name));
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
            let aliases = v
                .aliases
                .iter()
                .map(|a| {
                    let id = source_id(a.source.get_ref());
                    if !scope.sources.contains_key(id) {
                        let hint = suggest(id, scope.sources.keys().map(String::as_str));
                        self.err(at, a.source.span(), format!("unknown source `{id}`{hint}"));
                    }
                    check_ident(self, at, &a.name);
                    Alias {
                        name: a.name.get_ref().clone(),
                        c_name: format!("{prefix}{}", a.name.get_ref()),
                        source: a.source.get_ref().clone(),
                        note: a.note.clone(),
                    }
                })
                .collect();
            values.push(Enumerator {
                name: v.name.get_ref().clone(),
                value: *v.value.get_ref(),
                c_name: format!("{prefix}{}", v.name.get_ref()),
                doc: v.doc.clone(),
                arch,
                aliases,
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

    fn flags_def(&mut self, at: At, r: &RawFlags, scope: &Scope) -> TypeDef {
        let repr = self.int_repr(at, &r.repr);
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let prefix = r
            .c_prefix
            .clone()
            .unwrap_or_else(|| format!("{}_", r.c_name));
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

    fn bitfield_def(&mut self, at: At, r: &RawBitfield, scope: &Scope) -> TypeDef {
        let repr = self.int_repr(at, &r.repr);
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
                self.err(
                    at,
                    b.name.span(),
                    format!("sub-field `{}` has no evidence", b.name.get_ref()),
                );
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

    fn bits_type(&mut self, at: At, t: &Spanned<String>, width: u32, scope: &Scope) -> BitsType {
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

    fn union_def(&mut self, at: At, r: &RawUnion, scope: &Scope) -> TypeDef {
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

    fn struct_def(&mut self, at: At, r: &RawStruct, scope: &Scope) -> TypeDef {
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
        });
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
                follows: r.follows.as_ref().map(|f| f.get_ref().clone()),
                joins,
                alternatives,
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn type_def(
        &mut self,
        at: At,
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
            self.err(
                at,
                name.span(),
                format!("`{}` has no evidence", name.get_ref()),
            );
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
    fn check_words(&mut self, decls: &[(At, Decl)], model: &mut Model) {
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
                    let Some(e) = values.iter().find(|e| {
                        &e.name == op.get_ref() || e.aliases.iter().any(|a| &a.name == op.get_ref())
                    }) else {
                        let names = values.iter().flat_map(|e| {
                            std::iter::once(&e.name).chain(e.aliases.iter().map(|a| &a.name))
                        });
                        self.err(
                            *at,
                            op.span(),
                            format!(
                                "`{}` is not an `OPCODE` enumerator{}",
                                op.get_ref(),
                                suggest(op.get_ref(), names.map(String::as_str))
                            ),
                        );
                        continue;
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
                        for a in arch.iter() {
                            if let Some(other) =
                                seen.insert((a.clone(), value), r.name.get_ref().clone())
                            {
                                self.err(*at, op.span(), format!(
                                    "opcode {value:#04x} is already bound to `{other}` in architecture `{a}`"));
                            }
                        }
                        if let (Some(f), Some(span)) =
                            (follows.as_ref(), r.follows.as_ref().map(Spanned::span))
                            && !names.contains(f)
                        {
                            self.err(*at, span, format!("`follows` names unknown word `{f}`"));
                        }
                    }
                    let leaves = model.leaves(&model.types[index]);
                    if !leaves
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

fn check_ident(l: &mut Loader, at: At, name: &Spanned<String>) {
    if let Some(msg) = ident_error(name.get_ref()) {
        l.err(at, name.span(), msg);
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
        let len: usize = inner
            .trim()
            .parse()
            .map_err(|_| format!("array length `{inner}` in `{text}` is not a number"))?;
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
        None => match did_you_mean(text, scope.types.keys().map(String::as_str).chain(INTS)) {
            Some(guess) => Err(format!("unknown type `{text}`; did you mean `{guess}`?")),
            None => Err(format!(
                "unknown type `{text}` (built-in: {}; declared: {})",
                INTS.join(" "),
                sorted_keys(&scope.types)
            )),
        },
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

fn max_of(int: Int) -> u64 {
    if int.signed() {
        (1u64 << (int.bits() - 1)) - 1
    } else if int.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << int.bits()) - 1
    }
}

/// How to resolve `next` (name, offset) starting inside `prev` (name, offset), which runs to
/// `end`.
fn overlap_fix(prev: (&str, usize), next: (&str, usize), end: usize) -> String {
    let ((p, p_start), (n, n_start)) = (prev, next);
    let keep = n_start - p_start;
    if keep == 0 {
        format!("both start at offset {n_start}: move `{n}` to offset {end}, or remove one of them")
    } else {
        let bytes = if keep == 1 { "byte" } else { "bytes" };
        format!(
            "shrink `{p}` to {keep} {bytes} (offsets {p_start}..{n_start}), or move `{n}` to offset {end}"
        )
    }
}

/// The built-in integer types, for "did you mean".
const INTS: [&str; 8] = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];

fn join<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

/// The keys of `map`, sorted and comma-separated (the "known: …" list of an error).
fn sorted_keys<V>(map: &HashMap<String, V>) -> String {
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort();
    keys.join(", ")
}

// ---- shared with `rules::load` -------------------------------------------------------

/// Every confidence tag the scales declare, placed on the common ordering of `levels`.
pub(crate) fn declared_tags<'a>(
    levels: &'a [Level],
    scales: &'a [Scale],
) -> impl Iterator<Item = Confidence> + 'a {
    scales.iter().flat_map(move |s| {
        s.levels.iter().map(move |(tag, level)| Confidence {
            tag: tag.clone(),
            scale: s.name.clone(),
            level: level.clone(),
            rank: levels.iter().position(|l| &l.name == level).unwrap_or(0),
        })
    })
}

/// The confidence of a tag no scale declares (an error where it is used): weaker than
/// every level.
pub(crate) fn undeclared_confidence(tag: &str) -> Confidence {
    Confidence {
        tag: tag.to_string(),
        scale: String::new(),
        level: String::new(),
        rank: usize::MAX,
    }
}

/// The source id a citation starts with (`"seed-004 §2"` -> `seed-004`).
pub(crate) fn source_id(cite: &str) -> &str {
    cite.split_whitespace().next().unwrap_or("")
}

/// An evidence record as resolved; the caller checks its source and resolves its tag.
pub(crate) fn evidence_record(e: &RawEvidence, confidence: Confidence) -> Evidence {
    let cite = e.source.get_ref().trim().to_string();
    Evidence {
        source: source_id(&cite).to_string(),
        cite,
        name: e.name.clone(),
        names: e.names.clone(),
        pin: e.pin.clone(),
        value: e.value.clone(),
        confidence,
        note: e.note.clone(),
    }
}

/// What is wrong with an evidence record's citation, given the declared `sources` (id,
/// scale), sorted: a source no file declares, or an own tag (resolved as `confidence`) on
/// another scale than its source's.
pub(crate) fn citation_errors(
    e: &RawEvidence,
    confidence: &Confidence,
    sources: &[(&str, &str)],
) -> Vec<(Range<usize>, String)> {
    let id = source_id(e.source.get_ref());
    let Some((_, scale)) = sources.iter().find(|(s, _)| *s == id) else {
        let ids = sources.iter().map(|(s, _)| *s);
        let message = format!(
            "unknown source `{id}`{}: a citation starts with a declared source id (known: {})",
            suggest(id, ids.clone()),
            join(ids)
        );
        return vec![(e.source.span(), message)];
    };
    match &e.confidence {
        Some(tag) if !confidence.scale.is_empty() && confidence.scale != *scale => {
            let message = format!(
                "`{}` is a tag of scale `{}`, but `{id}` tags its claims on scale `{scale}`: \
                 give this record a `{scale}` tag",
                confidence.tag, confidence.scale
            );
            vec![(tag.span(), message)]
        }
        _ => Vec::new(),
    }
}

/// Why `s` is not a valid identifier (letters, digits, `_`; not starting with a digit).
pub(crate) fn ident_error(s: &str) -> Option<String> {
    let ok = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Some(format!(
            "`{s}` is not a valid identifier (letters, digits, `_`)"
        ));
    }
    names::rust_error(s)
}
