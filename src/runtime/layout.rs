//! The one generic path every generated type goes through: a [`Layout`] names the bytes a
//! type is read from and written to, so the generated `view::View<'a, T>` and
//! `view::ViewMut<'a, T>` borrow `&T::Bytes` for any of them and only each type's field
//! accessors are generated per type. A [`Packed`] type also decodes and encodes whole;
//! the generated code states its name and its field reads and writes, and this trait
//! provides the rest.

use core::fmt::Debug;
use core::hash::Hash;

/// A type with a fixed byte layout.
pub trait Layout {
    /// The bytes it occupies, `[u8; SIZE]`.
    type Bytes: Copy + Debug + Eq + Hash + 'static;
}

/// A type read from and written to its bytes as a whole: every word, every record and
/// every type with validity rules.
pub trait Packed: Layout + Sized {
    /// The spec name.
    const NAME: &'static str;
    /// Its bytes, all zero.
    const ZERO: Self::Bytes;

    /// Every field from `b`; never fails (reserved and unknown bits are kept).
    fn read(b: &Self::Bytes) -> Self;

    /// Every field into `b`, reserved and unknown bits included.
    fn write(&self, b: &mut Self::Bytes);

    /// The bytes of this value, exactly as held.
    #[inline]
    fn encode(&self) -> Self::Bytes {
        let mut b = Self::ZERO;
        self.write(&mut b);
        b
    }
}
