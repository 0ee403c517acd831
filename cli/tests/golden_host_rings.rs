//! Golden vectors for the host ring layer (issue 40 item 3): the records DMA_RING_INFO (the
//! pring), SW_DMA_QUEUE, VRING (with its halves VRING_PAGES), UDMA_Q and
//! BASIC_BLOCK_TABLE_ENTRY, and the tx_meta and template readings of the UDMA descriptor's
//! buf_ptr. Each vector under tests/vectors/records/ is written by hand from the rows of
//! wiki-pring, wiki-tdrv-rings, wiki-vring, wiki-ring-cycle and the kernel driver's udma/udma.h
//! that its comments cite (pointer values are illustrative, the pages give none). The CLI
//! decodes and validates them with `--struct`; the typed API re-encodes them byte-exact;
//! records that break a ring rule are refused, naming the rule.

mod common;

use common::{assert_success, dmaspec, hex_bytes, root, stdout};
use dmaspec::words::*;
use serde_json::{Value, json};

fn vector(name: &str) -> Vec<u8> {
    hex_bytes(&root().join("tests/vectors/records").join(name))
}

/// `decode --struct NAME --json` of `bytes`: its records.
fn decoded(name: &str, bytes: &[u8]) -> Vec<Value> {
    let out = dmaspec(&["decode", "--struct", name, "--json"], bytes);
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["records"].as_array().expect("records").clone()
}

