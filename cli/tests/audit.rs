//! `dmaspec audit`: the hand-written fixture pages in tests/audit/ (an exact row, a
//! difference a recorded alternative explains, an unexplained one, a missing one, a table
//! that matches nothing), garbage and huge pages, the JSON shape, the counts check, and rows
//! of the real reference pages (docs/guide/contributing.md "Auditing against the source pages").

mod common;

use std::path::{Path, PathBuf};

use common::{assert_success, dmaspec, model, root, stderr, stdout};
use dmaspec_codegen::audit::counts::CountsFile;
use dmaspec_codegen::audit::{Aspect, PageReport, RowReport, Verdict, audit_page};

const FIXTURE: &str = "tests/audit/fixture_words.md";

fn audit_file(path: &Path) -> PageReport {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    audit_page(&model(), &path.display().to_string(), &text)
}

/// The row of `report` at page line `line`.
#[track_caller]
fn row(report: &PageReport, line: usize) -> &RowReport {
    report
        .tables
        .iter()
        .flat_map(|t| &t.rows)
        .find(|r| r.line == line)
        .unwrap_or_else(|| panic!("no row at line {line} of {}", report.page))
}

/// The item of the table whose header row is at `line` (the first group of a side-by-side
/// table).
fn item(report: &PageReport, line: usize) -> Option<&str> {
    let t = report.tables.iter().find(|t| t.line == line);
    t.unwrap_or_else(|| panic!("no table at line {line}"))
        .item
        .as_deref()
}

fn spec_path(r: &RowReport) -> &str {
    r.spec.as_ref().map_or("", |p| p.path.as_str())
}

#[test]
fn fixture_rows_are_judged_one_by_one() {
    let r = audit_file(&root().join(FIXTURE));
    // The seed-004 §2 heading names DMA_DIRECT2D_STRUCT and 0xb8.
    assert_eq!(item(&r, 8), Some("DMA_DIRECT2D"));
    // `| 0 | 4 | header | NEURON_ISA_TPB_HEADER |`: offset, width, name and type held.
    let header = row(&r, 10);
    assert_eq!(
        (header.verdict, spec_path(header)),
        (Verdict::Exact, "header")
    );
    // `| 14 | 1 | completion_step |`: the spec's byte 14 is sem_increment.
    let renamed = row(&r, 13);
    assert_eq!(renamed.verdict, Verdict::Unexplained);
    assert_eq!(
        (renamed.differs.as_slice(), spec_path(renamed)),
        (&[Aspect::Name][..], "sem_increment")
    );
    // `| 36 | 2 | src_elem_size | uint32_t |`: the spec has u16.
    assert_eq!(row(&r, 14).differs, [Aspect::Type]);
    // `| 40 | 4 | dst_start_addr |`: the spec's is the 8-byte ADDR8.
    assert_eq!(
        (row(&r, 15).differs.as_slice(), spec_path(row(&r, 15))),
        (&[Aspect::Width][..], "dst_start_addr")
    );
    // `+0x0D[7:4]`: nothing of the spec starts at bit 4 of byte 13, nothing is so named.
    let missing = row(&r, 16);
    assert_eq!(
        (missing.verdict, missing.spec.is_none()),
        (Verdict::Missing, true)
    );
    // Seed 000's `sync_command_byte` at +0x0F of the 0xD4 record is PSEUDO_DMA_DIRECT2D's
    // recorded alternative of dge_op (README conflict #1).
    assert_eq!(item(&r, 20), Some("PSEUDO_DMA_DIRECT2D"));
    let alt = row(&r, 23);
    assert_eq!(
        (alt.verdict, spec_path(alt)),
        (Verdict::Explained, "dge_op")
    );
    assert!(
        alt.explained_by
            .as_deref()
            .unwrap_or("")
            .contains("sync_command_byte")
    );
    // `instr.src_step_elem[0]` at +0x18, 4 bytes: the array's first element.
    assert_eq!(spec_path(row(&r, 24)), "src_step_elem[0]");
    assert_eq!(item(&r, 28), None);
    let c = r.counts;
    assert_eq!(
        (
            c.exact,
            c.explained,
            c.unexplained,
            c.missing,
            c.unmatched_tables
        ),
        (5, 1, 3, 1, 1)
    );
}

