//! What the compiler's DMA encoders compute, over the generated words (seed 000).
//!
//! - [`build_direct2d`]: the static arm of `generateDynamicDMA` — a `PSEUDO_DMA_DIRECT2D`
//!   (0xd4) word from per-side access patterns, dtypes, `assign64bitAddr` addressing and a
//!   QoS class, applying `getAPStepOnHW` (step × dtype bytes), the element-span rule
//!   (`dtype bytes × last num`, 0x10000 stored as 0) and the BIR dtype-size LUT;
//! - [`access_patterns`]: the inverse, from a word back to the access patterns;
//! - [`qos_encoding`] / [`qos_bits`]: `supportsDMAQoSOnISA` gating by compiler arch id,
//!   and [`is_dst_reduce_dge`], both from the spec's constants;
//! - [`indirection_mode`]: IndirectLoad / IndirectSave direction = `isLoad ^ 1` (0xc4 +0x3C).
//!
//! Every error that the compiler reports with an assert string carries that string.

use core::fmt;

use crate::prelude::*;
use crate::words;
use crate::words::klr::tables::DTYPE_STRIDE_LUT;
use crate::words::{
    ADDR8_MARKER, DGE_OPCODE, DMA_CONFIGS, DTYPE, EVENTS, PSEUDO_ADDR8, PSEUDO_ADDR8_addr_tbl_offs,
    PSEUDO_ADDR8_addr_var, PSEUDO_ADDR8_arm, PSEUDO_DMA_DIRECT2D, dtype_size,
};

/// Bytes per element of a BIR dtype index: the compiler's dtype-size LUT, which the spec
/// declares once as `DTYPE_STRIDE_LUT` (spec/klr/enums.toml: seed 003 §9.1 gives all twenty
/// entries of `qword_1DE98C0`; seed 000 gives the same head `{1,1,2,1,1,1,1,1,4,4,2,2,…}`
/// for the LUT `generateDynamicDMA` keys `getAPStepOnHW` and `*_elem_size` off). No source
/// names the BIR dtypes, so it is keyed by index; an index above 0x13 is the encoders'
/// "Unknown dtype".
pub fn bir_dtype_size(bir_dtype: u8) -> Result<u32, DgeError> {
    DTYPE_STRIDE_LUT
        .get(usize::from(bir_dtype))
        .and_then(|&b| u32::try_from(b).ok())
        .ok_or(DgeError::UnknownDtype(bir_dtype))
}

/// Why a word cannot be built or read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DgeError {
    /// A BIR dtype index above 0x13 (`llvm_unreachable("Unknown dtype")`).
    UnknownDtype(u8),
    /// Source and destination move different element counts.
    ElementCountMismatch { src: u64, dst: u64 },
    /// A DGE table-entry id that does not fit the 16 bits at ADDR8+4.
    TableEntryIdTooLarge(u32),
    /// A physical var-id that does not fit the 24 bits at ADDR8+4..+6.
    VarIdTooLarge(u32),
    /// `step × dtype bytes` does not fit the signed 32-bit step field.
    StepOverflow { side: Side, dim: usize },
    /// A dim's `num` does not fit the 16-bit count field.
    NumOverflow { side: Side, dim: usize },
    /// `dtype bytes × last num` is 0 or above 0x10000 (0x10000 itself is stored as 0).
    ElemSizeOutOfRange { side: Side, bytes: u64 },
    /// Reading back: the word's dtype wire tag has no known size.
    UnknownWireDtype { side: Side, raw: u8 },
    /// Reading back: a stored step or element size is not a multiple of the dtype size.
    NotAMultiple { side: Side, what: &'static str },
    /// Reading back: an address arm the compiler does not write (register or immediate).
    UnsupportedAddress { side: Side, marker: u8 },
}

/// Which operand of a DMA.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Src,
    Dst,
}

