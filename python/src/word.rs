//! Lazy decoded words: `decode` and `iter_decode` give one `Word` per 64-byte word (or per
//! record of a `struct=` stream), which holds the bytes and what the stream said of them
//! (its index, offset, and whether it extends the word before it) and builds `decode
//! --json`'s object only when a key other than `index`, `offset`, `opcode` or `struct` is
//! read. Reading the stream costs a dispatch per word (the opcode tables, the extension
//! rule), not the walk over every field.

use dmaspec::runtime::record::RecordMeta;
use dmaspec::stream::{Decoded, Decoder, Leads, WORD_SIZE};
use dmaspec::verbs::records::{decode_one, record_json};
use dmaspec::verbs::shape::instruction_json;
use dmaspec::{Arch, Word as Layout, WordMeta};
use pyo3::IntoPyObjectExt;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString};
use serde_json::Value as Json;

use crate::convert::{collector_paused, to_py};
use crate::errors::raise;

/// What the stream made of a word, without its fields.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A word of `meta`; `extends`: the index of the word it extends.
    Known {
        meta: &'static WordMeta,
        extends: Option<usize>,
    },
    /// An extension word that does not follow its lead.
    Orphan(&'static WordMeta),
    /// No word of the architecture has this opcode.
    Unknown,
}

impl Kind {
    /// The next word of `decoder`'s stream: the dispatch of `Decoder::push` without
    /// reading the fields.
    pub fn of(decoder: &mut Decoder, bytes: &[u8; WORD_SIZE]) -> Kind {
        let index = decoder.index();
        match decoder.push_meta(bytes) {
            Some(meta) => Kind::Known {
                meta,
                extends: (!meta.follows.is_empty()).then(|| index.wrapping_sub(1)),
            },
            None => match Layout::identify(bytes, decoder.arch()) {
                Some(meta) => Kind::Orphan(meta),
                None => Kind::Unknown,
            },
        }
    }

    /// The same word as `Decoder::push` gives it.
    pub fn decoded(&self, bytes: &[u8; WORD_SIZE], arch: Arch) -> Decoded {
        match *self {
            Kind::Known { extends, .. } => match Layout::decode(bytes, arch) {
                Some(word) => Decoded::Word { word, extends },
                None => Decoded::UnknownOpcode,
            },
            Kind::Orphan(meta) => Decoded::Orphan {
                name: meta.name,
                follows: Leads(meta.follows),
            },
            Kind::Unknown => Decoded::UnknownOpcode,
        }
    }

    /// Whether `d` is this same kind of reading (the faults of a word depend on this, not
    /// on indices).
    pub fn reads_as(&self, d: &Decoded) -> bool {
        match (self, d) {
            (Kind::Known { meta, .. }, Decoded::Word { word, .. }) => meta.name == word.meta().name,
            (Kind::Orphan(a), Decoded::Orphan { name, .. }) => a.name == *name,
            (Kind::Unknown, Decoded::UnknownOpcode) => true,
            _ => false,
        }
    }
}

/// What a [`Word`] was read from: a word's 64 bytes in place, or a record's (16 or more) on
/// the heap, so a word stays as small as it was.
#[derive(PartialEq, Eq)]
pub enum Body {
    Word {
        bytes: [u8; WORD_SIZE],
        kind: Kind,
    },
    Record {
        meta: &'static RecordMeta,
        bytes: Box<[u8]>,
    },
}

impl Body {
    fn bytes(&self) -> &[u8] {
        match self {
            Body::Word { bytes, .. } => bytes,
            Body::Record { bytes, .. } => bytes,
        }
    }
}

/// One decoded word (or record) of a stream: a read-only mapping equal to `decode --json`'s
/// object for it, built on first use of a key beyond `index`, `offset`, `opcode` (a word's)
/// and `struct`.
#[pyclass(frozen, module = "dmaspec._native")]
pub struct Word {
    pub body: Body,
    pub index: usize,
    pub offset: usize,
    pub arch: Arch,
    /// The object, once built (from then on it is what the word is: changes to its
    /// nested dicts and lists are seen by `encode`).
    object: PyOnceLock<Py<PyDict>>,
}

impl Word {
    /// The next word of `decoder`'s stream, `bytes` at byte `offset`.
    pub fn read(decoder: &mut Decoder, bytes: [u8; WORD_SIZE], offset: usize) -> Self {
        let index = decoder.index();
        Word {
            body: Body::Word {
                kind: Kind::of(decoder, &bytes),
                bytes,
            },
            index,
            offset,
            arch: decoder.arch(),
            object: PyOnceLock::new(),
        }
    }

    /// Record `index` of a stream of `meta`'s, `bytes` (`meta.size` of them) at byte `offset`.
    pub fn record(
        meta: &'static RecordMeta,
        bytes: &[u8],
        index: usize,
        offset: usize,
        arch: Arch,
    ) -> Self {
        Word {
            body: Body::Record {
                meta,
                bytes: bytes.into(),
            },
            index,
            offset,
            arch,
            object: PyOnceLock::new(),
        }
    }

    /// `decode --json`'s object of this word, `bytes` read as `kind`.
    pub fn word_json(&self, bytes: &[u8; WORD_SIZE], kind: &Kind) -> Json {
        let d = kind.decoded(bytes, self.arch);
        instruction_json(self.index, self.offset, bytes, &d, self.arch)
    }

