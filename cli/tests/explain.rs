//! `dmaspec explain`: a word's table, one field with every evidence record and conflict.

mod common;

use std::process::Output;

use common::{dmaspec, stdout};

fn explain(what: &str) -> Output {
    // The whole lines (`--wide`): these tests read what a line says, not how it wraps.
    dmaspec(&["explain", "--wide", what], &[])
}

#[test]
fn by_opcode_and_by_name_give_the_word_table() {
    let by_op = explain("0xbb");
    assert_eq!(by_op.status.code(), Some(0));
    let text = stdout(&by_op);
    // seed-004 §1: 0xbb is OPCODE_DMA_INDIRECT / DMA_INDIRECT1D_STRUCT.
    assert!(text.starts_with("DMA_INDIRECT1D — NEURON_ISA_TPB_DMA_INDIRECT1D_STRUCT"));
    assert!(text.contains("opcode 0xbb (DMA_INDIRECT)"));
    // seed-004 §3 row "15 1 flags DMA_INDIRECT_FLAGS", §3.1 gather_dim:2 at b4..5.
    let row = text
        .lines()
        .find(|l| l.contains("flags.gather_dim"))
        .unwrap();
    assert!(
        row.contains("+0x0f b4..5") && row.contains("INDIRECT_DIM"),
        "{row}"
    );
    assert_eq!(stdout(&explain("DMA_INDIRECT1D")), text);
    assert_eq!(stdout(&explain("187")), text);
}

#[test]
fn one_field_with_enumerators_evidence_and_conflicts() {
    let text = stdout(&explain("DMA_INDIRECT1D.flags.gather_dim"));
    assert!(text.contains("at         +0x0f b4..5"));
    assert!(text.contains("0x1 Y (NEURON_ISA_TPB_INDIRECT_DIM_Y)"));
    assert!(text.contains("seed-004 §3.1"));

    // The opcode alias recorded from instruction_mapping.json (seed-004 §1 QUIRK).
    let word = stdout(&explain("0xb8"));
    assert!(
        word.contains("DMAMEMCPY, also spelled DMA_MEMCPY"),
        "{word}"
    );

    // +0x0F of 0xD4: dge_op, with seed 000's sync_command_byte as the other reading.
    let dge = stdout(&explain("PSEUDO_DMA_DIRECT2D.dge_op"));
    assert!(
        dge.contains("CONFLICT   also read as `sync_command_byte`"),
        "{dge}"
    );
    assert!(dge.contains("0x2 DMA_TRANSPOSE") && dge.contains("only on cayman, mariana, maverick"));
}

#[test]
fn a_field_lists_the_rules_that_read_it() {
    // seed-004 §6.2: check_dma_indirect_indices(idx_num_active_channels), == 128.
    let text = stdout(&explain("DMA_INDIRECT1D.idx_num_active_channels"));
    assert!(text.contains("rules that read it"), "{text}");
    let rule = text
        .lines()
        .find(|l| l.contains("- check_dma_indirect_indices"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(rule.contains("POOLING_NUM_CHANNELS"), "{rule}");
}

#[test]
fn a_prefix_lists_every_leaf_below_it() {
    let text = stdout(&explain("DMA_INDIRECT1D.flags"));
    for sub in [
        "indirect_mode",
        "idx_bound_is_err",
        "non_unique_dst_idx",
        "gather_dim",
        "scatter_dim",
    ] {
        assert!(
            text.contains(&format!("DMA_INDIRECT1D.flags.{sub}")),
            "{sub}"
        );
    }
}

#[test]
fn unknown_names_are_usage_errors() {
    let o = explain("NOPE");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "`NOPE` is not an opcode, a word, an opcode enumerator, a record, a type or a register"
    ));
    let o = explain("DMA_INDIRECT1D.nope");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no field `nope`"));
    // A query without a word before its first dot shows what was typed.
    let o = explain(".....");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "`.....`: `` is not an opcode, a word, an opcode enumerator, a record, a type or a register"
    ));
}

/// A register or field by its bare name lists the paths it stands at (CSR — UDMA M2S: the
/// M2S_Q bundle's TDRTP_inc; a field name shared by many registers is listed capped).
#[test]
fn a_bare_register_name_lists_its_paths() {
    let o = explain("TDRTP_inc");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`TDRTP_inc` is a register or field name, not a path; explain one of: UDMA_M2S.M2S_Q.TDRTP_inc\n"),
        "{err}"
    );
    let err = String::from_utf8_lossy(&explain("en").stderr).into_owned();
    assert!(
        err.contains("UDMA_M2S.") || err.contains("NOTIFIC_"),
        "{err}"
    );
    assert!(err.contains(" more"), "{err}");
    assert!(err.len() < 1000, "{} bytes: {err}", err.len());
}

