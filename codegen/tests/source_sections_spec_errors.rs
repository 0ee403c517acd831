//! A source's declared sections (`sections` in `[[source]]`) and the citations that name
//! them: each citation resolves to exactly one declared heading, or the loader says why
//! not, at the citation.

use dmaspec_codegen::model::{Evidence, Model, TypeKind};
use dmaspec_testkit::spec::Fixture;

/// Confidence, one scale, a source `doc` with sections written the ways the real pages
/// write them (numbered, named with a ` — ` tail, backticks, a heading that repeats), a
/// source `plain` without sections, and one architecture.
const SPEC: Fixture = Fixture::whole(
    r#"[confidence]
levels = [{ name = "confirmed", doc = "Read from a binary." }]

[[scale]]
name = "s"
doc = "The test scale."
levels = [{ tag = "HIGH", common = "confirmed" }]

[[source]]
id = "doc"
title = "A page with headings"
file = "doc.md"
scale = "s"
sections = [
  "Abstract",
  "2. STRUCT #1 — DIRECT2D (`DMA_DIRECT2D_STRUCT`, opcode `0xb8`, 64 B) [HIGH/OBSERVED]",
  "2.1 `DMA_INDIRECT_FLAGS` (1 byte)",
  "4. Shared sub-structs",
  "Static arm — DIRECT2D record (op `0xD4` = 212)",
  "Form A — Pool bound-check indirect (op `0xD6` = 214)",
  "SwitchQueueInstance / ResetQueueInstance — the queue micro-ops",
  "SwitchQueueInstance (op `0xCF` = 207) `@0x1264240`",
  "`assign64bitAddr` — the 8-byte ADDR8 address base",
  "INDIRECT16B — the non-MX 3-D gather (16 bytes)",
  "Purpose",
  "INDIRECT20B — the non-MX 4-D gather (20 bytes)",
  "Purpose",
]

[[source]]
id = "plain"
title = "A page whose sections are not declared"
file = "plain.md"
scale = "s"

[[arch]]
name = "a1"
nc = 1
doc = "First."
"#,
);

/// An enum `E` whose evidence is one record citing `cite`, and whose enumerator `A` has
/// an alias citing `alias`.
fn cited(cite: &str, alias: &str) -> String {
    format!(
        r#"[[enum]]
name = "E"
c_name = "E"
repr = "u8"
doc = "An enum."
confidence = "HIGH"
evidence = [{{ source = "{cite}" }}]
values = [{{ name = "A", value = 1, aliases = [{{ name = "AA", source = "{alias}" }}] }}]
"#
    )
}

fn enum_e(m: &Model) -> &dmaspec_codegen::model::TypeDef {
    m.types.iter().find(|t| t.name == "E").expect("E loads")
}

/// The heading the evidence of `E` resolves to, when it cites `cite`.
fn section_of(cite: &str) -> Option<String> {
    let m = SPEC.load(&cited(cite, "doc")).expect("the spec loads");
    let ev: &Evidence = &enum_e(&m).evidence[0];
    ev.section.clone()
}

#[test]
fn citations_resolve_to_one_declared_heading() {
    let struct1 = "2. STRUCT #1 — DIRECT2D (`DMA_DIRECT2D_STRUCT`, opcode `0xb8`, 64 B) \
                   [HIGH/OBSERVED]";
    let cases: [(&str, Option<&str>); 11] = [
        // by number, as seed 004 is cited
        ("doc §2", Some(struct1)),
        ("doc §2.1", Some("2.1 `DMA_INDIRECT_FLAGS` (1 byte)")),
        // a number, then a place inside it (supp-field-tables "§4 Table 4.4a")
        ("doc §4 Table 4.4a", Some("4. Shared sub-structs")),
        // by heading up to ` — ` (seed 000 "§Static arm"), backticks dropped
        (
            "doc §Static arm",
            Some("Static arm — DIRECT2D record (op `0xD4` = 212)"),
        ),
        (
            "doc §assign64bitAddr",
            Some("`assign64bitAddr` — the 8-byte ADDR8 address base"),
        ),
        // the key, then a place in it (seed-000-txt "§… arm (CORRECTION)")
        (
            "doc §Static arm (CORRECTION)",
            Some("Static arm — DIRECT2D record (op `0xD4` = 212)"),
        ),
        // the heading's opening words past ` — `, up to ` (`
        (
            "doc §Form A — Pool bound-check indirect",
            Some("Form A — Pool bound-check indirect (op `0xD6` = 214)"),
        ),
        // a key that begins another key: the exact one wins, and the shorter opening
        // words pick the heading they open
        (
            "doc §SwitchQueueInstance / ResetQueueInstance",
            Some("SwitchQueueInstance / ResetQueueInstance — the queue micro-ops"),
        ),
        (
            "doc §SwitchQueueInstance",
            Some("SwitchQueueInstance (op `0xCF` = 207) `@0x1264240`"),
        ),
        // the whole document
        ("doc", None),
        // a repeated heading, reached through the section it is in
        (
            "doc §INDIRECT20B Purpose",
            Some("INDIRECT20B — the non-MX 4-D gather (20 bytes)"),
        ),
    ];
    for (cite, want) in cases {
        assert_eq!(section_of(cite).as_deref(), want, "{cite}");
    }
}

