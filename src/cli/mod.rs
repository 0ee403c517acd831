//! The `dmaspec` command line.

pub mod decode;
pub mod encode;
pub mod explain;
pub mod generate;
pub mod input;
pub mod klr;
pub mod lower;
pub mod progress;
pub mod table;
pub mod validate;

use std::fmt;

pub use dmaspec::json::hex_string;
use dmaspec_codegen::{OutputError, SpecErrors};

/// Why a command failed: bad input (exit 1) or, for `Usage`, a bad command line (exit 2).
#[derive(Debug)]
pub enum CliError {
    Input(input::InputError),
    Io(std::io::Error),
    Spec(SpecErrors),
    /// `gen --check`: the listed files would change.
    Stale(String),
    /// `gen`: the output directory is unsafe to write (overlaps the spec, holds a file in
    /// the way).
    Output(OutputError),
    /// `validate`: some words break rules (the summary; the lines went to stdout).
    Invalid(String),
    /// The command line names something that does not exist (exit 2).
    Usage(String),
    /// `encode`: every problem in the input, one per line.
    Encode(String),
    /// `klr lower`: every problem in the op list, one per line.
    Klr(String),
    /// `lower`: every word that could not be lowered, one per line.
    Lower(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "{e}"),
            CliError::Spec(e) => write!(f, "{}", e.render()),
            CliError::Output(e) => write!(f, "{e}"),
            CliError::Invalid(summary) => write!(f, "{summary}"),
            CliError::Usage(msg) => write!(f, "{msg}"),
            CliError::Encode(list) => write!(f, "nothing written:\n{list}"),
            CliError::Klr(list) => write!(f, "bad op list:\n{list}"),
            CliError::Lower(report) => write!(f, "{report}"),
            CliError::Stale(list) => write!(
                f,
                "generated files are stale; run `dmaspec gen` and commit them:\n{list}"
            ),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

impl From<OutputError> for CliError {
    fn from(e: OutputError) -> Self {
        CliError::Output(e)
    }
}

impl CliError {
    /// The process exit code: 2 for usage errors, 1 for bad input.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }
}
