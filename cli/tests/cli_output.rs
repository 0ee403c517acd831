//! Every verb's output goes through one layer (docs/guide/cli.md "Exit codes"): stdout that cannot be
//! written (`>/dev/full`) is exit 1 with a message naming stdout; a reader of stdout that
//! stops early (`| head -1`) is exit 0 with nothing on stderr; and a closed or full stderr
//! never panics (exit 101, "failed printing to stderr").

mod common;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{dmaspec, root, stderr};

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file holding `bytes`, for a verb that reads a path.
fn temp(name: &str, bytes: &[u8]) -> String {
    let p = temp_dir().join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

fn vector(name: &str) -> String {
    root()
        .join("tests/vectors")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Where a stream of the child goes.
#[derive(Clone, Copy, PartialEq)]
enum Sink {
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
    /// A pipe whose read end is closed before the child writes: EPIPE.
    Closed,
    /// A pipe the test reads.
    Piped,
}

fn stdio(s: Sink) -> Stdio {
    match s {
        Sink::Full => Stdio::from(
            File::options()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        ),
        Sink::Closed | Sink::Piped => Stdio::piped(),
    }
}

/// Runs `dmaspec args` with `stdin`, its stdout and stderr sent to `out` and `err`.
fn run(args: &[String], stdin: &[u8], out: Sink, err: Sink) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(stdio(out))
        .stderr(stdio(err))
        .spawn()
        .expect("dmaspec runs");
    if out == Sink::Closed {
        drop(child.stdout.take());
    }
    if err == Sink::Closed {
        drop(child.stderr.take());
    }
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    o
}

/// Every verb, with valid input and output on stdout: `(args, stdin)`.
fn verbs() -> Vec<(Vec<String>, Vec<u8>)> {
    let many = std::fs::read_to_string(vector("dma_indirect1d.hex"))
        .unwrap()
        .repeat(64);
    let many = temp("many.hex", many.as_bytes());
    let json = dmaspec(&["decode", "--json", "--hex", &many], b"").stdout;
    let json = temp("words.json", &json);
    let records = dmaspec(
        &["decode", "--struct", "SDMA_CME_BD_DESC", "--json"],
        &[0u8; 16 * 8],
    )
    .stdout;
    let records = temp("records.json", &records);
    let invalid = vector("dma_gather_xpose_misaligned.hex");
    let s = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        // What clap prints goes through the same layer.
        (s(&["--help"]), vec![]),
        (s(&["--version"]), vec![]),
        (s(&["help"]), vec![]),
        (s(&["help", "decode"]), vec![]),
        (s(&["decode", "--help"]), vec![]),
        (s(&["decode", "--quiet", "--hex", &many]), vec![]),
        (s(&["decode", "--json", "--hex", &many]), vec![]),
        (
            s(&["decode", "--struct", "SDMA_CME_BD_DESC"]),
            vec![0; 16 * 8],
        ),
        (s(&["encode", "--hex", &json]), vec![]),
        (s(&["encode", &json]), vec![]),
        (
            s(&["encode", "--struct", "SDMA_CME_BD_DESC", "--hex", &records]),
            vec![],
        ),
        (s(&["explain", "DMA_INDIRECT1D"]), vec![]),
        (s(&["explain", "DTYPE"]), vec![]),
        (s(&["explain", "UDMA_M2S"]), vec![]),
        (s(&["explain", "UDMA_M2S.M2S_Q.cfg.en_scheduling"]), vec![]),
        (
            s(&["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]"]),
            vec![0; 0x40],
        ),
        (
            s(&["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", "--json"]),
            vec![0; 0x40],
        ),
        (s(&["lower", "--hex", &many]), vec![]),
        (s(&["lower", "--json", "--hex", &many]), vec![]),
        (s(&["lower", "--explain", "--hex", &many]), vec![]),
        (s(&["klr", "lower", "samples/klr/leaves.json"]), vec![]),
        (
            s(&["klr", "lower", "--json", "samples/klr/leaves.json"]),
            vec![],
        ),
        (s(&["validate", "--hex", &invalid]), vec![]),
        (s(&["check"]), vec![]),
        (s(&["check", "--format", "json"]), vec![]),
        (s(&["diff", "spec", "spec"]), vec![]),
        (s(&["diff", "--format", "json", "spec", "spec"]), vec![]),
        (s(&["audit", "tests/audit/fixture_words.md"]), vec![]),
        (
            s(&["audit", "--format", "json", "tests/audit/fixture_words.md"]),
            vec![],
        ),
    ]
}

#[test]
fn every_verb_reports_a_full_stdout_as_exit_1_naming_stdout() {
    for (args, stdin) in verbs() {
        let o = run(&args, &stdin, Sink::Full, Sink::Piped);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to stdout"),
            "{args:?}: stderr does not name stdout:\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn every_verb_exits_0_silently_when_its_reader_stops_early() {
    for (args, stdin) in verbs() {
        let o = run(&args, &stdin, Sink::Closed, Sink::Piped);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

/// A reader that reads a little and then stops (`| head -c 100`), after the verb wrote.
#[test]
fn a_reader_that_reads_a_little_then_stops_is_not_an_error() {
    use std::io::Read;
    for args in [
        vec!["explain", "DMA_INDIRECT1D"],
        vec!["klr", "lower", "samples/klr/leaves.json"],
        vec!["audit", "tests/audit/fixture_words.md"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
            .args(&args)
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

/// Messages on stderr (gen's summary, warnings, the error itself) never panic when stderr
/// is closed or full: the exit code is the verb's own.
#[test]
fn a_closed_or_full_stderr_does_not_panic() {
    let out = temp_dir().join("gen-out");
    let _ = std::fs::remove_dir_all(&out);
    let out = out.to_str().unwrap().to_string();
    for err in [Sink::Closed, Sink::Full] {
        let gen_args = ["gen".to_string(), "--out".into(), out.clone()];
        let o = run(&gen_args, b"", Sink::Piped, err);
        assert_eq!(o.status.code(), Some(0), "gen: {}", stderr(&o));
        assert!(Path::new(&out).join("rust").exists() || Path::new(&out).exists());
        let missing = ["decode".to_string(), "no-such-dir/missing.bin".into()];
        let o = run(&missing, b"", Sink::Piped, err);
        assert_eq!(o.status.code(), Some(1), "decode of a missing file");
        let invalid = [
            "validate".to_string(),
            "--hex".into(),
            vector("dma_gather_xpose_misaligned.hex"),
        ];
        let o = run(&invalid, b"", Sink::Piped, err);
        assert_eq!(o.status.code(), Some(1), "validate of an invalid word");
    }
}
