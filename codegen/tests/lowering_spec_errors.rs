//! The loader rejects a bad `[[lowering]]` with the file, line and column of the value at
//! fault: an unknown word, a path that names no field on either side, a width or type
//! mismatch, an unknown transform, missing evidence, an INFERRED mapping without a note,
//! two mappings writing the same bits, and the rest.
//!
//! Each case edits one spot of a valid lowering (`VALID`, in `bad.toml`) that sits next to a
//! prelude declaring the confidence scale, a source, an `OPCODE` enum, a selector enum and
//! three small words: the pseudo `P`, its extension `E` and the real word `T`.

use dmaspec_codegen::model::lowering::{ExtensionUse, Operand, Transform};
use dmaspec_testkit::spec::Fixture;

const PRELUDE: &str = r#"[confidence]
levels = [
  { name = "confirmed", doc = "Read from a binary." },
  { name = "inferred", doc = "Reasoned." },
]

[[scale]]
name = "s"
doc = "The test scale."
levels = [
  { tag = "HIGH", common = "confirmed" },
  { tag = "LOW/INFERRED", common = "inferred" },
]

[[source]]
id = "src"
title = "The test source"
file = "src.md"
scale = "s"

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
values = [
  { name = "W1", value = 0x10 },
  { name = "W2", value = 0x20 },
  { name = "W3", value = 0x30 },
]

[[enum]]
name = "SEL"
c_name = "SEL_C"
repr = "u8"
doc = "Kinds."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "A", value = 0 }, { name = "B", value = 1 }]

[[bitfield]]
name = "CFG"
c_name = "CFG_C"
repr = "u8"
doc = "A config byte."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
fields = [
  { bits = "0..2", name = "class", evidence = [{ source = "src" }] },
  { bits = "3..7", name = "rsvd", reserved = true },
]

[[struct]]
name = "P"
c_name = "P_C"
size = 64
opcode = "W1"
doc = "The pseudo."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "op", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, name = "sel", type = "SEL", evidence = [{ source = "src" }] },
  { off = 2, name = "a", type = "u8", evidence = [{ source = "src" }] },
  { off = 3, name = "cfg", type = "CFG", evidence = [{ source = "src" }] },
  { off = 4, name = "w", type = "u32", evidence = [{ source = "src" }] },
  { off = 8, name = "arr", type = "u16[2]", evidence = [{ source = "src" }] },
  { off = 12, size = 52, name = "rest", unknown = true },
]

[[struct]]
name = "E"
c_name = "E_C"
size = 64
opcode = "W3"
follows = "P"
doc = "The extension."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "op", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, name = "e1", type = "u8", evidence = [{ source = "src" }] },
  { off = 2, size = 62, name = "rest", unknown = true },
]

[[struct]]
name = "T"
c_name = "T_C"
size = 64
opcode = "W2"
doc = "The real word."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "op", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, name = "x", type = "u8", evidence = [{ source = "src" }] },
  { off = 2, name = "y", type = "u8", evidence = [{ source = "src" }] },
  { off = 3, name = "z", type = "u8", evidence = [{ source = "src" }] },
  { off = 4, name = "w", type = "u32", evidence = [{ source = "src" }] },
  { off = 8, name = "v", type = "u16", evidence = [{ source = "src" }] },
  { off = 10, name = "cfg", type = "CFG", evidence = [{ source = "src" }] },
  { off = 11, size = 53, name = "rest", unknown = true },
]
"#;

const VALID: &str = r#"[[lowering]]
name = "L"
from = "P"
selector = "sel"
extension = "E"
doc = "A lowering."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
unsupported = { message = "bad %u", confidence = "HIGH", evidence = [{ source = "src §1" }] }

[[lowering.abi]]
name = "v1"
entry = "f1"
default = true
doc = "The dispatcher."
confidence = "HIGH"
evidence = [{ source = "src §1" }]

[[lowering.kind]]
value = "A"
to = "T"
extension = "required"
doc = "Kind A."
missing_extension = { message = "needs E", confidence = "HIGH", evidence = [{ source = "src §1" }] }
route = [{ abi = "v1", via = ["f1"], confidence = "HIGH", evidence = [{ source = "src §1" }] }]
map = [
  { to = "x", from = "a", confidence = "HIGH", evidence = [{ source = "src §1" }] },
  { to = "y", from = "ext.e1", confidence = "LOW/INFERRED", note = "by name", evidence = [{ source = "src §1" }] },
  { to = "w", from = "w", confidence = "HIGH", evidence = [{ source = "src §1" }] },
  { to = "v", from = "arr[1]", confidence = "HIGH", evidence = [{ source = "src §1" }] },
  { to = "cfg.class", from = "cfg.class", confidence = "HIGH", evidence = [{ source = "src §1" }] },
  { to = "op", value = 0x20, confidence = "HIGH", evidence = [{ source = "src §1" }] },
]
"#;

