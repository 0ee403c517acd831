//! Golden vector for GATHER (S4D4_GT, opcode 0x68) and the GSControl word of the SuperGather
//! datapath it runs on (supp-gather-scatter §7.2, §3.1, §8.1 EX-A).
//!
//! tests/vectors/gather_ex_a.hex was written by hand from the §7.2 member table with EX-A's values,
//! not produced by our encoder. The tests decode it, check every field against the row, check
//! that encoding gives back the exact 64 bytes, and check the §7.2 predicates on it and on
//! words one field away from it.

mod common;

use common::vector;
use dmaspec::Arch;
use dmaspec::words::*;

const ARCHES: [Arch; 4] = [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick];

/// The header rules the word breaks on `arch`, by id.
fn broken(w: &GATHER, arch: Arch) -> Vec<&'static str> {
    match w.validate(arch) {
        Ok(()) => Vec::new(),
        Err(v) => v.leaves().map(|r| r.id).collect(),
    }
}

#[test]
fn gather_ex_a_decodes_encodes_and_is_valid() {
    let bytes = vector("gather_ex_a.hex");
    let w = GATHER::decode(&bytes).expect("opcode 0x68");

    // §7.2 "S4D4_GT (GATHER 0x68)"; supp-dve-datamove 0x68 rows +0x00 / +0x01.
    assert_eq!(w.header.opcode, OPCODE::GATHER);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!((w.header.debug_cmd, w.header.debug_hint), (0, 0));
    assert_eq!(w.events.wait_mode, WAIT_MODE::NONE);
    assert_eq!(w.events.update_mode, UPDATE_MODE::NONE);
    // §7.2 rows 12 / 44: the two TENSOR4D patterns (wiki-tensor4d §The byte map). EX-A gives
    // no addresses (0); its 4 indices and 4 result lanes are num_elem[0] = 4, the spare dims
    // unit-filled {1, 1}.
    for p in [w.src_mem_pattern, w.dst_mem_pattern] {
        assert_eq!(p.start_addr, ADDR4::from_raw(0));
        assert_eq!(p.step_elem, [1, 1, 1, 1]);
        assert_eq!(p.num_elem, [4, 1, 1, 1]);
    }
    // §7.2 row 32 with EX-A "Index tensor UINT32"; row 33 with EX-A's FP16 window.
    assert_eq!(w.in_dtype, DTYPE::UINT32);
    assert_eq!(w.out_dtype, DTYPE::FP16);
    // §7.2 row 34, EX-A "num_active_channels = 4".
    assert_eq!(w.num_active_channels, 4);
    // §7.2 rows 35 / 38: reserved zero.
    assert_eq!(w.reserved0, 0);
    assert_eq!(w.reserved1, [0, 0]);
    // §7.2 row 36, EX-A "index_miss_behavior = ImmediateWrite"; row 40, "immediate = 0x0000".
    assert_eq!(w.index_miss_behavior, INDEX_MISS_BEHAVIOR::IMMEDIATE_WRITE);
    assert_eq!(w.immediate.imm_arith_fp32, 0);
    // §7.2 row 37.
    assert_eq!(w.free_pool_buffer, 0);

    assert_eq!(w.encode(), bytes);
    for arch in ARCHES {
        assert_eq!(broken(&w, arch), Vec::<&str>::new(), "{arch:?}");
    }
}

#[test]
fn gather_index_dtype_must_be_an_unsigned_index_width() {
    // §7.2 row 32: in_dtype IS the index width, UINT8 / UINT16 / UINT32 (has_gather_index_dtype).
    let mut w = GATHER::decode(&vector("gather_ex_a.hex")).unwrap();
    for ok in [DTYPE::UINT8, DTYPE::UINT16, DTYPE::UINT32] {
        w.in_dtype = ok;
        assert!(w.validate(Arch::cayman).is_ok(), "{ok:?}");
    }
    for bad in [DTYPE::FP16, DTYPE::INT32, DTYPE::UINT64] {
        w.in_dtype = bad;
        assert_eq!(
            broken(&w, Arch::cayman),
            ["has_gather_index_dtype"],
            "{bad:?}"
        );
    }
}

#[test]
fn gather_immediate_only_with_immediate_write() {
    // §7.2 row 40: immediate must be 0 unless index_miss_behavior == ImmediateWrite
    // (gather_valid_options); §7.2 note: mid/last-of-group gathers use SkipWrite.
    let mut w = GATHER::decode(&vector("gather_ex_a.hex")).unwrap();
    w.immediate.imm_arith_fp32 = 0x3c00;
    assert!(w.validate(Arch::mariana).is_ok());
    w.index_miss_behavior = INDEX_MISS_BEHAVIOR::SKIP_WRITE;
    assert_eq!(broken(&w, Arch::mariana), ["gather_valid_options"]);
    w.immediate.imm_arith_fp32 = 0;
    assert!(w.validate(Arch::mariana).is_ok());
}

