//! The generated validators.
//!
//! - Per rule: for every enforced check of every struct, a word that satisfies it (a valid
//!   word: the golden vector, or one built here from the source's statement) and a word
//!   that breaks that check and no other, built from the source's statement of the rule
//!   (cited per case). Every enforced check must have a case.
//! - Differential: the Rust validators, the C validators (compiled with gcc as C11 and with
//!   g++ as C++17) and the model's reference evaluator agree on every rule's truth and on the
//!   violations, for the golden vectors and >= 100,000 random values per struct biased toward
//!   the rules' boundaries, on every architecture.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{hex_bytes, hex_words, model, root, vector};
use dmaspec::runtime::rules::{RuleAuthority, RuleKind, RuleMeta, Verdict, Violations};
use dmaspec::words::*;
use dmaspec_codegen::emit::c;
use dmaspec_codegen::model::Model;
use dmaspec_codegen::model::rules::{Access, Expr, RuleKind as MKind};

// ---- per-rule cases ------------------------------------------------------------------

/// One check, broken on purpose.
struct Case<W> {
    rule: &'static str,
    /// Where the source states the rule the mutation breaks.
    cite: &'static str,
    /// The word the case starts from (it must be valid, and the check must hold on it).
    base: fn() -> W,
    mutate: fn(&mut W),
    /// The architecture the base word is checked on.
    base_arch: Arch,
    /// The architecture the broken word is checked on.
    arch: Arch,
    /// Whether the broken check is reported (false for an alternative of an `any`).
    reported: bool,
    /// The bodiless alternative that is left to decide the word once the check is broken
    /// (the word is then undecided, not valid).
    undecided_by: Option<&'static str>,
}

fn case<W>(rule: &'static str, cite: &'static str, base: fn() -> W, mutate: fn(&mut W)) -> Case<W> {
    Case {
        rule,
        cite,
        base,
        mutate,
        base_arch: Arch::cayman,
        arch: Arch::cayman,
        reported: true,
        undecided_by: None,
    }
}

impl<W> Case<W> {
    fn on(mut self, arch: Arch) -> Self {
        self.base_arch = arch;
        self.arch = arch;
        self
    }
    /// The same word on another architecture is the violation.
    fn moved_to(mut self, arch: Arch) -> Self {
        self.arch = arch;
        self
    }
    /// Broken, the check is excused: another alternative of its `any` holds.
    fn unreported(mut self) -> Self {
        self.reported = false;
        self
    }
    /// Broken, the check leaves the word undecided on `bodiless`, an alternative the
    /// sources name without a body: not reported as a violation.
    fn undecided_by(mut self, bodiless: &'static str) -> Self {
        self.reported = false;
        self.undecided_by = Some(bodiless);
        self
    }
}

/// Expression leaves that do not hold.
fn false_checks(rules: &[RuleMeta], truth: u64) -> BTreeSet<&'static str> {
    rules
        .iter()
        .enumerate()
        .filter(|(i, r)| r.kind == RuleKind::Expr && truth >> i & 1 == 0)
        .map(|(_, r)| r.id)
        .collect()
}

/// Runs the cases of one struct type: `encode` gives its bytes, `truth` its rule truth,
/// `report` its violation and compiler-finding masks. A broken compiler rule is a finding,
/// and the word stays valid.
fn run_cases<W, const N: usize>(
    owner: &str,
    rules: &'static [RuleMeta],
    cases: &[Case<W>],
    encode: impl Fn(&W) -> [u8; N],
    truth: impl Fn(&[u8; N], Arch) -> u64,
    report: impl Fn(&[u8; N], Arch) -> Violations,
) {
    for c in cases {
        let id = rules.iter().position(|r| r.id == c.rule);
        let id = id.unwrap_or_else(|| panic!("{owner}: no rule `{}`", c.rule));
        let base = (c.base)();
        let b = encode(&base);
        let v0 = report(&b, c.base_arch);
        assert_eq!(
            (v0.mask, v0.compiler),
            (0, 0),
            "{owner} `{}`: the base word is not valid on {}",
            c.rule,
            c.base_arch.name()
        );
        let t0 = truth(&b, c.base_arch);
        assert!(
            t0 >> id & 1 == 1,
            "{owner} `{}` does not hold on the base word",
            c.rule
        );
        let mut w = base;
        (c.mutate)(&mut w);
        let m = encode(&w);
        let t1 = truth(&m, c.arch);
        let before = false_checks(rules, t0);
        let newly: BTreeSet<&str> = false_checks(rules, t1)
            .difference(&before)
            .copied()
            .collect();
        assert_eq!(
            newly,
            BTreeSet::from([c.rule]),
            "{owner}: breaking `{}` ({}) must break that check alone",
            c.rule,
            c.cite
        );
        let r = report(&m, c.arch);
        let (v, f) = (r.mask, r.compiler);
        let was: BTreeSet<&str> = v0.undecided_by().map(|r| r.id).collect();
        let open: Vec<&str> = r
            .undecided_by()
            .map(|r| r.id)
            .filter(|id| !was.contains(id))
            .collect();
        assert_eq!(
            open,
            Vec::from_iter(c.undecided_by),
            "{owner} `{}`: newly undecided by ({})",
            c.rule,
            c.cite
        );
        let header = rules[id].authority == RuleAuthority::Header;
        let verdict = if c.reported && header {
            Verdict::Broken
        } else if c.undecided_by.is_some() || v0.verdict() == Verdict::Undecided {
            Verdict::Undecided
        } else {
            Verdict::Holds
        };
        assert_eq!(r.verdict(), verdict, "{owner} `{}`: the verdict", c.rule);
        let compiler = rules[id].authority == RuleAuthority::Compiler;
        let (found, other) = if compiler { (f, v) } else { (v, f) };
        assert_eq!(
            found >> id & 1 == 1,
            c.reported,
            "{owner} `{}`: reported? (violations {v:#x}, compiler findings {f:#x})",
            c.rule
        );
        assert_eq!(
            (found != 0, other),
            (c.reported, 0),
            "{owner} `{}`: the word's verdict",
            c.rule
        );
    }
    // Every enforced check has a case.
    let covered: BTreeSet<&str> = cases.iter().map(|c| c.rule).collect();
    for r in rules.iter().filter(|r| r.kind == RuleKind::Expr) {
        assert!(
            covered.contains(r.id),
            "{owner}: enforced check `{}` has no case",
            r.id
        );
    }
}

macro_rules! word_cases {
    ($t:ident, $cases:expr) => {
        run_cases::<$t, 64>(
            stringify!($t),
            $t::RULES,
            &$cases,
            |w| w.encode(),
            |b, a| $t::rule_truth(b, a),
            |b, a| $t::check_rules(b, a),
        )
    };
}

/// [`run_cases`] for a type that is one little-endian integer of `$n` bytes.
macro_rules! raw_cases {
    ($t:ident, $n:literal, $cases:expr) => {
        run_cases::<$t, $n>(
            stringify!($t),
            $t::RULES,
            &$cases,
            |c| c.raw().to_le_bytes(),
            $t::rule_truth,
            $t::check_rules,
        )
    };
}

/// [`run_cases`] for a nested struct of `$n` bytes.
macro_rules! struct_cases {
    ($t:ident, $n:literal, $cases:expr) => {
        run_cases::<$t, $n>(
            stringify!($t),
            $t::RULES,
            &$cases,
            |c| {
                let mut b = [0; $n];
                c.write(&mut b);
                b
            },
            $t::rule_truth,
            $t::check_rules,
        )
    };
}

fn addr8(marker: u8) -> ADDR8 {
    ADDR8::read(&[0, 0, 0, 0, 0, 0, 0, marker])
}

/// A plain 2-D copy built from seed-004 §2's table: 128 x 4 FP16 elements (2 bytes each)
/// from one immediate address to another, no compute op, priority class 2, bound checks
/// inert.
fn direct2d() -> DMA_DIRECT2D {
    let mut w = DMA_DIRECT2D::new();
    w.header.inst_word_len = 0x10;
    w.dma_configs.priority_class = 2;
    w.compute_op = DGE_COMPUTE_OP::NONE;
    w.src_start_addr = addr8(0x00);
    w.src_step_elem = [1, 128];
    w.src_num_elem = [128, 4];
    w.src_elem_size = 2;
    w.dst_start_addr = addr8(0x00);
    w.dst_step_elem = [1, 128];
    w.dst_num_elem = [128, 4];
    w.dst_elem_size = 2;
    w.in_dtype = DTYPE::FP16;
    w.out_dtype = DTYPE::FP16;
    w
}

