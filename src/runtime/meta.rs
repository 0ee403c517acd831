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

impl Confidence {
    /// No confidence stated, weaker than every level: what the `DEFAULT` records hold
    /// until a generated table states one (every generated record does).
    pub const UNSTATED: Confidence = Confidence {
        tag: "",
        scale: "",
        level: "",
        rank: usize::MAX,
    };
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

impl Evidence {
    /// The base the generated records fill in with `..Evidence::DEFAULT`: no source, no
    /// optional part.
    pub const DEFAULT: Evidence = Evidence {
        source: "",
        cite: "",
        name: None,
        names: None,
        pin: None,
        value: None,
        confidence: Confidence::UNSTATED,
        note: None,
    };
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

/// A recorded disagreement between sources that is not one field's bytes read two ways
/// (a table's value, an enum's width, a range). Its readings' `type_name` is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    pub name: &'static str,
    pub doc: &'static str,
    /// The types and tables it is about.
    pub about: &'static [&'static str],
    pub readings: &'static [Alternative],
}

/// Something the sources name but do not let the spec lay out (the spec's `[[gap]]`):
/// a word with no byte table, or a part of a word a page leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// As the source spells it.
    pub name: &'static str,
    /// The opcode and its `OPCODE` enumerator, when it would be a word of its own.
    pub opcode: Option<(u8, &'static str)>,
    /// The word or record it is part of.
    pub word: Option<&'static str>,
    /// Why it cannot be specified.
    pub reason: &'static str,
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
}

impl Gap {
    /// The base the generated records fill in with `..Gap::DEFAULT`: no opcode, not part of
    /// a word.
    pub const DEFAULT: Gap = Gap {
        name: "",
        opcode: None,
        word: None,
        reason: "",
        confidence: Confidence::UNSTATED,
        evidence: &[],
    };
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
    /// The member's own tag; [`Confidence::UNSTATED`] for an unknown member, which claims
    /// no meaning.
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
    pub alternatives: &'static [Alternative],
    /// The value the encoder always writes here; decode reports a word that differs.
    pub constant: Option<u64>,
    /// How the stored value maps to the logical one.
    pub codec: Option<Codec>,
}

impl FieldMeta {
    /// A data member with no bit range, evidence, alternatives, constant or codec: what the
    /// generated tables build on with the setters below.
    pub const fn new(
        name: &'static str,
        offset: usize,
        size: usize,
        type_name: &'static str,
        confidence: Confidence,
        doc: &'static str,
    ) -> FieldMeta {
        FieldMeta {
            name,
            offset,
            size,
            bits: None,
            type_name,
            role: Role::Data,
            doc,
            confidence,
            evidence: &[],
            alternatives: &[],
            constant: None,
            codec: None,
        }
    }

    /// The member as bits `lsb..lsb + width` of its container.
    pub const fn bits(self, lsb: u32, width: u32) -> FieldMeta {
        FieldMeta {
            bits: Some((lsb, width)),
            ..self
        }
    }

    pub const fn role(self, role: Role) -> FieldMeta {
        FieldMeta { role, ..self }
    }

    pub const fn evidence(self, evidence: &'static [Evidence]) -> FieldMeta {
        FieldMeta { evidence, ..self }
    }

    pub const fn alternatives(self, alternatives: &'static [Alternative]) -> FieldMeta {
        FieldMeta {
            alternatives,
            ..self
        }
    }

    /// The member always encoded as `value`.
    pub const fn constant(self, value: u64) -> FieldMeta {
        FieldMeta {
            constant: Some(value),
            ..self
        }
    }

    pub const fn codec(self, codec: Codec) -> FieldMeta {
        FieldMeta {
            codec: Some(codec),
            ..self
        }
    }
}

/// How a stored value maps to the logical one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// Stored 0 means this value (`*_elem_size`: 0 means 65536).
    ZeroMeans(u64),
}

impl Codec {
    /// The logical value of a stored one.
    pub const fn decode(self, stored: u64) -> u64 {
        match self {
            Codec::ZeroMeans(v) if stored == 0 => v,
            Codec::ZeroMeans(_) => stored,
        }
    }
}

