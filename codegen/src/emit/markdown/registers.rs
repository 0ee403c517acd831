//! `docs/registers/<file>.md`: one page per register file (`[[regfile]]`), with its
//! counts, its bundles and a register map of the whole window; and under
//! `docs/registers/<file>/`, a page per bundle with a section per register: its
//! declarations, its field table and a bit map per layout (`docs/svg/registers/<file>/`).
//! A file runs to hundreds of registers, too tall for one page.
//!
//! A register declared once per generation (same name, disjoint `arch`) gets one section;
//! where the generations lay its fields out differently, the section shows one bit map per
//! layout, each naming its architectures.

use std::fmt::Write as _;

use super::pages::*;
use super::svg::{self, BIT_PX, CHAR_PX, LANE_PX, LEFT, ROW_BITS, ROW_GAP, TOP};
use super::util::*;
use crate::emit::plural;
use crate::model::registers::*;

/// The pages, relative to `docs/`.
pub(super) const DIR_IN_DOCS: &str = "registers";

/// The pages, relative to `generated/`.
pub(super) const DIR: &str = "docs/registers";

/// Fill of the bits no field covers.
pub(crate) const UNKNOWN_FILL: &str = "#BBBBBB";

/// The page's name under `docs/registers/`, without `.md`.
pub(crate) fn page_name(f: &RegFile) -> String {
    f.name.to_lowercase()
}

/// A bundle's page under `docs/registers/`, without `.md`: `udma_m2s/M2S_Q`.
fn bundle_page(f: &RegFile, bundle: &str) -> String {
    format!("{}/{bundle}", page_name(f))
}

/// The link from a page in `docs/` (`up` = `""`) or below it (`"../"`) to a register's
/// section.
pub(super) fn register_link(f: &RegFile, bundle: &str, register: &str, up: &str) -> String {
    format!(
        "{up}registers/{}.md#{}",
        bundle_page(f, bundle),
        slug(&heading(bundle, register))
    )
}

/// A register section's heading text.
fn heading(bundle: &str, register: &str) -> String {
    format!("{bundle}.{register}")
}

/// Architectures in `among`'s order that every list in `lists` holds.
fn common<'m>(among: &'m [String], lists: &[&[String]]) -> Vec<&'m str> {
    (among.iter())
        .filter(|a| lists.iter().all(|l| l.contains(a)))
        .map(String::as_str)
        .collect()
}

/// One register of a file by (bundle name, register name): every declaration of it, each
/// with the architectures that have it (bundle, register and file all present).
pub(crate) struct Entry<'m> {
    pub bundle: &'m str,
    pub name: &'m str,
    pub decls: Vec<Decl<'m>>,
}

pub(crate) struct Decl<'m> {
    pub bundle: &'m Bundle,
    pub register: &'m Register,
    pub archs: Vec<&'m str>,
}

/// One layout of a register's fields, and the architectures that share it.
pub(crate) struct Layout<'m> {
    pub archs: Vec<&'m str>,
    pub register: &'m Register,
    pub fields: Vec<&'m RegField>,
}

/// Every register of `f`, grouped by name, ordered by where it first lies in the window.
pub(crate) fn entries(f: &RegFile) -> Vec<Entry<'_>> {
    let mut out: Vec<Entry> = Vec::new();
    for b in &f.bundles {
        for r in &b.registers {
            let archs = common(&f.archs, &[&b.archs, &r.archs]);
            if archs.is_empty() {
                continue;
            }
            let decl = Decl {
                bundle: b,
                register: r,
                archs,
            };
            match out
                .iter_mut()
                .find(|e| e.bundle == b.name && e.name == r.name)
            {
                Some(e) => e.decls.push(decl),
                None => out.push(Entry {
                    bundle: &b.name,
                    name: &r.name,
                    decls: vec![decl],
                }),
            }
        }
    }
    let first = |e: &Entry| {
        (e.decls.iter())
            .map(|d| d.bundle.offset + d.register.offset)
            .min()
    };
    out.sort_by_key(first);
    out
}

