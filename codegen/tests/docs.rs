//! The Markdown and JSON targets, rendered from the real spec: the tables they print must
//! say what the model (and through it the sources) says.

use std::collections::BTreeMap;
use std::path::Path;

use dmaspec_codegen::emit::{json, markdown};
use dmaspec_codegen::model::{
    Alternative, BitsType, ByteClass, Evidence, Model, Role, TypeDef, TypeKind,
};
use dmaspec_testkit::markdown::{Table, archs_in, cells, plain, shows_quote, table_after};
use dmaspec_testkit::model;

fn docs(m: &Model) -> BTreeMap<String, String> {
    markdown::render(m).into_iter().collect()
}

fn word<'m>(m: &'m Model, name: &str) -> &'m TypeDef {
    m.words()
        .find(|w| w.name == name)
        .unwrap_or_else(|| panic!("word {name} is in the spec"))
}

// --- reading the Markdown back ---------------------------------------------------------

/// The text from `heading` to the next heading of the same or higher level.
fn section<'a>(md: &'a str, heading: &str) -> &'a str {
    let start = md
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("heading {heading:?} present"))
        + 1;
    let level = heading.chars().take_while(|c| *c == '#').count();
    let rest = &md[start + heading.len()..];
    let end = rest
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| {
            let hashes = rest[i..].chars().take_while(|c| *c == '#').count();
            hashes > 0 && hashes <= level && rest[i..].chars().nth(hashes) == Some(' ')
        })
        .unwrap_or(rest.len());
    &md[start..start + heading.len() + end]
}

fn off(o: usize) -> String {
    format!("{o} (0x{o:02X})")
}

fn bits(lsb: u32, width: u32) -> String {
    if width == 1 {
        format!("b{lsb}")
    } else {
        format!("b{lsb}..{}", lsb + width - 1)
    }
}

fn cites(ev: &[Evidence], cell: &str) {
    let cell = plain(cell);
    for e in ev {
        assert!(
            cell.contains(&e.cite),
            "evidence cell cites {:?}: {cell}",
            e.cite
        );
        assert!(
            cell.contains(&e.confidence.tag),
            "evidence cell tags {:?}",
            e.confidence.tag
        );
        if let Some(s) = &e.alias {
            assert!(
                cell.contains(s.as_str()),
                "evidence cell shows {s:?}: {cell}"
            );
        }
        for s in [&e.names, &e.pin, &e.value].into_iter().flatten() {
            assert!(shows_quote(&cell, s), "evidence cell quotes {s:?}: {cell}");
        }
    }
}

// --- word pages ------------------------------------------------------------------------

#[test]
fn every_leaf_has_its_row() {
    let m = model();
    let d = docs(&m);
    for w in m.words() {
        let page = &d[&format!("docs/words/{}.md", w.name)];
        let t = table_after(page, "## Layout");
        assert_eq!(
            t.head,
            [
                "Off",
                "Size",
                "Field",
                "Type",
                "Meaning",
                "Confidence",
                "Evidence"
            ]
        );
        let leaves = m.leaves(w);
        assert_eq!(t.rows.len(), leaves.len(), "{}: one row per leaf", w.name);
        for leaf in &leaves {
            let path = format!("`{}`", leaf.path);
            let row = t
                .rows
                .iter()
                .find(|r| t.cell(r, "Field").starts_with(&path))
                .unwrap_or_else(|| panic!("{}: row for {}", w.name, leaf.path));
            assert_eq!(t.cell(row, "Off"), off(leaf.offset), "{}", leaf.path);
            let size = match leaf.bits {
                Some((lsb, width)) => bits(lsb, width),
                None => leaf.size.to_string(),
            };
            assert_eq!(t.cell(row, "Size"), size, "{}", leaf.path);
            assert!(
                plain(t.cell(row, "Type")).contains(&leaf.type_name),
                "{}",
                leaf.path
            );
            let conf = t.cell(row, "Confidence");
            match leaf.confidence {
                Some(c) => assert!(conf.contains(&c.tag) && conf.contains(&c.level)),
                None => assert_eq!(
                    conf, "—",
                    "{}: an unknown leaf claims no meaning",
                    leaf.path
                ),
            }
            for level in leaf.chain() {
                cites(level.evidence, t.cell(row, "Evidence"));
            }
            let field = t.cell(row, "Field");
            match leaf.role {
                Role::Reserved => assert!(field.contains("**reserved**"), "{field}"),
                Role::Unknown => assert!(field.contains("**unknown**"), "{field}"),
                Role::Data => {
                    assert!(!field.contains("**reserved**") && !field.contains("**unknown**"))
                }
            }
            if let Some(v) = &leaf.variant {
                let arm = v.rsplit('.').next().unwrap();
                assert!(field.contains(&format!("arm *{arm}*")), "{field}");
            }
            if !leaf.alternatives.is_empty() {
                assert!(field.contains("⚠"), "{field}");
            }
        }
    }
}

