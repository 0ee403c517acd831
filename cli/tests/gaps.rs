//! What the sources name but the spec does not lay out (`spec/gaps.toml`): listed on the
//! coverage page, carried by the JSON and the Rust `GAPS` table, and explained by
//! `dmaspec explain` with the reason and the sources.

mod common;

use common::{dmaspec, root, stdout};
use dmaspec::words::{GAPS, WORDS, enumerators};
use serde_json::Value;

fn generated(path: &str) -> String {
    std::fs::read_to_string(root().join("generated").join(path)).unwrap()
}

/// The coverage page's row of the gap named `name` (its first cell).
fn coverage_row(page: &str, name: &str) -> String {
    let cell = format!("| `{name}` |");
    let rows: Vec<&str> = page.lines().filter(|l| l.starts_with(&cell)).collect();
    assert_eq!(rows.len(), 1, "one row for {name}");
    rows[0].to_string()
}

#[test]
fn the_coverage_page_lists_each_gap_with_reason_and_sources() {
    let page = generated("docs/coverage.md");
    let section = &page[page
        .find("## Known but not specified\n")
        .expect("the section")..];
    // supp-dge-microop §3: the micro-ops "are not 64-byte slots"; §3.1 the GENERATE string.
    let generate = coverage_row(section, "GENERATE");
    assert!(generate.contains("not 64-byte slots"), "{generate}");
    assert!(generate.contains("**supp-dge-microop §3.1**"), "{generate}");
    // wiki-s3d3-collective §1: PSEUDO_TRIGGER_ALL_REDUCE == 0xc7, lowered host-side.
    let c7 = coverage_row(section, "PSEUDO_TRIGGER_ALL_REDUCE");
    assert!(c7.contains("`0xc7` `PSEUDO_TRIGGER_ALL_REDUCE`"), "{c7}");
    assert!(c7.contains("**wiki-s3d3-collective §1**"), "{c7}");
    // 0xc8 has a word now (wiki-seq-microcode §6), so it is no gap.
    assert!(
        !section.contains("| `PSEUDO_TRIGGER_COLLECTIVE` |"),
        "{section}"
    );
    // supp-dve-datamove §Gaps and confidence: the 0x9B companion "is not deep-transcribed".
    let c9b = coverage_row(section, "0x9B select-reduce companion");
    assert!(c9b.contains("`0x9b` `DVE_READ_ACCUMULATOR`"), "{c9b}");
    assert!(c9b.contains("not deep-transcribed"), "{c9b}");
    // A part of a word links the word's page.
    let band = coverage_row(section, "S4_PB band");
    assert!(
        band.contains("[POOL_BUFFER_LOAD](words/POOL_BUFFER_LOAD.md)"),
        "{band}"
    );
    // Every gap has its row, and the docs index links the section.
    for g in GAPS {
        coverage_row(section, g.name);
    }
    assert!(generated("docs/README.md").contains("(coverage.md#known-but-not-specified)"));
}

#[test]
fn the_json_carries_the_gaps() {
    let doc: Value = serde_json::from_str(&generated("dmaspec.json")).unwrap();
    assert_eq!(doc["format"], "dmaspec/5");
    let gaps = doc["gaps"].as_array().expect("a gaps list");
    assert_eq!(gaps.len(), GAPS.len());
    let c7 = gaps
        .iter()
        .find(|g| g["name"] == "PSEUDO_TRIGGER_ALL_REDUCE")
        .unwrap();
    assert_eq!(c7["opcode"]["value"], 0xc7);
    assert_eq!(c7["opcode"]["enumerator"], "PSEUDO_TRIGGER_ALL_REDUCE");
    assert_eq!(c7["word"], Value::Null);
    assert_eq!(c7["file"], "gaps.toml");
    assert_eq!(c7["evidence"][1]["source"], "wiki-s3d3-collective");
    let band = gaps.iter().find(|g| g["name"] == "S4_PB band").unwrap();
    assert_eq!(band["word"], "POOL_BUFFER_LOAD");
    assert_eq!(band["confidence"]["tag"], "HIGH/OBSERVED");
}

#[test]
fn explain_of_an_opcode_without_a_word_says_why() {
    let out = dmaspec(&["explain", "0xc7"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with("PSEUDO_TRIGGER_ALL_REDUCE — known but not specified\n"),
        "{text}"
    );
    assert!(
        text.contains("opcode 0xc7 (PSEUDO_TRIGGER_ALL_REDUCE)"),
        "{text}"
    );
    assert!(
        text.contains("why: A pseudo word the runtime lowers host-side"),
        "{text}"
    );
    assert!(
        text.contains("- wiki-s3d3-collective §The lowering relationship [HIGH/OBSERVED]"),
        "{text}"
    );
    // By the gap's name, case-insensitively, and for a micro-op that has no opcode.
    assert_eq!(
        stdout(&dmaspec(&["explain", "pseudo_trigger_all_reduce"], &[])),
        text
    );
    let generate = stdout(&dmaspec(&["explain", "GENERATE"], &[]));
    assert!(
        generate.contains("- supp-dge-microop §3 [HIGH/OBSERVED]"),
        "{generate}"
    );
    // 0xd9 by its shipped spelling (wiki-pseudo-lowering §3, wiki-opcode-diff §2); the Master
    // Opcode Reference's CollectiveCompute is an alias.
    let d9 = stdout(&dmaspec(&["explain", "0xd9"], &[]));
    assert!(
        d9.contains("opcode 0xd9 (PSEUDO_TRIGGER_COLLECTIVE2, also spelled CollectiveCompute)"),
        "{d9}"
    );
}

#[test]
fn a_word_lists_its_parts_that_are_not_specified() {
    // wiki-rdma-desc §2: EXTENDED_OPCODE 0..4, 6, 7 have no layout; 8 and 9 are words.
    let text = stdout(&dmaspec(&["explain", "EXTENDED"], &[]));
    let list = &text[text.find("known but not specified").expect("the list")..];
    for name in [
        "EXTENDED_ENGINE_NOP",
        "EXTENDED_SBUF_TO_SBUF",
        "EXTENDED_CPTC_DECODE",
    ] {
        assert!(list.contains(&format!("  {name}\n")), "{list}");
    }
    assert!(!list.contains("EXTENDED_RDMA_DESC_GEN"), "{list}");
    // A record too: SDMA_CCE_DESC's op-high nibble (supp-field-tables §7 Table 7.0).
    let cce = stdout(&dmaspec(&["explain", "SDMA_CCE_DESC"], &[]));
    assert!(cce.contains("  op-high nibble\n"), "{cce}");
}

#[test]
fn the_trigger_all_reduce_opcode_has_its_name_and_no_word() {
    // wiki-s3d3-collective §1: "PSEUDO_TRIGGER_ALL_REDUCE == 0xc7".
    let e = enumerators("OPCODE")
        .unwrap()
        .iter()
        .find(|e| e.value == 0xc7)
        .expect("0xc7");
    assert_eq!(e.name, "PSEUDO_TRIGGER_ALL_REDUCE");
    assert!(WORDS.iter().all(|w| w.opcode != 0xc7));
    assert!(
        GAPS.iter()
            .any(|g| g.opcode == Some((0xc7, "PSEUDO_TRIGGER_ALL_REDUCE")))
    );
}
