//! Records: structs the spec declares `top_level` (a 16-byte SDMA ring descriptor), decoded
//! on their own rather than inside a 64-byte word. The generated code is thin: each record
//! states its [`RecordMeta`]; [`TopLevel`] decodes it from the front of a slice.

use super::DecodeError;
use super::layout::Packed;
use super::meta::{FieldMeta, LeafMeta};
use super::rules::RuleMeta;

/// What every generated record shares, for tools that work on any of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordMeta {
    /// Spec name.
    pub name: &'static str,
    pub c_name: &'static str,
    /// Bytes per record.
    pub size: usize,
    pub doc: &'static str,
    pub fields: &'static [FieldMeta],
    pub leaves: &'static [LeafMeta],
    /// Its validity rules (empty when the sources state none).
    pub rules: &'static [RuleMeta],
}

/// The first `N` bytes of `b`, or [`DecodeError::Short`] naming the record `name`.
#[inline]
pub fn bytes_of<'a, const N: usize>(
    b: &'a [u8],
    name: &'static str,
) -> Result<&'a [u8; N], DecodeError> {
    match b.first_chunk::<N>() {
        Some(head) => Ok(head),
        None => Err(DecodeError::Short {
            name,
            needed: N,
            found: b.len(),
        }),
    }
}

/// The first `N` bytes of `b` for writing, or [`DecodeError::Short`].
#[inline]
pub fn bytes_of_mut<'a, const N: usize>(
    b: &'a mut [u8],
    name: &'static str,
) -> Result<&'a mut [u8; N], DecodeError> {
    let found = b.len();
    match b.first_chunk_mut::<N>() {
        Some(head) => Ok(head),
        None => Err(DecodeError::Short {
            name,
            needed: N,
            found,
        }),
    }
}

/// A record: decoded from the front of a byte slice of any length.
pub trait TopLevel: Packed {
    /// The record's metadata.
    const META: RecordMeta;

    /// Decodes the first `META.size` bytes of `b`; fails only if `b` is shorter.
    #[inline]
    fn decode(b: &[u8]) -> Result<Self, DecodeError>
    where
        for<'a> &'a Self::Bytes: TryFrom<&'a [u8]>,
    {
        let head = b.get(..Self::META.size).map(<&Self::Bytes>::try_from);
        match head {
            Some(Ok(head)) => Ok(Self::read(head)),
            _ => Err(DecodeError::Short {
                name: Self::NAME,
                needed: Self::META.size,
                found: b.len(),
            }),
        }
    }
}
