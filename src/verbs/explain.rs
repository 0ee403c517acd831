//! `explain OPCODE|STRUCT|STRUCT.FIELD`: what the spec knows about a word or a
//! field — offsets, bits, types, enumerators, confidence, every evidence record and every
//! conflicting reading. What a reverse engineer keeps open next to a hex dump.

use std::fmt::Write as _;

use crate::WordMeta;
use crate::json::PathStack;
use crate::names::{echo, listing};
use crate::runtime::meta::{
    Codec, EnumeratorMeta, Evidence, FieldMeta, FlagMeta, Gap, LeafMeta, Role,
};
use crate::runtime::record::RecordMeta;
use crate::runtime::rules::{RuleAuthority, RuleKind, RuleMeta};
use crate::runtime::visit::{Group, Value, Visitor};
use crate::stream::Leads;
use crate::words::regs::REGFILES;
use crate::words::{GAPS, RECORDS, WORDS, enumerators, flag_bits};

use super::Error;
use super::describe::{alternative_lines, evidence_lines};
use super::opcode::opcode_enumerator;

/// Resolves the query and renders the explanation. A query is an opcode (`0xd4`, `212`),
/// a word (`DMA_INDIRECT1D`) or its opcode enumerator (`DMAMEMCPY`, or another spelling of
/// it), a type (`DTYPE`), or a word followed by a field path as rules and decode's JSON
/// write it (`DMA_INDIRECT1D.flags.gather_dim`, `DMA_INDIRECT1D.src_num_elem[0]`).
/// Lines fit [`super::table::width`] (`--wide`: none is wrapped).
pub fn explain(query: &str) -> Result<String, Error> {
    explain_text(query).map(|text| super::table::fit_text(&text))
}

/// [`explain`], each line as long as it is.
fn explain_text(query: &str) -> Result<String, Error> {
    let (word_part, field_part) = match query.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (query, None),
    };
    if let Ok(file) = super::registers::find(word_part) {
        return super::registers::explain(file, field_part);
    }
    if field_part.is_none()
        && let Some(text) = gaps_text(word_part)
    {
        return Ok(text);
    }
    if let Some(op) = opcode(word_part)
        && !WORDS.iter().any(|w| w.opcode == op)
    {
        let named = opcode_enumerator(op).map_or(String::new(), |e| {
            let engine = e.engine.map_or(String::new(), |g| format!(", engine {g}"));
            format!(" (the OPCODE enumerator {} has this value{engine})", e.name)
        });
        return Err(Error::Usage(format!(
            "no word has opcode {op:#04x}{named}; the words' opcodes: {}",
            all_opcodes()
        )));
    }
    let words = find_words(word_part);
    let record = find_record(word_part);
    let first = match (words.first(), record) {
        (Some(w), _) => Item::word(w),
        (None, Some(r)) => Item::record(r),
        (None, None) => {
            if field_part.is_none()
                && let Some(text) = type_text(word_part)
            {
                return Ok(text);
            }
            if let Some(member) = field_part.and_then(|m| member_text(word_part, m)) {
                return member;
            }
            let names: Vec<&str> = WORDS.iter().map(|w| w.name).collect();
            let records: Vec<&str> = RECORDS.iter().map(|r| r.name).collect();
            // `DMA.x` names the part that is wrong; `.....` shows what was typed.
            let what = match field_part {
                Some(_) => format!("`{}`: `{}`", echo(query), echo(word_part)),
                None => format!("`{}`", echo(word_part)),
            };
            let files: Vec<&str> = REGFILES.iter().map(|f| f.name).collect();
            // A register or field by its bare name: every place it stands.
            let places = register_places(word_part);
            if field_part.is_none() && !places.is_empty() {
                return Err(Error::Usage(format!(
                    "{what} is a register or field name, not a path; explain one of: {}",
                    places.join(", ")
                )));
            }
            let hint = super::lookup::did_you_mean(
                word_part,
                names.iter().chain(&records).chain(&files).copied(),
            );
            return Err(Error::Usage(format!(
                "{what} is not an opcode, a word, an opcode enumerator, a record, a type or a \
                 register{hint} (the spec has {} words, {} records and {} register files; \
                 generated/docs/README.md lists them)",
                names.len(),
                records.len(),
                files.len()
            )));
        }
    };
    let Some(field) = field_part else {
        if words.is_empty() {
            return Ok(record.map_or_else(String::new, record_text));
        }
        return Ok(words
            .iter()
            .map(|w| word_text(w))
            .collect::<Vec<_>>()
            .join("\n"));
    };
    let first = &first;
    let field = &field_path(first, field);
    // One element of an array leaf: `src_num_elem[0]`.
    if let Some((leaf, index)) = element(first, field) {
        return match array_len(leaf.type_name) {
            Some(n) if index < n => Ok(format!("{}\n", leaf_text(first, leaf, Some(index)))),
            Some(n) => Err(Error::Usage(format!(
                "{}.{} has {n} elements, [0] to [{}]",
                first.name,
                leaf.path,
                n - 1
            ))),
            None => Err(Error::Usage(format!(
                "{}.{} is a {}, not an array: `{0}.{1}` explains it",
                first.name, leaf.path, leaf.type_name
            ))),
        };
    }
    // A path names one leaf, or every leaf below it (`flags` -> `flags.*`).
    let leaves: Vec<&LeafMeta> = first
        .leaves
        .iter()
        .filter(|l| {
            l.path == field
                || l.path.starts_with(&format!("{field}."))
                || l.path.starts_with(&format!("{field}["))
        })
        .collect();
    if leaves.is_empty() {
        let paths: Vec<&str> = first.leaves.iter().map(|l| l.path).collect();
        let hint = super::lookup::did_you_mean(field, paths.iter().copied());
        let lists = format!("`dmaspec explain {}`", first.name);
        return Err(Error::Usage(format!(
            "{} has no field `{}`{hint} ({})",
            first.name,
            echo(field),
            listing(&paths, "fields", &lists)
        )));
    }
    let mut out = String::new();
    for l in leaves {
        out.push_str(&leaf_text(first, l, None));
        out.push('\n');
    }
    Ok(out)
}

