//! Register files for Python: their metadata as read-only objects over the crate's static
//! tables (nothing copied until an attribute is read), and `regs`, a dump decoded by the
//! library's `dmaspec::verbs::dump` as the CLI decodes it.

use dmaspec::runtime::regs::{BundleMeta, RegFieldMeta, RegFileMeta, RegisterMeta};
use dmaspec::verbs::dump::{Dump, Reading, Request, Slots, Target, enumerator};
use dmaspec::verbs::registers::{bits, find};
use dmaspec::words::regs::REGFILES;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{Data, arch};
use crate::errors::{raise, usage};

/// A register file: its window, bus and bundles.
#[pyclass(frozen, module = "dmaspec._native")]
pub struct RegisterFile(&'static RegFileMeta);

#[pymethods]
impl RegisterFile {
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name
    }
    #[getter]
    fn doc(&self) -> &'static str {
        self.0.doc
    }
    #[getter]
    fn archs(&self) -> Vec<&'static str> {
        self.0.archs.to_vec()
    }
    #[getter]
    fn bus_width(&self) -> u32 {
        self.0.bus_width
    }
    /// The window in bytes on `arch`.
    fn size(&self, arch_name: &str) -> PyResult<u64> {
        Ok(self.0.size_on(arch(arch_name)?.name()))
    }
    #[getter]
    fn bundles(&self) -> Vec<Bundle> {
        self.0.bundles.iter().map(Bundle).collect()
    }
    fn __repr__(&self) -> String {
        format!("<RegisterFile {}>", self.0.name)
    }
}

/// A bundle: `count` elements `stride` bytes apart from `offset`.
#[pyclass(frozen, module = "dmaspec._native")]
pub struct Bundle(&'static BundleMeta);

#[pymethods]
impl Bundle {
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name
    }
    #[getter]
    fn doc(&self) -> &'static str {
        self.0.doc
    }
    #[getter]
    fn offset(&self) -> u64 {
        self.0.offset
    }
    #[getter]
    fn size(&self) -> u64 {
        self.0.size
    }
    #[getter]
    fn count(&self) -> u64 {
        self.0.count
    }
    #[getter]
    fn stride(&self) -> u64 {
        self.0.stride
    }
    #[getter]
    fn archs(&self) -> Vec<&'static str> {
        self.0.archs.to_vec()
    }
    #[getter]
    fn registers(&self) -> Vec<Register> {
        self.0.registers.iter().map(Register).collect()
    }
    fn __repr__(&self) -> String {
        format!("<Bundle {}>", self.0.name)
    }
}

/// A register: its offset in the bundle, access, reset and fields.
#[pyclass(frozen, module = "dmaspec._native")]
pub struct Register(&'static RegisterMeta);

#[pymethods]
impl Register {
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name
    }
    #[getter]
    fn doc(&self) -> &'static str {
        self.0.doc
    }
    /// From the bundle element's base.
    #[getter]
    fn offset(&self) -> u64 {
        self.0.offset
    }
    #[getter]
    fn width(&self) -> u32 {
        self.0.width
    }
    #[getter]
    fn access(&self) -> &'static str {
        self.0.access
    }
    #[getter]
    fn reset(&self) -> Option<u64> {
        self.0.reset
    }
    #[getter]
    fn archs(&self) -> Vec<&'static str> {
        self.0.archs.to_vec()
    }
    #[getter]
    fn fields(&self) -> Vec<Field> {
        self.0.fields.iter().map(Field).collect()
    }
    fn __repr__(&self) -> String {
        format!("<Register {}>", self.0.name)
    }
}

/// A field: its bits, access, reset and enumerators.
#[pyclass(frozen, module = "dmaspec._native")]
pub struct Field(&'static RegFieldMeta);

#[pymethods]
impl Field {
    #[getter]
    fn name(&self) -> &'static str {
        self.0.name
    }
    #[getter]
    fn doc(&self) -> &'static str {
        self.0.doc
    }
    #[getter]
    fn lsb(&self) -> u32 {
        self.0.lsb
    }
    #[getter]
    fn width(&self) -> u32 {
        self.0.width
    }
    /// `[23:0]`, or `[17]` for one bit.
    #[getter]
    fn bits(&self) -> String {
        bits(self.0)
    }
    #[getter]
    fn mask(&self) -> u64 {
        self.0.mask()
    }
    #[getter]
    fn access(&self) -> &'static str {
        self.0.access
    }
    #[getter]
    fn reset(&self) -> Option<u64> {
        self.0.reset
    }
    #[getter]
    fn archs(&self) -> Vec<&'static str> {
        self.0.archs.to_vec()
    }
    /// The enumerators (name → value), or `None` for a field without an enum.
    #[getter]
    fn enum_values<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0
            .enumerators
            .map(|(_, list)| {
                let d = PyDict::new(py);
                for (n, v) in list {
                    d.set_item(n, v)?;
                }
                Ok(d)
            })
            .transpose()
    }
    fn __repr__(&self) -> String {
        format!("<Field {} {}>", self.0.name, bits(self.0))
    }
}

