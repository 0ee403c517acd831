//! The changes that are not about one type's layout: the opcode map, the rules, the
//! recorded conflicts, the gaps and the address maps.

use super::change::{Change, Cx, Impact, Kind, cites, shape};
use super::members::Item;
use super::types::kind_of;
use crate::model::rules::{Rule, RuleKind, RuleSet};
use crate::model::{Model, TypeDef};

/// Each opcode (with its sub-opcode selector) and the word it decodes as.
fn opcode_map(m: &Model) -> Vec<(String, &str)> {
    m.words()
        .filter_map(|w| {
            let o = w.opcode()?;
            let key = match &o.sub {
                Some(s) => format!("{:#04x} with {} = {}", o.value, s.field, s.value),
                None => format!("{:#04x}", o.value),
            };
            Some((key, w.name.as_str()))
        })
        .collect()
}

/// Opcodes a decoder now recognises or no longer does.
pub(super) fn opcodes(old: &Model, new: &Model) -> Vec<Change> {
    let item = Item {
        name: "OPCODE map",
        kind: "opcodes",
    };
    let (om, nm) = (opcode_map(old), opcode_map(new));
    let has = |map: &[(String, &str)], key: &str| map.iter().any(|(k, _)| k == key);
    let mut out = Vec::new();
    for (key, word) in nm.iter().filter(|(k, _)| !has(&om, k)) {
        let detail = format!("decodes as {word}; it decoded as no word");
        out.push(item.change(
            Some(key),
            Kind::OpcodeAdded,
            detail,
            Impact::Minor,
            Impact::Minor,
        ));
    }
    for (key, word) in om.iter().filter(|(k, _)| !has(&nm, k)) {
        let detail = format!("decoded as {word}; it decodes as no word");
        out.push(item.change(
            Some(key),
            Kind::OpcodeRemoved,
            detail,
            Impact::Major,
            Impact::Major,
        ));
    }
    out
}

/// A rule's body as the report shows it.
fn body(set: &RuleSet, r: &Rule) -> String {
    let ids = |parts: &[usize]| {
        let ids: Vec<&str> = parts
            .iter()
            .filter_map(|&i| set.rules.get(i))
            .map(|p| p.id.as_str())
            .collect();
        ids.join(", ")
    };
    match &r.kind {
        RuleKind::Expr { source, .. } => source.clone(),
        RuleKind::All { parts } => format!("all of [{}]", ids(parts)),
        RuleKind::Any { parts } => format!("any of [{}]", ids(parts)),
        RuleKind::NotEnforced => "(not enforced)".to_string(),
    }
}

/// Whether two rules test the same bytes the same way: their lowered expressions agree
/// but for the spelling of field paths (a renamed field).
fn same_meaning(a: &Rule, b: &Rule) -> bool {
    let lowered = |r: &Rule| match &r.kind {
        RuleKind::Expr { expr, .. } => shape(expr, &["path"]),
        _ => None,
    };
    lowered(a).is_some() && lowered(a) == lowered(b)
}

fn arch(r: &Rule) -> String {
    if r.arch.is_empty() {
        "all architectures".to_string()
    } else {
        r.arch.join(", ")
    }
}

/// What a new rule does.
fn rule_added(r: &Rule) -> (Impact, Impact, &'static str) {
    let why = match r.kind {
        RuleKind::NotEnforced => {
            "a new `RULES` entry (Rust) and `S_<rule id>` function (C); not enforced, so validate is unchanged"
        }
        _ => {
            "a new `RULES` entry (Rust) and `S_<rule id>` function (C); validate rejects words it accepted"
        }
    };
    (Impact::Minor, Impact::Minor, why)
}

const RULE_REMOVED: (Impact, Impact, &str) = (
    Impact::Minor,
    Impact::Major,
    "Rust: a `RULES` entry gone, validate accepts words it rejected; C: the `S_<rule id>` function and `S_RULE_<rule id>` macro are gone",
);

const RULE_CHANGED: &str = "validate accepts other words";

/// Rules added, removed or changed, per type of `news` that both specs have (an added or
/// removed type brings or takes its rules with it).
pub(super) fn rules(cx: &Cx, (old, new): (&Model, &Model), news: &[&TypeDef]) -> Vec<Change> {
    let mut out = Vec::new();
    // A type without rules has an empty set.
    let rules_of = |m: &'_ Model, name: &str| {
        let set = m.rules.sets.iter().find(|s| s.owner_name == name);
        set.cloned().unwrap_or(RuleSet {
            owner: 0,
            owner_name: name.to_string(),
            rules: Vec::new(),
        })
    };
    for t in news {
        if old.type_by_name(&t.name).is_none() {
            continue;
        }
        let (os, ns) = (rules_of(old, &t.name), rules_of(new, &t.name));
        let (old_rules, new_rules) = (&os.rules, &ns.rules);
        let item = Item {
            name: &t.name,
            kind: kind_of(t),
        };
        for n in new_rules {
            let member = format!("rule {}", n.id);
            let Some(o) = old_rules.iter().find(|o| o.id == n.id) else {
                out.push(item.because(Some(&member), Kind::RuleAdded, body(&ns, n), rule_added(n)));
                continue;
            };
            let mut changed = |what: &str, a: String, b: String, impact: Impact| {
                if a != b {
                    let detail = format!("{what}: {a} -> {b}");
                    let c = item.change(Some(&member), Kind::RuleChanged, detail, impact, impact);
                    let why = (impact == Impact::Minor).then_some(RULE_CHANGED);
                    out.push(Change { why, ..c });
                }
            };
            let meaning = if same_meaning(o, n) {
                Impact::Patch
            } else {
                Impact::Minor
            };
            changed("expression", body(&os, o), body(&ns, n), meaning);
            changed("arch", arch(o), arch(n), Impact::Minor);
            changed(
                "message",
                o.message.clone(),
                n.message.clone(),
                Impact::Patch,
            );
            let (oc, nc) = (cites(&o.evidence), cites(&n.evidence));
            for mut c in item.provenance(
                cx,
                Some(&member),
                (Some(&o.confidence), Some(&n.confidence)),
                (&oc, &nc),
            ) {
                if c.kind == Kind::ConfidenceLowered && !c.gates.is_empty() {
                    c.detail
                        .push_str("; under the gate, validate leaves it out");
                }
                out.push(c);
            }
        }
        for o in old_rules
            .iter()
            .filter(|o| new_rules.iter().all(|n| n.id != o.id))
        {
            let member = format!("rule {}", o.id);
            out.push(item.because(Some(&member), Kind::RuleRemoved, body(&os, o), RULE_REMOVED));
        }
    }
    out
}

