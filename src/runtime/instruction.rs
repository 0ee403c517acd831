//! What every 64-byte instruction word shares. A word's generated code states its opcode,
//! its constants' template and its leaves; decoding, `new` and the constant check are
//! provided here once.

use super::DecodeError;
use super::layout::Packed;
use super::meta::{self, LeafMeta};

/// A 64-byte instruction word chosen by its opcode in byte 0.
pub trait Instruction: Packed<Bytes = [u8; 64]> {
    /// The opcode byte.
    const OPCODE: u8;
    /// The opcode and every constant laid into zero bytes (what [`Instruction::new`] reads).
    const TEMPLATE: [u8; 64];
    /// Every leaf of the word, in offset order.
    const LEAVES: &'static [LeafMeta];

    /// Decodes a word; fails only if byte 0 is not this word's opcode.
    #[inline]
    fn decode(b: &[u8; 64]) -> Result<Self, DecodeError> {
        check_opcode::<Self>(b)?;
        Ok(Self::read(b))
    }

    /// A word with the opcode and every constant set, everything else zero.
    #[inline]
    fn new() -> Self {
        Self::read(&Self::TEMPLATE)
    }

    /// Constants that differ in `b`: (leaf, expected, found).
    fn constant_mismatches(
        b: &[u8; 64],
    ) -> impl Iterator<Item = (&'static LeafMeta, u64, u64)> + '_ {
        meta::constant_mismatches(b, Self::LEAVES)
    }
}

/// `Ok` when byte 0 of `b` is `W`'s opcode, else [`DecodeError::WrongOpcode`].
#[inline]
pub fn check_opcode<W: Instruction>(b: &[u8; 64]) -> Result<(), DecodeError> {
    match b[0] == W::OPCODE {
        true => Ok(()),
        false => Err(DecodeError::WrongOpcode {
            expected: W::OPCODE,
            found: b[0],
            name: W::NAME,
        }),
    }
}
