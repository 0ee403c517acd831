//! No line of any verb's default output is over 120 columns (issue 38): `decode`,
//! `validate`, `lower --explain`, `klr lower`, `audit`, `regs` and `explain` on the samples,
//! the test vectors and fixtures, a word of every opcode and pseudo-random words and
//! records — the header of a word that does not decode, the raw bytes of an unknown field,
//! NOTIFICATION's rows and `lower --explain`'s lists among them.

mod common;

use common::{dmaspec, root, stderr};
use dmaspec::words::{RECORDS, WORDS};

const WIDTH: usize = 120;

fn temp(name: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("dmaspec-width-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// `n` arbitrary bytes, the same every run.
fn random_bytes(n: usize) -> Vec<u8> {
    dmaspec_testkit::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15).bytes(n)
}

/// Every vector file and the sample stream, one hex file.
fn vectors() -> String {
    let mut text = std::fs::read_to_string(root().join("samples/dge_stream.hex")).unwrap();
    for entry in std::fs::read_dir(root().join("tests/vectors")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "hex") {
            text.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    temp("vectors.hex", text.as_bytes())
}

/// A word of every opcode byte, the rest zero; and random words, a quarter of them with a
/// word's opcode so that they decode.
fn streams() -> (String, String) {
    let every: Vec<u8> = (0..=255u8)
        .flat_map(|op| std::iter::once(op).chain([0; 63]))
        .collect();
    let mut random = random_bytes(64 * 512);
    for (i, word) in random.chunks_mut(64).enumerate() {
        if let Some(w) = WORDS.get(i % (4 * WORDS.len())) {
            word[0] = w.opcode;
        }
    }
    (temp("every.bin", &every), temp("random.bin", &random))
}

#[track_caller]
fn assert_fits(args: &[&str]) {
    let o = dmaspec(args, b"");
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        stderr(&o)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.is_empty(), "{args:?}: no output");
    for line in text.lines() {
        assert!(
            line.chars().count() <= WIDTH,
            "{args:?}: a line of {} columns:\n{line}",
            line.chars().count()
        );
    }
}

#[test]
fn word_verbs_fit_120_columns() {
    let vectors = vectors();
    let (every, random) = streams();
    let vars = root().join("samples/dge_vars.toml");
    let vars = vars.to_str().unwrap();
    for (hex, file) in [(true, &vectors), (false, &every), (false, &random)] {
        let hex: &[&str] = if hex { &["--hex"] } else { &[] };
        for verb in [
            &["decode"][..],
            &["validate"],
            &["lower", "--explain", "--vars", vars],
        ] {
            let mut args: Vec<&str> = verb.to_vec();
            args.extend_from_slice(hex);
            args.push(file);
            assert_fits(&args);
        }
    }
}

#[test]
fn record_verbs_fit_120_columns() {
    let random = temp("records.bin", &random_bytes(140 * 64));
    for r in RECORDS {
        assert_fits(&["decode", "--struct", r.name, &random]);
    }
}

#[test]
fn other_verbs_fit_120_columns() {
    for klr in ["leaves", "forks", "errors"] {
        assert_fits(&["klr", "lower", &format!("samples/klr/{klr}.json")]);
    }
    assert_fits(&["audit", "tests/audit/fixture_words.md"]);
    let dump = temp("regs.bin", &random_bytes(0x1000));
    assert_fits(&["regs", "UDMA_M2S", "--bundle", "M2S_Q[3]", &dump]);
    for w in WORDS {
        assert_fits(&["explain", w.name]);
    }
    for r in RECORDS {
        assert_fits(&["explain", r.name]);
    }
}
