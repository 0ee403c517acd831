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

// ---- 0x7F DROPOUT (S3D3_DROPOUT) ------------------------------------------------------

fn dropout() -> DROPOUT {
    DROPOUT::decode(&vector("dve_dropout.hex")).expect("opcode 0x7f")
}

#[test]
fn dropout_decodes_every_row() {
    let bytes = vector("dve_dropout.hex");
    let w = dropout();
    // Rows "+0x00 opcode = 0x7F", "+0x01 inst_word_len = 0x10".
    assert_eq!(w.header.opcode, OPCODE::Dropout);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_EQ_IMM);
    assert_eq!((w.events.wait_idx, w.events.update_idx), (3, 4));
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    // Row "+0x10 16 src AP (TENSOR3D)".
    let src = &w.src_mem_pattern;
    assert_eq!(
        (src.start_addr.address, src.start_addr.register_mode),
        (0x200, 0)
    );
    assert_eq!(src.step_elem, [1, 32, 128]);
    assert_eq!(src.num_elem, [32, 4, 1]);
    // Rows "+0x20 in_dtype", "+0x21 out_dtype", "+0x22 active / lane".
    assert_eq!(
        (w.in_dtype, w.out_dtype),
        (DTYPE::BFLOAT16, DTYPE::BFLOAT16)
    );
    assert_eq!(w.active, 32);
    // Rows "+0x23 threshold_imm_ptr" (an operand slot, not an f32), "+0x24 threshold_dtype".
    assert_eq!(w.threshold_imm_ptr, 2);
    assert_eq!(w.threshold_dtype, DTYPE::FP32);
    // Row "+0x2B rng_mode / dropout_variant".
    assert_eq!(w.rng_mode, 1);
    assert_eq!(
        (w.unknown_12, w.unknown_37, w.unknown_44),
        ([0; 4], [0; 6], [0; 4])
    );
    // Row "+0x30 16 dst AP (TENSOR3D)".
    let dst = &w.dst_mem_pattern;
    assert_eq!(dst.start_addr.address, 0x8000);
    assert_eq!(dst.num_elem, [32, 4, 1]);
    assert_eq!(w.encode(), bytes);
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            findings(DROPOUT::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
    }
    // No page reads the word on maverick.
    assert!(DROPOUT::META.arch.iter().all(|a| *a != Arch::maverick));
}

#[test]
fn dropout_same_src_dst_type_is_a_compiler_finding() {
    // §Dropout row "+0x21 out_dtype": d3_dropout_same_src_dst_type asserts in == out.
    let mut w = dropout();
    w.out_dtype = DTYPE::FP16;
    let got = findings(DROPOUT::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["d3_dropout_same_src_dst_type"]);
    // A compiler rule: the word stays valid.
    assert!(w.validate(Arch::cayman).is_ok());
}

// ---- 0x6A STREAM_SHUFFLE_TRANSPOSE + 0x69 STREAM_SHUFFLE (StreamShuffle) ------------------

fn shuffle_transpose() -> STREAM_SHUFFLE_TRANSPOSE {
    STREAM_SHUFFLE_TRANSPOSE::decode(&vector("dve_stream_shuffle_transpose.hex")).expect("0x6a")
}

fn shuffle() -> STREAM_SHUFFLE {
    STREAM_SHUFFLE::decode(&vector("dve_stream_shuffle.hex")).expect("0x69")
}

/// The three DVE words that only sunda / cayman / mariana read (no page reads maverick).
const V2_TO_V4: [Arch; 3] = [Arch::sunda, Arch::cayman, Arch::mariana];

