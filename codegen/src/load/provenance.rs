//! Sources, confidence scales and architectures, and the one resolver of a declaration's
//! confidence tag, evidence records and architecture list that every sub-system uses.

use std::collections::HashMap;
use std::ops::Range;

use serde_spanned::Spanned;

use super::names::check_ident;
use super::{FileId, Loader, Scope};
use crate::diagnostics::{join, sorted_keys, suggest, suggest_or_list};
pub(super) use crate::model::source_id;
use crate::model::{Arch, Confidence, Evidence, Level, Scale, Source, section_key};
use crate::schema::{RawEvidence, RawFile};

/// What the provenance declarations resolve to.
pub(super) struct Provenance {
    pub levels: Vec<Level>,
    pub scales: Vec<Scale>,
    pub sources: Vec<Source>,
    pub archs: Vec<Arch>,
    /// tag -> confidence
    pub tags: HashMap<String, Confidence>,
}

impl Loader {
    /// The common ordering, the scales, the sources and the architectures.
    pub(super) fn provenance(&mut self, raws: &[(usize, RawFile)]) -> Provenance {
        let levels = self.common_levels(raws);
        let scales = self.scales(raws, &levels);
        if scales.is_empty() && !levels.is_empty() {
            self.missing(
                "confidence.toml",
                "`[[scale]]`",
                "the scales (`[[scale]]`) declare every confidence tag",
                &["unknown confidence tag `", "unknown confidence scale `"],
            );
        }
        let sources = self.sources(raws, &scales);
        if sources.is_empty() {
            self.missing(
                "sources.toml",
                "`[[source]]`",
                "it declares the documents (`[[source]]`) every evidence record cites",
                &["unknown source `"],
            );
        }
        let archs = self.archs(raws);
        let tags = declared_tags(&levels, &scales)
            .map(|c| (c.tag.clone(), c))
            .collect();
        Provenance {
            levels,
            scales,
            sources,
            archs,
            tags,
        }
    }

    fn common_levels(&mut self, raws: &[(usize, RawFile)]) -> Vec<Level> {
        let mut found: Option<Vec<Level>> = None;
        for (fi, raw) in raws {
            let Some(c) = &raw.confidence else { continue };
            if found.is_some() {
                let span = c.levels.first().map_or(0..0, |l| l.name.span());
                self.err(
                    FileId(*fi),
                    span,
                    "the common confidence ordering is declared twice",
                );
                continue;
            }
            let mut levels: Vec<Level> = Vec::new();
            for l in &c.levels {
                let taken = levels.iter().any(|x| &x.name == l.name.get_ref());
                self.duplicate(FileId(*fi), &l.name, "confidence level", taken);
                levels.push(Level {
                    name: l.name.get_ref().clone(),
                    doc: l.doc.clone(),
                });
            }
            found = Some(levels);
        }
        found.unwrap_or_else(|| {
            self.missing(
                "confidence.toml",
                "`[confidence]` table",
                "it declares the common confidence ordering (`[confidence]`) and the scales \
                 (`[[scale]]`) every confidence tag is on",
                &[
                    "unknown confidence tag `",
                    "unknown common confidence level `",
                    "unknown confidence scale `",
                ],
            );
            Vec::new()
        })
    }

    fn scales(&mut self, raws: &[(usize, RawFile)], levels: &[Level]) -> Vec<Scale> {
        let mut scales: Vec<Scale> = Vec::new();
        let mut seen_tags: HashMap<String, String> = HashMap::new();
        for (fi, raw) in raws {
            let at = FileId(*fi);
            for s in &raw.scale {
                let taken = scales.iter().any(|x| &x.name == s.name.get_ref());
                if self.duplicate(at, &s.name, "scale", taken) {
                    continue;
                }
                check_ident(self, at, &s.name);
                let mut out: Vec<(String, String)> = Vec::new();
                let mut last_rank = 0;
                for l in &s.levels {
                    let Some(rank) = levels.iter().position(|x| &x.name == l.common.get_ref())
                    else {
                        self.err(
                            at,
                            l.common.span(),
                            format!(
                                "unknown common confidence level `{}` (known: {})",
                                l.common.get_ref(),
                                join(levels.iter().map(|l| l.name.as_str()))
                            ),
                        );
                        continue;
                    };
                    if rank < last_rank {
                        self.err(
                            at,
                            l.common.span(),
                            format!(
                                "scale `{}` lists its levels strongest first, but `{}` maps \
                                 to a stronger common level than the tag before it",
                                s.name.get_ref(),
                                l.tag.get_ref()
                            ),
                        );
                    }
                    last_rank = rank;
                    if let Some(other) = seen_tags.get(l.tag.get_ref()) {
                        self.err(
                            at,
                            l.tag.span(),
                            format!(
                                "confidence tag `{}` is already declared by scale `{other}`",
                                l.tag.get_ref()
                            ),
                        );
                        continue;
                    }
                    let rust = Scale::const_name(l.tag.get_ref());
                    if let Some((other, _)) = out.iter().find(|(t, _)| Scale::const_name(t) == rust)
                    {
                        self.err(
                            at,
                            l.tag.span(),
                            format!(
                                "confidence tags `{other}` and `{}` of scale `{}` both become \
                                 the Rust constant `{rust}`; spell one differently",
                                l.tag.get_ref(),
                                s.name.get_ref()
                            ),
                        );
                        continue;
                    }
                    seen_tags.insert(l.tag.get_ref().clone(), s.name.get_ref().clone());
                    out.push((l.tag.get_ref().clone(), l.common.get_ref().clone()));
                }
                scales.push(Scale {
                    name: s.name.get_ref().clone(),
                    doc: s.doc.clone(),
                    levels: out,
                });
            }
        }
        scales
    }

