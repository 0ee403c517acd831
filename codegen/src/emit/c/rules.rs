//! Validators in the C headers (see [`crate::schema::rules`]).
//!
//! The common header gets the `[[constant]]` macros, one `static inline` function per
//! `[[table]]` and the validators of nested types; each word header gets its word's. Per
//! struct `S` (the C name without `_STRUCT`):
//!
//! - `static inline bool S_<rule id>(const S_STRUCT *i[, unsigned nc])` per rule (`nc`, the
//!   NeuronCore generation, only where the rule depends on the architecture);
//! - `S_rule_truth(i, nc)` (bit `k` set when rule `k` holds), `S_broken(i, nc)` (bit `k` set
//!   when rule `k` does not hold and no composite above it does), `S_violations(i, nc)` (the
//!   broken header rules), `S_compiler_findings(i, nc)` (the broken compiler rules) and
//!   `S_is_valid(i, nc)` (no violation);
//! - `#define S_RULE_<rule id> k`, the bit of each rule.
//!
//! Every value is computed as `int64_t`, as in Rust. Needs C99 `<stdbool.h>` (C) or C++.

use std::fmt::Write as _;

use super::util::{doc, member, stem};
use crate::model::path::{Hop, Step, Unions};
use crate::model::rules::{Authority, Enforcement, Expr, RuleKind, RuleSet, arch_condition, not};
use crate::model::*;

/// `DMASPEC_NC_<ARCH>`: the name of an architecture's `nc`, the NeuronCore generation
/// the validators take.
pub(super) fn nc_macro(arch: &str) -> String {
    let a: String = arch
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("DMASPEC_NC_{a}")
}

/// One `#define DMASPEC_NC_<ARCH> <nc>` per architecture, then the three verdicts, for
/// the common header.
pub(super) fn generations(model: &Model) -> String {
    let mut out = String::new();
    out.push_str(
        "\n/* The verdicts of the `_verdict` validators: every header rule holds, one is \
         broken (the\n * value is invalid), or one holds only through an alternative the \
         sources name without\n * a body (undecided). */\n\
         #define DMASPEC_VERDICT_HOLDS 0\n\
         #define DMASPEC_VERDICT_BROKEN 1\n\
         #define DMASPEC_VERDICT_UNDECIDED 2\n",
    );
    if model.archs.is_empty() {
        return out;
    }
    out.push_str(
        "\n/* NeuronCore generations: the `nc` argument of the validators, one per architecture\n \
         * (spec/arch.toml). */\n",
    );
    let mut seen: Vec<String> = Vec::new();
    for a in &model.archs {
        let m = nc_macro(&a.name);
        if seen.contains(&m) {
            continue;
        }
        doc(
            &mut out,
            "",
            &[format!("{} (nc {}): {}", a.name, a.nc, a.doc)],
        );
        let _ = writeln!(out, "#define {m} {}", a.nc);
        seen.push(m);
    }
    out
}

