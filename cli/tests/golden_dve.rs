//! Golden vectors for the DVE data-move words of the DVE datamove page (supp-dve-datamove):
//! tests/vectors/dve_*.hex, each written by hand from that page's tables (one comment per
//! row), not produced by our encoder. Each test decodes its vector, checks every field
//! against the row it comes from, re-encodes it byte-exact and validates it; the rules the
//! page states are broken one at a time.

mod common;

use common::vector;
use dmaspec::words::*;

/// The compiler findings (libwalrus validators) of `bytes` on `arch`, by rule id.
fn findings<const N: usize>(
    check: fn(&[u8; N], Arch) -> dmaspec::runtime::rules::Violations,
    bytes: &[u8; N],
    arch: Arch,
) -> Vec<&'static str> {
    let v = check(bytes, arch);
    assert_eq!(v.mask, 0, "no header rule is broken");
    v.compiler_findings().map(|r| r.id).collect()
}

// ---- 0x7F DROPOUT (S3D3_DROPOUT, the Dropout page's header table) ----------------------

/// One rule broken by one mutation: (the mutation, the rule id it breaks alone).
type Break<W> = (fn(&mut W), &'static str);

fn dropout() -> DROPOUT {
    DROPOUT::decode(&vector("dve_dropout.hex")).expect("opcode 0x7f")
}

/// The violated header rules (leaves) of `bytes` on `arch`, by rule id.
fn violations<const N: usize>(
    check: fn(&[u8; N], Arch) -> dmaspec::runtime::rules::Violations,
    bytes: &[u8; N],
    arch: Arch,
) -> Vec<&'static str> {
    check(bytes, arch).leaves().map(|r| r.id).collect()
}

#[test]
fn dropout_decodes_every_row() {
    let bytes = vector("dve_dropout.hex");
    let w = dropout();
    // wiki-dropout §3 rows "0 4 header" (opcode 0x7f), "4 8 events".
    assert_eq!(w.header.opcode, OPCODE::DROPOUT);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_EQ_IMM);
    assert_eq!((w.events.wait_idx, w.events.update_idx), (3, 4));
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    // Row "12 4 reserved0[4]".
    assert_eq!(w.reserved0, [0; 4]);
    // Row "16 16 src_mem_pattern TENSOR3D".
    let src = &w.src_mem_pattern;
    assert_eq!(
        (src.start_addr.address, src.start_addr.register_mode),
        (0x200, 0)
    );
    assert_eq!(src.step_elem, [1, 32, 128]);
    assert_eq!(src.num_elem, [32, 4, 1]);
    // Rows "32 in_dtype", "33 out_dtype", "34 num_active_channels".
    assert_eq!(
        (w.in_dtype, w.out_dtype),
        (DTYPE::BFLOAT16, DTYPE::BFLOAT16)
    );
    assert_eq!(w.num_active_channels, 32);
    // Rows "35 threshold_src IMM_SRC", "36 threshold_dtype", "37 6 reserved1[6]".
    assert_eq!(w.threshold_src, IMM_SRC::INSTRUCTION_IMMEDIATE);
    assert_eq!(w.threshold_dtype, DTYPE::FP32);
    assert_eq!(w.reserved1, [0; 6]);
    // Rows "43 threshold_type" (DROP_RATE), "44 4 threshold IMM_VAL_INST_FIELD" (inline fp32).
    assert_eq!(w.threshold_type, DROPOUT_THRESHOLD_TYPE::DROP_RATE);
    assert_eq!(f32::from_bits(w.threshold.imm_arith_fp32), 0.25);
    // Row "48 16 dst_mem_pattern TENSOR3D".
    let dst = &w.dst_mem_pattern;
    assert_eq!(dst.start_addr.address, 0x8000);
    assert_eq!(dst.num_elem, [32, 4, 1]);
    assert_eq!(w.encode(), bytes);
    // §9: on all four generations.
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            findings(DROPOUT::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
        assert!(Word::decode(&bytes, arch).is_some(), "{arch:?}");
    }
    // The DVE datamove page's reading of the same bytes stays recorded.
    let c = CONFLICTS
        .iter()
        .find(|x| x.name == "dropout_threshold_inline")
        .expect("recorded");
    assert_eq!(c.readings.len(), 2);
}

