//! `kaitai/dmaspec_stream.ksy`: a file of 64-byte words, each read as the word its opcode
//! (and a sub-word's selector) names — what a Web IDE user drops a whole dump onto.

use std::collections::BTreeSet;

use super::ident::{id, uint_type};
use super::yaml::Node;
use crate::model::{Model, TypeDef, dispatch_order};
use crate::output::STAMP;

/// The stream file's id (no spec type is named so; a test keeps it that way).
pub const ID: &str = "dmaspec_stream";

/// (path, contents) of the stream file.
pub fn render(model: &Model) -> (String, String) {
    let words: Vec<&TypeDef> = model.words().collect();
    // (offset, size) of every sub-word selector, each read once.
    let selectors: BTreeSet<(usize, usize)> = words
        .iter()
        .filter_map(|w| w.opcode()?.sub.as_ref().map(|s| (s.offset, s.size)))
        .collect();
    let selector = |offset: usize| format!("selector_{offset}");
    // Sub-words first, each guarded by its selector, so their envelope catches the rest
    // of its opcode; no word: no case, and the body stays bytes.
    let mut kind = words.len().to_string();
    for &i in dispatch_order(&words).iter().rev() {
        let op = words[i].opcode().expect("a word has an opcode");
        let mut test = format!("opcode == {}", op.value);
        if let Some(sub) = &op.sub {
            test.push_str(&format!(" and {} == {}", selector(sub.offset), sub.value));
        }
        let otherwise = match kind.contains('?') {
            true => format!("({kind})"),
            false => kind,
        };
        kind = format!("{test} ? {i} : {otherwise}");
    }
    let mut instances = vec![(
        "opcode".to_string(),
        Node::map([
            ("pos", Node::int(0)),
            ("type", Node::str("u1")),
            ("doc", Node::str("The word's opcode (byte 0).")),
        ]),
    )];
    for &(offset, size) in &selectors {
        instances.push((
            selector(offset),
            Node::map([
                ("pos", Node::int(offset as u64)),
                ("type", Node::str(uint_type(size))),
                (
                    "doc",
                    Node::str(format!(
                        "Bytes {offset}..{}: a sub-word's selector.",
                        offset + size
                    )),
                ),
            ]),
        ));
    }
    instances.push((
        "kind".to_string(),
        Node::map([
            ("value", Node::str(kind)),
            ("enum", Node::str("kind")),
            (
                "doc",
                Node::str(
                    "The word the opcode names (a sub-word when its selector holds its value); \
                     not an enumerator for an opcode no word has.",
                ),
            ),
        ]),
    ));
    let cases = words
        .iter()
        .map(|w| (format!("kind::{}", id(&w.name)), Node::str(id(&w.name))));
    let kinds = words.iter().enumerate().map(|(i, w)| {
        let op = w.opcode().expect("a word has an opcode");
        let doc = format!(
            "{} (opcode {:#04x}), on {}.",
            w.name,
            op.value,
            model.word_archs(w).join(", ")
        );
        (
            i.to_string(),
            Node::map([("id", Node::str(id(&w.name))), ("doc", Node::str(doc))]),
        )
    });
    let word = Node::map([
        (
            "doc",
            Node::str(
                "One 64-byte word: `body` is the word `kind` names, or its bytes for an \
                 opcode no word has.",
            ),
        ),
        (
            "seq",
            Node::List(vec![Node::map([
                ("id", Node::str("body")),
                ("size", Node::int(64)),
                (
                    "type",
                    Node::map([
                        ("switch-on", Node::str("kind")),
                        ("cases", Node::map(cases)),
                    ]),
                ),
            ])]),
        ),
        ("instances", Node::Map(instances)),
    ]);
    let mut imports: Vec<String> = words.iter().map(|w| id(&w.name)).collect();
    imports.sort();
    let root = Node::map([
        (
            "meta",
            Node::map([
                ("id", Node::str(ID)),
                ("title", Node::str("A stream of DMA-family words")),
                ("endian", Node::str("le")),
                ("bit-endian", Node::str("le")),
                (
                    "imports",
                    Node::List(imports.into_iter().map(Node::str).collect()),
                ),
            ]),
        ),
        (
            "doc",
            Node::str(
                "A file of 64-byte words, each read as the word its opcode names, on every \
                 architecture at once: Kaitai cannot be told the architecture, so a word \
                 that exists only on some is read on all (each kind says where it exists), \
                 and an extension is read whether or not the word it must follow precedes \
                 it. `dmaspec decode --arch` decides both.",
            ),
        ),
        (
            "seq",
            Node::List(vec![Node::map([
                ("id", Node::str("words")),
                ("type", Node::str("word")),
                ("size", Node::int(64)),
                ("repeat", Node::str("eos")),
            ])]),
        ),
        ("types", Node::map([("word", word)])),
        ("enums", Node::map([("kind", Node::map(kinds))])),
    ]);
    (
        format!("kaitai/{ID}.ksy"),
        format!(
            "# {STAMP} from the words of spec/: do not edit\n{}",
            super::yaml::render(&root)
        ),
    )
}
