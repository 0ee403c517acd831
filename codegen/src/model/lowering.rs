//! The resolved `[[lowering]]` tables: every word and path looked up, every place an
//! absolute byte offset (and bit range) in its word.

use serde::Serialize;

use super::provenance::{Confidence, Evidence};

/// A field of a word, by path, resolved to where its bits are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Place {
    /// The path as written (without the `ext.` prefix).
    pub path: String,
    /// Absolute byte offset in the word.
    pub offset: usize,
    /// Bytes of the field (of the container, for a bit range).
    pub size: usize,
    /// `(lsb, width)` for a bitfield sub-field.
    pub bits: Option<(u32, u32)>,
    /// The spec type (`DTYPE`, `u16`, `i32[2]`, `u3` for an unsigned bit range).
    pub type_name: String,
}

impl Place {
    /// Width in bits.
    pub fn width(&self) -> u32 {
        self.bits.map_or(self.size as u32 * 8, |b| b.1)
    }
}

/// What a mapping reads: a field of the pseudo word or of its extension, or a constant
/// (the runtime calls it `lowering::Source`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Operand {
    /// A field of the pseudo word.
    Pseudo { place: Place },
    /// A field of the extension word (`ext.<path>`).
    Ext { place: Place },
    /// A constant.
    Value { value: u64 },
}

/// Where the parts of a variable address sit inside the address field (offsets relative
/// to the field), read from the union's `addr_var` arm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AddrVar {
    /// Offset of the marker byte (the union's discriminator).
    pub marker: usize,
    /// The arm is taken when `marker & mask == value`.
    pub mask: u64,
    pub value: u64,
    /// (offset, size) of the immediate offset within the variable.
    pub immediate: (usize, usize),
    /// (offset, size) of the low and high parts of the variable id.
    pub var_id_lo: (usize, usize),
    pub var_id_hi: (usize, usize),
}

/// How a value is carried from source to target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Transform {
    /// Bits copied as they are (same width, same type).
    Copy,
    /// Same type into fewer bits; a value that does not fit is an error.
    Narrow,
    /// A PSEUDO_ADDR8 to an ADDR8: anything but a variable passes through; a variable
    /// (its arm's marker bits set) becomes `base(var_id) + immediate`.
    ResolveAddr { addr: AddrVar },
}

impl Transform {
    pub fn name(&self) -> &'static str {
        match self {
            Transform::Copy => "copy",
            Transform::Narrow => "narrow",
            Transform::ResolveAddr { .. } => "resolve_addr",
        }
    }
}

/// The transforms the spec may name.
pub const TRANSFORMS: &[&str] = &["copy", "narrow", "resolve_addr"];

#[derive(Debug, Clone, Serialize)]
pub struct Mapping {
    pub to: Place,
    pub source: Operand,
    pub via: Transform,
    pub confidence: Confidence,
    /// Not stated by the sources (an INFERRED tag): shown as such everywhere.
    pub inferred: bool,
    pub note: Option<String>,
    pub evidence: Vec<Evidence>,
    pub line: usize,
}

/// An error the runtime reports.
#[derive(Debug, Clone, Serialize)]
pub struct Message {
    pub message: String,
    pub confidence: Confidence,
    pub inferred: bool,
    pub note: Option<String>,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Abi {
    pub name: String,
    pub entry: String,
    pub doc: String,
    pub default: bool,
    pub confidence: Confidence,
    pub inferred: bool,
    pub note: Option<String>,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Route {
    pub abi: String,
    pub via: Vec<String>,
    pub confidence: Confidence,
    pub inferred: bool,
    pub note: Option<String>,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtensionUse {
    /// The extension must follow, or the kind's `missing_extension` error.
    Required,
    /// Not read; one that follows is still the pseudo's (positionally) and is consumed.
    Ignored,
}

#[derive(Debug, Clone, Serialize)]
pub struct Kind {
    /// The selector value.
    pub value: u64,
    /// Its enumerator.
    pub name: String,
    /// The real word.
    pub to: String,
    pub to_opcode: u8,
    pub extension: ExtensionUse,
    pub missing_extension: Option<Message>,
    pub doc: String,
    /// One per ABI, in ABI order.
    pub routes: Vec<Route>,
    pub mappings: Vec<Mapping>,
    /// Data leaves of the target no mapping writes (they keep the template's value).
    pub unmapped: Vec<String>,
    /// Data leaves of the pseudo (and of the extension, `ext.`-prefixed) no mapping reads.
    pub unread: Vec<String>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Lowering {
    pub name: String,
    pub from: String,
    pub from_opcode: u8,
    pub selector: Place,
    /// The selector's enum type.
    pub selector_type: String,
    pub extension: Option<String>,
    pub extension_opcode: Option<u8>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub unsupported: Message,
    pub abis: Vec<Abi>,
    pub kinds: Vec<Kind>,
    /// Spec file, relative to the spec directory, and line.
    pub file: String,
    pub line: usize,
}

/// Whether a tag says the claim is inferred rather than stated.
pub fn is_inferred(c: &Confidence) -> bool {
    c.tag.contains("INFERRED")
}
