//! What a rule reads and whether it can tell values apart: a rule over `unknown` bytes, a
//! rule surer than a field it reads, and a rule that holds for every value of its fields'
//! ranges or for none.
//!
//! The last is decided by sampling, not proof: each field takes its range's corners (0, 1,
//! its maximum; its minimum when signed), every value the rule compares it with and the
//! values either side (the loader's [`Expr::boundaries`]), and every power of two and one
//! less within its width; the rule is evaluated with the model's own evaluator
//! ([`Expr::eval`]) on every combination (or on a fixed spread of [`MAX_SAMPLES`] of them)
//! on every architecture it applies to. A rule that comes out the same on all of them is
//! reported; the sample may miss a rare value, so it is a warning, with an allow.

use super::context::{Ctx, Finding};
use crate::model::rules::{Access, Expr, Rule, RuleKind, RuleSet};
use crate::model::{Confidence, Role, TypeDef, TypeKind};
use crate::schema::RawFile;
use crate::schema::rules::RawRule;

pub(super) const READS_UNKNOWN: &str = "rule_reads_unknown";
pub(super) const OUTRANKS_FIELD: &str = "rule_outranks_field";
pub(super) const CONSTANT: &str = "constant_rule";

/// Combinations of sampled values evaluated per rule, at most.
const MAX_SAMPLES: usize = 4096;

pub(super) fn rules<'a>(ctx: &Ctx<'a>, out: &mut Vec<Finding<'a>>) {
    let model = ctx.model;
    for set in &model.rules.sets {
        let owner = &model.types[set.owner];
        for rule in &set.rules {
            let RuleKind::Expr { expr, .. } = &rule.kind else {
                continue;
            };
            let Some((file, raw)) = ctx.spec(&rule.file) else {
                continue;
            };
            let Some(raw_rule) = raw_rule(raw, &set.owner_name, &rule.id) else {
                continue;
            };
            let mut finding = |lint: &'static str, message: String, note: String| {
                out.push(Finding {
                    file,
                    span: raw_rule.name.span(),
                    lint,
                    message,
                    notes: vec![note],
                    allow: Some(&raw_rule.allow),
                });
            };
            let mut reads: Vec<Access> = Vec::new();
            let mut all = Vec::new();
            expr.reads(&mut all);
            for a in all {
                if !reads.iter().any(|r| r.path == a.path) {
                    reads.push(a);
                }
            }
            for access in &reads {
                match read_field(ctx, owner, access) {
                    Some((Role::Unknown, _)) => finding(
                        READS_UNKNOWN,
                        format!(
                            "rule `{}` reads `{}`, which is marked `unknown`",
                            rule.id, access.path
                        ),
                        "no source gives those bytes a meaning: name the field first, or \
                         drop the rule"
                            .to_string(),
                    ),
                    Some((_, Some(c))) if c.rank > rule.confidence.rank => finding(
                        OUTRANKS_FIELD,
                        format!(
                            "rule `{}` is tagged `{}` ({}), but `{}` it reads is only `{}` ({})",
                            rule.id,
                            rule.confidence.tag,
                            rule.confidence.level,
                            access.path,
                            c.tag,
                            c.level
                        ),
                        "a rule is no surer than the fields it reads: lower the rule's tag, \
                         or cite what pins the field"
                            .to_string(),
                    ),
                    _ => {}
                }
            }
            if let Some(holds) = constant(ctx, set, rule, expr, &reads) {
                let (what, note) = if holds {
                    (
                        "holds for every value",
                        "it rejects nothing: check it against its source",
                    )
                } else {
                    (
                        "holds for no value",
                        "it rejects every word: check it against its source",
                    )
                };
                finding(
                    CONSTANT,
                    format!(
                        "rule `{}` {what} its fields can take (sampled: range corners, \
                         compared values ±1, powers of two)",
                        rule.id
                    ),
                    note.to_string(),
                );
            }
        }
    }
}

