//! The Markdown target: reference pages for people, meant to be read on GitHub.
//!
//! - `docs/README.md`: what the pages are, the opcode index by architecture, the
//!   architectures and sources, and how to read the word tables.
//! - `docs/words/<NAME>.md`: one page per word and per record (a `top_level` struct); a
//!   row per leaf of [`Model::leaves`].
//! - `docs/types.md`: every shared type (enums, flags, bitfields, nested structs, unions).
//! - `docs/conflicts.md`: every member with alternative readings, and where words use it.
//! - `docs/coverage.md`: bytes per common confidence level, per word, and every bit map.
//! - `docs/svg/<NAME>.svg`: a struct's bit map (word, record or nested), a box per leaf
//!   coloured by level.
//! - `docs/registers/<file>.md`: one page per register file: contents, counts, register
//!   map, a section per register with its fields; `docs/svg/registers/<file>/` its bit maps, one
//!   per layout.
//! - `docs/sources.md`: every source section by section, with the facts that cite it.
//! - `docs/addrmap/<arch>.md`: one page per SoC address map: slots, windows, instances;
//! - `docs/start-here.md`, `docs/guide/*.md`: the hand-written pages, copied
//!   (`crate::guide`), when given.
//! - `docs/book.css`: wide tables use the page's width beside the sidebar; cells wrap
//!   (evidence folded into a `<details>` per cell, long words with break hints) so that a
//!   table fits it at 1280 px.
//! - `docs/SUMMARY.md`, `docs/book.toml`: the pages as an mdBook (`mdbook build
//!   generated/docs`).
//!
//! Everything is derived from the model in its own order, so the same model renders to the
//! same bytes.

use crate::model::Model;

mod addrmap;
mod book;
mod conflicts;
mod coverage;
mod index;
mod klr;
mod lowering;
mod pages;
mod registers;
mod rules;
mod sources;
mod sub_opcode;
pub(crate) mod svg;
mod types;
mod util;
mod words;

use pages::Pages;

/// Files under `generated/` for this target, as (relative path, contents).
pub fn render(model: &Model) -> Vec<(String, String)> {
    render_with_guide(model, &[])
}

/// [`render`], with the book's hand-written chapters (`guide`: `(docs/…, stamped copy)`, as `crate::guide::read` returns them) among the pages and first in
/// SUMMARY.md: the "Start here" page, then the guide, then the generated reference.
pub fn render_with_guide(model: &Model, guide: &[(String, String)]) -> Vec<(String, String)> {
    let cx = Pages { model };
    let mut out = vec![("docs/README.md".to_string(), cx.index_page())];
    for w in model.words().chain(model.records()) {
        out.push((format!("docs/words/{}.md", w.name), cx.word_page(w)));
    }
    out.push(("docs/types.md".to_string(), cx.types_page()));
    out.push(("docs/conflicts.md".to_string(), cx.conflicts_page()));
    out.push(("docs/coverage.md".to_string(), cx.coverage_page()));
    out.extend(cx.bit_maps());
    out.extend(cx.register_files());
    out.extend(cx.address_maps());
    out.push((rules::PAGE.to_string(), rules::page(&cx)));
    out.extend(klr::pages(&cx));
    out.push((lowering::PAGE.to_string(), lowering::page(&cx)));
    out.push((sources::PAGE.to_string(), sources::page(&cx)));
    out.extend(guide.iter().cloned());
    let book = book::files(model, &out);
    out.extend(book);
    out
}
