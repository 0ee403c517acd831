//! Seed 003 in the spec: the KLR→BIR data-movement leaves of the Neuron compiler as an
//! executable, documented model.
//!
//! `spec/klr/*.toml` holds, under `[klr]`: compiler-internal enums and translation
//! tables, partial in-memory layouts of the klr nodes and BIR node classes (known fields at
//! known offsets, total size unknown), and for each `codegen<Op>` leaf its ordered steps —
//! checks with the compiler's exact messages, routes, the fork that picks the BIR node,
//! stamped fields and other effects — as data. The loader (`load::klr`) checks it all;
//! `emit::rust::klr` generates `dmaspec::words::klr` (one lowering function per leaf) and
//! `emit::markdown::klr` the reference pages.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::{RawAlternative, RawEvidence};
use super::words::RawEnum;

/// Everything under a file's `klr` key.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKlr {
    /// Compiler-internal enums, with the same shape and checks as `[[enum]]`.
    #[serde(default, rename = "enum")]
    pub enums: Vec<RawEnum>,
    #[serde(default)]
    pub table: Vec<RawKlrTable>,
    #[serde(default)]
    pub layout: Vec<RawLayout>,
    #[serde(default)]
    pub leaf: Vec<RawLeaf>,
    /// Rows of the source's field-offset reference (seed 003 §11).
    #[serde(default)]
    pub offset: Vec<RawOffsetRow>,
    /// Rows of the source's transpose table (seed 003 §6).
    #[serde(default)]
    pub transpose: Vec<RawTransposeRow>,
    /// What the source says of the leaf family as a whole (its abstract).
    pub family: Option<RawFamily>,
}

/// The leaf family as the source's abstract states it: where the leaves' bodies lie, how
/// the dispatcher reaches them, and how many the source says there are.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFamily {
    /// The address band the source says the leaf bodies lie in, `[first, last]`; the
    /// docs name every leaf whose `va` lies outside it.
    #[schemars(with = "Vec<u64>")]
    pub band: Spanned<Vec<Spanned<u64>>>,
    /// The number of leaves the source states (which may differ from its roster).
    #[schemars(with = "u64")]
    pub stated_leaves: Spanned<u64>,
    /// The call chain from the statement visitor to a leaf, outermost first.
    pub dispatch: Vec<String>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}

/// A lookup table indexed from 0 (`translateDGEMode`, `DTYPE_STRIDE_LUT`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKlrTable {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The function or `.rodata` symbol that holds it.
    pub function: Option<String>,
    pub doc: String,
    /// What the index is (prose, or the name of a klr enum).
    pub key: Option<String>,
    /// What the entries are: the name of a klr enum (each entry must be one of its
    /// values), or prose.
    #[schemars(with = "Option<String>")]
    pub value: Option<Spanned<String>>,
    #[schemars(with = "Vec<i64>")]
    pub entries: Vec<Spanned<i64>>,
    /// `fatal` (an index past the end stops the compiler) or `unknown` (the source does
    /// not say).
    #[schemars(with = "String")]
    pub out_of_range: Spanned<String>,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}

/// A partial in-memory layout: known fields at known offsets, size usually unknown.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLayout {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The C++ name (`klr::NcDmaCopy`).
    pub qualified: String,
    /// `klr` (a klr node a leaf reads), `bir` (a BIR node class) or `aux`.
    #[schemars(with = "String")]
    pub side: Spanned<String>,
    /// A `bir` class this one derives from.
    #[schemars(with = "Option<String>")]
    pub base: Option<Spanned<String>>,
    /// Total size in bytes, when a source gives it.
    #[schemars(with = "Option<u64>")]
    pub size: Option<Spanned<u64>>,
    /// The to_string function that lists the fields.
    pub to_string: Option<String>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub field: Vec<RawLayoutField>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLayoutField {
    /// Absent when the source names the field but not its offset.
    #[schemars(with = "Option<u64>")]
    pub off: Option<Spanned<u64>>,
    #[schemars(with = "Option<u64>")]
    pub size: Option<Spanned<u64>>,
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The type as the source gives it (prose).
    #[serde(rename = "type")]
    pub ty: String,
    /// How the op description carries it: ap, aps, imm, imms, int, bool, text.
    #[schemars(with = "Option<String>")]
    pub input: Option<Spanned<String>>,
    #[serde(default)]
    pub optional: bool,
    /// A klr enum naming the field's values.
    #[serde(rename = "enum")]
    #[schemars(with = "Option<String>")]
    pub enum_: Option<Spanned<String>>,
    pub doc: String,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub alternatives: Vec<RawAlternative>,
}

