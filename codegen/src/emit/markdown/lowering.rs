//! The lowerings in the Markdown docs: `docs/lowering.md`, one section per `[[lowering]]`
//! with its dispatchers, the errors the runtime reports, a kinds overview and, per kind,
//! every field mapping with its confidence — the ones the sources do not state marked
//! **INFERRED** with their note.

use std::fmt::Write as _;

use super::pages::Pages;
use super::util::{Loc, code, para, prose, text};
use crate::model::Confidence;
use crate::model::lowering::*;

/// The page's path under `generated/`.
pub(super) const PAGE: &str = "docs/lowering.md";

fn tag(c: &Confidence, inferred: bool) -> String {
    if inferred {
        format!("**INFERRED**<br>{}<br>*{}*", text(&c.tag), text(&c.level))
    } else {
        format!("{}<br>*{}*", text(&c.tag), text(&c.level))
    }
}

fn tag_inline(c: &Confidence, inferred: bool) -> String {
    if inferred {
        format!("**INFERRED** ({})", text(&c.tag))
    } else {
        text(&c.tag)
    }
}

fn place_cell(p: &Place, ext: bool) -> String {
    let path = if ext {
        format!("ext.{}", p.path)
    } else {
        p.path.clone()
    };
    let at = match p.bits {
        Some((lsb, 1)) => format!("+{} bit {lsb}", p.offset),
        Some((lsb, w)) => format!("+{} bits {lsb}..{}", p.offset, lsb + w - 1),
        None => format!("+{}", p.offset),
    };
    format!(
        "{}<br>{} · {}",
        code(&path, true),
        text(&at),
        code(&p.type_name, true)
    )
}

fn word_link(cx: &Pages<'_>, name: &str) -> String {
    match cx.model.words().find(|w| w.name == name) {
        Some(w) => cx.word_link(w, Loc::Top),
        None => code(name, false),
    }
}

fn message(cx: &Pages<'_>, m: &Message, value: Option<&str>, out: &mut String) {
    let _ = writeln!(
        out,
        "{} — {}",
        code(&m.message, false),
        tag_inline(&m.confidence, m.inferred)
    );
    if let Some(v) = value {
        let _ = writeln!(out, "({})", prose(v, false));
    }
    if let Some(n) = &m.note {
        let _ = writeln!(out, "\n{}", para(n));
    }
    out.push('\n');
    cx.evidence_list(&m.evidence, out);
    out.push('\n');
}

/// The anchor of a kind's section (its heading as [`kind_section`] writes it).
pub(super) fn kind_anchor(l: &Lowering, k: &Kind) -> String {
    super::util::slug(&format!(
        "{} {} ({}) → {} (0x{:02X})",
        l.selector.path, k.value, k.name, k.to, k.to_opcode
    ))
}

