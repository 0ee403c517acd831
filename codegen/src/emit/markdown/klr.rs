//! Seed 003's KLR→BIR leaves in the Markdown docs, under `docs/klr/`:
//!
//! - `README.md`: the leaf roster (§1), the three transposes (§6), the field-offset
//!   reference (§11), the enums and the tables;
//! - `layouts.md`: every partial layout (klr nodes, BIR classes, auxiliary objects);
//! - `leaves/<Leaf>.md`: one page per leaf: its inputs, its paths and the BIR nodes they
//!   build, and its rules (every step in order, with the exact messages).
//!
//! Everything comes from `model.klr`; `tests/klr_docs.rs` checks the tables against it.

use std::fmt::Write as _;

use super::pages::{BANNER, Pages};
use super::util::{code, para, text};
use crate::model::klr::*;
use crate::model::{Model, TypeKind};

pub const DIR: &str = "docs/klr";

/// Files under `generated/`, as (relative path, contents).
pub(super) fn pages(cx: &Pages<'_>) -> Vec<(String, String)> {
    let m = &cx.model.klr;
    if m.leaves.is_empty() && m.layouts.is_empty() {
        return Vec::new();
    }
    let mut out = vec![
        (format!("{DIR}/README.md"), index(cx, m)),
        (format!("{DIR}/layouts.md"), layouts(cx, m)),
    ];
    for l in &m.leaves {
        out.push((format!("{DIR}/leaves/{}.md", l.name), leaf_page(cx, m, l)));
    }
    out
}

/// The docs index's section on these pages (empty without klr leaves).
pub fn index_section(model: &Model) -> String {
    let m = &model.klr;
    if m.leaves.is_empty() && m.layouts.is_empty() {
        return String::new();
    }
    let links: Vec<String> = m
        .leaves
        .iter()
        .map(|l| format!("[{0}](klr/leaves/{0}.md)", l.name))
        .collect();
    format!(
        "## KLR→BIR data-movement leaves (seed 003)\n\n\
         - [The leaves](klr/README.md): the roster, the three transposes, the field-offset \
         reference, the enums and tables.\n\
         - [Layouts](klr/layouts.md): the klr nodes and BIR node classes, as partial layouts.\n\
         - Each leaf's paths and rules: {}.\n\n",
        links.join(", ")
    )
}

fn hex(v: usize) -> String {
    format!("`{v:#x}`")
}

fn node_name(m: &KlrModel, p: &KlrPath) -> String {
    let q = m
        .layout(&p.class)
        .map_or(p.class.as_str(), |l| &l.qualified);
    match &p.it {
        Some((_, v)) => format!("{} ({v})", code(q, true)),
        None => format!("{} (IT not given)", code(q, true)),
    }
}

/// The distinct nodes of a leaf's paths, then those of the leaves it routes to.
fn leaf_nodes(m: &KlrModel, l: &KlrLeaf) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in l.paths() {
        let n = node_name(m, p);
        if !out.contains(&n) {
            out.push(n);
        }
    }
    for to in l.routes() {
        if let Some(t) = m.leaf(to) {
            for p in t.paths() {
                let n = node_name(m, p);
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
    }
    out
}

fn leaf_builds(m: &KlrModel, l: &KlrLeaf) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in l.paths() {
        let b = code(&p.build, true);
        if !out.contains(&b) {
            out.push(b);
        }
    }
    for to in l.routes() {
        if m.leaf(to).is_some() {
            out.push(format!("fall-through to [{to}](leaves/{to}.md)"));
        }
    }
    out
}

