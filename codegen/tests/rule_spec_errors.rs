//! The loader's checks on validity rules (`[[struct.rule]]`, `[[bitfield.rule]]`,
//! `[[constant]]`, `[[table]]`): an unknown field, a type mismatch, an unknown helper, a
//! bad composite… is a spec error at the file, line and column of the offending text,
//! inside the expression string where that is where the fault is.

use std::path::PathBuf;

use dmaspec_codegen::load::load_files;
use dmaspec_codegen::model::rules::{BinOp, Expr, RuleKind};
use dmaspec_codegen::{Model, SpecError, SpecErrors};
use dmaspec_testkit::spec::{Fixture, check, position};

/// Confidence, a source, two architectures, an OPCODE enum, a DTYPE-like enum, a flags
/// type, a bitfield with a rule, and the word `W` (opcode 0x10) the snippets add rules to.
const PRELUDE: &str = r#"[[arch]]
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
values = [{ name = "W1", value = 0x10 }]

[[enum]]
name = "KIND"
c_name = "KIND"
repr = "u8"
doc = "Kinds."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "A", value = 0 }, { name = "B", value = 1 }, { name = "C", value = 2, arch = ["a2"] }]

[[flags]]
name = "MARK"
c_name = "MARK"
repr = "u8"
doc = "Marks."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
bits = [{ name = "X", bit = 6, doc = "x" }]

[[bitfield]]
name = "CFG"
c_name = "CFG"
repr = "u8"
doc = "Config."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
fields = [{ bits = "0..2", name = "prio" }, { bits = "3..7", name = "rest", reserved = true }]

[[bitfield.rule]]
name = "cfg_ok"
expr = "prio <= 4 && rest == 0"
message = "prio 0..4"
evidence = [{ source = "src §2" }]

[[table]]
name = "kind_size"
over = "KIND"
values = [{ keys = ["A"], value = 2 }, { keys = ["B", "C"], value = 4 }]
default = 0
doc = "Sizes."
confidence = "HIGH"
evidence = [{ source = "src §3" }]

[[constant]]
name = "LIMIT"
value = 128
doc = "A limit."
confidence = "HIGH"
evidence = [{ source = "src §4" }]
"#;

/// The word every snippet extends with rules.
const WORD: &str = r#"[[struct]]
name = "W"
c_name = "W_STRUCT"
size = 64
opcode = "W1"
confidence = "HIGH"
doc = "A word."
evidence = [{ source = "src §5" }]
field = [
  { off = 0, name = "opcode", type = "OPCODE", evidence = [{ source = "src §5" }] },
  { off = 1, name = "kind", type = "KIND", evidence = [{ source = "src §5" }] },
  { off = 2, name = "mark", type = "MARK", evidence = [{ source = "src §5" }] },
  { off = 3, name = "cfg", type = "CFG", evidence = [{ source = "src §5" }] },
  { off = 4, name = "n", type = "u16[2]", evidence = [{ source = "src §5" }] },
  { off = 8, name = "step", type = "i32", evidence = [{ source = "src §5" }] },
  { off = 12, name = "big", type = "u64", evidence = [{ source = "src §5" }] },
  { off = 20, size = 44, name = "rest", reserved = true, evidence = [{ source = "src §5" }] },
]
"#;

const SPEC: Fixture = Fixture::new(PRELUDE);

/// The bad file for `rules`: the word they extend, then the rules.
fn on_word(rules: &str) -> String {
    format!("{WORD}\n{rules}")
}

fn load(rules: &str) -> Result<Model, SpecErrors> {
    SPEC.load(&on_word(rules))
}

/// Exactly one error, at `token`'s first occurrence after `after` in the snippet.
#[track_caller]
fn only(rules: &str, after: &str, token: &str, message: &str) {
    SPEC.only(&on_word(rules), after, token, message);
}

fn rule(body: &str) -> String {
    format!(
        "[[struct.rule]]\nname = \"r\"\n{body}\nmessage = \"m\"\nevidence = [{{ source = \"src §9\" }}]\n"
    )
}

