//! `docs/README.md`: the pages, the opcode index, architectures, sources and the key.

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::model::*;

impl<'m> Pages<'m> {
    fn key(&self, out: &mut String) {
        out.push_str(
            "- **Off**: byte offset in the word, decimal and hex.\n\
             - **Size**: bytes; `bL..H` (or `bN`) is the bit range, inclusive with LSB = 0, of \
             a bitfield sub-field inside the container at that offset.\n\
             - **Field**: path from the word (`[i]` for array elements); rows of a union arm \
             say which arm and when it is taken. **reserved** rows are named reserved or \
             padding by a source; **unknown** rows are bytes no source explains, kept raw. \
             ⚠ marks a field with alternative readings.\n\
             - **Meaning**: the spec's doc line (in italics: the doc of the field's type, when \
             the field has none).\n\
             - **Confidence**: the tag as the source scale writes it, and its common level \
             (see [the scales](coverage.md#confidence-scales)).\n\
             - **Evidence**: every record, one per line: **citation** · `as` the name that \
             source uses · `names` the string that names it · `pin` what pins it (store site, \
             assert, probe) · `value` where the value comes from · note · the record's own tag.\n",
        );
    }

    // -----------------------------------------------------------------------------------
    // README.md

    pub(super) fn index_page(&self) -> String {
        let m = self.model;
        let mut out = String::from(BANNER);
        out.push_str("# dmaspec: the DMA-family instruction words\n\n");
        out.push_str(
            "Reference for the 64-byte DMA-family instruction words of the AWS Neuron TPB ISA, \
             generated from the dmaspec TOML spec (the same model the Rust and C code and \
             `dmaspec.json` are generated from). Every fact carries its sources and a confidence \
             tag; where sources disagree, every reading is kept.\n\n",
        );
        out.push_str("## Pages\n\n");
        let words: Vec<&TypeDef> = m.words().collect();
        for w in &words {
            let _ = writeln!(
                out,
                "- {}: {}",
                self.word_link(w, Loc::Top),
                prose(&w.doc, false)
            );
        }
        for r in m.records() {
            let _ = writeln!(
                out,
                "- {} (a record of {}, decoded on its own): {}",
                self.word_link(r, Loc::Top),
                crate::emit::plural(r.size, "byte"),
                prose(&r.doc, false)
            );
        }
        out.push_str(
            "- [Shared types](types.md): the enums, flags, bitfields, nested structs and unions \
             the words are built from.\n\
             - [Conflicting readings](conflicts.md): every field that sources read in more than \
             one way, with each reading and its sources.\n\
             - [Coverage](coverage.md): how many bytes of each word are known, and how surely; \
             the confidence scales.\n\
             - [Known but not specified](coverage.md#known-but-not-specified): what the \
             sources name but do not lay out, each with why and who says so.\n\
             - [Validity rules](rules.md): the predicates the sources state for each word, and \
             which of them are not enforced.\n\
             - [Lowering](lowering.md): how the runtime turns the pseudo words into real ones, \
             field by field, with the mappings the sources do not state marked INFERRED.\n\
             - [Sources, section by section](sources.md): for every section of every source, \
             the facts that cite it; a section nothing cites is marked.\n\
             - [The viewer](viewer/index.html?ext=.html): paste a hex dump or drop a file and \
             see each word as a bit map beside its decoded fields, decoded in the page from the \
             dictionary (open `viewer/index.html` from a clone: its word links then go to the \
             `.md` pages).\n\
             - `generated/dmaspec.json`, beside these pages in the repository: the whole model \
             for tools in other languages.\n",
        );
        if !m.regfiles.is_empty() {
            out.push_str(
                "- [Register files](#register-files): the CSR windows, one page each with its \
                 register map, every register's fields and their bit maps.\n",
            );
        }
        out.push('\n');
        out.push_str(&super::klr::index_section(m));
        out.push_str(&self.register_index());
        out.push_str(&self.address_map_index());

        out.push_str("## Opcode index\n\n");
        out.push_str(
            "Words by opcode (byte 0), with the `OPCODE` enumerator they are bound to and the \
             other spellings sources use; a word chosen by a sub-opcode also shows the field \
             and value that select it within its envelope (other values decode as the envelope). ✓: the architecture ships the word (the word's own \
             architecture list, narrowed by its enumerator's); —: it does not.\n\n",
        );
        let mut cols = vec!["Opcode", "Word", "Enumerator", "Aliases"];
        cols.extend(m.archs.iter().map(|a| a.name.as_str()));
        self.table_head(&cols, &mut out);
        let mut by_op: Vec<&TypeDef> = words.clone();
        // An envelope (no sub-opcode) before the sub-words sharing its opcode.
        by_op.sort_by_key(|w| {
            w.opcode()
                .map(|o| (o.value, o.sub.as_ref().map(|s| s.value)))
        });
        for w in &by_op {
            let op = w.opcode().expect("a word has an opcode");
            let have = m.word_archs(w);
            let mut cells = vec![
                self.opcode_cell(op),
                self.word_link(w, Loc::Top),
                code(&op.enumerator, true),
                m.opcode_enumerator(w)
                    .map_or("—".into(), |e| self.aliases(&e.aliases, true)),
            ];
            cells.extend(
                m.archs
                    .iter()
                    .map(|a| tick(have.contains(&a.name.as_str())).to_string()),
            );
            self.row(&cells, &mut out);
        }
        out.push('\n');

        if let Some(TypeKind::Enum { values, .. }) = m.type_by_name("OPCODE").map(|t| &t.kind) {
            let unbound: Vec<&Enumerator> = values
                .iter()
                .filter(|e| {
                    !words
                        .iter()
                        .any(|w| w.opcode().is_some_and(|o| o.enumerator == e.name))
                })
                .collect();
            if !unbound.is_empty() {
                out.push_str("### Opcodes without a word in the spec\n\n");
                out.push_str(
                    "`OPCODE` enumerators no word is bound to yet; ✓/— is the enumerator's own \
                     architecture list.\n\n",
                );
                let mut cols = vec!["Opcode", "Enumerator", "Meaning", "Aliases"];
                cols.extend(m.archs.iter().map(|a| a.name.as_str()));
                self.table_head(&cols, &mut out);
                for e in unbound {
                    let mut cells = vec![
                        format!("`0x{:02X}` ({})", e.value, e.value),
                        code(&e.name, true),
                        or_dash(e.doc.as_deref().map(text).unwrap_or_default()),
                        self.aliases(&e.aliases, true),
                    ];
                    cells.extend(
                        m.archs.iter().map(|a| {
                            tick(e.arch.is_empty() || e.arch.contains(&a.name)).to_string()
                        }),
                    );
                    self.row(&cells, &mut out);
                }
                out.push('\n');
            }
        }

        out.push_str("## Architectures\n\n");
        self.table_head(&["Name", "NeuronCore", "Notes"], &mut out);
        for a in &m.archs {
            self.row(
                &[code(&a.name, true), format!("NC-v{}", a.nc), text(&a.doc)],
                &mut out,
            );
        }
        out.push('\n');

        out.push_str("## Sources\n\n");
        out.push_str(
            "Evidence cites a source as `<id> <section>`; [sources.md](sources.md) lists the \
             facts each section backs.\n\n",
        );
        self.table_head(&["Id", "Title", "File", "Scale", "Notes"], &mut out);
        for s in &m.sources {
            self.row(
                &[
                    code(&s.id, true),
                    text(&s.title),
                    code(&s.file, true),
                    format!(
                        "[{}](coverage.md#{})",
                        text(&s.scale),
                        slug(&format!("scale {}", s.scale))
                    ),
                    or_dash(s.doc.as_deref().map(text).unwrap_or_default()),
                ],
                &mut out,
            );
        }
        out.push('\n');

        out.push_str("## Reading a word page\n\n");
        let mut key = String::new();
        self.key(&mut key);
        out.push_str(&key);
        out
    }
}