/// `field` spelled as `w` spells it (`SEMAPHORE` for `semaphore`, by the rule every name a
/// user types follows, `crate::names::lookup`), an element index kept: a leaf's path or a
/// path above leaves (`flags`). As typed when it names none.
fn field_path(w: &Item, field: &str) -> String {
    let (path, index) = match field.rsplit_once('[') {
        Some((p, i)) if i.ends_with(']') => (p, &field[p.len()..]),
        _ => (field, ""),
    };
    // Every leaf path and every path above one.
    let mut paths: Vec<&str> = Vec::new();
    for l in w.leaves {
        let ends = l.path.match_indices(['.', '[']).map(|(i, _)| i);
        paths.extend(ends.map(|i| &l.path[..i]).chain([l.path]));
    }
    match crate::names::lookup(path, paths.into_iter()) {
        Ok(p) => format!("{p}{index}"),
        Err(_) => field.to_string(),
    }
}

/// What a field path is explained against: a word or a record.
struct Item {
    name: &'static str,
    leaves: &'static [LeafMeta],
    rules: &'static [RuleMeta],
}

impl Item {
    fn word(w: &WordMeta) -> Item {
        Item {
            name: w.name,
            leaves: w.leaves,
            rules: rules_of(w),
        }
    }
    fn record(r: &RecordMeta) -> Item {
        Item {
            name: r.name,
            leaves: r.leaves,
            rules: r.rules,
        }
    }
}

/// The record named `q` (records have no opcode or aliases).
fn find_record(q: &str) -> Option<&'static RecordMeta> {
    RECORDS.iter().find(|r| r.name.eq_ignore_ascii_case(q))
}

/// `0xd4`, `0XD4` or `212`.
fn opcode(q: &str) -> Option<u8> {
    q.strip_prefix("0x")
        .or_else(|| q.strip_prefix("0X"))
        .map_or_else(|| q.parse::<u8>().ok(), |h| u8::from_str_radix(h, 16).ok())
}

