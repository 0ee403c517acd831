//! Support for the generated KLR→BIR leaves (`words::klr`, seed 003): the op inputs
//! (access patterns, immediates), the BIR node a leaf builds, the compiler's errors, the
//! leaf metadata and the three-valued evaluation the leaves' conditions compile to.
//!
//! Values are three-valued: an input the op description leaves out (a dtype, a step)
//! makes the conditions that read it unknown (`None`); a check that cannot be decided is
//! listed in the node's `unevaluated`, a fork or route that cannot be decided gives
//! [`Outcome::Undetermined`]. Nothing here allocates: lists are borrowed slices and the
//! node's lists are fixed-capacity [`Seq`]s whose capacities the generated module sizes
//! from the spec (its `Node` alias).

use core::fmt;

use super::meta::{Confidence, EnumeratorMeta, Evidence};

/// The most access-pattern dimensions an op carries.
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
    /// A static access of this shape; the rank is the shape's length (saturating).
    pub const fn new(shape: &'a [i64]) -> Ap<'a> {
        let rank = if shape.len() > u32::MAX as usize {
            u32::MAX
        } else {
            shape.len() as u32
        };
        Ap {
            rank,
            shape,
            dtype: None,
            dynamic: Dynamic::Static,
            step0: None,
            indirect_dim: None,
        }
    }
    pub const fn rank(mut self, rank: u32) -> Self {
        self.rank = rank;
        self
    }
    pub const fn dtype(mut self, dtype: i64) -> Self {
        self.dtype = Some(dtype);
        self
    }
    pub const fn scalar(mut self) -> Self {
        self.dynamic = Dynamic::Scalar;
        self
    }
    pub const fn vector(mut self) -> Self {
        self.dynamic = Dynamic::Vector;
        self
    }
    pub const fn step0(mut self, step: i64) -> Self {
        self.step0 = Some(step);
        self
    }
    pub const fn indirect_dim(mut self, dim: i64) -> Self {
        self.indirect_dim = Some(dim);
        self
    }
}

/// An immediate operand: an int, a float, or something that is not an immediate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Imm {
    Int(i64),
    Float(f64),
    /// Not an immediate (a tensor or register operand).
    Other,
}

/// A fixed-capacity list; pushes past the capacity are dropped.
#[derive(Clone, Copy, Debug)]
pub struct Seq<T: Copy, const N: usize> {
    len: usize,
    items: [Option<T>; N],
}

impl<T: Copy, const N: usize> Seq<T, N> {
    pub const fn new() -> Self {
        Seq {
            len: 0,
            items: [None; N],
        }
    }
    /// Appends `t`, or drops it when the list is full.
    pub fn push(&mut self, t: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = Some(t);
            self.len += 1;
        }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i).and_then(Option::as_ref)
    }
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.items.iter().take(self.len).flatten()
    }
}

impl<T: Copy, const N: usize> Default for Seq<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

