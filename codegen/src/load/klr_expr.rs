//! Parses and type-checks the klr expression language ([`KlrExpr`]) with syn, as the
//! validity rules are parsed; the names an expression may use come from an [`Env`].

use crate::model::klr_expr::{CmpOp, Func, KlrExpr, Ty};

/// What a name or call refers to, as the loader knows it.
pub trait Env {
    /// The type of an input field of the op, or `Err` with why it cannot be used.
    fn field(&self, name: &str) -> Option<Result<Ty, String>>;
    fn var(&self, name: &str) -> Option<Ty>;
    fn it(&self) -> Option<Ty>;
    /// The value of `Enum.Value`, or why it does not exist.
    fn enum_value(&self, en: &str, name: &str) -> Result<i64, String>;
    /// A table: (fatal past its end, the enum of its entries).
    fn table(&self, name: &str) -> Option<(bool, Option<String>)>;
}

/// A parse or type error at a byte range of the expression text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

fn err<T>(start: usize, end: usize, message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError {
        start,
        end,
        message: message.into(),
    })
}

type Spanned = (KlrExpr, usize, usize);

/// Parses `text` as a Rust expression (syn, as the validity rules are parsed) and
/// type-checks it; operators bind as in Rust.
pub fn parse(text: &str, env: &dyn Env) -> Result<KlrExpr, ExprError> {
    if text.trim().is_empty() {
        return err(0, text.len(), "empty expression");
    }
    // syn and the checker recurse once per level, as for the validity rules.
    if let Some(at) = super::rule_depth::too_deep(text) {
        return err(
            at.start,
            at.end,
            format!(
                "the expression nests more than {} levels deep here (every name, number, \
                 operator and bracket on one path is a level): split it with a `let`",
                super::rule_depth::MAX_EXPR_DEPTH
            ),
        );
    }
    let e: syn::Expr = syn::parse_str(text).map_err(|e| {
        let r = e.span().byte_range();
        ExprError {
            start: r.start,
            end: r.end.max(r.start + 1),
            message: e.to_string(),
        }
    })?;
    Checker { env }.expr(&e).map(|x| x.0)
}

/// The byte range of a syntax node in the expression text.
fn range(node: &impl syn::spanned::Spanned) -> (usize, usize) {
    let r = node.span().byte_range();
    (r.start, r.end)
}

/// A bare name (`dst`, `translateDGEMode`), or `None` for any other path.
fn bare_name(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

struct Checker<'e> {
    env: &'e dyn Env,
}