/// `0xb8 DMA_DIRECT2D, …`
fn all_opcodes() -> String {
    let list: Vec<String> = WORDS
        .iter()
        .map(|w| format!("{:#04x} {}", w.opcode, w.name))
        .collect();
    list.join(", ")
}

/// Words named `q`, bound to opcode `q`, or whose opcode enumerator is spelled `q`.
fn find_words(q: &str) -> Vec<&'static WordMeta> {
    let op = opcode(q);
    let spelled = |w: &WordMeta| {
        w.opcode_enumerator == q
            || enumerators("OPCODE").is_some_and(|all| {
                all.iter()
                    .any(|e| e.name == w.opcode_enumerator && e.aliases.contains(&q))
            })
    };
    WORDS
        .iter()
        .filter(|w| {
            w.name.eq_ignore_ascii_case(q)
                || w.aliases.iter().any(|a| a.eq_ignore_ascii_case(q))
                || Some(w.opcode) == op
                || spelled(w)
        })
        .collect()
}

/// `path[i]` where `path` is a leaf of `w`.
fn element(w: &Item, field: &str) -> Option<(&'static LeafMeta, usize)> {
    let (path, rest) = field.rsplit_once('[')?;
    let index: usize = rest.strip_suffix(']')?.parse().ok()?;
    Some((w.leaves.iter().find(|l| l.path == path)?, index))
}

/// `N` of a `T[N]` type.
fn array_len(ty: &str) -> Option<usize> {
    ty.split_once('[')?.1.strip_suffix(']')?.parse().ok()
}

/// Where a type is used: every field of that type in a word, by path.
struct Uses<'a> {
    path: PathStack,
    ty: &'a str,
    found: Vec<(String, usize)>,
}

impl Visitor for Uses<'_> {
    fn enter(&mut self, field: &'static FieldMeta, offset: usize, group: Group) {
        if field.type_name == self.ty {
            self.found.push((self.path.leaf(field.name), offset));
        }
        self.path.enter(field.name, group);
    }
    fn leave(&mut self, _group: Group) {
        self.path.leave();
    }
    fn value(&mut self, _field: &'static FieldMeta, _offset: usize, _value: Value<'_>) {}
}

/// A type by its spec name: its enumerators or flags, and every field that has it.
fn type_text(name: &str) -> Option<String> {
    let mut uses = Vec::new();
    for w in WORDS {
        let mut v = Uses {
            path: PathStack::default(),
            ty: name,
            found: w
                .leaves
                .iter()
                .filter(|l| l.field.type_name == name)
                .map(|l| (l.path.to_string(), l.offset))
                .collect(),
        };
        // Nested structs, bitfields and unions are not leaves: walk the word for them.
        if let Some(&arch) = w.arch.first()
            && let Some(word) = crate::Word::decode(w.template, arch)
        {
            word.visit(&mut v, arch);
        }
        v.found.sort();
        v.found.dedup();
        uses.extend(
            v.found
                .into_iter()
                .map(|(p, off)| format!("    {}.{p}  +{off:#04x}", w.name)),
        );
    }
    let mut out = String::new();
    let kind = if enumerators(name).is_some() {
        "enum"
    } else if flag_bits(name).is_some() {
        "flag set"
    } else if uses.is_empty() {
        return None;
    } else {
        "type"
    };
    let _ = writeln!(out, "{name} — {kind}");
    value_names(name, &mut out);
    if uses.is_empty() {
        let _ = writeln!(out, "  used by no word field");
    } else {
        let _ = writeln!(out, "  used by");
        out.push_str(&uses.join("\n"));
        out.push('\n');
    }
    Some(out)
}

