//! Resolves `[[constant]]`, `[[table]]`, `[[struct.rule]]` and `[[bitfield.rule]]`
//! against the resolved types: every name looked up, every expression parsed with syn,
//! type-checked and lowered to [`Expr`]. Errors point into the expression string.

use std::collections::BTreeSet;
use std::ops::Range;

use proc_macro2::Span;
use serde_spanned::Spanned;
use syn::spanned::Spanned as _;

use crate::diagnostics::{SourceFile, SpecError, suggest};
use crate::load::{
    citation_errors, declared_tags, evidence_record, ident_error, undeclared_confidence,
};
use crate::model::path::{Step, Target, Unions};
use crate::model::rules::*;
use crate::model::{BitsType, Confidence, Evidence, Int, Model, TypeKind, TypeRef};
use crate::schema::RawEvidence;
use crate::schema::RawFile;
use crate::schema::rules::*;

/// At most this many rules per struct (violations are a 64-bit mask).
pub const MAX_RULES: usize = 64;

/// Loads every rule-related declaration; returns the rules and the errors found.
pub(crate) fn resolve(
    raws: &[(usize, RawFile)],
    model: &Model,
    files: &[SourceFile],
) -> (RuleModel, Vec<SpecError>) {
    let mut cx = Cx {
        model,
        files,
        errors: Vec::new(),
        out: RuleModel::default(),
    };
    for (fi, raw) in raws {
        for c in &raw.constant {
            cx.constant(*fi, c);
        }
    }
    for (fi, raw) in raws {
        for t in &raw.table {
            cx.table(*fi, t);
        }
    }
    // Nested types first, so that a word's rules can call theirs.
    let mut owners: Vec<(u8, usize, &Spanned<String>, &[RawRule])> = Vec::new();
    for (fi, raw) in raws {
        for b in &raw.bitfield {
            owners.push((0, *fi, &b.name, &b.rule));
        }
        for s in &raw.structs {
            let rank = if s.opcode.is_some() { 2 } else { 1 };
            owners.push((rank, *fi, &s.name, &s.rule));
        }
    }
    owners.sort_by_key(|o| o.0);
    for (_, fi, name, rules) in owners {
        if rules.is_empty() {
            continue;
        }
        let Some(owner) = model.types.iter().position(|t| &t.name == name.get_ref()) else {
            continue; // the type itself is in error
        };
        cx.rule_set(fi, owner, rules);
    }
    cx.out.sets.sort_by_key(|s| s.owner);
    (cx.out, cx.errors)
}

struct Cx<'a> {
    model: &'a Model,
    files: &'a [SourceFile],
    errors: Vec<SpecError>,
    out: RuleModel,
}

/// Where an expression string sits in its file, for pointing into it.
struct Site {
    /// The whole string token.
    whole: Range<usize>,
    /// File offset of the string's first character, when the text maps byte for byte
    /// (no escapes); otherwise errors point at the whole string.
    content: Option<usize>,
}

impl Site {
    fn of(files: &[SourceFile], file: usize, s: &Spanned<String>) -> Site {
        let whole = s.span();
        let raw = files[file].text.get(whole.clone()).unwrap_or("");
        let content = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            let mut start = whole.start + 3;
            if raw[3..].starts_with("\r\n") {
                start += 2;
            } else if raw[3..].starts_with('\n') {
                start += 1;
            }
            (raw.starts_with("'''") || !raw.contains('\\')).then_some(start)
        } else if raw.starts_with('\'') || (raw.starts_with('"') && !raw.contains('\\')) {
            Some(whole.start + 1)
        } else {
            None
        };
        Site { whole, content }
    }

    fn span(&self, s: Span) -> Range<usize> {
        self.range(s.byte_range())
    }

    /// A byte range of the expression text, in the file.
    fn range(&self, r: Range<usize>) -> Range<usize> {
        match self.content {
            Some(_) if r.start == 0 && r.end == 0 => self.whole.clone(),
            Some(start) => start + r.start..start + r.end.max(r.start + 1),
            None => self.whole.clone(),
        }
    }
}

/// A value's type while checking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    /// An integer in `lo..=hi`.
    Int(i128, i128),
    Bool,
    /// A value of the enum type at this index.
    Enum(usize),
    /// A value of the flags type at this index.
    Flags(usize),
}

struct Typed {
    ty: Ty,
    expr: Expr,
}

/// What a field path names.
struct Place {
    path: String,
    offset: usize,
    kind: PlaceKind,
}

enum PlaceKind {
    Scalar {
        size: usize,
        signed: bool,
        bits: Option<(u32, u32)>,
        ty: Ty,
        /// What a stored 0 means, for fields with a `codec`.
        zero_means: Option<u64>,
    },
    /// A struct, bitfield, union, array or text: not a value.
    Composite {
        ty_index: Option<usize>,
        what: String,
    },
}

enum Seg {
    Name(String, Span),
    Index(usize, Span),
}

type Fail = (Span, String);