/// The `nc` values, for a doc comment: `2 (DMASPEC_NC_SUNDA), 3 (…)`.
fn nc_list(model: &Model) -> String {
    if model.archs.is_empty() {
        return "no architecture is named".to_string();
    }
    model
        .archs
        .iter()
        .map(|a| format!("{} {} ({})", a.nc, a.name, nc_macro(&a.name)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Constants, tables and the validators of nested types, for the common header.
pub(super) fn common(model: &Model) -> String {
    let r = &model.rules;
    let mut out = String::new();
    if r.constants.is_empty() && r.tables.is_empty() && r.sets.is_empty() {
        return out;
    }
    out.push_str(
        "\n/* ---- Validity rules ------------------------------------------------------------ */\n\n\
         #ifndef __cplusplus\n#include <stdbool.h>\n#endif\n",
    );
    for c in &r.constants {
        out.push('\n');
        doc(
            &mut out,
            "",
            &[
                c.doc.clone(),
                format!("Confidence: {} ({}).", c.confidence.tag, c.confidence.level),
                format!("Evidence: {}.", cites(&c.evidence)),
            ],
        );
        let _ = writeln!(
            out,
            "#ifndef {n}\n#define {n} {v}\n#endif",
            n = c.name,
            v = c.value
        );
    }
    for t in &r.tables {
        out.push('\n');
        doc(
            &mut out,
            "",
            &[
                format!(
                    "{} (a function of a {} value): {}",
                    t.name, t.over_name, t.doc
                ),
                format!("Confidence: {} ({}).", t.confidence.tag, t.confidence.level),
                format!("Evidence: {}.", cites(&t.evidence)),
            ],
        );
        let _ = writeln!(
            out,
            "static inline int64_t {}(int64_t v) {{\n    switch (v) {{",
            table_fn(&t.name)
        );
        let mut groups: Vec<(i64, Vec<(i64, &str)>)> = Vec::new();
        for (raw, name, v) in &t.entries {
            match groups.iter_mut().find(|g| g.0 == *v) {
                Some(g) => g.1.push((*raw, name)),
                None => groups.push((*v, vec![(*raw, name)])),
            }
        }
        for (v, keys) in groups {
            for (raw, name) in keys {
                let _ = writeln!(out, "    case {raw}: /* {name} */");
            }
            let _ = writeln!(out, "        return {};", int(v));
        }
        let _ = writeln!(
            out,
            "    default:\n        return {};\n    }}\n}}",
            int(t.default)
        );
    }
    for s in &r.sets {
        if !model.ty(s.owner).is_top_level() {
            set(model, s, &mut out);
        }
    }
    out
}

/// The `[[conflict]]` records, as one comment each: the C code follows no reading.
pub(super) fn conflicts(model: &Model) -> String {
    let mut out = String::new();
    if model.conflicts.is_empty() {
        return out;
    }
    out.push_str(
        "\n/* ---- Recorded conflicts ---------------------------------------------------------- */\n",
    );
    for c in &model.conflicts {
        out.push('\n');
        let mut paras = vec![format!(
            "Conflict `{}` (about {}): {}",
            c.name,
            c.about.join(", "),
            c.doc
        )];
        paras.extend(c.readings.iter().map(|r| {
            format!(
                "Reading `{}`: {} [{}] Evidence: {}.",
                r.name,
                r.doc,
                r.confidence.tag,
                cites(&r.evidence)
            )
        }));
        doc(&mut out, "", &paras);
    }
    out
}

/// The validators of one word or record, for its header.
pub(super) fn word(model: &Model, w: &TypeDef) -> String {
    let mut out = String::new();
    if let Some(s) = model
        .rules
        .sets
        .iter()
        .find(|s| std::ptr::eq(model.ty(s.owner), w))
    {
        out.push_str(
            "\n/* ---- Validity rules ------------------------------------------------------------ */\n",
        );
        set(model, s, &mut out);
        shipped_names(model, s, &mut out);
    }
    out
}

/// A set's shipped validators: its top rules named `is_valid_*` that the header states.
fn shipped_roots(s: &RuleSet) -> impl Iterator<Item = usize> + '_ {
    s.rules.iter().enumerate().filter_map(|(k, r)| {
        (r.parent.is_none() && r.id.starts_with("is_valid_") && r.authority == Authority::Header)
            .then_some(k)
    })
}

/// The shipped names (`is_valid_dma_direct2d(i, nc)`) of a word's validators, each a
/// `static inline` function guarded by `DMASPEC_SHIPPED_<name>`, so that no two headers
/// define it (and `DMASPEC_NO_SHIPPED_NAMES` leaves them all out). A name two words'
/// validators share is given to neither.
fn shipped_names(model: &Model, s: &RuleSet, out: &mut String) {
    let taken = |id: &str| {
        model
            .rules
            .sets
            .iter()
            .filter(|o| model.ty(o.owner).is_top_level())
            .flat_map(|o| shipped_roots(o).map(move |k| &o.rules[k].id))
            .filter(|other| other.as_str() == id)
            .count()
    };
    let owner = model.ty(s.owner);
    let (st, c) = (stem(owner), &owner.c_name);
    let roots: Vec<usize> = shipped_roots(s)
        .filter(|&k| taken(&s.rules[k].id) == 1)
        .collect();
    if roots.is_empty() {
        return;
    }
    out.push_str(
        "\n/* ---- Shipped names ------------------------------------------------------------- */\n",
    );
    for k in roots {
        let r = &s.rules[k];
        let id = &r.id;
        let call = if s.uses_arch(k) { "i, nc" } else { "i" };
        out.push('\n');
        let _ = writeln!(
            out,
            "#if !defined(DMASPEC_NO_SHIPPED_NAMES) && !defined(DMASPEC_SHIPPED_{id})\n\
             #define DMASPEC_SHIPPED_{id}"
        );
        doc(
            out,
            "",
            &[
                format!(
                    "{id}(i, nc): the shipped validator's name ({}) for {st}_{id}(): whether \
                     `i` passes it on NeuronCore generation `nc` (a DMASPEC_NC_* constant). \
                     `i` is a pointer.",
                    cites(&r.evidence)
                ),
                "Guarded: defined once however many headers are included; define \
                 DMASPEC_NO_SHIPPED_NAMES to leave the shipped names out."
                    .to_string(),
            ],
        );
        let _ = writeln!(
            out,
            "static inline bool {id}(const {c} *i, unsigned nc) {{\n    (void)nc;\n    \
             return {st}_{id}({call});\n}}\n#endif"
        );
    }
}

fn table_fn(name: &str) -> String {
    format!("dmaspec_{name}")
}

fn cites(ev: &[Evidence]) -> String {
    let mut v: Vec<&str> = Vec::new();
    for e in ev {
        if !v.contains(&e.cite.as_str()) {
            v.push(&e.cite);
        }
    }
    v.join("; ")
}

fn int(v: i64) -> String {
    if v < 0 {
        format!("(-INT64_C({}))", v.unsigned_abs())
    } else {
        format!("INT64_C({v})")
    }
}

/// The C member path of a field a rule of `owner` reads: keyword-safe names, union arm
/// included (`src_start_addr.marker` is `src_start_addr.addr_reg.marker`).
pub(crate) fn c_path(model: &Model, owner: usize, path: &str) -> String {
    let steps = Step::parse(path).unwrap_or_default();
    let locate = |steps: &[Step]| model.locate(owner, steps, Unions::Guarded).ok();
    // `text_len` reads an ascii field byte by byte (`name[k]`), which no path names.
    let (at, byte) = match (locate(&steps), steps.split_last()) {
        (Some(at), _) => (at, None),
        (None, Some((Step::Index(k), text))) => match locate(text) {
            Some(at) => (at, Some(*k)),
            None => return path.to_string(),
        },
        (None, _) => return path.to_string(),
    };
    let mut out = String::new();
    for hop in at.hops.iter().copied().chain(byte.map(Hop::Index)) {
        match hop {
            Hop::Index(k) => {
                let _ = write!(out, "[{k}]");
            }
            Hop::Member(name) | Hop::Arm { name, .. } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&member(name));
            }
        }
    }
    out
}

