//! `encode`: words from an instruction list with the names `decode --json` prints.
//!
//! The encoding itself is [`crate::json::encode_instruction`]; this reads the file one
//! instruction at a time ([`crate::json::for_each_instruction`]; TOML is read whole and
//! converted to the same JSON values) and checks the words with `validate`'s [`faults`].
//! Every error in the file is reported at once; no word is returned when there is one. A
//! fault the instruction records itself (decode's output of an invalid word) is not an
//! error: the round trip of any stream holds.

use std::path::Path;

use crate::json::{self, encode_all};
use serde_json::Value as Json;

use super::Error;
use super::error::Listed;
use super::report::{check_word, faults};
use super::shape::declared;
use super::shape::read_instructions;
use crate::Arch;

/// What `validate` would report on the encoded stream: one line per fault the input does
/// not declare (naming the instruction), how many declared faults in how many words, and
/// how many words break a compiler rule (a warning: they are valid).
#[derive(Default)]
pub struct Checked {
    pub errors: Listed,
    pub declared: usize,
    pub declared_words: usize,
    pub compiler_words: usize,
}

pub fn check(list: &[Json], words: &[[u8; 64]], arch: crate::Arch) -> Checked {
    let mut checker = Checker::new(arch);
    for (i, (ins, w)) in list.iter().zip(words).enumerate() {
        checker.push(i, ins, w);
    }
    checker.checked
}

/// [`check`] one word at a time, in the order of the stream (the decoder pairs words).
pub struct Checker {
    decoder: crate::stream::Decoder,
    arch: crate::Arch,
    pub checked: Checked,
}

impl Checker {
    pub fn new(arch: crate::Arch) -> Self {
        Checker {
            decoder: crate::stream::Decoder::new(arch),
            arch,
            checked: Checked::default(),
        }
    }

    /// Checks the word `w` encoded from the `i`th instruction, `ins`.
    pub fn push(&mut self, i: usize, ins: &Json, w: &[u8; 64]) {
        self.push_with(i, w, |_| Some(ins.clone()));
    }

    /// [`push`](Self::push) with the instruction asked for only when the word has faults,
    /// given the word as read here; `None` declares every fault it has (the input is that
    /// word's own reading).
    pub fn push_with(
        &mut self,
        i: usize,
        w: &[u8; 64],
        ins: impl FnOnce(&crate::stream::Decoded) -> Option<Json>,
    ) {
        let (arch, c) = (self.arch, &mut self.checked);
        let d = self.decoder.push(w);
        let v = check_word(&d, arch);
        c.compiler_words += usize::from(
            v.as_ref()
                .is_some_and(|v| v.compiler_findings().next().is_some()),
        );
        let found = faults(&d, v.as_ref(), w, arch);
        if found.is_empty() {
            return;
        }
        let ins = ins(&d);
        let before = c.declared;
        for f in found {
            if ins.as_ref().is_none_or(|o| declared(o, f.kind)) {
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
    arch: crate::Arch,
    validate: bool,
) -> Result<(Vec<[u8; 64]>, Vec<String>), Error> {
    let words = encode_all(list).map_err(|errors| Error::Encode {
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
fn verdict(c: Checked, arch: crate::Arch) -> Result<Vec<String>, Error> {
    if !c.errors.is_empty() {
        return Err(Error::Encode {
            errors: c.errors.into_lines(),
            hint: Some(reject_hint(arch)),
        });
    }
    Ok(warnings(&c, arch))
}

/// What follows the errors of words `validate` would reject.
pub fn reject_hint(arch: Arch) -> String {
    format!(
        "(`dmaspec validate --arch {}` would reject these words; \
         --no-validate writes them anyway)",
        arch.name()
    )
}

/// The warnings of words written that break a compiler rule or have faults their input
/// declares.
pub fn warnings(c: &Checked, arch: Arch) -> Vec<String> {
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
    warnings
}

/// [`encode_list`] of the instructions in `input`, read one at a time: memory is the
/// encoded words (64 bytes each, held so that nothing is written when there is an
/// error), not the document. A TOML file is read whole.
pub fn encode_input(
    input: &Path,
    arch: crate::Arch,
    validate: bool,
) -> Result<(Vec<[u8; 64]>, Vec<String>), Error> {
    if super::document::is_toml(input) {
        return encode_list(&read_instructions(input)?, arch, validate);
    }
    let mut words = Vec::new();
    let mut errors = Listed::default();
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
                for one in e.iter() {
                    errors.push(one.to_string());
                }
                words = Vec::new();
            }
        }
    });
    match read {
        Ok(_) => {}
        Err(json::ListError::Io(e)) => return Err(Error::read(input, e)),
        Err(e) => {
            let name = super::input::name(Some(input));
            return Err(Error::BadFile(format!("{name}: {e}")));
        }
    }
    if !errors.is_empty() {
        let errors = errors.into_lines();
        return Err(Error::Encode { errors, hint: None });
    }
    let warnings = match checker {
        Some(c) => verdict(c.checked, arch)?,
        None => Vec::new(),
    };
    Ok((words, warnings))
}

/// `encode --asm`: the words of every line of `reader` in `decode --asm`'s syntax, or every
/// bad line (`line N, column C: …`) as [`Error::Encode`]; `Err(io)` when the stream cannot
/// be read. Blank and `#` lines are skipped.
pub fn assemble(
    reader: impl std::io::BufRead,
    arch: Arch,
) -> std::io::Result<Result<Vec<[u8; 64]>, Error>> {
    let mut words = Vec::new();
    let mut errors = Listed::default();
    crate::asm::for_each_line(reader, arch, |line, r| match r {
        Ok(w) => words.push(w),
        Err(e) => errors.push(format!("line {line}, {e}")),
    })?;
    if errors.is_empty() {
        return Ok(Ok(words));
    }
    let errors = errors.into_lines();
    Ok(Err(Error::Encode { errors, hint: None }))
}