#[test]
fn text_report_of_the_fixture() {
    let out = dmaspec(&["audit", FIXTURE], b"");
    assert_success(&out);
    insta::assert_snapshot!(stdout(&out));
}

#[test]
fn json_report_shape() {
    let out = dmaspec(&["audit", "--format", "json", FIXTURE], b"");
    assert_success(&out);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let page = &doc["pages"][0];
    assert_eq!(page["page"], FIXTURE);
    assert_eq!(page["source"], serde_json::Value::Null);
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v.as_object().expect("an object").keys().cloned().collect()
    };
    assert_eq!(keys(page), ["page", "source", "counts", "tables"]);
    let counts = [
        "exact",
        "explained",
        "unexplained",
        "missing",
        "unmatched_tables",
    ];
    assert_eq!(keys(&page["counts"]), counts);
    assert_eq!(keys(&doc["totals"]), counts);
    let table = &page["tables"][0];
    assert_eq!(
        keys(table),
        ["line", "section", "caption", "item", "counts", "rows"]
    );
    let renamed = &table["rows"][3];
    assert_eq!(
        keys(renamed),
        [
            "line",
            "offset",
            "width",
            "name",
            "verdict",
            "spec",
            "differs",
            "explained_by"
        ]
    );
    assert_eq!(renamed["verdict"], "unexplained");
    assert_eq!(renamed["differs"], serde_json::json!(["name"]));
    assert_eq!(
        renamed["spec"],
        serde_json::json!({ "path": "sem_increment", "bit_offset": 112, "bits": 8, "type_name": "u8" })
    );
}

#[test]
fn garbage_truncated_and_huge_pages_do_not_panic() {
    for page in ["tests/audit/garbage.md", "tests/audit/truncated.md"] {
        let out = dmaspec(&["audit", page], b"");
        assert_success(&out);
    }
    let m = model();
    // Bytes that are not UTF-8 are read lossily; odd pipes and fences anywhere.
    let noise: String = (0..4000u32)
        .map(|i| {
            [
                '|', '`', '-', '[', ']', '+', '0', 'x', '\n', ':', '.', ')', '*', '#',
            ][(i * 7 % 14) as usize]
        })
        .collect();
    audit_page(&m, "noise.md", &noise);
    let mut huge = String::from("## `DMA_DIRECT2D_STRUCT`\n\n| off | w | field |\n|---|---|---|\n");
    for i in 0..20_000u64 {
        match i % 2 {
            0 => huge.push_str("| 13 | 1 | `semaphore` |\n"),
            _ => huge.push_str(&format!("| {} | {} | `f{i}` |\n", i % 64, i % 9)),
        }
    }
    let r = audit_page(&m, "huge.md", &huge);
    assert_eq!(r.tables.len(), 1);
    assert_eq!(r.tables[0].rows.len(), 20_000);
}

#[test]
fn check_counts_fails_when_a_row_is_lost() {
    let dir = root().join("target/tmp/audit-test");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("counts.json");
    let file_arg = file.display().to_string();
    let out = dmaspec(&["audit", "--write-counts", &file_arg, FIXTURE], b"");
    assert_success(&out);
    assert_success(&dmaspec(
        &["audit", "--check-counts", &file_arg, FIXTURE],
        b"",
    ));
    // As if the spec had held the missing row before: now it is lost, and CI must fail.
    let mut old = CountsFile::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let page = old.pages.get_mut("fixture_words.md").unwrap();
    page.rows
        .insert("L0016".into(), "exact DMA_DIRECT2D.sem_hi_nibble".into());
    page.counts.exact += 1;
    page.counts.missing -= 1;
    std::fs::write(&file, old.render()).unwrap();
    let out = dmaspec(&["audit", "--check-counts", &file_arg, FIXTURE], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("fixture_words.md:16: exact DMA_DIRECT2D.sem_hi_nibble -> missing"),
        "{err}"
    );
    assert!(
        err.contains("6 exact, 1 explained, 3 unexplained, 0 missing"),
        "{err}"
    );
    assert!(err.contains(&format!("--write-counts {file_arg}")), "{err}");
}

