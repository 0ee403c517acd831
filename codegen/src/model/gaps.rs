//! What the sources name but do not let the spec lay out (`spec/gaps.toml`): the index of
//! what is known and not specified, each with why and who says so.

use serde::Serialize;

use super::provenance::{Confidence, Evidence};

#[derive(Debug, Clone, Serialize)]
pub struct Gap {
    /// As the source spells it.
    pub name: String,
    /// The `OPCODE` enumerator it would be bound to, with its value.
    pub opcode: Option<GapOpcode>,
    /// The word or record it is part of.
    pub word: Option<String>,
    pub reason: String,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
    /// The spec file that declares it, relative to the spec root.
    pub file: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct GapOpcode {
    pub value: u8,
    pub enumerator: String,
}
