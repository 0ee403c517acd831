//! The resolved word types: enums, flags, bitfields, structs and unions with absolute
//! offsets, and the per-leaf and per-byte views the emitters walk.

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use super::provenance::{Confidence, Evidence};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Int {
    U8,
    U16,
    /// Three bytes, little-endian: only a bitfield's container (`repr = "u24"`), for a
    /// 24-bit packed group that shares its word with a byte of another member (the
    /// notification record's word0 `[23:0]` under its header byte). Held in a `u32`.
    U24,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
}

impl Int {
    pub fn parse(s: &str) -> Option<Int> {
        Some(match s {
            "u8" => Int::U8,
            "u16" => Int::U16,
            "u32" => Int::U32,
            "u64" => Int::U64,
            "i8" => Int::I8,
            "i16" => Int::I16,
            "i32" => Int::I32,
            "i64" => Int::I64,
            _ => return None,
        })
    }
    /// A bitfield's container: an integer type or `u24`.
    pub fn parse_bitfield_repr(s: &str) -> Option<Int> {
        match s {
            "u24" => Some(Int::U24),
            _ => Int::parse(s),
        }
    }
    pub fn size(self) -> usize {
        match self {
            Int::U8 | Int::I8 => 1,
            Int::U16 | Int::I16 => 2,
            Int::U24 => 3,
            Int::U32 | Int::I32 => 4,
            Int::U64 | Int::I64 => 8,
        }
    }
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }
    pub fn signed(self) -> bool {
        matches!(self, Int::I8 | Int::I16 | Int::I32 | Int::I64)
    }
    pub fn rust(self) -> &'static str {
        match self {
            Int::U8 => "u8",
            Int::U16 => "u16",
            Int::U24 | Int::U32 => "u32",
            Int::U64 => "u64",
            Int::I8 => "i8",
            Int::I16 => "i16",
            Int::I32 => "i32",
            Int::I64 => "i64",
        }
    }
    pub fn c(self) -> &'static str {
        match self {
            Int::U8 => "uint8_t",
            Int::U16 => "uint16_t",
            Int::U24 | Int::U32 => "uint32_t",
            Int::U64 => "uint64_t",
            Int::I8 => "int8_t",
            Int::I16 => "int16_t",
            Int::I32 => "int32_t",
            Int::I64 => "int64_t",
        }
    }
}

/// The type of a struct member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TypeRef {
    Int {
        int: Int,
    },
    /// A named type; `index` is its position in `Model::types`.
    Named {
        name: String,
        index: usize,
    },
    Array {
        elem: Box<TypeRef>,
        len: usize,
    },
    /// Fixed-length NUL-padded ASCII text (`ascii[32]`).
    Ascii {
        len: usize,
    },
}

