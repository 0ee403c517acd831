//! Finding and reading the spec files: every `*.toml` below the spec directory, each
//! checked to be a regular file of at most [`MAX_SPEC_FILE_BYTES`] holding UTF-8 (a bad
//! byte is reported where it is), and the files that look meant as spec files but are not
//! read (`*.TOML`).
//!
//! An entry that is not a regular file (a FIFO, a device, a link to one, a directory named
//! `*.toml`) is refused from its metadata, before it is opened: opening a FIFO waits for a
//! writer, and a device may never end. The open file is checked again (it may have been
//! replaced since) and read at most one byte past the limit.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::diagnostics::{SourceFile, SpecError, SpecErrors};

/// The largest spec file read: 16 MiB (the whole checked-in spec is well under 1 MiB).
pub const MAX_SPEC_FILE_BYTES: u64 = 16 << 20;

/// The files below a spec directory.
pub(crate) struct Discovered {
    /// Every `*.toml` that is a regular file (or a link to one), sorted.
    pub toml: Vec<PathBuf>,
    /// `*.TOML`, `*.Toml`, …: meant as spec files, but not read.
    pub misnamed: Vec<PathBuf>,
    /// `*.toml` entries that are not regular files, with what they are, sorted.
    pub refused: Vec<(PathBuf, String)>,
}

/// What a file type is, for an error about something that is not a regular file.
fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        } else if t.is_char_device() {
            return "a character device";
        } else if t.is_block_device() {
            return "a block device";
        } else if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

pub(crate) fn discover(dir: &Path) -> std::io::Result<Discovered> {
    // A linked directory is read once: a link back up the tree would otherwise recurse
    // until the path is too long.
    fn walk(
        dir: &Path,
        seen: &mut std::collections::HashSet<PathBuf>,
        out: &mut Discovered,
    ) -> std::io::Result<()> {
        if !seen.insert(dir.canonicalize()?) {
            return Ok(());
        }
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let ext = path.extension().and_then(|e| e.to_str());
            // Through links: a link to a spec file is read, a link to a directory walked.
            let meta = std::fs::metadata(&path);
            if ext == Some("toml") {
                match meta {
                    Ok(m) if m.is_file() => out.toml.push(path),
                    Ok(m) => {
                        let what = kind(m.file_type()).to_string();
                        out.refused.push((path, what));
                    }
                    Err(e) => out.refused.push((path, format!("unreadable: {e}"))),
                }
            } else if meta.is_ok_and(|m| m.is_dir()) {
                walk(&path, seen, out)?;
            } else if ext.is_some_and(|e| e.eq_ignore_ascii_case("toml")) {
                out.misnamed.push(path);
            }
        }
        Ok(())
    }
    let mut out = Discovered {
        toml: Vec::new(),
        misnamed: Vec::new(),
        refused: Vec::new(),
    };
    walk(dir, &mut std::collections::HashSet::new(), &mut out)?;
    out.toml.sort();
    out.misnamed.sort();
    out.refused.sort();
    Ok(out)
}

/// The spec files below a directory, and what was wrong reading them.
pub(crate) struct SpecFiles {
    /// (path, text)
    pub files: Vec<(PathBuf, String)>,
    pub errors: Vec<SpecError>,
    /// Spec files that were found but not read (each has one of `errors`).
    pub unread: Vec<Unread>,
}

/// A spec file that was found but not read.
pub(crate) struct Unread {
    pub path: PathBuf,
    /// Its text with U+FFFD for each byte that is not UTF-8, when that is why it was not
    /// read: what it declares is then no unknown name elsewhere, only its error.
    pub lossy: Option<String>,
}

impl Unread {
    fn of(path: PathBuf) -> Unread {
        Unread { path, lossy: None }
    }
}

/// Reads the spec files below `dir`; fails only where the directory cannot be read. A
/// file that cannot be read is one error about it, and the others are still read.
pub(crate) fn read(dir: &Path) -> Result<SpecFiles, SpecErrors> {
    let found = discover(dir).map_err(|e| io_error(dir, e))?;
    let mut early: Vec<SpecError> = found
        .misnamed
        .iter()
        .map(|p| {
            SpecError::whole_file(
                p,
                format!(
                    "{} is not read: spec files end in `.toml`, in lower case; rename it",
                    p.display()
                ),
            )
        })
        .collect();
    let mut unread = Vec::new();
    for (path, what) in &found.refused {
        let message = if what.starts_with("unreadable") {
            format!(
                "cannot read {}: {}",
                path.display(),
                &what["unreadable: ".len()..]
            )
        } else {
            format!(
                "{} is not a regular file ({what}): spec files are regular files; move it \
                 out of the spec directory or rename it",
                path.display()
            )
        };
        early.push(SpecError::whole_file(path, message));
        unread.push(Unread::of(path.clone()));
    }
    let mut files = Vec::new();
    for path in found.toml {
        let bytes = match read_capped(&path) {
            Ok(bytes) => bytes,
            Err(message) => {
                early.push(SpecError::whole_file(&path, message));
                unread.push(Unread::of(path));
                continue;
            }
        };
        match String::from_utf8(bytes) {
            Ok(text) => files.push((path, text)),
            Err(e) => {
                // One error, at the first bad byte; the rest of the file is not parsed
                // (binary data would be one parse error after another). Up to the bad
                // byte the lossy text is the file, so the position is exact.
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes()[at];
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let mut bytes = e.into_bytes();
                let line_end = bytes[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| at + n);
                bytes.truncate(line_end);
                let file = SourceFile {
                    path: path.clone(),
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                };
                early.push(file.error(
                    at..at + char::REPLACEMENT_CHARACTER.len_utf8(),
                    format!(
                        "byte {byte:#04x} at byte offset {at} is not UTF-8: spec files are \
                         UTF-8 text; this file is not read"
                    ),
                ));
                unread.push(Unread {
                    path,
                    lossy: Some(lossy),
                });
            }
        }
    }
    Ok(SpecFiles {
        files,
        errors: early,
        unread,
    })
}

/// The bytes of the regular file `path`, or why not: checked again on the open file (it
/// may have been replaced since it was listed), and read at most one byte past
/// [`MAX_SPEC_FILE_BYTES`].
fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let too_big = |len: u64| {
        format!(
            "{} is {len} bytes, over the {} MiB limit of a spec file: split it, or move it \
             out of the spec directory if it is not one",
            path.display(),
            MAX_SPEC_FILE_BYTES >> 20
        )
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!(
            "{} is not a regular file ({}): spec files are regular files",
            path.display(),
            kind(meta.file_type())
        ));
    }
    if meta.len() > MAX_SPEC_FILE_BYTES {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!(
            "{} is not a regular file ({}): spec files are regular files",
            path.display(),
            kind(meta.file_type())
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_SPEC_FILE_BYTES) as usize);
    file.take(MAX_SPEC_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_SPEC_FILE_BYTES {
        return Err(format!(
            "{} is over the {} MiB limit of a spec file: split it, or move it out of the \
             spec directory if it is not one",
            path.display(),
            MAX_SPEC_FILE_BYTES >> 20
        ));
    }
    Ok(bytes)
}

fn io_error(path: &Path, e: std::io::Error) -> SpecErrors {
    SpecErrors(vec![SpecError::whole_file(
        path,
        format!("cannot read: {e}"),
    )])
}
