//! `docs/sources.md`: every source section by section, with the spec facts that cite it,
//! so a page of a source can be checked against the spec one section at a time; a
//! declared section that nothing cites is marked.

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::model::klr::{KlrLeaf, Layout, StepKind};
use crate::model::lowering::{Lowering, Message};
use crate::model::*;

pub(super) const PAGE: &str = "docs/sources.md";

/// One evidence record (or enumerator alias) and the fact it backs, as a linked line.
struct Citation {
    source: String,
    /// The declared heading it names; `None` for the whole document or an undeclared one.
    section: Option<String>,
    /// The citation as written, for sources without declared sections.
    cite: String,
    fact: String,
}

/// Collects the citations of a model, each with the link of the fact that carries it.
struct Collector<'c, 'm> {
    cx: &'c Pages<'m>,
    out: Vec<Citation>,
}

impl Collector<'_, '_> {
    /// `kind` `label` linked to `href`, for each of `evidence`, with the string the
    /// record says names it there (an assert, a `_STRUCT`, an `instr.<field>`).
    fn add(&mut self, evidence: &[Evidence], kind: &str, label: &str, href: &str) {
        for e in evidence {
            self.push(&e.source, e.section.as_deref(), &e.cite, kind, label, href);
            if let (Some(names), Some(c)) = (&e.names, self.out.last_mut()) {
                let _ = write!(c.fact, " · names {}", quote(names, true));
            }
        }
    }

    fn push(
        &mut self,
        source: &str,
        section: Option<&str>,
        cite: &str,
        kind: &str,
        label: &str,
        href: &str,
    ) {
        self.out.push(Citation {
            source: source.to_string(),
            section: section.map(str::to_string),
            cite: cite.to_string(),
            fact: format!("{kind} [{}]({href})", code(label, true)),
        });
    }

    /// An address map, its slots and windows, each cited on the map's page.
    fn addrmap(&mut self, m: &crate::model::addrmap::AddrMap) {
        let href = super::addrmap::page(m);
        self.add(&m.evidence, "address map", &m.arch, &href);
        for s in &m.slots {
            self.add(&s.evidence, "slot", &s.name, &href);
        }
        for w in &m.windows {
            self.add(&w.evidence, "window", &w.name, &href);
        }
    }

    /// A register file and everything in it, each cited on the file's page.
    fn regfile(&mut self, f: &crate::model::registers::RegFile) {
        let href = format!("registers/{}.md", f.name.to_ascii_lowercase());
        self.add(&f.evidence, "register file", &f.name, &href);
        for n in &f.counts {
            let label = format!("{} ({})", f.name, n.what);
            self.add(std::slice::from_ref(&n.evidence), "count", &label, &href);
        }
        for b in &f.bundles {
            let site = format!("{}.{}", f.name, b.name);
            self.add(&b.evidence, "bundle", &site, &href);
            for r in &b.registers {
                let site = format!("{site}.{}", r.name);
                self.add(&r.evidence, "register", &site, &href);
                for x in &r.fields {
                    let site = format!("{site}.{}", x.name);
                    self.add(&x.evidence, "register field", &site, &href);
                    self.alternatives(&x.alternatives, &site, &href);
                }
            }
        }
    }

    /// Alternative readings of `site`, shown at `href`.
    fn alternatives(&mut self, alts: &[Alternative], site: &str, href: &str) {
        for a in alts {
            let label = format!("{site} as {}", a.name);
            self.add(&a.evidence, "alternative", &label, href);
        }
    }

    /// A field of a spec type and its alternatives, which conflicts.md lists.
    fn field(&mut self, f: &Field, site: &str, href: &str) {
        self.add(&f.evidence, "field", site, href);
        self.conflicts(&f.alternatives, site);
    }

    fn conflicts(&mut self, alts: &[Alternative], site: &str) {
        self.alternatives(alts, site, &format!("conflicts.md#{}", slug(site)));
    }

