//! Resolves `[[constant]]`, `[[table]]`, `[[struct.rule]]` and `[[bitfield.rule]]`
//! against the resolved types: every name looked up, every expression parsed with syn and
//! handed to the [`Checker`]. Errors point into the expression string.

use std::collections::BTreeSet;
use std::ops::Range;

use proc_macro2::Span;
use serde_spanned::Spanned;
use syn::spanned::Spanned as _;

use super::names::ident_error;
use super::rule_expr::{Checker, names_in, raw_keywords, rewrite_in, unraw_offset};
use super::rule_place::{RuleType, guard_arms, place, segs};
use super::{Cause, FileId, Loader, Scope};
use crate::diagnostics::{SourceFile, suggest};
use crate::model::rules::*;
use crate::model::{Model, TypeKind};
use crate::schema::RawFile;
use crate::schema::rules::*;

/// At most this many rules per struct (violations are a 64-bit mask).
pub const MAX_RULES: usize = 64;

impl Loader {
    /// Resolves every rule-related declaration, after the words.
    pub(super) fn rules(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> RuleModel {
        let mut out = RuleModel::default();
        for (fi, raw) in raws {
            for c in &raw.constant {
                let before = self.errors.len();
                match self.constant_decl(FileId(*fi), c, &out.constants, scope) {
                    Some(c) => out.constants.push(c),
                    None => self.unresolved(before, &c.name),
                }
            }
        }
        for (fi, raw) in raws {
            for t in &raw.table {
                let before = self.errors.len();
                match self.table_decl(FileId(*fi), t, &out.tables, scope, model) {
                    Some(t) => out.tables.push(t),
                    None => self.unresolved(before, &t.name),
                }
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
            if let Some(set) = self.rule_set(FileId(fi), owner, rules, scope, model, &out) {
                out.sets.push(set);
            }
        }
        out.sets.sort_by_key(|s| s.owner);
        out
    }

    fn check_name(&mut self, at: FileId, name: &Spanned<String>) -> bool {
        match ident_error(name.get_ref()) {
            None => true,
            Some(msg) => {
                self.err(at, name.span(), msg);
                false
            }
        }
    }

    // ---- constants and tables ------------------------------------------------------

    fn constant_decl(
        &mut self,
        at: FileId,
        c: &RawConstant,
        known: &[Constant],
        scope: &Scope,
    ) -> Option<Constant> {
        self.check_name(at, &c.name);
        let taken = known.iter().any(|x| &x.name == c.name.get_ref());
        if self.duplicate(at, &c.name, "constant", taken) {
            return None;
        }
        let confidence = self.confidence(at, &c.confidence, scope);
        let evidence = self.required_evidence(
            at,
            &c.evidence,
            &confidence,
            scope,
            c.name.span(),
            &format!("`{}`", c.name.get_ref()),
        );
        Some(Constant {
            name: c.name.get_ref().clone(),
            value: *c.value.get_ref(),
            doc: c.doc.trim().to_string(),
            confidence,
            evidence,
        })
    }

    /// A constant or table `name` did not resolve: when that was an error (the errors from
    /// `before` on; not a duplicate, whose first declaration stands), what later errors say
    /// about `name` follows from the first of them.
    fn unresolved(&mut self, before: usize, name: &Spanned<String>) {
        let taken = self.errors[before..]
            .iter()
            .any(|e| e.message.starts_with("duplicate "));
        if self.errors.len() > before && !taken {
            let cause = Cause::Name(name.get_ref().clone());
            self.cascades.push((before, self.errors.len(), cause));
        }
    }

    fn table_decl(
        &mut self,
        at: FileId,
        t: &RawTable,
        known: &[Table],
        scope: &Scope,
        model: &Model,
    ) -> Option<Table> {
        self.check_name(at, &t.name);
        let taken = known.iter().any(|x| &x.name == t.name.get_ref());
        if self.duplicate(at, &t.name, "table", taken) {
            return None;
        }
        if matches!(
            t.name.get_ref().as_str(),
            "has" | "is_enumerator" | "value" | "text_len"
        ) {
            self.err(
                at,
                t.name.span(),
                format!("`{}` is a built-in helper", t.name.get_ref()),
            );
        }
        let Some(over) = model.types.iter().position(|x| &x.name == t.over.get_ref()) else {
            let hint = suggest(
                t.over.get_ref(),
                model.types.iter().map(|x| x.name.as_str()),
            );
            self.err(
                at,
                t.over.span(),
                format!("unknown type `{}`{hint}", t.over.get_ref()),
            );
            return None;
        };
        let TypeKind::Enum { values, .. } = &model.types[over].kind else {
            self.err(
                at,
                t.over.span(),
                format!("a table is over an enum; `{}` is not one", t.over.get_ref()),
            );
            return None;
        };
        let mut entries: Vec<(i64, String, i64)> = Vec::new();
        for g in &t.values {
            for k in &g.keys {
                let Some(e) = values.iter().find(|v| {
                    &v.name == k.get_ref() || v.aliases.iter().any(|a| &a.name == k.get_ref())
                }) else {
                    self.err(
                        at,
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
                    self.err(
                        at,
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
        let confidence = self.confidence(at, &t.confidence, scope);
        let evidence = self.required_evidence(
            at,
            &t.evidence,
            &confidence,
            scope,
            t.name.span(),
            &format!("`{}`", t.name.get_ref()),
        );
        Some(Table {
            name: t.name.get_ref().clone(),
            over,
            over_name: t.over.get_ref().clone(),
            entries,
            default: t.default,
            doc: t.doc.trim().to_string(),
            confidence,
            evidence,
        })
    }

    // ---- rule sets -----------------------------------------------------------------

    fn rule_set(
        &mut self,
        at: FileId,
        owner: usize,
        raw: &[RawRule],
        scope: &Scope,
        model: &Model,
        resolved: &RuleModel,
    ) -> Option<RuleSet> {
        let owner_def = &model.types[owner];
        if !matches!(
            owner_def.kind,
            TypeKind::Struct { .. } | TypeKind::Bitfield { .. }
        ) {
            return None;
        }
        if raw.len() > MAX_RULES {
            self.err(
                at,
                raw[MAX_RULES].name.span(),
                format!(
                    "`{}` has {} rules; at most {MAX_RULES} per struct",
                    owner_def.name,
                    raw.len()
                ),
            );
            return None;
        }
        // Ids first, so that composites may name parts declared after them.
        let mut ids: Vec<String> = Vec::new();
        for r in raw {
            let id = r.id.as_ref().unwrap_or(&r.name);
            self.check_name(at, &r.name);
            if r.id.is_some() {
                self.check_name(at, id);
            }
            if ids.contains(id.get_ref()) {
                self.err(
                    at,
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
                self.err(at, r.name.span(), msg);
            }
            if let Some(e) = &r.enforced
                && *e.get_ref()
                && r.expr.is_none()
                && r.all.is_none()
                && r.any.is_none()
            {
                self.err(
                    at,
                    e.span(),
                    "`enforced = true` needs an `expr` (or `all` / `any`)",
                );
            }
            let confidence = self.confidence_or(at, &r.confidence, &owner_def.confidence, scope);
            let what = r.id.as_ref().unwrap_or(&r.name);
            let evidence = self.required_evidence(
                at,
                &r.evidence,
                &confidence,
                scope,
                what.span(),
                &format!("`{}`", what.get_ref()),
            );
            let arch = self.arch_list(at, &r.arch, scope);
            let authority = self.authority(at, r.authority.as_ref());
            let checker = Checker {
                model,
                rules: resolved,
                authority,
            };
            let kind = match &r.expr {
                Some(src) => match self.leaf_expr(at, owner, src, &checker) {
                    Some(expr) => RuleKind::Expr {
                        source: src.get_ref().trim().to_string(),
                        expr: guard_arms(model, owner, expr),
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
                authority,
                parent: None,
                arch,
                message: r.message.trim().to_string(),
                doc: r.doc.as_deref().unwrap_or("").trim().to_string(),
                fields: Vec::new(),
                confidence,
                evidence,
                file: owner_def.file.clone(),
                line: self.files[at.0].line_of(r.name.span().start),
            });
        }
        // Composites: resolve parts, one parent each.
        for i in 0..rules.len() {
            let Some((parts, is_all)) = parts_of[i] else {
                continue;
            };
            if parts.is_empty() {
                self.err(
                    at,
                    raw[i].name.span(),
                    format!("composite rule `{}` has no parts", rules[i].id),
                );
            }
            let mut idx = Vec::new();
            for p in parts {
                let Some(j) = ids.iter().position(|x| x == p.get_ref()) else {
                    self.err(
                        at,
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
                    self.err(at, p.span(), format!("rule `{}` lists itself", p.get_ref()));
                    continue;
                }
                if let Some(other) = rules[j].parent {
                    self.err(
                        at,
                        p.span(),
                        format!(
                            "rule `{}` is already a part of `{}`; a rule has one parent",
                            p.get_ref(),
                            rules[other].id
                        ),
                    );
                    continue;
                }
                if rules[j].authority != rules[i].authority {
                    self.err(
                        at,
                        p.span(),
                        format!(
                            "rule `{}` is a {} rule, a part of the {} rule `{}`; a composite's \
                             parts have its authority",
                            p.get_ref(),
                            rules[j].authority.name(),
                            rules[i].authority.name(),
                            rules[i].id
                        ),
                    );
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
            let mut node = i;
            let mut steps = 0;
            while let Some(p) = rules[node].parent {
                node = p;
                steps += 1;
                if steps > rules.len() {
                    self.err(
                        at,
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
                        self.field_path(at, owner, f, model);
                    }
                    list.iter().map(|f| f.get_ref().clone()).collect()
                }
                (Some(list), _) => {
                    self.compare_fields(at, &set.rules[i].id, list, &derived);
                    derived.into_iter().collect()
                }
                (None, _) => derived.into_iter().collect(),
            };
            set.rules[i].fields = collapse(fields);
        }
        Some(set)
    }

    /// A rule's `authority`: `"header"` when absent.
    fn authority(&mut self, at: FileId, raw: Option<&Spanned<String>>) -> Authority {
        let Some(raw) = raw else {
            return Authority::Header;
        };
        let names = Authority::NAMES;
        if let Some((_, a)) = names.iter().find(|(n, _)| n == raw.get_ref()) {
            return *a;
        }
        self.err(
            at,
            raw.span(),
            format!(
                "unknown authority `{}`: `header` (the shipped ISA header validates the rule) or \
                 `compiler` (neuronx-cc guarantees it of the words it writes){}",
                raw.get_ref(),
                suggest(raw.get_ref(), names.iter().map(|(n, _)| *n))
            ),
        );
        Authority::Header
    }

    fn compare_fields(
        &mut self,
        at: FileId,
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
                self.err(
                    at,
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
            self.err(
                at,
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
    fn field_path(&mut self, at: FileId, owner: usize, f: &Spanned<String>, model: &Model) {
        let mut site = Site::of(&self.files[at.0], f);
        if !self.shallow(at, &site, f.get_ref()) {
            return;
        }
        let Some(text) = self.raw_keywords(at, &mut site, f.get_ref(), model) else {
            return;
        };
        let parsed = match syn::parse_str::<syn::Expr>(&text) {
            Ok(e) => e,
            Err(e) => {
                let span = site.span(e.span());
                self.err(at, span, format!("`{}` is not a field path", f.get_ref()));
                return;
            }
        };
        let res = segs(&parsed).and_then(|s| place(model, owner, &s));
        if let Err((span, msg)) = res {
            let span = site.span(span);
            self.err(at, span, msg);
        }
    }

    // ---- expressions ---------------------------------------------------------------

    /// Whether `text` nests within [`super::rule_depth::MAX_EXPR_DEPTH`]; reports it where it does not.
    fn shallow(&mut self, at: FileId, site: &Site, text: &str) -> bool {
        let Some(deep) = super::rule_depth::too_deep(text) else {
            return true;
        };
        self.err(
            at,
            site.range(deep),
            format!(
                "the expression nests more than {} levels deep here (every name, number, \
                 operator and bracket on one path is a level; each item of a list starts \
                 afresh): split it into several rules, or use `x in [...]` for a list of values",
                super::rule_depth::MAX_EXPR_DEPTH
            ),
        );
        false
    }

    /// `text` with its keyword names raw, for syn ([`raw_keywords`]); `site` maps spans in
    /// it back. `None` when the spec writes a name raw (reported).
    fn raw_keywords(
        &mut self,
        at: FileId,
        site: &mut Site,
        text: &str,
        model: &Model,
    ) -> Option<String> {
        match raw_keywords(text, |w| names_in(model, w)) {
            Ok((text, inserted)) => {
                site.inserted = inserted;
                Some(text)
            }
            Err((range, msg)) => {
                let span = site.range(range);
                self.err(at, span, msg);
                None
            }
        }
    }

    fn leaf_expr(
        &mut self,
        at: FileId,
        owner: usize,
        src: &Spanned<String>,
        checker: &Checker,
    ) -> Option<Expr> {
        let mut site = Site::of(&self.files[at.0], src);
        let text = rewrite_in(src.get_ref());
        if !self.shallow(at, &site, &text) {
            return None;
        }
        let text = self.raw_keywords(at, &mut site, &text, checker.model)?;
        let parsed = match syn::parse_str::<syn::Expr>(&text) {
            Ok(e) => e,
            Err(e) => {
                let span = site.span(e.span());
                self.err(at, span, format!("cannot parse the rule expression: {e}"));
                return None;
            }
        };
        match checker.expr(owner, &parsed) {
            Ok(t) if t.ty == RuleType::Bool => Some(t.expr),
            Ok(t) => {
                let span = site.span(parsed.span());
                self.err(
                    at,
                    span,
                    format!(
                        "a rule expression must be a condition; this is {}",
                        checker.ty_name(t.ty)
                    ),
                );
                None
            }
            Err((span, msg)) => {
                let span = site.span(span);
                self.err(at, span, msg);
                None
            }
        }
    }
}

/// Where an expression string sits in its file, for pointing into it.
struct Site {
    /// The whole string token.
    whole: Range<usize>,
    /// File offset of the string's first character, when the text maps byte for byte
    /// (no escapes); otherwise errors point at the whole string.
    content: Option<usize>,
    /// Where [`raw_keywords`] put an `r#` into the text syn reads (offsets in the text).
    inserted: Vec<usize>,
}

impl Site {
    fn of(file: &SourceFile, s: &Spanned<String>) -> Site {
        let whole = s.span();
        let raw = file.text.get(whole.clone()).unwrap_or("");
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
        Site {
            whole,
            content,
            inserted: Vec::new(),
        }
    }

    /// A span of the text syn read, in the file.
    fn span(&self, s: Span) -> Range<usize> {
        let r = s.byte_range();
        let at = |o| unraw_offset(o, &self.inserted);
        self.range(at(r.start)..at(r.end))
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
