//! The loader's checks on `[[addrmap]]`: each bad entry is reported at the value at fault
//! (file, line, column) with what to do — an unknown register file or slot, parts or
//! instances that overlap, a count that does not fit — and how `diff` rates a change of
//! the map.

use dmaspec_testkit::spec::Fixture;

/// Two architectures and two register files (`A` 0x100 bytes on both, `B` only on a1).
const SPEC: Fixture = Fixture::new(
    r#"[[arch]]
name = "a1"
nc = 1
doc = "First."

[[arch]]
name = "a2"
nc = 2
doc = "Second."

[[regfile]]
name = "A"
doc = "A file."
size = 0x100
bus_width = 32
confidence = "HIGH"
evidence = [{ source = "src", names = "A" }]

[[regfile.bundle]]
name = "X"
offset = 0x0
size = 0x4

[[regfile.bundle.register]]
name = "r"
offset = 0x0
access = "RW"
evidence = [{ source = "src", names = "r" }]

[[regfile]]
name = "B"
doc = "Another file."
size = 0x200
bus_width = 32
arch = ["a1"]
confidence = "HIGH"
evidence = [{ source = "src", names = "B" }]

[[regfile.bundle]]
name = "Y"
offset = 0x0
size = 0x4

[[regfile.bundle.register]]
name = "s"
offset = 0x0
access = "RW"
evidence = [{ source = "src", names = "s" }]
"#,
);

/// A slot of A at +0 and B at +0x100 and a reserved range, four instances 0x1000 apart
/// and a single one above them.
const VALID: &str = r#"[[addrmap]]
arch = "a1"
doc = "The map."
confidence = "HIGH"
evidence = [{ source = "src", names = "the map" }]

[[addrmap.slot]]
name = "CH"
doc = "A channel."
size = 0x800
part = [
  { name = "A_PART", regfile = "A", offset = 0x0 },
  { name = "B_PART", regfile = "B", offset = 0x100 },
  { name = "RSVD", offset = 0x400, size = 0x100 },
]

[[addrmap.window]]
name = "CH_{n}"
slot = "CH"
base = 0x10000
count = 4
stride = 0x1000
evidence = [{ source = "src", names = "the channels" }]

[[addrmap.window]]
name = "HOST"
slot = "CH"
base = 0x20000
count = 1
evidence = [{ source = "src", names = "the host one" }]
"#;

fn edited(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from:?} in VALID");
    VALID.replacen(from, to, 1)
}

#[test]
fn a_valid_map_places_every_instance() {
    let m = SPEC.load(VALID).expect("valid");
    let map = &m.addrmaps[0];
    let slot = &map.slots[0];
    // B's part takes B's 0x200-byte window.
    let sizes: Vec<(u64, u64)> = slot.parts.iter().map(|p| (p.offset, p.size)).collect();
    assert_eq!(sizes, [(0x0, 0x100), (0x100, 0x200), (0x400, 0x100)]);
    let placed: Vec<(String, u64)> = (map.instances().into_iter())
        .map(|i| (i.name, i.base))
        .collect();
    let expected = [
        ("CH_0", 0x10000),
        ("CH_1", 0x11000),
        ("CH_2", 0x12000),
        ("CH_3", 0x13000),
        ("HOST", 0x20000),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(n, b)| (n.to_string(), *b)).collect();
    assert_eq!(placed, expected);
    // The windows take the map's tag.
    assert_eq!(map.windows[1].confidence.tag, "HIGH");
}

#[test]
fn a_part_names_a_register_file_of_the_maps_architecture() {
    SPEC.only(
        &edited("regfile = \"A\"", "regfile = \"AA\""),
        "A_PART",
        "\"AA\"",
        "unknown register file `AA`; did you mean `A`?",
    );
    SPEC.only(
        &edited("arch = \"a1\"", "arch = \"a2\""),
        "B_PART",
        "\"B\"",
        "register file `B` does not exist on a2 (it is on a1)",
    );
}

