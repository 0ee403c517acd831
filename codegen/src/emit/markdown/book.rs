//! `docs/SUMMARY.md` and `docs/book.toml`: the pages as an mdBook, so that
//! `mdbook build generated/docs` publishes them as a static site (the pictures and any
//! other file under `docs/` are copied along).
//!
//! The table of contents is made from the pages already rendered (their first `# `
//! heading is the title), so every page is in it and none is listed twice.

use std::fmt::Write as _;

use super::pages::BANNER;
use crate::model::Model;

/// Where the site is built, relative to `docs/`: the workspace's `target/`, never inside
/// `generated/`.
const BUILD_DIR: &str = "../../target/book";

/// The hand-written chapters' folder under `docs/`, and the Start here page
/// (`crate::guide::GUIDE`, `crate::guide::START`).
const GUIDE: &str = "guide/";
const START: &str = "start-here.md";

/// Pages left out of the search index (mdBook warns above 10 MB; the first three were
/// 2.6 MB of 12.9): each lists facts that a word, record, register or type page also
/// holds. So do the index (README.md: the words, records and opcodes by architecture;
/// 0.3 MB) and each register file's own page (its register map; 0.5 MB), whose registers
/// are on its bundles' pages.
const UNSEARCHED: [&str; 4] = ["sources.md", "conflicts.md", "coverage.md", "README.md"];

/// The stylesheet the site adds to mdBook's (`additional-css`), under `docs/`.
pub(super) const CSS: &str = "book.css";

/// Whether a page (by path under `docs/`) belongs in a part.
type Holds = fn(&str, &Model) -> bool;

/// The book's parts: a heading, and which pages it holds.
const PARTS: [(&str, Holds); 5] = [
    ("Words", |p, m| word_page(p, m, false)),
    ("Records", |p, m| word_page(p, m, true)),
    ("Register files", |p, _| p.starts_with("registers/")),
    ("Reference", |p, _| {
        !p.starts_with("klr/")
            && !p.starts_with("words/")
            && !p.starts_with("registers/")
            && !p.starts_with(GUIDE)
            && p != START
            && p != "README.md"
    }),
    ("KLR→BIR leaves", |p, _| p.starts_with("klr/")),
];

/// A word's page (`words/NAME.md` of a word), or with `record` a record's.
fn word_page(path: &str, m: &Model, record: bool) -> bool {
    let Some(name) = path
        .strip_prefix("words/")
        .and_then(|p| p.strip_suffix(".md"))
    else {
        return false;
    };
    m.types
        .iter()
        .any(|t| t.name == name && t.is_record() == record && t.is_top_level())
}

/// The page's title: its first `# ` heading, else its file name.
fn title(path: &str, contents: &str) -> String {
    contents
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map_or_else(|| path.to_string(), |t| t.trim().to_string())
}

/// A link's text in SUMMARY.md: brackets would end it early.
fn link_text(title: &str) -> String {
    title.replace('[', "(").replace(']', ")")
}

