use core::fmt;

/// Why a 64-byte word could not be decoded as the requested struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// Byte 0 is not this struct's opcode.
    WrongOpcode {
        expected: u8,
        found: u8,
        /// The struct that was asked for.
        name: &'static str,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::WrongOpcode {
                expected,
                found,
                name,
            } => write!(
                f,
                "opcode {found:#04x} is not {name} (which is {expected:#04x})"
            ),
        }
    }
}

impl core::error::Error for DecodeError {}
