//! The loader never panics and never runs out of memory, whatever the numbers and however
//! long the expressions: offsets, sizes and array lengths that overflow are spec errors at
//! the value; a type cannot contain itself or nest past `MAX_TYPE_DEPTH`; a rule
//! expression nests at most `MAX_EXPR_DEPTH` levels, and an `in [...]` list of any length
//! loads and generates C and Rust that compile and agree with the model.
//!
//! The deep cases run on a thread spawned with the default 2 MiB stack, whatever the
//! harness does (with `--test-threads=1` it may run tests on its larger main thread), so
//! that passing here means no recursion per element.

mod common;

use std::path::Path;
use std::process::Command;

use common::spec::Fixture;
use dmaspec_codegen::emit::{c, rust};
use dmaspec_codegen::load::rule_depth::MAX_EXPR_DEPTH;
use dmaspec_codegen::{Model, SpecErrors};

/// Confidence, a scale (`HIGH`), a source (`src`), one architecture and `OPCODE` (`W1`).
const SPEC: Fixture = Fixture::new(
    r#"
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
values = [{ name = "W1", value = 0x10 }]
"#,
);

/// The word `W` (opcode `W1` at byte 0) with `fields` (lines) after the opcode.
fn word(fields: &str) -> String {
    format!(
        r#"[[struct]]
name = "W"
c_name = "W_C"
size = 64
opcode = "W1"
doc = "A word."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
field = [
  {{ off = 0, name = "opcode", type = "OPCODE", evidence = [{{ source = "src" }}] }},
{fields}]
"#
    )
}

/// A struct `name` of `size` bytes with one field `f` of type `ty` at offset 0.
fn holder(name: &str, size: u64, ty: &str) -> String {
    format!(
        r#"
[[struct]]
name = "{name}"
c_name = "{name}_C"
size = {size}
doc = "A struct."
confidence = "HIGH"
evidence = [{{ source = "src §1" }}]
field = [{{ off = 0, name = "f", type = "{ty}", evidence = [{{ source = "src" }}] }}]
"#
    )
}

/// `W` with field `x` of type `ty` at byte 1 and unknown bytes from `rest` on.
fn word_with(ty: &str, rest: usize) -> String {
    word(&format!(
        r#"  {{ off = 1, name = "x", type = "{ty}", evidence = [{{ source = "src" }}] }},
  {{ off = {rest}, size = {}, name = "rest", unknown = true }},
"#,
        64 - rest
    ))
}

/// Runs `f` on a fresh thread with the default (2 MiB) stack; a stack overflow aborts.
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f)
        .join()
        .expect("the loader thread panicked")
}

// ---- offsets, sizes and array lengths ---------------------------------------------

#[test]
fn an_offset_at_the_end_of_the_address_space_is_past_the_end() {
    let bad = word(
        r#"  { off = 18446744073709551615, name = "x", type = "u8", evidence = [{ source = "src" }] },
  { off = 1, size = 63, name = "rest", unknown = true },
"#,
    );
    SPEC.only(
        &bad,
        "\"opcode\"",
        "18446744073709551615",
        "`x` (offset 18446744073709551615, 1 byte) runs past the end of `W` (64 bytes)",
    );
}

#[test]
fn an_array_whose_size_wraps_to_4_bytes_is_larger_than_the_word() {
    let bad = word_with("u32[4611686018427387905]", 5);
    SPEC.among(
        &bad,
        "\"x\"",
        "\"u32[",
        "array of 4611686018427387905 elements (4 bytes each) is larger than the 64-byte word `W`",
    );
}

#[test]
fn an_array_whose_size_wraps_to_0_bytes_is_larger_than_the_word() {
    let bad = word_with("i32[4611686018427387904]", 5);
    SPEC.among(
        &bad,
        "\"x\"",
        "\"i32[",
        "array of 4611686018427387904 elements (4 bytes each) is larger than the 64-byte word `W`",
    );
}

#[test]
fn an_array_in_a_struct_is_bounded_by_the_struct() {
    let bad = format!(
        "{}{}",
        word_with("S", 9),
        holder("S", 8, "u16[4611686018427387905]")
    );
    SPEC.among(
        &bad,
        "name = \"S\"",
        "\"u16[",
        "array of 4611686018427387905 elements (2 bytes each) is larger than the 8-byte struct `S`",
    );
}

