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
