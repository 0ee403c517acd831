//! `dmaspec lower` and the lowering engine: every dge_op, both ABI versions, the missing
//! extension, the bad dge_op, the priority-class placement of every kind, variable
//! resolution and its error, pass-through, the orphan extension, and the CLI's outputs.
//!
//! Inputs are built by hand from seed-004's tables: the pseudo from §5.1 (DIRECT2D's §2
//! layout with dge_op@15 and PSEUDO_ADDR8 addresses), the extension from §5.2. Expected real
//! words are written out byte by byte from the real words' tables (§2 DIRECT2D, §3
//! INDIRECT1D, §4 GATHER_XPOSE, §4's GOTCHA / supp-dge-microop §2.2 DIRECT2D_XPOSE), not read
//! from the generated tables, so they check the spec's mappings against the sources.
//!
//! Last, random streams through the lowering contract of `tests/common/lower_props.rs`, the
//! bounded run of the `lower` fuzz target.

mod common;

use common::{assert_success, dmaspec, lower_props, model, vector};
use dmaspec::lower::{Item, LowerError, Lowerer, StreamError, lower_one};
use dmaspec::runtime::lowering::{
    ApplyError, ExtensionUse, NoVariables, Source, Transform, Variables, apply,
};
use dmaspec::runtime::wire::put;
use dmaspec::stream::Leads;
use dmaspec::words::{Arch, LOWERINGS, WORDS};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;

// ---- inputs -----------------------------------------------------------------------------

/// A PSEUDO_DMA_DIRECT2D (seed-004 §5.1 / §2 rows) with `dge_op` at +15. Every field has a
/// distinct value so that a misplaced copy shows. dma_configs carries priority class 3 and
/// set upper bits (the compiler keeps them, seed 000), which must not reach the real word.
fn pseudo(dge_op: u8) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[0] = 0xd4; // header.opcode PSEUDO_DMA_DIRECT2D
    b[1] = 0x10; // inst_word_len
    b[2] = 0xd1; // debug_cmd
    b[3] = 0xd2; // debug_hint
    b[4..12].copy_from_slice(&[0x04, 2, 0x13, 4, 1, 0, 0, 0]); // events
    b[12] = 0xf8 | 3; // dma_configs: priority_class 3, upper bits set
    b[13] = 10; // semaphore
    b[14] = 1; // sem_increment
    b[15] = dge_op;
    // src_start_addr: immediate (marker 0x00), address 0x1000
    b[16..24].copy_from_slice(&[0x00, 0x10, 0, 0, 0, 0, 0, 0x00]);
    b[24..28].copy_from_slice(&2i32.to_le_bytes()); // src_step_elem[0]
    b[28..32].copy_from_slice(&256i32.to_le_bytes()); // src_step_elem[1]
    b[32..34].copy_from_slice(&16u16.to_le_bytes()); // src_num_elem[0]
    b[34..36].copy_from_slice(&64u16.to_le_bytes()); // src_num_elem[1]
    b[36..38].copy_from_slice(&2u16.to_le_bytes()); // src_elem_size
    b[38] = 0x82; // src_bound_reg: bc_reg 2, enabled
    b[39] = 0x83; // dst_bound_reg: bc_reg 3, enabled
    // dst_start_addr: DGE table, offset register (marker 0x28): RegId 3, table entry 7
    b[40..48].copy_from_slice(&[3, 0, 0, 0, 7, 0, 0, 0x28]);
    b[48..52].copy_from_slice(&1i32.to_le_bytes()); // dst_step_elem[0]
    b[52..56].copy_from_slice(&32i32.to_le_bytes()); // dst_step_elem[1]
    b[56..58].copy_from_slice(&64u16.to_le_bytes()); // dst_num_elem[0]
    b[58..60].copy_from_slice(&16u16.to_le_bytes()); // dst_num_elem[1]
    b[60..62].copy_from_slice(&2u16.to_le_bytes()); // dst_elem_size
    b[62] = 6; // in_dtype BFLOAT16
    b[63] = 6; // out_dtype BFLOAT16
    b
}

/// A PSEUDO_DMA_EXT (seed-004 §5.2 rows; flags per §3.1).
fn ext() -> [u8; 64] {
    let mut b = [0u8; 64];
    b[0] = 0xda;
    // flags: indirect_mode DST (1), non_unique_dst_idx (bit 3), gather_dim Y (bits 4..5 = 1)
    b[1] = 0x19;
    b[2] = 128; // idx_num_active_channels
    b[3] = 1; // compute_op ADD
    b[4..8].copy_from_slice(&0x400u32.to_le_bytes()); // src_idx_start_addr
    b[8..12].copy_from_slice(&0x800u32.to_le_bytes()); // dst_idx_start_addr
    b[12..16].copy_from_slice(&4096u32.to_le_bytes()); // src_bound_size_bytes
    b[16..20].copy_from_slice(&2048u32.to_le_bytes()); // dst_bound_size_bytes
    b[20..24].copy_from_slice(&128i32.to_le_bytes()); // tile_src_row_step
    b[24] = 16; // tile_src_rows
    b[25] = 128; // tile_src_cols
    b
}

