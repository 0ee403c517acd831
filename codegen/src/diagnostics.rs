//! Spec errors with file, line and column, rendered with the offending source line.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Config};

/// One problem in one spec file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
    /// Byte range in the file.
    pub span: Range<usize>,
    /// The text of line `line` (without its line break), so that [`SpecErrors::render`]
    /// can show it for specs loaded from strings and for files changed since.
    pub source_line: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

/// Every problem the loader found, in file order. The loader reports them all at once so
/// that one run fixes a whole edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

impl SpecErrors {
    /// The errors with the source lines they point at, as a compiler prints them.
    pub fn render(&self) -> String {
        let mut files = SimpleFiles::new();
        let mut out = term::termcolor::NoColor::new(Vec::new());
        let config = Config::default();
        for e in &self.0 {
            let (text, span) = e.excerpt();
            let id = files.add(e.file.display().to_string(), text);
            let diag = Diagnostic::error()
                .with_message(&e.message)
                .with_labels(vec![Label::primary(id, span)]);
            // Rendering into a Vec cannot fail; fall back to the plain line if it does.
            if term::emit_to_write_style(&mut out, &config, &files, &diag).is_err() {
                return self.to_string();
            }
        }
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }
}

impl SpecError {
    /// A stand-in for the file that has the offending line at its place (earlier lines
    /// blank), and the error's span within it, cut at the end of that line.
    fn excerpt(&self) -> (String, Range<usize>) {
        let line = self.line.max(1);
        let mut text = "\n".repeat(line - 1);
        let col = self
            .source_line
            .char_indices()
            .nth(self.column.max(1) - 1)
            .map_or(self.source_line.len(), |(i, _)| i);
        let start = text.len() + col;
        let len = self.span.len().min(self.source_line.len() - col);
        text.push_str(&self.source_line);
        text.push('\n');
        (text, start..start + len)
    }
}

/// A spec file's text, for turning byte spans into lines and columns.
pub(crate) struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

impl SourceFile {
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> SpecError {
        let (line, column) = line_col(&self.text, span.start);
        let source_line = self
            .text
            .lines()
            .nth(line - 1)
            .unwrap_or_default()
            .to_string();
        SpecError {
            file: self.path.clone(),
            line,
            column,
            message: message.into(),
            span,
            source_line,
        }
    }

    pub fn line_of(&self, offset: usize) -> usize {
        line_col(&self.text, offset).0
    }

    pub fn relative(&self, root: &Path) -> String {
        self.path
            .strip_prefix(root)
            .unwrap_or(&self.path)
            .to_string_lossy()
            .replace('\\', "/")
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
