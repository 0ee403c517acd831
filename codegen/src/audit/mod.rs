//! `dmaspec audit`: how far the spec agrees with the byte-map tables of a Markdown source
//! page. Each table (offset, width and field-name columns under a heading that names a word
//! or struct; or a register table's offset, access and register columns under one that
//! names a bundle; or a bit table's bits, field and reset columns under one that names a
//! register) is matched to the spec item it describes, of any kind the registry lists
//! (`kinds::Tabled`), and each row is judged: held exactly, held differently (and whether
//! a recorded alternative or conflict explains it), or missing.

mod cell;
mod columns;
pub mod counts;
mod items;
pub(crate) mod kinds;
pub mod markdown;
mod places;
pub(crate) mod targets;

use serde::Serialize;

use crate::model::kinds::for_each_kind;
use crate::model::{Alternative, Evidence, Model};
use kinds::tabled;
use markdown::{CAPTION, Table};
use places::Place;
use targets::Target;

/// What the audit found on one page.
#[derive(Debug, Clone, Serialize)]
pub struct PageReport {
    /// The page as named on the command line.
    pub page: String,
    /// The spec's source id for the page (spec/sources.toml `file`), if it has one.
    pub source: Option<String>,
    pub counts: Counts,
    pub tables: Vec<TableReport>,
}

/// Rows by verdict, and byte-map tables that match no spec item.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Counts {
    pub exact: usize,
    pub explained: usize,
    pub unexplained: usize,
    pub missing: usize,
    pub unmatched_tables: usize,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.exact += o.exact;
        self.explained += o.explained;
        self.unexplained += o.unexplained;
        self.missing += o.missing;
        self.unmatched_tables += o.unmatched_tables;
    }

    /// The sum over pages.
    pub fn total<'a>(all: impl IntoIterator<Item = &'a Counts>) -> Counts {
        let mut t = Counts::default();
        for c in all {
            t.add(c);
        }
        t
    }
}

/// One byte-map table (one column group of a side-by-side table).
#[derive(Debug, Clone, Serialize)]
pub struct TableReport {
    /// 1-based line of the table's header row.
    pub line: usize,
    /// The innermost heading above it, and a bold caption under that heading, if any.
    pub section: String,
    pub caption: Option<String>,
    /// The spec item the table describes; `None` when it matches none.
    pub item: Option<String>,
    /// The architecture whose layout it matched, for an item laid out per generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    pub counts: Counts,
    pub rows: Vec<RowReport>,
    /// Rows whose offset cell holds a position the audit cannot place (a bit range past
    /// every number), or whose width cell it cannot read: each a finding, counted under no
    /// verdict.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<Unreadable>,
}

/// A row whose offset cell the audit cannot place, or whose width it cannot read, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Unreadable {
    pub line: usize,
    /// The cells as the page writes them.
    pub offset: String,
    pub name: String,
    pub why: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Offset, width and name (or an alias or evidence `name`) as the spec holds them.
    Exact,
    /// Held differently, and a recorded alternative or conflict gives the page's reading.
    Explained,
    /// Held differently with nothing in the spec recording the page's reading.
    Unexplained,
    /// The spec has nothing at that offset or by that name.
    Missing,
}

/// What differs between a row and the spec member it was matched to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    Offset,
    Width,
    Name,
    Type,
    /// A register's or register field's access.
    Access,
    /// A register's or register field's reset value.
    Reset,
}

#[derive(Debug, Clone, Serialize)]
pub struct RowReport {
    pub line: usize,
    /// The cells as the page writes them.
    pub offset: String,
    pub width: Option<String>,
    pub name: String,
    pub verdict: Verdict,
    /// The spec member the row was matched to (`header.opcode`), with its bits.
    pub spec: Option<SpecPlace>,
    pub differs: Vec<Aspect>,
    /// The alternative or conflict that records the page's reading.
    pub explained_by: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SpecPlace {
    pub path: String,
    /// Bits from the start of the item, and how many.
    pub bit_offset: u64,
    pub bits: u64,
    pub type_name: String,
}

/// Audits one page (`name` as the user gave it, `text` its contents) against `model`.
pub fn audit_page(model: &Model, name: &str, text: &str) -> PageReport {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let source = model
        .sources
        .iter()
        .find(|s| s.file == file)
        .map(|s| s.id.clone());
    let mut targets: Vec<Target> = Vec::new();
    for_each_kind!(tabled!(model, targets));
    let mut tables = Vec::new();
    for table in markdown::tables(text) {
        for group in columns::groups(&table.header) {
            if let Some(t) = audit_table(model, &targets, source.as_deref(), &table, &group) {
                tables.push(t);
            }
        }
    }
    let counts = Counts::total(tables.iter().map(|t| &t.counts));
    PageReport {
        page: name.to_string(),
        source,
        counts,
        tables,
    }
}

/// A row as read: where and how wide it says the field is, and what it calls it.
struct Row<'t> {
    line: usize,
    cells: &'t [String],
    span: cell::Span,
    names: Vec<String>,
    type_name: Option<String>,
}