    fn type_def(&mut self, t: &TypeDef) {
        let word = self.cx.is_word(t);
        let page = if word {
            format!("words/{}.md", t.name)
        } else {
            format!("types.md#{}", slug(&t.name))
        };
        let at = |anchor: &str| {
            if word {
                format!("{page}#{anchor}")
            } else {
                page.clone()
            }
        };
        let kind = if word { "word" } else { "type" };
        self.add(&t.evidence, kind, &t.name, &at("evidence"));
        match &t.kind {
            TypeKind::Struct {
                fields,
                joins,
                alternatives,
                aliases,
                ..
            } => {
                for a in aliases {
                    self.alias(a, kind, &format!("{} as {}", t.name, a.name), &page);
                }
                for f in fields {
                    self.field(f, &format!("{}.{}", t.name, f.name), &at("layout"));
                }
                for j in joins {
                    let label = format!("{}.{}", t.name, j.name);
                    self.add(&j.evidence, "joined value", &label, &at("joined-values"));
                }
                for a in alternatives {
                    let label = format!("{} as {}", t.name, a.name);
                    let href = "conflicts.md#whole-word-readings";
                    self.add(&a.evidence, "whole-word reading", &label, href);
                }
            }
            TypeKind::Union {
                discriminator,
                variants,
            } => {
                self.field(
                    discriminator,
                    &format!("{}.{}", t.name, discriminator.name),
                    &page,
                );
                for v in variants {
                    let site = format!("{}.{}", t.name, v.name);
                    let cond = arm_condition(discriminator, v);
                    let href = format!("types.md#{}", slug(&format!("{site} — {cond}")));
                    self.add(&v.evidence, "union arm", &site, &href);
                    for f in &v.fields {
                        self.field(f, &format!("{site}.{}", f.name), &href);
                    }
                }
            }
            TypeKind::Bitfield { fields, .. } => {
                for b in fields {
                    let site = format!("{}.{}", t.name, b.name);
                    self.add(&b.evidence, "field", &site, &page);
                    self.conflicts(&b.alternatives, &site);
                }
            }
            TypeKind::Enum { .. } => self.aliases(t, &page),
            TypeKind::Flags { .. } => {}
        }
    }

    /// The enumerator aliases of enum `t`, each citing its source.
    fn aliases(&mut self, t: &TypeDef, href: &str) {
        let TypeKind::Enum { values, .. } = &t.kind else {
            return;
        };
        for v in values {
            for a in &v.aliases {
                let label = format!("{}.{} as {}", t.name, v.name, a.name);
                self.alias(a, "enumerator", &label, href);
            }
        }
    }

    /// One alias of a word or enumerator, under the section it cites; a name the spec
    /// coined itself (`ours = true`) cites nothing.
    fn alias(&mut self, a: &Alias, kind: &str, label: &str, href: &str) {
        if let Some(cite) = &a.source {
            self.push(
                source_id(cite),
                a.section.as_deref(),
                cite,
                kind,
                label,
                href,
            );
        }
    }

    fn rules(&mut self, m: &Model) {
        for set in &m.rules.sets {
            let href = match m.types.get(set.owner) {
                Some(t) if self.cx.is_word(t) => format!("words/{}.md#validity-rules", t.name),
                _ => format!("rules.md#{}", slug(&set.owner_name)),
            };
            for r in &set.rules {
                let label = format!("{}.{}", set.owner_name, r.name);
                self.add(&r.evidence, "rule", &label, &href);
            }
        }
        for c in &m.rules.constants {
            self.add(&c.evidence, "constant", &c.name, "rules.md#constants");
        }
        for t in &m.rules.tables {
            let href = format!("rules.md#{}", slug(&t.name));
            self.add(&t.evidence, "table", &t.name, &href);
        }
    }

    fn message(&mut self, m: &Message, href: &str) {
        self.add(&m.evidence, "error string", &m.message, href);
    }

    fn lowering(&mut self, l: &Lowering) {
        let href = format!(
            "lowering.md#{}",
            slug(&format!("{}: {} → by {}", l.name, l.from, l.selector.path))
        );
        self.add(&l.evidence, "lowering", &l.name, &href);
        self.message(&l.unsupported, &href);
        for a in &l.abis {
            let label = format!("{}: {}", l.name, a.name);
            self.add(&a.evidence, "dispatcher", &label, &href);
        }
        for k in &l.kinds {
            let href = format!("lowering.md#{}", super::lowering::kind_anchor(l, k));
            if let Some(mx) = &k.missing_extension {
                self.message(mx, &href);
            }
            for r in &k.routes {
                let label = format!("{} via {}", k.name, r.abi);
                self.add(&r.evidence, "route", &label, &href);
            }
            for mp in &k.mappings {
                let label = format!("{}.{}", k.to, mp.to.path);
                self.add(&mp.evidence, "lowering mapping", &label, &href);
            }
        }
    }

