//! One exit-code table for every verb (docs/guide/cli.md, "Exit codes"): 0 done, 1 bad input (every
//! message about a file names it), 2 a bad command line.

mod common;

use std::path::PathBuf;

use common::{dmaspec, stderr, vector};

fn temp(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

/// `args` (with `stdin`) exits `code`, and stderr contains `message`.
#[track_caller]
fn exits(code: i32, args: &[&str], stdin: &[u8], message: &str) {
    let out = dmaspec(args, stdin);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(
        err.contains(message),
        "{args:?}: expected `{message}` in:\n{err}"
    );
}

const MISSING: &str = "no-such-dir/missing.bin";

fn not_found(path: &str) -> String {
    format!("cannot read {path}: No such file or directory")
}

#[test]
fn decode_validate_and_lower_read_streams() {
    let word = vector("dma_indirect1d.hex");
    for verb in ["decode", "validate", "lower"] {
        exits(0, &[verb], &word, "");
        exits(1, &[verb, MISSING], &[], &not_found(MISSING));
        exits(1, &[verb, "--hex"], b"b8 1", "a run of 1 hex digit");
        exits(1, &[verb], &word[..10], "incomplete word at byte offset 0");
        exits(
            2,
            &[verb, "--arch", "nope"],
            &[],
            "unknown architecture `nope`",
        );
        exits(2, &[verb, "--bogus"], &[], "--bogus");
    }
    let mut invalid = word;
    invalid[14] = 64;
    exits(
        1,
        &["validate"],
        &invalid,
        "1 of 1 word is invalid for cayman",
    );
    exits(2, &["lower", "--abi", "v9"], &[], "unknown --abi `v9`");
}

#[test]
fn lower_vars_files_are_input() {
    // Before: both exited 2, as if the command line were wrong.
    let vars = "no-such-dir/vars.toml";
    exits(1, &["lower", "--vars", vars], &[], &not_found(vars));
    let bad = temp("bad-vars.json", "{");
    exits(
        1,
        &["lower", "--vars", bad.to_str().unwrap()],
        &[],
        "--vars",
    );
    let good = temp("vars.toml", "7 = 0x2000_0000\n");
    exits(0, &["lower", "--vars", good.to_str().unwrap()], &[], "");
}

#[test]
fn encode_reads_a_file() {
    let ok = temp("ok.json", r#"[{"struct":"DMA_DIRECT2D"}]"#);
    exits(0, &["encode", ok.to_str().unwrap()], &[], "");
    exits(0, &["encode", "-"], br#"[{"struct":"DMA_DIRECT2D"}]"#, "");
    // A text file may start with a byte-order mark, as hex input may.
    exits(0, &["encode", "-"], "\u{feff}[]".as_bytes(), "");
    // Before: "No such file or directory (os error 2)", naming nothing.
    exits(
        1,
        &["encode", "missing.json"],
        &[],
        &not_found("missing.json"),
    );
    // Before: exit 2.
    let bad = temp("bad.json", "{");
    let bad = bad.to_str().unwrap();
    exits(
        1,
        &["encode", bad],
        &[],
        &format!("{bad}: EOF while parsing"),
    );
    let bad_toml = temp("bad.toml", "[[instructions]\n");
    exits(1, &["encode", bad_toml.to_str().unwrap()], &[], "bad.toml");
    exits(1, &["encode", "-"], b"{", "stdin: EOF while parsing");
    let unknown = temp("unknown.json", r#"[{"struct":"WHAT"}]"#);
    exits(
        1,
        &["encode", unknown.to_str().unwrap()],
        &[],
        "unknown struct `WHAT`",
    );
    exits(2, &["encode"], &[], "<INPUT>");
    exits(
        2,
        &["encode", "-", "--arch", "nope"],
        &[],
        "unknown architecture",
    );
}

#[test]
fn explain_answers_or_says_the_query_names_nothing() {
    exits(0, &["explain", "0xd4"], &[], "");
    exits(2, &["explain", "NOPE"], &[], "`NOPE` is not an opcode");
    exits(2, &["explain"], &[], "<WHAT>");
}

#[test]
fn klr_lower_reads_a_file() {
    exits(0, &["klr", "lower", "samples/klr/leaves.json"], &[], "");
    exits(
        1,
        &["klr", "lower", "missing.json"],
        &[],
        &not_found("missing.json"),
    );
    let bad = temp("bad-ops.json", "[1]");
    exits(
        1,
        &["klr", "lower", bad.to_str().unwrap()],
        &[],
        "op #0: an op is a JSON object",
    );
    exits(2, &["klr", "lower"], &[], "<INPUT>");
    exits(2, &["klr", "frobnicate"], &[], "frobnicate");
}

#[test]
fn gen_reads_a_spec_and_writes_a_directory() {
    exits(0, &["gen", "--check"], &[], "");
    exits(
        1,
        &["gen", "--check", "--spec", "no-such-spec"],
        &[],
        "no-such-spec",
    );
    let file = temp("not-a-dir", "x");
    let out = file.join("generated");
    exits(
        1,
        &["gen", "--out", out.to_str().unwrap()],
        &[],
        &format!("cannot write to {}", out.display()),
    );
    exits(2, &["gen", "--bogus"], &[], "--bogus");
    exits(2, &["frobnicate"], &[], "frobnicate");
}

/// A reader that stops early (`dmaspec decode … | head`) is not a failure: exit 0, and
/// nothing on stderr.
#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let stream: Vec<u8> = vector("dma_indirect1d.hex").repeat(4096);
    let input = temp("early-reader.bin", "");
    std::fs::write(&input, &stream).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(["decode", "--quiet", input.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout is closed here: the rest of the table meets a broken pipe.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

/// Text inputs (encode's JSON/TOML, `--vars`, klr op lists) name a byte that is not UTF-8
/// where it is, like a bad hex digit.
#[test]
fn a_text_input_that_is_not_utf8_names_the_byte_where_it_is() {
    let bad = b"{\"instructions\": [\n  {\"struct\": \"DMA_\xff\"}]}";
    let input = temp("not-utf8.json", "");
    std::fs::write(&input, bad).unwrap();
    let path = input.to_str().unwrap();
    let message = format!("{path}: line 2, column 19: byte 0xff is not UTF-8");
    exits(1, &["encode", path], &[], &message);
    // klr reads its list as it goes: a bare list, so the bad byte is reached.
    let ops = temp("not-utf8-ops.json", "");
    std::fs::write(&ops, b"[\n  {\"struct\": \"DMA_\xff\"}]").unwrap();
    let ops = ops.to_str().unwrap();
    exits(
        1,
        &["klr", "lower", ops],
        &[],
        &format!("{ops}: line 2, column 19: byte 0xff is not UTF-8"),
    );
    exits(1, &["lower", "--vars", path], &[], &message);
    exits(
        1,
        &["encode", "-"],
        bad,
        "stdin: line 2, column 19: byte 0xff is not UTF-8",
    );
}

/// A document read whole (TOML, `--vars`, an audited page) is at most 1 MiB: parsing one
/// takes many times its size, so a larger one is refused, named, before it is parsed.
#[test]
fn a_document_read_whole_is_capped() {
    let comments = "# a comment line that is long enough to add up quickly\n".repeat(20_000);
    let toml = temp("big.toml", &comments);
    let path = toml.to_str().unwrap();
    let message = format!("{path} is over the 1 MiB limit of this input");
    exits(1, &["encode", path], &[], &message);
    exits(1, &["lower", "--vars", path, "-"], &[], &message);
    let page = temp("big.md", &comments);
    let page = page.to_str().unwrap();
    exits(
        1,
        &["audit", page],
        &[],
        &format!("{page} is over the 1 MiB limit of this input"),
    );
}
