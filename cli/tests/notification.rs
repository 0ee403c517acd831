//! Hand-built vectors for the 16-byte NOTIFIC queue entry NOTIFICATION
//! (aws_neuron_isa_notification.h, wiki page "CSR — NOTIFIC Queue", source wiki-csr-notific).
//! Each vector is written byte by byte from the page's tables (§4.1 header bits, §4.2 frame
//! offsets, §4.4 per-type bodies, §4.5 DGE completion record, §5 notific_type codes), never
//! from our encoder: decoded through the generated API, checked field by field, and re-encoded
//! byte-exact. The §4.4 bodies give fields in order and width only; their bit positions are
//! packed LSB first from bit 0 of word0 [23:0] / word1, as the spec places them.

mod common;

use common::{assert_success, dmaspec, stdout};
use dmaspec::words::*;

fn rec(bytes: &[u8; 16]) -> NOTIFICATION {
    let r = NOTIFICATION::decode(bytes).expect("16 bytes");
    // Round trip: the record re-encodes to the bytes it came from.
    assert_eq!(r.encode(), *bytes);
    r
}

/// TPB_PE_INST_START with the phase bit set.
/// - §5 row "| `0x04` | `TPB_PE_INST_START` |": notific_type = 0x04.
/// - §4.1 "uint8_t phase:1; // header byte [7] = word0[31]": header byte = 0x80 | 0x04 = 0x84.
/// - §4.4 row "TPB IMPLICIT INST_START | program_counter:20, debug_hint:4,
///   soft_reset_counter:16, evt_wait_num_cycles:16": word0[23:0] = 0x6 << 20 | 0x12345
///   = 0x612345; word1 = 0x0304 << 16 | 0x0102.
/// - §4.2 row "| `[127:64]` | `timestamp` | 8–15 | 64 |" and `struct { uint32_t low; uint32_t
///   high; }`: low = 0x11223344, high = 0x55667788.
const PE_INST_START: [u8; 16] = [
    0x45, 0x23, 0x61, 0x84, // word0 = 0x84612345
    0x02, 0x01, 0x04, 0x03, // word1 = 0x03040102
    0x44, 0x33, 0x22, 0x11, // timestamp.low
    0x88, 0x77, 0x66, 0x55, // timestamp.high
];

#[test]
fn pe_inst_start_decodes_from_the_header_and_body_rows() {
    let r = rec(&PE_INST_START);
    let NOTIFICATION_BODY_arm::tpb_pe_inst_start(a) = r.body.arm() else {
        panic!("arm {}", r.body.variant());
    };
    assert_eq!(r.body.variant(), "tpb_pe_inst_start");
    assert_eq!(a.header.notific_type, NOTIFICATION_TYPE::TPB_PE_INST_START);
    assert_eq!(a.header.notific_type.0, 0x04);
    assert_eq!(a.header.phase, 1);
    assert_eq!(a.header.software_queue_overflow, 0);
    assert_eq!(a.header.hardware_queue_overflow, 0);
    assert_eq!(a.word0.program_counter, 0x12345);
    assert_eq!(a.word0.debug_hint, 0x6);
    assert_eq!(a.soft_reset_counter, 0x0102);
    assert_eq!(a.evt_wait_num_cycles, 0x0304);
    assert_eq!(r.timestamp.low, 0x1122_3344);
    assert_eq!(r.timestamp.high, 0x5566_7788);
    assert_eq!(r.timestamp.ps(), 0x5566_7788_1122_3344);
}