fn expr(model: &Model, owner: usize, e: &Expr) -> String {
    let r = |x: &Expr| expr(model, owner, x);
    match e {
        Expr::Int { value } => int(*value),
        Expr::Bool { value } => value.to_string(),
        Expr::Const { index } => format!("((int64_t){})", model.rules.constants[*index].name),
        Expr::Nc => "((int64_t)nc)".to_string(),
        Expr::Read { access } => format!("((int64_t)i->{})", c_path(model, owner, &access.path)),
        Expr::Not { arg } => format!("(!{})", r(arg)),
        Expr::Neg { arg } => format!("(-{})", r(arg)),
        Expr::Table { index, arg } => {
            format!("{}({})", table_fn(&model.rules.tables[*index].name), r(arg))
        }
        Expr::If { cond, then, other } => {
            format!("({} ? {} : {})", r(cond), r(then), r(other))
        }
        Expr::Bin { bin, lhs, rhs } => format!("({} {} {})", r(lhs), bin.symbol(), r(rhs)),
        // One pair of parentheses around the whole chain: C compilers limit how deeply
        // brackets nest (256 in clang), not how long a chain of `||` is.
        Expr::Chain { bin, parts } => {
            let sep = format!(" {} ", bin.symbol());
            format!("({})", parts.iter().map(r).collect::<Vec<_>>().join(&sep))
        }
    }
}

