//! Resolves the `[klr]` tables (seed 003's KLR→BIR leaves) into a [`KlrModel`], with the
//! same file:line:col errors as the rest of the loader. A child of `loader` so that it
//! reuses the enum, confidence and evidence resolution of the wire words. This file
//! resolves the enums, tables, layouts and offset/transpose rows and orders the passes;
//! the leaves and their steps are `klr_leaf.rs`.

use super::names::check_ident;
use super::{Cause, FileId, Loader, Room, Scope};
use crate::model::Model;
use crate::model::klr::*;
use crate::schema::RawFile;
use crate::schema::klr::*;

impl Loader {
    /// Resolves every file's `[klr]` tables.
    pub(super) fn klr(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> KlrModel {
        let parts: Vec<(FileId, &RawKlr)> = raws
            .iter()
            .filter_map(|(fi, raw)| raw.klr.as_ref().map(|k| (FileId(*fi), k)))
            .collect();
        let mut m = KlrModel::default();
        for (at, k) in &parts {
            for r in &k.enums {
                let taken = m.enum_def(r.name.get_ref()).is_some();
                if self.duplicate(*at, &r.name, "klr enum", taken) {
                    continue;
                }
                let t = self.enum_def(*at, r, scope);
                m.enums.push(t);
            }
        }
        let layouts = parts.iter().flat_map(|(_, k)| &k.layout);
        let names_enum = layouts.flat_map(|l| &l.field).any(|f| f.enum_.is_some());
        if m.enums.is_empty() && names_enum {
            // The nodes and leaves cannot be checked without the enums they name.
            let root = self.missing(
                "klr/enums.toml",
                "`[[klr.enum]]`",
                "no klr enum is declared, but the klr nodes and leaves name them: declare \
                 them (`[[klr.enum]]`) and the tables (`[[klr.table]]`) in it",
                &[],
            );
            let files = parts.iter().map(|(at, _)| self.files[at.0].path.clone());
            let files = Cause::Files(files.collect());
            self.cascades.push((root, root + 1, files));
        }
        for (at, k) in &parts {
            for r in &k.table {
                if let Some(t) = self.klr_table(*at, r, &m, scope) {
                    m.tables.push(t);
                }
            }
        }
        for (at, k) in &parts {
            for r in &k.layout {
                if let Some(l) = self.klr_layout(*at, r, &m, scope) {
                    m.layouts.push(l);
                }
            }
        }
        for (at, k) in &parts {
            for r in &k.layout {
                self.klr_base(*at, r, &m);
            }
        }
        let mut leaf_at: Vec<(FileId, &RawLeaf)> = Vec::new();
        for (at, k) in &parts {
            for r in &k.leaf {
                let taken = m.leaf(r.name.get_ref()).is_some();
                if self.duplicate(*at, &r.name, "leaf", taken) {
                    continue;
                }
                if let Some(l) = self.klr_leaf(*at, r, &m, scope) {
                    m.leaves.push(l);
                    leaf_at.push((*at, r));
                }
            }
        }
        for (at, r) in &leaf_at {
            self.klr_routes(*at, r, &m);
            self.klr_words(*at, r, model);
        }
        for (at, k) in &parts {
            for r in &k.offset {
                let row = self.klr_offset_row(*at, r, &m, scope);
                m.offsets.push(row);
            }
            for r in &k.transpose {
                let row = self.klr_transpose_row(*at, r, &m, scope);
                m.transposes.push(row);
            }
            if let Some(r) = &k.family {
                if m.family.is_some() {
                    self.err(
                        *at,
                        r.band.span(),
                        "a second `[klr.family]`: the spec has one",
                    );
                } else {
                    m.family = self.klr_family(*at, r, &m, scope);
                }
            }
        }
        m
    }

    /// The family record, with the leaves whose bodies lie outside the band it states.
    fn klr_family(
        &mut self,
        at: FileId,
        r: &RawFamily,
        m: &KlrModel,
        scope: &Scope,
    ) -> Option<Family> {
        let confidence = self.confidence(at, &r.confidence, scope);
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let [lo, hi] = &r.band.get_ref()[..] else {
            self.err(
                at,
                r.band.span(),
                "`band` is `[first, last]`: two addresses",
            );
            return None;
        };
        let (lo, hi) = (*lo.get_ref(), *hi.get_ref());
        let outside = m
            .leaves
            .iter()
            .filter(|l| !(lo..=hi).contains(&l.va))
            .map(|l| l.name.clone())
            .collect();
        Some(Family {
            band: (lo, hi),
            outside,
            stated_leaves: *r.stated_leaves.get_ref() as usize,
            roster_leaves: m.leaves.len(),
            dispatch: r.dispatch.clone(),
            doc: r.doc.trim().to_string(),
            confidence,
            evidence,
        })
    }

    fn klr_table(
        &mut self,
        at: FileId,
        r: &RawKlrTable,
        m: &KlrModel,
        scope: &Scope,
    ) -> Option<KlrTable> {
        check_ident(self, at, &r.name);
        let taken = m.table(r.name.get_ref()).is_some();
        if self.duplicate(at, &r.name, "klr table", taken) {
            return None;
        }
        if r.entries.is_empty() {
            self.err(
                at,
                r.name.span(),
                format!("table `{}` has no entries", r.name.get_ref()),
            );
        }
        let out_of_range = match r.out_of_range.get_ref().as_str() {
            "fatal" => OutOfRange::Fatal,
            "unknown" => OutOfRange::Unknown,
            other => {
                self.err(
                    at,
                    r.out_of_range.span(),
                    format!("`out_of_range` is `fatal` or `unknown`, not `{other}`"),
                );
                OutOfRange::Unknown
            }
        };
        let enum_ = r
            .value
            .as_ref()
            .filter(|v| m.enum_def(v.get_ref()).is_some())
            .map(|v| v.get_ref().clone());
        if let Some(e) = &enum_ {
            for entry in &r.entries {
                if m.enum_name(e, *entry.get_ref()).is_none() {
                    self.err(
                        at,
                        entry.span(),
                        format!(
                            "entry {} of table `{}` is not a value of `{e}`",
                            entry.get_ref(),
                            r.name.get_ref()
                        ),
                    );
                }
            }
        }
        let confidence = self.confidence(at, &r.confidence, scope);
        if r.evidence.is_empty() {
            self.err(
                at,
                r.name.span(),
                format!("table `{}` has no evidence", r.name.get_ref()),
            );
        }
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        Some(KlrTable {
            name: r.name.get_ref().clone(),
            function: r.function.clone(),
            doc: r.doc.trim().to_string(),
            key: r.key.clone(),
            value: r.value.as_ref().map(|v| v.get_ref().clone()),
            enum_,
            entries: r.entries.iter().map(|e| *e.get_ref()).collect(),
            out_of_range,
            confidence,
            evidence,
        })
    }

    fn klr_layout(
        &mut self,
        at: FileId,
        r: &RawLayout,
        m: &KlrModel,
        scope: &Scope,
    ) -> Option<Layout> {
        check_ident(self, at, &r.name);
        let taken = m.layout(r.name.get_ref()).is_some();
        if self.duplicate(at, &r.name, "layout", taken) {
            return None;
        }
        let side = match r.side.get_ref().as_str() {
            "klr" => Side::Klr,
            "bir" => Side::Bir,
            "aux" => Side::Aux,
            other => {
                self.err(
                    at,
                    r.side.span(),
                    format!("`side` is `klr`, `bir` or `aux`, not `{other}`"),
                );
                Side::Aux
            }
        };
        let size = r.size.as_ref().map(|s| *s.get_ref() as usize);
        let confidence = self.confidence(at, &r.confidence, scope);
        if r.evidence.is_empty() {
            self.err(
                at,
                r.name.span(),
                format!("layout `{}` has no evidence", r.name.get_ref()),
            );
        }
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        let mut fields: Vec<LayoutField> = Vec::new();
        for f in &r.field {
            let name = f.name.get_ref();
            if fields.iter().any(|x| &x.name == name) {
                let first = r.field.iter().find(|x| x.name.get_ref() == name);
                self.err_duplicate(
                    at,
                    f.name.span(),
                    format!("duplicate field `{name}` in layout `{}`", r.name.get_ref()),
                    first.map_or(0, |x| x.name.span().start),
                );
                continue;
            }
            let input = f.input.as_ref().and_then(|i| {
                let parsed = Input::parse(i.get_ref());
                if parsed.is_none() {
                    self.err(
                        at,
                        i.span(),
                        format!(
                            "`input` is one of ap, aps, imm, imms, int, bool, text; not `{}`",
                            i.get_ref()
                        ),
                    );
                }
                parsed
            });
            if let Some(i) = &f.input {
                if side != Side::Klr {
                    self.err(
                        at,
                        i.span(),
                        "only the fields of a `klr` layout are inputs of an op",
                    );
                }
                check_ident(self, at, &f.name);
            }
            if f.optional && input.is_none() {
                self.err(at, f.name.span(), "`optional` is only for input fields");
            }
            if f.optional && matches!(input, Some(Input::Aps | Input::Imms | Input::Bool)) {
                self.err(
                    at,
                    f.name.span(),
                    "a list or bool input cannot be `optional` (a list may be empty)",
                );
            }
            if let Some(e) = &f.enum_ {
                if m.enum_def(e.get_ref()).is_none() {
                    self.err(at, e.span(), format!("unknown klr enum `{}`", e.get_ref()));
                }
                if input.is_some_and(|i| i != Input::Int) {
                    self.err(at, e.span(), "`enum` names the values of an int field");
                }
            }
            let offset = f.off.as_ref().map(|o| *o.get_ref() as usize);
            let fsize = f.size.as_ref().map(|s| *s.get_ref() as usize);
            if let (Some(total), Some(o)) = (size, &f.off) {
                let end = (*o.get_ref() as usize).saturating_add(fsize.unwrap_or(1));
                if end > total {
                    self.err(
                        at,
                        o.span(),
                        format!(
                            "`{name}` (offset {}) runs past the end of `{}` ({})",
                            o.get_ref(),
                            r.name.get_ref(),
                            crate::naming::plural(total, "byte")
                        ),
                    );
                }
            }
            let fconf = self.confidence_or(at, &f.confidence, &confidence, scope);
            if f.evidence.is_empty() {
                self.err(at, f.name.span(), format!("field `{name}` has no evidence"));
            }
            let fev = self.evidence(at, &f.evidence, &fconf, scope);
            // An unsized field bounds its alternatives by nothing but the address space.
            let room = Room::of("field", fsize.unwrap_or(usize::MAX), name);
            let alternatives = self.alternatives(at, &f.alternatives, scope, &room);
            fields.push(LayoutField {
                name: name.clone(),
                offset,
                size: fsize,
                ty: f.ty.clone(),
                input,
                optional: f.optional,
                enum_: f.enum_.as_ref().map(|e| e.get_ref().clone()),
                doc: f.doc.trim().to_string(),
                confidence: fconf,
                evidence: fev,
                alternatives,
            });
        }
        // Two fields at one offset, or a sized field running into the next one.
        let mut placed: Vec<&RawLayoutField> = r.field.iter().filter(|f| f.off.is_some()).collect();
        placed.sort_by_key(|f| f.off.as_ref().map(|o| *o.get_ref()));
        for w in placed.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (ao, bo) = (
                *a.off.as_ref().expect("placed").get_ref(),
                *b.off.as_ref().expect("placed").get_ref(),
            );
            let aend = ao.saturating_add(a.size.as_ref().map_or(1, |s| *s.get_ref()));
            if bo < aend {
                self.err(
                    at,
                    b.off.as_ref().expect("placed").span(),
                    format!(
                        "`{}` at offset {bo} overlaps `{}` (offset {ao}{})",
                        b.name.get_ref(),
                        a.name.get_ref(),
                        a.size
                            .as_ref()
                            .map_or(String::new(), |s| format!(", {} bytes", s.get_ref()))
                    ),
                );
            }
        }
        let file = &self.files[at.0];
        Some(Layout {
            name: r.name.get_ref().clone(),
            qualified: r.qualified.clone(),
            side,
            base: r.base.as_ref().map(|b| b.get_ref().clone()),
            size,
            to_string: r.to_string.clone(),
            doc: r.doc.trim().to_string(),
            confidence,
            evidence,
            fields,
            file: file.relative(&self.root),
            line: file.line_of(r.name.span().start),
        })
    }

