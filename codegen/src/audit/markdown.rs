//! A careful reader of the GFM pipe tables of a Markdown page and the headings above them.
//! It never fails: a line that is not a table row ends the table, a short row is padded, a
//! table in a code fence is skipped.

/// A heading (`## 2. STRUCT #1 — DIRECT2D`) or a bold caption line
/// (`**Table 4.1 — NEURON_ISA_TPB_HEADER (4 B)**`), with its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub line: usize,
    /// 1..=6 for `#`..`######`; 7 for a caption, which sits below every heading.
    pub level: usize,
    pub text: String,
}

/// The caption level: below every ATX heading.
pub const CAPTION: usize = 7;

/// How many lines below its caption a table may start.
const CAPTION_REACH: usize = 4;

/// One pipe table: its header cells, its body rows (each with its 1-based line), and the
/// headings that enclose it, innermost last.
#[derive(Debug, Clone)]
pub struct Table {
    pub line: usize,
    pub header: Vec<String>,
    pub rows: Vec<(usize, Vec<String>)>,
    pub headings: Vec<Heading>,
}

/// Every table of `text`, in page order.
pub fn tables(text: &str) -> Vec<Table> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut open: Vec<Heading> = Vec::new();
    let mut fence: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(f) = fence {
            if line.starts_with(f) {
                fence = None;
            }
            i += 1;
            continue;
        }
        if line.starts_with("```") || line.starts_with("~~~") {
            fence = Some(&line[..3]);
            i += 1;
            continue;
        }
        if let Some(h) = heading(line, i + 1) {
            open.retain(|o| o.level < h.level);
            open.push(h);
            i += 1;
            continue;
        }
        let delimiter = lines.get(i + 1).is_some_and(|d| is_delimiter(d));
        if line.starts_with('|') && delimiter {
            // A caption names only a table that follows it closely.
            let headings = open
                .iter()
                .filter(|h| h.level < CAPTION || h.line + CAPTION_REACH > i)
                .cloned()
                .collect();
            let mut table = Table {
                line: i + 1,
                header: cells(line),
                rows: Vec::new(),
                headings,
            };
            i += 2;
            while let Some(row) = lines.get(i).map(|l| l.trim_start())
                && row.starts_with('|')
            {
                let mut c = cells(row);
                c.resize(table.header.len().max(c.len()), String::new());
                table.rows.push((i + 1, c));
                i += 1;
            }
            out.push(table);
            continue;
        }
        i += 1;
    }
    out
}

/// An ATX heading, or a line that is one bold span (a table caption).
fn heading(line: &str, number: usize) -> Option<Heading> {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\t']) {
        let text = line[hashes..].trim().trim_end_matches('#').trim();
        return Some(Heading {
            line: number,
            level: hashes,
            text: text.to_string(),
        });
    }
    let caption = line.strip_prefix("**")?;
    let end = caption.find("**")?;
    let rest = caption[end + 2..].trim();
    // The caption is the bold span; a short tail (`— DWARF bit layout`) may follow it.
    (end > 0 && !rest.starts_with('|')).then(|| Heading {
        line: number,
        level: CAPTION,
        text: caption[..end].trim().to_string(),
    })
}

/// `|---|:--:|` (the pipes at both ends optional).
fn is_delimiter(line: &str) -> bool {
    let t = line.trim();
    t.contains('-')
        && t.contains('|')
        && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// The cells of a row, trimmed: split on every `|` not escaped as `\|` (as GFM does, code
/// spans included).
pub fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headings_captions_and_rows() {
        let page = "# T\n## 2. A\n**Table 1 — X**\n\n| off | w | field |\n|---|---|---|\n| 0 | 1 | `a` |\n| 1 | 2 | `b \\| c` |\ntext\n```\n| 9 | 9 | x |\n|---|---|---|\n```\n";
        let t = tables(page);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].line, 5);
        assert_eq!(
            t[0].rows[1],
            (8, vec!["1".into(), "2".into(), "`b | c`".into()])
        );
        let texts: Vec<&str> = t[0].headings.iter().map(|h| h.text.as_str()).collect();
        assert_eq!(texts, ["T", "2. A", "Table 1 — X"]);
    }
}
