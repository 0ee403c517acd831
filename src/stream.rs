//! Decoding a stream of 64-byte words, with the positional rule for extension words: a
//! word whose spec says `follows = X` (PSEUDO_DMA_EXT after PSEUDO_DMA_DIRECT2D) is only
//! that struct when it comes right after an X; anywhere else it is reported, not guessed.

use crate::words::{Arch, Word};

/// The size of every instruction word.
pub const WORD_SIZE: usize = 64;

/// What one 64-byte word of a stream turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded {
    /// A known word. `extends` is the index of the word it extends, for positional
    /// extensions.
    Word { word: Word, extends: Option<usize> },
    /// No word in this architecture has this opcode.
    UnknownOpcode,
    /// An extension word that does not follow the word it extends.
    Orphan {
        /// The struct it would be.
        name: &'static str,
        /// The struct it must follow.
        follows: &'static str,
    },
}

/// Stateful decoder: feed it words in stream order.
#[derive(Debug, Clone)]
pub struct Decoder {
    arch: Arch,
    index: usize,
    /// Index and struct name of the previous word, if it decoded.
    prev: Option<(usize, &'static str)>,
}

impl Decoder {
    pub fn new(arch: Arch) -> Self {
        Decoder {
            arch,
            index: 0,
            prev: None,
        }
    }

    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// Index the next word will get.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Decodes the next word of the stream.
    pub fn push(&mut self, bytes: &[u8; WORD_SIZE]) -> Decoded {
        let index = self.index;
        self.index += 1;
        let prev = self.prev.take();
        let Some(word) = Word::decode(bytes, self.arch) else {
            return Decoded::UnknownOpcode;
        };
        let meta = word.meta();
        let extends = match meta.follows {
            None => None,
            Some(follows) => match prev {
                Some((i, name)) if name == follows => Some(i),
                _ => {
                    return Decoded::Orphan {
                        name: meta.name,
                        follows,
                    };
                }
            },
        };
        self.prev = Some((index, meta.name));
        Decoded::Word { word, extends }
    }
}

/// Iterates over the whole words of `bytes` (a trailing partial word is left out; see
/// [`trailing_partial`]).
pub fn words(bytes: &[u8], arch: Arch) -> impl Iterator<Item = (usize, Decoded)> + '_ {
    let mut decoder = Decoder::new(arch);
    bytes
        .chunks_exact(WORD_SIZE)
        .filter_map(|chunk| <&[u8; WORD_SIZE]>::try_from(chunk).ok())
        .map(move |w| (decoder.index() * WORD_SIZE, decoder.push(w)))
}

/// Byte offset where an incomplete last word starts, if the length is not a multiple of 64.
pub fn trailing_partial(len: usize) -> Option<usize> {
    (!len.is_multiple_of(WORD_SIZE)).then_some(len - len % WORD_SIZE)
}
