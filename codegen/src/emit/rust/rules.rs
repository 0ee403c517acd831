//! Validators, emitted into the Rust module next to the types (see [`crate::schema::rules`]).
//!
//! Per struct or bitfield with rules:
//!
//! - `RULES: &[rules::RuleMeta]`, in spec order;
//! - `rule_truth(b: &[u8; SIZE], arch) -> u64`: bit `i` set when rule `i` holds, computed
//!   from the encoded bytes (children before their composites);
//! - `check_rules(b, arch) -> rules::Violations` and `validate(&self, arch) ->
//!   Result<(), rules::Violations>`.
//!
//! `[[constant]]`s become `pub const NAME: i64`, and `Word` gets `validate`, `check` and
//! `rules`. All values are `i64`: the loader has proven that nothing overflows.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

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
/// Chains of at most this many parts are written out with `&&` / `||`; longer ones (long
/// `in` lists) as an array.
const SHORT_CHAIN: usize = 16;

/// The fields a `rule_truth` reads, each once, into a local named after its path.
struct Reads<'m> {
    model: &'m Model,
    /// `(path, local, value)` in first-use order.
    list: std::cell::RefCell<Vec<(String, syn::Ident, TokenStream)>>,
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

fn expr(reads: &Reads<'_>, e: &Expr, size: usize) -> TokenStream {
    let model = reads.model;
    let r = |x: &Expr| expr(reads, x, size);
    match e {
        Expr::Int { value } => lit(*value),
        Expr::Bool { value } => quote!(#value),
        Expr::Const { index } => {
            let id = ident(&model.rules.constants[*index].name);
            quote!(#id)
        }
        Expr::Nc => quote!(nc),
        Expr::Read { access } => reads.local(access, || {
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
        Expr::Not { arg } => {
            let a = r(arg);
            quote!((!#a))
        }
        Expr::Neg { arg } => {
            let a = r(arg);
            quote!((-#a))
        }
        Expr::Table { index, arg } => {
            let t = &model.rules.tables[*index];
            let a = r(arg);
            let mut groups: Vec<(i64, Vec<i64>)> = Vec::new();
            for (raw, _, v) in &t.entries {
                match groups.iter_mut().find(|g| g.0 == *v) {
                    Some(g) => g.1.push(*raw),
                    None => groups.push((*v, vec![*raw])),
                }
            }
            let arms = groups.iter().map(|(v, keys)| {
                let keys = keys.iter().map(|k| lit(*k));
                let v = lit(*v);
                quote!(#(#keys)|* => #v,)
            });
            let d = lit(t.default);
            quote!((match #a { #(#arms)* _ => #d }))
        }
        Expr::If { cond, then, other } => {
            let (c, a, b) = (r(cond), r(then), r(other));
            quote!((if #c { #a } else { #b }))
        }
        Expr::Chain { bin, parts } if parts.len() > SHORT_CHAIN => {
            // syn and prettyplease, which print the generated file, recurse once per `||`
            // of a chain; the items of an array they walk in a loop. Every part is
            // proven free of overflow, so evaluating them all is safe.
            let parts = parts.iter().map(r);
            match bin {
                BinOp::And => quote!((![#(#parts),*].contains(&false))),
                _ => quote!(([#(#parts),*].contains(&true))),
            }
        }
        Expr::Chain { bin, parts } => {
            let op = if *bin == BinOp::And {
                quote!(&&)
            } else {
                quote!(||)
            };
            let mut parts = parts.iter().map(r);
            let first = parts.next();
            quote!((#first #(#op #parts)*))
        }
        Expr::Bin { bin, lhs, rhs } => {
            let (a, b) = (r(lhs), r(rhs));
            let op: TokenStream = match bin {
                BinOp::Add => quote!(+),
                BinOp::Sub => quote!(-),
                BinOp::Mul => quote!(*),
                BinOp::Div => quote!(/),
                BinOp::Rem => quote!(%),
                BinOp::BitAnd => quote!(&),
                BinOp::Eq => quote!(==),
                BinOp::Ne => quote!(!=),
                BinOp::Lt => quote!(<),
                BinOp::Le => quote!(<=),
                BinOp::Gt => quote!(>),
                BinOp::Ge => quote!(>=),
                BinOp::And => quote!(&&),
                BinOp::Or => quote!(||),
            };
            quote!((#a #op #b))
        }
    }
}

pub(super) fn set_items(cx: &Render<'_>, set: &RuleSet) -> TokenStream {
    let model = cx.model;
    let owner = model.ty(set.owner);
    let id = ident(&owner.name);
    let size = owner.size;
    let size_l = n(size);
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
    // Rules that check nothing hold whatever the bytes: their bits start set, and a
    // composite of them is decided here, not in the generated code.
    let mut always = vec![false; set.rules.len()];
    let reads = Reads {
        model,
        list: Default::default(),
    };
    let mut stmts = Vec::new();
    for i in set.post_order() {
        let r = &set.rules[i];
        let var = quote::format_ident!("r{}", i);
        // Under a confidence gate a rule below it is left out: it holds whatever the bytes.
        let left_out = cx.gated(&r.confidence, &r.evidence).is_some();
        let body = match &r.kind {
            _ if left_out => None,
            RuleKind::Expr { expr: e, .. } => Some(expr(&reads, e, size)),
            RuleKind::NotEnforced => None,
            RuleKind::All { parts } => {
                let open: Vec<_> = parts.iter().filter(|p| !always[**p]).collect();
                let vars = open.iter().map(|p| quote::format_ident!("r{}", p));
                (!open.is_empty()).then(|| quote!(#(#vars)&&*))
            }
            RuleKind::Any { parts } if parts.iter().any(|p| always[*p]) => None,
            RuleKind::Any { parts } => {
                let vars = parts.iter().map(|p| quote::format_ident!("r{}", p));
                Some(if parts.is_empty() {
                    quote!(false)
                } else {
                    quote!(#(#vars)||*)
                })
            }
        };
        let Some(body) = body else {
            always[i] = true;
            continue;
        };
        let body = match arch_condition(&model.archs, &r.arch) {
            None => body,
            Some(cond) => {
                let skip = expr(&reads, &not(cond), size);
                quote!(#skip || #body)
            }
        };
        let bit = match i {
            0 => quote!(#var as u64),
            _ => {
                let i = n(i);
                quote!((#var as u64) << #i)
            }
        };
        stmts.push(quote! {
            let #var = #body;
            t |= #bit;
        });
    }
    let holds = always
        .iter()
        .enumerate()
        .filter(|(_, a)| **a)
        .fold(0u64, |m, (i, _)| m | 1 << i);
    let holds = hex(holds);
    let fields = reads.lets();
    let doc_truth = format!(
        " Truth of each of `{owner_name}`'s rules on its encoded bytes: bit `i` is set when \
         `RULES[i]` holds (rules limited to other architectures hold)."
    );
    let doc_truth = match cx.gate {
        Some(g) => format!(
            "{doc_truth} Built with the `{}` confidence gate: rules below it are left out \
             (they hold).",
            g.level
        ),
        None => doc_truth,
    };
    // Words and records state their `Packed` impl with the rest of what they add.
    let packed = (owner.opcode().is_none() && !owner.is_record())
        .then(|| super::words::packed_impl(&id, owner_name, size));
    quote! {
        #packed
        impl Checked for #id {
            type Arch = Arch;
            const RULES: &'static [rules::RuleMeta] = #metas;
            #[doc = #doc_truth]
            #[allow(unused_parens, unused_variables, unused_mut, clippy::all)]
            fn rule_truth(b: &[u8; #size_l], arch: Arch) -> u64 {
                /// The rules that check nothing: they always hold.
                const ALWAYS: u64 = #holds;
                let nc = arch.nc() as i64;
                #fields
                let mut t = ALWAYS;
                #(#stmts)*
                t
            }
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