fn index(cx: &Pages<'_>, m: &KlrModel) -> String {
    let mut o = String::from(BANNER);
    o.push_str("# KLR→BIR data-movement leaves (seed 003)\n\n");
    o.push_str(
        "What the compiler's `KlrToBirCodegen` leaves do with the data-movement klr ops: which \
         BIR node each op becomes, on which path, with which checks (the compiler's exact \
         messages), which fields it stamps on the node and which operands it binds. Generated \
         from `spec/klr/`; the same rules run as code in `dmaspec::words::klr` and from the \
         command line as `dmaspec klr lower FILE.json`.\n\n",
    );
    o.push_str(
        "Source: seed 003, *KlirToBirCodegen: the data-movement leaf family* (libwalrus, \
         neuronx_cc 2.24.5133.0). Its claims are tagged on the `seed003` scale: \
         `BYTE-ANCHORED` (a store, compare or call at a cited address), `READ-DIRECTLY`, \
         `READ-OFF-CALL-SITE` and `[INFERRED]`. Facts carried from seed 000 keep its tags.\n\n",
    );
    o.push_str("- [Layouts](layouts.md): the klr nodes, the BIR node classes and the auxiliary objects, as partial layouts.\n");
    o.push_str("- Leaves: ");
    let links: Vec<String> = m
        .leaves
        .iter()
        .map(|l| format!("[{0}](leaves/{0}.md)", l.name))
        .collect();
    o.push_str(&links.join(", "));
    o.push_str("\n\n");
    if let Some(f) = &m.family {
        family(cx, m, f, &mut o);
    }

    o.push_str("## The leaf roster (§1)\n\n");
    o.push_str("| klr op | leaf | → BIR node (IT) | construction path |\n|---|---|---|---|\n");
    for l in &m.leaves {
        let _ = writeln!(
            o,
            "| [{}](leaves/{}.md) | {} @{} | {} | {} |",
            text(&l.name),
            l.name,
            code(&l.function, true),
            code(&format!("{:#x}", l.va), true),
            leaf_nodes(m, l).join(" / "),
            leaf_builds(m, l).join(" / ")
        );
    }
    o.push('\n');

    o.push_str("## The three transposes (§6)\n\n");
    o.push_str(
        "A klr program can ask for a transpose three ways, and each lands on a different BIR \
         node on a different engine; there is no shared transpose lowering.\n\n",
    );
    o.push_str(
        "| klr op | leaf | BIR node | engine | how the transpose is encoded | shape constraint |\n\
         |---|---|---|---|---|---|\n",
    );
    for t in &m.transposes {
        let Some(l) = m.leaf(&t.leaf) else { continue };
        let mut nodes: Vec<String> = Vec::new();
        for p in l.paths() {
            if t.path.as_deref().is_none_or(|x| x == p.name) {
                let n = node_name(m, p);
                if !nodes.contains(&n) {
                    nodes.push(n);
                }
            }
        }
        let _ = writeln!(
            o,
            "| {} | {} @{} | {} | {} | {} | {} |",
            text(&t.klr),
            code(&l.function, true),
            code(&format!("{:#x}", l.va), true),
            nodes.join(" / "),
            text(&t.engine),
            text(&t.encoding),
            text(&t.constraint)
        );
    }
    o.push('\n');

    o.push_str("## Field-offset reference (§11)\n\n");
    o.push_str(
        "The BIR node fields these leaves stamp, as the source's reference lists them. The \
         last column is derived from the leaves' rules (the loader checks that every listed \
         writer stamps the offset).\n\n",
    );
    o.push_str(
        "| offset | field | who writes it | value(s) | stamped by (rules) |\n|---|---|---|---|---|\n",
    );
    for r in &m.offsets {
        let mut by: Vec<String> = Vec::new();
        for l in &m.leaves {
            if l.stamped_offsets().contains(&r.offset) {
                by.push(format!("[{0}](leaves/{0}.md)", l.name));
            }
        }
        let _ = writeln!(
            o,
            "| `{:#x}` ({}) | {} | {} | {} | {} |",
            r.offset,
            r.offset,
            text(&r.field),
            text(&r.who),
            text(&r.values),
            by.join(", ")
        );
    }
    o.push('\n');

    o.push_str("## Enums\n\n");
    for t in &m.enums {
        let TypeKind::Enum { values, .. } = &t.kind else {
            continue;
        };
        let _ = writeln!(o, "### {}\n", t.name);
        let _ = writeln!(
            o,
            "{}: {}\n\nConfidence {}.\n",
            code(&t.c_name, false),
            para(&t.doc),
            cx.confidence_inline(&t.confidence)
        );
        o.push_str("| value | name | note |\n|---|---|---|\n");
        for v in values {
            let _ = writeln!(
                o,
                "| {} | {} | {} |",
                v.value,
                code(&v.name, true),
                text(v.doc.as_deref().unwrap_or(""))
            );
        }
        o.push_str("\nEvidence:\n\n");
        cx.evidence_list(&t.evidence, &mut o);
        o.push('\n');
    }

    o.push_str("## Tables\n\n");
    for t in &m.tables {
        let _ = writeln!(o, "### {}\n", t.name);
        let mut d = para(&t.doc);
        if let Some(f) = &t.function {
            d = format!("{} {d}", code(f, false));
        }
        let past = match t.out_of_range {
            OutOfRange::Fatal => "An index past the end is fatal.",
            OutOfRange::Unknown => "What an index past the end gives is not stated.",
        };
        let _ = writeln!(
            o,
            "{d}\n\n{past} Confidence {}.\n",
            cx.confidence_inline(&t.confidence)
        );
        let key = t.key.as_deref().unwrap_or("index");
        let val = t.enum_.as_deref().or(t.value.as_deref()).unwrap_or("value");
        let _ = writeln!(o, "| {} | {} |\n|---|---|", text(key), text(val));
        for (i, e) in t.entries.iter().enumerate() {
            let shown = match t.enum_.as_deref().and_then(|en| m.enum_name(en, *e)) {
                Some(n) => format!("{e} ({})", code(n, true)),
                None => e.to_string(),
            };
            let _ = writeln!(o, "| {i} | {shown} |");
        }
        o.push_str("\nEvidence:\n\n");
        cx.evidence_list(&t.evidence, &mut o);
        o.push('\n');
    }
    o
}

