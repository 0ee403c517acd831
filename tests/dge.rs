//! The compiler semantics in `dmaspec::dge` (seed 000): the 0xd4 builder and its inverse,
//! the element-span rule, the dtype-size LUT, QoS gating and the IndirectLoad/Save
//! direction. The builder is checked against the hand-written golden vectors.

mod common;

use common::{vector, vectors};
use dmaspec::dge::*;
use dmaspec::words::*;

/// A BIR dtype index whose LUT entry is 2 bytes. No source says which BIR index is fp16 or
/// bf16; the builder only needs the size, and the wire tag is given separately.
const BIR_2_BYTES: u8 = 10;

fn tile(step: i64, num: u32, last_num: u32) -> AccessPattern {
    AccessPattern {
        pairs: [ApPair { step, num }, ApPair { step: 0, num: 1 }],
        last_num,
    }
}

fn side(ap: AccessPattern, dtype: DTYPE, addressing: Addressing, move_flag: bool) -> DmaSide {
    DmaSide {
        ap,
        bir_dtype: BIR_2_BYTES,
        dtype,
        addressing,
        move_flag,
    }
}

/// seed-000 §Worked example, as `generateDynamicDMA` consumes it.
fn worked_example() -> Direct2dRequest {
    Direct2dRequest {
        src: side(
            tile(512, 128, 512),
            DTYPE::FP16,
            Addressing::Physical {
                immediate: 0x400,
                var_id: 0,
            },
            false,
        ),
        dst: side(
            tile(512, 128, 512),
            DTYPE::FP16,
            Addressing::Physical {
                immediate: 0,
                var_id: 5,
            },
            false,
        ),
        events: EVENTS {
            wait_mode: WAIT_MODE::NONE,
            wait_idx: 0,
            update_mode: UPDATE_MODE::SEM_INC_COMPLETE,
            update_idx: 2,
            semaphore_value: 1,
        },
        semaphore: 2,
        sem_increment: 1,
        sync_command: SyncCommand::Copy,
        arch: 20,
        qos: 3,
    }
}

#[test]
fn builder_reproduces_the_worked_example() {
    let w = build_direct2d(&worked_example()).unwrap();
    assert_eq!(w.encode(), vector("seed000_static_save.hex"));
}

#[test]
fn builder_reproduces_the_0x6c_transpose() {
    let ap = tile(128, 128, 128);
    let req = Direct2dRequest {
        src: side(
            ap,
            DTYPE::BFLOAT16,
            Addressing::DgeRegister {
                reg_id: 6,
                table_entry_id: 3,
                two_registers: false,
            },
            false,
        ),
        dst: side(
            ap,
            DTYPE::BFLOAT16,
            Addressing::DgeRegister {
                reg_id: 7,
                table_entry_id: 4,
                two_registers: true,
            },
            true,
        ),
        events: EVENTS::default(),
        semaphore: 3,
        sem_increment: 1,
        sync_command: SyncCommand::Transpose,
        arch: 20,
        qos: 0,
    };
    let w = build_direct2d(&req).unwrap();
    assert_eq!(w.encode(), vector("seed000_transpose_6c.hex"));

    // And back.
    let v = access_patterns(&w).unwrap();
    assert_eq!(v.sync_command, SyncCommand::Transpose);
    assert_eq!(v.dst.addressing, req.dst.addressing);
    assert!(v.dst.move_flag && !v.src.move_flag);
    assert_eq!((v.src.ap, v.dst.ap), (ap, ap));
}

#[test]
fn builder_dge_register_addresses_and_offset_registers() {
    // The flip to a HW-DGE register-addressed copy: the 0xd4 word of seed000_hwdge_copy.hex.
    // Its +0x26 / +0x27 offset-register bytes are not part of what the builder takes.
    let mut req = worked_example();
    req.src.addressing = Addressing::DgeRegister {
        reg_id: 4,
        table_entry_id: 1,
        two_registers: false,
    };
    req.dst.addressing = Addressing::DgeRegister {
        reg_id: 5,
        table_entry_id: 2,
        two_registers: false,
    };
    let mut w = build_direct2d(&req).unwrap();
    w.src_bound_reg = BOUND_CHECK_REG::from_raw(4 & 0x3F | 0x80);
    w.dst_bound_reg = BOUND_CHECK_REG::from_raw(5 & 0x3F | 0x80);
    assert_eq!(w.encode(), vectors("seed000_hwdge_copy.hex")[0]);
}

#[test]
fn inverse_gives_back_the_access_patterns() {
    let req = worked_example();
    let w = PSEUDO_DMA_DIRECT2D::decode(&vector("seed000_static_save.hex")).unwrap();
    let v = access_patterns(&w).unwrap();
    assert_eq!(v.src.ap, req.src.ap);
    assert_eq!(v.dst.ap, req.dst.ap);
    assert_eq!((v.src.dtype, v.src.dtype_bytes), (DTYPE::FP16, 2));
    assert_eq!(v.src.addressing, req.src.addressing);
    assert_eq!(v.dst.addressing, req.dst.addressing);
    assert_eq!(v.sync_command, SyncCommand::Copy);
    assert_eq!(v.qos_bits, 0);
    // With sizes from the BIR LUT instead of the wire tag.
    let b = bir_dtype_size(BIR_2_BYTES).unwrap();
    assert_eq!(access_patterns_sized(&w, b, b).unwrap(), v);
}

