//! `docs/sources.md`, rendered from the real spec: every section of every source with the
//! facts that cite it, every citation counted, and uncited sections marked.

use std::collections::BTreeMap;

use dmaspec_codegen::emit::markdown;
use dmaspec_testkit::model;

fn docs() -> BTreeMap<String, String> {
    markdown::render(&model()).into_iter().collect()
}

fn page() -> String {
    docs()
        .remove("docs/sources.md")
        .expect("docs/sources.md is rendered")
}

/// The table row of `source`'s section whose heading cell is `heading`.
fn row<'p>(page: &'p str, source: &str, heading: &str) -> &'p str {
    let start = page
        .find(&format!("\n## {source}\n"))
        .unwrap_or_else(|| panic!("a section for {source}"));
    let part = &page[start + 1..];
    let part = &part[..part[3..].find("\n## ").map_or(part.len(), |e| e + 3)];
    part.lines()
        .find(|l| l.starts_with(&format!("| {heading} |")))
        .unwrap_or_else(|| panic!("a row `{heading}` under {source}"))
}

/// Asserts that `text` contains each of `facts`.
#[track_caller]
fn lists(text: &str, facts: &[&str]) {
    for fact in facts {
        assert!(text.contains(fact), "{fact} in: {text}");
    }
}

#[test]
fn a_seed_004_section_lists_the_facts_that_cite_it() {
    let p = page();
    // seed-004 §6.5 `DTYPE` / `DTYPE_PAIR`: spec/types/dma_common.toml cites it for both
    // types, spec/words/pseudo_dma_direct2d.toml for the pseudo's in_dtype field.
    let r = row(
        &p,
        "seed-004",
        r"6.5 `DTYPE` / `DTYPE_PAIR` \[HIGH/OBSERVED\]",
    );
    lists(
        r,
        &[
            "type [`DTYPE`](types.md#dtype)",
            "type [`DTYPE_PAIR`](types.md#dtype_pair)",
            "field [`PSEUDO_DMA_DIRECT2D.in_dtype`](words/PSEUDO_DMA_DIRECT2D.md#layout)",
        ],
    );
    // seed-004 §3.2 (the INDIRECT1D validity constraints) backs the word's rules.
    let r = row(
        &p,
        "seed-004",
        "3.2 Validity constraints (header inline, OBSERVED HIGH)",
    );
    lists(
        r,
        &["rule [`DMA_INDIRECT1D.is_valid_dma_indirect`](words/DMA_INDIRECT1D.md#validity-rules)"],
    );
}

#[test]
fn a_fact_shows_the_string_that_names_it_in_that_section() {
    // seed-000 §Static arm names the pseudo's struct and its semaphore byte
    // (spec/words/pseudo_dma_direct2d.toml).
    let p = page();
    let r = row(
        &p,
        "seed-000",
        "Static arm — DIRECT2D record (op `0xD4` = 212)",
    );
    lists(
        r,
        &[
            "word [`PSEUDO_DMA_DIRECT2D`](words/PSEUDO_DMA_DIRECT2D.md#evidence) · names \
             “NEURON_ISA_TPB_PSEUDO_DMA_DIRECT2D_STRUCT”",
            "field [`PSEUDO_DMA_DIRECT2D.semaphore`](words/PSEUDO_DMA_DIRECT2D.md#layout) · \
             names “instr.semaphore”",
        ],
    );
}

#[test]
fn other_kinds_of_fact_are_listed_where_they_cite() {
    let p = page();
    // The enumerator alias DMA_MEMCPY cites seed-004 §1 (spec/types/opcode.toml).
    let r = row(
        &p,
        "seed-004",
        r"1. Opcode + struct binding \[HIGH/OBSERVED\]",
    );
    assert!(
        r.contains("enumerator [`OPCODE.DMAMEMCPY as DMA_MEMCPY`](types.md#opcode)"),
        "{r}"
    );
    // A lowering mapping, a klr leaf and an alternative, each under its own source.
    assert!(
        p.contains("lowering mapping [`DMA_DIRECT2D."),
        "a lowering mapping"
    );
    assert!(
        p.contains("klr leaf [`NcDmaCopy`](klr/leaves/NcDmaCopy.md)"),
        "a klr leaf"
    );
    assert!(
        p.contains(
            "alternative [`HEADER.debug_cmd as format_reserved`](conflicts.md#headerdebug_cmd)"
        ),
        "an alternative reading"
    );
}

#[test]
fn an_uncited_section_stands_out() {
    let p = page();
    // seed 004's "See also" and seed 000's "Cross-References" are lists of other pages:
    // no fact cites them.
    assert_eq!(
        row(&p, "seed-004", "⚠ See also"),
        "| ⚠ See also | **nothing cites it** |"
    );
    assert_eq!(
        row(&p, "seed-000", "⚠ Cross-References"),
        "| ⚠ Cross-References | **nothing cites it** |"
    );
    // seed 004 §5 is cited only through its subsections 5.1 .. 5.5.
    assert_eq!(
        row(
            &p,
            "seed-004",
            r"⚠ 5. The compiler pseudo + the lowering \[HIGH/OBSERVED\]"
        ),
        r"| ⚠ 5. The compiler pseudo + the lowering \[HIGH/OBSERVED\] | **nothing cites it directly**; cited subsections: 5 |"
    );
}

#[test]
fn every_citation_of_the_model_is_counted_once() {
    let m = model();
    // Evidence records are the objects with a `cite`; aliases cite a source with their
    // `source` (a name the spec coined, `ours = true`, has none).
    fn count(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::Object(o) => {
                let own = usize::from(o.contains_key("cite"))
                    + o.get("aliases")
                        .and_then(|a| a.as_array())
                        .map_or(0, |a| a.iter().filter(|a| a["source"].is_string()).count());
                own + o.values().map(count).sum::<usize>()
            }
            serde_json::Value::Array(a) => a.iter().map(count).sum(),
            _ => 0,
        }
    }
    let total = count(&serde_json::to_value(&m).unwrap());
    assert!(total > 1000, "the spec has {total} citations");
    assert!(
        page().contains(&format!("\nIn all: {total} citations.\n")),
        "the summary counts {total}"
    );
}

/// Its links are checked with every page's by `docs.rs` (`links_resolve`).
#[test]
fn every_source_is_summarised() {
    let p = page();
    for s in &model().sources {
        assert!(
            p.contains(&format!("| [`{}`](#{}) |", s.id, s.id)),
            "{} summarised",
            s.id
        );
    }
}

#[test]
fn the_docs_index_links_the_page() {
    assert!(docs()["docs/README.md"].contains("[Sources, section by section](sources.md)"));
}
