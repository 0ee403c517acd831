//! Limits that keep every later walk of the model finite and shallow: no array larger than
//! the bytes it sits in (so no size overflows and nothing is expanded element by element
//! before it is known to fit), a bounded number of array dimensions, no type that contains
//! itself, and a bounded depth of types inside types.

use crate::model::{Field, Int, TypeDef, TypeKind, TypeRef};

/// An instruction word's size: the room of an opcode-bound struct's members, whatever its
/// (then wrong) declared size.
pub const WORD_SIZE: usize = 64;

/// At most this many dimensions in one array type (`u8[2][3]` has two).
pub const MAX_ARRAY_DIMENSIONS: usize = 8;

/// At most this many levels of named types, the outermost included: a word whose field is
/// a struct whose field is a bitfield is three levels.
pub const MAX_TYPE_DEPTH: usize = 16;

/// The bytes a member's type must fit in.
pub(super) struct Room {
    pub size: usize,
    /// `64-byte word `W``, `4-byte struct `S``, `2-byte field `x``.
    what: String,
}

impl Room {
    pub fn of(kind: &str, size: usize, name: &str) -> Room {
        Room {
            size,
            what: format!("{size}-byte {kind} `{name}`"),
        }
    }

    /// An error unless `len` elements of `elem` bytes fit. A zero-byte element counts as
    /// one byte, so that no array has more elements than its room has bytes.
    pub fn array_fits(&self, len: usize, elem: usize) -> Result<(), String> {
        match elem.max(1).checked_mul(len) {
            Some(bytes) if bytes <= self.size => Ok(()),
            _ => Err(format!(
                "array of {len} elements ({elem} bytes each) is larger than the {}",
                self.what
            )),
        }
    }
}

/// An error when `text` (an array type) has more than [`MAX_ARRAY_DIMENSIONS`].
pub(super) fn array_dimensions(text: &str) -> Result<(), String> {
    let n = text.matches('[').count();
    if n > MAX_ARRAY_DIMENSIONS {
        return Err(format!(
            "`{text}` has {n} array dimensions; at most {MAX_ARRAY_DIMENSIONS} are allowed"
        ));
    }
    Ok(())
}

/// The named type an array or named type reference ends in.
fn named(mut t: &TypeRef) -> Option<usize> {
    loop {
        match t {
            TypeRef::Named { index, .. } => return Some(*index),
            TypeRef::Array { elem, .. } => t = elem,
            TypeRef::Int { .. } | TypeRef::Ascii { .. } => return None,
        }
    }
}

fn members_mut(t: &mut TypeDef) -> Vec<&mut Field> {
    match &mut t.kind {
        TypeKind::Struct { fields, .. } => fields.iter_mut().collect(),
        TypeKind::Union {
            discriminator,
            variants,
        } => std::iter::once(discriminator)
            .chain(variants.iter_mut().flat_map(|v| v.fields.iter_mut()))
            .collect(),
        _ => Vec::new(),
    }
}

/// `(member type, member name)` of every member of a named type.
fn children(types: &mut [TypeDef], t: usize) -> Vec<(usize, String)> {
    let n = types.len();
    members_mut(&mut types[t])
        .into_iter()
        .filter_map(|f| named(&f.ty).map(|c| (c, f.name.clone())))
        .filter(|(c, _)| *c < n)
        .collect()
}

fn bytes(len: usize) -> TypeRef {
    TypeRef::Array {
        elem: Box::new(TypeRef::Int { int: Int::U8 }),
        len,
    }
}

/// Makes member `name` of type `t` plain bytes (same size), so that the rest of the
/// loader can walk the model of a spec that is already in error.
fn cut(types: &mut [TypeDef], t: usize, name: &str) {
    for f in members_mut(&mut types[t]) {
        if f.name == name {
            f.ty = bytes(f.size);
        }
    }
}

/// Truncates a member that runs past its owner's `room` bytes (the tiling check reported
/// it) to the bytes of the owner it covers, so that the rest of the loader can walk the
/// model of a spec in error without overflowing an offset or expanding a huge type.
pub(super) fn fit(f: &mut Field, room: usize) {
    if f.offset.checked_add(f.size).is_some_and(|end| end <= room) {
        return;
    }
    f.offset = f.offset.min(room);
    f.size = room - f.offset;
    f.ty = bytes(f.size);
}

/// Finds types that contain themselves and types nested deeper than [`MAX_TYPE_DEPTH`];
/// returns (type index, message) for each and cuts the offending member to bytes.
/// Iterative, so that a long chain of types cannot exhaust the stack here either.
pub(super) fn check_types(types: &mut [TypeDef]) -> Vec<(usize, String)> {
    let mut errors = Vec::new();
    // 0: not seen, 1: on the path, 2: done.
    let mut state = vec![0u8; types.len()];
    let mut order = Vec::new();
    for root in 0..types.len() {
        if state[root] != 0 {
            continue;
        }
        let mut path: Vec<(usize, Vec<(usize, String)>)> = Vec::new();
        state[root] = 1;
        let kids = children(types, root);
        path.push((root, kids));
        while let Some((t, kids)) = path.last_mut() {
            let t = *t;
            let Some((c, name)) = kids.pop() else {
                state[t] = 2;
                order.push(t);
                path.pop();
                continue;
            };
            match state[c] {
                0 => {
                    state[c] = 1;
                    let kids = children(types, c);
                    path.push((c, kids));
                }
                1 => {
                    let from = path.iter().position(|(p, _)| *p == c).unwrap_or(0);
                    let chain: Vec<&str> = path[from..]
                        .iter()
                        .map(|(p, _)| types[*p].name.as_str())
                        .chain([types[c].name.as_str()])
                        .collect();
                    errors.push((
                        t,
                        format!(
                            "field `{name}` of `{}` makes `{}` contain itself ({}): a type \
                             cannot hold a value of its own type",
                            types[t].name,
                            types[c].name,
                            chain.join(" > ")
                        ),
                    ));
                    cut(types, t, &name);
                }
                _ => {}
            }
        }
    }
    // `order` lists members before their owners. A member that would take its owner past
    // the limit is cut there, so a long chain is cut once every MAX_TYPE_DEPTH levels.
    let mut depth = vec![1usize; types.len()];
    for t in order {
        for (c, name) in children(types, t) {
            if depth[c] < MAX_TYPE_DEPTH {
                depth[t] = depth[t].max(depth[c] + 1);
                continue;
            }
            errors.push((
                t,
                format!(
                    "`{}` nests types more than {MAX_TYPE_DEPTH} levels deep (through field \
                     `{name}`): at most {MAX_TYPE_DEPTH} levels of types inside types",
                    types[t].name
                ),
            ));
            cut(types, t, &name);
        }
    }
    errors
}
