//! One emitter per target. Each reads only the resolved [`crate::model::Model`].

pub mod rust;
