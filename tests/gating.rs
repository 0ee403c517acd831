//! Confidence gating, both ways, as a user of the crate and of the headers meets it.
//!
//! The fields used: GATHER (S4D4_GT, spec/words/gather.toml) `events` at offset 4 is tagged
//! MEDIUM on the certainty scale (common level inferred; supp-dve-datamove §The bundle
//! lifecycle (shared by all six)); `num_active_channels` at offset 34 is HIGH/OBSERVED
//! (confirmed; supp-gather-scatter §7.2, row `| 34 | 1 | num_active_channels |`).
//!
//! Rust: crates outside the workspace against `dmaspec` by path, in the shared downstream
//! target directory (testkit's `downstream`), warnings as errors. C: gcc / g++ with
//! `-Werror` over the checked-in headers.

mod common;

use std::path::Path;
use std::process::Command;

use common::cc::{C_FLAGS, CXX_FLAGS, require};
use common::root;
use dmaspec_testkit::downstream;

/// Uses the inferred field: through the owned struct and through the view.
const USES_INFERRED: &str = r#"//! Reads GATHER.events, which the spec tags MEDIUM (inferred).
use dmaspec::prelude::*;

pub fn wait_mode(b: &[u8; 64]) -> Option<(dmaspec::words::EVENTS, u8)> {
    let w = dmaspec::words::GATHER::decode(b).ok()?;
    let view = dmaspec::words::view::GATHER::new(b);
    Some((w.events, view.events().read().wait_mode.raw()))
}
"#;

/// Uses only confirmed facts: the opcode and `num_active_channels`.
const USES_CONFIRMED: &str = r#"//! Reads GATHER.num_active_channels (HIGH/OBSERVED).
use dmaspec::prelude::*;

pub fn channels(b: &[u8; 64]) -> Option<u8> {
    let w = dmaspec::words::GATHER::decode(b).ok()?;
    Some(w.num_active_channels)
}
"#;

/// Writes crate `name` with `lib` as its library, `dmaspec` features `features`; writes
/// only what changed, so a rerun compiles nothing new.
fn krate(name: &str, features: &str, lib: &str) -> std::path::PathBuf {
    let dir = downstream::dir().join(name);
    downstream::manifest(&dir, name, "");
    if !features.is_empty() {
        let path = dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&path).unwrap().replace(
            "default-features = false }",
            &format!("default-features = false, features = [{features:?}] }}"),
        );
        std::fs::write(&path, text).unwrap();
    }
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let path = dir.join("src/lib.rs");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(lib) {
        std::fs::write(&path, lib).unwrap();
    }
    dir
}

#[test]
fn rust_an_inferred_field_builds_clean_without_the_gate() {
    let dir = krate("gating-inferred", "", USES_INFERRED);
    downstream::cargo(&dir, &["build", "--quiet", "--lib"]);
}

#[test]
fn rust_an_inferred_field_warns_and_fails_under_the_strong_gate() {
    let dir = krate(
        "gating-inferred-strong",
        "min-confidence-strong",
        USES_INFERRED,
    );
    // Capped at warn for this crate alone: it builds, and says where it relies on inference.
    let out = downstream::cargo_output(&dir, &["rustc", "--lib", "--", "--cap-lints", "warn"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "warning: use of deprecated field `dmaspec::words::GATHER::events`: INFERRED: tagged \
             MEDIUM (inferred), below the strong gate; cited: supp-dve-datamove §The bundle \
             lifecycle (shared by all six); supp-gather-scatter §7.2"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "warning: use of deprecated method \
             `dmaspec::words::view::View::<'a, dmaspec::words::GATHER>::events`"
        ),
        "{err}"
    );
    // With deprecations denied (the shared -D warnings), the same crate fails.
    let out = downstream::cargo_output(&dir, &["build", "--lib"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("error: use of deprecated field `dmaspec::words::GATHER::events`"),
        "{err}"
    );
}

#[test]
fn rust_confirmed_fields_build_clean_under_the_strong_gate() {
    let dir = krate(
        "gating-confirmed-strong",
        "min-confidence-strong",
        USES_CONFIRMED,
    );
    downstream::cargo(&dir, &["build", "--quiet", "--lib"]);
}

/// Compiles `src` against generated/c with `compiler` and `flags` plus `defines`; returns
/// whether it compiled and what the compiler said.
fn compile_c(compiler: &str, flags: &[&str], defines: &[&str], src: &str) -> (bool, String) {
    require(compiler);
    let dir = root().join("target/tmp/gating-c");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.c", src.len()));
    std::fs::write(&file, src).unwrap();
    let out = Command::new(compiler)
        .args(flags)
        .args(defines)
        .arg("-I")
        .arg(Path::new(&root()).join("generated/c"))
        .arg("-fsyntax-only")
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const C_INFERRED: &str = "#include \"dmaspec.h\"\n\
    unsigned wait_mode(const NEURON_ISA_TPB_S4D4_GT_STRUCT *w) { return w->events.wait_mode; }\n";
const C_CONFIRMED: &str = "#include \"dmaspec.h\"\n\
    unsigned channels(const NEURON_ISA_TPB_S4D4_GT_STRUCT *w) { return w->num_active_channels; }\n";
const STRONG: &str = "-DDMASPEC_MIN_CONFIDENCE=DMASPEC_CONFIDENCE_STRONG";

#[test]
fn c_an_inferred_member_compiles_without_the_gate() {
    let (ok, err) = compile_c("gcc", C_FLAGS, &[], C_INFERRED);
    assert!(ok, "{err}");
}

#[test]
fn c_an_inferred_member_fails_under_the_strong_gate() {
    let (ok, err) = compile_c("gcc", C_FLAGS, &[STRONG], C_INFERRED);
    assert!(
        !ok,
        "gcc accepted a use of an inferred member under the gate"
    );
    assert!(
        err.contains(
            "error: 'events' is deprecated: INFERRED: tagged MEDIUM (inferred), below \
             DMASPEC_MIN_CONFIDENCE"
        ) || err.contains(
            "error: \u{2018}events\u{2019} is deprecated: INFERRED: tagged MEDIUM (inferred), \
             below DMASPEC_MIN_CONFIDENCE"
        ),
        "{err}"
    );
    // Only the user's line: the headers' own uses (layout checks, rule predicates) are quiet.
    assert!(
        !err.contains(".h:") || err.contains("note: declared here"),
        "{err}"
    );
    assert_eq!(err.matches("is deprecated").count(), 1, "{err}");
}

#[test]
fn c_a_confirmed_member_compiles_under_the_strong_gate() {
    for (compiler, flags) in [("gcc", C_FLAGS), ("g++", CXX_FLAGS)] {
        let (ok, err) = compile_c(compiler, flags, &[STRONG], C_CONFIRMED);
        assert!(ok, "{compiler}: {err}");
    }
}