fn word_text(w: &WordMeta) -> String {
    let mut out = String::new();
    let archs: Vec<&str> = w.arch.iter().map(|a| a.name()).collect();
    let _ = writeln!(out, "{} — {}", w.name, w.c_name);
    let _ = writeln!(
        out,
        "opcode {:#04x} ({}{}), on {}{}",
        w.opcode,
        w.opcode_enumerator,
        opcode_aliases(w.opcode_enumerator),
        archs.join(", "),
        if w.arch_inferred {
            " (all by the spec's inference: no source lists this word per architecture)"
        } else {
            ""
        }
    );
    if !w.aliases.is_empty() {
        let _ = writeln!(out, "also named {}", w.aliases.join(", "));
    }
    if !w.follows.is_empty() {
        let _ = writeln!(
            out,
            "must immediately follow {} (positional extension)",
            Leads(w.follows)
        );
    }
    if let Some(s) = &w.sub_opcode {
        let _ = writeln!(
            out,
            "chosen within {} by {} (byte {}) == {} ({}); other values decode as {0}",
            s.envelope, s.field, s.offset, s.value, s.enumerator
        );
    }
    let subs: Vec<String> = WORDS
        .iter()
        .filter_map(|x| Some((x.name, x.sub_opcode.filter(|s| s.envelope == w.name)?)))
        .map(|(name, s)| format!("{name} ({} == {})", s.field, s.value))
        .collect();
    if !subs.is_empty() {
        let _ = writeln!(
            out,
            "sub-words: {}; other values decode as {}",
            subs.join(", "),
            w.name
        );
    }
    let _ = writeln!(out, "{}\n", w.doc);
    layout_lines(&Item::word(w), &mut out);
    out
}

/// `explain` of a record: its size and doc, then its leaf table.
fn record_text(r: &RecordMeta) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", r.name, r.c_name);
    let _ = writeln!(
        out,
        "record of {} bytes, decoded on its own (`dmaspec decode --struct {}`)",
        r.size, r.name
    );
    let _ = writeln!(out, "{}\n", r.doc);
    layout_lines(&Item::record(r), &mut out);
    out
}

/// The part of `explain` a word and a record share: the leaf table, the asserts and the
/// gaps that are part of it.
fn layout_lines(item: &Item, out: &mut String) {
    out.push_str(&leaf_table(item.leaves));
    asserts_lines(item.rules, out);
    parts_not_specified(item.name, out);
}

/// The gaps a query names when nothing the spec lays out does: an opcode no word has, or
/// a gap's own name (`GENERATE`). `None` when the query is a word, a record or neither.
fn gaps_text(q: &str) -> Option<String> {
    let op = opcode(q);
    let found: Vec<&Gap> = match op {
        Some(op) if !WORDS.iter().any(|w| w.opcode == op) => GAPS
            .iter()
            .filter(|g| g.opcode.is_some_and(|(v, _)| v == op))
            .collect(),
        Some(_) => Vec::new(),
        None if find_words(q).is_empty() && find_record(q).is_none() => GAPS
            .iter()
            .filter(|g| g.name.eq_ignore_ascii_case(q))
            .collect(),
        None => Vec::new(),
    };
    if found.is_empty() {
        return None;
    }
    Some(
        found
            .iter()
            .map(|g| gap_text(g))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A gap: what it is, why the spec does not lay it out, and who says so.
fn gap_text(g: &Gap) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} — known but not specified", g.name);
    if let Some((value, enumerator)) = g.opcode {
        let _ = writeln!(
            out,
            "opcode {value:#04x} ({enumerator}{})",
            opcode_aliases(enumerator)
        );
    }
    if let Some(w) = g.word {
        let _ = writeln!(out, "part of {w}");
    }
    let _ = writeln!(
        out,
        "confidence {} ({}, scale {})",
        g.confidence.tag, g.confidence.level, g.confidence.scale
    );
    let _ = writeln!(out, "why: {}", g.reason);
    let _ = writeln!(out, "evidence");
    evidence_lines(g.evidence, &mut out);
    out
}

