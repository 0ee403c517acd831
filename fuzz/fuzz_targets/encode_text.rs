//! Any bytes as UTF-8 text through the library encoder (`dmaspec::json`): nothing panics,
//! every error names an instruction, every encoded word decodes, and decoding then encoding
//! again through the JSON shape gives the same bytes. The properties are in
//! `tests/common/encode_props.rs`, shared with the bounded proptest CI runs
//! (`tests/encode.rs`).
#![no_main]

#[path = "../../tests/common/encode_props.rs"]
mod encode_props;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        encode_props::check(text);
    }
});
