//! The json target (to be written).

use crate::model::Model;

/// Files under `generated/` for this target, as (relative path, contents).
pub fn render(_model: &Model) -> Vec<(String, String)> {
    Vec::new()
}
