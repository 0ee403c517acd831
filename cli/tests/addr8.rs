//! The HW ADDR8 arms read as dmaspec's inference (issue 13 §6): the immediate and table
//! arms of 0xb8/0xbb/0xbd/0xf1 decode to addresses at INFERRED confidence, and the 0xf1
//! alignment rules (seed-004 §4.1 "src %2==0, dst %32==0") are checked at that
//! confidence, for the immediate arm only.
//!
//! Vectors are hand-built from the source tables (tests/vectors/*.hex cite the rows):
//! dma_indirect1d.hex (seed-004 §3), dma_gather_xpose.hex, dma_gather_xpose_imm.hex and
//! dma_gather_xpose_misaligned.hex (seed-004 §4).

mod common;

use common::{dmaspec, stdout, vector};
use dmaspec::Arch;
use dmaspec::words::*;
use serde_json::{Value, json};

/// The leaf of `word` at `path`.
fn leaf(word: &WordMeta, path: &str) -> &'static dmaspec::runtime::meta::LeafMeta {
    word.leaves
        .iter()
        .find(|l| l.path == path)
        .unwrap_or_else(|| panic!("{}: no leaf {path}", word.name))
}

fn decode_json(file: &str) -> Value {
    let text =
        std::fs::read_to_string(format!("{}/tests/vectors/{file}", common::root().display()))
            .unwrap();
    let out = dmaspec(&["decode", "--json", "--hex"], text.as_bytes());
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn indirect1d_immediate_addresses_decode_at_inferred() {
    // seed-004 §3 rows "16 8 src_start_addr ADDR8" (bytes 00 00 00 10 00 00 00 | 00) and
    // "32 8 dst_start_addr ADDR8" (00 00 02 00 00 00 00 | 00): marker 0x00, immediate arm.
    let w = DMA_INDIRECT1D::decode(&vector("dma_indirect1d.hex")).unwrap();
    let ADDR8_arm::addr_immediate(src) = w.src_start_addr.arm() else {
        panic!("src: {:?}", w.src_start_addr)
    };
    assert_eq!(src.address_lo, 0x1000_0000);
    let ADDR8_arm::addr_immediate(dst) = w.dst_start_addr.arm() else {
        panic!("dst: {:?}", w.dst_start_addr)
    };
    assert_eq!(dst.address_lo, 0x0002_0000);
    for path in [
        "src_start_addr.addr_immediate.address_lo",
        "src_start_addr.addr_immediate.address_mid",
        "dst_start_addr.addr_immediate.address_hi",
    ] {
        let l = leaf(&DMA_INDIRECT1D::META, path);
        assert_eq!(l.field.confidence.tag, "INFERRED", "{path}");
        assert_eq!(l.field.confidence.level, "inferred", "{path}");
        // The chain is written out: the compiler's writer, the union identity, relocation.
        let cites: Vec<&str> = l.field.evidence.iter().map(|e| e.cite).collect();
        assert!(
            cites.contains(&"seed-000 §assign64bitAddr")
                && cites.iter().any(|c| c.starts_with("supp-consolidated")),
            "{path}: {cites:?}"
        );
    }
}

#[test]
fn gather_xpose_immediate_addresses_decode() {
    // dma_gather_xpose_imm.hex +16: 00 10 00 40 20 00 00 | 00; +40: 40 00 00 00 00 00 00 | 00.
    let w = DMA_GATHER_XPOSE::decode(&vector("dma_gather_xpose_imm.hex")).unwrap();
    let ADDR8_arm::addr_immediate(src) = w.src_start_addr.arm() else {
        panic!("src: {:?}", w.src_start_addr)
    };
    assert_eq!(
        (src.address_lo, src.address_mid, src.address_hi),
        (0x4000_1000, 0x0020, 0)
    );
    let ADDR8_arm::addr_immediate(dst) = w.dst_start_addr.arm() else {
        panic!("dst: {:?}", w.dst_start_addr)
    };
    assert_eq!(dst.address_lo, 0x40);
    assert!(w.validate(Arch::cayman).is_ok());
    assert_eq!(w.encode(), vector("dma_gather_xpose_imm.hex"));
}

#[test]
fn the_table_arm_decodes_its_offset_and_entry_id() {
    // dma_gather_xpose.hex +16: 05 00 00 00 00 00 00 | 20 (ADDR_TBL): the seed-000
    // assign64bitAddr table layout, offset @+0 and DGE table-entry id @+4.
    let w = DMA_GATHER_XPOSE::decode(&vector("dma_gather_xpose.hex")).unwrap();
    let ADDR8_arm::addr_tbl_offs(t) = w.src_start_addr.arm() else {
        panic!("src: {:?}", w.src_start_addr)
    };
    assert_eq!((t.offset, t.dge_table_entry_id), (5, 0));
    let l = leaf(
        &DMA_GATHER_XPOSE::META,
        "src_start_addr.addr_tbl_offs.offset",
    );
    assert_eq!(l.field.confidence.tag, "INFERRED");
    // An odd table offset is no immediate address: the 2-byte rule does not apply to it.
    assert!(w.validate(Arch::cayman).is_ok());
    // The register arm keeps its bytes raw: no writer gives its layout.
    let r = leaf(&DMA_DIRECT2D::META, "src_start_addr.addr_reg.body");
    assert_eq!(r.field.role, dmaspec::runtime::meta::Role::Unknown);
}

#[test]
fn misaligned_gather_xpose_addresses_are_reported_at_inferred() {
    // dma_gather_xpose_misaligned.hex: src 0x20_4000_1001 (odd), dst 0x50 (not % 32).
    let w = DMA_GATHER_XPOSE::decode(&vector("dma_gather_xpose_misaligned.hex")).unwrap();
    let v = w.validate(Arch::cayman).unwrap_err();
    let failed: Vec<(&str, &str)> = v.leaves().map(|r| (r.id, r.confidence.tag)).collect();
    assert_eq!(
        failed,
        [
            ("src_start_addr_aligned_2", "INFERRED"),
            ("dst_start_addr_aligned_32", "INFERRED")
        ]
    );
    let r = v.leaves().next().unwrap();
    assert_eq!(
        r.fields,
        [
            "src_start_addr.addr_immediate.address_lo",
            "src_start_addr.marker"
        ]
    );
    assert_eq!(r.source, "seed-004 §4.1");
}

#[test]
fn a_misaligned_address_under_another_arm_is_not_checked() {
    // The same misaligned bytes under marker 0x20 (ADDR_TBL) are a table offset, and under
    // 0x80 (ADDR_REG) a register's: neither is an address the rule can read.
    let mut b = vector("dma_gather_xpose_misaligned.hex");
    for marker in [0x20u8, 0x80] {
        b[23] = marker;
        b[47] = marker;
        let v = DMA_GATHER_XPOSE::check_rules(&b, Arch::cayman);
        assert!(
            !v.contains("src_start_addr_aligned_2"),
            "{marker:#x}: {v:?}"
        );
        assert!(
            !v.contains("dst_start_addr_aligned_32"),
            "{marker:#x}: {v:?}"
        );
    }
}

#[test]
fn decode_json_shows_the_addresses() {
    let doc = decode_json("dma_indirect1d.hex");
    let f = &doc["instructions"][0]["fields"];
    assert_eq!(
        f["src_start_addr"]["addr_immediate"],
        json!({"address_lo": 0x1000_0000, "address_mid": 0, "address_hi": 0})
    );
    assert_eq!(
        f["dst_start_addr"]["addr_immediate"]["address_lo"],
        0x0002_0000
    );

    let doc = decode_json("dma_gather_xpose_imm.hex");
    let i = &doc["instructions"][0];
    assert_eq!(i["struct"], "DMA_GATHER_XPOSE");
    assert_eq!(
        i["fields"]["src_start_addr"]["addr_immediate"],
        json!({"address_lo": 0x4000_1000, "address_mid": 0x20, "address_hi": 0})
    );
    assert_eq!(
        i["fields"]["dst_start_addr"]["addr_immediate"]["address_lo"],
        0x40
    );
    assert_eq!(i["violations"], json!([]));
}

#[test]
fn decode_reports_the_misaligned_addresses_at_inferred() {
    let doc = decode_json("dma_gather_xpose_misaligned.hex");
    let v = doc["instructions"][0]["violations"]
        .as_array()
        .unwrap()
        .clone();
    let got: Vec<(&str, &str)> = v
        .iter()
        .map(|x| {
            (
                x["rule"].as_str().unwrap(),
                x["confidence"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("src_start_addr_aligned_2", "INFERRED"),
            ("dst_start_addr_aligned_32", "INFERRED")
        ]
    );
    assert_eq!(
        v[0]["in"],
        "is_valid_dma_gather_transpose > has_valid_gather_transpose_addresses"
    );
}

#[test]
fn validate_says_a_violation_is_only_as_sure_as_its_rule() {
    // The same vector: the two INFERRED alignment rules, in `validate`'s text lines.
    let text = std::fs::read_to_string(format!(
        "{}/tests/vectors/dma_gather_xpose_misaligned.hex",
        common::root().display()
    ))
    .unwrap();
    let out = dmaspec(&["validate", "--wide", "--hex"], text.as_bytes());
    let lines = stdout(&out);
    for rule in ["src_start_addr_aligned_2", "dst_start_addr_aligned_32"] {
        let line = lines
            .lines()
            .find(|l| l.contains(rule))
            .unwrap_or_else(|| panic!("{rule} in {lines}"));
        assert!(
            line.ends_with("; source: seed-004 §4.1; confidence: INFERRED)"),
            "{line}"
        );
    }
}

#[test]
fn decode_table_shows_the_addresses_at_inferred() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/vectors/dma_gather_xpose_imm.hex",
        common::root().display()
    ))
    .unwrap();
    let out = stdout(&dmaspec(&["decode", "--hex"], text.as_bytes()));
    let row = out
        .lines()
        .find(|l| l.contains("src_start_addr.addr_immediate.address_lo"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains("+0x10") && row.contains("INFERRED"), "{row}");
    assert!(row.contains("1073745920"), "{row}");
}

// ---- PSEUDO_ADDR8: the bytes confirmed, the arm identification inferred (§2) ----------

/// The evidence record of `l` citing `cite` whose own tag is `tag`.
fn has_record(l: &dmaspec::runtime::meta::LeafMeta, cite: &str, tag: &str) -> bool {
    l.field
        .evidence
        .iter()
        .any(|e| e.cite == cite && e.confidence.tag == tag)
}

#[test]
fn pseudo_addr8_arm_identification_is_inferred_over_confirmed_bytes() {
    let m = &PSEUDO_DMA_DIRECT2D::META;
    for path in [
        "src_start_addr.addr_var.immediate",
        "src_start_addr.addr_var.var_id_lo",
        "src_start_addr.addr_var.var_id_hi",
        "dst_start_addr.addr_tbl_offs.offset",
        "dst_start_addr.addr_tbl_offs.dge_table_entry_id",
    ] {
        let l = leaf(m, path);
        // Reading seed 000's mode 0x10 as addr_var, 0x20 / 0x28 as addr_tbl_offs: ours.
        assert_eq!(l.field.confidence.tag, "INFERRED", "{path}");
        // The bytes assign64bitAddr writes stay CONFIRMED as evidence.
        assert!(
            has_record(l, "seed-000 §assign64bitAddr", "CONFIRMED"),
            "{path}"
        );
        // Seed 004 tags its supporting types HIGH/OBSERVED (§8, §5.1), not CONFIRMED.
        assert!(
            l.field
                .evidence
                .iter()
                .filter(|e| e.source == "seed-004")
                .all(|e| e.confidence.tag == "HIGH/OBSERVED"),
            "{path}"
        );
    }
    assert!(has_record(
        leaf(m, "src_start_addr.addr_var.immediate"),
        "seed-004 §8",
        "HIGH/OBSERVED"
    ));
}

/// The alternative `name` of the word field or leaf at `path`.
fn alternative(
    m: &WordMeta,
    path: &str,
    name: &str,
) -> &'static dmaspec::runtime::meta::Alternative {
    let field = match m.fields.iter().find(|f| f.name == path) {
        Some(f) => f,
        None => leaf(m, path).field,
    };
    field
        .alternatives
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("{path}: no alternative {name}"))
}

