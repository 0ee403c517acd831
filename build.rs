// Generates the word types from spec/ into OUT_DIR (see dmaspec-codegen's Builder).
fn main() {
    let report = |errors: dmaspec_codegen::SpecErrors| -> ! {
        eprintln!("{}", errors.render());
        panic!("spec/ has {} error(s); see above", errors.0.len());
    };
    dmaspec_codegen::Builder::new()
        .spec_dir("spec")
        .runtime("crate::runtime")
        .compile()
        .unwrap_or_else(|e| report(e));
}
