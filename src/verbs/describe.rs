//! How `explain` writes a fact's evidence and its alternative readings, for words and
//! register files alike.

use std::fmt::Write as _;

use crate::runtime::meta::{Alternative, Evidence};

pub fn evidence_lines(ev: &[Evidence], out: &mut String) {
    for e in ev {
        let _ = writeln!(out, "    - {} [{}]", e.cite, e.confidence.tag);
        let details = [
            ("named", e.name),
            ("string", e.names),
            ("pinned by", e.pin),
            ("value from", e.value),
            ("note", e.note),
        ];
        for (label, v) in details {
            if let Some(v) = v {
                let _ = writeln!(out, "        {label}: {v}");
            }
        }
    }
}

pub fn alternative_lines(a: &Alternative, out: &mut String) {
    let ty = if a.type_name.is_empty() {
        String::new()
    } else {
        format!(" ({})", a.type_name)
    };
    let _ = writeln!(
        out,
        "  CONFLICT   also read as `{}`{ty} [{}]: {}",
        a.name, a.confidence.tag, a.doc
    );
    evidence_lines(a.evidence, out);
}
