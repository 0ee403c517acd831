//! Issue 13 §4, names: the shipped names of 0xca / 0xd6 with the spec's older names kept as
//! aliases of its own, and an `OPCODE` enumerator (with its engine) for every wire opcode
//! the Master Opcode Reference names, so that decode names an opcode no word lays out.

mod common;

use common::{dmaspec, stdout, vector};
use dmaspec::words::{WORDS, enumerators};
use serde_json::Value as Json;

/// A hex stream of one word: `op` followed by 63 zero bytes.
fn word_hex(op: u8) -> Vec<u8> {
    format!("{op:02x}{}\n", "00".repeat(63)).into_bytes()
}

fn opcode(name: &str) -> &'static dmaspec::runtime::meta::EnumeratorMeta {
    enumerators("OPCODE")
        .unwrap()
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("OPCODE has no {name}"))
}

#[test]
fn shipped_names_are_primary_and_ours_are_aliases() {
    // The Indirection Engine page §1, struct2opcode row:
    // NEURON_ISA_TPB_PSEUDO_EMBEDDING_UPDATE_STRUCT -> NEURON_ISA_TPB_OPCODE_PSEUDO_EMBEDDING_UPDATE (0xca).
    let ca = WORDS.iter().find(|w| w.opcode == 0xca).unwrap();
    assert_eq!(ca.name, "PSEUDO_EMBEDDING_UPDATE");
    assert_eq!(ca.c_name, "NEURON_ISA_TPB_PSEUDO_EMBEDDING_UPDATE_STRUCT");
    assert_eq!(ca.opcode_enumerator, "PSEUDO_EMBEDDING_UPDATE");
    assert_eq!(ca.aliases, ["INDIRECT_SAVE_ACCUMULATE"]);
    // Master Opcode Reference §3: "0xC4 / 0xD6 (PseudoRangeCheck)".
    let d6 = WORDS.iter().find(|w| w.opcode == 0xd6).unwrap();
    assert_eq!(d6.name, "PSEUDO_RANGE_CHECK");
    assert_eq!(d6.aliases, ["INDIRECT_BOUND_CHECK"]);
    let e = opcode("PSEUDO_RANGE_CHECK");
    assert_eq!(e.aliases, ["PseudoRangeCheck", "INDIRECT_BOUND_CHECK"]);
    assert_eq!(
        opcode("PSEUDO_EMBEDDING_UPDATE").engine,
        Some("CCE/Pool/Act")
    );
}

#[test]
fn old_names_still_resolve_in_explain_and_encode() {
    for (old, new) in [
        ("INDIRECT_SAVE_ACCUMULATE", "PSEUDO_EMBEDDING_UPDATE"),
        ("INDIRECT_BOUND_CHECK", "PSEUDO_RANGE_CHECK"),
    ] {
        let text = stdout(&dmaspec(&["explain", old], &[]));
        assert!(
            text.starts_with(&format!("{new} — NEURON_ISA_TPB_{new}_STRUCT")),
            "{text}"
        );
        assert!(text.contains(&format!("also named {old}")), "{text}");
        for name in [old, new] {
            let input = format!(r#"{{"instructions":[{{"struct":"{name}","fields":{{}}}}]}}"#);
            let o = dmaspec(&["encode", "--hex", "--no-validate", "-"], input.as_bytes());
            assert_eq!(o.status.code(), Some(0), "{name}: {}", common::stderr(&o));
            let op = if new == "PSEUDO_RANGE_CHECK" {
                "d6"
            } else {
                "ca"
            };
            assert!(
                stdout(&o).starts_with(&format!("{op}10")),
                "{name}: {}",
                stdout(&o)
            );
        }
    }
    // The golden vector (seed-000 §Form A) decodes under the shipped name.
    let v = vector("seed000_pseudo_range_check.hex");
    let o = dmaspec(&["decode", "--json", "-"], &v);
    let doc: Json = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["instructions"][0]["struct"], "PSEUDO_RANGE_CHECK");
}