#[test]
fn direct2d_rules() {
    word_cases!(
        DMA_DIRECT2D,
        [
            case(
                "header_opcode_is_dmamemcpy",
                "seed-004 §2: i.header.opcode == Opcode::DMAMemcpy",
                direct2d,
                |w| w.header.opcode = OPCODE::DMA_INDIRECT
            ),
            case(
                "zero_num_step_elem_shape_reg_mode",
                "supp-field-tables §2.1: shape-reg mode ⇒ num_elem == 0 && step_elem[1] == 0",
                direct2d,
                |w| w.src_start_addr = addr8(0x40)
            ),
            case(
                "has_valid_bound_check_reg_src",
                "supp-gather-scatter §6: a half-set bound reg is invalid",
                direct2d,
                |w| w.src_bound_reg = BOUND_CHECK_REG::from_raw(0x03)
            ),
            case(
                "has_valid_bound_check_reg_dst",
                "supp-gather-scatter §6: a half-set bound reg is invalid",
                direct2d,
                |w| w.dst_bound_reg = BOUND_CHECK_REG::from_raw(0x40)
            ),
            case(
                "is_valid_dma_configs",
                "supp-gather-scatter §1: priority_class <= 4",
                direct2d,
                |w| w.dma_configs.priority_class = 5
            ),
            // The three parts of the plain-memcpy alternative: breaking one leaves only the
            // bodiless is_valid_dma_cce to decide the word, which is then undecided.
            case(
                "compute_op_is_none",
                "seed-004 §2: compute_op==NONE",
                direct2d,
                |w| w.compute_op = DGE_COMPUTE_OP::ADD
            )
            .undecided_by("is_valid_dma_cce"),
            case(
                "in_dtype_equals_out_dtype",
                "seed-004 §2: in==out",
                direct2d,
                |w| w.out_dtype = DTYPE::BFLOAT16
            )
            .undecided_by("is_valid_dma_cce"),
            case(
                "byte_counts_match",
                "seed-004 §2: byte counts match",
                direct2d,
                |w| w.dst_num_elem[1] = 2
            )
            .undecided_by("is_valid_dma_cce"),
        ]
    );
}

#[test]
fn direct2d_byte_counts_read_zero_as_64k() {
    // seed-004 §2: elem_size 0 means 64 KiB. 1 x 65536 bytes == 2 x 32768 bytes.
    let mut w = direct2d();
    w.src_num_elem = [1, 1];
    w.src_elem_size = 0;
    w.dst_num_elem = [2, 1];
    w.dst_elem_size = 32768;
    let v = DMA_DIRECT2D::check_rules(&w.encode(), Arch::cayman);
    assert!(v.holds("byte_counts_match"), "{v:?}");
    w.dst_elem_size = 0;
    let v = DMA_DIRECT2D::check_rules(&w.encode(), Arch::cayman);
    assert!(!v.holds("byte_counts_match"));
}

fn indirect1d() -> DMA_INDIRECT1D {
    DMA_INDIRECT1D::decode(&vector("dma_indirect1d.hex")).unwrap()
}

/// The golden gather with its index vector taken from register 5 instead.
fn indirect1d_reg_idx() -> DMA_INDIRECT1D {
    let mut w = indirect1d();
    w.src_idx_start_addr = ADDR4::from_raw(0x8000_0005);
    w
}

/// The golden gather as a gather + scatter, the scatter index in SBUF at 0x800.
fn indirect1d_src_dst() -> DMA_INDIRECT1D {
    let mut w = indirect1d();
    w.flags.indirect_mode = INDIRECT_DMA_ADDRESSING_MODE::SRC_DST_INDIRECTION;
    w.dst_idx_start_addr = ADDR4::from_raw(0x800);
    w
}

fn indirect1d_src_dst_reg_idx() -> DMA_INDIRECT1D {
    let mut w = indirect1d_src_dst();
    w.dst_idx_start_addr = ADDR4::from_raw(0x8000_0006);
    w
}

/// The golden gather turned into a scatter (only the destination index is used).
fn indirect1d_scatter() -> DMA_INDIRECT1D {
    let mut w = indirect1d();
    w.flags.indirect_mode = INDIRECT_DMA_ADDRESSING_MODE::DST_INDIRECTION;
    w
}

#[test]
fn indirect1d_rules() {
    word_cases!(
        DMA_INDIRECT1D,
        [
            case(
                "zero_num_elem_shape_reg_mode",
                "supp-gather-scatter §1.2: shape-from-register forces num_elem to 0",
                indirect1d,
                |w| w.src_start_addr = addr8(0x40)
            ),
            case(
                "check_dma_indirect_indices",
                "seed-004 §6.2: n == POOLING_NUM_CHANNELS (128)",
                indirect1d,
                |w| w.idx_num_active_channels = 64
            ),
            case(
                "is_memcopy_without_cce",
                "supp-gather-scatter §1.4: compute_op == NONE is the is_memcopy_without_cce leg",
                indirect1d,
                |w| w.compute_op = DGE_COMPUTE_OP::ADD
            )
            .undecided_by("is_valid_dma_indirect_cce"),
            case(
                "has_valid_idx_bound_check_reg_no_flags_src",
                "supp-gather-scatter §6: half-set bound reg invalid",
                indirect1d,
                |w| w.src_idx_bound_reg = BOUND_CHECK_REG::from_raw(0x03)
            ),
            case(
                "idx_bound_error_or_notif_src",
                "supp-gather-scatter §6 / §8.3: idx_bound_is_err == 1 || bc_disable_oob_error_notif == 0",
                indirect1d,
                |w| {
                    w.flags.idx_bound_is_err = 0;
                    w.src_idx_bound_reg = BOUND_CHECK_REG::from_raw(0xC5);
                }
            ),
            case(
                "has_valid_idx_bound_check_reg_no_flags_dst",
                "supp-gather-scatter §6: half-set bound reg invalid",
                indirect1d,
                |w| w.dst_idx_bound_reg = BOUND_CHECK_REG::from_raw(0x40)
            ),
            case(
                "idx_bound_error_or_notif_dst",
                "supp-gather-scatter §6: idx_bound_is_err == 1 || bc_disable_oob_error_notif == 0",
                indirect1d,
                |w| {
                    w.flags.idx_bound_is_err = 0;
                    w.dst_idx_bound_reg = BOUND_CHECK_REG::from_raw(0xC1);
                }
            ),
            case(
                "has_valid_indirect_dim_by_mode",
                "seed-004 §3.1: in SRC_INDIRECTION mode scatter_dim == 0",
                indirect1d,
                |w| w.flags.scatter_dim = INDIRECT_DIM::Y
            ),
            case(
                "has_dma_indirect_valid_index_count",
                "seed-004 §3.2: index count ≤ 4096",
                indirect1d,
                |w| w.src_num_elem = 4097
            ),
            case(
                "src_idx_leg_inactive",
                "supp-gather-scatter §1.3: only the active index vectors are checked",
                indirect1d_scatter,
                |w| w.flags.indirect_mode = INDIRECT_DMA_ADDRESSING_MODE::SRC_INDIRECTION
            )
            .unreported(),
            case(
                "addr_from_register_src",
                "seed-004 §3.2: from-register OR addr_in_sbuf_partition(0, …)",
                indirect1d_reg_idx,
                |w| w.src_idx_start_addr = ADDR4::from_raw(0x400)
            )
            .unreported(),
            case(
                "addr_in_sbuf_src",
                "supp-addr4: an SBUF address has bits 25..28 clear (PSUM window 0x2000000..)",
                indirect1d,
                |w| w.src_idx_start_addr = ADDR4::from_raw(0x200_0400)
            ),
            case(
                "dst_idx_leg_inactive",
                "supp-gather-scatter §1.3: only the active index vectors are checked",
                indirect1d,
                |w| w.flags.indirect_mode = INDIRECT_DMA_ADDRESSING_MODE::SRC_DST_INDIRECTION
            )
            .unreported(),
            case(
                "addr_from_register_dst",
                "seed-004 §3.2: from-register OR addr_in_sbuf_partition(0, …)",
                indirect1d_src_dst_reg_idx,
                |w| w.dst_idx_start_addr = ADDR4::from_raw(0x800)
            )
            .unreported(),
            case(
                "addr_in_sbuf_dst",
                "supp-addr4: an SBUF address has bits 25..28 clear",
                indirect1d_src_dst,
                |w| w.dst_idx_start_addr = ADDR4::from_raw(0x400_0800)
            ),
            case(
                "has_dma_indirect_check_reserved_zero",
                "supp-field-tables §2.2: reserved[2] must be zero",
                indirect1d,
                |w| w.reserved[1] = 1
            ),
            case(
                "is_valid_dma_configs",
                "supp-field-tables §4 Table 4.12: reserved_bitfield must be zero",
                indirect1d,
                |w| w.dma_configs.reserved_bitfield = 1
            ),
        ]
    );
}

fn gather_xpose() -> DMA_GATHER_XPOSE {
    DMA_GATHER_XPOSE::decode(&vector("dma_gather_xpose.hex")).unwrap()
}

/// The golden gather-transpose with an immediate index address (0x400) instead of a register.
fn gather_xpose_imm_idx() -> DMA_GATHER_XPOSE {
    let mut w = gather_xpose();
    w.src_idx_start_addr = ADDR4::from_raw(0x400);
    w
}

/// The hand-built gather-transpose with immediate src / dst addresses.
fn gather_xpose_imm() -> DMA_GATHER_XPOSE {
    DMA_GATHER_XPOSE::decode(&vector("dma_gather_xpose_imm.hex")).unwrap()
}

/// An immediate ADDR8 whose low word is `lo` (the arm layout is INFERRED, see ADDR8).
fn imm_addr(lo: u32) -> ADDR8 {
    ADDR8::from(ADDR8_addr_immediate {
        address_lo: lo,
        ..Default::default()
    })
}