#[test]
fn direct2d_page() {
    let m = model();
    let w = word(&m, "DMA_DIRECT2D");
    // seed-004 §2: `DGE_COMPUTE_OP compute_op` at +15 of the 64-byte DIRECT2D struct.
    let leaf = m
        .leaves(w)
        .into_iter()
        .find(|l| l.path == "compute_op")
        .unwrap();
    assert_eq!((leaf.offset, leaf.size), (15, 1));
    assert!(leaf.member.evidence.iter().any(|e| e.cite == "seed-004 §2"));

    let page = &docs(&m)["docs/words/DMA_DIRECT2D.md"];
    let t = table_after(page, "## Layout");
    let row = t
        .rows
        .iter()
        .find(|r| t.cell(r, "Field") == "`compute_op`")
        .expect("compute_op row");
    assert_eq!(t.cell(row, "Off"), "15 (0x0F)");
    assert_eq!(t.cell(row, "Size"), "1");
    assert_eq!(
        t.cell(row, "Type"),
        "[DGE_COMPUTE_OP](../types.md#dge_compute_op)"
    );
    assert!(t.cell(row, "Confidence").starts_with("HIGH/OBSERVED"));
    assert!(t.cell(row, "Evidence").contains("**seed-004 §2**"));

    // A bitfield sub-field shows its bit range; a union arm says which arm.
    let row = t
        .rows
        .iter()
        .find(|r| t.cell(r, "Field") == "`dma_configs.priority_class`")
        .unwrap();
    assert_eq!(
        (t.cell(row, "Off"), t.cell(row, "Size")),
        ("12 (0x0C)", "b0..2")
    );
    let arm = t
        .rows
        .iter()
        .find(|r| {
            t.cell(r, "Field")
                .starts_with("`src_start_addr.addr_reg.body`")
        })
        .unwrap();
    assert!(
        t.cell(arm, "Field")
            .contains("arm *addr_reg*: `marker & 0x80 == 0x80`")
    );
    assert!(t.cell(arm, "Field").contains("**unknown**"));
    // Rows read by offset: ADDR8's arms (16..22) come before its marker byte (23).
    let pos = |f: &str| {
        t.rows
            .iter()
            .position(|r| t.cell(r, "Field").starts_with(f))
            .unwrap()
    };
    assert!(pos("`src_start_addr.addr_immediate.address_lo`") < pos("`src_start_addr.marker`"));

    // Header facts.
    let op = w.opcode().unwrap();
    assert!(page.contains(&format!(
        "- **Opcode:** `0x{:02X}` ({})",
        op.value, op.value
    )));
    assert!(page.contains("`DMA_MEMCPY` (seed-004 §1"));
    assert!(page.contains("- **C name:** `NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT`"));
    cites(&w.evidence, section(page, "## Evidence"));

    // Every conflicted field, with every alternative reading.
    let conflicts = section(page, "## Conflicting readings");
    for leaf in m.leaves(w).iter().filter(|l| !l.alternatives.is_empty()) {
        let s = section(conflicts, &format!("### {}", leaf.path));
        let t = table_after(s, &format!("### {}", leaf.path));
        check_readings(&t, leaf.alternatives);
    }
}