/// The gaps that are part of the word or record `name`, one line each.
fn parts_not_specified(name: &str, out: &mut String) {
    let parts: Vec<&Gap> = GAPS.iter().filter(|g| g.word == Some(name)).collect();
    if parts.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nknown but not specified (`dmaspec explain NAME` says why)"
    );
    for g in parts {
        let _ = writeln!(out, "  {}", g.name);
    }
}

/// One row per leaf: offset, path, type, confidence, notes.
fn leaf_table(leaves: &[LeafMeta]) -> String {
    let rows: Vec<[String; 5]> = leaves
        .iter()
        .map(|l| {
            [
                at(l),
                l.path.to_string(),
                l.type_name.to_string(),
                l.confidence.map_or("-", |c| c.tag).to_string(),
                marks(l),
            ]
        })
        .collect();
    let header = ["offset", "field", "type", "confidence", "notes"].map(String::from);
    super::table::render_columns(&header, &rows)
}

/// The compiler's assert and error strings the spec attaches to the word: its unenforced
/// rules whose message a source gives (the word does not show whether they held).
fn asserts_lines(rules: &[RuleMeta], out: &mut String) {
    let asserts: Vec<&RuleMeta> = rules
        .iter()
        .filter(|r| r.kind == RuleKind::NotEnforced && !r.message.is_empty())
        .collect();
    if asserts.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nnot enforced (compiler asserts and errors, or bodies no source gives)"
    );
    for r in asserts {
        let _ = writeln!(out, "  \"{}\"  ({}; {})", r.message, r.id, r.source);
    }
}

fn opcode_aliases(enumerator: &str) -> String {
    let aliases: Vec<&str> = enumerators("OPCODE")
        .unwrap_or(&[])
        .iter()
        .filter(|e| e.name == enumerator)
        .flat_map(|e| e.aliases.iter().copied())
        .collect();
    if aliases.is_empty() {
        String::new()
    } else {
        format!(", also spelled {}", aliases.join(", "))
    }
}

fn at(l: &LeafMeta) -> String {
    match l.bits {
        Some((lsb, 1)) => format!("+{:#04x} b{lsb}", l.offset),
        Some((lsb, w)) => format!("+{:#04x} b{lsb}..{}", l.offset, lsb + w - 1),
        None => format!("+{:#04x}", l.offset),
    }
}

/// Short flags for the word table.
fn marks(l: &LeafMeta) -> String {
    let f = l.field;
    let mut m = Vec::new();
    match f.role {
        Role::Reserved => m.push("reserved".to_string()),
        Role::Unknown => m.push("UNKNOWN".to_string()),
        Role::Data => {}
    }
    if let Some(v) = l.variant {
        m.push(format!("arm {v}"));
    }
    if let Some(c) = f.constant {
        m.push(format!("const {c:#x}"));
    }
    if let Some(Codec::ZeroMeans(v)) = f.codec {
        m.push(format!("0 means {v}"));
    }
    for a in f.alternatives {
        m.push(format!("CONFLICT: {}", a.name));
    }
    m.join("; ")
}

