//! The JSON shape of words, both ways (feature `json`): a decoded word's fields as JSON
//! ([`JsonFields`], [`instruction`]) and words from a list of instructions in that shape
//! ([`encode_all`]). It is what `dmaspec decode --json` prints and `dmaspec encode` reads;
//! encoding what decoding printed gives the same bytes.
//!
//! ```
//! use dmaspec::json::{encode_all, instruction, instructions_from_str};
//! use dmaspec::words::Arch;
//!
//! let text = r#"[{"struct": "DMA_DIRECT2D", "fields": {"semaphore": 5, "in_dtype": "FP16"}}]"#;
//! let words = encode_all(&instructions_from_str(text).unwrap()).unwrap();
//! assert_eq!((words[0][0], words[0][13]), (0xb8, 5));
//! let word = dmaspec::Word::decode(&words[0], Arch::cayman).unwrap();
//! let again = encode_all(&[instruction(&word, &words[0], Arch::cayman)]).unwrap();
//! assert_eq!(again, words);
//! ```

mod encode;
mod fields;
mod path;
mod stream;
mod strict;

use serde_json::{Value as Json, json};

use crate::words::{Arch, Word};

pub(crate) use encode::write_leaf;
pub use encode::{
    EncodeError, ListError, encode_all, encode_instruction, encode_records, instructions,
    instructions_from_str, records,
};
pub use fields::{JsonFields, hex_string, leaf_json, raw_bits};
pub use path::PathStack;
pub use stream::{MAX_ELEMENT_BYTES, for_each_in, for_each_instruction, for_each_record};
pub use strict::{Strict, from_str_strict};

/// The smallest instruction object [`encode_all`] reads back as `bytes`: `struct` and
/// `fields` of `word`, the decoding of `bytes` in `arch`.
pub fn instruction(word: &Word, bytes: &[u8; 64], arch: Arch) -> Json {
    let mut fields = JsonFields::new(bytes);
    word.visit(&mut fields, arch);
    json!({ "struct": word.meta().name, "fields": fields.finish().0 })
}
