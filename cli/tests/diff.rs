//! `dmaspec diff`: every kind of change between two small specs, each with its Rust and C
//! semver impact; the text and Markdown reports of one multi-change pair (insta
//! snapshots); and the real history (`diff --git d0d02b6 HEAD`).

use std::path::{Path, PathBuf};
use std::process::Command;

use dmaspec_codegen::Model;
use dmaspec_codegen::diff::{self, Change, Diff, Format, Impact, Kind};
use dmaspec_codegen::load::load_files;
use dmaspec_testkit::spec::PROVENANCE;

use Impact::{Major, Minor, Patch};

/// A word `W` (opcode `W1`) holding an enum, a bitfield, a flags type and a nested struct,
/// with one rule; an `OPCODE` with a second, unbound enumerator `W2`.
const BASE: &str = r#"
[[arch]]
name = "a1"
nc = 1
doc = "First."

[[enum]]
name = "OPCODE"
c_name = "OP"
repr = "u8"
doc = "Opcodes."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "W1", value = 0x10 }, { name = "W2", value = 0x20 }]

[[enum]]
name = "MODE"
c_name = "MODE_C"
repr = "u8"
doc = "Modes."
confidence = "HIGH"
evidence = [{ source = "src §2" }]
values = [{ name = "FAST", value = 1 }, { name = "SLOW", value = 2 }]

[[flags]]
name = "FL"
c_name = "FL_C"
repr = "u8"
doc = "Flags."
confidence = "HIGH"
evidence = [{ source = "src §2" }]
bits = [{ name = "A", bit = 0, doc = "A." }, { name = "B", bit = 1, doc = "B." }]

[[bitfield]]
name = "BF"
c_name = "BF_C"
repr = "u8"
doc = "Bits."
confidence = "HIGH"
evidence = [{ source = "src §3" }]
fields = [
  { bits = "0..3", name = "lo", evidence = [{ source = "src §3" }] },
  { bits = "4..7", name = "hi", evidence = [{ source = "src §3" }] },
]

[[struct]]
name = "PAIR"
c_name = "PAIR_C"
size = 4
doc = "Pair."
confidence = "HIGH"
evidence = [{ source = "src §4" }]
field = [
  { off = 0, name = "x", type = "u16", evidence = [{ source = "src §4" }] },
  { off = 2, name = "y", type = "u16", evidence = [{ source = "src §4" }] },
]

[[struct]]
name = "W"
c_name = "W_C"
size = 64
opcode = "W1"
doc = "A word."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "opcode", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, name = "mode", type = "MODE", evidence = [{ source = "src §5" }] },
  { off = 2, name = "bits", type = "BF", evidence = [{ source = "src §5" }] },
  { off = 3, name = "flags", type = "FL", evidence = [{ source = "src §5" }] },
  { off = 4, name = "pair", type = "PAIR", evidence = [{ source = "src §5" }] },
  { off = 8, name = "count", type = "u32", confidence = "HIGH", evidence = [{ source = "src §5" }] },
  { off = 12, size = 52, name = "rest", unknown = true },
]

[[struct.rule]]
name = "count_small"
expr = "count < 100"
message = "count too big"
evidence = [{ source = "src §6" }]
"#;

/// A second word, bound to `W2`.
const WORD2: &str = r#"
[[struct]]
name = "V"
c_name = "V_C"
size = 64
opcode = "W2"
doc = "Another word."
confidence = "HIGH"
evidence = [{ source = "src §8" }]
field = [
  { off = 0, name = "opcode", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, size = 63, name = "rest", unknown = true },
]
"#;

const CONFLICT: &str = r#"
[[conflict]]
name = "mode_width"
doc = "How wide MODE is."
about = ["MODE"]
readings = [
  { name = "one_byte", doc = "One byte.", confidence = "HIGH", evidence = [{ source = "src §2" }] },
  { name = "two_bytes", doc = "Two bytes.", confidence = "LOW", evidence = [{ source = "src §2" }] },
]
"#;

