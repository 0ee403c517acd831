//! One emitter per target. Each reads only the resolved [`crate::model::Model`] and
//! returns its files; none of them re-reads the spec.

pub mod c;
pub mod json;
pub mod markdown;
pub mod rust;
