//! Root causes and the errors that follow from them. A declaration that could not be
//! read, a member whose type failed, a file that is missing: what later checks say about
//! them is folded into the error that caused it, as a note with the count, so that the
//! first error shown is the one to fix. An unknown type name (a type renamed, or never
//! declared) is one cause: its first use in file order stands for its other uses, counted.
//!
//! Errors are matched by the names they quote in backticks, which is coarse on purpose: it
//! covers every check (types, rules, lowerings, klr) without each having to know why a
//! name is missing. An unrelated error that quotes the same name is held back too, until
//! the root is fixed; the spec is rejected either way.

use crate::diagnostics::SpecError;

/// What later errors a root error explains (they are folded into it as a note).
pub(super) enum Cause {
    /// Errors that name this declaration or member, which failed.
    Name(String),
    /// Errors whose message starts so (every `unknown source` when no source is declared).
    Prefix(&'static str),
    /// The other `unknown type `X`` errors of the root's name `X` (a type renamed or never
    /// declared): counted as uses of it.
    Uses(String),
}

impl Cause {
    fn explains(&self, message: &str) -> bool {
        match self {
            Cause::Prefix(p) => message.starts_with(p),
            Cause::Uses(n) => unknown_type(message) == Some(n),
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

/// An unknown type name is one cause however often it is used: the first of its
/// `unknown type` errors in file order (`order`) stands for all of them, and for every
/// other error that quotes the name (a conflict about it, a rule naming its enumerators).
pub(super) fn unknown_types<K: Ord>(
    errors: &[SpecError],
    order: impl Fn(&SpecError) -> K,
) -> Vec<(usize, usize, Cause)> {
    let mut first: Vec<(&str, usize)> = Vec::new();
    for (i, e) in errors.iter().enumerate() {
        let Some(name) = unknown_type(&e.message) else {
            continue;
        };
        match first.iter_mut().find(|(n, _)| *n == name) {
            Some((_, at)) if order(e) < order(&errors[*at]) => *at = i,
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
pub(super) fn suppress(errors: &mut Vec<SpecError>, cascades: &[(usize, usize, Cause)]) {
    // The root and cause explaining each error, if any.
    let direct: Vec<Option<(usize, &Cause)>> = (0..errors.len())
        .map(|i| {
            let message = &errors[i].message;
            cascades
                .iter()
                .find(|(root, after, cause)| *root != i && i >= *after && cause.explains(message))
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
            && let Some(name) = unknown_type(&e.message)
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
