//! `column`: one field of every word of one struct across a stream (or of every record of a
//! stream of records), as a packed array, for trace analysis. The value is the one `decode --json` shows for the field (as stored:
//! an enum's or a flag set's `raw`, a `*_elem_size` of 0 as 0).

use dmaspec::runtime::meta::{FieldMeta, LeafMeta};
use dmaspec::runtime::record::RecordMeta;
use dmaspec::runtime::visit::{Group, Value, Visitor};
use dmaspec::stream::{Decoder, WORD_SIZE};
use dmaspec::verbs::Error;
use dmaspec::verbs::records::Records;
use dmaspec::words::{RECORDS, Record};
use dmaspec::{Arch, WORDS, Word as Layout};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{Data, arch};
use crate::errors::raise;

/// The field a column reads: a leaf of one word or record, or one element of an array leaf.
struct Target {
    /// The word's or record's name.
    word: &'static str,
    /// The record it is a field of (`None`: a word's).
    record: Option<&'static RecordMeta>,
    leaf: &'static LeafMeta,
    /// Absolute byte offset of the value (the element's, for an array).
    offset: usize,
    /// Bytes of the value as stored (of one element, for an array).
    size: usize,
    /// Bits of the value as stored.
    width: u32,
    /// An `iN` type: the values are two's complement.
    signed: bool,
}

impl Target {
    /// The value in `word` as the walk gives it, read straight from the bytes: for a leaf
    /// outside union arms, which every word of its struct shows (the walk costs ~5x more,
    /// most of it naming enumerators the column does not use).
    fn read(&self, word: &[u8]) -> u64 {
        let stored = word[self.offset..self.offset + self.size]
            .iter()
            .rev()
            .fold(0u64, |acc, b| acc << 8 | u64::from(*b));
        let (value, bits) = match self.leaf.bits {
            Some((lsb, w)) => ((stored >> lsb) & (u64::MAX >> (64 - w)), w),
            None => (stored, self.size as u32 * 8),
        };
        if self.signed && bits < 64 {
            // Sign-extend from the stored width.
            let shift = 64 - bits;
            ((value << shift) as i64 >> shift) as u64
        } else {
            value
        }
    }
}

/// `[n]` of an array type (`u16[2]`).
fn array_len(type_name: &str) -> Option<usize> {
    let (_, n) = type_name.strip_suffix(']')?.rsplit_once('[')?;
    n.parse().ok()
}

fn target(path: &str) -> Result<Target, Error> {
    let usage = |m: String| Err(Error::Usage(m));
    let Some((word, field)) = path.split_once('.') else {
        return usage(format!(
            "`{path}`: a column is WORD.field, as rules and decode's JSON write it \
             (`DMA_DIRECT2D.src_num_elem[0]`)"
        ));
    };
    let (name, leaves, record) = if let Some(w) = WORDS.iter().find(|w| w.name == word) {
        (w.name, w.leaves, None)
    } else if let Some(r) = RECORDS.iter().find(|r| r.name == word) {
        (r.name, r.leaves, Some(r))
    } else {
        let names = |n: &mut dyn Iterator<Item = &str>| n.collect::<Vec<_>>().join(", ");
        return usage(format!(
            "`{word}` is not a word or a record (words: {}; records: {})",
            names(&mut WORDS.iter().map(|w| w.name)),
            names(&mut RECORDS.iter().map(|r| r.name)),
        ));
    };
    let (base, index) = match field.strip_suffix(']').and_then(|f| f.rsplit_once('[')) {
        Some((base, i)) => match i.parse::<usize>() {
            Ok(i) => (base, Some(i)),
            Err(_) => return usage(format!("`{path}`: `[{i}]` is not an element index")),
        },
        None => (field, None),
    };
    let Some(leaf) = leaves.iter().find(|l| l.path == base) else {
        let paths: Vec<&str> = leaves.iter().map(|l| l.path).collect();
        return usage(format!(
            "{word} has no field `{base}` (fields: {})",
            paths.join(", ")
        ));
    };
    if leaf.type_name.starts_with("ascii") {
        return usage(format!(
            "{word}.{base} is text ({}), not a number",
            leaf.type_name
        ));
    }
    let (offset, size) = match (array_len(leaf.type_name), index) {
        (Some(n), Some(i)) if i < n => (leaf.offset + i * (leaf.size / n), leaf.size / n),
        (Some(n), Some(_)) => {
            return usage(format!(
                "{word}.{base} has {n} elements, [0] to [{}]",
                n - 1
            ));
        }
        (Some(_), None) => {
            return usage(format!(
                "{word}.{base} is an array ({}): name one element, `{path}[0]`",
                leaf.type_name
            ));
        }
        (None, Some(_)) => {
            return usage(format!(
                "{word}.{base} is a {}, not an array: `{word}.{base}` reads it",
                leaf.type_name
            ));
        }
        (None, None) => (leaf.offset, leaf.size),
    };
    if size > 8 && leaf.bits.is_none() {
        return usage(format!(
            "{word}.{base} is {size} bytes: wider than a 64-bit column"
        ));
    }
    let width = leaf.bits.map_or(size as u32 * 8, |(_, w)| w);
    let digits = leaf.type_name.strip_prefix('i').unwrap_or("");
    Ok(Target {
        word: name,
        record,
        leaf,
        offset,
        size,
        width,
        signed: digits.starts_with(|c: char| c.is_ascii_digit()),
    })
}

