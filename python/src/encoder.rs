//! `encode` as a stream: instructions are fed in any number of pieces (lazy words, whose
//! bytes are taken as they are when their object was never built, and lists of dicts as
//! JSON text), checked one at a time as `dmaspec encode` checks its list, and the words and
//! warnings (or every error) come out at the end, as `encode_list` gives them.

use dmaspec::Arch;
use dmaspec::json::{self, encode_all};
use dmaspec::stream::{Decoded, WORD_SIZE};
use dmaspec::verbs::Error;
use dmaspec::verbs::encode::{Checker, reject_hint, warnings};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::Value as Json;

use crate::convert::arch;
use crate::errors::{bad_list, raise};
use crate::word::{Body, Word};

#[pyclass(unsendable, module = "dmaspec._native")]
pub struct Encoder {
    arch: Arch,
    out: Vec<u8>,
    /// Instructions fed so far.
    count: usize,
    /// Errors of encoding (these alone are reported when there are any).
    encode_errors: Vec<String>,
    /// What `validate` says of the words so far (`None`: not validating).
    checker: Option<Checker>,
}

impl Encoder {
    /// Checks the next word as `dmaspec encode` does (see [`Checker::push_with`]).
    fn check(&mut self, bytes: &[u8; WORD_SIZE], ins: impl FnOnce(&Decoded) -> Option<Json>) {
        let i = self.count;
        self.count += 1;
        if let Some(c) = &mut self.checker {
            c.push_with(i, bytes, ins);
        }
    }
}

#[pymethods]
impl Encoder {
    #[new]
    fn new(arch_name: &str, validate: bool) -> PyResult<Self> {
        let arch = arch(arch_name)?;
        Ok(Encoder {
            arch,
            out: Vec::new(),
            count: 0,
            encode_errors: Vec::new(),
            checker: validate.then(|| Checker::new(arch)),
        })
    }

    /// Feeds one decoded word whose object was never built: its bytes, as they are.
    /// False (nothing fed) when its object was built: feed that instead.
    fn word(&mut self, py: Python<'_>, word: &Bound<'_, Word>) -> bool {
        let w = word.get();
        // A record is encoded from its object, with the other records of its `struct=`.
        let (false, Body::Word { bytes, kind }) = (w.built(py), &w.body) else {
            return false;
        };
        self.out.extend_from_slice(bytes);
        let same_arch = w.arch == self.arch;
        self.check(bytes, |here| {
            // Read here as it was read when decoded: its object declares what it has.
            (!(same_arch && kind.reads_as(here))).then(|| w.word_json(bytes, kind))
        });
        true
    }

    /// Feeds the instructions of `text`, the JSON text of a list of them.
    fn json(&mut self, py: Python<'_>, text: &str) -> PyResult<()> {
        let bad = |e: &dyn std::fmt::Display| bad_list(py, format!("instructions: {e}"));
        let doc: Json = serde_json::from_str(text).map_err(|e| bad(&e))?;
        let list = json::instructions(doc).map_err(|e| bad(&e))?;
        let base = self.count;
        let words = match encode_all(&list) {
            Ok(words) => words,
            Err(errors) => {
                self.encode_errors.extend(errors.into_iter().map(|mut e| {
                    e.instruction += base;
                    e.to_string()
                }));
                // Keep counting, so later errors name their instructions.
                self.count += list.len();
                return Ok(());
            }
        };
        for (ins, w) in list.iter().zip(&words) {
            self.out.extend_from_slice(w);
            self.check(w, |_| Some(ins.clone()));
        }
        Ok(())
    }

    /// The words and the warnings, or the `EncodeError` of every problem.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<(Bound<'py, PyBytes>, Vec<String>)> {
        if !self.encode_errors.is_empty() {
            return Err(raise(
                py,
                Error::Encode {
                    errors: std::mem::take(&mut self.encode_errors),
                    hint: None,
                },
            ));
        }
        let checked = self.checker.take().map(|c| c.checked).unwrap_or_default();
        if !checked.errors.is_empty() {
            return Err(raise(
                py,
                Error::Encode {
                    errors: checked.errors.into_lines(),
                    hint: Some(reject_hint(self.arch)),
                },
            ));
        }
        let warnings = warnings(&checked, self.arch);
        Ok((PyBytes::new(py, &std::mem::take(&mut self.out)), warnings))
    }
}