#[test]
fn dropout_header_rules_broken_one_at_a_time() {
    let cases: [Break<DROPOUT>; 5] = [
        // §3 GOTCHA: out_dtype == in_dtype (s3d3_dropout_same_src_dst_type).
        (
            |w| w.out_dtype = DTYPE::FP16,
            "s3d3_dropout_same_src_dst_type",
        ),
        // §6.1: an immediate threshold must be FP32.
        (
            |w| w.threshold_dtype = DTYPE::FP16,
            "s3d3_dropout_threshold_dtype_check",
        ),
        // §6.1: a pointer threshold must be FP32 when in_dtype is an integer.
        (
            |w| {
                w.threshold_src = IMM_SRC::POINTER_IMMEDIATE;
                w.in_dtype = DTYPE::INT8;
                w.out_dtype = DTYPE::INT8;
                w.threshold_dtype = DTYPE::FP16;
            },
            "threshold_dtype_fp32",
        ),
        // §3 rows "12 4 reserved0[4] must be 0", "37 6 reserved1[6] must be 0".
        (|w| w.reserved0[2] = 1, "reserved0_zero"),
        (|w| w.reserved1[5] = 1, "reserved1_zero"),
    ];
    for (brk, id) in cases {
        let mut w = dropout();
        brk(&mut w);
        assert_eq!(
            violations(DROPOUT::check_rules, &w.encode(), Arch::cayman),
            [id]
        );
        assert!(w.validate(Arch::cayman).is_err(), "{id}");
    }
    // A pointer threshold may be FP16 when in_dtype is FP (BF16 here).
    let mut w = dropout();
    w.threshold_src = IMM_SRC::POINTER_IMMEDIATE;
    w.threshold_dtype = DTYPE::FP16;
    assert!(w.validate(Arch::cayman).is_ok());
    // threshold_dtype 0 reads as FP32 (back-compat).
    let mut w = dropout();
    w.threshold_dtype = DTYPE::INVALID;
    assert!(w.validate(Arch::cayman).is_ok());
}

#[test]
fn dropout_keeps_the_compiler_predicate_names() {
    // supp-dve-datamove §Dropout: the libwalrus predicates stay declared as compiler rules
    // (the header's s3d3_ checks enforce the same conditions).
    for id in [
        "d3_dropout_same_src_dst_type",
        "d3_dropout_src_dst_count_check",
        "threshold_imm_ptr",
        "d3_dropout_threshold_dtype_check",
        "d3_dropout_reserved_zero",
    ] {
        assert!(DROPOUT::RULES.iter().any(|r| r.id == id), "{id}");
    }
}

// ---- 0x6A STREAM_SHUFFLE + 0x69 LOAD_MASK_SELECT (StreamShuffle) ------------------------

fn shuffle_transpose() -> STREAM_SHUFFLE {
    STREAM_SHUFFLE::decode(&vector("dve_stream_shuffle_transpose.hex")).expect("0x6a")
}

fn shuffle() -> LOAD_MASK_SELECT {
    LOAD_MASK_SELECT::decode(&vector("dve_stream_shuffle.hex")).expect("0x69")
}

/// The S4D4_TR / CTRL_IM words read on sunda, cayman and mariana (and maverick for S4D4_TR).
const V2_TO_V4: [Arch; 3] = [Arch::sunda, Arch::cayman, Arch::mariana];

#[test]
fn stream_shuffle_transpose_decodes_every_row() {
    let bytes = vector("dve_stream_shuffle_transpose.hex");
    let w = shuffle_transpose();
    // Rows "+0x00 opcode = 0x6A", "+0x01 inst_word_len = 0x10".
    assert_eq!(w.header.opcode, OPCODE::STREAM_SHUFFLE);
    assert_eq!(w.header.inst_word_len, 0x10);
    // Row "+0x0C src AP (TENSOR4D)": 20 bytes, num_elem[3] at +0x1E.
    let src = &w.src_mem_pattern;
    assert_eq!(src.start_addr.address, 0x400);
    assert_eq!(src.step_elem, [1, 0, 0, 0]);
    assert_eq!(src.num_elem, [16, 1, 1, 1]);
    // Rows "+0x20 in_dtype", "+0x21 out_dtype", "+0x22 num_active_channels" (one byte at 34,
    // wiki-stream-transpose §4 / wiki-gap-cluster §3; conflict s4d4_tr_num_active_channels_width).
    assert_eq!(
        (w.in_dtype, w.out_dtype),
        (DTYPE::BFLOAT16, DTYPE::BFLOAT16)
    );
    assert_eq!(w.num_active_channels, 32);
    // wiki-gap-cluster §3 rows 35 negated, 36 op (Bypass), 37 op_dim, 38 mask_enable, 39 reserved1.
    assert_eq!(
        (w.negated, w.op, w.op_dim),
        (0, ALU_OP::BYPASS, TENSOR_SUBDIM::UNUSED)
    );
    assert_eq!((w.mask_enable, w.reserved1), (0, [0; 5]));
    // Row "+0x2C dst AP (TENSOR4D)".
    assert_eq!(w.dst_mem_pattern.start_addr.address, 0x800);
    assert_eq!(w.dst_mem_pattern.num_elem, [16, 1, 1, 1]);
    assert_eq!(w.encode(), bytes);
    for arch in V2_TO_V4 {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        let got = findings(STREAM_SHUFFLE::check_rules, &bytes, arch);
        assert_eq!(got, Vec::<&str>::new());
    }
}

