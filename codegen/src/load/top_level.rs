//! `top_level = true`: a struct decoded on its own (a record), and the misuses of the key.

use super::{FileId, Loader};
use crate::schema::RawStruct;

impl Loader {
    /// Whether `r` is a record; reports `top_level` on a word (already top-level) and on a
    /// struct of no bytes (nothing to decode).
    pub(super) fn top_level(&mut self, at: FileId, r: &RawStruct) -> bool {
        let Some(flag) = &r.top_level else {
            return false;
        };
        if !*flag.get_ref() {
            return false;
        }
        let name = r.name.get_ref();
        if r.opcode.is_some() {
            self.err(
                at,
                flag.span(),
                format!(
                    "`{name}` is bound to an opcode, so it is a word and already top-level: \
                     remove `top_level = true`"
                ),
            );
            return false;
        }
        if *r.size.get_ref() == 0 {
            self.err(
                at,
                r.size.span(),
                format!(
                    "`{name}` is top-level, so it is decoded from its own bytes and needs at \
                     least one: give it a size and fields, or remove `top_level = true`"
                ),
            );
            return false;
        }
        true
    }
}