/// DMA M2S_EOP with the hardware-overflow bit set.
/// - §5 row "| `0x02` | `DMA` |"; §4.1 "uint8_t hardware_queue_overflow:1; // header byte [6]":
///   header byte = 0x40 | 0x02 = 0x42.
/// - §4.4 row "DMA M2S/S2M EOP | nbytes:24, dma_notific_type:4, queue:4, crc:16 (CRC16)":
///   word0[23:0] = nbytes = 0x001000; word1 = crc 0xBEEF << 8 | queue 5 << 4 | M2S_EOP.
/// - §4.4 "`M2S_SOP=0x1 M2S_EOP=0x2 …`": dma_notific_type = 0x2.
/// - timestamp low = 0, high = 1 (§4.2 bytes 8–15).
const DMA_M2S_EOP: [u8; 16] = [
    0x00, 0x10, 0x00, 0x42, // word0 = 0x42001000
    0x52, 0xEF, 0xBE, 0x00, // word1 = 0x00BEEF52
    0x00, 0x00, 0x00, 0x00, // timestamp.low
    0x01, 0x00, 0x00, 0x00, // timestamp.high
];

#[test]
fn dma_eop_decodes_its_sub_type_and_the_eop_alternatives() {
    let r = rec(&DMA_M2S_EOP);
    let NOTIFICATION_BODY_arm::dma(a) = r.body.arm() else {
        panic!("arm {}", r.body.variant());
    };
    assert_eq!(a.header.notific_type, NOTIFICATION_TYPE::DMA);
    assert_eq!(a.header.hardware_queue_overflow, 1);
    assert_eq!((a.header.software_queue_overflow, a.header.phase), (0, 0));
    assert_eq!(a.word1.dma_notific_type, DMA_NOTIFICATION_TYPE::M2S_EOP);
    assert_eq!(a.word1.dma_notific_type.0, 0x2);
    assert_eq!(a.word0, [0x00, 0x10, 0x00]);
    // The EOP sub-form, which the arm keeps as its members' alternatives.
    let nbytes = DMA_NBYTES_WORD0::read(&DMA_M2S_EOP[0..3].try_into().unwrap());
    assert_eq!(nbytes.nbytes, 4096);
    let eop = DMA_EOP_WORD1::read(&DMA_M2S_EOP[4..8].try_into().unwrap());
    assert_eq!(eop.dma_notific_type, DMA_NOTIFICATION_TYPE::M2S_EOP);
    assert_eq!(eop.queue, 5);
    assert_eq!(eop.crc, 0xBEEF);
    assert_eq!(eop.unknown_24_31, 0);
    assert_eq!(r.timestamp.ps(), 1 << 32);
}

/// TPB_ERROR PSUM_COLLISION with the software-overflow and phase bits set.
/// - §5 row "| | | `0x1f` | `TPB_ERROR` |"; §4.1 bits [5] and [7]: header = 0x80 | 0x20 | 0x1f
///   = 0xBF.
/// - §4.4 row "TPB ERROR | error_id:8 (NEURON_ISA_TPB_ERROR_TYPE), metadata_lo:16 union,
///   metadata_hi:32 union": error_id = PSUM_COLLISION(0x08) (§5), metadata_lo = 0xCAFE,
///   metadata_hi = 0xDEADBEEF.
/// - timestamp low = 0x89ABCDEF, high = 0x01234567.
const TPB_ERROR_PSUM: [u8; 16] = [
    0x08, 0xFE, 0xCA, 0xBF, // word0 = 0xBFCAFE08
    0xEF, 0xBE, 0xAD, 0xDE, // word1 = 0xDEADBEEF
    0xEF, 0xCD, 0xAB, 0x89, // timestamp.low
    0x67, 0x45, 0x23, 0x01, // timestamp.high
];

#[test]
fn tpb_error_decodes_error_id_and_metadata() {
    let r = rec(&TPB_ERROR_PSUM);
    let NOTIFICATION_BODY_arm::tpb_error(a) = r.body.arm() else {
        panic!("arm {}", r.body.variant());
    };
    assert_eq!(a.header.notific_type, NOTIFICATION_TYPE::TPB_ERROR);
    assert_eq!(
        (
            a.header.software_queue_overflow,
            a.header.hardware_queue_overflow,
            a.header.phase
        ),
        (1, 0, 1)
    );
    assert_eq!(a.error_id, TPB_ERROR_TYPE::PSUM_COLLISION);
    assert_eq!(a.error_id.0, 0x08);
    assert_eq!(a.metadata_lo, 0xCAFE);
    assert_eq!(a.metadata_hi, 0xDEAD_BEEF);
    assert_eq!(r.timestamp.low, 0x89AB_CDEF);
    assert_eq!(r.timestamp.high, 0x0123_4567);
}

