//! Seed 003's KLR→BIR leaves, the op layouts they read and the tables they look up,
//! compared by name. Impacts follow `emit/rust/klr*.rs`: `klr::Op` is an exhaustive enum
//! with one variant per leaf and `LEAVES` a `[LeafMeta; N]` (a leaf added or removed is
//! major); each leaf is a `pub fn lower_<leaf>(&op, &mut Function)` whose steps decide the
//! node it builds (other steps are minor, as another rule is for validate); a klr-side
//! layout is an op struct with all-`pub` fields (a field added, removed or retyped is
//! major). The C headers hold nothing of the klr model: every change is patch for C.

use super::change::{Change, Cx, Impact, Kind, shape};
use super::members::Item;
use crate::model::klr::{KlrLeaf, KlrModel, KlrTable, Layout, Side};

/// Keys that are provenance or place in the file, not what a leaf does.
const NOT_BEHAVIOUR: &[&str] = &["line", "evidence", "confidence", "doc", "note", "inferred"];

const NO_C: &str = "the C headers hold no klr item";

const LEAF_ADDED: (Impact, Impact, &str) = (
    Impact::Major,
    Impact::Patch,
    "Rust: a new variant of the exhaustive `klr::Op` enum and another length of `LEAVES: [LeafMeta; N]`; C: the C headers hold no klr item",
);

/// Every klr change: leaves, then layouts, then tables.
pub(super) fn klr(cx: &Cx, old: &KlrModel, new: &KlrModel) -> Vec<Change> {
    let mut out = Vec::new();
    named(
        &old.leaves,
        &new.leaves,
        |l| &l.name,
        |o, n| match (o, n) {
            (Some(o), Some(n)) => out.extend(leaf(cx, o, n)),
            (None, Some(n)) => {
                let item = leaf_item(n);
                let detail = format!("klr leaf (op {}, {})", n.op, n.file);
                out.push(item.because(None, Kind::Added, detail, LEAF_ADDED));
            }
            (Some(o), None) => {
                let item = leaf_item(o);
                let detail = format!("klr leaf (op {}, {})", o.op, o.file);
                let gone = (Impact::Major, Impact::Patch, NO_C);
                out.push(item.because(None, Kind::Removed, detail, gone));
            }
            (None, None) => {}
        },
    );
    named(
        &old.layouts,
        &new.layouts,
        |l| &l.name,
        |o, n| {
            out.extend(layout(cx, o, n));
        },
    );
    named(
        &old.tables,
        &new.tables,
        |t| &t.name,
        |o, n| out.extend(table(cx, o, n)),
    );
    out
}

/// Calls `each` with every (old, new) pair by name: the new side's order, then the
/// removed ones.
fn named<'m, T>(
    old: &'m [T],
    new: &'m [T],
    name: impl Fn(&T) -> &String,
    mut each: impl FnMut(Option<&'m T>, Option<&'m T>),
) {
    for n in new {
        each(old.iter().find(|o| name(o) == name(n)), Some(n));
    }
    for o in old
        .iter()
        .filter(|o| new.iter().all(|n| name(n) != name(o)))
    {
        each(Some(o), None);
    }
}

fn leaf_item(l: &KlrLeaf) -> Item<'_> {
    Item {
        name: &l.name,
        kind: "klr leaf",
    }
}

/// A patch-level change of what the metadata says.
fn patch(item: &Item, member: Option<&str>, kind: Kind, detail: String) -> Change {
    Change {
        why: Some(NO_C),
        ..item.change(member, kind, detail, Impact::Patch, Impact::Patch)
    }
}

