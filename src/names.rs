//! Suggesting the name a user most likely meant (feature `std`): the "did you mean" of
//! encode's and the CLI's errors, by the rule the spec loader's suggestions follow; and
//! echoing what a user typed in a message without repeating all of it ([`echo`]).

use std::borrow::Cow;

/// The name `typed` most likely misspells: equal but for case, or within a third of its
/// length in edits (as the spec loader's suggestions).
///
/// ```
/// use dmaspec::names::nearest;
///
/// let words = ["DMA_DIRECT2D", "DMA_COPY2D"];
/// assert_eq!(nearest("DMA_DIRECT2", words.into_iter()), Some("DMA_DIRECT2D"));
/// assert_eq!(nearest("dma_copy2d", words.into_iter()), Some("DMA_COPY2D"));
/// assert_eq!(nearest("SEMAPHORE", words.into_iter()), None);
/// ```
pub fn nearest<'a>(typed: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let len = typed.chars().count();
    let limit = (len.max(3) / 3).min(len.saturating_sub(1));
    names
        // The length difference bounds the edits from below: a name it rules out costs
        // nothing (a 10 MB typo is compared with no name).
        .filter(|n| n.chars().count().abs_diff(len) <= limit)
        .map(|n| {
            let d = if n.eq_ignore_ascii_case(typed) {
                0
            } else {
                edits(typed, n)
            };
            (d, n)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// Levenshtein distance between `a` and `b`, in characters.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diag + usize::from(ca != *cb));
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// How many characters of a name or value a message repeats ([`echo`]).
pub const ECHO_WIDTH: usize = 60;

/// `text` as a message repeats it: whole when it has at most [`ECHO_WIDTH`] characters,
/// else its start, `…` and how long it is, so that no message grows with the input.
///
/// ```
/// use dmaspec::names::echo;
///
/// assert_eq!(echo("DMA_DIRECT2D"), "DMA_DIRECT2D");
/// let long = "X".repeat(1_000_000);
/// assert_eq!(echo(&long), format!("{}… (1000000 characters)", &long[..60]));
/// ```
pub fn echo(text: &str) -> Cow<'_, str> {
    echo_within(text, ECHO_WIDTH)
}

/// [`echo`] with room for `width` characters (a path's, say).
pub fn echo_within(text: &str, width: usize) -> Cow<'_, str> {
    match text.char_indices().nth(width) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => {
            let n = text.chars().count();
            Cow::Owned(format!("{}… ({n} characters)", &text[..cut]))
        }
    }
}

/// How many names [`listing`] lists; more are counted.
pub const LISTED: usize = 12;

/// The names a message offers: `one of: a, b, c` when there are at most [`LISTED`], else
/// how many `what` there are and the command (`lists`) that lists them, so that a long
/// enum or word does not fill the message.
///
/// ```
/// use dmaspec::names::listing;
///
/// assert_eq!(listing(&["a", "b"], "fields", "`x`"), "one of: a, b");
/// let many = ["n"; 20];
/// assert_eq!(listing(&many, "fields", "`dmaspec explain W`"), "20 fields; `dmaspec explain W` lists them");
/// ```
pub fn listing(names: &[&str], what: &str, lists: &str) -> String {
    if names.len() <= LISTED {
        format!("one of: {}", names.join(", "))
    } else {
        format!("{} {what}; {lists} lists them", names.len())
    }
}
