//! The resolved klr model (seed 003): enums, tables, partial layouts, and each leaf's
//! ordered steps with type-checked expressions. Emitters read only this.

use serde::Serialize;

use super::klr_expr::{KlrExpr, Ty};
use super::provenance::{Confidence, Evidence};
use super::words::{Alternative, TypeDef, TypeKind};

#[derive(Debug, Clone, Default, Serialize)]
pub struct KlrModel {
    /// Compiler-internal enums (`TypeKind::Enum`), in spec order.
    pub enums: Vec<TypeDef>,
    pub tables: Vec<KlrTable>,
    pub layouts: Vec<Layout>,
    /// In spec order (files sorted by path, then declaration order).
    pub leaves: Vec<KlrLeaf>,
    /// The source's field-offset reference, row by row.
    pub offsets: Vec<OffsetRow>,
    /// The source's transpose table, row by row.
    pub transposes: Vec<TransposeRow>,
    /// The family as the source's abstract states it.
    pub family: Option<Family>,
}

/// The leaf family as the source's abstract states it.
#[derive(Debug, Clone, Serialize)]
pub struct Family {
    /// First and last address of the band the source says the leaf bodies lie in.
    pub band: (u64, u64),
    /// Leaves of the roster whose `va` lies outside that band (the source's own
    /// inconsistency, kept as found).
    pub outside: Vec<String>,
    /// How many leaves the source says there are.
    pub stated_leaves: usize,
    /// How many the spec's roster (the source's leaf table) has; a difference is the
    /// source's own, kept as it says it.
    pub roster_leaves: usize,
    pub dispatch: Vec<String>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutOfRange {
    Fatal,
    Unknown,
}

#[derive(Debug, Clone, Serialize)]
pub struct KlrTable {
    pub name: String,
    pub function: Option<String>,
    pub doc: String,
    pub key: Option<String>,
    /// The klr enum of the entries, if `value` names one.
    #[serde(rename = "enum")]
    pub enum_: Option<String>,
    /// `value` as written when it is prose.
    pub value: Option<String>,
    pub entries: Vec<i64>,
    pub out_of_range: OutOfRange,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Klr,
    Bir,
    Aux,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Input {
    Ap,
    Aps,
    Imm,
    Imms,
    Int,
    Bool,
    Text,
}

impl Input {
    pub fn parse(s: &str) -> Option<Input> {
        Some(match s {
            "ap" => Input::Ap,
            "aps" => Input::Aps,
            "imm" => Input::Imm,
            "imms" => Input::Imms,
            "int" => Input::Int,
            "bool" => Input::Bool,
            "text" => Input::Text,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Input::Ap => "ap",
            Input::Aps => "aps",
            Input::Imm => "imm",
            Input::Imms => "imms",
            Input::Int => "int",
            Input::Bool => "bool",
            Input::Text => "text",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    pub name: String,
    pub qualified: String,
    pub side: Side,
    pub base: Option<String>,
    /// Total size when known.
    pub size: Option<usize>,
    pub to_string: Option<String>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    /// Fields with offsets first, by offset; then those without, in spec order.
    pub fields: Vec<LayoutField>,
    pub file: String,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct LayoutField {
    pub name: String,
    pub offset: Option<usize>,
    pub size: Option<usize>,
    /// The type as the source gives it.
    pub ty: String,
    pub input: Option<Input>,
    pub optional: bool,
    #[serde(rename = "enum")]
    pub enum_: Option<String>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub alternatives: Vec<Alternative>,
}

impl LayoutField {
    /// The expression type of an input field.
    pub fn expr_ty(&self) -> Option<Ty> {
        Some(match (self.input?, self.optional) {
            (Input::Ap, false) => Ty::Ap,
            (Input::Ap, true) => Ty::OptAp,
            (Input::Aps, _) => Ty::Aps,
            (Input::Imm, false) => Ty::Imm,
            (Input::Imm, true) => Ty::OptImm,
            (Input::Imms, _) => Ty::Imms,
            (Input::Int, _) => Ty::Int {
                enum_: self.enum_.clone(),
            },
            (Input::Bool, _) => Ty::Bool,
            (Input::Text, false) => Ty::Text,
            (Input::Text, true) => Ty::OptText,
        })
    }
}

/// An expression with the text it was written as.
#[derive(Debug, Clone, Serialize)]
pub struct Cond {
    pub text: String,
    pub expr: KlrExpr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckKind {
    Throw,
    Assert,
    Fatal,
}

impl CheckKind {
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::Throw => "throw",
            CheckKind::Assert => "assert",
            CheckKind::Fatal => "fatal",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EffectKind {
    Note,
    Node,
    Warning,
    Register,
}

impl EffectKind {
    pub fn name(self) -> &'static str {
        match self {
            EffectKind::Note => "note",
            EffectKind::Node => "node",
            EffectKind::Warning => "warning",
            EffectKind::Register => "register",
        }
    }
}

/// What a stamp writes.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum StampValue {
    /// A value the model computes.
    Expr { cond: Cond },
    /// A value the model does not compute, described.
    Opaque { what: String },
}

/// A check step: what the emitters read of it, in one place.
#[derive(Debug, Clone, Serialize)]
pub struct KlrCheck {
    /// The exact message; empty for an assert the source gives no message for.
    pub message: String,
    pub kind: CheckKind,
    /// `None` when the condition is opaque.
    pub when: Option<Cond>,
    /// The prose condition the model cannot evaluate.
    pub opaque: Option<String>,
    /// A list field checked entry by entry.
    pub each: Option<String>,
    /// Appended to the message as `to_string(n)`.
    pub append: Option<Cond>,
    /// The callee that owns the check.
    pub helper: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum StepKind {
    Check(KlrCheck),
    Route {
        to: String,
        when: Cond,
    },
    Let {
        name: String,
        value: Cond,
        show: bool,
    },
    Fork {
        label: String,
        paths: Vec<KlrPath>,
    },
    Stamp {
        /// The BIR field name at `offset`.
        field: String,
        offset: usize,
        value: StampValue,
        when: Option<Cond>,
    },
    Effect {
        text: String,
        kind: EffectKind,
        when: Option<Cond>,
        /// (memo name, key expression).
        memo: Option<(String, Cond)>,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct Step {
    #[serde(flatten)]
    pub kind: StepKind,
    /// The fork paths the step is limited to (indices into the fork's paths); empty
    /// means every path (or the step comes before the fork). In JSON `on_paths`: a fork
    /// step's own `paths` share the object.
    #[serde(rename = "on_paths")]
    pub paths: Vec<usize>,
    pub doc: Option<String>,
    pub note: Option<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct KlrPath {
    pub name: String,
    pub when: Option<Cond>,
    /// The BIR layout name.
    pub class: String,
    /// (InstructionType enumerator, value), when the source gives one.
    pub it: Option<(String, i64)>,
    pub prefix: Option<String>,
    pub build: String,
    pub bind: Vec<Bind>,
    /// The words (spec structs bound to an opcode) the node is encoded as, in stream
    /// order; empty where no source says.
    pub words: Vec<String>,
    pub doc: Option<String>,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Bind {
    pub role: String,
    pub operand: Option<String>,
    pub what: Option<String>,
    pub when: Option<Cond>,
    pub note: Option<String>,
}

/// The binding roles.
pub const ROLES: &[&str] = &[
    "argument",
    "output",
    "builder",
    "operand",
    "dynamic-ap",
    "base",
];

#[derive(Debug, Clone, Serialize)]
pub struct KlrLeaf {
    pub name: String,
    /// The klr layout it takes.
    pub op: String,
    pub function: String,
    pub va: u64,
    pub section: String,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub steps: Vec<Step>,
    pub file: String,
    pub line: usize,
}

impl KlrLeaf {
    /// The fork's paths (every leaf has exactly one fork).
    pub fn paths(&self) -> &[KlrPath] {
        self.steps
            .iter()
            .find_map(|s| match &s.kind {
                StepKind::Fork { paths, .. } => Some(paths.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// The leaves this one routes to.
    pub fn routes(&self) -> impl Iterator<Item = &str> {
        self.steps.iter().filter_map(|s| match &s.kind {
            StepKind::Route { to, .. } => Some(to.as_str()),
            _ => None,
        })
    }

    /// Offsets the leaf stamps, in step order.
    pub fn stamped_offsets(&self) -> Vec<usize> {
        self.steps
            .iter()
            .filter_map(|s| match &s.kind {
                StepKind::Stamp { offset, .. } => Some(*offset),
                _ => None,
            })
            .collect()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct OffsetRow {
    pub offset: usize,
    pub field: String,
    pub who: String,
    pub writers: Vec<String>,
    pub values: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TransposeRow {
    pub klr: String,
    pub leaf: String,
    pub path: Option<String>,
    pub engine: String,
    pub encoding: String,
    pub constraint: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

impl KlrModel {
    pub fn layout(&self, name: &str) -> Option<&Layout> {
        self.layouts.iter().find(|l| l.name == name)
    }

    pub fn leaf(&self, name: &str) -> Option<&KlrLeaf> {
        self.leaves.iter().find(|l| l.name == name)
    }

    pub fn table(&self, name: &str) -> Option<&KlrTable> {
        self.tables.iter().find(|t| t.name == name)
    }

    pub fn enum_def(&self, name: &str) -> Option<&TypeDef> {
        self.enums.iter().find(|t| t.name == name)
    }

    /// (name, value) of a klr enum's enumerators.
    pub fn enumerators(&self, name: &str) -> Vec<(&str, u64)> {
        match self.enum_def(name).map(|t| &t.kind) {
            Some(TypeKind::Enum { values, .. }) => {
                values.iter().map(|v| (v.name.as_str(), v.value)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The enumerator of `value` in klr enum `name`.
    pub fn enum_name(&self, name: &str, value: i64) -> Option<&str> {
        self.enumerators(name)
            .into_iter()
            .find(|(_, v)| *v as i64 == value)
            .map(|(n, _)| n)
    }

    /// A BIR class and its bases, most derived first.
    pub fn class_chain(&self, name: &str) -> Vec<&Layout> {
        let mut out: Vec<&Layout> = Vec::new();
        let mut cur = self.layout(name);
        while let Some(l) = cur {
            if out.iter().any(|x| x.name == l.name) {
                break;
            }
            out.push(l);
            cur = l.base.as_deref().and_then(|b| self.layout(b));
        }
        out
    }

    /// The field at `offset` of a BIR class or one of its bases.
    pub fn class_field(&self, class: &str, offset: usize) -> Option<(&Layout, &LayoutField)> {
        self.class_chain(class).into_iter().find_map(|l| {
            l.fields
                .iter()
                .find(|f| f.offset == Some(offset))
                .map(|f| (l, f))
        })
    }

    /// The input fields of a klr layout, in declaration order.
    pub fn inputs(&self, layout: &str) -> Vec<&LayoutField> {
        self.layout(layout)
            .map(|l| l.fields.iter().filter(|f| f.input.is_some()).collect())
            .unwrap_or_default()
    }
}