/// The layouts of one register, in the file's architecture order: architectures whose
/// fields are the same (name, bits, access, reset, enum, tag) share one.
pub(crate) fn layouts<'m>(f: &'m RegFile, e: &Entry<'m>) -> Vec<Layout<'m>> {
    type Key<'k> = (
        u32,
        Vec<(
            &'k str,
            u32,
            u32,
            Access,
            Option<u64>,
            Option<&'k str>,
            &'k str,
        )>,
    );
    let mut out: Vec<(Key, Layout)> = Vec::new();
    for arch in &f.archs {
        let Some(d) = e.decls.iter().find(|d| d.archs.contains(&arch.as_str())) else {
            continue;
        };
        let fields: Vec<&RegField> = (d.register.fields.iter())
            .filter(|x| x.archs.contains(arch))
            .collect();
        let key: Key = (
            d.register.width,
            (fields.iter())
                .map(|x| {
                    (
                        x.name.as_str(),
                        x.lsb,
                        x.width,
                        x.access,
                        x.reset,
                        x.enum_type.as_deref(),
                        x.confidence.tag.as_str(),
                    )
                })
                .collect(),
        );
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, l)) => l.archs.push(arch),
            None => out.push((
                key,
                Layout {
                    archs: vec![arch],
                    register: d.register,
                    fields,
                },
            )),
        }
    }
    out.into_iter().map(|(_, l)| l).collect()
}

/// A layout's bit map, relative to `generated/`.
pub(crate) fn svg_path(f: &RegFile, e: &Entry, layouts: &[Layout], l: &Layout) -> String {
    let base = format!(
        "{}/registers/{}/{}.{}",
        svg::DIR,
        page_name(f),
        e.bundle,
        e.name
    );
    if layouts.len() > 1 {
        format!("{base}.{}.svg", l.archs[0])
    } else {
        format!("{base}.svg")
    }
}

/// A register's reset value, as many hex digits as its width needs.
fn reset_hex(v: Option<u64>, width: u32) -> String {
    match v {
        Some(v) => format!("`0x{v:0w$X}`", w = width.div_ceil(4) as usize),
        None => "—".into(),
    }
}

/// `0x1F` as many digits as the file's window needs.
fn at(v: u64, digits: usize) -> String {
    format!("0x{v:0digits$X}")
}

/// How many hex digits the offsets of a window of `size` bytes need.
fn digits(size: u64) -> usize {
    let top = size.saturating_sub(1).max(1);
    (64 - top.leading_zeros() as usize).div_ceil(4).max(2)
}

/// A declaration's place in the window: an absolute offset, or `base + i·stride` for a
/// register in a bundle array.
fn place(d: &Decl, digits: usize) -> String {
    let base = d.bundle.offset + d.register.offset;
    if d.bundle.count > 1 {
        format!(
            "`{} + i·{:#X}` (i = 0..{})",
            at(base, digits),
            d.bundle.stride,
            d.bundle.count - 1
        )
    } else {
        format!("`{}`", at(base, digits))
    }
}

/// `bits 9:0` runs of a mask, high first.
fn runs(mask: u64, width: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut bit = width;
    while bit > 0 {
        bit -= 1;
        if mask >> bit & 1 == 1 {
            let hi = bit;
            while bit > 0 && mask >> (bit - 1) & 1 == 1 {
                bit -= 1;
            }
            out.push((hi, bit));
        }
    }
    out
}

fn csr_bits(hi: u32, lo: u32) -> String {
    if hi == lo {
        lo.to_string()
    } else {
        format!("{hi}:{lo}")
    }
}

/// What a count counts, as the spec can count it: the first of "field", "bundle",
/// "register" its head (before any parenthesis, comma or colon) names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Counted {
    Fields,
    Bundles,
    Registers,
    /// Registers with every bundle array expanded.
    Physical,
}

fn counted(what: &str) -> Option<Counted> {
    let head = what.split(['(', ',', ':', ';']).next().unwrap_or("");
    let head = head.to_lowercase();
    let first = [
        ("field", Counted::Fields),
        ("bundle", Counted::Bundles),
        ("register", Counted::Registers),
    ]
    .into_iter()
    .filter_map(|(k, c)| head.find(k).map(|i| (i, c)))
    .min_by_key(|(i, _)| *i)
    .map(|(_, c)| c)?;
    Some(
        if first == Counted::Registers && (head.contains("physical") || head.contains("expan")) {
            Counted::Physical
        } else {
            first
        },
    )
}

