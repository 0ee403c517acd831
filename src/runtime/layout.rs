//! The one generic path every generated type goes through: a [`Layout`] names the bytes a
//! type is read from and written to, so the generated `view::View<'a, T>` and
//! `view::ViewMut<'a, T>` borrow `&T::Bytes` for any of them and only each type's field
//! accessors are generated per type.

use core::fmt::Debug;
use core::hash::Hash;

/// A type with a fixed byte layout.
pub trait Layout {
    /// The bytes it occupies, `[u8; SIZE]`.
    type Bytes: Copy + Debug + Eq + Hash + 'static;
}
