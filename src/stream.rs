//! Decoding a stream of 64-byte words, with the positional rule for extension words: a
//! word whose spec says `follows = X` (PSEUDO_DMA_EXT after PSEUDO_DMA_DIRECT2D), or
//! `follows = [X, Y]` (LOAD_MASK_SELECT after either transpose half), is only that struct
//! when it comes right after one of them; anywhere else it is reported, not guessed.

use core::fmt;

use crate::words::{Arch, Word, WordMeta};

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
        /// The structs one of which it must follow.
        follows: Leads,
    },
}

/// The words an extension word may follow (its spec's `follows`); shown as `A` or `A or B`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leads(pub &'static [&'static str]);

impl Leads {
    /// Whether `name` is one of them.
    pub fn admits(&self, name: &str) -> bool {
        self.0.contains(&name)
    }
}

impl fmt::Display for Leads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" or ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// The positional rule: a word with `follows` (non-empty) extends the previous word of the
/// stream (`prev`: its index and struct name) if that is one of them, and is an orphan
/// otherwise; a word without stands alone.
pub(crate) fn extension_of(
    follows: &'static [&'static str],
    prev: Option<(usize, &str)>,
) -> Result<Option<usize>, Leads> {
    if follows.is_empty() {
        return Ok(None);
    }
    match prev {
        Some((i, name)) if Leads(follows).admits(name) => Ok(Some(i)),
        _ => Err(Leads(follows)),
    }
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
        let Some(word) = Word::decode(bytes, self.arch) else {
            let _ = self.place(None);
            return Decoded::UnknownOpcode;
        };
        let meta = word.meta();
        match self.place(Some(meta)) {
            Ok(extends) => Decoded::Word { word, extends },
            Err(follows) => Decoded::Orphan {
                name: meta.name,
                follows,
            },
        }
    }

    /// Which word the next one of the stream is, by the rules of [`push`](Self::push) but
    /// without reading its fields: `None` for a word `push` does not decode (an unknown
    /// opcode, an orphan). For a reader of one kind of word that skips the others cheaply.
    pub fn push_meta(&mut self, bytes: &[u8; WORD_SIZE]) -> Option<&'static WordMeta> {
        let meta = Word::identify(bytes, self.arch);
        self.place(meta).ok().and(meta)
    }

    /// Steps past a word that is `meta` (`None`: no word) and applies the positional rule
    /// to it: the index of the word it extends, or the words it should have followed.
    fn place(&mut self, meta: Option<&'static WordMeta>) -> Result<Option<usize>, Leads> {
        let index = self.index;
        self.index += 1;
        let prev = self.prev.take();
        let Some(meta) = meta else {
            return Ok(None);
        };
        let extends = extension_of(meta.follows, prev)?;
        self.prev = Some((index, meta.name));
        Ok(extends)
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
