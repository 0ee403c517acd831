//! Lowering tables and the engine that applies them.
//!
//! The spec's `[[lowering]]` (how a runtime turns a pseudo word into a real one: which
//! selector value picks which word, which field feeds which, with what confidence) is
//! generated into `LOWERINGS`, a list of [`LoweringMeta`]. [`apply`] lays one kind's
//! mappings onto a word; `dmaspec::lower` adds the stream rules (the positional extension,
//! the runtime's errors). Nothing here knows a particular word: every offset comes from
//! the tables.

use core::fmt;

use super::meta::{Confidence, Evidence};
use super::wire::{get, put};

/// A field of a word, resolved to where its bits are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The path in its word (`dma_configs.priority_class`, `src_step_elem[0]`).
    pub path: &'static str,
    /// Absolute byte offset.
    pub offset: usize,
    /// Bytes (of the container, for a bit range).
    pub size: usize,
    /// `(lsb, width)` for a bitfield sub-field.
    pub bits: Option<(u32, u32)>,
    /// The spec type.
    pub type_name: &'static str,
}

impl Place {
    /// Width in bits.
    pub const fn width(&self) -> u32 {
        match self.bits {
            Some((_, w)) => w,
            None => self.size as u32 * 8,
        }
    }

    /// The value (at most 64 bits) in `word`.
    pub fn read(&self, word: &[u8; 64]) -> u64 {
        get(word, self.offset, self.size, self.bits)
    }

    /// Writes `v` here, keeping every bit outside the place.
    pub fn write(&self, word: &mut [u8; 64], v: u64) {
        put(word, self.offset, self.size, self.bits, v)
    }

    /// The bytes the place covers.
    pub fn bytes<'w>(&self, word: &'w [u8; 64]) -> &'w [u8] {
        let end = (self.offset + self.size).min(word.len());
        &word[self.offset.min(end)..end]
    }
}

/// Where a mapping's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A field of the pseudo word.
    Pseudo(Place),
    /// A field of its extension word (`ext.<path>` in the spec).
    Ext(Place),
    /// A constant.
    Value(u64),
}

/// The parts of a variable address inside the address field (offsets within the field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddrVar {
    /// Offset of the marker byte (the last byte of the field).
    pub marker: usize,
    /// The variable arm is taken when `marker & mask == value`.
    pub mask: u64,
    pub value: u64,
    /// (offset, size) of the immediate offset within the variable.
    pub immediate: (usize, usize),
    /// (offset, size) of the low and high parts of the variable id.
    pub var_id_lo: (usize, usize),
    pub var_id_hi: (usize, usize),
}

/// How a value is carried from source to target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transform {
    /// The bits as they are.
    Copy,
    /// Into fewer bits of the same type; a value that does not fit is an error.
    Narrow,
    /// A pseudo address to a real one: anything but a variable passes through; a variable
    /// becomes `base(var_id) + immediate`, written below the marker, with the variable
    /// bits cleared from the marker.
    ResolveAddr(AddrVar),
}

impl Transform {
    pub const fn name(&self) -> &'static str {
        match self {
            Transform::Copy => "copy",
            Transform::Narrow => "narrow",
            Transform::ResolveAddr(_) => "resolve_addr",
        }
    }
}

/// One field of the real word and where its value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MappingMeta {
    pub to: Place,
    pub source: Source,
    pub via: Transform,
    pub confidence: Confidence,
    /// Not stated by the sources (an INFERRED tag).
    pub inferred: bool,
    pub note: Option<&'static str>,
    pub evidence: &'static [Evidence],
}

impl MappingMeta {
    /// The source as the spec writes it: `dma_configs`, `ext.flags`, `0xbb`.
    pub fn source_text(&self) -> SourceText {
        SourceText(self.source)
    }
}

/// [`MappingMeta::source_text`].
pub struct SourceText(Source);

impl fmt::Display for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Source::Pseudo(p) => f.write_str(p.path),
            Source::Ext(p) => write!(f, "ext.{}", p.path),
            Source::Value(v) => write!(f, "{v:#x}"),
        }
    }
}

/// An error the runtime reports, with its evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageMeta {
    /// The text; `%u` stands for the selector value.
    pub text: &'static str,
    pub confidence: Confidence,
    pub inferred: bool,
    pub note: Option<&'static str>,
    pub evidence: &'static [Evidence],
}

impl MessageMeta {
    /// The text with `%u` replaced by `value`.
    pub fn format(&self, value: u64) -> Formatted {
        Formatted {
            text: self.text,
            value,
        }
    }
}

