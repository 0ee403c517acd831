//! `generated/` is checked in; this fails when it no longer matches what `spec/` produces,
//! naming the stale files (run `cargo run -- gen` to refresh them), a copy of a
//! `docs/guide/` chapter that differs from its source included.

#[test]
fn generated_dir_matches_spec() {
    let root = dmaspec_testkit::root();
    let model = dmaspec_codegen::load::load_dir(&root.join("spec"))
        .unwrap_or_else(|e| panic!("spec does not load:\n{}", e.render()));
    // The book's hand-written chapters are copied in too (docs/ beside spec/).
    let guide = dmaspec_codegen::guide::read(&root.join("docs")).unwrap();
    assert!(!guide.is_empty(), "docs/ holds the book's chapters");
    let artifacts = dmaspec_codegen::generate_with_guide(&model, &guide);
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
    let root = dmaspec_testkit::root();
    let a =
        dmaspec_codegen::generate(&dmaspec_codegen::load::load_dir(&root.join("spec")).unwrap());
    let b =
        dmaspec_codegen::generate(&dmaspec_codegen::load::load_dir(&root.join("spec")).unwrap());
    assert_eq!(a, b);
}
