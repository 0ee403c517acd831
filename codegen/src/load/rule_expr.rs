//! The type checker of rule expressions: a syn expression over field paths, constants,
//! tables, enumerators and helpers, checked and lowered to [`Expr`].

use std::ops::Range;

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;

use super::rule_place::{Fail, PlaceKind, RuleType, Seg, fits, int_range, place, segs};
use crate::diagnostics::suggest;
use crate::model::rules::*;
use crate::model::{Model, TypeKind};
use crate::naming::rust::KEYWORDS;

/// The integers a rule may write: every i64 but i64::MIN, whose negation (as `-x`) has no
/// i64.
const RULE_INTS: &str = "a rule's integers run from -9223372036854775807 to 9223372036854775807";

/// Checks expressions of the rules of one struct or bitfield; `rules` holds the
/// constants, tables and the rule sets resolved before it.
pub(super) struct Checker<'a> {
    pub model: &'a Model,
    pub rules: &'a RuleModel,
    /// The authority of the rule being checked: a header rule may not call a compiler one.
    pub authority: Authority,
}

pub(super) struct Typed {
    pub ty: RuleType,
    pub expr: Expr,
}

impl Checker<'_> {
    pub(super) fn ty_name(&self, t: RuleType) -> String {
        match t {
            RuleType::Int(lo, hi) => format!("an integer ({lo}..={hi})"),
            RuleType::Bool => "a condition".into(),
            RuleType::Enum(i) => format!("a `{}` value", self.model.types[i].name),
            RuleType::Flags(i) => format!("a `{}` flags value", self.model.types[i].name),
        }
    }

    pub(super) fn expr(&self, owner: usize, e: &syn::Expr) -> Result<Typed, Fail> {
        match e {
            syn::Expr::Paren(p) => self.expr(owner, &p.expr),
            syn::Expr::Group(g) => self.expr(owner, &g.expr),
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(n) => {
                    if !n.suffix().is_empty() {
                        return Err((n.span(), "write integers without a type suffix".into()));
                    }
                    let v = n.base10_parse::<i64>().map_err(|_| {
                        (
                            n.span(),
                            format!(
                                "integer literal {} is out of range ({RULE_INTS})",
                                n.base10_digits()
                            ),
                        )
                    })?;
                    Ok(Typed {
                        ty: RuleType::Int(v.into(), v.into()),
                        expr: Expr::Int { value: v },
                    })
                }
                syn::Lit::Bool(b) => Ok(Typed {
                    ty: RuleType::Bool,
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
                    let name = p.path.segments[0].ident.unraw().to_string();
                    let is_field =
                        place(self.model, owner, &[Seg::Name(name.clone(), e.span())]).is_ok();
                    if !is_field {
                        if let Some(i) = self.rules.constants.iter().position(|c| c.name == name) {
                            let v = i128::from(self.rules.constants[i].value);
                            return Ok(Typed {
                                ty: RuleType::Int(v, v),
                                expr: Expr::Const { index: i },
                            });
                        }
                        if name == "nc" {
                            let lo = self.model.archs.iter().map(|a| a.nc).min().unwrap_or(0);
                            let hi = self.model.archs.iter().map(|a| a.nc).max().unwrap_or(0);
                            return Ok(Typed {
                                ty: RuleType::Int(lo.into(), hi.into()),
                                expr: Expr::Nc,
                            });
                        }
                    }
                }
                let s = segs(e)?;
                let place = place(self.model, owner, &s)?;
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
                // `-9223372036854775808` is i64::MIN, but its digits alone are no i64.
                if let (syn::UnOp::Neg(_), syn::Expr::Lit(l)) = (u.op, &*u.expr)
                    && let syn::Lit::Int(n) = &l.lit
                    && n.base10_parse::<u64>().is_ok_and(|v| v == 1 << 63)
                {
                    return Err((
                        u.span(),
                        format!(
                            "-{} is i64::MIN, which rules do not take ({RULE_INTS})",
                            n.base10_digits()
                        ),
                    ));
                }
                let a = self.expr(owner, &u.expr)?;
                match u.op {
                    syn::UnOp::Not(_) => {
                        if a.ty != RuleType::Bool {
                            return Err((
                                u.expr.span(),
                                format!("`!` needs a condition; this is {}", self.ty_name(a.ty)),
                            ));
                        }
                        Ok(Typed {
                            ty: RuleType::Bool,
                            expr: not(a.expr),
                        })
                    }
                    syn::UnOp::Neg(_) => {
                        let (lo, hi) = self.int(&a, u.expr.span())?;
                        Ok(Typed {
                            ty: RuleType::Int(-hi, -lo),
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
    fn expr_in(&self, owner: usize, e: &syn::Expr, hint: RuleType) -> Result<Typed, Fail> {
        if let (RuleType::Enum(ei), syn::Expr::Path(p)) = (hint, e)
            && p.qself.is_none()
            && p.path.segments.len() == 1
        {
            let name = p.path.segments[0].ident.unraw().to_string();
            let known = place(self.model, owner, &[Seg::Name(name.clone(), e.span())]).is_ok()
                || self.rules.constants.iter().any(|c| c.name == name)
                || name == "nc";
            if !known
                && let TypeKind::Enum { values, .. } = &self.model.types[ei].kind
                && let Some(v) = values
                    .iter()
                    .find(|v| v.name == name || v.aliases.iter().any(|a| a.name == name))
            {
                return Ok(Typed {
                    ty: RuleType::Enum(ei),
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
        let ty = path.segments[0].ident.unraw().to_string();
        let name = path.segments[1].ident.unraw().to_string();
        let span = path.span();
        let Some(index) = self.model.types.iter().position(|t| t.name == ty) else {
            let hint = suggest(&ty, self.model.types.iter().map(|t| t.name.as_str()));
            return Err((
                path.segments[0].ident.span(),
                format!("unknown type `{ty}`{hint}"),
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
                    ty: RuleType::Enum(index),
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
                    ty: RuleType::Int(v.into(), v.into()),
                    expr: Expr::Int { value: v },
                })
            }
            _ => Err((span, format!("`{ty}` is not an enum or flags type"))),
        }
    }

    fn int(&self, t: &Typed, span: Span) -> Result<(i128, i128), Fail> {
        match t.ty {
            RuleType::Int(lo, hi) => Ok((lo, hi)),
            RuleType::Flags(i) => match &self.model.types[i].kind {
                TypeKind::Flags { repr, .. } => Ok(int_range(*repr)),
                _ => Ok((0, 0)),
            },
            RuleType::Enum(i) => Err((
                span,
                format!(
                    "`{}` values are compared with its enumerators (`{}::NAME`), not used as numbers; \
                 use a table to map them to numbers",
                    self.model.types[i].name, self.model.types[i].name
                ),
            )),
            RuleType::Bool => Err((span, "a condition is not a number".into())),
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
                ty: RuleType::Bool,
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
                    if t.ty != RuleType::Bool {
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
                RuleType::Bool
            }
            'e' => {
                self.comparable(&l, &r, span, true)?;
                RuleType::Bool
            }
            'o' => {
                self.int(&l, b.left.span())?;
                self.int(&r, b.right.span())?;
                RuleType::Bool
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
                RuleType::Int(lo, hi)
            }
        };
        Ok(Typed {
            ty,
            expr: bin(op, l.expr, r.expr),
        })
    }

    fn comparable(&self, l: &Typed, r: &Typed, span: Span, eq: bool) -> Result<(), Fail> {
        let num = |t: RuleType| matches!(t, RuleType::Int(..) | RuleType::Flags(_));
        let ok = match (l.ty, r.ty) {
            (a, b) if num(a) && num(b) => true,
            (RuleType::Enum(a), RuleType::Enum(b)) => a == b,
            (RuleType::Bool, RuleType::Bool) => eq,
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let hint = match (l.ty, r.ty) {
            (RuleType::Enum(i), RuleType::Int(..)) | (RuleType::Int(..), RuleType::Enum(i)) => {
                format!(
                    " (compare with an enumerator such as `{}::{}`)",
                    self.model.types[i].name,
                    match &self.model.types[i].kind {
                        TypeKind::Enum { values, .. } =>
                            values.first().map_or("NAME", |v| v.name.as_str()),
                        _ => "NAME",
                    }
                )
            }
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
                p.path.segments[0].ident.unraw().to_string()
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
                let RuleType::Flags(fi) = x.ty else {
                    return Err((
                        args[0].span(),
                        format!(
                            "`has` needs a flags value first; this is {}",
                            self.ty_name(x.ty)
                        ),
                    ));
                };
                let TypeKind::Flags { bits, .. } = &self.model.types[fi].kind else {
                    unreachable!("RuleType::Flags is a flags type");
                };
                let fname = self.model.types[fi].name.clone();
                let bit = match args[1] {
                    syn::Expr::Path(p) if p.path.segments.len() == 1 => {
                        p.path.segments[0].ident.unraw().to_string()
                    }
                    syn::Expr::Path(p)
                        if p.path.segments.len() == 2
                            && p.path.segments[0].ident.unraw() == fname =>
                    {
                        p.path.segments[1].ident.unraw().to_string()
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
                    ty: RuleType::Bool,
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
                let place = place(self.model, owner, &s)?;
                let PlaceKind::Scalar {
                    size,
                    signed,
                    bits,
                    ty: RuleType::Int(lo, hi),
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
                    ty: RuleType::Int(lo.min(z.into()), hi.max(z.into())),
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
                let place = place(self.model, owner, &s)?;
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
                    ty: RuleType::Int(0, len as i128),
                    expr: e,
                })
            }
            "is_enumerator" => {
                arity(1)?;
                let x = self.expr(owner, args[0])?;
                let RuleType::Enum(ei) = x.ty else {
                    return Err((
                        args[0].span(),
                        format!(
                            "`is_enumerator` needs an enum value; this is {}",
                            self.ty_name(x.ty)
                        ),
                    ));
                };
                let TypeKind::Enum { values, .. } = &self.model.types[ei].kind else {
                    unreachable!("RuleType::Enum is an enum type");
                };
                let parts = values.iter().map(|v| {
                    let eq = bin(
                        BinOp::Eq,
                        x.expr.clone(),
                        Expr::Int {
                            value: v.value as i64,
                        },
                    );
                    match arch_condition(&self.model.archs, &v.arch) {
                        None => eq,
                        Some(cond) => bin(BinOp::And, eq, cond),
                    }
                });
                Ok(Typed {
                    ty: RuleType::Bool,
                    expr: fold(parts, BinOp::Or),
                })
            }
            _ => {
                if let Some(ti) = self.rules.tables.iter().position(|t| t.name == name) {
                    arity(1)?;
                    let t = &self.rules.tables[ti];
                    let x = self.expr(owner, args[0])?;
                    if x.ty != RuleType::Enum(t.over) {
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
                        ty: RuleType::Int(lo.into(), hi.into()),
                        expr: Expr::Table {
                            index: ti,
                            arg: Box::new(x.expr),
                        },
                    });
                }
                // A rule of the argument's type.
                if args.len() == 1
                    && let Ok(s) = segs(args[0])
                    && let Ok(place) = place(self.model, owner, &s)
                    && let PlaceKind::Composite {
                        ty_index: Some(ti), ..
                    } = place.kind
                    && !place.path.is_empty()
                {
                    let tname = &self.model.types[ti].name;
                    let Some(set) = self.rules.sets.iter().find(|s| s.owner == ti) else {
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
                    if set.rules[ri].authority == Authority::Compiler
                        && self.authority == Authority::Header
                    {
                        return Err((
                            c.func.span(),
                            format!(
                                "`{name}` is a compiler rule of `{tname}`; a header rule cannot \
                                 call it (give this rule `authority = \"compiler\"`)"
                            ),
                        ));
                    }
                    let body = set.inline(&self.model.archs, ri);
                    return Ok(Typed {
                        ty: RuleType::Bool,
                        expr: rebase(&body, place.offset, &place.path),
                    });
                }
                // A rule of some type applied to what is not of that type (a field whose
                // type did not resolve, say): the argument is at fault.
                if args.len() == 1
                    && let Ok(s) = segs(args[0])
                    && let Some(set) =
                        (self.rules.sets.iter()).find(|set| set.by_id(&name).is_some())
                {
                    let tname = &self.model.types[set.owner].name;
                    let place = place(self.model, owner, &s)?;
                    return Err((
                        args[0].span(),
                        format!(
                            "`{name}` is a rule of `{tname}`; `{}` is not a `{tname}`",
                            place.path
                        ),
                    ));
                }
                let mut helpers = vec![
                    "has".to_string(),
                    "is_enumerator".to_string(),
                    "value".to_string(),
                ];
                helpers.extend(self.rules.tables.iter().map(|t| t.name.clone()));
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

/// `x in [a, b]` is not Rust; rewrite the `in` to `==` (same length, so spans stay put)
/// and read `x == [a, b]` as membership.
pub(super) fn rewrite_in(s: &str) -> String {
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

/// Whether `word` names a type, member, enumerator, flag bit, arm or join of `m`.
pub(super) fn names_in(m: &Model, word: &str) -> bool {
    m.types.iter().any(|t| {
        t.name == word
            || match &t.kind {
                TypeKind::Enum { values, .. } => values
                    .iter()
                    .any(|v| v.name == word || v.aliases.iter().any(|a| a.name == word)),
                TypeKind::Flags { bits, .. } => bits.iter().any(|b| b.name == word),
                TypeKind::Bitfield { fields, .. } => fields.iter().any(|f| f.name == word),
                TypeKind::Struct { fields, joins, .. } => {
                    fields.iter().any(|f| f.name == word) || joins.iter().any(|j| j.name == word)
                }
                TypeKind::Union {
                    discriminator,
                    variants,
                } => discriminator.name == word || variants.iter().any(|v| v.name == word),
            }
    })
}

/// `s` as syn reads it: each Rust keyword that is a spec name (`is_name`: a field `type`,
/// a bitfield's sub-field `loop`) as a raw identifier (`r#type`), and the offsets in `s`
/// where an `r#` went in, so that spans map back ([`unraw_offset`]). A name the spec
/// writes raw is an error at its range: rules use the spec names. `true`, `false` and
/// `in` stay keywords.
pub(super) fn raw_keywords(
    s: &str,
    is_name: impl Fn(&str) -> bool,
) -> Result<(String, Vec<usize>), (Range<usize>, String)> {
    let b = s.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(s.len());
    let mut inserted = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphabetic() || b[i] == b'_') || (i > 0 && ident(b[i - 1])) {
            out.push_str(&s[i..i + 1]);
            i += s[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let end = (i..b.len()).find(|&j| !ident(b[j])).unwrap_or(b.len());
        let word = &s[i..end];
        if word == "r" && b.get(end) == Some(&b'#') {
            let name_end = (end + 1..b.len())
                .find(|&j| !ident(b[j]))
                .unwrap_or(b.len());
            let name = &s[end + 1..name_end];
            return Err((
                i..name_end,
                format!(
                    "`r#{name}` is the Rust spelling: name the field `{name}`, as the spec does"
                ),
            ));
        }
        if KEYWORDS.contains(&word) && !matches!(word, "true" | "false" | "in") && is_name(word) {
            inserted.push(i);
            out.push_str("r#");
        }
        out.push_str(word);
        i = end;
    }
    Ok((out, inserted))
}

/// The offset in the text as written of `offset` in the text [`raw_keywords`] made, which
/// has an `r#` inserted at each of `inserted` (offsets in the text as written).
pub(super) fn unraw_offset(offset: usize, inserted: &[usize]) -> usize {
    let mut shift = 0;
    for &at in inserted {
        if offset >= at + shift + 2 {
            shift += 2;
        } else if offset >= at + shift {
            return at;
        } else {
            break;
        }
    }
    offset - shift
}

#[cfg(test)]
mod tests {
    use super::{raw_keywords, rewrite_in, unraw_offset};

    #[test]
    fn keywords_are_read_as_raw_identifiers() {
        let (text, at) = raw_keywords("type == 1 && fn.loop > x_type && true", |_| true).unwrap();
        assert_eq!(text, "r#type == 1 && r#fn.r#loop > x_type && true");
        assert_eq!(at, [0, 13, 16]);
        // `r#fn` starts at 15 after one insertion, `r#loop` at 19 after two.
        assert_eq!(unraw_offset(15, &at), 13);
        assert_eq!(unraw_offset(17, &at), 13);
        assert_eq!(unraw_offset(21, &at), 16);
        assert_eq!(unraw_offset(27, &at), 21);
        let e = raw_keywords("x + r#type", |_| true).unwrap_err();
        assert_eq!(e.0, 4..10);
        // A keyword that names nothing stays one (and syn reads `if` as `if`).
        assert_eq!(raw_keywords("if x", |w| w == "type").unwrap().0, "if x");
    }

    #[test]
    fn in_is_rewritten_in_place() {
        assert_eq!(rewrite_in("x in [1, 2]"), "x == [1, 2]");
        assert_eq!(rewrite_in("min [1]"), "min [1]");
        assert_eq!(rewrite_in("a.in_x in[3]"), "a.in_x ==[3]");
        assert_eq!(rewrite_in("inx"), "inx");
    }
}