/// [`MessageMeta::format`].
pub struct Formatted {
    text: &'static str,
    value: u64,
}

impl fmt::Display for Formatted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = self.text.split("%u");
        if let Some(first) = parts.next() {
            f.write_str(first)?;
        }
        for p in parts {
            write!(f, "{}{p}", self.value)?;
        }
        Ok(())
    }
}

/// A dispatcher version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbiMeta {
    pub name: &'static str,
    /// The dispatcher function.
    pub entry: &'static str,
    pub doc: &'static str,
    pub default: bool,
    pub confidence: Confidence,
    pub inferred: bool,
    pub note: Option<&'static str>,
    pub evidence: &'static [Evidence],
}

/// How one ABI version's dispatcher reaches a kind's builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteMeta {
    pub abi: &'static str,
    /// Functions in call order, dispatcher first.
    pub via: &'static [&'static str],
    pub confidence: Confidence,
    pub inferred: bool,
    pub note: Option<&'static str>,
    pub evidence: &'static [Evidence],
}

/// Whether a kind needs the extension word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtensionUse {
    /// It must follow, or the kind's `missing_extension` error.
    Required,
    /// Not read; one that follows is still consumed (it belongs to the pseudo).
    Ignored,
}

/// One selector value: the real word and how each of its fields is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindMeta {
    /// The selector value and its enumerator.
    pub value: u64,
    pub name: &'static str,
    /// The real word.
    pub to: &'static str,
    pub to_opcode: u8,
    /// The real word's TEMPLATE (opcode and constants): where lowering starts.
    pub template: &'static [u8; 64],
    pub extension: ExtensionUse,
    pub missing_extension: Option<MessageMeta>,
    pub doc: &'static str,
    /// One per ABI.
    pub routes: &'static [RouteMeta],
    pub mappings: &'static [MappingMeta],
    /// Data fields of the real word no mapping writes (they keep the template's value).
    pub unmapped: &'static [&'static str],
    /// Data fields of the pseudo (`ext.` for the extension) no mapping reads.
    pub unread: &'static [&'static str],
}

impl KindMeta {
    pub fn route(&self, abi: &str) -> Option<&'static RouteMeta> {
        self.routes.iter().find(|r| r.abi == abi)
    }
}

/// A pseudo word and the real words it lowers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoweringMeta {
    pub name: &'static str,
    /// The pseudo word and its opcode.
    pub from: &'static str,
    pub from_opcode: u8,
    /// The leaf whose value picks the kind, and its enum.
    pub selector: Place,
    pub selector_type: &'static str,
    /// The positional extension word.
    pub extension: Option<&'static str>,
    pub extension_opcode: Option<u8>,
    pub doc: &'static str,
    pub confidence: Confidence,
    pub evidence: &'static [Evidence],
    /// A selector value no kind handles.
    pub unsupported: MessageMeta,
    pub abis: &'static [AbiMeta],
    pub kinds: &'static [KindMeta],
}

impl LoweringMeta {
    /// The selector value of `pseudo`.
    pub fn selector_value(&self, pseudo: &[u8; 64]) -> u64 {
        self.selector.read(pseudo)
    }

    pub fn kind(&self, value: u64) -> Option<&'static KindMeta> {
        self.kinds.iter().find(|k| k.value == value)
    }

    pub fn abi(&self, name: &str) -> Option<&'static AbiMeta> {
        self.abis.iter().find(|a| a.name == name)
    }

    pub fn default_abi(&self) -> &'static AbiMeta {
        self.abis
            .iter()
            .find(|a| a.default)
            .unwrap_or(&self.abis[0])
    }
}

/// Variable id → base address, for `resolve_addr`.
pub trait Variables {
    fn base(&self, id: u64) -> Option<u64>;
}

impl<F: Fn(u64) -> Option<u64>> Variables for F {
    fn base(&self, id: u64) -> Option<u64> {
        self(id)
    }
}

/// No variables: every variable address is unresolved.
pub struct NoVariables;

impl Variables for NoVariables {
    fn base(&self, _id: u64) -> Option<u64> {
        None
    }
}

