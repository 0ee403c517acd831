//! `dmaspec explain OPCODE|STRUCT|STRUCT.FIELD`: what the spec knows about a word or a
//! field — offsets, bits, types, enumerators, confidence, every evidence record and every
//! conflicting reading. What a reverse engineer keeps open next to a hex dump.

use std::fmt::Write as _;

use dmaspec::WordMeta;
use dmaspec::runtime::meta::{Alternative, Codec, Evidence, LeafMeta, Role};
use dmaspec::runtime::rules::{RuleKind, RuleMeta};
use dmaspec::words::{WORDS, enumerators, flag_bits};

use super::CliError;

/// Resolves the query and renders the explanation.
pub fn explain(query: &str) -> Result<String, CliError> {
    let (word_part, field_part) = match query.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (query, None),
    };
    let words = find_words(word_part);
    let Some(first) = words.first() else {
        let names: Vec<&str> = WORDS.iter().map(|w| w.name).collect();
        return Err(CliError::Usage(format!(
            "`{word_part}` is neither an opcode nor a word (words: {})",
            names.join(", ")
        )));
    };
    let Some(field) = field_part else {
        return Ok(words
            .iter()
            .map(|w| word_text(w))
            .collect::<Vec<_>>()
            .join("\n"));
    };
    // A path names one leaf, or every leaf below it (`flags` -> `flags.*`).
    let leaves: Vec<&LeafMeta> = first
        .leaves
        .iter()
        .filter(|l| {
            l.path == field
                || l.path.starts_with(&format!("{field}."))
                || l.path.starts_with(&format!("{field}["))
        })
        .collect();
    if leaves.is_empty() {
        let paths: Vec<&str> = first.leaves.iter().map(|l| l.path).collect();
        return Err(CliError::Usage(format!(
            "{} has no field `{field}` (fields: {})",
            first.name,
            paths.join(", ")
        )));
    }
    let mut out = String::new();
    for l in leaves {
        out.push_str(&leaf_text(first, l));
        out.push('\n');
    }
    Ok(out)
}

/// Words named `q`, or bound to opcode `q` (`0xd4`, `212`) in any architecture.
fn find_words(q: &str) -> Vec<&'static WordMeta> {
    let opcode = q
        .strip_prefix("0x")
        .or_else(|| q.strip_prefix("0X"))
        .map_or_else(|| q.parse::<u8>().ok(), |h| u8::from_str_radix(h, 16).ok());
    WORDS
        .iter()
        .filter(|w| w.name.eq_ignore_ascii_case(q) || Some(w.opcode) == opcode)
        .collect()
}

fn word_text(w: &WordMeta) -> String {
    let mut out = String::new();
    let archs: Vec<&str> = w.arch.iter().map(|a| a.name()).collect();
    let _ = writeln!(out, "{} — {}", w.name, w.c_name);
    let _ = writeln!(
        out,
        "opcode {:#04x} ({}{}), on {}",
        w.opcode,
        w.opcode_enumerator,
        opcode_aliases(w.opcode_enumerator),
        archs.join(", ")
    );
    if let Some(f) = w.follows {
        let _ = writeln!(out, "must immediately follow {f} (positional extension)");
    }
    let _ = writeln!(out, "{}\n", w.doc);
    let rows: Vec<[String; 5]> = w
        .leaves
        .iter()
        .map(|l| {
            [
                at(l),
                l.path.to_string(),
                l.type_name.to_string(),
                l.field.confidence.tag.to_string(),
                marks(l),
            ]
        })
        .collect();
    let header = ["offset", "field", "type", "confidence", "notes"].map(String::from);
    out.push_str(&super::table::render_columns(&header, &rows));
    out
}

fn opcode_aliases(enumerator: &str) -> String {
    let aliases: Vec<&str> = enumerators("OPCODE")
        .unwrap_or(&[])
        .iter()
        .filter(|e| e.name == enumerator)
        .flat_map(|e| e.aliases.iter().copied())
        .collect();
    if aliases.is_empty() {
        String::new()
    } else {
        format!(", also spelled {}", aliases.join(", "))
    }
}

fn at(l: &LeafMeta) -> String {
    match l.bits {
        Some((lsb, 1)) => format!("+{:#04x} b{lsb}", l.offset),
        Some((lsb, w)) => format!("+{:#04x} b{lsb}..{}", l.offset, lsb + w - 1),
        None => format!("+{:#04x}", l.offset),
    }
}

/// Short flags for the word table.
fn marks(l: &LeafMeta) -> String {
    let f = l.field;
    let mut m = Vec::new();
    match f.role {
        Role::Reserved => m.push("reserved".to_string()),
        Role::Unknown => m.push("UNKNOWN".to_string()),
        Role::Data => {}
    }
    if let Some(v) = l.variant {
        m.push(format!("arm {v}"));
    }
    if let Some(c) = f.constant {
        m.push(format!("const {c:#x}"));
    }
    if let Some(Codec::ZeroMeans(v)) = f.codec {
        m.push(format!("0 means {v}"));
    }
    for a in f.alternatives {
        m.push(format!("CONFLICT: {}", a.name));
    }
    m.join("; ")
}

