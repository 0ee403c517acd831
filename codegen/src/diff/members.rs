//! The members of one item compared by name, with renames found by place and type: struct
//! fields, bitfield sub-fields, enumerators and flag bits all go through [`compare`].

use super::change::{Change, Cx, Impact, Kind, cites, missing};
use crate::model::{Confidence, Evidence};
use crate::naming::plural;

/// What kind of member, for its place's wording and its impacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// A struct, word, record or union-arm field: place = (offset, size in bytes).
    Field,
    /// A bitfield sub-field: place = (lsb, width).
    SubField,
    /// An enum's enumerator: place = (value, 0).
    Enumerator,
    /// A flags type's bit: place = (bit, 1).
    FlagBit,
}

impl Class {
    fn place(self, (at, len): (u64, u64)) -> String {
        match self {
            Class::Field => format!("offset {at}, {}", plural(len as usize, "byte")),
            Class::SubField if len == 1 => format!("bit {at}"),
            Class::SubField => format!("bits {at}..{}", at + len - 1),
            Class::Enumerator => format!("= {at:#x}"),
            Class::FlagBit => format!("bit {at}"),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Class::Field => "field",
            Class::SubField => "sub-field",
            Class::Enumerator => "enumerator",
            Class::FlagBit => "flag bit",
        }
    }
}

/// One member as the comparison sees it.
pub(super) struct Member<'m> {
    pub name: String,
    pub place: (u64, u64),
    /// The type as the spec spells it; empty for enumerators and flag bits.
    pub ty: String,
    /// `None` for a member that states none (an enumerator, a flag bit).
    pub confidence: Option<&'m Confidence>,
    pub cites: Vec<String>,
    /// The alternative readings' names (recorded disagreements about these bytes).
    pub alternatives: Vec<String>,
    /// Other names the C headers also define for it (an enumerator's aliases).
    pub aliases: Vec<String>,
}

/// The item the members belong to.
pub(super) struct Item<'a> {
    pub name: &'a str,
    pub kind: &'static str,
}

impl Item<'_> {
    pub(super) fn change(
        &self,
        member: Option<&str>,
        kind: Kind,
        detail: String,
        rust: Impact,
        c: Impact,
    ) -> Change {
        Change {
            item: self.name.to_string(),
            item_kind: self.kind,
            member: member.map(str::to_string),
            kind,
            detail,
            rust,
            c,
            why: None,
            gates: Vec::new(),
        }
    }

    /// [`Item::change`] with the reason for its impact.
    pub(super) fn because(
        &self,
        member: Option<&str>,
        kind: Kind,
        detail: String,
        (rust, c, why): (Impact, Impact, &'static str),
    ) -> Change {
        Change {
            why: Some(why),
            ..self.change(member, kind, detail, rust, c)
        }
    }

    /// [`Item::provenance`] of each side's confidence and evidence as the model holds them.
    pub(super) fn told(
        &self,
        cx: &Cx,
        member: Option<&str>,
        old: (&Confidence, &[Evidence]),
        new: (&Confidence, &[Evidence]),
    ) -> Vec<Change> {
        let (oc, nc) = (cites(old.1), cites(new.1));
        self.provenance(cx, member, (Some(old.0), Some(new.0)), (&oc, &nc))
    }

    /// The confidence and evidence changes of the item itself or of `member`.
    pub(super) fn provenance(
        &self,
        cx: &Cx,
        member: Option<&str>,
        confidence: (Option<&Confidence>, Option<&Confidence>),
        cites: (&[String], &[String]),
    ) -> Vec<Change> {
        let mut out = Vec::new();
        if let (Some(old), Some(new)) = confidence
            && let Some((kind, detail, gates)) = cx.confidence(old, new)
        {
            let mut c = self.change(member, kind, detail, Impact::Patch, Impact::Patch);
            c.gates = gates;
            out.push(c);
        }
        for (kind, a, b) in [
            (Kind::EvidenceAdded, cites.1, cites.0),
            (Kind::EvidenceDropped, cites.0, cites.1),
        ] {
            let list = missing(a, b);
            if !list.is_empty() {
                out.push(self.change(member, kind, list.join("; "), Impact::Patch, Impact::Patch));
            }
        }
        out
    }
}

