//! Finding and reading the spec files: every `*.toml` below the spec directory, each
//! checked to be UTF-8 (a bad byte is reported where it is), and the files that look meant
//! as spec files but are not read (`*.TOML`).

use std::path::{Path, PathBuf};

use crate::diagnostics::{SourceFile, SpecError, SpecErrors};

/// The files below a spec directory.
pub(crate) struct Discovered {
    /// Every `*.toml`, sorted.
    pub toml: Vec<PathBuf>,
    /// `*.TOML`, `*.Toml`, …: meant as spec files, but not read.
    pub misnamed: Vec<PathBuf>,
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
            if path.is_dir() {
                walk(&path, seen, out)?;
            } else if ext == Some("toml") {
                out.toml.push(path);
            } else if ext.is_some_and(|e| e.eq_ignore_ascii_case("toml")) {
                out.misnamed.push(path);
            }
        }
        Ok(())
    }
    let mut out = Discovered {
        toml: Vec::new(),
        misnamed: Vec::new(),
    };
    walk(dir, &mut std::collections::HashSet::new(), &mut out)?;
    out.toml.sort();
    out.misnamed.sort();
    Ok(out)
}

/// The spec files below a directory, and what was wrong reading them.
pub(crate) struct SpecFiles {
    /// (path, text)
    pub files: Vec<(PathBuf, String)>,
    pub errors: Vec<SpecError>,
}

/// Reads the spec files below `dir`; fails only where the directory or a file cannot be read.
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
    let mut files = Vec::new();
    for path in found.toml {
        let bytes = std::fs::read(&path).map_err(|e| io_error(&path, e))?;
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                // Up to the bad byte the lossy text is the file, so the position is exact.
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes()[at];
                let file = SourceFile {
                    path: path.clone(),
                    text: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                early.push(file.error(
                    at..at + char::REPLACEMENT_CHARACTER.len_utf8(),
                    format!("byte {byte:#04x} is not UTF-8: spec files are UTF-8 text"),
                ));
                file.text
            }
        };
        files.push((path, text));
    }
    Ok(SpecFiles {
        files,
        errors: early,
    })
}

fn io_error(path: &Path, e: std::io::Error) -> SpecErrors {
    SpecErrors(vec![SpecError::whole_file(
        path,
        format!("cannot read: {e}"),
    )])
}
