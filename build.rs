// With feature `generate`, generates the word types from spec/ into OUT_DIR (see
// dmaspec-codegen's Builder); without it the library compiles the checked-in copy.

fn main() {
    #[cfg(feature = "generate")]
    generate();
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