/// The reference pages, found as CI finds them: $DMASPEC_REFERENCE, else
/// ../shared/reference beside the repository, else beside its origin.
fn reference_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("DMASPEC_REFERENCE") {
        return PathBuf::from(dir);
    }
    let beside = root().join("../shared/reference");
    if beside.is_dir() {
        return beside;
    }
    let origin = std::process::Command::new("git")
        .args(["remote", "get-url", "origin"])
        .current_dir(root())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let origin = origin.strip_prefix("file://").unwrap_or(&origin);
    let dir = Path::new(origin).join("../shared/reference");
    assert!(
        dir.is_dir(),
        "the reference pages are not beside the repository or its origin; set DMASPEC_REFERENCE"
    );
    dir
}

#[test]
fn real_pages_rows() {
    let tables = audit_file(&reference_dir().join("supp-descriptor-ring-field-tables.md"));
    // §4 Table 4.1 `| 0 | 1 | opcode (Table 4.0) |` is HEADER.opcode, which DMA_DIRECT2D
    // holds as header.opcode; §2.1's `| 0 | 4 | header |` is DMA_DIRECT2D.header.
    assert_eq!(item(&tables, 397), Some("HEADER"));
    let opcode = row(&tables, 399);
    assert_eq!(
        (opcode.verdict, spec_path(opcode)),
        (Verdict::Exact, "opcode")
    );
    let spec = opcode.spec.as_ref().unwrap();
    assert_eq!((spec.bit_offset, spec.bits), (0, 8));
    assert_eq!(item(&tables, 137), Some("DMA_DIRECT2D"));
    assert_eq!(
        (row(&tables, 139).verdict, spec_path(row(&tables, 139))),
        (Verdict::Exact, "header")
    );
    // Table 1.1 `| [15:0] | b16 | length_meta |`: a bit row of SDMA_DESC_WORD0, whose
    // kernel name is `length` (wiki-udma-desc §2 LENGTH); length_meta is its evidence name.
    assert_eq!(spec_path(row(&tables, 83)), "length");
    assert_eq!(row(&tables, 83).verdict, Verdict::Exact);

    let seed000 = audit_file(&reference_dir().join("seed-000-dma-family-encoding.md"));
    // Static arm `| +0x26 | 1 | src offset-reg id + flags |`: PSEUDO_DMA_DIRECT2D's
    // src_bound_reg, whose recorded alternative is seed 000's reading (conflict #4).
    assert_eq!(item(&seed000, 96), Some("PSEUDO_DMA_DIRECT2D"));
    let offset_reg = row(&seed000, 116);
    assert_eq!(
        (offset_reg.verdict, spec_path(offset_reg)),
        (Verdict::Explained, "src_bound_reg")
    );
    // §7.1 `| 40 | 2 | dst_buffer_size |`: the spec's src_buffer_size spans 38..42 (the
    // DVE page's width); its recorded alternative src_buffer_size_u16 is this page's
    // reading, u16 at 38 then dst_buffer_size at 40 (README conflict #8).
    let gather = audit_file(&reference_dir().join("supp-gather-scatter-descriptors.md"));
    let dst_size = row(&gather, 540);
    assert_eq!(dst_size.verdict, Verdict::Explained);
    assert!(
        dst_size
            .explained_by
            .as_deref()
            .unwrap_or("")
            .contains("`src_buffer_size_u16` of INDIRECT_COPY.src_buffer_size")
    );

    // The DGE arm's `(_DWORD)v104+3` is byte 12 of the 0xDA extension.
    let bound = row(&seed000, 148);
    assert_eq!(
        (bound.verdict, spec_path(bound)),
        (Verdict::Exact, "src_bound_size_bytes")
    );
}

/// The totals and per-page table of the reference audit in docs/guide/contributing.md, rendered from the checked-in
/// counts (tests/audit/reference_counts.json), so no figure there is typed by hand.
fn readme_audit_table() -> String {
    let text = std::fs::read_to_string(root().join("tests/audit/reference_counts.json")).unwrap();
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = |c: &serde_json::Value, k: &str| c[k].as_u64().unwrap();
    let t = &j["totals"];
    let pages = j["pages"].as_object().unwrap();
    let mut out = format!(
        "Totals over the {} reference pages today: **{} exact, {} explained, {} unexplained,\n\
         {} missing, {} tables that match no spec item**.\n\n\
         | page | exact | explained | unexplained | missing | unmatched tables |\n\
         |---|---|---|---|---|---|\n",
        pages.len(),
        n(t, "exact"),
        n(t, "explained"),
        n(t, "unexplained"),
        n(t, "missing"),
        n(t, "unmatched_tables"),
    );
    for (page, p) in pages {
        let c = &p["counts"];
        out.push_str(&format!(
            "| {page} | {} | {} | {} | {} | {} |\n",
            n(c, "exact"),
            n(c, "explained"),
            n(c, "unexplained"),
            n(c, "missing"),
            n(c, "unmatched_tables"),
        ));
    }
    out
}

