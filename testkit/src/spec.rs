//! A bad snippet, `bad.toml`, loaded next to a valid prelude, `prelude.toml`, both in
//! memory under a virtual spec directory; and the checks on the errors it yields.
//! Positions are 1-based, columns in characters.

use std::path::PathBuf;

use dmaspec_codegen::lint::check_files;
use dmaspec_codegen::load::load_files;
use dmaspec_codegen::{Model, SpecError, SpecErrors};

/// Where the in-memory files pretend to live.
pub fn root() -> PathBuf {
    PathBuf::from("virtual-spec")
}

pub fn bad_path() -> PathBuf {
    root().join("bad.toml")
}

/// The head every prelude starts with: the confidence levels, one scale (`s`, tags `HIGH`
/// and `LOW`) and one source (`src`). The fuzz target's tree mode reads the same file.
pub const PROVENANCE: &str = include_str!("../../tests/common/prelude.toml");

/// The valid prelude the bad snippets of one test file build on: a head (normally
/// [`PROVENANCE`]) and the test file's own TOML text.
pub struct Fixture {
    head: &'static str,
    own: &'static str,
}

impl Fixture {
    /// [`PROVENANCE`] and then `own`.
    pub const fn new(own: &'static str) -> Self {
        Fixture {
            head: PROVENANCE,
            own,
        }
    }

    /// A prelude that declares its own provenance (a scale with other tags).
    pub const fn whole(text: &'static str) -> Self {
        Fixture {
            head: "",
            own: text,
        }
    }

    /// The prelude's whole text.
    pub fn text(&self) -> String {
        format!("{}{}", self.head, self.own)
    }

    /// The prelude as a spec file.
    pub fn file(&self) -> (PathBuf, String) {
        (root().join("prelude.toml"), self.text())
    }

    /// Loads the prelude alone.
    pub fn prelude(&self) -> Result<Model, SpecErrors> {
        load_files(&root(), vec![self.file()])
    }

    /// Loads the prelude and `bad` (as `bad.toml`).
    pub fn load(&self, bad: &str) -> Result<Model, SpecErrors> {
        load_files(&root(), vec![self.file(), (bad_path(), bad.to_string())])
    }

    /// What `dmaspec check` reports on the prelude and `bad`: errors and lint warnings.
    pub fn check(&self, bad: &str) -> SpecErrors {
        check_files(&root(), vec![self.file(), (bad_path(), bad.to_string())])
    }

    /// The errors of `bad`, which must not load.
    #[track_caller]
    pub fn errors(&self, bad: &str) -> Vec<SpecError> {
        match self.load(bad) {
            Ok(_) => panic!("the spec loaded, but it should have been rejected:\n{bad}"),
            Err(e) => e.0,
        }
    }

    /// `bad` yields exactly one error, at `line`:`column` where `token` starts, whose
    /// message contains `message`.
    #[track_caller]
    pub fn only_at(&self, bad: &str, line: usize, column: usize, token: &str, message: &str) {
        let errs = self.errors(bad);
        assert_eq!(
            errs.len(),
            1,
            "expected one error, got:\n{}",
            SpecErrors(errs.clone())
        );
        check(&errs[0], bad, line, column, token, message);
    }

    /// `bad` yields exactly one error, at the first `token` after the first `after`,
    /// whose message contains `message`.
    #[track_caller]
    pub fn only(&self, bad: &str, after: &str, token: &str, message: &str) {
        let (line, column) = position(bad, after, token);
        self.only_at(bad, line, column, token, message);
    }

    /// [`Fixture::only`] for a second declaration: the error's one note points at the
    /// first `token` after `first_after`, where the name was first declared.
    #[track_caller]
    pub fn duplicate(&self, bad: &str, after: &str, token: &str, message: &str, first_after: &str) {
        self.only(bad, after, token, message);
        let (line, column) = position(bad, first_after, token);
        let e = &self.errors(bad)[0];
        let first = format!("first declared at {}:{line}:{column}", bad_path().display());
        assert_eq!(e.notes, [first], "{e}");
    }

    /// One of the errors of `bad` is at the first `token` after the first `after` and
    /// its message contains `message`.
    #[track_caller]
    pub fn among(&self, bad: &str, after: &str, token: &str, message: &str) {
        let (line, column) = position(bad, after, token);
        let errs = self.errors(bad);
        let found = errs.iter().any(|e| {
            e.file == bad_path()
                && e.line == line
                && e.column == column
                && e.message.contains(message)
        });
        assert!(
            found,
            "expected an error at {line}:{column} (`{token}`) saying `{message}`, got:\n{}",
            SpecErrors(errs)
        );
    }
}

/// A one-byte struct `X` citing `cite`, with one `u8` field `x` whose declaration ends
/// with `attrs` (its evidence, `unknown = true`, an `allow`, …).
pub fn one_byte_struct(cite: &str, attrs: &str) -> String {
    format!(
        r#"[[struct]]
name = "X"
c_name = "X_T"
size = 1
doc = "X."
confidence = "HIGH"
evidence = [{{ source = "{cite}" }}]
field = [{{ off = 0, name = "x", type = "u8", doc = "X.", {attrs} }}]
"#
    )
}

/// 1-based (line, column) of the first `token` after the first `after` in `text`.
#[track_caller]
pub fn position(text: &str, after: &str, token: &str) -> (usize, usize) {
    let start = text
        .find(after)
        .unwrap_or_else(|| panic!("`{after}` not in the snippet"));
    let at = start
        + text[start..]
            .find(token)
            .unwrap_or_else(|| panic!("`{token}` not after `{after}`"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, column)
}

/// The text of `src` at `line` and `column` to the end of the line.
pub fn text_at(src: &str, line: usize, column: usize) -> String {
    let l = src.lines().nth(line - 1).unwrap_or_default();
    l.chars().skip(column - 1).collect()
}

/// Checks one error's file (`bad.toml`), line, column and message, and that `token`
/// starts there in `bad`.
#[track_caller]
pub fn check(e: &SpecError, bad: &str, line: usize, column: usize, token: &str, message: &str) {
    assert_eq!(e.file, bad_path(), "wrong file in {e}");
    assert!(
        e.line == line && e.column == column,
        "expected {line}:{column}, got {}:{} in {e}",
        e.line,
        e.column
    );
    let there = text_at(bad, line, column);
    assert!(
        there.starts_with(token),
        "expected `{token}` at {line}:{column}, the snippet has `{there}` (error: {e})"
    );
    assert!(
        e.message.contains(message),
        "expected the message to contain `{message}`, got `{}`",
        e.message
    );
}
