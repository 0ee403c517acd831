//! What the spec says about each field, available at run time for tools (disassemblers,
//! table printers, coverage reports). All of it is `'static` data generated from the spec.

/// Whether a field has a known meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Data,
    /// Named reserved / padding by a source.
    Reserved,
    /// No source gives a meaning; the bytes are kept raw.
    Unknown,
}

/// A confidence tag as the source writes it, placed on the common ordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Confidence {
    pub tag: &'static str,
    pub scale: &'static str,
    /// Common level name.
    pub level: &'static str,
    /// Position on the common ordering; 0 is strongest.
    pub rank: usize,
}

/// One source's statement about a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evidence {
    /// Source document id.
    pub source: &'static str,
    /// Document and section as cited.
    pub cite: &'static str,
    /// The name this source uses, when it differs.
    pub name: Option<&'static str>,
    /// The assert / `_STRUCT` / `instr.<field>` string naming it.
    pub names: Option<&'static str>,
    /// Store site, disassembly line or probe output pinning it.
    pub pin: Option<&'static str>,
    /// Where the value comes from.
    pub value: Option<&'static str>,
    pub confidence: Confidence,
    pub note: Option<&'static str>,
}

/// A disagreeing reading of a field's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alternative {
    pub name: &'static str,
    pub type_name: &'static str,
    pub doc: &'static str,
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
}

/// A member of a struct, bitfield container or union arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldMeta {
    pub name: &'static str,
    /// Byte offset within the parent type.
    pub offset: usize,
    pub size: usize,
    /// `(lsb, width)` for a bitfield sub-field.
    pub bits: Option<(u32, u32)>,
    pub type_name: &'static str,
    pub role: Role,
    pub doc: &'static str,
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
    pub alternatives: &'static [Alternative],
}

/// A field flattened to its place in a word: what a byte table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafMeta {
    /// Dotted path from the word (`flags.gather_dim`, `src_step_elem`).
    pub path: &'static str,
    /// Absolute byte offset in the word.
    pub offset: usize,
    pub size: usize,
    pub bits: Option<(u32, u32)>,
    /// The union arm this leaf belongs to, if any.
    pub variant: Option<&'static str>,
    pub field: &'static FieldMeta,
}

/// A named bit of a flag set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagMeta {
    pub name: &'static str,
    pub bit: u32,
    pub doc: &'static str,
}

/// An enumerator, with the other spellings sources use for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumeratorMeta {
    pub name: &'static str,
    pub value: u64,
    pub c_name: &'static str,
    pub aliases: &'static [&'static str],
}
