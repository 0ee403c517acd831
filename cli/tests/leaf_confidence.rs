//! A leaf is never surer than a member holding it (issue 13 §1): every output shows, for
//! every leaf of every word, the weakest tag along word field → nested members, with the
//! evidence of every level, and no tag for unknown bytes.

mod common;

use std::collections::BTreeMap;

use common::{assert_success, dmaspec, model, root, stdout};
use dmaspec::runtime::meta::LeafMeta;
use dmaspec::words::{Arch, WORDS};
use dmaspec_codegen::model::path::{Node, Walk};
use dmaspec_codegen::model::{Leaf, Model, Role, TypeDef, TypeKind};
use dmaspec_testkit::markdown::{plain, table_after};
use serde_json::Value as Json;

/// What the sources support for `leaf`, worked out here from the walk's members rather than
/// read from the model's answer: the weakest tag (on the common ordering) of every member
/// whose place contains the leaf, of equally weak ones the innermost; none when unknown.
fn expected(walk: &Walk, leaf: &Leaf) -> Option<String> {
    if leaf.role == Role::Unknown {
        return None;
    }
    let holds = |n: &&Node| {
        let p = &leaf.path;
        *p == n.path
            || p.starts_with(&format!("{}.", n.path))
            || p.starts_with(&format!("{}[", n.path))
    };
    let weakest = walk
        .nodes
        .iter()
        .filter(holds)
        .max_by_key(|n| (n.member.confidence().rank, n.path.len()))?;
    Some(weakest.member.confidence().tag.clone())
}

fn rust_leaf(word: &str, path: &str) -> &'static LeafMeta {
    let w = WORDS.iter().find(|w| w.name == word).unwrap();
    w.leaves
        .iter()
        .find(|l| l.path == path)
        .unwrap_or_else(|| panic!("{word}.{path} in META"))
}

fn json_model() -> Json {
    let text = std::fs::read_to_string(root().join("generated/dmaspec.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn json_leaf<'j>(j: &'j Json, word: &str, path: &str) -> &'j Json {
    let w = j["words"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == word)
        .unwrap();
    let leaves = w["leaves"].as_array().unwrap();
    leaves
        .iter()
        .find(|l| l["path"] == path)
        .unwrap_or_else(|| panic!("{word}.{path} in json"))
}

/// The Confidence cell's tag of each row of a word page's layout table, by leaf path ("—"
/// where the page shows none).
fn markdown_tags(word: &str) -> BTreeMap<String, String> {
    let page =
        std::fs::read_to_string(root().join(format!("generated/docs/words/{word}.md"))).unwrap();
    let t = table_after(&page, "## Layout");
    t.rows
        .iter()
        .map(|r| {
            let field = t.cell(r, "Field");
            let path = field.split('`').nth(1).unwrap_or_else(|| panic!("{field}"));
            let tag = t.cell(r, "Confidence").split("<br>").next().unwrap();
            (plain(path), plain(tag))
        })
        .collect()
}

/// Words that select every arm of every union of `w`: its template, then one per arm with
/// the arm's discriminator value written in (for a default arm, the first value no other
/// arm of its union takes).
fn arm_words(m: &Model, walk: &Walk, w: &TypeDef) -> Vec<[u8; 64]> {
    let template = *WORDS.iter().find(|x| x.name == w.name).unwrap().template;
    let mut out = vec![template];
    for arm in &walk.arms {
        let union = arm.path.rsplit_once('.').unwrap().0;
        let disc = arm.discriminator;
        let at = walk
            .nodes
            .iter()
            .find(|n| n.path == format!("{union}.{}", disc.name))
            .unwrap();
        let width = m.size_of(&disc.ty).min(8) as u32;
        let all = if width == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * width)) - 1
        };
        let takes = |v: &dmaspec_codegen::model::Variant, x: u64| {
            v.value
                .is_some_and(|value| x & v.mask.unwrap_or(all) == value)
        };
        let siblings: Vec<_> = walk
            .arms
            .iter()
            .filter(|a| a.path.rsplit_once('.').unwrap().0 == union)
            .collect();
        let value = match arm.variant.value {
            Some(v) => v,
            None => (0..=255u64)
                .find(|&x| !siblings.iter().any(|a| takes(a.variant, x)))
                .unwrap(),
        };
        let mut word = template;
        let bytes = &mut word[at.offset..at.offset + width as usize];
        let old = bytes
            .iter()
            .rev()
            .fold(0u64, |acc, b| acc << 8 | u64::from(*b));
        let new = old & !arm.variant.mask.unwrap_or(all) | value;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (new >> (8 * i)) as u8;
        }
        out.push(word);
    }
    out
}