/// A readings table: the primary first, then each alternative with its tag and sources.
fn check_readings(t: &Table, alts: &[Alternative]) {
    assert_eq!(t.rows.len(), alts.len() + 1);
    assert!(t.cell(&t.rows[0], "Reading").starts_with("**primary**"));
    for (row, a) in t.rows[1..].iter().zip(alts) {
        assert_eq!(
            t.cell(row, "Reading"),
            format!("alternative<br>`{}`", a.name)
        );
        assert!(t.cell(row, "Confidence").starts_with(&a.confidence.tag));
        assert_eq!(plain(t.cell(row, "Meaning")), a.doc);
        cites(&a.evidence, t.cell(row, "Evidence"));
    }
}

// --- index -------------------------------------------------------------------------------

#[test]
fn opcode_index_by_architecture() {
    let m = model();
    let d = docs(&m);
    let readme = &d["docs/README.md"];
    let t = table_after(readme, "## Opcode index");
    let archs = m.arch_names();
    assert_eq!(&t.head[t.head.len() - archs.len()..], archs.as_slice());
    let words: Vec<&TypeDef> = m.words().collect();
    assert_eq!(t.rows.len(), words.len());
    for w in &words {
        let row = t
            .rows
            .iter()
            .find(|r| t.cell(r, "Word") == format!("[{}](words/{}.md)", w.name, w.name))
            .unwrap_or_else(|| panic!("row for {}", w.name));
        let op = w.opcode().unwrap();
        assert!(
            t.cell(row, "Opcode")
                .starts_with(&format!("`0x{:02X}`", op.value))
        );
        assert_eq!(t.cell(row, "Enumerator"), format!("`{}`", op.enumerator));
        for a in &m.opcode_enumerator(w).unwrap().aliases {
            let cell = plain(t.cell(row, "Aliases"));
            assert!(
                cell.contains(&a.name) && cell.contains(a.spelled_by()),
                "{cell}"
            );
        }
        let have = m.word_archs(w);
        for a in &archs {
            let want = if have.contains(a) { "✓" } else { "—" };
            assert_eq!(t.cell(row, a), want, "{} on {a}", w.name);
        }
    }
    let mark = |name: &str, arch: &str| {
        let row = t
            .rows
            .iter()
            .find(|r| t.cell(r, "Word").starts_with(&format!("[{name}]")))
            .unwrap();
        t.cell(row, arch).to_string()
    };
    for a in &archs {
        assert_eq!(mark("DMA_DIRECT2D", a), "✓");
    }
    // seed-004 §10: sunda has no gather-transpose.
    assert_eq!(mark("DMA_GATHER_XPOSE", "sunda"), "—");
    assert_eq!(mark("DMA_GATHER_XPOSE", "cayman"), "✓");

    // Links to every other page (the bit maps are pictures the pages embed, not pages); a
    // bundle's page (`registers/<file>/<bundle>.md`) through its register file's page.
    for path in d
        .keys()
        .filter(|p| *p != "docs/README.md" && *p != "docs/SUMMARY.md" && p.ends_with(".md"))
    {
        let rel = path.strip_prefix("docs/").unwrap();
        match rel
            .strip_prefix("registers/")
            .and_then(|r| r.split_once('/'))
        {
            Some((file, bundle)) => {
                let file_page = &d[&format!("docs/registers/{file}.md")];
                assert!(
                    readme.contains(&format!("](registers/{file}.md)")),
                    "README links {file}"
                );
                assert!(
                    file_page.contains(&format!("]({file}/{bundle})")),
                    "{file} links {rel}"
                );
            }
            None => assert!(readme.contains(&format!("]({rel})")), "README links {rel}"),
        }
    }
}