#[test]
fn an_array_of_zero_byte_elements_cannot_outnumber_the_bytes() {
    // `Z` is empty: were its elements expanded one by one, 2^62 of them would never end.
    let bad = format!(
        "{}\n[[struct]]\nname = \"Z\"\nc_name = \"Z_C\"\nsize = 0\ndoc = \"Empty.\"\n\
         confidence = \"HIGH\"\nevidence = [{{ source = \"src §1\" }}]\nfield = []\n",
        word_with("Z[4611686018427387904]", 1)
    );
    SPEC.among(
        &bad,
        "\"x\"",
        "\"Z[",
        "array of 4611686018427387904 elements (0 bytes each) is larger than the 64-byte word `W`",
    );
}

#[test]
fn a_huge_struct_inside_a_word_is_an_error_not_an_allocation() {
    // S claims the whole address space and tiles it with one data array of named
    // elements, each a leaf of its own; inside W it runs past the end.
    let bad = format!(
        "{}{}\n[[enum]]\nname = \"E\"\nc_name = \"E_C\"\nrepr = \"u8\"\ndoc = \"E.\"\n\
         confidence = \"HIGH\"\nevidence = [{{ source = \"src §1\" }}]\nvalues = [{{ name = \"A\", value = 0 }}]\n",
        word_with("S", 2),
        holder("S", u64::MAX, "E[18446744073709551615]")
    );
    let errs = small_stack(move || SPEC.errors(&bad));
    assert!(
        errs.iter().any(|e| e
            .message
            .contains("`x` (offset 1, 18446744073709551615 bytes) runs past")),
        "{}",
        SpecErrors(errs)
    );
}

#[test]
fn arrays_have_at_most_8_dimensions() {
    let bad = word_with(&format!("u8{}", "[1]".repeat(9)), 2);
    SPEC.only(
        &bad,
        "\"x\"",
        "\"u8[1]",
        "has 9 array dimensions; at most 8 are allowed",
    );
}

// ---- types inside types -------------------------------------------------------------

#[test]
fn a_type_that_contains_itself_is_an_error() {
    // Used in a word, so that every walk of the word's leaves would recurse forever.
    let bad = format!("{}{}", word_with("S", 5), holder("S", 4, "S"));
    SPEC.only(
        &bad,
        "name = \"S\"",
        "\"S\"",
        "field `f` of `S` makes `S` contain itself (S > S): a type cannot hold a value of its \
         own type",
    );
    let bad = format!(
        "{}{}{}",
        word_with("A", 2),
        holder("A", 1, "B"),
        holder("B", 1, "A[1]")
    );
    SPEC.only(
        &bad,
        "name = \"B\"",
        "\"B\"",
        "field `f` of `B` makes `A` contain itself (A > B > A)",
    );
}

/// `n` one-byte structs `N1` .. `Nn`, each holding the next; `N1` sits in `W`.
fn chain(n: usize) -> String {
    let mut s = word_with("N1", 2);
    for i in 1..=n {
        let inner = if i == n {
            "u8".to_string()
        } else {
            format!("N{}", i + 1)
        };
        s.push_str(&holder(&format!("N{i}"), 1, &inner));
    }
    s
}

#[test]
fn types_nest_at_most_16_levels() {
    // W > N1 > ... > N15 is 16 levels: fine.
    SPEC.load(&chain(15)).unwrap_or_else(|e| panic!("{e}"));
    // W > N1 > ... > N16: W is the 17th level.
    SPEC.only(
        &chain(16),
        "name = \"W\"",
        "\"W\"",
        "`W` nests types more than 16 levels deep (through field `x`): at most 16 levels of \
         types inside types",
    );
}

#[test]
fn a_chain_of_a_thousand_types_is_cut_every_16_levels() {
    let errs = small_stack(|| SPEC.errors(&chain(1000)));
    assert!(
        errs.iter()
            .all(|e| e.message.contains("nests types more than 16 levels deep")),
        "{}",
        SpecErrors(errs)
    );
    // 1001 levels, cut below every 16th from the bottom up.
    assert_eq!(errs.len(), 1001 / 16, "{}", SpecErrors(errs.clone()));
}

