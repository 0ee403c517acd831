//! `[[regfile]]`: a register file as its CSR schema lays it out — bundles (register
//! groups, possibly arrays with a stride), registers placed by byte offset within their
//! bundle, fields placed by bit range (`"30:28"` or `"17"`, MSB first as CSR tables write
//! it). Per-generation layouts are declarations with the same name and disjoint `arch`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::{RawAlternative, RawEvidence};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRegFile {
    /// Upper snake case (`UDMA_M2S`): the C prefix and, in lower case, the Rust module.
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub doc: String,
    /// The window in bytes.
    #[schemars(with = "u64")]
    pub size: Spanned<u64>,
    /// The window on the architectures whose window differs from `size`
    /// (`arch_size = { maverick = 0x40000 }`).
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, u64>")]
    pub arch_size: std::collections::BTreeMap<Spanned<String>, Spanned<u64>>,
    /// The data width in bits; a register's default width.
    #[schemars(with = "u64")]
    pub bus_width: Spanned<u64>,
    /// Architectures that have the file; all of them when absent.
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    /// The tag bundles, registers and fields inherit unless they state one.
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
    /// What a page counts without tabulating it (register definitions, field definitions).
    #[serde(default)]
    pub counts: Vec<RawCount>,
    #[serde(default)]
    pub bundle: Vec<RawBundle>,
}

/// A number a source gives for something it does not list item by item.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCount {
    /// What is counted, as the source says it (`register definitions`).
    #[schemars(with = "String")]
    pub what: Spanned<String>,
    #[schemars(with = "u64")]
    pub value: Spanned<u64>,
    /// Document and section, as in an evidence record.
    #[schemars(with = "String")]
    pub source: Spanned<String>,
    /// The row or sentence that gives the number.
    pub names: Option<String>,
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBundle {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// From the register file's base.
    #[schemars(with = "u64")]
    pub offset: Spanned<u64>,
    /// The bundle's own span: its registers lie inside it.
    #[schemars(with = "u64")]
    pub size: Spanned<u64>,
    /// Array length; 1 when absent.
    #[schemars(with = "Option<u64>")]
    pub count: Option<Spanned<u64>>,
    /// Distance between array elements; required when `count` > 1.
    #[schemars(with = "Option<u64>")]
    pub stride: Option<Spanned<u64>>,
    pub doc: Option<String>,
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
    #[serde(default)]
    pub register: Vec<RawRegister>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRegister {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// From the bundle's base.
    #[schemars(with = "u64")]
    pub offset: Spanned<u64>,
    /// Bits; the file's `bus_width` when absent.
    #[schemars(with = "Option<u64>")]
    pub width: Option<Spanned<u64>>,
    /// `RW`, `RO` or `WO`.
    #[schemars(with = "String")]
    pub access: Spanned<String>,
    /// What an access does besides the value, as the CSR schema's `SpecialAccess` column
    /// says: `PulseOnW` (a write also pulses). Absent for none.
    #[schemars(with = "Option<String>")]
    pub special_access: Option<Spanned<String>>,
    /// The whole register's value after reset, when the source gives it.
    #[schemars(with = "Option<u64>")]
    pub reset: Option<Spanned<u64>>,
    pub doc: Option<String>,
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    pub evidence: Vec<RawEvidence>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
    #[serde(default)]
    pub field: Vec<RawRegField>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRegField {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// `"hi:lo"` or `"n"`, as CSR tables write it.
    #[schemars(with = "String")]
    pub bits: Spanned<String>,
    /// The register's when absent; never wider than it.
    #[schemars(with = "Option<String>")]
    pub access: Option<Spanned<String>>,
    /// The field's own value after reset (not shifted).
    #[schemars(with = "Option<u64>")]
    pub reset: Option<Spanned<u64>>,
    /// An `[[enum]]` whose enumerators name the field's values.
    #[serde(rename = "enum")]
    #[schemars(with = "Option<String>")]
    pub enum_type: Option<Spanned<String>>,
    pub doc: Option<String>,
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
    #[serde(default)]
    pub alternatives: Vec<RawAlternative>,
}