#[test]
fn gather_xpose_rules() {
    word_cases!(
        DMA_GATHER_XPOSE,
        [
            case(
                "src_start_addr_aligned_2",
                "seed-004 §4.1: src %2==0 (immediate, supp-field-tables §2.4)",
                gather_xpose_imm,
                |w| w.src_start_addr = imm_addr(0x4000_1001)
            ),
            case(
                "dst_start_addr_aligned_32",
                "seed-004 §4.1: dst %32==0",
                gather_xpose_imm,
                |w| w.dst_start_addr = imm_addr(0x50)
            ),
            case(
                "has_valid_dma_gather_transpose_nc",
                "seed-004 §4.1: nc >= NeuronCoreVersion::V3",
                gather_xpose,
                |_| {}
            )
            .moved_to(Arch::sunda),
            case(
                "has_valid_gather_transpose_dtype",
                "seed-004 §4.1: size(dtype_lo)==2 && size(dtype_hi)==2",
                gather_xpose,
                |w| w.dtype = DTYPE_PAIR::from_raw(0xAA)
            ),
            case(
                "has_valid_gather_transpose_elem_size",
                "seed-004 §4.1: 2 <= elem_size <= 256",
                gather_xpose,
                |w| w.elem_size = 258
            ),
            case(
                "src_idx_start_addr_aligned_4",
                "seed-004 §4.1: src_idx %4==0 (immediate, supp-field-tables §2.4)",
                gather_xpose_imm_idx,
                |w| w.src_idx_start_addr = ADDR4::from_raw(0x402)
            ),
            case(
                "has_valid_gather_transpose_flags",
                "seed-004 §4.1: flags.gather_dim == IndirectDim::Y",
                gather_xpose,
                |w| w.flags.gather_dim = INDIRECT_DIM::X
            ),
            case(
                "has_valid_gather_transpose_src_dimensions",
                "seed-004 §4.1: src_num_elem[1] % 16 == 0",
                gather_xpose,
                |w| {
                    w.src_num_elem[1] = 72;
                    w.dst_num_elem[0] = 72;
                }
            ),
            case(
                "has_valid_gather_transpose_cross_field_consistency",
                "seed-004 §4.1: src_num_elem[1] == dst_num_elem[0]",
                gather_xpose,
                |w| w.dst_num_elem[0] = 80
            ),
            case(
                "has_valid_gather_transpose_dst_steps",
                "seed-004 §4.1: dst_step_elem_1 % 32 == 0 || dst_num_elem[1]==1",
                gather_xpose,
                |w| w.dst_step_elem_1 = 33
            ),
            case(
                "check_dma_indirect_indices",
                "seed-004 §4.1: check_dma_indirect_indices == 128",
                gather_xpose,
                |w| w.idx_num_active_channels = 127
            ),
            case(
                "has_valid_idx_bound_check_reg_no_flags",
                "supp-gather-scatter §6: half-set bound reg invalid",
                gather_xpose,
                |w| w.src_idx_bound_reg = BOUND_CHECK_REG::from_raw(0x40)
            ),
            case(
                "has_valid_bound_check_reg_dst",
                "supp-gather-scatter §6: half-set bound reg invalid",
                gather_xpose,
                |w| w.dst_bound_reg = BOUND_CHECK_REG::from_raw(0x01)
            ),
            case(
                "reserved_is_zero",
                "supp-gather-scatter §2: reserved[3] must be 0",
                gather_xpose,
                |w| w.reserved[2] = 1
            ),
        ]
    );
}

#[test]
fn gather_xpose_dst_steps_allow_a_single_row() {
    // seed-004 §4.1: dst_step_elem_1 % 32 == 0 || dst_num_elem[1] == 1.
    let mut w = gather_xpose();
    w.dst_step_elem_1 = 33;
    w.dst_num_elem[1] = 1;
    assert!(w.validate(Arch::cayman).is_ok());
    w.dst_step_elem_1 = -64; // negative multiples of 32 are aligned too
    w.dst_num_elem[1] = 2;
    assert!(w.validate(Arch::cayman).is_ok());
}

fn direct2d_xpose() -> DMA_DIRECT2D_XPOSE {
    DMA_DIRECT2D_XPOSE::decode(&vector("dma_direct2d_xpose.hex")).unwrap()
}

#[test]
fn direct2d_xpose_rules() {
    word_cases!(
        DMA_DIRECT2D_XPOSE,
        [
            case(
                "dst_start_addr_aligned_32",
                "supp-field-tables §2.3: dst_start_addr % 32 == 0",
                direct2d_xpose,
                |w| w.dst_start_addr = imm_addr(0x2000_0010)
            ),
            case(
                "has_valid_dma_transpose_nc",
                "seed-004 §10: has_valid_dma_transpose_nc = (nc >= V3)",
                direct2d_xpose,
                |_| {}
            )
            .moved_to(Arch::sunda),
            case(
                "tile_src_rows_is_16",
                "supp-field-tables §2.3: tile_src_rows must be 16",
                direct2d_xpose,
                |w| w.tile_src_rows = 8
            ),
            case(
                "tile_src_cols_fit_dtype",
                "supp-field-tables §2.3: 1..128 for 2-B out_dtype",
                direct2d_xpose,
                |w| w.tile_src_cols = 129
            ),
            case(
                "in_dtype_equals_out_dtype",
                "supp-field-tables §2.3: out_dtype must equal in_dtype",
                direct2d_xpose,
                |w| w.in_dtype = DTYPE::FP16
            ),
            case(
                "dst_steps_aligned_32",
                "supp-field-tables §2.3: dst_step_elem[i] % 32 == 0 || dst_num_elem[i] == 1",
                direct2d_xpose,
                |w| w.dst_step_elem[0] = 33
            ),
        ]
    );
}

fn pseudo() -> PSEUDO_DMA_DIRECT2D {
    PSEUDO_DMA_DIRECT2D::decode(&vector("pseudo_dma_direct2d.hex")).unwrap()
}

#[test]
fn pseudo_direct2d_rules() {
    word_cases!(
        PSEUDO_DMA_DIRECT2D,
        [
            case(
                "priority_class_at_most_4",
                "seed-004 §5.1: the max allowed priority class number in ucode is 4",
                pseudo,
                |w| w.dma_configs.priority_class = 5
            ),
            case(
                "dge_op_valid_for_arch",
                "seed-004 §10: sunda's DGE_OPCODE has only DMA_DIRECT2D and DMA_INDIRECT1D",
                pseudo,
                |w| w.dge_op = DGE_OPCODE::DMA_GATHER_TRANSPOSE
            )
            .on(Arch::sunda),
            case(
                "in_dtype_not_fp32r",
                "seed-004 §6.5: in_dtype may not be FP32R",
                pseudo,
                |w| w.in_dtype = DTYPE::FP32R
            ),
            case(
                "dtypes_not_64_bit",
                "seed-004 §6.5: UINT64/INT64 are invalid for both",
                pseudo,
                |w| w.out_dtype = DTYPE::INT64
            ),
        ]
    );
    // dge_op 3 is fine where DGE_OPCODE has it.
    let mut w = pseudo();
    w.dge_op = DGE_OPCODE::DMA_GATHER_TRANSPOSE;
    assert!(w.validate(Arch::cayman).is_ok());
    w.dge_op = DGE_OPCODE(4);
    assert!(
        w.validate(Arch::cayman)
            .unwrap_err()
            .contains("dge_op_valid_for_arch")
    );
}

fn ext() -> PSEUDO_DMA_EXT {
    PSEUDO_DMA_EXT::decode(&vector("pseudo_dma_ext.hex")).unwrap()
}

/// The golden extension carrying transpose tile geometry only (no index channels).
fn ext_tile_only() -> PSEUDO_DMA_EXT {
    let mut w = ext();
    w.idx_num_active_channels = 0;
    w.tile_src_rows = 16;
    w.tile_src_cols = 128;
    w
}

/// The golden extension without a compute op.
fn ext_no_compute() -> PSEUDO_DMA_EXT {
    let mut w = ext();
    w.compute_op = DGE_COMPUTE_OP::NONE;
    w
}

#[test]
fn pseudo_ext_rules() {
    word_cases!(
        PSEUDO_DMA_EXT,
        [
            case(
                "has_valid_xpose_tile_size",
                "seed-004 §5.2: tile_src_rows ∈ {16, 0}",
                ext,
                |w| w.tile_src_rows = 8
            ),
            case(
                "index_fields_unused",
                "seed-004 §5.2: index fields are validated only when idx_num_active_channels != 0",
                ext_tile_only,
                |w| w.idx_num_active_channels = 128
            )
            .undecided_by("index_fields_valid"),
            case(
                "compute_op_none_or_add",
                "seed-000 (C): AluOpType2DGEComputeOp yields 0 or 1; seed-003 §3.4",
                ext,
                |w| w.compute_op = DGE_COMPUTE_OP::MULTIPLY
            ),
            case(
                "core_v5_no_dge_compute_op",
                "seed-000 (C): \"CoreV5 cannot support DGE with compute op yet\"",
                ext_no_compute,
                |w| w.compute_op = DGE_COMPUTE_OP::ADD
            )
            .on(Arch::maverick),
        ]
    );
}

/// The golden 0xba word (tests/vectors/dma_immediate.hex, from supp-field-tables §3.1): one
/// engine, tdg 0, two descriptors.
fn immediate() -> DMA_IMMEDIATE {
    DMA_IMMEDIATE::decode(&vector("dma_immediate.hex")).unwrap()
}