// ---- rule expressions ---------------------------------------------------------------

/// `W` with a u16 `n` at byte 1 and one rule `r` with `expr` (line 17).
fn rule_word(expr: &str) -> String {
    format!(
        "{}\n[[struct.rule]]\nname = \"r\"\nexpr = \"{expr}\"\nmessage = \"m\"\n\
         evidence = [{{ source = \"src\" }}]\n",
        word(
            r#"  { off = 1, name = "n", type = "u16", evidence = [{ source = "src" }] },
  { off = 3, size = 61, name = "rest", unknown = true },
"#
        )
    )
}

fn in_list(values: usize) -> String {
    let list: Vec<String> = (0..values).map(|i| i.to_string()).collect();
    format!("n in [{}]", list.join(", "))
}

/// Whether rule `r` holds on a word whose `n` is `value`, by the model's reference
/// evaluation.
fn holds(model: &Model, value: u16) -> bool {
    let set = model.rule_set_of("W").expect("W has rules");
    let mut b = [0u8; 64];
    b[0] = 0x10;
    b[1..3].copy_from_slice(&value.to_le_bytes());
    set.truth(model, &b, 1) & 1 == 1
}

#[test]
fn a_long_in_list_loads_and_generates_on_a_small_stack() {
    let model = small_stack(|| {
        let model = long_list();
        let _ = dmaspec_codegen::generate(&model);
        model
    });
    for (n, holds_for_n) in PROBES {
        assert_eq!(holds(&model, n), holds_for_n, "n = {n}");
    }
}

/// A fresh directory for one compile test.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dmaspec-loader-limits-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs `cmd`, which must succeed; returns its stdout.
fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Values in the long `in` list: `n in [0, 1, ..., 9999]`.
const LONG: u16 = 10_000;

/// `W` with the rule `n in [0, 1, ..., LONG - 1]`.
fn long_list() -> Model {
    SPEC.load(&rule_word(&in_list(usize::from(LONG))))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The values of `n` the compiled checks are run on, and whether the rule holds for each.
const PROBES: [(u16, bool); 4] = [(0, true), (LONG - 1, true), (LONG, false), (65535, false)];

/// Runs a compiled probe: one line per [`PROBES`] entry, `1` where the rule holds.
fn check_probe(exe: &Path, compiler: &str) {
    let out = run(&mut Command::new(exe));
    let want: Vec<&str> = PROBES.iter().map(|p| if p.1 { "1" } else { "0" }).collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), want, "{compiler}");
}

