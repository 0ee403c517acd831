//! `dmaspec klr lower`: the shipped samples (samples/klr/) cover every leaf, every error
//! string the model can produce and every path of every fork; the JSON shape; bad input.

mod common;

use std::collections::BTreeSet;

use common::{dmaspec, model};
use dmaspec_codegen::model::klr::StepKind;
use serde_json::Value;

fn lower_json(sample: &str) -> Vec<Value> {
    let out = dmaspec(&["klr", "lower", sample, "--json"], &[]);
    assert!(
        out.status.success(),
        "{sample}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    doc["results"].as_array().expect("results").clone()
}

#[test]
fn leaves_sample_builds_a_node_for_every_leaf() {
    let results = lower_json("samples/klr/leaves.json");
    let mut built = BTreeSet::new();
    for r in &results {
        assert_eq!(r["outcome"], "node", "{r}");
        built.insert(r["node"]["leaf"].as_str().unwrap().to_string());
    }
    let all: BTreeSet<String> = model().klr.leaves.iter().map(|l| l.name.clone()).collect();
    assert_eq!(built, all);
}

/// Every message a check of the spec can produce, and the fatal lookup, appears in
/// errors.json's results. Two asserts are unreachable as the sources order them and are
/// listed here by name.
#[test]
fn errors_sample_covers_every_error_string() {
    let results = lower_json("samples/klr/errors.json");
    let mut seen = BTreeSet::new();
    let mut fatal = 0;
    for r in &results {
        assert_eq!(r["outcome"], "error", "{r}");
        let e = &r["error"];
        if e["kind"] == "fatal" {
            fatal += 1;
            continue;
        }
        seen.insert(e["message"].as_str().unwrap().to_string());
    }
    assert_eq!(
        fatal, 2,
        "translateDGEMode > 3 in NcDmaCopy and DmaTranspose"
    );
    let shadowed = [
        "tensor_copy only supports scalar_offset for dynamic access, not vector_offset.",
        "dynamic access should have vector offset.",
    ];
    for l in &model().klr.leaves {
        for s in &l.steps {
            if let StepKind::Check(c) = &s.kind {
                let (message, append) = (&c.message, &c.append);
                if message.is_empty() || shadowed.contains(&message.as_str()) {
                    continue;
                }
                let found = seen.iter().any(|m| {
                    if append.is_some() {
                        m.starts_with(message.as_str())
                    } else {
                        m == message
                    }
                });
                assert!(
                    found,
                    "{}: `{message}` is not produced by errors.json",
                    l.name
                );
            }
        }
    }
}

/// Every path of every fork, and every route, is taken by some sample.
#[test]
fn samples_cover_every_fork() {
    let mut taken = BTreeSet::new();
    let mut routed = BTreeSet::new();
    for sample in ["samples/klr/leaves.json", "samples/klr/forks.json"] {
        for r in lower_json(sample) {
            if r["outcome"] == "node" {
                let n = &r["node"];
                taken.insert((
                    n["leaf"].as_str().unwrap().to_string(),
                    n["path"].as_str().unwrap().to_string(),
                ));
                if let Some(from) = n["routed_from"].as_str() {
                    routed.insert((from.to_string(), n["leaf"].as_str().unwrap().to_string()));
                }
            }
        }
    }
    let m = model();
    for l in &m.klr.leaves {
        for p in l.paths() {
            assert!(
                taken.contains(&(l.name.clone(), p.name.clone())),
                "{} path `{}` not taken by a sample",
                l.name,
                p.name
            );
        }
        for to in l.routes() {
            assert!(routed.contains(&(l.name.clone(), to.to_string())));
        }
    }
}

/// The JSON of one node: §3.4 stamps of a HWDGE accumulating DMA (forks.json #4).
#[test]
fn json_shape_of_a_node() {
    let results = lower_json("samples/klr/forks.json");
    let n = &results[4]["node"];
    assert_eq!(n["class"], "bir::InstDMACopy");
    assert_eq!(
        n["it"],
        serde_json::json!({"value": 32, "name": "InstDMACopy"})
    );
    assert_eq!(n["name_prefix"], "dma_copy_");
    assert_eq!(
        n["dge_type"],
        serde_json::json!({"raw": 2, "name": "HWDGE"})
    );
    let stamps: Vec<(u64, &str, &Value)> = n["stamps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["offset"].as_u64().unwrap(),
                s["field"].as_str().unwrap(),
                &s["value"],
            )
        })
        .collect();
    assert_eq!(
        stamps[0],
        (
            0xF8,
            "dge_type",
            &serde_json::json!({"raw": 2, "name": "HWDGE"})
        )
    );
    assert_eq!(
        stamps[1],
        (
            0x178,
            "reduce cmd",
            &serde_json::json!({"raw": 4, "name": "add"})
        )
    );
    assert_eq!(
        stamps[2],
        (
            0x90,
            "engine-id",
            &serde_json::json!({"raw": 4, "name": "DMA"})
        )
    );
    assert_eq!(stamps[4].1, "oob_is_err");
    assert_eq!(stamps[4].2, &Value::Bool(true));
    // Undetermined: the Transpose without a dtype (forks.json #12).
    assert_eq!(results[12]["outcome"], "undetermined");
    assert_eq!(
        results[12]["undetermined"]["condition"],
        "dtype(dst) == BirDtype.fp32"
    );
}

