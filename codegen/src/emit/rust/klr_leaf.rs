//! One klr leaf as Rust: `lower_<Leaf>` running the leaf's steps in order, each step one
//! call of the runtime's `Node` (`check`, `decide`, `applies`, `add_stamp`, ...); a step
//! that stops the leaf returns its `Stop` with `?`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::data::{Lit, Lits};
use super::klr_expr::{any, ex, exprs, value_ex};
use super::klr_meta::paths_static;
use super::klr_ty::{doc, op_ty};
use super::util::ident;
use crate::model::klr::*;
use crate::model::klr_expr::{KlrExpr, Ty};

/// What one leaf's steps are compiled against.
struct Leaf<'m> {
    lits: &'m Lits,
    m: &'m KlrModel,
    l: &'m KlrLeaf,
    op: &'m Layout,
    /// Every expression of the leaf.
    all: Vec<&'m KlrExpr>,
    /// Every memo name of the model, in first-use order: a memo's id is its index.
    memos: Vec<&'m str>,
}

/// Arguments that are all literals, as one placeholder: printed on one line whatever
/// their width (prettyplease would give each long string a line of its own).
fn literal_args(lits: &Lits, args: impl IntoIterator<Item = Lit>) -> TokenStream {
    let texts: Vec<String> = args.into_iter().map(|a| a.text().to_string()).collect();
    lits.embed(Lit::code(texts.join(", ")))
}

