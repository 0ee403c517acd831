//! Every edit of `encode`'s input is written or refused, never dropped (issue 38, "Edits
//! that vanish"), and what it reads besides JSON is read as written: a key given twice, a
//! `text` that disagrees with its `raw_hex`, a `joined` value, a TOML date-time, an extra
//! key inside an enum's object, `x.TOML`, a misspelt opcode name.

mod common;

use common::{assert_success, dmaspec, stderr};

/// `dmaspec encode ARGS… -` of `input`: (exit code, stdout, stderr).
fn encode(args: &[&str], input: &str) -> (Option<i32>, Vec<u8>, String) {
    let mut all = vec!["encode"];
    all.extend_from_slice(args);
    all.push("-");
    let o = dmaspec(&all, input.as_bytes());
    (o.status.code(), o.stdout.clone(), stderr(&o))
}

/// Asserts that `encode` of `input` writes nothing, exits 1 and says `expected`.
#[track_caller]
fn refused(args: &[&str], input: &str, expected: &str) {
    let (code, out, err) = encode(args, input);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "wrote {} bytes", out.len());
    assert!(err.contains(expected), "{err}");
}

#[test]
fn a_key_given_twice_is_refused_in_the_list_and_in_vars() {
    refused(
        &[],
        r#"[{"struct": "DMA_DIRECT2D", "fields": {"semaphore": 1, "semaphore": 2}}]"#,
        "duplicate key `semaphore`",
    );
    refused(
        &["--struct", "NOTIFICATION"],
        r#"[{"fields": {"timestamp": {"low": 1, "low": 2}}}]"#,
        "duplicate key `low`",
    );
    let vars = std::env::temp_dir().join(format!("dmaspec-edits-{}.json", std::process::id()));
    std::fs::write(&vars, r#"{"7": "0x1000", "7": "0x2000"}"#).unwrap();
    let o = dmaspec(&["lower", "--vars", vars.to_str().unwrap(), "-"], b"");
    std::fs::remove_file(&vars).unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("duplicate key `7`"), "{}", stderr(&o));
    let o = dmaspec(
        &["klr", "lower", "-"],
        br#"[{"op": "NcCopy", "op": "Shuffle"}]"#,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("duplicate key `op`"), "{}", stderr(&o));
}

/// A PSEUDO_DMA_TRIGGER whose queue name has bytes after its NUL: decode prints it as
/// `{"text", "raw_hex"}`.
fn trigger_with_bytes_after_the_nul() -> String {
    let o = dmaspec(
        &["encode", "--no-validate", "-"],
        br#"[{"struct": "PSEUDO_DMA_TRIGGER", "fields": {"dma_queue_name": "ab"}}]"#,
    );
    assert_success(&o);
    let mut word = o.stdout.clone();
    let at = word.windows(2).position(|w| w == b"ab").unwrap();
    word[at + 3] = b'c';
    let o = dmaspec(&["decode", "--json", "-"], &word);
    assert_success(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains(r#""text":"ab","raw_hex":"61620063"#),
        "{text}"
    );
    text
}

#[test]
fn an_edited_text_beside_its_raw_hex_is_refused() {
    let decoded = trigger_with_bytes_after_the_nul();
    // Unedited, it round-trips.
    assert_success(&dmaspec(&["encode", "-"], decoded.as_bytes()));
    let edited = decoded.replace(r#""text":"ab""#, r#""text":"xy""#);
    refused(
        &[],
        &edited,
        "`text` \"xy\" and `raw_hex` (text \"ab\") disagree",
    );
}

#[test]
fn an_edited_joined_value_is_refused_naming_its_parts() {
    let record = [0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0];
    let o = dmaspec(
        &["decode", "--struct", "NOTIFICATION", "--json", "-"],
        &record,
    );
    assert_success(&o);
    let decoded = String::from_utf8(o.stdout).unwrap();
    let o = dmaspec(
        &["encode", "--struct", "NOTIFICATION", "-"],
        decoded.as_bytes(),
    );
    assert_success(&o);
    assert_eq!(o.stdout, record);
    let edited = decoded.replace(r#""value":4294967301"#, r#""value":7"#);
    assert_ne!(edited, decoded);
    refused(
        &["--struct", "NOTIFICATION"],
        &edited,
        "`joined` `timestamp.ps` is 7 but its parts give 4294967301: it is read from \
         `timestamp.low` + `timestamp.high`",
    );
}

#[test]
fn an_extra_key_in_an_enum_flags_or_text_object_is_refused() {
    refused(
        &[],
        r#"[{"struct": "DMA_DIRECT2D", "fields": {"in_dtype": {"raw": 7, "nmae": "FP16"}}}]"#,
        "field `in_dtype`: unknown key `nmae` (the keys are `raw` and `name`)",
    );
    refused(
        &[],
        r#"[{"struct": "PSEUDO_DMA_TRIGGER", "fields": {"dma_queue_name": {"txt": "a"}}}]"#,
        "unknown key `txt` (the keys are `text` and `raw_hex`)",
    );
}

#[test]
fn a_misspelt_opcode_is_suggested_and_an_unknown_one_not_listed() {
    let wrong = |name: &str| {
        format!(r#"[{{"struct": "DMA_DIRECT2D", "fields": {{"header": {{"opcode": "{name}"}}}}}}]"#)
    };
    refused(&[], &wrong("DMAMEMCPYY"), "did you mean `DMAMEMCPY`?");
    let (_, _, err) = encode(&[], &wrong("NOTHING_LIKE_IT"));
    assert!(
        err.contains("enumerators; `dmaspec explain OPCODE` lists them"),
        "{err}"
    );
    assert!(err.len() < 300, "{err}");
}

#[test]
fn toml_is_known_by_its_extension_in_any_case_and_a_date_time_is_refused() {
    let dir = std::env::temp_dir().join(format!("dmaspec-edits-toml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `encode FILE` of one DMA_DIRECT2D whose semaphore is `value`, in TOML.
    let encode_file = |name: &str, value: &str| {
        let path = dir.join(name);
        let text =
            format!("[[instructions]]\nstruct = \"DMA_DIRECT2D\"\nfields.semaphore = {value}\n");
        std::fs::write(&path, text).unwrap();
        dmaspec(&["encode", path.to_str().unwrap()], b"")
    };
    let o = encode_file("x.TOML", "3");
    assert_success(&o);
    assert_eq!(o.stdout[13], 3);
    let o = encode_file("d.toml", "1979-05-27");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("`instructions[0].fields.semaphore`: 1979-05-27 is a TOML date-time"),
        "{err}"
    );
    assert!(!err.contains("toml_private"), "{err}");
}
