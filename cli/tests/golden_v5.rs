//! Golden vectors for the two v5 (Maverick) inline DMA words, DMA_COPY2D (DMA_MEMCPY2 0xb9)
//! and DMA_IMMEDIATE (0xba): tests/vectors/dma_copy2d.hex and dma_immediate.hex, written by
//! hand from supp-field-tables §3.1 / §3.2 (sub-types: §4 Tables 4.8–4.10, supp-dge-microop
//! §6.3), one line per field citing its row. Each is decoded with the typed API, checked
//! field by field, re-encoded byte-exact and validated; the CLI names their fields on
//! maverick and does not decode them on the older architectures.

mod common;

use common::{assert_success, dmaspec, root, stdout, vector};
use dmaspec::words::*;
use serde_json::Value;

#[test]
fn dma_copy2d_two_d_copy() {
    let bytes = vector("dma_copy2d.hex");
    let w = DMA_COPY2D::decode(&bytes).expect("opcode 0xb9");

    // §3.2 row "0 4 header opcode=0xb9".
    assert_eq!(w.header.opcode, OPCODE::DMA_MEMCPY2);
    assert_eq!(w.header.inst_word_len, 0x10);
    // §3.2 rows "4 4 wait_sema_value", "8 1 wait_sema_idx", "9 1 wait_sema_mode" (Table 4.13).
    assert_eq!(w.wait_sema_value, 2);
    assert_eq!(w.wait_sema_idx, 3);
    assert_eq!(w.wait_sema_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    // §3.2 row "10 1 dma_engines {start_id:5, engine_count:2, rsvd:1}" (Table 4.8).
    assert_eq!(
        w.dma_engines,
        DMA_ENGINE_CONFIG {
            start_id: 4,
            engine_count: DMA_ENGINE_COUNT::TWO,
            reserved: 0
        }
    );
    // §3.2 row "11 1 dma_flags {tdg:1, wr_done_sync:1, queue_id:3, rsvd:3}".
    assert_eq!(
        w.dma_flags,
        DMA_FLAGS {
            tdg: 0,
            wr_done_sync: SEMA_SYNC::CLEAR_PCIE_RO,
            queue_id: 5,
            reserved: 0
        }
    );
    // §3.2 row "12 1 addr_mode {src:4 low, dst:4 high}" (Table 4.9).
    assert_eq!(w.addr_mode.src_addr_mode, DMA_ADDR_MODE::IMM64);
    assert_eq!(w.addr_mode.dst_addr_mode, DMA_ADDR_MODE::REG_IMM_OFFSET32);
    // §3.2 row "13 1 sema_update_mode {rd_done:4, wr_done:4}" (Table 4.10).
    assert_eq!(
        w.sema_update_mode.rd_done,
        DMA_SEMA_UPDATE_MODE::LOCAL_SEM_INC
    );
    assert_eq!(
        w.sema_update_mode.wr_done,
        DMA_SEMA_UPDATE_MODE::REMOTE_SEM_INC
    );
    // §3.2 rows "14 2 rd_done_sema_update_idx" and "38 2 wr_done_sema_update_idx" (not contiguous).
    assert_eq!(w.rd_done_sema_update_idx, 6);
    assert_eq!(w.wr_done_sema_update_idx, 9);
    // §3.2 row "16 8 src_start_addr DMA_ADDR_UNION": the imm64 arm.
    assert_eq!(w.src_start_addr, 0x0000_0001_2000_0000);
    // §3.2 rows "24 8 src_step_elem[2] int32 signed", "32 4 src_num_elem[2]", "36 2 src_elem_size".
    assert_eq!(w.src_step_elem, [1, 256]);
    assert_eq!(w.src_num_elem, [256, 8]);
    assert_eq!(w.src_elem_size, 2);
    // §3.2 row "40 8 dst_start_addr DMA_ADDR_UNION": the dma_addr_info arm (DMA_ADDR_STRUCT,
    // supp-dge-microop §6.3; its member widths are INFERRED).
    let info = DMA_ADDR_STRUCT::read(bytes[40..48].try_into().unwrap());
    assert_eq!(
        (info.base_reg, info.offset_reg, info.inc_reg, info.reserved),
        (10, 11, 0, [0])
    );
    assert_eq!(info.offset_imm, 0x400);
    assert_eq!(w.dst_start_addr, 0x0000_0400_0000_0b0a);
    // §3.2 rows "48 8 dst_step_elem[2] int32 signed", "56 4 dst_num_elem[2]", "60 2 dst_elem_size".
    assert_eq!(w.dst_step_elem, [1, -256]);
    assert_eq!(w.dst_num_elem, [256, 8]);
    assert_eq!(w.dst_elem_size, 2);
    // §3.2 rows "62 1 remote_core_id REG_NUM", "63 1 reserved must be zero".
    assert_eq!(w.remote_core_id, 12);
    assert_eq!(w.reserved, 0);

    assert_eq!(w.encode(), bytes);
}

#[test]
fn dma_immediate_one_inline_one_register_descriptor() {
    let bytes = vector("dma_immediate.hex");
    let w = DMA_IMMEDIATE::decode(&bytes).expect("opcode 0xba");

    // §3.1 row "0 4 header opcode=0xba".
    assert_eq!(w.header.opcode, OPCODE::DMA_IMMEDIATE);
    assert_eq!(w.header.inst_word_len, 0x10);
    // §3.1 rows "4 4 wait_sema_value", "8 1 wait_sema_idx", "9 1 wait_sema_mode".
    assert_eq!(w.wait_sema_value, 1);
    assert_eq!(w.wait_sema_idx, 4);
    assert_eq!(w.wait_sema_mode, WAIT_MODE::WAIT_FOR_SEM_EQ_IMM);
    // §3.1 row "10 1 dma_engines ... restricted to engine_count == ONE".
    assert_eq!(w.dma_engines.start_id, 2);
    assert_eq!(w.dma_engines.engine_count, DMA_ENGINE_COUNT::ONE);
    // §3.1 row "11 1 dma_flags ...; tdg must be 0".
    assert_eq!(w.dma_flags.tdg, 0);
    assert_eq!(w.dma_flags.wr_done_sync, SEMA_SYNC::SOW);
    assert_eq!(w.dma_flags.queue_id, 3);
    // §3.1 row "12 1 descriptor_flags {num_descriptors:2, desc0_src:1, desc1_src:1, desc2_src:1, rsvd:3}".
    assert_eq!(
        w.descriptor_flags,
        DESC_FLAGS {
            num_descriptors: 2,
            desc0_src: DMA_DESC_MODE::IMMEDIATE,
            desc1_src: DMA_DESC_MODE::REGISTER,
            desc2_src: DMA_DESC_MODE::IMMEDIATE,
            reserved: 0
        }
    );
    // §3.1 row "13 3 descriptor_reg[3]".
    assert_eq!(w.descriptor_reg, [0, 20, 0]);
    // §3.1 row "16 48 descriptor_imm[3]": each an SDMA_CME_BD_DESC (INFERRED). Descriptor
    // 0: wiki-udma-desc §2 LENGTH [15:0] = 0x1000, FIRST [26] and LAST [27]; §3 the default
    // meta_ctrl, op [25:23] = 2 CME, optype COPY 0; §4 buf_ptr 0x120000000.
    let d = w.descriptor_imm[0];
    assert_eq!(d.len_ctrl.length, 0x1000);
    assert_eq!((d.len_ctrl.first, d.len_ctrl.last), (1, 1));
    assert_eq!(d.meta_ctrl.op, SDMAOP::CME);
    assert_eq!(d.meta_ctrl.optype, SDMA_CMETYPE::COPY);
    assert_eq!(d.buf_ptr, 0x1_2000_0000);
    // Descriptor 1 is in registers, descriptor 2 unused: their inline bytes are zero.
    assert_eq!(w.descriptor_imm[1], SDMA_CME_BD_DESC::default());
    assert_eq!(w.descriptor_imm[2], SDMA_CME_BD_DESC::default());
    assert_eq!(w.validate(Arch::maverick), Ok(()));

    assert_eq!(w.encode(), bytes);
}

/// The two vectors as one hex stream.
fn stream() -> String {
    ["dma_copy2d.hex", "dma_immediate.hex"]
        .map(|f| std::fs::read_to_string(root().join("tests/vectors").join(f)).unwrap())
        .join("\n")
}

/// `decode --json` of one stream holding both words.
fn decode_json(arch: &str) -> Vec<Value> {
    let out = dmaspec(
        &["decode", "--arch", arch, "--json", "--hex"],
        stream().as_bytes(),
    );
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    doc["instructions"].as_array().unwrap().clone()
}

/// `alternatives` keys an array element's readings by its own index: §3.1's
/// `descriptor_imm[3]` has three elements, each an SDMA_CME_BD_DESC whose `len_ctrl`,
/// `meta_ctrl` (and its `block_attr`) and `buf_ptr` (the tx_meta and template readings) have
/// other readings, so the keys are `descriptor_imm[0]`, `descriptor_imm[0].len_ctrl`, …
/// `descriptor_imm[2].buf_ptr` (decode once wrote
/// `[1].word0` for element 0 and reached `[5].word0`).
#[test]
fn decode_json_keys_array_elements_alternatives_by_their_index() {
    let all = decode_json("maverick");
    let alts = all[1]["alternatives"].as_object().expect("alternatives");
    let keys: Vec<&str> = alts
        .keys()
        .map(String::as_str)
        .filter(|k| k.starts_with("descriptor_imm"))
        .collect();
    assert_eq!(
        keys,
        [
            "descriptor_imm",
            "descriptor_imm[0]",
            "descriptor_imm[0].len_ctrl",
            "descriptor_imm[0].meta_ctrl",
            "descriptor_imm[0].meta_ctrl.block_attr",
            "descriptor_imm[0].buf_ptr",
            "descriptor_imm[1]",
            "descriptor_imm[1].len_ctrl",
            "descriptor_imm[1].meta_ctrl",
            "descriptor_imm[1].meta_ctrl.block_attr",
            "descriptor_imm[1].buf_ptr",
            "descriptor_imm[2]",
            "descriptor_imm[2].len_ctrl",
            "descriptor_imm[2].meta_ctrl",
            "descriptor_imm[2].meta_ctrl.block_attr",
            "descriptor_imm[2].buf_ptr",
        ]
    );
}

#[test]
fn decode_on_maverick_names_the_v5_fields() {
    let all = decode_json("maverick");
    let names: Vec<&str> = all.iter().map(|i| i["struct"].as_str().unwrap()).collect();
    assert_eq!(names, ["DMA_COPY2D", "DMA_IMMEDIATE"]);
    let copy = &all[0]["fields"];
    assert_eq!(copy["wait_sema_mode"]["name"], "WAIT_FOR_SEM_GE_IMM");
    assert_eq!(copy["dma_engines"]["engine_count"]["name"], "TWO");
    assert_eq!(copy["dma_flags"]["queue_id"], 5);
    assert_eq!(copy["dma_flags"]["wr_done_sync"]["name"], "CLEAR_PCIE_RO");
    assert_eq!(
        copy["addr_mode"]["dst_addr_mode"]["name"],
        "REG_IMM_OFFSET32"
    );
    assert_eq!(copy["sema_update_mode"]["rd_done"]["name"], "LOCAL_SEM_INC");
    assert_eq!(
        copy["sema_update_mode"]["wr_done"]["name"],
        "REMOTE_SEM_INC"
    );
    assert_eq!(copy["rd_done_sema_update_idx"], 6);
    assert_eq!(copy["wr_done_sema_update_idx"], 9);
    assert_eq!(copy["src_start_addr"], 0x1_2000_0000u64);
    assert_eq!(copy["dst_step_elem"], serde_json::json!([1, -256]));
    assert_eq!(copy["remote_core_id"], 12);
    let imm = &all[1]["fields"];
    assert_eq!(imm["descriptor_flags"]["num_descriptors"], 2);
    assert_eq!(imm["descriptor_flags"]["desc1_src"]["name"], "REGISTER");
    assert_eq!(imm["descriptor_reg"], serde_json::json!([0, 20, 0]));
    assert!(imm["descriptor_imm"].is_array(), "{imm}");

    // The text table names the sub-fields and their enumerators.
    let out = dmaspec(
        &["decode", "--arch", "maverick", "--hex"],
        stream().as_bytes(),
    );
    assert_success(&out);
    let table = stdout(&out);
    for s in [
        "DMA_COPY2D",
        "sema_update_mode.wr_done",
        "REMOTE_SEM_INC",
        "addr_mode.dst_addr_mode",
        "REG_IMM_OFFSET32",
        "dma_flags.queue_id",
        "CONFLICT: also read as dst_dma_addr_info",
        "DMA_IMMEDIATE",
        "descriptor_flags.desc1_src",
        "REGISTER",
    ] {
        assert!(table.contains(s), "missing {s:?} in\n{table}");
    }
}

/// The v5 words exist on maverick only (supp-field-tables §3; OPCODE's arch).
#[test]
fn v5_words_are_maverick_only() {
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana] {
        assert!(
            Word::decode(&vector("dma_copy2d.hex"), arch).is_none(),
            "{arch:?}"
        );
        assert!(
            Word::decode(&vector("dma_immediate.hex"), arch).is_none(),
            "{arch:?}"
        );
    }
    assert!(matches!(
        Word::decode(&vector("dma_copy2d.hex"), Arch::maverick),
        Some(Word::DMA_COPY2D(_))
    ));
    assert!(matches!(
        Word::decode(&vector("dma_immediate.hex"), Arch::maverick),
        Some(Word::DMA_IMMEDIATE(_))
    ));
}
