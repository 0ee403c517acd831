//! `[[lowering]]` as written: serde structs with spans on every value the loader may point
//! at. See [`crate::lowering`] for the syntax and `crate::loader::lowering` for the checks.

use serde::Deserialize;
use serde_spanned::Spanned;

use crate::raw::RawEvidence;

/// One pseudo word and the real words a runtime lowers it to.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLowering {
    pub name: Spanned<String>,
    /// The pseudo word (a word name).
    pub from: Spanned<String>,
    /// The pseudo's leaf whose value picks the kind (an enum leaf).
    pub selector: Spanned<String>,
    /// The positional extension word mappings may read as `ext.<path>`.
    pub extension: Option<Spanned<String>>,
    pub doc: String,
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
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMessage {
    pub message: Spanned<String>,
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    pub note: Option<String>,
}

/// A dispatcher version (`translate_one_pseudo_dge_instr_v3`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAbi {
    pub name: Spanned<String>,
    /// The dispatcher function.
    pub entry: String,
    pub doc: String,
    #[serde(default)]
    pub default: bool,
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    pub note: Option<String>,
}

/// One selector value: the word it lowers to and how each field is filled.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawKind {
    /// An enumerator of the selector's enum.
    pub value: Spanned<String>,
    /// The real word (a word name).
    pub to: Spanned<String>,
    /// `required` or `ignored`.
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRoute {
    pub abi: Spanned<String>,
    /// The functions in call order, dispatcher first.
    pub via: Vec<String>,
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    pub note: Option<String>,
}

/// One field of the real word: where its value comes from.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMapping {
    /// A path in the target word (`dma_configs.priority_class`, `src_step_elem[0]`).
    pub to: Spanned<String>,
    /// A path in the pseudo, or `ext.<path>` in the extension.
    pub from: Option<Spanned<String>>,
    /// A constant instead of `from`.
    pub value: Option<Spanned<u64>>,
    /// A transform (`copy` when absent): `resolve_addr`, `narrow`.
    pub via: Option<Spanned<String>>,
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// Why, for a mapping the sources do not state (required for INFERRED tags).
    pub note: Option<String>,
}
