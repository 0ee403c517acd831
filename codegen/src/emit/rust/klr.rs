//! The Rust target for seed 003's KLR→BIR leaves: `pub mod klr` inside the generated
//! file (`dmaspec::words::klr`).
//!
//! Per klr layout an op struct (`ops::NcDmaCopy`, its input fields); per leaf a function
//! `lower_<Leaf>(&op, &mut Function) -> Outcome` that runs the leaf's steps in order and
//! returns the BIR node it builds (class, IT, name prefix, every stamped field as offset +
//! name + value, the operand bindings, effects) or the exact error; the enums and tables as
//! consts; metadata (`LEAVES`) and a [`Fields`]-driven constructor so that a front end
//! (the CLI's JSON reader) can build any op generically.
//!
//! Values are three-valued: an input the op description leaves out (a dtype, a step)
//! makes the conditions that read it unknown; a check that cannot be decided is listed in
//! the node's `unevaluated`, a fork or route that cannot be decided gives
//! `Outcome::Undetermined`. The module is `no_std` (no allocation): lists are borrowed
//! slices and the node's lists are fixed-capacity [`Seq`]s sized from the spec.

use std::fmt::Write as _;

use proc_macro2::TokenStream;

use crate::model::Model;
use crate::model::klr::*;
use crate::model::klr_expr::{CmpOp, KlrExpr, Ty};

/// The `pub mod klr { … }` item.
pub fn items(model: &Model) -> TokenStream {
    let code = render(&model.klr);
    code.parse().expect("generated klr Rust tokenizes")
}

fn lit(s: &str) -> String {
    format!("{s:?}")
}

fn opt_lit(s: Option<&str>) -> String {
    match s {
        Some(s) => format!("Some({s:?})"),
        None => "None".into(),
    }
}

/// A spec name as a Rust identifier (raw when it is a keyword).
fn ident(name: &str) -> String {
    if syn::parse_str::<syn::Ident>(name).is_ok() {
        name.to_string()
    } else {
        format!("r#{name}")
    }
}

fn doc(text: &str) -> String {
    let mut out = String::new();
    for line in crate::emit::escape_doc(text).lines() {
        let _ = writeln!(out, "#[doc = {:?}]", format!(" {line}"));
    }
    out
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

fn op_ty(m: &KlrModel, layout: &str) -> String {
    if borrows(m, layout) {
        format!("ops::{layout}<'a>")
    } else {
        format!("ops::{layout}")
    }
}

fn field_ty(f: &LayoutField) -> String {
    let base = match f.input.expect("input field") {
        Input::Ap => "Ap<'a>",
        Input::Aps => "&'a [Ap<'a>]",
        Input::Imm => "Imm",
        Input::Imms => "&'a [Imm]",
        Input::Int => "i64",
        Input::Bool => "bool",
        Input::Text => "&'a str",
    };
    if f.optional {
        format!("Option<{base}>")
    } else {
        base.to_string()
    }
}

const RUNTIME: &str = r#"
pub const MAX_DIMS: usize = 8;

/// Whether an access is static or carries a runtime offset, and which flavour
/// (klr::BirAccessPattern: scalar offset present at +0x40, vector offset at +0x58;
/// isAccessDynamic is their OR; at most one is set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dynamic {
    Static,
    /// A register-backed scalar offset.
    Scalar,
    /// A vector offset (a gather index).
    Vector,
}

/// An access pattern as the leaves see it. `None` fields are unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ap<'a> {
    /// Number of access-pattern pairs.
    pub rank: u32,
    pub shape: &'a [i64],
    /// The BIR dtype id.
    pub dtype: Option<i64>,
    pub dynamic: Dynamic,
    /// `AP[0].step`.
    pub step0: Option<i64>,
    /// The BirAccessPattern's indirect_dim (+0x60).
    pub indirect_dim: Option<i64>,
}

impl<'a> Ap<'a> {
    /// A static access of this shape; the rank is the shape's length.
    pub const fn new(shape: &'a [i64]) -> Ap<'a> {
        Ap { rank: shape.len() as u32, shape, dtype: None, dynamic: Dynamic::Static, step0: None, indirect_dim: None }
    }
    pub const fn rank(mut self, rank: u32) -> Self { self.rank = rank; self }
    pub const fn dtype(mut self, dtype: i64) -> Self { self.dtype = Some(dtype); self }
    pub const fn scalar(mut self) -> Self { self.dynamic = Dynamic::Scalar; self }
    pub const fn vector(mut self) -> Self { self.dynamic = Dynamic::Vector; self }
    pub const fn step0(mut self, step: i64) -> Self { self.step0 = Some(step); self }
    pub const fn indirect_dim(mut self, dim: i64) -> Self { self.indirect_dim = Some(dim); self }
}

/// An immediate operand: an int, a float, or something that is not an immediate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Imm {
    Int(i64),
    Float(f64),
    /// Not an immediate (a tensor or register operand).
    Other,
}

/// A fixed-capacity list (the module does not allocate).
#[derive(Clone, Copy, Debug)]
pub struct Seq<T: Copy, const N: usize> {
    len: usize,
    items: [Option<T>; N],
}

