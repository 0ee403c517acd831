//! Compiler rules (issue 13 §3): what neuronx-cc guarantees of the words it writes is not
//! ISA validity. A word that breaks only a compiler rule is valid — in the library's
//! `validate`, in `dmaspec validate` / `decode` / `encode` — and is reported apart, as a
//! compiler finding; a header rule still invalidates. Every output carries the authority.

mod common;

use common::{dmaspec, root, stderr, stdout, vector};
use dmaspec::Arch;
use dmaspec::runtime::rules::{RuleAuthority, RuleMeta};
use dmaspec::words::*;
use serde_json::{Value, json};

/// A PSEUDO_DMA_EXT built by hand from seed-004 §5.2's table: row "0 1 opcode OPCODE
/// (== 0xda)" = 0xda, row "3 1 compute_op DGE_COMPUTE_OP" = 0x02 (MULTIPLY=2, seed-004 §6.4
/// `common.h:837`), every other row 0: flags 0, idx_num_active_channels 0 (so the index
/// fields are not validated), tile_src_rows / tile_src_cols 0 (index info, no tile: in
/// has_valid_xpose_tile_size's {16, 0} / {128, 0}). It breaks compute_op_none_or_add alone:
/// seed 000 has the compiler write only NONE or ADD, and nothing in §5.2 forbids MULTIPLY.
fn ext_multiply() -> [u8; 64] {
    let mut w = [0u8; 64];
    w[0] = 0xda;
    w[3] = 0x02;
    w
}

/// The extension after the golden 0xd4 it extends (tests/vectors/pseudo_dma_direct2d.hex).
fn pair(ext: [u8; 64]) -> Vec<u8> {
    [vector("pseudo_dma_direct2d.hex"), ext].concat()
}

fn rule<'r>(rules: &'r [RuleMeta], id: &str) -> &'r RuleMeta {
    rules
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no rule `{id}`"))
}

#[test]
fn rust_meta_carries_the_authority() {
    for (rules, id) in [
        (PSEUDO_DMA_EXT::RULES, "compute_op_none_or_add"),
        (PSEUDO_DMA_EXT::RULES, "core_v5_no_dge_compute_op"),
        (PSEUDO_EMBEDDING_UPDATE::RULES, "scratch_address_aligned_64"),
    ] {
        assert_eq!(rule(rules, id).authority, RuleAuthority::Compiler, "{id}");
    }
    for (rules, id) in [
        (PSEUDO_DMA_EXT::RULES, "has_valid_xpose_tile_size"),
        (DMA_INDIRECT1D::RULES, "check_dma_indirect_indices"),
    ] {
        assert_eq!(rule(rules, id).authority, RuleAuthority::Header, "{id}");
    }
}

#[test]
fn a_broken_compiler_rule_leaves_the_word_valid() {
    let w = PSEUDO_DMA_EXT::decode(&ext_multiply()).expect("opcode 0xda");
    assert_eq!(w.compute_op, DGE_COMPUTE_OP::MULTIPLY);
    for arch in [Arch::cayman, Arch::maverick] {
        assert!(w.validate(arch).is_ok(), "{}", arch.name());
    }
    let v = PSEUDO_DMA_EXT::check_rules(&ext_multiply(), Arch::cayman);
    assert!(v.is_empty());
    assert_eq!(
        v.compiler_findings().map(|r| r.id).collect::<Vec<_>>(),
        ["compute_op_none_or_add"]
    );
    // NC-v5's compiler also refuses any compute op (seed-000 FATAL): a second finding.
    let v5 = PSEUDO_DMA_EXT::check_rules(&ext_multiply(), Arch::maverick);
    assert!(v5.is_empty());
    assert_eq!(
        v5.compiler_findings().map(|r| r.id).collect::<Vec<_>>(),
        ["compute_op_none_or_add", "core_v5_no_dge_compute_op"]
    );
    // The 0xca scratch address (seed-000 §IndirectSaveAccumulate row "+0x2C 4
    // instr.embedding_table_base_addr"), 0x10004 instead of the vector's 0x10000: not
    // 64-byte aligned, the compiler's assert, and still a valid word.
    let mut b = vector("seed000_pseudo_embedding_update.hex");
    b[0x2c] = 0x04;
    let v = PSEUDO_EMBEDDING_UPDATE::check_rules(&b, Arch::cayman);
    assert!(v.is_empty());
    assert_eq!(
        v.compiler_findings().map(|r| r.id).collect::<Vec<_>>(),
        ["scratch_address_aligned_64"]
    );
}

