//! What `build.rs` compiles is the checked-in `generated/rust/dmaspec.rs` (which
//! `dmaspec-codegen`'s `generated_fresh` test holds to the spec).

#[test]
fn checked_in_rust_is_what_build_rs_compiles() {
    // build.rs renders with the crate's own runtime path; the checked-in copy must be the
    // very same text, so reading generated/rust/dmaspec.rs is reading the compiled code.
    let rendered = dmaspec_codegen::emit::rust::render(&dmaspec_testkit::model(), "crate::runtime");
    let compiled = std::fs::read_to_string(concat!(env!("OUT_DIR"), "/dmaspec.rs"))
        .expect("build.rs wrote OUT_DIR/dmaspec.rs");
    assert_eq!(rendered, compiled);
}

#[test]
fn the_embedded_dictionary_is_the_checked_in_one_without_its_indentation() {
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/generated/dmaspec.json"
    ))
    .unwrap();
    let value = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    assert_eq!(value(dmaspec::DICTIONARY), value(&file));
    // Nothing between tokens: no line break, and under 60% of the pretty-printed size.
    assert!(!dmaspec::DICTIONARY.contains('\n'));
    assert!(
        dmaspec::DICTIONARY.len() < file.len() * 6 / 10,
        "{} of {} bytes",
        dmaspec::DICTIONARY.len(),
        file.len()
    );
}