    fn layout(&mut self, l: &Layout) {
        let href = format!("klr/layouts.md#{}", slug(&l.name));
        self.add(&l.evidence, "klr layout", &l.name, &href);
        for f in &l.fields {
            let site = format!("{}.{}", l.name, f.name);
            self.add(&f.evidence, "klr field", &site, &href);
            self.alternatives(&f.alternatives, &site, &href);
        }
    }

    fn leaf(&mut self, l: &KlrLeaf) {
        let page = format!("klr/leaves/{}.md", l.name);
        self.add(&l.evidence, "klr leaf", &l.name, &page);
        for s in &l.steps {
            let (kind, what) = match &s.kind {
                StepKind::Check(c) => ("klr check", c.message.as_str()),
                StepKind::Route { to, .. } => ("klr route", to.as_str()),
                StepKind::Let { name, .. } => ("klr value", name.as_str()),
                StepKind::Fork { label, paths } => {
                    for p in paths {
                        let label = format!("{}: {}", l.name, p.name);
                        self.add(&p.evidence, "klr path", &label, &format!("{page}#paths"));
                    }
                    ("klr fork", label.as_str())
                }
                StepKind::Stamp { field, .. } => ("klr stamp", field.as_str()),
                StepKind::Effect { text, .. } => ("klr effect", text.as_str()),
            };
            let label = format!("{}: {what}", l.name);
            self.add(&s.evidence, kind, &label, &format!("{page}#rules"));
        }
    }

    fn klr(&mut self, m: &Model) {
        let index = "klr/README.md";
        if let Some(f) = &m.klr.family {
            let href = format!("{index}#the-family-abstract");
            self.add(&f.evidence, "klr family", "the klr leaf family", &href);
        }
        for t in &m.klr.enums {
            let href = format!("{index}#{}", slug(&t.name));
            self.add(&t.evidence, "klr enum", &t.name, &href);
            self.aliases(t, &href);
        }
        for t in &m.klr.tables {
            let href = format!("{index}#{}", slug(&t.name));
            self.add(&t.evidence, "klr table", &t.name, &href);
        }
        for l in &m.klr.layouts {
            self.layout(l);
        }
        for l in &m.klr.leaves {
            self.leaf(l);
        }
        let href = format!("{index}#field-offset-reference-11");
        for r in &m.klr.offsets {
            let label = format!("+0x{:X} {}", r.offset, r.field);
            self.add(&r.evidence, "klr offset", &label, &href);
        }
        let href = format!("{index}#the-three-transposes-6");
        for r in &m.klr.transposes {
            let label = format!("{} ({})", r.klr, r.leaf);
            self.add(&r.evidence, "klr transpose", &label, &href);
        }
    }
}

/// Every citation of the model, in model order.
fn citations(cx: &Pages<'_>) -> Vec<Citation> {
    let m = cx.model;
    let mut c = Collector {
        cx,
        out: Vec::new(),
    };
    for t in &m.types {
        c.type_def(t);
    }
    c.rules(m);
    for k in &m.conflicts {
        let href = format!("conflicts.md#{}", slug(&k.name));
        c.alternatives(&k.readings, &k.name, &href);
    }
    for l in &m.lowerings {
        c.lowering(l);
    }
    c.klr(m);
    for g in &m.gaps {
        c.add(
            &g.evidence,
            "gap",
            &g.name,
            "coverage.md#known-but-not-specified",
        );
    }
    for a in &m.addrmaps {
        c.addrmap(a);
    }
    for f in &m.regfiles {
        c.regfile(f);
    }
    c.out
}

/// The facts of `cites`, each once, in first-cited order.
fn facts<'c>(cites: impl Iterator<Item = &'c Citation>) -> String {
    let mut out: Vec<&str> = Vec::new();
    for c in cites {
        if !out.contains(&c.fact.as_str()) {
            out.push(&c.fact);
        }
    }
    out.join("<br>")
}

/// Which reading of a byte leads when pages disagree (docs/guide/spec-language.md says the
/// same).
const PRECEDENCE: &str = "The stronger reading is the primary field, and the weaker one stays \
     in the spec as an alternative of that field or a `[[conflict]]`, with both sides cited: \
     nothing a source says is deleted. From strongest: (1) a compile-checked shipped header or \
     kernel source (`aws_neuron_isa_*.h` with its `ISA_STATIC_ASSERT`s and `is_valid_*` \
     predicates, the kernel's and the userspace HAL's `union udma_desc`, the GPL kernel \
     driver `aws-neuron-driver`, whose `udma/udma_regs.h` structs and `#define`s outrank every \
     wiki page on a register's name, offset, bits and reset); (2) a reading of the \
     compiler's encoder (the store sites of `libwalrus`'s `visitInst*`); (3) a DWARF dump or a \
     reading of a firmware body. A validator the header gives comes in as the struct's rules \
     with the header's authority. Before a word is taken in from one page, the page that reads \
     its shipped header is looked for; where there is one, it leads.";

