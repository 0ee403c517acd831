//! The loader's checks on `[[gap]]` (what the sources name but do not lay out): each bad
//! gap is reported at the value at fault with what to do, and a good one loads with its
//! opcode resolved and its evidence checked like any other.

use dmaspec_testkit::spec::Fixture;

/// A source `doc` with one declared section, `OPCODE` (`W1` = 0x10, `W2` = 0x20, alias
/// `WTWO`), and the word `WORD1` bound to `W1`.
const SPEC: Fixture = Fixture::new(
    r#"[[source]]
id = "doc"
title = "A page with headings"
file = "doc.md"
scale = "s"
sections = ["1. The one section"]

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
  { name = "W2", value = 0x20, aliases = [{ name = "WTWO", source = "src §1" }] },
]

[[struct]]
name = "WORD1"
c_name = "WORD1_C"
size = 64
opcode = "W1"
doc = "A word."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "opcode", type = "OPCODE", evidence = [{ source = "src" }] },
  { off = 1, size = 63, name = "rest", unknown = true },
]
"#,
);

const VALID: &str = r#"[[gap]]
name = "G"
opcode = "WTWO"
reason = "No page gives its bytes."
confidence = "HIGH"
evidence = [{ source = "doc §1", names = "the sentence that says so" }]
"#;

fn edited(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from:?} in VALID");
    VALID.replacen(from, to, 1)
}

#[test]
fn a_valid_gap_loads_with_its_opcode_and_evidence() {
    let m = SPEC.load(VALID).expect("valid");
    let g = &m.gaps[0];
    assert_eq!(g.name, "G");
    let op = g.opcode.as_ref().expect("an opcode");
    // The alias resolves to its enumerator, with the enumerator's value.
    assert_eq!((op.value, op.enumerator.as_str()), (0x20, "W2"));
    assert_eq!(g.word, None);
    assert_eq!(g.reason, "No page gives its bytes.");
    assert_eq!(g.evidence[0].section.as_deref(), Some("1. The one section"));
    assert_eq!(g.file, "bad.toml");
    // A part of a word: the word's own opcode is fine there.
    let part = edited("opcode = \"WTWO\"", "opcode = \"W1\"\nword = \"WORD1\"");
    let m = SPEC.load(&part).expect("a part of WORD1");
    assert_eq!(m.gaps[0].word.as_deref(), Some("WORD1"));
}

#[test]
fn a_gap_has_only_its_own_keys() {
    SPEC.only(
        &edited("reason = ", "resaon = \"x\"\nreason = "),
        "",
        "resaon",
        "unknown field `resaon`; did you mean `reason`?",
    );
}

#[test]
fn a_gap_name_is_declared_once() {
    let twice = format!("{VALID}\n{VALID}");
    SPEC.only(&twice, "\n[[gap]]\nname = ", "\"G\"", "duplicate gap `G`");
}

#[test]
fn a_gap_names_a_real_opcode_and_word() {
    SPEC.only(
        &edited("\"WTWO\"", "\"W3\""),
        "opcode = ",
        "\"W3\"",
        "`W3` is not an `OPCODE` enumerator",
    );
    SPEC.only(
        &edited("opcode = \"WTWO\"", "word = \"WORD2\""),
        "word = ",
        "\"WORD2\"",
        "gap `G` is part of `WORD2`, which is neither a word nor a record: name the word or \
         record it belongs to; did you mean `WORD1`?",
    );
}

#[test]
fn what_the_spec_specifies_is_no_gap() {
    SPEC.only(
        &edited("name = \"G\"", "name = \"WORD1\""),
        "name = ",
        "\"WORD1\"",
        "`WORD1` is specified (prelude.toml): remove the gap",
    );
    SPEC.only(
        &edited("\"WTWO\"", "\"W1\""),
        "opcode = ",
        "\"W1\"",
        "opcode `W1` (0x10) is specified as word `WORD1` (prelude.toml): remove the gap, or \
         name the word it is part of in `word`",
    );
}

#[test]
fn a_gap_says_why() {
    SPEC.only(
        &edited("reason = \"No page gives its bytes.\"\n", ""),
        "name = ",
        "\"G\"",
        "gap `G` has no reason: say in `reason` why the sources do not let it be specified",
    );
    SPEC.only(
        &edited("\"No page gives its bytes.\"", "\"  \""),
        "reason = ",
        "\"  \"",
        "gap `G` has no reason: say in `reason` why the sources do not let it be specified",
    );
}

#[test]
fn a_gap_cites_what_resolves() {
    SPEC.only(
        &edited(
            "evidence = [{ source = \"doc §1\", names = \"the sentence that says so\" }]",
            "evidence = []",
        ),
        "name = ",
        "\"G\"",
        "gap `G` has no evidence: cite the source that states it (for an INFERRED claim, what \
         it is inferred from)",
    );
    SPEC.only(
        &edited("\"doc §1\"", "\"dcc §1\""),
        "source = ",
        "\"dcc §1\"",
        "unknown source `dcc`; did you mean `doc`?: a citation starts with a declared source id",
    );
    SPEC.among(
        &edited("\"doc §1\"", "\"doc §2\""),
        "source = ",
        "\"doc §2\"",
        "`doc` declares no section `§2`",
    );
}
