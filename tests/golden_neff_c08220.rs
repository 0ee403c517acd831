//! The real engine streams of the NEFF carved out of libnrt.so at file offset 0xC08220:
//! sg00/pe.bin (64 B) and sg00/pool.bin (192 B), written by hand into
//! tests/vectors/neff_c08220/ from the xxd dumps of the wiki page "Per-Engine TPB-Sequencer
//! Microcode (64-byte word)" §7.1 and §7.2, not produced by our encoder. Every field is
//! checked against the row of the page's tables that names it, under the name the page's
//! tables (the producer's pe.asm / pool.asm) give it, and each slot re-encodes byte-exact.

mod common;

use common::vectors;
use dmaspec::words::*;

const ARCHS: [Arch; 4] = [Arch::sunda, Arch::cayman, Arch::mariana, Arch::maverick];

fn header(opcode: OPCODE) -> HEADER {
    HEADER {
        opcode,
        inst_word_len: 0x10,
        debug_cmd: 0,
        debug_hint: 0,
    }
}

fn events(wait: WAIT_MODE, wait_idx: u8, update: UPDATE_MODE, update_idx: u8) -> EVENTS {
    EVENTS {
        wait_mode: wait,
        wait_idx,
        update_mode: update,
        update_idx,
        semaphore_value: 0,
    }
}

fn field(
    fields: &[dmaspec::runtime::meta::FieldMeta],
    name: &str,
) -> dmaspec::runtime::meta::FieldMeta {
    *fields.iter().find(|f| f.name == name).expect(name)
}

/// §7.1: pe.bin is one PSEUDO_TRIGGER_COLLECTIVE; its decode is pe.asm's line
/// `PSEUDO_TRIGGER_COLLECTIVE $S[10]>0 $S[22]++@complete ctype=ALL_REDUCE input_tensor_id=3
/// output_tensor_id=4 num_elements=32 dtype=fp32 op=ADD group_id=0;`.
#[test]
fn pe_bin_is_one_trigger_collective() {
    let pe = vectors("neff_c08220/pe.hex");
    assert_eq!(pe.len(), 1, "pe.bin is 64 B, 1 slot");
    let bytes = pe[0];
    let w = PSEUDO_TRIGGER_COLLECTIVE::decode(&bytes).expect("opcode 0xc8");
    // Row `c8 10 00 00` +0x00 header: op 0xC8, len 0x10, dcmd 0, dhint 0.
    assert_eq!(w.header, header(OPCODE::PSEUDO_TRIGGER_COLLECTIVE));
    // Rows `04 0a 13 16` +0x04 and `00 00 00 00` +0x08: wait $S[10]>0 (0x04 is the strict
    // GT compare), $S[22]++ @complete, sem_value 0.
    assert_eq!(
        w.events,
        events(
            WAIT_MODE::WAIT_FOR_SEM_GT_IMM,
            10,
            UPDATE_MODE::SEM_INC_COMPLETE,
            22
        )
    );
    // Rows +0x0C op = ADD, +0x0D dtype = FP32, +0x0E group_id = 0.
    assert_eq!(w.op, ALU_OP::ADD);
    assert_eq!(w.dtype, DTYPE::FP32);
    assert_eq!(w.group_id, 0);
    // Rows +0x10 input_tensor_id = 3 (gradient_in), +0x14 output_tensor_id = 4
    // (gradient_out), +0x18 num_elements = 32.
    assert_eq!((w.input_tensor_id, w.output_tensor_id), (3, 4));
    assert_eq!(w.num_elements, 32);
    // Row +0x20 ctype = ALL_REDUCE; §6 reserved1[15] at +0x21.
    assert_eq!(w.ctype, COLLECTIVE_TYPE::ALL_REDUCE);
    assert_eq!(w.reserved1, [0; 15]);
    // Row +0x30 / +0x38 src/dst_offset_elems 0 / 0.
    assert_eq!((w.src_offset_elems, w.dst_offset_elems), (0, 0));
    assert_eq!(w.encode(), bytes);
    // Every architecture dispatches the byte to it; §6: no static is_valid assert, so no
    // rule can refuse it.
    for arch in ARCHS {
        let word = Word::decode(&bytes, arch).expect("0xc8 has a word");
        assert_eq!(word.meta().name, "PSEUDO_TRIGGER_COLLECTIVE");
        assert_eq!(word.check(arch).mask, 0);
    }
}