/// A stamped or computed value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    Int(i64),
    Bool(bool),
    /// A value of a klr enum, with its enumerator when it has one.
    Enum {
        ty: &'static str,
        name: Option<&'static str>,
        raw: i64,
    },
    /// A one-element vector.
    One(i64),
    Imm(Imm),
    Imms(&'a [Imm]),
    /// A value the model does not compute; the text says what it is.
    Opaque(&'static str),
    /// Depends on an input the op description leaves out; the text is the expression.
    Missing(&'static str),
}

impl<'a> Value<'a> {
    /// `make(v)`, or [`Value::Missing`] with `expr` when `v` is unknown.
    pub fn known<T>(v: Option<T>, make: impl FnOnce(T) -> Value<'a>, expr: &'static str) -> Self {
        v.map_or(Value::Missing(expr), make)
    }
    /// A value of klr enum `ty` (enumerators `list`), or [`Value::Missing`] with `expr`.
    pub fn enum_of(
        ty: &'static str,
        list: &'static [EnumeratorMeta],
        v: Option<i64>,
        expr: &'static str,
    ) -> Self {
        Value::known(
            v,
            |raw| Value::Enum {
                ty,
                name: enumerator(list, raw),
                raw,
            },
            expr,
        )
    }
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
        match self {
            ErrorKind::Throw => "throw",
            ErrorKind::Assert => "assert",
            ErrorKind::Fatal => "fatal",
        }
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
    pub fn write_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)?;
        if let Some(a) = self.arg
            && !self.message.is_empty()
        {
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            match (self.kind, self.helper, self.arg) {
                (ErrorKind::Fatal, Some(h), Some(a)) => write!(f, "fatal: {h} has no entry {a}"),
                _ => write!(
                    f,
                    "{} failed (no message): {}",
                    self.kind.name(),
                    self.condition
                ),
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
    /// `fork to <path>` or `route to <leaf>`.
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
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
}

impl PathInfo {
    /// No path yet: what a node carries until its leaf's fork picks one, and the base
    /// the generated records fill in with `..PathInfo::NONE`.
    pub const NONE: PathInfo = PathInfo {
        name: "",
        when: None,
        class: "",
        it: None,
        prefix: None,
        build: "",
        confidence: Confidence::UNSTATED,
        evidence: &[],
    };
}

/// The BIR node an op becomes; the generated module fixes the list capacities
/// (its `Node` alias).
#[derive(Clone, Copy, Debug)]
pub struct Node<
    'a,
    const STAMPS: usize,
    const BINDINGS: usize,
    const EFFECTS: usize,
    const SHOWN: usize,
    const UNEVALUATED: usize,
> {
    /// The leaf that built it.
    pub leaf: &'static str,
    /// The leaf that routed the op here.
    pub routed_from: Option<&'static str>,
    pub path: PathInfo,
    pub stamps: Seq<Stamp<'a>, STAMPS>,
    pub bindings: Seq<Binding, BINDINGS>,
    pub effects: Seq<Effect, EFFECTS>,
    pub shown: Seq<Shown<'a>, SHOWN>,
    pub unevaluated: Seq<Unevaluated, UNEVALUATED>,
}

impl<'a, const S: usize, const B: usize, const E: usize, const SH: usize, const U: usize>
    Node<'a, S, B, E, SH, U>
{
    /// The node `leaf` starts from, before its steps run.
    pub const fn new(leaf: &'static str, routed_from: Option<&'static str>) -> Self {
        Node {
            leaf,
            routed_from,
            path: PathInfo::NONE,
            stamps: Seq::new(),
            bindings: Seq::new(),
            effects: Seq::new(),
            shown: Seq::new(),
            unevaluated: Seq::new(),
        }
    }
    /// Records the stamp the node's class holds at `offset`.
    pub fn add_stamp(
        &mut self,
        offset: u32,
        class: &'static str,
        field: &'static str,
        value: Value<'a>,
    ) {
        self.stamps.push(Stamp {
            offset,
            class,
            field,
            value,
        });
    }
    /// Records how the node's path binds an operand.
    pub fn add_binding(
        &mut self,
        role: &'static str,
        operand: Option<&'static str>,
        what: Option<&'static str>,
        note: Option<&'static str>,
    ) {
        self.bindings.push(Binding {
            role,
            operand,
            what,
            note,
        });
    }
    /// Records a side effect of lowering.
    pub fn add_effect(&mut self, kind: &'static str, text: &'static str, key: Option<i64>) {
        self.effects.push(Effect { kind, text, key });
    }
    /// Records a computed value the spec lists in the results.
    pub fn add_shown(&mut self, name: &'static str, value: Value<'a>) {
        self.shown.push(Shown { name, value });
    }
    /// Records a check or step whose condition the op does not decide.
    pub fn add_unevaluated(&mut self, what: &'static str, condition: &'static str) {
        self.unevaluated.push(Unevaluated { what, condition });
    }
    /// The error a failed check of this node's leaf reports.
    pub const fn error(
        &self,
        kind: ErrorKind,
        arg: Option<i64>,
        message: &'static str,
        condition: &'static str,
        helper: Option<&'static str>,
    ) -> Error {
        Error {
            leaf: self.leaf,
            routed_from: self.routed_from,
            kind,
            message,
            arg,
            condition,
            helper,
        }
    }
    /// Where this node's leaf stops because the op does not decide `condition`.
    pub const fn undetermined(&self, at: &'static str, condition: &'static str) -> Undetermined {
        Undetermined {
            leaf: self.leaf,
            routed_from: self.routed_from,
            at,
            condition,
        }
    }
    /// A check of the leaf: its error (with `arg` appended) when `verdict` holds, listed
    /// in `unevaluated` when the op does not decide it.
    pub fn check(
        &mut self,
        verdict: Option<bool>,
        arg: Option<i64>,
        kind: ErrorKind,
        message: &'static str,
        condition: &'static str,
        helper: Option<&'static str>,
    ) -> Result<(), Stop> {
        self.check_each([(verdict, arg)], kind, message, condition, helper)
    }
    /// A check of every entry of a list, as `(verdict, arg)` per entry: the first entry
    /// it holds for fails it; listed once in `unevaluated` when some entry is undecided.
    pub fn check_each(
        &mut self,
        entries: impl IntoIterator<Item = (Option<bool>, Option<i64>)>,
        kind: ErrorKind,
        message: &'static str,
        condition: &'static str,
        helper: Option<&'static str>,
    ) -> Result<(), Stop> {
        let mut undecided = false;
        for (verdict, arg) in entries {
            match verdict {
                Some(true) => {
                    let e = self.error(kind, arg, message, condition, helper);
                    return Err(Stop::Error(e));
                }
                Some(false) => {}
                None => undecided = true,
            }
        }
        if undecided {
            self.add_undecided_check(message, condition);
        }
        Ok(())
    }
    /// Lists a check the op does not decide (or the model cannot evaluate).
    pub fn add_undecided_check(&mut self, message: &'static str, condition: &'static str) {
        let what = if message.is_empty() {
            "an assert with no message"
        } else {
            message
        };
        self.add_unevaluated(what, condition);
    }
    /// A fork's or route's condition: stops the leaf when the op does not decide it.
    pub const fn decide(
        &self,
        verdict: Option<bool>,
        at: &'static str,
        condition: &'static str,
    ) -> Result<bool, Stop> {
        match verdict {
            Some(v) => Ok(v),
            None => Err(Stop::Undetermined(self.undetermined(at, condition))),
        }
    }
    /// A conditional step's condition: an undecided one is listed as `what` and the step
    /// skipped.
    pub fn applies(
        &mut self,
        verdict: Option<bool>,
        what: &'static str,
        condition: &'static str,
    ) -> bool {
        if verdict.is_none() {
            self.add_unevaluated(what, condition);
        }
        verdict == Some(true)
    }
    /// Entry `k` of a table whose out-of-range lookup is fatal (`site` owns the table).
    pub fn lookup(
        &self,
        table: &[i64],
        k: Option<i64>,
        condition: &'static str,
        site: &'static str,
    ) -> Result<Option<i64>, Stop> {
        let Some(k) = k else { return Ok(None) };
        match usize::try_from(k).ok().and_then(|i| table.get(i)) {
            Some(v) => Ok(Some(*v)),
            None => {
                let e = self.error(ErrorKind::Fatal, Some(k), "", condition, Some(site));
                Err(Stop::Error(e))
            }
        }
    }
    /// The stamp at `offset`.
    pub fn stamp(&self, offset: u32) -> Option<&Stamp<'a>> {
        self.stamps.iter().find(|s| s.offset == offset)
    }
    /// The raw value of the first stamp of klr enum `ty` (`"DGEType"`: the node's DGE type).
    pub fn enum_stamp(&self, ty: &str) -> Option<i64> {
        self.stamps.iter().find_map(|s| match s.value {
            Value::Enum { ty: t, raw, .. } if t == ty => Some(raw),
            _ => None,
        })
    }
}

/// What a leaf returns for an op: the node `N` it builds (the generated module's `Node`),
/// or why it builds none.
#[derive(Clone, Copy, Debug)]
pub enum Outcome<N> {
    Node(N),
    Error(Error),
    Undetermined(Undetermined),
}

/// Why a leaf's steps stop before the node is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Error(Error),
    Undetermined(Undetermined),
}

impl<N> From<Result<N, Stop>> for Outcome<N> {
    fn from(steps: Result<N, Stop>) -> Self {
        match steps {
            Ok(n) => Outcome::Node(n),
            Err(Stop::Error(e)) => Outcome::Error(e),
            Err(Stop::Undetermined(u)) => Outcome::Undetermined(u),
        }
    }
}

impl<N> Outcome<N> {
    pub fn node(&self) -> Option<&N> {
        match self {
            Outcome::Node(n) => Some(n),
            _ => None,
        }
    }
    pub fn error(&self) -> Option<&Error> {
        match self {
            Outcome::Error(e) => Some(e),
            _ => None,
        }
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
    fn default() -> Self {
        Self::new()
    }
}

impl Function {
    pub const fn new() -> Self {
        Function {
            seen: [(0, 0); 256],
            len: 0,
        }
    }
    /// Whether `(memo, key)` is new, recording it. An unknown key is always new; past
    /// 256 keys new ones are no longer recorded (and so stay new).
    pub fn first(&mut self, memo: u8, key: Option<i64>) -> bool {
        let Some(key) = key else { return true };
        if self.seen[..self.len].contains(&(memo, key)) {
            return false;
        }
        if let Some(slot) = self.seen.get_mut(self.len) {
            *slot = (memo, key);
            self.len += 1;
        }
        true
    }
}

/// What the leaves' conditions compile to: three-valued logic (`None` is unknown), table
/// lookups and the functions conditions may call on an access or an immediate.
pub mod eval {
    use super::{Ap, Dynamic, Imm};

    /// A text memo key (FNV-1a).
    pub fn text_key(s: &str) -> i64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in s.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h as i64
    }

    pub fn not(a: Option<bool>) -> Option<bool> {
        a.map(|x| !x)
    }

    /// False if either side is false, even when the other is unknown.
    pub fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
        match (a, b) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        }
    }

    /// True if either side is true, even when the other is unknown.
    pub fn or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
        match (a, b) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        }
    }

    /// `f(a, b)` when both are known.
    pub fn cmp<T: Copy>(a: Option<T>, b: Option<T>, f: impl Fn(T, T) -> bool) -> Option<bool> {
        Some(f(a?, b?))
    }

    /// Entry `k` of `t`; unknown past either end.
    pub fn lookup(t: &[i64], k: Option<i64>) -> Option<i64> {
        t.get(usize::try_from(k?).ok()?).copied()
    }

    pub fn dynamic(a: &Ap) -> Option<bool> {
        Some(a.dynamic != Dynamic::Static)
    }
    pub fn scalar_offset(a: &Ap) -> Option<bool> {
        Some(a.dynamic == Dynamic::Scalar)
    }
    pub fn vector_offset(a: &Ap) -> Option<bool> {
        Some(a.dynamic == Dynamic::Vector)
    }
    pub fn rank(a: &Ap) -> Option<i64> {
        Some(i64::from(a.rank))
    }
    pub fn dtype(a: &Ap) -> Option<i64> {
        a.dtype
    }
    pub fn step0(a: &Ap) -> Option<i64> {
        a.step0
    }
    pub fn indirect_dim(a: &Ap) -> Option<i64> {
        a.indirect_dim
    }
    pub fn same_shape(a: &Ap, b: &Ap) -> Option<bool> {
        Some(a.shape == b.shape)
    }
    pub fn is_int(i: &Imm) -> Option<bool> {
        Some(matches!(i, Imm::Int(_)))
    }
    pub fn is_float(i: &Imm) -> Option<bool> {
        Some(matches!(i, Imm::Float(_)))
    }
    pub fn is_immediate(i: &Imm) -> Option<bool> {
        Some(!matches!(i, Imm::Other))
    }
}

