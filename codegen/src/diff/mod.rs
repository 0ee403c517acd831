//! What changed between two specs, model against model (never the TOML text), and what
//! each change does to the generated Rust API and C headers as a semver bump.
//!
//! The impacts follow what the emitters generate: value enums are newtypes over their raw
//! value with one associated constant per enumerator (a new one is additive), the `Word` /
//! `Record` enums are exhaustive `pub enum`s (a new variant breaks a downstream `match`), structs
//! and bitfields have only `pub` fields (a new field breaks a struct literal), a nested
//! struct's aliases are `pub type`s but a word's are lookup names only, C enumerator and
//! struct aliases are real C names, and each C rule is a function `S_<rule id>`.

mod change;
mod items;
pub(crate) mod kinds;
mod klr;
mod lowering;
mod members;
mod registers;
mod report;
mod types;

use crate::model::Model;
use crate::model::kinds::for_each_kind;
pub(crate) use kinds::compare;

pub(crate) use change::Cx;
pub use change::{Change, Diff, Impact, Kind};
pub use report::{Format, render};

/// Compares `old` with `new`; `old_name` and `new_name` label them in reports.
pub fn diff(old: &Model, new: &Model, old_name: &str, new_name: &str) -> Diff {
    let cx = Cx::new(old, new);
    let mut changes = Vec::new();
    for_each_kind!(compare!(&cx, old, new, changes));
    let bump = |f: fn(&Change) -> Impact| changes.iter().map(f).max();
    Diff {
        old: old_name.to_string(),
        new: new_name.to_string(),
        rust: bump(|c| c.rust),
        c: bump(|c| c.c),
        changes,
    }
}
