//! Resolves the `[[klr.leaf]]` tables: a leaf's steps (checks, lets, forks, stamps,
//! paths, effects), its routes, and the names its expressions may use. A child of
//! `loader`, like `klr.rs`, which resolves the enums, tables and layouts a leaf names.

use std::ops::Range;

use serde_spanned::Spanned;

use super::klr_expr::{self, Env};
use super::names::check_ident;
use super::{FileId, Loader, Scope};
use crate::diagnostics::suggest;
use crate::model::klr::*;
use crate::model::klr_expr::Ty;
use crate::model::{Confidence, Model, TypeKind};
use crate::schema::klr::*;

impl Loader {
    /// The span of `pos..end` inside a string value, if the file spells it as a plain
    /// basic string; else the whole value.
    fn inner_span(&self, at: FileId, s: &Spanned<String>, pos: usize, end: usize) -> Range<usize> {
        let span = s.span();
        let text = &self.files[at.0].text;
        let plain = format!("\"{}\"", s.get_ref());
        if text.get(span.clone()) == Some(plain.as_str()) {
            let start = span.start + 1 + pos.min(s.get_ref().len());
            let stop = span.start + 1 + end.clamp(pos, s.get_ref().len());
            start..stop.max(start + 1).min(span.end)
        } else {
            span
        }
    }

    fn klr_expr(&mut self, at: FileId, s: &Spanned<String>, env: &dyn Env) -> Option<Cond> {
        match klr_expr::parse(s.get_ref(), env) {
            Ok(e) => Some(Cond {
                text: s.get_ref().trim().to_string(),
                expr: e,
            }),
            Err(e) => {
                let span = self.inner_span(at, s, e.start, e.end);
                self.err(at, span, e.message);
                None
            }
        }
    }