#[test]
fn a_broken_header_rule_still_invalidates() {
    // Row "24 1 tile_src_rows uint8_t" = 8: outside has_valid_xpose_tile_size's {16, 0}.
    let mut b = ext_multiply();
    b[24] = 8;
    let v = PSEUDO_DMA_EXT::decode(&b)
        .unwrap()
        .validate(Arch::cayman)
        .unwrap_err();
    assert_eq!(
        v.leaves().map(|r| r.id).collect::<Vec<_>>(),
        ["has_valid_xpose_tile_size"]
    );
    assert_eq!(
        v.compiler_findings().map(|r| r.id).collect::<Vec<_>>(),
        ["compute_op_none_or_add"]
    );
    let out = dmaspec(&["validate", "--wide"], &pair(b));
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("offset 64 PSEUDO_DMA_EXT has_valid_xpose_tile_size: "),
        "{text}"
    );
    assert!(
        lines[1].starts_with("offset 64 warning: PSEUDO_DMA_EXT compute_op_none_or_add: "),
        "{text}"
    );
}

#[test]
fn validate_warns_and_exits_0() {
    let out = dmaspec(&["validate", "--wide"], &pair(ext_multiply()));
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        "offset 64 warning: PSEUDO_DMA_EXT compute_op_none_or_add: the compiler writes only \
         NONE or ADD here (KLR: \"Unsupported DMA compute_op <n>\") (a compiler rule: \
         neuronx-cc does not write such a word, but the ISA sources do not forbid it; fields: \
         compute_op; source: seed-000 §Dynamic / DGE / indirect arm)\n"
    );
    assert!(
        stderr(&out).contains("1 of 2 words breaks a compiler rule"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn decode_reports_compiler_findings_apart() {
    let input = pair(ext_multiply());
    let out = dmaspec(&["decode", "--json"], &input);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ext = &doc["instructions"][1];
    assert_eq!(ext["violations"], json!([]));
    let found = ext["compiler_findings"].as_array().unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["rule"], "compute_op_none_or_add");
    assert_eq!(found[0]["fields"], json!(["compute_op"]));
    // A word without findings has no such key.
    assert!(doc["instructions"][0].get("compiler_findings").is_none());

    let text = stdout(&dmaspec(&["decode"], &input));
    assert!(
        text.contains(
            "  valid for cayman: 2 checked header rules hold; 1 compiler rule checked, 1 broken; \
             1 rule for other architectures\n  \
             COMPILER compute_op_none_or_add: the compiler writes only NONE or ADD here"
        ),
        "{text}"
    );
    assert!(!text.contains("VIOLATION"), "{text}");
}

#[test]
fn encode_writes_a_word_that_breaks_only_a_compiler_rule() {
    let head = dmaspec(&["decode", "--json"], &vector("pseudo_dma_direct2d.hex"));
    let head: Value = serde_json::from_slice(&head.stdout).unwrap();
    // Written by hand: fields not given are 0 and the opcode is the struct's.
    let list = json!({"instructions": [
        head["instructions"][0],
        {"struct": "PSEUDO_DMA_EXT", "fields": {"compute_op": "MULTIPLY"}},
    ]});
    let out = dmaspec(&["encode", "-"], list.to_string().as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, pair(ext_multiply()));
    assert!(
        stderr(&out).contains("1 word(s) written that break a compiler rule"),
        "{}",
        stderr(&out)
    );
}

fn generated(path: &str) -> String {
    std::fs::read_to_string(root().join("generated").join(path)).unwrap()
}

#[test]
fn json_markdown_and_c_carry_the_authority() {
    let doc: Value = serde_json::from_str(&generated("dmaspec.json")).unwrap();
    let set = doc["rules"]["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["owner_name"] == "PSEUDO_DMA_EXT")
        .unwrap();
    let authority = |id: &str| {
        set["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .map(|r| r["authority"].clone())
    };
    assert_eq!(authority("compute_op_none_or_add"), Some(json!("compiler")));
    assert_eq!(
        authority("has_valid_xpose_tile_size"),
        Some(json!("header"))
    );

    let page = generated("docs/words/PSEUDO_DMA_EXT.md");
    let row = page
        .lines()
        .find(|l| l.starts_with("| `compute_op_none_or_add`"))
        .unwrap();
    assert!(row.contains("| enforced | compiler |"), "{row}");
    let rules = generated("docs/rules.md");
    let section = rules.split("## Compiler rules").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    for id in [
        "compute_op_none_or_add",
        "core_v5_no_dge_compute_op",
        "scratch_address_aligned_64",
    ] {
        assert!(
            section.contains(&format!("`{id}`")),
            "{id} in docs/rules.md"
        );
    }
    assert!(!section.contains("`has_valid_xpose_tile_size`"));

    let h = generated("c/aws_neuron_isa_tpb_pseudo_dma_ext.h");
    assert!(h.contains("Authority: compiler."), "C doc comment");
    assert!(h.contains("NEURON_ISA_TPB_PSEUDO_DMA_EXT_compiler_findings("));
}