/// The paths rules and decode's JSON write: every field a rule of a word reads, every leaf
/// path of every word, and `[i]` for each element of an array leaf.
#[test]
fn every_path_rules_and_json_use_is_explained() {
    for w in dmaspec::WORDS {
        let rules = w
            .arch
            .first()
            .and_then(|&a| dmaspec::Word::decode(w.template, a))
            .map_or(&[][..], |word| word.rules());
        let mut paths: Vec<String> = rules
            .iter()
            .filter(|r| {
                r.fields
                    .iter()
                    .all(|f| w.leaves.iter().any(|l| l.path.starts_with(f)))
            })
            .flat_map(|r| r.fields.iter().map(|f| f.to_string()))
            .collect();
        for l in w.leaves {
            paths.push(l.path.to_string());
            if let Some(n) = l
                .type_name
                .split_once('[')
                .and_then(|(_, n)| n.strip_suffix(']')?.parse::<usize>().ok())
            {
                paths.extend((0..n).map(|i| format!("{}[{i}]", l.path)));
            }
        }
        for p in paths {
            let q = format!("{}.{p}", w.name);
            let out = explain(&q);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{q}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn an_array_element_is_explained_at_its_own_offset() {
    // seed-004 §2: DMA_DIRECT2D src_num_elem is uint16_t[2] at 32.
    let text = stdout(&explain("DMA_DIRECT2D.src_num_elem[1]"));
    assert!(text.starts_with("DMA_DIRECT2D.src_num_elem[1]\n"), "{text}");
    assert!(
        text.contains("at         +0x22 (2 bytes): element 1 of src_num_elem (+0x20)"),
        "{text}"
    );
    // seed-004 §3: DMA_INDIRECT1D's src_num_elem is one uint16_t.
    let o = explain("DMA_INDIRECT1D.src_num_elem[0]");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a u16, not an array"));
    let o = explain("DMA_DIRECT2D.src_num_elem[2]");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has 2 elements, [0] to [1]"));
}

#[test]
fn opcode_enumerators_name_their_word() {
    // seed-004 §1: DMAMEMCPY (also spelled DMA_MEMCPY) is 0xb8, DMA_DIRECT2D.
    let word = stdout(&explain("DMA_DIRECT2D"));
    assert_eq!(stdout(&explain("DMAMEMCPY")), word);
    assert_eq!(stdout(&explain("DMA_MEMCPY")), word);
    assert_eq!(stdout(&explain("DMA_INDIRECT")), stdout(&explain("0xbb")));
}

#[test]
fn a_type_lists_its_values_and_every_field_that_has_it() {
    let o = explain("DTYPE");
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.starts_with("DTYPE — enum\n"), "{text}");
    assert!(
        text.contains("0x7 FP16 (NEURON_ISA_TPB_DTYPE_FP16)"),
        "{text}"
    );
    // seed-004 §2 rows 62/63.
    assert!(text.contains("DMA_DIRECT2D.in_dtype  +0x3e"), "{text}");
    assert!(text.contains("DMA_DIRECT2D.out_dtype  +0x3f"), "{text}");
    // A union type is found though it is not a leaf: seed-004 §2 src_start_addr ADDR8 @16.
    let text = stdout(&explain("ADDR8"));
    assert!(
        text.contains("DMA_DIRECT2D.src_start_addr  +0x10"),
        "{text}"
    );
    let text = stdout(&explain("ADDR8_MARKER"));
    assert!(
        text.starts_with("ADDR8_MARKER — flag set\n") && text.contains("ADDR_TBL"),
        "{text}"
    );
}

#[test]
fn an_opcode_without_a_word_says_so() {
    let o = explain("0x00");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no word has opcode 0x00"), "{err}");
    assert!(err.contains("0xb8 DMA_DIRECT2D"), "{err}");
}

/// An enumerator or flag of a type is explained by `TYPE.NAME`; a name it does not have
/// gets the nearest.
#[test]
fn an_enumerator_or_flag_is_explained() {
    let fp32 = explain("DTYPE.FP32");
    assert_eq!(fp32.status.code(), Some(0));
    assert!(
        stdout(&fp32).starts_with("DTYPE.FP32 — enumerator of DTYPE\n  0xa FP32 ("),
        "{}",
        stdout(&fp32)
    );
    let typo = explain("DTYPE.FP33");
    assert_eq!(typo.status.code(), Some(2));
    let err = String::from_utf8_lossy(&typo.stderr);
    assert!(
        err.contains("DTYPE has no enumerator or flag `FP33` (did you mean `FP32`?)"),
        "{err}"
    );
}

/// The labels of a field's explanation line up (`confidence` is the widest), and an
/// unknown field with no evidence says so instead of an empty heading.
#[test]
fn an_unknown_field_lines_up_and_has_no_empty_heading() {
    let text = stdout(&explain("INDIRECT_COPY.unknown_24"));
    for label in ["at", "type", "meaning", "role", "confidence"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("  {label} ")))
            .unwrap_or_else(|| panic!("no `{label}` line in:\n{text}"));
        assert_eq!(&line[2..13], format!("{label:<11}"), "{text}");
        assert_ne!(line.as_bytes()[13], b' ', "{text}");
    }
    assert!(text.contains("\n  evidence: none\n"), "{text}");
    assert!(!text.lines().any(|l| l == "  evidence"), "{text}");
}

/// A query that is not UTF-8 is a query that names nothing (exit 2), as a path that is
/// not UTF-8 is a path for `diff` as for every verb.
#[test]
fn arguments_that_are_not_utf8_are_taken() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let run = |args: &[&OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_dmaspec"))
            .args(args)
            .current_dir(common::root())
            .output()
            .unwrap()
    };
    let bad = OsStr::from_bytes(b"spec\xff");
    let o = run(&[OsStr::new("explain"), bad]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is not an opcode, a word"), "{err}");
    let o = run(&[OsStr::new("diff"), bad, OsStr::new("spec")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot read"), "{err}");
}
