//! `dmaspec validate`: one line per violated rule of every word in a stream, and the
//! violation reports `dmaspec decode` adds to its tables and JSON.

use std::io::{self, Write};
use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::runtime::rules::{RuleMeta, Violations};
use dmaspec::stream::{Decoded, Decoder};
use serde_json::{Value as Json, json};

use super::CliError;
use super::input::{self, InputError, WordReader};

pub struct ValidateArgs {
    pub arch: Arch,
    pub hex: bool,
    pub input: Option<PathBuf>,
}

/// The composites a rule is a part of, outermost first (`a > b`), if any.
fn context(v: &Violations, r: &RuleMeta) -> Option<String> {
    let mut chain = Vec::new();
    let mut at = r.parent;
    while let Some(p) = at {
        chain.push(v.rules[p].id);
        at = v.rules[p].parent;
    }
    chain.reverse();
    (!chain.is_empty()).then(|| chain.join(" > "))
}

/// The failed checks of `v` (composites are explained by their failed parts).
fn failed(v: &Violations) -> impl Iterator<Item = &'static RuleMeta> + '_ {
    v.leaves()
}

/// `decode --json`: `[{"rule", "message", "fields", "source", ...}]`, empty when valid.
pub fn violations_json(v: &Violations) -> Json {
    Json::Array(
        failed(v)
            .map(|r| {
                let mut o = json!({
                    "rule": r.id,
                    "message": r.message,
                    "fields": r.fields,
                    "source": r.source,
                    "predicate": r.name,
                    "confidence": r.confidence.tag,
                });
                if let (Some(c), Json::Object(m)) = (context(v, r), &mut o) {
                    m.insert("in".into(), json!(c));
                }
                o
            })
            .collect(),
    )
}

/// One line per failed check: `id: message (in …; fields: …; source: …)`.
pub fn violation_text(v: &Violations, r: &RuleMeta) -> String {
    let mut notes = Vec::new();
    if let Some(c) = context(v, r) {
        notes.push(format!("in {c}"));
    }
    if !r.fields.is_empty() {
        notes.push(format!("fields: {}", r.fields.join(", ")));
    }
    if !r.source.is_empty() {
        notes.push(format!("source: {}", r.source));
    }
    format!("{}: {} ({})", r.id, r.message, notes.join("; "))
}

/// The lines `decode` prints under a word's table.
pub fn table_lines(v: &Violations, arch: Arch) -> String {
    if v.rules.is_empty() {
        return String::new();
    }
    if v.is_empty() {
        let n = v.rules.iter().filter(|r| r.parent.is_none()).count();
        return format!(
            "  valid for {} ({n} top-level rule{} {})\n",
            arch.name(),
            if n == 1 { "" } else { "s" },
            if n == 1 { "holds" } else { "hold" }
        );
    }
    let mut out = String::new();
    for r in failed(v) {
        out.push_str("  VIOLATION ");
        out.push_str(&violation_text(v, r));
        out.push('\n');
    }
    out
}

pub fn run(args: &ValidateArgs) -> Result<(), CliError> {
    let reader =
        input::open(args.input.as_deref()).map_err(|e| CliError::Input(InputError::Io(e)))?;
    let mut words = WordReader::new(reader, args.hex);
    let mut decoder = Decoder::new(args.arch);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut total, mut invalid) = (0usize, 0usize);
    let mut result = Ok(());
    loop {
        let offset = words.offset();
        let bytes = match words.next_word() {
            Ok(Some(b)) => b,
            Ok(None) => break,
            Err(e) => {
                result = Err(CliError::Input(e));
                break;
            }
        };
        total += 1;
        let mut bad = false;
        match decoder.push(&bytes) {
            Decoded::Word { word, .. } => {
                let v = word.check(args.arch);
                for r in failed(&v) {
                    bad = true;
                    writeln!(out, "offset {offset} {} {}", v.owner, violation_text(&v, r))?;
                }
            }
            Decoded::UnknownOpcode => {
                bad = true;
                writeln!(
                    out,
                    "offset {offset} opcode {:#04x}: no word has this opcode in {}",
                    bytes[0],
                    args.arch.name()
                )?;
            }
            Decoded::Orphan { name, follows } => {
                bad = true;
                writeln!(
                    out,
                    "offset {offset} {name}: must immediately follow {follows}, and does not"
                )?;
            }
        }
        if bad {
            invalid += 1;
        }
    }
    out.flush()?;
    result?;
    if invalid > 0 {
        return Err(CliError::Invalid(format!(
            "{invalid} of {total} word{} invalid for {}",
            if total == 1 { " is" } else { "s are" },
            args.arch.name()
        )));
    }
    Ok(())
}
