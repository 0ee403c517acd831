//! Why a verb failed ([`Error`]), and what went wrong reading an input ([`InputError`]),
//! which the CLI and the Python package report alike.

use std::fmt;
use std::io;
use std::path::Path;

/// Why a verb failed: bad input or, for `Usage`, a name or option that does not exist (the
/// CLI's exit 2; the README's "Exit codes").
#[derive(Debug)]
pub enum Error {
    Input(InputError),
    /// A file that cannot be read or written, named (`stdin` / `stdout` for the streams).
    Io {
        path: String,
        write: bool,
        error: std::io::Error,
    },
    /// A file whose contents are not what the command reads (`--vars`, `encode`'s input).
    BadFile(String),
    /// The command line names something that does not exist.
    Usage(String),
    /// `encode`: every problem in the input (one line each), and what to do about them.
    Encode {
        errors: Vec<String>,
        hint: Option<String>,
    },
    /// `lower`: the words that could not be lowered (one line each); `written` when the
    /// words before the first of them (or, for JSON and `--explain`, every word) went out.
    Lower {
        errors: Listed,
        written: bool,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e) => write!(f, "{e}"),
            Error::Io { path, write, error } => {
                let verb = if *write { "write to" } else { "read" };
                write!(f, "cannot {verb} {path}: {error}")
            }
            Error::BadFile(msg) => write!(f, "{msg}"),
            Error::Usage(msg) => write!(f, "{msg}"),
            Error::Encode { errors, hint } => {
                write!(f, "nothing written:\n{}", errors.join("\n"))?;
                hint.iter().try_for_each(|h| write!(f, "\n{h}"))
            }
            Error::Lower { errors, written } => {
                let n = errors.count();
                let head = if *written { "" } else { "nothing written; " };
                write!(f, "{head}{n} problem(s):\n{errors}")
            }
        }
    }
}

impl Error {
    /// `path` cannot be read.
    pub fn read(path: &Path, error: std::io::Error) -> Self {
        Error::Io {
            path: name(Some(path)),
            write: false,
            error,
        }
    }
}

/// Every verb writes its output to stdout, so a bare I/O error (`?` on a write) is one
/// writing there; reads and file writes name their path with [`Error::read`] /
/// [`Error::Io`].
impl From<std::io::Error> for Error {
    fn from(error: std::io::Error) -> Self {
        Error::Io {
            path: "stdout".into(),
            write: true,
            error,
        }
    }
}

impl Error {
    /// A write to stdout failed because its reader went away.
    pub fn is_closed_stdout(&self) -> bool {
        matches!(self, Error::Io { path, write: true, error }
            if path == "stdout" && error.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl std::error::Error for Error {}

/// How many problems a message lists before it counts the rest: as many as `check` shows.
pub const MAX_SHOWN: usize = 100;

/// The lines of a message about many problems: the first [`MAX_SHOWN`] (as `check` shows
/// spec errors) and how many more, so that the message stays short however many problems
/// the input has.
#[derive(Debug, Default)]
pub struct Listed {
    pub lines: Vec<String>,
    pub more: usize,
}

impl Listed {
    pub fn push(&mut self, line: String) {
        if self.lines.len() < MAX_SHOWN {
            self.lines.push(line);
        } else {
            self.more += 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// How many problems, shown or not.
    pub fn count(&self) -> usize {
        self.lines.len() + self.more
    }

    /// The line counting the problems not shown, if any.
    fn rest(&self) -> Option<String> {
        (self.more > 0).then(|| format!("… and {} more", self.more))
    }

    /// The lines shown, then the one counting the rest.
    pub fn into_lines(mut self) -> Vec<String> {
        self.lines.extend(self.rest());
        self.lines
    }
}

impl fmt::Display for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lines.join("\n"))?;
        self.rest().iter().try_for_each(|r| write!(f, "\n{r}"))
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
            crate::names::echo_within(&p.display().to_string(), PATH_WIDTH).into_owned()
        }
        _ => "stdin".to_string(),
    }
}
