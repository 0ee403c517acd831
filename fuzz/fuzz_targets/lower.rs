//! Any byte string as a stream of words through `dmaspec::lower`, in every architecture,
//! with every ABI, without variables and with every variable bound: nothing panics, and the
//! lowering contract holds (every word accounted for once; pass-through unchanged; lowered
//! words decode as the real word the selector picks; variables change only the words that
//! name one). The properties are in `tests/common/lower_props.rs`, shared with the bounded
//! proptest CI runs (`tests/lower.rs`).
#![no_main]

#[path = "../../tests/common/lower_props.rs"]
mod lower_props;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lower_props::check(data));
