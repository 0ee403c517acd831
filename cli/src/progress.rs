//! A progress bar on stderr for commands that stream a file: shown only when the input is
//! a regular file (so its size is known), stderr is a terminal, stdout is not (the output
//! goes to a file or a pipe, so the bar does not fight it for the screen), and `--quiet`
//! is not given. The bar counts bytes as they are read, so it works for raw and hex input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use dmaspec::verbs::Error;
use dmaspec::verbs::input;

use super::CliError;

/// The bar, if one is shown. Dropping it clears it.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// Clears the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Whether a bar would be shown for `path`, given the terminals and `--quiet`.
fn wanted(path: Option<&Path>, quiet: bool) -> Option<(&Path, u64)> {
    if quiet || !io::stderr().is_terminal() || io::stdout().is_terminal() {
        return None;
    }
    let path = path.filter(|p| p.as_os_str() != "-")?;
    let meta = std::fs::metadata(path).ok()?;
    meta.is_file().then_some((path, meta.len()))
}

/// Opens the input as [`input::open`] does, with a progress bar counting the bytes read
/// when `wanted`.
pub fn open(path: Option<&Path>, quiet: bool) -> Result<(Box<dyn BufRead>, Progress), CliError> {
    let Some((path, len)) = wanted(path, quiet) else {
        return Ok((input::open(path)?, Progress(None)));
    };
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, eta {eta})",
    ) {
        bar.set_style(style);
    }
    let reader = BufReader::with_capacity(
        1 << 16,
        bar.wrap_read(File::open(path).map_err(|e| Error::read(path, e))?),
    );
    Ok((Box::new(reader), Progress(Some(bar))))
}
