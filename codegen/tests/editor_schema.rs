//! Issue 15 "An editor schema": every spec file in the repo passes the generated
//! `generated/schema/dmaspec-spec.schema.json` (what `.taplo.toml` points editors at), and
//! a misspelt key or a wrongly typed value in a copy of a real file fails it, named.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn validator() -> jsonschema::Validator {
    let path = dmaspec_testkit::root().join("generated/schema/dmaspec-spec.schema.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft7::new(&schema).expect("the schema is a valid draft-7 schema")
}

/// The spec file as the schema sees it (an editor's TOML server does the same).
fn instance(text: &str) -> Value {
    toml::from_str(text).expect("the file is TOML")
}

/// Every problem the schema finds, one line each (`<where>: <what>`).
fn problems(validator: &jsonschema::Validator, text: &str) -> Vec<String> {
    let value = instance(text);
    validator
        .iter_errors(&value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the spec directory reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            toml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

fn real_file() -> String {
    let path = dmaspec_testkit::root().join("spec/words/dma_immediate.toml");
    std::fs::read_to_string(path).expect("spec/words/dma_immediate.toml reads")
}

#[test]
fn every_spec_file_in_the_repo_passes_the_schema() {
    let root = dmaspec_testkit::root();
    let mut files = Vec::new();
    toml_files(&root.join("spec"), &mut files);
    // The prelude small test specs build on is a spec file too.
    files.push(root.join("tests/common/prelude.toml"));
    assert!(files.len() > 40, "only {} spec files found", files.len());
    let validator = validator();
    let failures: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).expect("a spec file reads");
            problems(&validator, &text)
                .into_iter()
                .map(move |p| format!("{}: {p}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_misspelt_key_fails_and_is_named() {
    let text = real_file();
    // The word's own tag (line 11 of the file); the copy spells it wrong.
    let misspelt = text.replacen("\nconfidence = ", "\ncofidence = ", 1);
    assert_ne!(misspelt, text);
    let validator = validator();
    assert_eq!(problems(&validator, &text), Vec::<String>::new());
    let found = problems(&validator, &misspelt);
    assert!(
        found
            .iter()
            .any(|p| p.contains("'cofidence' was unexpected")),
        "{found:?}"
    );
    // The word loses its required tag as well.
    assert!(
        found
            .iter()
            .any(|p| p.contains("\"confidence\" is a required property")),
        "{found:?}"
    );
}

#[test]
fn a_size_written_as_a_string_fails() {
    let text = real_file();
    // The word's `size = 64` (its doc: ISA_STATIC_ASSERT == 64), written as a string.
    let wrong = text.replacen("\nsize = 64\n", "\nsize = \"64\"\n", 1);
    assert_ne!(wrong, text);
    let found = problems(&validator(), &wrong);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("/struct/0/size: ") && found[0].contains("\"integer\""),
        "{found:?}"
    );
}
