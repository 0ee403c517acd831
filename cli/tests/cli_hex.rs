//! `--hex` input, the same reader for `decode`, `validate` and `lower`: runs of an even number
//! of digits, whitespace, `#` comments, a leading byte-order mark; every other byte, and a
//! run of odd length, is an error at its line and column (docs/guide/cli.md, "Hex input").

mod common;

use common::{assert_success, dmaspec, hex_bytes, root, stderr};

/// The verbs that read `--hex`.
const VERBS: [&[&str]; 3] = [
    &["decode", "--hex", "--json"],
    &["validate", "--hex"],
    &["lower", "--hex"],
];

/// Every verb fails on `text` with exit 1 and a message containing `expected`.
#[track_caller]
fn rejected(text: &[u8], expected: &str) {
    for verb in VERBS {
        let out = dmaspec(verb, text);
        assert_eq!(out.status.code(), Some(1), "{verb:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(expected),
            "{verb:?}: expected `{expected}` in:\n{err}"
        );
    }
}

#[test]
fn a_run_of_odd_length_is_an_error_at_its_start() {
    // Read as `ab 0c` before: every later byte shifted by a nibble.
    rejected(
        b"abc",
        "stdin: hex input line 1, column 1: a run of 3 hex digits",
    );
    rejected(
        b"b8 10\n  # comment\n  00 1 00",
        "stdin: hex input line 3, column 6: a run of 1 hex digit;",
    );
    // `abc def0` is rejected too: which nibble is the lone one is a guess.
    rejected(b"abc def0", "line 1, column 1: a run of 3 hex digits");
}

/// One digit deleted in the middle of the sample stream: before, every later byte shifted and
/// the command exited 0 (the 127 digits left of the last word still made 64 bytes).
#[test]
fn a_digit_deleted_mid_stream_is_caught_where_it_was() {
    let text = std::fs::read_to_string(root().join("samples/dge_stream.hex")).unwrap();
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("00 01 10 00 "))
        .expect("the src_num_elem row of the first word");
    let broken = text.replacen(line, &line.replacen("00 01 10", "00 0 10", 1), 1);
    assert_ne!(broken, text);
    rejected(
        broken.as_bytes(),
        &format!("hex input line {}, column 4: a run of 1 hex digit", n + 1),
    );
}

#[test]
fn runs_of_any_even_length_read_the_same() {
    let bytes = hex_bytes(&root().join("samples/dge_stream.hex"));
    let pairs: String = bytes.iter().map(|b| format!("{b:02x} ")).collect();
    let lines: String = bytes
        .chunks(64)
        .map(|w| w.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let whole: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let raw = dmaspec(&["decode", "--json"], &bytes);
    assert_success(&raw);
    for text in [pairs, lines, whole] {
        let out = dmaspec(&["decode", "--hex", "--json"], text.as_bytes());
        assert_success(&out);
        assert_eq!(out.stdout, raw.stdout);
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let text = std::fs::read(root().join("samples/dge_stream.hex")).unwrap();
    let plain = dmaspec(&["decode", "--hex", "--json"], &text);
    assert_success(&plain);
    let with_bom = dmaspec(
        &["decode", "--hex", "--json"],
        &[b"\xef\xbb\xbf", &text[..]].concat(),
    );
    assert_success(&with_bom);
    assert_eq!(with_bom.stdout, plain.stdout);
    // Only at the start, and only whole.
    rejected(
        b"b8\xef\xbb\xbf",
        "line 1, column 3: byte 0xef is not a hex digit",
    );
    rejected(
        b"\xef\xbbb8",
        "line 1, column 1: byte 0xef is not a hex digit",
    );
}

#[test]
fn a_bad_byte_is_shown_as_a_byte_at_its_character_column() {
    // Before: `'ÿ'` (the byte read as Latin-1) and `'Ã'` for the first byte of `é`.
    rejected(
        b"b8 10 \xff",
        "line 1, column 7: byte 0xff is not a hex digit",
    );
    rejected(
        "# é\nb8 é".as_bytes(),
        "line 2, column 4: byte 0xc3 is not a hex digit",
    );
    rejected(b"b8 1g", "line 1, column 5: 'g' is not a hex digit");
    rejected(b"b8\x00", "line 1, column 3: byte 0x00 is not a hex digit");
    // A continuation byte with no lead byte is a character of its own (it was column 0).
    rejected(b"\xb4", "line 1, column 1: byte 0xb4 is not a hex digit");
    rejected(b"b8 \x80", "line 1, column 4: byte 0x80 is not a hex digit");
}