#[test]
fn readme_audit_totals_are_the_counts_file() {
    let readme = std::fs::read_to_string(root().join("docs/guide/contributing.md")).unwrap();
    let table = readme_audit_table();
    assert!(
        readme.contains(&table),
        "docs/guide/contributing.md \"Auditing against the source pages\" must hold the counts file's table:\n{table}"
    );
}

/// A page with a bit range past every number (`0..18446744073709551615`) beside a row the
/// spec holds.
const OVERFLOW_PAGE: &str = "## `DMA_DIRECT2D_STRUCT`\n\n| bits | field |\n|---|---|\n\
| [7:0] | `opcode` |\n| 0..18446744073709551615 | `huge` |\n\n\
## `DMA_DIRECT2D_STRUCT` again\n\n| bits | field |\n|---|---|\n\
| 0..18446744073709551615 | `huge` |\n| b99999999999999999999999 | `huger` |\n";

/// Width cells the audit cannot read, and a byte range under an offset column whose end is
/// past what 64 bits count: each a finding of its row, never a width taken as exact or an
/// end dropped.
const UNREADABLE_WIDTHS_PAGE: &str = "## `DMA_DIRECT2D_STRUCT`\n\n| off | width | field |\n\
|---|---|---|\n| 0 | 1 | `opcode` |\n| 13 | four | `semaphore` |\n| 13 | 4.5 | `semaphore` |\n\
| 13 | 2^61 | `semaphore` |\n| 13 | 18446744073709551615 | `semaphore` |\n\
| 0..18446744073709551615 | | `opcode` |\n| 14 | - | `sem_increment` |\n";

#[test]
fn an_unreadable_width_or_range_end_is_reported_on_its_row() {
    let r = audit_page(&model(), "widths.md", UNREADABLE_WIDTHS_PAGE);
    let t = &r.tables[0];
    let unread: Vec<(&str, &str)> = t
        .unreadable
        .iter()
        .map(|u| (u.offset.as_str(), u.why.as_str()))
        .collect();
    assert_eq!(unread.len(), 5, "{unread:#?}");
    for (cell, (_, why)) in ["four", "4.5", "2^61", "18446744073709551615"]
        .iter()
        .zip(&unread)
    {
        assert!(why.contains(&format!("width `{cell}`")), "{why}");
    }
    assert_eq!(unread[4].0, "0..18446744073709551615");
    assert!(
        unread[4].1.contains("18446744073709551615"),
        "{}",
        unread[4].1
    );
    // The two readable rows are judged (no width: the name and offset decide).
    assert_eq!(t.rows.len(), 2, "{:#?}", t.rows);
}

/// A bit range that overflows is a finding of its row — not a panic (debug), not a row or
/// table dropped without a word (release) — and the rest of the table is judged as usual.
#[test]
fn a_bit_range_that_overflows_is_reported_on_its_row() {
    let r = audit_page(&model(), "overflow.md", OVERFLOW_PAGE);
    assert_eq!(r.tables.len(), 2, "{r:#?}");
    let (first, second) = (&r.tables[0], &r.tables[1]);
    assert_eq!(first.item.as_deref(), Some("DMA_DIRECT2D"));
    assert_eq!(first.rows.len(), 1);
    let lines = |t: &dmaspec_codegen::audit::TableReport| -> Vec<(usize, String)> {
        t.unreadable
            .iter()
            .map(|u| (u.line, u.offset.clone()))
            .collect()
    };
    assert_eq!(lines(first), [(6, "0..18446744073709551615".to_string())]);
    assert_eq!(
        lines(second),
        [
            (12, "0..18446744073709551615".to_string()),
            (13, "b99999999999999999999999".to_string())
        ]
    );
    assert!(first.unreadable[0].why.contains("18446744073709551615"));

    let dir = root().join("target/tmp/audit-overflow");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("overflow.md");
    std::fs::write(&page, OVERFLOW_PAGE).unwrap();
    let out = dmaspec(&["audit", "--wide", page.to_str().unwrap()], b"");
    assert_success(&out);
    let text = stdout(&out);
    assert!(
        text.contains(":6: 0..18446744073709551615 `huge`; "),
        "the row is named in:\n{text}"
    );
    assert!(text.contains("unreadable"), "{text}");
    let out = dmaspec(&["audit", "--format", "json", page.to_str().unwrap()], b"");
    assert_success(&out);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(
        doc["pages"][0]["tables"][1]["unreadable"][1]["offset"],
        "b99999999999999999999999"
    );
}

