//! The `dmaspec` command line's verbs: one module each, with its clap `Args` and `run` (the
//! binary's `main.rs` dispatches). What they compute is the library's
//! ([`dmaspec::verbs`], which the Python package calls too); here are the options, the
//! verbs that read the spec, the output and the exit codes.

// Those that read the spec need the generator (feature `generator`, on by default).
pub mod addr;
#[cfg(feature = "generator")]
pub mod audit;
#[cfg(feature = "generator")]
pub mod check;
pub mod decode;
#[cfg(feature = "generator")]
pub mod diff;
pub mod encode;
pub mod explain;
#[cfg(feature = "generator")]
pub mod generate;
pub mod klr;
pub mod lower;
pub mod neff;
pub mod regs;
pub mod validate;

// What the verbs share (none names a verb): the errors, writing output, the progress bar;
// the NEFF container reader.
pub mod container;
pub mod error;
pub mod output;
pub mod progress;

pub use dmaspec::verbs::parse_arch;
pub use error::CliError;