/// Why a mapping could not be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyError {
    /// A variable address whose variable is not in the table.
    UnresolvedVariable {
        mapping: &'static MappingMeta,
        var_id: u64,
        immediate: u64,
    },
    /// `base + immediate` does not fit the address bytes below the marker.
    AddressOverflow {
        mapping: &'static MappingMeta,
        var_id: u64,
        base: u64,
        immediate: u64,
    },
    /// A `narrow` whose value does not fit the target.
    DoesNotFit {
        mapping: &'static MappingMeta,
        value: u64,
    },
    /// A mapping reads the extension, and there is none.
    NoExtension { mapping: &'static MappingMeta },
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::UnresolvedVariable {
                mapping,
                var_id,
                immediate,
            } => write!(
                f,
                "{}: variable {var_id} (offset {immediate:#x}) is not in the variable table",
                mapping.source_text()
            ),
            ApplyError::AddressOverflow {
                mapping,
                var_id,
                base,
                immediate,
            } => write!(
                f,
                "{}: variable {var_id} at {base:#x} + {immediate:#x} does not fit {}'s address bits",
                mapping.source_text(),
                mapping.to.path
            ),
            ApplyError::DoesNotFit { mapping, value } => write!(
                f,
                "{} = {value:#x} does not fit {} ({} bits)",
                mapping.source_text(),
                mapping.to.path,
                mapping.to.width()
            ),
            ApplyError::NoExtension { mapping } => write!(
                f,
                "{} reads the extension word, and there is none",
                mapping.source_text()
            ),
        }
    }
}

impl core::error::Error for ApplyError {}

/// Applies every mapping of `kind` to `dest` in order (a lowering starts `dest` from
/// `kind.template`). Bits outside each target place are kept.
pub fn apply(
    kind: &'static KindMeta,
    pseudo: &[u8; 64],
    ext: Option<&[u8; 64]>,
    vars: &dyn Variables,
    dest: &mut [u8; 64],
) -> Result<(), ApplyError> {
    for m in kind.mappings {
        apply_one(m, pseudo, ext, vars, dest)?;
    }
    Ok(())
}

/// Applies one mapping.
pub fn apply_one(
    m: &'static MappingMeta,
    pseudo: &[u8; 64],
    ext: Option<&[u8; 64]>,
    vars: &dyn Variables,
    dest: &mut [u8; 64],
) -> Result<(), ApplyError> {
    let (word, from) = match m.source {
        Source::Value(v) => {
            m.to.write(dest, v);
            return Ok(());
        }
        Source::Pseudo(p) => (pseudo, p),
        Source::Ext(p) => match ext {
            Some(e) => (e, p),
            None => return Err(ApplyError::NoExtension { mapping: m }),
        },
    };
    match m.via {
        Transform::Copy => copy(word, &from, dest, &m.to),
        Transform::Narrow => {
            let v = from.read(word);
            let w = m.to.width();
            if w < 64 && v >> w != 0 {
                return Err(ApplyError::DoesNotFit {
                    mapping: m,
                    value: v,
                });
            }
            m.to.write(dest, v);
        }
        Transform::ResolveAddr(a) => {
            let field = from.bytes(word);
            let marker = u64::from(field.get(a.marker).copied().unwrap_or(0));
            if marker & a.mask != a.value {
                copy(word, &from, dest, &m.to);
                return Ok(());
            }
            let lo = get(field, a.var_id_lo.0, a.var_id_lo.1, None);
            let hi = get(field, a.var_id_hi.0, a.var_id_hi.1, None);
            let var_id = lo | hi << (a.var_id_lo.1 * 8);
            let immediate = get(field, a.immediate.0, a.immediate.1, None);
            let Some(base) = vars.base(var_id) else {
                return Err(ApplyError::UnresolvedVariable {
                    mapping: m,
                    var_id,
                    immediate,
                });
            };
            let bits = (a.marker * 8) as u32;
            let address = base
                .checked_add(immediate)
                .filter(|v| bits >= 64 || v >> bits == 0);
            let Some(address) = address else {
                return Err(ApplyError::AddressOverflow {
                    mapping: m,
                    var_id,
                    base,
                    immediate,
                });
            };
            put(dest, m.to.offset, a.marker, None, address);
            put(dest, m.to.offset + a.marker, 1, None, marker & !a.mask);
        }
    }
    Ok(())
}

fn copy(word: &[u8; 64], from: &Place, dest: &mut [u8; 64], to: &Place) {
    if from.bits.is_none() && to.bits.is_none() && from.size == to.size {
        let n = from.size;
        if from.offset + n <= 64 && to.offset + n <= 64 {
            dest[to.offset..to.offset + n].copy_from_slice(&word[from.offset..from.offset + n]);
        }
    } else {
        to.write(dest, from.read(word));
    }
}
