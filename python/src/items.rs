//! Decoding a stream one item at a time into `decode --json`'s objects (lazy words, or
//! lazy records): all of it for `decode`, item by item from a file object for
//! `iter_decode` (constant memory).

use std::cell::RefCell;
use std::rc::Rc;

use dmaspec::Arch;
use dmaspec::runtime::record::RecordMeta;
use dmaspec::stream::{Decoder, WORD_SIZE};
use dmaspec::verbs::Error;
use dmaspec::verbs::input::WordReader;
use dmaspec::verbs::records::{self, Records};
use pyo3::prelude::*;

use crate::convert::arch;
use crate::errors::raise;
use crate::reader::PyReader;
use crate::word::Word;

/// The items of one stream, as `decode --json` prints them: words (lazy [`Word`]s), or
/// records of one struct (lazy [`Word`]s too).
pub struct Items<'a> {
    arch: Arch,
    stream: Stream<'a>,
}

enum Stream<'a> {
    Words(WordReader<'a>, Decoder),
    Records(&'static RecordMeta, Records<'a>),
}

impl<'a> Items<'a> {
    /// Words of `arch`, or records of the struct `record`.
    pub fn new(words: WordReader<'a>, arch: Arch, record: Option<&str>) -> Result<Self, Error> {
        let stream = match record {
            None => Stream::Words(words, Decoder::new(arch)),
            Some(name) => {
                let meta = records::find(name)?;
                Stream::Records(meta, Records::new(words, meta))
            }
        };
        Ok(Items { arch, stream })
    }

    /// The next item; `None` at the end of the stream.
    pub fn next_item<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &mut self.stream {
            Stream::Words(reader, decoder) => {
                let offset = reader.offset();
                let Some(bytes) = reader.next_word().map_err(|e| raise(py, Error::Input(e)))?
                else {
                    return Ok(None);
                };
                let word = Word::read(decoder, bytes, offset);
                Ok(Some(Bound::new(py, word)?.into_any()))
            }
            Stream::Records(meta, records) => {
                let Some((index, offset, buf)) = records.next_record().map_err(|e| raise(py, e))?
                else {
                    return Ok(None);
                };
                let record = Word::record(meta, buf, index, offset, self.arch);
                Ok(Some(Bound::new(py, record)?.into_any()))
            }
        }
    }
}

/// The lazy words of whole words `bytes` (a multiple of 64 bytes), read straight from them.
pub fn words_of(py: Python<'_>, bytes: &[u8], arch: Arch) -> PyResult<Vec<Py<Word>>> {
    let mut decoder = Decoder::new(arch);
    let mut out = Vec::with_capacity(bytes.len() / WORD_SIZE);
    for (index, b) in bytes.as_chunks::<WORD_SIZE>().0.iter().enumerate() {
        out.push(Py::new(
            py,
            Word::read(&mut decoder, *b, index * WORD_SIZE),
        )?);
        // A long decode stops at Ctrl-C (a few ms after it, at this interval).
        if index % 65536 == 65535 {
            py.check_signals()?;
        }
    }
    Ok(out)
}

/// `iter_decode`'s iterator: reads its file object a chunk at a time as it is advanced.
#[pyclass(unsendable, module = "dmaspec._native")]
pub struct DecodeStream {
    items: Items<'static>,
    /// The exception the file object raised, re-raised as it is.
    failed: Rc<RefCell<Option<PyErr>>>,
    done: bool,
}

#[pymethods]
impl DecodeStream {
    #[new]
    #[pyo3(signature = (fileobj, arch_name, hex=None, record=None))]
    fn new(
        py: Python<'_>,
        fileobj: Bound<'_, PyAny>,
        arch_name: &str,
        hex: Option<bool>,
        record: Option<&str>,
    ) -> PyResult<Self> {
        let arch = arch(arch_name)?;
        let name = fileobj
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "stream".into());
        let failed = Rc::new(RefCell::new(None));
        let (reader, hex) = PyReader::open(fileobj.unbind(), hex, failed.clone())?;
        let words = WordReader::new(Box::new(reader), hex, name);
        let items = Items::new(words, arch, record).map_err(|e| raise(py, e))?;
        Ok(DecodeStream {
            items,
            failed,
            done: false,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.done {
            return Ok(None);
        }
        match self.items.next_item(py) {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => {
                self.done = true;
                Ok(None)
            }
            Err(e) => {
                self.done = true;
                let raised = self.failed.borrow_mut().take();
                Err(raised.unwrap_or(e))
            }
        }
    }
}
