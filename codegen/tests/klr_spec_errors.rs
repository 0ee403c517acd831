//! The loader rejects bad `[klr]` specs (seed 003's leaves) with the file, line and column
//! of the value at fault — inside an expression, the column of the offending name.
//!
//! Each case loads `bad.toml` next to a valid prelude (confidence, one source, two klr enums,
//! a fatal table, a klr op layout, two BIR classes and one valid leaf). The expected
//! position is found by searching the snippet for the token, and the error must point
//! exactly there.

use dmaspec_testkit::spec::Fixture;

const PRELUDE: &str = r#"[[klr.enum]]
name = "E"
c_name = "ns::E"
repr = "u32"
doc = "An enum."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "a", value = 0 }, { name = "b", value = 1 }]

[[klr.enum]]
name = "F"
c_name = "ns::F"
repr = "u32"
doc = "Another enum."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "q", value = 0 }]

[[klr.enum]]
name = "InstructionType"
c_name = "ns::IT"
repr = "u32"
doc = "Node kinds."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "InstNode", value = 9 }]

[[klr.table]]
name = "T"
doc = "A fatal table."
value = "E"
entries = [1, 0]
out_of_range = "fatal"
confidence = "HIGH"
evidence = [{ source = "src §1" }]

[[klr.layout]]
name = "Op"
qualified = "klr::Op"
side = "klr"
doc = "An op."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 0, name = "x", type = "TensorRef", input = "ap", doc = "", evidence = [{ source = "src" }] },
  { off = 16, name = "n", type = "E", input = "int", enum = "E", doc = "", evidence = [{ source = "src" }] },
  { off = 24, name = "list", type = "list", input = "aps", doc = "", evidence = [{ source = "src" }] },
]

[[klr.layout]]
name = "Base"
qualified = "bir::Base"
side = "bir"
doc = "A base class."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [{ off = 0x10, size = 4, name = "f", type = "E", enum = "E", doc = "", evidence = [{ source = "src" }] }]

[[klr.layout]]
name = "Node"
qualified = "bir::Node"
side = "bir"
base = "Base"
doc = "A node class."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [{ off = 0x20, size = 4, name = "g", type = "u32", doc = "", evidence = [{ source = "src" }] }]

[[klr.leaf]]
name = "Leaf"
op = "Op"
function = "codegenLeaf"
va = 0x1000
section = "§1"
doc = "A valid leaf."
confidence = "HIGH"
evidence = [{ source = "src §1" }]

[[klr.leaf.step]]
check = "rank is not 2"
kind = "throw"
when = "rank(x) != 2"
evidence = [{ source = "src" }]

[[klr.leaf.step]]
let = "v"
value = "T(n)"
evidence = [{ source = "src" }]

[[klr.leaf.step]]
fork = "one"
evidence = [{ source = "src" }]

[[klr.leaf.step.path]]
name = "only"
class = "Node"
it = "InstNode"
prefix = "Node-"
build = "insertElement<Node>"
bind = [{ role = "argument", operand = "x" }]
evidence = [{ source = "src" }]

[[klr.leaf.step]]
stamp = "f"
off = 0x10
value = "v"
evidence = [{ source = "src" }]
"#;

const SPEC: Fixture = Fixture::new(PRELUDE);

/// A leaf named `L2` over `Op` with the given steps (the fork is up to the caller).
fn leaf(steps: &str) -> String {
    format!(
        r#"[[klr.leaf]]
name = "L2"
op = "Op"
function = "codegenL2"
va = 0x2000
section = "§2"
doc = "A leaf."
confidence = "HIGH"
evidence = [{{ source = "src §2" }}]
{steps}"#
    )
}

const FORK: &str = r#"
[[klr.leaf.step]]
fork = "one"
evidence = [{ source = "src" }]

[[klr.leaf.step.path]]
name = "only"
class = "Node"
build = "insertElement<Node>"
evidence = [{ source = "src" }]
"#;

