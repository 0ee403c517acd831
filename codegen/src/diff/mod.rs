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
mod members;
mod report;
mod types;

use crate::model::Model;

use change::Cx;
pub use change::{Change, Diff, Impact, Kind};
pub use report::{Format, render};

/// Compares `old` with `new`; `old_name` and `new_name` label them in reports.
pub fn diff(old: &Model, new: &Model, old_name: &str, new_name: &str) -> Diff {
    let cx = Cx {
        new,
        renames: types::renames(old, new),
    };
    let mut changes = types::types(&cx, old, new);
    changes.extend(items::opcodes(old, new));
    changes.extend(items::rules(&cx, old, new));
    changes.extend(items::conflicts(old, new));
    changes.extend(items::gaps(old, new));
    let bump = |f: fn(&Change) -> Impact| changes.iter().map(f).max();
    Diff {
        old: old_name.to_string(),
        new: new_name.to_string(),
        rust: bump(|c| c.rust),
        c: bump(|c| c.c),
        changes,
    }
}
