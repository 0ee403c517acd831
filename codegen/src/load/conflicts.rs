//! Resolves `[[conflict]]`: disagreements between sources that no member's
//! `alternatives` can hold, each about named types or tables, with two readings or more.

use super::nesting::Room;
use super::{FileId, Loader, Scope};
use crate::model::{Conflict, Model};
use crate::schema::RawFile;

impl Loader {
    pub(super) fn conflicts(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> Vec<Conflict> {
        let mut out: Vec<Conflict> = Vec::new();
        for (fi, raw) in raws {
            let at = FileId(*fi);
            for c in &raw.conflict {
                let name = c.name.get_ref();
                let taken = out.iter().any(|o| &o.name == name);
                if self.duplicate(at, &c.name, "conflict", taken) {
                    continue;
                }
                if c.readings.len() < 2 {
                    self.err(
                        at,
                        c.name.span(),
                        format!(
                            "conflict `{name}` has {} reading(s); a conflict needs at least two",
                            c.readings.len()
                        ),
                    );
                }
                if c.about.is_empty() {
                    self.err(
                        at,
                        c.name.span(),
                        format!("conflict `{name}` is about nothing: list the types or tables in `about`"),
                    );
                }
                for a in &c.about {
                    let known = scope.types.contains_key(a.get_ref())
                        || model.rules.tables.iter().any(|t| &t.name == a.get_ref())
                        || model.register_path(a.get_ref()).is_some();
                    if !known {
                        self.err_unknown(
                            at,
                            a.span(),
                            a.get_ref(),
                            format!(
                                "conflict `{name}` is about `{}`, which is neither a type, a table nor a register or field (`FILE.BUNDLE.register[.field]`)",
                                a.get_ref()
                            ),
                        );
                    }
                }
                for r in &c.readings {
                    if let Some(ty) = &r.ty {
                        self.err(
                            at,
                            ty.span(),
                            format!(
                                "conflict reading `{}` has a type; a field's other reading of \
                                 its bytes belongs in that field's `alternatives`",
                                r.name.get_ref()
                            ),
                        );
                    }
                }
                let room = Room::of("conflict", 0, name);
                let mut readings = self.alternatives(at, &c.readings, scope, &room);
                for r in &mut readings {
                    r.ty = None;
                }
                let file = &self.files[at.0];
                out.push(Conflict {
                    name: name.clone(),
                    doc: c.doc.trim().to_string(),
                    about: c.about.iter().map(|a| a.get_ref().clone()).collect(),
                    readings,
                    file: file.relative(&self.root),
                });
            }
        }
        out
    }
}
