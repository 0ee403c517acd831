//! Reading a stream of 64-byte words (or of records of another size) from a file or stdin,
//! raw or as hex text, one at a time (constant memory).
//!
//! Hex text: hex digits, whitespace, and `#` comments that run to the end of the line; a
//! UTF-8 byte-order mark at the very start is skipped. Every run of digits between
//! whitespace or comments must have an even number of digits (`b8 10`, `b810` and a 128-digit
//! line are all fine), so a digit lost or added anywhere is an error at the run that holds
//! it instead of a silent shift of every later byte. The same reader serves every verb that
//! takes `--hex`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::stream::WORD_SIZE;

use crate::Arch;
use crate::stream::{Decoded, Decoder};

use super::Error;
pub use super::error::{InputError, Problem, name};

/// Opens `path` (`-` or absent: stdin).
pub fn open(path: Option<&Path>) -> Result<Box<dyn BufRead>, Error> {
    Ok(match path {
        Some(p) if p.as_os_str() != "-" => Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(p).map_err(|e| Error::read(p, e))?,
        )),
        _ => Box::new(BufReader::new(io::stdin().lock())),
    })
}

/// The most text read whole to be parsed as one document (a TOML instruction list,
/// `--vars`, an audited page, audit counts): 1 MiB. Parsing one takes up to some 45 times
/// its size (16 MiB of TOML took 700 MB); the real ones are far smaller (the largest
/// reference page is 48 KB), and a JSON instruction list is read an element at a time.
pub const MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// The whole text of `path` (`-`: stdin), without a leading byte-order mark, at most `max`
/// bytes. Checked as it is read, so binary input stops at its first bad byte (not UTF-8,
/// or NUL), named with its line and column, however long the stream.
pub fn read_text(path: &Path, max: usize) -> Result<String, Error> {
    let mut input = open(Some(path))?;
    let mut bytes = Vec::new();
    // `bytes[..valid]` is checked UTF-8 without NUL.
    let mut valid = 0;
    loop {
        let chunk = input.fill_buf().map_err(|e| Error::read(path, e))?;
        let end = chunk.is_empty();
        let n = chunk.len().min(max + 1 - bytes.len());
        bytes.extend_from_slice(&chunk[..n]);
        input.consume(n);
        let rest = &bytes[valid..];
        let (good, cut) = match std::str::from_utf8(rest) {
            Ok(_) => (rest.len(), false),
            Err(e) => (e.valid_up_to(), e.error_len().is_none()),
        };
        let nul = rest[..good].iter().position(|&b| b == 0);
        if let Some(at) = nul.map(|i| valid + i) {
            return Err(bad_byte(
                path,
                &bytes,
                at,
                "NUL (the input is text, not binary)",
            ));
        }
        valid += good;
        if valid < bytes.len() && (!cut || end) {
            return Err(bad_byte(path, &bytes, valid, NOT_UTF8));
        }
        if bytes.len() > max {
            return Err(Error::BadFile(format!(
                "{} is over the {} MiB limit of this input",
                name(Some(path)),
                max >> 20
            )));
        }
        if end {
            break;
        }
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| bad_byte(path, e.as_bytes(), e.utf8_error().valid_up_to(), NOT_UTF8))?;
    match text.strip_prefix('\u{feff}') {
        Some(rest) => Ok(rest.to_string()),
        None => Ok(text),
    }
}

const NOT_UTF8: &str = "not UTF-8 (the input is UTF-8 text)";

/// The byte at `at` of the text `bytes` of `path` is `what`: named with its line and
/// column (in characters; the bytes before it are UTF-8).
fn bad_byte(path: &Path, bytes: &[u8], at: usize, what: &str) -> Error {
    let good = &bytes[..at];
    let line = 1 + good.iter().filter(|&&b| b == b'\n').count();
    let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = 1 + String::from_utf8_lossy(&good[start..]).chars().count();
    Error::BadFile(format!(
        "{}: line {line}, column {column}: byte {:#04x} is {what}",
        name(Some(path)),
        bytes[at]
    ))
}

/// Yields whole words; the first error ends the stream.
pub struct WordReader<'a> {
    inner: Box<dyn BufRead + 'a>,
    input: String,
    hex: Option<HexState>,
    offset: usize,
}

struct HexState {
    line: usize,
    column: usize,
    in_comment: bool,
    /// Bytes of a leading byte-order mark matched so far (`None` once past the start).
    bom: Option<usize>,
    /// Digits in the current run, and where it started.
    run: usize,
    run_at: (usize, usize),
}

const BOM: &[u8] = b"\xef\xbb\xbf";

/// A byte-order mark cut short: its first byte is what is wrong.
fn broken_bom() -> Problem {
    Problem::BadHex {
        line: 1,
        column: 1,
        found: BOM[0],
    }
}

impl HexState {
    /// The position of the next byte, in characters (UTF-8 continuation bytes don't count).
    fn advance(&mut self, c: u8) {
        if c == b'\n' {
            self.line += 1;
            self.column = 0;
        } else if c & 0xc0 != 0x80 {
            self.column += 1;
        }
    }

    /// A run of digits ends here: it must have an even number of them.
    fn end_run(&mut self) -> Result<(), Problem> {
        let digits = std::mem::take(&mut self.run);
        if digits % 2 == 1 {
            let (line, column) = self.run_at;
            return Err(Problem::OddHex {
                line,
                column,
                digits,
            });
        }
        Ok(())
    }