// --- types -------------------------------------------------------------------------------

#[test]
fn types_page() {
    let m = model();
    let page = &docs(&m)["docs/types.md"];
    for t in m.types.iter().filter(|t| t.opcode().is_none()) {
        let heading = format!("### {}", t.name);
        let s = section(page, &heading);
        assert!(s.contains(&format!("- **C name:** `{}`", t.c_name)));
        match &t.kind {
            TypeKind::Enum { values, .. } => {
                let tab = table_after(s, &heading);
                assert_eq!(tab.rows.len(), values.len());
                for (row, e) in tab.rows.iter().zip(values) {
                    assert!(tab.cell(row, "Value").ends_with(&format!("({})", e.value)));
                    assert_eq!(tab.cell(row, "C enumerator"), format!("`{}`", e.c_name));
                    let archs = tab.cell(row, "Architectures");
                    if e.arch.is_empty() {
                        assert_eq!(archs, "all");
                    } else {
                        let named = archs_in(archs, &m.arch_names());
                        for a in m.arch_names() {
                            assert_eq!(named.contains(&a), e.arch.iter().any(|x| x == a));
                        }
                    }
                    for a in &e.aliases {
                        assert!(tab.cell(row, "Aliases").contains(&format!("`{}`", a.name)));
                    }
                }
            }
            TypeKind::Flags { bits, none, .. } => {
                let tab = table_after(s, &heading);
                assert_eq!(tab.rows.len(), bits.len() + usize::from(none.is_some()));
                for b in bits {
                    assert!(
                        tab.rows
                            .iter()
                            .any(|r| tab.cell(r, "Bit") == b.bit.to_string()
                                && tab.cell(r, "C name") == format!("`{}`", b.c_name))
                    );
                }
            }
            TypeKind::Bitfield { fields, .. } => {
                let tab = table_after(s, &heading);
                assert_eq!(tab.rows.len(), fields.len());
                for (row, b) in tab.rows.iter().zip(fields) {
                    assert_eq!(tab.cell(row, "Bits"), bits(b.lsb, b.width));
                    assert!(tab.cell(row, "Field").starts_with(&format!("`{}`", b.name)));
                    if let BitsType::Named { name, .. } = &b.ty {
                        assert!(plain(tab.cell(row, "Type")).contains(name.as_str()));
                    }
                }
            }
            TypeKind::Struct { fields, .. } => {
                let tab = table_after(s, &heading);
                assert_eq!(tab.rows.len(), fields.len());
                for (row, f) in tab.rows.iter().zip(fields) {
                    assert_eq!(tab.cell(row, "Off"), off(f.offset));
                    cites(&f.evidence, tab.cell(row, "Evidence"));
                }
            }
            TypeKind::Union {
                discriminator,
                variants,
            } => {
                for v in variants {
                    let arm = format!("#### {}.{} — ", t.name, v.name);
                    let line = s
                        .lines()
                        .find(|l| l.starts_with(&arm))
                        .expect("arm heading");
                    let tab = table_after(s, line);
                    // The arm's members plus the discriminator, by offset.
                    assert_eq!(tab.rows.len(), v.fields.len() + 1);
                    let disc = tab
                        .rows
                        .iter()
                        .find(|r| {
                            tab.cell(r, "Field")
                                .starts_with(&format!("`{}`", discriminator.name))
                        })
                        .unwrap();
                    assert_eq!(tab.cell(disc, "Off"), off(discriminator.offset));
                }
            }
        }
    }
    // OPCODE's gather-transpose enumerator is not on sunda (seed-004 §10): cayman, mariana
    // and maverick, three neighbours in the generations' order, shown as a range.
    let s = section(page, "### OPCODE");
    let tab = table_after(s, "### OPCODE");
    let row = tab
        .rows
        .iter()
        .find(|r| tab.cell(r, "Name") == "`DMA_GATHER_TRANSPOSE`")
        .unwrap();
    assert_eq!(tab.cell(row, "Architectures"), "cayman–maverick");
}

