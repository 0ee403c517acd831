//! An engine's `.bin` stream decoded as `dmaspec decode` decodes it: 64-byte TPB-sequencer
//! slots through the library's stream decoder, in decode's JSON shape. `sp.bin` is the other
//! ISA, 8-byte SP slots (`aws_tonga_isa_sp_common.h`: NBYTES 8), which the spec does not lay
//! out: framed and counted, each slot's bytes shown.

use dmaspec::Arch;
use dmaspec::stream::{WORD_SIZE, words};
use serde_json::{Value as Json, json};

use dmaspec::json::hex_string;
use dmaspec::verbs::shape::instruction_json;

/// The SP sequencer's slot size.
pub const SP_SLOT: usize = 8;

/// The slot size of `engine`'s stream.
pub fn slot_size(engine: &str) -> usize {
    if engine == "sp" { SP_SLOT } else { WORD_SIZE }
}

/// The stream as JSON: `slot_bytes`, `slots`, `trailing_bytes` and, per slot, decode's
/// instruction object (64-byte slots) or `{index, offset, hex}` (SP slots).
pub fn stream_json(engine: &str, bytes: &[u8], arch: Arch) -> Json {
    let size = slot_size(engine);
    let whole = bytes.len() - bytes.len() % size;
    let slots: Vec<Json> = if size == WORD_SIZE {
        words(&bytes[..whole], arch)
            .zip(bytes.chunks_exact(WORD_SIZE))
            .map(|((at, d), chunk)| {
                let word: &[u8; WORD_SIZE] = chunk.try_into().expect("a whole word");
                instruction_json(at / WORD_SIZE, at, word, &d, arch)
            })
            .collect()
    } else {
        (bytes[..whole].chunks(size).enumerate())
            .map(|(i, s)| json!({ "index": i, "offset": i * size, "hex": hex_string(s) }))
            .collect()
    };
    json!({
        "slot_bytes": size,
        "slots": slots.len(),
        "trailing_bytes": bytes.len() - whole,
        "instructions": slots,
    })
}
