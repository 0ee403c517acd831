//! Issue 13 §2: facts the sources do not observe are tagged as inferences, each with the
//! evidence that makes it one.

use dmaspec_testkit::model;

#[test]
fn bound_register_and_flags_copies_are_inferred() {
    let m = model();
    let l = &m.lowerings[0];
    // (dge_op, target field): the copies seed-004 §11 leaves undecoded.
    let copies = [
        (0, "src_bound_reg"),
        (0, "dst_bound_reg"),
        (1, "src_idx_bound_reg"),
        (1, "dst_idx_bound_reg"),
        (1, "flags"),
        (2, "src_bound_reg"),
        (2, "dst_bound_reg"),
    ];
    for (kind, to) in copies {
        let k = l.kinds.iter().find(|k| k.value == kind).expect("kind");
        let mp = k.mappings.iter().find(|mp| mp.to.path == to).expect(to);
        assert!(mp.inferred, "dge_op {kind} {to}: {}", mp.confidence.tag);
        assert_eq!(mp.confidence.tag, "MED/INFERRED", "dge_op {kind} {to}");
        assert!(
            mp.evidence.iter().any(|e| e.cite == "seed-004 §11"),
            "dge_op {kind} {to} cites the ledger"
        );
    }
}

#[test]
fn klr_reference_rows_are_as_sure_as_their_weakest_writer() {
    let m = model();
    for off in [0x90, 0xF0, 0x1D8] {
        let row = m.klr.offsets.iter().find(|r| r.offset == off).expect("row");
        assert_eq!(row.confidence.tag, "[INFERRED]", "+{off:#x}");
        assert!(
            row.evidence
                .iter()
                .any(|e| e.confidence.tag == "[INFERRED]"),
            "+{off:#x} names its inferred half"
        );
    }
    // The anchored rows keep their tag.
    let oob = m
        .klr
        .offsets
        .iter()
        .find(|r| r.offset == 0x130)
        .expect("row");
    assert_eq!(oob.confidence.tag, "BYTE-ANCHORED");
}

#[test]
fn byte_counts_match_is_at_most_med_and_records_the_sum() {
    let m = model();
    let rule = (m.rules.sets.iter())
        .flat_map(|s| &s.rules)
        .find(|r| r.name == "byte_counts_match")
        .expect("rule");
    assert_eq!(rule.confidence.tag, "MED/INFERRED");
    assert!(
        rule.doc
            .contains("Σ src_num·src_elem == Σ dst_num·dst_elem")
    );
}

#[test]
fn the_seed003_scale_says_its_labels_are_coined() {
    let m = model();
    let s = m
        .scales
        .iter()
        .find(|s| s.name == "seed003")
        .expect("scale");
    assert!(s.doc.contains("coined from the page's prose"), "{}", s.doc);
}

#[test]
fn the_direct2d_entry_points_cite_their_qos_sources() {
    // seed 000 §DMA DIRECT2D, the entry-point table: Load/Save read *(I+0x150), DMACopy
    // *(I+0x1D8).
    let m = model();
    let layout = |n: &str| m.klr.layouts.iter().find(|l| l.name == n).expect(n);
    for (class, entry) in [("InstLoad", "@0x127a620"), ("InstSave", "@0x127a640")] {
        let f = layout(class)
            .fields
            .iter()
            .find(|f| f.offset == Some(0x150))
            .expect(class);
        assert!(
            f.evidence
                .iter()
                .any(|e| e.names.as_deref().is_some_and(|s| s.contains(entry)))
        );
    }
    let qos = layout("InstDMACopy")
        .fields
        .iter()
        .find(|f| f.offset == Some(0x1D8))
        .expect("qos");
    assert_eq!(qos.confidence.tag, "[INFERRED]");
    assert!(
        qos.evidence
            .iter()
            .any(|e| e.cite == "seed-000 §DMA DIRECT2D")
    );
}