fn layouts(cx: &Pages<'_>, m: &KlrModel) -> String {
    let mut o = String::from(BANNER);
    o.push_str("# Layouts (seed 003)\n\n");
    o.push_str(
        "Partial in-memory layouts: the fields the sources place, at the offsets they give. \
         \"not given\" marks a field the source names without an offset, and no total size \
         is known unless stated. Fields marked *input* are what an op description for \
         `dmaspec klr lower` carries.\n\n",
    );
    for (side, title) in [
        (Side::Klr, "klr nodes"),
        (Side::Bir, "BIR node classes"),
        (Side::Aux, "Auxiliary objects"),
    ] {
        let _ = writeln!(o, "## {title}\n");
        for l in m.layouts.iter().filter(|l| l.side == side) {
            let _ = writeln!(o, "### {}\n", l.name);
            let mut head = vec![code(&l.qualified, false)];
            if let Some(b) = &l.base {
                let q = m.layout(b).map_or(b.as_str(), |x| &x.qualified);
                head.push(format!(
                    "derives from [{}](#{})",
                    code(q, false),
                    b.to_lowercase()
                ));
            }
            head.push(match l.size {
                Some(s) => format!("{s} bytes"),
                None => "size unknown".into(),
            });
            if let Some(t) = &l.to_string {
                head.push(format!("fields listed by {}", code(t, false)));
            }
            let _ = writeln!(o, "{}. {}", head.join(", "), para(&l.doc));
            let _ = writeln!(
                o,
                "Confidence {}. Evidence: {}. Spec: `spec/{}:{}`.\n",
                cx.confidence_inline(&l.confidence),
                cx.evidence_cell(&l.evidence),
                l.file,
                l.line
            );
            if l.fields.is_empty() {
                o.push_str("No fields of its own are known.\n\n");
                continue;
            }
            o.push_str(
                "| offset | size | field | type | input | doc | confidence | evidence |\n\
                 |---|---|---|---|---|---|---|---|\n",
            );
            for f in &l.fields {
                let input = match f.input {
                    Some(i) => {
                        let mut s = format!("*{}*", i.name());
                        if f.optional {
                            s.push_str(" (optional)");
                        }
                        if let Some(e) = &f.enum_ {
                            s.push_str(&format!(" {}", code(e, true)));
                        }
                        s
                    }
                    None => match &f.enum_ {
                        Some(e) => code(e, true),
                        None => String::new(),
                    },
                };
                let mut d = text(&f.doc);
                for a in &f.alternatives {
                    d.push_str(&format!(
                        "<br>**Alternative reading** {}: {} · {} · {}",
                        code(&a.name, true),
                        text(&a.doc),
                        cx.confidence_inline(&a.confidence),
                        cx.evidence_cell(&a.evidence)
                    ));
                }
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} | {} | {} | {} |",
                    f.offset
                        .map_or("not given".into(), |x| format!("`{x:#x}` ({x})")),
                    f.size.map_or(String::new(), |s| s.to_string()),
                    code(&f.name, true),
                    text(&f.ty),
                    input,
                    d,
                    cx.confidence_cell(&f.confidence),
                    cx.evidence_cell(&f.evidence)
                );
            }
            o.push('\n');
        }
    }
    o
}