#[test]
fn stream_shuffle_transpose_guards_are_compiler_findings() {
    // §`0x6A` Guards: both element counts nonzero.
    let mut w = shuffle_transpose();
    w.src_mem_pattern.num_elem[2] = 0;
    let got = findings(STREAM_SHUFFLE::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["src_element_count_nonzero"]);
    let mut w = shuffle_transpose();
    w.dst_mem_pattern.num_elem[0] = 0;
    let got = findings(STREAM_SHUFFLE::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["dst_element_count_nonzero"]);
    assert!(w.validate(Arch::cayman).is_ok());
}

#[test]
fn stream_shuffle_decodes_every_row() {
    // wiki-gap-cluster §7, the shipped header's CTRL_IM table (LOAD_MASK_SELECT).
    let bytes = vector("dve_stream_shuffle.hex");
    let w = shuffle();
    assert_eq!(w.header.opcode, OPCODE::LOAD_MASK_SELECT);
    assert_eq!(w.header.inst_word_len, 0x10);
    // Rows "12 param_ram_offset (u16) 2", "14 imm_ptr_select (u8) 1", "15 reserved0[17] 17".
    assert_eq!(w.param_ram_offset, 0);
    assert_eq!(w.imm_ptr_select, 0);
    assert_eq!(w.reserved0, [0; 17]);
    // Row "32 immediate (MOVE_IMMEDIATE) 32": channels 0..15 select 15..0, 16..23 select 63,
    // 24..31 hold the 255 sentinel.
    let mut lanes = [0u8; 32];
    for (i, lane) in lanes.iter_mut().enumerate() {
        *lane = match i {
            0..16 => 15 - i as u8,
            16..24 => 63,
            _ => 255,
        };
    }
    assert_eq!(w.immediate, lanes);
    assert_eq!(w.encode(), bytes);
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            violations(LOAD_MASK_SELECT::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
    }
    // The layout: the CTRL_IM members at 12 / 14 / 15 / 32; no source pattern, no dtype and
    // no destination pattern is decoded.
    let at = |name: &str| {
        LOAD_MASK_SELECT::META
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (f.offset, f.size))
    };
    assert_eq!(at("param_ram_offset"), Some((12, 2)));
    assert_eq!(at("imm_ptr_select"), Some((14, 1)));
    assert_eq!(at("reserved0"), Some((15, 17)));
    assert_eq!(at("immediate"), Some((0x20, 32)));
    for gone in ["src_mem_pattern", "dst_mem_pattern"] {
        assert_eq!(at(gone), None, "{gone}");
    }
    // The DVE page's pairing stays (conflict load_mask_select_pairing).
    assert_eq!(
        LOAD_MASK_SELECT::META.follows,
        ["STREAM_SHUFFLE", "STREAM_TRANSPOSE"]
    );
    for c in [
        "stream_shuffle_lane_map_overlap",
        "stream_shuffle_pair_order",
        "load_mask_select_src_pattern",
        "load_mask_select_pairing",
    ] {
        let c = CONFLICTS.iter().find(|x| x.name == c).expect(c);
        assert_eq!(c.readings.len(), 2);
    }
}