const GAP: &str = r#"
[[gap]]
name = "W2"
reason = "Named by the source, not laid out."
confidence = "HIGH"
evidence = [{ source = "src §7" }]
"#;

fn load(text: &str) -> Model {
    let root = PathBuf::from("virtual-spec");
    let file = (root.join("spec.toml"), format!("{PROVENANCE}{text}"));
    load_files(&root, vec![file]).unwrap_or_else(|e| panic!("{}\n{text}", e.render()))
}

/// `text` with each (from, to) replaced; each `from` must occur.
#[track_caller]
fn edit(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in edits {
        assert!(out.contains(from), "no `{from}` to edit");
        out = out.replace(from, to);
    }
    out
}

fn diff_of(old: &str, new: &str) -> Diff {
    diff::diff(&load(old), &load(new), "old", "new")
}

/// The one change of `kind` on `item`'s `member`, with the impacts asserted.
#[track_caller]
fn only<'d>(
    d: &'d Diff,
    item: &str,
    member: Option<&str>,
    kind: Kind,
    rust: Impact,
    c: Impact,
) -> &'d Change {
    let found: Vec<&Change> = d
        .of(item)
        .filter(|ch| ch.kind == kind && ch.member.as_deref() == member)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{kind:?} of {item} {member:?} in {:#?}",
        d.changes
    );
    let ch = found[0];
    assert_eq!((ch.rust, ch.c), (rust, c), "{ch:#?}");
    ch
}

#[test]
fn the_same_spec_has_no_changes() {
    let d = diff_of(BASE, BASE);
    assert!(d.changes.is_empty(), "{:#?}", d.changes);
    assert_eq!((d.rust, d.c), (None, None));
}

#[test]
fn a_new_word_is_added_with_its_opcode_and_removing_it_is_major() {
    let with = format!("{BASE}{WORD2}");
    let d = diff_of(BASE, &with);
    let added = only(&d, "V", None, Kind::Added, Major, Minor);
    assert_eq!(added.item_kind, "word");
    only(
        &d,
        "OPCODE map",
        Some("0x20"),
        Kind::OpcodeAdded,
        Minor,
        Minor,
    );
    assert_eq!((d.rust, d.c), (Some(Major), Some(Minor)));

    let d = diff_of(&with, BASE);
    only(&d, "V", None, Kind::Removed, Major, Major);
    only(
        &d,
        "OPCODE map",
        Some("0x20"),
        Kind::OpcodeRemoved,
        Major,
        Major,
    );
}

#[test]
fn a_new_nested_type_is_minor() {
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                r#"[[struct]]
name = "PAIR""#,
                r#"[[enum]]
name = "SPARE"
c_name = "SPARE_C"
repr = "u8"
doc = "Spare."
confidence = "HIGH"
evidence = [{ source = "src §2" }]
values = [{ name = "S0", value = 0 }]

[[struct]]
name = "PAIR""#,
            )],
        ),
    );
    only(&d, "SPARE", None, Kind::Added, Minor, Minor);
}

#[test]
fn a_field_that_became_reserved_is_removed_and_added() {
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[
                (
                    r#"name = "count", type = "u32", confidence = "HIGH", evidence = [{ source = "src §5" }]"#,
                    r#"size = 4, name = "pad", unknown = true"#,
                ),
                ("count < 100", "mode != MODE::SLOW"),
            ],
        ),
    );
    only(&d, "W", Some("count"), Kind::Removed, Major, Major);
    only(&d, "W", Some("pad"), Kind::Added, Major, Minor);
}