/// Finds the target's value in one word's walk: the leaf's member at its offset, under
/// the members (a union's chosen arm among them) its path names. Members are told apart by
/// name: the generated metadata are constants, whose addresses are not unique.
struct Probe<'t> {
    target: &'t Target,
    /// The leaf's path, split at the dots, without element indices.
    path: Vec<&'static str>,
    open: Vec<&'static str>,
    found: Option<Value<'static>>,
}

impl Probe<'_> {
    /// Whether the member `name` is the leaf: the open members and it spell its path. An
    /// array and each of its elements are open under one name, and the path's element
    /// indices are left out (the offset tells the elements apart).
    fn is_leaf(&self, name: &'static str) -> bool {
        let mut names = self.open.iter().copied().chain([name]);
        let mut last = None;
        let mut spelled = std::iter::from_fn(|| {
            let next = names.find(|n| Some(*n) != last)?;
            last = Some(next);
            Some(next)
        });
        self.path.iter().all(|seg| spelled.next() == Some(*seg)) && spelled.next().is_none()
    }
}

impl Visitor for Probe<'_> {
    fn enter(&mut self, field: &'static FieldMeta, _offset: usize, _group: Group) {
        self.open.push(field.name);
    }

    fn leave(&mut self, _group: Group) {
        self.open.pop();
    }

    fn value(&mut self, field: &'static FieldMeta, offset: usize, value: Value<'_>) {
        if offset != self.target.offset || !self.is_leaf(field.name) {
            return;
        }
        self.found = match value {
            Value::Unsigned(u) => Some(Value::Unsigned(u)),
            Value::Signed(i) => Some(Value::Signed(i)),
            Value::Enum { raw, .. } | Value::Flags { raw, .. } => Some(Value::Unsigned(raw)),
            Value::Text(_) => None,
        };
    }
}

/// The columns of a stream, one per target, as they are read: (item indices, values as
/// u64 bit patterns) each.
struct Scan<'t> {
    targets: &'t [Target],
    probes: Vec<Probe<'t>>,
    out: Vec<(Vec<u64>, Vec<u64>)>,
}

impl<'t> Scan<'t> {
    fn new(targets: &'t [Target]) -> Self {
        let probes = targets
            .iter()
            .map(|t| Probe {
                target: t,
                path: t
                    .leaf
                    .path
                    .split('.')
                    .map(|seg| seg.split_once('[').map_or(seg, |(name, _)| name))
                    .collect(),
                open: Vec::new(),
                found: None,
            })
            .collect();
        let out = targets.iter().map(|_| Default::default()).collect();
        Scan {
            targets,
            probes,
            out,
        }
    }

    /// The `wanted` targets' values in item `index` (`bytes`, a word or record they are
    /// fields of). `walk` visits its decoding with a probe, false when it does not decode;
    /// it is called only for a leaf in a union arm, which the walk shows only where the arm
    /// is chosen: any other is read straight from the bytes, ~4x faster.
    fn item(
        &mut self,
        index: usize,
        bytes: &[u8],
        wanted: &[usize],
        mut walk: impl FnMut(&mut Probe) -> bool,
    ) {
        for &i in wanted {
            let t = &self.targets[i];
            let value = if t.leaf.variant.is_none() {
                t.read(bytes)
            } else {
                let probe = &mut self.probes[i];
                probe.found = None;
                probe.open.clear();
                if !walk(probe) {
                    continue;
                }
                match probe.found {
                    Some(Value::Signed(v)) => v as u64,
                    Some(Value::Unsigned(u)) => u,
                    _ => continue,
                }
            };
            self.out[i].1.push(value);
            self.out[i].0.push(index as u64);
        }
    }
}

/// The columns of the whole words `stream`, in one pass.
fn scan_words(stream: &[u8], arch: Arch, targets: &[Target]) -> Vec<(Vec<u64>, Vec<u64>)> {
    let mut decoder = Decoder::new(arch);
    let mut scan = Scan::new(targets);
    // The targets of each word named, so a word is looked at once whatever their number.
    let mut by_word: Vec<(&'static str, Vec<usize>)> = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        match by_word.iter_mut().find(|(name, _)| *name == t.word) {
            Some((_, list)) => list.push(i),
            None => by_word.push((t.word, vec![i])),
        }
    }
    for (index, bytes) in stream.as_chunks::<WORD_SIZE>().0.iter().enumerate() {
        // The word's kind is all a leaf outside union arms needs (every word of its struct
        // shows it), not its decoding.
        let Some(meta) = decoder.push_meta(bytes) else {
            continue;
        };
        let Some((_, wanted)) = by_word.iter().find(|(name, _)| *name == meta.name) else {
            continue;
        };
        let mut word = None;
        scan.item(index, bytes, wanted, |probe| {
            match word.get_or_insert_with(|| Layout::decode(bytes, arch)) {
                Some(w) => {
                    w.visit(probe, arch);
                    true
                }
                None => false,
            }
        });
    }
    scan.out
}

