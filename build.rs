// Generates the word types from spec/ into OUT_DIR (see dmaspec-codegen's Builder).
fn main() {
    if let Err(errors) = dmaspec_codegen::Builder::new()
        .spec_dir("spec")
        .runtime("crate::runtime")
        .compile()
    {
        eprintln!("{}", errors.render());
        panic!("spec/ has {} error(s); see above", errors.0.len());
    }
}