#[test]
fn a_source_without_sections_is_not_checked() {
    assert_eq!(section_of("plain §anything at all"), None);
}

#[test]
fn the_model_and_json_list_the_declared_sections() {
    let m = SPEC.prelude().expect("the prelude loads");
    let doc = m.sources.iter().find(|s| s.id == "doc").unwrap();
    let sections = doc.sections.as_ref().expect("doc declares sections");
    assert_eq!(sections.len(), 13);
    assert_eq!(sections[0], "Abstract");
    let plain = m.sources.iter().find(|s| s.id == "plain").unwrap();
    assert!(plain.sections.is_none());
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["sources"][0]["sections"][4], sections[4].as_str());
    assert!(json["sources"][1]["sections"].is_null());
}

/// `E`'s evidence citing `cite` is rejected, at the citation, with `message`.
#[track_caller]
fn rejected(cite: &str, message: &str) {
    SPEC.only(
        &cited(cite, "doc"),
        "evidence",
        &format!("\"{cite}\""),
        message,
    );
}

#[test]
fn a_citation_of_an_undeclared_section() {
    rejected(
        "doc §9",
        "`doc` declares no section `§9`: a citation names a section by its number (`§6.5`) \
         or its heading up to ` — ` (`§Static arm`), then optionally a place in it \
         (`§4 Table 4.4a`) (sections: Abstract, 2, 2.1, 4, Static arm, Form A, \
         SwitchQueueInstance / ResetQueueInstance, SwitchQueueInstance (op 0xCF = 207) \
         @0x1264240, assign64bitAddr, INDIRECT16B, Purpose, INDIRECT20B, Purpose)",
    );
}

#[test]
fn a_misspelt_section_gets_a_suggestion() {
    rejected(
        "doc §Abstrct",
        "`doc` declares no section `§Abstrct`; did you mean `Abstract`?",
    );
}

#[test]
fn a_heading_that_is_not_a_key_is_not_a_section() {
    // "Conventions" is a bold paragraph of supp-field-tables, not a heading: the spec
    // cited it that way once.
    rejected(
        "doc Conventions",
        "`doc` declares no section `§Conventions`",
    );
}

#[test]
fn a_citation_of_a_repeated_heading_is_ambiguous() {
    rejected(
        "doc §Purpose",
        "`§Purpose` could be any of 2 sections of `doc` (Purpose, Purpose): cite more of \
         the heading, or the section it is in with this as the place in it",
    );
}

#[test]
fn an_enumerator_alias_citing_an_undeclared_section() {
    let bad = cited("doc §2", "doc §3");
    SPEC.only(
        &bad,
        "aliases",
        r#""doc §3""#,
        "`doc` declares no section `§3`",
    );
    let m = SPEC.load(&cited("doc §2", "doc §2.1")).unwrap();
    let TypeKind::Enum { values, .. } = &enum_e(&m).kind else {
        panic!("E is an enum")
    };
    assert_eq!(
        values[0].aliases[0].section.as_deref(),
        Some("2.1 `DMA_INDIRECT_FLAGS` (1 byte)")
    );
}

#[test]
fn a_section_without_heading_text() {
    let bad = r#"[[source]]
id = "more"
title = "Another page"
file = "more.md"
scale = "s"
sections = ["1. Intro", " "]
"#;
    SPEC.only(
        bad,
        "sections",
        r#"" ""#,
        "a section of `more` needs its heading text",
    );
}