/// One logical value stored in several fields, low part first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JoinMeta {
    pub name: &'static str,
    /// (field name, bit width), low part first.
    pub parts: &'static [(&'static str, u32)],
    pub doc: &'static str,
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
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
    /// The leaf's own type (an array member's element type when the leaf is one element).
    pub type_name: &'static str,
    /// The union arm this leaf belongs to, if any.
    pub variant: Option<&'static str>,
    /// The member that declares the leaf: its doc, evidence, alternatives, constant and
    /// codec apply to the leaf. Its `offset` is within its parent type; the leaf's own
    /// `offset` is the absolute one.
    pub field: &'static FieldMeta,
    /// How sure the spec is of what the leaf means: the weakest tag of `within` and
    /// `field` (of equally weak tags, the one nearest the leaf). `None` for an unknown
    /// leaf: no source claims a meaning for its bytes.
    pub confidence: Option<Confidence>,
    /// The members holding `field`, from the word's own field inwards (`header` for
    /// `header.opcode`); their evidence is about these bytes too.
    pub within: &'static [&'static FieldMeta],
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
    /// Architectures that have it (by name); empty means all.
    pub arch: &'static [&'static str],
    /// The engine that executes it (an `OPCODE` enumerator's), when the sources say.
    pub engine: Option<&'static str>,
}

impl EnumeratorMeta {
    /// The base the generated records fill in: no aliases, on every architecture, no
    /// engine.
    pub const DEFAULT: EnumeratorMeta = EnumeratorMeta {
        name: "",
        value: 0,
        c_name: "",
        aliases: &[],
        arch: &[],
        engine: None,
    };
}

impl LeafMeta {
    /// The leaf at `offset` laid out as the member `field` that declares it (its size,
    /// bit range, type and confidence), held by no other member, outside any union arm.
    pub const fn of(path: &'static str, offset: usize, field: &'static FieldMeta) -> LeafMeta {
        LeafMeta {
            path,
            offset,
            size: field.size,
            bits: field.bits,
            type_name: field.type_name,
            variant: None,
            field,
            confidence: match field.role {
                Role::Unknown => None,
                _ => Some(field.confidence),
            },
            within: &[],
        }
    }

    /// The members from the word's field to the one declaring the leaf, outermost first.
    pub fn chain(&self) -> impl Iterator<Item = &'static FieldMeta> {
        self.within.iter().copied().chain([self.field])
    }

    /// The leaf held by the members `within`, from the word's own field inwards.
    pub const fn within(self, within: &'static [&'static FieldMeta]) -> LeafMeta {
        LeafMeta { within, ..self }
    }

    /// The leaf as part of the union arm `variant`.
    pub const fn arm(self, variant: &'static str) -> LeafMeta {
        LeafMeta {
            variant: Some(variant),
            ..self
        }
    }

    /// The leaf with the confidence its holders bring (weaker than its member's own).
    pub const fn confidence(self, confidence: Option<Confidence>) -> LeafMeta {
        LeafMeta { confidence, ..self }
    }

    /// The leaf laid out unlike its declaring member (one element of an array member).
    pub const fn element(
        self,
        size: usize,
        bits: Option<(u32, u32)>,
        type_name: &'static str,
    ) -> LeafMeta {
        LeafMeta {
            size,
            bits,
            type_name,
            ..self
        }
    }

    /// The leaf's stored bits in `word`, little-endian, shifted down for a bit range.
    pub fn raw(&self, word: &[u8; 64]) -> u64 {
        let end = (self.offset + self.size.min(8)).min(word.len());
        let start = self.offset.min(end);
        let v = word[start..end]
            .iter()
            .rev()
            .fold(0u64, |acc, b| acc << 8 | u64::from(*b));
        match self.bits {
            Some((lsb, width)) if width < 64 => (v >> lsb) & ((1u64 << width) - 1),
            Some((lsb, _)) => v >> lsb,
            None => v,
        }
    }
}

/// The leaves of `leaves` whose constant differs in `word`: (leaf, expected, found).
/// (Constants live outside union arms; the loader does not allow them inside one.)
pub fn constant_mismatches<'a>(
    word: &'a [u8; 64],
    leaves: &'static [LeafMeta],
) -> impl Iterator<Item = (&'static LeafMeta, u64, u64)> + 'a {
    leaves.iter().filter_map(move |l| {
        let expected = l.field.constant?;
        let found = l.raw(word);
        (found != expected).then_some((l, expected, found))
    })
}