#[test]
fn bit_reconciliations_are_inferred_records_of_confirmed_readings() {
    for (m, path, name) in [
        (
            &PSEUDO_DMA_DIRECT2D::META,
            "src_start_addr.marker",
            "address_mode",
        ),
        (
            &PSEUDO_DMA_EXT::META,
            "idx_num_active_channels",
            "mode_word_hi",
        ),
        (&PSEUDO_DMA_EXT::META, "flags", "mode_word_lo"),
    ] {
        let a = alternative(m, path, name);
        // The page's reading stays as sure as the page says.
        assert_eq!(a.confidence.tag, "CONFIRMED", "{name}");
        // dmaspec's reconciliation with the headers' bits is its own, INFERRED, record.
        let r: Vec<_> = a
            .evidence
            .iter()
            .filter(|e| e.confidence.tag == "INFERRED")
            .collect();
        assert_eq!(r.len(), 1, "{name}");
        assert!(
            r[0].note.unwrap().starts_with("dmaspec's reconciliation"),
            "{name}"
        );
        assert!(!a.doc.contains("line up"), "{name}: {}", a.doc);
        assert!(!a.doc.contains("same value"), "{name}: {}", a.doc);
    }
}

// ---- the other outputs agree: JSON dictionary and Markdown -----------------------------

#[test]
fn json_and_markdown_show_the_addresses_at_inferred() {
    let root = common::root();
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("generated/dmaspec.json")).unwrap(),
    )
    .unwrap();
    let word = json["words"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "DMA_GATHER_XPOSE")
        .unwrap();
    let leaf = word["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["path"] == "dst_start_addr.addr_immediate.address_lo")
        .unwrap();
    assert_eq!(leaf["offset"], 40);
    assert_eq!(leaf["confidence"]["tag"], "INFERRED");
    let rule = json["rules"]["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["owner_name"] == "DMA_GATHER_XPOSE")
        .and_then(|s| {
            s["rules"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["id"] == "dst_start_addr_aligned_32")
        })
        .unwrap();
    assert_eq!(rule["confidence"]["tag"], "INFERRED");

    let page =
        std::fs::read_to_string(root.join("generated/docs/words/DMA_GATHER_XPOSE.md")).unwrap();
    let row = page
        .lines()
        .find(|l| l.contains("`dst_start_addr.addr_immediate.address_lo`"))
        .unwrap();
    assert!(
        row.starts_with("| 40 (0x28) | 4 |") && row.contains("INFERRED"),
        "{row}"
    );
}