/// One register of a decoded dump.
#[pyclass(frozen, module = "dmaspec._native")]
pub struct RegisterReading {
    file: &'static str,
    reading: Reading,
    address: Option<u64>,
}

#[pymethods]
impl RegisterReading {
    #[getter]
    fn file(&self) -> &'static str {
        self.file
    }
    #[getter]
    fn bundle(&self) -> &'static str {
        self.reading.bundle.name
    }
    /// The element of an array bundle; `None` for a single bundle.
    #[getter]
    fn index(&self) -> Option<u64> {
        self.reading.index
    }
    #[getter]
    fn name(&self) -> &'static str {
        self.reading.register.name
    }
    /// From the register file's base.
    #[getter]
    fn offset(&self) -> u64 {
        self.reading.offset
    }
    /// The absolute MMIO address, for a dump taken at a base.
    #[getter]
    fn address(&self) -> Option<u64> {
        self.address
    }
    #[getter]
    fn value(&self) -> u32 {
        self.reading.value
    }
    /// Field name → value.
    #[getter]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for f in &self.reading.fields {
            d.set_item(f.name, self.reading.get(f))?;
        }
        Ok(d)
    }
    /// Field name → enumerator name, for the fields whose value an enum names.
    #[getter]
    fn enumerators<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for f in &self.reading.fields {
            if let Some(n) = enumerator(f, self.reading.get(f)) {
                d.set_item(f.name, n)?;
            }
        }
        Ok(d)
    }
    /// The bits no field claims.
    #[getter]
    fn unknown(&self) -> u32 {
        self.reading.unknown()
    }
    /// The register's metadata.
    #[getter]
    fn register(&self) -> Register {
        Register(self.reading.register)
    }
    fn __repr__(&self) -> String {
        format!(
            "<RegisterReading {}.{}.{} = {:#010x}>",
            self.file,
            self.reading.element(),
            self.reading.register.name,
            self.reading.value
        )
    }
}

/// The register files on `arch_name` (every one when `None`).
#[pyfunction]
#[pyo3(signature = (arch_name=None))]
pub fn register_files(arch_name: Option<&str>) -> PyResult<Vec<RegisterFile>> {
    let on = arch_name.map(arch).transpose()?;
    Ok((REGFILES.iter())
        .filter(|f| on.is_none_or(|a| f.archs.contains(&a.name())))
        .map(RegisterFile)
        .collect())
}

/// The register file named `name` (letter case aside), or `UsageError`.
#[pyfunction]
pub fn register_file(name: &str) -> PyResult<RegisterFile> {
    find(name).map(RegisterFile).map_err(|guess| {
        usage(format!(
            "no register file `{}`{}",
            dmaspec::names::echo(name),
            dmaspec::verbs::lookup::hint(guess)
        ))
    })
}

/// `regs`'s readings of `data` (raw little-endian bytes, or hex text), and what was left
/// undecoded past the window of a dump taken at `base` (`None` when nothing was).
#[pyfunction]
#[pyo3(signature = (data, arch_name, file=None, bundle=None, base=None))]
pub fn regs(
    py: Python<'_>,
    data: Data,
    arch_name: &str,
    file: Option<&str>,
    bundle: Option<&str>,
    base: Option<u64>,
) -> PyResult<(Vec<RegisterReading>, Option<String>)> {
    let request = Request { file, bundle, base };
    let target = Target::new(request, arch(arch_name)?).map_err(|e| raise(py, e))?;
    let mut slots = Slots::new(&target);
    slots.read(&mut data.words()).map_err(|e| raise(py, e))?;
    let dump = Dump::new(target, slots, "data").map_err(|e| raise(py, e))?;
    let left = dump.left().map(|(text, _)| text);
    let t = &dump.target;
    let readings = (dump.readings.iter())
        .map(|r| RegisterReading {
            file: t.file.name,
            address: t.address(r.offset),
            reading: r.clone(),
        })
        .collect();
    Ok((readings, left))
}