#[test]
fn dma_immediate_rules() {
    word_cases!(
        DMA_IMMEDIATE,
        [
            case(
                "dma_immediate_one_engine",
                "supp-field-tables §3.1 row 10: restricted to engine_count == ONE",
                immediate,
                |w| w.dma_engines.engine_count = DMA_ENGINE_COUNT::TWO
            )
            .on(Arch::maverick),
            case(
                "dma_immediate_tdg_zero",
                "supp-field-tables §3.1 row 11: tdg must be 0",
                immediate,
                |w| w.dma_flags.tdg = 1
            )
            .on(Arch::maverick),
            case(
                "dma_immediate_num_descriptors",
                "supp-field-tables §3.1: num_descriptors must be 1/2/3",
                immediate,
                |w| w.descriptor_flags.num_descriptors = 0
            )
            .on(Arch::maverick),
        ]
    );
}

/// The golden 0xBF word (tests/vectors/s3d3_collective.hex, from the S3D3 Collective page's
/// §2 table): 256 BF16 elements, LNC2, 16 channels.
fn collective() -> S3D3_COLLECTIVE {
    S3D3_COLLECTIVE::decode(&vector("s3d3_collective.hex")).unwrap()
}

#[test]
fn s3d3_collective_rules() {
    word_cases!(
        S3D3_COLLECTIVE,
        [
            case(
                "has_valid_nc_sb2sb_collective",
                "wiki-s3d3-collective §5: has_valid_nc_sb2sb_collective(nc) = (nc >= V3)",
                collective,
                |_| {}
            )
            .moved_to(Arch::sunda),
            case(
                "has_valid_LncSizefmt",
                "wiki-s3d3-collective §7.1: fmt != LNC4 && fmt != LNC8",
                collective,
                |w| w.lnc_size_fmt = LNC_SIZE_FMT::LNC8
            ),
            case(
                "check_active_ports",
                "wiki-s3d3-collective §7.2: (n != 0) && (n <= POOLING_NUM_CHANNELS)",
                collective,
                |w| w.num_active_channels = 0
            ),
            case(
                "size_check_src",
                "wiki-s3d3-collective §3.4: t3d_element_count(t) <= 256",
                collective,
                |w| w.src_mem_pattern.num_elem = [16, 4, 5]
            ),
            case(
                "dtype_equality_check",
                "wiki-s3d3-collective §5: d_in == d_out",
                collective,
                |w| w.out_dtype = DTYPE::FP32
            ),
            case(
                "src_num_elem_nonzero",
                "wiki-s3d3-collective §3.3: each num_elem[d] >= 1 (or a shape register)",
                collective,
                |w| w.src_mem_pattern.num_elem[2] = 0
            ),
            case(
                "dst_num_elem_nonzero",
                "wiki-s3d3-collective §3.3: each num_elem[d] >= 1 (or a shape register)",
                collective,
                |w| w.dst_mem_pattern.num_elem[0] = 0
            ),
            case(
                "src_start_addr_in_sbuf",
                "wiki-s3d3-collective §3.2-3.3: AllowedInPSUM::False; bit [25] 0 = SBUF",
                collective,
                |w| w.src_mem_pattern.start_addr.address = 0x200_0100
            ),
            case(
                "dst_start_addr_in_sbuf",
                "wiki-s3d3-collective §3.2-3.3: AllowedInPSUM::False; bit [25] 0 = SBUF",
                collective,
                |w| w.dst_mem_pattern.start_addr.address = 0x201_0000
            ),
            case(
                "reserved0_is_zero",
                "wiki-s3d3-collective §2: reserved0 validator: == 0",
                collective,
                |w| w.reserved0[0] = 0xff
            ),
            case(
                "reserved1_low_half_is_zero",
                "wiki-s3d3-collective §2: reserved1 validator: [0..13] == 0",
                collective,
                |w| w.reserved1[0] = 1
            ),
            case(
                "reserved1_high_half_is_zero",
                "wiki-s3d3-collective §2: reserved1 validator: [0..13] == 0",
                collective,
                |w| w.reserved1[13] = 1
            ),
        ]
    );
}

/// The GATHER word of supp-gather-scatter §8.1 EX-A (tests/vectors/gather_ex_a.hex): 4 UINT32
/// indices, FP16 data, both TENSOR4D patterns 4 x 1 x 1 x 1.
fn gather_ex_a() -> GATHER {
    GATHER::decode(&vector("gather_ex_a.hex")).unwrap()
}

#[test]
fn gather_rules() {
    word_cases!(
        GATHER,
        [
            case(
                "has_gather_index_dtype",
                "supp-gather-scatter §7.2: in_dtype must be UINT8 / UINT16 / UINT32",
                gather_ex_a,
                |w| w.in_dtype = DTYPE::FP16
            ),
            case(
                "gather_valid_options",
                "supp-gather-scatter §7.2: immediate must == 0 unless ImmediateWrite",
                gather_ex_a,
                |w| {
                    w.index_miss_behavior = INDEX_MISS_BEHAVIOR::SKIP_WRITE;
                    w.immediate.imm_arith_fp32 = 1;
                }
            ),
            // 8 x 1 x 1 x 1 against 4 x 1 x 1 x 1: the counts differ in the low 24 bits.
            case(
                "same_element_count_t4d_low",
                "supp-gather-scatter §7.2: src and dst have the same element count",
                gather_ex_a,
                |w| w.src_mem_pattern.num_elem = [8, 1, 1, 1]
            ),
            // 2^24 against 2^25 elements: equal low 24 bits, different high parts.
            case(
                "same_element_count_t4d_high",
                "supp-gather-scatter §7.2: src and dst have the same element count",
                gather_ex_a,
                |w| {
                    w.src_mem_pattern.num_elem = [4096, 4096, 1, 1];
                    w.dst_mem_pattern.num_elem = [4096, 4096, 2, 1];
                }
            ),
            // A zero count on one side; the other side's shape from a register (ADDR4 bit
            // 30) keeps it valid and both counts 0, so only that side's check breaks.
            case(
                "tensor4d_valid_src",
                "supp-gather-scatter §7.2 tensor4d_valid; wiki-tensor4d: num0..num3 nonzero",
                gather_ex_a,
                |w| {
                    w.src_mem_pattern.num_elem[1] = 0;
                    w.dst_mem_pattern.num_elem[1] = 0;
                    w.dst_mem_pattern.start_addr.active = 1;
                }
            ),
            case(
                "tensor4d_valid_dst",
                "supp-gather-scatter §7.2 tensor4d_valid; wiki-tensor4d: num0..num3 nonzero",
                gather_ex_a,
                |w| {
                    w.dst_mem_pattern.num_elem[3] = 0;
                    w.src_mem_pattern.num_elem[3] = 0;
                    w.src_mem_pattern.start_addr.active = 1;
                }
            ),
            case(
                "num_active_channels_at_most_128",
                "supp-gather-scatter §7.2: num_active_channels <= POOLING_NUM_CHANNELS (128)",
                gather_ex_a,
                |w| w.num_active_channels = 129
            ),
            case(
                "free_pool_buffer_is_bool",
                "supp-gather-scatter §7.2: free_pool_buffer 0 or 1",
                gather_ex_a,
                |w| w.free_pool_buffer = 2
            ),
            case(
                "reserved_is_zero",
                "supp-gather-scatter §7.2: reserved1[2] == 0",
                gather_ex_a,
                |w| w.reserved1[1] = 1
            ),
        ]
    );
}

/// The INDIRECT_COPY word of supp-gather-scatter §8.2 EX-B (tests/vectors/gather_ex_b.hex).
fn indirect_copy_ex_b() -> INDIRECT_COPY {
    INDIRECT_COPY::decode(&vector("gather_ex_b.hex")).unwrap()
}

#[test]
fn indirect_copy_rules() {
    word_cases!(
        INDIRECT_COPY,
        [
            case(
                "src_is_indirect_pattern",
                "supp-gather-scatter §7.1: src must be indirect_pattern, marker & 0xe0 in {0x20, 0xA0}",
                indirect_copy_ex_b,
                |w| w.index_addr.indirect = 0
            ),
            case(
                "dst_is_tensor_pattern",
                "supp-gather-scatter §7.1: dst must be tensor_pattern",
                indirect_copy_ex_b,
                |w| w.dst_mem_pattern.start_addr.indirect = 1
            ),
            case(
                "dst_num_elem_per_idx_is_zero",
                "supp-gather-scatter §7.1: dst_num_elem_per_idx must == 0",
                indirect_copy_ex_b,
                |w| w.dst_num_elem_per_idx = 1
            ),
        ]
    );
}