    pub(super) fn klr_leaf(
        &mut self,
        at: FileId,
        r: &RawLeaf,
        m: &KlrModel,
        scope: &Scope,
    ) -> Option<KlrLeaf> {
        check_ident(self, at, &r.name);
        let op = match m.layout(r.op.get_ref()) {
            Some(l) if l.side == Side::Klr => l,
            Some(_) => {
                self.err(
                    at,
                    r.op.span(),
                    format!("`{}` is not a `klr` layout", r.op.get_ref()),
                );
                return None;
            }
            None => {
                self.err(
                    at,
                    r.op.span(),
                    format!("unknown klr layout `{}`", r.op.get_ref()),
                );
                return None;
            }
        };
        let confidence = self.confidence(at, &r.confidence, scope);
        if r.evidence.is_empty() {
            self.err(
                at,
                r.name.span(),
                format!("leaf `{}` has no evidence", r.name.get_ref()),
            );
        }
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let mut env = LeafEnv {
            m,
            op,
            vars: Vec::new(),
            it: None,
            acted: false,
        };
        let mut fork: Option<Vec<KlrPath>> = None;
        let mut steps = Vec::new();
        for s in &r.step {
            if let Some(step) = self.klr_step(at, s, &mut env, &mut fork, &confidence, scope) {
                steps.push(step);
            }
        }
        if fork.is_none() {
            self.err(
                at,
                r.name.span(),
                format!(
                    "leaf `{}` has no `fork` step (every leaf builds a node on one of its paths)",
                    r.name.get_ref()
                ),
            );
        }
        let file = &self.files[at.0];
        Some(KlrLeaf {
            name: r.name.get_ref().clone(),
            op: r.op.get_ref().clone(),
            function: r.function.clone(),
            va: *r.va.get_ref(),
            section: r.section.clone(),
            doc: r.doc.trim().to_string(),
            confidence,
            evidence,
            steps,
            file: file.relative(&self.root),
            line: file.line_of(r.name.span().start),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn klr_step(
        &mut self,
        at: FileId,
        s: &RawStep,
        env: &mut LeafEnv,
        fork: &mut Option<Vec<KlrPath>>,
        dflt: &Confidence,
        scope: &Scope,
    ) -> Option<Step> {
        let heads: Vec<(&str, &Spanned<String>)> = [
            ("check", &s.check),
            ("route", &s.route),
            ("let", &s.let_),
            ("fork", &s.fork),
            ("stamp", &s.stamp),
            ("effect", &s.effect),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        let (head, head_val) = match heads.as_slice() {
            [one] => *one,
            [] => {
                let span = s
                    .when
                    .as_ref()
                    .or(s.kind.as_ref())
                    .or(s.value.as_ref())
                    .map_or(0..0, |x| x.span());
                self.err(
                    at,
                    span,
                    "a step needs one of `check`, `route`, `let`, `fork`, `stamp`, `effect`",
                );
                return None;
            }
            [_, second, ..] => {
                self.err(
                    at,
                    second.1.span(),
                    format!(
                        "a step is one thing: `{}` and `{}` both given",
                        heads[0].0, second.0
                    ),
                );
                return None;
            }
        };
        // Keys that only some step kinds take.
        let allowed: &[&str] = match head {
            "check" => &["when", "opaque", "kind", "each", "append", "helper"],
            "route" => &["when"],
            "let" => &["value", "show"],
            "fork" => &["path"],
            "stamp" => &["off", "value", "what", "when"],
            "effect" => &["kind", "when", "memo", "key"],
            _ => &[],
        };
        let given: [(&str, Option<Range<usize>>); 12] = [
            ("when", s.when.as_ref().map(Spanned::span)),
            ("opaque", s.opaque.as_ref().map(|_| head_val.span())),
            ("kind", s.kind.as_ref().map(Spanned::span)),
            ("each", s.each.as_ref().map(Spanned::span)),
            ("append", s.append.as_ref().map(Spanned::span)),
            ("helper", s.helper.as_ref().map(|_| head_val.span())),
            ("value", s.value.as_ref().map(Spanned::span)),
            ("show", s.show.then(|| head_val.span())),
            ("path", (!s.path.is_empty()).then(|| head_val.span())),
            ("off", s.off.as_ref().map(Spanned::span)),
            ("what", s.what.as_ref().map(|_| head_val.span())),
            ("memo", s.memo.as_ref().map(Spanned::span)),
        ];
        for (key, span) in given {
            if let Some(span) = span
                && !allowed.contains(&key)
            {
                self.err(at, span, format!("a `{head}` step takes no `{key}`"));
            }
        }
        if s.key.is_some() && head != "effect" {
            self.err(
                at,
                head_val.span(),
                format!("a `{head}` step takes no `key`"),
            );
        }
        let paths = match &s.paths {
            None => Vec::new(),
            Some(list) => {
                let Some(fp) = fork.as_ref() else {
                    let span = list.first().map_or(head_val.span(), |p| p.span());
                    self.err(
                        at,
                        span,
                        "`paths` names fork paths, so it must come after the fork",
                    );
                    return None;
                };
                let mut out = Vec::new();
                for p in list {
                    match fp.iter().position(|x| &x.name == p.get_ref()) {
                        Some(i) => out.push(i),
                        None => {
                            let known: Vec<&str> = fp.iter().map(|x| x.name.as_str()).collect();
                            self.err(
                                at,
                                p.span(),
                                format!("no path `{}` (paths: {})", p.get_ref(), known.join(", ")),
                            );
                        }
                    }
                }
                out
            }
        };
        if head == "fork" && s.paths.is_some() {
            self.err(at, head_val.span(), "a fork cannot be limited to paths");
        }
        let confidence = self.confidence_or(at, &s.confidence, dflt, scope);
        if s.evidence.is_empty() {
            self.err(
                at,
                head_val.span(),
                format!("this `{head}` step has no evidence"),
            );
        }
        let evidence = self.evidence(at, &s.evidence, &confidence, scope);
        // A check with `each` binds `it` for its condition.
        let mut each = None;
        if head == "check"
            && let Some(e) = &s.each
        {
            let input = env
                .op
                .fields
                .iter()
                .find(|f| &f.name == e.get_ref())
                .and_then(|f| f.input);
            match input {
                Some(Input::Aps) => env.it = Some(Ty::Ap),
                Some(Input::Imms) => env.it = Some(Ty::Imm),
                _ => {
                    self.err(
                        at,
                        e.span(),
                        format!(
                            "`each` names a list input field (aps or imms); `{}` is not one",
                            e.get_ref()
                        ),
                    );
                    return None;
                }
            }
            each = Some(e.get_ref().clone());
        }
        let when = match &s.when {
            Some(w) => {
                let c = self.klr_expr(at, w, env);
                env.it = None;
                let c = c?;
                if c.expr.ty() != Ty::Bool {
                    self.err(
                        at,
                        w.span(),
                        format!("`when` needs a condition, not {}", c.expr.ty().name()),
                    );
                }
                if c.expr.nested_fatal(false) {
                    self.err(at, w.span(), "a fatal table lookup belongs in a `let`");
                }
                Some(c)
            }
            None => None,
        };
        env.it = None;
        let kind = match head {
            "check" => self.klr_check(at, s, head_val, when, each, env)?,
            "route" => {
                if env.acted {
                    self.err(
                        at,
                        head_val.span(),
                        "a `route` hands the whole op to another leaf, so it comes before the fork and every stamp and effect",
                    );
                }
                let Some(when) = when else {
                    self.err(at, head_val.span(), "a `route` needs a `when`");
                    return None;
                };
                StepKind::Route {
                    to: head_val.get_ref().clone(),
                    when,
                }
            }
            "let" => {
                let name = head_val.get_ref().clone();
                check_ident(self, at, head_val);
                if env.vars.iter().any(|(n, _)| n == &name)
                    || env.op.fields.iter().any(|f| f.name == name)
                {
                    self.err(
                        at,
                        head_val.span(),
                        format!("`{name}` is already a field or `let` of this leaf"),
                    );
                }
                let Some(v) = &s.value else {
                    self.err(at, head_val.span(), "a `let` needs a `value`");
                    return None;
                };
                let value = self.klr_expr(at, v, env)?;
                if !matches!(value.expr.ty(), Ty::Int { .. } | Ty::Bool) {
                    self.err(
                        at,
                        v.span(),
                        format!(
                            "a `let` holds an int or a condition, not {}",
                            value.expr.ty().name()
                        ),
                    );
                }
                if value.expr.nested_fatal(true) {
                    self.err(
                        at,
                        v.span(),
                        "a fatal table lookup must be the whole `let` value",
                    );
                }
                env.vars.push((name.clone(), value.expr.ty()));
                StepKind::Let {
                    name,
                    value,
                    show: s.show,
                }
            }
            "fork" => {
                if fork.is_some() {
                    self.err(at, head_val.span(), "a leaf has one `fork`");
                    return None;
                }
                let paths = self.klr_paths(at, s, env, &confidence, scope);
                *fork = Some(paths.clone());
                StepKind::Fork {
                    label: head_val.get_ref().clone(),
                    paths,
                }
            }
            "stamp" => self.klr_stamp(at, s, head_val, when, env, fork.as_deref(), &paths)?,
            _ => {
                let kind = match s.kind.as_ref().map(|k| k.get_ref().as_str()) {
                    None | Some("note") => EffectKind::Note,
                    Some("node") => EffectKind::Node,
                    Some("warning") => EffectKind::Warning,
                    Some("register") => EffectKind::Register,
                    Some(other) => {
                        let span = s.kind.as_ref().map_or(0..0, |k| k.span());
                        self.err(
                            at,
                            span,
                            format!(
                                "an effect `kind` is note, node, warning or register; not `{other}`"
                            ),
                        );
                        EffectKind::Note
                    }
                };
                let memo = match (&s.memo, &s.key) {
                    (Some(mm), Some(k)) => {
                        check_ident(self, at, mm);
                        let key = self.klr_expr(at, k, env)?;
                        if !matches!(key.expr.ty(), Ty::Int { .. } | Ty::Text) {
                            self.err(
                                at,
                                k.span(),
                                format!(
                                    "a memo key is an int or a text, not {}",
                                    key.expr.ty().name()
                                ),
                            );
                        }
                        Some((mm.get_ref().clone(), key))
                    }
                    (None, None) => None,
                    (Some(x), None) | (None, Some(x)) => {
                        self.err(at, x.span(), "`memo` and `key` go together");
                        None
                    }
                };
                StepKind::Effect {
                    text: head_val.get_ref().clone(),
                    kind,
                    when,
                    memo,
                }
            }
        };
        if matches!(
            kind,
            StepKind::Fork { .. } | StepKind::Stamp { .. } | StepKind::Effect { .. }
        ) {
            env.acted = true;
        }
        Some(Step {
            kind,
            paths,
            doc: s.doc.clone(),
            note: s.note.clone(),
            confidence,
            evidence,
            line: self.files[at.0].line_of(head_val.span().start),
        })
    }

    fn klr_check(
        &mut self,
        at: FileId,
        s: &RawStep,
        head: &Spanned<String>,
        when: Option<Cond>,
        each: Option<String>,
        env: &LeafEnv,
    ) -> Option<StepKind> {
        let kind = match s.kind.as_ref().map(|k| k.get_ref().as_str()) {
            Some("throw") => CheckKind::Throw,
            Some("assert") => CheckKind::Assert,
            Some("fatal") => CheckKind::Fatal,
            Some(other) => {
                let span = s.kind.as_ref().map_or(0..0, |k| k.span());
                self.err(
                    at,
                    span,
                    format!("a check `kind` is throw, assert or fatal; not `{other}`"),
                );
                CheckKind::Throw
            }
            None => {
                self.err(
                    at,
                    head.span(),
                    "a check needs a `kind` (throw, assert or fatal)",
                );
                CheckKind::Throw
            }
        };
        if head.get_ref().is_empty() && kind != CheckKind::Assert {
            self.err(at, head.span(), "only an assert may have no message");
        }
        if head.get_ref() != head.get_ref().trim_start() {
            self.err(at, head.span(), "a message does not start with whitespace");
        }
        match (&when, &s.opaque) {
            (Some(_), Some(_)) => {
                self.err(
                    at,
                    head.span(),
                    "a check has either `when` or `opaque`, not both",
                );
            }
            (None, None) if s.when.is_none() => {
                self.err(
                    at,
                    head.span(),
                    "a check needs a `when` (or, if the model cannot decide it, `opaque`)",
                );
            }
            _ => {}
        }
        if s.opaque.is_some() && each.is_some() {
            self.err(at, head.span(), "an opaque check cannot have `each`");
        }
        let append = match &s.append {
            None => None,
            Some(a) => {
                let c = self.klr_expr(at, a, env)?;
                if !matches!(c.expr.ty(), Ty::Int { .. }) {
                    self.err(
                        at,
                        a.span(),
                        format!("`append` is an int, not {}", c.expr.ty().name()),
                    );
                }
                Some(c)
            }
        };
        Some(StepKind::Check(KlrCheck {
            message: head.get_ref().clone(),
            kind,
            when,
            opaque: s.opaque.clone(),
            each,
            append,
            helper: s.helper.clone(),
        }))
    }

    fn klr_paths(
        &mut self,
        at: FileId,
        s: &RawStep,
        env: &LeafEnv,
        dflt: &Confidence,
        scope: &Scope,
    ) -> Vec<KlrPath> {
        let Some(head) = &s.fork else {
            return Vec::new();
        };
        if s.path.is_empty() {
            self.err(
                at,
                head.span(),
                "a fork needs at least one `[[klr.leaf.step.path]]`",
            );
        }
        let it_enum = "InstructionType";
        let mut out: Vec<KlrPath> = Vec::new();
        let last = s.path.len().saturating_sub(1);
        for (i, p) in s.path.iter().enumerate() {
            let taken = out.iter().any(|x| &x.name == p.name.get_ref());
            if self.duplicate(at, &p.name, "path", taken) {
                continue;
            }
            let when = match (&p.when, i == last) {
                (Some(w), false) => self.klr_expr(at, w, env),
                (None, true) => None,
                (Some(w), true) => {
                    self.err(
                        at,
                        w.span(),
                        "the last path is the otherwise arm: it has no `when`",
                    );
                    None
                }
                (None, false) => {
                    self.err(at, p.name.span(), "every path but the last needs a `when`");
                    None
                }
            };
            if let Some(w) = &when
                && w.expr.ty() != Ty::Bool
            {
                let span = p.when.as_ref().map_or(0..0, |w| w.span());
                self.err(
                    at,
                    span,
                    format!("`when` needs a condition, not {}", w.expr.ty().name()),
                );
            }
            match env.m.layout(p.class.get_ref()) {
                Some(l) if l.side == Side::Bir => {}
                _ => self.err(
                    at,
                    p.class.span(),
                    format!("`{}` is not a `bir` layout", p.class.get_ref()),
                ),
            }
            let it = p.it.as_ref().and_then(|it| {
                let v = env
                    .m
                    .enumerators(it_enum)
                    .into_iter()
                    .find(|(n, _)| n == it.get_ref())
                    .map(|(n, v)| (n.to_string(), v as i64));
                if v.is_none() {
                    self.err(
                        at,
                        it.span(),
                        format!("`{}` is not an `{it_enum}` enumerator", it.get_ref()),
                    );
                }
                v
            });
            let mut bind = Vec::new();
            for b in &p.bind {
                if !ROLES.contains(&b.role.get_ref().as_str()) {
                    self.err(
                        at,
                        b.role.span(),
                        format!(
                            "a binding role is one of {}; not `{}`",
                            ROLES.join(", "),
                            b.role.get_ref()
                        ),
                    );
                }
                if let Some(o) = &b.operand
                    && !env.op.fields.iter().any(|f| &f.name == o.get_ref())
                {
                    self.err(
                        at,
                        o.span(),
                        format!("`{}` is not a field of `{}`", o.get_ref(), env.op.name),
                    );
                }
                if b.operand.is_none() && b.what.is_none() {
                    self.err(
                        at,
                        b.role.span(),
                        "a binding names an `operand` or says `what` is bound",
                    );
                }
                let bw = match &b.when {
                    Some(w) => self.klr_expr(at, w, env),
                    None => None,
                };
                bind.push(Bind {
                    role: b.role.get_ref().clone(),
                    operand: b.operand.as_ref().map(|o| o.get_ref().clone()),
                    what: b.what.clone(),
                    when: bw,
                    note: b.note.clone(),
                });
            }
            let confidence = self.confidence_or(at, &p.confidence, dflt, scope);
            if p.evidence.is_empty() {
                self.err(
                    at,
                    p.name.span(),
                    format!("path `{}` has no evidence", p.name.get_ref()),
                );
            }
            let evidence = self.evidence(at, &p.evidence, &confidence, scope);
            out.push(KlrPath {
                name: p.name.get_ref().clone(),
                when,
                class: p.class.get_ref().clone(),
                it,
                prefix: p.prefix.clone(),
                build: p.build.clone(),
                bind,
                words: p.words.iter().map(|w| w.get_ref().clone()).collect(),
                doc: p.doc.clone(),
                confidence,
                evidence,
            });
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn klr_stamp(
        &mut self,
        at: FileId,
        s: &RawStep,
        head: &Spanned<String>,
        when: Option<Cond>,
        env: &LeafEnv,
        fork: Option<&[KlrPath]>,
        limit: &[usize],
    ) -> Option<StepKind> {
        let Some(off) = &s.off else {
            self.err(at, head.span(), "a stamp needs the `off` it writes");
            return None;
        };
        let offset = *off.get_ref() as usize;
        let value = match (&s.value, &s.what) {
            (Some(v), None) => {
                let c = self.klr_expr(at, v, env)?;
                if matches!(
                    c.expr.ty(),
                    Ty::Ap | Ty::OptAp | Ty::Aps | Ty::Text | Ty::OptText
                ) {
                    self.err(
                        at,
                        v.span(),
                        format!(
                            "a stamp writes a number, a flag, a list or an immediate; not {}",
                            c.expr.ty().name()
                        ),
                    );
                }
                if c.expr.nested_fatal(false) {
                    self.err(at, v.span(), "a fatal table lookup belongs in a `let`");
                }
                StampValue::Expr { cond: c }
            }
            (None, Some(w)) => StampValue::Opaque { what: w.clone() },
            _ => {
                self.err(at, head.span(), "a stamp has a `value` or, if the model cannot compute it, a `what` (one of them)");
                return None;
            }
        };
        // The field must be the class's (or a base's) at that offset, on every path the
        // stamp can run on.
        let classes: Vec<&str> = match fork {
            None => Vec::new(),
            Some(paths) => paths
                .iter()
                .enumerate()
                .filter(|(i, _)| limit.is_empty() || limit.contains(i))
                .map(|(_, p)| p.class.as_str())
                .collect(),
        };
        if fork.is_none() {
            self.err(
                at,
                head.span(),
                "a stamp writes a node, so it comes after the fork",
            );
        }
        for class in classes {
            match env.m.class_field(class, offset) {
                None => self.err(
                    at,
                    off.span(),
                    format!("`{class}` (and its bases) has no field at offset {offset:#x}"),
                ),
                Some((l, f)) if &f.name != head.get_ref() => self.err(
                    at,
                    head.span(),
                    format!(
                        "offset {offset:#x} of `{}` is `{}`, not `{}`",
                        l.name,
                        f.name,
                        head.get_ref()
                    ),
                ),
                Some((l, f)) => {
                    if let (Some(fe), StampValue::Expr { cond }) = (&f.enum_, &value)
                        && let Ty::Int { enum_: Some(ve) } = cond.expr.ty()
                        && &ve != fe
                    {
                        self.err(
                            at,
                            s.value.as_ref().map_or(head.span(), |v| v.span()),
                            format!(
                                "`{}.{}` holds a `{fe}`, but this value is a `{ve}`",
                                l.name, f.name
                            ),
                        );
                    }
                }
            }
        }
        Some(StepKind::Stamp {
            field: head.get_ref().clone(),
            offset,
            value,
            when,
        })
    }

    /// Each word a path names must be a word of the spec (a struct bound to an opcode).
    pub(super) fn klr_words(&mut self, at: FileId, r: &RawLeaf, model: &Model) {
        let paths = r.step.iter().flat_map(|s| &s.path);
        for w in paths.flat_map(|p| &p.words) {
            if !model.words().any(|t| t.name == *w.get_ref()) {
                let words = model.words().map(|t| t.name.as_str());
                let message = format!(
                    "`{}` is not a word of the spec{}",
                    w.get_ref(),
                    suggest(w.get_ref(), words)
                );
                self.err_unknown(at, w.span(), w.get_ref(), message);
            }
        }
    }

    pub(super) fn klr_routes(&mut self, at: FileId, r: &RawLeaf, m: &KlrModel) {
        for s in &r.step {
            let Some(to) = &s.route else { continue };
            match m.leaf(to.get_ref()) {
                None => self.err(at, to.span(), format!("unknown leaf `{}`", to.get_ref())),
                Some(t) if t.name == *r.name.get_ref() => {
                    self.err(at, to.span(), "a leaf cannot route to itself")
                }
                Some(t) if t.op != *r.op.get_ref() => self.err(
                    at,
                    to.span(),
                    format!(
                        "`{}` takes a `{}`, but this leaf's node is a `{}`",
                        t.name,
                        t.op,
                        r.op.get_ref()
                    ),
                ),
                Some(t) if t.routes().next().is_some() => self.err(
                    at,
                    to.span(),
                    format!("`{}` routes on itself; routes are one level deep", t.name),
                ),
                Some(_) => {}
            }
        }
    }
}

/// What the expressions of one leaf can name.
struct LeafEnv<'m> {
    m: &'m KlrModel,
    op: &'m Layout,
    vars: Vec<(String, Ty)>,
    it: Option<Ty>,
    /// A fork, stamp or effect has been seen (no route may follow).
    acted: bool,
}

impl Env for LeafEnv<'_> {
    fn field(&self, name: &str) -> Option<Result<Ty, String>> {
        let f = self.op.fields.iter().find(|f| f.name == name)?;
        Some(match f.expr_ty() {
            None => Err(format!(
                "`{name}` is not an input field of `{}` (no `input`)",
                self.op.name
            )),
            Some(Ty::OptAp | Ty::OptImm | Ty::OptText) => Err(format!(
                "`{name}` is optional and cannot be used in an expression"
            )),
            Some(t) => Ok(t),
        })
    }
    fn var(&self, name: &str) -> Option<Ty> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
    }
    fn it(&self) -> Option<Ty> {
        self.it.clone()
    }
    fn enum_value(&self, en: &str, name: &str) -> Result<i64, String> {
        let Some(t) = self.m.enum_def(en) else {
            return Err(format!("unknown klr enum `{en}`"));
        };
        let TypeKind::Enum { values, .. } = &t.kind else {
            return Err(format!("`{en}` is not an enum"));
        };
        values
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.value as i64)
            .ok_or_else(|| {
                let known: Vec<&str> = values.iter().map(|v| v.name.as_str()).collect();
                format!(
                    "`{en}` has no enumerator `{name}`{} (it has: {})",
                    suggest(name, known.iter().copied()),
                    known.join(", ")
                )
            })
    }
    fn table(&self, name: &str) -> Option<(bool, Option<String>)> {
        self.m
            .table(name)
            .map(|t| (t.out_of_range == OutOfRange::Fatal, t.enum_.clone()))
    }
}
