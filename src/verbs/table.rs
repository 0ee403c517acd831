//! `decode` without `--json`: a readable table per word.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::json::PathStack;
use crate::runtime::meta::{FieldMeta, JoinMeta, LeafMeta, Role};
use crate::runtime::visit::{Group, Value, Visitor};

use crate::runtime::text::canonical_text;

use crate::json::hex_string;

/// Collects the rows of one word's table.
pub struct TableRows {
    /// The word's leaves, whose confidence the rows show.
    leaves: &'static [LeafMeta],
    path: PathStack,
    pub rows: Vec<[String; 5]>,
    /// Bytes of a reserved/unknown array being collected into one row.
    raw: Option<(String, usize, &'static FieldMeta, Vec<u8>)>,
}

impl TableRows {
    /// The rows of a word with these leaves.
    pub fn new(leaves: &'static [LeafMeta]) -> Self {
        TableRows {
            leaves,
            path: PathStack::default(),
            rows: Vec::new(),
            raw: None,
        }
    }

    /// The confidence column of the row at `path`: its leaf's (an array leaf's, for one
    /// element). Unknown bytes have none to show: nobody claims a meaning for them.
    fn confidence_text(&self, path: &str) -> String {
        let leaf = leaf_at(self.leaves, path);
        leaf.and_then(|l| l.confidence)
            .map_or("-".to_string(), |c| c.tag.to_string())
    }
}

/// The leaf a value at `path` belongs to: the leaf itself, or the array leaf it is one
/// element of (`src_num_elem[1]`).
fn leaf_at(leaves: &'static [LeafMeta], path: &str) -> Option<&'static LeafMeta> {
    leaves.iter().find(|l| {
        path.strip_prefix(l.path)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
    })
}

fn value_text(v: Value) -> (String, String) {
    match v {
        Value::Unsigned(u) if u > 9 => (format!("{u} ({u:#x})"), String::new()),
        Value::Unsigned(u) => (u.to_string(), String::new()),
        Value::Signed(i) => (i.to_string(), String::new()),
        Value::Enum { raw, name } => (
            format!("{raw:#x}"),
            name.unwrap_or("(not an enumerator)").to_string(),
        ),
        Value::Flags { raw, .. } => {
            let mut names: Vec<String> = v.flag_names().map(str::to_string).collect();
            let rest = v.unnamed_flag_bits();
            if rest != 0 {
                names.push(format!("unnamed bits {rest:#x}"));
            }
            (format!("{raw:#04x}"), names.join("|"))
        }
        Value::Text(bytes) => match canonical_text(bytes) {
            Some(text) => (format!("{text:?}"), "text".to_string()),
            None => (hex_string(bytes), "text, not NUL-padded ASCII".to_string()),
        },
    }
}

impl Visitor for TableRows {
    fn enter(&mut self, field: &'static FieldMeta, offset: usize, group: Group) {
        if group == Group::Array && field.role != Role::Data && field.type_name.starts_with("u8[") {
            let path = self.path.leaf(field.name);
            self.raw = Some((path, offset, field, Vec::new()));
        }
        self.path.enter(field.name, group);
    }

    fn leave(&mut self, _group: Group) {
        self.path.leave();
        if let Some((path, offset, field, bytes)) = self.raw.take() {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let meaning = match field.role {
                Role::Reserved => "reserved",
                _ => "UNKNOWN (kept raw)",
            };
            let confidence = self.confidence_text(&path);
            self.rows.push([
                format!("+{offset:#04x}"),
                path,
                hex,
                meaning.to_string(),
                confidence,
            ]);
        }
    }

    fn value(&mut self, field: &'static FieldMeta, offset: usize, value: Value<'_>) {
        if let (Some((_, _, _, bytes)), Value::Unsigned(b)) = (self.raw.as_mut(), value) {
            bytes.push(b as u8);
            return;
        }
        let path = self.path.leaf(field.name);
        let mut at = format!("+{offset:#04x}");
        if let Some((lsb, width)) = field.bits {
            if width == 1 {
                let _ = write!(at, " b{lsb}");
            } else {
                let _ = write!(at, " b{lsb}..{}", lsb + width - 1);
            }
        }
        let (mut val, mut meaning) = value_text(value);
        let raw = crate::json::raw_bits(value);
        if let Some(codec) = field.codec
            && codec.decode(raw) != raw
        {
            val = format!("{val} (= {})", codec.decode(raw));
        }
        match field.constant {
            Some(c) if c == raw => meaning = join(&meaning, "constant"),
            Some(c) => meaning = join(&meaning, &format!("CONSTANT MISMATCH: expected {c:#x}")),
            None => {}
        }
        match field.role {
            Role::Data => {}
            Role::Reserved => meaning = join(&meaning, "reserved"),
            Role::Unknown => meaning = join(&meaning, "UNKNOWN (kept raw)"),
        }
        for a in field.alternatives {
            meaning = join(&meaning, &format!("CONFLICT: also read as {}", a.name));
        }
        let confidence = self.confidence_text(&path);
        self.rows.push([at, path, val, meaning, confidence]);
    }

    fn joined(&mut self, join: &'static JoinMeta, _offset: usize, value: u64) {
        let parts: Vec<&str> = join.parts.iter().map(|p| p.0).collect();
        // Where the parts are (a joined value has no offset of its own).
        let at: Vec<&str> = parts
            .iter()
            .filter_map(|p| {
                let path = self.path.leaf(p);
                self.rows
                    .iter()
                    .find(|r| r[1] == path)
                    .map(|r| r[0].as_str())
            })
            .collect();
        self.rows.push([
            at.join(", "),
            self.path.leaf(join.name),
            format!("{value} ({value:#x})"),
            format!("joined from {}", parts.join(" + ")),
            join.confidence.tag.to_string(),
        ]);
    }
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}; {b}")
    }
}

