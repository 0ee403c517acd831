//! Root causes and the errors that follow from them. A declaration that could not be
//! read, a member whose type failed, a file that is missing: what later checks say about
//! them is folded into the error that caused it, as a note with the count, so that the
//! first error shown is the one to fix. An unknown name (a type or word renamed, or never
//! declared) is one cause: its first use in file order stands for its other uses, counted,
//! whichever check reported them (a field's type, a lowering, a conflict, a gap, a klr path).
//!
//! Errors are matched by the names they quote in backticks, which is coarse on purpose: it
//! covers every check (types, rules, lowerings, klr) without each having to know why a
//! name is missing. An unrelated error that quotes the same name is held back too, until
//! the root is fixed; the spec is rejected either way.

use std::path::PathBuf;

use crate::diagnostics::SpecError;

/// What later errors a root error explains (they are folded into it as a note).
pub(super) enum Cause {
    /// Errors that name this declaration or member, which failed.
    Name(String),
    /// Errors whose message starts so (every `unknown source` when no source is declared).
    Prefix(&'static str),
    /// The other errors about the unknown name of the root (a type or word renamed, or
    /// never declared): counted as uses of it.
    Uses(String),
    /// Every error in these files (what cannot be checked without the root's declarations).
    Files(Vec<PathBuf>),
}

impl Cause {
    /// Whether this explains `e`, which is about the unknown name `unknown`, if any.
    fn explains(&self, e: &SpecError, unknown: Option<&str>) -> bool {
        let message = &e.message;
        match self {
            Cause::Prefix(p) => message.starts_with(p),
            Cause::Uses(n) => unknown == Some(n),
            Cause::Files(files) => files.contains(&e.file),
            Cause::Name(n) => message
                .split('`')
                .skip(1)
                .step_by(2)
                .any(|quoted| quoted.split(['.', '[', ']']).any(|seg| seg == n)),
        }
    }
}

/// The `X` of an `unknown type `X`` error.
fn unknown_type(message: &str) -> Option<&str> {
    message.strip_prefix("unknown type `")?.split('`').next()
}

/// Per error, the unknown name it is about: an `unknown type` error's, or the one the
/// loader recorded with it (`named`: error index, name).
pub(super) fn unknown_names(
    errors: &[SpecError],
    named: &[(usize, String)],
) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = (errors.iter())
        .map(|e| unknown_type(&e.message).map(str::to_string))
        .collect();
    for (i, name) in named {
        if let Some(slot) = out.get_mut(*i) {
            *slot = Some(name.clone());
        }
    }
    out
}

/// An unknown name is one cause however often it is used: the first of the errors about it
/// in file order (`order`) stands for all of them, and for every other error that quotes
/// the name (a conflict about it, a rule naming its enumerators). A use as a type (`unknown
/// type` with its suggestion) goes before other uses (a conflict's `about`, a gap).
pub(super) fn unknown_uses<K: Ord>(
    errors: &[SpecError],
    unknown: &[Option<String>],
    order: impl Fn(&SpecError) -> K,
) -> Vec<(usize, usize, Cause)> {
    let key = |e: &SpecError| (unknown_type(&e.message).is_none(), order(e));
    let mut first: Vec<(&str, usize)> = Vec::new();
    for (i, e) in errors.iter().enumerate() {
        let Some(name) = unknown[i].as_deref() else {
            continue;
        };
        match first.iter_mut().find(|(n, _)| *n == name) {
            Some((_, at)) if key(e) < key(&errors[*at]) => *at = i,
            Some(_) => {}
            None => first.push((name, i)),
        }
    }
    let mut out = Vec::new();
    for (name, root) in first {
        out.push((root, 0, Cause::Uses(name.to_string())));
        out.push((root, 0, Cause::Name(name.to_string())));
    }
    out
}

/// Drops the errors a root error explains, noting on the root how many there were.
/// `unknown` is [`unknown_names`] of `errors`.
pub(super) fn suppress(
    errors: &mut Vec<SpecError>,
    unknown: &[Option<String>],
    cascades: &[(usize, usize, Cause)],
) {
    // The root and cause explaining each error, if any.
    let direct: Vec<Option<(usize, &Cause)>> = (0..errors.len())
        .map(|i| {
            let name = unknown[i].as_deref();
            cascades
                .iter()
                .find(|(root, after, cause)| {
                    *root != i && i >= *after && cause.explains(&errors[i], name)
                })
                .map(|(root, _, cause)| (*root, cause))
        })
        .collect();
    // Follow a root that is itself explained to the error that stands (a cycle stops).
    let mut folded_into: Vec<Option<usize>> = vec![None; errors.len()];
    for i in 0..errors.len() {
        let mut root = direct[i].map(|(r, _)| r);
        let mut steps = 0;
        while let Some(r) = root
            && let Some((next, _)) = direct[r]
            && next != i
            && steps < errors.len()
        {
            root = Some(next);
            steps += 1;
        }
        folded_into[i] = root;
    }
    let mut follow = vec![0usize; errors.len()];
    let mut uses = vec![0usize; errors.len()];
    for (i, root) in folded_into.iter().enumerate() {
        if let Some(root) = *root {
            match direct[i] {
                Some((r, Cause::Uses(_))) if r == root => uses[root] += 1,
                _ => follow[root] += 1,
            }
        }
    }
    for (i, e) in errors.iter_mut().enumerate() {
        if uses[i] > 0
            && let Some(name) = &unknown[i]
        {
            let n = uses[i];
            let what = if n == 1 { "use" } else { "uses" };
            e.notes
                .push(format!("and {n} more {what} of `{name}`, not shown"));
        }
        match follow[i] {
            0 => {}
            1 => e
                .notes
                .push("1 later error that follows from this one is not shown".into()),
            n => e.notes.push(format!(
                "{n} later errors that follow from this one are not shown"
            )),
        }
    }
    let mut i = 0;
    errors.retain(|_| {
        i += 1;
        folded_into[i - 1].is_none()
    });
}