#[test]
fn stream_shuffle_breaks_each_header_rule_alone() {
    // wiki-gap-cluster §7: is_valid_load_mask_select = has_zero_pram_offset &&
    // has_valid_masksel_data && ctrl_im_reserved_zero && ctrl_imm_ptr_select_zero.
    let cases: [Break<LOAD_MASK_SELECT>; 6] = [
        // Row "12 param_ram_offset ... has_zero_pram_offset => 0".
        (|w| w.param_ram_offset = 0x400, "has_zero_pram_offset"),
        // Row "14 imm_ptr_select ... ctrl_imm_ptr_select_zero => 0".
        (|w| w.imm_ptr_select = 1, "ctrl_imm_ptr_select_zero"),
        // Row "15 reserved0[17] 17 0", first and last byte.
        (|w| w.reserved0[0] = 1, "ctrl_im_reserved_zero"),
        (|w| w.reserved0[16] = 0x10, "ctrl_im_reserved_zero"),
        // valid_masksel_byte(b) = b < 64 || b == 255: 64 and 254 are not.
        (|w| w.immediate[3] = 64, "has_valid_masksel_data"),
        (|w| w.immediate[31] = 254, "has_valid_masksel_data"),
    ];
    for (brk, id) in cases {
        let mut w = shuffle();
        brk(&mut w);
        assert_eq!(
            violations(LOAD_MASK_SELECT::check_rules, &w.encode(), Arch::cayman),
            [id]
        );
        assert!(w.validate(Arch::cayman).is_err(), "{id}");
    }
    // The DVE page's encoder reading (conflict load_mask_select_src_pattern): a src AP at
    // +0x0C (start_addr 0x400, num_elem [16, 1, 1, 1]) breaks the header's zero checks.
    let mut b = vector("dve_stream_shuffle.hex");
    b[0x0C..0x10].copy_from_slice(&[0x00, 0x04, 0x00, 0x00]);
    b[0x18..0x20].copy_from_slice(&[0x10, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00]);
    assert_eq!(
        violations(LOAD_MASK_SELECT::check_rules, &b, Arch::cayman),
        ["has_zero_pram_offset", "ctrl_im_reserved_zero"]
    );
}

// ---- 0x6B STREAM_TRANSPOSE (S4D4_TR, the StreamTranspose page's header struct) ----------

fn transpose() -> STREAM_TRANSPOSE {
    STREAM_TRANSPOSE::decode(&vector("dve_stream_transpose.hex")).expect("0x6b")
}

#[test]
fn stream_transpose_decodes_every_row() {
    let bytes = vector("dve_stream_transpose.hex");
    let w = transpose();
    // wiki-stream-transpose §4 members header (opcode 0x6b), events.
    assert_eq!(w.header.opcode, OPCODE::STREAM_TRANSPOSE);
    assert_eq!(w.header.inst_word_len, 0x10);
    // Member "src_mem_pattern; // 20 (12 - 31)".
    let src = &w.src_mem_pattern;
    assert_eq!(src.start_addr.address, 0x1000);
    assert_eq!(src.start_addr.indirect, 0);
    assert_eq!(src.step_elem, [1, 32, 128, 0]);
    assert_eq!(src.num_elem, [32, 4, 2, 1]);
    // Members in_dtype (32), out_dtype (33), num_active_channels (34, one byte).
    assert_eq!((w.in_dtype, w.out_dtype), (DTYPE::FP16, DTYPE::FP16));
    assert_eq!(w.num_active_channels, 64);
    // Members negated (35), op (36, Bypass), op_dim (37), mask_enable (38), reserved1 (39..43).
    assert_eq!(w.negated, 0);
    assert_eq!(w.op, ALU_OP::BYPASS);
    assert_eq!(w.op_dim, TENSOR_SUBDIM::UNUSED);
    assert_eq!(w.mask_enable, 1);
    assert_eq!(w.reserved1, [0; 5]);
    // Member "dst_mem_pattern; // 20 (44 - 63)".
    assert_eq!(w.dst_mem_pattern.start_addr.address, 0x2000);
    assert_eq!(w.dst_mem_pattern.num_elem, [32, 8, 1, 1]);
    assert_eq!(w.encode(), bytes);
    // §7: the ISA on every generation, maverick included.
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            findings(STREAM_TRANSPOSE::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
    }
}

#[test]
fn s4d4_tr_channels_are_one_byte() {
    // Issue 24: with num_active_channels a u32 over 34..37, a word with 64 channels and
    // negated = 1 read 320 channels. The header has one byte at 34, then negated at 35.
    let mut bytes = vector("dve_stream_transpose.hex");
    bytes[35] = 1;
    let w = STREAM_TRANSPOSE::decode(&bytes).expect("0x6b");
    assert_eq!((w.num_active_channels, w.negated), (64, 1));
    assert_eq!(
        violations(STREAM_TRANSPOSE::check_rules, &bytes, Arch::cayman),
        ["has_zero_negated_field"]
    );
    let mut bytes = vector("dve_stream_shuffle_transpose.hex");
    bytes[34] = 64;
    bytes[35] = 1;
    let w = STREAM_SHUFFLE::decode(&bytes).expect("0x6a");
    assert_eq!((w.num_active_channels, w.negated), (64, 1));
    let c = CONFLICTS
        .iter()
        .find(|x| x.name == "s4d4_tr_num_active_channels_width")
        .expect("recorded");
    assert_eq!(c.readings.len(), 2);
}

