//! Golden vectors for EXTENDED_INST 0xf0 (tests/vectors/extended_*.hex), written by hand from
//! the rows of supp-descriptor-ring-field-tables §2.5 / §2.6 and Table 4.7, not produced by
//! our encoder: RDMA_DESC_GEN (extended_opcode 8), RDMA_DESC_START (9), and an envelope
//! whose sub-opcode (5) has no word. Each is decoded field by field, dispatched by opcode
//! and sub-opcode (owned words, views and the CLI), re-encoded byte-exact and validated.

mod common;

use common::{assert_success, dmaspec, root, stdout, vector};
use dmaspec::words::*;
use proptest::prelude::*;
use serde_json::Value;

const ALL: [Arch; 4] = [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick];

#[test]
fn rdma_desc_gen_decodes_every_row() {
    let bytes = vector("extended_rdma_desc_gen.hex");
    let w = EXTENDED_RDMA_DESC_GEN::decode(&bytes).expect("opcode 0xf0");
    // §2.5 rows "0 4 header opcode=0xf0" and "4 8 events".
    assert_eq!(w.header.opcode, OPCODE::EXTENDED_INST);
    assert_eq!(w.header.inst_word_len, 0x10);
    assert_eq!(w.events.wait_mode, WAIT_MODE::NONE);
    assert_eq!(w.events.update_mode, UPDATE_MODE::NONE);
    assert_eq!(w.events.semaphore_value, 0);
    // §2.5 rows "12 1 extended_opcode == 8" and "13 1 completion_info" (Table 4.7).
    assert_eq!(w.extended_opcode, EXTENDED_OPCODE::EXTENDED_RDMA_DESC_GEN);
    let c = w.completion_info;
    assert_eq!((c.has_read, c.has_write, c.num_active_ports), (0, 0, 0));
    assert_eq!((c.reserved0, c.reserved1), (0, 0));
    // §2.5 rows 14..41, one per operand.
    assert_eq!((w.local_sem, w.remote_sem), (3, 4));
    assert_eq!(w.remote_core_id.imm_arith_fp32, 5);
    assert_eq!(w.remote_routing_id.imm_arith_fp32, 1);
    assert_eq!(w.dma_engine_mask.imm_arith_fp32, 1);
    assert_eq!((w.src_addr.address, w.src_addr.register_mode), (0x100, 0));
    assert_eq!((w.dst_addr.address, w.dst_addr.register_mode), (0x200, 0));
    assert_eq!(w.free_dim_bytes, 2048);
    assert_eq!((w.is_bidirectional, w.remote_sem_prev), (0, 0));
    // §2.5 row "42 — reserved (to 63)"; the descriptor model splits it 2 + 20.
    assert_eq!(w.reserved0, [0; 2]);
    assert_eq!(w.reserved1, [0; 20]);
    assert_eq!(w.encode(), bytes);
    assert_eq!(
        EXTENDED_RDMA_DESC_GEN::constant_mismatches(&bytes).count(),
        0
    );
    for arch in ALL {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
    }
}

#[test]
fn rdma_desc_start_decodes_every_row() {
    let bytes = vector("extended_rdma_desc_start.hex");
    let w = EXTENDED_RDMA_DESC_START::decode(&bytes).expect("opcode 0xf0");
    // §2.6 row "4 8 events — the wait conditions sit here".
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    assert_eq!((w.events.wait_idx, w.events.semaphore_value), (4, 1));
    // §2.6 rows "12 1 extended_opcode == 9", "13 1 completion_info", "14 — reserved to 63".
    assert_eq!(w.extended_opcode, EXTENDED_OPCODE::EXTENDED_RDMA_DESC_START);
    assert_eq!(w.completion_info.num_active_ports, 0);
    assert_eq!(w.reserved0, [0; 2]);
    assert_eq!(w.reserved1, [0; 48]);
    assert_eq!(w.encode(), bytes);
    for arch in ALL {
        assert!(w.validate(arch).is_ok(), "{arch:?}");
    }
}

