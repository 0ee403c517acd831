//! The loader rejects a bad spec with an error that names the file, the line and column of
//! the value at fault, and what is wrong with it.
//!
//! Every case loads a small bad file, `bad.toml`, next to a valid prelude (`prelude.toml`,
//! see [`SPEC`]) that declares the confidence ordering, one scale, one source, two
//! architectures and an `OPCODE` enum. Positions are 1-based; each assertion also checks
//! that the text at the reported position is the value the error is about.

use std::path::PathBuf;

use dmaspec_codegen::SpecErrors;
use dmaspec_codegen::load::load_files;
use dmaspec_codegen::model::TypeKind;
use dmaspec_testkit::model;
use dmaspec_testkit::spec::{Fixture, bad_path, check, root};

/// The smallest valid spec the bad snippets build on: confidence levels, a scale with two
/// tags (`HIGH`, `LOW`), one source (`src`), architectures `a1` and `a2`, and an `OPCODE`
/// enum with `W1` = 0x10 and `W2` = 0x20.
const SPEC: Fixture = Fixture::new(
    r#"[[arch]]
name = "a1"
nc = 1
doc = "First."

[[arch]]
name = "a2"
nc = 2
doc = "Second."

[[enum]]
name = "OPCODE"
c_name = "OP"
repr = "u8"
doc = "Opcodes."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [
  { name = "W1", value = 0x10 },
  { name = "W2", value = 0x20 },
]
"#,
);

/// A 64-byte word bound to `opcode` in `arch`, with byte 0 of type `byte0`.
/// Line 2 is the name, line 5 the opcode, line 6 the arch list, line 11 the byte-0 field.
fn word(name: &str, opcode: &str, arch: &str, byte0: &str) -> String {
    format!(
        r#"[[struct]]
name = "{name}"
c_name = "{name}_C"
size = 64
opcode = "{opcode}"
arch = {arch}
doc = "A word."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
field = [
  {{ off = 0, name = "opcode", type = "{byte0}", evidence = [{{ source = "src" }}] }},
  {{ off = 1, size = 63, name = "rest", unknown = true }},
]
"#
    )
}

/// A struct of `size` bytes with the given field lines (from line 9 on).
fn strukt(size: usize, fields: &str) -> String {
    format!(
        r#"[[struct]]
name = "S"
c_name = "S_C"
size = {size}
doc = "A struct."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
field = [
{fields}]
"#
    )
}

/// A u8 bitfield `B` with the given sub-field lines (from line 9 on).
fn bitfield(fields: &str) -> String {
    format!(
        r#"[[bitfield]]
name = "B"
c_name = "B_C"
repr = "u8"
doc = "A bitfield."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
fields = [
{fields}]
"#
    )
}

/// A u8 enum `E` with the given enumerator lines (from line 9 on).
fn enumeration(values: &str) -> String {
    format!(
        r#"[[enum]]
name = "E"
c_name = "E_C"
repr = "u8"
doc = "An enum."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
values = [
{values}]
"#
    )
}

/// A two-byte union `U` with its discriminator at byte 1 and the given arms.
fn union(arms: &[&str]) -> String {
    let mut s = String::from(
        r#"[[union]]
name = "U"
c_name = "U_C"
size = 2
doc = "A union."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
discriminator = { off = 1, name = "kind", type = "u8", evidence = [{ source = "src" }] }
"#,
    );
    for arm in arms {
        s.push('\n');
        s.push_str(arm);
    }
    s
}

/// A union arm with `head` as its selection lines (`mask = ..` / `value = ..` /
/// `default = true`) from its third line on. [`union`] puts a blank line before each arm.
fn arm(name: &str, head: &str) -> String {
    format!(
        r#"[[union.variant]]
name = "{name}"
{head}
doc = "An arm."
confidence = "HIGH"
evidence = [{{ source = "src" }}]
field = [{{ off = 0, name = "x", type = "u8", evidence = [{{ source = "src" }}] }}]
"#
    )
}

// ---- the prelude itself -------------------------------------------------------------

#[test]
fn prelude_with_a_good_file_loads() {
    let good = format!(
        "{}\n{}\n{}",
        word("W_A", "W1", r#"["a1", "a2"]"#, "OPCODE"),
        strukt(
            4,
            r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src" }] },
  { off = 1, size = 1, name = "pad", reserved = true, evidence = [{ source = "src" }] },
  { off = 2, size = 2, name = "raw", unknown = true },
"#
        ),
        bitfield(
            r#"  { bits = "0..3", name = "lo" },
  { bits = "4..7", name = "hi", reserved = true },
"#
        ),
    );
    let model = SPEC.load(&good).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.words().count(), 1);
}

// ---- byte layout --------------------------------------------------------------------

