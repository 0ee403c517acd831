//! Pseudo-word lowerings compared by name, and their kinds (one per selector value) by
//! name. Impacts follow `emit/rust/lowering.rs`: every lowering is an entry of the slice
//! `LOWERINGS: &[LoweringMeta]` run by the runtime's one generic engine, so no item's type
//! changes with them; what changes is what `lower` writes for the same word (minor, as
//! another rule is for validate). The C headers hold no lowering: patch for C.

use super::change::{Change, Cx, Impact, Kind, shape};
use super::members::Item;
use crate::model::lowering::Lowering;

/// Keys that are provenance or place in the file, not what a lowering writes.
const NOT_BEHAVIOUR: &[&str] = &["line", "evidence", "confidence", "doc", "note", "inferred"];

const LOWERS: (Impact, Impact, &str) = (
    Impact::Minor,
    Impact::Patch,
    "Rust: a `LOWERINGS` entry; `lower` writes other words for the same input (no item's type changes); C: the C headers hold no lowering",
);

/// Lowerings added, removed or changed.
pub(super) fn lowerings(cx: &Cx, old: &[&Lowering], new: &[&Lowering]) -> Vec<Change> {
    let mut out = Vec::new();
    fn item(l: &Lowering) -> Item<'_> {
        Item {
            name: &l.name,
            kind: "lowering",
        }
    }
    for n in new {
        let Some(o) = old.iter().find(|o| o.name == n.name) else {
            let detail = format!(
                "lowering of {} ({} kinds, {})",
                n.from,
                n.kinds.len(),
                n.file
            );
            out.push(item(n).because(None, Kind::Added, detail, LOWERS));
            continue;
        };
        out.extend(matched(cx, &item(n), o, n));
    }
    for o in old.iter().filter(|o| new.iter().all(|n| n.name != o.name)) {
        let detail = format!("lowering of {} ({})", o.from, o.file);
        out.push(item(o).because(None, Kind::Removed, detail, LOWERS));
    }
    out
}

fn matched(cx: &Cx, item: &Item, o: &Lowering, n: &Lowering) -> Vec<Change> {
    let mut out = Vec::new();
    let spell = |l: &Lowering| {
        let abis: Vec<&str> = l.abis.iter().map(|a| a.name.as_str()).collect();
        format!(
            "from {} selected by {}, extension {}, ABIs {}",
            l.from,
            l.selector.path,
            l.extension.as_deref().unwrap_or("none"),
            abis.join(", ")
        )
    };
    if spell(o) != spell(n) {
        let detail = format!("{} -> {}", spell(o), spell(n));
        out.push(item.because(None, Kind::BehaviourChanged, detail, LOWERS));
    }
    if shape(&o.unsupported, NOT_BEHAVIOUR) != shape(&n.unsupported, NOT_BEHAVIOUR) {
        let detail = format!(
            "unsupported: {} -> {}",
            o.unsupported.message, n.unsupported.message
        );
        out.push(item.because(None, Kind::BehaviourChanged, detail, LOWERS));
    }
    for k in &n.kinds {
        let Some(ok) = o.kinds.iter().find(|x| x.name == k.name) else {
            let detail = format!("kind (= {:#x}, to {})", k.value, k.to);
            out.push(item.because(Some(&k.name), Kind::Added, detail, LOWERS));
            continue;
        };
        if shape(ok, NOT_BEHAVIOUR) != shape(k, NOT_BEHAVIOUR) {
            let detail = format!(
                "to {} with {} mappings (was to {} with {})",
                k.to,
                k.mappings.len(),
                ok.to,
                ok.mappings.len()
            );
            out.push(item.because(Some(&k.name), Kind::BehaviourChanged, detail, LOWERS));
        }
    }
    for k in o
        .kinds
        .iter()
        .filter(|k| n.kinds.iter().all(|x| x.name != k.name))
    {
        let detail = format!("kind (= {:#x}, to {})", k.value, k.to);
        out.push(item.because(Some(&k.name), Kind::Removed, detail, LOWERS));
    }
    if o.doc != n.doc {
        out.push(item.change(
            None,
            Kind::DocChanged,
            "doc".to_string(),
            Impact::Patch,
            Impact::Patch,
        ));
    }
    out.extend(item.told(
        cx,
        None,
        (&o.confidence, &o.evidence),
        (&n.confidence, &n.evidence),
    ));
    out
}