/// Its own provenance: the scale has the tag `LOW/INFERRED`.
const SPEC: Fixture = Fixture::whole(PRELUDE);

/// `VALID` with `from` replaced (once) by `to`.
fn edited(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "`{from}` is not in VALID");
    VALID.replacen(from, to, 1)
}

#[test]
fn the_valid_lowering_loads_and_resolves() {
    let m = SPEC
        .load(VALID)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let l = &m.lowerings[0];
    assert_eq!((l.from.as_str(), l.from_opcode), ("P", 0x10));
    assert_eq!(l.selector.offset, 1);
    assert_eq!(l.extension.as_deref(), Some("E"));
    let k = &l.kinds[0];
    assert_eq!((k.value, k.to.as_str(), k.to_opcode), (0, "T", 0x20));
    assert_eq!(k.extension, ExtensionUse::Required);
    let v = &k.mappings[3];
    assert_eq!((v.to.offset, v.to.size), (8, 2));
    assert!(
        matches!(&v.source, Operand::Pseudo { place } if place.offset == 10 && place.size == 2)
    );
    let y = &k.mappings[1];
    assert!(y.inferred);
    assert!(matches!(&y.source, Operand::Ext { place } if place.offset == 1));
    let cfg = &k.mappings[4];
    assert_eq!(cfg.to.bits, Some((0, 3)));
    assert_eq!(cfg.to.offset, 10);
    assert!(matches!(cfg.via, Transform::Copy));
    assert_eq!(k.unmapped, ["z"], "no mapping writes z");
    assert_eq!(k.unread, ["arr[0]"]);
}

