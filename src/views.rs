//! Zero-copy iteration over a byte stream: each 64-byte word is viewed in place
//! ([`crate::words::view`]), its opcode dispatched on once, and the positional rule for
//! extension words applied as [`crate::stream::Decoder`] applies it (PSEUDO_DMA_EXT is
//! only that struct right after a PSEUDO_DMA_DIRECT2D).
//!
//! ```
//! use dmaspec::Arch;
//! use dmaspec::views::{Viewed, words};
//! use dmaspec::words::view;
//!
//! let mut bytes = [0u8; 128];
//! bytes[0] = 0xb8; // DMA_DIRECT2D
//! bytes[64] = 0x00; // no word has opcode 0
//! let mut total = 0u64;
//! for (_offset, w) in words(&bytes, Arch::cayman) {
//!     if let Viewed::Word { word: view::Word::DMA_DIRECT2D(d), .. } = w {
//!         total += u64::from(d.src_elem_size()); // decoded on access, nothing copied
//!     }
//! }
//! assert_eq!(total, 0);
//! ```

use core::slice::ChunksExact;

use crate::stream::{Leads, WORD_SIZE, extension_of};
use crate::words::{Arch, view};

/// What one 64-byte word of a stream is, viewed in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewed<'a> {
    /// A known word. `extends` is the index of the word it extends, for positional
    /// extensions.
    Word {
        word: view::Word<'a>,
        extends: Option<usize>,
    },
    /// No word in this architecture has this opcode.
    UnknownOpcode(&'a [u8; WORD_SIZE]),
    /// An extension word that does not follow the word it extends.
    Orphan {
        bytes: &'a [u8; WORD_SIZE],
        /// The struct it would be.
        name: &'static str,
        /// The structs one of which it must follow.
        follows: Leads,
    },
}

impl<'a> Viewed<'a> {
    /// The word's bytes.
    pub fn bytes(&self) -> &'a [u8; WORD_SIZE] {
        match self {
            Viewed::Word { word, .. } => word.bytes(),
            Viewed::UnknownOpcode(b) | Viewed::Orphan { bytes: b, .. } => b,
        }
    }
}

/// Iterator over the whole words of a byte slice; see [`words`].
#[derive(Debug, Clone)]
pub struct Words<'a> {
    chunks: ChunksExact<'a, u8>,
    arch: Arch,
    index: usize,
    /// Index and struct name of the previous word, if it was a known word.
    prev: Option<(usize, &'static str)>,
}

impl<'a> Words<'a> {
    /// Index the next word will get.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The bytes of a trailing partial word (empty when the length is a multiple of 64).
    pub fn remainder(&self) -> &'a [u8] {
        self.chunks.remainder()
    }
}

/// Views the whole words of `bytes` in stream order, yielding each word's byte offset and
/// what it is. A trailing partial word is left out (see [`Words::remainder`]).
pub fn words(bytes: &[u8], arch: Arch) -> Words<'_> {
    Words {
        chunks: bytes.chunks_exact(WORD_SIZE),
        arch,
        index: 0,
        prev: None,
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = (usize, Viewed<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let chunk = self.chunks.next()?;
        let bytes: &'a [u8; WORD_SIZE] = chunk.try_into().ok()?;
        let index = self.index;
        self.index += 1;
        let prev = self.prev.take();
        let offset = index * WORD_SIZE;
        let Some(word) = view::Word::new(bytes, self.arch) else {
            return Some((offset, Viewed::UnknownOpcode(bytes)));
        };
        let meta = word.meta();
        let extends = match extension_of(meta.follows, prev) {
            Ok(extends) => extends,
            Err(follows) => {
                let name = meta.name;
                return Some((
                    offset,
                    Viewed::Orphan {
                        bytes,
                        name,
                        follows,
                    },
                ));
            }
        };
        self.prev = Some((index, meta.name));
        Some((offset, Viewed::Word { word, extends }))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for Words<'_> {}
