//! Issue 13 §4/§5 as Rust data: the `[[conflict]]` records, DMAQoSClass and its narrowing
//! table, WAIT_MODE's _REG values and the new InstructionType values, all from the tables.

use dmaspec::prelude::*;
use dmaspec::words::{self, CONFLICTS, DMAQoSClass, WAIT_MODE};

#[test]
fn fp32r_size_is_a_conflict_with_both_readings() {
    let c = CONFLICTS
        .iter()
        .find(|c| c.name == "fp32r_size")
        .expect("recorded");
    assert_eq!(c.about, ["DTYPE", "dtype_size"]);
    assert_eq!(c.readings.len(), 2);
    assert_eq!(c.readings[0].confidence.tag, "CERTAIN");
    assert_eq!(c.readings[1].confidence.tag, "HIGH/CARRIED");
    assert!(
        c.readings[1]
            .evidence
            .iter()
            .any(|e| e.cite == "supp-consolidated §1.3")
    );
    // The table still follows the ADDR4 container reading.
    assert_eq!(words::dtype_size(words::DTYPE::FP32R), 4);
}

#[test]
fn dmaqos_class_has_the_consolidated_pages_seventeen_values() {
    // supp-consolidated §3.4: Unassigned=0, Default=1, P0..P14 = 2..16.
    assert_eq!(DMAQoSClass::Unassigned.raw(), 0);
    assert_eq!(DMAQoSClass::Default.raw(), 1);
    assert_eq!(DMAQoSClass::P0.raw(), 2);
    assert_eq!(DMAQoSClass::P14.raw(), 16);
    // supp-consolidated §7: P2 -> wire (P2-1) -> saturated into 0..4.
    assert_eq!(words::dma_qos_priority_class(DMAQoSClass::P2), 3);
    assert_eq!(words::dma_qos_priority_class(DMAQoSClass::Default), 0);
    assert_eq!(words::dma_qos_priority_class(DMAQoSClass::P14), 4);
}

#[test]
fn wait_mode_reg_variants_and_new_instruction_types() {
    // supp-field-tables Table 4.13: 0x81..0x85 are the _REG variants; the core-barrier page
    // §3 spells them `..._EQ/LT/LE/GT/GE_REG` (the WAIT_FOR_SEM_ prefix is dmaspec's reading).
    assert_eq!(WAIT_MODE::WAIT_FOR_SEM_EQ_REG.raw(), 0x81);
    assert_eq!(WAIT_MODE::WAIT_FOR_SEM_GE_REG.raw(), 0x85);
    // supp-indirect-descriptors (42/43) and seed 000 §The sibling (73).
    use words::klr::enums::InstructionType;
    assert_eq!(InstructionType::InstGenericIndirectLoad.raw(), 42);
    assert_eq!(InstructionType::InstIndirectLoad.raw(), 43);
    assert_eq!(InstructionType::InstRegisterAlu.raw(), 73);
}

#[test]
fn the_compilers_gates_are_spec_constants() {
    use dmaspec::dge::{QosEncoding, is_dst_reduce_dge, qos_encoding};
    // seed 000 §Static arm: Inferentia (10) and Sunda (20) emit no QoS; arch <= 49 the
    // ISA class-1 encoding; core_v5 >= 50 raw.
    assert_eq!(words::QOS_ARCH_INFERENTIA, 10);
    assert_eq!(words::QOS_ARCH_SUNDA, 20);
    assert_eq!(words::QOS_ISA_CLASS_MAX_ARCH, 49);
    assert_eq!(qos_encoding(49), QosEncoding::IsaClass);
    assert_eq!(qos_encoding(50), QosEncoding::Raw);
    // seed 000 §Dynamic / DGE / indirect arm (C): isDstReduceDGE when IT == 32 && arch <= 49.
    assert!(is_dst_reduce_dge(32, 49));
    assert!(!is_dst_reduce_dge(32, 50));
    assert!(!is_dst_reduce_dge(44, 30));
    // seed 000 §The bundle lifecycle: the CodeGenMode arms.
    use words::CodeGenMode;
    assert_eq!(CodeGenMode::COLLECT_OPCODES.raw(), 0);
    assert_eq!(CodeGenMode::GENERATE_ISACODE.raw(), 1);
    assert_eq!(CodeGenMode::RUN_ISA_CHECKS.raw(), 2);
}

#[test]
fn a_word_waiting_on_a_register_threshold_decodes_its_mode() {
    // Hand-built: DMA_DIRECT2D (0xb8, inst_word_len 0x10, seed-004 §2) whose EVENTS
    // (+4, supp-field-tables Table 4.2) wait_mode is 0x83, one of Table 4.13's
    // `0x81..0x85 | ..._REG variants (reg threshold)`.
    let mut word = [0u8; 64];
    word[0] = 0xb8;
    word[1] = 0x10;
    word[4] = 0x83;
    let w = words::DMA_DIRECT2D::decode(&word).expect("decodes");
    assert_eq!(w.events.wait_mode, WAIT_MODE::WAIT_FOR_SEM_LE_REG);
    assert_eq!(w.encode(), word);
}
