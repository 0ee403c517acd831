//! Golden vectors for the 16-byte SDMA buffer descriptor SDMA_CME_BD_DESC, a record (a
//! top-level struct decoded on its own): tests/vectors/records/sdma_bd_ring.hex (four BDs)
//! and tests/vectors/dma_immediate_three.hex (a 0xba word carrying three of them), written by
//! hand from supp-field-tables §1 Tables 1.0–1.3b, one line per dword citing its row. Each
//! BD is decoded with the typed API, checked field by field, re-encoded byte-exact and
//! checked; the CLI decodes the ring with `decode --struct`, and a cut or empty ring and
//! arbitrary bytes never make it panic.

mod common;

use common::{assert_success, dmaspec, hex_bytes, root, stderr, stdout, vector};
use dmaspec::runtime::DecodeError;
use dmaspec::words::*;
use proptest::prelude::*;
use serde_json::Value;

fn ring() -> Vec<u8> {
    hex_bytes(&root().join("tests/vectors/records/sdma_bd_ring.hex"))
}

fn bd(ring: &[u8], i: usize) -> SDMA_CME_BD_DESC {
    SDMA_CME_BD_DESC::decode(&ring[i * 16..]).expect("a whole BD")
}

#[test]
fn the_ring_decodes_field_by_field_and_encodes_back() {
    let ring = ring();
    assert_eq!(ring.len(), 4 * SDMA_CME_BD_DESC::SIZE);

    // BD 0, a plain COPY. Table 1.1: length_meta [15:0] = 0x0800, first [29].
    let b = bd(&ring, 0);
    assert_eq!(b.word0.length_meta, 0x0800);
    assert_eq!((b.word0.first, b.word0.last, b.word0.int_en), (1, 0, 0));
    // Table 1.2 op [8:6] = 2 CME (Table 1.3b), optype [11:9] = 0 COPY (Table 1.3a).
    assert_eq!(b.word1.op, SDMAOP::CME);
    assert_eq!(b.word1.optype, SDMA_CMETYPE::COPY);
    assert_eq!(b.word1.validate_crc, 0);
    // Table 1.0 "8 8 buf_ptr u64".
    assert_eq!(b.buf_ptr, 0x4_0000_1000);

    // BD 1, a CRC-32C: Table 1.2 optype 2 CRC32C, copy_src_data [12], validate_crc [17],
    // cached_crc_iv_index [28:26] = 3; Table 1.1 last [28], int_en [27].
    let b = bd(&ring, 1);
    assert_eq!(b.word0.length_meta, 0x0800);
    assert_eq!((b.word0.first, b.word0.last, b.word0.int_en), (0, 1, 1));
    assert_eq!(b.word1.op, SDMAOP::CME);
    assert_eq!(b.word1.optype, SDMA_CMETYPE::CRC32C);
    assert_eq!(b.word1.copy_src_data, 1);
    assert_eq!(b.word1.validate_crc, 1);
    assert_eq!(b.word1.use_stored_crc_iv, 0);
    assert_eq!(b.word1.send_crc, 0);
    assert_eq!(b.word1.cached_crc_iv_index, 3);
    assert_eq!(b.buf_ptr, 0x4_0000_1800);

    // BD 2: Table 1.1 "length_meta; 0 => 64 KiB": the stored value is 0.
    let b = bd(&ring, 2);
    assert_eq!(b.word0.length_meta, 0);
    assert_eq!((b.word0.first, b.word0.last), (1, 1));
    assert_eq!(b.word1.write_barrier, 1);
    assert_eq!(b.word1.op, SDMAOP::CME);
    assert_eq!(b.buf_ptr, 0x2000_0000);

    // Every BD encodes back to its bytes, and has no rule to break.
    for (i, chunk) in ring.chunks_exact(16).enumerate() {
        let b = bd(&ring, i);
        assert_eq!(&b.encode()[..], chunk, "BD {i}");
        let r = Record::decode("SDMA_CME_BD_DESC", chunk).unwrap().unwrap();
        assert_eq!(r, Record::SDMA_CME_BD_DESC(b));
        assert!(r.check(Arch::maverick).is_empty());
        let mut out = [0u8; 16];
        r.encode_into(&mut out).unwrap();
        assert_eq!(&out[..], chunk);
    }
}

