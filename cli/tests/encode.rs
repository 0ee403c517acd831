//! `dmaspec encode`: decode's JSON is valid input and round-trips byte for byte; errors
//! name the instruction, the field and the problem, all at once, and nothing is written.
//! Last, damaged decode output through the library encoder with the properties of
//! `tests/common/encode_props.rs`, the bounded run of the `encode_text` fuzz target.

mod common;

use common::{assert_success, dmaspec, encode_props, hex_bytes, root, stderr, stdout, vector};
use dmaspec::json::{encode_all, instruction, instructions_from_str};
use dmaspec::words::{WORDS, Word};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

fn temp(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("dmaspec-encode-{}-{name}", std::process::id()));
    std::fs::write(&p, contents).unwrap();
    p
}

/// `dmaspec decode --json --arch A | dmaspec encode --arch A -`, with no other flag: the
/// bytes come back and the exit code is 0, however many rules the words break. Returns
/// encode's stderr.
fn round_trip(bytes: &[u8], arch: &str) -> String {
    let decoded = dmaspec(&["decode", "--json", "--arch", arch], bytes);
    assert_success(&decoded);
    let encoded = dmaspec(&["encode", "--arch", arch, "-"], &decoded.stdout);
    assert_success(&encoded);
    assert_eq!(encoded.stdout.len(), bytes.len());
    for (i, (a, b)) in bytes.chunks(64).zip(encoded.stdout.chunks(64)).enumerate() {
        assert_eq!(a, b, "word {i} differs after decode -> encode");
    }
    stderr(&encoded)
}

#[test]
fn golden_vectors_and_sample_round_trip() {
    let mut all = hex_bytes(&root().join("samples/dge_stream.hex"));
    for entry in std::fs::read_dir(root().join("tests/vectors")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "hex") {
            all.extend(hex_bytes(&path));
        }
    }
    assert!(all.len() >= 64 * 8);
    round_trip(&all, "cayman");
}

/// 1 MiB of random words, most with the opcode of a word of the spec (so its rules run),
/// with a fixed seed. Before, 1,720 rule violations made encode refuse them unless
/// `--no-validate` was given.
#[test]
fn a_random_mebibyte_round_trips_without_flags() {
    let mut rng = dmaspec_testkit::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let mut bytes = Vec::with_capacity(1 << 20);
    while bytes.len() < 1 << 20 {
        let mut word = [0u8; 64];
        for chunk in word.chunks_mut(8) {
            chunk.copy_from_slice(&next().to_le_bytes());
        }
        let pick = (next() % 16) as usize;
        if let Some(w) = WORDS.get(pick) {
            word[0] = w.opcode;
        }
        bytes.extend_from_slice(&word);
    }
    for arch in ["cayman", "sunda"] {
        let warning = round_trip(&bytes, arch);
        assert!(
            warning.contains("fault(s) their input already records"),
            "{warning}"
        );
    }
}

/// Short random streams (words of the spec, paired pseudos, unknown opcodes) in every
/// architecture, shrunk to the smallest failing one.
#[test]
fn any_stream_round_trips_through_decode_json_and_encode() {
    let word = (any::<[u8; 64]>(), 0..WORDS.len() + 2).prop_map(|(mut b, pick)| {
        if let Some(w) = WORDS.get(pick) {
            b[0] = w.opcode;
        }
        b
    });
    let stream = (vec(word, 1..6), 0..dmaspec::words::Arch::ALL.len());
    TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    })
    .run(&stream, |(words, arch)| {
        round_trip(&words.concat(), dmaspec::words::Arch::ALL[arch].name());
        Ok(())
    })
    .unwrap();
}