impl fmt::Display for DgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DgeError::UnknownDtype(d) => write!(f, "Unknown dtype (BIR dtype index {d})"),
            DgeError::ElementCountMismatch { src, dst } => write!(
                f,
                "DMA instruction must read and write same number of elements \
                 (source {src}, destination {dst})"
            ),
            DgeError::TableEntryIdTooLarge(id) => {
                write!(f, "DGE table entry ID too large ({id} > 0xFFFF)")
            }
            DgeError::VarIdTooLarge(id) => {
                write!(f, "physical var-id {id:#x} does not fit its 24 bits")
            }
            DgeError::StepOverflow { side, dim } => write!(
                f,
                "{side:?} step[{dim}] x dtype bytes does not fit the signed 32-bit step field"
            ),
            DgeError::NumOverflow { side, dim } => {
                write!(f, "{side:?} num[{dim}] does not fit the 16-bit count field")
            }
            DgeError::ElemSizeOutOfRange { side, bytes } => write!(
                f,
                "{side:?} element span is {bytes} bytes; the field holds 1..=65536 (65536 as 0)"
            ),
            DgeError::UnknownWireDtype { side, raw } => {
                write!(f, "{side:?} dtype wire tag {raw:#x} has no known size")
            }
            DgeError::NotAMultiple { side, what } => {
                write!(f, "{side:?} {what} is not a multiple of the dtype size")
            }
            DgeError::UnsupportedAddress { side, marker } => write!(
                f,
                "{side:?} address marker {marker:#04x} is not one assign64bitAddr writes"
            ),
        }
    }
}

/// One `[step, num]` pair of an access pattern; the step is in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ApPair {
    pub step: i64,
    pub num: u32,
}

/// What `generateDynamicDMA` reads of one side's access pattern: the pairs at `dim-2`
/// (`pairs[0]`, → `*_step_elem[0]` / `*_num_elem[0]`) and `dim-3` (`pairs[1]`), and the
/// last dimension's `num` (→ `*_elem_size`). The last dimension's step is not carried: it
/// must be contiguous ("DGE fastest moving dim must be continuous").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccessPattern {
    pub pairs: [ApPair; 2],
    pub last_num: u32,
}

impl AccessPattern {
    /// Elements the pattern moves: `pairs[0].num × pairs[1].num × last_num`.
    pub fn elements(&self) -> u64 {
        u64::from(self.pairs[0].num) * u64::from(self.pairs[1].num) * u64::from(self.last_num)
    }
}

/// The addressing forms `assign64bitAddr` writes into a `PSEUDO_ADDR8` (seed 000
/// §assign64bitAddr), chosen by the marker byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addressing {
    /// Marker 0x10, static: immediate at +0, physical var-id (24 bits; 0 for SB) at +4..+6.
    Physical { immediate: u32, var_id: u32 },
    /// Marker 0x20 (AP mode IMMEDIATE): immediate at +0, DGE table-entry id at +4.
    DgeImmediate { immediate: u32, table_entry_id: u32 },
    /// Marker 0x28 (AP mode REGISTER): the offset register's RegId at +0, DGE table-entry
    /// id at +4; `| 0x04` when the register is a two-physical-register pair.
    DgeRegister {
        reg_id: u32,
        table_entry_id: u32,
        two_registers: bool,
    },
}

/// One side of a DMA as `generateDynamicDMA` consumes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DmaSide {
    pub ap: AccessPattern,
    /// BIR dtype index: sizes the steps and the element span (the LUT).
    pub bir_dtype: u8,
    /// The dtype's ISA wire tag (+0x3E / +0x3F). Seed 000 maps BIR dtype to wire tag
    /// through `sub_120E650` (`byte_1DF5760`), whose contents no source gives, so the
    /// caller supplies both.
    pub dtype: DTYPE,
    pub addressing: Addressing,
    /// `a4` of `assign64bitAddr`: marker bit 6, seed 000's move/transpose flag (the
    /// headers' SHAPE_REG).
    pub move_flag: bool,
}

