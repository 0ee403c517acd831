//! The loader's checks on words chosen by a sub-opcode (`sub_opcode = { envelope, field,
//! value }`, EXTENDED_INST's RDMA words): each bad sub-word is reported at the value at
//! fault with what to do, and a good one loads with its selector resolved.

use dmaspec_testkit::spec::Fixture;

/// Architectures `a1`, `a2`, `a3`; `OPCODE` with `EXT` = 0xf0 and `OTHER` = 0x20; the sub-opcode
/// enum `SUB` (`GEN` = 8, alias `G8`; `START` = 9; `LATE` = 7 only in `a2`); and the
/// envelope `ENV` (opcode 0xf0 in `a1` and `a2`) with `sel` at byte 1; and `ENV_RAW`
/// (opcode 0x20) whose `sel` is a `u8`.
const SPEC: Fixture = Fixture::new(
    r#"[[arch]]
name = "a1"
nc = 1
doc = "First."

[[arch]]
name = "a2"
nc = 2
doc = "Second."

[[arch]]
name = "a3"
nc = 3
doc = "Third; the envelope is not in it."

[[enum]]
name = "OPCODE"
c_name = "OP"
repr = "u8"
doc = "Opcodes."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [
  { name = "EXT", value = 0xf0 },
  { name = "OTHER", value = 0x20 },
]

[[enum]]
name = "SUB"
c_name = "SUB_C"
repr = "u8"
doc = "Sub-opcodes."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [
  { name = "GEN", value = 8, aliases = [{ name = "G8", source = "src §1" }] },
  { name = "START", value = 9 },
  { name = "LATE", value = 7, arch = ["a2"] },
]

[[struct]]
name = "ENV"
c_name = "ENV_C"
size = 64
opcode = "EXT"
arch = ["a1", "a2"]
doc = "The envelope."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "opcode", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, name = "sel", type = "SUB", evidence = [{ source = "src" }] },
  { off = 2, size = 62, name = "rest", unknown = true },
]

[[struct]]
name = "ENV_RAW"
c_name = "ENV_RAW_C"
size = 64
opcode = "OTHER"
arch = ["a1", "a2"]
doc = "An envelope whose selector is a plain byte."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "opcode", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, name = "sel", type = "u8", evidence = [{ source = "src" }] },
  { off = 2, size = 62, name = "rest", unknown = true },
]
"#,
);

/// A sub-word `name` bound to `opcode` in `arch`, whose byte 1 is `sel_type`, with
/// `sub_opcode = { sub }` on line 7.
fn sub_word(name: &str, opcode: &str, arch: &str, sub: &str, sel_type: &str) -> String {
    format!(
        r#"[[struct]]
name = "{name}"
c_name = "{name}_C"
size = 64
opcode = "{opcode}"
arch = {arch}
sub_opcode = {{ {sub} }}
doc = "A sub-word."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
field = [
  {{ off = 0, name = "opcode", type = "OPCODE", evidence = [{{ source = "src" }}] }},
  {{ off = 1, name = "sel", type = "{sel_type}", evidence = [{{ source = "src" }}] }},
  {{ off = 2, size = 62, name = "rest", unknown = true }},
]
"#
    )
}

const BOTH: &str = r#"["a1", "a2"]"#;
const GEN: &str = r#"envelope = "ENV", field = "sel", value = "GEN""#;

#[test]
fn a_good_sub_word_loads_with_its_selector() {
    let good = sub_word(
        "S_GEN",
        "EXT",
        BOTH,
        GEN.replace("GEN\"", "G8\"").as_str(),
        "SUB",
    );
    let model = SPEC.load(&good).unwrap_or_else(|e| panic!("{e}"));
    let w = model.words().find(|w| w.name == "S_GEN").unwrap();
    let s = w
        .opcode()
        .and_then(|o| o.sub.as_ref())
        .expect("a sub-opcode");
    assert_eq!((s.envelope.as_str(), s.field.as_str()), ("ENV", "sel"));
    assert_eq!((s.offset, s.size, s.value), (1, 1, 8));
    // The alias resolves to the enumerator's own name.
    assert_eq!(s.enumerator, "GEN");
    // The envelope has no selector; the two share opcode 0xf0 in both architectures.
    let env = model.words().find(|w| w.name == "ENV").unwrap();
    assert!(env.opcode().unwrap().sub.is_none());
}

#[test]
fn envelope_that_is_not_a_word() {
    let bad = sub_word(
        "S",
        "EXT",
        BOTH,
        r#"envelope = "ENVV", field = "sel", value = "GEN""#,
        "SUB",
    );
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""ENVV""#,
        "envelope `ENVV` of `S` is not a word; did you mean `ENV`?",
    );
}

