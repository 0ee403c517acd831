//! What every type with validity rules shares: the generated code states its rules and
//! the predicate that decides them on its bytes ([`Checked::rule_truth`]); checking the
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

    /// Bit `i` set when `RULES[i]` holds on `b` for `arch` (rules limited to other
    /// architectures hold).
    fn rule_truth(b: &Self::Bytes, arch: Self::Arch) -> u64;

    /// The violations of these bytes for `arch` (empty when valid).
    #[inline]
    fn check_rules(b: &Self::Bytes, arch: Self::Arch) -> Violations {
        Violations::decide(
            Self::NAME,
            Self::RULES,
            &Self::TREE,
            Self::rule_truth(b, arch),
        )
    }

    /// Checks every rule for `arch`; the error lists every violated rule.
    #[inline]
    fn validate(&self, arch: Self::Arch) -> Result<(), Violations> {
        Self::check_rules(&self.encode(), arch).into_result()
    }
}