pub(super) fn page(cx: &Pages<'_>) -> String {
    let m = cx.model;
    let all = citations(cx);
    let mut out = String::from(BANNER);
    out.push_str("# Sources, section by section\n\n");
    out.push_str(&para(
        "For every source and every section of it the spec declares (`sections` in \
         `spec/sources.toml`, the page's headings as written), the spec facts whose evidence \
         cites that section, each linked to where the docs show it and followed by the string that record says names it there (`names`: an assert, a `_STRUCT`, an `instr.<field>`). Check a source page against \
         the spec one section at a time; ⚠ marks a declared section nothing cites. A citation \
         names a section by its number (`§6.5`) or its heading up to ` — ` (`§Static arm`), \
         optionally followed by a place in it (`§4 Table 4.4a`); the loader rejects one that \
         names no declared section. A source without declared sections lists its citations as \
         written, unchecked.",
    ));
    out.push_str("\n\n## When two sources disagree\n\n");
    out.push_str(&para(PRECEDENCE));
    out.push_str("\n\n## Summary\n\n");
    cx.table_head(
        &[
            "Source",
            "Title",
            "Sections",
            "Cited",
            "Not cited",
            "Citations",
        ],
        &mut out,
    );
    let mut body = String::new();
    for s in &m.sources {
        let mine: Vec<&Citation> = all.iter().filter(|c| c.source == s.id).collect();
        let (declared, cited, uncited) = match &s.sections {
            Some(list) => {
                let cited = (list.iter())
                    .filter(|h| mine.iter().any(|c| c.section.as_ref() == Some(*h)))
                    .count();
                let n = list.len();
                (n.to_string(), cited.to_string(), (n - cited).to_string())
            }
            None => ("not declared".into(), "—".into(), "—".into()),
        };
        cx.row(
            &[
                format!("[{}](#{})", code(&s.id, true), slug(&s.id)),
                text(&s.title),
                declared,
                cited,
                uncited,
                mine.len().to_string(),
            ],
            &mut out,
        );
        source_section(cx, s, &mine, &mut body);
    }
    let _ = writeln!(out, "\nIn all: {} citations.\n", all.len());
    out.push_str(&body);
    out
}

fn source_section(cx: &Pages<'_>, s: &Source, mine: &[&Citation], out: &mut String) {
    let _ = writeln!(out, "## {}\n", text(&s.id));
    let _ = writeln!(out, "{} (`{}`).\n", text(&s.title), s.file);
    cx.table_head(&["Section", "Cited by"], out);
    let whole = facts(mine.iter().copied().filter(|c| c.section.is_none()));
    match &s.sections {
        Some(list) => {
            if !whole.is_empty() {
                cx.row(&["*the whole document*".into(), whole], out);
            }
            let cited = |h: &String| mine.iter().any(|c| c.section.as_ref() == Some(h));
            for h in list {
                let f = facts(
                    mine.iter()
                        .copied()
                        .filter(|c| c.section.as_ref() == Some(h)),
                );
                if !f.is_empty() {
                    cx.row(&[text(h), f], out);
                    continue;
                }
                // A numbered section's subsections are those whose number extends its own.
                let key = format!("{}.", section_key(h));
                let subs = (list.iter())
                    .filter(|x| section_key(x).starts_with(&key) && cited(x))
                    .count();
                let why = match subs {
                    0 => "**nothing cites it**".to_string(),
                    n => format!("**nothing cites it directly**; cited subsections: {n}"),
                };
                cx.row(&[format!("⚠ {}", text(h)), why], out);
            }
        }
        None => {
            let mut cites: Vec<&str> = mine.iter().map(|c| c.cite.as_str()).collect();
            cites.sort();
            cites.dedup();
            for cite in cites {
                let f = facts(mine.iter().copied().filter(|c| c.cite == cite));
                cx.row(&[text(cite), f], out);
            }
        }
    }
    out.push('\n');
}