// --- conflicts ---------------------------------------------------------------------------

/// Every declared member with alternatives: (title, primary name, alternatives).
fn declared_conflicts<'m>(m: &'m Model) -> Vec<(String, String, &'m [Alternative])> {
    let mut out = Vec::new();
    for t in &m.types {
        let mut push = |path: String, name: &str, alts: &'m [Alternative]| {
            if !alts.is_empty() {
                out.push((format!("{}.{path}", t.name), name.to_string(), alts));
            }
        };
        match &t.kind {
            TypeKind::Struct { fields, .. } => {
                for f in fields {
                    push(f.name.clone(), &f.name, &f.alternatives);
                }
            }
            TypeKind::Union {
                discriminator: d,
                variants,
            } => {
                push(d.name.clone(), &d.name, &d.alternatives);
                for v in variants {
                    for f in &v.fields {
                        push(format!("{}.{}", v.name, f.name), &f.name, &f.alternatives);
                    }
                }
            }
            TypeKind::Bitfield { fields, .. } => {
                for b in fields {
                    push(b.name.clone(), &b.name, &b.alternatives);
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn conflicts_page() {
    let m = model();
    let page = &docs(&m)["docs/conflicts.md"];
    let all = declared_conflicts(&m);
    let index = table_after(page, "# Conflicting readings");
    assert_eq!(index.rows.len(), all.len());
    for (title, primary, alts) in &all {
        let heading = format!("## {title}");
        let s = section(page, &heading);
        let t = table_after(s, &heading);
        // A reserved primary (DMA_CONFIGS.reserved_bitfield) carries its role mark after.
        let first = t.cell(&t.rows[0], "Reading");
        let want = format!("**primary**<br>`{primary}`");
        assert!(
            first == want || first == format!("{want}<br>**reserved**"),
            "{first}"
        );
        check_readings(&t, alts);
    }
    let titles: Vec<&str> = all.iter().map(|(t, ..)| t.as_str()).collect();
    assert!(titles.contains(&"HEADER.inst_word_len"));
    assert!(titles.contains(&"HEADER.debug_cmd"));

    // HEADER: supp-descriptor-model §2.1 counts inst_word_len in 16-byte records; seed-000
    // and the instruction-bundle page read +2..+3 as one reserved/format word.
    let s = section(page, "## HEADER.inst_word_len");
    assert!(s.contains("`inst_word_len_16b_records`"));
    assert!(s.contains("**supp-descriptor-model §2.1**"));
    // It lands at byte 1 of every word that opens with HEADER.
    let with_header = m
        .words()
        .filter(|w| m.leaves(w).iter().any(|l| l.path == "header.inst_word_len"));
    assert!(s.contains("[DMA_DIRECT2D](words/DMA_DIRECT2D.md) `header.inst_word_len` at 1 (0x01)"));
    for w in with_header {
        assert!(
            s.contains(&format!(
                "[{}](words/{}.md) `header.inst_word_len` at 1 (0x01)",
                w.name, w.name
            )),
            "{} listed",
            w.name
        );
    }
    let s = section(page, "## HEADER.debug_cmd");
    let t = table_after(s, "## HEADER.debug_cmd");
    let alt = &t.rows[1];
    assert_eq!(t.cell(alt, "Reading"), "alternative<br>`format_reserved`");
    assert!(t.cell(alt, "Confidence").starts_with("CONFIRMED"));
    assert!(
        t.cell(alt, "Evidence")
            .contains("**supp-instruction-bundle** · *CERTAIN*")
    );
}

// --- coverage ----------------------------------------------------------------------------

#[test]
fn coverage_adds_up() {
    let m = model();
    let page = &docs(&m)["docs/coverage.md"];
    let t = table_after(page, "# Coverage");
    let mut cols: Vec<String> = vec!["Word".into()];
    cols.extend(m.levels.iter().map(|l| l.name.clone()));
    cols.extend(["reserved".into(), "unknown".into(), "Bytes".into()]);
    assert_eq!(t.head, cols);
    let n = |s: &str| -> usize { s.trim_matches('*').parse().unwrap() };
    let mut totals = vec![0; cols.len() - 1];
    // A row per word, then one per record (a top-level struct, counted at its own size).
    let words: Vec<&TypeDef> = m.words().chain(m.records()).collect();
    assert!(
        m.records().count() >= 2,
        "SDMA_CME_BD_DESC and SDMA_CCE_DESC"
    );
    assert_eq!(t.rows.len(), words.len() + 1);
    for (row, w) in t.rows.iter().zip(&words) {
        assert!(row[0].starts_with(&format!("[{}]", w.name)));
        let counts: Vec<usize> = row[1..].iter().map(|c| n(c)).collect();
        let (bytes, parts) = counts.split_last().unwrap();
        assert_eq!(*bytes, w.size);
        assert_eq!(parts.iter().sum::<usize>(), w.size, "{} adds up", w.name);
        // The counts are the model's per-byte classes.
        let cov = m.byte_coverage(w);
        for (i, level) in m.levels.iter().enumerate() {
            let want = cov
                .iter()
                .filter(|c| **c == ByteClass::Data { rank: i })
                .count();
            assert_eq!(counts[i], want, "{} {}", w.name, level.name);
        }
        // Unknown: exactly the bytes some unknown leaf covers (of a bitfield sub-field, the
        // bytes its bit range spans: SDMA_CCE_W0's unknown bits 0..22 are bytes 0..2).
        let mut unknown = vec![false; w.size];
        for l in m.leaves(w).iter().filter(|l| l.role == Role::Unknown) {
            let bytes = match l.bits {
                Some((lsb, width)) => {
                    l.offset + lsb as usize / 8..l.offset + (lsb + width - 1) as usize / 8 + 1
                }
                None => l.offset..l.offset + l.size,
            };
            unknown[bytes].iter_mut().for_each(|b| *b = true);
        }
        let unknown = unknown.iter().filter(|b| **b).count();
        assert_eq!(t.cell(row, "unknown"), unknown.to_string(), "{}", w.name);
        for (t, c) in totals.iter_mut().zip(&counts) {
            *t += c;
        }
    }
    let total: Vec<usize> = t.rows.last().unwrap()[1..].iter().map(|c| n(c)).collect();
    assert_eq!(total, totals);

    // DIRECT2D: everything but the seven raw body bytes of each ADDR8 carries meaning.
    let row = t
        .rows
        .iter()
        .find(|r| r[0].starts_with("[DMA_DIRECT2D]"))
        .unwrap();
    assert_eq!(t.cell(row, "unknown"), "14");
    assert_eq!(t.cell(row, "reserved"), "0");

    // Every scale is explained: tag -> common level.
    for s in &m.scales {
        let heading = format!("### Scale {}", s.name);
        let tab = table_after(section(page, &heading), &heading);
        let got: Vec<(String, String)> = tab
            .rows
            .iter()
            .map(|r| (r[0].trim_matches('`').to_string(), r[1].clone()))
            .collect();
        assert_eq!(got, s.levels);
    }
}

// --- every page --------------------------------------------------------------------------

#[test]
fn tables_are_well_formed_and_output_is_stable() {
    let m = model();
    let a = markdown::render(&m);
    assert_eq!(a, markdown::render(&m), "same model, same bytes");
    assert_eq!(json::render(&m), json::render(&m));
    let mut paths: Vec<&str> = a.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), a.len(), "unique paths");
    for w in m.words() {
        assert!(paths.contains(&format!("docs/words/{}.md", w.name).as_str()));
    }
    // No stray pipe splits a cell: every row has as many cells as its header.
    for (path, text) in &a {
        let mut width = None;
        for line in text.lines() {
            if !line.starts_with('|') {
                width = None;
                continue;
            }
            let n = cells(line).len();
            match width {
                None => width = Some(n),
                Some(w) => assert_eq!(n, w, "{path}: {line}"),
            }
        }
        assert!(text.ends_with('\n'));
    }
    // generate() carries both targets.
    let all: Vec<String> = dmaspec_codegen::generate(&m)
        .into_iter()
        .map(|a| a.path)
        .collect();
    assert!(all.iter().any(|p| p == "dmaspec.json"));
    assert!(all.iter().any(|p| p == "docs/README.md"));
}

// --- JSON --------------------------------------------------------------------------------

#[test]
fn json_model() {
    let m = model();
    let files = json::render(&m);
    assert_eq!(files.len(), 2, "dmaspec.json and the viewer's dmaspec.js");
    let (path, text) = &files[0];
    assert_eq!(path, "dmaspec.json");
    assert!(text.ends_with("}\n"));
    let v: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
    assert_eq!(v["format"], "dmaspec/5");
    assert!(
        text.trim_start()
            .starts_with("{\n  \"format\": \"dmaspec/5\"")
    );
    assert_eq!(v["types"].as_array().unwrap().len(), m.types.len());
    assert_eq!(v["levels"][0]["name"], m.levels[0].name);
    assert_eq!(v["archs"].as_array().unwrap().len(), m.archs.len());
    assert_eq!(v["scales"].as_array().unwrap().len(), m.scales.len());
    assert_eq!(v["sources"].as_array().unwrap().len(), m.sources.len());

    let words = v["words"].as_array().unwrap();
    assert_eq!(words.len(), m.words().count());
    for (j, w) in words.iter().zip(m.words()) {
        assert_eq!(j["name"], w.name.as_str());
        assert_eq!(j["c_name"], w.c_name.as_str());
        assert_eq!(j["opcode"]["value"], w.opcode().unwrap().value);
        let arch: Vec<&str> = j["arch"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(arch, m.word_archs(w));
        let leaves = j["leaves"].as_array().unwrap();
        let model_leaves = m.leaves(w);
        assert_eq!(leaves.len(), model_leaves.len());
        for (jl, l) in leaves.iter().zip(&model_leaves) {
            assert_eq!(jl["path"], l.path.as_str());
            assert_eq!(jl["offset"], l.offset);
            assert_eq!(jl["size"], l.size);
            assert_eq!(jl["type"], l.type_name.as_str());
            match l.confidence {
                Some(c) => {
                    assert_eq!(jl["confidence"]["tag"], c.tag.as_str());
                    assert_eq!(jl["confidence"]["level"], c.level.as_str());
                }
                None => assert!(jl["confidence"].is_null(), "{}", l.path),
            }
            let chain = jl["chain"].as_array().unwrap();
            assert_eq!(chain.len(), l.chain().count());
            for (i, (jc, c)) in chain.iter().zip(l.chain()).enumerate() {
                assert_eq!(jc["path"], c.path.as_str());
                // An unknown leaf's own member claims no tag; the members holding it do.
                if l.role == Role::Unknown && i + 1 == chain.len() {
                    assert!(jc["confidence"].is_null(), "{}", l.path);
                } else {
                    assert_eq!(jc["confidence"]["tag"], c.confidence.tag.as_str());
                }
                assert_eq!(jc["evidence"].as_array().unwrap().len(), c.evidence.len());
            }
            assert_eq!(
                jl["alternatives"].as_array().unwrap().len(),
                l.alternatives.len()
            );
        }
    }

    let d2d = words.iter().find(|w| w["name"] == "DMA_DIRECT2D").unwrap();
    // dmaspec/2: a sub-word's opcode records its envelope, field and value; other words
    // have no such key.
    assert!(d2d["opcode"].get("sub_opcode").is_none());
    let desc_gen = words
        .iter()
        .find(|w| w["name"] == "EXTENDED_RDMA_DESC_GEN")
        .unwrap();
    assert_eq!(desc_gen["opcode"]["value"], 0xf0);
    let sub = &desc_gen["opcode"]["sub_opcode"];
    assert_eq!(sub["envelope"], "EXTENDED");
    assert_eq!(sub["field"], "extended_opcode");
    assert_eq!(
        (sub["offset"].as_u64(), sub["size"].as_u64()),
        (Some(12), Some(1))
    );
    assert_eq!(sub["enumerator"], "EXTENDED_RDMA_DESC_GEN");
    assert_eq!(sub["value"], 8);
    assert_eq!(d2d["opcode"]["value"], 184);
    assert_eq!(d2d["opcode"]["enumerator"], "DMAMEMCPY");
    assert_eq!(d2d["opcode"]["aliases"][0]["name"], "DMA_MEMCPY");
    let leaf = |name: &str| {
        d2d["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["path"] == name)
            .unwrap_or_else(|| panic!("leaf {name}"))
            .clone()
    };
    let s = leaf("src_elem_size");
    assert_eq!(
        (s["offset"].as_u64(), s["size"].as_u64()),
        (Some(36), Some(2))
    );
    assert_eq!(s["type"], "u16");
    assert_eq!(s["role"], "data");
    assert_eq!(s["bits"], serde_json::Value::Null);
    let p = leaf("dma_configs.priority_class");
    assert_eq!(p["bits"], serde_json::json!({"lsb": 0, "width": 3}));
    let b = leaf("src_start_addr.addr_reg.body");
    assert_eq!(b["role"], "unknown");
    assert_eq!(b["variant"], "src_start_addr.addr_reg");
    let h = leaf("header.inst_word_len");
    assert_eq!(h["alternatives"][0]["name"], "inst_word_len_16b_records");
    assert_eq!(h["alternatives"][0]["type"], "u8");

    let gx = words
        .iter()
        .find(|w| w["name"] == "DMA_GATHER_XPOSE")
        .unwrap();
    assert!(!gx["arch"].as_array().unwrap().iter().any(|a| a == "sunda"));
}

/// GitHub's anchor for a heading line's text.
fn anchor(heading: &str) -> String {
    plain(heading)
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn links_resolve() {
    let m = model();
    let d = docs(&m);
    let viewer: Vec<String> = dmaspec_codegen::emit::viewer::render(&m)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let anchors: BTreeMap<&str, Vec<String>> = d
        .iter()
        .map(|(p, text)| {
            let a = text
                .lines()
                .filter(|l| l.starts_with('#'))
                .map(|l| anchor(l.trim_start_matches('#')))
                .collect();
            (p.as_str(), a)
        })
        .collect();
    let mut checked = 0;
    for (path, text) in &d {
        let dir = Path::new(path).parent().unwrap();
        for (i, _) in text.match_indices("](") {
            // `\[x\](y)` is escaped text (a quoted page's link), not a link.
            if text[..i].ends_with('\\') {
                continue;
            }
            let target = &text[i + 2..];
            let target = &target[..target.find(')').unwrap()];
            let (file, frag) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() {
                path.clone()
            } else {
                // Normalise `../` by hand: pages are at most one level deep.
                let joined = dir.join(file);
                let mut parts: Vec<&str> = Vec::new();
                for c in joined.iter().map(|c| c.to_str().unwrap()) {
                    if c == ".." {
                        parts.pop();
                    } else {
                        parts.push(c);
                    }
                }
                parts.join("/")
            };
            // The viewer is a page of the docs too, though not Markdown (its query picks
            // the extension its word links use).
            if let Some(page) = file.strip_suffix("index.html?ext=.html") {
                assert!(
                    viewer.contains(&format!("{page}index.html")),
                    "{path}: {target}"
                );
                checked += 1;
                continue;
            }
            let heads = anchors
                .get(file.as_str())
                .unwrap_or_else(|| panic!("{path}: link to missing page {target}"));
            if !frag.is_empty() {
                assert!(
                    heads.iter().any(|h| h == frag),
                    "{path}: no anchor for {target}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100);
}