#[test]
fn unknown_words() {
    SPEC.only(
        &edited(r#"to = "T""#, r#"to = "Q""#),
        "to = ",
        "\"Q\"",
        "unknown word `Q`",
    );
    SPEC.among(
        &edited(r#"from = "P""#, r#"from = "Q""#),
        "from = ",
        "\"Q\"",
        "unknown word `Q`",
    );
    // The extension must extend the pseudo.
    SPEC.among(
        &edited(r#"extension = "E""#, r#"extension = "T""#),
        "extension = ",
        "\"T\"",
        "is not an extension of `P`",
    );
}

#[test]
fn unknown_paths_on_either_side() {
    SPEC.only(
        &edited(r#"{ to = "x", from = "a""#, r#"{ to = "nope", from = "a""#),
        "{ to = ",
        "\"nope\"",
        "target: `T` has no field `nope`",
    );
    SPEC.only(
        &edited(r#"{ to = "x", from = "a""#, r#"{ to = "x", from = "zz""#),
        r#"{ to = "x""#,
        "\"zz\"",
        "source: `P` has no field `zz`",
    );
    SPEC.only(
        &edited(r#"from = "ext.e1""#, r#"from = "ext.e9""#),
        "from = \"ext",
        "\"ext.e9\"",
        "source: `E` has no field `e9`",
    );
    SPEC.only(
        &edited(r#"from = "arr[1]""#, r#"from = "arr[5]""#),
        "from = \"arr",
        "\"arr[5]\"",
        "index 5 is out of range",
    );
    SPEC.only(
        &edited(r#"{ to = "cfg.class""#, r#"{ to = "cfg.nope""#),
        "{ to = \"cfg",
        "\"cfg.nope\"",
        "has no sub-field `nope`",
    );
    SPEC.among(
        &edited(r#"selector = "sel""#, r#"selector = "a""#),
        "selector = ",
        "\"a\"",
        "not an enum",
    );
}

/// A lowering path goes wrong in the words a rule's path does (one resolver serves both).
#[test]
fn path_errors_read_as_in_rules() {
    SPEC.only(
        &edited(r#"{ to = "cfg.class""#, r#"{ to = "cfg.class.x""#),
        "{ to = \"cfg",
        "\"cfg.class.x\"",
        "target: `cfg.class` is a bit range, it has no members",
    );
    SPEC.only(
        &edited(r#"from = "arr[1]""#, r#"from = "arr.x""#),
        "from = \"arr",
        "\"arr.x\"",
        "source: `arr` is an array; index it (`arr[0]`) before `.x`",
    );
    SPEC.only(
        &edited(r#"{ to = "x", from = "a""#, r#"{ to = "x", from = "a[0]""#),
        r#"{ to = "x""#,
        "\"a[0]\"",
        "source: `a` is an integer, it has no members",
    );
    SPEC.only(
        &edited(r#"from = "arr[1]""#, r#"from = "arr[5]""#),
        "from = \"arr",
        "\"arr[5]\"",
        "source: index 5 is out of range for `arr` (2 elements)",
    );
}

#[test]
fn width_and_type_mismatches() {
    SPEC.only(
        &edited(r#"{ to = "x", from = "a""#, r#"{ to = "x", from = "w""#),
        r#"{ to = "x""#,
        "\"w\"",
        "width mismatch: `w` is 32 bits (u32) but `x` is 8 bits (u8)",
    );
    SPEC.only(
        &edited(r#"{ to = "x", from = "a""#, r#"{ to = "x", from = "sel""#),
        r#"{ to = "x""#,
        "\"sel\"",
        "type mismatch",
    );
    SPEC.only(
        &edited(
            r#"{ to = "op", value = 0x20"#,
            r#"{ to = "op", value = 0x120"#,
        ),
        "value = ",
        "0x120",
        "does not fit `op` (8 bits)",
    );
}

#[test]
fn transforms() {
    SPEC.only(
        &edited(
            r#"{ to = "x", from = "a","#,
            r#"{ to = "x", from = "a", via = "rotate","#,
        ),
        "via = ",
        "\"rotate\"",
        "unknown transform `rotate` (known: copy, narrow, resolve_addr)",
    );
    SPEC.only(
        &edited(
            r#"{ to = "x", from = "a","#,
            r#"{ to = "x", from = "a", via = "narrow","#,
        ),
        "via = ",
        "\"narrow\"",
        "`narrow` is for a narrower target",
    );
    SPEC.only(
        &edited(
            r#"{ to = "w", from = "w","#,
            r#"{ to = "w", from = "w", via = "resolve_addr","#,
        ),
        "via = ",
        "\"resolve_addr\"",
        "resolve_addr: the source `w` is u32, not an address union",
    );
}

#[test]
fn evidence_and_inferred_notes() {
    SPEC.only(
        &edited(
            r#"{ to = "x", from = "a", confidence = "HIGH", evidence = [{ source = "src §1" }] }"#,
            r#"{ to = "x", from = "a", confidence = "HIGH" }"#,
        ),
        "{ to = ",
        "\"x\"",
        "the mapping to `x` has no evidence",
    );
    SPEC.only(
        &edited(r#"note = "by name", "#, ""),
        r#"{ to = "y""#,
        "\"LOW/INFERRED\"",
        "tagged `LOW/INFERRED` but has no `note`",
    );
    SPEC.only(
        &edited(
            r#"confidence = "HIGH", evidence = [{ source = "src §1" }] }]"#,
            r#"confidence = "HIGH", evidence = [] }]"#,
        ),
        "route = [{ abi = ",
        "\"v1\"",
        "has no evidence",
    );
}

#[test]
fn overlapping_targets() {
    SPEC.only(
        &edited(
            r#"{ to = "op", value = 0x20"#,
            r#"{ to = "x", value = 0x20"#,
        ),
        r#"{ to = "x", value"#,
        "\"x\"",
        "`x` overlaps `x`",
    );
}

#[test]
fn kinds_abis_and_messages() {
    SPEC.only(
        &edited(r#"value = "A""#, r#"value = "Z""#),
        "value = ",
        "\"Z\"",
        "`Z` is not an enumerator of SEL (A, B)",
    );
    SPEC.among(
        &edited(r#"route = [{ abi = "v1""#, r#"route = [{ abi = "v9""#),
        "route = [{ abi = ",
        "\"v9\"",
        "unknown abi `v9` (declared: v1)",
    );
    SPEC.only(
        &edited("default = true\n", ""),
        "name = ",
        "\"L\"",
        "one `[[lowering.abi]]` must be `default = true`",
    );
    SPEC.only(
        &edited(r#"message = "bad %u""#, r#"message = "bad %d""#),
        "message = ",
        "\"bad %d\"",
        "only `%u`",
    );
    SPEC.among(
        &edited(r#"extension = "required""#, r#"extension = "maybe""#),
        "extension = \"m",
        "\"maybe\"",
        "`extension` is `required` or `ignored`",
    );
    // An ignored extension cannot be read, and needs no missing_extension message.
    let bad = edited(r#"extension = "required""#, r#"extension = "ignored""#);
    SPEC.among(
        &bad,
        "from = \"ext",
        "\"ext.e1\"",
        "extension is `ignored`; it cannot read `ext.` fields",
    );
    SPEC.among(
        &bad,
        "missing_extension = { message = ",
        "\"needs E\"",
        "only for a kind whose extension is `required`",
    );
}

#[test]
fn the_real_spec_loads_with_its_lowering() {
    let m = dmaspec_testkit::model();
    assert_eq!(m.lowerings.len(), 1);
    assert_eq!(m.lowerings[0].kinds.len(), 4);
}
