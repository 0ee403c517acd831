//! Golden vectors for the seven seed-004 words (tests/vectors/*.hex).
//!
//! Every vector was written by hand from the source tables, not produced by our encoder:
//! each line of a .hex file is one field, with a comment citing the table row it comes
//! from. The tests decode each vector with the generated typed API, check every field
//! against the value the table row gives, then check that encoding gives back the exact
//! 64 bytes (reserved and unknown bytes included).

mod common;

use common::vector;
use dmaspec::words::*;

/// The HEADER every word but PSEUDO_DMA_EXT opens with: opcode, inst_word_len 0x10, and
/// debug_cmd / debug_hint 0 (supp-field-tables Table 4.1; seed-004 §8 HEADER).
fn assert_header(h: &HEADER, opcode: OPCODE) {
    assert_eq!(h.opcode, opcode);
    assert_eq!(h.inst_word_len, 0x10);
    assert_eq!(h.debug_cmd, 0);
    assert_eq!(h.debug_hint, 0);
}

fn bound(bc_reg: u8, disable_notif: u8, enabled: u8) -> BOUND_CHECK_REG {
    BOUND_CHECK_REG {
        bc_reg,
        bc_disable_oob_error_notif: disable_notif,
        bc_enabled: enabled,
    }
}

fn configs(priority_class: u8) -> DMA_CONFIGS {
    DMA_CONFIGS {
        priority_class,
        reserved_bitfield: 0,
    }
}

#[test]
fn dma_indirect1d_gather() {
    let bytes = vector("dma_indirect1d.hex");
    let w = DMA_INDIRECT1D::decode(&bytes).expect("opcode 0xbb");

    // seed-004 §3 row "0 4 header": opcode 0xbb DMA_INDIRECT.
    assert_header(&w.header, OPCODE::DMA_INDIRECT);
    // seed-004 §3 row "4 8 events" (supp-field-tables Table 4.2).
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    assert_eq!(w.events.wait_idx, 3);
    assert_eq!(w.events.update_mode, UPDATE_MODE::NONE);
    assert_eq!(w.events.update_idx, 0);
    assert_eq!(w.events.semaphore_value, 2);
    // seed-004 §3 rows "12 1 semaphore", "13 1 sem_increment", "14 1 idx_num_active_channels".
    assert_eq!(w.semaphore, 10);
    assert_eq!(w.sem_increment, 1);
    assert_eq!(w.idx_num_active_channels, 128);
    // seed-004 §3 row "15 1 flags DMA_INDIRECT_FLAGS"; §3.1 bit layout.
    assert_eq!(
        w.flags.indirect_mode,
        INDIRECT_DMA_ADDRESSING_MODE::SRC_INDIRECTION
    );
    assert_eq!(w.flags.idx_bound_is_err, 1);
    assert_eq!(w.flags.non_unique_dst_idx, 0);
    assert_eq!(w.flags.gather_dim, INDIRECT_DIM::X);
    assert_eq!(w.flags.scatter_dim, INDIRECT_DIM::X);
    // seed-004 §3 row "16 8 src_start_addr ADDR8": marker 0x00 selects the immediate arm.
    match w.src_start_addr.arm() {
        ADDR8_arm::addr_immediate(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::from_raw(0x00));
            // The arm's layout is dmaspec's inference (INFERRED, see ADDR8).
            assert_eq!(
                (a.address_lo, a.address_mid, a.address_hi),
                (0x1000_0000, 0, 0)
            );
        }
        other => panic!("src_start_addr: expected addr_immediate, got {other:?}"),
    }
    // seed-004 §3 rows "24 4 src_step_elem", "28 2 src_num_elem", "30 2 src_elem_size".
    assert_eq!(w.src_step_elem, 1);
    assert_eq!(w.src_num_elem, 4096);
    assert_eq!(w.src_elem_size, 2);
    // seed-004 §3 row "32 8 dst_start_addr ADDR8".
    match w.dst_start_addr.arm() {
        ADDR8_arm::addr_immediate(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::from_raw(0x00));
            assert_eq!(
                (a.address_lo, a.address_mid, a.address_hi),
                (0x0002_0000, 0, 0)
            );
        }
        other => panic!("dst_start_addr: expected addr_immediate, got {other:?}"),
    }
    // seed-004 §3 rows "40 4 dst_step_elem", "44 2 dst_num_elem", "46 2 dst_elem_size".
    assert_eq!(w.dst_step_elem, 1);
    assert_eq!(w.dst_num_elem, 128);
    assert_eq!(w.dst_elem_size, 2);
    // seed-004 §3 row "48 4 src_idx_start_addr ADDR4"; supp-addr4 bit layout.
    assert_eq!(
        w.src_idx_start_addr,
        ADDR4 {
            address: 0x400,
            indirect: 0,
            active: 0,
            register_mode: 0
        }
    );
    // seed-004 §3 row "52 4 dst_idx_start_addr ADDR4": unused in SRC mode.
    assert_eq!(w.dst_idx_start_addr, ADDR4::from_raw(0));
    // seed-004 §3 rows "56 1 in_dtype", "57 1 out_dtype": FP16 = 0x7 (§6.5).
    assert_eq!(w.in_dtype, DTYPE::FP16);
    assert_eq!(w.out_dtype, DTYPE::FP16);
    // seed-004 §3 rows "58 1 src_idx_bound_reg", "59 1 dst_idx_bound_reg" (§6.3 bits).
    assert_eq!(w.src_idx_bound_reg, bound(5, 0, 1));
    assert_eq!(w.dst_idx_bound_reg, bound(0, 0, 0));
    // seed-004 §3 rows "60 1 compute_op", "61 1 dma_configs", "62 2 reserved[2]".
    assert_eq!(w.compute_op, DGE_COMPUTE_OP::NONE);
    assert_eq!(w.dma_configs, configs(2));
    assert_eq!(w.reserved, [0, 0]);

    assert_eq!(w.encode(), bytes);
}

