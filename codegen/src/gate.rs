//! Confidence gating: a minimum common level below which the Rust target marks members,
//! accessors and constants `#[deprecated]` and leaves rules out of validation, so a build
//! sees where it relies on inference.

use std::fmt;

use crate::diagnostics::{SpecError, SpecErrors};
use crate::model::{Confidence, Evidence, Model};

/// The common confidence levels a gate can name (spec/confidence.toml's, strongest
/// first). A spec's declared levels map onto these by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Confirmed,
    Strong,
    Inferred,
    Speculative,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Confirmed,
        Level::Strong,
        Level::Inferred,
        Level::Speculative,
    ];

    /// The level's name in spec/confidence.toml (`strong`).
    pub const fn name(self) -> &'static str {
        match self {
            Level::Confirmed => "confirmed",
            Level::Strong => "strong",
            Level::Inferred => "inferred",
            Level::Speculative => "speculative",
        }
    }

    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A gate resolved against one model's declared levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// The level's position in the model's ordering (0 is strongest).
    pub rank: usize,
    pub level: Level,
}

impl Gate {
    /// The gate at `level` for `model`. Fails when the spec declares a level [`Level`]
    /// lacks (the gate could not say where it falls) or lacks `level`.
    pub fn resolve(model: &Model, level: Level) -> Result<Gate, SpecErrors> {
        let file = std::path::Path::new("confidence.toml");
        if let Some(odd) = model
            .levels
            .iter()
            .find(|l| Level::from_name(&l.name).is_none())
        {
            return Err(SpecErrors(vec![SpecError::whole_file(
                file,
                format!(
                    "confidence gating: the spec declares level `{}`, which is none of the gate's \
                     levels ({}); rename it or gate without min_confidence",
                    odd.name,
                    Level::ALL.map(Level::name).join(", ")
                ),
            )]));
        }
        let rank = model
            .levels
            .iter()
            .position(|l| l.name == level.name())
            .ok_or_else(|| {
                SpecErrors(vec![SpecError::whole_file(
                    file,
                    format!(
                        "confidence gating: min_confidence({level}) names a level the spec does \
                         not declare"
                    ),
                )])
            })?;
        Ok(Gate { rank, level })
    }

    /// Whether a fact of confidence `c` falls below the gate.
    pub fn below(&self, c: &Confidence) -> bool {
        c.rank > self.rank
    }

    /// The deprecation note of a fact below the gate: see [`note`].
    pub fn note(&self, c: &Confidence, evidence: &[Evidence]) -> String {
        note(c, evidence, &format!("the {} gate", self.level))
    }
}

/// What a deprecation says of a fact of confidence `c` that falls below `below`: its level,
/// tag and citations (`INFERRED: tagged MED/INFERRED (inferred), below the strong gate;
/// cited: seed-004 §2`).
pub fn note(c: &Confidence, evidence: &[Evidence], below: &str) -> String {
    let mut cites: Vec<&str> = Vec::new();
    for e in evidence {
        if !cites.contains(&e.cite.as_str()) {
            cites.push(&e.cite);
        }
    }
    let cites = if cites.is_empty() {
        "no evidence cited".to_string()
    } else {
        cites.join("; ")
    };
    format!(
        "{}: tagged {} ({}), below {below}; cited: {cites}",
        c.level.to_uppercase(),
        c.tag,
        c.level
    )
}