    fn sources(&mut self, raws: &[(usize, RawFile)], scales: &[Scale]) -> Vec<Source> {
        let mut out: Vec<Source> = Vec::new();
        for (fi, raw) in raws {
            for s in &raw.source {
                let taken = out.iter().any(|x| &x.id == s.id.get_ref());
                if self.duplicate(FileId(*fi), &s.id, "source", taken) {
                    continue;
                }
                if s.id.get_ref().contains(char::is_whitespace) {
                    self.err(
                        FileId(*fi),
                        s.id.span(),
                        "a source id cannot contain spaces",
                    );
                }
                if !scales.iter().any(|x| &x.name == s.scale.get_ref()) {
                    self.err(
                        FileId(*fi),
                        s.scale.span(),
                        format!("unknown confidence scale `{}`", s.scale.get_ref()),
                    );
                }
                let sections = s
                    .sections
                    .as_ref()
                    .map(|list| self.sections(FileId(*fi), s.id.get_ref(), list));
                out.push(Source {
                    id: s.id.get_ref().clone(),
                    title: s.title.clone(),
                    file: s.file.clone(),
                    scale: s.scale.get_ref().clone(),
                    doc: s.doc.clone(),
                    sections,
                });
            }
        }
        out
    }

    /// A source's declared headings, none empty. A heading may repeat (a page can have a
    /// `Purpose` under each of its sections); a citation of it is then ambiguous.
    fn sections(&mut self, at: FileId, id: &str, list: &[Spanned<String>]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for h in list {
            if section_key(h.get_ref()).is_empty() {
                self.err(
                    at,
                    h.span(),
                    format!("a section of `{id}` needs its heading text"),
                );
            } else {
                out.push(h.get_ref().clone());
            }
        }
        out
    }

    fn archs(&mut self, raws: &[(usize, RawFile)]) -> Vec<Arch> {
        let mut out: Vec<Arch> = Vec::new();
        for (fi, raw) in raws {
            for a in &raw.arch {
                let taken = out.iter().any(|x| &x.name == a.name.get_ref());
                if self.duplicate(FileId(*fi), &a.name, "architecture", taken) {
                    continue;
                }
                check_ident(self, FileId(*fi), &a.name);
                out.push(Arch {
                    name: a.name.get_ref().clone(),
                    nc: a.nc,
                    doc: a.doc.clone(),
                });
            }
        }
        out
    }

    // ---- what every declaration cites ---------------------------------------------

    pub(super) fn confidence(
        &mut self,
        at: FileId,
        tag: &Spanned<String>,
        scope: &Scope,
    ) -> Confidence {
        match scope.tags.get(tag.get_ref()) {
            Some(c) => c.clone(),
            None => {
                self.err(
                    at,
                    tag.span(),
                    format!(
                        "unknown confidence tag `{}`{}",
                        tag.get_ref(),
                        suggest_or_list(tag.get_ref(), sorted_keys(&scope.tags))
                    ),
                );
                undeclared_confidence(tag.get_ref())
            }
        }
    }

    /// The confidence `tag` names, or `default` (the enclosing declaration's) without one.
    pub(super) fn confidence_or(
        &mut self,
        at: FileId,
        tag: &Option<Spanned<String>>,
        default: &Confidence,
        scope: &Scope,
    ) -> Confidence {
        match tag {
            Some(t) => self.confidence(at, t, scope),
            None => default.clone(),
        }
    }

