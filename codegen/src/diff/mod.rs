//! What changed between two specs, model against model (never the TOML text), and what
//! each change does to the generated Rust API and C headers as a semver bump. Every kind
//! of the registry ([`crate::model::kinds`]) is compared (`kinds::Compared`, one `impl`
//! per kind: a kind without one does not compile here), in registry order: words, records,
//! shared types, register files, klr leaves, lowerings, conflicts, gaps.
//!
//! The impacts follow what the emitters generate: value enums are newtypes over their raw
//! value with one associated constant per enumerator (a new one is additive), the `Word` /
//! `Record` enums are exhaustive `pub enum`s (a new variant breaks a downstream `match`), structs
//! and bitfields have only `pub` fields (a new field breaks a struct literal), a nested
//! struct's aliases are `pub type`s but a word's are lookup names only, C enumerator and
//! struct aliases are real C names, and each C rule is a function `S_<rule id>`.
//!
//! Register files (`emit/rust/registers.rs`, `emit/c/registers.rs`): per architecture a
//! module per bundle holding `OFFSET`/`SIZE`/`COUNT`/`STRIDE` constants and a newtype per
//! register with `RESET`, a getter per readable field and a `with_*` builder per writable
//! one; in C the matching `_OFFSET`/`_bp`/`_bm`/`_bw`/`_RESET` macros and
//! `_addr`/`_get`/`_set` helpers. So an offset, size, count, stride, width, bit range,
//! reset, access or enum that changes is major for both (the same name now reads or writes
//! other bits, or a getter or setter appears or goes); a new register file, bundle,
//! register or field is minor (new items); a removed one major; doc, confidence, evidence
//! and alternative readings patch. Layouts are compared one architecture at a time.
//!
//! KLR leaves (`emit/rust/klr*.rs`): `klr::Op` is an exhaustive enum with a variant per
//! leaf and `LEAVES` a fixed-length array, so a leaf added or removed is major for Rust; a
//! leaf's other steps are minor (`lower_<leaf>` builds another node for the same op, as a
//! changed rule makes validate accept other words); a klr-side layout is an op struct with
//! all-`pub` fields (a field added, removed or retyped is major); other table entries are
//! minor. Lowerings (`emit/rust/lowering.rs`) are entries of the slice `LOWERINGS` run by
//! one generic engine: no item's type changes with them, so every change of what `lower`
//! writes is minor. The C headers hold neither: patch for C.
//!
//! Address maps (`emit/c/addrmap.rs`, `emit/rust/addrmap.rs`): an instance placed at
//! another base, with other parts, or no longer placed changes or removes its C `_BASE`
//! (major for both targets, as code addresses the hardware through it); a new instance is
//! minor.

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
