//! A Python file object as the byte stream the CLI's word reader takes.

use std::cell::RefCell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};

/// How much is asked of the file object per read: the memory `iter_decode` holds.
const CHUNK: usize = 1 << 16;

/// Reads `fileobj.read(CHUNK)` as it is consumed: bytes as they are, `str` as its UTF-8
/// (hex text). An exception of the file object is kept in `failed` for the caller.
pub struct PyReader {
    file: Py<PyAny>,
    text: bool,
    chunk: Vec<u8>,
    pos: usize,
    failed: Rc<RefCell<Option<PyErr>>>,
}

impl PyReader {
    /// Reads the first chunk, which says whether the stream is text; `hex` (when given)
    /// says whether bytes are hex text. A text stream is always hex.
    pub fn open(
        file: Py<PyAny>,
        hex: Option<bool>,
        failed: Rc<RefCell<Option<PyErr>>>,
    ) -> PyResult<(PyReader, bool)> {
        let mut r = PyReader {
            file,
            text: false,
            chunk: Vec::new(),
            pos: 0,
            failed,
        };
        let text = Python::attach(|py| r.refill(py, true))?;
        if text && hex == Some(false) {
            return Err(PyTypeError::new_err(
                "hex=False, but the file object reads str (open it in binary mode)",
            ));
        }
        r.text = text;
        Ok((r, text || hex == Some(true)))
    }

    /// Replaces the chunk with the next read; whether it was `str`.
    fn refill(&mut self, py: Python<'_>, first: bool) -> PyResult<bool> {
        let got = self.file.bind(py).call_method1("read", (CHUNK,))?;
        let text = if let Ok(s) = got.extract::<PyBackedStr>() {
            self.chunk = s.as_bytes().to_vec();
            true
        } else if let Ok(b) = got.extract::<PyBackedBytes>() {
            self.chunk = b.to_vec();
            false
        } else {
            let what = got.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "the file object's read() returned {what}, not bytes or str"
            )));
        };
        if !first && text != self.text {
            return Err(PyTypeError::new_err(
                "the file object's read() changed between bytes and str",
            ));
        }
        self.pos = 0;
        Ok(text)
    }
}

impl BufRead for PyReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.chunk.len() {
            Python::attach(|py| self.refill(py, false)).map_err(|e| {
                *self.failed.borrow_mut() = Some(e);
                io::Error::other("the file object's read() raised")
            })?;
        }
        Ok(&self.chunk[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.chunk.len());
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}