/// A leaf whose steps are one step of `lines` (and its evidence), then the fork.
fn before_fork(lines: &str) -> String {
    leaf(&format!(
        "\n[[klr.leaf.step]]\n{lines}\nevidence = [{{ source = \"src\" }}]\n{FORK}"
    ))
}

/// A leaf whose steps are the fork, then one step of `lines` (and its evidence).
fn after_fork(lines: &str) -> String {
    leaf(&format!(
        "{FORK}\n[[klr.leaf.step]]\n{lines}\nevidence = [{{ source = \"src\" }}]\n"
    ))
}

/// The lines of a check step of `kind` that fails `when`.
fn check(kind: &str, when: &str) -> String {
    format!("check = \"boom\"\nkind = \"{kind}\"\nwhen = \"{when}\"")
}

#[test]
fn the_prelude_is_valid() {
    let m = SPEC.prelude().expect("the prelude loads");
    assert_eq!(m.klr.leaves.len(), 1);
    assert_eq!(
        m.klr.leaf("Leaf").unwrap().paths()[0].it,
        Some(("InstNode".into(), 9))
    );
}

#[test]
fn unknown_name_in_a_condition() {
    let bad = before_fork(&check("throw", "dynamic(x) && nope == 1"));
    SPEC.only(
        &bad,
        "when",
        "nope",
        "`nope` is not an input field of this op",
    );
}

#[test]
fn argument_of_the_wrong_type() {
    let bad = before_fork(&check("throw", "rank(n) > 3"));
    SPEC.only(
        &bad,
        "rank(",
        "n)",
        "`rank` needs access pattern, but this is int (E)",
    );
}

#[test]
fn unknown_enumerator() {
    let bad = before_fork(&check("assert", "n == E.zz"));
    SPEC.only(
        &bad,
        "when",
        "E.zz",
        "`E` has no enumerator `zz` (it has: a, b)",
    );
}

#[test]
fn comparing_two_enums() {
    let bad = before_fork(&check("throw", "n == F.q"));
    SPEC.only(&bad, "when", "n == F", "compares a `E` with a `F`");
}

#[test]
fn it_outside_each() {
    let bad = before_fork(&check("throw", "dynamic(it)"));
    SPEC.only(
        &bad,
        "dynamic(",
        "it)",
        "`it` is only defined in a check with `each`",
    );
}

#[test]
fn each_over_a_list() {
    let good = before_fork(
        r#"check = "boom"
kind = "throw"
each = "list"
when = "dynamic(it)""#,
    );
    SPEC.load(&good).expect("`it` is bound by `each`");
    let bad = good.replace("each = \"list\"", "each = \"n\"");
    SPEC.only(&bad, "each", "\"n\"", "`each` names a list input field");
}

#[test]
fn fatal_table_inside_a_condition() {
    let bad = before_fork(&check("throw", "T(n) == E.a"));
    SPEC.only(
        &bad,
        "when",
        "\"T(n)",
        "a fatal table lookup belongs in a `let`",
    );
}

#[test]
fn check_without_kind() {
    let bad = before_fork(
        r#"check = "boom"
when = "dynamic(x)""#,
    );
    SPEC.only(&bad, "check", "\"boom\"", "a check needs a `kind`");
}

#[test]
fn two_things_in_one_step() {
    let bad = before_fork(
        r#"check = "boom"
kind = "throw"
route = "Leaf"
when = "dynamic(x)""#,
    );
    SPEC.only(
        &bad,
        "route",
        "\"Leaf\"",
        "a step is one thing: `check` and `route`",
    );
}

#[test]
fn a_leaf_needs_a_fork() {
    let bad = leaf("");
    SPEC.only(&bad, "name", "\"L2\"", "leaf `L2` has no `fork` step");
}

#[test]
fn paths_before_the_fork() {
    let bad = before_fork(
        r#"check = "boom"
kind = "throw"
paths = ["only"]
when = "dynamic(x)""#,
    );
    SPEC.only(&bad, "paths", "\"only\"", "must come after the fork");
}

