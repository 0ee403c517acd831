//! The checked-in audit counts (tests/audit/reference_counts.json): per page, the counts
//! and each row's verdict, so CI can say which rows changed when a count does.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Counts, PageReport, Verdict};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountsFile {
    pub totals: Counts,
    /// By page file name.
    pub pages: BTreeMap<String, PageCounts>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageCounts {
    pub counts: Counts,
    /// `L0105` (the page line, zero-padded so the keys sort) -> `exact DMA_DIRECT2D.header`;
    /// a table header line -> `table DMA_DIRECT2D` or `table unmatched`.
    pub rows: BTreeMap<String, String>,
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Exact => "exact",
        Verdict::Explained => "explained",
        Verdict::Unexplained => "unexplained",
        Verdict::Missing => "missing",
    }
}

/// Adds `what` to the entry of page line `line`: side-by-side groups share their lines.
fn append(rows: &mut BTreeMap<String, String>, line: usize, what: String) {
    let entry = rows.entry(format!("L{line:04}")).or_default();
    if !entry.is_empty() {
        entry.push_str(", ");
    }
    entry.push_str(&what);
}

impl CountsFile {
    pub fn of(reports: &[PageReport]) -> CountsFile {
        let mut pages = BTreeMap::new();
        for r in reports {
            let file = r.page.rsplit(['/', '\\']).next().unwrap_or(&r.page);
            let mut rows = BTreeMap::new();
            for t in &r.tables {
                let item = t.item.as_deref().unwrap_or("unmatched");
                append(&mut rows, t.line, format!("table {item}"));
                for row in &t.rows {
                    let at = row
                        .spec
                        .as_ref()
                        .map_or(String::new(), |p| format!(" {item}.{}", p.path));
                    append(
                        &mut rows,
                        row.line,
                        format!("{}{at}", verdict_name(row.verdict)),
                    );
                }
            }
            pages.insert(
                file.to_string(),
                PageCounts {
                    counts: r.counts,
                    rows,
                },
            );
        }
        CountsFile {
            totals: Counts::total(reports.iter().map(|r| &r.counts)),
            pages,
        }
    }

    /// The file's text: pretty JSON and a final newline.
    pub fn render(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    pub fn parse(text: &str) -> Result<CountsFile, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// What differs from `old` to `self`, one line each (empty when nothing does).
    pub fn changes_from(&self, old: &CountsFile) -> Vec<String> {
        let mut out = Vec::new();
        let empty = PageCounts::default();
        let mut names: Vec<&String> = old.pages.keys().chain(self.pages.keys()).collect();
        names.sort();
        names.dedup();
        for page in names {
            let (was, now) = (
                old.pages.get(page).unwrap_or(&empty),
                self.pages.get(page).unwrap_or(&empty),
            );
            if was.counts != now.counts {
                out.push(format!(
                    "{page}: {} -> {}",
                    counts_line(&was.counts),
                    counts_line(&now.counts)
                ));
            }
            let mut lines: Vec<&String> = was.rows.keys().chain(now.rows.keys()).collect();
            lines.sort();
            lines.dedup();
            for line in lines {
                let (a, b) = (was.rows.get(line), now.rows.get(line));
                if a != b {
                    let show = |v: Option<&String>| v.map_or("(no row)".to_string(), Clone::clone);
                    out.push(format!(
                        "  {page}:{}: {} -> {}",
                        line.trim_start_matches(['L', '0']),
                        show(a),
                        show(b)
                    ));
                }
            }
        }
        out
    }
}

/// `16 exact, 1 explained, 0 unexplained, 2 missing, 0 unmatched tables`.
pub fn counts_line(c: &Counts) -> String {
    format!(
        "{} exact, {} explained, {} unexplained, {} missing, {} unmatched tables",
        c.exact, c.explained, c.unexplained, c.missing, c.unmatched_tables
    )
}