    fn klr_base(&mut self, at: FileId, r: &RawLayout, m: &KlrModel) {
        let Some(b) = &r.base else { return };
        match m.layout(b.get_ref()) {
            None => self.err(
                at,
                b.span(),
                format!("unknown base layout `{}`", b.get_ref()),
            ),
            Some(l) if l.side != Side::Bir || r.side.get_ref() != "bir" => self.err(
                at,
                b.span(),
                "only a `bir` layout has a base, and it is another `bir` layout",
            ),
            Some(_) => {
                if m.class_chain(b.get_ref())
                    .iter()
                    .any(|l| &l.name == r.name.get_ref())
                {
                    self.err(
                        at,
                        b.span(),
                        format!("`{}` derives from itself", r.name.get_ref()),
                    );
                }
            }
        }
    }

    fn klr_offset_row(
        &mut self,
        at: FileId,
        r: &RawOffsetRow,
        m: &KlrModel,
        scope: &Scope,
    ) -> OffsetRow {
        let offset = *r.off.get_ref() as usize;
        if !m
            .layouts
            .iter()
            .any(|l| l.side == Side::Bir && l.fields.iter().any(|f| f.offset == Some(offset)))
        {
            self.err(
                at,
                r.off.span(),
                format!("no `bir` layout has a field at offset {offset:#x}"),
            );
        }
        for w in &r.writers {
            match m.leaf(w.get_ref()) {
                None => self.err(at, w.span(), format!("unknown leaf `{}`", w.get_ref())),
                Some(l) if !l.stamped_offsets().contains(&offset) => self.err(
                    at,
                    w.span(),
                    format!(
                        "the reference lists `{}` as a writer of {offset:#x}, but its steps stamp nothing there",
                        w.get_ref()
                    ),
                ),
                Some(_) => {}
            }
        }
        let confidence = self.confidence(at, &r.confidence, scope);
        if r.evidence.is_empty() {
            self.err(at, r.off.span(), "this row has no evidence");
        }
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        OffsetRow {
            offset,
            field: r.field.clone(),
            who: r.who.clone(),
            writers: r.writers.iter().map(|w| w.get_ref().clone()).collect(),
            values: r.values.clone(),
            confidence,
            evidence,
        }
    }

