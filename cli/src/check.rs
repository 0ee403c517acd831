//! `dmaspec check [SPEC_DIR]`: every load error and lint warning of a spec in one pass
//! ([`dmaspec_codegen::lint`]), as the loader renders its errors or as one JSON document.

use std::io::Write;
use std::path::PathBuf;

use dmaspec_codegen::diagnostics::Severity;
use dmaspec_codegen::{SpecError, SpecErrors};
use serde_json::{Value as Json, json};

use super::CliError;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Load and lint the spec: every load error and lint warning, with file:line:col, the
/// line and what to do; exit 1 on an error (or a warning, with --deny-warnings).
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Spec directory.
    #[arg(default_value = super::error::DEFAULT_SPEC)]
    pub spec: PathBuf,
    /// Exit 1 on warnings too (CI).
    #[arg(long)]
    pub deny_warnings: bool,
    /// `text` (as the loader renders errors) or `json` (one list, for editors and bots).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

pub fn run(args: &CheckArgs) -> Result<(), CliError> {
    super::error::missing_default_spec(&args.spec, "SPEC_DIR")?;
    let found = dmaspec_codegen::lint::check_dir(&args.spec);
    let mut out = super::output::stdout();
    match args.format {
        Format::Json => {
            let list: Vec<Json> = found.0.iter().map(diagnostic).collect();
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&Json::Array(list)).unwrap_or_default()
            )?;
        }
        Format::Text if found.0.is_empty() => {
            writeln!(out, "{}: no problems found", args.spec.display())?
        }
        Format::Text => writeln!(out, "{}", found.render())?,
    }
    out.flush()?;
    let failed = found.count(Severity::Error) > 0
        || (args.deny_warnings && found.count(Severity::Warning) > 0);
    if failed {
        return Err(CliError::Invalid(failure(&found, args.deny_warnings)));
    }
    Ok(())
}

/// Why `check` exits 1.
fn failure(found: &SpecErrors, deny_warnings: bool) -> String {
    let denied = if deny_warnings && found.count(Severity::Error) == 0 {
        " (warnings denied)"
    } else {
        ""
    };
    format!("check failed: {}{denied}", found.summary())
}

/// One problem as the JSON output lists it (README, "Checking the spec").
fn diagnostic(e: &SpecError) -> Json {
    json!({
        "severity": e.severity,
        "lint": e.lint,
        "file": e.file.to_string_lossy().replace('\\', "/"),
        "line": e.line,
        "column": e.column,
        "end": { "line": e.line, "column": e.end_column() },
        "message": e.message,
        "notes": e.notes,
    })
}
