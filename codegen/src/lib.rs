//! The dmaspec generator: loads `spec/**/*.toml` into one resolved [`Model`] and renders
//! every target from it.
//!
//! From a build script (as prost-build does):
//!
//! ```no_run
//! // build.rs
//! dmaspec_codegen::Builder::new()
//!     .spec_dir("spec")
//!     .runtime("::dmaspec::runtime")
//!     .compile()
//!     .unwrap_or_else(|e| panic!("{}", e.render()));
//! ```
//!
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/dmaspec.rs"));`

pub mod audit;
pub mod diagnostics;
pub mod diff;
pub mod emit;
pub mod gate;
pub mod guide;
pub mod lint;
pub mod load;
pub mod model;
pub mod naming;
pub mod output;
pub mod schema;
#[cfg(test)]
mod toy_kind;

use std::path::{Path, PathBuf};

pub use diagnostics::{SpecError, SpecErrors};
pub use gate::{Gate, Level};
pub use model::Model;
pub use output::{Artifact, OutputError, Staleness, Survey, survey, write_artifacts};

/// Configures and runs Rust generation for a build script.
#[derive(Debug, Clone)]
pub struct Builder {
    spec_dir: PathBuf,
    out_dir: Option<PathBuf>,
    file_name: String,
    runtime: String,
    min_confidence: Option<Level>,
    dictionary_file: Option<String>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    pub fn new() -> Self {
        Builder {
            spec_dir: PathBuf::from("spec"),
            out_dir: None,
            file_name: "dmaspec.rs".into(),
            runtime: "::dmaspec::runtime".into(),
            min_confidence: None,
            dictionary_file: None,
        }
    }

    /// Where the spec files live (default `spec`, relative to the crate root).
    pub fn spec_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.spec_dir = dir.into();
        self
    }

    /// Where the Rust file goes (default `$OUT_DIR`; outside a build script, required).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Name of the generated Rust file (default `dmaspec.rs`).
    pub fn file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = name.into();
        self
    }

    /// Path of the runtime support module the generated code uses
    /// (default `::dmaspec::runtime`).
    pub fn runtime(mut self, path: impl Into<String>) -> Self {
        self.runtime = path.into();
        self
    }

    /// Gates the generated code at `level` (default: no gate): every struct field, union
    /// arm, accessor and constant whose confidence is below `level` on the common ordering
    /// is marked `#[deprecated(note = "INFERRED: <tag> (<level>, below <gate>); <cites>")]`,
    /// so a build sees at compile time where it relies on inference, and `rule_truth`,
    /// `check_rules` and `validate` leave out rules below `level` (they hold). The spec's
    /// levels map onto [`Level`] by name; a spec declaring another level fails to compile
    /// with this option.
    pub fn min_confidence(mut self, level: Level) -> Self {
        self.min_confidence = Some(level);
        self
    }

    /// Also writes the JSON dictionary (what `generated/dmaspec.json` holds) beside the
    /// Rust file under `name`, as prost-build's `file_descriptor_set_path` writes the
    /// descriptors: for a crate that embeds the dictionary (`include_str!`) and must not
    /// read a checked-in copy that may be stale.
    pub fn dictionary_file(mut self, name: impl Into<String>) -> Self {
        self.dictionary_file = Some(name.into());
        self
    }

    /// Loads the spec, writes the Rust file, and prints `cargo:rerun-if-changed` for the
    /// spec directory and every spec file. Returns the model for further use.
    ///
    /// The file is written only when its contents change (its mtime stays otherwise), and
    /// never over a file without the generator's stamp, through a symbolic link, or into
    /// an output directory that is, contains or lies inside the spec directory.
    pub fn compile(self) -> Result<Model, SpecErrors> {
        println!("cargo:rerun-if-changed={}", self.spec_dir.display());
        // The spec directory is walked once: the files it reads are the ones watched.
        let read = load::read(&self.spec_dir);
        for (file, _) in read.iter().flat_map(|r| &r.files) {
            println!("cargo:rerun-if-changed={}", file.display());
        }
        let out_dir = self
            .out_dir
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
            .ok_or(OutputError::NoOutDir)
            .map_err(output_errors)?;
        output::check_separate(&self.spec_dir, &out_dir).map_err(output_errors)?;
        let model = load::load_read(&self.spec_dir, read?)?;
        let gate = self
            .min_confidence
            .map(|level| Gate::resolve(&model, level))
            .transpose()?;
        let code = emit::rust::render_gated(&model, &self.runtime, gate.as_ref());
        let code = output::name_spec_dir(&code, &output::spec_label(&self.spec_dir));
        output::write_stamped(&out_dir, &self.file_name, &code).map_err(output_errors)?;
        if let Some(name) = &self.dictionary_file {
            let json = emit::json::dictionary(&model);
            output::write_stamped(&out_dir, name, &json).map_err(output_errors)?;
        }
        Ok(model)
    }
}

/// Every file of `generated/`, in a fixed order. The Rust copy is the same text `build.rs`
/// writes to `OUT_DIR` (with the crate's own runtime path), checked in for readers.
///
/// The C, Markdown and JSON emitters run on a thread of their own beside the Rust render
/// (itself spread over the cores): they share nothing but the model, and the order of the
/// result does not depend on which finishes first.
pub fn generate(model: &Model) -> Vec<Artifact> {
    generate_with_guide(model, &[])
}

/// [`generate`], with the book's hand-written chapters (`guide`, as [`guide::read`]
/// returns them) copied into `docs/guide/` and listed first in its table of contents.
pub fn generate_with_guide(model: &Model, guide: &[(String, String)]) -> Vec<Artifact> {
    let (rust, others) = std::thread::scope(|s| {
        let others = s.spawn(|| {
            let mut files = emit::c::render(model);
            files.extend(emit::markdown::render_with_guide(model, guide));
            files.extend(emit::json::render(model));
            files.push(emit::schema::render());
            files.extend(emit::viewer::render(model));
            files.extend(emit::svd::render(model));
            files.extend(emit::systemrdl::render(model));
            files.extend(emit::kaitai::render(model));
            files
        });
        let rust = emit::rust::render(model, "crate::runtime");
        (
            rust,
            others
                .join()
                .expect("the C/Markdown/JSON/SVD/SystemRDL/Kaitai emitter thread panicked"),
        )
    });
    let mut files = vec![("rust/dmaspec.rs".to_string(), rust)];
    files.extend(others);
    files
        .into_iter()
        .map(|(path, contents)| Artifact { path, contents })
        .collect()
}

/// Builder failures are reported like spec errors, at the path they are about.
fn output_errors(e: OutputError) -> SpecErrors {
    SpecErrors(vec![SpecError::whole_file(&e.path(), e.to_string())])
}

/// Every `*.toml` below `dir`, sorted (the files [`load::load_dir`] reads).
pub fn spec_files(dir: &Path) -> Vec<PathBuf> {
    load::discover(dir).map_or_else(|_| Vec::new(), |d| d.toml)
}
