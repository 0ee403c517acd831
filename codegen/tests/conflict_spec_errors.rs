//! The loader rejects a bad `[[conflict]]` at the value at fault: fewer than two readings,
//! nothing it is about, a name that is neither a type nor a table, a reading with a type,
//! a reading without evidence, a duplicate name.

use dmaspec_testkit::spec::Fixture;

/// The test's own types, after the shared provenance (`HIGH` on scale `s`, source `src`).
const OWN: &str = r#"[[arch]]
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
values = [{ name = "W1", value = 0x10 }]

[[table]]
name = "size_of"
over = "OPCODE"
doc = "A table."
values = [{ keys = ["W1"], value = 4 }]
default = 0
confidence = "HIGH"
evidence = [{ source = "src §1" }]
"#;

const SPEC: Fixture = Fixture::new(OWN);

const VALID: &str = r#"[[conflict]]
name = "c"
doc = "Two sources disagree."
about = ["OPCODE", "size_of"]
readings = [
  { name = "r1", doc = "One.", confidence = "HIGH", evidence = [{ source = "src §1" }] },
  { name = "r2", doc = "Two.", confidence = "HIGH", evidence = [{ source = "src §2" }] },
]
"#;

fn edited(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from:?} in VALID");
    VALID.replacen(from, to, 1)
}

#[test]
fn a_valid_conflict_loads_with_its_readings() {
    let m = SPEC.load(VALID).expect("valid");
    assert_eq!(m.conflicts.len(), 1);
    let c = &m.conflicts[0];
    assert_eq!(c.about, ["OPCODE", "size_of"]);
    let names: Vec<&str> = c.readings.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["r1", "r2"]);
    assert_eq!(c.readings[1].evidence[0].cite, "src §2");
}

#[test]
fn one_reading_is_not_a_conflict() {
    let bad = edited(
        "  { name = \"r2\", doc = \"Two.\", confidence = \"HIGH\", evidence = [{ source = \"src §2\" }] },\n",
        "",
    );
    SPEC.only(
        &bad,
        "name = ",
        "\"c\"",
        "conflict `c` has 1 reading(s); a conflict needs at least two",
    );
}

#[test]
fn a_conflict_names_what_it_is_about() {
    SPEC.only(
        &edited("about = [\"OPCODE\", \"size_of\"]", "about = []"),
        "name = ",
        "\"c\"",
        "conflict `c` is about nothing: list the types or tables in `about`",
    );
    SPEC.only(
        &edited("\"size_of\"]", "\"sizeof\"]"),
        "about = [\"OPCODE\", ",
        "\"sizeof\"",
        "conflict `c` is about `sizeof`, which is neither a type, a table nor a register or field (`FILE.BUNDLE.register[.field]`)",
    );
}

#[test]
fn a_reading_has_no_type_and_needs_evidence() {
    SPEC.only(
        &edited(
            "{ name = \"r1\", doc",
            "{ name = \"r1\", type = \"u8\", doc",
        ),
        "type = ",
        "\"u8\"",
        "conflict reading `r1` has a type; a field's other reading of its bytes belongs in \
         that field's `alternatives`",
    );
    SPEC.only(
        &edited(
            "confidence = \"HIGH\", evidence = [{ source = \"src §1\" }] }",
            "confidence = \"HIGH\", evidence = [] }",
        ),
        "{ name = ",
        "\"r1\"",
        "alternative reading `r1` needs at least one evidence record",
    );
}

#[test]
fn a_conflict_name_is_declared_once() {
    let twice = format!("{VALID}\n{VALID}");
    SPEC.only(
        &twice,
        "\n[[conflict]]\nname = ",
        "\"c\"",
        "duplicate conflict `c`",
    );
}
