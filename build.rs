// Generates the word types from spec/ into OUT_DIR (see dmaspec-codegen's Builder).
use dmaspec_codegen::Level;

fn main() {
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
    // `words::regs` exists only when the spec has register files; tests that compare it
    // with other targets (tests/c_registers.rs) compile that part under this cfg.
    println!("cargo::rustc-check-cfg=cfg(dmaspec_regfiles)");
    if !model.regfiles.is_empty() {
        println!("cargo::rustc-cfg=dmaspec_regfiles");
    }
}