#[test]
fn toml_input_with_names_and_defaults() {
    // seed-004 §2 DMA_DIRECT2D rows: semaphore @13, in/out_dtype @62/@63, src_num_elem @32,
    // dma_configs.priority_class @12 b0..2, src_start_addr marker @23.
    let toml = br#"
[[instructions]]
struct = "DMA_DIRECT2D"
[instructions.fields]
semaphore = 5
in_dtype = "FP16"
out_dtype = 7
src_num_elem = [128, 4]
dma_configs = { priority_class = 3 }
src_start_addr = { marker = ["ADDR_TBL", "OFFSET_REG"], addr_tbl_offs = {} }
"#;
    let path = temp("t.toml", toml);
    let out = dmaspec(&["encode", path.to_str().unwrap()], &[]);
    assert_success(&out);
    let w = &out.stdout;
    assert_eq!(w.len(), 64);
    assert_eq!(w[0], 0xb8); // opcode from the struct
    assert_eq!(w[1], 0x10); // inst_word_len: the constant, though not given
    assert_eq!(w[12], 3);
    assert_eq!(w[13], 5);
    assert_eq!(w[23], 0x28);
    assert_eq!(&w[32..36], &[128, 0, 4, 0]);
    assert_eq!((w[62], w[63]), (7, 7));
    assert!(w[2..12].iter().all(|&b| b == 0));
}

