//! Word and enumerator aliases, and enumerator engines, reach every output: the Markdown
//! word page and types page, the JSON dictionary and the C headers (Rust `META` is checked
//! in the library's tests/opcode_names.rs). The spec's own older names say they are ours.

use std::fs;

use dmaspec_codegen::model::Alias;
use dmaspec_testkit::root;
use serde_json::Value as Json;

fn generated(path: &str) -> String {
    fs::read_to_string(root().join("generated").join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn markdown_names_the_old_name_as_ours_and_the_engine() {
    let page = generated("docs/words/PSEUDO_EMBEDDING_UPDATE.md");
    let line = page
        .lines()
        .find(|l| l.starts_with("- **Also named:**"))
        .expect("an alias line");
    assert!(
        line.contains("`INDIRECT_SAVE_ACCUMULATE`") && line.contains(Alias::OURS),
        "{line}"
    );
    let op = page
        .lines()
        .find(|l| l.starts_with("- **Opcode:**"))
        .unwrap();
    assert!(
        op.contains("`PseudoEmbeddingUpdate` (wiki-master-opcode §1"),
        "{op}"
    );
    assert!(op.contains("engine CCE/Pool/Act"), "{op}");
    // Master Opcode Reference §1, IT 31: TensorTensor 0x41 on DVE, under the shipped spelling
    // (wiki-opcode-diff §2).
    let types = generated("docs/types.md");
    let row = types
        .lines()
        .find(|l| l.starts_with("| `0x41` (65) | `TENSOR_TENSOR_ARITH_OP`"))
        .unwrap();
    assert!(row.contains("engine: DVE"), "{row}");
}

#[test]
fn json_carries_word_aliases_with_a_null_source_and_the_engine() {
    let doc: Json = serde_json::from_str(&generated("dmaspec.json")).unwrap();
    let w = doc["words"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "PSEUDO_RANGE_CHECK")
        .expect("the 0xd6 word");
    assert_eq!(w["aliases"][0]["name"], "INDIRECT_BOUND_CHECK");
    assert_eq!(
        w["aliases"][0]["c_name"],
        "NEURON_ISA_TPB_INDIRECT_BOUND_CHECK_STRUCT"
    );
    assert_eq!(w["aliases"][0]["source"], Json::Null);
    assert_eq!(w["opcode"]["engine"], "DMA");
    let spelled: Vec<(&str, &Json)> = w["opcode"]["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap(), &a["source"]))
        .collect();
    assert_eq!(
        spelled,
        [
            ("PseudoRangeCheck", &Json::from("wiki-master-opcode §3")),
            ("INDIRECT_BOUND_CHECK", &Json::Null)
        ]
    );
}

#[test]
fn c_headers_typedef_the_old_struct_name_and_define_the_old_enumerator() {
    let h = generated("c/aws_neuron_isa_tpb_pseudo_embedding_update.h");
    assert!(h.contains(
        "typedef NEURON_ISA_TPB_PSEUDO_EMBEDDING_UPDATE_STRUCT \
         NEURON_ISA_TPB_INDIRECT_SAVE_ACCUMULATE_STRUCT;"
    ));
    let common = fs::read_dir(root().join("generated/c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| fs::read_to_string(p).unwrap())
        .find(|t| t.contains("NEURON_ISA_TPB_OPCODE_TensorTensor = 0x41"))
        .expect("a header with the OPCODE enum");
    assert!(common.contains("NEURON_ISA_TPB_OPCODE_INDIRECT_SAVE_ACCUMULATE = 0xca"));
    assert!(common.contains("Engine: DVE."));
}