/// Lays rows out in aligned columns under the decode header.
pub fn render(rows: &[[String; 5]]) -> String {
    let header = ["offset", "field", "value", "meaning", "confidence"].map(String::from);
    render_columns(&header, rows)
}

/// Lays `rows` out in aligned columns under `header`.
pub fn render_columns(header: &[String; 5], rows: &[[String; 5]]) -> String {
    if let Some(fitted) = fit_columns(header, rows, width()) {
        return fitted;
    }
    let mut widths = [0usize; 5];
    for r in std::iter::once(header).chain(rows) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    for r in std::iter::once(header).chain(rows) {
        let mut line = String::new();
        for (i, (c, w)) in r.iter().zip(widths).enumerate() {
            if i + 1 == r.len() {
                line.push_str(c);
            } else {
                let _ = write!(line, "{c:<w$}  ");
            }
        }
        out.push_str("  ");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// How wide the tables (and `explain`'s text) may be, in characters, unless `--wide`.
pub const DEFAULT_WIDTH: usize = 120;

static WIDTH: AtomicUsize = AtomicUsize::new(DEFAULT_WIDTH);

/// `--wide`: lines as long as their contents (the table's text column unwrapped); else
/// [`DEFAULT_WIDTH`]. For the whole process: the verbs print through several functions.
pub fn set_wide(wide: bool) {
    let width = if wide { usize::MAX } else { DEFAULT_WIDTH };
    WIDTH.store(width, Ordering::Relaxed);
}

/// The widest a line may be ([`set_wide`]).
pub fn width() -> usize {
    WIDTH.load(Ordering::Relaxed)
}

/// A text column narrower than this is not wrapped in place: a text that does not fit it
/// goes under its row.
const MIN_TEXT: usize = 40;

/// A value column is as wide as its cells of up to this many characters; a longer cell
/// (a reserved array's bytes) pushes the rest of its row along, or onto the next line.
const LONG_CELL: usize = 24;

/// `render_columns` within `width` characters when the table is wider. The text column
/// (`meaning`, `notes` or `source`: the one that is prose) is wrapped at spaces under
/// itself, or, when there is not room for it, under the row from its second column on.
/// Offsets, names and values stay whole: a long value pushes its row's later cells along,
/// to the next line if they do not fit. `None`: the table fits as it is.
fn fit_columns(header: &[String; 5], rows: &[[String; 5]], width: usize) -> Option<String> {
    let len = |c: &str| c.chars().count();
    let mut widths = [0usize; 5];
    for r in std::iter::once(header).chain(rows) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(len(c));
        }
    }
    let natural = 2 + widths[..4].iter().map(|w| w + 2).sum::<usize>() + widths[4];
    if natural <= width {
        return None;
    }
    let text = ["meaning", "notes", "source"]
        .iter()
        .find_map(|name| header.iter().position(|h| h == name))
        .unwrap_or(4);
    for (i, w) in widths.iter_mut().enumerate().skip(2) {
        if i != text {
            *w = std::iter::once(header)
                .chain(rows)
                .map(|r| len(&r[i]))
                .filter(|&n| n <= LONG_CELL)
                .max()
                .unwrap_or(0);
        }
    }
    let natural_text = widths[text];
    widths[text] = 0;
    let fixed = 2 + widths[..4].iter().map(|w| w + 2).sum::<usize>() + widths[4];
    widths[text] = natural_text
        .min(width.saturating_sub(fixed))
        .max(len(&header[text]));
    let mut start = [2usize; 5];
    for i in 1..5 {
        start[i] = start[i - 1] + widths[i - 1] + 2;
    }
    // Text that goes under its row: from the second column on, two in.
    let indent = start[1] + 2;
    let mut out = String::new();
    for r in std::iter::once(header).chain(rows) {
        let mut line = String::from("  ");
        let mut at_col = 2;
        let mut more: Vec<String> = Vec::new();
        let mut under: Vec<String> = Vec::new();
        let mut place = |line: &mut String, at_col: &mut usize, col: usize, cell: &str| {
            let mut at = if *at_col > 2 {
                start[col].max(*at_col + 2)
            } else {
                start[col]
            };
            let mut new_line = |line: &mut String, at_col: &mut usize| {
                out.push_str(line.trim_end());
                out.push('\n');
                *line = String::new();
                *at_col = 0;
            };
            if at + len(cell) > width && *at_col > 2 {
                new_line(line, at_col);
                at = start[col];
            }
            // Still too long where its column starts (on a line of its own): as far right
            // as it fits, or, longer than a line (a reserved array's bytes), in pieces.
            let mut cell = cell.to_string();
            if at + len(&cell) > width {
                if len(&cell) + 2 <= width {
                    at = width - len(&cell);
                } else {
                    at = at.min(width / 3);
                    let mut pieces = wrap(&cell, width - at);
                    cell = pieces.pop().unwrap_or_default();
                    for p in pieces {
                        let _ = write!(line, "{:pad$}{p}", "", pad = at - *at_col);
                        new_line(line, at_col);
                    }
                }
            }
            let _ = write!(line, "{:pad$}{cell}", "", pad = at - *at_col);
            *at_col = at + len(&cell);
            at
        };
        for (i, cell) in r.iter().enumerate() {
            if cell.is_empty() {
                continue;
            }
            if i != text {
                place(&mut line, &mut at_col, i, cell);
                continue;
            }
            let from = if at_col > 2 {
                start[i].max(at_col + 2)
            } else {
                start[i]
            };
            // Up to the next column, or to the end of the line when nothing follows.
            let room = if r[i + 1..].iter().all(String::is_empty) {
                width.saturating_sub(from)
            } else {
                (start[i] + widths[i]).saturating_sub(from)
            };
            let longest = cell.split(' ').map(len).max().unwrap_or(0);
            if len(cell) <= room || (room >= MIN_TEXT && longest <= room) {
                let pieces = wrap(cell, room);
                let at = place(&mut line, &mut at_col, i, &pieces[0]);
                more = pieces[1..]
                    .iter()
                    .map(|p| format!("{:at$}{p}", ""))
                    .collect();
            } else {
                under = wrap(cell, width.saturating_sub(indent))
                    .iter()
                    .map(|p| format!("{:indent$}{p}", ""))
                    .collect();
            }
        }
        for l in std::iter::once(line).chain(more).chain(under) {
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
    Some(out)
}

/// `text` in lines of at most `width` characters, broken at spaces (the spaces between
/// two words on one line kept as they are: aligned columns stay aligned); a word longer
/// than a line is cut. No text: no lines.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut len = 0;
    // Spaces beyond one since the last word.
    let mut more = 0;
    for word in text.split(' ') {
        if word.is_empty() {
            more += 1;
            continue;
        }
        let gap = 1 + std::mem::take(&mut more);
        let mut word = word;
        let mut wlen = word.chars().count();
        if len > 0 && len + gap + wlen <= width {
            cur.extend(std::iter::repeat_n(' ', gap));
            cur.push_str(word);
            len += gap + wlen;
            continue;
        }
        if len > 0 {
            lines.push(std::mem::take(&mut cur));
        }
        while wlen > width {
            let cut = word.char_indices().nth(width).map_or(word.len(), |c| c.0);
            lines.push(word[..cut].to_string());
            word = &word[cut..];
            wlen -= width;
        }
        cur.push_str(word);
        len = wlen;
    }
    if len > 0 {
        lines.push(cur);
    }
    lines
}

/// Every line of `text` wider than [`width`] wrapped at spaces, its continuation lines
/// indented two more than it (`explain`'s prose; its tables already fit).
pub fn fit_text(text: &str) -> String {
    let width = width();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if body.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let lead = body.len() - body.trim_start_matches(' ').len();
        let first = wrap(body.trim_start_matches(' '), width.saturating_sub(lead));
        // Only spaces: nothing to show.
        let Some((head, rest)) = first.split_first() else {
            out.push_str(&line[body.len()..]);
            continue;
        };
        let _ = writeln!(out, "{:lead$}{head}", "");
        // The rest, rewrapped for the deeper indent.
        let hang = (lead + 2).min(width / 2);
        for l in wrap(&rest.join(" "), width - hang) {
            let _ = writeln!(out, "{:hang$}{l}", "");
        }
        if !line.ends_with('\n') {
            out.pop();
        }
    }
    out
}

/// `  raw HEX` for a word that did not decode: one line, or two of 32 bytes each when
/// the line would be wider than [`width`].
pub fn raw_lines(bytes: &[u8]) -> String {
    let hex = hex_string(bytes);
    if 6 + hex.len() <= width() {
        return format!("  raw {hex}\n");
    }
    let (a, b) = hex.split_at(hex.len() / 2);
    format!("  raw {a}\n      {b}\n")
}