/// A DGE completion record (§4.5): a TPB_SP_EXPLICIT notification whose debug_hint is DGE.
/// - §5 row "| `0x0a` | `TPB_ACT_EXPLICIT` | `0x16` | `TPB_SP_EXPLICIT` |": header = 0x16.
/// - §4.5 "uint32_t program_counter:20; uint32_t debug_hint:4; // == DGE (0x1)": word0[23:0]
///   = 0x1 << 20 | 0x40 = 0x100040.
/// - §4.5 "uint16_t dma_map;": 0x8001; "num_packets:12 (0 == 4096), reserved:2,
///   infer_program_counter:1, dma_group_id:1": 0 | 1 << 14 | 1 << 15 = 0xC000.
const SP_DGE_COMPLETION: [u8; 16] = [
    0x40, 0x00, 0x10, 0x16, // word0 = 0x16100040
    0x01, 0x80, 0x00, 0xC0, // dma_map = 0x8001, bytes 6..7 = 0xC000
    0, 0, 0, 0, 0, 0, 0, 0, // timestamp
];

#[test]
fn dge_completion_reads_as_sp_explicit_with_the_dge_alternatives() {
    let r = rec(&SP_DGE_COMPLETION);
    let NOTIFICATION_BODY_arm::tpb_sp_explicit(a) = r.body.arm() else {
        panic!("arm {}", r.body.variant());
    };
    assert_eq!(a.header.notific_type, NOTIFICATION_TYPE::TPB_SP_EXPLICIT);
    assert_eq!(a.word0.program_counter, 0x40);
    assert_eq!(a.word0.debug_hint, 0x1);
    // The EXPLICIT body's names for these bytes (§4.4 row TPB EXPLICIT).
    assert_eq!(a.soft_reset_counter, 0x8001);
    assert_eq!(a.debug_hint_extended, 0xC000);
    // The DGE reading (§4.5), the members' alternatives.
    let dge = TPB_DGE_METADATA_WORD::read(&SP_DGE_COMPLETION[6..8].try_into().unwrap());
    assert_eq!(dge.num_packets, 0);
    assert_eq!(dge.reserved, 0);
    assert_eq!(dge.infer_program_counter, 1);
    assert_eq!(dge.dma_group_id, 1);
}

/// ERROR (0x03) as a warning (n_type = 1), which the error arm reads as an interrupt unless
/// its alternative is asked for.
/// - §5 row "| `0x03` | `ERROR` (interrupt/warning) |": header = 0x03.
/// - §4.4 row "Warning (ERROR, n_type=1) | group:3, n_type:1, metadata_0:4, block_id:10,
///   metadata_1:6, metadata_2:32": group 5, n_type 1, metadata_0 0xA, block_id 0x155,
///   metadata_1 0x2A ⇒ word0[23:0] = 5 | 1 << 3 | 0xA << 4 | 0x155 << 8 | 0x2A << 18 = 0xA955AD;
///   metadata_2 = 0x01020304.
/// - §4.4 row "Interrupt (ERROR, n_type=0) | group:3, n_type:1, block_id:10, cause_bits:32":
///   the same bits read as an interrupt give block_id = bits 4..13 = 0x15A.
const ERROR_WARNING: [u8; 16] = [
    0xAD, 0x55, 0xA9, 0x03, // word0 = 0x03A955AD
    0x04, 0x03, 0x02, 0x01, // word1 = 0x01020304
    0, 0, 0, 0, 0, 0, 0, 0, // timestamp
];

