//! The access-pattern slots (issue 14 item 5) and the worked examples of supp-gather-scatter
//! §8 that are not GATHER's (EX-B, EX-C, EX-D; EX-A is in tests/golden_gather.rs).
//!
//! Byte maps are checked against the pages' tables (the row is cited per check); the words
//! are the hand-built vectors tests/vectors/gather_ex_b.hex, gather_ex_c.hex (both written from
//! the examples' text) and dma_gather_xpose.hex (EX-D's shape, written last session from
//! seed-004 §4), decoded field by field, re-encoded byte-exact and validated.

mod common;

use common::vector;
use dmaspec::Arch;
use dmaspec::runtime::meta::FieldMeta;
use dmaspec::words::*;

/// `(name, offset, size)` of each field of a nested type.
fn layout(fields: &[FieldMeta]) -> Vec<(&str, usize, usize)> {
    fields.iter().map(|f| (f.name, f.offset, f.size)).collect()
}

/// The header rules a word breaks on `arch`, by id.
trait Validate {
    fn broken(&self, arch: Arch) -> Vec<&'static str>;
}

macro_rules! validate {
    ($($t:ident),*) => {$(
        impl Validate for $t {
            fn broken(&self, arch: Arch) -> Vec<&'static str> {
                match self.validate(arch) {
                    Ok(()) => Vec::new(),
                    Err(v) => v.leaves().map(|r| r.id).collect(),
                }
            }
        }
    )*};
}
validate!(INDIRECT_COPY, DMA_INDIRECT1D, DMA_GATHER_XPOSE);

#[test]
fn static_patterns_follow_the_4_plus_4n_rule() {
    // wiki-tensor-descriptors §Per-type byte map / wiki-tensor4d §The byte map: ADDR4 @+0,
    // N x i16 step @+4, N x u16 num @+(4 + 2N); size 4 + 4N (the "ISA mem pattern ND must
    // have K bytes to encode" asserts).
    assert_eq!(
        layout(TENSOR1D::FIELDS),
        [
            ("start_addr", 0, 4),
            ("step_elem", 4, 2),
            ("num_elem", 6, 2)
        ]
    );
    assert_eq!(
        layout(TENSOR2D::FIELDS),
        [
            ("start_addr", 0, 4),
            ("step_elem", 4, 4),
            ("num_elem", 8, 4)
        ]
    );
    assert_eq!(
        layout(TENSOR3D::FIELDS),
        [
            ("start_addr", 0, 4),
            ("step_elem", 4, 6),
            ("num_elem", 10, 6)
        ]
    );
    assert_eq!(
        layout(TENSOR4D::FIELDS),
        [
            ("start_addr", 0, 4),
            ("step_elem", 4, 8),
            ("num_elem", 12, 8)
        ]
    );
    assert_eq!(
        [
            TENSOR1D::SIZE,
            TENSOR2D::SIZE,
            TENSOR3D::SIZE,
            TENSOR4D::SIZE
        ],
        [8, 12, 16, 20]
    );
    // supp-quick-reference §4: the destination-role names are the same layouts.
    assert_eq!(
        [
            MEM_PATTERN2D::SIZE,
            MEM_PATTERN3D::SIZE,
            MEM_PATTERN4D::SIZE
        ],
        [12, 16, 20]
    );
    let _same: MEM_PATTERN4D = TENSOR4D::default();
}

#[test]
fn tensor2d_worked_example() {
    // wiki-tensor-descriptors §Worked example: outer stride 64 elements x 16, inner stride 1 x
    // 32; after the ADDR4 word (the page leaves it symbolic, `A`; 0 here) the bytes are
    // `40 00 01 00 10 00 20 00`.
    let bytes = [0, 0, 0, 0, 0x40, 0x00, 0x01, 0x00, 0x10, 0x00, 0x20, 0x00];
    let t = TENSOR2D::read(&bytes);
    assert_eq!(t.step_elem, [64, 1]);
    assert_eq!(t.num_elem, [16, 32]);
    let mut back = [0xff; 12];
    t.write(&mut back);
    assert_eq!(back, bytes);
    assert!(t.validate(Arch::mariana).is_ok());
    // "A reverse inner walk is stride1 = -1 → 0xFFFF".
    let mut r = t;
    r.step_elem[1] = -1;
    r.write(&mut back);
    assert_eq!(back[6..8], [0xff, 0xff]);
    // "the validator rejects a zero count".
    r.num_elem[0] = 0;
    assert!(r.validate(Arch::mariana).is_err());
}