#[test]
fn an_unknown_sub_opcode_decodes_as_the_envelope() {
    let bytes = vector("extended_unknown.hex");
    for arch in ALL {
        let Some(Word::EXTENDED(w)) = Word::decode(&bytes, arch) else {
            panic!("{arch:?}: {:?}", Word::decode(&bytes, arch));
        };
        // §2.5 envelope: extended_opcode@12 (5, absent from the enum), completion_info@13,
        // inst_specific0[18]@14..31, inst_specific1[32]@32..63.
        assert_eq!(w.extended_opcode, EXTENDED_OPCODE(5));
        assert_eq!(w.completion_info.has_read, 1);
        assert_eq!(w.completion_info.has_write, 1);
        assert_eq!(w.inst_specific0[0], 0x01);
        assert_eq!(w.inst_specific0[17], 0x12);
        assert_eq!(w.inst_specific1[0], 0x20);
        assert_eq!(w.inst_specific1[31], 0x3f);
        assert_eq!(w.encode(), bytes);
        assert!(w.validate(arch).is_ok());
        let view = view::Word::new(&bytes, arch).expect("a view");
        assert!(matches!(view, view::Word::EXTENDED(_)), "{view:?}");
    }
    // A named sub-opcode without a word of its own (2, EXTENDED_TENSOR_TENSOR_ARITH) is the
    // envelope too.
    let mut tta = bytes;
    tta[12] = 2;
    assert!(matches!(
        Word::decode(&tta, Arch::cayman),
        Some(Word::EXTENDED(w)) if w.extended_opcode == EXTENDED_OPCODE::EXTENDED_TENSOR_TENSOR_ARITH
    ));
}

#[test]
fn dispatch_picks_the_sub_word_by_byte_12() {
    for (file, want) in [
        ("extended_rdma_desc_gen.hex", "EXTENDED_RDMA_DESC_GEN"),
        ("extended_rdma_desc_start.hex", "EXTENDED_RDMA_DESC_START"),
        ("extended_unknown.hex", "EXTENDED"),
    ] {
        let bytes = vector(file);
        for arch in ALL {
            let w = Word::decode(&bytes, arch).expect("0xf0 ships on every architecture");
            assert_eq!(w.meta().name, want, "{file} {arch:?}");
            assert_eq!(w.encode(), bytes);
            let v = view::Word::new(&bytes, arch).expect("a view");
            assert_eq!(v.meta().name, want);
            assert_eq!(v.read(), w);
        }
    }
    // Byte 12 alone moves a word between the sub-words and the envelope.
    let mut b = vector("extended_rdma_desc_gen.hex");
    b[12] = 9;
    assert!(matches!(
        Word::decode(&b, Arch::cayman),
        Some(Word::EXTENDED_RDMA_DESC_START(_))
    ));
    b[12] = 10;
    assert!(matches!(
        Word::decode(&b, Arch::cayman),
        Some(Word::EXTENDED(_))
    ));
    // The metadata names the envelope and the selector.
    let s = EXTENDED_RDMA_DESC_GEN::META.sub_opcode.expect("a sub-word");
    assert_eq!(
        (s.envelope, s.field, s.offset, s.size, s.value),
        ("EXTENDED", "extended_opcode", 12, 1, 8)
    );
    assert!(EXTENDED::META.sub_opcode.is_none());
    // `new()` writes the sub-opcode: an empty RDMA_DESC_START is still one.
    let fresh = EXTENDED_RDMA_DESC_START::new().encode();
    assert_eq!((fresh[0], fresh[12]), (0xf0, 9));
    assert!(matches!(
        Word::decode(&fresh, Arch::cayman),
        Some(Word::EXTENDED_RDMA_DESC_START(_))
    ));
}

#[test]
fn completion_info_reserved_bits_must_be_zero() {
    // Table 4.7: b1 reserved0 and b6..7 reserved1 "must be zero".
    for (file, rule) in [
        (
            "extended_rdma_desc_gen.hex",
            "rdma_desc_gen_completion_info_reserved_zero",
        ),
        (
            "extended_rdma_desc_start.hex",
            "rdma_desc_start_completion_info_reserved_zero",
        ),
        (
            "extended_unknown.hex",
            "extended_completion_info_reserved_zero",
        ),
    ] {
        for bit in [0x02u8, 0x40, 0x80] {
            let mut b = vector(file);
            b[13] |= bit;
            let w = Word::decode(&b, Arch::cayman).unwrap();
            let v = w.check(Arch::cayman);
            let ids: Vec<&str> = v.leaves().map(|r| r.id).collect();
            assert_eq!(ids, [rule], "{file} bit {bit:#x}");
        }
        // has_read, has_write and the port count are free.
        let mut b = vector(file);
        b[13] = 0x3d;
        assert!(
            Word::decode(&b, Arch::cayman)
                .unwrap()
                .check(Arch::cayman)
                .is_empty()
        );
    }
}

/// One stream: RDMA_DESC_GEN, an existing word (DMA_INDIRECT1D 0xbb), RDMA_DESC_START and the
/// envelope with sub-opcode 5.
fn stream() -> String {
    [
        "extended_rdma_desc_gen.hex",
        "dma_indirect1d.hex",
        "extended_rdma_desc_start.hex",
        "extended_unknown.hex",
    ]
    .map(|f| std::fs::read_to_string(root().join("tests/vectors").join(f)).unwrap())
    .join("\n")
}

