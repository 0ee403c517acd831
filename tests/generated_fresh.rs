//! `generated/` is checked in; this fails when it no longer matches what `spec/` produces,
//! naming the stale files (run `cargo run -- gen` to refresh them).

use std::path::Path;

#[test]
fn generated_dir_matches_spec() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = dmaspec_codegen::load::load_dir(&root.join("spec"))
        .unwrap_or_else(|e| panic!("spec does not load:\n{}", e.render()));
    let artifacts = dmaspec_codegen::generate(&model);
    let survey = dmaspec_codegen::survey(&root.join("generated"), &artifacts)
        .unwrap_or_else(|e| panic!("generated/ cannot be surveyed: {e}"));
    let list: Vec<String> = survey
        .stale
        .iter()
        .map(|(p, why)| format!("generated/{p}: {why}"))
        .collect();
    assert!(
        survey.stale.is_empty(),
        "generated/ is stale; run `cargo run -- gen` and commit:\n{}",
        list.join("\n")
    );
    // gen leaves foreign files alone; generated/ itself must hold only its own.
    assert!(
        survey.foreign.is_empty(),
        "generated/ holds files the spec does not generate; remove them: {:?}",
        survey.foreign
    );
}

#[test]
fn generation_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let a =
        dmaspec_codegen::generate(&dmaspec_codegen::load::load_dir(&root.join("spec")).unwrap());
    let b =
        dmaspec_codegen::generate(&dmaspec_codegen::load::load_dir(&root.join("spec")).unwrap());
    assert_eq!(a, b);
}

#[test]
fn checked_in_rust_is_what_build_rs_compiles() {
    // build.rs renders with the crate's own runtime path; the checked-in copy must be the
    // very same text, so reading generated/rust/dmaspec.rs is reading the compiled code.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = dmaspec_codegen::load::load_dir(&root.join("spec")).unwrap();
    let rendered = dmaspec_codegen::emit::rust::render(&model, "crate::runtime");
    let compiled = std::fs::read_to_string(concat!(env!("OUT_DIR"), "/dmaspec.rs"))
        .expect("build.rs wrote OUT_DIR/dmaspec.rs");
    assert_eq!(rendered, compiled);
}
