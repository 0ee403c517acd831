//! Validity rules: the predicates the sources state for a struct, declared next to it in
//! the spec and generated into Rust, C and Markdown.
//!
//! ```toml
//! [[struct.rule]]
//! name = "has_valid_gather_transpose_src_dimensions"   # the shipped predicate's name
//! expr = "src_num_elem[1] % 16 == 0"
//! message = "src_num_elem[1] (the gathered row count) must be a multiple of 16"
//! evidence = [{ source = "seed-004 §4.1", names = "has_valid_gather_transpose_src_dimensions" }]
//! ```
//!
//! A rule is one of:
//!
//! - a **leaf** with an `expr`: a small Rust-like expression over the struct's fields
//!   (paths such as `flags.gather_dim`, `src_num_elem[1]`, `src_start_addr.marker`),
//!   integer literals, enumerators (`DTYPE::FP32R`), flag bits, `[[constant]]`s and `nc`
//!   (the architecture's NeuronCore generation); operators `+ - * / % &`, comparisons,
//!   `&& || !`, `x in [a, b]` (a bare enumerator name is enough next to an enum value); and
//!   calls: `has(flags, BIT)`, `is_enumerator(x)` (an enumerator of its enum in the
//!   architecture at hand), `value(x)` (a field's logical value under its `codec`),
//!   `text_len(x)` (bytes before the first NUL of an `ascii[N]` field), a `[[table]]`
//!   (`dtype_size(x)`), or a rule of a nested type applied to a field of that type
//!   (`has_valid_bound_check_reg(src_bound_reg)`);
//! - a **composite**: `all = ["id", ...]` or `any = ["id", ...]` over other rules of the
//!   same struct, so a shipped predicate keeps its structure;
//! - **not enforced** (`enforced = false`, no `expr`): a predicate the sources name without
//!   giving its body. It is listed in the docs and treated as holding.
//!
//! An expression nests at most [`MAX_EXPR_DEPTH`](crate::load::rule_depth::MAX_EXPR_DEPTH) levels (checked on its tokens
//! before it is parsed); an `in` list of any length is one flat [`Expr::Chain`](crate::model::rules::Expr::Chain).
//!
//! Every value is evaluated as a 64-bit signed integer; the loader proves by interval
//! arithmetic that no operation can overflow and that every divisor is a non-zero constant,
//! so the Rust and the C evaluation agree bit for bit.
//!
//! Every rule has an **authority** (`authority = "header" | "compiler"`, default
//! `"header"`): who forbids a value that breaks it. A `header` rule is the ISA's: the shipped
//! header validates it (an `is_valid_*` predicate, a header field's documented range), so a
//! value that breaks it is invalid. A `compiler` rule is what neuronx-cc guarantees of the
//! words it writes (an assert, a FATAL, a NeuronAssertion): a value that breaks it is one the
//! compiler would not emit, which the ISA sources do not forbid, so it is reported as a
//! finding and never makes the value invalid. A composite's parts have its authority.
//!
//! A rule *holds* or not; a rule is *violated* when it does not hold and every composite
//! above it does not hold either (a failing alternative of an `any` that another
//! alternative satisfies is not a violation). A rule limited to some architectures
//! (`arch = [...]`) holds trivially on the others.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::RawEvidence;

/// `[[struct.rule]]` / `[[bitfield.rule]]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRule {
    /// The shipped predicate's name (or, for an unnamed clause, a descriptive one).
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// Unique within the struct; defaults to `name`. Needed when one predicate is applied
    /// at several call sites (`has_valid_bound_check_reg` on src and dst).
    #[schemars(with = "Option<String>")]
    pub id: Option<Spanned<String>>,
    /// The call's arguments as the source writes them (`"src_bound_reg, marker"`).
    pub args: Option<String>,
    #[schemars(with = "Option<String>")]
    pub expr: Option<Spanned<String>>,
    #[schemars(with = "Option<Vec<String>>")]
    pub all: Option<Vec<Spanned<String>>>,
    #[schemars(with = "Option<Vec<String>>")]
    pub any: Option<Vec<Spanned<String>>>,
    /// `false` for a predicate whose body the sources do not give.
    #[schemars(with = "Option<bool>")]
    pub enforced: Option<Spanned<bool>>,
    /// Architectures the rule applies to; all when absent.
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    /// The assert string or what the violation means.
    pub message: String,
    pub doc: Option<String>,
    /// The fields the rule reads; derived from `expr`, and checked against it if given.
    #[schemars(with = "Option<Vec<String>>")]
    pub fields: Option<Vec<Spanned<String>>>,
    /// `true` when the sources give this clause no predicate name of its own.
    #[serde(default)]
    pub clause: bool,
    /// `"header"` (the default) or `"compiler"`: who forbids a value that breaks the rule.
    #[schemars(with = "Option<String>")]
    pub authority: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    pub evidence: Vec<RawEvidence>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
}

/// `[[constant]]`: a named value the sources give (`POOLING_NUM_CHANNELS == 128U`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConstant {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "i64")]
    pub value: Spanned<i64>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}

/// `[[table]]`: a function of an enum value, called like a helper (`dtype_size(x)`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The enum the argument must be.
    #[schemars(with = "String")]
    pub over: Spanned<String>,
    /// Groups of enumerators sharing a value.
    pub values: Vec<RawTableGroup>,
    /// The value of every other argument.
    pub default: i64,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTableGroup {
    #[schemars(with = "Vec<String>")]
    pub keys: Vec<Spanned<String>>,
    pub value: i64,
}