/// `decode --json`'s confidence of every leaf shown when `words` are decoded, each after
/// the word it must follow (if it is a positional extension).
fn decoded_tags(w: &TypeDef, words: &[[u8; 64]]) -> BTreeMap<String, Json> {
    let follows = match &w.kind {
        TypeKind::Struct { follows, .. } => follows.first().map(String::as_str),
        _ => None,
    };
    let lead = follows.map(|f| *WORDS.iter().find(|x| x.name == f).unwrap().template);
    let mut input = Vec::new();
    for word in words {
        input.extend(lead.iter().flatten());
        input.extend(word);
    }
    // decode's default architecture (cayman) unless the word is not on it (the v5 words).
    let archs = WORDS.iter().find(|x| x.name == w.name).unwrap().arch;
    let arch = if archs.contains(&Arch::cayman) {
        Arch::cayman
    } else {
        archs[0]
    };
    let out = dmaspec(&["decode", "--arch", arch.name(), "--json"], &input);
    assert_success(&out);
    let doc: Json = serde_json::from_str(&stdout(&out)).unwrap();
    let mut tags = BTreeMap::new();
    for i in doc["instructions"].as_array().unwrap() {
        if i["struct"] != w.name.as_str() {
            continue;
        }
        let conf = i["confidence"]
            .as_object()
            .unwrap_or_else(|| panic!("{}: no confidence in {i}", w.name));
        for (path, tag) in conf {
            let seen = tags.entry(path.clone()).or_insert_with(|| tag.clone());
            assert_eq!(seen, tag, "{}.{path}: decode shows two tags", w.name);
        }
    }
    tags
}

#[test]
fn every_output_shows_every_leaf_as_sure_as_its_chain() {
    let m = model();
    let j = json_model();
    for w in m.words() {
        let walk = m.walk(w);
        let md = markdown_tags(&w.name);
        let decoded = decoded_tags(w, &arm_words(&m, &walk, w));
        for leaf in &walk.leaves {
            let want = expected(&walk, leaf);
            let at = format!("{}.{}", w.name, leaf.path);
            assert_eq!(leaf.confidence.map(|c| c.tag.clone()), want, "{at}: model");
            let rust = rust_leaf(&w.name, &leaf.path)
                .confidence
                .map(|c| c.tag.to_string());
            assert_eq!(rust, want, "{at}: Rust META");
            let json = &json_leaf(&j, &w.name, &leaf.path)["confidence"];
            assert_eq!(
                json["tag"].as_str().map(str::to_string),
                want,
                "{at}: dmaspec.json"
            );
            let page = md
                .get(&leaf.path)
                .unwrap_or_else(|| panic!("{at}: a row on the word page"));
            assert_eq!(
                *page,
                want.clone().unwrap_or_else(|| "—".into()),
                "{at}: word page"
            );
            let shown = decoded
                .get(&leaf.path)
                .unwrap_or_else(|| panic!("{at}: decode shows it"));
            assert_eq!(
                shown.as_str().map(str::to_string),
                want,
                "{at}: decode --json"
            );
        }
    }
}