#[test]
fn overlapping_fields() {
    let bad = strukt(
        3,
        r#"  { off = 0, name = "a", type = "u16", evidence = [{ source = "src" }] },
  { off = 1, name = "b", type = "u16", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(
        &bad,
        10,
        11,
        "1,",
        "`b` at offset 1 overlaps `a`, which runs to offset 2",
    );
}

#[test]
fn field_past_the_end() {
    let bad = strukt(
        4,
        r#"  { off = 0, name = "a", type = "u16", evidence = [{ source = "src" }] },
  { off = 2, name = "b", type = "u32", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(
        &bad,
        10,
        11,
        "2,",
        "`b` (offset 2, 4 bytes) runs past the end of `S` (4 bytes)",
    );
}

#[test]
fn undeclared_gap() {
    let bad = strukt(
        4,
        r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src" }] },
  { off = 2, name = "b", type = "u16", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(
        &bad,
        10,
        11,
        "2,",
        "bytes 1..2 of `S` are not declared: add a field there, or mark them \
         `reserved = true` or `unknown = true`",
    );
}

#[test]
fn undeclared_trailing_gap() {
    let bad = strukt(
        4,
        r#"  { off = 0, name = "a", type = "u16", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(&bad, 9, 21, r#""a""#, "bytes 2..4 of `S` are not declared");
}

#[test]
fn struct_without_fields() {
    let bad = strukt(4, "");
    SPEC.only_at(&bad, 2, 8, r#""S""#, "bytes 0..4 of `S` are not declared");
}

#[test]
fn duplicate_field_names() {
    let bad = strukt(
        2,
        r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src" }] },
  { off = 1, name = "a", type = "u8", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(&bad, 10, 21, r#""a""#, "duplicate field name `a` in `S`");
}

#[test]
fn unknown_type() {
    let bad = strukt(
        1,
        r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(&bad, 9, 33, r#""NOPE""#, "unknown type `NOPE`");
}

#[test]
fn declared_size_disagrees_with_type() {
    let bad = strukt(
        2,
        r#"  { off = 0, size = 4, name = "a", type = "u16", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(
        &bad,
        9,
        21,
        "4,",
        "`a` is declared 4 bytes but its type `u16` is 2 bytes",
    );
}

#[test]
fn field_without_evidence() {
    let bad = strukt(
        1,
        r#"  { off = 0, name = "a", type = "u8" },
"#,
    );
    SPEC.only_at(&bad, 9, 21, r#""a""#, "field `a` has no evidence");
}

/// What every declaration without evidence is told, in the words rules and lowerings use.
const CITE: &str = "has no evidence: cite the source that states it (for an INFERRED claim, what it is inferred from)";

#[test]
fn type_without_evidence() {
    let bad = strukt(
        1,
        r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src §1" }] },
"#,
    )
    .replace(
        "evidence = [{ source = \"src §1\" }]\nfield",
        "evidence = []\nfield",
    );
    SPEC.only(&bad, "name", r#""S""#, &format!("`S` {CITE}"));
}

#[test]
fn join_without_evidence() {
    let bad = strukt(
        2,
        r#"  { off = 0, name = "lo", type = "u8", evidence = [{ source = "src §1" }] },
  { off = 1, name = "hi", type = "u8", evidence = [{ source = "src §1" }] },
"#,
    ) + "\n[[struct.join]]\nname = \"both\"\nparts = [\"lo\", \"hi\"]\ndoc = \"d\"\nevidence = []\n";
    SPEC.only(&bad, "join", r#""both""#, &format!("join `both` {CITE}"));
}

// ---- bitfields ----------------------------------------------------------------------

#[test]
fn bit_range_outside_its_container() {
    let bad = bitfield(
        r#"  { bits = "0..3", name = "lo" },
  { bits = "4..7", name = "hi" },
  { bits = "7..9", name = "over" },
"#,
    );
    SPEC.only_at(
        &bad,
        11,
        12,
        r#""7..9""#,
        "bits 7..9 of `over` lie outside its 8-bit container `B`",
    );
}

#[test]
fn overlapping_bit_ranges() {
    let bad = bitfield(
        r#"  { bits = "0..3", name = "lo" },
  { bits = "3..7", name = "hi" },
"#,
    );
    SPEC.only_at(&bad, 10, 12, r#""3..7""#, "bit 3 of `hi` is also in `lo`");
}

#[test]
fn undeclared_bit_gap() {
    let bad = bitfield(
        r#"  { bits = "0..3", name = "lo" },
  { bits = "5..7", name = "hi" },
"#,
    );
    SPEC.only_at(
        &bad,
        2,
        8,
        r#""B""#,
        "bits 4..4 of `B` are not declared: add a sub-field or mark them \
         `reserved = true` or `unknown = true`",
    );
}

#[test]
fn undeclared_trailing_bits() {
    let bad = bitfield(
        r#"  { bits = "0..3", name = "lo" },
"#,
    );
    SPEC.only_at(&bad, 2, 8, r#""B""#, "bits 4..7 of `B` are not declared");
}

#[test]
fn enum_too_wide_for_its_bit_range() {
    // Lines 1-11: the enum; line 12 blank; the bitfield from line 13 (sub-fields from 21).
    let bad = format!(
        "{}\n{}",
        enumeration(
            r#"  { name = "A", value = 1 },
  { name = "B", value = 5 },
"#
        ),
        bitfield(
            r#"  { bits = "0..1", name = "k", type = "E" },
  { bits = "2..7", name = "rest", reserved = true },
"#
        ),
    );
    SPEC.only_at(
        &bad,
        21,
        39,
        r#""E""#,
        "enumerator `B` = 0x5 of `E` does not fit the 2-bit sub-field `k`",
    );
}

// ---- enums and names ----------------------------------------------------------------

#[test]
fn enumerator_wider_than_its_repr() {
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
  { name = "B", value = 0x100 },
"#,
    );
    SPEC.only_at(
        &bad,
        10,
        25,
        "0x100",
        "enumerator `B` = 0x100 does not fit `E`'s repr u8 (max 0xff)",
    );
}

#[test]
fn duplicate_enumerators() {
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
  { name = "A", value = 2 },
"#,
    );
    SPEC.only_at(&bad, 10, 12, r#""A""#, "duplicate enumerator `A` in `E`");
}

#[test]
fn duplicate_type_names() {
    let one = enumeration(
        r#"  { name = "A", value = 1 },
"#,
    );
    // The second `E` starts on line 12, its name on line 13.
    let bad = format!("{one}\n{one}");
    SPEC.only_at(&bad, 13, 8, r#""E""#, "duplicate type name `E`");
}

#[test]
fn duplicate_type_names_across_files() {
    // `OPCODE` is the prelude's; this file declares it again.
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
"#,
    )
    .replace(r#"name = "E""#, r#"name = "OPCODE""#);
    SPEC.only_at(&bad, 2, 8, r#""OPCODE""#, "duplicate type name `OPCODE`");
}

/// The one error of `bad` and its notes: a duplicate's note points at the first one.
#[track_caller]
fn first_declared(bad: &str, line: usize, column: usize, token: &str, message: &str, first: &str) {
    SPEC.only_at(bad, line, column, token, message);
    let e = &SPEC.errors(bad)[0];
    assert_eq!(e.notes, [format!("first declared at {first}")], "{e}");
}

#[test]
fn a_duplicate_points_at_the_first_declaration() {
    let bad = bad_path().display().to_string();
    let prelude = root().join("prelude.toml").display().to_string();
    let fields = strukt(
        2,
        r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src" }] },
  { off = 1, name = "a", type = "u8", evidence = [{ source = "src" }] },
"#,
    );
    let field = "duplicate field name `a` in `S`";
    first_declared(&fields, 10, 21, r#""a""#, field, &format!("{bad}:9:21"));
    let values = enumeration("  { name = \"A\", value = 1 },\n  { name = \"A\", value = 2 },\n");
    let value = "duplicate enumerator `A` in `E`";
    first_declared(&values, 10, 12, r#""A""#, value, &format!("{bad}:9:12"));
    let one = enumeration("  { name = \"A\", value = 1 },\n");
    let twice = format!("{one}\n{one}");
    let ty = "duplicate type name `E`";
    first_declared(&twice, 13, 8, r#""E""#, ty, &format!("{bad}:2:8"));
    // In another file: the prelude's `OPCODE`.
    let opcode = one.replace(r#"name = "E""#, r#"name = "OPCODE""#);
    let line = SPEC
        .text()
        .lines()
        .position(|l| l == r#"name = "OPCODE""#)
        .unwrap()
        + 1;
    let ty = "duplicate type name `OPCODE`";
    first_declared(
        &opcode,
        2,
        8,
        r#""OPCODE""#,
        ty,
        &format!("{prelude}:{line}:8"),
    );
}

// ---- words and opcodes --------------------------------------------------------------

#[test]
fn two_words_with_one_opcode_in_one_architecture() {
    // W_A ends on line 13; line 14 is blank; W_B's opcode is on line 19.
    let bad = format!(
        "{}\n{}",
        word("W_A", "W1", r#"["a1"]"#, "OPCODE"),
        word("W_B", "W1", r#"["a1", "a2"]"#, "OPCODE"),
    );
    SPEC.only_at(
        &bad,
        19,
        10,
        r#""W1""#,
        "opcode 0x10 is already bound to `W_A` in architecture `a1`",
    );
}

/// W_A (0x10) and W_B (0x20), W_B with `follows = {follows}` on line 21 (its arch is line 20).
fn extension(follows: &str) -> String {
    format!(
        "{}\n{}",
        word("W_A", "W1", r#"["a1"]"#, "OPCODE"),
        word("W_B", "W2", r#"["a1"]"#, "OPCODE").replace(
            "arch = [\"a1\"]\n",
            &format!("arch = [\"a1\"]\nfollows = {follows}\n"),
        ),
    )
}

#[test]
fn follows_takes_one_word_or_a_list() {
    for (follows, leads) in [
        (r#""W_A""#, vec!["W_A"]),
        (r#"["W_A", "W_B"]"#, vec!["W_A", "W_B"]),
    ] {
        let model = SPEC
            .load(&extension(follows))
            .unwrap_or_else(|e| panic!("{e}"));
        let w = model.type_by_name("W_B").unwrap();
        let TypeKind::Struct { follows, .. } = &w.kind else {
            panic!("W_B is a struct")
        };
        assert_eq!(follows, &leads);
    }
}

#[test]
fn follows_names_only_declared_words() {
    SPEC.only_at(
        &extension(r#"["W_A", "W_X"]"#),
        21,
        11,
        "[",
        "`follows` names unknown word `W_X`",
    );
    SPEC.only_at(&extension("[]"), 21, 11, "[", "`follows` lists no word");
}

#[test]
fn one_opcode_in_disjoint_architectures_is_accepted() {
    let good = format!(
        "{}\n{}",
        word("W_A", "W1", r#"["a1"]"#, "OPCODE"),
        word("W_B", "W1", r#"["a2"]"#, "OPCODE"),
    );
    let model = SPEC.load(&good).unwrap_or_else(|e| panic!("{e}"));
    let words: Vec<(&str, u8)> = model
        .words()
        .map(|w| (w.name.as_str(), w.opcode().map_or(0, |o| o.value)))
        .collect();
    assert_eq!(words, [("W_A", 0x10), ("W_B", 0x10)]);
}

#[test]
fn word_whose_byte_0_is_not_an_opcode() {
    let bad = word("W_A", "W1", r#"["a1"]"#, "u8");
    SPEC.only_at(
        &bad,
        2,
        8,
        r#""W_A""#,
        "word `W_A` must carry its opcode at byte 0",
    );
}

#[test]
fn a_word_whose_byte_0_is_of_an_unknown_type_has_that_error_alone() {
    let bad = word("W", "W1", r#"["a1"]"#, "HDR");
    SPEC.only(&bad, "name = \"opcode\"", r#""HDR""#, "unknown type `HDR`");
}

#[test]
fn word_bound_to_an_unknown_opcode() {
    let bad = word("W_A", "W9", r#"["a1"]"#, "OPCODE");
    SPEC.only_at(&bad, 5, 10, r#""W9""#, "`W9` is not an `OPCODE` enumerator");
}

#[test]
fn unknown_architecture() {
    let bad = word("W_A", "W1", r#"["a1", "a9"]"#, "OPCODE");
    SPEC.only_at(
        &bad,
        6,
        15,
        r#""a9""#,
        "unknown architecture `a9`; did you mean `a1`?",
    );
}

// ---- confidence and evidence --------------------------------------------------------

#[test]
fn unknown_confidence_tag() {
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
"#,
    )
    .replace(r#"confidence = "HIGH""#, r#"confidence = "HUGE""#);
    SPEC.only_at(
        &bad,
        6,
        14,
        r#""HUGE""#,
        "unknown confidence tag `HUGE` (known: HIGH, LOW)",
    );
}

#[test]
fn unknown_source_in_evidence() {
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
"#,
    )
    .replace(r#"source = "src §1""#, r#"source = "nosuch §1""#);
    SPEC.only_at(
        &bad,
        7,
        24,
        r#""nosuch §1""#,
        "unknown source `nosuch` (known: src): a citation starts with a declared source id",
    );
}

#[test]
fn scale_levels_out_of_order() {
    let bad = r#"[[scale]]
name = "t"
doc = "Weakest first, which is wrong."
levels = [
  { tag = "T_WEAK", common = "inferred" },
  { tag = "T_STRONG", common = "confirmed" },
]
"#;
    SPEC.only_at(
        bad,
        6,
        32,
        r#""confirmed""#,
        "scale `t` lists its levels strongest first, but `T_STRONG` maps to a stronger \
         common level than the tag before it",
    );
}

#[test]
fn scale_tags_that_spell_one_rust_constant() {
    // The generated Rust names each tag's confidence `confidence::<scale>::<TAG>`.
    let bad = r#"[[scale]]
name = "t"
doc = "Two spellings of one tag."
levels = [
  { tag = "T/HIGH", common = "confirmed" },
  { tag = "T-HIGH", common = "confirmed" },
]
"#;
    SPEC.only_at(
        bad,
        6,
        11,
        r#""T-HIGH""#,
        "confidence tags `T/HIGH` and `T-HIGH` of scale `t` both become the Rust constant \
         `T_HIGH`; spell one differently",
    );
}

#[test]
fn scale_name_that_is_not_an_identifier() {
    let bad = r#"[[scale]]
name = "my scale"
doc = "A space in the name."
levels = [{ tag = "MINE", common = "confirmed" }]
"#;
    SPEC.only_at(
        bad,
        2,
        8,
        r#""my scale""#,
        "`my scale` is not a valid identifier (letters, digits, `_`)",
    );
}

/// Found by the spec_loader fuzz target: the generated-name checks built the view methods
/// of a field whose name is no identifier, and panicked in `quote`.
#[test]
fn field_name_that_is_not_an_identifier() {
    let bad = strukt(
        2,
        r#"  { off = 0, name = "dst_bound_s;ize_bytes", type = "u16", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only_at(
        &bad,
        9,
        21,
        r#""dst_bound_s;ize_bytes""#,
        "`dst_bound_s;ize_bytes` is not a valid identifier (letters, digits, `_`)",
    );
}

// ---- unions -------------------------------------------------------------------------

#[test]
fn union_without_a_default_arm() {
    let bad = union(&[&arm("one", "mask = 0xff\nvalue = 1")]);
    SPEC.only_at(
        &bad,
        2,
        8,
        r#""U""#,
        "union `U` needs exactly one `default = true` arm (it has 0)",
    );
}

#[test]
fn union_arm_value_outside_its_mask() {
    // The union is 8 lines; each arm starts after a blank line: `one` on 10, `rest` on 18.
    let bad = union(&[
        &arm("one", "mask = 0x0f\nvalue = 0x10"),
        &arm("rest", "default = true"),
    ]);
    SPEC.only_at(
        &bad,
        13,
        9,
        "0x10",
        "value 0x10 has bits outside mask 0xf: the arm could never match",
    );
}

// ---- TOML itself --------------------------------------------------------------------

#[test]
fn toml_syntax_error() {
    let bad = r#"[[enum]]
name = "E"
repr = u8
"#;
    let errs = SPEC.errors(bad);
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    check(&errs[0], bad, 3, 8, "u8", "string values must be quoted");
}

#[test]
fn unknown_key() {
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
"#,
    )
    .replace(
        "doc = \"An enum.\"\n",
        "doc = \"An enum.\"\ncolour = \"red\"\n",
    );
    let errs = SPEC.errors(&bad);
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    check(&errs[0], &bad, 6, 1, "colour", "unknown field `colour`");
}

#[test]
fn unknown_key_in_an_inline_table() {
    let bad = enumeration(
        r#"  { name = "A", value = 1, colour = "red" },
"#,
    );
    let errs = SPEC.errors(&bad);
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    check(&errs[0], &bad, 9, 28, "colour", "unknown field `colour`");
}

// ---- reporting ----------------------------------------------------------------------

#[test]
fn every_error_in_a_file_is_reported_in_file_order() {
    // Lines 1-11: an enum with a too-wide enumerator (line 10) and an unknown source
    // (line 7). Line 12 blank. Lines 13-23: a bitfield whose first sub-field lies outside
    // its container (line 21; the bits it leaves undeclared follow from that, so they are
    // not reported) and whose second holds `E` in two bits (line 22). Line 24
    // blank; from line 25: a struct with an unknown type (line 33) and a field without
    // evidence (line 34).
    let bad = format!(
        "{}\n{}\n{}",
        enumeration(
            r#"  { name = "A", value = 1 },
  { name = "B", value = 0x100 },
"#
        )
        .replace(r#"source = "src §1""#, r#"source = "nosuch §1""#),
        bitfield(
            r#"  { bits = "0..9", name = "over" },
  { bits = "2..3", name = "k", type = "E" },
"#
        ),
        strukt(
            2,
            r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },
  { off = 1, name = "b", type = "u8" },
"#
        ),
    );
    let errs = SPEC.errors(&bad);
    let all = SpecErrors(errs.clone()).to_string();
    let expected: [(usize, usize, &str, &str); 6] = [
        (7, 24, r#""nosuch §1""#, "unknown source `nosuch`"),
        (10, 25, "0x100", "does not fit `E`'s repr u8"),
        (21, 12, r#""0..9""#, "bits 0..9 of `over` lie outside"),
        (
            22,
            39,
            r#""E""#,
            "enumerator `B` = 0x100 of `E` does not fit the 2-bit sub-field `k`",
        ),
        (33, 33, r#""NOPE""#, "unknown type `NOPE`"),
        (34, 21, r#""b""#, "field `b` has no evidence"),
    ];
    assert_eq!(
        errs.len(),
        expected.len(),
        "expected {} errors, got:\n{all}",
        expected.len()
    );
    for (e, (line, column, token, message)) in errs.iter().zip(expected) {
        check(e, &bad, line, column, token, message);
    }
}

#[test]
fn errors_in_several_files_are_all_reported() {
    let one = enumeration(
        r#"  { name = "A", value = 0x100 },
"#,
    );
    let two = strukt(
        1,
        r#"  { off = 0, name = "a", type = "u8" },
"#,
    );
    let errs = load_files(
        &root(),
        vec![
            SPEC.file(),
            (root().join("one.toml"), one),
            (root().join("two.toml"), two),
        ],
    )
    .expect_err("two bad files")
    .0;
    let got: Vec<(PathBuf, usize, usize)> = errs
        .iter()
        .map(|e| (e.file.clone(), e.line, e.column))
        .collect();
    assert_eq!(
        got,
        [
            (root().join("one.toml"), 9, 25),
            (root().join("two.toml"), 9, 21),
        ]
    );
}

#[test]
fn display_names_file_line_and_column() {
    let bad = strukt(
        1,
        r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },
"#,
    );
    let shown = SpecErrors(SPEC.errors(&bad)).to_string();
    let want = format!("{}:9:33: unknown type `NOPE`", bad_path().display());
    assert!(shown.starts_with(&want), "{shown}");
}

#[test]
fn render_shows_the_offending_line() {
    let bad = strukt(
        1,
        r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },
"#,
    );
    // The spec exists only in memory: render must not need the file on disk.
    let rendered = SPEC.load(&bad).expect_err("bad spec").render();
    let line = r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },"#;
    assert!(rendered.contains("unknown type `NOPE`"), "{rendered}");
    let place = format!("{}:9:33", bad_path().display());
    assert!(rendered.contains(&place), "{rendered}");
    // The source line under its line number, then carets under `"NOPE"` exactly.
    let lines: Vec<&str> = rendered.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("9 ") && l.ends_with(line))
        .unwrap_or_else(|| panic!("no line 9 in:\n{rendered}"));
    let source = lines[at];
    let carets = lines[at + 1];
    let col = source
        .find(r#""NOPE""#)
        .expect("the type in the source line");
    assert_eq!(carets.find('^'), Some(col), "{rendered}");
    assert_eq!(carets.matches('^').count(), r#""NOPE""#.len(), "{rendered}");
}

#[test]
fn render_shows_every_error() {
    let bad = strukt(
        2,
        r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },
  { off = 1, name = "b", type = "u8" },
"#,
    );
    let rendered = SPEC.load(&bad).expect_err("bad spec").render();
    for want in [
        "unknown type `NOPE`",
        ":9:33",
        "field `b` has no evidence",
        ":10:21",
        r#"  { off = 1, name = "b", type = "u8" },"#,
    ] {
        assert!(rendered.contains(want), "no `{want}` in:\n{rendered}");
    }
}

// ---- the real spec ------------------------------------------------------------------

#[test]
fn the_real_spec_loads() {
    let model = model();
    assert!(model.words().count() >= 1, "spec/ declares no word");
}

// ---- ASCII strings, constants, value codecs, joined values --------------------------

/// A 64-byte word around `fields` (which must cover bytes 1..64), bound to `W1`.
fn word_with(fields: &str) -> String {
    format!(
        r#"[[struct]]
name = "W"
c_name = "W_STRUCT"
size = 64
opcode = "W1"
doc = "A word."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]

[[struct.field]]
off = 0
name = "opcode"
type = "OPCODE"
evidence = [{{ source = "src §1" }}]
{fields}"#
    )
}

const NAME_AND_REST: &str = r#"
[[struct.field]]
off = 1
name = "queue"
type = "ascii[31]"
evidence = [{ source = "src §2" }]

[[struct.field]]
off = 32
name = "len"
type = "u16"
const = 0x10
codec = { zero_means = 65536 }
evidence = [{ source = "src §2" }]

[[struct.field]]
off = 34
name = "lo"
type = "u16"
evidence = [{ source = "src §2" }]

[[struct.field]]
off = 36
name = "hi"
type = "u16"
evidence = [{ source = "src §2" }]

[[struct.field]]
off = 38
size = 26
name = "rest"
unknown = true

[[struct.join]]
name = "size"
parts = ["lo", "hi"]
doc = "Split across two fields."
evidence = [{ source = "src §3" }]
"#;

#[test]
fn ascii_const_codec_and_join_load() {
    let model = SPEC
        .load(&word_with(NAME_AND_REST))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let w = model.type_by_name("W").unwrap();
    let dmaspec_codegen::model::TypeKind::Struct { fields, joins, .. } = &w.kind else {
        panic!("W is a struct")
    };
    let queue = fields.iter().find(|f| f.name == "queue").unwrap();
    assert_eq!(queue.ty, dmaspec_codegen::model::TypeRef::Ascii { len: 31 });
    assert_eq!(queue.size, 31);
    let len = fields.iter().find(|f| f.name == "len").unwrap();
    assert_eq!(len.constant, Some(0x10));
    assert_eq!(
        len.codec,
        Some(dmaspec_codegen::model::Codec::ZeroMeans(65536))
    );
    assert_eq!(
        joins[0].parts,
        [("lo".to_string(), 16), ("hi".to_string(), 16)]
    );
}

#[test]
fn constant_that_does_not_fit() {
    let bad = word_with(&NAME_AND_REST.replace("const = 0x10", "const = 0x10000"));
    SPEC.only_at(
        &bad,
        26,
        9,
        "0x10000",
        "constant 0x10000 does not fit `u16`",
    );
}

#[test]
fn constant_on_a_composite_field() {
    let bad = word_with(&NAME_AND_REST.replace(
        "type = \"ascii[31]\"\n",
        "type = \"ascii[31]\"\nconst = 1\n",
    ));
    SPEC.only_at(
        &bad,
        20,
        9,
        "1",
        "`const` needs an integer, enum or flags field",
    );
}

#[test]
fn codec_whose_zero_is_ambiguous() {
    let bad = word_with(&NAME_AND_REST.replace("zero_means = 65536", "zero_means = 7"));
    SPEC.only_at(
        &bad,
        27,
        24,
        "7",
        "`zero_means = 7` must be a value `u16` cannot hold",
    );
}

#[test]
fn ascii_of_length_zero() {
    let bad = word_with(&NAME_AND_REST.replace("ascii[31]", "ascii[0]"));
    // The field's bytes are then undeclared too; the type error comes first.
    check(
        &SPEC.errors(&bad)[0],
        &bad,
        19,
        8,
        "\"ascii[0]\"",
        "an ASCII field is `ascii[N]` with N > 0",
    );
}

#[test]
fn join_of_a_missing_part() {
    let bad =
        word_with(&NAME_AND_REST.replace(r#"parts = ["lo", "hi"]"#, r#"parts = ["lo", "hj"]"#));
    SPEC.only_at(
        &bad,
        50,
        16,
        "\"hj\"",
        "join part `hj` is not a field of this struct",
    );
}

#[test]
fn join_of_a_signed_part() {
    let bad = word_with(&NAME_AND_REST.replacen(
        "name = \"hi\"\ntype = \"u16\"",
        "name = \"hi\"\ntype = \"i16\"",
        1,
    ));
    SPEC.only_at(
        &bad,
        50,
        16,
        "\"hi\"",
        "join part `hi` must be an unsigned integer field",
    );
}

#[test]
fn join_named_like_a_field() {
    let bad = word_with(&NAME_AND_REST.replace("name = \"size\"", "name = \"lo\""));
    SPEC.only_at(
        &bad,
        49,
        8,
        "\"lo\"",
        "`lo` is already a field or join name",
    );
}

// ---- root causes first, every one in one run, and how to fix them --------------------

#[test]
fn two_misspelt_keys_and_an_overlap_in_one_run() {
    // Line 9: `tpye` (read as `type`, so `a` is a u16); line 10: `evidnce` (read as
    // `evidence`) and `b` at offset 1 inside `a`.
    let bad = strukt(
        2,
        r#"  { off = 0, name = "a", tpye = "u16", evidence = [{ source = "src" }] },
  { off = 1, name = "b", type = "u8", evidnce = [{ source = "src" }] },
"#,
    );
    let errs = SPEC.errors(&bad);
    let all = SpecErrors(errs.clone()).to_string();
    assert_eq!(errs.len(), 3, "{all}");
    check(
        &errs[0],
        &bad,
        9,
        26,
        "tpye",
        "unknown field `tpye`; did you mean `type`?",
    );
    check(
        &errs[1],
        &bad,
        10,
        11,
        "1",
        "`b` at offset 1 overlaps `a`, which runs to offset 2",
    );
    check(
        &errs[2],
        &bad,
        10,
        39,
        "evidnce",
        "unknown field `evidnce`; did you mean `evidence`?",
    );
    // Moving `b` to offset 2 would put it past the 2-byte struct: not offered.
    assert_eq!(errs[1].notes, ["shrink `a` to 1 byte (offsets 0..1)"]);
}

#[test]
fn a_misspelt_key_is_read_as_the_key_it_means() {
    // Without `opcode` the word would also lose its opcode binding.
    let bad = word("W_A", "W1", r#"["a1"]"#, "OPCODE").replace("opcode = ", "opcod = ");
    SPEC.only_at(
        &bad,
        5,
        1,
        "opcod",
        "unknown field `opcod`; did you mean `opcode`?",
    );
}

#[test]
fn a_declaration_that_cannot_be_read_is_reported_alone() {
    // `E` lacks its `repr` (line 1, the table), so it is dropped; `S` uses it (line 20),
    // which follows from that, and lacks evidence for `b` (line 21), which does not.
    let bad = format!(
        "{}\n{}",
        enumeration("  { name = \"A\", value = 1 },\n").replace("repr = \"u8\"\n", ""),
        strukt(
            2,
            r#"  { off = 0, name = "a", type = "E", evidence = [{ source = "src" }] },
  { off = 1, name = "b", type = "u8" },
"#
        ),
    );
    let errs = SPEC.errors(&bad);
    assert_eq!(errs.len(), 2, "{}", SpecErrors(errs.clone()));
    check(&errs[0], &bad, 1, 1, "[[enum]]", "missing field `repr`");
    assert_eq!(
        errs[0].notes,
        ["1 later error that follows from this one is not shown"]
    );
    check(
        &errs[1],
        &bad,
        20,
        21,
        r#""b""#,
        "field `b` has no evidence",
    );
}

#[test]
fn a_bad_bit_range_is_reported_without_what_follows_from_it() {
    // Neither the bits `k` would have claimed nor the rule that reads it are reported.
    let bad = format!(
        "{}\n[[bitfield.rule]]\nname = \"r\"\nexpr = \"k == 1\"\nmessage = \"m\"\nevidence = [{{ source = \"src\" }}]\n",
        bitfield(
            r#"  { bits = "0-2", name = "k" },
  { bits = "3..7", name = "rest", reserved = true },
"#
        )
    );
    SPEC.only_at(
        &bad,
        9,
        12,
        r#""0-2""#,
        "bit range `0-2` is not `N` or `LO..HI` (inclusive, LO <= HI); did you mean `0..2`?",
    );
    assert_eq!(
        SPEC.errors(&bad)[0].notes,
        ["1 later error that follows from this one is not shown"]
    );
}

#[test]
fn a_field_of_unknown_type_is_no_placeholder_in_its_rules() {
    let bad = format!(
        "{}\n{}[[struct.rule]]\nname = \"r\"\nexpr = \"t == 1\"\nmessage = \"m\"\nevidence = [{{ source = \"src\" }}]\n",
        enumeration("  { name = \"A\", value = 1 },\n"),
        strukt(
            1,
            "  { off = 0, size = 1, name = \"t\", type = \"EE\", evidence = [{ source = \"src\" }] },\n"
        ),
    );
    SPEC.only(
        &bad,
        "name = \"t\"",
        r#""EE""#,
        "unknown type `EE`; did you mean `E`?",
    );
}

#[test]
fn misspelt_sources_tags_and_opcodes_get_a_suggestion() {
    let bad = word("W_A", "W11", r#"["a1"]"#, "OPCODE")
        .replace(r#"source = "src §1""#, r#"source = "sr §1""#)
        .replace(r#"confidence = "HIGH""#, r#"confidence = "HIHG""#);
    let errs = SPEC.errors(&bad);
    assert_eq!(errs.len(), 3, "{}", SpecErrors(errs.clone()));
    check(
        &errs[0],
        &bad,
        5,
        10,
        r#""W11""#,
        "`W11` is not an `OPCODE` enumerator; did you mean `W1`?",
    );
    check(
        &errs[1],
        &bad,
        8,
        14,
        r#""HIHG""#,
        "unknown confidence tag `HIHG`; did you mean `HIGH`?",
    );
    check(
        &errs[2],
        &bad,
        9,
        24,
        r#""sr §1""#,
        "unknown source `sr`; did you mean `src`?",
    );
}

#[test]
fn an_evidence_tag_must_be_on_its_sources_scale() {
    // `OTHER` belongs to scale `t`; `src` tags its claims on scale `s`.
    let bad = format!(
        "[[scale]]\nname = \"t\"\ndoc = \"Another scale.\"\nlevels = [{{ tag = \"OTHER\", common = \"confirmed\" }}]\n\n{}",
        enumeration("  { name = \"A\", value = 1 },\n").replace(
            r#"{ source = "src §1" }"#,
            r#"{ source = "src §1", confidence = "OTHER" }"#
        ),
    );
    SPEC.only(
        &bad,
        "evidence",
        r#""OTHER""#,
        "`OTHER` is a tag of scale `t`, but `src` tags its claims on scale `s`",
    );
}

#[test]
fn the_rendered_errors_end_with_a_count() {
    let bad = strukt(1, "  { off = 0, name = \"a\", type = \"NOPE\" },\n");
    let errs = SpecErrors(SPEC.errors(&bad));
    assert_eq!(errs.0.len(), 2, "{errs}");
    assert!(
        errs.render().ends_with("\n2 errors in 1 file"),
        "{}",
        errs.render()
    );
}

/// The prelude without the lines from `from` up to (not including) `to`.
fn prelude_without(from: &str, to: &str) -> String {
    let text = SPEC.text();
    let start = text.find(from).unwrap();
    let end = text.find(to).unwrap();
    format!("{}{}", &text[..start], &text[end..])
}

#[test]
fn a_spec_without_sources_says_sources_toml_is_missing() {
    let prelude = prelude_without("[[source]]", "[[arch]]");
    let errs = load_files(&root(), vec![(root().join("prelude.toml"), prelude)]).unwrap_err();
    assert_eq!(errs.0.len(), 1, "{errs}");
    let e = &errs.0[0];
    assert_eq!(
        (e.file.clone(), e.line, e.column),
        (root().join("sources.toml"), 1, 1)
    );
    assert!(e.message.ends_with("sources.toml is missing: it declares the documents (`[[source]]`) every evidence record cites"), "{e}");
    assert_eq!(
        e.notes,
        ["1 later error that follows from this one is not shown"]
    );
}

#[test]
fn a_spec_without_confidence_levels_says_confidence_toml_is_missing() {
    let prelude = prelude_without("[confidence]", "[[source]]");
    let errs = load_files(&root(), vec![(root().join("prelude.toml"), prelude)]).unwrap_err();
    assert_eq!(errs.0.len(), 1, "{errs}");
    let e = &errs.0[0];
    assert_eq!(
        (e.file.clone(), e.line, e.column),
        (root().join("confidence.toml"), 1, 1)
    );
    assert!(
        e.message
            .contains("confidence.toml is missing: it declares the common confidence ordering"),
        "{e}"
    );
}

/// A fresh spec directory on disk holding the prelude and `files` (path, bytes).
fn spec_dir(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("words")).unwrap();
    std::fs::write(dir.join("prelude.toml"), SPEC.text()).unwrap();
    for (path, bytes) in files {
        std::fs::write(dir.join(path), bytes).unwrap();
    }
    dir
}

#[test]
fn a_byte_that_is_not_utf8_is_reported_where_it_is() {
    let dir = spec_dir(
        "spec-not-utf8",
        &[(
            "bad.toml",
            b"[[arch]]\nname = \"a3\"\nnc = 3\ndoc = \"Caf\xe9.\"\n",
        )],
    );
    let errs = dmaspec_codegen::load::load_dir(&dir).unwrap_err();
    assert_eq!(errs.0.len(), 1, "{errs}");
    let e = &errs.0[0];
    assert_eq!(
        (e.file.clone(), e.line, e.column),
        (dir.join("bad.toml"), 4, 11),
        "{e}"
    );
    assert_eq!(
        e.message,
        "byte 0xe9 at byte offset 38 is not UTF-8: spec files are UTF-8 text; this file is \
         not read"
    );
}

#[test]
fn an_empty_file_and_an_upper_case_extension_are_errors() {
    let dir = spec_dir(
        "spec-vanishing-words",
        &[
            ("words/empty.toml", b"# a word, one day\n"),
            (
                "words/w.TOML",
                word("W_A", "W1", "[\"a1\"]", "OPCODE").as_bytes(),
            ),
        ],
    );
    let errs = dmaspec_codegen::load::load_dir(&dir).unwrap_err();
    assert_eq!(errs.0.len(), 2, "{errs}");
    let (empty, upper) = (&errs.0[1], &errs.0[0]);
    assert_eq!(
        (empty.file.clone(), empty.line, empty.column),
        (dir.join("words/empty.toml"), 1, 1)
    );
    assert!(
        empty
            .message
            .starts_with("this file declares nothing (it is empty or holds only comments)"),
        "{empty}"
    );
    assert_eq!(upper.file, dir.join("words/w.TOML"));
    assert!(
        upper
            .message
            .ends_with("w.TOML is not read: spec files end in `.toml`, in lower case; rename it"),
        "{upper}"
    );
}

#[test]
fn a_field_of_unknown_type_leaves_no_gap() {
    // `a` has no size of its own: the bytes up to `b` are taken to be its.
    let bad = strukt(
        4,
        r#"  { off = 0, name = "a", type = "NOPE", evidence = [{ source = "src" }] },
  { off = 2, name = "b", type = "u16", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only(&bad, "name = \"a\"", r#""NOPE""#, "unknown type `NOPE`");
}

// ---- generated names ----------------------------------------------------------------

#[test]
fn enumerators_sharing_a_value() {
    let bad = enumeration(
        r#"  { name = "A", value = 1 },
  { name = "B", value = 1 },
"#,
    );
    SPEC.only(
        &bad,
        r#""B""#,
        "1 }",
        "`B` has the value 0x1 of `A`: two enumerators of `E` cannot share a value; if it is \
         another spelling of `A`, list it in `A`'s `aliases`",
    );
}

#[test]
fn enumerator_named_like_a_generated_method() {
    let bad = enumeration("  { name = \"from_raw\", value = 1 },\n");
    SPEC.only(
        &bad,
        "values",
        r#""from_raw""#,
        "enumerator `from_raw` collides in `impl E` with a name the generated code defines",
    );
}

#[test]
fn field_named_like_another_fields_view_setter() {
    let bad = strukt(
        2,
        r#"  { off = 0, name = "count", type = "u8", evidence = [{ source = "src" }] },
  { off = 1, name = "set_count", type = "u8", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only(
        &bad,
        "off = 1",
        r#""set_count""#,
        "field `set_count` collides in `view::S` with field `count`; rename one",
    );
}

#[test]
fn rust_names_that_cannot_be_raw_identifiers() {
    for name in ["Self", "self", "crate", "super", "_"] {
        let bad = strukt(
            1,
            &format!(
                "  {{ off = 0, name = \"{name}\", type = \"u8\", evidence = [{{ source = \"src\" }}] }},\n"
            ),
        );
        SPEC.only(
            &bad,
            "off = 0",
            &format!("\"{name}\""),
            &format!("`{name}` cannot be a Rust identifier, not even a raw one (`r#{name}`)"),
        );
    }
}

#[test]
fn keywords_that_can_be_escaped_load() {
    let good = strukt(
        4,
        r#"  { off = 0, name = "type", type = "u8", evidence = [{ source = "src" }] },
  { off = 1, name = "class", type = "u8", evidence = [{ source = "src" }] },
  { off = 2, name = "uint8_t", type = "u8", evidence = [{ source = "src" }] },
  { off = 3, name = "NULL", type = "u8", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.load(&good).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn type_named_like_a_generated_item() {
    let bad = strukt(
        1,
        r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src" }] },
"#,
    )
    .replace("name = \"S\"", "name = \"Word\"");
    SPEC.only(
        &bad,
        "[[struct]]",
        r#""Word""#,
        "type `Word` collides in the generated Rust module with a name the generated code defines",
    );
}

#[test]
fn c_name_that_is_a_c_standard_name() {
    let bad = enumeration("  { name = \"A\", value = 1 },\n").replace("\"E_C\"", "\"uint8_t\"");
    SPEC.only(
        &bad,
        "[[enum]]",
        r#""E""#,
        "the C name `uint8_t` of type `E` is a C or C++ keyword or standard name",
    );
}

#[test]
fn rule_named_like_the_generated_validity_function() {
    let bad = format!(
        "{}\n[[struct.rule]]\nname = \"is_valid\"\nexpr = \"a <= 3\"\nmessage = \"a is small\"\nevidence = [{{ source = \"src\" }}]\n",
        strukt(
            1,
            r#"  { off = 0, name = "a", type = "u8", evidence = [{ source = "src" }] },
"#,
        )
    );
    SPEC.only(
        &bad,
        "[[struct.rule]]",
        r#""is_valid""#,
        "rule `is_valid` becomes `S_C_is_valid` in the C headers, which a name the generated \
         code defines already is",
    );
}

#[test]
fn alias_needs_a_source_or_ours() {
    let bad = enumeration("  { name = \"A\", value = 1, aliases = [{ name = \"B\" }] },\n");
    SPEC.only(
        &bad,
        "aliases",
        r#""B""#,
        "alias `B` needs a `source` that spells it so, or `ours = true` for a name the spec \
         coined",
    );
}

#[test]
fn alias_with_a_source_is_not_ours() {
    let bad = enumeration(
        "  { name = \"A\", value = 1, aliases = [{ name = \"B\", source = \"src §1\", ours = true }] },\n",
    );
    SPEC.only(
        &bad,
        "aliases",
        r#""src §1""#,
        "alias `B` has a `source` and `ours = true`: a name a source uses is not the spec's own",
    );
}

#[test]
fn word_alias_needs_its_name_in_the_c_name() {
    let bad = word("W", "W1", r#"["a1"]"#, "OPCODE").replace(
        "c_name = \"W_C\"",
        "c_name = \"OTHER\"\naliases = [{ name = \"OLD\", ours = true }]",
    );
    SPEC.only(
        &bad,
        "[[struct]]",
        r#""W""#,
        "`W` has aliases, so its C name must contain its name (`OTHER` does not) to spell them \
         in C",
    );
}

#[test]
fn word_alias_loads_with_its_c_spelling() {
    let good = word("W", "W1", r#"["a1"]"#, "OPCODE").replace(
        "c_name = \"W_C\"",
        "c_name = \"W_C\"\naliases = [{ name = \"OLD\", ours = true }]",
    );
    let m = SPEC.load(&good).expect("loads");
    let w = m.types.iter().find(|t| t.name == "W").expect("W");
    let dmaspec_codegen::model::TypeKind::Struct { aliases, .. } = &w.kind else {
        panic!("a struct")
    };
    assert_eq!(aliases.len(), 1);
    assert_eq!(
        (aliases[0].name.as_str(), aliases[0].c_name.as_str()),
        ("OLD", "OLD_C")
    );
    assert_eq!(aliases[0].source, None);
    assert!(aliases[0].spelled_by().contains("no source uses it"));
}

// ---- records (`top_level = true`) ---------------------------------------------------

/// `top_level = true` inserted as line 5, after `size`.
fn top_level(item: &str) -> String {
    let (head, rest) = item.split_at(item.find("size = ").unwrap());
    let (size, rest) = rest.split_at(rest.find('\n').unwrap() + 1);
    format!("{head}{size}top_level = true\n{rest}")
}

#[test]
fn a_top_level_struct_is_a_record() {
    let good = top_level(&strukt(
        2,
        r#"  { off = 0, name = "a", type = "u16", evidence = [{ source = "src" }] },
"#,
    ));
    let model = SPEC.load(&good).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = model.records().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["S"]);
    assert_eq!(model.words().count(), 0);
}

#[test]
fn top_level_on_a_word() {
    let bad = top_level(&word("W_A", "W1", r#"["a1"]"#, "OPCODE"));
    SPEC.only_at(
        &bad,
        5,
        13,
        "true",
        "`W_A` is bound to an opcode, so it is a word and already top-level: remove \
         `top_level = true`",
    );
}

#[test]
fn top_level_struct_of_no_bytes() {
    let bad = top_level(&strukt(0, ""));
    SPEC.only_at(
        &bad,
        4,
        8,
        "0",
        "`S` is top-level, so it is decoded from its own bytes and needs at least one: give \
         it a size and fields, or remove `top_level = true`",
    );
}

/// A member named `in`, `true` or `false` could not be read by any rule, and one named `nc`
/// would hide the generation from its struct's rules: each is refused where it is declared.
#[test]
fn members_cannot_take_the_words_rules_reserve() {
    for (name, why) in [
        ("in", "`in` is the list test of rule expressions"),
        ("true", "it is a literal of rule expressions"),
        ("false", "it is a literal of rule expressions"),
        (
            "nc",
            "`nc` is the NeuronCore generation in rule expressions",
        ),
    ] {
        let field = format!(
            "  {{ off = 0, name = \"{name}\", type = \"u8\", evidence = [{{ source = \"src\" }}] }},\n"
        );
        let bad = strukt(1, &field);
        let quoted = format!("\"{name}\"");
        SPEC.only(
            &bad,
            "name = \"S\"",
            &quoted,
            &format!("field `{name}`: {why}"),
        );
    }
}

/// An overlap's fix never moves a field past the end of its struct.
#[test]
fn an_overlap_at_the_last_byte_is_not_told_to_move_past_the_word() {
    let bad = strukt(
        64,
        r#"  { off = 0, name = "a", type = "u8[64]", evidence = [{ source = "src" }] },
  { off = 63, name = "b", type = "u8", evidence = [{ source = "src" }] },
"#,
    );
    let errs = SPEC.errors(&bad);
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    check(
        &errs[0],
        &bad,
        10,
        11,
        "63",
        "`b` at offset 63 overlaps `a`",
    );
    assert_eq!(errs[0].notes, ["shrink `a` to 63 bytes (offsets 0..63)"]);
}