#[test]
fn access_pattern_rules() {
    // wiki-tensor-descriptors §Worked example: outer stride 64 x 16, inner stride 1 x 32.
    struct_cases!(
        TENSOR2D,
        12,
        [case(
            "tensor2d_valid",
            "wiki-tensor-descriptors §The validators: num0 @+8 != 0 and num1 @+0xA != 0",
            || TENSOR2D::read(&[0, 0, 0, 0, 0x40, 0, 1, 0, 0x10, 0, 0x20, 0]),
            |t| t.num_elem[1] = 0,
        )]
    );
    struct_cases!(
        TENSOR3D,
        16,
        [case(
            "tensor3d_valid",
            "wiki-s3d3-collective §3.3: each num_elem[d] >= 1 (or a shape register)",
            || collective().src_mem_pattern,
            |t| t.num_elem[0] = 0,
        )]
    );
    struct_cases!(
        TENSOR4D,
        20,
        [case(
            "tensor4d_valid",
            "wiki-tensor4d §The decoder family: num0..num3 @+0xC..+0x12 nonzero",
            || gather_ex_a().src_mem_pattern,
            |t| t.num_elem[3] = 0,
        )]
    );
    // One 32-element OCP-MXFP block (wiki-mxmem-pattern1d §Block geometry), step +1, scale
    // partition 0, both addresses SBUF 0.
    fn mx() -> MXMEM_PATTERN1D {
        MXMEM_PATTERN1D {
            k_extent: 32,
            step_dir: 1,
            ..Default::default()
        }
    }
    struct_cases!(
        MXMEM_PATTERN1D,
        16,
        [
            case(
                "mxmem1d_valid_count_step",
                "wiki-mxmem-pattern1d §Static path: K != 0, step in {+1, -1}",
                mx,
                |t| t.step_dir = 0,
            )
            .on(Arch::mariana),
            case(
                "mxmem1d_valid_scale_part",
                "wiki-mxmem-pattern1d §Static path: scalePart low 2 bits 0, <= 0x0F",
                mx,
                |t| t.scale_part = 16,
            )
            .on(Arch::mariana),
        ]
    );
    // EX-B's gather (supp-gather-scatter §8.2): 3 indices, data at SBUF 0x80000, the index
    // ADDR4 with only the bit-29 marker.
    struct_cases!(
        INDIRECT16B,
        16,
        [case(
            "indirect_marker",
            "supp-indirect-descriptors §INDIRECT16B Algorithm: B[3] |= 0x20",
            || INDIRECT16B::read(&[0, 0, 0, 0x20, 0, 0, 8, 0, 3, 0, 0, 0, 0, 0, 0, 0]),
            |t| t.index_addr.indirect = 0,
        )]
    );
    struct_cases!(
        INDIRECT20B,
        20,
        [case(
            "indirect_marker",
            "supp-indirect-descriptors §INDIRECT20B Algorithm: B[3] |= 0x20",
            || {
                INDIRECT20B::read(&[
                    0, 0, 0, 0x20, 0, 0, 8, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                ])
            },
            |t| t.index_addr.indirect = 0,
        )]
    );
    // 32 FP8-x4 groups gathered: x4-NUM 128 (supp-indirect-descriptors §MXINDIRECT16B).
    fn mx_gather() -> MXINDIRECT16B {
        MXINDIRECT16B::read(&[0, 0, 0, 0x20, 0, 0, 8, 0, 0, 0, 1, 0, 128, 0, 0, 0])
    }
    struct_cases!(
        MXINDIRECT16B,
        16,
        [
            case(
                "indirect_marker",
                "supp-indirect-descriptors §MXINDIRECT16B Algorithm: B[3] |= 0x20",
                mx_gather,
                |t| t.index_addr.indirect = 0,
            )
            .on(Arch::mariana),
            case(
                "mxmem1d_valid_indirect",
                "wiki-mxmem-pattern1d §The indirect sibling: K-extent @+0x0C must be nonzero",
                mx_gather,
                |t| t.num_elem = 0,
            )
            .on(Arch::mariana),
        ]
    );
}

/// The golden DVE words (tests/vectors/dve_*.hex, from the header pages' and the DVE datamove page's tables).
fn dropout() -> DROPOUT {
    DROPOUT::decode(&vector("dve_dropout.hex")).unwrap()
}

fn shuffle_transpose() -> STREAM_SHUFFLE {
    STREAM_SHUFFLE::decode(&vector("dve_stream_shuffle_transpose.hex")).unwrap()
}

fn stream_transpose() -> STREAM_TRANSPOSE {
    STREAM_TRANSPOSE::decode(&vector("dve_stream_transpose.hex")).unwrap()
}

fn range_select() -> RANGE_SELECT {
    RANGE_SELECT::decode(&vector("dve_range_select.hex")).unwrap()
}

fn load_mask_select() -> LOAD_MASK_SELECT {
    LOAD_MASK_SELECT::decode(&vector("dve_stream_shuffle.hex")).unwrap()
}

fn pool_buffer_load() -> POOL_BUFFER_LOAD {
    POOL_BUFFER_LOAD::decode(&vector("dve_pool_buffer_load.hex")).unwrap()
}

#[test]
fn dve_word_rules() {
    word_cases!(
        DROPOUT,
        [
            case(
                "s3d3_dropout_same_src_dst_type",
                "wiki-dropout §3: out_dtype == in_dtype",
                dropout,
                |w| w.out_dtype = DTYPE::FP32
            ),
            case(
                "s3d3_dropout_threshold_dtype_check",
                "wiki-dropout §6.1: an immediate threshold must be FP32",
                dropout,
                |w| w.threshold_dtype = DTYPE::BFLOAT16
            ),
            case(
                "threshold_dtype_fp32",
                "wiki-dropout §6.1: a pointer threshold is FP32 for an integer in_dtype",
                dropout,
                |w| {
                    w.threshold_src = IMM_SRC::POINTER_IMMEDIATE;
                    w.in_dtype = DTYPE::INT16;
                    w.out_dtype = DTYPE::INT16;
                    w.threshold_dtype = DTYPE::BFLOAT16;
                }
            ),
            case(
                "reserved0_zero",
                "wiki-dropout §3: reserved0[4] must be 0",
                dropout,
                |w| w.reserved0[1] = 1
            ),
            case(
                "reserved1_zero",
                "wiki-dropout §3: reserved1[6] must be 0",
                dropout,
                |w| w.reserved1[4] = 1
            ),
        ]
    );
    word_cases!(
        STREAM_SHUFFLE,
        [
            case(
                "src_element_count_nonzero",
                "supp-dve-datamove §`0x6A`: both element counts nonzero",
                shuffle_transpose,
                |w| w.src_mem_pattern.num_elem[3] = 0
            ),
            case(
                "dst_element_count_nonzero",
                "supp-dve-datamove §`0x6A`: both element counts nonzero",
                shuffle_transpose,
                |w| w.dst_mem_pattern.num_elem[1] = 0
            ),
        ]
    );
    word_cases!(
        STREAM_TRANSPOSE,
        [
            case(
                "src_num_elem_3_is_1",
                "supp-dve-datamove §`0x6B` Guard B: src_mem_pattern.num_elem[3] == 1",
                stream_transpose,
                |w| w.src_mem_pattern.num_elem[3] = 0
            ),
            case(
                "src_is_not_tensor_indirect",
                "supp-dve-datamove §`0x6B` Guard A: no TensorIndirect src",
                stream_transpose,
                |w| w.src_mem_pattern.start_addr.indirect = 1
            ),
            case(
                "has_stream_transpose_opcode",
                "wiki-stream-transpose §4.2: opcode == 0x6b",
                stream_transpose,
                |w| w.header.opcode = OPCODE::STREAM_SHUFFLE
            ),
            case(
                "s4d4_tr_reserved_zero",
                "wiki-stream-transpose §4.2: reserved1[0..4] == 0",
                stream_transpose,
                |w| w.reserved1[0] = 1
            ),
            case(
                "mask_enable_valid",
                "wiki-stream-transpose §4.2: mask_enable in {0, 1}",
                stream_transpose,
                |w| w.mask_enable = 3
            ),
            case(
                "s4d4_tr_same_src_dst_type",
                "wiki-stream-transpose §4.2: out_dtype == in_dtype",
                stream_transpose,
                |w| w.out_dtype = DTYPE::INT16
            ),
            case(
                "is_zero_subdim",
                "wiki-stream-transpose §4.2: op_dim in {UNUSED, X}",
                stream_transpose,
                |w| w.op_dim = TENSOR_SUBDIM::XYZW
            ),
            case(
                "s4d4_tr_op_bypass",
                "wiki-stream-transpose §4.2: op == Bypass",
                stream_transpose,
                |w| w.op = ALU_OP::MAX
            ),
            case(
                "has_multiple_32_channels",
                "wiki-stream-transpose §4.2: channels in {32, 64, 96, 128}",
                stream_transpose,
                |w| w.num_active_channels = 33
            ),
            case(
                "has_transpose_src_element_count_t4d",
                "wiki-stream-transpose §4.2: prod(src.num_elem) % 32 == 0",
                stream_transpose,
                |w| w.src_mem_pattern.num_elem[0] = 33
            ),
            case(
                "has_zero_negated_field",
                "wiki-stream-transpose §4.2: negated == 0",
                stream_transpose,
                |w| w.negated = 1
            ),
        ]
    );
    word_cases!(
        RANGE_SELECT,
        [
            case(
                "has_valid_nc_rs",
                "wiki-range-select §10.2: nc >= V3",
                range_select,
                |_| {}
            )
            .moved_to(Arch::sunda),
            case(
                "has_range_select_opcode",
                "wiki-range-select §5.1: opcode == 0xbc",
                range_select,
                |w| w.header.opcode = OPCODE::DMA_TRANSPOSE
            ),
            case(
                "has_same_elem_count_rs_src_dst",
                "wiki-range-select §5.1 / §9: equal src / dst element counts",
                range_select,
                |w| w.src_mem_pattern.num_elem[1] = 1
            ),
            case(
                "has_valid_total_index_range",
                "wiki-range-select §5.5: base + count <= 2^24",
                range_select,
                |w| w.base = 16_777_200
            ),
            case(
                "is_valid_fp_dtype_datapath_in",
                "wiki-range-select §8: input FP8 / FP16 / BF16 / FP32",
                range_select,
                |w| w.in_out_dtype.dtype_lo = DTYPE::INT8
            ),
            case(
                "is_valid_fp_dtype_datapath_out",
                "wiki-range-select §8: output adds FP32R",
                range_select,
                |w| w.in_out_dtype.dtype_hi = DTYPE::UINT8
            ),
            case(
                "is_valid_fill_val",
                "wiki-range-select §5.3: fill_val == 0xff7fffff",
                range_select,
                |w| w.fill_val = 0
            ),
            case(
                "is_valid_rs_comp_op0",
                "wiki-range-select §5.2: IsEQ / IsGT / IsGE / IsLE / IsLT",
                range_select,
                |w| w.comp_op0 = ALU_OP::ADD
            ),
            case(
                "is_valid_rs_comp_op1",
                "wiki-range-select §5.2: IsEQ / IsGT / IsGE / IsLE / IsLT",
                range_select,
                |w| w.comp_op1 = ALU_OP::MIN
            ),
            case(
                "has_valid_range_select_reduce_cmd",
                "wiki-range-select §5.4: Idle / Accumulate / ZeroAccumulate",
                range_select,
                |w| w.reduce_cmd = ACCUM_CMD::ZERO
            ),
            case(
                "has_valid_range_select_reduce_op",
                "wiki-range-select §5.4: reduce_op == MAX",
                range_select,
                |w| w.reduce_op = ALU_OP::MIN
            ),
        ]
    );
    word_cases!(
        LOAD_MASK_SELECT,
        [
            case(
                "has_zero_pram_offset",
                "wiki-gap-cluster §7: param_ram_offset == 0",
                load_mask_select,
                |w| w.param_ram_offset = 1
            ),
            case(
                "ctrl_imm_ptr_select_zero",
                "wiki-gap-cluster §7: imm_ptr_select == 0",
                load_mask_select,
                |w| w.imm_ptr_select = 0x80
            ),
            case(
                "ctrl_im_reserved_zero",
                "wiki-gap-cluster §7: reserved0[17] == 0",
                load_mask_select,
                |w| w.reserved0[8] = 1
            ),
            case(
                "has_valid_masksel_data",
                "wiki-gap-cluster §7: valid_masksel_byte(b) = b < 64 || b == 255",
                load_mask_select,
                |w| w.immediate[20] = 0x40
            ),
        ]
    );
    word_cases!(
        POOL_BUFFER_LOAD,
        [
            case(
                "has_pool_buffer_load_opcode",
                "wiki-gap-cluster §6: has_pool_buffer_load_opcode",
                pool_buffer_load,
                |w| w.header.opcode = OPCODE::GATHER
            ),
            case(
                "s4_pb_reserved_zero",
                "wiki-gap-cluster §6: reserved2[16] == 0",
                pool_buffer_load,
                |w| w.reserved2[7] = 1
            ),
        ]
    );
}

