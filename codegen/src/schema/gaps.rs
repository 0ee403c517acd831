//! `[[gap]]`: something the sources name but do not let the spec lay out (a word with no
//! byte table, a part of a word a page leaves out), with why and who says so.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::RawEvidence;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGap {
    /// As the source spells it.
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The `OPCODE` enumerator it is bound to, when it is a word of its own.
    #[schemars(with = "Option<String>")]
    pub opcode: Option<Spanned<String>>,
    /// The word or record it is part of.
    #[schemars(with = "Option<String>")]
    pub word: Option<Spanned<String>>,
    /// Why it cannot be specified; required (an `Option` so its absence is reported with
    /// what to do).
    #[schemars(with = "Option<String>")]
    pub reason: Option<Spanned<String>>,
    /// The tag of the claim that the sources leave it out, on its sources' scale.
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
}