impl TypeRef {
    /// Spelling as in the spec: `i32[2]`, `DTYPE`.
    pub fn spelling(&self) -> String {
        match self {
            TypeRef::Int { int } => int.rust().to_string(),
            TypeRef::Named { name, .. } => name.clone(),
            TypeRef::Array { elem, len } => format!("{}[{len}]", elem.spelling()),
            TypeRef::Ascii { len } => format!("ascii[{len}]"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A field with a known meaning.
    Data,
    /// Named reserved / padding by a source.
    Reserved,
    /// No source gives a meaning; kept raw.
    Unknown,
}

/// A reading of the same bytes that disagrees with the primary one.
#[derive(Debug, Clone, Serialize)]
pub struct Alternative {
    pub name: String,
    /// The type the alternative reads the bytes as; the primary's when absent.
    pub ty: Option<TypeRef>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

/// A `[[conflict]]`: sources that disagree about a table's value, an enum's width or
/// a range, with every reading (their `ty` is always `None`) and none primary.
#[derive(Debug, Clone, Serialize)]
pub struct Conflict {
    pub name: String,
    pub doc: String,
    /// The types and tables it is about.
    pub about: Vec<String>,
    pub readings: Vec<Alternative>,
    /// The spec file that declares it, relative to the spec root.
    pub file: String,
}

/// Serialized with [`Field::claimed`] as its `confidence` (null for an unknown field).
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    /// Byte offset within the parent type.
    pub offset: usize,
    pub size: usize,
    pub ty: TypeRef,
    pub doc: String,
    pub role: Role,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub alternatives: Vec<Alternative>,
    /// The value the encoder always writes here.
    pub constant: Option<u64>,
    pub codec: Option<Codec>,
}

impl Field {
    /// The confidence the spec claims for this field's meaning: none for an unknown field,
    /// whose bytes no source explains (its `confidence` is only the struct's default).
    pub fn claimed(&self) -> Option<&Confidence> {
        claimed(self.role, &self.confidence)
    }
}

/// `c`, unless `role` says no source gives the bytes a meaning.
fn claimed(role: Role, c: &Confidence) -> Option<&Confidence> {
    (role != Role::Unknown).then_some(c)
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Field", 11)?;
        m.serialize_field("name", &self.name)?;
        m.serialize_field("offset", &self.offset)?;
        m.serialize_field("size", &self.size)?;
        m.serialize_field("ty", &self.ty)?;
        m.serialize_field("doc", &self.doc)?;
        m.serialize_field("role", &self.role)?;
        m.serialize_field("confidence", &self.claimed())?;
        m.serialize_field("evidence", &self.evidence)?;
        m.serialize_field("alternatives", &self.alternatives)?;
        m.serialize_field("constant", &self.constant)?;
        m.serialize_field("codec", &self.codec)?;
        m.end()
    }
}

impl Serialize for BitField {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("BitField", 10)?;
        m.serialize_field("name", &self.name)?;
        m.serialize_field("lsb", &self.lsb)?;
        m.serialize_field("width", &self.width)?;
        m.serialize_field("ty", &self.ty)?;
        m.serialize_field("doc", &self.doc)?;
        m.serialize_field("role", &self.role)?;
        m.serialize_field("confidence", &self.claimed())?;
        m.serialize_field("evidence", &self.evidence)?;
        m.serialize_field("alternatives", &self.alternatives)?;
        m.serialize_field("constant", &self.constant)?;
        m.end()
    }
}

/// Where a member's metadata lives among the generated types, so a leaf can point at it
/// instead of repeating it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaSlot {
    /// Member `index` of type `owner` (`owner::FIELDS[index]`).
    Field { owner: String, index: usize },
    /// The discriminator of union `owner`.
    Discriminator { owner: String },
}

impl MetaSlot {
    pub(super) fn field(owner: &str, index: usize) -> Self {
        MetaSlot::Field {
            owner: owner.to_string(),
            index,
        }
    }
}

/// How a stored value maps to the logical one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Codec {
    /// Stored 0 means this value (`*_elem_size`: 0 means 65536).
    ZeroMeans(u64),
}

/// One logical value stored in several fields of a struct, low part first.
#[derive(Debug, Clone, Serialize)]
pub struct Join {
    pub name: String,
    /// (field name, bit width), low part first.
    pub parts: Vec<(String, u32)>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

/// What a bitfield sub-field holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BitsType {
    Uint,
    /// A named enum or flags type whose values fit the bit range.
    Named {
        name: String,
        index: usize,
    },
}

/// Serialized like [`Field`]: `confidence` is [`BitField::claimed`].
#[derive(Debug, Clone)]
pub struct BitField {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
    pub ty: BitsType,
    pub doc: String,
    pub role: Role,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    pub alternatives: Vec<Alternative>,
    pub constant: Option<u64>,
}

impl BitField {
    /// As [`Field::claimed`].
    pub fn claimed(&self) -> Option<&Confidence> {
        claimed(self.role, &self.confidence)
    }

