//! A bound on how deeply a rule expression nests, checked on its tokens before syn parses
//! it: syn, the checker and the emitters each recurse once per level, so an expression
//! like a sum of a thousand terms or a thousand `!` would otherwise exhaust the stack.
//! An `in [...]` list of any length is flat and stays well inside the bound.

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};

/// At most this many levels along one path through an expression: every name, number and
/// operator character counts one, and so does every bracket; each item of a list (`in
/// [...]`, a call's arguments) starts afresh.
pub const MAX_EXPR_DEPTH: usize = 64;

/// Where (byte range in `text`) the expression first nests deeper than [`MAX_EXPR_DEPTH`].
/// Text that does not lex is left to syn, which reports it.
pub(crate) fn too_deep(text: &str) -> Option<Range<usize>> {
    let tokens: TokenStream = text.parse().ok()?;
    // The lexer and `TokenStream`'s drop are iterative; walk the groups with a stack too.
    // Each level: (rest of its tokens, tokens counted since its start or last comma).
    let mut levels = vec![(tokens.into_iter(), 0usize)];
    loop {
        let (iter, _) = levels.last_mut()?;
        let Some(tree) = iter.next() else {
            levels.pop();
            if let Some((_, count)) = levels.last_mut() {
                *count += 1; // the group is one operand of its level
            }
            continue;
        };
        let span = match &tree {
            TokenTree::Group(g) => g.span_open().byte_range(),
            other => other.span().byte_range(),
        };
        match tree {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                if let Some((_, count)) = levels.last_mut() {
                    *count = 0;
                }
                continue;
            }
            TokenTree::Group(g) => levels.push((g.stream().into_iter(), 0)),
            _ => {
                if let Some((_, count)) = levels.last_mut() {
                    *count += 1;
                }
            }
        }
        let depth: usize = levels.iter().map(|(_, c)| c).sum::<usize>() + levels.len() - 1;
        if depth > MAX_EXPR_DEPTH {
            return Some(span);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_flat_and_chains_are_not() {
        let list: Vec<String> = (0..5000).map(|i| i.to_string()).collect();
        assert_eq!(too_deep(&format!("x == [{}]", list.join(", "))), None);
        assert_eq!(too_deep("a.b[1] + 2 <= LIMIT && !(c == 3)"), None);
        let sum = vec!["n"; 40].join(" + ");
        let at = too_deep(&sum).expect("too deep");
        assert_eq!(&sum[at.clone()], "n");
        assert_eq!(sum[..at.start].matches('n').count(), 32);
        let parens = format!("{}n{}", "(".repeat(70), ")".repeat(70));
        assert_eq!(too_deep(&parens), Some(64..65));
    }
}
