//! `dmaspec encode FILE.toml|FILE.json|- [--hex]`: words from text, written with the same
//! names `decode --json` prints. `decode --json` output is valid input and round-trips.
//!
//! The encoding itself is the library's ([`dmaspec::json::encode_instruction`]); this reads
//! the file one instruction at a time ([`dmaspec::json::for_each_instruction`]; TOML is read
//! whole and converted to the same JSON values), checks the words with `validate`'s
//! [`faults`], and writes. Every error in the file is reported at once; nothing is written
//! when there is one. A fault the instruction records itself (decode's output of an
//! invalid word) is not an error: the round trip of any stream holds.

use std::fmt::{Display, Write as _};
use std::path::Path;

use dmaspec::json::{self, encode_all};
use serde_json::Value as Json;

use super::CliError;
use super::validate::{FaultKind, compiler_findings, faults};

/// Reads an instruction list: `{"instructions": [...]}` (what decode prints), a bare JSON
/// array, or TOML with `[[instructions]]` tables.
pub fn read_instructions(path: &Path) -> Result<Vec<Json>, CliError> {
    read_list(path, json::instructions)
}

/// Reads a list as `take` finds it in the document (JSON, or TOML for a `.toml` path).
pub fn read_list(
    path: &Path,
    take: fn(Json) -> Result<Vec<Json>, json::ListError>,
) -> Result<Vec<Json>, CliError> {
    let text = super::input::read_text(path)?;
    let bad =
        |e: &dyn Display| CliError::BadFile(format!("{}: {e}", super::input::name(Some(path))));
    let doc: Json = if path.extension().is_some_and(|e| e == "toml") {
        toml::from_str(&text).map_err(|e| bad(&e))?
    } else {
        serde_json::from_str(&text).map_err(|e| bad(&e))?
    };
    take(doc).map_err(|e| bad(&e))
}

/// Hex text, one word per line.
pub fn hex_lines(words: &[[u8; 64]]) -> String {
    let mut out = String::new();
    for w in words {
        let _ = writeln!(out, "{}", super::hex_string(w));
    }
    out
}

/// An instruction object says what decode found wrong with its word: a rule in its
/// `violations`, a field in its `constant_mismatches`, or `"struct": null` for a word that
/// did not decode. Such a fault was in the decoded input, so it is not the user's edit.
pub fn declared(ins: &Json, kind: FaultKind) -> bool {
    let listed = |list: &str, key: &str, value: &str| {
        ins.get(list).and_then(Json::as_array).is_some_and(|l| {
            l.iter()
                .any(|x| x.get(key).and_then(Json::as_str) == Some(value))
        })
    };
    match kind {
        FaultKind::Rule(id) => listed("violations", "rule", id),
        FaultKind::Constant(path) => listed("constant_mismatches", "field", path),
        FaultKind::NotDecoded => ins.get("struct").is_some_and(Json::is_null),
    }
}

/// What `validate` would report on the encoded stream: one line per fault the input does
/// not declare (naming the instruction), how many declared faults in how many words, and
/// how many words break a compiler rule (a warning: they are valid).
pub struct Checked {
    pub errors: Vec<String>,
    pub declared: usize,
    pub declared_words: usize,
    pub compiler_words: usize,
}

pub fn check(list: &[Json], words: &[[u8; 64]], arch: dmaspec::Arch) -> Checked {
    let mut checker = Checker::new(arch);
    for (i, (ins, w)) in list.iter().zip(words).enumerate() {
        checker.push(i, ins, w);
    }
    checker.checked
}

/// [`check`] one word at a time, in the order of the stream (the decoder pairs words).
pub struct Checker {
    decoder: dmaspec::stream::Decoder,
    arch: dmaspec::Arch,
    pub checked: Checked,
}

impl Checker {
    pub fn new(arch: dmaspec::Arch) -> Self {
        Checker {
            decoder: dmaspec::stream::Decoder::new(arch),
            arch,
            checked: Checked {
                errors: Vec::new(),
                declared: 0,
                declared_words: 0,
                compiler_words: 0,
            },
        }
    }

    /// Checks the word `w` encoded from the `i`th instruction, `ins`.
    pub fn push(&mut self, i: usize, ins: &Json, w: &[u8; 64]) {
        let (arch, c) = (self.arch, &mut self.checked);
        let before = c.declared;
        let d = self.decoder.push(w);
        c.compiler_words += usize::from(!compiler_findings(&d, arch).is_empty());
        for f in faults(&d, w, arch) {
            if declared(ins, f.kind) {
                c.declared += 1;
            } else {
                c.errors.push(format!("instruction {i}: {}", f.text));
            }
        }
        c.declared_words += usize::from(c.declared > before);
    }
}

