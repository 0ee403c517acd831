//! Golden vectors for the 16-byte UDMA descriptor SDMA_CME_BD_DESC (`union udma_desc`), a
//! record (a top-level struct decoded on its own): tests/vectors/records/udma_plain_copy.hex
//! (the plain copy pair both code lines build), tests/vectors/records/sdma_bd_ring.hex (four
//! descriptors) and tests/vectors/dma_immediate_three.hex (a 0xba word carrying three of
//! them), written by hand from wiki-udma-desc §2–§4, one line per dword citing its row. Each
//! descriptor is decoded with the typed API, checked field by field on the kernel's bit order,
//! re-encoded byte-exact and checked; the DWARF tables' mirrored reading stays available as
//! each word's alternative and the conflict udma_desc_bit_order; the CLI decodes the ring with
//! `decode --struct`, and a cut or empty ring and arbitrary bytes never make it panic.

mod common;

use common::{assert_success, dmaspec, hex_bytes, root, stderr, stdout, vector};
use dmaspec::runtime::DecodeError;
use dmaspec::words::*;
use proptest::prelude::*;
use serde_json::Value;

fn ring() -> Vec<u8> {
    hex_bytes(&root().join("tests/vectors/records/sdma_bd_ring.hex"))
}

fn plain_copy() -> Vec<u8> {
    hex_bytes(&root().join("tests/vectors/records/udma_plain_copy.hex"))
}

