//! Spec errors with file, line and column, rendered with the offending source line.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity as CodespanSeverity};
use codespan_reporting::files::{self, Files, SimpleFiles};
use codespan_reporting::term::{self, Config};

/// How bad a problem is: an error stops the spec from loading; a warning is a lint
/// (`dmaspec check`) the spec loads despite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem in one spec file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub severity: Severity,
    /// The lint that found it (`uncited_section`); `None` for the loader's own errors.
    pub lint: Option<&'static str>,
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
    /// Shown under the error by [`SpecErrors::render`] (what else it caused, how to fix it).
    pub notes: Vec<String>,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file.display(), self.line, self.column)?;
        if let Some(lint) = self.lint {
            write!(f, "warning[{lint}]: ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// How many problems [`SpecErrors::render`] and `Display` show before they only count the
/// rest (the summary still counts them all).
pub const MAX_SHOWN: usize = 100;

/// How many characters of a source line [`SpecErrors::render`] shows: a longer line is cut
/// to this width around the error, with `…` where it was cut.
pub const SNIPPET_WIDTH: usize = 120;

/// Every problem the loader found, in file order. The loader reports them all at once so
/// that one run fixes a whole edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().take(MAX_SHOWN).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        if let Some(more) = self.more() {
            write!(f, "\n{more}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

impl SpecErrors {
    /// `3 errors in 2 files`; with warnings, `1 error and 2 warnings in 2 files`.
    pub fn summary(&self) -> String {
        let mut files: Vec<&Path> = self.0.iter().map(|e| e.file.as_path()).collect();
        files.sort();
        files.dedup();
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let warnings = self.count(Severity::Warning);
        let errors = plural(self.0.len() - warnings, "error");
        let found = match warnings {
            0 => errors,
            _ if warnings == self.0.len() => plural(warnings, "warning"),
            _ => format!("{errors} and {}", plural(warnings, "warning")),
        };
        format!("{found} in {}", plural(files.len(), "file"))
    }

    /// `… and 12 more errors` after the first [`MAX_SHOWN`], if there are more.
    fn more(&self) -> Option<String> {
        let rest = self.0.get(MAX_SHOWN..).filter(|r| !r.is_empty())?;
        let warnings = rest
            .iter()
            .filter(|e| e.severity == Severity::Warning)
            .count();
        let what = match warnings {
            0 => "error",
            _ if warnings == rest.len() => "warning",
            _ => "problem",
        };
        let plural = if rest.len() == 1 { "" } else { "s" };
        Some(format!("… and {} more {what}{plural}", rest.len()))
    }

    /// How many of the problems are of `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.0.iter().filter(|e| e.severity == severity).count()
    }

    /// The errors with the source lines they point at, as a compiler prints them, and
    /// the [`Self::summary`] at the end: the first [`MAX_SHOWN`] and a count of the rest,
    /// each line cut to [`SNIPPET_WIDTH`] characters around the error.
    pub fn render(&self) -> String {
        let mut files = Snippets::default();
        let mut out = term::termcolor::NoColor::new(Vec::new());
        let config = Config::default();
        for e in self.0.iter().take(MAX_SHOWN) {
            let file = e.file.display().to_string();
            let severity = match e.severity {
                Severity::Error => CodespanSeverity::Error,
                Severity::Warning => CodespanSeverity::Warning,
            };
            let diag = if e.source_line.is_empty() && e.span.is_empty() {
                // About the file as a whole: there is no line to show.
                let message = if e.message.contains(&file) {
                    e.message.clone()
                } else {
                    format!("{file}: {}", e.message)
                };
                Diagnostic::new(severity).with_message(message)
            } else {
                let (text, span, shift) = e.snippet();
                let id = files.add(file, text, shift);
                Diagnostic::new(severity)
                    .with_message(&e.message)
                    .with_labels(vec![Label::primary(id, span)])
            }
            .with_notes(e.notes.clone());
            let diag = match e.lint {
                Some(lint) => diag.with_code(lint),
                None => diag,
            };
            // Rendering into a Vec cannot fail; fall back to the plain line if it does.
            if term::emit_to_write_style(&mut out, &config, &files, &diag).is_err() {
                return self.to_string();
            }
        }
        let mut text = String::from_utf8_lossy(&out.into_inner()).into_owned();
        if let Some(more) = self.more() {
            text.push_str(&more);
            text.push_str("\n\n");
        }
        text.push_str(&self.summary());
        text
    }
}

impl SpecError {
    /// An error about `file` as a whole (missing, unreadable, empty).
    pub fn whole_file(file: &Path, message: impl Into<String>) -> SpecError {
        SpecError {
            severity: Severity::Error,
            lint: None,
            file: file.to_path_buf(),
            line: 1,
            column: 1,
            message: message.into(),
            span: 0..0,
            source_line: String::new(),
            notes: Vec::new(),
        }
    }

    /// The 1-based column just past the span, on its line (a span running on past its
    /// line ends there).
    pub fn end_column(&self) -> usize {
        let (_, span) = self.excerpt();
        let start = span.start - (self.line.max(1) - 1);
        self.column
            + self
                .source_line
                .get(start..start + span.len())
                .map_or(0, |s| s.chars().count())
    }

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

/// The snippets [`SpecErrors::render`] shows, each one line of a file (cut, perhaps), with
/// the columns of the file.
#[derive(Default)]
struct Snippets {
    files: SimpleFiles<String, String>,
    /// Per file: what to add to a column in the snippet.
    shifts: Vec<usize>,
}

impl Snippets {
    fn add(&mut self, name: String, text: String, shift: usize) -> usize {
        self.shifts.push(shift);
        self.files.add(name, text)
    }
}

impl<'a> Files<'a> for Snippets {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, files::Error> {
        self.files.name(id)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, files::Error> {
        self.files.source(id)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, files::Error> {
        self.files.line_index(id, byte_index)
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, files::Error> {
        self.files.line_range(id, line_index)
    }

    fn column_number(
        &'a self,
        id: usize,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let column = self.files.column_number(id, line_index, byte_index)?;
        Ok(column + self.shifts.get(id).copied().unwrap_or_default())
    }
}

impl SpecError {
    /// [`Self::excerpt`] with the line cut to [`SNIPPET_WIDTH`] characters around the
    /// span's start (`…` marks each cut), for showing.
    /// Also returns how many characters the line was cut at its start, less the `…`
    /// (what to add to a column in the snippet for the column in the file).
    fn snippet(&self) -> (String, Range<usize>, usize) {
        let (text, span) = self.excerpt();
        let line_start = text.len() - self.source_line.len() - 1;
        let Some(shown) = cut(&self.source_line, self.column.max(1) - 1, SNIPPET_WIDTH) else {
            return (text, span, 0);
        };
        let lead = usize::from(shown.first > 0);
        let mut out = "\n".repeat(self.line.max(1) - 1);
        let base = out.len() + lead * '…'.len_utf8();
        out.push_str(&shown.text);
        out.push('\n');
        // The span, from where it starts in the line, clipped to what is shown.
        let (from, to) = (shown.bytes.start, shown.bytes.end);
        let start = (span.start - line_start).clamp(from, to);
        let end = (span.end - line_start).clamp(start, to);
        (
            out,
            base + start - from..base + end - from,
            shown.first - lead,
        )
    }
}

/// A line cut to show part of it: the text shown, `…` where it was cut.
pub struct Cut {
    pub text: String,
    /// The bytes of the line shown.
    pub bytes: Range<usize>,
    /// The index of the first character shown.
    pub first: usize,
}

/// `line` cut to `width` of its characters around character `col` (from 0; it is shown a
/// third of the way in), or `None` when it fits.
pub fn cut(line: &str, col: usize, width: usize) -> Option<Cut> {
    let chars = line.chars().count();
    if chars <= width {
        return None;
    }
    // Byte offset of every char boundary, by character index.
    let at = |c: usize| line.char_indices().nth(c).map_or(line.len(), |(i, _)| i);
    let first = col.saturating_sub(width / 3).min(chars - width);
    let last = first + width;
    let (from, to) = (at(first), at(last));
    let mut text = String::new();
    if first > 0 {
        text.push('…');
    }
    text.push_str(&line[from..to]);
    if last < chars {
        text.push('…');
    }
    Some(Cut {
        text,
        bytes: from..to,
        first,
    })
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
            severity: Severity::Error,
            lint: None,
            file: self.path.clone(),
            line,
            column,
            message: message.into(),
            span,
            source_line,
            notes: Vec::new(),
        }
    }

    /// A warning of `lint` at `span`, with `notes` saying what to do.
    pub fn warning(
        &self,
        lint: &'static str,
        span: Range<usize>,
        message: impl Into<String>,
        notes: Vec<String>,
    ) -> SpecError {
        SpecError {
            severity: Severity::Warning,
            lint: Some(lint),
            notes,
            ..self.error(span, message)
        }
    }

    /// `file:line:col` of `offset`, as an error's position is shown.
    pub fn location(&self, offset: usize) -> String {
        let (line, column) = line_col(&self.text, offset);
        format!("{}:{line}:{column}", self.path.display())
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

/// The candidate `word` most likely misspells, by the rule `dmaspec::names::nearest` follows
/// too (the generator cannot depend on the library): equal but for case; else one that
/// starts or ends with it and is at most twice as long (a name renamed with a suffix:
/// `HEADER_V2` for `HEADER`), the least added first; else within a third of its length in
/// edits (transpositions count once) and not all of it, the closest first.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .filter_map(|c| Some((closeness(word, c)?, c)))
        .min_by_key(|(k, _)| *k)
        .map(|(_, c)| c)
}

/// How near `c` is to `word` (smaller is nearer), or `None` when too far to suggest: the
/// class of [`did_you_mean`]'s rule, then the characters added or the edits.
fn closeness(word: &str, c: &str) -> Option<(u8, usize)> {
    if c.eq_ignore_ascii_case(word) {
        return Some((0, 0));
    }
    let (w, l) = (word.to_ascii_lowercase(), c.to_ascii_lowercase());
    if w.len() >= 3
        && w.len() * 2 >= l.len()
        && (l.starts_with(w.as_str()) || l.ends_with(w.as_str()))
    {
        return Some((1, l.len() - w.len()));
    }
    let len = word.chars().count();
    let limit = (len.max(3) / 3).min(len.saturating_sub(1));
    let d = strsim::damerau_levenshtein(word, c);
    (d <= limit).then_some((2, d))
}

/// `"; did you mean `x`?"` after an error about `word`, or nothing.
pub(crate) fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, candidates).map_or(String::new(), |c| format!("; did you mean `{c}`?"))
}

/// How many names a "known: …" list shows at most: more are cut to the nearest few.
const LIST_MAX: usize = 8;

/// What follows an error about the unknown `word`: `"; did you mean `x`?"`, else the list of
/// `candidates` (`"(known: a, b)"`, in their order), cut to the [`LIST_MAX`] nearest by
/// edits when longer (`"(nearest of 140: …)"`), so a message stays a line or two.
pub(crate) fn suggest_or_list<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    let all: Vec<&str> = candidates.into_iter().collect();
    if all.is_empty() {
        return " (none is declared)".to_string();
    }
    if let Some(c) = did_you_mean(word, all.iter().copied()) {
        return format!("; did you mean `{c}`?");
    }
    if all.len() <= LIST_MAX {
        return format!(" (known: {})", all.join(", "));
    }
    let mut near = all.clone();
    near.sort_by_key(|c| (strsim::damerau_levenshtein(word, c), *c));
    near.truncate(LIST_MAX);
    format!(" (nearest of {}: {})", all.len(), near.join(", "))
}

/// `a, b, c`: the "known: …" list of an error.
pub(crate) fn join<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

/// The keys of `map`, sorted (the names an error's "known: …" list picks from).
pub(crate) fn sorted_keys<V>(map: &HashMap<String, V>) -> Vec<&str> {
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort();
    keys
}
