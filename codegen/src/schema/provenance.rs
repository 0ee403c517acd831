//! What every sub-schema shares: the common confidence ordering, the sources' scales,
//! the sources, architectures, evidence records and alternative readings.

use serde::Deserialize;
use serde_spanned::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommonConfidence {
    /// Strongest first.
    pub levels: Vec<RawCommonLevel>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommonLevel {
    pub name: Spanned<String>,
    pub doc: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScale {
    pub name: Spanned<String>,
    pub doc: String,
    /// Strongest first; each tag maps onto a common level.
    pub levels: Vec<RawScaleLevel>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScaleLevel {
    pub tag: Spanned<String>,
    pub common: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSource {
    pub id: Spanned<String>,
    pub title: String,
    pub file: String,
    /// The confidence scale this document's own tags use.
    pub scale: Spanned<String>,
    pub doc: Option<String>,
    /// The document's headings below its title, exactly as written, in page order: the
    /// sections its citations may name. Absent: citations of it are not checked.
    pub sections: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArch {
    pub name: Spanned<String>,
    /// NeuronCore generation (NC-vN).
    pub nc: u8,
    pub doc: String,
}

/// One piece of evidence for a declaration: which source says it, and how.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvidence {
    /// Document id and section, e.g. `"seed-004 §2"`.
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
    pub confidence: Option<Spanned<String>>,
    pub note: Option<String>,
}

/// A disagreement between sources about something other than one member's bytes (a
/// table's value, an enum's width, who narrows a value): every reading, none primary.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConflict {
    pub name: Spanned<String>,
    pub doc: String,
    /// The types and tables the readings are about.
    pub about: Vec<Spanned<String>>,
    /// Each source's reading (no `type`: they read facts, not bytes).
    pub readings: Vec<RawAlternative>,
}

/// A reading of the same bytes that another source gives and that disagrees with the
/// primary one. Never dropped: decoders show it, docs list it on the conflicts page.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAlternative {
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    pub ty: Option<Spanned<String>>,
    pub doc: String,
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
}
