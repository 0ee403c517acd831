//! The Rust target for seed 003's KLR→BIR leaves: `pub mod klr` inside the generated
//! file (`dmaspec::words::klr`), written against the runtime's `klr` module.
//!
//! Per klr layout an op struct (`ops::NcDmaCopy`, its input fields); per leaf a function
//! `lower_<Leaf>(&op, &mut Function) -> Outcome` that runs the leaf's steps in order and
//! returns the BIR node it builds (class, IT, name prefix, every stamped field as offset +
//! name + value, the operand bindings, effects) or the exact error; the enums (rendered as
//! every spec enum is) and tables; metadata with provenance (`LEAVES`) and a
//! `Fields`-driven constructor so that a front end (the CLI's JSON reader) can build any
//! op generically. Conditions compile to the runtime's three-valued `eval` functions.
//!
//! Leaf, layout and table names are the spec's verbatim (`lower_NcCopy`,
//! `tables::translateDGEMode`), so the items that carry them allow the naming lints.

use std::str::FromStr;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::data::{Lit, Lits};
use super::util::confidence;
use super::{render::Render, util::ident};
use crate::model::TypeKind;
use crate::model::klr::*;
use crate::model::klr_expr::{CmpOp, KlrExpr, Ty};

/// The `pub mod klr { … }` item; `rt` is the runtime's path.
pub(super) fn items(cx: &Render<'_>, rt: &TokenStream) -> TokenStream {
    let m = &cx.model.klr;
    let s = sizes(m);
    let [stamps, bindings, effects, shown, unevaluated] =
        [s.stamps, s.bindings, s.effects, s.shown, s.unevaluated].map(Literal::usize_unsuffixed);
    let provenance = provenance_imports(m);
    let enums = enums(cx, m);
    let tables = tables(m);
    let ops = ops(m);
    let meta = meta(cx, m);
    let leaves = m.leaves.iter().map(|l| leaf_fn(&cx.lits, m, l));
    let op_enum = op_enum(m);
    let module_doc = doc(
        "Seed 003's KLR→BIR data-movement leaves, generated from `spec/klr/`: one \
         `lower_<Leaf>` function per `codegen<Op>` leaf, the klr op structs (`ops`), the \
         enums (`enums`) and tables (`tables`) they use.",
    );
    quote! {
        #module_doc
        pub mod klr {
            pub use #rt::klr::*;
            #provenance
            pub const MAX_STAMPS: usize = #stamps;
            pub const MAX_BINDINGS: usize = #bindings;
            pub const MAX_EFFECTS: usize = #effects;
            pub const MAX_SHOWN: usize = #shown;
            pub const MAX_UNEVALUATED: usize = #unevaluated;
            /// The BIR node an op becomes, its lists sized for these leaves.
            pub type Node<'a> = #rt::klr::Node<'a, MAX_STAMPS, MAX_BINDINGS, MAX_EFFECTS, MAX_SHOWN, MAX_UNEVALUATED>;
            /// What a leaf returns for an op.
            pub type Outcome<'a> = #rt::klr::Outcome<Node<'a>>;
            #enums
            #tables
            #ops
            #meta
            #(#leaves)*
            #op_enum
            /// The leaf called `name`.
            pub fn leaf(name: &str) -> Option<&'static LeafMeta> {
                find_leaf(&LEAVES, name)
            }
        }
    }
}

