//! The register file pages (`docs/registers/<file>.md`) and their bit maps
//! (`docs/svg/registers/<file>/*.svg`), read back and checked against the model: every
//! register and every field is on its file's page with its offset, bits, access and reset;
//! every layout has a well-formed bit map whose boxes are exactly that layout's fields,
//! with the bits no field covers greyed.
//!
//! The checks run on the workspace's own spec (whatever register files it has) and on a
//! small in-memory spec with per-generation layouts, a bundle array, an enum, alternative
//! readings and a recorded conflict.

use std::collections::{BTreeMap, BTreeSet};

use dmaspec_codegen::emit::markdown;
use dmaspec_codegen::load::load_files;
use dmaspec_codegen::model::registers::{RegField, RegFile, Register};
use dmaspec_codegen::model::{Evidence, Model};
use dmaspec_testkit::markdown::{Table, archs_in, cells, plain, shows_quote};
use dmaspec_testkit::{model, spec};

/// Three generations; a file with a single bundle and a bundle array; `ctrl` is laid out
/// one way on gen1 and gen2 and another on gen3 (a field added, a field moved), `status`
/// is declared once per generation, `mode` has an enum and an alternative reading, and a
/// `[[conflict]]` is about `ctrl`.
const SYNTHETIC: &str = r#"
[[arch]]
name = "gen1"
nc = 1
doc = "First."

[[arch]]
name = "gen2"
nc = 2
doc = "Second."

[[arch]]
name = "gen3"
nc = 3
doc = "Third."

[[enum]]
name = "OPCODE"
c_name = "OP"
repr = "u8"
doc = "Opcodes."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "W1", value = 0x10 }]

[[enum]]
name = "QMODE"
c_name = "QMODE"
repr = "u8"
doc = "Queue modes."
confidence = "HIGH"
evidence = [{ source = "src §1" }]
values = [{ name = "OFF", value = 0 }, { name = "RING", value = 1 }, { name = "FIFO", value = 2 }]

[[regfile]]
name = "QCTL"
doc = "A queue controller."
size = 0x1000
bus_width = 32
confidence = "HIGH"
evidence = [{ source = "src §2", names = "qctl.json" }]
counts = [
  { what = "register definitions", value = 4, source = "src §2", names = "4 registers" },
  { what = "physical registers after array expansion", value = 12, source = "src §2" },
  { what = "instances in the address map", value = 9, source = "src §3" },
]

[[regfile.bundle]]
name = "global"
offset = 0x000
size = 0x100
doc = "Global control."
evidence = [{ source = "src §2" }]

[[regfile.bundle.register]]
name = "ctrl"
offset = 0x00
access = "RW"
doc = "Control (no whole-register reset: the generations differ)."
evidence = [{ source = "src §2.1", names = "ctrl @ 0x0" }]

[[regfile.bundle.register.field]]
name = "en"
bits = "0"
reset = 1
doc = "Enable."
evidence = [{ source = "src §2.1", names = "en[0]" }]

[[regfile.bundle.register.field]]
name = "mode"
bits = "3:2"
reset = 1
enum = "QMODE"
arch = ["gen1", "gen2"]
doc = "Mode."
evidence = [{ source = "src §2.1", names = "mode[3:2]" }]
alternatives = [
  { name = "mode_wide", doc = "Another page reads it as bits 4:2.", confidence = "LOW", evidence = [{ source = "src §4", names = "mode[4:2]" }] },
]

[[regfile.bundle.register.field]]
name = "mode"
bits = "5:4"
reset = 1
enum = "QMODE"
arch = ["gen3"]
doc = "Mode, moved on gen3."
evidence = [{ source = "src §2.2", names = "mode[5:4]" }]

[[regfile.bundle.register.field]]
name = "spare"
bits = "31:24"
access = "RO"
arch = ["gen3"]
confidence = "LOW"
doc = "Spare, gen3 only."

[[regfile.bundle.register]]
name = "status"
offset = 0x04
access = "RO"
arch = ["gen1"]
doc = "Status, gen1."
evidence = [{ source = "src §2.3" }]

[[regfile.bundle.register.field]]
name = "busy"
bits = "0"
doc = "Busy."

[[regfile.bundle.register]]
name = "status"
offset = 0x08
access = "RO"
reset = 0
arch = ["gen2", "gen3"]
doc = "Status, moved."
evidence = [{ source = "src §2.3" }]

