//! `dmaspec explain`: a word's table, one field with every evidence record and conflict.

mod common;

use std::process::Output;

use common::{dmaspec, stdout};

fn explain(what: &str) -> Output {
    dmaspec(&["explain", what], &[])
}

#[test]
fn by_opcode_and_by_name_give_the_word_table() {
    let by_op = explain("0xbb");
    assert_eq!(by_op.status.code(), Some(0));
    let text = stdout(&by_op);
    // seed-004 §1: 0xbb is OPCODE_DMA_INDIRECT / DMA_INDIRECT1D_STRUCT.
    assert!(text.starts_with("DMA_INDIRECT1D — NEURON_ISA_TPB_DMA_INDIRECT1D_STRUCT"));
    assert!(text.contains("opcode 0xbb (DMA_INDIRECT)"));
    // seed-004 §3 row "15 1 flags DMA_INDIRECT_FLAGS", §3.1 gather_dim:2 at b4..5.
    let row = text
        .lines()
        .find(|l| l.contains("flags.gather_dim"))
        .unwrap();
    assert!(
        row.contains("+0x0f b4..5") && row.contains("INDIRECT_DIM"),
        "{row}"
    );
    assert_eq!(stdout(&explain("DMA_INDIRECT1D")), text);
    assert_eq!(stdout(&explain("187")), text);
}

#[test]
fn one_field_with_enumerators_evidence_and_conflicts() {
    let text = stdout(&explain("DMA_INDIRECT1D.flags.gather_dim"));
    assert!(text.contains("at        +0x0f b4..5"));
    assert!(text.contains("0x1 Y (NEURON_ISA_TPB_INDIRECT_DIM_Y)"));
    assert!(text.contains("seed-004 §3.1"));

    // The opcode alias recorded from instruction_mapping.json (seed-004 §1 QUIRK).
    let word = stdout(&explain("0xb8"));
    assert!(
        word.contains("DMAMEMCPY, also spelled DMA_MEMCPY"),
        "{word}"
    );

    // +0x0F of 0xD4: dge_op, with seed 000's sync_command_byte as the other reading.
    let dge = stdout(&explain("PSEUDO_DMA_DIRECT2D.dge_op"));
    assert!(
        dge.contains("CONFLICT   also read as `sync_command_byte`"),
        "{dge}"
    );
    assert!(dge.contains("0x2 DMA_TRANSPOSE") && dge.contains("only on cayman, mariana, maverick"));
}

#[test]
fn a_field_lists_the_rules_that_read_it() {
    // seed-004 §6.2: check_dma_indirect_indices(idx_num_active_channels), == 128.
    let text = stdout(&explain("DMA_INDIRECT1D.idx_num_active_channels"));
    assert!(text.contains("rules that read it"), "{text}");
    let rule = text
        .lines()
        .find(|l| l.contains("- check_dma_indirect_indices"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(rule.contains("POOLING_NUM_CHANNELS"), "{rule}");
}

#[test]
fn a_prefix_lists_every_leaf_below_it() {
    let text = stdout(&explain("DMA_INDIRECT1D.flags"));
    for sub in [
        "indirect_mode",
        "idx_bound_is_err",
        "non_unique_dst_idx",
        "gather_dim",
        "scatter_dim",
    ] {
        assert!(
            text.contains(&format!("DMA_INDIRECT1D.flags.{sub}")),
            "{sub}"
        );
    }
}

#[test]
fn unknown_names_are_usage_errors() {
    assert_eq!(explain("NOPE").status.code(), Some(2));
    let o = explain("DMA_INDIRECT1D.nope");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no field `nope`"));
}