/// The tag every output shows for `word.path`, checked to agree: Rust META, dmaspec.json,
/// the word page, `explain`.
fn shown_everywhere(word: &str, path: &str) -> Option<String> {
    let rust = rust_leaf(word, path).confidence.map(|c| c.tag.to_string());
    let j = json_model();
    let json = json_leaf(&j, word, path)["confidence"]["tag"]
        .as_str()
        .map(str::to_string);
    assert_eq!(json, rust, "{word}.{path}: dmaspec.json");
    let page = markdown_tags(word)[path].clone();
    assert_eq!(
        page,
        rust.clone().unwrap_or_else(|| "—".into()),
        "{word}.{path}: page"
    );
    let explain = stdout(&dmaspec(&["explain", &format!("{word}.{path}")], &[]));
    let line = explain
        .lines()
        .find(|l| l.starts_with("  confidence "))
        .unwrap();
    match &rust {
        Some(tag) => assert!(line.starts_with(&format!("  confidence {tag} (")), "{line}"),
        None => assert!(line.contains("none"), "{line}"),
    }
    rust
}

const HEADER: [&str; 4] = [
    "header.opcode",
    "header.inst_word_len",
    "header.debug_cmd",
    "header.debug_hint",
];
const EVENTS: [&str; 5] = [
    "events.wait_mode",
    "events.wait_idx",
    "events.update_mode",
    "events.update_idx",
    "events.semaphore_value",
];

#[test]
fn move_shape_header_is_strong_and_events_inferred() {
    // spec/words/move_shape.toml: `header` takes the word's STRONG ("the 0xB2 opcode store
    // itself is not pinned"), `events` is INFERRED; HEADER and EVENTS themselves are
    // HIGH/OBSERVED, which the outputs showed before.
    for p in HEADER {
        assert_eq!(
            shown_everywhere("MOVE_SHAPE", p).as_deref(),
            Some("STRONG"),
            "{p}"
        );
    }
    for p in EVENTS {
        assert_eq!(
            shown_everywhere("MOVE_SHAPE", p).as_deref(),
            Some("INFERRED"),
            "{p}"
        );
    }
    // The 52-byte body: no source gives its layout, so it claims no meaning.
    assert_eq!(shown_everywhere("MOVE_SHAPE", "body"), None);

    // The decode table of the hand-built seed-000 vector says the same.
    let bytes = common::vector("seed000_move_shape.hex");
    let table = stdout(&dmaspec(&["decode", "--wide"], &bytes));
    let tag = |path: &str| {
        let row = table
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(path))
            .unwrap();
        row.split_whitespace().last().unwrap().to_string()
    };
    assert_eq!(tag("header.opcode"), "STRONG");
    assert_eq!(tag("events.semaphore_value"), "INFERRED");
    assert_eq!(tag("body"), "-");

    // The C header, which declares HEADER and EVENTS once for every word, says so at the
    // word's members.
    let h = std::fs::read_to_string(root().join("generated/c/aws_neuron_isa_tpb_move_shape.h"))
        .unwrap();
    assert!(h.contains("Here no member of `NEURON_ISA_TPB_HEADER` is surer than STRONG"));
    assert!(h.contains("Here no member of `NEURON_ISA_TPB_EVENTS` is surer than INFERRED"));

    // Coverage counts the 12 known bytes honestly: 4 strong (header), 8 inferred (events).
    let coverage = std::fs::read_to_string(root().join("generated/docs/coverage.md")).unwrap();
    assert!(
        coverage.contains("| [MOVE_SHAPE](words/MOVE_SHAPE.md) | 0 | 4 | 8 | 0 | 0 | 52 | 64 |"),
        "coverage.md row of MOVE_SHAPE"
    );
}

#[test]
fn events_take_the_word_fields_tag() {
    // The `events` field tags in spec/words/<word>.toml.
    for (word, tag) in [
        ("PSEUDO_RANGE_CHECK", "INFERRED"),
        ("PSEUDO_DMAMEMCPY_FULL_IND", "STRONG"),
        ("PSEUDO_EMBEDDING_UPDATE", "STRONG"),
        ("INDIRECT_COPY", "MEDIUM"),
    ] {
        for p in EVENTS {
            assert_eq!(
                shown_everywhere(word, p).as_deref(),
                Some(tag),
                "{word}.{p}"
            );
        }
    }
}