#[test]
fn stream_transpose_header_rules_broken_one_at_a_time() {
    // wiki-stream-transpose §4.2, is_valid_stream_transpose's conjuncts.
    let cases: [Break<STREAM_TRANSPOSE>; 9] = [
        (|w| w.reserved1[4] = 1, "s4d4_tr_reserved_zero"),
        (|w| w.mask_enable = 2, "mask_enable_valid"),
        (
            |w| w.out_dtype = DTYPE::BFLOAT16,
            "s4d4_tr_same_src_dst_type",
        ),
        (|w| w.op_dim = TENSOR_SUBDIM::XY, "is_zero_subdim"),
        (|w| w.op = ALU_OP::ADD, "s4d4_tr_op_bypass"),
        (|w| w.num_active_channels = 48, "has_multiple_32_channels"),
        (|w| w.negated = 1, "has_zero_negated_field"),
        // prod(src.num_elem) % 32: [33, 4, 2, 1] = 264.
        (
            |w| w.src_mem_pattern.num_elem[0] = 33,
            "has_transpose_src_element_count_t4d",
        ),
        (
            |w| w.header.opcode = OPCODE::STREAM_SHUFFLE,
            "has_stream_transpose_opcode",
        ),
    ];
    for (brk, id) in cases {
        let mut w = transpose();
        brk(&mut w);
        let got = violations(STREAM_TRANSPOSE::check_rules, &w.encode(), Arch::cayman);
        assert_eq!(got, [id]);
    }
    // 160 channels: a multiple of 32 over POOLING_NUM_CHANNELS, outside the closed set.
    let mut w = transpose();
    w.num_active_channels = 160;
    let got = violations(STREAM_TRANSPOSE::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["has_multiple_32_channels"]);
    // mask_enable 0 is valid too; op_dim X is a zero subdim.
    let mut w = transpose();
    w.mask_enable = 0;
    w.op_dim = TENSOR_SUBDIM::X;
    assert!(w.validate(Arch::cayman).is_ok());
}

#[test]
fn stream_transpose_guards_are_compiler_findings() {
    // supp-dve-datamove Guard B: src_mem_pattern.num_elem[3] == 1 (2 keeps the count % 32).
    let mut w = transpose();
    w.src_mem_pattern.num_elem[3] = 2;
    let got = findings(STREAM_TRANSPOSE::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["src_num_elem_3_is_1"]);
    // Guard A: the source may not be TensorIndirect (ADDR4 bit 29).
    let mut w = transpose();
    w.src_mem_pattern.start_addr.indirect = 1;
    let got = findings(STREAM_TRANSPOSE::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["src_is_not_tensor_indirect"]);
    assert!(w.validate(Arch::cayman).is_ok());
    // The DVE page's transpose_ch = 1 is an alternative reading of mask_enable.
    let f = STREAM_TRANSPOSE::META
        .fields
        .iter()
        .find(|f| f.name == "mask_enable")
        .unwrap();
    assert_eq!(f.offset, 38);
}

// ---- 0xBC RANGE_SELECT (S2D2_RS, the RangeSelect page's header struct) -----------------

fn range_select() -> RANGE_SELECT {
    RANGE_SELECT::decode(&vector("dve_range_select.hex")).expect("0xbc")
}