/// `(path, contents)` of SUMMARY.md and book.toml for the Markdown pages in `pages`
/// (paths under `generated/`).
pub(super) fn files(model: &Model, pages: &[(String, String)]) -> Vec<(String, String)> {
    let docs: Vec<(&str, &str)> = pages
        .iter()
        .filter_map(|(p, c)| Some((p.strip_prefix("docs/")?, c.as_str())))
        .filter(|(p, _)| p.ends_with(".md"))
        .collect();
    let mut summary = String::from(BANNER);
    summary.push_str("# Summary\n\n");
    let index = docs.iter().find(|(p, _)| *p == "README.md");
    if let Some((p, c)) = docs.iter().find(|(p, _)| *p == START) {
        // The guide's "Start here" page opens the book (and the site: mdBook makes the
        // first chapter index.html), then the guide, then the generated reference.
        let _ = writeln!(summary, "[{}]({p})\n", link_text(&title(p, c)));
        let _ = writeln!(summary, "# Guide\n");
        for (p, c) in docs.iter().filter(|(p, _)| p.starts_with(GUIDE)) {
            let _ = writeln!(summary, "- [{}]({p})", link_text(&title(p, c)));
        }
        summary.push('\n');
        if let Some((p, c)) = index {
            let _ = writeln!(summary, "# The generated reference\n");
            let _ = writeln!(summary, "- [{}]({p})\n", link_text(&title(p, c)));
        }
    } else if let Some((p, c)) = index {
        let _ = writeln!(summary, "[{}]({p})\n", link_text(&title(p, c)));
    }
    for (part, holds) in PARTS {
        let chapters: Vec<&(&str, &str)> = docs.iter().filter(|(p, _)| holds(p, model)).collect();
        if chapters.is_empty() {
            continue;
        }
        let _ = writeln!(summary, "# {part}\n");
        for (p, c) in chapters {
            // The KLR pages sit under the KLR README, a register file's bundle pages
            // (`registers/<file>/<bundle>.md`) under the file's.
            let nested = (p.starts_with("klr/") && *p != "klr/README.md")
                || (p.starts_with("registers/") && p.matches('/').count() == 2);
            let indent = if nested { "  " } else { "" };
            let _ = writeln!(summary, "{indent}- [{}]({p})", link_text(&title(p, c)));
        }
        summary.push('\n');
    }
    let book = format!(
        "# @generated by dmaspec-codegen from spec/*.toml. Do not edit: change the spec and \
         regenerate.\n\
         # `mdbook build generated/docs` builds the site into target/book.\n\
         [book]\n\
         title = \"dmaspec: the DMA-family instruction words\"\n\
         src = \".\"\n\
         \n\
         [build]\n\
         build-dir = \"{BUILD_DIR}\"\n\
         # The pages link each other's .md files, README.md included; without the default\n\
         # preprocessors README.md stays README.html, so those links stay whole.\n\
         use-default-preprocessors = false\n\
         create-missing = false\n\
         \n\
         [output.html]\n\
         no-section-label = true\n\
         # Tables wider than the text column use the page's width.\n\
         additional-css = [\"{CSS}\"]\n\
         \n\
         # The search index (loaded when the search opens) leaves out {UNSEARCHED} and\n\
         # the register files' own pages: they list again, by source, by conflict, by\n\
         # byte, by opcode or by offset, facts the word, record, bundle and type pages\n\
         # hold. A result\n\
         # lands on a page's `##` section.\n\
         [output.html.search]\n\
         heading-split-level = 2\n\
         \n\
         [output.html.search.chapter]\n{unsearched}",
        UNSEARCHED = UNSEARCHED.join(", "),
        unsearched = (UNSEARCHED.iter().map(|p| p.to_string()))
            .chain(model.regfiles.iter().map(|f| {
                format!(
                    "{}/{}.md",
                    super::registers::DIR_IN_DOCS,
                    super::registers::page_name(f)
                )
            }))
            .map(|p| format!("\"{p}\" = {{ enable = false }}\n"))
            .collect::<String>(),
    );
    vec![
        ("docs/SUMMARY.md".to_string(), summary),
        ("docs/book.toml".to_string(), book),
        (format!("docs/{CSS}"), STYLE.to_string()),
    ]
}

/// `docs/book.css`: a table wider than mdBook's text column (a word page's layout table is
/// about 1,800 px against 750) widens, centred on the column, to the width of the page
/// beside the sidebar, and scrolls sideways only beyond that; a narrow table stays in the
/// column. Wide pictures shrink to the column.
const STYLE: &str = "/* @generated by dmaspec-codegen (docs/book.css). Do not edit: regenerate. */
/* A table wider than the text column uses the page's width (less the sidebar when shown),
   centred on the column, and scrolls sideways beyond that. */
.content main .table-wrapper,
.content main > table {
    display: block;
    width: max-content;
    min-width: 100%;
    max-width: calc(100vw - 2 * var(--page-padding) - 16px);
    position: relative;
    left: 50%;
    transform: translateX(-50%);
    overflow-x: auto;
}
html.sidebar-visible .content main .table-wrapper,
html.sidebar-visible .content main > table {
    max-width: calc(100vw - var(--sidebar-width) - 2 * var(--page-padding) - 16px);
}
/* A long field path in a cell (`src_start_addr.addr_tbl_offs.dge_table_entry_id`) may
   break where the table needs it, so a table fits the width above at 1280 px. */
/* mdBook pads cells 20 px a side: 320 px of an eight-column table. */
.content main td,
.content main th {
    padding: 3px 8px;
}
.content main td code {
    overflow-wrap: anywhere;
}
/* An opened Evidence cell wraps at about 22 characters' width rather than squeezing the
   other columns. */
.content main td details {
    max-width: 22em;
}
.content main td details > summary {
    cursor: pointer;
    white-space: nowrap;
}
.content main img {
    max-width: 100%;
    height: auto;
}
";