/// The `+0x0F` byte as seed 000 writes it (`sync_command`); seed 004 reads the same byte
/// as `dge_op` (README conflict #1), so the word stores it in `dge_op` raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncCommand {
    /// 3: a plain copy (the worked example's `bundle[0x0F] = 0x03`).
    Copy,
    /// 1: a transpose.
    Transpose,
    /// Anything else (seed 000 also writes `2·BYTE1(v247)`).
    Raw(u8),
}

impl SyncCommand {
    pub const fn raw(self) -> u8 {
        match self {
            SyncCommand::Copy => 3,
            SyncCommand::Transpose => 1,
            SyncCommand::Raw(b) => b,
        }
    }
    pub const fn from_raw(b: u8) -> Self {
        match b {
            3 => SyncCommand::Copy,
            1 => SyncCommand::Transpose,
            b => SyncCommand::Raw(b),
        }
    }
}

/// How an architecture carries DMA QoS in +0x0C bits 0..2 (`supportsDMAQoSOnISA`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QosEncoding {
    /// Inferentia (arch 10) and Sunda (arch 20): no QoS is written.
    None,
    /// arch ≤ 49: `encodeISAOrRuntimeDMAQoS(qosClass, I)`, the "ISA class-1 encoding".
    IsaClass,
    /// arch ≥ 50 (core_v5): the raw value `*(u32)(*(I+30q)+0xF0)`.
    Raw,
}

/// The QoS encoding of a compiler architecture id (10 Inferentia, 20 Sunda, ≥ 50 core_v5),
/// from the spec's `QOS_*` constants (spec/types/dma_qos.toml).
pub const fn qos_encoding(arch: u32) -> QosEncoding {
    let a = arch as i64;
    if a == words::QOS_ARCH_INFERENTIA || a == words::QOS_ARCH_SUNDA {
        QosEncoding::None
    } else if a <= words::QOS_ISA_CLASS_MAX_ARCH {
        QosEncoding::IsaClass
    } else {
        QosEncoding::Raw
    }
}

/// `isDstReduceDGE`'s gate on the CCE / reduce compute-op byte: instruction type 32
/// (InstDMACopy) on a compiler arch id ≤ 49 (`DST_REDUCE_DGE_*` in the spec).
pub const fn is_dst_reduce_dge(instruction_type: u32, arch: u32) -> bool {
    instruction_type as i64 == words::DST_REDUCE_DGE_IT
        && arch as i64 <= words::DST_REDUCE_DGE_MAX_ARCH
}

/// The three QoS bits the compiler stores at +0x0C (`(qos & 7) | (d[12] & 0xF8)`), or
/// `None` where it stores nothing. `value` is the DMAQoSClass on arch ≤ 49 and the raw
/// per-instruction value on arch ≥ 50. The ISA encoding is read as "class − 1": seed 000
/// names it "ISA class-1 encoding" without its body, and the consolidated page's worked
/// example writes "wire QoS = (P2-1)"; class 0 stays 0.
pub const fn qos_bits(arch: u32, value: u32) -> Option<u8> {
    match qos_encoding(arch) {
        QosEncoding::None => None,
        QosEncoding::IsaClass => Some((value.saturating_sub(1) & 7) as u8),
        QosEncoding::Raw => Some((value & 7) as u8),
    }
}

/// IndirectLoad / IndirectSave direction (0xc4 +0x3C, `indirection_mode`): `isLoad ^ 1`,
/// so a load (gather) writes 0 and a save (scatter) writes 1.
pub const fn indirection_mode(is_load: bool) -> u8 {
    (is_load as u8) ^ 1
}

/// The inverse of [`indirection_mode`]: `Some(true)` for a load, `None` for a value the
/// compiler never writes.
pub const fn is_load(indirection_mode: u8) -> Option<bool> {
    match indirection_mode {
        0 => Some(true),
        1 => Some(false),
        _ => None,
    }
}

