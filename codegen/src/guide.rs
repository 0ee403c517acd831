//! The book's hand-written pages: `docs/start-here.md` and the chapters `docs/guide/*.md`
//! beside the spec directory (the project's `docs/` for `--spec spec`), copied into
//! `generated/docs/start-here.md` and `generated/docs/guide/` so that the mdBook in
//! `generated/docs/` holds them beside the generated reference. "Start here" sits at the
//! book's root because mdBook also writes the first chapter as the site's `index.html`,
//! links unchanged: from the root they must already be right.
//!
//! The copies are gen's own outputs, as the viewer's files are (`emit/viewer.rs`): each
//! opens with the stamp, the manifest lists it, `gen --check` names a copy that differs
//! from its source, and a copy whose source is gone is removed. The chapters' order in the
//! book is the order the Start here page first links them (`guide/NAME.md`); a chapter it
//! does not link comes after, by name.

use std::io;
use std::path::{Path, PathBuf};

use crate::output::{OutputError, STAMP};

/// The chapters' folder, under `docs/` in the project and in the output directory.
pub const GUIDE: &str = "guide";

/// The "Start here" page, first in the book, under `docs/` in both.
pub const START: &str = "start-here.md";

/// The hand-written docs of the project whose spec is `spec`: `docs/` beside it.
pub fn dir_for(spec: &Path) -> PathBuf {
    spec.parent().unwrap_or(Path::new("")).join("docs")
}

/// The copy of `name` (a path under the docs directory) with its stamp.
pub fn copy(name: &str, text: &str) -> String {
    format!(
        "<!-- {STAMP} from docs/{name}. Do not edit: edit docs/{name} and regenerate. -->\n{}",
        text.strip_prefix('\u{feff}').unwrap_or(text)
    )
}

/// `(path under generated/, contents)` of every page's copy, in the book's order: the
/// Start here page, then the chapters it links, then any other, by name. Missing files and
/// folders are no pages.
pub fn read(dir: &Path) -> Result<Vec<(String, String)>, OutputError> {
    fn io(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
        move |error| OutputError::Io {
            path: path.to_path_buf(),
            action: "read",
            error,
        }
    }
    let start = match std::fs::read_to_string(dir.join(START)) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(&dir.join(START))(e)),
    };
    let guide = dir.join(GUIDE);
    let mut chapters: Vec<(String, String)> = Vec::new();
    match std::fs::read_dir(&guide) {
        Ok(entries) => {
            for entry in entries {
                let entry = entry.map_err(io(&guide))?;
                let path = entry.path();
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                if !name.ends_with(".md") || !entry.file_type().map_err(io(&path))?.is_file() {
                    continue;
                }
                let text = std::fs::read_to_string(&path).map_err(io(&path))?;
                chapters.push((format!("{GUIDE}/{name}"), text));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(&guide)(e)),
    }
    chapters.sort();
    let links = start.as_deref().unwrap_or_default();
    chapters.sort_by_key(|(name, _)| links.find(&format!("]({name}")).unwrap_or(usize::MAX));
    Ok(start
        .map(|text| (START.to_string(), text))
        .into_iter()
        .chain(chapters)
        .map(|(name, text)| (format!("docs/{name}"), copy(&name, &text)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_sit_beside_the_spec() {
        assert_eq!(dir_for(Path::new("spec")), Path::new("docs"));
        assert_eq!(dir_for(Path::new("/a/spec")), Path::new("/a/docs"));
    }

    #[test]
    fn chapters_come_in_the_order_start_here_links_them() {
        let dir = std::env::temp_dir().join(format!("dmaspec-guide-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(GUIDE)).unwrap();
        for (name, text) in [
            (
                START,
                "# Start\n\n[B](guide/b.md), then [A](guide/a.md#x)\n",
            ),
            ("guide/a.md", "# A\n"),
            ("guide/b.md", "# B\n"),
            ("guide/c.md", "# C\n"),
            ("guide/notes.txt", "not a chapter"),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let pages = read(&dir).unwrap();
        let names: Vec<&str> = pages.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            names,
            [
                "docs/start-here.md",
                "docs/guide/b.md",
                "docs/guide/a.md",
                "docs/guide/c.md"
            ]
        );
        assert!(
            pages[1]
                .1
                .starts_with(&format!("<!-- {STAMP} from docs/guide/b.md."))
        );
        assert!(pages[1].1.ends_with("\n# B\n"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(read(&dir).unwrap().is_empty());
    }
}
