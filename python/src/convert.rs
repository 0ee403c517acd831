//! Python values in (the data of a stream, an architecture's name) and JSON values out.

use dmaspec::Arch;
use dmaspec::verbs::input::WordReader;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyModule, PyString};
use serde_json::Value as Json;

use crate::errors::usage;

/// A stream handed over whole: `bytes`/`bytearray` of raw words, or `str` of hex text.
pub enum Data {
    Raw(PyBackedBytes),
    Hex(PyBackedStr),
}

impl<'py> FromPyObject<'_, 'py> for Data {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if ob.is_instance_of::<PyString>() {
            Ok(Data::Hex(ob.extract()?))
        } else {
            Ok(Data::Raw(ob.extract()?))
        }
    }
}

impl Data {
    /// Its words (or records), named `data` in errors as the CLI names its file.
    pub fn words(&self) -> WordReader<'_> {
        let (bytes, hex): (&[u8], bool) = match self {
            Data::Raw(b) => (b, false),
            Data::Hex(s) => (s.as_bytes(), true),
        };
        WordReader::new(Box::new(bytes), hex, "data".into())
    }
}

/// The architecture named `name`, or the CLI's error for `--arch`.
pub fn arch(name: &str) -> PyResult<Arch> {
    dmaspec::verbs::parse_arch(name).map_err(usage)
}

/// `f` with the cyclic garbage collector paused (when it was running): building decoded
/// objects makes hundreds of dicts and lists a word, none of them a cycle, and a
/// collection each few hundred of them would walk every object built before (half the
/// time of a build).
pub fn collector_paused<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    static GC: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let gc = GC
        .get_or_try_init(py, || py.import("gc").map(Bound::unbind))?
        .bind(py);
    let enabled = gc.call_method0("isenabled")?.is_truthy()?;
    if enabled {
        gc.call_method0("disable")?;
    }
    let out = f();
    if enabled {
        gc.call_method0("enable")?;
    }
    out
}

/// A JSON value as the Python value `json.loads` makes of it.
pub fn to_py<'py>(py: Python<'py>, v: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Json::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Json::String(s) => PyString::new(py, s).into_any(),
        Json::Array(items) => {
            let list = PyList::empty(py);
            for x in items {
                list.append(to_py(py, x)?)?;
            }
            list.into_any()
        }
        Json::Object(map) => {
            let dict = PyDict::new(py);
            for (k, x) in map {
                // Keys repeat in every word: one shared string object each.
                dict.set_item(PyString::intern(py, k), to_py(py, x)?)?;
            }
            dict.into_any()
        }
    })
}
