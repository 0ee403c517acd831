//! Why a command failed ([`CliError`]), and what went wrong reading an input
//! ([`InputError`]), which the verbs and the Python package report alike.

use std::fmt;
use std::io;
use std::path::Path;

#[cfg(feature = "generator")]
use dmaspec_codegen::{OutputError, SpecErrors};

/// Why a command failed: bad input (exit 1) or, for `Usage`, a bad command line (exit 2).
/// The table is in the README ("Exit codes").
#[derive(Debug)]
pub enum CliError {
    Input(InputError),
    /// A file that cannot be read or written, named (`stdin` / `stdout` for the streams).
    Io {
        path: String,
        write: bool,
        error: std::io::Error,
    },
    /// A file whose contents are not what the command reads (`--vars`, `encode`'s input).
    BadFile(String),
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
            #[cfg(feature = "generator")]
            CliError::Spec(e) => write!(f, "{}", e.render()),
            #[cfg(feature = "generator")]
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
            path: name(Some(path)),
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

#[cfg(feature = "generator")]
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

/// What went wrong reading one input, which it names (a path, or `stdin`).
#[derive(Debug)]
pub struct InputError {
    pub input: String,
    pub problem: Problem,
}

#[derive(Debug)]
pub enum Problem {
    Io(io::Error),
    /// The input ended inside a word (or a record of `size` bytes).
    Partial {
        offset: usize,
        len: usize,
        size: usize,
        /// `word`, or the record's name.
        what: &'static str,
    },
    /// A byte in hex input that is not a hex digit, whitespace or in a `#` comment.
    BadHex {
        line: usize,
        column: usize,
        found: u8,
    },
    /// A run of hex digits of odd length, starting at `line`:`column`.
    OddHex {
        line: usize,
        column: usize,
        digits: usize,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = &self.input;
        match &self.problem {
            Problem::Io(e) => write!(f, "cannot read {input}: {e}"),
            Problem::Partial {
                offset,
                len,
                size,
                what,
            } => write!(
                f,
                "{input}: incomplete {what} at byte offset {offset} ({offset:#x}): {len} of {size} bytes"
            ),
            Problem::BadHex {
                line,
                column,
                found,
            } => {
                let found = match char::from(*found) {
                    c if c.is_ascii_graphic() => format!("{c:?}"),
                    _ => format!("byte {found:#04x}"),
                };
                write!(
                    f,
                    "{input}: hex input line {line}, column {column}: {found} is not a hex digit"
                )
            }
            Problem::OddHex {
                line,
                column,
                digits,
            } => write!(
                f,
                "{input}: hex input line {line}, column {column}: a run of {digits} hex digit{}; \
                 each byte is two digits, so one is missing or extra",
                if *digits == 1 { "" } else { "s" }
            ),
        }
    }
}

/// How many characters of a path a message repeats (more than of a name: a path is
/// often long, and its end says which file).
const PATH_WIDTH: usize = 200;

/// How an input is named in messages: its path (cut when it is longer than any real one),
/// or `stdin` for `-` or none.
pub fn name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            dmaspec::names::echo_within(&p.display().to_string(), PATH_WIDTH).into_owned()
        }
        _ => "stdin".to_string(),
    }
}

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
    Err(CliError::BadFile(format!(
        "no spec directory `{DEFAULT_SPEC}` here: `{DEFAULT_SPEC}` is the default of {flag}, \
         read from the current directory; run dmaspec from the repository's root or give {flag} DIR"
    )))
}