/// `audit -` reads the page from stdin, named `stdin`, as any verb reads `-`.
#[test]
fn audit_dash_reads_stdin() {
    let page = std::fs::read(root().join(FIXTURE)).unwrap();
    let from_stdin = dmaspec(&["audit", "--wide", "-"], &page);
    assert_success(&from_stdin);
    let from_file = dmaspec(&["audit", "--wide", FIXTURE], b"");
    assert_eq!(
        stdout(&from_stdin),
        stdout(&from_file).replace(FIXTURE, "stdin")
    );
}

/// The rows of the table whose header row is at `line`, in page order.
fn rows_of(report: &PageReport, line: usize) -> Vec<&RowReport> {
    let tables = report.tables.iter().filter(|t| t.line == line);
    tables.flat_map(|t| &t.rows).collect()
}

#[test]
fn register_tables_match_bundles_and_registers() {
    let r = audit_file(&root().join("tests/audit/fixture_registers.md"));
    assert_eq!(item(&r, 8), Some("UDMA_M2S.M2S_Q"));
    let doorbell = row(&r, 10);
    assert_eq!(
        (doorbell.verdict, spec_path(doorbell)),
        (Verdict::Exact, "TDRTP_inc")
    );
    let tail = row(&r, 11);
    assert_eq!(tail.verdict, Verdict::Unexplained);
    assert_eq!(tail.differs, [Aspect::Access]);
    assert_eq!(row(&r, 12).verdict, Verdict::Missing);
    // A bit table under a caption naming the register.
    assert_eq!(item(&r, 16), Some("UDMA_M2S.M2S_Q.cfg"));
    let qos = row(&r, 20);
    assert_eq!(
        (qos.verdict, spec_path(qos)),
        (Verdict::Unexplained, "AXI_qos")
    );
    assert!(qos.differs.contains(&Aspect::Reset), "{qos:#?}");
    assert_eq!(row(&r, 18).verdict, Verdict::Exact);

    // The six §6 register tables of the field tables page, which matched no spec item.
    let page = audit_file(&reference_dir().join("supp-descriptor-ring-field-tables.md"));
    let m2s_q = page.tables.iter().find(|t| t.line == 596).unwrap();
    assert_eq!(
        (m2s_q.item.as_deref(), m2s_q.arch.as_deref()),
        (Some("UDMA_M2S.M2S_Q"), Some("maverick"))
    );
    assert_eq!(spec_path(row(&page, 610)), "TDRTP_inc");
    assert_eq!(row(&page, 610).verdict, Verdict::Exact);
    // gdma_pref: the page's RW against the spec's access, a conflict the spec records.
    let gdma = row(&page, 617);
    assert_eq!(
        (gdma.verdict, gdma.differs.as_slice()),
        (Verdict::Explained, [Aspect::Access].as_slice())
    );
    for (line, register) in [(640, "UDMA_M2S.M2S_Q.cfg"), (701, "UDMA_S2M.S2M_Q.cfg")] {
        assert_eq!(item(&page, line), Some(register));
        let rows = rows_of(&page, line);
        assert_eq!(rows.len(), 11, "{register}");
        assert!(
            rows.iter().all(|r| r.verdict == Verdict::Exact),
            "{rows:#?}"
        );
    }
    assert_eq!(item(&page, 660), Some("UDMA_S2M.S2M_Q"));
    assert_eq!(page.counts.unmatched_tables, 0);
}