[[regfile.bundle.register.field]]
name = "busy"
bits = "1"
reset = 0
doc = "Busy."

[[regfile.bundle.register.field]]
name = "level"
bits = "15:8"
reset = 0
doc = "Fill level."

[[regfile.bundle]]
name = "queue"
offset = 0x100
size = 0x10
count = 4
stride = 0x10
doc = "One per queue."
evidence = [{ source = "src §2.4" }]

[[regfile.bundle.register]]
name = "ring_base"
offset = 0x0
access = "RW"
reset = 0
doc = "Ring base."
evidence = [{ source = "src §2.4" }]

[[regfile.bundle.register.field]]
name = "addr"
bits = "31:4"
reset = 0
doc = "Base address bits 31:4."

[[regfile.bundle.register]]
name = "head"
offset = 0x4
access = "RO"
doc = "Head pointer."
evidence = [{ source = "src §2.4" }]

[[regfile.bundle.register.field]]
name = "ptr"
bits = "11:0"
doc = "Head."

[[regfile]]
name = "QCTL_OLD"
doc = "The controller's first generation only."
size = 0x100
bus_width = 32
arch = ["gen1"]
confidence = "LOW"
evidence = [{ source = "src §5" }]

[[regfile.bundle]]
name = "only"
offset = 0x0
size = 0x4

[[regfile.bundle.register]]
name = "id"
offset = 0x0
access = "RO"
reset = 0x1234
evidence = [{ source = "src §5" }]

[[regfile.bundle.register.field]]
name = "id"
bits = "15:0"
reset = 0x1234

[[conflict]]
name = "ctrl_reset"
doc = "Two pages give ctrl different resets."
about = ["QCTL.global.ctrl.en"]
readings = [
  { name = "one", doc = "Reset 1.", confidence = "HIGH", evidence = [{ source = "src §2.1" }] },
  { name = "zero", doc = "Reset 0.", confidence = "LOW", evidence = [{ source = "src §4" }] },
]
"#;

fn synthetic() -> Model {
    let files = vec![(
        spec::root().join("prelude.toml"),
        format!("{}{SYNTHETIC}", spec::PROVENANCE),
    )];
    load_files(&spec::root(), files).unwrap_or_else(|e| panic!("{e}"))
}

/// The workspace's spec and the synthetic one.
fn models() -> Vec<(&'static str, Model)> {
    vec![("spec/", model()), ("synthetic", synthetic())]
}

fn docs(m: &Model) -> BTreeMap<String, String> {
    markdown::render(m).into_iter().collect()
}

fn page_of(f: &RegFile) -> String {
    format!("docs/registers/{}.md", f.name.to_lowercase())
}

/// The page of a bundle's registers.
fn bundle_page_of(f: &RegFile, bundle: &str) -> String {
    format!("docs/registers/{}/{bundle}.md", f.name.to_lowercase())
}

// --- reading the pages back ------------------------------------------------------------

/// The lines from `heading` to the next heading of its level or higher.
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

/// Every table in `md`, in order.
fn tables(md: &str) -> Vec<Table> {
    let mut out = Vec::new();
    let mut lines = md.lines().peekable();
    while let Some(l) = lines.next() {
        if !l.starts_with('|') {
            continue;
        }
        let head = cells(l);
        let sep = lines.next().expect("separator row");
        assert!(sep.starts_with("|-") || sep.starts_with("|:"), "{sep}");
        let mut rows = Vec::new();
        while let Some(r) = lines.next_if(|r| r.starts_with('|')) {
            rows.push(cells(r));
        }
        out.push(Table { head, rows });
    }
    out
}

/// The first table of `md` whose first column is `first`.
fn table<'t>(ts: &'t [Table], first: &str) -> &'t Table {
    ts.iter()
        .find(|t| t.head[0] == first)
        .unwrap_or_else(|| panic!("a table headed {first}"))
}

fn hex(v: Option<u64>, width: u32) -> String {
    match v {
        Some(v) => format!("`0x{v:0w$X}`", w = width.div_ceil(4) as usize),
        None => "—".into(),
    }
}

