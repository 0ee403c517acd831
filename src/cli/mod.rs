//! The `dmaspec` command line.

pub mod decode;
pub mod generate;
pub mod input;
pub mod json;
pub mod path;
pub mod table;
pub mod validate;

use std::fmt;

use dmaspec_codegen::SpecErrors;

/// Why a command failed. Every variant is bad input (exit 1); usage errors are clap's.
#[derive(Debug)]
pub enum CliError {
    Input(input::InputError),
    Io(std::io::Error),
    Spec(SpecErrors),
    /// `gen --check`: the listed files would change.
    Stale(String),
    /// `validate`: some words break rules (the summary; the lines went to stdout).
    Invalid(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "{e}"),
            CliError::Spec(e) => write!(f, "{}", e.render()),
            CliError::Invalid(summary) => write!(f, "{summary}"),
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

/// Lowercase hex, no separators.
pub fn hex_string(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}