#[test]
fn the_firmware_reads_word0_bits_24_25_as_a_generation_tag() {
    let ring = ring();
    // BD 3: byte3 [1:0] = 0b10. The DWARF names (Table 1.1) read dmb [25] = 1,
    // concatenate [24] = 0; the QUIRK's reading is a 2-bit tag [25:24] = 2.
    let b = bd(&ring, 3);
    assert_eq!(
        (b.word0.dmb, b.word0.concatenate, b.word0.ringid),
        (1, 0, 0)
    );
    assert_eq!(b.word0.length_meta, 0x0100);
    let fw = SDMA_DESC_WORD0_FW::from_raw(u32::from_le_bytes(ring[48..52].try_into().unwrap()));
    assert_eq!((fw.gen_tag, fw.length), (2, 0x0100));
    // The reading is the word0 field's alternative, not a rename.
    let field = &SDMA_CME_BD_DESC::FIELDS[0];
    assert_eq!(field.name, "word0");
    let alt: Vec<&str> = field.alternatives.iter().map(|a| a.name).collect();
    assert_eq!(alt, ["firmware_gen_tag"]);
}

#[test]
fn views_read_the_bytes_in_place_and_short_input_is_an_error() {
    let ring = ring();
    let v = SDMA_CME_BD_DESC::view(&ring[16..]).unwrap();
    assert_eq!(v.read(), bd(&ring, 1));
    assert_eq!(v.word1().optype(), SDMA_CMETYPE::CRC32C);
    let short = SDMA_CME_BD_DESC::decode(&ring[..15]);
    assert_eq!(
        short,
        Err(DecodeError::Short {
            name: "SDMA_CME_BD_DESC",
            needed: 16,
            found: 15
        })
    );
    assert_eq!(
        short.unwrap_err().to_string(),
        "SDMA_CME_BD_DESC needs 16 bytes, got 15"
    );
    assert!(Record::decode("NO_SUCH_RECORD", &ring).is_none());
    let mut copy = ring.clone();
    SDMA_CME_BD_DESC::view_mut(&mut copy)
        .unwrap()
        .word0_mut()
        .set_length_meta(0x40);
    assert_eq!(bd(&copy, 0).word0.length_meta, 0x40);
    assert_eq!(copy[16..], ring[16..]);
}

#[test]
fn dma_immediate_carries_three_bds() {
    let bytes = vector("dma_immediate_three.hex");
    let w = DMA_IMMEDIATE::decode(&bytes).expect("opcode 0xba");
    // §3.1 row "12 1 descriptor_flags": num_descriptors 3, every descriptor inline.
    assert_eq!(w.descriptor_flags.num_descriptors, 3);
    assert_eq!(w.descriptor_flags.desc2_src, DMA_DESC_MODE::IMMEDIATE);
    // §3.1 "Each DESCRIPTOR_RAW[16] is laid out as the §1 SDMA_CME_BD_DESC": the ring's
    // first three BDs.
    let ring = ring();
    for i in 0..3 {
        assert_eq!(w.descriptor_imm[i], bd(&ring, i), "descriptor_imm[{i}]");
    }
    assert_eq!(w.encode(), bytes);
    assert_eq!(w.validate(Arch::maverick), Ok(()));

    // `decode --arch maverick` shows each inline descriptor's fields.
    let hex =
        std::fs::read_to_string(root().join("tests/vectors/dma_immediate_three.hex")).unwrap();
    let out = dmaspec(
        &["decode", "--arch", "maverick", "--json", "--hex"],
        hex.as_bytes(),
    );
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let imm = &doc["instructions"][0]["fields"]["descriptor_imm"];
    assert_eq!(imm[0]["word1"]["op"]["name"], "CME");
    assert_eq!(imm[1]["word1"]["optype"]["name"], "CRC32C");
    assert_eq!(imm[2]["word0"]["length_meta"], 0);
    assert_eq!(imm[2]["buf_ptr"], 0x2000_0000);
    assert_eq!(doc["instructions"][0]["violations"], serde_json::json!([]));
}