#[test]
fn stream_shuffle_transpose_decodes_every_row() {
    let bytes = vector("dve_stream_shuffle_transpose.hex");
    let w = shuffle_transpose();
    // Rows "+0x00 opcode = 0x6A", "+0x01 inst_word_len = 0x10".
    assert_eq!(w.header.opcode, OPCODE::StreamShuffle);
    assert_eq!(w.header.inst_word_len, 0x10);
    // Row "+0x0C src AP (TENSOR4D)": 20 bytes, num_elem[3] at +0x1E.
    let src = &w.src_mem_pattern;
    assert_eq!(src.start_addr.address, 0x400);
    assert_eq!(src.step_elem, [1, 0, 0, 0]);
    assert_eq!(src.num_elem, [16, 1, 1, 1]);
    // Rows "+0x20 in_dtype", "+0x21 out_dtype", "+0x22 4 num_active_channels".
    assert_eq!(
        (w.in_dtype, w.out_dtype),
        (DTYPE::BFLOAT16, DTYPE::BFLOAT16)
    );
    assert_eq!(w.num_active_channels, 32);
    // The 0x6A half leaves +0x26 (0x6B's transpose_ch) zeroed.
    assert_eq!(w.unknown_38, [0; 6]);
    // Row "+0x2C dst AP (TENSOR4D)".
    assert_eq!(w.dst_mem_pattern.start_addr.address, 0x800);
    assert_eq!(w.dst_mem_pattern.num_elem, [16, 1, 1, 1]);
    assert_eq!(w.encode(), bytes);
    for arch in V2_TO_V4 {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        let got = findings(STREAM_SHUFFLE_TRANSPOSE::check_rules, &bytes, arch);
        assert_eq!(got, Vec::<&str>::new());
    }
}

#[test]
fn stream_shuffle_transpose_guards_are_compiler_findings() {
    // §`0x6A` Guards: both element counts nonzero.
    let mut w = shuffle_transpose();
    w.src_mem_pattern.num_elem[2] = 0;
    let got = findings(
        STREAM_SHUFFLE_TRANSPOSE::check_rules,
        &w.encode(),
        Arch::cayman,
    );
    assert_eq!(got, ["src_element_count_nonzero"]);
    let mut w = shuffle_transpose();
    w.dst_mem_pattern.num_elem[0] = 0;
    let got = findings(
        STREAM_SHUFFLE_TRANSPOSE::check_rules,
        &w.encode(),
        Arch::cayman,
    );
    assert_eq!(got, ["dst_element_count_nonzero"]);
    assert!(w.validate(Arch::cayman).is_ok());
}

#[test]
fn stream_shuffle_decodes_every_row() {
    let bytes = vector("dve_stream_shuffle.hex");
    let w = shuffle();
    // Rows "+0x00 opcode = 0x69", "+0x01 inst_word_len = 0x10".
    assert_eq!(w.header.opcode, OPCODE::StreamShuffle_0x69);
    assert_eq!(w.header.inst_word_len, 0x10);
    // Row "+0x0C src AP".
    assert_eq!(w.src_mem_pattern.start_addr.address, 0x400);
    assert_eq!(w.src_mem_pattern.num_elem, [16, 1, 1, 1]);
    // Row "+0x20..+0x3F 32 immediate.uint8[32] lane map": lanes 0..15 reversed, the rest the
    // passthrough sentinel 16 | 0x20.
    let mut lanes = [0x30u8; 32];
    for (i, lane) in lanes.iter_mut().take(16).enumerate() {
        *lane = 15 - i as u8;
    }
    assert_eq!(w.immediate, lanes);
    assert_eq!(w.encode(), bytes);
    for arch in V2_TO_V4 {
        let word = Word::decode(&bytes, arch).expect("0x69 decodes");
        assert!(word.validate(arch).is_ok(), "{arch:?}");
    }
    // The lane map fills the band: no dtype and no destination pattern is decoded.
    let at = |name: &str| {
        STREAM_SHUFFLE::META
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (f.offset, f.size))
    };
    assert_eq!(at("immediate"), Some((0x20, 32)));
    assert_eq!(at("dst_mem_pattern"), None);
    assert_eq!(
        STREAM_SHUFFLE::META.follows,
        ["STREAM_SHUFFLE_TRANSPOSE", "STREAM_TRANSPOSE"]
    );
    for c in [
        "stream_shuffle_lane_map_overlap",
        "stream_shuffle_pair_order",
    ] {
        let c = CONFLICTS.iter().find(|x| x.name == c).expect(c);
        assert_eq!(c.readings.len(), 2);
    }
}

