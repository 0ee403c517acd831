//! klr expressions compiled to the runtime's three-valued `eval` functions.

use super::data::Lit;
use super::util::ident;
use crate::model::klr::*;
use crate::model::klr_expr::{KlrExpr, Ty};

/// Every expression the leaf's steps hold.
pub(super) fn exprs(l: &KlrLeaf) -> Vec<&KlrExpr> {
    let mut out: Vec<&Cond> = Vec::new();
    for s in &l.steps {
        match &s.kind {
            StepKind::Check(c) => out.extend(c.when.iter().chain(&c.append)),
            StepKind::Route { when, .. } => out.push(when),
            StepKind::Let { value, .. } => out.push(value),
            StepKind::Fork { paths, .. } => {
                for p in paths {
                    out.extend(&p.when);
                    out.extend(p.bind.iter().filter_map(|b| b.when.as_ref()));
                }
            }
            StepKind::Stamp { value, when, .. } => {
                if let StampValue::Expr { cond } = value {
                    out.push(cond);
                }
                out.extend(when);
            }
            StepKind::Effect { when, memo, .. } => {
                out.extend(when.iter().chain(memo.iter().map(|(_, k)| k)));
            }
        }
    }
    out.into_iter().map(|c| &c.expr).collect()
}

/// Whether `e` or one of its operands satisfies `f`.
pub(super) fn any(e: &KlrExpr, f: &dyn Fn(&KlrExpr) -> bool) -> bool {
    f(e) || match e {
        KlrExpr::Call { args, .. } => args.iter().any(|a| any(a, f)),
        KlrExpr::Table { arg, .. } => any(arg, f),
        KlrExpr::Not { e } | KlrExpr::List1 { e } => any(e, f),
        KlrExpr::And { l, r } | KlrExpr::Or { l, r } | KlrExpr::Cmp { l, r, .. } => {
            any(l, f) || any(r, f)
        }
        _ => false,
    }
}

/// Compiles an expression to Rust text: `Option<bool>` / `Option<i64>` for conditions and
/// ints, a reference for an access or immediate, a slice for a list. Text, so that a step
/// prints as one call on one line.
pub(super) fn ex(e: &KlrExpr, op: &Layout) -> String {
    match e {
        KlrExpr::Int { value } | KlrExpr::Const { value, .. } => format!("Some({value}i64)"),
        KlrExpr::Bool { value } => format!("Some({value})"),
        KlrExpr::Field { name, ty } => {
            let f = ident(name);
            let optional = op.fields.iter().any(|x| &x.name == name && x.optional);
            match ty {
                Ty::Ap | Ty::Imm => format!("&op.{f}"),
                Ty::Int { .. } if optional => format!("op.{f}"),
                Ty::Int { .. } | Ty::Bool => format!("Some(op.{f})"),
                _ => format!("op.{f}"),
            }
        }
        KlrExpr::Var { name, .. } => format!("v_{name}"),
        KlrExpr::It { .. } => "it".to_string(),
        KlrExpr::Call { func, args } => {
            let a: Vec<String> = args.iter().map(|x| ex(x, op)).collect();
            format!("eval::{}({})", func.name(), a.join(", "))
        }
        KlrExpr::Table { name, arg, .. } => {
            format!("eval::lookup(tables::{}, {})", ident(name), ex(arg, op))
        }
        KlrExpr::Not { e } => format!("eval::not({})", ex(e, op)),
        KlrExpr::And { l, r } => format!("eval::and({}, {})", ex(l, op), ex(r, op)),
        KlrExpr::Or { l, r } => format!("eval::or({}, {})", ex(l, op), ex(r, op)),
        KlrExpr::Cmp { op: c, l, r } => format!(
            "eval::cmp({}, {}, |a, b| a {} b)",
            ex(l, op),
            ex(r, op),
            c.symbol()
        ),
        KlrExpr::List1 { e } => ex(e, op),
    }
}

/// Compiles a value expression into a `Value` (`Value::Missing` with its text when the
/// op leaves an input out).
pub(super) fn value_ex(c: &Cond, op: &Layout, field_enum: Option<&str>) -> String {
    let text = Lit::str(&c.text);
    let text = text.text();
    let e = ex(&c.expr, op);
    match c.expr.ty() {
        Ty::Int { enum_ } => match enum_.as_deref().or(field_enum) {
            Some(en) => format!(
                "Value::enum_of({}, enums::{}::ENUMERATORS, {e}, {text})",
                Lit::str(en).text(),
                ident(en)
            ),
            None => format!("Value::known({e}, Value::Int, {text})"),
        },
        Ty::Bool => format!("Value::known({e}, Value::Bool, {text})"),
        Ty::List1 => format!("Value::known({e}, Value::One, {text})"),
        // An immediate field is read by value; `it` (an `each` entry) is a reference.
        Ty::Imm => match &c.expr {
            KlrExpr::Field { name, .. } => format!("Value::Imm(op.{})", ident(name)),
            _ => format!("Value::Imm(*{e})"),
        },
        Ty::Imms => format!("Value::Imms({e})"),
        _ => format!("Value::Missing({text})"),
    }
}