/// How many of `c` the spec declares on one architecture.
fn tally(v: &RegFileView, c: Counted) -> u64 {
    let regs = || v.bundles.iter().flat_map(|b| b.registers.iter());
    match c {
        Counted::Bundles => v.bundles.len() as u64,
        Counted::Registers => regs().count() as u64,
        Counted::Fields => regs().map(|r| r.fields.len() as u64).sum(),
        Counted::Physical => (v.bundles.iter())
            .map(|b| b.bundle.count * b.registers.len() as u64)
            .sum(),
    }
}

impl Counted {
    fn noun(self) -> &'static str {
        match self {
            Counted::Fields => "field",
            Counted::Bundles => "bundle",
            Counted::Registers => "register",
            Counted::Physical => "register",
        }
    }
    fn how(self) -> &'static str {
        match self {
            Counted::Physical => " once bundle arrays are expanded",
            _ => "",
        }
    }
}

impl<'m> Pages<'m> {
    /// The register file pages and their bit maps.
    pub(super) fn register_files(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for f in &self.model.regfiles {
            out.push((format!("{DIR}/{}.md", page_name(f)), self.register_page(f)));
            let all = entries(f);
            // One page per bundle name: a bundle laid out per generation (same name,
            // disjoint arch) is several declarations sharing it.
            let mut names: Vec<&str> = Vec::new();
            for b in &f.bundles {
                if names.contains(&b.name.as_str()) {
                    continue;
                }
                names.push(&b.name);
                let held: Vec<&Entry> = all.iter().filter(|e| e.bundle == b.name).collect();
                if !held.is_empty() {
                    let decls: Vec<&Bundle> =
                        (f.bundles.iter()).filter(|x| x.name == b.name).collect();
                    let path = format!("{DIR}/{}.md", bundle_page(f, &b.name));
                    out.push((path, self.bundle_page(f, &decls, &held)));
                }
            }
            for e in all {
                let ls = layouts(f, &e);
                for l in &ls {
                    out.push((svg_path(f, &e, &ls, l), self.register_bit_map(f, &e, l)));
                }
            }
        }
        out
    }

    /// The index's section on register files (empty without any).
    pub(super) fn register_index(&self) -> String {
        let m = self.model;
        let mut out = String::new();
        if m.regfiles.is_empty() {
            return out;
        }
        out.push_str("## Register files\n\n");
        out.push_str(
            "The CSR windows the spec lays out, one page each: its register map, every \
             register's fields and a bit map per layout. ✓: the architecture has the file.\n\n",
        );
        let mut cols = vec!["File", "Size", "Bundles", "Registers", "Confidence"];
        cols.extend(m.archs.iter().map(|a| a.name.as_str()));
        self.table_head(&cols, &mut out);
        for f in &m.regfiles {
            let mut cells = vec![
                format!("[{}](registers/{}.md)", text(&f.name), page_name(f)),
                format!("`{:#X}`", f.size),
                f.bundles.len().to_string(),
                entries(f).len().to_string(),
                self.confidence_cell(&f.confidence),
            ];
            cells.extend(
                m.archs
                    .iter()
                    .map(|a| tick(f.archs.contains(&a.name)).to_string()),
            );
            self.row(&cells, &mut out);
        }
        out.push('\n');
        out
    }

