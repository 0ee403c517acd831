//! `dmaspec decode` on the seed-000 golden vectors (tests/vectors/seed000_*.hex): the JSON
//! keeps its shape, conflicted fields show under "alternatives", joined values under
//! "joined", constants that differ under "constant_mismatches"; the table shows queue names
//! as text and marks constant mismatches.

mod common;

use common::{assert_success, dmaspec, vector};
use serde_json::{Value, json};

/// The instructions of `decode --json --hex <vector files...>` (fed as one stream).
fn decode_json(files: &[&str]) -> Vec<Value> {
    let mut text = String::new();
    for f in files {
        let path = format!("{}/tests/vectors/{f}", common::root().display());
        text.push_str(&std::fs::read_to_string(&path).unwrap());
        text.push('\n');
    }
    let out = dmaspec(&["decode", "--json", "--hex"], text.as_bytes());
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    doc["instructions"].as_array().unwrap().clone()
}

#[test]
fn every_seed000_word_decodes_in_one_stream() {
    let all = decode_json(&[
        "seed000_static_save.hex",
        "seed000_hwdge_copy.hex",
        "seed000_transpose_6c.hex",
        "seed000_trigger.hex",
        "seed000_swap_queue_set.hex",
        "seed000_rearm.hex",
        "seed000_pseudo_range_check.hex",
        "seed000_pseudo_embedding_update.hex",
        "seed000_indirect_copy.hex",
        "seed000_move_shape.hex",
    ]);
    let names: Vec<&str> = all.iter().map(|i| i["struct"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "PSEUDO_DMA_DIRECT2D",
            "PSEUDO_DMA_DIRECT2D",
            "PSEUDO_DMA_EXT",
            "PSEUDO_DMA_DIRECT2D",
            "PSEUDO_DMA_TRIGGER",
            "PSEUDO_DMA_SWAP_QUEUE_SET",
            "PSEUDO_DMA_REARM",
            "PSEUDO_RANGE_CHECK",
            "PSEUDO_EMBEDDING_UPDATE",
            "INDIRECT_COPY",
            "MOVE_SHAPE",
        ]
    );
    let opcodes: Vec<u64> = all.iter().map(|i| i["opcode"].as_u64().unwrap()).collect();
    assert_eq!(
        opcodes,
        [
            0xd4, 0xd4, 0xda, 0xd4, 0xc1, 0xcf, 0xc2, 0xd6, 0xca, 0xe7, 0xb2
        ]
    );
    // The shape of the first issue: index, offset, opcode, struct, fields.
    for (n, i) in all.iter().enumerate() {
        assert_eq!(i["index"], n);
        assert_eq!(i["offset"], n * 64);
        assert!(i["fields"]["header"].is_object() || i["fields"]["opcode"].is_object());
    }
    assert_eq!(all[2]["extension_of"], 1);
    assert!(all.iter().all(|i| i.get("constant_mismatches").is_none()));
}