#[test]
fn gather_channels_flag_and_reserved_bytes() {
    let base = GATHER::decode(&vector("gather_ex_a.hex")).unwrap();
    // §7.2 row 34: at most POOLING_NUM_CHANNELS (128).
    let mut w = base;
    w.num_active_channels = 128;
    assert!(w.validate(Arch::sunda).is_ok());
    w.num_active_channels = 129;
    assert_eq!(broken(&w, Arch::sunda), ["num_active_channels_at_most_128"]);
    // §7.2 row 37: free_pool_buffer is 0 or 1.
    let mut w = base;
    w.free_pool_buffer = 1;
    assert!(w.validate(Arch::sunda).is_ok());
    w.free_pool_buffer = 2;
    assert_eq!(broken(&w, Arch::sunda), ["free_pool_buffer_is_bool"]);
    // §7.2 rows 35 / 38: reserved0[1] and reserved1[2] == 0.
    let mut bytes = vector("gather_ex_a.hex");
    bytes[39] = 1;
    let w = GATHER::decode(&bytes).unwrap();
    assert_eq!(w.encode(), bytes);
    assert_eq!(broken(&w, Arch::sunda), ["reserved_is_zero"]);
}

#[test]
fn gs_control_follows_the_concatenation_and_ex_a_is_a_conflict() {
    // §3.1: {8'd0, elem_sz_fld[1:0], offst_sz_fld[1:0], operation_fld[3:0]}.
    let post = GSControl::from_raw(0x0041);
    assert_eq!(post.operation_fld, GS_OPERATION::gathera);
    assert_eq!(
        (post.offst_sz_fld, post.elem_sz_fld, post.reserved),
        (0, 1, 0)
    );
    let drain = GSControl::from_raw(0x0042);
    assert_eq!(drain.operation_fld, GS_OPERATION::gatherd);
    assert_eq!(
        GSControl::from_raw(0x0006).operation_fld,
        GS_OPERATION::scatterinc
    );
    // §8.1 EX-A writes {elem_sz=1, offst=0, operation=1} as 0x0011: under §3.1's layout that
    // is offst_sz_fld 1, elem_sz_fld 0 (the conflict gs_control_ex_a keeps both readings).
    let ex_a = GSControl::from_raw(0x0011);
    assert_eq!(ex_a.operation_fld, GS_OPERATION::gathera);
    assert_eq!((ex_a.offst_sz_fld, ex_a.elem_sz_fld), (1, 0));
    assert_eq!(ex_a.raw(), 0x0011);
    let c = CONFLICTS
        .iter()
        .find(|c| c.name == "gs_control_ex_a")
        .expect("the conflict is recorded");
    let readings: Vec<&str> = c.readings.iter().map(|r| r.name).collect();
    assert_eq!(readings, ["concatenation", "ex_a_value"]);
}

#[test]
fn gather_src_and_dst_have_the_same_element_count() {
    // §7.2 s4d4_gt_same_src_dst_count (same_element_count_t4d): read as the product of the four
    // num_elem (INFERRED). EX-A: 4 indices in, 4 lanes out.
    let mut w = GATHER::decode(&vector("gather_ex_a.hex")).unwrap();
    // Same count, another shape: 2 x 2 x 1 x 1 against 4 x 1 x 1 x 1.
    w.dst_mem_pattern.num_elem = [2, 2, 1, 1];
    assert!(w.validate(Arch::mariana).is_ok());
    w.dst_mem_pattern.num_elem = [4, 2, 1, 1];
    assert_eq!(broken(&w, Arch::mariana), ["same_element_count_t4d_low"]);
    assert!(
        w.validate(Arch::mariana)
            .unwrap_err()
            .contains("s4d4_gt_same_src_dst_count")
    );
    // The largest counts compare without overflow: 65535^4 on both sides, then one less.
    w.src_mem_pattern.num_elem = [u16::MAX; 4];
    w.dst_mem_pattern.num_elem = [u16::MAX; 4];
    assert!(w.validate(Arch::mariana).is_ok());
    w.dst_mem_pattern.num_elem[3] = u16::MAX - 1;
    assert!(!broken(&w, Arch::mariana).is_empty());
}

#[test]
fn gather_patterns_must_have_nonzero_counts() {
    // §7.2 tensor4d_valid on both patterns: every num_elem[d] nonzero (wiki-tensor4d §The
    // decoder family), unless the shape comes from a register (ADDR4 bit 30, INFERRED).
    let mut w = GATHER::decode(&vector("gather_ex_a.hex")).unwrap();
    w.src_mem_pattern.num_elem = [0, 1, 1, 1];
    w.dst_mem_pattern.num_elem = [0, 1, 1, 1];
    assert_eq!(
        broken(&w, Arch::sunda),
        ["tensor4d_valid_src", "tensor4d_valid_dst"]
    );
    w.src_mem_pattern.start_addr.active = 1;
    w.dst_mem_pattern.start_addr.active = 1;
    assert!(w.validate(Arch::sunda).is_ok());
}