/// A rule as the sources state it may hold for every value of a narrow field
/// (`x <= 7` on a 3-bit one); GCC's `-Wtype-limits` would reject the header for it.
const TYPE_LIMITS_OFF: &str = "#if defined(__GNUC__)\n#pragma GCC diagnostic push\n\
                               #pragma GCC diagnostic ignored \"-Wtype-limits\"\n#endif\n";
const TYPE_LIMITS_ON: &str = "#if defined(__GNUC__)\n#pragma GCC diagnostic pop\n#endif\n";

fn set(model: &Model, s: &RuleSet, out: &mut String) {
    out.push_str(TYPE_LIMITS_OFF);
    rule_fns(model, s, out);
    out.push_str(TYPE_LIMITS_ON);
}

fn rule_fns(model: &Model, s: &RuleSet, out: &mut String) {
    let owner = model.ty(s.owner);
    let st = stem(owner);
    let c = &owner.c_name;
    let params = |i: usize| {
        if s.uses_arch(i) {
            format!("const {c} *i, unsigned nc")
        } else {
            format!("const {c} *i")
        }
    };
    let args = |i: usize| {
        if s.uses_arch(i) { "i, nc" } else { "i" }
    };
    out.push('\n');
    doc(
        out,
        "",
        &[format!(
            "Bit of each rule of {c} in {st}_rule_truth() and {st}_violations() (spec order)."
        )],
    );
    for (k, r) in s.rules.iter().enumerate() {
        let _ = writeln!(out, "#define {st}_RULE_{} {k}", r.id);
    }
    for i in s.post_order() {
        let r = &s.rules[i];
        out.push('\n');
        let mut paras = vec![format!(
            "{}: {}.",
            r.call(),
            r.message.trim_end_matches('.')
        )];
        if !r.doc.is_empty() {
            paras.push(r.doc.clone());
        }
        let state = s.enforcement(i);
        let what = match &r.kind {
            RuleKind::Expr { source, .. } => format!("Checks: {}", one_line(source)),
            RuleKind::All { parts } => format!("Holds when all of {} hold.", names(s, parts)),
            RuleKind::Any { parts } => format!("Holds when any of {} holds.", names(s, parts)),
            RuleKind::NotEnforced => {
                "Not enforced: the sources name this predicate without its body, so it holds."
                    .to_string()
            }
        };
        paras.push(what);
        if state == Enforcement::Partial {
            paras.push("Partly enforced: some parts are not enforced and hold.".to_string());
        }
        if !r.arch.is_empty() {
            paras.push(format!(
                "Applies on {} only; holds elsewhere.",
                r.arch.join(", ")
            ));
        }
        paras.push(format!(
            "Source: {}. Confidence: {} ({}). Authority: {}.",
            cites(&r.evidence),
            r.confidence.tag,
            r.confidence.level,
            r.authority.name()
        ));
        doc(out, "", &paras);
        let body = match &r.kind {
            RuleKind::Expr { expr: e, .. } => expr(model, s.owner, e),
            RuleKind::NotEnforced => "true".to_string(),
            RuleKind::All { parts } | RuleKind::Any { parts } => {
                let op = if matches!(r.kind, RuleKind::All { .. }) {
                    " && "
                } else {
                    " || "
                };
                let calls: Vec<String> = parts
                    .iter()
                    .map(|&p| format!("{st}_{}({})", s.rules[p].id, args(p)))
                    .collect();
                format!("({})", calls.join(op))
            }
        };
        let body = match arch_condition(&model.archs, &r.arch) {
            None => body,
            Some(cond) => format!("({} || {body})", expr(model, s.owner, &not(cond))),
        };
        let unused = if s.uses_arch(i) {
            "    (void)i;\n    (void)nc;\n"
        } else {
            "    (void)i;\n"
        };
        let _ = write!(
            out,
            "static inline bool {st}_{}({}) {{\n{unused}    return {body};\n}}\n",
            r.id,
            params(i)
        );
    }
    let all_args = |i: usize| args(i);
    out.push('\n');
    doc(
        out,
        "",
        &[format!(
            "Bit k set when rule k of {c} holds ({st}_RULE_*); rules limited to other \
             architectures hold. `nc` is the NeuronCore generation: {}.",
            nc_list(model)
        )],
    );
    let _ = writeln!(
        out,
        "static inline uint64_t {st}_rule_truth(const {c} *i, unsigned nc) {{\n    uint64_t t = 0;\n    (void)nc;"
    );
    for (k, r) in s.rules.iter().enumerate() {
        let _ = writeln!(
            out,
            "    if ({st}_{}({})) t |= UINT64_C(1) << {k};",
            r.id,
            all_args(k)
        );
    }
    let _ = writeln!(out, "    return t;\n}}\n");
    doc(
        out,
        "",
        &[format!(
            "Bit k set when rule k of {c} is broken: it does not hold, and neither does any \
             composite rule above it."
        )],
    );
    let _ = writeln!(
        out,
        "static inline uint64_t {st}_broken(const {c} *i, unsigned nc) {{\n    uint64_t t = {st}_rule_truth(i, nc);\n    uint64_t v = 0;"
    );
    for k in s.pre_order() {
        let cond = match s.rules[k].parent {
            Some(p) => format!("!((t >> {k}) & 1u) && ((v >> {p}) & 1u)"),
            None => format!("!((t >> {k}) & 1u)"),
        };
        let _ = writeln!(out, "    if ({cond}) v |= UINT64_C(1) << {k};");
    }
    let _ = writeln!(out, "    return v;\n}}\n");
    for (name, authority, what) in [
        (
            "violations",
            Authority::Header,
            "violated: a broken header rule, which makes the value invalid",
        ),
        (
            "compiler_findings",
            Authority::Compiler,
            "a compiler finding: a broken compiler rule, a value neuronx-cc would not write \
             that the ISA sources do not forbid",
        ),
    ] {
        doc(
            out,
            "",
            &[format!("Bit k set when rule k of {c} is {what}.")],
        );
        let _ = writeln!(
            out,
            "static inline uint64_t {st}_{name}(const {c} *i, unsigned nc) {{\n    return {st}_broken(i, nc) & UINT64_C({:#x});\n}}\n",
            s.of_authority(authority)
        );
    }
    doc(
        out,
        "",
        &[format!(
            "Whether {c} breaks none of its header rules (an undecided value is valid: \
             {st}_verdict() tells it apart)."
        )],
    );
    let _ = writeln!(
        out,
        "static inline bool {st}_is_valid(const {c} *i, unsigned nc) {{\n    return {st}_violations(i, nc) == 0;\n}}\n"
    );
    undecided_fns(model, s, out);
}

