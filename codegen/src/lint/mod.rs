//! `dmaspec check`: the loader's errors and, on a spec that loads, the lints — problems
//! the spec loads despite (a citation without a section, a rule that always holds), each a
//! warning with a stable name. An item opts out of a lint with a reason, in the spec:
//! `allow = { <lint> = "<reason>" }`; an allow that suppresses nothing is itself a warning.
//!
//! The model keeps no source positions per member, so the lints read each file's
//! declarations again as written ([`crate::schema`], spans on every value) and point there.

mod context;
pub(crate) mod evidence;
pub(crate) mod kinds;
mod layout;
mod rules;

use std::collections::HashSet;
use std::path::Path;

use crate::diagnostics::{SourceFile, SpecError, SpecErrors};
use crate::load;
use crate::schema::{RawAllow, RawFile};
use context::{Ctx, Finding, Spec};

/// Every lint, by its stable name, with what it finds.
pub const LINTS: &[(&str, &str)] = &[
    (
        evidence::WITHOUT_SECTION,
        "a field (register file, bundle, register, register field) whose every evidence \
         record cites a whole document, no section",
    ),
    (
        evidence::WITHOUT_OWN,
        "a bitfield sub-field, or a register field no evidence row of its register names, \
         without evidence of its own (it leans on its container's)",
    ),
    (
        evidence::UNCITED_SECTION,
        "a declared section of a source (`sections` in sources.toml) that nothing cites",
    ),
    (
        rules::READS_UNKNOWN,
        "a rule that reads a field marked `unknown`",
    ),
    (
        rules::OUTRANKS_FIELD,
        "a rule tagged surer than a field it reads",
    ),
    (
        rules::CONSTANT,
        "a rule that holds for every value its fields can take, or for none",
    ),
    (
        layout::UNKNOWN_EXPLAINED,
        "unknown or reserved bytes a named field also covers, or a `[[gap]]` part that its \
         word now declares",
    ),
    (UNUSED_ALLOW, "an `allow` that suppresses nothing"),
];

const UNUSED_ALLOW: &str = "unused_allow";

/// Loads the spec below `dir` and lints it: every error and warning, in file order.
pub fn check_dir(dir: &Path) -> SpecErrors {
    match load::read(dir) {
        Ok(read) => check(dir, read.files, read.errors, read.unread),
        Err(e) => e,
    }
}

/// [`check_dir`] on files given as (path, text), as [`load::load_files`] takes them.
pub fn check_files(root: &Path, files: Vec<(std::path::PathBuf, String)>) -> SpecErrors {
    check(root, files, Vec::new(), Vec::new())
}

fn check(
    root: &Path,
    files: Vec<(std::path::PathBuf, String)>,
    early: Vec<SpecError>,
    unread: Vec<load::Unread>,
) -> SpecErrors {
    let all_read = unread.is_empty();
    let (model, errors, read_clean) = load::load_all(root, files.clone(), early, unread);
    let texts: Vec<Spec> = files
        .into_iter()
        .map(|(path, text)| Spec {
            raw: load::parse_raw(&text),
            file: SourceFile { path, text },
        })
        .collect();
    // The model-level lints run where every spec file was read and loads (a misnamed
    // `*.TOML` is an error of its own, not a reason to hold back the lints).
    let model = (all_read && read_clean).then_some(model);
    let mut out = errors;
    let mut found = Vec::new();
    evidence::fields(&texts, &mut found);
    if let Some(model) = &model {
        let ctx = Ctx {
            root,
            specs: &texts,
            model,
        };
        evidence::sections(&ctx, &mut found);
        rules::rules(&ctx, &mut found);
        layout::layout(&ctx, &mut found);
    }
    out.extend(apply_allows(&texts, found, model.is_some()));
    let order = |e: &SpecError| {
        let file = texts.iter().position(|s| s.file.path == e.file);
        (file, e.span.start, e.lint)
    };
    out.sort_by_key(order);
    SpecErrors(out)
}

/// Drops the findings an item allows, with a reason, and reports every allow that
/// suppressed nothing (only when the model-level lints ran: otherwise they cannot tell).
fn apply_allows(specs: &[Spec], found: Vec<Finding>, complete: bool) -> Vec<SpecError> {
    let mut used: HashSet<(usize, usize)> = HashSet::new();
    let mut out = Vec::new();
    for f in found {
        if let Some(reason) = f.allow.and_then(|a| a.get(f.lint)) {
            used.insert((f.file, reason.span().start));
            continue;
        }
        out.push(
            specs[f.file]
                .file
                .warning(f.lint, f.span, f.message, f.notes),
        );
    }
    if !complete {
        return out;
    }
    for (i, spec) in specs.iter().enumerate() {
        let Some(raw) = &spec.raw else { continue };
        for allow in allows(raw) {
            for (lint, reason) in allow {
                if used.contains(&(i, reason.span().start)) {
                    continue;
                }
                let known = LINTS.iter().any(|(name, _)| name == lint);
                let (message, note) = if known {
                    (
                        format!("`allow` of `{lint}` suppresses nothing here"),
                        "the lint no longer fires on this item: remove the allow".to_string(),
                    )
                } else {
                    (
                        format!("`allow` names no lint `{lint}`"),
                        format!(
                            "lints: {}",
                            LINTS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                        ),
                    )
                };
                let e = spec
                    .file
                    .warning(UNUSED_ALLOW, reason.span(), message, vec![note]);
                out.push(e);
            }
        }
    }
    out
}

/// Every `allow` table in a file.
fn allows(raw: &RawFile) -> Vec<&RawAllow> {
    let mut out: Vec<&RawAllow> = Vec::new();
    out.extend(raw.source.iter().map(|s| &s.allow));
    out.extend(raw.gap.iter().map(|g| &g.allow));
    for s in &raw.structs {
        out.push(&s.allow);
        out.extend(s.field.iter().map(|f| &f.allow));
        out.extend(s.rule.iter().map(|r| &r.allow));
    }
    for b in &raw.bitfield {
        out.extend(b.fields.iter().map(|f| &f.allow));
        out.extend(b.rule.iter().map(|r| &r.allow));
    }
    for u in &raw.union {
        out.push(&u.discriminator.allow);
        out.extend(u.variant.iter().flat_map(|v| &v.field).map(|f| &f.allow));
    }
    for file in &raw.regfile {
        out.push(&file.allow);
        for b in &file.bundle {
            out.push(&b.allow);
            for r in &b.register {
                out.push(&r.allow);
                out.extend(r.field.iter().map(|f| &f.allow));
            }
        }
    }
    out.retain(|a| !a.is_empty());
    out
}
