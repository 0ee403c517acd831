//! The operands the producer's own lines show for a word beyond its semaphore operands and
//! bare queue name, in the producer's order, shown even at their default value. From the
//! page "Per-Engine TPB-Sequencer Microcode (64-byte word)": pe.asm (§7.1)
//! `PSEUDO_TRIGGER_COLLECTIVE $S[10]>0 $S[22]++@complete ctype=ALL_REDUCE input_tensor_id=3
//! output_tensor_id=4 num_elements=32 dtype=fp32 op=ADD group_id=0;` and pool.asm (§7.2)
//! `PSEUDO_DMA_TRIGGER q_gradient_in block_id=0;`. Words the pages print no line of show
//! only the fields that differ from the word's template.

/// (word, the keys its line shows, in order)
const SHOWN: &[(&str, &[&str])] = &[
    (
        "PSEUDO_TRIGGER_COLLECTIVE",
        &[
            "ctype",
            "input_tensor_id",
            "output_tensor_id",
            "num_elements",
            "dtype",
            "op",
            "group_id",
        ],
    ),
    ("PSEUDO_DMA_TRIGGER", &["block_id"]),
];

/// The keys the producer's line of `word` always shows.
pub fn shown(word: &str) -> &'static [&'static str] {
    SHOWN
        .iter()
        .find(|(w, _)| *w == word)
        .map_or(&[], |(_, keys)| keys)
}

#[cfg(test)]
mod tests {
    use crate::words::WORDS;

    /// Every key names a leaf of its word, so a renamed field cannot drop out silently.
    #[test]
    fn every_shown_key_is_a_leaf() {
        for (word, keys) in super::SHOWN {
            let meta = WORDS.iter().find(|w| w.name == *word).expect(word);
            for key in *keys {
                assert!(meta.leaves.iter().any(|l| l.path == *key), "{word}.{key}");
            }
        }
    }
}
