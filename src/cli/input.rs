//! Reading a stream of 64-byte words from a file or stdin, raw or as hex text, one word at
//! a time (constant memory).

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use dmaspec::stream::WORD_SIZE;

#[derive(Debug)]
pub enum InputError {
    Io(io::Error),
    /// The input ended inside a word.
    Partial {
        offset: usize,
        len: usize,
    },
    /// A character in hex input that is not a hex digit, whitespace or a `#` comment.
    BadHex {
        line: usize,
        column: usize,
        found: char,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => write!(f, "cannot read input: {e}"),
            InputError::Partial { offset, len } => write!(
                f,
                "incomplete word at byte offset {offset} ({offset:#x}): {len} of 64 bytes"
            ),
            InputError::BadHex {
                line,
                column,
                found,
            } => write!(
                f,
                "hex input line {line}, column {column}: {found:?} is not a hex digit"
            ),
        }
    }
}

/// Opens `path` (`-` or absent: stdin).
pub fn open(path: Option<&Path>) -> io::Result<Box<dyn BufRead>> {
    Ok(match path {
        None => Box::new(BufReader::new(io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => Box::new(BufReader::new(io::stdin().lock())),
        Some(p) => Box::new(BufReader::with_capacity(1 << 16, File::open(p)?)),
    })
}

/// Yields whole words; the first error ends the stream.
pub struct WordReader {
    inner: Box<dyn BufRead>,
    hex: Option<HexState>,
    offset: usize,
}

#[derive(Default)]
struct HexState {
    line: usize,
    column: usize,
    in_comment: bool,
}

impl WordReader {
    pub fn new(inner: Box<dyn BufRead>, hex: bool) -> Self {
        WordReader {
            inner,
            hex: hex.then(|| HexState {
                line: 1,
                ..HexState::default()
            }),
            offset: 0,
        }
    }

    /// Byte offset of the next word.
    pub fn offset(&self) -> usize {
        self.offset
    }

    pub fn next_word(&mut self) -> Result<Option<[u8; WORD_SIZE]>, InputError> {
        let mut word = [0u8; WORD_SIZE];
        let len = if self.hex.is_some() {
            self.fill_hex(&mut word)?
        } else {
            fill_raw(&mut self.inner, &mut word)?
        };
        match len {
            0 => Ok(None),
            WORD_SIZE => {
                self.offset += WORD_SIZE;
                Ok(Some(word))
            }
            len => Err(InputError::Partial {
                offset: self.offset,
                len,
            }),
        }
    }

    fn fill_hex(&mut self, word: &mut [u8; WORD_SIZE]) -> Result<usize, InputError> {
        let Some(st) = self.hex.as_mut() else {
            return Ok(0);
        };
        let mut nibbles = 0usize;
        while nibbles < WORD_SIZE * 2 {
            let buf = self.inner.fill_buf().map_err(InputError::Io)?;
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            for &c in buf {
                used += 1;
                st.column += 1;
                if c == b'\n' {
                    st.line += 1;
                    st.column = 0;
                    st.in_comment = false;
                    continue;
                }
                if st.in_comment || c.is_ascii_whitespace() {
                    continue;
                }
                if c == b'#' {
                    st.in_comment = true;
                    continue;
                }
                let Some(v) = (c as char).to_digit(16) else {
                    return Err(InputError::BadHex {
                        line: st.line,
                        column: st.column,
                        found: c as char,
                    });
                };
                let byte = &mut word[nibbles / 2];
                *byte = (*byte << 4) | v as u8;
                nibbles += 1;
                if nibbles == WORD_SIZE * 2 {
                    break;
                }
            }
            self.inner.consume(used);
        }
        if nibbles % 2 == 1 {
            // A dangling nibble still counts toward the partial word's length.
            return Ok(nibbles / 2 + 1);
        }
        Ok(nibbles / 2)
    }
}

fn fill_raw(r: &mut dyn Read, word: &mut [u8; WORD_SIZE]) -> Result<usize, InputError> {
    let mut len = 0;
    while len < WORD_SIZE {
        match r.read(&mut word[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(InputError::Io(e)),
        }
    }
    Ok(len)
}