#[test]
fn range_select_decodes_every_row() {
    let bytes = vector("dve_range_select.hex");
    let w = range_select();
    // wiki-range-select §4 rows 0 header (0xbc), 4 events.
    assert_eq!(w.header.opcode, OPCODE::RANGE_SELECT);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!(w.events.wait_idx, 0);
    // Rows 12 num_active_channels, 13 in_out_dtype (DTYPE_PAIR).
    assert_eq!(w.num_active_channels, 64);
    assert_eq!(
        (w.in_out_dtype.dtype_lo, w.in_out_dtype.dtype_hi),
        (DTYPE::FP32, DTYPE::FP32)
    );
    // Rows 14 reduce_cmd, 15 reduce_op (must be Max).
    assert_eq!(w.reduce_cmd, ACCUM_CMD::ACCUMULATE);
    assert_eq!(w.reduce_op, ALU_OP::MAX);
    // Rows 16 base, 20 fill_val (must be -FLT_MAX).
    assert_eq!(w.base, 0);
    assert_eq!(w.fill_val, 0xff7f_ffff);
    assert_eq!(f32::from_bits(w.fill_val), -f32::MAX);
    // Rows 24 src_mem_pattern, 48 dst_mem_pattern (TENSOR2D, 12 bytes).
    assert_eq!(w.src_mem_pattern.start_addr.address, 0x1000);
    assert_eq!(w.src_mem_pattern.step_elem, [1, 64]);
    assert_eq!(w.src_mem_pattern.num_elem, [64, 2]);
    assert_eq!(w.dst_mem_pattern.start_addr.address, 0x2000);
    assert_eq!(w.dst_mem_pattern.num_elem, [64, 2]);
    // Rows 36 comp_op0, 37 comp_op1, 38 bound0_src, 39 bound1_src.
    assert_eq!((w.comp_op0, w.comp_op1), (ALU_OP::IS_GE, ALU_OP::IS_LE));
    assert_eq!(
        (w.bound0_src, w.bound1_src),
        (
            IMM_SRC::INSTRUCTION_IMMEDIATE,
            IMM_SRC::INSTRUCTION_IMMEDIATE
        )
    );
    // Rows 40 bound0, 44 bound1 (IMM_VAL_INST_FIELD, the FP32 arm).
    assert_eq!(f32::from_bits(w.bound0.imm_arith_fp32), 1.0);
    assert_eq!(f32::from_bits(w.bound1.imm_arith_fp32), 10.5);
    // Row 60 reserved1[4].
    assert_eq!(w.reserved1, [0; 4]);
    assert_eq!(w.encode(), bytes);
    // §10.1: cayman, mariana and maverick; absent on sunda.
    for arch in [Arch::cayman, Arch::mariana, Arch::maverick] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            findings(RANGE_SELECT::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
        assert!(Word::decode(&bytes, arch).is_some(), "{arch:?}");
    }
    assert!(Word::decode(&bytes, Arch::sunda).is_none());
}

#[test]
fn range_select_header_rules_broken_one_at_a_time() {
    // wiki-range-select §5.1: is_valid_range_select's sub-checks, one at a time.
    let cases: [Break<RANGE_SELECT>; 10] = [
        (|w| w.fill_val = 0xff80_0000, "is_valid_fill_val"), // -Inf, not -FLT_MAX (§5.3)
        (
            |w| w.reduce_op = ALU_OP::ADD,
            "has_valid_range_select_reduce_op",
        ),
        (
            |w| w.reduce_cmd = ACCUM_CMD::ZERO,
            "has_valid_range_select_reduce_cmd",
        ),
        (
            |w| w.reduce_cmd = ACCUM_CMD::LOAD_ACCUMULATE,
            "has_valid_range_select_reduce_cmd",
        ),
        (|w| w.comp_op0 = ALU_OP::MAX, "is_valid_rs_comp_op0"),
        (|w| w.comp_op1 = ALU_OP::BYPASS, "is_valid_rs_comp_op1"),
        (
            |w| w.in_out_dtype.dtype_lo = DTYPE::FP32R,
            "is_valid_fp_dtype_datapath_in",
        ),
        (
            |w| w.in_out_dtype.dtype_hi = DTYPE::INT32,
            "is_valid_fp_dtype_datapath_out",
        ),
        (|w| w.base = 16_777_216, "has_valid_total_index_range"), // 2^24 + 128 elements
        (
            |w| w.header.opcode = OPCODE::DMA_INDIRECT,
            "has_range_select_opcode",
        ),
    ];
    for (brk, id) in cases {
        let mut w = range_select();
        brk(&mut w);
        assert_eq!(
            violations(RANGE_SELECT::check_rules, &w.encode(), Arch::cayman),
            [id]
        );
        assert!(w.validate(Arch::cayman).is_err(), "{id}");
    }
    // FP32R is allowed on the output only (§8).
    let mut w = range_select();
    w.in_out_dtype.dtype_hi = DTYPE::FP32R;
    assert!(w.validate(Arch::cayman).is_ok());
    // has_valid_nc_rs: nc >= V3 (sunda is V2).
    let v = RANGE_SELECT::check_rules(&vector("dve_range_select.hex"), Arch::sunda);
    assert!(v.contains("has_valid_nc_rs"));
}