fn read_rows<'t>(table: &'t Table, g: &columns::Group) -> (Vec<Row<'t>>, Vec<Unreadable>) {
    let mut rows = Vec::new();
    let mut unreadable = Vec::new();
    for (line, cells) in &table.rows {
        let get = |i: usize| cells.get(i).map_or("", String::as_str);
        let span = if g.bits {
            cell::bit_range(get(g.offset)).map(|(lo, w)| cell::Span {
                start: lo,
                width: Some(w),
            })
        } else {
            cell::offset(get(g.offset)).map(|s| cell::Span {
                width: g.width.and_then(|w| cell::width(get(w))).or(s.width),
                ..s
            })
        };
        let names = cell::names(get(g.name));
        if names.is_empty() {
            continue;
        }
        let unread = |why| Unreadable {
            line: *line,
            offset: get(g.offset).trim().to_string(),
            name: get(g.name).trim().to_string(),
            why,
        };
        // A width the row gives but the audit cannot read would pass for any width.
        if let Some(why) = g.width.and_then(|w| cell::unreadable_width(get(w))) {
            unreadable.push(unread(why));
            continue;
        }
        let Some(span) = span else {
            if let Some(why) = cell::out_of_range(get(g.offset), g.bits) {
                unreadable.push(unread(why));
            }
            continue;
        };
        rows.push(Row {
            line: *line,
            cells,
            span,
            names,
            type_name: g.ty.and_then(|t| cell::type_name(get(t))),
        });
    }
    (rows, unreadable)
}

fn audit_table(
    model: &Model,
    targets: &[Target],
    source: Option<&str>,
    table: &Table,
    g: &columns::Group,
) -> Option<TableReport> {
    let (rows, unreadable) = read_rows(table, g);
    if rows.is_empty() && unreadable.is_empty() {
        return None;
    }
    let section = table
        .headings
        .iter()
        .rfind(|h| h.level < CAPTION)
        .map_or(String::new(), |h| h.text.clone());
    let caption = table
        .headings
        .last()
        .filter(|h| h.level == CAPTION)
        .map(|h| h.text.clone());
    let chosen = items::choose(targets, source, &table.headings, g.title.as_deref(), |t| {
        // A row past the item's end says the table lays out something larger.
        if rows.iter().any(|r| r.span.start >= t.bits) {
            return None;
        }
        let judged: Vec<RowReport> = rows.iter().map(|r| judge(model, source, t, r, g)).collect();
        // The most exact rows, then the most held at all; none exact is no match.
        let exact = judged
            .iter()
            .filter(|r| r.verdict == Verdict::Exact)
            .count();
        let held = judged
            .iter()
            .filter(|r| r.verdict != Verdict::Missing)
            .count();
        (exact > 0).then_some(((exact, held), judged))
    });
    let (item, arch, rows) = match chosen {
        Some((t, judged)) => (Some(t.name.clone()), t.arch.map(str::to_string), judged),
        None => (None, None, Vec::new()),
    };
    let mut counts = Counts::default();
    for r in &rows {
        match r.verdict {
            Verdict::Exact => counts.exact += 1,
            Verdict::Explained => counts.explained += 1,
            Verdict::Unexplained => counts.unexplained += 1,
            Verdict::Missing => counts.missing += 1,
        }
    }
    counts.unmatched_tables = usize::from(item.is_none());
    Some(TableReport {
        line: table.line,
        section,
        caption,
        item,
        arch,
        counts,
        rows,
        unreadable,
    })
}

/// Names that many members share; a row with one is not matched by name elsewhere.
fn generic(name: &str) -> bool {
    ["reserved", "rsvd", "pad", "padding", "unused"]
        .iter()
        .any(|g| name.starts_with(g))
}