    fn register_page(&self, f: &RegFile) -> String {
        let m = self.model;
        let mut out = String::from(BANNER);
        let _ = writeln!(out, "# Register file {}\n", text(&f.name));
        let _ = writeln!(out, "{}\n", para(&f.doc));
        let _ = writeln!(
            out,
            "- **Size:** `{:#X}` ({}) window",
            f.size,
            plural(f.size as usize, "byte")
        );
        let _ = writeln!(out, "- **Bus width:** {} bits", f.bus_width);
        let archs: Vec<String> = (m.archs.iter())
            .map(|a| format!("{} {}", text(&a.name), tick(f.archs.contains(&a.name))))
            .collect();
        let _ = writeln!(out, "- **Architectures:** {}", archs.join(" · "));
        let _ = writeln!(
            out,
            "- **Confidence:** {}",
            self.confidence_inline(&f.confidence)
        );
        let _ = writeln!(out, "- **Declared in:** `spec/{}`", f.file);
        let all = entries(f);
        let _ = writeln!(
            out,
            "- **Holds:** {} and {}",
            plural(f.bundles.len(), "bundle"),
            plural(all.len(), "register")
        );
        if !f.arch_invariant() {
            out.push_str(
                "- **Per generation:** some bundles, registers or fields differ by \
                 architecture; the tables say which architectures have each.\n",
            );
        }
        out.push('\n');
        self.contents(f, &all, &mut out);

        if !f.counts.is_empty() {
            out.push_str("## Counts\n\n");
            out.push_str(
                "Numbers a source gives without listing the items, beside what the spec \
                 declares.\n\n",
            );
            for c in &f.counts {
                let _ = write!(
                    out,
                    "- The source counts **{}** {}; ",
                    c.value,
                    prose(&c.what, false)
                );
                match counted(&c.what) {
                    Some(k) => {
                        let per: Vec<(&str, u64)> =
                            f.views().map(|v| (v.arch, tally(&v, k))).collect();
                        let holds = match per.first() {
                            Some((_, n)) if per.iter().all(|(_, x)| x == n) => {
                                plural(*n as usize, k.noun())
                            }
                            _ => (per.iter())
                                .map(|(a, n)| {
                                    format!("{} on {}", plural(*n as usize, k.noun()), text(a))
                                })
                                .collect::<Vec<_>>()
                                .join(", "),
                        };
                        let _ = write!(out, "the spec holds {holds}{}", k.how());
                    }
                    None => out.push_str("the spec does not tally this"),
                }
                let _ = writeln!(out, ". — {}", self.evidence_one(&c.evidence, false));
            }
            out.push('\n');
        }

        out.push_str("## Evidence\n\n");
        self.evidence_list(&f.evidence, &mut out);
        out.push('\n');

        let digits = digits(f.size);
        out.push_str("## Bundles\n\n");
        self.table_head(
            &[
                "Bundle",
                "Offset",
                "Size",
                "Count",
                "Stride",
                "Archs",
                "Meaning",
                "Confidence",
                "Evidence",
            ],
            &mut out,
        );
        for b in &f.bundles {
            let archs: Vec<String> = common(&f.archs, &[&b.archs])
                .into_iter()
                .map(String::from)
                .collect();
            let name = if all.iter().any(|e| e.bundle == b.name) {
                format!("[{}]({}.md)", code(&b.name, true), bundle_page(f, &b.name))
            } else {
                code(&b.name, true)
            };
            self.row(
                &[
                    name,
                    format!("`{}`", at(b.offset, digits)),
                    format!("`{:#X}`", b.size),
                    b.count.to_string(),
                    format!("`{:#X}`", b.stride),
                    self.archs_of(&archs),
                    or_dash(breakable(&text(&b.doc))),
                    self.confidence_cell(&b.confidence),
                    self.evidence_cell(&b.evidence),
                ],
                &mut out,
            );
        }
        out.push('\n');

        out.push_str("## Register map\n\n");
        out.push_str(
            "Every register by its offset from the file's base; in a bundle array, element \
             `i` of the bundle is `i·stride` further.\n\n",
        );
        self.table_head(
            &["Offset", "Bundle", "Register", "Access", "Reset", "Archs"],
            &mut out,
        );
        let mut rows: Vec<(&Entry, &Decl)> = (all.iter())
            .flat_map(|e| e.decls.iter().map(move |d| (e, d)))
            .collect();
        rows.sort_by_key(|(_, d)| d.bundle.offset + d.register.offset);
        for (e, d) in rows {
            let bundle = if d.bundle.count > 1 {
                format!("{}\\[i\\]", code(&d.bundle.name, true))
            } else {
                code(&d.bundle.name, true)
            };
            let archs: Vec<String> = d.archs.iter().map(|a| a.to_string()).collect();
            self.row(
                &[
                    place(d, digits),
                    bundle,
                    format!(
                        "[{}]({}.md#{})",
                        text(&d.register.name),
                        bundle_page(f, e.bundle),
                        slug(&heading(e.bundle, e.name))
                    ),
                    d.register.access_label(),
                    reset_hex(d.register.reset, d.register.width),
                    self.archs_of(&archs),
                ],
                &mut out,
            );
        }
        out.push('\n');
        out
    }