/// The `[[struct.rule]]` / `[[bitfield.rule]]` of `owner` with id `id`.
fn raw_rule<'r>(raw: &'r RawFile, owner: &str, id: &str) -> Option<&'r RawRule> {
    let of_structs = (raw.structs.iter())
        .filter(|s| s.name.get_ref() == owner)
        .flat_map(|s| &s.rule);
    let of_bitfields = (raw.bitfield.iter())
        .filter(|b| b.name.get_ref() == owner)
        .flat_map(|b| &b.rule);
    of_structs
        .chain(of_bitfields)
        .find(|r| r.id.as_ref().unwrap_or(&r.name).get_ref() == id)
}

/// The role and confidence of the member `access` reads in `owner`.
fn read_field<'m>(
    ctx: &Ctx<'m>,
    owner: &'m TypeDef,
    access: &Access,
) -> Option<(Role, Option<&'m Confidence>)> {
    match &owner.kind {
        TypeKind::Bitfield { fields, .. } => {
            let (lsb, _) = access.bits?;
            let f = fields.iter().find(|f| f.lsb == lsb)?;
            Some((f.role, (f.role != Role::Unknown).then_some(&f.confidence)))
        }
        TypeKind::Struct { .. } => {
            let leaves = ctx.model.leaves(owner);
            let leaf = leaves.iter().find(|l| l.path == access.path).or_else(|| {
                leaves.iter().find(|l| {
                    l.offset <= access.offset
                        && access.offset < l.offset + l.size
                        && (l.bits.is_none() || l.bits == access.bits)
                })
            })?;
            Some((leaf.role, leaf.confidence))
        }
        _ => None,
    }
}

/// `Some(true)` when `expr` held on every sample, `Some(false)` on none, `None` when it
/// told them apart (or reads nothing: a constant expression is the loader's business).
fn constant(ctx: &Ctx, set: &RuleSet, rule: &Rule, expr: &Expr, reads: &[Access]) -> Option<bool> {
    if reads.is_empty() {
        return None;
    }
    let model = ctx.model;
    let mut bounds = Vec::new();
    expr.boundaries(&model.rules, &mut bounds);
    let values: Vec<Vec<i64>> = reads.iter().map(|a| samples(a, &bounds)).collect();
    let mut ncs: Vec<i64> = (model.archs.iter())
        .filter(|a| rule.arch.is_empty() || rule.arch.contains(&a.name))
        .map(|a| i64::from(a.nc))
        .collect();
    if ncs.is_empty() {
        // A spec without architectures: `nc` has no value to take but its default.
        ncs.push(0);
    }
    let size = model.types[set.owner].size;
    let total = values
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.len()))
        .unwrap_or(usize::MAX);
    let longest = values.iter().map(Vec::len).max().unwrap_or(0);
    let mut seen: Option<bool> = None;
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for n in 0..total.min(MAX_SAMPLES) {
        let mut bytes = vec![0u8; size];
        let mut index = n;
        for (access, v) in reads.iter().zip(&values) {
            // Every combination when they are few; otherwise the diagonal (every field
            // at its k-th value: all zero, all one, …) and then a fixed spread.
            let pick = if total <= MAX_SAMPLES {
                let p = index % v.len();
                index /= v.len();
                p
            } else if n < longest {
                n.min(v.len() - 1)
            } else {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                (state >> 33) as usize % v.len()
            };
            access.write(&mut bytes, v[pick]);
        }
        for &nc in &ncs {
            let holds = expr.eval(&model.rules, &bytes, nc) != 0;
            match seen {
                None => seen = Some(holds),
                Some(s) if s != holds => return None,
                Some(_) => {}
            }
        }
    }
    seen
}

/// The values sampled for the field `a` reads: see the module doc.
fn samples(a: &Access, bounds: &[(Access, i64)]) -> Vec<i64> {
    let width = a.bits.map_or(8 * a.size as u32, |(_, w)| w);
    let signed = a.signed && a.bits.is_none();
    let (min, max) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    let mut out: Vec<i128> = vec![0, 1, min, max];
    for (_, v) in bounds.iter().filter(|(b, _)| b.path == a.path) {
        let v = i128::from(*v);
        out.extend([v - 1, v, v + 1]);
    }
    for k in 0..width.min(64) {
        out.extend([1i128 << k, (1i128 << k) - 1]);
    }
    out.retain(|v| (min..=max).contains(v));
    out.sort_unstable();
    out.dedup();
    // A 64-bit unsigned maximum is stored as its two's complement.
    out.into_iter().map(|v| v as i64).collect()
}