#[test]
fn a_field_moved_resized_retyped_or_renamed() {
    let moved = edit(
        BASE,
        &[
            (
                r#"{ off = 8, name = "count""#,
                r#"{ off = 8, size = 4, name = "gap8", unknown = true },
  { off = 12, name = "count""#,
            ),
            (
                r#"{ off = 12, size = 52, name = "rest""#,
                r#"{ off = 16, size = 48, name = "rest""#,
            ),
        ],
    );
    let d = diff_of(BASE, &moved);
    let ch = only(&d, "W", Some("count"), Kind::Moved, Major, Major);
    assert_eq!(ch.detail, "offset 8, 4 bytes -> offset 12, 4 bytes");
    only(&d, "W", Some("rest"), Kind::Moved, Major, Major);
    only(&d, "W", Some("rest"), Kind::Resized, Major, Major);

    let resized = edit(
        BASE,
        &[
            (
                r#"name = "count", type = "u32""#,
                r#"name = "count", type = "u16""#,
            ),
            (
                r#"{ off = 12, size = 52, name = "rest""#,
                r#"{ off = 10, size = 54, name = "rest""#,
            ),
        ],
    );
    let d = diff_of(BASE, &resized);
    let ch = only(&d, "W", Some("count"), Kind::Resized, Major, Major);
    assert_eq!(
        ch.detail,
        "offset 8, 4 bytes -> offset 8, 2 bytes (u32 -> u16)"
    );

    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                r#"name = "count", type = "u32""#,
                r#"name = "count", type = "i32""#,
            )],
        ),
    );
    let ch = only(&d, "W", Some("count"), Kind::Retyped, Major, Major);
    assert_eq!(ch.detail, "u32 -> i32");

    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[
                (r#"name = "count""#, r#"name = "total""#),
                ("count < 100", "total < 100"),
            ],
        ),
    );
    let ch = only(&d, "W", Some("total"), Kind::Renamed, Major, Major);
    assert_eq!(ch.detail, "field `count` -> `total` (offset 8, 4 bytes)");
    assert!(
        d.of("W")
            .all(|c| c.kind != Kind::Added && c.kind != Kind::Removed),
        "{:#?}",
        d.changes
    );
}

#[test]
fn a_new_field_breaks_rust_struct_literals_but_not_c() {
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                r#"{ off = 12, size = 52, name = "rest""#,
                r#"{ off = 12, name = "extra", type = "u32", evidence = [{ source = "src §5" }] },
  { off = 16, size = 48, name = "rest""#,
            )],
        ),
    );
    only(&d, "W", Some("extra"), Kind::Added, Major, Minor);
}

#[test]
fn a_renamed_type_whose_old_name_is_an_alias_is_minor() {
    let renamed = edit(
        BASE,
        &[
            (
                r#"name = "PAIR"
c_name = "PAIR_C""#,
                r#"name = "DUO"
c_name = "DUO_C"
aliases = [{ name = "PAIR", source = "src §4" }]"#,
            ),
            (r#"type = "PAIR""#, r#"type = "DUO""#),
        ],
    );
    let d = diff_of(BASE, &renamed);
    only(&d, "DUO", None, Kind::Renamed, Minor, Minor);
    // `pair` holds the same type under its new name: reported once, on the type.
    assert_eq!(d.changes.len(), 1, "{:#?}", d.changes);

    let plain = edit(
        &renamed,
        &[(
            r#"aliases = [{ name = "PAIR", source = "src §4" }]
"#,
            "",
        )],
    );
    let d = diff_of(BASE, &plain);
    only(&d, "DUO", None, Kind::Renamed, Major, Major);
}

#[test]
fn enumerators_added_removed_renumbered_and_renamed() {
    let values = r#"values = [{ name = "FAST", value = 1 }, { name = "SLOW", value = 2 }]"#;
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                values,
                r#"values = [{ name = "FAST", value = 1 }, { name = "SLOW", value = 2 }, { name = "TURBO", value = 3 }]"#,
            )],
        ),
    );
    // A value enum is a newtype with a constant per enumerator: a new one is additive.
    let ch = only(&d, "MODE", Some("TURBO"), Kind::Added, Minor, Minor);
    assert!(
        ch.why.is_some_and(|w| w.contains("associated constant")),
        "{ch:#?}"
    );

    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(values, r#"values = [{ name = "SLOW", value = 2 }]"#)],
        ),
    );
    only(&d, "MODE", Some("FAST"), Kind::Removed, Major, Major);

    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                values,
                r#"values = [{ name = "FAST", value = 1 }, { name = "SLOW", value = 4 }]"#,
            )],
        ),
    );
    let ch = only(&d, "MODE", Some("SLOW"), Kind::Renumbered, Major, Major);
    assert_eq!(ch.detail, "= 0x2 -> = 0x4");

    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                values,
                r#"values = [{ name = "FAST", value = 1 }, { name = "LAZY", value = 2, aliases = [{ name = "SLOW", source = "src §2" }] }]"#,
            )],
        ),
    );
    only(&d, "MODE", Some("LAZY"), Kind::Renamed, Major, Minor);
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                values,
                r#"values = [{ name = "FAST", value = 1 }, { name = "LAZY", value = 2 }]"#,
            )],
        ),
    );
    only(&d, "MODE", Some("LAZY"), Kind::Renamed, Major, Major);
}