#[test]
fn unknown_path() {
    let bad = after_fork(
        r#"effect = "something"
paths = ["nowhere"]"#,
    );
    SPEC.only(
        &bad,
        "paths",
        "\"nowhere\"",
        "no path `nowhere` (paths: only)",
    );
}

#[test]
fn the_last_path_is_the_otherwise_arm() {
    let bad = leaf(&FORK.replace(
        "name = \"only\"\n",
        "name = \"only\"\nwhen = \"dynamic(x)\"\n",
    ));
    SPEC.only(
        &bad,
        "name = \"only\"",
        "\"dynamic(x)\"",
        "the last path is the otherwise arm",
    );
}

#[test]
fn path_class_must_be_bir() {
    let bad = leaf(&FORK.replace("class = \"Node\"", "class = \"Op\""));
    SPEC.only(&bad, "class", "\"Op\"", "`Op` is not a `bir` layout");
}

#[test]
fn path_words_must_be_words_of_the_spec() {
    // The prelude declares no word at all, so any name is unknown.
    let bad = leaf(&FORK.replace(
        "build = \"insertElement<Node>\"\n",
        "build = \"insertElement<Node>\"\nwords = [\"NO_SUCH_WORD\"]\n",
    ));
    SPEC.only(
        &bad,
        "words",
        "\"NO_SUCH_WORD\"",
        "`NO_SUCH_WORD` is not a word of the spec",
    );
}

#[test]
fn stamp_names_the_wrong_field() {
    let bad = after_fork(
        r#"stamp = "wrong"
off = 0x10
value = "1""#,
    );
    SPEC.only(
        &bad,
        "stamp",
        "\"wrong\"",
        "offset 0x10 of `Base` is `f`, not `wrong`",
    );
}

#[test]
fn stamp_at_an_offset_the_class_lacks() {
    let bad = after_fork(
        r#"stamp = "h"
off = 0x30
value = "1""#,
    );
    SPEC.only(
        &bad,
        "off = ",
        "0x30",
        "`Node` (and its bases) has no field at offset 0x30",
    );
}

#[test]
fn stamp_value_of_another_enum() {
    let bad = after_fork(
        r#"stamp = "f"
off = 0x10
value = "F.q""#,
    );
    SPEC.only(
        &bad,
        "value",
        "\"F.q\"",
        "`Base.f` holds a `E`, but this value is a `F`",
    );
}

#[test]
fn route_to_an_unknown_leaf() {
    let bad = before_fork(
        r#"route = "Ghost"
when = "dynamic(x)""#,
    );
    SPEC.only(&bad, "route", "\"Ghost\"", "unknown leaf `Ghost`");
}

#[test]
fn route_after_the_fork() {
    let bad = after_fork(
        r#"route = "Leaf"
when = "dynamic(x)""#,
    );
    SPEC.only(&bad, "route", "\"Leaf\"", "comes before the fork");
}

#[test]
fn table_entry_outside_its_enum() {
    let bad = r#"[[klr.table]]
name = "T2"
doc = "A table."
value = "E"
entries = [1, 7]
out_of_range = "unknown"
confidence = "HIGH"
evidence = [{ source = "src §1" }]
"#;
    SPEC.only(
        bad,
        "entries",
        "7",
        "entry 7 of table `T2` is not a value of `E`",
    );
}

#[test]
fn offset_reference_writer_that_does_not_stamp() {
    let bad = r#"[[klr.offset]]
off = 0x20
field = "g"
who = "Leaf"
writers = ["Leaf"]
values = "?"
confidence = "HIGH"
evidence = [{ source = "src §11" }]
"#;
    SPEC.only(
        bad,
        "writers",
        "\"Leaf\"",
        "lists `Leaf` as a writer of 0x20, but its steps stamp nothing there",
    );
}

#[test]
fn transpose_row_with_an_unknown_path() {
    let bad = r#"[[klr.transpose]]
klr = "X"
leaf = "Leaf"
path = "sideways"
engine = "PE"
encoding = "e"
constraint = "c"
confidence = "HIGH"
evidence = [{ source = "src §6" }]
"#;
    SPEC.only(
        bad,
        "path",
        "\"sideways\"",
        "leaf `Leaf` has no path `sideways`",
    );
}

