//! The spec files as written: one serde struct per TOML table, with spans kept on every
//! value the loader may need to point at in an error. Nothing here is resolved yet; see
//! [`crate::load`] for the checks and [`crate::model`] for the result.
//!
//! One file per sub-system: [`words`] (enums, flags, bitfields, structs, unions),
//! [`rules`], [`lowering`], [`klr`], [`gaps`] and [`addrmap`]; [`provenance`] (sources, scales, confidence,
//! evidence, architectures, alternatives) is what they share.

pub mod addrmap;
pub mod gaps;
pub mod klr;
pub mod lowering;
pub mod provenance;
pub mod registers;
pub mod rules;
pub mod words;

use schemars::JsonSchema;
use serde::Deserialize;

pub use provenance::*;
pub use words::*;

/// One `spec/**/*.toml` file. Any file may hold any kind of declaration.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    /// The common confidence ordering every scale maps onto (declared once).
    pub confidence: Option<RawCommonConfidence>,
    #[serde(default)]
    pub scale: Vec<RawScale>,
    #[serde(default)]
    pub source: Vec<RawSource>,
    #[serde(default)]
    pub arch: Vec<RawArch>,
    #[serde(default, rename = "enum")]
    pub enums: Vec<RawEnum>,
    #[serde(default)]
    pub flags: Vec<RawFlags>,
    #[serde(default)]
    pub bitfield: Vec<RawBitfield>,
    #[serde(default, rename = "struct")]
    pub structs: Vec<RawStruct>,
    #[serde(default)]
    pub union: Vec<RawUnion>,
    /// Named constants rules may use (`POOLING_NUM_CHANNELS`).
    #[serde(default)]
    pub constant: Vec<rules::RawConstant>,
    /// Lookup tables rules may call (`dtype_size(x)`).
    #[serde(default)]
    pub table: Vec<rules::RawTable>,
    /// Seed 003's KLR→BIR leaves: klr enums, tables, layouts, leaves (see [`klr`]).
    pub klr: Option<klr::RawKlr>,
    /// How a runtime lowers a pseudo word to real ones (see [`lowering`]).
    #[serde(default)]
    pub lowering: Vec<lowering::RawLowering>,
    /// Disagreements between sources that no member's `alternatives` can hold.
    #[serde(default)]
    pub conflict: Vec<RawConflict>,
    /// What the sources name but do not lay out (see [`gaps`]).
    #[serde(default)]
    pub gap: Vec<gaps::RawGap>,
    /// Register files: bundles, registers and their fields (see [`registers`]).
    #[serde(default)]
    pub regfile: Vec<registers::RawRegFile>,
    /// SoC address maps, one per architecture (see [`addrmap`]).
    #[serde(default)]
    pub addrmap: Vec<addrmap::RawAddrMap>,
}

impl RawFile {
    /// Whether the file declares nothing (it is empty or holds only comments).
    pub fn is_empty(&self) -> bool {
        let RawFile {
            confidence,
            scale,
            source,
            arch,
            enums,
            flags,
            bitfield,
            structs,
            union,
            constant,
            table,
            klr,
            lowering,
            conflict,
            gap,
            regfile,
            addrmap,
        } = self;
        confidence.is_none()
            && klr.is_none()
            && scale.is_empty()
            && source.is_empty()
            && arch.is_empty()
            && enums.is_empty()
            && flags.is_empty()
            && bitfield.is_empty()
            && structs.is_empty()
            && union.is_empty()
            && constant.is_empty()
            && table.is_empty()
            && lowering.is_empty()
            && conflict.is_empty()
            && gap.is_empty()
            && regfile.is_empty()
            && addrmap.is_empty()
    }
}