#[test]
fn a_new_flag_bit_is_minor() {
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[(
                r#"{ name = "B", bit = 1, doc = "B." }"#,
                r#"{ name = "B", bit = 1, doc = "B." }, { name = "C", bit = 2, doc = "C." }"#,
            )],
        ),
    );
    only(&d, "FL", Some("C"), Kind::Added, Minor, Minor);
}

#[test]
fn bitfield_sub_fields_moved_and_resized() {
    let d = diff_of(
        BASE,
        &edit(
            BASE,
            &[
                (
                    r#"bits = "0..3", name = "lo""#,
                    r#"bits = "0..2", name = "lo""#,
                ),
                (
                    r#"bits = "4..7", name = "hi""#,
                    r#"bits = "3..7", name = "hi""#,
                ),
            ],
        ),
    );
    let ch = only(&d, "BF", Some("lo"), Kind::Resized, Major, Major);
    assert_eq!(ch.detail, "bits 0..3 -> bits 0..2 (u4 -> u3)");
    only(&d, "BF", Some("hi"), Kind::Moved, Major, Major);
    only(&d, "BF", Some("hi"), Kind::Resized, Major, Major);
}

#[test]
fn confidence_changes_are_patch_and_name_the_gates_they_cross() {
    let low = edit(
        BASE,
        &[(
            r#"name = "count", type = "u32", confidence = "HIGH""#,
            r#"name = "count", type = "u32", confidence = "LOW""#,
        )],
    );
    let d = diff_of(BASE, &low);
    let ch = only(
        &d,
        "W",
        Some("count"),
        Kind::ConfidenceLowered,
        Patch,
        Patch,
    );
    assert_eq!(ch.gates, ["min-confidence-confirmed"]);
    assert_eq!(
        ch.detail,
        "HIGH (confirmed) -> LOW (inferred); minor (a new deprecation) under min-confidence-confirmed"
    );
    let d = diff_of(&low, BASE);
    let ch = only(&d, "W", Some("count"), Kind::ConfidenceRaised, Patch, Patch);
    assert_eq!(ch.gates, ["min-confidence-confirmed"]);
}

#[test]
fn evidence_added_and_dropped_are_patch() {
    let more = edit(
        BASE,
        &[(
            r#"confidence = "HIGH", evidence = [{ source = "src §5" }]"#,
            r#"confidence = "HIGH", evidence = [{ source = "src §5" }, { source = "src §9" }]"#,
        )],
    );
    let d = diff_of(BASE, &more);
    assert_eq!(
        only(&d, "W", Some("count"), Kind::EvidenceAdded, Patch, Patch).detail,
        "src §9"
    );
    let d = diff_of(&more, BASE);
    assert_eq!(
        only(&d, "W", Some("count"), Kind::EvidenceDropped, Patch, Patch).detail,
        "src §9"
    );
}

#[test]
fn conflicts_and_gaps_recorded_and_resolved_are_patch() {
    let with = format!("{BASE}{CONFLICT}{GAP}");
    let d = diff_of(BASE, &with);
    only(&d, "mode_width", None, Kind::ConflictNew, Patch, Patch);
    only(&d, "W2", None, Kind::GapAdded, Patch, Patch);
    let d = diff_of(&with, BASE);
    only(&d, "mode_width", None, Kind::ConflictResolved, Patch, Patch);
    let ch = only(&d, "W2", None, Kind::GapResolved, Patch, Patch);
    assert_eq!(ch.detail, "no longer listed");
    let d = diff_of(&with, &format!("{BASE}{WORD2}"));
    let ch = only(&d, "W2", None, Kind::GapResolved, Patch, Patch);
    assert_eq!(ch.detail, "now laid out as word `V`");
}