fn decode_ring(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut all = vec!["decode", "--struct", "SDMA_CME_BD_DESC"];
    all.extend_from_slice(args);
    dmaspec(&all, input)
}

#[test]
fn decode_struct_reads_a_ring() {
    let ring = ring();
    let out = decode_ring(&["--json", "-"], &ring);
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let records = doc["records"].as_array().unwrap();
    let offsets: Vec<u64> = records
        .iter()
        .map(|r| r["offset"].as_u64().unwrap())
        .collect();
    assert_eq!(offsets, [0, 16, 32, 48]);
    assert!(records.iter().all(|r| r["struct"] == "SDMA_CME_BD_DESC"));
    assert_eq!(records[1]["fields"]["word1"]["optype"]["name"], "CRC32C");
    assert_eq!(records[1]["confidence"]["word1.optype"], "HIGH/CARRIED");
    assert_eq!(records[2]["fields"]["word0"]["length_meta"], 0);
    assert_eq!(records[3]["fields"]["word0"]["dmb"], 1);
    let alt = &records[3]["alternatives"]["word0"][0];
    assert_eq!(alt["name"], "firmware_gen_tag");
    assert_eq!(alt["value"], 0x0200_0100);

    // Hex input and the table.
    let hex =
        std::fs::read_to_string(root().join("tests/vectors/records/sdma_bd_ring.hex")).unwrap();
    let out = decode_ring(&["--hex"], hex.as_bytes());
    assert_success(&out);
    let table = stdout(&out);
    for s in [
        "#0  offset 0 (0x0000)  SDMA_CME_BD_DESC",
        "#3  offset 48 (0x0030)  SDMA_CME_BD_DESC",
        "word1.optype",
        "CRC32C",
        "word0.length_meta",
    ] {
        assert!(table.contains(s), "{s:?} missing:\n{table}");
    }
}

#[test]
fn decode_struct_reports_a_cut_ring_after_its_whole_records() {
    let ring = ring();
    let out = decode_ring(&["--json"], &ring[..40]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("the whole records, as JSON");
    assert_eq!(doc["records"].as_array().unwrap().len(), 2);
    assert!(
        stderr(&out)
            .contains("stdin: incomplete SDMA_CME_BD_DESC at byte offset 32 (0x20): 8 of 16 bytes"),
        "{}",
        stderr(&out)
    );

    // Empty input: no records, success.
    let out = decode_ring(&["--json"], b"");
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["records"], serde_json::json!([]));

    // A name that is no record: a usage error naming the records there are.
    let out = dmaspec(&["decode", "--struct", "SDMA_BD"], &ring);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "no record (top-level struct) named `SDMA_BD`; the spec has: SDMA_CME_BD_DESC"
        ),
        "{}",
        stderr(&out)
    );
    // A word's name: the error says to decode it as a word.
    let out = dmaspec(&["decode", "--struct", "DMA_DIRECT2D"], &ring);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "no record (top-level struct) named `DMA_DIRECT2D` (it is a 64-byte word: decode it \
             without --struct)"
        ),
        "{}",
        stderr(&out)
    );
}

