//! The small expression language of the klr rules: conditions, stamped values and `let`
//! values over a klr op's input fields.
//!
//! ```text
//! expr    := or
//! or      := and ( "||" and )*
//! and     := unary ( "&&" unary )*
//! unary   := "!" unary | cmp
//! cmp     := atom ( ("==" | "!=" | "<" | "<=" | ">" | ">=") atom )?
//! atom    := INT | "true" | "false" | "(" expr ")" | "[" expr "]"
//!          | Enum "." Value | name "(" args ")" | name
//! ```
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

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Int(i64),
    Punct(&'static str),
}

fn lex(s: &str) -> Result<Vec<(Tok, usize, usize)>, ExprError> {
    const PUNCT: &[&str] = &[
        "&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "[", "]", ",", ".",
    ];
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    'outer: while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Name(s[start..i].to_string()), start, i));
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let text = s[start..i].replace('_', "");
            let v = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16),
                None => text.parse(),
            };
            match v {
                Ok(v) => out.push((Tok::Int(v), start, i)),
                Err(_) => return err(start, i, format!("`{}` is not an integer", &s[start..i])),
            }
            continue;
        }
        for p in PUNCT {
            if s[i..].starts_with(p) {
                out.push((Tok::Punct(p), i, i + p.len()));
                i += p.len();
                continue 'outer;
            }
        }
        let len = s[i..].chars().next().map_or(1, char::len_utf8);
        return err(i, i + len, format!("unexpected `{}`", &s[i..i + len]));
    }
    Ok(out)
}

struct Parser<'e> {
    toks: Vec<(Tok, usize, usize)>,
    pos: usize,
    end: usize,
    env: &'e dyn Env,
}

/// Parses and type-checks `text`.
pub fn parse(text: &str, env: &dyn Env) -> Result<KlrExpr, ExprError> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: text.len(),
        env,
    };
    if p.toks.is_empty() {
        return err(0, text.len(), "empty expression");
    }
    let e = p.or()?;
    if let Some((_, s, e2)) = p.toks.get(p.pos) {
        return err(*s, *e2, "unexpected text after the expression");
    }
    Ok(e.0)
}

type Spanned = (KlrExpr, usize, usize);

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn here(&self) -> (usize, usize) {
        self.toks
            .get(self.pos)
            .map_or((self.end, self.end), |t| (t.1, t.2))
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.peek() == Some(&Tok::Punct(static_punct(p))) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, p: &str) -> Result<usize, ExprError> {
        let (s, e) = self.here();
        if self.eat(p) {
            Ok(e)
        } else {
            err(s, e.max(s + 1), format!("expected `{p}`"))
        }
    }

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

    fn or(&mut self) -> Result<Spanned, ExprError> {
        let mut l = self.and()?;
        while self.eat("||") {
            let r = self.and()?;
            self.bool_operand(&l, "||")?;
            self.bool_operand(&r, "||")?;
            let (s, e) = (l.1, r.2);
            l = (
                KlrExpr::Or {
                    l: Box::new(l.0),
                    r: Box::new(r.0),
                },
                s,
                e,
            );
        }
        Ok(l)
    }

    fn and(&mut self) -> Result<Spanned, ExprError> {
        let mut l = self.unary()?;
        while self.eat("&&") {
            let r = self.unary()?;
            self.bool_operand(&l, "&&")?;
            self.bool_operand(&r, "&&")?;
            let (s, e) = (l.1, r.2);
            l = (
                KlrExpr::And {
                    l: Box::new(l.0),
                    r: Box::new(r.0),
                },
                s,
                e,
            );
        }
        Ok(l)
    }

    fn unary(&mut self) -> Result<Spanned, ExprError> {
        let (s, _) = self.here();
        if self.eat("!") {
            let x = self.unary()?;
            self.bool_operand(&x, "!")?;
            let e = x.2;
            return Ok((KlrExpr::Not { e: Box::new(x.0) }, s, e));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Result<Spanned, ExprError> {
        let l = self.atom()?;
        let op = match self.peek() {
            Some(Tok::Punct("==")) => CmpOp::Eq,
            Some(Tok::Punct("!=")) => CmpOp::Ne,
            Some(Tok::Punct("<")) => CmpOp::Lt,
            Some(Tok::Punct("<=")) => CmpOp::Le,
            Some(Tok::Punct(">")) => CmpOp::Gt,
            Some(Tok::Punct(">=")) => CmpOp::Ge,
            _ => return Ok(l),
        };
        self.pos += 1;
        let r = self.atom()?;
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

    fn atom(&mut self) -> Result<Spanned, ExprError> {
        let (s, e) = self.here();
        let Some(tok) = self.peek().cloned() else {
            return err(s, s + 1, "expected a value");
        };
        self.pos += 1;
        match tok {
            Tok::Int(v) => Ok((KlrExpr::Int { value: v }, s, e)),
            Tok::Punct("(") => {
                let x = self.or()?;
                let end = self.expect(")")?;
                Ok((x.0, s, end))
            }
            Tok::Punct("[") => {
                let x = self.or()?;
                if !matches!(x.0.ty(), Ty::Int { .. }) {
                    return err(
                        x.1,
                        x.2,
                        format!("a `[…]` list holds an int, not {}", x.0.ty().name()),
                    );
                }
                let end = self.expect("]")?;
                Ok((KlrExpr::List1 { e: Box::new(x.0) }, s, end))
            }
            Tok::Punct(p) => err(s, e, format!("expected a value, found `{p}`")),
            Tok::Name(name) => self.named(name, s, e),
        }
    }

    fn named(&mut self, name: String, s: usize, e: usize) -> Result<Spanned, ExprError> {
        if name == "true" || name == "false" {
            return Ok((
                KlrExpr::Bool {
                    value: name == "true",
                },
                s,
                e,
            ));
        }
        if self.eat(".") {
            let (vs, ve) = self.here();
            let Some(Tok::Name(v)) = self.peek().cloned() else {
                return err(vs, ve.max(vs + 1), "expected an enumerator name after `.`");
            };
            self.pos += 1;
            return match self.env.enum_value(&name, &v) {
                Ok(value) => Ok((
                    KlrExpr::Const {
                        enum_: name,
                        name: v,
                        value,
                    },
                    s,
                    ve,
                )),
                Err(msg) => err(s, ve, msg),
            };
        }
        if self.eat("(") {
            let mut args: Vec<Spanned> = Vec::new();
            if !self.eat(")") {
                loop {
                    args.push(self.or()?);
                    if self.eat(")") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            let end = self.toks[self.pos - 1].2;
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
                if args.len() != 1 {
                    return err(s, end, format!("table `{name}` takes one index"));
                }
                let a = args.pop().expect("one argument");
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
            return err(
                s,
                e,
                format!(
                    "unknown function `{name}` (built in: {}; or a klr table)",
                    known.join(", ")
                ),
            );
        }
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

/// The static spelling of a punctuation token, for comparisons.
fn static_punct(p: &str) -> &'static str {
    const PUNCT: &[&str] = &[
        "&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "[", "]", ",", ".",
    ];
    PUNCT.iter().find(|x| **x == p).copied().unwrap_or("")
}
