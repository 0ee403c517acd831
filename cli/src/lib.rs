//! The `dmaspec` command line's verbs as functions: the binary (`main.rs`) and the Python
//! package call them.

// The verbs: one module each, `Args` and `run` (the binary's `main.rs` dispatches). Those
// that read the spec need the generator (feature `generator`, on by default); the Python
// package leaves it out.
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
pub mod regs;
pub mod validate;

// What the verbs share (none names a verb): errors, reading input, the JSON shape, the
// reports of faults, the tables, writing output.
pub mod describe;
pub mod document;
pub mod error;
pub mod input;
pub mod names;
pub mod output;
pub mod progress;
pub mod records;
pub mod registers;
pub mod report;
pub mod shape;
pub mod table;

pub use dmaspec::json::hex_string;
pub use error::{CliError, InputError, Problem};

/// An `--arch` value: an architecture's name, or an error listing them.
pub fn parse_arch(s: &str) -> Result<dmaspec::Arch, String> {
    dmaspec::Arch::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = dmaspec::Arch::ALL.iter().map(|a| a.name()).collect();
        format!(
            "unknown architecture `{}` (one of: {})",
            dmaspec::names::echo(s),
            names.join(", ")
        )
    })
}
