//! `dmaspec validate` and the violation reports of `dmaspec decode`. Words come from the
//! hand-built golden vectors (tests/vectors/, seed-004 tables), broken one byte at a time.

mod common;

use ::dmaspec::prelude::Checked;
use common::{dmaspec, stderr, stdout, vector};
use serde_json::Value;

/// A valid stream: the gather-transpose, then an INDIRECT1D whose idx_num_active_channels
/// (+14) is 64 instead of 128 (seed-004 §6.2: check_dma_indirect_indices), then a valid
/// INDIRECT1D.
fn stream_with_one_bad_word() -> Vec<u8> {
    let mut bad = vector("dma_indirect1d.hex");
    bad[14] = 64;
    [
        vector("dma_gather_xpose.hex"),
        bad,
        vector("dma_indirect1d.hex"),
    ]
    .concat()
}

#[test]
fn validate_passes_valid_streams() {
    let mut input = Vec::new();
    for v in [
        "dma_gather_xpose.hex",
        "dma_indirect1d.hex",
        "dma_direct2d_xpose.hex",
        "pseudo_dma_direct2d.hex",
        "pseudo_dma_ext.hex",
    ] {
        input.extend_from_slice(&vector(v));
    }
    let out = dmaspec(&["validate", "--wide"], &input);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    // The golden 0xda uses its index fields (idx_num_active_channels != 0), which only the
    // bodiless index_fields_valid could excuse (seed 004 §5.2): undecided, not invalid.
    assert_eq!(
        stdout(&out),
        "offset 256 undecided: PSEUDO_DMA_EXT index_fields_valid: undecided, the sources name \
         this alternative without a body (in is_valid_pseudo_dma_ext_fields; the checked \
         alternatives fail: index_fields_unused; source: seed-004 §5.2)\n"
    );
    assert!(
        stderr(&out).contains("1 of 5 words are undecided"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn validate_names_offset_struct_rule_and_message() {
    let out = dmaspec(&["validate", "--wide"], &stream_with_one_bad_word());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].starts_with(
            "offset 64 DMA_INDIRECT1D check_dma_indirect_indices: idx_num_active_channels must be POOLING_NUM_CHANNELS (128)"
        ),
        "{text}"
    );
    assert!(lines[0].contains("in is_valid_dma_indirect"), "{text}");
    assert!(
        lines[0].contains("fields: idx_num_active_channels"),
        "{text}"
    );
    assert!(lines[0].contains("source: seed-004 §6.2"), "{text}");
    assert!(
        stderr(&out).contains("1 of 3 words are invalid for cayman"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn validate_reports_every_violation_of_a_word() {
    let mut w = vector("dma_gather_xpose.hex");
    w[60..62].copy_from_slice(&3u16.to_le_bytes()); // elem_size 3: odd (§4.1)
    w[63] = 0; // gather_dim X (§4.1 wants Y)
    let out = dmaspec(&["validate", "--wide"], &w);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let rules: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().nth(3).unwrap().trim_end_matches(':'))
        .collect();
    assert_eq!(
        rules,
        [
            "has_valid_gather_transpose_elem_size",
            "has_valid_gather_transpose_flags"
        ],
        "{text}"
    );
}

#[test]
fn validate_reads_hex_and_architectures() {
    let hex = "# a gather-transpose\n".to_string()
        + &vector("dma_gather_xpose.hex")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ");
    let ok = dmaspec(
        &["validate", "--wide", "--hex", "--arch", "mariana"],
        hex.as_bytes(),
    );
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    // Sunda has no 0xf1 (seed-004 §10): not decodable there, so not valid.
    let sunda = dmaspec(
        &["validate", "--wide", "--hex", "--arch", "sunda"],
        hex.as_bytes(),
    );
    assert_eq!(sunda.status.code(), Some(1));
    assert_eq!(
        stdout(&sunda),
        "offset 0 opcode 0xf1: no word has this opcode in sunda\n"
    );
    // An architecture-limited compiler rule: NC-v5's compiler refuses a DGE compute op
    // (seed-000 FATAL), which the ISA does not forbid: a warning, and the word is valid.
    let ext = vector("pseudo_dma_ext.hex"); // compute_op ADD
    let pair = [vector("pseudo_dma_direct2d.hex"), ext].concat();
    let v5 = dmaspec(&["validate", "--wide", "--arch", "maverick"], &pair);
    assert_eq!(v5.status.code(), Some(0));
    // Its index fields are in use, which only a bodiless alternative could excuse: the
    // undecided line comes first, then the warning.
    let text = stdout(&v5);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("offset 64 undecided: PSEUDO_DMA_EXT index_fields_valid: "),
        "{text}"
    );
    assert!(
        lines[1].starts_with(
            "offset 64 warning: PSEUDO_DMA_EXT core_v5_no_dge_compute_op: CoreV5 cannot support DGE with compute op yet (a compiler rule"
        ),
        "{text}"
    );
    assert_eq!(
        dmaspec(&["validate", "--wide", "--arch", "cayman"], &pair)
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn validate_flags_orphans_and_partial_words() {
    let out = dmaspec(&["validate", "--wide"], &vector("pseudo_dma_ext.hex"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out)
            .contains("offset 0 PSEUDO_DMA_EXT: must immediately follow PSEUDO_DMA_DIRECT2D")
    );
    let mut input = vector("dma_indirect1d.hex").to_vec();
    input.extend_from_slice(&[0xbb, 0x10]);
    let out = dmaspec(&["validate", "--wide"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("byte offset 64"), "{}", stderr(&out));
    assert_eq!(
        dmaspec(&["validate", "--bogus"], &[]).status.code(),
        Some(2)
    );
}

#[test]
fn decode_json_lists_violations() {
    let out = dmaspec(&["decode", "--json"], &stream_with_one_bad_word());
    assert_eq!(out.status.code(), Some(0), "decode itself succeeds");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ins = doc["instructions"].as_array().unwrap();
    assert_eq!(ins[0]["violations"], serde_json::json!([]));
    assert_eq!(ins[2]["violations"], serde_json::json!([]));
    let v = ins[1]["violations"].as_array().unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["rule"], "check_dma_indirect_indices");
    assert_eq!(
        v[0]["fields"],
        serde_json::json!(["idx_num_active_channels"])
    );
    assert_eq!(v[0]["source"], "seed-004 §6.2");
    assert!(
        v[0]["message"]
            .as_str()
            .unwrap()
            .contains("POOLING_NUM_CHANNELS")
    );
    // A word that is not decoded is not validated.
    let mut unknown = vector("dma_indirect1d.hex");
    unknown[0] = 0x42;
    let doc: Value =
        serde_json::from_slice(&dmaspec(&["decode", "--json"], &unknown).stdout).unwrap();
    assert!(doc["instructions"][0]["violations"].is_null());
    // The architecture matters: a DGE compute op on NC-v5, a compiler finding.
    let pair = [
        vector("pseudo_dma_direct2d.hex"),
        vector("pseudo_dma_ext.hex"),
    ]
    .concat();
    let doc: Value =
        serde_json::from_slice(&dmaspec(&["decode", "--json", "--arch", "maverick"], &pair).stdout)
            .unwrap();
    assert_eq!(doc["instructions"][1]["violations"], serde_json::json!([]));
    assert_eq!(
        doc["instructions"][1]["compiler_findings"][0]["rule"],
        "core_v5_no_dge_compute_op"
    );
}

#[test]
fn decode_table_shows_violations() {
    let out = dmaspec(&["decode"], &stream_with_one_bad_word());
    let text = stdout(&out);
    assert!(text.contains("  valid for cayman"), "{text}");
    assert!(
        text.contains("  VIOLATION check_dma_indirect_indices: idx_num_active_channels must be POOLING_NUM_CHANNELS (128)"),
        "{text}"
    );
}

/// The top-level `rules` that apply to `arch`, as (enforced header rules, rules named
/// without a body).
fn top_level_rules(rules: &[dmaspec::runtime::rules::RuleMeta], arch: &str) -> (usize, usize) {
    let tops = rules
        .iter()
        .filter(|r| r.parent.is_none() && (r.arch.is_empty() || r.arch.contains(&arch)));
    let checked = tops.clone().filter(|r| r.enforced).count();
    (checked, tops.filter(|r| !r.enforced).count())
}

#[test]
fn decode_counts_only_the_rules_it_checked() {
    // seed-004 §4 names is_valid_pseudo_dma_direct2d's predicates, most without a body
    // (`enforced = false` in the spec): the verdict must not count those as holding.
    let (checked, unchecked) =
        top_level_rules(dmaspec::words::PSEUDO_DMA_DIRECT2D::RULES, "cayman");
    assert!(checked > 0 && unchecked > checked, "{checked} {unchecked}");
    let text = stdout(&dmaspec(&["decode"], &vector("pseudo_dma_direct2d.hex")));
    let verdict = text.lines().find(|l| l.contains("valid for")).unwrap();
    assert!(
        verdict.starts_with(&format!(
            "  valid for cayman: {checked} checked header rules hold; {unchecked} rules the \
             sources name without a body, not checked"
        )),
        "{verdict}"
    );
    assert!(!verdict.contains(&format!("{} top-level", checked + unchecked)));
}

#[test]
fn decode_reports_a_constant_mismatch_and_does_not_call_the_word_valid() {
    // supp-instruction-bundle: inst_word_len is 0x10 (16 dwords) in every 64-byte word.
    let mut w = vector("dma_direct2d_xpose.hex");
    w[1] = 0x11;
    let text = stdout(&dmaspec(&["decode"], &w));
    assert!(
        text.contains("  CONSTANT header.inst_word_len: is 0x11, but the spec's constant is 0x10"),
        "{text}"
    );
    assert!(!text.contains("valid for"), "{text}");
    // validate reports the same fault, in the same words.
    let out = dmaspec(&["validate", "--wide"], &w);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("header.inst_word_len: is 0x11, but the spec's constant is 0x10"),
        "{}",
        stdout(&out)
    );
}

/// pool.bin of the NEFF carved in "A Concrete NEFF, Carved Byte-by-Byte" (wiki-seq-microcode
/// §7.2's dump): two PSEUDO_DMA_TRIGGER slots and, third, EVENT_SEMAPHORE 0xA0, an SP/SEQ
/// control op the spec names (OPCODE) but lays out no word for. It is reported as not
/// checked and the stream is valid; `--strict` makes it invalid.
#[test]
fn a_word_outside_the_family_is_not_checked_unless_strict() {
    let pool = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/vectors/neff_c08220/pool.hex"),
    )
    .unwrap();
    let line = "offset 128 not checked: opcode 0xa0 EVENT_SEMAPHORE (SP): outside the spec's \
                family (no layout), not checked\n";
    let out = dmaspec(&["validate", "--wide", "--hex"], &pool);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), line);
    assert!(
        stderr(&out).contains("1 of 3 words are not checked"),
        "{}",
        stderr(&out)
    );
    let strict = dmaspec(&["validate", "--wide", "--hex", "--strict"], &pool);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(stdout(&strict), line);
    assert!(stderr(&strict).contains("1 of 3 words are invalid for cayman"));
    // A byte no OPCODE enumerator names is still a fault, strict or not.
    let unknown = dmaspec(&["validate", "--wide"], &[0xffu8; 64]);
    assert_eq!(unknown.status.code(), Some(1));
}