impl Checker<'_> {
    fn bool_operand(&self, x: &Spanned, op: &str) -> Result<(), ExprError> {
        if x.0.ty() != Ty::Bool {
            return err(
                x.1,
                x.2,
                format!("`{op}` needs a condition, but this is {}", x.0.ty().name()),
            );
        }
        Ok(())
    }

    fn expr(&self, e: &syn::Expr) -> Result<Spanned, ExprError> {
        let (s, end) = range(e);
        match e {
            syn::Expr::Binary(b) => {
                let (l, r) = (self.expr(&b.left)?, self.expr(&b.right)?);
                let cmp = match b.op {
                    syn::BinOp::Or(_) | syn::BinOp::And(_) => {
                        let or = matches!(b.op, syn::BinOp::Or(_));
                        let sym = if or { "||" } else { "&&" };
                        self.bool_operand(&l, sym)?;
                        self.bool_operand(&r, sym)?;
                        let (l, r) = (Box::new(l.0), Box::new(r.0));
                        let e = if or {
                            KlrExpr::Or { l, r }
                        } else {
                            KlrExpr::And { l, r }
                        };
                        return Ok((e, s, end));
                    }
                    syn::BinOp::Eq(_) => CmpOp::Eq,
                    syn::BinOp::Ne(_) => CmpOp::Ne,
                    syn::BinOp::Lt(_) => CmpOp::Lt,
                    syn::BinOp::Le(_) => CmpOp::Le,
                    syn::BinOp::Gt(_) => CmpOp::Gt,
                    syn::BinOp::Ge(_) => CmpOp::Ge,
                    _ => {
                        let (os, oe) = range(&b.op);
                        return err(os, oe, "expected `&&`, `||` or a comparison");
                    }
                };
                self.cmp(cmp, l, r)
            }
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                let x = self.expr(&u.expr)?;
                self.bool_operand(&x, "!")?;
                Ok((KlrExpr::Not { e: Box::new(x.0) }, s, end))
            }
            syn::Expr::Paren(p) => Ok((self.expr(&p.expr)?.0, s, end)),
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => match i.base10_parse::<i64>() {
                    Ok(value) if i.suffix().is_empty() => Ok((KlrExpr::Int { value }, s, end)),
                    _ => err(s, end, format!("`{i}` is not an integer")),
                },
                syn::Lit::Bool(b) => Ok((KlrExpr::Bool { value: b.value }, s, end)),
                _ => err(s, end, "expected a value"),
            },
            syn::Expr::Array(a) if a.elems.len() == 1 => {
                let x = self.expr(&a.elems[0])?;
                if !matches!(x.0.ty(), Ty::Int { .. }) {
                    return err(
                        x.1,
                        x.2,
                        format!("a `[…]` list holds an int, not {}", x.0.ty().name()),
                    );
                }
                Ok((KlrExpr::List1 { e: Box::new(x.0) }, s, end))
            }
            syn::Expr::Field(f) => {
                let (Some(en), syn::Member::Named(v)) = (bare_name(&f.base), &f.member) else {
                    return err(s, end, "expected `Enum.Value`");
                };
                let v = v.to_string();
                match self.env.enum_value(&en, &v) {
                    Ok(value) => Ok((
                        KlrExpr::Const {
                            enum_: en,
                            name: v,
                            value,
                        },
                        s,
                        end,
                    )),
                    Err(msg) => err(s, end, msg),
                }
            }
            syn::Expr::Call(c) => {
                let Some(name) = bare_name(&c.func) else {
                    return err(s, end, "expected a function or table name");
                };
                let args = c
                    .args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                self.call(name, args, s, end)
            }
            syn::Expr::Path(_) => match bare_name(e) {
                Some(name) => self.named(name, s, end),
                None => err(s, end, "expected a name"),
            },
            _ => err(s, end, "expected a value"),
        }
    }

    fn cmp(&self, op: CmpOp, l: Spanned, r: Spanned) -> Result<Spanned, ExprError> {
        let (lt, rt) = (l.0.ty(), r.0.ty());
        let ok = match (&lt, &rt) {
            (Ty::Int { enum_: a }, Ty::Int { enum_: b }) => {
                if let (Some(a), Some(b)) = (a, b)
                    && a != b
                {
                    return err(l.1, r.2, format!("compares a `{a}` with a `{b}`"));
                }
                true
            }
            (Ty::Bool, Ty::Bool) => matches!(op, CmpOp::Eq | CmpOp::Ne),
            _ => false,
        };
        if !ok {
            return err(
                l.1,
                r.2,
                format!(
                    "`{}` cannot compare {} with {}",
                    op.symbol(),
                    lt.name(),
                    rt.name()
                ),
            );
        }
        let (s, e) = (l.1, r.2);
        Ok((
            KlrExpr::Cmp {
                op,
                l: Box::new(l.0),
                r: Box::new(r.0),
            },
            s,
            e,
        ))
    }

    /// A call of a built-in function or a klr table.
    fn call(
        &self,
        name: String,
        mut args: Vec<Spanned>,
        s: usize,
        end: usize,
    ) -> Result<Spanned, ExprError> {
        if let Some(func) = Func::ALL.iter().copied().find(|f| f.name() == name) {
            let params = func.params();
            if params.len() != args.len() {
                return err(
                    s,
                    end,
                    format!(
                        "`{name}` takes {} argument(s), not {}",
                        params.len(),
                        args.len()
                    ),
                );
            }
            for (a, p) in args.iter().zip(params) {
                if &a.0.ty() != p {
                    return err(
                        a.1,
                        a.2,
                        format!(
                            "`{name}` needs {}, but this is {}",
                            p.name(),
                            a.0.ty().name()
                        ),
                    );
                }
            }
            return Ok((
                KlrExpr::Call {
                    func,
                    args: args.into_iter().map(|a| a.0).collect(),
                },
                s,
                end,
            ));
        }
        if let Some((fatal, enum_)) = self.env.table(&name) {
            let (Some(a), true) = (args.pop(), args.is_empty()) else {
                return err(s, end, format!("table `{name}` takes one index"));
            };
            if !matches!(a.0.ty(), Ty::Int { .. }) {
                return err(
                    a.1,
                    a.2,
                    format!(
                        "table `{name}` is indexed by an int, not {}",
                        a.0.ty().name()
                    ),
                );
            }
            return Ok((
                KlrExpr::Table {
                    name,
                    arg: Box::new(a.0),
                    fatal,
                    enum_,
                },
                s,
                end,
            ));
        }
        let known: Vec<&str> = Func::ALL.iter().map(|f| f.name()).collect();
        err(
            s,
            end,
            format!(
                "unknown function `{name}` (built in: {}; or a klr table)",
                known.join(", ")
            ),
        )
    }

    /// A bare name: `it`, a `let` value or an input field.
    fn named(&self, name: String, s: usize, e: usize) -> Result<Spanned, ExprError> {
        if name == "it" {
            return match self.env.it() {
                Some(ty) => Ok((KlrExpr::It { ty }, s, e)),
                None => err(s, e, "`it` is only defined in a check with `each`"),
            };
        }
        if let Some(ty) = self.env.var(&name) {
            return Ok((KlrExpr::Var { name, ty }, s, e));
        }
        match self.env.field(&name) {
            Some(Ok(ty)) => Ok((KlrExpr::Field { name, ty }, s, e)),
            Some(Err(msg)) => err(s, e, msg),
            None => err(
                s,
                e,
                format!("`{name}` is not an input field of this op or an earlier `let`"),
            ),
        }
    }
}