impl<T: Copy, const N: usize> Seq<T, N> {
    pub const fn new() -> Self { Seq { len: 0, items: [None; N] } }
    fn push(&mut self, t: T) {
        if self.len < N {
            self.items[self.len] = Some(t);
            self.len += 1;
        }
    }
    pub fn len(&self) -> usize { self.len }
    pub fn is_empty(&self) -> bool { self.len == 0 }
    pub fn get(&self, i: usize) -> Option<&T> { self.items.get(i).and_then(Option::as_ref) }
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ { self.items[..self.len].iter().flatten() }
}

impl<T: Copy, const N: usize> Default for Seq<T, N> {
    fn default() -> Self { Self::new() }
}

/// A stamped or computed value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    Int(i64),
    Bool(bool),
    /// A value of a klr enum, with its enumerator when it has one.
    Enum { ty: &'static str, name: Option<&'static str>, raw: i64 },
    /// A one-element vector.
    One(i64),
    Imm(Imm),
    Imms(&'a [Imm]),
    /// A value the model does not compute; the text says what it is.
    Opaque(&'static str),
    /// Depends on an input the op description leaves out; the text is the expression.
    Missing(&'static str),
}

/// A field the leaf writes on the node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stamp<'a> {
    pub offset: u32,
    /// The class (or base) that declares the field.
    pub class: &'static str,
    pub field: &'static str,
    pub value: Value<'a>,
}

/// An operand binding: a klr field (or `what`) bound in a role (argument, output,
/// builder, operand, dynamic-ap, base).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub role: &'static str,
    pub operand: Option<&'static str>,
    pub what: Option<&'static str>,
    pub note: Option<&'static str>,
}

/// Anything else the leaf does (kind note, node, warning, register).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub kind: &'static str,
    pub text: &'static str,
    /// The memo key, for an effect that happens once per key and function.
    pub key: Option<i64>,
}

/// A computed value the spec lists in the results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown<'a> {
    pub name: &'static str,
    pub value: Value<'a>,
}

/// A check (or conditional step) the model could not decide, or cannot evaluate at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unevaluated {
    pub what: &'static str,
    pub condition: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Throw,
    Assert,
    Fatal,
}

impl ErrorKind {
    pub const fn name(self) -> &'static str {
        match self { ErrorKind::Throw => "throw", ErrorKind::Assert => "assert", ErrorKind::Fatal => "fatal" }
    }
}

/// The compiler's error for an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    pub leaf: &'static str,
    pub routed_from: Option<&'static str>,
    pub kind: ErrorKind,
    /// The exact message; empty when the source gives none.
    pub message: &'static str,
    /// Appended to the message (`"…" + to_string(n)`), or the index of a fatal lookup.
    pub arg: Option<i64>,
    /// The condition that failed, as the spec writes it.
    pub condition: &'static str,
    /// The callee that owns the check (or the table of a fatal lookup).
    pub helper: Option<&'static str>,
}

impl Error {
    /// The text the compiler reports: the message with its argument appended.
    pub fn write_message(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message)?;
        if let Some(a) = self.arg {
            if !self.message.is_empty() {
                write!(f, "{a}")?;
            }
        }
        Ok(())
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.message.is_empty() {
            match (self.kind, self.helper, self.arg) {
                (ErrorKind::Fatal, Some(h), Some(a)) => write!(f, "fatal: {h} has no entry {a}"),
                _ => write!(f, "{} failed (no message): {}", self.kind.name(), self.condition),
            }
        } else {
            self.write_message(f)
        }
    }
}

/// A fork or route the model cannot decide because an input it reads is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undetermined {
    pub leaf: &'static str,
    pub routed_from: Option<&'static str>,
    /// `fork` or `route to <leaf>`.
    pub at: &'static str,
    pub condition: &'static str,
}

/// One way through a leaf and the BIR node it builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathInfo {
    pub name: &'static str,
    /// The condition that picks it (`None` for the last, the otherwise arm).
    pub when: Option<&'static str>,
    /// The qualified BIR class.
    pub class: &'static str,
    /// (InstructionType enumerator, IT), when the source gives one.
    pub it: Option<(&'static str, i64)>,
    pub prefix: Option<&'static str>,
    pub build: &'static str,
}

/// The BIR node an op becomes.
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    /// The leaf that built it.
    pub leaf: &'static str,
    /// The leaf that routed the op here.
    pub routed_from: Option<&'static str>,
    pub path: PathInfo,
    pub stamps: Seq<Stamp<'a>, MAX_STAMPS>,
    pub bindings: Seq<Binding, MAX_BINDINGS>,
    pub effects: Seq<Effect, MAX_EFFECTS>,
    pub shown: Seq<Shown<'a>, MAX_SHOWN>,
    pub unevaluated: Seq<Unevaluated, MAX_UNEVALUATED>,
}

const NO_PATH: PathInfo = PathInfo { name: "", when: None, class: "", it: None, prefix: None, build: "" };

impl<'a> Node<'a> {
    fn start(leaf: &'static str, routed_from: Option<&'static str>) -> Self {
        Node {
            leaf,
            routed_from,
            path: NO_PATH,
            stamps: Seq::new(),
            bindings: Seq::new(),
            effects: Seq::new(),
            shown: Seq::new(),
            unevaluated: Seq::new(),
        }
    }
    /// The stamp at `offset`.
    pub fn stamp(&self, offset: u32) -> Option<&Stamp<'a>> {
        self.stamps.iter().find(|s| s.offset == offset)
    }
    /// The DGEType the node carries, if the leaf stamps one.
    pub fn dge_type(&self) -> Option<i64> {
        self.stamps.iter().find_map(|s| match s.value {
            Value::Enum { ty: "DGEType", raw, .. } => Some(raw),
            _ => None,
        })
    }
}