/// What adding a member of `class` does to (Rust, C), and why.
fn added(class: Class) -> (Impact, Impact, &'static str) {
    match class {
        Class::Field | Class::SubField => (
            Impact::Major,
            Impact::Minor,
            "Rust: a new pub field of a struct whose fields are all pub breaks struct literals; C: a new member",
        ),
        Class::Enumerator => (
            Impact::Minor,
            Impact::Minor,
            "Rust: a new associated constant (a value that had no name now has one); C: a new enumerator",
        ),
        Class::FlagBit => (
            Impact::Minor,
            Impact::Minor,
            "a new associated constant / macro",
        ),
    }
}

/// A rename whose old name C still defines.
const KEPT_IN_C: &str = "Rust: the old name is gone; C: the old name stays an alias";

/// Compares `old` with `new` members of `item`.
pub(super) fn compare(
    cx: &Cx,
    item: &Item,
    class: Class,
    old: &[Member],
    new: &[Member],
) -> Vec<Change> {
    let mut out = Vec::new();
    let mut gone: Vec<&Member> = old
        .iter()
        .filter(|o| new.iter().all(|n| n.name != o.name))
        .collect();
    let noun = class.noun();
    for n in new {
        let Some(o) = old.iter().find(|o| o.name == n.name) else {
            // Same place and type under another name, or the old name kept as an alias.
            let renamed = gone.iter().position(|o| {
                n.aliases.contains(&o.name) || (o.place == n.place && cx.spelled_now(&o.ty) == n.ty)
            });
            if let Some(i) = renamed {
                let o = gone.remove(i);
                let detail = format!(
                    "{noun} `{}` -> `{}` ({})",
                    o.name,
                    n.name,
                    class.place(n.place)
                );
                let change = if n.aliases.contains(&o.name) {
                    item.because(
                        Some(&n.name),
                        Kind::Renamed,
                        detail,
                        (Impact::Major, Impact::Minor, KEPT_IN_C),
                    )
                } else {
                    item.change(
                        Some(&n.name),
                        Kind::Renamed,
                        detail,
                        Impact::Major,
                        Impact::Major,
                    )
                };
                out.push(change);
                out.extend(matched(cx, item, class, o, n));
                continue;
            }
            let ty = if n.ty.is_empty() {
                String::new()
            } else {
                format!(", {}", n.ty)
            };
            let detail = format!("{noun} ({}{ty})", class.place(n.place));
            out.push(item.because(Some(&n.name), Kind::Added, detail, added(class)));
            continue;
        };
        out.extend(matched(cx, item, class, o, n));
    }
    for o in gone {
        let ty = if o.ty.is_empty() {
            String::new()
        } else {
            format!(", {}", o.ty)
        };
        let detail = format!("{noun} ({}{ty})", class.place(o.place));
        out.push(item.change(
            Some(&o.name),
            Kind::Removed,
            detail,
            Impact::Major,
            Impact::Major,
        ));
    }
    out
}

/// The changes of a member both sides have.
fn matched(cx: &Cx, item: &Item, class: Class, o: &Member, n: &Member) -> Vec<Change> {
    let mut out = Vec::new();
    let name = Some(n.name.as_str());
    let major = |kind, detail| item.change(name, kind, detail, Impact::Major, Impact::Major);
    if o.place.0 != n.place.0 {
        let kind = match class {
            Class::Enumerator | Class::FlagBit => Kind::Renumbered,
            Class::Field | Class::SubField => Kind::Moved,
        };
        out.push(major(
            kind,
            format!("{} -> {}", class.place(o.place), class.place(n.place)),
        ));
    }
    if o.place.1 != n.place.1 {
        let types = if cx.spelled_now(&o.ty) != n.ty {
            format!(" ({} -> {})", o.ty, n.ty)
        } else {
            String::new()
        };
        out.push(major(
            Kind::Resized,
            format!(
                "{} -> {}{types}",
                class.place(o.place),
                class.place(n.place)
            ),
        ));
    } else if cx.spelled_now(&o.ty) != n.ty {
        out.push(major(Kind::Retyped, format!("{} -> {}", o.ty, n.ty)));
    }
    out.extend(item.provenance(cx, name, (o.confidence, n.confidence), (&o.cites, &n.cites)));
    for (kind, a, b) in [
        (Kind::ConflictNew, &n.alternatives, &o.alternatives),
        (Kind::ConflictResolved, &o.alternatives, &n.alternatives),
    ] {
        for alt in missing(a, b) {
            let detail = format!("alternative reading `{alt}`");
            out.push(item.change(name, kind, detail, Impact::Patch, Impact::Patch));
        }
    }
    out
}