/// Everything the static arm of `generateDynamicDMA` turns into a 0xd4 word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Direct2dRequest {
    pub src: DmaSide,
    pub dst: DmaSide,
    pub events: EVENTS,
    /// `instr.semaphore` (+0x0D).
    pub semaphore: u8,
    /// `instr.sem_increment` (+0x0E).
    pub sem_increment: u8,
    pub sync_command: SyncCommand,
    /// Compiler architecture id (10, 20, …, ≥ 50), for the QoS gate.
    pub arch: u32,
    /// DMAQoSClass (arch ≤ 49) or the raw value (arch ≥ 50); see [`qos_bits`].
    pub qos: u32,
}

/// Builds the 0xd4 word the static arm of `generateDynamicDMA` emits.
pub fn build_direct2d(req: &Direct2dRequest) -> Result<PSEUDO_DMA_DIRECT2D, DgeError> {
    let (src, dst) = (req.src.ap.elements(), req.dst.ap.elements());
    if src != dst {
        return Err(DgeError::ElementCountMismatch { src, dst });
    }
    let mut w = PSEUDO_DMA_DIRECT2D::new();
    w.events = req.events;
    w.semaphore = req.semaphore;
    w.sem_increment = req.sem_increment;
    w.dge_op = DGE_OPCODE::from_raw(req.sync_command.raw());
    w.dma_configs = DMA_CONFIGS::from_raw(qos_bits(req.arch, req.qos).unwrap_or(0));

    let s = encode_side(&req.src, Side::Src)?;
    w.src_start_addr = s.addr;
    w.src_step_elem = s.steps;
    w.src_num_elem = s.nums;
    w.src_elem_size = s.elem_size;
    w.in_dtype = req.src.dtype;

    let d = encode_side(&req.dst, Side::Dst)?;
    w.dst_start_addr = d.addr;
    w.dst_step_elem = d.steps;
    w.dst_num_elem = d.nums;
    w.dst_elem_size = d.elem_size;
    w.out_dtype = req.dst.dtype;
    Ok(w)
}

struct EncodedSide {
    addr: PSEUDO_ADDR8,
    steps: [i32; 2],
    nums: [u16; 2],
    elem_size: u16,
}

fn encode_side(s: &DmaSide, side: Side) -> Result<EncodedSide, DgeError> {
    let bytes = bir_dtype_size(s.bir_dtype)?;
    let mut steps = [0i32; 2];
    let mut nums = [0u16; 2];
    for (dim, p) in s.ap.pairs.iter().enumerate() {
        steps[dim] =
            get_ap_step_on_hw(p.step, bytes).ok_or(DgeError::StepOverflow { side, dim })?;
        nums[dim] = u16::try_from(p.num).map_err(|_| DgeError::NumOverflow { side, dim })?;
    }
    let span = u64::from(bytes) * u64::from(s.ap.last_num);
    let elem_size = element_span(span).ok_or(DgeError::ElemSizeOutOfRange { side, bytes: span })?;
    Ok(EncodedSide {
        addr: assign_64bit_addr(s.addressing, s.move_flag)?,
        steps,
        nums,
        elem_size,
    })
}

/// `getAPStepOnHW`: `APPair.step × dtype_bytes`, if it fits the signed 32-bit field.
pub fn get_ap_step_on_hw(step: i64, dtype_bytes: u32) -> Option<i32> {
    step.checked_mul(i64::from(dtype_bytes))
        .and_then(|v| i32::try_from(v).ok())
}

/// The element-span rule: a span of 1..=0x10000 bytes as stored (0x10000 → 0).
pub fn element_span(bytes: u64) -> Option<u16> {
    match bytes {
        0x10000 => Some(0),
        1..=0xFFFF => Some(bytes as u16),
        _ => None,
    }
}

