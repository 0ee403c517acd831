//! Which items of every kind of the registry ([`crate::model::kinds`]) a table can
//! describe: a kind without a [`Tabled`] implementation does not compile in
//! [`super::audit_page`].

use super::items::key;
use super::places::{Place, places};
use super::targets::Target;
use crate::model::kinds::*;
use crate::model::registers::{BundleView, RegFile, RegFileView, RegisterView};
use crate::model::{Evidence, Model, TypeDef, TypeKind};

/// The byte or bit maps of a kind's items.
pub(crate) trait Tabled: Kind {
    /// Every item of the kind in `model` a table may lay out.
    fn targets(model: &Model) -> Vec<Target<'_>>;
}

/// Collects every listed kind's targets.
macro_rules! tabled {
    (($model:expr, $out:expr) $($kind:ty),*) => {
        $( $out.extend(<$kind as $crate::audit::kinds::Tabled>::targets($model)); )*
    };
}
pub(crate) use tabled;

/// The names a type goes by: its own and C names, its aliases, its opcode enumerator's.
fn type_keys(model: &Model, t: &TypeDef) -> Vec<String> {
    let mut names = vec![t.name.clone(), t.c_name.clone()];
    if let TypeKind::Struct { aliases, .. } = &t.kind {
        names.extend(
            aliases
                .iter()
                .flat_map(|a| [a.name.clone(), a.c_name.clone()]),
        );
    }
    if let Some(e) = model.opcode_enumerator(t) {
        names.push(e.name.clone());
        names.extend(e.aliases.iter().map(|a| a.name.clone()));
    }
    names.iter().map(|n| key(n)).collect()
}

/// The type's evidence and its own members'.
fn type_evidence(t: &TypeDef) -> Vec<&[Evidence]> {
    let members: Vec<&[Evidence]> = match &t.kind {
        TypeKind::Struct { fields, .. } => fields.iter().map(|f| f.evidence.as_slice()).collect(),
        TypeKind::Bitfield { fields, .. } => fields.iter().map(|f| f.evidence.as_slice()).collect(),
        TypeKind::Union {
            discriminator,
            variants,
        } => std::iter::once(discriminator)
            .chain(variants.iter().flat_map(|v| &v.fields))
            .map(|f| f.evidence.as_slice())
            .collect(),
        TypeKind::Enum { .. } | TypeKind::Flags { .. } => Vec::new(),
    };
    std::iter::once(t.evidence.as_slice())
        .chain(members)
        .collect()
}

/// A kind's structs, unions and bitfields: the byte and bit maps among its types.
fn type_targets<K: Kind<Item = TypeDef>>(model: &Model) -> Vec<Target<'_>> {
    let laid_out = |t: &&TypeDef| {
        matches!(
            t.kind,
            TypeKind::Struct { .. } | TypeKind::Union { .. } | TypeKind::Bitfield { .. }
        )
    };
    (K::items(model).into_iter().filter(laid_out))
        .map(|t| Target {
            name: t.name.clone(),
            arch: None,
            keys: type_keys(model, t),
            opcode: t.opcode().map(|o| u64::from(o.value)),
            bits: t.size as u64 * 8,
            evidence: type_evidence(t),
            alternatives: match &t.kind {
                TypeKind::Struct { alternatives, .. } => alternatives,
                _ => &[],
            },
            places: places(model, t),
        })
        .collect()
}

impl Tabled for Words {
    fn targets(model: &Model) -> Vec<Target<'_>> {
        type_targets::<Self>(model)
    }
}

impl Tabled for Records {
    fn targets(model: &Model) -> Vec<Target<'_>> {
        type_targets::<Self>(model)
    }
}

impl Tabled for SharedTypes {
    fn targets(model: &Model) -> Vec<Target<'_>> {
        type_targets::<Self>(model)
    }
}

/// A bundle as a register table lays it out: registers at byte offsets from its base.
fn bundle<'m>(file: &'m RegFile, arch: Option<&'m str>, b: &BundleView<'m>) -> Target<'m> {
    let places = (b.registers.iter())
        .map(|r| Place {
            path: r.register.name.clone(),
            start: r.register.offset.saturating_mul(8),
            width: u64::from(r.register.width),
            type_name: format!("u{}", r.register.width),
            c_type: None,
            evidence: &r.register.evidence,
            alternatives: &[],
            access: Some(r.register.access),
            reset: r.register.reset,
        })
        .collect();
    let mut evidence = vec![b.bundle.evidence.as_slice()];
    evidence.extend(b.registers.iter().map(|r| r.register.evidence.as_slice()));
    Target {
        name: format!("{}.{}", file.name, b.bundle.name),
        arch,
        keys: vec![key(&b.bundle.name)],
        opcode: None,
        bits: b.bundle.size.saturating_mul(8),
        evidence,
        alternatives: &[],
        places,
    }
}

/// A register as a bit table lays it out: fields by bit range.
fn register<'m>(
    file: &'m RegFile,
    arch: Option<&'m str>,
    b: &BundleView<'m>,
    r: &RegisterView<'m>,
) -> Target<'m> {
    let places = (r.fields.iter())
        .map(|f| Place {
            path: f.name.clone(),
            start: u64::from(f.lsb),
            width: u64::from(f.width),
            type_name: f
                .enum_type
                .clone()
                .unwrap_or_else(|| format!("u{}", f.width)),
            c_type: None,
            evidence: &f.evidence,
            alternatives: &f.alternatives,
            access: Some(f.access),
            reset: f.reset,
        })
        .collect();
    let mut evidence = vec![r.register.evidence.as_slice()];
    evidence.extend(r.fields.iter().map(|f| f.evidence.as_slice()));
    Target {
        name: format!("{}.{}.{}", file.name, b.bundle.name, r.register.name),
        arch,
        keys: vec![key(&r.register.name)],
        opcode: None,
        bits: u64::from(r.register.width),
        evidence,
        alternatives: &[],
        places,
    }
}

/// Each layout of a file: one for a file every generation lays out alike, else one per
/// architecture (a page gives one generation's registers).
fn layouts(file: &RegFile) -> Vec<(Option<&str>, RegFileView<'_>)> {
    if file.arch_invariant() {
        file.archs
            .first()
            .map(|a| (None, file.view(a)))
            .into_iter()
            .collect()
    } else {
        file.views().map(|v| (Some(v.arch), v)).collect()
    }
}

impl Tabled for RegFiles {
    fn targets(model: &Model) -> Vec<Target<'_>> {
        let mut out = Vec::new();
        for file in Self::items(model) {
            for (arch, view) in layouts(file) {
                for b in &view.bundles {
                    out.push(bundle(file, arch, b));
                    out.extend(b.registers.iter().map(|r| register(file, arch, b, r)));
                }
            }
        }
        out
    }
}

/// A klr leaf is a list of steps, a lowering a list of mappings, a conflict or gap a
/// record about other items, an address map a list of windows: none is a byte or bit map
/// a table rows out.
macro_rules! no_table {
    ($($kind:ty),*) => {
        $(
            impl Tabled for $kind {
                fn targets(_: &Model) -> Vec<Target<'_>> {
                    Vec::new()
                }
            }
        )*
    };
}
no_table!(KlrLeaves, Lowerings, Conflicts, Gaps, AddrMaps);
