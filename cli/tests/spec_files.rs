//! What `dmaspec check` and `gen` do with spec files that are not small UTF-8 text files:
//! a file that is not UTF-8 is one error at its first bad byte; an entry that is not a
//! regular file (a FIFO, a link to a device, a directory named `*.toml`) is refused
//! without being opened; a file over the size limit is refused; a long list of errors is
//! cut with a count; and a very long source line is shown cut around the error.
//!
//! Each run is bounded: a child process with a memory limit (unix), killed after a
//! generous time limit, so that a hang or a runaway allocation fails the test instead of
//! the machine. The limit guards against hangs only; nothing here measures speed.

mod common;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::root;
use dmaspec_testkit::spec::{PROVENANCE, one_byte_struct};

/// A run that takes longer than this is taken to hang.
const HANG: Duration = Duration::from_secs(60);

/// A fresh spec directory holding a valid spec (the test prelude and one struct), removed
/// on drop.
struct Spec(PathBuf);

impl Spec {
    fn new(name: &str) -> Spec {
        let dir =
            std::env::temp_dir().join(format!("dmaspec-spec-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("spec")).unwrap();
        std::fs::write(dir.join("spec/prelude.toml"), PROVENANCE).unwrap();
        let own = one_byte_struct("src §1", r#"evidence = [{ source = "src §1" }]"#);
        std::fs::write(dir.join("spec/own.toml"), own).unwrap();
        Spec(dir)
    }

    fn dir(&self) -> PathBuf {
        self.0.join("spec")
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir().join(rel)
    }

    /// `check SPEC`.
    fn check(&self) -> Run {
        bounded(&["check", &self.dir().display().to_string()])
    }

    /// `gen --spec SPEC --out OUT` (OUT next to the spec).
    fn gen_(&self) -> Run {
        bounded(&[
            "gen",
            "--spec",
            &self.dir().display().to_string(),
            "--out",
            &self.0.join("out").display().to_string(),
        ])
    }
}

impl Drop for Spec {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

impl Run {
    /// Everything the run printed.
    fn all(&self) -> String {
        format!("{}{}", self.out, self.err)
    }

    /// Asserts exit 1 with `n` errors in the summary.
    #[track_caller]
    fn errors(&self, n: usize) {
        assert_eq!(self.code, Some(1), "{}", self.all());
        let plural = if n == 1 { "" } else { "s" };
        assert!(
            self.all().contains(&format!("{n} error{plural} in ")),
            "not {n} error{plural}: {}",
            cut(&self.all())
        );
    }
}

/// At most 4000 characters of `s`, for assertion messages.
fn cut(s: &str) -> String {
    s.chars().take(4000).collect()
}

/// Runs `dmaspec args` from the crate root with at most 4 GiB of address space (unix) and
/// kills it after [`HANG`].
fn bounded(args: &[&str]) -> Run {
    let exe = env!("CARGO_BIN_EXE_dmaspec");
    let mut cmd = if cfg!(unix) {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("ulimit -v 4194304; exec \"$0\" \"$@\"")
            .arg(exe);
        c
    } else {
        Command::new(exe)
    };
    let mut child = cmd
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dmaspec runs");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            String::from_utf8_lossy(&v).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("dmaspec {args:?} did not finish in {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        out: out.join().unwrap(),
        err: err.join().unwrap(),
    }
}

/// 1 MB of bytes that are not UTF-8 (a simple generator; the first bad byte is at 5).
fn binary(len: usize) -> Vec<u8> {
    let mut x: u32 = 0x9e37_79b9;
    let mut v = b"a = 1".to_vec();
    v.push(0xff);
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v.push(x as u8);
    }
    v
}

#[test]
fn the_spec_on_its_own_is_clean() {
    let s = Spec::new("clean");
    let run = s.check();
    assert_eq!(run.code, Some(0), "{}", run.all());
}

#[test]
fn a_binary_file_is_one_error_at_its_first_bad_byte() {
    let s = Spec::new("binary");
    let junk = s.path("junk.toml");
    std::fs::write(&junk, binary(1 << 20)).unwrap();
    for run in [s.check(), s.gen_()] {
        run.errors(1);
        let all = run.all();
        assert!(all.contains(&junk.display().to_string()), "{}", cut(&all));
        assert!(
            all.contains("byte 0xff at byte offset 5 is not UTF-8"),
            "{}",
            cut(&all)
        );
    }
    assert!(!s.0.join("out").exists());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_being_opened() {
    let s = Spec::new("fifo");
    let fifo = s.path("pipe.toml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|m| m.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    for run in [s.check(), s.gen_()] {
        run.errors(1);
        let all = run.all();
        assert!(
            all.contains(&format!(
                "{} is not a regular file (a FIFO)",
                fifo.display()
            )),
            "{all}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_device_is_refused() {
    let s = Spec::new("dev-zero");
    let link = s.path("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let run = s.check();
    run.errors(1);
    assert!(
        run.all().contains(&format!(
            "{} is not a regular file (a character device)",
            link.display()
        )),
        "{}",
        run.all()
    );
}

#[test]
fn a_directory_named_like_a_spec_file_is_refused() {
    let s = Spec::new("dir-toml");
    let dir = s.path("words.toml");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("inner.toml"), "this = is not read\n").unwrap();
    let run = s.check();
    run.errors(1);
    assert!(
        run.all().contains(&format!(
            "{} is not a regular file (a directory)",
            dir.display()
        )),
        "{}",
        run.all()
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let s = Spec::new("huge");
    let huge = s.path("huge.toml");
    // Sparse: 17 MiB long, nothing on disk.
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(17 << 20)
        .unwrap();
    let run = s.check();
    run.errors(1);
    assert!(
        run.all().contains(&format!(
            "{} is 17825792 bytes, over the 16 MiB limit of a spec file",
            huge.display()
        )),
        "{}",
        cut(&run.all())
    );
}

#[test]
fn a_long_list_of_errors_is_cut_with_a_count() {
    let s = Spec::new("many");
    for i in 0..200 {
        std::fs::write(s.path(&format!("bad{i:03}.toml")), "this is not toml\n").unwrap();
    }
    let run = s.check();
    run.errors(200);
    let all = run.all();
    assert!(all.contains("bad099.toml"), "{}", cut(&all));
    assert!(!all.contains("bad100.toml"), "{}", cut(&all));
    assert!(all.contains("… and 100 more errors"), "{}", cut(&all));
    assert!(all.contains("200 errors in 200 files"), "{}", cut(&all));
}

#[test]
fn a_very_long_line_is_shown_cut_around_the_error() {
    let s = Spec::new("long-line");
    // A 92,813-character line with a syntax error near its end (at the first `!`).
    let head = "doc_x = \"";
    let tail = "\" !!!";
    let line = format!(
        "{head}{}{tail}",
        "a".repeat(92_813 - head.len() - tail.len())
    );
    assert_eq!(line.chars().count(), 92_813);
    std::fs::write(s.path("long.toml"), format!("{line}\n")).unwrap();
    let run = s.check();
    run.errors(1);
    let all = run.all();
    let widest = all.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(
        widest <= 200,
        "a line of {widest} characters: {}",
        cut(&all)
    );
    assert!(all.contains("long.toml:1:92811"), "{}", cut(&all));
    assert!(all.contains("…aaaa"), "{}", cut(&all));
    assert!(all.contains("\" !!!"), "{}", cut(&all));
}

/// Gen's stamps name the spec directory it read: relative to the crate root inside it,
/// as its real path outside.
#[test]
fn stamps_name_the_spec_directory_used() {
    let s = Spec::new("stamps");
    let run = s.gen_();
    assert_eq!(run.code, Some(0), "{}", run.all());
    let real = s.dir().canonicalize().unwrap();
    let out = s.0.join("out");
    let first = |rel: &str| -> String {
        let text = std::fs::read_to_string(out.join(rel)).unwrap();
        text.lines().next().unwrap().to_string()
    };
    let rust = first("rust/dmaspec.rs");
    assert!(
        rust.contains(&format!("from {}/*.toml", real.display())),
        "{rust}"
    );
    assert!(!rust.contains("from spec/"), "{rust}");
    let header = std::fs::read_dir(out.join("c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "h"))
        .unwrap();
    let header = first(&format!(
        "c/{}",
        header.file_name().unwrap().to_string_lossy()
    ));
    assert!(
        header.contains(&format!("the TOML files in {}/", real.display())),
        "{header}"
    );
    // Regenerating checks against the same stamps.
    let check = bounded(&[
        "gen",
        "--check",
        "--spec",
        &s.dir().display().to_string(),
        "--out",
        &out.display().to_string(),
    ]);
    assert_eq!(check.code, Some(0), "{}", check.all());
    // The crate's own spec, however it is named, is `spec`.
    let own = root().join("spec");
    let again = s.0.join("own");
    let run = bounded(&[
        "gen",
        "--spec",
        &own.display().to_string(),
        "--out",
        &again.display().to_string(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.all());
    let text = std::fs::read_to_string(again.join("rust/dmaspec.rs")).unwrap();
    assert!(
        text.starts_with("// @generated by dmaspec-codegen from spec/*.toml."),
        "{}",
        text.lines().next().unwrap()
    );
    assert_eq!(
        text,
        std::fs::read_to_string(root().join("generated/rust/dmaspec.rs")).unwrap()
    );
}