    /// A bundle's page: where it lies (once per generation's layout of it), then a section
    /// per register.
    fn bundle_page(&self, f: &RegFile, decls: &[&Bundle], held: &[&Entry]) -> String {
        let name = &decls[0].name;
        let mut out = String::from(BANNER);
        let _ = writeln!(out, "# Bundle {} of {}\n", text(name), text(&f.name));
        for b in decls {
            let array = if b.count > 1 {
                format!(", {} of them `{:#X}` apart", b.count, b.stride)
            } else {
                String::new()
            };
            let on = if decls.len() > 1 {
                let archs: Vec<String> = common(&f.archs, &[&b.archs])
                    .into_iter()
                    .map(String::from)
                    .collect();
                format!(" on {}", self.archs_of(&archs))
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "Bundle {} of [{}](../{}.md){on}: `{:#X}` bytes at `{:#X}`{array}. {}\n",
                code(name, false),
                text(&f.name),
                page_name(f),
                b.size,
                b.offset,
                para(&b.doc)
            );
        }
        out.push_str("## Contents\n\n");
        let links: Vec<String> = (held.iter())
            .map(|e| format!("[{}](#{})", text(e.name), slug(&heading(e.bundle, e.name))))
            .collect();
        let _ = writeln!(out, "- {}\n", links.join(" · "));
        out.push_str("## Registers\n\n");
        let digits = digits(f.size);
        for e in held {
            self.register_section(f, e, digits, &mut out);
        }
        out
    }

    /// A register page's contents, first on the page (a register file runs to a hundred
    /// tables): its sections, then each bundle's registers, linked to their sections.
    fn contents(&self, f: &RegFile, all: &[Entry], out: &mut String) {
        out.push_str("## Contents\n\n");
        let mut sections = vec!["Evidence", "Bundles", "Register map"];
        if !f.counts.is_empty() {
            sections.insert(0, "Counts");
        }
        let links: Vec<String> = (sections.iter())
            .map(|s| format!("[{s}](#{})", slug(s)))
            .collect();
        let _ = writeln!(out, "- {}\n", links.join(" · "));
        out.push_str("Each bundle's registers are on a page of their own:\n\n");
        let mut bundles: Vec<&str> = Vec::new();
        for e in all {
            if !bundles.contains(&e.bundle) {
                bundles.push(e.bundle);
            }
        }
        for b in bundles {
            let page = bundle_page(f, b);
            let links: Vec<String> = (all.iter().filter(|e| e.bundle == b))
                .map(|e| {
                    let anchor = slug(&heading(e.bundle, e.name));
                    format!("[{}]({page}.md#{anchor})", text(e.name))
                })
                .collect();
            let _ = writeln!(
                out,
                "- [{}]({page}.md): {}",
                code(b, false),
                links.join(" · ")
            );
        }
        out.push('\n');
    }

