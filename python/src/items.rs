//! Decoding a stream one item at a time into `decode --json`'s objects: all of it for
//! `decode`, item by item from a file object for `iter_decode` (constant memory).

use std::cell::RefCell;
use std::rc::Rc;

use dmaspec::Arch;
use dmaspec::cli::CliError;
use dmaspec::cli::decode::instruction_json;
use dmaspec::cli::input::WordReader;
use dmaspec::cli::records;
use dmaspec::runtime::record::RecordMeta;
use dmaspec::stream::Decoder;
use pyo3::prelude::*;
use serde_json::Value as Json;

use crate::convert::{arch, to_py};
use crate::errors::raise;
use crate::reader::PyReader;

/// The items of one stream: words, or records of one struct.
pub struct Items<'a> {
    words: WordReader<'a>,
    arch: Arch,
    kind: Kind,
}

enum Kind {
    Words(Decoder),
    Records {
        meta: &'static RecordMeta,
        buf: Vec<u8>,
        index: usize,
    },
}

impl<'a> Items<'a> {
    /// Words of `arch`, or records of the struct `record`.
    pub fn new(words: WordReader<'a>, arch: Arch, record: Option<&str>) -> Result<Self, CliError> {
        let kind = match record {
            None => Kind::Words(Decoder::new(arch)),
            Some(name) => {
                let meta = records::find(name)?;
                Kind::Records {
                    meta,
                    buf: vec![0; meta.size],
                    index: 0,
                }
            }
        };
        Ok(Items { words, arch, kind })
    }

    /// The next item's JSON object; `None` at the end of the stream.
    pub fn next_json(&mut self) -> Result<Option<Json>, CliError> {
        let offset = self.words.offset();
        match &mut self.kind {
            Kind::Words(decoder) => {
                let Some(bytes) = self.words.next_word().map_err(CliError::Input)? else {
                    return Ok(None);
                };
                let index = decoder.index();
                let d = decoder.push(&bytes);
                Ok(Some(instruction_json(index, offset, &bytes, &d, self.arch)))
            }
            Kind::Records { meta, buf, index } => {
                if !self
                    .words
                    .next_into(buf, meta.name)
                    .map_err(CliError::Input)?
                {
                    return Ok(None);
                }
                let r = records::decode_one(meta, buf)?;
                *index += 1;
                Ok(Some(records::record_json(
                    *index - 1,
                    offset,
                    buf,
                    &r,
                    self.arch,
                )))
            }
        }
    }
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
        match self.items.next_json() {
            Ok(Some(v)) => to_py(py, &v).map(Some),
            Ok(None) => {
                self.done = true;
                Ok(None)
            }
            Err(e) => {
                self.done = true;
                let raised = self.failed.borrow_mut().take();
                Err(raised.unwrap_or_else(|| raise(py, e)))
            }
        }
    }
}