#[test]
fn parts_lie_inside_their_slot_without_overlap() {
    SPEC.only(
        &edited("offset = 0x400", "offset = 0x200"),
        "RSVD",
        "0x200",
        "part `RSVD` (0x200..0x300) overlaps `B_PART` (0x100..0x300) in slot `CH`",
    );
    SPEC.only(
        &edited("offset = 0x400", "offset = 0x780"),
        "RSVD",
        "0x780",
        "part `RSVD` (0x780, 0x100 bytes) does not fit slot `CH` (0x800 bytes)",
    );
    SPEC.only(
        &edited(", size = 0x100 }", " }"),
        "",
        "\"RSVD\"",
        "part `RSVD` of slot `CH` has neither `regfile` nor `size`",
    );
}

#[test]
fn windows_name_a_slot_and_fit() {
    SPEC.only(
        &edited("slot = \"CH\"", "slot = \"CX\""),
        "CH_{n}",
        "\"CX\"",
        "window `CH_{n}` places unknown slot `CX`; did you mean `CH`?",
    );
    SPEC.only(
        &edited("stride = 0x1000", "stride = 0x400"),
        "CH_{n}",
        "0x400",
        "window `CH_{n}`: stride 0x400 is less than slot `CH`'s 0x800 bytes, so its \
         instances overlap",
    );
    SPEC.only(
        &edited("base = 0x20000", "base = 0x3FFFFFFFFFFFFFF"),
        "HOST",
        "0x3FFFFFFFFFFFFFF",
        "window `HOST`: 1 instances of 0x800 bytes, 0x800 apart from 0x3ffffffffffffff, do \
         not fit the 58-bit address space",
    );
    SPEC.only(
        &edited("count = 4", "count = 0"),
        "count = ",
        "0",
        "window `CH_{n}`: `count` must be 1..=4096, not 0",
    );
    SPEC.only(
        &edited("name = \"CH_{n}\"", "name = \"CH\""),
        "[[addrmap.window]]",
        "\"CH\"",
        "window `CH` has 4 instances but one name: put `{n}` (the channel number) in it",
    );
}

#[test]
fn instances_of_two_windows_do_not_overlap() {
    let bad = edited("base = 0x20000", "base = 0x12400");
    SPEC.only(
        &bad,
        "name = ",
        "\"HOST\"",
        "instance `HOST` (0x12400..0x12c00) overlaps `CH_2` (0x12000..0x12800)",
    );
    // The note points at the window of the instance it overlaps.
    let (line, column) = dmaspec_testkit::spec::position(&bad, "", "\"CH_{n}\"");
    let note = SPEC.errors(&bad)[0].notes.join("\n");
    assert!(note.ends_with(&format!(":{line}:{column}")), "{note}");
}

#[test]
fn an_architecture_has_one_map() {
    let twice = format!(
        "{VALID}\n{}",
        VALID.split("[[addrmap.slot]]").next().unwrap()
    );
    SPEC.duplicate(
        &twice,
        "the map\" }]\n",
        "\"a1\"",
        "duplicate address map of `a1`",
        "",
    );
}

/// `diff`: an instance placed elsewhere or removed breaks code built on its `_BASE`
/// (major); a new one is minor.
#[test]
fn a_moved_or_removed_instance_is_a_major_change() {
    use dmaspec_codegen::diff::{Impact, Kind, diff};
    let old = SPEC.load(VALID).expect("valid");
    let new = SPEC
        .load(&edited("count = 4", "count = 3").replacen("base = 0x20000", "base = 0x30000", 1))
        .expect("valid");
    let d = diff(&old, &new, "old", "new");
    let got: Vec<(Option<&str>, Kind, Impact)> = (d.changes.iter())
        .filter(|c| c.item_kind == "address map")
        .map(|c| (c.member.as_deref(), c.kind, c.c))
        .collect();
    assert_eq!(
        got,
        [
            (Some("HOST"), Kind::Moved, Impact::Major),
            (Some("CH_3"), Kind::Removed, Impact::Major),
        ]
    );
    let back = diff(&new, &old, "new", "old");
    let added = back
        .changes
        .iter()
        .find(|c| c.member.as_deref() == Some("CH_3"));
    assert_eq!(
        added.map(|c| (c.kind, c.rust)),
        Some((Kind::Added, Impact::Minor))
    );
}