/// A DMA_DIRECT2D (0xb8), a real word: passes through.
fn real_direct2d() -> [u8; 64] {
    let mut b = pseudo(0);
    b[0] = 0xb8;
    b[12] = 0x02;
    b[15] = 0x01; // compute_op ADD
    b
}

// ---- expected real words (seed-004 §2, §3, §4 tables) ---------------------------------

fn expected(dge_op: u8) -> [u8; 64] {
    let p = pseudo(dge_op);
    let e = ext();
    let mut b = [0u8; 64];
    match dge_op {
        // §2: the same layout; opcode 0xb8, compute_op@15 NONE, dma_configs@12 = class only.
        0 => {
            b = p;
            b[0] = 0xb8;
            b[12] = 3;
            b[15] = 0;
        }
        // §3 INDIRECT1D
        1 => {
            b[0..4].copy_from_slice(&[0xbb, 0x10, 0xd1, 0xd2]);
            b[4..12].copy_from_slice(&p[4..12]);
            b[12] = 10; // semaphore
            b[13] = 1; // sem_increment
            b[14] = 128; // idx_num_active_channels (ext)
            b[15] = 0x19; // flags (ext)
            b[16..24].copy_from_slice(&p[16..24]); // src_start_addr
            b[24..28].copy_from_slice(&2i32.to_le_bytes()); // src_step_elem = [0]
            b[28..30].copy_from_slice(&16u16.to_le_bytes()); // src_num_elem = [0]
            b[30..32].copy_from_slice(&2u16.to_le_bytes()); // src_elem_size
            b[32..40].copy_from_slice(&p[40..48]); // dst_start_addr
            b[40..44].copy_from_slice(&1i32.to_le_bytes()); // dst_step_elem = [0]
            b[44..46].copy_from_slice(&64u16.to_le_bytes()); // dst_num_elem = [0]
            b[46..48].copy_from_slice(&2u16.to_le_bytes()); // dst_elem_size
            b[48..52].copy_from_slice(&e[4..8]); // src_idx_start_addr (ext)
            b[52..56].copy_from_slice(&e[8..12]); // dst_idx_start_addr (ext)
            b[56] = 6; // in_dtype
            b[57] = 6; // out_dtype
            b[58] = 0x82; // src_idx_bound_reg <- src_bound_reg (§6.3)
            b[59] = 0x83; // dst_idx_bound_reg <- dst_bound_reg
            b[60] = 1; // compute_op (ext)
            b[61] = 3; // dma_configs: class 3
        }
        // DIRECT2D_XPOSE (§4 GOTCHA, supp-dge-microop §2.2)
        2 => {
            b[0..4].copy_from_slice(&[0xbd, 0x10, 0xd1, 0xd2]);
            b[4..12].copy_from_slice(&p[4..12]);
            b[12] = 0x82; // src_bound_reg
            b[13] = 0x83; // dst_bound_reg
            b[14] = 6; // in_dtype
            b[15] = 6; // out_dtype
            b[16..36].copy_from_slice(&p[16..36]); // src addr, steps, nums
            b[36..40].copy_from_slice(&128i32.to_le_bytes()); // tile_src_row_step (ext)
            b[40..60].copy_from_slice(&p[40..60]); // dst addr, steps, nums
            b[60] = 16; // tile_src_rows (ext)
            b[61] = 128; // tile_src_cols (ext)
            b[62] = 10; // semaphore
            b[63] = 3; // dma_configs: class 3
        }
        // §4 GATHER_XPOSE
        3 => {
            b[0..4].copy_from_slice(&[0xf1, 0x10, 0xd1, 0xd2]);
            b[4..12].copy_from_slice(&p[4..12]);
            b[12] = 10; // semaphore
            b[13] = 3; // dma_configs: class 3
            b[14] = 128; // idx_num_active_channels (ext)
            b[15] = 0x82; // src_idx_bound_reg <- src_bound_reg
            b[16..36].copy_from_slice(&p[16..36]); // src addr, steps, nums
            b[36..40].copy_from_slice(&e[4..8]); // src_idx_start_addr (ext)
            b[40..48].copy_from_slice(&p[40..48]); // dst_start_addr
            b[51] = 0x83; // dst_bound_reg
            b[52..56].copy_from_slice(&32i32.to_le_bytes()); // dst_step_elem_1 = [1]
            b[56..60].copy_from_slice(&p[56..60]); // dst_num_elem
            b[60..62].copy_from_slice(&2u16.to_le_bytes()); // elem_size
            b[62] = 0x66; // dtype pair: lo BF16, hi BF16
            b[63] = 0x01; // flags.gather_dim Y (ext flags bits 4..5)
        }
        _ => unreachable!(),
    }
    b
}