// ---- 0x6B STREAM_TRANSPOSE ------------------------------------------------------------

fn transpose() -> STREAM_TRANSPOSE {
    STREAM_TRANSPOSE::decode(&vector("dve_stream_transpose.hex")).expect("0x6b")
}

#[test]
fn stream_transpose_decodes_every_row() {
    let bytes = vector("dve_stream_transpose.hex");
    let w = transpose();
    // Rows "+0x00 opcode = 0x6B", "+0x01 inst_word_len = 0x10".
    assert_eq!(w.header.opcode, OPCODE::StreamTranspose);
    // Row "+0x0C src AP (TENSOR4D)"; Guard B reads num_elem[3] at +0x1E.
    let src = &w.src_mem_pattern;
    assert_eq!(src.start_addr.address, 0x1000);
    assert_eq!(src.start_addr.indirect, 0);
    assert_eq!(src.step_elem, [1, 32, 128, 0]);
    assert_eq!(src.num_elem, [32, 4, 2, 1]);
    assert_eq!(u16::from_le_bytes([bytes[0x1E], bytes[0x1F]]), 1);
    // Rows "+0x20 in_dtype", "+0x21 out_dtype", "+0x22 4 num_active_channels".
    assert_eq!((w.in_dtype, w.out_dtype), (DTYPE::FP16, DTYPE::FP16));
    assert_eq!(w.num_active_channels, 256);
    // Row "+0x26 1 transpose_ch = 0x1".
    assert_eq!(w.transpose_ch, 1);
    // Row "+0x2C dst AP (TENSOR4D)".
    assert_eq!(w.dst_mem_pattern.start_addr.address, 0x2000);
    assert_eq!(w.dst_mem_pattern.num_elem, [32, 8, 1, 1]);
    assert_eq!(w.encode(), bytes);
    for arch in V2_TO_V4 {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            findings(STREAM_TRANSPOSE::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
    }
}

#[test]
fn stream_transpose_guards_are_compiler_findings() {
    // Guard B: src_mem_pattern.num_elem[3] == 1.
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
}

// ---- 0xBC RANGE_SELECT ----------------------------------------------------------------

fn range_select() -> RANGE_SELECT {
    RANGE_SELECT::decode(&vector("dve_range_select.hex")).expect("0xbc")
}

#[test]
fn range_select_decodes_every_row() {
    let bytes = vector("dve_range_select.hex");
    let w = range_select();
    // Rows "+0x00 opcode = 0xBC", "+0x01 inst_word_len = 0x10".
    assert_eq!(w.header.opcode, OPCODE::RangeSelect);
    // Row "+0x0D dtype/mode packed": low nibble the dtype tag.
    assert_eq!(w.dtype_mode.dtype, DTYPE::FP32);
    // Row "+0x0F op-variant flag = 0x8".
    assert_eq!(w.op_variant_flag, 8);
    // Rows "+0x10 LOWER bound (f32)", "+0x14 UPPER bound (f32)".
    assert_eq!(f32::from_bits(w.lower_bound), 1.0);
    assert_eq!(f32::from_bits(w.upper_bound), 10.5);
    // Rows "+0x18 data src AP (TENSOR2D)", "+0x30 dst AP (TENSOR2D)": 12 bytes each.
    assert_eq!(w.src_mem_pattern.start_addr.address, 0x1000);
    assert_eq!(w.src_mem_pattern.step_elem, [1, 64]);
    assert_eq!(w.src_mem_pattern.num_elem, [64, 2]);
    assert_eq!(w.dst_mem_pattern.start_addr.address, 0x2000);
    assert_eq!(w.dst_mem_pattern.num_elem, [64, 2]);
    // Rows "+0x26 bound-check field 0", "+0x27 bound-check field 1".
    assert_eq!((w.bound_check_field_0, w.bound_check_field_1), (0, 0));
    assert_eq!(w.encode(), bytes);
    for arch in [Arch::cayman, Arch::mariana] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
        assert_eq!(
            findings(RANGE_SELECT::check_rules, &bytes, arch),
            Vec::<&str>::new()
        );
    }
    // CoreV3-only: no word 0xBC on sunda (nor on maverick, which no page reads).
    assert!(Word::decode(&bytes, Arch::sunda).is_none());
    assert!(Word::decode(&bytes, Arch::maverick).is_none());
}