/// The `PSEUDO_ADDR8` `assign64bitAddr` writes for `addressing` (`move_flag` sets bit 6).
pub fn assign_64bit_addr(
    addressing: Addressing,
    move_flag: bool,
) -> Result<PSEUDO_ADDR8, DgeError> {
    let mv = if move_flag {
        ADDR8_MARKER::SHAPE_REG.raw()
    } else {
        0
    };
    let table_id = |id: u32| u16::try_from(id).map_err(|_| DgeError::TableEntryIdTooLarge(id));
    Ok(match addressing {
        Addressing::Physical { immediate, var_id } => {
            if var_id > 0xFF_FFFF {
                return Err(DgeError::VarIdTooLarge(var_id));
            }
            PSEUDO_ADDR8::from(PSEUDO_ADDR8_addr_var {
                immediate,
                var_id_lo: var_id as u16,
                var_id_hi: (var_id >> 16) as u8,
                marker: ADDR8_MARKER::from_raw(ADDR8_MARKER::VAR_ID.raw() | mv),
            })
        }
        Addressing::DgeImmediate {
            immediate,
            table_entry_id,
        } => PSEUDO_ADDR8::from(PSEUDO_ADDR8_addr_tbl_offs {
            offset: immediate,
            dge_table_entry_id: table_id(table_entry_id)?,
            unknown_6: [0],
            marker: ADDR8_MARKER::from_raw(ADDR8_MARKER::ADDR_TBL.raw() | mv),
        }),
        Addressing::DgeRegister {
            reg_id,
            table_entry_id,
            two_registers,
        } => {
            let wide = if two_registers {
                ADDR8_MARKER::OFFSET_WIDE.raw()
            } else {
                0
            };
            PSEUDO_ADDR8::from(PSEUDO_ADDR8_addr_tbl_offs {
                offset: reg_id,
                dge_table_entry_id: table_id(table_entry_id)?,
                unknown_6: [0],
                marker: ADDR8_MARKER::from_raw(
                    ADDR8_MARKER::ADDR_TBL.raw() | ADDR8_MARKER::OFFSET_REG.raw() | wide | mv,
                ),
            })
        }
    })
}

/// The addressing a `PSEUDO_ADDR8` holds, and its move/transpose (bit 6) flag; `None` for
/// the register and immediate arms, which `assign64bitAddr` never writes.
pub fn addressing_of(addr: &PSEUDO_ADDR8) -> Option<(Addressing, bool)> {
    match addr.arm() {
        PSEUDO_ADDR8_arm::addr_var(a) => Some((
            Addressing::Physical {
                immediate: a.immediate,
                var_id: u32::from(a.var_id_lo) | u32::from(a.var_id_hi) << 16,
            },
            a.marker.raw() & ADDR8_MARKER::SHAPE_REG.raw() != 0,
        )),
        PSEUDO_ADDR8_arm::addr_tbl_offs(a) => {
            let m = a.marker.raw();
            let addressing = if m & ADDR8_MARKER::OFFSET_REG.raw() != 0 {
                Addressing::DgeRegister {
                    reg_id: a.offset,
                    table_entry_id: u32::from(a.dge_table_entry_id),
                    two_registers: m & ADDR8_MARKER::OFFSET_WIDE.raw() != 0,
                }
            } else {
                Addressing::DgeImmediate {
                    immediate: a.offset,
                    table_entry_id: u32::from(a.dge_table_entry_id),
                }
            };
            Some((addressing, m & ADDR8_MARKER::SHAPE_REG.raw() != 0))
        }
        PSEUDO_ADDR8_arm::addr_reg(_) | PSEUDO_ADDR8_arm::addr_immediate(_) => None,
    }
}

/// One side of a 0xd4 word, read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideView {
    /// The access pattern in elements.
    pub ap: AccessPattern,
    pub dtype: DTYPE,
    /// The element size the pattern was divided by.
    pub dtype_bytes: u32,
    pub addressing: Addressing,
    pub move_flag: bool,
}

