//! Messages are short and say what is wrong (issue 38, "Messages"): a name or value of any
//! length is repeated cut (`dmaspec::names::echo`), so no message grows with the input;
//! numbers out of range are called out of range; an array bundle needs its index; a
//! missing default spec directory is said to be the default.

mod common;

use common::{dmaspec, stderr};

/// The longest message a long input may give, in bytes (the longest lists what the spec
/// has: `explain`'s of every word, record and register file).
const SHORT: usize = 1000;

fn temp(name: &str, contents: &str) -> String {
    let p = std::env::temp_dir().join(format!("dmaspec-messages-{}-{name}", std::process::id()));
    std::fs::write(&p, contents).unwrap();
    p.to_str().unwrap().to_string()
}

/// Asserts that `dmaspec args` fails with a short message that contains `expected`.
#[track_caller]
fn short_failure(args: &[&str], stdin: &[u8], expected: &str) {
    let o = dmaspec(args, stdin);
    let err = stderr(&o);
    assert!(matches!(o.status.code(), Some(1 | 2)), "{err}");
    assert!(err.len() < SHORT, "{} bytes:\n{}", err.len(), &err[..SHORT]);
    assert!(err.contains(expected), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_long_name_or_value_is_repeated_cut() {
    let long = "Q".repeat(100_000);
    let cut = "… (100000 characters)";
    let field = |name: &str, value: &str| {
        format!(r#"[{{"struct": "DMA_DIRECT2D", "fields": {{"{name}": {value}}}}}]"#)
    };
    for (args, stdin) in [
        (vec!["decode", "--struct", &long, "-"], String::new()),
        (vec!["encode", "--struct", &long, "-"], String::new()),
        (vec!["explain", &long], String::new()),
        (
            vec!["explain", &format!("DMA_DIRECT2D.{long}")],
            String::new(),
        ),
        (vec!["explain", &format!("{long}.x")], String::new()),
        (vec!["explain", &format!("UDMA_M2S.{long}")], String::new()),
        (vec!["regs", &long, "-"], String::new()),
        (
            vec!["regs", "UDMA_M2S", "--bundle", &long, "-"],
            String::new(),
        ),
        (vec!["decode", "--arch", &long, "-"], String::new()),
        (vec!["lower", "--abi", &long, "-"], String::new()),
        (vec!["decode", &format!("--{long}")], String::new()),
        (vec![&long], String::new()),
        (
            vec!["decode", &format!("no-such-dir/{long}")],
            String::new(),
        ),
        (vec!["encode", "-"], format!(r#"[{{"struct": "{long}"}}]"#)),
        (vec!["encode", "-"], field(&long, "1")),
        (
            vec!["encode", "-"],
            field("semaphore", &format!("\"{long}\"")),
        ),
        (
            vec!["encode", "-"],
            field("in_dtype", &format!("\"{long}\"")),
        ),
        (
            vec!["encode", "-"],
            field("semaphore", &format!("\"{long}\"")),
        ),
        (
            vec!["encode", "-"],
            format!(r#"[{{"struct": "DMA_DIRECT2D", "{long}": 1}}]"#),
        ),
        (
            vec!["encode", "-"],
            format!(r#"[{{"struct": "DMA_DIRECT2D", "fields": {{"{long}": 1, "{long}": 2}}}}]"#),
        ),
        (
            vec!["klr", "lower", "-"],
            format!(r#"[{{"op": "{long}"}}]"#),
        ),
        (
            vec!["klr", "lower", "-"],
            format!(r#"[{{"op": "NcCopy", "{long}": 1}}]"#),
        ),
        (
            vec!["klr", "lower", "-"],
            format!(r#"[{{"op": "NcCopy", "engine": "{long}"}}]"#),
        ),
        (vec!["audit", &long], String::new()),
    ] {
        let shown = args
            .iter()
            .map(|a| &a[..a.len().min(40)])
            .collect::<Vec<_>>();
        let o = dmaspec(&args, stdin.as_bytes());
        let err = stderr(&o);
        assert!(matches!(o.status.code(), Some(1 | 2)), "{shown:?}: {err}");
        assert!(
            err.len() < SHORT,
            "{shown:?}: {} bytes:\n{}",
            err.len(),
            &err[..SHORT]
        );
        assert!(err.contains("…"), "{shown:?}: {err}");
    }
    let vars = temp("vars.json", &format!(r#"{{"{long}": 1, "2": "{long}"}}"#));
    short_failure(&["lower", "--vars", &vars, "-"], b"", cut);
}

#[test]
fn an_array_bundle_needs_its_index() {
    short_failure(
        &["regs", "UDMA_M2S", "--bundle", "M2S_Q", "-"],
        &[0; 0x1000],
        "`M2S_Q` has 16 elements: name one, `M2S_Q[0]` to `M2S_Q[15]`",
    );
}

#[test]
fn numbers_out_of_range_are_called_out_of_range() {
    short_failure(
        &[
            "regs",
            "UDMA_M2S",
            "--bundle",
            "M2S_Q[99999999999999999999]",
            "-",
        ],
        b"",
        "`M2S_Q[99999999999999999999]`: index 99999999999999999999 is out of range",
    );
    short_failure(
        &["klr", "lower", "-"],
        br#"[{"op": "NcCopy", "engine": 18446744073709551615}]"#,
        "`18446744073709551615` is out of range (a 64-bit signed integer)",
    );
    short_failure(
        &["klr", "lower", "-"],
        br#"[{"op": "NcCopy", "engine": 1.5}]"#,
        "`1.5` is not an integer",
    );
    short_failure(
        &["klr", "lower", "-"],
        br#"[{"op": 5}]"#,
        "`\"op\"` is the leaf name, a string; not 5",
    );
}

#[test]
fn a_missing_default_spec_directory_is_said_to_be_the_default() {
    let dir = std::env::temp_dir().join(format!("dmaspec-messages-nospec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for args in [vec!["audit", "x.md"], vec!["check"], vec!["gen", "--check"]] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_dmaspec"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("no spec directory `spec` here: `spec` is the default of"),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
