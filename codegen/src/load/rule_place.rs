//! Field paths in rules: `a.b[1].c` from a struct or bitfield to the member it names,
//! with its offset, width, bit range and the type a rule sees.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;

use crate::model::path::{ArmAt, Step, Target, Unions};
use crate::model::rules::{Access, BinOp, Expr, bin, chain, not};
use crate::model::{BitsType, Int, Model, TypeKind, TypeRef};

/// A value's type while checking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RuleType {
    /// An integer in `lo..=hi`.
    Int(i128, i128),
    Bool,
    /// A value of the enum type at this index.
    Enum(usize),
    /// A value of the flags type at this index.
    Flags(usize),
}

/// What a field path names.
pub(super) struct Place {
    pub path: String,
    pub offset: usize,
    pub kind: PlaceKind,
}

pub(super) enum PlaceKind {
    Scalar {
        size: usize,
        signed: bool,
        bits: Option<(u32, u32)>,
        ty: RuleType,
        /// What a stored 0 means, for fields with a `codec`.
        zero_means: Option<u64>,
    },
    /// A struct, bitfield, union, array or text: not a value.
    Composite {
        ty_index: Option<usize>,
        what: String,
    },
}

pub(super) enum Seg {
    Name(String, Span),
    Index(usize, Span),
}

pub(super) type Fail = (Span, String);

pub(super) fn int_range(int: Int) -> (i128, i128) {
    let bits = int.bits();
    if int.signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

pub(super) fn fits(lo: i128, hi: i128) -> bool {
    lo >= i128::from(i64::MIN) && hi <= i128::from(i64::MAX)
}

pub(super) fn segs(e: &syn::Expr) -> Result<Vec<Seg>, Fail> {
    match e {
        syn::Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let s = &p.path.segments[0];
            if !s.arguments.is_none() {
                return Err((e.span(), "generic arguments are not allowed here".into()));
            }
            Ok(vec![Seg::Name(s.ident.unraw().to_string(), s.ident.span())])
        }
        syn::Expr::Field(f) => {
            let mut v = segs(&f.base)?;
            match &f.member {
                syn::Member::Named(id) => v.push(Seg::Name(id.unraw().to_string(), id.span())),
                syn::Member::Unnamed(_) => {
                    return Err((f.member.span(), "fields are named, not numbered".into()));
                }
            }
            Ok(v)
        }
        syn::Expr::Index(ix) => {
            let mut v = segs(&ix.expr)?;
            match &*ix.index {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) if n.suffix().is_empty() => {
                    let i = n
                        .base10_parse::<usize>()
                        .map_err(|_| (n.span(), "index out of range".to_string()))?;
                    v.push(Seg::Index(i, ix.index.span()));
                }
                other => {
                    return Err((
                        other.span(),
                        "an array index must be an integer literal".into(),
                    ));
                }
            }
            Ok(v)
        }
        syn::Expr::Paren(p) => segs(&p.expr),
        _ => Err((e.span(), "expected a field path".into())),
    }
}

