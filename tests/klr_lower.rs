//! The generated KLR→BIR leaves (`dmaspec::words::klr`) against seed 003: for every leaf
//! its main path, each of its error strings and each routing fork, with the node and
//! stamped values the source text gives (the section is cited on each test), plus
//! translateDGEMode for 0..3 and the fatal > 3.

use dmaspec::words::klr::{
    self, Ap, Error, ErrorKind, Function, Imm, Node, Outcome, Value, enums::*, ops, tables,
};

/// A klr enum's value as an op field or a stamp carries it (an `i64`).
trait Raw {
    fn v(self) -> i64;
}

macro_rules! raw {
    ($($t:ty),*) => {
        $(impl Raw for $t {
            fn v(self) -> i64 {
                i64::from(self.raw())
            }
        })*
    };
}

raw!(
    DGEType,
    DgeComputeOp,
    AluOpType,
    CopyMode,
    TransposeOps,
    EngineType,
    KlrEngine,
    BirDtype,
    InstructionType,
    DescriptorSubOpcode
);

const S2: &[i64] = &[128, 512];
const S4: &[i64] = &[2, 4, 8, 16];

fn st() -> Ap<'static> {
    Ap::new(S2)
}

#[track_caller]
fn node(o: Outcome<'_>) -> Node<'_> {
    match o {
        Outcome::Node(n) => n,
        other => panic!("expected a node, got {other:?}"),
    }
}

#[track_caller]
fn error(o: Outcome<'_>) -> Error {
    match o {
        Outcome::Error(e) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

/// The node's stamp at `off`, as (field, value).
#[track_caller]
fn stamp<'a>(n: &Node<'a>, off: u32) -> (&'static str, Value<'a>) {
    let s = n
        .stamp(off)
        .unwrap_or_else(|| panic!("no stamp at {off:#x}: {:?}", n.stamps));
    (s.field, s.value)
}

fn enum_raw(v: Value<'_>) -> i64 {
    match v {
        Value::Enum { raw, .. } => raw,
        Value::Int(i) => i,
        other => panic!("not a number: {other:?}"),
    }
}

fn offsets(n: &Node<'_>) -> Vec<u32> {
    n.stamps.iter().map(|s| s.offset).collect()
}

fn it(n: &Node<'_>) -> Option<i64> {
    n.path.it.map(|(_, v)| v)
}

fn message(e: &Error) -> String {
    e.to_string()
}

// ---- tables ---------------------------------------------------------------------------

/// §3.2: translateDGEMode {3, 1, 2, 0}: klr 0 → Unassigned, 1 → SWDGE, 2 → HWDGE, 3 → None.
#[test]
fn translate_dge_mode_table() {
    assert_eq!(tables::translateDGEMode, &[3, 1, 2, 0]);
    let expected = [
        (0, DGEType::Unassigned.v()),
        (1, DGEType::SWDGE.v()),
        (2, DGEType::HWDGE.v()),
        (3, DGEType::None.v()),
    ];
    for (mode, dge) in expected {
        let op = dma(st(), st(), DgeComputeOp::none.v(), mode, false, 0);
        let n = node(klr::lower_NcDmaCopy(&op, &mut Function::new()));
        assert_eq!(n.enum_stamp("DGEType"), Some(dge), "dgeMode {mode}");
        assert_eq!(stamp(&n, 0xF8).0, "dge_type");
        let op = xpose(Ap::new(S4), Ap::new(S4), mode, 0);
        let n = node(klr::lower_DmaTranspose(&op, &mut Function::new()));
        assert_eq!(
            n.enum_stamp("DGEType"),
            Some(dge),
            "DmaTranspose dgeMode {mode}"
        );
    }
    assert_eq!(DGEType::from_raw(3).name(), Some("Unassigned"));
}

/// §3.2: "if (m > 3) fatal" — in both leaves that call translateDGEMode (§3.2, §5).
#[test]
fn translate_dge_mode_above_3_is_fatal() {
    for mode in [4, 5, 100] {
        let e = error(klr::lower_NcDmaCopy(
            &dma(st(), st(), DgeComputeOp::none.v(), mode, false, 0),
            &mut Function::new(),
        ));
        assert_eq!(e.kind, ErrorKind::Fatal);
        assert_eq!(e.arg, Some(mode));
        assert_eq!(e.helper, Some("translateDGEMode @0xf14b60"));
        assert_eq!(e.message, "", "the source gives the fatal no message");
        let e = error(klr::lower_DmaTranspose(
            &xpose(Ap::new(S4), Ap::new(S4), mode, 0),
            &mut Function::new(),
        ));
        assert_eq!(e.kind, ErrorKind::Fatal);
    }
}

/// §9.1 / §7: DTYPE_STRIDE_LUT, and §6: fp32 = 16 (4 bytes in the LUT); §5: XZYW = 11, perm
/// [3,1,2,0]; §3: DgeComputeOp none 1 / add 2; §7: AluOpType add 4; §5 / §8: Pool 1, ALL 7.
#[test]
fn enums_and_tables() {
    assert_eq!(
        tables::DTYPE_STRIDE_LUT,
        &[1, 1, 2, 1, 1, 1, 1, 1, 4, 4, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8]
    );
    assert_eq!(BirDtype::fp32.v(), 16);
    assert_eq!(tables::DTYPE_STRIDE_LUT[BirDtype::fp32.v() as usize], 4);
    assert_eq!(TransposeOps::XZYW.v(), 11);
    assert_eq!(tables::XZYW_perm, &[3, 1, 2, 0]);
    assert_eq!((DgeComputeOp::none.v(), DgeComputeOp::add.v()), (1, 2));
    assert_eq!(AluOpType::add.v(), 4);
    assert_eq!(CopyMode::Transpose.v(), 1);
    assert_eq!((EngineType::Pool.v(), EngineType::ALL.v()), (1, 7));
    assert_eq!(KlrEngine::pe.v(), 5);
    let its: Vec<i64> = [
        InstructionType::InstTensorCopy.v(),
        InstructionType::InstTensorCopyDynamicSrc.v(),
        InstructionType::InstTensorCopyDynamicDst.v(),
        InstructionType::InstIndirectCopy.v(),
        InstructionType::InstDMACopy.v(),
        InstructionType::InstBNStats.v(),
        InstructionType::InstBNStatsAggregate.v(),
        InstructionType::InstStreamShuffle.v(),
        InstructionType::InstStreamTranspose.v(),
        InstructionType::InstGenericIndirectSave.v(),
        InstructionType::InstCopyPredicated.v(),
        InstructionType::InstRangeSelect.v(),
        InstructionType::InstTensorLoad.v(),
        InstructionType::InstTensorSave.v(),
        InstructionType::InstGather.v(),
    ]
    .to_vec();
    assert_eq!(
        its,
        [23, 24, 25, 26, 32, 34, 35, 39, 40, 44, 52, 63, 75, 76, 92]
    );
    // seed 000 §Dynamic / DGE / indirect arm: the descriptor sub-opcodes.
    assert_eq!(
        [
            DescriptorSubOpcode::COPY.v(),
            DescriptorSubOpcode::CCE.v(),
            DescriptorSubOpcode::TRANSPOSE.v(),
            DescriptorSubOpcode::REPLICATE.v()
        ],
        [69, 70, 71, 72]
    );
}

// ---- §2 NcCopy --------------------------------------------------------------------------

fn copy<'a>(dst: Ap<'a>, src: Ap<'a>, engine: i64) -> ops::NcCopy<'a> {
    ops::NcCopy {
        dst,
        src,
        dtype: None,
        engine,
    }
}

/// §2 (A): both static → addTensorCopyCustom, IT 23, "TensorCopy_"; +0x90 = codegenEngine.
#[test]
fn nc_copy_static() {
    let n = node(klr::lower_NcCopy(
        &copy(st(), st(), 3),
        &mut Function::new(),
    ));
    assert_eq!(n.path.class, "bir::InstTensorCopy");
    assert_eq!(it(&n), Some(23));
    assert_eq!(n.path.prefix, Some("TensorCopy_"));
    assert_eq!(n.path.build, "InstBuilder::addTensorCopyCustom @0xf2d7d0");
    assert_eq!(offsets(&n), [0x90], "engine and nothing else DMA-ish");
    assert_eq!(enum_raw(stamp(&n, 0x90).1), 3);
    assert_eq!(n.enum_stamp("DGEType"), None, "no DGEType");
}

/// §2 (B): one side dynamic; as the page writes it, dyn_dst takes TensorCopyDynamicSrc (24)
/// and the else arm TensorCopyDynamicDst (25); +0x110 tag, +0xF0 size, +0x90 engine.
#[test]
fn nc_copy_dynamic_forks() {
    let n = node(klr::lower_NcCopy(
        &copy(st().scalar(), st(), 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path.name, "dynamic dst");
    assert_eq!(it(&n), Some(24));
    assert_eq!(n.path.prefix, Some("TensorCopyDynamicSrc_"));
    assert_eq!(
        n.path.build,
        "insertElement<InstTensorCopyDynamicSrc> @0xf2d40b"
    );
    assert_eq!(offsets(&n), [0x110, 0xF0, 0x90]);
    assert_eq!(stamp(&n, 0xF0).0, "size");
    let n = node(klr::lower_NcCopy(
        &copy(st(), st().scalar(), 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path.name, "dynamic src");
    assert_eq!(it(&n), Some(25));
    assert_eq!(n.path.prefix, Some("TensorCopyDynamicDst_"));
    assert_eq!(n.bindings.len(), 2);
}

/// §2: both dynamic.
#[test]
fn nc_copy_both_dynamic() {
    let e = error(klr::lower_NcCopy(
        &copy(st().scalar(), st().vector(), 0),
        &mut Function::new(),
    ));
    assert_eq!(e.kind, ErrorKind::Throw);
    assert_eq!(
        message(&e),
        "Only one of src and dst can have dynamic access in tensor_copy."
    );
}

/// §2: a vector-offset side. The page lists the scalarOffset assert before the
/// vector_offset throw, so the assert is what fires; the throw is carried in the spec (see
/// `nc_copy_vector_throw_is_carried`).
#[test]
fn nc_copy_vector_offset() {
    for op in [copy(st().vector(), st(), 0), copy(st(), st().vector(), 0)] {
        let e = error(klr::lower_NcCopy(&op, &mut Function::new()));
        assert_eq!(e.kind, ErrorKind::Assert);
        assert_eq!(message(&e), "Dynamic access must have scalarOffset");
    }
}

/// §2: the vector_offset throw is in the spec, after the assert that shadows it.
#[test]
fn nc_copy_vector_throw_is_carried() {
    let model = dmaspec_codegen::load::load_dir(std::path::Path::new("spec")).unwrap();
    let leaf = model.klr.leaf("NcCopy").unwrap();
    let msgs: Vec<&str> = leaf
        .steps
        .iter()
        .filter_map(|s| match &s.kind {
            dmaspec_codegen::model::klr::StepKind::Check(c) => Some(c.message.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        msgs,
        [
            "Only one of src and dst can have dynamic access in tensor_copy.",
            "Dynamic access must have scalarOffset",
            "tensor_copy only supports scalar_offset for dynamic access, not vector_offset.",
        ]
    );
}

// ---- §3 NcDmaCopy -----------------------------------------------------------------------

fn dma<'a>(
    dst: Ap<'a>,
    src: Ap<'a>,
    compute_op: i64,
    dge_mode: i64,
    unique: bool,
    engine: i64,
) -> ops::NcDmaCopy<'a> {
    ops::NcDmaCopy {
        dst,
        src,
        compute_op,
        oobMode: 0,
        dgeMode: dge_mode,
        uniqueIndices: unique,
        engine,
    }
}

/// §3.3 static path, §3.4 tail: addUnaryInstruction<InstDMACopy>, IT 32, "dma_copy_";
/// +0xF8 DGEType, +0x130 = oobMode != 1; no +0x178 for none, no engine under SWDGE.
#[test]
fn nc_dma_copy_static() {
    let n = node(klr::lower_NcDmaCopy(
        &dma(st(), st(), DgeComputeOp::none.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.leaf, "NcDmaCopy");
    assert_eq!(n.path.class, "bir::InstDMACopy");
    assert_eq!(it(&n), Some(32));
    assert_eq!(n.path.prefix, Some("dma_copy_"));
    assert_eq!(
        n.path.build,
        "InstBuilder::addUnaryInstruction<InstDMACopy> @0xf309c9"
    );
    assert_eq!(offsets(&n), [0xF8, 0x150, 0x130]);
    assert_eq!(stamp(&n, 0x130), ("oob_is_err", Value::Bool(true)));
    assert!(n.effects.is_empty(), "same shapes: no canonicalisation");
    // oobMode 1 → oob_is_err false.
    let mut op = dma(st(), st(), DgeComputeOp::none.v(), 1, false, 0);
    op.oobMode = 1;
    let n = node(klr::lower_NcDmaCopy(&op, &mut Function::new()));
    assert_eq!(stamp(&n, 0x130).1, Value::Bool(false));
}

/// §3.3: if src.getShape() != dst.getShape(), both APs are set to getCanonicalPattern.
#[test]
fn nc_dma_copy_canonical_pattern_when_shapes_differ() {
    let other: &[i64] = &[64, 1024];
    let n = node(klr::lower_NcDmaCopy(
        &dma(Ap::new(other), st(), DgeComputeOp::none.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert!(
        n.effects
            .iter()
            .any(|e| e.text.contains("getCanonicalPattern"))
    );
}

/// §3.1: compute_op == add and not uniqueIndices → codegenGenericIndirectSave (IT 44).
#[test]
fn nc_dma_copy_routes_to_scatter() {
    let dst = st().vector().indirect_dim(0).dtype(16);
    let n = node(klr::lower_NcDmaCopy(
        &dma(dst, st(), DgeComputeOp::add.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.leaf, "GenericIndirectSave");
    assert_eq!(n.routed_from, Some("NcDmaCopy"));
    assert_eq!(it(&n), Some(44));
    assert_eq!(n.path.prefix, Some("IndirectSaveAccumulate-"));
    assert_eq!(
        n.enum_stamp("DGEType"),
        None,
        "GenericIndirectSave sets no DGEType"
    );
}

/// §3.1: with uniqueIndices (or compute_op none) the op stays a DMA; §3.4: add → +0x178 = 4.
#[test]
fn nc_dma_copy_accumulate_with_unique_indices() {
    let n = node(klr::lower_NcDmaCopy(
        &dma(st(), st(), DgeComputeOp::add.v(), 1, true, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.leaf, "NcDmaCopy");
    assert_eq!(stamp(&n, 0x178).0, "reduce cmd");
    assert_eq!(enum_raw(stamp(&n, 0x178).1), AluOpType::add.v());
}

/// §3.4: the compute_op switch's default arm ("Unsupported DMA compute_op " + n); with
/// uniqueIndices the op stays in NcDmaCopy, without it GenericIndirectSave says it (§7).
#[test]
fn nc_dma_copy_unsupported_compute_op() {
    let e = error(klr::lower_NcDmaCopy(
        &dma(st(), st(), 3, 1, true, 0),
        &mut Function::new(),
    ));
    assert_eq!((e.leaf, e.kind), ("NcDmaCopy", ErrorKind::Throw));
    assert_eq!(message(&e), "Unsupported DMA compute_op 3");
    let e = error(klr::lower_NcDmaCopy(
        &dma(st().vector(), st(), 0, 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        (e.leaf, e.routed_from),
        ("GenericIndirectSave", Some("NcDmaCopy"))
    );
    assert_eq!(message(&e), "Unsupported DMA compute_op 0");
}

/// §3.4: an engine only under HWDGE (then stamped at +0x90); otherwise it must be 0.
#[test]
fn nc_dma_copy_engine_gate() {
    let n = node(klr::lower_NcDmaCopy(
        &dma(st(), st(), DgeComputeOp::none.v(), 2, false, 4),
        &mut Function::new(),
    ));
    assert_eq!(n.enum_stamp("DGEType"), Some(DGEType::HWDGE.v()));
    assert_eq!(stamp(&n, 0x90).0, "engine-id");
    assert_eq!(enum_raw(stamp(&n, 0x90).1), 4);
    for mode in [0, 1, 3] {
        let e = error(klr::lower_NcDmaCopy(
            &dma(st(), st(), DgeComputeOp::none.v(), mode, false, 4),
            &mut Function::new(),
        ));
        assert_eq!(
            message(&e),
            "dma_copy engine can only be specified when HWDGE mode is used."
        );
        let n = node(klr::lower_NcDmaCopy(
            &dma(st(), st(), DgeComputeOp::none.v(), mode, false, 0),
            &mut Function::new(),
        ));
        assert!(
            n.stamp(0x90).is_none(),
            "SW/None DMAs leave engine-id for H33"
        );
    }
}

/// §3.3: the three dynamic-access legality checks, in order.
#[test]
fn nc_dma_copy_dynamic_legality() {
    let e = error(klr::lower_NcDmaCopy(
        &dma(
            st().scalar(),
            st().scalar(),
            DgeComputeOp::none.v(),
            1,
            false,
            0,
        ),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "Only one of the src and dst can contain dynamic access."
    );
    // dgeMode 3 → DGEType None.
    let e = error(klr::lower_NcDmaCopy(
        &dma(st(), st().scalar(), DgeComputeOp::none.v(), 3, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "DGE must be enabled when dynamic src access in DMA is used"
    );
    let e = error(klr::lower_NcDmaCopy(
        &dma(st().scalar(), st(), DgeComputeOp::none.v(), 3, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "DGE must be enabled when dynamic dst access in DMA is used"
    );
}

/// §3.3 dynamic path: insertElement, "DynamicDMACopy-", the dynamic AP on +0xA0 (src) /
/// +0xC0 (dst), the static side via addArgument, DynamicAPINFO moved into +0x1D8.
#[test]
fn nc_dma_copy_dynamic_path() {
    let n = node(klr::lower_NcDmaCopy(
        &dma(st(), st().scalar(), DgeComputeOp::none.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path.name, "dynamic");
    assert_eq!(n.path.prefix, Some("DynamicDMACopy-"));
    assert_eq!(n.path.build, "insertElement<InstDMACopy>");
    assert_eq!(it(&n), Some(32));
    assert_eq!(stamp(&n, 0x1D8).0, "QoS / DynamicAPINFO holder");
    let roles: Vec<(&str, Option<&str>)> = n.bindings.iter().map(|b| (b.role, b.operand)).collect();
    assert_eq!(
        roles,
        [("dynamic-ap", Some("src")), ("argument", Some("dst"))]
    );
    assert!(
        n.bindings
            .iter()
            .next()
            .unwrap()
            .note
            .unwrap()
            .contains("+0xA0")
    );
    let n = node(klr::lower_NcDmaCopy(
        &dma(st().scalar(), st(), DgeComputeOp::none.v(), 2, false, 0),
        &mut Function::new(),
    ));
    let roles: Vec<(&str, Option<&str>)> = n.bindings.iter().map(|b| (b.role, b.operand)).collect();
    assert_eq!(
        roles,
        [("dynamic-ap", Some("dst")), ("argument", Some("src"))]
    );
}

/// seed 000 §Dynamic-AP packaging (assembleDynamicInfo, called on the §3.3 dynamic path):
/// a vector offset supports only indirectDim 0; an unknown indirect_dim leaves it open.
#[test]
fn nc_dma_copy_vector_indirect_dim() {
    let e = error(klr::lower_NcDmaCopy(
        &dma(
            st(),
            st().vector().indirect_dim(1),
            DgeComputeOp::none.v(),
            1,
            true,
            0,
        ),
        &mut Function::new(),
    ));
    assert_eq!(e.kind, ErrorKind::Assert);
    assert_eq!(e.helper, Some("assembleDynamicInfo @0xf20230"));
    assert_eq!(
        message(&e),
        "When using vector offset, the only supported indirectDim is 0"
    );
    let n = node(klr::lower_NcDmaCopy(
        &dma(st(), st().vector(), DgeComputeOp::none.v(), 1, true, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.unevaluated.len(), 1);
}

// ---- §7 GenericIndirectSave ---------------------------------------------------------------

/// §7: IT 44, "IndirectSaveAccumulate-", +0x128 indirect_dims = [dst's ap[+0x60]], +0x140 = 4
/// for add; the data / index / output-base bindings all read dst; elemBytes from the LUT.
#[test]
fn generic_indirect_save_main() {
    let dst = st().vector().indirect_dim(2).dtype(16);
    let n = node(klr::lower_GenericIndirectSave(
        &dma(dst, st(), DgeComputeOp::add.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path.class, "bir::InstGenericIndirectSave");
    assert_eq!(offsets(&n), [0x128, 0x140]);
    assert_eq!(stamp(&n, 0x128), ("indirect_dims", Value::One(2)));
    assert_eq!(enum_raw(stamp(&n, 0x140).1), 4);
    let b: Vec<(&str, Option<&str>)> = n.bindings.iter().map(|b| (b.role, b.operand)).collect();
    assert_eq!(
        b,
        [
            ("argument", Some("dst")),
            ("argument", Some("dst")),
            ("base", Some("dst"))
        ]
    );
    let shown = n.shown.iter().next().unwrap();
    assert_eq!((shown.name, shown.value), ("elemBytes", Value::Int(4)));
}

/// §7: compute_op none leaves +0x140 at its default (overwrite). Reached only by calling
/// the leaf directly: NcDmaCopy never routes a compute_op none op here.
#[test]
fn generic_indirect_save_overwrite() {
    let n = node(klr::lower_GenericIndirectSave(
        &dma(st().vector(), st(), DgeComputeOp::none.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(offsets(&n), [0x128]);
    assert_eq!(stamp(&n, 0x128).1, Value::Missing("[indirect_dim(dst)]"));
}

/// §7: the scattered data must be static.
#[test]
fn generic_indirect_save_dynamic_src() {
    let e = error(klr::lower_NcDmaCopy(
        &dma(
            st().vector(),
            st().scalar(),
            DgeComputeOp::add.v(),
            1,
            false,
            0,
        ),
        &mut Function::new(),
    ));
    assert_eq!(e.leaf, "GenericIndirectSave");
    assert_eq!(
        message(&e),
        "When unique_index=False, dynamic access in src is not supported"
    );
}

/// seed 000 §The sibling: extractDynamicApToStandAlone(dst), called by §7 for the index AP.
#[test]
fn generic_indirect_save_index_extraction() {
    let e = error(klr::lower_NcDmaCopy(
        &dma(st(), st(), DgeComputeOp::add.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "cannot extract dynamic ap from a static access!"
    );
    assert_eq!(e.helper, Some("extractDynamicApToStandAlone @0xf1e2c0"));
    let e = error(klr::lower_NcDmaCopy(
        &dma(st().scalar(), st(), DgeComputeOp::add.v(), 1, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "When unique_indices=True, it's expected that the vector_offset is set. Check the nisa.dma_copy call"
    );
}

// ---- §4 DmaCompute ----------------------------------------------------------------------

/// §4: addDmaCopyFma, IT 32, "DMACompute"; the builder owns IT/engine/DGE: no stamps.
#[test]
fn dma_compute_main() {
    let srcs = [st(), st()];
    let scales = [Imm::Float(0.5), Imm::Float(2.0)];
    let op = ops::DmaCompute {
        dst: st(),
        srcs: &srcs,
        scales: &scales,
        reduceOp: AluOpType::add.v(),
    };
    let n = node(klr::lower_DmaCompute(&op, &mut Function::new()));
    assert_eq!(it(&n), Some(32));
    assert_eq!(n.path.prefix, Some("DMACompute"));
    assert_eq!(n.path.build, "InstBuilder::addDmaCopyFma @0xf1e054");
    assert!(n.stamps.is_empty(), "none of +0xF8 / +0x90 / +0x128");
    let b: Vec<Option<&str>> = n.bindings.iter().map(|b| b.operand).collect();
    assert_eq!(b, [Some("srcs"), Some("dst"), Some("scales")]);
}

/// §4: the reduce op is pinned to add; every scale must be a float.
#[test]
fn dma_compute_errors() {
    let srcs = [st()];
    let scales = [Imm::Float(1.0)];
    let op = ops::DmaCompute {
        dst: st(),
        srcs: &srcs,
        scales: &scales,
        reduceOp: 0,
    };
    let e = error(klr::lower_DmaCompute(&op, &mut Function::new()));
    assert_eq!(
        message(&e),
        "dma_compute currently only supports nl.add as its reduce op!"
    );
    let scales = [Imm::Float(1.0), Imm::Int(2)];
    let op = ops::DmaCompute {
        dst: st(),
        srcs: &srcs,
        scales: &scales,
        reduceOp: AluOpType::add.v(),
    };
    let e = error(klr::lower_DmaCompute(&op, &mut Function::new()));
    assert_eq!(message(&e), "scale values for dma_compute must be floats");
}

// ---- §5 DmaTranspose --------------------------------------------------------------------

fn xpose<'a>(dst: Ap<'a>, src: Ap<'a>, dge_mode: i64, oob: i64) -> ops::DmaTranspose<'a> {
    ops::DmaTranspose {
        dst,
        src,
        dgeMode: dge_mode,
        oobMode: oob,
    }
}

/// §5: the four tail writes — +0x128 = 1 (Transpose), +0x158 = 0x0B (XZYW), +0xF8 =
/// translateDGEMode, +0x90 = 1 (Pool) — and +0x130 = oobMode != 1.
#[test]
fn dma_transpose_static() {
    let n = node(klr::lower_DmaTranspose(
        &xpose(Ap::new(S4), Ap::new(S4), 1, 1),
        &mut Function::new(),
    ));
    assert_eq!(it(&n), Some(32));
    assert_eq!(n.path.prefix, Some("DMATranspose-"));
    assert_eq!(n.path.build, "InstBuilder::addInstruction<InstDMACopy>");
    assert_eq!(offsets(&n), [0x128, 0x158, 0xF8, 0x90, 0x150, 0x130]);
    assert_eq!(stamp(&n, 0x128).0, "CopyMode");
    assert_eq!(enum_raw(stamp(&n, 0x128).1), 1);
    assert_eq!(enum_raw(stamp(&n, 0x158).1), 0x0B);
    assert_eq!(enum_raw(stamp(&n, 0x90).1), EngineType::Pool.v());
    assert_eq!(stamp(&n, 0x130).1, Value::Bool(false));
    // The DGEType passes through; HWDGE is forbidden downstream, not here.
    let n = node(klr::lower_DmaTranspose(
        &xpose(Ap::new(S4), Ap::new(S4), 2, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.enum_stamp("DGEType"), Some(DGEType::HWDGE.v()));
}

/// §5: a dynamic src takes insertElement<InstDMACopy> with the same markers.
#[test]
fn dma_transpose_dynamic() {
    let n = node(klr::lower_DmaTranspose(
        &xpose(Ap::new(S4), Ap::new(S4).scalar(), 1, 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path.name, "dynamic");
    assert_eq!(n.path.build, "insertElement<InstDMACopy>");
    assert_eq!(n.path.prefix, Some("DMATranspose-"));
    assert_eq!(enum_raw(stamp(&n, 0x158).1), 11);
    let e = error(klr::lower_DmaTranspose(
        &xpose(Ap::new(S4), Ap::new(S4).vector().indirect_dim(3), 1, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "When using vector offset, the only supported indirectDim is 0"
    );
}

/// §5: the rank-4 gate, spelled as the binary spells it.
#[test]
fn dma_transpose_rank_gate() {
    let s3: &[i64] = &[4, 8, 16];
    for (d, s) in [(Ap::new(s3), Ap::new(S4)), (Ap::new(S4), Ap::new(s3))] {
        let e = error(klr::lower_DmaTranspose(
            &xpose(d, s, 1, 0),
            &mut Function::new(),
        ));
        assert_eq!(
            message(&e),
            "DMA Tranpose must have 4-D access pattern. Explicitly writing AP is required if slicing is not generating correct pattern"
        );
    }
    // The rank is the AP's, which may differ from the shape's length.
    let n = klr::lower_DmaTranspose(
        &xpose(Ap::new(s3).rank(4), Ap::new(S4), 1, 0),
        &mut Function::new(),
    );
    assert!(n.node().is_some());
}

// ---- §8 TensorLoad / TensorStore ----------------------------------------------------------

/// §8: IT 75 / 76, "TensorLoad-" / "TensorStore-", +0x90 = 7 (ALL), the RegisterAccess
/// chain head at +0x192 (input) / +0x160 (output), addArgument / addOutput; the register is
/// declared once per function.
#[test]
fn tensor_load_store() {
    let mut fx = Function::new();
    let load = ops::TensorLoad {
        regName: "r0",
        srcRef: st(),
    };
    let n = node(klr::lower_TensorLoad(&load, &mut fx));
    assert_eq!(it(&n), Some(75));
    assert_eq!(n.path.prefix, Some("TensorLoad-"));
    assert_eq!(offsets(&n), [0x90, 0x192]);
    assert_eq!(enum_raw(stamp(&n, 0x90).1), EngineType::ALL.v());
    assert_eq!(n.bindings.iter().next().unwrap().role, "argument");
    assert!(
        n.effects
            .iter()
            .any(|e| e.text.starts_with("codegenRegister"))
    );
    let store = ops::TensorStore {
        regName: "r0",
        dstRef: st(),
    };
    let n = node(klr::lower_TensorStore(&store, &mut fx));
    assert_eq!(it(&n), Some(76));
    assert_eq!(n.path.prefix, Some("TensorStore-"));
    assert_eq!(offsets(&n), [0x90, 0x160]);
    assert_eq!(n.bindings.iter().next().unwrap().role, "output");
    assert!(
        !n.effects
            .iter()
            .any(|e| e.text.starts_with("codegenRegister")),
        "r0 already exists"
    );
    let other = ops::TensorStore {
        regName: "r1",
        dstRef: st(),
    };
    let n = node(klr::lower_TensorStore(&other, &mut fx));
    assert!(
        n.effects
            .iter()
            .any(|e| e.text.starts_with("codegenRegister"))
    );
}

// ---- §9 gather / select -----------------------------------------------------------------

/// §9.1: IT 26, "LocalGather-", arg0 data / arg1 index / out0 out, +0xF0 = num_valid_indices;
/// the geometry assert has no message and is listed as not evaluated.
#[test]
fn local_gather() {
    let op = ops::NcLocalGather {
        out: st(),
        data: st(),
        index: st(),
        num_valid_indices: Imm::Int(16),
    };
    let n = node(klr::lower_NcLocalGather(&op, &mut Function::new()));
    assert_eq!(it(&n), Some(26));
    assert_eq!(n.path.prefix, Some("LocalGather-"));
    assert_eq!(n.path.build, "insertElement<InstIndirectCopy> @0xf2abda");
    assert_eq!(
        stamp(&n, 0xF0),
        ("num_valid_indices", Value::Imm(Imm::Int(16)))
    );
    let b: Vec<(&str, Option<&str>)> = n.bindings.iter().map(|b| (b.role, b.operand)).collect();
    assert_eq!(
        b,
        [
            ("argument", Some("data")),
            ("argument", Some("index")),
            ("output", Some("out"))
        ]
    );
    assert_eq!(n.unevaluated.len(), 1);
    let bad = ops::NcLocalGather {
        num_valid_indices: Imm::Float(16.0),
        ..op
    };
    let e = error(klr::lower_NcLocalGather(&bad, &mut Function::new()));
    assert_eq!(e.kind, ErrorKind::Assert);
    assert_eq!(
        message(&e),
        "num_valid_indices for local gather must be an integer"
    );
}

/// §9.2: IT 92, "Gather-", data and index as arguments, out as output.
#[test]
fn n_gather() {
    let op = ops::NcNGather {
        out: st(),
        data: st(),
        index: st(),
    };
    let n = node(klr::lower_NcNGather(&op, &mut Function::new()));
    assert_eq!(it(&n), Some(92));
    assert_eq!(n.path.prefix, Some("Gather-"));
    assert!(n.stamps.is_empty());
    assert_eq!(n.bindings.len(), 3);
}

/// §9.3: addRangeSelectReduce, IT 63, mode at +0xF0; the builder names the node.
#[test]
fn range_select() {
    let op = ops::NcRangeSelect {
        r#in: st(),
        rangeT: st(),
        cmp0: 0,
        cmp1: 0,
        redOp: 0,
        bound0: Imm::Float(0.0),
        bound1: Imm::Other,
        fill: None,
        mode: 3,
    };
    let n = node(klr::lower_NcRangeSelect(&op, &mut Function::new()));
    assert_eq!(it(&n), Some(63));
    assert_eq!(n.path.prefix, None);
    assert_eq!(n.path.build, "InstBuilder::addRangeSelectReduce @0xf1c633");
    assert_eq!(stamp(&n, 0xF0), ("mode", Value::Int(3)));
}

/// §9.4: SelectReduce is CopyPredicated (52), not RangeSelect (63).
#[test]
fn select_reduce() {
    let op = ops::SelectReduce {
        dst: st(),
        onTrue: st(),
        predicate: st(),
    };
    let n = node(klr::lower_SelectReduce(&op, &mut Function::new()));
    assert_eq!(it(&n), Some(52));
    assert_eq!(n.path.class, "bir::InstCopyPredicated");
    assert_eq!(n.path.prefix, Some("SelectReduce-"));
    let b: Vec<(&str, Option<&str>)> = n.bindings.iter().map(|b| (b.role, b.operand)).collect();
    assert_eq!(
        b,
        [
            ("output", Some("dst")),
            ("argument", Some("onTrue")),
            ("argument", Some("predicate")),
            ("operand", Some("4th operand")),
            ("output", Some("reduce-into"))
        ]
    );
}

// ---- §10 BN / shuffle -------------------------------------------------------------------

/// §10.1: the same control flow, two builders: addBNStats (34) / addBNAggr (35).
#[test]
fn batch_norm() {
    let n = node(klr::lower_BatchNormStats(
        &ops::BatchNormStats {
            dst: st(),
            src: st(),
            dtype: None,
        },
        &mut Function::new(),
    ));
    assert_eq!(it(&n), Some(34));
    assert_eq!(n.path.build, "InstBuilder::addBNStats @0xf1af6f");
    assert_eq!(stamp(&n, 0xF0).0, "apply_transpose");
    let n = node(klr::lower_BatchNormAggregate(
        &ops::BatchNormAggregate {
            dst: st(),
            src: st(),
            dtype: Some(16),
        },
        &mut Function::new(),
    ));
    assert_eq!(it(&n), Some(35));
    assert_eq!(n.path.build, "InstBuilder::addBNAggr @0xf1b26f");
    assert!(n.stamps.is_empty());
}

/// §10.2: IT 39, "StreamShuffle-", the mask re-emitted at +240; every entry an immediate.
#[test]
fn shuffle() {
    let mask: Vec<Imm> = (0..32).map(|i| Imm::Int(i ^ 1)).collect();
    let op = ops::Shuffle {
        dst: st(),
        src: st(),
        shuffleMask: &mask,
    };
    let n = node(klr::lower_Shuffle(&op, &mut Function::new()));
    assert_eq!(it(&n), Some(39));
    assert_eq!(n.path.prefix, Some("StreamShuffle-"));
    assert_eq!(stamp(&n, 240), ("shuffle map", Value::Imms(&mask)));
    let mut bad = mask.clone();
    bad[7] = Imm::Other;
    let op = ops::Shuffle {
        shuffleMask: &bad,
        ..op
    };
    let e = error(klr::lower_Shuffle(&op, &mut Function::new()));
    assert_eq!(
        message(&e),
        "shuffle index must hold the IMMEDIATE alternative"
    );
}

// ---- §6 Transpose -------------------------------------------------------------------------

fn transpose<'a>(dst: Ap<'a>, src: Ap<'a>, engine: i64) -> ops::Transpose<'a> {
    ops::Transpose { dst, src, engine }
}

/// §6: a PE-tagged Transpose is rejected.
#[test]
fn transpose_pe_guard() {
    let e = error(klr::lower_Transpose(
        &transpose(st().dtype(16), st().dtype(16), KlrEngine::pe.v()),
        &mut Function::new(),
    ));
    assert_eq!(
        message(&e),
        "TransposeOp should only happen on DVE. The PE variant should have been legalized by the FE!"
    );
}

/// §6 path A: an fp32 destination → InstStreamTranspose (40), "StreamTranspose-".
#[test]
fn transpose_stream() {
    let n = node(klr::lower_Transpose(
        &transpose(st().dtype(16).step0(1), st().dtype(16).step0(32), 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path.name, "stream");
    assert_eq!(it(&n), Some(40));
    assert_eq!(n.path.prefix, Some("StreamTranspose-"));
    assert!(n.stamp(0x1B8).is_none() && n.stamp(0x128).is_none() && n.stamp(0x158).is_none());
    assert!(n.unevaluated.is_empty());
}

/// §6: _validateLegalStreamTranspose: AP[0].step > 32 throws; without steps it is open.
#[test]
fn transpose_stream_too_large() {
    let e = error(klr::lower_Transpose(
        &transpose(st().dtype(16).step0(1), st().dtype(16).step0(33), 0),
        &mut Function::new(),
    ));
    assert_eq!(message(&e), "Operand must be no larger than (32, 32) ...");
    assert_eq!(e.helper, Some("_validateLegalStreamTranspose @0xf29554"));
    let n = node(klr::lower_Transpose(
        &transpose(st().dtype(16), st().dtype(16), 0),
        &mut Function::new(),
    ));
    assert_eq!(n.unevaluated.len(), 1);
}

/// §6 path B + §6.1: a non-fp32 destination → addMatmult against the memoised identity;
/// +0x1B8 = 1, +0x1D8 = 0; the identity (and its warning) only once per dtype and function.
#[test]
fn transpose_matmult_and_identity_memo() {
    let mut fx = Function::new();
    let op = transpose(st().dtype(6), st().dtype(6), 0);
    let n = node(klr::lower_Transpose(&op, &mut fx));
    assert_eq!(n.path.name, "matmult");
    assert_eq!(n.path.class, "bir::InstMatmult");
    assert_eq!(n.path.it, None, "the page gives InstMatmult no IT");
    assert_eq!(n.path.prefix, Some("matmult_TP_"));
    assert_eq!(stamp(&n, 0x1B8), ("isTranspose", Value::Int(1)));
    assert_eq!(stamp(&n, 0x1D8).1, Value::Int(0));
    let warnings: Vec<&str> = n
        .effects
        .iter()
        .filter(|e| e.kind == "warning")
        .map(|e| e.text)
        .collect();
    assert_eq!(
        warnings,
        [
            "Emitting dynamic Identity matrix generation code, this might affect performance.",
            "You can bypass this by pass in an explicit identity matrix and use nc_matmul for transpose"
        ]
    );
    assert_eq!(n.effects.iter().filter(|e| e.kind == "node").count(), 3);
    let again = node(klr::lower_Transpose(&op, &mut fx));
    assert_eq!(again.effects.iter().filter(|e| e.kind != "note").count(), 0);
    let other = node(klr::lower_Transpose(
        &transpose(st().dtype(7), st().dtype(7), 0),
        &mut fx,
    ));
    assert_eq!(
        other.effects.iter().filter(|e| e.kind == "warning").count(),
        2
    );
}

/// §6: without the destination dtype the fork cannot be decided.
#[test]
fn transpose_needs_dtype() {
    match klr::lower_Transpose(&transpose(st(), st(), 0), &mut Function::new()) {
        Outcome::Undetermined(u) => assert_eq!(u.condition, "dtype(dst) == BirDtype.fp32"),
        other => panic!("{other:?}"),
    }
}

// ---- metadata ---------------------------------------------------------------------------

/// §1: the roster's fifteen rows, their VAs and ITs, in the page's order.
#[test]
fn roster_metadata() {
    let rows: Vec<(&str, u64)> = klr::LEAVES.iter().map(|l| (l.name, l.va)).collect();
    assert_eq!(
        rows,
        [
            ("NcCopy", 0xf2d120),
            ("NcDmaCopy", 0xf2fa40),
            ("DmaCompute", 0xf1d9e0),
            ("DmaTranspose", 0xf2dd10),
            ("GenericIndirectSave", 0xf2eb10),
            ("TensorLoad", 0xf26a60),
            ("TensorStore", 0xf266c0),
            ("NcLocalGather", 0xf2a9c0),
            ("NcNGather", 0xf2a590),
            ("NcRangeSelect", 0xf1c210),
            ("SelectReduce", 0xf270a0),
            ("BatchNormStats", 0xf1add0),
            ("BatchNormAggregate", 0xf1b0d0),
            ("Shuffle", 0xf28130),
            ("Transpose", 0xf28fb0),
        ]
    );
    let gis = klr::leaf("GenericIndirectSave").unwrap();
    assert_eq!(
        gis.op, "NcDmaCopy",
        "§7: it takes the same klr::NcDmaCopy node"
    );
    let f: Vec<(&str, Option<u32>)> = klr::leaf("NcDmaCopy")
        .unwrap()
        .fields
        .iter()
        .map(|f| (f.name, f.offset))
        .collect();
    assert_eq!(
        f,
        [
            ("dst", Some(0)),
            ("src", Some(16)),
            ("compute_op", Some(32)),
            ("oobMode", Some(40)),
            ("dgeMode", Some(56)),
            ("uniqueIndices", Some(60)),
            ("engine", Some(64)),
        ]
    );
}

/// The klr enums are typed like every spec enum (spec/klr/enums.toml `bir::DGEType`:
/// None 0, SWDGE 1, HWDGE 2, Unassigned 3); a value no source names is kept, with no name.
#[test]
fn klr_enums_are_typed_enums() {
    assert_eq!(DGEType::from_raw(2), DGEType::HWDGE);
    assert_eq!(DGEType::HWDGE.raw(), 2);
    assert_eq!(DGEType::from_raw(3).name(), Some("Unassigned"));
    assert_eq!(DGEType::from_raw(7), DGEType(7));
    assert_eq!(DGEType(7).name(), None);
    let e = &DGEType::ENUMERATORS[1];
    assert_eq!(
        (e.name, e.value, e.c_name),
        ("SWDGE", 1, "bir::DGEType::SWDGE")
    );
    // The stamp of NcDmaCopy at +0xF8 names its enumerator (§3.2: dgeMode 2 → HWDGE).
    let n = node(klr::lower_NcDmaCopy(
        &dma(st(), st(), DgeComputeOp::none.v(), 2, false, 0),
        &mut Function::new(),
    ));
    assert_eq!(
        stamp(&n, 0xF8).1,
        Value::Enum {
            ty: "DGEType",
            name: Some("HWDGE"),
            raw: 2
        }
    );
    assert_eq!(
        klr::enum_value(klr::enums::ALL, "DgeComputeOp", "add"),
        Some(2)
    );
}

/// Leaves, their input fields and their paths carry their confidence and evidence
/// (spec/klr/leaves/01_copy.toml `NcCopy`, spec/klr/klr_nodes.toml `klr::NcCopy.engine`).
#[test]
fn klr_metadata_carries_provenance() {
    let leaf = klr::leaf("NcCopy").unwrap();
    assert_eq!(leaf.confidence.tag, "BYTE-ANCHORED");
    assert_eq!(leaf.evidence[0].cite, "seed-003 §2");
    assert_eq!(leaf.evidence[0].names, Some("codegenNcCopy @0xf2d120"));
    let engine = leaf.fields.iter().find(|f| f.name == "engine").unwrap();
    assert_eq!(engine.confidence.tag, "READ-DIRECTLY");
    assert_eq!(
        engine.evidence[0].pin,
        Some("codegenEngine(NcCopy.engine) @0xf2d5d5")
    );
    let static_path = &leaf.paths[0];
    assert_eq!(static_path.name, "static");
    assert_eq!(
        static_path.evidence[0].pin,
        Some("0xf2d7d0 call …addTensorCopyCustom")
    );
    // The node a leaf builds carries its path's provenance.
    let n = node(klr::lower_NcCopy(
        &copy(st(), st(), 0),
        &mut Function::new(),
    ));
    assert_eq!(n.path, *static_path);
}

/// The generated klr module turns off no lint but the naming ones (spec names verbatim):
/// its enums have no enumerator limited to an architecture, so no `in_arch` needs to
/// allow `unreachable_patterns`.
#[test]
fn generated_klr_module_allows_only_naming_lints() {
    let text = std::fs::read_to_string("generated/rust/dmaspec.rs").unwrap();
    let start = text.find("\npub mod klr {").expect("the klr module");
    let end = start + 1 + text[start + 1..].find("\n}\n").expect("its end");
    let module = &text[start..end];
    let mut allowed: Vec<&str> = Vec::new();
    for (i, _) in module.match_indices("allow(") {
        let rest = &module[i + "allow(".len()..];
        let list = &rest[..rest.find(')').unwrap()];
        allowed.extend(list.split(',').map(str::trim));
    }
    allowed.sort_unstable();
    allowed.dedup();
    assert_eq!(allowed, ["non_snake_case", "non_upper_case_globals"]);
}