fn cites(ev: &[Evidence], cell: &str) {
    let cell = plain(cell);
    for e in ev {
        assert!(cell.contains(&e.cite), "cites {:?}: {cell}", e.cite);
        assert!(
            cell.contains(&e.confidence.tag),
            "tags {:?}",
            e.confidence.tag
        );
        if let Some(s) = &e.alias {
            assert!(cell.contains(s.as_str()), "shows {s:?}: {cell}");
        }
        for s in [&e.names, &e.pin, &e.value].into_iter().flatten() {
            assert!(shows_quote(&cell, s), "quotes {s:?}: {cell}");
        }
    }
}

/// Architectures of `f` that `lists` all hold, in the file's order.
fn archs_of<'f>(f: &'f RegFile, lists: &[&[String]]) -> Vec<&'f str> {
    (f.archs.iter())
        .filter(|a| lists.iter().all(|l| l.contains(a)))
        .map(String::as_str)
        .collect()
}

/// Whether an Archs cell names exactly `archs`.
fn archs_cell_is(m: &Model, cell: &str, archs: &[&str]) -> bool {
    archs_in(cell, &m.arch_names()) == archs
}

/// Every (bundle, register) declaration pair of `f` present on some architecture.
fn declarations(f: &RegFile) -> Vec<(&dmaspec_codegen::model::registers::Bundle, &Register)> {
    (f.bundles.iter())
        .flat_map(|b| b.registers.iter().map(move |r| (b, r)))
        .filter(|(b, r)| !archs_of(f, &[&b.archs, &r.archs]).is_empty())
        .collect()
}

// --- the checks ------------------------------------------------------------------------

#[test]
fn every_register_file_has_a_page_linked_from_the_index_and_the_book() {
    for (which, m) in models() {
        let d = docs(&m);
        let index = &d["docs/README.md"];
        let summary = &d["docs/SUMMARY.md"];
        if m.regfiles.is_empty() {
            assert!(!index.contains("## Register files"), "{which}");
            assert!(!d.keys().any(|p| p.starts_with("docs/registers/")));
            continue;
        }
        let t = table(&tables(section(index, "## Register files")), "File")
            .rows
            .len();
        assert_eq!(t, m.regfiles.len(), "{which}: a row per file");
        let book = section(summary, "# Register files");
        for f in &m.regfiles {
            let page = page_of(f);
            let body = d.get(&page).unwrap_or_else(|| panic!("{which}: {page}"));
            assert!(body.contains(&format!("\n# Register file {}\n", f.name)));
            let rel = page.strip_prefix("docs/").unwrap();
            assert!(
                index.contains(&format!("]({rel})")),
                "{which}: index links {rel}"
            );
            assert!(
                book.contains(&format!("]({rel})")),
                "{which}: book lists {rel}"
            );
            for c in &f.counts {
                assert!(
                    body.contains(&format!("The source counts **{}**", c.value)),
                    "{which}: count {}",
                    c.what
                );
                assert!(plain(body).contains(&c.evidence.cite));
            }
        }
    }
}