#[test]
fn round_trip_over_many_patterns() {
    for bir in 0..20u8 {
        for (step0, step1, num0, num1, last) in [
            (1i64, 0i64, 1u32, 1u32, 1u32),
            (-3, 7, 65535, 2, 300),
            (1024, -1024, 16, 16, 16),
            (0, 0, 0, 0, 1),
        ] {
            let bytes = bir_dtype_size(bir).unwrap();
            let last = last.min(0x10000 / bytes);
            let ap = AccessPattern {
                pairs: [
                    ApPair {
                        step: step0,
                        num: num0,
                    },
                    ApPair {
                        step: step1,
                        num: num1,
                    },
                ],
                last_num: last,
            };
            let mut req = worked_example();
            req.src.ap = ap;
            req.dst.ap = ap;
            req.src.bir_dtype = bir;
            req.dst.bir_dtype = bir;
            let w = build_direct2d(&req).unwrap();
            assert_eq!(w.src_step_elem[0], (step0 * i64::from(bytes)) as i32);
            let v = access_patterns_sized(&w, bytes, bytes).unwrap();
            assert_eq!((v.src.ap, v.dst.ap), (ap, ap), "bir {bir}");
            assert_eq!(PSEUDO_DMA_DIRECT2D::decode(&w.encode()).unwrap(), w);
        }
    }
}

/// `*_elem_size = dtype_bytes x last num`; a 64 KiB span is stored as 0 and reads back as
/// 65536; anything larger does not fit.
#[test]
fn element_span_rule() {
    assert_eq!(element_span(0x10000), Some(0));
    assert_eq!(element_span(0xFFFF), Some(0xFFFF));
    assert_eq!(element_span(1), Some(1));
    assert_eq!(element_span(0), None);
    assert_eq!(element_span(0x10001), None);

    let mut req = worked_example();
    req.src.ap = tile(32768, 1, 32768);
    req.dst.ap = tile(32768, 1, 32768);
    let w = build_direct2d(&req).unwrap();
    assert_eq!(w.src_elem_size, 0);
    assert_eq!(w.src_elem_size_value(), 65536);
    let v = access_patterns(&w).unwrap();
    assert_eq!(v.src.ap.last_num, 32768);

    req.src.ap = tile(32769, 1, 32769);
    req.dst.ap = req.src.ap;
    assert_eq!(
        build_direct2d(&req).unwrap_err(),
        DgeError::ElemSizeOutOfRange {
            side: Side::Src,
            bytes: 65538
        }
    );
}

#[test]
fn get_ap_step_on_hw_is_step_times_dtype_bytes() {
    assert_eq!(get_ap_step_on_hw(512, 2), Some(1024));
    assert_eq!(get_ap_step_on_hw(-3, 4), Some(-12));
    assert_eq!(get_ap_step_on_hw(i64::from(i32::MAX), 2), None);
    let mut req = worked_example();
    req.dst.ap.pairs[1] = ApPair {
        step: 1 << 30,
        num: 1,
    };
    assert_eq!(
        build_direct2d(&req).unwrap_err(),
        DgeError::StepOverflow {
            side: Side::Dst,
            dim: 1
        }
    );
}

#[test]
fn dtype_size_lut() {
    let sizes: Vec<u32> = (0..20).map(|i| bir_dtype_size(i).unwrap()).collect();
    assert_eq!(
        sizes,
        [1, 1, 2, 1, 1, 1, 1, 1, 4, 4, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8]
    );
    assert_eq!(bir_dtype_size(0x14), Err(DgeError::UnknownDtype(0x14)));
    assert!(
        DgeError::UnknownDtype(0x14)
            .to_string()
            .contains("Unknown dtype")
    );

    // The wire-tag sizes come from the spec's dtype_size table.
    assert_eq!(dtype_size(DTYPE::FP16), 2);
    assert_eq!(dtype_size(DTYPE::UINT8), 1);
    assert_eq!(dtype_size(DTYPE::FP32), 4);
    assert_eq!(dtype_size(DTYPE::INT64), 8);
    assert_eq!(dtype_size(DTYPE::INVALID), 0);

    let mut w = PSEUDO_DMA_DIRECT2D::decode(&vector("seed000_static_save.hex")).unwrap();
    w.in_dtype = DTYPE::INVALID;
    assert_eq!(
        access_patterns(&w).unwrap_err(),
        DgeError::UnknownWireDtype {
            side: Side::Src,
            raw: 0
        }
    );
}

