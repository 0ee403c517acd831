//! The command line's verbs as functions, without its command line (feature `verbs`): what
//! `dmaspec decode`, `encode`, `validate`, `lower` and `explain` compute and print, for any
//! front end. The `dmaspec` binary (crate `dmaspec-cli`) parses the options and writes the
//! output; the Python package calls the same functions.
//!
//! What the verbs share: errors, reading input (raw or hex words and records, JSON and TOML
//! documents), the JSON shape of a word, the reports of faults, the tables, the names a user
//! types, absolute addresses against the SoC address map (`place`). Then one module per
//! verb that computes more than that: `encode`, `lower`, `explain`, `dump` (`regs`),
//! `address` (`addr`).

pub mod address;
pub mod describe;
pub mod document;
pub mod dump;
pub mod encode;
pub mod error;
pub mod explain;
pub mod input;
pub mod lookup;
pub mod lower;
pub mod opcode;
pub mod place;
pub mod records;
pub mod registers;
pub mod report;
pub mod shape;
pub mod table;

pub use error::{Error, InputError, Problem};

/// An `--arch` value: an architecture's name, or an error listing them.
pub fn parse_arch(s: &str) -> Result<crate::Arch, String> {
    crate::Arch::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = crate::Arch::ALL.iter().map(|a| a.name()).collect();
        format!(
            "unknown architecture `{}` (one of: {})",
            crate::names::echo(s),
            names.join(", ")
        )
    })
}
