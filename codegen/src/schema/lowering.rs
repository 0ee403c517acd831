//! Lowerings: how a runtime turns a pseudo word into a real one, as data.
//!
//! ```toml
//! [[lowering]]
//! name = "pseudo_dge"
//! from = "PSEUDO_DMA_DIRECT2D"          # the pseudo word
//! selector = "dge_op"                   # its enum leaf that picks the kind
//! extension = "PSEUDO_DMA_EXT"          # the positional extension (`ext.<path>`)
//! unsupported = { message = "Unsupported dynamic dma opcode %u", confidence = "…", evidence = […] }
//!
//! [[lowering.abi]]                      # dispatcher versions; one is the default
//! name = "v3"
//! entry = "translate_one_pseudo_dge_instr_v3"
//! default = true
//!
//! [[lowering.kind]]
//! value = "DMA_INDIRECT1D"              # an enumerator of the selector's enum
//! to = "DMA_INDIRECT1D"                 # the real word (its TEMPLATE is the start)
//! extension = "required"                # or "ignored"
//! missing_extension = { message = "Pseudo dma indirect1d instruction must be followed by extension", … }
//! route = [{ abi = "v3", via = ["translate_one_pseudo_dge_instr_v3", "…"], confidence = "…", evidence = […] }]
//! map = [
//!   { to = "dma_configs.priority_class", from = "dma_configs.priority_class", confidence = "HIGH/OBSERVED", evidence = […] },
//!   { to = "src_start_addr", from = "src_start_addr", via = "resolve_addr", confidence = "MED/INFERRED", note = "…", evidence = […] },
//!   { to = "flags", from = "ext.flags", confidence = "…", evidence = […] },
//!   { to = "header.opcode", value = 0xbb, confidence = "…", evidence = […] },
//! ]
//! ```
//!
//! Paths name any field of a word: a leaf, a whole struct, union or bitfield
//! (`src_start_addr`), a bitfield sub-field (`dma_configs.priority_class`) or an array
//! element (`src_step_elem[0]`). Transforms: `copy` (default; same width and type),
//! `narrow` (same type into fewer bits; a value that does not fit is an error),
//! `resolve_addr` (a union with an `addr_var` arm holding `immediate`, `var_id_lo`,
//! `var_id_hi` into a union of the same size: immediates pass through, a variable becomes
//! base + immediate). A mapping whose tag contains `INFERRED` is one the sources do not
//! state; it must carry a `note`, and every target shows it as INFERRED.
//!
//! The loader (`load::lowering`) checks every name, path, width, type and transform and
//! that every mapping has evidence; `emit::rust::lowering` generates `LOWERINGS` (consts a
//! generic engine in the runtime applies) and `emit::markdown::lowering` the docs page.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::RawEvidence;

/// One pseudo word and the real words a runtime lowers it to.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLowering {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The pseudo word (a word name).
    #[schemars(with = "String")]
    pub from: Spanned<String>,
    /// The pseudo's leaf whose value picks the kind (an enum leaf).
    #[schemars(with = "String")]
    pub selector: Spanned<String>,
    /// The positional extension word mappings may read as `ext.<path>`.
    #[schemars(with = "Option<String>")]
    pub extension: Option<Spanned<String>>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// What a selector value no kind handles is reported as (`%u` = the value).
    pub unsupported: RawMessage,
    /// The dispatchers (ABI versions), one of them the default.
    #[serde(default)]
    pub abi: Vec<RawAbi>,
    #[serde(default)]
    pub kind: Vec<RawKind>,
}

/// An error the runtime reports, with where the sources show it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMessage {
    #[schemars(with = "String")]
    pub message: Spanned<String>,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    pub note: Option<String>,
}

/// A dispatcher version (`translate_one_pseudo_dge_instr_v3`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAbi {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The dispatcher function.
    pub entry: String,
    pub doc: String,
    #[serde(default)]
    pub default: bool,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    pub note: Option<String>,
}

/// One selector value: the word it lowers to and how each field is filled.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKind {
    /// An enumerator of the selector's enum.
    #[schemars(with = "String")]
    pub value: Spanned<String>,
    /// The real word (a word name).
    #[schemars(with = "String")]
    pub to: Spanned<String>,
    /// `required` or `ignored`.
    #[schemars(with = "String")]
    pub extension: Spanned<String>,
    pub doc: String,
    /// The error when a required extension is missing.
    pub missing_extension: Option<RawMessage>,
    /// How each ABI version's dispatcher reaches this kind's builder.
    #[serde(default)]
    pub route: Vec<RawRoute>,
    #[serde(default)]
    pub map: Vec<RawMapping>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRoute {
    #[schemars(with = "String")]
    pub abi: Spanned<String>,
    /// The functions in call order, dispatcher first.
    pub via: Vec<String>,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    pub note: Option<String>,
}

/// One field of the real word: where its value comes from.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMapping {
    /// A path in the target word (`dma_configs.priority_class`, `src_step_elem[0]`).
    #[schemars(with = "String")]
    pub to: Spanned<String>,
    /// A path in the pseudo, or `ext.<path>` in the extension.
    #[schemars(with = "Option<String>")]
    pub from: Option<Spanned<String>>,
    /// A constant instead of `from`.
    #[schemars(with = "Option<u64>")]
    pub value: Option<Spanned<u64>>,
    /// A transform (`copy` when absent): `resolve_addr`, `narrow`.
    #[schemars(with = "Option<String>")]
    pub via: Option<Spanned<String>>,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// Why, for a mapping the sources do not state (required for INFERRED tags).
    pub note: Option<String>,
}
