//! Instruction lists read one instruction at a time: [`for_each_instruction`] hands each
//! element of `{"instructions": [...]}` (or of a bare array) to a callback as soon as it
//! is parsed, so memory stays the size of one instruction however long the list is.
//!
//! ```
//! use dmaspec::json::{encode_instruction, for_each_instruction};
//!
//! let text = br#"{"instructions": [{"struct": "DMA_DIRECT2D", "fields": {"semaphore": 5}}]}"#;
//! let mut words = Vec::new();
//! let n = for_each_instruction(&text[..], |i, ins| words.push(encode_instruction(i, &ins)))
//!     .unwrap();
//! assert_eq!((n, words[0].as_ref().unwrap()[13]), (1, 5));
//! ```

use core::fmt;
use std::io::{self, BufRead, Read};

use serde::de::{self, DeserializeSeed, Deserializer as _, IgnoredAny, MapAccess, SeqAccess};
use serde_json::Value as Json;

use super::encode::ListError;

/// Calls `each(index, instruction)` for every instruction of the JSON document `reader`
/// holds, in order, as it is read: `{"instructions": [...]}` (what `decode --json` prints;
/// other keys are skipped) or a bare array. A UTF-8 byte-order mark at the start is
/// skipped. Returns how many there were; an error (bad JSON, a byte that is not UTF-8, no
/// list, an I/O error) ends the reading, after the instructions before it were handed on.
pub fn for_each_instruction(
    reader: impl BufRead,
    each: impl FnMut(usize, Json),
) -> Result<usize, ListError> {
    for_each_under(reader, "instructions", each)
}

/// [`for_each_instruction`] for `{"records": [...]}` (what `decode --struct --json` prints).
pub fn for_each_record(
    reader: impl BufRead,
    each: impl FnMut(usize, Json),
) -> Result<usize, ListError> {
    for_each_under(reader, "records", each)
}

fn for_each_under<R: BufRead>(
    mut reader: R,
    key: &'static str,
    mut each: impl FnMut(usize, Json),
) -> Result<usize, ListError> {
    let bom = {
        let head = reader.fill_buf().map_err(ListError::Io)?;
        head.starts_with(b"\xef\xbb\xbf")
    };
    let mut checked = Utf8Checked::new(reader);
    if bom {
        // The mark counts as the first character of line 1, as when the text is read whole.
        let mut mark = [0u8; 3];
        checked.read_exact(&mut mark).map_err(ListError::Io)?;
    }
    let mut de = serde_json::Deserializer::from_reader(checked);
    let mut list = List {
        key,
        each: &mut each,
        count: 0,
        not_a_list: false,
    };
    let parsed = (&mut de)
        .deserialize_any(Top(&mut list))
        .and_then(|()| de.end());
    let (count, not_a_list) = (list.count, list.not_a_list);
    match parsed {
        Ok(()) => Ok(count),
        Err(_) if not_a_list => Err(ListError::NotAList(key)),
        Err(e) if e.is_io() => Err(read_error(e)),
        Err(e) => Err(ListError::Json(e)),
    }
}

/// A reading error as a [`ListError`]: the byte that is not UTF-8 [`Utf8Checked`] found,
/// or the I/O error.
fn read_error(e: serde_json::Error) -> ListError {
    // serde_json hands back the `io::Error` it was given.
    let e = io::Error::from(e);
    match e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<NotUtf8>())
    {
        Some(bad) => ListError::NotUtf8 {
            line: bad.line,
            column: bad.column,
            byte: bad.byte,
        },
        None => ListError::Io(e),
    }
}

/// Where the first byte that is not UTF-8 is (line and column from 1, in characters).
#[derive(Debug)]
struct NotUtf8 {
    line: usize,
    column: usize,
    byte: u8,
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: byte {:#04x} is not UTF-8",
            self.line, self.column, self.byte
        )
    }
}

impl std::error::Error for NotUtf8 {}

/// A reader that fails at the first byte that is not UTF-8, naming where it is. It checks
/// a buffer at a time and passes on only whole characters (serde_json reads a byte at a
/// time, through `io::Bytes`).
struct Utf8Checked<R> {
    inner: R,
    buf: Box<[u8]>,
    /// `buf[start..valid]` is checked and not yet passed on; `buf[valid..end]`, the start
    /// of a character cut by the end of the last read.
    start: usize,
    valid: usize,
    end: usize,
    line: usize,
    /// Characters before the next one on its line.
    column: usize,
}

