//! Questions asked of the whole [`Model`]: lookups by name and index, the leaves and bytes
//! of a word, the rules of a type. They sit above the sub-models, which hold data only.

use super::Model;
use super::registers;
use super::rules::{RuleKind, RuleSet};
use super::words::*;

impl Model {
    pub fn ty(&self, index: usize) -> &TypeDef {
        &self.types[index]
    }

    pub fn type_by_name(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name == name)
    }

    pub fn size_of(&self, ty: &TypeRef) -> usize {
        match ty {
            TypeRef::Int { int } => int.size(),
            TypeRef::Named { index, .. } => self.types[*index].size,
            // The loader bounds every array by its owner; saturate on a model in error.
            TypeRef::Array { elem, len } => self.size_of(elem).saturating_mul(*len),
            TypeRef::Ascii { len } => *len,
        }
    }

    /// The top-level words (structs bound to an opcode), in spec order.
    pub fn words(&self) -> impl Iterator<Item = &TypeDef> {
        self.types.iter().filter(|t| t.opcode().is_some())
    }

    /// The records (top-level structs without an opcode), in spec order.
    pub fn records(&self) -> impl Iterator<Item = &TypeDef> {
        self.types.iter().filter(|t| t.is_record())
    }

    pub fn arch_names(&self) -> Vec<&str> {
        self.archs.iter().map(|a| a.name.as_str()).collect()
    }

    /// Leaves of a word in offset order; union arms are listed one after another.
    pub fn leaves<'m>(&'m self, word: &'m TypeDef) -> Vec<Leaf<'m>> {
        self.walk(word).leaves
    }
}

/// Helpers for the documentation targets: per-byte coverage and the architectures a word
/// really ships on.
impl Model {
    /// Classifies every byte of `word` from [`Model::leaves`]. A bitfield sub-field touches
    /// only the bytes of its container that its bit range spans; a union byte sees every
    /// arm. Unknown wins over everything, then the weakest data level, then reserved. A data
    /// byte counts at its leaf's [`Leaf::confidence`], the weakest along the members holding it.
    pub fn byte_coverage(&self, word: &TypeDef) -> Vec<ByteClass> {
        let size = word.size;
        let mut covered = vec![false; size];
        let mut unknown = vec![false; size];
        let mut data: Vec<Option<usize>> = vec![None; size];
        for leaf in self.leaves(word) {
            let range = match leaf.bits {
                Some((lsb, width)) => {
                    let last = lsb + width.max(1) - 1;
                    leaf.offset + (lsb / 8) as usize..leaf.offset + (last / 8) as usize + 1
                }
                None => leaf.offset..leaf.offset + leaf.size,
            };
            for b in range.filter(|&b| b < size) {
                covered[b] = true;
                match leaf.role {
                    Role::Unknown => unknown[b] = true,
                    Role::Reserved => {}
                    Role::Data => {
                        if let Some(c) = leaf.confidence {
                            data[b] = Some(data[b].map_or(c.rank, |r| r.max(c.rank)));
                        }
                    }
                }
            }
        }
        (0..size)
            .map(|b| match data[b] {
                _ if unknown[b] || !covered[b] => ByteClass::Unknown,
                Some(rank) => ByteClass::Data { rank },
                None => ByteClass::Reserved,
            })
            .collect()
    }

    /// The fields of struct `t` that leave some leaf they hold less sure than the leaf's own
    /// member says (MOVE_SHAPE's STRONG `header` over HEADER's HIGH/OBSERVED fields).
    pub fn capping_fields<'m>(&'m self, t: &'m TypeDef) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for leaf in self.leaves(t) {
            let (Some(c), Some(top)) = (leaf.confidence, leaf.within.first()) else {
                continue;
            };
            if std::ptr::eq(c, top.confidence)
                && c.rank > leaf.member.confidence.rank
                && !out.contains(&top.path)
            {
                out.push(top.path.clone());
            }
        }
        out
    }

    /// The `OPCODE` enumerator a word is bound to.
    pub fn opcode_enumerator(&self, word: &TypeDef) -> Option<&Enumerator> {
        let op = word.opcode()?;
        match &self.type_by_name("OPCODE")?.kind {
            TypeKind::Enum { values, .. } => values.iter().find(|e| e.name == op.enumerator),
            _ => None,
        }
    }

    /// Architectures a word ships on: those its struct lists that its opcode enumerator
    /// also has (an enumerator without `arch` exists everywhere), in `archs` order.
    pub fn word_archs(&self, word: &TypeDef) -> Vec<&str> {
        let TypeKind::Struct { arch, .. } = &word.kind else {
            return Vec::new();
        };
        let restrict = self.opcode_enumerator(word).map(|e| &e.arch);
        self.archs
            .iter()
            .map(|a| a.name.as_str())
            .filter(|a| arch.iter().any(|x| x == a))
            .filter(|a| restrict.is_none_or(|r| r.is_empty() || r.iter().any(|x| x == a)))
            .collect()
    }
}

impl Model {
    /// The rules of type `index`, if it has any.
    pub fn rule_set(&self, index: usize) -> Option<&RuleSet> {
        self.rules.sets.iter().find(|s| s.owner == index)
    }

    /// The rules of the type named `name`, if it has any.
    pub fn rule_set_of(&self, name: &str) -> Option<&RuleSet> {
        self.rules.sets.iter().find(|s| s.owner_name == name)
    }
}

impl RuleSet {
    /// Truth of every rule on `bytes` (bit `i` set = rule `i` holds): the reference
    /// semantics of the generated `rule_truth` functions.
    pub fn truth(&self, model: &Model, bytes: &[u8], nc: i64) -> u64 {
        let mut t = 0u64;
        for i in self.post_order() {
            let r = &self.rules[i];
            let applies = self
                .applies(&model.archs, i)
                .is_none_or(|c| c.eval(&model.rules, bytes, nc) != 0);
            let holds = match &r.kind {
                RuleKind::Expr { expr, .. } => expr.eval(&model.rules, bytes, nc) != 0,
                RuleKind::NotEnforced => true,
                RuleKind::All { parts } => parts.iter().all(|&p| t >> p & 1 == 1),
                RuleKind::Any { parts } => parts.iter().any(|&p| t >> p & 1 == 1),
            };
            if !applies || holds {
                t |= 1 << i;
            }
        }
        t
    }
}

impl Model {
    /// Looks up `FILE.BUNDLE.register[.field]` (a bundle index such as `M2S_Q[3]` is
    /// allowed and ignored).
    pub fn register_path(&self, path: &str) -> Option<registers::RegPath<'_>> {
        let mut parts = path.split('.');
        let (f, b, r) = (parts.next()?, parts.next()?, parts.next()?);
        let field = parts.next();
        if parts.next().is_some() {
            return None;
        }
        let b = b.split_once('[').map_or(b, |(n, _)| n);
        let file = self.regfiles.iter().find(|x| x.name == f)?;
        let bundle = file.bundles.iter().find(|x| x.name == b)?;
        let regs: Vec<&registers::Register> =
            bundle.registers.iter().filter(|x| x.name == r).collect();
        let fields: Vec<&registers::RegField> = match field {
            Some(n) => (regs.iter())
                .flat_map(|x| x.fields.iter().filter(|y| y.name == n))
                .collect(),
            None => Vec::new(),
        };
        let found = !regs.is_empty() && (field.is_none() || !fields.is_empty());
        found.then_some(registers::RegPath {
            file,
            bundle,
            registers: regs,
            fields,
        })
    }
}