/// A leaf, or (`element`) one element of an array leaf.
fn leaf_text(w: &Item, l: &LeafMeta, element: Option<usize>) -> String {
    let f = l.field;
    let mut out = String::new();
    let arm = l
        .variant
        .map_or(String::new(), |v| format!(", union arm {v}"));
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match element.zip(array_len(l.type_name)) {
        Some((i, n)) => {
            let size = l.size / n;
            let _ = writeln!(out, "{}.{}[{i}]", w.name, l.path);
            let _ = writeln!(
                out,
                "  at         +{:#04x} ({size} byte{}{arm}): element {i} of {} ({})",
                l.offset + i * size,
                plural(size),
                l.path,
                at(l)
            );
        }
        None => {
            let _ = writeln!(out, "{}.{}", w.name, l.path);
            let _ = writeln!(
                out,
                "  at         {} ({} byte{}{arm})",
                at(l),
                l.size,
                plural(l.size)
            );
        }
    }
    let _ = writeln!(out, "  type       {}", f.type_name);
    if !f.doc.is_empty() {
        let _ = writeln!(out, "  meaning    {}", f.doc);
    }
    match f.role {
        Role::Reserved => {
            let _ = writeln!(out, "  role       reserved");
        }
        Role::Unknown => {
            let _ = writeln!(
                out,
                "  role       unknown: no source gives a meaning; kept raw"
            );
        }
        Role::Data => {}
    }
    if let Some(c) = f.constant {
        let _ = writeln!(
            out,
            "  constant   {c:#x} (encode writes it; decode reports a mismatch)"
        );
    }
    if let Some(Codec::ZeroMeans(v)) = f.codec {
        let _ = writeln!(out, "  codec      stored 0 means {v}");
    }
    confidence_lines(l, &mut out);
    value_names(
        f.type_name.split('[').next().unwrap_or(f.type_name),
        &mut out,
    );
    if l.within.is_empty() {
        evidence_heading("  evidence", f.evidence, &mut out);
    } else {
        // Each member on the way states its own evidence about these bytes.
        for m in l.chain() {
            // An unknown member states no tag (`Confidence::UNSTATED`).
            let tag = if m.role == Role::Unknown {
                "unknown"
            } else {
                m.confidence.tag
            };
            let heading = format!("  evidence of {} [{tag}]", m.name);
            evidence_heading(&heading, m.evidence, &mut out);
        }
    }
    for a in f.alternatives {
        alternative_lines(a, &mut out);
    }
    let reading: Vec<&RuleMeta> = w
        .rules
        .iter()
        .filter(|r| r.fields.iter().any(|p| reads(p, l.path)))
        .collect();
    if !reading.is_empty() {
        let all = w.rules;
        let parts = |r: &RuleMeta| -> String {
            let ids: Vec<&str> = r
                .parts
                .iter()
                .filter_map(|&i| all.get(i))
                .map(|p| p.id)
                .collect();
            ids.join(", ")
        };
        let _ = writeln!(out, "  rules that read it");
        for r in reading {
            let how = match (r.kind, r.expr) {
                (RuleKind::NotEnforced, _) => "not enforced: the sources give no body".to_string(),
                (RuleKind::All, _) => format!("all of: {}", parts(r)),
                (RuleKind::Any, _) => format!("any of: {}", parts(r)),
                (_, Some(e)) => e.to_string(),
                (_, None) => String::new(),
            };
            let by = match r.authority {
                RuleAuthority::Header => "",
                RuleAuthority::Compiler => ", compiler rule",
            };
            let _ = writeln!(out, "    - {} [{}{by}] {how}", r.id, r.confidence.tag);
            if !r.message.is_empty() {
                let _ = writeln!(out, "        message: {}", r.message);
            }
        }
    }
    out
}

/// `heading` and the evidence under it, or, when there is none, `heading: none` (an
/// unknown member's bytes are pinned by nothing).
fn evidence_heading(heading: &str, evidence: &[Evidence], out: &mut String) {
    if evidence.is_empty() {
        let _ = writeln!(out, "{heading}: none");
    } else {
        let _ = writeln!(out, "{heading}");
        evidence_lines(evidence, out);
    }
}

/// The leaf's confidence, and the member holding it that brings it down, if one does.
fn confidence_lines(l: &LeafMeta, out: &mut String) {
    let Some(c) = l.confidence else {
        let _ = writeln!(out, "  confidence none: unknown bytes claim no meaning");
        return;
    };
    let _ = write!(
        out,
        "  confidence {} ({}, scale {})",
        c.tag, c.level, c.scale
    );
    if c.rank > l.field.confidence.rank
        && let Some(m) = l.within.iter().rev().find(|m| m.confidence == c)
    {
        let _ = write!(out, ", from {} (which holds it)", m.name);
    }
    out.push('\n');
}

/// The enumerators (with their architectures and other spellings) or flags of a type.
fn value_names(ty: &str, out: &mut String) {
    if let Some(values) = enumerators(ty) {
        let _ = writeln!(out, "  enumerators");
        for e in values {
            let _ = writeln!(out, "    {}", enumerator_line(e));
        }
    }
    if let Some(bits) = flag_bits(ty) {
        let _ = writeln!(out, "  flags");
        for b in bits {
            let _ = writeln!(out, "    {}", flag_line(b));
        }
    }
}