    fn klr_transpose_row(
        &mut self,
        at: FileId,
        r: &RawTransposeRow,
        m: &KlrModel,
        scope: &Scope,
    ) -> TransposeRow {
        match m.leaf(r.leaf.get_ref()) {
            None => self.err(
                at,
                r.leaf.span(),
                format!("unknown leaf `{}`", r.leaf.get_ref()),
            ),
            Some(l) => {
                if let Some(p) = &r.path
                    && !l.paths().iter().any(|x| &x.name == p.get_ref())
                {
                    self.err(
                        at,
                        p.span(),
                        format!("leaf `{}` has no path `{}`", l.name, p.get_ref()),
                    );
                }
            }
        }
        let confidence = self.confidence(at, &r.confidence, scope);
        if r.evidence.is_empty() {
            self.err(at, r.leaf.span(), "this row has no evidence");
        }
        let evidence = self.evidence(at, &r.evidence, &confidence, scope);
        TransposeRow {
            klr: r.klr.clone(),
            leaf: r.leaf.get_ref().clone(),
            path: r.path.as_ref().map(|p| p.get_ref().clone()),
            engine: r.engine.clone(),
            encoding: r.encoding.clone(),
            constraint: r.constraint.clone(),
            confidence,
            evidence,
        }
    }
}
