//! What the lints share: the spec files as read, the loaded model, and a finding before
//! the allows are applied.

use std::ops::Range;
use std::path::Path;

use crate::diagnostics::SourceFile;
use crate::model::Model;
use crate::schema::{RawAllow, RawFile};

/// One spec file: its text and what it declares.
pub(crate) struct Spec {
    pub(super) file: SourceFile,
    pub(super) raw: Option<RawFile>,
}

/// What the model-level lints read.
pub(crate) struct Ctx<'a> {
    pub(super) root: &'a Path,
    pub(super) specs: &'a [Spec],
    pub(super) model: &'a Model,
}

impl<'a> Ctx<'a> {
    /// The spec file `relative` (as `TypeDef::file` and `Rule::file` give it): its index and
    /// declarations.
    pub(super) fn spec(&self, relative: &str) -> Option<(usize, &'a RawFile)> {
        let i = (self.specs.iter()).position(|s| s.file.relative(self.root) == relative)?;
        Some((i, self.specs[i].raw.as_ref()?))
    }
}

/// A lint's finding, before allows are applied.
pub(crate) struct Finding<'a> {
    /// Index into the specs.
    pub(super) file: usize,
    pub(super) span: Range<usize>,
    pub(super) lint: &'static str,
    pub(super) message: String,
    pub(super) notes: Vec<String>,
    /// The allows of the item it is about.
    pub(super) allow: Option<&'a RawAllow>,
}
