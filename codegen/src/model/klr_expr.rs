//! The small expression language of the klr rules: conditions, stamped values and `let`
//! values over a klr op's input fields.
//!
//! The text is a Rust expression (parsed and type-checked by `load/klr_expr.rs`) of:
//! integers, `true` / `false`, `!`, `&&`, `||`, the comparisons, `( … )`, `[x]` (a
//! one-element list), `Enum.Value`, `name(args)` and `name`. Operators bind as in Rust.
//!
//! A name is an input field of the op, a `let` value, or `it` (the entry an `each` check
//! is looking at). Calls are the built-in functions of [`Func`] or a klr table. Every
//! value may be unknown (an input the op description leaves out); the generated code
//! evaluates with three-valued logic.

use serde::Serialize;

/// The type of an expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ty {
    Bool,
    /// An integer, named by a klr enum when it has one.
    Int {
        #[serde(rename = "enum")]
        enum_: Option<String>,
    },
    /// An access pattern.
    Ap,
    /// An optional access pattern (usable only as a whole value).
    OptAp,
    Aps,
    Imm,
    OptImm,
    Imms,
    Text,
    OptText,
    /// A one-element vector of an integer.
    List1,
}

impl Ty {
    pub fn int() -> Ty {
        Ty::Int { enum_: None }
    }
    pub fn name(&self) -> String {
        match self {
            Ty::Bool => "bool".into(),
            Ty::Int { enum_: Some(e) } => format!("int ({e})"),
            Ty::Int { enum_: None } => "int".into(),
            Ty::Ap => "access pattern".into(),
            Ty::OptAp => "optional access pattern".into(),
            Ty::Aps => "list of access patterns".into(),
            Ty::Imm => "immediate".into(),
            Ty::OptImm => "optional immediate".into(),
            Ty::Imms => "list of immediates".into(),
            Ty::Text => "text".into(),
            Ty::OptText => "optional text".into(),
            Ty::List1 => "one-element list".into(),
        }
    }
}

/// The built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Func {
    /// `isAccessDynamic`: a scalar or a vector offset is present.
    Dynamic,
    ScalarOffset,
    VectorOffset,
    /// Number of access-pattern pairs.
    Rank,
    /// The BIR dtype id.
    Dtype,
    /// `AP[0].step`.
    Step0,
    /// The BirAccessPattern's `indirect_dim` (+0x60).
    IndirectDim,
    SameShape,
    IsInt,
    IsFloat,
    IsImmediate,
}

impl Func {
    pub const ALL: &'static [Func] = &[
        Func::Dynamic,
        Func::ScalarOffset,
        Func::VectorOffset,
        Func::Rank,
        Func::Dtype,
        Func::Step0,
        Func::IndirectDim,
        Func::SameShape,
        Func::IsInt,
        Func::IsFloat,
        Func::IsImmediate,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Func::Dynamic => "dynamic",
            Func::ScalarOffset => "scalar_offset",
            Func::VectorOffset => "vector_offset",
            Func::Rank => "rank",
            Func::Dtype => "dtype",
            Func::Step0 => "step0",
            Func::IndirectDim => "indirect_dim",
            Func::SameShape => "same_shape",
            Func::IsInt => "is_int",
            Func::IsFloat => "is_float",
            Func::IsImmediate => "is_immediate",
        }
    }

    pub fn params(self) -> &'static [Ty] {
        match self {
            Func::SameShape => &[Ty::Ap, Ty::Ap],
            Func::IsInt | Func::IsFloat | Func::IsImmediate => &[Ty::Imm],
            _ => &[Ty::Ap],
        }
    }

    pub fn result(self) -> Ty {
        match self {
            Func::Rank | Func::Step0 | Func::IndirectDim => Ty::int(),
            Func::Dtype => Ty::Int {
                enum_: Some("BirDtype".into()),
            },
            _ => Ty::Bool,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CmpOp {
    #[serde(rename = "==")]
    Eq,
    #[serde(rename = "!=")]
    Ne,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A type-checked expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KlrExpr {
    Int {
        value: i64,
    },
    Bool {
        value: bool,
    },
    /// `Enum.Value`.
    Const {
        #[serde(rename = "enum")]
        enum_: String,
        name: String,
        value: i64,
    },
    /// An input field of the op.
    Field {
        name: String,
        ty: Ty,
    },
    /// A `let` value of the leaf.
    Var {
        name: String,
        ty: Ty,
    },
    /// The entry an `each` check is looking at.
    It {
        ty: Ty,
    },
    Call {
        func: Func,
        args: Vec<KlrExpr>,
    },
    /// A klr table lookup; `fatal` tables stop the compiler past their end.
    Table {
        name: String,
        arg: Box<KlrExpr>,
        fatal: bool,
        /// The klr enum of its entries, if any.
        #[serde(rename = "enum")]
        enum_: Option<String>,
    },
    Not {
        e: Box<KlrExpr>,
    },
    And {
        l: Box<KlrExpr>,
        r: Box<KlrExpr>,
    },
    Or {
        l: Box<KlrExpr>,
        r: Box<KlrExpr>,
    },
    Cmp {
        op: CmpOp,
        l: Box<KlrExpr>,
        r: Box<KlrExpr>,
    },
    List1 {
        e: Box<KlrExpr>,
    },
}

impl KlrExpr {
    pub fn ty(&self) -> Ty {
        match self {
            KlrExpr::Int { .. } => Ty::int(),
            KlrExpr::Bool { .. }
            | KlrExpr::Not { .. }
            | KlrExpr::And { .. }
            | KlrExpr::Or { .. }
            | KlrExpr::Cmp { .. } => Ty::Bool,
            KlrExpr::Const { enum_, .. } => Ty::Int {
                enum_: Some(enum_.clone()),
            },
            KlrExpr::Field { ty, .. } | KlrExpr::Var { ty, .. } | KlrExpr::It { ty } => ty.clone(),
            KlrExpr::Call { func, .. } => func.result(),
            KlrExpr::Table { enum_, .. } => Ty::Int {
                enum_: enum_.clone(),
            },
            KlrExpr::List1 { .. } => Ty::List1,
        }
    }

    /// Whether a fatal table lookup appears anywhere but at the top.
    pub fn nested_fatal(&self, top: bool) -> bool {
        match self {
            KlrExpr::Table { arg, fatal, .. } => (*fatal && !top) || arg.nested_fatal(false),
            KlrExpr::Call { args, .. } => args.iter().any(|a| a.nested_fatal(false)),
            KlrExpr::Not { e } | KlrExpr::List1 { e } => e.nested_fatal(false),
            KlrExpr::And { l, r } | KlrExpr::Or { l, r } | KlrExpr::Cmp { l, r, .. } => {
                l.nested_fatal(false) || r.nested_fatal(false)
            }
            _ => false,
        }
    }
}