#[test]
fn every_error_is_reported_and_nothing_written() {
    let bad = br#"{"instructions":[
      {"struct":"DMA_DIRECT2D","fields":{"semaphore":300,"in_dtype":"FP17","nope":1,"src_step_elem":[1]}},
      {"struct":"WHAT"},
      {"struct":"DMA_DIRECT2D","fields":{"src_start_addr":{"marker":{"raw":0},"addr_tbl_offs":{}}}}
    ]}"#;
    let path = temp("bad.json", bad);
    let out = dmaspec(&["encode", path.to_str().unwrap(), "--hex"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing is written on error");
    let err = String::from_utf8_lossy(&out.stderr);
    for expected in [
        "instruction 0 (DMA_DIRECT2D): field `semaphore`: 300 does not fit 8 bits",
        "instruction 0 (DMA_DIRECT2D): field `in_dtype`: unknown enumerator `FP17`",
        "instruction 0 (DMA_DIRECT2D): unknown field `nope`",
        "instruction 0 (DMA_DIRECT2D): field `src_step_elem`: expected 2 elements, got 1",
        "instruction 1 (WHAT): unknown struct `WHAT` (words: DMA_DIRECT2D, DMA_DIRECT2D_XPOSE, ",
        "instruction 2 (DMA_DIRECT2D): field `src_start_addr.addr_tbl_offs` belongs to `src_start_addr.addr_tbl_offs`, but the discriminator given selects `src_start_addr.addr_immediate`",
    ] {
        assert!(err.contains(expected), "missing `{expected}` in:\n{err}");
    }
}

#[test]
fn an_unknown_struct_gets_the_nearest_word_or_the_list() {
    let message = |name: &str| {
        let errs = encode_all(&[json!({ "struct": name })]).unwrap_err();
        errs[0].to_string()
    };
    assert_eq!(
        message("DMA_DIRECT2E"),
        "instruction 0 (DMA_DIRECT2E): unknown struct `DMA_DIRECT2E`; did you mean `DMA_DIRECT2D`?"
    );
    assert_eq!(
        message("dma_copy2d"),
        "instruction 0 (dma_copy2d): unknown struct `dma_copy2d`; did you mean `DMA_COPY2D`?"
    );
    let names: Vec<&str> = WORDS.iter().map(|w| w.name).collect();
    assert_eq!(
        message("WHAT"),
        format!(
            "instruction 0 (WHAT): unknown struct `WHAT` (words: {})",
            names.join(", ")
        )
    );
    assert_eq!(
        message("NOTIFICATION"),
        "instruction 0 (NOTIFICATION): `NOTIFICATION` is a record, not a word: encode it with \
         `--struct NOTIFICATION`"
    );
}

#[test]
fn words_that_break_a_rule_are_refused_unless_asked() {
    // seed-004 §6.2: check_dma_indirect_indices requires idx_num_active_channels == 128.
    let json = br#"[{"struct":"DMA_INDIRECT1D","fields":{"idx_num_active_channels":64}}]"#;
    let path = temp("rule.json", json);
    let out = dmaspec(&["encode", path.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("instruction 0: DMA_INDIRECT1D check_dma_indirect_indices"),
        "{err}"
    );
    let out = dmaspec(&["encode", path.to_str().unwrap(), "--no-validate"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.len(), 64);
    assert_eq!(out.stdout[14], 64);
}

/// `encode` checks what `validate` checks, with the same code: each of these was written
/// before (exit 0) and rejected by `validate` (or, for the constant, by neither).
#[test]
fn encode_refuses_what_validate_rejects_with_the_same_lines() {
    let cases = [
        // DMA_DIRECT2D_XPOSE (0xbd) is not a word of sunda.
        (
            r#"[{"struct":"DMA_DIRECT2D_XPOSE"}]"#,
            "sunda",
            "opcode 0xbd: no word has this opcode in sunda",
        ),
        // An extension without its 0xd4 before it.
        (
            r#"[{"struct":"PSEUDO_DMA_EXT"}]"#,
            "cayman",
            "PSEUDO_DMA_EXT: must immediately follow PSEUDO_DMA_DIRECT2D, and does not",
        ),
        // inst_word_len is the constant 0x10 (seed-004 §2).
        (
            r#"[{"struct":"DMA_DIRECT2D","fields":{"header":{"inst_word_len":3}}}]"#,
            "cayman",
            "DMA_DIRECT2D header.inst_word_len: is 0x3, but the spec's constant is 0x10",
        ),
    ];
    for (json, arch, line) in cases {
        let path = temp("refused.json", json.as_bytes());
        let p = path.to_str().unwrap();
        let out = dmaspec(&["encode", "--arch", arch, p], &[]);
        assert_eq!(out.status.code(), Some(1), "{json}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{json}: nothing is written");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("instruction 0: {line}\n")),
            "{json}: {err}"
        );

        let written = dmaspec(&["encode", "--arch", arch, "--no-validate", p], &[]);
        assert_success(&written);
        let checked = dmaspec(&["validate", "--arch", arch], &written.stdout);
        assert_eq!(checked.status.code(), Some(1), "{json}");
        assert_eq!(stdout(&checked), format!("offset 0 {line}\n"), "{json}");
    }
}

/// Only faults an instruction records are forgiven: an edit that breaks a rule, or decode
/// output whose `violations` were dropped, is refused.
#[test]
fn a_fault_the_input_does_not_record_is_refused() {
    let valid = vector("dma_indirect1d.hex");
    let decoded = dmaspec(&["decode", "--json"], &valid);
    assert_success(&decoded);
    let mut doc: Value = serde_json::from_slice(&decoded.stdout).unwrap();
    // seed-004 §6.2: check_dma_indirect_indices wants idx_num_active_channels == 128.
    doc["instructions"][0]["fields"]["idx_num_active_channels"] = json!(64);
    let edited = dmaspec(&["encode", "-"], doc.to_string().as_bytes());
    assert_eq!(edited.status.code(), Some(1), "{}", stderr(&edited));
    assert!(stderr(&edited).contains("instruction 0: DMA_INDIRECT1D check_dma_indirect_indices"));

    // The same invalid word, decoded: its `violations` list the rule, so it is written...
    let mut invalid = valid;
    invalid[14] = 64;
    let decoded = dmaspec(&["decode", "--json"], &invalid);
    let out = dmaspec(&["encode", "-"], &decoded.stdout);
    assert_success(&out);
    assert_eq!(out.stdout, invalid);
    // ...but not once they are gone.
    let mut doc: Value = serde_json::from_slice(&decoded.stdout).unwrap();
    doc["instructions"][0]["violations"] = json!([]);
    let out = dmaspec(&["encode", "-"], doc.to_string().as_bytes());
    assert_eq!(out.status.code(), Some(1));
}

/// Found by `damaged_decode_output_keeps_the_encoding_properties` (the `encode_text`
/// properties): `header.opcode` was laid in as given, so `{"header":{"opcode":0}}` encoded a
/// word that decodes as no word at all.
#[test]
fn the_opcode_field_must_name_the_struct() {
    let encode = |text: &str| encode_all(&instructions_from_str(text).unwrap());
    let errors =
        encode(r#"[{"struct":"DMA_DIRECT2D","fields":{"header":{"opcode":0}}}]"#).unwrap_err();
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "instruction 0 (DMA_DIRECT2D): field `header.opcode`: 0 does not match DMA_DIRECT2D (0xb8)"
        ]
    );
    let words = encode(r#"[{"struct":"DMA_DIRECT2D","fields":{"header":{"opcode":184}}}]"#)
        .expect("its own opcode is fine");
    assert_eq!(words[0][0], 0xb8);
}

/// Found by reading the encoder while writing the `encode_text` target (the 10-minute run did
/// not reach it): an ASCII field's `raw_hex` was sliced by byte offsets, so a multi-byte
/// character straddling a digit pair panicked. `+f`, which `u8::from_str_radix` takes, is
/// not hex either.
#[test]
fn raw_hex_that_is_not_ascii_hex_is_an_error() {
    for hex in [
        format!("0é{}", "0".repeat(61)),
        format!("+f{}", "0".repeat(62)),
    ] {
        let text = json!([{
            "struct": "PSEUDO_DMA_REARM",
            "fields": { "dma_queue_name": { "raw_hex": hex } }
        }]);
        let errors = encode_all(&instructions_from_str(&text.to_string()).unwrap()).unwrap_err();
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            ["instruction 0 (PSEUDO_DMA_REARM): field `dma_queue_name`: `raw_hex` is not hex"],
            "{text}"
        );
    }
    let mut raw = json!({ "struct": null, "raw_hex": format!("+f{}", "0".repeat(126)) });
    let errors = encode_all(std::slice::from_ref(&raw)).unwrap_err();
    assert_eq!(errors[0].message, "`raw_hex` byte 0 is not hex");
    raw["raw_hex"] = json!(format!("0f{}", "0".repeat(126)));
    assert_eq!(encode_all(&[raw]).unwrap()[0][0], 0x0f);
}