/// The hand-built EXTENDED_INST words (tests/vectors/extended_*.hex, from the field
/// tables' §2.5 / §2.6 rows and Table 4.7).
fn rdma_desc_gen() -> EXTENDED_RDMA_DESC_GEN {
    EXTENDED_RDMA_DESC_GEN::decode(&vector("extended_rdma_desc_gen.hex")).unwrap()
}
fn rdma_desc_start() -> EXTENDED_RDMA_DESC_START {
    EXTENDED_RDMA_DESC_START::decode(&vector("extended_rdma_desc_start.hex")).unwrap()
}
fn extended_unknown() -> EXTENDED {
    EXTENDED::decode(&vector("extended_unknown.hex")).unwrap()
}

#[test]
fn extended_inst_rules() {
    const RESERVED: &str =
        "supp-field-tables Table 4.7: b1 reserved0 / b6..7 reserved1 must be zero";
    word_cases!(
        EXTENDED,
        [case(
            "extended_completion_info_reserved_zero",
            RESERVED,
            extended_unknown,
            |w| w.completion_info.reserved0 = 1
        )]
    );
    word_cases!(
        EXTENDED_RDMA_DESC_GEN,
        [case(
            "rdma_desc_gen_completion_info_reserved_zero",
            RESERVED,
            rdma_desc_gen,
            |w| w.completion_info.reserved1 = 2
        )]
    );
    word_cases!(
        EXTENDED_RDMA_DESC_START,
        [case(
            "rdma_desc_start_completion_info_reserved_zero",
            RESERVED,
            rdma_desc_start,
            |w| w.completion_info.reserved1 = 1
        )]
    );
    raw_cases!(
        EXT_COMPLETION_INFO,
        1,
        [case(
            "ext_completion_info_reserved_zero",
            RESERVED,
            || EXT_COMPLETION_INFO::from_raw(0x05),
            |c| c.reserved0 = 1,
        )]
    );
    // The engine-count rule is declared, not enforced (conflict rdma_dma_engine_mask_meaning):
    // a mask of 0x000f, four engines as a bitmap, is no violation.
    let mut w = rdma_desc_gen();
    w.dma_engine_mask.imm_arith_fp32 = 0xf;
    assert!(w.validate(Arch::cayman).is_ok());
    let r = EXTENDED_RDMA_DESC_GEN::RULES
        .iter()
        .find(|r| r.id == "rdma_desc_gen_engine_count_pow2")
        .unwrap();
    assert_ne!(r.kind, RuleKind::Expr);
}

#[test]
fn nested_type_rules() {
    raw_cases!(
        DMA_CONFIGS,
        1,
        [case(
            "is_valid_dma_configs",
            "seed-004 §6.1: P0..P4, ucode-capped at 4",
            || DMA_CONFIGS::from_raw(4),
            |c| c.priority_class = 5,
        )]
    );
    raw_cases!(
        BOUND_CHECK_REG,
        1,
        [
            case(
                "fully_inert",
                "supp-gather-scatter §6: fully inert = all three fields 0",
                || BOUND_CHECK_REG::from_raw(0),
                |c| c.bc_reg = 1,
            ),
            case(
                "bc_enabled_set",
                "supp-gather-scatter §6: fully armed needs bc_enabled == 1",
                || BOUND_CHECK_REG::from_raw(0x85),
                |c| c.bc_enabled = 0,
            ),
        ]
    );
    raw_cases!(
        ADDR4,
        4,
        [
            case(
                "tensor_start_addr_valid_register",
                "supp-addr4 §Register mode: regid < 0x40",
                || ADDR4::from_raw(0x8000_0005),
                |c| c.address = 64,
            ),
            // Bit 24 set: bits 8..23 stay zero (the v3/v4 branch holds), bits 8..30 do not.
            case(
                "tensor_start_addr_valid_register_gen2",
                "supp-addr4 §Register mode: gen2 (a1 & 0xFFFFFF00) == 0x80000000",
                || ADDR4::from_raw(0x8000_0005),
                |c| c.address = 0x100_0005,
            )
            .on(Arch::sunda),
            // 0x400_0000: outside the PSUM window, bit 26 set, so not SBUF either.
            case(
                "tensor_start_addr_valid_region",
                "supp-addr4 §PSUM-window detection: SBUF bits 25..28 must be 0",
                || ADDR4::from_raw(0x400),
                |c| c.address = 0x400_0000,
            ),
        ]
    );
    // bits 8..23 must be zero in register mode; not in immediate mode. The check is the
    // compiler's decoder (supp-addr4 §Function roster): a finding, the value stays valid.
    let check = |raw: u32| ADDR4::check_rules(&raw.to_le_bytes(), Arch::cayman);
    let bad = check(0x8000_0105);
    assert!(bad.is_empty());
    assert_eq!(
        bad.compiler_findings().map(|r| r.id).collect::<Vec<_>>(),
        ["tensor_start_addr_valid_register"]
    );
    assert!(ADDR4::from_raw(0x8000_0105).validate(Arch::cayman).is_ok());
    assert_eq!(check(0x0000_0105).compiler, 0);
}

#[test]
fn violations_name_every_broken_check() {
    let mut w = gather_xpose();
    w.elem_size = 3;
    w.flags.gather_dim = INDIRECT_DIM::Z;
    w.reserved[0] = 9;
    let v = w.validate(Arch::cayman).unwrap_err();
    let leaves: Vec<&str> = v.leaves().map(|r| r.id).collect();
    assert_eq!(
        leaves,
        [
            "has_valid_gather_transpose_elem_size",
            "has_valid_gather_transpose_flags",
            "reserved_is_zero"
        ]
    );
    assert!(
        v.contains("is_valid_dma_gather_transpose"),
        "the composite is reported too"
    );
    let text = v.to_string();
    assert!(
        text.contains("DMA_GATHER_XPOSE has_valid_gather_transpose_flags: gather_dim must be Y"),
        "{text}"
    );
    let r = v.leaves().next().unwrap();
    assert_eq!(r.fields, ["elem_size"]);
    assert_eq!(r.source, "seed-004 §4.1");
    // Word dispatch agrees.
    let word = Word::decode(&w.encode(), Arch::cayman).unwrap();
    assert_eq!(word.check(Arch::cayman).mask, v.mask);
}