#[test]
fn opcode_that_is_not_the_envelopes() {
    let bad = sub_word("S", "OTHER", BOTH, GEN, "SUB");
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""ENV""#,
        "`S` has opcode 0x20 but its envelope `ENV` has 0xf0: bind `S` to `opcode = \"EXT\"`",
    );
}

#[test]
fn sub_word_in_an_architecture_its_envelope_lacks() {
    let bad = sub_word("S", "EXT", r#"["a1", "a3"]"#, GEN, "SUB");
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""ENV""#,
        "`S` ships in architecture `a3`, where its envelope `ENV` does not: limit `S`'s `arch` \
         to `a1`, `a2`",
    );
}

#[test]
fn selector_field_missing_from_the_envelope() {
    let bad = sub_word(
        "S",
        "EXT",
        BOTH,
        r#"envelope = "ENV", field = "sell", value = "GEN""#,
        "SUB",
    );
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""sell""#,
        "envelope `ENV` has no field `sell`; did you mean `sel`?",
    );
}

#[test]
fn selector_field_of_another_type_than_the_envelopes() {
    let bad = sub_word("S", "EXT", BOTH, GEN, "u8");
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""sel""#,
        "`S.sel` is `u8` at offset 1, size 1, but its envelope's is `SUB` at offset 1, size 1: \
         declare it as the envelope does",
    );
}

#[test]
fn value_that_is_not_an_enumerator() {
    let bad = sub_word(
        "S",
        "EXT",
        BOTH,
        r#"envelope = "ENV", field = "sel", value = "GENN""#,
        "SUB",
    );
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""GENN""#,
        "`GENN` is not an enumerator of `SUB`; did you mean `GEN`?",
    );
}

#[test]
fn value_not_in_every_architecture_of_the_sub_word() {
    let bad = sub_word(
        "S",
        "EXT",
        BOTH,
        r#"envelope = "ENV", field = "sel", value = "LATE""#,
        "SUB",
    );
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""LATE""#,
        "enumerator `LATE` is not in architecture `a1`, where `S` ships: limit `S`'s `arch` to `a2`",
    );
}

#[test]
fn one_value_bound_twice_in_one_architecture() {
    // The first sub-word ends on line 15; the second's sub_opcode is on line 23.
    let bad = format!(
        "{}\n{}",
        sub_word("S_A", "EXT", r#"["a1"]"#, GEN, "SUB"),
        sub_word("S_B", "EXT", BOTH, GEN, "SUB"),
    );
    SPEC.only_at(
        &bad,
        23,
        57,
        r#""GEN""#,
        "sub-opcode `GEN` of `ENV` is already bound to `S_A` in architecture `a1`: give one of \
         them another value, or limit their `arch` lists so that they do not meet",
    );
}

#[test]
fn one_value_in_disjoint_architectures_is_accepted() {
    let good = format!(
        "{}\n{}",
        sub_word("S_A", "EXT", r#"["a1"]"#, GEN, "SUB"),
        sub_word("S_B", "EXT", r#"["a2"]"#, GEN, "SUB"),
    );
    SPEC.load(&good).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn envelope_that_is_itself_a_sub_word() {
    let bad = format!(
        "{}\n{}",
        sub_word("S_A", "EXT", BOTH, GEN, "SUB"),
        sub_word(
            "S_B",
            "EXT",
            BOTH,
            r#"envelope = "S_A", field = "sel", value = "START""#,
            "SUB"
        ),
    );
    SPEC.only(
        &bad,
        "\"S_B\"",
        r#""S_A""#,
        "envelope `S_A` is itself a sub-word: name the word it belongs to",
    );
}

#[test]
fn misspelt_sub_opcode_key() {
    let bad = sub_word(
        "S",
        "EXT",
        BOTH,
        r#"envelop = "ENV", field = "sel", value = "GEN""#,
        "SUB",
    );
    let errs = SPEC.errors(&bad);
    assert!(
        errs.iter().any(|e| e.message.contains("envelop")),
        "{}",
        dmaspec_codegen::SpecErrors(errs.clone())
    );
}

#[test]
fn selector_field_that_is_not_an_enum() {
    let bad = sub_word(
        "S",
        "OTHER",
        BOTH,
        r#"envelope = "ENV_RAW", field = "sel", value = "GEN""#,
        "u8",
    );
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""sel""#,
        "sub-opcode field `sel` is `u8`; it must be an enum, whose enumerators name the \
         sub-opcodes",
    );
}

#[test]
fn sub_word_without_an_opcode() {
    let bad = sub_word("S", "EXT", BOTH, GEN, "SUB").replace("\nopcode = \"EXT\"\n", "\n");
    SPEC.only(
        &bad,
        "sub_opcode",
        r#""ENV""#,
        "`S` has a `sub_opcode` but no `opcode`: bind it to its envelope's opcode",
    );
}
