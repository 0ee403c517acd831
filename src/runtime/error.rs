use core::fmt;

/// Why bytes could not be decoded as the requested struct (a 64-byte word or a record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// Byte 0 is not this struct's opcode.
    WrongOpcode {
        expected: u8,
        found: u8,
        /// The struct that was asked for.
        name: &'static str,
    },
    /// Fewer bytes than one record of this struct.
    Short {
        name: &'static str,
        needed: usize,
        found: usize,
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
            DecodeError::Short {
                name,
                needed,
                found,
            } => write!(f, "{name} needs {needed} bytes, got {found}"),
        }
    }
}

impl core::error::Error for DecodeError {}