#[test]
fn worked_example_json_shows_both_readings_of_0x0f_and_the_marker() {
    let i = &decode_json(&["seed000_static_save.hex"])[0];
    let f = &i["fields"];
    assert_eq!(
        f["dge_op"],
        json!({"raw": 3, "name": "DMA_GATHER_TRANSPOSE"})
    );
    assert_eq!(
        f["src_start_addr"]["marker"],
        json!({"raw": 16, "flags": ["VAR_ID"]})
    );
    assert_eq!(
        f["src_start_addr"]["addr_var"],
        json!({"immediate": 1024, "var_id_lo": 0, "var_id_hi": 0})
    );
    assert_eq!(f["dst_start_addr"]["addr_var"]["var_id_lo"], 5);
    assert_eq!(f["src_step_elem"], json!([1024, 0]));
    assert_eq!(f["src_elem_size"], 1024);
    assert_eq!(f["in_dtype"], json!({"raw": 7, "name": "FP16"}));

    let alts = &i["alternatives"];
    let sync = &alts["dge_op"][0];
    assert_eq!(sync["name"], "sync_command_byte");
    assert_eq!(sync["value"], 3);
    assert_eq!(sync["confidence"], "CONFIRMED");
    assert!(
        sync["sources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str().unwrap().starts_with("seed-000"))
    );
    assert_eq!(alts["src_start_addr.marker"][0]["name"], "address_mode");
    assert_eq!(alts["src_start_addr.marker"][0]["value"], 16);
    assert_eq!(alts["src_step_elem"][0]["name"], "src_step_bytes");
}

#[test]
fn mode_byte_0x6c_in_json() {
    let i = &decode_json(&["seed000_transpose_6c.hex"])[0];
    assert_eq!(
        i["fields"]["dst_start_addr"]["marker"],
        json!({"raw": 108, "flags": ["OFFSET_WIDE", "OFFSET_REG", "ADDR_TBL", "SHAPE_REG"]})
    );
    assert_eq!(
        i["fields"]["dst_start_addr"]["addr_tbl_offs"],
        json!({"offset": 7, "dge_table_entry_id": 4, "unknown_6": [0]})
    );
    assert_eq!(i["alternatives"]["dst_start_addr.marker"][0]["value"], 108);
    assert_eq!(i["alternatives"]["dge_op"][0]["value"], 1);
}

#[test]
fn extension_json_has_joined_bounds_and_the_mode_word_readings() {
    let all = decode_json(&["seed000_hwdge_copy.hex"]);
    let e = &all[1];
    assert_eq!(e["struct"], "PSEUDO_DMA_EXT");
    assert_eq!(
        e["joined"]["dst_bound_size_bytes_full"],
        json!({"value": 0x1_0010_0000u64, "parts": ["dst_bound_size_bytes", "dst_bound_size_bytes_upper"]})
    );
    assert_eq!(e["joined"]["src_bound_size_bytes_full"]["value"], 0x2_0000);
    // All three readings of the mode word: seed 004's flags@1 (fields), seed 000's
    // Markdown mode word @+1/+2 and its newer text's mode word @+0x04 (alternatives).
    assert!(e["fields"]["flags"].is_object());
    assert_eq!(e["alternatives"]["flags"][0]["name"], "mode_word_lo");
    assert_eq!(
        e["alternatives"]["idx_num_active_channels"][0]["name"],
        "mode_word_hi"
    );
    let txt = &e["alternatives"]["src_idx_start_addr"][0];
    assert_eq!(txt["name"], "mode_word");
    assert_eq!(txt["type"], "u16");
    assert_eq!(txt["confidence"], "STRONG");
    assert!(
        txt["sources"][0]
            .as_str()
            .unwrap()
            .starts_with("seed-000-txt")
    );
}

#[test]
fn trigger_name_is_text() {
    let i = &decode_json(&["seed000_trigger.hex"])[0];
    assert_eq!(
        i["fields"]["dma_queue_name"],
        "dma_queue_activation_in_000001a"
    );
    assert_eq!(i["fields"]["block_id"], 7);

    let out = dmaspec(
        &["decode", "--hex", "tests/vectors/seed000_trigger.hex"],
        b"",
    );
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().find(|l| l.contains("dma_queue_name")).unwrap();
    assert!(
        row.contains("+0x0c") && row.contains("\"dma_queue_activation_in_000001a\""),
        "{row}"
    );
    let row = text.lines().find(|l| l.contains("use_raw_count")).unwrap();
    assert!(row.contains("+0x2c"), "{row}");
}

#[test]
fn save_accumulate_json_joins_the_entry_size() {
    let i = &decode_json(&["seed000_pseudo_embedding_update.hex"])[0];
    assert_eq!(i["fields"]["embed_entry_size_lo"], 0);
    assert_eq!(i["fields"]["embed_entry_size_hi"], 1);
    assert_eq!(
        i["joined"]["embed_entry_size_bytes"],
        json!({"value": 65536, "parts": ["embed_entry_size_lo", "embed_entry_size_hi"]})
    );
}

#[test]
fn indirect_copy_json_keeps_both_widths() {
    let i = &decode_json(&["seed000_indirect_copy.hex"])[0];
    assert_eq!(i["fields"]["num_elem"], 24);
    assert_eq!(i["fields"]["src_buffer_size"], 4096);
    assert_eq!(
        i["fields"]["index_addr"],
        json!({"address": 4096, "indirect": 1, "active": 0, "register_mode": 0})
    );
    let a = &i["alternatives"];
    assert_eq!(a["num_elem"][0]["name"], "num_elem_u16");
    assert_eq!(a["num_elem"][0]["type"], "u16");
    assert_eq!(a["src_buffer_size"][0]["name"], "src_buffer_size_u16");
}

#[test]
fn constant_mismatches_are_reported_not_refused() {
    // 0xd6 with its 0x11 tag changed to 0x12 and the | 0x30 nibble to 0x4.
    let mut b = vector("seed000_pseudo_range_check.hex");
    b[0x28] = 0x12;
    b[0x29] = 0x49;
    let out = dmaspec(&["decode", "--json"], &b);
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let i = &doc["instructions"][0];
    assert_eq!(i["struct"], "PSEUDO_RANGE_CHECK");
    assert_eq!(i["fields"]["const_tag"], 0x12);
    assert_eq!(
        i["fields"]["src_dtype"],
        json!({"dtype": {"raw": 9, "name": "UINT32"}, "tag": 4})
    );
    assert_eq!(
        i["constant_mismatches"],
        json!([
            {"field": "const_tag", "expected": 17, "found": 18},
            {"field": "src_dtype.tag", "expected": 3, "found": 4},
        ])
    );

    // 0xcf with a swap marker of 2.
    let mut b = vector("seed000_swap_queue_set.hex");
    b[0x3C] = 2;
    let out = dmaspec(&["decode", "--json"], &b);
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["instructions"][0]["constant_mismatches"],
        json!([{"field": "swap_marker", "expected": 1, "found": 2}])
    );

    // The table marks it too.
    let out = dmaspec(&["decode"], &b);
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().find(|l| l.contains("swap_marker")).unwrap();
    assert!(row.contains("CONSTANT MISMATCH: expected 0x1"), "{row}");
}

/// A joined value has no offset of its own: its table row names its parts' offsets (before,
/// a bogus `+0x00`). Seed 000: embed_entry_size_lo @0x32, embed_entry_size_hi @0x3c.
#[test]
fn save_accumulate_table_shows_the_joined_value_at_its_parts() {
    let out = dmaspec(
        &[
            "decode",
            "--hex",
            "tests/vectors/seed000_pseudo_embedding_update.hex",
        ],
        &[],
    );
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.contains("embed_entry_size_bytes"))
        .unwrap();
    assert!(row.trim_start().starts_with("+0x32, +0x3c "), "{row}");
    assert!(
        row.contains("65536 (0x10000)") && row.contains("joined from"),
        "{row}"
    );
}
