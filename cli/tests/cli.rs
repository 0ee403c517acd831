//! The `dmaspec` binary: decode's JSON shape and exit codes, gen --check.
//! Words are built by hand from seed-004 §2 (DMA_DIRECT2D table rows).

mod common;

use std::process::Output;

use common::{assert_success, dmaspec};
use serde_json::Value;

/// A DMA_DIRECT2D word (seed-004 §2): opcode 0xb8 @0, inst_word_len 0x10 @1,
/// dma_configs.priority_class = 3 @12, semaphore 5 @13, compute_op ADD (1) @15,
/// src_start_addr marker 0x28 (OFFSET_REG|ADDR_TBL) @23, src_step_elem = [-2, 512] @24,
/// src_num_elem = [128, 4] @32, src_elem_size 2 @36, src_bound_reg = bc_reg 3 | bc_enabled
/// (0x83) @38, in_dtype FP16 (7) @62, out_dtype BFLOAT16 (6) @63.
fn direct2d() -> [u8; 64] {
    let mut b = [0u8; 64];
    b[0] = 0xb8;
    b[1] = 0x10;
    b[12] = 0x03;
    b[13] = 5;
    b[15] = 0x01;
    b[23] = 0x28;
    b[24..28].copy_from_slice(&(-2i32).to_le_bytes());
    b[28..32].copy_from_slice(&512i32.to_le_bytes());
    b[32..34].copy_from_slice(&128u16.to_le_bytes());
    b[34..36].copy_from_slice(&4u16.to_le_bytes());
    b[36..38].copy_from_slice(&2u16.to_le_bytes());
    b[38] = 0x83;
    b[62] = 7;
    b[63] = 6;
    b
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn decode_json_has_the_documented_shape() {
    let out = dmaspec(&["decode", "--json"], &direct2d());
    assert_success(&out);
    let doc = json_of(&out);
    let i = &doc["instructions"][0];
    assert_eq!(i["index"], 0);
    assert_eq!(i["offset"], 0);
    assert_eq!(i["opcode"], 184);
    assert_eq!(i["struct"], "DMA_DIRECT2D");
    let f = &i["fields"];
    assert_eq!(
        f["header"]["opcode"],
        serde_json::json!({"raw": 184, "name": "DMAMEMCPY"})
    );
    assert_eq!(f["header"]["inst_word_len"], 16);
    assert_eq!(f["dma_configs"]["priority_class"], 3);
    assert_eq!(f["semaphore"], 5);
    assert_eq!(
        f["compute_op"],
        serde_json::json!({"raw": 1, "name": "ADD"})
    );
    assert_eq!(
        f["src_start_addr"]["marker"],
        serde_json::json!({"raw": 40, "flags": ["OFFSET_REG", "ADDR_TBL"]})
    );
    assert!(
        f["src_start_addr"]["addr_tbl_offs"].is_object(),
        "{}",
        f["src_start_addr"]
    );
    assert_eq!(f["src_step_elem"], serde_json::json!([-2, 512]));
    assert_eq!(f["src_num_elem"], serde_json::json!([128, 4]));
    assert_eq!(f["src_elem_size"], 2);
    assert_eq!(
        f["src_bound_reg"],
        serde_json::json!({"bc_reg": 3, "bc_disable_oob_error_notif": 0, "bc_enabled": 1})
    );
    assert_eq!(f["in_dtype"], serde_json::json!({"raw": 7, "name": "FP16"}));
    assert_eq!(
        f["out_dtype"],
        serde_json::json!({"raw": 6, "name": "BFLOAT16"})
    );
}

#[test]
fn value_that_is_not_an_enumerator_has_null_name() {
    let mut b = direct2d();
    b[62] = 0x1F; // DTYPE has no 0x1F (seed-004 §6.5 lists 0x0..0xF)
    let doc = json_of(&dmaspec(&["decode", "--json"], &b));
    assert_eq!(
        doc["instructions"][0]["fields"]["in_dtype"],
        serde_json::json!({"raw": 31, "name": null})
    );
}

#[test]
fn unknown_opcode_is_reported_with_raw_hex_not_an_error() {
    let mut input = direct2d().to_vec();
    let mut other = [0u8; 64];
    other[0] = 0x42;
    other[63] = 0xab;
    input.extend_from_slice(&other);
    let out = dmaspec(&["decode", "--json"], &input);
    assert_eq!(out.status.code(), Some(0));
    let i = &json_of(&out)["instructions"][1];
    assert_eq!(i["index"], 1);
    assert_eq!(i["offset"], 64);
    assert_eq!(i["opcode"], 0x42);
    assert!(i["struct"].is_null());
    let hex = i["raw_hex"].as_str().unwrap();
    assert_eq!(hex.len(), 128);
    assert!(hex.starts_with("42") && hex.ends_with("ab"));
}

#[test]
fn partial_word_prints_whole_words_then_fails_naming_the_offset() {
    let mut input = direct2d().to_vec();
    input.extend_from_slice(&[0xb8, 0x10, 0x00]);
    for args in [&["decode", "--json"][..], &["decode"][..]] {
        let out = dmaspec(args, &input);
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("byte offset 64"), "{stderr}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("DMA_DIRECT2D"));
    }
    // The JSON document is still complete.
    let out = dmaspec(&["decode", "--json"], &input);
    assert_eq!(json_of(&out)["instructions"].as_array().unwrap().len(), 1);
}

#[test]
fn hex_input_ignores_whitespace_and_comments() {
    let hex: String = direct2d()
        .chunks(8)
        .map(|c| c.iter().map(|b| format!("{b:02x} ")).collect::<String>() + "# a comment\n")
        .collect();
    let out = dmaspec(&["decode", "--hex", "--json"], hex.as_bytes());
    assert_success(&out);
    assert_eq!(json_of(&out)["instructions"][0]["struct"], "DMA_DIRECT2D");

    let out = dmaspec(&["decode", "--hex"], b"b8 10 zz");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("column 7"));
}