fn leaf(cx: &Cx, o: &KlrLeaf, n: &KlrLeaf) -> Vec<Change> {
    let item = leaf_item(n);
    let mut out = Vec::new();
    if o.op != n.op {
        let why = "Rust: the `klr::Op` variant holds another op struct; C: the C headers hold no klr item";
        let detail = format!("op {} -> {}", o.op, n.op);
        out.push(item.because(
            None,
            Kind::Retyped,
            detail,
            (Impact::Major, Impact::Patch, why),
        ));
    }
    if shape(&o.steps, NOT_BEHAVIOUR) != shape(&n.steps, NOT_BEHAVIOUR) {
        let why = "Rust: `lower_<leaf>` builds another node or error for the same op; C: the C headers hold no klr item";
        let detail = format!("steps ({} -> {})", o.steps.len(), n.steps.len());
        out.push(item.because(
            None,
            Kind::BehaviourChanged,
            detail,
            (Impact::Minor, Impact::Patch, why),
        ));
    }
    for (what, a, b) in [
        ("function", &o.function, &n.function),
        ("section", &o.section, &n.section),
        ("doc", &o.doc, &n.doc),
    ] {
        if a != b {
            out.push(patch(
                &item,
                None,
                Kind::DocChanged,
                format!("{what}: {a} -> {b}"),
            ));
        }
    }
    if o.va != n.va {
        out.push(patch(
            &item,
            None,
            Kind::DocChanged,
            format!("va: {:#x} -> {:#x}", o.va, n.va),
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

/// A layout added, removed or with fields changed; a klr-side layout is an op struct.
fn layout(cx: &Cx, o: Option<&Layout>, n: Option<&Layout>) -> Vec<Change> {
    let Some(l) = n.or(o) else {
        return Vec::new();
    };
    let item = Item {
        name: &l.name,
        kind: "klr layout",
    };
    let op = |l: &Layout| l.side == Side::Klr;
    let field_impact = if op(l) {
        (
            Impact::Major,
            Impact::Patch,
            "Rust: an op struct's fields are all `pub` (struct literals break); C: the C headers hold no klr item",
        )
    } else {
        (
            Impact::Patch,
            Impact::Patch,
            "a BIR-side layout is metadata (`LAYOUTS`) only",
        )
    };
    let (o, n) = match (o, n) {
        (Some(o), Some(n)) => (o, n),
        (None, Some(n)) => {
            let detail = format!("klr layout ({} fields)", n.fields.len());
            let why = "a new op or layout struct (Rust); C: the C headers hold no klr item";
            return vec![item.because(
                None,
                Kind::Added,
                detail,
                (Impact::Minor, Impact::Patch, why),
            )];
        }
        _ => {
            let detail = format!("klr layout ({} fields)", l.fields.len());
            return vec![item.because(
                None,
                Kind::Removed,
                detail,
                (Impact::Major, Impact::Patch, NO_C),
            )];
        }
    };
    let mut out = Vec::new();
    named(
        &o.fields,
        &n.fields,
        |f| &f.name,
        |of, nf| {
            let spell = |f: &crate::model::klr::LayoutField| {
                let input = f.input.map_or(String::new(), |i| format!(", {}", i.name()));
                format!("{}{input}", f.ty)
            };
            let (kind, detail) = match (of, nf) {
                (None, Some(f)) => (Kind::Added, format!("field ({})", spell(f))),
                (Some(f), None) => (Kind::Removed, format!("field ({})", spell(f))),
                (Some(a), Some(b)) if spell(a) != spell(b) => {
                    (Kind::Retyped, format!("{} -> {}", spell(a), spell(b)))
                }
                (Some(a), Some(b)) if (a.offset, a.size) != (b.offset, b.size) => {
                    let at =
                        |f: &crate::model::klr::LayoutField| format!("{:?}+{:?}", f.offset, f.size);
                    let detail = format!("offset+size {} -> {}", at(a), at(b));
                    out.push(patch(&item, Some(&b.name), Kind::Moved, detail));
                    return;
                }
                _ => return,
            };
            let name = nf.or(of).map(|f| f.name.as_str());
            out.push(item.because(name, kind, detail, field_impact));
        },
    );
    out.extend(item.told(
        cx,
        None,
        (&o.confidence, &o.evidence),
        (&n.confidence, &n.evidence),
    ));
    out
}

/// A table added, removed or with other entries.
fn table(cx: &Cx, o: Option<&KlrTable>, n: Option<&KlrTable>) -> Vec<Change> {
    let Some(t) = n.or(o) else {
        return Vec::new();
    };
    let item = Item {
        name: &t.name,
        kind: "klr table",
    };
    let why = "Rust: `klr::tables::<name>` and the leaves that read it; C: the C headers hold no klr item";
    match (o, n) {
        (Some(o), Some(n)) => {
            let mut out = Vec::new();
            if (&o.entries, o.out_of_range) != (&n.entries, n.out_of_range) {
                let detail = format!("entries {:?} -> {:?}", o.entries, n.entries);
                out.push(item.because(
                    None,
                    Kind::BehaviourChanged,
                    detail,
                    (Impact::Minor, Impact::Patch, why),
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
        (None, Some(_)) => {
            vec![item.because(
                None,
                Kind::Added,
                "klr table".to_string(),
                (Impact::Minor, Impact::Patch, why),
            )]
        }
        _ => vec![item.because(
            None,
            Kind::Removed,
            "klr table".to_string(),
            (Impact::Major, Impact::Patch, why),
        )],
    }
}
