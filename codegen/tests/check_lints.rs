//! `dmaspec check`'s lints (dmaspec_codegen::lint): for each, a small spec on a shared base
//! that fires it (its rendered warning snapshotted with insta) and one that does not; the
//! allows; and the loader's own errors, which `check` reports as errors.

use dmaspec_codegen::diagnostics::Severity;
use dmaspec_codegen::lint::LINTS;
use dmaspec_codegen::{SpecError, SpecErrors};
use dmaspec_testkit::spec::{Fixture, one_byte_struct};

/// A source with two numbered sections, both cited by `BASE`, and a second scale.
const BASE: Fixture = Fixture::new(
    r#"
[[scale]]
name = "t"
doc = "Another scale."
levels = [{ tag = "SEEN", common = "confirmed" }]

[[source]]
id = "page"
title = "Page"
file = "page.md"
scale = "s"
sections = ["1. Layout", "2. Rules"]

[[struct]]
name = "BASE"
c_name = "BASE_T"
size = 4
doc = "Base."
confidence = "HIGH"
evidence = [{ source = "page §1" }]
field = [
  { off = 0, name = "a", type = "u16", doc = "A.", evidence = [{ source = "page §1" }] },
  { off = 2, name = "b", type = "u16", doc = "B.", evidence = [{ source = "page §2" }] },
]
"#,
);

/// What `check` says of `snippet` on the base.
fn check(snippet: &str) -> SpecErrors {
    BASE.check(snippet)
}

/// The findings of one lint.
fn of(found: &SpecErrors, lint: &str) -> Vec<SpecError> {
    found
        .0
        .iter()
        .filter(|e| e.lint == Some(lint))
        .cloned()
        .collect()
}

/// `bad` fires `lint` once (and nothing else); `good` fires nothing. Returns the rendered
/// warning for the snapshot.
#[track_caller]
fn fires(lint: &str, bad: &str, good: &str) -> String {
    let found = check(bad);
    assert_eq!(
        of(&found, lint).len(),
        1,
        "expected one `{lint}`:\n{}",
        found.render()
    );
    assert_eq!(
        found.0.len(),
        1,
        "expected only `{lint}`:\n{}",
        found.render()
    );
    assert_eq!(found.0[0].severity, Severity::Warning);
    let clean = check(good);
    assert!(clean.0.is_empty(), "expected nothing:\n{}", clean.render());
    found.render()
}

/// A one-field struct `X` (u8 `x`, declared `attrs`) with `rule` as its rule, if any.
fn one_field(attrs: &str, rule: &str) -> String {
    format!("\n{}{rule}\n", one_byte_struct("page §1", attrs))
}

fn rule(expr: &str, extra: &str) -> String {
    format!(
        "[[struct.rule]]\nname = \"x_ok\"\nexpr = \"{expr}\"\nmessage = \"x must be ok\"\n{extra}\nevidence = [{{ source = \"page §2\" }}]\n"
    )
}

const CITED: &str = r#"evidence = [{ source = "page §1" }]"#;

#[test]
fn the_base_is_clean() {
    let found = BASE.check("");
    // An empty file is the loader's error; the base itself has no finding.
    assert!(
        found.0.iter().all(|e| e.lint.is_none()),
        "{}",
        found.render()
    );
}