fn judge<'m>(
    model: &Model,
    source: Option<&str>,
    item: &Target<'m>,
    row: &Row<'_>,
    g: &columns::Group,
) -> RowReport {
    let places = item.places.as_slice();
    let get = |i: usize| row.cells.get(i).cloned().unwrap_or_default();
    // A row may name an element (`src_num_elem[0]` for the array) or a part the spec does
    // not break down (`src_idx_start_addr.addr_immediate` for the ADDR4).
    let named = |p: &Place<'_>| {
        let names = p.names();
        let path = p.path.to_ascii_lowercase();
        row.names.iter().any(|n| {
            names.contains(n)
                || names.contains(&n.split('[').next().unwrap_or(n).to_string())
                || n.strip_prefix(&path)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    };
    let alternative = |p: &Place<'m>| -> Option<&'m Alternative> {
        p.alternatives
            .iter()
            .find(|a| row.names.contains(&a.name.to_ascii_lowercase()))
    };
    let at = |p: &Place<'_>| p.start == row.span.start;
    let wide = |p: &Place<'_>| row.span.width.is_none_or(|w| w == p.width);
    let found = places
        .iter()
        .find(|p| named(p) && at(p) && wide(p))
        .or_else(|| places.iter().find(|p| at(p) && alternative(p).is_some()))
        .or_else(|| places.iter().find(|p| at(p) && named(p)))
        .or_else(|| places.iter().find(|p| at(p) && wide(p)))
        .or_else(|| {
            places
                .iter()
                .filter(|p| named(p) && !row.names.iter().any(|n| generic(n)))
                .min_by_key(|p| p.start.abs_diff(row.span.start))
        })
        .or_else(|| places.iter().find(|p| at(p)));
    let mut report = RowReport {
        line: row.line,
        offset: get(g.offset),
        width: g.width.map(get),
        name: get(g.name),
        verdict: Verdict::Missing,
        spec: None,
        differs: Vec::new(),
        explained_by: None,
    };
    // Nothing at that offset or by that name: the row is missing unless it overlaps a
    // member whose page reading the spec records (a field's or the item's alternative).
    let overlaps = |p: &&Place<'_>| {
        let end = row.span.start + row.span.width.unwrap_or(1);
        p.start < end && row.span.start < p.start + p.width
    };
    let found = found.or_else(|| {
        places
            .iter()
            .filter(overlaps)
            .find(|p| explanation(model, source, item, p, row, None).is_some())
    });
    let Some(p) = found else {
        return report;
    };
    if !at(p) {
        report.differs.push(Aspect::Offset);
    }
    if !wide(p) {
        report.differs.push(Aspect::Width);
    }
    if !named(p) {
        report.differs.push(Aspect::Name);
    }
    let same_type = |t: &String| {
        let short = t.trim_start_matches("NEURON_ISA_TPB_");
        *t == p.type_name || Some(t.as_str()) == p.c_type || short == p.type_name
    };
    if report.differs.is_empty() && row.type_name.as_ref().is_some_and(|t| !same_type(t)) {
        report.differs.push(Aspect::Type);
    }
    // A register table's access and reset columns, against a register or its field.
    if let Some(access) = p.access {
        let cell = |col: Option<usize>| col.map(get).unwrap_or_default();
        if cell::access(&cell(g.access)).is_some_and(|a| a != access) {
            report.differs.push(Aspect::Access);
        }
        if cell::reset(&cell(g.reset)).is_some_and(|v| p.reset != Some(v)) {
            report.differs.push(Aspect::Reset);
        }
    }
    report.spec = Some(SpecPlace {
        path: p.path.clone(),
        bit_offset: p.start,
        bits: p.width,
        type_name: p.type_name.clone(),
    });
    if report.differs.is_empty() {
        report.verdict = Verdict::Exact;
        return report;
    }
    report.explained_by = explanation(model, source, item, p, row, alternative(p));
    report.verdict = match report.explained_by {
        Some(_) => Verdict::Explained,
        None => Verdict::Unexplained,
    };
    report
}

/// The recorded reading that explains a difference at `p`: an alternative the row names,
/// one the page itself gives, or a conflict about the item or the member's type with a
/// reading from the page.
fn explanation(
    model: &Model,
    source: Option<&str>,
    item: &Target,
    p: &Place<'_>,
    row: &Row<'_>,
    named: Option<&Alternative>,
) -> Option<String> {
    let from_page = |e: &[Evidence]| e.iter().any(|e| Some(e.source.as_str()) == source);
    if let Some(a) = named.or_else(|| p.alternatives.iter().find(|a| from_page(&a.evidence))) {
        return Some(format!(
            "alternative `{}` of {}.{}",
            a.name, item.name, p.path
        ));
    }
    // Of the item's readings from the page, the one that names the row, if any.
    let names_row = |a: &&Alternative| row.names.iter().any(|n| a.doc.contains(n.as_str()));
    let alternatives = item.alternatives;
    if let Some(a) = (alternatives.iter().filter(|a| from_page(&a.evidence)))
        .find(names_row)
        .or_else(|| alternatives.iter().find(|a| from_page(&a.evidence)))
    {
        return Some(format!("alternative `{}` of {}", a.name, item.name));
    }
    let member = format!("{}.{}", item.name, p.path);
    let item = item.name.as_str();
    let ty = p.type_name.split('[').next().unwrap_or("");
    model
        .conflicts
        .iter()
        .find(|c| {
            c.about.iter().any(|a| a == item || a == ty || *a == member)
                && c.readings.iter().any(|r| from_page(&r.evidence))
        })
        .map(|c| format!("conflict `{}`", c.name))
}