/// The words of `list`, all errors in one pass. Unless `validate` is off, the words must
/// pass `validate` in `arch`, but for the faults the input itself declares (decode's output
/// of an invalid word): those, and words breaking a compiler rule, are the warnings
/// returned with the words (`encode` prints them after `dmaspec: warning: `).
pub fn encode_list(
    list: &[Json],
    arch: dmaspec::Arch,
    validate: bool,
) -> Result<(Vec<[u8; 64]>, Vec<String>), CliError> {
    let words = encode_all(list).map_err(|errors| CliError::Encode {
        errors: errors.iter().map(ToString::to_string).collect(),
        hint: None,
    })?;
    if !validate {
        return Ok((words, Vec::new()));
    }
    let warnings = verdict(check(list, &words, arch), arch)?;
    Ok((words, warnings))
}

/// The errors `check` found, or the warnings for the words it passed.
fn verdict(c: Checked, arch: dmaspec::Arch) -> Result<Vec<String>, CliError> {
    if !c.errors.is_empty() {
        return Err(CliError::Encode {
            errors: c.errors,
            hint: Some(format!(
                "(`dmaspec validate --arch {}` would reject these words; \
                 --no-validate writes them anyway)",
                arch.name()
            )),
        });
    }
    let mut warnings = Vec::new();
    if c.compiler_words > 0 {
        warnings.push(format!(
            "{} word(s) written that break a compiler rule (words neuronx-cc does not write, \
             valid all the same); `dmaspec validate --arch {}` lists them",
            c.compiler_words,
            arch.name()
        ));
    }
    if c.declared > 0 {
        warnings.push(format!(
            "{} word(s) written with {} fault(s) their input already records \
             (`violations`, `constant_mismatches`, `\"struct\": null`); \
             `dmaspec validate --arch {}` lists them",
            c.declared_words,
            c.declared,
            arch.name()
        ));
    }
    Ok(warnings)
}

/// [`encode_list`] of the instructions in `input`, read one at a time: memory is the
/// encoded words (64 bytes each, held so that nothing is written when there is an
/// error), not the document. A TOML file is read whole.
pub fn encode_input(
    input: &Path,
    arch: dmaspec::Arch,
    validate: bool,
) -> Result<(Vec<[u8; 64]>, Vec<String>), CliError> {
    if input.extension().is_some_and(|e| e == "toml") {
        return encode_list(&read_instructions(input)?, arch, validate);
    }
    let mut words = Vec::new();
    let mut errors = Vec::new();
    let mut checker = validate.then(|| Checker::new(arch));
    let read = json::for_each_instruction(super::input::open(Some(input))?, |i, ins| {
        match json::encode_instruction(i, &ins) {
            // Once there is an error no word is written: only the errors are kept.
            Ok(w) if errors.is_empty() => {
                if let Some(c) = &mut checker {
                    c.push(i, &ins, &w);
                }
                if checker.as_ref().is_none_or(|c| c.checked.errors.is_empty()) {
                    words.push(w);
                }
            }
            Ok(_) => {}
            Err(e) => {
                errors.extend(e.iter().map(ToString::to_string));
                words = Vec::new();
            }
        }
    });
    match read {
        Ok(_) => {}
        Err(json::ListError::Io(e)) => return Err(CliError::read(input, e)),
        Err(e) => {
            let name = super::input::name(Some(input));
            return Err(CliError::BadFile(format!("{name}: {e}")));
        }
    }
    if !errors.is_empty() {
        return Err(CliError::Encode { errors, hint: None });
    }
    let warnings = match checker {
        Some(c) => verdict(c.checked, arch)?,
        None => Vec::new(),
    };
    Ok((words, warnings))
}

/// The `encode` command: nothing is written when the input has an error.
pub fn run(input: &Path, hex: bool, arch: dmaspec::Arch, validate: bool) -> Result<(), CliError> {
    use std::io::Write as _;
    let (words, warnings) = encode_input(input, arch, validate)?;
    let mut out = super::output::stdout();
    if hex {
        out.write_all(hex_lines(&words).as_bytes())?;
    } else {
        for w in &words {
            out.write_all(w)?;
        }
    }
    out.flush()?;
    for w in warnings {
        crate::message!("dmaspec: warning: {w}");
    }
    Ok(())
}
