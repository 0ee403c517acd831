//! What the fields cite: a section, and evidence of their own; and the declared source
//! sections nothing cites. (A field with no evidence at all, and an evidence tag off its
//! source's scale, are the loader's errors; `check` reports them as such.)

use std::collections::HashSet;

use super::context::{Ctx, Finding, Spec};
use super::kinds::{Leaning, Member, evidenced};
use crate::load::provenance::resolve_section;
use crate::model::kinds::for_each_kind;
use crate::model::{section_key, source_id};
use crate::schema::RawEvidence;

pub(super) const WITHOUT_SECTION: &str = "evidence_without_section";
pub(super) const WITHOUT_OWN: &str = "field_without_evidence";
pub(super) const UNCITED_SECTION: &str = "uncited_section";

/// The field lints, on every file that parses (they need no model), over every kind of
/// the registry.
pub(super) fn fields<'a>(specs: &'a [Spec], out: &mut Vec<Finding<'a>>) {
    for (file, spec) in specs.iter().enumerate() {
        let Some(raw) = &spec.raw else { continue };
        let mut members: Vec<Member> = Vec::new();
        let mut leaning: Vec<Leaning> = Vec::new();
        for_each_kind!(evidenced!(raw, members, leaning));
        for l in leaning {
            out.push(Finding {
                file,
                span: l.name.span(),
                lint: WITHOUT_OWN,
                message: format!(
                    "{} `{}` of `{}` has no evidence of its own",
                    l.what,
                    l.name.get_ref(),
                    l.container
                ),
                notes: vec![format!(
                    "only `{}`'s evidence stands for it: cite the row or assert that \
                     names this {}",
                    l.container, l.what
                )],
                // The part's own allow, else its container's (a register's covers its fields).
                allow: Some(match l.container_allow {
                    Some(c) if !l.allow.contains_key(WITHOUT_OWN) => c,
                    _ => l.allow,
                }),
            });
        }
        for m in members.into_iter().filter(|m| m.data) {
            let whole = |e: &RawEvidence| {
                let cite = e.source.get_ref().trim();
                cite[source_id(cite).len()..].trim().is_empty()
            };
            if !m.evidence.is_empty() && m.evidence.iter().all(whole) {
                out.push(Finding {
                    file,
                    span: m.evidence[0].source.span(),
                    lint: WITHOUT_SECTION,
                    message: format!(
                        "every evidence record of {} `{}` cites a whole document",
                        m.what,
                        m.name.get_ref()
                    ),
                    notes: vec![
                        "name the section that states it (`seed-004 §2`, `page §Static arm`) \
                         so a reader can find the row"
                            .to_string(),
                    ],
                    allow: Some(m.allow),
                });
            }
        }
    }
}

/// Declared sections (`sections = [...]` of a `[[source]]`) that no citation names.
pub(super) fn sections<'a>(ctx: &Ctx<'a>, out: &mut Vec<Finding<'a>>) {
    let mut cites = Vec::new();
    // Every citation in the model, wherever it sits (evidence `cite`, alias `source`).
    let tree = serde_json::to_value(ctx.model).unwrap_or_default();
    collect_cites(&tree, &mut cites);
    let mut cited: HashSet<(String, String)> = HashSet::new();
    for source in &ctx.model.sources {
        let Some(sections) = &source.sections else {
            continue;
        };
        for cite in &cites {
            let cite = cite.trim();
            if source_id(cite) != source.id {
                continue;
            }
            let rest = cite[source.id.len()..].trim();
            if let Ok(Some(h)) = resolve_section(&source.id, sections, rest) {
                cited.insert((source.id.clone(), h));
            }
        }
    }
    for (file, spec) in ctx.specs.iter().enumerate() {
        let Some(raw) = &spec.raw else { continue };
        for s in &raw.source {
            for h in s.sections.iter().flatten() {
                if covered(&cited, s.id.get_ref(), h.get_ref()) {
                    continue;
                }
                out.push(Finding {
                    file,
                    span: h.span(),
                    lint: UNCITED_SECTION,
                    message: format!(
                        "nothing cites section `{}` of `{}`",
                        h.get_ref(),
                        s.id.get_ref()
                    ),
                    notes: vec![format!(
                        "add the facts it states to the spec, citing it; or, if it is prose \
                         only, say so on the source: `allow = {{ {UNCITED_SECTION} = \"<why>\" }}`"
                    )],
                    allow: Some(&s.allow),
                });
            }
        }
    }
}

/// Whether heading `h` of source `id` is cited, or a numbered section above or below it
/// is (`§4.2` covers `4. …`, and `§4` covers `4.2 …`): the page's numbering is the only
/// nesting the declared headings show.
fn covered(cited: &HashSet<(String, String)>, id: &str, h: &str) -> bool {
    let key = section_key(h);
    let numbered = |k: &str| k.starts_with(|c: char| c.is_ascii_digit());
    cited.iter().filter(|(s, _)| s == id).any(|(_, c)| {
        let other = section_key(c);
        c == h
            || (numbered(&key)
                && numbered(&other)
                && (other.starts_with(&format!("{key}.")) || key.starts_with(&format!("{other}."))))
    })
}

fn collect_cites(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                match v {
                    serde_json::Value::String(s) if k == "cite" || k == "source" => {
                        out.push(s.clone())
                    }
                    _ => collect_cites(v, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_cites(i, out)),
        _ => {}
    }
}