#[test]
fn rules_added_removed_and_changed() {
    let rule = r#"[[struct.rule]]
name = "count_small"
expr = "count < 100"
message = "count too big"
evidence = [{ source = "src §6" }]
"#;
    let two = format!(
        "{BASE}\n[[struct.rule]]\nname = \"mode_known\"\nexpr = \"mode != MODE::SLOW\"\nmessage = \"no mode\"\nevidence = [{{ source = \"src §6\" }}]\n"
    );
    let d = diff_of(BASE, &two);
    only(
        &d,
        "W",
        Some("rule mode_known"),
        Kind::RuleAdded,
        Minor,
        Minor,
    );
    let d = diff_of(&two, BASE);
    only(
        &d,
        "W",
        Some("rule mode_known"),
        Kind::RuleRemoved,
        Minor,
        Major,
    );

    let member = Some("rule count_small");
    let d = diff_of(BASE, &edit(BASE, &[("count < 100", "count < 50")]));
    assert_eq!(
        only(&d, "W", member, Kind::RuleChanged, Minor, Minor).detail,
        "expression: count < 100 -> count < 50"
    );
    let d = diff_of(BASE, &edit(BASE, &[("count too big", "count over 99")]));
    assert_eq!(
        only(&d, "W", member, Kind::RuleChanged, Patch, Patch).detail,
        "message: count too big -> count over 99"
    );
    let d = diff_of(
        BASE,
        &edit(BASE, &[(rule, &format!("{rule}arch = [\"a1\"]\n"))]),
    );
    assert_eq!(
        only(&d, "W", member, Kind::RuleChanged, Minor, Minor).detail,
        "arch: all architectures -> a1"
    );
    let d = diff_of(
        BASE,
        &edit(BASE, &[(rule, &format!("{rule}confidence = \"LOW\"\n"))]),
    );
    let ch = only(&d, "W", member, Kind::ConfidenceLowered, Patch, Patch);
    assert!(
        ch.detail
            .ends_with("under the gate, validate leaves it out"),
        "{}",
        ch.detail
    );
}

/// Several changes at once, as a pull request makes them.
fn multi() -> Diff {
    let new = edit(
        &format!("{BASE}{WORD2}{CONFLICT}"),
        &[
            (r#"name = "count""#, r#"name = "total""#),
            ("count < 100", "total < 100"),
            (
                r#"{ name = "SLOW", value = 2 }"#,
                r#"{ name = "SLOW", value = 2 }, { name = "TURBO", value = 3 }"#,
            ),
            (
                r#"confidence = "HIGH", evidence = [{ source = "src §5" }]"#,
                r#"confidence = "LOW", evidence = [{ source = "src §5" }]"#,
            ),
        ],
    );
    diff_of(&format!("{BASE}{GAP}"), &new)
}

#[test]
fn the_reports_of_a_multi_change_pair() {
    let d = multi();
    insta::assert_snapshot!("multi_text", diff::render(&d, Format::Text));
    insta::assert_snapshot!("multi_markdown", diff::render(&d, Format::Markdown));
    let json: serde_json::Value = serde_json::from_str(&diff::render(&d, Format::Json)).unwrap();
    assert_eq!(json["rust"], "major");
    assert_eq!(json["c"], "major");
    assert_eq!(json["changes"].as_array().unwrap().len(), d.changes.len());
}

// ---- the command and the real history ------------------------------------------------

fn root() -> &'static Path {
    dmaspec_testkit::root()
}

fn dmaspec(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dmaspec"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

/// The first commit with a spec; today's loader loads it (its spec is DMA_DIRECT2D and
/// the types it uses).
const FIRST_SPEC: &str = "d0d02b6";

#[track_caller]
fn require_history() {
    let has = Command::new("git")
        .args(["cat-file", "-e", &format!("{FIRST_SPEC}^{{commit}}")])
        .current_dir(root())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        has,
        "commit {FIRST_SPEC} is not in this clone: the diff tests need the full history (git fetch --unshallow)"
    );
}