#[test]
fn opcode_has_every_master_reference_opcode_with_its_engine() {
    // (value, enumerator, engine): the engines of rows of the Master Opcode Reference §1 (IT
    // 31 TensorTensor 0x41 DVE, IT 73 RegisterAlu 0xA8 SP, IT 49 CollectiveSend 0xCB POOL, IT
    // 11 GetGlobalRankId 0xDC CC, IT 4 Activation 0x21 / V4 0x25 ACT, IT 8 Matmult 0x01 + 0x02
    // PE) under the shipped common.h spellings (wiki-opcode-diff §2), and the shipped
    // spellings of the field tables' Table 4.0 (0x68 GATHER, 0xb9 DMA_MEMCPY2, 0xba
    // DMA_IMMEDIATE, 0xbf SB2SB_COLLECTIVE, 0xf0 EXTENDED_INST).
    for (value, name, engine) in [
        (0x41, "TENSOR_TENSOR_ARITH_OP", Some("DVE")),
        (0xa8, "ALU_OP", Some("SP")),
        (0xcb, "PSEUDO_SEND_RECV", Some("POOL")),
        (0xdc, "PSEUDO_GID_LOAD", Some("CC")),
        (0x21, "ACTIVATE", Some("ACT")),
        (0x25, "ACTIVATE2", Some("ACT")),
        (0x01, "LDWEIGHTS", Some("PE")),
        (0x02, "MATMUL", Some("PE")),
        (0x68, "GATHER", Some("POOL")),
        (0xb9, "DMA_MEMCPY2", None),
        (0xba, "DMA_IMMEDIATE", None),
        (0xbf, "SB2SB_COLLECTIVE", Some("GPSIMD")),
        (0xf0, "EXTENDED_INST", None),
    ] {
        let e = opcode(name);
        assert_eq!((e.value, e.engine), (value, engine), "{name}");
    }
    // Seed 004 §10: sunda lacks SB2SB_COLLECTIVE; supp-dge-microop §1.1: 0xb9 / 0xba are
    // maverick's (common.h:268-269).
    assert_eq!(
        opcode("SB2SB_COLLECTIVE").arch,
        ["cayman", "mariana", "maverick"]
    );
    assert_eq!(opcode("DMA_MEMCPY2").arch, ["maverick"]);
    // Every opcode a word is bound to names its engine when the page lists the word's IT.
    assert_eq!(opcode("PSEUDO_DMA_DIRECT2D").engine, Some("DMA"));
}

#[test]
fn decode_names_an_opcode_without_a_layout() {
    let o = dmaspec(&["decode", "--hex", "-"], &word_hex(0x41));
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.contains("0x41 TENSOR_TENSOR_ARITH_OP (DVE): no layout in the spec"),
        "{text}"
    );
    assert!(!text.contains("unknown opcode"), "{text}");
    let o = dmaspec(&["decode", "--hex", "--json", "-"], &word_hex(0x41));
    let doc: Json = serde_json::from_str(&stdout(&o)).unwrap();
    let i = &doc["instructions"][0];
    assert_eq!(i["struct"], Json::Null);
    assert_eq!(i["opcode_enumerator"]["name"], "TENSOR_TENSOR_ARITH_OP");
    assert_eq!(i["opcode_enumerator"]["engine"], "DVE");
    assert_eq!(
        i["error"],
        "0x41 TENSOR_TENSOR_ARITH_OP (DVE): no layout in the spec"
    );
    // A word of other architectures says so; a byte no source names stays unknown.
    let o = dmaspec(
        &["decode", "--hex", "--arch", "sunda", "-"],
        &word_hex(0xbf),
    );
    let text = stdout(&o);
    assert!(
        text.contains(
            "0xbf SB2SB_COLLECTIVE (GPSIMD): no word in sunda; an opcode only on cayman, mariana, maverick"
        ),
        "{text}"
    );
    // 0x0b is in no common.h enum body (wiki-opcode-diff §2 steps from 0x0a MATMUL_MX to 0x21).
    let o = dmaspec(&["decode", "--hex", "-"], &word_hex(0x0b));
    assert!(stdout(&o).contains("0x0b: unknown opcode (no OPCODE enumerator"));
    // The JSON of such a word encodes back to the same bytes (encode reads past the keys).
    let o = dmaspec(&["decode", "--hex", "--json", "-"], &word_hex(0x41));
    let back = dmaspec(&["encode", "--hex", "-"], &o.stdout);
    assert_eq!(back.status.code(), Some(0), "{}", common::stderr(&back));
    assert_eq!(
        stdout(&back).trim(),
        String::from_utf8(word_hex(0x41)).unwrap().trim()
    );
}

#[test]
fn all_four_architectures_are_tagged_where_the_spec_infers_them() {
    // Seed 004 §10 lists per-arch headers for 0xb8 / 0xbb / 0xd4 / 0xbd / 0xf1; the
    // Indirection Engine page §1 has all four generations ship 0xe7's and 0xca's headers;
    // the S3D3 Collective page §5 lists which generations ship 0xbf's, and the field
    // tables §3 give the v5 words 0xb9 / 0xba as maverick headers; the DVE words (0x67, 0x69,
    // 0x6a, 0x6b, 0x7f, 0xbc) list the generations the DVE datamove page's encoders and the
    // Master Opcode Reference's V2 / V3 / V4 columns give, and no more; the RDMA page §8
    // compile-verified 0xf0's extended headers on all four generations.
    // The other compiler-only words get all four by the spec's inference.
    for w in WORDS {
        let sourced = [
            0xb8, 0xbb, 0xd4, 0xbd, 0xf1, 0xe7, 0xca, 0xbf, 0xb9, 0xba, 0x68, 0x67, 0x69, 0x6a,
            0x6b, 0x7f, 0xbc, 0xf0,
        ]
        .contains(&w.opcode);
        assert_eq!(w.arch_inferred, !sourced, "{:#04x} {}", w.opcode, w.name);
    }
    let text = stdout(&dmaspec(&["explain", "--wide", "0xb2"], &[]));
    assert!(
        text.contains("(all by the spec's inference: no source lists this word per architecture)"),
        "{text}"
    );
    let text = stdout(&dmaspec(&["explain", "0xb8"], &[]));
    assert!(!text.contains("by the spec's inference"), "{text}");
}