#[test]
fn every_register_and_field_is_on_its_page_with_bits_and_reset() {
    for (which, m) in models() {
        let d = docs(&m);
        for f in &m.regfiles {
            let page = &d[&page_of(f)];
            let map = tables(section(page, "## Register map"));
            let map = table(&map, "Offset");
            let decls = declarations(f);
            assert_eq!(map.rows.len(), decls.len(), "{which} {}: map rows", f.name);
            for (b, r) in &decls {
                let archs = archs_of(f, &[&b.archs, &r.archs]);
                let at = format!("0x{:X}", b.offset + r.offset);
                let row = (map.rows.iter())
                    .find(|row| {
                        plain(map.cell(row, "Register")).starts_with(&format!("[{}]", r.name))
                            && plain(map.cell(row, "Bundle")).contains(&b.name)
                            && archs_cell_is(&m, map.cell(row, "Archs"), &archs)
                    })
                    .unwrap_or_else(|| panic!("{which}: map row of {}.{}", b.name, r.name));
                let off = map.cell(row, "Offset").to_uppercase().replace("0X", "0x");
                let off = off.trim_start_matches('`');
                let digits = off.trim_start_matches("0x");
                let digits = &digits[..digits.find(|c: char| !c.is_ascii_hexdigit()).unwrap()];
                assert_eq!(
                    u64::from_str_radix(digits, 16).unwrap(),
                    b.offset + r.offset,
                    "{which}: offset of {}.{} ({at})",
                    b.name,
                    r.name
                );
                if b.count > 1 {
                    assert!(
                        map.cell(row, "Offset")
                            .contains(&format!("i·{:#X}", b.stride)),
                        "{which}: stride of {}",
                        b.name
                    );
                }
                assert_eq!(map.cell(row, "Access"), r.access_label());
                assert_eq!(map.cell(row, "Reset"), hex(r.reset, r.width));

                // The register's own section, on its bundle's page, which the file's page
                // and the book link.
                let bundle_page = bundle_page_of(f, &b.name);
                let rel = &bundle_page["docs/registers/".len()..];
                assert!(page.contains(&format!("]({rel})")), "{which}: {rel} linked");
                let summary = &d["docs/SUMMARY.md"];
                assert!(summary.contains(&format!(
                    "  - [Bundle {} of {}](registers/{rel})",
                    b.name, f.name
                )));
                let sec = section(&d[&bundle_page], &format!("### {}.{}", b.name, r.name));
                let ts = tables(sec);
                let decl = table(&ts, "Offset");
                let drow = (decl.rows.iter())
                    .find(|row| archs_cell_is(&m, decl.cell(row, "Archs"), &archs))
                    .unwrap_or_else(|| panic!("{which}: declaration row of {}", r.name));
                assert_eq!(decl.cell(drow, "Reset"), hex(r.reset, r.width));
                assert_eq!(decl.cell(drow, "In bundle"), format!("`+{:#X}`", r.offset));
                assert!(decl.cell(drow, "Confidence").contains(&r.confidence.tag));
                cites(&r.evidence, decl.cell(drow, "Evidence"));

                let fields = table(&ts, "Bits");
                for x in &r.fields {
                    let archs = archs_of(f, &[&b.archs, &r.archs, &x.archs]);
                    if archs.is_empty() {
                        continue;
                    }
                    field_row(which, &m, fields, x, &archs);
                    if !x.alternatives.is_empty() {
                        let h = format!("#### {}.{}.{} readings", b.name, r.name, x.name);
                        let rt = tables(section(sec, &h));
                        let rt = table(&rt, "Reading");
                        for a in &x.alternatives {
                            let row = (rt.rows.iter())
                                .find(|row| plain(&row[0]).contains(&a.name))
                                .unwrap_or_else(|| panic!("{which}: reading {}", a.name));
                            cites(&a.evidence, rt.cell(row, "Evidence"));
                            assert!(rt.cell(row, "Confidence").contains(&a.confidence.tag));
                        }
                    }
                }
                for c in &m.conflicts {
                    let about = c.about.iter().any(|a| {
                        m.register_path(a).is_some_and(|p| {
                            std::ptr::eq(p.file, f)
                                && p.bundle.name == b.name
                                && p.registers.iter().any(|y| y.name == r.name)
                        })
                    });
                    if about {
                        assert!(
                            sec.contains(&format!(
                                "(../../conflicts.md#{})",
                                c.name.to_lowercase()
                            )),
                            "{which}: {} mentions conflict {}",
                            r.name,
                            c.name
                        );
                    }
                }
            }
        }
    }
}

fn field_row(which: &str, m: &Model, t: &Table, x: &RegField, archs: &[&str]) {
    let row = (t.rows.iter())
        .find(|row| {
            t.cell(row, "Bits") == format!("`{}`", x.bits())
                && t.cell(row, "Field").starts_with(&format!("`{}`", x.name))
                && archs_cell_is(m, t.cell(row, "Archs"), archs)
        })
        .unwrap_or_else(|| panic!("{which}: field row {} [{}] on {archs:?}", x.name, x.bits()));
    assert_eq!(
        t.cell(row, "Reset"),
        hex(x.reset, x.width),
        "{which}: {}",
        x.name
    );
    assert_eq!(
        t.cell(row, "Access"),
        x.access.as_str(),
        "{which}: {}",
        x.name
    );
    assert!(t.cell(row, "Confidence").contains(&x.confidence.tag));
    match &x.enum_type {
        Some(e) => assert!(plain(t.cell(row, "Enum")).contains(e.as_str())),
        None => assert_eq!(t.cell(row, "Enum"), "—"),
    }
    if !x.alternatives.is_empty() {
        assert!(t.cell(row, "Field").contains("⚠"));
    }
    cites(&x.evidence, t.cell(row, "Evidence"));
}

