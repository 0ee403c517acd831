//! Field paths in rules: `a.b[1].c` from a struct or bitfield to the member it names,
//! with its offset, width, bit range and the type a rule sees.

use proc_macro2::Span;
use syn::spanned::Spanned as _;

use crate::model::{BitsType, Int, Model, TypeKind, TypeRef};
use crate::naming::c::member;

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
    pub c_path: String,
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
            Ok(vec![Seg::Name(s.ident.to_string(), s.ident.span())])
        }
        syn::Expr::Field(f) => {
            let mut v = segs(&f.base)?;
            match &f.member {
                syn::Member::Named(id) => v.push(Seg::Name(id.to_string(), id.span())),
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
    let mut place = Place {
        path: String::new(),
        c_path: String::new(),
        offset: 0,
        kind: PlaceKind::Composite {
            ty_index: Some(owner),
            what: m.types[owner].name.clone(),
        },
    };
    let mut cur: TypeRef = TypeRef::Named {
        name: m.types[owner].name.clone(),
        index: owner,
    };
    let mut i: usize = 0;
    let mut zero_means: Option<u64> = None;
    let push = |place: &mut Place, name: &str, c: &str| {
        if !place.path.is_empty() {
            place.path.push('.');
            place.c_path.push('.');
        }
        place.path.push_str(name);
        place.c_path.push_str(c);
    };
    loop {
        // Describe where we are.
        match &cur {
            TypeRef::Int { int } => {
                let (lo, hi) = int_range(*int);
                if !fits(lo, hi) {
                    return Err((
                        seg_span(segs, i.saturating_sub(1)),
                        format!("`{}` is a u64; rules read values up to 63 bits", place.path),
                    ));
                }
                place.kind = PlaceKind::Scalar {
                    size: int.size(),
                    signed: int.signed(),
                    bits: None,
                    ty: RuleType::Int(lo, hi),
                    zero_means,
                };
                if i < segs.len() {
                    return Err((
                        seg_span(segs, i),
                        format!("`{}` is an integer, it has no members", place.path),
                    ));
                }
                return Ok(place);
            }
            TypeRef::Ascii { len } => {
                place.kind = PlaceKind::Composite {
                    ty_index: None,
                    what: format!("ascii[{len}]"),
                };
                if i < segs.len() {
                    return Err((
                        seg_span(segs, i),
                        format!("`{}` is text, it has no members", place.path),
                    ));
                }
                return Ok(place);
            }
            TypeRef::Array { elem, len } => {
                place.kind = PlaceKind::Composite {
                    ty_index: None,
                    what: cur.spelling(),
                };
                match segs.get(i) {
                    None => return Ok(place),
                    Some(Seg::Index(k, sp)) => {
                        if *k >= *len {
                            return Err((
                                *sp,
                                format!(
                                    "index {k} is out of range for `{}` ({} elements)",
                                    place.path, len
                                ),
                            ));
                        }
                        place.offset += k * m.size_of(elem);
                        place.path.push_str(&format!("[{k}]"));
                        place.c_path.push_str(&format!("[{k}]"));
                        cur = (**elem).clone();
                        i += 1;
                    }
                    Some(Seg::Name(n, sp)) => {
                        return Err((
                            *sp,
                            format!(
                                "`{}` is an array; index it (`{}[0]`) before `.{n}`",
                                place.path, place.path
                            ),
                        ));
                    }
                }
            }
            TypeRef::Named { index, .. } => {
                let t = &m.types[*index];
                match &t.kind {
                    TypeKind::Enum { repr, .. } | TypeKind::Flags { repr, .. } => {
                        let ty = if matches!(t.kind, TypeKind::Enum { .. }) {
                            RuleType::Enum(*index)
                        } else {
                            RuleType::Flags(*index)
                        };
                        place.kind = PlaceKind::Scalar {
                            size: repr.size(),
                            signed: repr.signed(),
                            bits: None,
                            ty,
                            zero_means: None,
                        };
                        if i < segs.len() {
                            return Err((
                                seg_span(segs, i),
                                format!("`{}` is a `{}`, it has no members", place.path, t.name),
                            ));
                        }
                        return Ok(place);
                    }
                    TypeKind::Bitfield { repr, fields } => {
                        place.kind = PlaceKind::Composite {
                            ty_index: Some(*index),
                            what: t.name.clone(),
                        };
                        let Some((n, sp)) = member_at(segs, i, &t.name, "bitfield")? else {
                            return Ok(place);
                        };
                        let Some(b) = fields.iter().find(|b| &b.name == n) else {
                            let names = fields.iter().map(|b| b.name.as_str());
                            return Err(no_member(sp, &t.name, "sub-field", n, names));
                        };
                        let ty = match &b.ty {
                            BitsType::Uint => RuleType::Int(0, (1i128 << b.width) - 1),
                            BitsType::Named { index, .. } => match m.types[*index].kind {
                                TypeKind::Enum { .. } => RuleType::Enum(*index),
                                _ => RuleType::Flags(*index),
                            },
                        };
                        push(&mut place, n, &member(n));
                        place.kind = PlaceKind::Scalar {
                            size: repr.size(),
                            signed: false,
                            bits: Some((b.lsb, b.width)),
                            ty,
                            zero_means: None,
                        };
                        if i + 1 < segs.len() {
                            return Err((
                                seg_span(segs, i + 1),
                                format!("`{}` is a bit range, it has no members", place.path),
                            ));
                        }
                        return Ok(place);
                    }
                    TypeKind::Struct { fields, .. } => {
                        place.kind = PlaceKind::Composite {
                            ty_index: Some(*index),
                            what: t.name.clone(),
                        };
                        let Some((n, sp)) = member_at(segs, i, &t.name, "struct")? else {
                            return Ok(place);
                        };
                        let Some(f) = fields.iter().find(|f| &f.name == n) else {
                            let names = fields.iter().map(|f| f.name.as_str());
                            return Err(no_member(sp, &t.name, "field", n, names));
                        };
                        push(&mut place, n, &member(n));
                        place.offset += f.offset;
                        zero_means = f.codec.map(|crate::model::Codec::ZeroMeans(z)| z);
                        cur = f.ty.clone();
                        i += 1;
                    }
                    TypeKind::Union {
                        discriminator,
                        variants,
                    } => {
                        place.kind = PlaceKind::Composite {
                            ty_index: Some(*index),
                            what: t.name.clone(),
                        };
                        let Some((n, sp)) = member_at(segs, i, &t.name, "union")? else {
                            return Ok(place);
                        };
                        let d = &discriminator.name;
                        let arm = if n == d {
                            variants.first().map(|v| v.name.clone())
                        } else if variants.iter().any(|v| &v.name == n) {
                            match segs.get(i + 1) {
                                Some(Seg::Name(n2, _)) if n2 == d => {
                                    i += 1;
                                    Some(n.clone())
                                }
                                _ => {
                                    return Err((
                                        sp,
                                        format!(
                                            "rules read a union only through its discriminator \
                                         (`{}.{n}.{d}` or `{}.{d}`): which arm holds depends on it",
                                            place.path, place.path
                                        ),
                                    ));
                                }
                            }
                        } else {
                            let arms: Vec<&str> =
                                variants.iter().map(|v| v.name.as_str()).collect();
                            return Err((
                                sp,
                                format!(
                                    "`{}` has no member `{n}` (discriminator `{d}`; arms: {})",
                                    t.name,
                                    arms.join(", ")
                                ),
                            ));
                        };
                        let arm = arm.unwrap_or_default();
                        let shown = match segs.get(i) {
                            Some(Seg::Name(x, _)) if x == d && n != d => format!("{n}.{d}"),
                            _ => d.clone(),
                        };
                        push(
                            &mut place,
                            &shown,
                            &format!("{}.{}", member(&arm), member(d)),
                        );
                        place.offset += discriminator.offset;
                        cur = discriminator.ty.clone();
                        i += 1;
                    }
                }
            }
        }
    }
}

/// The member `segs[i]` names in `what` (a `kind`: struct, union or bitfield), or `None`
/// where the path ends; an index there is an error.
fn member_at<'s>(
    segs: &'s [Seg],
    i: usize,
    what: &str,
    kind: &str,
) -> Result<Option<(&'s String, Span)>, Fail> {
    match segs.get(i) {
        None => Ok(None),
        Some(Seg::Name(n, sp)) => Ok(Some((n, *sp))),
        Some(Seg::Index(..)) => Err((
            seg_span(segs, i),
            format!("`{what}` is a {kind}, not an array"),
        )),
    }
}

/// `what` has no `kind` (field or sub-field) named `n`; the error lists the `names` it has.
fn no_member<'a>(
    sp: Span,
    what: &str,
    kind: &str,
    n: &str,
    names: impl Iterator<Item = &'a str>,
) -> Fail {
    let names: Vec<&str> = names.collect();
    (
        sp,
        format!(
            "`{what}` has no {kind} `{n}` (it has: {})",
            names.join(", ")
        ),
    )
}

fn seg_span(segs: &[Seg], i: usize) -> Span {
    match segs.get(i).or(segs.last()) {
        Some(Seg::Name(_, s)) | Some(Seg::Index(_, s)) => *s,
        None => Span::call_site(),
    }
}
