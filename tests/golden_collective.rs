//! Golden vector for the collective data mover 0xBF S3D3_COLLECTIVE (tests/vectors/
//! s3d3_collective.hex), written by hand from the table of the wiki page "S3D3 Collective
//! (SB2SB, `0xBF`)" §2 / §3, not produced by our encoder. The tests decode it, check every
//! field against the row it comes from, re-encode it byte-exact, and check that the
//! validator the page gives rejects each value it names as invalid.

mod common;

use common::vector;
use dmaspec::words::*;

fn golden() -> S3D3_COLLECTIVE {
    S3D3_COLLECTIVE::decode(&vector("s3d3_collective.hex")).expect("opcode 0xbf")
}

/// The ids of the leaf rules `w` breaks on cayman (NC-v3).
fn broken(w: &S3D3_COLLECTIVE) -> Vec<&'static str> {
    match w.validate(Arch::cayman) {
        Ok(()) => Vec::new(),
        Err(v) => v.leaves().map(|r| r.id).collect(),
    }
}

#[test]
fn s3d3_collective_decodes_every_row() {
    let bytes = vector("s3d3_collective.hex");
    let w = golden();
    // §2 row "0 4 header": opcode 0xBF.
    assert_eq!(w.header.opcode, OPCODE::SB2SB_COLLECTIVE);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!((w.header.debug_cmd, w.header.debug_hint), (0, 0));
    // §2 row "4 8 events".
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    assert_eq!(w.events.wait_idx, 1);
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    assert_eq!(w.events.update_idx, 2);
    assert_eq!(w.events.semaphore_value, 16);
    // §2 rows "12 1 in_dtype", "13 1 out_dtype", "14 2 reserved0[2]".
    assert_eq!(w.in_dtype, DTYPE::BFLOAT16);
    assert_eq!(w.out_dtype, DTYPE::BFLOAT16);
    assert_eq!(w.reserved0, [0, 0]);
    // §2 row "16 16 src_mem_pattern"; §3 TENSOR3D start_addr@0, step_elem@4, num_elem@10.
    let src = &w.src_mem_pattern;
    assert_eq!(src.start_addr.address, 0x100);
    assert_eq!(src.start_addr.register_mode, 0);
    assert_eq!(src.step_elem, [1, 16, 64]);
    assert_eq!(src.num_elem, [16, 4, 4]);
    // §2 rows "32 1 lnc_size_fmt" (§7.1 LNC2 = 1), "33 1 num_active_channels".
    assert_eq!(w.lnc_size_fmt, LNC_SIZE_FMT::LNC2);
    assert_eq!(w.num_active_channels, 16);
    // §2 row "34 14 reserved1[14]": 34..47 as compiled (the CORRECTION box).
    assert_eq!(w.reserved1, [0; 14]);
    // §2 row "48 16 dst_mem_pattern": the signed outer stride reads back as -64.
    let dst = &w.dst_mem_pattern;
    assert_eq!(dst.start_addr.address, 0x1_0000);
    assert_eq!(dst.step_elem, [1, 16, -64]);
    assert_eq!(dst.num_elem, [16, 4, 4]);
    // Byte-exact re-encode.
    assert_eq!(w.encode(), bytes);
    // The page's validator accepts it on the three architectures that ship 0xBF.
    for arch in [Arch::cayman, Arch::mariana, Arch::maverick] {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
    }
}

#[test]
fn s3d3_collective_layout_is_the_compiled_one() {
    // §2: the gcc probe and the DWARF put reserved1 at 34 (not the header comment's 35) and
    // dst_mem_pattern at 48; TENSOR3D is 16 bytes (probe "sizeof TENSOR3D=16").
    let at = |name: &str| {
        S3D3_COLLECTIVE::META
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (f.offset, f.size))
    };
    assert_eq!(at("num_active_channels"), Some((33, 1)));
    assert_eq!(at("reserved1"), Some((34, 14)));
    assert_eq!(at("dst_mem_pattern"), Some((48, 16)));
    let conflict = CONFLICTS
        .iter()
        .find(|c| c.name == "s3d3_collective_reserved1_span")
        .expect("the header-comment off-by-one is recorded");
    assert_eq!(conflict.readings.len(), 2);
}

#[test]
fn s3d3_collective_validator_rejects_what_the_page_names() {
    // §5 dtype_equality_check: in_dtype == out_dtype.
    let mut w = golden();
    w.out_dtype = DTYPE::FP16;
    assert_eq!(broken(&w), ["dtype_equality_check"]);
    // §7.1 has_valid_LncSizefmt: LNC4 and LNC8 rejected.
    for fmt in [LNC_SIZE_FMT::LNC4, LNC_SIZE_FMT::LNC8] {
        let mut w = golden();
        w.lnc_size_fmt = fmt;
        assert_eq!(broken(&w), ["has_valid_LncSizefmt"]);
    }
    // §7.2 check_active_ports: 1..128.
    for n in [0, 129] {
        let mut w = golden();
        w.num_active_channels = n;
        assert_eq!(broken(&w), ["check_active_ports"]);
    }
    // §3.4 size_check_src: 16 x 4 x 5 = 320 > 256 elements; the dst has no cap.
    let mut w = golden();
    w.src_mem_pattern.num_elem = [16, 4, 5];
    assert_eq!(broken(&w), ["size_check_src"]);
    let mut w = golden();
    w.dst_mem_pattern.num_elem = [16, 4, 5];
    assert_eq!(broken(&w), Vec::<&str>::new());
    // §3.3 tensor3d_valid: num_elem[d] >= 1; PSUM (bit 25) not allowed.
    let mut w = golden();
    w.dst_mem_pattern.num_elem[1] = 0;
    assert_eq!(broken(&w), ["dst_num_elem_nonzero"]);
    let mut w = golden();
    w.src_mem_pattern.start_addr.address = 0x200_0000;
    assert_eq!(broken(&w), ["src_start_addr_in_sbuf"]);
    // §2 reserved0 == 0, reserved1[0..13] == 0.
    let mut w = golden();
    w.reserved0[1] = 1;
    assert_eq!(broken(&w), ["reserved0_is_zero"]);
    let mut w = golden();
    w.reserved1[13] = 1;
    assert_eq!(broken(&w), ["reserved1_high_half_is_zero"]);
    // §5 has_valid_nc_sb2sb_collective: nc >= V3, so sunda rejects the word.
    assert!(golden().validate(Arch::sunda).is_err());
}