    fn register_section(&self, f: &RegFile, e: &Entry, digits: usize, out: &mut String) {
        let m = self.model;
        let _ = writeln!(out, "### {}\n", text(&heading(e.bundle, e.name)));
        let docs: Vec<&str> = (e.decls.iter())
            .map(|d| d.register.doc.as_str())
            .filter(|d| !d.is_empty())
            .collect();
        for (i, d) in docs.iter().enumerate() {
            if !docs[..i].contains(d) {
                let _ = writeln!(out, "{}\n", para(d));
            }
        }
        self.table_head(
            &[
                "Offset",
                "In bundle",
                "Width",
                "Access",
                "Reset",
                "Archs",
                "Confidence",
                "Evidence",
            ],
            out,
        );
        for d in &e.decls {
            let archs: Vec<String> = d.archs.iter().map(|a| a.to_string()).collect();
            self.row(
                &[
                    place(d, digits),
                    format!("`+{:#X}`", d.register.offset),
                    format!("{} bits", d.register.width),
                    d.register.access_label(),
                    reset_hex(d.register.reset, d.register.width),
                    self.archs_of(&archs),
                    self.confidence_cell(&d.register.confidence),
                    self.evidence_cell(&d.register.evidence),
                ],
                out,
            );
        }
        out.push('\n');

        // Recorded conflicts about this register or one of its fields.
        for c in &m.conflicts {
            let about: Vec<&String> = (c.about.iter())
                .filter(|a| {
                    m.register_path(a).is_some_and(|p| {
                        std::ptr::eq(p.file, f)
                            && p.bundle.name == e.bundle
                            && p.registers.iter().any(|r| r.name == e.name)
                    })
                })
                .collect();
            if about.is_empty() {
                continue;
            }
            let names: Vec<String> = about.iter().map(|a| code(a, false)).collect();
            let _ = writeln!(
                out,
                "⚠ **Recorded conflict** [{}]({}conflicts.md#{}) about {}: {}\n",
                text(&c.name),
                Loc::Bundle.up(),
                slug(&c.name),
                names.join(", "),
                prose(&c.doc, false)
            );
        }

        let ls = layouts(f, e);
        for l in &ls {
            let archs: Vec<String> = l.archs.iter().map(|a| text(a)).collect();
            let file = svg_path(f, e, &ls, l);
            let rel = file.strip_prefix("docs/").unwrap_or(&file);
            if ls.len() > 1 {
                let _ = writeln!(out, "**Layout on {}:**\n", archs.join(", "));
            }
            let _ = writeln!(
                out,
                "![{} bit map ({})]({}{rel})\n",
                text(&heading(e.bundle, e.name)),
                archs.join(", "),
                Loc::Bundle.up()
            );
        }

        self.table_head(
            &[
                "Bits",
                "Field",
                "Access",
                "Reset",
                "Enum",
                "Meaning",
                "Archs",
                "Confidence",
                "Evidence",
            ],
            out,
        );
        let mut fields: Vec<(&Decl, &RegField, Vec<&str>)> = (e.decls.iter())
            .flat_map(|d| {
                d.register.fields.iter().filter_map(move |x| {
                    let archs = common(&f.archs, &[&x.archs]);
                    let archs: Vec<&str> =
                        archs.into_iter().filter(|a| d.archs.contains(a)).collect();
                    (!archs.is_empty()).then_some((d, x, archs))
                })
            })
            .collect();
        fields.sort_by_key(|(_, x, _)| std::cmp::Reverse(x.msb()));
        let mut conflicted = Vec::new();
        for (_, x, archs) in &fields {
            let mut name = code(&x.name, true);
            if !x.alternatives.is_empty() {
                let _ = write!(
                    name,
                    "<br>⚠ [{}](#{})",
                    plural(x.alternatives.len(), "alternative reading"),
                    slug(&format!(
                        "{}.{} readings",
                        heading(e.bundle, e.name),
                        x.name
                    ))
                );
                conflicted.push(*x);
            }
            let archs: Vec<String> = archs.iter().map(|a| a.to_string()).collect();
            let enum_cell = match &x.enum_type {
                Some(t) => self.type_cell(t, Loc::Bundle),
                None => "—".into(),
            };
            self.row(
                &[
                    format!("`{}`", x.bits()),
                    name,
                    x.access.as_str().to_string(),
                    reset_hex(x.reset, x.width),
                    enum_cell,
                    or_dash(breakable(&text(&x.doc))),
                    self.archs_of(&archs),
                    self.confidence_cell(&x.confidence),
                    if x.evidence.is_empty() {
                        "*the register's*".into()
                    } else {
                        self.evidence_cell(&x.evidence)
                    },
                ],
                out,
            );
        }
        out.push('\n');
        for l in &ls {
            let unknown = l.register.unknown_mask(l.fields.iter().copied());
            let bits: Vec<String> = (runs(unknown, l.register.width).into_iter())
                .map(|(h, lo)| format!("`{}`", csr_bits(h, lo)))
                .collect();
            if bits.is_empty() {
                continue;
            }
            let on = if ls.len() > 1 {
                let archs: Vec<String> = l.archs.iter().map(|a| text(a)).collect();
                format!(" on {}", archs.join(", "))
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "Bits no field covers{on} (unknown, grey in the bit map): {}.\n",
                bits.join(", ")
            );
        }
        let mut seen: Vec<&str> = Vec::new();
        for x in conflicted {
            if seen.contains(&x.name.as_str()) {
                continue;
            }
            seen.push(&x.name);
            let _ = writeln!(
                out,
                "#### {} readings\n",
                text(&format!("{}.{}", heading(e.bundle, e.name), x.name))
            );
            self.table_head(&["Reading", "Meaning", "Confidence", "Evidence"], out);
            for (_, y, archs) in (fields.iter()).filter(|(_, y, _)| y.name == x.name) {
                let archs: Vec<String> = archs.iter().map(|a| a.to_string()).collect();
                self.row(
                    &[
                        format!(
                            "**primary**<br>{} `{}` on {}",
                            code(&y.name, true),
                            y.bits(),
                            self.archs_of(&archs)
                        ),
                        or_dash(breakable(&text(&y.doc))),
                        self.confidence_cell(&y.confidence),
                        self.evidence_cell(&y.evidence),
                    ],
                    out,
                );
                for a in &y.alternatives {
                    self.row(
                        &[
                            format!("alternative<br>{}", code(&a.name, true)),
                            or_dash(breakable(&text(&a.doc))),
                            self.confidence_cell(&a.confidence),
                            self.evidence_cell(&a.evidence),
                        ],
                        out,
                    );
                }
            }
            out.push('\n');
        }
    }