/// `_rule_truth_known` (where an alternative of an `any` has no body), `_undecided` and
/// `_verdict`: a rule that holds only when its bodiless alternatives are taken to hold is
/// undecided.
fn undecided_fns(model: &Model, s: &RuleSet, out: &mut String) {
    let owner = model.ty(s.owner);
    let st = stem(owner);
    let c = &owner.c_name;
    let has = s.has_bodiless_alternative();
    if has {
        doc(
            out,
            "",
            &[format!(
                "{st}_rule_truth() with the alternatives the sources name without a body \
                 taken not to hold."
            )],
        );
        let _ = writeln!(
            out,
            "static inline uint64_t {st}_rule_truth_known(const {c} *i, unsigned nc) {{\n    uint64_t t = 0;\n    (void)i;\n    (void)nc;"
        );
        for k in s.post_order() {
            let r = &s.rules[k];
            let value = match &r.kind {
                RuleKind::All { parts } | RuleKind::Any { parts } => {
                    let op = if matches!(r.kind, RuleKind::All { .. }) {
                        " && "
                    } else {
                        " || "
                    };
                    let locals: Vec<String> = parts.iter().map(|p| format!("r{p}")).collect();
                    let body = match locals.is_empty() {
                        true => (if op == " && " { "true" } else { "false" }).to_string(),
                        false => format!("({})", locals.join(op)),
                    };
                    match arch_condition(&model.archs, &r.arch) {
                        None => body,
                        Some(cond) => format!("({} || {body})", expr(model, s.owner, &not(cond))),
                    }
                }
                _ if s.is_bodiless_alternative(k) => match arch_condition(&model.archs, &r.arch) {
                    None => "false".to_string(),
                    Some(cond) => expr(model, s.owner, &not(cond)),
                },
                _ => {
                    let args = if s.uses_arch(k) { "i, nc" } else { "i" };
                    format!("{st}_{}({args})", r.id)
                }
            };
            let _ = writeln!(
                out,
                "    bool r{k} = {value};\n    if (r{k}) t |= UINT64_C(1) << {k};"
            );
        }
        let _ = writeln!(out, "    return t;\n}}\n");
    }
    doc(
        out,
        "",
        &[format!(
            "Bit k set when rule k of {c}, a header rule, is undecided: it holds only through \
             an alternative the sources name without a body, and so does every composite \
             rule above it."
        )],
    );
    let _ = writeln!(
        out,
        "static inline uint64_t {st}_undecided(const {c} *i, unsigned nc) {{"
    );
    if has {
        let _ = writeln!(
            out,
            "    uint64_t open = {st}_rule_truth(i, nc) & ~{st}_rule_truth_known(i, nc);\n    uint64_t v = 0;"
        );
        for k in s.pre_order() {
            let cond = match s.rules[k].parent {
                Some(p) => format!("((open >> {k}) & 1u) && ((v >> {p}) & 1u)"),
                None => format!("(open >> {k}) & 1u"),
            };
            let _ = writeln!(out, "    if ({cond}) v |= UINT64_C(1) << {k};");
        }
        let _ = writeln!(
            out,
            "    return v & UINT64_C({:#x});\n}}\n",
            s.of_authority(Authority::Header)
        );
    } else {
        let _ = writeln!(out, "    (void)i;\n    (void)nc;\n    return 0;\n}}\n");
    }
    doc(
        out,
        "",
        &[format!(
            "DMASPEC_VERDICT_BROKEN when {c} breaks a header rule, else \
             DMASPEC_VERDICT_UNDECIDED when one is undecided, else DMASPEC_VERDICT_HOLDS."
        )],
    );
    let _ = writeln!(
        out,
        "static inline int {st}_verdict(const {c} *i, unsigned nc) {{\n    if ({st}_violations(i, nc) != 0) return DMASPEC_VERDICT_BROKEN;\n    return {st}_undecided(i, nc) != 0 ? DMASPEC_VERDICT_UNDECIDED : DMASPEC_VERDICT_HOLDS;\n}}"
    );
}

fn names(s: &RuleSet, parts: &[usize]) -> String {
    parts
        .iter()
        .map(|&p| s.rules[p].id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