fn path_guard(paths: &[usize]) -> Option<TokenStream> {
    (!paths.is_empty()).then(|| {
        let paths = paths.iter().map(|p| Literal::usize_unsuffixed(*p));
        quote!(matches!(path, #(#paths)|*))
    })
}

/// `body`, run only on the guard's fork paths.
/// A body that is one `if` without `else` takes the guard into its condition.
fn guarded(guard: &Option<TokenStream>, body: TokenStream) -> TokenStream {
    let Some(g) = guard else { return body };
    match syn::parse2::<syn::ExprIf>(body.clone()) {
        Ok(syn::ExprIf {
            cond,
            then_branch,
            else_branch: None,
            ..
        }) => match *cond {
            syn::Expr::Binary(_) => quote!(if #g && (#cond) #then_branch),
            cond => quote!(if #g && #cond #then_branch),
        },
        _ => quote!(if #g { #body }),
    }
}

fn memo_names(m: &KlrModel) -> Vec<&str> {
    let mut all: Vec<&str> = Vec::new();
    for l in &m.leaves {
        for s in &l.steps {
            if let StepKind::Effect {
                memo: Some((n, _)), ..
            } = &s.kind
                && !all.contains(&n.as_str())
            {
                all.push(n);
            }
        }
    }
    all
}

pub(super) fn leaf_fn(lits: &Lits, m: &KlrModel, l: &KlrLeaf) -> TokenStream {
    let Some(op) = m.layout(&l.op) else {
        return TokenStream::new();
    };
    let cx = Leaf {
        lits,
        m,
        l,
        op,
        all: exprs(l),
        memos: memo_names(m),
    };
    let opty = op_ty(m, &l.op);
    let doc = doc(&format!(
        "`{}` @{:#x} (seed 003 {}): {}",
        l.function, l.va, l.section, l.doc
    ));
    let routes = l.routes().next().is_some();
    let memos: Vec<&str> = cx
        .memos
        .iter()
        .copied()
        .filter(|name| {
            l.steps.iter().any(
                |s| matches!(&s.kind, StepKind::Effect { memo: Some((n, _)), .. } if n == name),
            )
        })
        .collect();
    let reads_op = routes
        || cx
            .all
            .iter()
            .any(|e| any(e, &|x| matches!(x, KlrExpr::Field { .. })))
        || l.steps
            .iter()
            .any(|s| matches!(&s.kind, StepKind::Check(c) if c.each.is_some()));
    let op_arg = if reads_op { quote!(op) } else { quote!(_op) };
    let fx_arg = if routes || !memos.is_empty() {
        quote!(fx)
    } else {
        quote!(_fx)
    };
    let (name, lower, from) = (
        &l.name,
        format_ident!("lower_{}", l.name),
        format_ident!("lower_{}_from", l.name),
    );
    let memo_flags = memos.iter().map(|mm| {
        let id = format_ident!("memo_{}", mm);
        quote!(let mut #id: Option<bool> = None;)
    });
    let body = cx.body();
    quote! {
        #doc
        #[allow(non_snake_case)]
        pub fn #lower<'a>(op: &#opty, fx: &mut Function) -> Outcome<'a> {
            #from(op, fx, None).into()
        }
        #[allow(non_snake_case)]
        fn #from<'a>(#op_arg: &#opty, #fx_arg: &mut Function, routed_from: Option<&'static str>) -> Result<Node<'a>, Stop> {
            let mut n = Node::new(#name, routed_from);
            #(#memo_flags)*
            #body
            Ok(n)
        }
    }
}

impl Leaf<'_> {
    /// The steps in order; consecutive steps on the same fork paths share one guard (a
    /// `let` keeps its own, so that its value stays in scope).
    fn body(&self) -> TokenStream {
        let mut out = TokenStream::new();
        let mut run: Option<(&[usize], TokenStream)> = None;
        for s in &self.l.steps {
            let shares = !matches!(s.kind, StepKind::Let { .. } | StepKind::Fork { .. });
            if let Some((paths, body)) = run.take() {
                if shares && paths == s.paths.as_slice() {
                    let mut body = body;
                    body.extend(self.step(s));
                    run = Some((paths, body));
                    continue;
                }
                out.extend(guarded(&path_guard(paths), body));
            }
            if shares {
                run = Some((&s.paths, self.step(s)));
            } else {
                out.extend(self.step(s));
            }
        }
        if let Some((paths, body)) = run {
            out.extend(guarded(&path_guard(paths), body));
        }
        out
    }

    fn args(&self, args: impl IntoIterator<Item = Lit>) -> TokenStream {
        literal_args(self.lits, args)
    }

    /// An expression as one argument.
    fn ex(&self, e: &KlrExpr) -> Lit {
        Lit::code(ex(e, self.op))
    }

    /// `then` when `cond` holds; an undecided `cond` is listed as `what`.
    fn when(&self, cond: &Cond, then: TokenStream, what: &str) -> TokenStream {
        let args = self.args([self.ex(&cond.expr), Lit::str(what), Lit::str(&cond.text)]);
        quote!(if n.applies(#args) { #then })
    }

    /// The statements of one step; a `let` and a fork guard themselves, the others are
    /// guarded by [`Leaf::body`].
    fn step(&self, s: &Step) -> TokenStream {
        match &s.kind {
            StepKind::Check(c) => self.check(c),
            StepKind::Route { to, when } => {
                let args = self.args([
                    self.ex(&when.expr),
                    Lit::str(&format!("route to {to}")),
                    Lit::str(&when.text),
                ]);
                let from = format_ident!("lower_{}_from", to);
                quote! {
                    if n.decide(#args)? {
                        return #from(op, fx, Some(n.leaf));
                    }
                }
            }
            StepKind::Let { name, value, show } => self.let_step(s, name, value, *show),
            StepKind::Fork { paths: ps, .. } => self.fork(ps),
            StepKind::Stamp {
                field,
                offset,
                value,
                when,
            } => {
                // The declaring class: the first path's class chain that has it.
                let decl = self
                    .l
                    .paths()
                    .iter()
                    .find_map(|p| self.m.class_field(&p.class, *offset));
                let (class, fenum) = decl.map_or(("", None), |(cl, f)| {
                    (cl.qualified.as_str(), f.enum_.as_deref())
                });
                let v = match value {
                    StampValue::Expr { cond } => value_ex(cond, self.op, fenum),
                    StampValue::Opaque { what } => {
                        format!("Value::Opaque({})", Lit::str(what).text())
                    }
                };
                let args = self.args([
                    Lit::code(format!("{offset:#x}")),
                    Lit::str(class),
                    Lit::str(field),
                    Lit::code(v),
                ]);
                let push = quote!(n.add_stamp(#args););
                match when {
                    None => push,
                    Some(w) => self.when(w, push, &format!("stamp of {field} at +{offset:#x}")),
                }
            }
            StepKind::Effect {
                text,
                kind,
                when,
                memo,
            } => {
                let what = [Lit::str(kind.name()), Lit::str(text)];
                let push = match memo {
                    None => {
                        let args = self.args(what.into_iter().chain([Lit::code("None")]));
                        quote!(n.add_effect(#args);)
                    }
                    Some((name, k)) => {
                        // A text key is hashed for the memo; the effect shows no key.
                        let e = ex(&k.expr, self.op);
                        let (key, shown) = match k.expr.ty() {
                            Ty::Text => (format!("Some(eval::text_key({e}))"), "None".to_string()),
                            _ => (e.clone(), e),
                        };
                        let id = self.memos.iter().position(|x| x == name).unwrap_or(0);
                        let id = u8::try_from(id).unwrap_or(u8::MAX);
                        let first = self.args([Lit::num(id), Lit::code(key)]);
                        let args = self.args(what.into_iter().chain([Lit::code(shown)]));
                        let flag = format_ident!("memo_{}", name);
                        quote! {
                            if *#flag.get_or_insert_with(|| fx.first(#first)) {
                                n.add_effect(#args);
                            }
                        }
                    }
                };
                match when {
                    None => push,
                    Some(w) => self.when(w, push, text),
                }
            }
        }
    }

    fn check(&self, c: &KlrCheck) -> TokenStream {
        let Some(w) = &c.when else {
            let text = c.opaque.as_deref().unwrap_or_default();
            let args = self.args([Lit::str(&c.message), Lit::str(text)]);
            return quote!(n.add_undecided_check(#args););
        };
        let kind = match c.kind {
            CheckKind::Throw => "ErrorKind::Throw",
            CheckKind::Assert => "ErrorKind::Assert",
            CheckKind::Fatal => "ErrorKind::Fatal",
        };
        let arg = c
            .append
            .as_ref()
            .map_or(Lit::code("None"), |a| self.ex(&a.expr));
        let cond = self.ex(&w.expr);
        let rest = [
            Lit::code(kind),
            Lit::str(&c.message),
            Lit::str(&w.text),
            Lit::opt_str(c.helper.as_deref()),
        ];
        match &c.each {
            Some(list) => {
                let entries = format!(
                    "op.{}.iter().map(|it| ({}, {}))",
                    ident(list),
                    cond.text(),
                    arg.text()
                );
                let args = self.args([Lit::code(entries)].into_iter().chain(rest));
                quote!(n.check_each(#args)?;)
            }
            None => {
                let args = self.args([cond, arg].into_iter().chain(rest));
                quote!(n.check(#args)?;)
            }
        }
    }

    fn let_step(&self, s: &Step, name: &str, value: &Cond, show: bool) -> TokenStream {
        let guard = path_guard(&s.paths);
        let ty = if value.expr.ty() == Ty::Bool {
            quote!(Option<bool>)
        } else {
            quote!(Option<i64>)
        };
        let rhs = match &value.expr {
            KlrExpr::Table {
                name: t,
                arg,
                fatal: true,
                ..
            } => {
                let site = self
                    .m
                    .table(t)
                    .and_then(|x| x.function.as_deref())
                    .unwrap_or(t);
                let args = self.args([
                    Lit::code(format!("tables::{}", ident(t))),
                    self.ex(arg),
                    Lit::str(&value.text),
                    Lit::str(site),
                ]);
                quote!(n.lookup(#args)?)
            }
            e => self.args([self.ex(e)]),
        };
        let read = show
            || self.all.iter().any(|e| {
                any(
                    e,
                    &|x| matches!(x, KlrExpr::Var { name: v, .. } if v == name),
                )
            });
        let var = if read {
            format_ident!("v_{}", name)
        } else {
            format_ident!("_v_{}", name)
        };
        let mut out = match &guard {
            None => quote!(let #var: #ty = #rhs;),
            Some(g) => quote!(let #var: #ty = if #g { #rhs } else { None };),
        };
        if show {
            let cond = Cond {
                text: value.text.clone(),
                expr: KlrExpr::Var {
                    name: name.to_string(),
                    ty: value.expr.ty(),
                },
            };
            let args = self.args([Lit::str(name), Lit::code(value_ex(&cond, self.op, None))]);
            out.extend(guarded(&guard, quote!(n.add_shown(#args);)));
        }
        out
    }

    /// The fork: `let path = …;` (the first path whose condition holds, else the last),
    /// the node's path and each path's bindings.
    fn fork(&self, ps: &[KlrPath]) -> TokenStream {
        let arms: Vec<TokenStream> = ps
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let w = p.when.as_ref()?;
                let args = self.args([
                    self.ex(&w.expr),
                    Lit::str(&format!("fork to {}", p.name)),
                    Lit::str(&w.text),
                ]);
                let i = Literal::usize_unsuffixed(i);
                Some(quote!(if n.decide(#args)? { #i }))
            })
            .collect();
        // The otherwise arm (the last path), also when the last path has a condition.
        let last = Literal::usize_unsuffixed(ps.len().saturating_sub(1));
        let pick = if arms.is_empty() {
            quote!(#last)
        } else {
            quote!(#(#arms)else* else { #last })
        };
        let paths = paths_static(&self.l.name);
        let binds = ps
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.bind.is_empty())
            .map(|(i, p)| {
                let pushes = p.bind.iter().map(|b| {
                    let args = self.args([
                        Lit::str(&b.role),
                        Lit::opt_str(b.operand.as_deref()),
                        Lit::opt_str(b.what.as_deref()),
                        Lit::opt_str(b.note.as_deref()),
                    ]);
                    let push = quote!(n.add_binding(#args););
                    match &b.when {
                        None => push,
                        Some(w) => {
                            let of = b.operand.as_deref().or(b.what.as_deref()).unwrap_or("?");
                            self.when(w, push, &format!("binding of {of}"))
                        }
                    }
                });
                let i = Literal::usize_unsuffixed(i);
                // With one path there is nothing to tell apart.
                if ps.len() == 1 {
                    quote!(#(#pushes)*)
                } else {
                    quote!(if path == #i { #(#pushes)* })
                }
            });
        quote! {
            let path: usize = #pick;
            n.path = #paths[path];
            #(#binds)*
        }
    }
}
