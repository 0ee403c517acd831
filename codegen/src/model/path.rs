//! Field paths (`a.b[1].c`): the one resolver from a type and a path to the place it
//! names, which rules, lowerings and the C emitter use, and the one walk over every member
//! of a word, which [`Model::leaves`] and the Markdown pages read.

use super::words::{MetaSlot, leaf_confidence};
use super::{
    Alternative, BitField, BitsType, Codec, Confidence, Evidence, Field, Int, Leaf, Link, Model,
    Role, TypeDef, TypeKind, TypeRef, Variant,
};

/// One step of a path: a member name or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Name(String),
    Index(usize),
}

impl Step {
    /// Reads `a.b[1][2].c`.
    pub fn parse(path: &str) -> Result<Vec<Step>, String> {
        let mut steps = Vec::new();
        for seg in path.split('.') {
            let (name, mut rest) = match seg.find('[') {
                Some(i) => (&seg[..i], &seg[i..]),
                None => (seg, ""),
            };
            if name.is_empty() {
                return Err(format!("empty name in path segment `{seg}`"));
            }
            steps.push(Step::Name(name.to_string()));
            while !rest.is_empty() {
                let Some(close) = rest.find(']') else {
                    return Err(format!("unclosed `[` in `{seg}`"));
                };
                let n = rest[1..close]
                    .trim()
                    .parse()
                    .map_err(|_| format!("`{}` in `{seg}` is not an index", &rest[1..close]))?;
                steps.push(Step::Index(n));
                rest = &rest[close + 1..];
                if !rest.is_empty() && !rest.starts_with('[') {
                    return Err(format!("unexpected `{rest}` in `{seg}`"));
                }
            }
        }
        Ok(steps)
    }
}

/// How a path may enter a union.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unions {
    /// To its discriminator (`u.d`, or `u.arm.d`) or into an arm's fields (`u.arm.f`), as
    /// a rule reads them: which arm holds depends on the discriminator, so the location
    /// lists the arms it enters ([`Location::arms`]) for the rule to hold only where they do.
    Guarded,
    /// Into any arm's fields (`u.arm.f`), as a lowering maps them.
    Arms,
}

/// A union arm a path enters: the union's type index, path and offset in the owner, and
/// the arm's index among its variants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmAt {
    pub union: usize,
    pub path: String,
    pub offset: usize,
    pub variant: usize,
}

/// A bad path: the message and the index of the step it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub step: usize,
    pub message: String,
}

/// What a resolved path names.
#[derive(Debug, Clone, Copy)]
pub enum Target<'m> {
    /// A struct or union member, or an array element, of this type.
    Type(&'m TypeRef),
    /// A bitfield sub-field in a container of type `repr`.
    Bits { field: &'m BitField, repr: Int },
}

/// One hop of a resolved path, as a target language spells member access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hop<'m> {
    Member(&'m str),
    Index(usize),
    /// Into a union arm; `implicit` when the path reads the discriminator directly and the
    /// arm is the first one (every arm holds the discriminator at the same place).
    Arm {
        name: &'m str,
        implicit: bool,
    },
}

/// Where a path leads from its owner.
#[derive(Debug, Clone)]
pub struct Location<'m> {
    /// The path as resolved (`flags.gather_dim`, `src_num_elem[1]`).
    pub path: String,
    /// Byte offset of the value (of a bitfield's container) within the owner.
    pub offset: usize,
    pub target: Target<'m>,
    /// The codec of the innermost member on the way.
    pub codec: Option<Codec>,
    pub hops: Vec<Hop<'m>>,
    /// The union arms entered on the way to a field of one (not to a discriminator).
    pub arms: Vec<ArmAt>,
}

impl Location<'_> {
    /// Bytes the value (a bitfield's container) takes.
    pub fn size(&self, model: &Model) -> usize {
        match self.target {
            Target::Type(ty) => model.size_of(ty),
            Target::Bits { repr, .. } => repr.size(),
        }
    }

    /// Whether the value is a signed integer (an enum or flags type: its `repr`).
    pub fn signed(&self, model: &Model) -> bool {
        match self.target {
            Target::Type(TypeRef::Int { int }) => int.signed(),
            Target::Type(TypeRef::Named { index, .. }) => match &model.types[*index].kind {
                TypeKind::Enum { repr, .. } | TypeKind::Flags { repr, .. } => repr.signed(),
                _ => false,
            },
            Target::Type(_) | Target::Bits { .. } => false,
        }
    }

    /// `(lsb, width)` of a bitfield sub-field.
    pub fn bits(&self) -> Option<(u32, u32)> {
        match self.target {
            Target::Type(_) => None,
            Target::Bits { field, .. } => Some((field.lsb, field.width)),
        }
    }

    /// The type as the spec spells it (`u3` for an unsigned sub-field).
    pub fn type_name(&self) -> String {
        match self.target {
            Target::Type(ty) => ty.spelling(),
            Target::Bits { field, .. } => field.type_name(),
        }
    }
}