/// §7.2 slots 0 and 1: the two PSEUDO_DMA_TRIGGERs, with the shipped header's names
/// (§5: use_raw_count, the block_id | count union, reserved) at its offsets + 4.
#[test]
fn pool_bin_slots_0_and_1_are_dma_triggers() {
    let pool = vectors("neff_c08220/pool.hex");
    assert_eq!(pool.len(), 3, "pool.bin is 192 B, 3 slots");
    // slot0: `PSEUDO_DMA_TRIGGER q_gradient_in block_id=0;` — events all 0, no wait.
    // slot1: `PSEUDO_DMA_TRIGGER $S[22]>0 q_gradient_out block_id=0;` — wait 0x04 / idx 0x16.
    let expected = [
        (
            events(WAIT_MODE::NONE, 0, UPDATE_MODE::NONE, 0),
            "q_gradient_in",
        ),
        (
            events(WAIT_MODE::WAIT_FOR_SEM_GT_IMM, 22, UPDATE_MODE::NONE, 0),
            "q_gradient_out",
        ),
    ];
    for (slot, (ev, queue)) in expected.into_iter().enumerate() {
        let bytes = pool[slot];
        let w = PSEUDO_DMA_TRIGGER::decode(&bytes).expect("opcode 0xc1");
        assert_eq!(w.header, header(OPCODE::PSEUDO_DMATRIGGER), "slot {slot}");
        assert_eq!(w.events, ev, "slot {slot}");
        // +0x0C dma_queue_name: the 8-byte events put it here, not at the header's +0x08.
        assert_eq!(w.dma_queue_name.as_str(), Some(queue), "slot {slot}");
        assert!(w.dma_queue_name.is_canonical());
        // +0x28+Δ use_raw_count 0 (block_id refs a k-elf block); +0x2C+Δ block_id 0.
        assert_eq!(w.use_raw_count, 0, "slot {slot}");
        assert_eq!(w.block_id, 0, "slot {slot}");
        assert_eq!(w.reserved, [0; 12], "slot {slot}");
        assert_eq!(w.encode(), bytes, "slot {slot}");
        // Valid on every architecture: the shipped check's non-empty name holds.
        for arch in ARCHS {
            assert_eq!(w.validate(arch), Ok(()), "slot {slot} on {arch:?}");
        }
    }
    // Read at the header's +0x08 (4-byte events) the name would be empty, which its own
    // check refuses (§7.2 GOTCHA): the bytes there are the 8-byte events' semaphore_value.
    assert_eq!(pool[0][0x08..0x0C], [0; 4]);
    assert_eq!(&pool[0][0x0C..0x10], b"q_gr");
}

