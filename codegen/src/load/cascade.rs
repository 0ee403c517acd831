//! Root causes and the errors that follow from them. A declaration that could not be
//! read, a member whose type failed, a file that is missing: what later checks say about
//! them is folded into the error that caused it, as a note with the count, so that the
//! first error shown is the one to fix.
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
}

impl Cause {
    fn explains(&self, message: &str) -> bool {
        match self {
            Cause::Prefix(p) => message.starts_with(p),
            Cause::Name(n) => message
                .split('`')
                .skip(1)
                .step_by(2)
                .any(|quoted| quoted.split(['.', '[', ']']).any(|seg| seg == n)),
        }
    }
}

/// Drops the errors a root error explains, noting on the root how many there were.
pub(super) fn suppress(errors: &mut Vec<SpecError>, cascades: &[(usize, usize, Cause)]) {
    let mut folded_into: Vec<Option<usize>> = vec![None; errors.len()];
    for i in 0..errors.len() {
        let message = &errors[i].message;
        let root = cascades
            .iter()
            .find(|(_, after, cause)| i >= *after && cause.explains(message))
            .map(|(root, ..)| folded_into[*root].unwrap_or(*root));
        folded_into[i] = root;
    }
    let mut follow = vec![0usize; errors.len()];
    for root in folded_into.iter().flatten() {
        follow[*root] += 1;
    }
    for (e, n) in errors.iter_mut().zip(&follow) {
        match n {
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
