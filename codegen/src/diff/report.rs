//! A [`Diff`] as text for a terminal, Markdown for a pull-request comment, or JSON.

use std::fmt::Write as _;

use super::change::{Change, Diff, Impact};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
}

impl Format {
    pub const NAMES: [(&'static str, Format); 3] = [
        ("text", Format::Text),
        ("markdown", Format::Markdown),
        ("json", Format::Json),
    ];
}

pub fn render(diff: &Diff, format: Format) -> String {
    match format {
        Format::Text => text(diff),
        Format::Markdown => markdown(diff),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(diff).unwrap_or_default();
            s.push('\n');
            s
        }
    }
}

fn bump(i: Option<Impact>) -> &'static str {
    i.map_or("none", Impact::name)
}

/// The items in report order, each with its changes.
fn groups(diff: &Diff) -> Vec<(&Change, Vec<&Change>)> {
    let mut out: Vec<(&Change, Vec<&Change>)> = Vec::new();
    for c in &diff.changes {
        match out.iter_mut().find(|(head, _)| head.item == c.item) {
            Some((_, list)) => list.push(c),
            None => out.push((c, vec![c])),
        }
    }
    out
}

fn summary(diff: &Diff) -> String {
    let items = groups(diff).len();
    match diff.changes.len() {
        0 => "no changes".to_string(),
        n => format!(
            "{n} change{} in {items} item{}",
            if n == 1 { "" } else { "s" },
            if items == 1 { "" } else { "s" }
        ),
    }
}

/// The distinct reasons, numbered in order of first use.
fn notes(diff: &Diff) -> Vec<&'static str> {
    let mut out = Vec::new();
    for why in diff.changes.iter().filter_map(|c| c.why) {
        if !out.contains(&why) {
            out.push(why);
        }
    }
    out
}

/// ` [n]`: the note that gives `c`'s reason, if any.
fn note_mark(notes: &[&str], c: &Change) -> String {
    c.why
        .and_then(|w| notes.iter().position(|n| *n == w))
        .map_or(String::new(), |i| format!(" [{}]", i + 1))
}

fn text(diff: &Diff) -> String {
    let notes = notes(diff);
    let mut out = format!(
        "dmaspec diff {} -> {}: {}\nRust API: {}   C headers: {}\n",
        diff.old,
        diff.new,
        summary(diff),
        bump(diff.rust),
        bump(diff.c)
    );
    for (head, list) in groups(diff) {
        let _ = write!(
            out,
            "\n{} ({})\n  {:<6} {:<6} change\n",
            head.item, head.item_kind, "Rust", "C"
        );
        for c in list {
            let member = c
                .member
                .as_ref()
                .map_or(String::new(), |m| format!("{m}: "));
            let _ = writeln!(
                out,
                "  {:<6} {:<6} {}: {member}{}{}",
                c.rust.name(),
                c.c.name(),
                c.kind.label(),
                c.detail,
                note_mark(&notes, c)
            );
        }
    }
    if !notes.is_empty() {
        out.push_str("\nNotes:\n");
        for (i, n) in notes.iter().enumerate() {
            let _ = writeln!(out, "  [{}] {n}", i + 1);
        }
    }
    out
}

/// A table cell: no pipes or line breaks.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn markdown(diff: &Diff) -> String {
    let notes = notes(diff);
    let mut out = format!(
        "### dmaspec diff `{}` → `{}`\n\n| Target | Bump |\n|---|---|\n| Rust API | **{}** |\n| C headers | **{}** |\n\n{}.\n",
        diff.old,
        diff.new,
        bump(diff.rust),
        bump(diff.c),
        summary(diff)
    );
    for (head, list) in groups(diff) {
        let _ = write!(
            out,
            "\n#### `{}` ({})\n\n| Change | Member | Rust | C | Detail |\n|---|---|---|---|---|\n",
            head.item, head.item_kind
        );
        for c in list {
            let member = c
                .member
                .as_ref()
                .map_or(String::new(), |m| format!("`{}`", cell(m)));
            let _ = writeln!(
                out,
                "| {} | {member} | {} | {} | {}{} |",
                c.kind.label(),
                c.rust.name(),
                c.c.name(),
                cell(&c.detail),
                note_mark(&notes, c)
            );
        }
    }
    if !notes.is_empty() {
        out.push_str("\n**Notes**\n\n");
        for (i, n) in notes.iter().enumerate() {
            let _ = writeln!(out, "{}. {}", i + 1, cell(n));
        }
    }
    out
}