/// `0x7 FP16 (NEURON_ISA_TPB_DTYPE_FP16), also …, only on …, engine …`.
fn enumerator_line(e: &EnumeratorMeta) -> String {
    let mut line = format!("{:#x} {} ({})", e.value, e.name, e.c_name);
    if !e.aliases.is_empty() {
        let _ = write!(line, ", also {}", e.aliases.join(", "));
    }
    if !e.arch.is_empty() {
        let _ = write!(line, ", only on {}", e.arch.join(", "));
    }
    if let Some(g) = e.engine {
        let _ = write!(line, ", engine {g}");
    }
    line
}

/// `bit 3 (0x08) NAME: doc`.
fn flag_line(b: &FlagMeta) -> String {
    format!(
        "bit {} ({:#04x}) {}: {}",
        b.bit,
        1u64 << b.bit,
        b.name,
        b.doc
    )
}

/// `TYPE.NAME`: one enumerator (by any of its spellings) or flag of an enum or flag set;
/// `None` when `ty` is neither.
fn member_text(ty: &str, name: &str) -> Option<Result<String, Error>> {
    let values = enumerators(ty).unwrap_or_default();
    let bits = flag_bits(ty).unwrap_or_default();
    if values.is_empty() && bits.is_empty() {
        return None;
    }
    if let Some(e) = values
        .iter()
        .find(|e| e.name == name || e.aliases.contains(&name))
    {
        return Some(Ok(format!(
            "{ty}.{} — enumerator of {ty}\n  {}\n",
            e.name,
            enumerator_line(e)
        )));
    }
    if let Some(b) = bits.iter().find(|b| b.name == name) {
        return Some(Ok(format!(
            "{ty}.{} — flag of {ty}\n  {}\n",
            b.name,
            flag_line(b)
        )));
    }
    let names: Vec<&str> = values
        .iter()
        .map(|e| e.name)
        .chain(bits.iter().map(|b| b.name))
        .collect();
    let lists = format!("`dmaspec explain {ty}`");
    Some(Err(Error::Usage(format!(
        "{ty} has no enumerator or flag `{}`{} ({})",
        echo(name),
        super::lookup::did_you_mean(name, names.iter().copied()),
        listing(&names, "names", &lists)
    ))))
}

/// The word's validity rules (the generated code hangs them on the decoded word).
fn rules_of(w: &WordMeta) -> &'static [RuleMeta] {
    w.arch
        .first()
        .and_then(|&a| crate::Word::decode(w.template, a))
        .map_or(&[], |word| word.rules())
}

/// Whether a rule reading `field` reads the leaf at `leaf` (or the field contains it).
fn reads(field: &str, leaf: &str) -> bool {
    let under = |a: &str, b: &str| {
        a == b || a.starts_with(&format!("{b}.")) || a.starts_with(&format!("{b}["))
    };
    under(leaf, field) || under(field, leaf)
}

/// The paths (`FILE.BUNDLE.register[.field]`) of the registers and fields named `name`, on
/// any architecture, each once; at most [`crate::names::LISTED`], then a count.
fn register_places(name: &str) -> Vec<String> {
    let mut places: Vec<String> = Vec::new();
    for f in REGFILES {
        for b in f.bundles {
            for r in b.registers {
                let path = format!("{}.{}.{}", f.name, b.name, r.name);
                if r.name == name && !places.contains(&path) {
                    places.push(path.clone());
                }
                for field in r.fields.iter().filter(|x| x.name == name) {
                    let path = format!("{path}.{}", field.name);
                    if !places.contains(&path) {
                        places.push(path);
                    }
                }
            }
        }
    }
    let listed = crate::names::LISTED;
    if places.len() > listed {
        let more = places.len() - listed;
        places.truncate(listed);
        places.push(format!("and {more} more"));
    }
    places
}