#[test]
fn range_select_element_counts_must_match() {
    // §RangeSelect: NeuronAssertion("inNumEles == outNumEles").
    let mut w = range_select();
    w.dst_mem_pattern.num_elem = [64, 3];
    let got = findings(RANGE_SELECT::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, ["in_num_eles_eq_out_num_eles"]);
    // The same count in another shape is fine.
    let mut w = range_select();
    w.dst_mem_pattern.num_elem = [32, 4];
    let got = findings(RANGE_SELECT::check_rules, &w.encode(), Arch::cayman);
    assert_eq!(got, Vec::<&str>::new());
}

// ---- 0x67 POOL_BUFFER_LOAD ------------------------------------------------------------

#[test]
fn pool_buffer_load_decodes_its_one_sized_field() {
    let bytes = vector("dve_pool_buffer_load.hex");
    let w = POOL_BUFFER_LOAD::decode(&bytes).expect("0x67");
    assert_eq!(w.header.opcode, OPCODE::POOL_BUFFER_LOAD);
    // §Master offset table: +0x20 in_dt.
    assert_eq!(w.in_dtype, DTYPE::UINT16);
    // The summarised +0x22 lane, +0x28 elem-cnt and +0x2C 0x1FF stay unknown bytes.
    assert_eq!(w.unknown_33[0x22 - 33], 128);
    assert_eq!(&w.unknown_33[0x28 - 33..0x2A - 33], &[0x00, 0x02]);
    assert_eq!(&w.unknown_33[0x2C - 33..0x2E - 33], &[0xFF, 0x01]);
    assert_eq!(w.encode(), bytes);
    for arch in [Arch::sunda, Arch::cayman] {
        let word = Word::decode(&bytes, arch).expect("0x67 decodes");
        assert!(word.validate(arch).is_ok(), "{arch:?}");
    }
    // The two readings disagree on the order, so neither is enforced.
    assert!(POOL_BUFFER_LOAD::META.follows.is_empty());
    let c = CONFLICTS
        .iter()
        .find(|x| x.name == "gather_pool_buffer_load_order")
        .expect("the order disagreement is recorded");
    assert_eq!(c.readings.len(), 2);
}

// ---- the pairs, through `dmaspec validate` ----------------------------------------------

#[test]
fn validate_reports_a_lone_stream_shuffle() {
    let out = common::dmaspec(&["validate"], &vector("dve_stream_shuffle.hex"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        common::stdout(&out).trim_end(),
        "offset 0 STREAM_SHUFFLE: must immediately follow STREAM_SHUFFLE_TRANSPOSE or \
         STREAM_TRANSPOSE, and does not"
    );
    // After a word that is neither half (a DROPOUT), it is still an orphan.
    let input = [vector("dve_dropout.hex"), vector("dve_stream_shuffle.hex")].concat();
    let out = common::dmaspec(&["validate"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert!(common::stdout(&out).starts_with("offset 64 STREAM_SHUFFLE: must immediately follow"));
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
