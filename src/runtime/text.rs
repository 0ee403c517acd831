//! Fixed-length NUL-padded ASCII fields (queue names). The raw bytes are kept, so a name
//! with bytes after its NUL still encodes back unchanged.

use core::fmt;

/// `N` bytes holding ASCII text, NUL-padded; the text is at most `N - 1` bytes so that a
/// NUL always follows it (the encoder's `queName.length() < maxSize`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AsciiZ<const N: usize>(pub [u8; N]);

impl<const N: usize> Default for AsciiZ<N> {
    fn default() -> Self {
        AsciiZ([0; N])
    }
}

/// Why a text does not fit its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextError {
    /// Longer than `max` bytes (the field size minus its NUL).
    TooLong { len: usize, max: usize },
    /// Not ASCII, or contains a NUL.
    NotAscii,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::TooLong { len, max } => write!(
                f,
                "text is {len} bytes; at most {max} fit with the terminating NUL"
            ),
            TextError::NotAscii => f.write_str("text must be ASCII without NUL"),
        }
    }
}

impl<const N: usize> AsciiZ<N> {
    /// Longest text that fits with its NUL.
    pub const MAX_LEN: usize = N - 1;

    /// The bytes before the first NUL.
    pub fn bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        &self.0[..end]
    }

    /// The text before the first NUL, if it is ASCII.
    pub fn as_str(&self) -> Option<&str> {
        let b = self.bytes();
        if b.is_ascii() {
            core::str::from_utf8(b).ok()
        } else {
            None
        }
    }

    /// Whether the field is exactly `text` + NUL padding (what an encoder writes).
    pub fn is_canonical(&self) -> bool {
        canonical_text(&self.0).is_some()
    }

    /// NUL-padded `text`; refuses text that does not fit with its NUL.
    pub fn from_text(text: &str) -> Result<Self, TextError> {
        if !text.is_ascii() || text.as_bytes().contains(&0) {
            return Err(TextError::NotAscii);
        }
        if text.len() > Self::MAX_LEN {
            return Err(TextError::TooLong {
                len: text.len(),
                max: Self::MAX_LEN,
            });
        }
        let mut out = [0u8; N];
        out[..text.len()].copy_from_slice(text.as_bytes());
        Ok(AsciiZ(out))
    }
}

impl<const N: usize> fmt::Debug for AsciiZ<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) if self.is_canonical() => write!(f, "{s:?}"),
            _ => write!(f, "AsciiZ({:?})", &self.0[..]),
        }
    }
}

/// The text of NUL-padded ASCII bytes, if they are exactly text + NUL padding with at
/// least one NUL (what an encoder writes); `None` otherwise.
pub fn canonical_text(bytes: &[u8]) -> Option<&str> {
    let end = bytes.iter().position(|&b| b == 0)?;
    let (text, pad) = bytes.split_at(end);
    (text.is_ascii() && pad.iter().all(|&b| b == 0))
        .then(|| core::str::from_utf8(text).ok())
        .flatten()
}
