//! Issue 13 §4: the compiler's assert and error strings seed 000 gives are data on the word
//! whose encoder raises them (unenforced rules whose message is the string), and `explain`
//! lists them.

mod common;

use common::{dmaspec, stdout};

#[test]
fn seed000_assert_strings_are_on_their_words_and_in_explain() {
    // (opcode, string): seed-000 §Dynamic / DGE / indirect arm (generateDynamicDMA, 0xD4),
    // §assign64bitAddr and §The mode byte a2[7] (the 0xD4 src/dst ADDR8), §What "dynamic"
    // means (assembleDynamicInfo), §Form B (generateIndirectLoadSave, 0xC4).
    for (op, s) in [
        ("0xd4", "Vector-dynamic-offsets AP must exist"),
        ("0xd4", "…location must be SB"),
        ("0xd4", "Must have Indirect direction!"),
        ("0xd4", "Transpose with DynamicAP only on Pool"),
        ("0xd4", "DGE transpose must have 4D AP"),
        (
            "0xd4",
            "Hardware Restriction: HBM accessing instruction cannot have TensorIndirect AP",
        ),
        ("0xd4", "RegisterAP 1 or 2 RegAPPairs"),
        ("0xd4", "Register has not been allocated yet!"),
        (
            "0xd4",
            "physical tensor cannot be Function argument / NEFF IO",
        ),
        ("0xd4", "physical variable mode can only have physical AP"),
        ("0xd4", "Cannot find register: … for scalar offset"),
        ("0xc4", "Unknown dtype"),
        // Already rules before issue 13, now listed by explain too.
        (
            "0xd6",
            "Indirect DMA bound-check can only be on Pool engine",
        ),
    ] {
        let text = stdout(&dmaspec(&["explain", op], &[]));
        let listed = text
            .split_once("\nnot enforced (compiler asserts")
            .map(|(_, a)| a)
            .unwrap_or_else(|| panic!("{op}: no assert list:\n{text}"));
        assert!(listed.contains(&format!("\"{s}\"")), "{op}: {s}\n{listed}");
    }
    let o = dmaspec(&["explain", "0xd4"], &[]);
    assert!(stdout(&o).contains("(addr8_register_ap_pairs; seed-000 §The mode byte a2[7]"));
}