#[test]
fn the_dve_opcodes_are_words_on_the_generations_the_pages_read() {
    // (opcode, word, enumerator, engine, architectures): the DVE datamove page's encoders
    // (CoreV2GenImpl, RangeSelect CoreV3GenImpl only) and the Master Opcode Reference §1 rows
    // IT 39 / 40 / 63 / 65 / 92 (V2 / V3 / V4 columns; Gather is a plain COPY on V4); the
    // header pages add the generations whose shipped headers carry the struct (0x67 / 0x69:
    // wiki-gap-cluster §19, `// Y` + struct on SUNDA..MAVERICK).
    for (op, word, enumerator, engine, arch) in [
        (
            0x67,
            "POOL_BUFFER_LOAD",
            "POOL_BUFFER_LOAD",
            "POOL",
            &["sunda", "cayman", "mariana", "maverick"][..],
        ),
        (
            0x69,
            "LOAD_MASK_SELECT",
            "LOAD_MASK_SELECT",
            "DVE",
            &["sunda", "cayman", "mariana", "maverick"],
        ),
        (
            0x6a,
            "STREAM_SHUFFLE",
            "STREAM_SHUFFLE",
            "DVE",
            &["sunda", "cayman", "mariana", "maverick"],
        ),
        (
            0x6b,
            "STREAM_TRANSPOSE",
            "STREAM_TRANSPOSE",
            "DVE",
            &["sunda", "cayman", "mariana", "maverick"],
        ),
        (
            0x7f,
            "DROPOUT",
            "DROPOUT",
            "DVE",
            &["sunda", "cayman", "mariana", "maverick"],
        ),
        (
            0xbc,
            "RANGE_SELECT",
            "RANGE_SELECT",
            "DVE",
            &["cayman", "mariana", "maverick"],
        ),
    ] {
        let w = WORDS.iter().find(|w| w.opcode == op).unwrap();
        assert_eq!((w.name, w.opcode_enumerator), (word, enumerator));
        assert_eq!(opcode(enumerator).engine, Some(engine), "{word}");
        let names: Vec<&str> = w.arch.iter().map(|a| a.name()).collect();
        assert_eq!(names, arch, "{word}");
    }
    // The DVE page's own spellings resolve too (its opcode witness ledger).
    for (enumerator, alias) in [
        ("LOAD_MASK_SELECT", "stream_shuffle"),
        ("DROPOUT", "dropout"),
        ("RANGE_SELECT", "range_select"),
        ("POOL_BUFFER_LOAD", "pool_buffer_load"),
    ] {
        assert!(opcode(enumerator).aliases.contains(&alias), "{enumerator}");
    }
    // The 0x9B companion of RangeSelect has an enumerator but no layout (no page transcribes it).
    assert!(WORDS.iter().all(|w| w.opcode != 0x9b));
    let o = dmaspec(
        &["decode", "--hex", "--arch", "sunda", "-"],
        &word_hex(0xbc),
    );
    assert!(
        stdout(&o).contains("0xbc RANGE_SELECT (DVE): no word in sunda"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_shipped_common_h_spellings_are_primary() {
    // "Cross-Generation Opcode-Table Diff + TONGA" §2 (the four common.h enum bodies): the
    // shipped spelling is the enumerator, the spec's older names aliases (ours or a page's).
    for (value, name, aliases) in [
        (
            0x69,
            "LOAD_MASK_SELECT",
            &["StreamShuffle_0x69", "stream_shuffle"][..],
        ),
        (0x6a, "STREAM_SHUFFLE", &["StreamShuffle"]),
        (0x6b, "STREAM_TRANSPOSE", &["StreamTranspose"]),
        (0x7f, "DROPOUT", &["Dropout", "dropout"]),
        (0xbc, "RANGE_SELECT", &["RangeSelect", "range_select"]),
        (0xbe, "GET_SEQUENCE_BOUNDS", &["GetSequenceBounds"]),
        (
            0xc1,
            "PSEUDO_DMATRIGGER",
            &["PSEUDO_DMA_TRIGGER", "PseudoDMATrigger"],
        ),
        (
            0xc2,
            "PSEUDO_DMAREARM",
            &["PSEUDO_DMA_REARM", "PseudoDMARearm"],
        ),
        (
            0xcf,
            "PSEUDO_DMASWAP_QUEUE_SET",
            &["PSEUDO_DMA_SWAP_QUEUE_SET"],
        ),
    ] {
        let e = opcode(name);
        assert_eq!(e.value, value, "{name}");
        assert_eq!(e.aliases, aliases, "{name}");
    }
    // The old names still resolve on the command line.
    let o = dmaspec(&["explain", "StreamShuffle_0x69"], &[]);
    assert!(stdout(&o).contains("LOAD_MASK_SELECT"), "{}", stdout(&o));
}

#[test]
fn the_instruction_record_pages_fill_the_enumerator_gaps() {
    // "The 64-Byte Instruction Record Format" §2 (the libnrt DWARF NEURON_ISA_TPB_OPCODE enum)
    // and "Pseudo-Instruction Lowering" §3: values the Master Opcode Reference lacks.
    for (value, name) in [
        (0x22, "ACTIVATE_QUANTIZE"),
        (0x60, "BATCH_NORM_STATS"),
        (0x81, "JPEG_DECODE"),
        (0xa6, "NOTIFY"),
        (0xc8, "PSEUDO_TRIGGER_COLLECTIVE"),
        (0xcc, "PSEUDO_BRANCH_LABEL"),
        (0xd1, "PSEUDO_FUNCTION_BEGIN"),
        (0xd7, "PSEUDO_JPEG_DECODE"),
        (0xe0, "SPARSITY_COMPRESS"),
        (0xff, "INVALID"),
    ] {
        assert_eq!(opcode(name).value, value, "{name}");
    }
    // The DWARF enum's and the other pages' spellings: primaries where common.h agrees
    // (wiki-opcode-diff §2), aliases where it spells the byte otherwise (0xcb).
    for (name, alias) in [
        ("MATMUL", "MatMul"),
        ("TENSOR_SCALAR_ARITH_OP", "TensorScalarPtr_0x43"),
        ("PSEUDO_INST", "Exit"),
        ("PSEUDO_TRIGGER_COLLECTIVE2", "CollectiveCompute"),
        ("PSEUDO_SEND_RECV", "CollectiveSend"),
        ("PSEUDO_SEND_RECV", "PSEUDO_SENDRECV"),
    ] {
        assert!(opcode(name).aliases.contains(&alias), "{name}: {alias}");
    }
    // §1: WAIT_MODE / UPDATE_MODE families.
    let named = |e: &str, v: u64| {
        enumerators(e)
            .unwrap()
            .iter()
            .find(|x| x.value == v)
            .map(|x| x.name)
    };
    // The core-barrier page §3 gives common.h's spellings; the DWARF page's stay aliases.
    assert_eq!(named("WAIT_MODE", 2), Some("WAIT_FOR_SEM_LT_IMM"));
    assert_eq!(named("WAIT_MODE", 0xF), Some("WAIT_FOR_EVT_CLEAR_THEN_SET"));
    let alias_of = |e: &str, v: u64| {
        enumerators(e)
            .unwrap()
            .iter()
            .find(|x| x.value == v)
            .map(|x| x.aliases.to_vec())
            .unwrap()
    };
    assert_eq!(alias_of("WAIT_MODE", 2), ["SEM_LT_IMM"]);
    assert_eq!(alias_of("WAIT_MODE", 0x83), ["REG_83"]);
    assert_eq!(named("WAIT_MODE", 0xFF), Some("INVALID"));
    assert_eq!(named("UPDATE_MODE", 0xFF), Some("INVALID"));
    assert_eq!(named("UPDATE_MODE", 0x09), Some("SEM_WR_IMM_READ"));
    assert_eq!(named("UPDATE_MODE", 0x19), Some("SEM_WR_IMM_COMPLETE"));
    // 0xB5, which no page named before, is common.h's BRANCH_PREFETCH_HINT (wiki-opcode-diff
    // §2: | 0xb5 | BRANCH_PREFETCH_HINT | b5 | b5 | b5 | b5 | invariant |).
    assert_eq!(opcode("BRANCH_PREFETCH_HINT").value, 0xb5);
}

#[test]
fn extended_inst_names_its_sub_opcodes_and_their_words() {
    // The RDMA page §2: NEURON_ISA_TPB_EXAMPLE_EXTENDED_OPCODES1 read verbatim, value 5
    // absent; the field tables §2.5 / §2.6 spell 8 and 9 RDMA_DESC_GEN / RDMA_DESC_START.
    let sub = enumerators("EXTENDED_OPCODE").unwrap();
    let named: Vec<(u64, &str)> = sub.iter().map(|e| (e.value, e.name)).collect();
    assert_eq!(
        named,
        [
            (0, "EXTENDED_ENGINE_NOP"),
            (1, "EXTENDED_COPY"),
            (2, "EXTENDED_TENSOR_TENSOR_ARITH"),
            (3, "EXTENDED_RAND_SET_STATE"),
            (4, "EXTENDED_RAND_GET_STATE"),
            (6, "EXTENDED_SBUF_TO_SBUF"),
            (7, "EXTENDED_CPTC_DECODE"),
            (8, "EXTENDED_RDMA_DESC_GEN"),
            (9, "EXTENDED_RDMA_DESC_START"),
        ]
    );
    assert_eq!(sub[7].aliases, ["RDMA_DESC_GEN"]);
    assert_eq!(sub[8].aliases, ["RDMA_DESC_START"]);
    // Three words share 0xf0: the envelope and the two with a sub-opcode of their own,
    // each also named as the field tables and the descriptor model spell it.
    let f0: Vec<(&str, &[&str])> = WORDS
        .iter()
        .filter(|w| w.opcode == 0xf0)
        .map(|w| (w.name, w.aliases))
        .collect();
    assert_eq!(
        f0,
        [
            ("EXTENDED", &[][..]),
            (
                "EXTENDED_RDMA_DESC_GEN",
                &["RDMA_DESC_GEN", "D5", "op8"][..]
            ),
            (
                "EXTENDED_RDMA_DESC_START",
                &["RDMA_DESC_START", "D6", "op9"][..]
            ),
        ]
    );
    // The opcode index shows 0xf0 with its sub-opcodes and the architectures that ship them.
    let index = std::fs::read_to_string(common::root().join("generated/docs/README.md")).unwrap();
    for row in [
        "| `0xF0` (240) | [EXTENDED](words/EXTENDED.md) | `EXTENDED_INST` | — | ✓ | ✓ | ✓ | ✓ |",
        "| `0xF0` (240), `extended_opcode` = 8 (`EXTENDED_RDMA_DESC_GEN`) | [EXTENDED_RDMA_DESC_GEN](words/EXTENDED_RDMA_DESC_GEN.md) | `EXTENDED_INST` | — | ✓ | ✓ | ✓ | ✓ |",
        "| `0xF0` (240), `extended_opcode` = 9 (`EXTENDED_RDMA_DESC_START`) | [EXTENDED_RDMA_DESC_START](words/EXTENDED_RDMA_DESC_START.md) | `EXTENDED_INST` | — | ✓ | ✓ | ✓ | ✓ |",
    ] {
        assert!(index.contains(row), "missing {row}");
    }
}

/// "Cross-Generation Opcode-Table Diff + TONGA" §2, the master opcode-presence matrix, every
/// row: (VAL, OPCODE, presence in V2 / V3 / V4/4+ / V5), `1` where the column shows the hex
/// value and `0` where it shows `·` (V2 = sunda, V3 = cayman, V4 = mariana, V5 = maverick).
const PRESENCE_MATRIX: [(u64, &str, &str); 172] = [
    (0x01, "LDWEIGHTS", "1111"),
    (0x02, "MATMUL", "1111"),
    (0x03, "PE_REG_WRITE", "1111"),
    (0x04, "WEIGHT_MASK", "1111"),
    (0x05, "WEIGHT_SHIFT", "1111"),
    (0x06, "LDTAGS", "0111"),
    (0x07, "MATMUL_SPARSE", "0111"),
    (0x08, "PE_MANAGE_SEED", "0011"),
    (0x09, "LDWEIGHTS_MX", "0011"),
    (0x0a, "MATMUL_MX", "0011"),
    (0x21, "ACTIVATE", "1111"),
    (0x22, "ACTIVATE_QUANTIZE", "1111"),
    (0x23, "ACTIVATION_TABLE_LOAD", "1111"),
    (0x24, "ACTIVATION_READ_ACCUMULATOR", "1111"),
    (0x25, "ACTIVATE2", "0011"),
    (0x26, "ACTIVATE_MULTIPASS", "0001"),
    (0x30, "EXPONENTIAL", "1111"),
    (0x41, "TENSOR_TENSOR_ARITH_OP", "1111"),
    (0x42, "TENSOR_REDUCE_ARITH_OP", "1111"),
    (0x43, "TENSOR_SCALAR_ARITH_OP", "1111"),
    (0x44, "TENSOR_SCALAR_PTR_ARITH_OP", "1111"),
    (0x45, "POOL", "1111"),
    (0x46, "COPY", "1111"),
    (0x47, "CAST", "1111"),
    (0x48, "RECIPROCAL", "1111"),
    (0x49, "MEMSET", "1111"),
    (0x4a, "REG_LOAD", "1111"),
    (0x4b, "REG_STORE", "1111"),
    (0x4c, "REG_SHUFFLE", "1111"),
    (0x4d, "RNG", "1111"),
    (0x4e, "TENSOR_CUMULATIVE_ARITH_OP", "1111"),
    (0x4f, "TENSOR_SCALAR_PTR_MULTI_ARITH", "1111"),
    (0x51, "TENSOR_TENSOR_BITVEC_OP", "1111"),
    (0x52, "TENSOR_REDUCE_BITVEC_OP", "1111"),
    (0x53, "TENSOR_SCALAR_BITVEC_OP", "1111"),
    (0x54, "TENSOR_SCALAR_PTR_BITVEC_OP", "1111"),
    (0x58, "MAX_POOL_SELECT", "1111"),
    (0x5e, "TENSOR_CUMULATIVE_BITVEC_OP", "1111"),
    (0x5f, "TENSOR_SCALAR_PTR_MULTI_BITVEC", "1111"),
    (0x60, "BATCH_NORM_STATS", "1111"),
    (0x61, "BATCH_NORM_STATS2", "1111"),
    (0x62, "BATCH_NORM_AGGREGATE", "1111"),
    (0x63, "BATCH_NORM_GRAD_ACCUMULATE", "1111"),
    (0x64, "BATCH_NORM_PARAM_LOAD", "1111"),
    (0x65, "BATCH_NORM_BACK_PROP", "1111"),
    (0x66, "LOAD_PARAMETER_RAM", "1111"),
    (0x67, "POOL_BUFFER_LOAD", "1111"),
    (0x68, "GATHER", "1111"),
    (0x69, "LOAD_MASK_SELECT", "1111"),
    (0x6a, "STREAM_SHUFFLE", "1111"),
    (0x6b, "STREAM_TRANSPOSE", "1111"),
    (0x6c, "MAX8", "1111"),
    (0x6d, "MATCH_VALUE_LOAD", "1111"),
    (0x6e, "FIND_INDEX8", "1111"),
    (0x6f, "MATCH_REPLACE8", "1111"),
    (0x70, "TENSOR_SCALAR_IMM_LD_ARITH", "1111"),
    (0x71, "TENSOR_SCALAR_IMM_LD_BITVEC", "1111"),
    (0x72, "COPY_PREDICATED", "1111"),
    (0x73, "ROI_ALIGN", "1111"),
    (0x74, "TENSOR_SCALAR_ADDR", "1111"),
    (0x76, "RAND", "1111"),
    (0x77, "RAND_GET_STATE", "1111"),
    (0x78, "RAND_SET_STATE", "1111"),
    (0x79, "EMBEDDING_UPDATE", "1111"),
    (0x7a, "LOAD_POOL_ARGUMENT", "1111"),
    (0x7b, "TENSOR_DEQUANTIZE", "1111"),
    (0x7c, "CROSS_LANE_REDUCE_ARITH", "1111"),
    (0x7d, "CROSS_LANE_REDUCE_BITVEC", "1111"),
    (0x7e, "IOTA", "1111"),
    (0x7f, "DROPOUT", "1111"),
    (0x81, "JPEG_DECODE", "0111"),
    (0x82, "TRANSPOSE_BATCH_NORM_STATS2", "1111"),
    (0x83, "TRANSPOSE_TENSOR_REDUCE_ARITH_OP", "1111"),
    (0x84, "TRANSPOSE_TENSOR_REDUCE_BITVEC_OP", "1111"),
    (0x85, "CUSTOM_OP_HEADER", "1111"),
    (0x86, "CUSTOM_OP_PAYLOAD", "1111"),
    (0x87, "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH", "1000"),
    (0x88, "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC", "1000"),
    (0x8a, "TENSOR_TENSOR_ADD_BF16", "1000"),
    (0x8b, "TENSOR_TENSOR_MULT_BF16", "1000"),
    (0x8c, "TENSOR_REDUCE_ADD_BF16", "1000"),
    (0x8d, "TENSOR_REDUCE_MAX_BF16", "1000"),
    (0x8e, "BATCH_NORM_PARAM_LOAD2", "1111"),
    (0x8f, "TENSOR_TENSOR_SUB_BF16", "1000"),
    (0x92, "TENSOR_SCALAR_AFFINE_SELECT", "1111"),
    (0x93, "TRANSPOSE_TENSOR_SCALAR_ARITH_OP", "1111"),
    (0x94, "BATCH_NORM_GRAD_ACCUMULATE2", "1111"),
    (0x95, "MODIFY_POOL_CONFIG", "1111"),
    (0x96, "SORT", "1111"),
    (0x98, "TENSOR_SCALAR_SELECT", "1111"),
    (0x99, "CAST_PREDICATED", "1111"),
    (0x9a, "TENSOR_SCALAR_CACHE_REDUCE", "1111"),
    (0x9b, "DVE_READ_ACCUMULATOR", "1111"),
    (0x9c, "TENSOR_REDUCE_RANGE_CHECK", "1111"),
    (0x9d, "SCALAR_TENSOR_TENSOR_ARITH", "1111"),
    (0x9e, "SCALAR_TENSOR_TENSOR_BITVEC", "1111"),
    (0x9f, "ENGINE_NOP", "1111"),
    (0xa0, "EVENT_SEMAPHORE", "1111"),
    (0xa1, "HALT", "1111"),
    (0xa2, "DRAIN", "1111"),
    (0xa3, "INSTRUCTION_FLUSH", "1111"),
    (0xa4, "NOP", "1111"),
    (0xa5, "WRITE", "1111"),
    (0xa6, "NOTIFY", "1111"),
    (0xa7, "MOVE", "1111"),
    (0xa8, "ALU_OP", "1111"),
    (0xa9, "COMPARE_BRANCH", "1111"),
    (0xaa, "TENSOR_LOAD", "1111"),
    (0xab, "TENSOR_STORE", "1111"),
    (0xb0, "EVENT_SEMAPHORE_RANGE_CLEAR", "1111"),
    (0xb1, "SET_ORDERING_MODE", "1111"),
    (0xb2, "MOVE_SHAPE", "1111"),
    (0xb3, "POLL_SEM", "1111"),
    (0xb4, "TEST_EVENT_SEM", "0011"),
    (0xb5, "BRANCH_PREFETCH_HINT", "1111"),
    (0xb6, "COMPACT_CONTROL_INST", "0001"),
    (0xb8, "DMAMEMCPY", "1111"),
    (0xb9, "DMA_MEMCPY2", "0001"),
    (0xba, "DMA_IMMEDIATE", "0001"),
    (0xbb, "DMA_INDIRECT", "1111"),
    (0xbc, "RANGE_SELECT", "0111"),
    (0xbd, "DMA_TRANSPOSE", "0111"),
    (0xbe, "GET_SEQUENCE_BOUNDS", "0111"),
    (0xbf, "SB2SB_COLLECTIVE", "0111"),
    (0xc1, "PSEUDO_DMATRIGGER", "1111"),
    (0xc2, "PSEUDO_DMAREARM", "1111"),
    (0xc3, "PSEUDO_DMABARRIER", "1111"),
    (0xc4, "PSEUDO_DMAMEMCPY_FULL_IND", "1111"),
    (0xc5, "PSEUDO_SEMAPHORE_SET", "1111"),
    (0xc6, "PSEUDO_LOAD_ACT_FUNC_SET", "1111"),
    (0xc7, "PSEUDO_TRIGGER_ALL_REDUCE", "1111"),
    (0xc8, "PSEUDO_TRIGGER_COLLECTIVE", "1111"),
    (0xc9, "PSEUDO_READ_VAR_ADDR", "1111"),
    (0xca, "PSEUDO_EMBEDDING_UPDATE", "1111"),
    (0xcb, "PSEUDO_SEND_RECV", "1111"),
    (0xcc, "PSEUDO_BRANCH_LABEL", "1111"),
    (0xcd, "PSEUDO_TENSOR_STORE", "1111"),
    (0xce, "PSEUDO_TENSOR_LOAD", "1111"),
    (0xcf, "PSEUDO_DMASWAP_QUEUE_SET", "1111"),
    (0xd0, "PSEUDO_SET_RNG_SEED", "1111"),
    (0xd1, "PSEUDO_FUNCTION_BEGIN", "1111"),
    (0xd2, "PSEUDO_FUNCTION_RETURN", "1111"),
    (0xd3, "PSEUDO_FUNCTION_CALL", "1111"),
    (0xd4, "PSEUDO_DMA_DIRECT2D", "1111"),
    (0xd5, "PSEUDO_SYNC_BARRIER", "1111"),
    (0xd6, "PSEUDO_RANGE_CHECK", "1111"),
    (0xd7, "PSEUDO_JPEG_DECODE", "0111"),
    (0xd8, "PSEUDO_CORE_BARRIER", "1111"),
    (0xd9, "PSEUDO_TRIGGER_COLLECTIVE2", "1111"),
    (0xda, "PSEUDO_EXTENSION", "1111"),
    (0xdb, "PSEUDO_CUR_PROCESSING_RANK_ID", "1111"),
    (0xdc, "PSEUDO_GID_LOAD", "1111"),
    (0xdd, "PSEUDO_BRANCH_PREFETCH_HINT", "1111"),
    (0xde, "PSEUDO_TENSOR_COMPLETION", "1111"),
    (0xdf, "PSEUDO_INST", "1111"),
    (0xe0, "SPARSITY_COMPRESS", "0011"),
    (0xe1, "SPARSITY_COMPRESS_TAG", "0011"),
    (0xe2, "RAND2", "0011"),
    (0xe3, "QUANTIZE_MX", "0011"),
    (0xe4, "CONV_LUT_LOAD", "0111"),
    (0xe5, "TENSOR_TENSOR_SCAN_ARITH", "1111"),
    (0xe6, "TENSOR_SCALAR_CACHE_CUMULATIVE", "1111"),
    (0xe7, "INDIRECT_COPY", "1111"),
    (0xe8, "COPY_PREDICATED_SCALAR", "1111"),
    (0xe9, "DVE_READ_INDICES", "0111"),
    (0xea, "SELECT_REDUCE", "1111"),
    (0xf0, "EXTENDED_INST", "1111"),
    (0xf1, "DMA_GATHER_TRANSPOSE", "0111"),
    (0xf2, "NONZERO_WITH_COUNT", "0111"),
    (0xf3, "TENSOR_TENSOR_INT_WIDE", "0001"),
    (0xf4, "TENSOR_SCALAR_INT_WIDE", "0001"),
    (0xff, "INVALID", "1111"),
];

#[test]
fn every_row_of_the_presence_matrix_is_an_enumerator() {
    const ARCH: [&str; 4] = ["sunda", "cayman", "mariana", "maverick"];
    let all = enumerators("OPCODE").unwrap();
    assert_eq!(all.len(), PRESENCE_MATRIX.len());
    for (value, name, cols) in PRESENCE_MATRIX {
        let e = opcode(name);
        assert_eq!(e.value, value, "{name}");
        let want: Vec<&str> = ARCH
            .iter()
            .zip(cols.chars())
            .filter(|(_, c)| *c == '1')
            .map(|(a, _)| *a)
            .collect();
        // An enumerator on every generation lists none (the loader's "all").
        let got = if e.arch.is_empty() { &ARCH[..] } else { e.arch };
        assert_eq!(got, want, "{name}");
    }
    // The page's per-column totals, sentinel included: V2 = 145, V3 = 150, V4 = 159, V5 = 165.
    let count = |a: &str| {
        all.iter()
            .filter(|e| e.arch.is_empty() || e.arch.contains(&a))
            .count()
    };
    assert_eq!(
        ARCH.map(count),
        [145, 150, 159, 165],
        "the matrix's per-column totals"
    );
}

#[test]
fn the_master_reference_names_are_aliases_and_disagreements_are_conflicts() {
    // The Master Opcode Reference §1 names (the spec's earlier primaries) resolve to the
    // shipped enumerators; the names the spec coined are marked ours.
    for (name, alias) in [
        ("TENSOR_REDUCE_ARITH_OP", "TensorReduce_0x42"),
        ("RECIPROCAL", "Reciprocal"),
        ("MEMSET", "Memset"),
        ("BATCH_NORM_STATS2", "BNStats"),
        ("MAX8", "Max"),
        ("CROSS_LANE_REDUCE_ARITH", "TensorReduce"),
        ("CUSTOM_OP_HEADER", "CustomOp"),
        ("CUSTOM_OP_PAYLOAD", "CustomOp_0x86"),
        ("DVE_READ_ACCUMULATOR", "DveReadAccumulator"),
        ("MOVE", "RegisterMove"),
        ("ALU_OP", "RegisterAlu"),
        ("PSEUDO_TENSOR_STORE", "TensorSave_0xcd"),
        ("PSEUDO_TENSOR_LOAD", "TensorLoad"),
        ("PSEUDO_SYNC_BARRIER", "AllEngineBarrier"),
        ("PSEUDO_CORE_BARRIER", "CoreBarrier"),
        ("RAND2", "Rand2"),
        ("SELECT_REDUCE", "CopyPredicated"),
        ("NONZERO_WITH_COUNT", "NonzeroWithCount"),
    ] {
        assert!(opcode(name).aliases.contains(&alias), "{name}: {alias}");
    }
    let o = dmaspec(&["decode", "--hex", "-"], &word_hex(0xea));
    assert!(
        stdout(&o).contains("0xea SELECT_REDUCE (DVE): no layout in the spec"),
        "{}",
        stdout(&o)
    );
    // 0xc3, which the spec lacked: PSEUDO_DMABARRIER on all four (| 0xc3 | PSEUDO_DMABARRIER |
    // c3 | c3 | c3 | c3 | invariant |); 0x72 COPY_PREDICATED is its own byte.
    assert_eq!(opcode("PSEUDO_DMABARRIER").value, 0xc3);
    assert_eq!(opcode("COPY_PREDICATED").value, 0x72);
    // Where the Master Opcode Reference reads a byte as another operation, both readings are
    // kept (wiki-opcode-diff §2 against wiki-master-opcode §1 / §3).
    for c in [
        "bn_backprop_bundle_roles",
        "opcode_0x8a_bf16_add",
        "opcode_0xea_select_reduce",
        "tensor_scalar_ptr_dispatch_bytes",
    ] {
        let c = dmaspec::words::CONFLICTS
            .iter()
            .find(|x| x.name == c)
            .expect(c);
        assert_eq!(c.readings.len(), 2, "{}", c.name);
        assert_eq!(c.about, ["OPCODE"], "{}", c.name);
    }
}