impl<R: Read> Utf8Checked<R> {
    fn new(inner: R) -> Self {
        Utf8Checked {
            inner,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            start: 0,
            valid: 0,
            end: 0,
            line: 1,
            column: 0,
        }
    }

    /// Reads and checks more; at the end of the input, nothing is left to pass on.
    fn refill(&mut self) -> io::Result<()> {
        loop {
            self.buf.copy_within(self.valid..self.end, 0);
            (self.start, self.end) = (0, self.end - self.valid);
            let n = match self.inner.read(&mut self.buf[self.end..]) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.end += n;
            self.valid = match core::str::from_utf8(&self.buf[..self.end]) {
                Ok(_) => self.end,
                Err(e) => e.valid_up_to(),
            };
            for &b in &self.buf[..self.valid] {
                if b == b'\n' {
                    self.line += 1;
                    self.column = 0;
                } else if b & 0xc0 != 0x80 {
                    self.column += 1;
                }
            }
            if self.valid > 0 || self.end == 0 {
                return Ok(());
            }
            // Nothing valid: a bad byte, or a character the input ends inside.
            let cut = core::str::from_utf8(&self.buf[..self.end])
                .err()
                .is_some_and(|e| e.error_len().is_none());
            if !cut || n == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    NotUtf8 {
                        line: self.line,
                        column: self.column + 1,
                        byte: self.buf[0],
                    },
                ));
            }
        }
    }
}

impl<R: Read> Read for Utf8Checked<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.valid {
            self.refill()?;
        }
        let n = out.len().min(self.valid - self.start);
        out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        Ok(n)
    }
}

/// The state shared by the visitors: the key to look under, the callback, how many
/// instructions went to it, and whether the document turned out not to hold a list.
struct List<'f, F> {
    key: &'static str,
    each: &'f mut F,
    count: usize,
    not_a_list: bool,
}

impl<F: FnMut(usize, Json)> List<'_, F> {
    fn elements<'de, A: SeqAccess<'de>>(&mut self, mut seq: A) -> Result<(), A::Error> {
        while let Some(super::strict::Strict(v)) = seq.next_element()? {
            (self.each)(self.count, v);
            self.count += 1;
        }
        Ok(())
    }

    fn not_a_list<E: de::Error>(&mut self) -> Result<(), E> {
        self.not_a_list = true;
        Err(E::custom(format_args!("expected an `{}` list", self.key)))
    }
}

/// Anything that is not a list (or, at the top, an object) is not one.
macro_rules! not_a_list {
    ($($method:ident($($ty:ty)?)),*) => {$(
        fn $method<E: de::Error>(self $(, _: $ty)?) -> Result<(), E> {
            self.0.not_a_list()
        }
    )*};
}

/// The document: a bare array, or an object with the list under `key`.
struct Top<'l, 'f, F>(&'l mut List<'f, F>);

impl<'de, F: FnMut(usize, Json)> de::Visitor<'de> for Top<'_, '_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an `{}` list", self.0.key)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.0.elements(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut found = false;
        while let Some(k) = map.next_key::<String>()? {
            if k != self.0.key {
                map.next_value::<IgnoredAny>()?;
            } else if found {
                return Err(de::Error::custom(format_args!("duplicate key `{k}`")));
            } else {
                found = true;
                map.next_value_seed(Under(&mut *self.0))?;
            }
        }
        if found { Ok(()) } else { self.0.not_a_list() }
    }

    not_a_list!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_f64(f64),
        visit_str(&str),
        visit_unit()
    );
}

/// The value under `key`: it must be an array.
struct Under<'l, 'f, F>(&'l mut List<'f, F>);

impl<'de, F: FnMut(usize, Json)> DeserializeSeed<'de> for Under<'_, '_, F> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, F: FnMut(usize, Json)> de::Visitor<'de> for Under<'_, '_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an `{}` list", self.0.key)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.0.elements(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, _map: A) -> Result<(), A::Error> {
        self.0.not_a_list()
    }

    not_a_list!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_f64(f64),
        visit_str(&str),
        visit_unit()
    );
}
