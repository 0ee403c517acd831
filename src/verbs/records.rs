//! `dmaspec decode --struct NAME`: a stream of records (a ring of 16-byte SDMA descriptors)
//! instead of 64-byte words, one table or JSON entry per record with its byte offset;
//! `dmaspec encode --struct NAME`, its inverse; and `dmaspec validate --struct NAME`.

use std::path::Path;

use crate::Arch;
use crate::json::{self, JsonFields};
use crate::runtime::record::RecordMeta;
use crate::words::{RECORDS, Record};
use serde_json::{Map, Value as Json, json};

use super::Error;
use super::error::Listed;
use super::input::{self, WordReader};
use super::report::FaultKind;
use super::shape::{insert_fields, insert_verdict};
use super::table::{self, TableRows};

/// The record named `name` (spec name, in any case), or a usage error listing the records
/// there are.
pub fn find(name: &str) -> Result<&'static RecordMeta, Error> {
    super::lookup::named(RECORDS, |r| r.name, name).map_err(|guess| {
        let names: Vec<&str> = RECORDS.iter().map(|r| r.name).collect();
        // A word's name is the likeliest slip: say how to read words instead.
        let word = if crate::WORDS
            .iter()
            .any(|w| w.name.eq_ignore_ascii_case(name))
        {
            " (it is a 64-byte word: decode it without --struct)".to_string()
        } else {
            super::lookup::hint(guess)
        };
        Error::Usage(format!(
            "no record (top-level struct) named `{}`{word}; the spec has: {}",
            crate::names::echo(name),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ))
    })
}

/// One record of a stream: its index, byte offset and bytes.
pub type StreamRecord<'r> = (usize, usize, &'r [u8]);

/// The records of one struct in a stream, pulled one at a time.
pub struct Records<'a> {
    reader: WordReader<'a>,
    meta: &'static RecordMeta,
    buf: Vec<u8>,
    index: usize,
}

impl<'a> Records<'a> {
    pub fn new(reader: WordReader<'a>, meta: &'static RecordMeta) -> Self {
        Records {
            reader,
            meta,
            buf: vec![0; meta.size],
            index: 0,
        }
    }

    /// The next whole record; `None` at the end. A read error (a trailing partial record
    /// among them) is an input error.
    pub fn next_record(&mut self) -> Result<Option<StreamRecord<'_>>, Error> {
        let offset = self.reader.offset();
        let meta = self.meta;
        if !self
            .reader
            .next_into(&mut self.buf, meta.name)
            .map_err(Error::Input)?
        {
            return Ok(None);
        }
        self.index += 1;
        Ok(Some((self.index - 1, offset, &self.buf)))
    }
}

/// Calls `f` with the index, byte offset and bytes of each whole record of the stream
/// ([`Records`]). A read error stops the stream after the whole records before it; an
/// error of `f` stops it at once.
pub fn each_record(
    records: WordReader,
    meta: &'static RecordMeta,
    mut f: impl FnMut(usize, usize, &[u8]) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut records = Records::new(records, meta);
    while let Some((index, offset, buf)) = records.next_record()? {
        f(index, offset, buf)?;
    }
    Ok(())
}

/// The record `buf` (of `meta.size` bytes).
pub fn decode_one(meta: &RecordMeta, buf: &[u8]) -> Result<Record, Error> {
    match Record::decode(meta.name, buf) {
        Some(Ok(r)) => Ok(r),
        _ => Err(Error::Usage(format!("`{}` does not decode", meta.name))),
    }
}

/// One decoded record, in `decode --json`'s shape for a word (without the opcode).
pub fn record_json(index: usize, offset: usize, bytes: &[u8], r: &Record, arch: Arch) -> Json {
    let mut obj = Map::new();
    obj.insert("index".into(), json!(index));
    obj.insert("offset".into(), json!(offset));
    obj.insert("struct".into(), json!(r.meta().name));
    let mut v = JsonFields::new(bytes);
    r.visit(&mut v, arch);
    insert_fields(&mut obj, v, r.meta().leaves);
    insert_verdict(&mut obj, &r.check(arch));
    Json::Object(obj)
}