/// supportsDMAQoSOnISA: arch <= 49 encodes the class, >= 50 writes the raw value, and
/// Inferentia (10) and Sunda (20) write nothing.
#[test]
fn qos_gating_by_architecture() {
    assert_eq!(qos_encoding(10), QosEncoding::None);
    assert_eq!(qos_encoding(20), QosEncoding::None);
    assert_eq!(qos_encoding(30), QosEncoding::IsaClass);
    assert_eq!(qos_encoding(49), QosEncoding::IsaClass);
    assert_eq!(qos_encoding(50), QosEncoding::Raw);
    assert_eq!(qos_encoding(60), QosEncoding::Raw);

    assert_eq!(qos_bits(20, 5), None);
    assert_eq!(qos_bits(30, 0), Some(0));
    assert_eq!(qos_bits(30, 3), Some(2));
    assert_eq!(qos_bits(50, 3), Some(3));
    assert_eq!(qos_bits(50, 13), Some(5)); // (qos & 7)

    let mut req = worked_example();
    req.qos = 4;
    for (arch, bits) in [(10, 0), (20, 0), (40, 3), (50, 4)] {
        req.arch = arch;
        let w = build_direct2d(&req).unwrap();
        assert_eq!(w.dma_configs.priority_class, bits, "arch {arch}");
        assert_eq!(w.dma_configs.reserved_bitfield, 0);
    }
}

/// IndirectLoad / IndirectSave direction at 0xc4 +0x3C = isLoad ^ 1.
#[test]
fn indirect_direction_is_is_load_xor_1() {
    assert_eq!(indirection_mode(true), 0);
    assert_eq!(indirection_mode(false), 1);
    assert_eq!(is_load(0), Some(true));
    assert_eq!(is_load(1), Some(false));
    assert_eq!(is_load(2), None);
    let mut w = PSEUDO_DMAMEMCPY_FULL_IND::new();
    w.indirection_mode = indirection_mode(false);
    assert_eq!(w.encode()[0x3C], 1);
}

#[test]
fn compiler_asserts() {
    let mut req = worked_example();
    req.dst.ap.last_num = 256;
    let e = build_direct2d(&req).unwrap_err();
    assert_eq!(
        e,
        DgeError::ElementCountMismatch {
            src: 65536,
            dst: 32768
        }
    );
    assert!(
        e.to_string()
            .starts_with("DMA instruction must read and write same number of elements")
    );

    let mut req = worked_example();
    req.src.addressing = Addressing::DgeImmediate {
        immediate: 0,
        table_entry_id: 0x1_0000,
    };
    let e = build_direct2d(&req).unwrap_err();
    assert_eq!(e, DgeError::TableEntryIdTooLarge(0x1_0000));
    assert!(e.to_string().starts_with("DGE table entry ID too large"));

    let mut req = worked_example();
    req.src.addressing = Addressing::Physical {
        immediate: 0,
        var_id: 0x100_0000,
    };
    assert_eq!(
        build_direct2d(&req).unwrap_err(),
        DgeError::VarIdTooLarge(0x100_0000)
    );

    let mut req = worked_example();
    req.src.ap.pairs[0].num = 65536;
    req.src.ap.last_num = 256;
    req.dst.ap = req.src.ap;
    assert_eq!(
        build_direct2d(&req).unwrap_err(),
        DgeError::NumOverflow {
            side: Side::Src,
            dim: 0
        }
    );

    let mut req = worked_example();
    req.src.bir_dtype = 20;
    assert_eq!(
        build_direct2d(&req).unwrap_err(),
        DgeError::UnknownDtype(20)
    );
}

#[test]
fn addressing_round_trips_through_pseudo_addr8() {
    for (a, mv, marker) in [
        (
            Addressing::Physical {
                immediate: 0xdead_beef,
                var_id: 0x12_3456,
            },
            false,
            0x10,
        ),
        (
            Addressing::Physical {
                immediate: 1,
                var_id: 0,
            },
            true,
            0x50,
        ),
        (
            Addressing::DgeImmediate {
                immediate: 0x100,
                table_entry_id: 9,
            },
            false,
            0x20,
        ),
        (
            Addressing::DgeRegister {
                reg_id: 3,
                table_entry_id: 0xFFFF,
                two_registers: false,
            },
            false,
            0x28,
        ),
        (
            Addressing::DgeRegister {
                reg_id: 7,
                table_entry_id: 4,
                two_registers: true,
            },
            true,
            0x6C,
        ),
    ] {
        let p = assign_64bit_addr(a, mv).unwrap();
        let mut b = [0u8; 8];
        p.write(&mut b);
        assert_eq!(b[7], marker, "{a:?}");
        assert_eq!(PSEUDO_ADDR8::read(&b), p);
        assert_eq!(addressing_of(&p), Some((a, mv)));
    }
    // The arms the compiler never writes do not read back as an addressing.
    assert_eq!(addressing_of(&PSEUDO_ADDR8::read(&[0; 8])), None);
    let mut reg = [0u8; 8];
    reg[7] = 0x80;
    assert_eq!(addressing_of(&PSEUDO_ADDR8::read(&reg)), None);
}
