//! What encoding any text with [`dmaspec::json`] must satisfy. Shared by the `encode_text`
//! fuzz target (`fuzz/fuzz_targets/encode_text.rs` includes this file) and the bounded
//! proptest CI runs (`tests/encode.rs`); it panics at the first broken property.
//!
//! - Reading and encoding never panic; an error names an instruction of the list.
//! - A word encoded from a `struct` decodes as that struct in every architecture it has.
//! - Every encoded word comes back byte for byte from the JSON of its decoding (in every
//!   architecture that decodes it) and from its `raw_hex`.

use dmaspec::json::{self, encode_all, instruction, instructions_from_str};
use dmaspec::words::{Arch, WORDS, Word};
use serde_json::{Value as Json, json};

/// Checks every property above on `text`.
pub fn check(text: &str) {
    let Ok(list) = instructions_from_str(text) else {
        return;
    };
    let words = match encode_all(&list) {
        Ok(words) => words,
        Err(errors) => {
            assert!(!errors.is_empty(), "an Err carries at least one error");
            for e in &errors {
                assert!(e.instruction < list.len(), "{e}");
                assert!(!e.message.is_empty());
            }
            return;
        }
    };
    assert_eq!(words.len(), list.len());
    for (ins, bytes) in list.iter().zip(&words) {
        if let Some(name) = ins.get("struct").and_then(Json::as_str) {
            let meta = WORDS
                .iter()
                .find(|w| w.name == name)
                .expect("only known structs encode");
            for &arch in meta.arch {
                let word = Word::decode(bytes, arch).expect("an encoded word decodes");
                assert_eq!(word.meta().name, name, "in {}", arch.name());
            }
        }
        for &arch in Arch::ALL {
            if let Some(word) = Word::decode(bytes, arch) {
                let again = instruction(&word, bytes, arch);
                assert_eq!(
                    encode_all(std::slice::from_ref(&again)),
                    Ok(vec![*bytes]),
                    "{} in {}: {again}",
                    word.meta().name,
                    arch.name()
                );
            }
        }
        let raw = json!({ "struct": null, "raw_hex": json::hex_string(bytes) });
        assert_eq!(encode_all(&[raw]), Ok(vec![*bytes]));
    }
}
