//! The change records and what the comparisons share.

use serde::Serialize;

use crate::model::{Confidence, Evidence, Model, TypeDef};

/// A semver bump, weakest first (so `max` is the overall bump).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Impact {
    Patch,
    Minor,
    Major,
}

impl Impact {
    pub fn name(self) -> &'static str {
        match self {
            Impact::Patch => "patch",
            Impact::Minor => "minor",
            Impact::Major => "major",
        }
    }

    /// `--fail-on`'s spelling.
    pub fn parse(s: &str) -> Option<Impact> {
        [Impact::Patch, Impact::Minor, Impact::Major]
            .into_iter()
            .find(|i| i.name() == s)
    }
}

/// What kind of change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Added,
    Removed,
    /// Same name, other offset or bit position.
    Moved,
    /// An enumerator or flag bit with the same name and another value.
    Renumbered,
    Resized,
    /// Same bytes (or bits, or value) and type, new name.
    Renamed,
    Retyped,
    ConfidenceRaised,
    ConfidenceLowered,
    EvidenceAdded,
    EvidenceDropped,
    ConflictNew,
    ConflictResolved,
    RuleAdded,
    RuleRemoved,
    RuleChanged,
    OpcodeAdded,
    OpcodeRemoved,
    GapAdded,
    GapResolved,
    /// A register's or register field's access (RW, RO, WO).
    AccessChanged,
    /// A register's or register field's reset value.
    ResetChanged,
    DocChanged,
    /// What a KLR leaf builds or a lowering writes, for the same input.
    BehaviourChanged,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Moved => "moved",
            Kind::Renumbered => "renumbered",
            Kind::Resized => "resized",
            Kind::Renamed => "renamed",
            Kind::Retyped => "retyped",
            Kind::ConfidenceRaised => "confidence raised",
            Kind::ConfidenceLowered => "confidence lowered",
            Kind::EvidenceAdded => "evidence added",
            Kind::EvidenceDropped => "evidence dropped",
            Kind::ConflictNew => "new conflict",
            Kind::ConflictResolved => "conflict resolved",
            Kind::RuleAdded => "rule added",
            Kind::RuleRemoved => "rule removed",
            Kind::RuleChanged => "rule changed",
            Kind::OpcodeAdded => "opcode added",
            Kind::OpcodeRemoved => "opcode removed",
            Kind::GapAdded => "gap added",
            Kind::GapResolved => "gap resolved",
            Kind::AccessChanged => "access changed",
            Kind::ResetChanged => "reset changed",
            Kind::DocChanged => "doc changed",
            Kind::BehaviourChanged => "behaviour changed",
        }
    }
}

/// One change, on one item (a type, a rule set, the opcode map, a register file, a klr
/// leaf or table, a lowering, a conflict, a gap).
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// The type, or `OPCODE map`, or a conflict's or gap's name.
    pub item: String,
    /// `word`, `record`, `struct`, `union`, `bitfield`, `enum`, `flags`, `opcodes`,
    /// `register file`, `klr leaf`, `klr layout`, `klr table`, `lowering`, `conflict`, `gap`,
    /// `address map` (named by its architecture).
    pub item_kind: &'static str,
    /// The field, sub-field, enumerator, flag bit, rule, bundle, register, register field,
    /// lowering kind, klr step or address-map instance, when the change is about one.
    pub member: Option<String>,
    pub kind: Kind,
    pub detail: String,
    pub rust: Impact,
    pub c: Impact,
    /// Why the impact is what it is, where that is not plain (shared by like changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
    /// The confidence gates (`min-confidence-<level>`) this change crosses; under any of
    /// them, a lowered confidence is a minor change to both targets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<String>,
}

/// Every change, grouped by item in the new spec's order (removed items after).
#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    pub old: String,
    pub new: String,
    /// The overall bump of each target: the strongest of its changes; `None` for none.
    pub rust: Option<Impact>,
    pub c: Option<Impact>,
    pub changes: Vec<Change>,
}