#[test]
fn cli_decode_names_the_sub_words_in_a_mixed_stream() {
    let out = dmaspec(&["decode", "--json", "--hex"], stream().as_bytes());
    assert_success(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let all = doc["instructions"].as_array().unwrap();
    let names: Vec<&str> = all.iter().map(|i| i["struct"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "EXTENDED_RDMA_DESC_GEN",
            "DMA_INDIRECT1D",
            "EXTENDED_RDMA_DESC_START",
            "EXTENDED"
        ]
    );
    let opcodes: Vec<u64> = all.iter().map(|i| i["opcode"].as_u64().unwrap()).collect();
    assert_eq!(opcodes, [0xf0, 0xbb, 0xf0, 0xf0]);
    let gen_fields = &all[0]["fields"];
    assert_eq!(
        gen_fields["extended_opcode"]["name"],
        "EXTENDED_RDMA_DESC_GEN"
    );
    assert_eq!(gen_fields["free_dim_bytes"], 2048);
    assert_eq!(gen_fields["remote_core_id"]["imm_arith_fp32"], 5);
    assert_eq!(
        all[2]["fields"]["events"]["wait_mode"]["name"],
        "WAIT_FOR_SEM_GE_IMM"
    );
    let unknown = &all[3]["fields"]["extended_opcode"];
    assert_eq!(
        (&unknown["raw"], &unknown["name"]),
        (&Value::from(5), &Value::Null)
    );

    let out = dmaspec(&["decode", "--hex"], stream().as_bytes());
    assert_success(&out);
    let table = stdout(&out);
    for s in [
        "opcode 0xf0  EXTENDED_RDMA_DESC_GEN",
        "opcode 0xbb  DMA_INDIRECT1D",
        "opcode 0xf0  EXTENDED_RDMA_DESC_START",
        "opcode 0xf0  EXTENDED\n",
        "dma_engine_mask",
        "inst_specific0[0]",
        "(not an enumerator)",
    ] {
        assert!(table.contains(s), "missing {s:?} in\n{table}");
    }
    assert!(!table.contains("unknown opcode"), "{table}");
}

#[test]
fn cli_encode_reads_the_sub_words_back_byte_exact() {
    let out = dmaspec(&["decode", "--json", "--hex"], stream().as_bytes());
    assert_success(&out);
    let enc = dmaspec(&["encode", "--hex", "-"], &out.stdout);
    assert_success(&enc);
    let want: Vec<[u8; 64]> = [
        "extended_rdma_desc_gen.hex",
        "dma_indirect1d.hex",
        "extended_rdma_desc_start.hex",
        "extended_unknown.hex",
    ]
    .iter()
    .map(|f| vector(f))
    .collect();
    let text = stdout(&enc);
    let got: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let h: String = l.split('#').next().unwrap().split_whitespace().collect();
            (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect();
    let got: Vec<u8> = got.concat();
    assert_eq!(got, want.concat());
}

#[test]
fn explain_lists_the_sub_words_of_the_envelope() {
    let out = dmaspec(&["explain", "--wide", "0xf0"], b"");
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains(
        "sub-words: EXTENDED_RDMA_DESC_GEN (extended_opcode == 8), EXTENDED_RDMA_DESC_START \
         (extended_opcode == 9); other values decode as EXTENDED"
    ));
    let out = dmaspec(&["explain", "RDMA_DESC_GEN"], b"");
    assert_success(&out);
    assert!(stdout(&out).contains(
        "chosen within EXTENDED by extended_opcode (byte 12) == 8 (EXTENDED_RDMA_DESC_GEN)"
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any 64 bytes with opcode 0xf0 decode on every architecture, as the sub-word their
    /// byte 12 names or as the envelope, and encode back to the same bytes.
    #[test]
    fn any_extended_word_round_trips(mut b in proptest::array::uniform32(any::<u8>())
        .prop_flat_map(|lo| proptest::array::uniform32(any::<u8>()).prop_map(move |hi| {
            let mut b = [0u8; 64];
            b[..32].copy_from_slice(&lo);
            b[32..].copy_from_slice(&hi);
            b
        })), sub in prop_oneof![Just(8u8), Just(9u8), any::<u8>()]) {
        b[0] = 0xf0;
        b[12] = sub;
        for arch in ALL {
            let w = Word::decode(&b, arch).expect("0xf0 decodes");
            let want = match sub {
                8 => "EXTENDED_RDMA_DESC_GEN",
                9 => "EXTENDED_RDMA_DESC_START",
                _ => "EXTENDED",
            };
            prop_assert_eq!(w.meta().name, want);
            prop_assert_eq!(w.encode(), b);
            let _ = w.check(arch);
            let v = view::Word::new(&b, arch).expect("a view");
            prop_assert_eq!(v.read(), w);
        }
    }
}
