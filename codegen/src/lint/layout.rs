//! Bytes the spec still calls unexplained although it now explains them: a `[[gap]]` for a
//! part of a word (`word = "…"`) that the word now declares as a member. (Unknown or
//! reserved bytes overlapping a named member of the same arm cannot load: members tile
//! their owner exactly, and the loader reports the overlap.)

use super::context::{Ctx, Finding};

pub(super) const UNKNOWN_EXPLAINED: &str = "unknown_explained";

pub(super) fn layout<'a>(ctx: &Ctx<'a>, out: &mut Vec<Finding<'a>>) {
    let model = ctx.model;
    for gap in &model.gaps {
        let Some(word) = gap.word.as_deref().and_then(|w| model.type_by_name(w)) else {
            continue;
        };
        let Some((file, raw)) = ctx.spec(&gap.file) else {
            continue;
        };
        let Some(raw_gap) = raw.gap.iter().find(|g| g.name.get_ref() == &gap.name) else {
            continue;
        };
        let wanted = plain(&gap.name);
        let leaves = model.leaves(word);
        let Some(leaf) = leaves
            .iter()
            .find(|l| l.path.split('.').any(|part| plain(part) == wanted))
        else {
            continue;
        };
        out.push(Finding {
            file,
            span: raw_gap.name.span(),
            lint: UNKNOWN_EXPLAINED,
            message: format!(
                "gap `{}` of `{}` is now declared: `{}` at byte {:#x}",
                gap.name, word.name, leaf.path, leaf.offset
            ),
            notes: vec![
                "remove the gap, or narrow it (its `reason`) to what the word still leaves out"
                    .to_string(),
            ],
            allow: Some(&raw_gap.allow),
        });
    }
}

/// A name as compared with a member's: lowercase ASCII letters and digits only, an array
/// index dropped (`SRC_ADDR` and `src_addr[1]` match).
fn plain(name: &str) -> String {
    let name = name.split('[').next().unwrap_or(name);
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}