    /// Takes one byte; `Some(v)` for a hex digit.
    fn byte(&mut self, c: u8) -> Result<Option<u8>, Problem> {
        if let Some(n) = self.bom {
            if c == BOM[n] {
                self.bom = (n + 1 < BOM.len()).then_some(n + 1);
                return Ok(None);
            }
            self.bom = None;
            if n > 0 {
                return Err(broken_bom());
            }
        }
        self.advance(c);
        if self.in_comment {
            self.in_comment = c != b'\n';
            return Ok(None);
        }
        if c.is_ascii_whitespace() || c == b'#' {
            self.in_comment = c == b'#';
            self.end_run()?;
            return Ok(None);
        }
        let Some(v) = char::from(c).to_digit(16) else {
            // Here a UTF-8 continuation byte has no lead (a lead byte is an error first):
            // it is a character of its own.
            let stray = usize::from(c & 0xc0 == 0x80);
            return Err(Problem::BadHex {
                line: self.line,
                column: self.column + stray,
                found: c,
            });
        };
        if self.run == 0 {
            self.run_at = (self.line, self.column);
        }
        self.run += 1;
        Ok(Some(v as u8))
    }
}

impl<'a> WordReader<'a> {
    /// Words from `inner`, named `input` in errors.
    pub fn new(inner: Box<dyn BufRead + 'a>, hex: bool, input: String) -> Self {
        WordReader {
            inner,
            input,
            hex: hex.then_some(HexState {
                line: 1,
                column: 0,
                in_comment: false,
                bom: Some(0),
                run: 0,
                run_at: (1, 1),
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
        Ok(self.next_into(&mut word, "word")?.then_some(word))
    }

    /// Fills `buf` with the next record (`what` names it in the error for a partial one);
    /// false at the end of the input.
    pub fn next_into(&mut self, buf: &mut [u8], what: &'static str) -> Result<bool, InputError> {
        buf.fill(0);
        let len = if self.hex.is_some() {
            self.fill_hex(buf)
        } else {
            fill_raw(&mut self.inner, buf)
        }
        .map_err(|problem| InputError {
            input: self.input.clone(),
            problem,
        })?;
        match len {
            0 => Ok(false),
            len if len == buf.len() => {
                self.offset += len;
                Ok(true)
            }
            len => Err(InputError {
                input: self.input.clone(),
                problem: Problem::Partial {
                    offset: self.offset,
                    len,
                    size: buf.len(),
                    what,
                },
            }),
        }
    }

    fn fill_hex(&mut self, word: &mut [u8]) -> Result<usize, Problem> {
        let Some(st) = self.hex.as_mut() else {
            return Ok(0);
        };
        let mut nibbles = 0usize;
        let want = word.len() * 2;
        while nibbles < want {
            let buf = self.inner.fill_buf().map_err(Problem::Io)?;
            if buf.is_empty() {
                // The end of the input ends the last run (and a mark cut short is no mark).
                if st.bom.is_some_and(|n| n > 0) {
                    return Err(broken_bom());
                }
                st.end_run()?;
                break;
            }
            let mut used = 0;
            for &c in buf {
                used += 1;
                if let Some(v) = st.byte(c)? {
                    let byte = &mut word[nibbles / 2];
                    *byte = (*byte << 4) | v;
                    nibbles += 1;
                    if nibbles == want {
                        break;
                    }
                }
            }
            self.inner.consume(used);
        }
        Ok(nibbles.div_ceil(2))
    }
}

fn fill_raw(r: &mut dyn Read, word: &mut [u8]) -> Result<usize, Problem> {
    let mut len = 0;
    while len < word.len() {
        match r.read(&mut word[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Problem::Io(e)),
        }
    }
    Ok(len)
}

/// The words of a stream decoded in order, pulled one at a time.
pub struct Words<'a> {
    reader: WordReader<'a>,
    decoder: Decoder,
}

/// One word of a stream: its index, byte offset, bytes and decoding.
pub type StreamWord = (usize, usize, [u8; WORD_SIZE], Decoded);

impl<'a> Words<'a> {
    pub fn new(reader: WordReader<'a>, arch: Arch) -> Self {
        Words {
            reader,
            decoder: Decoder::new(arch),
        }
    }

    /// The next whole word; `None` at the end. A read error (a trailing partial word among
    /// them) is an input error.
    pub fn next_word(&mut self) -> Result<Option<StreamWord>, Error> {
        let offset = self.reader.offset();
        let Some(bytes) = self.reader.next_word().map_err(Error::Input)? else {
            return Ok(None);
        };
        let index = self.decoder.index();
        let d = self.decoder.push(&bytes);
        Ok(Some((index, offset, bytes, d)))
    }
}

/// Calls `f` with each word of the stream ([`Words`]), in order. A read error stops the
/// stream after the whole words before it; an error of `f` stops it at once.
pub fn each_word(
    words: WordReader,
    arch: Arch,
    mut f: impl FnMut(usize, usize, &[u8; WORD_SIZE], &Decoded) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut words = Words::new(words, arch);
    while let Some((index, offset, bytes, d)) = words.next_word()? {
        f(index, offset, &bytes, &d)?;
    }
    Ok(())
}