#[test]
fn dma_direct2d_xpose_bf16_tile() {
    let bytes = vector("dma_direct2d_xpose.hex");
    let w = DMA_DIRECT2D_XPOSE::decode(&bytes).expect("opcode 0xbd");

    // supp-field-tables §2.3 row "0 4 header": opcode 0xbd DMA_TRANSPOSE.
    assert_header(&w.header, OPCODE::DMA_TRANSPOSE);
    // supp-field-tables §2.3 row "4 8 events".
    assert_eq!(w.events.wait_mode, WAIT_MODE::NONE);
    assert_eq!(w.events.wait_idx, 0);
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    assert_eq!(w.events.update_idx, 7);
    assert_eq!(w.events.semaphore_value, 1);
    // supp-field-tables §2.3 rows "12 1 src_bound_reg", "13 1 dst_bound_reg".
    assert_eq!(w.src_bound_reg, bound(0, 0, 0));
    assert_eq!(w.dst_bound_reg, bound(12, 1, 1));
    // supp-field-tables §2.3 rows "14 1 in_dtype", "15 1 out_dtype": BFLOAT16 = 0x6.
    assert_eq!(w.in_dtype, DTYPE::BFLOAT16);
    assert_eq!(w.out_dtype, DTYPE::BFLOAT16);
    // supp-field-tables §2.3 row "16 8 src_start_addr ADDR8": marker 0x80 is ADDR_REG.
    match w.src_start_addr.arm() {
        ADDR8_arm::addr_reg(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::ADDR_REG);
            assert_eq!(a.body, [0x03, 0, 0, 0, 0, 0, 0]);
        }
        other => panic!("src_start_addr: expected addr_reg, got {other:?}"),
    }
    // supp-field-tables §2.3 rows "24 8 src_step_elem[2] int32 signed", "32 4 src_num_elem[2]".
    assert_eq!(w.src_step_elem, [1, -128]);
    assert_eq!(w.src_num_elem, [128, 64]);
    // supp-field-tables §2.3 row "36 4 tile_src_row_step"; seed-004 §4 "tile_src_row_step@36".
    assert_eq!(w.tile_src_row_step, 128);
    // supp-field-tables §2.3 row "40 8 dst_start_addr ADDR8".
    match w.dst_start_addr.arm() {
        ADDR8_arm::addr_immediate(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::from_raw(0));
            // The arm's layout is dmaspec's inference (INFERRED, see ADDR8).
            assert_eq!(
                (a.address_lo, a.address_mid, a.address_hi),
                (0x2000_0000, 0, 0)
            );
        }
        other => panic!("dst_start_addr: expected addr_immediate, got {other:?}"),
    }
    // supp-field-tables §2.3 rows "48 8 dst_step_elem[2]", "56 4 dst_num_elem[2]".
    assert_eq!(w.dst_step_elem, [32, 64]);
    assert_eq!(w.dst_num_elem, [64, 128]);
    // seed-004 §4 / §8: tile_src_rows@60, tile_src_cols@61, semaphore@62, dma_configs@63.
    assert_eq!(w.tile_src_rows, 16);
    assert_eq!(w.tile_src_cols, 128);
    assert_eq!(w.semaphore, 11);
    assert_eq!(w.dma_configs, configs(4));

    assert_eq!(w.encode(), bytes);
}