fn kind_section(cx: &Pages<'_>, l: &Lowering, k: &Kind, out: &mut String) {
    let _ = writeln!(
        out,
        "### {} {} ({}) → {} (`0x{:02X}`)\n",
        text(&l.selector.path),
        k.value,
        text(&k.name),
        text(&k.to),
        k.to_opcode
    );
    let _ = writeln!(out, "{}\n", para(&k.doc));
    let _ = writeln!(
        out,
        "Real word: {}. Extension: {}. Starts from the real word's template (opcode and \
         constants, zero elsewhere), then applies the mappings below in order.\n",
        word_link(cx, &k.to),
        match k.extension {
            ExtensionUse::Required => "**required** right after the pseudo",
            ExtensionUse::Ignored => "not read (one that follows is consumed with the pseudo)",
        }
    );
    out.push_str("Routes:\n\n");
    for r in &k.routes {
        let via: Vec<String> = r.via.iter().map(|f| code(f, false)).collect();
        let _ = write!(
            out,
            "- `{}`: {} — {}",
            r.abi,
            via.join(" → "),
            tag_inline(&r.confidence, r.inferred)
        );
        if let Some(n) = &r.note {
            let _ = write!(out, ". {}", prose(n, false));
        }
        let cites: Vec<String> = r
            .evidence
            .iter()
            .map(|e| cx.evidence_one(e, false))
            .collect();
        let _ = writeln!(out, "<br>{}", cites.join("<br>"));
    }
    out.push('\n');
    if let Some(m) = &k.missing_extension {
        out.push_str("Missing extension: ");
        message(cx, m, None, out);
    }
    let inferred = k.mappings.iter().filter(|m| m.inferred).count();
    let _ = writeln!(
        out,
        "{} mappings, {} of them **INFERRED** (not stated by the sources).\n",
        k.mappings.len(),
        inferred
    );
    cx.table_head(
        &[
            "Target field",
            "From",
            "Via",
            "Confidence",
            "Evidence",
            "Note",
        ],
        out,
    );
    for m in &k.mappings {
        let from = match &m.source {
            Operand::Pseudo { place } => place_cell(place, false),
            Operand::Ext { place } => place_cell(place, true),
            Operand::Value { value } => format!("constant {}", code(&format!("{value:#x}"), true)),
        };
        cx.row(
            &[
                place_cell(&m.to, false),
                from,
                code(m.via.name(), true),
                tag(&m.confidence, m.inferred),
                cx.evidence_cell(&m.evidence),
                m.note.as_deref().map_or("—".into(), text),
            ],
            out,
        );
    }
    out.push('\n');
    let list = |items: &[String]| {
        items
            .iter()
            .map(|s| code(s, false))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !k.unread.is_empty() {
        let _ = writeln!(out, "Not read by any mapping: {}.\n", list(&k.unread));
    }
    if k.unmapped.is_empty() {
        out.push_str("Every data field of the real word is written by a mapping.\n\n");
    } else {
        let _ = writeln!(
            out,
            "Left at the template's value (no mapping writes them): {}.\n",
            list(&k.unmapped)
        );
    }
}

pub(super) fn page(cx: &Pages<'_>) -> String {
    let m = cx.model;
    let mut out = String::from(super::pages::BANNER);
    out.push_str("# Lowering: pseudo words to real words\n\n");
    let _ = writeln!(
        out,
        "{} **INFERRED** {}\n",
        para(
            "How the host runtime turns the compiler's pseudo words into the real words the \
             hardware executes, declared in the spec (`spec/lowering/`, `[[lowering]]`) and \
             generated into Rust (`dmaspec::words::LOWERINGS`, applied by \
             `dmaspec::runtime::lowering::apply` and `dmaspec lower`) and this page. Per \
             selector value: the real word, how each dispatcher version reaches its builder, \
             and where each field of the real word comes from. A mapping the sources state \
             carries their tag and citation; a mapping they do not state (the translator \
             bodies are not decoded line by line) is marked"
        ),
        prose(
            "and its note says what it is inferred from — do not mistake it for observed \
             behaviour. Evidence records show the tag of the fact they cite; the mapping's own \
             tag is in the Confidence column.",
            false
        )
    );
    if m.lowerings.is_empty() {
        out.push_str("*The spec declares no lowering.*\n");
        return out;
    }
    for l in &m.lowerings {
        let _ = writeln!(
            out,
            "## {}: {} → by {}\n",
            text(&l.name),
            text(&l.from),
            text(&l.selector.path)
        );
        let _ = writeln!(out, "{}\n", para(&l.doc));
        let ext = l
            .extension
            .as_deref()
            .map_or("none".to_string(), |e| word_link(cx, e));
        let _ = writeln!(
            out,
            "Pseudo: {} (`0x{:02X}`). Selector: {}. Extension: {} (positional: only the \
             word right after the pseudo). Declared in `{}` line {}. Confidence: {}.\n",
            word_link(cx, &l.from),
            l.from_opcode,
            place_cell(&l.selector, false).replace("<br>", " "),
            ext,
            l.file,
            l.line,
            text(&l.confidence.tag)
        );
        cx.evidence_list(&l.evidence, &mut out);
        out.push('\n');

        out.push_str("### Dispatchers\n\n");
        cx.table_head(
            &[
                "ABI",
                "Entry",
                "Default",
                "What it does",
                "Confidence",
                "Evidence",
            ],
            &mut out,
        );
        for a in &l.abis {
            let mut doc = text(&a.doc);
            if let Some(n) = &a.note {
                let _ = write!(doc, "<br>{}", text(n));
            }
            cx.row(
                &[
                    code(&a.name, true),
                    code(&a.entry, true),
                    if a.default { "yes" } else { "" }.to_string(),
                    doc,
                    tag(&a.confidence, a.inferred),
                    cx.evidence_cell(&a.evidence),
                ],
                &mut out,
            );
        }
        out.push('\n');

        out.push_str("### Kinds\n\n");
        let mut cols = vec!["Value", "Enumerator", "Real word", "Extension"];
        let abi_cols: Vec<String> = l
            .abis
            .iter()
            .map(|a| format!("Route ({})", a.name))
            .collect();
        cols.extend(abi_cols.iter().map(String::as_str));
        cols.push("INFERRED mappings");
        cx.table_head(&cols, &mut out);
        for k in &l.kinds {
            let mut cells = vec![
                k.value.to_string(),
                code(&k.name, true),
                format!(
                    "[{}](#{}) `0x{:02X}`",
                    text(&k.to),
                    kind_anchor(l, k),
                    k.to_opcode
                ),
                match k.extension {
                    ExtensionUse::Required => "required".into(),
                    ExtensionUse::Ignored => "not read".into(),
                },
            ];
            for a in &l.abis {
                let r = k.routes.iter().find(|r| r.abi == a.name);
                cells.push(r.map_or("—".into(), |r| {
                    let via: Vec<String> = r.via.iter().map(|f| code(f, true)).collect();
                    format!(
                        "{}<br>{}",
                        via.join(" →<br>"),
                        tag_inline(&r.confidence, r.inferred)
                    )
                }));
            }
            cells.push(format!(
                "{} of {}",
                k.mappings.iter().filter(|m| m.inferred).count(),
                k.mappings.len()
            ));
            cx.row(&cells, &mut out);
        }
        out.push('\n');

        out.push_str("### Errors\n\n");
        out.push_str("Any selector value no kind handles: ");
        message(
            cx,
            &l.unsupported,
            Some("`%u` is the selector value"),
            &mut out,
        );
        for k in &l.kinds {
            if let Some(mx) = &k.missing_extension {
                let _ = write!(out, "{} without its extension: ", text(&k.name));
                message(cx, mx, None, &mut out);
            }
        }

        for k in &l.kinds {
            kind_section(cx, l, k, &mut out);
        }
    }
    out
}