// ---- damaged decode output: the `encode_text` fuzz target's properties, bounded for CI -----

/// Every JSON pointer below `v` (objects and arrays included), after `at`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                pointers(child, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// What an edit puts at a pointer: `None` removes the key or element.
fn edit_value() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        2 => Just(None),
        2 => (0u64..300).prop_map(|n| Some(json!(n))),
        1 => any::<u64>().prop_map(|n| Some(json!(n))),
        1 => any::<i64>().prop_map(|n| Some(json!(n))),
        1 => select(vec!["FP16", "BFLOAT16", "ADDR_TBL", "", "ÿ€", "00"]).prop_map(|s| Some(json!(s))),
        1 => select(vec![json!(null), json!({}), json!([]), json!({"raw": 1}), json!(["ADDR_TBL"])])
            .prop_map(Some),
    ]
}

/// One instruction: a random word of the spec decoded in one of its architectures, as
/// decode prints it, with up to three edits.
fn damaged_instruction() -> impl Strategy<Value = Value> {
    (
        select((0..WORDS.len()).collect::<Vec<_>>()),
        any::<[u8; 64]>(),
        any::<Index>(),
        vec((any::<Index>(), edit_value()), 0..4),
    )
        .prop_map(|(w, mut bytes, arch, edits)| {
            let meta = &WORDS[w];
            let arch = meta.arch[arch.index(meta.arch.len())];
            bytes[0] = meta.opcode;
            let word = Word::decode(&bytes, arch).expect("the word's own opcode decodes");
            let mut ins = instruction(&word, &bytes, arch);
            for (at, value) in edits {
                let mut all = Vec::new();
                pointers(&ins["fields"], "/fields".into(), &mut all);
                let at = &all[at.index(all.len())];
                match value {
                    Some(v) => *ins.pointer_mut(at).unwrap() = v,
                    None if at != "/fields" => {
                        let (parent, key) = at.rsplit_once('/').unwrap();
                        let parent = ins.pointer_mut(parent).unwrap();
                        if let Some(m) = parent.as_object_mut() {
                            m.shift_remove(key);
                        } else if let Some(items) = parent.as_array_mut() {
                            items.remove(key.parse::<usize>().unwrap());
                        }
                    }
                    None => {}
                }
            }
            ins
        })
}

#[test]
fn damaged_decode_output_keeps_the_encoding_properties() {
    let list = vec(damaged_instruction(), 1..4).prop_map(|l| json!({ "instructions": l }));
    TestRunner::new(Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    })
    .run(&list, |doc| {
        encode_props::check(&doc.to_string());
        Ok(())
    })
    .unwrap();
}