/// A klr layout `Op2` with the fields `fields` (lines of the `field` array).
fn op2(fields: &str) -> String {
    format!(
        r#"[[klr.layout]]
name = "Op2"
qualified = "klr::Op2"
side = "klr"
doc = "An op."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
field = [
{fields}]
"#
    )
}

#[test]
fn overlapping_layout_fields() {
    let bad = op2(
        r#"  { off = 4, size = 4, name = "a", type = "u32", doc = "", evidence = [{ source = "src" }] },
  { off = 6, name = "b", type = "u8", doc = "", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.only(
        &bad,
        "name = \"a\"",
        "6",
        "`b` at offset 6 overlaps `a` (offset 4, 4 bytes)",
    );
}

#[test]
fn duplicate_layout_fields_point_at_the_first() {
    let bad = op2(
        r#"  { off = 0, name = "a", type = "u8", doc = "", evidence = [{ source = "src" }] },
  { off = 1, name = "a", type = "u8", doc = "", evidence = [{ source = "src" }] },
"#,
    );
    SPEC.duplicate(
        &bad,
        "off = 1, ",
        "\"a\"",
        "duplicate field `a` in layout `Op2`",
        "off = 0, ",
    );
}

#[test]
fn inputs_only_on_klr_layouts() {
    let bad = r#"[[klr.layout]]
name = "N2"
qualified = "bir::N2"
side = "bir"
doc = "A class."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [{ off = 0, name = "a", type = "u32", input = "int", doc = "", evidence = [{ source = "src" }] }]
"#;
    SPEC.only(
        bad,
        "input",
        "\"int\"",
        "only the fields of a `klr` layout are inputs",
    );
}

#[test]
fn unknown_confidence_tag_in_a_step() {
    let bad = after_fork(
        r#"effect = "something"
confidence = "MAYBE""#,
    );
    SPEC.only(
        &bad,
        "confidence = \"M",
        "\"MAYBE\"",
        "unknown confidence tag `MAYBE`",
    );
}

#[test]
fn step_without_evidence() {
    let bad = leaf(&format!(
        r#"{FORK}
[[klr.leaf.step]]
effect = "something"
"#
    ));
    SPEC.only(
        &bad,
        "effect",
        "\"something\"",
        "this `effect` step has no evidence",
    );
}

/// Expressions are Rust expressions, parsed by syn: a syntax error is syn's, at the token.
#[test]
fn a_syntax_error_points_at_its_token() {
    let bad = before_fork(&check("throw", "dynamic(x) n == 1"));
    SPEC.only(&bad, "dynamic(x)", "n ==", "unexpected token");
    // `&&n` is a reference in Rust, not a value of the rules.
    let bad = before_fork(&check("throw", "dynamic(x) && && n"));
    SPEC.only(&bad, "&& ", "&& n", "expected a value");
}

/// Operators bind as in Rust: `!n == E.a` is `(!n) == E.a`, and `!` needs a condition.
#[test]
fn not_binds_tighter_than_a_comparison() {
    let bad = before_fork(&check("throw", "!n == E.a"));
    SPEC.only(
        &bad,
        "when",
        "n ==",
        "`!` needs a condition, but this is int (E)",
    );
    let good = before_fork(&check("throw", "!(n == E.a)"));
    SPEC.load(&good).expect("a negated comparison");
}

/// A condition nested thousands deep is an error at the level past the bound, not a
/// stack overflow (the bound the validity rules use).
#[test]
fn a_deeply_nested_condition_is_an_error() {
    let deep = format!("{}dynamic(x)", "!".repeat(10_000));
    let bad = before_fork(&check("throw", &deep));
    let errs = SPEC.errors(&bad);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0]
            .message
            .starts_with("the expression nests more than 64 levels deep here"),
        "{}",
        errs[0].message
    );
}