#[test]
fn a_long_in_list_is_c_that_compilers_accept() {
    let model = long_list();
    let dir = scratch("c");
    for (path, text) in c::render(&model) {
        // clang stops at 256 nested brackets (`-fbracket-depth`); gcc has no such limit.
        let deepest = bracket_depth(&text);
        assert!(deepest < 256, "{path} nests brackets {deepest} deep");
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let mut probe = format!(
        "#include <stdio.h>\n#include <string.h>\n#include \"{}\"\nint main(void) {{\n\
         W_C w;\n",
        c::UMBRELLA_HEADER
    );
    for (n, _) in PROBES {
        probe.push_str(&format!(
            "memset(&w, 0, sizeof w); w.opcode = 0x10; w.n = {n};\n\
             printf(\"%d\\n\", (int)(W_C_rule_truth(&w, 1) & 1));\n"
        ));
    }
    probe.push_str("return 0;\n}\n");
    std::fs::write(dir.join("probe.c"), probe).unwrap();
    for compiler in ["gcc", "clang"] {
        if compiler == "clang" && Command::new("clang").arg("--version").output().is_err() {
            continue; // gcc is required; clang is checked where it is installed
        }
        let exe = dir.join(format!("probe-{compiler}"));
        run(Command::new(compiler)
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(dir.join(c::DIR))
            .arg(dir.join("probe.c"))
            .arg("-o")
            .arg(&exe));
        check_probe(&exe, compiler);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_in_list_is_rust_that_compiles() {
    let model = long_list();
    let dir = scratch("rust");
    std::fs::write(
        dir.join("generated.rs"),
        rust::render(&model, "::dmaspec::runtime"),
    )
    .unwrap();
    let mut main = String::from(
        "#[allow(dead_code, non_camel_case_types, clippy::all)]\n\
         mod generated { include!(\"generated.rs\"); }\nuse generated::Checked;\nfn main() {\n",
    );
    for (n, _) in PROBES {
        main.push_str(&format!(
            "let mut b = [0u8; 64]; b[0] = 0x10; b[1..3].copy_from_slice(&{n}u16.to_le_bytes());\n\
             println!(\"{{}}\", generated::W::rule_truth(&b, generated::Arch::ALL[0]) & 1);\n"
        ));
    }
    main.push_str("}\n");
    std::fs::write(dir.join("main.rs"), main).unwrap();
    // The dmaspec library this test links against sits next to the test binary.
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let rlib = newest_rlib(&deps, "libdmaspec-");
    let exe = dir.join("probe");
    run(
        Command::new(Path::new(env!("CARGO")).with_file_name("rustc"))
            .args(["--edition", "2024", "--crate-type", "bin", "-o"])
            .arg(&exe)
            .arg("--extern")
            .arg(format!("dmaspec={}", rlib.display()))
            .arg("-L")
            .arg(format!("dependency={}", deps.display()))
            .arg(dir.join("main.rs")),
    );
    check_probe(&exe, "rustc");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The deepest nesting of `(`, `[` and `{` in `text`.
fn bracket_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0);
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn newest_rlib(deps: &Path, prefix: &str) -> std::path::PathBuf {
    std::fs::read_dir(deps)
        .expect("deps directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".rlib"))
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .expect("the dmaspec rlib next to the test binary")
}

/// `expr` is rejected with the depth error, at the token right after `prefix` (its start).
#[track_caller]
fn too_deep(expr: String, prefix: &str) {
    assert!(expr.starts_with(prefix));
    let bad = rule_word(&expr);
    let errs = small_stack({
        let bad = bad.clone();
        move || SPEC.errors(&bad)
    });
    let at = bad.find("expr = \"").unwrap() + "expr = \"".len() + prefix.len();
    let line = bad[..at].matches('\n').count() + 1;
    let column = at - bad[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    assert_eq!(errs.len(), 1, "{}", SpecErrors(errs.clone()));
    let e = &errs[0];
    assert_eq!((e.line, e.column), (line, column), "{e}");
    assert!(
        e.message.contains(&format!(
            "the expression nests more than {MAX_EXPR_DEPTH} levels deep here"
        )),
        "{e}"
    );
}

#[test]
fn a_sum_of_a_thousand_terms_is_rejected_at_the_limit() {
    // Tokens `n + n + ...`: the 65th is the 33rd `n`, after 32 ` + `-joined ones.
    let expr = format!("{} <= 100000", vec!["n"; 1000].join(" + "));
    too_deep(expr, &"n + ".repeat(32));
}

#[test]
fn deep_brackets_and_operator_chains_are_rejected() {
    too_deep(
        format!("{}n == 0{}", "(".repeat(3000), ")".repeat(3000)),
        &"(".repeat(64),
    );
    too_deep(format!("{}(n == 0)", "!".repeat(3000)), &"!".repeat(64));
    too_deep(
        format!("n{} == 0", ".a".repeat(3000)),
        &format!("n{}.", ".a".repeat(31)),
    );
}

// ---- klr layouts ---------------------------------------------------------------------

#[test]
fn a_klr_field_at_the_end_of_the_address_space_is_past_the_end() {
    let bad = r#"[[klr.layout]]
name = "L"
qualified = "bir::L"
side = "bir"
size = 8
doc = "A class."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
field = [
  { off = 18446744073709551615, size = 4, name = "a", type = "u32", doc = "", evidence = [{ source = "src" }] },
  { off = 0, size = 18446744073709551615, name = "b", type = "u32", doc = "", evidence = [{ source = "src" }] },
]
"#;
    SPEC.among(
        bad,
        "field = [",
        "18446744073709551615",
        "`a` (offset 18446744073709551615) runs past the end of `L` (8 bytes)",
    );
    SPEC.among(
        bad,
        "\"a\"",
        "0,",
        "`b` (offset 0) runs past the end of `L` (8 bytes)",
    );
}