impl BitField {
    /// The sub-field's type as the spec spells it: `u3`, or the named enum or flags.
    pub fn type_name(&self) -> String {
        match &self.ty {
            BitsType::Uint => format!("u{}", self.width),
            BitsType::Named { name, .. } => name.clone(),
        }
    }
}

static NO_TYPE: TypeRef = TypeRef::Ascii { len: 0 };

/// Where the walk of [`Model::locate`] stands.
enum Cur<'m> {
    Type(&'m TypeRef),
    Named(usize),
    /// Among the fields of one arm of a union.
    Arm(&'m TypeDef, &'m Variant),
}

impl Location<'_> {
    fn push(&mut self, name: &str) {
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(name);
    }
}

fn err<T>(step: usize, message: String) -> Result<T, PathError> {
    Err(PathError { step, message })
}

/// The member `steps[i]` names in `what` (a `kind`: struct, union or bitfield), or `None`
/// where the path ends; an index there is an error.
fn member_at<'s>(
    steps: &'s [Step],
    i: usize,
    what: &str,
    kind: &str,
) -> Result<Option<&'s String>, PathError> {
    match steps.get(i) {
        None => Ok(None),
        Some(Step::Name(n)) => Ok(Some(n)),
        Some(Step::Index(_)) => err(i, format!("`{what}` is a {kind}, not an array")),
    }
}

/// `what` has no `kind` (field or sub-field) named `n`; the error lists the `names` it has.
fn no_member<'a, T>(
    i: usize,
    what: &str,
    kind: &str,
    n: &str,
    names: impl Iterator<Item = &'a str>,
) -> Result<T, PathError> {
    let hint = crate::diagnostics::suggest_or_list(n, names);
    err(i, format!("`{what}` has no {kind} `{n}`{hint}"))
}