fn leaf_text(w: &WordMeta, l: &LeafMeta) -> String {
    let f = l.field;
    let mut out = String::new();
    let _ = writeln!(out, "{}.{}", w.name, l.path);
    let _ = writeln!(
        out,
        "  at        {} ({} byte{}{})",
        at(l),
        l.size,
        if l.size == 1 { "" } else { "s" },
        l.variant
            .map_or(String::new(), |v| format!(", union arm {v}"))
    );
    let _ = writeln!(out, "  type      {}", f.type_name);
    if !f.doc.is_empty() {
        let _ = writeln!(out, "  meaning   {}", f.doc);
    }
    match f.role {
        Role::Reserved => {
            let _ = writeln!(out, "  role      reserved");
        }
        Role::Unknown => {
            let _ = writeln!(
                out,
                "  role      unknown: no source gives a meaning; kept raw"
            );
        }
        Role::Data => {}
    }
    if let Some(c) = f.constant {
        let _ = writeln!(
            out,
            "  constant  {c:#x} (encode writes it; decode reports a mismatch)"
        );
    }
    if let Some(Codec::ZeroMeans(v)) = f.codec {
        let _ = writeln!(out, "  codec     stored 0 means {v}");
    }
    let _ = writeln!(
        out,
        "  confidence {} ({}, scale {})",
        f.confidence.tag, f.confidence.level, f.confidence.scale
    );
    let base = f.type_name.split('[').next().unwrap_or(f.type_name);
    if let Some(values) = enumerators(base) {
        let _ = writeln!(out, "  enumerators");
        for e in values {
            let mut line = format!("    {:#x} {} ({})", e.value, e.name, e.c_name);
            if !e.aliases.is_empty() {
                let _ = write!(line, ", also {}", e.aliases.join(", "));
            }
            if !e.arch.is_empty() {
                let _ = write!(line, ", only on {}", e.arch.join(", "));
            }
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(bits) = flag_bits(base) {
        let _ = writeln!(out, "  flags");
        for b in bits {
            let _ = writeln!(
                out,
                "    bit {} ({:#04x}) {}: {}",
                b.bit,
                1u64 << b.bit,
                b.name,
                b.doc
            );
        }
    }
    let _ = writeln!(out, "  evidence");
    evidence_lines(f.evidence, &mut out);
    for a in f.alternatives {
        alternative_lines(a, &mut out);
    }
    let reading: Vec<&RuleMeta> = rules_of(w)
        .iter()
        .filter(|r| r.fields.iter().any(|p| reads(p, l.path)))
        .collect();
    if !reading.is_empty() {
        let all = rules_of(w);
        let parts = |r: &RuleMeta| -> String {
            let ids: Vec<&str> = r
                .parts
                .iter()
                .filter_map(|&i| all.get(i))
                .map(|p| p.id)
                .collect();
            ids.join(", ")
        };
        let _ = writeln!(out, "  rules that read it");
        for r in reading {
            let how = match (r.kind, r.expr) {
                (RuleKind::NotEnforced, _) => "not enforced: the sources give no body".to_string(),
                (RuleKind::All, _) => format!("all of: {}", parts(r)),
                (RuleKind::Any, _) => format!("any of: {}", parts(r)),
                (_, Some(e)) => e.to_string(),
                (_, None) => String::new(),
            };
            let _ = writeln!(out, "    - {} [{}] {how}", r.id, r.confidence.tag);
            if !r.message.is_empty() {
                let _ = writeln!(out, "        message: {}", r.message);
            }
        }
    }
    out
}

/// The word's validity rules (the generated code hangs them on the decoded word).
fn rules_of(w: &WordMeta) -> &'static [RuleMeta] {
    w.arch
        .first()
        .and_then(|&a| dmaspec::Word::decode(w.template, a))
        .map_or(&[], |word| word.rules())
}

/// Whether a rule reading `field` reads the leaf at `leaf` (or the field contains it).
fn reads(field: &str, leaf: &str) -> bool {
    let under = |a: &str, b: &str| {
        a == b || a.starts_with(&format!("{b}.")) || a.starts_with(&format!("{b}["))
    };
    under(leaf, field) || under(field, leaf)
}

fn evidence_lines(ev: &[Evidence], out: &mut String) {
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

fn alternative_lines(a: &Alternative, out: &mut String) {
    let _ = writeln!(
        out,
        "  CONFLICT   also read as `{}` ({}) [{}]: {}",
        a.name, a.type_name, a.confidence.tag, a.doc
    );
    evidence_lines(a.evidence, out);
}