/// `#[doc]` attributes, one per line of `text`.
fn doc(text: &str) -> TokenStream {
    let lines = crate::emit::escape_doc(text)
        .lines()
        .map(|l| format!(" {l}"))
        .collect::<Vec<_>>();
    quote!(#(#[doc = #lines])*)
}

/// `v` as an `i64` literal (negative values as a negated literal).
fn int(v: i64) -> TokenStream {
    let abs = Literal::from_str(&format!("{}i64", v.unsigned_abs())).expect("an integer literal");
    if v < 0 { quote!(-#abs) } else { quote!(#abs) }
}

/// Whether the op struct of `layout` borrows (has a field of lifetime `'a`).
fn borrows(m: &KlrModel, layout: &str) -> bool {
    m.inputs(layout).iter().any(|f| {
        matches!(
            f.input,
            Some(Input::Ap | Input::Aps | Input::Imms | Input::Text)
        )
    })
}

fn op_ty(m: &KlrModel, layout: &str) -> TokenStream {
    let id = ident(layout);
    if borrows(m, layout) {
        quote!(ops::#id<'a>)
    } else {
        quote!(ops::#id)
    }
}

fn field_ty(input: Input, optional: bool) -> TokenStream {
    let base = match input {
        Input::Ap => quote!(Ap<'a>),
        Input::Aps => quote!(&'a [Ap<'a>]),
        Input::Imm => quote!(Imm),
        Input::Imms => quote!(&'a [Imm]),
        Input::Int => quote!(i64),
        Input::Bool => quote!(bool),
        Input::Text => quote!(&'a str),
    };
    if optional {
        quote!(Option<#base>)
    } else {
        base
    }
}

/// `use super::{confidence, meta};` for what the metadata records name.
fn provenance_imports(m: &KlrModel) -> TokenStream {
    let klr_layouts = || m.layouts.iter().filter(|l| l.side == Side::Klr);
    let records = !m.leaves.is_empty() || klr_layouts().any(|l| !m.inputs(&l.name).is_empty());
    let evidence = m
        .leaves
        .iter()
        .any(|l| !l.evidence.is_empty() || l.paths().iter().any(|p| !p.evidence.is_empty()))
        || klr_layouts().any(|l| m.inputs(&l.name).iter().any(|f| !f.evidence.is_empty()));
    match (records, evidence) {
        (true, true) => quote!(
            use super::{confidence, evidence};
        ),
        (true, false) => quote!(
            use super::confidence;
        ),
        _ => TokenStream::new(),
    }
}

struct Sizes {
    stamps: usize,
    bindings: usize,
    effects: usize,
    shown: usize,
    unevaluated: usize,
}

fn sizes(m: &KlrModel) -> Sizes {
    let mut s = Sizes {
        stamps: 1,
        bindings: 1,
        effects: 1,
        shown: 1,
        unevaluated: 1,
    };
    for l in &m.leaves {
        let count = |f: &dyn Fn(&StepKind) -> bool| l.steps.iter().filter(|x| f(&x.kind)).count();
        s.stamps = s
            .stamps
            .max(count(&|k| matches!(k, StepKind::Stamp { .. })));
        s.effects = s
            .effects
            .max(count(&|k| matches!(k, StepKind::Effect { .. })));
        s.shown = s
            .shown
            .max(count(&|k| matches!(k, StepKind::Let { show: true, .. })));
        // Every check, conditional stamp / effect and conditional binding may end up
        // undecided.
        let conditional = count(&|k| {
            matches!(
                k,
                StepKind::Check { .. }
                    | StepKind::Stamp { when: Some(_), .. }
                    | StepKind::Effect { when: Some(_), .. }
            )
        });
        let binds = l.paths().iter().map(|p| p.bind.len()).max().unwrap_or(0);
        s.bindings = s.bindings.max(binds);
        s.unevaluated = s.unevaluated.max(conditional + binds);
    }
    s
}

/// The klr enums, each rendered as every spec enum is, and `ALL` by name.
fn enums(cx: &Render<'_>, m: &KlrModel) -> TokenStream {
    let mut defs = Vec::new();
    let mut names = Vec::new();
    let mut ids = Vec::new();
    for t in &m.enums {
        let TypeKind::Enum { repr, values } = &t.kind else {
            continue;
        };
        defs.push(cx.enum_def(t, *repr, values));
        names.push(t.name.as_str());
        ids.push(ident(&t.name));
    }
    let imports = (!defs.is_empty()).then(|| {
        quote!(
            use super::super::{meta, visit, Arch};
        )
    });
    quote! {
        /// The klr enums, typed like every enum of the spec.
        pub mod enums {
            #imports
            #(#defs)*
            /// Every enum: (name, enumerators).
            pub const ALL: &super::Enums = &[#((#names, #ids::ENUMERATORS)),*];
        }
    }
}

fn tables(m: &KlrModel) -> TokenStream {
    let tables = m.tables.iter().map(|t| {
        let mut d = t.doc.clone();
        if let Some(f) = &t.function {
            d.push_str(&format!(" (`{f}`)"));
        }
        d.push_str(match t.out_of_range {
            OutOfRange::Fatal => " An index past the end is fatal.",
            OutOfRange::Unknown => " Past the end: not given.",
        });
        let doc = doc(&d);
        let id = ident(&t.name);
        let entries = t.entries.iter().map(|e| int(*e));
        quote! {
            #doc
            pub const #id: &[i64] = &[#(#entries),*];
        }
    });
    quote! {
        /// The klr tables, indexed from 0.
        #[allow(non_upper_case_globals)]
        pub mod tables {
            #(#tables)*
        }
    }
}

fn ops(m: &KlrModel) -> TokenStream {
    let klr = || m.layouts.iter().filter(|l| l.side == Side::Klr);
    let inputs = || {
        klr()
            .flat_map(|l| m.inputs(&l.name))
            .filter_map(|f| f.input)
    };
    let mut uses = Vec::new();
    if inputs().any(|i| matches!(i, Input::Ap | Input::Aps)) {
        uses.push(quote!(Ap));
    }
    if inputs().any(|i| matches!(i, Input::Imm | Input::Imms)) {
        uses.push(quote!(Imm));
    }
    let imports = (!uses.is_empty()).then(|| quote!(use super::{#(#uses),*};));
    let structs = klr().map(|l| {
        let struct_doc = doc(&format!("`{}`: {}", l.qualified, l.doc));
        let id = ident(&l.name);
        let life = borrows(m, &l.name).then(|| quote!(<'a>));
        let fields = m.inputs(&l.name).into_iter().filter_map(|f| {
            let ty = field_ty(f.input?, f.optional);
            let mut d = f.doc.clone();
            if let Some(off) = f.offset {
                d = format!("{d} (klr +{off:#x})");
            }
            let (doc, id) = (doc(&d), ident(&f.name));
            Some(quote!(#doc pub #id: #ty,))
        });
        quote! {
            #struct_doc
            #[derive(Clone, Copy, Debug, PartialEq)]
            pub struct #id #life { #(#fields)* }
        }
    });
    quote! {
        /// The klr ops the leaves take: their input fields.
        #[allow(non_snake_case)]
        pub mod ops {
            #imports
            #(#structs)*
        }
    }
}

fn input_name(i: Input) -> &'static str {
    match i {
        Input::Ap => "Input::Ap",
        Input::Aps => "Input::Aps",
        Input::Imm => "Input::Imm",
        Input::Imms => "Input::Imms",
        Input::Int => "Input::Int",
        Input::Bool => "Input::Bool",
        Input::Text => "Input::Text",
    }
}

fn fields_static(layout: &str) -> syn::Ident {
    format_ident!("FIELDS_{}", layout)
}

fn paths_static(leaf: &str) -> syn::Ident {
    format_ident!("PATHS_{}", leaf)
}

/// `pub static <id>: [<ty>; N] = [records]`, named after a spec name.
fn records_static(
    doc: &str,
    id: syn::Ident,
    ty: TokenStream,
    records: &[TokenStream],
) -> TokenStream {
    let len = Literal::usize_unsuffixed(records.len());
    quote! {
        #[doc = #doc]
        #[allow(non_upper_case_globals)]
        pub static #id: [#ty; #len] = [#(#records),*];
    }
}

/// `FIELDS_<layout>`, `PATHS_<leaf>` and `LEAVES`, each record with its provenance.
fn meta(cx: &Render<'_>, m: &KlrModel) -> TokenStream {
    let embed = |l: Lit| cx.lits.embed(l);
    let fields = m.layouts.iter().filter(|l| l.side == Side::Klr).map(|l| {
        let records: Vec<TokenStream> = m
            .inputs(&l.name)
            .into_iter()
            .filter_map(|f| {
                Some(embed(Lit::record(
                    "FieldMeta",
                    [
                        ("name", Lit::str(&f.name)),
                        ("input", Lit::code(input_name(f.input?))),
                        ("optional", Lit::num(f.optional)),
                        ("enum_ty", Lit::opt_str(f.enum_.as_deref())),
                        ("offset", Lit::opt(f.offset.map(Lit::num))),
                        ("doc", Lit::str(&f.doc)),
                        ("confidence", confidence(&f.confidence)),
                        ("evidence", cx.evidence(&f.evidence)),
                    ],
                )))
            })
            .collect();
        let doc = format!(" The input fields of `{}`.", l.qualified);
        records_static(&doc, fields_static(&l.name), quote!(FieldMeta), &records)
    });
    let paths = m.leaves.iter().map(|l| {
        let records: Vec<TokenStream> = l
            .paths()
            .iter()
            .map(|p| embed(path_info(cx, m, p)))
            .collect();
        let doc = format!(" The paths of `{}`.", l.function);
        records_static(&doc, paths_static(&l.name), quote!(PathInfo), &records)
    });
    let leaves: Vec<TokenStream> = m
        .leaves
        .iter()
        .map(|l| {
            let q = m
                .layout(&l.op)
                .map_or(l.op.as_str(), |x| x.qualified.as_str());
            embed(Lit::record(
                "LeafMeta",
                [
                    ("name", Lit::str(&l.name)),
                    ("op", Lit::str(&l.op)),
                    ("qualified", Lit::str(q)),
                    ("function", Lit::str(&l.function)),
                    ("va", Lit::code(format!("{:#x}", l.va))),
                    ("section", Lit::str(&l.section)),
                    ("fields", Lit::code(format!("&{}", fields_static(&l.op)))),
                    ("paths", Lit::code(format!("&{}", paths_static(&l.name)))),
                    ("confidence", confidence(&l.confidence)),
                    ("evidence", cx.evidence(&l.evidence)),
                ],
            ))
        })
        .collect();
    let len = Literal::usize_unsuffixed(leaves.len());
    quote! {
        #(#fields)*
        #(#paths)*
        /// Every leaf, in spec order.
        pub static LEAVES: [LeafMeta; #len] = [#(#leaves),*];
    }
}

fn path_info(cx: &Render<'_>, m: &KlrModel, p: &KlrPath) -> Lit {
    let class = m
        .layout(&p.class)
        .map_or(p.class.as_str(), |l| l.qualified.as_str());
    let it =
        p.it.as_ref()
            .map(|(n, v)| Lit::code(format!("({}, {v})", Lit::str(n).text())));
    Lit::record(
        "PathInfo",
        [
            ("name", Lit::str(&p.name)),
            (
                "when",
                Lit::opt_str(p.when.as_ref().map(|w| w.text.as_str())),
            ),
            ("class", Lit::str(class)),
            ("it", Lit::opt(it)),
            ("prefix", Lit::opt_str(p.prefix.as_deref())),
            ("build", Lit::str(&p.build)),
            ("confidence", confidence(&p.confidence)),
            ("evidence", cx.evidence(&p.evidence)),
        ],
    )
}

/// Every expression the leaf's steps hold.
fn exprs(l: &KlrLeaf) -> Vec<&KlrExpr> {
    let mut out: Vec<&Cond> = Vec::new();
    for s in &l.steps {
        match &s.kind {
            StepKind::Check { when, append, .. } => out.extend(when.iter().chain(append)),
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
fn any(e: &KlrExpr, f: &dyn Fn(&KlrExpr) -> bool) -> bool {
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

/// Compiles an expression: `Option<bool>` / `Option<i64>` for conditions and ints, a
/// reference for an access or immediate, a slice for a list.
fn ex(e: &KlrExpr, op: &Layout) -> TokenStream {
    match e {
        KlrExpr::Int { value } | KlrExpr::Const { value, .. } => {
            let v = int(*value);
            quote!(Some(#v))
        }
        KlrExpr::Bool { value } => quote!(Some(#value)),
        KlrExpr::Field { name, ty } => {
            let f = ident(name);
            let optional = op.fields.iter().any(|x| &x.name == name && x.optional);
            match ty {
                Ty::Ap | Ty::Imm => quote!(&op.#f),
                Ty::Int { .. } if optional => quote!(op.#f),
                Ty::Int { .. } | Ty::Bool => quote!(Some(op.#f)),
                _ => quote!(op.#f),
            }
        }
        KlrExpr::Var { name, .. } => {
            let v = format_ident!("v_{}", name);
            quote!(#v)
        }
        KlrExpr::It { .. } => quote!(it),
        KlrExpr::Call { func, args } => {
            let f = format_ident!("{}", func.name());
            let a = args.iter().map(|x| ex(x, op));
            quote!(eval::#f(#(#a),*))
        }
        KlrExpr::Table { name, arg, .. } => {
            let (t, a) = (ident(name), ex(arg, op));
            quote!(eval::lookup(tables::#t, #a))
        }
        KlrExpr::Not { e } => {
            let e = ex(e, op);
            quote!(eval::not(#e))
        }
        KlrExpr::And { l, r } => {
            let (l, r) = (ex(l, op), ex(r, op));
            quote!(eval::and(#l, #r))
        }
        KlrExpr::Or { l, r } => {
            let (l, r) = (ex(l, op), ex(r, op));
            quote!(eval::or(#l, #r))
        }
        KlrExpr::Cmp { op: c, l, r } => {
            let sym = match c {
                CmpOp::Eq => quote!(==),
                CmpOp::Ne => quote!(!=),
                CmpOp::Lt => quote!(<),
                CmpOp::Le => quote!(<=),
                CmpOp::Gt => quote!(>),
                CmpOp::Ge => quote!(>=),
            };
            let (l, r) = (ex(l, op), ex(r, op));
            quote!(eval::cmp(#l, #r, |a, b| a #sym b))
        }
        KlrExpr::List1 { e } => ex(e, op),
    }
}

/// Compiles a value expression into a `Value`.
fn value_ex(c: &Cond, op: &Layout, field_enum: Option<&str>) -> TokenStream {
    let text = &c.text;
    let missing = quote!(Value::Missing(#text));
    let e = ex(&c.expr, op);
    match c.expr.ty() {
        Ty::Int { enum_ } => match enum_.as_deref().or(field_enum) {
            Some(en) => {
                let id = ident(en);
                quote! {
                    match #e {
                        Some(v) => Value::Enum { ty: #en, name: enumerator(enums::#id::ENUMERATORS, v), raw: v },
                        None => #missing,
                    }
                }
            }
            None => quote!(match #e { Some(v) => Value::Int(v), None => #missing }),
        },
        Ty::Bool => quote!(match #e { Some(v) => Value::Bool(v), None => #missing }),
        Ty::List1 => quote!(match #e { Some(v) => Value::One(v), None => #missing }),
        // An immediate field is read by value; `it` (an `each` entry) is a reference.
        Ty::Imm => match &c.expr {
            KlrExpr::Field { name, .. } => {
                let f = ident(name);
                quote!(Value::Imm(op.#f))
            }
            _ => quote!(Value::Imm(*#e)),
        },
        Ty::Imms => quote!(Value::Imms(#e)),
        _ => missing,
    }
}

/// `body`, run only on the guard's fork paths.
fn guarded(guard: &Option<TokenStream>, body: TokenStream) -> TokenStream {
    match guard {
        Some(g) => quote!(if #g { #body }),
        None => body,
    }
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

/// `match cond { true => then, false => nothing, unknown => unevaluated }`.
fn decide(lits: &Lits, cond: &Cond, op: &Layout, then: TokenStream, what: &str) -> TokenStream {
    let (c, text) = (ex(&cond.expr, op), &cond.text);
    let args = literal_args(lits, [Lit::str(what), Lit::str(text)]);
    quote! {
        match #c {
            Some(true) => { #then }
            Some(false) => {}
            None => n.add_unevaluated(#args),
        }
    }
}

/// Every memo name of the model, in first-use order: a memo's id is its index.
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

fn leaf_fn(lits: &Lits, m: &KlrModel, l: &KlrLeaf) -> TokenStream {
    let Some(op) = m.layout(&l.op) else {
        return TokenStream::new();
    };
    let opty = op_ty(m, &l.op);
    let doc = doc(&format!(
        "`{}` @{:#x} (seed 003 {}): {}\n\nRuns the leaf's steps in order; see `generated/docs/klr/` for the rule list.",
        l.function, l.va, l.section, l.doc
    ));
    let all = exprs(l);
    let routes = l.routes().next().is_some();
    let memos: Vec<&str> = memo_names(m)
        .into_iter()
        .filter(|name| {
            l.steps.iter().any(
                |s| matches!(&s.kind, StepKind::Effect { memo: Some((n, _)), .. } if n == name),
            )
        })
        .collect();
    let reads_op = routes
        || all
            .iter()
            .any(|e| any(e, &|x| matches!(x, KlrExpr::Field { .. })))
        || l.steps
            .iter()
            .any(|s| matches!(&s.kind, StepKind::Check { each: Some(_), .. }));
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
    let body = l.steps.iter().map(|s| step(lits, m, l, op, s, &all));
    quote! {
        #doc
        #[allow(non_snake_case)]
        pub fn #lower<'a>(op: &#opty, fx: &mut Function) -> Outcome<'a> {
            #from(op, fx, None)
        }
        #[allow(non_snake_case)]
        fn #from<'a>(#op_arg: &#opty, #fx_arg: &mut Function, routed_from: Option<&'static str>) -> Outcome<'a> {
            let leaf: &'static str = #name;
            let mut n = Node::new(leaf, routed_from);
            #(#memo_flags)*
            #(#body)*
            Outcome::Node(n)
        }
    }
}

/// The statements of one step of `l`; `all` is every expression of the leaf.
fn step(
    lits: &Lits,
    m: &KlrModel,
    l: &KlrLeaf,
    op: &Layout,
    s: &Step,
    all: &[&KlrExpr],
) -> TokenStream {
    let guard = path_guard(&s.paths);
    match &s.kind {
        StepKind::Check {
            message,
            kind,
            when,
            opaque,
            each,
            append,
            helper,
        } => {
            let kind = match kind {
                CheckKind::Throw => quote!(ErrorKind::Throw),
                CheckKind::Assert => quote!(ErrorKind::Assert),
                CheckKind::Fatal => quote!(ErrorKind::Fatal),
            };
            let cond_text = when
                .as_ref()
                .map(|w| w.text.clone())
                .or_else(|| opaque.clone())
                .unwrap_or_default();
            let what = if message.is_empty() {
                "an assert with no message"
            } else {
                message.as_str()
            };
            let args = literal_args(lits, [Lit::str(what), Lit::str(&cond_text)]);
            let unevaluated = quote!(n.add_unevaluated(#args););
            let Some(w) = when else {
                return guarded(&guard, unevaluated);
            };
            let arg = append.as_ref().map_or(quote!(None), |a| ex(&a.expr, op));
            let args = literal_args(
                lits,
                [
                    Lit::str(message),
                    Lit::str(&w.text),
                    Lit::opt_str(helper.as_deref()),
                ],
            );
            let err = quote! {
                return Outcome::Error(n.error(#kind, #arg, #args))
            };
            let cond = ex(&w.expr, op);
            let body = match each {
                Some(list) => {
                    let list = ident(list);
                    quote! {{
                        let mut unknown = false;
                        for it in op.#list.iter() {
                            match #cond { Some(true) => #err, Some(false) => {} None => unknown = true }
                        }
                        if unknown { #unevaluated }
                    }}
                }
                None => quote! {
                    match #cond { Some(true) => #err, Some(false) => {} None => { #unevaluated } }
                },
            };
            guarded(&guard, body)
        }
        StepKind::Route { to, when } => {
            let cond = ex(&when.expr, op);
            let at = format!("route to {to}");
            let args = literal_args(lits, [Lit::str(&at), Lit::str(&when.text)]);
            let from = format_ident!("lower_{}_from", to);
            quote! {
                match #cond {
                    Some(true) => return #from(op, fx, Some(leaf)),
                    Some(false) => {}
                    None => return Outcome::Undetermined(n.undetermined(#args)),
                }
            }
        }
        StepKind::Let { name, value, show } => {
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
                    let site = m.table(t).and_then(|x| x.function.as_deref()).unwrap_or(t);
                    let (tid, a) = (ident(t), ex(arg, op));
                    let args = literal_args(
                        lits,
                        [
                            Lit::str(""),
                            Lit::str(&value.text),
                            Lit::opt_str(Some(site)),
                        ],
                    );
                    quote! {
                        match #a {
                            Some(k) => match usize::try_from(k).ok().and_then(|i| tables::#tid.get(i)) {
                                Some(v) => Some(*v),
                                None => return Outcome::Error(n.error(ErrorKind::Fatal, Some(k), #args)),
                            },
                            None => None,
                        }
                    }
                }
                e => ex(e, op),
            };
            let read = *show
                || all.iter().any(|e| {
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
            if *show {
                let cond = Cond {
                    text: value.text.clone(),
                    expr: KlrExpr::Var {
                        name: name.clone(),
                        ty: value.expr.ty(),
                    },
                };
                let v = value_ex(&cond, op, None);
                out.extend(guarded(
                    &guard,
                    quote!(n.shown.push(Shown { name: #name, value: #v });),
                ));
            }
            out
        }
        StepKind::Fork { paths: ps, .. } => fork(lits, l, op, ps),
        StepKind::Stamp {
            field,
            offset,
            value,
            when,
        } => {
            // The declaring class: the first path's class chain that has it.
            let decl = l
                .paths()
                .iter()
                .find_map(|p| m.class_field(&p.class, *offset));
            let (class, fenum) = decl.map_or(("", None), |(cl, f)| {
                (cl.qualified.as_str(), f.enum_.as_deref())
            });
            let v = match value {
                StampValue::Expr { cond } => value_ex(cond, op, fenum),
                StampValue::Opaque { what } => quote!(Value::Opaque(#what)),
            };
            let args = literal_args(
                lits,
                [
                    Lit::code(format!("{offset:#x}")),
                    Lit::str(class),
                    Lit::str(field),
                ],
            );
            let push = quote!(n.add_stamp(#args, #v););
            let body = match when {
                None => push,
                Some(w) => decide(
                    lits,
                    w,
                    op,
                    push,
                    &format!("stamp of {field} at +{offset:#x}"),
                ),
            };
            guarded(&guard, body)
        }
        StepKind::Effect {
            text,
            kind,
            when,
            memo,
        } => {
            let (first, key) = match memo {
                None => (quote!(true), quote!(None)),
                Some((name, k)) => {
                    let e = ex(&k.expr, op);
                    let (key, shown) = match k.expr.ty() {
                        Ty::Text => (quote!(Some(eval::text_key(#e))), quote!(None)),
                        _ => (e.clone(), e),
                    };
                    let id = memo_names(m).iter().position(|x| x == name).unwrap_or(0);
                    let id = Literal::u8_unsuffixed(u8::try_from(id).unwrap_or(u8::MAX));
                    let flag = format_ident!("memo_{}", name);
                    (
                        quote!(*#flag.get_or_insert_with(|| fx.first(#id, #key))),
                        shown,
                    )
                }
            };
            let args = literal_args(lits, [Lit::str(kind.name()), Lit::str(text)]);
            let push = quote! {
                if #first { n.add_effect(#args, #key); }
            };
            let body = match when {
                None => push,
                Some(w) => decide(lits, w, op, push, text),
            };
            guarded(&guard, body)
        }
    }
}

/// The fork: `let path = …;` (the first path whose condition holds), the node's path
/// and each path's bindings.
fn fork(lits: &Lits, l: &KlrLeaf, op: &Layout, ps: &[KlrPath]) -> TokenStream {
    let arms = ps.iter().enumerate().filter_map(|(i, p)| {
        let w = p.when.as_ref()?;
        let cond = ex(&w.expr, op);
        let at = format!("fork to {}", p.name);
        let args = literal_args(lits, [Lit::str(&at), Lit::str(&w.text)]);
        let i = Literal::usize_unsuffixed(i);
        Some(quote! {
            match #cond {
                Some(true) => break 'fork #i,
                Some(false) => {}
                None => return Outcome::Undetermined(n.undetermined(#args)),
            }
        })
    });
    let arms: Vec<_> = arms.collect();
    // The otherwise arm (the last path), also when the last path has a condition.
    let last = Literal::usize_unsuffixed(ps.len().saturating_sub(1));
    let pick = if arms.is_empty() {
        quote!(#last)
    } else {
        quote!('fork: { #(#arms)* #last })
    };
    let paths = paths_static(&l.name);
    let binds = ps
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.bind.is_empty())
        .map(|(i, p)| {
            let pushes = p.bind.iter().map(|b| {
                let args = literal_args(
                    lits,
                    [
                        Lit::str(&b.role),
                        Lit::opt_str(b.operand.as_deref()),
                        Lit::opt_str(b.what.as_deref()),
                        Lit::opt_str(b.note.as_deref()),
                    ],
                );
                let push = quote!(n.add_binding(#args););
                match &b.when {
                    None => push,
                    Some(w) => {
                        let of = b.operand.as_deref().or(b.what.as_deref()).unwrap_or("?");
                        decide(lits, w, op, push, &format!("binding of {of}"))
                    }
                }
            });
            let i = Literal::usize_unsuffixed(i);
            quote!(if path == #i { #(#pushes)* })
        });
    quote! {
        let path: usize = #pick;
        n.path = #paths[path];
        #(#binds)*
    }
}

/// `Op` (one variant per leaf), its `Fields`-driven builders and `lower`.
fn op_enum(m: &KlrModel) -> TokenStream {
    let borrowed = m.leaves.iter().any(|l| borrows(m, &l.op));
    let names: Vec<_> = m.leaves.iter().map(|l| ident(&l.name)).collect();
    let strs: Vec<_> = m.leaves.iter().map(|l| l.name.as_str()).collect();
    let tys = m.leaves.iter().map(|l| op_ty(m, &l.op));
    let lowers = m.leaves.iter().map(|l| format_ident!("lower_{}", l.name));
    let builds: Vec<_> = m
        .leaves
        .iter()
        .map(|l| format_ident!("build_{}", l.op))
        .collect();
    // An `Op` that borrows nothing still takes `'a`; the variant cannot be built.
    let (life, life_arm) = if borrowed {
        (TokenStream::new(), TokenStream::new())
    } else {
        (
            quote!(#[doc(hidden)] _Life(core::marker::PhantomData<&'a ()>, core::convert::Infallible),),
            quote!(Op::_Life(_, never) => match *never {},),
        )
    };
    // One builder per klr layout a leaf takes.
    let mut used: Vec<&str> = m.leaves.iter().map(|l| l.op.as_str()).collect();
    used.sort_unstable();
    used.dedup();
    let builders = m
        .layouts
        .iter()
        .filter(|l| l.side == Side::Klr && used.contains(&l.name.as_str()))
        .map(|l| {
            let (opty, id, fields) = (op_ty(m, &l.name), ident(&l.name), fields_static(&l.name));
            let build = format_ident!("build_{}", l.name);
            let inits = m
                .inputs(&l.name)
                .into_iter()
                .enumerate()
                .filter_map(|(i, f)| {
                    let getter = match (f.input?, f.optional) {
                        (Input::Ap, false) => "ap",
                        (Input::Ap, true) => "opt_ap",
                        (Input::Aps, _) => "aps",
                        (Input::Imm, false) => "imm",
                        (Input::Imm, true) => "opt_imm",
                        (Input::Imms, _) => "imms",
                        (Input::Int, false) => "int",
                        (Input::Int, true) => "opt_int",
                        (Input::Bool, _) => "boolean",
                        (Input::Text, false) => "text",
                        (Input::Text, true) => "opt_text",
                    };
                    let (fid, g, i) = (
                        ident(&f.name),
                        format_ident!("{}", getter),
                        Literal::usize_unsuffixed(i),
                    );
                    Some(quote!(#fid: src.#g(&#fields[#i])?,))
                });
            quote! {
                #[allow(non_snake_case)]
                fn #build<'a, F: Fields<'a>>(src: &F) -> Result<#opty, F::Error> {
                    Ok(ops::#id { #(#inits)* })
                }
            }
        });
    let (src, fx) = if m.leaves.is_empty() {
        (quote!(_src), quote!(_fx))
    } else {
        (quote!(src), quote!(fx))
    };
    quote! {
        /// A klr op for one of the leaves (the leaf decides how it is lowered).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Op<'a> {
            #(#names(#tys),)*
            #life
        }
        #(#builders)*
        impl<'a> Op<'a> {
            /// The leaf this op is for.
            pub fn leaf(&self) -> &'static str {
                match self { #(Op::#names(_) => #strs,)* #life_arm }
            }
            /// Builds the op of leaf `leaf` from `src`; `None` for an unknown leaf.
            pub fn build<F: Fields<'a>>(leaf: &str, #src: &F) -> Option<Result<Op<'a>, F::Error>> {
                match leaf {
                    #(#strs => Some(#builds(src).map(Op::#names)),)*
                    _ => None,
                }
            }
        }
        /// Lowers one op with its leaf.
        pub fn lower<'a>(op: &Op<'a>, #fx: &mut Function) -> Outcome<'a> {
            match op { #(Op::#names(o) => #lowers(o, fx),)* #life_arm }
        }
    }
}
