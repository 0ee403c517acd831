//! The verbs' errors as the package's exceptions (python/dmaspec/errors.py), with the
//! CLI's messages.

use dmaspec::verbs::Error;
use pyo3::prelude::*;

/// The exception of `class` (a name in `dmaspec.errors`) with `message`, and the list of
/// `errors` it carries when there is one.
fn exception(py: Python<'_>, class: &str, message: String, errors: Option<&[String]>) -> PyErr {
    let made = py
        .import("dmaspec.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| match errors {
            Some(list) => c.call1((message, list.to_vec())),
            None => c.call1((message,)),
        });
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// `e` as the exception a Python caller catches.
pub fn raise(py: Python<'_>, e: Error) -> PyErr {
    let message = e.to_string();
    match &e {
        Error::Input(_) | Error::Io { .. } | Error::BadFile(_) => {
            exception(py, "InputError", message, None)
        }
        Error::Usage(_) => exception(py, "UsageError", message, None),
        Error::Encode { errors, .. } => exception(py, "EncodeError", message, Some(errors)),
        Error::Lower { errors, .. } => exception(py, "LowerError", message, Some(&errors.lines)),
    }
}

/// An `encode` input that is no instruction list: an `EncodeError` with itself as its one
/// error, so every failure of `encode` is caught as one exception.
pub fn bad_list(py: Python<'_>, message: String) -> PyErr {
    let errors = [message.clone()];
    exception(py, "EncodeError", message, Some(&errors))
}

/// A bad name or query: `UsageError(message)`.
pub fn usage(message: String) -> PyErr {
    Python::attach(|py| exception(py, "UsageError", message, None))
}