#[test]
fn range_select_element_counts_must_match() {
    // Header has_same_elem_count_rs_src_dst and the compiler's NeuronAssertion("inNumEles ==
    // outNumEles") (supp-dve-datamove §RangeSelect).
    let mut w = range_select();
    w.dst_mem_pattern.num_elem = [64, 3];
    let bytes = w.encode();
    assert_eq!(
        violations(RANGE_SELECT::check_rules, &bytes, Arch::cayman),
        ["has_same_elem_count_rs_src_dst"]
    );
    // The compiler's NeuronAssertion checks the same counts: declared, not enforced twice.
    assert!(
        RANGE_SELECT::RULES
            .iter()
            .any(|r| r.id == "in_num_eles_eq_out_num_eles")
    );
    // A register-supplied shape (ADDR4 bit 30, SHAPE_REG) waives the count check.
    let mut w = range_select();
    w.dst_mem_pattern.num_elem = [64, 3];
    w.dst_mem_pattern.start_addr.active = 1;
    let v = RANGE_SELECT::check_rules(&w.encode(), Arch::cayman);
    assert!(!v.contains("has_same_elem_count_rs_src_dst"));
    // The same count in another shape is fine.
    let mut w = range_select();
    w.dst_mem_pattern.num_elem = [32, 4];
    assert!(w.validate(Arch::cayman).is_ok());
    let got = findings(RANGE_SELECT::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, Vec::<&str>::new());
}

// ---- 0x67 POOL_BUFFER_LOAD ------------------------------------------------------------

#[test]
fn pool_buffer_load_decodes_every_row() {
    // wiki-gap-cluster §6, the shipped header's S4_PB table.
    let bytes = vector("dve_pool_buffer_load.hex");
    let w = POOL_BUFFER_LOAD::decode(&bytes).expect("0x67");
    assert_eq!(w.header.opcode, OPCODE::POOL_BUFFER_LOAD);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!(w.events.wait_idx, 0);
    // Row "12 src_mem_pattern (TENSOR4D) 20".
    let src = &w.src_mem_pattern;
    assert_eq!(src.start_addr.address, 0x400);
    assert_eq!(src.step_elem, [1, 0, 0, 0]);
    assert_eq!(src.num_elem, [512, 1, 1, 1]);
    // Rows "32 in_dtype (DTYPE) 1", "34 num_active_channels 1"; 33 and 35..39 have no row.
    assert_eq!(w.in_dtype, DTYPE::UINT16);
    assert_eq!(w.num_active_channels, 128);
    assert_eq!((w.unknown_33, w.unknown_35), ([0], [0; 5]));
    // Rows "40 start_index (u32) 4", "44 mask (u32) 4": the header's example 0xab400 / 0x1ff.
    assert_eq!((w.start_index, w.mask), (0xab400, 0x1ff));
    // Row "48 reserved2[16] 16 0".
    assert_eq!(w.reserved2, [0; 16]);
    assert_eq!(w.encode(), bytes);
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
        let word = Word::decode(&bytes, arch).expect("0x67 decodes");
        assert!(word.validate(arch).is_ok(), "{arch:?}");
    }
    let at = |name: &str| {
        POOL_BUFFER_LOAD::META
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (f.offset, f.size))
    };
    for (name, place) in [
        ("src_mem_pattern", (12, 20)),
        ("in_dtype", (32, 1)),
        ("num_active_channels", (34, 1)),
        ("start_index", (40, 4)),
        ("mask", (44, 4)),
        ("reserved2", (48, 16)),
    ] {
        assert_eq!(at(name), Some(place), "{name}");
    }
    // The gap shrank to the bytes without a row.
    let gap = GAPS
        .iter()
        .find(|g| g.name == "S4_PB band")
        .expect("the gap");
    assert!(gap.reason.contains("Bytes 33 and 35..39"), "{}", gap.reason);
    // The two readings disagree on the order, so neither is enforced.
    assert!(POOL_BUFFER_LOAD::META.follows.is_empty());
    for c in [
        "gather_pool_buffer_load_order",
        "pool_buffer_load_src_pattern",
    ] {
        let c = CONFLICTS.iter().find(|x| x.name == c).expect(c);
        assert_eq!(c.readings.len(), 2);
    }
}

