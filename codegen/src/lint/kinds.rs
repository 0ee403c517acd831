//! What the evidence lints judge of every kind of the registry
//! ([`crate::model::kinds`]): a kind without an [`Evidenced`] implementation does not
//! compile in [`super::evidence::fields`].

use crate::model::kinds::*;
use crate::schema::words::{RawField, RawStruct};
use serde_spanned::Spanned;

use crate::schema::{RawAllow, RawEvidence, RawFile};

/// A data member as written: what it is, where its name is, what it cites, what it allows.
pub(crate) struct Member<'a> {
    /// `field`, `register field`, `register`, `bundle`, `register file`.
    pub(crate) what: &'static str,
    pub(crate) name: &'a Spanned<String>,
    pub(crate) evidence: &'a [RawEvidence],
    pub(crate) allow: &'a RawAllow,
    pub(crate) data: bool,
}

/// A part that leans on its container's evidence (a bitfield sub-field, a register
/// field): what it is, its container's name and the allows that may excuse it.
pub(crate) struct Leaning<'a> {
    pub(crate) what: &'static str,
    pub(crate) name: &'a Spanned<String>,
    pub(crate) container: &'a str,
    pub(crate) allow: &'a RawAllow,
    /// The container's allows, where they cover its parts.
    pub(crate) container_allow: Option<&'a RawAllow>,
}

/// The members of a kind, as one spec file declares them, that the evidence lints read.
pub(crate) trait Evidenced: Kind {
    /// Pushes the kind's data members in `raw` onto `members` (judged by
    /// `evidence_without_section`) and its parts without evidence of their own onto
    /// `leaning` (`field_without_evidence`).
    fn members<'a>(raw: &'a RawFile, members: &mut Vec<Member<'a>>, leaning: &mut Vec<Leaning<'a>>);
}

/// Collects every listed kind's members of `$raw`.
macro_rules! evidenced {
    (($raw:expr, $members:expr, $leaning:expr) $($kind:ty),*) => {
        $( <$kind as $crate::lint::kinds::Evidenced>::members($raw, &mut $members, &mut $leaning); )*
    };
}
pub(crate) use evidenced;

fn field(f: &RawField) -> Member<'_> {
    Member {
        what: "field",
        name: &f.name,
        evidence: &f.evidence,
        allow: &f.allow,
        data: !f.reserved && !f.unknown,
    }
}

fn struct_fields<'a>(
    raw: &'a RawFile,
    keep: fn(&RawStruct) -> bool,
    members: &mut Vec<Member<'a>>,
) {
    for s in raw.structs.iter().filter(|s| keep(s)) {
        members.extend(s.field.iter().map(field));
    }
}

fn is_word(s: &RawStruct) -> bool {
    s.opcode.is_some()
}

fn is_record(s: &RawStruct) -> bool {
    !is_word(s) && s.top_level.as_ref().is_some_and(|t| *t.get_ref())
}

impl Evidenced for Words {
    fn members<'a>(raw: &'a RawFile, members: &mut Vec<Member<'a>>, _: &mut Vec<Leaning<'a>>) {
        struct_fields(raw, is_word, members);
    }
}

impl Evidenced for Records {
    fn members<'a>(raw: &'a RawFile, members: &mut Vec<Member<'a>>, _: &mut Vec<Leaning<'a>>) {
        struct_fields(raw, is_record, members);
    }
}

impl Evidenced for SharedTypes {
    fn members<'a>(
        raw: &'a RawFile,
        members: &mut Vec<Member<'a>>,
        leaning: &mut Vec<Leaning<'a>>,
    ) {
        struct_fields(raw, |s| !is_word(s) && !is_record(s), members);
        for u in &raw.union {
            members.push(field(&u.discriminator));
            members.extend(u.variant.iter().flat_map(|v| &v.field).map(field));
        }
        for b in &raw.bitfield {
            for f in &b.fields {
                let m = Member {
                    what: "field",
                    name: &f.name,
                    evidence: &f.evidence,
                    allow: &f.allow,
                    data: !f.reserved && !f.unknown,
                };
                if m.data && m.evidence.is_empty() {
                    leaning.push(Leaning {
                        what: "sub-field",
                        name: &f.name,
                        container: b.name.get_ref(),
                        allow: &f.allow,
                        container_allow: None,
                    });
                }
                members.push(m);
            }
        }
    }
}

/// Whether an evidence record quotes or notes `name` as a word of its own (a register's
/// row that lists its fields: `val[23:0]`).
fn names(e: &RawEvidence, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    [&e.names, &e.note, &e.name]
        .into_iter()
        .flatten()
        .any(|text| {
            text.match_indices(name).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + name.len()..].chars().next();
                !before.is_some_and(ident) && !after.is_some_and(ident)
            })
        })
}

impl Evidenced for RegFiles {
    fn members<'a>(
        raw: &'a RawFile,
        members: &mut Vec<Member<'a>>,
        leaning: &mut Vec<Leaning<'a>>,
    ) {
        for file in &raw.regfile {
            members.push(Member {
                what: "register file",
                name: &file.name,
                evidence: &file.evidence,
                allow: &file.allow,
                data: true,
            });
            for b in &file.bundle {
                members.push(Member {
                    what: "bundle",
                    name: &b.name,
                    evidence: &b.evidence,
                    allow: &b.allow,
                    data: true,
                });
                for r in &b.register {
                    members.push(Member {
                        what: "register",
                        name: &r.name,
                        evidence: &r.evidence,
                        allow: &r.allow,
                        data: true,
                    });
                    for f in &r.field {
                        members.push(Member {
                            what: "register field",
                            name: &f.name,
                            evidence: &f.evidence,
                            allow: &f.allow,
                            data: true,
                        });
                        // A field the register's own rows name is cited with it.
                        let named = r.evidence.iter().any(|e| names(e, f.name.get_ref()));
                        if f.evidence.is_empty() && !named {
                            leaning.push(Leaning {
                                what: "register field",
                                name: &f.name,
                                container: r.name.get_ref(),
                                allow: &f.allow,
                                container_allow: Some(&r.allow),
                            });
                        }
                    }
                }
            }
        }
    }
}

/// Leaves, lowerings, conflicts, gaps and address maps cite per step, mapping, reading,
/// gap or window, not per field, and have no parts that lean on a container's evidence: the field lints' questions
/// (which row states this field; does it cite its own) are not asked of them.
macro_rules! nothing_to_judge {
    ($($kind:ty),*) => {
        $(
            impl Evidenced for $kind {
                fn members<'a>(_: &'a RawFile, _: &mut Vec<Member<'a>>, _: &mut Vec<Leaning<'a>>) {}
            }
        )*
    };
}
nothing_to_judge!(KlrLeaves, Lowerings, Conflicts, Gaps, AddrMaps);
