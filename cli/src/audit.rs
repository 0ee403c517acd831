//! `dmaspec audit PAGE.md…`: the byte-map tables of source pages against the spec — per
//! page and section, the rows the spec holds exactly, differently (and whether a recorded
//! alternative or conflict explains it) or not at all. `--check-counts FILE` compares the
//! per-page counts and row verdicts with a checked-in file (CI); `--write-counts FILE`
//! rewrites it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dmaspec_codegen::audit::counts::{CountsFile, counts_line};
use dmaspec_codegen::audit::{self, Aspect, PageReport, TableReport, Verdict};

use dmaspec::verbs::Error;

use super::CliError;
use dmaspec::verbs::input::MAX_DOCUMENT_BYTES;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Audit the byte-map tables of Markdown source pages against the spec: per page and
/// section, the rows it holds exactly, differently or not at all.
#[derive(clap::Args)]
pub struct AuditArgs {
    /// Spec directory.
    #[arg(long, default_value = super::error::DEFAULT_SPEC)]
    pub spec: PathBuf,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Each row on one line, as long as it is; by default the text is wrapped to 120
    /// columns.
    #[arg(long)]
    pub wide: bool,
    /// Exit 1 and print the changed rows when the counts differ from this file.
    #[arg(long, value_name = "FILE")]
    pub check_counts: Option<PathBuf>,
    /// Write the counts and row verdicts to this file.
    #[arg(long, value_name = "FILE")]
    pub write_counts: Option<PathBuf>,
    #[arg(required = true)]
    pub pages: Vec<PathBuf>,
}

pub fn run(args: &AuditArgs) -> Result<(), CliError> {
    dmaspec::verbs::table::set_wide(args.wide);
    super::error::missing_default_spec(&args.spec, "--spec")?;
    // The pages first: one that is not text is refused before the spec is loaded.
    let texts = (args.pages.iter())
        .map(|page| dmaspec::verbs::input::read_text(page, MAX_DOCUMENT_BYTES))
        .collect::<Result<Vec<_>, _>>()?;
    let model = dmaspec_codegen::load::load_dir(&args.spec).map_err(CliError::Spec)?;
    let reports: Vec<PageReport> = (args.pages.iter().zip(&texts))
        .map(|(page, text)| {
            audit::audit_page(&model, &dmaspec::verbs::input::name(Some(page)), text)
        })
        .collect();
    let counts = CountsFile::of(&reports);
    if let Some(file) = &args.write_counts {
        std::fs::write(file, counts.render()).map_err(|error| Error::Io {
            path: file.display().to_string(),
            write: true,
            error,
        })?;
    }
    match args.format {
        Format::Json => {
            let doc = serde_json::json!({ "pages": reports, "totals": counts.totals });
            let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
            super::output::print(&format!("{text}\n"))?;
        }
        Format::Text => super::output::print(&dmaspec::verbs::table::fit_text(&render(&reports)))?,
    }
    match &args.check_counts {
        Some(file) => check(file, &counts),
        None => Ok(()),
    }
}

/// Compares `now` with the checked-in counts in `file`: exit 1 and every changed row.
fn check(file: &Path, now: &CountsFile) -> Result<(), CliError> {
    let text = dmaspec::verbs::input::read_text(file, MAX_DOCUMENT_BYTES)?;
    let old = CountsFile::parse(&text).map_err(|e| {
        Error::BadFile(format!("{}: not an audit counts file: {e}", file.display()))
    })?;
    let changes = now.changes_from(&old);
    if changes.is_empty() {
        return Ok(());
    }
    Err(CliError::Invalid(format!(
        "the audit differs from {}:\n{}\nIf the change is intended (a row the spec now holds, or a page edited), \
         rerun with `--write-counts {}` and commit the file.",
        file.display(),
        changes.join("\n"),
        file.display()
    )))
}

fn aspect(a: Aspect) -> &'static str {
    match a {
        Aspect::Offset => "offset",
        Aspect::Width => "width",
        Aspect::Name => "name",
        Aspect::Type => "type",
        Aspect::Access => "access",
        Aspect::Reset => "reset",
    }
}

/// The text report: per page its counts, per table its section, item and counts, then
/// each row the spec does not hold exactly, with the page's line.
pub fn render(reports: &[PageReport]) -> String {
    let mut out = String::new();
    for r in reports {
        let source = r
            .source
            .as_deref()
            .unwrap_or("no source in spec/sources.toml");
        let _ = writeln!(out, "{} ({source}): {}", r.page, counts_line(&r.counts));
        for t in &r.tables {
            table(&mut out, &r.page, t);
        }
    }
    if reports.len() > 1 {
        let total = audit::Counts::total(reports.iter().map(|r| &r.counts));
        let _ = writeln!(out, "total: {}", counts_line(&total));
    }
    out
}

fn table(out: &mut String, page: &str, t: &TableReport) {
    let caption = t
        .caption
        .as_ref()
        .map_or(String::new(), |c| format!(" / {c}"));
    let Some(item) = &t.item else {
        let _ = writeln!(
            out,
            "  {page}:{}: {}{caption}: matches no spec item",
            t.line, t.section
        );
        unreadable(out, page, t);
        return;
    };
    let c = &t.counts;
    let arch = t
        .arch
        .as_ref()
        .map_or(String::new(), |a| format!(" on {a}"));
    let _ = writeln!(
        out,
        "  {page}:{}: {}{caption} -> {item}{arch}: {} exact, {} explained, {} unexplained, {} missing",
        t.line, t.section, c.exact, c.explained, c.unexplained, c.missing
    );
    for row in t.rows.iter().filter(|r| r.verdict != Verdict::Exact) {
        let width = row
            .width
            .as_ref()
            .map_or(String::new(), |w| format!(" w {w}"));
        let what = format!("{page}:{}: {}{width} {}", row.line, row.offset, row.name);
        let spec = row.spec.as_ref().map_or(String::new(), |p| {
            format!(
                "spec {item}.{} (bit {}, {} bits, {})",
                p.path, p.bit_offset, p.bits, p.type_name
            )
        });
        let line = match row.verdict {
            Verdict::Missing => format!("missing: {what}"),
            _ => {
                let differs: Vec<&str> = row.differs.iter().map(|&a| aspect(a)).collect();
                let why = row
                    .explained_by
                    .as_ref()
                    .map_or("unexplained".to_string(), |e| format!("explained by {e}"));
                format!("differs ({}): {what}; {spec}; {why}", differs.join(", "))
            }
        };
        let _ = writeln!(out, "    {line}");
    }
    unreadable(out, page, t);
}

/// The rows whose offset cell the audit cannot place, with why.
fn unreadable(out: &mut String, page: &str, t: &TableReport) {
    for u in &t.unreadable {
        let _ = writeln!(
            out,
            "    unreadable: {page}:{}: {} {}; {}",
            u.line, u.offset, u.name, u.why
        );
    }
}