/// The columns of the whole records of `meta` `stream`, in one pass.
fn scan_records(
    stream: &[u8],
    meta: &'static RecordMeta,
    arch: Arch,
    targets: &[Target],
) -> Vec<(Vec<u64>, Vec<u64>)> {
    let mut scan = Scan::new(targets);
    let all: Vec<usize> = (0..targets.len()).collect();
    for (index, bytes) in stream.chunks_exact(meta.size).enumerate() {
        let mut record = None;
        scan.item(index, bytes, &all, |probe| {
            match record
                .get_or_insert_with(|| Record::decode(meta.name, bytes).and_then(Result::ok))
            {
                Some(r) => {
                    r.visit(probe, arch);
                    true
                }
                None => false,
            }
        });
    }
    scan.out
}

/// What a stream holds for `targets`: words (`None`), or records of one struct; a usage
/// error when they name both, or two records.
fn stream_of(targets: &[Target]) -> Result<Option<&'static RecordMeta>, Error> {
    let mut kinds = targets.iter().map(|t| (t.word, t.record));
    let Some(first) = kinds.next() else {
        return Ok(None);
    };
    match kinds.find(|other| other.1 != first.1) {
        None => Ok(first.1),
        Some(other) => {
            let (record, other_name) = match (first.1, other.1) {
                (Some(r), _) => (r.name, other.0),
                (None, _) => (other.0, first.0),
            };
            Err(Error::Usage(format!(
                "`{record}` and `{other_name}`: a stream holds words or records of one struct \
                 (`{record}` records are read from a stream of them alone)"
            )))
        }
    }
}

/// The raw items of `data`: its bytes when they are whole words (records of `record`),
/// else (hex text, or a trailing partial item and the CLI's error for it) what the reader
/// reads.
fn raw_items<'d>(
    data: &'d Data,
    record: Option<&'static RecordMeta>,
) -> Result<std::borrow::Cow<'d, [u8]>, Error> {
    let size = record.map_or(WORD_SIZE, |r| r.size);
    if let Data::Raw(bytes) = data
        && bytes.len().is_multiple_of(size)
    {
        return Ok(bytes[..].into());
    }
    let mut all = Vec::new();
    match record {
        None => {
            let mut words = data.words();
            while let Some(w) = words.next_word().map_err(Error::Input)? {
                all.extend_from_slice(&w);
            }
        }
        Some(meta) => {
            let mut records = Records::new(data.words(), meta);
            while let Some((_, _, buf)) = records.next_record()? {
                all.extend_from_slice(buf);
            }
        }
    }
    Ok(all.into())
}

/// Little-endian values of `size` bytes each.
fn pack(values: &[u64], size: usize) -> Vec<u8> {
    values
        .iter()
        .flat_map(|v| v.to_le_bytes().into_iter().take(size))
        .collect()
}

/// The item size of a column of `t`: the stored width rounded up to 1, 2, 4 or 8 bytes.
fn item_size(t: &Target) -> usize {
    match t.width {
        0..=8 => 1,
        9..=16 => 2,
        17..=32 => 4,
        _ => 8,
    }
}

/// One column, for Python: `(signed, item size in bytes, values, indices)`, packed
/// little-endian (indices as 8-byte unsigned).
type Packed<'py> = (bool, usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>);

fn columns_of<'py>(
    py: Python<'py>,
    data: Data,
    paths: &[String],
    arch_name: &str,
) -> PyResult<Vec<Packed<'py>>> {
    let arch = arch(arch_name)?;
    let targets = paths
        .iter()
        .map(|p| target(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| raise(py, e))?;
    let record = stream_of(&targets).map_err(|e| raise(py, e))?;
    let stream = raw_items(&data, record).map_err(|e| raise(py, e))?;
    let found = py.detach(|| match record {
        None => scan_words(&stream, arch, &targets),
        Some(meta) => scan_records(&stream, meta, arch, &targets),
    });
    Ok(targets
        .iter()
        .zip(found)
        .map(|(t, (indices, values))| {
            let size = item_size(t);
            (
                t.signed,
                size,
                PyBytes::new(py, &pack(&values, size)),
                PyBytes::new(py, &pack(&indices, 8)),
            )
        })
        .collect())
}

/// `column`'s native half: one path's [`Packed`] column.
#[pyfunction]
#[pyo3(signature = (data, path, arch_name))]
pub fn column<'py>(
    py: Python<'py>,
    data: Data,
    path: &str,
    arch_name: &str,
) -> PyResult<Packed<'py>> {
    let mut all = columns_of(py, data, &[path.to_string()], arch_name)?;
    Ok(all.remove(0))
}

/// `columns`' native half: the [`Packed`] column of each path, read in one pass.
#[pyfunction]
#[pyo3(signature = (data, paths, arch_name))]
pub fn columns<'py>(
    py: Python<'py>,
    data: Data,
    paths: Vec<String>,
    arch_name: &str,
) -> PyResult<Vec<Packed<'py>>> {
    columns_of(py, data, &paths, arch_name)
}