#[test]
fn golden_vectors_are_valid_where_they_ship() {
    let m = model();
    for entry in std::fs::read_dir(root().join("tests/vectors")).unwrap() {
        let path = entry.unwrap().path();
        // tests/vectors/records/ holds records (16-byte SDMA descriptors), not words.
        if !path.is_file() {
            continue;
        }
        for b in hex_words(&path) {
            let w = m
                .words()
                .find(|w| w.opcode().unwrap().value == b[0])
                .unwrap();
            for arch in Arch::ALL {
                if !m.word_archs(w).contains(&arch.name()) {
                    continue;
                }
                let word = Word::decode(&b, *arch).unwrap();
                let v = word.check(*arch);
                let stem = path.file_stem().unwrap().to_str().unwrap();
                // compute_op ADD, which NC-v5's compiler refuses (seed-000: "CoreV5 cannot
                // support DGE with compute op yet"): a compiler finding, the word is valid.
                let findings: &[&str] = match (stem, arch) {
                    ("pseudo_dma_ext", Arch::maverick) => &["core_v5_no_dge_compute_op"],
                    _ => &[],
                };
                let got: Vec<&str> = v.compiler_findings().map(|r| r.id).collect();
                assert_eq!(got, findings, "{} on {}", path.display(), arch.name());
                let expected: &[&str] = match (stem, w.name.as_str(), arch) {
                    // README conflict #1: seed 000's Sunda examples write sync_command_byte
                    // 3 (COPY) at +0x0F, which seed 004 reads as dge_op 3
                    // (DMA_GATHER_TRANSPOSE), a value sunda's DGE_OPCODE does not have.
                    (
                        "seed000_static_save" | "seed000_hwdge_copy",
                        "PSEUDO_DMA_DIRECT2D",
                        Arch::sunda,
                    ) => &["dge_op_valid_for_arch"],
                    // Built to break seed-004 §4.1's src %2 / dst %32 (read at INFERRED).
                    ("dma_gather_xpose_misaligned", "DMA_GATHER_XPOSE", _) => {
                        &["src_start_addr_aligned_2", "dst_start_addr_aligned_32"]
                    }
                    // supp-gather-scatter §8.3 EX-C as the page first writes it, which it
                    // then shows breaks has_valid_idx_bound_check_reg.
                    ("gather_ex_c", "DMA_INDIRECT1D", _) => &["idx_bound_error_or_notif_dst"],
                    _ => &[],
                };
                let got: Vec<&str> = v.leaves().map(|r| r.id).collect();
                assert_eq!(got, expected, "{} on {}", path.display(), arch.name());
            }
        }
    }
}

// ---- differential --------------------------------------------------------------------

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Generated Rust: (truth, violations, compiler findings, undecided) of `name`'s rules on
/// `b`.
fn rust_eval(name: &str, b: &[u8], arch: Arch) -> (u64, u64, u64, u64) {
    let v = check_rules_by_name(name, b, arch)
        .unwrap_or_else(|| panic!("no generated validator for `{name}` ({} bytes)", b.len()));
    (v.truth, v.mask, v.compiler, v.undecided)
}

/// The golden vectors of the records with rules, by record (tests/vectors/records/).
const RECORD_VECTORS: [(&str, &str); 3] = [
    ("SW_DMA_QUEUE", "sw_dma_queue.hex"),
    ("VRING", "vring.hex"),
    ("UDMA_Q", "udma_q.hex"),
];

const RANDOM_PER_STRUCT: usize = 100_000;
/// The model's own evaluator (a tree walk) is slow in debug builds; it checks a prefix.
const REFERENCE_PER_STRUCT: usize = 10_000;

