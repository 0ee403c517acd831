//! Which spec item a table describes. The headings above it name words, structs, aliases,
//! opcode enumerators, opcodes, bundles or registers; the spec's evidence cites tie items to the page's
//! sections. Of the candidates the nearest heading yields, the one whose members the rows
//! match best wins.

use super::markdown::{CAPTION, Heading};
use super::targets::Target;
use crate::model::{Evidence, section_key};

/// `NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT` and `dma_direct2d` both as `DMA_DIRECT2D`.
pub(super) fn key(name: &str) -> String {
    let up = name.to_ascii_uppercase();
    let up = up.strip_prefix("NEURON_ISA_TPB_").unwrap_or(&up);
    up.strip_suffix("_STRUCT").unwrap_or(up).to_string()
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
fn target_cites(t: &Target, source: &str, section: &str) -> bool {
    t.evidence.iter().any(|e| cites(e, source, section))
}

/// The item the table describes and its judged rows: at the nearest level (the column
/// title, the caption, then each heading outwards) with a candidate `judge` accepts, the
/// one it scores highest.
pub fn choose<'t, 'm, S: Ord, R>(
    targets: &'t [Target<'m>],
    source: Option<&str>,
    headings: &[Heading],
    title: Option<&str>,
    judge: impl Fn(&'t Target<'m>) -> Option<(S, R)>,
) -> Option<(&'t Target<'m>, R)> {
    let title = title.map(|t| Heading {
        line: 0,
        level: CAPTION + 1,
        text: format!("`{t}`"),
    });
    let levels = title.iter().chain(headings.iter().rev());
    for h in levels {
        let (names, opcodes) = heading_tokens(&h.text);
        let section = (h.level < CAPTION).then(|| section_key(&h.text));
        let mut best: Option<(S, &Target, R)> = None;
        for t in targets {
            let by_name = names.iter().any(|n| t.keys.contains(n));
            let by_opcode = t.opcode.is_some_and(|o| opcodes.contains(&o));
            let by_cite = match (source, &section) {
                (Some(s), Some(k)) if !k.is_empty() => target_cites(t, s, k),
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