#[test]
fn a_composite_field_lists_the_evidence_of_both_levels() {
    // spec/words/pseudo_dma_ext.toml `src_idx_start_addr` (type ADDR4) cites seed-004 §5.2,
    // seed-004 §8 and seed 000's store `(_DWORD)v104+1`; spec/types/addr4.toml's `address`
    // cites the ADDR4 page. Both levels reach every output.
    let (word, path) = ("PSEUDO_DMA_EXT", "src_idx_start_addr.address");
    let field_cites = [
        "seed-004 §5.2",
        "seed-004 §8",
        "seed-000 §Dynamic / DGE / indirect arm",
    ];
    let type_cite = "supp-addr4 §The 29-bit address field";

    let leaf = rust_leaf(word, path);
    let rust: Vec<&str> = leaf
        .chain()
        .flat_map(|f| f.evidence)
        .map(|e| e.cite)
        .collect();
    let j = json_model();
    let chain = json_leaf(&j, word, path)["chain"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(chain[0]["path"], "src_idx_start_addr");
    assert_eq!(chain[1]["path"], path);
    let json: Vec<String> = chain
        .iter()
        .flat_map(|c| c["evidence"].as_array().unwrap().clone())
        .map(|e| e["cite"].as_str().unwrap().to_string())
        .collect();
    let page =
        std::fs::read_to_string(root().join(format!("generated/docs/words/{word}.md"))).unwrap();
    let t = table_after(&page, "## Layout");
    let row = t
        .rows
        .iter()
        .find(|r| t.cell(r, "Field").starts_with(&format!("`{path}`")))
        .unwrap();
    let cell = plain(t.cell(row, "Evidence"));
    let explain = stdout(&dmaspec(&["explain", &format!("{word}.{path}")], &[]));
    for cite in field_cites.iter().chain([&type_cite]) {
        assert!(rust.contains(cite), "Rust META cites {cite}");
        assert!(json.iter().any(|c| c == cite), "dmaspec.json cites {cite}");
        assert!(cell.contains(cite), "the word page cites {cite}: {cell}");
        assert!(explain.contains(cite), "explain cites {cite}");
    }
    assert!(
        explain.contains("evidence of src_idx_start_addr"),
        "{explain}"
    );
}

/// Every unknown member of the model, as (the C name of the type that declares it, its
/// name): struct fields, bitfield sub-fields and union arms' fields.
fn unknown_members(m: &Model) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut fields = |owner: &str, fs: &[dmaspec_codegen::model::Field]| {
        for f in fs.iter().filter(|f| f.role == Role::Unknown) {
            out.push((owner.to_string(), f.name.clone()));
        }
    };
    let mut bits = Vec::new();
    for t in &m.types {
        match &t.kind {
            TypeKind::Struct { fields: fs, .. } => fields(&t.c_name, fs),
            TypeKind::Union { variants, .. } => {
                for v in variants {
                    fields(&format!("{}_{}", t.c_name, v.name), &v.fields);
                }
            }
            TypeKind::Bitfield { fields: fs, .. } => bits.extend(
                fs.iter()
                    .filter(|b| b.role == Role::Unknown)
                    .map(|b| (t.c_name.clone(), b.name.clone())),
            ),
            _ => {}
        }
    }
    out.extend(bits);
    out
}