pub fn table_text(index: usize, offset: usize, r: &Record, arch: Arch) -> String {
    let mut rows = TableRows::new(r.meta().leaves);
    r.visit(&mut rows, arch);
    format!(
        "#{index}  offset {offset} ({offset:#06x})  {}\n{}{}",
        r.meta().name,
        table::render(&rows.rows),
        table::fit_text(&super::report::table_lines(&r.check(arch), arch, &[]))
    )
}

/// Encodes every entry of `list` as a record of `meta`; every error is reported at once.
pub fn encode_list(
    meta: &RecordMeta,
    list: &[Json],
    arch: Arch,
    validate: bool,
) -> Result<Vec<Vec<u8>>, Error> {
    let mut enc = Encoding::new(meta, arch, validate);
    for (i, entry) in list.iter().enumerate() {
        enc.push(i, entry);
    }
    enc.finish()
}

/// [`encode_list`] of the records in `input`, read one entry at a time (a TOML file is read
/// whole): memory is the encoded records, not the document.
pub fn encode_input(
    meta: &RecordMeta,
    input: &Path,
    arch: Arch,
    validate: bool,
) -> Result<Vec<Vec<u8>>, Error> {
    if super::document::is_toml(input) {
        let list = super::shape::read_list(input, json::records)?;
        return encode_list(meta, &list, arch, validate);
    }
    let mut enc = Encoding::new(meta, arch, validate);
    match json::for_each_record(input::open(Some(input))?, |i, entry| enc.push(i, &entry)) {
        Ok(_) => enc.finish(),
        Err(json::ListError::Io(e)) => Err(Error::read(input, e)),
        Err(e) => Err(Error::BadFile(format!("{}: {e}", input::name(Some(input))))),
    }
}

/// Records encoded one entry at a time, each checked against its rules unless `validate` is
/// off (a rule the entry's own `violations` lists was broken in the decoded input: kept).
/// Every error is collected; once there is one, no record is kept.
struct Encoding<'m> {
    meta: &'m RecordMeta,
    arch: Arch,
    validate: bool,
    records: Vec<Vec<u8>>,
    errors: Listed,
    rule_errors: Listed,
}

impl<'m> Encoding<'m> {
    fn new(meta: &'m RecordMeta, arch: Arch, validate: bool) -> Self {
        Encoding {
            meta,
            arch,
            validate,
            records: Vec::new(),
            errors: Listed::default(),
            rule_errors: Listed::default(),
        }
    }

    fn push(&mut self, i: usize, entry: &Json) {
        let bytes = match json::encode_records(self.meta.name, std::slice::from_ref(entry)) {
            Some(Ok(mut one)) => one.pop().unwrap_or_default(),
            Some(Err(errors)) => {
                for mut e in errors {
                    e.instruction = i;
                    self.errors.push(e.to_string());
                }
                return;
            }
            None => {
                let name = self.meta.name;
                self.errors.push(format!("`{name}` is not a record"));
                return;
            }
        };
        if self.validate {
            for (id, text) in faults(self.meta, &bytes, self.arch) {
                if !super::shape::declared(entry, FaultKind::Rule(id)) {
                    self.rule_errors.push(format!("record {i}: {text}"));
                }
            }
        }
        if self.errors.is_empty() && self.rule_errors.is_empty() {
            self.records.push(bytes);
        } else {
            self.records = Vec::new();
        }
    }

    fn finish(self) -> Result<Vec<Vec<u8>>, Error> {
        if !self.errors.is_empty() {
            return Err(Error::Encode {
                errors: self.errors.into_lines(),
                hint: None,
            });
        }
        if !self.rule_errors.is_empty() {
            return Err(Error::Encode {
                errors: self.rule_errors.into_lines(),
                hint: Some("(--no-validate writes them anyway)".into()),
            });
        }
        Ok(self.records)
    }
}

/// The failed checks of the record `bytes` in `arch`: (rule id, the line `validate` prints
/// after the offset).
pub fn faults(meta: &RecordMeta, bytes: &[u8], arch: Arch) -> Vec<(&'static str, String)> {
    let Some(Ok(r)) = Record::decode(meta.name, bytes) else {
        return Vec::new();
    };
    let v = r.check(arch);
    super::report::failed(&v)
        .map(|rule| {
            let text = super::report::violation_text(&v, rule);
            (rule.id, format!("{} {text}", meta.name))
        })
        .collect()
}
