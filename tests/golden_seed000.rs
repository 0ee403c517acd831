//! Golden vectors for seed 000's view of the DMA family (tests/vectors/seed000_*.hex).
//!
//! Every vector was written by hand from the source tables, not produced by our encoder:
//! each line of a .hex file is one field with a comment citing the table row it comes from.
//! The tests decode each vector with the generated typed API, check every field against the
//! value the row gives (both readings where the sources disagree), then check that encoding
//! gives back the exact bytes, unknown and reserved ones included.

mod common;

use common::{vector, vectors};
use dmaspec::runtime::meta::LeafMeta;
use dmaspec::runtime::text::{AsciiZ, TextError};
use dmaspec::stream::{Decoded, Decoder};
use dmaspec::words::*;

/// The family's header skeleton (seed-000 §At a glance): opcode, inst_word_len 0x10,
/// bytes +2..+3 zero (seed 004's debug_cmd / debug_hint).
fn assert_header(h: &HEADER, opcode: OPCODE) {
    assert_eq!(h.opcode, opcode);
    assert_eq!(h.inst_word_len, 0x10);
    assert_eq!((h.debug_cmd, h.debug_hint), (0, 0));
}

fn events(
    wait: WAIT_MODE,
    wait_idx: u8,
    update: UPDATE_MODE,
    update_idx: u8,
    value: u32,
) -> EVENTS {
    EVENTS {
        wait_mode: wait,
        wait_idx,
        update_mode: update,
        update_idx,
        semaphore_value: value,
    }
}

fn no_bound() -> BOUND_CHECK_REG {
    BOUND_CHECK_REG::from_raw(0)
}

