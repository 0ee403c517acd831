//! Resolves `[[gap]]`: what the sources name but do not lay out. Each names an `OPCODE`
//! enumerator or the word it is part of only if that exists, says why, and cites sources
//! like any other declaration; a gap for something the spec does lay out is an error.

use super::words::opcode_named;
use super::{FileId, Loader, Scope};
use crate::diagnostics::suggest;
use crate::model::gaps::{Gap, GapOpcode};
use crate::model::{Model, TypeKind};
use crate::schema::RawFile;

impl Loader {
    pub(super) fn gaps(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> Vec<Gap> {
        let mut out: Vec<Gap> = Vec::new();
        for (fi, raw) in raws {
            let at = FileId(*fi);
            for g in &raw.gap {
                let name = g.name.get_ref();
                let taken = out.iter().any(|o| &o.name == name);
                if self.duplicate(at, &g.name, "gap", taken) {
                    continue;
                }
                let laid_out = model.words().chain(model.records());
                if let Some(t) = laid_out.into_iter().find(|t| &t.name == name) {
                    self.err(
                        at,
                        g.name.span(),
                        format!("`{name}` is specified ({}): remove the gap", t.file),
                    );
                }
                let opcode = g.opcode.as_ref().and_then(|op| {
                    let values = model.types.iter().find_map(|t| match &t.kind {
                        TypeKind::Enum { values, .. } if t.name == "OPCODE" => Some(values),
                        _ => None,
                    });
                    let found = match values {
                        Some(v) => opcode_named(v, op.get_ref()),
                        None => Err("the `OPCODE` enum is not declared".to_string()),
                    };
                    match found {
                        Ok(e) => Some(GapOpcode {
                            value: e.value as u8,
                            enumerator: e.name.clone(),
                        }),
                        Err(message) => {
                            self.err(at, op.span(), message);
                            None
                        }
                    }
                });
                if let (Some(o), None) = (&opcode, &g.word)
                    && let Some(w) = model.words().find(|w| {
                        w.opcode()
                            .is_some_and(|x| x.enumerator == o.enumerator && x.sub.is_none())
                    })
                {
                    self.err(
                        at,
                        g.opcode.as_ref().map_or(g.name.span(), |s| s.span()),
                        format!(
                            "opcode `{}` ({:#04x}) is specified as word `{}` ({}): remove the \
                             gap, or name the word it is part of in `word`",
                            o.enumerator, o.value, w.name, w.file
                        ),
                    );
                }
                if let Some(w) = &g.word {
                    let known = model
                        .words()
                        .chain(model.records())
                        .any(|t| &t.name == w.get_ref());
                    if !known {
                        let names = model
                            .words()
                            .chain(model.records())
                            .map(|t| t.name.as_str());
                        self.err_unknown(
                            at,
                            w.span(),
                            w.get_ref(),
                            format!(
                                "gap `{name}` is part of `{}`, which is neither a word nor a \
                                 record: name the word or record it belongs to{}",
                                w.get_ref(),
                                suggest(w.get_ref(), names)
                            ),
                        );
                    }
                }
                let reason = match &g.reason {
                    Some(r) if !r.get_ref().trim().is_empty() => r.get_ref().trim().to_string(),
                    _ => {
                        let span = g.reason.as_ref().map_or(g.name.span(), |r| r.span());
                        self.err(
                            at,
                            span,
                            format!(
                                "gap `{name}` has no reason: say in `reason` why the sources do \
                                 not let it be specified"
                            ),
                        );
                        String::new()
                    }
                };
                let confidence = self.confidence(at, &g.confidence, scope);
                let what = format!("gap `{name}`");
                let evidence = self.required_evidence(
                    at,
                    &g.evidence,
                    &confidence,
                    scope,
                    g.name.span(),
                    &what,
                );
                out.push(Gap {
                    name: name.clone(),
                    opcode,
                    word: g.word.as_ref().map(|w| w.get_ref().clone()),
                    reason,
                    confidence,
                    evidence,
                    file: self.files[at.0].relative(&self.root),
                });
            }
        }
        out
    }
}