/// `[[conflict]]`s recorded or resolved (documentation and `CONFLICTS` only).
pub(super) fn conflicts(old: &Model, new: &Model) -> Vec<Change> {
    let mut out = Vec::new();
    for (kind, a, b, verb) in [
        (Kind::ConflictNew, new, old, "recorded"),
        (Kind::ConflictResolved, old, new, "no longer recorded"),
    ] {
        for c in a
            .conflicts
            .iter()
            .filter(|c| b.conflicts.iter().all(|x| x.name != c.name))
        {
            let item = Item {
                name: &c.name,
                kind: "conflict",
            };
            let readings: Vec<&str> = c.readings.iter().map(|r| r.name.as_str()).collect();
            let detail = format!(
                "{verb}: about {}; readings {}",
                c.about.join(", "),
                readings.join(", ")
            );
            out.push(item.change(None, kind, detail, Impact::Patch, Impact::Patch));
        }
    }
    out
}

/// `[[gap]]`s added or resolved (documentation and `GAPS` only).
pub(super) fn gaps(old: &Model, new: &Model) -> Vec<Change> {
    let mut out = Vec::new();
    for g in new
        .gaps
        .iter()
        .filter(|g| old.gaps.iter().all(|x| x.name != g.name))
    {
        let item = Item {
            name: &g.name,
            kind: "gap",
        };
        let detail = format!("named by the sources, not laid out ({})", g.file);
        out.push(item.change(None, Kind::GapAdded, detail, Impact::Patch, Impact::Patch));
    }
    for g in old
        .gaps
        .iter()
        .filter(|g| new.gaps.iter().all(|x| x.name != g.name))
    {
        let item = Item {
            name: &g.name,
            kind: "gap",
        };
        // Laid out under its own name, or as the word bound to its opcode enumerator.
        let enumerator = g
            .opcode
            .as_ref()
            .map_or(g.name.as_str(), |o| o.enumerator.as_str());
        let laid_out = new.type_by_name(&g.name).or_else(|| {
            new.words()
                .find(|w| w.opcode().is_some_and(|o| o.enumerator == enumerator))
        });
        let now = match laid_out {
            Some(t) => format!("now laid out as {} `{}`", kind_of(t), t.name),
            None => "no longer listed".to_string(),
        };
        out.push(item.change(None, Kind::GapResolved, now, Impact::Patch, Impact::Patch));
    }
    out
}

/// Every address map's instances by name: `(base, what is in it)`, the slot's parts
/// written out so that a moved register file shows.
fn placed(m: &crate::model::addrmap::AddrMap) -> Vec<(String, u64, String)> {
    (m.instances().into_iter())
        .map(|i| {
            let parts: Vec<String> = (i.slot.parts.iter())
                .map(|p| format!("{}@{:#x}", p.name, p.offset))
                .collect();
            (i.name, i.base, parts.join(" "))
        })
        .collect()
}

/// Instances placed, removed or moved (another base or other contents): a removed or
/// moved instance breaks code built on its `_BASE`.
pub(super) fn addrmaps(old: &Model, new: &Model) -> Vec<Change> {
    let mut out = Vec::new();
    for n in &new.addrmaps {
        let item = Item {
            name: &n.arch,
            kind: "address map",
        };
        let before = (old.addrmaps.iter().find(|o| o.arch == n.arch)).map_or(Vec::new(), placed);
        let after = placed(n);
        for (name, base, parts) in &after {
            match before.iter().find(|(o, ..)| o == name) {
                None => {
                    let detail = format!("placed at {base:#x}");
                    out.push(item.change(
                        Some(name),
                        Kind::Added,
                        detail,
                        Impact::Minor,
                        Impact::Minor,
                    ));
                }
                Some((_, b, p)) if b != base || p != parts => {
                    let detail = format!("{b:#x} ({p}) -> {base:#x} ({parts})");
                    out.push(item.change(
                        Some(name),
                        Kind::Moved,
                        detail,
                        Impact::Major,
                        Impact::Major,
                    ));
                }
                Some(_) => {}
            }
        }
        for (name, base, _) in before
            .iter()
            .filter(|(o, ..)| after.iter().all(|(a, ..)| a != o))
        {
            let detail = format!("was at {base:#x}");
            out.push(item.change(
                Some(name),
                Kind::Removed,
                detail,
                Impact::Major,
                Impact::Major,
            ));
        }
    }
    for o in old
        .addrmaps
        .iter()
        .filter(|o| new.addrmaps.iter().all(|n| n.arch != o.arch))
    {
        let item = Item {
            name: &o.arch,
            kind: "address map",
        };
        let detail = format!("{} instances no longer placed", o.instances().len());
        out.push(item.change(None, Kind::Removed, detail, Impact::Major, Impact::Major));
    }
    out
}
