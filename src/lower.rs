//! Lowering a stream of words the way the host runtime lowers the compiler's pseudo words:
//! the spec's `[[lowering]]` tables ([`LOWERINGS`]) applied by the generic engine of
//! [`crate::runtime::lowering`], plus the stream rules around it.
//!
//! - A pseudo with a lowering (PSEUDO_DMA_DIRECT2D) becomes the real word its selector
//!   (`dge_op`) picks: the target's TEMPLATE with every mapping applied.
//! - Its extension (PSEUDO_DMA_EXT) is positional: only the word right after it. A kind that
//!   requires one fails with the runtime's message when it is missing; a selector value no
//!   kind handles fails with the runtime's "Unsupported dynamic dma opcode %u".
//! - An extension anywhere else is reported, not guessed at; every other word passes
//!   through unchanged.
//!
//! ```
//! use dmaspec::lower::{Item, Lowerer};
//! use dmaspec::runtime::lowering::NoVariables;
//! use dmaspec::words::Arch;
//!
//! let mut pseudo = [0u8; 64];
//! pseudo[0] = 0xd4; // PSEUDO_DMA_DIRECT2D, dge_op 0 (DMA_DIRECT2D)
//! pseudo[1] = 0x10;
//! let mut l = Lowerer::new(Arch::cayman, None, &NoVariables).unwrap();
//! let mut out: Vec<Item> = l.push(&pseudo).collect();
//! out.extend(l.finish());
//! match &out[0] {
//!     Item::Lowered { lowered, .. } => assert_eq!(lowered.bytes[0], 0xb8), // DMAMemcpy
//!     other => panic!("{other:?}"),
//! }
//! ```

use core::fmt;

use crate::runtime::lowering::{
    AbiMeta, ApplyError, ExtensionUse, KindMeta, LoweringMeta, MessageMeta, RouteMeta, Variables,
    apply,
};
use crate::stream::{Decoded, Decoder, Leads, WORD_SIZE};
use crate::words::{Arch, LOWERINGS, WORDS};

/// A pseudo lowered to a real word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lowered {
    pub lowering: &'static LoweringMeta,
    pub kind: &'static KindMeta,
    pub abi: &'static AbiMeta,
    /// How the dispatcher of `abi` reached the kind's builder.
    pub route: Option<&'static RouteMeta>,
    /// The real word.
    pub bytes: [u8; WORD_SIZE],
    /// Whether an extension word came with the pseudo (and was consumed).
    pub extension: bool,
}

/// Why a pseudo could not be lowered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowerError {
    /// The kind needs the extension right after the pseudo, and there is none (the
    /// runtime's own message where the sources give it).
    MissingExtension {
        kind: &'static KindMeta,
        message: &'static MessageMeta,
    },
    /// No kind for this selector value ("Unsupported dynamic dma opcode %u").
    Unsupported {
        lowering: &'static LoweringMeta,
        value: u64,
    },
    /// The real word does not exist in this architecture.
    NotInArch {
        lowering: &'static LoweringMeta,
        kind: &'static KindMeta,
        arch: Arch,
    },
    /// A mapping failed (an unresolved variable, a value that does not fit).
    Apply(ApplyError),
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LowerError::MissingExtension { message, .. } => f.write_str(message.text),
            LowerError::Unsupported { lowering, value } => {
                write!(f, "{}", lowering.unsupported.format(*value))
            }
            LowerError::NotInArch {
                lowering,
                kind,
                arch,
            } => write!(
                f,
                "{} {} ({}) lowers to {}, which {} does not have",
                lowering.selector.path,
                kind.value,
                kind.name,
                kind.to,
                arch.name()
            ),
            LowerError::Apply(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for LowerError {}

/// The lowering whose pseudo word is `name`.
pub fn lowering_of(name: &str) -> Option<&'static LoweringMeta> {
    LOWERINGS.iter().find(|l| l.from == name)
}

/// Lowers one pseudo word, with the word that follows it if that is its extension.
pub fn lower_one(
    lowering: &'static LoweringMeta,
    abi: &'static AbiMeta,
    arch: Arch,
    pseudo: &[u8; WORD_SIZE],
    ext: Option<&[u8; WORD_SIZE]>,
    vars: &dyn Variables,
) -> Result<Lowered, LowerError> {
    let value = lowering.selector_value(pseudo);
    let Some(kind) = lowering.kind(value) else {
        return Err(LowerError::Unsupported { lowering, value });
    };
    let ships = WORDS
        .iter()
        .find(|w| w.name == kind.to)
        .is_some_and(|w| w.arch.contains(&arch));
    if !ships {
        return Err(LowerError::NotInArch {
            lowering,
            kind,
            arch,
        });
    }
    let read_ext = match (kind.extension, ext, &kind.missing_extension) {
        (ExtensionUse::Required, None, Some(message)) => {
            return Err(LowerError::MissingExtension { kind, message });
        }
        (ExtensionUse::Required, e, _) => e,
        (ExtensionUse::Ignored, _, _) => None,
    };
    let mut bytes = *kind.template;
    apply(kind, pseudo, read_ext, vars, &mut bytes).map_err(LowerError::Apply)?;
    Ok(Lowered {
        lowering,
        kind,
        abi,
        route: kind.route(abi.name),
        bytes,
        extension: ext.is_some(),
    })
}

