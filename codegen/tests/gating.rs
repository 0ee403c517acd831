//! Confidence gating in the generator: `Builder::min_confidence` / `Gate` mark exactly the
//! items below the level `#[deprecated]`, and a spec whose levels the gate cannot place
//! fails with a clear error.

use dmaspec_codegen::emit::rust;
use dmaspec_codegen::{Gate, Level, Model};
use dmaspec_testkit::spec::{Fixture, PROVENANCE};

/// The four common levels, a scale with one tag per level, and a struct with one field
/// per tag, a rule over the confirmed and one over the inferred field, and a confirmed and
/// an inferred constant.
const SPEC: Fixture = Fixture::whole(
    r#"[confidence]
levels = [
  { name = "confirmed", doc = "Read." },
  { name = "strong", doc = "Strong." },
  { name = "inferred", doc = "Reasoned." },
  { name = "speculative", doc = "Guessed." },
]

[[scale]]
name = "s"
doc = "Scale."
levels = [
  { tag = "SEEN", common = "confirmed" },
  { tag = "SURE", common = "strong" },
  { tag = "GUESS", common = "inferred" },
  { tag = "WILD", common = "speculative" },
]

[[source]]
id = "src"
title = "Source"
file = "src.md"
scale = "s"

[[struct]]
name = "PAIR"
c_name = "PAIR_T"
size = 4
doc = "Four bytes."
confidence = "SEEN"
evidence = [{ source = "src §1" }]

[[struct.field]]
off = 0
size = 1
name = "seen"
type = "u8"
doc = "Read."
confidence = "SEEN"
evidence = [{ source = "src §1" }]

[[struct.field]]
off = 1
size = 1
name = "sure"
type = "u8"
doc = "Strong."
confidence = "SURE"
evidence = [{ source = "src §2" }]

[[struct.field]]
off = 2
size = 1
name = "guess"
type = "u8"
doc = "Reasoned."
confidence = "GUESS"
evidence = [{ source = "src §3" }]

[[struct.field]]
off = 3
size = 1
name = "wild"
type = "u8"
doc = "Guessed."
confidence = "WILD"
evidence = [{ source = "src §4" }]

[[struct.rule]]
name = "seen_small"
expr = "seen < 8"
message = "seen too big"
confidence = "SEEN"
evidence = [{ source = "src §1" }]

[[struct.rule]]
name = "guess_small"
expr = "guess < 8"
message = "guess too big"
confidence = "GUESS"
evidence = [{ source = "src §3" }]

[[constant]]
name = "GUESSED_LIMIT"
value = 7
doc = "A limit."
confidence = "GUESS"
evidence = [{ source = "src §3" }]

[[constant]]
name = "SEEN_LIMIT"
value = 8
doc = "A limit."
confidence = "SEEN"
evidence = [{ source = "src §1" }]
"#,
);

fn model() -> Model {
    SPEC.prelude().unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The names of the items right after each `#[deprecated(…)]`, in output order.
fn deprecated(code: &str) -> Vec<String> {
    let lines: Vec<&str> = code.lines().collect();
    let mut names = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.trim_start().starts_with("#[deprecated(") {
            continue;
        }
        // Every item the gate marks is public: its first line starts with `pub `.
        let item = lines[i + 1..]
            .iter()
            .map(|l| l.trim_start())
            .find(|l| l.starts_with("pub "))
            .expect("an item after the attribute");
        let item = item.trim_start_matches("pub ");
        let item = item
            .trim_start_matches("const fn ")
            .trim_start_matches("fn ")
            .trim_start_matches("const ");
        let name: String = item
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        names.push(name);
    }
    names
}