    pub(super) fn evidence(
        &mut self,
        at: FileId,
        raw: &[RawEvidence],
        default: &Confidence,
        scope: &Scope,
    ) -> Vec<Evidence> {
        let mut sources: Vec<(&str, &str)> = (scope.sources.iter())
            .map(|(id, scale)| (id.as_str(), scale.as_str()))
            .collect();
        sources.sort();
        raw.iter()
            .map(|e| {
                let confidence = self.confidence_or(at, &e.confidence, default, scope);
                for (span, msg) in citation_errors(e, &confidence, &sources) {
                    self.err(at, span, msg);
                }
                let section = self.cited_section(at, &e.source, scope);
                evidence_record(e, confidence, section)
            })
            .collect()
    }

    /// The declared heading a citation names (`None`: the whole document, or a source
    /// whose sections are not declared); an error when it names none or several.
    pub(super) fn cited_section(
        &mut self,
        at: FileId,
        cite: &Spanned<String>,
        scope: &Scope,
    ) -> Option<String> {
        let text = cite.get_ref().trim();
        let id = source_id(text);
        let sections = scope.sections.get(id)?;
        match resolve_section(id, sections, text[id.len()..].trim()) {
            Ok(found) => found,
            Err(message) => {
                self.err(at, cite.span(), message);
                None
            }
        }
    }

    pub(super) fn arch_list(
        &mut self,
        at: FileId,
        raw: &Option<Vec<Spanned<String>>>,
        scope: &Scope,
    ) -> Vec<String> {
        let Some(list) = raw else { return Vec::new() };
        let mut out = Vec::new();
        for a in list {
            if !scope.archs.contains(a.get_ref()) {
                self.unknown_arch(at, a, scope);
            } else if out.contains(a.get_ref()) {
                self.err(
                    at,
                    a.span(),
                    format!("architecture `{}` listed twice", a.get_ref()),
                );
            } else {
                out.push(a.get_ref().clone());
            }
        }
        out
    }

    /// Reports `a` as no declared architecture. With none declared at all, the first is
    /// one error saying so (`arch.toml` is missing) and every other follows from it.
    pub(super) fn unknown_arch(&mut self, at: FileId, a: &Spanned<String>, scope: &Scope) {
        if scope.archs.is_empty() && !self.no_archs {
            self.no_archs = true;
            self.missing(
                "arch.toml",
                "`[[arch]]`",
                "no architecture is declared, but `arch` lists name them: declare each as \
                 `[[arch]]` (`name`, `nc`, `doc`) in it",
                &[UNKNOWN_ARCH],
            );
        }
        let known = scope.archs.iter().map(String::as_str);
        let message = format!(
            "{UNKNOWN_ARCH}{}`{}",
            a.get_ref(),
            suggest_or_list(a.get_ref(), known)
        );
        self.err(at, a.span(), message);
    }

    /// Reports that `what` (at `span`) cites nothing.
    pub(super) fn missing_evidence(&mut self, at: FileId, span: Range<usize>, what: &str) {
        self.err(
            at,
            span,
            format!(
                "{what} has no evidence: cite the source that states it (for an INFERRED \
                 claim, what it is inferred from)"
            ),
        );
    }

    /// Evidence that must not be empty; `what` names the owner in the error.
    pub(super) fn required_evidence(
        &mut self,
        at: FileId,
        raw: &[RawEvidence],
        conf: &Confidence,
        scope: &Scope,
        span: Range<usize>,
        what: &str,
    ) -> Vec<Evidence> {
        if raw.is_empty() {
            self.missing_evidence(at, span, what);
        }
        self.evidence(at, raw, conf, scope)
    }
}

/// How an error about an undeclared architecture starts.
const UNKNOWN_ARCH: &str = "unknown architecture `";

/// Every confidence tag the scales declare, placed on the common ordering of `levels`.
fn declared_tags<'a>(
    levels: &'a [Level],
    scales: &'a [Scale],
) -> impl Iterator<Item = Confidence> + 'a {
    scales.iter().flat_map(move |s| {
        s.levels.iter().map(move |(tag, level)| Confidence {
            tag: tag.clone(),
            scale: s.name.clone(),
            level: level.clone(),
            rank: levels.iter().position(|l| &l.name == level).unwrap_or(0),
        })
    })
}

/// The confidence of a tag no scale declares (an error where it is used): weaker than
/// every level.
fn undeclared_confidence(tag: &str) -> Confidence {
    Confidence {
        tag: tag.to_string(),
        scale: String::new(),
        level: String::new(),
        rank: usize::MAX,
    }
}