/// What a leaf returns for an op.
#[derive(Clone, Copy, Debug)]
pub enum Outcome<'a> {
    Node(Node<'a>),
    Error(Error),
    Undetermined(Undetermined),
}

impl<'a> Outcome<'a> {
    pub fn node(&self) -> Option<&Node<'a>> {
        match self { Outcome::Node(n) => Some(n), _ => None }
    }
    pub fn error(&self) -> Option<&Error> {
        match self { Outcome::Error(e) => Some(e), _ => None }
    }
}

/// The per-function state the leaves share: memoised effects (the identity matrix per
/// dtype, declared registers). One `Function` per op list.
#[derive(Clone, Debug)]
pub struct Function {
    seen: [(u8, i64); 256],
    len: usize,
}

impl Default for Function {
    fn default() -> Self { Self::new() }
}

impl Function {
    pub const fn new() -> Self { Function { seen: [(0, 0); 256], len: 0 } }
    /// Whether `(memo, key)` is new, recording it. An unknown key is always new.
    fn first(&mut self, memo: u8, key: Option<i64>) -> bool {
        let Some(key) = key else { return true };
        if self.seen[..self.len].iter().any(|e| *e == (memo, key)) {
            return false;
        }
        if self.len < self.seen.len() {
            self.seen[self.len] = (memo, key);
            self.len += 1;
        }
        true
    }
}

/// A text memo key (FNV-1a).
fn text_key(s: &str) -> i64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h as i64
}

fn k_not(a: Option<bool>) -> Option<bool> { a.map(|x| !x) }
fn k_and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}
fn k_or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}
fn k_cmp<T: Copy>(a: Option<T>, b: Option<T>, f: impl Fn(T, T) -> bool) -> Option<bool> {
    Some(f(a?, b?))
}
fn lookup(t: &[i64], k: Option<i64>) -> Option<i64> {
    let k = k?;
    if k < 0 { return None; }
    t.get(k as usize).copied()
}

fn f_dynamic(a: &Ap) -> Option<bool> { Some(a.dynamic != Dynamic::Static) }
fn f_scalar_offset(a: &Ap) -> Option<bool> { Some(a.dynamic == Dynamic::Scalar) }
fn f_vector_offset(a: &Ap) -> Option<bool> { Some(a.dynamic == Dynamic::Vector) }
fn f_rank(a: &Ap) -> Option<i64> { Some(a.rank as i64) }
fn f_dtype(a: &Ap) -> Option<i64> { a.dtype }
fn f_step0(a: &Ap) -> Option<i64> { a.step0 }
fn f_indirect_dim(a: &Ap) -> Option<i64> { a.indirect_dim }
fn f_same_shape(a: &Ap, b: &Ap) -> Option<bool> { Some(a.shape == b.shape) }
fn f_is_int(i: &Imm) -> Option<bool> { Some(matches!(i, Imm::Int(_))) }
fn f_is_float(i: &Imm) -> Option<bool> { Some(matches!(i, Imm::Float(_))) }
fn f_is_immediate(i: &Imm) -> Option<bool> { Some(!matches!(i, Imm::Other)) }

/// How an op description carries a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input { Ap, Aps, Imm, Imms, Int, Bool, Text }

/// An input field of a klr op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldMeta {
    pub name: &'static str,
    pub input: Input,
    pub optional: bool,
    /// The klr enum naming its values.
    pub enum_ty: Option<&'static str>,
    /// Its offset in the klr node, when the source gives it.
    pub offset: Option<u32>,
    pub doc: &'static str,
}

/// A leaf: the klr op it takes, where it lives, its input fields and its paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafMeta {
    pub name: &'static str,
    /// The klr layout of its op.
    pub op: &'static str,
    pub qualified: &'static str,
    pub function: &'static str,
    pub va: u64,
    pub section: &'static str,
    pub fields: &'static [FieldMeta],
    pub paths: &'static [PathInfo],
}

