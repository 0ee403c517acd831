//! The word types as written: enums, flags, bitfields, structs, unions and their members.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_spanned::Spanned;

use super::provenance::{RawAlternative, RawEvidence};

/// A member of a struct or union variant, placed by byte offset.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawField {
    #[schemars(with = "u64")]
    pub off: Spanned<u64>,
    /// Optional cross-check of the type's size, as the source tables list it.
    #[schemars(with = "Option<u64>")]
    pub size: Option<Spanned<u64>>,
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    #[schemars(with = "Option<String>")]
    pub ty: Option<Spanned<String>>,
    pub doc: Option<String>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    /// Bytes the sources name as reserved / padding.
    #[serde(default)]
    pub reserved: bool,
    /// Bytes whose meaning no source gives: kept raw, shown as unknown.
    #[serde(default)]
    pub unknown: bool,
    #[serde(default)]
    pub alternatives: Vec<RawAlternative>,
    /// A value the encoder always writes (`inst_word_len = 0x10`); decode reports a word
    /// that differs instead of failing.
    #[serde(rename = "const")]
    #[schemars(with = "Option<u64>")]
    pub constant: Option<Spanned<u64>>,
    /// How the stored value maps to the logical one.
    pub codec: Option<RawCodec>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
}

/// Value codecs for fields whose stored value is not the logical value.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCodec {
    /// Stored 0 means this value (the element-span rule: 0 means 65536).
    #[schemars(with = "u64")]
    pub zero_means: Spanned<u64>,
}

/// One logical value stored in several fields, low part first
/// (`parts = ["entry_size_lo", "entry_size_hi"]`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawJoin {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "Vec<String>")]
    pub parts: Vec<Spanned<String>>,
    pub doc: String,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    pub evidence: Vec<RawEvidence>,
}

/// A sub-field of a bitfield container, placed by bit range (`"3"` or `"0..2"`, inclusive,
/// LSB = 0 as the packed C bitfields list them).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBits {
    #[schemars(with = "String")]
    pub bits: Spanned<String>,
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    #[schemars(with = "Option<String>")]
    pub ty: Option<Spanned<String>>,
    pub doc: Option<String>,
    #[schemars(with = "Option<String>")]
    pub confidence: Option<Spanned<String>>,
    #[serde(default)]
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub reserved: bool,
    #[serde(default)]
    pub unknown: bool,
    #[serde(default)]
    pub alternatives: Vec<RawAlternative>,
    #[serde(rename = "const")]
    #[schemars(with = "Option<u64>")]
    pub constant: Option<Spanned<u64>>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEnum {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub c_name: String,
    /// Prefix of the C enumerators; defaults to `c_name + "_"`.
    pub c_prefix: Option<String>,
    #[schemars(with = "String")]
    pub repr: Spanned<String>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    pub values: Vec<RawEnumerator>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEnumerator {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "u64")]
    pub value: Spanned<u64>,
    pub doc: Option<String>,
    /// Architectures that have this enumerator; all of them when absent.
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    /// Other spellings of the same value, each with the source that uses it.
    #[serde(default)]
    pub aliases: Vec<RawAlias>,
    /// The engine that executes the opcode (`DVE`, `POOL`, …), as the sources list it;
    /// metadata only, never encoded in the word.
    pub engine: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAlias {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The source that spells it so; absent exactly when `ours` is set.
    #[schemars(with = "Option<String>")]
    pub source: Option<Spanned<String>>,
    /// A name the spec coined (an older spelling kept so that users' input still
    /// resolves), which no source uses.
    #[serde(default)]
    pub ours: bool,
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFlags {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub c_name: String,
    pub c_prefix: Option<String>,
    #[schemars(with = "String")]
    pub repr: Spanned<String>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    /// The name the sources give the all-clear value, if any (`MARKER_IMM`).
    pub none: Option<String>,
    pub bits: Vec<RawFlagBit>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFlagBit {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "u64")]
    pub bit: Spanned<u64>,
    pub doc: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBitfield {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub c_name: String,
    #[schemars(with = "String")]
    pub repr: Spanned<String>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    pub fields: Vec<RawBits>,
    /// Validity rules over the sub-fields (`[[bitfield.rule]]`).
    #[serde(default)]
    pub rule: Vec<crate::schema::rules::RawRule>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStruct {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub c_name: String,
    #[schemars(with = "u64")]
    pub size: Spanned<u64>,
    /// The `OPCODE` enumerator this word is bound to (`struct2opcode`); absent for
    /// nested types such as HEADER.
    #[schemars(with = "Option<String>")]
    pub opcode: Option<Spanned<String>>,
    /// Architectures that ship this struct; all of them when absent.
    #[schemars(with = "Option<Vec<String>>")]
    pub arch: Option<Vec<Spanned<String>>>,
    /// The word this one extends, positionally (it must come right after it): one name, or
    /// a list when it may extend any of several words.
    #[schemars(with = "Option<RawFollows>")]
    pub follows: Option<Spanned<RawFollows>>,
    /// A word that shares its envelope's opcode and is told apart by a sub-opcode field.
    pub sub_opcode: Option<RawSubOpcode>,
    /// A struct decoded on its own, outside any word (a ring of 16-byte descriptors): a
    /// top-level item like a word, without an opcode.
    #[schemars(with = "Option<bool>")]
    pub top_level: Option<Spanned<bool>>,
    /// Other names of the word (an older name the spec gave it, a source's spelling).
    #[serde(default)]
    pub aliases: Vec<RawAlias>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub field: Vec<RawField>,
    /// Logical values split across fields.
    #[serde(default)]
    pub join: Vec<RawJoin>,
    /// Whole-word readings other sources give that disagree with this one (no decoding).
    #[serde(default)]
    pub alternatives: Vec<RawAlternative>,
    /// Validity rules over the fields (`[[struct.rule]]`).
    #[serde(default)]
    pub rule: Vec<crate::schema::rules::RawRule>,
    /// Lints of `dmaspec check` this item is a deliberate exception to, each with why.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub allow: super::provenance::RawAllow,
}

/// `follows = "A"` or `follows = ["A", "B"]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawFollows {
    One(String),
    Any(Vec<String>),
}

impl RawFollows {
    pub fn names(&self) -> Vec<String> {
        match self {
            RawFollows::One(n) => vec![n.clone()],
            RawFollows::Any(ns) => ns.clone(),
        }
    }
}

/// `sub_opcode = { envelope = "EXTENDED", field = "extended_opcode", value = "…" }`: the
/// word is `envelope` whose `field` holds the enumerator `value`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSubOpcode {
    #[schemars(with = "String")]
    pub envelope: Spanned<String>,
    #[schemars(with = "String")]
    pub field: Spanned<String>,
    #[schemars(with = "String")]
    pub value: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawUnion {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    pub c_name: String,
    #[schemars(with = "u64")]
    pub size: Spanned<u64>,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    /// The member whose value chooses the variant.
    pub discriminator: RawField,
    pub variant: Vec<RawVariant>,
}

/// A union arm, taken when `discriminator & mask == value` (first match wins) or, for
/// the one `default` arm, when nothing else matches.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawVariant {
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    #[schemars(with = "Option<u64>")]
    pub mask: Option<Spanned<u64>>,
    #[schemars(with = "Option<u64>")]
    pub value: Option<Spanned<u64>>,
    #[serde(default)]
    pub default: bool,
    pub doc: String,
    #[schemars(with = "String")]
    pub confidence: Spanned<String>,
    pub evidence: Vec<RawEvidence>,
    #[serde(default)]
    pub field: Vec<RawField>,
}