#[test]
fn dma_gather_xpose_moe() {
    let bytes = vector("dma_gather_xpose.hex");
    let w = DMA_GATHER_XPOSE::decode(&bytes).expect("opcode 0xf1");

    // seed-004 §4 row "0 4 header": opcode 0xf1 DMA_GATHER_TRANSPOSE.
    assert_header(&w.header, OPCODE::DMA_GATHER_TRANSPOSE);
    // seed-004 §4 row "4 8 events".
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    assert_eq!(w.events.wait_idx, 1);
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    assert_eq!(w.events.update_idx, 2);
    assert_eq!(w.events.semaphore_value, 16);
    // seed-004 §4 rows "12 1 semaphore", "13 1 dma_configs", "14 1 idx_num_active_channels",
    // "15 1 src_idx_bound_reg".
    assert_eq!(w.semaphore, 12);
    assert_eq!(w.dma_configs, configs(1));
    assert_eq!(w.idx_num_active_channels, 128);
    assert_eq!(w.src_idx_bound_reg, bound(9, 0, 1));
    // seed-004 §4 row "16 8 src_start_addr ADDR8": marker 0x20 is ADDR_TBL.
    match w.src_start_addr.arm() {
        ADDR8_arm::addr_tbl_offs(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::ADDR_TBL);
            // The arm's layout is dmaspec's inference (INFERRED, see ADDR8).
            assert_eq!((a.offset, a.dge_table_entry_id, a.unknown_6), (5, 0, [0]));
        }
        other => panic!("src_start_addr: expected addr_tbl_offs, got {other:?}"),
    }
    // seed-004 §4 rows "24 8 src_step_elem[2]", "32 4 src_num_elem[2]".
    assert_eq!(w.src_step_elem, [1, 128]);
    assert_eq!(w.src_num_elem, [128, 64]);
    // seed-004 §4 row "36 4 src_idx_start_addr ADDR4": register mode, register 7 in byte 0
    // (supp-addr4 "Register mode").
    assert_eq!(
        w.src_idx_start_addr,
        ADDR4 {
            address: 7,
            indirect: 0,
            active: 0,
            register_mode: 1
        }
    );
    // seed-004 §4 row "40 8 dst_start_addr ADDR8".
    match w.dst_start_addr.arm() {
        ADDR8_arm::addr_immediate(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::from_raw(0));
            assert_eq!((a.address_lo, a.address_mid, a.address_hi), (0x40, 0, 0));
        }
        other => panic!("dst_start_addr: expected addr_immediate, got {other:?}"),
    }
    // seed-004 §4 rows "48 3 reserved[3]", "51 1 dst_bound_reg", "52 4 dst_step_elem_1",
    // "56 4 dst_num_elem[2]", "60 2 elem_size".
    assert_eq!(w.reserved, [0, 0, 0]);
    assert_eq!(w.dst_bound_reg, bound(0, 0, 0));
    assert_eq!(w.dst_step_elem_1, 64);
    assert_eq!(w.dst_num_elem, [64, 128]);
    assert_eq!(w.elem_size, 256);
    // seed-004 §4 row "62 1 dtype DTYPE_PAIR": dtype_lo (src) / dtype_hi (dst) both BFLOAT16.
    assert_eq!(w.dtype.dtype_lo, DTYPE::BFLOAT16);
    assert_eq!(w.dtype.dtype_hi, DTYPE::BFLOAT16);
    // seed-004 §4 row "63 1 flags DMA_GATHER_TRANSPOSE_FLAGS": gather_dim Y, reserved 0.
    assert_eq!(w.flags.gather_dim, INDIRECT_DIM::Y);
    assert_eq!(w.flags.reserved, 0);

    assert_eq!(w.encode(), bytes);
}