#[test]
fn indirect_and_mx_byte_maps() {
    // supp-indirect-descriptors §The byte map: INDEX @+0, DATA @+4, NUM u16 @+8, inert
    // +0xA..+0xF (16B) / +0xA..+0x13 (20B).
    assert_eq!(
        layout(INDIRECT16B::FIELDS),
        [
            ("index_addr", 0, 4),
            ("data_addr", 4, 4),
            ("num_elem", 8, 2),
            ("inert", 10, 6)
        ]
    );
    assert_eq!(
        layout(INDIRECT20B::FIELDS),
        [
            ("index_addr", 0, 4),
            ("data_addr", 4, 4),
            ("num_elem", 8, 2),
            ("inert", 10, 10)
        ]
    );
    // MXINDIRECT16B: INDEX +0, DATA +4, SCALE +8, x4-NUM u16 +0xC, spare +0xE, scale part +0xF.
    assert_eq!(
        layout(MXINDIRECT16B::FIELDS),
        [
            ("index_addr", 0, 4),
            ("data_addr", 4, 4),
            ("scale_addr", 8, 4),
            ("num_elem", 12, 2),
            ("num_elem_spare", 14, 1),
            ("scale_part", 15, 1)
        ]
    );
    // The spare byte is tagged as the page tags it: INFERRED from the u16 store.
    assert_eq!(MXINDIRECT16B::FIELDS[4].confidence.tag, "INFERRED");
    // wiki-mxmem-pattern1d §The 16-byte layout: DATA +0, SCALE +4, K +8, step +0xA, scale part
    // +0xB, reserved +0xC..+0xF (12 bytes written).
    assert_eq!(
        layout(MXMEM_PATTERN1D::FIELDS),
        [
            ("data_addr", 0, 4),
            ("scale_addr", 4, 4),
            ("k_extent", 8, 2),
            ("step_dir", 10, 1),
            ("scale_part", 11, 1),
            ("reserved", 12, 4)
        ]
    );
    // step_dir 0xFF is -1 (wiki-mxmem-pattern1d §Byte +0x0A: "step ∈ {0x01, 0xFF}").
    let mut b = [0; 16];
    b[8] = 32;
    b[10] = 0xff;
    let mx = MXMEM_PATTERN1D::read(&b);
    assert_eq!((mx.k_extent, mx.step_dir), (32, -1));
    assert!(mx.validate(Arch::mariana).is_ok());
    // The bit-29 marker is byte 3's 0x20 on the index ADDR4 (§The byte map: "in EVERY form:
    // byte (INDEX_ADDR4 + 3).bit5 = 0x20").
    let g = INDIRECT16B::read(&[0, 0, 0, 0x20, 0, 0, 8, 0, 3, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(g.index_addr.indirect, 1);
    assert_eq!((g.data_addr.address, g.num_elem), (0x8_0000, 3));
}

#[test]
fn indirect_copy_ex_b_decodes_encodes_and_is_valid() {
    let bytes = vector("gather_ex_b.hex");
    let w = INDIRECT_COPY::decode(&bytes).expect("opcode 0xe7");
    assert_eq!(w.header.opcode, OPCODE::INDIRECT_COPY);
    // supp-dve-datamove rows +0x0C / +0x0F: the index ADDR4 with the bit-29 marker only.
    assert_eq!(w.index_addr, ADDR4::from_raw(0x2000_0000));
    // EX-B "data_addr = 0x2000_0008_0000 (SBUF)": the low 32 bits.
    assert_eq!(w.data_addr, ADDR4::from_raw(0x8_0000));
    // EX-B "src.i.p.num_elem = 24", FP32 in and out, 16 channels, 8 per index, 4096 buffer.
    assert_eq!(w.num_elem, 24);
    assert_eq!((w.in_dtype, w.out_dtype), (DTYPE::FP32, DTYPE::FP32));
    assert_eq!(w.num_active_channels, 16);
    assert_eq!(w.src_num_elem_per_idx, 8);
    assert_eq!(w.dst_num_elem_per_idx, 0);
    assert_eq!(w.src_buffer_size, 4096);
    // §7.1 row 44: the 20-byte TENSOR4D destination, EX-B's 24 elements, unit-filled.
    assert_eq!(w.dst_mem_pattern.start_addr, ADDR4::from_raw(0));
    assert_eq!(w.dst_mem_pattern.step_elem, [1, 1, 1, 1]);
    assert_eq!(w.dst_mem_pattern.num_elem, [24, 1, 1, 1]);
    assert_eq!(w.encode(), bytes);
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
        assert_eq!(w.broken(arch), Vec::<&str>::new(), "{arch:?}");
    }

    // What EX-B says of these values (§8.2, the §7.1 gather math): index count = num_elem /
    // src_num_elem_per_idx = 24 / 8 = 3 (<= 4096); t4d_element_count(dst) = 24 <= 1024 and
    // equals num_elem; the block byte stride is 8 elements x 4 B = 32 B, so index 17 reads
    // base + 0x220.
    let n = u32::from(w.src_num_elem_per_idx);
    assert_eq!((w.num_elem % n, w.num_elem / n), (0, 3));
    let dst: u32 = w
        .dst_mem_pattern
        .num_elem
        .iter()
        .map(|&x| u32::from(x))
        .product();
    assert_eq!(dst, w.num_elem);
    assert!(dst <= 1024);
    let block = n * 4;
    assert_eq!([2 * block, 0, 17 * block], [0x40, 0, 0x220]);
}

#[test]
fn indirect_copy_destination_is_twenty_bytes() {
    // The primary reading: +0x2C..+0x3F, TENSOR4D (§7.1 row 44, the Family C OUT slot, the 4D
    // size assert); the DVE page's 16 bytes stay an alternative (README conflict #8).
    let dst = INDIRECT_COPY::FIELDS
        .iter()
        .find(|f| f.name == "dst_mem_pattern")
        .unwrap();
    assert_eq!((dst.offset, dst.size, dst.type_name), (44, 20, "TENSOR4D"));
    assert_eq!(dst.alternatives[0].name, "dst_mem_pattern_16b");
    assert_eq!(dst.alternatives[0].type_name, "u8[16]");
    // The source must be the indirect variant and the destination a plain pattern (§7.1).
    let mut w = INDIRECT_COPY::decode(&vector("gather_ex_b.hex")).unwrap();
    w.dst_mem_pattern.start_addr = ADDR4::from_raw(0x2000_0000);
    assert_eq!(w.broken(Arch::cayman), ["dst_is_tensor_pattern"]);
    w.dst_mem_pattern.start_addr = ADDR4::from_raw(0);
    w.index_addr = ADDR4::from_raw(0x4000_0000);
    assert_eq!(w.broken(Arch::cayman), ["src_is_indirect_pattern"]);
    // 0xA0 (INDIRECT_REG) is the other accepted marker.
    w.index_addr = ADDR4::from_raw(0xA000_0000);
    assert!(w.validate(Arch::cayman).is_ok());
}

#[test]
fn ex_c_first_bound_register_combination_is_invalid() {
    // supp-gather-scatter §8.3: "with bc_disable_oob_error_notif==1 and idx_bound_is_err==0 the
    // predicate is FALSE, so this exact combination is invalid".
    let bytes = vector("gather_ex_c.hex");
    let w = DMA_INDIRECT1D::decode(&bytes).expect("opcode 0xbb");
    assert_eq!(
        w.flags.indirect_mode,
        INDIRECT_DMA_ADDRESSING_MODE::DST_INDIRECTION
    );
    assert_eq!(
        (w.flags.non_unique_dst_idx, w.flags.idx_bound_is_err),
        (1, 0)
    );
    assert_eq!(w.compute_op, DGE_COMPUTE_OP::ADD);
    assert_eq!(
        (w.dst_step_elem, w.dst_elem_size, w.dst_num_elem),
        (1, 4, 4)
    );
    assert_eq!(
        (
            w.dst_idx_bound_reg.bc_enabled,
            w.dst_idx_bound_reg.bc_disable_oob_error_notif
        ),
        (1, 1)
    );
    assert_eq!(w.encode(), bytes);
    let v = w.validate(Arch::cayman).unwrap_err();
    assert_eq!(
        v.leaves().map(|r| r.id).collect::<Vec<_>>(),
        ["idx_bound_error_or_notif_dst"]
    );
    assert!(v.contains("has_valid_idx_bound_check_reg_dst"));

    // "a real reimplementation must set idx_bound_is_err=1 or bc_disable_oob_error_notif=0.
    // Choosing idx_bound_is_err=1": valid; the other correction is valid too.
    for arch in [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick] {
        let mut fixed = w;
        fixed.flags.idx_bound_is_err = 1;
        assert_eq!(fixed.broken(arch), Vec::<&str>::new(), "{arch:?}");
        let mut other = w;
        other.dst_idx_bound_reg.bc_disable_oob_error_notif = 0;
        assert_eq!(other.broken(arch), Vec::<&str>::new(), "{arch:?}");
    }
}

#[test]
fn ex_d_gather_transpose_shape() {
    // supp-gather-scatter §8.4 EX-D on the 0xf1 vector built from it: BF16, src_num_elem
    // [128 (X), 64 (Y)], src_step_elem [1, 128], gather_dim Y, 64 indices (% 16 == 0),
    // dst_num_elem[0] == src_num_elem[Y] = 64, elem_size 2 * 128 = 256, dst_step_elem_1 % 32 == 0.
    let bytes = vector("dma_gather_xpose.hex");
    let w = DMA_GATHER_XPOSE::decode(&bytes).expect("opcode 0xf1");
    assert_eq!(w.src_num_elem, [128, 64]);
    assert_eq!(w.src_step_elem, [1, 128]);
    assert_eq!(w.flags.gather_dim, INDIRECT_DIM::Y);
    assert_eq!(w.src_num_elem[1] % 16, 0);
    assert_eq!(w.dst_num_elem[0], w.src_num_elem[1]);
    assert_eq!(w.elem_size, 256);
    assert_eq!(w.dst_step_elem_1 % 32, 0);
    assert_eq!(
        (w.dtype.dtype_lo, w.dtype.dtype_hi),
        (DTYPE::BFLOAT16, DTYPE::BFLOAT16)
    );
    // "64 indices -> 4 tiles of 16 rows".
    assert_eq!(w.src_num_elem[1] / 16, 4);
    assert_eq!(w.encode(), bytes);
    assert_eq!(w.broken(Arch::mariana), Vec::<&str>::new());
    // Cross-field: dst_num_elem[0] must == src_num_elem[Y].
    let mut bad = w;
    bad.dst_num_elem[0] = 48;
    assert!(bad.validate(Arch::mariana).is_err());
}

#[test]
fn destination_role_names_are_in_every_output() {
    // supp-quick-reference §4: "SRC operands use the TENSOR* name, DST operands the
    // byte-identical MEM_PATTERN* name (role, not layout)": one struct, two names.
    let root = common::root();
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let c = read("generated/c/aws_neuron_isa_tpb_common.h");
    let types = read("generated/docs/types.md");
    for n in ['2', '3', '4'] {
        assert!(
            c.contains(&format!(
                "typedef NEURON_ISA_TPB_TENSOR{n}D NEURON_ISA_TPB_MEM_PATTERN{n}D;"
            )),
            "C typedef MEM_PATTERN{n}D"
        );
        assert!(
            types.contains(&format!("- **Also named:** `MEM_PATTERN{n}D`")),
            "types.md MEM_PATTERN{n}D"
        );
    }
}
