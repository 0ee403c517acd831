//! The resolved model: every name looked up, every offset absolute within its parent,
//! every confidence tag mapped onto the common ordering. Emitters read only this.
//!
//! One file per sub-system: [`words`], [`rules`], [`lowering`] and [`klr`];
//! [`provenance`] (sources, scales, confidence, evidence, architectures) is what they share.

pub mod addrmap;
pub mod gaps;
pub mod kinds;
pub mod klr;
pub mod klr_expr;
pub mod lowering;
pub mod path;
pub mod provenance;
mod query;
pub mod registers;
pub mod rules;
pub mod words;

use serde::Serialize;

pub use provenance::*;
pub use words::*;

#[derive(Debug, Clone, Serialize)]
pub struct Model {
    /// Common confidence levels, strongest first.
    pub levels: Vec<Level>,
    pub scales: Vec<Scale>,
    pub sources: Vec<Source>,
    pub archs: Vec<Arch>,
    /// Every named type, in spec order (files sorted by path, then declaration order).
    pub types: Vec<TypeDef>,
    /// Validity rules, their constants and lookup tables (see [`rules`]).
    pub rules: rules::RuleModel,
    /// Seed 003's KLR→BIR data-movement leaves (see [`klr`]).
    pub klr: klr::KlrModel,
    /// Pseudo-word lowerings (see [`lowering`]).
    pub lowerings: Vec<lowering::Lowering>,
    /// Recorded disagreements that no member's alternatives hold (`[[conflict]]`).
    pub conflicts: Vec<Conflict>,
    /// What the sources name but do not lay out (`[[gap]]`).
    pub gaps: Vec<gaps::Gap>,
    /// Register files (`[[regfile]]`, see [`registers`]).
    pub regfiles: Vec<registers::RegFile>,
    /// SoC address maps, one per architecture (`[[addrmap]]`, see [`addrmap`]).
    pub addrmaps: Vec<addrmap::AddrMap>,
}