impl Model {
    /// Resolves `steps` from the type at `owner`.
    pub fn locate(
        &self,
        owner: usize,
        steps: &[Step],
        unions: Unions,
    ) -> Result<Location<'_>, PathError> {
        let mut at = Location {
            path: String::new(),
            offset: 0,
            // Replaced by the first step, which every path has.
            target: Target::Type(&NO_TYPE),
            codec: None,
            hops: Vec::new(),
            arms: Vec::new(),
        };
        if steps.is_empty() {
            return err(0, "empty path".into());
        }
        let mut cur = Cur::Named(owner);
        let mut i: usize = 0;
        loop {
            let index = match cur {
                Cur::Type(TypeRef::Int { .. }) => {
                    if i < steps.len() {
                        return err(i, format!("`{}` is an integer, it has no members", at.path));
                    }
                    return Ok(at);
                }
                Cur::Type(TypeRef::Ascii { .. }) => {
                    if i < steps.len() {
                        return err(i, format!("`{}` is text, it has no members", at.path));
                    }
                    return Ok(at);
                }
                Cur::Type(TypeRef::Array { elem, len }) => match steps.get(i) {
                    None => return Ok(at),
                    Some(Step::Index(k)) => {
                        if k >= len {
                            return err(
                                i,
                                format!(
                                    "index {k} is out of range for `{}` ({len} elements)",
                                    at.path
                                ),
                            );
                        }
                        at.offset += k * self.size_of(elem);
                        at.path.push_str(&format!("[{k}]"));
                        at.hops.push(Hop::Index(*k));
                        at.target = Target::Type(elem);
                        cur = Cur::Type(elem);
                        i += 1;
                        continue;
                    }
                    Some(Step::Name(n)) => {
                        let p = &at.path;
                        return err(
                            i,
                            format!("`{p}` is an array; index it (`{p}[0]`) before `.{n}`"),
                        );
                    }
                },
                Cur::Type(TypeRef::Named { index, .. }) => *index,
                Cur::Named(index) => index,
                Cur::Arm(u, v) => {
                    let what = format!("{}.{}", u.name, v.name);
                    let Some(Step::Name(n)) = steps.get(i) else {
                        return err(
                            i.min(steps.len() - 1),
                            format!(
                                "`{}` is an arm of `{}`; name one of its fields",
                                v.name, u.name
                            ),
                        );
                    };
                    let Some(f) = v.fields.iter().find(|f| &f.name == n) else {
                        let names = v.fields.iter().map(|f| f.name.as_str());
                        return no_member(i, &what, "field", n, names);
                    };
                    self.enter(&mut at, f);
                    cur = Cur::Type(&f.ty);
                    i += 1;
                    continue;
                }
            };
            let t = &self.types[index];
            match &t.kind {
                TypeKind::Enum { .. } | TypeKind::Flags { .. } => {
                    if i < steps.len() {
                        return err(
                            i,
                            format!("`{}` is a `{}`, it has no members", at.path, t.name),
                        );
                    }
                    return Ok(at);
                }
                TypeKind::Bitfield { repr, fields } => {
                    let Some(n) = member_at(steps, i, &t.name, "bitfield")? else {
                        return Ok(at);
                    };
                    let Some(b) = fields.iter().find(|b| &b.name == n) else {
                        let names = fields.iter().map(|b| b.name.as_str());
                        return no_member(i, &t.name, "sub-field", n, names);
                    };
                    at.push(&b.name);
                    at.hops.push(Hop::Member(&b.name));
                    at.target = Target::Bits {
                        field: b,
                        repr: *repr,
                    };
                    if i + 1 < steps.len() {
                        return err(
                            i + 1,
                            format!("`{}` is a bit range, it has no members", at.path),
                        );
                    }
                    return Ok(at);
                }
                TypeKind::Struct { fields, .. } => {
                    let Some(n) = member_at(steps, i, &t.name, "struct")? else {
                        return Ok(at);
                    };
                    let Some(f) = fields.iter().find(|f| &f.name == n) else {
                        let names = fields.iter().map(|f| f.name.as_str());
                        return no_member(i, &t.name, "field", n, names);
                    };
                    self.enter(&mut at, f);
                    cur = Cur::Type(&f.ty);
                    i += 1;
                }
                TypeKind::Union {
                    discriminator,
                    variants,
                } => {
                    let Some(n) = member_at(steps, i, &t.name, "union")? else {
                        return Ok(at);
                    };
                    let d = &discriminator.name;
                    if n == d {
                        if let (Unions::Guarded, Some(first)) = (unions, variants.first()) {
                            at.hops.push(Hop::Arm {
                                name: &first.name,
                                implicit: true,
                            });
                        }
                    } else if let Some(vi) = variants.iter().position(|v| &v.name == n) {
                        let v = &variants[vi];
                        let union_path = at.path.clone();
                        at.push(&v.name);
                        at.hops.push(Hop::Arm {
                            name: &v.name,
                            implicit: false,
                        });
                        i += 1;
                        match (unions, steps.get(i)) {
                            (Unions::Guarded, Some(Step::Name(n2))) if n2 == d => {}
                            _ => {
                                at.arms.push(ArmAt {
                                    union: index,
                                    path: union_path,
                                    offset: at.offset,
                                    variant: vi,
                                });
                                cur = Cur::Arm(t, v);
                                continue;
                            }
                        }
                    } else {
                        let arms: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                        return err(
                            i,
                            format!(
                                "`{}` has no member `{n}` (discriminator `{d}`; arms: {})",
                                t.name,
                                arms.join(", ")
                            ),
                        );
                    }
                    self.enter(&mut at, discriminator);
                    cur = Cur::Type(&discriminator.ty);
                    i += 1;
                }
            }
        }
    }

    /// Steps into member `f` of the place `at` stands on.
    fn enter<'m>(&self, at: &mut Location<'m>, f: &'m Field) {
        at.push(&f.name);
        at.hops.push(Hop::Member(&f.name));
        at.offset += f.offset;
        at.codec = f.codec;
        at.target = Target::Type(&f.ty);
    }
}

// ---- the walk over every member ---------------------------------------------------------