/// Why a word of the stream produced no output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamError {
    Lower(LowerError),
    /// An extension word that does not follow the word it extends.
    Orphan {
        name: &'static str,
        follows: Leads,
    },
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Lower(e) => write!(f, "{e}"),
            StreamError::Orphan { name, follows } => write!(
                f,
                "{name} must immediately follow {follows}; this one does not, so it is not \
                 lowered or passed on"
            ),
        }
    }
}

/// What one input word (or pseudo + extension pair) became.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A pseudo (word `index`, with its extension `ext`) lowered to a real word.
    Lowered {
        index: usize,
        offset: usize,
        ext: Option<usize>,
        lowered: Lowered,
    },
    /// A word with no lowering, unchanged.
    Passed {
        index: usize,
        offset: usize,
        bytes: [u8; WORD_SIZE],
    },
    /// A pseudo that could not be lowered (with its extension, which is consumed), or an
    /// orphan extension.
    Failed {
        index: usize,
        offset: usize,
        ext: Option<usize>,
        error: StreamError,
    },
}

impl Item {
    /// The word this item contributes to the output, if any.
    pub fn bytes(&self) -> Option<&[u8; WORD_SIZE]> {
        match self {
            Item::Lowered { lowered, .. } => Some(&lowered.bytes),
            Item::Passed { bytes, .. } => Some(bytes),
            Item::Failed { .. } => None,
        }
    }
}

/// A pseudo waiting to see whether its extension follows.
#[derive(Debug, Clone, Copy)]
struct Pending {
    index: usize,
    offset: usize,
    bytes: [u8; WORD_SIZE],
    lowering: &'static LoweringMeta,
}

/// Why a [`Lowerer`] cannot be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownAbi;

/// Stateful lowering of a stream: feed it words in order, then call [`Lowerer::finish`].
/// A pseudo is held back until the next word shows whether its extension follows.
pub struct Lowerer<'a> {
    arch: Arch,
    abi: Option<&'a str>,
    vars: &'a dyn Variables,
    decoder: Decoder,
    pending: Option<Pending>,
}

impl<'a> Lowerer<'a> {
    /// `abi`: a dispatcher version some lowering declares (`v2`, `v3`); `None` for each
    /// lowering's default.
    pub fn new(
        arch: Arch,
        abi: Option<&'a str>,
        vars: &'a dyn Variables,
    ) -> Result<Self, UnknownAbi> {
        if let Some(name) = abi
            && !LOWERINGS.iter().any(|l| l.abi(name).is_some())
        {
            return Err(UnknownAbi);
        }
        Ok(Lowerer {
            arch,
            abi,
            vars,
            decoder: Decoder::new(arch),
            pending: None,
        })
    }

    fn abi_for(&self, l: &'static LoweringMeta) -> &'static AbiMeta {
        self.abi
            .and_then(|name| l.abi(name))
            .unwrap_or_else(|| l.default_abi())
    }

    fn settle(&self, p: Pending, ext: Option<(usize, &[u8; WORD_SIZE])>) -> Item {
        let abi = self.abi_for(p.lowering);
        match lower_one(
            p.lowering,
            abi,
            self.arch,
            &p.bytes,
            ext.map(|e| e.1),
            self.vars,
        ) {
            Ok(lowered) => Item::Lowered {
                index: p.index,
                offset: p.offset,
                ext: ext.map(|e| e.0),
                lowered,
            },
            Err(e) => Item::Failed {
                index: p.index,
                offset: p.offset,
                ext: ext.map(|e| e.0),
                error: StreamError::Lower(e),
            },
        }
    }

    /// The next word of the stream: what it (or the pseudo before it) became.
    pub fn push(&mut self, bytes: &[u8; WORD_SIZE]) -> impl Iterator<Item = Item> + use<> {
        let index = self.decoder.index();
        let offset = index * WORD_SIZE;
        let decoded = self.decoder.push(bytes);
        let mut out: [Option<Item>; 2] = [None, None];
        if let Some(p) = self.pending.take() {
            let is_ext = match decoded {
                Decoded::Word {
                    word,
                    extends: Some(i),
                } => i == p.index && p.lowering.extension == Some(word.meta().name),
                _ => false,
            };
            if is_ext {
                out[0] = Some(self.settle(p, Some((index, bytes))));
                return out.into_iter().flatten();
            }
            out[0] = Some(self.settle(p, None));
        }
        let item = match decoded {
            Decoded::Orphan { name, follows } => Some(Item::Failed {
                index,
                offset,
                ext: None,
                error: StreamError::Orphan { name, follows },
            }),
            Decoded::Word { word, .. } => match lowering_of(word.meta().name) {
                Some(lowering) => {
                    self.pending = Some(Pending {
                        index,
                        offset,
                        bytes: *bytes,
                        lowering,
                    });
                    None
                }
                None => Some(Item::Passed {
                    index,
                    offset,
                    bytes: *bytes,
                }),
            },
            Decoded::UnknownOpcode => Some(Item::Passed {
                index,
                offset,
                bytes: *bytes,
            }),
        };
        out[1] = item;
        out.into_iter().flatten()
    }

    /// The end of the stream: a pseudo still held back is lowered without an extension.
    pub fn finish(&mut self) -> Option<Item> {
        self.pending.take().map(|p| self.settle(p, None))
    }
}