/// Where each kind's dma_configs sits (seed-004 §6.1).
const PRIORITY_OFFSET: [(u8, usize); 4] = [(0, 12), (1, 61), (2, 63), (3, 13)];

// ---- running ------------------------------------------------------------------------------

fn run(words: &[[u8; 64]], abi: Option<&str>, arch: Arch, vars: &dyn Variables) -> Vec<Item> {
    let mut l = Lowerer::new(arch, abi, vars).expect("a known abi");
    let mut out = Vec::new();
    for w in words {
        out.extend(l.push(w));
    }
    out.extend(l.finish());
    out
}

fn lowered(item: &Item) -> &dmaspec::lower::Lowered {
    match item {
        Item::Lowered { lowered, .. } => lowered,
        other => panic!("expected a lowered word, got {other:?}"),
    }
}

fn failed(item: &Item) -> String {
    match item {
        Item::Failed { error, .. } => error.to_string(),
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn pair(dge_op: u8) -> Vec<[u8; 64]> {
    if dge_op == 0 {
        vec![pseudo(0)]
    } else {
        vec![pseudo(dge_op), ext()]
    }
}

// ---- every dge_op, both ABIs ---------------------------------------------------------------

#[test]
fn every_dge_op_lowers_to_its_real_word_under_both_abis() {
    for abi in ["v2", "v3"] {
        for op in 0..4u8 {
            let items = run(&pair(op), Some(abi), Arch::cayman, &NoVariables);
            assert_eq!(items.len(), 1, "abi {abi} dge_op {op}: {items:?}");
            let l = lowered(&items[0]);
            assert_eq!(
                l.bytes,
                expected(op),
                "abi {abi} dge_op {op}: produced {:02x?}",
                l.bytes
            );
            assert_eq!(l.abi.name, abi);
            let route = l.route.expect("every kind has a route per abi");
            assert_eq!(
                route.via[0], l.abi.entry,
                "the route starts at the dispatcher"
            );
            // The produced word decodes as the real word.
            let w = dmaspec::Word::decode(&l.bytes, Arch::cayman).expect("a known word");
            assert_eq!(w.meta().name, l.kind.to);
            if let Item::Lowered { index, ext, .. } = items[0] {
                assert_eq!(index, 0);
                assert_eq!(ext, (op != 0).then_some(1));
            }
        }
    }
}

#[test]
fn v2_hands_the_transposes_to_the_v3_dispatcher() {
    for (op, builder) in [
        (2u8, "translate_pseudo_dma_direct2d_xpose_instr_v3"),
        (3, "translate_pseudo_dma_gather_xpose_instr_v3"),
    ] {
        let v2 = run(&pair(op), Some("v2"), Arch::cayman, &NoVariables);
        let v3 = run(&pair(op), Some("v3"), Arch::cayman, &NoVariables);
        let r2 = lowered(&v2[0]).route.unwrap();
        let r3 = lowered(&v3[0]).route.unwrap();
        assert_eq!(
            r2.via,
            [
                "translate_one_pseudo_dge_instr_v2",
                "translate_one_pseudo_dge_instr_v3",
                builder
            ]
        );
        assert_eq!(r3.via, ["translate_one_pseudo_dge_instr_v3", builder]);
        assert_eq!(lowered(&v2[0]).bytes, lowered(&v3[0]).bytes);
    }
    // dge_op 0 and 1 stay in the v2 dispatcher.
    for op in [0u8, 1] {
        let v2 = run(&pair(op), Some("v2"), Arch::cayman, &NoVariables);
        assert_eq!(
            lowered(&v2[0]).route.unwrap().via,
            ["translate_one_pseudo_dge_instr_v2"]
        );
    }
}

#[test]
fn the_default_abi_is_v3() {
    let items = run(&pair(1), None, Arch::cayman, &NoVariables);
    assert_eq!(lowered(&items[0]).abi.name, "v3");
    assert!(Lowerer::new(Arch::cayman, Some("v9"), &NoVariables).is_err());
}

#[test]
fn the_golden_vectors_lower_to_an_indirect1d() {
    let p = vector("pseudo_dma_direct2d.hex");
    let e = vector("pseudo_dma_ext.hex");
    // Its source is variable 0 + immediate 2.
    let vars = |id: u64| (id == 0).then_some(0x4000_0000u64);
    let items = run(&[p, e], None, Arch::cayman, &vars);
    let l = lowered(&items[0]);
    let b = l.bytes;
    assert_eq!(b[0], 0xbb);
    assert_eq!(b[12], 0x0a, "semaphore 10");
    assert_eq!(b[13], 0x01, "sem_increment 1");
    assert_eq!(
        b[14], 0x80,
        "idx_num_active_channels 128 from the extension"
    );
    assert_eq!(b[15], 0x0d, "flags from the extension");
    assert_eq!(
        &b[16..24],
        &[2, 0, 0, 0x40, 0, 0, 0, 0x00],
        "0x40000000 + 2"
    );
    assert_eq!(&b[32..40], &p[40..48], "the table address passes through");
    assert_eq!(&b[52..56], &[0, 8, 0, 0], "dst_idx_start_addr 0x800");
    assert_eq!(b[58], 0x82, "src_idx_bound_reg from src_bound_reg");
    assert_eq!(b[60], 1, "compute_op ADD from the extension");
    assert_eq!(b[61], 3, "priority class 3");
}

// ---- errors -----------------------------------------------------------------------------

#[test]
fn a_missing_extension_is_the_runtimes_error() {
    for abi in ["v2", "v3"] {
        // At the end of the stream.
        let items = run(&[pseudo(1)], Some(abi), Arch::cayman, &NoVariables);
        assert_eq!(items.len(), 1);
        assert_eq!(
            failed(&items[0]),
            "Pseudo dma indirect1d instruction must be followed by extension"
        );
        // Followed by another word: that word still passes through.
        let items = run(
            &[pseudo(1), real_direct2d()],
            Some(abi),
            Arch::cayman,
            &NoVariables,
        );
        assert_eq!(items.len(), 2);
        assert!(matches!(
            items[0],
            Item::Failed {
                index: 0,
                ext: None,
                error: StreamError::Lower(LowerError::MissingExtension { .. }),
                ..
            }
        ));
        assert_eq!(items[1].bytes(), Some(&real_direct2d()));
    }
    // The transposes need it too; their message is dmaspec's and tagged INFERRED.
    for op in [2u8, 3] {
        let items = run(&[pseudo(op)], None, Arch::cayman, &NoVariables);
        let Item::Failed {
            error: StreamError::Lower(LowerError::MissingExtension { message, .. }),
            ..
        } = items[0]
        else {
            panic!("{items:?}")
        };
        assert!(message.inferred, "not the runtime's own wording");
    }
}

#[test]
fn a_bad_dge_op_is_unsupported() {
    for abi in ["v2", "v3"] {
        for op in [4u8, 7, 0xff] {
            let items = run(&[pseudo(op)], Some(abi), Arch::cayman, &NoVariables);
            assert_eq!(
                failed(&items[0]),
                format!("Unsupported dynamic dma opcode {op}")
            );
            // An extension after it still belongs to it (it is not an orphan).
            let items = run(&[pseudo(op), ext()], Some(abi), Arch::cayman, &NoVariables);
            assert_eq!(items.len(), 1);
            assert!(matches!(items[0], Item::Failed { ext: Some(1), .. }));
        }
    }
}

#[test]
fn a_transpose_on_sunda_is_reported() {
    let items = run(&pair(2), None, Arch::sunda, &NoVariables);
    assert_eq!(
        failed(&items[0]),
        "dge_op 2 (DMA_TRANSPOSE) lowers to DMA_DIRECT2D_XPOSE, which sunda does not have"
    );
    // dge_op 0 and 1 exist there.
    assert!(matches!(
        run(&pair(1), None, Arch::sunda, &NoVariables)[0],
        Item::Lowered { .. }
    ));
}

#[test]
fn a_dtype_that_does_not_fit_the_pair_nibble_is_an_error() {
    let mut p = pseudo(3);
    p[62] = 0x1a;
    let items = run(&[p, ext()], None, Arch::cayman, &NoVariables);
    let msg = failed(&items[0]);
    assert!(msg.contains("dtype.dtype_lo"), "{msg}");
}

// ---- priority class ---------------------------------------------------------------------

#[test]
fn the_priority_class_lands_at_each_kinds_offset_keeping_the_upper_bits() {
    let l = &LOWERINGS[0];
    for (op, at) in PRIORITY_OFFSET {
        for class in 0..8u8 {
            let mut p = pseudo(op);
            p[12] = 0xf8 | class; // the pseudo's upper bits must not travel
            let items = run(
                &[p, ext()][..if op == 0 { 1 } else { 2 }],
                None,
                Arch::cayman,
                &NoVariables,
            );
            let out = lowered(&items[0]).bytes;
            assert_eq!(out[at] & 0x07, class, "dge_op {op}: class at +{at}");
            assert_eq!(
                out[at] & 0xf8,
                0,
                "dge_op {op}: upper bits from the template"
            );

            // Onto a destination whose upper five bits are set: they stay.
            let kind = l.kind(u64::from(op)).unwrap();
            let m = kind
                .mappings
                .iter()
                .find(|m| m.to.path == "dma_configs.priority_class")
                .expect("every kind copies the priority class");
            assert_eq!(m.to.offset, at, "dge_op {op}");
            assert_eq!(m.to.bits, Some((0, 3)));
            assert!(!m.inferred, "the sources state the per-kind copy");
            let mut dest = *kind.template;
            dest[at] = 0b1010_1000;
            dmaspec::runtime::lowering::apply_one(m, &p, Some(&ext()), &NoVariables, &mut dest)
                .unwrap();
            assert_eq!(dest[at], 0b1010_1000 | class, "dge_op {op}");
        }
    }
}

// ---- addresses ---------------------------------------------------------------------------

/// A pseudo whose source is variable `var` + `imm`, with marker `marker`.
fn with_var(op: u8, marker: u8, var: u32, imm: u32) -> [u8; 64] {
    let mut p = pseudo(op);
    p[16..20].copy_from_slice(&imm.to_le_bytes());
    p[20..22].copy_from_slice(&(var as u16).to_le_bytes());
    p[22] = (var >> 16) as u8;
    p[23] = marker;
    p
}

#[test]
fn variable_addresses_are_resolved_and_immediates_pass_through() {
    let vars = |id: u64| (id == 0x01_2345).then_some(0x10_0000_0000u64);
    for op in 0..4u8 {
        let src = with_var(op, 0x10, 0x01_2345, 0x40);
        let mut words = vec![src];
        if op != 0 {
            words.push(ext());
        }
        let out = lowered(&run(&words, None, Arch::cayman, &vars)[0]).bytes;
        // src_start_addr is at +16 in all four real words.
        let addr = 0x10_0000_0040u64.to_le_bytes();
        assert_eq!(&out[16..23], &addr[..7], "dge_op {op}");
        assert_eq!(out[23], 0x00, "VAR_ID cleared from the marker");
    }
    // Other marker bits stay (SHAPE_REG | VAR_ID -> SHAPE_REG).
    let out = lowered(
        &run(
            &[with_var(0, 0x50, 0x01_2345, 0)],
            None,
            Arch::cayman,
            &vars,
        )[0],
    )
    .bytes;
    assert_eq!(out[23], 0x40);
    // The immediate and table addresses of pseudo() pass through unchanged.
    let out = lowered(&run(&[pseudo(0)], None, Arch::cayman, &NoVariables)[0]).bytes;
    assert_eq!(&out[16..24], &pseudo(0)[16..24]);
    assert_eq!(&out[40..48], &pseudo(0)[40..48]);
}

#[test]
fn an_unresolved_variable_names_the_variable() {
    let vars = |id: u64| (id == 1).then_some(0x1000u64);
    let words = [real_direct2d(), with_var(1, 0x10, 0x01_2345, 8), ext()];
    let items = run(&words, None, Arch::cayman, &vars);
    assert_eq!(items.len(), 2);
    let Item::Failed {
        index,
        offset,
        error: StreamError::Lower(LowerError::Apply(ApplyError::UnresolvedVariable { var_id, .. })),
        ..
    } = items[1]
    else {
        panic!("{:?}", items[1])
    };
    assert_eq!((index, offset, var_id), (1, 64, 0x01_2345));
    assert!(failed(&items[1]).contains("variable 74565"));
    // An address that does not fit below the marker.
    let vars = |_id: u64| Some(0xff_ffff_ffff_ffffu64);
    let items = run(&[with_var(0, 0x10, 5, 1)], None, Arch::cayman, &vars);
    assert!(matches!(
        items[0],
        Item::Failed {
            error: StreamError::Lower(LowerError::Apply(ApplyError::AddressOverflow { .. })),
            ..
        }
    ));
}

// ---- the stream ----------------------------------------------------------------------------

#[test]
fn non_pseudo_words_pass_through_unchanged() {
    let mut unknown = [0u8; 64];
    unknown[0] = 0x42;
    unknown[7] = 0x99;
    let full_ind = vector("pseudo_dmamemcpy_full_ind.hex");
    let indirect = vector("dma_indirect1d.hex");
    let words = [real_direct2d(), unknown, full_ind, indirect];
    let items = run(&words, None, Arch::cayman, &NoVariables);
    assert_eq!(items.len(), 4);
    for (i, (item, w)) in items.iter().zip(&words).enumerate() {
        assert!(
            matches!(item, Item::Passed { index, .. } if *index == i),
            "{item:?}"
        );
        assert_eq!(item.bytes(), Some(w));
    }
}

#[test]
fn an_orphan_extension_is_reported_not_guessed() {
    // At the start, and after a word that is not the pseudo.
    for words in [
        vec![ext()],
        vec![real_direct2d(), ext()],
        vec![pseudo(1), ext(), ext()],
    ] {
        let items = run(&words, None, Arch::cayman, &NoVariables);
        let last = items.last().unwrap();
        assert!(
            matches!(
                last,
                Item::Failed {
                    ext: None,
                    error: StreamError::Orphan {
                        name: "PSEUDO_DMA_EXT",
                        follows: Leads(["PSEUDO_DMA_DIRECT2D"]),
                    },
                    ..
                }
            ),
            "{items:?}"
        );
        assert_eq!(items.len(), words.len() - usize::from(words.len() == 3));
    }
}

#[test]
fn an_extension_after_a_direct2d_pseudo_is_consumed_not_read() {
    let items = run(&[pseudo(0), ext()], None, Arch::cayman, &NoVariables);
    assert_eq!(items.len(), 1);
    assert!(matches!(
        items[0],
        Item::Lowered {
            index: 0,
            ext: Some(1),
            ..
        }
    ));
    assert_eq!(lowered(&items[0]).bytes, expected(0));
}

#[test]
fn lower_one_is_the_same_engine() {
    let l = &LOWERINGS[0];
    let abi = l.default_abi();
    let out = lower_one(l, abi, Arch::cayman, &pseudo(1), Some(&ext()), &NoVariables).unwrap();
    assert_eq!(out.bytes, expected(1));
    // apply onto the template gives the same.
    let mut dest = *out.kind.template;
    apply(out.kind, &pseudo(1), Some(&ext()), &NoVariables, &mut dest).unwrap();
    assert_eq!(dest, expected(1));
}

// ---- the table itself ----------------------------------------------------------------------

#[test]
fn the_table_is_the_sources_dispatch() {
    assert_eq!(LOWERINGS.len(), 1);
    let l = &LOWERINGS[0];
    assert_eq!((l.from, l.from_opcode), ("PSEUDO_DMA_DIRECT2D", 0xd4));
    assert_eq!((l.selector.path, l.selector.offset), ("dge_op", 15));
    assert_eq!(l.extension, Some("PSEUDO_DMA_EXT"));
    assert_eq!(l.unsupported.text, "Unsupported dynamic dma opcode %u");
    let kinds: Vec<(u64, &str, u8, ExtensionUse)> = l
        .kinds
        .iter()
        .map(|k| (k.value, k.to, k.to_opcode, k.extension))
        .collect();
    assert_eq!(
        kinds,
        [
            (0, "DMA_DIRECT2D", 0xb8, ExtensionUse::Ignored),
            (1, "DMA_INDIRECT1D", 0xbb, ExtensionUse::Required),
            (2, "DMA_DIRECT2D_XPOSE", 0xbd, ExtensionUse::Required),
            (3, "DMA_GATHER_XPOSE", 0xf1, ExtensionUse::Required),
        ]
    );
    let indirect = l.kind(1).unwrap();
    let missing = indirect.missing_extension.unwrap();
    assert_eq!(
        missing.text,
        "Pseudo dma indirect1d instruction must be followed by extension"
    );
    assert!(!missing.inferred);
    // ext.flags is read at extension offset 1 (seed-004 §5.3, 322d12); the store into
    // flags@15 is not shown (seed-004 §11), so the copy is INFERRED.
    let flags = indirect
        .mappings
        .iter()
        .find(|m| m.to.path == "flags")
        .unwrap();
    assert!(matches!(flags.source, Source::Ext(p) if p.offset == 1 && p.path == "flags"));
    assert!(flags.inferred);
    for k in l.kinds {
        assert_eq!(k.routes.len(), 2);
        for m in k.mappings {
            assert!(!m.evidence.is_empty(), "{} {}", k.name, m.to.path);
            assert_eq!(
                m.inferred,
                m.confidence.tag.contains("INFERRED"),
                "{} {}",
                k.name,
                m.to.path
            );
            if m.inferred {
                assert!(
                    m.note.is_some(),
                    "{} {}: an INFERRED mapping says why",
                    k.name,
                    m.to.path
                );
            }
            if matches!(m.via, Transform::ResolveAddr(_)) {
                assert!(
                    m.inferred,
                    "the resolved address layout is not in the sources"
                );
            }
        }
    }
}

#[test]
fn the_docs_page_lists_every_kind_and_mapping() {
    let model = model();
    let pages = dmaspec_codegen::emit::markdown::render(&model);
    let page = &pages
        .iter()
        .find(|(p, _)| p == "docs/lowering.md")
        .expect("a lowering page")
        .1;
    for l in &model.lowerings {
        for k in &l.kinds {
            let heading = format!(
                "### {} {} ({}) → {} (`0x{:02X}`)",
                l.selector.path, k.value, k.name, k.to, k.to_opcode
            );
            let start = page
                .find(&heading)
                .unwrap_or_else(|| panic!("no section `{heading}`"));
            let end = page[start + 4..]
                .find("\n### ")
                .map_or(page.len(), |e| start + 4 + e);
            let section = &page[start..end];
            let inferred = k.mappings.iter().filter(|m| m.inferred).count();
            assert!(section.contains(&format!(
                "{} mappings, {inferred} of them **INFERRED**",
                k.mappings.len()
            )));
            for m in &k.mappings {
                let cell = format!("| `{}`<br>+{}", m.to.path, m.to.offset);
                let row = section
                    .lines()
                    .find(|line| line.starts_with(&cell))
                    .unwrap_or_else(|| panic!("{} {}", k.name, m.to.path));
                assert!(row.contains(&m.confidence.tag), "{row}");
                assert_eq!(row.contains("**INFERRED**"), m.inferred, "{row}");
            }
        }
    }
    let index = &pages.iter().find(|(p, _)| p == "docs/README.md").unwrap().1;
    assert!(index.contains("(lowering.md)"));
}

// ---- the CLI -----------------------------------------------------------------------------

fn concat(words: &[[u8; 64]]) -> Vec<u8> {
    words.iter().flatten().copied().collect()
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-lower-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn cli_binary_and_hex() {
    let input = concat(&[pseudo(1), ext(), real_direct2d(), pseudo(2), ext()]);
    let out = dmaspec(&["lower"], &input);
    assert_success(&out);
    assert_eq!(
        out.stdout,
        concat(&[expected(1), real_direct2d(), expected(2)])
    );

    let hex: String = input
        .chunks(64)
        .map(|w| w.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let out = dmaspec(&["lower", "--hex", "--abi", "v2"], hex.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        expected(1)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
}

/// Binary output stops at the first word that cannot be lowered (the words before it are
/// written as they come, so memory does not grow with the stream); every problem is listed.
#[test]
fn cli_errors_stop_the_output_and_exit_1() {
    let input = concat(&[
        real_direct2d(),
        pseudo(1),
        pseudo(9),
        ext(),
        real_direct2d(),
    ]);
    let out = dmaspec(&["lower"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout,
        real_direct2d(),
        "the words before the first error"
    );
    let out = dmaspec(&["lower"], &concat(&[pseudo(9), ext(), real_direct2d()]));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing before the first error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing written; 1 problem(s)"));
    let out = dmaspec(&["lower"], &input);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("word #1 at byte offset 64 (0x40): Pseudo dma indirect1d instruction must be followed by extension"),
        "{err}"
    );
    assert!(
        err.contains("word #2 at byte offset 128 (0x80) (with its extension #3): Unsupported dynamic dma opcode 9"),
        "{err}"
    );
    // Orphan extension.
    let out = dmaspec(&["lower"], &concat(&[ext()]));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("PSEUDO_DMA_EXT must immediately follow PSEUDO_DMA_DIRECT2D")
    );
    // Unknown abi: a usage error.
    let out = dmaspec(&["lower", "--abi", "v7"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("one of: v2, v3"));
}

#[test]
fn cli_vars_toml_and_json() {
    let words = concat(&[real_direct2d(), with_var(0, 0x10, 7, 0x10)]);
    let toml = temp_file("vars.toml", "7 = 0x2000_0000\n");
    let json = temp_file("vars.json", r#"{"vars": {"0x7": "0x20000000"}}"#);
    for f in [&toml, &json] {
        let out = dmaspec(&["lower", "--vars", f.to_str().unwrap()], &words);
        assert_success(&out);
        assert_eq!(
            &out.stdout[64 + 16..64 + 24],
            &[0x10, 0, 0, 0x20, 0, 0, 0, 0]
        );
    }
    let empty = temp_file("none.toml", "1 = 5\n");
    let out = dmaspec(&["lower", "--vars", empty.to_str().unwrap()], &words);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("word #1 at byte offset 64 (0x40): src_start_addr: variable 7 (offset 0x10) is not in the variable table"),
        "{err}"
    );
    let bad = temp_file("bad.json", r#"{"x": 1}"#);
    let out = dmaspec(&["lower", "--vars", bad.to_str().unwrap()], &words);
    // A bad file is bad input (exit 1), not a bad command line (docs/guide/cli.md, "Exit codes").
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn cli_json_has_decodes_shape_plus_from() {
    let input = concat(&[pseudo(3), ext(), real_direct2d(), pseudo(0)]);
    let out = dmaspec(&["lower", "--json"], &input);
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ins = doc["instructions"].as_array().unwrap();
    assert_eq!(ins.len(), 3);
    assert_eq!(ins[0]["struct"], "DMA_GATHER_XPOSE");
    assert_eq!(ins[0]["index"], 0);
    assert_eq!(ins[0]["from"], serde_json::json!([0, 1]));
    assert_eq!(ins[0]["fields"]["dtype"]["dtype_lo"]["name"], "BFLOAT16");
    assert_eq!(ins[0]["fields"]["dma_configs"]["priority_class"], 3);
    assert_eq!(
        ins[0]["lowered_by"]["selector"]["name"],
        "DMA_GATHER_TRANSPOSE"
    );
    assert_eq!(ins[1]["struct"], "DMA_DIRECT2D");
    assert_eq!(ins[1]["from"], serde_json::json!([2, null]));
    assert_eq!(ins[2]["from"], serde_json::json!([3, null]));
    assert_eq!(ins[2]["offset"], 128);
    // decode --json of the same words agrees on the fields.
    let bin = dmaspec(&["lower"], &input).stdout;
    let dec: Value = serde_json::from_slice(&dmaspec(&["decode", "--json"], &bin).stdout).unwrap();
    assert_eq!(dec["instructions"][0]["fields"], ins[0]["fields"]);
    // It is valid `encode` input, and encodes to the same words.
    let path = temp_file("lowered.json", std::str::from_utf8(&out.stdout).unwrap());
    let enc = dmaspec(&["encode", path.to_str().unwrap()], &[]);
    assert_success(&enc);
    assert_eq!(enc.stdout, bin);
    // Errors are entries too, and exit 1.
    let out = dmaspec(&["lower", "--json"], &concat(&[pseudo(5)]));
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["instructions"][0]["error"],
        "Unsupported dynamic dma opcode 5"
    );
}

#[test]
fn cli_explain_marks_inferred_mappings() {
    let out = dmaspec(
        &["lower", "--explain"],
        &concat(&[pseudo(1), ext(), real_direct2d()]),
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "PSEUDO_DMA_DIRECT2D + extension #1: dge_op 1 (DMA_INDIRECT1D) -> DMA_INDIRECT1D (0xbb)"
        ),
        "{text}"
    );
    let row = |field: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{field} ")))
            .unwrap_or_else(|| panic!("{field} in {text}"))
            .to_string()
    };
    assert!(row("flags").contains("<- ext.flags"));
    assert!(row("flags").contains("INFERRED (MED/INFERRED)"));
    assert!(row("src_step_elem").contains("INFERRED (LOW/INFERRED)"));
    assert!(row("dma_configs.priority_class").contains("HIGH/OBSERVED"));
    assert!(text.contains("mappings are INFERRED"));
    assert!(text.contains("DMA_DIRECT2D (0xb8): passed through unchanged"));
}

#[test]
fn the_readme_sample_lowers() {
    let out = dmaspec(
        &[
            "lower",
            "--hex",
            "--vars",
            "samples/dge_vars.toml",
            "samples/dge_stream.hex",
        ],
        &[],
    );
    assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().count(),
        7,
        "8 words in, the pseudo + extension become one"
    );
    assert!(text.starts_with("bb10"));
}

// ---- random streams: the `lower` fuzz target's properties, bounded for CI -----------------

/// A word of a stream worth lowering: mostly a lowering's pseudo (its selector set to a kind's
/// value, or any value) or extension, else any word of the spec or any opcode; the other
/// bytes are random, so address markers name a variable about half the time.
fn stream_word() -> impl Strategy<Value = [u8; 64]> {
    let l = &LOWERINGS[0];
    let pseudo = l.from_opcode;
    let ext = l.extension_opcode.expect("the lowering has an extension");
    let ops: Vec<u8> = WORDS.iter().map(|w| w.opcode).collect();
    let opcode = prop_oneof![4 => Just(pseudo), 3 => Just(ext), 2 => select(ops), 1 => any::<u8>()];
    let values: Vec<u64> = l.kinds.iter().map(|k| k.value).collect();
    let selector = prop_oneof![3 => select(values), 1 => any::<u64>()];
    (any::<[u8; 64]>(), opcode, selector).prop_map(move |(mut b, op, value)| {
        b[0] = op;
        if op == pseudo {
            let s = &l.selector;
            put(&mut b, s.offset, s.size, s.bits, value);
        }
        b
    })
}

#[test]
fn random_streams_keep_the_lowering_contract() {
    let input = (vec(stream_word(), 0..12), vec(any::<u8>(), 0..64)).prop_map(|(words, tail)| {
        let mut data = concat(&words);
        data.extend_from_slice(&tail);
        data
    });
    TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    })
    .run(&input, |data| {
        lower_props::check(&data);
        Ok(())
    })
    .unwrap();
}
