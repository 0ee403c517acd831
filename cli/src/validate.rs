//! `dmaspec validate`: one line per fault of every word in a stream
//! ([`faults`](dmaspec::verbs::report::faults), which `encode` checks too) and one warning per
//! compiler finding ([`compiler_findings`](dmaspec::verbs::report::compiler_findings): a broken
//! compiler rule, which never makes a word invalid).

use std::io::Write;
use std::path::PathBuf;

use dmaspec::Arch;

use super::CliError;
use dmaspec::verbs::input::{self, WordReader};
use dmaspec::verbs::records::{each_record, find};
use dmaspec::verbs::report::{Severity, each_finding};
use dmaspec::verbs::table::fit_text;

/// Check every word of a stream against the spec's validity rules: one line per
/// violated rule; exit 1 if any word is invalid. A broken compiler rule (what
/// neuronx-cc guarantees, not what the ISA forbids) is a warning line.
#[derive(clap::Args)]
pub struct ValidateArgs {
    /// Architecture: sunda, cayman, mariana, maverick.
    #[arg(long, default_value = "cayman", value_parser = super::parse_arch)]
    pub arch: Arch,
    /// Input is hex text: runs of an even number of hex digits, whitespace and `#`
    /// comments.
    #[arg(long)]
    pub hex: bool,
    /// One line per failed check, as long as it is; by default a longer one is wrapped
    /// to 120 columns.
    #[arg(long)]
    pub wide: bool,
    /// Read a stream of records of this top-level struct instead of 64-byte words.
    #[arg(long = "struct", value_name = "NAME")]
    pub record: Option<String>,
    /// A word outside the spec's family (a compute or SP/SEQ control op the spec names but
    /// lays out no word for) makes the stream invalid; by default it is reported as not
    /// checked.
    #[arg(long)]
    pub strict: bool,
    /// Input file; `-` or absent for stdin.
    pub input: Option<PathBuf>,
}

pub fn run(args: &ValidateArgs) -> Result<(), CliError> {
    dmaspec::verbs::table::set_wide(args.wide);
    if let Some(name) = &args.record {
        return validate_records(args, name);
    }
    let reader = input::open(args.input.as_deref())?;
    let words = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
    let mut out = super::output::stdout();
    let (mut total, mut invalid, mut flagged, mut open, mut skipped) = (0usize, 0, 0, 0, 0);
    let result = each_finding(words, args.arch, |found| {
        total += 1;
        for line in found {
            writeln!(out, "{}", fit_text(&line.to_string()))?;
        }
        let any = |s: Severity| usize::from(found.iter().any(|x| x.severity == s));
        invalid += any(Severity::Error).max(any(Severity::NotChecked) * usize::from(args.strict));
        open += any(Severity::Undecided);
        flagged += any(Severity::Warning);
        skipped += any(Severity::NotChecked);
        Ok(())
    });
    out.flush()?;
    result?;
    if skipped > 0 && !args.strict {
        crate::message!(
            "dmaspec: warning: {skipped} of {total} word{} not checked: {} outside the spec's \
             family (--strict makes {} invalid)",
            if total == 1 { " is" } else { "s are" },
            if skipped == 1 {
                "its operation is"
            } else {
                "their operations are"
            },
            if skipped == 1 { "it" } else { "them" },
        );
    }
    if open > 0 {
        crate::message!(
            "dmaspec: warning: {open} of {total} word{} undecided: a rule holds only through an \
             alternative the sources name without a body",
            if total == 1 { " is" } else { "s are" },
        );
    }
    if flagged > 0 {
        crate::message!(
            "dmaspec: warning: {flagged} of {total} word{} {} a compiler rule (words neuronx-cc \
             does not write; valid all the same)",
            if total == 1 { "" } else { "s" },
            if flagged == 1 { "breaks" } else { "break" }
        );
    }
    if invalid > 0 {
        return Err(CliError::Invalid(format!(
            "{invalid} of {total} word{} invalid for {}",
            if total == 1 { " is" } else { "s are" },
            args.arch.name()
        )));
    }
    Ok(())
}

/// `dmaspec validate --struct NAME`: every record of the stream against its rules, one line
/// per failed check; exit 1 if any record is invalid.
fn validate_records(args: &ValidateArgs, name: &str) -> Result<(), CliError> {
    let meta = find(name)?;
    let reader = input::open(args.input.as_deref())?;
    let records = WordReader::new(reader, args.hex, input::name(args.input.as_deref()));
    let mut out = super::output::stdout();
    let (mut total, mut invalid) = (0usize, 0usize);
    let result = each_record(records, meta, |_, offset, buf| {
        total += 1;
        let found = dmaspec::verbs::records::faults(meta, buf, args.arch);
        for (_, text) in &found {
            writeln!(out, "{}", fit_text(&format!("offset {offset} {text}")))?;
        }
        invalid += usize::from(!found.is_empty());
        Ok(())
    });
    out.flush()?;
    result?;
    if invalid > 0 {
        return Err(CliError::Invalid(format!(
            "{invalid} of {total} {} record{} invalid for {}",
            meta.name,
            if total == 1 { " is" } else { "s are" },
            args.arch.name()
        )));
    }
    Ok(())
}