#[test]
fn pseudo_dma_direct2d_indirect_request() {
    let bytes = vector("pseudo_dma_direct2d.hex");
    let w = PSEUDO_DMA_DIRECT2D::decode(&bytes).expect("opcode 0xd4");

    // seed-004 §2 row "0 4 header" (same layout, §5.1): opcode 0xd4 PSEUDO_DMA_DIRECT2D.
    assert_header(&w.header, OPCODE::PSEUDO_DMA_DIRECT2D);
    // seed-004 §2 row "4 8 events".
    assert_eq!(w.events.wait_mode, WAIT_MODE::NONE);
    assert_eq!(w.events.wait_idx, 0);
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    assert_eq!(w.events.update_idx, 4);
    assert_eq!(w.events.semaphore_value, 1);
    // seed-004 §5.1: dma_configs@12, semaphore@13, sem_increment@14.
    assert_eq!(w.dma_configs, configs(3));
    assert_eq!(w.semaphore, 10);
    assert_eq!(w.sem_increment, 1);
    // seed-004 §5.1 "@15 = dge_op (DGE_OPCODE)": 0x1 DMA_INDIRECT1D.
    assert_eq!(w.dge_op, DGE_OPCODE::DMA_INDIRECT1D);
    // seed-004 §5.1 "src_start_addr@16 PSEUDO_ADDR8": marker 0x10 VAR_ID selects addr_var.
    match w.src_start_addr.arm() {
        PSEUDO_ADDR8_arm::addr_var(a) => {
            assert_eq!(a.marker, ADDR8_MARKER::VAR_ID);
            // seed-000 §assign64bitAddr physical arm: immediate @+0, var-id low16 @+4, high @+6.
            assert_eq!((a.immediate, a.var_id_lo, a.var_id_hi), (2, 0, 0));
        }
        other => panic!("src_start_addr: expected addr_var, got {other:?}"),
    }
    // seed-004 §2 rows "24 8 src_step_elem[2]", "32 4 src_num_elem[2]", "36 2 src_elem_size".
    assert_eq!(w.src_step_elem, [1, 256]);
    assert_eq!(w.src_num_elem, [256, 16]);
    assert_eq!(w.src_elem_size, 4);
    // seed-004 §5.1 src_bound_reg@38 / dst_bound_reg@39.
    assert_eq!(w.src_bound_reg, bound(2, 0, 1));
    assert_eq!(w.dst_bound_reg, bound(0, 0, 0));
    // seed-004 §5.1 "dst_start_addr@40 PSEUDO_ADDR8": marker 0x6C has ADDR_TBL and no
    // VAR_ID / ADDR_REG, so it is the table arm.
    match w.dst_start_addr.arm() {
        PSEUDO_ADDR8_arm::addr_tbl_offs(a) => {
            assert_eq!(a.marker.raw(), 0x6C);
            // seed-000 §assign64bitAddr DGE arm: RegId @+0 (marker 0x28), table-entry id @+4.
            assert_eq!((a.offset, a.dge_table_entry_id, a.unknown_6), (3, 7, [0]));
        }
        other => panic!("dst_start_addr: expected addr_tbl_offs, got {other:?}"),
    }
    // seed-004 §2 rows "48 8 dst_step_elem[2]", "56 4 dst_num_elem[2]", "60 2 dst_elem_size".
    assert_eq!(w.dst_step_elem, [1, 0]);
    assert_eq!(w.dst_num_elem, [0, 0]);
    assert_eq!(w.dst_elem_size, 4);
    // seed-004 §5.1 in_dtype@62; §2 row "63 1 out_dtype": FP32 = 0xA.
    assert_eq!(w.in_dtype, DTYPE::FP32);
    assert_eq!(w.out_dtype, DTYPE::FP32);

    assert_eq!(w.encode(), bytes);
}