#[test]
fn a_good_rule_set_loads() {
    let m = load(&format!(
        "{}{}{}",
        rule(r#"expr = "kind in [A, B] && has(mark, X) && n[1] % 16 == 0 && cfg_ok(cfg) && kind_size(kind) == 4 && step >= -LIMIT && is_enumerator(kind)""#),
        "[[struct.rule]]\nname = \"top\"\nany = [\"r\", \"later\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
        "[[struct.rule]]\nname = \"later\"\nenforced = false\nfields = [\"n\", \"cfg.prio\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
    ))
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let set = m.rule_set_of("W").unwrap();
    assert_eq!(set.rules.len(), 3);
    assert_eq!(set.rules[0].parent, Some(1));
    assert!(matches!(set.rules[1].kind, RuleKind::Any { .. }));
    assert_eq!(
        set.rules[0].fields,
        ["cfg.prio", "cfg.rest", "kind", "mark", "n[1]", "step"]
    );
    // `kind in [A, B]` lowers to the flat chain `kind == 0 || kind == 1`.
    let RuleKind::Expr { expr, .. } = &set.rules[0].kind else {
        panic!()
    };
    let mut first = expr;
    while let Expr::Bin {
        bin: BinOp::And,
        lhs,
        ..
    } = first
    {
        first = lhs;
    }
    assert!(
        matches!(first, Expr::Chain { bin: BinOp::Or, parts } if parts.len() == 2),
        "{first:?}"
    );
    // Reference evaluation: all-zero bytes (kind A, no mark) fail `has(mark, X)`.
    let mut b = [0u8; 64];
    assert_eq!(set.truth(&m, &b, 1) & 1, 0);
    b[2] = 0x40; // mark X
    b[1] = 1; // kind B, size 4
    assert_eq!(set.truth(&m, &b, 1) & 1, 1);
    b[1] = 2; // C exists only on a2
    assert_eq!(set.truth(&m, &b, 1) & 1, 0);
}

#[test]
fn unknown_field() {
    only(
        &rule(r#"expr = "n[0] == 0 && nope == 1""#),
        "expr",
        "nope",
        "no field `nope`",
    );
}

#[test]
fn unknown_sub_field_of_a_bitfield() {
    only(
        &rule(r#"expr = "cfg.priority == 1""#),
        "expr",
        "priority",
        "`CFG` has no sub-field `priority`",
    );
}

#[test]
fn index_out_of_range() {
    only(
        &rule(r#"expr = "n[2] == 0""#),
        "expr",
        "2]",
        "index 2 is out of range",
    );
}

#[test]
fn enum_compared_with_a_number() {
    only(
        &rule(r#"expr = "kind == 1""#),
        "expr",
        "kind == 1",
        "cannot compare a `KIND` value with an integer",
    );
}

#[test]
fn unknown_enumerator() {
    only(
        &rule(r#"expr = "kind == KIND::Z""#),
        "expr",
        "KIND::Z",
        "`Z` is not an enumerator of `KIND`",
    );
}

#[test]
fn unknown_helper() {
    only(
        &rule(r#"expr = "sizeof(kind) == 2""#),
        "expr",
        "sizeof",
        "unknown helper `sizeof`",
    );
}

#[test]
fn table_on_the_wrong_type() {
    only(
        &rule(r#"expr = "kind_size(step) == 2""#),
        "expr",
        "step)",
        "`kind_size` takes a `KIND` value",
    );
}

#[test]
fn not_a_condition() {
    only(
        &rule(r#"expr = "n[0] + 1""#),
        "expr",
        "n[0]",
        "must be a condition",
    );
}

#[test]
fn logical_operator_on_numbers() {
    only(
        &rule(r#"expr = "n[0] && true""#),
        "expr",
        "n[0]",
        "needs conditions on both sides",
    );
}

#[test]
fn division_by_a_field() {
    only(
        &rule(r#"expr = "n[0] % step == 0""#),
        "expr",
        "step",
        "must be a non-zero constant",
    );
}

#[test]
fn possible_overflow() {
    only(
        &rule(r#"expr = "step * step * step < 1""#),
        "expr",
        "step * step * step",
        "can overflow",
    );
}

#[test]
fn u64_fields_are_refused() {
    only(&rule(r#"expr = "big == 0""#), "expr", "big", "u64");
}

#[test]
fn whole_struct_is_not_a_value() {
    only(&rule(r#"expr = "cfg == 0""#), "expr", "cfg", "not a value");
}

#[test]
fn nested_rule_that_does_not_exist() {
    only(
        &rule(r#"expr = "cfg_bad(cfg)""#),
        "expr",
        "cfg_bad",
        "`cfg_bad` is not a rule of `CFG`",
    );
}

#[test]
fn unsupported_syntax() {
    only(
        &rule(r#"expr = "if step > 0 { true } else { false }""#),
        "expr",
        "if",
        "not allowed",
    );
}

#[test]
fn parse_error_points_into_the_string() {
    only(
        &rule(r#"expr = "n[0] == == 1""#),
        "expr",
        "== 1",
        "cannot parse",
    );
}

#[test]
fn multi_line_expressions_point_at_the_right_line() {
    let r = "[[struct.rule]]\nname = \"r\"\nexpr = '''\nn[0] == 0\n  && bogus == 1'''\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n";
    only(r, "expr", "bogus", "no field `bogus`");
}

#[test]
fn composite_part_unknown() {
    only(
        "[[struct.rule]]\nname = \"top\"\nall = [\"missing\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
        "all",
        "\"missing\"",
        "`missing` is not a rule of `W`",
    );
}

#[test]
fn a_rule_has_one_parent() {
    let r = format!(
        "{}{}{}",
        rule(r#"expr = "step > 0""#),
        "[[struct.rule]]\nname = \"p1\"\nall = [\"r\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
        "[[struct.rule]]\nname = \"p2\"\nall = [\"r\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
    );
    only(&r, "name = \"p2\"\nall", "\"r\"", "already a part of `p1`");
}

#[test]
fn duplicate_ids_need_an_id() {
    let r = format!(
        "{}{}",
        rule(r#"expr = "step > 0""#),
        rule(r#"expr = "step < 9""#)
    );
    only(&r, "step > 0", "\"r\"", "give this call site its own `id`");
}

#[test]
fn a_rule_needs_a_body_or_enforced_false() {
    only(&rule(""), "name = \"r\"", "\"r\"", "needs an `expr`");
}

#[test]
fn declared_fields_must_match_the_expression() {
    let r = rule("expr = \"step > 0\"\nfields = [\"kind\"]");
    let text = on_word(&r);
    let errs = SPEC.errors(&text);
    assert_eq!(errs.len(), 2, "{}", SpecErrors(errs.clone()));
    let col = |e: &SpecError| text.lines().nth(e.line - 1).unwrap()[e.column - 1..].to_string();
    assert!(
        errs[0]
            .message
            .contains("lists field `kind`, which its expression does not read")
    );
    assert!(col(&errs[0]).starts_with("\"kind\""));
    assert!(
        errs[1]
            .message
            .contains("reads `step` but does not list it"),
        "{}",
        errs[1].message
    );
}

#[test]
fn unknown_architecture() {
    only(
        &rule("expr = \"step > 0\"\narch = [\"a9\"]"),
        "arch",
        "\"a9\"",
        "unknown architecture `a9`",
    );
}

/// Rules resolve their architectures like every other declaration: a repeated name is an
/// error, not silently dropped.
#[test]
fn architecture_listed_twice() {
    only(
        &rule("expr = \"step > 0\"\narch = [\"a1\", \"a1\"]"),
        "\"a1\", ",
        "\"a1\"]",
        "architecture `a1` listed twice",
    );
}

/// Rules resolve their confidence tag like every other declaration, listing the tags.
#[test]
fn unknown_confidence_tag_lists_the_declared_tags() {
    only(
        &rule("expr = \"step > 0\"\nconfidence = \"MEDIUM\""),
        "confidence",
        "\"MEDIUM\"",
        "unknown confidence tag `MEDIUM` (known: HIGH, LOW)",
    );
}

/// A constant without evidence says what to cite, in the words every sub-system uses.
#[test]
fn constant_without_evidence() {
    let c = "[[constant]]\nname = \"MAX_N\"\nvalue = 4\ndoc = \"d\"\nconfidence = \"HIGH\"\nevidence = []\n";
    only(
        c,
        "name",
        "\"MAX_N\"",
        "`MAX_N` has no evidence: cite the source that states it (for an INFERRED claim, \
         what it is inferred from)",
    );
}

#[test]
fn unknown_source_in_rule_evidence() {
    let r = "[[struct.rule]]\nname = \"r\"\nexpr = \"step > 0\"\nmessage = \"m\"\nevidence = [{ source = \"nowhere §1\" }]\n";
    only(r, "evidence", "\"nowhere", "unknown source `nowhere`");
}

/// The real spec with `rule` added to DMA_DIRECT2D, loaded.
fn direct2d_with(rule: &str) -> Result<Model, SpecErrors> {
    let spec = dmaspec_testkit::root().join("spec");
    let mut files: Vec<(PathBuf, String)> = dmaspec_codegen::spec_files(&spec)
        .into_iter()
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            (p, t)
        })
        .collect();
    let word = files
        .iter_mut()
        .find(|(p, _)| p.ends_with("words/dma_direct2d.toml"))
        .unwrap();
    word.1.push_str(rule);
    load_files(&spec, files)
}

#[test]
fn a_rule_reading_a_union_arm_holds_where_another_arm_is_selected() {
    // Which arm holds depends on the discriminator, so a rule reading an arm's field is
    // checked only where the discriminator selects that arm (the loader adds the guard).
    let m = direct2d_with(
        "\n[[struct.rule]]\nname = \"arm_read\"\nexpr = \"src_start_addr.addr_immediate.address_lo % 2 == 0\"\nmessage = \"m\"\nevidence = [{ source = \"seed-004 §2\" }]\n",
    )
    .unwrap();
    let owner = m
        .types
        .iter()
        .position(|t| t.name == "DMA_DIRECT2D")
        .unwrap();
    let set = m.rules.sets.iter().find(|s| s.owner == owner).unwrap();
    let rule = &set.rules[set.by_id("arm_read").unwrap()];
    assert_eq!(
        rule.fields,
        [
            "src_start_addr.addr_immediate.address_lo",
            "src_start_addr.marker"
        ]
    );
    let RuleKind::Expr { expr, .. } = &rule.kind else {
        panic!("{:?}", rule.kind)
    };
    let holds = |marker: u8, lo: u8| {
        let mut b = [0u8; 64];
        b[16] = lo; // src_start_addr @16, its low byte
        b[23] = marker; // the marker, @16 + 7
        expr.eval(&m.rules, &b, 3) == 1
    };
    assert!(
        holds(0x00, 2) && !holds(0x00, 3),
        "the immediate arm is checked"
    );
    assert!(!holds(0x40, 3), "SHAPE_REG keeps the immediate arm");
    assert!(
        holds(0x20, 3) && holds(0x28, 3),
        "a table arm is not checked"
    );
    assert!(
        holds(0x80, 3) && holds(0xC0, 3),
        "a register arm is not checked"
    );
}

#[test]
fn a_rule_names_a_field_of_an_arm_not_the_arm() {
    let errs = direct2d_with(
        "\n[[struct.rule]]\nname = \"arm_read\"\nexpr = \"src_start_addr.addr_reg == 0\"\nmessage = \"m\"\nevidence = [{ source = \"seed-004 §2\" }]\n",
    )
    .unwrap_err()
    .0;
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    assert!(
        errs[0]
            .message
            .contains("`addr_reg` is an arm of `ADDR8`; name one of its fields"),
        "{}",
        errs[0].message
    );
    assert!(errs[0].source_line.contains("src_start_addr.addr_reg"));
}

#[test]
fn an_unknown_authority() {
    only(
        &rule("expr = \"step > 0\"\nauthority = \"hardware\""),
        "authority",
        "\"hardware\"",
        "unknown authority `hardware`: `header` (the shipped ISA header validates the rule) or \
         `compiler` (neuronx-cc guarantees it of the words it writes)",
    );
}

#[test]
fn a_part_has_its_composites_authority() {
    let r = format!(
        "{}{}",
        rule("expr = \"step > 0\"\nauthority = \"compiler\""),
        "[[struct.rule]]\nname = \"top\"\nall = [\"r\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
    );
    only(
        &r,
        "name = \"top\"\nall",
        "\"r\"",
        "rule `r` is a compiler rule, a part of the header rule `top`; a composite's parts have \
         its authority",
    );
}

#[test]
fn a_header_rule_cannot_call_a_compiler_rule() {
    // A bitfield with a compiler rule, and a nested struct whose header rule calls it.
    let r = r#"[[bitfield]]
name = "FLAG"
c_name = "FLAG"
repr = "u8"
doc = "Flag."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
fields = [{ bits = "0..7", name = "v" }]

[[bitfield.rule]]
name = "flag_small"
authority = "compiler"
expr = "v < 4"
message = "m"
evidence = [{ source = "src §2" }]

[[struct]]
name = "N"
c_name = "N_STRUCT"
size = 1
confidence = "HIGH"
doc = "Nested."
evidence = [{ source = "src §5" }]
field = [{ off = 0, name = "f", type = "FLAG", evidence = [{ source = "src §5" }] }]

[[struct.rule]]
name = "uses_it"
expr = "flag_small(f)"
message = "m"
evidence = [{ source = "src §9" }]
"#;
    only(
        r,
        "uses_it",
        "flag_small",
        "`flag_small` is a compiler rule of `FLAG`; a header rule cannot call it (give this rule \
         `authority = \"compiler\"`)",
    );
    // With the caller a compiler rule too, it loads.
    let ok = r.replace(
        "name = \"uses_it\"\n",
        "name = \"uses_it\"\nauthority = \"compiler\"\n",
    );
    load(&ok).unwrap_or_else(|e| panic!("{}", e.render()));
}

/// A struct whose fields are named like Rust keywords (`type`, `match`: the generated code
/// spells them `r#type`, `r#match`), with a sub-field `loop` of a bitfield `fn`.
const KEYWORD_FIELDS: &str = r#"[[bitfield]]
name = "KW"
c_name = "KW"
repr = "u8"
doc = "Keywords."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
fields = [{ bits = "0..3", name = "loop" }, { bits = "4..7", name = "rest" }]

[[struct]]
name = "K"
c_name = "K_STRUCT"
size = 3
confidence = "HIGH"
doc = "Keyword fields."
evidence = [{ source = "src §5" }]
field = [
  { off = 0, name = "type", type = "KIND", evidence = [{ source = "src §5" }] },
  { off = 1, name = "match", type = "u8", evidence = [{ source = "src §5" }] },
  { off = 2, name = "fn", type = "KW", evidence = [{ source = "src §5" }] },
]
"#;

#[test]
fn a_rule_names_a_keyword_field_by_its_spec_name() {
    let rules = format!(
        "{KEYWORD_FIELDS}\n{}{}",
        "[[struct.rule]]\nname = \"typed\"\nexpr = \"type == B && match <= 4 && fn.loop != 0\"\nfields = [\"fn.loop\", \"match\", \"type\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
        "[[struct.rule]]\nname = \"later\"\nenforced = false\nfields = [\"type\", \"fn.loop\"]\nmessage = \"m\"\nevidence = [{ source = \"src §9\" }]\n",
    );
    let m = load(&rules).unwrap_or_else(|e| panic!("{}", e.render()));
    let set = m.rule_set_of("K").unwrap();
    assert_eq!(set.rules[0].fields, ["fn.loop", "match", "type"]);
    assert_eq!(set.rules[1].fields, ["type", "fn.loop"]);
    let mut b = [1u8, 4, 1];
    assert_eq!(set.truth(&m, &b, 1) & 1, 1);
    b[1] = 5;
    assert_eq!(set.truth(&m, &b, 1) & 1, 0);
}

#[test]
fn a_rule_cannot_name_a_field_by_its_rust_spelling() {
    let text = format!(
        "{KEYWORD_FIELDS}\n[[struct.rule]]\nname = \"typed\"\nexpr = \"r#type == B\"\nmessage = \"m\"\nevidence = [{{ source = \"src §9\" }}]\n"
    );
    only(
        &text,
        "expr",
        "r#type",
        "`r#type` is the Rust spelling: name the field `type`, as the spec does",
    );
    let listed = format!(
        "{KEYWORD_FIELDS}\n[[struct.rule]]\nname = \"later\"\nenforced = false\nfields = [\"fn.r#loop\"]\nmessage = \"m\"\nevidence = [{{ source = \"src §9\" }}]\n"
    );
    only(
        &listed,
        "fields",
        "r#loop",
        "`r#loop` is the Rust spelling: name the field `loop`, as the spec does",
    );
}

/// A type that is not declared (renamed, say), used by a bitfield, a word, a table and a
/// conflict: one error, at its first use, counting the other uses (`m1`, `m2`, the table's
/// `over`; the rule fails at `m1` first, which is the field's error).
const UNDECLARED_MODE: &str = r#"[[bitfield]]
name = "MB"
c_name = "MB"
repr = "u8"
doc = "Mode bits."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
fields = [{ bits = "0..3", name = "mode", type = "MODE" }, { bits = "4..7", name = "rest" }]

[[struct]]
name = "M"
c_name = "M_STRUCT"
size = 3
confidence = "HIGH"
doc = "Modes."
evidence = [{ source = "src §5" }]
field = [
  { off = 0, name = "m1", type = "MODE", evidence = [{ source = "src §5" }] },
  { off = 1, name = "m2", type = "MODE", evidence = [{ source = "src §5" }] },
  { off = 2, name = "mb", type = "MB", evidence = [{ source = "src §5" }] },
]

[[struct.rule]]
name = "m1_x"
expr = "m1 == MODE::X && mode_size(m2) == 2 && mb.mode != 0"
message = "m"
evidence = [{ source = "src §9" }]

[[table]]
name = "mode_size"
over = "MODE"
values = [{ keys = ["X"], value = 2 }]
default = 0
doc = "Sizes."
confidence = "HIGH"
evidence = [{ source = "src §3" }]

[[conflict]]
name = "c"
doc = "Two sources disagree."
about = ["MODE", "mode_size"]
readings = [
  { name = "r1", doc = "One.", confidence = "HIGH", evidence = [{ source = "src §1" }] },
  { name = "r2", doc = "Two.", confidence = "HIGH", evidence = [{ source = "src §2" }] },
]
"#;

#[test]
fn an_undeclared_type_is_one_error_at_its_first_use() {
    let errs = SPEC.errors(UNDECLARED_MODE);
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    let (line, column) = position(UNDECLARED_MODE, "name = \"mode\"", "\"MODE\"");
    let message = "unknown type `MODE`";
    check(&errs[0], UNDECLARED_MODE, line, column, "\"MODE\"", message);
    // The conflict about `MODE` is a use of it too.
    assert_eq!(errs[0].notes[0], "and 4 more uses of `MODE`, not shown");
}

#[test]
fn misspelt_types_in_tables_and_expressions_get_a_suggestion() {
    let table = "[[table]]\nname = \"t\"\nover = \"KINDD\"\nvalues = [{ keys = [\"A\"], value = 2 }]\ndefault = 0\ndoc = \"T.\"\nconfidence = \"HIGH\"\nevidence = [{ source = \"src §3\" }]\n";
    only(
        table,
        "over",
        "\"KINDD\"",
        "unknown type `KINDD`; did you mean `KIND`?",
    );
    only(
        &rule(r#"expr = "kind == KIN::A""#),
        "expr",
        "KIN",
        "unknown type `KIN`; did you mean `KIND`?",
    );
}

/// A misspelt field in an expression gets the field it most likely means.
#[test]
fn a_misspelt_field_in_a_rule_gets_a_suggestion() {
    only(
        &rule(r#"expr = "stpe > 0""#),
        "expr",
        "stpe",
        "`W` has no field `stpe`; did you mean `step`?",
    );
}

/// A literal out of range says the range rules take; i64::MIN, written as it is, is named
/// (its digits alone are no i64, so it was called out of range).
#[test]
fn integer_literals_out_of_range_say_the_range() {
    only(
        &rule(r#"expr = "step == -9223372036854775808""#),
        "expr",
        "-9223372036854775808",
        "-9223372036854775808 is i64::MIN, which rules do not take (a rule's integers run from \
         -9223372036854775807 to 9223372036854775807)",
    );
    only(
        &rule(r#"expr = "step == 99999999999999999999""#),
        "expr",
        "99999999999999999999",
        "integer literal 99999999999999999999 is out of range (a rule's integers run from",
    );
}

/// An array length that is a number, but negative or too large, is called so.
#[test]
fn array_lengths_out_of_range_say_so() {
    for (ty, why) in [
        ("u8[-1]", "array length `-1` in `u8[-1]` is negative"),
        (
            "u8[99999999999999999999999]",
            "array length `99999999999999999999999` in `u8[99999999999999999999999]` is too large",
        ),
        ("u8[x]", "array length `x` in `u8[x]` is not a number"),
    ] {
        let bad = WORD.replace("\"u16[2]\"", &format!("\"{ty}\""));
        let errs = SPEC.errors(&bad);
        assert!(
            errs.iter().any(|e| e.message.contains(why)),
            "{ty}: {}",
            SpecErrors(errs.clone())
        );
    }
}