fn leaf_page(cx: &Pages<'_>, m: &KlrModel, l: &KlrLeaf) -> String {
    let mut o = String::from(BANNER);
    let _ = writeln!(o, "# {}\n", l.name);
    let op = m.layout(&l.op);
    let _ = writeln!(
        o,
        "{} @{} (seed 003 {}) takes a {} and builds {}.\n",
        code(&l.function, false),
        code(&format!("{:#x}", l.va), false),
        text(&l.section),
        op.map_or(code(&l.op, false), |x| format!(
            "[{}](../layouts.md#{})",
            code(&x.qualified, false),
            x.name.to_lowercase()
        )),
        leaf_nodes(m, l).join(" or ")
    );
    let _ = writeln!(o, "{}\n", para(&l.doc));
    let _ = writeln!(
        o,
        "Confidence {}. Evidence: {}. Spec: `spec/{}:{}`. Back to the [roster](../README.md).\n",
        cx.confidence_inline(&l.confidence),
        cx.evidence_cell(&l.evidence),
        l.file,
        l.line
    );

    o.push_str("## Inputs\n\n");
    let inputs = m.inputs(&l.op);
    if inputs.is_empty() {
        o.push_str("None.\n\n");
    } else {
        o.push_str("| field | input | klr offset | doc |\n|---|---|---|---|\n");
        for f in inputs {
            let mut i = f.input.map_or(String::new(), |i| i.name().to_string());
            if f.optional {
                i.push_str(" (optional)");
            }
            if let Some(e) = &f.enum_ {
                i.push_str(&format!(" {}", code(e, true)));
            }
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} |",
                code(&f.name, true),
                i,
                f.offset.map_or("not given".into(), hex),
                text(&f.doc)
            );
        }
        o.push('\n');
    }

    o.push_str("## Paths\n\n");
    o.push_str(
        "| path | taken when | BIR node (IT) | name prefix | construction | operands |\n\
         |---|---|---|---|---|---|\n",
    );
    for p in l.paths() {
        let binds: Vec<String> = p
            .bind
            .iter()
            .map(|b| {
                let what = match (&b.operand, &b.what) {
                    (Some(op), _) => code(op, true),
                    (None, Some(w)) => text(w),
                    _ => String::new(),
                };
                let mut s = format!("{}: {what}", text(&b.role));
                if let Some(w) = &b.when {
                    s.push_str(&format!(" when {}", code(&w.text, true)));
                }
                if let Some(n) = &b.note {
                    s.push_str(&format!(" — {}", text(n)));
                }
                s
            })
            .collect();
        let mut when = p
            .when
            .as_ref()
            .map_or("otherwise".into(), |w| code(&w.text, true));
        if let Some(d) = &p.doc {
            when.push_str(&format!("<br>{}", text(d)));
        }
        let mut node = node_name(m, p);
        if !p.words.is_empty() {
            // The instruction words the node is encoded as, linked to their pages.
            let words: Vec<String> = p
                .words
                .iter()
                .map(|w| format!("[{}](../../words/{w}.md)", text(w)))
                .collect();
            node.push_str(&format!("<br>encoded as {}", words.join(" then ")));
        }
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} |",
            text(&p.name),
            when,
            node,
            p.prefix
                .as_deref()
                .map_or("not given".into(), |x| code(x, true)),
            code(&p.build, true),
            binds.join("<br>")
        );
    }
    o.push('\n');

    o.push_str("## Rules\n\nIn the order the leaf runs them; the first failing check is the op's error.\n\n");
    let paths = l.paths();
    let path_names = |ix: &[usize]| -> String {
        let names: Vec<String> = ix
            .iter()
            .filter_map(|i| paths.get(*i))
            .map(|p| text(&p.name))
            .collect();
        names.join(", ")
    };
    for (i, s) in l.steps.iter().enumerate() {
        let mut line = String::new();
        if !s.paths.is_empty() {
            line.push_str(&format!("*(path {})* ", path_names(&s.paths)));
        }
        match &s.kind {
            StepKind::Check(c) => {
                let msg = if c.message.is_empty() {
                    "*(no message)*".to_string()
                } else {
                    code(&c.message, false)
                };
                let msg = match &c.append {
                    Some(a) => format!("{msg} + `to_string({})`", a.text),
                    None => msg,
                };
                line.push_str(&format!("**{}** {msg}", c.kind.name()));
                match (&c.when, &c.opaque) {
                    (Some(w), _) => line.push_str(&format!(" when {}", code(&w.text, false))),
                    (None, Some(op)) => line.push_str(&format!(
                        " when {} — *not evaluated by the model*",
                        text(op)
                    )),
                    _ => {}
                }
                if let Some(e) = &c.each {
                    line.push_str(&format!(", for each `it` in {}", code(e, false)));
                }
                if let Some(h) = &c.helper {
                    line.push_str(&format!(" (in {})", code(h, false)));
                }
            }
            StepKind::Route { to, when } => {
                line.push_str(&format!(
                    "**route** to [{to}]({to}.md) when {}",
                    code(&when.text, false)
                ));
            }
            StepKind::Let { name, value, show } => {
                line.push_str(&format!(
                    "**let** {} = {}",
                    code(name, false),
                    code(&value.text, false)
                ));
                if let crate::model::klr_expr::KlrExpr::Table {
                    name: t,
                    fatal: true,
                    ..
                } = &value.expr
                {
                    line.push_str(&format!(" (fatal when the index is past the end of `{t}`)"));
                }
                if *show {
                    line.push_str(" (listed in the result)");
                }
            }
            StepKind::Fork { label, paths } => {
                let names: Vec<String> = paths.iter().map(|p| text(&p.name)).collect();
                line.push_str(&format!(
                    "**fork** on {}: {} (see Paths)",
                    text(label),
                    names.join(" / ")
                ));
            }
            StepKind::Stamp {
                field,
                offset,
                value,
                when,
            } => {
                let v = match value {
                    StampValue::Expr { cond } => code(&cond.text, false),
                    StampValue::Opaque { what } => format!("*{}*", text(what)),
                };
                line.push_str(&format!(
                    "**stamp** `+{offset:#x}` {} = {v}",
                    code(field, false)
                ));
                if let Some(w) = when {
                    line.push_str(&format!(" when {}", code(&w.text, false)));
                }
            }
            StepKind::Effect {
                text: t,
                kind,
                when,
                memo,
            } => {
                let body = if *kind == EffectKind::Warning {
                    code(t, false)
                } else {
                    text(t)
                };
                line.push_str(&format!("**{}** {body}", kind.name()));
                if let Some(w) = when {
                    line.push_str(&format!(" when {}", code(&w.text, false)));
                }
                if let Some((mm, k)) = memo {
                    line.push_str(&format!(
                        " (once per function and {} — memo `{mm}`)",
                        code(&k.text, false)
                    ));
                }
            }
        }
        let _ = writeln!(o, "{}. {line}", i + 1);
        if let Some(d) = &s.doc {
            let _ = writeln!(o, "    {}", para(d));
        }
        if let Some(n) = &s.note {
            let _ = writeln!(o, "    Note: {}", text(n));
        }
        let _ = writeln!(
            o,
            "    — {} · {} · `spec/{}:{}`",
            cx.confidence_inline(&s.confidence),
            cx.evidence_cell(&s.evidence),
            l.file,
            s.line
        );
    }
    o
}

