//! Helpers the integration tests of both packages share: where the workspace is, the model
//! of its `spec/`, the in-memory specs of the loader-error tests ([`spec`]), the C
//! compilers' flags ([`cc`]), crates built as a downstream user builds them
//! ([`downstream`]), the generated Markdown read back ([`markdown`]) and synthetic specs
//! several times the real one's size ([`synth`]), and seeded arbitrary bytes ([`xorshift`]).

pub mod cc;
pub mod downstream;
pub mod markdown;
pub mod spec;
pub mod synth;
pub mod xorshift;

use std::path::Path;

use dmaspec_codegen::Model;

/// The workspace root, which holds `spec/`, `generated/` and the `dmaspec` crate.
pub fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The model of the workspace's own `spec/`.
pub fn model() -> Model {
    dmaspec_codegen::load::load_dir(&root().join("spec"))
        .unwrap_or_else(|e| panic!("{}", e.render()))
}
