//! One emitter per target. Each reads only the resolved [`crate::model::Model`] and
//! returns its files; none of them re-reads the spec.

pub mod c;
pub mod json;
pub mod markdown;
pub mod rust;

/// `1 byte`, `2 bytes`: a count and its noun, in every output.
pub fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}
