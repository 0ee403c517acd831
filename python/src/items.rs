//! Decoding a stream one item at a time into `decode --json`'s objects: all of it for
//! `decode`, item by item from a file object for `iter_decode` (constant memory).

use std::cell::RefCell;
use std::rc::Rc;

use dmaspec::Arch;
use dmaspec::runtime::record::RecordMeta;
use dmaspec_cli::CliError;
use dmaspec_cli::input::WordReader;
use dmaspec_cli::input::Words;
use dmaspec_cli::records::{self, Records};
use dmaspec_cli::shape::instruction_json;
use pyo3::prelude::*;
use serde_json::Value as Json;

use crate::convert::{arch, to_py};
use crate::errors::raise;
use crate::reader::PyReader;

/// The items of one stream, as `decode --json` prints them: words, or records of one
/// struct.
pub struct Items<'a> {
    arch: Arch,
    stream: Stream<'a>,
}

enum Stream<'a> {
    Words(Words<'a>),
    Records(&'static RecordMeta, Records<'a>),
}

impl<'a> Items<'a> {
    /// Words of `arch`, or records of the struct `record`.
    pub fn new(words: WordReader<'a>, arch: Arch, record: Option<&str>) -> Result<Self, CliError> {
        let stream = match record {
            None => Stream::Words(Words::new(words, arch)),
            Some(name) => {
                let meta = records::find(name)?;
                Stream::Records(meta, Records::new(words, meta))
            }
        };
        Ok(Items { arch, stream })
    }

    /// The next item's JSON object; `None` at the end of the stream.
    pub fn next_json(&mut self) -> Result<Option<Json>, CliError> {
        Ok(match &mut self.stream {
            Stream::Words(words) => words.next_word()?.map(|(index, offset, bytes, d)| {
                instruction_json(index, offset, &bytes, &d, self.arch)
            }),
            Stream::Records(meta, records) => match records.next_record()? {
                Some((index, offset, buf)) => {
                    let r = records::decode_one(meta, buf)?;
                    Some(records::record_json(index, offset, buf, &r, self.arch))
                }
                None => None,
            },
        })
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