/// `validate --struct NAME` of `bytes`: whether it passed, and what it printed.
fn validated(name: &str, bytes: &[u8]) -> (bool, String) {
    let out = dmaspec(&["validate", "--struct", name], bytes);
    let text = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn le32(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

#[test]
fn the_pring_pair_decodes_as_the_builder_types_it() {
    let bytes = vector("dma_ring_info.hex");
    assert_eq!(bytes.len(), 2 * DMA_RING_INFO::SIZE);
    let r = decoded("DMA_RING_INFO", &bytes);
    // wiki-pring §6: `movabs rax, 0x200000001` packs TX = 1 then RX = 2 (Table 2.1).
    assert_eq!(r[0]["fields"]["type"], json!({"raw": 1, "name": "TX"}));
    assert_eq!(r[1]["fields"]["type"], json!({"raw": 2, "name": "RX"}));
    // wiki-tdrv-rings §1: the 64-descriptor floor, descriptor 0 at the chunk base.
    assert_eq!(r[0]["fields"]["allocated_desc_count"], 64);
    assert_eq!(r[0]["fields"]["ring_offset_bytes"], 0);
    assert_eq!(r[1]["fields"]["ring_offset_bytes"], 0x400);
    assert_eq!(r[0]["fields"]["used_desc_count"], 20);
    assert_eq!(r[0]["fields"]["ring_mem"], 0x5555_5555_a000u64);
    assert_eq!(r[0]["confidence"]["allocated_desc_count"], "HIGH/OBSERVED");
    assert_eq!(r[1]["offset"], 32);
    let typed = DMA_RING_INFO::decode(&bytes[32..]).unwrap();
    assert_eq!(typed.r#type, DMA_RING_TYPE::RX);
    assert_eq!(typed.ring_mem, 0x5555_5555_b000);
}

#[test]
fn the_shadow_advances_and_wraps_its_two_bit_phase() {
    let bytes = vector("sw_dma_queue.hex");
    let r = decoded("SW_DMA_QUEUE", &bytes);
    let state = |i: usize| {
        let f = &r[i]["fields"];
        (
            f["next_desc_idx"].clone(),
            f["desc_ring_id"].clone(),
            f["desc_count"].clone(),
        )
    };
    // wiki-tdrv-rings §3: init {0, 1, 64}; +40 no wrap; +30 wraps: 70 % 64 = 6, (1 + 1) & 3.
    assert_eq!(state(0), (json!(0), json!(UDMA_INITIAL_RING_ID), json!(64)));
    assert_eq!(state(1), (json!(40), json!(1), json!(64)));
    assert_eq!(state(2), (json!(6), json!(2), json!(64)));
    assert!(validated("SW_DMA_QUEUE", &bytes).0);

    // A phase of 4 does not fit DMA_RING_ID_MASK's two bits; an index at desc_count is
    // outside the ring.
    let bad = [le32(0), le32(4), le32(64)].concat();
    let (ok, text) = validated("SW_DMA_QUEUE", &bad);
    assert!(!ok && text.contains("desc_ring_id_two_bits"), "{text}");
    let bad = [le32(64), le32(1), le32(64)].concat();
    let (ok, text) = validated("SW_DMA_QUEUE", &bad);
    assert!(!ok && text.contains("next_desc_idx_in_ring"), "{text}");
}

#[test]
fn the_vring_decodes_with_its_name_halves_and_totals() {
    let bytes = vector("vring.hex");
    assert_eq!(bytes.len(), VRING::SIZE);
    let r = decoded("VRING", &bytes);
    let f = &r[0]["fields"];
    assert_eq!(f["name"], "io_queues_0");
    // wiki-vring §3: a 192 KiB copy is three 64 KiB chunks, a tx and an rx descriptor each.
    for half in ["tx", "rx"] {
        assert_eq!(f[half]["used_desc_count"], 3, "{half}");
        assert_eq!(f[half]["is_template"], 1, "{half}");
        assert_eq!(f[half]["max_var_id"], 4, "{half}");
        assert_eq!(f[half]["head"], f[half]["tail"], "{half}");
    }
    assert_eq!(f["total_tx_size"], 3 * 65536);
    assert_eq!(f["total_rx_size"], 3 * 65536);
    assert_eq!(f["stochastic_rounding_en"], 0);
    assert!(validated("VRING", &bytes).0);

    // A half past the 16,777,200-descriptor cap (wiki-vring §2) is refused, by its own
    // record and inside the vring.
    let mut over = bytes.clone();
    over[256..260].copy_from_slice(&le32(VRING_MAX_DESCS as u32 + 1));
    let (ok, text) = validated("VRING", &over);
    assert!(!ok && text.contains("tx_within_cap"), "{text}");
    let (ok, text) = validated("VRING_PAGES", &over[256..288]);
    assert!(!ok && text.contains("used_desc_count_within_cap"), "{text}");
}

#[test]
fn the_udma_queue_decodes_at_the_drivers_offsets() {
    let bytes = vector("udma_q.hex");
    assert_eq!(bytes.len(), UDMA_Q::SIZE);
    let r = decoded("UDMA_Q", &bytes);
    let f = &r[0]["fields"];
    // udma/udma.h:144-170 at gcc's offsets; the cursors wiki-ring-cycle §1 pins.
    assert_eq!(f["size_mask"], 0x1fff);
    assert_eq!(f["next_desc_idx"], 2032);
    assert_eq!(f["desc_ring_id"], 1);
    assert_eq!(f["cdesc_base_ptr"], 0);
    assert_eq!(f["next_cdesc_idx"], 0);
    assert_eq!(f["size"], 8192);
    assert_eq!(f["flags"], 2);
    assert_eq!(f["status"]["name"], "QUEUE_ENABLED");
    assert_eq!(f["type"]["name"], "UDMA_TX");
    assert_eq!(f["cfg"], 0x0303_0000);
    assert_eq!(r[0]["confidence"]["next_cdesc_idx"], "COMPILED");
    let meta = |name: &str| {
        UDMA_Q::FIELDS
            .iter()
            .find(|m| m.name == name)
            .unwrap()
            .offset
    };
    assert_eq!(
        [
            meta("next_desc_idx"),
            meta("desc_ring_id"),
            meta("cdesc_base_ptr"),
            meta("next_cdesc_idx"),
            meta("size")
        ],
        [0x1c, 0x20, 0x28, 0x34, 0x6c]
    );
    assert!(
        CONFLICTS
            .iter()
            .any(|c| c.name == "udma_q_cdesc_base_ptr_offset")
    );
    assert!(validated("UDMA_Q", &bytes).0);

    // udma_q_init_validate's bounds: 16 descriptors is below UDMA_MIN_Q_SIZE; 8200 is in
    // range but its 131,200 bytes do not end on a 256-byte boundary; and size_mask must be
    // size - 1.
    let with = |patch: &[(usize, u32)]| {
        let mut b = bytes.clone();
        for &(at, v) in patch {
            b[at..at + 4].copy_from_slice(&le32(v));
        }
        b
    };
    let (ok, text) = validated("UDMA_Q", &with(&[(0x6c, 16), (0x00, 15)]));
    assert!(!ok && text.contains("queue_size_at_least_min"), "{text}");
    let (ok, text) = validated("UDMA_Q", &with(&[(0x6c, 8200), (0x00, 8199)]));
    assert!(!ok && text.contains("ring_end_aligned"), "{text}");
    let (ok, text) = validated("UDMA_Q", &with(&[(0x00, 15)]));
    assert!(
        !ok && text.contains("size_mask_is_size_minus_one"),
        "{text}"
    );
    let (ok, text) = validated("UDMA_Q", &with(&[(0x54, 4)]));
    assert!(!ok && text.contains("comp_ring_id_two_bits"), "{text}");
}

#[test]
fn the_basic_block_table_decodes_up_to_its_terminator() {
    let bytes = vector("basic_block_table.hex");
    let r = decoded("BASIC_BLOCK_TABLE_ENTRY", &bytes);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["fields"]["desc_count"], 40);
    assert_eq!(r[0]["fields"]["reset_section_desc_count"], 6);
    assert_eq!(r[1]["fields"]["desc_count"], 288);
    assert_eq!(r[1]["fields"]["type"], 1);
    assert_eq!(r[2]["fields"]["desc_count"], 0);
    // wiki-pring §4.3 tags `type` MED/INFERRED, the rest HIGH/OBSERVED.
    assert_eq!(r[0]["confidence"]["type"], "MED/INFERRED");
    assert_eq!(r[0]["confidence"]["desc_count"], "HIGH/OBSERVED");
}

#[test]
fn buf_ptr_reads_as_the_tx_meta_arm_and_the_template_encoding() {
    let bytes = vector("udma_tx_meta_template.hex");
    let r = decoded("SDMA_CME_BD_DESC", &bytes);
    let alts = |i: usize| -> Vec<Value> {
        r[i]["alternatives"]["buf_ptr"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].clone())
            .collect()
    };
    assert_eq!(alts(0), [json!("tx_meta"), json!("template_buf_ptr")]);

    // udma/udma.h tx_meta: meta1 at +8, meta2 at +12 (wiki-pring §1 Table 1.0).
    let meta = UDMA_DESC_TX_META::read(bytes[8..16].try_into().unwrap());
    assert_eq!((meta.meta1, meta.meta2), (0x1122_3344, 0x5566_7788));

    // wiki-vring §5: bit 61 template, [54:36] var_id, [35:0] offset.
    let bd = SDMA_CME_BD_DESC::decode(&bytes[16..]).unwrap();
    assert_eq!(bd.buf_ptr, 0x2000_0030_0000_0100);
    let t = UDMA_TEMPLATE_BUF_PTR::from_raw(bd.buf_ptr);
    assert_eq!((t.is_template, t.var_id, t.offset), (1, 3, 0x100));
    assert_eq!((t.unknown_55_60, t.unknown_62_63), (0, 0));
    assert_eq!(t.raw(), bd.buf_ptr);
    assert_eq!(bd.len_ctrl.ring_id, 1);
    // A plain address has the template bit clear.
    assert_eq!(
        UDMA_TEMPLATE_BUF_PTR::from_raw(0x4_0000_1000).is_template,
        0
    );
}

#[test]
fn every_vector_re_encodes_byte_exact() {
    fn each<const N: usize>(bytes: &[u8], decode: impl Fn(&[u8]) -> [u8; N]) {
        assert_eq!(bytes.len() % N, 0);
        for chunk in bytes.chunks_exact(N) {
            assert_eq!(&decode(chunk)[..], chunk);
        }
    }
    each(&vector("dma_ring_info.hex"), |b| {
        DMA_RING_INFO::decode(b).unwrap().encode()
    });
    each(&vector("sw_dma_queue.hex"), |b| {
        SW_DMA_QUEUE::decode(b).unwrap().encode()
    });
    each(&vector("vring.hex"), |b| VRING::decode(b).unwrap().encode());
    each(&vector("udma_q.hex"), |b| {
        UDMA_Q::decode(b).unwrap().encode()
    });
    each(&vector("basic_block_table.hex"), |b| {
        BASIC_BLOCK_TABLE_ENTRY::decode(b).unwrap().encode()
    });
    each(&vector("udma_tx_meta_template.hex"), |b| {
        SDMA_CME_BD_DESC::decode(b).unwrap().encode()
    });
}

#[test]
fn the_ring_constants_are_the_drivers() {
    // udma/udma.h:16, 23, 26, 27, 33, 35; neuron_dma.c:147; wiki-vring §2.
    assert_eq!(UDMA_MAX_NUM_CDESC_PER_CACHE_LINE, 16);
    assert_eq!(UDMA_QUEUE_ADDR_BYTE_ALIGNMENT, 256);
    assert_eq!(UDMA_MIN_Q_SIZE, 32);
    assert_eq!(UDMA_MAX_Q_SIZE, (1 << 24) - 16);
    assert_eq!(UDMA_INITIAL_RING_ID, 1);
    assert_eq!(DMA_RING_ID_MASK, 0x3);
    assert_eq!(DMA_COMPLETION_MARKER, 0xabcd_ef01);
    assert_eq!(VRING_MAX_DESCS, 0xff_fff0);
}