    /// `decode --json`'s object (`decode --struct`'s for a record), as JSON.
    pub fn json(&self) -> PyResult<Json> {
        match &self.body {
            Body::Word { bytes, kind } => Ok(self.word_json(bytes, kind)),
            Body::Record { meta, bytes } => {
                let r = decode_one(meta, bytes).map_err(|e| Python::attach(|py| raise(py, e)))?;
                Ok(record_json(self.index, self.offset, bytes, &r, self.arch))
            }
        }
    }

    /// Whether the object was built (and so may have been changed).
    pub fn built(&self, py: Python<'_>) -> bool {
        self.object.get(py).is_some()
    }

    /// A new Python object of [`json`](Self::json).
    fn build<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        collector_paused(py, || to_py(py, &self.json()?))
    }

    fn object<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyDict>> {
        let made = self
            .object
            .get_or_try_init(py, || -> PyResult<Py<PyDict>> {
                Ok(self.build(py)?.cast_into::<PyDict>()?.unbind())
            })?;
        Ok(made.bind(py))
    }

    fn name(&self) -> Option<&'static str> {
        match self.body {
            Body::Word {
                kind: Kind::Known { meta, .. },
                ..
            } => Some(meta.name),
            Body::Record { meta, .. } => Some(meta.name),
            Body::Word { .. } => None,
        }
    }
}

#[pymethods]
impl Word {
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !self.built(py)
            && let Ok(k) = key.cast::<PyString>()
        {
            match &*k.to_cow()? {
                "index" => return self.index.into_bound_py_any(py),
                "offset" => return self.offset.into_bound_py_any(py),
                // A record has no opcode: its object says so (a KeyError).
                "opcode" if matches!(self.body, Body::Word { .. }) => {
                    return self.body.bytes()[0].into_bound_py_any(py);
                }
                "struct" => return self.name().into_bound_py_any(py),
                _ => {}
            }
        }
        match self.object(py)?.get_item(key)? {
            Some(v) => Ok(v),
            None => Err(PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.object(py)?.len())
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.object(py)?.contains(key)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.object(py)?.try_iter()?.into_any())
    }

    /// The word's line in the producer's disassembly syntax (`decode --asm`); a record
    /// has none.
    fn asm(&self) -> PyResult<String> {
        match &self.body {
            Body::Word { bytes, .. } => Ok(dmaspec::asm::disassemble(bytes, self.arch)),
            Body::Record { meta, .. } => Err(PyValueError::new_err(format!(
                "a {} record has no line: lines are of 64-byte words",
                meta.name
            ))),
        }
    }

    #[pyo3(signature = (key, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.__getitem__(py, key) {
            Ok(v) => Ok(v),
            Err(e) if e.is_instance_of::<PyKeyError>(py) => {
                Ok(default.unwrap_or_else(|| py.None().into_bound(py)))
            }
            Err(e) => Err(e),
        }
    }

    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.object(py)?.call_method0("keys")
    }

    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.object(py)?.call_method0("values")
    }

    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.object(py)?.call_method0("items")
    }

    /// The object as a `dict` of its own (a deep copy: changing it does not change the word).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.built(py) {
            let copy = py.import("copy")?.getattr("deepcopy")?;
            return copy.call1((self.object(py)?,));
        }
        self.build(py)
    }

    /// The word's 64 bytes, as read.
    #[getter]
    fn raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.body.bytes())
    }

    /// The architecture it was decoded for.
    #[getter]
    fn arch(&self) -> &'static str {
        self.arch.name()
    }

    fn __richcmp__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        op: CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        let eq = match op {
            CompareOp::Eq | CompareOp::Ne => {
                if let Ok(o) = other.cast::<Word>() {
                    let o = o.get();
                    if !self.built(py) && !o.built(py) {
                        Some(
                            self.body == o.body
                                && self.index == o.index
                                && self.offset == o.offset
                                && self.arch == o.arch,
                        )
                    } else {
                        Some(self.object(py)?.eq(o.object(py)?)?)
                    }
                } else if other.is_instance_of::<PyDict>()
                    || other.is_instance(&py.import("collections.abc")?.getattr("Mapping")?)?
                {
                    Some(self.object(py)?.eq(other)?)
                } else {
                    None
                }
            }
            _ => None,
        };
        match eq {
            Some(e) => (if matches!(op, CompareOp::Eq) { e } else { !e }).into_bound_py_any(py),
            None => Ok(py.NotImplemented().into_bound(py)),
        }
    }

    fn __repr__(&self) -> String {
        let what = match &self.body {
            Body::Word { kind, bytes } => {
                let what = match *kind {
                    Kind::Known { meta, extends } => match extends {
                        Some(i) => format!("{} (extends #{i})", meta.name),
                        None => meta.name.to_string(),
                    },
                    Kind::Orphan(meta) => format!(
                        "{} out of place (must follow {})",
                        meta.name,
                        Leads(meta.follows)
                    ),
                    Kind::Unknown => "no word".to_string(),
                };
                format!("{what}, opcode {:#04x}", bytes[0])
            }
            Body::Record { meta, .. } => format!("{} record", meta.name),
        };
        let head: String = self
            .body
            .bytes()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        format!(
            "<dmaspec.Word #{} at {:#x} {}: {what}, {head}…>",
            self.index,
            self.offset,
            self.arch.name(),
        )
    }
}