#[test]
fn table_output_names_fields_values_and_confidence() {
    let out = dmaspec(&["decode"], &direct2d());
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("DMA_DIRECT2D"));
    let row = text.lines().find(|l| l.contains("compute_op")).unwrap();
    assert!(
        row.contains("+0x0f") && row.contains("ADD") && row.contains("HIGH/OBSERVED"),
        "{row}"
    );
    let row = text
        .lines()
        .find(|l| l.contains("src_bound_reg.bc_reg"))
        .unwrap();
    assert!(row.contains("+0x26 b0..5") && row.contains(" 3 "), "{row}");
    // ADDR8's table arm, read by dmaspec's inference (issue 13 §6).
    let row = text
        .lines()
        .find(|l| l.contains("addr_tbl_offs.offset"))
        .unwrap();
    assert!(row.contains("+0x10") && row.contains("INFERRED"), "{row}");
    // The meaning that does not fit 120 columns is on the lines under its row.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("inst_word_len"))
        .unwrap();
    let row = lines[at..=at + 1].join("\n");
    assert!(row.contains("CONFLICT"), "{row}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        dmaspec(&["decode", "--arch", "nope"], &[]).status.code(),
        Some(2)
    );
    assert_eq!(dmaspec(&["decode", "--bogus"], &[]).status.code(), Some(2));
    assert_eq!(dmaspec(&["frobnicate"], &[]).status.code(), Some(2));
}

