//! Helpers shared by the integration tests (`mod common;` in each test file): the crate's
//! own spec, the `dmaspec` binary, the hex vector files, and the in-memory specs of the
//! loader-error tests ([`spec`]), and the properties the fuzz targets and the proptests
//! share ([`lower_props`], [`encode_props`]; the fuzz targets include those files), and
//! the C compilers' flags ([`cc`]).
//!
//! Each test file is its own crate and uses only some of these, hence the `dead_code` allow.

#![allow(dead_code)]

pub mod cc;
pub mod encode_props;
pub mod lower_props;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use dmaspec_codegen::Model;

/// The crate root (`CARGO_MANIFEST_DIR`).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The model of the crate's own `spec/`.
pub fn model() -> Model {
    dmaspec_codegen::load::load_dir(&root().join("spec"))
        .unwrap_or_else(|e| panic!("{}", e.render()))
}

// ---- the binary ------------------------------------------------------------------------

/// Runs the `dmaspec` binary from the crate root with `args`, feeding it `stdin` (from a
/// thread, so a large input cannot dead-lock against a full stdout pipe).
pub fn dmaspec(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dmaspec runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// A process's stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A process's stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that a `dmaspec` run exited 0, showing its stderr otherwise.
#[track_caller]
pub fn assert_success(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

// ---- hex vector files ------------------------------------------------------------------

/// The bytes of a hex file (`tests/vectors/*.hex`, `samples/*.hex`): hex byte pairs
/// separated by whitespace; `#` starts a comment that runs to the end of the line.
pub fn hex_bytes(path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let path = path.display();
    let mut bytes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for tok in line.split('#').next().unwrap().split_whitespace() {
            assert_eq!(
                tok.len(),
                2,
                "{path}:{}: `{tok}` is not one hex byte",
                n + 1
            );
            let b = u8::from_str_radix(tok, 16)
                .unwrap_or_else(|_| panic!("{path}:{}: `{tok}` is not hex", n + 1));
            bytes.push(b);
        }
    }
    bytes
}

/// The 64-byte words of a hex file ([`hex_bytes`]), which must hold a whole number of them.
pub fn hex_words(path: &Path) -> Vec<[u8; 64]> {
    let bytes = hex_bytes(path);
    assert!(
        !bytes.is_empty() && bytes.len().is_multiple_of(64),
        "{}: {} bytes, not a whole number of words",
        path.display(),
        bytes.len()
    );
    bytes
        .chunks_exact(64)
        .map(|c| c.try_into().unwrap())
        .collect()
}

/// The words of `tests/vectors/<file>`.
pub fn vectors(file: &str) -> Vec<[u8; 64]> {
    hex_words(&root().join("tests/vectors").join(file))
}

/// The word of `tests/vectors/<file>`, which must hold exactly one.
pub fn vector(file: &str) -> [u8; 64] {
    let v = vectors(file);
    assert_eq!(v.len(), 1, "{file}: expected one word");
    v[0]
}

// ---- in-memory specs for the loader's errors ---------------------------------------------

/// A bad snippet, `bad.toml`, loaded next to a valid prelude, `prelude.toml`, both in
/// memory under a virtual spec directory; and the checks on the errors it yields.
/// Positions are 1-based, columns in characters.
pub mod spec {
    use std::path::PathBuf;

    use dmaspec_codegen::load::load_files;
    use dmaspec_codegen::{Model, SpecError, SpecErrors};

    /// Where the in-memory files pretend to live.
    pub fn root() -> PathBuf {
        PathBuf::from("virtual-spec")
    }

    pub fn bad_path() -> PathBuf {
        root().join("bad.toml")
    }

    /// The valid prelude (its TOML text) the bad snippets of one test file build on.
    pub struct Fixture(pub &'static str);

    impl Fixture {
        /// The prelude as a spec file.
        pub fn file(&self) -> (PathBuf, String) {
            (root().join("prelude.toml"), self.0.to_string())
        }

        /// Loads the prelude alone.
        pub fn prelude(&self) -> Result<Model, SpecErrors> {
            load_files(&root(), vec![self.file()])
        }

        /// Loads the prelude and `bad` (as `bad.toml`).
        pub fn load(&self, bad: &str) -> Result<Model, SpecErrors> {
            load_files(&root(), vec![self.file(), (bad_path(), bad.to_string())])
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
}
