//! What every type with validity rules shares: the generated code states its rules and
//! the predicate that decides them on its bytes ([`Checked::rule_truths`]); checking the
//! bytes and validating a value are provided here once.

use super::layout::Packed;
use super::rules::{RuleMeta, RuleTree, Violations};

/// A type the sources give validity rules.
pub trait Checked: Packed {
    /// The architecture a rule may be limited to (the generated `Arch`).
    type Arch: Copy;
    /// Its rules, in spec order.
    const RULES: &'static [RuleMeta];
    /// The rules' tree, computed once at compile time.
    const TREE: RuleTree = RuleTree::of(Self::RULES);

    /// Bit `i` of the first set when `RULES[i]` holds on `b` for `arch` (rules limited to
    /// other architectures hold, and so do the predicates the sources name without a
    /// body); of the second, the same with the alternatives of an `Any` that the sources
    /// name without a body taken not to hold: a rule the second leaves unset that the
    /// first sets is undecided. Both from one read of the fields.
    fn rule_truths(b: &Self::Bytes, arch: Self::Arch) -> (u64, u64);

    /// The first of [`rule_truths`](Self::rule_truths).
    #[inline]
    fn rule_truth(b: &Self::Bytes, arch: Self::Arch) -> u64 {
        Self::rule_truths(b, arch).0
    }

    /// The second of [`rule_truths`](Self::rule_truths).
    #[inline]
    fn rule_truth_known(b: &Self::Bytes, arch: Self::Arch) -> u64 {
        Self::rule_truths(b, arch).1
    }

    /// The violations of these bytes for `arch` (empty when valid), and the rules left
    /// undecided.
    #[inline]
    fn check_rules(b: &Self::Bytes, arch: Self::Arch) -> Violations {
        let (truth, known) = Self::rule_truths(b, arch);
        Violations::decide(Self::NAME, Self::RULES, &Self::TREE, truth, known)
    }

    /// Checks every rule for `arch`; the error lists every violated rule. An undecided
    /// value ([`Violations::verdict`]) is no error: nothing it breaks is known.
    #[inline]
    fn validate(&self, arch: Self::Arch) -> Result<(), Violations> {
        Self::check_rules(&self.encode(), arch).into_result()
    }
}