/// The shipped header's own layout (§5) stays readable as alternatives: +0x04 as the
/// 4-byte TONGA events, +0x2C as the block_id | count union, +0x30 as reserved; and the
/// union's other arm, count, over block_id.
#[test]
fn the_header_layout_is_kept_as_alternatives() {
    let f = PSEUDO_DMA_TRIGGER::FIELDS;
    let names = |name: &str| -> Vec<(&str, &str)> {
        (field(f, name).alternatives.iter())
            .map(|a| (a.name, a.type_name))
            .collect()
    };
    assert_eq!(field(f, "use_raw_count").offset, 0x2C);
    assert_eq!(field(f, "block_id").offset, 0x30);
    assert_eq!(field(f, "reserved").offset, 0x34);
    assert_eq!(
        names("events"),
        [("tonga_inst_events", "TONGA_INST_EVENTS")]
    );
    assert_eq!(names("use_raw_count"), [("tonga_block_id", "u32")]);
    assert_eq!(
        names("block_id"),
        [("count", "u32"), ("tonga_reserved_head", "u8[4]")]
    );
    // slot1's events read as the 4-byte TONGA block: wait_event_mode 4 is no TONGA mode
    // (WAIT_NONE 0 / WAIT_FOR_SET 1 / WAIT_FOR_SET_THEN_CLEAR 2), one more sign that the
    // stream carries the 8-byte block.
    let pool = vectors("neff_c08220/pool.hex");
    let legacy = TONGA_INST_EVENTS::read(pool[1][4..8].try_into().unwrap());
    assert_eq!(legacy.wait_event_mode.raw(), 4);
    assert_eq!(legacy.wait_event_mode.name(), None);
    assert_eq!(legacy.wait_event_idx, 0x16);
    assert_eq!(legacy.set_event_mode, TONGA_SET_EVENT_MODE::SET_NONE);
    // The recorded conflict names both layouts.
    let c = CONFLICTS
        .iter()
        .find(|c| c.name == "pseudo_dma_trigger_events_width")
        .expect("the conflict");
    let readings: Vec<&str> = c.readings.iter().map(|r| r.name).collect();
    assert_eq!(
        readings,
        ["shipped_header_4_byte_events", "real_stream_8_byte_events"]
    );
}

/// §7.2 slot2 (`a0 10 00 00`, `04 0b …`): EVENT_SEMAPHORE 0xA0, a SEQ control op outside the
/// DMA family (§2.2). The spec knows the enumerator but has no word for it, so decode
/// finds no word on any architecture (validation's verdict on it is another item's).
#[test]
fn pool_bin_slot_2_is_an_opcode_without_a_word() {
    let pool = vectors("neff_c08220/pool.hex");
    let bytes = pool[2];
    assert_eq!(bytes[..8], [0xa0, 0x10, 0, 0, 0x04, 0x0b, 0, 0]);
    assert_eq!(OPCODE::from_raw(0xa0), OPCODE::EVENT_SEMAPHORE);
    for arch in ARCHS {
        assert!(Word::decode(&bytes, arch).is_none(), "{arch:?}");
    }
    assert!(WORDS.iter().all(|w| w.opcode != 0xa0));
}

/// The barrier words whose pages give a compile-verified layout (wiki-core-barrier §1, §7):
/// a hand-built word of each, field by field.
#[test]
fn the_barrier_words_sit_where_the_headers_compile_them() {
    // §1.4's image, with inst_word_len 0x10 as every real slot has it (the conflict
    // inst_word_len_unit records the page's illustrative 0x40).
    let mut b = [0u8; 64];
    b[..16].copy_from_slice(&[
        0xd8, 0x10, 0, 0, 0x05, 0x07, 0x13, 0x07, 0x04, 0, 0, 0, 0x2a, 0, 0, 0,
    ]);
    b[16] = 0x07;
    let w = PSEUDO_CORE_BARRIER::decode(&b).expect("opcode 0xd8");
    assert_eq!(w.header, header(OPCODE::PSEUDO_CORE_BARRIER));
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_GE_IMM);
    assert_eq!(w.events.update_mode, UPDATE_MODE::SEM_INC_COMPLETE);
    assert_eq!((w.events.wait_idx, w.events.update_idx), (7, 7));
    assert_eq!(w.events.semaphore_value, 4);
    assert_eq!((w.id, w.semaphore), (0x2a, 7));
    assert_eq!(w.reserved1, [0; 44]);
    assert_eq!(w.encode(), b);
    // §7: PSEUDO_DMABARRIER's barrier_metadata u32 @12, reserved0[48] @16.
    let mut b = [0u8; 64];
    b[0] = 0xc3;
    b[1] = 0x10;
    b[12..16].copy_from_slice(&0x8000_0001u32.to_le_bytes());
    let w = PSEUDO_DMA_BARRIER::decode(&b).expect("opcode 0xc3");
    assert_eq!(w.header, header(OPCODE::PSEUDO_DMABARRIER));
    assert_eq!(w.barrier_metadata, 0x8000_0001);
    assert_eq!(w.reserved0, [0; 48]);
    assert_eq!(w.encode(), b);
}
