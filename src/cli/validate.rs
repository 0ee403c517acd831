//! `dmaspec validate`: one line per fault of every word in a stream ([`faults`], which
//! `encode` checks too), and the violation reports `dmaspec decode` adds to its tables and
//! JSON.

use std::io::{self, Write};
use std::path::PathBuf;

use dmaspec::Arch;
use dmaspec::runtime::meta::constant_mismatches;
use dmaspec::runtime::rules::{RuleMeta, Violations};
use dmaspec::stream::{Decoded, Decoder, WORD_SIZE};
use serde_json::{Value as Json, json};

use super::CliError;
use super::input::{self, WordReader};

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

/// What makes a word of a stream invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// A failed check of a validity rule (its id).
    Rule(&'static str),
    /// A constant field (its path) that does not hold its constant.
    Constant(&'static str),
    /// The word does not decode: an unknown opcode, or an extension that does not follow
    /// its word.
    NotDecoded,
}

/// One reason a word is invalid, as `validate` prints it after the offset.
#[derive(Debug, Clone)]
pub struct Fault {
    pub kind: FaultKind,
    pub text: String,
}

/// Every reason the word `d`, decoded from `bytes` in its stream, is invalid in `arch`:
/// what `validate` reports and what `encode` checks before it writes.
pub fn faults(d: &Decoded, bytes: &[u8; WORD_SIZE], arch: Arch) -> Vec<Fault> {
    match d {
        Decoded::Word { word, .. } => {
            let v = word.check(arch);
            let rules = failed(&v).map(|r| Fault {
                kind: FaultKind::Rule(r.id),
                text: format!("{} {}", v.owner, violation_text(&v, r)),
            });
            let name = word.meta().name;
            let constants =
                constant_mismatches(bytes, word.meta().leaves).map(|(leaf, expected, found)| {
                    Fault {
                        kind: FaultKind::Constant(leaf.path),
                        text: format!(
                            "{name} {}: is {found:#x}, but the spec's constant is {expected:#x}",
                            leaf.path
                        ),
                    }
                });
            rules.chain(constants).collect()
        }
        Decoded::UnknownOpcode => vec![Fault {
            kind: FaultKind::NotDecoded,
            text: format!(
                "opcode {:#04x}: no word has this opcode in {}",
                bytes[0],
                arch.name()
            ),
        }],
        Decoded::Orphan { name, follows } => vec![Fault {
            kind: FaultKind::NotDecoded,
            text: format!("{name}: must immediately follow {follows}, and does not"),
        }],
    }
}

pub fn run(args: &ValidateArgs) -> Result<(), CliError> {
    let reader = input::open(args.input.as_deref())?;
    let mut words = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
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
        let found = faults(&decoder.push(&bytes), &bytes, args.arch);
        for f in &found {
            writeln!(out, "offset {offset} {}", f.text)?;
        }
        if !found.is_empty() {
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
