//! The one output layer of every verb: what goes to stdout is written and flushed here (a
//! failed write is a [`CliError`] naming stdout: exit 1, or exit 0 when the reader went
//! away — see `main`), and messages go to stderr here, where a failed write is ignored
//! (there is nowhere left to report it). Nothing in the CLI uses `print!`/`println!` or
//! `eprint!`/`eprintln!`, which panic (exit 101) on a full disk or a closed pipe.

use std::fmt;
use std::io::{self, Write};

use super::CliError;

/// stdout, buffered; the caller writes with `?` (an [`io::Error`] becomes a [`CliError`]
/// naming stdout) and ends with `flush()?`.
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Writes `text` to stdout and flushes it.
pub fn print(text: &str) -> Result<(), CliError> {
    bytes(text.as_bytes())
}

/// Writes `data` to stdout and flushes it.
pub fn bytes(data: &[u8]) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(data)?;
    out.flush()?;
    Ok(())
}

/// One message line on stderr (`args` without the newline); a failed write is ignored.
pub fn message(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args);
    let _ = err.write_all(b"\n");
    let _ = err.flush();
}

/// `eprintln!` through [`message()`]: a closed or full stderr does not panic.
#[macro_export]
#[doc(hidden)]
macro_rules! message {
    ($($arg:tt)*) => {
        $crate::output::message(format_args!($($arg)*))
    };
}
