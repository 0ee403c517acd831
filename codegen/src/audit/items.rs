//! Which spec item a table describes. The headings above it name words, structs, aliases,
//! opcode enumerators or opcodes; the spec's evidence cites tie items to the page's
//! sections. Of the candidates the nearest heading yields, the one whose members the rows
//! match best wins.

use super::markdown::{CAPTION, Heading};
use crate::model::{Evidence, Model, TypeDef, TypeKind, section_key};

/// `NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT` and `dma_direct2d` both as `DMA_DIRECT2D`.
fn key(name: &str) -> String {
    let up = name.to_ascii_uppercase();
    let up = up.strip_prefix("NEURON_ISA_TPB_").unwrap_or(&up);
    up.strip_suffix("_STRUCT").unwrap_or(up).to_string()
}

/// The names an item goes by, as [`key`]s.
fn item_keys(model: &Model, t: &TypeDef) -> Vec<String> {
    let mut names = vec![t.name.clone(), t.c_name.clone()];
    if let TypeKind::Struct { aliases, .. } = &t.kind {
        names.extend(
            aliases
                .iter()
                .flat_map(|a| [a.name.clone(), a.c_name.clone()]),
        );
    }
    if let Some(e) = model.opcode_enumerator(t) {
        names.push(e.name.clone());
        names.extend(e.aliases.iter().map(|a| a.name.clone()));
    }
    names.iter().map(|n| key(n)).collect()
}

/// The identifiers a heading names (`DIRECT2D`, `dma_direct2d`, "the header word"), and
/// the opcodes it writes `0x..`.
fn heading_tokens(text: &str) -> (Vec<String>, Vec<u64>) {
    let mut names = Vec::new();
    let mut opcodes = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if let Some(hex) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
            opcodes.extend(u64::from_str_radix(hex, 16).ok());
        } else if word.len() >= 3 && word.starts_with(|c: char| c.is_ascii_alphabetic()) {
            names.push(key(word));
        }
    }
    (names, opcodes)
}

/// Whether `evidence` cites section `section` (a [`section_key`]) of `source`.
fn cites(evidence: &[Evidence], source: &str, section: &str) -> bool {
    evidence.iter().any(|e| {
        e.source == source
            && e.cite
                .split_once('§')
                .is_some_and(|(_, s)| s == section || s.starts_with(&format!("{section} ")))
    })
}

/// Whether the item or one of its own members cites the section.
fn item_cites(t: &TypeDef, source: &str, section: &str) -> bool {
    let members: Vec<&[Evidence]> = match &t.kind {
        TypeKind::Struct { fields, .. } => fields.iter().map(|f| f.evidence.as_slice()).collect(),
        TypeKind::Bitfield { fields, .. } => fields.iter().map(|f| f.evidence.as_slice()).collect(),
        TypeKind::Union {
            discriminator,
            variants,
        } => std::iter::once(discriminator)
            .chain(variants.iter().flat_map(|v| &v.fields))
            .map(|f| f.evidence.as_slice())
            .collect(),
        TypeKind::Enum { .. } | TypeKind::Flags { .. } => return false,
    };
    std::iter::once(t.evidence.as_slice())
        .chain(members)
        .any(|e| cites(e, source, section))
}

/// A byte-map item: a struct, union or bitfield.
fn laid_out(t: &TypeDef) -> bool {
    matches!(
        t.kind,
        TypeKind::Struct { .. } | TypeKind::Union { .. } | TypeKind::Bitfield { .. }
    )
}

/// The item the table describes and its judged rows: at the nearest level (the column
/// title, the caption, then each heading outwards) with a candidate `judge` accepts, the
/// one it scores highest.
pub fn choose<'m, S: Ord, R>(
    model: &'m Model,
    source: Option<&str>,
    headings: &[Heading],
    title: Option<&str>,
    judge: impl Fn(&'m TypeDef) -> Option<(S, R)>,
) -> Option<(&'m TypeDef, R)> {
    let keyed: Vec<(&TypeDef, Vec<String>)> = model
        .types
        .iter()
        .filter(|t| laid_out(t))
        .map(|t| (t, item_keys(model, t)))
        .collect();
    let title = title.map(|t| Heading {
        line: 0,
        level: CAPTION + 1,
        text: format!("`{t}`"),
    });
    let levels = title.iter().chain(headings.iter().rev());
    for h in levels {
        let (names, opcodes) = heading_tokens(&h.text);
        let section = (h.level < CAPTION).then(|| section_key(&h.text));
        let mut best: Option<(S, &TypeDef, R)> = None;
        for (t, keys) in &keyed {
            let by_name = names.iter().any(|n| keys.contains(n));
            let by_opcode = t
                .opcode()
                .is_some_and(|o| opcodes.contains(&u64::from(o.value)));
            let by_cite = match (source, &section) {
                (Some(s), Some(k)) if !k.is_empty() => item_cites(t, s, k),
                _ => false,
            };
            if !(by_name || by_opcode || by_cite) {
                continue;
            }
            if let Some((s, rows)) = judge(t)
                && best.as_ref().is_none_or(|(b, ..)| s > *b)
            {
                best = Some((s, t, rows));
            }
        }
        if let Some((_, t, rows)) = best {
            return Some((t, rows));
        }
    }
    None
}
