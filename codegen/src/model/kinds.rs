//! The registry of spec kinds: every kind of item the spec declares, listed once.
//!
//! A kind is a marker type implementing [`Kind`] (where its items sit in the [`Model`],
//! what they are called). A consumer that needs something of every kind — `diff`'s
//! comparison, `audit`'s table targets, the lints' evidence members — declares its own trait
//! with required methods (no default bodies), implements it for each marker, and iterates
//! the list with `for_each_kind!`: a kind added to the list that a consumer does not
//! implement is a compile error there ("the trait bound `NewKind: Compared` is not
//! satisfied"), never a silent skip. The consumers' traits live with the consumers, so this
//! layer names none of them.
//!
//! Emitters do not iterate the registry yet; each renders its kinds by hand. An emitter
//! joins by declaring `trait Emitted { fn render(...) }` the same way.

use super::Model;
use super::addrmap::AddrMap;
use super::gaps::Gap;
use super::klr::KlrLeaf;
use super::lowering::Lowering;
use super::registers::RegFile;
use super::words::{Conflict, TypeDef};

/// One kind of spec item.
pub trait Kind {
    /// What a report calls one item of the kind (`"word"`, `"register file"`).
    const NOUN: &'static str;
    /// One item as the model holds it.
    type Item;
    /// Every item of the kind in `model`, in spec order.
    fn items(model: &Model) -> Vec<&Self::Item>;
    /// The item's name, unique within its kind.
    fn name(item: &Self::Item) -> &str;
    /// The spec file that declares it, relative to the spec root.
    fn file(item: &Self::Item) -> &str;
}

/// Calls `$callback!(($args…) Words, Records, …)`, each kind by its full path, in registry
/// order: the one list of kinds. A consumer's callback names a trait each must implement.
/// `for_each_kind!(callback!(args) + Toy)` appends more kinds (a test's toy kind).
macro_rules! for_each_kind {
    ($callback:ident!($($args:tt)*) $(+ $more:ty)*) => {
        $callback!(($($args)*)
            $crate::model::kinds::Words,
            $crate::model::kinds::Records,
            $crate::model::kinds::SharedTypes,
            $crate::model::kinds::RegFiles,
            $crate::model::kinds::KlrLeaves,
            $crate::model::kinds::Lowerings,
            $crate::model::kinds::Conflicts,
            $crate::model::kinds::Gaps,
            $crate::model::kinds::AddrMaps
            $(, $more)*)
    };
}
pub(crate) use for_each_kind;

/// Top-level 64-byte words (structs bound to an opcode).
pub struct Words;
/// Structs decoded on their own (`top_level = true`).
pub struct Records;
/// Every other named type: nested structs, unions, bitfields, enums, flags.
pub struct SharedTypes;
/// `[[regfile]]`s.
pub struct RegFiles;
/// Seed 003's KLR→BIR leaves.
pub struct KlrLeaves;
/// Pseudo-word lowerings.
pub struct Lowerings;
/// `[[conflict]]`s.
pub struct Conflicts;
/// `[[gap]]`s.
pub struct Gaps;
/// `[[addrmap]]`s, one per architecture.
pub struct AddrMaps;

/// `impl Kind` for a kind whose items have `name` and `file` fields.
macro_rules! kind {
    ($kind:ident, $noun:literal, $item:ty, |$model:ident| $items:expr) => {
        impl Kind for $kind {
            const NOUN: &'static str = $noun;
            type Item = $item;
            fn items($model: &Model) -> Vec<&$item> {
                $items
            }
            fn name(item: &$item) -> &str {
                &item.name
            }
            fn file(item: &$item) -> &str {
                &item.file
            }
        }
    };
}

kind! { Words, "word", TypeDef, |model| model.words().collect() }
kind! { Records, "record", TypeDef, |model| model.records().collect() }
kind! { SharedTypes, "type", TypeDef, |model| {
    let shared = |t: &&TypeDef| t.opcode().is_none() && !t.is_record();
    model.types.iter().filter(shared).collect()
} }
kind! { RegFiles, "register file", RegFile, |model| model.regfiles.iter().collect() }
kind! { KlrLeaves, "klr leaf", KlrLeaf, |model| model.klr.leaves.iter().collect() }
kind! { Lowerings, "lowering", Lowering, |model| model.lowerings.iter().collect() }
kind! { Conflicts, "conflict", Conflict, |model| model.conflicts.iter().collect() }
kind! { Gaps, "gap", Gap, |model| model.gaps.iter().collect() }

impl Kind for AddrMaps {
    const NOUN: &'static str = "address map";
    type Item = AddrMap;
    fn items(model: &Model) -> Vec<&AddrMap> {
        model.addrmaps.iter().collect()
    }
    fn name(item: &AddrMap) -> &str {
        &item.arch
    }
    fn file(item: &AddrMap) -> &str {
        &item.file
    }
}

macro_rules! nouns {
    (() $($kind:ty),*) => { &[$(<$kind as Kind>::NOUN),*] };
}

/// Every kind's noun, in registry order.
pub const NOUNS: &[&str] = for_each_kind!(nouns!());

/// One item found by name: its kind's noun and its spec file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found<'m> {
    pub kind: &'static str,
    pub name: &'m str,
    pub file: &'m str,
}

macro_rules! named {
    (($model:expr, $name:expr, $out:expr) $($kind:ty),*) => {
        $(
            for item in <$kind as Kind>::items($model) {
                if <$kind as Kind>::name(item) == $name {
                    $out.push(Found {
                        kind: <$kind as Kind>::NOUN,
                        name: <$kind as Kind>::name(item),
                        file: <$kind as Kind>::file(item),
                    });
                }
            }
        )*
    };
}

impl Model {
    /// The items of kind `K`, in spec order.
    pub fn items<K: Kind>(&self) -> Vec<&K::Item> {
        K::items(self)
    }

    /// The item of kind `K` named `name`.
    pub fn find<K: Kind>(&self, name: &str) -> Option<&K::Item> {
        K::items(self).into_iter().find(|i| K::name(i) == name)
    }

    /// Every item of every kind named `name` (a word and a lowering may share one).
    pub fn named(&self, name: &str) -> Vec<Found<'_>> {
        let mut out = Vec::new();
        for_each_kind!(named!(self, name, out));
        out
    }
}
