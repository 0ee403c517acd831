//! How the docs show words chosen by a sub-opcode: the opcode cell of the index, and the
//! envelope / sub-word lines of the word pages.

use super::pages::Pages;
use super::util::{Loc, code};
use crate::model::*;

impl Pages<'_> {
    /// The opcode index's cell: `` `0xF0` (240) `` plus, for a sub-word, its selector.
    pub(super) fn opcode_cell(&self, op: &Opcode) -> String {
        let base = format!("`0x{:02X}` ({})", op.value, op.value);
        match &op.sub {
            Some(s) => format!(
                "{base}, {} = {} ({})",
                code(&s.field, true),
                s.value,
                code(&s.enumerator, true)
            ),
            None => base,
        }
    }

    /// The word page's line naming the envelope (for a sub-word) or the sub-words (for an
    /// envelope); `None` for any other word.
    pub(super) fn sub_opcode_line(&self, w: &TypeDef) -> Option<String> {
        let m = self.model;
        let link = |name: &str| {
            m.words()
                .find(|x| x.name == name)
                .map_or_else(|| code(name, false), |x| self.word_link(x, Loc::Word))
        };
        if let Some(s) = w.opcode().and_then(|o| o.sub.as_ref()) {
            return Some(format!(
                "- **Sub-opcode:** byte {} `{}` == {} ({}) within the envelope {}; any other \
                 value decodes as the envelope",
                s.offset,
                s.field,
                s.value,
                code(&s.enumerator, false),
                link(&s.envelope)
            ));
        }
        let subs: Vec<String> = m
            .words()
            .filter_map(|x| x.opcode()?.sub.as_ref().map(|s| (x, s)))
            .filter(|(_, s)| s.envelope == w.name)
            .map(|(x, s)| format!("{} = {} {}", s.field, s.value, self.word_link(x, Loc::Word)))
            .collect();
        (!subs.is_empty()).then(|| {
            format!(
                "- **Sub-words:** {}; every other value decodes as this word",
                subs.join(", ")
            )
        })
    }
}
