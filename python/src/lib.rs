//! `dmaspec._native`: the command line's verbs (the library's `dmaspec::verbs`) over Python
//! objects, so the package gives what the CLI prints, built by the same code. The public API, its
//! types and docs are the package around it (python/dmaspec/).

mod column;
mod convert;
mod encoder;
mod errors;
mod items;
mod reader;
mod registers;
mod word;

use pyo3::prelude::*;

#[pymodule]
mod _native {
    use dmaspec::json;
    use dmaspec::verbs::input::WordReader;
    use dmaspec::verbs::lower::{LowerOptions, Vars, lower_stream, parse_vars, read_vars};
    use dmaspec::verbs::{records, report};
    use pyo3::prelude::*;
    use pyo3::types::{PyBytes, PyList};

    use crate::convert::{Data, arch, collector_paused};
    use crate::errors::{bad_list, raise};
    use crate::items::{Items, words_of};
    use dmaspec::stream::WORD_SIZE;

    #[pymodule_export]
    use crate::items::DecodeStream;

    #[pymodule_export]
    use crate::column::{column, columns};

    #[pymodule_export]
    use crate::word::Word;

    #[pymodule_export]
    use crate::encoder::Encoder;

    #[pymodule_export]
    use crate::registers::{
        Bundle, Field, Register, RegisterFile, RegisterReading, register_file, register_files, regs,
    };

    /// The architectures' names.
    #[pyfunction]
    fn archs() -> Vec<&'static str> {
        dmaspec::Arch::ALL.iter().map(|a| a.name()).collect()
    }

    /// The JSON dictionary's text (`generated/dmaspec.json`).
    #[pyfunction]
    fn dictionary() -> &'static str {
        dmaspec::DICTIONARY
    }

    /// `decode --json`'s `instructions` as lazy words (or, with `record`, `records` as lazy
    /// records).
    #[pyfunction]
    #[pyo3(signature = (data, arch_name, record=None))]
    fn decode<'py>(
        py: Python<'py>,
        data: Data,
        arch_name: &str,
        record: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let arch = arch(arch_name)?;
        // A list of 100,000 words (or records) is built here: a collection every few
        // hundred objects would walk the growing list again and again (5x the time).
        if let (Data::Raw(bytes), None) = (&data, record)
            && bytes.len().is_multiple_of(WORD_SIZE)
        {
            return collector_paused(py, || PyList::new(py, words_of(py, bytes, arch)?));
        }
        let mut items = Items::new(data.words(), arch, record).map_err(|e| raise(py, e))?;
        collector_paused(py, || {
            let list = PyList::empty(py);
            while let Some(v) = items.next_item(py)? {
                list.append(v)?;
                // A long decode stops at Ctrl-C (a few ms after it, at this interval).
                if list.len() % 1024 == 0 {
                    py.check_signals()?;
                }
            }
            Ok(list)
        })
    }

    /// `validate`'s findings: `(index, offset, severity, text)`, in stream order; the
    /// severity is `error`, `undecided` or `warning`.
    #[pyfunction]
    #[pyo3(signature = (data, arch_name, record=None))]
    fn validate<'py>(
        py: Python<'py>,
        data: Data,
        arch_name: &str,
        record: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let arch = arch(arch_name)?;
        let words = data.words();
        let mut found = Vec::new();
        let result = match record {
            None => report::each_finding(words, arch, |f| {
                found.extend(
                    f.iter()
                        .map(|x| (x.index, x.offset, x.severity.name(), x.text.clone())),
                );
                Ok(())
            }),
            Some(name) => records::find(name).and_then(|meta| {
                records::each_record(words, meta, |index, offset, buf| {
                    let faults = records::faults(meta, buf, arch);
                    found.extend(faults.into_iter().map(|(_, t)| (index, offset, "error", t)));
                    Ok(())
                })
            }),
        };
        result.map_err(|e| raise(py, e))?;
        PyList::new(py, found)
    }

    /// `encode`'s words from the JSON text of an instruction list (or, with `record`, a
    /// record list), and the warnings it prints.
    #[pyfunction]
    #[pyo3(signature = (text, arch_name, validate, record=None))]
    fn encode<'py>(
        py: Python<'py>,
        text: &str,
        arch_name: &str,
        validate: bool,
        record: Option<&str>,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<String>)> {
        let arch = arch(arch_name)?;
        let bad = |e: &dyn std::fmt::Display| bad_list(py, format!("instructions: {e}"));
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&e))?;
        let (bytes, warnings) = match record {
            None => {
                let list = json::instructions(doc).map_err(|e| bad(&e))?;
                let (words, warnings) = dmaspec::verbs::encode::encode_list(&list, arch, validate)
                    .map_err(|e| raise(py, e))?;
                (words.concat(), warnings)
            }
            Some(name) => {
                let list = json::records(doc).map_err(|e| bad(&e))?;
                let all = records::find(name)
                    .and_then(|meta| records::encode_list(meta, &list, arch, validate))
                    .map_err(|e| raise(py, e))?;
                (all.concat(), Vec::new())
            }
        };
        Ok((PyBytes::new(py, &bytes), warnings))
    }

    /// `lower`'s output (binary words, or with `as_json` its JSON document's text). `vars`
    /// is the JSON text of a variable table, or `vars_file` the path of one.
    #[pyfunction]
    #[pyo3(signature = (data, arch_name, vars=None, vars_file=None, abi=None, as_json=false))]
    fn lower<'py>(
        py: Python<'py>,
        data: Data,
        arch_name: &str,
        vars: Option<&str>,
        vars_file: Option<std::path::PathBuf>,
        abi: Option<String>,
        as_json: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let vars: Vars = match (vars, vars_file) {
            (Some(text), _) => parse_vars(text, false, "vars"),
            (None, Some(path)) => read_vars(&path),
            (None, None) => Ok(Vars::new()),
        }
        .map_err(|e| raise(py, e))?;
        let args = LowerOptions {
            arch: arch(arch_name)?,
            abi,
            hex: false,
            json: as_json,
            explain: false,
        };
        let mut out = Vec::new();
        let mut words: WordReader = data.words();
        lower_stream(&args, &vars, &mut words, &mut out).map_err(|e| raise(py, e))?;
        Ok(PyBytes::new(py, &out))
    }

    /// `encode --asm`'s words from the text of lines in `decode --asm`'s syntax.
    #[pyfunction]
    fn assemble<'py>(
        py: Python<'py>,
        text: &str,
        arch_name: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let arch = arch(arch_name)?;
        let words = dmaspec::verbs::encode::assemble(text.as_bytes(), arch)
            .map_err(|e| bad_list(py, e.to_string()))?
            .map_err(|e| raise(py, e))?;
        let words: Vec<u8> = words.concat();
        Ok(PyBytes::new(py, &words))
    }

    /// `addr ADDRESS --json`'s document (the address as typed: `0x…` or decimal).
    #[pyfunction]
    fn addr<'py>(py: Python<'py>, address: &str, arch_name: &str) -> PyResult<Bound<'py, PyAny>> {
        use dmaspec::verbs::{address::Answer, place};
        let arch = arch(arch_name)?.name();
        let found = place::parse_address(address)
            .and_then(|a| Ok((a, place::map(arch)?)))
            .map_err(|e| raise(py, e))?;
        let (address, map) = found;
        crate::convert::to_py(py, &Answer::of(map, address).json(address, arch))
    }

    /// `explain WHAT`'s text.
    #[pyfunction]
    fn explain(py: Python<'_>, what: &str) -> PyResult<String> {
        dmaspec::verbs::explain::explain(what).map_err(|e| raise(py, e))
    }
}
