//! Suggesting the name a user most likely meant (feature `std`): the "did you mean" of
//! encode's and the CLI's errors, by the rule the spec loader's suggestions follow; and
//! echoing what a user typed in a message without repeating all of it ([`echo`]).

use std::borrow::Cow;

/// The name `typed` most likely misspells, by the rule the spec loader's suggestions
/// follow: equal but for case; else one that starts or ends with it and is at most twice as
/// long (a name renamed with a suffix), the least added first; else within a third of its
/// length in edits, the closest first.
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
    names
        .filter_map(|n| Some((closeness(typed, n)?, n)))
        .min_by_key(|(k, _)| *k)
        .map(|(_, n)| n)
}

/// How near `n` is to `typed` (smaller is nearer) under [`nearest`]'s rule, or `None`.
fn closeness(typed: &str, n: &str) -> Option<(u8, usize)> {
    if n.eq_ignore_ascii_case(typed) {
        return Some((0, 0));
    }
    if extends(n, typed) {
        return Some((1, n.len() - typed.len()));
    }
    let len = typed.chars().count();
    let limit = (len.max(3) / 3).min(len.saturating_sub(1));
    // The length difference bounds the edits from below: a name it rules out costs
    // nothing (a 10 MB typo is compared with no name).
    if n.chars().count().abs_diff(len) > limit {
        return None;
    }
    let d = edits(typed, n);
    (d <= limit).then_some((2, d))
}

/// Whether `n` starts or ends with `typed` (of 3 characters or more), in any case, and is
/// at most twice as long.
fn extends(n: &str, typed: &str) -> bool {
    let same = |part: Option<&str>| part.is_some_and(|p| p.eq_ignore_ascii_case(typed));
    let cut = n.len().wrapping_sub(typed.len());
    typed.len() >= 3
        && (typed.len()..=2 * typed.len()).contains(&n.len())
        && (same(n.get(..typed.len())) || same(n.get(cut..)))
}

/// The one of `names` that `typed` names, the same rule for every name a user types: the
/// name itself; else the only name equal to it but for case (a name listed twice is one
/// name). Otherwise `Err` with the name it most likely misspells ([`nearest`]), if any.
///
/// ```
/// use dmaspec::names::lookup;
///
/// let files = ["UDMA_M2S", "UDMA_S2M"];
/// assert_eq!(lookup("udma_m2s", files.into_iter()), Ok("UDMA_M2S"));
/// assert_eq!(lookup("UDMA_M2X", files.into_iter()), Err(Some("UDMA_M2S")));
/// // Two names equal but for case: only the exact one is meant.
/// assert_eq!(lookup("a", ["A", "a"].into_iter()), Ok("a"));
/// assert_eq!(lookup("x", ["A", "a"].into_iter()), Err(None));
/// ```
pub fn lookup<'a>(
    typed: &str,
    names: impl Iterator<Item = &'a str> + Clone,
) -> Result<&'a str, Option<&'a str>> {
    if let Some(n) = names.clone().find(|n| *n == typed) {
        return Ok(n);
    }
    let mut folded = names.clone().filter(|n| n.eq_ignore_ascii_case(typed));
    match folded.next() {
        Some(n) if folded.all(|m| m == n) => Ok(n),
        _ => Err(nearest(typed, names)),
    }
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