/// A declared member: a struct or union field, or a bitfield sub-field.
#[derive(Debug, Clone, Copy)]
pub enum Member<'m> {
    Field(&'m Field),
    Bits(&'m BitField),
}

impl<'m> Member<'m> {
    pub fn name(self) -> &'m str {
        match self {
            Member::Field(f) => &f.name,
            Member::Bits(b) => &b.name,
        }
    }
    pub fn doc(self) -> &'m str {
        match self {
            Member::Field(f) => &f.doc,
            Member::Bits(b) => &b.doc,
        }
    }
    pub fn role(self) -> Role {
        match self {
            Member::Field(f) => f.role,
            Member::Bits(b) => b.role,
        }
    }
    pub fn confidence(self) -> &'m Confidence {
        match self {
            Member::Field(f) => &f.confidence,
            Member::Bits(b) => &b.confidence,
        }
    }
    /// As [`Field::claimed`].
    pub fn claimed(self) -> Option<&'m Confidence> {
        match self {
            Member::Field(f) => f.claimed(),
            Member::Bits(b) => b.claimed(),
        }
    }
    pub fn evidence(self) -> &'m [Evidence] {
        match self {
            Member::Field(f) => &f.evidence,
            Member::Bits(b) => &b.evidence,
        }
    }
    pub fn alternatives(self) -> &'m [Alternative] {
        match self {
            Member::Field(f) => &f.alternatives,
            Member::Bits(b) => &b.alternatives,
        }
    }
    pub fn type_name(self) -> String {
        match self {
            Member::Field(f) => f.ty.spelling(),
            Member::Bits(b) => b.type_name(),
        }
    }
    /// Identity of the declaration, to find where a declared member lands in words.
    pub fn id(self) -> *const () {
        match self {
            Member::Field(f) => f as *const Field as *const (),
            Member::Bits(b) => b as *const BitField as *const (),
        }
    }
}

/// A member where it lands in a word.
#[derive(Debug, Clone)]
pub struct Node<'m> {
    pub path: String,
    pub offset: usize,
    pub bits: Option<(u32, u32)>,
    pub member: Member<'m>,
    /// The type that declares the member.
    pub owner: &'m TypeDef,
}

/// A union arm where it lands in a word.
#[derive(Debug, Clone)]
pub struct Arm<'m> {
    /// `src_start_addr.addr_reg`.
    pub path: String,
    pub discriminator: &'m Field,
    pub variant: &'m Variant,
}

/// Every member of a word (containers included), every union arm, and the leaves, from
/// one walk. Arrays of named types are expanded only for data fields.
#[derive(Debug, Default)]
pub struct Walk<'m> {
    pub nodes: Vec<Node<'m>>,
    pub arms: Vec<Arm<'m>>,
    /// As [`Model::leaves`] returns them: in offset order, union arms one after another.
    pub leaves: Vec<Leaf<'m>>,
}

/// Where the leaves of one member go: the member's metadata slot, its absolute offset,
/// the union arm it is in and the members that hold it.
#[derive(Clone)]
struct LeafAt<'a, 'm> {
    slot: MetaSlot,
    offset: usize,
    variant: Option<&'a str>,
    within: Vec<Link<'m>>,
}

impl Model {
    /// Walks every member of `word`.
    pub fn walk<'m>(&'m self, word: &'m TypeDef) -> Walk<'m> {
        let mut w = Walk::default();
        if let TypeKind::Struct { fields, .. } = &word.kind {
            for (i, f) in fields.iter().enumerate() {
                let at = LeafAt {
                    slot: MetaSlot::field(&word.name, i),
                    offset: 0,
                    variant: None,
                    within: Vec::new(),
                };
                self.walk_field(&mut w, word, f, "", at);
            }
        }
        w
    }