    /// One layout's bit map: a strip of 32 bits per row, MSB left, a box per field
    /// coloured by its level and a grey box per run of bits no field covers.
    fn register_bit_map(&self, f: &RegFile, e: &Entry, l: &Layout) -> String {
        let reg_bits = l.register.width as usize;
        let rows = reg_bits.div_ceil(ROW_BITS).max(1);
        let width = LEFT + ROW_BITS * BIT_PX + 8;
        let legend = 64;
        let height = TOP + rows * (LANE_PX + ROW_GAP) + legend;
        let name = format!("{}.{}.{}", f.name, e.bundle, e.name);
        let archs = l.archs.join(" ");
        let mut out = String::from(BANNER);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"11\" \
             data-bit-px=\"{BIT_PX}\" data-left=\"{LEFT}\" data-row-bits=\"{ROW_BITS}\" \
             data-register=\"{}\" data-archs=\"{}\" data-width=\"{reg_bits}\">",
            svg::xml(&name),
            svg::xml(&archs)
        );
        let _ = writeln!(
            out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#FFFFFF\"/>\n\
             <text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">{} — {} bits — {}</text>",
            svg::xml(&name),
            reg_bits,
            svg::xml(&l.archs.join(", "))
        );
        for b in 0..ROW_BITS {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\">{b}</text>",
                svg::x_of(b) + BIT_PX / 2,
                TOP - 6
            );
        }
        // Every bit once: the fields, then the runs no field covers.
        let mut spans: Vec<(u32, u32, Option<&RegField>)> = l
            .fields
            .iter()
            .map(|x| (x.lsb, x.width, Some(*x)))
            .collect();
        let unknown = l.register.unknown_mask(l.fields.iter().copied());
        spans.extend(
            runs(unknown, l.register.width)
                .into_iter()
                .map(|(hi, lo)| (lo, hi - lo + 1, None)),
        );
        spans.sort_by_key(|s| s.0);
        for r in 0..rows {
            let y = TOP + r * (LANE_PX + ROW_GAP);
            let bits = (reg_bits - r * ROW_BITS).min(ROW_BITS);
            let _ = writeln!(
                out,
                "<text x=\"4\" y=\"{}\">[{}:{}]</text>\n\
                 <rect class=\"row\" data-row=\"{r}\" x=\"{}\" y=\"{y}\" width=\"{}\" \
                 height=\"{LANE_PX}\" fill=\"none\" stroke=\"#000\"/>",
                y + LANE_PX / 2 + 4,
                r * ROW_BITS + bits - 1,
                r * ROW_BITS,
                svg::x_of(r * ROW_BITS + bits - 1),
                bits * BIT_PX,
            );
        }
        for (lsb, w, field) in spans {
            let (mut bit, end) = (lsb as usize, (lsb + w) as usize);
            while bit < end {
                let row = bit / ROW_BITS;
                let piece = end.min((row + 1) * ROW_BITS) - bit;
                let y = TOP + row * (LANE_PX + ROW_GAP);
                self.register_box(e, field, bit, piece, y, &mut out);
                bit += piece;
            }
        }
        let y = TOP + rows * (LANE_PX + ROW_GAP) + 8;
        let mut x = 4;
        let key = svg::classes(self.model)
            .into_iter()
            .filter(|(n, _)| n != "reserved" && n != "unknown")
            .chain([("unknown".to_string(), UNKNOWN_FILL)]);
        for (name, fill) in key {
            let _ = writeln!(
                out,
                "<rect class=\"legend\" data-level=\"{0}\" x=\"{x}\" y=\"{y}\" width=\"14\" \
                 height=\"14\" fill=\"{fill}\" stroke=\"#000\"/><text x=\"{1}\" y=\"{2}\">{0}</text>",
                svg::xml(&name),
                x + 18,
                y + 11,
            );
            x += 18 + name.chars().count() * CHAR_PX + 16;
        }
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{}\">Bit 31 leftmost, bit 0 rightmost; grey bits are covered by \
             no field. Hover a box for its access, reset and confidence.</text>",
            y + 34
        );
        out.push_str("</svg>\n");
        out
    }

    /// One box of a bit map: `width` bits from `bit`, in the row whose top is `y`.
    fn register_box(
        &self,
        e: &Entry,
        field: Option<&RegField>,
        bit: usize,
        width: usize,
        y: usize,
        out: &mut String,
    ) {
        let x = svg::x_of(bit + width - 1);
        let w = width * BIT_PX;
        let range = if width == 1 {
            format!("[{bit}]")
        } else {
            format!("[{}:{bit}]", bit + width - 1)
        };
        let room = w.saturating_sub(4) / CHAR_PX;
        let cx = x + w / 2;
        let label = |out: &mut String, name: &str| {
            let range = if range.len() <= room {
                range.clone()
            } else {
                String::new()
            };
            for (t, dy) in [(svg::fit(name, room), 17), (range, 32)] {
                if !t.is_empty() {
                    let _ = writeln!(
                        out,
                        "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                        y + dy,
                        svg::xml(&t)
                    );
                }
            }
        };
        match field {
            Some(fd) => {
                let c = &fd.confidence;
                let path = format!("{}.{}.{}", e.bundle, e.name, fd.name);
                let reset = fd
                    .reset
                    .map_or("reset not given".to_string(), |v| format!("reset {v:#X}"));
                let noun = if fd.width == 1 { "bit" } else { "bits" };
                let mut title = format!(
                    "{path} — {noun} {} — {} — {reset} — {} ({})",
                    fd.bits(),
                    fd.access.as_str(),
                    c.level,
                    c.tag
                );
                if let Some(t) = &fd.enum_type {
                    let _ = write!(title, " — enum {t}");
                }
                let alts = fd.alternatives.len();
                if alts > 0 {
                    let _ = write!(title, " — {alts} alternative reading(s)");
                }
                let dash = if alts > 0 {
                    " stroke-dasharray=\"5 3\" stroke-width=\"2\""
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "<g><title>{}</title><rect class=\"field\" data-path=\"{}\" data-field=\"{}\" \
                     data-bit=\"{bit}\" data-width=\"{width}\" data-level=\"{}\" \
                     data-alternatives=\"{alts}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" \
                     height=\"{LANE_PX}\" fill=\"{}\" stroke=\"#000\"{dash}/>",
                    svg::xml(&title),
                    svg::xml(&path),
                    svg::xml(&fd.name),
                    svg::xml(&c.level),
                    svg::data_fill(c.rank),
                );
                label(out, &fd.name);
            }
            None => {
                let _ = writeln!(
                    out,
                    "<g><title>bits {} — covered by no field</title><rect class=\"unknown\" \
                     data-bit=\"{bit}\" data-width=\"{width}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" \
                     height=\"{LANE_PX}\" fill=\"{UNKNOWN_FILL}\" stroke=\"#000\"/>",
                    csr_bits((bit + width - 1) as u32, bit as u32)
                );
                label(out, "");
            }
        }
        out.push_str("</g>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_by_their_head() {
        let c = |s: &str| counted(s);
        assert_eq!(
            c("register definitions (41 in notific + 6 in notific_nq)"),
            Some(Counted::Registers)
        );
        assert_eq!(
            c("physical registers after array expansion (41 + 6 x 10)"),
            Some(Counted::Physical)
        );
        assert_eq!(c("bitfields of tpb.json on Cayman"), Some(Counted::Fields));
        assert_eq!(
            c("bundles of tpb.json on Cayman (this spec holds only x)"),
            Some(Counted::Bundles)
        );
        assert_eq!(
            c("EVT_SEM containers (instances of this register file)"),
            None
        );
    }

    #[test]
    fn runs_and_digits() {
        assert_eq!(runs(0xFFFF_FC00, 32), vec![(31, 10)]);
        assert_eq!(runs(0b1011, 4), vec![(3, 3), (1, 0)]);
        assert_eq!(digits(0x1000), 3);
        assert_eq!(digits(0x100000), 5);
        assert_eq!(digits(0x10), 2);
    }
}