proptest! {
    #[test]
    fn any_record_bytes_decode_and_encode_back(bytes in proptest::collection::vec(any::<u8>(), 16)) {
        let b = SDMA_CME_BD_DESC::decode(&bytes).unwrap();
        prop_assert_eq!(&b.encode()[..], &bytes[..]);
        let r = Record::decode("SDMA_CME_BD_DESC", &bytes).unwrap().unwrap();
        prop_assert_eq!(r, Record::SDMA_CME_BD_DESC(b));
    }

    #[test]
    fn any_length_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        let r = SDMA_CME_BD_DESC::decode(&bytes);
        prop_assert_eq!(r.is_ok(), bytes.len() >= 16);
        prop_assert_eq!(SDMA_CME_BD_DESC::view(&bytes).is_ok(), bytes.len() >= 16);
    }
}

#[test]
fn decode_struct_never_panics_on_garbage() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for len in [1usize, 15, 16, 17, 63, 64, 100] {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng as u8
            })
            .collect();
        let out = decode_ring(&["--json"], &bytes);
        let whole = len / 16;
        assert_eq!(
            out.status.code(),
            Some(if len % 16 == 0 { 0 } else { 1 }),
            "{len} bytes"
        );
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(doc["records"].as_array().unwrap().len(), whole);
    }
}

#[test]
fn explain_names_a_record_and_its_fields() {
    let out = dmaspec(&["explain", "SDMA_CME_BD_DESC.word1.op"], b"");
    assert_success(&out);
    let text = stdout(&out);
    // Table 1.2 "[8:6] b3 op SDMAOP"; Table 1.3b DRE 1, CME 2, CCE 4 (the gaps stay gaps).
    for s in [
        "SDMA_CME_BD_DESC.word1.op",
        "+0x04 b6..8",
        "SDMAOP",
        "0x1 DRE",
        "0x2 CME",
        "0x4 CCE",
        "supp-field-tables §1 Table 1.2",
    ] {
        assert!(text.contains(s), "{s:?} missing:\n{text}");
    }
    assert!(!text.contains("0x3 "), "{text}");
    let out = dmaspec(&["explain", "SDMA_CME_BD_DESC"], b"");
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("record of 16 bytes"), "{text}");
    assert!(text.contains("word0.length_meta"), "{text}");
    let out = dmaspec(&["explain", "SDMA_CME_BD_DESC.nope"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("SDMA_CME_BD_DESC has no field `nope`"));
}

fn cce() -> Vec<u8> {
    hex_bytes(&root().join("tests/vectors/records/sdma_cce_fma.hex"))
}

#[test]
fn a_cce_fma_descriptor_decodes_field_by_field() {
    let bytes = cce();
    let d = SDMA_CCE_DESC::decode(&bytes).unwrap();
    // Table 7.0 W0: bit 23 has meta-ctrl, meta_idx << 24.
    assert_eq!((d.w0.has_meta_ctrl, d.w0.meta_idx), (1, 3));
    // Table 7.1: VALID [25], op selector [22:20] = FMA (0x100000 = 1 << 20), last [7].
    assert_eq!(d.meta_ctrl.valid, 1);
    assert_eq!(d.meta_ctrl.op_selector, 1);
    assert_eq!((d.meta_ctrl.last, d.meta_ctrl.write_barrier), (1, 0));
    // Table 7.0 W2 sema/length & 0xFFFFFF; Table 7.3 a_sel 1 input, b_sel 2 scale, c_sel 0 stored.
    assert_eq!(d.w2.sema_length, 0x400);
    assert_eq!(d.w2.a_sel, SDMA_FMA_OPERAND::input_buffer);
    assert_eq!(d.w2.b_sel, SDMA_FMA_OPERAND::scale);
    assert_eq!(d.w2.c_sel, SDMA_FMA_OPERAND::stored_buffer);
    // Table 7.0 W3: the FP32 scale.
    assert_eq!(f32::from_bits(d.scale), 0.5);
    assert_eq!(&d.encode()[..], &bytes[..]);
    // Its one rule (W3 = 0 for ADD/MIN/MAX) is named but not enforced: it holds.
    let r = Record::decode("SDMA_CCE_DESC", &bytes).unwrap().unwrap();
    let v = r.check(Arch::cayman);
    assert!(v.is_empty());
    assert_eq!(r.meta().rules.len(), 1);

    // The same bytes read as a plain BD: the META-CTRL's last bit [7] is WORD1 op's bit 1,
    // so op reads CME (conflict sdma_cce_w1_overlay), and W2/W3 are buf_ptr.
    let bd = SDMA_CME_BD_DESC::decode(&bytes).unwrap();
    assert_eq!(bd.word1.op, SDMAOP::CME);
    assert_eq!(bd.buf_ptr, 0x3f00_0000_0900_0400);
    let conflicts: Vec<&str> = CONFLICTS.iter().map(|c| c.name).collect();
    for c in [
        "sdma_desc_word0_listing",
        "sdma_cce_w0_overlay",
        "sdma_cce_w1_overlay",
        "sdma_cce_w2_w3_overlay",
    ] {
        assert!(conflicts.contains(&c), "{c}");
    }

    // The CLI decodes it by name.
    let out = dmaspec(&["decode", "--struct", "SDMA_CCE_DESC", "--json"], &bytes);
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = &doc["records"][0]["fields"];
    assert_eq!(f["w2"]["b_sel"]["name"], "scale");
    assert_eq!(f["scale"], 0x3f00_0000);
}