#[test]
fn table_output() {
    let out = dmaspec(&["klr", "lower", "samples/klr/errors.json"], &[]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "#15 DmaTranspose → error (throw) in DmaTranspose: DMA Tranpose must have 4-D access pattern."
    ));
    let out = dmaspec(&["klr", "lower", "samples/klr/leaves.json"], &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "#1 NcDmaCopy → bir::InstDMACopy (IT 32 InstDMACopy) via NcDmaCopy, path static"
    ));
    assert!(text.contains("      +0x0f8  dge_type"));
}

#[test]
fn bad_input_exits_1_naming_the_problem() {
    let dir = std::env::temp_dir().join(format!("dmaspec-klr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (r#"[{"op": "NcFoo"}]"#, "op #0: unknown op `NcFoo`"),
        (
            r#"[{"op": "NcCopy", "dst": {"shape": [1]}, "src": {"shape": [1]}}]"#,
            "op #0: `NcCopy.engine`: missing",
        ),
        (
            r#"[{"op": "NcCopy", "dst": {"shape": [1]}, "src": {"shape": [1]}, "engine": 0, "egnine": 1}]"#,
            "`NcCopy` has no field `egnine`",
        ),
        (
            r#"[{"op": "Transpose", "dst": {"shape": [1], "dynamic": "maybe"}, "src": {"shape": [1]}, "engine": 0}]"#,
            "`dynamic` is static, scalar or vector; not `maybe`",
        ),
        (
            r#"[{"op": "NcDmaCopy", "dst": {"shape": [1]}, "src": {"shape": [1]}, "compute_op": "sub", "oobMode": 0, "dgeMode": 0, "uniqueIndices": false, "engine": 0}]"#,
            "`sub` is not a `DgeComputeOp` (none, add)",
        ),
        ("{", "not JSON"),
    ];
    for (i, (input, expected)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.json"));
        std::fs::write(&path, input).unwrap();
        let out = dmaspec(&["klr", "lower", path.to_str().unwrap()], &[]);
        assert_eq!(out.status.code(), Some(1), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{input}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Every missing field of every op is listed in one run, not only the first of each op.
#[test]
fn every_missing_field_of_every_op_is_listed() {
    let path =
        std::env::temp_dir().join(format!("dmaspec-klr-missing-{}.json", std::process::id()));
    std::fs::write(
        &path,
        r#"[{"op": "NcCopy", "egnine": 0}, {"op": "NcDmaCopy", "dst": {"shape": [1]}}]"#,
    )
    .unwrap();
    let out = dmaspec(&["klr", "lower", path.to_str().unwrap()], &[]);
    std::fs::remove_file(&path).ok();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing is lowered");
    let err = String::from_utf8_lossy(&out.stderr);
    let listed: Vec<&str> = err.lines().filter(|l| l.starts_with("op #")).collect();
    let mut expected = vec![
        "op #0: `NcCopy` has no field `egnine` (its fields: dst, dtype, engine, src)".to_string(),
    ];
    expected.extend(
        ["NcCopy.dst", "NcCopy.src", "NcCopy.engine"].map(|f| format!("op #0: `{f}`: missing")),
    );
    expected.extend(
        [
            "src",
            "compute_op",
            "oobMode",
            "dgeMode",
            "uniqueIndices",
            "engine",
        ]
        .map(|f| format!("op #1: `NcDmaCopy.{f}`: missing")),
    );
    assert_eq!(listed, expected, "{err}");
}

/// The ops before a malformed one keep their results (written as each is lowered); none
/// after it is lowered; every problem is listed, and a JSON document begun is closed.
#[test]
fn a_malformed_op_stops_the_lowering_after_the_results_before_it() {
    let good = r#"{"op": "NcCopy", "dst": {"shape": [128, 512], "dtype": 16}, "src": {"shape": [128, 512], "dtype": 16}, "engine": 5}"#;
    let list = format!(r#"[{good}, {{"op": "NcFoo"}}, {good}, {{"op": "NcBar"}}]"#);
    let out = dmaspec(&["klr", "lower", "-"], list.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("#0 NcCopy → "), "{text}");
    assert!(
        !text.contains("#2 "),
        "nothing after the malformed op: {text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("op #1: unknown op `NcFoo`"), "{err}");
    assert!(err.contains("op #3: unknown op `NcBar`"), "{err}");

    let out = dmaspec(&["klr", "lower", "--json", "-"], list.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a whole document");
    assert_eq!(doc["results"].as_array().map(Vec::len), Some(1));
    // No result, no document.
    let out = dmaspec(&["klr", "lower", "--json", "-"], br#"[{"op": "NcFoo"}]"#);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}
