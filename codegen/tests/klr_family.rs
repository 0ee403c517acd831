//! Seed 003's abstract as data: the leaf band, the dispatch chain and the page's own count
//! mismatch (it says fourteen leaves; its §1 roster has fifteen), and the Transpose leaf's
//! `call getIdentityMatrix @0xf29098` anchor.

use std::fs;

use dmaspec_testkit::{model, root};

#[test]
fn the_family_record_keeps_the_pages_own_mismatches() {
    let m = model();
    let f = m
        .klr
        .family
        .as_ref()
        .expect("spec/klr/reference.toml [klr.family]");
    // Seed 003 abstract table: "14 `codegen<Op>` bodies in the `0xf1d9e0`–`0xf30d40` band".
    assert_eq!(f.band, (0xf1d9e0, 0xf30d40));
    assert_eq!((f.stated_leaves, f.roster_leaves), (14, 15));
    // §1 roster: NcRangeSelect @0xf1c210, BatchNormStats @0xf1add0, BatchNormAggregate
    // @0xf1b0d0 lie below the band's start.
    let mut outside = f.outside.clone();
    outside.sort();
    assert_eq!(
        outside,
        ["BatchNormAggregate", "BatchNormStats", "NcRangeSelect"]
    );
    assert_eq!(f.dispatch.first().map(String::as_str), Some("codegenStmt"));
    assert_eq!(f.dispatch.len(), 5);
    let page = fs::read_to_string(root().join("generated/docs/klr/README.md")).unwrap();
    assert!(
        page.contains("- **Leaves:** the source says 14, its roster has 15 (so does this spec).")
    );
    assert!(page.contains("NcRangeSelect @`0xf1c210`"));
}

#[test]
fn transpose_cites_the_get_identity_matrix_call() {
    let m = model();
    let t = m.klr.leaves.iter().find(|l| l.name == "Transpose").unwrap();
    let json = serde_json::to_string(t).unwrap();
    assert!(
        json.contains("call getIdentityMatrix @0xf29098"),
        "seed-003 §13 anchor"
    );
}