#[test]
fn encode_struct_round_trips_decode_struct() {
    let ring = ring();
    let out = decode_ring(&["--json"], &ring);
    assert_success(&out);
    let out = dmaspec(
        &["encode", "--struct", "SDMA_CME_BD_DESC", "-"],
        &out.stdout,
    );
    assert_success(&out);
    assert_eq!(out.stdout, ring);

    // Written by hand: fields not given are 0; a value too wide for its bits, an unknown
    // field and another struct's name are all reported, and nothing is written.
    let text = r#"{"records":[
        {"fields":{"word0":{"length_meta":2048,"first":1},"word1":{"op":"CME"},"buf_ptr":4096}},
        {"fields":{"word0":{"length_meta":65536}}},
        {"struct":"SDMA_CCE_DESC","fields":{"nope":1}}
    ]}"#;
    let out = dmaspec(
        &["encode", "--struct", "SDMA_CME_BD_DESC", "-"],
        text.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    for s in [
        "field `word0.length_meta`: 65536 does not fit 16 bits",
        "`struct` \"SDMA_CCE_DESC\" is not SDMA_CME_BD_DESC",
        "unknown field `nope`",
    ] {
        assert!(err.contains(s), "{s:?} missing: {err}");
    }
    let good = r#"[{"fields":{"word0":{"length_meta":2048,"first":1},"word1":{"op":"CME"},"buf_ptr":4096}}]"#;
    let out = dmaspec(
        &["encode", "--struct", "SDMA_CME_BD_DESC", "--hex", "-"],
        good.as_bytes(),
    );
    assert_success(&out);
    // Table 1.1 length_meta 0x0800 + first [29]; Table 1.2 op [8:6] = 2; buf_ptr 0x1000.
    assert_eq!(stdout(&out).trim(), "00080020800000000010000000000000");
}

#[test]
fn validate_struct_checks_a_ring() {
    let ring = ring();
    // The sources state no checkable rule for a BD: every record is valid.
    let out = dmaspec(&["validate", "--struct", "SDMA_CME_BD_DESC", "-"], &ring);
    assert_success(&out);
    assert!(out.stdout.is_empty());
    let out = dmaspec(&["validate", "--struct", "SDMA_CME_BD_DESC"], &ring[..40]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("incomplete SDMA_CME_BD_DESC at byte offset 32 (0x20): 8 of 16 bytes"),
        "{}",
        stderr(&out)
    );
    let out = dmaspec(&["validate", "--struct", "NOPE"], &ring);
    assert_eq!(out.status.code(), Some(2));
}
