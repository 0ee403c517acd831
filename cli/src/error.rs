//! Why a command failed ([`CliError`]): a verb's error ([`dmaspec::verbs::Error`], which the
//! Python package reports too) or one only the command line has, and its exit code.

use std::fmt;
#[cfg(feature = "generator")]
use std::path::Path;

use dmaspec::verbs::Error;
use dmaspec::verbs::error::Listed;
#[cfg(feature = "generator")]
use dmaspec_codegen::{OutputError, SpecErrors};

/// Why a command failed: bad input (exit 1) or a bad command line (exit 2: a verb's
/// [`Error::Usage`]). The table is in the README ("Exit codes").
#[derive(Debug)]
pub enum CliError {
    /// What the library's verbs report.
    Verb(Error),
    #[cfg(feature = "generator")]
    Spec(SpecErrors),
    /// `gen --check`: the listed files would change.
    Stale(String),
    /// `gen`: the output directory is unsafe to write (overlaps the spec, holds a file in
    /// the way).
    #[cfg(feature = "generator")]
    Output(OutputError),
    /// `validate`: some words break rules (the summary; the lines went to stdout).
    Invalid(String),
    /// `klr lower`: the problems in the op list, one per line.
    Klr(Listed),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Verb(e) => write!(f, "{e}"),
            #[cfg(feature = "generator")]
            CliError::Spec(e) => write!(f, "{}", e.render()),
            #[cfg(feature = "generator")]
            CliError::Output(e) => write!(f, "{e}"),
            CliError::Invalid(summary) => write!(f, "{summary}"),
            CliError::Klr(list) => write!(f, "bad op list:\n{list}"),
            CliError::Stale(list) => write!(
                f,
                "generated files are stale; run `dmaspec gen` and commit them:\n{list}"
            ),
        }
    }
}

impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        CliError::Verb(e)
    }
}

/// A bare I/O error (`?` on a write) is one writing to stdout, as for the verbs.
impl From<std::io::Error> for CliError {
    fn from(error: std::io::Error) -> Self {
        CliError::Verb(error.into())
    }
}

#[cfg(feature = "generator")]
impl From<OutputError> for CliError {
    fn from(e: OutputError) -> Self {
        CliError::Output(e)
    }
}

impl CliError {
    /// A write to stdout failed because its reader went away.
    pub fn is_closed_stdout(&self) -> bool {
        matches!(self, CliError::Verb(e) if e.is_closed_stdout())
    }

    /// The process exit code: 2 for usage errors, 1 for bad input.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Verb(Error::Usage(_)) => 2,
            _ => 1,
        }
    }
}

// `check` and the verbs list as many problems as each other.
#[cfg(feature = "generator")]
const _: () = assert!(dmaspec::verbs::error::MAX_SHOWN == dmaspec_codegen::diagnostics::MAX_SHOWN);

/// `--spec`'s default (and `check`'s), read from the current directory.
#[cfg(feature = "generator")]
pub const DEFAULT_SPEC: &str = "spec";

/// An error when `dir` is the default spec directory and there is none here: run
/// elsewhere than the repository's root, the default is what is missing, and the loader's
/// own error ("spec: cannot read") would not say so. `flag` is how to give another.
#[cfg(feature = "generator")]
pub fn missing_default_spec(dir: &Path, flag: &str) -> Result<(), CliError> {
    if dir != Path::new(DEFAULT_SPEC) || dir.exists() {
        return Ok(());
    }
    Err(CliError::Verb(Error::BadFile(format!(
        "no spec directory `{DEFAULT_SPEC}` here: `{DEFAULT_SPEC}` is the default of {flag}, \
         read from the current directory; run dmaspec from the repository's root or give {flag} DIR"
    ))))
}