/// The leaf of `leaves` at `path`.
fn leaf(leaves: &'static [LeafMeta], path: &str) -> &'static LeafMeta {
    leaves
        .iter()
        .find(|l| l.path == path)
        .unwrap_or_else(|| panic!("no leaf `{path}`"))
}

/// The names of the alternative readings of the leaf at `path`.
fn alternatives(leaves: &'static [LeafMeta], path: &str) -> Vec<&'static str> {
    leaf(leaves, path)
        .field
        .alternatives
        .iter()
        .map(|a| a.name)
        .collect()
}

fn marker_of(a: &PSEUDO_ADDR8) -> ADDR8_MARKER {
    match a.arm() {
        PSEUDO_ADDR8_arm::addr_var(x) => x.marker,
        PSEUDO_ADDR8_arm::addr_reg(x) => x.marker,
        PSEUDO_ADDR8_arm::addr_tbl_offs(x) => x.marker,
        PSEUDO_ADDR8_arm::addr_immediate(x) => x.marker,
    }
}

fn flag_names(m: ADDR8_MARKER) -> Vec<&'static str> {
    ADDR8_MARKER::BITS
        .iter()
        .filter(|b| m.raw() & (1 << b.bit) != 0)
        .map(|b| b.name)
        .collect()
}

/// The physical-var-id arm (marker 0x10): immediate, var-id low 16, var-id high byte.
fn assert_physical(a: &PSEUDO_ADDR8, immediate: u32, var_id: u32, marker: u8) {
    let PSEUDO_ADDR8_arm::addr_var(v) = a.arm() else {
        panic!("expected the addr_var (physical var-id) arm, got {a:?}")
    };
    assert_eq!(v.marker.raw(), marker);
    assert_eq!(v.immediate, immediate);
    assert_eq!(
        u32::from(v.var_id_lo) | u32::from(v.var_id_hi) << 16,
        var_id
    );
}

/// The DGE-table arm (marker 0x20 / 0x28 ...): immediate or RegId, table-entry id.
fn assert_dge(a: &PSEUDO_ADDR8, offset: u32, table_entry_id: u16, marker: u8) {
    let PSEUDO_ADDR8_arm::addr_tbl_offs(t) = a.arm() else {
        panic!("expected the addr_tbl_offs (DGE table) arm, got {a:?}")
    };
    assert_eq!(t.marker.raw(), marker);
    assert_eq!(t.offset, offset);
    assert_eq!(t.dge_table_entry_id, table_entry_id);
    assert_eq!(t.unknown_6, [0]);
}

// ---- 0xd4: the worked example and its variants ----------------------------------------

#[test]
fn worked_example_static_sb_to_dram_save() {
    let bytes = vector("seed000_static_save.hex");
    let w = PSEUDO_DMA_DIRECT2D::decode(&bytes).expect("opcode 0xd4");

    // §Static arm rows +0x00..+0x02.
    assert_header(&w.header, OPCODE::PSEUDO_DMA_DIRECT2D);
    // Rows +0x04..+0x08.
    assert_eq!(
        w.events,
        events(WAIT_MODE::NONE, 0, UPDATE_MODE::SEM_INC_COMPLETE, 2, 1)
    );
    // Row +0x0C: no QoS on Sunda.
    assert_eq!(w.dma_configs, DMA_CONFIGS::from_raw(0));
    // Rows +0x0D instr.semaphore, +0x0E instr.sem_increment.
    assert_eq!((w.semaphore, w.sem_increment), (2, 1));
    // Row +0x0F: seed 000's sync_command COPY = 3; seed 004 reads the same byte as dge_op,
    // where 3 is DMA_GATHER_TRANSPOSE (README conflict #1).
    assert_eq!(w.dge_op.raw(), 3);
    assert_eq!(w.dge_op, DGE_OPCODE::DMA_GATHER_TRANSPOSE);
    let leaves = PSEUDO_DMA_DIRECT2D::META.leaves;
    assert_eq!(alternatives(leaves, "dge_op"), ["sync_command_byte"]);
    // Row +0x10 SRC ADDR8: SB immediate 0x400, var-id 0, mode 0x10 (static physical).
    assert_physical(&w.src_start_addr, 0x400, 0, 0x10);
    assert_eq!(flag_names(marker_of(&w.src_start_addr)), ["VAR_ID"]);
    // Rows +0x18/+0x1C getAPStepOnHW = step x 2; +0x20/+0x22 nums; +0x24 2 x 512.
    assert_eq!(w.src_step_elem, [1024, 0]);
    assert_eq!(w.src_num_elem, [128, 1]);
    assert_eq!(w.src_elem_size, 1024);
    assert_eq!(w.src_elem_size_value(), 1024);
    // Rows +0x26 / +0x27: no offset register; seed 004's bound regs inert.
    assert_eq!((w.src_bound_reg, w.dst_bound_reg), (no_bound(), no_bound()));
    // Row +0x28 DST ADDR8: DRAM variable 5 at offset 0, mode 0x10.
    assert_physical(&w.dst_start_addr, 0, 5, 0x10);
    // Rows +0x30..+0x3C.
    assert_eq!(w.dst_step_elem, [1024, 0]);
    assert_eq!(w.dst_num_elem, [128, 1]);
    assert_eq!(w.dst_elem_size, 1024);
    // Rows +0x3E / +0x3F: fp16 wire tag.
    assert_eq!((w.in_dtype, w.out_dtype), (DTYPE::FP16, DTYPE::FP16));

    assert_eq!(PSEUDO_DMA_DIRECT2D::constant_mismatches(&bytes).count(), 0);
    assert_eq!(w.encode(), bytes);
}

#[test]
fn worked_example_flipped_to_hw_dge_register_copy() {
    let words = vectors("seed000_hwdge_copy.hex");
    assert_eq!(words.len(), 2);

    // The 0xd4 word: both ADDR8s now mode 0x28 with a DGE table-entry id at +4.
    let w = PSEUDO_DMA_DIRECT2D::decode(&words[0]).expect("opcode 0xd4");
    assert_header(&w.header, OPCODE::PSEUDO_DMA_DIRECT2D);
    assert_eq!(
        w.events,
        events(WAIT_MODE::NONE, 0, UPDATE_MODE::SEM_INC_COMPLETE, 2, 1)
    );
    assert_eq!(w.dma_configs, DMA_CONFIGS::from_raw(0));
    assert_eq!((w.semaphore, w.sem_increment, w.dge_op.raw()), (2, 1, 3));
    assert_dge(&w.src_start_addr, 4, 1, 0x28);
    assert_dge(&w.dst_start_addr, 5, 2, 0x28);
    assert_eq!(
        flag_names(marker_of(&w.src_start_addr)),
        ["OFFSET_REG", "ADDR_TBL"]
    );
    assert_eq!(
        (w.src_step_elem, w.src_num_elem, w.src_elem_size),
        ([1024, 0], [128, 1], 1024)
    );
    assert_eq!(
        (w.dst_step_elem, w.dst_num_elem, w.dst_elem_size),
        ([1024, 0], [128, 1], 1024)
    );
    // Rows +0x26 / +0x27 = getRegId & 0x3F | 0x80: the same byte is seed 004's
    // BOUND_CHECK_REG {bc_reg 4/5, bc_enabled 1} (README conflict #4).
    assert_eq!(
        w.src_bound_reg,
        BOUND_CHECK_REG {
            bc_reg: 4,
            bc_disable_oob_error_notif: 0,
            bc_enabled: 1
        }
    );
    assert_eq!(w.dst_bound_reg.raw(), 0x85);
    let leaves = PSEUDO_DMA_DIRECT2D::META.leaves;
    assert_eq!(leaf(leaves, "src_bound_reg.bc_reg").offset, 0x26);
    assert!(
        PSEUDO_DMA_DIRECT2D::FIELDS
            .iter()
            .find(|f| f.name == "src_bound_reg")
            .unwrap()
            .alternatives
            .iter()
            .any(|a| a.name == "src_offset_reg")
    );
    assert_eq!((w.in_dtype, w.out_dtype), (DTYPE::FP16, DTYPE::FP16));
    assert_eq!(w.encode(), words[0]);

    // The dynamic record: a 0xda extension right after the 0xd4.
    let mut d = Decoder::new(Arch::sunda);
    assert!(matches!(
        d.push(&words[0]),
        Decoded::Word { extends: None, .. }
    ));
    let Decoded::Word {
        word: Word::PSEUDO_DMA_EXT(e),
        extends: Some(0),
    } = d.push(&words[1])
    else {
        panic!("word 1 is not the extension of word 0")
    };
    assert_eq!(e.opcode, OPCODE::PSEUDO_EXTENSION);
    assert_eq!(e.flags.raw(), 0);
    assert_eq!(e.idx_num_active_channels, 0);
    assert_eq!(e.compute_op, DGE_COMPUTE_OP::NONE);
    assert_eq!(e.src_idx_start_addr, ADDR4::from_raw(0));
    assert_eq!(e.dst_idx_start_addr, ADDR4::from_raw(0));
    // (B) bound sizes, low halves at +0x0C/+0x10, upper halves at +0x38/+0x3C.
    assert_eq!(e.src_bound_size_bytes, 0x2_0000);
    assert_eq!(e.dst_bound_size_bytes, 0x10_0000);
    assert_eq!(
        (e.src_bound_size_bytes_upper, e.dst_bound_size_bytes_upper),
        (0, 1)
    );
    assert_eq!(e.src_bound_size_bytes_full(), 0x2_0000);
    assert_eq!(e.dst_bound_size_bytes_full(), 0x1_0010_0000);
    assert_eq!(
        (e.tile_src_row_step, e.tile_src_rows, e.tile_src_cols),
        (0, 0, 0)
    );
    assert_eq!(e.reserved1, [0; 30]);
    assert_eq!(e.encode(), words[1]);
}

#[test]
fn mode_byte_0x6c_decodes_to_exactly_its_bits() {
    let bytes = vector("seed000_transpose_6c.hex");
    let w = PSEUDO_DMA_DIRECT2D::decode(&bytes).expect("opcode 0xd4");
    assert_header(&w.header, OPCODE::PSEUDO_DMA_DIRECT2D);
    assert_eq!(w.events, EVENTS::default());
    assert_eq!(w.dma_configs, DMA_CONFIGS::from_raw(0));
    assert_eq!((w.semaphore, w.sem_increment), (3, 1));
    // +0x0F: seed 000's TRANSPOSE = 1; seed 004's DMA_INDIRECT1D.
    assert_eq!(w.dge_op, DGE_OPCODE::DMA_INDIRECT1D);
    assert_dge(&w.src_start_addr, 6, 3, 0x28);
    assert_dge(&w.dst_start_addr, 7, 4, 0x6C);

    // 0x6C = 0x28 | 0x04 | 0x40, and nothing else.
    let m = marker_of(&w.dst_start_addr);
    assert_eq!(bytes[0x2F], 0x6C);
    assert_eq!(m.raw(), 0x28 | 0x04 | 0x40);
    assert_eq!(
        flag_names(m),
        ["OFFSET_WIDE", "OFFSET_REG", "ADDR_TBL", "SHAPE_REG"]
    );
    assert_eq!(
        m,
        ADDR8_MARKER::from_raw(
            ADDR8_MARKER::OFFSET_WIDE.raw()
                | ADDR8_MARKER::OFFSET_REG.raw()
                | ADDR8_MARKER::ADDR_TBL.raw()
                | ADDR8_MARKER::SHAPE_REG.raw()
        )
    );
    // Seed 000's reading of the same byte is recorded as the marker's alternative, and bit 6
    // is the conflict of meaning it documents.
    let leaves = PSEUDO_DMA_DIRECT2D::META.leaves;
    let marker = leaf(leaves, "dst_start_addr.marker");
    assert_eq!(marker.offset, 0x2F);
    assert_eq!(marker.raw(&bytes), 0x6C);
    let alt = &marker.field.alternatives[0];
    assert_eq!(alt.name, "address_mode");
    assert!(alt.doc.contains("0x6C = 0x28|0x04|0x40"), "{}", alt.doc);
    assert!(
        alt.doc.contains("Bit 6 is a conflict of meaning"),
        "{}",
        alt.doc
    );

    assert_eq!(
        (w.src_step_elem, w.src_num_elem, w.src_elem_size),
        ([256, 0], [128, 1], 256)
    );
    assert_eq!(
        (w.dst_step_elem, w.dst_num_elem, w.dst_elem_size),
        ([256, 0], [128, 1], 256)
    );
    assert_eq!((w.src_bound_reg, w.dst_bound_reg), (no_bound(), no_bound()));
    assert_eq!(
        (w.in_dtype, w.out_dtype),
        (DTYPE::BFLOAT16, DTYPE::BFLOAT16)
    );
    assert_eq!(w.encode(), bytes);
}

// ---- the words only seed 000 describes ------------------------------------------------

#[test]
fn trigger_with_a_full_length_queue_name() {
    let bytes = vector("seed000_trigger.hex");
    let w = PSEUDO_DMA_TRIGGER::decode(&bytes).expect("opcode 0xc1");
    assert_header(&w.header, OPCODE::PSEUDO_DMATRIGGER);
    assert_eq!(
        w.events,
        events(WAIT_MODE::WAIT_FOR_SEM_EQ_IMM, 3, UPDATE_MODE::NONE, 0, 2)
    );
    // Row +0x0C: 31 characters, then the NUL at +0x2B.
    assert_eq!(
        w.dma_queue_name.as_str(),
        Some("dma_queue_activation_in_000001a")
    );
    assert_eq!(w.dma_queue_name.bytes().len(), 31);
    assert!(w.dma_queue_name.is_canonical());
    assert_eq!(bytes[0x2B], 0);
    // +0x2C..+0x3F, which seed 000 leaves unnamed: the shipped header's use_raw_count and
    // reserved (wiki-seq-microcode §5, + 4 for the 8-byte events).
    assert_eq!(w.use_raw_count, 0);
    // Row +0x30 DMA BLOCK ID (the header's block_id).
    assert_eq!(w.block_id, 7);
    assert_eq!(w.reserved, [0; 12]);
    assert_eq!(w.encode(), bytes);

    // Encoding the same name again gives the same bytes.
    let name = AsciiZ::<32>::from_text("dma_queue_activation_in_000001a").unwrap();
    assert_eq!(name, w.dma_queue_name);
}

/// "queName.length() < maxSize" (maxSize = 32): 31 characters fit with their NUL, 32 do not.
#[test]
fn queue_name_that_does_not_fit_with_its_nul_is_refused() {
    let mut w = PSEUDO_DMA_TRIGGER::new();
    assert_eq!(AsciiZ::<32>::MAX_LEN, 31);
    let ok = "q".repeat(31);
    w.dma_queue_name = AsciiZ::from_text(&ok).expect("31 bytes + NUL fit");
    assert_eq!(&w.encode()[0x0C..0x2B], ok.as_bytes());
    assert_eq!(w.encode()[0x2B], 0);

    let long = "q".repeat(32);
    let err = AsciiZ::<32>::from_text(&long).unwrap_err();
    assert_eq!(err, TextError::TooLong { len: 32, max: 31 });
    assert_eq!(
        err.to_string(),
        "text is 32 bytes; at most 31 fit with the terminating NUL"
    );
    // The same limit on the queue-instance words.
    let w = PSEUDO_DMA_SWAP_QUEUE_SET::new();
    let _: AsciiZ<32> = w.dma_queue_name;
    assert!(AsciiZ::<32>::from_text("dma\u{e9}").is_err());
}

#[test]
fn swap_queue_set() {
    let bytes = vector("seed000_swap_queue_set.hex");
    let w = PSEUDO_DMA_SWAP_QUEUE_SET::decode(&bytes).expect("opcode 0xcf");
    assert_header(&w.header, OPCODE::PSEUDO_DMASWAP_QUEUE_SET);
    assert_eq!(
        w.events,
        events(WAIT_MODE::NONE, 0, UPDATE_MODE::SEM_INC_COMPLETE, 1, 1)
    );
    assert_eq!(w.dma_queue_name.as_str(), Some("dma_q_sp_in_0"));
    assert_eq!(w.unknown_44, [0; 15]);
    assert_eq!(w.queue_instance_flag, 1);
    // Row +0x3C: the swap marker, a constant the encoder fills.
    assert_eq!(w.swap_marker, 1);
    assert_eq!(PSEUDO_DMA_SWAP_QUEUE_SET::new().swap_marker, 1);
    assert_eq!(
        PSEUDO_DMA_SWAP_QUEUE_SET::constant_mismatches(&bytes).count(),
        0
    );
    assert_eq!(w.encode(), bytes);

    // A word whose marker differs still decodes; the mismatch is reported.
    let mut bad = bytes;
    bad[0x3C] = 2;
    let w = PSEUDO_DMA_SWAP_QUEUE_SET::decode(&bad).expect("still decodes");
    assert_eq!(w.swap_marker, 2);
    let m: Vec<_> = PSEUDO_DMA_SWAP_QUEUE_SET::constant_mismatches(&bad)
        .map(|(l, e, f)| (l.path, e, f))
        .collect();
    assert_eq!(m, [("swap_marker", 1, 2)]);
    assert_eq!(w.encode(), bad);
}

#[test]
fn rearm() {
    let bytes = vector("seed000_rearm.hex");
    let w = PSEUDO_DMA_REARM::decode(&bytes).expect("opcode 0xc2");
    assert_header(&w.header, OPCODE::PSEUDO_DMAREARM);
    assert_eq!(
        w.events,
        events(WAIT_MODE::WAIT_FOR_SEM_GE_IMM, 1, UPDATE_MODE::NONE, 0, 1)
    );
    assert_eq!(w.dma_queue_name.as_str(), Some("dma_q_sp_in_0"));
    assert_eq!(w.unknown_44, [0; 20]);
    assert_eq!(w.encode(), bytes);
}

#[test]
fn pseudo_range_check() {
    let bytes = vector("seed000_pseudo_range_check.hex");
    let w = PSEUDO_RANGE_CHECK::decode(&bytes).expect("opcode 0xd6");
    assert_header(&w.header, OPCODE::PSEUDO_RANGE_CHECK);
    assert_eq!(
        w.events,
        events(WAIT_MODE::NONE, 0, UPDATE_MODE::SEM_INC_COMPLETE, 5, 1)
    );
    assert_eq!(w.unknown_12, [0; 12]);
    assert_eq!(w.bound_result_reg, 9);
    assert_eq!(w.unknown_28, [0; 4]);
    assert_eq!(w.bound_size_bytes, 0x4_0000);
    // Constants: tag 0x11 at +0x28, 1 at +0x2A, 0x3 in +0x29's high nibble.
    assert_eq!(w.const_tag, 0x11);
    assert_eq!(w.src_dtype.dtype, DTYPE::UINT32);
    assert_eq!(w.src_dtype.tag, 3);
    assert_eq!(w.src_dtype.raw(), 0x39);
    assert_eq!(w.const_one, 1);
    assert_eq!(w.unknown_44, [0; 2]);
    assert_eq!(w.idx_ap_meta, 1);
    assert_eq!(w.unknown_47, [0]);
    assert_eq!(w.branch_label_id, 42);
    assert_eq!(w.unknown_52, [0; 12]);
    assert_eq!(PSEUDO_RANGE_CHECK::constant_mismatches(&bytes).count(), 0);
    assert_eq!(w.encode(), bytes);

    // new() fills every constant.
    let n = PSEUDO_RANGE_CHECK::new().encode();
    assert_eq!(
        (n[0], n[1], n[0x28], n[0x29], n[0x2A], n[0x2B]),
        (0xd6, 0x10, 0x11, 0x30, 1, 0)
    );

    // A differing tag is reported, not refused.
    let mut bad = bytes;
    bad[0x28] = 0x12;
    bad[0x29] = 0x49;
    let m: Vec<_> = PSEUDO_RANGE_CHECK::constant_mismatches(&bad)
        .map(|(l, e, f)| (l.path, e, f))
        .collect();
    assert_eq!(m, [("const_tag", 0x11, 0x12), ("src_dtype.tag", 3, 4)]);
    assert_eq!(PSEUDO_RANGE_CHECK::decode(&bad).unwrap().encode(), bad);
}

#[test]
fn pseudo_embedding_update_joins_the_split_entry_size() {
    let bytes = vector("seed000_pseudo_embedding_update.hex");
    let w = PSEUDO_EMBEDDING_UPDATE::decode(&bytes).expect("opcode 0xca");
    assert_header(&w.header, OPCODE::PSEUDO_EMBEDDING_UPDATE);
    assert_eq!(
        w.events,
        events(WAIT_MODE::WAIT_FOR_SEM_GE_IMM, 1, UPDATE_MODE::NONE, 0, 64)
    );
    assert_eq!(w.index_dtype, DTYPE::UINT32);
    assert_eq!(w.unknown_13, [0; 31]);
    assert_eq!(w.embedding_table_base_addr, 0x1_0000);
    assert_eq!(w.embed_entry_num_elements, 16384);
    assert_eq!((w.embed_entry_size_lo, w.embed_entry_size_hi), (0, 1));
    assert_eq!(w.embed_entry_size_bytes(), 0x1_0000);
    assert_eq!(w.sequence_length, 32);
    assert_eq!(w.unknown_54, [0; 2]);
    assert_eq!(w.table_num_entries, 0x40_0000);
    assert_eq!(w.unknown_62, [0; 2]);
    assert_eq!(w.encode(), bytes);

    let j = &PSEUDO_EMBEDDING_UPDATE::JOINS[0];
    assert_eq!(j.name, "embed_entry_size_bytes");
    assert_eq!(
        j.parts,
        [("embed_entry_size_lo", 16), ("embed_entry_size_hi", 16)]
    );
    let mut w2 = PSEUDO_EMBEDDING_UPDATE::new();
    w2.set_embed_entry_size_bytes(0x1_0000);
    assert_eq!((w2.embed_entry_size_lo, w2.embed_entry_size_hi), (0, 1));
}

#[test]
fn indirect_copy_both_width_readings() {
    let bytes = vector("seed000_indirect_copy.hex");
    let w = INDIRECT_COPY::decode(&bytes).expect("opcode 0xe7");
    assert_header(&w.header, OPCODE::INDIRECT_COPY);
    assert_eq!(
        w.events,
        events(WAIT_MODE::NONE, 0, UPDATE_MODE::SEM_INC_COMPLETE, 6, 1)
    );
    // +0x0C index ADDR4 with bit 29 (the +0x0F |= 0x20 marker); +0x10 data ADDR4.
    assert_eq!(
        w.index_addr,
        ADDR4 {
            address: 0x1000,
            indirect: 1,
            active: 0,
            register_mode: 0
        }
    );
    assert_eq!(bytes[0x0F] & 0x20, 0x20);
    assert_eq!(w.data_addr, ADDR4::from_raw(0x8_0000));
    assert_eq!(w.num_elem, 24);
    assert_eq!(w.unknown_24, [0; 8]);
    assert_eq!((w.in_dtype, w.out_dtype), (DTYPE::FP32, DTYPE::FP32));
    assert_eq!(w.num_active_channels, 16);
    assert_eq!(w.src_num_elem_per_idx, 8);
    assert_eq!(w.dst_num_elem_per_idx, 0);
    assert_eq!(w.reserved0, [0]);
    assert_eq!(w.src_buffer_size, 4096);
    assert_eq!(w.reserved1, [0; 2]);
    // +0x2C: the 20-byte TENSOR4D destination (the DVE page's 16 bytes are an alternative).
    let mut dst = [0; 20];
    dst[..16].copy_from_slice(&bytes[0x2C..0x3C]);
    assert_eq!(w.dst_mem_pattern, TENSOR4D::read(&dst));
    assert_eq!(w.dst_mem_pattern.start_addr, ADDR4::from_raw(0x0403_0201));
    assert_eq!(w.dst_mem_pattern.num_elem, [0x0e0d, 0x100f, 0, 0]);
    assert_eq!(w.encode(), bytes);

    // The gather-scatter page's narrower widths, kept as alternatives reading the first
    // bytes of the same fields (README conflict #8).
    let leaves = INDIRECT_COPY::META.leaves;
    let num = leaf(leaves, "num_elem");
    assert_eq!((num.offset, num.size), (0x14, 4));
    assert_eq!(num.field.alternatives[0].name, "num_elem_u16");
    assert_eq!(num.field.alternatives[0].type_name, "u16");
    let buf = leaf(leaves, "src_buffer_size");
    assert_eq!((buf.offset, buf.size), (0x26, 4));
    assert_eq!(buf.field.alternatives[0].type_name, "u16");
    // Read as u16 + dst_buffer_size u16, these bytes give 4096 and 0.
    assert_eq!(u16::from_le_bytes([bytes[0x26], bytes[0x27]]), 4096);
    assert_eq!(u16::from_le_bytes([bytes[0x28], bytes[0x29]]), 0);
}

#[test]
fn move_shape_keeps_its_unknown_body() {
    let bytes = vector("seed000_move_shape.hex");
    let w = MOVE_SHAPE::decode(&bytes).expect("opcode 0xb2");
    assert_header(&w.header, OPCODE::MOVE_SHAPE);
    assert_eq!(w.events, EVENTS::default());
    assert_eq!(&w.body[..], &bytes[12..]);
    assert_eq!(
        leaf(MOVE_SHAPE::META.leaves, "body").field.role,
        dmaspec::runtime::meta::Role::Unknown
    );
    assert_eq!(w.encode(), bytes);
    // A 52-byte array field still has an all-zero Default.
    assert_eq!(MOVE_SHAPE::default().body, [0; 52]);
}

/// Every seed-000 vector dispatches on its opcode to its struct in every architecture.
#[test]
fn every_vector_dispatches_by_opcode() {
    for (file, name) in [
        ("seed000_static_save.hex", "PSEUDO_DMA_DIRECT2D"),
        ("seed000_transpose_6c.hex", "PSEUDO_DMA_DIRECT2D"),
        ("seed000_trigger.hex", "PSEUDO_DMA_TRIGGER"),
        ("seed000_swap_queue_set.hex", "PSEUDO_DMA_SWAP_QUEUE_SET"),
        ("seed000_rearm.hex", "PSEUDO_DMA_REARM"),
        ("seed000_pseudo_range_check.hex", "PSEUDO_RANGE_CHECK"),
        (
            "seed000_pseudo_embedding_update.hex",
            "PSEUDO_EMBEDDING_UPDATE",
        ),
        ("seed000_indirect_copy.hex", "INDIRECT_COPY"),
        ("seed000_move_shape.hex", "MOVE_SHAPE"),
    ] {
        let bytes = vector(file);
        for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
            let w = Word::decode(&bytes, arch).unwrap_or_else(|| panic!("{file} on {arch:?}"));
            assert_eq!(w.meta().name, name, "{file}");
            assert_eq!(w.encode(), bytes, "{file}");
        }
    }
}

/// 0xc4: seed 000's Form B reading of PSEUDO_DMAMEMCPY_FULL_IND, on the seed-004 vector —
/// the split semaphore wait value is one joined value, and +0x3C is isLoad ^ 1.
#[test]
fn full_ind_semaphore_wait_value_is_joined() {
    let bytes = vector("pseudo_dmamemcpy_full_ind.hex");
    let w = PSEUDO_DMAMEMCPY_FULL_IND::decode(&bytes).unwrap();
    assert_eq!((w.semaphore_wait_value, w.semaphore_wait_value_hi), (5, 1));
    assert_eq!(w.semaphore_wait_value_full(), 0x1_0005);
    assert_eq!(w.indirection_mode, dmaspec::dge::indirection_mode(true));
    assert_eq!(dmaspec::dge::is_load(w.indirection_mode), Some(true));
}