#[test]
fn evidence_without_section() {
    let text = fires(
        "evidence_without_section",
        &one_field(r#"evidence = [{ source = "page" }]"#, ""),
        &one_field(CITED, ""),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn field_without_evidence() {
    let bitfield = |sub: &str| {
        format!(
            r#"
[[bitfield]]
name = "BF"
c_name = "BF_T"
repr = "u8"
doc = "BF."
confidence = "HIGH"
evidence = [{{ source = "page §1" }}]
fields = [
  {{ bits = "0..3", name = "lo", doc = "Lo.", {sub} }},
  {{ bits = "4..7", name = "hi", doc = "Hi.", evidence = [{{ source = "page §1" }}] }},
]
"#
        )
    };
    let text = fires(
        "field_without_evidence",
        &bitfield(""),
        &bitfield(r#"evidence = [{ source = "page §1 row lo" }]"#),
    );
    insta::assert_snapshot!(text);
}

/// A register file with one register `doorbell` whose evidence is `register_evidence`
/// and whose field `val` declares `field_attrs`; the register declares `register_attrs`.
fn regfile(register_evidence: &str, register_attrs: &str, field_attrs: &str) -> String {
    format!(
        r#"
[[regfile]]
name = "RF"
doc = "A register file."
size = 0x100
bus_width = 32
confidence = "HIGH"
evidence = [{{ source = "page §1" }}]

[[regfile.bundle]]
name = "Q"
offset = 0x0
size = 0x10

[[regfile.bundle.register]]
name = "doorbell"
offset = 0x0
access = "RW"
evidence = [{register_evidence}]
{register_attrs}

[[regfile.bundle.register.field]]
name = "val"
bits = "23:0"
{field_attrs}
"#
    )
}

#[test]
fn register_members_are_linted_like_fields() {
    // A register field no row of its register names leans on the register's evidence.
    let text = fires(
        "field_without_evidence",
        &regfile(r#"{ source = "page §1", names = "doorbell" }"#, "", ""),
        &regfile(
            r#"{ source = "page §1", names = "`val[23:0]` | RW" }"#,
            "",
            "",
        ),
    );
    insta::assert_snapshot!(text);
    let own = r#"evidence = [{ source = "page §1", names = "val" }]"#;
    assert!(
        check(&regfile(r#"{ source = "page §1" }"#, "", own))
            .0
            .is_empty()
    );
    // The register's allow covers its fields.
    let allowed = regfile(
        r#"{ source = "page §1", names = "doorbell" }"#,
        r#"allow = { field_without_evidence = "the page lists the fields as a group" }"#,
        "",
    );
    let found = check(&allowed);
    assert!(found.0.is_empty(), "{}", found.render());
    // A register that cites only whole documents.
    let found = check(&regfile(r#"{ source = "page", names = "val" }"#, "", ""));
    let e = &of(&found, "evidence_without_section");
    assert_eq!(e.len(), 1, "{}", found.render());
    assert!(e[0].message.contains("of register `doorbell`"), "{}", e[0]);
}

#[test]
fn uncited_section() {
    let source = |allow: &str| {
        format!(
            "[[source]]\nid = \"more\"\ntitle = \"More\"\nfile = \"more.md\"\nscale = \"s\"\n{allow}\nsections = [\"Purpose\"]\n"
        )
    };
    let text = fires(
        "uncited_section",
        &source(""),
        &source(r#"allow = { uncited_section = "prose only" }"#),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn a_numbered_section_is_cited_through_its_subsections() {
    let page = "[[source]]\nid = \"more\"\ntitle = \"More\"\nfile = \"more.md\"\nscale = \"s\"\nsections = [\"4. Words\", \"4.1 The first\"]\n";
    let cites = one_field(r#"evidence = [{ source = "more §4.1" }]"#, "");
    let found = check(&format!("{page}{cites}"));
    assert!(found.0.is_empty(), "{}", found.render());
}

#[test]
fn rule_reads_unknown() {
    let text = fires(
        "rule_reads_unknown",
        &one_field("unknown = true", &rule("x < 16", "")),
        &one_field(CITED, &rule("x < 16", "")),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn rule_outranks_field() {
    let field = r#"confidence = "LOW", evidence = [{ source = "page §1" }]"#;
    let text = fires(
        "rule_outranks_field",
        &one_field(field, &rule("x < 16", "")),
        &one_field(field, &rule("x < 16", "confidence = \"LOW\"")),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn constant_rule_always_holds() {
    let text = fires(
        "constant_rule",
        &one_field(CITED, &rule("x <= 255", "")),
        &one_field(CITED, &rule("x <= 100", "")),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn constant_rule_never_holds() {
    // Only x = 16 holds: a sample that missed it would call the rule constant.
    let rare = "x % 16 == 0 && x != 0 && x < 32";
    let found = check(&one_field(CITED, &rule(rare, "")));
    assert!(found.0.is_empty(), "{}", found.render());
    let text = fires(
        "constant_rule",
        &one_field(CITED, &rule("x > 255", "")),
        &one_field(CITED, &rule(rare, "")),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn unknown_explained() {
    let record = |gap: &str| {
        format!(
            r#"
[[struct]]
name = "REC"
c_name = "REC_T"
size = 2
top_level = true
doc = "Rec."
confidence = "HIGH"
evidence = [{{ source = "page §1" }}]
field = [{{ off = 0, name = "ring_size", type = "u16", doc = "Ring size.", evidence = [{{ source = "page §1" }}] }}]

[[gap]]
name = "{gap}"
word = "REC"
reason = "The page names it without its bytes."
confidence = "HIGH"
evidence = [{{ source = "page §2" }}]
"#
        )
    };
    let text = fires(
        "unknown_explained",
        &record("RING_SIZE"),
        &record("ring_base"),
    );
    insta::assert_snapshot!(text);
}

#[test]
fn an_allow_suppresses_its_lint_and_an_unused_one_is_reported() {
    let allowed = r#"evidence = [{ source = "page" }], allow = { evidence_without_section = "the page has one table" }"#;
    assert!(check(&one_field(allowed, "")).0.is_empty());
    let unused =
        r#"evidence = [{ source = "page §1" }], allow = { evidence_without_section = "stale" }"#;
    let found = check(&one_field(unused, ""));
    assert_eq!(of(&found, "unused_allow").len(), 1, "{}", found.render());
    insta::assert_snapshot!(found.render());
    let unknown = r#"evidence = [{ source = "page §1" }], allow = { no_such_lint = "why" }"#;
    let found = check(&one_field(unknown, ""));
    let e = &of(&found, "unused_allow")[0];
    assert!(e.message.contains("names no lint `no_such_lint`"), "{e}");
}

#[test]
fn every_lint_is_listed() {
    let names: Vec<&str> = LINTS.iter().map(|(n, _)| *n).collect();
    for lint in [
        "evidence_without_section",
        "field_without_evidence",
        "uncited_section",
        "rule_reads_unknown",
        "rule_outranks_field",
        "constant_rule",
        "unknown_explained",
        "unused_allow",
    ] {
        assert!(names.contains(&lint), "{lint} is not in LINTS");
    }
}

/// What the loader already rejects, `check` reports as errors (no lint name), every one in
/// the same pass as the lints of the files that parse.
#[test]
fn the_loaders_checks_are_errors_in_check() {
    let cases = [
        // A field without evidence.
        (one_field("", ""), "field `x` has no evidence"),
        // An evidence tag off its source's scale.
        (
            one_field(
                r#"evidence = [{ source = "page §1", confidence = "SEEN" }]"#,
                "",
            ),
            "`SEEN` is a tag of scale `t`, but `page` tags its claims on scale `s`",
        ),
        // An alternative pointing at no type.
        (
            one_field(
                r#"evidence = [{ source = "page §1" }], alternatives = [{ name = "y", type = "NOPE", doc = "Y.", confidence = "LOW", evidence = [{ source = "page §2" }] }]"#,
                "",
            ),
            "NOPE",
        ),
        // Names that collide after mangling: a second `BASE_T`.
        (one_field(CITED, "").replace("X_T", "BASE_T"), "BASE_T"),
    ];
    for (snippet, message) in cases {
        let found = check(&snippet);
        let errors: Vec<&SpecError> = (found.0.iter())
            .filter(|e| e.severity == Severity::Error)
            .collect();
        assert!(
            errors
                .iter()
                .any(|e| e.lint.is_none() && e.message.contains(message)),
            "expected an error saying `{message}`:\n{}",
            found.render()
        );
    }
    // An alias citing no declared source.
    let alias = one_field(CITED, "").replace(
        "doc = \"X.\"\nconfidence",
        "doc = \"X.\"\naliases = [{ name = \"Y\", source = \"nowhere §1\" }]\nconfidence",
    );
    let found = check(&alias);
    assert!(
        found
            .0
            .iter()
            .any(|e| e.message.contains("unknown source `nowhere`")),
        "{}",
        found.render()
    );
}

#[test]
fn load_errors_and_field_lints_come_in_one_pass() {
    let snippet = format!(
        "{}\n[[struct]]\nname = \"Y\"\nc_name = \"Y_T\"\nsize = 1\ndoc = \"Y.\"\nconfidence = \"NOPE\"\nevidence = [{{ source = \"page §1\" }}]\nfield = [{{ off = 0, name = \"y\", type = \"u8\", doc = \"Y.\", evidence = [{{ source = \"page §1\" }}] }}]\n",
        one_field(r#"evidence = [{ source = "page" }]"#, "")
    );
    let found = check(&snippet);
    assert_eq!(found.count(Severity::Error), 1, "{}", found.render());
    assert_eq!(
        of(&found, "evidence_without_section").len(),
        1,
        "{}",
        found.render()
    );
    assert!(
        found.summary().starts_with("1 error and 1 warning"),
        "{}",
        found.summary()
    );
}