struct Sample {
    set: usize,
    nc: u8,
    bytes: Vec<u8>,
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("dmaspec-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A program reading `[set, nc, bytes...]` records on stdin and printing each record's
/// truth, violation, compiler-finding and undecided masks from the generated C validators
/// (exit 4 or 5 when `_is_valid` or `_verdict` disagrees with the masks).
fn harness(m: &Model) -> String {
    // The buffer holds the largest struct with rules (a 1024-byte record among them).
    let largest = (m.rules.sets.iter())
        .map(|s| m.ty(s.owner).size)
        .max()
        .unwrap_or(64);
    let mut src = format!(
        "#include <stdio.h>\n#include <string.h>\n#include \"dmaspec.h\"\n\nint main(void) {{\n    \
         unsigned char head[2];\n    unsigned char buf[{largest}];\n    \
         while (fread(head, 1, 2, stdin) == 2) {{\n        uint64_t t = 0, v = 0, f = 0, u = 0;\n        \
         switch (head[0]) {{\n",
    );
    for (k, s) in m.rules.sets.iter().enumerate() {
        let t = m.ty(s.owner);
        let st = c::stem(t);
        let _ = write!(
            src,
            "        case {k}: {{\n            {cn} x;\n            \
             if (fread(buf, 1, sizeof x, stdin) != sizeof x) return 2;\n            \
             memcpy(&x, buf, sizeof x);\n            t = {st}_rule_truth(&x, head[1]);\n            \
             v = {st}_violations(&x, head[1]);\n            \
             f = {st}_compiler_findings(&x, head[1]);\n            \
             u = {st}_undecided(&x, head[1]);\n            \
             if ({st}_is_valid(&x, head[1]) != (v == 0)) return 4;\n            \
             if ({st}_verdict(&x, head[1]) != (v ? DMASPEC_VERDICT_BROKEN : u ? \
             DMASPEC_VERDICT_UNDECIDED : DMASPEC_VERDICT_HOLDS)) return 5;\n            \
             break;\n        }}\n",
            cn = t.c_name
        );
    }
    src.push_str(
        "        default:\n            return 3;\n        }\n        \
         printf(\"%016llx %016llx %016llx %016llx\\n\", (unsigned long long)t, \
         (unsigned long long)v, (unsigned long long)f, (unsigned long long)u);\n    }\n    \
         return 0;\n}\n",
    );
    src
}

fn compile_and_run(dir: &Path, compiler: &str, flags: &[&str], src: &Path, input: &Path) -> String {
    let exe = dir.join(format!("harness-{compiler}"));
    let out = Command::new(compiler)
        .args(flags)
        .arg("-O1")
        .arg("-I")
        .arg(dir.join(c::DIR))
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler} (gcc and g++ must be on PATH): {e}"));
    assert!(
        out.status.success(),
        "{compiler} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe)
        .stdin(Stdio::from(std::fs::File::open(input).unwrap()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{compiler} harness exited with {:?}",
        out.status.code()
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Writes `v` (or a value near a boundary) into a field the rules read.
fn poke(rng: &mut Rng, bytes: &mut [u8], a: &Access, bounds: &[i64]) {
    let max = match a.bits {
        Some((_, w)) => (1i64 << w.min(62)) - 1,
        None if a.signed => i64::MAX >> (64 - 8 * a.size as u32),
        None => (1i64 << (8 * a.size as u32).min(62)) - 1,
    };
    let v = if !bounds.is_empty() && rng.chance(70) {
        let b = bounds[rng.below(bounds.len() as u64) as usize];
        b + rng.below(3) as i64 - 1
    } else {
        match rng.below(5) {
            0 => 0,
            1 => 1,
            2 => max,
            3 if a.signed => -(rng.below(64) as i64),
            _ => rng.next() as i64,
        }
    };
    a.write(bytes, v);
}

#[test]
fn rust_and_c_validators_agree() {
    let m = model();
    let mut rng = Rng(0x5EED_D1FF_0000_0004);
    let ncs: Vec<u8> = m.archs.iter().map(|a| a.nc).collect();
    let golden: Vec<[u8; 64]> = std::fs::read_dir(root().join("tests/vectors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .flat_map(|p| hex_words(&p))
        .collect();

    let mut samples: Vec<Sample> = Vec::new();
    let mut per_set: BTreeMap<String, usize> = BTreeMap::new();
    for (k, s) in m.rules.sets.iter().enumerate() {
        let t = m.ty(s.owner);
        let size = t.size;
        // The fields the rules read, with the constants they are compared against.
        let mut reads: Vec<Access> = Vec::new();
        let mut bounds: Vec<(Access, i64)> = Vec::new();
        for r in &s.rules {
            if let MKind::Expr { expr, .. } = &r.kind {
                expr.reads(&mut reads);
                expr.boundaries(&m.rules, &mut bounds);
                collect_table_bounds(&m, expr, &mut bounds);
            }
        }
        reads.sort_by_key(|a| (a.offset, a.bits));
        reads.dedup_by_key(|a| (a.offset, a.size, a.bits));
        let bounds_of = |a: &Access| -> Vec<i64> {
            bounds
                .iter()
                .filter(|(b, _)| b.offset == a.offset && b.bits == a.bits && b.size == a.size)
                .map(|(_, v)| *v)
                .collect()
        };
        let mut seeds: Vec<Vec<u8>> = match t.opcode() {
            Some(op) => golden
                .iter()
                .filter(|g| g[0] == op.value)
                .map(|g| g.to_vec())
                .collect(),
            None => Vec::new(),
        };
        if t.name == "DMA_DIRECT2D" {
            seeds.push(direct2d().encode().to_vec()); // no golden vector; the hand-built one
        }
        // A record's golden vectors: valid records no random bytes would hit (UDMA_Q's
        // size_mask must be its size - 1 with the size in range).
        if let Some((_, file)) = RECORD_VECTORS.iter().find(|(n, _)| *n == t.name) {
            let bytes = hex_bytes(&root().join("tests/vectors/records").join(file));
            seeds.extend(bytes.chunks_exact(size).map(<[u8]>::to_vec));
        }
        let mut n = 0;
        // Every golden vector, on every architecture.
        for g in &seeds {
            for &nc in &ncs {
                samples.push(Sample {
                    set: k,
                    nc,
                    bytes: g.clone(),
                });
                n += 1;
            }
        }
        // One-byte types: every value on every architecture.
        if size == 1 {
            for v in 0..=255u8 {
                for &nc in &ncs {
                    samples.push(Sample {
                        set: k,
                        nc,
                        bytes: vec![v],
                    });
                    n += 1;
                }
            }
        }
        for _ in 0..RANDOM_PER_STRUCT {
            let mut bytes: Vec<u8> = if !seeds.is_empty() && rng.chance(40) {
                seeds[rng.below(seeds.len() as u64) as usize].clone()
            } else {
                (0..size).map(|_| rng.next() as u8).collect()
            };
            if let Some(op) = t.opcode()
                && rng.chance(95)
            {
                bytes[0] = op.value;
            }
            let percent = if rng.chance(50) { 10 } else { 50 };
            for a in &reads {
                if rng.chance(percent) {
                    poke(&mut rng, &mut bytes, a, &bounds_of(a));
                }
            }
            let nc = ncs[rng.below(ncs.len() as u64) as usize];
            samples.push(Sample { set: k, nc, bytes });
            n += 1;
        }
        per_set.insert(t.name.clone(), n);
    }

    // The C side: headers, harness, one run over every sample, as C11 and as C++17.
    let dir = temp_dir("validators");
    for (path, contents) in c::render(&m) {
        let f = dir.join(path);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, contents).unwrap();
    }
    let src = dir.join("harness.c");
    std::fs::write(&src, harness(&m)).unwrap();
    let input = dir.join("input.bin");
    let mut data = Vec::with_capacity(samples.len() * 66);
    for s in &samples {
        data.push(s.set as u8);
        data.push(s.nc);
        data.extend_from_slice(&s.bytes);
    }
    std::fs::write(&input, data).unwrap();
    let strict = ["-Wall", "-Wextra", "-Werror", "-pedantic"];
    let c_flags: Vec<&str> = ["-std=c11"].into_iter().chain(strict).collect();
    let cxx_flags: Vec<&str> = ["-std=c++17"]
        .into_iter()
        .chain(strict)
        .chain(["-x", "c++"])
        .collect();
    let c_out = compile_and_run(&dir, "gcc", &c_flags, &src, &input);
    let cxx_out = compile_and_run(&dir, "g++", &cxx_flags, &src, &input);
    assert_eq!(c_out, cxx_out, "C and C++ builds disagree");

    let lines: Vec<&str> = c_out.lines().collect();
    assert_eq!(lines.len(), samples.len());
    let mut checked_reference = vec![0usize; m.rules.sets.len()];
    let mut violations_seen = vec![BTreeSet::new(); m.rules.sets.len()];
    let mut valid_seen = vec![0usize; m.rules.sets.len()];
    for (s, line) in samples.iter().zip(&lines) {
        let set = &m.rules.sets[s.set];
        let name = &m.ty(set.owner).name;
        let arch = *Arch::ALL.iter().find(|a| a.nc() == s.nc).unwrap();
        let (rt, rv, rf, ru) = rust_eval(name, &s.bytes, arch);
        let c: Vec<u64> = line
            .split(' ')
            .map(|x| u64::from_str_radix(x, 16).unwrap())
            .collect();
        if [rt, rv, rf, ru][..] != c[..] {
            panic!(
                "{name} on {}: Rust truth {rt:#x} violations {rv:#x} compiler findings {rf:#x} undecided {ru:#x}, C {c:#x?}\nbytes {:02x?}",
                arch.name(),
                s.bytes
            );
        }
        if checked_reference[s.set] < REFERENCE_PER_STRUCT {
            checked_reference[s.set] += 1;
            let t = set.truth(&m, &s.bytes, i64::from(s.nc));
            assert_eq!(
                t, rt,
                "{name}: the model's evaluator disagrees, bytes {:02x?}",
                s.bytes
            );
            assert_eq!(set.violations(t), rv);
            assert_eq!(set.compiler_findings(t), rf);
        }
        if rv == 0 {
            valid_seen[s.set] += 1;
        }
        for i in 0..set.rules.len() {
            if (rv | rf) >> i & 1 == 1 {
                violations_seen[s.set].insert(i);
            }
        }
    }
    // The inputs reach both sides of the rules: valid values, and a violation of every
    // check that can be violated on its own.
    for (k, s) in m.rules.sets.iter().enumerate() {
        let name = &m.ty(s.owner).name;
        assert!(
            per_set[name] >= RANDOM_PER_STRUCT,
            "{name}: {} cases",
            per_set[name]
        );
        let reportable = s
            .rules
            .iter()
            .enumerate()
            .filter(|(i, r)| matches!(r.kind, MKind::Expr { .. }) && !under_vacuous_any(s, *i));
        for (i, r) in reportable {
            assert!(
                violations_seen[k].contains(&i),
                "{name}: no random input violates `{}`; bias the generator",
                r.id
            );
        }
        if s.rules.iter().any(|r| matches!(r.kind, MKind::Expr { .. })) {
            assert!(valid_seen[k] > 0, "{name}: no random input is valid");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether rule `i` sits under an `any` with a not-enforced alternative (so it can never
/// be reported).
fn under_vacuous_any(s: &dmaspec_codegen::model::rules::RuleSet, mut i: usize) -> bool {
    while let Some(p) = s.rules[i].parent {
        if let MKind::Any { parts } = &s.rules[p].kind
            && parts.iter().any(|&q| {
                s.enforcement(q) == dmaspec_codegen::model::rules::Enforcement::NotEnforced
            })
        {
            return true;
        }
        i = p;
    }
    false
}

/// Table lookups compared against constants probe the table's keys.
fn collect_table_bounds(m: &Model, e: &Expr, out: &mut Vec<(Access, i64)>) {
    match e {
        Expr::Table { index, arg } => {
            if let Expr::Read { access } = &**arg {
                for (raw, _, _) in &m.rules.tables[*index].entries {
                    out.push((access.clone(), *raw));
                }
            }
            collect_table_bounds(m, arg, out);
        }
        Expr::Not { arg } | Expr::Neg { arg } => collect_table_bounds(m, arg, out),
        Expr::Bin { lhs, rhs, .. } => {
            collect_table_bounds(m, lhs, out);
            collect_table_bounds(m, rhs, out);
        }
        Expr::Chain { parts, .. } => parts.iter().for_each(|p| collect_table_bounds(m, p, out)),
        Expr::If { cond, then, other } => {
            collect_table_bounds(m, cond, out);
            collect_table_bounds(m, then, out);
            collect_table_bounds(m, other, out);
        }
        _ => {}
    }
}

// ---- seed-000 words ------------------------------------------------------------------

fn bytes_cases(owner: &str, rules: &'static [RuleMeta], cases: &[Case<[u8; 64]>]) {
    run_cases::<[u8; 64], 64>(
        owner,
        rules,
        cases,
        |b| *b,
        |b, a| check_rules_by_name(owner, b, a).unwrap().truth,
        |b, a| check_rules_by_name(owner, b, a).unwrap(),
    );
}

#[test]
fn seed000_word_rules() {
    // "queName.length() < maxSize" (maxSize = 32): a 32-byte slot with no NUL holds a name
    // of 32 bytes or more.
    bytes_cases(
        "PSEUDO_DMA_TRIGGER",
        PSEUDO_DMA_TRIGGER::RULES,
        &[
            case(
                "queue_name_shorter_than_32",
                "seed-000 §DMATrigger: queName.length() < maxSize (32)",
                || vector("seed000_trigger.hex"),
                |b| b[0x2B] = b'x',
            ),
            case(
                "dma_queue_name_not_empty",
                "wiki-seq-microcode §5: tonga_isa_tpb_dma_trigger_check_validity, dma_queue_name[0] != '\\0'",
                || vector("seed000_trigger.hex"),
                |b| b[0x0C] = 0,
            ),
        ],
    );
    for (name, file, rules) in [
        (
            "PSEUDO_DMA_SWAP_QUEUE_SET",
            "seed000_swap_queue_set.hex",
            PSEUDO_DMA_SWAP_QUEUE_SET::RULES,
        ),
        (
            "PSEUDO_DMA_REARM",
            "seed000_rearm.hex",
            PSEUDO_DMA_REARM::RULES,
        ),
    ] {
        let base = vector(file);
        assert!(
            check_rules_by_name(name, &base, Arch::cayman)
                .unwrap()
                .is_empty()
        );
        let mut long = base;
        long[0x0C..0x2C].fill(b'q');
        let v = check_rules_by_name(name, &long, Arch::cayman).unwrap();
        // The compiler's FATAL, not a header check: a finding, the word stays valid.
        assert!(v.is_empty());
        let got: Vec<&str> = v.compiler_findings().map(|r| r.id).collect();
        assert_eq!(
            got,
            ["queue_name_shorter_than_32"],
            "{name}: checkQueueNameLen(name, 0x20)"
        );
        let covered = ["queue_name_shorter_than_32"];
        for r in rules.iter().filter(|r| r.kind == RuleKind::Expr) {
            assert!(
                covered.contains(&r.id),
                "{name}: enforced check `{}` has no case",
                r.id
            );
        }
    }
    bytes_cases(
        "PSEUDO_EMBEDDING_UPDATE",
        PSEUDO_EMBEDDING_UPDATE::RULES,
        &[case(
            "scratch_address_aligned_64",
            "seed-000 §IndirectSaveAccumulate: scratch space address must be 64-byte aligned",
            || vector("seed000_pseudo_embedding_update.hex"),
            |b| b[0x2C] |= 0x20,
        )],
    );
}