#[test]
fn gen_check_names_stale_files_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("dmaspec-gen-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out_dir = dir.to_str().unwrap();
    let out = dmaspec(&["gen", "--check", "--out", out_dir], &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("rust/dmaspec.rs: missing"), "{stderr}");

    assert_eq!(
        dmaspec(&["gen", "--out", out_dir], &[]).status.code(),
        Some(0)
    );
    assert_eq!(
        dmaspec(&["gen", "--check", "--out", out_dir], &[])
            .status
            .code(),
        Some(0)
    );
    // A file gen did not write is named but does not fail the check (gen leaves it alone).
    std::fs::write(dir.join("stray.txt"), "x").unwrap();
    let out = dmaspec(&["gen", "--check", "--out", out_dir], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stray.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// samples/dge_stream.hex is the README's main-command input: the golden vectors in order.
#[test]
fn sample_stream_decodes_with_pairing_and_alternatives() {
    let out = dmaspec(
        &["decode", "--hex", "--json", "samples/dge_stream.hex"],
        &[],
    );
    assert_success(&out);
    let doc = json_of(&out);
    let list = doc["instructions"].as_array().unwrap();
    let structs: Vec<Value> = list.iter().map(|i| i["struct"].clone()).collect();
    let expected = [
        "PSEUDO_DMA_DIRECT2D",
        "PSEUDO_DMA_EXT",
        "DMA_INDIRECT1D",
        "DMA_GATHER_XPOSE",
        "DMA_DIRECT2D_XPOSE",
        "PSEUDO_DMAMEMCPY_FULL_IND",
        "DMA_DIRECT2D",
    ];
    let mut expected: Vec<Value> = expected.iter().map(|s| Value::from(*s)).collect();
    expected.push(Value::Null); // opcode 0x42
    assert_eq!(structs, expected);
    // The 0xda right after the 0xd4 is its extension (seed-004 §5.2, positional rule).
    assert_eq!(list[1]["extension_of"], 0);
    // +15 of 0xd4: dge_op (seed-004 §5.1) with seed-000's sync_command_byte as the other reading.
    assert_eq!(
        list[0]["fields"]["dge_op"],
        serde_json::json!({"raw": 1, "name": "DMA_INDIRECT1D"})
    );
    let alt = &list[0]["alternatives"]["dge_op"][0];
    assert_eq!(alt["name"], "sync_command_byte");
    assert_eq!(alt["value"], 1);
    assert_eq!(list[7]["opcode"], 0x42);
}

#[test]
fn extension_word_not_after_its_pseudo_is_reported_not_guessed() {
    let hex =
        std::fs::read_to_string(common::root().join("tests/vectors/pseudo_dma_ext.hex")).unwrap();
    let out = dmaspec(&["decode", "--hex", "--json"], hex.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let i = &json_of(&out)["instructions"][0];
    assert!(i["struct"].is_null());
    assert_eq!(i["opcode"], 0xda);
    assert!(
        i["error"]
            .as_str()
            .unwrap()
            .contains("must immediately follow PSEUDO_DMA_DIRECT2D")
    );
    assert_eq!(i["raw_hex"].as_str().unwrap().len(), 128);
}

#[test]
fn words_an_architecture_lacks_are_unknown_there() {
    // seed-004 §10: sunda ships neither transpose header (no 0xbd, no 0xf1).
    let hex =
        std::fs::read_to_string(common::root().join("tests/vectors/dma_gather_xpose.hex")).unwrap();
    let sunda = json_of(&dmaspec(
        &["decode", "--hex", "--json", "--arch", "sunda"],
        hex.as_bytes(),
    ));
    assert!(sunda["instructions"][0]["struct"].is_null());
    let cayman = json_of(&dmaspec(
        &["decode", "--hex", "--json", "--arch", "cayman"],
        hex.as_bytes(),
    ));
    assert_eq!(cayman["instructions"][0]["struct"], "DMA_GATHER_XPOSE");
}

/// The widest line of `text`, in characters (not bytes: `—`, `…`).
fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// decode's and explain's lines fit 120 columns; `--wide` gives the long rows back whole.
#[test]
fn tables_and_explain_fit_120_columns_unless_wide() {
    let decode = |extra: &[&str]| {
        let mut args = vec!["decode", "--hex"];
        args.extend(extra);
        args.push("samples/dge_stream.hex");
        let out = dmaspec(&args, &[]);
        assert_success(&out);
        common::stdout(&out)
    };
    let fitted = decode(&[]);
    assert!(
        widest(&fitted) <= 120,
        "decode: a line of {}",
        widest(&fitted)
    );
    // Every field row is still there (the first line of each row holds its path).
    assert!(fitted.contains("header.inst_word_len"), "{fitted}");
    assert!(fitted.contains("CONFLICT: also read as inst_word_len_16b_records"));
    let wide = decode(&["--wide"]);
    assert!(widest(&wide) > 120);
    assert!(
        wide.lines().any(|l| l.contains("header.inst_word_len")
            && l.ends_with("constant; CONFLICT: also read as inst_word_len_16b_records                      HIGH/OBSERVED")),
        "--wide: the row is one line"
    );
    assert!(
        wide.lines()
            .any(|l| l.starts_with("  raw 4210") && l.chars().count() == 134),
        "--wide: a raw word is one line"
    );
    for what in [
        "0xd4",
        "DMA_INDIRECT1D",
        "DMA_INDIRECT1D.flags.gather_dim",
        "UDMA_M2S.M2S_Q.cfg.en_scheduling",
    ] {
        let out = dmaspec(&["explain", what], &[]);
        assert_success(&out);
        let text = common::stdout(&out);
        assert!(
            widest(&text) <= 120,
            "explain {what}: a line of {}",
            widest(&text)
        );
        let wide = dmaspec(&["explain", "--wide", what], &[]);
        assert!(
            widest(&common::stdout(&wide)) > 120,
            "explain --wide {what}"
        );
    }
    let wide = common::stdout(&dmaspec(&["explain", "--wide", "DMA_INDIRECT1D"], &[]));
    assert!(
        wide.lines()
            .any(|l| l.starts_with("DmaIndirect: DMAs for a vector")
                && l.ends_with("Body byte-identical across sunda..maverick."))
    );
}
