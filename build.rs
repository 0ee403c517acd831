// With feature `generate`, generates the word types from spec/ into OUT_DIR (see
// dmaspec-codegen's Builder); without it the library compiles the checked-in copy. With
// feature `dictionary`, writes the JSON dictionary without its indentation to OUT_DIR.

fn main() {
    #[cfg(feature = "generate")]
    generate();
    #[cfg(feature = "dictionary")]
    minify_dictionary();
    // `words::regs` exists only when the spec has register files; tests that compare it
    // with other targets (tests/c_registers.rs) compile that part under this cfg.
    println!("cargo::rustc-check-cfg=cfg(dmaspec_regfiles)");
    #[cfg(not(feature = "generate"))]
    if include_str!("generated/rust/dmaspec.rs").contains("\npub mod regs {") {
        println!("cargo::rustc-cfg=dmaspec_regfiles");
    }
}

#[cfg(feature = "generate")]
fn generate() {
    use dmaspec_codegen::Level;
    let report = |errors: dmaspec_codegen::SpecErrors| -> ! {
        eprintln!("{}", errors.render());
        panic!("spec/ has {} error(s); see above", errors.0.len());
    };
    let builder = dmaspec_codegen::Builder::new()
        .spec_dir("spec")
        .runtime("crate::runtime");
    // The `min-confidence-*` features; the strictest (strongest level) wins.
    let gate = [Level::Confirmed, Level::Strong, Level::Inferred]
        .into_iter()
        .find(|l| {
            let feature = format!("CARGO_FEATURE_MIN_CONFIDENCE_{}", l.name().to_uppercase());
            std::env::var_os(feature).is_some()
        });
    let builder = match gate {
        Some(level) => builder.min_confidence(level),
        None => builder,
    };
    let builder = if std::env::var_os("CARGO_FEATURE_DICTIONARY").is_some() {
        builder.dictionary_file("dmaspec.json")
    } else {
        builder
    };
    let model = builder.compile().unwrap_or_else(|e| report(e));
    if !model.regfiles.is_empty() {
        println!("cargo::rustc-cfg=dmaspec_regfiles");
    }
}

/// `dmaspec::DICTIONARY`: the dictionary (build.rs's own with `generate`, else the checked-in
/// `generated/dmaspec.json`) without the whitespace between its tokens, in
/// `OUT_DIR/dmaspec.min.json`: half the size in every binary that embeds it (the Python
/// wheel among them), the same JSON value.
#[cfg(feature = "dictionary")]
fn minify_dictionary() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = if cfg!(feature = "generate") {
        out.join("dmaspec.json")
    } else {
        println!("cargo::rerun-if-changed=generated/dmaspec.json");
        "generated/dmaspec.json".into()
    };
    let text = std::fs::read_to_string(&source)
        .unwrap_or_else(|e| panic!("cannot read the dictionary {}: {e}", source.display()));
    std::fs::write(out.join("dmaspec.min.json"), minified(&text))
        .unwrap_or_else(|e| panic!("cannot write OUT_DIR/dmaspec.min.json: {e}"));
}

/// `json` without the whitespace outside its strings (JSON allows it only between tokens).
#[cfg(feature = "dictionary")]
fn minified(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if matches!(c, ' ' | '\t' | '\n' | '\r') {
            continue;
        } else {
            in_string = c == '"';
        }
        out.push(c);
    }
    out
}