/// The comment block right above the declaration of `member` inside `typedef … owner { … }
/// owner;` of the C header text `h`, if the header declares it there.
fn c_member_comment(h: &str, owner: &str, member: &str) -> Option<String> {
    let end = h.find(&format!("}} {owner};"))?;
    let start = h[..end].rfind("typedef ")?;
    let lines: Vec<&str> = h[start..end].lines().collect();
    let decl = lines.iter().position(|l| {
        let l = l.trim();
        !l.starts_with('*')
            && l.ends_with(';')
            && l.split([' ', '[', ':', ';'])
                .filter(|w| !w.is_empty())
                .any(|w| w == member)
    })?;
    // The comment ends on the line above: `*/`, or a one-line `/** … */`.
    let open = lines[..decl]
        .iter()
        .rposition(|l| l.trim_start().starts_with("/**"))?;
    (lines[decl - 1].trim_end().ends_with("*/")).then(|| lines[open..decl].join("\n"))
}

#[test]
fn no_unknown_member_claims_a_confidence_in_any_output() {
    let m = model();
    let unknown = unknown_members(&m);
    assert!(
        unknown.len() > 10,
        "the spec has unknown members: {unknown:?}"
    );
    // Rust: an unknown member's FieldMeta states no confidence, and its leaves none.
    for w in WORDS {
        let unknown = |l: &&LeafMeta| l.field.role == dmaspec::runtime::meta::Role::Unknown;
        for l in w.leaves.iter().filter(unknown) {
            assert_eq!(l.confidence, None, "{}.{}", w.name, l.path);
            assert_eq!(
                l.field.confidence,
                dmaspec::runtime::meta::Confidence::UNSTATED,
                "{}.{}",
                w.name,
                l.path
            );
        }
    }
    // The generated Rust source: no unknown field's doc comment names a confidence.
    let rust = std::fs::read_to_string(root().join("generated/rust/dmaspec.rs")).unwrap();
    for line in rust
        .lines()
        .filter(|l| l.contains("Unknown: no source gives a meaning"))
    {
        assert!(!line.contains("Confidence:"), "{line}");
    }
    // C: the comment above each unknown member names no confidence.
    let headers: Vec<String> = std::fs::read_dir(root().join("generated/c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let mut seen = 0;
    for (owner, member) in &unknown {
        for h in &headers {
            if let Some(comment) = c_member_comment(h, owner, member) {
                seen += 1;
                assert!(
                    !comment.contains("Confidence:"),
                    "{owner}.{member}: {comment}"
                );
            }
        }
    }
    assert!(
        seen * 2 > unknown.len(),
        "found {seen} of {} in C",
        unknown.len()
    );
    // Markdown: every unknown row of the types page has a dash for its confidence.
    let types = std::fs::read_to_string(root().join("generated/docs/types.md")).unwrap();
    let rows: Vec<&str> = types
        .lines()
        .filter(|l| l.contains("<br>**unknown** |"))
        .collect();
    assert!(rows.len() > 5, "{rows:?}");
    for row in rows {
        let cells: Vec<&str> = row.split(" | ").collect();
        assert_eq!(cells[cells.len() - 2], "—", "{row}");
    }
    // JSON: the types' unknown members and the chains' last links are null.
    let j = json_model();
    for t in j["types"].as_array().unwrap() {
        let mut members: Vec<&Json> = Vec::new();
        if let Some(a) = t["fields"].as_array() {
            members.extend(a);
        }
        if let Some(vs) = t["variants"].as_array() {
            for v in vs {
                members.extend(v["fields"].as_array().unwrap());
            }
        }
        for f in members.iter().filter(|f| f["role"] == "unknown") {
            assert_eq!(f["confidence"], Json::Null, "{} {}", t["name"], f["name"]);
        }
    }
    for w in j["words"].as_array().unwrap() {
        for l in w["leaves"].as_array().unwrap() {
            if l["role"] == "unknown" {
                assert_eq!(l["confidence"], Json::Null, "{} {}", w["name"], l["path"]);
                let last = l["chain"].as_array().unwrap().last().unwrap();
                assert_eq!(
                    last["confidence"],
                    Json::Null,
                    "{} {}",
                    w["name"],
                    l["path"]
                );
            }
        }
    }
}