/// Resolves a field path from `owner`.
pub(super) fn place(m: &Model, owner: usize, segs: &[Seg]) -> Result<Place, Fail> {
    let steps: Vec<Step> = segs
        .iter()
        .map(|s| match s {
            Seg::Name(n, _) => Step::Name(n.clone()),
            Seg::Index(k, _) => Step::Index(*k),
        })
        .collect();
    let at = m
        .locate(owner, &steps, Unions::Guarded)
        .map_err(|e| (seg_span(segs, e.step), e.message))?;
    let scalar = |ty, zero_means| PlaceKind::Scalar {
        size: at.size(m),
        signed: at.signed(m),
        bits: at.bits(),
        ty,
        zero_means,
    };
    let kind = match at.target {
        Target::Bits { field: b, .. } => {
            let ty = match &b.ty {
                BitsType::Uint => RuleType::Int(0, (1i128 << b.width) - 1),
                BitsType::Named { index, .. } => match m.types[*index].kind {
                    TypeKind::Enum { .. } => RuleType::Enum(*index),
                    _ => RuleType::Flags(*index),
                },
            };
            scalar(ty, None)
        }
        Target::Type(TypeRef::Int { int }) => {
            let (lo, hi) = int_range(*int);
            if !fits(lo, hi) {
                return Err((
                    seg_span(segs, segs.len().saturating_sub(1)),
                    format!("`{}` is a u64; rules read values up to 63 bits", at.path),
                ));
            }
            let zero_means = at.codec.map(|crate::model::Codec::ZeroMeans(z)| z);
            scalar(RuleType::Int(lo, hi), zero_means)
        }
        Target::Type(TypeRef::Named { index, name }) => match &m.types[*index].kind {
            TypeKind::Enum { .. } => scalar(RuleType::Enum(*index), None),
            TypeKind::Flags { .. } => scalar(RuleType::Flags(*index), None),
            _ => PlaceKind::Composite {
                ty_index: Some(*index),
                what: name.clone(),
            },
        },
        Target::Type(ty) => PlaceKind::Composite {
            ty_index: None,
            what: ty.spelling(),
        },
    };
    Ok(Place {
        path: at.path,
        offset: at.offset,
        kind,
    })
}

/// `e`, made to hold wherever the discriminator of a union it reads an arm's field of
/// selects another arm: `!holds(arm) || … || e` (`e` itself when it reads no arm).
pub(super) fn guard_arms(m: &Model, owner: usize, e: Expr) -> Expr {
    let mut reads = Vec::new();
    e.reads(&mut reads);
    let mut arms: Vec<ArmAt> = Vec::new();
    for r in reads {
        let Ok(steps) = Step::parse(&r.path) else {
            continue;
        };
        for a in m
            .locate(owner, &steps, Unions::Guarded)
            .map_or(Vec::new(), |l| l.arms)
        {
            if !arms.contains(&a) {
                arms.push(a);
            }
        }
    }
    if arms.is_empty() {
        return e;
    }
    let mut parts: Vec<Expr> = arms
        .iter()
        .filter_map(|a| arm_holds(m, a))
        .map(not)
        .collect();
    parts.push(e);
    chain(BinOp::Or, parts)
}

/// Whether the discriminator selects arm `a`, as the decoders choose: the first masked arm
/// whose `d & mask == value`, else the default arm.
fn arm_holds(m: &Model, a: &ArmAt) -> Option<Expr> {
    let TypeKind::Union {
        discriminator: d,
        variants,
    } = &m.types[a.union].kind
    else {
        return None;
    };
    let read = Expr::Read {
        access: Access {
            path: format!("{}.{}", a.path, d.name),
            offset: a.offset + d.offset,
            size: d.size,
            signed: false,
            bits: None,
        },
    };
    let selects = |i: usize| match (variants[i].mask, variants[i].value) {
        (Some(mask), Some(value)) => Some(bin(
            BinOp::Eq,
            bin(
                BinOp::BitAnd,
                read.clone(),
                Expr::Int { value: mask as i64 },
            ),
            Expr::Int {
                value: value as i64,
            },
        )),
        _ => None,
    };
    let own = selects(a.variant);
    let before = if own.is_some() {
        a.variant
    } else {
        variants.len()
    };
    let mut parts: Vec<Expr> = (0..before).filter_map(selects).map(not).collect();
    parts.extend(own);
    Some(match parts.len() {
        0 => Expr::Bool { value: true },
        _ => chain(BinOp::And, parts),
    })
}

fn seg_span(segs: &[Seg], i: usize) -> Span {
    match segs.get(i).or(segs.last()) {
        Some(Seg::Name(_, s)) | Some(Seg::Index(_, s)) => *s,
        None => Span::call_site(),
    }
}