/// The family as the source's abstract states it: band, dispatch chain and the count the
/// source gives beside its roster's.
fn family(cx: &Pages<'_>, m: &KlrModel, f: &Family, o: &mut String) {
    o.push_str("## The family (abstract)\n\n");
    let outside = if f.outside.is_empty() {
        "every leaf's body lies inside".to_string()
    } else {
        let names: Vec<String> = f
            .outside
            .iter()
            .filter_map(|n| m.leaf(n))
            .map(|l| format!("{} @{}", l.name, hex(l.va as usize)))
            .collect();
        format!("the roster's {} lie outside it", names.join(", "))
    };
    let _ = writeln!(
        o,
        "- **Band:** `{:#x}`–`{:#x}` as the source states it; {outside}.",
        f.band.0, f.band.1
    );
    let _ = writeln!(
        o,
        "- **Dispatch:** {}",
        f.dispatch
            .iter()
            .map(|d| format!("`{d}`"))
            .collect::<Vec<_>>()
            .join(" → ")
    );
    let count = if f.stated_leaves == f.roster_leaves {
        format!("{}", f.stated_leaves)
    } else {
        format!(
            "the source says {}, its roster has {} (so does this spec)",
            f.stated_leaves, f.roster_leaves
        )
    };
    let _ = writeln!(o, "- **Leaves:** {count}.");
    let _ = writeln!(
        o,
        "- {} ({})",
        text(&f.doc),
        cx.confidence_inline(&f.confidence)
    );
    o.push_str("\nEvidence:\n\n");
    cx.evidence_list(&f.evidence, o);
    o.push('\n');
}