#[test]
fn pool_buffer_load_breaks_each_header_rule_alone() {
    // wiki-gap-cluster §6 is_valid_pool_buffer_load: the two conjuncts with a body.
    let cases: [Break<POOL_BUFFER_LOAD>; 3] = [
        (
            |w| w.header.opcode = OPCODE::GATHER,
            "has_pool_buffer_load_opcode",
        ),
        (|w| w.reserved2[0] = 1, "s4_pb_reserved_zero"),
        (|w| w.reserved2[15] = 0x80, "s4_pb_reserved_zero"),
    ];
    for (brk, id) in cases {
        let mut w = POOL_BUFFER_LOAD::decode(&vector("dve_pool_buffer_load.hex")).unwrap();
        brk(&mut w);
        assert_eq!(
            violations(POOL_BUFFER_LOAD::check_rules, &w.encode(), Arch::cayman),
            [id]
        );
        assert!(w.validate(Arch::cayman).is_err(), "{id}");
    }
    // The rules the page names without a body are declared, not enforced: 513 elements per
    // channel (valid_pool_buffer_load_element_count) and FP32R (is_valid_dtype) pass.
    let mut w = POOL_BUFFER_LOAD::decode(&vector("dve_pool_buffer_load.hex")).unwrap();
    w.src_mem_pattern.num_elem[0] = 513;
    w.in_dtype = DTYPE::FP32R;
    assert!(w.validate(Arch::cayman).is_ok());
    for id in ["valid_pool_buffer_load_element_count", "is_valid_dtype_in"] {
        let r = POOL_BUFFER_LOAD::RULES
            .iter()
            .find(|r| r.id == id)
            .expect(id);
        assert_ne!(r.kind, dmaspec::runtime::rules::RuleKind::Expr, "{id}");
    }
}

// ---- the pairs, through `dmaspec validate` ----------------------------------------------

#[test]
fn validate_reports_a_lone_stream_shuffle() {
    let out = common::dmaspec(&["validate"], &vector("dve_stream_shuffle.hex"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        common::stdout(&out).trim_end(),
        "offset 0 LOAD_MASK_SELECT: must immediately follow STREAM_SHUFFLE or \
         STREAM_TRANSPOSE, and does not"
    );
    // After a word that is neither half (a DROPOUT), it is still an orphan.
    let input = [vector("dve_dropout.hex"), vector("dve_stream_shuffle.hex")].concat();
    let out = common::dmaspec(&["validate"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stdout(&out).starts_with("offset 64 LOAD_MASK_SELECT: must immediately follow")
    );
}

#[test]
fn validate_passes_the_shuffle_and_transpose_pairs() {
    for lead in [
        "dve_stream_shuffle_transpose.hex",
        "dve_stream_transpose.hex",
    ] {
        let input = [vector(lead), vector("dve_stream_shuffle.hex")].concat();
        for arch in ["sunda", "cayman", "mariana"] {
            let out = common::dmaspec(&["validate", "--arch", arch], &input);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{lead} on {arch}: {}{}",
                common::stdout(&out),
                common::stderr(&out)
            );
            assert_eq!(common::stdout(&out), "");
        }
    }
}

#[test]
fn validate_enforces_no_order_between_gather_and_pool_buffer_load() {
    // Conflict gather_pool_buffer_load_order: the DVE page writes {0x68 + 0x67}, the Master
    // Opcode Reference §3 "0x67 buffer-load + 0x68 gather". Lone, and in both orders, valid.
    let gather = vector("gather_ex_a.hex");
    let load = vector("dve_pool_buffer_load.hex");
    for input in [
        load.to_vec(),
        [gather, load].concat(),
        [load, gather].concat(),
    ] {
        let out = common::dmaspec(&["validate", "--arch", "cayman"], &input);
        assert_eq!(out.status.code(), Some(0), "{}", common::stdout(&out));
        assert_eq!(common::stdout(&out), "");
    }
}

// ---- item 9: InstructionType from the Master Opcode Reference ------------------------

#[test]
fn instruction_type_has_all_110_ordinals() {
    use dmaspec::words::klr::enums::InstructionType;
    // Master Opcode Reference §1: 110 arms, ordinals 0..109 (rows IT 65 Dropout, IT 102
    // DveReadAccumulator, IT 109 TongaReduceMacroSymbolic); seed 003's names stay primary,
    // the page's spelling an alias (IT 39 StreamShuffle).
    let e = InstructionType::ENUMERATORS;
    let values: Vec<u64> = e.iter().map(|x| x.value).collect();
    assert_eq!(values, (0..110).collect::<Vec<u64>>());
    let at = |v: u64| e.iter().find(|x| x.value == v).unwrap();
    assert_eq!(at(65).name, "Dropout");
    assert_eq!(at(102).name, "DveReadAccumulator");
    assert_eq!(at(109).name, "TongaReduceMacroSymbolic");
    assert_eq!(at(39).name, "InstStreamShuffle");
    assert_eq!(at(39).aliases, ["StreamShuffle"]);
}