fn num(n: roxmltree::Node, attr: &str) -> usize {
    n.attribute(attr)
        .unwrap_or_else(|| panic!("{attr} on <{}>", n.tag_name().name()))
        .parse()
        .unwrap_or_else(|e| panic!("{attr}: {e}"))
}

/// Where the page embeds pictures: every `![..](../../svg/...)` target, relative to
/// `generated/`.
fn images(section: &str) -> Vec<String> {
    section
        .match_indices("](../../svg/")
        .map(|(i, _)| {
            let t = &section[i + 8..];
            format!("docs/{}", &t[..t.find(')').unwrap()])
        })
        .collect()
}

#[test]
fn every_layout_has_a_well_formed_bit_map() {
    let mut pictures = 0;
    for (which, m) in models() {
        let d = docs(&m);
        for f in &m.regfiles {
            let mut names: Vec<(&str, &str)> = declarations(f)
                .iter()
                .map(|(b, r)| (b.name.as_str(), r.name.as_str()))
                .collect();
            names.dedup();
            for (bundle, register) in names {
                let page = &d[&bundle_page_of(f, bundle)];
                let sec = section(page, &format!("### {bundle}.{register}"));
                let mut seen: BTreeSet<String> = BTreeSet::new();
                for path in images(sec) {
                    let svg = d.get(&path).unwrap_or_else(|| panic!("{which}: {path}"));
                    let doc = roxmltree::Document::parse(svg)
                        .unwrap_or_else(|e| panic!("{which}: {path} well-formed: {e}"));
                    let root = doc.root_element();
                    assert_eq!(root.tag_name().name(), "svg");
                    assert_eq!(num(root, "data-row-bits"), 32);
                    let (bit_px, left) = (num(root, "data-bit-px"), num(root, "data-left"));
                    assert_eq!(
                        root.attribute("data-register"),
                        Some(format!("{}.{bundle}.{register}", f.name).as_str())
                    );
                    let archs: Vec<&str> =
                        root.attribute("data-archs").unwrap().split(' ').collect();
                    assert!(
                        sec.contains(&format!("({})](../../{}", archs.join(", "), &path[5..])),
                        "{which}: {path} captioned with its archs"
                    );
                    let boxes: Vec<roxmltree::Node> = (doc.descendants())
                        .filter(|n| n.has_tag_name("rect"))
                        .filter(|n| matches!(n.attribute("class"), Some("field" | "unknown")))
                        .collect();
                    // Every box where a register diagram puts it (bit 31 leftmost).
                    for n in &boxes {
                        let (bit, w) = (num(*n, "data-bit"), num(*n, "data-width"));
                        assert_eq!(num(*n, "x"), left + (31 - (bit + w - 1) % 32) * bit_px);
                        assert_eq!(num(*n, "width"), w * bit_px);
                    }
                    for arch in &archs {
                        assert!(
                            seen.insert(arch.to_string()),
                            "{which}: {arch} has one bit map"
                        );
                        let v = f.view(arch);
                        let rv = (v.bundles.iter())
                            .filter(|b| b.bundle.name == bundle)
                            .flat_map(|b| b.registers.iter())
                            .find(|r| r.register.name == register)
                            .unwrap_or_else(|| panic!("{which}: {register} on {arch}"));
                        assert_eq!(num(root, "data-width"), rv.register.width as usize);
                        let drawn: BTreeSet<(String, usize, usize)> = (boxes.iter())
                            .filter(|n| n.attribute("class") == Some("field"))
                            .map(|n| {
                                let name = n.attribute("data-field").unwrap().to_string();
                                (name, num(*n, "data-bit"), num(*n, "data-width"))
                            })
                            .collect();
                        let want: BTreeSet<(String, usize, usize)> = (rv.fields.iter())
                            .map(|x| (x.name.clone(), x.lsb as usize, x.width as usize))
                            .collect();
                        assert_eq!(drawn, want, "{which}: {path} on {arch}");
                        let mut grey = 0u64;
                        for n in boxes
                            .iter()
                            .filter(|n| n.attribute("class") == Some("unknown"))
                        {
                            let (bit, w) = (num(*n, "data-bit"), num(*n, "data-width"));
                            grey |= ((1u64 << w) - 1) << bit;
                        }
                        assert_eq!(
                            grey,
                            rv.unknown_mask(),
                            "{which}: {path} greys the unknown bits"
                        );
                    }
                    pictures += 1;
                }
                let want: BTreeSet<String> = (f.views())
                    .filter(|v| {
                        (v.bundles.iter())
                            .filter(|b| b.bundle.name == bundle)
                            .any(|b| b.registers.iter().any(|r| r.register.name == register))
                    })
                    .map(|v| v.arch.to_string())
                    .collect();
                assert_eq!(
                    seen, want,
                    "{which}: {bundle}.{register} bit maps cover its archs"
                );
            }
        }
    }
    assert!(pictures > 0);
}

