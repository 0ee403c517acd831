//! The generated docs render as written: spec prose such as `dim[0]`, `[INFERRED]` or
//! `<NcCopy>` would otherwise become broken intra-doc links or vanish as HTML tags
//! (`.ci/run` also builds the docs with `RUSTDOCFLAGS="-D warnings"`).

/// Every doc comment of `code` (`///` lines and `/** … */` blocks).
fn docs(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find("/**") {
        let end = rest[start..].find("*/").map_or(rest.len(), |e| start + e);
        out.push(&rest[start + 3..end]);
        rest = &rest[end..];
    }
    out.extend(
        code.lines()
            .filter_map(|l| l.trim_start().strip_prefix("///")),
    );
    out
}

/// `doc` without its code spans; what is left must hold no bare `[x]` or `<x>`.
fn bare_markup(doc: &str) -> Option<String> {
    let prose: String = doc.split('`').step_by(2).collect::<Vec<_>>().join("");
    let b = prose.as_bytes();
    (0..b.len())
        .find(|&i| {
            let escaped = i > 0 && b[i - 1] == b'\\';
            let link = b[i] == b'[' && b.get(i + 1) == Some(&b']'); // [`X`] with code cut out
            (b[i] == b'[' || b[i] == b'<') && !escaped && !link
        })
        .map(|i| prose[i.saturating_sub(20)..(i + 20).min(prose.len())].to_string())
}

#[test]
fn generated_rust_docs_escape_markup_in_spec_prose() {
    let path = dmaspec_testkit::root().join("generated/rust/dmaspec.rs");
    let code = std::fs::read_to_string(path).expect("generated/rust/dmaspec.rs");
    let bad: Vec<String> = docs(&code).into_iter().filter_map(bare_markup).collect();
    assert!(
        bad.is_empty(),
        "{} docs with bare markup, e.g. {:?}",
        bad.len(),
        &bad[..bad.len().min(5)]
    );
}