/// Where [`Op::build`] gets each field from (the CLI's JSON reader, for one).
pub trait Fields<'a> {
    type Error;
    fn ap(&self, f: &'static FieldMeta) -> Result<Ap<'a>, Self::Error>;
    fn opt_ap(&self, f: &'static FieldMeta) -> Result<Option<Ap<'a>>, Self::Error>;
    fn aps(&self, f: &'static FieldMeta) -> Result<&'a [Ap<'a>], Self::Error>;
    fn imm(&self, f: &'static FieldMeta) -> Result<Imm, Self::Error>;
    fn opt_imm(&self, f: &'static FieldMeta) -> Result<Option<Imm>, Self::Error>;
    fn imms(&self, f: &'static FieldMeta) -> Result<&'a [Imm], Self::Error>;
    fn int(&self, f: &'static FieldMeta) -> Result<i64, Self::Error>;
    fn opt_int(&self, f: &'static FieldMeta) -> Result<Option<i64>, Self::Error>;
    fn boolean(&self, f: &'static FieldMeta) -> Result<bool, Self::Error>;
    fn text(&self, f: &'static FieldMeta) -> Result<&'a str, Self::Error>;
    fn opt_text(&self, f: &'static FieldMeta) -> Result<Option<&'a str>, Self::Error>;
}

/// The leaf called `name`.
pub fn leaf(name: &str) -> Option<&'static LeafMeta> {
    LEAVES.iter().find(|l| l.name == name)
}
"#;

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

/// Renders the module's source text.
fn render(m: &KlrModel) -> String {
    let mut o = String::new();
    o.push_str(&doc(
        "Seed 003's KLR→BIR data-movement leaves, generated from `spec/klr/`: one \
         `lower_<Leaf>` function per `codegen<Op>` leaf, the klr op structs (`ops`), the \
         enums (`enums`) and tables (`tables`) they use.",
    ));
    o.push_str("pub mod klr {\n");
    o.push_str(
        "#![allow(non_snake_case, non_camel_case_types, non_upper_case_globals, unused_variables, \
         unused_mut, unused_parens, unused_braces, unused_labels, unused_assignments, dead_code, unreachable_code, clippy::all)]\n",
    );
    o.push_str(RUNTIME);
    let s = sizes(m);
    let _ = writeln!(o, "pub const MAX_STAMPS: usize = {};", s.stamps);
    let _ = writeln!(o, "pub const MAX_BINDINGS: usize = {};", s.bindings);
    let _ = writeln!(o, "pub const MAX_EFFECTS: usize = {};", s.effects);
    let _ = writeln!(o, "pub const MAX_SHOWN: usize = {};", s.shown);
    let _ = writeln!(o, "pub const MAX_UNEVALUATED: usize = {};", s.unevaluated);
    enums(m, &mut o);
    tables(m, &mut o);
    ops(m, &mut o);
    meta(m, &mut o);
    for l in &m.leaves {
        leaf_fn(m, l, &mut o);
    }
    op_enum(m, &mut o);
    o.push_str("}\n");
    o
}

fn enums(m: &KlrModel, o: &mut String) {
    o.push_str(
        "/// The klr enums, one type per enum with its enumerators as consts.\npub mod enums {\n",
    );
    let mut all = Vec::new();
    for t in &m.enums {
        let crate::model::TypeKind::Enum { values, .. } = &t.kind else {
            continue;
        };
        o.push_str(&doc(&format!("{} (`{}`)", t.doc, t.c_name)));
        let _ = writeln!(o, "#[derive(Clone, Copy, Debug)] pub struct {};", t.name);
        let _ = writeln!(o, "impl {} {{", t.name);
        for v in values {
            if let Some(d) = &v.doc {
                o.push_str(&doc(d));
            }
            let _ = writeln!(o, "pub const {}: i64 = {};", ident(&v.name), v.value);
        }
        let pairs: Vec<String> = values
            .iter()
            .map(|v| format!("({:?}, {})", v.name, v.value))
            .collect();
        let _ = writeln!(
            o,
            "pub const VALUES: &'static [(&'static str, i64)] = &[{}];",
            pairs.join(", ")
        );
        o.push_str(
            "pub fn name(v: i64) -> Option<&'static str> { Self::VALUES.iter().find(|e| e.1 == v).map(|e| e.0) }\n\
             pub fn value(name: &str) -> Option<i64> { Self::VALUES.iter().find(|e| e.0 == name).map(|e| e.1) }\n}\n",
        );
        all.push(t.name.clone());
    }
    let list: Vec<String> = all
        .iter()
        .map(|n| format!("({n:?}, {n}::VALUES)"))
        .collect();
    let _ = writeln!(
        o,
        "/// Every enum: (name, enumerators).\npub const ALL: &[(&str, &[(&str, i64)])] = &[{}];",
        list.join(", ")
    );
    o.push_str(
        "/// The enumerator of `v` in enum `ty`.\n\
         pub fn name(ty: &str, v: i64) -> Option<&'static str> { ALL.iter().find(|e| e.0 == ty)?.1.iter().find(|e| e.1 == v).map(|e| e.0) }\n\
         /// The value of enumerator `name` of enum `ty`.\n\
         pub fn value(ty: &str, name: &str) -> Option<i64> { ALL.iter().find(|e| e.0 == ty)?.1.iter().find(|e| e.0 == name).map(|e| e.1) }\n",
    );
    o.push_str("}\n");
}

fn tables(m: &KlrModel, o: &mut String) {
    o.push_str("/// The klr tables, indexed from 0.\npub mod tables {\n");
    for t in &m.tables {
        let mut d = t.doc.clone();
        if let Some(f) = &t.function {
            d.push_str(&format!(" (`{f}`)"));
        }
        d.push_str(match t.out_of_range {
            OutOfRange::Fatal => " An index past the end is fatal.",
            OutOfRange::Unknown => " Past the end: not given.",
        });
        o.push_str(&doc(&d));
        let entries: Vec<String> = t.entries.iter().map(|e| e.to_string()).collect();
        let _ = writeln!(
            o,
            "pub const {}: &[i64] = &[{}];",
            ident(&t.name),
            entries.join(", ")
        );
    }
    o.push_str("}\n");
}

fn ops(m: &KlrModel, o: &mut String) {
    o.push_str("/// The klr ops the leaves take: their input fields.\npub mod ops {\n#[allow(unused_imports)] use super::{Ap, Imm};\n");
    for l in m.layouts.iter().filter(|l| l.side == Side::Klr) {
        o.push_str(&doc(&format!("`{}`: {}", l.qualified, l.doc)));
        let life = if borrows(m, &l.name) { "<'a>" } else { "" };
        let _ = writeln!(
            o,
            "#[derive(Clone, Copy, Debug, PartialEq)] pub struct {}{life} {{",
            l.name
        );
        for f in m.inputs(&l.name) {
            let mut d = f.doc.clone();
            if let Some(off) = f.offset {
                d = format!("{d} (klr +{off:#x})");
            }
            o.push_str(&doc(&d));
            let _ = writeln!(o, "pub {}: {},", ident(&f.name), field_ty(f));
        }
        o.push_str("}\n");
    }
    o.push_str("}\n");
}

fn path_info(p: &KlrPath, m: &KlrModel) -> String {
    let class = m
        .layout(&p.class)
        .map_or(p.class.clone(), |l| l.qualified.clone());
    let it = match &p.it {
        Some((n, v)) => format!("Some(({n:?}, {v}))"),
        None => "None".into(),
    };
    format!(
        "PathInfo {{ name: {}, when: {}, class: {}, it: {it}, prefix: {}, build: {} }}",
        lit(&p.name),
        opt_lit(p.when.as_ref().map(|w| w.text.as_str())),
        lit(&class),
        opt_lit(p.prefix.as_deref()),
        lit(&p.build)
    )
}

fn meta(m: &KlrModel, o: &mut String) {
    for l in m.layouts.iter().filter(|l| l.side == Side::Klr) {
        let fields: Vec<String> = m
            .inputs(&l.name)
            .iter()
            .map(|f| {
                let input = match f.input.expect("input") {
                    Input::Ap => "Ap",
                    Input::Aps => "Aps",
                    Input::Imm => "Imm",
                    Input::Imms => "Imms",
                    Input::Int => "Int",
                    Input::Bool => "Bool",
                    Input::Text => "Text",
                };
                format!(
                    "FieldMeta {{ name: {}, input: Input::{input}, optional: {}, enum_ty: {}, offset: {}, doc: {} }}",
                    lit(&f.name),
                    f.optional,
                    opt_lit(f.enum_.as_deref()),
                    f.offset.map_or("None".into(), |x| format!("Some({x})")),
                    lit(&f.doc)
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "/// The input fields of `{}`.\npub static FIELDS_{}: [FieldMeta; {}] = [{}];",
            l.qualified,
            l.name,
            fields.len(),
            fields.join(", ")
        );
    }
    for l in &m.leaves {
        let paths: Vec<String> = l.paths().iter().map(|p| path_info(p, m)).collect();
        let _ = writeln!(
            o,
            "/// The paths of `{}`.\npub static PATHS_{}: [PathInfo; {}] = [{}];",
            l.function,
            l.name,
            paths.len(),
            paths.join(", ")
        );
    }
    let leaves: Vec<String> = m
        .leaves
        .iter()
        .map(|l| {
            let q = m.layout(&l.op).map_or(l.op.clone(), |x| x.qualified.clone());
            format!(
                "LeafMeta {{ name: {}, op: {}, qualified: {}, function: {}, va: {:#x}, section: {}, fields: &FIELDS_{}, paths: &PATHS_{} }}",
                lit(&l.name),
                lit(&l.op),
                lit(&q),
                lit(&l.function),
                l.va,
                lit(&l.section),
                l.op,
                l.name
            )
        })
        .collect();
    let _ = writeln!(
        o,
        "/// Every leaf, in spec order.\npub static LEAVES: [LeafMeta; {}] = [{}];",
        leaves.len(),
        leaves.join(", ")
    );
}

/// Compiles an expression: `Option<bool>` / `Option<i64>` for conditions and ints, a
/// reference for an access or immediate, a slice for a list.
fn ex(e: &KlrExpr, op: &Layout) -> String {
    match e {
        KlrExpr::Int { value } => format!("Some({value}i64)"),
        KlrExpr::Bool { value } => format!("Some({value})"),
        KlrExpr::Const { value, .. } => format!("Some({value}i64)"),
        KlrExpr::Field { name, ty } => {
            let f = format!("op.{}", ident(name));
            let optional = op.fields.iter().any(|x| &x.name == name && x.optional);
            match ty {
                Ty::Ap | Ty::Imm => format!("&{f}"),
                Ty::Int { .. } if optional => f,
                Ty::Int { .. } | Ty::Bool => format!("Some({f})"),
                _ => f,
            }
        }
        KlrExpr::Var { name, .. } => format!("v_{name}"),
        KlrExpr::It { .. } => "it".into(),
        KlrExpr::Call { func, args } => {
            let a: Vec<String> = args.iter().map(|x| ex(x, op)).collect();
            format!("f_{}({})", func.name(), a.join(", "))
        }
        KlrExpr::Table { name, arg, .. } => {
            format!("lookup(tables::{}, {})", ident(name), ex(arg, op))
        }
        KlrExpr::Not { e } => format!("k_not({})", ex(e, op)),
        KlrExpr::And { l, r } => format!("k_and({}, {})", ex(l, op), ex(r, op)),
        KlrExpr::Or { l, r } => format!("k_or({}, {})", ex(l, op), ex(r, op)),
        KlrExpr::Cmp { op: c, l, r } => {
            let sym = match c {
                CmpOp::Eq => "==",
                CmpOp::Ne => "!=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
            };
            format!("k_cmp({}, {}, |a, b| a {sym} b)", ex(l, op), ex(r, op))
        }
        KlrExpr::List1 { e } => ex(e, op),
    }
}

/// Compiles a value expression into a `Value`.
fn value_ex(c: &Cond, op: &Layout, field_enum: Option<&str>) -> String {
    let missing = format!("Value::Missing({})", lit(&c.text));
    match c.expr.ty() {
        Ty::Int { enum_ } => match enum_.as_deref().or(field_enum) {
            Some(en) => format!(
                "match {} {{ Some(v) => Value::Enum {{ ty: {}, name: enums::{en}::name(v), raw: v }}, None => {missing} }}",
                ex(&c.expr, op),
                lit(en)
            ),
            None => format!(
                "match {} {{ Some(v) => Value::Int(v), None => {missing} }}",
                ex(&c.expr, op)
            ),
        },
        Ty::Bool => format!(
            "match {} {{ Some(v) => Value::Bool(v), None => {missing} }}",
            ex(&c.expr, op)
        ),
        Ty::List1 => format!(
            "match {} {{ Some(v) => Value::One(v), None => {missing} }}",
            ex(&c.expr, op)
        ),
        Ty::Imm => format!("Value::Imm(*{})", ex(&c.expr, op)),
        Ty::Imms => format!("Value::Imms({})", ex(&c.expr, op)),
        _ => missing,
    }
}

/// `body`, run only on the guard's paths.
fn guarded(guard: &str, body: &str) -> String {
    if guard == "true" {
        format!("{{ {body} }}")
    } else {
        format!("if {guard} {{ {body} }}")
    }
}

fn path_guard(paths: &[usize]) -> String {
    if paths.is_empty() {
        "true".into()
    } else {
        let alts: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        format!("matches!(path, {})", alts.join(" | "))
    }
}

fn leaf_fn(m: &KlrModel, l: &KlrLeaf, o: &mut String) {
    let Some(op) = m.layout(&l.op) else { return };
    let opty = op_ty(m, &l.op);
    let mut d = format!(
        "`{}` @{:#x} (seed 003 {}): {}",
        l.function, l.va, l.section, l.doc
    );
    d.push_str("\n\nRuns the leaf's steps in order; see `generated/docs/klr/` for the rule list.");
    o.push_str(&doc(&d));
    let _ = writeln!(
        o,
        "pub fn lower_{n}<'a>(op: &{opty}, fx: &mut Function) -> Outcome<'a> {{ lower_{n}_from(op, fx, None) }}",
        n = l.name
    );
    let _ = writeln!(
        o,
        "fn lower_{n}_from<'a>(op: &{opty}, fx: &mut Function, routed_from: Option<&'static str>) -> Outcome<'a> {{",
        n = l.name
    );
    let _ = writeln!(o, "let leaf: &'static str = {};", lit(&l.name));
    o.push_str("let mut n = Node::start(leaf, routed_from);\nlet mut path: usize = usize::MAX;\n");
    // One lazily-decided flag per memo.
    let mut memos: Vec<&str> = Vec::new();
    for s in &l.steps {
        if let StepKind::Effect {
            memo: Some((name, _)),
            ..
        } = &s.kind
            && !memos.contains(&name.as_str())
        {
            memos.push(name);
        }
    }
    for mm in &memos {
        let _ = writeln!(o, "let mut memo_{mm}: Option<bool> = None;");
    }
    let memo_id = |name: &str| {
        // Stable across leaves: the memo's index among every memo name of the model.
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
        all.iter().position(|x| *x == name).unwrap_or(0)
    };
    let paths = l.paths();
    for s in &l.steps {
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
                    CheckKind::Throw => "ErrorKind::Throw",
                    CheckKind::Assert => "ErrorKind::Assert",
                    CheckKind::Fatal => "ErrorKind::Fatal",
                };
                let cond_text = when
                    .as_ref()
                    .map(|w| w.text.clone())
                    .or_else(|| opaque.clone())
                    .unwrap_or_default();
                let what = if message.is_empty() {
                    "an assert with no message".to_string()
                } else {
                    message.clone()
                };
                let unevaluated = format!(
                    "n.unevaluated.push(Unevaluated {{ what: {}, condition: {} }});",
                    lit(&what),
                    lit(&cond_text)
                );
                let Some(w) = when else {
                    let _ = writeln!(o, "{}", guarded(&guard, &unevaluated));
                    continue;
                };
                let arg = append.as_ref().map_or("None".into(), |a| ex(&a.expr, op));
                let err = format!(
                    "return Outcome::Error(Error {{ leaf, routed_from, kind: {kind}, message: {}, arg: {arg}, condition: {}, helper: {} }})",
                    lit(message),
                    lit(&w.text),
                    opt_lit(helper.as_deref())
                );
                let cond = ex(&w.expr, op);
                match each {
                    Some(list) => {
                        let body = format!(
                            "let mut unknown = false; for it in op.{}.iter() {{ match {cond} {{ Some(true) => {err}, Some(false) => {{}}, None => unknown = true }} }} if unknown {{ {unevaluated} }}",
                            ident(list)
                        );
                        let _ = writeln!(o, "{}", guarded(&guard, &body));
                    }
                    None => {
                        let body = format!(
                            "match {cond} {{ Some(true) => {err}, Some(false) => {{}}, None => {{ {unevaluated} }} }}"
                        );
                        let _ = writeln!(o, "{}", guarded(&guard, &body));
                    }
                }
            }
            StepKind::Route { to, when } => {
                let _ = writeln!(
                    o,
                    "match {} {{ Some(true) => return lower_{to}_from(op, fx, Some(leaf)), Some(false) => {{}}, None => return Outcome::Undetermined(Undetermined {{ leaf, routed_from, at: {}, condition: {} }}) }}",
                    ex(&when.expr, op),
                    lit(&format!("route to {to}")),
                    lit(&when.text)
                );
            }
            StepKind::Let { name, value, show } => {
                let ty = if value.expr.ty() == Ty::Bool {
                    "Option<bool>"
                } else {
                    "Option<i64>"
                };
                let rhs = match &value.expr {
                    KlrExpr::Table {
                        name: t,
                        arg,
                        fatal: true,
                        ..
                    } => {
                        let site = m
                            .table(t)
                            .and_then(|x| x.function.clone())
                            .unwrap_or_else(|| t.clone());
                        format!(
                            "match {} {{ Some(k) if k < 0 || k as u64 >= tables::{t}.len() as u64 => return Outcome::Error(Error {{ leaf, routed_from, kind: ErrorKind::Fatal, message: \"\", arg: Some(k), condition: {}, helper: Some({}) }}), Some(k) => Some(tables::{t}[k as usize]), None => None }}",
                            ex(arg, op),
                            lit(&value.text),
                            lit(&site)
                        )
                    }
                    e => ex(e, op),
                };
                if guard == "true" {
                    let _ = writeln!(o, "let v_{name}: {ty} = {rhs};");
                } else {
                    let _ = writeln!(
                        o,
                        "let v_{name}: {ty} = if {guard} {{ {rhs} }} else {{ None }};"
                    );
                }
                if *show {
                    let cond = Cond {
                        text: value.text.clone(),
                        expr: KlrExpr::Var {
                            name: name.clone(),
                            ty: value.expr.ty(),
                        },
                    };
                    let body = format!(
                        "n.shown.push(Shown {{ name: {}, value: {} }});",
                        lit(name),
                        value_ex(&cond, op, None)
                    );
                    let _ = writeln!(o, "{}", guarded(&guard, &body));
                }
            }
            StepKind::Fork { paths: ps, .. } => {
                o.push_str("path = 'fork: {\n");
                for (i, p) in ps.iter().enumerate() {
                    match &p.when {
                        Some(w) => {
                            let _ = writeln!(
                                o,
                                "match {} {{ Some(true) => break 'fork {i}, Some(false) => {{}}, None => return Outcome::Undetermined(Undetermined {{ leaf, routed_from, at: {}, condition: {} }}) }}",
                                ex(&w.expr, op),
                                lit(&format!("fork to {}", p.name)),
                                lit(&w.text)
                            );
                        }
                        None => {
                            let _ = writeln!(o, "{i}");
                        }
                    }
                }
                if ps.last().is_some_and(|p| p.when.is_some()) {
                    let _ = writeln!(o, "{}", ps.len().saturating_sub(1));
                }
                o.push_str("};\n");
                let _ = writeln!(o, "n.path = PATHS_{}[path];", l.name);
                for (i, p) in ps.iter().enumerate() {
                    let _ = writeln!(o, "if path == {i} {{");
                    for b in &p.bind {
                        let push = format!(
                            "n.bindings.push(Binding {{ role: {}, operand: {}, what: {}, note: {} }});",
                            lit(&b.role),
                            opt_lit(b.operand.as_deref()),
                            opt_lit(b.what.as_deref()),
                            opt_lit(b.note.as_deref())
                        );
                        match &b.when {
                            None => {
                                let _ = writeln!(o, "{push}");
                            }
                            Some(w) => {
                                let _ = writeln!(
                                    o,
                                    "match {} {{ Some(true) => {{ {push} }}, Some(false) => {{}}, None => n.unevaluated.push(Unevaluated {{ what: {}, condition: {} }}) }}",
                                    ex(&w.expr, op),
                                    lit(&format!(
                                        "binding of {}",
                                        b.operand.as_deref().or(b.what.as_deref()).unwrap_or("?")
                                    )),
                                    lit(&w.text)
                                );
                            }
                        }
                    }
                    o.push_str("}\n");
                }
            }
            StepKind::Stamp {
                field,
                offset,
                value,
                when,
            } => {
                // The declaring class: the first path's class chain that has it.
                let decl = paths.iter().find_map(|p| m.class_field(&p.class, *offset));
                let (class, fenum) = decl.map_or((String::new(), None), |(cl, f)| {
                    (cl.qualified.clone(), f.enum_.clone())
                });
                let v = match value {
                    StampValue::Expr { cond } => value_ex(cond, op, fenum.as_deref()),
                    StampValue::Opaque { what } => format!("Value::Opaque({})", lit(what)),
                };
                let push = format!(
                    "n.stamps.push(Stamp {{ offset: {offset:#x}, class: {}, field: {}, value: {v} }});",
                    lit(&class),
                    lit(field)
                );
                match when {
                    None => {
                        let _ = writeln!(o, "{}", guarded(&guard, &push));
                    }
                    Some(w) => {
                        let body = format!(
                            "match {} {{ Some(true) => {{ {push} }}, Some(false) => {{}}, None => n.unevaluated.push(Unevaluated {{ what: {}, condition: {} }}) }}",
                            ex(&w.expr, op),
                            lit(&format!("stamp of {field} at +{offset:#x}")),
                            lit(&w.text)
                        );
                        let _ = writeln!(o, "{}", guarded(&guard, &body));
                    }
                }
            }
            StepKind::Effect {
                text,
                kind,
                when,
                memo,
            } => {
                let (first, key) = match memo {
                    None => ("true".to_string(), "None".to_string()),
                    Some((name, k)) => {
                        let key = match k.expr.ty() {
                            Ty::Text => format!("Some(text_key({}))", ex(&k.expr, op)),
                            _ => ex(&k.expr, op),
                        };
                        let shown_key = match k.expr.ty() {
                            Ty::Text => "None".to_string(),
                            _ => key.clone(),
                        };
                        (
                            format!(
                                "*memo_{name}.get_or_insert_with(|| fx.first({}, {key}))",
                                memo_id(name)
                            ),
                            shown_key,
                        )
                    }
                };
                let push = format!(
                    "if {first} {{ n.effects.push(Effect {{ kind: {}, text: {}, key: {key} }}); }}",
                    lit(kind.name()),
                    lit(text)
                );
                match when {
                    None => {
                        let _ = writeln!(o, "{}", guarded(&guard, &push));
                    }
                    Some(w) => {
                        let body = format!(
                            "match {} {{ Some(true) => {{ {push} }}, Some(false) => {{}}, None => n.unevaluated.push(Unevaluated {{ what: {}, condition: {} }}) }}",
                            ex(&w.expr, op),
                            lit(text),
                            lit(&w.text)
                        );
                        let _ = writeln!(o, "{}", guarded(&guard, &body));
                    }
                }
            }
        }
    }
    o.push_str("Outcome::Node(n)\n}\n");
}

fn op_enum(m: &KlrModel, o: &mut String) {
    o.push_str("/// A klr op for one of the leaves (the leaf decides how it is lowered).\n#[derive(Clone, Copy, Debug, PartialEq)]\npub enum Op<'a> {\n");
    for l in &m.leaves {
        let _ = writeln!(o, "{}({}),", l.name, op_ty(m, &l.op));
    }
    if !m.leaves.iter().any(|l| borrows(m, &l.op)) {
        o.push_str("#[doc(hidden)] _Life(core::marker::PhantomData<&'a ()>),\n");
    }
    o.push_str("}\n");
    // Builders, one per klr layout.
    for l in m.layouts.iter().filter(|l| l.side == Side::Klr) {
        let opty = op_ty(m, &l.name);
        let _ = writeln!(
            o,
            "fn build_{n}<'a, F: Fields<'a>>(src: &F) -> Result<{opty}, F::Error> {{ Ok(ops::{n} {{",
            n = l.name
        );
        for (i, f) in m.inputs(&l.name).iter().enumerate() {
            let getter = match (f.input.expect("input"), f.optional) {
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
            let _ = writeln!(
                o,
                "{}: src.{getter}(&FIELDS_{}[{i}])?,",
                ident(&f.name),
                l.name
            );
        }
        o.push_str("}) }\n");
    }
    o.push_str("impl<'a> Op<'a> {\n/// The leaf this op is for.\npub fn leaf(&self) -> &'static str { match self {\n");
    for l in &m.leaves {
        let _ = writeln!(o, "Op::{n}(_) => {n:?},", n = l.name);
    }
    if !m.leaves.iter().any(|l| borrows(m, &l.op)) {
        o.push_str("Op::_Life(_) => \"\",\n");
    }
    o.push_str("} }\n/// Builds the op of leaf `leaf` from `src`; `None` for an unknown leaf.\npub fn build<F: Fields<'a>>(leaf: &str, src: &F) -> Option<Result<Op<'a>, F::Error>> {\nSome(match leaf {\n");
    for l in &m.leaves {
        let _ = writeln!(
            o,
            "{:?} => build_{}(src).map(Op::{}),",
            l.name, l.op, l.name
        );
    }
    o.push_str("_ => return None,\n}) }\n}\n");
    o.push_str("/// Lowers one op with its leaf.\npub fn lower<'a>(op: &Op<'a>, fx: &mut Function) -> Outcome<'a> {\nmatch op {\n");
    for l in &m.leaves {
        let _ = writeln!(o, "Op::{n}(o) => lower_{n}(o, fx),", n = l.name);
    }
    if !m.leaves.iter().any(|l| borrows(m, &l.op)) {
        o.push_str("Op::_Life(_) => unreachable!(),\n");
    }
    o.push_str("}\n}\n");
}
