//! The `.ksy` files rendered from the real spec (`spec/`); that they compile and decode as
//! dmaspec does is tests/kaitai/'s job (the compiler and the Python runtime).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use crate::output::STAMP;

fn files() -> &'static (usize, Vec<(String, String)>) {
    static FILES: OnceLock<(usize, Vec<(String, String)>)> = OnceLock::new();
    FILES.get_or_init(|| {
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let model = crate::load::load_dir(&spec).unwrap_or_else(|e| panic!("{}", e.render()));
        (model.types.len(), super::render(&model))
    })
}

fn file(name: &str) -> &'static str {
    let path = format!("kaitai/{name}.ksy");
    let found = files().1.iter().find(|(p, _)| *p == path);
    &found.unwrap_or_else(|| panic!("no {path}")).1
}

#[test]
fn every_type_has_one_stamped_file() {
    let (types, files) = files();
    let paths: BTreeSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    // One per type and the stream's, which no type's path takes.
    assert_eq!(paths.len(), types + 1);
    assert_eq!(files.len(), types + 1);
    for (path, text) in files {
        assert!(text.starts_with(&format!("# {STAMP} from ")), "{path}");
    }
}

/// seed-004 §6.3: `REG_NUM bc_reg : 6`, then the OOB-notification and enable bits.
#[test]
fn a_bitfield_is_bit_sized_integers_lowest_first() {
    let text = file("bound_check_reg");
    assert!(text.contains("  bit-endian: le\n"));
    let types: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("type: "))
        .collect();
    assert_eq!(types, ["b6", "b1", "b1"]);
}

/// supp-gather-scatter §1.2: ADDR_REG is marker 0x80 / 0xC0 (bit 7), ADDR_TBL 0x20 / 0x28 /
/// 0x60 / 0x68 (bit 5 set, bit 7 clear); anything else is the immediate (supp-field-tables
/// §5 Table 5a).
#[test]
fn a_union_picks_its_arm_by_the_selector_tests_in_order() {
    let text = file("addr8");
    assert!(text.contains(
        "    value: \"(selector & 128) == 128 ? 0 : ((selector & 160) == 32 ? 1 : 2)\"\n"
    ));
    for (i, arm) in ["addr_reg", "addr_tbl_offs", "addr_immediate"]
        .iter()
        .enumerate()
    {
        assert!(text.contains(&format!("        variant::{arm}: arm_{arm}\n")));
        assert!(text.contains(&format!("    {i}:\n      id: {arm}\n")));
    }
}