impl Diff {
    /// The changes of `item`, in report order.
    pub fn of<'d>(&'d self, item: &str) -> impl Iterator<Item = &'d Change> + use<'d> {
        let item = item.to_string();
        self.changes.iter().filter(move |c| c.item == item)
    }

    /// The stronger of the two targets' bumps.
    pub fn bump(&self) -> Option<Impact> {
        self.rust.max(self.c)
    }
}

/// What the comparisons share: the new spec's confidence levels, for the gates, and the
/// renamed types.
pub(crate) struct Cx<'m> {
    pub(super) new: &'m Model,
    /// (old, new) of each renamed type.
    pub(super) renames: Vec<(&'m TypeDef, &'m TypeDef)>,
}

impl Cx<'_> {
    /// An old type spelling (`PAIR`, `PAIR[3]`) in the new spec's names: a member whose
    /// type was only renamed is not retyped (the rename is reported once, on the type).
    pub(super) fn spelled_now(&self, ty: &str) -> String {
        let (base, rest) = ty.split_at(ty.find('[').unwrap_or(ty.len()));
        match self.renames.iter().find(|(o, _)| o.name == base) {
            Some((_, n)) => format!("{}{rest}", n.name),
            None => ty.to_string(),
        }
    }

    /// The confidence changes from `old` to `new` (raised or lowered, with the gates it
    /// crosses), or `None` when the level is the same. A tag change on the same level is
    /// reported as neither.
    pub(super) fn confidence(
        &self,
        old: &Confidence,
        new: &Confidence,
    ) -> Option<(Kind, String, Vec<String>)> {
        if old.rank == new.rank {
            return None;
        }
        let (lo, hi) = (old.rank.min(new.rank), old.rank.max(new.rank));
        // A gate at level L deprecates what is below L: the change crosses it when one
        // side is at or above L and the other below. The weakest level gates nothing.
        let gated = self.new.levels.len().saturating_sub(1);
        let gates: Vec<String> = (lo..hi.min(gated))
            .filter_map(|r| self.new.levels.get(r))
            .map(|l| format!("min-confidence-{}", l.name))
            .collect();
        let kind = if new.rank < old.rank {
            Kind::ConfidenceRaised
        } else {
            Kind::ConfidenceLowered
        };
        let mut detail = format!("{} ({}) -> {} ({})", old.tag, old.level, new.tag, new.level);
        if !gates.is_empty() {
            let under = if kind == Kind::ConfidenceLowered {
                "minor (a new deprecation)"
            } else {
                "patch (a deprecation gone)"
            };
            detail.push_str(&format!("; {under} under {}", gates.join(", ")));
        }
        Some((kind, detail, gates))
    }
}

/// The citations of an evidence list, as written.
pub(super) fn cites(evidence: &[Evidence]) -> Vec<String> {
    evidence.iter().map(|e| e.cite.clone()).collect()
}

/// The entries of `a` not in `b`, in `a`'s order, each once.
pub(super) fn missing<'a>(a: &'a [String], b: &[String]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for x in a.iter().filter(|x| !b.contains(x)) {
        if !out.contains(&x.as_str()) {
            out.push(x);
        }
    }
    out
}

/// `x` as JSON without the keys in `drop`, at any depth: what two items are compared on
/// when spelling, place in the file or provenance must not count.
pub(super) fn shape<T: Serialize>(x: &T, drop: &[&str]) -> Option<serde_json::Value> {
    fn strip(v: &mut serde_json::Value, drop: &[&str]) {
        match v {
            serde_json::Value::Object(map) => {
                map.retain(|k, _| !drop.contains(&k.as_str()));
                map.values_mut().for_each(|v| strip(v, drop));
            }
            serde_json::Value::Array(list) => list.iter_mut().for_each(|v| strip(v, drop)),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(x).ok()?;
    strip(&mut v, drop);
    Some(v)
}
