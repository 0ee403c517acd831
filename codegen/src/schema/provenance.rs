//! What every sub-schema shares: the common confidence ordering, the sources' scales,
//! the sources, architectures, evidence records and alternative readings.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCommonConfidence {
    /// Strongest first.
    pub levels: Vec<RawCommonLevel>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCommonLevel {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub doc: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScale {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub doc: String,
    /// Strongest first; each tag maps onto a common level.
    pub levels: Vec<RawScaleLevel>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScaleLevel {
    #[schemars(with = "String")]
    pub tag: Spanned<String>,
    #[schemars(with = "String")]
    pub common: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSource {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub title: String,
    pub file: String,
    /// The confidence scale this document's own tags use.
    #[schemars(with = "String")]
    pub scale: Spanned<String>,
    pub doc: Option<String>,
    /// The document's headings below its title, exactly as written, in page order: the
    /// sections its citations may name. Absent: citations of it are not checked.
    #[schemars(with = "Option<Vec<String>>")]
    pub sections: Option<Vec<Spanned<String>>>,
    /// Lints this source is a deliberate exception to (`uncited_section` for a page whose
    /// remaining sections are prose only), each with why.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub allow: RawAllow,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawArch {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// NeuronCore generation (NC-vN).
    pub nc: u8,
    pub doc: String,
}

/// One piece of evidence for a declaration: which source says it, and how.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEvidence {
    /// Document id and section, e.g. `"seed-004 §2"`.
    #[schemars(with = "String")]
    pub source: Spanned<String>,
    /// The name this source uses, when it differs from the declaration's (an alias).
    pub name: Option<String>,
    /// The assert / `_STRUCT` / `instr.<field>` string that names it.
    pub names: Option<String>,
    /// The store site, disassembly line or probe output that pins it.
    pub pin: Option<String>,
    /// Where the value written there comes from.
    pub value: Option<String>,
    /// This record's own tag; defaults to the declaration's.
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    pub note: Option<String>,
}

/// A disagreement between sources about something other than one member's bytes (a
/// table's value, an enum's width, who narrows a value): every reading, none primary.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConflict {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub doc: String,
    /// The types and tables the readings are about.
    #[schemars(with = "Vec<String>")]
    pub about: Vec<Spanned<String>>,
    /// Each source's reading (no `type`: they read facts, not bytes).
    pub readings: Vec<RawAlternative>,
}

/// A reading of the same bytes that another source gives and that disagrees with the
/// primary one. Never dropped: decoders show it, docs list it on the conflicts page.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAlternative {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    #[schemars(with = "Option<String>")]
    pub ty: Option<Spanned<String>>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}

/// `allow = { <lint> = "<reason>" }`: lints of `dmaspec check` that this item is a
/// deliberate exception to, each with why. An allow that suppresses nothing is a warning.
pub type RawAllow = BTreeMap<String, Spanned<String>>;