fn bd(ring: &[u8], i: usize) -> SDMA_CME_BD_DESC {
    SDMA_CME_BD_DESC::decode(&ring[i * 16..]).expect("a whole BD")
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

#[test]
fn the_plain_copy_pair_decodes_as_the_kernel_builds_it() {
    let pair = plain_copy();
    assert_eq!(pair.len(), 2 * SDMA_CME_BD_DESC::SIZE);

    // Tx (m2s). wiki-udma-desc §1: tx_flags = M2S_DESC_FIRST | M2S_DESC_LAST; §2 rows
    // "26 FIRST", "27 LAST", "25:24 RING_ID", "15:0 LENGTH".
    let tx = bd(&pair, 0);
    assert_eq!(word(&pair, 0), 0x0C00_0040);
    assert_eq!(tx.len_ctrl.length, 0x40);
    assert_eq!((tx.len_ctrl.first, tx.len_ctrl.last), (1, 1));
    assert_eq!(tx.len_ctrl.ring_id, 0);
    assert_eq!(
        (
            tx.len_ctrl.int_en,
            tx.len_ctrl.dmb,
            tx.len_ctrl.concat,
            tx.len_ctrl.meta
        ),
        (0, 0, 0, 0)
    );
    assert_eq!(tx.len_ctrl.strong_order_wr, 0);
    // §3 "The default — 0x01080003": is_last_block = is_first_block = copy_source_data = 1,
    // ssmae_op (Overlay B's op, [25:23]) = 0b010 = CME, the value is_cme_desc tests.
    assert_eq!(word(&pair, 4), 0x0108_0003);
    let m = tx.meta_ctrl;
    assert_eq!(m.op, SDMAOP::CME);
    assert_eq!(m.op.raw(), 2);
    assert_eq!(m.optype, SDMA_CMETYPE::COPY);
    assert_eq!(m.copy_src_data, 1);
    // block_attr [2:0] = 3: Overlay A's is_last_block (bit 0) and is_first_block (bit 1).
    assert_eq!(m.block_attr, 3);
    assert_eq!((m.write_barrier, m.notification, m.endian_type), (0, 0, 0));
    // §4: the Tx descriptor's buf_ptr is the source.
    assert_eq!(tx.buf_ptr, 0x4_0000_1000);

    // Rx (s2m). §The S2M (Rx) view: the same len_ctrl; §3: buf2_ptr_lo left zero; §4 buf1_ptr.
    let rx = bd(&pair, 1);
    assert_eq!(rx.len_ctrl, tx.len_ctrl);
    assert_eq!(word(&pair, 20), 0);
    assert_eq!(rx.buf_ptr, 0x4_0000_2000);

    // Both re-encode byte-exact.
    for (i, chunk) in pair.chunks_exact(16).enumerate() {
        assert_eq!(&bd(&pair, i).encode()[..], chunk, "descriptor {i}");
    }

    // The DWARF tables' reading of the same bytes is kept, not dropped: Table 1.1 reads
    // byte 3 = 0x0c as no_snoop [2] and int_en [3], Table 1.2 reads op [8:6] = 0 and
    // endian_type [25:18] = 66 (the issue's "decodes today" values).
    let dwarf0 = SDMA_DESC_WORD0_DWARF::from_raw(word(&pair, 0));
    assert_eq!(
        (dwarf0.no_snoop, dwarf0.int_en, dwarf0.first, dwarf0.last),
        (1, 1, 0, 0)
    );
    let dwarf1 = SDMA_CME_DESC_WORD1_DWARF::from_raw(word(&pair, 4));
    assert_eq!((dwarf1.op.raw(), dwarf1.endian_type), (0, 66));
    let alts = |i: usize| -> Vec<&str> {
        SDMA_CME_BD_DESC::FIELDS[i]
            .alternatives
            .iter()
            .map(|a| a.name)
            .collect()
    };
    assert_eq!(SDMA_CME_BD_DESC::FIELDS[0].name, "len_ctrl");
    assert_eq!(alts(0), ["field_tables_len_ctrl", "firmware_gen_tag"]);
    assert_eq!(SDMA_CME_BD_DESC::FIELDS[1].name, "meta_ctrl");
    assert_eq!(alts(1), ["field_tables_meta_ctrl", "buf2_ptr_lo"]);
    let c = CONFLICTS
        .iter()
        .find(|c| c.name == "udma_desc_bit_order")
        .expect("the bit-order conflict is recorded");
    let readings: Vec<&str> = c.readings.iter().map(|r| r.name).collect();
    assert_eq!(
        readings,
        [
            "kernel_and_hal",
            "dwarf_field_tables",
            "dwarf_listing_from_bit_0"
        ]
    );
}

#[test]
fn decode_struct_shows_the_plain_copy_as_the_kernel_reads_it() {
    let hex =
        std::fs::read_to_string(root().join("tests/vectors/records/udma_plain_copy.hex")).unwrap();
    let out = dmaspec(
        &["decode", "--struct", "SDMA_CME_BD_DESC", "--json", "--hex"],
        hex.as_bytes(),
    );
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tx = &doc["records"][0];
    let f = &tx["fields"];
    // wiki-udma-desc §2 FIRST [26] / LAST [27], LENGTH 0x40; §3 op [25:23] = 2 CME,
    // copy_src_data [19] = 1.
    assert_eq!(f["len_ctrl"]["first"], 1);
    assert_eq!(f["len_ctrl"]["last"], 1);
    assert_eq!(f["len_ctrl"]["length"], 0x40);
    assert_eq!(
        f["meta_ctrl"]["op"],
        serde_json::json!({"raw": 2, "name": "CME"})
    );
    assert_eq!(f["meta_ctrl"]["copy_src_data"], 1);
    assert_eq!(f["meta_ctrl"]["optype"]["name"], "COPY");
    assert_eq!(tx["confidence"]["len_ctrl.first"], "HIGH/OBSERVED");
    // The DWARF reading is shown as the alternative, with the raw word.
    let alt = &tx["alternatives"]["len_ctrl"][0];
    assert_eq!(alt["name"], "field_tables_len_ctrl");
    assert_eq!(alt["value"], 0x0C00_0040);

    // The table names the same values.
    let out = dmaspec(
        &["decode", "--struct", "SDMA_CME_BD_DESC", "--hex"],
        hex.as_bytes(),
    );
    assert_success(&out);
    let table = stdout(&out);
    for s in [
        "len_ctrl.first",
        "len_ctrl.last",
        "meta_ctrl.op",
        "CME",
        "meta_ctrl.copy_src_data",
    ] {
        assert!(table.contains(s), "{s:?} missing:\n{table}");
    }
}

#[test]
fn the_ring_decodes_field_by_field_and_encodes_back() {
    let ring = ring();
    assert_eq!(ring.len(), 4 * SDMA_CME_BD_DESC::SIZE);

    // BD 0, a plain COPY. wiki-udma-desc §2: LENGTH [15:0] = 0x0800, FIRST [26].
    let b = bd(&ring, 0);
    assert_eq!(b.len_ctrl.length, 0x0800);
    assert_eq!(
        (b.len_ctrl.first, b.len_ctrl.last, b.len_ctrl.int_en),
        (1, 0, 0)
    );
    // §3: the default, op [25:23] = 2 CME, optype [22:20] = 0 COPY.
    assert_eq!(b.meta_ctrl.op, SDMAOP::CME);
    assert_eq!(b.meta_ctrl.optype, SDMA_CMETYPE::COPY);
    assert_eq!(b.meta_ctrl.validate_crc, 0);
    // §4 buf_ptr.
    assert_eq!(b.buf_ptr, 0x4_0000_1000);

    // BD 1, a CRC-32C: optype 2 CRC32C, copy_src_data [19], validate_crc [14],
    // cached_crc_iv_index [5:3] = 3; §2 LAST [27], INT_EN [28].
    let b = bd(&ring, 1);
    assert_eq!(b.len_ctrl.length, 0x0800);
    assert_eq!(
        (b.len_ctrl.first, b.len_ctrl.last, b.len_ctrl.int_en),
        (0, 1, 1)
    );
    assert_eq!(b.meta_ctrl.op, SDMAOP::CME);
    assert_eq!(b.meta_ctrl.optype, SDMA_CMETYPE::CRC32C);
    assert_eq!(b.meta_ctrl.copy_src_data, 1);
    assert_eq!(b.meta_ctrl.validate_crc, 1);
    assert_eq!(b.meta_ctrl.use_stored_crc_iv, 0);
    assert_eq!(b.meta_ctrl.send_crc, 0);
    assert_eq!(b.meta_ctrl.cached_crc_iv_index, 3);
    assert_eq!(b.buf_ptr, 0x4_0000_1800);

    // BD 2: §2 "LENGTH; 0 => 65536": the stored value is 0; write_barrier is meta bit 26.
    let b = bd(&ring, 2);
    assert_eq!(b.len_ctrl.length, 0);
    assert_eq!((b.len_ctrl.first, b.len_ctrl.last), (1, 1));
    assert_eq!(b.meta_ctrl.write_barrier, 1);
    assert_eq!(b.meta_ctrl.op, SDMAOP::CME);
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
fn the_firmware_generation_tag_is_the_kernel_ring_id() {
    let ring = ring();
    // BD 3: len_ctrl byte 3 = 0b10. The kernel reads RING_ID [25:24] = 2; the firmware's
    // QUIRK reads the same two bits as its generation tag 2; the DWARF names (Table 1.1)
    // read dmb [25] = 1, concatenate [24] = 0.
    let b = bd(&ring, 3);
    assert_eq!(b.len_ctrl.ring_id, 2);
    assert_eq!((b.len_ctrl.dmb, b.len_ctrl.concat), (0, 0));
    assert_eq!(b.len_ctrl.length, 0x0100);
    let fw = SDMA_DESC_WORD0_FW::from_raw(word(&ring, 48));
    assert_eq!((fw.gen_tag, fw.length), (2, 0x0100));
    let dwarf = SDMA_DESC_WORD0_DWARF::from_raw(word(&ring, 48));
    assert_eq!((dwarf.dmb, dwarf.concatenate, dwarf.ringid), (1, 0, 0));
    assert_eq!(dwarf.length_meta, 0x0100);
}

#[test]
fn views_read_the_bytes_in_place_and_short_input_is_an_error() {
    let ring = ring();
    let v = SDMA_CME_BD_DESC::view(&ring[16..]).unwrap();
    assert_eq!(v.read(), bd(&ring, 1));
    assert_eq!(v.meta_ctrl().optype(), SDMA_CMETYPE::CRC32C);
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
        .len_ctrl_mut()
        .set_length(0x40);
    assert_eq!(bd(&copy, 0).len_ctrl.length, 0x40);
    assert_eq!(copy[16..], ring[16..]);
}

#[test]
fn dma_immediate_carries_three_bds() {
    let bytes = vector("dma_immediate_three.hex");
    let w = DMA_IMMEDIATE::decode(&bytes).expect("opcode 0xba");
    // §3.1 row "12 1 descriptor_flags": num_descriptors 3, every descriptor inline.
    assert_eq!(w.descriptor_flags.num_descriptors, 3);
    assert_eq!(w.descriptor_flags.desc2_src, DMA_DESC_MODE::IMMEDIATE);
    // §3.1 "Each DESCRIPTOR_RAW[16] is laid out as the §1 SDMA_CME_BD_DESC" (INFERRED): the
    // ring's first three descriptors.
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
    assert_eq!(imm[0]["meta_ctrl"]["op"]["name"], "CME");
    assert_eq!(imm[1]["meta_ctrl"]["optype"]["name"], "CRC32C");
    assert_eq!(imm[2]["len_ctrl"]["length"], 0);
    assert_eq!(imm[2]["buf_ptr"], 0x2000_0000);
    // The pages call the BD mapping INFERRED: every leaf under descriptor_imm is capped.
    let conf = &doc["instructions"][0]["confidence"];
    assert_eq!(conf["descriptor_imm[0].len_ctrl.first"], "MED/INFERRED");
    assert_eq!(conf["descriptor_imm[2].buf_ptr"], "MED/INFERRED");
    assert_eq!(conf["header.opcode"], "HIGH/OBSERVED");
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
    assert_eq!(
        records[1]["fields"]["meta_ctrl"]["optype"]["name"],
        "CRC32C"
    );
    assert_eq!(
        records[1]["confidence"]["meta_ctrl.optype"],
        "HIGH/OBSERVED"
    );
    assert_eq!(records[2]["fields"]["len_ctrl"]["length"], 0);
    assert_eq!(records[3]["fields"]["len_ctrl"]["ring_id"], 2);
    let alts = &records[3]["alternatives"]["len_ctrl"];
    assert_eq!(alts[0]["name"], "field_tables_len_ctrl");
    assert_eq!(alts[1]["name"], "firmware_gen_tag");
    assert_eq!(alts[1]["value"], 0x0200_0100);

    // Hex input and the table.
    let hex =
        std::fs::read_to_string(root().join("tests/vectors/records/sdma_bd_ring.hex")).unwrap();
    let out = decode_ring(&["--hex"], hex.as_bytes());
    assert_success(&out);
    let table = stdout(&out);
    for s in [
        "#0  offset 0 (0x0000)  SDMA_CME_BD_DESC",
        "#3  offset 48 (0x0030)  SDMA_CME_BD_DESC",
        "meta_ctrl.optype",
        "CRC32C",
        "len_ctrl.length",
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
            "no record (top-level struct) named `SDMA_BD`; the spec has: DMA_RING_INFO, \
             SW_DMA_QUEUE, VRING_PAGES, VRING, UDMA_Q, BASIC_BLOCK_TABLE_ENTRY, NEFF_HEADER, \
             NOTIFICATION, SDMA_CME_BD_DESC, SDMA_CCE_DESC, KBIN_DMA_DESC_CCE_INFO"
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
    let out = dmaspec(&["explain", "SDMA_CME_BD_DESC.meta_ctrl.op"], b"");
    assert_success(&out);
    let text = stdout(&out);
    // wiki-udma-desc Overlay B "[25:23] op"; Table 1.3b DRE 1, CME 2, CCE 4 (the gaps stay gaps).
    for s in [
        "SDMA_CME_BD_DESC.meta_ctrl.op",
        "+0x04 b23..25",
        "SDMAOP",
        "0x1 DRE",
        "0x2 CME",
        "0x4 CCE",
        "wiki-udma-desc §Overlay B",
    ] {
        assert!(text.contains(s), "{s:?} missing:\n{text}");
    }
    assert!(!text.contains("0x3 "), "{text}");
    let out = dmaspec(&["explain", "SDMA_CME_BD_DESC"], b"");
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("record of 16 bytes"), "{text}");
    assert!(text.contains("len_ctrl.length"), "{text}");
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

    // The same bytes read as a plain descriptor on the kernel's bits: W0 bit 23 is META,
    // the META-CTRL VALID bit [25] is op's top bit, so op reads CCE (4), and the op
    // selector [22:20] is optype (conflict sdma_cce_w1_overlay); W2/W3 are buf_ptr.
    let bd = SDMA_CME_BD_DESC::decode(&bytes).unwrap();
    assert_eq!(bd.len_ctrl.meta, 1);
    assert_eq!(bd.meta_ctrl.op, SDMAOP::CCE);
    assert_eq!(bd.meta_ctrl.optype.raw(), 1);
    assert_eq!(bd.buf_ptr, 0x3f00_0000_0900_0400);
    // On the DWARF tables' mirror the META-CTRL's last bit [7] is op's bit 1: op reads CME.
    let dwarf = SDMA_CME_DESC_WORD1_DWARF::from_raw(word(&bytes, 4));
    assert_eq!(dwarf.op, SDMAOP::CME);
    let conflicts: Vec<&str> = CONFLICTS.iter().map(|c| c.name).collect();
    for c in [
        "udma_desc_bit_order",
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
        {"fields":{"len_ctrl":{"length":2048,"first":1},"meta_ctrl":{"op":"CME"},"buf_ptr":4096}},
        {"fields":{"len_ctrl":{"length":65536}}},
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
        "field `len_ctrl.length`: 65536 does not fit 16 bits",
        "`struct` \"SDMA_CCE_DESC\" is not SDMA_CME_BD_DESC",
        "unknown field `nope`",
    ] {
        assert!(err.contains(s), "{s:?} missing: {err}");
    }
    let good = r#"[{"fields":{"len_ctrl":{"length":2048,"first":1},"meta_ctrl":{"op":"CME"},"buf_ptr":4096}}]"#;
    let out = dmaspec(
        &["encode", "--struct", "SDMA_CME_BD_DESC", "--hex", "-"],
        good.as_bytes(),
    );
    assert_success(&out);
    // wiki-udma-desc §2 LENGTH 0x0800 + FIRST [26]; §3 op [25:23] = 2 (0x01000000); buf_ptr 0x1000.
    assert_eq!(stdout(&out).trim(), "00080004000000010010000000000000");
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