/// The heading of `sections` (source `id`'s) that the section part of a citation names,
/// tried in this order: a heading's key (`§6.5`, `§Static arm`; see [`section_key`]); a
/// key and then a place inside that section (`§4 Table 4.4a`, `§Static arm
/// (CORRECTION)`), the longest key winning; the opening words of a heading up to ` — `
/// or ` (` (`§Form A — Pool bound-check indirect`), or the whole heading. Backticks are
/// ignored throughout.
pub(crate) fn resolve_section(
    id: &str,
    sections: &[String],
    cited: &str,
) -> Result<Option<String>, String> {
    if cited.is_empty() {
        return Ok(None);
    }
    let wanted = cited.strip_prefix('§').unwrap_or(cited).replace('`', "");
    let wanted = wanted.trim();
    let keyed: Vec<(String, String, &String)> = sections
        .iter()
        .map(|h| (section_key(h), h.replace('`', ""), h))
        .collect();
    let exact: Vec<&String> = (keyed.iter())
        .filter(|(k, ..)| k == wanted)
        .map(|(.., h)| *h)
        .collect();
    let inside = |k: &str| wanted.strip_prefix(k).is_some_and(|r| r.starts_with(' '));
    let longest = (keyed.iter())
        .filter(|(k, ..)| inside(k))
        .map(|(k, ..)| k.len())
        .max();
    let within: Vec<&String> = (keyed.iter())
        .filter(|(k, ..)| inside(k) && Some(k.len()) == longest)
        .map(|(.., h)| *h)
        .collect();
    let opening: Vec<&String> = (keyed.iter())
        .filter(|(_, t, _)| {
            t.strip_prefix(wanted)
                .is_some_and(|r| r.starts_with(" — ") || r.starts_with(" ("))
        })
        .map(|(.., h)| *h)
        .collect();
    let whole: Vec<&String> = (keyed.iter())
        .filter(|(_, t, _)| t.trim() == wanted)
        .map(|(.., h)| *h)
        .collect();
    let found = [exact, whole, within, opening]
        .into_iter()
        .find(|c| !c.is_empty());
    match found.as_deref() {
        Some([one]) => Ok(Some((*one).clone())),
        Some(many) => Err(format!(
            "`§{wanted}` could be any of {} sections of `{id}` ({}): cite more of the heading, or the section it is in with this as the place in it",
            many.len(),
            join(many.iter().map(|h| h.as_str()))
        )),
        None => {
            let keys: Vec<&str> = keyed.iter().map(|(k, ..)| k.as_str()).collect();
            Err(format!(
                "`{id}` declares no section `§{wanted}`{}: a citation names a section by its \
                 number (`§6.5`) or its heading up to ` — ` (`§Static arm`), then optionally a \
                 place in it (`§4 Table 4.4a`) (sections: {})",
                suggest(wanted, keys.iter().copied()),
                join(keys.into_iter())
            ))
        }
    }
}

/// An evidence record as resolved; the caller checks its source and resolves its tag and
/// section.
fn evidence_record(e: &RawEvidence, confidence: Confidence, section: Option<String>) -> Evidence {
    let cite = e.source.get_ref().trim().to_string();
    Evidence {
        source: source_id(&cite).to_string(),
        cite,
        alias: e.name.clone(),
        names: e.names.clone(),
        pin: e.pin.clone(),
        value: e.value.clone(),
        confidence,
        note: e.note.clone(),
        section,
    }
}

/// What is wrong with an evidence record's citation, given the declared `sources` (id,
/// scale), sorted: a source no file declares, or an own tag (resolved as `confidence`) on
/// another scale than its source's.
fn citation_errors(
    e: &RawEvidence,
    confidence: &Confidence,
    sources: &[(&str, &str)],
) -> Vec<(Range<usize>, String)> {
    let id = source_id(e.source.get_ref());
    let Some((_, scale)) = sources.iter().find(|(s, _)| *s == id) else {
        let ids = sources.iter().map(|(s, _)| *s);
        let message = format!(
            "unknown source `{id}`{}: a citation starts with a declared source id",
            suggest_or_list(id, ids)
        );
        return vec![(e.source.span(), message)];
    };
    match &e.confidence {
        Some(tag) if !confidence.scale.is_empty() && confidence.scale != *scale => {
            let message = format!(
                "`{}` is a tag of scale `{}`, but `{id}` tags its claims on scale `{scale}`: \
                 give this record a `{scale}` tag",
                confidence.tag, confidence.scale
            );
            vec![(tag.span(), message)]
        }
        _ => Vec::new(),
    }
}