    /// Walks member `f` of `owner`; `at` is where the owner lands (its offset) and the
    /// member's metadata slot.
    fn walk_field<'m>(
        &'m self,
        w: &mut Walk<'m>,
        owner: &'m TypeDef,
        f: &'m Field,
        prefix: &str,
        at: LeafAt<'_, 'm>,
    ) {
        let path = format!("{prefix}{}", f.name);
        let at = LeafAt {
            offset: at.offset + f.offset,
            ..at
        };
        w.nodes.push(Node {
            path: path.clone(),
            offset: at.offset,
            bits: None,
            member: Member::Field(f),
            owner,
        });
        let member = Link {
            path: path.clone(),
            slot: at.slot.clone(),
            confidence: &f.confidence,
            evidence: &f.evidence,
        };
        self.walk_type(w, f, &f.ty, path, &at, &member);
    }

    /// Walks the value of member `f` (whose place is `member`) as type `ty`.
    fn walk_type<'m>(
        &'m self,
        w: &mut Walk<'m>,
        f: &'m Field,
        ty: &TypeRef,
        path: String,
        at: &LeafAt<'_, 'm>,
        member: &Link<'m>,
    ) {
        let (offset, variant) = (at.offset, at.variant);
        let leaf = |path: String, size: usize, type_name: String| Leaf {
            path,
            offset,
            size,
            bits: None,
            type_name,
            doc: &f.doc,
            role: f.role,
            confidence: leaf_confidence(f.role, &at.within, member),
            alternatives: &f.alternatives,
            variant: variant.map(str::to_string),
            constant: f.constant,
            codec: f.codec,
            member: member.clone(),
            within: at.within.clone(),
        };
        // What the members inside this one are held by, and the place of one declared at `slot`.
        let inner = || {
            let mut within = at.within.clone();
            within.push(member.clone());
            within
        };
        let inside = |slot: MetaSlot| LeafAt {
            slot,
            within: inner(),
            ..at.clone()
        };
        match ty {
            TypeRef::Int { int } => w.leaves.push(leaf(path, int.size(), int.rust().into())),
            TypeRef::Ascii { len } => w.leaves.push(leaf(path, *len, ty.spelling())),
            TypeRef::Array { elem, len } => {
                if f.role != Role::Data || matches!(**elem, TypeRef::Int { .. }) {
                    w.leaves.push(leaf(path, self.size_of(ty), ty.spelling()));
                    return;
                }
                let esize = self.size_of(elem);
                for i in 0..*len {
                    let elem_at = LeafAt {
                        offset: offset + i * esize,
                        ..at.clone()
                    };
                    self.walk_type(w, f, elem, format!("{path}[{i}]"), &elem_at, member);
                }
            }
            TypeRef::Named { index, name } => {
                let t = &self.types[*index];
                match &t.kind {
                    TypeKind::Enum { .. } | TypeKind::Flags { .. } => {
                        w.leaves.push(leaf(path, t.size, name.clone()))
                    }
                    TypeKind::Bitfield { fields, .. } => {
                        let within = inner();
                        for (i, b) in fields.iter().enumerate() {
                            let path = format!("{path}.{}", b.name);
                            let member = Link {
                                path: path.clone(),
                                slot: MetaSlot::field(&t.name, i),
                                confidence: &b.confidence,
                                evidence: &b.evidence,
                            };
                            w.nodes.push(Node {
                                path: path.clone(),
                                offset,
                                bits: Some((b.lsb, b.width)),
                                member: Member::Bits(b),
                                owner: t,
                            });
                            w.leaves.push(Leaf {
                                path,
                                offset,
                                size: t.size,
                                bits: Some((b.lsb, b.width)),
                                type_name: b.type_name(),
                                doc: &b.doc,
                                role: b.role,
                                confidence: leaf_confidence(b.role, &within, &member),
                                alternatives: &b.alternatives,
                                variant: variant.map(str::to_string),
                                constant: b.constant,
                                codec: None,
                                member,
                                within: within.clone(),
                            });
                        }
                    }
                    TypeKind::Struct { fields, .. } => {
                        let prefix = format!("{path}.");
                        for (i, sub) in fields.iter().enumerate() {
                            let sub_at = inside(MetaSlot::field(&t.name, i));
                            self.walk_field(w, t, sub, &prefix, sub_at);
                        }
                    }
                    TypeKind::Union {
                        discriminator,
                        variants,
                    } => {
                        let prefix = format!("{path}.");
                        let slot = MetaSlot::Discriminator {
                            owner: t.name.clone(),
                        };
                        self.walk_field(w, t, discriminator, &prefix, inside(slot));
                        for v in variants {
                            let vname = format!("{path}.{}", v.name);
                            w.arms.push(Arm {
                                path: vname.clone(),
                                discriminator,
                                variant: v,
                            });
                            let vprefix = format!("{vname}.");
                            let arm = v.arm_type_name(&t.name);
                            let arm_fields = v.arm_fields(discriminator);
                            for sub in &v.fields {
                                let index = arm_fields
                                    .iter()
                                    .position(|a| a.name == sub.name)
                                    .expect("an arm's members are among its fields");
                                let at = LeafAt {
                                    variant: Some(&vname),
                                    ..inside(MetaSlot::field(&arm, index))
                                };
                                self.walk_field(w, t, sub, &vprefix, at);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Step;

    #[test]
    fn paths_read_names_and_indices() {
        let name = |s: &str| Step::Name(s.to_string());
        assert_eq!(
            Step::parse("a.b[1][2].c"),
            Ok(vec![
                name("a"),
                name("b"),
                Step::Index(1),
                Step::Index(2),
                name("c")
            ])
        );
        assert_eq!(
            Step::parse("a..b"),
            Err("empty name in path segment ``".to_string())
        );
        assert_eq!(Step::parse("a[1"), Err("unclosed `[` in `a[1`".to_string()));
        assert_eq!(
            Step::parse("a[x]"),
            Err("`x` in `a[x]` is not an index".to_string())
        );
        assert_eq!(
            Step::parse("a[1]b"),
            Err("unexpected `b` in `a[1]b`".to_string())
        );
    }
}