/// The enumerator of raw value `v` among `list`.
pub fn enumerator(list: &'static [EnumeratorMeta], v: i64) -> Option<&'static str> {
    let v = u64::try_from(v).ok()?;
    list.iter().find(|e| e.value == v).map(|e| e.name)
}

/// Every klr enum of a module, by name: its `enums::ALL`.
pub type Enums = [(&'static str, &'static [EnumeratorMeta])];

/// The enumerator of `v` in enum `ty` of `all`.
pub fn enum_name(all: &Enums, ty: &str, v: i64) -> Option<&'static str> {
    enumerator(all.iter().find(|e| e.0 == ty)?.1, v)
}

/// The value of enumerator `name` of enum `ty` of `all`.
pub fn enum_value(all: &Enums, ty: &str, name: &str) -> Option<i64> {
    let e = all
        .iter()
        .find(|e| e.0 == ty)?
        .1
        .iter()
        .find(|e| e.name == name)?;
    i64::try_from(e.value).ok()
}

/// How an op description carries a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Ap,
    Aps,
    Imm,
    Imms,
    Int,
    Bool,
    Text,
}

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
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
}

impl FieldMeta {
    /// The base the generated records fill in with `..FieldMeta::DEFAULT`: a required
    /// int with no enum, offset, doc or provenance.
    pub const DEFAULT: FieldMeta = FieldMeta {
        name: "",
        input: Input::Int,
        optional: false,
        enum_ty: None,
        offset: None,
        doc: "",
        confidence: Confidence::UNSTATED,
        evidence: &[],
    };
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
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
}