#[test]
fn pseudo_dma_ext_scatter_add() {
    let bytes = vector("pseudo_dma_ext.hex");
    let w = PSEUDO_DMA_EXT::decode(&bytes).expect("opcode 0xda");

    // seed-004 §5.2 row "0 1 opcode OPCODE (== 0xda)".
    assert_eq!(w.opcode, OPCODE::PSEUDO_EXTENSION);
    // seed-004 §5.2 row "1 1 flags DMA_INDIRECT_FLAGS" (§3.1 bits).
    assert_eq!(
        w.flags.indirect_mode,
        INDIRECT_DMA_ADDRESSING_MODE::DST_INDIRECTION
    );
    assert_eq!(w.flags.idx_bound_is_err, 1);
    assert_eq!(w.flags.non_unique_dst_idx, 1);
    assert_eq!(w.flags.gather_dim, INDIRECT_DIM::X);
    assert_eq!(w.flags.scatter_dim, INDIRECT_DIM::X);
    // seed-004 §5.2 rows "2 1 idx_num_active_channels", "3 1 compute_op".
    assert_eq!(w.idx_num_active_channels, 128);
    assert_eq!(w.compute_op, DGE_COMPUTE_OP::ADD);
    // seed-004 §5.2 rows "4 4 src_idx_start_addr ADDR4", "8 4 dst_idx_start_addr ADDR4".
    assert_eq!(w.src_idx_start_addr, ADDR4::from_raw(0));
    assert_eq!(
        w.dst_idx_start_addr,
        ADDR4 {
            address: 0x800,
            indirect: 0,
            active: 0,
            register_mode: 0
        }
    );
    // seed-004 §5.2 rows "12 4 src_bound_size_bytes", "16 4 dst_bound_size_bytes".
    assert_eq!(w.src_bound_size_bytes, 0);
    assert_eq!(w.dst_bound_size_bytes, 1024);
    // seed-004 §5.2 rows "20 4 tile_src_row_step", "24 1 tile_src_rows", "25 1 tile_src_cols".
    assert_eq!(w.tile_src_row_step, 0);
    assert_eq!(w.tile_src_rows, 0);
    assert_eq!(w.tile_src_cols, 0);
    // seed-004 §5.2 row "26 30 reserved1[30]".
    assert_eq!(w.reserved1, [0u8; 30]);
    // seed-004 §5.2 rows "56 4 src_bound_size_bytes_upper", "60 4 dst_bound_size_bytes_upper".
    assert_eq!(w.src_bound_size_bytes_upper, 1);
    assert_eq!(w.dst_bound_size_bytes_upper, 0);

    assert_eq!(w.encode(), bytes);
}

