//! Every kind of the registry ([`crate::model::kinds`]) compared: a kind without a
//! [`Compared`] implementation does not compile in [`super::diff`].

use super::change::{Change, Cx};
use super::{items, klr, lowering, registers, types};
use crate::model::Model;
use crate::model::kinds::*;

/// How a kind's items are compared between two specs.
pub(crate) trait Compared: Kind {
    /// Every change of the kind's items from `old` to `new`.
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change>;
}

/// Extends `$out` with every listed kind's changes.
macro_rules! compare {
    (($cx:expr, $old:expr, $new:expr, $out:expr) $($kind:ty),*) => {
        $( $out.extend(<$kind as $crate::diff::kinds::Compared>::changes($cx, $old, $new)); )*
    };
}
pub(crate) use compare;

/// A type kind's layouts and rules.
fn types_and_rules<K: Kind<Item = crate::model::TypeDef>>(
    cx: &Cx,
    old: &Model,
    new: &Model,
) -> Vec<Change> {
    let (olds, news) = (K::items(old), K::items(new));
    let mut out = types::types(cx, (old, new), &olds, &news);
    out.extend(items::rules(cx, (old, new), &news));
    out
}

impl Compared for Words {
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        let mut out = types_and_rules::<Self>(cx, old, new);
        out.extend(items::opcodes(old, new));
        out
    }
}

impl Compared for Records {
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        types_and_rules::<Self>(cx, old, new)
    }
}

impl Compared for SharedTypes {
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        types_and_rules::<Self>(cx, old, new)
    }
}

impl Compared for RegFiles {
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        registers::regfiles(cx, &Self::items(old), &Self::items(new))
    }
}

impl Compared for KlrLeaves {
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        klr::klr(cx, &old.klr, &new.klr)
    }
}

impl Compared for Lowerings {
    fn changes(cx: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        lowering::lowerings(cx, &Self::items(old), &Self::items(new))
    }
}

impl Compared for Conflicts {
    fn changes(_: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        items::conflicts(old, new)
    }
}

impl Compared for AddrMaps {
    fn changes(_: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        items::addrmaps(old, new)
    }
}

impl Compared for Gaps {
    fn changes(_: &Cx, old: &Model, new: &Model) -> Vec<Change> {
        items::gaps(old, new)
    }
}