/// The leaf called `name` among `leaves`.
pub fn find_leaf(leaves: &'static [LeafMeta], name: &str) -> Option<&'static LeafMeta> {
    leaves.iter().find(|l| l.name == name)
}

/// Where the generated `Op::build` gets each field from (the CLI's JSON reader, for one).
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

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::eval::*;
    use super::*;

    const B3: [Option<bool>; 3] = [Some(false), Some(true), None];

    #[test]
    fn and_or_are_kleene() {
        // Rows a, columns b: false, true, unknown.
        let and_table = [
            [Some(false), Some(false), Some(false)],
            [Some(false), Some(true), None],
            [Some(false), None, None],
        ];
        let or_table = [
            [Some(false), Some(true), None],
            [Some(true), Some(true), Some(true)],
            [None, Some(true), None],
        ];
        for (i, a) in B3.into_iter().enumerate() {
            for (j, b) in B3.into_iter().enumerate() {
                assert_eq!(and(a, b), and_table[i][j], "{a:?} && {b:?}");
                assert_eq!(or(a, b), or_table[i][j], "{a:?} || {b:?}");
            }
        }
        assert_eq!(B3.map(not), [Some(true), Some(false), None]);
    }

    #[test]
    fn comparisons_and_lookups_are_unknown_on_unknown_input() {
        assert_eq!(cmp(Some(3), Some(4), |a, b| a < b), Some(true));
        assert_eq!(cmp(Some(4), Some(4), |a, b| a != b), Some(false));
        assert_eq!(cmp(None, Some(4), |a: i64, b| a == b), None);
        // translateDGEMode (spec/klr/enums.toml): {3, 1, 2, 0}.
        let t = [3, 1, 2, 0];
        assert_eq!(lookup(&t, Some(1)), Some(1));
        assert_eq!(lookup(&t, Some(3)), Some(0));
        assert_eq!(lookup(&t, Some(4)), None);
        assert_eq!(lookup(&t, Some(-1)), None);
        assert_eq!(lookup(&t, None), None);
    }

    #[test]
    fn access_functions_read_the_access() {
        let shape = [128, 512];
        let st = Ap::new(&shape);
        assert_eq!(st.rank, 2);
        assert_eq!(
            (dynamic(&st), rank(&st), dtype(&st)),
            (Some(false), Some(2), None)
        );
        let sc = st.scalar().dtype(10).step0(4);
        assert_eq!(
            (dynamic(&sc), scalar_offset(&sc), vector_offset(&sc)),
            (Some(true), Some(true), Some(false))
        );
        assert_eq!(
            (dtype(&sc), step0(&sc), indirect_dim(&sc)),
            (Some(10), Some(4), None)
        );
        assert_eq!(vector_offset(&st.vector().indirect_dim(1)), Some(true));
        assert_eq!(indirect_dim(&st.indirect_dim(1)), Some(1));
        assert_eq!(same_shape(&st, &sc), Some(true));
        assert_eq!(same_shape(&st, &Ap::new(&shape[..1])), Some(false));
        let imms = [Imm::Int(1), Imm::Float(0.5), Imm::Other];
        assert_eq!(
            imms.map(|i| is_int(&i)),
            [Some(true), Some(false), Some(false)]
        );
        assert_eq!(
            imms.map(|i| is_float(&i)),
            [Some(false), Some(true), Some(false)]
        );
        assert_eq!(
            imms.map(|i| is_immediate(&i)),
            [Some(true), Some(true), Some(false)]
        );
    }

    #[test]
    fn seq_keeps_order_and_drops_past_capacity() {
        let mut s: Seq<u8, 2> = Seq::new();
        assert!(s.is_empty());
        s.push(7);
        s.push(8);
        s.push(9);
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().copied().collect::<std::vec::Vec<_>>(), [7, 8]);
        assert_eq!((s.get(1), s.get(2)), (Some(&8), None));
    }

    #[test]
    fn a_memo_fires_once_per_key_and_always_for_an_unknown_key() {
        let mut f = Function::new();
        assert!(f.first(0, Some(5)));
        assert!(!f.first(0, Some(5)));
        assert!(f.first(1, Some(5)), "another memo");
        assert!(f.first(0, None));
        assert!(f.first(0, None));
        assert_eq!(text_key("a"), 0xaf63_dc4c_8601_ec8c_u64 as i64);
        assert_ne!(text_key("ab"), text_key("ba"));
    }

    #[test]
    fn errors_print_the_message_and_its_argument() {
        let e = Error {
            leaf: "NcDmaCopy",
            routed_from: None,
            kind: ErrorKind::Throw,
            message: "Unsupported DMA compute_op ",
            arg: Some(7),
            condition: "compute_op != DgeComputeOp.none && compute_op != DgeComputeOp.add",
            helper: None,
        };
        assert_eq!(e.to_string(), "Unsupported DMA compute_op 7");
        // spec/klr/leaves/02_dma.toml: `let dge = translateDGEMode(dgeMode)`, fatal past 3.
        let fatal = Error {
            kind: ErrorKind::Fatal,
            message: "",
            arg: Some(4),
            condition: "translateDGEMode(dgeMode)",
            helper: Some("translateDGEMode @0xf14b60"),
            ..e
        };
        assert_eq!(
            fatal.to_string(),
            "fatal: translateDGEMode @0xf14b60 has no entry 4"
        );
        let unsourced = Error {
            helper: None,
            ..fatal
        };
        assert_eq!(
            unsourced.to_string(),
            "fatal failed (no message): translateDGEMode(dgeMode)"
        );
    }

    #[test]
    fn enums_by_name_and_nodes_by_stamp() {
        const DGE: &[EnumeratorMeta] = &[
            EnumeratorMeta {
                name: "None",
                value: 0,
                c_name: "bir::DGEType::None",
                aliases: &[],
                arch: &[],
                engine: None,
            },
            EnumeratorMeta {
                name: "HWDGE",
                value: 2,
                c_name: "bir::DGEType::HWDGE",
                aliases: &[],
                arch: &[],
                engine: None,
            },
        ];
        let all: &Enums = &[("DGEType", DGE)];
        assert_eq!(enum_name(all, "DGEType", 2), Some("HWDGE"));
        assert_eq!(enum_name(all, "DGEType", -1), None);
        assert_eq!(enum_name(all, "Other", 0), None);
        assert_eq!(enum_value(all, "DGEType", "None"), Some(0));
        let mut n: Node<'_, 2, 1, 1, 1, 1> = Node::new("NcDmaCopy", None);
        assert_eq!(n.enum_stamp("DGEType"), None);
        n.stamps.push(Stamp {
            offset: 0xf8,
            class: "bir::InstDMA",
            field: "dge_type",
            value: Value::Enum {
                ty: "DGEType",
                name: enumerator(DGE, 2),
                raw: 2,
            },
        });
        assert_eq!(n.enum_stamp("DGEType"), Some(2));
        assert_eq!(
            n.stamp(0xf8).map(|s| s.value),
            Some(Value::Enum {
                ty: "DGEType",
                name: Some("HWDGE"),
                raw: 2
            })
        );
        assert_eq!(n.path, PathInfo::NONE);
    }

    #[test]
    fn steps_stop_on_a_failed_check_or_an_undecided_fork() {
        type N = Node<'static, 1, 1, 1, 1, 2>;
        let mut n: N = Node::new("NcDmaCopy", None);
        // spec/klr/leaves/02_dma.toml: "Unsupported DMA compute_op " + compute_op.
        let message = "Unsupported DMA compute_op ";
        let cond = "compute_op != DgeComputeOp.none && compute_op != DgeComputeOp.add";
        assert_eq!(
            n.check(Some(false), Some(7), ErrorKind::Throw, message, cond, None),
            Ok(())
        );
        assert_eq!(
            n.check(None, Some(7), ErrorKind::Throw, message, cond, None),
            Ok(())
        );
        assert_eq!(n.unevaluated.get(0).map(|u| u.what), Some(message));
        let stop = n.check(Some(true), Some(7), ErrorKind::Throw, message, cond, None);
        let Err(Stop::Error(e)) = stop else {
            panic!("{stop:?}")
        };
        assert_eq!(e.to_string(), "Unsupported DMA compute_op 7");
        // An assert with no message, over a list with an undecided entry.
        let each = [(Some(false), None), (None, None)];
        assert_eq!(
            n.check_each(each, ErrorKind::Assert, "", "!is_float(it)", None),
            Ok(())
        );
        assert_eq!(
            n.unevaluated.get(1).map(|u| u.what),
            Some("an assert with no message")
        );
        // translateDGEMode (spec/klr/enums.toml): {3, 1, 2, 0}, fatal past 3.
        let t = [3, 1, 2, 0];
        let site = "translateDGEMode @0xf14b60";
        assert_eq!(
            n.lookup(&t, Some(1), "translateDGEMode(dgeMode)", site),
            Ok(Some(1))
        );
        assert_eq!(
            n.lookup(&t, None, "translateDGEMode(dgeMode)", site),
            Ok(None)
        );
        let fatal = n.lookup(&t, Some(4), "translateDGEMode(dgeMode)", site);
        assert!(matches!(fatal, Err(Stop::Error(e)) if e.arg == Some(4) && e.helper == Some(site)));
        assert_eq!(
            n.decide(Some(true), "fork to static", "!dynamic(src)"),
            Ok(true)
        );
        let undecided: Outcome<N> = n
            .decide(None, "fork to static", "!dynamic(src)")
            .map(|_| n)
            .into();
        assert_eq!(undecided.node().map(|n| n.leaf), None);
        assert!(matches!(undecided, Outcome::Undetermined(u) if u.at == "fork to static"));
        assert!(n.applies(
            Some(true),
            "stamp of op at +0x140",
            "compute_op == DgeComputeOp.add"
        ));
        assert!(!n.applies(
            Some(false),
            "stamp of op at +0x140",
            "compute_op == DgeComputeOp.add"
        ));
        assert_eq!(
            Value::known(None::<i64>, Value::Int, "dge"),
            Value::Missing("dge")
        );
        assert_eq!(
            Value::known(Some(true), Value::Bool, "oobMode != 1"),
            Value::Bool(true)
        );
    }
}
