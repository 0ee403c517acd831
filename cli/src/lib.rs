//! The `dmaspec` command line's verbs as functions: the binary (`main.rs`) and the Python
//! package call them.

// The verbs: one module each, `Args` and `run` (the binary's `main.rs` dispatches).
pub mod audit;
pub mod check;
pub mod decode;
pub mod diff;
pub mod encode;
pub mod explain;
pub mod generate;
pub mod klr;
pub mod lower;
pub mod regs;
pub mod validate;

// What the verbs share (none names a verb): reading input, the JSON shape, the reports
// of faults, the tables, writing output.
pub mod describe;
pub mod input;
pub mod output;
pub mod progress;
pub mod records;
pub mod registers;
pub mod report;
pub mod shape;
pub mod table;

use std::fmt;
use std::path::Path;

pub use dmaspec::json::hex_string;
use dmaspec_codegen::{OutputError, SpecErrors};

/// An `--arch` value: an architecture's name, or an error listing them.
pub fn parse_arch(s: &str) -> Result<dmaspec::Arch, String> {
    dmaspec::Arch::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = dmaspec::Arch::ALL.iter().map(|a| a.name()).collect();
        format!("unknown architecture `{s}` (one of: {})", names.join(", "))
    })
}

/// Why a command failed: bad input (exit 1) or, for `Usage`, a bad command line (exit 2).
/// The table is in the README ("Exit codes").
#[derive(Debug)]
pub enum CliError {
    Input(input::InputError),
    /// A file that cannot be read or written, named (`stdin` / `stdout` for the streams).
    Io {
        path: String,
        write: bool,
        error: std::io::Error,
    },
    /// A file whose contents are not what the command reads (`--vars`, `encode`'s input).
    BadFile(String),
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
    /// `encode`: every problem in the input (one line each), and what to do about them.
    Encode {
        errors: Vec<String>,
        hint: Option<String>,
    },
    /// `klr lower`: every problem in the op list, one per line.
    Klr(String),
    /// `lower`: every word that could not be lowered (one line each); `written` when the
    /// output went out word by word (JSON, `--explain`) before they were found.
    Lower {
        errors: Vec<String>,
        written: bool,
    },
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Io { path, write, error } => {
                let verb = if *write { "write to" } else { "read" };
                write!(f, "cannot {verb} {path}: {error}")
            }
            CliError::BadFile(msg) => write!(f, "{msg}"),
            CliError::Spec(e) => write!(f, "{}", e.render()),
            CliError::Output(e) => write!(f, "{e}"),
            CliError::Invalid(summary) => write!(f, "{summary}"),
            CliError::Usage(msg) => write!(f, "{msg}"),
            CliError::Encode { errors, hint } => {
                write!(f, "nothing written:\n{}", errors.join("\n"))?;
                hint.iter().try_for_each(|h| write!(f, "\n{h}"))
            }
            CliError::Klr(list) => write!(f, "bad op list:\n{list}"),
            CliError::Lower { errors, written } => {
                let n = errors.len();
                let head = if *written { "" } else { "nothing written; " };
                write!(f, "{head}{n} problem(s):\n{}", errors.join("\n"))
            }
            CliError::Stale(list) => write!(
                f,
                "generated files are stale; run `dmaspec gen` and commit them:\n{list}"
            ),
        }
    }
}

impl CliError {
    /// `path` cannot be read.
    pub fn read(path: &Path, error: std::io::Error) -> Self {
        CliError::Io {
            path: input::name(Some(path)),
            write: false,
            error,
        }
    }
}

/// Every command writes its output to stdout, so a bare I/O error (`?` on a write) is one
/// writing there; reads and file writes name their path with [`CliError::read`] /
/// [`CliError::Io`].
impl From<std::io::Error> for CliError {
    fn from(error: std::io::Error) -> Self {
        CliError::Io {
            path: "stdout".into(),
            write: true,
            error,
        }
    }
}

impl From<OutputError> for CliError {
    fn from(e: OutputError) -> Self {
        CliError::Output(e)
    }
}

impl CliError {
    /// A write to stdout failed because its reader went away.
    pub fn is_closed_stdout(&self) -> bool {
        matches!(self, CliError::Io { path, write: true, error }
            if path == "stdout" && error.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// The process exit code: 2 for usage errors, 1 for bad input.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }
}
