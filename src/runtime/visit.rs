//! Walking a decoded word field by field, for printers and serialisers. The walk needs no
//! allocation, so it works in `no_std`.

use super::meta::{FieldMeta, FlagMeta, JoinMeta};

/// What kind of composite a field opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Struct,
    Array,
    Bitfield,
    /// A union; the discriminator comes first, then the chosen arm as a `Struct`.
    Union,
}

/// A leaf value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    Unsigned(u64),
    Signed(i64),
    /// `name` is `None` when the value is not an enumerator (in the chosen architecture).
    Enum {
        raw: u64,
        name: Option<&'static str>,
    },
    Flags {
        raw: u64,
        bits: &'static [FlagMeta],
    },
    /// A fixed-length NUL-padded ASCII field, all its bytes.
    Text(&'a [u8]),
}

impl Value<'_> {
    /// The names of the set bits of a flag value, in bit order.
    pub fn flag_names(&self) -> impl Iterator<Item = &'static str> {
        let (raw, bits): (u64, &'static [FlagMeta]) = match *self {
            Value::Flags { raw, bits } => (raw, bits),
            _ => (0, &[]),
        };
        bits.iter()
            .filter(move |b| raw >> b.bit & 1 == 1)
            .map(|b| b.name)
    }

    /// Bits set in a flag value that no flag names.
    pub fn unnamed_flag_bits(&self) -> u64 {
        match *self {
            Value::Flags { raw, bits } => bits.iter().fold(raw, |r, b| r & !(1 << b.bit)),
            _ => 0,
        }
    }
}

/// Receives a word's fields in offset order. `offset` is absolute within the word.
pub trait Visitor {
    fn enter(&mut self, field: &'static FieldMeta, offset: usize, group: Group);
    fn leave(&mut self, group: Group);
    fn value(&mut self, field: &'static FieldMeta, offset: usize, value: Value<'_>);
    /// A logical value stored across several fields (those are visited too); `offset` is
    /// the struct's. Ignored unless a visitor wants it.
    fn joined(&mut self, join: &'static JoinMeta, offset: usize, value: u64) {
        let _ = (join, offset, value);
    }
}