    pub fn mask(&self) -> u64 {
        if self.width == 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Enumerator {
    pub name: String,
    pub value: u64,
    pub c_name: String,
    pub doc: Option<String>,
    /// Architectures that have it; empty means all.
    pub arch: Vec<String>,
    pub aliases: Vec<Alias>,
    /// The engine that executes it (an `OPCODE` enumerator's), when the sources say.
    pub engine: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Alias {
    pub name: String,
    pub c_name: String,
    /// The source (document and section) that spells it so; `None` for a name the spec
    /// coined itself (an older name kept as input).
    pub source: Option<String>,
    pub note: Option<String>,
    /// The declared heading `source` names, as for [`Evidence::section`].
    #[serde(skip)]
    pub section: Option<String>,
}

impl Alias {
    /// Who spells it so: the cited source, or the spec itself.
    pub fn spelled_by(&self) -> &str {
        self.source.as_deref().unwrap_or(Alias::OURS)
    }

    /// How the outputs name an alias no source uses.
    pub const OURS: &'static str = "dmaspec (an older spec name; no source uses it)";
}

#[derive(Debug, Clone, Serialize)]
pub struct FlagBit {
    pub name: String,
    pub bit: u32,
    pub c_name: String,
    pub doc: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Variant {
    pub name: String,
    /// `None` for the default arm.
    pub mask: Option<u64>,
    pub value: Option<u64>,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    /// Members of this arm, offsets within the union; the discriminator is not repeated.
    pub fields: Vec<Field>,
}

impl Variant {
    /// Name of the struct type that holds this arm of `union`.
    pub fn arm_type_name(&self, union: &str) -> String {
        format!("{union}_{}", self.name)
    }

    /// The arm as a struct: its members plus the discriminator, by offset, so an arm
    /// encodes alone.
    pub fn arm_fields(&self, disc: &Field) -> Vec<Field> {
        let mut fields = self.fields.clone();
        fields.push(disc.clone());
        fields.sort_by_key(|f| f.offset);
        fields
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TypeKind {
    Enum {
        repr: Int,
        values: Vec<Enumerator>,
    },
    Flags {
        repr: Int,
        none: Option<String>,
        bits: Vec<FlagBit>,
    },
    Bitfield {
        repr: Int,
        fields: Vec<BitField>,
    },
    Struct {
        fields: Vec<Field>,
        /// The bound opcode for a top-level word.
        opcode: Option<Opcode>,
        /// Architectures that ship it; all when the spec does not restrict it.
        arch: Vec<String>,
        /// The spec gives no `arch` list: "every architecture" is the spec's inference, not
        /// a source's (the word's INFERRED evidence gives the chain).
        arch_inferred: bool,
        /// The words one of which this one must immediately follow (a positional
        /// extension); empty when it stands alone.
        follows: Vec<String>,
        /// Decoded on its own (`top_level = true`): a record, the top-level item that is
        /// not a word.
        top_level: bool,
        /// Other names of the word, each with who spells it so.
        aliases: Vec<Alias>,
        /// Logical values split across fields.
        joins: Vec<Join>,
        /// Whole-struct readings that disagree with this one (documented, not decoded).
        alternatives: Vec<Alternative>,
    },
    Union {
        discriminator: Field,
        variants: Vec<Variant>,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct Opcode {
    pub value: u8,
    /// The `OPCODE` enumerator (and its aliases live on the enumerator).
    pub enumerator: String,
    /// Set for a word chosen by opcode and a sub-opcode field of its envelope.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub: Option<SubOpcode>,
}

/// A sub-word's selector: bytes `offset..offset + size` of the word (its envelope's
/// field `field`) hold `value`, the enumerator `enumerator`. Other values decode as the
/// envelope.
#[derive(Debug, Clone, Serialize)]
pub struct SubOpcode {
    pub envelope: String,
    pub field: String,
    pub offset: usize,
    pub size: usize,
    pub enumerator: String,
    pub value: u64,
}

impl SubOpcode {
    /// The selector's bytes as stored (little-endian).
    pub fn bytes(&self) -> Vec<u8> {
        self.value.to_le_bytes()[..self.size.min(8)].to_vec()
    }

    /// The test a decoder adds to the opcode match, as Rust source over `b: &[u8; 64]`:
    /// `b[12..13] == [8]`.
    pub fn rust_guard(&self) -> String {
        let bytes: Vec<String> = self.bytes().iter().map(u8::to_string).collect();
        format!(
            "b[{}..{}] == [{}]",
            self.offset,
            self.offset + self.size,
            bytes.join(", ")
        )
    }
}

/// Indices of `words` in the order a decoder tries them: sub-words first (each guarded
/// by its selector), so that their envelope, which shares the opcode, catches the rest.
pub fn dispatch_order(words: &[&TypeDef]) -> Vec<usize> {
    let is_sub = |w: &&TypeDef| w.opcode().is_some_and(|o| o.sub.is_some());
    let (subs, rest): (Vec<usize>, Vec<usize>) = (0..words.len()).partition(|&i| is_sub(&words[i]));
    subs.into_iter().chain(rest).collect()
}

#[derive(Debug, Clone, Serialize)]
pub struct TypeDef {
    pub name: String,
    pub c_name: String,
    pub size: usize,
    pub doc: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    /// Spec file that declares it, relative to the spec directory.
    pub file: String,
    pub line: usize,
    #[serde(flatten)]
    pub kind: TypeKind,
}

impl TypeDef {
    pub fn opcode(&self) -> Option<&Opcode> {
        match &self.kind {
            TypeKind::Struct { opcode, .. } => opcode.as_ref(),
            _ => None,
        }
    }

    /// A record: a struct decoded on its own that is not a word.
    pub fn is_record(&self) -> bool {
        matches!(
            self.kind,
            TypeKind::Struct {
                top_level: true,
                ..
            }
        )
    }

    /// A word or a record: an item with its own header, page and decoder.
    pub fn is_top_level(&self) -> bool {
        self.opcode().is_some() || self.is_record()
    }
}

/// One leaf of a word, flattened: what a byte-by-byte table shows.
#[derive(Debug, Clone)]
pub struct Leaf<'m> {
    /// Dotted path from the word, with `[i]` for array elements.
    pub path: String,
    /// Absolute byte offset in the word.
    pub offset: usize,
    pub size: usize,
    /// Bit range within the container for bitfield sub-fields.
    pub bits: Option<(u32, u32)>,
    pub type_name: String,
    pub doc: &'m str,
    pub role: Role,
    /// How sure the spec is of what the leaf means: the weakest tag along [`Leaf::chain`]
    /// (on the common ordering; of equally weak tags, the one nearest the leaf). `None` for
    /// an unknown leaf: no source claims a meaning for its bytes, as coverage counts them.
    pub confidence: Option<&'m Confidence>,
    pub alternatives: &'m [Alternative],
    /// The union arm this leaf belongs to, if any (`src_start_addr.addr_var`).
    pub variant: Option<String>,
    /// The value the encoder always writes here.
    pub constant: Option<u64>,
    pub codec: Option<Codec>,
    /// The member that declares this leaf.
    pub member: Link<'m>,
    /// The members that hold it, from the word's own field inwards (`header` for
    /// `header.opcode`): each states its own confidence and evidence about these bytes.
    pub within: Vec<Link<'m>>,
}

/// One member on the way from a word to a leaf, with what the spec says of it there.
#[derive(Debug, Clone)]
pub struct Link<'m> {
    /// Where the member lands in the word (`header`, `src_idx_start_addr.address`).
    pub path: String,
    pub slot: MetaSlot,
    pub confidence: &'m Confidence,
    pub evidence: &'m [Evidence],
}

impl<'m> Leaf<'m> {
    /// Every member from the word's field to the leaf's own, outermost first.
    pub fn chain(&self) -> impl Iterator<Item = &Link<'m>> {
        self.within.iter().chain([&self.member])
    }

    /// The member that declares this leaf.
    pub fn declared(&self) -> &MetaSlot {
        &self.member.slot
    }

    /// Every member of [`Leaf::chain`] with the tag it claims for these bytes: its own, but
    /// none for the declaring member of an unknown leaf.
    pub fn claims(&self) -> impl Iterator<Item = (&Link<'m>, Option<&'m Confidence>)> {
        let own = (self.role != Role::Unknown).then_some(self.member.confidence);
        let within = self.within.iter().map(|l| (l, Some(l.confidence)));
        within.chain([(&self.member, own)])
    }
}

/// The confidence of a leaf with `role`, declared by `member` and held by `within`: see
/// [`Leaf::confidence`].
pub(super) fn leaf_confidence<'m>(
    role: Role,
    within: &[Link<'m>],
    member: &Link<'m>,
) -> Option<&'m Confidence> {
    if role == Role::Unknown {
        return None;
    }
    // `max_by_key` keeps the last of equal maxima: the one nearest the leaf.
    let chain = within.iter().chain([member]);
    chain.map(|l| l.confidence).max_by_key(|c| c.rank)
}

/// What one byte of a word holds, as the coverage summary counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteClass {
    /// Carries meaning; `rank` is the weakest common level (0 = strongest) among the
    /// data leaves that touch the byte.
    Data { rank: usize },
    /// Only reserved leaves touch it.
    Reserved,
    /// An unknown leaf touches it (or, defensively, nothing does).
    Unknown,
}
