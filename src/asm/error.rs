//! Why a line does not assemble.

use core::fmt;

/// Why a line does not assemble: the column (from 1, in characters) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    pub column: usize,
    pub message: String,
}

impl AsmError {
    pub(super) fn new(column: usize, message: impl Into<String>) -> Self {
        AsmError {
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for AsmError {}
