//! The KLR→BIR docs (`generated/docs/klr/`) against the spec: every row of the roster
//! (§1), the transpose table (§6) and the field-offset reference (§11) is read back from
//! the Markdown and compared with the loaded model, and every leaf page carries every
//! message, path and stamp of its leaf. (`generated_fresh` checks the files are current.)

use dmaspec_codegen::Model;
use dmaspec_codegen::model::klr::{KlrLeaf, StepKind};
use dmaspec_testkit::{model, root};

fn page(rel: &str) -> String {
    std::fs::read_to_string(root().join("generated/docs/klr").join(rel))
        .unwrap_or_else(|e| panic!("generated/docs/klr/{rel}: {e}"))
}

/// Undoes the Markdown escaping of table cells.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && n.is_ascii_punctuation()
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out.replace("&lt;", "<").replace("&amp;", "&")
}

/// The body rows of the first table after `heading`, split into cells.
fn table(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in text[start..].lines().skip(1) {
        if line.starts_with('|') {
            in_table = true;
            rows.push(split_row(line));
        } else if in_table {
            break;
        }
    }
    assert!(rows.len() >= 2, "no table after `{heading}`");
    rows.drain(..2); // header and separator
    rows
}

fn split_row(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut prev = ' ';
    let mut in_code = false;
    for c in inner.chars() {
        if c == '`' {
            in_code = !in_code;
        }
        if c == '|' && prev != '\\' && !in_code {
            cells.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
        prev = c;
    }
    cells.push(cur.trim().to_string());
    cells
}

/// `[Name](leaves/Name.md)` → `Name`.
fn link_text(cell: &str) -> &str {
    cell.trim_start_matches('[')
        .split(']')
        .next()
        .unwrap_or_default()
}

fn nodes_of(m: &Model, l: &KlrLeaf) -> Vec<(String, Option<i64>)> {
    let mut out = Vec::new();
    let mut push = |leaf: &KlrLeaf| {
        for p in leaf.paths() {
            let q = m.klr.layout(&p.class).unwrap().qualified.clone();
            let n = (q, p.it.as_ref().map(|(_, v)| *v));
            if !out.contains(&n) {
                out.push(n);
            }
        }
    };
    push(l);
    for to in l.routes() {
        push(m.klr.leaf(to).unwrap());
    }
    out
}

#[test]
fn roster_matches_the_spec() {
    let m = model();
    let rows = table(&page("README.md"), "## The leaf roster (§1)");
    assert_eq!(rows.len(), m.klr.leaves.len());
    for (row, l) in rows.iter().zip(&m.klr.leaves) {
        assert_eq!(link_text(&row[0]), l.name);
        assert_eq!(
            unescape(&row[1]),
            format!("`{}` @`{:#x}`", l.function, l.va),
            "{}",
            l.name
        );
        let nodes = nodes_of(&m, l);
        let cell: Vec<String> = row[2].split(" / ").map(unescape).collect();
        assert_eq!(cell.len(), nodes.len(), "{}: {}", l.name, row[2]);
        for (c, (q, it)) in cell.iter().zip(&nodes) {
            let expected = match it {
                Some(v) => format!("`{q}` ({v})"),
                None => format!("`{q}` (IT not given)"),
            };
            assert_eq!(c, &expected, "{}", l.name);
        }
        for p in l.paths() {
            assert!(
                unescape(&row[3]).contains(&p.build),
                "{}: {}",
                l.name,
                p.build
            );
        }
        for to in l.routes() {
            assert!(row[3].contains(&format!("fall-through to [{to}]")));
        }
    }
}

#[test]
fn transposes_match_the_spec() {
    let m = model();
    let rows = table(&page("README.md"), "## The three transposes (§6)");
    assert_eq!(rows.len(), m.klr.transposes.len());
    for (row, t) in rows.iter().zip(&m.klr.transposes) {
        let l = m.klr.leaf(&t.leaf).unwrap();
        assert_eq!(unescape(&row[0]), t.klr);
        assert_eq!(
            unescape(&row[1]),
            format!("`{}` @`{:#x}`", l.function, l.va)
        );
        for p in l.paths() {
            if t.path.as_deref().is_none_or(|x| x == p.name) {
                let q = &m.klr.layout(&p.class).unwrap().qualified;
                assert!(row[2].contains(q.as_str()), "{}: {q}", t.klr);
            }
        }
        assert_eq!(unescape(&row[3]), t.engine);
        assert_eq!(unescape(&row[4]), t.encoding);
        assert_eq!(unescape(&row[5]), t.constraint);
    }
}

#[test]
fn offset_reference_matches_the_spec() {
    let m = model();
    let rows = table(&page("README.md"), "## Field-offset reference (§11)");
    assert_eq!(rows.len(), m.klr.offsets.len());
    for (row, r) in rows.iter().zip(&m.klr.offsets) {
        assert_eq!(row[0], format!("`{:#x}` ({})", r.offset, r.offset));
        assert_eq!(unescape(&row[1]), r.field);
        assert_eq!(unescape(&row[2]), r.who);
        assert_eq!(unescape(&row[3]), r.values);
        let stampers: Vec<&str> = m
            .klr
            .leaves
            .iter()
            .filter(|l| l.stamped_offsets().contains(&r.offset))
            .map(|l| l.name.as_str())
            .collect();
        let linked: Vec<&str> = row[4].split(", ").map(link_text).collect();
        assert_eq!(linked, stampers, "{:#x}", r.offset);
        for w in &r.writers {
            assert!(stampers.contains(&w.as_str()), "{w} at {:#x}", r.offset);
        }
    }
}

/// The spec carries seed 003 §11 row for row: offset and the leaves the "who writes it"
/// column names.
#[test]
fn offset_reference_is_section_11() {
    let m = model();
    let rows: Vec<(usize, Vec<&str>)> = m
        .klr
        .offsets
        .iter()
        .map(|r| (r.offset, r.writers.iter().map(String::as_str).collect()))
        .collect();
    let expected: Vec<(usize, Vec<&str>)> = vec![
        (
            0x90,
            vec![
                "NcCopy",
                "NcDmaCopy",
                "DmaTranspose",
                "TensorLoad",
                "TensorStore",
                "Transpose",
            ],
        ),
        (
            0xF0,
            vec!["NcLocalGather", "BatchNormStats", "NcRangeSelect"],
        ),
        (0xF8, vec!["NcDmaCopy", "DmaTranspose"]),
        (0x128, vec!["DmaTranspose", "GenericIndirectSave"]),
        (0x130, vec!["NcDmaCopy", "DmaTranspose"]),
        (0x140, vec!["GenericIndirectSave"]),
        (0x158, vec!["DmaTranspose"]),
        (0x160, vec!["TensorStore"]),
        (0x178, vec!["NcDmaCopy"]),
        (0x192, vec!["TensorLoad"]),
        (0x1B8, vec!["Transpose"]),
        (0x1D8, vec!["NcDmaCopy"]),
    ];
    assert_eq!(rows, expected);
}

#[test]
fn leaf_pages_carry_every_rule() {
    let m = model();
    for l in &m.klr.leaves {
        let text = unescape(&page(&format!("leaves/{}.md", l.name)));
        for p in l.paths() {
            assert!(text.contains(&p.build), "{}: {}", l.name, p.build);
            if let Some(prefix) = &p.prefix {
                assert!(
                    text.contains(&format!("`{prefix}`")),
                    "{}: {prefix}",
                    l.name
                );
            }
        }
        for s in &l.steps {
            match &s.kind {
                StepKind::Check(c) if !c.message.is_empty() => {
                    assert!(
                        text.contains(c.message.as_str()),
                        "{}: {}",
                        l.name,
                        c.message
                    )
                }
                StepKind::Stamp { field, offset, .. } => assert!(
                    text.contains(&format!("**stamp** `+{offset:#x}` `{field}`")),
                    "{}: {field}",
                    l.name
                ),
                StepKind::Route { to, .. } => {
                    assert!(text.contains(&format!("**route** to [{to}]")))
                }
                _ => {}
            }
        }
    }
}

#[test]
fn leaf_pages_link_the_words_their_nodes_become() {
    let m = model();
    for l in &m.klr.leaves {
        let text = page(&format!("leaves/{}.md", l.name));
        for p in l.paths() {
            for w in &p.words {
                assert!(m.words().any(|t| t.name == *w), "{}: {w} is a word", l.name);
                let link = format!("[{w}](../../words/{w}.md)");
                assert!(text.contains(&link), "{}: no link {link}", l.name);
                assert!(root().join(format!("generated/docs/words/{w}.md")).exists());
            }
        }
    }
    // Seed 003's Shuffle, Transpose and NcRangeSelect leaves, as the DVE datamove page
    // encodes their nodes (§StreamShuffle, §StreamTranspose, §RangeSelect).
    let words = |leaf: &str| -> Vec<String> {
        let l = m.klr.leaf(leaf).unwrap();
        l.paths().iter().flat_map(|p| p.words.clone()).collect()
    };
    assert_eq!(words("Shuffle"), ["STREAM_SHUFFLE", "LOAD_MASK_SELECT"]);
    assert_eq!(words("Transpose"), ["STREAM_TRANSPOSE", "LOAD_MASK_SELECT"]);
    assert_eq!(words("NcRangeSelect"), ["RANGE_SELECT"]);
}

#[test]
fn layouts_page_lists_every_field() {
    let m = model();
    let text = unescape(&page("layouts.md"));
    for l in &m.klr.layouts {
        assert!(text.contains(&format!("### {}\n", l.name)), "{}", l.name);
        for f in &l.fields {
            let off = f
                .offset
                .map_or("not given".to_string(), |x| format!("`{x:#x}` ({x})"));
            assert!(
                text.contains(&format!("| {off} |")) && text.contains(&format!("`{}`", f.name)),
                "{}.{}",
                l.name,
                f.name
            );
        }
    }
}

#[test]
fn tables_show_their_entries() {
    let m = model();
    let text = page("README.md");
    for t in &m.klr.tables {
        let rows = table(&text, &format!("### {}\n", t.name));
        assert_eq!(rows.len(), t.entries.len(), "{}", t.name);
        for (i, (row, e)) in rows.iter().zip(&t.entries).enumerate() {
            assert_eq!(row[0], i.to_string());
            assert!(row[1].starts_with(&e.to_string()), "{}[{i}]", t.name);
        }
    }
}

/// `dmaspec.json` carries the klr model: seed 003 §2's `codegenNcCopy` (spec/klr/leaves/
/// 01_copy.toml, the first `[[klr.leaf]]`) with its first check's exact message, kind,
/// condition and provenance, and every leaf, layout, enum and table of the model.
#[test]
fn dmaspec_json_carries_the_klr_leaves() {
    let text = std::fs::read_to_string(root().join("generated/dmaspec.json"))
        .expect("generated/dmaspec.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let klr = &v["klr"];
    let leaves = klr["leaves"].as_array().expect("klr.leaves");
    let copy = leaves
        .iter()
        .find(|l| l["name"] == "NcCopy")
        .expect("leaf NcCopy");
    assert_eq!(copy["function"], "codegenNcCopy");
    assert_eq!(copy["va"], 0xf2d120);
    assert_eq!(copy["section"], "§2");
    assert_eq!(copy["confidence"]["tag"], "BYTE-ANCHORED");
    assert_eq!(copy["evidence"][0]["names"], "codegenNcCopy @0xf2d120");
    let check = &copy["steps"][0];
    assert_eq!(check["step"], "check");
    assert_eq!(
        check["message"],
        "Only one of src and dst can have dynamic access in tensor_copy."
    );
    assert_eq!(check["kind"], "throw");
    assert_eq!(check["when"]["text"], "dynamic(dst) && dynamic(src)");
    assert_eq!(check["confidence"]["tag"], "READ-DIRECTLY");
    assert_eq!(check["evidence"][0]["source"], "seed-003");
    let fork = &copy["steps"][1];
    assert_eq!(fork["step"], "fork");
    assert_eq!(fork["paths"][0]["name"], "static");
    assert_eq!(fork["paths"][0]["prefix"], "TensorCopy_");

    let m = model();
    let names = |key: &str| -> Vec<String> {
        klr[key]
            .as_array()
            .unwrap_or_else(|| panic!("klr.{key}"))
            .iter()
            .map(|x| x["name"].as_str().expect("a name").to_string())
            .collect()
    };
    let model_names: [(&str, Vec<String>); 4] = [
        (
            "leaves",
            m.klr.leaves.iter().map(|l| l.name.clone()).collect(),
        ),
        (
            "layouts",
            m.klr.layouts.iter().map(|l| l.name.clone()).collect(),
        ),
        (
            "enums",
            m.klr.enums.iter().map(|t| t.name.clone()).collect(),
        ),
        (
            "tables",
            m.klr.tables.iter().map(|t| t.name.clone()).collect(),
        ),
    ];
    for (key, expected) in model_names {
        assert_eq!(names(key), expected, "klr.{key}");
    }
    assert_eq!(
        klr["offsets"].as_array().map(Vec::len),
        Some(m.klr.offsets.len())
    );
}
