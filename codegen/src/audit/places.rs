//! Every place of a spec item a byte-map row can name: each member (containers, int array
//! elements and bitfield sub-fields included) with its bits and the names it goes by.

use crate::model::path::Member;
use crate::model::registers::Access;
use crate::model::{Alternative, Evidence, Model, TypeDef, TypeKind, TypeRef};

/// One member where it lands in the item.
#[derive(Debug, Clone)]
pub struct Place<'m> {
    /// `header.opcode`, `src_step_elem[1]`.
    pub path: String,
    /// Bits from the start of the item.
    pub start: u64,
    pub width: u64,
    /// The type as the spec spells it, and the C name of a named one.
    pub type_name: String,
    pub c_type: Option<&'m str>,
    pub evidence: &'m [Evidence],
    pub alternatives: &'m [Alternative],
    /// A register's or register field's access and reset; `None` for a byte-map member.
    pub access: Option<Access>,
    pub reset: Option<u64>,
}

impl Place<'_> {
    /// The names the spec gives these bits, lower-cased: the path, the member's own name,
    /// and what its evidence records say a source calls it.
    pub fn names(&self) -> Vec<String> {
        let last = self.path.rsplit('.').next().unwrap_or(&self.path);
        let mut out = vec![self.path.to_ascii_lowercase(), last.to_ascii_lowercase()];
        out.extend(
            self.evidence
                .iter()
                .filter_map(|e| e.alias.as_deref())
                .map(str::to_ascii_lowercase),
        );
        out
    }
}

/// The places of `item`, in walk order; none for an enum or flags type.
pub fn places<'m>(model: &'m Model, item: &'m TypeDef) -> Vec<Place<'m>> {
    let c_type = |ty: &TypeRef| match ty {
        TypeRef::Named { index, .. } => Some(model.types[*index].c_name.as_str()),
        _ => None,
    };
    let mut out = Vec::new();
    match &item.kind {
        TypeKind::Struct { .. } => {
            for node in model.walk(item).nodes {
                let start = node.offset as u64 * 8;
                let (start, width, c) = match node.member {
                    Member::Field(f) => (start, f.size as u64 * 8, c_type(&f.ty)),
                    Member::Bits(b) => (start + u64::from(b.lsb), u64::from(b.width), None),
                };
                out.push(Place {
                    path: node.path.clone(),
                    start,
                    width,
                    type_name: node.member.type_name(),
                    c_type: c,
                    evidence: node.member.evidence(),
                    alternatives: node.member.alternatives(),
                    access: None,
                    reset: None,
                });
                if let Member::Field(f) = node.member
                    && let TypeRef::Array { elem, len } = &f.ty
                    && let TypeRef::Int { int } = **elem
                {
                    for i in 0..*len as u64 {
                        out.push(Place {
                            path: format!("{}[{i}]", node.path),
                            start: start + i * int.bits() as u64,
                            width: int.bits() as u64,
                            type_name: int.rust().to_string(),
                            c_type: None,
                            evidence: &f.evidence,
                            alternatives: &f.alternatives,
                            access: None,
                            reset: None,
                        });
                    }
                }
            }
        }
        TypeKind::Bitfield { fields, .. } => out.extend(fields.iter().map(|b| Place {
            path: b.name.clone(),
            start: u64::from(b.lsb),
            width: u64::from(b.width),
            type_name: b.type_name(),
            c_type: None,
            evidence: &b.evidence,
            alternatives: &b.alternatives,
            access: None,
            reset: None,
        })),
        TypeKind::Union {
            discriminator,
            variants,
        } => {
            let arms = variants
                .iter()
                .flat_map(|v| v.fields.iter().map(move |f| (Some(&v.name), f)));
            for (arm, f) in [(None, discriminator)].into_iter().chain(arms) {
                out.push(Place {
                    path: arm.map_or(f.name.clone(), |a| format!("{a}.{}", f.name)),
                    start: f.offset as u64 * 8,
                    width: f.size as u64 * 8,
                    type_name: f.ty.spelling(),
                    c_type: c_type(&f.ty),
                    evidence: &f.evidence,
                    alternatives: &f.alternatives,
                    access: None,
                    reset: None,
                });
            }
        }
        TypeKind::Enum { .. } | TypeKind::Flags { .. } => {}
    }
    out
}