#[test]
fn pseudo_dmamemcpy_full_ind_gather() {
    let bytes = vector("pseudo_dmamemcpy_full_ind.hex");
    let w = PSEUDO_DMAMEMCPY_FULL_IND::decode(&bytes).expect("opcode 0xc4");

    // seed-000 Form B row "+0x00 opcode = 0xC4" (the family's HEADER skeleton).
    assert_header(&w.header, OPCODE::PSEUDO_DMAMEMCPY_FULL_IND);
    // seed-000 Form B row "+0x04..+0x0B sync header".
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    assert_eq!(w.events.wait_idx, 2);
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    assert_eq!(w.events.update_idx, 2);
    assert_eq!(w.events.semaphore_value, 3);
    // seed-004 §5.5 indirect_start_offset@12, indirect_step_elems[2]@16,
    // indirect_num_elems[2]@24 (widths: seed-000 rows +0x0C .. +0x1C, 4 bytes each).
    assert_eq!(w.indirect_start_offset, 0x200);
    assert_eq!(w.indirect_step_elems, [4, 512]);
    assert_eq!(w.indirect_num_elems, [128, 1]);
    // seed-004 §5.5 direct_start_offset@32, direct_step_elems[2]@36, direct_num_elems[2]@44,
    // direct_elem_size@52 (seed-000 rows +0x20 .. +0x34, 4 bytes each).
    assert_eq!(w.direct_start_offset, 0x1000);
    assert_eq!(w.direct_step_elems, [2, 1024]);
    assert_eq!(w.direct_num_elems, [128, 512]);
    assert_eq!(w.direct_elem_size, 1024);
    // seed-004 §5.5 direct_var_id@56, semaphore_wait_value@58, indirection_mode@60
    // (seed-000 rows +0x38 2, +0x3A 2, +0x3C 1).
    assert_eq!(w.direct_var_id, 3);
    assert_eq!(w.semaphore_wait_value, 5);
    assert_eq!(w.indirection_mode, 0);
    // +0x3D: no source names it; kept raw.
    assert_eq!(w.unknown_61, [0]);
    // seed-000 Form B row "+0x3E 2 instr.semaphore_wait_value_hi".
    assert_eq!(w.semaphore_wait_value_hi, 1);

    assert_eq!(w.encode(), bytes);
}

/// The 0xd4 pseudo and the 0xda extension that must follow it, as one 128-byte stream:
/// each decodes by its opcode, and the extension names the word it follows.
#[test]
fn pseudo_pair_decodes_by_opcode() {
    let d4 = vector("pseudo_dma_direct2d.hex");
    let da = vector("pseudo_dma_ext.hex");
    // seed-004 §5.3: NRT reads dge_op at offset 15 and the 0xda byte at offset 64.
    let mut stream = [0u8; 128];
    stream[..64].copy_from_slice(&d4);
    stream[64..].copy_from_slice(&da);
    assert_eq!(stream[15], 0x01);
    assert_eq!(stream[64], 0xda);
    for arch in Arch::ALL.iter().copied() {
        let first = Word::decode(stream[..64].try_into().unwrap(), arch).expect("0xd4 word");
        let second = Word::decode(stream[64..].try_into().unwrap(), arch).expect("0xda word");
        assert!(matches!(first, Word::PSEUDO_DMA_DIRECT2D(_)));
        assert!(matches!(second, Word::PSEUDO_DMA_EXT(_)));
        assert_eq!(second.meta().follows, ["PSEUDO_DMA_DIRECT2D"]);
        assert_eq!(first.encode(), d4);
        assert_eq!(second.encode(), da);
    }
}

