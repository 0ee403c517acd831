//! Reading the generated Markdown back: table rows, cells and their escaping, so tests can
//! compare what a page says with the model.

/// Cells of a table row, split on unescaped pipes.
pub fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut prev_backslash = false;
    for c in inner.chars() {
        if c == '|' && !prev_backslash {
            out.push(String::new());
        } else {
            out.last_mut().unwrap().push(c);
        }
        prev_backslash = c == '\\' && !prev_backslash;
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// Undoes the Markdown escaping, so cell text can be compared with model strings (the
/// `<wbr>` break hints of long words included).
pub fn plain(s: &str) -> String {
    let s = s
        .replace("<wbr>", "")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|n| n.is_ascii_punctuation()) {
            out.push(chars.next().unwrap());
        } else {
            out.push(c);
        }
    }
    out
}

/// A Markdown table: its header cells and its rows of cells.
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn col(&self, name: &str) -> usize {
        self.head
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("column {name} in {:?}", self.head))
    }
    pub fn cell<'t>(&self, row: &'t [String], name: &str) -> &'t str {
        &row[self.col(name)]
    }
}

/// The first table after the line `heading`.
pub fn table_after(md: &str, heading: &str) -> Table {
    let mut lines = md.lines().skip_while(|l| *l != heading);
    assert!(lines.next().is_some(), "heading {heading:?} present");
    let mut lines = lines.skip_while(|l| !l.starts_with('|'));
    let head = cells(lines.next().expect("a table follows"));
    let sep = lines.next().expect("separator row");
    assert!(
        sep.starts_with("|-") || sep.starts_with("|:"),
        "separator row: {sep}"
    );
    let rows = lines
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect();
    Table { head, rows }
}

/// Whether `cell` (after [`plain`]) shows the quote `quote` of a Markdown source: every
/// word of it (runs of letters, digits and `_`), in order. The pages show a quote as its
/// text reads, without the source's table pipes and `**`.
pub fn shows_quote(cell: &str, quote: &str) -> bool {
    let mut rest = cell;
    for word in quote
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
    {
        match rest.find(word) {
            Some(i) => rest = &rest[i + word.len()..],
            None => return false,
        }
    }
    true
}

/// The architectures an Archs cell names, in `order` (the model's): `all`, or names and
/// ranges (`cayman–maverick`: every architecture from the first to the last) joined by `, `.
pub fn archs_in<'a>(cell: &str, order: &[&'a str]) -> Vec<&'a str> {
    if cell == "all" {
        return order.to_vec();
    }
    let mut named = Vec::new();
    for part in cell.split(", ") {
        let (first, last) = part.split_once('–').unwrap_or((part, part));
        let at = |n: &str| {
            (order.iter().position(|a| *a == n)).unwrap_or_else(|| panic!("arch {n} in {cell}"))
        };
        named.extend(&order[at(first)..=at(last)]);
    }
    named
}