#[test]
fn error_warning_reads_through_its_alternative() {
    let r = rec(&ERROR_WARNING);
    let NOTIFICATION_BODY_arm::error(a) = r.body.arm() else {
        panic!("arm {}", r.body.variant());
    };
    assert_eq!(a.header.notific_type, NOTIFICATION_TYPE::ERROR);
    assert_eq!(a.word0.group, 5);
    assert_eq!(a.word0.n_type, 1);
    assert_eq!(a.word0.block_id, 0x15A);
    assert_eq!(a.cause_bits, 0x0102_0304);
    let w = ERROR_WARNING_WORD0::read(&ERROR_WARNING[0..3].try_into().unwrap());
    assert_eq!(
        (w.group, w.n_type, w.metadata_0, w.block_id, w.metadata_1),
        (5, 1, 0xA, 0x155, 0x2A)
    );
}

/// An unassigned code decodes as the generic frame.
/// - §5 "Codes `0x00`, `0x01`, `0x18`–`0x1a`, `0x1c`–`0x1d` are unassigned": header = 0x18.
/// - §4.2 rows "[15:0] metadata_0 0–1", "[23:16] metadata_1 2", "[63:32] metadata_2 4–7".
const UNASSIGNED_0X18: [u8; 16] = [
    0x34, 0x12, 0x56, 0x18, // metadata_0 = 0x1234, metadata_1 = 0x56, header = 0x18
    0x78, 0x56, 0x34, 0x12, // metadata_2 = 0x12345678
    0, 0, 0, 0, 0, 0, 0, 0, // timestamp
];

#[test]
fn an_unassigned_code_is_the_generic_frame() {
    let r = rec(&UNASSIGNED_0X18);
    let NOTIFICATION_BODY_arm::generic(a) = r.body.arm() else {
        panic!("arm {}", r.body.variant());
    };
    assert_eq!(a.header.notific_type.0, 0x18);
    assert_eq!(a.metadata_0, 0x1234);
    assert_eq!(a.metadata_1, 0x56);
    assert_eq!(a.metadata_2, 0x1234_5678);
}

#[test]
fn the_overflow_and_phase_bits_do_not_change_the_arm() {
    // §4.1: bits 5..7 of the header byte are the two overflow flags and the phase; the
    // type is bits 0..4 only. 0xE4 = phase | hw | sw | TPB_PE_INST_START.
    let mut b = PE_INST_START;
    b[3] = 0xE4;
    let r = rec(&b);
    assert_eq!(r.body.variant(), "tpb_pe_inst_start");
}

#[test]
fn arms_built_from_fields_encode_to_the_page_bytes() {
    // The TPB_ERROR vector again, built from its fields and encoded.
    let arm = NOTIFICATION_BODY_tpb_error {
        error_id: TPB_ERROR_TYPE::PSUM_COLLISION,
        metadata_lo: 0xCAFE,
        header: NOTIFICATION_HEADER {
            notific_type: NOTIFICATION_TYPE::TPB_ERROR,
            software_queue_overflow: 1,
            hardware_queue_overflow: 0,
            phase: 1,
        },
        metadata_hi: 0xDEAD_BEEF,
    };
    let r = NOTIFICATION {
        body: NOTIFICATION_BODY::from(arm),
        timestamp: NOTIFICATION_TIMESTAMP {
            low: 0x89AB_CDEF,
            high: 0x0123_4567,
        },
    };
    assert_eq!(r.encode(), TPB_ERROR_PSUM);
}

#[test]
fn the_cli_decodes_a_ring_of_records() {
    let hex: String = [PE_INST_START, DMA_M2S_EOP, TPB_ERROR_PSUM]
        .iter()
        .map(|r| r.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let out = dmaspec(
        &["decode", "--struct", "NOTIFICATION", "--hex"],
        hex.as_bytes(),
    );
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("TPB_PE_INST_START"), "{text}");
    assert!(
        text.contains("body.tpb_pe_inst_start.word0.program_counter"),
        "{text}"
    );
    assert!(text.contains("M2S_EOP"), "{text}");
    assert!(text.contains("PSUM_COLLISION"), "{text}");
}