#[test]
fn synthetic_layouts_split_by_generation() {
    let m = synthetic();
    let d = docs(&m);
    let page = &d["docs/registers/qctl.md"];
    let global = &d["docs/registers/qctl/global.md"];
    // ctrl: gen1 and gen2 share a layout, gen3 has its own; status is declared twice.
    let ctrl = section(global, "### global.ctrl");
    assert_eq!(images(ctrl).len(), 2);
    assert!(ctrl.contains("**Layout on gen1, gen2:**") && ctrl.contains("**Layout on gen3:**"));
    let status = section(global, "### global.status");
    assert_eq!(images(status).len(), 2);
    assert_eq!(table(&tables(status), "Offset").rows.len(), 2);
    // The counts beside the spec's own tallies; the one it cannot tally says so.
    assert!(page.contains("counts **4** register definitions; the spec holds 4 registers."));
    assert!(page.contains(
        "counts **12** physical registers after array expansion; the spec holds 10 registers \
         once bundle arrays are expanded."
    ));
    assert!(
        page.contains("counts **9** instances in the address map; the spec does not tally this")
    );
    assert!(page.contains("`0x100 + i·0x10` (i = 0..3)"));
    assert!(
        global.contains(
            "Bits no field covers on gen3 (unknown, grey in the bit map): `23:6`, `3:1`."
        )
    );
    // QCTL_OLD is gen1 only.
    assert!(d["docs/README.md"].contains("[QCTL_OLD](registers/qctl_old.md)"));
    let conflicts = &d["docs/conflicts.md"];
    assert!(conflicts.contains("[QCTL.global.ctrl.en](registers/qctl/global.md#globalctrl)"));
    assert!(conflicts.contains("## Register fields"));
    assert!(
        conflicts.contains("[QCTL.global.ctrl.mode](registers/qctl/global.md#globalctrl) `3:2`")
    );
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
fn register_links_resolve() {
    for (which, m) in models() {
        let d = docs(&m);
        let pages = (d.keys()).filter(|p| {
            p.starts_with("docs/registers/") || *p == "docs/conflicts.md" || *p == "docs/README.md"
        });
        for path in pages {
            let text = &d[path];
            let dir = path.rsplit_once('/').unwrap().0;
            for (i, _) in text.match_indices("](") {
                // `\[x\](y)` is escaped text (a quoted page's link), not a link.
                if text[..i].ends_with('\\') {
                    continue;
                }
                let target = &text[i + 2..];
                let target = &target[..target.find(')').unwrap()];
                if target.contains("?")
                    || !target.contains(".md")
                        && !target.contains(".svg")
                        && !target.starts_with('#')
                {
                    continue;
                }
                let (file, frag) = target.split_once('#').unwrap_or((target, ""));
                let mut parts: Vec<&str> = dir.split('/').collect();
                if file.is_empty() {
                    parts = path.split('/').collect();
                } else {
                    for c in file.split('/') {
                        if c == ".." {
                            parts.pop();
                        } else {
                            parts.push(c);
                        }
                    }
                }
                let file = parts.join("/");
                let body = d
                    .get(&file)
                    .unwrap_or_else(|| panic!("{which}: {path} links {target}"));
                if !frag.is_empty() {
                    assert!(
                        body.lines()
                            .filter(|l| l.starts_with('#'))
                            .any(|l| anchor(l.trim_start_matches('#')) == frag),
                        "{which}: {path}: no anchor for {target}"
                    );
                }
            }
        }
    }
}