/// Marker 0x6C (seed 000's example value) read as the ADDR8_MARKER bitfield of seed-004 §5.1:
/// exactly OFFSET_WIDE | OFFSET_REG | ADDR_TBL | SHAPE_REG, nothing else.
#[test]
fn marker_0x6c_is_exactly_wide_reg_tbl_shape() {
    let m = ADDR8_MARKER::from_raw(0x6C);
    let expected = ADDR8_MARKER::OFFSET_WIDE.raw()
        | ADDR8_MARKER::OFFSET_REG.raw()
        | ADDR8_MARKER::ADDR_TBL.raw()
        | ADDR8_MARKER::SHAPE_REG.raw();
    assert_eq!(m.raw(), expected);
    assert!(m.contains(ADDR8_MARKER::OFFSET_WIDE));
    assert!(m.contains(ADDR8_MARKER::OFFSET_REG));
    assert!(m.contains(ADDR8_MARKER::ADDR_TBL));
    assert!(m.contains(ADDR8_MARKER::SHAPE_REG));
    assert!(!m.contains(ADDR8_MARKER::VAR_ID));
    assert!(!m.contains(ADDR8_MARKER::ADDR_REG));
    let set: Vec<&str> = ADDR8_MARKER::BITS
        .iter()
        .filter(|b| m.raw() & (1 << b.bit) != 0)
        .map(|b| b.name)
        .collect();
    assert_eq!(set, ["OFFSET_WIDE", "OFFSET_REG", "ADDR_TBL", "SHAPE_REG"]);

    // The same byte in the 0xd4 vector's dst_start_addr (+40, marker at +47).
    let bytes = vector("pseudo_dma_direct2d.hex");
    assert_eq!(bytes[47], 0x6C);
    let w = PSEUDO_DMA_DIRECT2D::decode(&bytes).unwrap();
    let PSEUDO_ADDR8_arm::addr_tbl_offs(a) = w.dst_start_addr.arm() else {
        panic!("dst_start_addr: expected addr_tbl_offs");
    };
    assert_eq!(a.marker, m);
}

/// seed-004 §10: sunda's DGE_OPCODE has only DMA_DIRECT2D and DMA_INDIRECT1D.
#[test]
fn dge_opcode_transpose_values_absent_on_sunda() {
    assert_eq!(
        DGE_OPCODE::from_raw(0).name_in(Arch::sunda),
        Some("DMA_DIRECT2D")
    );
    assert_eq!(
        DGE_OPCODE::from_raw(1).name_in(Arch::sunda),
        Some("DMA_INDIRECT1D")
    );
    assert_eq!(DGE_OPCODE::from_raw(2).name_in(Arch::sunda), None);
    assert_eq!(DGE_OPCODE::from_raw(3).name_in(Arch::sunda), None);
    for arch in [Arch::cayman, Arch::mariana, Arch::maverick] {
        assert_eq!(DGE_OPCODE::from_raw(2).name_in(arch), Some("DMA_TRANSPOSE"));
        assert_eq!(
            DGE_OPCODE::from_raw(3).name_in(arch),
            Some("DMA_GATHER_TRANSPOSE")
        );
    }
    assert_eq!(DGE_OPCODE::from_raw(2), DGE_OPCODE::DMA_TRANSPOSE);
    assert_eq!(DGE_OPCODE::from_raw(2).raw(), 2);
}

/// seed-004 §10: sunda ships neither transpose word, so their opcodes decode to nothing there.
#[test]
fn transpose_words_absent_on_sunda() {
    let xpose = vector("dma_direct2d_xpose.hex");
    let gather = vector("dma_gather_xpose.hex");
    assert!(Word::decode(&xpose, Arch::sunda).is_none());
    assert!(Word::decode(&gather, Arch::sunda).is_none());
    for arch in [Arch::cayman, Arch::mariana, Arch::maverick] {
        assert!(matches!(
            Word::decode(&xpose, arch),
            Some(Word::DMA_DIRECT2D_XPOSE(_))
        ));
        assert!(matches!(
            Word::decode(&gather, arch),
            Some(Word::DMA_GATHER_XPOSE(_))
        ));
    }
    // The other five words exist on every architecture.
    for name in [
        "dma_indirect1d.hex",
        "pseudo_dma_direct2d.hex",
        "pseudo_dma_ext.hex",
        "pseudo_dmamemcpy_full_ind.hex",
    ] {
        for arch in Arch::ALL.iter().copied() {
            assert!(
                Word::decode(&vector(name), arch).is_some(),
                "{name} on {arch:?}"
            );
        }
    }
}

/// A word refuses bytes whose opcode is another word's.
#[test]
fn decode_checks_the_opcode() {
    let bytes = vector("dma_indirect1d.hex");
    assert!(DMA_GATHER_XPOSE::decode(&bytes).is_err());
    assert!(PSEUDO_DMA_EXT::decode(&bytes).is_err());
}
