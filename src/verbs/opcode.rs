//! What the spec knows of an opcode byte: its `OPCODE` enumerator, and whether it names an
//! operation outside the spec's family.

use crate::Arch;
use crate::runtime::meta::EnumeratorMeta;
use crate::words::{WORDS, enumerators};

/// The `OPCODE` enumerator with value `op`, if any.
pub fn opcode_enumerator(op: u8) -> Option<&'static EnumeratorMeta> {
    enumerators("OPCODE")?
        .iter()
        .find(|e| e.value == u64::from(op))
}

/// The shipped header's name for the opcode byte that is no operation (0xff).
const NO_OPERATION: &str = "INVALID";

/// The `OPCODE` enumerator of an operation outside the spec's family in `arch`: named for
/// `arch` (or every architecture), an operation (not `INVALID`), and laid out by no word.
pub fn outside_family(op: u8, arch: Arch) -> Option<&'static EnumeratorMeta> {
    let e = opcode_enumerator(op)?;
    let named = e.arch.is_empty() || e.arch.contains(&arch.name());
    let operation = e.name != NO_OPERATION;
    (named && operation && !WORDS.iter().any(|w| w.opcode == op)).then_some(e)
}