#[test]
fn the_history_since_the_first_spec_diffs_against_head() {
    require_history();
    let out = dmaspec(&["diff", "--git", FIRST_SPEC, "HEAD", "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = d["changes"].as_array().unwrap();
    let has = |item: &str, kind: &str| {
        changes
            .iter()
            .any(|c| c["item"] == item && c["kind"] == kind)
    };
    // Every word at HEAD but DMA_DIRECT2D came after the first spec.
    let head = load_head();
    let words: Vec<&str> = head.words().map(|w| w.name.as_str()).collect();
    assert!(words.len() > 1 && words.contains(&"DMA_DIRECT2D"));
    for w in words.iter().filter(|w| **w != "DMA_DIRECT2D") {
        assert!(has(w, "added"), "{w} is not reported added");
    }
    assert!(!has("DMA_DIRECT2D", "added"));
    // New words are major for Rust (the exhaustive `Word` enum), minor for C.
    assert_eq!(d["rust"], "major");

    let text = dmaspec(&["diff", "--git", FIRST_SPEC, "HEAD", "--format", "markdown"]);
    assert!(text.status.success());
    assert!(
        String::from_utf8_lossy(&text.stdout)
            .starts_with(&format!("### dmaspec diff `{FIRST_SPEC}` → `HEAD`\n"))
    );
}

/// The spec at HEAD, read from git (the work tree may hold edits).
fn load_head() -> Model {
    let out = Command::new("git")
        .args(["ls-tree", "-r", "--name-only", "HEAD", "spec"])
        .current_dir(root())
        .output()
        .unwrap();
    let files = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|p| p.ends_with(".toml"))
        .map(|p| {
            let text = Command::new("git")
                .args(["show", &format!("HEAD:{p}")])
                .current_dir(root())
                .output()
                .unwrap();
            (PathBuf::from(p), String::from_utf8(text.stdout).unwrap())
        })
        .collect();
    load_files(Path::new("spec"), files).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn a_revision_without_a_loadable_spec_is_a_clear_error() {
    require_history();
    // The workspace skeleton, one commit before the first spec.
    let out = dmaspec(&["diff", "--git", &format!("{FIRST_SPEC}~1"), "HEAD"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        format!("dmaspec: {FIRST_SPEC}~1: no spec: no *.toml under spec/ at this revision\n")
    );
    // TOML that is not a spec (the generator crate's manifest).
    let out = dmaspec(&["diff", "--git", FIRST_SPEC, "HEAD", "--spec-dir", "codegen"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "dmaspec: {FIRST_SPEC}: the spec at this revision does not load with today's loader:\n"
        )),
        "{err}"
    );
    let out = dmaspec(&["diff", "--git", "no-such-revision", "HEAD"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn directories_diff_and_fail_on_sets_the_exit_code() {
    let spec = root().join("spec");
    let spec = spec.to_str().unwrap();
    let out = dmaspec(&["diff", spec, spec]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("dmaspec diff {spec} -> {spec}: no changes\nRust API: none   C headers: none\n")
    );
    let out = dmaspec(&["diff", spec, spec, "--fail-on", "patch"]);
    assert!(out.status.success());
    let out = dmaspec(&["diff", spec, "no/such/dir"]);
    assert_eq!(out.status.code(), Some(1));
    let out = dmaspec(&["diff", spec, spec, "--format", "yaml"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn fail_on_fails_a_change_at_or_above_the_level() {
    require_history();
    let out = dmaspec(&["diff", "--git", FIRST_SPEC, "HEAD", "--fail-on", "major"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("; --fail-on major"), "{err}");
}

// ---- register files: the workspace's spec with one edit -------------------------------

/// The TDRTP_inc doorbell's one field, as `spec/registers/udma_m2s.toml` declares it.
const DOORBELL: &str = "name = \"val\"\nbits = \"23:0\"\nreset = 0x0\ndoc = \"Number of descriptors to add to the tail (24-bit).";

/// A copy of the workspace's `spec/` in a fresh directory, with `udma_m2s.toml` edited.
fn spec_copy(tag: &str, edits: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-diff-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let from = root().join("spec");
    for (path, text) in dmaspec_codegen::spec_files(&from)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap()))
    {
        let to = dir.join(path.strip_prefix(&from).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let text = if path.ends_with("registers/udma_m2s.toml") {
            edit(&text, edits)
        } else {
            text
        };
        std::fs::write(to, text).unwrap();
    }
    dir
}

fn load_dir(dir: &Path) -> Model {
    dmaspec_codegen::load::load_dir(dir).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn a_register_field_that_shrinks_is_major_for_rust_and_c() {
    let new = spec_copy("shrink", &[(DOORBELL, &DOORBELL.replace("23:0", "22:0"))]);
    let d = diff::diff(&dmaspec_testkit::model(), &load_dir(&new), "old", "new");
    let ch = only(
        &d,
        "UDMA_M2S",
        Some("M2S_Q.TDRTP_inc.val"),
        Kind::Resized,
        Major,
        Major,
    );
    assert_eq!(ch.item_kind, "register file");
    assert_eq!(
        ch.detail,
        "bits 23:0 -> 22:0; mask 0x00ffffff -> 0x007fffff"
    );
    assert_eq!((d.rust, d.c), (Some(Major), Some(Major)));
    // The command fails at any level, where it said "no changes" and exited 0.
    let spec = root().join("spec");
    let out = dmaspec(&[
        "diff",
        spec.to_str().unwrap(),
        new.to_str().unwrap(),
        "--fail-on",
        "patch",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("UDMA_M2S (register file)"), "{text}");
    std::fs::remove_dir_all(new).unwrap();
}

#[test]
fn a_new_register_is_minor_and_its_doc_and_reset_are_compared() {
    let register = "[[regfile.bundle.register]]\nname = \"TDRTP\"\noffset = 0x3c\n";
    let new = spec_copy(
        "added",
        &[
            (
                register,
                &format!(
                    "[[regfile.bundle.register]]\nname = \"spare\"\noffset = 0xf8\naccess = \"RW\"\ndoc = \"A spare.\"\nevidence = [{{ source = \"wiki-csr-udma-m2s §4.1\" }}]\n\n{register}"
                ),
            ),
            (
                DOORBELL,
                &DOORBELL
                    .replace("reset = 0x0", "reset = 0x1")
                    .replace("(24-bit).", "(24 bits)."),
            ),
        ],
    );
    let d = diff::diff(&dmaspec_testkit::model(), &load_dir(&new), "old", "new");
    let ch = only(
        &d,
        "UDMA_M2S",
        Some("M2S_Q.spare"),
        Kind::Added,
        Minor,
        Minor,
    );
    assert_eq!(ch.detail, "register (offset 0xf8, RW)");
    let at = Some("M2S_Q.TDRTP_inc.val");
    assert_eq!(
        only(&d, "UDMA_M2S", at, Kind::ResetChanged, Major, Major).detail,
        "reset 0x0 -> 0x1"
    );
    only(&d, "UDMA_M2S", at, Kind::DocChanged, Patch, Patch);
    std::fs::remove_dir_all(new).unwrap();
}

#[test]
fn a_write_that_comes_to_pulse_is_minor() {
    let doorbell = "name = \"TDRTP_inc\"\noffset = 0x38\naccess = \"RW\"\n";
    let pulses = format!("{doorbell}special_access = \"PulseOnW\"\n");
    let new = spec_copy("pulse", &[(doorbell, &pulses)]);
    let d = diff::diff(&dmaspec_testkit::model(), &load_dir(&new), "old", "new");
    let at = Some("M2S_Q.TDRTP_inc");
    let ch = only(&d, "UDMA_M2S", at, Kind::AccessChanged, Minor, Minor);
    assert_eq!(ch.detail, "RW -> RW, PulseOnW");
    std::fs::remove_dir_all(new).unwrap();
}