#[test]
fn a_strong_gate_marks_exactly_the_inferred_and_speculative_items() {
    let m = model();
    let gate = Gate::resolve(&m, Level::Strong).expect("the spec declares every level");
    let code = rust::render_gated(&m, "crate::runtime", Some(&gate));
    let mut got = deprecated(&code);
    got.sort();
    // The owned struct's fields, the read-only view's getters, the writable view's
    // setters, and the inferred constant; nothing confirmed or strong.
    let mut want = vec!["GUESSED_LIMIT".to_string()];
    for f in ["guess", "wild"] {
        want.push(f.into());
        want.push(f.into());
        want.push(format!("set_{f}"));
    }
    want.sort();
    assert_eq!(got, want, "{code}");
    assert!(code.contains(
        "#[deprecated(note = \"INFERRED: tagged GUESS (inferred), below the strong gate; cited: src §3\")]"
    ), "{code}");
    assert!(
        code.contains(
            "note = \"SPECULATIVE: tagged WILD (speculative), below the strong gate; cited: src §4\""
        ),
        "{code}"
    );
    // The module's own uses of what it marks do not warn.
    assert!(
        code.contains("#[allow(deprecated)]\npub struct PAIR"),
        "{code}"
    );
    assert!(
        code.contains("#[allow(deprecated)]\n/// Zero-copy views"),
        "{code}"
    );
}

#[test]
fn without_a_gate_nothing_is_deprecated() {
    let m = model();
    let code = rust::render(&m, "crate::runtime");
    assert!(!code.contains("deprecated"), "{code}");
    assert_eq!(rust::render_gated(&m, "crate::runtime", None), code);
}

#[test]
fn a_confirmed_gate_marks_the_strong_field_too() {
    let m = model();
    let gate = Gate::resolve(&m, Level::Confirmed).unwrap();
    let code = rust::render_gated(&m, "crate::runtime", Some(&gate));
    let got = deprecated(&code);
    assert!(got.iter().any(|n| n == "sure"), "{got:?}");
    assert!(
        !got.iter().any(|n| n == "seen" || n == "SEEN_LIMIT"),
        "{got:?}"
    );
}

#[test]
fn a_level_the_gate_lacks_is_an_error() {
    let odd = PROVENANCE
        .replace(r#"name = "inferred""#, r#"name = "probable""#)
        .replace(r#"common = "inferred""#, r#"common = "probable""#);
    let fixture = Fixture::whole(Box::leak(odd.into_boxed_str()));
    let m = fixture
        .prelude()
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let e = Gate::resolve(&m, Level::Confirmed).unwrap_err();
    assert_eq!(
        e.0[0].message,
        "confidence gating: the spec declares level `probable`, which is none of the gate's \
         levels (confirmed, strong, inferred, speculative); rename it or gate without \
         min_confidence"
    );
    // The shared prelude declares no `strong`: a gate there cannot say where it falls.
    let m = Fixture::new("").prelude().unwrap();
    let e = Gate::resolve(&m, Level::Strong).unwrap_err();
    assert_eq!(
        e.0[0].message,
        "confidence gating: min_confidence(strong) names a level the spec does not declare"
    );
}

#[test]
fn validation_leaves_out_the_rules_below_the_gate() {
    let m = model();
    let ungated = rust::render(&m, "crate::runtime");
    // Rule 1 (`guess_small`, GUESS = inferred) is computed ungated...
    assert!(ungated.contains("const ALWAYS: u64 = 0x0;"), "{ungated}");
    assert!(ungated.contains("let r1 = "), "{ungated}");
    let gate = Gate::resolve(&m, Level::Strong).unwrap();
    let gated = rust::render_gated(&m, "crate::runtime", Some(&gate));
    // ...and under the gate holds whatever the bytes, so `validate` never reports it;
    // rule 0 (`seen_small`, confirmed) is still checked.
    assert!(gated.contains("const ALWAYS: u64 = 0x2;"), "{gated}");
    assert!(!gated.contains("let r1 = "), "{gated}");
    assert!(gated.contains("let r0 = "), "{gated}");
    assert!(gated.contains("Built with the `strong` confidence gate: rules below it are left out"));
}
