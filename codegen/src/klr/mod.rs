//! Seed 003 in the spec: the KLR→BIR data-movement leaves of the Neuron compiler as an
//! executable, documented model.
//!
//! `spec/klr/*.toml` holds, under `[klr]`: compiler-internal enums and translation
//! tables, partial in-memory layouts of the klr nodes and BIR node classes (known fields at
//! known offsets, total size unknown), and for each `codegen<Op>` leaf its ordered steps —
//! checks with the compiler's exact messages, routes, the fork that picks the BIR node,
//! stamped fields and other effects — as data. The loader (`loader::klr`) checks it all;
//! `emit::rust_klr` generates `dmaspec::words::klr` (one lowering function per leaf) and
//! `emit::markdown_klr` the reference pages.

pub mod expr;
pub mod model;
pub(crate) mod raw;

pub use model::KlrModel;