/// Both sides of a 0xd4 word, read back, and its +0x0F byte under seed 000's reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Direct2dView {
    pub src: SideView,
    pub dst: SideView,
    pub sync_command: SyncCommand,
    /// +0x0C bits 0..2 (priority class / QoS).
    pub qos_bits: u8,
}

/// Reads a 0xd4 word back into access patterns, sizing each side's elements by its
/// dtype wire tag (the spec's `dtype_size` table).
pub fn access_patterns(w: &PSEUDO_DMA_DIRECT2D) -> Result<Direct2dView, DgeError> {
    let size = |dtype: DTYPE, side| match dtype_size(dtype) {
        n if n > 0 => Ok(n as u32),
        _ => Err(DgeError::UnknownWireDtype {
            side,
            raw: dtype.raw(),
        }),
    };
    access_patterns_sized(
        w,
        size(w.in_dtype, Side::Src)?,
        size(w.out_dtype, Side::Dst)?,
    )
}

/// As [`access_patterns`], with the element sizes given (for instance from
/// [`bir_dtype_size`]).
pub fn access_patterns_sized(
    w: &PSEUDO_DMA_DIRECT2D,
    src_bytes: u32,
    dst_bytes: u32,
) -> Result<Direct2dView, DgeError> {
    let src = read_side(
        Side::Src,
        (&w.src_start_addr, w.src_step_elem, w.src_num_elem),
        w.src_elem_size_value(),
        w.in_dtype,
        src_bytes,
    )?;
    let dst = read_side(
        Side::Dst,
        (&w.dst_start_addr, w.dst_step_elem, w.dst_num_elem),
        w.dst_elem_size_value(),
        w.out_dtype,
        dst_bytes,
    )?;
    Ok(Direct2dView {
        src,
        dst,
        sync_command: SyncCommand::from_raw(w.dge_op.raw()),
        qos_bits: w.dma_configs.priority_class,
    })
}

fn read_side(
    side: Side,
    (addr, steps, nums): (&PSEUDO_ADDR8, [i32; 2], [u16; 2]),
    span: u64,
    dtype: DTYPE,
    bytes: u32,
) -> Result<SideView, DgeError> {
    if bytes == 0 {
        return Err(DgeError::UnknownWireDtype {
            side,
            raw: dtype.raw(),
        });
    }
    let b = i64::from(bytes);
    let mut pairs = [ApPair::default(); 2];
    for dim in 0..2 {
        let step = i64::from(steps[dim]);
        if step % b != 0 {
            return Err(DgeError::NotAMultiple { side, what: "step" });
        }
        pairs[dim] = ApPair {
            step: step / b,
            num: u32::from(nums[dim]),
        };
    }
    if !span.is_multiple_of(u64::from(bytes)) {
        return Err(DgeError::NotAMultiple {
            side,
            what: "element span",
        });
    }
    let (addressing, move_flag) = addressing_of(addr).ok_or(DgeError::UnsupportedAddress {
        side,
        marker: marker_of(addr),
    })?;
    Ok(SideView {
        ap: AccessPattern {
            pairs,
            last_num: (span / u64::from(bytes)) as u32,
        },
        dtype,
        dtype_bytes: bytes,
        addressing,
        move_flag,
    })
}

fn marker_of(addr: &PSEUDO_ADDR8) -> u8 {
    match addr.arm() {
        PSEUDO_ADDR8_arm::addr_var(a) => a.marker.raw(),
        PSEUDO_ADDR8_arm::addr_reg(a) => a.marker.raw(),
        PSEUDO_ADDR8_arm::addr_tbl_offs(a) => a.marker.raw(),
        PSEUDO_ADDR8_arm::addr_immediate(a) => a.marker.raw(),
    }
}