fn int_range(int: Int) -> (i128, i128) {
    let bits = int.bits();
    if int.signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn fits(lo: i128, hi: i128) -> bool {
    lo >= i128::from(i64::MIN) && hi <= i128::from(i64::MAX)
}

/// `x in [a, b]` is not Rust; rewrite the `in` to `==` (same length, so spans stay put)
/// and read `x == [a, b]` as membership.
fn rewrite_in(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = s.to_string().into_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'i'
            && b[i + 1] == b'n'
            && (i == 0 || !ident(b[i - 1]))
            && (i + 2 >= b.len() || !ident(b[i + 2]))
        {
            let next = b[i + 2..].iter().find(|c| !c.is_ascii_whitespace());
            if next == Some(&b'[') {
                out[i] = b'=';
                out[i + 1] = b'=';
            }
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

fn segs(e: &syn::Expr) -> Result<Vec<Seg>, Fail> {
    match e {
        syn::Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let s = &p.path.segments[0];
            if !s.arguments.is_none() {
                return Err((e.span(), "generic arguments are not allowed here".into()));
            }
            Ok(vec![Seg::Name(s.ident.to_string(), s.ident.span())])
        }
        syn::Expr::Field(f) => {
            let mut v = segs(&f.base)?;
            match &f.member {
                syn::Member::Named(id) => v.push(Seg::Name(id.to_string(), id.span())),
                syn::Member::Unnamed(_) => {
                    return Err((f.member.span(), "fields are named, not numbered".into()));
                }
            }
            Ok(v)
        }
        syn::Expr::Index(ix) => {
            let mut v = segs(&ix.expr)?;
            match &*ix.index {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) if n.suffix().is_empty() => {
                    let i = n
                        .base10_parse::<usize>()
                        .map_err(|_| (n.span(), "index out of range".to_string()))?;
                    v.push(Seg::Index(i, ix.index.span()));
                }
                other => {
                    return Err((
                        other.span(),
                        "an array index must be an integer literal".into(),
                    ));
                }
            }
            Ok(v)
        }
        syn::Expr::Paren(p) => segs(&p.expr),
        _ => Err((e.span(), "expected a field path".into())),
    }
}

impl Cx<'_> {
    fn error(&mut self, file: usize, span: Range<usize>, msg: impl Into<String>) {
        let e = self.files[file].error(span, msg);
        self.errors.push(e);
    }

    fn confidence(&mut self, file: usize, tag: &Spanned<String>) -> Confidence {
        if let Some(c) =
            declared_tags(&self.model.levels, &self.model.scales).find(|c| &c.tag == tag.get_ref())
        {
            return c;
        }
        let tags: Vec<String> = declared_tags(&self.model.levels, &self.model.scales)
            .map(|c| c.tag)
            .collect();
        let hint = suggest(tag.get_ref(), tags.iter().map(String::as_str));
        self.error(
            file,
            tag.span(),
            format!("unknown confidence tag `{}`{hint}", tag.get_ref()),
        );
        undeclared_confidence(tag.get_ref())
    }

    /// The confidence `tag` names, or `default` (the enclosing declaration's) without one.
    fn confidence_or(
        &mut self,
        file: usize,
        tag: &Option<Spanned<String>>,
        default: &Confidence,
    ) -> Confidence {
        match tag {
            Some(t) => self.confidence(file, t),
            None => default.clone(),
        }
    }

    fn evidence(
        &mut self,
        file: usize,
        raw: &[RawEvidence],
        default: &Confidence,
        what: &Spanned<String>,
    ) -> Vec<Evidence> {
        if raw.is_empty() {
            self.error(
                file,
                what.span(),
                format!(
                    "`{}` has no evidence: cite the source that states it",
                    what.get_ref()
                ),
            );
        }
        let mut sources: Vec<(&str, &str)> = (self.model.sources.iter())
            .map(|s| (s.id.as_str(), s.scale.as_str()))
            .collect();
        sources.sort();
        raw.iter()
            .map(|e| {
                let confidence = self.confidence_or(file, &e.confidence, default);
                for (span, msg) in citation_errors(e, &confidence, &sources) {
                    self.error(file, span, msg);
                }
                evidence_record(e, confidence)
            })
            .collect()
    }

    fn check_name(&mut self, file: usize, name: &Spanned<String>) -> bool {
        match ident_error(name.get_ref()) {
            None => true,
            Some(msg) => {
                self.error(file, name.span(), msg);
                false
            }
        }
    }

    // ---- constants and tables ------------------------------------------------------

    fn constant(&mut self, file: usize, c: &RawConstant) {
        self.check_name(file, &c.name);
        if self
            .out
            .constants
            .iter()
            .any(|x| &x.name == c.name.get_ref())
        {
            self.error(
                file,
                c.name.span(),
                format!("duplicate constant `{}`", c.name.get_ref()),
            );
            return;
        }
        let confidence = self.confidence(file, &c.confidence);
        let evidence = self.evidence(file, &c.evidence, &confidence, &c.name);
        self.out.constants.push(Constant {
            name: c.name.get_ref().clone(),
            value: *c.value.get_ref(),
            doc: c.doc.trim().to_string(),
            confidence,
            evidence,
        });
    }

    fn table(&mut self, file: usize, t: &RawTable) {
        self.check_name(file, &t.name);
        if self.out.tables.iter().any(|x| &x.name == t.name.get_ref()) {
            self.error(
                file,
                t.name.span(),
                format!("duplicate table `{}`", t.name.get_ref()),
            );
            return;
        }
        if matches!(
            t.name.get_ref().as_str(),
            "has" | "is_enumerator" | "value" | "text_len"
        ) {
            self.error(
                file,
                t.name.span(),
                format!("`{}` is a built-in helper", t.name.get_ref()),
            );
        }
        let Some(over) = self
            .model
            .types
            .iter()
            .position(|x| &x.name == t.over.get_ref())
        else {
            self.error(
                file,
                t.over.span(),
                format!("unknown type `{}`", t.over.get_ref()),
            );
            return;
        };
        let TypeKind::Enum { values, .. } = &self.model.types[over].kind else {
            self.error(
                file,
                t.over.span(),
                format!("a table is over an enum; `{}` is not one", t.over.get_ref()),
            );
            return;
        };
        let mut entries: Vec<(i64, String, i64)> = Vec::new();
        for g in &t.values {
            for k in &g.keys {
                let Some(e) = values.iter().find(|v| {
                    &v.name == k.get_ref() || v.aliases.iter().any(|a| &a.name == k.get_ref())
                }) else {
                    self.error(
                        file,
                        k.span(),
                        format!(
                            "`{}` is not an enumerator of `{}`{}",
                            k.get_ref(),
                            t.over.get_ref(),
                            suggest(k.get_ref(), values.iter().map(|v| v.name.as_str()))
                        ),
                    );
                    continue;
                };
                if entries.iter().any(|x| x.0 == e.value as i64) {
                    self.error(
                        file,
                        k.span(),
                        format!(
                            "`{}` is listed twice in table `{}`",
                            k.get_ref(),
                            t.name.get_ref()
                        ),
                    );
                    continue;
                }
                entries.push((e.value as i64, e.name.clone(), g.value));
            }
        }
        entries.sort_by_key(|e| e.0);
        let confidence = self.confidence(file, &t.confidence);
        let evidence = self.evidence(file, &t.evidence, &confidence, &t.name);
        self.out.tables.push(Table {
            name: t.name.get_ref().clone(),
            over,
            over_name: t.over.get_ref().clone(),
            entries,
            default: t.default,
            doc: t.doc.trim().to_string(),
            confidence,
            evidence,
        });
    }

    // ---- rule sets -----------------------------------------------------------------

    fn rule_set(&mut self, file: usize, owner: usize, raw: &[RawRule]) {
        let model = self.model;
        let owner_def = &model.types[owner];
        if !matches!(
            owner_def.kind,
            TypeKind::Struct { .. } | TypeKind::Bitfield { .. }
        ) {
            return;
        }
        if raw.len() > MAX_RULES {
            self.error(
                file,
                raw[MAX_RULES].name.span(),
                format!(
                    "`{}` has {} rules; at most {MAX_RULES} per struct",
                    owner_def.name,
                    raw.len()
                ),
            );
            return;
        }
        // Ids first, so that composites may name parts declared after them.
        let mut ids: Vec<String> = Vec::new();
        for r in raw {
            let id = r.id.as_ref().unwrap_or(&r.name);
            self.check_name(file, &r.name);
            if r.id.is_some() {
                self.check_name(file, id);
            }
            if ids.contains(id.get_ref()) {
                self.error(
                    file,
                    id.span(),
                    format!(
                        "`{}` already names a rule of `{}`; give this call site its own `id`",
                        id.get_ref(),
                        owner_def.name
                    ),
                );
            }
            ids.push(id.get_ref().clone());
        }
        let mut rules: Vec<Rule> = Vec::new();
        // A composite's part ids, and whether it is an `all`.
        type Parts<'r> = Option<(&'r Vec<Spanned<String>>, bool)>;
        let mut parts_of: Vec<Parts> = Vec::new();
        for (i, r) in raw.iter().enumerate() {
            let shapes = [
                r.expr.is_some(),
                r.all.is_some(),
                r.any.is_some(),
                r.enforced.as_ref().is_some_and(|e| !e.get_ref()),
            ];
            let n = shapes.iter().filter(|x| **x).count();
            if n != 1 {
                let msg = if n == 0 {
                    format!(
                        "rule `{}` needs an `expr`, `all = [...]`, `any = [...]`, or \
                         `enforced = false` when the sources do not give its body",
                        ids[i]
                    )
                } else {
                    format!(
                        "rule `{}` must be exactly one of: an `expr`, `all`, `any`, or \
                         `enforced = false` (not enforced rules have no body)",
                        ids[i]
                    )
                };
                self.error(file, r.name.span(), msg);
            }
            if let Some(e) = &r.enforced
                && *e.get_ref()
                && r.expr.is_none()
                && r.all.is_none()
                && r.any.is_none()
            {
                self.error(
                    file,
                    e.span(),
                    "`enforced = true` needs an `expr` (or `all` / `any`)",
                );
            }
            let confidence = self.confidence_or(file, &r.confidence, &owner_def.confidence);
            let what = r.id.as_ref().unwrap_or(&r.name);
            let evidence = self.evidence(file, &r.evidence, &confidence, what);
            let arch = self.arch_list(file, r.arch.as_deref());
            let kind = match &r.expr {
                Some(src) => match self.leaf_expr(file, owner, src) {
                    Some(expr) => RuleKind::Expr {
                        source: src.get_ref().trim().to_string(),
                        expr,
                    },
                    None => RuleKind::Expr {
                        source: src.get_ref().trim().to_string(),
                        expr: Expr::Bool { value: true },
                    },
                },
                None => RuleKind::NotEnforced,
            };
            parts_of.push(match (&r.all, &r.any) {
                (Some(p), _) => Some((p, true)),
                (None, Some(p)) => Some((p, false)),
                _ => None,
            });
            rules.push(Rule {
                id: ids[i].clone(),
                name: r.name.get_ref().clone(),
                args: r.args.clone(),
                clause: r.clause,
                kind,
                parent: None,
                arch,
                message: r.message.trim().to_string(),
                doc: r.doc.as_deref().unwrap_or("").trim().to_string(),
                fields: Vec::new(),
                confidence,
                evidence,
                file: owner_def.file.clone(),
                line: self.files[file].line_of(r.name.span().start),
            });
        }
        // Composites: resolve parts, one parent each.
        for i in 0..rules.len() {
            let Some((parts, is_all)) = parts_of[i] else {
                continue;
            };
            if parts.is_empty() {
                self.error(
                    file,
                    raw[i].name.span(),
                    format!("composite rule `{}` has no parts", rules[i].id),
                );
            }
            let mut idx = Vec::new();
            for p in parts {
                let Some(j) = ids.iter().position(|x| x == p.get_ref()) else {
                    self.error(
                        file,
                        p.span(),
                        format!(
                            "`{}` is not a rule of `{}` (rules: {})",
                            p.get_ref(),
                            owner_def.name,
                            ids.join(", ")
                        ),
                    );
                    continue;
                };
                if j == i {
                    self.error(
                        file,
                        p.span(),
                        format!("rule `{}` lists itself", p.get_ref()),
                    );
                    continue;
                }
                if let Some(other) = rules[j].parent {
                    self.error(
                        file,
                        p.span(),
                        format!(
                            "rule `{}` is already a part of `{}`; a rule has one parent",
                            p.get_ref(),
                            rules[other].id
                        ),
                    );
                    continue;
                }
                rules[j].parent = Some(i);
                idx.push(j);
            }
            rules[i].kind = if is_all {
                RuleKind::All { parts: idx }
            } else {
                RuleKind::Any { parts: idx }
            };
        }
        // A cycle of composites has no top-level rule above it.
        for i in 0..rules.len() {
            let mut at = i;
            let mut steps = 0;
            while let Some(p) = rules[at].parent {
                at = p;
                steps += 1;
                if steps > rules.len() {
                    self.error(
                        file,
                        raw[i].name.span(),
                        format!("rule `{}` is part of a cycle of composites", rules[i].id),
                    );
                    break;
                }
            }
            if steps > rules.len() {
                break;
            }
        }
        // Fields read: derived, and checked against the declared list.
        let mut set = RuleSet {
            owner,
            owner_name: owner_def.name.clone(),
            rules,
        };
        let mut order = set.post_order();
        for i in 0..set.rules.len() {
            if !order.contains(&i) {
                order.push(i); // in a cycle, already reported
            }
        }
        for i in order {
            let derived: BTreeSet<String> = match &set.rules[i].kind {
                RuleKind::Expr { expr, .. } => {
                    let mut reads = Vec::new();
                    expr.reads(&mut reads);
                    reads.into_iter().map(|a| a.path).collect()
                }
                RuleKind::All { parts } | RuleKind::Any { parts } => parts
                    .iter()
                    .flat_map(|&p| set.rules[p].fields.iter().cloned())
                    .collect(),
                RuleKind::NotEnforced => BTreeSet::new(),
            };
            let declared = raw[i].fields.as_ref();
            let fields = match (declared, &set.rules[i].kind) {
                (Some(list), RuleKind::NotEnforced) => {
                    for f in list {
                        self.field_path(file, owner, f);
                    }
                    list.iter().map(|f| f.get_ref().clone()).collect()
                }
                (Some(list), _) => {
                    self.compare_fields(file, &set.rules[i].id, list, &derived);
                    derived.into_iter().collect()
                }
                (None, _) => derived.into_iter().collect(),
            };
            set.rules[i].fields = collapse(fields);
        }
        self.out.sets.push(set);
    }

    fn compare_fields(
        &mut self,
        file: usize,
        id: &str,
        list: &[Spanned<String>],
        derived: &BTreeSet<String>,
    ) {
        let covers = |decl: &str, read: &str| {
            read == decl
                || read.starts_with(&format!("{decl}."))
                || read.starts_with(&format!("{decl}["))
        };
        for f in list {
            if !derived.iter().any(|r| covers(f.get_ref(), r)) {
                self.error(
                    file,
                    f.span(),
                    format!(
                        "rule `{id}` lists field `{}`, which its expression does not read \
                         (it reads: {})",
                        f.get_ref(),
                        derived.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        let missing: Vec<&String> = derived
            .iter()
            .filter(|r| !list.iter().any(|f| covers(f.get_ref(), r)))
            .collect();
        if let (false, Some(first)) = (missing.is_empty(), list.first()) {
            self.error(
                file,
                first.span(),
                format!(
                    "rule `{id}` reads {} but does not list {}",
                    missing
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if missing.len() == 1 { "it" } else { "them" }
                ),
            );
        }
    }

    /// Checks a `fields` entry of a not-enforced rule: a path to any member.
    fn field_path(&mut self, file: usize, owner: usize, f: &Spanned<String>) {
        let site = Site::of(self.files, file, f);
        if !self.shallow(file, &site, f.get_ref()) {
            return;
        }
        let parsed = match syn::parse_str::<syn::Expr>(f.get_ref()) {
            Ok(e) => e,
            Err(e) => {
                let span = site.span(e.span());
                self.error(file, span, format!("`{}` is not a field path", f.get_ref()));
                return;
            }
        };
        let res = segs(&parsed).and_then(|s| self.place(owner, &s));
        if let Err((span, msg)) = res {
            let span = site.span(span);
            self.error(file, span, msg);
        }
    }

    fn arch_list(&mut self, file: usize, list: Option<&[Spanned<String>]>) -> Vec<String> {
        let mut out = Vec::new();
        for a in list.unwrap_or(&[]) {
            if !self.model.archs.iter().any(|x| &x.name == a.get_ref()) {
                let known: Vec<&str> = self.model.archs.iter().map(|x| x.name.as_str()).collect();
                self.error(
                    file,
                    a.span(),
                    format!(
                        "unknown architecture `{}` (known: {})",
                        a.get_ref(),
                        known.join(", ")
                    ),
                );
            } else if !out.contains(a.get_ref()) {
                out.push(a.get_ref().clone());
            }
        }
        out
    }

    // ---- expressions ---------------------------------------------------------------

    /// Whether `text` nests within [`super::rule_depth::MAX_EXPR_DEPTH`]; reports it where it does not.
    fn shallow(&mut self, file: usize, site: &Site, text: &str) -> bool {
        let Some(at) = super::rule_depth::too_deep(text) else {
            return true;
        };
        self.error(
            file,
            site.range(at),
            format!(
                "the expression nests more than {} levels deep here (every name, number, \
                 operator and bracket on one path is a level; each item of a list starts \
                 afresh): split it into several rules, or use `x in [...]` for a list of values",
                super::rule_depth::MAX_EXPR_DEPTH
            ),
        );
        false
    }

    fn leaf_expr(&mut self, file: usize, owner: usize, src: &Spanned<String>) -> Option<Expr> {
        let site = Site::of(self.files, file, src);
        let text = rewrite_in(src.get_ref());
        if !self.shallow(file, &site, &text) {
            return None;
        }
        let parsed = match syn::parse_str::<syn::Expr>(&text) {
            Ok(e) => e,
            Err(e) => {
                let span = site.span(e.span());
                self.error(file, span, format!("cannot parse the rule expression: {e}"));
                return None;
            }
        };
        match self.expr(owner, &parsed) {
            Ok(t) if t.ty == Ty::Bool => Some(t.expr),
            Ok(t) => {
                let span = site.span(parsed.span());
                self.error(
                    file,
                    span,
                    format!(
                        "a rule expression must be a condition; this is {}",
                        self.ty_name(t.ty)
                    ),
                );
                None
            }
            Err((span, msg)) => {
                let span = site.span(span);
                self.error(file, span, msg);
                None
            }
        }
    }

    fn ty_name(&self, t: Ty) -> String {
        match t {
            Ty::Int(lo, hi) => format!("an integer ({lo}..={hi})"),
            Ty::Bool => "a condition".into(),
            Ty::Enum(i) => format!("a `{}` value", self.model.types[i].name),
            Ty::Flags(i) => format!("a `{}` flags value", self.model.types[i].name),
        }
    }

    /// Resolves a field path from `owner`.
    fn place(&self, owner: usize, segs: &[Seg]) -> Result<Place, Fail> {
        let m = self.model;
        let steps: Vec<Step> = segs
            .iter()
            .map(|s| match s {
                Seg::Name(n, _) => Step::Name(n.clone()),
                Seg::Index(k, _) => Step::Index(*k),
            })
            .collect();
        let at = m
            .locate(owner, &steps, Unions::Discriminator)
            .map_err(|e| (seg_span(segs, e.step), e.message))?;
        let scalar = |ty, zero_means| PlaceKind::Scalar {
            size: at.size(m),
            signed: at.signed(m),
            bits: at.bits(),
            ty,
            zero_means,
        };
        let kind = match at.target {
            Target::Bits { field: b, .. } => {
                let ty = match &b.ty {
                    BitsType::Uint => Ty::Int(0, (1i128 << b.width) - 1),
                    BitsType::Named { index, .. } => match m.types[*index].kind {
                        TypeKind::Enum { .. } => Ty::Enum(*index),
                        _ => Ty::Flags(*index),
                    },
                };
                scalar(ty, None)
            }
            Target::Type(TypeRef::Int { int }) => {
                let (lo, hi) = int_range(*int);
                if !fits(lo, hi) {
                    return Err((
                        seg_span(segs, segs.len().saturating_sub(1)),
                        format!("`{}` is a u64; rules read values up to 63 bits", at.path),
                    ));
                }
                let zero_means = at.codec.map(|crate::model::Codec::ZeroMeans(z)| z);
                scalar(Ty::Int(lo, hi), zero_means)
            }
            Target::Type(TypeRef::Named { index, name }) => match &m.types[*index].kind {
                TypeKind::Enum { .. } => scalar(Ty::Enum(*index), None),
                TypeKind::Flags { .. } => scalar(Ty::Flags(*index), None),
                _ => PlaceKind::Composite {
                    ty_index: Some(*index),
                    what: name.clone(),
                },
            },
            Target::Type(ty) => PlaceKind::Composite {
                ty_index: None,
                what: ty.spelling(),
            },
        };
        Ok(Place {
            path: at.path,
            offset: at.offset,
            kind,
        })
    }

    fn expr(&self, owner: usize, e: &syn::Expr) -> Result<Typed, Fail> {
        match e {
            syn::Expr::Paren(p) => self.expr(owner, &p.expr),
            syn::Expr::Group(g) => self.expr(owner, &g.expr),
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(n) => {
                    if !n.suffix().is_empty() {
                        return Err((n.span(), "write integers without a type suffix".into()));
                    }
                    let v = n
                        .base10_parse::<i64>()
                        .map_err(|_| (n.span(), "integer literal out of range".to_string()))?;
                    Ok(Typed {
                        ty: Ty::Int(v.into(), v.into()),
                        expr: Expr::Int { value: v },
                    })
                }
                syn::Lit::Bool(b) => Ok(Typed {
                    ty: Ty::Bool,
                    expr: Expr::Bool { value: b.value },
                }),
                _ => Err((
                    l.span(),
                    "only integer and boolean literals are allowed".into(),
                )),
            },
            syn::Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 2 => {
                self.scoped_name(&p.path)
            }
            syn::Expr::Path(_) | syn::Expr::Field(_) | syn::Expr::Index(_) => {
                if let syn::Expr::Path(p) = e
                    && p.path.segments.len() == 1
                {
                    let name = p.path.segments[0].ident.to_string();
                    let is_field = self
                        .place(owner, &[Seg::Name(name.clone(), e.span())])
                        .is_ok();
                    if !is_field {
                        if let Some(i) = self.out.constants.iter().position(|c| c.name == name) {
                            let v = i128::from(self.out.constants[i].value);
                            return Ok(Typed {
                                ty: Ty::Int(v, v),
                                expr: Expr::Const { index: i },
                            });
                        }
                        if name == "nc" {
                            let lo = self.model.archs.iter().map(|a| a.nc).min().unwrap_or(0);
                            let hi = self.model.archs.iter().map(|a| a.nc).max().unwrap_or(0);
                            return Ok(Typed {
                                ty: Ty::Int(lo.into(), hi.into()),
                                expr: Expr::Nc,
                            });
                        }
                    }
                }
                let s = segs(e)?;
                let place = self.place(owner, &s)?;
                match place.kind {
                    PlaceKind::Scalar {
                        size,
                        signed,
                        bits,
                        ty,
                        ..
                    } => Ok(Typed {
                        ty,
                        expr: Expr::Read {
                            access: Access {
                                path: place.path,
                                offset: place.offset,
                                size,
                                signed,
                                bits,
                            },
                        },
                    }),
                    PlaceKind::Composite { what, .. } => Err((
                        e.span(),
                        format!(
                            "`{}` is a `{what}`, not a value: name one of its members{}",
                            if place.path.is_empty() {
                                "the struct"
                            } else {
                                &place.path
                            },
                            " (or pass it to one of its type's rules)"
                        ),
                    )),
                }
            }
            syn::Expr::Unary(u) => {
                let a = self.expr(owner, &u.expr)?;
                match u.op {
                    syn::UnOp::Not(_) => {
                        if a.ty != Ty::Bool {
                            return Err((
                                u.expr.span(),
                                format!("`!` needs a condition; this is {}", self.ty_name(a.ty)),
                            ));
                        }
                        Ok(Typed {
                            ty: Ty::Bool,
                            expr: not(a.expr),
                        })
                    }
                    syn::UnOp::Neg(_) => {
                        let (lo, hi) = self.int(&a, u.expr.span())?;
                        Ok(Typed {
                            ty: Ty::Int(-hi, -lo),
                            expr: Expr::Neg {
                                arg: Box::new(a.expr),
                            },
                        })
                    }
                    _ => Err((u.span(), "only `!` and `-` are allowed".into())),
                }
            }
            syn::Expr::Binary(b) => self.binary(owner, b),
            syn::Expr::Call(c) => self.call(owner, c),
            syn::Expr::Array(a) => Err((
                a.span(),
                "a list is only allowed after `in` (`x in [a, b]`)".into(),
            )),
            _ => Err((
                e.span(),
                "not allowed in a rule expression (allowed: field paths, integer literals, \
                 enumerators, constants, `nc`, `+ - * / % &`, comparisons, `&& || !`, \
                 `x in [..]`, and calls of helpers, tables and nested types' rules)"
                    .into(),
            )),
        }
    }

    /// Like [`Self::expr`], but a bare name that is no field, constant or `nc` may be an
    /// enumerator of `hint` (the enum on the other side of a comparison).
    fn expr_in(&self, owner: usize, e: &syn::Expr, hint: Ty) -> Result<Typed, Fail> {
        if let (Ty::Enum(ei), syn::Expr::Path(p)) = (hint, e)
            && p.qself.is_none()
            && p.path.segments.len() == 1
        {
            let name = p.path.segments[0].ident.to_string();
            let known = self
                .place(owner, &[Seg::Name(name.clone(), e.span())])
                .is_ok()
                || self.out.constants.iter().any(|c| c.name == name)
                || name == "nc";
            if !known
                && let TypeKind::Enum { values, .. } = &self.model.types[ei].kind
                && let Some(v) = values
                    .iter()
                    .find(|v| v.name == name || v.aliases.iter().any(|a| a.name == name))
            {
                return Ok(Typed {
                    ty: Ty::Enum(ei),
                    expr: Expr::Int {
                        value: v.value as i64,
                    },
                });
            }
        }
        self.expr(owner, e)
    }

    /// `ENUM::NAME` (an enumerator or alias) or `FLAGS::BIT` (the bit's mask).
    fn scoped_name(&self, path: &syn::Path) -> Result<Typed, Fail> {
        let ty = path.segments[0].ident.to_string();
        let name = path.segments[1].ident.to_string();
        let span = path.span();
        let Some(index) = self.model.types.iter().position(|t| t.name == ty) else {
            return Err((
                path.segments[0].ident.span(),
                format!("unknown type `{ty}`"),
            ));
        };
        match &self.model.types[index].kind {
            TypeKind::Enum { values, .. } => {
                let Some(v) = values
                    .iter()
                    .find(|v| v.name == name || v.aliases.iter().any(|a| a.name == name))
                else {
                    let names: Vec<&str> = values.iter().map(|v| v.name.as_str()).collect();
                    return Err((
                        span,
                        format!(
                            "`{name}` is not an enumerator of `{ty}`{} (it has: {})",
                            suggest(&name, names.iter().copied()),
                            names.join(", ")
                        ),
                    ));
                };
                Ok(Typed {
                    ty: Ty::Enum(index),
                    expr: Expr::Int {
                        value: v.value as i64,
                    },
                })
            }
            TypeKind::Flags { bits, .. } => {
                let Some(b) = bits.iter().find(|b| b.name == name) else {
                    let names: Vec<&str> = bits.iter().map(|b| b.name.as_str()).collect();
                    return Err((
                        span,
                        format!(
                            "`{name}` is not a bit of `{ty}` (it has: {})",
                            names.join(", ")
                        ),
                    ));
                };
                let v = 1i64 << b.bit;
                Ok(Typed {
                    ty: Ty::Int(v.into(), v.into()),
                    expr: Expr::Int { value: v },
                })
            }
            _ => Err((span, format!("`{ty}` is not an enum or flags type"))),
        }
    }

    fn int(&self, t: &Typed, span: Span) -> Result<(i128, i128), Fail> {
        match t.ty {
            Ty::Int(lo, hi) => Ok((lo, hi)),
            Ty::Flags(i) => match &self.model.types[i].kind {
                TypeKind::Flags { repr, .. } => Ok(int_range(*repr)),
                _ => Ok((0, 0)),
            },
            Ty::Enum(i) => Err((
                span,
                format!(
                    "`{}` values are compared with its enumerators (`{}::NAME`), not used as numbers; \
                 use a table to map them to numbers",
                    self.model.types[i].name, self.model.types[i].name
                ),
            )),
            Ty::Bool => Err((span, "a condition is not a number".into())),
        }
    }

    fn binary(&self, owner: usize, b: &syn::ExprBinary) -> Result<Typed, Fail> {
        use syn::BinOp as S;
        // Membership: `x == [a, b]` (written `x in [a, b]`).
        if let (S::Eq(_) | S::Ne(_), syn::Expr::Array(arr)) = (&b.op, &*b.right) {
            let lhs = self.expr(owner, &b.left)?;
            if arr.elems.is_empty() {
                return Err((arr.span(), "an empty list".into()));
            }
            let eq = matches!(b.op, S::Eq(_));
            let mut parts = Vec::new();
            for el in &arr.elems {
                let r = self.expr_in(owner, el, lhs.ty)?;
                self.comparable(&lhs, &r, el.span(), true)?;
                parts.push(bin(
                    if eq { BinOp::Eq } else { BinOp::Ne },
                    lhs.expr.clone(),
                    r.expr,
                ));
            }
            return Ok(Typed {
                ty: Ty::Bool,
                expr: chain(if eq { BinOp::Or } else { BinOp::And }, parts),
            });
        }
        let l = self.expr(owner, &b.left)?;
        let r = self.expr_in(owner, &b.right, l.ty)?;
        let (op, kind) = match b.op {
            S::Add(_) => (BinOp::Add, 'a'),
            S::Sub(_) => (BinOp::Sub, 'a'),
            S::Mul(_) => (BinOp::Mul, 'a'),
            S::Div(_) => (BinOp::Div, 'd'),
            S::Rem(_) => (BinOp::Rem, 'd'),
            S::BitAnd(_) => (BinOp::BitAnd, '&'),
            S::Eq(_) => (BinOp::Eq, 'e'),
            S::Ne(_) => (BinOp::Ne, 'e'),
            S::Lt(_) => (BinOp::Lt, 'o'),
            S::Le(_) => (BinOp::Le, 'o'),
            S::Gt(_) => (BinOp::Gt, 'o'),
            S::Ge(_) => (BinOp::Ge, 'o'),
            S::And(_) => (BinOp::And, 'l'),
            S::Or(_) => (BinOp::Or, 'l'),
            _ => {
                return Err((
                    b.op.span(),
                    "operator not allowed in rules (allowed: + - * / % & == != < <= > >= && || !)"
                        .into(),
                ));
            }
        };
        let span = b.span();
        let ty = match kind {
            'l' => {
                for (t, e) in [(&l, &b.left), (&r, &b.right)] {
                    if t.ty != Ty::Bool {
                        return Err((
                            e.span(),
                            format!(
                                "`{}` needs conditions on both sides; this is {}",
                                op.symbol(),
                                self.ty_name(t.ty)
                            ),
                        ));
                    }
                }
                Ty::Bool
            }
            'e' => {
                self.comparable(&l, &r, span, true)?;
                Ty::Bool
            }
            'o' => {
                self.int(&l, b.left.span())?;
                self.int(&r, b.right.span())?;
                Ty::Bool
            }
            _ => {
                let (a, bb) = (self.int(&l, b.left.span())?, self.int(&r, b.right.span())?);
                let (lo, hi) = match kind {
                    'a' => {
                        let c = match op {
                            BinOp::Add => [a.0 + bb.0, a.1 + bb.1, a.0 + bb.0, a.1 + bb.1],
                            BinOp::Sub => [a.0 - bb.1, a.1 - bb.0, a.0 - bb.1, a.1 - bb.0],
                            _ => [a.0 * bb.0, a.0 * bb.1, a.1 * bb.0, a.1 * bb.1],
                        };
                        (*c.iter().min().unwrap_or(&0), *c.iter().max().unwrap_or(&0))
                    }
                    'd' => {
                        if bb.0 != bb.1 || bb.0 == 0 {
                            return Err((
                                b.right.span(),
                                format!(
                                    "the right side of `{}` must be a non-zero constant",
                                    op.symbol()
                                ),
                            ));
                        }
                        let d = bb.0;
                        if op == BinOp::Div {
                            let (x, y) = (a.0 / d, a.1 / d);
                            (x.min(y), x.max(y))
                        } else {
                            let m = d.abs() - 1;
                            if a.0 >= 0 {
                                (0, m.min(a.1))
                            } else if a.1 <= 0 {
                                (-m.min(-a.0), 0)
                            } else {
                                (-m, m)
                            }
                        }
                    }
                    _ => {
                        if a.0 < 0 || bb.0 < 0 {
                            return Err((span, "`&` needs values that cannot be negative".into()));
                        }
                        (0, a.1.min(bb.1))
                    }
                };
                if !fits(lo, hi) {
                    return Err((
                        span,
                        format!(
                            "this can overflow a 64-bit signed integer (its range is {lo}..={hi})"
                        ),
                    ));
                }
                Ty::Int(lo, hi)
            }
        };
        Ok(Typed {
            ty,
            expr: bin(op, l.expr, r.expr),
        })
    }

    fn comparable(&self, l: &Typed, r: &Typed, span: Span, eq: bool) -> Result<(), Fail> {
        let num = |t: Ty| matches!(t, Ty::Int(..) | Ty::Flags(_));
        let ok = match (l.ty, r.ty) {
            (a, b) if num(a) && num(b) => true,
            (Ty::Enum(a), Ty::Enum(b)) => a == b,
            (Ty::Bool, Ty::Bool) => eq,
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let hint = match (l.ty, r.ty) {
            (Ty::Enum(i), Ty::Int(..)) | (Ty::Int(..), Ty::Enum(i)) => format!(
                " (compare with an enumerator such as `{}::{}`)",
                self.model.types[i].name,
                match &self.model.types[i].kind {
                    TypeKind::Enum { values, .. } =>
                        values.first().map_or("NAME", |v| v.name.as_str()),
                    _ => "NAME",
                }
            ),
            _ => String::new(),
        };
        Err((
            span,
            format!(
                "cannot compare {} with {}{hint}",
                self.ty_name(l.ty),
                self.ty_name(r.ty)
            ),
        ))
    }

    fn call(&self, owner: usize, c: &syn::ExprCall) -> Result<Typed, Fail> {
        let name = match &*c.func {
            syn::Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
                p.path.segments[0].ident.to_string()
            }
            _ => return Err((c.func.span(), "call a helper by its name".into())),
        };
        let args: Vec<&syn::Expr> = c.args.iter().collect();
        let arity = |n: usize| -> Result<(), Fail> {
            if args.len() == n {
                Ok(())
            } else {
                Err((
                    c.span(),
                    format!(
                        "`{name}` takes {n} argument{}",
                        if n == 1 { "" } else { "s" }
                    ),
                ))
            }
        };
        match name.as_str() {
            "has" => {
                arity(2)?;
                let x = self.expr(owner, args[0])?;
                let Ty::Flags(fi) = x.ty else {
                    return Err((
                        args[0].span(),
                        format!(
                            "`has` needs a flags value first; this is {}",
                            self.ty_name(x.ty)
                        ),
                    ));
                };
                let TypeKind::Flags { bits, .. } = &self.model.types[fi].kind else {
                    unreachable!("Ty::Flags is a flags type");
                };
                let fname = self.model.types[fi].name.clone();
                let bit = match args[1] {
                    syn::Expr::Path(p) if p.path.segments.len() == 1 => {
                        p.path.segments[0].ident.to_string()
                    }
                    syn::Expr::Path(p)
                        if p.path.segments.len() == 2 && p.path.segments[0].ident == fname =>
                    {
                        p.path.segments[1].ident.to_string()
                    }
                    other => return Err((other.span(), format!("name a bit of `{fname}`"))),
                };
                let Some(b) = bits.iter().find(|b| b.name == bit) else {
                    let names: Vec<&str> = bits.iter().map(|b| b.name.as_str()).collect();
                    return Err((
                        args[1].span(),
                        format!(
                            "`{bit}` is not a bit of `{fname}` (it has: {})",
                            names.join(", ")
                        ),
                    ));
                };
                Ok(Typed {
                    ty: Ty::Bool,
                    expr: bin(
                        BinOp::Ne,
                        bin(
                            BinOp::BitAnd,
                            x.expr,
                            Expr::Int {
                                value: 1i64 << b.bit,
                            },
                        ),
                        Expr::Int { value: 0 },
                    ),
                })
            }
            "value" => {
                arity(1)?;
                let s = segs(args[0])?;
                let place = self.place(owner, &s)?;
                let PlaceKind::Scalar {
                    size,
                    signed,
                    bits,
                    ty: Ty::Int(lo, hi),
                    zero_means: Some(z),
                } = place.kind
                else {
                    return Err((
                        args[0].span(),
                        format!(
                            "`value` needs an integer field with a `codec` (`zero_means`); `{}` has none",
                            place.path
                        ),
                    ));
                };
                let read = Expr::Read {
                    access: Access {
                        path: place.path,
                        offset: place.offset,
                        size,
                        signed,
                        bits,
                    },
                };
                let z = i64::try_from(z)
                    .map_err(|_| (args[0].span(), "codec value out of range".to_string()))?;
                Ok(Typed {
                    ty: Ty::Int(lo.min(z.into()), hi.max(z.into())),
                    expr: Expr::If {
                        cond: Box::new(bin(BinOp::Eq, read.clone(), Expr::Int { value: 0 })),
                        then: Box::new(Expr::Int { value: z }),
                        other: Box::new(read),
                    },
                })
            }
            "text_len" => {
                arity(1)?;
                let s = segs(args[0])?;
                let place = self.place(owner, &s)?;
                let len = match &place.kind {
                    PlaceKind::Composite { what, .. } => what
                        .strip_prefix("ascii[")
                        .and_then(|w| w.strip_suffix(']'))
                        .and_then(|w| w.parse::<usize>().ok()),
                    _ => None,
                };
                let Some(len) = len else {
                    return Err((
                        args[0].span(),
                        format!(
                            "`text_len` takes an ascii[N] field; `{}` is not one",
                            place.path
                        ),
                    ));
                };
                // The index of the first NUL, or N: nested ifs from the last byte back.
                let mut e = Expr::Int { value: len as i64 };
                for k in (0..len).rev() {
                    let byte = Expr::Read {
                        access: Access {
                            path: format!("{}[{k}]", place.path),
                            offset: place.offset + k,
                            size: 1,
                            signed: false,
                            bits: None,
                        },
                    };
                    e = Expr::If {
                        cond: Box::new(bin(BinOp::Eq, byte, Expr::Int { value: 0 })),
                        then: Box::new(Expr::Int { value: k as i64 }),
                        other: Box::new(e),
                    };
                }
                Ok(Typed {
                    ty: Ty::Int(0, len as i128),
                    expr: e,
                })
            }
            "is_enumerator" => {
                arity(1)?;
                let x = self.expr(owner, args[0])?;
                let Ty::Enum(ei) = x.ty else {
                    return Err((
                        args[0].span(),
                        format!(
                            "`is_enumerator` needs an enum value; this is {}",
                            self.ty_name(x.ty)
                        ),
                    ));
                };
                let TypeKind::Enum { values, .. } = &self.model.types[ei].kind else {
                    unreachable!("Ty::Enum is an enum type");
                };
                let parts = values.iter().map(|v| {
                    let eq = bin(
                        BinOp::Eq,
                        x.expr.clone(),
                        Expr::Int {
                            value: v.value as i64,
                        },
                    );
                    match arch_condition(self.model, &v.arch) {
                        None => eq,
                        Some(cond) => bin(BinOp::And, eq, cond),
                    }
                });
                Ok(Typed {
                    ty: Ty::Bool,
                    expr: fold(parts, BinOp::Or),
                })
            }
            _ => {
                if let Some(ti) = self.out.tables.iter().position(|t| t.name == name) {
                    arity(1)?;
                    let t = &self.out.tables[ti];
                    let x = self.expr(owner, args[0])?;
                    if x.ty != Ty::Enum(t.over) {
                        return Err((
                            args[0].span(),
                            format!(
                                "`{name}` takes a `{}` value; this is {}",
                                t.over_name,
                                self.ty_name(x.ty)
                            ),
                        ));
                    }
                    let vals = t.entries.iter().map(|e| e.2).chain([t.default]);
                    let lo = vals.clone().min().unwrap_or(0);
                    let hi = vals.max().unwrap_or(0);
                    return Ok(Typed {
                        ty: Ty::Int(lo.into(), hi.into()),
                        expr: Expr::Table {
                            index: ti,
                            arg: Box::new(x.expr),
                        },
                    });
                }
                // A rule of the argument's type.
                if args.len() == 1
                    && let Ok(s) = segs(args[0])
                    && let Ok(place) = self.place(owner, &s)
                    && let PlaceKind::Composite {
                        ty_index: Some(ti), ..
                    } = place.kind
                    && !place.path.is_empty()
                {
                    let tname = &self.model.types[ti].name;
                    let Some(set) = self.out.sets.iter().find(|s| s.owner == ti) else {
                        return Err((
                            c.func.span(),
                            format!("`{tname}` has no rules; `{name}` is not one of them"),
                        ));
                    };
                    let Some(ri) = set.by_id(&name) else {
                        let ids: Vec<&str> = set.rules.iter().map(|r| r.id.as_str()).collect();
                        return Err((
                            c.func.span(),
                            format!(
                                "`{name}` is not a rule of `{tname}` (its rules: {})",
                                ids.join(", ")
                            ),
                        ));
                    };
                    let body = set.inline(self.model, ri);
                    return Ok(Typed {
                        ty: Ty::Bool,
                        expr: rebase(&body, place.offset, &place.path),
                    });
                }
                let mut helpers = vec![
                    "has".to_string(),
                    "is_enumerator".to_string(),
                    "value".to_string(),
                ];
                helpers.extend(self.out.tables.iter().map(|t| t.name.clone()));
                Err((
                    c.func.span(),
                    format!(
                        "unknown helper `{name}` (helpers: {}; or a rule of a nested type applied to a \
                     field of that type)",
                        helpers.join(", ")
                    ),
                ))
            }
        }
    }
}

/// Drops paths covered by a shorter one in the list (`a[0]` when `a` is there), keeping
/// the order.
fn collapse(fields: Vec<String>) -> Vec<String> {
    let covered = |f: &String| {
        fields
            .iter()
            .any(|g| g != f && (f.starts_with(&format!("{g}.")) || f.starts_with(&format!("{g}["))))
    };
    let mut out: Vec<String> = Vec::new();
    for f in &fields {
        if !covered(f) && !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

fn seg_span(segs: &[Seg], i: usize) -> Span {
    match segs.get(i).or(segs.last()) {
        Some(Seg::Name(_, s)) | Some(Seg::Index(_, s)) => *s,
        None => Span::call_site(),
    }
}

/// A nested type's expression, moved to a member at `offset` / `path`.
fn rebase(e: &Expr, offset: usize, path: &str) -> Expr {
    let r = |x: &Expr| Box::new(rebase(x, offset, path));
    match e {
        Expr::Read { access } => Expr::Read {
            access: Access {
                path: format!("{path}.{}", access.path),
                offset: access.offset + offset,
                ..access.clone()
            },
        },
        Expr::Not { arg } => Expr::Not { arg: r(arg) },
        Expr::Neg { arg } => Expr::Neg { arg: r(arg) },
        Expr::Table { index, arg } => Expr::Table {
            index: *index,
            arg: r(arg),
        },
        Expr::Bin { bin, lhs, rhs } => Expr::Bin {
            bin: *bin,
            lhs: r(lhs),
            rhs: r(rhs),
        },
        Expr::Chain { bin, parts } => Expr::Chain {
            bin: *bin,
            parts: parts.iter().map(|p| rebase(p, offset, path)).collect(),
        },
        Expr::If { cond, then, other } => Expr::If {
            cond: r(cond),
            then: r(then),
            other: r(other),
        },
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite_in;

    #[test]
    fn in_is_rewritten_in_place() {
        assert_eq!(rewrite_in("x in [1, 2]"), "x == [1, 2]");
        assert_eq!(rewrite_in("min [1]"), "min [1]");
        assert_eq!(rewrite_in("a.in_x in[3]"), "a.in_x ==[3]");
        assert_eq!(rewrite_in("inx"), "inx");
    }
}
