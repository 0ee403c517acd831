//! `dmaspec check [SPEC_DIR]`: exit codes (an error → 1, warnings alone → 0, warnings with
//! `--deny-warnings` → 1), the JSON shape docs/guide/contributing.md documents, and the real spec clean.

mod common;

use std::path::PathBuf;

use common::{dmaspec, stderr, stdout};
use dmaspec_testkit::spec::{PROVENANCE, one_byte_struct};

/// A spec directory holding the test prelude and `own` (as `own.toml`).
fn spec_dir(name: &str, own: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-check-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("prelude.toml"), PROVENANCE).unwrap();
    std::fs::write(dir.join("own.toml"), own).unwrap();
    dir
}

/// A one-field struct whose field's evidence is `evidence`.
fn one_field(evidence: &str) -> String {
    one_byte_struct("src §1", evidence)
}

/// Cites the whole document: an `evidence_without_section` warning, nothing else.
fn warned() -> PathBuf {
    spec_dir("warned", &one_field(r#"evidence = [{ source = "src" }]"#))
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dmaspec(args, b"");
    (out.status.code(), stdout(&out), stderr(&out))
}

#[test]
fn an_error_exits_1() {
    let dir = spec_dir("error", &one_field(""));
    let (code, out, err) = run(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("error: field `x` has no evidence"), "{out}");
    assert!(err.contains("check failed: 1 error in 1 file"), "{err}");
}

#[test]
fn warnings_alone_exit_0_unless_denied() {
    let dir = warned();
    let (code, out, err) = run(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("warning[evidence_without_section]"), "{out}");
    assert!(out.ends_with("1 warning in 1 file\n"), "{out}");
    let (code, _, err) = run(&["check", "--deny-warnings", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("(warnings denied)"), "{err}");
}

#[test]
fn json_lists_every_diagnostic() {
    let dir = warned();
    let (code, out, err) = run(&["check", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let list = v.as_array().expect("a list");
    assert_eq!(list.len(), 1, "{out}");
    let d = &list[0];
    let file = dir.join("own.toml").to_string_lossy().replace('\\', "/");
    // `evidence = [{ source = "src" }]` on line 8: the span is `"src"`, columns 81..86.
    assert_eq!(
        d,
        &serde_json::json!({
            "severity": "warning",
            "lint": "evidence_without_section",
            "file": file,
            "line": 8,
            "column": 81,
            "end": { "line": 8, "column": 86 },
            "message": "every evidence record of field `x` cites a whole document",
            "notes": ["name the section that states it (`seed-004 §2`, `page §Static arm`) so a reader can find the row"],
        })
    );
    let text = std::fs::read_to_string(dir.join("own.toml")).unwrap();
    let line: String = text
        .lines()
        .nth(7)
        .unwrap()
        .chars()
        .skip(80)
        .take(5)
        .collect();
    assert_eq!(line, "\"src\"");
}

#[test]
fn the_real_spec_is_clean_with_warnings_denied() {
    let (code, out, err) = run(&["check", "--deny-warnings", "spec"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, "spec: no problems found\n");
    // The default directory is `spec`.
    let (code, out, _) = run(&["check", "--deny-warnings", "--format", "json"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.trim(), "[]");
}
