//! Suggesting the name a user most likely meant (feature `std`): the "did you mean" of
//! encode's and the CLI's errors, by the rule the spec loader's suggestions follow.

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