/// One `codegen<Op>` leaf: its ordered steps.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLeaf {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The klr layout it takes.
    #[schemars(with = "String")]
    pub op: Spanned<String>,
    pub function: String,
    #[schemars(with = "u64")]
    pub va: Spanned<u64>,
    pub section: String,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub step: Vec<RawStep>,
}

/// One step of a leaf. Exactly one of `check`, `route`, `let`, `fork`, `stamp`, `effect`
/// says what it is; the other keys qualify it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    #[schemars(with = "Option<String>")]
    pub check: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub route: Option<Spanned<String>>,
    #[serde(rename = "let")]
    #[schemars(with = "Option<String>")]
    pub let_: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub fork: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub stamp: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub effect: Option<Spanned<String>>,

    /// The condition (an expression over the op's fields).
    #[schemars(with = "Option<String>")]
    pub when: Option<Spanned<String>>,
    /// A condition the model cannot evaluate, as prose (checks only).
    pub opaque: Option<String>,
    /// check: throw / assert / fatal; effect: note / node / warning / register.
    #[schemars(with = "Option<String>")]
    pub kind: Option<Spanned<String>>,
    /// check: a list field to check entry by entry (bound to `it`).
    #[schemars(with = "Option<String>")]
    pub each: Option<Spanned<String>>,
    /// check: an integer expression appended to the message (`"…" + to_string(n)`).
    #[schemars(with = "Option<String>")]
    pub append: Option<Spanned<String>>,
    /// stamp: the byte offset written.
    #[schemars(with = "Option<u64>")]
    pub off: Option<Spanned<u64>>,
    /// stamp / let: the value, an expression.
    #[schemars(with = "Option<String>")]
    pub value: Option<Spanned<String>>,
    /// stamp: what is written, when the model cannot compute it.
    pub what: Option<String>,
    /// let: list the value in the results.
    #[serde(default)]
    pub show: bool,
    /// effect: happens only the first time `key` is seen under this `memo` in a function.
    #[schemars(with = "Option<String>")]
    pub memo: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub key: Option<Spanned<String>>,
    /// The fork's paths (fork only).
    #[serde(default)]
    pub path: Vec<RawPath>,
    /// Limits the step to these paths of the fork (after the fork only).
    #[schemars(with = "Option<Vec<String>>")]
    pub paths: Option<Vec<Spanned<String>>>,
    /// The callee whose check this is, when not the leaf's own.
    pub helper: Option<String>,
    pub doc: Option<String>,
    pub note: Option<String>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
}

/// One way through a leaf and the BIR node it builds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPath {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// Absent on the last path (otherwise).
    #[schemars(with = "Option<String>")]
    pub when: Option<Spanned<String>>,
    /// The `bir` layout of the node.
    #[schemars(with = "String")]
    pub class: Spanned<String>,
    /// Its `InstructionType` enumerator, when the source gives one.
    #[schemars(with = "Option<String>")]
    pub it: Option<Spanned<String>>,
    /// The node-name prefix (`returnAndIncrementId` / insertElement string), when given.
    pub prefix: Option<String>,
    /// How the node is made: the builder or insertElement call.
    pub build: String,
    #[serde(default)]
    pub bind: Vec<RawBind>,
    /// The spec's words the node is encoded as, in stream order, where a source says so
    /// (its evidence is the path's).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub words: Vec<Spanned<String>>,
    pub doc: Option<String>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    pub evidence: Vec<RawEvidence>,
}

/// An operand binding: which klr field goes where on the node.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBind {
    /// argument, output, builder, operand, dynamic-ap, base.
    #[schemars(with = "String")]
    pub role: Spanned<String>,
    /// A field of the op's layout.
    #[schemars(with = "Option<String>")]
    pub operand: Option<Spanned<String>>,
    /// What is bound, when it is not a field of the op.
    pub what: Option<String>,
    #[schemars(with = "Option<String>")]
    pub when: Option<Spanned<String>>,
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOffsetRow {
    #[schemars(with = "u64")]
    pub off: Spanned<u64>,
    /// The field column as the source words it.
    pub field: String,
    /// The "who writes it" column as the source words it.
    pub who: String,
    /// The leaves that column names.
    #[schemars(with = "Vec<String>")]
    pub writers: Vec<Spanned<String>>,
    pub values: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTransposeRow {
    /// The klr op column as the source words it.
    pub klr: String,
    #[schemars(with = "String")]
    pub leaf: Spanned<String>,
    /// The leaf's path; all of them when absent.
    #[schemars(with = "Option<String>")]
    pub path: Option<Spanned<String>>,
    pub engine: String,
    pub encoding: String,
    pub constraint: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}
