//! Validators, emitted into the Rust module next to the types (see [`crate::schema::rules`]).
//!
//! Per struct or bitfield with rules:
//!
//! - `RULES: &[rules::RuleMeta]`, in spec order;
//! - `rule_truths(b: &[u8; SIZE], arch) -> (u64, u64)`: bit `i` set when rule `i` holds,
//!   computed from the encoded bytes (children before their composites), and the same with
//!   the bodiless alternatives of an `Any` taken to fail, from one read of the fields;
//! - `check_rules(b, arch) -> rules::Violations` and `validate(&self, arch) ->
//!   Result<(), rules::Violations>`.
//!
//! `[[constant]]`s become `pub const NAME: i64`, and `Word` gets `validate`, `check` and
//! `rules`. All values are `i64`: the loader has proven that nothing overflows.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::data::Lit;
use super::render::Render;
use super::util::{code, confidence, doc_attr, hex, ident, n, shifted_down};
use crate::model::rules::{Access, Authority, BinOp, Expr, RuleKind, RuleSet, arch_condition, not};
use crate::model::*;

fn lit(v: i64) -> TokenStream {
    if v < 0 {
        let a = Literal::i64_suffixed(v.unsigned_abs() as i64);
        quote!((-#a))
    } else {
        let a = Literal::i64_suffixed(v);
        quote!(#a)
    }
}

/// The `[[constant]]`s, as `pub const NAME: i64`.
pub(super) fn constants(cx: &Render<'_>) -> TokenStream {
    let consts = cx.model.rules.constants.iter().map(|c| {
        let id = ident(&c.name);
        let v = lit(c.value);
        let doc = doc_attr(&c.doc, &c.confidence);
        let gated = cx.gate_attr(&c.confidence, &c.evidence);
        quote!(#doc #gated pub const #id: i64 = #v;)
    });
    quote!(#(#consts)*)
}

/// An expression over `b` (the owner's bytes), `nc` and the constants.
/// Chains of at most this many parts are written out with `&` / `|`; longer ones (long
/// `in` lists) as an array.
const SHORT_CHAIN: usize = 16;

/// The fields a `rule_truth` reads, each once, into a local named after its path.
struct Reads<'m> {
    model: &'m Model,
    /// `(path, local, value)` in first-use order.
    list: std::cell::RefCell<Vec<(String, syn::Ident, TokenStream)>>,
    /// Whether a rule reads the architecture's `nc`.
    nc: std::cell::Cell<bool>,
}

impl Reads<'_> {
    /// The local holding `access`'s value, declared on first use.
    fn local(&self, access: &Access, value: impl FnOnce() -> TokenStream) -> TokenStream {
        let mut list = self.list.borrow_mut();
        if let Some((_, id, _)) = list.iter().find(|r| r.0 == access.path) {
            return quote!(#id);
        }
        let mut name: String = access
            .path
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        name = name.trim_matches('_').to_string();
        // Not a name the function uses, a constant's (a `let` would match it), a keyword
        // or another field's.
        let taken = |n: &str| {
            ["b", "arch", "nc", "t", "at", "at_mut", "ALWAYS", ""].contains(&n)
                || (n.starts_with('r') && n[1..].bytes().all(|c| c.is_ascii_digit()))
                || n.starts_with(|c: char| c.is_ascii_digit())
                || self.model.rules.constants.iter().any(|c| c.name == n)
                || list.iter().any(|r| r.1 == n)
        };
        while taken(&name) {
            name.push('_');
        }
        let id = ident(&name);
        list.push((access.path.clone(), id.clone(), value()));
        quote!(#id)
    }

    /// `let <local> = <value>;` for every field read.
    fn lets(&self) -> TokenStream {
        let list = self.list.borrow();
        let lets = list.iter().map(|(_, id, v)| quote!(let #id = #v;));
        quote!(#(#lets)*)
    }
}

/// How tightly an expression binds, as Rust parses it: an operand binding less tightly
/// than its operator needs parentheses, and nothing else gets them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// `if` and `match`: parenthesized wherever they are an operand.
    Loose,
    Compare,
    /// `|` (a rule's `||`).
    BitOr,
    /// `&` (a rule's `&&`, or a mask).
    BitAnd,
    Add,
    Mul,
    Unary,
    Atom,
}

fn prec(bin: BinOp) -> Prec {
    match bin {
        BinOp::Or => Prec::BitOr,
        BinOp::And => Prec::BitAnd,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Prec::Compare,
        BinOp::BitAnd => Prec::BitAnd,
        BinOp::Add | BinOp::Sub => Prec::Add,
        BinOp::Mul | BinOp::Div | BinOp::Rem => Prec::Mul,
    }
}

/// A rendered expression and how tightly it binds.
struct Out(TokenStream, Prec);

impl Out {
    /// As an operand that must bind at least as tightly as `min`.
    fn at(self, min: Prec) -> TokenStream {
        let Out(ts, p) = self;
        // `a | (b & c)`: Rust needs no parentheses there, a reader (and clippy) does.
        if p < min || (min == Prec::BitOr && p == Prec::BitAnd) {
            quote!((#ts))
        } else {
            ts
        }
    }
}

/// Whether an integer expression has a type of its own (it reads a field, `nc` or a
/// constant, all `i64`): its literal partners then need no `i64` suffix.
fn typed(e: &Expr) -> bool {
    match e {
        Expr::Read { .. } | Expr::Const { .. } | Expr::Nc => true,
        Expr::Int { .. } | Expr::Bool { .. } | Expr::Table { .. } | Expr::Chain { .. } => false,
        Expr::Not { arg } | Expr::Neg { arg } => typed(arg),
        Expr::If { then, other, .. } => typed(then) || typed(other),
        Expr::Bin { bin, lhs, rhs } => !bin.is_bool() && (typed(lhs) || typed(rhs)),
    }
}

/// An integer literal, `i64`-suffixed only when nothing beside it gives it that type.
fn int(v: i64, suffix: bool) -> Out {
    let a = match suffix {
        true => Literal::i64_suffixed(v.unsigned_abs() as i64),
        false => Literal::i64_unsuffixed(v.unsigned_abs() as i64),
    };
    match v < 0 {
        true => Out(quote!(-#a), Prec::Unary),
        false => Out(quote!(#a), Prec::Atom),
    }
}

/// `e` as Rust over `b` (the owner's bytes), `nc` and the constants; `suffix`: an integer
/// result must carry its `i64` type itself (no typed partner infers it).
fn expr(reads: &Reads<'_>, e: &Expr, size: usize, suffix: bool) -> Out {
    let model = reads.model;
    let r = |x: &Expr, suffix: bool| expr(reads, x, size, suffix);
    match e {
        Expr::Int { value } => int(*value, suffix),
        Expr::Bool { value } => Out(quote!(#value), Prec::Atom),
        Expr::Const { index } => {
            let id = ident(&model.rules.constants[*index].name);
            Out(quote!(#id), Prec::Atom)
        }
        Expr::Nc => {
            reads.nc.set(true);
            Out(quote!(nc), Prec::Atom)
        }
        Expr::Read { access } => Out(
            reads.local(access, || {
                let (off, sz, m) = (n(access.offset), n(access.size), n(size));
                let int = match (access.size, access.signed && access.bits.is_none()) {
                    (1, false) => quote!(u8),
                    (2, false) => quote!(u16),
                    (4, false) => quote!(u32),
                    (8, false) => quote!(u64),
                    (1, true) => quote!(i8),
                    (2, true) => quote!(i16),
                    (4, true) => quote!(i32),
                    _ => quote!(i64),
                };
                let raw = quote!(#int::from_le_bytes(*at::<#off, #sz, #m>(b)));
                match access.bits {
                    Some((lsb, width)) => {
                        let mask = hex(if width >= 64 {
                            u64::MAX
                        } else {
                            (1u64 << width) - 1
                        });
                        let bits = code(&shifted_down(quote!((#raw as u64)), lsb, &mask));
                        quote!(#bits as i64)
                    }
                    None => quote!(#raw as i64),
                }
            }),
            Prec::Atom,
        ),
        Expr::Not { arg } => match negated(arg) {
            Some(e) => r(&e, suffix),
            None => {
                let a = r(arg, suffix).at(Prec::Unary);
                Out(quote!(!#a), Prec::Unary)
            }
        },
        Expr::Neg { arg } => {
            let a = r(arg, suffix).at(Prec::Unary);
            Out(quote!(-#a), Prec::Unary)
        }
        Expr::Table { index, arg } => {
            let t = &model.rules.tables[*index];
            let a = r(arg, !typed(arg)).0;
            let arms = super::tables::value_groups(t).into_iter().map(|(v, keys)| {
                let keys = super::tables::key_patterns(&keys);
                let v = int(v, suffix).0;
                quote!(#(#keys)|* => #v,)
            });
            let d = int(t.default, suffix).0;
            // A `match` is an operand only in parentheses.
            Out(quote!(match #a { #(#arms)* _ => #d }), Prec::Loose)
        }
        Expr::If { cond, then, other } => {
            let c = r(cond, false).0;
            let (a, b) = (r(then, suffix).0, r(other, suffix).0);
            Out(quote!(if #c { #a } else { #b }), Prec::Loose)
        }
        Expr::Chain { bin, parts } if parts.len() > SHORT_CHAIN => {
            // syn and prettyplease, which print the generated file, recurse once per `||`
            // of a chain; the items of an array they walk in a loop. Every part is
            // proven free of overflow, so evaluating them all is safe.
            let parts = parts.iter().map(|p| r(p, false).0);
            match bin {
                BinOp::And => Out(quote!(![#(#parts),*].contains(&false)), Prec::Unary),
                _ => Out(quote!([#(#parts),*].contains(&true)), Prec::Atom),
            }
        }
        Expr::Chain { bin, parts } => logic(reads, size, *bin, parts.iter().collect()),
        Expr::Bin {
            bin: bin @ (BinOp::And | BinOp::Or),
            lhs,
            rhs,
        } => logic(reads, size, *bin, vec![lhs, rhs]),
        Expr::Bin { bin, lhs, rhs } => {
            let p = prec(*bin);
            // Literals on both sides of a comparison take their type from neither; on both
            // sides of arithmetic, from whatever the result meets.
            let inner = match p {
                Prec::Compare => !typed(lhs) && !typed(rhs),
                _ => suffix && !typed(lhs) && !typed(rhs),
            };
            // Comparisons do not chain; the other operators associate to the left.
            let left_min = if p == Prec::Compare { Prec::BitAnd } else { p };
            let right_min = bump(p);
            // A mask reads as the spec writes it, in hex.
            let operand = |x: &Expr, min| match (bin, x) {
                (BinOp::BitAnd, Expr::Int { value }) if *value > 9 => {
                    hex(value.unsigned_abs()).into_token_stream()
                }
                _ => r(x, inner).at(min),
            };
            let a = operand(lhs, left_min);
            let b = operand(rhs, right_min);
            let op = code(bin.symbol());
            Out(quote!(#a #op #b), p)
        }
    }
}

/// The operands of `&&` (or `||`), written `&` (`|`), as a person writes them: nested ones of the same operator
/// in one flat chain, the operator's identity (`&& true`) dropped, and a bound on each side
/// of one value as a range (`(2..=256).contains(&x)`, `!(..).contains` for `||`).
fn logic(reads: &Reads<'_>, size: usize, bin: BinOp, parts: Vec<&Expr>) -> Out {
    let and = bin == BinOp::And;
    let mut flat: Vec<&Expr> = Vec::new();
    let mut stack: Vec<&Expr> = parts.into_iter().rev().collect();
    while let Some(e) = stack.pop() {
        match e {
            Expr::Chain { bin: b, parts } if *b == bin && parts.len() <= SHORT_CHAIN => {
                stack.extend(parts.iter().rev())
            }
            Expr::Bin { bin: b, lhs, rhs } if *b == bin => stack.extend([&**rhs, &**lhs]),
            Expr::Bool { value } if *value == and => {}
            Expr::Bool { value } => return Out(quote!(#value), Prec::Atom),
            _ => flat.push(e),
        }
    }
    let p = prec(bin);
    let mut out: Vec<Out> = Vec::new();
    let mut i = 0;
    while i < flat.len() {
        // Three or more `x == k` in a row (`||`), or `x != k` (`&&`): a `matches!` over the
        // values, as for an `in [...]` list.
        let run = values_of(&flat[i..], and);
        if run.1.len() >= 3 {
            let (x, keys) = run;
            let x = expr(reads, x, size, false).0;
            out.push(membership(x, super::tables::key_patterns(&keys), !and));
            i += keys.len();
            continue;
        }
        if let Some(range) = flat.get(i + 1).and_then(|next| range(flat[i], next, and)) {
            let (x, lo, hi) = range;
            let x = expr(reads, x, size, false).0;
            let (lo, hi) = (int(lo, false).0, int(hi, false).0);
            out.push(membership(x, vec![quote!(#lo..=#hi)], and));
            i += 2;
            continue;
        }
        out.push(expr(reads, flat[i], size, false));
        i += 1;
    }
    match out.len() {
        0 => Out(quote!(#and), Prec::Atom),
        1 => out.remove(0),
        _ => {
            // Every operand is total (the loader proves that nothing overflows or divides
            // by zero), so all are evaluated: no branch on the bytes, which are random
            // in the worst case a validator meets.
            let op = if and { quote!(&) } else { quote!(|) };
            let mut parts = out.into_iter().map(|o| o.at(p));
            let first = parts.next();
            Out(quote!(#first #(#op #parts)*), p)
        }
    }
}

/// `x` is (`is`) or is not one of the patterns: a range's `contains` for one range
/// (prettyplease spaces `..=` inside a macro), else `matches!`.
fn membership(x: TokenStream, pats: Vec<TokenStream>, is: bool) -> Out {
    let test = match pats.len() {
        1 => quote!((#(#pats)*).contains(&#x)),
        _ => quote!(matches!(#x, #(#pats)|*)),
    };
    match is {
        true => Out(test, Prec::Atom),
        false => Out(quote!(!#test), Prec::Unary),
    }
}

/// The longest run at the start of `parts` comparing one value with literals: `x == k`
/// under `||`, `x != k` under `&&`.
fn values_of<'e>(parts: &[&'e Expr], and: bool) -> (&'e Expr, Vec<i64>) {
    let want = if and { BinOp::Ne } else { BinOp::Eq };
    let test = |e: &'e Expr| match e {
        Expr::Bin { bin, lhs, rhs } if *bin == want => match &**rhs {
            Expr::Int { value } => Some((&**lhs, *value)),
            _ => None,
        },
        _ => None,
    };
    let Some((x, first)) = test(parts[0]) else {
        return (parts[0], Vec::new());
    };
    let mut keys = vec![first];
    for p in &parts[1..] {
        match test(p) {
            Some((y, k)) if y == x => keys.push(k),
            _ => break,
        }
    }
    (x, keys)
}

/// `(x, lo, hi)` when `a && b` says `lo <= x <= hi` (or `a || b` says it does not).
fn range<'e>(a: &'e Expr, b: &'e Expr, and: bool) -> Option<(&'e Expr, i64, i64)> {
    let bound = |e: &'e Expr| match e {
        Expr::Bin { bin, lhs, rhs } => match &**rhs {
            Expr::Int { value } => Some((*bin, &**lhs, *value)),
            _ => None,
        },
        _ => None,
    };
    let ((op_a, x, va), (op_b, y, vb)) = (bound(a)?, bound(b)?);
    if x != y {
        return None;
    }
    let (lo, hi) = match (and, op_a, op_b) {
        (true, BinOp::Ge, BinOp::Le) => (va, vb),
        (true, BinOp::Gt, BinOp::Le) => (va.checked_add(1)?, vb),
        (true, BinOp::Ge, BinOp::Lt) => (va, vb.checked_sub(1)?),
        (true, BinOp::Gt, BinOp::Lt) => (va.checked_add(1)?, vb.checked_sub(1)?),
        (false, BinOp::Lt, BinOp::Gt) => (va, vb),
        (false, BinOp::Lt, BinOp::Ge) => (va, vb.checked_sub(1)?),
        (false, BinOp::Le, BinOp::Gt) => (va.checked_add(1)?, vb),
        (false, BinOp::Le, BinOp::Ge) => (va.checked_add(1)?, vb.checked_sub(1)?),
        _ => return None,
    };
    (lo <= hi).then_some((x, lo, hi))
}

/// `!e` without the `!` where a person would drop it (`a != b` for `!(a == b)`, De Morgan
/// over `&&` and `||`, `x` for `!!x`), as clippy's `nonminimal_bool` asks; `None` for an
/// `e` that only `!` negates.
fn negated(e: &Expr) -> Option<Expr> {
    let flip = |bin| match bin {
        BinOp::Eq => Some(BinOp::Ne),
        BinOp::Ne => Some(BinOp::Eq),
        BinOp::Lt => Some(BinOp::Ge),
        BinOp::Le => Some(BinOp::Gt),
        BinOp::Gt => Some(BinOp::Le),
        BinOp::Ge => Some(BinOp::Lt),
        _ => None,
    };
    let dual = |bin| match bin {
        BinOp::And => Some(BinOp::Or),
        BinOp::Or => Some(BinOp::And),
        _ => None,
    };
    let neg = |x: &Expr| negated(x).unwrap_or_else(|| not(x.clone()));
    match e {
        Expr::Not { arg } => Some((**arg).clone()),
        Expr::Bool { value } => Some(Expr::Bool { value: !value }),
        Expr::Bin { bin, lhs, rhs } => match (flip(*bin), dual(*bin)) {
            (Some(bin), _) => Some(Expr::Bin {
                bin,
                lhs: lhs.clone(),
                rhs: rhs.clone(),
            }),
            (_, Some(bin)) => Some(Expr::Bin {
                bin,
                lhs: Box::new(neg(lhs)),
                rhs: Box::new(neg(rhs)),
            }),
            _ => None,
        },
        Expr::Chain { bin, parts } => dual(*bin).map(|bin| Expr::Chain {
            bin,
            parts: parts.iter().map(neg).collect(),
        }),
        _ => None,
    }
}

/// The next tighter level: a right operand of the same level keeps its parentheses
/// (`a - (b - c)`).
fn bump(p: Prec) -> Prec {
    match p {
        Prec::Loose => Prec::Compare,
        Prec::Compare => Prec::BitOr,
        Prec::BitOr => Prec::BitAnd,
        Prec::BitAnd => Prec::Add,
        Prec::Add => Prec::Mul,
        Prec::Mul => Prec::Unary,
        Prec::Unary | Prec::Atom => Prec::Atom,
    }
}

pub(super) fn set_items(cx: &Render<'_>, set: &RuleSet) -> TokenStream {
    let model = cx.model;
    let owner = model.ty(set.owner);
    let id = ident(&owner.name);
    let size = owner.size;
    let owner_name = &owner.name;
    let metas = Lit::slice(set.rules.iter().enumerate().map(|(i, r)| {
        let (kind, parts): (_, &[usize]) = match &r.kind {
            RuleKind::Expr { .. } => ("rules::RuleKind::Expr", &[]),
            RuleKind::All { parts } => ("rules::RuleKind::All", parts),
            RuleKind::Any { parts } => ("rules::RuleKind::Any", parts),
            RuleKind::NotEnforced => ("rules::RuleKind::NotEnforced", &[]),
        };
        let enforced = set.enforcement(i) != crate::model::rules::Enforcement::NotEnforced;
        let strs = |xs: &[String]| Lit::nonempty(xs.iter().map(|x| Lit::str(x)));
        let composite = !matches!(r.kind, RuleKind::Expr { .. });
        let parts = Lit::slice(parts.iter().map(Lit::num));
        Lit::built(
            "rules::RuleMeta::new",
            [
                Lit::str(&r.id),
                Lit::str(&r.name),
                Lit::str(r.source()),
                confidence(&r.confidence),
                Lit::str(&r.message),
                Lit::str(&r.doc),
            ],
            [
                ("args", r.args.as_deref().map(Lit::str)),
                ("clause", r.clause.then(|| Lit::code(""))),
                (
                    "kind",
                    composite.then(|| Lit::code(format!("{kind}, {}", parts.text()))),
                ),
                (
                    "authority",
                    (r.authority == Authority::Compiler)
                        .then(|| Lit::code("rules::RuleAuthority::Compiler")),
                ),
                ("expr", r.expr_source().map(Lit::str)),
                ("parent", r.parent.map(Lit::num)),
                ("arch", strs(&r.arch)),
                ("fields", strs(&r.fields)),
                (
                    "evidence",
                    (!r.evidence.is_empty()).then(|| cx.evidence(&r.evidence)),
                ),
                ("not_enforced", (!enforced).then(|| Lit::code(""))),
            ],
        )
    }));
    let metas = cx.lits.embed(metas);
    let doc_truth = format!(
        " Truth of each of `{owner_name}`'s rules on its encoded bytes: bit `i` is set when \
         `RULES[i]` holds (rules limited to other architectures hold, and so do the \
         predicates the sources name without a body); then the same with the bodiless \
         alternatives of an `Any` taken not to hold."
    );
    let doc_truth = match cx.gate {
        Some(g) => format!(
            "{doc_truth} Built with the `{}` confidence gate: rules below it are left out \
             (they hold).",
            g.level
        ),
        None => doc_truth,
    };
    let truths = truths_fn(cx, set, &doc_truth);
    // Words and records state their `Packed` impl with the rest of what they add.
    let packed = (owner.opcode().is_none() && !owner.is_record())
        .then(|| super::words::packed_impl(&id, owner_name, size));
    quote! {
        #packed
        impl Checked for #id {
            type Arch = Arch;
            const RULES: &'static [rules::RuleMeta] = #metas;
            #truths
        }
    }
}

/// A rule's value in a truth function: decided while generating, or computed.
#[derive(Clone)]
enum Value {
    Holds,
    Fails,
    Computed(TokenStream),
}

/// One pass over a rule set in post order: each rule's value, and the statements that
/// compute the open ones into `acc` (as `r<i>`, or `k<i>` in the `known` pass).
struct Pass {
    values: Vec<Value>,
    stmts: Vec<TokenStream>,
}

/// The rules whose `known` value can differ from their truth: the bodiless alternatives
/// of an `Any` and every composite above one.
fn differs_known(set: &RuleSet) -> Vec<bool> {
    let mut differs = vec![false; set.rules.len()];
    for i in set.post_order() {
        differs[i] = set.is_bodiless_alternative(i)
            || match &set.rules[i].kind {
                RuleKind::All { parts } | RuleKind::Any { parts } => {
                    parts.iter().any(|p| differs[*p])
                }
                _ => false,
            };
    }
    differs
}

/// The values of `set`'s rules. With `known` (the truth pass given as `truth`), the
/// bodiless alternatives of an `Any` fail, and only the rules that can differ from
/// their truth are computed again; the others are the truth pass's `r<i>`.
fn pass(
    cx: &Render<'_>,
    set: &RuleSet,
    reads: &Reads<'_>,
    truth: Option<(&Pass, &[bool])>,
) -> Pass {
    let model = cx.model;
    let size = model.ty(set.owner).size;
    let known = truth.is_some();
    let (acc, prefix) = match known {
        true => (quote!(k), "k"),
        false => (quote!(t), "r"),
    };
    // In the known pass a rule that cannot differ keeps its truth pass's value and name.
    let var = |i: usize| match truth {
        Some((_, differs)) if !differs[i] => quote::format_ident!("r{}", i),
        _ => quote::format_ident!("{}{}", prefix, i),
    };
    let mut values: Vec<Option<Value>> = vec![None; set.rules.len()];
    let mut stmts = Vec::new();
    for i in set.post_order() {
        if let Some((t, differs)) = truth
            && !differs[i]
        {
            values[i] = Some(t.values[i].clone());
            continue;
        }
        let r = &set.rules[i];
        let value = |p: &usize| values[*p].as_ref().expect("post order: parts first");
        // Under a confidence gate a rule below it is left out: it holds whatever the bytes.
        let left_out = cx.gated(&r.confidence, &r.evidence).is_some();
        let v = match &r.kind {
            _ if left_out => Value::Holds,
            RuleKind::Expr { expr: e, .. } => Value::Computed(expr(reads, e, size, false).0),
            RuleKind::NotEnforced if known && set.is_bodiless_alternative(i) => Value::Fails,
            RuleKind::NotEnforced => Value::Holds,
            RuleKind::All { parts } | RuleKind::Any { parts } => {
                // `All` fails on a failing part and holds on none left; `Any` the reverse.
                let all = matches!(r.kind, RuleKind::All { .. });
                let (decides, empty) = match all {
                    true => (Value::Fails, Value::Holds),
                    false => (Value::Holds, Value::Fails),
                };
                let same = |v: &Value| match all {
                    true => matches!(v, Value::Fails),
                    false => matches!(v, Value::Holds),
                };
                let open: Vec<_> = parts
                    .iter()
                    .filter(|p| matches!(value(p), Value::Computed(_)))
                    .map(|p| var(*p))
                    .collect();
                if parts.iter().any(|p| same(value(p))) {
                    decides
                } else if open.is_empty() {
                    empty
                } else if all {
                    Value::Computed(quote!(#(#open)&&*))
                } else {
                    Value::Computed(quote!(#(#open)||*))
                }
            }
        };
        // A rule limited to other architectures holds there.
        let v = match (v, arch_condition(&model.archs, &r.arch)) {
            (v @ Value::Holds, _) | (v, None) => v,
            (Value::Fails, Some(cond)) => {
                Value::Computed(expr(reads, &not(cond), size, false).at(Prec::Loose))
            }
            (Value::Computed(body), Some(cond)) => {
                let skip = expr(reads, &not(cond), size, false).at(Prec::Loose);
                Value::Computed(quote!(#skip || #body))
            }
        };
        if let Value::Computed(body) = &v {
            let id = var(i);
            let bit = match i {
                0 => quote!(#id as u64),
                _ => {
                    let i = n(i);
                    quote!((#id as u64) << #i)
                }
            };
            stmts.push(quote! {
                let #id = #body;
                #acc |= #bit;
            });
        }
        values[i] = Some(v);
    }
    let values = values.into_iter().map(|v| v.expect("every rule")).collect();
    Pass { values, stmts }
}

/// The mask of the rules `pick` selects among those that hold in `pass`.
fn holding(pass: &Pass, pick: impl Fn(usize) -> bool) -> u64 {
    (pass.values.iter().enumerate())
        .filter(|(i, v)| matches!(v, Value::Holds) && pick(*i))
        .fold(0u64, |m, (i, _)| m | 1 << i)
}

/// `fn rule_truths(b, arch) -> (u64, u64)`: bit `i` of the first set when rule `i` holds
/// (every bodiless predicate holding); of the second, the same with the bodiless
/// alternatives of an `Any` held to fail. The fields are read once for both, and only
/// the rules above such an alternative are computed twice. Values decided here (left
/// out by the gate, bodiless, or composites of those) are folded into constants.
fn truths_fn(cx: &Render<'_>, set: &RuleSet, doc: &str) -> TokenStream {
    let size_l = n(cx.model.ty(set.owner).size);
    let reads = Reads {
        model: cx.model,
        list: Default::default(),
        nc: Default::default(),
    };
    let truth = pass(cx, set, &reads, None);
    let differs = differs_known(set);
    let known = differs
        .contains(&true)
        .then(|| pass(cx, set, &reads, Some((&truth, &differs))));
    let always = hex(holding(&truth, |_| true));
    let stmts = &truth.stmts;
    let (known_const, known_body, result) = match &known {
        None => (None, None, quote!((t, t))),
        Some(k) => {
            let keep = hex(!differs
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, d)| m | u64::from(*d) << i));
            let decided = hex(holding(k, |i| differs[i]));
            let kstmts = &k.stmts;
            (
                Some(quote! {
                    /// The rules that read the same either way.
                    const SAME: u64 = #keep;
                    /// Of the others, those that hold without reading the bytes.
                    const ALWAYS_KNOWN: u64 = #decided;
                }),
                Some(quote! {
                    let mut k = (t & SAME) | ALWAYS_KNOWN;
                    #(#kstmts)*
                }),
                quote!((t, k)),
            )
        }
    };
    let fields = reads.lets();
    let uses_nc = reads.nc.get();
    let nc = uses_nc.then(|| quote!(let nc = arch.nc() as i64;));
    let b_param = match reads.list.borrow().is_empty() {
        true => quote!(_),
        false => quote!(b),
    };
    let arch_param = match uses_nc {
        true => quote!(arch),
        false => quote!(_),
    };
    let mutable = (!stmts.is_empty()).then(|| quote!(mut));
    quote! {
        #[doc = #doc]
        fn rule_truths(#b_param: &[u8; #size_l], #arch_param: Arch) -> (u64, u64) {
            /// The rules decided without reading the bytes that hold.
            const ALWAYS: u64 = #always;
            #known_const
            #nc
            #fields
            let #mutable t = ALWAYS;
            #(#stmts)*
            #known_body
            #result
        }
    }
}

/// `let _ = arch;` for a `Word::check` that no word's rules use (no warning downstream).
pub(super) fn unused_arch(model: &Model) -> Option<&'static str> {
    let any = model.words().any(|w| model.rule_set_of(&w.name).is_some());
    (!any).then_some("let _ = arch;")
}

pub(super) fn word_items(model: &Model) -> TokenStream {
    let words: Vec<&TypeDef> = model.words().collect();
    let arms_check = words.iter().map(|w| {
        let id = ident(&w.name);
        let name = &w.name;
        if model.rule_set_of(&w.name).is_some() {
            quote!(Word::#id(w) => { let b = w.encode(); #id::check_rules(&b, arch) })
        } else {
            quote!(Word::#id(_) => rules::Violations::from_truth(#name, &[], 0))
        }
    });
    let arms_rules = words.iter().map(|w| {
        let id = ident(&w.name);
        if model.rule_set_of(&w.name).is_some() {
            quote!(Word::#id(_) => #id::RULES)
        } else {
            quote!(Word::#id(_) => &[])
        }
    });
    let unused_check = unused_arch(model).map(code);
    // Without rules the arguments go unused; say so rather than warn downstream.
    let unused_by_name = model
        .rules
        .sets
        .is_empty()
        .then(|| quote!(let _ = (bytes, arch);));
    let by_name = model.rules.sets.iter().map(|s| {
        let t = model.ty(s.owner);
        let id = ident(&t.name);
        let name = &t.name;
        quote!(#name => Some(#id::check_rules(bytes.try_into().ok()?, arch)),)
    });
    quote! {
        /// The violations of `bytes` read as the type named `name` (the spec name of any
        /// struct or bitfield with rules); `None` when there is no such type or `bytes` is
        /// not its size.
        pub fn check_rules_by_name(name: &str, bytes: &[u8], arch: Arch) -> Option<rules::Violations> {
            #unused_by_name
            match name { #(#by_name)* _ => None }
        }

        impl Word {
            /// The word's violations for `arch` (empty when valid, or when its struct has
            /// no rules).
            pub fn check(&self, arch: Arch) -> rules::Violations {
                #unused_check
                match self { #(#arms_check,)* }
            }
            /// Checks the word's rules for `arch`; the error lists every violated rule.
            pub fn validate(&self, arch: Arch) -> Result<(), rules::Violations> {
                self.check(arch).into_result()
            }
            /// The rules of the word's struct.
            pub fn rules(&self) -> &'static [rules::RuleMeta] {
                match self { #(#arms_rules,)* }
            }
        }
    }
}
