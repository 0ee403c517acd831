//! `[[addrmap]]`: one generation's SoC address map — what sits in one channel slot
//! (`[[addrmap.slot]]`: which register file at which offset) and where the slots lie
//! (`[[addrmap.window]]`: a base, a count and a stride).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::RawEvidence;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAddrMap {
    /// The architecture it places (one map per architecture).
    #[schemars(with = "String")]
    pub arch: Spanned<String>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub slot: Vec<RawSlot>,
    #[serde(default)]
    pub window: Vec<RawWindow>,
}

/// What one instance holds, from its base.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSlot {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub doc: String,
    /// The bytes an instance occupies (its container, not the stride between instances).
    #[schemars(with = "u64")]
    pub size: Spanned<u64>,
    pub part: Vec<RawPart>,
    /// The slot's own tag, else the map's.
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
}

/// One window of a slot: a register file's, or a reserved range (no `regfile`, a `size`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPart {
    /// As the address map names the node (`UDMA_M2S`, `MISC_NOTIFIC`).
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The `[[regfile]]` at this offset; its window on the map's architecture is the size.
    #[schemars(with = "Option<String>")]
    pub regfile: Option<Spanned<String>>,
    #[schemars(with = "u64")]
    pub offset: Spanned<u64>,
    /// Only for a reserved range (no `regfile`).
    #[schemars(with = "Option<u64>")]
    pub size: Option<Spanned<u64>>,
}

/// `count` instances of a slot, `stride` bytes apart from `base`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWindow {
    /// The instances' name, `{n}` standing for the channel number (`APB_SE_0_SDMA_{n}`).
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "String")]
    pub slot: Spanned<String>,
    #[schemars(with = "u64")]
    pub base: Spanned<u64>,
    #[schemars(with = "u64")]
    pub count: Spanned<u64>,
    /// Bytes between instances; required when `count` > 1.
    #[schemars(with = "Option<u64>")]
    pub stride: Option<Spanned<u64>>,
    /// Channel numbers between instances (16: SDMA_0 and SDMA_16); 1 unless given.
    #[schemars(with = "Option<u64>")]
    pub step: Option<Spanned<u64>>,
    /// The window's own tag, else the map's.
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
}
